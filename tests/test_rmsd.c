/* test_rmsd.c — vsg_ligand_rmsd, the symmetry-aware heavy-atom RMSD, on benzoic acid built in
 * memory (9 heavy atoms, planar, exact geometry):
 * 1. the same molecule with its atoms listed in another order, a hydrogen added → 0, with
 *    bonds from the record or inferred from distances;
 * 2. a rigid translation by (0.6, 0.8, 0) Å → exactly 1;
 * 3. symmetry: the carboxylate's oxygens swapped, and the whole molecule turned 180° about its
 *    C1–C4 axis (the phenyl flip): the same-order RMSD is large (computed here), the symmetric
 *    one 0; the flip translated by 1 Å → exactly 1 (the minimum, not the first match);
 * 4. different molecules → VSG_E_DATA with a message: an oxygen missing, an O made N, the same
 *    atoms bonded otherwise; NULL → VSG_E_ARG.
 * 5. With ../shared/data: the 1STP crystal biotin (SDF, no hydrogens) against data/biotin.pdbqt
 *    (same coordinates, another order, polar hydrogens) → 0 (obrms gives 0 too). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "grids/base/vsgrid.h"

enum { N_HEAVY = 9 };

/* benzoic acid: ring C1..C6 (radius 1.39 Å, C1 on +x), C7 on the axis 1.49 Å beyond C1, O8 and
 * O9 at 1.25 Å from C7, 120° apart; a hydrogen on C4. Bonds 1-based. */
static void benzoic(vsg_lig_atom at[N_HEAVY + 1])
{
    memset(at, 0, (N_HEAVY + 1) * sizeof *at);
    const double pi = acos(-1.0);
    for (int k = 0; k < 6; k++) {
        at[k].x = 1.39 * cos(k * pi / 3), at[k].y = 1.39 * sin(k * pi / 3);
        strcpy(at[k].element, "C");
    }
    at[6].x = 1.39 + 1.49;
    strcpy(at[6].element, "C");
    at[7].x = at[6].x + 1.25 * cos(pi / 3), at[7].y = 1.25 * sin(pi / 3);
    at[8].x = at[6].x + 1.25 * cos(pi / 3), at[8].y = -1.25 * sin(pi / 3);
    strcpy(at[7].element, "O"), strcpy(at[8].element, "O");
    at[9].x = -1.39 - 1.08;
    strcpy(at[9].element, "H");
    for (int k = 0; k < N_HEAVY + 1; k++) snprintf(at[k].name, sizeof at[k].name, "%s%d", at[k].element, k + 1);
}
static const int bonds1[][2] = {{1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 6}, {6, 1}, {1, 7}, {7, 8}, {7, 9}, {4, 10}};
enum { N_BONDS = 10 };

/* A record over `at` (n atoms) listed as perm[k] = index in `at` of record atom k; bonds from
 * bonds1 (with_bonds) or none (inferred). */
typedef struct {
    vsg_ligand lig;
    vsg_lig_atom atoms[16];
    vsg_lig_bond bonds[16];
} rec;

static void make(rec *r, const vsg_lig_atom *at, const int *perm, int n, int with_bonds)
{
    memset(r, 0, sizeof *r);
    int inv[16];
    for (int k = 0; k < 16; k++) inv[k] = -1;
    for (int k = 0; k < n; k++) r->atoms[k] = at[perm[k]], inv[perm[k]] = k;
    r->lig.atoms = r->atoms, r->lig.natoms = n, r->lig.atoms_cap = 16;
    r->lig.bonds = r->bonds, r->lig.bonds_cap = 16;
    if (with_bonds)
        for (int b = 0; b < N_BONDS; b++) {
            int a = inv[bonds1[b][0] - 1], c = inv[bonds1[b][1] - 1];
            if (a < 0 || c < 0) continue;
            r->bonds[r->lig.nbonds++] = (vsg_lig_bond){a, c, 1};
        }
}

/* RMSD over heavy atoms in listed order (both records list heavy atoms first, same count). */
static double plain(const rec *a, const rec *b)
{
    double s = 0;
    for (int k = 0; k < N_HEAVY; k++) {
        const vsg_lig_atom *p = &a->atoms[k], *q = &b->atoms[k];
        s += (p->x - q->x) * (p->x - q->x) + (p->y - q->y) * (p->y - q->y) + (p->z - q->z) * (p->z - q->z);
    }
    return sqrt(s / N_HEAVY);
}

static void translate(rec *r, double dx, double dy, double dz)
{
    for (int k = 0; k < r->lig.natoms; k++) r->atoms[k].x += dx, r->atoms[k].y += dy, r->atoms[k].z += dz;
}

int main(void)
{
    vsg_lig_atom at[N_HEAVY + 1];
    benzoic(at);
    static const int ident[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
    static const int shuffled[] = {8, 3, 6, 0, 9, 5, 1, 7, 2, 4}; /* hydrogen in the middle */
    rec ref, pose;
    double r = -1;

    /* 1. another order, a hydrogen more: 0 (record bonds, inferred bonds, one of each) */
    for (int mode = 0; mode < 4; mode++) {
        make(&ref, at, ident, N_HEAVY, mode & 1);
        make(&pose, at, shuffled, N_HEAVY + 1, (mode >> 1) & 1);
        r = -1;
        CHECK_STATUS(vsg_ligand_rmsd(&ref.lig, &pose.lig, &r), VSG_OK);
        CHECK_NEAR(r, 0.0, 1e-12);
    }
    /* a PDBQT polar hydrogen (element H, type HD) is ignored too */
    make(&pose, at, shuffled, N_HEAVY + 1, 0);
    strcpy(pose.atoms[4].ad_type, "HD");
    CHECK_STATUS(vsg_ligand_rmsd(&ref.lig, &pose.lig, &r), VSG_OK);
    CHECK_NEAR(r, 0.0, 1e-12);

    /* 2. a rigid translation by 1 Å */
    make(&ref, at, ident, N_HEAVY, 1);
    make(&pose, at, shuffled, N_HEAVY + 1, 0);
    translate(&pose, 0.6, 0.8, 0.0);
    CHECK_STATUS(vsg_ligand_rmsd(&ref.lig, &pose.lig, &r), VSG_OK);
    CHECK_NEAR(r, 1.0, 1e-12);

    /* 3a. the oxygens swapped: O8 and O9 exchange places in the list */
    static const int oswap[] = {0, 1, 2, 3, 4, 5, 6, 8, 7, 9};
    make(&ref, at, ident, N_HEAVY, 1);
    make(&pose, at, oswap, N_HEAVY, 1);
    double same_order = plain(&ref, &pose);
    printf("oxygens swapped: same-order RMSD %.4f A\n", same_order);
    CHECK(same_order > 0.7); /* 2 of 9 atoms moved by 2.165 Å: 1.0206 */
    CHECK_STATUS(vsg_ligand_rmsd(&ref.lig, &pose.lig, &r), VSG_OK);
    CHECK_NEAR(r, 0.0, 1e-12);
    /* 3b. the molecule turned 180° about its C1–C4 (x) axis: y → −y, so C2↔C6, C3↔C5, O8↔O9 */
    make(&pose, at, ident, N_HEAVY, 1);
    for (int k = 0; k < N_HEAVY; k++) pose.atoms[k].y = -pose.atoms[k].y, pose.atoms[k].z = -pose.atoms[k].z;
    same_order = plain(&ref, &pose);
    printf("phenyl flipped: same-order RMSD %.4f A\n", same_order);
    CHECK(same_order > 1.0);
    CHECK_STATUS(vsg_ligand_rmsd(&ref.lig, &pose.lig, &r), VSG_OK);
    CHECK_NEAR(r, 0.0, 1e-12);
    /* 3c. flipped and moved by 1 Å along z: exactly 1, every correspondence weighed */
    translate(&pose, 0.0, 0.0, 1.0);
    CHECK_STATUS(vsg_ligand_rmsd(&ref.lig, &pose.lig, &r), VSG_OK);
    CHECK_NEAR(r, 1.0, 1e-12);
    /* a pose swapped in its oxygens only by 0.3 Å along x of O8: the best mapping is the swap */
    make(&pose, at, oswap, N_HEAVY, 1);
    pose.atoms[7].x += 0.3;
    CHECK_STATUS(vsg_ligand_rmsd(&ref.lig, &pose.lig, &r), VSG_OK);
    CHECK_NEAR(r, sqrt(0.09 / N_HEAVY), 1e-12);

    /* 4. different molecules */
    static const int no_o9[] = {0, 1, 2, 3, 4, 5, 6, 7, 9};
    make(&ref, at, ident, N_HEAVY, 1);
    make(&pose, at, no_o9, N_HEAVY, 1); /* 8 heavy atoms + H */
    vsg_clear_error();
    CHECK_STATUS(vsg_ligand_rmsd(&ref.lig, &pose.lig, &r), VSG_E_DATA);
    CHECK_CONTAINS(vsg_last_error(), "heavy atoms");
    make(&pose, at, ident, N_HEAVY, 1);
    strcpy(pose.atoms[8].element, "N");
    CHECK_STATUS(vsg_ligand_rmsd(&ref.lig, &pose.lig, &r), VSG_E_DATA);
    CHECK_CONTAINS(vsg_last_error(), "elements differ");
    /* O9 bonded to O8 instead of C7 (bond 7-9 → 8-9): same atoms and bond count, another graph */
    make(&pose, at, ident, N_HEAVY, 1);
    for (int b = 0; b < pose.lig.nbonds; b++)
        if (pose.bonds[b].a == 6 && pose.bonds[b].b == 8) pose.bonds[b].a = 7;
    CHECK_STATUS(vsg_ligand_rmsd(&ref.lig, &pose.lig, &r), VSG_E_DATA);
    CHECK_CONTAINS(vsg_last_error(), "graph");
    CHECK_STATUS(vsg_ligand_rmsd(NULL, &pose.lig, &r), VSG_E_ARG);
    CHECK_STATUS(vsg_ligand_rmsd(&ref.lig, &pose.lig, NULL), VSG_E_ARG);

    /* 5. real records: the 1STP crystal biotin (SDF) against data/biotin.pdbqt */
    const char *shared = shared_data_dir();
    if (!shared) {
        VSG_SKIP_PART("1STP biotin check", VSG_NO_SHARED);
    } else {
        char sdf[1200];
        snprintf(sdf, sizeof sdf, "%s/autodock_gpu/1stp/Ligands_noHydrogens_withMissing_1_Instances.sdf", shared);
        const char *paths[2] = {sdf, source_path("data/biotin.pdbqt")};
        vsg_ligand lig[2];
        for (int k = 0; k < 2; k++) {
            vsg_ligand_reader *rd = NULL;
            vsg_ligand_init(&lig[k]);
            CHECK_STATUS(vsg_ligand_reader_open(&paths[k], 1, NULL, &rd), VSG_OK);
            CHECK(rd && vsg_ligand_reader_next(rd, &lig[k]) == 1 && lig[k].status == VSG_OK);
            vsg_ligand_reader_close(rd);
        }
        r = -1;
        CHECK_STATUS(vsg_ligand_rmsd(&lig[0], &lig[1], &r), VSG_OK);
        CHECK_NEAR(r, 0.0, 1e-3);
        CHECK_STATUS(vsg_ligand_rmsd(&lig[1], &lig[0], &r), VSG_OK);
        CHECK_NEAR(r, 0.0, 1e-3);
        for (int k = 0; k < 2; k++) vsg_ligand_release(&lig[k]);
    }
    CHECK_EXIT();
}
