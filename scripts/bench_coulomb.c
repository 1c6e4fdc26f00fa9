/* bench_coulomb.c — speed of the GPU Coulomb grid (gpu/coulomb/coulomb_gpu.cu) against its CPU twin.
 * Usage: bench_coulomb [-r repeats] [-a atoms] [-n N]   (defaults: 5, 100000, 128)
 *
 * Cases: `atoms` random charges (uniform in [−1, 1], positions uniform in the grid's box) on an
 * N³ grid at 0.375 Å, and the 1STP receptor (data/1stp_receptor.pdbqt) on a 161³ grid at 0.375 Å
 * centred on it; each with the constant dielectric (the headline: the goal is ≥ 3e12
 * atom-evaluations/s for 100k atoms on 128³ on an H100), ε = 4r, Mehler–Solmajer analytic,
 * AutoGrid's table (Mehler–Solmajer) and the constant dielectric with a 12 Å cutoff.
 *
 * GPU rows: one warm-up call, then the median of `repeats` calls; ms is the kernel time
 * (device events, what vsg_coulomb_gpu reports: atom-evaluations/s = charged atoms × nodes /
 * kernel seconds), without the transfers. With a cutoff the count is still atoms × nodes, so
 * the rate is the effective one. The CPU twin runs on the first CPU_PLANES planes of the same
 * grid (the same nodes, so the GPU result is checked there too: "max diff" is max |gpu − cpu|
 * over max |cpu| on those planes), and "xCPU" is the ratio of the two rates.
 * Exit 0 (also without a GPU: it says so); 1 if a GPU call failed other than for lack of memory. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "grids/formats/grid.h"
#include "grids/receptor/molecule.h"
#include "grids/base/vsgrid.h"
#include "gpu/device/gpu.h"
#include "../tests/testkit.h"

#ifndef VSG_SOURCE_DIR /* the data files; CMake passes the source tree */
#define VSG_SOURCE_DIR "."
#endif

#define SPACING 0.375
#define RECEPTOR_N 161
#define CPU_PLANES 2
#define CUTOFF 12.0
#define MAX_REPEATS 51


typedef struct {
    const char *name;
    vsg_dielectric_model model;
    double eps;
    int autogrid;
    double cutoff;
} kernel_case;

static const kernel_case KERNELS[] = {
    {"constant", VSG_DIEL_CONSTANT, 4.0, 0, 0.0},
    {"4r", VSG_DIEL_DISTANCE_4R, 0.0, 0, 0.0},
    {"Mehler-Solmajer", VSG_DIEL_MEHLER_SOLMAJER, 0.0, 0, 0.0},
    {"AutoGrid table", VSG_DIEL_MEHLER_SOLMAJER, 0.0, 1, 0.0},
    {"constant, 12 A cut", VSG_DIEL_CONSTANT, 4.0, 0, CUTOFF},
};
#define NKERNELS (int)(sizeof KERNELS / sizeof KERNELS[0])

typedef struct {
    char what[24], model[24], note[96];
    size_t atoms, points;
    double ms, rate, cpu_rate, maxdiff;
} row;

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static size_t charged(const vsg_molecule *m)
{
    size_t n = 0;
    for (size_t i = 0; i < m->n; i++) n += m->atoms[i].charge != 0.0;
    return n;
}

/* All kernels on one molecule and grid; appends rows. Returns 1 if a GPU call failed. */
static int bench_case(const char *what, const vsg_molecule *m, int n, const double origin[3], int repeats,
                      row *rows, int *nrows)
{
    const int dims[3] = {n, n, n}, sub[3] = {n, n, n < CPU_PLANES ? n : CPU_PLANES};
    const double spacing[3] = {SPACING, SPACING, SPACING};
    vsg_grid *g = vsg_grid_new(dims, origin, spacing, "kcal/mol/e");
    vsg_grid *c = vsg_grid_new(sub, origin, spacing, "kcal/mol/e");
    int failed = 0;
    if (!g || !c) {
        printf("%s: %s\n", what, vsg_last_error());
        vsg_grid_free(g);
        vsg_grid_free(c);
        return 1;
    }
    const size_t points = vsg_grid_nodes(g), sub_points = vsg_grid_nodes(c), atoms = charged(m);
    for (int i = 0; i < NKERNELS; i++) {
        const kernel_case *kc = &KERNELS[i];
        row *w = &rows[(*nrows)++];
        memset(w, 0, sizeof *w);
        snprintf(w->what, sizeof w->what, "%s", what);
        snprintf(w->model, sizeof w->model, "%s", kc->name);
        w->atoms = atoms;
        w->points = points;
        vsg_coulomb_kernel k;
        vsg_status st = vsg_coulomb_kernel_make(kc->model, kc->eps, kc->autogrid, &k);
        if (st != VSG_OK) {
            snprintf(w->note, sizeof w->note, "kernel: %.80s", vsg_last_error());
            failed = 1;
            continue;
        }
        k.cutoff = kc->cutoff;

        /* Poison, so an unwritten node shows up as NaN in the check below. */
        for (size_t p = 0; p < points; p++) g->data[p] = NAN;
        double rate = 0.0, t[MAX_REPEATS];
        st = vsg_coulomb_gpu(m, &k, g, 0, &rate); /* warm-up */
        for (int r = 0; r < repeats && st == VSG_OK; r++) {
            st = vsg_coulomb_gpu(m, &k, g, 0, &rate);
            t[r] = rate > 0.0 ? (double)atoms * (double)points / rate : 0.0;
        }
        if (st != VSG_OK) {
            snprintf(w->note, sizeof w->note, "%s: %.80s", vsg_status_name(st), vsg_last_error());
            if (st != VSG_E_LIMIT) failed = 1;
            vsg_coulomb_kernel_free(&k);
            continue;
        }
        qsort(t, (size_t)repeats, sizeof t[0], cmp_double);
        const double sec = t[repeats / 2];
        w->ms = 1e3 * sec;
        w->rate = sec > 0.0 ? (double)atoms * (double)points / sec : 0.0;

        /* CPU twin on the first planes: its rate, and the GPU's result checked there. */
        const double t0 = vsg_now();
        st = vsg_coulomb_cpu(m, &k, c);
        const double cs = vsg_now() - t0;
        if (st == VSG_OK) {
            w->cpu_rate = cs > 0.0 ? (double)atoms * (double)sub_points / cs : 0.0;
            double maxc = 0.0, maxd = 0.0;
            for (size_t p = 0; p < sub_points; p++) {
                double a = fabs((double)c->data[p]), d = fabs((double)g->data[p] - (double)c->data[p]);
                if (a > maxc) maxc = a;
                if (!(d <= maxd)) maxd = d;
            }
            w->maxdiff = maxc > 0.0 ? maxd / maxc : maxd;
            if (!(w->maxdiff <= 1e-5)) {
                snprintf(w->note, sizeof w->note, "GPU differs from the CPU twin");
                failed = 1;
            }
        } else {
            snprintf(w->note, sizeof w->note, "CPU: %.80s", vsg_last_error());
        }
        for (size_t p = 0; p < points; p++)
            if (!isfinite(g->data[p])) {
                snprintf(w->note, sizeof w->note, "node %zu not written / not finite", p);
                failed = 1;
                break;
            }
        printf("%s, %s: %.2f ms, %.3g evals/s (CPU twin %.3g evals/s)\n", what, kc->name, w->ms, w->rate,
               w->cpu_rate);
        fflush(stdout);
        vsg_coulomb_kernel_free(&k);
    }
    vsg_grid_free(g);
    vsg_grid_free(c);
    return failed;
}

int main(int argc, char **argv)
{
    int repeats = 5, n = 128;
    long natoms = 100000;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-r") && i + 1 < argc) repeats = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-a") && i + 1 < argc) natoms = atol(argv[++i]);
        else if (!strcmp(argv[i], "-n") && i + 1 < argc) n = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: %s [-r repeats] [-a atoms] [-n N]\n", argv[0]);
            return 2;
        }
    }
    if (repeats < 1) repeats = 1;
    if (repeats > MAX_REPEATS) repeats = MAX_REPEATS;
    if (natoms < 1 || natoms > 100000000 || n < 2) {
        fprintf(stderr, "%s: need 1 to 1e8 atoms and N >= 2\n", argv[0]);
        return 2;
    }
    if (vsg_gpu_count() == 0) {
        printf("bench_coulomb: no GPU (or a build without CUDA): nothing to measure\n");
        return 0;
    }
    char name[256];
    double fr = 0, tot = 0;
    if (vsg_gpu_describe(0, name, sizeof name, &fr, &tot) != VSG_OK) {
        printf("bench_coulomb: %s\n", vsg_last_error());
        return 1;
    }
    printf("GPU 0: %s, %.0f MiB free of %.0f MiB\n", name, fr / 1048576.0, tot / 1048576.0);
    int threads = 1;
#ifdef _OPENMP
    threads = omp_get_max_threads();
#endif

    row rows[2 * NKERNELS];
    int nrows = 0, failed = 0;

    /* Random charges filling the grid's box. */
    {
        vsg_molecule *m = vsg_molecule_new("random", "pqr");
        const double origin[3] = {-0.5 * (n - 1) * SPACING, -0.5 * (n - 1) * SPACING, -0.5 * (n - 1) * SPACING};
        for (long i = 0; m && i < natoms; i++) {
            vsg_atom a;
            memset(&a, 0, sizeof a);
            a.x = origin[0] + urand() * (n - 1) * SPACING;
            a.y = origin[1] + urand() * (n - 1) * SPACING;
            a.z = origin[2] + urand() * (n - 1) * SPACING;
            a.charge = 2.0 * urand() - 1.0;
            if (a.charge == 0.0) a.charge = 0.5;
            a.radius = 1.7;
            if (vsg_molecule_push(m, &a) != VSG_OK) {
                vsg_molecule_free(m);
                m = NULL;
            }
        }
        char what[24];
        if (natoms >= 1000) snprintf(what, sizeof what, "random %dk", (int)(natoms / 1000));
        else snprintf(what, sizeof what, "random %d", (int)natoms);
        if (m) failed |= bench_case(what, m, n, origin, repeats, rows, &nrows);
        else failed = 1;
        vsg_molecule_free(m);
    }
    /* The 1STP receptor, centred. */
    {
        vsg_molecule *m = NULL;
        char path[1024];
        snprintf(path, sizeof path, "%s/data/1stp_receptor.pdbqt", VSG_SOURCE_DIR);
        if (vsg_molecule_read(path, NULL, &m) == VSG_OK) {
            double lo[3], hi[3], origin[3];
            vsg_molecule_bounds(m, 0, lo, hi);
            for (int c = 0; c < 3; c++) origin[c] = 0.5 * (lo[c] + hi[c]) - 0.5 * (RECEPTOR_N - 1) * SPACING;
            failed |= bench_case("1STP", m, RECEPTOR_N, origin, repeats, rows, &nrows);
        } else {
            printf("1STP: %s (skipped)\n", vsg_last_error());
        }
        vsg_molecule_free(m);
    }

    printf("\nGPU Coulomb grid on %s, median of %d; CPU twin (%d thread%s) on the first %d planes\n", name, repeats,
           threads, threads == 1 ? "" : "s", CPU_PLANES);
    printf("%-11s %7s %9s %-19s %9s %10s %11s %8s %9s  %s\n", "case", "atoms", "points", "model", "ms",
           "evals/s", "CPU evals/s", "xCPU", "max diff", "note");
    for (int i = 0; i < nrows; i++) {
        const row *w = &rows[i];
        if (w->ms == 0.0) {
            printf("%-11s %7zu %9zu %-19s %9s %10s %11s %8s %9s  %s\n", w->what, w->atoms, w->points, w->model, "-",
                   "-", "-", "-", "-", w->note);
            continue;
        }
        printf("%-11s %7zu %9zu %-19s %9.2f %10.3g %11.3g %8.1f %9.2g  %s\n", w->what, w->atoms, w->points,
               w->model, w->ms, w->rate, w->cpu_rate, w->cpu_rate > 0 ? w->rate / w->cpu_rate : 0.0, w->maxdiff,
               w->note);
    }
    printf("goal: >= 3e12 atom-evaluations/s for 100k atoms on 128^3 (constant dielectric) on an H100\n");
    return failed;
}
