/* bench_ad4_maps.c — speed of the GPU AutoDock4 maps (gpu/maps/ad4_maps_gpu.cu) against their
 * CPU twin (vsg_ad4_maps_cpu, all OpenMP threads).
 * Usage: bench_ad4_maps [-r repeats] [-n npts] [-t "A C ..."] [receptor.pdbqt]
 *        (defaults: 5, 120, "A C N NA OA SA HD", data/1stp_receptor.pdbqt)
 *
 * The box: npts³ NELEMENTS (npts+1 nodes a side) at 0.375 Å, centred on the receptor
 * (gridcenter auto), one affinity map per ligand type plus desolvation. Rows: receptor atoms,
 * nodes, maps, seconds of the CPU twin (one call), seconds of the GPU (one warm-up call, then the
 * median of `repeats` calls; the whole call: set-up, transfers, kernel), the speed-up, and pair
 * rates: node·atom pairs within 8 Å (counted here) per second, and nodes × all receptor atoms per
 * second (the effective rate). Also the GPU/CPU agreement: nodes that differ, max |diff|.
 * Exit 0 (also without a GPU: it says so); 1 if a call failed. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "grids/base/vsgrid.h"
#include "grids/formats/grid.h"
#include "grids/receptor/molecule.h"

#ifndef VSG_SOURCE_DIR
#define VSG_SOURCE_DIR "."
#endif
#define MAX_REPEATS 51

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    int repeats = 5, npts = 120;
    const char *types = "A C N NA OA SA HD";
    char rpath[1200];
    snprintf(rpath, sizeof rpath, "%s/data/1stp_receptor.pdbqt", VSG_SOURCE_DIR);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-r") && i + 1 < argc) repeats = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-n") && i + 1 < argc) npts = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-t") && i + 1 < argc) types = argv[++i];
        else if (argv[i][0] != '-') snprintf(rpath, sizeof rpath, "%s", argv[i]);
        else {
            fprintf(stderr, "usage: bench_ad4_maps [-r repeats] [-n npts] [-t \"A C ...\"] [receptor.pdbqt]\n");
            return 2;
        }
    }
    if (repeats < 1) repeats = 1;
    if (repeats > MAX_REPEATS) repeats = MAX_REPEATS;
    npts &= ~1;
    if (npts < 2) npts = 2;

    vsg_molecule *rec = NULL;
    if (vsg_molecule_read(rpath, NULL, &rec) != VSG_OK) {
        fprintf(stderr, "bench_ad4_maps: %s\n", vsg_last_error());
        return 1;
    }
    vsg_ad4_params par;
    vsg_ad4_params_builtin(&par);
    vsg_gpf g;
    memset(&g, 0, sizeof g);
    g.have_npts = 1, g.npts[0] = g.npts[1] = g.npts[2] = npts;
    g.spacing = 0.375, g.smooth = 0.5, g.qasp = 0.01097, g.center_auto = 1, g.have_center = 0;
    {
        char buf[256];
        snprintf(buf, sizeof buf, "%s", types);
        for (char *t = strtok(buf, " "); t && g.n_ligand_types < VSG_AG_MAX_MAPS; t = strtok(NULL, " "))
            snprintf(g.ligand_types[g.n_ligand_types++], 4, "%s", t);
    }
    const int nm = g.n_ligand_types + 1;
    const size_t na = rec->n;
    double centre[3] = {0, 0, 0};
    for (size_t i = 0; i < na; i++) centre[0] += rec->atoms[i].x, centre[1] += rec->atoms[i].y, centre[2] += rec->atoms[i].z;
    for (int k = 0; k < 3; k++) centre[k] /= (double)na;

    /* node·atom pairs within 8 Å */
    const int n1 = npts + 1, ne = npts / 2;
    double pairs = 0.0;
#pragma omp parallel for reduction(+ : pairs) schedule(dynamic, 1)
    for (int kz = 0; kz < n1; kz++)
        for (int jy = 0; jy < n1; jy++)
            for (int ix = 0; ix < n1; ix++) {
                const double c[3] = {(ix - ne) * 0.375, (jy - ne) * 0.375, (kz - ne) * 0.375};
                double cnt = 0;
                for (size_t a = 0; a < na; a++) {
                    double dx = rec->atoms[a].x - centre[0] - c[0], dy = rec->atoms[a].y - centre[1] - c[1],
                           dz = rec->atoms[a].z - centre[2] - c[2];
                    cnt += dx * dx + dy * dy + dz * dz <= 64.0;
                }
                pairs += cnt;
            }
    const double nodes = (double)n1 * n1 * n1;

    int threads = 1;
#ifdef _OPENMP
    threads = omp_get_max_threads();
#endif
    vsg_grid *c[VSG_AG_MAX_MAPS + 1], *q[VSG_AG_MAX_MAPS + 1];
    double t0 = vsg_now();
    if (vsg_ad4_maps_cpu(rec, &g, &par, 0, c) != VSG_OK) {
        fprintf(stderr, "bench_ad4_maps: cpu: %s\n", vsg_last_error());
        return 1;
    }
    const double cpu_s = vsg_now() - t0;
    printf("receptor %s: %zu atoms; %d^3 nodes (%.0f), %d maps (%s + d); %.4g in-cutoff pairs (%.0f per node)\n",
           rpath, na, n1, nodes, nm, types, pairs, pairs / nodes);
    printf("cpu twin (%d threads): %.3f s, %.3g pairs/s, %.3g node*atoms/s\n", threads, cpu_s, pairs / cpu_s,
           nodes * (double)na / cpu_s);

    vsg_status st = vsg_ad4_maps_gpu(rec, &g, &par, 0, q); /* warm-up (context, module load) */
    if (st != VSG_OK) {
        printf("gpu: %s\n", vsg_last_error());
        for (int m = 0; m < nm; m++) vsg_grid_free(c[m]);
        vsg_molecule_free(rec);
        return st == VSG_E_DEVICE || st == VSG_E_UNSUPPORTED ? 0 : 1;
    }
    size_t ndiff = 0;
    double worst = 0.0;
    const size_t nn = vsg_grid_nodes(c[0]);
    for (int m = 0; m < nm; m++)
        for (size_t i = 0; i < nn; i++) {
            double d = fabs((double)c[m]->data[i] - (double)q[m]->data[i]);
            ndiff += d > 0.0;
            worst = d > worst ? d : worst;
        }
    for (int m = 0; m < nm; m++) vsg_grid_free(q[m]);
    double ts[MAX_REPEATS];
    for (int r = 0; r < repeats; r++) {
        double a = vsg_now();
        if (vsg_ad4_maps_gpu(rec, &g, &par, 0, q) != VSG_OK) {
            fprintf(stderr, "bench_ad4_maps: gpu: %s\n", vsg_last_error());
            return 1;
        }
        ts[r] = vsg_now() - a;
        for (int m = 0; m < nm; m++) vsg_grid_free(q[m]);
    }
    qsort(ts, (size_t)repeats, sizeof ts[0], cmp_d);
    const double gpu_s = ts[repeats / 2];
    printf("gpu (median of %d): %.4f s, %.3g pairs/s, %.3g node*atoms/s, x%.1f vs cpu twin\n", repeats, gpu_s,
           pairs / gpu_s, nodes * (double)na / gpu_s, cpu_s / gpu_s);
    printf("agreement: %zu of %zu map values differ, max |gpu - cpu| %.3g\n", ndiff, nn * (size_t)nm, worst);
    for (int m = 0; m < nm; m++) vsg_grid_free(c[m]);
    vsg_molecule_free(rec);
    return 0;
}
