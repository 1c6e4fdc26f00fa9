/* bench_ad4_maps.c — speed of the GPU AutoDock4 maps (gpu/maps/ad4_maps_gpu.cu) against their
 * CPU twin (vsg_ad4_maps_cpu, all OpenMP threads).
 * Usage: bench_ad4_maps [-r repeats] [-n npts] [-t "A C ..."] [-w DIR] [receptor.pdbqt]
 *        (defaults: 5, 120, "A C N NA OA SA HD", data/1stp_receptor.pdbqt)
 *
 * The box: npts³ NELEMENTS (npts+1 nodes a side) at 0.375 Å, centred on the receptor
 * (gridcenter auto), one affinity map per ligand type plus desolvation. Rows: receptor atoms,
 * nodes, maps, seconds of the CPU twin (one call), seconds of the GPU (one warm-up call, then the
 * median of `repeats` calls; the whole call: set-up, transfers, kernel), the speed-up, and pair
 * rates: node·atom pairs within 8 Å (counted here) per second, and nodes × all receptor atoms per
 * second (the effective rate). Also the GPU/CPU agreement: nodes that differ, max |diff|.
 * With -w DIR, also the whole set as a program makes it: GPU affinity and d maps, the GPU
 * Coulomb e map (AutoGrid mode), every map written as AutoGrid text into DIR (median time).
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
    const char *wdir = NULL; /* -w DIR: also time the whole set, e map and writing included */
    char rpath[1200];
    snprintf(rpath, sizeof rpath, "%s/data/1stp_receptor.pdbqt", VSG_SOURCE_DIR);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-r") && i + 1 < argc) repeats = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-n") && i + 1 < argc) npts = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-t") && i + 1 < argc) types = argv[++i];
        else if (!strcmp(argv[i], "-w") && i + 1 < argc) wdir = argv[++i];
        else if (argv[i][0] != '-') snprintf(rpath, sizeof rpath, "%s", argv[i]);
        else {
            fprintf(stderr, "usage: bench_ad4_maps [-r repeats] [-n npts] [-t \"A C ...\"] [-w DIR] [receptor.pdbqt]\n");
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

    /* The whole set as a program makes it (-w DIR): the affinity and d maps on the GPU, the e
     * map by the GPU Coulomb kernel in AutoGrid mode, every map written as AutoGrid text. */
    if (wdir) {
        vsg_coulomb_kernel k;
        if (vsg_coulomb_kernel_make(VSG_DIEL_MEHLER_SOLMAJER, 0.0, 1, &k) != VSG_OK) return 1;
        k.have_center = 1;
        for (int d = 0; d < 3; d++) k.center[d] = centre[d];
        double tw[MAX_REPEATS], tm[MAX_REPEATS], te[MAX_REPEATS];
        for (int r = 0; r < repeats; r++) {
            double a = vsg_now();
            if (vsg_ad4_maps_gpu(rec, &g, &par, 0, q) != VSG_OK) return 1;
            double b = vsg_now();
            const int n3[3] = {n1, n1, n1};
            const double org[3] = {centre[0] - ne * 0.375, centre[1] - ne * 0.375, centre[2] - ne * 0.375},
                         sp[3] = {0.375, 0.375, 0.375};
            vsg_grid *e = vsg_grid_new(n3, org, sp, "kcal/mol/e");
            if (!e || vsg_coulomb_gpu(rec, &k, e, 0, NULL) != VSG_OK) {
                fprintf(stderr, "bench_ad4_maps: e map: %s\n", vsg_last_error());
                return 1;
            }
            double c2 = vsg_now();
            char path[VSG_AG_MAX_MAPS + 2][1400];
            const char *paths[VSG_AG_MAX_MAPS + 2];
            const vsg_grid *w[VSG_AG_MAX_MAPS + 2];
            for (int m = 0; m <= nm; m++) {
                w[m] = m < nm ? q[m] : e;
                snprintf(path[m], sizeof path[m], "%s/bench.%s.map", wdir,
                         m < nm - 1 ? g.ligand_types[m] : m == nm - 1 ? "d" : "e");
                paths[m] = path[m];
            }
            vsg_autogrid_header hd = {"bench.gpf", "bench.maps.fld", "receptor"};
            if (vsg_autogrid_maps_write(w, paths, nm + 1, &hd) != VSG_OK) {
                fprintf(stderr, "bench_ad4_maps: %s\n", vsg_last_error());
                return 1;
            }
            tw[r] = vsg_now() - a, tm[r] = b - a, te[r] = c2 - b;
            for (int m = 0; m < nm; m++) vsg_grid_free(q[m]);
            vsg_grid_free(e);
        }
        qsort(tw, (size_t)repeats, sizeof tw[0], cmp_d);
        qsort(tm, (size_t)repeats, sizeof tm[0], cmp_d);
        qsort(te, (size_t)repeats, sizeof te[0], cmp_d);
        printf("whole set (%d maps + e, written to %s): %.4f s (medians: affinity+d %.4f s, e %.4f s, writing the rest)\n",
               nm, wdir, tw[repeats / 2], tm[repeats / 2], te[repeats / 2]);
        vsg_coulomb_kernel_free(&k);
    }
    vsg_molecule_free(rec);
    return 0;
}
