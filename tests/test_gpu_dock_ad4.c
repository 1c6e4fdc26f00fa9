/* test_gpu_dock_ad4.c — docking with the AutoDock4 function on the GPU (vsg_dock_ad4_gpu,
 * gpu/dock/dock_gpu.cu's AutoDock4 branch) against its CPU twin (vsg_dock_ad4_cpu), on
 * AutoDock-GPU's own map sets of ../shared/data/adgpu_set42:
 *  1. energy and gradient: the GPU's float evaluation of 300 conformations of 2BRT's ligand
 *     (near the crystal pose, and anywhere in the grid: atoms outside it get autodock4's
 *     penalty) against the CPU's double dock_eval of the same conformations, at both caps:
 *     |ΔE| ≤ 2e-4·(1 + |E|) and each gradient component within 2e-3·(1 + |∇|max) — the same
 *     function in float, not another one (the intramolecular tables are read alike, bin for bin);
 *  2. the search: from each complex's rand-0 with the same parameters and seed on both devices,
 *     the twins' best estimated free energies agree on average over the complexes
 *     (|mean GPU − CPU| ≤ 0.3 kcal/mol) and the GPU re-docks (< 2 Å) at least as many crystal
 *     poses as the CPU minus one; each GPU result's terms are vsg_ad4_score_pose's of its pose;
 *  3. repeatability: the same call twice gives the same poses bit for bit.
 * Skips (77) without a GPU or the shared data. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gpu/dock/dock_gpu.h"
#include "grids/base/vsgrid.h"
#include "ligands/dock/dock_internal.h"
#include "ligands/dock/dock_method.h"
#include "ligands/dock/dock_pack.h"
#include "ligands/dock/dock_rng.h"
#include "tests/check.h"
#include "tests/gpu_twins_kit.h"

static int read_one(const char *path, vsg_ligand *lig, vsg_ligand_reader **r)
{
    const char *paths[1] = {path};
    vsg_ligand_reader_options o = {.format = VSG_LIG_AUTO, .keep_text = 1, .max_atoms = 0};
    if (vsg_ligand_reader_open(paths, 1, &o, r) != VSG_OK) return 0;
    return vsg_ligand_reader_next(*r, lig) == 1 && lig->status == VSG_OK;
}

static double rmsd_heavy(const vsg_ligand *ref, const double *a)
{
    double s = 0;
    int n = 0;
    for (int i = 0; i < ref->natoms; i++) {
        if (ref->atoms[i].ad_type[0] == 'H') continue;
        const double dx = a[3 * i] - ref->atoms[i].x, dy = a[3 * i + 1] - ref->atoms[i].y, dz = a[3 * i + 2] - ref->atoms[i].z;
        s += dx * dx + dy * dy + dz * dz, n++;
    }
    return n ? sqrt(s / n) : 1e9;
}

static void test_energy(const vsg_ad4_target *t, const vsg_ligand *lig)
{
    vsg_dock_params P;
    vsg_dock_params_default(&P);
    dock_params_resolve(&P, &P);
    dock_ad4_prep d;
    CHECK_STATUS(dock_ad4_prepare(t, lig, &P, &d), VSG_OK);
    if (check_failures) return;
    dock_gpu_batch b;
    CHECK_STATUS(dock_pack_ad4(&d, 0, &P, &b), VSG_OK);
    float *elec = malloc(sizeof(float) * DOCK_GPU_AD4_SHAPE_SAMPLES), *desolv = malloc(sizeof(float) * DOCK_GPU_AD4_SHAPE_SAMPLES);
    for (int k = 0; k < DOCK_GPU_AD4_SHAPE_SAMPLES; k++) elec[k] = (float)d.A.intra.elec_shape[k], desolv[k] = (float)d.A.intra.desolv_shape[k];
    dock_gpu_maps *m = NULL;
    const vsg_score_grids *gr = t->g;
    CHECK_STATUS(dock_gpu_ad4_maps_upload(gr->n, gr->origin, gr->spacing, gr->nmaps, gr->maps, gr->e_map, gr->d_map, elec, desolv, 0, &m),
                 VSG_OK);
    /* a Vina batch on AutoDock4 maps is refused, not evaluated */
    dock_gpu_batch vb = b;
    vb.atom_charge = NULL;
    {
        const int rec0 = 0;
        float conf1[8 + DOCK_GPU_MAX_ROTORS] = {0}, e1, g1[6 + DOCK_GPU_MAX_ROTORS];
        CHECK_STATUS(dock_gpu_eval(m, &vb, &rec0, conf1, 1, DOCK_HUNT_CAP, &e1, g1), VSG_E_ARG);
    }
    const int outside = m ? twin_energy("AutoDock4", m, &b, &d.tree, &d.en, t->lo, t->hi, 13, 2e-4, 2e-3, d.tree.nrot, 1000) : 0;
    printf("  %d of %d conformations with atoms outside the grid (the penalty's branch)\n", outside, (int)TWIN_NCONF);
    CHECK(outside > 0);
    dock_gpu_maps_free(m);
    free(elec), free(desolv);
    dock_pack_release(&b);
    dock_ad4_prep_release(&d);
}

int main(void)
{
    if (vsg_gpu_count() < 1) SKIP("no GPU");
    const char *shared = shared_data_dir();
    if (!shared) SKIP(VSG_NO_SHARED);
    static const char *const complexes[] = {"2brt", "1yv3", "1p62", "1n46", "1ywr", "1t40"};
    enum { NC = sizeof complexes / sizeof *complexes };
    double sum_g = 0, sum_c = 0;
    int ok_g = 0, ok_c = 0, done = 0;
    for (int ci = 0; ci < NC; ci++) {
        char dir[1100], fld[1200], xpath[1200], rpath[1200];
        snprintf(dir, sizeof dir, "%s/adgpu_set42/%s", shared, complexes[ci]);
        snprintf(fld, sizeof fld, "%s/protein.maps.fld", dir);
        snprintf(xpath, sizeof xpath, "%s/flex-xray.pdbqt", dir);
        snprintf(rpath, sizeof rpath, "%s/rand-0.pdbqt", dir);
        char mpath[1300];
        snprintf(mpath, sizeof mpath, "%s/protein.e.map.gz", dir);
        struct stat sb;
        if (stat(fld, &sb) != 0 || stat(mpath, &sb) != 0) {
            printf("%s: no map set in the shared data, skipped\n", complexes[ci]);
            continue;
        }
        vsg_ad4_target *t = NULL;
        CHECK_STATUS(vsg_ad4_target_read(fld, NULL, &t), VSG_OK);
        vsg_ligand xray, rand0;
        vsg_ligand_init(&xray), vsg_ligand_init(&rand0);
        vsg_ligand_reader *rx = NULL, *rr = NULL;
        CHECK(read_one(xpath, &xray, &rx));
        CHECK(read_one(rpath, &rand0, &rr));
        if (check_failures || !t) return 1;
        if (ci == 0) test_energy(t, &xray);
        vsg_dock_params p;
        vsg_dock_params_default(&p);
        CHECK_STATUS(vsg_dock_params_preset(&p, "detail"), VSG_OK);
        p.seed = 7;
        vsg_dock_result g1, g2, c1;
        vsg_ad4_score sg[9], sc[9];
        double t0 = vsg_now();
        CHECK_STATUS(vsg_dock_ad4_gpu(t, &rand0, &p, 0, &g1, sg), VSG_OK);
        const double tg = vsg_now() - t0;
        CHECK_STATUS(vsg_dock_ad4_gpu(t, &rand0, &p, 0, &g2, NULL), VSG_OK);
        t0 = vsg_now();
        CHECK_STATUS(vsg_dock_ad4_cpu(t, &rand0, &p, &c1, sc), VSG_OK);
        const double tc = vsg_now() - t0;
        CHECK(g1.npose >= 1 && c1.npose >= 1 && g1.npose == g2.npose);
        if (g1.npose >= 1 && c1.npose >= 1) {
            for (int k = 0; k < g1.npose && k < g2.npose; k++)
                CHECK(!memcmp(g1.pose[k].xyz, g2.pose[k].xyz, sizeof(double) * 3 * (size_t)g1.natoms));
            for (int k = 0; k < g1.npose; k++) {
                vsg_ad4_score again;
                CHECK_STATUS(vsg_ad4_score_pose(t, &rand0, g1.pose[k].xyz, &again), VSG_OK);
                CHECK_NEAR(again.total, sg[k].total, 1e-12);
                if (k) CHECK(sg[k].total >= sg[k - 1].total);
            }
            const double rg = rmsd_heavy(&xray, g1.pose[0].xyz), rc = rmsd_heavy(&xray, c1.pose[0].xyz);
            printf("%s (%d torsions), detail from rand-0: GPU best %.3f kcal/mol at %.2f A, %ld evaluations, %.2f s; CPU twin "
                   "%.3f at %.2f A, %ld evaluations, %.2f s\n",
                   complexes[ci], g1.rotors, sg[0].total, rg, g1.evaluations, tg, sc[0].total, rc, c1.evaluations, tc);
            sum_g += sg[0].total, sum_c += sc[0].total, done++;
            ok_g += rg < 2, ok_c += rc < 2;
        }
        vsg_dock_result_release(&g1), vsg_dock_result_release(&g2), vsg_dock_result_release(&c1);
        vsg_ligand_release(&xray), vsg_ligand_release(&rand0);
        vsg_ligand_reader_close(rx), vsg_ligand_reader_close(rr);
        vsg_ad4_target_free(t);
    }
    if (!done) SKIP("no adgpu_set42 map set in the shared data");
    printf("over %d complexes: mean best GPU %.3f, CPU twin %.3f kcal/mol; re-docked < 2 A: GPU %d, CPU %d\n", done,
           sum_g / done, sum_c / done, ok_g, ok_c);
    CHECK(fabs(sum_g - sum_c) / done <= 0.3);
    CHECK(ok_g >= ok_c - 1);
    CHECK_EXIT();
}
