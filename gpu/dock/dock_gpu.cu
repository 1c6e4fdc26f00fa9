/* dock_gpu.cu — the docking search's Monte Carlo chains on the GPU (dock_gpu.h): one warp a
 * chain, the chains of every record of a batch in one launch, the CPU twin's method step for
 * step (dock_search.c, dock_bfgs.c, dock_energy.c) in single precision.
 *
 * Why a warp a chain (Uni-Dock's choice too): a chain is a long sequence of dependent energy
 * evaluations, each of a few dozen atoms and a few hundred pairs — too little for a block, too
 * much for a thread (a thread a chain would hold the BFGS matrix, ~40×40, in local memory). A
 * warp spreads the atoms, pairs, matrix rows and dot products over its lanes and synchronises
 * with __syncwarp only; the records' data sit in L1/L2, the chain's state in shared memory.
 *
 * Work per evaluation: the body frames (one rotation per rotor, composed root to leaves), the
 * atoms' coordinates, each heavy atom's trilinear map value and gradient (8 reads), each
 * intramolecular pair's table value (2 reads, counted twice: each atom's lane sums its own
 * forces; atoms are dealt to lanes by this work, dock_pack.c, not by index), the per-body force
 * and torque sums, and the torsion derivatives from the subtree sums. Lane 0 alone draws random numbers, composes frames and propagates subtree sums (a few
 * dozen flops per rotor), so the draws are the CPU twin's, in its order.
 *
 * Repeatability: no atomics; every sum has a fixed order (butterfly warp sums are identical in
 * every lane, float addition being commutative); a chain's result depends only on its record,
 * its seed and its index, never on the batch around it. */
#include <pthread.h>
#include <cuda_runtime.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define VSG_CUDA_WHO "GPU docking"
#include "gpu/device/cuda_check.h"
#include "gpu/dock/dock_gpu.h"
#include "ligands/dock/dock_method.h"
#include "ligands/dock/dock_rng.h"
#include "ligands/score/vina_glue.h"

#define LANES 32
#define WARPS_PER_BLOCK 4 /* the evaluation kernel's; the chains' block shape is picked in chains_kernel */
#define TABLE_BINS (DOCK_GPU_TABLE_SAMPLES - 1)
#define OUT_SLOPE 1e6f /* kcal/mol per Å outside the box (Vina's) */
#define DEFAULT_WARPS 1 /* warps a block of chains (see chains_kernel) */

#define AD4_SQA_DIV 32.0f   /* autodock4's r² bins a Å² */
#define AD4_RMIN2 0.25f     /* Å²: autodock4 clamps every pair's r² here */
#define AD4_OUT_PENALTY 1000.0f /* 2 · autodock4's ENERGY_PENALTY (500 kcal/mol/Å², added to two terms) */

struct dock_gpu_maps {
    int device;
    int n[3];
    float begin[3], factor[3], factor_inv[3];
    double lo[3], hi[3];
    float *map[DOCK_GPU_MAX_MAPS];
    float *pair;
    int ad4, e_map, d_map;      /* an AutoGrid set for the AutoDock4 function */
    float center[3];
    float *elec, *desolv;       /* its pair shapes */
};

struct dev_target {
    int n[3];
    float begin[3], factor[3], factor_inv[3];
    double lo[3], hi[3];
    const float *map[DOCK_GPU_MAX_MAPS];
    const float *pair;
    int e_map, d_map;
    float center[3];
    const float *elec, *desolv;
};

struct dev_batch {
    const dock_gpu_record *rec;
    const int *chain_rec;
    const float *axyz;
    const int8_t *atype;
    const uint8_t *abody;
    const int *bstart, *pstart;
    const uint32_t *partner;
    const uint8_t *work;
    const int *rotor;
    const float *raxis, *rpoint;
    float *out;
    long long *evals;
    const float *start;   /* focus chains: each chain's start (out_stride floats a chain, as out) */
    float *kxyz;          /* keep > 1: each kept minimum's atoms (3 · max_atoms floats a slot) */
    int nchain, out_stride, random_start, keep;
    float min_rmsd;
    double amp;           /* focus chains' moves (B.start set): a fraction of the exploring chains' */
    int max_atoms, max_rot, warp_floats;
    const float *acharge;   /* AutoDock4 function: atom charges, heavy flags, partner scales, vdW tables */
    const uint8_t *aheavy;
    const float2 *pcoef;
    const float *vdw;
};

/* A warp's shared scratch: coordinates and atom gradients, body frames (3×3 + translation) and
 * body force/torque sums, the BFGS matrix and vectors, five conformations (pos 3, q 4, tor). */
struct scratch {
    float *x, *g, *fr, *ft, *h, *gv, *gn, *p, *y, *hy;
    float *cur, *cand, *trial, *start, *best;
};

/* A warp's copy of its record heads its shared floats (8-byte aligned: even float counts). */
#define RECORD_FLOATS ((int)((sizeof(dock_gpu_record) + 7) / 8 * 2))

static __host__ __device__ int warp_floats(int A, int R)
{
    const int N = 6 + R, C = 7 + R;
    const int n = RECORD_FLOATS + 6 * A + 18 * (R + 2) + N * N + 5 * N + 5 * C;
    return n + (n & 1);
}

/* Both kernels' dynamic shared memory. The device functions below reach the warp's scratch and
 * record from this symbol, not through pointers passed to them: a pointer passed to a function
 * that is not inlined is generic to the compiler, so every access would be a generic load (long
 * scoreboard) that it must also assume may alias the stack and the parameters, reloading them;
 * from the symbol they are shared loads (docs/PERFORMANCE.md, "The chains' kernel profiled"). */
extern __shared__ float dock_smem[];

static __device__ __forceinline__ float *warp_base(const dev_batch &B)
{
    return dock_smem + (size_t)(threadIdx.x / LANES) * B.warp_floats;
}

static __device__ __forceinline__ const dock_gpu_record &warp_record(const dev_batch &B)
{
    return *(const dock_gpu_record *)warp_base(B);
}

/* p (a pointer into the warp's scratch) as a shared-memory pointer. */
static __device__ __forceinline__ float *in_smem(const float *p)
{
    return dock_smem + (p - dock_smem);
}

static __device__ __forceinline__ scratch carve(float *base, int A, int R)
{
    const int N = 6 + R, C = 7 + R;
    scratch s;
    /* bodies: the root, one a rotor, and a record's fixed body (flex residues' roots) */
    s.x = base, s.g = s.x + 3 * A, s.fr = s.g + 3 * A, s.ft = s.fr + 12 * (R + 2), s.h = s.ft + 6 * (R + 2);
    s.gv = s.h + N * N, s.gn = s.gv + N, s.p = s.gn + N, s.y = s.p + N, s.hy = s.y + N;
    s.cur = s.hy + N, s.cand = s.cur + C, s.trial = s.cand + C, s.start = s.trial + C, s.best = s.start + C;
    return s;
}

static __device__ __forceinline__ scratch warp_scratch(const dev_batch &B)
{
    return carve(warp_base(B) + RECORD_FLOATS, B.max_atoms, B.max_rot);
}

/* The warp's record from global memory into its shared copy. */
static __device__ void load_record(const dev_batch &B, int idx, int lane)
{
    const uint32_t *from = (const uint32_t *)(B.rec + idx);
    uint32_t *to = (uint32_t *)warp_base(B);
    for (int i = lane; i < (int)(sizeof(dock_gpu_record) / 4); i += LANES) to[i] = from[i];
    __syncwarp();
}

static __device__ __forceinline__ float warp_sum(float v)
{
    for (int m = LANES / 2; m > 0; m >>= 1) v += __shfl_xor_sync(0xffffffffu, v, m);
    return v;
}

static __device__ float warp_dot(const float *a, const float *b, int n, int lane)
{
    float s = 0;
    for (int i = lane; i < n; i += LANES) s += a[i] * b[i];
    return warp_sum(s);
}

static __device__ void warp_copy(float *dst, const float *src, int n, int lane)
{
    for (int i = lane; i < n; i += LANES) dst[i] = src[i];
}

static __device__ __forceinline__ float curl(float e, float v, float *slope)
{
    if (e > 0) {
        const float d = v + e;
        *slope = v * v / (d * d);
        return e * v / d;
    }
    *slope = 1;
    return e;
}

/* The macrocycle glue pair's energy at r² and its de/dr (ligands/score/vina_glue.h, in float:
 * Vina 1.2's 50·r below 20 Å plus the steric terms of a zero-radius Gk on its CGk below 8 Å). */
static __device__ float glue_energy(int vinardo, float r2, float *dedr)
{
    *dedr = 0;
    if (!(r2 < (float)VINA_GLUE_CUTOFF_SQR)) return 0;
    const float r = sqrtf(r2);
    float e = (float)VINA_GLUE_WEIGHT * r, de = (float)VINA_GLUE_WEIGHT;
    if (r2 < (float)VINA_GLUE_STERIC_SQR) {
        const float d = r - (vinardo ? (float)VINA_GLUE_R_VINARDO : (float)VINA_GLUE_R_VINA);
        if (vinardo) {
            const float g = d / 0.8f, x = expf(-(g * g));
            e += -0.045f * x, de += -0.045f * x * (-2 * g / 0.8f);
            if (d < 0) e += 0.8f * d * d, de += 1.6f * d;
        } else {
            const float g1 = d / 0.5f, g2 = (d - 3) / 2, x1 = expf(-(g1 * g1)), x2 = expf(-(g2 * g2));
            e += -0.035579f * x1 - 0.005156f * x2;
            de += -0.035579f * x1 * (-2 * g1 / 0.5f) - 0.005156f * x2 * (-2 * g2 / 2);
            if (d < 0) e += 0.840245f * d * d, de += 2 * 0.840245f * d;
        }
    }
    *dedr = de;
    return e;
}

/* The map value at p (trilinear, clamped into the box with Vina's slope outside), curled at v;
 * grad gets its gradient. dock_energy.c's map_atom in float. */
static __device__ float map_atom(const dev_target &T, const float *__restrict__ m, const float p[3], float v,
                                 float grad[3])
{
    float s[3], miss[3], sign[3];
    int a[3];
    for (int d = 0; d < 3; d++) {
        s[d] = (p[d] - T.begin[d]) * T.factor[d];
        const float top = (float)(T.n[d] - 1);
        miss[d] = 0, sign[d] = 0;
        if (s[d] < 0) {
            miss[d] = -s[d], sign[d] = -1, a[d] = 0, s[d] = 0;
        } else if (s[d] >= top) {
            miss[d] = s[d] - top, sign[d] = 1, a[d] = T.n[d] - 2, s[d] = 1;
        } else {
            a[d] = (int)s[d];
            s[d] -= (float)a[d];
        }
    }
    const int nx = T.n[0], nxy = nx * T.n[1];
    const int i0 = a[0] + nx * a[1] + nxy * a[2];
    const float f000 = __ldg(m + i0), f100 = __ldg(m + i0 + 1), f010 = __ldg(m + i0 + nx), f110 = __ldg(m + i0 + nx + 1);
    const float f001 = __ldg(m + i0 + nxy), f101 = __ldg(m + i0 + nxy + 1), f011 = __ldg(m + i0 + nxy + nx),
                f111 = __ldg(m + i0 + nxy + nx + 1);
    const float x = s[0], y = s[1], z = s[2], mx = 1 - x, my = 1 - y, mz = 1 - z;
    const float f = f000 * mx * my * mz + f100 * x * my * mz + f010 * mx * y * mz + f110 * x * y * mz + f001 * mx * my * z +
                    f101 * x * my * z + f011 * mx * y * z + f111 * x * y * z;
    float slope;
    const float e = curl(f, v, &slope);
    float gs[3];
    gs[0] = (f100 - f000) * my * mz + (f110 - f010) * y * mz + (f101 - f001) * my * z + (f111 - f011) * y * z;
    gs[1] = (f010 - f000) * mx * mz + (f110 - f100) * x * mz + (f011 - f001) * mx * z + (f111 - f101) * x * z;
    gs[2] = (f001 - f000) * mx * my + (f101 - f100) * x * my + (f011 - f010) * mx * y + (f111 - f110) * x * y;
    for (int d = 0; d < 3; d++) grad[d] = miss[d] > 0 ? OUT_SLOPE * sign[d] : slope * gs[d] * T.factor[d];
    return e + OUT_SLOPE * (miss[0] * T.factor_inv[0] + miss[1] * T.factor_inv[1] + miss[2] * T.factor_inv[2]);
}

/* The AutoDock4 function's atom on an AutoGrid set: type map + q·e + |q|·d, trilinear, curled at
 * v; outside the grid autodock4's penalty about its centre, uncurled (dock_energy_ad4.c's
 * atom_inter in float). */
static __device__ float ad4_atom(const dev_target &T, int ty, float q, const float p[3], float v, float grad[3])
{
    float s[3];
    int a[3], out = 0;
    for (int d = 0; d < 3; d++) {
        s[d] = (p[d] - T.begin[d]) * T.factor[d];
        const float top = (float)(T.n[d] - 1);
        if (!(s[d] >= 0 && s[d] <= top)) out = 1;
        int i0 = (int)floorf(s[d]);
        if (i0 > T.n[d] - 2) i0 = T.n[d] - 2;
        if (i0 < 0) i0 = 0;
        a[d] = i0, s[d] -= (float)i0;
    }
    if (out) {
        float d2 = 0;
        for (int d = 0; d < 3; d++) {
            const float r = p[d] - T.center[d];
            d2 += r * r, grad[d] = 2 * AD4_OUT_PENALTY * r;
        }
        return AD4_OUT_PENALTY * d2;
    }
    const int nx = T.n[0], nxy = nx * T.n[1];
    const int i0 = a[0] + nx * a[1] + nxy * a[2];
    const int off[8] = {0, 1, nx, nx + 1, nxy, nxy + 1, nxy + nx, nxy + nx + 1};
    const float *mt = T.map[ty], *me = T.map[T.e_map], *md = T.map[T.d_map];
    const float aq = fabsf(q);
    float f[8];
#pragma unroll
    for (int c = 0; c < 8; c++) f[c] = __ldg(mt + i0 + off[c]) + q * __ldg(me + i0 + off[c]) + aq * __ldg(md + i0 + off[c]);
    const float x = s[0], y = s[1], z = s[2], mx = 1 - x, my = 1 - y, mz = 1 - z;
    const float e = f[0] * mx * my * mz + f[1] * x * my * mz + f[2] * mx * y * mz + f[3] * x * y * mz + f[4] * mx * my * z +
                    f[5] * x * my * z + f[6] * mx * y * z + f[7] * x * y * z;
    float slope;
    const float ec = curl(e, v, &slope);
    grad[0] = slope * T.factor[0] * ((f[1] - f[0]) * my * mz + (f[3] - f[2]) * y * mz + (f[5] - f[4]) * my * z + (f[7] - f[6]) * y * z);
    grad[1] = slope * T.factor[1] * ((f[2] - f[0]) * mx * mz + (f[3] - f[1]) * x * mz + (f[6] - f[4]) * mx * z + (f[7] - f[5]) * x * z);
    grad[2] = slope * T.factor[2] * ((f[4] - f[0]) * mx * my + (f[5] - f[1]) * x * my + (f[6] - f[2]) * mx * y + (f[7] - f[3]) * x * y);
    return ec;
}

/* An AutoDock4 intramolecular pair at r² (ad4_intra_tables_eval in float): its energy, and into
 * *k2 its dE/dr² · 2 (0 where autodock4's table is flat: clamped below 0.5 Å, beyond the shapes). */
static __device__ __forceinline__ float ad4_pair(const dev_target &T, const float *__restrict__ vt, float2 cf, float r2,
                                                 float *k2)
{
    const int clamped = r2 < AD4_RMIN2;
    if (clamped) r2 = AD4_RMIN2;
    const float u = r2 * AD4_SQA_DIV;
    int k = (int)u;
    if (k > DOCK_GPU_AD4_SHAPE_SAMPLES - 2) k = DOCK_GPU_AD4_SHAPE_SAMPLES - 2;
    float fr = u - (float)k;
    if (fr > 1) fr = 1;
    const float e0 = cf.x * __ldg(T.elec + k) + cf.y * __ldg(T.desolv + k) + (k < DOCK_GPU_AD4_VDW_SAMPLES ? __ldg(vt + k) : 0.0f);
    const float e1 = cf.x * __ldg(T.elec + k + 1) + cf.y * __ldg(T.desolv + k + 1) +
                     (k + 1 < DOCK_GPU_AD4_VDW_SAMPLES ? __ldg(vt + k + 1) : 0.0f);
    *k2 = !clamped && u < (float)(DOCK_GPU_AD4_SHAPE_SAMPLES - 1) ? (e1 - e0) * AD4_SQA_DIV * 2 : 0.0f;
    return e0 + fr * (e1 - e0);
}

static __device__ void quat_matrix(const float q[4], float m[9])
{
    const float w = q[0], x = q[1], y = q[2], z = q[3];
    m[0] = 1 - 2 * (y * y + z * z), m[1] = 2 * (x * y - w * z), m[2] = 2 * (x * z + w * y);
    m[3] = 2 * (x * y + w * z), m[4] = 1 - 2 * (x * x + z * z), m[5] = 2 * (y * z - w * x);
    m[6] = 2 * (x * z - w * y), m[7] = 2 * (y * z + w * x), m[8] = 1 - 2 * (x * x + y * y);
}

/* q turned by the rotation vector rv (dock_conf_increment's orientation part). */
static __device__ void quat_turn(float *q, float r0, float r1, float r2)
{
    const float ang = sqrtf(r0 * r0 + r1 * r1 + r2 * r2);
    if (!(ang > 0)) return;
    const float s = sinf(ang / 2) / ang;
    const float r[4] = {cosf(ang / 2), r0 * s, r1 * s, r2 * s};
    float nq[4] = {r[0] * q[0] - r[1] * q[1] - r[2] * q[2] - r[3] * q[3], r[0] * q[1] + r[1] * q[0] + r[2] * q[3] - r[3] * q[2],
                   r[0] * q[2] - r[1] * q[3] + r[2] * q[0] + r[3] * q[1], r[0] * q[3] + r[1] * q[2] - r[2] * q[1] + r[3] * q[0]};
    const float len = sqrtf(nq[0] * nq[0] + nq[1] * nq[1] + nq[2] * nq[2] + nq[3] * nq[3]);
    if (!(len > 0)) {
        q[0] = 1, q[1] = q[2] = q[3] = 0;
        return;
    }
    for (int i = 0; i < 4; i++) q[i] = nq[i] / len;
}

/* Energy of conformation c (pos 3, q 4, tor) at cap v; when grad is not NULL, the change-space
 * gradient (6 + nrot) too. Every lane returns the same value. */
template <bool AD4>
static __device__ __noinline__ float evaluate(const dev_target &T, const dev_batch &B, const float *c, float v, float *grad,
                                              int lane)
{
    const dock_gpu_record &r = warp_record(B);
    const scratch s = warp_scratch(B);
    c = in_smem(c);
    if (grad) grad = in_smem(grad);
    const int na = r.natoms, nrot = r.nrot, nb = nrot + 1 + r.fixed;
    const int *rot = B.rotor + 4 * r.rotor0;
    const float *rax = B.raxis + 3 * r.rotor0, *rpt = B.rpoint + 3 * r.rotor0;
    /* each rotor's rotation about its fixed input-frame axis (Rodrigues), into its body's slot */
    for (int k = lane; k < nrot; k += LANES) {
        float sn, cs;
        sincosf(c[7 + k], &sn, &cs);
        const float t = 1 - cs, u0 = rax[3 * k], u1 = rax[3 * k + 1], u2 = rax[3 * k + 2];
        float *f = s.fr + 12 * (k + 1);
        f[0] = t * u0 * u0 + cs, f[1] = t * u0 * u1 - sn * u2, f[2] = t * u0 * u2 + sn * u1;
        f[3] = t * u0 * u1 + sn * u2, f[4] = t * u1 * u1 + cs, f[5] = t * u1 * u2 - sn * u0;
        f[6] = t * u0 * u2 - sn * u1, f[7] = t * u1 * u2 + sn * u0, f[8] = t * u2 * u2 + cs;
        const float p0 = rpt[3 * k], p1 = rpt[3 * k + 1], p2 = rpt[3 * k + 2];
        f[9] = p0 - (f[0] * p0 + f[1] * p1 + f[2] * p2);
        f[10] = p1 - (f[3] * p0 + f[4] * p1 + f[5] * p2);
        f[11] = p2 - (f[6] * p0 + f[7] * p1 + f[8] * p2);
    }
    if (lane == 0) { /* the root: x → pos + R(q)(x − origin0) */
        float *f = s.fr;
        quat_matrix(c + 3, f);
        for (int d = 0; d < 3; d++)
            f[9 + d] = c[d] - (f[3 * d] * r.origin0[0] + f[3 * d + 1] * r.origin0[1] + f[3 * d + 2] * r.origin0[2]);
    }
    if (r.fixed && lane < 12) s.fr[12 * (nrot + 1) + lane] = lane == 0 || lane == 4 || lane == 8 ? 1.0f : 0.0f; /* identity */
    __syncwarp();
    /* body k + 1 = its parent's frame ∘ its rotor's rotation, parents first; lane e < 12 forms
     * entry e of the product (rotation entries 0..8, translation 9..11) */
    for (int k = 0; k < nrot; k++) {
        const float *P = s.fr + 12 * rot[4 * k];
        float *F = s.fr + 12 * (k + 1);
        float o = 0;
        if (lane < 9) {
            const int i = lane / 3, j = lane % 3;
            o = P[3 * i] * F[j] + P[3 * i + 1] * F[3 + j] + P[3 * i + 2] * F[6 + j];
        } else if (lane < 12) {
            const int i = lane - 9;
            o = P[3 * i] * F[9] + P[3 * i + 1] * F[10] + P[3 * i + 2] * F[11] + P[9 + i];
        }
        __syncwarp();
        if (lane < 12) F[lane] = o;
        __syncwarp();
    }
    const float *x0 = B.axyz + 3 * r.atom0;
    const uint8_t *body = B.abody + r.atom0;
    for (int i = lane; i < na; i += LANES) {
        const float *f = s.fr + 12 * body[i];
        const float a = x0[3 * i], b = x0[3 * i + 1], cc = x0[3 * i + 2];
        for (int d = 0; d < 3; d++) s.x[3 * i + d] = f[3 * d] * a + f[3 * d + 1] * b + f[3 * d + 2] * cc + f[9 + d];
    }
    __syncwarp();
    const int8_t *type = B.atype + r.atom0;
    const int *ps = B.pstart + r.pstart0;
    float e = 0;
    for (int i = lane; i < na; i += LANES) s.g[3 * i] = s.g[3 * i + 1] = s.g[3 * i + 2] = 0;
    __syncwarp();
    const uint8_t *work = B.work + r.work0;
    for (int row = 0; row < r.work_rows; row++) {
        const int i = work[LANES * row + lane];
        if (i == 255) continue;
        float gi[3] = {0, 0, 0};
        const int ty = type[i];
        const float xi[3] = {s.x[3 * i], s.x[3 * i + 1], s.x[3 * i + 2]};
        if (AD4) e += ad4_atom(T, ty, __ldg(B.acharge + r.atom0 + i), xi, v, gi);
        else if (ty >= 0) e += map_atom(T, T.map[ty], xi, v, gi);
#pragma unroll 4
        for (int q = ps[i]; q < ps[i + 1]; q++) {
            const uint32_t w = __ldg(B.partner + q);
            const int j = (int)(w & 0xffu);
            const float dx = xi[0] - s.x[3 * j], dy = xi[1] - s.x[3 * j + 1], dz = xi[2] - s.x[3 * j + 2];
            const float r2 = dx * dx + dy * dy + dz * dz;
            if (AD4) { /* uncurled, as autodock4's internal energy in dock_energy_ad4.c */
                float k2;
                const float pe = ad4_pair(T, B.vdw + (size_t)(w >> 8) * DOCK_GPU_AD4_VDW_SAMPLES, B.pcoef[q], r2, &k2);
                if (i < j) e += pe;
                gi[0] += k2 * dx, gi[1] += k2 * dy, gi[2] += k2 * dz;
                continue;
            }
            if ((w >> 8) >= DOCK_GPU_GLUE_ROW) { /* macrocycle glue pair: the function, not a table */
                float dedr, slope;
                const float pe = curl(glue_energy((w >> 8) != DOCK_GPU_GLUE_ROW, r2, &dedr), v, &slope);
                if (i < j) e += pe;
                if (r2 > 0) {
                    const float k2 = slope * dedr * rsqrtf(r2); /* dE/dr / r */
                    gi[0] += k2 * dx, gi[1] += k2 * dy, gi[2] += k2 * dz;
                }
                continue;
            }
            if (!(r2 < 64.0f)) continue;
            const float *tab = T.pair + (size_t)(w >> 8) * DOCK_GPU_TABLE_SAMPLES;
            const float xk = r2 * 32.0f;
            int k0 = (int)xk;
            if (k0 > TABLE_BINS - 1) k0 = TABLE_BINS - 1;
            const float t0 = __ldg(tab + k0), d = __ldg(tab + k0 + 1) - t0, fr = xk - (float)k0;
            float slope;
            const float pe = curl(t0 + fr * d, v, &slope);
            if (i < j) e += pe;
            const float k2 = slope * d * 64.0f; /* dE/dr² · 2 */
            gi[0] += k2 * dx, gi[1] += k2 * dy, gi[2] += k2 * dz;
        }
        s.g[3 * i] = gi[0], s.g[3 * i + 1] = gi[1], s.g[3 * i + 2] = gi[2];
    }
    const float E = warp_sum(e);
    if (!grad) return E;
    __syncwarp();
    /* force and torque (about pos) of each body, then subtree sums leaves to root */
    const int *bs = B.bstart + r.body0;
    for (int b = lane; b < nb; b += LANES) {
        float F[3] = {0, 0, 0}, Q[3] = {0, 0, 0};
        for (int i = bs[b]; i < bs[b + 1]; i++) {
            const float vx = s.x[3 * i] - c[0], vy = s.x[3 * i + 1] - c[1], vz = s.x[3 * i + 2] - c[2];
            const float gx = s.g[3 * i], gy = s.g[3 * i + 1], gz = s.g[3 * i + 2];
            F[0] += gx, F[1] += gy, F[2] += gz;
            Q[0] += vy * gz - vz * gy, Q[1] += vz * gx - vx * gz, Q[2] += vx * gy - vy * gx;
        }
        for (int d = 0; d < 3; d++) s.ft[6 * b + d] = F[d], s.ft[6 * b + 3 + d] = Q[d];
    }
    __syncwarp();
    if (lane < 6) /* lane d carries component d of every subtree sum */
        for (int k = nrot - 1; k >= 0; k--) s.ft[6 * rot[4 * k] + lane] += s.ft[6 * (k + 1) + lane];
    __syncwarp();
    if (lane < 6) grad[lane] = s.ft[lane];
    for (int k = lane; k < nrot; k += LANES) {
        const float *P = s.fr + 12 * rot[4 * k], *S = s.ft + 6 * (k + 1);
        const float a0 = rax[3 * k], a1 = rax[3 * k + 1], a2 = rax[3 * k + 2];
        const float u[3] = {P[0] * a0 + P[1] * a1 + P[2] * a2, P[3] * a0 + P[4] * a1 + P[5] * a2,
                            P[6] * a0 + P[7] * a1 + P[8] * a2};
        const int b = rot[4 * k + 2];
        const float rx = s.x[3 * b] - c[0], ry = s.x[3 * b + 1] - c[1], rz = s.x[3 * b + 2] - c[2];
        /* Σ_subtree (x − x_b) × g = Q_sub − (x_b − pos) × F_sub */
        const float t0 = S[3] - (ry * S[2] - rz * S[1]), t1 = S[4] - (rz * S[0] - rx * S[2]),
                    t2 = S[5] - (rx * S[1] - ry * S[0]);
        grad[6 + k] = u[0] * t0 + u[1] * t1 + u[2] * t2;
    }
    __syncwarp();
    return E;
}

/* c += alpha·d (dock_conf_increment). */
static __device__ void increment(float *c, const float *d, float alpha, int nrot, int lane)
{
    if (lane < 3) c[lane] += alpha * d[lane];
    if (lane == 3) quat_turn(c + 3, alpha * d[3], alpha * d[4], alpha * d[5]);
    for (int k = lane; k < nrot; k += LANES) c[7 + k] = fmodf(c[7 + k] + alpha * d[6 + k], (float)(2 * DOCK_PI));
    __syncwarp();
}

struct minimum {
    float e;
    int evals; /* energy evaluations it took */
};

/* dock_bfgs on the warp: c (shared) is replaced by the minimum found; returns its energy. */
template <bool AD4>
static __device__ __noinline__ minimum bfgs(const dev_target &T, const dev_batch &B, float *c, int max_steps, float v, int lane)
{
    const dock_gpu_record &r = warp_record(B);
    const scratch s = warp_scratch(B);
    c = in_smem(c);
    int evals = 0;
    const int n = 6 + r.nrot, nc = 7 + r.nrot;
    warp_copy(s.start, c, nc, lane);
    for (int i = lane; i < n * n; i += LANES) s.h[i] = i / n == i % n ? 1.0f : 0.0f;
    __syncwarp();
    float f0 = evaluate<AD4>(T, B, c, v, s.gv, lane);
    evals++;
    const float f_start = f0;
    for (int step = 0; step < max_steps; step++) {
        for (int i = lane; i < n; i += LANES) {
            float a = 0;
            for (int j = 0; j < n; j++) a += s.h[i * n + j] * s.gv[j];
            s.p[i] = -a;
        }
        __syncwarp();
        const float pg = warp_dot(s.p, s.gv, n, lane);
        float alpha = 1, f1 = 0;
        for (int t = 0; t < DOCK_LINE_TRIALS; t++) {
            warp_copy(s.trial, c, nc, lane);
            __syncwarp();
            increment(s.trial, s.p, alpha, r.nrot, lane);
            f1 = evaluate<AD4>(T, B, s.trial, v, s.gn, lane);
            evals++;
            if (f1 - f0 < (float)DOCK_ARMIJO * alpha * pg) break;
            alpha *= 0.5f;
        }
        for (int i = lane; i < n; i += LANES) s.y[i] = s.gn[i] - s.gv[i];
        f0 = f1;
        warp_copy(c, s.trial, nc, lane);
        __syncwarp();
        if (!(sqrtf(warp_dot(s.gv, s.gv, n, lane)) >= (float)DOCK_GRAD_STOP)) break; /* also stops on NaN */
        warp_copy(s.gv, s.gn, n, lane);
        __syncwarp();
        if (step == 0) {
            const float yy = warp_dot(s.y, s.y, n, lane);
            if (fabsf(yy) > 1e-12f) {
                const float sc = alpha * warp_dot(s.y, s.p, n, lane) / yy;
                for (int i = lane; i < n; i += LANES) s.h[i * n + i] = sc;
                __syncwarp();
            }
        }
        const float yp = warp_dot(s.y, s.p, n, lane);
        if (!(alpha * yp > 1e-12f)) continue;
        for (int i = lane; i < n; i += LANES) {
            float a = 0;
            for (int j = 0; j < n; j++) a += s.h[i * n + j] * s.y[j];
            s.hy[i] = a;
        }
        __syncwarp();
        const float yhy = warp_dot(s.y, s.hy, n, lane), rr = 1 / (alpha * yp);
        const float k1 = alpha * rr, k2 = alpha * alpha * (rr * rr * yhy + rr);
        for (int idx = lane; idx < n * n; idx += LANES) {
            const int i = idx / n, j = idx % n;
            s.h[idx] = s.h[idx] - k1 * (s.hy[i] * s.p[j] + s.hy[j] * s.p[i]) + k2 * s.p[i] * s.p[j];
        }
        __syncwarp();
    }
    if (!(f0 <= f_start)) {
        warp_copy(c, s.start, nc, lane);
        f0 = f_start;
    }
    __syncwarp();
    return minimum{f0, evals};
}

/* Slot j of chain gw's kept minima: its energy and conformation in out, its atoms in kxyz. */
static __device__ __forceinline__ float *kept_slot(const dev_batch &B, int gw, int j)
{
    return B.out + ((size_t)gw * B.keep + j) * B.out_stride;
}
static __device__ __forceinline__ float *kept_atoms(const dev_batch &B, int gw, int j)
{
    return B.kxyz + ((size_t)gw * B.keep + j) * 3 * B.max_atoms;
}

/* dock_search.c's kept_add for a chain that keeps several minima: the minimum s.cur of energy e
 * (its atoms placed here) replaces the closest kept one within min_rmsd when lower (else is
 * dropped), joins while there is room, or replaces the highest when lower. n: minima kept so
 * far; returns the new count. RMSD over the atoms with a map type (the heavy atoms; squared
 * sums against min_rmsd² · nheavy: no square root). Every lane decides alike (warp sums). */
template <bool AD4>
static __device__ __noinline__ int keep_minimum(const dev_target &T, const dev_batch &B, int gw, int lane, float e, int n,
                                                int nheavy)
{
    const dock_gpu_record &r = warp_record(B);
    const scratch s = warp_scratch(B);
    const int na = r.natoms, nc = 7 + r.nrot;
    evaluate<AD4>(T, B, s.cur, (float)DOCK_AUTHENTIC_CAP, NULL, lane); /* s.x: the minimum's atoms */
    const int8_t *type = B.atype + r.atom0;
    const uint8_t *heavy = B.aheavy ? B.aheavy + r.atom0 : NULL; /* else: the atoms with a map type */
    const float lim = B.min_rmsd * B.min_rmsd * (float)nheavy;
    int close = -1;
    float best = 0;
    for (int j = 0; j < n; j++) {
        const float *y = kept_atoms(B, gw, j);
        float d2 = 0;
        for (int i = lane; i < na; i += LANES)
            if (heavy ? heavy[i] != 0 : type[i] >= 0) {
                const float dx = s.x[3 * i] - y[3 * i], dy = s.x[3 * i + 1] - y[3 * i + 1], dz = s.x[3 * i + 2] - y[3 * i + 2];
                d2 += dx * dx + dy * dy + dz * dz;
            }
        d2 = warp_sum(d2);
        if (d2 < lim && (close < 0 || d2 < best)) close = j, best = d2;
    }
    int at;
    if (close >= 0) {
        if (!(e < kept_slot(B, gw, close)[0])) return n;
        at = close;
    } else if (n < B.keep) {
        at = n++;
    } else {
        at = 0;
        for (int j = 1; j < n; j++)
            if (kept_slot(B, gw, j)[0] >= kept_slot(B, gw, at)[0]) at = j;
        if (!(e < kept_slot(B, gw, at)[0])) return n;
    }
    __syncwarp(); /* every lane has read the slots before lane 0 writes one */
    float *o = kept_slot(B, gw, at), *x = kept_atoms(B, gw, at);
    if (lane == 0) o[0] = e;
    for (int i = lane; i < nc; i += LANES) o[1 + i] = s.cur[i];
    for (int i = lane; i < 3 * na; i += LANES) x[i] = s.x[i];
    __syncwarp();
    return n;
}

/* One warp, one chain: run_chain of dock_search.c with one kept minimum. WPB warps a block;
 * MINB: the blocks an SM must hold (WPB · MINB = 32 warps: the register cap, 64). chains_kernel
 * picks the shape. */
template <int WPB, int MINB, bool AD4>
static __global__ void __launch_bounds__(LANES *WPB, MINB) dock_chains(const __grid_constant__ dev_target T,
                                                                       const __grid_constant__ dev_batch B)
{
    const int lane = threadIdx.x & (LANES - 1), wib = threadIdx.x / LANES;
    const int gw = blockIdx.x * WPB + wib;
    if (gw >= B.nchain) return;
    load_record(B, B.chain_rec[gw], lane);
    const dock_gpu_record &r = warp_record(B);
    const int chain = gw - r.chain0, nrot = r.nrot, nc = 7 + nrot;
    const scratch s = warp_scratch(B);
    dock_rng rng = dock_rng_for(r.seed, (uint64_t)(r.stream0 + chain));
    long long evals = 0;
    if (B.start) {
        warp_copy(s.cur, B.start + (size_t)gw * B.out_stride + 1, nc, lane);
    } else if (lane == 0) {
        float *c = s.cur;
        if (B.random_start) {
            for (int d = 0; d < 3; d++) c[d] = (float)dock_rng_range(&rng, T.lo[d], T.hi[d]);
            double q[4];
            dock_rng_quat(&rng, q);
            for (int i = 0; i < 4; i++) c[3 + i] = (float)q[i];
            for (int k = 0; k < nrot; k++) c[7 + k] = (float)dock_rng_range(&rng, -DOCK_PI, DOCK_PI);
        } else {
            for (int d = 0; d < 3; d++) c[d] = r.origin0[d];
            c[3] = 1, c[4] = c[5] = c[6] = 0;
            for (int k = 0; k < nrot; k++) c[7 + k] = 0;
        }
    }
    __syncwarp();
    float cur_e = 0, best_e = INFINITY, kept_e = INFINITY;
    int kept = 0, nheavy = 0;
    const int entities = 2 + nrot, several = B.keep > 1;
    const double amp = B.start ? B.amp : 1.0; /* a focus chain's moves (dock_search.c's run_chain) */
    if (several) { /* slots unfilled until kept; the heavy atoms RMSD is over */
        const int8_t *type = B.atype + r.atom0;
        int h = 0;
        for (int i = lane; i < r.natoms; i += LANES) h += B.aheavy ? B.aheavy[r.atom0 + i] != 0 : type[i] >= 0;
        for (int m = LANES / 2; m > 0; m >>= 1) h += __shfl_xor_sync(0xffffffffu, h, m);
        nheavy = h;
        if (lane == 0)
            for (int j = 0; j < B.keep; j++) kept_slot(B, gw, j)[0] = INFINITY;
        __syncwarp();
    }
    for (int step = 0; step < r.steps; step++) {
        warp_copy(s.cand, s.cur, nc, lane);
        __syncwarp();
        if (lane == 0) { /* one of: position, orientation, a torsion */
            float *c = s.cand;
            const int which = dock_rng_int(&rng, entities);
            if (which == 0) {
                double u[3];
                dock_rng_in_sphere(&rng, u);
                for (int d = 0; d < 3; d++) c[d] += (float)(amp * DOCK_AMPLITUDE * u[d]);
            } else if (which == 1) {
                double u[3];
                dock_rng_in_sphere(&rng, u);
                if (r.gyration > 1e-9) {
                    const double f = amp * DOCK_AMPLITUDE / r.gyration;
                    quat_turn(c + 3, (float)(u[0] * f), (float)(u[1] * f), (float)(u[2] * f));
                }
            } else {
                if (amp < 1) c[7 + which - 2] += (float)(amp * dock_rng_range(&rng, -DOCK_PI, DOCK_PI));
                else c[7 + which - 2] = (float)dock_rng_range(&rng, -DOCK_PI, DOCK_PI);
            }
        }
        __syncwarp();
        const minimum hunt = bfgs<AD4>(T, B, s.cand, r.local_steps, (float)DOCK_HUNT_CAP, lane);
        const float e = hunt.e;
        evals += hunt.evals;
        int accept = 0;
        if (lane == 0) {
            accept = step == 0 || e < cur_e;
            if (!accept) accept = dock_rng_uniform(&rng) < exp(((double)cur_e - (double)e) / DOCK_TEMPERATURE);
        }
        accept = __shfl_sync(0xffffffffu, accept, 0);
        if (!accept) continue;
        warp_copy(s.cur, s.cand, nc, lane);
        __syncwarp();
        cur_e = e;
        if (cur_e < best_e || kept < B.keep) {
            const minimum settled = bfgs<AD4>(T, B, s.cur, r.local_steps, (float)DOCK_AUTHENTIC_CAP, lane);
            cur_e = settled.e;
            evals += settled.evals;
            if (several) {
                kept = keep_minimum<AD4>(T, B, gw, lane, cur_e, kept, nheavy);
            } else if (!kept || cur_e < kept_e) {
                warp_copy(s.best, s.cur, nc, lane);
                kept_e = cur_e, kept = 1;
            }
            if (cur_e < best_e) best_e = cur_e;
            __syncwarp();
        }
    }
    if (!several) {
        float *o = B.out + (size_t)gw * B.out_stride;
        if (lane == 0) o[0] = kept ? kept_e : INFINITY;
        for (int i = lane; i < nc; i += LANES) o[1 + i] = s.best[i];
    }
    if (lane == 0 && B.evals) B.evals[gw] = evals;
}

extern "C" vsg_status dock_gpu_maps_upload(const int n[3], const double begin[3], const double end[3],
                                           const double factor[3], const double *const map[VSG_XS_COUNT],
                                           const float *pair_table, int device, dock_gpu_maps **out)
{
    *out = NULL;
    CU(cudaSetDevice(device));
    dock_gpu_maps *m = (dock_gpu_maps *)calloc(1, sizeof *m);
    if (!m) return vsg_fail(VSG_E_NOMEM, "GPU docking: out of memory");
    m->device = device;
    for (int d = 0; d < 3; d++) {
        m->n[d] = n[d];
        m->begin[d] = (float)begin[d], m->factor[d] = (float)factor[d], m->factor_inv[d] = (float)(1.0 / factor[d]);
        m->lo[d] = begin[d], m->hi[d] = end[d];
    }
    const size_t nodes = (size_t)n[0] * (size_t)n[1] * (size_t)n[2];
    float *host = (float *)malloc(sizeof(float) * nodes);
    vsg_status st = VSG_OK;
    if (!host) st = vsg_fail(VSG_E_NOMEM, "GPU docking: out of memory");
    for (int t = 0; t < VSG_XS_COUNT && st == VSG_OK; t++) {
        if (!map[t]) continue;
        for (size_t i = 0; i < nodes; i++) host[i] = (float)map[t][i];
        cudaError_t e = cudaMalloc((void **)&m->map[t], sizeof(float) * nodes);
        if (e == cudaSuccess) e = cudaMemcpy(m->map[t], host, sizeof(float) * nodes, cudaMemcpyHostToDevice);
        if (e != cudaSuccess) st = cuda_fail("map upload", e);
    }
    free(host);
    if (st == VSG_OK) {
        const size_t bytes = sizeof(float) * (size_t)VSG_XS_COUNT * VSG_XS_COUNT * DOCK_GPU_TABLE_SAMPLES;
        cudaError_t e = cudaMalloc((void **)&m->pair, bytes);
        if (e == cudaSuccess) e = cudaMemcpy(m->pair, pair_table, bytes, cudaMemcpyHostToDevice);
        if (e != cudaSuccess) st = cuda_fail("pair table upload", e);
    }
    if (st != VSG_OK) {
        dock_gpu_maps_free(m);
        return st;
    }
    *out = m;
    return VSG_OK;
}

extern "C" vsg_status dock_gpu_ad4_maps_upload(const int n[3], const double origin[3], const double spacing[3], int nmaps,
                                               const float *const *map, int e_map, int d_map, const float *elec_shape,
                                               const float *desolv_shape, int device, dock_gpu_maps **out)
{
    *out = NULL;
    if (nmaps < 1 || nmaps > DOCK_GPU_MAX_MAPS || e_map < 0 || e_map >= nmaps || d_map < 0 || d_map >= nmaps)
        return vsg_fail(VSG_E_ARG, "GPU docking: an AutoGrid set of %d maps (at most %d, with an e and a d map)", nmaps,
                        DOCK_GPU_MAX_MAPS);
    CU(cudaSetDevice(device));
    dock_gpu_maps *m = (dock_gpu_maps *)calloc(1, sizeof *m);
    if (!m) return vsg_fail(VSG_E_NOMEM, "GPU docking: out of memory");
    m->device = device, m->ad4 = 1, m->e_map = e_map, m->d_map = d_map;
    for (int d = 0; d < 3; d++) {
        m->n[d] = n[d];
        m->begin[d] = (float)origin[d], m->factor[d] = (float)(1.0 / spacing[d]), m->factor_inv[d] = (float)spacing[d];
        m->lo[d] = origin[d], m->hi[d] = origin[d] + (n[d] - 1) * spacing[d];
        m->center[d] = (float)(origin[d] + 0.5 * (n[d] - 1) * spacing[d]);
    }
    const size_t nodes = (size_t)n[0] * (size_t)n[1] * (size_t)n[2];
    vsg_status st = VSG_OK;
    for (int t = 0; t < nmaps && st == VSG_OK; t++) {
        if (!map[t]) continue;
        cudaError_t e = cudaMalloc((void **)&m->map[t], sizeof(float) * nodes);
        if (e == cudaSuccess) e = cudaMemcpy(m->map[t], map[t], sizeof(float) * nodes, cudaMemcpyHostToDevice);
        if (e != cudaSuccess) st = cuda_fail("map upload", e);
    }
    const size_t shape = sizeof(float) * DOCK_GPU_AD4_SHAPE_SAMPLES;
    if (st == VSG_OK) {
        cudaError_t e = cudaMalloc((void **)&m->elec, shape);
        if (e == cudaSuccess) e = cudaMemcpy(m->elec, elec_shape, shape, cudaMemcpyHostToDevice);
        if (e == cudaSuccess) e = cudaMalloc((void **)&m->desolv, shape);
        if (e == cudaSuccess) e = cudaMemcpy(m->desolv, desolv_shape, shape, cudaMemcpyHostToDevice);
        if (e != cudaSuccess) st = cuda_fail("AutoDock4 pair shapes upload", e);
    }
    if (st == VSG_OK && (!m->map[e_map] || !m->map[d_map])) st = vsg_fail(VSG_E_ARG, "GPU docking: no e or d map");
    if (st != VSG_OK) {
        dock_gpu_maps_free(m);
        return st;
    }
    *out = m;
    return VSG_OK;
}

extern "C" void dock_gpu_maps_free(dock_gpu_maps *m)
{
    if (!m) return;
    cudaSetDevice(m->device);
    for (int t = 0; t < DOCK_GPU_MAX_MAPS; t++) cudaFree(m->map[t]);
    cudaFree(m->pair), cudaFree(m->elec), cudaFree(m->desolv);
    free(m);
}

/* Device copies of the batch's arrays, freed together, all on the call's own stream: a screen
 * runs several batches on one GPU at once (one host thread each), and stream-ordered allocation
 * and copies keep one call's allocations, copies and synchronisation from waiting on another's
 * kernel (cudaMalloc / cudaFree / cudaDeviceSynchronize would serialise them). */
struct uploads {
    void *p[32];
    int n;
    cudaStream_t stream;
};

static vsg_status upload(uploads *u, const void *src, size_t bytes, void **dst)
{
    *dst = NULL;
    if (bytes == 0) bytes = 4;
    CU(cudaMallocAsync(dst, bytes, u->stream));
    u->p[u->n++] = *dst;
    if (src) CU(cudaMemcpyAsync(*dst, src, bytes, cudaMemcpyHostToDevice, u->stream));
    return VSG_OK;
}

/* A kernel's dynamic shared memory limit, raised to at least `bytes` on the current device and
 * never lowered. The limit is the function's, for every thread of the process: set before each
 * launch, one batch's smaller value could land between another's setting and its launch (two
 * searches at once on a GPU, or several GPUs: "invalid argument" at the launch). */
static vsg_status allow_shared(const void *kernel, size_t bytes)
{
    static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
    enum { SLOTS = 32, DEVICES = 64 };
    static const void *fn[SLOTS];
    static size_t set[SLOTS][DEVICES];
    int device = 0;
    CU(cudaGetDevice(&device));
    if (device < 0 || device >= DEVICES) return vsg_fail(VSG_E_DEVICE, "GPU docking: device %d out of range", device);
    cudaError_t e = cudaSuccess;
    pthread_mutex_lock(&mu);
    int k = 0;
    while (k < SLOTS && fn[k] && fn[k] != kernel) k++;
    if (k == SLOTS) e = cudaErrorInvalidValue;
    else {
        fn[k] = kernel;
        if (set[k][device] < bytes) {
            e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes);
            if (e == cudaSuccess) set[k][device] = bytes;
        }
    }
    pthread_mutex_unlock(&mu);
    if (e != cudaSuccess) return cuda_fail("cudaFuncSetAttribute (dynamic shared memory)", e);
    return VSG_OK;
}

/* The call's stream (in u), or VSG_E_DEVICE. */
static vsg_status uploads_open(uploads *u, int device)
{
    u->n = 0;
    u->stream = NULL;
    CU(cudaSetDevice(device));
    CU(cudaStreamCreateWithFlags(&u->stream, cudaStreamNonBlocking));
    return VSG_OK;
}

/* Frees what was uploaded and the stream; st (the call's status) unless freeing fails. */
static vsg_status uploads_close(uploads *u, vsg_status st)
{
    if (!u->stream) return st;
    for (int i = 0; i < u->n; i++) cudaFreeAsync(u->p[i], u->stream);
    const cudaError_t e = cudaStreamSynchronize(u->stream);
    cudaStreamDestroy(u->stream);
    if (st == VSG_OK && e != cudaSuccess) return cuda_fail("cudaStreamSynchronize (freeing a docking batch)", e);
    return st;
}

static void target_of(const dock_gpu_maps *m, dev_target *T)
{
    memset(T, 0, sizeof *T);
    for (int d = 0; d < 3; d++) {
        T->n[d] = m->n[d], T->begin[d] = m->begin[d], T->factor[d] = m->factor[d], T->factor_inv[d] = m->factor_inv[d];
        T->lo[d] = m->lo[d], T->hi[d] = m->hi[d];
    }
    for (int t = 0; t < DOCK_GPU_MAX_MAPS; t++) T->map[t] = m->map[t];
    T->pair = m->pair;
    T->e_map = m->e_map, T->d_map = m->d_map;
    for (int d = 0; d < 3; d++) T->center[d] = m->center[d];
    T->elec = m->elec, T->desolv = m->desolv;
}

/* The batch's arrays on the device (D's pointers; out and evals sized for nout slots). */
static vsg_status upload_batch(const dock_gpu_batch *b, int nout, dev_batch *D, uploads *u)
{
    memset(D, 0, sizeof *D);
    int *chain_rec = (int *)malloc(sizeof(int) * (size_t)(b->nchain > 0 ? b->nchain : 1));
    if (!chain_rec) return vsg_fail(VSG_E_NOMEM, "GPU docking: out of memory");
    for (int i = 0; i < b->nrec; i++)
        for (int c = 0; c < b->rec[i].nchain; c++) chain_rec[b->rec[i].chain0 + c] = i;
    void *p;
    vsg_status st;
#define UP(field, src, bytes, type)                                                        \
    do {                                                                               \
        if ((st = upload(u, src, bytes, &p)) != VSG_OK) { free(chain_rec); return st; } \
        D->field = (type)p;                                                            \
    } while (0)
    UP(rec, b->rec, sizeof(dock_gpu_record) * (size_t)b->nrec, const dock_gpu_record *);
    UP(chain_rec, chain_rec, sizeof(int) * (size_t)b->nchain, const int *);
    free(chain_rec);
    chain_rec = NULL;
    UP(axyz, b->atom_xyz, sizeof(float) * 3 * (size_t)b->natoms, const float *);
    UP(atype, b->atom_type, (size_t)b->natoms, const int8_t *);
    UP(abody, b->atom_body, (size_t)b->natoms, const uint8_t *);
    UP(bstart, b->body_start, sizeof(int) * (size_t)b->nbody_start, const int *);
    UP(pstart, b->partner_start, sizeof(int) * (size_t)b->npartner_start, const int *);
    UP(partner, b->partner, sizeof(uint32_t) * (size_t)b->npartner, const uint32_t *);
    UP(work, b->work, (size_t)b->nwork, const uint8_t *);
    UP(rotor, b->rotor, sizeof(int) * 4 * (size_t)b->nrotor, const int *);
    UP(raxis, b->rotor_axis, sizeof(float) * 3 * (size_t)b->nrotor, const float *);
    UP(rpoint, b->rotor_point, sizeof(float) * 3 * (size_t)b->nrotor, const float *);
    D->out_stride = 8 + b->max_rot;
    D->keep = b->keep > 1 ? b->keep : 1;
    UP(out, NULL, sizeof(float) * (size_t)D->out_stride * (size_t)D->keep * (size_t)nout, float *);
    UP(evals, NULL, sizeof(long long) * (size_t)nout, long long *);
    if (D->keep > 1) UP(kxyz, NULL, sizeof(float) * 3 * (size_t)b->max_atoms * (size_t)D->keep * (size_t)nout, float *);
    if (b->atom_heavy) UP(aheavy, b->atom_heavy, (size_t)b->natoms, const uint8_t *);
    if (b->atom_charge) {
        UP(acharge, b->atom_charge, sizeof(float) * (size_t)b->natoms, const float *);
        UP(pcoef, b->partner_coef, sizeof(float) * 2 * (size_t)b->npartner, const float2 *);
        UP(vdw, b->vdw_table, sizeof(float) * DOCK_GPU_AD4_VDW_SAMPLES * (size_t)b->nvdw, const float *);
    }
#undef UP
    D->min_rmsd = b->min_rmsd;
    D->amp = b->focus_amplitude;
    D->nchain = b->nchain, D->random_start = b->random_start;
    D->max_atoms = b->max_atoms, D->max_rot = b->max_rot;
    D->warp_floats = warp_floats(b->max_atoms, b->max_rot);
    return VSG_OK;
}

/* The chains' kernel and its block shape: DEFAULT_WARPS warps a block, 32 warps an SM whatever
 * the shape (64 registers). Measured (docs/PERFORMANCE.md): one warp a block is 1-3% faster than
 * four (a block's SM slot frees as soon as its one chain ends); a lower register cap for more
 * warps an SM (40 or 48 warps) is 10-17% slower. VSG_DOCK_WARPS (1, 2, 4), a bench switch,
 * picks another shape; the rows are the same. */
struct chains_shape {
    void (*kernel)(dev_target, dev_batch);
    int warps;
};

static void chains_kernel(int ad4, chains_shape *k)
{
    const char *w = getenv("VSG_DOCK_WARPS");
    k->warps = w ? atoi(w) : DEFAULT_WARPS;
    if (k->warps == 4) k->kernel = ad4 ? dock_chains<4, 8, true> : dock_chains<4, 8, false>;
    else if (k->warps == 2) k->kernel = ad4 ? dock_chains<2, 16, true> : dock_chains<2, 16, false>;
    else k->warps = 1, k->kernel = ad4 ? dock_chains<1, 32, true> : dock_chains<1, 32, false>;
}

/* The focus launch of focus() below: the second launch's records, chains and starts uploaded
 * (the rest of D reused), its minima and evaluations into out2, evals2 (CU returns early: the
 * caller frees). */
static vsg_status focus_launch(const dev_target *T, const dev_batch *D, const chains_shape *k, size_t shared,
                               const dock_gpu_record *rec2, int nrec, const int *chain_rec2, const float *start2, size_t n2,
                               float *out2, long long *evals2, uploads *u)
{
    const int stride = D->out_stride;
    const size_t slots = n2 * (size_t)D->keep;
    dev_batch D2 = *D;
    void *p;
    vsg_status st;
    if ((st = upload(u, rec2, sizeof *rec2 * (size_t)nrec, &p)) != VSG_OK) return st;
    D2.rec = (const dock_gpu_record *)p;
    if ((st = upload(u, chain_rec2, sizeof(int) * n2, &p)) != VSG_OK) return st;
    D2.chain_rec = (const int *)p;
    if ((st = upload(u, start2, sizeof(float) * n2 * (size_t)stride, &p)) != VSG_OK) return st;
    D2.start = (const float *)p;
    if ((st = upload(u, NULL, sizeof(float) * slots * (size_t)stride, &p)) != VSG_OK) return st;
    D2.out = (float *)p;
    if (D->keep > 1) {
        if ((st = upload(u, NULL, sizeof(float) * 3 * (size_t)D->max_atoms * slots, &p)) != VSG_OK) return st;
        D2.kxyz = (float *)p;
    }
    if ((st = upload(u, NULL, sizeof(long long) * n2, &p)) != VSG_OK) return st;
    D2.evals = (long long *)p;
    D2.nchain = (int)n2;
    const int blocks = (int)((n2 + k->warps - 1) / k->warps);
    k->kernel<<<blocks, LANES * k->warps, shared, u->stream>>>(*T, D2);
    LAUNCHED("dock_chains (focus)");
    CU(cudaMemcpyAsync(out2, D2.out, sizeof(float) * slots * (size_t)stride, cudaMemcpyDeviceToHost, u->stream));
    CU(cudaMemcpyAsync(evals2, D2.evals, sizeof(long long) * n2, cudaMemcpyDeviceToHost, u->stream));
    CU(cudaStreamSynchronize(u->stream));
    return VSG_OK;
}

/* The focus chains (vsgrid.h, vsg_dock_params; dock_search.c's focus): per record, its chains
 * ranked by their minimum (energy, then chain), focus chain j started from the minimum of the
 * (j mod ranked)-th, on stream nchain + j, focus_steps steps; then, in j order, a focus chain's
 * minimum replaces its start chain's when lower (one minimum kept a chain). D: the first launch's
 * arrays, reused but for the records, chains, starts and outputs. */
/* The lowest of chain c's keep slots in out (keep × stride floats a chain). */
static float *lowest_slot(float *out, size_t c, int keep, int stride)
{
    float *best = out + c * (size_t)keep * stride;
    for (int j = 1; j < keep; j++) {
        float *o = out + (c * (size_t)keep + j) * stride;
        if (o[0] < best[0]) best = o;
    }
    return best;
}

/* A bench switch (docs/PERFORMANCE.md): VSG_FOCUS_AGREE=M,EPS skips a record's focus chains when
 * its M best exploring chains' minima lie within EPS kcal/mol of the best (the chains agree: the
 * basin's bottom is likely found), AutoDock-GPU's autostop idea at the phase boundary. */
static int focus_agree(float *eps)
{
    const char *v = getenv("VSG_FOCUS_AGREE");
    int m = 0;
    *eps = 0;
    if (!v || sscanf(v, "%d,%f", &m, eps) != 2 || m < 2) return 0;
    return m;
}

static vsg_status focus(const dock_gpu_batch *b, const dev_target *T, const dev_batch *D, const chains_shape *k,
                        size_t shared, float *out, long long *evals, uploads *u)
{
    float agree_eps;
    const int agree = focus_agree(&agree_eps);
    const int K = b->focus_chains, nrec = b->nrec, stride = D->out_stride, keep = D->keep;
    const size_t n2 = (size_t)nrec * (size_t)K;
    dock_gpu_record *rec2 = (dock_gpu_record *)malloc(sizeof *rec2 * (size_t)nrec);
    int *chain_rec2 = (int *)malloc(sizeof(int) * n2), *from = (int *)malloc(sizeof(int) * n2);
    int *rank = (int *)malloc(sizeof(int) * (size_t)(b->nchain > 0 ? b->nchain : 1));
    float *start2 = (float *)calloc(n2 * (size_t)stride, sizeof(float));
    float *out2 = (float *)malloc(sizeof(float) * n2 * (size_t)keep * (size_t)stride);
    long long *evals2 = (long long *)calloc(n2, sizeof(long long));
    vsg_status st = VSG_OK;
    if (!rec2 || !chain_rec2 || !from || !rank || !start2 || !out2 || !evals2) {
        st = vsg_fail(VSG_E_NOMEM, "GPU docking: out of memory");
        goto done;
    }
    for (int i = 0; i < nrec; i++) {
        const dock_gpu_record *r = &b->rec[i];
        int ranked = 0;
        for (int c = 0; c < r->nchain; c++) { /* insertion sort by (energy, chain): chains are few */
            const float e = lowest_slot(out, (size_t)(r->chain0 + c), keep, stride)[0];
            if (!(e < INFINITY)) continue;
            int at = ranked++;
            while (at > 0 && e < lowest_slot(out, (size_t)(r->chain0 + rank[at - 1]), keep, stride)[0]) rank[at] = rank[at - 1], at--;
            rank[at] = c;
        }
        if (agree && ranked >= agree &&
            lowest_slot(out, (size_t)(r->chain0 + rank[agree - 1]), keep, stride)[0] -
                    lowest_slot(out, (size_t)(r->chain0 + rank[0]), keep, stride)[0] <= agree_eps)
            ranked = 0; /* the chains agree: no focus chains for this record */
        rec2[i] = *r;
        rec2[i].chain0 = i * K, rec2[i].nchain = K, rec2[i].stream0 = r->nchain;
        rec2[i].steps = ranked ? r->focus_steps : 0; /* no minimum to focus on: the chains do nothing */
        for (int j = 0; j < K; j++) {
            const size_t q = (size_t)i * K + j;
            chain_rec2[q] = i;
            from[q] = ranked ? r->chain0 + rank[j % ranked] : -1;
            if (ranked) memcpy(start2 + q * stride, lowest_slot(out, (size_t)from[q], keep, stride), sizeof(float) * (size_t)stride);
        }
    }
    if ((st = focus_launch(T, D, k, shared, rec2, nrec, chain_rec2, start2, n2, out2, evals2, u)) != VSG_OK) goto done;
    for (size_t q = 0; q < n2; q++) {
        if (from[q] < 0) continue;
        if (evals) evals[from[q]] += evals2[q];
        float *mine = lowest_slot(out, (size_t)from[q], keep, stride), *found = lowest_slot(out2, q, keep, stride);
        if (found[0] < mine[0]) memcpy(mine, found, sizeof(float) * (size_t)stride);
    }
done:
    free(rec2), free(chain_rec2), free(from), free(rank), free(start2), free(out2), free(evals2);
    return st;
}

static vsg_status run(dock_gpu_maps *m, const dock_gpu_batch *b, float *out, long long *evals, uploads *u)
{
    dev_target T;
    target_of(m, &T);
    dev_batch D;
    vsg_status st = upload_batch(b, b->nchain, &D, u);
    if (st != VSG_OK) return st;
    chains_shape k;
    chains_kernel(m->ad4, &k);
    const size_t shared = sizeof(float) * (size_t)D.warp_floats * k.warps;
    if ((st = allow_shared((const void *)k.kernel, shared)) != VSG_OK) return st;
    const int blocks = (b->nchain + k.warps - 1) / k.warps;
    if (blocks > 0) {
        k.kernel<<<blocks, LANES * k.warps, shared, u->stream>>>(T, D);
        LAUNCHED("dock_chains");
    }
    CU(cudaMemcpyAsync(out, D.out, sizeof(float) * (size_t)D.out_stride * (size_t)D.keep * (size_t)b->nchain,
                       cudaMemcpyDeviceToHost, u->stream));
    if (evals)
        CU(cudaMemcpyAsync(evals, D.evals, sizeof(long long) * (size_t)b->nchain, cudaMemcpyDeviceToHost, u->stream));
    CU(cudaStreamSynchronize(u->stream));
    if (b->focus_chains > 0 && b->nrec > 0) return focus(b, &T, &D, &k, shared, out, evals, u);
    return VSG_OK;
}

/* One warp a conformation: energy and gradient (the twins' energy test). */
template <bool AD4>
static __global__ void dock_eval_kernel(const __grid_constant__ dev_target T, const __grid_constant__ dev_batch B,
                                        const int *rec_of, const float *conf, int nconf, float v, float *e, float *grad)
{
    const int lane = threadIdx.x & (LANES - 1), wib = threadIdx.x / LANES;
    const int gw = blockIdx.x * WARPS_PER_BLOCK + wib;
    if (gw >= nconf) return;
    load_record(B, rec_of[gw], lane);
    const dock_gpu_record &r = warp_record(B);
    const scratch s = warp_scratch(B);
    const int nc = 7 + r.nrot, n = 6 + B.max_rot;
    warp_copy(s.cur, conf + (size_t)gw * B.out_stride + 1, nc, lane);
    __syncwarp();
    const float E = evaluate<AD4>(T, B, s.cur, v, s.gv, lane);
    if (lane == 0) e[gw] = E;
    for (int i = lane; i < 6 + r.nrot; i += LANES) grad[(size_t)gw * n + i] = s.gv[i];
}

static vsg_status eval_run(dock_gpu_maps *m, const dock_gpu_batch *b, const int *rec, const float *conf, int nconf,
                           double v, float *e, float *grad, uploads *u)
{
    dev_target T;
    target_of(m, &T);
    dev_batch D;
    vsg_status st = upload_batch(b, nconf, &D, u);
    if (st != VSG_OK) return st;
    void *p;
    const int n = 6 + b->max_rot;
    if ((st = upload(u, rec, sizeof(int) * (size_t)nconf, &p)) != VSG_OK) return st;
    const int *drec = (const int *)p;
    if ((st = upload(u, conf, sizeof(float) * (size_t)D.out_stride * (size_t)nconf, &p)) != VSG_OK) return st;
    const float *dconf = (const float *)p;
    if ((st = upload(u, NULL, sizeof(float) * (size_t)nconf, &p)) != VSG_OK) return st;
    float *de = (float *)p;
    if ((st = upload(u, NULL, sizeof(float) * (size_t)n * (size_t)nconf, &p)) != VSG_OK) return st;
    float *dg = (float *)p;
    const size_t shared = sizeof(float) * (size_t)D.warp_floats * WARPS_PER_BLOCK;
    void (*kernel)(dev_target, dev_batch, const int *, const float *, int, float, float *, float *) =
        m->ad4 ? dock_eval_kernel<true> : dock_eval_kernel<false>;
    if ((st = allow_shared((const void *)kernel, shared)) != VSG_OK) return st;
    const int blocks = (nconf + WARPS_PER_BLOCK - 1) / WARPS_PER_BLOCK;
    if (blocks > 0) {
        kernel<<<blocks, LANES * WARPS_PER_BLOCK, shared, u->stream>>>(T, D, drec, dconf, nconf, (float)v, de, dg);
        LAUNCHED("dock_eval_kernel");
    }
    CU(cudaMemcpyAsync(e, de, sizeof(float) * (size_t)nconf, cudaMemcpyDeviceToHost, u->stream));
    CU(cudaMemcpyAsync(grad, dg, sizeof(float) * (size_t)n * (size_t)nconf, cudaMemcpyDeviceToHost, u->stream));
    CU(cudaStreamSynchronize(u->stream));
    return VSG_OK;
}

/* The batch's function is the map set's: AutoDock4 atoms on an AutoGrid set, Vina's on Vina maps. */
static vsg_status same_function(const dock_gpu_maps *m, const dock_gpu_batch *b)
{
    if (!m->ad4 != !b->atom_charge)
        return vsg_fail(VSG_E_ARG, "GPU docking: a %s batch on %s maps", b->atom_charge ? "AutoDock4" : "Vina",
                        m->ad4 ? "AutoDock4" : "Vina");
    if (b->atom_charge && (!b->atom_heavy || !b->partner_coef || (b->nvdw > 0 && !b->vdw_table)))
        return vsg_fail(VSG_E_ARG, "GPU docking: an AutoDock4 batch without its heavy flags, pair scales or tables");
    return VSG_OK;
}

extern "C" vsg_status dock_gpu_eval(dock_gpu_maps *m, const dock_gpu_batch *b, const int *rec, const float *conf,
                                    int nconf, double v, float *e, float *grad)
{
    if (!m || !b || !rec || !conf || !e || !grad || nconf < 0) return vsg_fail(VSG_E_ARG, "dock_gpu_eval: NULL argument");
    vsg_status fs = same_function(m, b);
    if (fs != VSG_OK) return fs;
    uploads u;
    vsg_status st = uploads_open(&u, m->device);
    if (st == VSG_OK) st = eval_run(m, b, rec, conf, nconf, v, e, grad, &u);
    return uploads_close(&u, st);
}

extern "C" vsg_status dock_gpu_run(dock_gpu_maps *m, const dock_gpu_batch *b, float *out, long long *evals)
{
    if (!m || !b || !out) return vsg_fail(VSG_E_ARG, "dock_gpu_run: NULL argument");
    vsg_status fs = same_function(m, b);
    if (fs != VSG_OK) return fs;
    if (b->max_atoms > DOCK_GPU_MAX_ATOMS || b->max_rot > DOCK_GPU_MAX_ROTORS)
        return vsg_fail(VSG_E_LIMIT, "GPU docking: a record over %d atoms or %d rotors", DOCK_GPU_MAX_ATOMS,
                        DOCK_GPU_MAX_ROTORS);
    uploads u;
    vsg_status st = uploads_open(&u, m->device);
    if (st == VSG_OK) st = run(m, b, out, evals, &u);
    return uploads_close(&u, st);
}
