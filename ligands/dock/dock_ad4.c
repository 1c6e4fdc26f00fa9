/* dock_ad4.c — docking with the AutoDock4 function on an AutoGrid map set (vsgrid.h, "Flexible
 * docking with the AutoDock4 function"): a PDBQT record made ready (dock_ad4_prepare: its Vina
 * model for the tree, AutoDock map types, charges, autodock4's pair tables, the steps), the
 * search — vsg_dock_cpu's (dock_search.c: Monte Carlo chains of one random change + BFGS,
 * Metropolis at 1.2 kcal/mol, each chain keeping its distinct minima) on dock_energy_ad4.c's
 * energy, or on a GPU (dock_ad4_gpu.c), or no search at all (vsg_dock_ad4_local: the input pose
 * minimised in place) — and the kept minima made the result (dock_ad4_finish): ranked by the
 * search's energy, made distinct by RMSD, each pose scored as autodock4's epdb scores it and the
 * poses ordered by that estimated free energy. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ligands/dock/dock_internal.h"
#include "ligands/dock/dock_method.h"

static double round3(double x)
{
    return round(x * 1000.0) / 1000.0;
}

typedef struct {
    double total;
    int k;
} ranked;

static int ranked_cmp(const void *pa, const void *pb)
{
    const ranked *a = pa, *b = pb;
    if (a->total != b->total) return a->total < b->total ? -1 : 1;
    return a->k - b->k;
}

static int kept_cmp(const void *pa, const void *pb)
{
    const dock_kept *a = *(const dock_kept *const *)pa, *b = *(const dock_kept *const *)pb;
    if (a->e != b->e) return a->e < b->e ? -1 : 1;
    if (a->chain != b->chain) return a->chain - b->chain;
    return a->order - b->order;
}

void dock_ad4_prep_release(dock_ad4_prep *d)
{
    if (!d) return;
    free(d->A.type), free(d->A.q);
    ad4_intra_tables_release(&d->A.intra);
    dock_tree_release(&d->tree);
    vsg_torsions_release(&d->tor);
    vsg_vina_ligand_free(d->L);
    memset(d, 0, sizeof *d);
}

vsg_status dock_ad4_prepare(const vsg_ad4_target *t, const vsg_ligand *lig, const vsg_dock_params *P, dock_ad4_prep *d)
{
    memset(d, 0, sizeof *d);
    if (lig->status != VSG_OK) return vsg_fail(VSG_E_ARG, "dock: record %ld has status %s", lig->record, lig->code);
    if (lig->format != VSG_LIG_PDBQT || !lig->text)
        return vsg_fail(VSG_E_ARG,
                        "%s: record %ld: docking with the AutoDock4 function takes a PDBQT ligand (its torsion tree, "
                        "AutoDock types and charges, as autodock4 reads them), read with keep_text",
                        lig->source ? lig->source : "?", lig->record);
    vsg_status st;
    if ((st = vsg_vina_ligand_new_ad4(lig, &d->L)) != VSG_OK) goto fail;
    const int n = d->L->natoms;
    if (n != lig->natoms) {
        st = vsg_fail(VSG_E_DATA, "dock: the model and the record differ in atoms");
        goto fail;
    }
    if ((st = vsg_torsions_from_pdbqt(lig, &d->tor)) != VSG_OK) goto fail;
    if ((st = dock_tree_build(d->L, d->tor.body, d->tor.nbodies, d->tor.nrotors, (const int(*)[2])d->tor.rotor, 0, &d->tree)) !=
        VSG_OK)
        goto fail;
    d->A.t = t, d->A.natoms = n;
    d->A.type = malloc((size_t)n + 1);
    d->A.q = malloc(sizeof(double) * (size_t)(n + 1));
    if (!d->A.type || !d->A.q) {
        st = vsg_fail(VSG_E_NOMEM, "dock: out of memory");
        goto fail;
    }
    for (int i = 0; i < n; i++) {
        d->A.type[i] = vsg_mapset_type_index(t->maps, lig->atoms[i].ad_type);
        d->A.q[i] = lig->atoms[i].charge;
        if (d->A.type[i] == VSG_SCORE_NO_TYPE) {
            st = dock_ad4_no_map(lig, i);
            goto fail;
        }
    }
    if ((st = ad4_intra_tables_build(lig, &t->par, &d->A.intra)) != VSG_OK) goto fail;
    d->en.l = d->L, d->en.tree = &d->tree, d->en.ad4 = &d->A;
    d->steps = P->steps ? P->steps : 70 * 3 * (50 + n + 10 * (6 + d->tree.nrot)) / 2;
    d->local_steps = P->local_steps ? P->local_steps : (25 + n) / 3;
    return VSG_OK;
fail:
    dock_ad4_prep_release(d);
    return st;
}

vsg_status dock_ad4_finish(const vsg_ad4_target *t, const vsg_ligand *lig, dock_ad4_prep *d, dock_kept **all, int total,
                           const vsg_dock_params *P, vsg_dock_result *out, vsg_ad4_score *scores)
{
    const dock_tree *tree = &d->tree;
    const int n = d->L->natoms;
    ranked *rk = NULL;
    vsg_status st = VSG_OK;
    /* rank by the search's energy, drop poses within min_rmsd of a better one, keep the best */
    qsort(all, (size_t)total, sizeof *all, kept_cmp);
    int npick = 0;
    for (int i = 0; i < total && npick < P->poses; i++) {
        int close = 0;
        for (int j = 0; j < npick && !close; j++) close = dock_rmsd_heavy(all[j]->heavy, all[i]->heavy, tree->nheavy) < P->min_rmsd;
        if (!close) all[npick++] = all[i];
    }
    out->pose = calloc((size_t)npick + 1, sizeof *out->pose);
    rk = malloc(sizeof *rk * (size_t)(npick + 1));
    vsg_ad4_score *sc = calloc((size_t)npick + 1, sizeof *sc);
    out->record_atom = malloc(sizeof(int) * (size_t)(n + 1));
    out->body = malloc(sizeof(int) * (size_t)(n + 1));
    out->rotor = malloc(sizeof *out->rotor * (size_t)(d->tor.nrotors + 1));
    if (!out->pose || !rk || !sc || !out->record_atom || !out->body || !out->rotor) {
        free(sc), free(rk);
        return vsg_fail(VSG_E_NOMEM, "dock: out of memory");
    }
    for (int k = 0; k < npick && st == VSG_OK; k++) {
        vsg_dock_pose *ps = &out->pose[k];
        dock_conf c = {{0}, {1, 0, 0, 0}, all[k]->tor};
        memcpy(c.pos, all[k]->pos, sizeof c.pos);
        memcpy(c.q, all[k]->q, sizeof c.q);
        ps->xyz = malloc(sizeof(double) * 3 * (size_t)n);
        if (!ps->xyz) { st = vsg_fail(VSG_E_NOMEM, "dock: out of memory"); break; }
        dock_conf_apply(tree, &c, ps->xyz);
        for (int i = 0; i < 3 * n; i++) ps->xyz[i] = round3(ps->xyz[i]);
        double e_in, e_ia;
        ps->energy = dock_ad4_eval(&d->A, ps->xyz, DOCK_AUTHENTIC_CAP, NULL, &e_in, &e_ia);
        double s2 = 0;
        int nh = 0;
        for (int h = 0; h < tree->nheavy; h++, nh++) {
            const int i = tree->heavy[h];
            const double dx = ps->xyz[3 * i] - lig->atoms[i].x, dy = ps->xyz[3 * i + 1] - lig->atoms[i].y,
                         dz = ps->xyz[3 * i + 2] - lig->atoms[i].z;
            s2 += dx * dx + dy * dy + dz * dz;
        }
        ps->rmsd_input = nh ? sqrt(s2 / nh) : 0;
        if ((st = vsg_ad4_score_pose(t, lig, ps->xyz, &sc[k])) != VSG_OK) break;
        ps->score.total = sc[k].total, ps->score.inter = sc[k].inter, ps->score.intra = sc[k].intra;
        ps->score.torsional = sc[k].torsional, ps->score.unbound = sc[k].unbound;
        ps->score.num_tors = sc[k].torsdof, ps->score.outside = sc[k].outside;
        rk[k].total = sc[k].total, rk[k].k = k;
        out->npose++;
    }
    if (st == VSG_OK) {
        /* best estimated free energy first, as autodock4 ranks its clusters */
        qsort(rk, (size_t)npick, sizeof *rk, ranked_cmp);
        vsg_dock_pose *sorted = malloc(sizeof *sorted * (size_t)(npick + 1));
        if (!sorted) {
            st = vsg_fail(VSG_E_NOMEM, "dock: out of memory");
        } else {
            for (int k = 0; k < npick; k++) {
                sorted[k] = out->pose[rk[k].k];
                if (scores) scores[k] = sc[rk[k].k];
            }
            free(out->pose);
            out->pose = sorted;
        }
    }
    free(sc), free(rk);
    if (st != VSG_OK) return st;
    out->natoms = n;
    for (int i = 0; i < n; i++) out->record_atom[i] = i, out->body[i] = d->tor.body[i];
    out->rotors = d->tor.nrotors;
    for (int k = 0; k < d->tor.nrotors; k++) out->rotor[k][0] = d->tor.rotor[k][0], out->rotor[k][1] = d->tor.rotor[k][1];
    out->root = 0;
    out->chains = P->exhaustiveness, out->steps = d->steps, out->local_steps = d->local_steps;
    return VSG_OK;
}

vsg_status vsg_dock_ad4_cpu(const vsg_ad4_target *t, const vsg_ligand *lig, const vsg_dock_params *p, vsg_dock_result *out,
                            vsg_ad4_score *scores)
{
    if (!out) return vsg_fail(VSG_E_ARG, "vsg_dock_ad4_cpu: NULL argument");
    memset(out, 0, sizeof *out);
    if (!t || !lig) return vsg_fail(VSG_E_ARG, "vsg_dock_ad4_cpu: NULL argument");
    vsg_dock_params P;
    vsg_status st = dock_params_resolve(p, &P);
    if (st != VSG_OK) return st;
    const double t0 = vsg_now();
    dock_ad4_prep d;
    dock_chains *store = NULL;
    dock_kept **all = NULL;
    int total = 0;
    if ((st = dock_ad4_prepare(t, lig, &P, &d)) != VSG_OK) goto done_nothing;
    if ((st = dock_chains_run(&d.tree, &d.en, t->lo, t->hi, &P, d.steps, d.local_steps, &store, &all, &total,
                              &out->evaluations)) == VSG_OK)
        st = dock_ad4_finish(t, lig, &d, all, total, &P, out, scores);
    dock_chains_free(store);
    dock_ad4_prep_release(&d);
done_nothing:
    out->seconds = vsg_now() - t0;
    if (st != VSG_OK) vsg_dock_result_release(out);
    return st;
}

vsg_status vsg_dock_ad4_local(const vsg_ad4_target *t, const vsg_ligand *lig, const vsg_dock_params *p, vsg_dock_result *out,
                              vsg_ad4_score *scores)
{
    if (!out) return vsg_fail(VSG_E_ARG, "vsg_dock_ad4_local: NULL argument");
    memset(out, 0, sizeof *out);
    if (!t || !lig) return vsg_fail(VSG_E_ARG, "vsg_dock_ad4_local: NULL argument");
    vsg_dock_params P;
    vsg_status st = dock_params_resolve(p, &P);
    if (st != VSG_OK) return st;
    P.poses = 1;
    const double t0 = vsg_now();
    dock_ad4_prep d;
    if ((st = dock_ad4_prepare(t, lig, &P, &d)) != VSG_OK) {
        out->seconds = vsg_now() - t0;
        return st;
    }
    /* the input pose (no move, no torsion change), minimised as vsg_dock_local minimises it */
    const dock_tree *tr = &d.tree;
    dock_work w;
    int have_work = 0;
    double *mem = calloc((size_t)tr->nrot + 3 * (size_t)tr->nheavy + 1, sizeof *mem);
    if (!mem) st = vsg_fail(VSG_E_NOMEM, "dock: out of memory");
    if (st == VSG_OK && (st = dock_work_init(&w, tr, &d.en)) == VSG_OK) have_work = 1;
    if (st == VSG_OK) {
        dock_kept k = {0, {0, 0, 0}, {1, 0, 0, 0}, mem, mem + tr->nrot, 0, 0};
        dock_conf cur = {{0}, {1, 0, 0, 0}, k.tor};
        memcpy(cur.pos, tr->origin0, sizeof cur.pos);
        const double e = dock_bfgs_settle(&w, &cur, d.local_steps);
        dock_conf_apply(tr, &cur, w.xyz);
        k.e = e;
        memcpy(k.pos, cur.pos, sizeof k.pos);
        memcpy(k.q, cur.q, sizeof k.q);
        for (int h = 0; h < tr->nheavy; h++)
            for (int c = 0; c < 3; c++) k.heavy[3 * h + c] = w.xyz[3 * tr->heavy[h] + c];
        dock_kept *all[1] = {&k};
        st = dock_ad4_finish(t, lig, &d, all, 1, &P, out, scores);
        out->chains = 1, out->steps = 0;
        out->evaluations = w.evals;
    }
    if (have_work) dock_work_release(&w);
    free(mem);
    dock_ad4_prep_release(&d);
    out->seconds = vsg_now() - t0;
    if (st != VSG_OK) vsg_dock_result_release(out);
    return st;
}
