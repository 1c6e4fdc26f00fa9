/* sor_kernels.cuh — the red-black SOR device code shared by the single-GPU solver (sor_gpu.cu)
 * and the MPI slab backend (sor_mpi_gpu.cu): tuning constants, the uniform-stencil kernels, the
 * correction kernel, the device max-|Δφ| reduction and their launch helpers. One copy, so both
 * paths do the same arithmetic and give the same bits (see sor_gpu.cu for the why of each
 * choice). Moved here unchanged from sor_gpu.cu; the anonymous namespace gives every including
 * translation unit its own instantiations (no cross-module template kernels).
 *
 * The kernels update planes 1 .. nz − 2 of the arrays they are given; a slab sweeps a sub-range
 * of planes by passing a view (pointers shifted to the range's first plane − 1, nz of the range
 * + 2) — sor_mpi_gpu.cu. */
#ifndef VSG_SOR_KERNELS_CUH
#define VSG_SOR_KERNELS_CUH

#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "grids/pb/pb_system.h"

namespace {

/* ---- tuning constants ----------------------------------------------------------------------
 * SOR_BLOCK_X × SOR_BLOCK_Y threads per block of the uniform kernel: x runs along a half-row
 * of one colour (contiguous in memory, so a warp of 32 reads 128 B of float per neighbour
 * row); 32 wastes fewest threads on odd row lengths (161³: 80 nodes per half-row → 96 threads).
 * SOR_DEFAULT_ZB: consecutive planes per thread whose loads are issued together
 * (sor_uniform_zb with 2, 4 or 8; 1 = the one-node kernel sor_uniform; VSG_SOR_ZB overrides it
 * at run time).
 * SOR_Z_PER_THREAD: planes each thread of sor_uniform visits (grid-stride in z); 1 = one thread per node,
 * larger values amortise the index set-up per thread. The grid is also capped at 65535 in z.
 * CORR_BLOCK threads per block of the correction kernel, at most CORR_BLOCKS_PER_SM blocks per
 * multiprocessor (grid-stride loop beyond). Retune with scripts/tune_sor.sh on the target GPU
 * (each constant can be overridden at build time, e.g. -DSOR_BLOCK_X=64 in CMAKE_CUDA_FLAGS). */
#ifndef SOR_BLOCK_X
#define SOR_BLOCK_X 32
#endif
#ifndef SOR_BLOCK_Y
#define SOR_BLOCK_Y 8
#endif
#ifndef SOR_Z_PER_THREAD
#define SOR_Z_PER_THREAD 1
#endif
#ifndef SOR_DEFAULT_ZB
#define SOR_DEFAULT_ZB 4
#endif
#ifndef CORR_BLOCK
#define CORR_BLOCK 256
#endif
#ifndef CORR_BLOCKS_PER_SM
#define CORR_BLOCKS_PER_SM 16
#endif

/* SOR_FUSED_MIN_BLOCKS(R): resident blocks per multiprocessor the fused kernel is compiled
 * for, i.e. a register cap: 5 in float (≤ 48 registers), 3 in double (≤ 80), the occupancy
 * the kernel had before the pattern nodes' update (listed_update) joined the stencil path and
 * the compiler's own choice grew to 60 and 86 registers (4 and 2 blocks). No spills at these
 * caps (ptxas -v) with 2 or 4 planes a thread. The nonlinear forms (Newton steps in double)
 * keep the compiler's choice. SOR_FLOAT_MIN_BLOCKS / SOR_DOUBLE_MIN_BLOCKS override them (1 = no cap). */
#ifndef SOR_FLOAT_MIN_BLOCKS
#define SOR_FLOAT_MIN_BLOCKS 5
#endif
#ifndef SOR_DOUBLE_MIN_BLOCKS
#define SOR_DOUBLE_MIN_BLOCKS 3
#endif
#define SOR_FUSED_MIN_BLOCKS(R, NL) (NL ? 1 : sizeof(R) == 4 ? SOR_FLOAT_MIN_BLOCKS : SOR_DOUBLE_MIN_BLOCKS)

static_assert((SOR_BLOCK_X * SOR_BLOCK_Y) % 32 == 0, "block reduction assumes whole warps");
static_assert(CORR_BLOCK % 32 == 0, "block reduction assumes whole warps");

/* Neighbour offsets −x, +x, −y, +y, −z, +z into the other colour's array, in bytes (so each
 * load is one add to the node's base address); by value so they sit in the constant bank
 * (indexed only with unrolled, compile-time indices). */
struct Offsets {
    long long o[6];
};

/* Ion species for g(φ) = −Σ c z e^{−zφ} / 2I, as kernel parameters (no shared __constant__
 * state, so concurrent solves on one device cannot overwrite each other's ions). */
struct Ions {
    int n;
    double molar[VSG_MAX_IONS], charge[VSG_MAX_IONS];
    double two_i;
};

/* ---- the correction list's layout on the device ---------------------------------------------
 * One allocation per colour: idx[n] (uint64, the node within its colour), then w0..w5, s, k as n
 * reals each (SoA: a warp's loads of one field coalesce). corr_bytes, put_entry (on the host or
 * the device), list_view and copy_entry are the only places that know it. */
template <typename R>
__host__ __device__ __forceinline__ size_t corr_bytes(size_t n)
{
    return n * (sizeof(uint64_t) + 8 * sizeof(R));
}

/* Entry e of n from q, its node index less shift (a slab's first node), rounded to R. */
template <typename R>
__host__ __device__ __forceinline__ void put_entry(void *soa, size_t n, size_t e, const vsg_pb_corr &q,
                                                   uint64_t shift)
{
    uint64_t *idx = (uint64_t *)soa;
    R *v = (R *)(idx + n);
    idx[e] = q.index - shift;
    for (int i = 0; i < 6; i++) v[(size_t)i * n + e] = (R)q.w[i];
    v[6 * n + e] = (R)q.s;
    v[7 * n + e] = (R)q.k;
}

template <typename R>
struct ListView {
    const uint64_t *idx;
    const R *wt, *sv, *kv;
};

template <typename R>
__host__ __device__ __forceinline__ ListView<R> list_view(const void *soa, size_t n)
{
    ListView<R> l;
    l.idx = (const uint64_t *)soa;
    l.wt = (const R *)(l.idx + n);
    l.sv = l.wt + 6 * n;
    l.kv = l.wt + 7 * n;
    return l;
}

/* Entry e of list l (n entries) to place t of the m-entry list out. */
template <typename R>
__device__ __forceinline__ void copy_entry(const ListView<R> &l, long long n, long long e, void *out, long long m,
                                           long long t)
{
    uint64_t *idx = (uint64_t *)out;
    R *v = (R *)(idx + m);
    idx[t] = l.idx[e];
    for (int i = 0; i < 6; i++) v[i * m + t] = l.wt[i * n + e];
    v[6 * m + t] = l.sv[e];
    v[7 * m + t] = l.kv[e];
}

/* ---- listed-node patterns (sor_patterns.cuh) -------------------------------------------------
 * Most listed nodes carry no charge and one of a few weight sets (a dielectric boundary with
 * two ε values has at most 2^6 face patterns, with or without salt). Before a solve those
 * entries leave the list: the node's flag becomes SOR_PATTERN_FLAG | slot, and the stencil
 * thread that has already loaded its six neighbours updates it with the slot's weights
 * (pat[slot·SOR_PATTERN_STRIDE + 0..5] = w0..w5, + 6 = k), the list's arithmetic exactly. */
#define SOR_PATTERN_FLAG 0x80
#define SOR_PATTERNS 128
#define SOR_PATTERN_STRIDE 8 /* reals a slot: w0..w5, k, unused */
static_assert(!((VSG_NODE_SALT | VSG_NODE_LISTED) & SOR_PATTERN_FLAG), "the pattern bit is free");

/* ---- device helpers ---------------------------------------------------------------------- */

/* Correctly rounded, never-contracted operations: the CPU twin (x86-64, no FMA) rounds after
 * every operation, and so must we to get the same bits. */
__device__ __forceinline__ float add_rn(float a, float b) { return __fadd_rn(a, b); }
__device__ __forceinline__ double add_rn(double a, double b) { return __dadd_rn(a, b); }
__device__ __forceinline__ float sub_rn(float a, float b) { return __fsub_rn(a, b); }
__device__ __forceinline__ double sub_rn(double a, double b) { return __dsub_rn(a, b); }
__device__ __forceinline__ float mul_rn(float a, float b) { return __fmul_rn(a, b); }
__device__ __forceinline__ double mul_rn(double a, double b) { return __dmul_rn(a, b); }

/* vsg_pb_ion_term of pb_system.h, same loop order. */
__device__ __forceinline__ void ion_term(const Ions &io, double phi, double *g, double *dg)
{
    double sg = 0.0, sd = 0.0;
#pragma unroll
    for (int i = 0; i < VSG_MAX_IONS; i++) {
        if (i < io.n) {
            double z = io.charge[i], c = io.molar[i];
            double e = exp(-z * phi);
            sg -= c * z * e;
            sd += c * z * z * e;
        }
    }
    *g = sg / io.two_i;
    *dg = sd / io.two_i;
}

/* One Newton step on A − φ − λk(g(φ) − φ) = 0 from φ = old (sor_cpu_sweep.h). */
__device__ __forceinline__ double newton(const Ions &io, double gs, double old, double lk)
{
    double g, dg;
    ion_term(io, old, &g, &dg);
    double fval = gs - old - lk * (g - old);
    return old + fval / (1.0 + lk * (dg - 1.0));
}

/* The other colour's value at byte offset `off` from `base`, through the read-only cache
 * (that array is not written during the kernel). */
template <typename R>
__device__ __forceinline__ R nb(const R *base, long long off)
{
    return __ldg((const R *)((const char *)base + off));
}

/* |Δφ| as ordered bits: for non-negative doubles (NaN with its sign cleared included) the
 * unsigned bit patterns order like the values, and a NaN ranks above +inf. */
__device__ __forceinline__ unsigned long long change_bits(double nv, double old)
{
    return (unsigned long long)__double_as_longlong(fabs(nv - old));
}

__device__ __forceinline__ unsigned long long umax64(unsigned long long a, unsigned long long b)
{
    return a > b ? a : b;
}

/* A listed node's update from its weights w (stride ws), source sv, salt term kk and its six
 * neighbours v: φ_GS = s + Σ w_i φ_i in double (like the CPU), the Newton step where k > 0 in
 * the nonlinear phase, over-relaxation from the old value. correct_entry (from the list) and
 * the stencil's pattern nodes (from the pattern table, s = +0) both call it: same bits. */
template <typename R, bool NL, bool CHECK>
__device__ __forceinline__ R listed_update(const R *w, long long ws, R sv, const R *kk, const R v[6], R oldr,
                                           double omega, double lambda, const Ions &ions,
                                           unsigned long long &dmax)
{
    double gs = (double)sv;
#pragma unroll
    for (int i = 0; i < 6; i++) gs = __dadd_rn(gs, __dmul_rn((double)w[i * ws], (double)v[i]));
    const double old = (double)oldr;
    if (NL) {
        const double k = (double)*kk;
        if (k > 0.0) gs = newton(ions, gs, old, lambda * k);
    }
    const R nv = (R)__dadd_rn(old, __dmul_rn(omega, __dsub_rn(gs, old)));
    if (CHECK) dmax = umax64(dmax, change_bits((double)nv, old));
    return nv;
}

/* A pattern slot's w0..w5 and, in the nonlinear phase, k (tw: the slot) through the read-only
 * cache, one scalar load each. (Vector loads, float4 + float2, were tried: in float they pushed
 * the fused kernel past its 48-register cap into a 12-byte spill, 0.170 instead of 0.160 ms
 * an iteration at 297³ on an H100; in double they changed nothing.) */
template <bool NL, typename R>
__device__ __forceinline__ void load_pattern(const R *tw, R w[SOR_PATTERN_STRIDE])
{
#pragma unroll
    for (int i = 0; i < 6; i++) w[i] = __ldg(tw + i);
    w[6] = NL ? __ldg(tw + 6) : (R)0;
}

/* A pattern node's new value (flag f has SOR_PATTERN_FLAG): listed_update with its slot's
 * weights, s = +0 (the stencil kernels' one call for those nodes). */
template <typename R, bool NL, bool CHECK>
__device__ __forceinline__ R pattern_update(const R *__restrict__ pat, uint8_t f, const R v[6], R oldr, double omega,
                                            double lambda, const Ions &ions, unsigned long long &dmax)
{
    R tw[SOR_PATTERN_STRIDE];
    load_pattern<NL>(pat + (f & (SOR_PATTERNS - 1)) * SOR_PATTERN_STRIDE, tw);
    return listed_update<R, NL, CHECK>(tw, 1, (R)0, tw + 6, v, oldr, omega, lambda, ions, dmax);
}

/* Max over the block (whole warps only), then at most one atomicMax into *out. Every thread
 * of the block must call it. */
__device__ void block_max(unsigned long long v, unsigned long long *out)
{
    __shared__ unsigned long long warp_max[32];
    const int tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    const int nwarps = (blockDim.x * blockDim.y * blockDim.z) >> 5;
    const int lane = tid & 31, warp = tid >> 5;
#pragma unroll
    for (int m = 16; m > 0; m >>= 1) v = umax64(v, __shfl_xor_sync(0xffffffffu, v, m));
    if (lane == 0) warp_max[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < nwarps ? warp_max[lane] : 0ull;
#pragma unroll
        for (int m = 16; m > 0; m >>= 1) v = umax64(v, __shfl_xor_sync(0xffffffffu, v, m));
        /* The maximum only grows: skip the atomic when a larger value is already there, so
         * hundreds of thousands of blocks do not queue on one address. */
        if (lane == 0 && v > *(volatile unsigned long long *)out) atomicMax(out, v);
    }
}

/* ---- kernels ------------------------------------------------------------------------------ */

/* Uniform stencil over the interior nodes of colour c: thread (xh, y) at plane z updates node
 * x = x0 + 2·xh, x0 = 1 + ((1 + y + z + c) & 1), i.e. the xh-th node of colour c in row (y, z). */
template <typename R, bool NL, bool CHECK>
__global__ void __launch_bounds__(SOR_BLOCK_X *SOR_BLOCK_Y)
    sor_uniform(R *__restrict__ p, const R *__restrict__ o, const uint8_t *__restrict__ fl, int nx,
                int ny, int nz, int c, Offsets off, R w, R u0, R u1, double omega, double lambda,
                double ksalt, Ions ions, const R *__restrict__ pat, unsigned long long *__restrict__ maxbits)
{
    const int xh = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = 1 + blockIdx.y * blockDim.y + threadIdx.y;
    unsigned long long dmax = 0;
    if (y < ny - 1) {
        for (int z = 1 + blockIdx.z; z < nz - 1; z += gridDim.z) {
            const int x = 1 + ((1 + y + z + c) & 1) + 2 * xh;
            if (x > nx - 2) continue;
            const long long k =
                (long long)(((size_t)x + (size_t)nx * ((size_t)y + (size_t)ny * (size_t)z)) >> 1);
            const uint8_t f = fl[k];
            const R *q = o + k;
            if (f & SOR_PATTERN_FLAG) {
                R v[6];
#pragma unroll
                for (int i = 0; i < 6; i++) v[i] = nb(q, off.o[i]);
                p[k] = pattern_update<R, NL, CHECK>(pat, f, v, p[k], omega, lambda, ions, dmax);
                continue;
            }
            if (f & VSG_NODE_LISTED) continue; /* the correction kernel owns it */
            /* Same summation order as the CPU: −x, +x, −y, +y, −z, +z. */
            R sum = add_rn(nb(q, off.o[0]), nb(q, off.o[1]));
            sum = add_rn(sum, nb(q, off.o[2]));
            sum = add_rn(sum, nb(q, off.o[3]));
            sum = add_rn(sum, nb(q, off.o[4]));
            sum = add_rn(sum, nb(q, off.o[5]));
            const R old = p[k];
            const R gsr = mul_rn(sum, (f & VSG_NODE_SALT) ? u1 : u0);
            R nv;
            if (!NL) {
                nv = add_rn(old, mul_rn(w, sub_rn(gsr, old)));
            } else {
                const double oldd = (double)old;
                double gs = (double)gsr;
                if (f & VSG_NODE_SALT) gs = newton(ions, gs, oldd, lambda * ksalt);
                nv = (R)__dadd_rn(oldd, __dmul_rn(omega, __dsub_rn(gs, oldd)));
            }
            if (CHECK) dmax = umax64(dmax, change_bits((double)nv, (double)old));
            p[k] = nv;
        }
    }
    if (CHECK) block_max(dmax, maxbits);
}

/* The same update with ZB consecutive planes per thread, loads first: all 8·ZB loads of a
 * thread are issued before the first update, so each thread keeps ZB times more bytes in
 * flight. In float one node's loads are too few to cover DRAM latency at full occupancy (the
 * float kernel reached ~30% of copy bandwidth where double, with twice the bytes per load,
 * reached ~45%). Listed nodes are loaded and discarded (2% of the nodes) rather than waiting
 * for the flag before the loads. Same arithmetic, same order: same bits as sor_uniform.
 * uniform_planes is the work of one thread (planes z0 .. z0 + ZB − 1 of row y, half-row
 * position xh); sor_uniform_zb and sor_fused call it. */
template <typename R, bool NL, bool CHECK, int ZB>
__device__ __forceinline__ void uniform_planes(R *__restrict__ p, const R *__restrict__ o,
                                               const uint8_t *__restrict__ fl, int nx, int nz, int c,
                                               const Offsets &off, R w, R u0, R u1, double omega,
                                               double lambda, double ksalt, const Ions &ions,
                                               const R *__restrict__ pat, int xh, int y, int ny, int z0,
                                               unsigned long long &dmax)
{
    long long k[ZB];
    bool act[ZB];
    uint8_t f[ZB];
    R v[ZB][6], old[ZB];
#pragma unroll
    for (int j = 0; j < ZB; j++) {
        const int z = z0 + j;
        const int x = 1 + ((1 + y + z + c) & 1) + 2 * xh;
        act[j] = z < nz - 1 && x <= nx - 2;
        k[j] = act[j] ? (long long)(((size_t)x + (size_t)nx * ((size_t)y + (size_t)ny * (size_t)z)) >> 1)
                      : 0;
    }
#pragma unroll
    for (int j = 0; j < ZB; j++) {
        if (!act[j]) continue;
        const R *q = o + k[j];
        f[j] = fl[k[j]];
#pragma unroll
        for (int i = 0; i < 6; i++) v[j][i] = nb(q, off.o[i]);
        old[j] = p[k[j]];
    }
#pragma unroll
    for (int j = 0; j < ZB; j++) {
        if (!act[j]) continue;
        if (f[j] & SOR_PATTERN_FLAG) {
            p[k[j]] = pattern_update<R, NL, CHECK>(pat, f[j], v[j], old[j], omega, lambda, ions, dmax);
            continue;
        }
        if (f[j] & VSG_NODE_LISTED) continue; /* the correction kernel owns it */
        /* Same summation order as the CPU: −x, +x, −y, +y, −z, +z. */
        R sum = add_rn(v[j][0], v[j][1]);
        sum = add_rn(sum, v[j][2]);
        sum = add_rn(sum, v[j][3]);
        sum = add_rn(sum, v[j][4]);
        sum = add_rn(sum, v[j][5]);
        const R gsr = mul_rn(sum, (f[j] & VSG_NODE_SALT) ? u1 : u0);
        R nv;
        if (!NL) {
            nv = add_rn(old[j], mul_rn(w, sub_rn(gsr, old[j])));
        } else {
            const double oldd = (double)old[j];
            double gs = (double)gsr;
            if (f[j] & VSG_NODE_SALT) gs = newton(ions, gs, oldd, lambda * ksalt);
            nv = (R)__dadd_rn(oldd, __dmul_rn(omega, __dsub_rn(gs, oldd)));
        }
        if (CHECK) dmax = umax64(dmax, change_bits((double)nv, (double)old[j]));
        p[k[j]] = nv;
    }
}

template <typename R, bool NL, bool CHECK, int ZB>
__global__ void __launch_bounds__(SOR_BLOCK_X *SOR_BLOCK_Y)
    sor_uniform_zb(R *__restrict__ p, const R *__restrict__ o, const uint8_t *__restrict__ fl, int nx,
                   int ny, int nz, int c, Offsets off, R w, R u0, R u1, double omega, double lambda,
                   double ksalt, Ions ions, const R *__restrict__ pat, unsigned long long *__restrict__ maxbits)
{
    const int xh = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = 1 + blockIdx.y * blockDim.y + threadIdx.y;
    unsigned long long dmax = 0;
    if (y < ny - 1)
        for (int z0 = 1 + blockIdx.z * ZB; z0 < nz - 1; z0 += gridDim.z * ZB)
            uniform_planes<R, NL, CHECK, ZB>(p, o, fl, nx, nz, c, off, w, u0, u1, omega, lambda, ksalt, ions, pat, xh, y,
                                             ny, z0, dmax);
    if (CHECK) block_max(dmax, maxbits);
}

/* One listed node (entry e of n): φ_GS = s + Σ w_i φ_i (double accumulation, like the CPU),
 * the Newton step where k > 0 in the nonlinear phase, then over-relaxation from the node's
 * own old value. SoA: idx[n], wt[6][n], sv[n], kv[n]. */
template <typename R, bool NL, bool CHECK>
__device__ __forceinline__ void correct_entry(R *__restrict__ p, const R *__restrict__ o,
                                              const uint64_t *__restrict__ idx, const R *__restrict__ wt,
                                              const R *__restrict__ sv, const R *__restrict__ kv, long long n,
                                              const Offsets &off, double omega, double lambda,
                                              const Ions &ions, long long e, unsigned long long &dmax)
{
    const long long k = (long long)idx[e];
    const R *q = o + k;
    R v[6];
#pragma unroll
    for (int i = 0; i < 6; i++) v[i] = nb(q, off.o[i]);
    p[k] = listed_update<R, NL, CHECK>(wt + e, n, sv[e], kv + e, v, p[k], omega, lambda, ions, dmax);
}

/* Listed nodes of one colour, grid-stride. */
template <typename R, bool NL, bool CHECK>
__global__ void __launch_bounds__(CORR_BLOCK)
    sor_correct(R *__restrict__ p, const R *__restrict__ o, const uint64_t *__restrict__ idx,
                const R *__restrict__ wt, const R *__restrict__ sv, const R *__restrict__ kv,
                long long n, Offsets off, double omega, double lambda, Ions ions,
                unsigned long long *__restrict__ maxbits)
{
    unsigned long long dmax = 0;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < n;
         e += (long long)gridDim.x * blockDim.x)
        correct_entry<R, NL, CHECK>(p, o, idx, wt, sv, kv, n, off, omega, lambda, ions, e, dmax);
    if (CHECK) block_max(dmax, maxbits);
}

/* Both of a colour's sweeps in one launch. The two sets of nodes are disjoint and both only
 * read the other colour, so nothing orders them; one launch instead of two saves a kernel
 * boundary per colour (the drain of one kernel and the fill of the next). Stencil blocks take
 * one (x, y, z-group) tile each, decoded from the linear block index; list blocks take entries
 * of the list. Two layouts of the block index:
 * - zoff == NULL, list first: blocks 0 .. cblocks − 1 take the whole list (grid-stride), the
 *   rest the tiles in order. The list's gathers are latency-bound and start early.
 * - zoff != NULL, interleaved: z-group g (planes 1 + g·ZB ..) gets its gx·gy tiles and then
 *   cblocks list blocks for the group's own entries, zoff[g] .. zoff[g + 1] (the list is sorted
 *   by node, so a group's entries are one range). Blocks are dispatched about in index order, so
 *   a group's list blocks run just after the tiles that streamed the other colour's planes
 *   z0 − 1 .. z0 + ZB into L2, and the six gathers of each entry find them there: with the list
 *   first, each gather fetched a DRAM sector of 32 bytes for 4 useful ones.
 * Same arithmetic per node in both: same bits. */
template <typename R, bool NL, bool CHECK, int ZB>
__global__ void __launch_bounds__(SOR_BLOCK_X *SOR_BLOCK_Y, SOR_FUSED_MIN_BLOCKS(R, NL))
    sor_fused(R *__restrict__ p, const R *__restrict__ o, const uint8_t *__restrict__ fl, int nx, int ny,
              int nz, int c, Offsets off, R w, R u0, R u1, double omega, double lambda, double ksalt, Ions ions,
              const uint64_t *__restrict__ idx, const R *__restrict__ wt, const R *__restrict__ sv,
              const R *__restrict__ kv, long long n, unsigned cblocks, unsigned gx, unsigned gy,
              const unsigned long long *__restrict__ zoff, const R *__restrict__ pat,
              unsigned long long *__restrict__ maxbits)
{
    unsigned long long dmax = 0;
    const unsigned b = blockIdx.x, tiles = gx * gy;
    bool list;
    unsigned u = 0, lb = 0;
    long long e0 = 0, e1 = n;
    if (zoff) {
        const unsigned g = b / (tiles + cblocks), r = b % (tiles + cblocks);
        list = r >= tiles;
        if (list) {
            lb = r - tiles;
            e0 = (long long)zoff[g];
            e1 = (long long)zoff[g + 1];
        } else {
            u = g * tiles + r;
        }
    } else {
        list = b < cblocks;
        if (list) lb = b;
        else u = b - cblocks;
    }
    if (list) {
        const long long nt = (long long)blockDim.x * blockDim.y;
        for (long long e = e0 + lb * nt + threadIdx.x + blockDim.x * threadIdx.y; e < e1; e += (long long)cblocks * nt)
            correct_entry<R, NL, CHECK>(p, o, idx, wt, sv, kv, n, off, omega, lambda, ions, e, dmax);
    } else {
        const int xh = (int)(u % gx) * blockDim.x + threadIdx.x;
        const int y = 1 + (int)((u / gx) % gy) * blockDim.y + threadIdx.y;
        const int z0 = 1 + (int)(u / (gx * gy)) * ZB;
        if (y < ny - 1)
            uniform_planes<R, NL, CHECK, ZB>(p, o, fl, nx, nz, c, off, w, u0, u1, omega, lambda, ksalt, ions, pat, xh, y,
                                             ny, z0, dmax);
    }
    if (CHECK) block_max(dmax, maxbits);
}

static long long floor_div2(long long a) { return a >= 0 ? a / 2 : -((-a + 1) / 2); }

/* Planes per thread of the uniform kernel: 1 (sor_uniform), 2, 4 or 8 (sor_uniform_zb). The
 * environment variable VSG_SOR_ZB overrides the default, for benchmarks comparing them. */
static int planes_per_thread(void)
{
    const char *e = getenv("VSG_SOR_ZB");
    int v = e ? atoi(e) : SOR_DEFAULT_ZB;
    return v == 2 || v == 4 || v == 8 ? v : 1;
}

template <typename R>
static void launch_uniform(int zb, bool nl, bool check, dim3 grid, dim3 block, cudaStream_t st, R *p,
                           const R *o, const uint8_t *fl, const vsg_pb_system *s, int c,
                           const Offsets &off, R w, R u0, R u1, double omega, double lambda,
                           double ksalt, const Ions &ions, const R *pat, unsigned long long *mb)
{
#define ARGS p, o, fl, s->nx, s->ny, s->nz, c, off, w, u0, u1, omega, lambda, ksalt, ions, pat, mb
#define ZB_LAUNCH(ZB)                                                                      \
    do {                                                                                   \
        if (nl) {                                                                          \
            if (check) sor_uniform_zb<R, true, true, ZB><<<grid, block, 0, st>>>(ARGS);    \
            else sor_uniform_zb<R, true, false, ZB><<<grid, block, 0, st>>>(ARGS);         \
        } else {                                                                           \
            if (check) sor_uniform_zb<R, false, true, ZB><<<grid, block, 0, st>>>(ARGS);   \
            else sor_uniform_zb<R, false, false, ZB><<<grid, block, 0, st>>>(ARGS);        \
        }                                                                                  \
    } while (0)
    if (zb == 2) {
        ZB_LAUNCH(2);
    } else if (zb == 4) {
        ZB_LAUNCH(4);
    } else if (zb == 8) {
        ZB_LAUNCH(8);
    } else if (nl) {
        if (check) sor_uniform<R, true, true><<<grid, block, 0, st>>>(ARGS);
        else sor_uniform<R, true, false><<<grid, block, 0, st>>>(ARGS);
    } else {
        if (check) sor_uniform<R, false, true><<<grid, block, 0, st>>>(ARGS);
        else sor_uniform<R, false, false><<<grid, block, 0, st>>>(ARGS);
    }
#undef ZB_LAUNCH
#undef ARGS
}

template <typename R>
static void launch_correct(bool nl, bool check, int blocks, cudaStream_t st, R *p, const R *o,
                           void *corr, size_t n, const Offsets &off, double omega, double lambda,
                           const Ions &ions, unsigned long long *mb)
{
    const ListView<R> l = list_view<R>(corr, n);
#define ARGS p, o, l.idx, l.wt, l.sv, l.kv, (long long)n, off, omega, lambda, ions, mb
    if (nl) {
        if (check) sor_correct<R, true, true><<<blocks, CORR_BLOCK, 0, st>>>(ARGS);
        else sor_correct<R, true, false><<<blocks, CORR_BLOCK, 0, st>>>(ARGS);
    } else {
        if (check) sor_correct<R, false, true><<<blocks, CORR_BLOCK, 0, st>>>(ARGS);
        else sor_correct<R, false, false><<<blocks, CORR_BLOCK, 0, st>>>(ARGS);
    }
#undef ARGS
}

/* How a colour's uniform and correction sweeps are launched: 2 (default) one launch with the
 * list blocks interleaved by z-group (sor_fused with zoff), 1 one launch with the list first,
 * 0 two kernels. The environment variable VSG_SOR_FUSE=0 or 1 chooses the older forms, for
 * benchmarks comparing them. */
static int fuse_sweeps(void)
{
    const char *e = getenv("VSG_SOR_FUSE");
    if (!e) return 2;
    const int v = atoi(e);
    return v == 0 || v == 1 ? v : 2;
}

/* zoff[g] = the first list entry (of colour c, list idx[0 .. n) sorted) whose node lies in
 * plane 1 + g·zb or beyond, for g = 0 .. groups; zoff[groups] = n. One thread per group, a
 * binary search each. */
__global__ void list_offsets(const uint64_t *__restrict__ idx, long long n, long long plane, int c, int zb,
                             int groups, unsigned long long *__restrict__ zoff)
{
    const int g = blockIdx.x * blockDim.x + threadIdx.x;
    if (g > groups) return;
    if (g == groups) {
        zoff[g] = (unsigned long long)n;
        return;
    }
    /* node L = 2k + c lies in plane z0 or beyond when L ≥ plane·z0 */
    const long long first_l = plane * (1 + (long long)g * zb);
    const unsigned long long kmin = (unsigned long long)(first_l - c + 1) / 2;
    long long lo = 0, hi = n;
    while (lo < hi) {
        const long long mid = lo + (hi - lo) / 2;
        if (idx[mid] < kmin) lo = mid + 1;
        else hi = mid;
    }
    zoff[g] = (unsigned long long)lo;
}

/* The fused launch of one colour: grid (gx, gy, gz) of the uniform kernel (gz not capped)
 * plus the list blocks, as one linear grid: cblocks in all, list first (zoff NULL), or cblocks
 * per z-group after the group's tiles (zoff: list_offsets of the colour, gz + 1 entries).
 * Returns 0 (nothing launched) when the shape does not fit it (1 plane per thread, or more
 * than 2^31 − 1 blocks): the caller then launches the two kernels. */
template <typename R>
static int launch_fused(int zb, bool nl, bool check, unsigned gx, unsigned gy, long long gz, int cblocks,
                        cudaStream_t st, R *p, const R *o, const uint8_t *fl, const vsg_pb_system *s, int c,
                        const Offsets &off, R w, R u0, R u1, double omega, double lambda, double ksalt,
                        const Ions &ions, void *corr, size_t n, const unsigned long long *zoff,
                        const R *pat, unsigned long long *mb)
{
    if (!n) zoff = NULL;
    const long long total = zoff ? ((long long)gx * gy + cblocks) * gz : (long long)gx * gy * gz + (n ? cblocks : 0);
    if ((zb != 2 && zb != 4 && zb != 8) || total > 2147483647LL || total < 1) return 0;
    const ListView<R> l = list_view<R>(corr, n);
    const unsigned cb = n ? (unsigned)cblocks : 0u;
    const dim3 block(SOR_BLOCK_X, SOR_BLOCK_Y, 1);
#define ARGS p, o, fl, s->nx, s->ny, s->nz, c, off, w, u0, u1, omega, lambda, ksalt, ions, l.idx, l.wt, l.sv, l.kv, \
             (long long)n, cb, gx, gy, zoff, pat, mb
#define FUSED(ZB)                                                                                  \
    do {                                                                                           \
        if (nl) {                                                                                  \
            if (check) sor_fused<R, true, true, ZB><<<(unsigned)total, block, 0, st>>>(ARGS);      \
            else sor_fused<R, true, false, ZB><<<(unsigned)total, block, 0, st>>>(ARGS);           \
        } else {                                                                                   \
            if (check) sor_fused<R, false, true, ZB><<<(unsigned)total, block, 0, st>>>(ARGS);     \
            else sor_fused<R, false, false, ZB><<<(unsigned)total, block, 0, st>>>(ARGS);          \
        }                                                                                          \
    } while (0)
    if (zb == 2) FUSED(2);
    else if (zb == 4) FUSED(4);
    else FUSED(8);
#undef FUSED
#undef ARGS
    return 1;
}

} // namespace

#endif
