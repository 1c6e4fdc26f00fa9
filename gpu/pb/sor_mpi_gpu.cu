/* sor_mpi_gpu.cu — the GPU slab backend of the distributed PB SOR (sor_mpi_gpu.h, issue 7).
 *
 * A rank's GPU holds planes [g_lo, g_hi) = [z_lo − 1, z_hi] ∩ [0, nz) of both colour arrays and
 * flags, stored as the global colour arrays' index ranges [base[c], base[c] + len[c]). A sweep of
 * planes [z0, z1) runs sor_gpu.cu's kernels (sor_kernels.cuh) on a view, as the CPU slab does
 * (sor_mpi.c): the planes [z0 − 1, z1] seen as a box of their own, whose colour arrays start
 * at global node (lc + P)/2 of colour lc ^ swap (P = the view's first linear index, swap = its
 * parity); the kernels then update exactly planes [z0, z1), with the very same arithmetic.
 * Each view owns its correction entries (local indices, SoA as sor_gpu.cu uploads them); the
 * three ranges sor_mpi.c asks for (two boundary planes, the interior) are made at open, others
 * on first use.
 *
 * Streams: `edge` (high priority) runs the boundary-plane sweeps and the halo copies; `bulk`
 * (low priority) the interior. The interior of colour c writes colour c on planes the halo
 * copies never touch and reads colour 1 − c, which no sweep of colour c writes, so the two
 * streams need each other only when the colour changes (two events).
 *
 * The direct halo path (peer_export / peer_import / push / peer_close, for ranks of one host):
 * a slab exports CUDA IPC handles of its two colour arrays and the byte offsets of its ghost
 * planes in them; a neighbour maps them (cudaIpcOpenMemHandle, peer access enabled lazily; the
 * same GPU in another process works too) and push copies its boundary plane of the swept colour
 * straight into the neighbour's ghost on the edge stream, device to device (NVLink between
 * GPUs). sor_mpi.c orders those writes against the neighbour's reads with MPI tokens. */
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpu/device/gpu.h"
#include "gpu/pb/sor_mpi_gpu.h"
extern "C" {
#include "grids/base/vsgrid.h" /* C headers without their own extern "C" guard */
}

#define VSG_CUDA_WHO "GPU slab SOR"
#include "gpu/device/cuda_check.h"
#include "gpu/device/dev_pool.cuh"
#include "gpu/device/device_prop.cuh"

#include "gpu/pb/sor_kernels.cuh"

#define MAX_VIEWS 8
#define DEVICE_SLACK_BYTES (16.0 * 1048576.0)

/* Index in colour c's array of the first colour-c node with linear index ≥ L (sor_mpi.c). */
static size_t colour_first(size_t L, int c) { return (L + 1 - (size_t)c) >> 1; }

/* Planes [z0, z1) as a box of their own (see the header comment). */
struct View {
    int z0, z1, swap;
    vsg_pb_system box;   /* only nx, ny, nz (= z1 − z0 + 2) are read (launch_uniform) */
    size_t start[2];     /* per local colour: element of device array [lc ^ swap] where it starts */
    void *corr[2];       /* per local colour: SoA idx[n], w0..w5[n], s[n], k[n] */
    size_t ncorr[2];
    int cblocks[2];
    dim3 grid;
};

struct Slab {
    int nx, ny, nz, z_lo, z_hi, g_lo, g_hi, ua, ub; /* ua, ub − 1: first and last updated planes */
    vsg_precision precision;
    size_t es;                                      /* bytes per value */
    const vsg_pb_system *s;                         /* for the correction lists of late views */
    int dev, prev_device, sms, zb;
    size_t base[2], len[2];
    void *phi[2];
    uint8_t *flag[2];
    unsigned long long *maxbits, *maxhost;          /* device scalar, pinned host copy */
    cudaStream_t edge, bulk;
    cudaEvent_t ev_edge, ev_bulk, ev_pack, ev_recv[4];
    void *send_stage, *recv_stage[4];               /* pinned half-planes */
    View views[MAX_VIEWS];
    int nviews;
    Offsets off[2];
    double u0, u1, ksalt;                           /* u0, u1 already rounded to the precision */
    Ions ions;
    int nonlinear;
    /* the colour being swept and what of it is queued */
    int colour, edge_done, other_swept, lookahead;
    int la_pending, la_check;
    double la_omega, la_lambda;
    vsg_status sticky;                              /* a pattern error seen where none can be returned */
    /* the direct halo path: [side 0 below, 1 above][colour] the neighbour's colour array as
     * mapped here (NULL: not mapped) and the byte offset of its ghost plane this slab fills */
    void *peer_base[2][2];
    size_t peer_off[2][2];
};

/* What peer_export tells a neighbour (the same binary on every rank of one host). */
struct PeerBlob {
    char magic[8];
    char host[64];             /* gethostname: a second check that the ranks share a host */
    int pid, es;
    int ghost_z[2];            /* [0] lower ghost plane z_lo − 1, [1] upper z_hi; −1: none */
    unsigned long long off[2][2], bytes[2][2]; /* [ghost side][colour]: offset in the array, size */
    cudaIpcMemHandle_t h[2];   /* the colour arrays */
};
static const char PEER_MAGIC[8] = "vsgipc1";

/* Unmaps the neighbours' ghosts; the first failure. */
static vsg_status peer_unmap(Slab *d)
{
    vsg_status st = VSG_OK;
    for (int side = 0; side < 2; side++)
        for (int c = 0; c < 2; c++)
            if (d->peer_base[side][c]) {
                cudaError_t e = cudaIpcCloseMemHandle(d->peer_base[side][c]);
                if (e != cudaSuccess && st == VSG_OK) st = cuda_fail("cudaIpcCloseMemHandle (neighbour's ghost)", e);
                d->peer_base[side][c] = NULL;
            }
    return st;
}

static void slab_free(Slab *d)
{
    if (!d) return;
    (void)peer_unmap(d);
    for (int i = 0; i < d->nviews; i++)
        for (int lc = 0; lc < 2; lc++)
            if (d->views[i].corr[lc]) cudaFree(d->views[i].corr[lc]);
    for (int c = 0; c < 2; c++) {
        if (d->phi[c]) cudaFree(d->phi[c]);
        if (d->flag[c]) cudaFree(d->flag[c]);
    }
    if (d->maxbits) cudaFree(d->maxbits);
    if (d->maxhost) cudaFreeHost(d->maxhost);
    if (d->send_stage) cudaFreeHost(d->send_stage);
    for (int i = 0; i < 4; i++) {
        if (d->recv_stage[i]) cudaFreeHost(d->recv_stage[i]);
        if (d->ev_recv[i]) cudaEventDestroy(d->ev_recv[i]);
    }
    if (d->ev_edge) cudaEventDestroy(d->ev_edge);
    if (d->ev_bulk) cudaEventDestroy(d->ev_bulk);
    if (d->ev_pack) cudaEventDestroy(d->ev_pack);
    if (d->edge) cudaStreamDestroy(d->edge);
    if (d->bulk) cudaStreamDestroy(d->bulk);
    (void)cudaGetLastError();
    if (d->prev_device >= 0) (void)cudaSetDevice(d->prev_device);
    (void)cudaGetLastError();
    free(d);
}

/* Device address of global colour-c node index G (must be stored). */
static char *dev_at(const Slab *d, int c, size_t G) { return (char *)d->phi[c] + (G - d->base[c]) * d->es; }

/* Listed entries of colour g with index in [first, end): [*b, *e) of the sorted list. */
static void corr_range(const vsg_pb_system *s, int g, size_t first, size_t end, size_t *b, size_t *e)
{
    const vsg_pb_corr *cl = s->corr[g];
    size_t lo = 0, hi = s->ncorr[g];
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cl[mid].index < first) lo = mid + 1; else hi = mid;
    }
    *b = lo;
    hi = s->ncorr[g];
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cl[mid].index < end) lo = mid + 1; else hi = mid;
    }
    *e = lo;
}

/* Entries [b, e) of colour g, validated (sorted, off the box faces: their neighbours must be
 * stored), as SoA in the precision R with indices less `shift`, uploaded on the edge stream. */
template <typename R>
static vsg_status upload_corr(Slab *d, int g, size_t b, size_t e, size_t shift, void **out)
{
    const vsg_pb_system *s = d->s;
    const size_t n = e - b, nxy = (size_t)d->nx * (size_t)d->ny;
    *out = NULL;
    if (n == 0) return VSG_OK;
    const size_t bytes = corr_bytes<R>(n);
    unsigned char *h = (unsigned char *)malloc(bytes);
    if (!h) return vsg_fail(VSG_E_NOMEM, "GPU slab SOR: no host memory to stage %zu corrections", n);
    for (size_t i = 0; i < n; i++) {
        const vsg_pb_corr *q = &s->corr[g][b + i];
        size_t L = 2 * (size_t)q->index + (size_t)g;
        int x = (int)(L % (size_t)d->nx), y = (int)((L / (size_t)d->nx) % (size_t)d->ny), z = (int)(L / nxy);
        if ((b + i > 0 && q->index <= s->corr[g][b + i - 1].index) || x < 1 || x > d->nx - 2 || y < 1 ||
            y > d->ny - 2 || z < 1 || z > d->nz - 2) {
            free(h);
            return vsg_fail(VSG_E_ARG, "PB correction %zu of colour %d: node (%d,%d,%d) on the box face or "
                            "out of order", b + i, g, x, y, z);
        }
        put_entry<R>(h, n, i, *q, shift);
    }
    cudaError_t e1 = cudaMalloc(out, bytes), e2 = cudaSuccess;
    if (e1 == cudaSuccess) e2 = cudaMemcpyAsync(*out, h, bytes, cudaMemcpyHostToDevice, d->edge);
    if (e1 == cudaSuccess && e2 == cudaSuccess) e2 = cudaStreamSynchronize(d->edge);
    free(h);
    if (e1 != cudaSuccess) return cuda_fail("cudaMalloc (slab correction list)", e1);
    if (e2 != cudaSuccess) return cuda_fail("cudaMemcpyAsync (slab correction list)", e2);
    return VSG_OK;
}

/* The view of planes [z0, z1) (ua ≤ z0 < z1 ≤ ub), made on first use. */
template <typename R>
static vsg_status view_get(Slab *d, int z0, int z1, View **out)
{
    for (int i = 0; i < d->nviews; i++)
        if (d->views[i].z0 == z0 && d->views[i].z1 == z1) {
            *out = &d->views[i];
            return VSG_OK;
        }
    if (d->nviews == MAX_VIEWS) return vsg_fail(VSG_E_ARG, "GPU slab SOR: more than %d plane ranges", MAX_VIEWS);
    View *w = &d->views[d->nviews];
    memset(w, 0, sizeof *w);
    w->z0 = z0;
    w->z1 = z1;
    const size_t nxy = (size_t)d->nx * (size_t)d->ny, P = nxy * (size_t)(z0 - 1);
    w->swap = (int)(P & 1);
    w->box.nx = d->nx;
    w->box.ny = d->ny;
    w->box.nz = z1 - z0 + 2;
    for (int lc = 0; lc < 2; lc++) {
        const int g = lc ^ w->swap;
        const size_t first = ((size_t)lc + P) >> 1; /* global index of the view's node 0 of colour lc */
        w->start[lc] = first - d->base[g];
        size_t b, e;
        corr_range(d->s, g, colour_first(nxy * (size_t)z0, g), colour_first(nxy * (size_t)z1, g), &b, &e);
        vsg_status st = upload_corr<R>(d, g, b, e, first, &w->corr[lc]);
        if (st != VSG_OK) {
            for (int k = 0; k < lc; k++)
                if (w->corr[k]) cudaFree(w->corr[k]);
            return st;
        }
        w->ncorr[lc] = e - b;
        long long nblk = ((long long)w->ncorr[lc] + CORR_BLOCK - 1) / CORR_BLOCK, cap = (long long)d->sms * CORR_BLOCKS_PER_SM;
        w->cblocks[lc] = (int)(nblk < cap ? nblk : cap);
    }
    /* Launch geometry as sor_gpu.cu's, for the view's planes. */
    const long long half = (d->nx - 1) / 2, gy = (d->ny - 2 + SOR_BLOCK_Y - 1) / SOR_BLOCK_Y;
    const int zper = d->zb > 1 ? d->zb : SOR_Z_PER_THREAD;
    long long gz = (w->box.nz - 2 + zper - 1) / zper;
    if (gz > 65535) gz = 65535;
    w->grid = dim3((unsigned)((half + SOR_BLOCK_X - 1) / SOR_BLOCK_X), (unsigned)gy, (unsigned)gz);
    d->nviews++;
    *out = w;
    return VSG_OK;
}

/* Queues colour c (global) of view w on stream st. */
template <typename R>
static vsg_status launch(Slab *d, View *w, int c, double omega, double lambda, int check, cudaStream_t st)
{
    const int lc = c ^ w->swap, g = c, og = 1 - c;
    R *p = (R *)d->phi[g] + w->start[lc];
    const R *o = (const R *)d->phi[og] + w->start[1 - lc];
    const uint8_t *fl = d->flag[g] + w->start[lc];
    const bool nl = d->nonlinear && lambda > 0.0;
    const dim3 block(SOR_BLOCK_X, SOR_BLOCK_Y, 1);
    launch_uniform<R>(d->zb, nl, check != 0, w->grid, block, st, p, o, fl, &w->box, lc, d->off[lc], (R)omega,
                      (R)d->u0, (R)d->u1, omega, lambda, d->ksalt, d->ions, (const R *)NULL, d->maxbits);
    LAUNCHED("the uniform SOR kernel (slab)");
    if (w->ncorr[lc]) {
        launch_correct<R>(nl, check != 0, w->cblocks[lc], st, p, o, w->corr[lc], w->ncorr[lc], d->off[lc], omega,
                          lambda, d->ions, d->maxbits);
        LAUNCHED("the SOR correction kernel (slab)");
    }
    return VSG_OK;
}

static vsg_status launch_any(Slab *d, View *w, int c, double omega, double lambda, int check, cudaStream_t st)
{
    return d->precision == VSG_PRECISION_FLOAT ? launch<float>(d, w, c, omega, lambda, check, st)
                                               : launch<double>(d, w, c, omega, lambda, check, st);
}

static vsg_status view_any(Slab *d, int z0, int z1, View **w)
{
    return d->precision == VSG_PRECISION_FLOAT ? view_get<float>(d, z0, z1, w) : view_get<double>(d, z0, z1, w);
}

/* Each stream waits for what the other has queued (a change of colour, a read of everything). */
static vsg_status join(Slab *d)
{
    CU(cudaEventRecord(d->ev_bulk, d->bulk));
    CU(cudaEventRecord(d->ev_edge, d->edge));
    CU(cudaStreamWaitEvent(d->edge, d->ev_bulk, 0));
    CU(cudaStreamWaitEvent(d->bulk, d->ev_edge, 0));
    return VSG_OK;
}

/* Ends the phase of the current colour: a queued look-ahead the caller never asked for left
 * the interior one sweep ahead, which cannot be undone. */
static vsg_status end_phase(Slab *d)
{
    if (d->la_pending) {
        d->la_pending = 0;
        return vsg_fail(VSG_E_ARG, "GPU slab SOR: the interior of colour %d was swept ahead (look-ahead) but "
                        "never asked for; set VSG_SLAB_LOOKAHEAD=0 for this caller", d->colour);
    }
    d->colour = -1;
    return join(d);
}

static vsg_status slab_sweep(void *ctx, int c, int z0, int z1, double omega, double lambda, int check)
{
    Slab *d = (Slab *)ctx;
    if (d->sticky != VSG_OK) return d->sticky;
    if (z1 <= z0) return VSG_OK;
    if (c < 0 || c > 1 || z0 < d->ua || z1 > d->ub)
        return vsg_fail(VSG_E_ARG, "GPU slab SOR: sweep of colour %d planes [%d, %d) outside the slab's [%d, %d)", c,
                        z0, z1, d->ua, d->ub);
    if (c != d->colour) {
        if (d->colour >= 0) {
            vsg_status st = end_phase(d);
            if (st != VSG_OK) return st;
        }
        d->colour = c;
        d->edge_done = d->other_swept = 0;
    }
    const int ia = d->ua + 1, ib = d->ub - 1; /* the interior range */
    if (d->la_pending && z0 < ib && z1 > ia) {
        /* The caller's interior sweep, already queued. */
        if (z0 != ia || z1 != ib || omega != d->la_omega || lambda != d->la_lambda || (check != 0) != d->la_check)
            return vsg_fail(VSG_E_ARG, "GPU slab SOR: sweep [%d, %d) overlaps the look-ahead interior sweep [%d, %d) "
                            "with other arguments; set VSG_SLAB_LOOKAHEAD=0", z0, z1, ia, ib);
        d->la_pending = 0;
        return VSG_OK;
    }
    const int touches_edge = z0 == d->ua || z1 == d->ub;
    View *w = NULL;
    vsg_status st = view_any(d, z0, z1, &w);
    if (st != VSG_OK) return st;
    st = launch_any(d, w, c, omega, lambda, check, touches_edge ? d->edge : d->bulk);
    if (st != VSG_OK) return st;
    if (touches_edge) {
        if (z0 == d->ua) d->edge_done |= 1;
        if (z1 == d->ub) d->edge_done |= 2;
        if (z1 - z0 != 1) d->other_swept = 1;
    } else {
        d->other_swept = 1;
    }
    /* Look-ahead: both boundary planes (and nothing else) queued: queue the interior now. */
    if (d->lookahead && d->edge_done == 3 && !d->other_swept && ib > ia) {
        View *in = NULL;
        st = view_any(d, ia, ib, &in);
        if (st == VSG_OK) st = launch_any(d, in, c, omega, lambda, check, d->bulk);
        if (st != VSG_OK) return st;
        d->other_swept = 1;
        d->la_pending = 1;
        d->la_omega = omega;
        d->la_lambda = lambda;
        d->la_check = check != 0;
    }
    return VSG_OK;
}

static double slab_colour_max(void *ctx)
{
    Slab *d = (Slab *)ctx;
    vsg_status st = d->colour >= 0 ? end_phase(d) : join(d);
    cudaError_t e = cudaSuccess;
    if (st == VSG_OK) e = cudaMemcpyAsync(d->maxhost, d->maxbits, sizeof *d->maxbits, cudaMemcpyDeviceToHost, d->edge);
    if (st == VSG_OK && e == cudaSuccess) e = cudaMemsetAsync(d->maxbits, 0, sizeof *d->maxbits, d->edge);
    if (st == VSG_OK && e == cudaSuccess) e = cudaStreamSynchronize(d->edge);
    if (st == VSG_OK && e != cudaSuccess) st = cuda_fail("max change read-back", e);
    if (st != VSG_OK) {
        if (d->sticky == VSG_OK) d->sticky = st; /* reported by the next sweep or close */
        return NAN;
    }
    double m;
    memcpy(&m, d->maxhost, sizeof m);
    return m;
}

/* 1 when [p, p + bytes) is page-locked host memory the GPU can copy to or from directly. */
static int pinned(const void *p)
{
    cudaPointerAttributes a;
    if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    return a.type == cudaMemoryTypeHost;
}

static int stored(const Slab *d, int z) { return z >= d->g_lo && z < d->g_hi; }

static vsg_status slab_pack(void *ctx, int c, int z, void *buf)
{
    Slab *d = (Slab *)ctx;
    if (d->sticky != VSG_OK) return d->sticky;
    if (c < 0 || c > 1 || z < d->z_lo || z >= d->z_hi)
        return vsg_fail(VSG_E_ARG, "GPU slab SOR: pack of plane %d, not owned by slab [%d, %d)", z, d->z_lo, d->z_hi);
    const size_t nxy = (size_t)d->nx * (size_t)d->ny;
    const size_t G = colour_first(nxy * (size_t)z, c), n = colour_first(nxy * (size_t)(z + 1), c) - G;
    /* A boundary plane is written on the edge stream only; any other may be the bulk's. */
    if (z != d->ua && z != d->ub - 1) {
        vsg_status st = join(d);
        if (st != VSG_OK) return st;
    }
    const int direct = pinned(buf);
    CU(cudaMemcpyAsync(direct ? buf : d->send_stage, dev_at(d, c, G), n * d->es, cudaMemcpyDeviceToHost, d->edge));
    CU(cudaEventRecord(d->ev_pack, d->edge));
    CU(cudaEventSynchronize(d->ev_pack)); /* the edge stream only: the interior keeps running */
    if (!direct) memcpy(buf, d->send_stage, n * d->es);
    return VSG_OK;
}

static vsg_status slab_unpack(void *ctx, int c, int z, const void *buf)
{
    Slab *d = (Slab *)ctx;
    if (d->sticky != VSG_OK) return d->sticky;
    if (c < 0 || c > 1 || !stored(d, z))
        return vsg_fail(VSG_E_ARG, "GPU slab SOR: unpack of plane %d, not stored by slab [%d, %d)", z, d->g_lo, d->g_hi);
    const size_t nxy = (size_t)d->nx * (size_t)d->ny;
    const size_t G = colour_first(nxy * (size_t)z, c), n = colour_first(nxy * (size_t)(z + 1), c) - G;
    /* Ghost planes are read only by the other colour's sweeps (joined at the colour change);
     * a plane the slab updates itself may still be read by the bulk stream. */
    if (z >= d->z_lo && z < d->z_hi) {
        vsg_status st = join(d);
        if (st != VSG_OK) return st;
    }
    if (pinned(buf)) {
        /* The caller may reuse buf on return: wait for this one copy. */
        CU(cudaMemcpyAsync(dev_at(d, c, G), buf, n * d->es, cudaMemcpyHostToDevice, d->edge));
        CU(cudaEventRecord(d->ev_pack, d->edge));
        CU(cudaEventSynchronize(d->ev_pack));
        return VSG_OK;
    }
    /* One staging slot per (side, colour); its previous copy (two colours ago) is long done. */
    const int slot = 2 * (z >= d->z_lo) + c;
    CU(cudaEventSynchronize(d->ev_recv[slot]));
    memcpy(d->recv_stage[slot], buf, n * d->es);
    CU(cudaMemcpyAsync(dev_at(d, c, G), d->recv_stage[slot], n * d->es, cudaMemcpyHostToDevice, d->edge));
    CU(cudaEventRecord(d->ev_recv[slot], d->edge));
    return VSG_OK;
}

static vsg_status slab_close(void *ctx, vsg_pb_system *s, int keep)
{
    Slab *d = (Slab *)ctx;
    vsg_status st = d->sticky;
    if (d->la_pending && st == VSG_OK && keep) st = end_phase(d);
    cudaError_t e = cudaStreamSynchronize(d->bulk);
    if (e == cudaSuccess) e = cudaStreamSynchronize(d->edge);
    if (e != cudaSuccess && st == VSG_OK) st = cuda_fail("the slab's last sweeps", e);
    if (st == VSG_OK && keep) {
        const size_t nxy = (size_t)d->nx * (size_t)d->ny;
        for (int c = 0; c < 2 && st == VSG_OK; c++) {
            size_t a = colour_first(nxy * (size_t)d->z_lo, c), b = colour_first(nxy * (size_t)d->z_hi, c);
            e = cudaMemcpy((char *)s->phi[c] + a * d->es, dev_at(d, c, a), (b - a) * d->es, cudaMemcpyDeviceToHost);
            if (e != cudaSuccess) st = cuda_fail("copy of the slab's potential to the host", e);
        }
    }
    slab_free(d);
    return st;
}

extern "C" double vsg_slab_gpu_bytes(const vsg_pb_system *s, int z_lo, int z_hi)
{
    const size_t nxy = (size_t)s->nx * (size_t)s->ny, es = s->precision == VSG_PRECISION_FLOAT ? 4 : 8;
    const int g_lo = z_lo > 0 ? z_lo - 1 : 0, g_hi = z_hi < s->nz ? z_hi + 1 : s->nz;
    double b = sizeof(unsigned long long);
    for (int c = 0; c < 2; c++) {
        size_t n = colour_first(nxy * (size_t)g_hi, c) - colour_first(nxy * (size_t)g_lo, c), lo, hi;
        corr_range(s, c, colour_first(nxy * (size_t)z_lo, c), colour_first(nxy * (size_t)z_hi, c), &lo, &hi);
        b += (double)n * (double)(es + 1) + (double)(hi - lo) * (8.0 + 8.0 * (double)es);
    }
    return b;
}

static vsg_status slab_setup(Slab *d, vsg_pb_system *s, int z_lo, int z_hi, const vsg_sor_settings *set)
{
    const int count = vsg_gpu_count();
    if (count == 0) return vsg_fail(VSG_E_DEVICE, "GPU slab SOR: no CUDA device (no GPU or no driver)");
    d->dev = set->gpu_index < 0 ? 0 : set->gpu_index;
    if (d->dev >= count)
        return vsg_fail(VSG_E_DEVICE, "GPU slab SOR: GPU %d requested, %d CUDA device%s found", d->dev, count,
                        count == 1 ? "" : "s");
    if (s->precision != VSG_PRECISION_FLOAT && s->precision != VSG_PRECISION_DOUBLE)
        return vsg_fail(VSG_E_ARG, "GPU slab SOR: unknown precision %d", (int)s->precision);
    if (s->nonlinear && (s->n_ions < 0 || s->n_ions > VSG_MAX_IONS))
        return vsg_fail(VSG_E_ARG, "GPU slab SOR: %d ion species (at most %d)", s->n_ions, VSG_MAX_IONS);
    if (z_lo < 0 || z_hi > s->nz || z_hi - z_lo < 3 || (z_lo & 1))
        return vsg_fail(VSG_E_ARG, "GPU slab SOR: slab [%d, %d) of %d planes is not a slab (sor_mpi.h)", z_lo, z_hi, s->nz);
    d->s = s;
    d->nx = s->nx, d->ny = s->ny, d->nz = s->nz, d->z_lo = z_lo, d->z_hi = z_hi;
    d->g_lo = z_lo > 0 ? z_lo - 1 : 0;
    d->g_hi = z_hi < s->nz ? z_hi + 1 : s->nz;
    d->ua = z_lo > 1 ? z_lo : 1;
    d->ub = z_hi < s->nz - 1 ? z_hi : s->nz - 1;
    d->precision = s->precision;
    d->es = s->precision == VSG_PRECISION_FLOAT ? sizeof(float) : sizeof(double);
    d->zb = planes_per_thread();
    d->nonlinear = s->nonlinear;
    d->colour = -1;
    const char *la = getenv("VSG_SLAB_LOOKAHEAD");
    d->lookahead = !(la && !strcmp(la, "0"));
    const long long gy = (s->ny - 2 + SOR_BLOCK_Y - 1) / SOR_BLOCK_Y;
    if (gy > 65535)
        return vsg_fail(VSG_E_LIMIT, "GPU slab SOR: ny = %d is past the launch limit (%d)", s->ny, 65535 * SOR_BLOCK_Y + 2);

    int prev = -1;
    if (cudaGetDevice(&prev) == cudaSuccess && prev != d->dev) d->prev_device = prev;
    (void)cudaGetLastError();
    CU(cudaSetDevice(d->dev));
    cudaDeviceProp prop;
    CU(device_prop(&prop, d->dev));
    d->sms = prop.multiProcessorCount;
    const double need = vsg_slab_gpu_bytes(s, z_lo, z_hi);
    size_t fr = 0, tot = 0;
    pool_trim(d->dev); /* the PB pool's idle memory (dev_pool.cuh) is cudaMalloc's again */
    CU(cudaMemGetInfo(&fr, &tot));
    if (set->max_gpu_bytes > 0.0 && need > set->max_gpu_bytes)
        return vsg_fail(VSG_E_LIMIT, "GPU slab SOR: planes [%d, %d) of a %dx%dx%d grid need %.1f MiB on the GPU, above "
                        "the --max-gpu-memory cap of %.1f MiB", z_lo, z_hi, s->nx, s->ny, s->nz, need / 1048576.0,
                        set->max_gpu_bytes / 1048576.0);
    if (need + DEVICE_SLACK_BYTES > (double)fr)
        return vsg_fail(VSG_E_LIMIT, "GPU slab SOR: planes [%d, %d) of a %dx%dx%d grid need %.1f MiB on GPU %d (%s), "
                        "%.1f MiB free of %.1f MiB", z_lo, z_hi, s->nx, s->ny, s->nz,
                        (need + DEVICE_SLACK_BYTES) / 1048576.0, d->dev, prop.name, (double)fr / 1048576.0,
                        (double)tot / 1048576.0);

    /* The halo path first: boundary sweeps and copies get the SMs before the interior. */
    int least = 0, greatest = 0;
    CU(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    CU(cudaStreamCreateWithPriority(&d->edge, cudaStreamNonBlocking, greatest));
    CU(cudaStreamCreateWithPriority(&d->bulk, cudaStreamNonBlocking, least));
    CU(cudaEventCreateWithFlags(&d->ev_edge, cudaEventDisableTiming));
    CU(cudaEventCreateWithFlags(&d->ev_bulk, cudaEventDisableTiming));
    CU(cudaEventCreateWithFlags(&d->ev_pack, cudaEventDisableTiming));
    const size_t nxy = (size_t)s->nx * (size_t)s->ny, half = (nxy + 1) / 2;
    for (int i = 0; i < 4; i++) {
        CU(cudaEventCreateWithFlags(&d->ev_recv[i], cudaEventDisableTiming));
        CU(cudaHostAlloc(&d->recv_stage[i], half * d->es, cudaHostAllocDefault));
    }
    CU(cudaHostAlloc(&d->send_stage, half * d->es, cudaHostAllocDefault));
    CU(cudaHostAlloc((void **)&d->maxhost, sizeof *d->maxhost, cudaHostAllocDefault));
    CU(cudaMalloc((void **)&d->maxbits, sizeof *d->maxbits));
    CU(cudaMemsetAsync(d->maxbits, 0, sizeof *d->maxbits, d->edge));
    for (int c = 0; c < 2; c++) {
        d->base[c] = colour_first(nxy * (size_t)d->g_lo, c);
        d->len[c] = colour_first(nxy * (size_t)d->g_hi, c) - d->base[c];
        CU(cudaMalloc(&d->phi[c], d->len[c] * d->es));
        CU(cudaMalloc((void **)&d->flag[c], d->len[c]));
        CU(cudaMemcpyAsync(d->phi[c], (const char *)s->phi[c] + d->base[c] * d->es, d->len[c] * d->es,
                           cudaMemcpyHostToDevice, d->edge));
        CU(cudaMemcpyAsync(d->flag[c], s->flag[c] + d->base[c], d->len[c], cudaMemcpyHostToDevice, d->edge));
    }

    /* Constants exactly as sor_gpu.cu forms them (offsets in bytes of the precision). */
    const long long dxyz[3] = {1, s->nx, (long long)s->nx * s->ny};
    for (int c = 0; c < 2; c++)
        for (int a = 0; a < 3; a++) {
            d->off[c].o[2 * a] = floor_div2(c - dxyz[a]) * (long long)d->es;
            d->off[c].o[2 * a + 1] = floor_div2(c + dxyz[a]) * (long long)d->es;
        }
    if (d->precision == VSG_PRECISION_FLOAT) {
        d->u0 = (float)(1.0 / 6.0);
        d->u1 = (float)(1.0 / (6.0 + s->kh2));
    } else {
        d->u0 = 1.0 / 6.0;
        d->u1 = 1.0 / (6.0 + s->kh2);
    }
    d->ksalt = s->kh2 / (6.0 + s->kh2);
    memset(&d->ions, 0, sizeof d->ions);
    d->ions.n = s->nonlinear ? s->n_ions : 0;
    for (int i = 0; i < d->ions.n; i++) {
        d->ions.molar[i] = s->ion_molar[i];
        d->ions.charge[i] = s->ion_charge[i];
    }
    d->ions.two_i = s->two_i;

    /* The ranges sor_mpi.c sweeps, made now so the loop uploads nothing. */
    View *w = NULL;
    vsg_status st = view_any(d, d->ua, d->ua + 1, &w);
    if (st == VSG_OK) st = view_any(d, d->ub - 1, d->ub, &w);
    if (st == VSG_OK && d->ub - 1 > d->ua + 1) st = view_any(d, d->ua + 1, d->ub - 1, &w);
    if (st != VSG_OK) return st;
    CU(cudaStreamSynchronize(d->edge));
    return VSG_OK;
}

static vsg_status slab_open(vsg_pb_system *s, int z_lo, int z_hi, const vsg_sor_settings *set, void **ctx)
{
    *ctx = NULL;
    Slab *d = (Slab *)calloc(1, sizeof *d);
    if (!d) return vsg_fail(VSG_E_NOMEM, "out of memory (GPU slab)");
    d->prev_device = -1;
    vsg_status st = slab_setup(d, s, z_lo, z_hi, set);
    if (st != VSG_OK) {
        slab_free(d);
        return st;
    }
    *ctx = d;
    return VSG_OK;
}

extern "C" void *vsg_slab_gpu_plane(void *ctx, int c, int z)
{
    Slab *d = (Slab *)ctx;
    if (!d || c < 0 || c > 1 || !stored(d, z)) return NULL;
    if (join(d) != VSG_OK || cudaStreamSynchronize(d->edge) != cudaSuccess) return NULL;
    const size_t nxy = (size_t)d->nx * (size_t)d->ny;
    return dev_at(d, c, colour_first(nxy * (size_t)z, c));
}

/* ---- the direct halo path (CUDA IPC) ---------------------------------------------------- */

static void host_name(char *buf, size_t len)
{
    memset(buf, 0, len);
    if (gethostname(buf, len - 1) != 0) buf[0] = 0;
}

/* Global index and size of colour c of plane z. */
static void plane_of(const Slab *d, int c, int z, size_t *G, size_t *n)
{
    const size_t nxy = (size_t)d->nx * (size_t)d->ny;
    *G = colour_first(nxy * (size_t)z, c);
    *n = colour_first(nxy * (size_t)(z + 1), c) - *G;
}

static vsg_status slab_peer_export(void *ctx, void *blob)
{
    Slab *d = (Slab *)ctx;
    if (d->sticky != VSG_OK) return d->sticky;
    PeerBlob b;
    memset(&b, 0, sizeof b);
    memcpy(b.magic, PEER_MAGIC, sizeof b.magic);
    host_name(b.host, sizeof b.host);
    b.pid = (int)getpid();
    b.es = (int)d->es;
    b.ghost_z[0] = d->z_lo > 0 ? d->z_lo - 1 : -1;
    b.ghost_z[1] = d->z_hi < d->nz ? d->z_hi : -1;
    for (int g = 0; g < 2; g++)
        for (int c = 0; c < 2 && b.ghost_z[g] >= 0; c++) {
            size_t G, n;
            plane_of(d, c, b.ghost_z[g], &G, &n);
            b.off[g][c] = (unsigned long long)((G - d->base[c]) * d->es);
            b.bytes[g][c] = (unsigned long long)(n * d->es);
        }
    for (int c = 0; c < 2; c++) CU(cudaIpcGetMemHandle(&b.h[c], d->phi[c]));
    memcpy(blob, &b, sizeof b);
    return VSG_OK;
}

static vsg_status slab_peer_import(void *ctx, int side, const void *blob)
{
    Slab *d = (Slab *)ctx;
    if (d->sticky != VSG_OK) return d->sticky;
    if (side < 0 || side > 1) return vsg_fail(VSG_E_ARG, "GPU slab SOR: neighbour side %d (0 below, 1 above)", side);
    CU(cudaSetDevice(d->dev)); /* the mapping goes into this GPU's address space */
    PeerBlob b;
    memcpy(&b, blob, sizeof b);
    char host[64];
    host_name(host, sizeof host);
    if (memcmp(b.magic, PEER_MAGIC, sizeof b.magic) != 0 || b.es != (int)d->es)
        return vsg_fail(VSG_E_UNSUPPORTED, "GPU slab SOR: the neighbour's IPC description is not this build's");
    if (strncmp(b.host, host, sizeof host) != 0)
        return vsg_fail(VSG_E_UNSUPPORTED, "GPU slab SOR: neighbour on host '%.63s', this rank on '%.63s': no IPC",
                        b.host, host);
    /* Below: its upper ghost is this slab's first owned plane; above: its lower ghost our last. */
    const int g = side == 0 ? 1 : 0, z = side == 0 ? d->ua : d->ub - 1;
    const int want = side == 0 ? d->z_lo : d->z_hi - 1;
    if (b.ghost_z[g] != z || z != want)
        return vsg_fail(VSG_E_ARG, "GPU slab SOR: the neighbour %s holds ghost plane %d, this slab sends plane %d",
                        side == 0 ? "below" : "above", b.ghost_z[g], z);
    for (int c = 0; c < 2; c++) {
        size_t G, n;
        plane_of(d, c, z, &G, &n);
        if (b.bytes[g][c] != (unsigned long long)(n * d->es))
            return vsg_fail(VSG_E_ARG, "GPU slab SOR: the neighbour's ghost plane %d of colour %d holds %llu bytes, "
                            "this slab's plane %zu", z, c, b.bytes[g][c], n * d->es);
    }
    for (int c = 0; c < 2; c++) {
        if (d->peer_base[side][c]) return vsg_fail(VSG_E_ARG, "GPU slab SOR: neighbour side %d imported twice", side);
        void *p = NULL;
        cudaError_t e = cudaIpcOpenMemHandle(&p, b.h[c], cudaIpcMemLazyEnablePeerAccess);
        if (e != cudaSuccess) {
            (void)cudaGetLastError();
            return vsg_fail(VSG_E_UNSUPPORTED, "GPU slab SOR: cannot map the ghost planes of the rank %s (pid %d): %s",
                            side == 0 ? "below" : "above", b.pid, cudaGetErrorString(e));
        }
        d->peer_base[side][c] = p;
        d->peer_off[side][c] = (size_t)b.off[g][c];
        /* Another GPU: this one must reach it directly (else the copies would not be peer copies). */
        cudaPointerAttributes a;
        e = cudaPointerGetAttributes(&a, p);
        int can = 1;
        if (e == cudaSuccess && a.device != d->dev) e = cudaDeviceCanAccessPeer(&can, d->dev, a.device);
        if (e != cudaSuccess || !can) {
            (void)cudaGetLastError();
            return vsg_fail(VSG_E_UNSUPPORTED, "GPU slab SOR: GPU %d has no peer access to the neighbour's GPU (%s)",
                            d->dev, e != cudaSuccess ? cudaGetErrorString(e) : "cudaDeviceCanAccessPeer says no");
        }
    }
    return VSG_OK;
}

static vsg_status slab_push(void *ctx, int c)
{
    Slab *d = (Slab *)ctx;
    if (d->sticky != VSG_OK) return d->sticky;
    if (c < 0 || c > 1) return vsg_fail(VSG_E_ARG, "GPU slab SOR: push of colour %d", c);
    for (int side = 0; side < 2; side++) {
        if (!d->peer_base[side][c]) continue;
        size_t G, n;
        plane_of(d, c, side == 0 ? d->ua : d->ub - 1, &G, &n);
        /* On the edge stream: after the boundary sweeps of colour c, which alone write these planes. */
        CU(cudaMemcpyAsync((char *)d->peer_base[side][c] + d->peer_off[side][c], dev_at(d, c, G), n * d->es,
                           cudaMemcpyDeviceToDevice, d->edge));
    }
    /* Complete before the caller tells the neighbours; this also means the boundary sweeps, the
     * only readers of this slab's own ghosts, are done (the edge stream runs in order). */
    CU(cudaEventRecord(d->ev_pack, d->edge));
    CU(cudaEventSynchronize(d->ev_pack));
    return VSG_OK;
}

static vsg_status slab_peer_close(void *ctx) { return peer_unmap((Slab *)ctx); }

extern "C" const vsg_slab_backend vsg_slab_gpu = {
    "gpu", slab_open, slab_sweep, slab_colour_max, slab_pack, slab_unpack, slab_close,
    sizeof(PeerBlob), slab_peer_export, slab_peer_import, slab_push, slab_peer_close};
