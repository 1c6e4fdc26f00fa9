/* ad4_maps_gpu.cu — the GPU twin of vsg_ad4_maps_cpu (grids/maps/ad4_maps.c): AutoDock4
 * affinity maps (one per gpf ligand type) and the desolvation map (vsgrid.h, "AutoDock4
 * affinity and desolvation maps").
 *
 * Work. Per node, a pass over the receptor atoms within 8 Å (a protein with polar hydrogens:
 * ~150–250 atoms; the brick's candidate list ~2–3× that). Per in-cutoff pair: ~15 double
 * operations (r, 1/r, u, bin), the directional factors for D1/A1/A2 atoms (a few dot products;
 * A2 also acos/sin/cos), then per map one 8-byte gathered table read (L1/L2: the tables are
 * nmap × nrt × 2048 × 8 bytes, ~1–2 MB) and ~12 double operations (H-bond branch, desolvation);
 * the output is 4 bytes per node and map. So ~200 × (30 + 15·nmap) ≈ 30–50 kflop (FP64) per
 * node against (nmap+1) × 4 bytes written: compute- and gather-bound, never DRAM-bound.
 * Doubles throughout: the result is rounded to 3 decimals of values up to 1e5–1e6 kcal/mol, and
 * the table bin (int)(r·100) must be the CPU's bin, which float r cannot promise.
 *
 * Layout. A block of 256 threads owns a brick of 8 × 8 × 4 nodes, one thread per node; every
 * thread computes all maps of its node from one pass over the atoms (accumulators in local
 * memory, L1-resident). The receptor atoms within reach of the box are binned on the host into
 * 4 Å cells (counting sort, x fastest, file order within a cell), so a block visits only the
 * cells within 8 Å of its brick: one contiguous range per (y, z) cell row, the same atom for the
 * whole warp at a time (broadcast loads, no divergence in the loop bounds). Two passes: the donor
 * hydrogen nearest to the node (ties: first in file order, as the CPU twin), then the sums.
 *
 * Arithmetic. The host builds what the CPU twin builds, the same way: sites shifted to the box
 * centre, the bond vectors (ad4_hbond_vectors, the CPU twin's own code), the pair tables
 * (ad4_pair_table, the CPU twin's own) and the desolvation table. The device forms the
 * node, r and the bin with explicitly rounded operations (never contracted), so it picks the
 * CPU's bin and keeps or drops the CPU's atoms bit for bit; the final rounding to 3 decimals is
 * the CPU's to_map_float, also uncontracted. What may differ: the order of the sums (cell order,
 * not file order), FMA contraction in the per-map terms, and device acos/cos/sin/pow (≤ 2 ulp):
 * ~1e-15 relative, visible only where a value lies on a 0.0005 rounding edge (one step of 0.001).
 * tests/test_gpu_ad4_maps.c measures it. */
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grids/base/vsgrid.h"
#include "grids/formats/grid.h"
#include "grids/formats/grid_ahead.h"
#include "grids/receptor/molecule.h"
#include "gpu/device/gpu.h"
#include "grids/base/profile.h"
extern "C" {
#include "grids/maps/ad4_maps.h"
}
#include "grids/maps/ad4_hbond_factors.h" /* host and device: the CPU twin's own source */
#include "gpu/maps/brick_stage.cuh"

#define VSG_CUDA_WHO "GPU AD4 maps"
#include "gpu/device/cuda_check.h"

#define AB_X 8
#define AB_Y 8
#define AB_Z 4
#define AB_THREADS (AB_X * AB_Y * AB_Z)
#define AB_CELL 4.0 /* Å, host-side cell size */
#define AB_MAXM VSG_AG_MAX_MAPS
#define AB_TILE 768 /* atoms staged per block (24 KB of shared memory) */
#define AB_GROUP 8  /* maps per launch (registers) */

static_assert(AB_MAXM <= 32, "hflag is a 32-bit mask");

struct AParams {
    const ad4_site *s;     /* sorted by cell */
    const int *orig;       /* file index of each sorted site (ties of the nearest donor) */
    const int *cell_start; /* ncell + 1 entries */
    const double *tab;     /* [m][rt][AD4_NEINT] */
    const double *sol;     /* [AD4_NEINT] */
    float *out;            /* [nmap + 1][nodes] */
    int n[3], ne[3];
    int nc[3];
    double corigin[3];
    double h, qasp;
    int nmap, nrt;
};

__constant__ int c_lig_hb[AB_MAXM];
__constant__ double c_lig_solpar[AB_MAXM], c_lig_vol[AB_MAXM];

/* ---- device code ---------------------------------------------------------------------------- */

/* ad4_maps.c's to_map_float, uncontracted. */
__device__ __forceinline__ float to_map_float_d(double v)
{
    if (fabs(v) < 1e-3) return (float)v;
    return (float)__ddiv_rn(floor(__dadd_rn(__dmul_rn(v, 1000.0), 0.5)), 1000.0);
}

/* r from the node c to site x as the CPU forms it: sqrt((d0² + d1²) + d2²), d = x − c. */
__device__ __forceinline__ double dist_d(const double *x, double c0, double c1, double c2, double *d)
{
    d[0] = __dsub_rn(x[0], c0), d[1] = __dsub_rn(x[1], c1), d[2] = __dsub_rn(x[2], c2);
    return __dsqrt_rn(__dadd_rn(__dadd_rn(__dmul_rn(d[0], d[0]), __dmul_rn(d[1], d[1])), __dmul_rn(d[2], d[2])));
}

/* One launch computes the maps [m0, m0 + ng) (ng ≤ G) of every node, and the desolvation map
 * when with_d: G accumulators (sum, H-bond min and max) live in registers, so a set of many maps
 * is G maps per launch instead of all of them in local memory (measured: local-memory traffic
 * kept L2 83% busy). The block first stages the atoms of its cell rows that lie within reach of
 * its brick (a bounding-box cull) in shared memory, then every thread visits only those. */
template <int G>
__global__ void __launch_bounds__(AB_THREADS) ad4_kernel(AParams p, int m0, int ng, int with_d)
{
    __shared__ double4_32a s_pos[AB_TILE]; /* x, y, z, sorted index */
    __shared__ int s_wc[AB_THREADS / 32];
    const int tid = threadIdx.x;
    const int bx = blockIdx.x * AB_X, by = blockIdx.y * AB_Y, bz = blockIdx.z * AB_Z;
    const int ix = bx + (tid % AB_X), iy = by + (tid / AB_X) % AB_Y, iz = bz + tid / (AB_X * AB_Y);
    const bool mine = ix < p.n[0] && iy < p.n[1] && iz < p.n[2];
    /* the node as the CPU twin forms it: (i − ne)·h, relative to the box centre */
    const double cx = __dmul_rn((double)(ix - p.ne[0]), p.h);
    const double cy = __dmul_rn((double)(iy - p.ne[1]), p.h);
    const double cz = __dmul_rn((double)(iz - p.ne[2]), p.h);
    /* the brick's extent (clamped to the grid) and the cells within reach */
    int c0[3], c1[3];
    double lo[3], hi[3];
    const double reach = AD4_NBC + 1e-3;
    {
        const int b0[3] = {bx, by, bz};
        const int b1[3] = {min(bx + AB_X - 1, p.n[0] - 1), min(by + AB_Y - 1, p.n[1] - 1),
                           min(bz + AB_Z - 1, p.n[2] - 1)};
        for (int c = 0; c < 3; c++) {
            lo[c] = (double)(b0[c] - p.ne[c]) * p.h, hi[c] = (double)(b1[c] - p.ne[c]) * p.h;
            c0[c] = max(0, (int)floor((lo[c] - reach - p.corigin[c]) / AB_CELL));
            c1[c] = min(p.nc[c] - 1, (int)floor((hi[c] + reach - p.corigin[c]) / AB_CELL));
        }
    }
    const ad4_site *__restrict__ s = p.s;
    const int nrows_y = c1[1] - c0[1] + 1;
    const int nrows = c1[0] >= c0[0] && c1[1] >= c0[1] && c1[2] >= c0[2] ? nrows_y * (c1[2] - c0[2] + 1) : 0;

    /* pass 1: the donor hydrogen nearest to the node (first in file order at a tie): few atoms,
     * read straight from the sorted list; r only where it may tie or beat the best so far. */
    double rmin = 999999., d2min = 1e300;
    int closest = 0, corig = INT32_MAX;
    for (int row = 0; row < nrows; row++) {
        const int cy_ = c0[1] + row % nrows_y, cz_ = c0[2] + row / nrows_y;
        const int cb = (cz_ * p.nc[1] + cy_) * p.nc[0];
        const int a0 = __ldg(p.cell_start + cb + c0[0]), a1 = __ldg(p.cell_start + cb + c1[0] + 1);
        for (int j = a0; j < a1; j++) {
            const int hb = s[j].hbond;
            if (hb != AD4_HB_DS && hb != AD4_HB_D1) continue;
            const double dx = __dsub_rn(s[j].x[0], cx), dy = __dsub_rn(s[j].x[1], cy), dz = __dsub_rn(s[j].x[2], cz);
            const double d2 = __dadd_rn(__dadd_rn(__dmul_rn(dx, dx), __dmul_rn(dy, dy)), __dmul_rn(dz, dz));
            if (d2 > d2min * (1. + 1e-12)) continue; /* r > rmin for certain */
            const double r = __dsqrt_rn(d2);
            const int o = __ldg(p.orig + j);
            if (r < rmin || (r == rmin && o < corig)) rmin = r, closest = j, corig = o, d2min = d2;
        }
    }

    /* pass 2: the sums */
    double en[G], hmin[G], hmax[G], ed = 0.;
    unsigned hflag = 0;
#pragma unroll
    for (int g = 0; g < G; g++) en[g] = 0., hmin[g] = 999999., hmax[g] = -999999.;
    const double qasp = p.qasp;
    const size_t mstride = (size_t)p.nrt * AD4_NEINT;
    /* r ≤ 8 exactly as the CPU decides it; beyond this r² it is certainly > 8 */
    const double cut2 = AD4_NBC * AD4_NBC * (1. + 1e-12), reach2 = reach * reach;
    int cnt = 0;
    for (int row = 0; row <= nrows; row++) {
        const bool last = row == nrows;
        int a0 = 0, a1 = 0;
        if (!last) {
            const int cy_ = c0[1] + row % nrows_y, cz_ = c0[2] + row / nrows_y;
            const int cb = (cz_ * p.nc[1] + cy_) * p.nc[0];
            a0 = __ldg(p.cell_start + cb + c0[0]);
            a1 = __ldg(p.cell_start + cb + c1[0] + 1);
        }
        for (int base = a0;; base += AB_THREADS) {
            /* sum over the staged tile when the next stage could overflow it, and at the end */
            if (cnt > AB_TILE - AB_THREADS || (last && cnt > 0)) {
                for (int i = 0; i < cnt; i++) {
                    const double4_32a P = s_pos[i];
                    double u[3];
                    u[0] = __dsub_rn(P.x, cx), u[1] = __dsub_rn(P.y, cy), u[2] = __dsub_rn(P.z, cz);
                    const double d2 =
                        __dadd_rn(__dadd_rn(__dmul_rn(u[0], u[0]), __dmul_rn(u[1], u[1])), __dmul_rn(u[2], u[2]));
                    if (d2 > cut2) continue;
                    double r = __dsqrt_rn(d2);
                    if (r < AD4_APPROX_ZERO) r = AD4_APPROX_ZERO;
                    if (r > AD4_NBC) continue;
                    const int j = (int)P.w;
                    const ad4_site *a = &s[j];
                    const double inv_r = __ddiv_rn(1., r);
                    for (int k = 0; k < 3; k++) u[k] = __dmul_rn(u[k], inv_r);
                    int bin = (int)__dmul_rn(r, AD4_A_DIV);
                    if (bin > AD4_NEINT - 1) bin = AD4_NEINT - 1;
                    const int ahb = a->hbond;
                    double racc = 1., rdon = 1., hramp = 1.;
                    if (ahb == AD4_HB_D1 || ahb == AD4_HB_A1 || ahb == AD4_HB_A2)
                        ad4_hbond_factors(s, (size_t)j, (size_t)closest, u, &racc, &rdon, &hramp);
                    const int rdonor = ahb == AD4_HB_DS || ahb == AD4_HB_D1;
                    const double sl = __ldg(p.sol + bin);
                    const double avol = a->vol, asolq = a->solpar + qasp * a->absq;
                    const double *tb = p.tab + (size_t)a->type * AD4_NEINT + bin + (size_t)m0 * mstride;
#pragma unroll
                    for (int g = 0; g < G; g++) {
                        if (g >= ng) break;
                        const int m = m0 + g;
                        const int phb = c_lig_hb[m];
                        const double E = __ldg(tb + (size_t)g * mstride);
                        if (phb > 0) {
                            double rsph = E / 100.;
                            rsph = rsph > 0. ? rsph : 0.;
                            rsph = rsph < 1. ? rsph : 1.;
                            if ((phb == AD4_HB_AS || phb == AD4_HB_A2) && rdonor) {
                                en[g] += E * hramp * (racc + (1. - racc) * rsph);
                            } else if (phb == AD4_HB_A1 && rdonor) {
                                double v = E * (racc + (1. - racc) * rsph);
                                hmin[g] = hmin[g] < v ? hmin[g] : v;
                                hmax[g] = hmax[g] > v ? hmax[g] : v;
                                hflag |= 1u << g;
                            } else if ((phb == AD4_HB_DS || phb == AD4_HB_D1) && ahb > 2) {
                                double v = E * (rdon + (1. - rdon) * rsph);
                                hmin[g] = hmin[g] < v ? hmin[g] : v;
                                hmax[g] = hmax[g] > v ? hmax[g] : v;
                                hflag |= 1u << g;
                            } else {
                                en[g] += E;
                            }
                        } else {
                            en[g] += E;
                        }
                        en[g] += c_lig_solpar[m] * avol * sl + asolq * c_lig_vol[m] * sl;
                    }
                    if (with_d) ed += qasp * avol * sl;
                }
                __syncthreads();
                cnt = 0;
            }
            if (last || base >= a1) break;
            /* stage up to AB_THREADS atoms of the row, culled against the brick */
            cnt = brick_stage<AB_THREADS>(s_pos, s_wc, cnt, base, a1, lo, hi, reach2,
                                          [&](int j, double4_32a *P, double q[3]) {
                                              for (int c = 0; c < 3; c++) q[c] = s[j].x[c];
                                              *P = make_double4_32a(q[0], q[1], q[2], (double)j);
                                          });
        }
    }
    if (mine) {
        const size_t nodes = (size_t)p.n[0] * p.n[1] * p.n[2];
        const size_t node = (size_t)ix + (size_t)p.n[0] * ((size_t)iy + (size_t)p.n[1] * (size_t)iz);
#pragma unroll
        for (int g = 0; g < G; g++) {
            if (g >= ng) break;
            double v = en[g];
            if (hflag >> g & 1u) {
                v += hmin[g];
                v += hmax[g];
            }
            p.out[(size_t)(m0 + g) * nodes + node] = to_map_float_d(v);
        }
        if (with_d) p.out[(size_t)p.nmap * nodes + node] = to_map_float_d(ed);
    }
}

/* ---- host code ------------------------------------------------------------------------------ */


struct Dev {
    ad4_site *s;
    int *orig, *cells;
    double *tab, *sol;
    float *out;
    int prev_device;
};

static void dev_release(Dev *d)
{
    if (d->s) cudaFree(d->s);
    if (d->orig) cudaFree(d->orig);
    if (d->cells) cudaFree(d->cells);
    if (d->tab) cudaFree(d->tab);
    if (d->sol) cudaFree(d->sol);
    if (d->out) cudaFree(d->out);
    (void)cudaGetLastError();
    if (d->prev_device >= 0) (void)cudaSetDevice(d->prev_device);
    (void)cudaGetLastError();
}

struct Host {
    ad4_plan plan; /* sites, types and tables: the CPU twin's */
    ad4_site *sorted;
    int *cell, *start, *orig;
    int outs; /* out[0 .. nmap] were set (to NULL, then grids) */
    /* the output grids, allocated and first touched by helper threads while the GPU works (a
     * 193³ set is 400 MB: touched by the copy, page by page on one thread, it took 0.25 s) */
    vsg_grid_ahead ahead[AB_MAXM + 1];
    int nahead, nfinished;
};

static void host_free(Host *h)
{
    for (int m = h->nfinished; m < h->nahead; m++) vsg_grid_free(vsg_grid_ahead_finish(&h->ahead[m]));
    ad4_plan_free(&h->plan);
    free(h->sorted), free(h->cell), free(h->start), free(h->orig);
}

static vsg_status run(const vsg_molecule *rec, const vsg_gpf *gpf, const vsg_ad4_params *p, int device,
                      vsg_grid **out, Dev *d, Host *H)
{
    /* the CPU twin's checks, messages and set-up (ad4_plan.c) */
    if (!out) return vsg_fail(VSG_E_ARG, "ad4 maps: NULL argument");
    for (int m = 0; gpf && m <= gpf->n_ligand_types && m <= VSG_AG_MAX_MAPS; m++) out[m] = NULL;
    double mark = vsg_now();
    vsg_status st0 = ad4_plan_make(rec, gpf, p, &H->plan);
    if (st0 != VSG_OK) return st0;
    const ad4_plan *pl = &H->plan;
    const int nmap = pl->nmap, nrt = pl->nrt;
    const size_t na = pl->na;
    const ad4_site *s = pl->s;
    for (int m = 0; m <= nmap; m++) out[m] = NULL;
    H->outs = 1;

    /* the device: checked before the work */
    const int count = vsg_gpu_count();
    if (count == 0) return vsg_fail(VSG_E_DEVICE, "GPU AD4 maps: no CUDA device (no GPU or no driver)");
    const int dev = device < 0 ? 0 : device;
    if (dev >= count)
        return vsg_fail(VSG_E_DEVICE, "GPU AD4 maps: GPU %d requested, %d CUDA device%s found", dev, count,
                        count == 1 ? "" : "s");
    vsg_profile_phase(&mark, "ad4 maps gpu: sites and tables (host)");

    /* the grids */
    const int *ne = pl->ne, *n = pl->n;
    const double h = pl->h;
    const double *origin = pl->origin;
    for (int m = 0; m <= nmap; m++) vsg_grid_ahead_start(&H->ahead[m], n, origin, h, "kcal/mol"), H->nahead++;
    if ((n[0] + AB_X - 1) / AB_X > 2147483647 || (n[1] + AB_Y - 1) / AB_Y > 65535 || (n[2] + AB_Z - 1) / AB_Z > 65535)
        return vsg_fail(VSG_E_LIMIT, "GPU AD4 maps: %d x %d x %d nodes are past the launch limits", n[0], n[1], n[2]);

    /* sites within reach of the box (relative to the centre), binned into cells */
    double blo[3], bhi[3];
    for (int k = 0; k < 3; k++) blo[k] = -ne[k] * h, bhi[k] = ne[k] * h;
    const double reach = AD4_NBC + 1e-3;
    double corigin[3];
    int nc[3];
    for (int k = 0; k < 3; k++) {
        corigin[k] = blo[k] - reach - 1.0;
        nc[k] = (int)ceil((bhi[k] - blo[k] + 2 * reach + 2.0) / AB_CELL) + 1;
    }
    if ((double)nc[0] * nc[1] * nc[2] > 1e8) return vsg_fail(VSG_E_LIMIT, "GPU AD4 maps: box too large for the cell list");
    if (na > (size_t)INT32_MAX / 2) return vsg_fail(VSG_E_LIMIT, "GPU AD4 maps: %zu receptor atoms", na);
    const size_t ncell = (size_t)nc[0] * nc[1] * nc[2];
    H->cell = (int *)malloc(na * sizeof(int));
    H->start = (int *)calloc(ncell + 1, sizeof(int));
    H->sorted = (ad4_site *)malloc(na * sizeof(ad4_site));
    H->orig = (int *)malloc(na * sizeof(int));
    if (!H->cell || !H->start || !H->sorted || !H->orig) return vsg_fail(VSG_E_NOMEM, "ad4 maps: out of memory");
    size_t nr = 0;
    for (size_t i = 0; i < na; i++) {
        double dd = 0.0;
        for (int k = 0; k < 3; k++) {
            const double q = s[i].x[k], e = q < blo[k] ? blo[k] - q : q > bhi[k] ? q - bhi[k] : 0.0;
            dd += e * e;
        }
        H->cell[i] = -1;
        if (!(dd <= reach * reach)) continue;
        int ci[3];
        for (int k = 0; k < 3; k++) {
            int c = (int)floor((s[i].x[k] - corigin[k]) / AB_CELL);
            ci[k] = c < 0 ? 0 : c >= nc[k] ? nc[k] - 1 : c;
        }
        H->cell[i] = (ci[2] * nc[1] + ci[1]) * nc[0] + ci[0];
        H->start[H->cell[i] + 1]++;
        nr++;
    }
    for (size_t c = 0; c < ncell; c++) H->start[c + 1] += H->start[c];
    {
        int *fill = (int *)malloc(ncell * sizeof(int));
        if (!fill) return vsg_fail(VSG_E_NOMEM, "ad4 maps: out of memory");
        memcpy(fill, H->start, ncell * sizeof(int));
        for (size_t i = 0; i < na; i++) {
            if (H->cell[i] < 0) continue;
            const int j = fill[H->cell[i]]++; /* file order within a cell */
            H->sorted[j] = s[i];
            H->orig[j] = (int)i;
        }
        free(fill);
    }
    /* map parameters */
    int hb[AB_MAXM] = {0};
    double solpar[AB_MAXM] = {0}, vol[AB_MAXM] = {0};
    for (int m = 0; m < nmap; m++) hb[m] = pl->lig[m]->hbond, solpar[m] = pl->lig[m]->solpar, vol[m] = pl->lig[m]->vol;

    vsg_profile_phase(&mark, "ad4 maps gpu: grids and cell list (host)");
    /* device */
    CU(cudaGetDevice(&d->prev_device));
    CU(cudaSetDevice(dev));
    const size_t nodes = (size_t)n[0] * n[1] * n[2];
    const size_t out_bytes = sizeof(float) * nodes * (nmap + 1);
    const size_t tab_bytes = sizeof(double) * (size_t)nmap * nrt * AD4_NEINT;
    CU(cudaMalloc((void **)&d->s, (nr ? nr : 1) * sizeof(ad4_site)));
    CU(cudaMalloc((void **)&d->orig, (nr ? nr : 1) * sizeof(int)));
    CU(cudaMalloc((void **)&d->cells, (ncell + 1) * sizeof(int)));
    CU(cudaMalloc((void **)&d->tab, tab_bytes));
    CU(cudaMalloc((void **)&d->sol, sizeof(double) * AD4_NEINT));
    CU(cudaMalloc((void **)&d->out, out_bytes));
    if (nr) {
        CU(cudaMemcpy(d->s, H->sorted, nr * sizeof(ad4_site), cudaMemcpyHostToDevice));
        CU(cudaMemcpy(d->orig, H->orig, nr * sizeof(int), cudaMemcpyHostToDevice));
    }
    CU(cudaMemcpy(d->cells, H->start, (ncell + 1) * sizeof(int), cudaMemcpyHostToDevice));
    CU(cudaMemcpy(d->tab, pl->tab, tab_bytes, cudaMemcpyHostToDevice));
    CU(cudaMemcpy(d->sol, pl->sol, sizeof(double) * AD4_NEINT, cudaMemcpyHostToDevice));
    CU(cudaMemcpyToSymbol(c_lig_hb, hb, sizeof hb));
    CU(cudaMemcpyToSymbol(c_lig_solpar, solpar, sizeof solpar));
    CU(cudaMemcpyToSymbol(c_lig_vol, vol, sizeof vol));

    CU(cudaDeviceSynchronize());
    vsg_profile_phase(&mark, "ad4 maps gpu: device memory and uploads");
    AParams P;
    memset(&P, 0, sizeof P);
    P.s = d->s, P.orig = d->orig, P.cell_start = d->cells, P.tab = d->tab, P.sol = d->sol, P.out = d->out;
    for (int k = 0; k < 3; k++) P.n[k] = n[k], P.ne[k] = ne[k], P.nc[k] = nc[k], P.corigin[k] = corigin[k];
    P.h = h, P.qasp = gpf->qasp, P.nmap = nmap, P.nrt = nrt;
    dim3 grid((n[0] + AB_X - 1) / AB_X, (n[1] + AB_Y - 1) / AB_Y, (n[2] + AB_Z - 1) / AB_Z);
    /* VSG_AD4_GROUP=4: four maps a launch (a benchmark switch, docs/PERFORMANCE.md) */
    const char *ge = getenv("VSG_AD4_GROUP");
    const int group = ge && atoi(ge) == 4 ? 4 : ge && atoi(ge) == 16 ? 16 : AB_GROUP;
    for (int m0 = 0; m0 < nmap; m0 += group) {
        const int ng = nmap - m0 < group ? nmap - m0 : group;
        if (ng <= 4) ad4_kernel<4><<<grid, AB_THREADS>>>(P, m0, ng, m0 == 0);
        else if (ng > 8) ad4_kernel<16><<<grid, AB_THREADS>>>(P, m0, ng, m0 == 0);
        else ad4_kernel<AB_GROUP><<<grid, AB_THREADS>>>(P, m0, ng, m0 == 0);
        LAUNCHED("ad4_kernel");
    }
    vsg_status st = VSG_OK; /* the kernels run while the host grids are finished */
    for (int m = 0; m <= nmap; m++) {
        out[m] = vsg_grid_ahead_finish(&H->ahead[m]);
        H->nfinished++;
        if (!out[m]) st = VSG_E_NOMEM;
        else if (m < nmap) st = vsg_grid_meta_add(out[m], "method", "ad4 affinity %s", gpf->ligand_types[m]);
        else st = vsg_grid_meta_add(out[m], "method", "ad4 desolvation");
        if (st != VSG_OK) return st;
    }
    vsg_profile_phase(&mark, "ad4 maps gpu: host grids (while the kernels run)");
    CU(cudaDeviceSynchronize());
    vsg_profile_phase(&mark, "ad4 maps gpu: kernels (what is left of them)");
    for (int m = 0; m <= nmap; m++)
        CU(cudaMemcpy(out[m]->data, d->out + (size_t)m * nodes, sizeof(float) * nodes, cudaMemcpyDeviceToHost));
    vsg_profile_phase(&mark, "ad4 maps gpu: maps to the host");
    return VSG_OK;
}

extern "C" vsg_status vsg_ad4_maps_gpu(const vsg_molecule *rec, const vsg_gpf *gpf, const vsg_ad4_params *p,
                                       int device, vsg_grid **out)
{
    Dev d;
    Host H;
    memset(&d, 0, sizeof d);
    memset(&H, 0, sizeof H);
    d.prev_device = -1;
    vsg_status st = run(rec, gpf, p, device, out, &d, &H);
    dev_release(&d);
    host_free(&H);
    if (st != VSG_OK && H.outs)
        for (int m = 0; m <= gpf->n_ligand_types; m++) {
            vsg_grid_free(out[m]);
            out[m] = NULL;
        }
    return st;
}
