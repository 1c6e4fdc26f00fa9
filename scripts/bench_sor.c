/* bench_sor.c — speed of the GPU PB solver (gpu/pb/sor_gpu.cu) on synthetic systems, no molecule
 * needed. Usage: bench_sor [-i iterations] [N ...]   (default: 200 iterations, N = 161 297 513)
 *
 * Each system is an N³ box (N made odd), h = 0.5 Å: a rough "protein" ball (ε 2, no salt,
 * ~30% of the volume) in salt water (ε 78.54, κ 0.127/Å, ~70% of the nodes), midpoint
 * dielectrics the mean of the two nodes', boundary nodes listed, plus charged nodes inside
 * the ball until ~2% of all nodes are listed. The solver runs a fixed number of iterations
 * (tol < 0, so it never stops early; max |Δφ| still checked every 10 as in a real solve), in
 * float and double; the median of 3 timed solves is reported after a warm-up solve.
 *
 * Byte model (the minimum each iteration must move through device memory without fusing
 * iterations): each colour's φ is read and written by its own sweep and read once more, as
 * the neighbours, by the other colour's sweep; with the flag byte that is
 * (3·sizeof(real) + 1) bytes per node and iteration, plus each correction entry read once
 * (8-byte index + w[6], s, k in the solve's precision) that is still in the list after the
 * listed-node patterns left it (gpu/pb/sor_patterns.cuh; they are updated by the stencil from a
 * small table, so they add no bytes to the model). Re-reads of a neighbour that the
 * caches absorb are not counted, so "GB/s" is effective bandwidth, comparable with the
 * device-to-device copy measured in the same run (bytes read + written) and with the issue's
 * reference sweep (a plain red-black sweep at 83–91% of copy bandwidth counts the same
 * 3·sizeof(real)). (Until commit b74f899 this counted 2·sizeof(real) + 1, which omitted the
 * neighbour read and understated the fraction of copy bandwidth by ~30% in float.)
 * At 161³ the float system (~21 MB) fits in Hopper's L2 (50-60 MB), so there it can beat the
 * copy figure.
 *
 * The CPU twin is timed at 161³ for a few iterations; the speed-up column compares time per
 * node update in the same precision. Exit 0 (also without a GPU: it says so); 1 if a GPU solve
 * failed other than for lack of device memory. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grids/base/vsgrid.h"
#include "gpu/device/gpu.h"
#include "gpu/pb/pb_gpu.h"
#include "grids/pb/pb_system.h"
#ifdef VSG_HAVE_CUDA
#include "gpu/pb/pb_gpu_bench.h"
#endif
#include "../tests/testkit.h"

#define EPS_IN 2.0
#define EPS_OUT 78.54
#define KAPPA 0.127           /* 1/Å */
#define LAMBDA_B 7.13         /* Bjerrum length at 298 K, Å */
#define LIST_FRACTION 0.02
#define CHECK_EVERY 10
#define REPEATS 3
#define CPU_N 161
#define CPU_ITER 10
#define PI 3.14159265358979323846


/* Rough ball: radius modulated by a few percent so the surface is not a perfect sphere. */
static int in_protein(int n, int x, int y, int z)
{
    const double c = 0.5 * (n - 1), r0 = 0.415 * (n - 1); /* (4/3)π r0³ ≈ 0.30 n³ */
    double dx = x - c, dy = y - c, dz = z - c;
    double r = sqrt(dx * dx + dy * dy + dz * dz);
    double rough = 1.0 + 0.06 * sin(0.37 * x) * sin(0.29 * y) * sin(0.31 * z);
    return r < r0 * rough;
}

static int append(vsg_pb_system *s, int c, size_t *cap, const vsg_pb_corr *q)
{
    if (s->ncorr[c] == cap[c]) {
        size_t nc = cap[c] ? 2 * cap[c] : 4096;
        vsg_pb_corr *p = realloc(s->corr[c], nc * sizeof *p);
        if (!p) return 0;
        s->corr[c] = p;
        cap[c] = nc;
    }
    s->corr[c][s->ncorr[c]++] = *q;
    return 1;
}

static vsg_status build(vsg_pb_system *s, int n, vsg_precision prec)
{
    const double h = 0.5, origin[3] = {0, 0, 0};
    vsg_status st = vsg_pb_system_alloc(s, n, n, n, h, origin, prec);
    if (st != VSG_OK) return st;
    rng = 0x9E3779B97F4A7C15ull ^ (uint64_t)n; /* the same system in both precisions */
    s->kh2 = KAPPA * KAPPA * h * h;

    /* The ball as a byte map, computed once (sin/sqrt per node is the slow part at 513³). */
    uint8_t *in = malloc(s->nodes);
    if (!in) {
        vsg_pb_system_free(s);
        return vsg_fail(VSG_E_NOMEM, "no memory for the %d³ geometry", n);
    }
#ifdef _OPENMP
#pragma omp parallel for schedule(static)
#endif
    for (int z = 0; z < n; z++)
        for (int y = 0; y < n; y++)
            for (int x = 0; x < n; x++) in[vsg_pb_linear(s, x, y, z)] = (uint8_t)in_protein(n, x, y, z);
    const size_t step[3] = {1, (size_t)n, (size_t)n * (size_t)n};

    /* Pass 1: salt flags, boundary values, random interior start; count boundary nodes. */
    size_t boundary = 0, protein = 0;
    for (int z = 0; z < n; z++)
        for (int y = 0; y < n; y++)
            for (int x = 0; x < n; x++) {
                size_t L = vsg_pb_linear(s, x, y, z);
                s->flag[L & 1][L >> 1] = in[L] ? 0 : VSG_NODE_SALT;
                int face = !x || !y || !z || x == n - 1 || y == n - 1 || z == n - 1;
                if (face) {
                    /* Screened Coulomb of a net charge of 5 e at the centre. */
                    double dx = x - 0.5 * (n - 1), dy = y - 0.5 * (n - 1), dz = z - 0.5 * (n - 1);
                    double d = h * sqrt(dx * dx + dy * dy + dz * dz);
                    vsg_pb_set(s, L, LAMBDA_B * 5.0 / (EPS_OUT * d) * exp(-KAPPA * d));
                    continue;
                }
                vsg_pb_set(s, L, 0.2 * (urand() - 0.5));
                protein += in[L];
                for (int a = 0; a < 3; a++)
                    if (in[L - step[a]] != in[L] || in[L + step[a]] != in[L]) {
                        boundary++;
                        break;
                    }
            }
    /* Charged nodes inside the ball make up the rest of the 2%. */
    double target = LIST_FRACTION * (double)s->nodes - (double)boundary;
    double p_charge = protein && target > 0 ? target / (double)protein : 0.0;

    /* Pass 2: the correction list, in linear order (so each colour's list is sorted). */
    size_t cap[2] = {0, 0};
    for (int z = 1; z < n - 1; z++)
        for (int y = 1; y < n - 1; y++)
            for (int x = 1; x < n - 1; x++) {
                size_t L = vsg_pb_linear(s, x, y, z);
                int c = (int)(L & 1);
                double e0 = in[L] ? EPS_IN : EPS_OUT, em[6], sum = 0.0;
                int jump = 0;
                for (int a = 0; a < 3; a++)
                    for (int sg = 0; sg < 2; sg++) {
                        size_t M = sg ? L + step[a] : L - step[a];
                        double e1 = in[M] ? EPS_IN : EPS_OUT;
                        em[2 * a + sg] = 0.5 * (e0 + e1);
                        sum += em[2 * a + sg];
                        jump |= e1 != e0;
                    }
                double q = in[L] && urand() < p_charge ? urand() - 0.5 : 0.0;
                if (!jump && q == 0.0) continue;
                double kterm = in[L] ? 0.0 : EPS_OUT * s->kh2, D = sum + kterm;
                vsg_pb_corr e;
                e.index = L >> 1;
                for (int i = 0; i < 6; i++) e.w[i] = em[i] / D;
                e.s = 4.0 * PI * LAMBDA_B * q / (h * D);
                e.k = kterm / D;
                if (!append(s, c, cap, &e)) {
                    free(in);
                    vsg_pb_system_free(s);
                    return vsg_fail(VSG_E_NOMEM, "no memory for the correction list");
                }
                s->flag[c][L >> 1] |= VSG_NODE_LISTED;
            }
    free(in);
    return VSG_OK;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double interior(const vsg_pb_system *s)
{
    return (double)(s->nx - 2) * (double)(s->ny - 2) * (double)(s->nz - 2);
}

static int all_finite(const vsg_pb_system *s)
{
    for (size_t L = 0; L < s->nodes; L++)
        if (!isfinite(vsg_pb_get(s, L))) return 0;
    return 1;
}

typedef struct {
    int n;
    const char *prec;
    double ms_it, gnodes, gbs, bytes_node, list_frac, speedup;
    char note[96];
} row;

int main(int argc, char **argv)
{
    int iters = 200, sizes[16], nsizes = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-i") && i + 1 < argc) {
            iters = atoi(argv[++i]);
        } else if (nsizes < 16 && atoi(argv[i]) >= 5) {
            sizes[nsizes++] = atoi(argv[i]) | 1; /* nx, ny must be odd */
        } else {
            fprintf(stderr, "usage: %s [-i iterations] [N ...]   (N ≥ 5, made odd)\n", argv[0]);
            return 2;
        }
    }
    if (iters < 1) iters = 1;
    if (nsizes == 0) {
        sizes[0] = 161;
        sizes[1] = 297;
        sizes[2] = 513;
        nsizes = 3;
    }
    int ngpu = vsg_gpu_count();
    if (ngpu == 0) {
        printf("bench_sor: no GPU (or a build without CUDA): nothing to measure\n");
        return 0;
    }
    char name[256];
    double fr = 0, tot = 0;
    if (vsg_gpu_describe(0, name, sizeof name, &fr, &tot) != VSG_OK) {
        printf("bench_sor: %s\n", vsg_last_error());
        return 1;
    }
    printf("GPU 0: %s, %.0f MiB free of %.0f MiB\n", name, fr / 1048576.0, tot / 1048576.0);
    double copy_gbs = 0.0;
#ifdef VSG_HAVE_CUDA
    copy_gbs = vsg_gpu_copy_bandwidth(0);
    printf("uniform kernel: %s planes per thread (VSG_SOR_ZB; default set in gpu/pb/sor_gpu.cu); "
           "sweeps fused: %s (VSG_SOR_FUSE)\n",
           getenv("VSG_SOR_ZB") ? getenv("VSG_SOR_ZB") : "default", getenv("VSG_SOR_FUSE") ? getenv("VSG_SOR_FUSE") : "1");
    printf("device-to-device cudaMemcpy: %.0f GB/s (bytes read + written)\n", copy_gbs);
#endif
    fflush(stdout);

    /* The CPU twin at 161³: seconds per node update, per precision. */
    double cpu_ns[2] = {0, 0};
    char cpu_dev[64] = "cpu";
    for (int p = 0; p < 2; p++) {
        vsg_pb_system s;
        vsg_precision prec = p ? VSG_PRECISION_FLOAT : VSG_PRECISION_DOUBLE;
        if (build(&s, CPU_N, prec) != VSG_OK) continue;
        vsg_sor_settings set = {0};
        set.omega = vsg_sor_omega(s.nx, s.ny, s.nz);
        set.tol = -1.0;
        set.check_every = CHECK_EVERY;
        set.max_iter = 2; /* warm-up: thread pool, page faults */
        vsg_sor_result r;
        vsg_sor_cpu(&s, &set, &r);
        set.max_iter = CPU_ITER;
        if (vsg_sor_cpu(&s, &set, &r) == VSG_OK && r.iterations > 0) {
            cpu_ns[p] = 1e9 * r.seconds / ((double)r.iterations * interior(&s));
            snprintf(cpu_dev, sizeof cpu_dev, "%s", r.device);
            printf("CPU twin %d³ %s: %.2f ms/iteration (%s)\n", CPU_N, p ? "float" : "double",
                   1e3 * r.seconds / r.iterations, r.device);
        }
        vsg_pb_system_free(&s);
    }
    fflush(stdout);

    row rows[32];
    int nrows = 0, failed = 0;
    for (int i = 0; i < nsizes; i++) {
        for (int p = 0; p < 2 && nrows < 32; p++) {
            row *w = &rows[nrows++];
            memset(w, 0, sizeof *w);
            w->n = sizes[i];
            w->prec = p ? "float" : "double";
            vsg_precision prec = p ? VSG_PRECISION_FLOAT : VSG_PRECISION_DOUBLE;
            vsg_pb_system s;
            if (build(&s, sizes[i], prec) != VSG_OK) {
                snprintf(w->note, sizeof w->note, "build: %s", vsg_last_error());
                continue;
            }
            size_t listed = s.ncorr[0] + s.ncorr[1];
            w->list_frac = (double)listed / (double)s.nodes;
            vsg_sor_settings set = {0};
            set.omega = vsg_sor_omega(s.nx, s.ny, s.nz);
            set.tol = -1.0; /* never converged: every run does max_iter iterations */
            set.check_every = CHECK_EVERY;
            set.gpu_index = 0;
            vsg_sor_result r;
            set.max_iter = 2 * CHECK_EVERY; /* warm-up: module load, both kernel variants */
            vsg_status st = vsg_sor_gpu(&s, &set, &r);
            double t[REPEATS];
            set.max_iter = iters;
            for (int k = 0; k < REPEATS && st == VSG_OK; k++) {
                st = vsg_sor_gpu(&s, &set, &r);
                t[k] = r.seconds;
            }
            if (st != VSG_OK) {
                snprintf(w->note, sizeof w->note, "%s: %.80s", vsg_status_name(st), vsg_last_error());
                if (st != VSG_E_LIMIT) failed = 1;
                vsg_pb_system_free(&s);
                continue;
            }
            if (!all_finite(&s)) {
                snprintf(w->note, sizeof w->note, "non-finite potential");
                failed = 1;
            }
            qsort(t, REPEATS, sizeof t[0], cmp_double);
            double sec = t[REPEATS / 2], real = p ? 4.0 : 8.0;
            /* list entries still read: those the patterns did not take (gpu/pb/sor_patterns.cuh) */
            double bytes_it = (double)s.nodes * (3.0 * real + 1.0) + ((double)listed - (double)r.pattern_nodes) * (8.0 + 8.0 * real);
            w->ms_it = 1e3 * sec / iters;
            w->gnodes = interior(&s) * iters / sec / 1e9;
            w->gbs = bytes_it * iters / sec / 1e9;
            w->bytes_node = r.device_bytes / (double)s.nodes;
            if (cpu_ns[p] > 0.0) w->speedup = cpu_ns[p] / (1e9 * sec / (iters * interior(&s)));
            printf("%d³ %s: %.3f ms/iteration, %.1f GB/s effective, final change %.3g; %zu of %zu listed nodes "
                   "updated as patterns\n",
                   w->n, w->prec, w->ms_it, w->gbs, r.final_change, r.pattern_nodes, (size_t)listed);
            fflush(stdout);
            vsg_pb_system_free(&s);
        }
    }

    printf("\nGPU PB SOR, %d iterations (median of %d), %s; CPU twin: %s at %d³\n", iters, REPEATS,
           name, cpu_dev, CPU_N);
    printf("%5s %-6s %8s %10s %9s %8s %7s %9s %7s  %s\n", "N", "prec", "listed", "ms/iter",
           "Gnode/s", "GB/s", "%copy", "B/node", "xCPU", "note");
    for (int i = 0; i < nrows; i++) {
        const row *w = &rows[i];
        if (w->ms_it == 0.0) {
            printf("%5d %-6s %8s %10s %9s %8s %7s %9s %7s  %s\n", w->n, w->prec, "-", "-", "-", "-",
                   "-", "-", "-", w->note);
            continue;
        }
        printf("%5d %-6s %7.2f%% %10.3f %9.2f %8.0f %6.0f%% %9.2f %7.1f  %s\n", w->n, w->prec,
               100.0 * w->list_frac, w->ms_it, w->gnodes, w->gbs,
               copy_gbs > 0 ? 100.0 * w->gbs / copy_gbs : 0.0, w->bytes_node, w->speedup, w->note);
    }
    printf("copy bandwidth %.0f GB/s; byte model (3·sizeof(real) + 1) B/node + list entries\n",
           copy_gbs);
    return failed;
}
