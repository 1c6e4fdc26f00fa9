/* surface.cu — the GPU twins of vsg_alpb_exact_cpu (grids/alpb.c) and vsg_hcp_potential_cpu
 * (grids/hcp.c): the ALPB potential at every surface vertex, all pairs or with hierarchical
 * charge partitioning. Contract: gpu/surface_gpu.h.
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
 * in Morton order (sorted on the host) so the threads of a warp are neighbours on the
 * surface, open the same components and read the same atoms: little divergence, cached
 * loads. Component data are float4 rows read through the read-only cache.
 */
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "surface_gpu.h"
extern "C" {
#include "errors.h"
#include "molecule.h"
}

#define VSG_CUDA_WHO "GPU surface potential"
#include "cuda_check.h"

#define SX_THREADS 128
#define SX_VPT 4
#define SX_TILE 256
#define HX_THREADS 128

struct alpb_f {
    float kappa, inv_eps_in, c_out, s2A2, C, A2;
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
        t = k.inv_eps_in * inv_d - k.s2A2 * rsqrtf(k.C + k.A2 * d2);
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
__device__ __forceinline__ float approx_term(const alpb_f &k, const hcp_level &L, int c, float4 v, float4 w)
{
    float s = 0.f;
    float4 q[2] = {__ldg(&L.qpos[c]), __ldg(&L.qneg[c])};
#pragma unroll
    for (int j = 0; j < 2; j++) {
        if (q[j].w == 0.f) continue;
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
            sum += approx_term<REGION, SALT>(k, h.cplx, x, v, w);
            npairs += 2;
            continue;
        }
        uint2 cr = __ldg(&h.cplx.range[x]);
        for (unsigned c = cr.x; c < cr.x + cr.y; c++) {
            if (dist2(v, __ldg(&h.chain.centre[c])) >= h.thr2[1]) {
                sum += approx_term<REGION, SALT>(k, h.chain, c, v, w);
                npairs += 2;
                continue;
            }
            uint2 rr = __ldg(&h.chain.range[c]);
            float acc = 0.f;
            for (unsigned r = rr.x; r < rr.x + rr.y; r++) {
                if (dist2(v, __ldg(&h.res.centre[r])) >= h.thr2[0]) {
                    acc += approx_term<REGION, SALT>(k, h.res, r, v, w);
                    npairs += 2;
                    continue;
                }
                uint2 ar = __ldg(&h.res.range[r]);
                for (unsigned a = ar.x; a < ar.x + ar.y; a++) {
                    float4 at = __ldg(&h.atoms[a]);
                    float d2 = dist2(v, at), dp2 = SALT ? dist2(w, at) : d2;
                    acc = fmaf(at.w, pair_term<REGION, SALT>(k, d2, dp2), acc);
                }
                npairs += ar.y;
            }
            sum += (double)acc;
        }
    }
    if (i < nv) out[i] = sum;
    for (int o = 16; o > 0; o >>= 1) npairs += __shfl_down_sync(0xffffffffu, npairs, o);
    if (pairs && (threadIdx.x & 31) == 0) atomicAdd(pairs, npairs);
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
    return f;
}

/* Device buffers freed on every path. */
struct dbufs {
    void *ptr[24];
    int n;
    dbufs() : n(0) {}
    ~dbufs()
    {
        for (int i = 0; i < n; i++) cudaFree(ptr[i]);
    }
};

/* The evaluation points relative to centre c, in order perm (NULL = identity). */
static int vertex_points(const vsg_alpb *k, const vsg_mesh *mesh, const double c[3], const uint32_t *perm,
                         float4 **p_out, float4 **pp_out)
{
    size_t nv = mesh->nvert;
    float4 *p = (float4 *)malloc(nv * sizeof(float4)), *pp = (float4 *)malloc(nv * sizeof(float4));
    if (!p || !pp) {
        free(p), free(pp);
        return 0;
    }
    for (size_t i = 0; i < nv; i++) {
        double a[3], b[3];
        vsg_alpb_points(k, mesh, perm ? perm[i] : i, a, b);
        p[i] = make_float4((float)(a[0] - c[0]), (float)(a[1] - c[1]), (float)(a[2] - c[2]), 0.f);
        pp[i] = make_float4((float)(b[0] - c[0]), (float)(b[1] - c[1]), (float)(b[2] - c[2]), 0.f);
    }
    *p_out = p, *pp_out = pp;
    return 1;
}

static void molecule_centre(const vsg_molecule *m, double c[3])
{
    double lo[3], hi[3];
    vsg_molecule_bounds(m, 0, lo, hi);
    for (int d = 0; d < 3; d++) c[d] = 0.5 * (lo[d] + hi[d]);
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

extern "C" vsg_status vsg_surface_exact_gpu(int device, const vsg_alpb *k, const vsg_molecule *m,
                                            const vsg_mesh *mesh, double *phi, vsg_surface_gpu_report *rep)
{
    double t0 = now_seconds();
    if (rep) memset(rep, 0, sizeof *rep);
    if (mesh->nvert == 0) return VSG_OK;
    if (mesh->nvert > INT32_MAX / 2) return vsg_fail(VSG_E_LIMIT, "too many vertices for the GPU kernel");
    CU(cudaSetDevice(device));
    double c[3], Q = 0.0;
    molecule_centre(m, c);
    size_t na = 0;
    float4 *atoms = (float4 *)malloc((m->n ? m->n : 1) * sizeof(float4));
    if (!atoms) return vsg_fail(VSG_E_NOMEM, "out of memory");
    for (size_t i = 0; i < m->n; i++) {
        const vsg_atom *a = &m->atoms[i];
        Q += a->charge;
        if (a->charge != 0.0)
            atoms[na++] = make_float4((float)(a->x - c[0]), (float)(a->y - c[1]), (float)(a->z - c[2]),
                                      (float)a->charge);
    }
    float4 *p, *pp;
    if (!vertex_points(k, mesh, c, NULL, &p, &pp)) {
        free(atoms);
        return vsg_fail(VSG_E_NOMEM, "out of memory");
    }
    int nv = (int)mesh->nvert;
    dbufs b;
    float4 *d_atoms, *d_p, *d_pp;
    double *d_out;
    vsg_status st = VSG_OK;
    do {
        cudaError_t e;
#define TRY(call)                                   \
    if ((e = (call)) != cudaSuccess) {              \
        st = cuda_fail(#call, e);                   \
        break;                                      \
    }
        TRY(cudaMalloc((void **)&d_atoms, (na ? na : 1) * sizeof(float4)));
        b.ptr[b.n++] = d_atoms;
        TRY(cudaMalloc((void **)&d_p, nv * sizeof(float4)));
        b.ptr[b.n++] = d_p;
        TRY(cudaMalloc((void **)&d_pp, nv * sizeof(float4)));
        b.ptr[b.n++] = d_pp;
        TRY(cudaMalloc((void **)&d_out, nv * sizeof(double)));
        b.ptr[b.n++] = d_out;
        TRY(cudaMemcpy(d_atoms, atoms, na * sizeof(float4), cudaMemcpyHostToDevice));
        TRY(cudaMemcpy(d_p, p, nv * sizeof(float4), cudaMemcpyHostToDevice));
        TRY(cudaMemcpy(d_pp, pp, nv * sizeof(float4), cudaMemcpyHostToDevice));
        cudaEvent_t e0, e1;
        TRY(cudaEventCreate(&e0));
        TRY(cudaEventCreate(&e1));
        int blocks = (nv + SX_THREADS * SX_VPT - 1) / (SX_THREADS * SX_VPT);
        cudaEventRecord(e0);
        pick_exact(k->region, k->kappa > 0.0)<<<blocks, SX_THREADS>>>(d_atoms, (int)na, d_p, d_pp, nv,
                                                                      to_float(k), d_out);
        cudaEventRecord(e1);
        TRY(cudaGetLastError());
        TRY(cudaEventSynchronize(e1));
        float ms = 0.f;
        cudaEventElapsedTime(&ms, e0, e1);
        cudaEventDestroy(e0);
        cudaEventDestroy(e1);
        TRY(cudaMemcpy(phi, d_out, nv * sizeof(double), cudaMemcpyDeviceToHost));
        for (int i = 0; i < nv; i++) phi[i] = k->coulomb * (phi[i] + k->c_const * Q);
        if (rep) {
            rep->kernel_seconds = 1e-3 * ms;
            rep->pairs = (double)na * (double)nv;
            rep->device_bytes = (double)na * sizeof(float4) + (double)nv * (2 * sizeof(float4) + sizeof(double));
        }
#undef TRY
    } while (0);
    free(atoms), free(p), free(pp);
    if (rep) rep->total_seconds = now_seconds() - t0;
    return st;
}

/* Morton order of the points (10 bits per axis over their bounding box), by an LSD radix
 * sort: neighbouring threads get neighbouring vertices. */
static uint32_t spread10(uint32_t x)
{
    x &= 1023u;
    x = (x | (x << 16)) & 0x030000FFu;
    x = (x | (x << 8)) & 0x0300F00Fu;
    x = (x | (x << 4)) & 0x030C30C3u;
    x = (x | (x << 2)) & 0x09249249u;
    return x;
}
static uint32_t *morton_order(const vsg_mesh *mesh)
{
    size_t n = mesh->nvert;
    uint32_t *key = (uint32_t *)malloc(n * 4), *idx = (uint32_t *)malloc(n * 4);
    uint32_t *k2 = (uint32_t *)malloc(n * 4), *i2 = (uint32_t *)malloc(n * 4);
    if (!key || !idx || !k2 || !i2) {
        free(key), free(idx), free(k2), free(i2);
        return NULL;
    }
    float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (size_t i = 0; i < n; i++)
        for (int d = 0; d < 3; d++) {
            lo[d] = fminf(lo[d], mesh->xyz[3 * i + d]);
            hi[d] = fmaxf(hi[d], mesh->xyz[3 * i + d]);
        }
    for (size_t i = 0; i < n; i++) {
        uint32_t q[3];
        for (int d = 0; d < 3; d++) {
            float ext = hi[d] - lo[d] > 0.f ? hi[d] - lo[d] : 1.f;
            q[d] = (uint32_t)fminf(1023.f, (mesh->xyz[3 * i + d] - lo[d]) / ext * 1023.f);
        }
        key[i] = spread10(q[0]) | (spread10(q[1]) << 1) | (spread10(q[2]) << 2);
        idx[i] = (uint32_t)i;
    }
    for (int shift = 0; shift < 30; shift += 10) {
        size_t count[1025] = {0};
        for (size_t i = 0; i < n; i++) count[((key[i] >> shift) & 1023u) + 1]++;
        for (int b = 0; b < 1024; b++) count[b + 1] += count[b];
        for (size_t i = 0; i < n; i++) {
            size_t o = count[(key[i] >> shift) & 1023u]++;
            k2[o] = key[i], i2[o] = idx[i];
        }
        uint32_t *t = key;
        key = k2, k2 = t;
        t = idx, idx = i2, i2 = t;
    }
    free(key), free(k2), free(i2);
    return idx;
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
    if (mesh->nvert > INT32_MAX) return vsg_fail(VSG_E_LIMIT, "too many vertices for the GPU kernel");
    CU(cudaSetDevice(device));
    /* Centre: the middle of the atoms' box (from the hierarchy's atom rows). */
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY}, c[3], Q = 0.0;
    for (size_t i = 0; i < h->natoms; i++) {
        for (int d = 0; d < 3; d++) {
            lo[d] = fmin(lo[d], h->atom[4 * i + d]);
            hi[d] = fmax(hi[d], h->atom[4 * i + d]);
        }
        Q += h->atom[4 * i + 3];
    }
    for (int d = 0; d < 3; d++) c[d] = 0.5 * (lo[d] + hi[d]);
    size_t ncomp = h->nres + h->nchain + h->ncplx, nv = mesh->nvert;
    float4 *atoms = (float4 *)malloc(h->natoms * sizeof(float4));
    float4 *rows = (float4 *)malloc(3 * ncomp * sizeof(float4));
    uint2 *ranges = (uint2 *)malloc(ncomp * sizeof(uint2));
    uint32_t *perm = morton_order(mesh);
    float4 *p = NULL, *pp = NULL;
    double *sorted = (double *)malloc(nv * sizeof(double));
    vsg_status st = VSG_OK;
    if (!atoms || !rows || !ranges || !perm || !sorted || !vertex_points(k, mesh, c, perm, &p, &pp)) {
        free(atoms), free(rows), free(ranges), free(perm), free(sorted);
        return vsg_fail(VSG_E_NOMEM, "out of memory (GPU HCP staging)");
    }
    for (size_t i = 0; i < h->natoms; i++)
        atoms[i] = make_float4((float)(h->atom[4 * i] - c[0]), (float)(h->atom[4 * i + 1] - c[1]),
                               (float)(h->atom[4 * i + 2] - c[2]), (float)h->atom[4 * i + 3]);
    size_t off[3] = {0, h->nres, h->nres + h->nchain};
    const vsg_hcp_component *lv[3] = {h->res, h->chain, h->cplx};
    size_t nl[3] = {h->nres, h->nchain, h->ncplx};
    for (int L = 0; L < 3; L++)
        level_rows(lv[L], nl[L], c, rows + off[L], rows + ncomp + off[L], rows + 2 * ncomp + off[L],
                   ranges + off[L]);
    dbufs b;
    do {
        cudaError_t e;
#define TRY(call)                      \
    if ((e = (call)) != cudaSuccess) { \
        st = cuda_fail(#call, e);      \
        break;                         \
    }
        float4 *d_atoms, *d_rows, *d_p, *d_pp;
        uint2 *d_ranges;
        double *d_out;
        unsigned long long *d_pairs;
        TRY(cudaMalloc((void **)&d_atoms, h->natoms * sizeof(float4)));
        b.ptr[b.n++] = d_atoms;
        TRY(cudaMalloc((void **)&d_rows, 3 * ncomp * sizeof(float4)));
        b.ptr[b.n++] = d_rows;
        TRY(cudaMalloc((void **)&d_ranges, ncomp * sizeof(uint2)));
        b.ptr[b.n++] = d_ranges;
        TRY(cudaMalloc((void **)&d_p, nv * sizeof(float4)));
        b.ptr[b.n++] = d_p;
        TRY(cudaMalloc((void **)&d_pp, nv * sizeof(float4)));
        b.ptr[b.n++] = d_pp;
        TRY(cudaMalloc((void **)&d_out, nv * sizeof(double)));
        b.ptr[b.n++] = d_out;
        TRY(cudaMalloc((void **)&d_pairs, sizeof(unsigned long long)));
        b.ptr[b.n++] = d_pairs;
        TRY(cudaMemcpy(d_atoms, atoms, h->natoms * sizeof(float4), cudaMemcpyHostToDevice));
        TRY(cudaMemcpy(d_rows, rows, 3 * ncomp * sizeof(float4), cudaMemcpyHostToDevice));
        TRY(cudaMemcpy(d_ranges, ranges, ncomp * sizeof(uint2), cudaMemcpyHostToDevice));
        TRY(cudaMemcpy(d_p, p, nv * sizeof(float4), cudaMemcpyHostToDevice));
        TRY(cudaMemcpy(d_pp, pp, nv * sizeof(float4), cudaMemcpyHostToDevice));
        TRY(cudaMemset(d_pairs, 0, sizeof(unsigned long long)));
        hcp_dev hd;
        hcp_level *L[3] = {&hd.res, &hd.chain, &hd.cplx};
        for (int l = 0; l < 3; l++) {
            L[l]->centre = d_rows + off[l];
            L[l]->qpos = d_rows + ncomp + off[l];
            L[l]->qneg = d_rows + 2 * ncomp + off[l];
            L[l]->range = d_ranges + off[l];
            /* a threshold of +∞ (exact) must stay +∞ when squared; negative means "always" */
            hd.thr2[l] = isinf(thr[l]) ? INFINITY : (float)(thr[l] * thr[l]);
        }
        hd.atoms = d_atoms;
        hd.ncplx = (int)h->ncplx;
        cudaEvent_t e0, e1;
        TRY(cudaEventCreate(&e0));
        TRY(cudaEventCreate(&e1));
        int blocks = (int)((nv + HX_THREADS - 1) / HX_THREADS);
        cudaEventRecord(e0);
        pick_hcp(k->region, k->kappa > 0.0)<<<blocks, HX_THREADS>>>(hd, d_p, d_pp, (int)nv, to_float(k), d_out,
                                                                    d_pairs);
        cudaEventRecord(e1);
        TRY(cudaGetLastError());
        TRY(cudaEventSynchronize(e1));
        float ms = 0.f;
        cudaEventElapsedTime(&ms, e0, e1);
        cudaEventDestroy(e0);
        cudaEventDestroy(e1);
        unsigned long long pairs = 0;
        TRY(cudaMemcpy(sorted, d_out, nv * sizeof(double), cudaMemcpyDeviceToHost));
        TRY(cudaMemcpy(&pairs, d_pairs, sizeof pairs, cudaMemcpyDeviceToHost));
        for (size_t i = 0; i < nv; i++) phi[perm[i]] = k->coulomb * (sorted[i] + k->c_const * Q);
        if (rep) {
            rep->kernel_seconds = 1e-3 * ms;
            rep->pairs = (double)pairs;
            rep->device_bytes = (double)h->natoms * 16 + (double)ncomp * 56 + (double)nv * 40 + 8;
        }
#undef TRY
    } while (0);
    free(atoms), free(rows), free(ranges), free(perm), free(sorted), free(p), free(pp);
    if (rep) rep->total_seconds = now_seconds() - t0;
    return st;
}
