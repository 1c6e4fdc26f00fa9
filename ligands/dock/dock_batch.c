/* dock_batch.c — vsg_dock_batch (vsgrid.h): many records docked at once, on the GPU or by the
 * CPU twin. The GPU path shares every step with vsg_dock_cpu but the chains: each record is
 * prepared as the CPU prepares it (dock_prepare, in parallel over records), packed
 * (dock_pack.c), its chains run on the device (gpu/dock/dock_gpu.cu), and each chain's kept
 * minimum comes back as a conformation, whose coordinates and energy the host recomputes in
 * double before the CPU's merge, RMSD clustering and `vina --score_only` scoring (dock_finish).
 * Records over the GPU's limits (dock_gpu.h) are docked by the CPU twin in the same call. The
 * target keeps its pair table and device map sets between calls (vina_internal.h's dock_cache). */
#include <math.h>
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

#define DOCK_MAX_DEVICES 16

typedef struct {
    float *pair;                            /* VSG_XS_COUNT² rows of DOCK_GPU_TABLE_SAMPLES */
    dock_gpu_maps *maps[DOCK_MAX_DEVICES];
} dock_cache;

static void cache_free(void *p)
{
    dock_cache *c = p;
    if (!c) return;
    for (int d = 0; d < DOCK_MAX_DEVICES; d++) dock_gpu_maps_free(c->maps[d]);
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

/* The target's map set on `device`, uploaded on first use. */
static vsg_status device_maps(const vsg_vina_target *tc, int device, dock_gpu_maps **out)
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
            else t->dock_cache = c, t->dock_cache_free = cache_free;
        }
        dock_cache *c = t->dock_cache;
        if (st == VSG_OK && !c->maps[device]) {
            const double *maps[VSG_XS_COUNT];
            for (int x = 0; x < VSG_XS_COUNT; x++) maps[x] = t->map[x];
            st = dock_gpu_maps_upload(t->n, t->begin, t->end, t->factor, maps, c->pair, device, &c->maps[device]);
        }
        if (st == VSG_OK) *out = c->maps[device];
    }
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

/* From chain outputs to the record's result: each chain's minimum as the CPU's kept entry,
 * its coordinates and energy recomputed in double, then dock_finish. */
static vsg_status finish_gpu_record(const vsg_vina_target *t, dock_prep *d, const float *out, int stride, int nchain,
                                    const vsg_dock_params *P, vsg_dock_result *res)
{
    const dock_tree *tree = &d->tree;
    const int nrot = tree->nrot, n = tree->natoms;
    const size_t per = (size_t)nrot + 3 * (size_t)tree->nheavy;
    dock_kept *k = calloc((size_t)nchain + 1, sizeof *k);
    dock_kept **all = malloc(sizeof *all * ((size_t)nchain + 1));
    double *mem = malloc(sizeof(double) * (per * (size_t)nchain + 1));
    double *xyz = malloc(sizeof(double) * 3 * (size_t)(n > 0 ? n : 1));
    vsg_status st = VSG_OK;
    if (!k || !all || !mem || !xyz) st = vsg_fail(VSG_E_NOMEM, "dock: out of memory");
    int total = 0;
    for (int c = 0; c < nchain && st == VSG_OK; c++) {
        const float *o = out + (size_t)c * (size_t)stride;
        if (!isfinite(o[0])) continue;
        dock_kept *e = &k[total];
        e->tor = mem + per * (size_t)total;
        e->heavy = e->tor + nrot;
        for (int j = 0; j < 3; j++) e->pos[j] = o[1 + j];
        for (int j = 0; j < 4; j++) e->q[j] = o[4 + j];
        dock_quat_normalize(e->q);
        for (int j = 0; j < nrot; j++) e->tor[j] = o[8 + j];
        dock_conf conf = {{e->pos[0], e->pos[1], e->pos[2]}, {e->q[0], e->q[1], e->q[2], e->q[3]}, e->tor};
        dock_conf_apply(tree, &conf, xyz);
        e->e = dock_energy_eval(&d->en, xyz, DOCK_AUTHENTIC_CAP, NULL, NULL, NULL);
        for (int h = 0; h < tree->nheavy; h++)
            for (int j = 0; j < 3; j++) e->heavy[3 * h + j] = xyz[3 * tree->heavy[h] + j];
        e->chain = c, e->order = 0;
        all[total] = e;
        total++;
    }
    if (st == VSG_OK) st = dock_finish(t, d, all, total, P, res);
    res->chains = nchain;
    free(k), free(all), free(mem), free(xyz);
    return st;
}

/* One GPU's share of a batch: its records packed, run, the chains' minima brought back. */
typedef struct {
    dock_gpu_batch b;
    float *res;
    long long *evals;
    vsg_status st;
} gpu_share;

/* Packs and runs the records i with mine[i] on `device` (the caller's thread for that GPU). */
static vsg_status run_share(const vsg_vina_target *t, dock_prep *prep, const char *mine, int n, const uint64_t *seed,
                            const vsg_dock_params *P, int device, gpu_share *sh)
{
    memset(sh, 0, sizeof *sh);
    dock_gpu_maps *maps = NULL;
    vsg_status st = device_maps(t, device, &maps);
    if (st != VSG_OK) return st;
    st = dock_pack(prep, mine, n, seed, P, &sh->b);
    if (st == VSG_OK && sh->b.nchain > 0) {
        sh->res = malloc(sizeof(float) * (size_t)(8 + sh->b.max_rot) * (size_t)sh->b.nchain);
        sh->evals = malloc(sizeof(long long) * (size_t)sh->b.nchain);
        if (!sh->res || !sh->evals) st = vsg_fail(VSG_E_NOMEM, "dock: out of memory");
        const double k0 = vsg_now();
        if (st == VSG_OK) st = dock_gpu_run(maps, &sh->b, sh->res, sh->evals);
        if (getenv("VSG_DOCK_TIMES"))
            fprintf(stderr, "vsg_dock_batch: GPU %d: %d records, %d chains: search %.3f s\n", device, sh->b.nrec,
                    sh->b.nchain, vsg_now() - k0);
    }
    return st;
}

/* Record r of a share, finished on the CPU into out[record_of[r]]. */
static void finish_share_record(const vsg_vina_target *t, dock_prep *prep, const gpu_share *sh, int r,
                                const vsg_dock_params *P, vsg_dock_result *out, vsg_status *status, char (*message)[256])
{
    const int stride = 8 + sh->b.max_rot, i = sh->b.record_of[r];
    const dock_gpu_record *g = &sh->b.rec[r];
    status[i] = finish_gpu_record(t, &prep[i], sh->res + (size_t)g->chain0 * (size_t)stride, stride, g->nchain, P, &out[i]);
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

/* The GPU path: returns VSG_OK when the batch ran; a record that could not be prepared has its
 * status and message; one over the GPU's limits is left to the caller (todo). */
static vsg_status dock_gpu(const vsg_vina_target *t, const vsg_ligand *const *ligs, int n, const uint64_t *seed,
                           const vsg_dock_params *P, const int *gpus, int ngpus, vsg_dock_result *out, vsg_status *status,
                           char (*message)[256], char *todo)
{
    dock_prep *prep = calloc((size_t)n + 1, sizeof *prep);
    char *owner = malloc((size_t)n + 1), *mine = malloc(((size_t)n + 1) * (size_t)ngpus);
    costed *order = malloc(sizeof *order * ((size_t)n + 1));
    double *load = calloc((size_t)ngpus, sizeof *load);
    vsg_status *gst = calloc((size_t)ngpus, sizeof *gst);
    if (!prep || !owner || !mine || !order || !load || !gst) {
        free(prep), free(owner), free(mine), free(order), free(load), free(gst);
        return vsg_fail(VSG_E_NOMEM, "dock: out of memory");
    }
    memset(owner, -1, (size_t)n + 1);
    const double t0 = vsg_now();
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, 4)
#endif
    for (int i = 0; i < n; i++) {
        status[i] = dock_prepare(t, ligs[i], P, &prep[i]);
        if (status[i] != VSG_OK) {
            note(message, i, vsg_last_error());
            continue;
        }
        if (prep[i].tree.natoms > DOCK_GPU_MAX_ATOMS || prep[i].tree.nrot > DOCK_GPU_MAX_ROTORS) todo[i] = 1;
    }
    /* longest first to the least loaded GPU; a record's cost ~ its evaluations × their work */
    int m = 0;
    for (int i = 0; i < n; i++)
        if (status[i] == VSG_OK && !todo[i]) {
            const dock_prep *d = &prep[i];
            order[m].cost = (double)P->exhaustiveness * d->steps * (d->local_steps + 1) *
                            (8.0 * d->tree.nheavy + 2.0 * d->L->npairs + 4.0 * d->tree.natoms + 40.0 * (6 + d->tree.nrot));
            order[m++].i = i;
        }
    qsort(order, (size_t)m, sizeof *order, costed_cmp);
    for (int k = 0; k < m; k++) {
        int g = 0;
        for (int j = 1; j < ngpus; j++)
            if (load[j] < load[g]) g = j;
        load[g] += order[k].cost;
        owner[order[k].i] = (char)g;
    }
    for (int g = 0; g < ngpus; g++)
        for (int i = 0; i < n; i++) mine[(size_t)g * ((size_t)n + 1) + (size_t)i] = owner[i] == g;
    const double t1 = vsg_now();
    /* each GPU searches its share from its own host thread; then every record is finished by
     * all the host's threads (a nested parallel region would run single-threaded) */
    gpu_share *share = calloc((size_t)ngpus, sizeof *share);
    vsg_status st = share ? VSG_OK : vsg_fail(VSG_E_NOMEM, "dock: out of memory");
    if (share) {
#ifdef _OPENMP
#pragma omp parallel for schedule(static, 1) num_threads(ngpus) if (ngpus > 1)
#endif
        for (int g = 0; g < ngpus; g++)
            gst[g] = run_share(t, prep, mine + (size_t)g * ((size_t)n + 1), n, seed, P, gpus[g], &share[g]);
        for (int g = 0; g < ngpus && st == VSG_OK; g++) st = gst[g];
    }
    if (st == VSG_OK) {
        int total = 0;
        for (int g = 0; g < ngpus; g++) total += share[g].b.nrec;
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, 1)
#endif
        for (int k = 0; k < total; k++) {
            int g = 0, r = k;
            while (r >= share[g].b.nrec) r -= share[g].b.nrec, g++;
            finish_share_record(t, prep, &share[g], r, P, out, status, message);
        }
    }
    if (share)
        for (int g = 0; g < ngpus; g++) dock_pack_release(&share[g].b), free(share[g].res), free(share[g].evals);
    free(share);
    if (getenv("VSG_DOCK_TIMES")) /* a bench switch: where a batch's time goes */
        fprintf(stderr, "vsg_dock_batch: %d records on %d GPU(s): prepare %.3f s, search + finish %.3f s\n", n, ngpus,
                t1 - t0, vsg_now() - t1);
    for (int i = 0; i < n; i++) dock_prep_release(&prep[i]);
    free(prep), free(owner), free(mine), free(order), free(load), free(gst);
    return st;
}

vsg_status vsg_dock_batch(const vsg_vina_target *t, const vsg_ligand *const *ligs, int n, const uint64_t *seeds,
                          const vsg_dock_params *p, vsg_device device, vsg_dock_result *out, vsg_status *status,
                          char (*message)[256])
{
    if (!t || (n > 0 && (!ligs || !out || !status)) || n < 0) return vsg_fail(VSG_E_ARG, "vsg_dock_batch: NULL argument");
    if (!t->is_maps) return vsg_fail(VSG_E_ARG, "vsg_dock_batch: the target must be a Vina map set (vsg_vina_target_maps)");
    vsg_dock_params P;
    vsg_status st = dock_params_resolve(p, &P);
    if (st != VSG_OK) return st;
    for (int i = 0; i < n; i++) {
        memset(&out[i], 0, sizeof out[i]);
        status[i] = VSG_OK;
        if (message) message[i][0] = 0;
        if (!ligs[i]) return vsg_fail(VSG_E_ARG, "vsg_dock_batch: record %d is NULL", i);
    }
    char *todo = calloc((size_t)n + 1, 1);
    uint64_t *seed = malloc(sizeof(uint64_t) * ((size_t)n + 1));
    if (!todo || !seed) {
        free(todo), free(seed);
        return vsg_fail(VSG_E_NOMEM, "dock: out of memory");
    }
    for (int i = 0; i < n; i++) seed[i] = seeds ? seeds[i] : P.seed + (uint64_t)i;
    int gpus[16], ngpus = 0;
    if (P.ngpus > 0) {
        for (int g = 0; g < P.ngpus && g < 16; g++) gpus[ngpus++] = P.gpus[g];
    } else {
        const int c = vsg_gpu_count();
        for (int g = 0; g < c && g < 16; g++) gpus[ngpus++] = g;
    }
    const int gpu = device == VSG_DEVICE_GPU || (device == VSG_DEVICE_AUTO && ngpus > 0);
    if (gpu && ngpus == 0) {
        free(todo), free(seed);
        return vsg_fail(VSG_E_DEVICE, "dock: no GPU found");
    }
    if (gpu) {
        const double t0 = vsg_now();
        st = dock_gpu(t, ligs, n, seed, &P, gpus, ngpus, out, status, message, todo);
        const double each = n > 0 ? (vsg_now() - t0) / n : 0;
        for (int i = 0; i < n; i++) out[i].seconds = each;
        if (st != VSG_OK) {
            for (int i = 0; i < n; i++) vsg_dock_result_release(&out[i]);
            if (device == VSG_DEVICE_GPU || st == VSG_E_NOMEM) {
                free(todo), free(seed);
                return st == VSG_E_NOMEM ? st : vsg_fail(VSG_E_DEVICE, "%s", vsg_last_error());
            }
            for (int i = 0; i < n; i++) todo[i] = 1, status[i] = VSG_OK; /* AUTO: the CPU twin does it all */
            st = VSG_OK;
        }
    } else {
        for (int i = 0; i < n; i++) todo[i] = 1;
    }
    int left = 0, threads = 1;
    for (int i = 0; i < n; i++) left += todo[i];
#ifdef _OPENMP
    threads = omp_get_max_threads();
#endif
    if (left >= threads) {
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, 1)
#endif
        for (int i = 0; i < n; i++)
            if (todo[i]) dock_cpu_one(t, ligs[i], &P, seed[i], i, 1, out, status, message);
    } else {
        for (int i = 0; i < n; i++)
            if (todo[i]) dock_cpu_one(t, ligs[i], &P, seed[i], i, P.threads, out, status, message);
    }
    free(todo), free(seed);
    return VSG_OK;
}
