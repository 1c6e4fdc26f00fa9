/* test_gpu_dock_flex.c — flexible receptor side chains in the GPU search (vsg_dock_flex_gpu; the
 * residues' atoms after the ligand's, their roots in a fixed body: gpu/dock/dock_gpu.cu,
 * ligands/dock/dock_pack.c) against the CPU twin (vsg_dock_flex_cpu), on Vina's own flexible
 * docking example (data/flex/: 1FPU's rigid part, THR A 315 flexible, imatinib):
 *  1. energy and gradient of 300 conformations (ligand and residue torsions random, half near the
 *     input pose, half anywhere in the box): the GPU's float evaluation against the CPU's double
 *     dock_eval of the same widened tree, at both caps, within 1e-4·(1 + |E|) and 1e-3·(1 + |∇|max)
 *     — the residue's torsion derivatives included, the rigid move's blind to the residue;
 *  2. the search (detail, seed 1; scores on the maps, no --receptor): the GPU's best pose scores
 *     ≤ −10.8 kcal/mol (vina's pose 1 of the example: −11.627 on the atoms, ~0.3 above that on the
 *     maps; cli_dock_flex.sh checks the refined score) as the CPU's does, the residue's CA and CB
 *     unmoved, the two devices' best within 0.5 kcal/mol; the same call twice gives the same poses
 *     and residues to the bit.
 * Skips (77) without a GPU. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/dock/dock_gpu.h"
#include "grids/base/vsgrid.h"
#include "ligands/dock/dock_internal.h"
#include "ligands/dock/dock_method.h"
#include "ligands/dock/dock_pack.h"
#include "ligands/dock/dock_rng.h"
#include "tests/check.h"
#include "tests/dock_kit.h"

static vsg_vina_target *make_maps(const vsg_molecule *rec, const vsg_vina_ligand *l, const char *prefix)
{
    const vsg_vina_box box = {{15.190, 53.903, 16.917}, {20, 20, 20}, 0.375};
    const vsg_xs_type flex_types[3] = {VSG_XS_C_H, VSG_XS_C_P, VSG_XS_O_DA};
    vsg_xs_type types[VSG_XS_COUNT];
    const int nt = ligand_xs_types(l, flex_types, 3, types);
    return vina_maps_target(rec, &box, types, nt, prefix, "1fpu_receptor_rigid");
}

static void test_energy(const vsg_vina_target *t, const vsg_ligand *lig, const vsg_flex *f)
{
    vsg_dock_params P;
    vsg_dock_params_default(&P);
    dock_params_resolve(&P, &P);
    dock_prep d;
    CHECK_STATUS(dock_prepare_flex(t, lig, f, &P, &d), VSG_OK);
    if (check_failures) return;
    const char use = 1;
    const uint64_t seed0 = 0;
    dock_gpu_batch b;
    CHECK_STATUS(dock_pack(&d, &use, 1, &seed0, &P, &b), VSG_OK);
    CHECK(b.rec[0].fixed == 1 && b.rec[0].nrot == d.tree.nrot && d.tree.nlig < d.tree.natoms);
    const dock_tree *tree = &d.tree;
    const int nr = tree->nrot, stride = 8 + b.max_rot, ng = 6 + b.max_rot;
    enum { NCONF = 300 };
    float *conf = calloc((size_t)NCONF * (size_t)stride, sizeof(float));
    float *e = calloc(NCONF, sizeof(float)), *g = calloc((size_t)NCONF * (size_t)ng, sizeof(float));
    int *rec = calloc(NCONF, sizeof(int));
    double grad[64];
    dock_rng rng = dock_rng_for(17, 0);
    dock_conf *cs = calloc(NCONF, sizeof *cs);
    double *torbuf = calloc((size_t)NCONF * ((size_t)nr + 1), sizeof(double));
    for (int i = 0; i < NCONF; i++) {
        dock_conf *c = &cs[i];
        c->tor = torbuf + (size_t)i * ((size_t)nr + 1);
        const int near = i < NCONF / 2;
        for (int k = 0; k < 3; k++)
            c->pos[k] = near ? tree->origin0[k] + dock_rng_range(&rng, -1, 1) : dock_rng_range(&rng, t->begin[k], t->end[k]);
        if (near) {
            double rv[3];
            dock_rng_in_sphere(&rng, rv);
            c->q[0] = 1, c->q[1] = c->q[2] = c->q[3] = 0;
            double d6[6] = {0, 0, 0, 0.4 * rv[0], 0.4 * rv[1], 0.4 * rv[2]};
            dock_tree rigid = *tree;
            rigid.nrot = 0;
            dock_conf_increment(&rigid, c, d6, 1.0);
        } else {
            dock_rng_quat(&rng, c->q);
        }
        for (int k = 0; k < nr; k++) c->tor[k] = near ? dock_rng_range(&rng, -0.5, 0.5) : dock_rng_range(&rng, -DOCK_PI, DOCK_PI);
        float *o = conf + (size_t)i * (size_t)stride;
        for (int k = 0; k < 3; k++) o[1 + k] = (float)c->pos[k];
        for (int k = 0; k < 4; k++) o[4 + k] = (float)c->q[k];
        for (int k = 0; k < nr; k++) o[8 + k] = (float)c->tor[k];
        for (int k = 0; k < 3; k++) c->pos[k] = o[1 + k]; /* the CPU evaluates what the GPU sees */
        for (int k = 0; k < 4; k++) c->q[k] = o[4 + k];
        for (int k = 0; k < nr; k++) c->tor[k] = o[8 + k];
    }
    dock_gpu_maps *m = NULL;
    CHECK_STATUS(dock_gpu_target_maps(t, 0, &m), VSG_OK);
    dock_work w;
    CHECK_STATUS(dock_work_init(&w, tree, &d.en), VSG_OK);
    for (int cap = 0; cap < 2 && m; cap++) {
        const double v = cap ? DOCK_AUTHENTIC_CAP : DOCK_HUNT_CAP;
        CHECK_STATUS(dock_gpu_eval(m, &b, rec, conf, NCONF, v, e, g), VSG_OK);
        double worst_e = 0, worst_g = 0, worst_flex = 0;
        for (int i = 0; i < NCONF; i++) {
            const double ec = dock_eval(&w, &cs[i], v, grad);
            const double de = fabs(ec - e[i]) / (1 + fabs(ec));
            double norm = 0;
            for (int k = 0; k < 6 + nr; k++) norm = fmax(norm, fabs(grad[k]));
            for (int k = 0; k < 6 + nr; k++) {
                const double dg = fabs(grad[k] - g[(size_t)i * (size_t)ng + (size_t)k]) / (1 + norm);
                if (dg > worst_g) worst_g = dg;
                if (k >= 6 + nr - f->tor.nrotors && dg > worst_flex) worst_flex = dg;
                if (dg > 1e-3)
                    fprintf(stderr, "conf %d cap %g: d%d CPU %.6g GPU %.6g\n", i, v, k, grad[k], g[(size_t)i * (size_t)ng + (size_t)k]);
            }
            if (de > worst_e) worst_e = de;
            if (de > 1e-4) fprintf(stderr, "conf %d cap %g: E CPU %.6f GPU %.6f\n", i, v, ec, e[i]);
        }
        printf("flex energy, cap %g: %d conformations, worst |dE|/(1+|E|) %.2e, worst gradient %.2e (the residue's "
               "torsions %.2e)\n", v, NCONF, worst_e, worst_g, worst_flex);
        CHECK(worst_e <= 1e-4);
        CHECK(worst_g <= 1e-3);
    }
    dock_work_release(&w);
    free(conf), free(e), free(g), free(rec), free(cs), free(torbuf);
    dock_pack_release(&b);
    dock_prep_release(&d);
}

int main(void)
{
    if (vsg_gpu_count() < 1) SKIP("no GPU");
    char flexp[1200], ligp[1200], recp[1200], prefix[1200];
    snprintf(flexp, sizeof flexp, "%s/data/flex/1fpu_receptor_flex.pdbqt", VSG_SOURCE_DIR);
    snprintf(ligp, sizeof ligp, "%s/data/flex/1iep_ligand.pdbqt", VSG_SOURCE_DIR);
    snprintf(recp, sizeof recp, "%s/data/flex/1fpu_receptor_rigid.pdbqt.gz", VSG_SOURCE_DIR);
    snprintf(prefix, sizeof prefix, "%s/gpu_flex_maps", VSG_BINARY_DIR);
    vsg_flex *f = NULL;
    CHECK_STATUS(vsg_flex_read(flexp, &f), VSG_OK);
    vsg_ligand lig;
    vsg_ligand_init(&lig);
    CHECK_STATUS(read_first(ligp, &lig), VSG_OK);
    vsg_molecule *rec = NULL;
    CHECK_STATUS(vsg_molecule_read(recp, NULL, &rec), VSG_OK);
    vsg_vina_ligand *l = NULL;
    CHECK_STATUS(vsg_vina_ligand_new(&lig, &l), VSG_OK);
    if (check_failures) return 1;
    vsg_vina_target *t = make_maps(rec, l, prefix);
    CHECK(t != NULL);
    if (!t) return 1;
    test_energy(t, &lig, f);

    vsg_dock_params p;
    vsg_dock_params_default(&p);
    CHECK_STATUS(vsg_dock_params_preset(&p, "detail"), VSG_OK);
    p.seed = 1, p.poses = 3;
    vsg_dock_result g1, g2, c1;
    vsg_flex_pose *fg1 = NULL, *fg2 = NULL, *fc1 = NULL;
    double t0 = vsg_now();
    CHECK_STATUS(vsg_dock_flex_gpu(t, &lig, f, &p, 0, &g1, &fg1), VSG_OK);
    const double tg = vsg_now() - t0;
    CHECK_STATUS(vsg_dock_flex_gpu(t, &lig, f, &p, 0, &g2, &fg2), VSG_OK);
    t0 = vsg_now();
    CHECK_STATUS(vsg_dock_flex_cpu(t, &lig, f, &p, &c1, &fc1), VSG_OK);
    const double tc = vsg_now() - t0;
    CHECK(g1.npose >= 1 && c1.npose >= 1 && g1.npose == g2.npose);
    if (g1.npose >= 1 && c1.npose >= 1) {
        printf("flex search (detail, seed 1): GPU best %.3f kcal/mol (ligand-flex %.3f), %ld evaluations, %.2f s; CPU twin "
               "%.3f (ligand-flex %.3f), %ld evaluations, %.2f s\n",
               g1.pose[0].score.total, fg1[0].ligand_flex, g1.evaluations, tg, c1.pose[0].score.total, fc1[0].ligand_flex,
               c1.evaluations, tc);
        CHECK(g1.pose[0].score.total <= -10.8);
        CHECK(c1.pose[0].score.total <= -10.8);
        CHECK(fabs(g1.pose[0].score.total - c1.pose[0].score.total) < 0.5);
        const int nf = f->L->natoms;
        for (int k = 0; k < g1.npose && k < g2.npose; k++) {
            CHECK(!memcmp(g1.pose[k].xyz, g2.pose[k].xyz, sizeof(double) * 3 * (size_t)g1.natoms));
            CHECK(!memcmp(fg1[k].xyz, fg2[k].xyz, sizeof(double) * 3 * (size_t)nf));
            /* CA and CB (the residue's ROOT and the CA-CB axis) stay where the file has them */
            CHECK_NEAR(fg1[k].xyz[0], 13.079, 1e-3);
            CHECK_NEAR(fg1[k].xyz[3 * 1 + 2], 9.553, 1e-3);
        }
    }
    vsg_flex_poses_free(fg1, g1.npose), vsg_flex_poses_free(fg2, g2.npose), vsg_flex_poses_free(fc1, c1.npose);
    vsg_dock_result_release(&g1), vsg_dock_result_release(&g2), vsg_dock_result_release(&c1);
    vsg_vina_target_free(t);
    vsg_vina_ligand_free(l);
    vsg_molecule_free(rec);
    vsg_ligand_release(&lig);
    vsg_flex_free(f);
    CHECK_EXIT();
}
