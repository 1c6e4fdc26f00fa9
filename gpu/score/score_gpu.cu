/* screen.cu — the GPU screening kernels of paper 003 (GM, ROI, SM, TM, ZIP, ROI-TM-ZIP,
 * ROI-SM-ZIP) and their host side: grids resident on one device, batches split into launches of
 * whole ligands, double-buffered on two streams, one vsg_score_result per ligand reduced on the
 * device. The contract, the formats and the error bounds are in screen_gpu.h and zip.h; the
 * reference is the CPU twin vsg_score_cpu (ligands/score/score_cpu.c), whose formulas, outside rule and
 * AD4 penalty are reproduced here (tests/test_gpu_screen.c checks every kernel × precision).
 *
 * Work layout. A warp takes SC_CHUNKS runs of 32 consecutive atoms (one atom per lane per
 * run); all runs' atom data are loaded and located before any grid lookup, so a thread has
 * SC_CHUNKS independent sets of 8–24 gathers in flight. Ligand boundaries come from a head bit
 * in each atom's type byte plus one 32-bit table entry per run (the ligand of its first atom):
 * lane l's ligand = entry + heads at lanes ≤ l. Each run's values are summed per ligand with a
 * segmented shuffle-down tree (5 steps, a lane adds its partner only inside its own ligand),
 * and the first lane of each ligand segment adds the segment's sum to the ligand's double
 * accumulator (atomicAdd: at most ⌈atoms/32⌉ + 1 partial sums per ligand; with 2 they commute
 * exactly, so ligands of ≤ 33 atoms give the same bits every run).
 *
 * Bytes per atom that the kernel streams: plain 17 (x, y, z, q float + type byte), ZIP 10.
 * Against the H100 ceilings (streaming ~1.9e11 atoms/s at 17 B; tex3D ~1.4e11 clustered) the
 * pocket-local case is lookup-bound: ELEC does 8 gathers per atom (one texture fetch in TM),
 * AD4 24 (3 fetches). The gathers of a pocket (24 Å at 0.375 Å: 65³ nodes, 1.1 MB per map)
 * stay in L2 and largely in L1.
 */
#include <cuda_runtime.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

extern "C" {
#include "ligands/score/batch.h"
#include "grids/base/vsgrid.h" /* C headers without their own extern "C" guard */
#include "ligands/score/zip.h"
}
#include "gpu/device/gpu.h"
#include "gpu/score/score_gpu.h"

#define VSG_CUDA_WHO "GPU screening"
#include "gpu/device/cuda_check.h"
#include "gpu/device/dev_pool.cuh"
#include "gpu/score/grid_lookup.cuh"

/* ---- tuning constants ----------------------------------------------------------------------
 * SC_THREADS per block, SC_CHUNKS 32-atom runs per warp (a block covers 512 atoms; the SM
 * kernels stage the nodes of those 512 atoms). SC_SMEM_BYTES: the SM staging area (46 KiB,
 * under the 48 KiB that needs no opt-in, so 4 blocks of 256 threads fit an SM). Launch
 * capacity: at most SC_MAX_LAUNCH_ATOMS atoms and atoms/SC_ATOMS_PER_LIGAND + 64 non-empty
 * ligands per launch, at least SC_MIN_LAUNCH_ATOMS. Not yet tuned on a GPU (no GPU where this
 * was written): scripts/bench_screen prints the rates to tune them with; SC_THREADS and
 * SC_CHUNKS can be set at build time (-DSC_CHUNKS=4 in CMAKE_CUDA_FLAGS) for a sweep. */
#ifndef SC_THREADS
#define SC_THREADS 256
#endif
#ifndef SC_CHUNKS
#define SC_CHUNKS 2
#endif
#define SC_WARPS (SC_THREADS / 32)
#define SC_BLOCK_ATOMS (SC_THREADS * SC_CHUNKS)
#define SC_SMEM_BYTES (46 * 1024)
#define SC_MAX_LAUNCH_ATOMS ((size_t)1 << 23)
#define SC_MIN_LAUNCH_ATOMS ((size_t)4096)
#define SC_ATOMS_PER_LIGAND 4
#define SC_SLACK_BYTES (64.0 * 1048576.0) /* cudaMalloc rounding and the context's own needs */
#define AD4_ENERGY_PENALTY 500.0           /* as ligands/score/score_cpu.c (autodock/constants.h) */

enum { LK_GLOBAL = 0, LK_SMEM = 1, LK_TEX = 2 };

/* A ligand's sums on the device (32 bytes). */
struct lig_acc {
    double elec, vdw, desolv;
    unsigned long long outside;
};

/* Everything a launch needs, passed by value. */
struct kparams {
    int ad4, e_map, d_map;
    int n[3];
    /* float path: cell from (x − org)·inv_h, t from the node table, inside = [in_lo, in_hi] */
    float org[3], inv_h[3], in_lo[3], in_hi[3];
    const float2 *node; /* per axis: node positions as hi + lo floats */
    int node_off[3];
    /* double path: the twin's formulas */
    double dorg[3], dh[3], dhi[3], center[3];
    /* lookup region: the whole grids or the ROI (first node r_lo, r_n nodes per axis) */
    const float *maps;
    size_t mstride;
    int r_lo[3], r_n[3];
    cudaTextureObject_t tex;
    float tex_zs; /* z offset between stacked maps in the texture */
    /* atoms */
    unsigned natoms;
    const float *x, *y, *z, *q;
    const uint8_t *type;
    const uint16_t *kx, *ky, *kz;
    const uint32_t *qt;
    float zlo[3], zq[3];
    const uint32_t *chunk_lig;
    lig_acc *acc;
    unsigned long long *sm_stats; /* [0] blocks, [1] staged blocks */
};

/* ---- device code ----------------------------------------------------------------------------- */

template <typename R> struct loc {
    int i[3]; /* cell (full-grid node indices), clamped into the region */
    R t[3];
    bool in;
};

template <bool ZIP>
__device__ __forceinline__ void load_atom(const kparams &p, unsigned a, float &x, float &y, float &z, float &q,
                                          unsigned &tb)
{
    if (ZIP) {
        const uint32_t w = __ldg(p.qt + a);
        tb = w & 0xFFu;
        q = (float)((int32_t)w >> 8) * (1.0f / 1048576.0f); /* as vsg_zip_decode_charge */
        if ((tb & VSG_ZIP_TYPE_MASK) == VSG_ZIP_TYPE_BAD) {
            x = y = z = __int_as_float(0x7fffffff);
        } else { /* as vsg_zip_decode_coord: one correctly rounded FMA */
            x = __fmaf_rn((float)__ldg(p.kx + a), p.zq[0], p.zlo[0]);
            y = __fmaf_rn((float)__ldg(p.ky + a), p.zq[1], p.zlo[1]);
            z = __fmaf_rn((float)__ldg(p.kz + a), p.zq[2], p.zlo[2]);
        }
    } else {
        x = __ldg(p.x + a);
        y = __ldg(p.y + a);
        z = __ldg(p.z + a);
        q = __ldg(p.q + a);
        tb = __ldg(p.type + a);
    }
}

__device__ __forceinline__ int clamp_cell(const kparams &p, int a, int k)
{
    return min(max(k, p.r_lo[a]), p.r_lo[a] + p.r_n[a] - 2);
}

__device__ __forceinline__ void locate(const kparams &p, float x, float y, float z, loc<float> &c)
{
    const float v[3] = {x, y, z};
    c.in = true;
#pragma unroll
    for (int a = 0; a < 3; a++) {
        c.in = c.in && v[a] >= p.in_lo[a] && v[a] <= p.in_hi[a]; /* NaN fails */
        const float u = (v[a] - p.org[a]) * p.inv_h[a];
        const int k = clamp_cell(p, a, __float2int_rd(u));
        const float2 nd = __ldg(p.node + p.node_off[a] + k);
        c.i[a] = k;
        c.t[a] = ((v[a] - nd.x) - nd.y) * p.inv_h[a];
    }
}

/* TM: the texel coordinate itself, t = (x − org)·inv_h − r_lo (c.i unused). Hardware filtering
 * quantises the weights to 1/256 of a cell, so the node table's exact cell and t (which cost
 * three more gathers through the same L1/texture path) buy no accuracy here; the inside test is
 * locate()'s, so atoms are counted outside exactly as the twin counts them. */
__device__ __forceinline__ void locate_tex(const kparams &p, float x, float y, float z, loc<float> &c)
{
    const float v[3] = {x, y, z};
    c.in = true;
#pragma unroll
    for (int a = 0; a < 3; a++) {
        c.in = c.in && v[a] >= p.in_lo[a] && v[a] <= p.in_hi[a]; /* NaN fails */
        c.i[a] = 0;
        c.t[a] = (v[a] - p.org[a]) * p.inv_h[a] - (float)p.r_lo[a];
    }
}
__device__ __forceinline__ void locate_tex(const kparams &, float, float, float, loc<double> &) {}

__device__ __forceinline__ void locate(const kparams &p, float x, float y, float z, loc<double> &c)
{
    const double v[3] = {x, y, z};
    c.in = true;
#pragma unroll
    for (int a = 0; a < 3; a++) {
        c.in = c.in && v[a] >= p.dorg[a] && v[a] <= p.dhi[a];
        const double u = (v[a] - p.dorg[a]) / p.dh[a];
        const double uc = fmin(fmax(u, -1.0), (double)p.n[a]); /* keeps the int conversion defined */
        const int k = clamp_cell(p, a, (int)floor(uc));
        c.i[a] = k;
        c.t[a] = c.in ? u - (double)k : 0.0;
    }
}

/* Trilinear value from 8 corners at base (x stride 1, then sy, sz), as nested lerps. */
/* Where a block's staged nodes are (SM kernels). */
struct staged {
    const float *sm;
    int lo[3], nx, nxy, nodes;
    unsigned mask; /* AD4 type maps present */
    bool on;
};

template <typename R, int LK>
__device__ __forceinline__ R lookup(const kparams &p, const staged &s, const loc<R> &c, int map)
{
    if (LK == LK_TEX) { /* c.t: texel coordinates from locate_tex; the maps are stacked along z.
                         * z clamped into the map so a coordinate a hair below 0 (rounding at the
                         * lower face) cannot blend in the previous map's top plane. */
        return (R)tex3D<float>(p.tex, (float)c.t[0] + 0.5f, (float)c.t[1] + 0.5f,
                               fmaxf((float)c.t[2], 0.0f) + 0.5f + (float)map * p.tex_zs);
    }
    if (LK == LK_SMEM && s.on) {
        int slot;
        if (!p.ad4)
            slot = 0;
        else if (map == p.e_map)
            slot = __popc(s.mask);
        else if (map == p.d_map)
            slot = __popc(s.mask) + 1;
        else
            slot = __popc(s.mask & ((1u << map) - 1u));
        const float *b = s.sm + (size_t)slot * s.nodes + (c.i[0] - s.lo[0]) + s.nx * (c.i[1] - s.lo[1]) +
                         s.nxy * (c.i[2] - s.lo[2]);
        return trilinear<R, true>(b, s.nx, s.nxy, c.t);
    }
    const int rnx = p.r_n[0], rnxy = p.r_n[0] * p.r_n[1];
    const float *b = p.maps + (size_t)map * p.mstride + (size_t)(c.i[0] - p.r_lo[0]) +
                     (size_t)rnx * (c.i[1] - p.r_lo[1]) + (size_t)rnxy * (c.i[2] - p.r_lo[2]);
    return trilinear<R, false>(b, rnx, rnxy, c.t);
}

/* Sum over the lanes [lane, end) of v (segmented shuffle-down tree; every lane takes part). */
template <typename R> __device__ __forceinline__ R segment_sum(R v, int lane, int end)
{
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
        const R o = __shfl_down_sync(0xffffffffu, v, d);
        if (lane + d < end) v += o;
    }
    return v;
}

template <typename R, bool ZIP, int LK> __global__ void __launch_bounds__(SC_THREADS) score_kernel(const kparams p)
{
    extern __shared__ float sm_nodes[];
    __shared__ int sb[7];            /* block box of cells (min xyz, max xyz), type mask */
    __shared__ int8_t slot_map[VSG_SCORE_MAX_MAPS + 2];

    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const unsigned chunk0 = (blockIdx.x * SC_WARPS + warp) * SC_CHUNKS;
    const unsigned nchunks = (p.natoms + 31u) / 32u;

    loc<R> c[SC_CHUNKS];
    R q[SC_CHUNKS];
    unsigned tb[SC_CHUNKS], heads[SC_CHUNKS];
    unsigned lig[SC_CHUNKS];

    /* 1. load, decode and locate every run's atom; ligand of each lane; outside atoms */
#pragma unroll
    for (int j = 0; j < SC_CHUNKS; j++) {
        const unsigned ch = chunk0 + j, a = ch * 32u + lane;
        const bool valid = ch < nchunks && a < p.natoms;
        float x = 0.0f, y = 0.0f, z = 0.0f, qf = 0.0f;
        unsigned t = VSG_ZIP_TYPE_BAD;
        if (valid) load_atom<ZIP>(p, a, x, y, z, qf, t);
        if (LK == LK_TEX) locate_tex(p, x, y, z, c[j]);
        else locate(p, x, y, z, c[j]);
        c[j].in = c[j].in && valid && (t & VSG_ZIP_TYPE_MASK) != VSG_ZIP_TYPE_BAD;
        q[j] = (R)qf;
        tb[j] = t;
        heads[j] = __ballot_sync(0xffffffffu, valid && (t & VSG_ZIP_HEAD));
        lig[j] = 0;
        if (ch < nchunks) {
            const unsigned first = __ldg(p.chunk_lig + ch);
            lig[j] = first + __popc(heads[j] & (0xffffffffu >> (31 - lane))) - (heads[j] & 1u);
        }
        if (valid && !c[j].in) { /* rare: the twin's outside rule */
            lig_acc *acc = p.acc + lig[j];
            atomicAdd(&acc->outside, 1ull);
            if (p.ad4 && isfinite(x) && isfinite(y) && isfinite(z)) {
                const double dx = (double)x - p.center[0], dy = (double)y - p.center[1],
                             dz = (double)z - p.center[2];
                const double pen = AD4_ENERGY_PENALTY * (dx * dx + dy * dy + dz * dz);
                atomicAdd(&acc->elec, pen);
                atomicAdd(&acc->vdw, pen);
            }
        }
    }

    /* 2. SM: the block's box of cells and the maps it needs; stage them when they fit */
    staged s;
    s.on = false;
    s.sm = sm_nodes;
    s.mask = 0;
    s.lo[0] = s.lo[1] = s.lo[2] = 0;
    s.nx = s.nxy = s.nodes = 0;
    if (LK == LK_SMEM) {
        if (threadIdx.x == 0) {
            sb[0] = sb[1] = sb[2] = INT_MAX;
            sb[3] = sb[4] = sb[5] = INT_MIN;
            sb[6] = 0;
        }
        __syncthreads();
        int mn[3] = {INT_MAX, INT_MAX, INT_MAX}, mx[3] = {INT_MIN, INT_MIN, INT_MIN};
        unsigned types = 0;
#pragma unroll
        for (int j = 0; j < SC_CHUNKS; j++) {
            if (!c[j].in) continue;
#pragma unroll
            for (int a = 0; a < 3; a++) {
                mn[a] = min(mn[a], c[j].i[a]);
                mx[a] = max(mx[a], c[j].i[a]);
            }
            const unsigned ty = tb[j] & VSG_ZIP_TYPE_MASK;
            if (p.ad4 && ty < VSG_SCORE_MAX_MAPS) types |= 1u << ty;
        }
#pragma unroll
        for (int a = 0; a < 3; a++) {
            mn[a] = __reduce_min_sync(0xffffffffu, mn[a]);
            mx[a] = __reduce_max_sync(0xffffffffu, mx[a]);
        }
        types = __reduce_or_sync(0xffffffffu, types);
        if (lane == 0) {
            for (int a = 0; a < 3; a++) {
                atomicMin(&sb[a], mn[a]);
                atomicMax(&sb[3 + a], mx[a]);
            }
            atomicOr(&sb[6], (int)types);
        }
        __syncthreads();
        const bool any = sb[0] <= sb[3];
        long long nodes = 0;
        int nmaps = 1;
        if (any) {
            s.lo[0] = sb[0];
            s.lo[1] = sb[1];
            s.lo[2] = sb[2];
            s.nx = sb[3] - sb[0] + 2;
            s.nxy = s.nx * (sb[4] - sb[1] + 2);
            nodes = (long long)s.nxy * (sb[5] - sb[2] + 2);
            s.mask = (unsigned)sb[6];
            if (p.ad4) nmaps = __popc(s.mask) + 2;
        }
        s.on = any && nodes * nmaps * (long long)sizeof(float) <= SC_SMEM_BYTES;
        if (s.on) {
            s.nodes = (int)nodes;
            if (threadIdx.x == 0) {
                int k = 0;
                if (p.ad4) {
                    for (int m = 0; m < VSG_SCORE_MAX_MAPS; m++)
                        if (s.mask & (1u << m)) slot_map[k++] = (int8_t)m;
                    slot_map[k++] = (int8_t)p.e_map;
                    slot_map[k++] = (int8_t)p.d_map;
                } else {
                    slot_map[0] = (int8_t)p.e_map;
                }
            }
            __syncthreads();
            const int total = s.nodes * nmaps, ny = s.nxy / s.nx;
            const int rnx = p.r_n[0], rnxy = p.r_n[0] * p.r_n[1];
            for (int e = threadIdx.x; e < total; e += SC_THREADS) {
                const int slot = e / s.nodes;
                int r = e - slot * s.nodes;
                const int ix = r % s.nx;
                r /= s.nx;
                const int iy = r % ny, iz = r / ny;
                const size_t g = (size_t)slot_map[slot] * p.mstride + (size_t)(s.lo[0] + ix - p.r_lo[0]) +
                                 (size_t)rnx * (s.lo[1] + iy - p.r_lo[1]) + (size_t)rnxy * (s.lo[2] + iz - p.r_lo[2]);
                sm_nodes[e] = __ldg(p.maps + g);
            }
            __syncthreads();
        }
        if (threadIdx.x == 0 && p.sm_stats) {
            atomicAdd(&p.sm_stats[0], 1ull);
            if (s.on) atomicAdd(&p.sm_stats[1], 1ull);
        }
    }

    /* 3. values, then per-ligand sums of each run */
#pragma unroll
    for (int j = 0; j < SC_CHUNKS; j++) {
        const unsigned ch = chunk0 + j;
        if (ch >= nchunks) continue; /* warp-uniform */
        R el = 0, vd = 0, ds = 0;
        if (c[j].in) {
            el = q[j] * lookup<R, LK>(p, s, c[j], p.e_map);
            if (p.ad4) {
                const unsigned ty = tb[j] & VSG_ZIP_TYPE_MASK;
                if (ty != VSG_ZIP_TYPE_NONE) vd = lookup<R, LK>(p, s, c[j], (int)ty);
                ds = fabs(q[j]) * lookup<R, LK>(p, s, c[j], p.d_map);
            }
        }
        const unsigned after = heads[j] & ~((2u << lane) - 1u);
        const int end = after ? __ffs(after) - 1 : 32;
        el = segment_sum(el, lane, end);
        if (p.ad4) {
            vd = segment_sum(vd, lane, end);
            ds = segment_sum(ds, lane, end);
        }
        if (lane == 0 || ((heads[j] >> lane) & 1u)) {
            lig_acc *acc = p.acc + lig[j];
            atomicAdd(&acc->elec, (double)el);
            if (p.ad4) {
                atomicAdd(&acc->vdw, (double)vd);
                atomicAdd(&acc->desolv, (double)ds);
            }
        }
    }
}

typedef void (*kernel_fn)(const kparams);

/* The instantiation for (precision, ZIP, lookup); NULL when it does not exist (TM in double). */
static kernel_fn kernel_for(int dp, bool zip, int lk)
{
    if (lk == LK_TEX) {
        if (dp) return NULL;
        return zip ? score_kernel<float, true, LK_TEX> : score_kernel<float, false, LK_TEX>;
    }
    if (lk == LK_SMEM) {
        if (dp) return zip ? score_kernel<double, true, LK_SMEM> : score_kernel<double, false, LK_SMEM>;
        return zip ? score_kernel<float, true, LK_SMEM> : score_kernel<float, false, LK_SMEM>;
    }
    if (dp) return zip ? score_kernel<double, true, LK_GLOBAL> : score_kernel<double, false, LK_GLOBAL>;
    return zip ? score_kernel<float, true, LK_GLOBAL> : score_kernel<float, false, LK_GLOBAL>;
}

/* ---- kernel variants --------------------------------------------------------------------------- */

struct variant {
    bool zip, roi;
    int lk;
};

static bool variant_of(vsg_kernel k, variant *v)
{
    switch (k) {
    case VSG_KERNEL_GM: *v = {false, false, LK_GLOBAL}; return true;
    case VSG_KERNEL_ROI: *v = {false, true, LK_GLOBAL}; return true;
    case VSG_KERNEL_SM: *v = {false, false, LK_SMEM}; return true;
    case VSG_KERNEL_TM: *v = {false, false, LK_TEX}; return true;
    case VSG_KERNEL_ZIP: *v = {true, false, LK_GLOBAL}; return true;
    case VSG_KERNEL_ROI_TM_ZIP: *v = {true, true, LK_TEX}; return true;
    case VSG_KERNEL_ROI_SM_ZIP: *v = {true, true, LK_SMEM}; return true;
    default: return false;
    }
}

extern "C" int vsg_screen_gpu_supports(vsg_kernel k, int double_precision)
{
    variant v;
    if (!variant_of(k, &v)) return 0;
    return !(v.lk == LK_TEX && double_precision);
}

/* ---- host side ------------------------------------------------------------------------------------ */

/* One of the two launch slots: device and pinned buffers, a stream, events. */
struct slot_t {
    void *d_atoms, *h_atoms; /* 17 B per atom: plain x, y, z, q, type; or ZIP kx, ky, kz, qt */
    uint32_t *d_chunk, *h_chunk;
    lig_acc *d_acc, *h_acc;
    size_t *ligmap; /* device ligand → batch ligand */
    cudaStream_t stream;
    cudaEvent_t ev[4];
    bool busy;
    size_t ndev;
};

struct vsg_screen_gpu {
    int device;
    vsg_score_grids g; /* geometry and map roles (map pointers not used after open) */
    size_t N;          /* nodes per map */
    double cap, used;  /* bytes: the cap, and what this object holds */
    int resident;
    float *d_maps;       /* nmaps × N, when resident */
    float *h_maps;       /* host copy when not resident (ROI uploads) */
    float2 *d_nodes;
    float *d_roi;        /* ROI sub-grids, nmaps × roi_cap nodes */
    size_t roi_cap;
    cudaArray_t tm_arr, rtm_arr; /* whole grids / ROI, maps stacked along z */
    cudaTextureObject_t tm_tex, rtm_tex;
    bool tm_ready;
    unsigned long long *d_stats;
    size_t C, L, launch_atoms;
    slot_t slot[2];
    kparams base;
    /* the last launch, for vsg_screen_gpu_rerun_last */
    bool last_ok;
    kparams last_kp;
    kernel_fn last_fn;
    unsigned last_blocks;
    size_t last_smem;
    int last_slot;
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static size_t atoms_bytes(size_t C) { return 17 * C; }
static size_t chunk_entries(size_t C) { return C / 32 + 2; }

static void free_slots(vsg_screen_gpu *s)
{
    for (int i = 0; i < 2; i++) {
        slot_t *sl = &s->slot[i];
        if (sl->d_atoms) cudaFree(sl->d_atoms);
        if (sl->d_chunk) cudaFree(sl->d_chunk);
        if (sl->d_acc) cudaFree(sl->d_acc);
        if (sl->h_atoms) cudaFreeHost(sl->h_atoms);
        if (sl->h_chunk) cudaFreeHost(sl->h_chunk);
        if (sl->h_acc) cudaFreeHost(sl->h_acc);
        free(sl->ligmap);
        sl->d_atoms = sl->h_atoms = NULL;
        sl->d_chunk = sl->h_chunk = NULL;
        sl->d_acc = sl->h_acc = NULL;
        sl->ligmap = NULL;
    }
    (void)cudaGetLastError();
}

/* Allocates both slots for C atoms and L ligands; false (everything freed) on failure. */
static bool alloc_slots(vsg_screen_gpu *s, size_t C, size_t L)
{
    for (int i = 0; i < 2; i++) {
        slot_t *sl = &s->slot[i];
        if (cudaMalloc(&sl->d_atoms, atoms_bytes(C)) != cudaSuccess ||
            cudaMalloc((void **)&sl->d_chunk, chunk_entries(C) * sizeof(uint32_t)) != cudaSuccess ||
            cudaMalloc((void **)&sl->d_acc, L * sizeof(lig_acc)) != cudaSuccess ||
            cudaHostAlloc(&sl->h_atoms, atoms_bytes(C), cudaHostAllocDefault) != cudaSuccess ||
            cudaHostAlloc((void **)&sl->h_chunk, chunk_entries(C) * sizeof(uint32_t), cudaHostAllocDefault) !=
                cudaSuccess ||
            cudaHostAlloc((void **)&sl->h_acc, L * sizeof(lig_acc), cudaHostAllocDefault) != cudaSuccess ||
            !(sl->ligmap = (size_t *)malloc(L * sizeof(size_t)))) {
            free_slots(s);
            return false;
        }
    }
    return true;
}

static vsg_status open_device(const vsg_score_grids *g, int device, double max_bytes, vsg_screen_gpu *s)
{
    const int ngpu = vsg_gpu_count();
    if (device < 0 || device >= ngpu)
        return vsg_fail(VSG_E_DEVICE, "GPU screening: GPU %d requested, %d CUDA device%s found", device, ngpu,
                        ngpu == 1 ? "" : "s");
    CU(cudaSetDevice(device));
    size_t fr = 0, tot = 0;
    pool_trim(device); /* the PB pool's idle memory (dev_pool.cuh) is cudaMalloc's again */
    CU(cudaMemGetInfo(&fr, &tot));
    double cap = (double)fr;
    if (max_bytes > 0.0 && max_bytes < cap) cap = max_bytes;
    cap -= SC_SLACK_BYTES;
    s->cap = cap;
    s->N = (size_t)g->n[0] * g->n[1] * g->n[2];
    const double gbytes = (double)g->nmaps * s->N * sizeof(float);
    const size_t ntable = (size_t)g->n[0] + g->n[1] + g->n[2];
    s->resident = gbytes <= 0.5 * cap;

    /* node tables and the grids */
    float2 *tab = (float2 *)malloc(ntable * sizeof(float2));
    if (!tab) return vsg_fail(VSG_E_NOMEM, "GPU screening: out of host memory");
    fill_node_table(g, tab, s->base.node_off);
    cudaError_t e = cudaMalloc((void **)&s->d_nodes, ntable * sizeof(float2));
    if (e == cudaSuccess) e = cudaMemcpy(s->d_nodes, tab, ntable * sizeof(float2), cudaMemcpyHostToDevice);
    free(tab);
    if (e != cudaSuccess) return cuda_fail("upload of the node tables", e);
    s->used = ntable * sizeof(float2);
    if (s->resident) {
        e = cudaMalloc((void **)&s->d_maps, (size_t)gbytes);
        if (e != cudaSuccess) return cuda_fail("cudaMalloc of the grids", e);
        for (int m = 0; m < g->nmaps; m++)
            CU(cudaMemcpy(s->d_maps + (size_t)m * s->N, g->maps[m], s->N * sizeof(float), cudaMemcpyHostToDevice));
        s->used += gbytes;
    } else {
        s->h_maps = (float *)malloc((size_t)gbytes);
        if (!s->h_maps)
            return vsg_fail(VSG_E_NOMEM, "GPU screening: out of host memory for a copy of the grids (%.0f MB)",
                            gbytes / 1048576.0);
        for (int m = 0; m < g->nmaps; m++) memcpy(s->h_maps + (size_t)m * s->N, g->maps[m], s->N * sizeof(float));
    }
    CU(cudaMalloc((void **)&s->d_stats, 2 * sizeof(unsigned long long)));

    /* batch buffers from what is left, after room for the ROI and texture copies */
    const double lazy = (s->resident ? 3.0 : 2.0) * gbytes;
    const double per_atom = 2.0 * (atoms_bytes(1) + 4.0 / 32 + (double)sizeof(lig_acc) / SC_ATOMS_PER_LIGAND);
    double left = cap - s->used - lazy;
    size_t C = left > 0 ? (size_t)(left / per_atom) : 0;
    if (C > SC_MAX_LAUNCH_ATOMS) C = SC_MAX_LAUNCH_ATOMS;
    if (C < SC_MIN_LAUNCH_ATOMS) C = SC_MIN_LAUNCH_ATOMS;
    C &= ~(size_t)31;
    for (;;) {
        const size_t L = C / SC_ATOMS_PER_LIGAND + 64;
        if (alloc_slots(s, C, L)) {
            s->C = C;
            s->L = L;
            break;
        }
        if (C / 2 < SC_MIN_LAUNCH_ATOMS)
            return vsg_fail(VSG_E_LIMIT, "GPU screening: no room on GPU %d for a batch of %zu atoms after the grids "
                                         "(%.0f MB)",
                            device, C, gbytes / 1048576.0);
        C = (C / 2) & ~(size_t)31;
    }
    s->used += 2.0 * (atoms_bytes(s->C) + chunk_entries(s->C) * 4.0 + s->L * (double)sizeof(lig_acc));
    s->launch_atoms = s->C;
    for (int i = 0; i < 2; i++) {
        CU(cudaStreamCreateWithFlags(&s->slot[i].stream, cudaStreamNonBlocking));
        for (int k = 0; k < 4; k++) CU(cudaEventCreate(&s->slot[i].ev[k]));
    }

    /* launch constants */
    kparams &p = s->base;
    p.ad4 = g->kind == VSG_SCORE_AD4;
    p.e_map = g->e_map;
    p.d_map = g->d_map;
    p.node = s->d_nodes;
    for (int a = 0; a < 3; a++) {
        p.n[a] = g->n[a];
        p.org[a] = (float)g->origin[a];
        p.inv_h[a] = (float)(1.0 / g->spacing[a]);
        const double hi = g->origin[a] + (g->n[a] - 1) * g->spacing[a]; /* as the twin forms it */
        p.in_lo[a] = float_at_least(g->origin[a]);
        p.in_hi[a] = float_at_most(hi);
        p.dorg[a] = g->origin[a];
        p.dh[a] = g->spacing[a];
        p.dhi[a] = hi;
        p.center[a] = g->origin[a] + 0.5 * (g->n[a] - 1) * g->spacing[a];
    }
    return VSG_OK;
}

extern "C" vsg_status vsg_screen_gpu_open(const vsg_score_grids *g, int device, double max_gpu_memory_bytes,
                                         vsg_screen_gpu **out)
{
    if (!out) return vsg_fail(VSG_E_ARG, "GPU screening: NULL argument");
    *out = NULL;
    if (!g) return vsg_fail(VSG_E_ARG, "GPU screening: NULL grids");
    vsg_status st = check_score_grids(g, "GPU screening");
    if (st != VSG_OK) return st;
    vsg_screen_gpu *s = (vsg_screen_gpu *)calloc(1, sizeof *s);
    if (!s) return vsg_fail(VSG_E_NOMEM, "GPU screening: out of host memory");
    s->device = device;
    s->g = *g;
    for (int m = 0; m < VSG_SCORE_MAX_MAPS; m++) s->g.maps[m] = NULL; /* not kept: copied */
    st = open_device(g, device, max_gpu_memory_bytes, s);
    if (st != VSG_OK) {
        vsg_screen_gpu_close(s);
        return st;
    }
    *out = s;
    return VSG_OK;
}

extern "C" void vsg_screen_gpu_close(vsg_screen_gpu *s)
{
    if (!s) return;
    int n = 0;
    if (cudaGetDeviceCount(&n) == cudaSuccess && s->device >= 0 && s->device < n) {
        (void)cudaSetDevice(s->device);
        for (int i = 0; i < 2; i++)
            if (s->slot[i].stream) (void)cudaStreamSynchronize(s->slot[i].stream);
        free_slots(s);
        for (int i = 0; i < 2; i++) {
            if (s->slot[i].stream) cudaStreamDestroy(s->slot[i].stream);
            for (int k = 0; k < 4; k++)
                if (s->slot[i].ev[k]) cudaEventDestroy(s->slot[i].ev[k]);
        }
        if (s->tm_tex) cudaDestroyTextureObject(s->tm_tex);
        if (s->rtm_tex) cudaDestroyTextureObject(s->rtm_tex);
        if (s->tm_arr) cudaFreeArray(s->tm_arr);
        if (s->rtm_arr) cudaFreeArray(s->rtm_arr);
        if (s->d_maps) cudaFree(s->d_maps);
        if (s->d_roi) cudaFree(s->d_roi);
        if (s->d_nodes) cudaFree(s->d_nodes);
        if (s->d_stats) cudaFree(s->d_stats);
        (void)cudaGetLastError();
    }
    free(s->h_maps);
    free(s);
}

extern "C" size_t vsg_screen_gpu_batch_atoms(const vsg_screen_gpu *s) { return s ? s->launch_atoms : 0; }

extern "C" void vsg_screen_gpu_set_launch_atoms(vsg_screen_gpu *s, size_t atoms)
{
    if (!s) return;
    if (atoms == 0 || atoms > s->C) atoms = s->C;
    if (atoms < 32) atoms = 32;
    s->launch_atoms = atoms;
}

extern "C" int vsg_screen_gpu_grids_resident(const vsg_screen_gpu *s) { return s ? s->resident : 0; }

/* ---- ROI and textures -------------------------------------------------------------------------- */

/* The nodes covering a box of coordinates, one node of margin, clipped to the grid. */
static void roi_of_box(const vsg_score_grids *g, const float lo[3], const float hi[3], int r_lo[3], int r_n[3])
{
    for (int a = 0; a < 3; a++) {
        const int n = g->n[a];
        int i0 = 0, i1 = 1;
        if (lo[a] <= hi[a]) {
            const double u0 = ((double)lo[a] - g->origin[a]) / g->spacing[a];
            const double u1 = ((double)hi[a] - g->origin[a]) / g->spacing[a];
            const double f0 = floor(fmin(fmax(u0, -2.0), n + 2.0)) - 1.0;
            const double f1 = floor(fmin(fmax(u1, -2.0), n + 2.0)) + 2.0;
            i0 = (int)fmin(fmax(f0, 0.0), n - 2.0);
            i1 = (int)fmin(fmax(f1, i0 + 1.0), n - 1.0);
        }
        r_lo[a] = i0;
        r_n[a] = i1 - i0 + 1;
    }
}

/* Source of map m for a 3D copy: the resident grids or the host copy. */
static cudaPitchedPtr map_source(const vsg_screen_gpu *s, int m)
{
    float *base = s->resident ? s->d_maps : s->h_maps;
    return make_cudaPitchedPtr(base + (size_t)m * s->N, (size_t)s->g.n[0] * sizeof(float), (size_t)s->g.n[0],
                               (size_t)s->g.n[1]);
}

static vsg_status room_for(vsg_screen_gpu *s, double bytes, const char *what)
{
    if (s->used + bytes > s->cap)
        return vsg_fail(VSG_E_LIMIT, "GPU screening: %s needs %.0f MB more on GPU %d, over the memory cap", what,
                        bytes / 1048576.0, s->device);
    return VSG_OK;
}

/* Gathers the ROI of every map into d_roi (compact, r_n dims). */
static vsg_status roi_gather(vsg_screen_gpu *s, const int r_lo[3], const int r_n[3], cudaStream_t st)
{
    const size_t rN = (size_t)r_n[0] * r_n[1] * r_n[2];
    if (!s->d_roi) { /* sized once for the worst case, the whole grids */
        const double bytes = (double)s->g.nmaps * s->N * sizeof(float);
        vsg_status v = room_for(s, bytes, "the ROI buffer");
        if (v != VSG_OK) return v;
        CU(cudaMalloc((void **)&s->d_roi, (size_t)bytes));
        s->used += bytes;
        s->roi_cap = s->N;
    }
    for (int m = 0; m < s->g.nmaps; m++) {
        cudaMemcpy3DParms c;
        memset(&c, 0, sizeof c);
        c.srcPtr = map_source(s, m);
        c.srcPos = make_cudaPos((size_t)r_lo[0] * sizeof(float), (size_t)r_lo[1], (size_t)r_lo[2]);
        c.dstPtr = make_cudaPitchedPtr(s->d_roi + (size_t)m * rN, (size_t)r_n[0] * sizeof(float), (size_t)r_n[0],
                                       (size_t)r_n[1]);
        c.extent = make_cudaExtent((size_t)r_n[0] * sizeof(float), (size_t)r_n[1], (size_t)r_n[2]);
        c.kind = s->resident ? cudaMemcpyDeviceToDevice : cudaMemcpyHostToDevice;
        CU(cudaMemcpy3DAsync(&c, st));
    }
    return VSG_OK;
}

/* A stacked 3D array (nx, ny, nz × nmaps) and its linear-filtering texture object. */
static vsg_status make_texture(vsg_screen_gpu *s, cudaArray_t *arr, cudaTextureObject_t *tex, bool zero)
{
    const int nx = s->g.n[0], ny = s->g.n[1], depth = s->g.n[2] * s->g.nmaps;
    int mw = 0, mh = 0, md = 0;
    CU(cudaDeviceGetAttribute(&mw, cudaDevAttrMaxTexture3DWidth, s->device));
    CU(cudaDeviceGetAttribute(&mh, cudaDevAttrMaxTexture3DHeight, s->device));
    CU(cudaDeviceGetAttribute(&md, cudaDevAttrMaxTexture3DDepth, s->device));
    if (nx > mw || ny > mh || depth > md)
        return vsg_fail(VSG_E_LIMIT, "GPU screening: TM needs a %d x %d x %d texture (maps stacked along z), over "
                                     "this GPU's %d x %d x %d",
                        nx, ny, depth, mw, mh, md);
    const double bytes = (double)nx * ny * depth * sizeof(float);
    vsg_status v = room_for(s, bytes, "the texture");
    if (v != VSG_OK) return v;
    cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
    CU(cudaMalloc3DArray(arr, &cd, make_cudaExtent((size_t)nx, (size_t)ny, (size_t)depth), 0));
    s->used += bytes;
    if (zero) { /* texels past the ROI are fetched with weight 0 at the ROI's upper faces: keep them finite */
        const int slab = 16;
        float *z0 = NULL;
        CU(cudaMalloc((void **)&z0, (size_t)nx * ny * slab * sizeof(float)));
        cudaError_t e = cudaMemset(z0, 0, (size_t)nx * ny * slab * sizeof(float));
        for (int z = 0; z < depth && e == cudaSuccess; z += slab) {
            cudaMemcpy3DParms c;
            memset(&c, 0, sizeof c);
            c.srcPtr = make_cudaPitchedPtr(z0, (size_t)nx * sizeof(float), (size_t)nx, (size_t)ny);
            c.dstArray = *arr;
            c.dstPos = make_cudaPos(0, 0, (size_t)z);
            c.extent = make_cudaExtent((size_t)nx, (size_t)ny, (size_t)(depth - z < slab ? depth - z : slab));
            c.kind = cudaMemcpyDeviceToDevice;
            e = cudaMemcpy3D(&c);
        }
        cudaFree(z0);
        if (e != cudaSuccess) return cuda_fail("zeroing the ROI texture", e);
    }
    cudaResourceDesc rd;
    memset(&rd, 0, sizeof rd);
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = *arr;
    cudaTextureDesc td;
    memset(&td, 0, sizeof td);
    td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = cudaAddressModeClamp;
    td.filterMode = cudaFilterModeLinear;
    td.readMode = cudaReadModeElementType;
    td.normalizedCoords = 0;
    CU(cudaCreateTextureObject(tex, &rd, &td, NULL));
    return VSG_OK;
}

/* Copies a box of every map (first node r_lo, r_n nodes) into a stacked array at its corner. */
static vsg_status texture_fill(vsg_screen_gpu *s, cudaArray_t arr, const int r_lo[3], const int r_n[3],
                               cudaStream_t st)
{
    for (int m = 0; m < s->g.nmaps; m++) {
        cudaMemcpy3DParms c;
        memset(&c, 0, sizeof c);
        c.srcPtr = map_source(s, m);
        c.srcPos = make_cudaPos((size_t)r_lo[0] * sizeof(float), (size_t)r_lo[1], (size_t)r_lo[2]);
        c.dstArray = arr;
        c.dstPos = make_cudaPos(0, 0, (size_t)m * s->g.n[2]);
        c.extent = make_cudaExtent((size_t)r_n[0], (size_t)r_n[1], (size_t)r_n[2]);
        c.kind = s->resident ? cudaMemcpyDeviceToDevice : cudaMemcpyHostToDevice;
        CU(cudaMemcpy3DAsync(&c, st));
    }
    return VSG_OK;
}

/* Copies the compact ROI of every map (d_roi, r_n nodes per axis, as roi_gather leaves it) into
 * a stacked array at its corner. */
static vsg_status texture_fill_compact(vsg_screen_gpu *s, cudaArray_t arr, const int r_n[3], cudaStream_t st)
{
    const size_t rN = (size_t)r_n[0] * r_n[1] * r_n[2];
    for (int m = 0; m < s->g.nmaps; m++) {
        cudaMemcpy3DParms c;
        memset(&c, 0, sizeof c);
        c.srcPtr = make_cudaPitchedPtr(s->d_roi + (size_t)m * rN, (size_t)r_n[0] * sizeof(float), (size_t)r_n[0],
                                       (size_t)r_n[1]);
        c.dstArray = arr;
        c.dstPos = make_cudaPos(0, 0, (size_t)m * s->g.n[2]);
        c.extent = make_cudaExtent((size_t)r_n[0], (size_t)r_n[1], (size_t)r_n[2]);
        c.kind = cudaMemcpyDeviceToDevice;
        CU(cudaMemcpy3DAsync(&c, st));
    }
    return VSG_OK;
}

/* ---- scoring ------------------------------------------------------------------------------------ */

static vsg_status check_batch(const vsg_score_batch *b)
{
    if (b->nlig == 0) return VSG_OK;
    if (!b->start) return vsg_fail(VSG_E_ARG, "GPU screening: batch without ligand offsets");
    if (b->start[0] != 0 || b->start[b->nlig] != b->natoms)
        return vsg_fail(VSG_E_ARG, "GPU screening: ligand offsets must run from 0 to natoms (%zu), not %u to %u",
                        b->natoms, (unsigned)b->start[0], (unsigned)b->start[b->nlig]);
    for (size_t l = 0; l < b->nlig; l++)
        if (b->start[l + 1] < b->start[l])
            return vsg_fail(VSG_E_ARG, "GPU screening: ligand %zu has offsets %u > %u", l, (unsigned)b->start[l],
                            (unsigned)b->start[l + 1]);
    if (b->natoms && (!b->x || !b->y || !b->z || !b->q))
        return vsg_fail(VSG_E_ARG, "GPU screening: batch without coordinates or charges");
    return VSG_OK;
}

/* Adds a finished slot's event times and results. */
static vsg_status collect(vsg_screen_gpu *s, slot_t *sl, vsg_score_result *out, vsg_screen_timing *t)
{
    if (!sl->busy) return VSG_OK;
    sl->busy = false;
    CU(cudaEventSynchronize(sl->ev[3]));
    float ms[3] = {0, 0, 0};
    for (int k = 0; k < 3; k++) CU(cudaEventElapsedTime(&ms[k], sl->ev[k], sl->ev[k + 1]));
    t->upload_s += 1e-3 * ms[0];
    t->kernel_s += 1e-3 * ms[1];
    t->download_s += 1e-3 * ms[2];
    const double factor = s->g.kind == VSG_SCORE_ELEC ? s->g.elec_factor : 1.0;
    for (size_t i = 0; i < sl->ndev; i++) {
        const lig_acc *a = &sl->h_acc[i];
        vsg_score_result *r = &out[sl->ligmap[i]];
        r->outside = (int)a->outside;
        if (s->g.kind == VSG_SCORE_ELEC) {
            r->elec = factor * a->elec;
            r->vdw_hb = r->desolv = 0.0;
            r->total = r->elec;
        } else {
            r->elec = a->elec;
            r->vdw_hb = a->vdw;
            r->desolv = a->desolv;
            r->total = r->elec + r->vdw_hb + r->desolv;
        }
    }
    return VSG_OK;
}

/* Waits for both slots (after an error too), keeping the first error. */
static vsg_status drain(vsg_screen_gpu *s, vsg_score_result *out, vsg_screen_timing *t, vsg_status st)
{
    for (int i = 0; i < 2; i++) {
        if (st == VSG_OK) {
            st = collect(s, &s->slot[i], out, t);
        } else {
            (void)cudaStreamSynchronize(s->slot[i].stream);
            s->slot[i].busy = false;
        }
    }
    (void)cudaGetLastError();
    return st;
}

/* Fills slot sl's pinned buffers with ligands [l0, l1) and launches upload, kernel, download. */
static vsg_status launch(vsg_screen_gpu *s, slot_t *sl, int slot_index, const vsg_score_batch *b, size_t l0,
                         size_t l1, const variant &v, const vsg_zip_frame *frame, kparams p, kernel_fn fn,
                         vsg_screen_timing *t)
{
    const size_t a0 = b->start[l0], n = b->start[l1] - a0, C = s->C;
    const double t0 = now_s();
    /* atoms */
    char *h = (char *)sl->h_atoms, *d = (char *)sl->d_atoms;
    vsg_status st;
    if (v.zip) {
        st = vsg_zip_pack(frame, b, l0, l1, (uint16_t *)h, (uint16_t *)(h + 2 * C), (uint16_t *)(h + 4 * C),
                          (uint32_t *)(h + 6 * C));
    } else {
        memcpy(h, b->x + a0, n * sizeof(float));
        memcpy(h + 4 * C, b->y + a0, n * sizeof(float));
        memcpy(h + 8 * C, b->z + a0, n * sizeof(float));
        memcpy(h + 12 * C, b->q + a0, n * sizeof(float));
        st = vsg_zip_type_bytes(b, l0, l1, (uint8_t *)(h + 16 * C));
    }
    if (st != VSG_OK) return st;
    /* ligands: device index → batch index, and the ligand of each 32-atom run */
    size_t ndev = 0;
    for (size_t l = l0; l < l1; l++) {
        const size_t s0 = b->start[l] - a0, s1 = b->start[l + 1] - a0;
        if (s1 == s0) continue;
        for (size_t c = (s0 + 31) / 32; c * 32 < s1; c++) sl->h_chunk[c] = (uint32_t)ndev;
        sl->ligmap[ndev++] = l;
    }
    const size_t nch = (n + 31) / 32;
    t->pack_s += now_s() - t0;

    cudaStream_t str = sl->stream;
    CU(cudaEventRecord(sl->ev[0], str));
    if (v.zip) {
        const size_t off[4] = {0, 2 * C, 4 * C, 6 * C}, sz[4] = {2, 2, 2, 4};
        for (int k = 0; k < 4; k++)
            CU(cudaMemcpyAsync(d + off[k], h + off[k], n * sz[k], cudaMemcpyHostToDevice, str));
        t->bytes_up += 10 * n;
    } else {
        for (int k = 0; k < 4; k++)
            CU(cudaMemcpyAsync(d + 4 * C * k, h + 4 * C * k, n * sizeof(float), cudaMemcpyHostToDevice, str));
        CU(cudaMemcpyAsync(d + 16 * C, h + 16 * C, n, cudaMemcpyHostToDevice, str));
        t->bytes_up += 17 * n;
    }
    CU(cudaMemcpyAsync(sl->d_chunk, sl->h_chunk, nch * sizeof(uint32_t), cudaMemcpyHostToDevice, str));
    t->bytes_up += nch * sizeof(uint32_t);
    CU(cudaMemsetAsync(sl->d_acc, 0, ndev * sizeof(lig_acc), str));
    CU(cudaEventRecord(sl->ev[1], str));

    p.natoms = (unsigned)n;
    if (v.zip) {
        p.kx = (const uint16_t *)d;
        p.ky = (const uint16_t *)(d + 2 * C);
        p.kz = (const uint16_t *)(d + 4 * C);
        p.qt = (const uint32_t *)(d + 6 * C);
    } else {
        p.x = (const float *)d;
        p.y = (const float *)(d + 4 * C);
        p.z = (const float *)(d + 8 * C);
        p.q = (const float *)(d + 12 * C);
        p.type = (const uint8_t *)(d + 16 * C);
    }
    p.chunk_lig = sl->d_chunk;
    p.acc = sl->d_acc;
    const unsigned blocks = (unsigned)((nch + SC_WARPS * SC_CHUNKS - 1) / (SC_WARPS * SC_CHUNKS));
    const size_t smem = v.lk == LK_SMEM ? SC_SMEM_BYTES : 0;
    if (blocks > 0) {
        fn<<<blocks, SC_THREADS, smem, str>>>(p);
        LAUNCHED("the scoring kernel");
    }
    CU(cudaEventRecord(sl->ev[2], str));
    CU(cudaMemcpyAsync(sl->h_acc, sl->d_acc, ndev * sizeof(lig_acc), cudaMemcpyDeviceToHost, str));
    CU(cudaEventRecord(sl->ev[3], str));
    sl->ndev = ndev;
    sl->busy = true;
    t->launches++;
    s->last_ok = blocks > 0;
    s->last_kp = p;
    s->last_fn = fn;
    s->last_blocks = blocks;
    s->last_smem = smem;
    s->last_slot = slot_index;
    return VSG_OK;
}

extern "C" vsg_status vsg_screen_gpu_score_box(vsg_screen_gpu *s, const vsg_score_batch *b, const float lo[3],
                                              const float hi[3], vsg_kernel k, int double_precision,
                                              vsg_score_result *out, vsg_screen_timing *t)
{
    vsg_screen_timing tt;
    memset(&tt, 0, sizeof tt);
    if (t) memset(t, 0, sizeof *t);
    const double w0 = now_s();
    if (!s || !b || !lo || !hi || (!out && b->nlig > 0)) return vsg_fail(VSG_E_ARG, "GPU screening: NULL argument");
    variant v;
    if (!variant_of(k, &v))
        return vsg_fail(VSG_E_UNSUPPORTED, "GPU screening: kernel '%s' does not run on the GPU (pick gm, roi, sm, "
                                           "tm, zip, roi-tm-zip or roi-sm-zip)",
                        vsg_kernel_name(k));
    kernel_fn fn = kernel_for(double_precision, v.zip, v.lk);
    if (!fn)
        return vsg_fail(VSG_E_UNSUPPORTED, "GPU screening: kernel '%s' has no double-precision version (hardware "
                                           "texture filtering is float)",
                        vsg_kernel_name(k));
    if (!s->resident && !v.roi)
        return vsg_fail(VSG_E_LIMIT, "GPU screening: the grids do not fit the GPU memory cap, so only the ROI kernels "
                                     "(roi, roi-tm-zip, roi-sm-zip) run, not '%s'",
                        vsg_kernel_name(k));
    vsg_status st = check_batch(b);
    if (st != VSG_OK) return st;
    st = vsg_batch_check_types(b, &s->g);
    if (st != VSG_OK) return st;
    if (b->natoms > UINT32_MAX) return vsg_fail(VSG_E_ARG, "GPU screening: more than 2^32 atoms in one batch");
    vsg_score_batch bb = *b;
    if (s->g.kind == VSG_SCORE_ELEC) bb.type = NULL; /* ELEC ignores types, as the twin does */
    CU(cudaSetDevice(s->device));

    /* lookup region */
    kparams p = s->base;
    p.sm_stats = v.lk == LK_SMEM ? s->d_stats : NULL;
    cudaStream_t s0 = s->slot[0].stream;
    if (p.sm_stats) CU(cudaMemset(s->d_stats, 0, 2 * sizeof(unsigned long long)));
    int r_lo[3] = {0, 0, 0}, r_n[3] = {s->g.n[0], s->g.n[1], s->g.n[2]};
    if (v.roi) roi_of_box(&s->g, lo, hi, r_lo, r_n);
    for (int a = 0; a < 3; a++) {
        p.r_lo[a] = r_lo[a];
        p.r_n[a] = r_n[a];
    }
    p.maps = s->d_maps;
    p.mstride = s->N;
    cudaEvent_t r0 = s->slot[1].ev[0], r1 = s->slot[1].ev[1]; /* free until slot 1's first launch */
    bool roi_timed = false;
    if (v.roi || v.lk == LK_TEX) {
        CU(cudaEventRecord(r0, s0));
        roi_timed = true;
    }
    if (v.roi && v.lk != LK_TEX) {
        st = roi_gather(s, r_lo, r_n, s0);
        if (st != VSG_OK) return st;
        p.maps = s->d_roi;
        p.mstride = (size_t)r_n[0] * r_n[1] * r_n[2];
        tt.bytes_up += s->resident ? 0 : (size_t)s->g.nmaps * p.mstride * sizeof(float);
    }
    if (v.lk == LK_TEX) {
        if (v.roi) {
            if (!s->rtm_arr) {
                st = make_texture(s, &s->rtm_arr, &s->rtm_tex, true);
                if (st != VSG_OK) return st;
            }
            /* Gather the ROI compactly first, then copy it to the array from offset 0: the
             * direct copy of an offset box of the pitched grids into the array was refused
             * (cudaErrorInvalidValue) on the H100. */
            st = roi_gather(s, r_lo, r_n, s0);
            if (st != VSG_OK) return st;
            st = texture_fill_compact(s, s->rtm_arr, r_n, s0);
            if (st != VSG_OK) return st;
            p.tex = s->rtm_tex;
            tt.bytes_up += s->resident ? 0 : (size_t)s->g.nmaps * r_n[0] * r_n[1] * r_n[2] * sizeof(float);
        } else {
            if (!s->tm_ready) {
                if (!s->tm_arr) {
                    st = make_texture(s, &s->tm_arr, &s->tm_tex, false);
                    if (st != VSG_OK) return st;
                }
                const int z0[3] = {0, 0, 0};
                st = texture_fill(s, s->tm_arr, z0, s->g.n, s0);
                if (st != VSG_OK) return st;
                s->tm_ready = true;
            }
            p.tex = s->tm_tex;
        }
        p.tex_zs = (float)s->g.n[2];
    }
    if (roi_timed) {
        CU(cudaEventRecord(r1, s0));
        CU(cudaEventSynchronize(r1));
        float ms = 0;
        CU(cudaEventElapsedTime(&ms, r0, r1));
        tt.roi_s = 1e-3 * ms;
    }
    vsg_zip_frame frame;
    memset(&frame, 0, sizeof frame);
    if (v.zip) {
        vsg_zip_frame_make(lo, hi, &frame);
        for (int a = 0; a < 3; a++) {
            p.zlo[a] = frame.lo[a];
            p.zq[a] = frame.quantum[a];
        }
    }

    /* launches of whole ligands, alternating slots */
    size_t l = 0;
    int which = 0;
    while (st == VSG_OK && l < bb.nlig) {
        size_t l1 = l, atoms = 0, ndev = 0;
        while (l1 < bb.nlig) {
            const size_t na = bb.start[l1 + 1] - bb.start[l1];
            if (na == 0) {
                memset(&out[l1], 0, sizeof out[l1]); /* an empty ligand scores 0 */
                l1++;
                continue;
            }
            if (na > s->launch_atoms) {
                st = vsg_fail(VSG_E_LIMIT, "GPU screening: ligand %zu has %zu atoms, more than one launch holds (%zu)",
                              l1, na, s->launch_atoms);
                break;
            }
            if (atoms + na > s->launch_atoms || ndev + 1 > s->L) break;
            atoms += na;
            ndev++;
            l1++;
        }
        if (st != VSG_OK) break;
        if (ndev == 0) {
            l = l1;
            continue;
        }
        slot_t *sl = &s->slot[which];
        st = collect(s, sl, out, &tt); /* the slot's previous launch */
        if (st != VSG_OK) break;
        st = launch(s, sl, which, &bb, l, l1, v, &frame, p, fn, &tt);
        l = l1;
        which ^= 1;
    }
    st = drain(s, out, &tt, st);
    if (st == VSG_OK && p.sm_stats) {
        unsigned long long h[2] = {0, 0};
        CU(cudaMemcpy(h, s->d_stats, sizeof h, cudaMemcpyDeviceToHost));
        tt.sm_blocks = (long long)h[0];
        tt.sm_staged = (long long)h[1];
    }
    tt.wall_s = now_s() - w0;
    if (t) *t = tt;
    return st;
}

extern "C" vsg_status vsg_screen_gpu_score(vsg_screen_gpu *s, const vsg_score_batch *b, vsg_kernel k,
                                          int double_precision, vsg_score_result *out, vsg_screen_timing *t)
{
    if (!s || !b) return vsg_fail(VSG_E_ARG, "GPU screening: NULL argument");
    float lo[3], hi[3];
    if (b->natoms && (!b->x || !b->y || !b->z)) return vsg_fail(VSG_E_ARG, "GPU screening: batch without coordinates");
    vsg_batch_box_of(b, lo, hi);
    return vsg_screen_gpu_score_box(s, b, lo, hi, k, double_precision, out, t);
}

extern "C" vsg_status vsg_screen_gpu_rerun_last(vsg_screen_gpu *s, int repeats, double *seconds, size_t *atoms)
{
    if (seconds) *seconds = 0.0;
    if (atoms) *atoms = 0;
    if (!s || repeats < 1) return vsg_fail(VSG_E_ARG, "GPU screening: bad rerun request");
    if (!s->last_ok) return vsg_fail(VSG_E_ARG, "GPU screening: nothing scored yet to run again");
    CU(cudaSetDevice(s->device));
    slot_t *sl = &s->slot[s->last_slot];
    cudaStream_t str = sl->stream;
    CU(cudaEventRecord(sl->ev[0], str));
    for (int i = 0; i < repeats; i++) {
        s->last_fn<<<s->last_blocks, SC_THREADS, s->last_smem, str>>>(s->last_kp);
        LAUNCHED("the scoring kernel (rerun)");
    }
    CU(cudaEventRecord(sl->ev[1], str));
    CU(cudaEventSynchronize(sl->ev[1]));
    float ms = 0;
    CU(cudaEventElapsedTime(&ms, sl->ev[0], sl->ev[1]));
    if (seconds) *seconds = 1e-3 * ms / repeats;
    if (atoms) *atoms = s->last_kp.natoms;
    return VSG_OK;
}
