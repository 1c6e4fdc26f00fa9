/* bench_screen.c — a synthetic virtual screen through every GPU scoring kernel (gpu/score/score_gpu.cu)
 * against the CPU twin (vsg_score_cpu, OpenMP), printed as one table.
 *
 * Setup: a 161³ grid at 0.375 Å (60 Å box). ELEC: one smooth Coulomb-like map; AD4: 8 type
 * maps + e + d (10 maps, 3 lookups per atom). 2^20 rigid poses (default) of one 32-atom ligand
 * (random rotation and translation), either in a 24 Å binding-site box at the grid's centre
 * ("pocket") or anywhere in the grid ("scattered").
 *
 * Per kernel and precision:
 *  - e2e atoms/s, poses/s: the whole vsg_screen_gpu_score call over the full batch (host wall
 *    time: host copy or ZIP pack into pinned memory, PCIe upload, ROI gather, decode,
 *    interpolation, per-ligand reduction, download), double-buffered over launches. PCIe bounds
 *    it: ~50 GB/s / 17 B (plain) or 10 B (ZIP) per atom = 3–5e9 atoms/s at best.
 *  - kernel atoms/s: the scoring kernel alone on atom data already on the device (the last
 *    launch run again, mean of repeats; decode + interpolate + reduce). This is the number to
 *    hold against the device ceilings: H100 streaming atom data ~1.9e11 atoms/s, hardware tex3D
 *    ~1.4e11 (clustered) / ~4.3e10 (scattered over 160³); goal ≥ 1e11 for pocket poses.
 *  - speed-up: CPU twin time per pose (timed on a subset, all cores) / GPU e2e time per pose.
 *  - errors against the CPU twin on that subset: absolute (kcal/mol) and relative
 *    |gpu − cpu| / max(|cpu|, 0.01 kcal/mol); ZIP rows include ZIP's quantisation, TM rows the
 *    1/256 hardware weights.
 *
 * Usage: bench_screen [--ligands N] [--cpu-ligands N] [--repeats N] [--device N]
 *                     [--cases pocket-elec,pocket-ad4,scattered-elec,scattered-ad4]
 * A failing kernel prints its error in its row and the run goes on. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "ligands/score/batch.h"
#include "grids/base/vsgrid.h"
#include "gpu/device/gpu.h"
#include "gpu/score/score_gpu.h"

#define GRID_N 161
#define GRID_H 0.375
#define POCKET_A 24.0
#define LIG_ATOMS 32
#define AD4_TYPES 8

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static uint64_t rng_state = 0x2545F4914F6CDD1Dull;
static double urand(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (double)((rng_state * 2685821657736338717ull) >> 11) * (1.0 / 9007199254740992.0);
}
static double uniform(double a, double b) { return a + (b - a) * urand(); }

/* ---- grids ------------------------------------------------------------------------------------ */

typedef struct {
    vsg_score_grids g;
    float *store;
} gridset;

/* A smooth field from softened point sources and Gaussians (deterministic from the seed). */
static void field(const vsg_score_grids *g, float *v, double amp, unsigned seed)
{
    enum { NS = 24 };
    double c[NS][3], a[NS], w[NS];
    uint64_t saved = rng_state;
    rng_state = 0x9E3779B97F4A7C15ull * (seed + 1);
    for (int k = 0; k < NS; k++) {
        for (int d = 0; d < 3; d++) c[k][d] = g->origin[d] + uniform(0.0, 1.0) * (g->n[d] - 1) * g->spacing[d];
        a[k] = uniform(-1, 1) * amp;
        w[k] = uniform(1.0, 6.0);
    }
    rng_state = saved;
    const int nx = g->n[0], ny = g->n[1], nz = g->n[2];
#pragma omp parallel for schedule(static)
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++) {
                const double p[3] = {g->origin[0] + i * g->spacing[0], g->origin[1] + j * g->spacing[1],
                                     g->origin[2] + k * g->spacing[2]};
                double f = 0;
                for (int s = 0; s < NS; s++) {
                    double r2 = 0;
                    for (int d = 0; d < 3; d++) r2 += (p[d] - c[s][d]) * (p[d] - c[s][d]);
                    f += (s & 1) ? a[s] * exp(-r2 / (w[s] * w[s])) : a[s] / sqrt(r2 + w[s]);
                }
                v[(size_t)i + (size_t)nx * ((size_t)j + (size_t)ny * k)] = (float)f;
            }
}

static int make_grids(gridset *gs, vsg_score_kind kind)
{
    memset(gs, 0, sizeof *gs);
    vsg_score_grids *g = &gs->g;
    g->kind = kind;
    for (int d = 0; d < 3; d++) {
        g->n[d] = GRID_N;
        g->origin[d] = -0.5 * (GRID_N - 1) * GRID_H + 1.234 * (d + 1);
        g->spacing[d] = GRID_H;
    }
    g->nmaps = kind == VSG_SCORE_ELEC ? 1 : AD4_TYPES + 2;
    const size_t N = (size_t)GRID_N * GRID_N * GRID_N;
    gs->store = malloc(N * g->nmaps * sizeof(float));
    if (!gs->store) return 0;
    for (int m = 0; m < g->nmaps; m++) {
        g->maps[m] = gs->store + (size_t)m * N;
        field(g, gs->store + (size_t)m * N, m == g->nmaps - 1 && kind == VSG_SCORE_AD4 ? 0.3 : 3.0, (unsigned)m);
    }
    if (kind == VSG_SCORE_ELEC) {
        g->e_map = 0;
        g->d_map = -1;
        g->elec_factor = 1.0;
    } else {
        g->e_map = AD4_TYPES;
        g->d_map = AD4_TYPES + 1;
        g->elec_factor = 1.0;
        float *d = gs->store + (size_t)g->d_map * N;
        for (size_t i = 0; i < N; i++) d[i] = fabsf(d[i]);
    }
    return 1;
}

/* ---- poses ---------------------------------------------------------------------------------- */

/* n rigid poses of one 32-atom ligand, centres uniform in centre ± half. */
static int make_poses(vsg_batch *b, size_t n, const vsg_score_grids *g, double half)
{
    float tx[LIG_ATOMS][3], tq[LIG_ATOMS];
    uint8_t tt[LIG_ATOMS];
    uint64_t saved = rng_state;
    rng_state = 12345;
    for (int i = 0; i < LIG_ATOMS; i++) {
        double r = 4.0 * cbrt(urand());
        double th = acos(uniform(-1, 1)), ph = uniform(0, 6.283185307179586);
        tx[i][0] = (float)(r * sin(th) * cos(ph));
        tx[i][1] = (float)(r * sin(th) * sin(ph));
        tx[i][2] = (float)(r * cos(th));
        tq[i] = (float)uniform(-0.6, 0.6);
        tt[i] = (uint8_t)(i % AD4_TYPES);
    }
    rng_state = saved;
    double centre[3];
    for (int d = 0; d < 3; d++) centre[d] = g->origin[d] + 0.5 * (g->n[d] - 1) * g->spacing[d];
    float x[LIG_ATOMS], y[LIG_ATOMS], z[LIG_ATOMS];
    for (size_t l = 0; l < n; l++) {
        /* a random unit quaternion → rotation matrix */
        double q0 = uniform(-1, 1), q1 = uniform(-1, 1), q2 = uniform(-1, 1), q3 = uniform(-1, 1);
        double qn = sqrt(q0 * q0 + q1 * q1 + q2 * q2 + q3 * q3);
        if (qn < 1e-9) qn = 1, q0 = 1, q1 = q2 = q3 = 0;
        q0 /= qn, q1 /= qn, q2 /= qn, q3 /= qn;
        const double R[3][3] = {{1 - 2 * (q2 * q2 + q3 * q3), 2 * (q1 * q2 - q0 * q3), 2 * (q1 * q3 + q0 * q2)},
                                {2 * (q1 * q2 + q0 * q3), 1 - 2 * (q1 * q1 + q3 * q3), 2 * (q2 * q3 - q0 * q1)},
                                {2 * (q1 * q3 - q0 * q2), 2 * (q2 * q3 + q0 * q1), 1 - 2 * (q1 * q1 + q2 * q2)}};
        double t[3];
        for (int d = 0; d < 3; d++) t[d] = centre[d] + uniform(-half, half);
        for (int i = 0; i < LIG_ATOMS; i++) {
            double p[3];
            for (int d = 0; d < 3; d++) p[d] = t[d] + R[d][0] * tx[i][0] + R[d][1] * tx[i][1] + R[d][2] * tx[i][2];
            x[i] = (float)p[0];
            y[i] = (float)p[1];
            z[i] = (float)p[2];
        }
        if (vsg_batch_append(b, LIG_ATOMS, x, y, z, tq, tt) != VSG_OK) return 0;
    }
    return 1;
}

/* ---- statistics -------------------------------------------------------------------------------- */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void err_stats(const vsg_score_result *gpu, const vsg_score_result *cpu, size_t n, double *scratch,
                      double out[4])
{
    for (size_t i = 0; i < n; i++) scratch[i] = fabs(gpu[i].total - cpu[i].total);
    qsort(scratch, n, sizeof *scratch, cmp_double);
    out[0] = n ? scratch[n - 1] : 0;
    out[1] = n ? scratch[n / 2] : 0;
    for (size_t i = 0; i < n; i++) scratch[i] = fabs(gpu[i].total - cpu[i].total) / fmax(fabs(cpu[i].total), 0.01);
    qsort(scratch, n, sizeof *scratch, cmp_double);
    out[2] = n ? scratch[n - 1] : 0;
    out[3] = n ? scratch[n / 2] : 0;
}

/* ---- one case ----------------------------------------------------------------------------------- */

static const vsg_kernel KERNELS[] = {VSG_KERNEL_GM,  VSG_KERNEL_ROI,        VSG_KERNEL_SM,        VSG_KERNEL_TM,
                                     VSG_KERNEL_ZIP, VSG_KERNEL_ROI_TM_ZIP, VSG_KERNEL_ROI_SM_ZIP};

static void run_case(const char *name, vsg_score_kind kind, int scattered, size_t nlig, size_t ncpu, int repeats,
                     int device)
{
    printf("\n== %s: %zu poses x %d atoms, %s, %dx%dx%d grid at %.3f A, %s ==\n", name, nlig, LIG_ATOMS,
           kind == VSG_SCORE_ELEC ? "ELEC (1 lookup/atom)" : "AD4 (3 lookups/atom, 10 maps)", GRID_N, GRID_N, GRID_N,
           GRID_H, scattered ? "poses anywhere in the grid" : "poses in a 24 A box at the centre");
    gridset gs;
    vsg_batch b;
    memset(&b, 0, sizeof b);
    double t0 = now_s();
    if (!make_grids(&gs, kind)) {
        printf("  out of memory for the grids\n");
        return;
    }
    const double half = scattered ? 0.5 * (GRID_N - 1) * GRID_H - 5.0 : 0.5 * POCKET_A - 4.0;
    if (vsg_batch_init(&b, nlig, nlig * LIG_ATOMS) != VSG_OK || !make_poses(&b, nlig, &gs.g, half)) {
        printf("  cannot build the batch: %s\n", vsg_last_error());
        vsg_batch_free(&b);
        free(gs.store);
        return;
    }
    vsg_score_batch batch = vsg_batch_view(&b);
    printf("  setup %.1f s (grids %.0f MB)\n", now_s() - t0,
           (double)GRID_N * GRID_N * GRID_N * gs.g.nmaps * 4 / 1048576.0);

    /* CPU twin on the first ncpu poses */
    if (ncpu > nlig) ncpu = nlig;
    vsg_score_batch sub = batch;
    sub.nlig = ncpu;
    sub.natoms = b.start[ncpu];
    vsg_score_result *cpu = calloc(ncpu + 1, sizeof *cpu), *gpu = calloc(nlig + 1, sizeof *gpu);
    double *scratch = malloc((ncpu + 1) * sizeof(double));
    if (!cpu || !gpu || !scratch) {
        printf("  out of memory\n");
        goto done;
    }
    int threads = 1;
#ifdef _OPENMP
    threads = omp_get_max_threads();
#endif
    vsg_score_cpu(&gs.g, &sub, cpu); /* warm-up */
    t0 = now_s();
    if (vsg_score_cpu(&gs.g, &sub, cpu) != VSG_OK) {
        printf("  CPU twin failed: %s\n", vsg_last_error());
        goto done;
    }
    const double cpu_per_pose = (now_s() - t0) / (double)(ncpu ? ncpu : 1);
    printf("  CPU twin (double, %d threads): %.3g poses/s, %.3g atoms/s (on %zu poses)\n", threads, 1.0 / cpu_per_pose,
           LIG_ATOMS / cpu_per_pose, ncpu);

    vsg_screen_gpu *s = NULL;
    if (vsg_screen_gpu_open(&gs.g, device, 0, &s) != VSG_OK) {
        printf("  GPU open failed: %s\n", vsg_last_error());
        goto done;
    }
    printf("  launch capacity %zu atoms; grids resident: %s\n", vsg_screen_gpu_batch_atoms(s),
           vsg_screen_gpu_grids_resident(s) ? "yes" : "no");
    printf("  %-11s %-6s %10s %10s %10s %8s %7s %9s %8s %8s %9s %9s %9s %9s %6s\n", "kernel", "prec", "e2e at/s",
           "poses/s", "kernel/s", "H2D GB/s", "B/atom", "speedup", "pack s", "wall s", "max abs", "med abs", "max rel",
           "med rel", "SM%");
    for (size_t ki = 0; ki < sizeof KERNELS / sizeof KERNELS[0]; ki++)
        for (int dp = 0; dp < 2; dp++) {
            const vsg_kernel k = KERNELS[ki];
            if (!vsg_screen_gpu_supports(k, dp)) continue;
            char row[32];
            snprintf(row, sizeof row, "  %-11s %-6s", vsg_kernel_name(k), dp ? "double" : "float");
            /* warm-up on a few poses (lazy texture and ROI buffers, module load) */
            vsg_score_batch warm = batch;
            warm.nlig = nlig < 1000 ? nlig : 1000;
            warm.natoms = b.start[warm.nlig];
            vsg_screen_timing t;
            if (vsg_screen_gpu_score(s, &warm, k, dp, gpu, &t) != VSG_OK) {
                printf("%s failed: %s\n", row, vsg_last_error());
                continue;
            }
            if (vsg_screen_gpu_score_box(s, &batch, b.lo, b.hi, k, dp, gpu, &t) != VSG_OK) {
                printf("%s failed: %s\n", row, vsg_last_error());
                continue;
            }
            double ksec = 0;
            size_t katoms = 0;
            double krate = 0;
            if (vsg_screen_gpu_rerun_last(s, repeats, &ksec, &katoms) == VSG_OK && ksec > 0) krate = katoms / ksec;
            double e[4];
            err_stats(gpu, cpu, ncpu, scratch, e);
            const double atoms = (double)batch.natoms;
            const double up_s = t.upload_s > 0 ? t.upload_s : 1e-30;
            char sm[16] = "-";
            if (t.sm_blocks > 0) snprintf(sm, sizeof sm, "%.0f", 100.0 * t.sm_staged / t.sm_blocks);
            printf("%s %10.3g %10.3g %10.3g %8.1f %7.1f %9.1f %8.3f %8.3f %9.2e %9.2e %9.2e %9.2e %6s\n", row,
                   atoms / t.wall_s, nlig / t.wall_s, krate, t.bytes_up / up_s / 1e9, t.bytes_up / atoms,
                   cpu_per_pose * nlig / t.wall_s, t.pack_s, t.wall_s, e[0], e[1], e[2], e[3], sm);
        }
    vsg_screen_gpu_close(s);
done:
    free(cpu);
    free(gpu);
    free(scratch);
    vsg_batch_free(&b);
    free(gs.store);
}

int main(int argc, char **argv)
{
    size_t nlig = (size_t)1 << 20, ncpu = 20000;
    int repeats = 5, device = 0;
    const char *cases = "pocket-elec,pocket-ad4,scattered-elec,scattered-ad4";
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--ligands") && i + 1 < argc)
            nlig = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--cpu-ligands") && i + 1 < argc)
            ncpu = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--repeats") && i + 1 < argc)
            repeats = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--device") && i + 1 < argc)
            device = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--cases") && i + 1 < argc)
            cases = argv[++i];
        else {
            fprintf(stderr, "usage: %s [--ligands N] [--cpu-ligands N] [--repeats N] [--device N] [--cases LIST]\n",
                    argv[0]);
            return 2;
        }
    }
    if (nlig < 1) nlig = 1;
    if (repeats < 1) repeats = 1;
    char gname[256] = "none";
    const int ngpu = vsg_gpu_count();
    if (ngpu > 0) vsg_gpu_describe(device, gname, sizeof gname, NULL, NULL);
    printf("bench_screen: GPU %d of %d: %s\n", device, ngpu, gname);
    printf("columns: e2e = whole score call (host pack + PCIe + ROI + kernel + download), atoms/s and poses/s;\n"
           "         kernel/s = scoring kernel alone on device-resident atoms (atoms/s, mean of %d runs);\n"
           "         H2D GB/s over the upload events; B/atom uploaded; speedup = CPU twin / GPU e2e per pose;\n"
           "         errors vs the CPU twin (kcal/mol; rel = |diff| / max(|cpu|, 0.01)) on the first %zu poses;\n"
           "         SM%% = blocks whose nodes fit shared memory (the rest read global memory).\n"
           "ceilings (H100): atom streaming ~1.9e11 atoms/s; tex3D ~1.4e11 clustered, ~4.3e10 scattered; "
           "goal >= 1e11 kernel atoms/s on pocket poses\n",
           repeats, ncpu);
    if (ngpu == 0) printf("no GPU: every kernel row will report the error\n");
    struct {
        const char *name;
        vsg_score_kind kind;
        int scattered;
    } all[] = {{"pocket-elec", VSG_SCORE_ELEC, 0},
               {"pocket-ad4", VSG_SCORE_AD4, 0},
               {"scattered-elec", VSG_SCORE_ELEC, 1},
               {"scattered-ad4", VSG_SCORE_AD4, 1}};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        if (strstr(cases, all[i].name)) run_case(all[i].name, all[i].kind, all[i].scattered, nlig, ncpu, repeats, device);
    return 0;
}
