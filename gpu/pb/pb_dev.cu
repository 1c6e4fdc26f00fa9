/* pb_dev.cu — a resident PB level (pb_dev.h): the nested start, the answer (energy and the
 * potential grid) and the release. The build is in pb_setup_gpu.cu, the solve in sor_gpu.cu. */
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/device/gpu.h"
extern "C" {
#include "grids/base/vsgrid.h" /* C header without its own extern "C" guard */
}

#define VSG_CUDA_WHO "GPU PB level"
#include "gpu/device/cuda_check.h"
#include "gpu/device/dev_pool.cuh"
#include "gpu/pb/pb_dev.cuh"

#define DEV_BLOCK 256

namespace {

/* Correctly rounded, never contracted: the CPU's interpolation rounds after every operation. */
__device__ __forceinline__ double rn_add(double a, double b) { return __dadd_rn(a, b); }
__device__ __forceinline__ double rn_sub(double a, double b) { return __dsub_rn(a, b); }
__device__ __forceinline__ double rn_mul(double a, double b) { return __dmul_rn(a, b); }

/* A coarse grid's axes, as grid.c's interpolate reads them. */
struct Coarse {
    int n[3];
    double origin[3], spacing[3];
};

/* grid.c's axis_locate, operation for operation. */
__device__ __forceinline__ bool axis_locate(double x, double origin, double h, int n, int *i0, double *t)
{
    double f = __ddiv_rn(rn_sub(x, origin), h);
    if (!(f >= -VSG_GRID_EDGE_SLACK && f <= (double)(n - 1) + VSG_GRID_EDGE_SLACK)) return false;
    if (n == 1) {
        *i0 = 0;
        *t = 0.0;
        return true;
    }
    if (f < 0) f = 0;
    if (f > n - 1) f = n - 1;
    int i = (int)f;
    if (i >= n - 1) i = n - 2;
    *i0 = i;
    *t = rn_sub(f, (double)i);
    return true;
}

__device__ __forceinline__ double lerp(double a, double b, double t) { return rn_add(a, rn_mul(t, rn_sub(b, a))); }

/* Where the coarse values come from: a float grid (x fastest), or a resident level's colour
 * arrays read as that level's float grid would hold them (interleave's conversion). */
struct FloatGrid {
    const float *__restrict__ data;
    __device__ __forceinline__ float operator[](size_t L) const { return data[L]; }
};
template <typename R>
struct Colours {
    const R *__restrict__ p0;
    const R *__restrict__ p1;
    __device__ __forceinline__ float operator[](size_t L) const { return (float)(L & 1 ? p1 : p0)[L >> 1]; }
};

/* vsg_pb_guess: each interior node from the coarse grid where the node lies inside it. One
 * thread per node of the interior, x fastest. */
template <typename R, typename Src>
__global__ void guess(Coarse g, Src data, int nx, int ny, int nz, double ox, double oy, double oz, double h,
                      R *__restrict__ p0, R *__restrict__ p1)
{
    const long long ix = nx - 2, iy = ny - 2, total = ix * iy * (long long)(nz - 2);
    for (long long u = blockIdx.x * (long long)blockDim.x + threadIdx.x; u < total;
         u += (long long)gridDim.x * blockDim.x) {
        const int x = 1 + (int)(u % ix), y = 1 + (int)((u / ix) % iy), z = 1 + (int)(u / (ix * iy));
        int i, j, k;
        double tx, ty, tz;
        if (!axis_locate(rn_add(ox, rn_mul((double)x, h)), g.origin[0], g.spacing[0], g.n[0], &i, &tx) ||
            !axis_locate(rn_add(oy, rn_mul((double)y, h)), g.origin[1], g.spacing[1], g.n[1], &j, &ty) ||
            !axis_locate(rn_add(oz, rn_mul((double)z, h)), g.origin[2], g.spacing[2], g.n[2], &k, &tz))
            continue;
        const size_t n0 = (size_t)g.n[0], n01 = n0 * (size_t)g.n[1];
        const size_t di = g.n[0] > 1 ? 1 : 0, dj = g.n[1] > 1 ? n0 : 0, dk = g.n[2] > 1 ? n01 : 0;
        const size_t b = (size_t)i + n0 * (size_t)j + n01 * (size_t)k;
        const double c00 = lerp(data[b], data[b + di], tx), c10 = lerp(data[b + dj], data[b + dj + di], tx);
        const double c01 = lerp(data[b + dk], data[b + dk + di], tx);
        const double c11 = lerp(data[b + dk + dj], data[b + dk + dj + di], tx);
        const double v = lerp(lerp(c00, c10, ty), lerp(c01, c11, ty), tz);
        const size_t L = (size_t)x + (size_t)nx * ((size_t)y + (size_t)ny * (size_t)z);
        (L & 1 ? p1 : p0)[L >> 1] = (R)v;
    }
}

/* The potential grid (system_to_grid of pb_solve.c): node L from its colour array, as float. */
template <typename R>
__global__ void interleave(long long nodes, const R *__restrict__ p0, const R *__restrict__ p1, float *__restrict__ out)
{
    for (long long L = blockIdx.x * (long long)blockDim.x + threadIdx.x; L < nodes;
         L += (long long)gridDim.x * blockDim.x)
        out[L] = (float)(L & 1 ? p1 : p0)[L >> 1];
}

/* φ at each charge's node, as vsg_pb_get gives it (double). */
template <typename R>
__global__ void gather(long long n, const vsg_grid_charge *__restrict__ q, const R *__restrict__ p0,
                       const R *__restrict__ p1, double *__restrict__ out)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
        const size_t L = q[i].linear;
        out[i] = (double)(L & 1 ? p1 : p0)[L >> 1];
    }
}

int blocks_for(long long items)
{
    long long b = (items + DEV_BLOCK - 1) / DEV_BLOCK;
    if (b > 65536) b = 65536; /* grid-stride beyond */
    return b < 1 ? 1 : (int)b;
}

/* Device scratch of one call, back to the pool in the stream's order whatever happened. */
struct Scratch {
    void *p[2];
    cudaStream_t st;
    ~Scratch()
    {
        for (int i = 0; i < 2; i++) pool_free(p[i], st);
    }
};

template <typename R, typename Src>
vsg_status launch_guess(vsg_pb_dev *d, const vsg_pb_system *s, const Coarse &c, Src data)
{
    const long long interior = (long long)(s->nx - 2) * (s->ny - 2) * (long long)(s->nz - 2);
    guess<R, Src><<<blocks_for(interior), DEV_BLOCK, 0, d->stream>>>(c, data, s->nx, s->ny, s->nz, s->origin[0],
                                                                    s->origin[1], s->origin[2], s->h,
                                                                    (R *)d->phi[0], (R *)d->phi[1]);
    LAUNCHED("the nested-start interpolation");
    CU(cudaStreamSynchronize(d->stream)); /* before the source (host grid, coarse level) may go */
    return VSG_OK;
}

template <typename R>
vsg_status do_guess(vsg_pb_dev *d, const vsg_pb_system *s, const vsg_grid *g)
{
    Scratch sc = {{NULL, NULL}, d->stream};
    const size_t cn = vsg_grid_nodes(g);
    CU(pool_alloc(&sc.p[0], cn * sizeof(float), d->stream));
    CU(cudaMemcpyAsync(sc.p[0], g->data, cn * sizeof(float), cudaMemcpyHostToDevice, d->stream));
    Coarse c;
    for (int a = 0; a < 3; a++) {
        c.n[a] = g->n[a];
        c.origin[a] = g->origin[a];
        c.spacing[a] = g->spacing[a];
    }
    return launch_guess<R>(d, s, c, FloatGrid{(const float *)sc.p[0]});
}

/* The coarse level's grid as vsg_pb_dev_result would make it: its nodes, origin and spacing. */
template <typename R>
vsg_status do_guess_level(vsg_pb_dev *d, const vsg_pb_system *s, const vsg_pb_dev *k, const vsg_pb_system *ks)
{
    Coarse c;
    const int n[3] = {ks->nx, ks->ny, ks->nz};
    for (int a = 0; a < 3; a++) {
        c.n[a] = n[a];
        c.origin[a] = ks->origin[a];
        c.spacing[a] = ks->h;
    }
    return launch_guess<R>(d, s, c, Colours<R>{(const R *)k->phi[0], (const R *)k->phi[1]});
}

template <typename R>
vsg_status do_result(vsg_pb_dev *d, const vsg_pb_system *s, const vsg_grid_charge *charges, size_t nq, double *energy,
                     vsg_grid *g)
{
    Scratch sc = {{NULL, NULL}, d->stream};
    const R *p0 = (const R *)d->phi[0], *p1 = (const R *)d->phi[1];
    double *v = NULL;
    if (nq) {
        /* the build's own copy of the charge list, still on the device */
        if (nq != d->ncharges || !d->charges)
            return vsg_fail(VSG_E_ARG, "vsg_pb_dev_result: %zu charges for a level built with %zu", nq, d->ncharges);
        v = (double *)malloc(nq * sizeof(double));
        if (!v) return vsg_fail(VSG_E_NOMEM, "out of memory (energy)");
        cudaError_t e = pool_alloc(&sc.p[0], nq * sizeof(double), d->stream);
        double *dv = (double *)sc.p[0];
        if (e == cudaSuccess) {
            gather<R><<<blocks_for((long long)nq), DEV_BLOCK, 0, d->stream>>>((long long)nq, d->charges, p0, p1, dv);
            e = cudaGetLastError();
        }
        if (e == cudaSuccess) e = cudaMemcpyAsync(v, dv, nq * sizeof(double), cudaMemcpyDeviceToHost, d->stream);
        if (e != cudaSuccess) {
            free(v);
            return cuda_fail("the energy gather", e);
        }
    }
    CU(pool_alloc(&sc.p[1], s->nodes * sizeof(float), d->stream));
    interleave<R><<<blocks_for((long long)s->nodes), DEV_BLOCK, 0, d->stream>>>((long long)s->nodes, p0, p1,
                                                                                (float *)sc.p[1]);
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess)
        e = cudaMemcpyAsync(g->data, sc.p[1], s->nodes * sizeof(float), cudaMemcpyDeviceToHost, d->stream);
    if (e == cudaSuccess) e = cudaStreamSynchronize(d->stream);
    if (e != cudaSuccess) {
        free(v);
        return cuda_fail("the potential grid", e);
    }
    /* vsg_pb_energy's sum, in its order. */
    double sum = 0.0;
    for (size_t i = 0; i < nq; i++) sum += charges[i].q * v[i];
    *energy = 0.5 * sum;
    free(v);
    return VSG_OK;
}

} // namespace

extern "C" vsg_status vsg_pb_dev_guess(vsg_pb_dev *d, const vsg_pb_system *s, const vsg_grid *coarse)
{
    if (!d || !s || !coarse || !coarse->data) return vsg_fail(VSG_E_ARG, "vsg_pb_dev_guess: NULL argument");
    CU(cudaSetDevice(d->device));
    return d->precision == VSG_PRECISION_FLOAT ? do_guess<float>(d, s, coarse) : do_guess<double>(d, s, coarse);
}

extern "C" vsg_status vsg_pb_dev_guess_level(vsg_pb_dev *d, const vsg_pb_system *s, const vsg_pb_dev *coarse,
                                             const vsg_pb_system *cs)
{
    if (!d || !s || !coarse || !cs) return vsg_fail(VSG_E_ARG, "vsg_pb_dev_guess_level: NULL argument");
    if (coarse->device != d->device || coarse->precision != d->precision)
        return vsg_fail(VSG_E_ARG, "vsg_pb_dev_guess_level: the coarse level is on another device or in another "
                                   "precision");
    CU(cudaSetDevice(d->device));
    /* the coarse level's last work (its solve) is done before this stream reads it */
    CU(cudaStreamSynchronize(coarse->stream));
    return d->precision == VSG_PRECISION_FLOAT ? do_guess_level<float>(d, s, coarse, cs)
                                               : do_guess_level<double>(d, s, coarse, cs);
}

extern "C" vsg_status vsg_pb_dev_result(vsg_pb_dev *d, const vsg_pb_system *s, const vsg_grid_charge *charges,
                                        size_t ncharges, double *energy, vsg_grid *g)
{
    *energy = 0.0;
    if (!d || !s || !g || !g->data) return vsg_fail(VSG_E_ARG, "vsg_pb_dev_result: NULL argument");
    if (g->n[0] != s->nx || g->n[1] != s->ny || g->n[2] != s->nz)
        return vsg_fail(VSG_E_ARG, "vsg_pb_dev_result: a %dx%dx%d grid for a %dx%dx%d level", g->n[0], g->n[1],
                        g->n[2], s->nx, s->ny, s->nz);
    CU(cudaSetDevice(d->device));
    return d->precision == VSG_PRECISION_FLOAT ? do_result<float>(d, s, charges, ncharges, energy, g)
                                               : do_result<double>(d, s, charges, ncharges, energy, g);
}

extern "C" double vsg_pb_dev_max_source(const vsg_pb_dev *d) { return d ? d->max_source : 0.0; }

extern "C" void vsg_pb_dev_free(vsg_pb_dev *d)
{
    if (!d) return;
    if (d->device >= 0) (void)cudaSetDevice(d->device);
    for (int c = 0; c < 2; c++) {
        pool_free(d->phi[c], d->stream);
        pool_free(d->flag[c], d->stream);
        pool_free(d->corr[c], d->stream);
    }
    pool_free(d->charges, d->stream);
    if (d->stream) cudaStreamDestroy(d->stream);
    (void)cudaGetLastError();
    free(d);
}
