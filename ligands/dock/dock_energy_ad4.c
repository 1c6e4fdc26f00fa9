/* dock_energy_ad4.c — docking with the AutoDock4 function on an AutoGrid map set, the CPU twin (vsg_dock_ad4_gpu, dock_ad4_gpu.c, runs its chains on the GPU)
 * (vsgrid.h, "Flexible docking with the AutoDock4 function").
 *
 * The search is vsg_dock_cpu's (dock_search.c: Monte Carlo chains of one random change + BFGS,
 * Metropolis at 1.2 kcal/mol, each chain keeping its distinct minima), run on an energy that is
 * what autodock4 4.2.6 minimises for a pose:
 *  - inter: every atom, hydrogens included, on the maps as autodock4's trilinterp reads them:
 *    map_type(r) + q·e(r) + |q|·d(r), trilinear (score_cpu.c's interpolation), with its analytic
 *    gradient (the cell's differences along each axis); an atom outside the grid gets autodock4's
 *    2 · 500 · |r − c|² (c the grid's centre; score_cpu.c documents the rule) and its gradient.
 *    While the chains hunt, an atom's inside energy is curled as Vina's search curls it
 *    (e > 0 → e·v/(v + e), v = 10), and refined minima use v = 1000 (dock_method.h);
 *  - intra: autodock4's non-bonded pairs (ad4_intra.c: bonds by distance, 1-2/1-3/1-4, rigid
 *    pieces and weedbonds' torsion rules) with its r² bin tables, linear in r² between bin starts
 *    so that it has a slope (ad4_intra.h); 0 for a ligand without torsions, as in autodock4.
 * Each pose returned is then scored exactly as autodock4's epdb scores the written pose
 * (vsg_ad4_score_pose: coordinates rounded to 0.001 Å as PDBQT writes them, the intermolecular
 * terms in double from the same maps, the internal energy by vsg_ad4_intra, the torsional free
 * energy FE_coeff_tors × TORSDOF), and the poses are ranked by that estimated free energy. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/dock/dock_gpu.h"
#include "ligands/dock/dock_internal.h"
#include "ligands/dock/dock_method.h"

#define AD4_ENERGY_PENALTY 500.0 /* autodock4 constants.h: kcal/mol/Å², added to two totals */

vsg_status vsg_ad4_target_read(const char *fld_path, const char *parameter_file, vsg_ad4_target **out)
{
    if (!out) return vsg_fail(VSG_E_ARG, "vsg_ad4_target_read: NULL argument");
    *out = NULL;
    if (!fld_path) return vsg_fail(VSG_E_ARG, "vsg_ad4_target_read: NULL argument");
    vsg_ad4_target *t = calloc(1, sizeof *t);
    if (!t) return vsg_fail(VSG_E_NOMEM, "vsg_ad4_target_read: out of memory");
    pthread_mutex_init(&t->gpu_mu, NULL);
    vsg_status st = vsg_ad4_params_builtin(&t->par);
    if (st == VSG_OK && parameter_file) st = vsg_ad4_params_read(parameter_file, &t->par);
    if (st == VSG_OK) st = vsg_mapset_read(fld_path, &t->maps);
    if (st != VSG_OK) {
        vsg_ad4_target_free(t);
        return st;
    }
    /* hydrated docking: mapwater.py writes PREFIX.W.map beside an autogrid4 set without listing it
     * in the fld (vina --maps and AutoDock-GPU find maps by that name): read it when it is there */
    if (vsg_mapset_type_index(t->maps, "W") == VSG_SCORE_NO_TYPE) {
        const size_t len = strlen(fld_path);
        const size_t cut = len > 9 && !strcmp(fld_path + len - 9, ".maps.fld") ? len - 9
                           : len > 4 && !strcmp(fld_path + len - 4, ".fld") ? len - 4 : len;
        char *w = malloc(cut + 8);
        if (!w) st = vsg_fail(VSG_E_NOMEM, "vsg_ad4_target_read: out of memory");
        else {
            snprintf(w, cut + 8, "%.*s.W.map", (int)cut, fld_path);
            FILE *f = fopen(w, "r");
            if (f) {
                fclose(f);
                st = vsg_mapset_add_map(t->maps, "W", w);
            }
            free(w);
        }
        if (st != VSG_OK) {
            vsg_ad4_target_free(t);
            return st;
        }
    }
    t->g = vsg_mapset_grids(t->maps);
    for (int d = 0; d < 3; d++) {
        t->lo[d] = t->g->origin[d];
        t->hi[d] = t->g->origin[d] + (t->g->n[d] - 1) * t->g->spacing[d];
        t->center[d] = t->g->origin[d] + 0.5 * (t->g->n[d] - 1) * t->g->spacing[d];
    }
    *out = t;
    return VSG_OK;
}

void vsg_ad4_target_free(vsg_ad4_target *t)
{
    if (!t) return;
    for (int d = 0; d < DOCK_AD4_DEVICES; d++) dock_gpu_maps_free(t->gpu[d]);
    pthread_mutex_destroy(&t->gpu_mu);
    vsg_mapset_free(t->maps);
    free(t);
}

vsg_status vsg_ad4_target_box(const vsg_ad4_target *t, double lo[3], double hi[3])
{
    if (!t || !lo || !hi) return vsg_fail(VSG_E_ARG, "vsg_ad4_target_box: NULL argument");
    memcpy(lo, t->lo, sizeof t->lo);
    memcpy(hi, t->hi, sizeof t->hi);
    return VSG_OK;
}

/* The error for atom i whose type has no map (a water's says how the W map is made). */
static vsg_status no_map(const vsg_ligand *lig, int i)
{
    const vsg_lig_atom *at = &lig->atoms[i];
    return vsg_fail(VSG_E_DATA, "%s:%d: record %ld: atom %d is %s, and the map set has no %s map%s",
                    lig->source ? lig->source : "?", at->line, lig->record, i + 1, at->ad_type, at->ad_type,
                    strcmp(at->ad_type, "W") ? ""
                    : " (PREFIX.W.map, hydrated docking: `vsgrid maps REC.pdbqt --scoring ad4 --hydrated ...` makes it, "
                      "or mapwater.py from the OA and HD maps)");
}

/* Curls e at cap v; *slope gets de'/de. */
static inline double curl(double e, double v, double *slope)
{
    if (e > 0) {
        const double d = v + e;
        *slope = v * v / (d * d);
        return e * v / d;
    }
    *slope = 1;
    return e;
}

/* Trilinear value of map m at p (inside the grid: the caller checked) and its gradient. */
static double trilinear(const vsg_score_grids *g, const float *m, const double p[3], double grad[3])
{
    double s[3];
    int a[3];
    for (int d = 0; d < 3; d++) {
        const double u = (p[d] - g->origin[d]) / g->spacing[d];
        int i0 = (int)floor(u);
        if (i0 > g->n[d] - 2) i0 = g->n[d] - 2;
        if (i0 < 0) i0 = 0;
        a[d] = i0, s[d] = u - i0;
    }
    const size_t nx = (size_t)g->n[0], nxy = nx * (size_t)g->n[1];
    const size_t i000 = (size_t)a[0] + nx * (size_t)a[1] + nxy * (size_t)a[2];
    const double f000 = m[i000], f100 = m[i000 + 1], f010 = m[i000 + nx], f110 = m[i000 + nx + 1];
    const double f001 = m[i000 + nxy], f101 = m[i000 + nxy + 1], f011 = m[i000 + nxy + nx], f111 = m[i000 + nxy + nx + 1];
    const double x = s[0], y = s[1], z = s[2], mx = 1 - x, my = 1 - y, mz = 1 - z;
    if (grad) {
        grad[0] = ((f100 - f000) * my * mz + (f110 - f010) * y * mz + (f101 - f001) * my * z + (f111 - f011) * y * z) /
                  g->spacing[0];
        grad[1] = ((f010 - f000) * mx * mz + (f110 - f100) * x * mz + (f011 - f001) * mx * z + (f111 - f101) * x * z) /
                  g->spacing[1];
        grad[2] = ((f001 - f000) * mx * my + (f101 - f100) * x * my + (f011 - f010) * mx * y + (f111 - f110) * x * y) /
                  g->spacing[2];
    }
    return f000 * mx * my * mz + f100 * x * my * mz + f010 * mx * y * mz + f110 * x * y * mz + f001 * mx * my * z +
           f101 * x * my * z + f011 * mx * y * z + f111 * x * y * z;
}

static int outside(const vsg_ad4_target *t, const double p[3])
{
    for (int d = 0; d < 3; d++)
        if (!(p[d] >= t->lo[d] && p[d] <= t->hi[d])) return 1;
    return 0;
}

/* One atom's intermolecular terms: vdW+Hbond+desolv and electrostatic parts, and (grad not
 * NULL) the gradient of their sum. */
static void atom_inter(const vsg_ad4_target *t, int type, double q, const double p[3], double *map_part, double *elec_part,
                       double grad[3])
{
    if (outside(t, p)) {
        double d2 = 0;
        for (int d = 0; d < 3; d++) {
            const double r = p[d] - t->center[d];
            d2 += r * r;
            if (grad) grad[d] = 4 * AD4_ENERGY_PENALTY * r;
        }
        *map_part = *elec_part = AD4_ENERGY_PENALTY * d2;
        return;
    }
    const vsg_score_grids *g = t->g;
    double gm[3], ge[3], gd[3];
    const double m = type == VSG_SCORE_NO_TYPE ? 0.0 : trilinear(g, g->maps[type], p, grad ? gm : NULL);
    const double e = trilinear(g, g->maps[g->e_map], p, grad ? ge : NULL);
    const double dv = trilinear(g, g->maps[g->d_map], p, grad ? gd : NULL);
    *map_part = m + fabs(q) * dv;
    *elec_part = q * e;
    if (grad)
        for (int d = 0; d < 3; d++) grad[d] = (type == VSG_SCORE_NO_TYPE ? 0.0 : gm[d]) + q * ge[d] + fabs(q) * gd[d];
}

double dock_ad4_eval(const struct dock_ad4 *a, const double *xyz, double cap, double *g, double *inter, double *intra)
{
    if (g) memset(g, 0, sizeof *g * 3 * (size_t)a->natoms);
    double ei = 0;
    for (int i = 0; i < a->natoms; i++) {
        double mp, ep, gr[3];
        const double *p = &xyz[3 * i];
        atom_inter(a->t, a->type[i], a->q[i], p, &mp, &ep, g ? gr : NULL);
        double slope = 1, e = mp + ep;
        if (isfinite(cap) && !outside(a->t, p)) e = curl(e, cap, &slope); /* the penalty outside stays steep */
        ei += e;
        if (g)
            for (int d = 0; d < 3; d++) g[3 * i + d] = slope * gr[d];
    }
    const double ea = ad4_intra_tables_eval(&a->intra, xyz, g);
    if (inter) *inter = ei;
    if (intra) *intra = ea;
    return ei + ea;
}

vsg_status vsg_ad4_score_pose(const vsg_ad4_target *t, const vsg_ligand *lig, const double *xyz, vsg_ad4_score *out)
{
    if (!out) return vsg_fail(VSG_E_ARG, "vsg_ad4_score_pose: NULL argument");
    memset(out, 0, sizeof *out);
    if (!t || !lig) return vsg_fail(VSG_E_ARG, "vsg_ad4_score_pose: NULL argument");
    if (lig->format != VSG_LIG_PDBQT || !lig->text)
        return vsg_fail(VSG_E_ARG, "vsg_ad4_score_pose: record %ld: AutoDock4 scoring needs a PDBQT record with its text",
                        lig->record);
    vsg_ligand pose;
    vsg_ligand_init(&pose);
    vsg_status st = vsg_ligand_copy(&pose, lig);
    if (st != VSG_OK) return st;
    for (int i = 0; xyz && i < pose.natoms; i++)
        pose.atoms[i].x = xyz[3 * i], pose.atoms[i].y = xyz[3 * i + 1], pose.atoms[i].z = xyz[3 * i + 2];
    for (int i = 0; i < pose.natoms && st == VSG_OK; i++) {
        const vsg_lig_atom *at = &pose.atoms[i];
        const uint8_t ty = vsg_mapset_type_index(t->maps, at->ad_type);
        if (ty == VSG_SCORE_NO_TYPE) st = no_map(lig, i);
        const double p[3] = {at->x, at->y, at->z};
        double mp = 0, ep = 0;
        if (st == VSG_OK) atom_inter(t, ty, at->charge, p, &mp, &ep, NULL);
        out->outside += outside(t, p);
        out->vdw_hb_desolv += mp, out->elec += ep;
    }
    vsg_ad4_intra_result in;
    if (st == VSG_OK) st = vsg_ad4_intra(&pose, &t->par, &in);
    vsg_vina_ligand *l = NULL;
    if (st == VSG_OK) st = vsg_vina_ligand_new_ad4(&pose, &l);
    if (st == VSG_OK) {
        vsg_vina_ligand_info info;
        vsg_vina_ligand_get_info(l, &info);
        out->torsdof = info.torsdof;
        out->inter = out->vdw_hb_desolv + out->elec;
        out->intra = in.total;
        out->torsional = t->par.coeff_tors * info.torsdof;
        out->unbound = in.total; /* unbound model "same as bound", autodock4 4.2's default */
        out->total = out->inter + out->intra + out->torsional - out->unbound;
    }
    vsg_vina_ligand_free(l);
    vsg_ligand_release(&pose);
    if (st != VSG_OK) {
        const int o = out->outside;
        memset(out, 0, sizeof *out);
        out->outside = o;
    }
    return st;
}

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
            st = no_map(lig, i);
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
        double e = dock_bfgs(&w, &cur, d.local_steps, DOCK_AUTHENTIC_CAP);
        for (int round = 0; round < 20; round++) { /* until the energy stops falling */
            const double e2 = dock_bfgs(&w, &cur, d.local_steps, DOCK_AUTHENTIC_CAP);
            const int better = e2 < e - 1e-6;
            e = e2 < e ? e2 : e;
            if (!better) break;
        }
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

double vsg_dock_ad4_energy(const vsg_ad4_target *t, const vsg_ligand *lig, const double *xyz, double *grad)
{
    if (!t || !lig || !xyz || lig->format != VSG_LIG_PDBQT || !lig->text) return NAN;
    struct dock_ad4 A;
    memset(&A, 0, sizeof A);
    A.t = t, A.natoms = lig->natoms;
    A.type = malloc((size_t)lig->natoms + 1);
    A.q = malloc(sizeof(double) * (size_t)(lig->natoms + 1));
    double e = NAN;
    if (A.type && A.q && ad4_intra_tables_build(lig, &t->par, &A.intra) == VSG_OK) {
        int ok = 1;
        for (int i = 0; i < lig->natoms; i++) {
            A.type[i] = vsg_mapset_type_index(t->maps, lig->atoms[i].ad_type);
            A.q[i] = lig->atoms[i].charge;
            ok &= A.type[i] != VSG_SCORE_NO_TYPE;
        }
        if (ok) e = dock_ad4_eval(&A, xyz, HUGE_VAL, grad, NULL, NULL);
    }
    ad4_intra_tables_release(&A.intra);
    free(A.type), free(A.q);
    return e;
}

/* ---- the dry step of hydrated docking (vsgrid.h, "Hydrated docking") ------------------------- */

const char *vsg_water_class_name(vsg_water_class c)
{
    switch (c) {
    case VSG_WATER_STRONG: return "STRONG";
    case VSG_WATER_WEAK: return "WEAK";
    case VSG_WATER_DISPLACED: return "DISPLC";
    case VSG_WATER_LIGAND_CLASH: return "LIGAND_CLASH";
    case VSG_WATER_RECEPTOR_CLASH: return "RECEPTOR_CLASH";
    }
    return "?";
}

/* dry.py's pdb_atom_type: the letters of the atom name; "H" (with the type's leading H) marks a
 * hydrogen its ligand clash test skips. */
static int dry_hydrogen(const vsg_lig_atom *a)
{
    if (a->ad_type[0] == 'H') return 1;
    char letters[8];
    int n = 0;
    for (const char *c = a->name; *c && n < 7; c++)
        if ((*c >= 'A' && *c <= 'Z') || (*c >= 'a' && *c <= 'z')) letters[n++] = *c;
    letters[n] = '\0';
    return !strcmp(letters, "H");
}

/* dry.py's getpoints, as the published (Python 3) script computes it: the map's box is taken as
 * centre ± (nodes / 2) · spacing, a float division that the Python 2 original made an integer
 * one, so the box starts half a node below the grid's first node; the node "nearest" p is
 * round((p − that start) / spacing) (round half to even, Python 3's round); the score is the
 * lowest W-map value of the cube of ±k nodes (k = round(1 Å / spacing), at least 1) around it,
 * clipped to the grid (where dry.py's `break` drops the whole scan: 999, displaced); 0 (its
 * False) when p is not strictly inside that box. The documented scores of Vina's hydrated
 * example (solution/1uw6_ligand_ad4_out_DRY_SCORED.pdbqt) are these, all 18 (the true
 * nearest node would change 6 scores and 2 classes). */
static double dry_score(const vsg_score_grids *g, const float *w, const double p[3])
{
    int c[3], k[3];
    for (int d = 0; d < 3; d++) {
        const double center = g->origin[d] + 0.5 * (g->n[d] - 1) * g->spacing[d];
        const double lo = center - g->n[d] / 2.0 * g->spacing[d], hi = center + g->n[d] / 2.0 * g->spacing[d];
        if (!(p[d] > lo && p[d] < hi)) return 0.0;
        c[d] = (int)nearbyint((p[d] - lo) / g->spacing[d]);
        k[d] = (int)nearbyint(VSG_DRY_SCAN / g->spacing[d]);
        if (k[d] < 1) k[d] = 1;
    }
    double best = 999; /* dry.py's start: a scan that sees no node leaves it, and the water is displaced */
    const size_t nx = (size_t)g->n[0], nxy = nx * (size_t)g->n[1];
    for (int z = c[2] - k[2]; z <= c[2] + k[2]; z++) {
        if (z < 0 || z >= g->n[2]) continue;
        for (int y = c[1] - k[1]; y <= c[1] + k[1]; y++) {
            if (y < 0 || y >= g->n[1]) continue;
            for (int x = c[0] - k[0]; x <= c[0] + k[0]; x++) {
                if (x < 0 || x >= g->n[0]) continue;
                const double v = w[(size_t)x + nx * (size_t)y + nxy * (size_t)z];
                if (v < best) best = v;
            }
        }
    }
    return best;
}

vsg_status vsg_ad4_dry(const vsg_ad4_target *t, const vsg_molecule *rec, const vsg_ligand *lig, const double *xyz,
                       vsg_water_verdict *out, int *nwater)
{
    if (nwater) *nwater = 0;
    if (!t || !lig || !out || !nwater) return vsg_fail(VSG_E_ARG, "vsg_ad4_dry: NULL argument");
    const uint8_t wi = vsg_mapset_type_index(t->maps, "W");
    int any = 0;
    for (int i = 0; i < lig->natoms; i++) any |= !strcmp(lig->atoms[i].ad_type, "W");
    if (!any) return VSG_OK;
    if (wi == VSG_SCORE_NO_TYPE)
        return vsg_fail(VSG_E_DATA, "the map set has no W map: the dry step scores each water on it (PREFIX.W.map)");
    const vsg_score_grids *g = t->g;
    const size_t nrec = rec ? vsg_molecule_atom_count(rec) : 0;
    int nw = 0;
#define XYZ(i, d) (xyz ? xyz[3 * (i) + (d)] : (d) == 0 ? lig->atoms[i].x : (d) == 1 ? lig->atoms[i].y : lig->atoms[i].z)
    for (int i = 0; i < lig->natoms; i++) {
        if (strcmp(lig->atoms[i].ad_type, "W")) continue;
        const double p[3] = {XYZ(i, 0), XYZ(i, 1), XYZ(i, 2)};
        vsg_water_verdict v = {i, VSG_WATER_DISPLACED, NAN};
        int clash = 0;
        for (int j = 0; j < lig->natoms && !clash; j++) { /* dry.py's selfoverlap: < CLASH */
            if (j == i || !strcmp(lig->atoms[j].ad_type, "W") || dry_hydrogen(&lig->atoms[j])) continue;
            const double dx = p[0] - XYZ(j, 0), dy = p[1] - XYZ(j, 1), dz = p[2] - XYZ(j, 2);
            clash = dx * dx + dy * dy + dz * dz < VSG_DRY_CLASH * VSG_DRY_CLASH;
        }
        if (clash) v.cls = VSG_WATER_LIGAND_CLASH;
        for (size_t r = 0; r < nrec && !clash; r++) { /* targetoverlap: <= CLASH, HD skipped */
            vsg_atom_info a;
            if (vsg_molecule_atom(rec, r, &a) != VSG_OK || !strcmp(a.ad_type, "HD")) continue;
            const double dx = p[0] - a.x, dy = p[1] - a.y, dz = p[2] - a.z;
            if (dx * dx + dy * dy + dz * dz <= VSG_DRY_CLASH * VSG_DRY_CLASH) clash = 1, v.cls = VSG_WATER_RECEPTOR_CLASH;
        }
        if (!clash) {
            v.score = dry_score(g, g->maps[wi], p);
            v.cls = v.score < VSG_DRY_STRONG ? VSG_WATER_STRONG : v.score < VSG_DRY_WEAK ? VSG_WATER_WEAK : VSG_WATER_DISPLACED;
        }
        out[nw++] = v;
    }
#undef XYZ
    *nwater = nw;
    return VSG_OK;
}
