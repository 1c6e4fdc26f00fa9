/* sor_mpi.c — the PB SOR over MPI ranks in z-slabs, and its CPU slab backend (see sor_mpi.h).
 *
 * Per iteration and colour: sweep the slab's two boundary planes, post the halo exchange
 * (MPI_Irecv of the two ghost planes, MPI_Isend of the two boundary planes), sweep the interior
 * while the messages travel, wait, unpack the ghosts. Only the swept colour moves: each message
 * is half a plane. On check iterations one MPI_Allreduce of the max change (and a NaN flag).
 *
 * The direct path (a backend with the peer hooks, all ranks on one host, VSG_SLAB_IPC not "0"):
 * the boundary planes go straight into the neighbours' ghost planes (push: GPU to GPU), and the
 * messages shrink to zero-byte tokens that say "my push of this colour is complete"; no pack, no
 * unpack. The ordering argument is at halo_ipc_order below. */
#include "grids/pb/sor_mpi.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "grids/base/vsgrid.h"
#include "grids/base/mpi_env.h"

#if defined(VSG_HAVE_MPI)
#include <mpi.h>
#endif
#if defined(_OPENMP)
#include <omp.h>
#endif

/* The CPU twin's colour sweep, the same code (and, in CMake, the same flags) as sor_cpu.c, so
 * that a slab's nodes get the very bits the single-process solve gives them. */
#include "grids/pb/sor_cpu_sweeps.h"

/* ---- layout helpers ---------------------------------------------------------------------- */

/* Index in colour c's array of the first colour-c node with linear index ≥ L. */
static size_t colour_first(size_t L, int c) { return (L + 1 - (size_t)c) >> 1; }

size_t vsg_plane_first(const vsg_pb_system *s, int c, int z)
{
    return colour_first((size_t)s->nx * (size_t)s->ny * (size_t)z, c);
}

size_t vsg_plane_count(const vsg_pb_system *s, int c, int z)
{
    return vsg_plane_first(s, c, z + 1) - vsg_plane_first(s, c, z);
}

void vsg_slab_cuts(int nz, int ranks, int *z)
{
    z[0] = 0;
    z[ranks] = nz;
    for (int k = 1; k < ranks; k++) {
        /* The even plane nearest 1 + k (nz − 2) / N, ties down. */
        double half = (1.0 + (double)k * (nz - 2) / ranks) / 2.0;
        int e = 2 * (int)ceil(half - 0.5);
        if (e < z[k - 1]) e = z[k - 1];
        z[k] = e;
    }
}


/* ---- the CPU slab backend ---------------------------------------------------------------- */

/* A view of planes [z0 − 1, z1] of the whole system as a system of its own, so that the CPU
 * twin's sweep (which updates planes 1 .. nz − 2 of what it is given) updates exactly
 * [z0, z1). The view shares the potential and flags; when it starts on an odd plane its
 * colours are the global ones swapped. Its correction lists are copies with local indices. */
typedef struct {
    int z0, z1, swap;
    vsg_pb_system v;
} plane_view;

#define VIEWS 4
typedef struct {
    vsg_pb_system *s;
    plane_view views[VIEWS];
    int nviews;
    double max;
    int bad;
} cpu_slab;

static void view_free(plane_view *w)
{
    free(w->v.corr[0]);
    free(w->v.corr[1]);
}

static vsg_status view_make(const vsg_pb_system *s, int z0, int z1, plane_view *w)
{
    memset(w, 0, sizeof *w);
    w->z0 = z0;
    w->z1 = z1;
    const size_t plane = (size_t)s->nx * (size_t)s->ny;
    const size_t P = plane * (size_t)(z0 - 1);  /* global linear index of the view's node 0 */
    const size_t es = s->precision == VSG_PRECISION_FLOAT ? sizeof(float) : sizeof(double);
    w->swap = (int)(P & 1);
    vsg_pb_system *v = &w->v;
    *v = *s;
    v->nz = z1 - z0 + 2;
    v->nodes = plane * (size_t)v->nz;
    for (int lc = 0; lc < 2; lc++) {
        int g = lc ^ w->swap;
        /* Local node i of colour lc is global node (lc + P) / 2 + i of colour g. */
        size_t off = ((size_t)lc + P) >> 1;
        v->phi[lc] = (char *)s->phi[g] + off * es;
        v->flag[lc] = s->flag[g] + off;
        v->count[lc] = colour_first(v->nodes, lc);
        /* Listed nodes of colour g on the updated planes, by binary search (sorted lists). */
        size_t first = colour_first(plane * (size_t)z0, g), end = colour_first(plane * (size_t)z1, g);
        const vsg_pb_corr *cl = s->corr[g];
        size_t lo = 0, hi = s->ncorr[g];
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (cl[mid].index < first) lo = mid + 1; else hi = mid;
        }
        size_t b = lo;
        hi = s->ncorr[g];
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (cl[mid].index < end) lo = mid + 1; else hi = mid;
        }
        size_t n = lo - b;
        v->corr[lc] = NULL;
        v->ncorr[lc] = n;
        if (n) {
            v->corr[lc] = malloc(n * sizeof *v->corr[lc]);
            if (!v->corr[lc]) {
                view_free(w);
                return vsg_fail(VSG_E_NOMEM, "out of memory (slab correction lists)");
            }
            memcpy(v->corr[lc], cl + b, n * sizeof *cl);
            for (size_t e = 0; e < n; e++) v->corr[lc][e].index -= off;
        }
    }
    return VSG_OK;
}

static vsg_status cpu_open(vsg_pb_system *s, int z_lo, int z_hi, const vsg_sor_settings *set, void **ctx)
{
    (void)z_lo, (void)z_hi, (void)set;
    cpu_slab *cs = calloc(1, sizeof *cs);
    if (!cs) return vsg_fail(VSG_E_NOMEM, "out of memory (slab)");
    cs->s = s;
    *ctx = cs;
    return VSG_OK;
}

static vsg_status cpu_sweep(void *ctx, int c, int z0, int z1, double omega, double lambda, int check)
{
    cpu_slab *cs = ctx;
    if (z1 <= z0) return VSG_OK;
    plane_view *w = NULL;
    for (int i = 0; i < cs->nviews; i++)
        if (cs->views[i].z0 == z0 && cs->views[i].z1 == z1) w = &cs->views[i];
    if (!w) {
        /* The loop asks for three ranges (two boundary planes, the interior): made once. */
        if (cs->nviews == VIEWS) return vsg_fail(VSG_E_ARG, "CPU slab: more than %d plane ranges", VIEWS);
        vsg_status st = view_make(cs->s, z0, z1, &cs->views[cs->nviews]);
        if (st != VSG_OK) return st;
        w = &cs->views[cs->nviews++];
    }
    int lc = c ^ w->swap;
    double m = cs->s->precision == VSG_PRECISION_FLOAT ? sweep_float(&w->v, lc, omega, lambda, check)
                                                       : sweep_double(&w->v, lc, omega, lambda, check);
    if (check) {
        if (isnan(m)) cs->bad = 1;
        else if (m > cs->max) cs->max = m;
    }
    return VSG_OK;
}

static double cpu_colour_max(void *ctx)
{
    cpu_slab *cs = ctx;
    double m = cs->bad ? NAN : cs->max;
    cs->max = 0.0;
    cs->bad = 0;
    return m;
}

static vsg_status cpu_pack(void *ctx, int c, int z, void *buf)
{
    const vsg_pb_system *s = ((cpu_slab *)ctx)->s;
    size_t es = s->precision == VSG_PRECISION_FLOAT ? sizeof(float) : sizeof(double);
    memcpy(buf, (const char *)s->phi[c] + vsg_plane_first(s, c, z) * es, vsg_plane_count(s, c, z) * es);
    return VSG_OK;
}

static vsg_status cpu_unpack(void *ctx, int c, int z, const void *buf)
{
    vsg_pb_system *s = ((cpu_slab *)ctx)->s;
    size_t es = s->precision == VSG_PRECISION_FLOAT ? sizeof(float) : sizeof(double);
    memcpy((char *)s->phi[c] + vsg_plane_first(s, c, z) * es, buf, vsg_plane_count(s, c, z) * es);
    return VSG_OK;
}

static vsg_status cpu_close(void *ctx, vsg_pb_system *s, int keep)
{
    (void)s, (void)keep;  /* the slab worked in s itself */
    cpu_slab *cs = ctx;
    for (int i = 0; i < cs->nviews; i++) view_free(&cs->views[i]);
    free(cs);
    return VSG_OK;
}

/* No direct halo path: the slabs of a CPU run already share memory through MPI's own transport. */
const vsg_slab_backend vsg_slab_cpu = {"cpu", cpu_open, cpu_sweep, cpu_colour_max, cpu_pack, cpu_unpack, cpu_close,
                                       0, NULL, NULL, NULL, NULL};

/* ---- the distributed iteration ----------------------------------------------------------- */

static vsg_sor_mpi_stats last_stats;
static int my_device = -1;

void vsg_sor_mpi_set_device(int gpu) { my_device = gpu; }
static int have_last;

int vsg_sor_mpi_last(vsg_sor_mpi_stats *out)
{
    if (have_last && out) *out = last_stats;
    return have_last;
}

vsg_status vsg_sor_mpi(vsg_pb_system *s, const vsg_sor_settings *set, vsg_sor_result *r)
{
    return vsg_sor_mpi_with(&vsg_slab_cpu, s, set, r);
}

#if !defined(VSG_HAVE_MPI)

vsg_status vsg_sor_mpi_with(const vsg_slab_backend *be, vsg_pb_system *s, const vsg_sor_settings *set,
                            vsg_sor_result *r)
{
    (void)be;
    return vsg_sor_cpu(s, set, r);
}

#else

/* Updated (non-face) planes of slab [lo, hi). */
static int updated_planes(int nz, int lo, int hi)
{
    int a = lo > 1 ? lo : 1, b = hi < nz - 1 ? hi : nz - 1;
    return b > a ? b - a : 0;
}

/* All ranks agree on a status (the first failure by rank order wins; its message is local). */
static vsg_status agree(vsg_status st)
{
    int mine = st != VSG_OK, any = 0;
    MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (any && st == VSG_OK) return vsg_fail(VSG_E_NOMEM, "distributed PB solve: another rank failed");
    return st;
}

/* A backend failure inside the iteration loop would leave the other ranks in a collective. */
static void must(vsg_status st)
{
    if (st == VSG_OK) return;
    fprintf(vsg_mpi_stderr(), "vsgrid: rank %d: distributed PB solve failed: %s\n", vsg_mpi_rank(), vsg_last_error());
    MPI_Abort(MPI_COMM_WORLD, 1);
}

/* Every rank gets the owned planes of every other rank (in place). */
static vsg_status gather(vsg_pb_system *s, const int *cuts, int ranks)
{
    MPI_Datatype type = s->precision == VSG_PRECISION_FLOAT ? MPI_FLOAT : MPI_DOUBLE;
    int *counts = malloc(2 * (size_t)ranks * sizeof *counts);
    if (!counts) return vsg_fail(VSG_E_NOMEM, "out of memory (gather)");
    int *displs = counts + ranks;
    vsg_status st = VSG_OK;
    for (int c = 0; c < 2 && st == VSG_OK; c++) {
        for (int k = 0; k < ranks; k++) {
            size_t a = vsg_plane_first(s, c, cuts[k]), b = vsg_plane_first(s, c, cuts[k + 1]);
            if (b > (size_t)INT_MAX) {
                st = vsg_fail(VSG_E_LIMIT, "distributed PB solve: %zu nodes per colour exceed MPI's int counts", b);
                break;
            }
            counts[k] = (int)(b - a);
            displs[k] = (int)a;
        }
        if (st == VSG_OK)
            MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, s->phi[c], counts, displs, type, MPI_COMM_WORLD);
    }
    free(counts);
    return st;
}

/* ---- the direct halo path ------------------------------------------------------------------
 *
 * halo_ipc_order: why the tokens are enough. Phase p = 2·it + c sweeps colour c. A slab's ghost
 * plane of colour c is written only by its neighbour's push in phases of colour c, and read only
 * by the slab's own two boundary-plane sweeps in phases of colour 1 − c (a colour-c update reads
 * the other colour; the interior range [ua + 1, ub − 1) reads planes ua .. ub − 1, never a ghost,
 * so the GPU's look-ahead interior sweep on its other stream never touches a ghost; neither does
 * colour_max on check iterations). In every phase each rank: posts the token receives, sweeps its
 * boundary planes, pushes (push returns when its copies are complete, and, the edge stream running
 * in order, its own boundary sweeps of this phase, the readers of its ghosts, are complete too),
 * sends its tokens, sweeps the interior, and waits for all four messages before the next phase.
 *  - Read after write: neighbour N pushes into my ghost of colour c in phase p and sends token p
 *    only after the copy completed; I sweep my boundary planes of phase p + 1 (the next readers)
 *    only after my Waitall of phase p received that token.
 *  - Write after read: my previous read of that ghost was in phase p − 1 (my boundary sweeps), done
 *    before my push of p − 1 returned and so before my token p − 1; N pushes in phase p only after
 *    its Waitall of phase p − 1 received my token p − 1. No rank gets more than one phase ahead.
 *  - Start: every ghost holds the starting potential, uploaded (synchronously) by open before
 *    export; a neighbour pushes only after the blob exchange and the agreement allreduce, so no
 *    push is overwritten by an upload. Phase 0 reads the colour-1 ghosts, first written in phase 1.
 *  - End: the loop ends for all ranks after the same phase (the verdict is allreduced), every
 *    token of it waited for; then all ranks unmap (peer_close) and agree (an allreduce: a barrier)
 *    before close frees memory a neighbour maps.
 * Check iterations add colour_max and the allreduce between phases, which changes none of this.
 * The ghost then holds exactly the values the staged path would unpack into it, so the result is
 * the staged (and single-process) result bit for bit. */

/* 1 when `other` (a world rank, or MPI_PROC_NULL) shares this rank's host. */
static int shares_host(MPI_Comm shared, int other)
{
    if (other == MPI_PROC_NULL) return 1;
    MPI_Group world, local;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Comm_group(shared, &local);
    int there = MPI_UNDEFINED;
    MPI_Group_translate_ranks(world, 1, &other, local, &there);
    MPI_Group_free(&world);
    MPI_Group_free(&local);
    return there != MPI_UNDEFINED;
}

/* Collective. 1 when every rank mapped its neighbours' ghosts (then the loop pushes); 0 with
 * nothing mapped anywhere (then it stages). Why not, when asked for (VSG_SLAB_IPC=1), is warned. */
static int ipc_setup(const vsg_slab_backend *be, void *ctx, int down, int up)
{
    const char *env = getenv("VSG_SLAB_IPC");
    const int asked = env && !strcmp(env, "1");
    const int hooks = be->peer_blob_size > 0 && be->peer_export && be->peer_import && be->push && be->peer_close;
    if (!hooks && asked)
        vsg_warn("rank %d: the %s slab backend has no direct halo path: halos staged", vsg_mpi_rank(), be->name);
    int want = hooks && !(env && !strcmp(env, "0"));
    MPI_Comm shared;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &shared);
    const int local = shares_host(shared, down) && shares_host(shared, up);
    MPI_Comm_free(&shared);
    if (want && !local && asked)
        vsg_warn("rank %d: a neighbouring rank runs on another host: halos staged", vsg_mpi_rank());
    want = want && local;
    const size_t n = want ? be->peer_blob_size : 0;
    char *blobs = want ? calloc(3, n) : NULL; /* mine, from below, from above */
    want = want && blobs && n <= INT_MAX;
    int all = 0;
    MPI_Allreduce(&want, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (!all) {
        free(blobs);
        return 0;
    }
    char *mine = blobs, *below = blobs + n, *above = blobs + 2 * n;
    vsg_status st = be->peer_export(ctx, mine);
    /* A failed export still takes part in the exchange (zeros: the neighbour's import refuses them). */
    if (st != VSG_OK) memset(mine, 0, n);
    MPI_Sendrecv(mine, (int)n, MPI_BYTE, down, 40, above, (int)n, MPI_BYTE, up, 40, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(mine, (int)n, MPI_BYTE, up, 41, below, (int)n, MPI_BYTE, down, 41, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (st == VSG_OK && down != MPI_PROC_NULL) st = be->peer_import(ctx, 0, below);
    if (st == VSG_OK && up != MPI_PROC_NULL) st = be->peer_import(ctx, 1, above);
    if (st != VSG_OK && asked) vsg_warn("rank %d: no direct halo path: %s", vsg_mpi_rank(), vsg_last_error());
    int ok = st == VSG_OK;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (!all) (void)be->peer_close(ctx); /* the staged path then; nothing stays mapped */
    free(blobs);
    return all;
}

vsg_status vsg_sor_mpi_with(const vsg_slab_backend *be, vsg_pb_system *s, const vsg_sor_settings *set,
                            vsg_sor_result *r)
{
    const int ranks = vsg_mpi_active() ? vsg_mpi_size() : 1, rank = vsg_mpi_rank();
    if (ranks <= 1) return vsg_sor_cpu(s, set, r);
    int *cuts = malloc(((size_t)ranks + 1) * sizeof *cuts);
    if (!cuts) return vsg_fail(VSG_E_NOMEM, "out of memory (slab cuts)");
    vsg_slab_cuts(s->nz, ranks, cuts);
    int pmin = INT_MAX, pmax = 0;
    for (int k = 0; k < ranks; k++) {
        int p = updated_planes(s->nz, cuts[k], cuts[k + 1]);
        pmin = p < pmin ? p : pmin;
        pmax = p > pmax ? p : pmax;
    }
    if (pmin < VSG_SOR_MPI_MIN_PLANES) {
        /* Too thin to split (the small nested levels): every rank solves the whole grid. */
        free(cuts);
        return vsg_sor_cpu(s, set, r);
    }
    const int z_lo = cuts[rank], z_hi = cuts[rank + 1];
    const int ua = z_lo > 1 ? z_lo : 1, ub = z_hi < s->nz - 1 ? z_hi : s->nz - 1;
    const int down = rank > 0 ? rank - 1 : MPI_PROC_NULL, up = rank < ranks - 1 ? rank + 1 : MPI_PROC_NULL;
    const MPI_Datatype type = s->precision == VSG_PRECISION_FLOAT ? MPI_FLOAT : MPI_DOUBLE;
    const size_t es = s->precision == VSG_PRECISION_FLOAT ? sizeof(float) : sizeof(double);
    const size_t half = ((size_t)s->nx * (size_t)s->ny + 1) / 2;

    /* send down, send up, receive from below, receive from above */
    void *buf = malloc(4 * half * es);
    void *ctx = NULL;
    vsg_status st = buf ? VSG_OK : vsg_fail(VSG_E_NOMEM, "out of memory (halo buffers)");
    if (st == VSG_OK) st = be->open(s, z_lo, z_hi, set, &ctx);
    st = agree(st);
    if (st != VSG_OK) {
        if (ctx) be->close(ctx, s, 0);
        free(buf);
        free(cuts);
        return st;
    }
    char *b_down = buf, *b_up = b_down + half * es, *r_down = b_up + half * es, *r_up = r_down + half * es;
    /* Before the clock: the handle exchange is setup, not iteration. */
    const int ipc = ipc_setup(be, ctx, down, up);
    char token_out = 0, token_in[2];

    int threads = 1;
#if defined(_OPENMP)
    if (set->threads > 0) omp_set_num_threads(set->threads);
    threads = omp_get_max_threads();
#endif
    snprintf(r->device, sizeof r->device, "%s (%d MPI ranks x %d thread%s)", be->name, ranks, threads,
             threads == 1 ? "" : "s");
    r->iterations = 0;
    r->converged = 0;
    r->final_change = INFINITY;
    r->device_bytes = 0;
    r->pattern_nodes = 0;
    const int check_every = set->check_every > 0 ? set->check_every : 10;
    const int show = set->progress && rank == 0 && isatty(2);
    double t0 = vsg_now(), wait_s = 0.0, reduce_s = 0.0, bytes = 0.0;
    vsg_sor_schedule sc;
    vsg_sor_schedule_init(&sc, set, show, t0);

    for (int it = 0; it < set->max_iter && st == VSG_OK; it++) {
        const int check = (it + 1) % check_every == 0 || it + 1 == set->max_iter;
        const double lambda = s->nonlinear ? vsg_nl_lambda(it) : 0.0;
        for (int c = 0; c < 2; c++) {
            MPI_Request req[4];
            int nreq = 0;
            if (ipc) {
                /* The direct path (halo_ipc_order above): tokens only, the data is already there. */
                MPI_Irecv(&token_in[0], 0, MPI_BYTE, down, 2 * c + 1, MPI_COMM_WORLD, &req[nreq++]);
                MPI_Irecv(&token_in[1], 0, MPI_BYTE, up, 2 * c, MPI_COMM_WORLD, &req[nreq++]);
                must(be->sweep(ctx, c, ua, ua + 1, sc.omega, lambda, check));
                must(be->sweep(ctx, c, ub - 1, ub, sc.omega, lambda, check));
                must(be->push(ctx, c));
                if (down != MPI_PROC_NULL) {
                    MPI_Isend(&token_out, 0, MPI_BYTE, down, 2 * c, MPI_COMM_WORLD, &req[nreq++]);
                    bytes += (double)vsg_plane_count(s, c, ua) * es;
                }
                if (up != MPI_PROC_NULL) {
                    MPI_Isend(&token_out, 0, MPI_BYTE, up, 2 * c + 1, MPI_COMM_WORLD, &req[nreq++]);
                    bytes += (double)vsg_plane_count(s, c, ub - 1) * es;
                }
                must(be->sweep(ctx, c, ua + 1, ub - 1, sc.omega, lambda, check));
                double tw = vsg_now();
                MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE);
                wait_s += vsg_now() - tw;
                continue;
            }
            /* Ghosts first, so that the neighbours' messages land in posted buffers. */
            MPI_Irecv(r_down, (int)vsg_plane_count(s, c, z_lo > 0 ? z_lo - 1 : 0), type, down, 2 * c + 1,
                      MPI_COMM_WORLD, &req[nreq++]);
            MPI_Irecv(r_up, (int)vsg_plane_count(s, c, z_hi < s->nz ? z_hi : 0), type, up, 2 * c, MPI_COMM_WORLD,
                      &req[nreq++]);
            /* The boundary planes, which the neighbours need, before the interior. */
            must(be->sweep(ctx, c, ua, ua + 1, sc.omega, lambda, check));
            must(be->sweep(ctx, c, ub - 1, ub, sc.omega, lambda, check));
            if (down != MPI_PROC_NULL) {
                must(be->pack(ctx, c, ua, b_down));
                int n = (int)vsg_plane_count(s, c, ua);
                MPI_Isend(b_down, n, type, down, 2 * c, MPI_COMM_WORLD, &req[nreq++]);
                bytes += (double)n * es;
            }
            if (up != MPI_PROC_NULL) {
                must(be->pack(ctx, c, ub - 1, b_up));
                int n = (int)vsg_plane_count(s, c, ub - 1);
                MPI_Isend(b_up, n, type, up, 2 * c + 1, MPI_COMM_WORLD, &req[nreq++]);
                bytes += (double)n * es;
            }
            /* The interior while the halos travel. */
            must(be->sweep(ctx, c, ua + 1, ub - 1, sc.omega, lambda, check));
            double tw = vsg_now();
            MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE);
            wait_s += vsg_now() - tw;
            if (down != MPI_PROC_NULL) must(be->unpack(ctx, c, z_lo - 1, r_down));
            if (up != MPI_PROC_NULL) must(be->unpack(ctx, c, z_hi, r_up));
        }
        r->iterations = it + 1;
        if (!check) continue;
        /* The max change over all slabs, and whether any was NaN (MPI's max of NaN is undefined). */
        double m = be->colour_max(ctx);
        double mine[2] = {isnan(m) ? 0.0 : m, isnan(m) ? 1.0 : 0.0}, all[2];
        double tr = vsg_now();
        MPI_Allreduce(mine, all, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        reduce_s += vsg_now() - tr;
        double change = all[1] > 0.0 ? NAN : all[0];
        r->final_change = change;
        vsg_sor_verdict v = vsg_sor_after_check(&sc, set, s->nonlinear, it + 1, lambda, change, vsg_now());
        if (v == VSG_SOR_DIVERGED)
            st = vsg_fail(VSG_E_CONVERGE, "PB solver diverged at iteration %d (change %g)", it + 1, change);
        if (v == VSG_SOR_CONVERGED) {
            r->converged = 1;
            break;
        }
    }
    if (show) fprintf(stderr, "\r%60s\r", "");
    r->seconds = vsg_now() - t0;
    r->omega = sc.omega;
    if (ipc) {
        /* Every rank unmaps its neighbours' ghosts before any rank frees its own (close). */
        vsg_status pst = agree(be->peer_close(ctx));
        if (st == VSG_OK) st = pst;
    }
    vsg_status cst = be->close(ctx, s, st == VSG_OK);
    if (st == VSG_OK) st = agree(cst);
    if (st == VSG_OK) st = agree(gather(s, cuts, ranks));
    free(buf);
    free(cuts);

    memset(&last_stats, 0, sizeof last_stats);
    last_stats.ranks = ranks;
    last_stats.planes_min = pmin;
    last_stats.planes_max = pmax;
    last_stats.iterations = r->iterations;
    last_stats.seconds = r->seconds;
    last_stats.seconds_per_iteration = r->iterations ? r->seconds / r->iterations : 0.0;
    last_stats.comm_seconds = wait_s + reduce_s;
    last_stats.allreduce_seconds = reduce_s;
    last_stats.halo_bytes = bytes;
    snprintf(last_stats.backend, sizeof last_stats.backend, "%s", be->name);
    snprintf(last_stats.halo_path, sizeof last_stats.halo_path, "%s", ipc ? "ipc" : "staged");
    {   /* every rank's device and host, for the report (rank 0 writes it) */
        int mine[2] = {my_device, 0}, *all = malloc(2 * (size_t)ranks * sizeof *all);
        MPI_Comm shared;
        int shared_rank = 0;
        MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &shared);
        MPI_Comm_rank(shared, &shared_rank);
        MPI_Comm_free(&shared);
        /* host id: the number of host leaders (shared rank 0) among the ranks before this
         * host's leader; computed on rank 0 from the gathered leader flags */
        mine[1] = shared_rank == 0;
        if (all) {
            MPI_Allgather(mine, 2, MPI_INT, all, 2, MPI_INT, MPI_COMM_WORLD);
            int host = -1;
            for (int k = 0; k < ranks && k < VSG_SOR_MPI_MAX_REPORTED; k++) last_stats.device[k] = all[2 * k];
            for (int k = 0; k < ranks; k++) {
                if (all[2 * k + 1]) host++;
                if (k < VSG_SOR_MPI_MAX_REPORTED) last_stats.host_id[k] = host < 0 ? 0 : host;
            }
            free(all);
        }
    }
    have_last = 1;
    return st;
}

#endif
