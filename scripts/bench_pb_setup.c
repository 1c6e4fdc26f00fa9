/* bench_pb_setup.c — the PB setup of one grid level, CPU (vsg_pb_build + vsg_pb_boundary,
 * grids/pb/pb_setup.c) against GPU (vsg_pb_build_gpu, gpu/pb/pb_setup_gpu.cu).
 *
 * Usage: bench_pb_setup [-r receptor] [-s surface] [N ...]
 *   receptor: default data/1stp_receptor.pdbqt (under VSG_SOURCE_DIR when relative and not found)
 *   surface:  vdw, ses or smooth; default: all three
 *   N:        nodes per axis, default 161 257
 * Each level is the receptor's default box (fill 0.7 at 0.5 Å: 141³ for 1STP, a 70 Å cube) split
 * into N³ nodes, i.e. a finer spacing in the same box; 0.15 M 1:1 salt (ion radius 2 Å), spl0,
 * mdh faces, double storage. Times are wall clock of the whole setup, median of 3 after one
 * warm-up call each side (the GPU's first call also pays for the CUDA context). The flag and list
 * columns count differences between the two results (expected 0). The CPU runs with the OpenMP
 * default thread count (OMP_NUM_THREADS to change it).
 * Exit 0, also without a GPU (it says so); 1 when a setup fails. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "grids/base/vsgrid.h"
#include "gpu/device/gpu.h"
#include "grids/pb/pb_geometry.h"
#include "grids/pb/pb_setup.h"
#include "gpu/pb/pb_setup_gpu.h"

#ifndef VSG_SOURCE_DIR
#define VSG_SOURCE_DIR "."
#endif

#define REPEATS 3

static const char *surface_name[] = {"vdw", "ses", "smooth"};

static double median(double *v, int n)
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && v[j] < v[j - 1]; j--) {
            double t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static vsg_status cpu_setup(const vsg_molecule *m, const vsg_pb_physics *ph, const vsg_level *lv, vsg_pb_system *s,
                            vsg_grid_charge **q, size_t *nq, double *seconds)
{
    double out, t0 = vsg_now();
    vsg_status st = vsg_pb_build(m, ph, lv, VSG_PRECISION_DOUBLE, s, q, nq, &out); /* frees on failure */
    if (st != VSG_OK) return st;
    st = vsg_pb_boundary(s, m, ph, VSG_BC_MDH, NULL);
    *seconds = vsg_now() - t0;
    if (st != VSG_OK) {
        vsg_pb_system_free(s);
        free(*q);
        *q = NULL;
    }
    return st;
}

/* Differences between the CPU's and the GPU's flags and lists. */
static void differences(const vsg_pb_system *a, const vsg_pb_system *b, size_t *flags, size_t *entries)
{
    *flags = 0;
    *entries = 0;
    for (int c = 0; c < 2; c++) {
        for (size_t k = 0; k < a->count[c]; k++) *flags += a->flag[c][k] != b->flag[c][k];
        size_t n = a->ncorr[c] < b->ncorr[c] ? a->ncorr[c] : b->ncorr[c];
        *entries += a->ncorr[c] > b->ncorr[c] ? a->ncorr[c] - b->ncorr[c] : b->ncorr[c] - a->ncorr[c];
        for (size_t e = 0; e < n; e++) *entries += memcmp(&a->corr[c][e], &b->corr[c][e], sizeof(vsg_pb_corr)) != 0;
    }
}

int main(int argc, char **argv)
{
    const char *receptor = "data/1stp_receptor.pdbqt";
    int surf_only = -1, sizes[16], nsizes = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-r") && i + 1 < argc) {
            receptor = argv[++i];
        } else if (!strcmp(argv[i], "-s") && i + 1 < argc) {
            ++i;
            for (int k = 0; k < 3; k++)
                if (!strcmp(argv[i], surface_name[k])) surf_only = k;
            if (surf_only < 0) {
                fprintf(stderr, "bench_pb_setup: unknown surface '%s' (vdw, ses, smooth)\n", argv[i]);
                return 2;
            }
        } else if (nsizes < 16 && atoi(argv[i]) >= 3) {
            sizes[nsizes++] = atoi(argv[i]) | 1;
        } else {
            fprintf(stderr, "usage: bench_pb_setup [-r receptor] [-s vdw|ses|smooth] [N ...]\n");
            return 2;
        }
    }
    if (nsizes == 0) {
        sizes[nsizes++] = 161;
        sizes[nsizes++] = 257;
    }
    if (vsg_gpu_count() <= 0) {
        printf("no GPU: nothing to compare (the CPU setup is timed by the solver's report)\n");
        return 0;
    }
    char name[64] = "";
    vsg_gpu_describe(0, name, sizeof name, NULL, NULL);

    vsg_molecule *m = NULL;
    char path[1024];
    snprintf(path, sizeof path, "%s", receptor);
    FILE *f = fopen(path, "r");
    if (f) fclose(f);
    else if (receptor[0] != '/') snprintf(path, sizeof path, "%s/%s", VSG_SOURCE_DIR, receptor);
    if (vsg_molecule_read(path, NULL, &m) != VSG_OK) {
        fprintf(stderr, "bench_pb_setup: %s\n", vsg_last_error());
        return 1;
    }
    vsg_pb_params p;
    vsg_pb_params_default(&p);
    p.n_ions = 2;
    p.ions[0] = (vsg_ion){+1, 0.15, 2.0};
    p.ions[1] = (vsg_ion){-1, 0.15, 2.0};
    vsg_level box;
    if (vsg_fine_level(m, &p, &box) != VSG_OK) {
        fprintf(stderr, "bench_pb_setup: %s\n", vsg_last_error());
        return 1;
    }
    int threads = 1;
#ifdef _OPENMP
    threads = omp_get_max_threads();
#endif
    printf("PB setup of one level, %s (%zu atoms), box %.1f Å, 0.15 M salt, spl0, mdh faces\n", path, m->n,
           (box.n[0] - 1) * box.h);
    printf("CPU: %d OpenMP threads; GPU: %s; median of %d\n\n", threads, name, REPEATS);
    printf("%7s %7s %-7s %9s %10s %10s %8s %12s %12s\n", "nodes", "h (Å)", "surface", "listed", "cpu (s)", "gpu (s)",
           "speedup", "flags diff", "list diff");

    int failed = 0;
    for (int si = 0; si < nsizes; si++)
        for (int sf = 0; sf < 3; sf++) {
            if (surf_only >= 0 && sf != surf_only) continue;
            const int n = sizes[si];
            vsg_level lv;
            lv.h = (box.n[0] - 1) * box.h / (n - 1);
            for (int d = 0; d < 3; d++) {
                lv.n[d] = n;
                lv.origin[d] = box.origin[d] + 0.5 * (box.n[d] - 1) * box.h - 0.5 * (n - 1) * lv.h;
            }
            p.surface = (vsg_surface)sf;
            vsg_pb_physics ph;
            if (vsg_pb_physics_from(&p, &ph) != VSG_OK) {
                fprintf(stderr, "bench_pb_setup: %s\n", vsg_last_error());
                return 1;
            }
            double tc[REPEATS + 1], tg[REPEATS + 1];
            vsg_pb_system a, b;
            vsg_grid_charge *qa = NULL, *qb = NULL;
            size_t na = 0, nb = 0;
            int ok = 1;
            for (int r = 0; r <= REPEATS && ok; r++) {
                vsg_status st = cpu_setup(m, &ph, &lv, &a, &qa, &na, &tc[r]);
                if (st != VSG_OK) {
                    fprintf(stderr, "bench_pb_setup: CPU setup %d³: %s\n", n, vsg_last_error());
                    ok = 0;
                    break;
                }
                double out;
                st = vsg_pb_build_gpu(m, &ph, &lv, VSG_PRECISION_DOUBLE, VSG_BC_MDH, &b, &qb, &nb, &out, 0, &tg[r]);
                if (st != VSG_OK) {
                    fprintf(stderr, "bench_pb_setup: GPU setup %d³: %s\n", n, vsg_last_error());
                    vsg_pb_system_free(&a);
                    free(qa);
                    ok = 0;
                    break;
                }
                if (r < REPEATS) {
                    vsg_pb_system_free(&a);
                    vsg_pb_system_free(&b);
                    free(qa);
                    free(qb);
                }
            }
            if (!ok) {
                failed = 1;
                continue;
            }
            size_t fd, ld;
            differences(&a, &b, &fd, &ld);
            double mc = median(tc + 1, REPEATS), mg = median(tg + 1, REPEATS);
            printf("%4d^3 %7.4f %-7s %9zu %10.3f %10.4f %7.1fx %12zu %12zu\n", n, lv.h, surface_name[sf],
                   a.ncorr[0] + a.ncorr[1], mc, mg, mg > 0.0 ? mc / mg : 0.0, fd, ld);
            fflush(stdout);
            vsg_pb_system_free(&a);
            vsg_pb_system_free(&b);
            free(qa);
            free(qb);
        }
    vsg_molecule_free(m);
    return failed;
}
