/* vina_score.c — one pose's Vina or Vinardo score, term by term, as `vina --score_only` forms
 * it (vina.cpp's score(): inter on the maps or on the receptor's atoms, the ligand's intra,
 * N_rot's division by conf_independent's num_tors_div). The order of every operation follows
 * Vina's where it could change the last bits. */
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "ligands/score/vina_internal.h"

/* grid::evaluate_aux: trilinear on the map, a coordinate outside clamped to the face, plus
 * slope × the distance outside (Å); the value is curled. */
static double map_eval(const vsg_vina_target *t, const double *m, const double p[3], int *outside)
{
    double s[3], miss[3] = {0, 0, 0};
    int a[3];
    for (int d = 0; d < 3; d++) {
        s[d] = (p[d] - t->begin[d]) * t->factor[d];
        const double top = t->n[d] - 1;
        if (s[d] < 0) {
            miss[d] = -s[d];
            a[d] = 0;
            s[d] = 0;
        } else if (s[d] >= top) {
            miss[d] = s[d] - top;
            a[d] = t->n[d] - 2;
            s[d] = 1;
        } else {
            a[d] = (int)s[d];
            s[d] -= a[d];
        }
    }
    if (miss[0] > 0 || miss[1] > 0 || miss[2] > 0) ++*outside;
    const double penalty = VINA_SLOPE * (miss[0] * t->factor_inv[0] + miss[1] * t->factor_inv[1] + miss[2] * t->factor_inv[2]);
    const size_t nx = (size_t)t->n[0], nxy = nx * (size_t)t->n[1];
    const size_t i000 = (size_t)a[0] + nx * (size_t)a[1] + nxy * (size_t)a[2];
    const double f000 = m[i000], f100 = m[i000 + 1], f010 = m[i000 + nx], f110 = m[i000 + nx + 1];
    const double f001 = m[i000 + nxy], f101 = m[i000 + nxy + 1], f011 = m[i000 + nxy + nx], f111 = m[i000 + nxy + nx + 1];
    const double x = s[0], y = s[1], z = s[2], mx = 1 - x, my = 1 - y, mz = 1 - z;
    double f = f000 * mx * my * mz + f100 * x * my * mz + f010 * mx * y * mz + f110 * x * y * mz + f001 * mx * my * z +
               f101 * x * my * z + f011 * mx * y * z + f111 * x * y * z;
    return vina_curl(f) + penalty;
}

double vina_atoms_sum(const vsg_vina_target *t, int xs, const double q[3])
{
    int lo[3], hi[3];
    for (int d = 0; d < 3; d++) {
        lo[d] = (int)floor((q[d] - 8.0 - t->cell_lo[d]) / 8.0);
        hi[d] = (int)floor((q[d] + 8.0 - t->cell_lo[d]) / 8.0);
        if (lo[d] < 0) lo[d] = 0;
        if (hi[d] > t->ncell[d] - 1) hi[d] = t->ncell[d] - 1;
        if (lo[d] > hi[d]) return 0; /* no receptor atom within 8 Å */
    }
    double e = 0;
    for (int cz = lo[2]; cz <= hi[2]; cz++)
        for (int cy = lo[1]; cy <= hi[1]; cy++)
            for (int cx = lo[0]; cx <= hi[0]; cx++) {
                const int c = cx + t->ncell[0] * (cy + t->ncell[1] * cz);
                for (int j = t->cell_start[c]; j < t->cell_start[c + 1]; j++) {
                    const double *r = &t->rxyz[3 * j];
                    const double dx = q[0] - r[0], dy = q[1] - r[1], dz = q[2] - r[2];
                    const double r2 = dx * dx + dy * dy + dz * dz;
                    if (r2 < VINA_CUTOFF_SQR) e += vina_table_eval(&t->tables, xs, t->rtype[j], r2);
                }
            }
    return e;
}

/* non_cache::eval: the atom clamped into the box (plus the penalty), then every typed receptor
 * atom within 8 Å from the table; the atom's sum is curled. */
static double atoms_eval(const vsg_vina_target *t, const vsg_vina_box *box, int xs, const double p[3], int *outside)
{
    double q[3], penalty = 0;
    for (int d = 0; d < 3; d++) {
        int nv = (int)ceil(box->size[d] / box->spacing - 1e-9); /* a map set's n_voxels · spacing: no extra voxel */
        double begin = box->center[d] - box->spacing * nv / 2, end = begin + box->spacing * nv;
        q[d] = p[d];
        if (p[d] < begin) q[d] = begin, penalty += fabs(p[d] - begin);
        else if (p[d] > end) q[d] = end, penalty += fabs(p[d] - end);
    }
    if (penalty > 0) ++*outside;
    penalty *= VINA_SLOPE;
    return vina_curl(vina_atoms_sum(t, xs, q)) + penalty;
}

double vina_score_atom(const vsg_vina_target *t, int xs, const double p[3], int *outside)
{
    vsg_vina_box box;
    if (t->is_maps && !t->rxyz) return map_eval(t, t->map[xs], p, outside);
    if (t->is_maps) vsg_vina_target_is_maps(t, &box);
    else { /* a receptor target: no box (as the pose's autobox, which holds the atom) */
        *outside += 0;
        return vina_curl(vina_atoms_sum(t, xs, p));
    }
    return atoms_eval(t, &box, xs, p, outside);
}

vsg_status vsg_vina_score_pose(const vsg_vina_target *t, const vsg_vina_ligand *l, vsg_vina_score *out)
{
    if (!t || !l || !out) return vsg_fail(VSG_E_ARG, "vsg_vina_score_pose: NULL argument");
    vsg_vina_score r = {0};
    vsg_vina_box box;
    /* a map set that carries its receptor's atoms (vsg_vina_target_add_receptor) scores on the
     * atoms in the maps' box, as vina --receptor scores its docked poses (non_cache in the box) */
    const int on_maps = t->is_maps && !t->rxyz;
    if (!t->is_maps) vsg_vina_ligand_autobox(l, &box);
    else vsg_vina_target_is_maps(t, &box);
    for (int i = 0; i < l->natoms; i++) {
        const int x = l->xs[i];
        if (x == VSG_XS_NONE) continue;
        if (on_maps && !t->map[x])
            return vsg_fail(VSG_E_DATA, "line %d: atom %d is %s, and the map set has no %s map", l->line[i], i + 1,
                            vsg_xs_type_name(x), vsg_xs_type_name(x));
        r.inter += on_maps ? map_eval(t, t->map[x], &l->xyz[3 * i], &r.outside)
                           : atoms_eval(t, &box, x, &l->xyz[3 * i], &r.outside);
    }
    for (int k = 0; k < l->npairs; k++) {
        const int i = l->pair[k][0], j = l->pair[k][1];
        const double *a = &l->xyz[3 * i], *b = &l->xyz[3 * j];
        const double dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2], r2 = dx * dx + dy * dy + dz * dz;
        if (r2 < VINA_CUTOFF_SQR) r.intra += vina_curl(vina_table_eval(&t->tables, l->xs[i], l->xs[j], r2));
    }
    /* --score_only: the unbound system is the pose itself, so its intra cancels */
    r.unbound = r.intra;
    r.num_tors = l->info.num_tors;
    const double e = r.inter + r.intra - r.unbound;
    const double div = vina_num_tors_div(r.num_tors);
    r.total = fabs(e) < DBL_EPSILON ? 0 : e / div;
    r.torsional = r.total - e;
    *out = r;
    return VSG_OK;
}
