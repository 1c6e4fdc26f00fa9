/* test_flex.c — flexible receptor side chains as Vina 1.2 docks them (issue 28 item 2), on Vina's
 * own example (data/flex/: 1fpu's rigid receptor, THR A 315 as the flex residue, imatinib, and
 * vina's docked pose 1 of the example's solution):
 *   - the flex file reads as Vina models it: one residue, 5 atoms, 2 torsions, CA (ROOT) and CB
 *     (first atom of the branch off the ROOT) fixed, CG2 and OG1 the movable heavy atoms, XS types
 *     as Vina's (CA C_P through its backbone N);
 *   - vina's pose 1 scored on the receptor's atoms gives every term `vina --score_only --flex`
 *     (AutoDock Vina 1.2.3 on the same files) prints, and the total vina's docking wrote for it;
 *   - the ligand–flex term against an independent double sum of the analytic pair function;
 *   - the search energy's gradient (atoms, and the flex torsions through the tree) against central
 *     differences;
 *   - a short seeded search keeps the ROOT and CB where they are and the residue's bond lengths;
 *   - malformed flex files are refused with file:line. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grids/base/vsgrid.h"
#include "ligands/dock/dock_internal.h"
#include "ligands/dock/dock_method.h"
#include "ligands/score/vina_internal.h"
#include "tests/check.h"
#include "tests/dock_kit.h"

static const char *dir = VSG_BINARY_DIR;

/* Maps of the example's box (1fpu_receptor_box.txt: centre 15.190 53.903 16.917, 20 Å) for every
 * XS type of the ligand and the flex residue. */
static vsg_vina_target *make_maps(const vsg_molecule *rec, const vsg_vina_ligand *l, const char *prefix)
{
    const vsg_vina_box box = {{15.190, 53.903, 16.917}, {20, 20, 20}, 0.375};
    const vsg_xs_type flex_types[3] = {VSG_XS_C_H, VSG_XS_C_P, VSG_XS_O_DA};
    vsg_xs_type types[VSG_XS_COUNT];
    const int nt = ligand_xs_types(l, flex_types, 3, types);
    return vina_maps_target(rec, &box, types, nt, prefix, "1fpu_receptor_rigid");
}

/* The flex file's atoms' coordinates in file order. */
static int flex_coords(const char *path, double *xyz, int max)
{
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    char line[256];
    int n = 0;
    while (fgets(line, sizeof line, f) && n < max)
        if (!strncmp(line, "ATOM", 4) || !strncmp(line, "HETATM", 6)) {
            char c[3][9] = {{0}};
            memcpy(c[0], line + 30, 8), memcpy(c[1], line + 38, 8), memcpy(c[2], line + 46, 8);
            for (int d = 0; d < 3; d++) xyz[3 * n + d] = atof(c[d]);
            n++;
        }
    fclose(f);
    return n;
}

static vsg_status write_and_read(const char *name, const char *text, vsg_flex **f)
{
    static char path[1200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *o = fopen(path, "w");
    if (!o) return VSG_E_IO;
    fputs(text, o);
    fclose(o);
    return vsg_flex_read(path, f);
}

static const char thr_head[] = "BEGIN_RES THR A 315\nROOT\n"
    "ATOM      1  CA  THR A 315      13.079  52.503   8.093  1.00  0.00     0.199 C \nENDROOT\n";
static const char thr_body[] = "BRANCH   1   2\n"
    "ATOM      2  CB  THR A 315      13.429  52.900   9.553  1.00  0.00     0.143 C \n"
    "ATOM      3 CG2  THR A 315      12.339  53.679  10.200  1.00  0.00     0.041 C \n"
    "BRANCH   2   4\n"
    "ATOM      4 OG1  THR A 315      13.724  51.718  10.307  1.00  0.00    -0.389 OA\n"
    "ATOM      5 HG1  THR A 315      13.915  51.930  11.097  1.00  0.00     0.211 HD\n"
    "ENDBRANCH   2   4\nENDBRANCH   1   2\n";

int main(void)
{
    char flexp[1200], ligp[1200], recp[1200], pose_lig[1200], pose_flex[1200], prefix[1200];
    snprintf(flexp, sizeof flexp, "%s/data/flex/1fpu_receptor_flex.pdbqt", VSG_SOURCE_DIR);
    snprintf(ligp, sizeof ligp, "%s/data/flex/1iep_ligand.pdbqt", VSG_SOURCE_DIR);
    snprintf(recp, sizeof recp, "%s/data/flex/1fpu_receptor_rigid.pdbqt.gz", VSG_SOURCE_DIR);
    snprintf(pose_lig, sizeof pose_lig, "%s/data/flex/1fpu_vina_pose1_ligand.pdbqt", VSG_SOURCE_DIR);
    snprintf(pose_flex, sizeof pose_flex, "%s/data/flex/1fpu_vina_pose1_flex.pdbqt", VSG_SOURCE_DIR);
    snprintf(prefix, sizeof prefix, "%s/flex_maps", dir);

    /* the model */
    vsg_flex *f = NULL;
    CHECK_STATUS(vsg_flex_read(flexp, &f), VSG_OK);
    if (!f) return 1;
    vsg_flex_info fi;
    vsg_flex_get_info(f, &fi);
    CHECK(fi.residues == 1 && fi.natoms == 5 && fi.torsions == 2 && fi.movable_heavy == 2 && fi.npairs == 0);
    /* file order CA CB CG2 OG1 HG1; CA, CB fixed; CB C_P (bonded to OG1), CG2 C_H, OG1 O_DA (HG1) */
    const int ca = f->file_atom[0], cb = f->file_atom[1], cg2 = f->file_atom[2], og1 = f->file_atom[3];
    CHECK(!f->movable[ca] && !f->movable[cb] && f->movable[cg2] && f->movable[og1]);
    CHECK(f->L->xs[cb] == VSG_XS_C_P && f->L->xs[cg2] == VSG_XS_C_H && f->L->xs[og1] == VSG_XS_O_DA);
    CHECK(f->L->xs[ca] == VSG_XS_C_P); /* bonded to the rigid part's N, as Vina bonds it */

    vsg_molecule *rec = NULL;
    CHECK_STATUS(vsg_molecule_read(recp, NULL, &rec), VSG_OK);
    vsg_ligand lig, pose;
    vsg_ligand_init(&lig), vsg_ligand_init(&pose);
    CHECK_STATUS(read_first(ligp, &lig), VSG_OK);
    CHECK_STATUS(read_first(pose_lig, &pose), VSG_OK);
    vsg_vina_ligand *pl = NULL;
    CHECK_STATUS(vsg_vina_ligand_new(&pose, &pl), VSG_OK);
    if (!rec || !pl) return 1;
    CHECK_STATUS(vsg_flex_check_rigid(f, rec), VSG_OK);
    vsg_vina_target *t = make_maps(rec, pl, prefix);
    if (!t) { fprintf(stderr, "maps: %s\n", vsg_last_error()); return 1; }
    CHECK_STATUS(vsg_vina_target_add_receptor(t, rec), VSG_OK);

    /* vina's pose 1 on the atoms: `vina --score_only --receptor 1fpu_receptor_rigid.pdbqt --flex
     * 1fpu_vina_pose1_flex.pdbqt --ligand 1fpu_vina_pose1_ligand.pdbqt --config 1fpu_receptor_box.txt`
     * (1.2.3) prints inter −16.387 (ligand–receptor −15.833, ligand–flex −0.554), intra −1.760
     * (ligand −0.829, flex–receptor −0.931, flex–flex 0); vina's docking wrote −11.627 for the pose:
     * inter / (1 + 0.05846·7). (--score_only's own total, −11.716, takes its unbound energy's
     * flex–receptor term from its 0.375 Å grid and the pose's from the atoms: see docs.) */
    double fx[3 * 16];
    CHECK(flex_coords(pose_flex, fx, 16) == 5);
    vsg_vina_score sc;
    vsg_flex_pose terms;
    CHECK_STATUS(vsg_flex_score_pose(t, pl, f, fx, &sc, &terms), VSG_OK);
    CHECK_NEAR(sc.inter, -16.387, 0.0015);
    CHECK_NEAR(terms.ligand_flex, -0.554, 0.0015);
    CHECK_NEAR(sc.inter - terms.ligand_flex, -15.833, 0.0015);
    CHECK_NEAR(sc.intra, -1.760, 0.0015);
    CHECK_NEAR(terms.flex_rigid, -0.931, 0.0015);
    CHECK_NEAR(terms.flex_intra, 0.0, 1e-12);
    CHECK_NEAR(sc.total, -11.627, 0.0015);
    CHECK(terms.outside == 0);

    /* ligand–flex against the analytic pair function, summed here in double: every ligand heavy
     * atom with CG2 and OG1 (Vina's table is the function sampled at k/32 Å², so within 0.02) */
    {
        double ref = 0;
        vsg_vina_ligand_info li;
        vsg_vina_ligand_get_info(pl, &li);
        const int mv[2] = {2, 3}; /* CG2, OG1 in file order */
        const vsg_xs_type mx[2] = {VSG_XS_C_H, VSG_XS_O_DA};
        for (int i = 0; i < li.natoms; i++) {
            const vsg_xs_type x = vsg_vina_ligand_xs_type(pl, i);
            if (x == VSG_XS_NONE) continue;
            for (int m = 0; m < 2; m++) {
                const double *a = &pl->xyz[3 * i], *b = &fx[3 * mv[m]];
                const double r = sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2]));
                vsg_vina_terms tm;
                if (r < 8 && vsg_vina_pair_terms(VSG_VINA_SCORING_VINA, x, mx[m], r, &tm) == VSG_OK)
                    ref += tm.energy > 0 ? tm.energy * 1000 / (1000 + tm.energy) : tm.energy;
            }
        }
        CHECK_NEAR(terms.ligand_flex, ref, 0.02);
    }

    /* the search energy's gradient: atoms (ligand and flex, the example's input pose moved onto
     * vina's pose 1) against central differences */
    {
        const int nl = pose.natoms, n = nl + 5;
        double *x = malloc(sizeof(double) * 3 * (size_t)n), *g = malloc(sizeof(double) * 3 * (size_t)n);
        for (int i = 0; i < nl; i++) x[3 * i] = pose.atoms[i].x, x[3 * i + 1] = pose.atoms[i].y, x[3 * i + 2] = pose.atoms[i].z;
        memcpy(x + 3 * nl, fx, sizeof(double) * 15);
        const double e0 = vsg_dock_flex_energy(t, &pose, f, x, x + 3 * nl, g);
        CHECK(isfinite(e0));
        const int probe[] = {0, 7, 20, nl + 2, nl + 3, nl + 4}; /* ligand atoms; CG2, OG1, HG1 */
        double worst = 0;
        for (size_t pi = 0; pi < sizeof probe / sizeof probe[0]; pi++)
            for (int d = 0; d < 3; d++) {
                const int k = 3 * probe[pi] + d;
                const double keep = x[k], h = 1e-5;
                x[k] = keep + h;
                const double ep = vsg_dock_flex_energy(t, &pose, f, x, x + 3 * nl, NULL);
                x[k] = keep - h;
                const double em = vsg_dock_flex_energy(t, &pose, f, x, x + 3 * nl, NULL);
                x[k] = keep;
                const double fd = (ep - em) / (2 * h), err = fabs(fd - g[k]) / (1 + fabs(fd));
                if (err > worst) worst = err;
            }
        printf("gradient: atoms, worst relative difference %.2e\n", worst);
        CHECK(worst < 1e-3);
        free(x), free(g);
    }
    /* the flex torsions' gradient through the tree (dock_tree_gradient), at random torsions */
    {
        vsg_dock_params P;
        vsg_dock_params_default(&P);
        dock_prep d;
        CHECK_STATUS(dock_prepare_flex(t, &pose, f, &P, &d), VSG_OK);
        CHECK(d.tree.nrot == 7 + 2 && d.tree.nlig == pose.natoms && d.tree.natoms == pose.natoms + 5);
        dock_work w;
        CHECK_STATUS(dock_work_init(&w, &d.tree, &d.en), VSG_OK);
        double tor[9] = {0.3, -0.2, 0.1, 0, 0.2, -0.1, 0.05, 0.7, -1.1}, grad[16], worst = 0;
        dock_conf c = {{d.tree.origin0[0], d.tree.origin0[1], d.tree.origin0[2]}, {1, 0, 0, 0}, tor};
        dock_eval(&w, &c, DOCK_AUTHENTIC_CAP, grad);
        for (int k = 0; k < 9; k++) {
            const double keep = tor[k], h = 1e-6;
            tor[k] = keep + h;
            const double ep = dock_eval(&w, &c, DOCK_AUTHENTIC_CAP, NULL);
            tor[k] = keep - h;
            const double em = dock_eval(&w, &c, DOCK_AUTHENTIC_CAP, NULL);
            tor[k] = keep;
            const double fd = (ep - em) / (2 * h), err = fabs(fd - grad[6 + k]) / (1 + fabs(fd));
            if (err > worst) worst = err;
        }
        printf("gradient: torsions (7 ligand, 2 flex), worst relative difference %.2e\n", worst);
        CHECK(worst < 1e-3);
        dock_work_release(&w);
        dock_prep_release(&d);
    }

    /* a short seeded search: ROOT (CA) and CB stay, bond lengths within the residue kept */
    {
        vsg_dock_params P;
        vsg_dock_params_default(&P);
        P.exhaustiveness = 4, P.steps = 10, P.poses = 3, P.seed = 5, P.threads = 2;
        vsg_dock_result r;
        vsg_flex_pose *fp = NULL;
        CHECK_STATUS(vsg_dock_flex_cpu(t, &lig, f, &P, &r, &fp), VSG_OK);
        CHECK(r.npose >= 1 && fp && r.rotors == 7);
        double in[15];
        flex_coords(flexp, in, 5);
        for (int k = 0; k < r.npose && fp; k++) {
            const double *x = fp[k].xyz;
            for (int d = 0; d < 6; d++) CHECK_NEAR(x[d], in[d], 0.0011); /* CA, CB */
            const int bond[4][2] = {{0, 1}, {1, 2}, {1, 3}, {3, 4}};
            for (int b = 0; b < 4; b++) {
                double s0 = 0, s1 = 0;
                for (int d = 0; d < 3; d++) {
                    s0 += (in[3 * bond[b][0] + d] - in[3 * bond[b][1] + d]) * (in[3 * bond[b][0] + d] - in[3 * bond[b][1] + d]);
                    s1 += (x[3 * bond[b][0] + d] - x[3 * bond[b][1] + d]) * (x[3 * bond[b][0] + d] - x[3 * bond[b][1] + d]);
                }
                CHECK_NEAR(sqrt(s1), sqrt(s0), 0.003);
            }
            /* its score is Vina's with the flex terms in */
            CHECK_NEAR(r.pose[k].score.inter + r.pose[k].score.intra - r.pose[k].score.unbound,
                       r.pose[k].score.total * vina_num_tors_div(r.pose[k].score.num_tors), 1e-9);
        }
        printf("search: %d poses, best %.3f kcal/mol (ligand-flex %.3f)\n", r.npose, r.pose[0].score.total,
               fp ? fp[0].ligand_flex : NAN);
        vsg_flex_poses_free(fp, r.npose);
        vsg_dock_result_release(&r);
    }

    /* malformed files: refused, with the file and line */
    {
        char text[4096];
        vsg_flex *bad = NULL;
        snprintf(text, sizeof text, "%s%s", thr_head, thr_body); /* no END_RES */
        CHECK_STATUS(write_and_read("flex_no_end.pdbqt", text, &bad), VSG_E_FORMAT);
        CHECK_CONTAINS(vsg_last_error(), "flex_no_end.pdbqt:12: the file ends inside the residue begun at line 1");
        CHECK(bad == NULL);
        snprintf(text, sizeof text, "%sBRANCH   9   2\n%s", thr_head, thr_body + strlen("BRANCH   1   2\n"));
        strcat(text, "END_RES THR A 315\n");
        CHECK_STATUS(write_and_read("flex_bad_branch.pdbqt", text, &bad), VSG_E_FORMAT);
        CHECK_CONTAINS(vsg_last_error(), "flex_bad_branch.pdbqt:5: BRANCH 9 2: atom 9 is not among this residue's atoms");
        snprintf(text, sizeof text, "ATOM      1  CA  THR A 315      13.079  52.503   8.093  1.00  0.00     0.199 C \n");
        CHECK_STATUS(write_and_read("flex_outside.pdbqt", text, &bad), VSG_E_FORMAT);
        CHECK_CONTAINS(vsg_last_error(), "flex_outside.pdbqt:1: ");
        CHECK_STATUS(write_and_read("flex_empty.pdbqt", "REMARK nothing\n", &bad), VSG_E_FORMAT);
        CHECK_CONTAINS(vsg_last_error(), "no BEGIN_RES");
        snprintf(text, sizeof text, "%s%sEND_RES THR A 315\n", thr_head, thr_body);
        text[strlen(thr_head) + strlen("BRANCH   1   2\n") + 77] = 'Q'; /* CB typed "Q" */
        CHECK_STATUS(write_and_read("flex_bad_type.pdbqt", text, &bad), VSG_E_DATA);
        CHECK_CONTAINS(vsg_last_error(), "flex_bad_type.pdbqt:6:");
        snprintf(text, sizeof text, "%s%sEND_RES THR A 315\n", thr_head, thr_body);
        CHECK_STATUS(write_and_read("flex_ok.pdbqt", text, &bad), VSG_OK);
        vsg_flex_free(bad);
        /* a receptor that still holds the flex atoms (here: the residue's own atom lines) */
        char rp[1200];
        snprintf(rp, sizeof rp, "%s/flex_full_receptor.pdbqt", dir);
        FILE *o = fopen(rp, "w");
        if (o) {
            for (const char *s = thr_body; *s; s = strchr(s, '\n') + 1)
                if (!strncmp(s, "ATOM", 4)) fprintf(o, "%.*s\n", (int)(strchr(s, '\n') - s), s);
            fclose(o);
        }
        vsg_molecule *full = NULL;
        CHECK_STATUS(vsg_molecule_read(rp, NULL, &full), VSG_OK);
        if (full) {
            CHECK_STATUS(vsg_flex_check_rigid(f, full), VSG_E_DATA);
            CHECK_CONTAINS(vsg_last_error(), "1fpu_receptor_flex.pdbqt:8: flex atom CG2 lies on receptor atom CG2 THR 315");
        }
        vsg_molecule_free(full);
        CHECK_STATUS(vsg_flex_read(NULL, &bad), VSG_E_ARG);
    }

    vsg_vina_target_free(t);
    vsg_vina_ligand_free(pl);
    vsg_ligand_release(&lig), vsg_ligand_release(&pose);
    vsg_molecule_free(rec);
    vsg_flex_free(f);
    CHECK_EXIT();
}
