/* dock_model.c — vsg_dock_tree (vsgrid.h): the model and torsion tree a docking search would move,
 * without a target and without a search, so that a prepared ligand is written (`vsgrid
 * prepare-ligands -o OUT.pdbqt`) with the very tree `vsgrid dock` uses: the same rotatable bonds,
 * the same central root, the same atom order, by the same code (dock_prepare_tree). */
#include <stdlib.h>
#include <string.h>

#include "ligands/dock/dock_internal.h"

vsg_status vsg_dock_tree(const vsg_ligand *lig, vsg_dock_result *out)
{
    if (!out) return vsg_fail(VSG_E_ARG, "vsg_dock_tree: NULL argument");
    memset(out, 0, sizeof *out);
    if (!lig) return vsg_fail(VSG_E_ARG, "vsg_dock_tree: NULL argument");
    const double t0 = vsg_now();
    dock_prep d;
    vsg_status st = dock_prepare_tree(lig, &d);
    if (st != VSG_OK) return st;
    const int n = d.L->natoms;
    out->pose = calloc(1, sizeof *out->pose);
    if (out->pose) out->pose[0].xyz = malloc(sizeof(double) * 3 * (size_t)(n > 0 ? n : 1));
    if (!out->pose || !out->pose[0].xyz) st = vsg_fail(VSG_E_NOMEM, "vsg_dock_tree: out of memory");
    if (st == VSG_OK) {
        out->npose = 1;
        memcpy(out->pose[0].xyz, d.L->xyz, sizeof(double) * 3 * (size_t)n); /* the input pose, no score */
        st = dock_result_tree(&d, d.tree.nrot, out);
    }
    dock_prep_release(&d);
    out->seconds = vsg_now() - t0;
    if (st != VSG_OK) vsg_dock_result_release(out);
    return st;
}
