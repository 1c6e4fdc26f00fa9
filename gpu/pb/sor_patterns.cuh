/* sor_patterns.cuh — takes the uncharged listed nodes whose weights repeat out of the
 * correction list before a GPU solve (sor_kernels.cuh, "listed-node patterns").
 *
 * Why: each list entry is read whole (an index and 7–8 reals) and its six neighbour gathers
 * fetch a 32-byte sector for 4 or 8 useful bytes, while the stencil thread of the same node has
 * loaded those neighbours already, coalesced, and discards them. On a dielectric boundary with
 * two ε values the uncharged entries share at most 2^6 × 2 weight sets, so most of the list
 * can be updated by the stencil from a small table instead.
 *
 * How (all on the device, on the solve's stream; nothing is assumed about the physics):
 * 1. every entry with s = +0 hashes its w0..w5, k (bits) into a table of SOR_PATTERNS slots
 *    (open addressing, atomicCAS on the hash); the smallest (entry, colour) code of a slot is
 *    its representative (atomicMin, so the same one whatever the order);
 * 2. an entry whose bits equal its slot's representative's exactly gets that slot; the
 *    representative writes the slot's weights into the table. Any other entry (charged, a hash
 *    collision, a full table, e.g. a smoothed surface) stays in the list;
 * 3. a scan gives the kept entries their places; if the shorter list can be allocated, the
 *    kept entries are copied into it in order (still sorted) and the others' flags become
 *    SOR_PATTERN_FLAG | slot. Until then nothing the solve reads has changed: out of memory
 *    here only means the solve keeps its full list.
 * The update of a pattern node is the list's arithmetic on the same values (listed_update), so
 * the answer keeps its bits; which slot a node gets does not matter. */
#ifndef VSG_SOR_PATTERNS_CUH
#define VSG_SOR_PATTERNS_CUH

#include <limits.h>

#include <cub/device/device_scan.cuh>

#include "gpu/device/dev_pool.cuh"
#include "gpu/pb/sor_kernels.cuh"

namespace {

#define PATTERN_EMPTY 0ull
#define PATTERN_KEEP 0xFF /* code of an entry that stays in the list */

__device__ __forceinline__ unsigned long long real_bits(float v) { return (unsigned long long)__float_as_uint(v); }
__device__ __forceinline__ unsigned long long real_bits(double v) { return (unsigned long long)__double_as_longlong(v); }

__device__ __forceinline__ unsigned long long mix64(unsigned long long h)
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ull;
    h ^= h >> 33;
    return h;
}

/* The 7 values that make a pattern: w0..w5, k (fields 0..5 and 7 of the SoA reals). */
template <typename R>
__device__ __forceinline__ R pattern_value(const ListView<R> &l, long long n, long long e, int i)
{
    return i < 6 ? l.wt[i * n + e] : l.kv[e];
}

template <typename R>
__device__ __forceinline__ unsigned long long pattern_hash(const ListView<R> &l, long long n, long long e)
{
    unsigned long long h = 0x9E3779B97F4A7C15ull;
#pragma unroll
    for (int i = 0; i < 7; i++) h = mix64(h ^ real_bits(pattern_value(l, n, e, i)));
    return h == PATTERN_EMPTY ? 1ull : h;
}

/* An entry that may become a pattern node: no source term, +0 exactly. */
template <typename R>
__device__ __forceinline__ bool pattern_candidate(const ListView<R> &l, long long e)
{
    return real_bits(l.sv[e]) == 0ull;
}

struct PatternLists {
    const void *soa[2];
    long long n[2];
};

/* Step 1: one thread per entry (blockIdx.y = colour). */
template <typename R>
__global__ void pattern_insert(PatternLists pl, unsigned long long *__restrict__ keys, unsigned long long *__restrict__ rep)
{
    const int c = blockIdx.y;
    const long long n = pl.n[c];
    const ListView<R> l = list_view<R>(pl.soa[c], (size_t)n);
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < n; e += (long long)gridDim.x * blockDim.x) {
        if (!pattern_candidate(l, e)) continue;
        const unsigned long long h = pattern_hash(l, n, e);
        unsigned slot = (unsigned)(h % SOR_PATTERNS);
        for (int probe = 0; probe < SOR_PATTERNS; probe++, slot = (slot + 1) % SOR_PATTERNS) {
            const unsigned long long was = atomicCAS(&keys[slot], PATTERN_EMPTY, h);
            if (was == PATTERN_EMPTY || was == h) {
                atomicMin(&rep[slot], ((unsigned long long)e << 1) | (unsigned long long)c);
                break;
            }
        }
    }
}

/* Step 2: each entry's slot (or PATTERN_KEEP) in code, keep = 1 for entries that stay; the
 * representatives write the table. */
template <typename R>
__global__ void pattern_classify(PatternLists pl, const unsigned long long *__restrict__ keys,
                                 const unsigned long long *__restrict__ rep, R *__restrict__ table,
                                 uint8_t *__restrict__ code0, uint8_t *__restrict__ code1, unsigned *__restrict__ keep0,
                                 unsigned *__restrict__ keep1)
{
    const int c = blockIdx.y;
    const long long n = pl.n[c];
    const ListView<R> l = list_view<R>(pl.soa[c], (size_t)n);
    uint8_t *code = c ? code1 : code0;
    unsigned *keep = c ? keep1 : keep0;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < n; e += (long long)gridDim.x * blockDim.x) {
        int found = -1;
        if (pattern_candidate(l, e)) {
            const unsigned long long h = pattern_hash(l, n, e);
            unsigned slot = (unsigned)(h % SOR_PATTERNS);
            for (int probe = 0; probe < SOR_PATTERNS; probe++, slot = (slot + 1) % SOR_PATTERNS) {
                const unsigned long long k = keys[slot];
                if (k == PATTERN_EMPTY) break;
                if (k == h) {
                    found = (int)slot;
                    break;
                }
            }
        }
        if (found >= 0) {
            const unsigned long long r = rep[found];
            const int rc = (int)(r & 1ull);
            const long long re = (long long)(r >> 1);
            const ListView<R> rl = list_view<R>(pl.soa[rc], (size_t)pl.n[rc]);
            for (int i = 0; i < 7 && found >= 0; i++)
                if (real_bits(pattern_value(l, n, e, i)) != real_bits(pattern_value(rl, pl.n[rc], re, i))) found = -1;
            if (found >= 0 && rc == c && re == e)
                for (int i = 0; i < 7; i++) table[found * SOR_PATTERN_STRIDE + i] = pattern_value(l, n, e, i);
        }
        code[e] = found >= 0 ? (uint8_t)found : (uint8_t)PATTERN_KEEP;
        keep[e] = found < 0;
    }
}

/* Step 3: kept entry e to place pos[e] − 1 of the m-entry list out (pos: inclusive scan of
 * keep); the others' nodes get their pattern flag. */
template <typename R>
__global__ void pattern_compact(const void *in, long long n, const uint8_t *__restrict__ code,
                                const unsigned *__restrict__ pos, void *out, long long m, uint8_t *__restrict__ flag)
{
    const ListView<R> l = list_view<R>(in, (size_t)n);
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < n; e += (long long)gridDim.x * blockDim.x) {
        if (code[e] != PATTERN_KEEP) {
            flag[l.idx[e]] = (uint8_t)(SOR_PATTERN_FLAG | code[e]);
            continue;
        }
        const long long t = (long long)pos[e] - 1;
        copy_entry<R>(l, n, e, out, m, t);
    }
}

/* The patterns of a solve: the table (device), and per colour the shorter list and its
 * length. */
template <typename R>
struct Patterns {
    R *table;
    void *corr[2];
    size_t ncorr[2];
};

/* Steps 1–3 for the lists soa[c] of n[c] entries and the flags flag[c]. On VSG_OK with
 * p->table != NULL the flags carry pattern bits and p->corr/p->ncorr replace the lists (the
 * caller frees the old ones and, later, p->table and p->corr). p->table == NULL: nothing
 * changed (no candidates, or no device memory for the work). Other statuses: a CUDA error. */
template <typename R>
static vsg_status find_patterns(cudaStream_t st, void *const soa[2], const size_t n[2], uint8_t *const flag[2],
                                Patterns<R> *p)
{
    memset(p, 0, sizeof *p);
    if (!n[0] && !n[1]) return VSG_OK;
    const size_t most = n[0] > n[1] ? n[0] : n[1];
    if (most > (size_t)INT_MAX) return VSG_OK; /* past the scan's item count: keep the lists */
    unsigned long long *keys = NULL, *rep = NULL;
    uint8_t *code[2] = {NULL, NULL};
    unsigned *keep[2] = {NULL, NULL}, *pos[2] = {NULL, NULL};
    void *scratch = NULL;
    size_t scratch_bytes = 0;
    unsigned last[2] = {0, 0};
    cudaError_t e = cub::DeviceScan::InclusiveSum(NULL, scratch_bytes, (const unsigned *)NULL, (unsigned *)NULL,
                                                  (int)most, st);
    /* Everything the work needs, before anything is written. */
    if (e == cudaSuccess) e = pool_alloc(&scratch, scratch_bytes ? scratch_bytes : 1, st);
    if (e == cudaSuccess) e = pool_alloc((void **)&keys, SOR_PATTERNS * sizeof *keys, st);
    if (e == cudaSuccess) e = pool_alloc((void **)&rep, SOR_PATTERNS * sizeof *rep, st);
    if (e == cudaSuccess) e = pool_alloc((void **)&p->table, SOR_PATTERNS * SOR_PATTERN_STRIDE * sizeof(R), st);
    for (int c = 0; c < 2 && e == cudaSuccess; c++) {
        const size_t k = n[c] ? n[c] : 1;
        e = pool_alloc((void **)&code[c], k, st);
        if (e == cudaSuccess) e = pool_alloc((void **)&keep[c], k * sizeof(unsigned), st);
        if (e == cudaSuccess) e = pool_alloc((void **)&pos[c], k * sizeof(unsigned), st);
    }
    const bool no_memory = e == cudaErrorMemoryAllocation;
    if (e == cudaSuccess) e = cudaMemsetAsync(keys, 0, SOR_PATTERNS * sizeof *keys, st);
    if (e == cudaSuccess) e = cudaMemsetAsync(rep, 0xFF, SOR_PATTERNS * sizeof *rep, st); /* no representative */
    if (e == cudaSuccess) e = cudaMemsetAsync(p->table, 0, SOR_PATTERNS * SOR_PATTERN_STRIDE * sizeof(R), st);
    PatternLists pl;
    for (int c = 0; c < 2; c++) {
        pl.soa[c] = soa[c];
        pl.n[c] = (long long)n[c];
    }
    const dim3 grid((unsigned)((most + 255) / 256 < 65535 ? (most + 255) / 256 : 65535), 2);
    if (e == cudaSuccess) {
        pattern_insert<R><<<grid, 256, 0, st>>>(pl, keys, rep);
        e = cudaGetLastError();
    }
    if (e == cudaSuccess) {
        pattern_classify<R><<<grid, 256, 0, st>>>(pl, keys, rep, p->table, code[0], code[1], keep[0], keep[1]);
        e = cudaGetLastError();
    }
    for (int c = 0; c < 2 && e == cudaSuccess; c++) {
        if (!n[c]) continue;
        e = cub::DeviceScan::InclusiveSum(scratch, scratch_bytes, keep[c], pos[c], (int)n[c], st);
        if (e == cudaSuccess) e = cudaMemcpyAsync(&last[c], pos[c] + n[c] - 1, sizeof(unsigned), cudaMemcpyDeviceToHost, st);
    }
    if (e == cudaSuccess) e = cudaStreamSynchronize(st);
    /* the shorter lists; without the memory for them, the solve keeps its lists */
    bool fits = e == cudaSuccess;
    for (int c = 0; c < 2 && fits; c++) {
        p->ncorr[c] = n[c] ? last[c] : 0;
        if (p->ncorr[c]) {
            cudaError_t a = pool_alloc(&p->corr[c], corr_bytes<R>(p->ncorr[c]), st);
            if (a == cudaErrorMemoryAllocation) fits = false;
            else if (a != cudaSuccess) e = a, fits = false;
        }
    }
    if (fits && p->ncorr[0] == n[0] && p->ncorr[1] == n[1]) fits = false; /* no entry left the lists */
    for (int c = 0; c < 2 && fits; c++) {
        if (!n[c]) continue;
        const unsigned blocks = (unsigned)((n[c] + 255) / 256 < 65535 ? (n[c] + 255) / 256 : 65535);
        pattern_compact<R><<<blocks, 256, 0, st>>>(soa[c], (long long)n[c], code[c], pos[c], p->corr[c],
                                                   (long long)p->ncorr[c], flag[c]);
        e = cudaGetLastError();
        if (e != cudaSuccess) fits = false;
    }
    /* the compaction's own failure is reported here, as the patterns' (the scratch below goes
     * back to the pool in stream order anyway) */
    if (fits && e == cudaSuccess) e = cudaStreamSynchronize(st);
    pool_free(keys, st);
    pool_free(rep, st);
    pool_free(scratch, st);
    for (int c = 0; c < 2; c++) {
        pool_free(code[c], st);
        pool_free(keep[c], st);
        pool_free(pos[c], st);
    }
    if (!fits || e != cudaSuccess) {
        pool_free(p->table, st);
        for (int c = 0; c < 2; c++) pool_free(p->corr[c], st);
        memset(p, 0, sizeof *p);
        if (e != cudaSuccess && !(no_memory && e == cudaErrorMemoryAllocation)) {
            (void)cudaGetLastError();
            return vsg_fail(VSG_E_DEVICE, "GPU PB solver: listed-node patterns: %s", cudaGetErrorString(e));
        }
        (void)cudaGetLastError();
    }
    return VSG_OK;
}

} // namespace

#endif
