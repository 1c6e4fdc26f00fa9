/* pose_checks_docked.c — PoseBusters' checks of a docking result's pose in its map set's box
 * (vsgrid.h, vsg_dock_pose_checks), and the names of the checks a pose failed: what `vsgrid dock`
 * and the flexible screen write beside each pose. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ligands/checks/pose_checks.h"

int vsg_pc_target_box(const vsg_vina_target *t, double lo[3], double hi[3])
{
    vsg_vina_box b;
    if (!t || !vsg_vina_target_is_maps(t, &b)) return 0;
    for (int d = 0; d < 3; d++) lo[d] = b.center[d] - b.size[d] / 2, hi[d] = b.center[d] + b.size[d] / 2;
    return 1;
}

vsg_status vsg_dock_pose_checks(const vsg_pose_checker *c, const vsg_vina_target *t, const vsg_dock_result *r, int k,
                                vsg_pose_check_result *out)
{
    if (!c || !r || !out || k < 0 || k >= r->npose || !r->pose[k].xyz)
        return vsg_fail(VSG_E_ARG, "vsg_dock_pose_checks: NULL argument or no pose %d", k);
    /* the pose's atoms are the docked model's (non-polar hydrogens merged): placed on the
       reference's atoms through record_atom, the others NaN (not checked) */
    double *xyz = malloc(sizeof(double) * 3 * (size_t)(c->natoms + 1));
    if (!xyz) return vsg_fail(VSG_E_NOMEM, "out of memory for the pose checks");
    for (int i = 0; i < 3 * c->natoms; i++) xyz[i] = NAN;
    for (int m = 0; m < r->natoms; m++) {
        const int a = r->record_atom ? r->record_atom[m] : m;
        if (a >= 0 && a < c->natoms)
            for (int q = 0; q < 3; q++) xyz[3 * a + q] = r->pose[k].xyz[3 * m + q];
    }
    double lo[3], hi[3];
    const int box = vsg_pc_target_box(t, lo, hi);
    vsg_status st = vsg_pose_checker_run(c, xyz, box ? lo : NULL, box ? hi : NULL, out);
    free(xyz);
    return st;
}

size_t vsg_pose_check_failed(const vsg_pose_check_result *r, char *buf, size_t len)
{
    if (!buf || len == 0) return 0;
    buf[0] = '\0';
    if (!r) return 0;
    const struct { const char *name; int state; } checks[] = {
        {"bond_lengths", r->bond_lengths}, {"bond_angles", r->bond_angles}, {"aromatic_flatness", r->aromatic_flatness},
        {"double_bond_flatness", r->double_bond_flatness}, {"stereo", r->stereo}, {"internal_clash", r->internal_clash},
        {"receptor_clash", r->receptor_clash}, {"near_receptor", r->near_receptor}, {"inside_box", r->inside_box}};
    size_t used = 0;
    for (size_t i = 0; i < sizeof checks / sizeof checks[0]; i++)
        if (checks[i].state == VSG_CHECK_FAIL && used + strlen(checks[i].name) + 2 < len)
            used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ";" : "", checks[i].name);
    return used;
}
