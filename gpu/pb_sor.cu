/* pb_sor.cu — the GPU twin of vsg_sor_cpu (grids/sor_cpu.c, grids/sor_cpu_sweep.h).
 *
 * Same system, same settings, same schedule: per iteration colour 0 then colour 1, each a
 * uniform-stencil kernel over that colour's interior nodes (listed nodes skipped) followed
 * by a correction kernel over that colour's list; convergence tested on the same check
 * iterations from max |Δφ| over every node updated in that iteration; the same nonlinear λ
 * ramp and one-Newton-step update. The linear update uses explicitly rounded operations
 * (__fadd_rn & co., which the compiler never fuses into FMAs) in the CPU's order, so in
 * double precision a linear solve repeats the CPU's arithmetic bit for bit; only exp() in
 * the nonlinear term may differ by an ulp.
 *
 * Device memory per node: phi (sizeof real) + flag (1 byte), plus per listed node an index
 * (8) and w[6], s, k in the solve's precision (40 bytes float, 72 double). For 2% listed
 * nodes that is 5.8 bytes/node in float and 10.4 in double. Max |Δφ| is reduced on the
 * device (warp shuffles, one atomicMax per block on the bits of a non-negative double,
 * which order like the values and keep a NaN above +inf) and one scalar comes back per
 * check; nothing else crosses the bus inside the loop.
 */
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpu.h"
#include "pb_gpu.h"
extern "C" {
#include "errors.h" /* C headers without their own extern "C" guard */
#include "timer.h"
}

#define VSG_CUDA_WHO "GPU PB solver"
#include "cuda_check.h"

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

static_assert((SOR_BLOCK_X * SOR_BLOCK_Y) % 32 == 0, "block reduction assumes whole warps");
static_assert(CORR_BLOCK % 32 == 0, "block reduction assumes whole warps");

/* cudaMalloc rounds allocations up (2 MiB pages for large ones): margin for the memory test. */
#define DEVICE_SLACK_BYTES (16.0 * 1048576.0)

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
                double ksalt, Ions ions, unsigned long long *__restrict__ maxbits)
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
            if (f & VSG_NODE_LISTED) continue; /* the correction kernel owns it */
            /* Same summation order as the CPU: −x, +x, −y, +y, −z, +z. */
            const R *q = o + k;
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
 * for the flag before the loads. Same arithmetic, same order: same bits as sor_uniform. */
template <typename R, bool NL, bool CHECK, int ZB>
__global__ void __launch_bounds__(SOR_BLOCK_X *SOR_BLOCK_Y)
    sor_uniform_zb(R *__restrict__ p, const R *__restrict__ o, const uint8_t *__restrict__ fl, int nx,
                   int ny, int nz, int c, Offsets off, R w, R u0, R u1, double omega, double lambda,
                   double ksalt, Ions ions, unsigned long long *__restrict__ maxbits)
{
    const int xh = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = 1 + blockIdx.y * blockDim.y + threadIdx.y;
    unsigned long long dmax = 0;
    if (y < ny - 1) {
        for (int z0 = 1 + blockIdx.z * ZB; z0 < nz - 1; z0 += gridDim.z * ZB) {
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
                if (!act[j] || (f[j] & VSG_NODE_LISTED)) continue; /* the correction kernel owns it */
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
    }
    if (CHECK) block_max(dmax, maxbits);
}

/* Listed nodes of one colour: φ_GS = s + Σ w_i φ_i (double accumulation, like the CPU), the
 * Newton step where k > 0 in the nonlinear phase, then over-relaxation from the node's own
 * old value. SoA: idx[n], wt[6][n], sv[n], kv[n]. */
template <typename R, bool NL, bool CHECK>
__global__ void __launch_bounds__(CORR_BLOCK)
    sor_correct(R *__restrict__ p, const R *__restrict__ o, const uint64_t *__restrict__ idx,
                const R *__restrict__ wt, const R *__restrict__ sv, const R *__restrict__ kv,
                long long n, Offsets off, double omega, double lambda, Ions ions,
                unsigned long long *__restrict__ maxbits)
{
    unsigned long long dmax = 0;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < n;
         e += (long long)gridDim.x * blockDim.x) {
        const long long k = (long long)idx[e];
        const R *q = o + k;
        double gs = (double)sv[e];
#pragma unroll
        for (int i = 0; i < 6; i++)
            gs = __dadd_rn(gs, __dmul_rn((double)wt[i * n + e], (double)nb(q, off.o[i])));
        const double old = (double)p[k];
        if (NL) {
            const double kk = (double)kv[e];
            if (kk > 0.0) gs = newton(ions, gs, old, lambda * kk);
        }
        const R nv = (R)__dadd_rn(old, __dmul_rn(omega, __dsub_rn(gs, old)));
        if (CHECK) dmax = umax64(dmax, change_bits((double)nv, old));
        p[k] = nv;
    }
    if (CHECK) block_max(dmax, maxbits);
}

/* ---- host side ------------------------------------------------------------------------------ */

static size_t real_size(const vsg_pb_system *s)
{
    return s->precision == VSG_PRECISION_FLOAT ? sizeof(float) : sizeof(double);
}

/* Per listed node: index (8 bytes) + w[6], s, k in the solve's precision. */
static double corr_entry_bytes(size_t real) { return 8.0 + 8.0 * (double)real; }

extern "C" double vsg_sor_gpu_bytes(const vsg_pb_system *s)
{
    const size_t real = real_size(s);
    double b = sizeof(unsigned long long); /* the max |Δφ| scalar */
    for (int c = 0; c < 2; c++)
        b += (double)s->count[c] * (double)(real + 1) + (double)s->ncorr[c] * corr_entry_bytes(real);
    return b;
}

/* Everything the solve allocates; freed by release() whatever happened. */
struct Solve {
    void *phi[2];
    uint8_t *flag[2];
    void *corr[2];
    unsigned long long *maxbits;
    cudaStream_t stream;
    int prev_device;
};

static void release(Solve *d)
{
    for (int c = 0; c < 2; c++) {
        if (d->phi[c]) cudaFree(d->phi[c]);
        if (d->flag[c]) cudaFree(d->flag[c]);
        if (d->corr[c]) cudaFree(d->corr[c]);
    }
    if (d->maxbits) cudaFree(d->maxbits);
    if (d->stream) cudaStreamDestroy(d->stream);
    (void)cudaGetLastError();
    if (d->prev_device >= 0) (void)cudaSetDevice(d->prev_device);
    (void)cudaGetLastError();
}

static long long floor_div2(long long a) { return a >= 0 ? a / 2 : -((-a + 1) / 2); }

/* A listed node must be interior: its six neighbours are then inside the other colour's
 * array (the CPU would read out of bounds; on the GPU that would poison the context). The
 * list must be sorted without repeats (pb_system.h): a repeated node would be two threads
 * writing one value, a race the CPU's ordered loop does not have. */
static vsg_status check_corr(const vsg_pb_system *s, int c)
{
    const size_t nxy = (size_t)s->nx * (size_t)s->ny;
    for (size_t e = 0; e < s->ncorr[c]; e++) {
        uint64_t k = s->corr[c][e].index;
        if (k >= s->count[c])
            return vsg_fail(VSG_E_ARG, "PB correction %zu of colour %d: index %llu past the %zu nodes",
                            e, c, (unsigned long long)k, s->count[c]);
        if (e > 0 && k <= s->corr[c][e - 1].index)
            return vsg_fail(VSG_E_ARG,
                            "PB corrections of colour %d not sorted by index (entry %zu: %llu after %llu)",
                            c, e, (unsigned long long)k,
                            (unsigned long long)s->corr[c][e - 1].index);
        size_t L = 2 * (size_t)k + (size_t)c;
        int x = (int)(L % (size_t)s->nx), y = (int)((L / (size_t)s->nx) % (size_t)s->ny);
        int z = (int)(L / nxy);
        if (x < 1 || x > s->nx - 2 || y < 1 || y > s->ny - 2 || z < 1 || z > s->nz - 2)
            return vsg_fail(VSG_E_ARG, "PB correction %zu of colour %d: node (%d,%d,%d) is on the box face",
                            e, c, x, y, z);
    }
    return VSG_OK;
}

/* Corrections of colour c as SoA in one device block: idx[n] (uint64), then w0..w5, s, k. */
template <typename R>
static vsg_status upload_corr(const vsg_pb_system *s, int c, Solve *d)
{
    const size_t n = s->ncorr[c];
    if (n == 0) return VSG_OK;
    const size_t bytes = n * (sizeof(uint64_t) + 8 * sizeof(R));
    unsigned char *h = (unsigned char *)malloc(bytes);
    if (!h) return vsg_fail(VSG_E_NOMEM, "GPU PB solver: no host memory to stage %zu corrections", n);
    uint64_t *idx = (uint64_t *)h;
    R *v = (R *)(h + n * sizeof(uint64_t));
    for (size_t e = 0; e < n; e++) {
        const vsg_pb_corr *q = &s->corr[c][e];
        idx[e] = q->index;
        for (int i = 0; i < 6; i++) v[(size_t)i * n + e] = (R)q->w[i];
        v[6 * n + e] = (R)q->s;
        v[7 * n + e] = (R)q->k;
    }
    /* On the solve's stream (non-blocking: it does not wait for the legacy default stream),
     * and finished before the staging buffer goes. */
    cudaError_t e1 = cudaMalloc(&d->corr[c], bytes);
    cudaError_t e2 = cudaSuccess;
    if (e1 == cudaSuccess) e2 = cudaMemcpyAsync(d->corr[c], h, bytes, cudaMemcpyHostToDevice, d->stream);
    if (e1 == cudaSuccess && e2 == cudaSuccess) e2 = cudaStreamSynchronize(d->stream);
    free(h);
    if (e1 != cudaSuccess) return cuda_fail("cudaMalloc (correction list)", e1);
    if (e2 != cudaSuccess) return cuda_fail("cudaMemcpyAsync (correction list)", e2);
    return VSG_OK;
}

/* Picks the kernel instantiation for (nonlinear phase, check iteration). */
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
                           double ksalt, const Ions &ions, unsigned long long *mb)
{
#define ARGS p, o, fl, s->nx, s->ny, s->nz, c, off, w, u0, u1, omega, lambda, ksalt, ions, mb
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
    const uint64_t *idx = (const uint64_t *)corr;
    const R *wt = (const R *)(idx + n);
    const R *sv = wt + 6 * n, *kv = wt + 7 * n;
#define ARGS p, o, idx, wt, sv, kv, (long long)n, off, omega, lambda, ions, mb
    if (nl) {
        if (check) sor_correct<R, true, true><<<blocks, CORR_BLOCK, 0, st>>>(ARGS);
        else sor_correct<R, true, false><<<blocks, CORR_BLOCK, 0, st>>>(ARGS);
    } else {
        if (check) sor_correct<R, false, true><<<blocks, CORR_BLOCK, 0, st>>>(ARGS);
        else sor_correct<R, false, false><<<blocks, CORR_BLOCK, 0, st>>>(ARGS);
    }
#undef ARGS
}

template <typename R>
static vsg_status solve(vsg_pb_system *s, const vsg_sor_settings *set, vsg_sor_result *r, Solve *d)
{
    const int count = vsg_gpu_count();
    if (count == 0)
        return vsg_fail(VSG_E_DEVICE, "GPU PB solver: no CUDA device (no GPU or no driver)");
    const int dev = set->gpu_index < 0 ? 0 : set->gpu_index;
    if (dev >= count)
        return vsg_fail(VSG_E_DEVICE, "GPU PB solver: GPU %d requested, %d CUDA device%s found", dev,
                        count, count == 1 ? "" : "s");
    for (int c = 0; c < 2; c++) {
        vsg_status st = check_corr(s, c);
        if (st != VSG_OK) return st;
    }
    if (s->nonlinear && (s->n_ions < 0 || s->n_ions > VSG_MAX_IONS))
        return vsg_fail(VSG_E_ARG, "GPU PB solver: %d ion species (at most %d)", s->n_ions,
                        VSG_MAX_IONS);

    int prev = -1;
    if (cudaGetDevice(&prev) == cudaSuccess && prev != dev) d->prev_device = prev;
    (void)cudaGetLastError();
    CU(cudaSetDevice(dev));
    cudaDeviceProp prop;
    CU(cudaGetDeviceProperties(&prop, dev));
    snprintf(r->device, sizeof r->device, "%.*s", (int)sizeof r->device - 1, prop.name);

    /* Launch geometry (checked before anything is allocated). */
    const dim3 block(SOR_BLOCK_X, SOR_BLOCK_Y, 1);
    const long long half = (s->nx - 1) / 2; /* most nodes of one colour in an interior row */
    const long long gy = (s->ny - 2 + SOR_BLOCK_Y - 1) / SOR_BLOCK_Y;
    const int zb = planes_per_thread();
    const int zper = zb > 1 ? zb : SOR_Z_PER_THREAD;
    long long gz = (s->nz - 2 + zper - 1) / zper;
    if (gz > 65535) gz = 65535; /* hardware limit; the kernel strides over the rest */
    if (gy > 65535)
        return vsg_fail(VSG_E_LIMIT, "GPU PB solver: ny = %d is past the launch limit (%d)", s->ny,
                        65535 * SOR_BLOCK_Y + 2);
    const dim3 grid((unsigned)((half + SOR_BLOCK_X - 1) / SOR_BLOCK_X), (unsigned)gy, (unsigned)gz);

    const double need = vsg_sor_gpu_bytes(s);
    size_t fr = 0, tot = 0;
    CU(cudaMemGetInfo(&fr, &tot));
    if (set->max_gpu_bytes > 0.0 && need > set->max_gpu_bytes)
        return vsg_fail(VSG_E_LIMIT,
                        "GPU PB solver: a %dx%dx%d %s grid needs %.1f MiB on the GPU, above the "
                        "--max-gpu-memory cap of %.1f MiB",
                        s->nx, s->ny, s->nz, s->precision == VSG_PRECISION_FLOAT ? "float" : "double",
                        need / 1048576.0, set->max_gpu_bytes / 1048576.0);
    if (need + DEVICE_SLACK_BYTES > (double)fr)
        return vsg_fail(VSG_E_LIMIT,
                        "GPU PB solver: a %dx%dx%d %s grid needs %.1f MiB on GPU %d (%s), %.1f MiB "
                        "free of %.1f MiB",
                        s->nx, s->ny, s->nz, s->precision == VSG_PRECISION_FLOAT ? "float" : "double",
                        (need + DEVICE_SLACK_BYTES) / 1048576.0, dev, prop.name,
                        (double)fr / 1048576.0, (double)tot / 1048576.0);
    r->device_bytes = need;

    CU(cudaStreamCreateWithFlags(&d->stream, cudaStreamNonBlocking));
    for (int c = 0; c < 2; c++) {
        const size_t n = s->count[c];
        CU(cudaMalloc(&d->phi[c], n * sizeof(R)));
        CU(cudaMalloc((void **)&d->flag[c], n));
        CU(cudaMemcpyAsync(d->phi[c], s->phi[c], n * sizeof(R), cudaMemcpyHostToDevice, d->stream));
        CU(cudaMemcpyAsync(d->flag[c], s->flag[c], n, cudaMemcpyHostToDevice, d->stream));
        vsg_status st = upload_corr<R>(s, c, d);
        if (st != VSG_OK) return st;
    }
    CU(cudaMalloc((void **)&d->maxbits, sizeof(unsigned long long)));

    /* Constants exactly as the CPU sweep forms them. */
    Offsets off[2];
    const long long dxyz[3] = {1, s->nx, (long long)s->nx * s->ny};
    for (int c = 0; c < 2; c++)
        for (int a = 0; a < 3; a++) {
            off[c].o[2 * a] = floor_div2(c - dxyz[a]) * (long long)sizeof(R);
            off[c].o[2 * a + 1] = floor_div2(c + dxyz[a]) * (long long)sizeof(R);
        }
    const R u0 = (R)(1.0 / 6.0), u1 = (R)(1.0 / (6.0 + s->kh2));
    const double ksalt = s->kh2 / (6.0 + s->kh2);
    Ions ions;
    memset(&ions, 0, sizeof ions);
    ions.n = s->nonlinear ? s->n_ions : 0; /* validated above; unused when linear */
    for (int i = 0; i < ions.n; i++) {
        ions.molar[i] = s->ion_molar[i];
        ions.charge[i] = s->ion_charge[i];
    }
    ions.two_i = s->two_i;
    int cblocks[2];
    for (int c = 0; c < 2; c++) {
        long long b = ((long long)s->ncorr[c] + CORR_BLOCK - 1) / CORR_BLOCK;
        long long cap = (long long)prop.multiProcessorCount * CORR_BLOCKS_PER_SM;
        cblocks[c] = (int)(b < cap ? b : cap);
    }

    const int check_every = set->check_every > 0 ? set->check_every : 10;
    const int show = set->progress && isatty(2);
    int diverged = 0;
    CU(cudaStreamSynchronize(d->stream)); /* the clock covers the iteration loop only */
    const double t0 = vsg_now();
    vsg_sor_schedule sc;
    vsg_sor_schedule_init(&sc, set, show, t0);

    for (int it = 0; it < set->max_iter; it++) {
        const bool check = (it + 1) % check_every == 0 || it + 1 == set->max_iter;
        const double lambda = s->nonlinear ? vsg_nl_lambda(it) : 0.0;
        const bool nl = s->nonlinear && lambda > 0.0;
        const double omega = sc.omega;
        if (check) CU(cudaMemsetAsync(d->maxbits, 0, sizeof(unsigned long long), d->stream));
        for (int c = 0; c < 2; c++) {
            R *p = (R *)d->phi[c];
            const R *o = (const R *)d->phi[1 - c];
            launch_uniform<R>(zb, nl, check, grid, block, d->stream, p, o, d->flag[c], s, c, off[c], (R)omega,
                              u0, u1, omega, lambda, ksalt, ions, d->maxbits);
            LAUNCHED("the uniform SOR kernel");
            if (s->ncorr[c]) {
                launch_correct<R>(nl, check, cblocks[c], d->stream, p, o, d->corr[c], s->ncorr[c],
                                  off[c], omega, lambda, ions, d->maxbits);
                LAUNCHED("the SOR correction kernel");
            }
        }
        r->iterations = it + 1;
        if (!check) continue;
        unsigned long long bits = 0;
        CU(cudaMemcpyAsync(&bits, d->maxbits, sizeof bits, cudaMemcpyDeviceToHost, d->stream));
        CU(cudaStreamSynchronize(d->stream));
        double change;
        memcpy(&change, &bits, sizeof change);
        r->final_change = change;
        /* The same schedule as the CPU twin, from the same checks (pb_system.h). */
        const vsg_sor_verdict v = vsg_sor_after_check(&sc, set, s->nonlinear, it + 1, lambda, change, vsg_now());
        if (v == VSG_SOR_DIVERGED) {
            diverged = 1;
            break;
        }
        if (v == VSG_SOR_CONVERGED) {
            r->converged = 1;
            break;
        }
    }
    CU(cudaStreamSynchronize(d->stream));
    r->seconds = vsg_now() - t0;
    r->omega = sc.omega;
    if (show) fprintf(stderr, "\r%60s\r", "");

    /* The solution (or, after divergence, the last state, as the CPU leaves it) back in s. */
    for (int c = 0; c < 2; c++)
        CU(cudaMemcpyAsync(s->phi[c], d->phi[c], s->count[c] * sizeof(R), cudaMemcpyDeviceToHost,
                           d->stream));
    CU(cudaStreamSynchronize(d->stream));
    if (diverged)
        return vsg_fail(VSG_E_CONVERGE, "PB solver diverged at iteration %d (change %g)",
                        r->iterations, r->final_change);
    return VSG_OK;
}

extern "C" vsg_status vsg_sor_gpu(vsg_pb_system *s, const vsg_sor_settings *set, vsg_sor_result *r)
{
    r->iterations = 0;
    r->converged = 0;
    r->final_change = INFINITY;
    r->seconds = 0.0;
    r->device_bytes = 0.0;
    r->device[0] = '\0';
    if (s->precision != VSG_PRECISION_FLOAT && s->precision != VSG_PRECISION_DOUBLE)
        return vsg_fail(VSG_E_ARG, "GPU PB solver: unknown precision %d", (int)s->precision);
    Solve d;
    memset(&d, 0, sizeof d);
    d.prev_device = -1;
    vsg_status st = s->precision == VSG_PRECISION_FLOAT ? solve<float>(s, set, r, &d)
                                                        : solve<double>(s, set, r, &d);
    release(&d);
    return st;
}
