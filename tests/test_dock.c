/* test_dock.c — the flexible-docking CPU twin (ligands/dock/): torsions applied to
 * coordinates keep every bond and every rigid body (rings) as in the input; the analytic
 * gradient of the search's energy with respect to position, orientation and each torsion
 * agrees with central finite differences; the search repeats exactly for a seed whatever the
 * thread count, returns poses whose scores are vsg_vina_score_pose's, and refuses bad
 * arguments. Data: data/1stp_receptor.pdbqt and biotin (5 rotors), maps made here. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grids/base/vsgrid.h"
#include "ligands/dock/dock_internal.h"
#include "ligands/dock/dock_rng.h"
#include "ligands/torsions/torsions.h"
#include "tests/check.h"
#include "tests/dock_kit.h"

static const char *dir = VSG_BINARY_DIR;

/* Vina maps of the ligand's XS types around its autobox, written under prefix and read back. */
static vsg_vina_target *make_maps(const char *rec_path, const vsg_vina_ligand *l, const char *prefix)
{
    vsg_molecule *rec = NULL;
    if (vsg_molecule_read(rec_path, NULL, &rec) != VSG_OK) return NULL;
    vsg_vina_box box;
    vsg_vina_ligand_autobox(l, &box);
    vsg_xs_type types[VSG_XS_COUNT];
    const int nt = ligand_xs_types(l, NULL, 0, types);
    vsg_vina_target *t = vina_maps_target(rec, &box, types, nt, prefix, "1stp_receptor");
    vsg_molecule_free(rec);
    return t;
}

static double dist(const double *x, int i, int j)
{
    const double a = x[3 * i] - x[3 * j], b = x[3 * i + 1] - x[3 * j + 1], c = x[3 * i + 2] - x[3 * j + 2];
    return sqrt(a * a + b * b + c * c);
}

/* 1 when atoms i and j move together: on the same side of every rotor. */
static int rigid_pair(const dock_tree *t, int i, int j)
{
    for (int k = 0; k < t->nrot; k++) {
        int in_i = 0, in_j = 0;
        for (int s = t->sub_start[k]; s < t->sub_start[k + 1]; s++) in_i |= t->sub[s] == i, in_j |= t->sub[s] == j;
        if (in_i != in_j) return 0;
    }
    return 1;
}

static void test_tree_and_gradient(const vsg_vina_target *t, const vsg_ligand *lig, const vsg_vina_ligand *l)
{
    vsg_torsions tor;
    CHECK_STATUS(vsg_torsions_from_pdbqt(lig, &tor), VSG_OK);
    dock_tree tree;
    CHECK_STATUS(dock_tree_build(l, tor.body, tor.nbodies, tor.nrotors, (const int(*)[2])tor.rotor, 0, &tree), VSG_OK);
    CHECK(tree.nrot == 5);
    const int n = tree.natoms, nr = tree.nrot;
    double *xyz = malloc(sizeof(double) * 3 * (size_t)n), tors[16] = {0};
    dock_conf c = {{tree.origin0[0], tree.origin0[1], tree.origin0[2]}, {1, 0, 0, 0}, tors};
    /* the zero conformation is the input */
    dock_conf_apply(&tree, &c, xyz);
    double worst = 0;
    for (int i = 0; i < 3 * n; i++) worst = fmax(worst, fabs(xyz[i] - l->xyz[i]));
    CHECK_NEAR(worst, 0, 1e-12);
    /* any conformation keeps bonds (pairs < 2 Å) and every rigid pair's distance */
    dock_rng rng = dock_rng_for(7, 0);
    int rigid_pairs = 0, bonds = 0;
    double bond_err = 0, rigid_err = 0;
    for (int trial = 0; trial < 20; trial++) {
        for (int d = 0; d < 3; d++) c.pos[d] = tree.origin0[d] + dock_rng_range(&rng, -3, 3);
        dock_rng_quat(&rng, c.q);
        for (int k = 0; k < nr; k++) c.tor[k] = dock_rng_range(&rng, -3.14159, 3.14159);
        dock_conf_apply(&tree, &c, xyz);
        for (int i = 0; i < n; i++)
            for (int j = i + 1; j < n; j++) {
                const double d0 = dist(l->xyz, i, j), d1 = dist(xyz, i, j);
                if (d0 < 2.0) bonds++, bond_err = fmax(bond_err, fabs(d1 - d0));
                if (rigid_pair(&tree, i, j)) rigid_pairs++, rigid_err = fmax(rigid_err, fabs(d1 - d0));
            }
    }
    printf("torsions: %d bonds, %d rigid pairs over 20 conformations: worst change %.2e, %.2e Å\n", bonds, rigid_pairs,
           bond_err, rigid_err);
    CHECK(bonds > 20 * 15 && rigid_pairs > bonds);
    CHECK_NEAR(bond_err, 0, 1e-9);
    CHECK_NEAR(rigid_err, 0, 1e-9);
    /* a torsion moves something: its subtree turns, the rest stays */
    CHECK(tree.sub_start[1] > tree.sub_start[0]);

    /* gradient against central differences, at poses near the crystal one (in the box) */
    dock_energy en;
    CHECK_STATUS(dock_energy_init(&en, t, l, &tree), VSG_OK);
    dock_work w;
    CHECK_STATUS(dock_work_init(&w, &tree, &en), VSG_OK);
    double grad[32], step[32], tplus[16], tminus[16];
    int compared = 0;
    double worst_rel = 0;
    for (int trial = 0; trial < 6; trial++) {
        for (int d = 0; d < 3; d++) c.pos[d] = tree.origin0[d] + dock_rng_range(&rng, -0.7, 0.7);
        double rv[3];
        dock_rng_in_sphere(&rng, rv);
        c.q[0] = 1, c.q[1] = c.q[2] = c.q[3] = 0;
        double d6[32] = {0, 0, 0, 0.3 * rv[0], 0.3 * rv[1], 0.3 * rv[2]};
        dock_conf_increment(&tree, &c, d6, 1.0);
        for (int k = 0; k < nr; k++) c.tor[k] = dock_rng_range(&rng, -0.6, 0.6);
        for (int cap = 0; cap < 2; cap++) {
            const double v = cap ? 1000.0 : 10.0;
            dock_eval(&w, &c, v, grad);
            for (int k = 0; k < 6 + nr; k++) {
                const double h = 1e-6;
                for (int m = 0; m < 6 + nr; m++) step[m] = m == k;
                dock_conf cp = c, cm = c;
                cp.tor = tplus, cm.tor = tminus;
                memcpy(tplus, c.tor, sizeof(double) * (size_t)nr);
                memcpy(tminus, c.tor, sizeof(double) * (size_t)nr);
                dock_conf_increment(&tree, &cp, step, h);
                dock_conf_increment(&tree, &cm, step, -h);
                const double fd = (dock_eval(&w, &cp, v, NULL) - dock_eval(&w, &cm, v, NULL)) / (2 * h);
                const double rel = fabs(fd - grad[k]) / (fabs(fd) + 1e-2);
                if (rel > worst_rel) worst_rel = rel;
                if (rel > 1e-3)
                    fprintf(stderr, "trial %d cap %g: d/d%s%d analytic %.8g, finite difference %.8g\n", trial, v,
                            k < 3 ? "pos" : k < 6 ? "rot" : "tor", k < 6 ? k % 3 : k - 6, grad[k], fd);
                CHECK(rel <= 1e-3);
                compared++;
            }
        }
    }
    printf("gradient: %d components against central differences, worst relative error %.2e\n", compared, worst_rel);
    /* the minimiser goes downhill and ends with a small gradient */
    for (int d = 0; d < 3; d++) c.pos[d] = tree.origin0[d] + 0.5;
    for (int k = 0; k < nr; k++) c.tor[k] = 0.4;
    const double e0 = dock_eval(&w, &c, 1000, grad);
    const double e1 = dock_bfgs(&w, &c, 200, 1000);
    printf("bfgs: %.4f -> %.4f kcal/mol\n", e0, e1);
    CHECK(e1 < e0 - 1);
    (void)step;
    dock_work_release(&w);
    dock_energy_release(&en);
    dock_tree_release(&tree);
    vsg_torsions_release(&tor);
    free(xyz);
}

static void test_search(const vsg_vina_target *t, const vsg_ligand *lig, const vsg_vina_ligand *l)
{
    vsg_dock_params p;
    vsg_dock_params_default(&p);
    p.seed = 42, p.exhaustiveness = 3, p.steps = 150, p.poses = 4, p.threads = 1;
    vsg_dock_result a, b;
    CHECK_STATUS(vsg_dock_cpu(t, lig, &p, &a), VSG_OK);
    p.threads = 2;
    CHECK_STATUS(vsg_dock_cpu(t, lig, &p, &b), VSG_OK);
    CHECK(a.npose >= 1 && a.npose <= 4 && a.npose == b.npose && a.natoms == l->natoms && a.rotors == 5);
    printf("search: %d poses, best %.3f kcal/mol (energy %.3f), RMSD to the crystal %.2f Å, %ld evaluations, %.2f s\n",
           a.npose, a.npose ? a.pose[0].score.total : 0, a.npose ? a.pose[0].energy : 0,
           a.npose ? a.pose[0].rmsd_input : 0, a.evaluations, a.seconds);
    for (int i = 0; i < a.npose && i < b.npose; i++) {
        CHECK(!memcmp(a.pose[i].xyz, b.pose[i].xyz, sizeof(double) * 3 * (size_t)a.natoms)); /* bit for bit */
        CHECK(a.pose[i].score.total == b.pose[i].score.total);
        /* in score order: inter + intra, and so the totals (Vina's docking output: relative to the
         * best pose's intra, over one divisor) */
        if (i) CHECK(a.pose[i].score.inter + a.pose[i].score.intra >= a.pose[i - 1].score.inter + a.pose[i - 1].score.intra);
        if (i) CHECK(a.pose[i].score.total >= a.pose[i - 1].score.total);
        /* the terms are vsg_vina_score_pose's on the pose, and the best pose's total too */
        vsg_vina_ligand shadow = *l;
        shadow.xyz = a.pose[i].xyz;
        vsg_vina_score s;
        CHECK_STATUS(vsg_vina_score_pose(t, &shadow, &s), VSG_OK);
        CHECK(s.inter == a.pose[i].score.inter && s.intra == a.pose[i].score.intra);
        CHECK(a.pose[i].score.unbound == a.pose[0].score.intra);
        if (i == 0) CHECK(s.total == a.pose[i].score.total);
        else CHECK_NEAR(a.pose[i].score.total,
                        (s.inter + s.intra - a.pose[0].score.intra) / (s.total != 0 ? s.inter / s.total : 1), 1e-9);
        CHECK(a.pose[i].score.outside == 0); /* rounding to 0.001 A never pushes an atom out of the box */
        for (int k = 0; k < 3 * a.natoms; k++) CHECK(fabs(a.pose[i].xyz[k] * 1000 - round(a.pose[i].xyz[k] * 1000)) < 1e-6);
    }
    CHECK(a.npose && a.pose[0].score.total < -5); /* biotin in streptavidin: about −8 */
    CHECK(a.evaluations == b.evaluations);
    /* another seed searches differently */
    p.seed = 43;
    vsg_dock_result c;
    CHECK_STATUS(vsg_dock_cpu(t, lig, &p, &c), VSG_OK);
    CHECK(c.evaluations != a.evaluations || memcmp(c.pose[0].xyz, a.pose[0].xyz, sizeof(double) * 3 * (size_t)a.natoms));
    vsg_dock_result_release(&a);
    vsg_dock_result_release(&b);
    vsg_dock_result_release(&c);
    /* bad arguments */
    vsg_dock_result r;
    CHECK_STATUS(vsg_dock_cpu(NULL, lig, NULL, &r), VSG_E_ARG);
    CHECK_STATUS(vsg_dock_cpu(t, NULL, NULL, &r), VSG_E_ARG);
    CHECK_STATUS(vsg_dock_cpu(t, lig, NULL, NULL), VSG_E_ARG);
    p.poses = -1;
    CHECK_STATUS(vsg_dock_cpu(t, lig, &p, &r), VSG_E_ARG);
    CHECK(r.npose == 0 && r.pose == NULL);
    vsg_dock_params_default(&p);
    p.min_rmsd = NAN;
    CHECK_STATUS(vsg_dock_cpu(t, lig, &p, &r), VSG_E_ARG);
    vsg_dock_result_release(&r);
}

/* Focus chains (vsgrid.h): the exploring chains run as without them, so the best minimum can only
 * get lower; the result is the same whatever the thread count; their steps are counted. */
static void test_focus(const vsg_vina_target *t, const vsg_ligand *lig)
{
    vsg_dock_params p;
    vsg_dock_params_default(&p);
    p.seed = 7, p.exhaustiveness = 4, p.steps = 20, p.poses = 3, p.threads = 1, p.chain_keep = 1;
    vsg_dock_result base, f1, f2;
    CHECK_STATUS(vsg_dock_cpu(t, lig, &p, &base), VSG_OK);
    p.focus_chains = 3, p.focus_steps = 60;
    CHECK_STATUS(vsg_dock_cpu(t, lig, &p, &f1), VSG_OK);
    p.threads = 2;
    CHECK_STATUS(vsg_dock_cpu(t, lig, &p, &f2), VSG_OK);
    CHECK(base.npose >= 1 && f1.npose >= 1 && f1.npose == f2.npose);
    if (base.npose && f1.npose) {
        printf("focus: best energy %.3f without, %.3f with 3 focus chains x 60 steps (%ld, %ld evaluations)\n",
               base.pose[0].energy, f1.pose[0].energy, base.evaluations, f1.evaluations);
        CHECK(f1.pose[0].energy <= base.pose[0].energy + 1e-3);
        CHECK(f1.evaluations > base.evaluations);
    }
    for (int i = 0; i < f1.npose && i < f2.npose; i++)
        CHECK(!memcmp(f1.pose[i].xyz, f2.pose[i].xyz, sizeof(double) * 3 * (size_t)f1.natoms));
    CHECK(f1.evaluations == f2.evaluations);
    /* small focus moves (focus_amplitude): 1 is the default's moves to the bit; 0.1 another search
     * whose focus chains still only lower the best minimum */
    vsg_dock_result a1, a01;
    p.threads = 1, p.focus_amplitude = 1;
    CHECK_STATUS(vsg_dock_cpu(t, lig, &p, &a1), VSG_OK);
    CHECK(a1.npose == f1.npose && a1.evaluations == f1.evaluations);
    for (int i = 0; i < a1.npose && i < f1.npose; i++)
        CHECK(!memcmp(a1.pose[i].xyz, f1.pose[i].xyz, sizeof(double) * 3 * (size_t)f1.natoms));
    p.focus_amplitude = 0.1;
    CHECK_STATUS(vsg_dock_cpu(t, lig, &p, &a01), VSG_OK);
    CHECK(a01.npose >= 1 && a01.evaluations != f1.evaluations);
    if (a01.npose && base.npose) {
        printf("focus: best energy %.3f with focus moves x 0.1\n", a01.pose[0].energy);
        CHECK(a01.pose[0].energy <= base.pose[0].energy + 1e-3);
    }
    vsg_dock_result_release(&a1), vsg_dock_result_release(&a01);
    vsg_dock_result_release(&base), vsg_dock_result_release(&f1), vsg_dock_result_release(&f2);
    vsg_dock_result r;
    /* the bench switch: a fraction overrides the field, anything else is refused naming it */
    vsg_dock_result env01;
    p.focus_amplitude = 0;
    setenv("VSG_FOCUS_AMPLITUDE", "0.1", 1);
    CHECK_STATUS(vsg_dock_cpu(t, lig, &p, &env01), VSG_OK);
    setenv("VSG_FOCUS_AMPLITUDE", "2", 1);
    CHECK_STATUS(vsg_dock_cpu(t, lig, &p, &r), VSG_E_ARG);
    CHECK(strstr(vsg_last_error(), "VSG_FOCUS_AMPLITUDE") != NULL);
    unsetenv("VSG_FOCUS_AMPLITUDE");
    p.focus_amplitude = 0.1;
    vsg_dock_result field01;
    CHECK_STATUS(vsg_dock_cpu(t, lig, &p, &field01), VSG_OK);
    CHECK(env01.npose == field01.npose && env01.evaluations == field01.evaluations);
    vsg_dock_result_release(&env01), vsg_dock_result_release(&field01);
    p.focus_amplitude = 1.5;
    CHECK_STATUS(vsg_dock_cpu(t, lig, &p, &r), VSG_E_ARG);
    p.focus_amplitude = -0.1;
    CHECK_STATUS(vsg_dock_cpu(t, lig, &p, &r), VSG_E_ARG);
    p.focus_amplitude = 0;
    p.focus_chains = -1;
    CHECK_STATUS(vsg_dock_cpu(t, lig, &p, &r), VSG_E_ARG);
    /* the effort as dock and screen take it: a preset's focus chains, none for an exact effort
     * unless asked for */
    vsg_dock_params e;
    vsg_dock_params_default(&e);
    CHECK_STATUS(vsg_dock_params_effort(&e, "balanced", 0, 0, -1, 0), VSG_OK);
    CHECK(e.exhaustiveness == 128 && e.steps == 40 && e.focus_chains == 16 && e.focus_steps == 0 &&
          e.focus_amplitude == 0);
    CHECK_STATUS(vsg_dock_params_effort(&e, "balanced", 4, 0, -1, 0), VSG_OK);
    CHECK(e.exhaustiveness == 4 && e.steps == 40 && e.focus_chains == 0);
    CHECK_STATUS(vsg_dock_params_effort(&e, NULL, 0, 3000, 2, 50), VSG_OK);
    CHECK(e.exhaustiveness == 128 && e.steps == 3000 && e.focus_chains == 2 && e.focus_steps == 50);
    CHECK_STATUS(vsg_dock_params_effort(&e, "thorough", 0, 0, -1, 0), VSG_OK);
    CHECK(e.focus_chains == 0 && e.focus_amplitude == 0);
    CHECK_STATUS(vsg_dock_params_effort(&e, "nope", 0, 0, -1, 0), VSG_E_ARG);
    CHECK_STATUS(vsg_dock_params_effort(NULL, "fast", 0, 0, -1, 0), VSG_E_ARG);
    p.focus_chains = 1, p.focus_steps = 2000000;
    CHECK_STATUS(vsg_dock_cpu(t, lig, &p, &r), VSG_E_ARG);
}

/* dock's default search by the box (vsg_dock_box_ratio, vsg_dock_default_search,
 * vsg_dock_below_thorough): two carbons 2 Å apart (centre midway, reach 1 Å: the ligand's own box
 * a 10 Å cube) and a hydrogen far away, which does not count. */
static void test_box_ratio(void)
{
    vsg_lig_atom a[3];
    memset(a, 0, sizeof a);
    strcpy(a[0].element, "C"), strcpy(a[1].element, "C"), strcpy(a[2].element, "H");
    a[1].x = 2, a[2].x = 50;
    vsg_ligand lig;
    vsg_ligand_init(&lig);
    lig.natoms = 3, lig.atoms = a;
    const double cube20[3] = {20, 20, 20}, cube10[3] = {10, 10, 10}, over[3] = {12.6, 12.6, 12.6}, under[3] = {12.5, 12.5, 12.5};
    CHECK_NEAR(vsg_dock_box_ratio(cube20, &lig), 8.0, 1e-12);
    CHECK_NEAR(vsg_dock_box_ratio(cube10, &lig), 1.0, 1e-12);
    CHECK(!strcmp(vsg_dock_default_search(vsg_dock_box_ratio(cube20, &lig)), "thorough"));
    CHECK(!strcmp(vsg_dock_default_search(vsg_dock_box_ratio(cube10, &lig)), "detail"));
    CHECK(!strcmp(vsg_dock_default_search(vsg_dock_box_ratio(over, &lig)), "thorough")); /* 2.0004 */
    CHECK(!strcmp(vsg_dock_default_search(vsg_dock_box_ratio(under, &lig)), "detail"));  /* 1.95 */
    vsg_dock_params q; /* the effort a large box warns about: below thorough's chain steps */
    vsg_dock_params_default(&q);
    vsg_dock_params_preset(&q, "detail");
    CHECK(vsg_dock_below_thorough(&q));
    vsg_dock_params_preset(&q, "thorough");
    CHECK(!vsg_dock_below_thorough(&q));
    q.exhaustiveness = 2048, q.steps = 60; /* more chain steps than thorough's 512 x 240 */
    CHECK(!vsg_dock_below_thorough(&q));
    lig.natoms = 1, lig.atoms = a + 2; /* no heavy atom */
    CHECK(vsg_dock_box_ratio(cube20, &lig) == 0 && vsg_dock_box_ratio(NULL, &lig) == 0);
}

int main(void)
{
    test_box_ratio();
    char rec[1024], ligp[1024], prefix[1024];
    snprintf(rec, sizeof rec, "%s/data/1stp_receptor.pdbqt", VSG_SOURCE_DIR);
    snprintf(ligp, sizeof ligp, "%s/data/biotin.pdbqt", VSG_SOURCE_DIR);
    snprintf(prefix, sizeof prefix, "%s/test_dock_maps", dir);
    if (vsg_gpu_count() < 1) { /* AUTO without a GPU is the CPU, whatever the chains (test_gpu_dock: with one) */
        vsg_dock_params a;
        vsg_dock_params_default(&a);
        a.exhaustiveness = 4096;
        CHECK(vsg_dock_auto_device(&a) == VSG_DEVICE_CPU && vsg_dock_auto_device(NULL) == VSG_DEVICE_CPU);
    }
    vsg_ligand lig;
    vsg_ligand_init(&lig);
    CHECK_STATUS(read_first(ligp, &lig), VSG_OK);
    vsg_vina_ligand *l = NULL;
    CHECK_STATUS(vsg_vina_ligand_new(&lig, &l), VSG_OK);
    if (!l) CHECK_EXIT();
    vsg_vina_target *t = make_maps(rec, l, prefix);
    CHECK(t != NULL);
    if (t) {
        test_tree_and_gradient(t, &lig, l);
        test_search(t, &lig, l);
        test_focus(t, &lig);
        /* a target of receptor atoms is refused: the search needs maps */
        vsg_molecule *m = NULL;
        vsg_vina_target *ra = NULL;
        if (vsg_molecule_read(rec, NULL, &m) == VSG_OK && vsg_vina_target_receptor(m, VSG_VINA_SCORING_VINA, &ra) == VSG_OK) {
            vsg_dock_result r;
            CHECK_STATUS(vsg_dock_cpu(ra, &lig, NULL, &r), VSG_E_ARG);
        }
        vsg_vina_target_free(ra);
        vsg_molecule_free(m);
    }
    vsg_vina_target_free(t);
    vsg_vina_ligand_free(l);
    vsg_ligand_release(&lig);
    CHECK_EXIT();
}
