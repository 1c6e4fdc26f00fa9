/* bench_vina_maps.c — speed of the GPU Vina maps (gpu/maps/vina_maps_gpu.cu) against their CPU
 * twin (vsg_vina_maps_cpu, OpenMP). Usage: bench_vina_maps [-r repeats]   (default 3)
 *
 * Cases: the 1IEP receptor (../shared/data or $VSG_SHARED_DATA, autodock_vina/1iep) in Vina's
 * box (20 Å and 30 Å at 0.375 Å) with 19 and 6 ligand types, and a random receptor of 20k
 * atoms (protein-like density, 0.05 typed atoms/Å³) on a 40 Å box.
 *
 * Columns: receptor atoms, grid nodes, types, seconds of the CPU twin and of the GPU call (the
 * median of `repeats` calls after a warm-up, whole call: typing, table, transfers, kernel),
 * pairs/s = node·atom pairs within 8 Å (counted on a sample of 4096 nodes, scaled) / GPU
 * seconds, and the fraction of a ceiling. Ceiling (stated, not measured): the kernel forms r²
 * and the bin in double, ~10 FP64 operations per pair visited (3 sub, 3 mul, 2 add, 1 mul, 1
 * convert), so on an H100 SXM (132 SMs × 64 FP64 op/clock × 1.98 GHz = 1.67e13 op/s) at most
 * ~1.7e12 pairs/s; the table gathers (one per type per pair, from L1) are not in that bound,
 * so with many types the fraction is lower. Exit 0 (also without a GPU: it says so). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "grids/formats/grid.h"
#include "grids/receptor/molecule.h"
#include "grids/base/vsgrid.h"

#define CEILING_PAIRS 1.67e12

static double now(void) { return vsg_now(); }

static unsigned long long rng = 12345;
static double uniform(double a, double b)
{
    rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
    return a + (b - a) * (double)(rng >> 11) / 9007199254740992.0;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* node·atom pairs within 8 Å, from a sample of nodes */
static double count_pairs(const vsg_molecule *rec, const vsg_grid *g)
{
    const size_t nn = vsg_grid_nodes(g);
    vsg_xs_type *xs = malloc(rec->n * sizeof *xs);
    if (!xs || vsg_xs_assign(rec, xs) != VSG_OK) {
        free(xs);
        return 0;
    }
    double pairs = 0;
    const int samples = 4096;
    for (int s = 0; s < samples; s++) {
        size_t i = (size_t)uniform(0, (double)nn);
        int ix = (int)(i % (size_t)g->n[0]), iy = (int)(i / (size_t)g->n[0] % (size_t)g->n[1]),
            iz = (int)(i / ((size_t)g->n[0] * (size_t)g->n[1]));
        double p[3] = {g->origin[0] + g->spacing[0] * ix, g->origin[1] + g->spacing[1] * iy,
                       g->origin[2] + g->spacing[2] * iz};
        for (size_t a = 0; a < rec->n; a++) {
            if (xs[a] == VSG_XS_NONE) continue;
            double dx = rec->atoms[a].x - p[0], dy = rec->atoms[a].y - p[1], dz = rec->atoms[a].z - p[2];
            pairs += dx * dx + dy * dy + dz * dz <= 64.0;
        }
    }
    free(xs);
    return pairs / samples * (double)nn;
}

static void bench(const char *name, const vsg_molecule *rec, const vsg_vina_box *box, int ntypes, int repeats)
{
    vsg_xs_type types[VSG_XS_COUNT];
    static const vsg_xs_type six[6] = {VSG_XS_C_H, VSG_XS_C_P, VSG_XS_N_P, VSG_XS_N_A, VSG_XS_O_A, VSG_XS_O_DA};
    for (int t = 0; t < ntypes; t++) types[t] = ntypes == 6 ? six[t] : (vsg_xs_type)t;
    vsg_vina_params p;
    vsg_vina_params_default(&p);
    vsg_grid *cpu[VSG_XS_COUNT] = {NULL}, *gpu[VSG_XS_COUNT] = {NULL};
    double t0 = now();
    if (vsg_vina_maps_cpu(rec, box, &p, types, ntypes, cpu) != VSG_OK) {
        printf("%s: CPU failed: %s\n", name, vsg_last_error());
        return;
    }
    double tcpu = now() - t0;
    double tg[16];
    int ok = 1;
    if (repeats > 16) repeats = 16;
    for (int r = -1; r < repeats && ok; r++) {
        for (int t = 0; t < ntypes; t++) vsg_grid_free(gpu[t]), gpu[t] = NULL;
        t0 = now();
        ok = vsg_vina_maps_gpu(rec, box, &p, types, ntypes, -1, 0, gpu) == VSG_OK;
        if (r >= 0) tg[r] = now() - t0;
    }
    if (!ok) {
        printf("%s: GPU failed: %s\n", name, vsg_last_error());
        for (int t = 0; t < ntypes; t++) vsg_grid_free(cpu[t]);
        return;
    }
    qsort(tg, (size_t)repeats, sizeof tg[0], cmp_d);
    double tgpu = tg[repeats / 2];
    double maxd = 0;
    for (int t = 0; t < ntypes; t++)
        for (size_t i = 0; i < vsg_grid_nodes(cpu[t]); i++) {
            double d = fabs((double)gpu[t]->data[i] - cpu[t]->data[i]) / fmax(1e-4 * fabs(cpu[t]->data[i]), 1e-5);
            if (d > maxd) maxd = d;
        }
    size_t typed = 0;
    vsg_xs_type *xs = malloc(rec->n * sizeof *xs);
    if (xs && vsg_xs_assign(rec, xs) == VSG_OK)
        for (size_t a = 0; a < rec->n; a++) typed += xs[a] != VSG_XS_NONE;
    free(xs);
    double pairs = count_pairs(rec, cpu[0]);
    printf("%-22s %7zu %7zu %10zu %5d %9.3f %9.4f %7.1fx %10.3g %7.3f %8.3f\n", name, rec->n, typed,
           vsg_grid_nodes(cpu[0]), ntypes, tcpu, tgpu, tcpu / tgpu, pairs / tgpu, pairs / tgpu / CEILING_PAIRS, maxd);
    for (int t = 0; t < ntypes; t++) vsg_grid_free(cpu[t]), vsg_grid_free(gpu[t]);
}

int main(int argc, char **argv)
{
    int repeats = 3;
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "-r") && i + 1 < argc) repeats = atoi(argv[++i]);
    if (repeats < 1) repeats = 1;
    if (vsg_gpu_count() == 0) {
        printf("bench_vina_maps: no usable GPU\n");
        return 0;
    }
    (void)vsg_gpu_start(0);
    printf("ceiling %.3g node-atom pairs/s (H100 SXM FP64: 132 SMs x 64 op/clk x 1.98 GHz / 10 op a pair)\n",
           CEILING_PAIRS);
    printf("%-22s %7s %7s %10s %5s %9s %9s %8s %10s %7s %8s\n", "case", "atoms", "typed", "nodes", "types",
           "cpu_s", "gpu_s", "speedup", "pairs/s", "ceil", "err/tol");
    char path[1200];
    const char *env = getenv("VSG_SHARED_DATA");
    struct stat st;
    if (env && stat(env, &st) == 0) snprintf(path, sizeof path, "%s/autodock_vina/1iep/1iep_receptor.pdbqt", env);
    else snprintf(path, sizeof path, "%s/../shared/data/autodock_vina/1iep/1iep_receptor.pdbqt", VSG_SOURCE_DIR);
    vsg_molecule *rec = NULL;
    if (vsg_molecule_read(path, NULL, &rec) == VSG_OK) {
        vsg_vina_box b20 = {{15.190, 53.903, 16.917}, {20, 20, 20}, 0.375};
        vsg_vina_box b30 = {{15.190, 53.903, 16.917}, {30, 30, 30}, 0.375};
        bench("1IEP 20A", rec, &b20, 19, repeats);
        bench("1IEP 20A", rec, &b20, 6, repeats);
        bench("1IEP 30A", rec, &b30, 19, repeats);
        bench("1IEP 30A", rec, &b30, 6, repeats);
        vsg_molecule_free(rec);
    } else {
        printf("(no 1IEP at %s)\n", path);
    }
    /* random: 20k typed heavy atoms in a 74 Å cube (0.05 /Å^3), 40 Å box */
    static const char *ad[] = {"C", "C", "A", "N", "NA", "OA", "OA", "SA"};
    rec = vsg_molecule_new("random", "pdbqt");
    for (int i = 0; i < 20000; i++) {
        vsg_atom a;
        memset(&a, 0, sizeof a);
        a.x = uniform(-37, 37), a.y = uniform(-37, 37), a.z = uniform(-37, 37);
        snprintf(a.ad_type, sizeof a.ad_type, "%s", ad[i % 8]);
        snprintf(a.name, sizeof a.name, "X");
        a.line = i + 1;
        vsg_molecule_push(rec, &a);
    }
    vsg_vina_box b40 = {{0, 0, 0}, {40, 40, 40}, 0.375};
    bench("random 20k 40A", rec, &b40, 6, repeats);
    vsg_molecule_free(rec);
    return 0;
}
