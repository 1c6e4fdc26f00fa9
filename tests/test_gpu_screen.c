/* test_gpu_screen.c — the GPU screening kernels (gpu/score/score_gpu.cu) against the CPU twin
 * vsg_score_cpu (ligands/score/score_cpu.c), and the host formats they use: the batch builder
 * (ligands/score/batch.c) and ZIP packing (ligands/score/zip.c).
 *
 * Host checks (run everywhere, before the GPU check): the batch builder's capacity and box;
 * ZIP round trip within its stated quanta (coordinates ≤ vsg_zip_coord_error, charges ≤ 2^-21
 * e), head flags, range errors; and the CPU twin on the unpacked batch against the twin on the
 * original batch, within the predicted bound Σ |q|·Σ_axes (|Δx_a|/h_a)·G_a + |Δq|·max|φ| per
 * ligand (G_a: largest difference between neighbouring nodes along a in the cells the atom
 * moves through).
 *
 * GPU checks, every kernel × precision, on: (a) random poses (5–60 atoms, 2% empty ligands)
 * in a 24 Å pocket of a 0.375 Å Coulomb grid of the 1STP receptor (vsg_coulomb_cpu); the same
 * poses squeezed into a 2.5 Å cube, so the SM kernels' blocks fit shared memory; (b) an AD4
 * map set (5 type maps, e, d; smooth synthetic fields; 10% untyped atoms; atoms outside with
 * autodock4's penalty); (c) atoms exactly on nodes, on lower and upper faces, one float past
 * a face, far outside, NaN and infinite; (d) linear fields, where trilinear interpolation is
 * exact (the twin must give the analytic value). Also: a batch split over many launches, a
 * ligand larger than a launch, grids over the memory cap (only the ROI kernels run), errors.
 *
 * Tolerances per ligand, with S = Σ_atoms Σ_maps c·max|corner value| (c = |q| for e and d, 1
 * for a type map; elec_factor for ELEC) — "Σ|q||φ|" taken at the cell's largest corner:
 *  - double kernels: 1e-11·S (same formulas as the twin; only summation order differs);
 *  - float GM/ROI/SM/ZIP: 4e-6·S. t is formed to ~1e-7 (node tables), each lerp rounds to
 *    ~6e-8 of the largest corner, a ligand's float tree sum adds ≤ 5 roundings: a few 1e-7·S
 *    expected, 4e-6 leaves margin for coherent worst cases;
 *  - TM: Σ_atoms Σ_maps c·Σ_axes δ_a·D_a + 4e-6·S with D_a the largest difference between
 *    neighbouring nodes of the atom's cell along a and δ_a = 1/256 (the 1.8 fixed-point weight)
 *    + 2^-22·(texel coordinate) (its float rounding; z counts the stacked maps);
 *  - ZIP kernels are compared with the twin on the unpacked batch (vsg_zip_unpack) with the
 *    float (or TM) tolerance; the unpacked batch's own error is the host check above.
 * Outside counts must be equal. The seed is printed; VSG_TEST_SEED=<n> repeats a run. Skipped
 * (77) without a GPU, after the host checks. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ligands/score/batch.h"
#include "check.h"
#include "grids/formats/grid.h"
#include "grids/receptor/molecule.h"
#include "grids/base/vsgrid.h"
#include "gpu/device/gpu.h"
#include "gpu/score/score_gpu.h"
#include "testkit.h"
#include "ligands/score/zip.h"

#define TOL_DOUBLE 1e-11
#define TOL_FLOAT 4e-6
#define TOL_ABS 1e-9

/* ---- grids ----------------------------------------------------------------------------------- */

typedef struct {
    vsg_score_grids g;
    float *store;
    double coef[VSG_SCORE_MAX_MAPS][4]; /* linear fields: φ_m = c0 + c1 x + c2 y + c3 z */
} gridset;

static void gridset_free(gridset *gs)
{
    free(gs->store);
    memset(gs, 0, sizeof *gs);
}

static size_t nodes_of(const vsg_score_grids *g) { return (size_t)g->n[0] * g->n[1] * g->n[2]; }

static int gridset_alloc(gridset *gs, vsg_score_kind kind, const int n[3], const double origin[3], double h,
                         int nmaps)
{
    memset(gs, 0, sizeof *gs);
    vsg_score_grids *g = &gs->g;
    g->kind = kind;
    for (int a = 0; a < 3; a++) {
        g->n[a] = n[a];
        g->origin[a] = origin[a];
        g->spacing[a] = h;
    }
    g->nmaps = nmaps;
    gs->store = malloc(nodes_of(g) * nmaps * sizeof(float));
    if (!gs->store) return 0;
    for (int m = 0; m < nmaps; m++) g->maps[m] = gs->store + (size_t)m * nodes_of(g);
    g->elec_factor = 1.0;
    if (kind == VSG_SCORE_ELEC) {
        g->e_map = 0;
        g->d_map = -1;
    } else {
        g->e_map = nmaps - 2;
        g->d_map = nmaps - 1;
        for (int m = 0; m < nmaps - 2; m++) snprintf(g->types[m], 4, "T%d", m);
        strcpy(g->types[nmaps - 2], "e");
        strcpy(g->types[nmaps - 1], "d");
    }
    return 1;
}

static void node_pos(const vsg_score_grids *g, size_t idx, double p[3])
{
    const size_t nx = (size_t)g->n[0], ny = (size_t)g->n[1];
    const size_t i = idx % nx, j = (idx / nx) % ny, k = idx / (nx * ny);
    p[0] = g->origin[0] + i * g->spacing[0];
    p[1] = g->origin[1] + j * g->spacing[1];
    p[2] = g->origin[2] + k * g->spacing[2];
}

/* A smooth random field: a constant, a gradient and a few Gaussians and softened 1/r wells. */
static void smooth_field(const vsg_score_grids *g, float *v, double amp)
{
    double c0 = uniform(-1, 1) * amp, gr[3], cen[6][3], a[6], w[6];
    for (int d = 0; d < 3; d++) gr[d] = uniform(-0.2, 0.2) * amp;
    for (int k = 0; k < 6; k++) {
        for (int d = 0; d < 3; d++)
            cen[k][d] = g->origin[d] + uniform(0.1, 0.9) * (g->n[d] - 1) * g->spacing[d];
        a[k] = uniform(-2, 2) * amp;
        w[k] = uniform(1.5, 5.0);
    }
    double mid[3];
    for (int d = 0; d < 3; d++) mid[d] = g->origin[d] + 0.5 * (g->n[d] - 1) * g->spacing[d];
    for (size_t i = 0; i < nodes_of(g); i++) {
        double p[3];
        node_pos(g, i, p);
        double f = c0;
        for (int d = 0; d < 3; d++) f += gr[d] * (p[d] - mid[d]);
        for (int k = 0; k < 6; k++) {
            double r2 = 0;
            for (int d = 0; d < 3; d++) r2 += (p[d] - cen[k][d]) * (p[d] - cen[k][d]);
            f += (k & 1) ? a[k] * exp(-r2 / (w[k] * w[k])) : a[k] / sqrt(r2 + w[k]);
        }
        v[i] = (float)f;
    }
}

/* ELEC: the Coulomb grid of the 1STP receptor (Mehler–Solmajer), 0.375 Å, around its centre. */
static int receptor_grid(gridset *gs)
{
    vsg_molecule *m = NULL;
    if (vsg_molecule_read(source_path("data/1stp_receptor.pdbqt"), NULL, &m) != VSG_OK) {
        fprintf(stderr, "1STP receptor: %s\n", vsg_last_error());
        return 0;
    }
    double lo[3], hi[3];
    vsg_molecule_bounds(m, 0, lo, hi);
    const int n[3] = {81, 77, 73};
    const double h = 0.375;
    double origin[3];
    for (int d = 0; d < 3; d++) origin[d] = 0.5 * (lo[d] + hi[d]) - 0.5 * (n[d] - 1) * h + uniform(-0.3, 0.3);
    vsg_grid *grid = vsg_grid_new(n, origin, (const double[3]){h, h, h}, "kcal/mol/e");
    vsg_coulomb_kernel k;
    memset(&k, 0, sizeof k);
    int ok = grid && vsg_coulomb_kernel_make(VSG_DIEL_MEHLER_SOLMAJER, 0.0, 0, &k) == VSG_OK &&
             vsg_coulomb_cpu(m, &k, grid) == VSG_OK && gridset_alloc(gs, VSG_SCORE_ELEC, n, origin, h, 1);
    if (ok) {
        memcpy(gs->store, grid->data, nodes_of(&gs->g) * sizeof(float));
        gs->g.elec_factor = 1.0;
    } else {
        fprintf(stderr, "receptor grid: %s\n", vsg_last_error());
    }
    vsg_coulomb_kernel_free(&k);
    vsg_grid_free(grid);
    vsg_molecule_free(m);
    return ok;
}

static int ad4_grids(gridset *gs, const int n[3], const double origin[3], double h)
{
    if (!gridset_alloc(gs, VSG_SCORE_AD4, n, origin, h, 7)) return 0;
    for (int m = 0; m < 5; m++) smooth_field(&gs->g, (float *)gs->g.maps[m], 1.5);
    smooth_field(&gs->g, (float *)gs->g.maps[5], 4.0);
    float *d = (float *)gs->g.maps[6];
    smooth_field(&gs->g, d, 0.5);
    for (size_t i = 0; i < nodes_of(&gs->g); i++) d[i] = fabsf(d[i]);
    return 1;
}

/* φ = c0 + c·r per map (AD4: different coefficients per map). */
static void linear_maps(gridset *gs)
{
    for (int m = 0; m < gs->g.nmaps; m++) {
        double *k = gs->coef[m];
        for (int j = 0; j < 4; j++) k[j] = uniform(-1, 1);
        float *v = (float *)gs->g.maps[m];
        for (size_t i = 0; i < nodes_of(&gs->g); i++) {
            double p[3];
            node_pos(&gs->g, i, p);
            v[i] = (float)(k[0] + k[1] * p[0] + k[2] * p[1] + k[3] * p[2]);
        }
    }
}

/* ---- batches ------------------------------------------------------------------------------------- */

#define MAX_LIG_ATOMS 64

/* Random poses: centres uniform in the cube (centre ± half), atoms in a ball of radius r(n),
 * charges in [−0.8, 0.8]; AD4 types in [0, ntypes) with 10% untyped; 2% empty ligands. */
static int random_poses(vsg_batch *b, size_t nlig, const double centre[3], double half, int ntypes, double squeeze)
{
    float x[MAX_LIG_ATOMS], y[MAX_LIG_ATOMS], z[MAX_LIG_ATOMS], q[MAX_LIG_ATOMS];
    uint8_t t[MAX_LIG_ATOMS];
    for (size_t l = 0; l < nlig; l++) {
        int n = urand() < 0.02 ? 0 : 5 + (int)(urand() * 56);
        if (n > 60) n = 60;
        double c[3];
        for (int d = 0; d < 3; d++) c[d] = centre[d] + uniform(-half, half);
        const double r = squeeze * 1.6 * cbrt((double)n);
        for (int i = 0; i < n; i++) {
            double p[3], s;
            do {
                s = 0;
                for (int d = 0; d < 3; d++) {
                    p[d] = uniform(-1, 1);
                    s += p[d] * p[d];
                }
            } while (s > 1.0);
            x[i] = (float)(c[0] + r * p[0]);
            y[i] = (float)(c[1] + r * p[1]);
            z[i] = (float)(c[2] + r * p[2]);
            q[i] = (float)uniform(-0.8, 0.8);
            t[i] = ntypes > 0 ? (urand() < 0.1 ? VSG_SCORE_NO_TYPE : (uint8_t)(urand() * ntypes)) : VSG_SCORE_NO_TYPE;
            if (ntypes > 0 && t[i] != VSG_SCORE_NO_TYPE && t[i] >= ntypes) t[i] = (uint8_t)(ntypes - 1);
        }
        if (vsg_batch_append(b, (size_t)n, x, y, z, q, t) != VSG_OK) return 0;
    }
    return 1;
}

/* Edge cases (c) on a grid whose nodes are exact floats. */
static int edge_poses(vsg_batch *b, const vsg_score_grids *g, int ntypes)
{
    float x[MAX_LIG_ATOMS], y[MAX_LIG_ATOMS], z[MAX_LIG_ATOMS], q[MAX_LIG_ATOMS];
    uint8_t t[MAX_LIG_ATOMS];
    double lo[3], hi[3];
    for (int d = 0; d < 3; d++) {
        lo[d] = g->origin[d];
        hi[d] = g->origin[d] + (g->n[d] - 1) * g->spacing[d];
    }
    for (int l = 0; l < 400; l++) {
        const int n = 8 + l % 40;
        for (int i = 0; i < n; i++) {
            float p[3];
            for (int d = 0; d < 3; d++) p[d] = (float)uniform(lo[d], hi[d]);
            const int kind = (l + i) % 11;
            const int ax = (int)(urand() * 3) % 3;
            switch (kind) {
            case 0: /* on a node, any node including the corners */
            case 1:
                for (int d = 0; d < 3; d++) {
                    int k = (int)(urand() * g->n[d]);
                    if (k >= g->n[d]) k = g->n[d] - 1;
                    if (kind == 1) k = urand() < 0.5 ? 0 : g->n[d] - 1;
                    p[d] = (float)(g->origin[d] + k * g->spacing[d]);
                }
                break;
            case 2: p[ax] = (float)hi[ax]; break;                                /* upper face */
            case 3: p[ax] = (float)lo[ax]; break;                                /* lower face */
            case 4: p[ax] = nextafterf((float)hi[ax], INFINITY); break;          /* just outside */
            case 5: p[ax] = nextafterf((float)lo[ax], -INFINITY); break;
            case 6: p[ax] = (float)(hi[ax] + uniform(0.5, 20)); break;           /* far outside */
            case 7: p[ax] = l % 2 ? NAN : INFINITY; break;
            default: break;                                                      /* inside */
            }
            x[i] = p[0];
            y[i] = p[1];
            z[i] = p[2];
            q[i] = (float)uniform(-1, 1);
            t[i] = ntypes > 0 ? (uint8_t)(urand() * ntypes) % ntypes : VSG_SCORE_NO_TYPE;
        }
        if (vsg_batch_append(b, (size_t)n, x, y, z, q, t) != VSG_OK) return 0;
    }
    /* a ligand entirely outside, and an empty one */
    for (int i = 0; i < 6; i++) {
        x[i] = (float)(hi[0] + 3 + i);
        y[i] = (float)lo[1];
        z[i] = NAN;
        q[i] = 0.5f;
        t[i] = 0;
    }
    return vsg_batch_append(b, 6, x, y, z, q, ntypes > 0 ? t : NULL) == VSG_OK &&
           vsg_batch_append(b, 0, NULL, NULL, NULL, NULL, NULL) == VSG_OK;
}

/* ---- per-ligand scales and bounds -------------------------------------------------------------- */

/* The twin's cell of a point (0 when outside). */
static int cell_of(const vsg_score_grids *g, const float p[3], int i0[3])
{
    for (int d = 0; d < 3; d++) {
        double lo = g->origin[d], hi = g->origin[d] + (g->n[d] - 1) * g->spacing[d];
        if (!((double)p[d] >= lo && (double)p[d] <= hi)) return 0;
        int i = (int)floor(((double)p[d] - lo) / g->spacing[d]);
        if (i < 0) i = 0;
        if (i > g->n[d] - 2) i = g->n[d] - 2;
        i0[d] = i;
    }
    return 1;
}

static float val(const vsg_score_grids *g, int m, int i, int j, int k)
{
    return g->maps[m][(size_t)i + (size_t)g->n[0] * ((size_t)j + (size_t)g->n[1] * k)];
}

/* Over the nodes [a, b] (inclusive, per axis) of map m: largest |value| and, per axis, the
 * largest difference between neighbours. */
static void box_stats(const vsg_score_grids *g, int m, const int a[3], const int b[3], double *maxabs, double D[3])
{
    *maxabs = 0;
    D[0] = D[1] = D[2] = 0;
    for (int k = a[2]; k <= b[2]; k++)
        for (int j = a[1]; j <= b[1]; j++)
            for (int i = a[0]; i <= b[0]; i++) {
                double v = val(g, m, i, j, k);
                *maxabs = fmax(*maxabs, fabs(v));
                if (i < b[0]) D[0] = fmax(D[0], fabs(val(g, m, i + 1, j, k) - v));
                if (j < b[1]) D[1] = fmax(D[1], fabs(val(g, m, i, j + 1, k) - v));
                if (k < b[2]) D[2] = fmax(D[2], fabs(val(g, m, i, j, k + 1) - v));
            }
}

/* The maps an atom reads and their coefficients c (|q|·factor, or 1 for a type map). */
static int atom_maps(const vsg_score_grids *g, const vsg_score_batch *b, size_t i, int maps[3], double c[3])
{
    const double aq = fabs((double)b->q[i]);
    if (g->kind == VSG_SCORE_ELEC) {
        maps[0] = g->e_map;
        c[0] = aq * fabs(g->elec_factor);
        return 1;
    }
    int k = 0;
    maps[k] = g->e_map;
    c[k++] = aq;
    maps[k] = g->d_map;
    c[k++] = aq;
    if (b->type[i] != VSG_SCORE_NO_TYPE) {
        maps[k] = b->type[i];
        c[k++] = 1.0;
    }
    return k;
}

/* S (scale) and the TM bound of ligand l. */
static void ligand_scale(const vsg_score_grids *g, const vsg_score_batch *b, size_t l, double *S, double *tm)
{
    *S = 0;
    *tm = 0;
    double delta[3];
    for (int d = 0; d < 3; d++) delta[d] = 1.0 / 256 + ldexp(g->n[d] + 1.0, -22);
    delta[2] = 1.0 / 256 + ldexp((double)g->n[2] * (g->nmaps + 1), -22);
    for (size_t i = b->start[l]; i < b->start[l + 1]; i++) {
        const float p[3] = {b->x[i], b->y[i], b->z[i]};
        int c0[3] = {0, 0, 0};
        if (!cell_of(g, p, c0)) {
            if (g->kind == VSG_SCORE_AD4 && isfinite(p[0]) && isfinite(p[1]) && isfinite(p[2])) {
                double r2 = 0;
                for (int d = 0; d < 3; d++) {
                    double dd = p[d] - (g->origin[d] + 0.5 * (g->n[d] - 1) * g->spacing[d]);
                    r2 += dd * dd;
                }
                /* penalties are formed in double on every kernel; 1e-3 of them in S covers the
                 * double rounding of sums that reach 1e7 kcal/mol in another order */
                *S += 1000.0 * r2 * 1e-3;
            }
            continue;
        }
        const int c1[3] = {c0[0] + 1, c0[1] + 1, c0[2] + 1};
        int maps[3];
        double c[3];
        int nm = atom_maps(g, b, i, maps, c);
        for (int k = 0; k < nm; k++) {
            double mx, D[3];
            box_stats(g, maps[k], c0, c1, &mx, D);
            *S += c[k] * mx;
            *tm += c[k] * (delta[0] * D[0] + delta[1] * D[1] + delta[2] * D[2]);
        }
    }
}

/* ZIP's predicted error for ligand l between the original batch o and the unpacked one u;
 * -1 when an atom changed sides of the grid boundary (bound not applicable). */
static double zip_bound(const vsg_score_grids *g, const vsg_score_batch *o, const vsg_score_batch *u, size_t l)
{
    double bound = 0;
    for (size_t i = o->start[l]; i < o->start[l + 1]; i++) {
        const float p[3] = {o->x[i], o->y[i], o->z[i]}, pu[3] = {u->x[i], u->y[i], u->z[i]};
        int a[3] = {0, 0, 0}, b[3] = {0, 0, 0};
        const int in = cell_of(g, p, a), inu = cell_of(g, pu, b);
        if (in != inu) {
            if (!isfinite(p[0]) || !isfinite(p[1]) || !isfinite(p[2])) continue; /* NaN both ways */
            return -1;
        }
        const double dq = fabs((double)o->q[i] - (double)u->q[i]);
        if (!in) {
            if (g->kind == VSG_SCORE_AD4 && isfinite(p[0]) && isfinite(p[1]) && isfinite(p[2])) {
                double d0 = 0, d1 = 0, dr = 0;
                for (int d = 0; d < 3; d++) {
                    double cc = g->origin[d] + 0.5 * (g->n[d] - 1) * g->spacing[d];
                    d0 += (p[d] - cc) * (p[d] - cc);
                    d1 += (pu[d] - cc) * (pu[d] - cc);
                    dr += ((double)p[d] - pu[d]) * ((double)p[d] - pu[d]);
                }
                bound += 1000.0 * sqrt(dr) * (sqrt(d0) + sqrt(d1)) + 1e-9 * d0;
            }
            continue;
        }
        int lo[3], hi[3];
        double err[3];
        for (int d = 0; d < 3; d++) {
            lo[d] = a[d] < b[d] ? a[d] : b[d];
            hi[d] = (a[d] > b[d] ? a[d] : b[d]) + 1;
            err[d] = fabs((double)p[d] - (double)pu[d]) / g->spacing[d];
        }
        int maps[3];
        double c[3];
        const int nm = atom_maps(g, o, i, maps, c);
        const double factor = g->kind == VSG_SCORE_ELEC ? fabs(g->elec_factor) : 1.0;
        for (int k = 0; k < nm; k++) {
            double mx, D[3];
            box_stats(g, maps[k], lo, hi, &mx, D);
            double cq = c[k] == 1.0 && maps[k] != g->e_map && maps[k] != g->d_map ? 1.0 : (c[k] + dq * factor);
            bound += cq * (err[0] * D[0] + err[1] * D[1] + err[2] * D[2]);
            if (maps[k] == g->e_map || maps[k] == g->d_map) bound += dq * factor * mx;
        }
    }
    return bound * (1 + 1e-6) + 1e-12;
}

/* ---- comparisons ------------------------------------------------------------------------------------ */

typedef struct {
    double worst_ratio; /* max |diff| / tol */
    double worst_rel;   /* max |diff| / S */
    int outside_mismatch;
} cmp_stats;

/* got vs ref for every ligand; tol_l = rel·S_l + extra_l (TM bound when tm) + TOL_ABS. */
static cmp_stats compare(const vsg_score_grids *g, const vsg_score_batch *b, const vsg_score_result *got,
                         const vsg_score_result *ref, double rel, int tm, const char *what)
{
    cmp_stats cs = {0, 0, 0};
    int reported = 0;
    for (size_t l = 0; l < b->nlig; l++) {
        double S, tmb;
        ligand_scale(g, b, l, &S, &tmb);
        const double tol = rel * S + (tm ? tmb : 0.0) + TOL_ABS;
        const double d[4] = {fabs(got[l].total - ref[l].total), fabs(got[l].elec - ref[l].elec),
                             fabs(got[l].vdw_hb - ref[l].vdw_hb), fabs(got[l].desolv - ref[l].desolv)};
        for (int k = 0; k < 4; k++) {
            double r = d[k] / tol;
            if (!(r <= cs.worst_ratio)) cs.worst_ratio = isnan(r) ? INFINITY : r;
            if (S > 0 && d[k] / S > cs.worst_rel) cs.worst_rel = d[k] / S;
            if (!(d[k] <= tol) && reported++ < 3)
                fprintf(stderr, "    %s: ligand %zu term %d: gpu %.12g cpu %.12g |diff| %.3g > tol %.3g (S %.4g)\n",
                        what, l, k, k == 0 ? got[l].total : k == 1 ? got[l].elec : k == 2 ? got[l].vdw_hb : got[l].desolv,
                        k == 0 ? ref[l].total : k == 1 ? ref[l].elec : k == 2 ? ref[l].vdw_hb : ref[l].desolv, d[k], tol,
                        S);
        }
        if (got[l].outside != ref[l].outside) {
            if (cs.outside_mismatch++ < 3)
                fprintf(stderr, "    %s: ligand %zu outside %d, cpu %d\n", what, l, got[l].outside, ref[l].outside);
        }
    }
    return cs;
}

/* The unpacked copy of a batch, as ZIP sees it. */
typedef struct {
    size_t n;
    float *x, *y, *z, *q;
    uint8_t *type;
    vsg_score_batch view;
} unpacked;

static void unpacked_free(unpacked *u)
{
    free(u->x);
    free(u->y);
    free(u->z);
    free(u->q);
    free(u->type);
    memset(u, 0, sizeof *u);
}

static int unpack_batch(const vsg_score_batch *b, int elec, unpacked *u, vsg_zip_frame *frame)
{
    memset(u, 0, sizeof *u);
    vsg_score_batch bb = *b;
    if (elec) bb.type = NULL;
    float lo[3], hi[3];
    vsg_batch_box_of(&bb, lo, hi);
    vsg_zip_frame_make(lo, hi, frame);
    const size_t n = b->natoms ? b->natoms : 1;
    uint16_t *kx = malloc(n * 2), *ky = malloc(n * 2), *kz = malloc(n * 2);
    uint32_t *qt = malloc(n * 4);
    u->x = malloc(n * 4);
    u->y = malloc(n * 4);
    u->z = malloc(n * 4);
    u->q = malloc(n * 4);
    u->type = malloc(n);
    int ok = kx && ky && kz && qt && u->x && u->y && u->z && u->q && u->type;
    if (ok) {
        vsg_status st = vsg_zip_pack(frame, &bb, 0, b->nlig, kx, ky, kz, qt);
        CHECK_STATUS(st, VSG_OK);
        ok = st == VSG_OK;
    }
    if (ok) {
        vsg_zip_unpack(frame, b->natoms, kx, ky, kz, qt, u->x, u->y, u->z, u->q, u->type);
        if (elec)
            for (size_t i = 0; i < b->natoms; i++) u->type[i] = VSG_SCORE_NO_TYPE;
        u->n = b->natoms;
        u->view = *b;
        u->view.x = u->x;
        u->view.y = u->y;
        u->view.z = u->z;
        u->view.q = u->q;
        u->view.type = elec ? b->type : u->type;
    }
    free(kx);
    free(ky);
    free(kz);
    free(qt);
    return ok;
}

/* ---- host checks -------------------------------------------------------------------------------------- */

static void check_batch_builder(void)
{
    vsg_batch b;
    CHECK_STATUS(vsg_batch_init(&b, 3, 10), VSG_OK);
    const float x[4] = {1, 2, NAN, -3}, y[4] = {0, 5, 1, 1}, z[4] = {2, 2, 2, 7}, q[4] = {.1f, .2f, .3f, .4f};
    CHECK_STATUS(vsg_batch_append(&b, 4, x, y, z, q, NULL), VSG_OK);
    CHECK_STATUS(vsg_batch_append(&b, 0, NULL, NULL, NULL, NULL, NULL), VSG_OK);
    CHECK_STATUS(vsg_batch_append(&b, 7, x, y, z, q, NULL), VSG_E_LIMIT); /* 4 + 7 > 10 atoms */
    CHECK_STATUS(vsg_batch_append(&b, 11, x, y, z, q, NULL), VSG_E_LIMIT);
    CHECK_CONTAINS(vsg_last_error(), "exceeds the batch capacity");
    CHECK_STATUS(vsg_batch_append(&b, 2, x, y, z, q, NULL), VSG_OK);
    CHECK_STATUS(vsg_batch_append(&b, 1, x, y, z, q, NULL), VSG_E_LIMIT); /* 3 ligands */
    CHECK(b.nlig == 3 && b.natoms == 6 && b.start[3] == 6 && b.start[1] == 4 && b.start[2] == 4);
    CHECK(b.nonfinite == 1);
    CHECK(b.lo[0] == -3 && b.hi[0] == 2 && b.lo[1] == 0 && b.hi[1] == 5 && b.lo[2] == 2 && b.hi[2] == 7);
    CHECK(b.type[0] == VSG_SCORE_NO_TYPE);
    vsg_score_batch v = vsg_batch_view(&b);
    float lo[3], hi[3];
    CHECK(vsg_batch_box_of(&v, lo, hi) == 1);
    for (int d = 0; d < 3; d++) CHECK(lo[d] == b.lo[d] && hi[d] == b.hi[d]);
    vsg_batch_reset(&b);
    CHECK(b.nlig == 0 && b.natoms == 0 && b.lo[0] > b.hi[0]);
    vsg_batch_free(&b);
    CHECK_STATUS(vsg_batch_init(&b, 0, 10), VSG_E_ARG);
}

/* ZIP round trip and the twin on unpacked vs original within the predicted bound. */
static void check_zip_host(const gridset *gs, const vsg_score_batch *b, const char *what)
{
    const vsg_score_grids *g = &gs->g;
    const int elec = g->kind == VSG_SCORE_ELEC;
    unpacked u;
    vsg_zip_frame f;
    CHECK(unpack_batch(b, elec, &u, &f));
    if (!u.x) return;
    double worst_dx = 0, worst_dq = 0;
    int type_bad = 0;
    for (size_t i = 0; i < b->natoms; i++) {
        const float p[3] = {b->x[i], b->y[i], b->z[i]}, pu[3] = {u.x[i], u.y[i], u.z[i]};
        const int fin = isfinite(p[0]) && isfinite(p[1]) && isfinite(p[2]);
        for (int d = 0; d < 3; d++) {
            if (!fin) {
                CHECK(isnan(pu[d]));
                continue;
            }
            double r = fabs((double)pu[d] - p[d]) / vsg_zip_coord_error(&f, d);
            if (r > worst_dx) worst_dx = r;
        }
        double rq = fabs((double)u.q[i] - b->q[i]) / VSG_ZIP_CHARGE_ERROR;
        if (rq > worst_dq) worst_dq = rq;
        if (!elec && fin && u.type[i] != b->type[i]) type_bad++;
    }
    CHECK(worst_dx <= 1.0);
    CHECK(worst_dq <= 1.0);
    CHECK(type_bad == 0);

    vsg_score_result *r0 = calloc(b->nlig + 1, sizeof *r0), *r1 = calloc(b->nlig + 1, sizeof *r1);
    CHECK(r0 && r1);
    if (r0 && r1) {
        CHECK_STATUS(vsg_score_cpu(g, b, r0), VSG_OK);
        CHECK_STATUS(vsg_score_cpu(g, &u.view, r1), VSG_OK);
        size_t skipped = 0, bad = 0;
        double worst = 0, worst_abs = 0;
        for (size_t l = 0; l < b->nlig; l++) {
            double bound = zip_bound(g, b, &u.view, l);
            if (bound < 0) {
                skipped++;
                continue;
            }
            double d = fabs(r1[l].total - r0[l].total);
            if (d > worst_abs) worst_abs = d;
            if (d / bound > worst) worst = d / bound;
            if (!(d <= bound) && bad++ < 3)
                fprintf(stderr, "    ZIP bound %s: ligand %zu: |unpacked − original| %.3g > bound %.3g\n", what, l, d,
                        bound);
        }
        printf("  ZIP host %-28s quantum (%.2e, %.2e, %.2e) A: max |dx|/bound %.3f, max |dq|/bound %.3f; score "
               "|diff| max %.3g = %.3f of the predicted bound (%zu ligands crossed the grid boundary)\n",
               what, f.quantum[0], f.quantum[1], f.quantum[2], worst_dx, worst_dq, worst_abs, worst, skipped);
        CHECK(bad == 0);
    }
    free(r0);
    free(r1);
    unpacked_free(&u);
}

static void check_zip_errors(void)
{
    const float x[2] = {0, 1}, q[2] = {0.5f, 9.0f};
    const uint32_t start[2] = {0, 2};
    vsg_score_batch b = {1, 2, start, x, x, x, q, NULL};
    vsg_zip_frame f;
    const float lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
    vsg_zip_frame_make(lo, hi, &f);
    uint16_t k[3][2];
    uint32_t qt[2];
    CHECK_STATUS(vsg_zip_pack(&f, &b, 0, 1, k[0], k[1], k[2], qt), VSG_E_DATA);
    CHECK_CONTAINS(vsg_last_error(), "charge 9");
    const float q2[2] = {-7.9999990f, 7.9999990f}, far[2] = {0, 3};
    b.q = q2;
    CHECK_STATUS(vsg_zip_pack(&f, &b, 0, 1, k[0], k[1], k[2], qt), VSG_OK);
    CHECK(fabsf(vsg_zip_decode_charge(qt[0]) - q2[0]) <= 4.8e-7f && fabsf(vsg_zip_decode_charge(qt[1]) - q2[1]) <= 4.8e-7f);
    CHECK((qt[0] & VSG_ZIP_HEAD) && !(qt[1] & VSG_ZIP_HEAD) && (qt[0] & VSG_ZIP_TYPE_MASK) == VSG_ZIP_TYPE_NONE);
    CHECK(k[0][0] == 0 && k[0][1] == VSG_ZIP_STEPS);
    b.x = far;
    CHECK_STATUS(vsg_zip_pack(&f, &b, 0, 1, k[0], k[1], k[2], qt), VSG_E_ARG);
}

/* ---- GPU checks ------------------------------------------------------------------------------------- */

static const vsg_kernel KERNELS[] = {VSG_KERNEL_GM,  VSG_KERNEL_ROI,        VSG_KERNEL_SM,        VSG_KERNEL_TM,
                                     VSG_KERNEL_ZIP, VSG_KERNEL_ROI_TM_ZIP, VSG_KERNEL_ROI_SM_ZIP};
#define NKERNELS (sizeof KERNELS / sizeof KERNELS[0])

static int is_zip(vsg_kernel k) { return k == VSG_KERNEL_ZIP || k == VSG_KERNEL_ROI_TM_ZIP || k == VSG_KERNEL_ROI_SM_ZIP; }
static int is_tm(vsg_kernel k) { return k == VSG_KERNEL_TM || k == VSG_KERNEL_ROI_TM_ZIP; }
static int is_sm(vsg_kernel k) { return k == VSG_KERNEL_SM || k == VSG_KERNEL_ROI_SM_ZIP; }

/* Every kernel × precision on one batch. expect_staged: the SM kernels must stage some block. */
static void gpu_all(vsg_screen_gpu *s, const gridset *gs, const vsg_score_batch *b, const char *what,
                    int expect_staged)
{
    const vsg_score_grids *g = &gs->g;
    const size_t nl = b->nlig + 1;
    vsg_score_result *ref = calloc(nl, sizeof *ref), *refz = calloc(nl, sizeof *refz), *got = calloc(nl, sizeof *got);
    unpacked u;
    vsg_zip_frame f;
    CHECK(ref && refz && got);
    CHECK(unpack_batch(b, g->kind == VSG_SCORE_ELEC, &u, &f));
    if (!ref || !refz || !got || !u.x) goto done;
    CHECK_STATUS(vsg_score_cpu(g, b, ref), VSG_OK);
    CHECK_STATUS(vsg_score_cpu(g, &u.view, refz), VSG_OK);
    printf("%s: %zu ligands, %zu atoms\n", what, b->nlig, b->natoms);
    for (size_t ki = 0; ki < NKERNELS; ki++)
        for (int dp = 0; dp < 2; dp++) {
            const vsg_kernel k = KERNELS[ki];
            vsg_screen_timing t;
            if (!vsg_screen_gpu_supports(k, dp)) {
                CHECK(is_tm(k) && dp);
                CHECK_STATUS(vsg_screen_gpu_score(s, b, k, dp, got, &t), VSG_E_UNSUPPORTED);
                continue;
            }
            for (size_t l = 0; l < b->nlig; l++) {
                got[l].total = got[l].elec = got[l].vdw_hb = got[l].desolv = NAN;
                got[l].outside = -1;
            }
            vsg_status st = vsg_screen_gpu_score(s, b, k, dp, got, &t);
            CHECK_STATUS(st, VSG_OK);
            if (st != VSG_OK) continue;
            const double rel = dp ? TOL_DOUBLE : TOL_FLOAT;
            char name[96];
            snprintf(name, sizeof name, "%s %s %s", what, vsg_kernel_name(k), dp ? "double" : "float");
            const vsg_score_batch *rb = is_zip(k) ? &u.view : b;
            cmp_stats cs = compare(g, rb, got, is_zip(k) ? refz : ref, rel, is_tm(k), name);
            printf("  %-12s %-6s max |diff|/S %.2e  max |diff|/tol %.3f  launches %d  kernel %.3g ms", vsg_kernel_name(k),
                   dp ? "double" : "float", cs.worst_rel, cs.worst_ratio, t.launches, 1e3 * t.kernel_s);
            if (is_sm(k)) printf("  SM blocks staged %lld of %lld", t.sm_staged, t.sm_blocks);
            printf("\n");
            CHECK(cs.worst_ratio <= 1.0);
            CHECK(cs.outside_mismatch == 0);
            if (is_sm(k) && expect_staged) CHECK(t.sm_staged > 0);
            if (is_sm(k)) CHECK(t.sm_blocks > 0);
        }
done:
    free(ref);
    free(refz);
    free(got);
    unpacked_free(&u);
}

/* The twin on a linear field equals the analytic value. */
static void check_linear_twin(const gridset *gs, const vsg_score_batch *b)
{
    const vsg_score_grids *g = &gs->g;
    vsg_score_result *r = calloc(b->nlig + 1, sizeof *r);
    if (!r) return;
    CHECK_STATUS(vsg_score_cpu(g, b, r), VSG_OK);
    double worst = 0;
    for (size_t l = 0; l < b->nlig; l++) {
        double e = 0, S = 0, tmb;
        for (size_t i = b->start[l]; i < b->start[l + 1]; i++) {
            int c[3] = {0, 0, 0};
            const float p[3] = {b->x[i], b->y[i], b->z[i]};
            if (!cell_of(g, p, c)) continue;
            const double *k = gs->coef[g->e_map];
            e += b->q[i] * (k[0] + k[1] * p[0] + k[2] * p[1] + k[3] * p[2]);
        }
        ligand_scale(g, b, l, &S, &tmb);
        double d = fabs(r[l].elec - e * (g->kind == VSG_SCORE_ELEC ? g->elec_factor : 1.0));
        if (S > 0 && d / S > worst) worst = d / S;
    }
    printf("  linear field: twin vs analytic max |diff|/S %.2e (float nodes: ≤ 1e-6)\n", worst);
    CHECK(worst <= 1e-6); /* the node values are floats of the analytic field */
    free(r);
}

static void gpu_launches_and_limits(vsg_screen_gpu *s, const gridset *gs, const vsg_score_batch *b)
{
    const vsg_score_grids *g = &gs->g;
    vsg_score_result *ref = calloc(b->nlig + 1, sizeof *ref), *got = calloc(b->nlig + 1, sizeof *got);
    if (!ref || !got) {
        free(ref);
        free(got);
        return;
    }
    CHECK_STATUS(vsg_score_cpu(g, b, ref), VSG_OK);
    vsg_screen_gpu_set_launch_atoms(s, 1000);
    CHECK(vsg_screen_gpu_batch_atoms(s) == 1000);
    vsg_screen_timing t;
    CHECK_STATUS(vsg_screen_gpu_score(s, b, VSG_KERNEL_GM, 1, got, &t), VSG_OK);
    cmp_stats cs = compare(g, b, got, ref, TOL_DOUBLE, 0, "many launches gm double");
    printf("  many launches: %d launches of <= 1000 atoms, max |diff|/tol %.3f\n", t.launches, cs.worst_ratio);
    CHECK(t.launches >= (int)(b->natoms / 1000));
    CHECK(cs.worst_ratio <= 1.0 && cs.outside_mismatch == 0);
    double sec = 0;
    size_t atoms = 0;
    CHECK_STATUS(vsg_screen_gpu_rerun_last(s, 3, &sec, &atoms), VSG_OK);
    CHECK(sec > 0 && atoms > 0 && atoms <= 1000);

    /* one ligand larger than a launch */
    vsg_screen_gpu_set_launch_atoms(s, 40);
    CHECK_STATUS(vsg_screen_gpu_score(s, b, VSG_KERNEL_GM, 0, got, &t), VSG_E_LIMIT);
    CHECK_CONTAINS(vsg_last_error(), "more than one launch holds");
    vsg_screen_gpu_set_launch_atoms(s, 0);
    CHECK(vsg_screen_gpu_batch_atoms(s) >= 4096);
    free(ref);
    free(got);
}

/* Grids over the memory cap: only the ROI kernels run, and they still match. */
static void gpu_memory_cap(const gridset *gs, const vsg_score_batch *b)
{
    const vsg_score_grids *g = &gs->g;
    const double gbytes = (double)nodes_of(g) * g->nmaps * sizeof(float);
    vsg_screen_gpu *s = NULL;
    vsg_status st = vsg_screen_gpu_open(g, 0, 64.0 * 1048576 + 1.9 * gbytes, &s);
    CHECK_STATUS(st, VSG_OK);
    if (st != VSG_OK) return;
    CHECK(!vsg_screen_gpu_grids_resident(s));
    vsg_score_result *ref = calloc(b->nlig + 1, sizeof *ref), *got = calloc(b->nlig + 1, sizeof *got);
    if (ref && got) {
        CHECK_STATUS(vsg_score_cpu(g, b, ref), VSG_OK);
        CHECK_STATUS(vsg_screen_gpu_score(s, b, VSG_KERNEL_GM, 0, got, NULL), VSG_E_LIMIT);
        CHECK_CONTAINS(vsg_last_error(), "only the ROI kernels");
        vsg_screen_timing t;
        CHECK_STATUS(vsg_screen_gpu_score(s, b, VSG_KERNEL_ROI, 1, got, &t), VSG_OK);
        cmp_stats cs = compare(g, b, got, ref, TOL_DOUBLE, 0, "capped roi double");
        printf("  grids over the cap (%.1f MB): roi double from host-uploaded ROI, %zu bytes up, max |diff|/tol %.3f\n",
               gbytes / 1048576.0, t.bytes_up, cs.worst_ratio);
        CHECK(cs.worst_ratio <= 1.0 && cs.outside_mismatch == 0);
    }
    free(ref);
    free(got);
    vsg_screen_gpu_close(s);
}

static void gpu_errors(int ngpu, const gridset *ad4, vsg_screen_gpu *s, const vsg_score_batch *b)
{
    vsg_screen_gpu *bad = (vsg_screen_gpu *)1;
    CHECK_STATUS(vsg_screen_gpu_open(&ad4->g, ngpu, 0, &bad), VSG_E_DEVICE);
    CHECK(bad == NULL);
    vsg_score_grids broken = ad4->g;
    broken.d_map = 99;
    CHECK_STATUS(vsg_screen_gpu_open(&broken, 0, 0, &bad), VSG_E_ARG);
    vsg_score_result *out = calloc(b->nlig + 1, sizeof *out);
    if (!out) return;
    CHECK_STATUS(vsg_screen_gpu_score(s, b, VSG_KERNEL_CPU, 0, out, NULL), VSG_E_UNSUPPORTED);
    CHECK_STATUS(vsg_screen_gpu_score(s, b, VSG_KERNEL_TM, 1, out, NULL), VSG_E_UNSUPPORTED);
    /* a type index that is the e map */
    uint8_t *types = malloc(b->natoms + 1);
    if (types && b->natoms) {
        memcpy(types, b->type, b->natoms);
        types[b->natoms / 2] = (uint8_t)ad4->g.e_map;
        vsg_score_batch bb = *b;
        bb.type = types;
        CHECK_STATUS(vsg_screen_gpu_score(s, &bb, VSG_KERNEL_GM, 0, out, NULL), VSG_E_ARG);
        CHECK_CONTAINS(vsg_last_error(), "not a type map");
    }
    free(types);
    /* ZIP with a charge beyond its range; the plain kernels take it */
    float *q = malloc((b->natoms + 1) * sizeof(float));
    if (q && b->natoms) {
        memcpy(q, b->q, b->natoms * sizeof(float));
        q[0] = 12.0f;
        vsg_score_batch bb = *b;
        bb.q = q;
        CHECK_STATUS(vsg_screen_gpu_score(s, &bb, VSG_KERNEL_ZIP, 0, out, NULL), VSG_E_DATA);
        CHECK_STATUS(vsg_screen_gpu_score(s, &bb, VSG_KERNEL_GM, 0, out, NULL), VSG_OK);
    }
    free(q);
    /* empty batch */
    const uint32_t z0[1] = {0};
    vsg_score_batch empty = {0, 0, z0, NULL, NULL, NULL, NULL, NULL};
    CHECK_STATUS(vsg_screen_gpu_score(s, &empty, VSG_KERNEL_ROI_SM_ZIP, 0, out, NULL), VSG_OK);
    free(out);
}

int main(void)
{
    testkit_seed();

    /* inputs */
    gridset rec, ad4, edge_e, edge_a, lin_e, lin_a;
    CHECK(receptor_grid(&rec));
    const double ad4_origin[3] = {-7.31 + uniform(-1, 1), 4.17 + uniform(-1, 1), -11.93 + uniform(-1, 1)};
    CHECK(ad4_grids(&ad4, (const int[3]){71, 67, 69}, ad4_origin, 0.375));
    const double exact_origin[3] = {-10.0, -8.0, -6.0}; /* every node an exact float */
    CHECK(gridset_alloc(&edge_e, VSG_SCORE_ELEC, (const int[3]){33, 29, 25}, exact_origin, 0.375, 1));
    smooth_field(&edge_e.g, edge_e.store, 3.0);
    edge_e.g.elec_factor = 0.5924; /* a kT/e grid's factor */
    CHECK(ad4_grids(&edge_a, (const int[3]){33, 29, 25}, exact_origin, 0.375));
    CHECK(gridset_alloc(&lin_e, VSG_SCORE_ELEC, (const int[3]){41, 37, 35}, exact_origin, 0.375, 1));
    CHECK(gridset_alloc(&lin_a, VSG_SCORE_AD4, (const int[3]){41, 37, 35}, exact_origin, 0.375, 4));
    if (check_failures) CHECK_EXIT();
    linear_maps(&lin_e);
    linear_maps(&lin_a);

    vsg_batch pocket, cluster, pocket_a, cluster_a, edges_e, edges_a, linb_e, linb_a;
    const size_t NL = 3000;
    vsg_batch *all[] = {&pocket, &cluster, &pocket_a, &cluster_a, &edges_e, &edges_a, &linb_e, &linb_a};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) CHECK_STATUS(vsg_batch_init(all[i], NL + 8, NL * 64), VSG_OK);
    if (check_failures) CHECK_EXIT();
    double c[3], ca[3], cl[3];
    for (int d = 0; d < 3; d++) {
        c[d] = rec.g.origin[d] + 0.5 * (rec.g.n[d] - 1) * rec.g.spacing[d];
        ca[d] = ad4.g.origin[d] + 0.5 * (ad4.g.n[d] - 1) * ad4.g.spacing[d];
        cl[d] = lin_e.g.origin[d] + 0.5 * (lin_e.g.n[d] - 1) * lin_e.g.spacing[d];
    }
    CHECK(random_poses(&pocket, NL, c, 12.0, 0, 1.0));     /* 24 Å pocket in a 30 Å grid */
    CHECK(random_poses(&cluster, NL / 3, c, 0.5, 0, 0.25)); /* 2.5 Å: SM blocks fit */
    CHECK(random_poses(&pocket_a, NL, ca, 12.0, 5, 1.0));  /* some atoms leave the 26 Å grid */
    CHECK(random_poses(&cluster_a, NL / 3, ca, 0.4, 5, 0.2));
    CHECK(edge_poses(&edges_e, &edge_e.g, 0));
    CHECK(edge_poses(&edges_a, &edge_a.g, 5));
    CHECK(random_poses(&linb_e, NL / 2, cl, 5.0, 0, 1.0));
    CHECK(random_poses(&linb_a, NL / 2, cl, 5.0, 2, 1.0));
    vsg_score_batch v_pocket = vsg_batch_view(&pocket), v_cluster = vsg_batch_view(&cluster),
                    v_pocket_a = vsg_batch_view(&pocket_a), v_cluster_a = vsg_batch_view(&cluster_a),
                    v_edges_e = vsg_batch_view(&edges_e), v_edges_a = vsg_batch_view(&edges_a),
                    v_lin_e = vsg_batch_view(&linb_e), v_lin_a = vsg_batch_view(&linb_a);

    /* host checks */
    check_batch_builder();
    check_zip_errors();
    check_zip_host(&rec, &v_pocket, "1STP pocket (ELEC)");
    check_zip_host(&ad4, &v_pocket_a, "AD4 pocket");
    check_zip_host(&edge_e, &v_edges_e, "edge cases (ELEC)");
    check_zip_host(&edge_a, &v_edges_a, "edge cases (AD4)");
    check_linear_twin(&lin_e, &v_lin_e);

    gridset *gsets[] = {&rec, &ad4, &edge_e, &edge_a, &lin_e, &lin_a};
    const int ngpu = vsg_gpu_count();
    if (ngpu == 0) { /* free everything first: the sanitizer build checks for leaks */
        for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) vsg_batch_free(all[i]);
        for (size_t i = 0; i < sizeof gsets / sizeof gsets[0]; i++) gridset_free(gsets[i]);
        if (check_failures) CHECK_EXIT();
        SKIP("no GPU (the batch, ZIP and twin host checks passed)");
    }
    char name[256];
    if (vsg_gpu_describe(0, name, sizeof name, NULL, NULL) == VSG_OK) printf("GPU 0: %s\n", name);

    struct {
        gridset *gs;
        vsg_score_batch *b;
        const char *what;
        int staged;
    } cases[] = {
        {&rec, &v_pocket, "(a) 1STP Coulomb 0.375 A, 24 A pocket", 0},
        {&rec, &v_cluster, "(a) 1STP Coulomb, poses in 2.5 A", 1},
        {&ad4, &v_pocket_a, "(b) AD4 maps, 24 A pocket", 0},
        {&ad4, &v_cluster_a, "(b) AD4 maps, poses in 2 A", 1},
        {&edge_e, &v_edges_e, "(c) ELEC edge cases", 0},
        {&edge_a, &v_edges_a, "(c) AD4 edge cases", 0},
        {&lin_e, &v_lin_e, "(d) ELEC linear field", 0},
        {&lin_a, &v_lin_a, "(d) AD4 linear maps", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        vsg_screen_gpu *s = NULL;
        vsg_status st = vsg_screen_gpu_open(&cases[i].gs->g, 0, 0, &s);
        CHECK_STATUS(st, VSG_OK);
        if (st != VSG_OK) continue;
        gpu_all(s, cases[i].gs, cases[i].b, cases[i].what, cases[i].staged);
        if (i == 2) {
            gpu_launches_and_limits(s, cases[i].gs, cases[i].b);
            gpu_errors(ngpu, cases[i].gs, s, cases[i].b);
        }
        vsg_screen_gpu_close(s);
    }
    gpu_memory_cap(&ad4, &v_pocket_a);

    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) vsg_batch_free(all[i]);
    for (size_t i = 0; i < sizeof gsets / sizeof gsets[0]; i++) gridset_free(gsets[i]);
    CHECK_EXIT();
}
