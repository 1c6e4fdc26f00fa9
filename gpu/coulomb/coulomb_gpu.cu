/* coulomb.cu — the GPU twin of vsg_coulomb_cpu (grids/coulomb/coulomb.c): the direct Coulomb potential
 * φ(p) = Σ_i q_i f(|p − r_i|) on every grid node, for the kernels of vsgrid.h ("Coulomb and AutoGrid electrostatic maps").
 *
 * Layout. A block of CB_THREADS threads owns a brick of CB_PX × CB_TY × CB_TZ nodes; each thread
 * owns CB_PX consecutive nodes along x (registers), so per atom dy² + dz² is formed once and each
 * node costs one subtraction, one FMA, one clamp, one special-function op (rsqrtf, or rcp for
 * ε = 4r) and one FMA. Atoms stream through shared memory in tiles of CB_TILE as float4
 * (x, y, z, w), every thread of a warp reading the same atom (a broadcast, no bank conflicts).
 * In the Coulomb model the special-function unit is the limit: 16 ops/clock/SM on Hopper, so at
 * best 132 × 16 × 1.98 GHz ≈ 4.2e12 atom-evaluations/s on an H100 SXM.
 *
 * Precision. Positions are float relative to the centre of the block's brick (the atom's offset
 * is formed in double when the tile is staged), so a nearby atom's distance carries an error of
 * ~1e-7 Å, not ~1e-6 Å as in grid-wide float coordinates. Each tile's sum is float (≤ 256
 * terms), the sum over tiles is double per node, so the result is within ~1e-6 of the double
 * CPU twin relative to the largest |φ| (tests/test_gpu_coulomb.c).
 *
 * Discontinuities. The AutoGrid table (f = table[⌊r·per_a⌋]/r) and the cutoff jump where r
 * crosses a bin edge or the cutoff; a float distance can land on the other side of an edge than
 * the CPU's double one (near an atom a bin of the Mehler–Solmajer table is worth ~2% of the
 * term). The float path therefore bounds its own error and, for the rare pairs within that bound
 * of an edge, recomputes the term in double exactly as the CPU forms it (atom and node relative
 * to the box centre, the node at (i − (n−1)/2)·h, r² = dx² + dy² + dz², the cutoff on r², the
 * bin ⌊r·per_a⌋ from the unclamped r as AutoGrid does, only 1/r clamped; explicitly rounded
 * operations, never contracted), so the GPU picks the CPU's bin and keeps or drops the CPU's
 * atoms bit for bit.
 *
 * Device memory: 32 bytes per charged atom, 4 per table entry, 4 per node of a z-slab (the whole
 * grid when it fits; larger grids go in slabs of whole planes, each copied back before the next).
 */
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grids/formats/grid.h"
#include "grids/receptor/molecule.h"
#include "grids/base/vsgrid.h"
#include "gpu/device/gpu.h"
extern "C" {
}

#define VSG_CUDA_WHO "GPU Coulomb grid"
#include "gpu/device/cuda_check.h"
#include "gpu/device/dev_pool.cuh"
#include "gpu/device/device_prop.cuh"

/* ---- tuning constants ----------------------------------------------------------------------
 * CB_PX nodes per thread along x (registers: a float and a double accumulator and the local x
 * of each): 8 amortises the per-atom loads and dy² + dz² over 8 evaluations and gives 8
 * independent dependency chains. CB_TY × CB_TZ threads per block (y fastest, so a warp covers
 * 8 × 4 nodes in y, z: compact, which keeps a warp's table lookups in few banks). The brick is
 * 8 × 8 × 16 nodes: small enough that positions relative to its centre are accurate, and on odd
 * grids (161³) 84% of the threads have a node. CB_TILE atoms per shared-memory tile (4 KB of
 * float4 + 1 KB of indices), the number of float terms summed before the double accumulation.
 * Tables up to CB_TABLE_SMEM_BYTES (after trimming to the largest reachable distance) are copied
 * to shared memory per block (AutoGrid's 16384 entries at most 64 KB: 3 blocks per SM; a 60 Å
 * box reaches ~105 Å, 42 KB), larger ones are read through the read-only cache.
 * CB_SLAB_POINTS caps the nodes of one launch (128 MB of output), so larger grids go in
 * z-slabs. Retune with scripts/bench_coulomb on the target GPU. */
#define CB_PX 8
#define CB_TY 8
#define CB_TZ 16
#define CB_TILE 256
#define CB_TABLE_SMEM_BYTES (64 * 1024)
#define CB_SLAB_POINTS ((size_t)1 << 25)

#define CB_THREADS (CB_TY * CB_TZ)
#define CB_WARPS (CB_THREADS / 32)
static_assert(CB_THREADS % 32 == 0, "the staging prefix sum assumes whole warps");
static_assert(CB_TILE % CB_THREADS == 0 && CB_TILE >= CB_THREADS, "a staging pass stages one atom per thread");
static_assert(CB_PX <= 32, "slow-path flags are one bit per node");

/* cudaMalloc rounds allocations up: margin for the memory test (as in sor_gpu.cu). */
#define DEVICE_SLACK_BYTES (16.0 * 1048576.0)
/* Most table entries: the float path's t ≤ tab_n − 0.75 must stay below 2^22 for the 2^23 trick
 * and be exact in float. */
#define CB_TABLE_MAX (1 << 22)

/* Mehler & Solmajer (1991) as in AutoGrid4 (calc_ddd_Mehler_Solmajer):
 * ε(r) = A + B / (1 + k e^{−λ B r}), B = ε0 − A. Must match grids/coulomb/coulomb.c: the GPU test
 * compares the two, so a drift fails there. (coulomb.c's guard ε < 1e-6 → 1 never fires for
 * r ≥ 0: ε(0) = 1.35 is the minimum.) */
#define MS_LAMBDA 0.003627
#define MS_EPS0 78.4
#define MS_A (-8.5525)
#define MS_B (MS_EPS0 - MS_A)
#define MS_K 7.7839

enum { M_CONST = 0, M_R4 = 1, M_MS = 2, M_TABLE = 3 };

/* 1: AutoGrid-table pairs are all evaluated in double, exactly as the CPU twin (see the note in
 * the kernel); 0: only pairs within the float error bound of a bin edge. */
#ifndef CB_TABLE_ALWAYS_EXACT
#define CB_TABLE_ALWAYS_EXACT 0
#endif

/* One charged atom: position relative to the grid's centre (Å, double, formed as the CPU twin
 * forms it) and w = q × the model's prefactor. */
struct __align__(32) Atom {
    double x, y, z, w;
};

/* Everything a launch needs, by value (no __constant__ state, so concurrent calls on one device
 * cannot overwrite each other's parameters). */
struct Params {
    const Atom *atoms;
    const float *table;  /* global copy; TABLE mode */
    float *out;          /* the slab: nx × ny × nzs floats */
    int natoms, nx, ny, nzs, z0;
    int tab_n;           /* entries on the device (trimmed) */
    double half[3], h[3]; /* (n − 1)/2 per axis: node i sits at (i − half)·h from the centre */
    float hf[3];
    float rmin2;         /* analytic models: r² clamped below at rmin² */
    float inv_rmin;      /* table mode: 1/max(r, rmin) = min(1/r, 1/rmin) */
    double rmin, cut2d, per_a;
    /* table bins: t = r·per_a clamped to [0.5, t_max], t_max = tab_n − 0.75; a pair is
     * recomputed in double when t is within t·band_c1 + band_c0 of an integer */
    float per_a_f, band_c1, half_minus_c0, t_max;
    /* cutoff: r² > cut2 is dropped; |r² − cut2| ≤ cut_band is decided in double */
    float cut2, cut_band;
    float cull2;         /* per-block culling: atoms farther than this from the brick are skipped */
    float ms_k, ms_a, ms_b, ms_c2; /* ε_MS in float: k, A, B, −λB/ln 2 */
};

/* ---- device code ---------------------------------------------------------------------------- */

__device__ __forceinline__ float *dyn_table()
{
    extern __shared__ float cb_dyn[];
    return cb_dyn;
}

__device__ __forceinline__ Atom load_atom(const Atom *a)
{
    const double2 *p = reinterpret_cast<const double2 *>(a);
    const double2 u = __ldg(p), v = __ldg(p + 1);
    Atom r;
    r.x = u.x;
    r.y = u.y;
    r.z = v.x;
    r.w = v.y;
    return r;
}

/* The term of atom ja at node (ix, iy, iz) in double, formed as the CPU twin (coulomb.c) forms
 * it: node at (i − half)·h from the centre, d = atom − node, r² = dx² + dy² + dz² left to right,
 * dropped when r² > cutoff², r = sqrt(r²), the bin from the unclamped r, r clamped at rmin for
 * the rest. Rounded operations are explicit so that nothing is fused into an FMA: r² is the
 * CPU's to the bit. Only for the rare pairs near a bin edge or the cutoff; called once per
 * flagged pair from a loop over the flags, so the hot loop holds one copy per unrolled atom. */
template <int MODE, bool CUT>
__device__ __forceinline__ float exact_term(const Params &p, const float *tab, int ja, int ix, int iy, int iz)
{
    const Atom a = load_atom(p.atoms + ja);
    const double px = __dmul_rn((double)ix - p.half[0], p.h[0]);
    const double py = __dmul_rn((double)iy - p.half[1], p.h[1]);
    const double pz = __dmul_rn((double)iz - p.half[2], p.h[2]);
    const double dx = __dsub_rn(a.x, px), dy = __dsub_rn(a.y, py), dz = __dsub_rn(a.z, pz);
    const double r2 = __dadd_rn(__dadd_rn(__dmul_rn(dx, dx), __dmul_rn(dy, dy)), __dmul_rn(dz, dz));
    if (CUT && r2 > p.cut2d) return 0.0f;
    const double r = __dsqrt_rn(r2);
    const double rc = r < p.rmin ? p.rmin : r;
    double f;
    if (MODE == M_TABLE) {
        const double t = __dmul_rn(r, p.per_a);
        const int i = t < (double)(p.tab_n - 1) ? (int)t : p.tab_n - 1;
        f = (double)tab[i] / rc;
    } else if (MODE == M_CONST) {
        f = 1.0 / rc;
    } else if (MODE == M_R4) {
        f = 1.0 / (rc * rc);
    } else {
        const double eps = MS_A + MS_B / (1.0 + MS_K * exp(-MS_LAMBDA * MS_B * rc));
        f = 1.0 / (rc * eps);
    }
    return (float)(a.w * f);
}

/* One block: its brick of nodes against every atom, tile by tile. */
template <int MODE, bool CUT, bool TSM>
__global__ void __launch_bounds__(CB_THREADS) coulomb_tiles(const __grid_constant__ Params p)
{
    constexpr bool SLOW = MODE == M_TABLE || CUT; /* has pairs decided in double */
    __shared__ float4 s_at[CB_TILE];
    __shared__ int s_idx[CB_TILE];
    __shared__ int s_wc[CB_WARPS];

    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const int ty = tid % CB_TY, tz = tid / CB_TY;
    const int x0 = blockIdx.x * CB_PX;
    const int iy = blockIdx.y * CB_TY + ty;
    const int izs = blockIdx.z * CB_TZ + tz; /* plane within the slab */
    const int iz = p.z0 + izs;

    /* The brick's centre (from the grid's centre, double); nodes relative to it in float (exact
     * half-integers × h). */
    const double cx = ((double)x0 + 0.5 * (CB_PX - 1) - p.half[0]) * p.h[0];
    const double cy = ((double)(blockIdx.y * CB_TY) + 0.5 * (CB_TY - 1) - p.half[1]) * p.h[1];
    const double cz = ((double)(p.z0 + blockIdx.z * CB_TZ) + 0.5 * (CB_TZ - 1) - p.half[2]) * p.h[2];
    const float ly = ((float)ty - 0.5f * (CB_TY - 1)) * p.hf[1];
    const float lz = ((float)tz - 0.5f * (CB_TZ - 1)) * p.hf[2];
    float lx[CB_PX];
#pragma unroll
    for (int k = 0; k < CB_PX; k++) lx[k] = ((float)k - 0.5f * (CB_PX - 1)) * p.hf[0];
    /* half-extents of the brick, for culling */
    const float ex = 0.5f * (CB_PX - 1) * p.hf[0], ey = 0.5f * (CB_TY - 1) * p.hf[1],
                ez = 0.5f * (CB_TZ - 1) * p.hf[2];

    const float *tab = p.table;
    if (TSM) {
        float *st = dyn_table();
        for (int i = tid; i < p.tab_n; i += CB_THREADS) st[i] = p.table[i];
        tab = st; /* visible after the first staging barrier */
    }

    double accd[CB_PX];
#pragma unroll
    for (int k = 0; k < CB_PX; k++) accd[k] = 0.0;

    for (int base = 0; base < p.natoms;) {
        /* Stage up to CB_TILE atoms, one per thread per pass, compacted in atom order (culled
         * ones dropped; the order is fixed, so results repeat bit for bit). */
        int cnt = 0;
        while (cnt <= CB_TILE - CB_THREADS && base < p.natoms) {
            const int j = base + tid;
            bool keep = false;
            float4 loc = make_float4(0.f, 0.f, 0.f, 0.f);
            if (j < p.natoms) {
                const Atom a = load_atom(p.atoms + j);
                loc = make_float4((float)(a.x - cx), (float)(a.y - cy), (float)(a.z - cz), (float)a.w);
                keep = true;
                if (CUT) {
                    const float gx = fmaxf(fabsf(loc.x) - ex, 0.f), gy = fmaxf(fabsf(loc.y) - ey, 0.f),
                                gz = fmaxf(fabsf(loc.z) - ez, 0.f);
                    keep = !(gx * gx + gy * gy + gz * gz > p.cull2); /* NaN positions are kept */
                }
            }
            const unsigned bal = __ballot_sync(0xffffffffu, keep);
            if (lane == 0) s_wc[warp] = __popc(bal);
            __syncthreads();
            int off = cnt, tot = 0;
#pragma unroll
            for (int w = 0; w < CB_WARPS; w++) {
                const int c = s_wc[w];
                off += w < warp ? c : 0;
                tot += c;
            }
            if (keep) {
                const int s = off + __popc(bal & ((1u << lane) - 1u));
                s_at[s] = loc;
                if (SLOW) s_idx[s] = j;
            }
            cnt += tot;
            base += CB_THREADS;
            __syncthreads(); /* tile complete; s_wc free for the next pass */
        }

        float accf[CB_PX];
#pragma unroll
        for (int k = 0; k < CB_PX; k++) accf[k] = 0.f;

#pragma unroll 2
        for (int j = 0; j < cnt; j++) {
            const float4 a = s_at[j];
            const float dy = ly - a.y, dz = lz - a.z;
            const float dyz2 = fmaf(dy, dy, dz * dz);
            unsigned slow = 0;
#pragma unroll
            for (int k = 0; k < CB_PX; k++) {
                const float dx = lx[k] - a.x;
                const float r2 = fmaf(dx, dx, dyz2);
                float f;
                bool near = false;
                if (MODE == M_CONST) {
                    f = rsqrtf(fmaxf(r2, p.rmin2));
                } else if (MODE == M_R4) {
                    f = __fdividef(1.0f, fmaxf(r2, p.rmin2));
                } else if (MODE == M_MS) {
                    const float r2c = fmaxf(r2, p.rmin2);
                    const float ri = rsqrtf(r2c), r = r2c * ri;
                    const float den = fmaf(p.ms_k, exp2f(r * p.ms_c2), 1.0f); /* 1 + k e^{−λBr} */
                    /* 1/(r ε) = den / (r (A den + B)) */
                    f = __fdividef(den * ri, fmaf(p.ms_a, den, p.ms_b));
                } else {
                    /* the bin from the unclamped r (AutoGrid), only 1/r clamped; the floor on r²
                     * keeps r = r²/√r² finite on an atom */
                    const float ri = rsqrtf(fmaxf(r2, 1e-30f)), r = r2 * ri;
                    /* Below 0.5 the bin is 0 anyway; past the last edge (tab_n − 1) it is the
                     * last entry, and tab_n − 0.75 is no edge, so the clamps keep the index in
                     * range without flagging anything, and t < 2^22. */
                    const float t = fminf(fmaxf(r * p.per_a_f, 0.5f), p.t_max);
                    /* 2^23 − 0.5 + t rounds to 2^23 + ⌊t⌋ unless t is an integer (a tie: that
                     * pair is on an edge and goes the double way) */
                    const float v = __fadd_rn(t, 8388607.5f);
                    const int idx = __float_as_int(v) - 0x4B000000;
                    /* ⌊t⌋ + 0.5 − t (exact): ±0.5 on an edge, 0 mid-bin */
                    const float d = __fsub_rn(__fsub_rn(v, 8388607.5f), t);
                    near = fabsf(d) > fmaf(-t, p.band_c1, p.half_minus_c0);
#if CB_TABLE_ALWAYS_EXACT
                    /* Diagnostic switch: every table pair on the double path. On the H200 this did
                     * NOT remove the random-set differences of test_gpu_coulomb's AutoGrid-table
                     * cases (up to 1.3e-4 of max|φ|; 1STP agrees to 3e-7), so their cause is not
                     * the bin choice: open, see docs/PERFORMANCE.md. */
                    near = true;
#endif
                    f = tab[idx] * fminf(ri, p.inv_rmin);
                }
                if (CUT) {
                    const float dc = r2 - p.cut2;
                    const bool cnear = fabsf(dc) <= p.cut_band;
                    f = dc > 0.f ? 0.f : f;
                    near = near || cnear;
                }
                if (SLOW) {
                    f = near ? 0.f : f;
                    slow |= (unsigned)near << k;
                }
                accf[k] = fmaf(a.w, f, accf[k]);
            }
            if (SLOW && slow) {
                const int ja = s_idx[j];
                do {
                    const int k = __ffs(slow) - 1;
                    slow &= slow - 1u;
                    const float v = exact_term<MODE, CUT>(p, tab, ja, x0 + k, iy, iz);
                    /* accf stays in registers: indexed only with unrolled constants */
#pragma unroll
                    for (int q = 0; q < CB_PX; q++)
                        if (q == k) accf[q] += v;
                } while (slow);
            }
        }
#pragma unroll
        for (int k = 0; k < CB_PX; k++) accd[k] += (double)accf[k];
        __syncthreads(); /* everyone done with the tile before it is overwritten */
    }

    if (iy < p.ny && izs < p.nzs) {
        float *row = p.out + (size_t)p.nx * ((size_t)iy + (size_t)p.ny * (size_t)izs);
#pragma unroll
        for (int k = 0; k < CB_PX; k++)
            if (x0 + k < p.nx) row[x0 + k] = (float)accd[k];
    }
}

/* ---- host side ------------------------------------------------------------------------------ */

typedef void (*KernelFn)(const Params);

static KernelFn pick_kernel(int mode, bool cut, bool tsm)
{
    switch (mode) {
    case M_CONST: return cut ? coulomb_tiles<M_CONST, true, false> : coulomb_tiles<M_CONST, false, false>;
    case M_R4: return cut ? coulomb_tiles<M_R4, true, false> : coulomb_tiles<M_R4, false, false>;
    case M_MS: return cut ? coulomb_tiles<M_MS, true, false> : coulomb_tiles<M_MS, false, false>;
    default:
        if (tsm) return cut ? coulomb_tiles<M_TABLE, true, true> : coulomb_tiles<M_TABLE, false, true>;
        return cut ? coulomb_tiles<M_TABLE, true, false> : coulomb_tiles<M_TABLE, false, false>;
    }
}

/* Everything a call allocates; freed by release() whatever happened. */
struct Run {
    Atom *h_atoms;
    float *h_table;
    Atom *atoms;
    float *table, *out;
    cudaEvent_t ev[2];
    cudaStream_t stream;
    int prev_device;
};

static void release(Run *d)
{
    free(d->h_atoms);
    free(d->h_table);
    if (d->atoms) cudaFree(d->atoms);
    if (d->table) cudaFree(d->table);
    if (d->out) cudaFree(d->out);
    for (int i = 0; i < 2; i++)
        if (d->ev[i]) cudaEventDestroy(d->ev[i]);
    if (d->stream) cudaStreamDestroy(d->stream);
    (void)cudaGetLastError();
    if (d->prev_device >= 0) (void)cudaSetDevice(d->prev_device);
    (void)cudaGetLastError();
}

/* Distance from point a to the box [lo, hi]. */
static double box_distance(const double a[3], const double lo[3], const double hi[3])
{
    double s = 0.0;
    for (int c = 0; c < 3; c++) {
        double d = a[c] < lo[c] ? lo[c] - a[c] : a[c] > hi[c] ? a[c] - hi[c] : 0.0;
        s += d * d;
    }
    return sqrt(s);
}

static vsg_status check_args(const vsg_molecule *m, const vsg_coulomb_kernel *k, const vsg_grid *g)
{
    if (!m || !k || !g || !g->data) return vsg_fail(VSG_E_ARG, "GPU Coulomb grid: NULL molecule, kernel or grid");
    for (int c = 0; c < 3; c++) {
        if (g->n[c] < 1) return vsg_fail(VSG_E_ARG, "GPU Coulomb grid: %d nodes along axis %d", g->n[c], c);
        if (!(g->spacing[c] > 0.0) || !isfinite(g->spacing[c]) || !isfinite(g->origin[c]))
            return vsg_fail(VSG_E_ARG, "GPU Coulomb grid: bad spacing %g or origin %g along axis %d",
                            g->spacing[c], g->origin[c], c);
    }
    if (!isfinite(k->scale) || !(k->rmin > 0.0) || !isfinite(k->rmin) || !(k->cutoff >= 0.0) ||
        !isfinite(k->cutoff))
        return vsg_fail(VSG_E_ARG, "GPU Coulomb grid: bad kernel (scale %g, rmin %g, cutoff %g)", k->scale,
                        k->rmin, k->cutoff);
    if (k->table) {
        if (k->table_n < 1 || k->table_n > CB_TABLE_MAX || !(k->table_per_a > 0.0) || !isfinite(k->table_per_a))
            return vsg_fail(VSG_E_ARG, "GPU Coulomb grid: bad table (%d entries, %g per Å; at most %d entries)",
                            k->table_n, k->table_per_a, CB_TABLE_MAX);
    } else if (k->model == VSG_DIEL_CONSTANT) {
        if (!(k->eps > 0.0) || !isfinite(k->eps))
            return vsg_fail(VSG_E_ARG, "GPU Coulomb grid: dielectric constant %g", k->eps);
    } else if (k->model != VSG_DIEL_DISTANCE_4R && k->model != VSG_DIEL_MEHLER_SOLMAJER) {
        return vsg_fail(VSG_E_ARG, "GPU Coulomb grid: unknown dielectric model %d", (int)k->model);
    }
    return VSG_OK;
}

static vsg_status run(const vsg_molecule *m, const vsg_coulomb_kernel *k, vsg_grid *g, int device,
                      double *evals_per_second, Run *d)
{
    vsg_status st = check_args(m, k, g);
    if (st != VSG_OK) return st;
    const int count = vsg_gpu_count();
    if (count == 0) return vsg_fail(VSG_E_DEVICE, "GPU Coulomb grid: no CUDA device (no GPU or no driver)");
    const int dev = device < 0 ? 0 : device;
    if (dev >= count)
        return vsg_fail(VSG_E_DEVICE, "GPU Coulomb grid: GPU %d requested, %d CUDA device%s found", dev, count,
                        count == 1 ? "" : "s");

    const int nx = g->n[0], ny = g->n[1], nz = g->n[2];
    const size_t plane = (size_t)nx * (size_t)ny, points = plane * (size_t)nz;
    const int mode = k->table ? M_TABLE
                     : k->model == VSG_DIEL_CONSTANT ? M_CONST
                     : k->model == VSG_DIEL_DISTANCE_4R ? M_R4 : M_MS;
    const bool cut = k->cutoff > 0.0;
    /* The box centre, formed as coulomb.c forms it: atoms are stored relative to it (the same
     * double subtraction as the CPU's), nodes sit at (i − half)·h. */
    double lo[3], hi[3], centre[3];
    for (int c = 0; c < 3; c++) {
        lo[c] = g->origin[c];
        hi[c] = g->origin[c] + (g->n[c] - 1) * g->spacing[c];
        centre[c] = k->have_center ? k->center[c] : g->origin[c] + 0.5 * (g->n[c] - 1) * g->spacing[c];
    }

    /* Charged atoms (and, with a cutoff, only those within reach of the grid: a conservative
     * margin, the kernel decides exactly), w = q × the model's prefactor. */
    const double factor = mode == M_TABLE ? 1.0
                          : mode == M_CONST ? k->scale / k->eps
                          : mode == M_R4 ? k->scale / 4.0 : k->scale;
    const size_t nat = m->n;
    d->h_atoms = (Atom *)malloc((nat ? nat : 1) * sizeof(Atom));
    if (!d->h_atoms) return vsg_fail(VSG_E_NOMEM, "GPU Coulomb grid: no host memory for %zu atoms", nat);
    size_t na = 0;
    double dmax = 0.0; /* farthest kept atom from the grid box's far corner, for trimming the table */
    for (size_t i = 0; i < nat; i++) {
        const vsg_atom *a = &m->atoms[i];
        if (a->charge == 0.0) continue;
        const double pos[3] = {a->x, a->y, a->z};
        if (cut && box_distance(pos, lo, hi) > k->cutoff * (1.0 + 1e-6) + 1e-6) continue;
        double far = 0.0;
        for (int c = 0; c < 3; c++) {
            double e = fmax(fabs(pos[c] - lo[c]), fabs(pos[c] - hi[c]));
            far += e * e;
        }
        far = sqrt(far);
        if (!(far <= dmax)) dmax = far; /* NaN propagates: no trimming then */
        d->h_atoms[na].x = a->x - centre[0];
        d->h_atoms[na].y = a->y - centre[1];
        d->h_atoms[na].z = a->z - centre[2];
        d->h_atoms[na].w = a->charge * factor;
        na++;
    }
    if (na > (size_t)(INT32_MAX - 2 * CB_THREADS))
        return vsg_fail(VSG_E_LIMIT, "GPU Coulomb grid: %zu charged atoms (at most %d)", na,
                        INT32_MAX - 2 * CB_THREADS);
    if (na == 0) { /* nothing to sum: φ = 0 everywhere, nothing to time */
        memset(g->data, 0, points * sizeof(float));
        return VSG_OK;
    }

    /* Table, trimmed past the largest distance any atom can have from any node: there
     * ⌊r·per_a⌋ < n' − 1, so min(⌊t⌋, n' − 1) picks the entry min(⌊t⌋, n − 1) would. */
    int tab_n = 0;
    bool tsm = false;
    if (mode == M_TABLE) {
        tab_n = k->table_n;
        double rfar = cut ? fmin(dmax, k->cutoff * (1.0 + 1e-6) + 1e-6) : dmax;
        double tfar = rfar * k->table_per_a * (1.0 + 1e-6) + 2.0; /* t from the unclamped r */
        if (isfinite(tfar) && tfar < (double)tab_n) tab_n = (int)tfar + 1;
        d->h_table = (float *)malloc((size_t)tab_n * sizeof(float));
        if (!d->h_table) return vsg_fail(VSG_E_NOMEM, "GPU Coulomb grid: no host memory for the table");
        for (int i = 0; i < tab_n; i++) d->h_table[i] = (float)k->table[i];
        tsm = (size_t)tab_n * sizeof(float) <= CB_TABLE_SMEM_BYTES;
    }

    /* Launch parameters. */
    Params p;
    memset(&p, 0, sizeof p);
    p.natoms = (int)na;
    p.nx = nx;
    p.ny = ny;
    p.tab_n = tab_n;
    for (int c = 0; c < 3; c++) {
        p.half[c] = 0.5 * (g->n[c] - 1);
        p.h[c] = g->spacing[c];
        p.hf[c] = (float)g->spacing[c];
    }
    p.rmin = k->rmin;
    p.rmin2 = (float)(k->rmin * k->rmin);
    p.inv_rmin = (float)(1.0 / k->rmin);
    p.cut2d = k->cutoff * k->cutoff;
    p.per_a = k->table_per_a;
    /* Error bounds of the float path (see the notes at the top), doubled for safety. Per
     * component a node–atom offset is off by ≤ 2⁻²⁴(3|p| + 2|dx|), |p| ≤ the brick's half-extent,
     * whose norm is pn; then |Δr²| ≤ 2⁻²⁴(7r² + 6 r pn) with the float roundings, and r·per_a
     * (rsqrtf: ≤ 2 ulp) is off by ≤ 2⁻²⁴(10.5 t + 3 per_a pn). */
    const double u = ldexp(1.0, -24);
    const double pn = sqrt(pow(0.5 * (CB_PX - 1) * g->spacing[0], 2) + pow(0.5 * (CB_TY - 1) * g->spacing[1], 2) +
                           pow(0.5 * (CB_TZ - 1) * g->spacing[2], 2));
    if (mode == M_TABLE) {
        p.per_a_f = (float)k->table_per_a;
        p.band_c1 = (float)(2.0 * 10.5 * u);
        const double c0 = 2.0 * 3.0 * u * k->table_per_a * pn + ldexp(1.0, -20);
        p.half_minus_c0 = (float)(0.5 - c0);
        p.t_max = (float)((double)tab_n - 0.75); /* exact: tab_n ≤ 2^22 */
    }
    if (cut) {
        const double c2 = k->cutoff * k->cutoff;
        p.cut2 = (float)c2;
        p.cut_band = (float)(2.0 * u * (8.0 * c2 + 6.0 * k->cutoff * pn) + 1e-30);
        const double cull = k->cutoff * (1.0 + 1e-5) + 1e-4 + 1e-5 * (pn + k->cutoff);
        p.cull2 = (float)(cull * cull);
    }
    {
        const double lb = MS_LAMBDA * MS_B;
        p.ms_k = (float)MS_K;
        p.ms_a = (float)MS_A;
        p.ms_b = (float)MS_B;
        p.ms_c2 = (float)(-lb / log(2.0));
    }

    /* Device, memory, slabs. */
    int prev = -1;
    if (cudaGetDevice(&prev) == cudaSuccess && prev != dev) d->prev_device = prev;
    (void)cudaGetLastError();
    CU(cudaSetDevice(dev));
    cudaDeviceProp prop;
    CU(device_prop(&prop, dev));
    if ((ny + CB_TY - 1) / CB_TY > prop.maxGridSize[1] || (nx + CB_PX - 1) / CB_PX > prop.maxGridSize[0])
        return vsg_fail(VSG_E_LIMIT, "GPU Coulomb grid: a %dx%dx%d grid is past the launch limits of %s", nx, ny,
                        nz, prop.name);
    int planes = nz;
    if (plane * (size_t)planes > CB_SLAB_POINTS) {
        planes = (int)(CB_SLAB_POINTS / plane) / CB_TZ * CB_TZ;
        if (planes < CB_TZ) planes = CB_TZ;
        if (planes > nz) planes = nz;
    }
    const long long zmax = (long long)prop.maxGridSize[2] * CB_TZ;
    if (planes > zmax) planes = (int)zmax;
    size_t fr = 0, tot = 0;
    pool_trim(dev); /* the PB pool's idle memory (dev_pool.cuh) is cudaMalloc's again */
    CU(cudaMemGetInfo(&fr, &tot));
    const double fixed = (double)na * sizeof(Atom) + (double)tab_n * sizeof(float);
    while (planes > CB_TZ && fixed + (double)plane * planes * sizeof(float) + DEVICE_SLACK_BYTES > (double)fr) {
        const int halved = planes / 2 / CB_TZ * CB_TZ; /* in whole bricks */
        planes = halved > CB_TZ ? halved : CB_TZ;
    }
    if (planes > nz) planes = nz;
    const double need = fixed + (double)plane * planes * sizeof(float) + DEVICE_SLACK_BYTES;
    if (need > (double)fr)
        return vsg_fail(VSG_E_LIMIT,
                        "GPU Coulomb grid: %zu atoms and a %dx%dx%d slab of the %dx%dx%d grid need %.1f MiB on "
                        "GPU %d (%s), %.1f MiB free of %.1f MiB",
                        na, nx, ny, planes, nx, ny, nz, need / 1048576.0, dev, prop.name, (double)fr / 1048576.0,
                        (double)tot / 1048576.0);

    /* The table in shared memory only where the device allows it next to the tiles. */
    if (tsm && (size_t)tab_n * sizeof(float) + 8192 > (size_t)prop.sharedMemPerBlockOptin) tsm = false;
    KernelFn fn = pick_kernel(mode, cut, tsm);
    const size_t smem = tsm ? (size_t)tab_n * sizeof(float) : 0;
    /* Loads the module now (lazy loading), so the timed launches do not include it. */
    cudaFuncAttributes attr;
    CU(cudaFuncGetAttributes(&attr, (const void *)fn));
    if (tsm) {
        if (smem > 48 * 1024)
            CU(cudaFuncSetAttribute((const void *)fn, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
        /* Most of the L1/shared split to shared: several table copies per SM, and the kernel
         * reads little else through L1. */
        CU(cudaFuncSetAttribute((const void *)fn, cudaFuncAttributePreferredSharedMemoryCarveout,
                                cudaSharedmemCarveoutMaxShared));
    }

    CU(cudaStreamCreateWithFlags(&d->stream, cudaStreamNonBlocking));
    CU(cudaEventCreate(&d->ev[0]));
    CU(cudaEventCreate(&d->ev[1]));
    CU(cudaMalloc((void **)&d->atoms, na * sizeof(Atom)));
    CU(cudaMalloc((void **)&d->out, plane * (size_t)planes * sizeof(float)));
    CU(cudaMemcpyAsync(d->atoms, d->h_atoms, na * sizeof(Atom), cudaMemcpyHostToDevice, d->stream));
    if (tab_n) {
        CU(cudaMalloc((void **)&d->table, (size_t)tab_n * sizeof(float)));
        CU(cudaMemcpyAsync(d->table, d->h_table, (size_t)tab_n * sizeof(float), cudaMemcpyHostToDevice,
                           d->stream));
    }
    p.atoms = d->atoms;
    p.table = d->table;
    p.out = d->out;

    double kernel_ms = 0.0;
    for (int z0 = 0; z0 < nz; z0 += planes) {
        p.z0 = z0;
        p.nzs = nz - z0 < planes ? nz - z0 : planes;
        const dim3 grid((unsigned)((nx + CB_PX - 1) / CB_PX), (unsigned)((ny + CB_TY - 1) / CB_TY),
                        (unsigned)((p.nzs + CB_TZ - 1) / CB_TZ));
        void *args[] = {&p};
        CU(cudaEventRecord(d->ev[0], d->stream));
        CU(cudaLaunchKernel((const void *)fn, grid, dim3(CB_THREADS), args, smem, d->stream));
        CU(cudaGetLastError());
        CU(cudaEventRecord(d->ev[1], d->stream));
        CU(cudaMemcpyAsync(g->data + (size_t)z0 * plane, d->out, plane * (size_t)p.nzs * sizeof(float),
                           cudaMemcpyDeviceToHost, d->stream));
        CU(cudaStreamSynchronize(d->stream));
        float ms = 0.f;
        CU(cudaEventElapsedTime(&ms, d->ev[0], d->ev[1]));
        kernel_ms += ms;
    }
    if (evals_per_second && kernel_ms > 0.0)
        *evals_per_second = (double)na * (double)points / (kernel_ms * 1e-3);
    return VSG_OK;
}

/* vsgrid.h's Coulomb contract. *evals_per_second counts the charged atoms sent to the device (with a
 * cutoff, those within reach of the grid) × all nodes, over the kernel time summed over slabs
 * (device events; transfers and set-up excluded). Prints nothing. */
extern "C" vsg_status vsg_coulomb_gpu(const vsg_molecule *m, const vsg_coulomb_kernel *k, vsg_grid *g, int device,
                                      double *evals_per_second)
{
    if (evals_per_second) *evals_per_second = 0.0;
    Run d;
    memset(&d, 0, sizeof d);
    d.prev_device = -1;
    vsg_status st = run(m, k, g, device, evals_per_second, &d);
    release(&d);
    return st;
}
