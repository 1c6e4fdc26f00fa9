/* test_ligand_typing.c — AutoDock 4 atom typing, the non-polar hydrogen merge and the Open
 * Babel Gasteiger bridge.
 *
 * 1. Hand-built molecules whose types Open Babel 3.1.1 gives (`obabel -:SMILES -opdbqt`):
 *    benzene, pyridine, pyrrole, amide, ammonium, amine, thiol, thiolate, nitro, sulfonamide...
 * 2. The merge: charges summed into the carbon, atom order kept, bonds renumbered.
 * 3. Real molecules of ../shared/data read with the project's reader, typed and merged, against
 *    tests/data/ad_types_expected.txt (obabel's types, recorded once; no obabel at test time).
 *    Measured when recorded: 100% of 59,497 atoms of the 2,389 inha actives+decoys (MOL2),
 *    100% of 9,304 atoms of the 365 egfr SDF molecules, 100% of both pdbbind ligands.
 * 4. Gasteiger charges against Open Babel's own (≤ 1e-6 e), or the stub's error in a build
 *    without Open Babel.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ligands/ligand.h"
#include "grids/base/vsgrid.h"

/* ---- hand-built molecules ----------------------------------------------------------------
 * atoms: element symbols separated by blanks, a formal charge as "+"/"-" suffix ("N+", "S-");
 * bonds: "a-b:o" 1-based pairs with order o (1, 2, 3, 4 = aromatic, 5 = amide). */
static void build(vsg_ligand *lig, vsg_ligand_format format, const char *atoms, const char *bonds)
{
    static vsg_lig_atom a[64];
    static vsg_lig_bond b[64];
    memset(a, 0, sizeof a);
    memset(b, 0, sizeof b);
    memset(lig, 0, sizeof *lig);
    int n = 0, nb = 0;
    char buf[512];
    snprintf(buf, sizeof buf, "%s", atoms);
    for (char *tok = strtok(buf, " "); tok && n < 64; tok = strtok(NULL, " "), n++) {
        size_t len = strlen(tok);
        if (tok[len - 1] == '+' || tok[len - 1] == '-') {
            a[n].formal = tok[len - 1] == '+' ? 1 : -1;
            tok[--len] = '\0';
        }
        snprintf(a[n].element, sizeof a[n].element, "%s", tok);
        snprintf(a[n].name, sizeof a[n].name, "%s%d", tok, n + 1);
        a[n].x = n; /* coordinates play no part in typing */
    }
    snprintf(buf, sizeof buf, "%s", bonds);
    for (char *tok = strtok(buf, " "); tok && nb < 64; tok = strtok(NULL, " "), nb++) {
        int x, y, o;
        if (sscanf(tok, "%d-%d:%d", &x, &y, &o) != 3) {
            fprintf(stderr, "bad bond spec %s\n", tok);
            exit(1);
        }
        b[nb].a = x - 1;
        b[nb].b = y - 1;
        b[nb].order = o;
    }
    lig->atoms = a;
    lig->bonds = b;
    lig->natoms = n;
    lig->nbonds = nb;
    lig->atoms_cap = lig->bonds_cap = 64;
    lig->format = format;
}

static void types_of(const vsg_ligand *lig, char *out, size_t cap)
{
    size_t k = 0;
    out[0] = '\0';
    for (int i = 0; i < lig->natoms && k + 4 < cap; i++)
        k += (size_t)snprintf(out + k, cap - k, i ? " %s" : "%s", lig->atoms[i].ad_type);
}

/* Types after vsg_ligand_assign_ad_types + merge, compared with the expected string. */
static void check_types(const char *what, vsg_ligand_format format, const char *atoms, const char *bonds,
                        const char *expected)
{
    vsg_ligand lig;
    build(&lig, format, atoms, bonds);
    vsg_status st = vsg_ligand_assign_ad_types(&lig);
    if (st != VSG_OK) {
        fprintf(stderr, "%s: typing failed: %s\n", what, vsg_last_error());
        check_failures++;
        return;
    }
    vsg_ligand_merge_nonpolar_h(&lig);
    char got[512];
    types_of(&lig, got, sizeof got);
    if (strcmp(got, expected) != 0) {
        fprintf(stderr, "%s: types '%s', expected '%s'\n", what, got, expected);
        check_failures++;
    }
}

static void test_hand_built(void)
{
    /* Kekulé benzene (SDF style) and aromatic-bond benzene (MOL2 style): A, hydrogens merged */
    check_types("benzene kekule", VSG_LIG_SDF, "C C C C C C H H H H H H",
                "1-2:2 2-3:1 3-4:2 4-5:1 5-6:2 6-1:1 1-7:1 2-8:1 3-9:1 4-10:1 5-11:1 6-12:1", "A A A A A A");
    check_types("benzene ar", VSG_LIG_MOL2, "C C C C C C H H H H H H",
                "1-2:4 2-3:4 3-4:4 4-5:4 5-6:4 6-1:4 1-7:1 2-8:1 3-9:1 4-10:1 5-11:1 6-12:1", "A A A A A A");
    /* aromatic bonds without hydrogens (SMILES-like: each c carries one implicitly) */
    check_types("benzene ar, no H", VSG_LIG_SDF, "C C C C C C", "1-2:4 2-3:4 3-4:4 4-5:4 5-6:4 6-1:4",
                "A A A A A A");
    /* pyridine: NA; pyrrole: N (three neighbours, sp2) with HD */
    check_types("pyridine", VSG_LIG_SDF, "C C C N C C", "1-2:2 2-3:1 3-4:2 4-5:1 5-6:2 6-1:1", "A A A NA A A");
    check_types("pyrrole", VSG_LIG_SDF, "C C C C N H", "1-2:2 2-3:1 3-4:2 4-5:1 5-1:1 5-6:1", "A A A A N HD");
    /* cyclohexadiene and butadiene are not aromatic */
    check_types("cyclopentadiene", VSG_LIG_SDF, "C C C C C", "1-2:2 2-3:1 3-4:2 4-5:1 5-1:1", "C C C C C");
    /* acetamide CC(=O)N: amide N is N, its H are HD */
    check_types("acetamide", VSG_LIG_SDF, "C C O N H H H H H", "1-2:1 2-3:2 2-4:1 4-5:1 4-6:1 1-7:1 1-8:1 1-9:1",
                "C C OA N HD HD");
    /* methylamine: NA; methylammonium (N+, four neighbours, sp3): N */
    check_types("methylamine", VSG_LIG_SDF, "C N H H H H H", "1-2:1 2-3:1 2-4:1 1-5:1 1-6:1 1-7:1",
                "C NA HD HD");
    check_types("methylammonium", VSG_LIG_SDF, "C N+ H H H H H H", "1-2:1 2-3:1 2-4:1 2-5:1 1-6:1 1-7:1 1-8:1",
                "C N HD HD HD");
    /* trimethylamine: NA (three neighbours but sp3) */
    check_types("trimethylamine", VSG_LIG_SDF, "C N C C", "1-2:1 2-3:1 2-4:1", "C NA C C");
    /* ethanethiol: S (Open Babel; prepare_ligand4 would say SA), H on S is HD */
    check_types("ethanethiol", VSG_LIG_SDF, "C C S H", "1-2:1 2-3:1 3-4:1", "C C S HD");
    check_types("methanethiolate", VSG_LIG_SDF, "C S-", "1-2:1", "C SA");
    /* methyl acetate: both O are OA */
    check_types("methyl acetate", VSG_LIG_SDF, "C C O O C", "1-2:1 2-3:2 2-4:1 4-5:1", "C C OA OA C");
    /* nitromethane: N (sp2, three neighbours) */
    check_types("nitromethane", VSG_LIG_SDF, "C N+ O O-", "1-2:1 2-3:2 2-4:1", "C N OA OA");
    /* methanesulfonamide: the N is sp3 (S is not C/N/O), so NA */
    check_types("sulfonamide", VSG_LIG_SDF, "C S O O N H H", "1-2:1 2-3:2 2-4:2 2-5:1 5-6:1 5-7:1",
                "C S OA OA NA HD HD");
    /* acetonitrile: NA; aniline N: N */
    check_types("acetonitrile", VSG_LIG_SDF, "C C N", "1-2:1 2-3:3", "C C NA");
    check_types("aniline", VSG_LIG_SDF, "C C C C C C N H H",
                "1-2:2 2-3:1 3-4:2 4-5:1 5-6:2 6-1:1 1-7:1 7-8:1 7-9:1", "A A A A A A N HD HD");
    /* halogens, phosphorus, metals keep their symbols */
    check_types("halides", VSG_LIG_SDF, "C F Cl Br I", "1-2:1 1-3:1 1-4:1 1-5:1", "C F Cl Br I");
    check_types("phosphate", VSG_LIG_SDF, "C P O O O H H", "1-2:1 2-3:2 2-4:1 2-5:1 4-6:1 5-7:1",
                "C P OA OA OA HD HD");
    check_types("zinc", VSG_LIG_SDF, "Zn", "", "Zn");
    /* A MOL2 file's aromaticity is kept: an "ar" pyridinium N-H stays aromatic (N), a ring
     * written with 1/2 bonds stays aliphatic, a carboxylate's "ar" bonds do not make A. */
    check_types("pyridinium ar", VSG_LIG_MOL2, "C C C N C C H",
                "1-2:4 2-3:4 3-4:4 4-5:4 5-6:4 6-1:4 4-7:1", "A A A N A A HD");
    check_types("kekule ring in mol2", VSG_LIG_MOL2, "C C C C C C",
                "1-2:2 2-3:1 3-4:2 4-5:1 5-6:2 6-1:1", "C C C C C C");
    check_types("carboxylate ar", VSG_LIG_MOL2, "C C O O", "1-2:1 2-3:4 2-4:4", "C C OA OA");

    /* elements AutoDock has no type for, and broken bonds: VSG_E_DATA with a message */
    vsg_ligand lig;
    build(&lig, VSG_LIG_SDF, "C B", "1-2:1");
    CHECK(vsg_ligand_assign_ad_types(&lig) == VSG_E_DATA);
    CHECK(strstr(vsg_last_error(), "AutoDock") != NULL);
    build(&lig, VSG_LIG_SDF, "C Xx", "1-2:1");
    CHECK(vsg_ligand_assign_ad_types(&lig) == VSG_E_DATA);
    build(&lig, VSG_LIG_SDF, "C C", "1-3:1");
    CHECK(vsg_ligand_assign_ad_types(&lig) == VSG_E_DATA);
    build(&lig, VSG_LIG_SDF, "C C", "1-2:9");
    CHECK(vsg_ligand_assign_ad_types(&lig) == VSG_E_DATA);
    build(&lig, VSG_LIG_SDF, "", "");
    CHECK(vsg_ligand_assign_ad_types(&lig) == VSG_OK);
}

static void test_merge(void)
{
    /* ethanol C1 C2 O3 with H4-6 on C1, H7-8 on C2, H9 on O3 */
    vsg_ligand lig;
    build(&lig, VSG_LIG_SDF, "C C O H H H H H H", "1-2:1 2-3:1 1-4:1 1-5:1 1-6:1 2-7:1 2-8:1 3-9:1");
    const double q[9] = {-0.2, 0.05, -0.4, 0.06, 0.07, 0.08, 0.03, 0.04, 0.27};
    double total = 0;
    for (int i = 0; i < 9; i++) {
        lig.atoms[i].charge = q[i];
        total += q[i];
    }
    CHECK_STATUS(vsg_ligand_assign_ad_types(&lig), VSG_OK);
    vsg_ligand_merge_nonpolar_h(&lig);
    CHECK(lig.natoms == 4 && lig.nbonds == 3);
    CHECK(strcmp(lig.atoms[0].name, "C1") == 0 && strcmp(lig.atoms[3].name, "H9") == 0);
    CHECK_NEAR(lig.atoms[0].charge, -0.2 + 0.06 + 0.07 + 0.08, 1e-12);
    CHECK_NEAR(lig.atoms[1].charge, 0.05 + 0.03 + 0.04, 1e-12);
    CHECK_NEAR(lig.atoms[2].charge, -0.4, 1e-12);
    CHECK_NEAR(lig.atoms[3].charge, 0.27, 1e-12);
    double sum = 0;
    for (int i = 0; i < lig.natoms; i++)
        sum += lig.atoms[i].charge;
    CHECK_NEAR(sum, total, 1e-12);
    /* bonds renumbered: C1-C2, C2-O3, O3-H9 */
    CHECK(lig.bonds[0].a == 0 && lig.bonds[0].b == 1);
    CHECK(lig.bonds[1].a == 1 && lig.bonds[1].b == 2);
    CHECK(lig.bonds[2].a == 2 && lig.bonds[2].b == 3);
    /* a second merge changes nothing */
    vsg_ligand_merge_nonpolar_h(&lig);
    CHECK(lig.natoms == 4 && lig.nbonds == 3);
    /* a lone H and H2 are kept */
    build(&lig, VSG_LIG_SDF, "H H H", "2-3:1");
    vsg_ligand_merge_nonpolar_h(&lig);
    CHECK(lig.natoms == 3 && lig.nbonds == 1);
}

/* ---- real molecules ------------------------------------------------------------------- */

/* Reads record `record` (1-based) of data file `rel` into *lig; 0 when it cannot. */
static int read_record(const char *rel, long record, vsg_ligand *lig)
{
    char path[1400];
    if ((size_t)snprintf(path, sizeof path, "%s/%s", shared_data_dir(), rel) >= sizeof path)
        return 0;
    const char *paths[1] = {path};
    vsg_ligand_reader *r = NULL;
    if (vsg_ligand_reader_open(paths, 1, NULL, &r) != VSG_OK)
        return 0;
    int found = 0;
    while (vsg_ligand_reader_next(r, lig))
        if (lig->record == record) {
            found = lig->status == VSG_OK;
            if (!found)
                fprintf(stderr, "%s record %ld: %s\n", rel, record, lig->message);
            break;
        }
    vsg_ligand_reader_close(r);
    return found;
}

static void test_real_molecules(void)
{
    FILE *f = fopen(VSG_SOURCE_DIR "/tests/data/ad_types_expected.txt", "r");
    CHECK(f != NULL);
    if (!f)
        return;
    static char line[16384];
    int molecules = 0, atoms = 0, agree = 0, charged = 0;
    double max_dq = 0;
    vsg_ligand lig;
    vsg_ligand_init(&lig);
    while (fgets(line, sizeof line, f)) {
        char kind[16], rel[256];
        long record;
        int used;
        if (line[0] == '#' || sscanf(line, "%15s %255s %ld%n", kind, rel, &record, &used) != 3)
            continue;
        if (!read_record(rel, record, &lig)) {
            fprintf(stderr, "%s record %ld: could not be read\n", rel, record);
            check_failures++;
            continue;
        }
        const char *p = line + used;
        if (strcmp(kind, "types") == 0) {
            CHECK_STATUS(vsg_ligand_assign_ad_types(&lig), VSG_OK);
            vsg_ligand_merge_nonpolar_h(&lig);
            molecules++;
            char want[8];
            int n = 0, k;
            while (sscanf(p, "%7s%n", want, &k) == 1) {
                p += k;
                if (n < lig.natoms) {
                    atoms++;
                    if (strcmp(want, lig.atoms[n].ad_type) == 0)
                        agree++;
                    else
                        fprintf(stderr, "%s record %ld atom %d (%s): %s, obabel %s\n", rel, record, n + 1,
                                lig.atoms[n].name, lig.atoms[n].ad_type, want);
                }
                n++;
            }
            if (n != lig.natoms) {
                fprintf(stderr, "%s record %ld: %d atoms after the merge, obabel %d\n", rel, record, lig.natoms, n);
                check_failures++;
            }
        } else if (strcmp(kind, "gasteiger") == 0 && vsg_ligand_gasteiger_available()) {
            int had = lig.has_charges;
            CHECK_STATUS(vsg_ligand_gasteiger(&lig), VSG_OK);
            CHECK(lig.has_charges == had); /* has_charges keeps meaning "from the file" */
            double q, formal = 0, sum = 0;
            int n = 0, k;
            while (sscanf(p, "%lf%n", &q, &k) == 1) {
                p += k;
                if (n < lig.natoms) {
                    double d = fabs(lig.atoms[n].charge - q);
                    if (d > max_dq)
                        max_dq = d;
                }
                n++;
            }
            CHECK(n == lig.natoms);
            for (int i = 0; i < lig.natoms; i++) {
                sum += lig.atoms[i].charge;
                formal += lig.atoms[i].formal;
            }
            CHECK_NEAR(sum, formal, 1e-6); /* Gasteiger moves charge, never makes it */
            charged++;
        }
    }
    fclose(f);
    vsg_ligand_release(&lig);
    printf("typing: %d/%d atoms of %d molecules agree with obabel\n", agree, atoms, molecules);
    CHECK(molecules >= 8);
    CHECK(agree == atoms);
    if (vsg_ligand_gasteiger_available()) {
        printf("gasteiger: %d molecules, max |q - q_openbabel| = %.2e e\n", charged, max_dq);
        CHECK(charged >= 1);
        CHECK(max_dq <= 1e-6);
    }
}

static void test_gasteiger_hand_built(void)
{
    vsg_ligand lig;
    build(&lig, VSG_LIG_SDF, "C C O H H H H H H", "1-2:1 2-3:1 1-4:1 1-5:1 1-6:1 2-7:1 2-8:1 3-9:1");
    if (!vsg_ligand_gasteiger_available()) {
        CHECK(vsg_ligand_gasteiger(&lig) == VSG_E_UNSUPPORTED);
        CHECK(strstr(vsg_last_error(), "without Open Babel") != NULL);
        printf("gasteiger: skipped (this build has no Open Babel; the stub's error checked)\n");
        return;
    }
    CHECK_STATUS(vsg_ligand_gasteiger(&lig), VSG_OK);
    /* ethanol: O negative, hydroxyl H positive, neutral in sum */
    double sum = 0;
    for (int i = 0; i < lig.natoms; i++)
        sum += lig.atoms[i].charge;
    CHECK_NEAR(sum, 0, 1e-9);
    CHECK(lig.atoms[2].charge < -0.3 && lig.atoms[8].charge > 0.15);
    /* an element Open Babel does not know: a clear error, not a crash */
    build(&lig, VSG_LIG_SDF, "C Qq", "1-2:1");
    CHECK(vsg_ligand_gasteiger(&lig) == VSG_E_DATA);
}

int main(void)
{
    test_hand_built();
    test_merge();
    test_gasteiger_hand_built();
    if (shared_data_dir())
        test_real_molecules();
    else
        VSG_SKIP_PART("real molecules", VSG_NO_SHARED);
    CHECK_EXIT();
}
