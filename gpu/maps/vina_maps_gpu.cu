/* vina_maps_gpu.cu — the GPU twin of vsg_vina_maps_cpu (grids/maps/vina_maps.c): Vina and
 * Vinardo affinity maps, one per ligand XS type (vsgrid.h, "Vina and Vinardo maps").
 *
 * Work. Per node, a sum over the receptor atoms within 8 Å (~100–250 typed heavy atoms of a
 * protein) of one table value per ligand type. Per in-cutoff pair: 32 bytes of atom (shared
 * memory, a broadcast), ~10 double operations for r² and the bin, and `ntypes` 4-byte table
 * reads (scattered over the table: the bin differs per node); the output is 4 bytes per node and
 * type. So the work is pair-bound (operations and table gathers), not memory-bound: an 81³ grid
 * with 19 types is 40 MB of output against ~1e8 pairs × 19 lookups.
 *
 * Layout. A block of 256 threads owns a brick of 8 × 8 × 4 nodes, one thread per node; every
 * thread computes all the types of its node (registers) from one pass over the atoms. The
 * receptor atoms near the box are binned on the host into 4 Å cells (a counting sort, x fastest),
 * so a block visits only the cells within 8 Å of its brick: one contiguous range of the sorted
 * atoms per (y, z) cell row. The block stages those atoms, culled against its brick, into shared
 * memory in tiles, then every thread sums over the tile.
 *
 * Table. The CPU twin's table (vina_terms.c: 2049 bins over r² ≤ 64 at 1/32 Å², each the mean
 * of its two ends), formed on the device in double with the same operations (CUDA's exp is
 * within 1 ulp of glibc's) and stored in float, for each (receptor type present, ligand type
 * asked) pair, [receptor type][bin][ligand type]: a pair reads its ligand types side by side
 * as float4 (L1 hit rate 17% → 51% with 19 types, H200); read through the read-only cache (a
 * typical 10 receptor × 19 ligand types is 1.6 MB: too large for shared memory). Most of a
 * call is not the kernel (0.1–0.8 ms of 3–16 ms, ncu): the host's typing and cell list, and the
 * maps' host memory, which helper threads allocate and touch while the kernel runs.
 *
 * Precision. r² and the bin are computed in double exactly as the CPU twin forms them (node at
 * origin + h·i, dx = atom − node, r² = (dx² + dy²) + dz², explicitly rounded operations, never
 * contracted), so the GPU picks the CPU's bin and keeps or drops the CPU's atoms bit for bit;
 * the only difference is float table values (rel. 6e-8 each) summed in float instead of double:
 * measured in tests/test_gpu_vina_maps.c. The analytic mode (tabulated = 0) evaluates the
 * terms in double as vina_terms.c does.
 *
 * Device memory: 32 bytes per atom near the box, 4 per cell, the table (nrt × 2049 × ntypes × 4
 * bytes), and ntypes × 4 bytes per node of a z-slab (the whole grid when it fits the device's
 * free memory and the caller's limit; otherwise slabs of whole planes, each copied back before
 * the next). */
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
extern "C" {
#include "grids/maps/vina_terms.h"
}

#define VSG_CUDA_WHO "GPU Vina maps"
#include "gpu/device/cuda_check.h"
#include "gpu/device/dev_pool.cuh"
#include "gpu/maps/brick_stage.cuh"

#define VB_X 8
#define VB_Y 8
#define VB_Z 4
#define VB_THREADS (VB_X * VB_Y * VB_Z)
#define VB_TILE 1024      /* atoms staged per tile (32 KB of shared memory) */
#define VB_CELL 4.0       /* Å, host-side cell size */
#define VB_MAXT 20        /* ligand types per launch (registers); more go in several launches */
#define DEVICE_SLACK_BYTES (16.0 * 1048576.0)

static_assert(VB_THREADS % 32 == 0, "whole warps");
static_assert(VB_MAXT % 4 == 0, "float4 table reads");
static_assert(VB_TILE % VB_THREADS == 0, "staging passes");

struct __align__(16) VAtom {
    double x, y, z;
    int type; /* receptor type: compact index (table) or XS type (analytic) */
    int pad;
};

struct VParams {
    const VAtom *atoms;
    const int *cell_start; /* ncell + 1 entries */
    const float *table;    /* [nrt][bins][ntp]: a bin's types side by side */
    float *out;            /* [ntypes][slab nodes] */
    const int *lig;        /* ligand XS types of this launch (analytic mode) */
    const int *rt_xs;      /* compact receptor index → XS type (analytic mode) */
    int nx, ny, nz, z0, nzs;
    int ncx, ncy, ncz;
    double corigin[3];
    double origin[3], h[3];
    int t0, nt, ntp; /* types [t0, t0 + nt) of ntp */
    int nrt;         /* receptor types in the table */
    int scoring, tabulated;
};

/* ---- device code ---------------------------------------------------------------------------- */

__device__ __forceinline__ double ramp_d(double good, double bad, double x)
{
    if (x <= good) return 1.0;
    if (x >= bad) return 0.0;
    return (x - bad) / (good - bad);
}

__device__ __forceinline__ int hyd_d(int t) { return t == 0 || t == 12 || t == 13 || t == 14 || t == 15; }
__device__ __forceinline__ int acc_d(int t) { return t == 4 || t == 5 || t == 8 || t == 9; }
__device__ __forceinline__ int don_d(int t) { return t == 3 || t == 5 || t == 7 || t == 9 || t == 18; }

/* vina_terms.c's terms(), energy only (the same order of operations). */
__device__ double pair_energy_d(int vinardo, int a, int b, double r)
{
    const double rv[19] = {1.9, 1.9, 1.8, 1.8, 1.8, 1.8, 1.7, 1.7, 1.7, 1.7, 2.0, 2.1, 1.5, 1.8, 2.0, 2.2, 2.2, 2.3, 1.2};
    const double rd[19] = {2.0, 2.0, 1.7, 1.7, 1.7, 1.7, 1.6, 1.6, 1.6, 1.6, 2.0, 2.1, 1.5, 1.8, 2.0, 2.2, 2.2, 2.3, 1.2};
    if (r >= VSG_VINA_CUTOFF) return 0.0;
    const double *R = vinardo ? rd : rv;
    const double d = __dsub_rn(r, __dadd_rn(R[a], R[b]));
    const int hb = (don_d(a) && acc_d(b)) || (don_d(b) && acc_d(a));
    const double rep = d > 0.0 ? 0.0 : __dmul_rn(d, d);
    double e = 0.0;
    if (vinardo) {
        const double g = __ddiv_rn(d, 0.8);
        e = __dadd_rn(e, __dmul_rn(-0.045, exp(-__dmul_rn(g, g))));
        e = __dadd_rn(e, __dmul_rn(0.8, rep));
        e = __dadd_rn(e, __dmul_rn(-0.035, hyd_d(a) && hyd_d(b) ? ramp_d(0.0, 2.5, d) : 0.0));
        e = __dadd_rn(e, __dmul_rn(-0.600, hb ? ramp_d(-0.6, 0.0, d) : 0.0));
    } else {
        const double g1 = __ddiv_rn(d, 0.5), g2 = __ddiv_rn(__dsub_rn(r, __dadd_rn(__dadd_rn(R[a], R[b]), 3.0)), 2.0);
        e = __dadd_rn(e, __dmul_rn(-0.035579, exp(-__dmul_rn(g1, g1))));
        e = __dadd_rn(e, __dmul_rn(-0.005156, exp(-__dmul_rn(g2, g2))));
        e = __dadd_rn(e, __dmul_rn(0.840245, rep));
        e = __dadd_rn(e, __dmul_rn(-0.035069, hyd_d(a) && hyd_d(b) ? ramp_d(0.5, 1.5, d) : 0.0));
        e = __dadd_rn(e, __dmul_rn(-0.587439, hb ? ramp_d(-0.7, 0.0, d) : 0.0));
    }
    return e;
}

/* The CPU twin's table (vsg_vina_table_fill: the mean of the energy at r² = k/32 and (k+1)/32),
 * formed on the device in double with the same operations, stored in float; entries of the
 * padding types (t ≥ ntypes) are 0. One thread per (receptor type, bin, type). */
__global__ void table_kernel(float *table, const int *rt_xs, const int *lig, int nrt, int ntypes, int ntp, int scoring)
{
    const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x, n = (size_t)nrt * VSG_VINA_TABLE_BINS * ntp;
    if (i >= n) return;
    const int t = (int)(i % ntp), b = (int)(i / ntp % VSG_VINA_TABLE_BINS),
              r = (int)(i / ntp / VSG_VINA_TABLE_BINS);
    if (t >= ntypes) {
        table[i] = 0.f;
        return;
    }
    const int a = rt_xs[r], l = lig[t];
    const double lo = pair_energy_d(scoring, a, l, sqrt(b / VSG_VINA_TABLE_FACTOR));
    const double hi = pair_energy_d(scoring, a, l, sqrt((b + 1) / VSG_VINA_TABLE_FACTOR));
    table[i] = (float)(__dmul_rn(__dadd_rn(hi, lo), 0.5));
}

template <bool TAB>
__global__ void __launch_bounds__(VB_THREADS) vina_kernel(VParams p)
{
    __shared__ VAtom s_at[VB_TILE];
    __shared__ int s_wc[VB_THREADS / 32];
    const int tid = threadIdx.x;
    const int bx = blockIdx.x * VB_X, by = blockIdx.y * VB_Y, bz = blockIdx.z * VB_Z;
    const int ix = bx + (tid % VB_X), iy = by + (tid / VB_X) % VB_Y, izl = bz + tid / (VB_X * VB_Y);
    const int iz = p.z0 + izl;
    const bool mine = ix < p.nx && iy < p.ny && izl < p.nzs;
    /* the node as the CPU twin forms it */
    const double px = __dadd_rn(p.origin[0], __dmul_rn(p.h[0], (double)ix));
    const double py = __dadd_rn(p.origin[1], __dmul_rn(p.h[1], (double)iy));
    const double pz = __dadd_rn(p.origin[2], __dmul_rn(p.h[2], (double)iz));
    /* the brick's extent (clamped to the grid) and the cells within reach */
    double lo[3], hi[3];
    {
        const int b0[3] = {bx, by, p.z0 + bz};
        const int b1[3] = {min(bx + VB_X - 1, p.nx - 1), min(by + VB_Y - 1, p.ny - 1),
                           p.z0 + min(bz + VB_Z - 1, p.nzs - 1)};
        for (int c = 0; c < 3; c++) {
            lo[c] = p.origin[c] + p.h[c] * b0[c];
            hi[c] = p.origin[c] + p.h[c] * b1[c];
        }
    }
    const double reach = VSG_VINA_CUTOFF + 1e-3, reach2 = reach * reach;
    const int nc[3] = {p.ncx, p.ncy, p.ncz};
    int c0[3], c1[3];
    for (int c = 0; c < 3; c++) {
        c0[c] = max(0, (int)floor((lo[c] - reach - p.corigin[c]) / VB_CELL));
        c1[c] = min(nc[c] - 1, (int)floor((hi[c] + reach - p.corigin[c]) / VB_CELL));
    }
    float acc[VB_MAXT];
#pragma unroll
    for (int t = 0; t < VB_MAXT; t++) acc[t] = 0.f;

    int cnt = 0;
    const int nrows_y = c1[1] - c0[1] + 1;
    const int nrows = c1[0] >= c0[0] && c1[1] >= c0[1] && c1[2] >= c0[2] ? nrows_y * (c1[2] - c0[2] + 1) : 0;
    for (int row = 0; row <= nrows; row++) {
        const bool last = row == nrows;
        int a0 = 0, a1 = 0;
        if (!last) {
            const int cy = c0[1] + row % nrows_y, cz = c0[2] + row / nrows_y;
            const int cb = (cz * p.ncy + cy) * p.ncx;
            a0 = __ldg(p.cell_start + cb + c0[0]);
            a1 = __ldg(p.cell_start + cb + c1[0] + 1);
        }
        for (int base = a0;; base += VB_THREADS) {
            /* flush a tile that could overflow, and at the end */
            if (cnt > VB_TILE - VB_THREADS || (last && cnt > 0)) {
                for (int i = 0; i < cnt; i++) {
                    const VAtom A = s_at[i];
                    const double dx = __dsub_rn(A.x, px), dy = __dsub_rn(A.y, py), dz = __dsub_rn(A.z, pz);
                    const double r2 = __dadd_rn(__dadd_rn(__dmul_rn(dx, dx), __dmul_rn(dy, dy)), __dmul_rn(dz, dz));
                    if (!(r2 > VSG_VINA_CUTOFF * VSG_VINA_CUTOFF)) {
                        if (TAB) {
                            const int bin = (int)(VSG_VINA_TABLE_FACTOR * r2);
                            /* the types of one (receptor type, bin) lie side by side: a pair
                             * reads ⌈nt/4⌉ float4 from one or two sectors, not nt scattered floats */
                            const float4 *tb = reinterpret_cast<const float4 *>(
                                p.table + ((size_t)A.type * VSG_VINA_TABLE_BINS + bin) * p.ntp + p.t0);
#pragma unroll
                            for (int k = 0; k < VB_MAXT / 4; k++)
                                if (4 * k < p.nt) {
                                    const float4 e = __ldg(tb + k);
                                    acc[4 * k] += e.x, acc[4 * k + 1] += e.y, acc[4 * k + 2] += e.z, acc[4 * k + 3] += e.w;
                                }
                        } else {
                            const double r = sqrt(r2);
#pragma unroll
                            for (int t = 0; t < VB_MAXT; t++)
                                if (t < p.nt)
                                    acc[t] += (float)pair_energy_d(p.scoring, p.rt_xs[A.type], p.lig[p.t0 + t], r);
                        }
                    }
                }
                __syncthreads();
                cnt = 0;
            }
            if (last || base >= a1) break;
            /* stage up to VB_THREADS atoms of the range, culled against the brick */
            cnt = brick_stage<VB_THREADS>(s_at, s_wc, cnt, base, a1, lo, hi, reach2,
                                          [&](int j, VAtom *A, double q[3]) {
                                              *A = p.atoms[j];
                                              q[0] = A->x, q[1] = A->y, q[2] = A->z;
                                          });
        }
    }
    if (mine) {
        const size_t slab = (size_t)p.nx * p.ny * p.nzs;
        const size_t idx = (size_t)ix + (size_t)p.nx * ((size_t)iy + (size_t)p.ny * izl);
#pragma unroll
        for (int t = 0; t < VB_MAXT; t++)
            if (t < p.nt) p.out[(size_t)t * slab + idx] = acc[t];
    }
}

/* ---- host code ------------------------------------------------------------------------------ */

struct Run {
    VAtom *atoms;
    int *cells, *lig, *rt;
    float *table, *out;
    cudaStream_t stream;
    int prev_device;
};

static void release(Run *d)
{
    if (d->atoms) cudaFree(d->atoms);
    if (d->cells) cudaFree(d->cells);
    if (d->lig) cudaFree(d->lig);
    if (d->rt) cudaFree(d->rt);
    if (d->table) cudaFree(d->table);
    if (d->out) cudaFree(d->out);
    if (d->stream) cudaStreamDestroy(d->stream);
    (void)cudaGetLastError();
    if (d->prev_device >= 0) (void)cudaSetDevice(d->prev_device);
    (void)cudaGetLastError();
}

struct Host {
    VAtom *atoms, *sorted;
    int *cell, *start;
    float *table;
    double *dtab;
    /* the maps, allocated and first touched by helper threads while the GPU works (a fresh
     * 40 MB set touched page by page by the copy took most of a 30 Å call) */
    vsg_grid_ahead *ahead;
    int nahead, nfinished;
};

static void host_free(Host *h)
{
    for (int t = h->nfinished; t < h->nahead; t++) vsg_grid_free(vsg_grid_ahead_finish(&h->ahead[t]));
    free(h->ahead);
    free(h->atoms), free(h->sorted), free(h->cell), free(h->start), free(h->table), free(h->dtab);
}

static vsg_status run(const vsg_molecule *receptor, const vsg_vina_box *box, const vsg_vina_params *p,
                      const vsg_xs_type *types, int ntypes, int device, double max_bytes, vsg_grid **maps, Run *d,
                      Host *H)
{
    /* Arguments, typing and the output grids: the CPU twin's own checks (an empty call would
     * cost the whole map), so the statuses and messages are the same. Validate cheaply first. */
    const int count = vsg_gpu_count();
    if (count == 0) return vsg_fail(VSG_E_DEVICE, "GPU Vina maps: no CUDA device (no GPU or no driver)");
    const int dev = device < 0 ? 0 : device;
    if (dev >= count)
        return vsg_fail(VSG_E_DEVICE, "GPU Vina maps: GPU %d requested, %d CUDA device%s found", dev, count,
                        count == 1 ? "" : "s");
    /* Geometry, checks and empty maps with the metadata: a CPU twin call on an empty receptor
     * would do it but compute; build the same grids here instead. */
    int n[3];
    double origin[3], hsp[3];
    for (int k = 0; k < 3; k++) {
        if (!(box->spacing > 0.0) || !isfinite(box->spacing))
            return vsg_fail(VSG_E_ARG, "Vina maps: spacing %g Å must be finite and > 0", box->spacing);
        if (!isfinite(box->center[k])) return vsg_fail(VSG_E_ARG, "Vina maps: box center is not finite");
        if (!(box->size[k] > 0.0) || !isfinite(box->size[k]))
            return vsg_fail(VSG_E_ARG, "Vina maps: empty box: size along %c is %g Å (must be > 0)", "xyz"[k],
                            box->size[k]);
        double v = ceil(box->size[k] / box->spacing);
        if (v > 2147483600.0) return vsg_fail(VSG_E_LIMIT, "Vina maps: %.0f voxels along %c", v, "xyz"[k]);
        long voxels = (long)v;
        if (voxels % 2) voxels++;
        double span = box->spacing * (double)voxels;
        double begin = box->center[k] - span / 2.0, end = begin + span;
        n[k] = (int)voxels + 1;
        origin[k] = begin;
        hsp[k] = 1.0 / ((double)voxels / (end - begin));
    }
    if ((double)n[0] * (double)n[1] * (double)n[2] * (double)sizeof(float) > (double)SIZE_MAX / 2)
        return vsg_fail(VSG_E_LIMIT, "Vina maps: %d x %d x %d nodes exceed the address space", n[0], n[1], n[2]);
    if (n[0] > 65535 * VB_X || n[1] > 65535 * VB_Y)
        return vsg_fail(VSG_E_LIMIT, "GPU Vina maps: %d x %d nodes a plane is past the launch limits", n[0], n[1]);

    const size_t na = receptor->n;
    vsg_xs_type *xs = (vsg_xs_type *)malloc((na ? na : 1) * sizeof *xs);
    if (!xs) return vsg_fail(VSG_E_NOMEM, "Vina maps: out of memory");
    vsg_status st = vsg_xs_assign(receptor, xs);
    if (st != VSG_OK) {
        free(xs);
        return st;
    }
    H->ahead = (vsg_grid_ahead *)malloc((size_t)ntypes * sizeof *H->ahead);
    if (!H->ahead) {
        free(xs);
        return vsg_fail(VSG_E_NOMEM, "Vina maps: out of memory");
    }
    for (int t = 0; t < ntypes; t++) vsg_grid_ahead_start(&H->ahead[t], n, origin, hsp[0], "kcal/mol"), H->nahead++;

    /* Atoms with a type within reach of the box, compact receptor types, cells. */
    int rmap[VSG_XS_COUNT], rt_xs[VSG_XS_COUNT], nrt = 0;
    for (int t = 0; t < VSG_XS_COUNT; t++) rmap[t] = -1, rt_xs[t] = 0;
    H->atoms = (VAtom *)malloc((na ? na : 1) * sizeof(VAtom));
    if (!H->atoms) {
        free(xs);
        return vsg_fail(VSG_E_NOMEM, "Vina maps: out of memory");
    }
    const double c2 = VSG_VINA_CUTOFF * VSG_VINA_CUTOFF;
    double blo[3], bhi[3];
    for (int k = 0; k < 3; k++) blo[k] = origin[k], bhi[k] = origin[k] + hsp[k] * (n[k] - 1);
    size_t nr = 0;
    for (size_t i = 0; i < na; i++) {
        if (xs[i] == VSG_XS_NONE) continue;
        const double q[3] = {receptor->atoms[i].x, receptor->atoms[i].y, receptor->atoms[i].z};
        double dd = 0.0;
        for (int k = 0; k < 3; k++) {
            double e = q[k] < blo[k] ? blo[k] - q[k] : q[k] > bhi[k] ? q[k] - bhi[k] : 0.0;
            dd += e * e;
        }
        if (!(dd <= c2)) continue;
        if (rmap[xs[i]] < 0) rt_xs[nrt] = xs[i], rmap[xs[i]] = nrt++;
        VAtom *A = &H->atoms[nr++];
        A->x = q[0], A->y = q[1], A->z = q[2], A->type = rmap[xs[i]], A->pad = 0;
    }
    free(xs);
    if (nr > (size_t)INT32_MAX / 2) return vsg_fail(VSG_E_LIMIT, "GPU Vina maps: %zu atoms near the box", nr);
    double corigin[3];
    int nc[3];
    for (int k = 0; k < 3; k++) {
        corigin[k] = blo[k] - VSG_VINA_CUTOFF - 1.0;
        nc[k] = (int)ceil((bhi[k] - blo[k] + 2 * VSG_VINA_CUTOFF + 2.0) / VB_CELL) + 1;
    }
    if ((double)nc[0] * nc[1] * nc[2] > 1e8) return vsg_fail(VSG_E_LIMIT, "GPU Vina maps: box too large for the cell list");
    const size_t ncell = (size_t)nc[0] * nc[1] * nc[2];
    H->cell = (int *)malloc((nr ? nr : 1) * sizeof(int));
    H->start = (int *)calloc(ncell + 1, sizeof(int));
    H->sorted = (VAtom *)malloc((nr ? nr : 1) * sizeof(VAtom));
    if (!H->cell || !H->start || !H->sorted) return vsg_fail(VSG_E_NOMEM, "Vina maps: out of memory");
    for (size_t i = 0; i < nr; i++) {
        const double q[3] = {H->atoms[i].x, H->atoms[i].y, H->atoms[i].z};
        int ci[3];
        for (int k = 0; k < 3; k++) {
            int c = (int)floor((q[k] - corigin[k]) / VB_CELL);
            ci[k] = c < 0 ? 0 : c >= nc[k] ? nc[k] - 1 : c;
        }
        H->cell[i] = (ci[2] * nc[1] + ci[1]) * nc[0] + ci[0];
        H->start[H->cell[i] + 1]++;
    }
    for (size_t c = 0; c < ncell; c++) H->start[c + 1] += H->start[c];
    {
        int *fill = (int *)malloc((ncell ? ncell : 1) * sizeof(int));
        if (!fill) return vsg_fail(VSG_E_NOMEM, "Vina maps: out of memory");
        memcpy(fill, H->start, ncell * sizeof(int));
        for (size_t i = 0; i < nr; i++) H->sorted[fill[H->cell[i]]++] = H->atoms[i]; /* file order within a cell */
        free(fill);
    }

    /* Table [rt][bin][type] in float (filled on the device); padding types up to a multiple
     * of 4 are zero. */
    const int ntp = (ntypes + 3) / 4 * 4;
    const size_t tab_n = p->tabulated ? (size_t)(nrt ? nrt : 1) * VSG_VINA_TABLE_BINS * ntp : 4;

    /* Device: memory budget, slabs. */
    CU(cudaGetDevice(&d->prev_device));
    CU(cudaSetDevice(dev));
    pool_trim(dev);
    size_t fr = 0, tot = 0;
    CU(cudaMemGetInfo(&fr, &tot));
    double budget = (double)fr - DEVICE_SLACK_BYTES;
    if (max_bytes > 0 && max_bytes < budget) budget = max_bytes;
    const double fixed = (double)nr * sizeof(VAtom) + (double)(ncell + 1) * sizeof(int) + (double)tab_n * sizeof(float) +
                         (double)(ntypes + VSG_XS_COUNT) * sizeof(int);
    const size_t plane = (size_t)n[0] * n[1];
    const double per_plane = (double)plane * ntypes * sizeof(float);
    double fit = floor((budget - fixed) / per_plane);
    if (fit < 1)
        return vsg_fail(VSG_E_LIMIT, "GPU Vina maps: %.0f MB for atoms, table and one plane of %d types; %.0f MB allowed",
                        (fixed + per_plane) / 1048576.0, ntypes, budget / 1048576.0);
    int nzs = fit >= n[2] ? n[2] : (int)fit;
    if (nzs > VB_Z * 65535) nzs = VB_Z * 65535;
    if (nzs > VB_Z) nzs -= nzs % VB_Z;

    CU(cudaStreamCreateWithFlags(&d->stream, cudaStreamNonBlocking));
    CU(cudaMalloc((void **)&d->atoms, (nr ? nr : 1) * sizeof(VAtom)));
    CU(cudaMalloc((void **)&d->cells, (ncell + 1) * sizeof(int)));
    CU(cudaMalloc((void **)&d->table, tab_n * sizeof(float)));
    CU(cudaMalloc((void **)&d->lig, ntypes * sizeof(int)));
    CU(cudaMalloc((void **)&d->rt, VSG_XS_COUNT * sizeof(int)));
    CU(cudaMalloc((void **)&d->out, (size_t)nzs * plane * ntypes * sizeof(float)));
    int lig[VSG_XS_COUNT * 64];
    int *ligp = ntypes <= (int)(sizeof lig / sizeof lig[0]) ? lig : (int *)malloc(ntypes * sizeof(int));
    if (!ligp) return vsg_fail(VSG_E_NOMEM, "Vina maps: out of memory");
    for (int t = 0; t < ntypes; t++) ligp[t] = types[t];
    cudaError_t e1 = cudaMemcpyAsync(d->lig, ligp, ntypes * sizeof(int), cudaMemcpyHostToDevice, d->stream);
    if (e1 == cudaSuccess) e1 = cudaStreamSynchronize(d->stream);
    if (ligp != lig) free(ligp);
    if (e1 != cudaSuccess) return cuda_fail("cudaMemcpyAsync(ligand types)", e1);
    if (nr) CU(cudaMemcpyAsync(d->atoms, H->sorted, nr * sizeof(VAtom), cudaMemcpyHostToDevice, d->stream));
    CU(cudaMemcpyAsync(d->cells, H->start, (ncell + 1) * sizeof(int), cudaMemcpyHostToDevice, d->stream));
    CU(cudaMemcpyAsync(d->rt, rt_xs, VSG_XS_COUNT * sizeof(int), cudaMemcpyHostToDevice, d->stream));
    if (p->tabulated && nrt > 0) {
        table_kernel<<<(unsigned)((tab_n + 255) / 256), 256, 0, d->stream>>>(d->table, d->rt, d->lig, nrt, ntypes, ntp,
                                                                             (int)p->scoring);
        LAUNCHED("table_kernel");
    }

    VParams P;
    memset(&P, 0, sizeof P);
    P.atoms = d->atoms, P.cell_start = d->cells, P.table = d->table, P.out = d->out, P.lig = d->lig, P.rt_xs = d->rt;
    P.nx = n[0], P.ny = n[1], P.nz = n[2];
    P.ncx = nc[0], P.ncy = nc[1], P.ncz = nc[2];
    for (int k = 0; k < 3; k++) P.corigin[k] = corigin[k], P.origin[k] = origin[k], P.h[k] = hsp[k];
    P.ntp = ntp, P.nrt = nrt, P.scoring = p->scoring, P.tabulated = p->tabulated;
    for (int z0 = 0; z0 < n[2]; z0 += nzs) {
        const int zs = n[2] - z0 < nzs ? n[2] - z0 : nzs;
        P.z0 = z0, P.nzs = zs;
        const dim3 grid((n[0] + VB_X - 1) / VB_X, (n[1] + VB_Y - 1) / VB_Y, (zs + VB_Z - 1) / VB_Z);
        for (int t0 = 0; t0 < ntypes; t0 += VB_MAXT) {
            P.t0 = t0, P.nt = ntypes - t0 < VB_MAXT ? ntypes - t0 : VB_MAXT;
            P.out = d->out + (size_t)t0 * plane * zs;
            if (p->tabulated) vina_kernel<true><<<grid, VB_THREADS, 0, d->stream>>>(P);
            else vina_kernel<false><<<grid, VB_THREADS, 0, d->stream>>>(P);
            LAUNCHED("vina_kernel");
        }
        for (int t = H->nfinished; t < ntypes; t++) { /* while the first slab's kernels run */
            maps[t] = vsg_grid_ahead_finish(&H->ahead[t]);
            H->nfinished++;
            vsg_status st2 = VSG_OK;
            if (!maps[t]) st2 = vsg_fail(VSG_E_NOMEM, "Vina maps: no memory for %d x %d x %d nodes", n[0], n[1], n[2]);
            else {
                for (int k = 0; k < 3; k++) maps[t]->spacing[k] = hsp[k];
                if ((st2 = vsg_grid_meta_add(maps[t], "method", "%s", p->scoring ? "vinardo" : "vina")) == VSG_OK &&
                    (st2 = vsg_grid_meta_add(maps[t], "xs_type", "%s", vsg_xs_type_name(types[t]))) == VSG_OK)
                    st2 = vsg_grid_meta_add(maps[t], "vina_table", "%s", p->tabulated ? "tabulated" : "analytic");
            }
            if (st2 != VSG_OK) return st2;
        }
        for (int t = 0; t < ntypes; t++)
            CU(cudaMemcpyAsync(maps[t]->data + plane * z0, d->out + (size_t)t * plane * zs, plane * zs * sizeof(float),
                               cudaMemcpyDeviceToHost, d->stream));
        CU(cudaStreamSynchronize(d->stream));
    }
    return VSG_OK;
}

extern "C" vsg_status vsg_vina_maps_gpu(const vsg_molecule *receptor, const vsg_vina_box *box,
                                        const vsg_vina_params *p, const vsg_xs_type *types, int ntypes, int device,
                                        double max_gpu_memory_bytes, vsg_grid **maps)
{
    if (!receptor || !box || !p || !types || !maps) return vsg_fail(VSG_E_ARG, "vsg_vina_maps_gpu: NULL argument");
    if (ntypes < 1) return vsg_fail(VSG_E_ARG, "vsg_vina_maps_gpu: no ligand types asked for");
    for (int t = 0; t < ntypes; t++) maps[t] = NULL;
    if (p->scoring != VSG_VINA_SCORING_VINA && p->scoring != VSG_VINA_SCORING_VINARDO)
        return vsg_fail(VSG_E_ARG, "vsg_vina_maps_gpu: unknown scoring %d", (int)p->scoring);
    for (int t = 0; t < ntypes; t++)
        if ((int)types[t] < 0 || types[t] >= VSG_XS_COUNT)
            return vsg_fail(VSG_E_ARG, "vsg_vina_maps_gpu: ligand type %d is not an XS type", (int)types[t]);
    Run d;
    memset(&d, 0, sizeof d);
    d.prev_device = -1;
    Host H;
    memset(&H, 0, sizeof H);
    vsg_status st = run(receptor, box, p, types, ntypes, device, max_gpu_memory_bytes, maps, &d, &H);
    release(&d);
    host_free(&H);
    if (st != VSG_OK)
        for (int t = 0; t < ntypes; t++) vsg_grid_free(maps[t]), maps[t] = NULL;
    return st;
}
