/* pb_map.c — a receptor's PB potential on a given map lattice (vsgrid.h, "receptor map sets
 * from a box"): the electrostatic map of `--elec pb` for AutoDock4 and Vina map sets. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grids/base/vsgrid.h"
#include "grids/formats/grid.h"

vsg_status vsg_pb_map_fill(const vsg_molecule *rec, const vsg_pb_params *p, double weight, vsg_grid *g,
                           vsg_pb_report *report)
{
    if (!rec || !p || !g) return vsg_fail(VSG_E_ARG, "vsg_pb_map_fill: NULL argument");
    if (!isfinite(weight)) return vsg_fail(VSG_E_ARG, "vsg_pb_map_fill: weight %g is not finite", weight);
    vsg_grid_shape s;
    vsg_status st = vsg_grid_shape_of(g, &s);
    if (st != VSG_OK) return st;
    double h = s.spacing[0];
    if (!(h > 0.0) || fabs(s.spacing[1] - h) > 1e-9 * h || fabs(s.spacing[2] - h) > 1e-9 * h)
        return vsg_fail(VSG_E_ARG, "vsg_pb_map_fill: the map needs one spacing on all axes");
    /* no charge, no potential: a map of zeros would pass for a result */
    size_t na = vsg_molecule_atom_count(rec), charged = 0;
    vsg_atom_info a;
    for (size_t i = 0; i < na; i++)
        if (vsg_molecule_atom(rec, i, &a) == VSG_OK && a.charge != 0.0) charged++;
    if (charged == 0)
        return vsg_fail(VSG_E_DATA, "%s: every atom charge is 0, so its PB potential is 0 everywhere: give the "
                        "receptor partial charges ('vsgrid prepare REC.pdb -o REC.pdbqt', or pdb2pqr) or leave out --elec pb",
                        vsg_molecule_source(rec));

    /* the map's own lattice as an explicit box: the fine level has the same nodes (odd counts) */
    vsg_pb_params q = *p;
    q.box_mode = VSG_BOX_EXPLICIT;
    q.around = NULL;
    q.spacing = h;
    for (int k = 0; k < 3; k++) {
        q.box_center[k] = s.origin[k] + 0.5 * (s.n[k] - 1) * h;
        q.box_size[k] = (s.n[k] - 1) * h;
    }
    vsg_level lv;
    st = vsg_fine_level(rec, &q, &lv);
    if (st != VSG_OK) return st;
    int same = 1;
    for (int k = 0; k < 3; k++)
        same &= lv.n[k] == s.n[k] && fabs(lv.origin[k] - s.origin[k]) <= 1e-6 * h;
    if (!same) /* rounding took another count: a box one spacing larger on each side, interpolated */
        for (int k = 0; k < 3; k++) q.box_size[k] = (s.n[k] + 1) * h;
    vsg_grid *phi = NULL;
    vsg_pb_report r;
    memset(&r, 0, sizeof r);
    st = vsg_pb_solve(rec, &q, &phi, &r);
    if (st != VSG_OK) return st;
    double f = weight * r.kt_kcal; /* kT/e → kcal/mol/e, times the weight */
    float *out = g->data;
    const float *in = vsg_grid_values(phi);
    vsg_grid_shape ps;
    vsg_grid_shape_of(phi, &ps);
    int direct = 1;
    for (int k = 0; k < 3; k++) direct &= ps.n[k] == s.n[k] && fabs(ps.origin[k] - s.origin[k]) <= 1e-6 * h;
    size_t nn = vsg_grid_nodes(g);
    if (direct) {
        for (size_t i = 0; i < nn; i++) out[i] = (float)(f * in[i]);
    } else {
        for (int z = 0; z < s.n[2] && st == VSG_OK; z++)
            for (int y = 0; y < s.n[1] && st == VSG_OK; y++)
                for (int x = 0; x < s.n[0]; x++) {
                    double v;
                    st = vsg_grid_interpolate(phi, s.origin[0] + x * h, s.origin[1] + y * h, s.origin[2] + z * h, &v);
                    if (st != VSG_OK) {
                        st = vsg_fail(VSG_E_ARG, "PB map: node (%d,%d,%d) lies outside the PB grid", x, y, z);
                        break;
                    }
                    out[(size_t)x + (size_t)s.n[0] * ((size_t)y + (size_t)s.n[1] * z)] = (float)(f * v);
                }
    }
    vsg_grid_free(phi);
    if (st == VSG_OK && report) *report = r;
    return st;
}
