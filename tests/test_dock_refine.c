/* test_dock_refine.c — final poses refined and scored on the receptor's atoms (issue 28 item 5;
 * ligands/dock/dock_refine.c, vsg_vina_target_add_receptor): the atom energy's gradient agrees
 * with central finite differences (inside the box and outside it, where the slope adds); a map
 * set given its receptor docks with every pose's terms equal to `vina --score_only` on the atoms
 * (an atom target's score of the pose), in score order; the refinement never leaves a pose worse
 * on the atoms than the unrefined pose from the same search; and bad calls are refused.
 * Data: data/1stp_receptor.pdbqt and biotin (5 rotors), maps made here. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grids/base/vsgrid.h"
#include "ligands/dock/dock_internal.h"
#include "tests/check.h"
#include "tests/dock_kit.h"

/* Vina maps of the ligand's XS types in a 22 Å box at its centre, written under prefix, read back. */
static vsg_vina_target *make_maps(const vsg_molecule *rec, const vsg_vina_ligand *l, const char *prefix)
{
    vsg_vina_box box;
    vsg_vina_ligand_autobox(l, &box);
    for (int d = 0; d < 3; d++) box.size[d] = 22;
    vsg_xs_type types[VSG_XS_COUNT];
    const int nt = ligand_xs_types(l, NULL, 0, types);
    return vina_maps_target(rec, &box, types, nt, prefix, "1stp_receptor");
}

/* dock_atoms_inter's gradient against central differences, at the ligand's atoms and at points
 * moved out of the box (the slope's part). */
static void test_gradient(const vsg_vina_target *t, const vsg_vina_ligand *l)
{
    double worst = 0;
    int n = 0, good = 0;
    for (int i = 0; i < l->natoms; i++) {
        if (l->xs[i] == VSG_XS_NONE) continue;
        for (int shift = 0; shift < 3; shift++) {
            double p[3] = {l->xyz[3 * i] + 0.13 * shift, l->xyz[3 * i + 1] - 0.07 * shift, l->xyz[3 * i + 2] + 0.05 * shift};
            if (shift == 2) p[0] = t->end[0] + 0.8; /* outside the box along x */
            double g[3];
            const double e = dock_atoms_inter(t, l->xs[i], p, 1000, 1e3, g);
            CHECK(isfinite(e));
            for (int d = 0; d < 3; d++) {
                const double h = 1e-7; /* small: ~100 pairs an atom, each with kinks 1/32 Å² apart */
                double a[3] = {p[0], p[1], p[2]}, b[3] = {p[0], p[1], p[2]};
                a[d] += h, b[d] -= h;
                const double fd = (dock_atoms_inter(t, l->xs[i], a, 1000, 1e3, NULL) - dock_atoms_inter(t, l->xs[i], b, 1000, 1e3, NULL)) / (2 * h);
                const double err = fabs(fd - g[d]) / (1 + fabs(g[d]));
                if (err > worst) worst = err;
                n++, good += err < 1e-4;
            }
        }
    }
    /* the pair energy is linear in r² between samples 1/32 Å² apart: a difference that straddles
     * a sample sees the kink, so a few components may differ; the rest agree to 1e-4 */
    printf("atom energy gradient: %d components, %d within 1e-4 of central differences (worst %.2e)\n", n, good, worst);
    CHECK(n > 30 && good >= 0.97 * n && worst < 0.05);
}

int main(void)
{
    char recp[1024], ligp[1024], prefix[1024];
    snprintf(recp, sizeof recp, "%s/data/1stp_receptor.pdbqt", VSG_SOURCE_DIR);
    snprintf(ligp, sizeof ligp, "%s/data/biotin.pdbqt", VSG_SOURCE_DIR);
    snprintf(prefix, sizeof prefix, "%s/test_dock_refine_maps", VSG_BINARY_DIR);
    vsg_ligand lig;
    vsg_ligand_init(&lig);
    CHECK_STATUS(read_first(ligp, &lig), VSG_OK);
    vsg_vina_ligand *l = NULL;
    vsg_molecule *rec = NULL;
    CHECK_STATUS(vsg_vina_ligand_new(&lig, &l), VSG_OK);
    CHECK_STATUS(vsg_molecule_read(recp, NULL, &rec), VSG_OK);
    if (!l || !rec) CHECK_EXIT();
    vsg_vina_target *maps = make_maps(rec, l, prefix), *refined = make_maps(rec, l, prefix), *atoms = NULL;
    CHECK_STATUS(vsg_vina_target_receptor(rec, VSG_VINA_SCORING_VINA, &atoms), VSG_OK);
    CHECK(maps && refined && atoms);
    if (!maps || !refined || !atoms) CHECK_EXIT();

    /* refusals: NULL, an atom target, a second receptor */
    CHECK_STATUS(vsg_vina_target_add_receptor(NULL, rec), VSG_E_ARG);
    CHECK_STATUS(vsg_vina_target_add_receptor(refined, NULL), VSG_E_ARG);
    CHECK_STATUS(vsg_vina_target_add_receptor(atoms, rec), VSG_E_ARG);
    CHECK(!vsg_vina_target_has_receptor(maps));
    CHECK_STATUS(vsg_vina_target_add_receptor(refined, rec), VSG_OK);
    CHECK(vsg_vina_target_has_receptor(refined));
    CHECK_STATUS(vsg_vina_target_add_receptor(refined, rec), VSG_E_ARG);

    test_gradient(refined, l);

    vsg_dock_params p;
    vsg_dock_params_default(&p);
    p.seed = 7, p.exhaustiveness = 4, p.steps = 40, p.poses = 5, p.threads = 1;
    p.random_start = 0; /* chains from the crystal pose: poses near it to refine */
    vsg_dock_result a, b;
    CHECK_STATUS(vsg_dock_cpu(maps, &lig, &p, &a), VSG_OK);    /* on the maps */
    CHECK_STATUS(vsg_dock_cpu(refined, &lig, &p, &b), VSG_OK); /* the same search, then refined on the atoms */
    CHECK(a.npose >= 2 && b.npose == a.npose);
    double best_unrefined = INFINITY, best_refined = INFINITY;
    vsg_vina_ligand shadow = *l;
    for (int i = 0; i < b.npose; i++) {
        vsg_vina_score s;
        /* the refined pose's terms are vina --score_only's on the receptor's atoms */
        shadow.xyz = b.pose[i].xyz;
        CHECK_STATUS(vsg_vina_score_pose(atoms, &shadow, &s), VSG_OK);
        CHECK_NEAR(b.pose[i].score.inter, s.inter, 1e-9);
        CHECK_NEAR(b.pose[i].score.intra, s.intra, 1e-9);
        if (i == 0) CHECK_NEAR(b.pose[0].score.total, s.total, 1e-9);
        if (i) CHECK(b.pose[i].score.total >= b.pose[i - 1].score.total);
        CHECK(b.pose[i].score.outside == 0);
        if (s.inter + s.intra < best_refined) best_refined = s.inter + s.intra;
        /* the unrefined pose scored on the atoms */
        shadow.xyz = a.pose[i].xyz;
        CHECK_STATUS(vsg_vina_score_pose(atoms, &shadow, &s), VSG_OK);
        if (s.inter + s.intra < best_unrefined) best_unrefined = s.inter + s.intra;
        if (i) CHECK(a.pose[i].score.total >= a.pose[i - 1].score.total);
    }
    printf("biotin: best pose on the maps %.3f kcal/mol; refined on the atoms %.3f (inter + intra: unrefined %.3f, "
           "refined %.3f on the atoms); RMSD to the crystal %.2f / %.2f A\n",
           a.pose[0].score.total, b.pose[0].score.total, best_unrefined, best_refined, a.pose[0].rmsd_input, b.pose[0].rmsd_input);
    /* BFGS never leaves a pose worse (0.01: the 0.001 Å rounding of written coordinates) */
    CHECK(best_refined <= best_unrefined + 0.01);
    CHECK(b.pose[0].score.total < -5);
    vsg_dock_result_release(&a);
    vsg_dock_result_release(&b);

    /* --local-only on a map set with its receptor: minimised on the atoms, scored there */
    vsg_dock_result c;
    CHECK_STATUS(vsg_dock_local(refined, &lig, NULL, &c), VSG_OK);
    CHECK(c.npose == 1);
    if (c.npose == 1) {
        vsg_vina_score s;
        shadow.xyz = c.pose[0].xyz;
        CHECK_STATUS(vsg_vina_score_pose(atoms, &shadow, &s), VSG_OK);
        CHECK_NEAR(c.pose[0].score.total, s.total, 1e-9);
        CHECK(c.pose[0].rmsd_input < 1.0);
        printf("local-only on the atoms: %.3f kcal/mol, %.2f A from the input\n", s.total, c.pose[0].rmsd_input);
    }
    vsg_dock_result_release(&c);

    vsg_vina_target_free(maps);
    vsg_vina_target_free(refined);
    vsg_vina_target_free(atoms);
    vsg_molecule_free(rec);
    vsg_vina_ligand_free(l);
    vsg_ligand_release(&lig);
    CHECK_EXIT();
}
