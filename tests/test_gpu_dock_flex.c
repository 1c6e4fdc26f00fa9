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
#include "tests/gpu_twins_kit.h"

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
    dock_gpu_maps *m = NULL;
    CHECK_STATUS(dock_gpu_target_maps(t, 0, &m), VSG_OK);
    if (m) twin_energy("flex", m, &b, &d.tree, &d.en, t->begin, t->end, 17, 1e-4, 1e-3, d.tree.nrot - f->tor.nrotors, HUGE_VAL);
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
