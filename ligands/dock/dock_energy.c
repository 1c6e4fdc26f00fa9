/* dock_energy.c — the energy the docking search minimises and its gradient with respect to
 * every atom (dock_internal.h). Inter: each heavy atom on its Vina map, trilinear as
 * vina_score.c (and Vina's grid) interpolates it, clamped into the box with Vina's 10^6 kcal/mol/Å
 * penalty outside, curled at the search's cap v (e > 0 → e·v/(v + e)); its gradient is the
 * trilinear one (the cell's differences along each axis) times the curl's slope v²/(v + e)².
 * Intra: each intramolecular pair's energy from samples at Vina's r² points k/32 Å² (the
 * analytic terms, vsg_vina_pair_terms), linear in r² between them — the function whose bin means
 * are Vina's score table, and continuous, so the optimiser sees a true slope — curled at v.
 * Macrocycle glue (Meeko's Gk–CGk pairs, vina_glue.h: Vina 1.2's 50·r linear attraction plus the
 * pair's steric terms, cut at 20 Å): evaluated as the function itself, curled at v, added to
 * intra, as Vina's search adds its glue pairs (model.cpp eval_deriv). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ligands/dock/dock_internal.h"
#include "ligands/score/vina_glue.h"

vsg_status dock_energy_init(dock_energy *e, const vsg_vina_target *t, const vsg_vina_ligand *l, const dock_tree *tree)
{
    return dock_energy_init_flex(e, t, l, tree, NULL);
}

vsg_status dock_energy_init_flex(dock_energy *e, const vsg_vina_target *t, const vsg_vina_ligand *l, const dock_tree *tree,
                                 const dock_flex_energy *fe)
{
    memset(e, 0, sizeof *e);
    e->t = t, e->l = l, e->tree = tree, e->flex = fe;
    if (!t->is_maps) return vsg_fail(VSG_E_ARG, "dock: the target must be a Vina map set (vsg_vina_target_maps)");
    for (int i = 0; i < l->natoms; i++) {
        const int x = l->xs[i];
        if (x != VSG_XS_NONE && !t->map[x])
            return vsg_fail(VSG_E_DATA, "line %d: atom %d is %s, and the map set has no %s map", l->line[i], i + 1,
                            vsg_xs_type_name(x), vsg_xs_type_name(x));
    }
    int nslot = 0;
    for (int a = 0; a < VSG_XS_COUNT; a++)
        for (int b = 0; b < VSG_XS_COUNT; b++) e->slot[a][b] = -1;
    for (int k = 0; k < l->npairs; k++) {
        const int a = l->xs[l->pair[k][0]], b = l->xs[l->pair[k][1]];
        if (e->slot[a][b] < 0) e->slot[a][b] = e->slot[b][a] = nslot++;
    }
    if (fe) { /* flex residues: their atoms' maps, and the type pairs of their pairs */
        const vsg_vina_ligand *F = fe->f->L;
        for (int m = 0; m < fe->f->nmov; m++) {
            const int j = fe->f->mov[m], x = F->xs[j];
            if (!t->map[x])
                return vsg_fail(VSG_E_DATA, "%s:%d: flex atom %d is %s, and the map set has no %s map (make the maps "
                                "for the flex residues' types too)", fe->f->path, F->line[j], j + 1, vsg_xs_type_name(x),
                                vsg_xs_type_name(x));
        }
        for (int k = 0; k < F->npairs; k++) {
            const int a = F->xs[F->pair[k][0]], b = F->xs[F->pair[k][1]];
            if (e->slot[a][b] < 0) e->slot[a][b] = e->slot[b][a] = nslot++;
        }
        for (int k = 0; k < fe->nlf; k++) {
            const int a = l->xs[fe->lf[k][0]], b = F->xs[fe->lf[k][1]];
            if (e->slot[a][b] < 0) e->slot[a][b] = e->slot[b][a] = nslot++;
        }
    }
    const size_t per = VINA_TABLE_BINS + 1;
    e->pair_table = malloc(sizeof(double) * per * (size_t)(nslot > 0 ? nslot : 1));
    if (!e->pair_table) return vsg_fail(VSG_E_NOMEM, "dock: out of memory");
    const vsg_vina_scoring sf = t->tables.sf;
    for (int a = 0; a < VSG_XS_COUNT; a++)
        for (int b = a; b < VSG_XS_COUNT; b++) {
            const int s = e->slot[a][b];
            if (s < 0) continue;
            for (size_t k = 0; k < per; k++) {
                vsg_vina_terms tm;
                vsg_status st = vsg_vina_pair_terms(sf, (vsg_xs_type)a, (vsg_xs_type)b, sqrt((double)k / VINA_TABLE_FACTOR), &tm);
                e->pair_table[(size_t)s * per + k] = st == VSG_OK ? tm.energy : 0;
            }
        }
    return VSG_OK;
}

void dock_energy_release(dock_energy *e)
{
    if (!e) return;
    free(e->pair_table);
    e->pair_table = NULL;
}

/* Curls e at cap v; *slope gets de'/de. */
static inline double curl(double e, double v, double *slope)
{
    if (e > 0) {
        const double d = v + e;
        *slope = v * v / (d * d);
        return e * v / d;
    }
    *slope = 1;
    return e;
}

static double map_atom(const vsg_vina_target *t, const double *m, const double p[3], double v, double grad[3])
{
    double s[3], miss[3] = {0, 0, 0}, sign[3] = {0, 0, 0};
    int a[3];
    for (int d = 0; d < 3; d++) {
        s[d] = (p[d] - t->begin[d]) * t->factor[d];
        const double top = t->n[d] - 1;
        if (s[d] < 0) {
            miss[d] = -s[d], sign[d] = -1;
            a[d] = 0, s[d] = 0;
        } else if (s[d] >= top) {
            miss[d] = s[d] - top, sign[d] = 1;
            a[d] = t->n[d] - 2, s[d] = 1;
        } else {
            a[d] = (int)s[d];
            s[d] -= a[d];
        }
    }
    const size_t nx = (size_t)t->n[0], nxy = nx * (size_t)t->n[1];
    const size_t i000 = (size_t)a[0] + nx * (size_t)a[1] + nxy * (size_t)a[2];
    const double f000 = m[i000], f100 = m[i000 + 1], f010 = m[i000 + nx], f110 = m[i000 + nx + 1];
    const double f001 = m[i000 + nxy], f101 = m[i000 + nxy + 1], f011 = m[i000 + nxy + nx], f111 = m[i000 + nxy + nx + 1];
    const double x = s[0], y = s[1], z = s[2], mx = 1 - x, my = 1 - y, mz = 1 - z;
    const double f = f000 * mx * my * mz + f100 * x * my * mz + f010 * mx * y * mz + f110 * x * y * mz +
                     f001 * mx * my * z + f101 * x * my * z + f011 * mx * y * z + f111 * x * y * z;
    double slope;
    const double e = curl(f, v, &slope);
    if (grad) {
        double gs[3];
        gs[0] = (f100 - f000) * my * mz + (f110 - f010) * y * mz + (f101 - f001) * my * z + (f111 - f011) * y * z;
        gs[1] = (f010 - f000) * mx * mz + (f110 - f100) * x * mz + (f011 - f001) * mx * z + (f111 - f101) * x * z;
        gs[2] = (f001 - f000) * mx * my + (f101 - f100) * x * my + (f011 - f010) * mx * y + (f111 - f110) * x * y;
        for (int d = 0; d < 3; d++)
            grad[d] = miss[d] > 0 ? VINA_SLOPE * sign[d] : slope * gs[d] * t->factor[d];
    }
    const double penalty = VINA_SLOPE * (miss[0] * t->factor_inv[0] + miss[1] * t->factor_inv[1] + miss[2] * t->factor_inv[2]);
    return e + penalty;
}

/* One pair (atoms i, j of xyz, XS types a, b) from its linear-in-r² samples, curled at cap; g
 * (may be NULL) gets its gradient. */
static double pair_eval(const dock_energy *e, const double *xyz, int i, int j, int a, int b, double cap, double *g)
{
    const size_t per = VINA_TABLE_BINS + 1;
    const double *pa = &xyz[3 * i], *pb = &xyz[3 * j];
    const double dx = pa[0] - pb[0], dy = pa[1] - pb[1], dz = pa[2] - pb[2], r2 = dx * dx + dy * dy + dz * dz;
    if (!(r2 < VINA_CUTOFF_SQR)) return 0;
    const double *tab = &e->pair_table[(size_t)e->slot[a][b] * per];
    const double xk = r2 * VINA_TABLE_FACTOR;
    int k0 = (int)xk;
    if (k0 > VINA_TABLE_BINS - 1) k0 = VINA_TABLE_BINS - 1;
    const double fr = xk - k0, d = tab[k0 + 1] - tab[k0];
    double slope;
    const double en = curl(tab[k0] + fr * d, cap, &slope);
    if (g) {
        const double dr2 = slope * d * VINA_TABLE_FACTOR * 2; /* dE/dr² · 2, times (a − b) */
        g[3 * i] += dr2 * dx, g[3 * i + 1] += dr2 * dy, g[3 * i + 2] += dr2 * dz;
        g[3 * j] -= dr2 * dx, g[3 * j + 1] -= dr2 * dy, g[3 * j + 2] -= dr2 * dz;
    }
    return en;
}

/* Flexible side chains (dock_flex.c; model.cpp's eval_deriv): ligand–flex pairs into inter (Vina's
 * inter_pairs), each movable flex heavy atom on the maps (or the receptor's atoms in the final
 * refinement) and the flex pairs into intra (the grid's flex part and other_pairs). */
void dock_flex_eval(const dock_energy *e, const double *xyz, double cap, double *g, double *inter, double *intra)
{
    const dock_flex_energy *fe = e->flex;
    const vsg_vina_ligand *F = fe->f->L, *l = e->l;
    const int off = fe->nlig;
    const vsg_vina_target *t = e->t;
    double ei = 0, ea = 0;
    for (int k = 0; k < fe->nlf; k++) {
        const int i = fe->lf[k][0], j = fe->lf[k][1];
        ei += pair_eval(e, xyz, i, off + j, l->xs[i], F->xs[j], cap, g);
    }
    for (int m = 0; m < fe->f->nmov; m++) {
        const int j = fe->f->mov[m], x = F->xs[j];
        const double *p = &xyz[3 * (off + j)];
        double *gj = g ? &g[3 * (off + j)] : NULL, gg[3];
        ea += e->on_atoms ? dock_atoms_inter(t, x, p, cap, e->slope, gj ? gg : NULL) : map_atom(t, t->map[x], p, cap, gj ? gg : NULL);
        if (gj) gj[0] += gg[0], gj[1] += gg[1], gj[2] += gg[2];
    }
    for (int k = 0; k < F->npairs; k++) {
        const int i = F->pair[k][0], j = F->pair[k][1];
        ea += pair_eval(e, xyz, off + i, off + j, F->xs[i], F->xs[j], cap, g);
    }
    *inter += ei, *intra += ea;
}

double dock_energy_eval(const dock_energy *e, const double *xyz, double cap, double *g, double *inter, double *intra)
{
    if (e->ad4) return dock_ad4_eval(e->ad4, xyz, cap, g, inter, intra);
    const vsg_vina_target *t = e->t;
    const vsg_vina_ligand *l = e->l;
    if (g) memset(g, 0, sizeof *g * 3 * (size_t)e->tree->natoms); /* ligand atoms, then any flex residues' */
    double ei = 0, ea = 0;
    for (int h = 0; h < e->tree->nheavy; h++) {
        const int i = e->tree->heavy[h];
        ei += e->on_atoms ? dock_atoms_inter(t, l->xs[i], &xyz[3 * i], cap, e->slope, g ? &g[3 * i] : NULL)
                          : map_atom(t, t->map[l->xs[i]], &xyz[3 * i], cap, g ? &g[3 * i] : NULL);
    }
    for (int k = 0; k < l->npairs; k++) {
        const int i = l->pair[k][0], j = l->pair[k][1];
        ea += pair_eval(e, xyz, i, j, l->xs[i], l->xs[j], cap, g);
    }
    const int vinardo = t->tables.sf == VSG_VINA_SCORING_VINARDO;
    for (int k = 0; k < l->nglue; k++) { /* macrocycle glue pairs (vina_glue.h) */
        const int i = l->glue[k][0], j = l->glue[k][1];
        const double *a = &xyz[3 * i], *b = &xyz[3 * j];
        const double dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2], r2 = dx * dx + dy * dy + dz * dz;
        double dedr, slope;
        ea += curl(vina_glue_energy(vinardo, r2, &dedr), cap, &slope);
        if (g && r2 > 0) {
            const double f = slope * dedr / sqrt(r2); /* dE/dr / r, times (a − b) */
            g[3 * i] += f * dx, g[3 * i + 1] += f * dy, g[3 * i + 2] += f * dz;
            g[3 * j] -= f * dx, g[3 * j + 1] -= f * dy, g[3 * j + 2] -= f * dz;
        }
    }
    if (e->flex) dock_flex_eval(e, xyz, cap, g, &ei, &ea);
    if (inter) *inter = ei;
    if (intra) *intra = ea;
    return ei + ea;
}
