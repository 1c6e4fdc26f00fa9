/* dock_refine.c — the final poses refined on the receptor's atoms, as AutoDock Vina 1.2 refines
 * its docked poses when it has the receptor (vina.cpp's dock(), unless --no_refine): each pose
 * minimised by BFGS ((25 + atoms)/3 iterations, cap 1000) with its intermolecular energy from the
 * receptor's atoms (non_cache: no map interpolation), the out-of-box slope raised 100, 10⁴ …
 * 10¹⁰ kcal/mol/Å until every heavy atom is inside the box; its energy then taken at Vina's
 * 10⁶. Maps give the search its speed; their trilinear interpolation costs a docked pose
 * 0.3–0.6 kcal/mol (issue 28), and this step takes it back. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ligands/dock/dock_internal.h"
#include "ligands/dock/dock_method.h"

static int inside_box(const vsg_vina_target *t, const dock_tree *tree, const double *xyz, const struct vsg_flex *f)
{
    for (int h = 0; h < tree->nheavy; h++)
        for (int d = 0; d < 3; d++) {
            const double x = xyz[3 * tree->heavy[h] + d];
            if (x < t->begin[d] || x > t->end[d]) return 0;
        }
    for (int m = 0; f && m < f->nmov; m++) /* flex residues' movable heavy atoms too, as Vina's within() */
        for (int d = 0; d < 3; d++) {
            const double x = xyz[3 * (tree->nlig + f->mov[m]) + d];
            if (x < t->begin[d] || x > t->end[d]) return 0;
        }
    return 1;
}

vsg_status dock_refine_on_atoms(const vsg_vina_target *t, dock_prep *d, dock_kept **pick, int np, long *evals)
{
    const dock_tree *tree = &d->tree;
    dock_energy atoms = d->en;
    atoms.on_atoms = 1;
    dock_work w;
    vsg_status st = dock_work_init(&w, tree, &atoms);
    if (st != VSG_OK) return st;
    const int max_steps = (25 + d->L->natoms + (d->flex ? d->flex->nmov_all : 0)) / 3; /* Vina: movable atoms */
    double *start_tor = malloc(sizeof(double) * (size_t)(tree->nrot + 1)); /* a pose's torsions before refining */
    if (!start_tor) {
        dock_work_release(&w);
        return vsg_fail(VSG_E_NOMEM, "dock: out of memory");
    }
    for (int i = 0; i < np; i++) {
        dock_conf c = {{pick[i]->pos[0], pick[i]->pos[1], pick[i]->pos[2]},
                       {pick[i]->q[0], pick[i]->q[1], pick[i]->q[2], pick[i]->q[3]}, pick[i]->tor};
        /* the pose as the search left it, on the atoms: what the refinement must improve */
        atoms.slope = VINA_SLOPE;
        dock_conf_apply(tree, &c, w.xyz);
        const double e_start = dock_energy_eval(&atoms, w.xyz, DOCK_AUTHENTIC_CAP, NULL, NULL, NULL);
        memcpy(start_tor, c.tor, sizeof(double) * (size_t)tree->nrot);
        int inside = 0;
        for (int p = 0; p < 5 && !inside; p++) {
            atoms.slope = 100 * pow(10.0, 2.0 * p);
            dock_bfgs(&w, &c, max_steps, DOCK_AUTHENTIC_CAP);
            dock_conf_apply(tree, &c, w.xyz);
            inside = inside_box(t, tree, w.xyz, d->flex);
        }
        atoms.slope = VINA_SLOPE;
        double e = dock_energy_eval(&atoms, w.xyz, DOCK_AUTHENTIC_CAP, NULL, NULL, NULL);
        /* Vina keeps whatever its refinement gives; a pose that left the box (the low first slopes let
         * a clash the maps' interpolation hid push it out) or got worse on the atoms is kept as the
         * search found it instead, so refining never turns a pose inside the box into one outside */
        if (!inside || !(e <= e_start)) {
            memcpy(c.pos, pick[i]->pos, sizeof c.pos);
            memcpy(c.q, pick[i]->q, sizeof c.q);
            memcpy(c.tor, start_tor, sizeof(double) * (size_t)tree->nrot);
            dock_conf_apply(tree, &c, w.xyz);
            e = e_start;
        }
        pick[i]->e = e;
        memcpy(pick[i]->pos, c.pos, sizeof c.pos);
        memcpy(pick[i]->q, c.q, sizeof c.q);
        for (int h = 0; h < tree->nheavy; h++) memcpy(&pick[i]->heavy[3 * h], &w.xyz[3 * tree->heavy[h]], 3 * sizeof(double));
    }
    free(start_tor);
    if (evals) *evals += w.evals;
    dock_work_release(&w);
    return VSG_OK;
}
