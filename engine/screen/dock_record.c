/* dock_record.c — the names of a record's docking failures (dock_record.h), one place for the
 * flexible screen and prepare-ligands' PDBQT output. */
#include <stdlib.h>
#include <string.h>

#include "engine/screen/dock_record.h"

const char *vsg_dock_fail_code(vsg_status st, const char *msg)
{
    switch (st) {
    case VSG_E_DATA: return msg && strstr(msg, "tree") ? VSG_LIG_TORSIONS : VSG_LIG_TYPE;
    case VSG_E_FORMAT: return VSG_LIG_TORSIONS;
    case VSG_E_LIMIT: return VSG_LIG_TOO_MANY;
    case VSG_E_NOMEM: return "nomem";
    default: return "error";
    }
}

/* Union-find over the bonds: a salt or a mixture read from SDF/MOL2 is one record of several
 * molecules, which a torsion tree (one root) cannot hold. */
int vsg_record_fragments(const vsg_ligand *lig)
{
    if (lig->format == VSG_LIG_PDBQT || lig->format == VSG_LIG_PDB || lig->natoms < 2) return 1;
    int *up = malloc(sizeof(int) * (size_t)lig->natoms);
    if (!up) return 1;
    for (int i = 0; i < lig->natoms; i++) up[i] = i;
    int n = lig->natoms;
    for (int k = 0; k < lig->nbonds; k++) {
        int a = lig->bonds[k].a, b = lig->bonds[k].b;
        if (a < 0 || b < 0 || a >= lig->natoms || b >= lig->natoms) continue;
        while (up[a] != a) a = up[a] = up[up[a]];
        while (up[b] != b) b = up[b] = up[up[b]];
        if (a != b) up[a] = b, n--;
    }
    free(up);
    return n;
}
