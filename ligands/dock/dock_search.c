/* dock_search.c — vsg_dock_cpu (vsgrid.h, "Flexible docking (CPU twin)"): Monte Carlo chains of
 * perturbation + BFGS with Metropolis acceptance, the method of AutoDock Vina 1.2
 * (monte_carlo.cpp, mutate.cpp), each chain keeping its best distinct minima; the chains' poses
 * merged in chain order, ranked, made distinct by RMSD and scored as `vina --score_only` would. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "ligands/dock/dock_internal.h"
#include "ligands/dock/dock_method.h"
#include "ligands/dock/dock_rng.h"


typedef dock_kept kept;

typedef struct {
    int n;
    kept *k;      /* cap + 1 slots: slot n is the scratch a new minimum is written to */
    double *mem;
} kept_list;

static void kept_set(kept *k, const dock_tree *t, const dock_conf *c, double e, const double *xyz)
{
    k->e = e;
    memcpy(k->pos, c->pos, sizeof k->pos);
    memcpy(k->q, c->q, sizeof k->q);
    if (t->nrot) memcpy(k->tor, c->tor, sizeof(double) * (size_t)t->nrot);
    for (int h = 0; h < t->nheavy; h++)
        for (int d = 0; d < 3; d++) k->heavy[3 * h + d] = xyz[3 * t->heavy[h] + d];
}

static void kept_swap(kept *a, kept *b)
{
    kept x = *a;
    *a = *b;
    *b = x;
}

/* Vina's add_to_output_container: a pose within min_rmsd of a kept one replaces it when
 * better (else is dropped); a new one is added while there is room, or replaces the worst
 * when better. The list stays sorted by energy. Slot n is the scratch the caller filled. */
static void kept_add(kept_list *L, const dock_tree *t, double min_rmsd, int cap)
{
    kept *nw = &L->k[L->n];
    int close = -1;
    double best = 0;
    for (int i = 0; i < L->n; i++) {
        const double r = dock_rmsd_heavy(L->k[i].heavy, nw->heavy, t->nheavy);
        if (r < min_rmsd && (close < 0 || r < best)) close = i, best = r;
    }
    int at;
    if (close >= 0) {
        if (!(nw->e < L->k[close].e)) return;
        kept_swap(&L->k[close], nw);
        at = close;
    } else if (L->n < cap) {
        at = L->n++;
    } else {
        if (!(nw->e < L->k[L->n - 1].e)) return;
        kept_swap(&L->k[L->n - 1], nw);
        at = L->n - 1;
    }
    while (at > 0 && L->k[at].e < L->k[at - 1].e) kept_swap(&L->k[at], &L->k[at - 1]), at--;
    while (at + 1 < L->n && L->k[at + 1].e < L->k[at].e) kept_swap(&L->k[at], &L->k[at + 1]), at++;
}

static int kept_list_init(kept_list *L, const dock_tree *t, int slots)
{
    const size_t per = (size_t)t->nrot + 3 * (size_t)t->nheavy;
    L->n = 0;
    L->k = calloc((size_t)slots, sizeof *L->k);
    L->mem = malloc(sizeof(double) * per * (size_t)slots + 1);
    if (!L->k || !L->mem) return 0;
    for (int i = 0; i < slots; i++) {
        L->k[i].tor = L->mem + per * (size_t)i;
        L->k[i].heavy = L->k[i].tor + t->nrot;
    }
    return 1;
}

typedef struct {
    const dock_tree *tree;
    const dock_energy *en;
    const double *begin, *end; /* the box random starts are drawn in */
    uint64_t seed;
    int local_steps, random_start, keep;
    double min_rmsd;
    double focus_amplitude; /* a focus chain's moves, a fraction (0, 1] of an exploring chain's */
} chain_job;

/* One chain: stream `chain` of the seed; from start (a kept minimum: a focus chain) when given,
 * else from a random pose or the input pose. */
static vsg_status run_chain(const chain_job *J, int chain, const kept *start, int steps, kept_list *out, long *evals)
{
    const dock_tree *t = J->tree;
    const int nrot = t->nrot;
    dock_work w;
    vsg_status st = dock_work_init(&w, t, J->en);
    if (st != VSG_OK) return st;
    double *tors = malloc(sizeof(double) * (size_t)(2 * nrot + 1));
    if (!tors || !kept_list_init(out, t, J->keep + 1)) {
        free(tors);
        dock_work_release(&w);
        return vsg_fail(VSG_E_NOMEM, "dock: out of memory");
    }
    dock_conf cur = {{0}, {1, 0, 0, 0}, tors}, cand = {{0}, {1, 0, 0, 0}, tors + nrot};
    dock_rng rng = dock_rng_for(J->seed, (uint64_t)chain);
    if (start) {
        memcpy(cur.pos, start->pos, sizeof cur.pos);
        memcpy(cur.q, start->q, sizeof cur.q);
        if (nrot) memcpy(cur.tor, start->tor, sizeof(double) * (size_t)nrot);
    } else if (J->random_start) {
        for (int d = 0; d < 3; d++) cur.pos[d] = dock_rng_range(&rng, J->begin[d], J->end[d]);
        dock_rng_quat(&rng, cur.q);
        for (int k = 0; k < nrot; k++) cur.tor[k] = dock_rng_range(&rng, -DOCK_PI, DOCK_PI);
    } else {
        memcpy(cur.pos, t->origin0, sizeof cur.pos);
        for (int k = 0; k < nrot; k++) cur.tor[k] = 0;
    }
    double cur_e = 0, best_e = HUGE_VAL;
    const int entities = 2 + nrot;
    /* a focus chain's moves: small ones walk the start's basin (vsgrid.h, focus_amplitude) */
    const double amp = start ? J->focus_amplitude : 1.0; /* resolved (dock_params_resolve): 0 is 1 */
    for (int step = 0; step < steps; step++) {
        memcpy(cand.pos, cur.pos, sizeof cand.pos);
        memcpy(cand.q, cur.q, sizeof cand.q);
        if (nrot) memcpy(cand.tor, cur.tor, sizeof(double) * (size_t)nrot);
        /* one of: position, orientation, a torsion */
        const int which = dock_rng_int(&rng, entities);
        if (which == 0) {
            double v[3];
            dock_rng_in_sphere(&rng, v);
            for (int d = 0; d < 3; d++) cand.pos[d] += amp * DOCK_AMPLITUDE * v[d];
        } else if (which == 1) {
            double v[3];
            dock_rng_in_sphere(&rng, v);
            if (t->gyration > 1e-9) { /* a rotation vector of up to 2 Å at the radius of gyration */
                const double f = amp * DOCK_AMPLITUDE / t->gyration, dv[6] = {0, 0, 0, v[0] * f, v[1] * f, v[2] * f};
                dock_tree rigid = *t;
                rigid.nrot = 0; /* the increment then reads the 6 rigid floats only */
                dock_conf_increment(&rigid, &cand, dv, 1.0);
            }
        } else {
            if (amp < 1) cand.tor[which - 2] += amp * dock_rng_range(&rng, -DOCK_PI, DOCK_PI);
            else cand.tor[which - 2] = dock_rng_range(&rng, -DOCK_PI, DOCK_PI);
        }
        const double e = dock_bfgs(&w, &cand, J->local_steps, DOCK_HUNT_CAP);
        int accept = step == 0 || e < cur_e;
        if (!accept) accept = dock_rng_uniform(&rng) < exp((cur_e - e) / DOCK_TEMPERATURE);
        if (!accept) continue;
        double *swap = cur.tor;
        cur.tor = cand.tor, cand.tor = swap;
        memcpy(cur.pos, cand.pos, sizeof cur.pos);
        memcpy(cur.q, cand.q, sizeof cur.q);
        cur_e = e;
        if (cur_e < best_e || out->n < J->keep) {
            cur_e = dock_bfgs(&w, &cur, J->local_steps, DOCK_AUTHENTIC_CAP);
            dock_conf_apply(t, &cur, w.xyz);
            kept *slot = &out->k[out->n];
            kept_set(slot, t, &cur, cur_e, w.xyz);
            slot->chain = chain, slot->order = step;
            kept_add(out, t, J->min_rmsd, J->keep);
            if (cur_e < best_e) best_e = cur_e;
        }
    }
    *evals = w.evals;
    free(tors);
    dock_work_release(&w);
    return VSG_OK;
}

struct dock_chains {
    int chains;
    kept_list *lists;
    kept **all;
};

static void kept_copy(kept *to, const kept *from, const dock_tree *t)
{
    to->e = from->e;
    memcpy(to->pos, from->pos, sizeof to->pos);
    memcpy(to->q, from->q, sizeof to->q);
    if (t->nrot) memcpy(to->tor, from->tor, sizeof(double) * (size_t)t->nrot);
    memcpy(to->heavy, from->heavy, sizeof(double) * 3 * (size_t)t->nheavy);
    to->chain = from->chain, to->order = from->order;
}

/* The best minimum of chain a before chain b's (ties: the lower chain). */
static int chain_before(const kept_list *a, int ia, const kept_list *b, int ib)
{
    if (!b->n) return a->n > 0 ? 1 : ia < ib;
    if (!a->n) return 0;
    if (a->k[0].e != b->k[0].e) return a->k[0].e < b->k[0].e;
    return ia < ib;
}

/* The focus chains (vsgrid.h, "Flexible docking"): focus chain j from the best minimum of the
 * (j mod chains)-th best chain, stream chains + j; its kept minima join that chain's list, in
 * j order (the merge, like the chains' own, is independent of threads). */
static vsg_status focus(const chain_job *J, dock_chains *c, int nfocus, int steps, int threads, long *evals)
{
    const int chains = c->chains;
    int *rank = malloc(sizeof(int) * (size_t)chains), ranked = 0;
    kept_list *lists = calloc((size_t)nfocus, sizeof *lists);
    long *ev = calloc((size_t)nfocus, sizeof *ev);
    vsg_status *fst = calloc((size_t)nfocus, sizeof *fst), st = VSG_OK;
    if (!rank || !lists || !ev || !fst) { st = vsg_fail(VSG_E_NOMEM, "dock: out of memory"); goto done; }
    for (int k = 0; k < chains; k++) { /* insertion sort: chains are few */
        if (!c->lists[k].n) continue;
        int at = ranked++;
        while (at > 0 && chain_before(&c->lists[k], k, &c->lists[rank[at - 1]], rank[at - 1])) rank[at] = rank[at - 1], at--;
        rank[at] = k;
    }
    if (!ranked) goto done;
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
#endif
    for (int j = 0; j < nfocus; j++) {
        const kept_list *from = &c->lists[rank[j % ranked]];
        fst[j] = run_chain(J, chains + j, &from->k[0], steps, &lists[j], &ev[j]);
    }
    (void)threads;
    for (int j = 0; j < nfocus && st == VSG_OK; j++) {
        if (fst[j] != VSG_OK) { st = vsg_fail(fst[j], "dock: a focus chain failed (%s)", vsg_status_name(fst[j])); break; }
        if (evals) *evals += ev[j];
        kept_list *to = &c->lists[rank[j % ranked]];
        for (int i = 0; i < lists[j].n; i++) {
            kept_copy(&to->k[to->n], &lists[j].k[i], J->tree);
            kept_add(to, J->tree, J->min_rmsd, J->keep);
        }
    }
done:
    if (lists)
        for (int j = 0; j < nfocus; j++) free(lists[j].mem), free(lists[j].k);
    free(lists);
    free(rank);
    free(ev);
    free(fst);
    return st;
}

void dock_chains_free(dock_chains *c)
{
    if (!c) return;
    if (c->lists)
        for (int i = 0; i < c->chains; i++) free(c->lists[i].mem), free(c->lists[i].k);
    free(c->lists);
    free(c->all);
    free(c);
}

vsg_status dock_chains_run(const dock_tree *tree, const dock_energy *en, const double begin[3], const double end[3],
                           const vsg_dock_params *P, int steps, int local_steps, dock_chains **store, kept ***all,
                           int *total, long *evals)
{
    const int chains = P->exhaustiveness;
    *store = NULL, *all = NULL, *total = 0;
    dock_chains *c = calloc(1, sizeof *c);
    long *ev = calloc((size_t)chains + 1, sizeof *ev);
    vsg_status *chain_st = calloc((size_t)chains + 1, sizeof *chain_st), st = VSG_OK;
    if (c) c->chains = chains, c->lists = calloc((size_t)chains + 1, sizeof *c->lists);
    if (!c || !c->lists || !ev || !chain_st) {
        st = vsg_fail(VSG_E_NOMEM, "dock: out of memory");
        goto done;
    }
    chain_job J = {tree, en, begin, end, P->seed, local_steps, P->random_start, P->chain_keep, P->min_rmsd,
                   P->focus_amplitude};
    int threads = P->threads;
#ifdef _OPENMP
    if (threads <= 0) threads = omp_get_max_threads();
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
#endif
    for (int k = 0; k < chains; k++) chain_st[k] = run_chain(&J, k, NULL, steps, &c->lists[k], &ev[k]);
    for (int k = 0; k < chains; k++) {
        if (chain_st[k] != VSG_OK && st == VSG_OK) st = chain_st[k];
        if (evals) *evals += ev[k];
    }
    if (st != VSG_OK) { st = vsg_fail(st, "dock: a chain failed (%s)", vsg_status_name(st)); goto done; }
    if (P->focus_chains > 0 && (st = focus(&J, c, P->focus_chains, P->focus_steps ? P->focus_steps : 4 * steps, threads,
                                           evals)) != VSG_OK)
        goto done;
    (void)threads;
    int n = 0;
    for (int k = 0; k < chains; k++) n += c->lists[k].n;
    c->all = malloc(sizeof *c->all * (size_t)(n + 1));
    if (!c->all) { st = vsg_fail(VSG_E_NOMEM, "dock: out of memory"); goto done; }
    n = 0;
    for (int k = 0; k < chains; k++)
        for (int i = 0; i < c->lists[k].n; i++) c->all[n++] = &c->lists[k].k[i];
    *all = c->all, *total = n;
done:
    free(ev);
    free(chain_st);
    if (st != VSG_OK) dock_chains_free(c), c = NULL;
    *store = c;
    return st;
}

vsg_status vsg_dock_cpu(const vsg_vina_target *t, const vsg_ligand *lig, const vsg_dock_params *p, vsg_dock_result *out)
{
    if (!out) return vsg_fail(VSG_E_ARG, "vsg_dock_cpu: NULL argument");
    memset(out, 0, sizeof *out);
    if (!t || !lig) return vsg_fail(VSG_E_ARG, "vsg_dock_cpu: NULL argument");
    if (!t->is_maps) return vsg_fail(VSG_E_ARG, "vsg_dock_cpu: the target must be a Vina map set (vsg_vina_target_maps)");
    vsg_dock_params P;
    vsg_status st = dock_params_resolve(p, &P);
    if (st != VSG_OK) return st;
    const double t0 = vsg_now();
    dock_prep d;
    if ((st = dock_prepare(t, lig, &P, &d)) != VSG_OK) {
        out->seconds = vsg_now() - t0;
        return st;
    }
    const int chains = P.exhaustiveness;
    dock_chains *store = NULL;
    kept **all = NULL;
    int total = 0;
    if ((st = dock_chains_run(&d.tree, &d.en, t->begin, t->end, &P, d.steps, d.local_steps, &store, &all, &total,
                              &out->evaluations)) != VSG_OK)
        goto done;
    st = dock_finish(t, &d, all, total, &P, out);
    out->chains = chains;
done:
    dock_chains_free(store);
    dock_prep_release(&d);
    out->seconds = vsg_now() - t0;
    if (st != VSG_OK) vsg_dock_result_release(out);
    return st;
}

vsg_status vsg_dock_local(const vsg_vina_target *t, const vsg_ligand *lig, const vsg_dock_params *p, vsg_dock_result *out)
{
    if (!out) return vsg_fail(VSG_E_ARG, "vsg_dock_local: NULL argument");
    memset(out, 0, sizeof *out);
    if (!t || !lig) return vsg_fail(VSG_E_ARG, "vsg_dock_local: NULL argument");
    if (!t->is_maps) return vsg_fail(VSG_E_ARG, "vsg_dock_local: the target must be a Vina map set (vsg_vina_target_maps)");
    vsg_dock_params P;
    vsg_status st = dock_params_resolve(p, &P);
    if (st != VSG_OK) return st;
    P.poses = 1;
    const double t0 = vsg_now();
    dock_prep d;
    if ((st = dock_prepare(t, lig, &P, &d)) != VSG_OK) {
        out->seconds = vsg_now() - t0;
        return st;
    }
    /* the input pose (no move, no torsion change), minimised as a chain refines a kept minimum */
    const dock_tree *tr = &d.tree;
    dock_work w;
    kept_list list = {0, NULL, NULL};
    double *tors = calloc((size_t)tr->nrot + 1, sizeof *tors);
    int have_work = 0;
    if (!tors || !kept_list_init(&list, tr, 1)) st = vsg_fail(VSG_E_NOMEM, "dock: out of memory");
    if (st == VSG_OK && (st = dock_work_init(&w, tr, &d.en)) == VSG_OK) have_work = 1;
    if (st == VSG_OK) {
        dock_conf cur = {{0}, {1, 0, 0, 0}, tors};
        memcpy(cur.pos, tr->origin0, sizeof cur.pos);
        const double e = dock_bfgs_settle(&w, &cur, d.local_steps);
        dock_conf_apply(tr, &cur, w.xyz);
        kept_set(&list.k[0], tr, &cur, e, w.xyz);
        list.k[0].chain = 0, list.k[0].order = 0;
        list.n = 1;
        kept *all[1] = {&list.k[0]};
        st = dock_finish(t, &d, all, 1, &P, out);
        out->chains = 1, out->steps = 0;
        out->evaluations = w.evals;
    }
    if (have_work) dock_work_release(&w);
    free(tors);
    free(list.k), free(list.mem);
    dock_prep_release(&d);
    out->seconds = vsg_now() - t0;
    if (st != VSG_OK) vsg_dock_result_release(out);
    return st;
}
