/* ligand_molecule.c — the first record of a ligand file as a vsg_molecule: what a box "around
 * a ligand" (grid/maps --around) needs from any ligand format, SDF included, which the
 * molecule readers (PQR, PDBQT, MOL2, PDB) do not read. */
#include <stdio.h>
#include <string.h>

#include "grids/receptor/molecule.h"

vsg_status vsg_ligand_file_molecule(const char *path, vsg_molecule **out)
{
    if (!path || !out) return vsg_fail(VSG_E_ARG, "vsg_ligand_file_molecule: NULL argument");
    *out = NULL;
    const char *paths[1] = {path};
    vsg_ligand_reader *rd = NULL;
    vsg_status st = vsg_ligand_reader_open(paths, 1, NULL, &rd);
    if (st != VSG_OK) return st;
    vsg_ligand lig;
    vsg_ligand_init(&lig);
    int got = vsg_ligand_reader_next(rd, &lig);
    if (got != 1) st = vsg_fail(VSG_E_DATA, "%s: no record", path);
    else if (lig.status != VSG_OK) st = vsg_fail(lig.status, "%s: %s", path, lig.message);
    else if (lig.natoms < 1) st = vsg_fail(VSG_E_DATA, "%s: the first record has no atoms", path);
    /* AutoDock types for SDF/MOL2 (PDBQT has its own); a molecule without bonds keeps none */
    int untyped = 0;
    for (int i = 0; st == VSG_OK && i < lig.natoms; i++) untyped |= !lig.atoms[i].ad_type[0];
    if (st == VSG_OK && untyped && lig.nbonds > 0 && vsg_ligand_assign_ad_types(&lig) != VSG_OK)
        for (int i = 0; i < lig.natoms; i++) lig.atoms[i].ad_type[0] = '\0';
    vsg_molecule *m = st == VSG_OK ? vsg_molecule_new(path, "ligand") : NULL;
    if (st == VSG_OK && !m) st = vsg_fail(VSG_E_NOMEM, "%s: out of memory", path);
    for (int i = 0; st == VSG_OK && i < lig.natoms; i++) {
        const vsg_lig_atom *l = &lig.atoms[i];
        vsg_atom a;
        memset(&a, 0, sizeof a);
        a.x = l->x, a.y = l->y, a.z = l->z;
        a.charge = l->charge;
        a.radius = vsg_radius_for_element(l->element);
        a.serial = i + 1;
        a.model = 1;
        a.line = l->line;
        a.chain = a.insertion_code = ' ';
        snprintf(a.name, sizeof a.name, "%.4s", l->name);
        snprintf(a.residue_name, sizeof a.residue_name, "LIG");
        snprintf(a.element, sizeof a.element, "%s", l->element);
        snprintf(a.ad_type, sizeof a.ad_type, "%s", l->ad_type);
        st = vsg_molecule_push(m, &a);
    }
    vsg_ligand_release(&lig);
    vsg_ligand_reader_close(rd);
    if (st != VSG_OK) {
        vsg_molecule_free(m);
        return st;
    }
    *out = m;
    return VSG_OK;
}
