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
#include "ligands/dock/dock_rng.h"
#include "ligands/ligand.h"
#include "ligands/torsions/torsions.h"

#define DOCK_PI 3.14159265358979323846
#define DOCK_SAVED 20            /* minima a chain keeps (Vina: its --num_modes, 9 by default) */
#define DOCK_TEMPERATURE 1.2     /* kcal/mol, Vina's RT at ~600 K */
#define DOCK_AMPLITUDE 2.0       /* Å, Vina's mutation_amplitude */
#define DOCK_HUNT_CAP 10.0       /* the curl cap while hunting (Vina's hunt_cap) */
#define DOCK_AUTHENTIC_CAP 1000.0

void vsg_dock_params_default(vsg_dock_params *p)
{
    if (!p) return;
    memset(p, 0, sizeof *p);
    p->exhaustiveness = 8;
    p->poses = 9;
    p->min_rmsd = 1.0;
    p->random_start = 1;
}

void vsg_dock_result_release(vsg_dock_result *r)
{
    if (!r) return;
    if (r->pose)
        for (int i = 0; i < r->npose; i++) free(r->pose[i].xyz);
    free(r->pose);
    free(r->record_atom);
    free(r->body);
    free(r->rotor);
    memset(r, 0, sizeof *r);
}

/* One kept minimum: its conformation, energy and heavy-atom coordinates (for RMSD). */
typedef struct {
    double e;
    double pos[3], q[4];
    double *tor;   /* nrot */
    double *heavy; /* 3·nheavy */
    int chain, order;
} kept;

typedef struct {
    int n;
    kept k[DOCK_SAVED + 1];
    double *mem;
} kept_list;

static double rmsd_heavy(const double *a, const double *b, int nheavy)
{
    double s = 0;
    for (int i = 0; i < 3 * nheavy; i++) s += (a[i] - b[i]) * (a[i] - b[i]);
    return nheavy ? sqrt(s / nheavy) : 0;
}

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
        const double r = rmsd_heavy(L->k[i].heavy, nw->heavy, t->nheavy);
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
    L->mem = malloc(sizeof(double) * per * (size_t)slots + 1);
    if (!L->mem) return 0;
    for (int i = 0; i < slots && i <= DOCK_SAVED; i++) {
        L->k[i].tor = L->mem + per * (size_t)i;
        L->k[i].heavy = L->k[i].tor + t->nrot;
    }
    return 1;
}

typedef struct {
    const dock_tree *tree;
    const dock_energy *en;
    const vsg_vina_target *target;
    uint64_t seed;
    int steps, local_steps, random_start;
    double min_rmsd;
} chain_job;

static vsg_status run_chain(const chain_job *J, int chain, kept_list *out, long *evals)
{
    const dock_tree *t = J->tree;
    const int nrot = t->nrot;
    dock_work w;
    vsg_status st = dock_work_init(&w, t, J->en);
    if (st != VSG_OK) return st;
    double *tors = malloc(sizeof(double) * (size_t)(2 * nrot + 1));
    if (!tors || !kept_list_init(out, t, DOCK_SAVED + 1)) {
        free(tors);
        dock_work_release(&w);
        return vsg_fail(VSG_E_NOMEM, "dock: out of memory");
    }
    dock_conf cur = {{0}, {1, 0, 0, 0}, tors}, cand = {{0}, {1, 0, 0, 0}, tors + nrot};
    dock_rng rng = dock_rng_for(J->seed, (uint64_t)chain);
    if (J->random_start) {
        for (int d = 0; d < 3; d++) cur.pos[d] = dock_rng_range(&rng, J->target->begin[d], J->target->end[d]);
        dock_rng_quat(&rng, cur.q);
        for (int k = 0; k < nrot; k++) cur.tor[k] = dock_rng_range(&rng, -DOCK_PI, DOCK_PI);
    } else {
        memcpy(cur.pos, t->origin0, sizeof cur.pos);
        for (int k = 0; k < nrot; k++) cur.tor[k] = 0;
    }
    double cur_e = 0, best_e = HUGE_VAL;
    const int entities = 2 + nrot;
    for (int step = 0; step < J->steps; step++) {
        memcpy(cand.pos, cur.pos, sizeof cand.pos);
        memcpy(cand.q, cur.q, sizeof cand.q);
        if (nrot) memcpy(cand.tor, cur.tor, sizeof(double) * (size_t)nrot);
        /* one of: position, orientation, a torsion */
        const int which = dock_rng_int(&rng, entities);
        if (which == 0) {
            double v[3];
            dock_rng_in_sphere(&rng, v);
            for (int d = 0; d < 3; d++) cand.pos[d] += DOCK_AMPLITUDE * v[d];
        } else if (which == 1) {
            double v[3];
            dock_rng_in_sphere(&rng, v);
            if (t->gyration > 1e-9) { /* a rotation vector of up to 2 Å at the radius of gyration */
                const double f = DOCK_AMPLITUDE / t->gyration, dv[6] = {0, 0, 0, v[0] * f, v[1] * f, v[2] * f};
                dock_tree rigid = *t;
                rigid.nrot = 0; /* the increment then reads the 6 rigid floats only */
                dock_conf_increment(&rigid, &cand, dv, 1.0);
            }
        } else {
            cand.tor[which - 2] = dock_rng_range(&rng, -DOCK_PI, DOCK_PI);
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
        if (cur_e < best_e || out->n < DOCK_SAVED) {
            cur_e = dock_bfgs(&w, &cur, J->local_steps, DOCK_AUTHENTIC_CAP);
            dock_conf_apply(t, &cur, w.xyz);
            kept *slot = &out->k[out->n];
            kept_set(slot, t, &cur, cur_e, w.xyz);
            slot->chain = chain, slot->order = step;
            kept_add(out, t, J->min_rmsd, DOCK_SAVED);
            if (cur_e < best_e) best_e = cur_e;
        }
    }
    *evals = w.evals;
    free(tors);
    dock_work_release(&w);
    return VSG_OK;
}

static int kept_cmp(const void *pa, const void *pb)
{
    const kept *a = *(const kept *const *)pa, *b = *(const kept *const *)pb;
    if (a->e < b->e) return -1;
    if (a->e > b->e) return 1;
    if (a->chain != b->chain) return a->chain < b->chain ? -1 : 1;
    return (a->order > b->order) - (a->order < b->order);
}

/* The record the model was built from (vsg_vina_ligand_new's: PDBQT as is; SDF/MOL2 typed, non-polar
 * hydrogens merged) and each of its atoms' index in lig. */
static vsg_status model_record(const vsg_ligand *lig, vsg_ligand *work, const vsg_ligand **src, int *map, int nmodel)
{
    if (lig->format == VSG_LIG_PDBQT) {
        *src = lig;
        for (int i = 0; i < nmodel; i++) map[i] = i;
        return VSG_OK;
    }
    vsg_status st = vsg_ligand_copy(work, lig);
    if (st == VSG_OK) st = vsg_ligand_assign_ad_types(work);
    if (st != VSG_OK) return st;
    vsg_ligand_merge_nonpolar_h(work);
    *src = work;
    int j = 0; /* the merge keeps the order of the atoms it keeps */
    for (int i = 0; i < lig->natoms && j < nmodel; i++)
        if (lig->atoms[i].x == work->atoms[j].x && lig->atoms[i].y == work->atoms[j].y &&
            lig->atoms[i].z == work->atoms[j].z && !strcmp(lig->atoms[i].name, work->atoms[j].name))
            map[j++] = i;
    if (j != nmodel) return vsg_fail(VSG_E_DATA, "dock: the model's atoms do not match the record's");
    return VSG_OK;
}

/* The root of an SDF/MOL2 record's tree: the body whose largest hanging subtree has the fewest
 * atoms (the tree's centre, as ligand preparation chooses a central root: a torsion then swings
 * at most half the molecule); ties: the larger body, then the lower index. */
static vsg_status central_body(const vsg_torsions *tor, int *root)
{
    const int nb = tor->nbodies, nr = tor->nrotors;
    int *count = calloc((size_t)nb + 1, sizeof(int)), *worst = calloc((size_t)nb + 1, sizeof(int));
    int *stack = malloc(sizeof(int) * ((size_t)nb + 1));
    char *side = malloc((size_t)nb + 1);
    if (!count || !worst || !stack || !side) {
        free(count), free(worst), free(stack), free(side);
        return vsg_fail(VSG_E_NOMEM, "dock: out of memory");
    }
    int total = 0;
    for (int i = 0; i < tor->natoms; i++) count[tor->body[i]]++, total++;
    for (int k = 0; k < nr; k++) { /* the bodies on the child side of rotor k, without crossing it */
        memset(side, 0, (size_t)nb);
        int sp = 0, atoms = 0;
        stack[sp++] = tor->body[tor->rotor[k][1]];
        side[stack[0]] = 1;
        while (sp) {
            const int b = stack[--sp];
            atoms += count[b];
            for (int r = 0; r < nr; r++) {
                if (r == k) continue;
                const int x = tor->body[tor->rotor[r][0]], y = tor->body[tor->rotor[r][1]];
                const int o = x == b ? y : y == b ? x : -1;
                if (o >= 0 && !side[o]) side[o] = 1, stack[sp++] = o;
            }
        }
        for (int b = 0; b < nb; b++) {
            const int hang = side[b] ? total - atoms : atoms;
            if (hang > worst[b]) worst[b] = hang;
        }
    }
    int best = 0;
    for (int b = 1; b < nb; b++)
        if (worst[b] < worst[best] || (worst[b] == worst[best] && count[b] > count[best])) best = b;
    *root = best;
    free(count), free(worst), free(stack), free(side);
    return VSG_OK;
}

vsg_status vsg_dock_cpu(const vsg_vina_target *t, const vsg_ligand *lig, const vsg_dock_params *p, vsg_dock_result *out)
{
    if (!out) return vsg_fail(VSG_E_ARG, "vsg_dock_cpu: NULL argument");
    memset(out, 0, sizeof *out);
    if (!t || !lig) return vsg_fail(VSG_E_ARG, "vsg_dock_cpu: NULL argument");
    if (!t->is_maps) return vsg_fail(VSG_E_ARG, "vsg_dock_cpu: the target must be a Vina map set (vsg_vina_target_maps)");
    vsg_dock_params P;
    if (p) P = *p;
    else vsg_dock_params_default(&P);
    if (P.exhaustiveness < 0 || P.exhaustiveness > 1000000 || P.steps < 0 || P.steps > 1000000 || P.local_steps < 0 ||
        P.local_steps > 1000000 || P.poses < 0 || P.poses > 1000000 || !(P.min_rmsd >= 0) || !isfinite(P.min_rmsd))
        return vsg_fail(VSG_E_ARG, "vsg_dock_cpu: exhaustiveness, steps, local_steps and poses must be in 0..10^6 and "
                                   "min_rmsd finite and >= 0");
    if (P.exhaustiveness == 0) P.exhaustiveness = 8;
    if (P.poses == 0) P.poses = 9;
    const double t0 = vsg_now();
    vsg_vina_ligand *L = NULL;
    vsg_status st = vsg_vina_ligand_new(lig, &L);
    if (st != VSG_OK) return st;
    vsg_ligand work;
    vsg_ligand_init(&work);
    const vsg_ligand *src = NULL;
    vsg_torsions tor;
    memset(&tor, 0, sizeof tor);
    dock_tree tree;
    memset(&tree, 0, sizeof tree);
    dock_energy en;
    memset(&en, 0, sizeof en);
    kept_list *lists = NULL;
    long *evals = NULL;
    vsg_status *chain_st = NULL;
    kept **all = NULL;
    const int n = L->natoms, chains = P.exhaustiveness;
    int root = 0;
    out->record_atom = malloc(sizeof(int) * (size_t)n);
    if (!out->record_atom) { st = vsg_fail(VSG_E_NOMEM, "dock: out of memory"); goto done; }
    if ((st = model_record(lig, &work, &src, out->record_atom, n)) != VSG_OK) goto done;
    st = lig->format == VSG_LIG_PDBQT ? vsg_torsions_from_pdbqt(src, &tor) : vsg_torsions_from_bonds(src, &tor);
    if (st != VSG_OK) goto done;
    if (tor.natoms != n) { st = vsg_fail(VSG_E_DATA, "dock: torsion tree and model differ in atoms"); goto done; }
    root = 0;
    if (lig->format != VSG_LIG_PDBQT && (st = central_body(&tor, &root)) != VSG_OK) goto done;
    if ((st = dock_tree_build(L, tor.body, tor.nbodies, tor.nrotors, (const int(*)[2])tor.rotor, root, &tree)) != VSG_OK)
        goto done;
    if ((st = dock_energy_init(&en, t, L, &tree)) != VSG_OK) goto done;
    chain_job J = {&tree, &en, t, P.seed, P.steps, P.local_steps, P.random_start, P.min_rmsd};
    if (!J.steps) J.steps = 70 * 3 * (50 + n + 10 * (6 + tree.nrot)) / 2;
    if (!J.local_steps) J.local_steps = (25 + n) / 3;
    lists = calloc((size_t)chains, sizeof *lists);
    evals = calloc((size_t)chains, sizeof *evals);
    chain_st = calloc((size_t)chains, sizeof *chain_st);
    if (!lists || !evals || !chain_st) { st = vsg_fail(VSG_E_NOMEM, "dock: out of memory"); goto done; }
    int threads = P.threads;
#ifdef _OPENMP
    if (threads <= 0) threads = omp_get_max_threads();
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
#endif
    for (int c = 0; c < chains; c++) chain_st[c] = run_chain(&J, c, &lists[c], &evals[c]);
    (void)threads;
    for (int c = 0; c < chains; c++) {
        if (chain_st[c] != VSG_OK && st == VSG_OK) st = chain_st[c];
        out->evaluations += evals[c];
    }
    if (st != VSG_OK) { st = vsg_fail(st, "dock: a chain failed (%s)", vsg_status_name(st)); goto done; }
    /* merge in chain order, rank, keep the distinct best */
    int total = 0;
    for (int c = 0; c < chains; c++) total += lists[c].n;
    all = malloc(sizeof *all * (size_t)(total + 1));
    out->pose = calloc((size_t)P.poses, sizeof *out->pose);
    if (!all || !out->pose) { st = vsg_fail(VSG_E_NOMEM, "dock: out of memory"); goto done; }
    total = 0;
    for (int c = 0; c < chains; c++)
        for (int i = 0; i < lists[c].n; i++) all[total++] = &lists[c].k[i];
    qsort(all, (size_t)total, sizeof *all, kept_cmp);
    kept **pick = malloc(sizeof *pick * (size_t)(P.poses + 1));
    if (!pick) { st = vsg_fail(VSG_E_NOMEM, "dock: out of memory"); goto done; }
    int np = 0;
    for (int i = 0; i < total && np < P.poses; i++) {
        int dup = 0;
        for (int j = 0; j < np && !dup; j++) dup = rmsd_heavy(pick[j]->heavy, all[i]->heavy, tree.nheavy) < P.min_rmsd;
        if (!dup) pick[np++] = all[i];
    }
    vsg_vina_ligand shadow = *L; /* the model with the pose's coordinates, for the score */
    for (int i = 0; i < np && st == VSG_OK; i++) {
        vsg_dock_pose *ps = &out->pose[i];
        ps->xyz = malloc(sizeof(double) * 3 * (size_t)n);
        if (!ps->xyz) { st = vsg_fail(VSG_E_NOMEM, "dock: out of memory"); break; }
        out->npose = i + 1;
        dock_conf c = {{pick[i]->pos[0], pick[i]->pos[1], pick[i]->pos[2]},
                       {pick[i]->q[0], pick[i]->q[1], pick[i]->q[2], pick[i]->q[3]}, pick[i]->tor};
        dock_conf_apply(&tree, &c, ps->xyz);
        for (int k = 0; k < 3 * n; k++) { /* as written; an atom inside the box stays inside */
            const double x = ps->xyz[k], lo = t->begin[k % 3], hi = t->end[k % 3];
            double r = round(x * 1000) / 1000;
            if (x <= hi && r > hi) r = floor(x * 1000) / 1000;
            if (x >= lo && r < lo) r = ceil(x * 1000) / 1000;
            ps->xyz[k] = r;
        }
        ps->energy = dock_energy_eval(&en, ps->xyz, DOCK_AUTHENTIC_CAP, NULL, NULL, NULL);
        shadow.xyz = ps->xyz;
        st = vsg_vina_score_pose(t, &shadow, &ps->score);
        double s = 0;
        for (int h = 0; h < tree.nheavy; h++)
            for (int d = 0; d < 3; d++) {
                const double dd = ps->xyz[3 * tree.heavy[h] + d] - L->xyz[3 * tree.heavy[h] + d];
                s += dd * dd;
            }
        ps->rmsd_input = tree.nheavy ? sqrt(s / tree.nheavy) : 0;
    }
    free(pick);
    out->natoms = n;
    out->rotors = tree.nrot;
    out->root = root;
    out->body = malloc(sizeof(int) * (size_t)n);
    out->rotor = malloc(sizeof *out->rotor * (size_t)(tree.nrot + 1));
    if (!out->body || !out->rotor) { st = vsg_fail(VSG_E_NOMEM, "dock: out of memory"); goto done; }
    memcpy(out->body, tor.body, sizeof(int) * (size_t)n);
    if (tree.nrot) memcpy(out->rotor, tree.axis, sizeof *out->rotor * (size_t)tree.nrot);
    out->chains = chains;
    out->steps = J.steps;
    out->local_steps = J.local_steps;
done:
    if (lists)
        for (int c = 0; c < chains; c++) free(lists[c].mem);
    free(lists);
    free(evals);
    free(chain_st);
    free(all);
    dock_energy_release(&en);
    dock_tree_release(&tree);
    vsg_torsions_release(&tor);
    vsg_ligand_release(&work);
    vsg_vina_ligand_free(L);
    out->seconds = vsg_now() - t0;
    if (st != VSG_OK) vsg_dock_result_release(out);
    return st;
}
