/* cli_receptor.c — receptors, and the ligands that place boxes, named on the command line. A
 * PDB receptor is prepared as `vsgrid prepare` does (vsg_receptor_read) with its summary on
 * stderr, so every command that takes a receptor takes a PDB the same way; where a file must
 * name the receptor for another program (the gpf of an AutoDock4 map set, which autogrid4
 * reads), the prepared PDBQT is kept beside it. A --around ligand may be in any ligand format. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/cli/cli.h"
#include "engine/cli/grid_batch.h"

vsg_status vsg_cli_read_receptor(const char *path, vsg_prep_format format, int quiet, vsg_molecule **m)
{
    char *prep = NULL;
    vsg_status st = vsg_receptor_read(path, format, m, &prep);
    if (prep && !quiet) fputs(prep, stderr);
    free(prep);
    return st;
}

vsg_status vsg_cli_receptor_pdbqt(const char *path, const char *keep, int quiet, const char **used)
{
    *used = path;
    if (!vsg_receptor_is_pdb(path)) return VSG_OK;
    vsg_prep_options o;
    vsg_prep_options_default(&o);
    o.format = VSG_PREP_PDBQT;
    char *text = NULL;
    vsg_prep_summary s;
    memset(&s, 0, sizeof s);
    vsg_status st = vsg_receptor_prepare(path, &o, &text, &s);
    if (st != VSG_OK) return st;
    if (s.report && !quiet) fputs(s.report, stderr);
    vsg_prep_summary_free(&s);
    st = vsg_batch_make_dirs(keep); /* keep's folder, as mkdir -p */
    if (st != VSG_OK) {
        free(text);
        return st;
    }
    FILE *f = fopen(keep, "w");
    int ok = f && fputs(text, f) >= 0;
    if (f && fclose(f) != 0) ok = 0;
    free(text);
    if (!ok) return vsg_fail(VSG_E_IO, "cannot write the prepared receptor %s", keep);
    *used = keep;
    return VSG_OK;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && !strcmp(s + n - m, suffix);
}

vsg_status vsg_cli_receptor_not_grid(const char *path)
{
    static const char *const receptor_ext[] = {".pdb", ".pdb.gz", ".ent", ".ent.gz", ".pqr", ".pqr.gz", ".pdbqt",
                                               ".pdbqt.gz", ".mol2", ".cif", ".cif.gz", ".mmcif", NULL};
    for (int i = 0; receptor_ext[i]; i++)
        if (ends_with(path, receptor_ext[i]))
            return vsg_fail(VSG_E_FORMAT, "%s is a receptor, not a grid or map set: screen scores on maps made from "
                            "it first ('vsgrid maps %s --scoring vina|ad4 --around LIG -o PREFIX', or 'vsgrid grid %s "
                            "--around LIG -o G.vsg'); 'vsgrid rescore %s POSES' does both in one command",
                            path, path, path, path);
    return VSG_OK;
}

vsg_status vsg_cli_read_around(const char *path, vsg_molecule **m)
{
    char base[4096];
    snprintf(base, sizeof base, "%s", path);
    size_t n = strlen(base);
    if (n > 3 && !strcmp(base + n - 3, ".gz")) base[n - 3] = '\0';
    if (ends_with(base, ".pdbqt")) {
        const vsg_status st = vsg_molecule_read(path, NULL, m);
        if (st != VSG_E_DATA) return st;
        /* a Meeko ligand's pseudo-atoms (hydrated docking's W, macrocycle CG0/G0) are no receptor
         * types: the ligand reader knows them */
        vsg_clear_error();
        return vsg_ligand_file_molecule(path, m);
    }
    if (ends_with(base, ".pqr") || ends_with(base, ".mol2"))
        return vsg_molecule_read(path, NULL, m);
    return vsg_ligand_file_molecule(path, m); /* SDF, PDB (no charges needed for a box), ... */
}

int vsg_cli_warn_ligand_in_receptor(const char *cmd, const vsg_molecule *rec, const char *rec_path,
                                    const vsg_molecule *lig, const char *lig_path)
{
    size_t nl = vsg_molecule_atom_count(lig), nr = vsg_molecule_atom_count(rec), heavy = 0, covered = 0;
    vsg_atom_info a, b, first;
    memset(&first, 0, sizeof first);
    for (size_t i = 0; i < nl; i++) {
        if (vsg_molecule_atom(lig, i, &a) != VSG_OK || !strcmp(a.element, "H")) continue;
        heavy++;
        for (size_t k = 0; k < nr; k++) {
            if (vsg_molecule_atom(rec, k, &b) != VSG_OK) continue;
            const double dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z;
            if (dx * dx + dy * dy + dz * dz < 1.0) { /* within 1 Å: the same atom, not a contact */
                if (!covered++) first = b;
                break;
            }
        }
    }
    if (heavy == 0 || 2 * covered < heavy) return 0;
    vsg_warn("%s: %zu of the %zu heavy atoms of %s lie within 1 A of atoms of %s (first: %s %c%d): the ligand itself "
             "is part of the receptor, so its pocket is full and docking or scoring there gives clashes. Remove its "
             "HETATM lines from the receptor (a co-crystallised ligand), then prepare it again",
             cmd, covered, heavy, lig_path, rec_path, first.residue_name, first.chain, first.residue_number);
    return 1;
}

int vsg_cli_warn_group_in_box(const char *cmd, const vsg_molecule *rec, const char *rec_path, const double center[3],
                              const double size[3])
{
    return vsg_receptor_warn_box_group(rec, rec_path, cmd, center, size);
}

int vsg_cli_warn_poses_in_receptor(const char *cmd, const vsg_molecule *rec, const char *rec_path, const char *poses)
{
    vsg_molecule *first = NULL; /* the first record stands for the poses: a holo receptor holds them all */
    if (!poses || !strcmp(poses, "-") || vsg_ligand_file_molecule(poses, &first) != VSG_OK) {
        vsg_molecule_free(first);
        return 0;
    }
    int warned = vsg_cli_warn_ligand_in_receptor(cmd, rec, rec_path, first, poses);
    vsg_molecule_free(first);
    return warned;
}
