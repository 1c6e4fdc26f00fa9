/* test_place_cpu.c — the rigid-body pose search's CPU twin (ligands/place/place_cpu.c) and its rotation
 * set (ligands/place/rotations.c):
 *  - the super-Fibonacci set: unit quaternions, deterministic, and its coverage (largest angle
 *    from random rotations to the nearest member) for N = 500, 1000, 5000, printed and bounded;
 *  - a one-atom ligand on a synthetic ELEC grid: the best pose is the lattice point nearest the
 *    potential's minimum; a grid whose values are all positive, where a pose scored "as if
 *    inside" would win with 0, never lets an outside pose win; a grid too small for the ligand
 *    finds no pose;
 *  - the best pose and the top-k do not depend on the thread count;
 *  - 1STP: the crystal biotin randomly rotated and translated (seeded), placed on its AutoGrid
 *    maps with 3000 rotations and a 0.5 Å site step in a box of ±1.5 Å around the crystal site
 *    (343 sites, about 1e6 poses): the best pose lies within 2 Å RMSD of the crystal pose;
 *  - poses/s of the twin for a 32-atom ligand, ELEC and AD4 (printed, not asserted).
 * Skips the 1STP parts (not the whole test) when ../shared is absent; exits 77 only if that
 * was all there was to run (never: the synthetic parts always run). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "check.h"
#include "grids/base/vsgrid.h"
#include "ligands/ligand.h"
#include "testkit.h"

#define PI 3.14159265358979323846

/* Uniform random rotation (Shoemake 1992). */
static vsg_quat random_quat(void)
{
    double u1 = urand(), u2 = urand(), u3 = urand();
    vsg_quat q = {sqrt(1 - u1) * sin(2 * PI * u2), sqrt(1 - u1) * cos(2 * PI * u2), sqrt(u1) * sin(2 * PI * u3),
                  sqrt(u1) * cos(2 * PI * u3)};
    return q;
}

static void test_rotations(void)
{
    const int sizes[3] = {500, 1000, 5000};
    const int samples = 20000;
    for (int k = 0; k < 3; k++) {
        int n = sizes[k];
        vsg_quat *a = malloc(sizeof *a * (size_t)n), *b = malloc(sizeof *b * (size_t)n);
        CHECK_STATUS(vsg_rotations_super_fibonacci(n, a), VSG_OK);
        CHECK_STATUS(vsg_rotations_super_fibonacci(n, b), VSG_OK);
        CHECK(memcmp(a, b, sizeof *a * (size_t)n) == 0); /* deterministic */
        double worst_norm = 0.0;
        for (int i = 0; i < n; i++)
            worst_norm = fmax(worst_norm, fabs(a[i].w * a[i].w + a[i].x * a[i].x + a[i].y * a[i].y + a[i].z * a[i].z - 1));
        CHECK(worst_norm < 1e-12);
        double worst = 0.0, mean = 0.0;
        for (int s = 0; s < samples; s++) {
            vsg_quat r = random_quat();
            double best = 1e9;
            for (int i = 0; i < n; i++) best = fmin(best, vsg_quat_angle(&r, &a[i]));
            worst = fmax(worst, best);
            mean += best;
        }
        mean /= samples;
        double bound = cbrt(6 * PI / n); /* radius at which n balls have SO(3)'s volume */
        printf("rotations: N = %d: largest angle to the nearest of %d random rotations %.2f deg, mean %.2f deg "
               "(volume bound %.2f deg)\n",
               n, samples, worst * 180 / PI, mean * 180 / PI, bound * 180 / PI);
        CHECK(worst < 2.0 * bound); /* near-uniform: no hole larger than twice the ideal radius */
        CHECK(worst > bound * 0.8);  /* sanity: the estimate cannot beat the volume bound by much */
        free(a);
        free(b);
    }
    vsg_quat q;
    CHECK_STATUS(vsg_rotations_super_fibonacci(0, &q), VSG_E_ARG);
    /* the matrix of a quaternion is a rotation: R·Rᵀ = I, det 1 */
    vsg_quat r = random_quat();
    double m[9];
    vsg_quat_to_matrix(&r, m);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double d = m[3 * i] * m[3 * j] + m[3 * i + 1] * m[3 * j + 1] + m[3 * i + 2] * m[3 * j + 2];
            CHECK_NEAR(d, i == j, 1e-12);
        }
}

/* An ELEC grid of n³ nodes, spacing h, origin 0, values f(x, y, z). */
typedef double (*field_fn)(double x, double y, double z);
static float *make_grid(vsg_score_grids *g, int n, double h, field_fn f)
{
    memset(g, 0, sizeof *g);
    g->kind = VSG_SCORE_ELEC;
    float *v = malloc(sizeof *v * (size_t)n * n * n);
    for (int k = 0; k < n; k++)
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) v[i + (size_t)n * (j + (size_t)n * k)] = (float)f(i * h, j * h, k * h);
    for (int d = 0; d < 3; d++) {
        g->n[d] = n;
        g->spacing[d] = h;
    }
    g->nmaps = 1;
    g->maps[0] = v;
    g->e_map = 0;
    g->d_map = -1;
    g->elec_factor = 1.0;
    return v;
}

static double bowl(double x, double y, double z) { return (x - 3.3) * (x - 3.3) + (y - 4.6) * (y - 4.6) + (z - 5.2) * (z - 5.2); }
/* Positive everywhere and larger near the middle: an outside pose scored as 0 would win. */
static double hill(double x, double y, double z) { return 1.0 + 50.0 / (1.0 + (x - 5) * (x - 5) + (y - 5) * (y - 5) + (z - 5) * (z - 5)); }

static void test_synthetic(void)
{
    vsg_score_grids g;
    float *v = make_grid(&g, 21, 0.5, bowl); /* 10 Å cube */
    vsg_quat rot[4];
    CHECK_STATUS(vsg_rotations_super_fibonacci(4, rot), VSG_OK);
    /* one atom, charge +1: the best site is the lattice point nearest (3.3, 4.6, 5.2) */
    float x = 1, y = 1, z = 1, q = 1;
    vsg_place_ligand one = {1, &x, &y, &z, &q, NULL};
    vsg_place_options o = {rot, 4, {{5, 5, 5}, {5, 5, 5}, 1.0}, 3};
    vsg_place_pose top[3];
    vsg_place_result r;
    r.top = top;
    CHECK_STATUS(vsg_place_cpu(&g, &one, &o, &r), VSG_OK);
    CHECK(r.found);
    CHECK_NEAR(r.best.site_point[0], 3, 1e-12);
    CHECK_NEAR(r.best.site_point[1], 5, 1e-12);
    CHECK_NEAR(r.best.site_point[2], 5, 1e-12);
    CHECK(r.best.rotation == 0); /* one atom: every rotation ties, the lowest pose index wins */
    CHECK(r.best.pose == r.best.site);
    CHECK(r.poses == 4 * 11 * 11 * 11);
    CHECK(r.ntop == 3 && top[0].pose == r.best.pose);
    CHECK(top[0].score.total <= top[1].score.total && top[1].score.total <= top[2].score.total);
    /* the three best: same site, rotations 0, 1, 2 (ties broken by pose index) */
    CHECK(top[1].site == r.best.site && top[1].rotation == 1 && top[2].rotation == 2);
    double p[3] = {1, 1, 1}, out[3];
    vsg_place_transform(&r.best, p, out);
    CHECK_NEAR(out[0], 3, 1e-9);
    CHECK_NEAR(out[2], 5, 1e-9);
    free(v);

    /* Outside poses never win: a two-atom ligand 6 Å long on a 10 Å hill. */
    v = make_grid(&g, 21, 0.5, hill);
    float x2[2] = {0, 6}, y2[2] = {0, 0}, z2[2] = {0, 0}, q2[2] = {1, 1};
    vsg_place_ligand two = {2, x2, y2, z2, q2, NULL};
    vsg_quat rots[200];
    CHECK_STATUS(vsg_rotations_super_fibonacci(200, rots), VSG_OK);
    vsg_place_options o2 = {rots, 200, {{5, 5, 5}, {6, 6, 6}, 0.5}, 0};
    r.top = NULL;
    CHECK_STATUS(vsg_place_cpu(&g, &two, &o2, &r), VSG_OK);
    CHECK(r.found);
    CHECK(r.best.score.outside == 0);
    CHECK(r.best.score.total >= 2.0); /* every atom inside scores ≥ 1 */
    CHECK(r.rejected > 0 && r.rejected < r.poses);
    double a0[3] = {0, 0, 0}, a1[3] = {6, 0, 0}, b0[3], b1[3];
    vsg_place_transform(&r.best, a0, b0);
    vsg_place_transform(&r.best, a1, b1);
    for (int d = 0; d < 3; d++) {
        CHECK(b0[d] >= 0 && b0[d] <= 10);
        CHECK(b1[d] >= 0 && b1[d] <= 10);
    }
    /* A 12 Å ligand never fits a 10 Å cube: no pose, not an error. */
    x2[1] = 18;
    CHECK_STATUS(vsg_place_cpu(&g, &two, &o2, &r), VSG_OK);
    CHECK(!r.found && r.rejected == r.poses);
    /* bad options */
    o2.box.step = 0;
    CHECK_STATUS(vsg_place_cpu(&g, &two, &o2, &r), VSG_E_ARG);
    free(v);
}

/* RMSD between a pose of lig and reference coordinates (same atom order). */
static double pose_rmsd(const vsg_place_pose *p, const float *x, const float *y, const float *z, const double *ref, size_t n)
{
    double s = 0.0;
    for (size_t i = 0; i < n; i++) {
        double a[3] = {x[i], y[i], z[i]}, b[3];
        vsg_place_transform(p, a, b);
        for (int d = 0; d < 3; d++) s += (b[d] - ref[3 * i + d]) * (b[d] - ref[3 * i + d]);
    }
    return sqrt(s / (double)n);
}

static int set_threads(int n)
{
#ifdef _OPENMP
    int old = omp_get_max_threads();
    omp_set_num_threads(n);
    return old;
#else
    (void)n;
    return 1;
#endif
}

/* Poses/s of the twin on g for a 32-atom ligand made of the first atoms of lig, repeated. */
static void measure_rate(const char *label, const vsg_score_grids *g, const float *x, const float *y, const float *z,
                         const float *q, const uint8_t *t, size_t n)
{
    float X[32], Y[32], Z[32], Q[32];
    uint8_t T[32];
    for (int i = 0; i < 32; i++) { /* a compact 32-atom cloud: the ligand's atoms, jittered copies */
        size_t k = (size_t)i % n;
        X[i] = x[k] + (i >= (int)n ? 0.3f : 0.0f);
        Y[i] = y[k];
        Z[i] = z[k] + (i >= 2 * (int)n ? 0.3f : 0.0f);
        Q[i] = q[k];
        T[i] = t ? t[k] : VSG_SCORE_NO_TYPE;
    }
    vsg_quat *rot = malloc(sizeof *rot * 500);
    vsg_rotations_super_fibonacci(500, rot);
    double c[3] = {g->origin[0] + 0.5 * (g->n[0] - 1) * g->spacing[0], g->origin[1] + 0.5 * (g->n[1] - 1) * g->spacing[1],
                   g->origin[2] + 0.5 * (g->n[2] - 1) * g->spacing[2]};
    vsg_place_ligand lig = {32, X, Y, Z, Q, g->kind == VSG_SCORE_AD4 ? T : NULL};
    vsg_place_options o = {rot, 500, {{c[0], c[1], c[2]}, {1.0, 1.0, 1.0}, 0.25}, 0};
    vsg_place_result r;
    r.top = NULL;
    double t0 = vsg_now();
    CHECK_STATUS(vsg_place_cpu(g, &lig, &o, &r), VSG_OK);
    double dt = vsg_now() - t0;
    int threads = 1;
#ifdef _OPENMP
    threads = omp_get_max_threads();
#endif
    printf("rate: %s, 32 atoms, %d threads: %llu poses (%llu scored, %llu rejected) in %.3f s: %.3g poses/s scored, "
           "%.3g atom-lookups/s\n",
           label, threads, (unsigned long long)r.poses, (unsigned long long)r.scored, (unsigned long long)r.rejected, dt,
           r.scored / dt, 32.0 * r.scored / dt);
    free(rot);
}

static int test_1stp(void)
{
    const char *data = shared_data_dir(); /* ../shared/data or $VSG_SHARED_DATA */
    char dir[1100], fld[1200], ligpath[1200];
    if (!data) {
        VSG_SKIP_PART("1STP placement", VSG_NO_SHARED);
        return 0;
    }
    snprintf(dir, sizeof dir, "%s/autodock_gpu/1stp", data);
    snprintf(fld, sizeof fld, "%s/1stp_protein.maps.fld", dir);
    snprintf(ligpath, sizeof ligpath, "%s/1stp_ligand.pdbqt", dir);
    struct stat sb;
    if (stat(fld, &sb) != 0 || stat(ligpath, &sb) != 0) {
        VSG_SKIP_PART("1STP placement", "no autodock_gpu/1stp in ../shared/data; set VSG_SHARED_DATA");
        return 0;
    }
    vsg_mapset *ms = NULL;
    CHECK_STATUS(vsg_mapset_read(fld, &ms), VSG_OK);
    if (!ms) return 1;
    const vsg_score_grids *g = vsg_mapset_grids(ms);
    const char *paths[1] = {ligpath};
    vsg_ligand_reader *rd = NULL;
    vsg_ligand lig;
    vsg_ligand_init(&lig);
    CHECK_STATUS(vsg_ligand_reader_open(paths, 1, NULL, &rd), VSG_OK);
    int got = rd ? vsg_ligand_reader_next(rd, &lig) : 0;
    CHECK(got == 1 && lig.status == VSG_OK && lig.natoms > 5);
    if (got != 1 || lig.status != VSG_OK) return 1;
    size_t n = (size_t)lig.natoms;
    float *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y), *z = malloc(n * sizeof *z), *q = malloc(n * sizeof *q);
    uint8_t *t = malloc(n);
    double *ref = malloc(3 * n * sizeof *ref), cref[3] = {0, 0, 0};
    for (size_t i = 0; i < n; i++) {
        const vsg_lig_atom *a = &lig.atoms[i];
        ref[3 * i] = a->x;
        ref[3 * i + 1] = a->y;
        ref[3 * i + 2] = a->z;
        cref[0] += a->x / (double)n;
        cref[1] += a->y / (double)n;
        cref[2] += a->z / (double)n;
        q[i] = (float)a->charge;
        t[i] = vsg_mapset_type_index(ms, a->ad_type);
        CHECK(t[i] != VSG_SCORE_NO_TYPE);
    }
    /* crystal pose's own score, for the report */
    {
        uint32_t st[2] = {0, (uint32_t)n};
        float *cx = malloc(n * sizeof *cx), *cy = malloc(n * sizeof *cy), *cz = malloc(n * sizeof *cz);
        for (size_t i = 0; i < n; i++) {
            cx[i] = (float)ref[3 * i];
            cy[i] = (float)ref[3 * i + 1];
            cz[i] = (float)ref[3 * i + 2];
        }
        vsg_score_batch b = {1, n, st, cx, cy, cz, q, t};
        vsg_score_result res;
        CHECK_STATUS(vsg_score_cpu(g, &b, &res), VSG_OK);
        printf("1stp: crystal pose %.3f kcal/mol (%d atoms outside)\n", res.total, res.outside);
        free(cx);
        free(cy);
        free(cz);
    }
    /* random rigid motion, far from the site */
    vsg_quat rq = random_quat();
    double m[9], shift[3] = {uniform(20, 40), uniform(-40, -20), uniform(5, 30)};
    vsg_quat_to_matrix(&rq, m);
    for (size_t i = 0; i < n; i++) {
        double v[3] = {ref[3 * i] - cref[0], ref[3 * i + 1] - cref[1], ref[3 * i + 2] - cref[2]};
        x[i] = (float)(m[0] * v[0] + m[1] * v[1] + m[2] * v[2] + cref[0] + shift[0]);
        y[i] = (float)(m[3] * v[0] + m[4] * v[1] + m[5] * v[2] + cref[1] + shift[1]);
        z[i] = (float)(m[6] * v[0] + m[7] * v[1] + m[8] * v[2] + cref[2] + shift[2]);
    }
    const int nrot = 3000;
    vsg_quat *rot = malloc(sizeof *rot * nrot);
    CHECK_STATUS(vsg_rotations_super_fibonacci(nrot, rot), VSG_OK);
    /* the box: ±1.5 Å around a point up to 0.4 Å from the crystal centroid */
    vsg_place_options o = {rot, nrot,
                           {{cref[0] + uniform(-0.4, 0.4), cref[1] + uniform(-0.4, 0.4), cref[2] + uniform(-0.4, 0.4)},
                            {1.5, 1.5, 1.5},
                            0.5},
                           5};
    vsg_place_pose top[5], top2[5];
    vsg_place_result r, r2;
    r.top = top;
    vsg_place_ligand pl = {n, x, y, z, q, t};
    double t0 = vsg_now();
    CHECK_STATUS(vsg_place_cpu(g, &pl, &o, &r), VSG_OK);
    double dt = vsg_now() - t0;
    CHECK(r.found);
    double rmsd = r.found ? pose_rmsd(&r.best, x, y, z, ref, n) : 1e9;
    printf("1stp: %zu atoms, %d rotations x 343 sites = %llu poses, %llu scored, %llu rejected, %.2f s; best pose %llu "
           "(rotation %d, site %llu) %.3f kcal/mol, RMSD to the crystal %.2f A\n",
           n, nrot, (unsigned long long)r.poses, (unsigned long long)r.scored, (unsigned long long)r.rejected, dt,
           (unsigned long long)r.best.pose, r.best.rotation, (unsigned long long)r.best.site, r.best.score.total, rmsd);
    CHECK(r.poses == (uint64_t)nrot * 343);
    CHECK(rmsd <= 2.0);
    CHECK(r.best.score.outside == 0);
    CHECK(r.ntop == 5 && top[0].pose == r.best.pose);
    for (int i = 1; i < r.ntop; i++) CHECK(top[i - 1].score.total <= top[i].score.total);

    /* Same input → same best pose, with 1 thread and with 2; the top-k too (fewer rotations). */
    o.nrotations = 400;
    r.top = top;
    r2.top = top2;
    int old = set_threads(1);
    CHECK_STATUS(vsg_place_cpu(g, &pl, &o, &r), VSG_OK);
    set_threads(2);
    CHECK_STATUS(vsg_place_cpu(g, &pl, &o, &r2), VSG_OK);
    set_threads(old);
    CHECK(r.found && r2.found && r.best.pose == r2.best.pose && r.best.score.total == r2.best.score.total);
    CHECK(r.ntop == r2.ntop);
    for (int i = 0; i < r.ntop && i < r2.ntop; i++) CHECK(top[i].pose == top2[i].pose);
    CHECK(r.scored == r2.scored && r.rejected == r2.rejected);

    /* rates: AD4 on the map set, ELEC on its e map */
    measure_rate("AD4 (1stp maps)", g, x, y, z, q, t, n);
    vsg_score_grids e = *g;
    e.kind = VSG_SCORE_ELEC;
    e.nmaps = 1;
    e.maps[0] = g->maps[g->e_map];
    e.e_map = 0;
    e.d_map = -1;
    e.elec_factor = 1.0;
    measure_rate("ELEC (1stp e map)", &e, x, y, z, q, NULL, n);

    free(rot);
    free(x);
    free(y);
    free(z);
    free(q);
    free(t);
    free(ref);
    vsg_ligand_release(&lig);
    vsg_ligand_reader_close(rd);
    vsg_mapset_free(ms);
    return 0;
}

int main(void)
{
    rng = 0x5EED0005ull;
    printf("seed 0x%llx\n", (unsigned long long)rng);
    test_rotations();
    test_synthetic();
    test_1stp();
    if (check_failures) {
        printf("%d check(s) failed\n", check_failures);
        return 1;
    }
    printf("ok\n");
    return 0;
}
