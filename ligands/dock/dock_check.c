/* dock_check.c — whether a docked pose means what its score says. Two poses look scored but are
 * not: one with heavy atoms outside the maps' box, whose score is mostly Vina's out-of-box
 * penalty (a box too small for the ligand: "best 24777464 kcal/mol"), one whose intermolecular
 * energy is still repulsive (a box or pocket the ligand does not fit: "best +26.7"), and one that
 * touches no receptor atom, whose intermolecular term is exactly 0 because every map is 0 where it lies (a
 * box beyond the receptor's 8 Å cutoff: "best 0.000"). `vina` itself refuses the first; the
 * second it reports. vsgrid reports neither as a result: the command, the screen row and Python
 * all take this one rule. */
#include <math.h>
#include <stdio.h>

#include "grids/base/vsgrid.h"

/* The largest distance between two of the pose's atoms: what the box must hold. */
static double pose_span(const vsg_dock_result *r, const double *xyz)
{
    double best = 0;
    for (int i = 0; i < r->natoms; i++)
        for (int j = i + 1; j < r->natoms; j++) {
            const double dx = xyz[3 * i] - xyz[3 * j], dy = xyz[3 * i + 1] - xyz[3 * j + 1],
                         dz = xyz[3 * i + 2] - xyz[3 * j + 2];
            const double d2 = dx * dx + dy * dy + dz * dz;
            if (d2 > best) best = d2;
        }
    return sqrt(best);
}

vsg_status vsg_dock_pose_check(const vsg_vina_target *t, const vsg_dock_result *r, int k, char *msg, size_t len)
{
    if (msg && len) msg[0] = '\0';
    if (!t || !r || k < 0 || k >= r->npose || !r->pose) return vsg_fail(VSG_E_ARG, "vsg_dock_pose_check: no pose %d", k);
    const vsg_dock_pose *p = &r->pose[k];
    vsg_vina_box box = {{0, 0, 0}, {0, 0, 0}, 0};
    vsg_vina_target_is_maps(t, &box);
    if (p->score.outside > 0) {
        if (msg && len)
            snprintf(msg, len,
                     "%d heavy atoms of the pose lie outside the maps' box (%.1f x %.1f x %.1f A; the ligand spans %.1f A): "
                     "its score is Vina's out-of-box penalty; make maps whose box holds the ligand "
                     "(vsgrid maps REC --around LIG --padding 8, or a larger --box)",
                     p->score.outside, box.size[0], box.size[1], box.size[2], pose_span(r, p->xyz));
        return VSG_E_DATA;
    }
    if (p->score.inter > 0) { /* the search's best still clashes: no room for the ligand */
        if (msg && len)
            snprintf(msg, len,
                     "the pose clashes with the receptor (intermolecular energy %+.1f kcal/mol, repulsive): the ligand "
                     "does not fit the maps' box (%.1f x %.1f x %.1f A; the ligand spans %.1f A) or the pocket; make "
                     "maps whose box holds it (vsgrid maps REC --around LIG --padding 8)",
                     p->score.inter, box.size[0], box.size[1], box.size[2], pose_span(r, p->xyz));
        return VSG_E_DATA;
    }
    if (p->score.inter == 0) {
        if (msg && len)
            snprintf(msg, len,
                     "the pose touches no receptor atom (every map is 0 where it lies: the box, centre %.1f,%.1f,%.1f, "
                     "reaches beyond the receptor's 8 A cutoff): make the maps over the pocket "
                     "(vsgrid maps REC --around LIG)",
                     box.center[0], box.center[1], box.center[2]);
        return VSG_E_DATA;
    }
    return VSG_OK;
}
