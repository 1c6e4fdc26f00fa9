/* test_gpu_pb.c — the GPU PB solver (gpu/pb/sor_gpu.cu) against its CPU twin (grids/pb/sor_cpu.c)
 * on random systems built by hand: same initial state, same settings, and
 *   double GPU vs double CPU: max |diff| ≤ 1e-8 × range(φ_cpu), equal iteration counts;
 *   float GPU vs double CPU: ≤ 1e-4 × range, iterations within ±2·check_every;
 *   float GPU vs float CPU: the same bounds;
 * linear and nonlinear (1:1 salt at 0.15 M), plus error paths (NaN, bad device, bad list).
 * The seed is fresh each run and printed; VSG_TEST_SEED=<n> repeats a run. Skipped (77)
 * without a GPU. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "grids/base/vsgrid.h"
#include "gpu/device/gpu.h"
#include "gpu/pb/pb_gpu.h"
#include "grids/pb/pb_system.h"
#include "testkit.h"

#define EPS_SOLV 78.54
#define KAPPA 0.127     /* 1/Å, about 0.15 M 1:1 salt */
#define LAMBDA_B 7.0    /* Bjerrum length in Å, close enough for test data */
#define CHECK_EVERY 10
/* kT/e: well above the float rounding of these potentials (|φ| ≲ 3, ulp ≤ 2.4e-7), so a float
 * solve stops within a check or two of a double one */
#define TOL 3e-6
#define PI 3.14159265358979323846


/* ---- building a system ------------------------------------------------------------------ */

/* A "molecule" of a few spheres. Each sphere has its own dielectric, constant in [2, 80] or
 * drawn per node (a noisy region: many listed nodes), and no salt; around some spheres a
 * salt-free solvent layer (ion exclusion). The rest is solvent with salt. Midpoint
 * dielectrics are the mean of the two nodes', so the operator is symmetric, as in the real
 * discretisation, and SOR converges for any ω in (0, 2). */
typedef struct {
    double c[3], r, eps, layer;
    int noisy;
} blob;

static int node_material(const blob *b, int nb, int x, int y, int z, double *eps)
{
    int salt = 1;
    *eps = EPS_SOLV;
    for (int i = 0; i < nb; i++) {
        double dx = x - b[i].c[0], dy = y - b[i].c[1], dz = z - b[i].c[2];
        double d = sqrt(dx * dx + dy * dy + dz * dz);
        if (d < b[i].r) {
            *eps = b[i].noisy ? uniform(2.0, 80.0) : b[i].eps;
            return 0;
        }
        if (d < b[i].r + b[i].layer) salt = 0;
    }
    return salt;
}

/* Builds s (double precision). Faces and interior get random non-zero values. */
static vsg_status build_system(vsg_pb_system *s, int nx, int ny, int nz, int nonlinear)
{
    const double h = 0.5, origin[3] = {-1.0, 2.0, 0.5};
    vsg_status st = vsg_pb_system_alloc(s, nx, ny, nz, h, origin, VSG_PRECISION_DOUBLE);
    if (st != VSG_OK) return st;
    s->kh2 = KAPPA * KAPPA * h * h;
    if (nonlinear) {
        s->nonlinear = 1;
        s->n_ions = 2;
        s->ion_molar[0] = 0.15;
        s->ion_charge[0] = 1.0;
        s->ion_molar[1] = 0.15;
        s->ion_charge[1] = -1.0;
        s->two_i = 0.3;
    }

    blob b[6];
    int nb = 3 + (int)(urand() * 4.0);
    for (int i = 0; i < nb; i++) {
        b[i].c[0] = uniform(0.3, 0.7) * nx;
        b[i].c[1] = uniform(0.3, 0.7) * ny;
        b[i].c[2] = uniform(0.3, 0.7) * nz;
        b[i].r = uniform(0.08, 0.2) * nx;
        b[i].eps = uniform(2.0, 80.0);
        b[i].noisy = urand() < 0.4;
        b[i].layer = urand() < 0.5 ? uniform(1.0, 4.0) : 0.0;
    }

    /* Per-node dielectric and salt, then the listed nodes from them. */
    double *eps = malloc(s->nodes * sizeof *eps);
    double *charge = malloc(s->nodes * sizeof *charge);
    vsg_pb_corr *list[2] = {malloc(s->count[0] * sizeof(vsg_pb_corr)),
                            malloc(s->count[1] * sizeof(vsg_pb_corr))};
    if (!eps || !charge || !list[0] || !list[1]) {
        free(eps), free(charge), free(list[0]), free(list[1]);
        vsg_pb_system_free(s);
        return VSG_E_NOMEM;
    }
    for (int z = 0; z < nz; z++)
        for (int y = 0; y < ny; y++)
            for (int x = 0; x < nx; x++) {
                size_t L = vsg_pb_linear(s, x, y, z);
                int salt = node_material(b, nb, x, y, z, &eps[L]);
                s->flag[L & 1][L >> 1] = salt ? VSG_NODE_SALT : 0;
                int face = x == 0 || y == 0 || z == 0 || x == nx - 1 || y == ny - 1 || z == nz - 1;
                /* Boundary values: a smooth field plus noise; the interior starts random. */
                double v = face ? 0.8 * sin(0.21 * x + 0.13 * y) * cos(0.17 * z) + uniform(-0.2, 0.2)
                                : uniform(-0.5, 0.5);
                vsg_pb_set(s, L, v);
                /* Charges inside the molecule (a few % of its nodes), a few in the solvent. */
                charge[L] = !face && urand() < (salt ? 0.002 : 0.03) ? uniform(-0.25, 0.25) : 0.0;
            }

    size_t n[2] = {0, 0};
    const ptrdiff_t step[3] = {1, nx, (ptrdiff_t)nx * ny};
    for (int z = 1; z < nz - 1; z++)
        for (int y = 1; y < ny - 1; y++)
            for (int x = 1; x < nx - 1; x++) {
                size_t L = vsg_pb_linear(s, x, y, z);
                int c = (int)(L & 1), salt = s->flag[c][L >> 1] & VSG_NODE_SALT;
                double em[6], sum = 0.0;
                int uniform_eps = 1;
                for (int a = 0; a < 3; a++)
                    for (int sgn = 0; sgn < 2; sgn++) {
                        size_t nb_L = sgn ? L + (size_t)step[a] : L - (size_t)step[a];
                        em[2 * a + sgn] = 0.5 * (eps[L] + eps[nb_L]);
                        sum += em[2 * a + sgn];
                        if (em[2 * a + sgn] != eps[L]) uniform_eps = 0;
                    }
                /* Salt at ε ≠ ε_solv cannot happen here (salt only in the solvent), so a node
                 * is listed at a dielectric jump, at a charge, or at random (1%) to run the
                 * list over plain nodes too. */
                int listed = !uniform_eps || charge[L] != 0.0 || urand() < 0.01;
                if (!listed) continue;
                double kterm = salt ? EPS_SOLV * s->kh2 : 0.0;
                double D = sum + kterm;
                vsg_pb_corr *q = &list[c][n[c]++];
                q->index = L >> 1;
                for (int i = 0; i < 6; i++) q->w[i] = em[i] / D;
                q->s = 4.0 * PI * LAMBDA_B * charge[L] / (h * D);
                q->k = kterm / D;
                s->flag[c][L >> 1] |= VSG_NODE_LISTED;
            }
    for (int c = 0; c < 2; c++) {
        s->corr[c] = list[c];
        s->ncorr[c] = n[c];
    }
    free(eps);
    free(charge);
    return VSG_OK;
}

/* Deep copy of src in the given precision (potential converted). */
static vsg_status copy_system(vsg_pb_system *dst, const vsg_pb_system *src, vsg_precision prec)
{
    vsg_status st = vsg_pb_system_alloc(dst, src->nx, src->ny, src->nz, src->h, src->origin, prec);
    if (st != VSG_OK) return st;
    for (int c = 0; c < 2; c++) {
        memcpy(dst->flag[c], src->flag[c], src->count[c]);
        if (src->ncorr[c]) {
            dst->corr[c] = malloc(src->ncorr[c] * sizeof(vsg_pb_corr));
            if (!dst->corr[c]) {
                vsg_pb_system_free(dst);
                return VSG_E_NOMEM;
            }
            memcpy(dst->corr[c], src->corr[c], src->ncorr[c] * sizeof(vsg_pb_corr));
        }
        dst->ncorr[c] = src->ncorr[c];
    }
    for (size_t L = 0; L < src->nodes; L++) vsg_pb_set(dst, L, vsg_pb_get(src, L));
    dst->kh2 = src->kh2;
    dst->nonlinear = src->nonlinear;
    dst->n_ions = src->n_ions;
    memcpy(dst->ion_molar, src->ion_molar, sizeof dst->ion_molar);
    memcpy(dst->ion_charge, src->ion_charge, sizeof dst->ion_charge);
    dst->two_i = src->two_i;
    return VSG_OK;
}

static double max_diff(const vsg_pb_system *a, const vsg_pb_system *b)
{
    double m = 0.0;
    for (size_t L = 0; L < a->nodes; L++) {
        double d = fabs(vsg_pb_get(a, L) - vsg_pb_get(b, L));
        if (!(d <= m)) m = d; /* a NaN sticks */
    }
    return m;
}

static double range_of(const vsg_pb_system *s)
{
    double lo = INFINITY, hi = -INFINITY;
    for (size_t L = 0; L < s->nodes; L++) {
        double v = vsg_pb_get(s, L);
        if (v < lo) lo = v;
        if (v > hi) hi = v;
    }
    return hi - lo;
}

/* Box-face values must come back exactly as they went in. */
static int faces_kept(const vsg_pb_system *got, const vsg_pb_system *init)
{
    for (int z = 0; z < got->nz; z++)
        for (int y = 0; y < got->ny; y++)
            for (int x = 0; x < got->nx; x++) {
                if (x && y && z && x < got->nx - 1 && y < got->ny - 1 && z < got->nz - 1) continue;
                size_t L = vsg_pb_linear(got, x, y, z);
                double want = init->precision == got->precision ? vsg_pb_get(init, L)
                                                                 : (double)(float)vsg_pb_get(init, L);
                if (vsg_pb_get(got, L) != want) return 0;
            }
    return 1;
}

static vsg_sor_settings settings_for(const vsg_pb_system *s)
{
    vsg_sor_settings set;
    memset(&set, 0, sizeof set);
    set.omega = vsg_sor_omega(s->nx, s->ny, s->nz);
    set.tol = TOL;
    set.max_iter = 20000;
    set.check_every = CHECK_EVERY;
    set.gpu_index = -1;
    return set;
}

/* Runs one solver on a fresh copy of base in the given precision. */
typedef vsg_status (*solver_fn)(vsg_pb_system *, const vsg_sor_settings *, vsg_sor_result *);
static int run(solver_fn f, const vsg_pb_system *base, vsg_precision prec,
               const vsg_sor_settings *set, vsg_pb_system *out, vsg_sor_result *r)
{
    memset(r, 0, sizeof *r);
    if (copy_system(out, base, prec) != VSG_OK) return 0;
    vsg_status st = f(out, set, r);
    CHECK_STATUS(st, VSG_OK);
    return st == VSG_OK;
}

/* Whether the solves here should use listed-node patterns (gpu/pb/sor_gpu.cu's pattern_rule):
 * VSG_SOR_PATTERNS=0 never, =1 always; unset, in double only, since these small float grids
 * fit in L2. Returns the mode's name. */
static const char *pattern_mode(int *want_double, int *want_float)
{
    const char *pe = getenv("VSG_SOR_PATTERNS");
    const int asked = pe ? atoi(pe) != 0 : -1;
    *want_double = asked != 0;
    *want_float = asked == 1;
    return asked < 0 ? "default: double only at this size" : asked ? "patterns forced" : "patterns off";
}

static void compare_case(int nx, int ny, int nz, int nonlinear)
{
    vsg_pb_system base;
    if (build_system(&base, nx, ny, nz, nonlinear) != VSG_OK) {
        CHECK(!"build_system");
        return;
    }
    printf("%dx%dx%d %s: %zu + %zu listed nodes of %zu\n", nx, ny, nz,
           nonlinear ? "nonlinear" : "linear", base.ncorr[0], base.ncorr[1], base.nodes);
    const vsg_sor_settings set = settings_for(&base);
    vsg_pb_system cd, gd, gf, cf;
    vsg_sor_result rcd, rgd, rgf, rcf;
    int ok = run(vsg_sor_cpu, &base, VSG_PRECISION_DOUBLE, &set, &cd, &rcd);
    ok &= run(vsg_sor_gpu, &base, VSG_PRECISION_DOUBLE, &set, &gd, &rgd);
    ok &= run(vsg_sor_gpu, &base, VSG_PRECISION_FLOAT, &set, &gf, &rgf);
    ok &= run(vsg_sor_cpu, &base, VSG_PRECISION_FLOAT, &set, &cf, &rcf);
    if (ok) {
        double range = range_of(&cd);
        double dd = max_diff(&gd, &cd), fd = max_diff(&gf, &cd), ff = max_diff(&gf, &cf);
        printf("  range %.4f kT/e; iterations cpu %d / gpu %d (double), cpu %d / gpu %d (float)\n",
               range, rcd.iterations, rgd.iterations, rcf.iterations, rgf.iterations);
        printf("  max|diff|/range: gpu-double vs cpu-double %.3g%s, gpu-float vs cpu-double %.3g, "
               "gpu-float vs cpu-float %.3g\n",
               dd / range, dd == 0.0 ? " (bit-identical)" : "", fd / range, ff / range);
        printf("  gpu: %s, %.1f MiB (%.2f bytes/node), %.2f ms/iteration double, %.2f float\n",
               rgd.device, rgd.device_bytes / 1048576.0, rgd.device_bytes / (double)base.nodes,
               1e3 * rgd.seconds / rgd.iterations, 1e3 * rgf.seconds / rgf.iterations);
        /* Listed-node patterns (gpu/pb/sor_patterns.cuh): uncharged listed nodes with repeated
         * weights leave the list (here the 1% plain nodes and the solvent-side boundary; the
         * blobs' many ε can fill the table, which must leave the rest listed). Either way the
         * double solve must equal the CPU's above. */
        int want_d, want_f;
        const char *mode = pattern_mode(&want_d, &want_f);
        printf("  pattern nodes: %zu double, %zu float (of %zu listed; %s)\n", rgd.pattern_nodes, rgf.pattern_nodes,
               base.ncorr[0] + base.ncorr[1], mode);
        CHECK(want_d ? rgd.pattern_nodes > 0 : rgd.pattern_nodes == 0);
        CHECK(want_f ? rgf.pattern_nodes > 0 : rgf.pattern_nodes == 0);
        CHECK(rgd.pattern_nodes < base.ncorr[0] + base.ncorr[1]); /* the charged ones stay */
        CHECK(range > 0.1);
        CHECK(rcd.converged && rgd.converged && rgf.converged && rcf.converged);
        CHECK(dd <= 1e-8 * range);
        CHECK(fd <= 1e-4 * range);
        CHECK(ff <= 1e-4 * range);
        CHECK(rgd.iterations == rcd.iterations);
        CHECK(abs(rgf.iterations - rcd.iterations) <= 2 * CHECK_EVERY);
        CHECK(abs(rgf.iterations - rcf.iterations) <= 2 * CHECK_EVERY);
        if (nonlinear) CHECK(rgd.iterations >= VSG_NL_LINEAR + VSG_NL_RAMP);
        CHECK(faces_kept(&gd, &base));
        CHECK(faces_kept(&gf, &base));
        CHECK(rgd.device[0] != '\0');
        CHECK_NEAR(rgd.device_bytes, vsg_sor_gpu_bytes(&gd), 0.5);
        CHECK(rgd.seconds > 0.0 && rgf.seconds > 0.0);
        CHECK(rgd.final_change <= TOL && rgf.final_change <= TOL);
    }
    vsg_pb_system_free(&cd);
    vsg_pb_system_free(&gd);
    vsg_pb_system_free(&gf);
    vsg_pb_system_free(&cf);
    vsg_pb_system_free(&base);
}

/* A fixed number of iterations, stopping far from convergence (tol < 0 never stops; 37 is
 * not a multiple of check_every, so the last iteration is a check only because it is the
 * last): same state and same max |Δφ| of that last check. */
static void fixed_iterations(int nonlinear)
{
    vsg_pb_system base, cd, gd;
    vsg_sor_result rcd, rgd;
    if (build_system(&base, 33, 35, 37, nonlinear) != VSG_OK) {
        CHECK(!"build_system");
        return;
    }
    vsg_sor_settings set = settings_for(&base);
    set.tol = -1.0;
    set.max_iter = nonlinear ? 237 : 37; /* nonlinear: stop inside the λ ramp */
    int ok = run(vsg_sor_cpu, &base, VSG_PRECISION_DOUBLE, &set, &cd, &rcd);
    ok &= run(vsg_sor_gpu, &base, VSG_PRECISION_DOUBLE, &set, &gd, &rgd);
    if (ok) {
        double range = range_of(&cd), dd = max_diff(&gd, &cd);
        printf("fixed %d iterations (%s): max|diff|/range %.3g, last change cpu %.6g gpu %.6g\n",
               set.max_iter, nonlinear ? "nonlinear" : "linear", dd / range, rcd.final_change,
               rgd.final_change);
        CHECK(rgd.iterations == set.max_iter && rcd.iterations == set.max_iter);
        CHECK(!rgd.converged);
        CHECK(dd <= 1e-8 * range);
        CHECK(rcd.final_change > 0.0);
        CHECK_REL(rgd.final_change, rcd.final_change, 1e-8);
    }
    vsg_pb_system_free(&cd);
    vsg_pb_system_free(&gd);
    vsg_pb_system_free(&base);
}

static void error_paths(void)
{
    vsg_pb_system base, t;
    vsg_sor_result r;
    if (build_system(&base, 33, 35, 37, 0) != VSG_OK) {
        CHECK(!"build_system");
        return;
    }
    vsg_sor_settings set = settings_for(&base);

    /* A NaN in the potential spreads; the GPU must report it, not converge on it. */
    if (copy_system(&t, &base, VSG_PRECISION_FLOAT) == VSG_OK) {
        vsg_pb_set(&t, vsg_pb_linear(&t, 16, 17, 18), NAN);
        CHECK_STATUS(vsg_sor_gpu(&t, &set, &r), VSG_E_CONVERGE);
        CHECK(!r.converged);
        CHECK_CONTAINS(vsg_last_error(), "diverged");
        vsg_pb_system_free(&t);
    }
    /* A device that does not exist. */
    if (copy_system(&t, &base, VSG_PRECISION_DOUBLE) == VSG_OK) {
        vsg_sor_settings bad = set;
        bad.gpu_index = vsg_gpu_count();
        CHECK_STATUS(vsg_sor_gpu(&t, &bad, &r), VSG_E_DEVICE);
        CHECK_CONTAINS(vsg_last_error(), "GPU");
        vsg_pb_system_free(&t);
    }
    /* A listed node on the box face is refused before anything runs. */
    if (copy_system(&t, &base, VSG_PRECISION_DOUBLE) == VSG_OK) {
        CHECK(t.ncorr[0] > 0);
        if (t.ncorr[0] > 0) {
            t.corr[0][0].index = 0; /* node (0,0,0) */
            CHECK_STATUS(vsg_sor_gpu(&t, &set, &r), VSG_E_ARG);
        }
        vsg_pb_system_free(&t);
    }
    /* So is a list out of order (a repeated node would race on the GPU). */
    if (copy_system(&t, &base, VSG_PRECISION_DOUBLE) == VSG_OK) {
        CHECK(t.ncorr[1] > 1);
        if (t.ncorr[1] > 1) {
            vsg_pb_corr tmp = t.corr[1][0];
            t.corr[1][0] = t.corr[1][1];
            t.corr[1][1] = tmp;
            CHECK_STATUS(vsg_sor_gpu(&t, &set, &r), VSG_E_ARG);
            CHECK_CONTAINS(vsg_last_error(), "sorted");
        }
        vsg_pb_system_free(&t);
    }
    /* The device still works after those. */
    if (copy_system(&t, &base, VSG_PRECISION_DOUBLE) == VSG_OK) {
        set.max_iter = 5;
        CHECK_STATUS(vsg_sor_gpu(&t, &set, &r), VSG_OK);
        CHECK(r.iterations == 5);
        vsg_pb_system_free(&t);
    }
    vsg_pb_system_free(&base);
}

/* More weight sets than the pattern table has slots (gpu/pb/sor_patterns.cuh, 128): every
 * uncharged entry gets one of 300 distinct physical-looking weight sets (w_i = e_i/D), so the
 * table fills, some entries become pattern nodes and the rest must stay in the list; the double
 * solve must still equal the CPU twin's bit for bit. */
static void overflow_case(void)
{
    vsg_pb_system base;
    if (build_system(&base, 65, 63, 61, 0) != VSG_OK) {
        CHECK(!"build_system");
        return;
    }
    const double kfac = EPS_SOLV * base.kh2;
    size_t uncharged = 0, t = 0;
    for (int c = 0; c < 2; c++)
        for (size_t e = 0; e < base.ncorr[c]; e++) {
            vsg_pb_corr *q = &base.corr[c][e];
            if (q->s != 0.0) continue;
            const int salt = q->k > 0.0;
            const size_t u = t++ % 300;
            double ev[6], d = 0.0;
            ev[0] = 2.0 + (double)(u % 79); /* (ev0, ev1) tell the 300 sets apart */
            ev[1] = 2.0 + (double)(u / 79);
            for (int i = 2; i < 6; i++) ev[i] = 2.0 + (double)((u * 31 + (size_t)i * 17) % 79);
            for (int i = 0; i < 6; i++) d += ev[i];
            d += salt ? kfac : 0.0;
            for (int i = 0; i < 6; i++) q->w[i] = ev[i] / d;
            q->k = salt ? kfac / d : 0.0;
            uncharged++;
        }
    printf("table overflow: %zu uncharged of %zu listed nodes, 300 weight sets (x2 with salt)\n", uncharged,
           base.ncorr[0] + base.ncorr[1]);
    /* These weights no longer make a symmetric operator, and SOR at the grid's ω can diverge on
     * it; Gauss–Seidel (ω = 1) converges on any such diagonally dominant system. */
    vsg_sor_settings set = settings_for(&base);
    set.omega = 1.0;
    vsg_pb_system cd, gd, gf;
    vsg_sor_result rcd, rgd, rgf;
    int ok = run(vsg_sor_cpu, &base, VSG_PRECISION_DOUBLE, &set, &cd, &rcd);
    ok &= run(vsg_sor_gpu, &base, VSG_PRECISION_DOUBLE, &set, &gd, &rgd);
    ok &= run(vsg_sor_gpu, &base, VSG_PRECISION_FLOAT, &set, &gf, &rgf);
    if (ok) {
        const double range = range_of(&cd), dd = max_diff(&gd, &cd), fd = max_diff(&gf, &cd);
        int want_d, want_f;
        const char *mode = pattern_mode(&want_d, &want_f);
        printf("  pattern nodes %zu double, %zu float (%s); max|diff|/range double %.3g, float %.3g; iterations "
               "%d/%d/%d\n",
               rgd.pattern_nodes, rgf.pattern_nodes, mode, dd / range, fd / range, rcd.iterations, rgd.iterations,
               rgf.iterations);
        CHECK(uncharged > 600);
        CHECK(want_d ? rgd.pattern_nodes > 0 : rgd.pattern_nodes == 0);
        CHECK(want_f ? rgf.pattern_nodes > 0 : rgf.pattern_nodes == 0);
        CHECK(rgd.pattern_nodes < uncharged && rgf.pattern_nodes < uncharged); /* the table is full */
        CHECK(rcd.converged && rgd.converged && rgf.converged);
        CHECK(dd == 0.0);
        CHECK(fd <= 1e-4 * range);
        CHECK(rgd.iterations == rcd.iterations);
    }
    vsg_pb_system_free(&cd);
    vsg_pb_system_free(&gd);
    vsg_pb_system_free(&gf);
    vsg_pb_system_free(&base);
}

int main(void)
{
    int n = vsg_gpu_count();
    if (n == 0) SKIP("no GPU");

    testkit_seed();

    char name[256];
    double fr = 0, tot = 0;
    CHECK_STATUS(vsg_gpu_describe(0, name, sizeof name, &fr, &tot), VSG_OK);
    printf("%d GPU%s; GPU 0: %s, %.0f of %.0f MiB free\n", n, n == 1 ? "" : "s", name,
           fr / 1048576.0, tot / 1048576.0);
    CHECK(name[0] != '\0');
    CHECK(tot > 0.0 && fr > 0.0 && fr <= tot);
    CHECK_STATUS(vsg_gpu_describe(n, name, sizeof name, NULL, NULL), VSG_E_DEVICE);

    compare_case(33, 35, 37, 0);
    compare_case(65, 63, 61, 0);
    compare_case(33, 35, 37, 1);
    compare_case(65, 63, 61, 1);
    overflow_case();
    fixed_iterations(0);
    fixed_iterations(1);
    error_paths();
    CHECK_EXIT();
}
