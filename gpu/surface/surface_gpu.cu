/* surface.cu — the GPU twins of vsg_alpb_exact_cpu (grids/surface/alpb.c) and vsg_hcp_potential_cpu
 * (grids/surface/hcp.c): the ALPB potential at every surface vertex, all pairs or with hierarchical
 * charge partitioning. Contract: gpu/surface/surface_gpu.h.
 *
 * Per pair, the region's formula (alpb.h) without its charge-independent constant c_const,
 * which is added once per vertex as c_const·Q (Q = total charge; HCP's approximate charges
 * keep every component's total, so the same Q applies). Without salt a pair is one rsqrt
 * and an FMA (regions 2, 3) or two rsqrt (region 1); with salt the layer term −κ/(1+κd')
 * adds a sqrt and a reciprocal, region 3 an exp. Region and salt are template parameters:
 * every thread takes the same branch.
 *
 * Exact: atoms stream through shared memory in tiles of SX_TILE float4 (x, y, z, q relative
 * to the molecule's centre); each thread owns SX_VPT vertices, so an atom read from shared
 * memory (a broadcast) serves SX_VPT pairs. Each tile's sum is float, the sum over tiles
 * double per vertex.
 *
 * HCP: one thread per vertex walks complex → chain → residue → atom as the CPU twin does
 * (decisions on squared float distances against squared thresholds). Vertices are processed
 * in Morton order so the threads of a warp are neighbours on the surface, open the same
 * components and read the same atoms: little divergence, cached loads. Component data are
 * float4 rows read through the read-only cache. Near atoms' terms are summed per residue in
 * float and per vertex in double (they are large and cancel); approximated residues'
 * small terms per chain in float.
 *
 * Staging: the mesh goes to the device as it is; evaluation points, Morton keys (10 bits per
 * axis over the atoms' box + 10 Å), the key sort (CUB radix sort) and the scatter of the
 * results back to vertex order run there, so the host does no per-vertex work.
 */
#include <cub/device/device_radix_sort.cuh>
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gpu/surface/surface_gpu.h"
extern "C" {
#include "grids/base/vsgrid.h"
#include "grids/receptor/molecule.h"
}

#define VSG_CUDA_WHO "GPU surface potential"
#include "gpu/device/cuda_check.h"

#define SX_THREADS 128
#define SX_VPT 4
#define SX_TILE 256
#define HX_THREADS 128

struct alpb_f {
    float kappa, inv_eps_in, c_out, s2A2, C, A2;
    float c_surface;   /* region 1 with r = A (C = 0, GEM's default): the pair is c_surface/d */
};

template <int REGION, bool SALT>
__device__ __forceinline__ float pair_term(const alpb_f &k, float d2, float dp2)
{
    float inv_d = rsqrtf(d2);
    float t;
    if (REGION == 3) {
        if (SALT) {
            float d = d2 * inv_d, dp = sqrtf(dp2);
            t = k.c_out * __expf(-k.kappa * (d - dp)) * inv_d / (1.0f + k.kappa * dp);
        } else {
            t = k.c_out * inv_d;
        }
    } else if (REGION == 2) {
        t = k.c_out * inv_d;
        if (SALT) t -= k.c_out * k.kappa / (1.0f + k.kappa * sqrtf(dp2));
    } else {
        /* On the surface (C = 0) the two 1/d terms nearly cancel (to ~2% at ε 1/80): their
         * difference is formed once in double on the host, not per pair in float. */
        if (k.C == 0.0f) t = k.c_surface * inv_d;
        else t = k.inv_eps_in * inv_d - k.s2A2 * rsqrtf(k.C + k.A2 * d2);
        if (SALT) t -= k.c_out * k.kappa / (1.0f + k.kappa * sqrtf(dp2));
    }
    return t;
}

/* ---- exact ------------------------------------------------------------------------------- */
template <int REGION, bool SALT>
__global__ void __launch_bounds__(SX_THREADS) exact_kernel(const float4 *__restrict__ atoms, int natoms,
                                                           const float4 *__restrict__ p,
                                                           const float4 *__restrict__ pp, int nv,
                                                           alpb_f k, double *__restrict__ out)
{
    __shared__ float4 tile[SX_TILE];
    float4 v[SX_VPT], w[SX_VPT];
    double sum[SX_VPT];
    int base = blockIdx.x * SX_THREADS * SX_VPT + threadIdx.x;
#pragma unroll
    for (int j = 0; j < SX_VPT; j++) {
        int i = base + j * SX_THREADS;
        v[j] = i < nv ? p[i] : make_float4(0.f, 0.f, 0.f, 0.f);
        w[j] = SALT && i < nv ? pp[i] : v[j];
        sum[j] = 0.0;
    }
    for (int t0 = 0; t0 < natoms; t0 += SX_TILE) {
        int n = min(SX_TILE, natoms - t0);
        __syncthreads();
        for (int a = threadIdx.x; a < n; a += SX_THREADS) tile[a] = atoms[t0 + a];
        __syncthreads();
        float acc[SX_VPT];
#pragma unroll
        for (int j = 0; j < SX_VPT; j++) acc[j] = 0.f;
#pragma unroll 4
        for (int a = 0; a < n; a++) {
            float4 at = tile[a];
#pragma unroll
            for (int j = 0; j < SX_VPT; j++) {
                float dx = v[j].x - at.x, dy = v[j].y - at.y, dz = v[j].z - at.z;
                float d2 = fmaf(dx, dx, fmaf(dy, dy, dz * dz));
                float dp2 = d2;
                if (SALT) {
                    float ex = w[j].x - at.x, ey = w[j].y - at.y, ez = w[j].z - at.z;
                    dp2 = fmaf(ex, ex, fmaf(ey, ey, ez * ez));
                }
                acc[j] = fmaf(at.w, pair_term<REGION, SALT>(k, d2, dp2), acc[j]);
            }
        }
#pragma unroll
        for (int j = 0; j < SX_VPT; j++) sum[j] += (double)acc[j];
    }
#pragma unroll
    for (int j = 0; j < SX_VPT; j++) {
        int i = base + j * SX_THREADS;
        if (i < nv) out[i] = sum[j];
    }
}

/* ---- HCP --------------------------------------------------------------------------------- */
struct hcp_level {
    const float4 *centre;   /* x, y, z, − */
    const float4 *qpos;     /* positive approximate charge: x, y, z, q */
    const float4 *qneg;     /* negative approximate charge */
    const uint2 *range;     /* first child, count */
};
struct hcp_dev {
    hcp_level res, chain, cplx;
    const float4 *atoms;
    int ncplx;
    float thr2[3];
};

template <int REGION, bool SALT>
__device__ __forceinline__ float approx_term(const alpb_f &k, const hcp_level &L, int c, float4 v, float4 w,
                                             unsigned long long *npairs)
{
    float s = 0.f;
    float4 q[2] = {__ldg(&L.qpos[c]), __ldg(&L.qneg[c])};
#pragma unroll
    for (int j = 0; j < 2; j++) {
        if (q[j].w == 0.f) continue;
        ++*npairs;
        float dx = v.x - q[j].x, dy = v.y - q[j].y, dz = v.z - q[j].z;
        float d2 = fmaf(dx, dx, fmaf(dy, dy, dz * dz)), dp2 = d2;
        if (SALT) {
            float ex = w.x - q[j].x, ey = w.y - q[j].y, ez = w.z - q[j].z;
            dp2 = fmaf(ex, ex, fmaf(ey, ey, ez * ez));
        }
        s = fmaf(q[j].w, pair_term<REGION, SALT>(k, d2, dp2), s);
    }
    return s;
}

__device__ __forceinline__ float dist2(float4 v, float4 c)
{
    float dx = v.x - c.x, dy = v.y - c.y, dz = v.z - c.z;
    return fmaf(dx, dx, fmaf(dy, dy, dz * dz));
}

template <int REGION, bool SALT>
__global__ void __launch_bounds__(HX_THREADS) hcp_kernel(hcp_dev h, const float4 *__restrict__ p,
                                                         const float4 *__restrict__ pp, int nv, alpb_f k,
                                                         double *__restrict__ out, unsigned long long *pairs)
{
    int i = blockIdx.x * HX_THREADS + threadIdx.x;
    /* no early return: the whole warp reduces its pair count below */
    int ncplx = i < nv ? h.ncplx : 0;
    float4 v = i < nv ? p[i] : make_float4(0.f, 0.f, 0.f, 0.f), w = SALT && i < nv ? pp[i] : v;
    double sum = 0.0;
    unsigned long long npairs = 0;
    for (int x = 0; x < ncplx; x++) {
        if (dist2(v, __ldg(&h.cplx.centre[x])) >= h.thr2[2]) {
            sum += approx_term<REGION, SALT>(k, h.cplx, x, v, w, &npairs);
            continue;
        }
        uint2 cr = __ldg(&h.cplx.range[x]);
        for (unsigned c = cr.x; c < cr.x + cr.y; c++) {
            if (dist2(v, __ldg(&h.chain.centre[c])) >= h.thr2[1]) {
                sum += approx_term<REGION, SALT>(k, h.chain, c, v, w, &npairs);
                continue;
            }
            uint2 rr = __ldg(&h.chain.range[c]);
            float far = 0.f; /* the approximated residues of this chain: small terms */
            for (unsigned r = rr.x; r < rr.x + rr.y; r++) {
                if (dist2(v, __ldg(&h.res.centre[r])) >= h.thr2[0]) {
                    far += approx_term<REGION, SALT>(k, h.res, r, v, w, &npairs);
                    continue;
                }
                uint2 ar = __ldg(&h.res.range[r]);
                float acc = 0.f;
                for (unsigned a = ar.x; a < ar.x + ar.y; a++) {
                    float4 at = __ldg(&h.atoms[a]);
                    float d2 = dist2(v, at), dp2 = SALT ? dist2(w, at) : d2;
                    acc = fmaf(at.w, pair_term<REGION, SALT>(k, d2, dp2), acc);
                }
                npairs += ar.y;
                sum += (double)acc; /* near atoms: large terms that cancel, kept in double */
            }
            sum += (double)far;
        }
    }
    if (i < nv) out[i] = sum;
    for (int o = 16; o > 0; o >>= 1) npairs += __shfl_down_sync(0xffffffffu, npairs, o);
    if (pairs && (threadIdx.x & 31) == 0) atomicAdd(pairs, npairs);
}

/* ---- staging on the device ---------------------------------------------------------------
 * The mesh goes up as it is (float xyz and normals, 24 bytes per vertex); evaluation points,
 * Morton keys, the sort and the scatter back to vertex order all run on the device, so the
 * host does no per-vertex work. */
__device__ __forceinline__ unsigned spread10(unsigned x)
{
    x &= 1023u;
    x = (x | (x << 16)) & 0x030000FFu;
    x = (x | (x << 8)) & 0x0300F00Fu;
    x = (x | (x << 4)) & 0x030C30C3u;
    x = (x | (x << 2)) & 0x09249249u;
    return x;
}

__global__ void morton_keys(const float *__restrict__ xyz, int nv, float3 lo, float3 scale, unsigned *key,
                            unsigned *idx)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= nv) return;
    unsigned q[3];
    float x[3] = {(xyz[3 * i] - lo.x) * scale.x, (xyz[3 * i + 1] - lo.y) * scale.y, (xyz[3 * i + 2] - lo.z) * scale.z};
    for (int d = 0; d < 3; d++) q[d] = (unsigned)fminf(1023.f, fmaxf(0.f, x[d]));
    key[i] = spread10(q[0]) | (spread10(q[1]) << 1) | (spread10(q[2]) << 2);
    idx[i] = (unsigned)i;
}

/* p[i] = v + projection·n − c and p'[i] = v + ion·n − c for vertex perm[i] (perm NULL: i). */
__global__ void stage_points(const float *__restrict__ xyz, const float *__restrict__ nrm,
                             const unsigned *__restrict__ perm, int nv, float3 c, float proj, float ion,
                             float4 *p, float4 *pp)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= nv) return;
    int v = perm ? (int)perm[i] : i;
    float x = xyz[3 * v] - c.x, y = xyz[3 * v + 1] - c.y, z = xyz[3 * v + 2] - c.z;
    float nx = nrm[3 * v], ny = nrm[3 * v + 1], nz = nrm[3 * v + 2];
    p[i] = make_float4(fmaf(proj, nx, x), fmaf(proj, ny, y), fmaf(proj, nz, z), 0.f);
    pp[i] = make_float4(fmaf(ion, nx, x), fmaf(ion, ny, y), fmaf(ion, nz, z), 0.f);
}

/* phi[perm[i]] = coulomb·(sum[i] + c_const·Q), back in vertex order. */
__global__ void scatter_phi(const double *__restrict__ sum, const unsigned *__restrict__ perm, int nv,
                            double coulomb, double shift, double *phi)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= nv) return;
    phi[perm ? perm[i] : (unsigned)i] = coulomb * (sum[i] + shift);
}

/* ---- host side ----------------------------------------------------------------------------- */
static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static alpb_f to_float(const vsg_alpb *k)
{
    alpb_f f;
    f.kappa = (float)k->kappa;
    f.inv_eps_in = (float)k->inv_eps_in;
    f.c_out = (float)k->c_out;
    f.s2A2 = (float)k->s2A2;
    f.C = (float)k->C;
    f.A2 = (float)k->A2;
    f.c_surface = (float)(k->inv_eps_in - k->s2A2 / sqrt(k->A2));
    return f;
}

typedef void (*exact_fn)(const float4 *, int, const float4 *, const float4 *, int, alpb_f, double *);
typedef void (*hcp_fn)(hcp_dev, const float4 *, const float4 *, int, alpb_f, double *, unsigned long long *);

static exact_fn pick_exact(int region, bool salt)
{
    if (region == 3) return salt ? exact_kernel<3, true> : exact_kernel<3, false>;
    if (region == 2) return salt ? exact_kernel<2, true> : exact_kernel<2, false>;
    return salt ? exact_kernel<1, true> : exact_kernel<1, false>;
}
static hcp_fn pick_hcp(int region, bool salt)
{
    if (region == 3) return salt ? hcp_kernel<3, true> : hcp_kernel<3, false>;
    if (region == 2) return salt ? hcp_kernel<2, true> : hcp_kernel<2, false>;
    return salt ? hcp_kernel<1, true> : hcp_kernel<1, false>;
}

/* One evaluation's device buffers; freed on every path by the destructor. */
struct surface_job {
    float *xyz = nullptr, *nrm = nullptr;
    float4 *p = nullptr, *pp = nullptr, *atoms = nullptr, *rows = nullptr;
    uint2 *ranges = nullptr;
    unsigned *key = nullptr, *key2 = nullptr, *idx = nullptr, *perm = nullptr;
    void *temp = nullptr;
    double *sum = nullptr, *phi = nullptr;
    unsigned long long *pairs = nullptr;
    cudaEvent_t e0 = nullptr, e1 = nullptr;
    double bytes = 0;
    ~surface_job()
    {
        void *all[] = {xyz, nrm, p, pp, atoms, rows, ranges, key, key2, idx, perm, temp, sum, phi, pairs};
        for (void *q : all) cudaFree(q);
        if (e0) cudaEventDestroy(e0);
        if (e1) cudaEventDestroy(e1);
    }
};
template <typename T> static cudaError_t dalloc(surface_job &j, T **ptr, size_t n)
{
    j.bytes += (double)(n * sizeof(T));
    return cudaMalloc((void **)ptr, (n ? n : 1) * sizeof(T));
}

/* Uploads the mesh and stages the evaluation points (Morton order when `sorted`). */
static vsg_status stage_mesh(surface_job &j, const vsg_alpb *k, const vsg_mesh *mesh, const double c[3],
                             const double lo[3], const double hi[3], bool sorted)
{
    int nv = (int)mesh->nvert, T = 256, B = (nv + T - 1) / T;
    CU(dalloc(j, &j.xyz, 3 * (size_t)nv));
    CU(dalloc(j, &j.nrm, 3 * (size_t)nv));
    CU(dalloc(j, &j.p, (size_t)nv));
    CU(dalloc(j, &j.pp, (size_t)nv));
    CU(cudaMemcpy(j.xyz, mesh->xyz, 3 * (size_t)nv * sizeof(float), cudaMemcpyHostToDevice));
    CU(cudaMemcpy(j.nrm, mesh->normal, 3 * (size_t)nv * sizeof(float), cudaMemcpyHostToDevice));
    if (sorted) {
        CU(dalloc(j, &j.key, (size_t)nv));
        CU(dalloc(j, &j.key2, (size_t)nv));
        CU(dalloc(j, &j.idx, (size_t)nv));
        CU(dalloc(j, &j.perm, (size_t)nv));
        float3 flo = make_float3((float)lo[0], (float)lo[1], (float)lo[2]), sc;
        sc.x = (float)(1023.0 / fmax(hi[0] - lo[0], 1e-3));
        sc.y = (float)(1023.0 / fmax(hi[1] - lo[1], 1e-3));
        sc.z = (float)(1023.0 / fmax(hi[2] - lo[2], 1e-3));
        morton_keys<<<B, T>>>(j.xyz, nv, flo, sc, j.key, j.idx);
        LAUNCHED("morton_keys");
        size_t temp_bytes = 0;
        CU(cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes, j.key, j.key2, j.idx, j.perm, nv, 0, 30));
        CU(dalloc(j, (char **)&j.temp, temp_bytes));
        CU(cub::DeviceRadixSort::SortPairs(j.temp, temp_bytes, j.key, j.key2, j.idx, j.perm, nv, 0, 30));
    }
    float3 cf = make_float3((float)c[0], (float)c[1], (float)c[2]);
    stage_points<<<B, T>>>(j.xyz, j.nrm, j.perm, nv, cf, (float)k->projection, (float)k->ion_radius, j.p, j.pp);
    LAUNCHED("stage_points");
    return VSG_OK;
}

static vsg_status finish(surface_job &j, const vsg_alpb *k, int nv, double Q, double *phi)
{
    int T = 256, B = (nv + T - 1) / T;
    CU(dalloc(j, &j.phi, (size_t)nv));
    scatter_phi<<<B, T>>>(j.sum, j.perm, nv, k->coulomb, k->c_const * Q, j.phi);
    LAUNCHED("scatter_phi");
    CU(cudaMemcpy(phi, j.phi, (size_t)nv * sizeof(double), cudaMemcpyDeviceToHost));
    return VSG_OK;
}

static void mesh_box(const vsg_molecule *m, const vsg_hcp *h, double c[3], double lo[3], double hi[3], double *Q)
{
    /* the atoms' box (the mesh lies within a few Å of it): centre for float coordinates, and
     * the Morton box padded by 10 Å */
    for (int d = 0; d < 3; d++) lo[d] = INFINITY, hi[d] = -INFINITY;
    *Q = 0.0;
    size_t n = m ? m->n : h->natoms;
    for (size_t i = 0; i < n; i++) {
        double x[3], q;
        if (m) x[0] = m->atoms[i].x, x[1] = m->atoms[i].y, x[2] = m->atoms[i].z, q = m->atoms[i].charge;
        else x[0] = h->atom[4 * i], x[1] = h->atom[4 * i + 1], x[2] = h->atom[4 * i + 2], q = h->atom[4 * i + 3];
        for (int d = 0; d < 3; d++) lo[d] = fmin(lo[d], x[d]), hi[d] = fmax(hi[d], x[d]);
        *Q += q;
    }
    for (int d = 0; d < 3; d++) {
        c[d] = 0.5 * (lo[d] + hi[d]);
        lo[d] -= 10.0, hi[d] += 10.0;
    }
}

extern "C" vsg_status vsg_surface_exact_gpu(int device, const vsg_alpb *k, const vsg_molecule *m,
                                            const vsg_mesh *mesh, double *phi, vsg_surface_gpu_report *rep)
{
    double t0 = now_seconds();
    if (rep) memset(rep, 0, sizeof *rep);
    if (mesh->nvert == 0 || m->n == 0) {
        for (size_t i = 0; i < mesh->nvert; i++) phi[i] = 0.0;
        return VSG_OK;
    }
    if (mesh->nvert > INT32_MAX / 2) return vsg_fail(VSG_E_LIMIT, "too many vertices for the GPU kernel");
    CU(cudaSetDevice(device));
    double c[3], lo[3], hi[3], Q;
    mesh_box(m, NULL, c, lo, hi, &Q);
    float4 *atoms = (float4 *)malloc(m->n * sizeof(float4));
    if (!atoms) return vsg_fail(VSG_E_NOMEM, "out of memory");
    size_t na = 0;
    for (size_t i = 0; i < m->n; i++) {
        const vsg_atom *a = &m->atoms[i];
        if (a->charge != 0.0)
            atoms[na++] = make_float4((float)(a->x - c[0]), (float)(a->y - c[1]), (float)(a->z - c[2]),
                                      (float)a->charge);
    }
    int nv = (int)mesh->nvert;
    vsg_status st = VSG_OK;
    {
        surface_job j;
        cudaError_t e = dalloc(j, &j.atoms, na);
        if (e == cudaSuccess) e = cudaMemcpy(j.atoms, atoms, na * sizeof(float4), cudaMemcpyHostToDevice);
        free(atoms);
        if (e != cudaSuccess) return cuda_fail("atom upload", e);
        st = stage_mesh(j, k, mesh, c, lo, hi, false);
        if (st != VSG_OK) return st;
        CU(dalloc(j, &j.sum, (size_t)nv));
        CU(cudaEventCreate(&j.e0));
        CU(cudaEventCreate(&j.e1));
        int blocks = (nv + SX_THREADS * SX_VPT - 1) / (SX_THREADS * SX_VPT);
        cudaEventRecord(j.e0);
        pick_exact(k->region, k->kappa > 0.0)<<<blocks, SX_THREADS>>>(j.atoms, (int)na, j.p, j.pp, nv, to_float(k),
                                                                      j.sum);
        cudaEventRecord(j.e1);
        LAUNCHED("exact_kernel");
        CU(cudaEventSynchronize(j.e1));
        float ms = 0.f;
        cudaEventElapsedTime(&ms, j.e0, j.e1);
        st = finish(j, k, nv, Q, phi);
        if (rep) {
            rep->kernel_seconds = 1e-3 * ms;
            rep->pairs = (double)na * (double)nv;
            rep->device_bytes = j.bytes;
        }
    }
    if (rep) rep->total_seconds = now_seconds() - t0;
    return st;
}

static void level_rows(const vsg_hcp_component *comp, size_t n, const double c[3], float4 *centre, float4 *qp,
                       float4 *qn, uint2 *range)
{
    for (size_t i = 0; i < n; i++) {
        const vsg_hcp_component *x = &comp[i];
        centre[i] = make_float4((float)(x->c[0] - c[0]), (float)(x->c[1] - c[1]), (float)(x->c[2] - c[2]), 0.f);
        qp[i] = make_float4((float)(x->p[0][0] - c[0]), (float)(x->p[0][1] - c[1]), (float)(x->p[0][2] - c[2]),
                            (float)x->q[0]);
        qn[i] = make_float4((float)(x->p[1][0] - c[0]), (float)(x->p[1][1] - c[1]), (float)(x->p[1][2] - c[2]),
                            (float)x->q[1]);
        range[i] = make_uint2(x->first, x->count);
    }
}

extern "C" vsg_status vsg_surface_hcp_gpu(int device, const vsg_hcp *h, const vsg_alpb *k, const vsg_mesh *mesh,
                                          const double thr[3], double *phi, vsg_surface_gpu_report *rep)
{
    double t0 = now_seconds();
    if (rep) memset(rep, 0, sizeof *rep);
    if (mesh->nvert == 0) return VSG_OK;
    if (mesh->nvert > INT32_MAX / 2) return vsg_fail(VSG_E_LIMIT, "too many vertices for the GPU kernel");
    CU(cudaSetDevice(device));
    double c[3], lo[3], hi[3], Q;
    mesh_box(NULL, h, c, lo, hi, &Q);
    size_t ncomp = h->nres + h->nchain + h->ncplx, nv = mesh->nvert;
    float4 *atoms = (float4 *)malloc(h->natoms * sizeof(float4));
    float4 *rows = (float4 *)malloc(3 * ncomp * sizeof(float4));
    uint2 *ranges = (uint2 *)malloc(ncomp * sizeof(uint2));
    if (!atoms || !rows || !ranges) {
        free(atoms), free(rows), free(ranges);
        return vsg_fail(VSG_E_NOMEM, "out of memory (GPU HCP staging)");
    }
    for (size_t i = 0; i < h->natoms; i++)
        atoms[i] = make_float4((float)(h->atom[4 * i] - c[0]), (float)(h->atom[4 * i + 1] - c[1]),
                               (float)(h->atom[4 * i + 2] - c[2]), (float)h->atom[4 * i + 3]);
    size_t off[3] = {0, h->nres, h->nres + h->nchain};
    const vsg_hcp_component *lv[3] = {h->res, h->chain, h->cplx};
    size_t nl[3] = {h->nres, h->nchain, h->ncplx};
    for (int L = 0; L < 3; L++)
        level_rows(lv[L], nl[L], c, rows + off[L], rows + ncomp + off[L], rows + 2 * ncomp + off[L], ranges + off[L]);
    vsg_status st = VSG_OK;
    {
        surface_job j;
        cudaError_t e = dalloc(j, &j.atoms, h->natoms);
        if (e == cudaSuccess) e = dalloc(j, &j.rows, 3 * ncomp);
        if (e == cudaSuccess) e = dalloc(j, &j.ranges, ncomp);
        if (e == cudaSuccess) e = cudaMemcpy(j.atoms, atoms, h->natoms * sizeof(float4), cudaMemcpyHostToDevice);
        if (e == cudaSuccess) e = cudaMemcpy(j.rows, rows, 3 * ncomp * sizeof(float4), cudaMemcpyHostToDevice);
        if (e == cudaSuccess) e = cudaMemcpy(j.ranges, ranges, ncomp * sizeof(uint2), cudaMemcpyHostToDevice);
        free(atoms), free(rows), free(ranges);
        if (e != cudaSuccess) return cuda_fail("HCP upload", e);
        st = stage_mesh(j, k, mesh, c, lo, hi, true);
        if (st != VSG_OK) return st;
        CU(dalloc(j, &j.sum, nv));
        CU(dalloc(j, &j.pairs, 1));
        CU(cudaMemset(j.pairs, 0, sizeof(unsigned long long)));
        hcp_dev hd;
        hcp_level *L[3] = {&hd.res, &hd.chain, &hd.cplx};
        for (int l = 0; l < 3; l++) {
            L[l]->centre = j.rows + off[l];
            L[l]->qpos = j.rows + ncomp + off[l];
            L[l]->qneg = j.rows + 2 * ncomp + off[l];
            L[l]->range = j.ranges + off[l];
            /* a threshold of +∞ (exact) must stay +∞ when squared */
            hd.thr2[l] = isinf(thr[l]) ? INFINITY : (float)(thr[l] * thr[l]);
        }
        hd.atoms = j.atoms;
        hd.ncplx = (int)h->ncplx;
        CU(cudaEventCreate(&j.e0));
        CU(cudaEventCreate(&j.e1));
        int blocks = (int)((nv + HX_THREADS - 1) / HX_THREADS);
        cudaEventRecord(j.e0);
        pick_hcp(k->region, k->kappa > 0.0)<<<blocks, HX_THREADS>>>(hd, j.p, j.pp, (int)nv, to_float(k), j.sum,
                                                                    j.pairs);
        cudaEventRecord(j.e1);
        LAUNCHED("hcp_kernel");
        CU(cudaEventSynchronize(j.e1));
        float ms = 0.f;
        cudaEventElapsedTime(&ms, j.e0, j.e1);
        unsigned long long pairs = 0;
        CU(cudaMemcpy(&pairs, j.pairs, sizeof pairs, cudaMemcpyDeviceToHost));
        st = finish(j, k, (int)nv, Q, phi);
        if (rep) {
            rep->kernel_seconds = 1e-3 * ms;
            rep->pairs = (double)pairs;
            rep->device_bytes = j.bytes;
        }
    }
    if (rep) rep->total_seconds = now_seconds() - t0;
    return st;
}
