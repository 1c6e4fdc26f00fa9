/* coulomb.c — the direct Coulomb potential grid (CPU twin of gpu/coulomb/coulomb_gpu.cu; contract in
 * vsgrid.h).
 *
 * Physical mode (autogrid = 0): scale = 332.0637 kcal·Å/(mol·e²) (vsgrid's e²/4πε₀, README
 * "Units"), r clamped below at 0.5 Å so that grid points on top of an atom stay finite (the
 * same clamp as AutoGrid's, for one convention across modes), no cutoff. Mehler–Solmajer is
 * evaluated analytically.
 *
 * AutoGrid-compatible mode (autogrid = 1) reproduces autogrid4 4.2.6 (Debian 4.2.6-9; AutoGrid
 * main.cpp rev 1.109, distdepdiel.cpp rev 1.3, ad4_shared constants.h rev 1.44) point by point:
 *  - e-map value at point p:  Σ_i q_i · (1/max(r_i, 0.5)) · T[min((int)(r_i·100), 16383)]
 *    with T[j] = 332.0 · FE_coeff_estat / ε(j/100 Å) (main.cpp, GPF_DIEL case and the grid loop:
 *    `inv_rmax = 1/max(r, 0.5)`, `indx_r = min(lookup(r), NDIEL-1)`, `r_epsilon_fn = factor/ε`,
 *    `energy += charge · inv_rmax · r_epsilon_fn[indx_r] · AD4.coeff_estat`).
 *    NOTE: the table index comes from the *unclamped* r; only the 1/r factor is clamped at
 *    0.5 Å. vsgrid.h's Coulomb "r clamped below at rmin" applies to the 1/r factor in table mode.
 *  - factor = 332.0 exactly (main.cpp `double factor=332.0L`), not 332.0637.
 *  - FE_coeff_estat = 0.1406: the default parameter set compiled into autogrid4 4.2.6
 *    (AD4.1_bound.dat, "Unbound_Same_As_Bound"); a gpf `parameter_file` may override it.
 *    The magnitude of the gpf's `dielectric` value is ignored: a negative value only selects
 *    the distance-dependent dielectric (1iep's gpf has `dielectric -42.000`), so "-0.1465"
 *    does not mean a 0.1465 coefficient (0.1465 was AutoDock 4.0's estat weight).
 *  - Table: A_DIV = 100 entries per Å, NDIEL = 16384 entries (163.84 Å; farther atoms use the
 *    last entry, ε ≈ 78.4); T[0] uses ε = 1 exactly (main.cpp sets epsilon_fn[0] = 1.0).
 *  - ε(r) = A + B/(1 + k·exp(−λ·B·r)), A = −8.5525, ε0 = 78.4, B = ε0 − A, k = 7.7839,
 *    λ = 0.003627; ε < 1e-6 is replaced by 1 (calc_ddd_Mehler_Solmajer, Mehler & Solmajer,
 *    Protein Eng. 4, 903–910 (1991)).
 *  - Constant dielectric (gpf `dielectric` ≥ 0): f = 332.0·coeff/(ε·max(r, 0.5)); ε ≤ 1e-6
 *    means ε = 40 (main.cpp: `if (diel <= APPROX_ZERO) diel = 40.`).
 *  - No cutoff for the e map (the NBC = 8 Å test comes after the electrostatic sum), no
 *    energy clamp (EINTCLAMP applies to the vdW/H-bond tables only).
 *  - The map prints (float)round3dp(e) with "%.3f", and "0." when |e| < 1e-4 (PRECISION):
 *    done by the .map writer (autogrid_maps.c), the values here are unrounded.
 *  - 4r has no AutoGrid counterpart; in AutoGrid mode it uses the same 332.0·coeff prefactor
 *    and 0.5 Å clamp.
 * Points are placed as AutoGrid does, relative to the box centre: (i − (n−1)/2)·h, with atom
 * coordinates taken relative to the centre first, so distances round the same way. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "grids/formats/grid.h"
#include "grids/receptor/molecule.h"
#include "grids/base/vsgrid.h"

#define COULOMB_VSG 332.0637      /* vsgrid's e²/(4πε₀), kcal·Å/(mol·e²) */
#define AG_FACTOR 332.0           /* AutoGrid main.cpp `factor` */
#define AG_COEFF_ESTAT 0.1406     /* AD4.1_bound.dat FE_coeff_estat, autogrid4 4.2.6 default */
#define AG_A_DIV 100.0            /* constants.h A_DIV: table entries per Å */
#define AG_NDIEL 16384            /* constants.h NDIEL: table entries */
#define AG_RMIN 0.5               /* main.cpp inv_rmax = 1/max(r, 0.5) */
#define AG_APPROX_ZERO 1.0e-6     /* autocomm.h APPROX_ZERO */
#define AG_DIEL_DEFAULT 40.0      /* main.cpp: constant dielectric 0 → 40 */

/* Mehler–Solmajer sigmoidal dielectric, with AutoGrid's guard against ε ≈ 0. */
static double eps_mehler_solmajer(double r)
{
    const double A = -8.5525, eps0 = 78.4, k = 7.7839, lambda = 0.003627;
    const double B = eps0 - A;
    double e = A + B / (1.0 + k * exp(-lambda * B * r));
    return e < AG_APPROX_ZERO ? 1.0 : e;
}

vsg_status vsg_coulomb_kernel_make(vsg_dielectric_model model, double eps, int autogrid, vsg_coulomb_kernel *k)
{
    if (!k) return vsg_fail(VSG_E_ARG, "coulomb kernel: NULL output");
    memset(k, 0, sizeof *k);
    if (model != VSG_DIEL_CONSTANT && model != VSG_DIEL_DISTANCE_4R && model != VSG_DIEL_MEHLER_SOLMAJER)
        return vsg_fail(VSG_E_ARG, "coulomb kernel: unknown dielectric model %d", (int)model);
    k->model = model;
    k->autogrid = autogrid ? 1 : 0;
    k->cutoff = 0.0;
    if (model == VSG_DIEL_CONSTANT) {
        if (!isfinite(eps)) return vsg_fail(VSG_E_ARG, "constant dielectric must be finite");
        if (autogrid && eps <= AG_APPROX_ZERO && eps >= 0.0) eps = AG_DIEL_DEFAULT;
        if (!(eps > 0.0)) return vsg_fail(VSG_E_ARG, "constant dielectric must be > 0 (got %g)", eps);
        k->eps = eps;
    }
    if (!autogrid) {
        k->scale = COULOMB_VSG;
        k->rmin = AG_RMIN;
        return VSG_OK;
    }
    k->scale = AG_FACTOR * AG_COEFF_ESTAT;
    k->rmin = AG_RMIN;
    if (model == VSG_DIEL_MEHLER_SOLMAJER) {
        k->table = malloc(sizeof(double) * AG_NDIEL);
        if (!k->table) return vsg_fail(VSG_E_NOMEM, "coulomb kernel: out of memory for the dielectric table");
        k->table_n = AG_NDIEL;
        k->table_per_a = AG_A_DIV;
        k->table[0] = k->scale; /* ε(0) = 1 by AutoGrid's definition, not the formula's 1.35 */
        for (int i = 1; i < AG_NDIEL; i++) k->table[i] = k->scale / eps_mehler_solmajer(i * (1.0 / AG_A_DIV));
    }
    return VSG_OK;
}

void vsg_coulomb_kernel_free(vsg_coulomb_kernel *k)
{
    if (!k) return;
    free(k->table);
    k->table = NULL;
    k->table_n = 0;
}

typedef struct { double x, y, z, q; } charge_site;

vsg_status vsg_coulomb_cpu(const vsg_molecule *m, const vsg_coulomb_kernel *k, vsg_grid *g)
{
    if (!m || !k || !g || !g->data) return vsg_fail(VSG_E_ARG, "coulomb: NULL molecule, kernel or grid");
    for (int d = 0; d < 3; d++)
        if (g->n[d] < 1 || !(g->spacing[d] > 0.0) || !isfinite(g->origin[d]))
            return vsg_fail(VSG_E_ARG, "coulomb: bad grid geometry on axis %d", d);
    if (k->table && (k->table_n < 1 || !(k->table_per_a > 0.0)))
        return vsg_fail(VSG_E_ARG, "coulomb: bad dielectric table");
    if (!(k->rmin > 0.0)) return vsg_fail(VSG_E_ARG, "coulomb: rmin must be > 0 Å");

    /* Box centre; atoms and points are expressed relative to it, as AutoGrid does (the gpf's
     * own centre when the kernel has it: origin + (n−1)/2·h may differ in the last bit, and a
     * lattice distance on a table bin's edge then falls in the neighbouring bin). */
    double centre[3];
    for (int d = 0; d < 3; d++)
        centre[d] = k->have_center ? k->center[d] : g->origin[d] + 0.5 * (g->n[d] - 1) * g->spacing[d];

    size_t na = 0;
    charge_site *s = malloc(sizeof *s * (m->n ? m->n : 1));
    if (!s) return vsg_fail(VSG_E_NOMEM, "coulomb: out of memory for %zu atoms", m->n);
    for (size_t i = 0; i < m->n; i++) {
        const vsg_atom *a = &m->atoms[i];
        if (a->charge == 0.0) continue; /* contributes nothing */
        s[na++] = (charge_site){a->x - centre[0], a->y - centre[1], a->z - centre[2], a->charge};
    }

    const int nx = g->n[0], ny = g->n[1], nz = g->n[2];
    const double half[3] = {0.5 * (nx - 1), 0.5 * (ny - 1), 0.5 * (nz - 1)};
    const double cut2 = k->cutoff > 0.0 ? k->cutoff * k->cutoff : INFINITY;
    /* kernel fields in locals: the stores to e[] could otherwise alias them */
    const double rmin = k->rmin, scale = k->scale, keps = k->eps, per_a = k->table_per_a;
    const double *const tab = k->table;
    const int last = k->table_n - 1;
    const vsg_dielectric_model model = k->model;
    const long rows = (long)ny * nz;
    float *out = g->data;
    int nomem = 0;

    /* One x row at a time, atoms outer and points inner: the inner loops are branch-free and
     * vectorise, and each point still sums its atoms in file order (as AutoGrid does). */
#pragma omp parallel
    {
        double *const buf = malloc(sizeof(double) * 2 * (size_t)nx);
        double *restrict e = buf, *restrict px = buf ? buf + nx : NULL;
        if (!e) {
#pragma omp atomic write
            nomem = 1;
        } else {
            for (int i = 0; i < nx; i++) px[i] = (i - half[0]) * g->spacing[0];
        }
#pragma omp for schedule(dynamic, 4)
        for (long row = 0; row < rows; row++) {
            if (!e) continue;
            int j = (int)(row % ny), kz = (int)(row / ny);
            double py = (j - half[1]) * g->spacing[1];
            double pz = (kz - half[2]) * g->spacing[2];
            for (int i = 0; i < nx; i++) e[i] = 0.0;
            for (size_t a = 0; a < na; a++) {
                const double ax = s[a].x, dy = s[a].y - py, dz = s[a].z - pz, q = s[a].q;
                /* r² = (dx² + dy²) + dz², left to right as AutoGrid's hypotenuse() forms it: at a
                 * tie (a distance exactly on a table-bin edge or the cutoff, e.g. an atom on a
                 * node) another association rounds the other way and picks the neighbouring bin. */
                const double dy2 = dy * dy, dz2 = dz * dz;
                if (dy2 + dz2 > cut2) continue; /* the whole row is beyond the cutoff (r² ≥ dy² + dz²) */
                if (tab) {
                    for (int i = 0; i < nx; i++) {
                        double dx = ax - px[i], r2 = dx * dx + dy2 + dz2, r = sqrt(r2);
                        double t = r * per_a; /* bin from the unclamped r (AutoGrid's lookup(r)) */
                        int idx = t < (double)last ? (int)t : last;
                        double f = tab[idx] / (r < rmin ? rmin : r);
                        e[i] += r2 <= cut2 ? q * f : 0.0;
                    }
                } else if (model == VSG_DIEL_CONSTANT) {
                    const double c = scale / keps;
                    for (int i = 0; i < nx; i++) {
                        double dx = ax - px[i], r2 = dx * dx + dy2 + dz2, r = sqrt(r2);
                        double f = c / (r < rmin ? rmin : r);
                        e[i] += r2 <= cut2 ? q * f : 0.0;
                    }
                } else if (model == VSG_DIEL_DISTANCE_4R) {
                    const double c = 0.25 * scale, rmin2 = rmin * rmin;
                    for (int i = 0; i < nx; i++) {
                        double dx = ax - px[i], r2 = dx * dx + dy2 + dz2;
                        double f = c / (r2 < rmin2 ? rmin2 : r2);
                        e[i] += r2 <= cut2 ? q * f : 0.0;
                    }
                } else {
                    for (int i = 0; i < nx; i++) {
                        double dx = ax - px[i], r2 = dx * dx + dy2 + dz2, r = sqrt(r2);
                        double rc = r < rmin ? rmin : r;
                        double f = scale / (rc * eps_mehler_solmajer(rc));
                        e[i] += r2 <= cut2 ? q * f : 0.0;
                    }
                }
            }
            float *line = out + (size_t)row * nx;
            for (int i = 0; i < nx; i++) line[i] = (float)e[i];
        }
        free(buf);
    }
    if (nomem) {
        free(s);
        return vsg_fail(VSG_E_NOMEM, "coulomb: out of memory for a row of %d points", nx);
    }
    free(s);
    return VSG_OK;
}
