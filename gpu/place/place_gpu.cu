// place.cu — the GPU rigid-body pose search (contract in place_gpu.h), the twin of
// ligands/place/place_cpu.c on the device: kernel GM in float, best pose only (top_k ≤ 1).
//
// Layout. A block takes one rotation and tiles of PL_THREADS consecutive sites (one pose per
// thread). On entry it stages the ligand's offsets R·(x_i − c) in shared memory, computed in
// double with the twin's operations in the twin's order (__dmul_rn/__dadd_rn: no FMA
// contraction under --use_fast_math), and each thread forms its atoms as
// (float)(offset + site point), the site point again with the twin's double formula. So the
// scored float coordinates are the twin's bit for bit, and the outside test (vsgrid.h's scoring closed
// interval, as float bounds equivalent to the twin's double test) rejects exactly the poses the
// twin rejects. Only the interpolation and the sums are float (as screen.cu's GM kernel: cell
// from (x − org)·inv_h, t from the hi+lo node table, nested lerps on __ldg gathers).
//
// Reduction. Each pose's key is (order-preserving bits of its float total) << 32 | its pose
// index relative to the launch; a warp shuffle, then shared memory, give the block's minimum,
// and one 64-bit atomicMin per block the launch's: ties go to the lowest pose index, and the
// result does not depend on scheduling. A launch covers whole rotations and at most 2^32 − 2
// poses; launches run in pose order and the host keeps the first strictly better one. A last
// one-block kernel rescores the winner with its separate terms (same float code).
//
// Rotations: open() turns the caller's quaternions into double row-major matrices with
// vsg_quat_to_matrix (the twin's matrices, exactly) and uploads them once (72 B each).
extern "C" {
#include "grids/base/vsgrid.h" /* C headers without their own extern "C" guard */
}
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/device/gpu.h"
#include "gpu/place/place_gpu.h"

#define VSG_CUDA_WHO "GPU placement"
#include "gpu/device/cuda_check.h"
#include "gpu/device/dev_pool.cuh"
#include "gpu/score/grid_lookup.cuh"

#define PL_THREADS 256
#define PL_WARPS (PL_THREADS / 32)
#define PL_MAX_ATOMS 1024                          /* 29 KiB of shared memory per block */
#define PL_MAX_LAUNCH_POSES 0xFFFFFFFEull          /* the key keeps 32 bits of pose index */
#define PL_NO_POSE 0xFFFFFFFFFFFFFFFFull           /* key of "nothing inside" */
#define PL_SLACK_BYTES (64.0 * 1048576.0)          /* the context's own needs */

struct pparams {
    int ad4, e_map, d_map;
    float elec_factor;
    int n[3];
    float org[3], inv_h[3], in_lo[3], in_hi[3];
    const float2 *node; /* per axis: node positions as hi + lo floats */
    int node_off[3];
    const float *maps;
    size_t mstride;
    /* ligand: centred coordinates v = x − c (double, SoA x | y | z), charge, type */
    int natoms;
    const double *v;
    const float *q;
    const uint8_t *type;
    const double *rotm; /* 9 per rotation */
    /* site lattice */
    int ns[3];
    double center[3], half_n1[3], step;
    unsigned long long nsites;
    int rot0;         /* first rotation of the launch */
    unsigned ntiles;  /* site tiles of PL_THREADS */
    unsigned long long *best;   /* [0] key */
    unsigned long long *inside; /* poses with every atom inside */
};

struct pose_terms {
    float total, elec, vdw, desolv;
};

// ---- device code ---------------------------------------------------------------------------

/* Monotone map of a float to 32 bits: a < b ⇔ key(a) < key(b); −0 = +0; NaN ranks last. */
__device__ __forceinline__ unsigned order_bits(float f)
{
    if (isnan(f)) return 0xFFFFFFFFu;
    if (f == 0.0f) return 0x80000000u; /* −0 and +0 tie (the twin compares doubles) */
    const unsigned u = __float_as_uint(f);
    return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}

/* The ligand's offsets for rotation rot in shared memory, as the twin computes them. */
__device__ void stage_ligand(const pparams &p, int rot, double *off, float *q, uint8_t *type)
{
    const double *m = p.rotm + 9 * (size_t)rot;
    for (int i = threadIdx.x; i < p.natoms; i += blockDim.x) {
        const double v0 = p.v[i], v1 = p.v[p.natoms + i], v2 = p.v[2 * p.natoms + i];
#pragma unroll
        for (int d = 0; d < 3; d++)
            off[d * p.natoms + i] =
                __dadd_rn(__dadd_rn(__dmul_rn(m[3 * d], v0), __dmul_rn(m[3 * d + 1], v1)), __dmul_rn(m[3 * d + 2], v2));
        q[i] = p.q[i];
        type[i] = p.type ? p.type[i] : (uint8_t)VSG_SCORE_NO_TYPE;
    }
    __syncthreads();
}

__device__ __forceinline__ void site_point(const pparams &p, unsigned long long site, double sp[3])
{
    unsigned long long i[3];
    if (p.nsites <= 0xFFFFFFFFull) { /* 32-bit division when it fits */
        const unsigned s32 = (unsigned)site, nx = (unsigned)p.ns[0], ny = (unsigned)p.ns[1];
        i[0] = s32 % nx;
        i[1] = (s32 / nx) % ny;
        i[2] = (s32 / nx) / ny;
    } else {
        i[0] = site % (unsigned long long)p.ns[0];
        i[1] = (site / (unsigned long long)p.ns[0]) % (unsigned long long)p.ns[1];
        i[2] = (site / (unsigned long long)p.ns[0]) / (unsigned long long)p.ns[1];
    }
#pragma unroll
    for (int d = 0; d < 3; d++) sp[d] = __dadd_rn(p.center[d], __dmul_rn(__dsub_rn((double)i[d], p.half_n1[d]), p.step));
}

/* Scores one pose (offsets in shared memory, site point sp); false when an atom is outside. */
template <bool AD4>
__device__ __forceinline__ bool score_pose(const pparams &p, const double *off, const float *qs, const uint8_t *ts,
                                           const double sp[3], pose_terms &r)
{
    float total = 0.0f, elec = 0.0f, vdw = 0.0f, desolv = 0.0f;
    const int na = p.natoms, sy = p.n[0], sz = p.n[0] * p.n[1];
    for (int i = 0; i < na; i++) {
        const float x[3] = {__double2float_rn(__dadd_rn(off[i], sp[0])),
                            __double2float_rn(__dadd_rn(off[na + i], sp[1])),
                            __double2float_rn(__dadd_rn(off[2 * na + i], sp[2]))};
        int k[3];
        float t[3];
        bool in = true;
#pragma unroll
        for (int a = 0; a < 3; a++) {
            in = in && x[a] >= p.in_lo[a] && x[a] <= p.in_hi[a]; /* NaN fails */
            const float u = (x[a] - p.org[a]) * p.inv_h[a];
            k[a] = min(max(__float2int_rd(u), 0), p.n[a] - 2);
            const float2 nd = __ldg(p.node + p.node_off[a] + k[a]);
            t[a] = ((x[a] - nd.x) - nd.y) * p.inv_h[a];
        }
        if (!in) return false;
        const size_t cell = (size_t)k[0] + (size_t)sy * k[1] + (size_t)sz * k[2];
        const float q = qs[i];
        const float e = q * trilinear<float, false>(p.maps + (size_t)p.e_map * p.mstride + cell, sy, sz, t);
        if (AD4) {
            const unsigned ty = ts[i];
            const float m =
                ty != VSG_SCORE_NO_TYPE ? trilinear<float, false>(p.maps + (size_t)ty * p.mstride + cell, sy, sz, t) : 0.0f;
            const float d =
                fabsf(q) * trilinear<float, false>(p.maps + (size_t)p.d_map * p.mstride + cell, sy, sz, t);
            total += (m + e) + d;
            vdw += m;
            desolv += d;
        } else {
            total += e;
        }
        elec += e;
    }
    r.total = AD4 ? total : p.elec_factor * total;
    r.elec = AD4 ? elec : r.total;
    r.vdw = vdw;
    r.desolv = desolv;
    return true;
}

/* Grid (rotations of the launch, site tiles): the best key of every pose into p.best. */
template <bool AD4> __global__ void __launch_bounds__(PL_THREADS) place_kernel(const pparams p)
{
    extern __shared__ double smem[];
    double *off = smem;
    float *qs = (float *)(off + 3 * p.natoms);
    uint8_t *ts = (uint8_t *)(qs + p.natoms);
    __shared__ unsigned long long warp_best[PL_WARPS];
    const int rel_rot = blockIdx.x, rot = p.rot0 + rel_rot;
    stage_ligand(p, rot, off, qs, ts);
    unsigned long long best = PL_NO_POSE, inside = 0;
    for (unsigned tile = blockIdx.y; tile < p.ntiles; tile += gridDim.y) {
        const unsigned long long site = (unsigned long long)tile * PL_THREADS + threadIdx.x;
        if (site < p.nsites) {
            double sp[3];
            site_point(p, site, sp);
            pose_terms r;
            if (score_pose<AD4>(p, off, qs, ts, sp, r)) {
                inside++;
                const unsigned long long key = ((unsigned long long)order_bits(r.total) << 32) |
                                               ((unsigned long long)rel_rot * p.nsites + site);
                best = min(best, key);
            }
        }
    }
#pragma unroll
    for (int s = 16; s > 0; s >>= 1) {
        best = min(best, __shfl_xor_sync(0xFFFFFFFFu, best, s));
        inside += __shfl_xor_sync(0xFFFFFFFFu, inside, s);
    }
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    __shared__ unsigned long long warp_inside[PL_WARPS];
    if (lane == 0) {
        warp_best[warp] = best;
        warp_inside[warp] = inside;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        for (int w = 1; w < PL_WARPS; w++) {
            best = min(best, warp_best[w]);
            inside += warp_inside[w];
        }
        if (best != PL_NO_POSE) atomicMin(p.best, best);
        if (inside) atomicAdd(p.inside, inside);
    }
}

/* One block: the separate terms of pose (rot, site), same float code as place_kernel. */
template <bool AD4> __global__ void describe_kernel(const pparams p, int rot, unsigned long long site, pose_terms *out)
{
    extern __shared__ double smem[];
    double *off = smem;
    float *qs = (float *)(off + 3 * p.natoms);
    uint8_t *ts = (uint8_t *)(qs + p.natoms);
    stage_ligand(p, rot, off, qs, ts);
    if (threadIdx.x == 0) {
        double sp[3];
        site_point(p, site, sp);
        pose_terms r;
        if (!score_pose<AD4>(p, off, qs, ts, sp, r)) r.total = r.elec = r.vdw = r.desolv = __int_as_float(0x7fffffff);
        *out = r;
    }
}

// ---- host side -----------------------------------------------------------------------------

struct vsg_place_gpu {
    int device;
    vsg_score_kind kind;
    vsg_score_grids g; /* geometry and map layout (the values stay the caller's) */
    int nrot;
    vsg_quat *rot;        /* host copy, to check that run() gets the same set */
    double cap, used;
    float *d_maps;
    float2 *d_nodes;
    double *d_rotm;
    /* per-ligand buffers, grown as needed */
    double *d_v;
    float *d_q;
    uint8_t *d_type;
    int lig_cap;
    unsigned long long *d_acc; /* [0] best key, [1] inside count */
    pose_terms *d_terms;
    pparams base;
};

static float from_order_bits(unsigned u)
{
    u = (u & 0x80000000u) ? (u & 0x7FFFFFFFu) : ~u;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static vsg_status alloc_dev(vsg_place_gpu *s, void **p, size_t bytes, const char *what)
{
    if (s->used + (double)bytes > s->cap)
        return vsg_fail(VSG_E_LIMIT, "GPU placement: no room on GPU %d for %s (%.1f MB)", s->device, what,
                        bytes / 1048576.0);
    cudaError_t e = cudaMalloc(p, bytes);
    if (e != cudaSuccess) return cuda_fail(what, e);
    s->used += (double)bytes;
    return VSG_OK;
}

static vsg_status open_device(vsg_place_gpu *s, const vsg_score_grids *g, const vsg_quat *rotations, double max_bytes)
{
    const int ngpu = vsg_gpu_count();
    if (s->device < 0 || s->device >= ngpu)
        return vsg_fail(VSG_E_DEVICE, "GPU placement: GPU %d requested, %d CUDA device%s found", s->device, ngpu,
                        ngpu == 1 ? "" : "s");
    CU(cudaSetDevice(s->device));
    size_t fr = 0, tot = 0;
    pool_trim(s->device); /* the PB pool's idle memory (dev_pool.cuh) is cudaMalloc's again */
    CU(cudaMemGetInfo(&fr, &tot));
    s->cap = (double)fr;
    if (max_bytes > 0.0 && max_bytes < s->cap) s->cap = max_bytes;
    s->cap -= PL_SLACK_BYTES;

    const size_t N = (size_t)g->n[0] * g->n[1] * g->n[2];
    vsg_status st = alloc_dev(s, (void **)&s->d_maps, (size_t)g->nmaps * N * sizeof(float), "the grids");
    if (st != VSG_OK) return st;
    for (int m = 0; m < g->nmaps; m++)
        CU(cudaMemcpy(s->d_maps + (size_t)m * N, g->maps[m], N * sizeof(float), cudaMemcpyHostToDevice));

    const size_t ntable = (size_t)g->n[0] + g->n[1] + g->n[2];
    float2 *tab = (float2 *)malloc(ntable * sizeof(float2));
    double *rm = (double *)malloc((size_t)s->nrot * 9 * sizeof(double));
    if (!tab || !rm) {
        free(tab);
        free(rm);
        return vsg_fail(VSG_E_NOMEM, "GPU placement: out of host memory");
    }
    fill_node_table(g, tab, s->base.node_off);
    for (int i = 0; i < s->nrot; i++) vsg_quat_to_matrix(&rotations[i], rm + 9 * (size_t)i);
    st = alloc_dev(s, (void **)&s->d_nodes, ntable * sizeof(float2), "the node tables");
    if (st == VSG_OK) st = alloc_dev(s, (void **)&s->d_rotm, (size_t)s->nrot * 9 * sizeof(double), "the rotations");
    cudaError_t e = cudaSuccess;
    if (st == VSG_OK) e = cudaMemcpy(s->d_nodes, tab, ntable * sizeof(float2), cudaMemcpyHostToDevice);
    if (st == VSG_OK && e == cudaSuccess)
        e = cudaMemcpy(s->d_rotm, rm, (size_t)s->nrot * 9 * sizeof(double), cudaMemcpyHostToDevice);
    free(tab);
    free(rm);
    if (st != VSG_OK) return st;
    if (e != cudaSuccess) return cuda_fail("upload of the node tables and rotations", e);
    st = alloc_dev(s, (void **)&s->d_acc, 2 * sizeof(unsigned long long), "the reduction");
    if (st == VSG_OK) st = alloc_dev(s, (void **)&s->d_terms, sizeof(pose_terms), "the reduction");
    if (st != VSG_OK) return st;

    pparams &p = s->base;
    p.ad4 = g->kind == VSG_SCORE_AD4;
    p.e_map = g->e_map;
    p.d_map = g->d_map;
    p.elec_factor = (float)g->elec_factor;
    p.node = s->d_nodes;
    p.maps = s->d_maps;
    p.mstride = N;
    p.rotm = s->d_rotm;
    for (int a = 0; a < 3; a++) {
        p.n[a] = g->n[a];
        p.org[a] = (float)g->origin[a];
        p.inv_h[a] = (float)(1.0 / g->spacing[a]);
        const double hi = g->origin[a] + (g->n[a] - 1) * g->spacing[a]; /* as the twin forms it */
        p.in_lo[a] = float_at_least(g->origin[a]);
        p.in_hi[a] = float_at_most(hi);
    }
    p.best = s->d_acc;
    p.inside = s->d_acc + 1;
    return VSG_OK;
}

extern "C" vsg_status vsg_place_gpu_open(const vsg_score_grids *g, const vsg_quat *rotations, int nrotations,
                                         int device, double max_gpu_memory_bytes, vsg_place_gpu **out)
{
    if (!out) return vsg_fail(VSG_E_ARG, "GPU placement: NULL argument");
    *out = NULL;
    if (!g || !rotations || nrotations < 1 || nrotations > VSG_ROTATIONS_MAX)
        return vsg_fail(VSG_E_ARG, "GPU placement: no grids or no rotations (%d)", nrotations);
    vsg_status st = check_score_grids(g, "GPU placement");
    if (st != VSG_OK) return st;
    vsg_place_gpu *s = (vsg_place_gpu *)calloc(1, sizeof *s);
    if (!s) return vsg_fail(VSG_E_NOMEM, "GPU placement: out of memory");
    s->device = device;
    s->kind = g->kind;
    s->g = *g;
    s->nrot = nrotations;
    s->rot = (vsg_quat *)malloc((size_t)nrotations * sizeof(vsg_quat));
    if (!s->rot) {
        free(s);
        return vsg_fail(VSG_E_NOMEM, "GPU placement: out of memory");
    }
    memcpy(s->rot, rotations, (size_t)nrotations * sizeof(vsg_quat));
    st = open_device(s, g, rotations, max_gpu_memory_bytes);
    if (st != VSG_OK) {
        vsg_place_gpu_close(s);
        return st;
    }
    *out = s;
    return VSG_OK;
}

extern "C" void vsg_place_gpu_close(vsg_place_gpu *s)
{
    if (!s) return;
    if (s->d_maps || s->d_nodes || s->d_rotm || s->d_v || s->d_acc) {
        (void)cudaSetDevice(s->device);
        cudaFree(s->d_maps);
        cudaFree(s->d_nodes);
        cudaFree(s->d_rotm);
        cudaFree(s->d_v);
        cudaFree(s->d_q);
        cudaFree(s->d_type);
        cudaFree(s->d_acc);
        cudaFree(s->d_terms);
    }
    free(s->rot);
    free(s);
}

extern "C" int vsg_place_gpu_supports(vsg_kernel k, int double_precision)
{
    return (k == VSG_KERNEL_GM || k == VSG_KERNEL_AUTO) && !double_precision;
}

/* The ligand on the device: v = x − c in double (the twin's expression), q, type. */
static vsg_status upload_ligand(vsg_place_gpu *s, const vsg_place_ligand *lig, const double c[3])
{
    const int na = (int)lig->natoms;
    if (na > s->lig_cap) {
        cudaFree(s->d_v);
        cudaFree(s->d_q);
        cudaFree(s->d_type);
        s->d_v = NULL;
        s->d_q = NULL;
        s->d_type = NULL;
        s->used -= s->lig_cap * (3.0 * sizeof(double) + sizeof(float) + 1.0);
        s->lig_cap = 0;
        const int cap = na < 64 ? 64 : na;
        vsg_status st = alloc_dev(s, (void **)&s->d_v, 3 * (size_t)cap * sizeof(double), "a ligand");
        if (st == VSG_OK) st = alloc_dev(s, (void **)&s->d_q, (size_t)cap * sizeof(float), "a ligand");
        if (st == VSG_OK) st = alloc_dev(s, (void **)&s->d_type, (size_t)cap, "a ligand");
        if (st != VSG_OK) return st;
        s->lig_cap = cap;
    }
    double *v = (double *)malloc(3 * (size_t)na * sizeof(double));
    uint8_t *t = (uint8_t *)malloc((size_t)na);
    if (!v || !t) {
        free(v);
        free(t);
        return vsg_fail(VSG_E_NOMEM, "GPU placement: out of host memory");
    }
    for (int i = 0; i < na; i++) {
        v[i] = lig->x[i] - c[0];
        v[na + i] = lig->y[i] - c[1];
        v[2 * na + i] = lig->z[i] - c[2];
        t[i] = lig->type ? lig->type[i] : (uint8_t)VSG_SCORE_NO_TYPE;
    }
    cudaError_t e = cudaMemcpy(s->d_v, v, 3 * (size_t)na * sizeof(double), cudaMemcpyHostToDevice);
    if (e == cudaSuccess) e = cudaMemcpy(s->d_q, lig->q, (size_t)na * sizeof(float), cudaMemcpyHostToDevice);
    if (e == cudaSuccess) e = cudaMemcpy(s->d_type, t, (size_t)na, cudaMemcpyHostToDevice);
    free(v);
    free(t);
    if (e != cudaSuccess) return cuda_fail("upload of the ligand", e);
    return VSG_OK;
}

static vsg_status check_run(const vsg_place_gpu *s, const vsg_place_ligand *lig, const vsg_place_options *o,
                            vsg_kernel k, int double_precision, const vsg_place_result *r)
{
    if (!s || !lig || !o || !r) return vsg_fail(VSG_E_ARG, "GPU placement: NULL argument");
    if (k != VSG_KERNEL_GM && k != VSG_KERNEL_AUTO)
        return vsg_fail(VSG_E_UNSUPPORTED, "GPU placement: kernel %s is not implemented (gm is)", vsg_kernel_name(k));
    if (double_precision)
        return vsg_fail(VSG_E_UNSUPPORTED, "GPU placement: double precision is not implemented (float is)");
    if (o->top_k < 0 || (o->top_k > 0 && !r->top))
        return vsg_fail(VSG_E_ARG, "GPU placement: top-%d without room", o->top_k);
    if (o->top_k > 1)
        return vsg_fail(VSG_E_UNSUPPORTED, "GPU placement: top-%d is not implemented (the best pose only)", o->top_k);
    if (!o->rotations || o->nrotations != s->nrot ||
        (o->rotations != s->rot && memcmp(o->rotations, s->rot, (size_t)s->nrot * sizeof(vsg_quat)) != 0))
        return vsg_fail(VSG_E_ARG, "GPU placement: the options' rotations are not the set given to open");
    if (lig->natoms < 1 || !lig->x || !lig->y || !lig->z || !lig->q)
        return vsg_fail(VSG_E_ARG, "GPU placement: ligand without atoms");
    if (lig->natoms > PL_MAX_ATOMS)
        return vsg_fail(VSG_E_LIMIT, "GPU placement: %zu atoms (at most %d)", lig->natoms, PL_MAX_ATOMS);
    if (s->kind == VSG_SCORE_AD4 && !lig->type)
        return vsg_fail(VSG_E_ARG, "GPU placement: AD4 ligand without atom types");
    for (size_t i = 0; i < lig->natoms; i++) {
        if (!isfinite(lig->x[i]) || !isfinite(lig->y[i]) || !isfinite(lig->z[i]))
            return vsg_fail(VSG_E_ARG, "GPU placement: atom %zu has a non-finite coordinate", i + 1);
        if (s->kind == VSG_SCORE_AD4 && lig->type[i] != VSG_SCORE_NO_TYPE && lig->type[i] >= s->g.nmaps)
            return vsg_fail(VSG_E_ARG, "GPU placement: atom %zu has type map %d, the grids have %d maps", i + 1,
                            lig->type[i], s->g.nmaps);
    }
    return VSG_OK;
}

extern "C" vsg_status vsg_place_gpu_run(vsg_place_gpu *s, const vsg_place_ligand *lig, const vsg_place_options *o,
                                        vsg_kernel k, int double_precision, vsg_place_result *r)
{
    vsg_status st = check_run(s, lig, o, k, double_precision, r);
    if (st != VSG_OK) return st;
    int n[3];
    st = vsg_place_lattice(&o->box, n);
    if (st != VSG_OK) return st;
    const uint64_t nsites = (uint64_t)n[0] * (uint64_t)n[1] * (uint64_t)n[2];
    if ((double)nsites * o->nrotations > (double)VSG_PLACE_MAX_POSES)
        return vsg_fail(VSG_E_LIMIT, "GPU placement: %d rotations × %llu sites is more than 10^15 poses",
                        o->nrotations, (unsigned long long)nsites);
    if (nsites > PL_MAX_LAUNCH_POSES)
        return vsg_fail(VSG_E_LIMIT, "GPU placement: %llu site points (at most %llu): raise --site-step",
                        (unsigned long long)nsites, PL_MAX_LAUNCH_POSES);
    double c[3] = {0, 0, 0};
    for (size_t i = 0; i < lig->natoms; i++) { /* the twin's centroid, same order */
        c[0] += lig->x[i];
        c[1] += lig->y[i];
        c[2] += lig->z[i];
    }
    for (int d = 0; d < 3; d++) c[d] /= (double)lig->natoms;

    CU(cudaSetDevice(s->device));
    st = upload_ligand(s, lig, c);
    if (st != VSG_OK) return st;

    pparams p = s->base;
    p.natoms = (int)lig->natoms;
    p.v = s->d_v;
    p.q = s->d_q;
    p.type = s->d_type;
    for (int d = 0; d < 3; d++) {
        p.ns[d] = n[d];
        p.center[d] = o->box.center[d];
        p.half_n1[d] = 0.5 * (n[d] - 1);
    }
    p.step = o->box.step;
    p.nsites = nsites;
    p.ntiles = (unsigned)((nsites + PL_THREADS - 1) / PL_THREADS);
    const size_t smem = (size_t)p.natoms * (3 * sizeof(double) + sizeof(float) + 1);
    const int per_launch = (int)(PL_MAX_LAUNCH_POSES / nsites < (uint64_t)s->nrot ? PL_MAX_LAUNCH_POSES / nsites
                                                                                    : (uint64_t)s->nrot);
    const bool ad4 = s->kind == VSG_SCORE_AD4;

    int found = 0, best_rot = 0;
    uint64_t best_site = 0, inside_total = 0;
    float best_total = 0.0f;
    for (int r0 = 0; r0 < s->nrot; r0 += per_launch) {
        const int nr = s->nrot - r0 < per_launch ? s->nrot - r0 : per_launch;
        const unsigned long long init[2] = {PL_NO_POSE, 0};
        CU(cudaMemcpy(s->d_acc, init, sizeof init, cudaMemcpyHostToDevice));
        p.rot0 = r0;
        const dim3 grid((unsigned)nr, p.ntiles < 65535u ? p.ntiles : 65535u);
        if (ad4)
            place_kernel<true><<<grid, PL_THREADS, smem>>>(p);
        else
            place_kernel<false><<<grid, PL_THREADS, smem>>>(p);
        LAUNCHED("place_kernel");
        unsigned long long acc[2];
        CU(cudaMemcpy(acc, s->d_acc, sizeof acc, cudaMemcpyDeviceToHost));
        inside_total += acc[1];
        if (acc[0] == PL_NO_POSE) continue;
        const float total = from_order_bits((unsigned)(acc[0] >> 32));
        const uint64_t rel = acc[0] & 0xFFFFFFFFull;
        /* launches come in pose order: only a strictly lower total (NaN last) replaces */
        const bool better = !found || (isnan(best_total) && !isnan(total)) || total < best_total;
        if (better) {
            found = 1;
            best_total = total;
            best_rot = r0 + (int)(rel / nsites);
            best_site = rel % nsites;
        }
    }

    vsg_place_pose *top_out = r->top;
    memset(r, 0, sizeof *r);
    r->top = top_out;
    for (int d = 0; d < 3; d++) r->centroid[d] = c[d];
    r->poses = nsites * (uint64_t)s->nrot;
    r->scored = inside_total;
    r->rejected = r->poses - inside_total;
    r->found = found;
    if (!found) return VSG_OK;

    if (ad4)
        describe_kernel<true><<<1, 32, smem>>>(p, best_rot, best_site, s->d_terms);
    else
        describe_kernel<false><<<1, 32, smem>>>(p, best_rot, best_site, s->d_terms);
    LAUNCHED("describe_kernel");
    pose_terms t;
    CU(cudaMemcpy(&t, s->d_terms, sizeof t, cudaMemcpyDeviceToHost));

    vsg_place_pose *b = &r->best;
    b->rotation = best_rot;
    b->site = best_site;
    b->pose = (uint64_t)best_rot * nsites + best_site;
    b->q = s->rot[best_rot];
    vsg_place_site_point(&o->box, n, best_site, b->site_point);
    double m[9];
    vsg_quat_to_matrix(&b->q, m);
    for (int d = 0; d < 3; d++)
        b->translation[d] = b->site_point[d] - (m[3 * d] * c[0] + m[3 * d + 1] * c[1] + m[3 * d + 2] * c[2]);
    b->score.total = t.total;
    b->score.elec = t.elec;
    b->score.vdw_hb = t.vdw;
    b->score.desolv = t.desolv;
    b->score.outside = 0;
    if (o->top_k == 1) {
        r->top[0] = *b;
        r->ntop = 1;
    }
    return VSG_OK;
}
