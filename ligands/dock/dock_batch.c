/* dock_batch.c — vsg_dock_batch (vsgrid.h): many records docked at once, on the GPU or by the
 * CPU twin. The GPU path shares every step with vsg_dock_cpu but the chains: each record is
 * prepared as the CPU prepares it (dock_prepare, in parallel over records), packed
 * (dock_pack.c), its chains run on the device (gpu/dock/dock_gpu.cu), and each chain's kept
 * minimum comes back as a conformation, whose coordinates and energy the host recomputes in
 * double before the CPU's merge, RMSD clustering and `vina --score_only` scoring (dock_finish).
 * Records over the GPU's limits (dock_gpu.h) are docked by the CPU twin in the same call. The
 * target keeps its pair table and device map sets between calls (vina_internal.h's dock_cache). */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "gpu/dock/dock_gpu.h"
#include "ligands/dock/dock_internal.h"
#include "ligands/dock/dock_method.h"
#include "ligands/dock/dock_pack.h"
#include "ligands/dock/dock_stage.h"

#define DOCK_MAX_DEVICES 16

typedef struct {
    float *pair;                            /* VSG_XS_COUNT² rows of DOCK_GPU_TABLE_SAMPLES */
    dock_gpu_maps *maps[DOCK_MAX_DEVICES];
    pthread_mutex_t mu[DOCK_MAX_DEVICES];   /* each device's upload: GPUs start their contexts at once */
} dock_cache;

static void cache_free(void *p)
{
    dock_cache *c = p;
    if (!c) return;
    for (int d = 0; d < DOCK_MAX_DEVICES; d++) dock_gpu_maps_free(c->maps[d]), pthread_mutex_destroy(&c->mu[d]);
    free(c->pair);
    free(c);
}

/* The pair table of every XS type pair, sampled as dock_energy_init samples the ligand's. */
static vsg_status pair_table(vsg_vina_scoring sf, float **out)
{
    const size_t per = DOCK_GPU_TABLE_SAMPLES;
    float *tab = malloc(sizeof(float) * per * VSG_XS_COUNT * VSG_XS_COUNT);
    if (!tab) return vsg_fail(VSG_E_NOMEM, "dock: out of memory");
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, 1)
#endif
    for (int a = 0; a < VSG_XS_COUNT; a++)
        for (int b = a; b < VSG_XS_COUNT; b++)
            for (size_t k = 0; k < per; k++) {
                vsg_vina_terms tm;
                const vsg_status st =
                    vsg_vina_pair_terms(sf, (vsg_xs_type)a, (vsg_xs_type)b, sqrt((double)k / VINA_TABLE_FACTOR), &tm);
                const float v = st == VSG_OK ? (float)tm.energy : 0.0f;
                tab[((size_t)a * VSG_XS_COUNT + (size_t)b) * per + k] = v;
                tab[((size_t)b * VSG_XS_COUNT + (size_t)a) * per + k] = v;
            }
    *out = tab;
    return VSG_OK;
}

/* The target's map set on `device`, uploaded on first use (dock_pack.h). */
vsg_status dock_gpu_target_maps(const vsg_vina_target *tc, int device, dock_gpu_maps **out)
{
    vsg_vina_target *t = (vsg_vina_target *)tc; /* the cache is the target's, not its contents */
    vsg_status st = VSG_OK;
    if (device < 0 || device >= DOCK_MAX_DEVICES) return vsg_fail(VSG_E_ARG, "dock: GPU %d out of range", device);
#ifdef _OPENMP
#pragma omp critical(vsg_dock_cache)
#endif
    {
        if (!t->dock_cache) {
            dock_cache *c = calloc(1, sizeof *c);
            if (!c) st = vsg_fail(VSG_E_NOMEM, "dock: out of memory");
            else if ((st = pair_table(t->tables.sf, &c->pair)) != VSG_OK) free(c);
            else {
                for (int d = 0; d < DOCK_MAX_DEVICES; d++) pthread_mutex_init(&c->mu[d], NULL);
                t->dock_cache = c, t->dock_cache_free = cache_free;
            }
        }
    }
    if (st != VSG_OK) return st;
    dock_cache *c = t->dock_cache;
    pthread_mutex_lock(&c->mu[device]); /* only this device's: the others upload at the same time */
    if (!c->maps[device]) {
        const double *maps[VSG_XS_COUNT];
        for (int x = 0; x < VSG_XS_COUNT; x++) maps[x] = t->map[x];
        st = dock_gpu_maps_upload(t->n, t->begin, t->end, t->factor, maps, c->pair, device, &c->maps[device]);
    }
    if (st == VSG_OK) *out = c->maps[device];
    pthread_mutex_unlock(&c->mu[device]);
    return st;
}

static void note(char (*message)[256], int i, const char *what)
{
    if (message) snprintf(message[i], sizeof message[i], "%s", what);
}

/* Record i by the CPU twin, with its seed. */
static void dock_cpu_one(const vsg_vina_target *t, const vsg_ligand *lig, const vsg_dock_params *P, uint64_t seed, int i,
                         int threads, vsg_dock_result *out, vsg_status *status, char (*message)[256])
{
    vsg_dock_params p = *P;
    p.seed = seed;
    p.threads = threads;
    status[i] = vsg_dock_cpu(t, lig, &p, &out[i]);
    if (status[i] != VSG_OK) note(message, i, vsg_last_error());
}

vsg_status dock_gpu_check_device(int *device)
{
    if (*device < 0) *device = 0;
    const int ngpu = vsg_gpu_count();
    if (*device < ngpu) return VSG_OK;
    return ngpu ? vsg_fail(VSG_E_DEVICE, "dock: no GPU %d (this host has %d)", *device, ngpu)
                : vsg_fail(VSG_E_DEVICE, "dock: no GPU found");
}

void dock_gpu_kept_free(dock_gpu_kept_set *s)
{
    if (!s) return;
    free(s->k), free(s->all), free(s->mem);
    memset(s, 0, sizeof *s);
}

vsg_status dock_gpu_kept(const dock_tree *tree, const dock_energy *en, const float *out, int stride, int nchain, int keep,
                         dock_gpu_kept_set *s)
{
    memset(s, 0, sizeof *s);
    const int nrot = tree->nrot, n = tree->natoms, slots = nchain * keep;
    const size_t per = (size_t)nrot + 3 * (size_t)tree->nheavy;
    s->k = calloc((size_t)slots + 1, sizeof *s->k);
    s->all = malloc(sizeof *s->all * ((size_t)slots + 1));
    s->mem = malloc(sizeof(double) * (per * (size_t)slots + 1));
    double *xyz = malloc(sizeof(double) * 3 * (size_t)(n > 0 ? n : 1));
    if (!s->k || !s->all || !s->mem || !xyz) {
        free(xyz);
        dock_gpu_kept_free(s);
        return vsg_fail(VSG_E_NOMEM, "dock: out of memory");
    }
    for (int c = 0; c < slots; c++) {
        const float *o = out + (size_t)c * (size_t)stride;
        if (!isfinite(o[0])) continue;
        dock_kept *e = &s->k[s->total];
        e->tor = s->mem + per * (size_t)s->total;
        e->heavy = e->tor + nrot;
        for (int j = 0; j < 3; j++) e->pos[j] = o[1 + j];
        for (int j = 0; j < 4; j++) e->q[j] = o[4 + j];
        dock_quat_normalize(e->q);
        for (int j = 0; j < nrot; j++) e->tor[j] = o[8 + j];
        dock_conf conf = {{e->pos[0], e->pos[1], e->pos[2]}, {e->q[0], e->q[1], e->q[2], e->q[3]}, e->tor};
        dock_conf_apply(tree, &conf, xyz);
        e->e = dock_energy_eval(en, xyz, DOCK_AUTHENTIC_CAP, NULL, NULL, NULL);
        for (int h = 0; h < tree->nheavy; h++)
            for (int j = 0; j < 3; j++) e->heavy[3 * h + j] = xyz[3 * tree->heavy[h] + j];
        e->chain = c / keep, e->order = c % keep;
        s->all[s->total++] = e;
    }
    free(xyz);
    return VSG_OK;
}

/* From chain outputs to the record's result: the kept minima as the CPU's, then dock_finish. */
vsg_status dock_gpu_finish_record(const vsg_vina_target *t, dock_prep *d, const float *out, int stride, int nchain, int keep,
                                  const vsg_dock_params *P, vsg_dock_result *res)
{
    dock_gpu_kept_set s;
    vsg_status st = dock_gpu_kept(&d->tree, &d->en, out, stride, nchain, keep, &s);
    if (st == VSG_OK) st = dock_finish(t, d, s.all, s.total, P, res);
    res->chains = nchain;
    dock_gpu_kept_free(&s);
    return st;
}

void dock_gpu_layout(const dock_gpu_batch *b, int *stride, int *keep)
{
    *stride = 8 + b->max_rot; /* gpu/dock's out_stride */
    *keep = b->keep > 1 ? b->keep : 1;
}

vsg_status dock_gpu_run_record(dock_gpu_maps *maps, const dock_gpu_batch *b, float **res, long *evaluations)
{
    int stride, keep;
    dock_gpu_layout(b, &stride, &keep);
    const size_t nchain = (size_t)(b->nchain > 0 ? b->nchain : 1);
    *res = malloc(sizeof(float) * (size_t)stride * (size_t)keep * nchain);
    long long *evals = calloc(nchain, sizeof *evals);
    vsg_status st = *res && evals ? dock_gpu_run(maps, b, *res, evals) : vsg_fail(VSG_E_NOMEM, "dock: out of memory");
    for (int c = 0; st == VSG_OK && c < b->nchain; c++) *evaluations += evals[c];
    free(evals);
    return st;
}

vsg_status dock_gpu_check_size(const vsg_ligand *lig, const dock_tree *tree, const char *with)
{
    if (tree->natoms <= DOCK_GPU_MAX_ATOMS && tree->nrot <= DOCK_GPU_MAX_ROTORS) return VSG_OK;
    return vsg_fail(VSG_E_LIMIT, "%s: record %ld%s: %d atoms and %d torsions, over the GPU search's %d and %d: dock it on the CPU "
                    "(--devices cpu)", lig->source ? lig->source : "?", lig->record, with, tree->natoms, tree->nrot,
                    DOCK_GPU_MAX_ATOMS, DOCK_GPU_MAX_ROTORS);
}

/* One GPU's share of a stage: its records packed, searched, the chains' minima brought back. */
typedef struct {
    int device;
    char *mine;          /* n: the records of this share */
    dock_gpu_batch b;
    float *res;
    long long *evals;
    vsg_status st;
    char err[256];       /* why the search failed (finish may run on another thread) */
    int searched;
} gpu_share;

struct dock_stage {
    const vsg_vina_target *t;
    const vsg_ligand *const *ligs;
    int n;
    vsg_dock_params P;
    vsg_device device;
    uint64_t *seed;
    dock_prep *prep;     /* GPU path: every record */
    vsg_status *pst;     /* each record's preparation */
    char (*pmsg)[256];
    char *todo;          /* records for the CPU twin */
    int nshare;
    gpu_share *share;
    double t0;
};

/* Record r of a share, finished on the CPU into out[record_of[r]]. */
static void finish_share_record(const vsg_vina_target *t, dock_prep *prep, const gpu_share *sh, int r,
                                const vsg_dock_params *P, vsg_dock_result *out, vsg_status *status, char (*message)[256])
{
    const int i = sh->b.record_of[r];
    int stride, keep;
    dock_gpu_layout(&sh->b, &stride, &keep);
    const dock_gpu_record *g = &sh->b.rec[r];
    status[i] = dock_gpu_finish_record(t, &prep[i], sh->res + (size_t)g->chain0 * (size_t)keep * (size_t)stride, stride,
                                  g->nchain, keep, P, &out[i]);
    if (status[i] != VSG_OK) {
        note(message, i, vsg_last_error());
        vsg_dock_result_release(&out[i]);
        return;
    }
    for (int c = 0; c < g->nchain; c++) out[i].evaluations += sh->evals[g->chain0 + c];
}

typedef struct {
    double cost;
    int i;
} costed;

static int costed_cmp(const void *pa, const void *pb)
{
    const costed *a = pa, *b = pb;
    if (a->cost != b->cost) return a->cost > b->cost ? -1 : 1;
    return (a->i > b->i) - (a->i < b->i);
}

void dock_stage_free(dock_stage *s)
{
    if (!s) return;
    if (s->prep)
        for (int i = 0; i < s->n; i++) dock_prep_release(&s->prep[i]);
    if (s->share)
        for (int g = 0; g < s->nshare; g++)
            dock_pack_release(&s->share[g].b), free(s->share[g].res), free(s->share[g].evals), free(s->share[g].mine);
    free(s->share), free(s->prep), free(s->pst), free(s->pmsg), free(s->todo), free(s->seed);
    free(s);
}

int dock_stage_shares(const dock_stage *s) { return s ? s->nshare : 0; }

vsg_status dock_stage_warm(const vsg_vina_target *t, int device)
{
    dock_gpu_maps *maps = NULL;
    return t ? dock_gpu_target_maps(t, device, &maps) : vsg_fail(VSG_E_ARG, "dock_stage_warm: NULL target");
}

int dock_stage_share_gpu(const dock_stage *s, int g) { return s && g >= 0 && g < s->nshare ? s->share[g].device : -1; }

/* The GPU path of prepare: records prepared, shared by cost, packed. */
static vsg_status prepare_gpu(dock_stage *s, const int *gpus, int ngpus)
{
    const int n = s->n;
    const vsg_dock_params *P = &s->P;
    s->prep = calloc((size_t)n + 1, sizeof *s->prep);
    s->pst = calloc((size_t)n + 1, sizeof *s->pst);
    s->pmsg = calloc((size_t)n + 1, sizeof *s->pmsg);
    s->share = calloc((size_t)ngpus, sizeof *s->share);
    costed *order = malloc(sizeof *order * ((size_t)n + 1));
    double *load = calloc((size_t)ngpus, sizeof *load);
    char *owner = malloc((size_t)n + 1);
    vsg_status st = VSG_OK;
    if (!s->prep || !s->pst || !s->pmsg || !s->share || !order || !load || !owner)
        st = vsg_fail(VSG_E_NOMEM, "dock: out of memory");
    if (st == VSG_OK) {
        s->nshare = ngpus;
        for (int g = 0; g < ngpus && st == VSG_OK; g++) {
            s->share[g].device = gpus[g];
            if (!(s->share[g].mine = calloc((size_t)n + 1, 1))) st = vsg_fail(VSG_E_NOMEM, "dock: out of memory");
        }
    }
    if (st == VSG_OK) {
        memset(owner, -1, (size_t)n + 1);
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, 4)
#endif
        for (int i = 0; i < n; i++) {
            s->pst[i] = dock_prepare(s->t, s->ligs[i], P, &s->prep[i]);
            if (s->pst[i] != VSG_OK) {
                note(s->pmsg, i, vsg_last_error());
                continue;
            }
            if (s->prep[i].tree.natoms > DOCK_GPU_MAX_ATOMS || s->prep[i].tree.nrot > DOCK_GPU_MAX_ROTORS) s->todo[i] = 1;
        }
        /* longest first to the least loaded GPU; a record's cost ~ its evaluations x their work */
        int m = 0;
        for (int i = 0; i < n; i++)
            if (s->pst[i] == VSG_OK && !s->todo[i]) {
                const dock_prep *d = &s->prep[i];
                const double steps = (double)P->exhaustiveness * d->steps +
                                     (double)P->focus_chains * (P->focus_steps ? P->focus_steps : 4.0 * d->steps);
                order[m].cost = steps * (d->local_steps + 1) *
                                (8.0 * d->tree.nheavy + 2.0 * d->L->npairs + 4.0 * d->tree.natoms + 40.0 * (6 + d->tree.nrot));
                order[m++].i = i;
            }
        qsort(order, (size_t)m, sizeof *order, costed_cmp);
        for (int k = 0; k < m; k++) {
            int g = 0;
            for (int j = 1; j < ngpus; j++)
                if (load[j] < load[g]) g = j;
            load[g] += order[k].cost;
            s->share[g].mine[order[k].i] = 1;
        }
        vsg_status *gst = calloc((size_t)ngpus, sizeof *gst);
        if (!gst) st = vsg_fail(VSG_E_NOMEM, "dock: out of memory");
#ifdef _OPENMP
#pragma omp parallel for schedule(static, 1) if (ngpus > 1)
#endif
        for (int g = 0; g < (gst ? ngpus : 0); g++) {
            gpu_share *sh = &s->share[g];
            gst[g] = dock_pack(s->prep, sh->mine, n, s->seed, P, &sh->b);
            if (gst[g] == VSG_OK && sh->b.nchain > 0) {
                int stride, keep;
                dock_gpu_layout(&sh->b, &stride, &keep);
                sh->res = malloc(sizeof(float) * (size_t)stride * (size_t)keep * (size_t)sh->b.nchain);
                sh->evals = malloc(sizeof(long long) * (size_t)sh->b.nchain);
                if (!sh->res || !sh->evals) gst[g] = vsg_fail(VSG_E_NOMEM, "dock: out of memory");
            }
        }
        for (int g = 0; gst && g < ngpus && st == VSG_OK; g++) st = gst[g];
        free(gst);
    }
    free(order), free(load), free(owner);
    return st;
}

vsg_status dock_stage_prepare(const vsg_vina_target *t, const vsg_ligand *const *ligs, int n, const uint64_t *seeds,
                              const vsg_dock_params *p, vsg_device device, dock_stage **out)
{
    if (!out) return vsg_fail(VSG_E_ARG, "dock_stage_prepare: NULL argument");
    *out = NULL;
    if (!t || (n > 0 && !ligs) || n < 0) return vsg_fail(VSG_E_ARG, "vsg_dock_batch: NULL argument");
    if (!t->is_maps) return vsg_fail(VSG_E_ARG, "vsg_dock_batch: the target must be a Vina map set (vsg_vina_target_maps)");
    for (int i = 0; i < n; i++)
        if (!ligs[i]) return vsg_fail(VSG_E_ARG, "vsg_dock_batch: record %d is NULL", i);
    dock_stage *s = calloc(1, sizeof *s);
    if (!s) return vsg_fail(VSG_E_NOMEM, "dock: out of memory");
    s->t0 = vsg_now();
    s->t = t, s->ligs = ligs, s->n = n, s->device = device;
    vsg_status st = dock_params_resolve(p, &s->P);
    if (st != VSG_OK) {
        free(s);
        return st;
    }
    s->todo = calloc((size_t)n + 1, 1);
    s->seed = malloc(sizeof(uint64_t) * ((size_t)n + 1));
    if (!s->todo || !s->seed) {
        dock_stage_free(s);
        return vsg_fail(VSG_E_NOMEM, "dock: out of memory");
    }
    for (int i = 0; i < n; i++) s->seed[i] = seeds ? seeds[i] : s->P.seed + (uint64_t)i;
    int gpus[DOCK_MAX_DEVICES], ngpus = 0;
    if (s->P.ngpus > 0) {
        for (int g = 0; g < s->P.ngpus && g < DOCK_MAX_DEVICES; g++) gpus[ngpus++] = s->P.gpus[g];
    } else {
        const int c = vsg_gpu_count();
        for (int g = 0; g < c && g < DOCK_MAX_DEVICES; g++) gpus[ngpus++] = g;
    }
    const int gpu = device == VSG_DEVICE_GPU || (device == VSG_DEVICE_AUTO && ngpus > 0);
    if (gpu && ngpus == 0) {
        dock_stage_free(s);
        return vsg_fail(VSG_E_DEVICE, "dock: no GPU found");
    }
    if (!gpu) {
        for (int i = 0; i < n; i++) s->todo[i] = 1;
    } else if ((st = prepare_gpu(s, gpus, ngpus)) != VSG_OK) {
        dock_stage_free(s);
        return st;
    }
    if (getenv("VSG_DOCK_TIMES")) /* a bench switch: where a batch's time goes */
        fprintf(stderr, "vsg_dock_batch: %d records on %d GPU(s): prepare %.3f s\n", n, ngpus, vsg_now() - s->t0);
    *out = s;
    return VSG_OK;
}

vsg_status dock_stage_search(dock_stage *s, int g)
{
    if (!s || g < 0 || g >= s->nshare) return vsg_fail(VSG_E_ARG, "dock_stage_search: no share %d", g);
    gpu_share *sh = &s->share[g];
    sh->searched = 1;
    sh->st = VSG_OK;
    if (sh->b.nchain == 0) return VSG_OK;
    dock_gpu_maps *maps = NULL;
    const double k0 = vsg_now();
    sh->st = dock_gpu_target_maps(s->t, sh->device, &maps);
    if (sh->st == VSG_OK) sh->st = dock_gpu_run(maps, &sh->b, sh->res, sh->evals);
    if (sh->st != VSG_OK) /* kept for finish, which reports it (or docks the share on the CPU with AUTO) */
        snprintf(sh->err, sizeof sh->err, "%s", vsg_last_error());
    if (getenv("VSG_DOCK_TIMES"))
        fprintf(stderr, "vsg_dock_batch: GPU %d: %d records, %d chains: search %.3f s\n", sh->device, sh->b.nrec,
                sh->b.nchain, vsg_now() - k0);
    return sh->st;
}

vsg_status dock_stage_finish(dock_stage *s, vsg_dock_result *out, vsg_status *status, char (*message)[256])
{
    if (!s || (s->n > 0 && (!out || !status))) return vsg_fail(VSG_E_ARG, "dock_stage_finish: NULL argument");
    const int n = s->n;
    const vsg_dock_params *P = &s->P;
    for (int i = 0; i < n; i++) {
        memset(&out[i], 0, sizeof out[i]);
        status[i] = VSG_OK;
        if (message) message[i][0] = 0;
    }
    vsg_status st = VSG_OK;
    char failed[256] = "";
    for (int g = 0; g < s->nshare; g++) {
        if (!s->share[g].searched && st == VSG_OK) dock_stage_search(s, g); /* not searched yet: here */
        if (s->share[g].st != VSG_OK && st == VSG_OK) {
            st = s->share[g].st;
            snprintf(failed, sizeof failed, "%s", s->share[g].err);
        }
    }
    if (st != VSG_OK) {
        if (s->device == VSG_DEVICE_GPU || st == VSG_E_NOMEM)
            return st == VSG_E_NOMEM ? vsg_fail(st, "dock: out of memory") : vsg_fail(VSG_E_DEVICE, "%s", failed);
        for (int i = 0; i < n; i++) s->todo[i] = 1; /* AUTO: the CPU twin does it all */
    } else if (s->nshare > 0) {
        for (int i = 0; i < n; i++)
            if (s->pst[i] != VSG_OK) status[i] = s->pst[i], note(message, i, s->pmsg[i]);
        int total = 0;
        for (int g = 0; g < s->nshare; g++) total += s->share[g].b.nrec;
        /* every record finished by all the host's threads */
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, 1)
#endif
        for (int k = 0; k < total; k++) {
            int g = 0, r = k;
            while (r >= s->share[g].b.nrec) r -= s->share[g].b.nrec, g++;
            finish_share_record(s->t, s->prep, &s->share[g], r, P, out, status, message);
        }
        const double each = n > 0 ? (vsg_now() - s->t0) / n : 0;
        for (int i = 0; i < n; i++) out[i].seconds = each;
    }
    int left = 0, threads = 1;
    for (int i = 0; i < n; i++) left += s->todo[i];
#ifdef _OPENMP
    threads = omp_get_max_threads();
#endif
    if (left >= threads) {
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, 1)
#endif
        for (int i = 0; i < n; i++)
            if (s->todo[i]) dock_cpu_one(s->t, s->ligs[i], P, s->seed[i], i, 1, out, status, message);
    } else {
        for (int i = 0; i < n; i++)
            if (s->todo[i]) dock_cpu_one(s->t, s->ligs[i], P, s->seed[i], i, P->threads, out, status, message);
    }
    return VSG_OK;
}

vsg_device vsg_dock_auto_device(const vsg_dock_params *p)
{
    if (vsg_gpu_count() < 1) return VSG_DEVICE_CPU;
    vsg_dock_params d;
    vsg_dock_params_default(&d);
    const int chains = p && p->exhaustiveness > 0 ? p->exhaustiveness : d.exhaustiveness;
    const int focus = p && p->focus_chains > 0 ? p->focus_chains : 0;
    /* a record's own effort alone decides (never the thread count or the batch), so a seed gives
     * the same poses whatever --threads and whichever records are docked with it */
    return chains + focus <= VSG_DOCK_AUTO_CPU_CHAINS ? VSG_DEVICE_CPU : VSG_DEVICE_GPU;
}

vsg_status vsg_dock_batch(const vsg_vina_target *t, const vsg_ligand *const *ligs, int n, const uint64_t *seeds,
                          const vsg_dock_params *p, vsg_device device, vsg_dock_result *out, vsg_status *status,
                          char (*message)[256])
{
    if (!t || (n > 0 && (!ligs || !out || !status)) || n < 0) return vsg_fail(VSG_E_ARG, "vsg_dock_batch: NULL argument");
    /* few chains run faster on the host's cores, one each, than on GPU warps (vsg_dock_auto_device);
     * else AUTO stays AUTO: a GPU that fails hands the batch to the CPU twin */
    if (device == VSG_DEVICE_AUTO && vsg_dock_auto_device(p) == VSG_DEVICE_CPU) device = VSG_DEVICE_CPU;
    dock_stage *s = NULL;
    vsg_status st = dock_stage_prepare(t, ligs, n, seeds, p, device, &s);
    if (st != VSG_OK) return st;
    const int shares = dock_stage_shares(s);
    /* each GPU searches its share from its own host thread */
    if (shares > 0) {
#ifdef _OPENMP
#pragma omp parallel for schedule(static, 1) num_threads(shares) if (shares > 1)
#endif
        for (int g = 0; g < shares; g++) dock_stage_search(s, g);
    }
    st = dock_stage_finish(s, out, status, message);
    dock_stage_free(s);
    return st;
}
