/* test_macrocycle.c — macrocycles as Meeko prepares them and Vina 1.2 docks them (issue 28):
 * Vina's own example (data/macrocycle/: a BACE-1 ligand whose 15-membered ring Meeko opened at
 * C9–C20, both typed CG0, each with a G0 pseudo-atom where the other was; the crystal pose).
 *   - the PDBQT's CG0/G0 types are read and typed as Vina 1.2 types them (CG0 → C_P; a carbon
 *     bonded to CG0 → C_P; G0 no type), the glue pairs are the two G0–CG0 across the opened bond,
 *     and no ordinary pair has a G0 or spans the closure bond;
 *   - the intermolecular energy of the crystal pose on the receptor's atoms is `vina --score_only`'s
 *     (AutoDock Vina 1.2.3 on the same files: −17.216 kcal/mol);
 *   - the glue function (vina_glue.h) against values computed by hand from Vina's formula, and
 *     its part of the search energy and gradient against central differences;
 *   - a seeded CPU search closes the ring (each G0 within 0.1 Å of its partner CG0 in the best pose;
 *     with the glue switched off it does not), and the SDF of the pose has the ring closed:
 *     41 atoms (no G0), the C9–C20 bond restored;
 *   - a G0 not bonded to a CG0 is refused with a message;
 *   - the same molecule read from its MOL2 (ring closed, all hydrogens) is opened as Meeko opens a
 *     ring (ligands/torsions/macrocycle.c): one bond, C16-C19 (Meeko's C8-C9; the example's PDBQT,
 *     made by a 2021 Meeko that rotated the secondary amide, opened its neighbour C19-C22: on the
 *     tree vsgrid builds, with the amide rigid, C16-C19 leaves the shallower tree, 90 against 80 by
 *     Meeko's score), two CG0 carbons and two G0 atoms at the partners' places, 11 -> 21 torsions;
 *     with rigid_macrocycles the model and tree are the old ones; a seeded CPU search closes the
 *     ring and its SDF pose has the closure bond within 0.1 A of the input's, no G atom;
 *   - a SMILES macrocycle (when the build prepares SMILES) is opened the same way. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grids/base/vsgrid.h"
#include "ligands/dock/dock_internal.h"
#include "ligands/score/vina_glue.h"
#include "ligands/score/vina_internal.h"
#include "ligands/torsions/torsions.h"
#include "tests/check.h"
#include "tests/dock_kit.h"

static const char *dir = VSG_BINARY_DIR;

static double dist(const double *x, int i, int j)
{
    const double a = x[3 * i] - x[3 * j], b = x[3 * i + 1] - x[3 * j + 1], c = x[3 * i + 2] - x[3 * j + 2];
    return sqrt(a * a + b * b + c * c);
}

/* Vina's glue pair, written out from potentials.h / scoring_function.h / atom_constants.h. */
static double glue_by_hand(double r)
{
    if (r >= 20) return 0;
    double e = 50 * r;
    if (r < 8) {
        const double d = r - 1.9;
        e += -0.035579 * exp(-(d / 0.5) * (d / 0.5)) - 0.005156 * exp(-((d - 3) / 2) * ((d - 3) / 2));
        if (d < 0) e += 0.840245 * d * d;
    }
    return e;
}

static int has_pair(const vsg_vina_ligand *l, int a, int b)
{
    for (int k = 0; k < l->npairs; k++)
        if ((l->pair[k][0] == a && l->pair[k][1] == b) || (l->pair[k][0] == b && l->pair[k][1] == a)) return 1;
    return 0;
}

/* Vina maps of the example's box (its config file: center 30.103 6.152 15.584, 20 Å): the types
 * of l, and of l2 when not NULL. */
static vsg_vina_target *make_maps2(const vsg_molecule *rec, const vsg_vina_ligand *l, const vsg_vina_ligand *l2,
                                   const char *prefix)
{
    const vsg_vina_box box = {{30.103, 6.152, 15.584}, {20, 20, 20}, 0.375};
    vsg_xs_type types[VSG_XS_COUNT], more[VSG_XS_COUNT];
    const int n2 = l2 ? ligand_xs_types(l2, NULL, 0, more) : 0;
    const int nt = ligand_xs_types(l, more, n2, types);
    return vina_maps_target(rec, &box, types, nt, prefix, "BACE_1_receptor");
}

static vsg_vina_target *make_maps(const vsg_molecule *rec, const vsg_vina_ligand *l, const char *prefix)
{
    return make_maps2(rec, l, NULL, prefix);
}

static double atom_dist(const vsg_lig_atom *a, const vsg_lig_atom *b)
{
    return sqrt((a->x - b->x) * (a->x - b->x) + (a->y - b->y) * (a->y - b->y) + (a->z - b->z) * (a->z - b->z));
}

/* The MOL2 of the example (the crystal ligand, ring closed): opened as Meeko opens it, docked
 * with the ring's conformation free, written closed; the rigid switch gives the old tree back. */
static void mol2_opened(const vsg_molecule *rec, const char *dir_)
{
    char molp[1200], prefix[1200];
    snprintf(molp, sizeof molp, "%s/data/macrocycle/BACE_1_ligand.mol2", VSG_SOURCE_DIR);
    snprintf(prefix, sizeof prefix, "%s/macrocycle_mol2_maps", dir_);
    vsg_ligand mol, w;
    vsg_ligand_init(&mol), vsg_ligand_init(&w);
    CHECK_STATUS(read_first(molp, &mol), VSG_OK);
    CHECK(mol.natoms == 87 && mol.rigid_macrocycles == 0);
    /* the bond chosen, the closure atoms */
    CHECK_STATUS(vsg_ligand_copy(&w, &mol), VSG_OK);
    CHECK_STATUS(vsg_ligand_assign_ad_types(&w), VSG_OK);
    vsg_ligand_merge_nonpolar_h(&w);
    const int merged = w.natoms, merged_bonds = w.nbonds;
    int opened[4][2] = {{-1, -1}};
    CHECK(vsg_macrocycle_open(&w, opened) == 1);
    const int a = opened[0][0], b = opened[0][1];
    if (a < 0 || b < 0) return;
    printf("MOL2: opened %s-%s (%s %s), %d -> %d atoms\n", w.atoms[a].name, w.atoms[b].name, w.atoms[a].ad_type,
           w.atoms[b].ad_type, merged, w.natoms);
    CHECK(!strcmp(w.atoms[a].name, "C16") && !strcmp(w.atoms[b].name, "C19"));
    CHECK(!strcmp(w.atoms[a].ad_type, "CG0") && !strcmp(w.atoms[b].ad_type, "CG0"));
    int ng = 0;
    for (int i = 0; i < w.natoms; i++) ng += w.atoms[i].ad_type[0] == 'G';
    CHECK(ng == 2 && w.natoms == merged + 2 && w.nbonds == merged_bonds + 1); /* − closure, + 2 G bonds */
    CHECK(!strcmp(w.atoms[merged].ad_type, "G0") && !strcmp(w.atoms[merged + 1].ad_type, "G0"));
    CHECK_NEAR(atom_dist(&w.atoms[merged], &w.atoms[b]), 0, 0);     /* G0 of C16 where C19 is */
    CHECK_NEAR(atom_dist(&w.atoms[merged + 1], &w.atoms[a]), 0, 0); /* G0 of C19 where C16 is */
    int g_bonded = 0, closure_left = 0;
    for (int e = 0; e < w.nbonds; e++) {
        const vsg_lig_bond *x = &w.bonds[e];
        g_bonded += (x->a == a && x->b == merged) || (x->a == b && x->b == merged + 1);
        closure_left += (x->a == a && x->b == b) || (x->a == b && x->b == a);
    }
    CHECK(g_bonded == 2 && closure_left == 0);
    CHECK(vsg_macrocycle_open(&w, NULL) == 0); /* opened once: CGk types present */
    /* the models: opened (default) and rigid (the switch) */
    vsg_vina_ligand *lo = NULL, *lr = NULL;
    vsg_vina_ligand_info io, ir;
    CHECK_STATUS(vsg_vina_ligand_new(&mol, &lo), VSG_OK);
    mol.rigid_macrocycles = 1;
    CHECK_STATUS(vsg_vina_ligand_new(&mol, &lr), VSG_OK);
    vsg_vina_ligand_get_info(lo, &io), vsg_vina_ligand_get_info(lr, &ir);
    printf("MOL2 model: opened %d atoms, %d torsions, %d glue pairs, N_rot %.1f; rigid %d atoms, %d torsions\n", io.natoms,
           io.rotors, io.nglue, io.num_tors, ir.natoms, ir.rotors);
    CHECK(io.natoms == merged + 2 && io.nglue == 2 && io.rotors == 21);
    CHECK(ir.natoms == merged && ir.nglue == 0 && ir.rotors == 11);
    /* the rigid switch restores the old tree: the bodies and rotors of the unopened record */
    {
        vsg_ligand w0;
        vsg_ligand_init(&w0);
        CHECK_STATUS(vsg_ligand_copy(&w0, &mol), VSG_OK);
        CHECK_STATUS(vsg_ligand_assign_ad_types(&w0), VSG_OK);
        vsg_ligand_merge_nonpolar_h(&w0);
        vsg_torsions t0;
        CHECK_STATUS(vsg_torsions_from_bonds(&w0, &t0), VSG_OK);
        dock_prep dp;
        CHECK_STATUS(dock_prepare_tree(&mol, &dp), VSG_OK);
        CHECK(dp.tor.natoms == t0.natoms && dp.tor.nbodies == t0.nbodies && dp.tor.nrotors == t0.nrotors);
        int same = dp.tor.natoms == t0.natoms && dp.tor.nrotors == t0.nrotors;
        for (int i = 0; same && i < t0.natoms; i++) same = dp.tor.body[i] == t0.body[i];
        for (int k = 0; same && k < t0.nrotors; k++) same = dp.tor.rotor[k][0] == t0.rotor[k][0] && dp.tor.rotor[k][1] == t0.rotor[k][1];
        CHECK(same);
        for (int i = 0; i < dp.L->natoms; i++) CHECK(dp.record_atom[i] >= 0);
        dock_prep_release(&dp);
        vsg_torsions_release(&t0);
        vsg_ligand_release(&w0);
    }
    mol.rigid_macrocycles = 0;
    /* a seeded search: the glue closes the ring; the SDF pose has the ring closed, no G */
    vsg_vina_target *t = make_maps2(rec, lo, lr, prefix);
    CHECK(t != NULL);
    if (t) {
        vsg_dock_params p;
        vsg_dock_params_default(&p);
        p.seed = 7, p.exhaustiveness = 16, p.steps = 60, p.chain_keep = 1, p.threads = 2, p.poses = 3;
        vsg_dock_result res;
        CHECK_STATUS(vsg_dock_cpu(t, &mol, &p, &res), VSG_OK);
        CHECK(res.natoms == merged + 2 && res.rotors == 21);
        CHECK(res.record_atom[merged] == -1 && res.record_atom[merged + 1] == -1);
        const double in_len = atom_dist(&mol.atoms[res.record_atom[a]], &mol.atoms[res.record_atom[b]]);
        if (res.npose > 0) {
            const double *x = res.pose[0].xyz;
            printf("MOL2 docked: best %.3f kcal/mol, RMSD to the crystal %.2f A, C16-C19 %.3f A (input %.3f), G0-CG0 %.3f "
                   "%.3f A\n", res.pose[0].score.total, res.pose[0].rmsd_input, dist(x, a, b), in_len, dist(x, merged, b),
                   dist(x, merged + 1, a));
            CHECK_NEAR(dist(x, a, b), in_len, 0.1);
            vsg_pose_sdf *m = NULL;
            CHECK_STATUS(vsg_pose_sdf_new(&mol, &res, &m), VSG_OK);
            char sdfp[1200];
            snprintf(sdfp, sizeof sdfp, "%s/macrocycle_mol2_pose.sdf", dir_);
            FILE *f = fopen(sdfp, "w");
            CHECK(f && m && vsg_pose_sdf_write(f, m, &res, 0, -1));
            if (f) fclose(f);
            vsg_pose_sdf_free(m);
            vsg_ligand out;
            vsg_ligand_init(&out);
            CHECK_STATUS(read_first(sdfp, &out), VSG_OK);
            CHECK(out.natoms == mol.natoms && out.nbonds == mol.nbonds);
            int closure = 0, g_out = 0;
            for (int i = 0; i < out.natoms; i++) g_out += out.atoms[i].element[0] == 'G' || !out.atoms[i].element[0];
            const int ra = res.record_atom[a], rb = res.record_atom[b];
            for (int e = 0; e < out.nbonds; e++)
                if ((out.bonds[e].a == ra && out.bonds[e].b == rb) || (out.bonds[e].a == rb && out.bonds[e].b == ra)) {
                    closure = 1;
                    printf("MOL2 pose SDF: closure bond %.3f A (input %.3f)\n", atom_dist(&out.atoms[ra], &out.atoms[rb]), in_len);
                    CHECK_NEAR(atom_dist(&out.atoms[ra], &out.atoms[rb]), in_len, 0.1);
                }
            CHECK(closure && g_out == 0);
            vsg_ligand_release(&out);
        }
        vsg_dock_result_release(&res);
        vsg_vina_target_free(t);
    }
    vsg_vina_ligand_free(lo), vsg_vina_ligand_free(lr);
    vsg_ligand_release(&w), vsg_ligand_release(&mol);
}

/* A SMILES macrocycle (prepared to an SDF record): opened as the MOL2 is. */
static void smiles_opened(void)
{
    if (!vsg_smiles_available()) {
        printf("SKIPPED-PART: the SMILES macrocycle (no SMILES preparation in this build)\n");
        return;
    }
    vsg_ligand s;
    vsg_ligand_init(&s);
    /* cyclododecanol: a 12-membered ring, no other ring */
    CHECK_STATUS(vsg_ligand_from_smiles("OC1CCCCCCCCCCC1", "c12ol", NULL, &s), VSG_OK);
    vsg_vina_ligand *lo = NULL, *lr = NULL;
    vsg_vina_ligand_info io, ir;
    CHECK_STATUS(vsg_vina_ligand_new(&s, &lo), VSG_OK);
    s.rigid_macrocycles = 1;
    CHECK_STATUS(vsg_vina_ligand_new(&s, &lr), VSG_OK);
    vsg_vina_ligand_get_info(lo, &io), vsg_vina_ligand_get_info(lr, &ir);
    printf("SMILES cyclododecanol: opened %d torsions, %d glue pairs; rigid %d torsions\n", io.rotors, io.nglue, ir.rotors);
    CHECK(io.nglue == 2 && ir.nglue == 0 && io.rotors > ir.rotors && io.natoms == ir.natoms + 2);
    vsg_vina_ligand_free(lo), vsg_vina_ligand_free(lr);
    /* a cyclooctyl amide (DUD-E INHA's actives have such rings): under 12 atoms, not opened
       (macrocycle.c, MC_MIN_OPEN: opening them cost INHA's screen 0.04 ROC AUC) */
    CHECK_STATUS(vsg_ligand_from_smiles("CC(=O)NC1CCCCCCC1", "c8amide", NULL, &s), VSG_OK);
    lo = NULL;
    CHECK_STATUS(vsg_vina_ligand_new(&s, &lo), VSG_OK);
    vsg_vina_ligand_get_info(lo, &io);
    printf("SMILES N-cyclooctylacetamide: %d torsions, %d glue pairs\n", io.rotors, io.nglue);
    CHECK(io.nglue == 0 && io.rotors == 1);
    vsg_vina_ligand_free(lo);
    vsg_ligand_release(&s);
}

/* Writes text to dir/name and reads its first record into lig (lig->source: a static buffer). */
static vsg_status read_text(const char *name, const char *text, vsg_ligand *lig)
{
    static char path[1200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f) return VSG_E_IO;
    fputs(text, f);
    fclose(f);
    return read_first(path, lig);
}

int main(void)
{
    char ligp[1200], recp[1200], prefix[1200];
    snprintf(ligp, sizeof ligp, "%s/data/macrocycle/BACE_1_ligand.pdbqt", VSG_SOURCE_DIR);
    snprintf(recp, sizeof recp, "%s/data/macrocycle/BACE_1_receptor.pdbqt.gz", VSG_SOURCE_DIR);
    snprintf(prefix, sizeof prefix, "%s/macrocycle_maps", dir);
    vsg_ligand lig;
    vsg_ligand_init(&lig);
    CHECK_STATUS(read_first(ligp, &lig), VSG_OK);
    if (lig.natoms != 43) {
        fprintf(stderr, "BACE_1_ligand.pdbqt: %d atoms, expected 43\n", lig.natoms);
        return 1;
    }
    /* reading: the three-letter type and the pseudo-atom (atoms 9, 10, 27, 28 of the file) */
    CHECK(!strcmp(lig.atoms[8].ad_type, "CG0"));
    CHECK(!strcmp(lig.atoms[9].ad_type, "G0"));
    CHECK(!strcmp(lig.atoms[26].ad_type, "CG0"));
    CHECK(!strcmp(lig.atoms[27].ad_type, "G0"));
    CHECK(!strcmp(lig.atoms[8].element, "C"));

    /* the Vina model */
    vsg_vina_ligand *l = NULL;
    CHECK_STATUS(vsg_vina_ligand_new(&lig, &l), VSG_OK);
    if (!l) return 1;
    vsg_vina_ligand_info info;
    vsg_vina_ligand_get_info(l, &info);
    CHECK(info.nglue == 2);
    CHECK(l->xs[8] == VSG_XS_C_P && l->xs[26] == VSG_XS_C_P); /* CG0: bonded to its G0, a heteroatom to Vina */
    CHECK(l->xs[9] == VSG_XS_NONE && l->xs[27] == VSG_XS_NONE);
    CHECK(l->xs[7] == VSG_XS_C_P);  /* C8 (C–C8–C9): C_P only because C9 is CG0, as in Vina */
    CHECK(l->xs[4] == VSG_XS_C_H);  /* C5, a methyl on C4: an ordinary C_H */
    CHECK_NEAR(info.num_tors, 21.5, 1e-12); /* vina 1.2.3 --score_only: (1 + 0.05846 N_rot) = 2.2567 */
    int glue_ok = 0;
    for (int k = 0; k < l->nglue; k++)
        glue_ok += (l->glue[k][0] == 9 && l->glue[k][1] == 26) || (l->glue[k][0] == 27 && l->glue[k][1] == 8);
    CHECK(glue_ok == 2);
    int g_pairs = 0;
    for (int k = 0; k < l->npairs; k++) g_pairs += l->xs[l->pair[k][0]] == VSG_XS_NONE || l->xs[l->pair[k][1]] == VSG_XS_NONE;
    CHECK(g_pairs == 0);
    CHECK(!has_pair(l, 8, 26));  /* C9–C20: the closure bond (1-2) */
    CHECK(!has_pair(l, 7, 26));  /* C8–C20 (1-3 across it) */
    CHECK(!has_pair(l, 7, 24));  /* C8–N2 (1-4 across it) */
    CHECK(has_pair(l, 6, 24));   /* C7–N2: 1-5, a pair */
    printf("model: %d atoms, %d pairs, %d glue pairs, N_rot %.1f\n", info.natoms, info.npairs, info.nglue, info.num_tors);

    /* inter on the receptor's atoms = vina 1.2.3 --score_only's on the same files */
    vsg_molecule *rec = NULL;
    CHECK_STATUS(vsg_molecule_read(recp, NULL, &rec), VSG_OK);
    if (!rec) return 1;
    vsg_vina_target *ra = NULL;
    CHECK_STATUS(vsg_vina_target_receptor(rec, VSG_VINA_SCORING_VINA, &ra), VSG_OK);
    vsg_vina_score sc;
    CHECK_STATUS(vsg_vina_score_pose(ra, l, &sc), VSG_OK);
    printf("crystal pose on the atoms: inter %.4f (vina 1.2.3: -17.216), intra %.4f, score %.4f\n", sc.inter, sc.intra, sc.total);
    CHECK_NEAR(sc.inter, -17.216, 0.0006);
    CHECK_NEAR(sc.total, sc.inter / 2.25689, 0.001); /* intra − unbound cancels; no glue in the score */
    vsg_vina_target_free(ra);

    /* the glue function against the formula by hand, and numbers worked out separately */
    double worst = 0;
    for (double r = 0; r < 21; r += 0.0625) {
        double de;
        const double e = vina_glue_energy(0, r * r, &de);
        if (fabs(e - glue_by_hand(r)) > worst) worst = fabs(e - glue_by_hand(r));
        if (r > 0.01 && r < 19.9 && fabs(r - 8) > 0.1 && fabs(r - 1.9) > 0.01) {
            double d1, d2;
            const double h = 1e-6;
            const double fd = (vina_glue_energy(0, (r + h) * (r + h), &d1) - vina_glue_energy(0, (r - h) * (r - h), &d2)) / (2 * h);
            CHECK_NEAR(de, fd, 1e-5);
        }
    }
    CHECK_NEAR(worst, 0, 1e-12);
    double de;
    CHECK_NEAR(vina_glue_energy(0, 0, &de), 3.0332716824111947, 1e-12);     /* r = 0: 0.840245 · 1.9² + gaussians */
    CHECK_NEAR(vina_glue_energy(0, 0.25, &de), 26.64682542487851, 1e-12);   /* r = 0.5 */
    CHECK_NEAR(vina_glue_energy(0, 2.2 * 2.2, &de), 109.97434405512638, 1e-10);
    CHECK_NEAR(vina_glue_energy(0, 100, &de), 500, 1e-12);                 /* 50 r, no steric term past 8 Å */
    CHECK_NEAR(de, 50, 1e-12);
    CHECK_NEAR(vina_glue_energy(0, 20.5 * 20.5, &de), 0, 0);               /* cut at 20 Å */
    CHECK_NEAR(vina_glue_energy(1, 0, &de), 3.19991312956387, 1e-12);       /* Vinardo: 0.8 · 2.0² − 0.045 e^(−6.25) */
    CHECK_NEAR(vina_glue_energy(1, 0.25, &de), 26.79866218526262, 1e-12);

    /* the glue's part of the search energy and the gradient with it, against central differences */
    vsg_vina_target *t = make_maps(rec, l, prefix);
    CHECK(t != NULL);
    if (!t) return 1;
    vsg_dock_params P;
    CHECK_STATUS(dock_params_resolve(NULL, &P), VSG_OK);
    dock_prep d;
    CHECK_STATUS(dock_prepare(t, &lig, &P, &d), VSG_OK);
    const int nr = d.tree.nrot, natoms = d.tree.natoms;
    double *tors = calloc((size_t)nr, sizeof *tors), *xyz = malloc(sizeof(double) * 3 * (size_t)natoms);
    double *g = malloc(sizeof(double) * 3 * (size_t)natoms), *grad = malloc(sizeof(double) * (size_t)(6 + nr));
    double *step = malloc(sizeof(double) * (size_t)(6 + nr));
    double *tp = malloc(sizeof(double) * (size_t)nr), *tm = malloc(sizeof(double) * (size_t)nr);
    dock_conf c = {{d.tree.origin0[0], d.tree.origin0[1], d.tree.origin0[2]}, {1, 0, 0, 0}, tors};
    for (int k = 0; k < nr; k++) tors[k] = 0.15 * sin(1.7 * k + 0.3); /* the ring pulled open a little */
    dock_conf_apply(&d.tree, &c, xyz);
    const double r1 = dist(xyz, 9, 26), r2 = dist(xyz, 27, 8);
    printf("perturbed pose: G0-CG0 %.3f and %.3f A\n", r1, r2);
    CHECK(r1 > 0.2 && r2 > 0.2);
    double inter_on, intra_on, inter_off, intra_off;
    for (int capi = 0; capi < 2; capi++) {
        const double v = capi ? 1000 : 10;
        dock_energy_eval(&d.en, xyz, v, NULL, &inter_on, &intra_on);
        const int keep = d.L->nglue;
        d.L->nglue = 0;
        dock_energy_eval(&d.en, xyz, v, NULL, &inter_off, &intra_off);
        d.L->nglue = keep;
        const double e1 = glue_by_hand(r1), e2 = glue_by_hand(r2);
        const double want = e1 * v / (v + e1) + e2 * v / (v + e2); /* each pair curled at v, as Vina's v[2] */
        printf("cap %g: glue part of the search energy %.6f, by hand %.6f\n", v, intra_on - intra_off, want);
        CHECK_NEAR(inter_on, inter_off, 0);
        CHECK_NEAR(intra_on - intra_off, want, 1e-9);
    }
    /* dE/dx of a G0 atom alone (the glue is its only term), then the change-space gradient */
    dock_energy_eval(&d.en, xyz, 1000, g, NULL, NULL);
    for (int k = 0; k < 3; k++) {
        const double h = 1e-6, x0 = xyz[3 * 9 + k];
        xyz[3 * 9 + k] = x0 + h;
        const double ep = dock_energy_eval(&d.en, xyz, 1000, NULL, NULL, NULL);
        xyz[3 * 9 + k] = x0 - h;
        const double em = dock_energy_eval(&d.en, xyz, 1000, NULL, NULL, NULL);
        xyz[3 * 9 + k] = x0;
        CHECK_NEAR(g[3 * 9 + k], (ep - em) / (2 * h), 1e-5 * (1 + fabs(g[3 * 9 + k])));
    }
    dock_work w;
    CHECK_STATUS(dock_work_init(&w, &d.tree, &d.en), VSG_OK);
    double worst_rel = 0;
    for (int capi = 0; capi < 2; capi++) {
        const double v = capi ? 1000 : 10;
        dock_eval(&w, &c, v, grad);
        for (int k = 0; k < 6 + nr; k++) {
            const double h = 1e-6;
            for (int m = 0; m < 6 + nr; m++) step[m] = m == k;
            dock_conf cp = c, cm = c;
            cp.tor = tp, cm.tor = tm;
            memcpy(tp, tors, sizeof(double) * (size_t)nr);
            memcpy(tm, tors, sizeof(double) * (size_t)nr);
            dock_conf_increment(&d.tree, &cp, step, h);
            dock_conf_increment(&d.tree, &cm, step, -h);
            const double fd = (dock_eval(&w, &cp, v, NULL) - dock_eval(&w, &cm, v, NULL)) / (2 * h);
            const double rel = fabs(fd - grad[k]) / (fabs(fd) + 1e-2);
            if (rel > worst_rel) worst_rel = rel;
            if (rel > 1e-4) fprintf(stderr, "cap %g component %d: analytic %.8g, finite difference %.8g\n", v, k, grad[k], fd);
        }
    }
    printf("gradient with the glue: %d components, worst relative error %.2e\n", 2 * (6 + nr), worst_rel);
    CHECK(worst_rel < 1e-4);
    dock_work_release(&w);
    dock_prep_release(&d);

    /* a seeded search closes the ring; without the glue it would not */
    vsg_dock_params p;
    vsg_dock_params_default(&p);
    p.seed = 7, p.exhaustiveness = 16, p.steps = 60, p.chain_keep = 1, p.threads = 2, p.poses = 3;
    vsg_dock_result res;
    CHECK_STATUS(vsg_dock_cpu(t, &lig, &p, &res), VSG_OK);
    if (res.npose < 1) return 1;
    const double *x = res.pose[0].xyz;
    printf("docked: best score %.3f kcal/mol, search energy %.3f, RMSD to the crystal %.2f A, G0-CG0 %.3f %.3f A, "
           "C9-C20 %.3f A\n", res.pose[0].score.total, res.pose[0].energy, res.pose[0].rmsd_input, dist(x, 9, 26),
           dist(x, 27, 8), dist(x, 8, 26));
    CHECK(dist(x, 9, 26) < 0.1 && dist(x, 27, 8) < 0.1);
    CHECK_NEAR(dist(x, 8, 26), 1.507, 0.1); /* the input's C9–C20 bond length */
    /* the SDF of the pose: the ring closed, no pseudo-atom */
    vsg_pose_sdf *m = NULL;
    CHECK_STATUS(vsg_pose_sdf_new(&lig, &res, &m), VSG_OK);
    char sdfp[1200];
    snprintf(sdfp, sizeof sdfp, "%s/macrocycle_pose.sdf", dir);
    FILE *f = fopen(sdfp, "w");
    CHECK(f && m && vsg_pose_sdf_write(f, m, &res, 0, -1));
    if (f) fclose(f);
    vsg_pose_sdf_free(m);
    f = fopen(sdfp, "r");
    char line[512];
    int n = 0, na = -1, nb = -1, closure = 0, g_left = 0;
    double ax[64][3];
    while (f && fgets(line, sizeof line, f)) {
        n++;
        if (n == 4) sscanf(line, "%3d%3d", &na, &nb);
        else if (n > 4 && n <= 4 + na && na <= 64) sscanf(line, "%lf%lf%lf", &ax[n - 5][0], &ax[n - 5][1], &ax[n - 5][2]);
        else if (n > 4 + na && n <= 4 + na + nb) {
            int a, b;
            if (sscanf(line, "%3d%3d", &a, &b) == 2) {
                const double dx = ax[a - 1][0] - ax[b - 1][0], dy = ax[a - 1][1] - ax[b - 1][1], dz = ax[a - 1][2] - ax[b - 1][2];
                /* C9 is atom 9, C20 atom 26 once G0 (atom 10) is left out */
                if ((a == 9 && b == 26) || (a == 26 && b == 9)) {
                    closure = 1;
                    CHECK(sqrt(dx * dx + dy * dy + dz * dz) < 1.65);
                }
            }
        }
        if (strstr(line, " G0")) g_left = 1;
    }
    if (f) fclose(f);
    printf("SDF: %d atoms, %d bonds, closure bond %s\n", na, nb, closure ? "present" : "missing");
    CHECK(na == 41);
    CHECK(closure);
    CHECK(!g_left);
    vsg_dock_result_release(&res);

    /* the control: the same search with the glue off leaves the ring open */
    {
        /* a copy of the record with G0 retyped to hydrogens would change the model; instead drop
           the pseudo-atoms' types to H, which leaves the rings' pairs but no glue */
        vsg_ligand open;
        vsg_ligand_init(&open);
        CHECK_STATUS(read_first(ligp, &open), VSG_OK);
        strcpy(open.atoms[9].ad_type, "H"), strcpy(open.atoms[27].ad_type, "H");
        strcpy(open.atoms[8].ad_type, "C"), strcpy(open.atoms[26].ad_type, "C");
        CHECK_STATUS(vsg_dock_cpu(t, &open, &p, &res), VSG_OK);
        if (res.npose > 0) {
            const double *y = res.pose[0].xyz;
            printf("control without glue: C9-C20 %.2f A\n", dist(y, 8, 26));
            CHECK(dist(y, 8, 26) > 2.0);
        }
        vsg_dock_result_release(&res);
        vsg_ligand_release(&open);
    }

    /* malformed closures are refused with a message */
    {
        char *text = NULL;
        size_t len = 0;
        FILE *in = fopen(ligp, "r");
        if (in) {
            fseek(in, 0, SEEK_END);
            len = (size_t)ftell(in);
            rewind(in);
            text = malloc(len + 1);
            if (text && fread(text, 1, len, in) == len) text[len] = 0;
            fclose(in);
        }
        CHECK(text != NULL);
        char *at = text ? strstr(text, "0.019 CG0") : NULL; /* C9's type → C: its G0 has no CG0 */
        CHECK(at != NULL);
        if (at) {
            memcpy(at, "0.019 C  ", 9);
            vsg_ligand bad;
            vsg_ligand_init(&bad);
            CHECK_STATUS(read_text("macrocycle_bad.pdbqt", text, &bad), VSG_OK);
            vsg_vina_ligand *lb = NULL;
            CHECK_STATUS(vsg_vina_ligand_new(&bad, &lb), VSG_E_DATA);
            CHECK_CONTAINS(vsg_last_error(), "macrocycle closure");
            vsg_vina_ligand_free(lb);
            vsg_ligand_release(&bad);
            memcpy(at, "0.019 CG4", 9); /* a label Vina does not know: read, then refused by the model */
            vsg_ligand_init(&bad);
            CHECK_STATUS(read_text("macrocycle_bad.pdbqt", text, &bad), VSG_OK);
            CHECK_STATUS(vsg_vina_ligand_new(&bad, &lb), VSG_E_DATA);
            CHECK_CONTAINS(vsg_last_error(), "CG4");
            vsg_ligand_release(&bad);
            memcpy(at, "0.019 CGX", 9); /* not a closure type: a parse error */
            vsg_ligand_init(&bad);
            CHECK(read_text("macrocycle_bad.pdbqt", text, &bad) != VSG_OK);
            vsg_ligand_release(&bad);
        }
        free(text);
    }

    mol2_opened(rec, dir);
    smiles_opened();

    free(tors), free(xyz), free(g), free(grad), free(step), free(tp), free(tm);
    vsg_vina_target_free(t);
    vsg_molecule_free(rec);
    vsg_vina_ligand_free(l);
    vsg_ligand_release(&lig);
    if (check_failures) fprintf(stderr, "%d check(s) failed\n", check_failures);
    return check_failures ? 1 : 0;
}
