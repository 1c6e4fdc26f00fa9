/* read_pdbqt_lib.c — ligand records of AutoDock PDBQT files: single ligands (ROOT/BRANCH torsion
 * tree, TORSDOF) and multi-MODEL pose files (Vina, AutoDock-GPU). The record structure is
 * PDB's (read_pdb_lib.c); the atoms are PDB fixed columns plus the partial charge (columns
 * 67-76, as Vina reads it) and the AutoDock type (columns 78-79). Both are required: PDBQT
 * without them is malformed (parse), so every good PDBQT record has its charges. */
#include <stdio.h>
#include <string.h>

#include "ligands/readers/reader_internal.h"

/* Element of an AutoDock type: acceptor/donor variants name their element; CG0-CG9 are Meeko's
 * macrocycle closure carbons and G0-G9 their glue pseudo-atoms (Vina's element "Dummy": no map,
 * no pairs but the glue; given "C" here so that element-based code has one, the Vina model
 * (vina_ligand.c) types them from ad_type); W (hydrated docking water) has none. */
static void element_of_type(char el[3], const char *t)
{
    static const char *const map[][2] = {{"A", "C"},  {"NA", "N"}, {"NS", "N"}, {"OA", "O"},
                                         {"OS", "O"}, {"SA", "S"}, {"HD", "H"}, {"HS", "H"}};
    size_t i;
    for (i = 0; i < sizeof map / sizeof map[0]; i++)
        if (strcmp(t, map[i][0]) == 0) {
            strcpy(el, map[i][1]);
            return;
        }
    if ((t[0] == 'G' && (t[1] == '\0' || (t[1] >= '0' && t[1] <= '9'))) || (t[0] == 'C' && t[1] == 'G')) {
        strcpy(el, "C");
        return;
    }
    if (strcmp(t, "W") == 0) {
        el[0] = '\0';
        return;
    }
    vsg_lig_element(el, t, strlen(t));
}

static int pdbqt_atom(vsg_lig_ctx *c, vsg_ligand *lig, const char *line, size_t len)
{
    vsg_lig_atom *a = &lig->atoms[lig->natoms];
    double v[3], q;
    size_t qe, tb, te;
    if (!vsg_lig_pdb_coords(c, lig, line, len, v)) return 0;
    qe = len < 76 ? len : 76;
    if (len <= 66 || vsg_lig_blank(line + 66, qe - 66)) {
        vsg_lig_failf(c, lig, VSG_E_FORMAT, VSG_LIG_PARSE, c->src.line, "no partial charge (columns 67-76 blank)");
        return 0;
    }
    if (!vsg_lig_double(line + 66, qe - 66, &q)) {
        vsg_lig_bad_number(c, lig, c->src.line, "partial charge (columns 67-76)", line + 66, qe - 66);
        return 0;
    }
    for (tb = qe; tb < len && line[tb] == ' '; tb++) {}
    for (te = len; te > tb && line[te - 1] == ' '; te--) {}
    /* two characters at most, but Meeko's macrocycle closure carbons CG0..CG9 (AutoDock-GPU's
     * and Vina 1.2's glue types; Vina knows CG0..CG3) take three */
    const int glue_carbon = te - tb == 3 && line[tb] == 'C' && line[tb + 1] == 'G' && line[tb + 2] >= '0' && line[tb + 2] <= '9';
    if (te == tb || (te - tb > 2 && !glue_carbon)) {
        vsg_lig_failf(c, lig, VSG_E_FORMAT, VSG_LIG_PARSE, c->src.line, "%s AutoDock atom type (columns 78-79)%s%.*s",
                      te == tb ? "no" : "bad", te == tb ? "" : ": ", (int)(te - tb > 8 ? 8 : te - tb), line + tb);
        return 0;
    }
    a->x = v[0], a->y = v[1], a->z = v[2];
    a->charge = q;
    a->line = (int)c->src.line;
    a->formal = 0;
    vsg_lig_copy_field(a->name, sizeof a->name, line + 12, 4);
    memcpy(a->ad_type, line + tb, te - tb);
    a->ad_type[te - tb] = '\0';
    element_of_type(a->element, a->ad_type);
    lig->natoms++;
    return 1;
}

int vsg_lig_read_pdbqt(vsg_lig_ctx *c, vsg_ligand *lig)
{
    int got = vsg_lig_read_models(c, lig, pdbqt_atom, 1);
    if (got && lig->status == VSG_OK && lig->natoms > 0) lig->has_charges = 1;
    return got;
}
