/* place_cpu.c — the CPU twin of the rigid-body pose search (design in vsgrid.h, "placement").
 *
 * Work split: OpenMP threads take whole rotations (dynamic schedule). For its rotation a thread
 * rotates the ligand's centred coordinates once, finds the sub-box of site points whose posed
 * bounding box can stay inside the grid, and fills batches of POSE_CHUNK poses (one "ligand"
 * per pose) that vsg_score_cpu scores: the interpolation and the AD4/ELEC terms are the
 * screening twin's, not a copy. vsg_score_cpu's own parallel loop runs nested, on one thread
 * (OpenMP's default), so a pose's sum is in atom order and the result does not depend on the
 * thread count. Each thread keeps its best and top-k; they are merged at the end. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "grids/base/vsgrid.h"

/* Poses per vsg_score_cpu call: large enough to amortise the call, small enough for L2. */
#define POSE_CHUNK 256
/* Lenient margin of the bounding-box prefilter (Å): the scorer's outside count decides. */
#define PREFILTER_SLACK 1e-3

vsg_status vsg_place_lattice(const vsg_place_box *box, int n[3])
{
    if (!box || !(box->step > 0.0) || !isfinite(box->step))
        return vsg_fail(VSG_E_ARG, "placement: site step must be a number > 0");
    for (int d = 0; d < 3; d++) {
        if (!(box->half[d] >= 0.0) || !isfinite(box->half[d]) || !isfinite(box->center[d]))
            return vsg_fail(VSG_E_ARG, "placement: bad site box along %c (centre %g, half-extent %g)", "xyz"[d],
                            box->center[d], box->half[d]);
        double k = floor(2.0 * box->half[d] / box->step + 1e-9) + 1.0;
        if (k > 1e6)
            return vsg_fail(VSG_E_ARG, "placement: %.0f site points along %c (at most 10^6): raise --site-step", k,
                            "xyz"[d]);
        n[d] = (int)k;
    }
    return VSG_OK;
}

void vsg_place_site_point(const vsg_place_box *box, const int n[3], uint64_t site, double p[3])
{
    uint64_t ix = site % (uint64_t)n[0], rest = site / (uint64_t)n[0];
    uint64_t iy = rest % (uint64_t)n[1], iz = rest / (uint64_t)n[1];
    const uint64_t i[3] = {ix, iy, iz};
    for (int d = 0; d < 3; d++) p[d] = box->center[d] + ((double)i[d] - 0.5 * (n[d] - 1)) * box->step;
}

void vsg_place_transform(const vsg_place_pose *p, const double x[3], double out[3])
{
    double m[9];
    vsg_quat_to_matrix(&p->q, m);
    for (int d = 0; d < 3; d++) out[d] = m[3 * d] * x[0] + m[3 * d + 1] * x[1] + m[3 * d + 2] * x[2] + p->translation[d];
}

/* a ranks before b: lower total, then lower pose index; a NaN total ranks last. */
static int better(const vsg_place_pose *a, const vsg_place_pose *b)
{
    if (isnan(b->score.total)) return !isnan(a->score.total) || a->pose < b->pose;
    if (isnan(a->score.total)) return 0;
    return a->score.total < b->score.total || (a->score.total == b->score.total && a->pose < b->pose);
}

/* One thread's best and top-k (top sorted best first). */
typedef struct {
    int found;
    vsg_place_pose best;
    vsg_place_pose *top;
    int ntop, k;
    uint64_t scored, outside;
} keeper;

/* Inserts p into the sorted top-k list. */
static void keep_top(keeper *kp, const vsg_place_pose *p)
{
    if (kp->k <= 0) return;
    if (kp->ntop == kp->k && !better(p, &kp->top[kp->ntop - 1])) return;
    int i = kp->ntop < kp->k ? kp->ntop++ : kp->ntop - 1;
    while (i > 0 && better(p, &kp->top[i - 1])) {
        kp->top[i] = kp->top[i - 1];
        i--;
    }
    kp->top[i] = *p;
}

static void keep(keeper *kp, const vsg_place_pose *p)
{
    if (!kp->found || better(p, &kp->best)) kp->best = *p;
    kp->found = 1;
    keep_top(kp, p);
}

/* A thread's pose buffers. */
typedef struct {
    float *x, *y, *z, *q;
    uint8_t *type;
    uint32_t start[POSE_CHUNK + 1];
    uint64_t site[POSE_CHUNK];
    vsg_score_result res[POSE_CHUNK];
    int n;
} chunk;

typedef struct {
    const vsg_score_grids *g;
    const vsg_place_ligand *lig;
    const vsg_place_options *o;
    int n[3];
    uint64_t nsites;
    double c[3];
} search;

/* Scores the chunk's poses of rotation rot and offers those fully inside to kp. */
static vsg_status flush(const search *s, chunk *ch, int rot, const double m[9], keeper *kp)
{
    if (ch->n == 0) return VSG_OK;
    const size_t na = s->lig->natoms;
    vsg_score_batch b = {(size_t)ch->n, (size_t)ch->n * na, ch->start, ch->x, ch->y, ch->z, ch->q, ch->type};
    vsg_status st = vsg_score_cpu(s->g, &b, ch->res);
    if (st != VSG_OK) return st;
    kp->scored += (uint64_t)ch->n;
    for (int k = 0; k < ch->n; k++) {
        if (ch->res[k].outside > 0) { /* rejected: never kept */
            kp->outside++;
            continue;
        }
        vsg_place_pose p;
        p.rotation = rot;
        p.site = ch->site[k];
        p.pose = (uint64_t)rot * s->nsites + p.site;
        p.q = s->o->rotations[rot];
        vsg_place_site_point(&s->o->box, s->n, p.site, p.site_point);
        for (int d = 0; d < 3; d++)
            p.translation[d] = p.site_point[d] - (m[3 * d] * s->c[0] + m[3 * d + 1] * s->c[1] + m[3 * d + 2] * s->c[2]);
        p.score = ch->res[k];
        keep(kp, &p);
    }
    ch->n = 0;
    return VSG_OK;
}

/* Index range [*lo, *hi] along axis d of sites whose posed atoms (offsets in [omin, omax])
 * may stay inside the grid; *lo > *hi when none. */
static void site_range(const search *s, int d, double omin, double omax, long *lo, long *hi)
{
    const vsg_score_grids *g = s->g;
    double glo = g->origin[d], ghi = g->origin[d] + (g->n[d] - 1) * g->spacing[d];
    double p0 = s->o->box.center[d] - 0.5 * (s->n[d] - 1) * s->o->box.step, step = s->o->box.step;
    /* need p0 + i·step + omin ≥ glo − slack and p0 + i·step + omax ≤ ghi + slack */
    double a = ceil((glo - PREFILTER_SLACK - omin - p0) / step), b = floor((ghi + PREFILTER_SLACK - omax - p0) / step);
    if (a < 0) a = 0;
    if (b > s->n[d] - 1) b = s->n[d] - 1;
    *lo = (long)a;
    *hi = (long)b;
}

static vsg_status search_rotation(const search *s, int rot, double *off, chunk *ch, keeper *kp)
{
    const vsg_place_ligand *lig = s->lig;
    const size_t na = lig->natoms;
    double m[9];
    vsg_quat_to_matrix(&s->o->rotations[rot], m);
    double omin[3] = {INFINITY, INFINITY, INFINITY}, omax[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (size_t i = 0; i < na; i++) {
        double v[3] = {lig->x[i] - s->c[0], lig->y[i] - s->c[1], lig->z[i] - s->c[2]};
        for (int d = 0; d < 3; d++) {
            double w = m[3 * d] * v[0] + m[3 * d + 1] * v[1] + m[3 * d + 2] * v[2];
            off[3 * i + d] = w;
            if (w < omin[d]) omin[d] = w;
            if (w > omax[d]) omax[d] = w;
        }
    }
    long lo[3], hi[3];
    for (int d = 0; d < 3; d++) {
        site_range(s, d, omin[d], omax[d], &lo[d], &hi[d]);
        if (lo[d] > hi[d]) return VSG_OK;
    }
    ch->n = 0;
    for (long iz = lo[2]; iz <= hi[2]; iz++)
        for (long iy = lo[1]; iy <= hi[1]; iy++)
            for (long ix = lo[0]; ix <= hi[0]; ix++) {
                uint64_t site = (uint64_t)ix + (uint64_t)s->n[0] * ((uint64_t)iy + (uint64_t)s->n[1] * (uint64_t)iz);
                double sp[3];
                vsg_place_site_point(&s->o->box, s->n, site, sp);
                size_t a0 = (size_t)ch->n * na;
                for (size_t i = 0; i < na; i++) {
                    ch->x[a0 + i] = (float)(off[3 * i] + sp[0]);
                    ch->y[a0 + i] = (float)(off[3 * i + 1] + sp[1]);
                    ch->z[a0 + i] = (float)(off[3 * i + 2] + sp[2]);
                }
                ch->site[ch->n++] = site;
                if (ch->n == POSE_CHUNK) {
                    vsg_status st = flush(s, ch, rot, m, kp);
                    if (st != VSG_OK) return st;
                }
            }
    return flush(s, ch, rot, m, kp);
}

static int chunk_alloc(chunk *ch, const vsg_place_ligand *lig)
{
    const size_t na = lig->natoms, n = (size_t)POSE_CHUNK * na;
    ch->x = malloc(n * sizeof(float));
    ch->y = malloc(n * sizeof(float));
    ch->z = malloc(n * sizeof(float));
    ch->q = malloc(n * sizeof(float));
    ch->type = malloc(n);
    if (!ch->x || !ch->y || !ch->z || !ch->q || !ch->type) return 0;
    /* charges, types and offsets are the same for every pose */
    for (int k = 0; k < POSE_CHUNK; k++) {
        ch->start[k] = (uint32_t)((size_t)k * na);
        for (size_t i = 0; i < na; i++) {
            ch->q[(size_t)k * na + i] = lig->q[i];
            ch->type[(size_t)k * na + i] = lig->type ? lig->type[i] : VSG_SCORE_NO_TYPE;
        }
    }
    ch->start[POSE_CHUNK] = (uint32_t)n;
    ch->n = 0;
    return 1;
}

static void chunk_free(chunk *ch)
{
    free(ch->x);
    free(ch->y);
    free(ch->z);
    free(ch->q);
    free(ch->type);
}

vsg_status vsg_place_cpu(const vsg_score_grids *g, const vsg_place_ligand *lig, const vsg_place_options *o,
                         vsg_place_result *r)
{
    if (!g || !lig || !o || !r) return vsg_fail(VSG_E_ARG, "placement: NULL argument");
    if (!o->rotations || o->nrotations < 1) return vsg_fail(VSG_E_ARG, "placement: no rotations");
    if (o->top_k < 0 || (o->top_k > 0 && !r->top)) return vsg_fail(VSG_E_ARG, "placement: top-%d without room", o->top_k);
    if (lig->natoms < 1 || !lig->x || !lig->y || !lig->z || !lig->q)
        return vsg_fail(VSG_E_ARG, "placement: ligand without atoms");
    if (lig->natoms > ((size_t)1 << 31) / POSE_CHUNK)
        return vsg_fail(VSG_E_LIMIT, "placement: %zu atoms, more than one pose chunk holds", lig->natoms);
    if (g->kind == VSG_SCORE_AD4 && !lig->type) return vsg_fail(VSG_E_ARG, "placement: AD4 ligand without atom types");
    search s;
    memset(&s, 0, sizeof s);
    s.g = g;
    s.lig = lig;
    s.o = o;
    vsg_status st = vsg_place_lattice(&o->box, s.n);
    if (st != VSG_OK) return st;
    s.nsites = (uint64_t)s.n[0] * (uint64_t)s.n[1] * (uint64_t)s.n[2];
    if ((double)s.nsites * o->nrotations > (double)VSG_PLACE_MAX_POSES)
        return vsg_fail(VSG_E_LIMIT, "placement: %d rotations × %llu sites is more than 10^15 poses", o->nrotations,
                        (unsigned long long)s.nsites);
    for (size_t i = 0; i < lig->natoms; i++) {
        if (!isfinite(lig->x[i]) || !isfinite(lig->y[i]) || !isfinite(lig->z[i]))
            return vsg_fail(VSG_E_ARG, "placement: atom %zu has a non-finite coordinate", i + 1);
        s.c[0] += lig->x[i];
        s.c[1] += lig->y[i];
        s.c[2] += lig->z[i];
    }
    for (int d = 0; d < 3; d++) s.c[d] /= (double)lig->natoms;

    /* One probe call validates grids and types with the twin's own checks (and its message). */
    {
        uint32_t st0[2] = {0, (uint32_t)lig->natoms};
        vsg_score_batch b = {1, lig->natoms, st0, lig->x, lig->y, lig->z, lig->q, lig->type};
        vsg_score_result tmp;
        st = vsg_score_cpu(g, &b, &tmp);
        if (st != VSG_OK) return st;
    }

    vsg_place_pose *top_out = r->top;
    memset(r, 0, sizeof *r);
    r->top = top_out;
    for (int d = 0; d < 3; d++) r->centroid[d] = s.c[d];
    r->poses = s.nsites * (uint64_t)o->nrotations;

    int nthreads = 1;
#ifdef _OPENMP
    nthreads = omp_get_max_threads();
#endif
    keeper *kps = calloc((size_t)nthreads, sizeof *kps);
    vsg_place_pose *tops = o->top_k > 0 ? calloc((size_t)nthreads * (size_t)o->top_k, sizeof *tops) : NULL;
    if (!kps || (o->top_k > 0 && !tops)) {
        free(kps);
        free(tops);
        return vsg_fail(VSG_E_NOMEM, "placement: out of memory for %d threads' best poses", nthreads);
    }
    vsg_status shared_st = VSG_OK;
#pragma omp parallel num_threads(nthreads)
    {
        int t = 0;
#ifdef _OPENMP
        t = omp_get_thread_num();
#endif
        keeper *kp = &kps[t];
        kp->k = o->top_k;
        kp->top = tops ? tops + (size_t)t * (size_t)o->top_k : NULL;
        chunk ch;
        memset(&ch, 0, sizeof ch);
        double *off = malloc(3 * lig->natoms * sizeof *off);
        vsg_status my = (off && chunk_alloc(&ch, lig)) ? VSG_OK : VSG_E_NOMEM;
        if (my != VSG_OK) {
#pragma omp critical(vsg_place_status)
            if (shared_st == VSG_OK) shared_st = vsg_fail(VSG_E_NOMEM, "placement: out of memory for pose buffers");
        }
#pragma omp for schedule(dynamic, 1)
        for (int rot = 0; rot < o->nrotations; rot++) {
            if (my != VSG_OK) continue;
            vsg_status e = search_rotation(&s, rot, off, &ch, kp);
            if (e != VSG_OK) {
                my = e;
                char msg[256];
                snprintf(msg, sizeof msg, "%s", vsg_last_error()); /* the error is thread-local */
#pragma omp critical(vsg_place_status)
                if (shared_st == VSG_OK) shared_st = vsg_fail(e, "%s", msg);
            }
        }
        chunk_free(&ch);
        free(off);
    }
    st = shared_st;
    if (st == VSG_OK) {
        keeper all;
        memset(&all, 0, sizeof all);
        all.k = o->top_k;
        all.top = r->top;
        for (int t = 0; t < nthreads; t++) {
            r->scored += kps[t].scored;
            r->rejected += kps[t].outside;
            if (kps[t].found && (!all.found || better(&kps[t].best, &all.best))) all.best = kps[t].best;
            all.found |= kps[t].found;
            for (int i = 0; i < kps[t].ntop; i++) keep_top(&all, &kps[t].top[i]);
        }
        r->found = all.found;
        if (all.found) r->best = all.best;
        r->ntop = all.ntop;
        r->rejected += r->poses - r->scored;
    }
    free(kps);
    free(tops);
    return st;
}
