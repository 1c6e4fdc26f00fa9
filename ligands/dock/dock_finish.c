/* dock_finish.c — from the minima the chains kept to a docking result (dock_internal.h), the
 * same for the CPU chains and the GPU batch: ranked by the search energy (ties: chain, then
 * step, so the order never depends on threads), made distinct by heavy-atom RMSD, refined on the
 * receptor's atoms when the map set carries them (dock_refine.c), written as PDBQT rounds them,
 * scored term by term as `vina --score_only` scores the written pose, and put in the order of
 * their inter + intra energy, each pose's score Vina 1.2's (≥ 1.2.4) docking result:
 * (inter + intra − intra of the best pose) / (1 + w·N_rot), so the scores written are in order
 * and the best pose's is its `vina --score_only` score. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ligands/dock/dock_internal.h"
#include "ligands/dock/dock_method.h"

double dock_rmsd_heavy(const double *a, const double *b, int nheavy)
{
    double s = 0;
    for (int i = 0; i < 3 * nheavy; i++) s += (a[i] - b[i]) * (a[i] - b[i]);
    return nheavy ? sqrt(s / nheavy) : 0;
}

static int kept_cmp(const void *pa, const void *pb)
{
    const dock_kept *a = *(const dock_kept *const *)pa, *b = *(const dock_kept *const *)pb;
    if (a->e < b->e) return -1;
    if (a->e > b->e) return 1;
    if (a->chain != b->chain) return a->chain < b->chain ? -1 : 1;
    return (a->order > b->order) - (a->order < b->order);
}

static int pose_cmp(const void *pa, const void *pb)
{
    const vsg_dock_pose *a = pa, *b = pb;
    const double ea = a->score.inter + a->score.intra, eb = b->score.inter + b->score.intra;
    return (ea > eb) - (ea < eb);
}

/* The poses in the order of inter + intra (a stable sort: the search's order kept for ties), and
 * each score made relative to the best pose's intra, as Vina's docking output is; the best
 * pose's is unchanged (its own intra cancels, as in --score_only). */
static void score_order(vsg_dock_result *r)
{
    for (int i = 1; i < r->npose; i++) { /* insertion sort: stable, and npose is small */
        vsg_dock_pose p = r->pose[i];
        int j = i;
        for (; j > 0 && pose_cmp(&r->pose[j - 1], &p) > 0; j--) r->pose[j] = r->pose[j - 1];
        r->pose[j] = p;
    }
    if (r->npose < 1) return;
    const double unbound = r->pose[0].score.intra;
    for (int i = 0; i < r->npose; i++) {
        vsg_vina_score *s = &r->pose[i].score;
        if (i == 0) continue; /* its score_only terms already */
        const double e = s->inter + s->intra - unbound;
        s->unbound = unbound;
        s->total = fabs(e) < DBL_EPSILON ? 0 : e / vina_num_tors_div(s->num_tors);
        s->torsional = s->total - e;
    }
}

/* score_order with each pose's flex residues moved with it (the same stable order). */
static void score_order_flex(vsg_dock_result *r, vsg_flex_pose *fp)
{
    for (int i = 1; i < r->npose; i++) {
        vsg_dock_pose p = r->pose[i];
        vsg_flex_pose f = fp[i];
        int j = i;
        for (; j > 0 && pose_cmp(&r->pose[j - 1], &p) > 0; j--) r->pose[j] = r->pose[j - 1], fp[j] = fp[j - 1];
        r->pose[j] = p, fp[j] = f;
    }
    score_order(r); /* in order now: only the scores relative to the best pose's intra */
}

vsg_status dock_finish(const vsg_vina_target *t, dock_prep *d, dock_kept **all, int total, const vsg_dock_params *P,
                       vsg_dock_result *out)
{
    const dock_tree *tree = &d->tree;
    const int n = d->L->natoms;
    vsg_status st = VSG_OK;
    qsort(all, (size_t)total, sizeof *all, kept_cmp);
    dock_kept **pick = malloc(sizeof *pick * (size_t)(P->poses + 1));
    out->pose = calloc((size_t)P->poses, sizeof *out->pose);
    if (!pick || !out->pose) {
        free(pick);
        return vsg_fail(VSG_E_NOMEM, "dock: out of memory");
    }
    int np = 0;
    for (int i = 0; i < total && np < P->poses; i++) {
        int dup = 0;
        for (int j = 0; j < np && !dup; j++) dup = dock_rmsd_heavy(pick[j]->heavy, all[i]->heavy, tree->nheavy) < P->min_rmsd;
        if (!dup) pick[np++] = all[i];
    }
    if (t->rxyz && np > 0 && (st = dock_refine_on_atoms(t, d, pick, np, &out->evaluations)) != VSG_OK) {
        free(pick);
        return st;
    }
    vsg_vina_ligand shadow = *d->L; /* the model with the pose's coordinates, for the score */
    double *cx = malloc(sizeof(double) * 3 * (size_t)tree->natoms); /* ligand, then any flex residues */
    if (!cx) st = vsg_fail(VSG_E_NOMEM, "dock: out of memory");
    for (int i = 0; i < np && st == VSG_OK; i++) {
        vsg_dock_pose *ps = &out->pose[i];
        ps->xyz = malloc(sizeof(double) * 3 * (size_t)n);
        if (!ps->xyz) { st = vsg_fail(VSG_E_NOMEM, "dock: out of memory"); break; }
        out->npose = i + 1;
        dock_conf c = {{pick[i]->pos[0], pick[i]->pos[1], pick[i]->pos[2]},
                       {pick[i]->q[0], pick[i]->q[1], pick[i]->q[2], pick[i]->q[3]}, pick[i]->tor};
        dock_conf_apply(tree, &c, cx);
        for (int k = 0; k < 3 * tree->natoms; k++) { /* as written; an atom inside the box stays inside */
            const double x = cx[k], lo = t->begin[k % 3], hi = t->end[k % 3];
            double r = round(x * 1000) / 1000;
            if (x <= hi && r > hi) r = floor(x * 1000) / 1000;
            if (x >= lo && r < lo) r = ceil(x * 1000) / 1000;
            cx[k] = r;
        }
        memcpy(ps->xyz, cx, sizeof(double) * 3 * (size_t)n);
        ps->energy = t->rxyz ? pick[i]->e : dock_energy_eval(&d->en, cx, DOCK_AUTHENTIC_CAP, NULL, NULL, NULL);
        shadow.xyz = ps->xyz;
        st = vsg_vina_score_pose(t, &shadow, &ps->score);
        if (d->flex && d->flex_out) /* the flex residues' terms (dock_flex.c) and coordinates */
            dock_flex_finish_pose(t, d->flex, &shadow, cx + 3 * (size_t)n, &ps->score, &d->flex_out[i], &st);
        double s = 0;
        for (int h = 0; h < tree->nheavy; h++)
            for (int k = 0; k < 3; k++) {
                const double dd = ps->xyz[3 * tree->heavy[h] + k] - d->L->xyz[3 * tree->heavy[h] + k];
                s += dd * dd;
            }
        ps->rmsd_input = tree->nheavy ? sqrt(s / tree->nheavy) : 0;
    }
    free(cx);
    free(pick);
    if (st != VSG_OK) return st;
    if (d->flex && d->flex_out) score_order_flex(out, d->flex_out);
    else score_order(out);
    /* the ligand's rotors (flex ones follow) */
    if ((st = dock_result_tree(d, tree->nrot - (d->flex ? d->flex->tor.nrotors : 0), out)) != VSG_OK) return st;
    out->steps = d->steps;
    out->local_steps = d->local_steps;
    return VSG_OK;
}

vsg_status dock_result_tree(dock_prep *d, int nrotors, vsg_dock_result *out)
{
    const int n = d->L->natoms;
    out->natoms = n;
    out->rotors = nrotors;
    out->root = d->root;
    out->record_atom = d->record_atom;
    d->record_atom = NULL;
    out->body = malloc(sizeof(int) * (size_t)n);
    out->rotor = malloc(sizeof *out->rotor * (size_t)(nrotors + 1));
    if (!out->body || !out->rotor) return vsg_fail(VSG_E_NOMEM, "dock: out of memory");
    memcpy(out->body, d->tor.body, sizeof(int) * (size_t)n);
    if (nrotors) memcpy(out->rotor, d->tree.axis, sizeof *out->rotor * (size_t)nrotors);
    return VSG_OK;
}
