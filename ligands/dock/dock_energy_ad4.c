/* dock_energy_ad4.c — the AutoDock4 function as the docking search minimises it and as autodock4's
 * epdb scores a pose, on an AutoGrid map set (vsgrid.h, "Flexible docking with the AutoDock4
 * function"; the searches that use it: dock_ad4.c on the CPU, dock_ad4_gpu.c on a GPU):
 *  - inter: every atom, hydrogens included, on the maps as autodock4's trilinterp reads them:
 *    map_type(r) + q·e(r) + |q|·d(r), trilinear (score_cpu.c's interpolation), with its analytic
 *    gradient (the cell's differences along each axis); an atom outside the grid gets autodock4's
 *    2 · 500 · |r − c|² (c the grid's centre; score_cpu.c documents the rule) and its gradient.
 *    While the chains hunt, an atom's inside energy is curled as Vina's search curls it
 *    (e > 0 → e·v/(v + e), v = 10), and refined minima use v = 1000 (dock_method.h);
 *  - intra: autodock4's non-bonded pairs (ad4_intra.c: bonds by distance, 1-2/1-3/1-4, rigid
 *    pieces and weedbonds' torsion rules) with its r² bin tables, linear in r² between bin starts
 *    so that it has a slope (ad4_intra.h); 0 for a ligand without torsions, as in autodock4.
 * A pose is scored exactly as autodock4's epdb scores the written pose (vsg_ad4_score_pose:
 * coordinates rounded to 0.001 Å as PDBQT writes them, the intermolecular terms in double from
 * the same maps, the internal energy by vsg_ad4_intra, the torsional free energy FE_coeff_tors ×
 * TORSDOF). */
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
vsg_status dock_ad4_no_map(const vsg_ligand *lig, int i)
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
        if (ty == VSG_SCORE_NO_TYPE) st = dock_ad4_no_map(lig, i);
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
