/* test_vina_score.c — the Vina pose-score model on small hand-checked cases (the values against
 * vina itself: tests/peer_vina_score.sh):
 *  - a 5-carbon chain with a branch per bond (the last branch holds only its axis atom, so Vina
 *    merges it): 3 rotors, TORSDOF 4, N_rot 2.5, exactly one intramolecular pair (1–5, the only
 *    one more than 3 bonds apart), whose energy is Vina's table bin (mean of both bin ends);
 *  - ethanol as PDBQT (ROOT C C, BRANCH to O–H) and as SDF (rotatable bond found from bonds):
 *    one rotor, N_rot ½ (a terminal rotor counts half), no pair; XS types C_H, C_P, O_DA;
 *  - the total on a hand-written Vina map set (constant maps): inter = Σ heavy atoms, curl of
 *    positive values, the out-of-box penalty, and total = (inter + intra − unbound)/(1 + w N_rot);
 *  - bad input: a BRANCH atom not in its block, ENDBRANCH mismatch, TORSDOF twice (format), an
 *    unknown AutoDock type and a glue atom (data), a map set without the ligand's type (data),
 *    no map at all (io), a map with odd NELEMENTS (format). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grids/base/vsgrid.h"
#include "tests/check.h"
#include "tests/dock_kit.h"

static const char *dir = VSG_BINARY_DIR;

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    if (!f) { perror(path); exit(1); }
    fputs(text, f);
    fclose(f);
}

static char *atom_line(char *buf, int serial, double x, double y, double z, const char *type)
{
    sprintf(buf, "ATOM  %5d  C%-2d LIG A   1    %8.3f%8.3f%8.3f  1.00  0.00     0.000 %-2s\n", serial, serial, x, y, z,
            type);
    return buf;
}

/* Reads the first record of path (keep_text on) and builds its model; returns its status. */
static vsg_status model_of(const char *path, vsg_vina_ligand **l, vsg_ligand *lig)
{
    vsg_status st = read_first(path, lig);
    return st == VSG_OK ? vsg_vina_ligand_new(lig, l) : st;
}

static double table_energy(vsg_vina_scoring sf, vsg_xs_type a, vsg_xs_type b, double r)
{
    int k = (int)(32.0 * r * r);
    vsg_vina_terms t0, t1;
    vsg_vina_pair_terms(sf, a, b, sqrt(k / 32.0), &t0);
    vsg_vina_pair_terms(sf, a, b, sqrt((k + 1) / 32.0), &t1);
    return (t1.energy + t0.energy) / 2;
}

static const double chain[5][3] = {{0, 0, 0}, {1.5, 0, 0}, {2.0, 1.4, 0}, {3.5, 1.4, 0}, {4.0, 2.8, 0}};

static void write_chain(const char *path, const char *branch_override)
{
    char text[4096] = "REMARK chain\nROOT\n", b[128];
    strcat(text, atom_line(b, 1, chain[0][0], chain[0][1], chain[0][2], "C"));
    strcat(text, "ENDROOT\n");
    for (int i = 2; i <= 5; i++) {
        sprintf(b, "BRANCH %3d %3d\n", i - 1, i);
        strcat(text, i == 2 && branch_override ? branch_override : b);
        strcat(text, atom_line(b, i, chain[i - 1][0], chain[i - 1][1], chain[i - 1][2], "C"));
    }
    for (int i = 5; i >= 2; i--) {
        sprintf(b, "ENDBRANCH %3d %3d\n", i - 1, i);
        strcat(text, b);
    }
    strcat(text, "TORSDOF 4\n");
    write_text(path, text);
}

static void test_chain(void)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/test_vina_score_chain.pdbqt", dir);
    write_chain(path, NULL);
    vsg_ligand lig;
    vsg_ligand_init(&lig);
    vsg_vina_ligand *l = NULL;
    CHECK_STATUS(model_of(path, &l, &lig), VSG_OK);
    if (!l) return;
    vsg_vina_ligand_info in;
    vsg_vina_ligand_get_info(l, &in);
    CHECK(in.natoms == 5 && in.heavy_atoms == 5);
    CHECK(in.torsdof == 4);
    CHECK(in.rotors == 3);  /* BRANCH 4 5 holds only atom 5: merged, as Vina does */
    CHECK(in.bodies == 4);
    CHECK(in.nbonds == 4);
    CHECK_NEAR(in.num_tors, 2.5, 0); /* ½ + ½ + 1 + ½: ends at atoms 1 and 5 are terminal */
    CHECK(in.npairs == 1);
    int i = -1, j = -1;
    CHECK_STATUS(vsg_vina_ligand_pair(l, 0, &i, &j), VSG_OK);
    CHECK(i == 0 && j == 4);
    CHECK_STATUS(vsg_vina_ligand_pair(l, 1, &i, &j), VSG_E_ARG);
    for (int k = 0; k < 5; k++) CHECK(vsg_vina_ligand_xs_type(l, k) == VSG_XS_C_H);
    vsg_vina_box box;
    CHECK_STATUS(vsg_vina_ligand_autobox(l, &box), VSG_OK);
    CHECK_NEAR(box.center[0], 2.2, 1e-12);
    CHECK_NEAR(box.size[0], ceil((2.2 + 4) * 2), 0);
    CHECK_NEAR(box.size[2], 8, 0);

    /* a map set of constant maps, C_H only: inter = 5 × value; intra = the one pair's bin */
    char prefix[1024], mpath[1100];
    snprintf(prefix, sizeof prefix, "%s/test_vina_score_maps", dir);
    snprintf(mpath, sizeof mpath, "%s.C_H.map", prefix);
    {
        FILE *f = fopen(mpath, "wb");
        CHECK(f != NULL);
        if (!f) return;
        fprintf(f, "GRID_PARAMETER_FILE NULL\nGRID_DATA_FILE NULL\nMACROMOLECULE NULL\nSPACING 1.0\n"
                   "NELEMENTS 8 8 8\nCENTER 2 1 0.5\n");
        for (int k = 0; k < 9 * 9 * 9; k++) fprintf(f, "-0.25\n");
        fclose(f);
    }
    for (int sf = 0; sf < 2; sf++) {
        vsg_vina_target *t = NULL;
        CHECK_STATUS(vsg_vina_target_maps(prefix, (vsg_vina_scoring)sf, &t), VSG_OK);
        if (!t) continue;
        CHECK(vsg_vina_target_has_type(t, VSG_XS_C_H) && !vsg_vina_target_has_type(t, VSG_XS_O_A));
        vsg_vina_box mb;
        CHECK(vsg_vina_target_is_maps(t, &mb));
        CHECK_NEAR(mb.center[0], 2, 1e-12);
        CHECK_NEAR(mb.size[1], 8, 1e-12);
        vsg_vina_score s;
        CHECK_STATUS(vsg_vina_score_pose(t, l, &s), VSG_OK);
        const double r15 = sqrt(16.0 + 2.8 * 2.8);
        const double intra = table_energy((vsg_vina_scoring)sf, VSG_XS_C_H, VSG_XS_C_H, r15);
        CHECK_NEAR(s.inter, -1.25, 1e-9);
        CHECK_NEAR(s.intra, intra > 0 ? intra * 1000 / (1000 + intra) : intra, 1e-4); /* ligand coordinates are %8.3f */
        CHECK_NEAR(s.unbound, s.intra, 0);
        CHECK_NEAR(s.total, -1.25 / (1 + 0.05846 * 2.5), 1e-12);
        CHECK_NEAR(s.torsional, s.total + 1.25, 1e-12);
        CHECK(s.outside == 0);
        vsg_vina_target_free(t);
    }
    /* positive map values are curled, e → e·1000/(1000 + e); an atom outside pays 1e6 per Å */
    {
        FILE *f = fopen(mpath, "wb");
        fprintf(f, "GRID_PARAMETER_FILE NULL\nGRID_DATA_FILE NULL\nMACROMOLECULE NULL\nSPACING 1.0\n"
                   "NELEMENTS 8 8 8\nCENTER 2 1 1.0\n");
        for (int k = 0; k < 9 * 9 * 9; k++) fprintf(f, "100\n");
        fclose(f);
        vsg_vina_target *t = NULL;
        CHECK_STATUS(vsg_vina_target_maps(prefix, VSG_VINA_SCORING_VINA, &t), VSG_OK);
        vsg_vina_score s;
        if (t) {
            CHECK_STATUS(vsg_vina_score_pose(t, l, &s), VSG_OK);
            CHECK_NEAR(s.inter, 5 * 100 * 1000.0 / 1100, 1e-6);
            CHECK(s.outside == 0);
            vsg_vina_target_free(t);
        }
        f = fopen(mpath, "wb");
        fprintf(f, "GRID_PARAMETER_FILE NULL\nGRID_DATA_FILE NULL\nMACROMOLECULE NULL\nSPACING 0.5\n"
                   "NELEMENTS 8 8 8\nCENTER 2 1 0.5\n");
        for (int k = 0; k < 9 * 9 * 9; k++) fprintf(f, "0\n");
        fclose(f);
        t = NULL; /* every value 0: no receptor near the box, refused (issue 27) */
        CHECK_STATUS(vsg_vina_target_maps(prefix, VSG_VINA_SCORING_VINA, &t), VSG_E_DATA);
        CHECK_CONTAINS(vsg_last_error(), "is 0");
        f = fopen(mpath, "wb");
        fprintf(f, "GRID_PARAMETER_FILE NULL\nGRID_DATA_FILE NULL\nMACROMOLECULE NULL\nSPACING 0.5\n"
                   "NELEMENTS 8 8 8\nCENTER 2 1 0.5\n1e-9\n"); /* one node not 0: a map set */
        for (int k = 1; k < 9 * 9 * 9; k++) fprintf(f, "0\n");
        fclose(f);
        t = NULL;
        CHECK_STATUS(vsg_vina_target_maps(prefix, VSG_VINA_SCORING_VINA, &t), VSG_OK);
        if (t) { /* box x 0..4, y −1..3, z −1.5..2.5: atom 5 (z 1) in; atom 1 x 0 on the face */
            CHECK_STATUS(vsg_vina_score_pose(t, l, &s), VSG_OK);
            CHECK(s.outside == 0);
            vsg_vina_target_free(t);
        }
        f = fopen(mpath, "wb");
        fprintf(f, "GRID_PARAMETER_FILE NULL\nGRID_DATA_FILE NULL\nMACROMOLECULE NULL\nSPACING 0.25\n"
                   "NELEMENTS 8 8 8\nCENTER 2 1 0\n1e-9\n");
        for (int k = 1; k < 9 * 9 * 9; k++) fprintf(f, "0\n");
        fclose(f);
        t = NULL;
        CHECK_STATUS(vsg_vina_target_maps(prefix, VSG_VINA_SCORING_VINA, &t), VSG_OK);
        if (t) { /* box x 1..3, y 0..2, z −1..1: atom 1 is 1 Å out in x, atom 4 0.5, atom 5 1 in x, 0.8 in y */
            CHECK_STATUS(vsg_vina_score_pose(t, l, &s), VSG_OK);
            CHECK(s.outside == 3);
            CHECK_NEAR(s.inter, 1e6 * (1.0 + 0.5 + 1.0 + 0.8), 1e-3);
            vsg_vina_target_free(t);
        }
    }
    vsg_vina_ligand_free(l);
    vsg_ligand_release(&lig);

    /* bad input: map sets */
    vsg_vina_target *t = NULL;
    char none[1100];
    snprintf(none, sizeof none, "%s/test_vina_score_nothere", dir);
    CHECK_STATUS(vsg_vina_target_maps(none, VSG_VINA_SCORING_VINA, &t), VSG_E_IO);
    CHECK_CONTAINS(vsg_last_error(), "no Vina map");
    write_text(mpath, "GRID_PARAMETER_FILE NULL\nGRID_DATA_FILE NULL\nMACROMOLECULE NULL\nSPACING 1\nNELEMENTS 7 8 8\nCENTER 0 0 0\n");
    CHECK_STATUS(vsg_vina_target_maps(prefix, VSG_VINA_SCORING_VINA, &t), VSG_E_FORMAT);
    CHECK_CONTAINS(vsg_last_error(), "NELEMENTS");
    write_text(mpath, "GRID_PARAMETER_FILE NULL\nGRID_DATA_FILE NULL\nMACROMOLECULE NULL\nSPACING 1\nNELEMENTS 2 2 2\nCENTER 0 0 0\n1\n2\n");
    CHECK_STATUS(vsg_vina_target_maps(prefix, VSG_VINA_SCORING_VINA, &t), VSG_E_FORMAT);
    CHECK(t == NULL);
    remove(mpath);

    /* bad input: trees */
    write_chain(path, "BRANCH   9   2\n");
    vsg_ligand_init(&lig);
    l = NULL;
    CHECK_STATUS(model_of(path, &l, &lig), VSG_E_FORMAT);
    CHECK_CONTAINS(vsg_last_error(), "BRANCH atom not in its enclosing block");
    CHECK(l == NULL);
    write_chain(path, "BRANCH   1   3\n");
    CHECK_STATUS(model_of(path, &l, &lig), VSG_E_FORMAT);
    vsg_ligand_release(&lig);
}

static const char ethanol_pdbqt[] =
    "ROOT\n"
    "ATOM      1  C1  ETH A   1       0.000   0.000   0.000  1.00  0.00     0.000 C \n"
    "ATOM      2  C2  ETH A   1       1.520   0.000   0.000  1.00  0.00     0.000 C \n"
    "ENDROOT\n"
    "BRANCH   2   3\n"
    "ATOM      3  O   ETH A   1       2.000   1.350   0.000  1.00  0.00     0.000 OA\n"
    "ATOM      4  H   ETH A   1       2.900   1.650   0.000  1.00  0.00     0.000 HD\n"
    "ENDBRANCH   2   3\n"
    "TORSDOF 1\n";

static const char ethanol_sdf[] =
    "ethanol\n  hand\n\n"
    "  4  3  0  0  0  0  0  0  0  0999 V2000\n"
    "    0.0000    0.0000    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0\n"
    "    1.5200    0.0000    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0\n"
    "    2.0000    1.3500    0.0000 O   0  0  0  0  0  0  0  0  0  0  0  0\n"
    "    2.9000    1.6500    0.0000 H   0  0  0  0  0  0  0  0  0  0  0  0\n"
    "  1  2  1  0\n  2  3  1  0\n  3  4  1  0\nM  END\n$$$$\n";

static void test_ethanol(void)
{
    char path[1024];
    for (int f = 0; f < 2; f++) {
        snprintf(path, sizeof path, "%s/test_vina_score_ethanol.%s", dir, f ? "sdf" : "pdbqt");
        write_text(path, f ? ethanol_sdf : ethanol_pdbqt);
        vsg_ligand lig;
        vsg_ligand_init(&lig);
        vsg_vina_ligand *l = NULL;
        CHECK_STATUS(model_of(path, &l, &lig), VSG_OK);
        if (l) {
            vsg_vina_ligand_info in;
            vsg_vina_ligand_get_info(l, &in);
            CHECK(in.rotors == 1 && in.torsdof == 1 && in.bodies == 2);
            CHECK_NEAR(in.num_tors, 0.5, 0); /* O–H is terminal: half a torsion */
            CHECK(in.npairs == 0);
            CHECK(in.nbonds == 3);
            CHECK(vsg_vina_ligand_xs_type(l, 0) == VSG_XS_C_H);
            CHECK(vsg_vina_ligand_xs_type(l, 1) == VSG_XS_C_P);
            CHECK(vsg_vina_ligand_xs_type(l, 2) == VSG_XS_O_DA);
            CHECK(vsg_vina_ligand_xs_type(l, 3) == VSG_XS_NONE);
        }
        vsg_vina_ligand_free(l);
        vsg_ligand_release(&lig);
    }
    /* an atom type with no XS type, a glue atom: data errors naming the atom */
    char bad[sizeof ethanol_pdbqt + 64];
    memcpy(bad, ethanol_pdbqt, sizeof ethanol_pdbqt);
    char *o = strstr(bad, "0.000 OA");
    memcpy(o + 6, "Xx", 2);
    snprintf(path, sizeof path, "%s/test_vina_score_bad.pdbqt", dir);
    write_text(path, bad);
    vsg_ligand lig;
    vsg_ligand_init(&lig);
    vsg_vina_ligand *l = NULL;
    CHECK_STATUS(model_of(path, &l, &lig), VSG_E_DATA);
    CHECK_CONTAINS(vsg_last_error(), "no XS type for AutoDock type Xx");
    memcpy(o + 6, "G0", 2);
    write_text(path, bad);
    CHECK_STATUS(model_of(path, &l, &lig), VSG_E_DATA);
    /* TORSDOF twice (in a MODEL: outside one, TORSDOF ends the record) */
    snprintf(bad, sizeof bad, "MODEL 1\n%sTORSDOF 1\nENDMDL\n", ethanol_pdbqt);
    write_text(path, bad);
    CHECK_STATUS(model_of(path, &l, &lig), VSG_E_FORMAT);
    CHECK_CONTAINS(vsg_last_error(), "TORSDOF given twice");
    vsg_ligand_release(&lig);
}

int main(void)
{
    test_chain();
    test_ethanol();
    if (check_failures) {
        fprintf(stderr, "%d check(s) failed\n", check_failures);
        return 1;
    }
    printf("test_vina_score: ok\n");
    return 0;
}
