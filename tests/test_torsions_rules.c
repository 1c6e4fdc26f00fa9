/* test_torsions_rules.c — which bonds of an SDF/MOL2 record vsg_torsions_from_bonds makes
 * rotatable, on hand-built molecules (heavy atoms and polar H only, as the docking model sees
 * them after the non-polar merge): the amide rule (C(=O)–N rigid) against the thioamide and
 * thiourea rule (C(=S)–N rotatable, as Open Babel 3.1's OBBond::IsAmide and Meeko's
 * [NX3]-[CX3]=[O,N] make it; torsions.c names the sources), and a MOL2 "am" bond read as single.
 * Each case names the bonds expected to rotate, so a rule that freezes or frees one bond too
 * many fails here. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "grids/base/vsgrid.h"
#include "ligands/torsions/torsions.h"

#define MAXA 32

/* atoms: element symbols; bonds: "a-b:o" 1-based, o 1, 2, 3, 4 (aromatic), 5 (MOL2 am). */
static void build(vsg_ligand *lig, vsg_lig_atom *a, vsg_lig_bond *b, const char *atoms, const char *bonds)
{
    memset(a, 0, sizeof(vsg_lig_atom) * MAXA);
    memset(b, 0, sizeof(vsg_lig_bond) * MAXA);
    memset(lig, 0, sizeof *lig);
    int n = 0, nb = 0;
    char buf[512];
    snprintf(buf, sizeof buf, "%s", atoms);
    for (char *tok = strtok(buf, " "); tok && n < MAXA; tok = strtok(NULL, " "), n++)
        snprintf(a[n].element, sizeof a[n].element, "%s", tok);
    snprintf(buf, sizeof buf, "%s", bonds);
    for (char *tok = strtok(buf, " "); tok && nb < MAXA; tok = strtok(NULL, " "), nb++) {
        int x, y, o;
        if (sscanf(tok, "%d-%d:%d", &x, &y, &o) != 3) {
            fprintf(stderr, "bad bond spec %s\n", tok);
            exit(1);
        }
        b[nb].a = x - 1, b[nb].b = y - 1, b[nb].order = o;
    }
    lig->atoms = a, lig->bonds = b, lig->natoms = n, lig->nbonds = nb;
    lig->atoms_cap = lig->bonds_cap = MAXA;
    lig->format = VSG_LIG_MOL2;
}

/* The rotors found must be exactly the 1-based pairs listed in `rot` ("a-b a-b", "" for none). */
static void check_rotors(const char *what, const char *atoms, const char *bonds, const char *rot)
{
    vsg_lig_atom a[MAXA];
    vsg_lig_bond b[MAXA];
    vsg_ligand lig;
    build(&lig, a, b, atoms, bonds);
    vsg_torsions t;
    if (vsg_torsions_from_bonds(&lig, &t) != VSG_OK) {
        fprintf(stderr, "%s: vsg_torsions_from_bonds failed: %s\n", what, vsg_last_error());
        check_failures++;
        return;
    }
    int want[MAXA][2], nwant = 0;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", rot);
    for (char *tok = strtok(buf, " "); tok && nwant < MAXA; tok = strtok(NULL, " "), nwant++)
        if (sscanf(tok, "%d-%d", &want[nwant][0], &want[nwant][1]) != 2) exit(1);
    int ok = t.nrotors == nwant;
    for (int k = 0; ok && k < nwant; k++) {
        int found = 0;
        for (int r = 0; r < t.nrotors; r++) {
            const int x = t.rotor[r][0] + 1, y = t.rotor[r][1] + 1;
            found |= (x == want[k][0] && y == want[k][1]) || (x == want[k][1] && y == want[k][0]);
        }
        ok = found;
    }
    if (!ok) {
        fprintf(stderr, "%s: rotors found:", what);
        for (int r = 0; r < t.nrotors; r++) fprintf(stderr, " %d-%d", t.rotor[r][0] + 1, t.rotor[r][1] + 1);
        fprintf(stderr, "; expected: %s\n", rot[0] ? rot : "(none)");
        check_failures++;
    }
    CHECK(t.torsdof == t.nrotors);
    vsg_torsions_release(&t);
}

int main(void)
{
    /* N-methylacetamide C1-C2(=O3)-N4(H5)-C6: the amide C–N is rigid; C1–C2 and N4–C6 end in a
     * methyl (merged H: terminal), so nothing rotates */
    check_rotors("N-methylacetamide", "C C O N H C", "1-2:1 2-3:2 2-4:1 4-5:1 4-6:1", "");
    /* N-ethylacetamide: the amide C–N rigid, N4–C6 rotates (C6–C7 ends in a methyl) */
    check_rotors("N-ethylacetamide", "C C O N H C C", "1-2:1 2-3:2 2-4:1 4-5:1 4-6:1 6-7:1", "4-6");
    /* N-ethylthioacetamide C1-C2(=S3)-N4(H5)-C6-C7: the thioamide C–N rotates (Open Babel, Meeko) */
    check_rotors("N-ethylthioacetamide", "C C S N H C C", "1-2:1 2-3:2 2-4:1 4-5:1 4-6:1 6-7:1", "2-4 4-6");
    /* the same thioamide C–N written as a MOL2 "am" bond: single, so it rotates too */
    check_rotors("thioamide, MOL2 am", "C C S N H C C", "1-2:1 2-3:2 2-4:5 4-5:1 4-6:1 6-7:1", "2-4 4-6");
    /* an amide C–N written "am" stays rigid (the amide rule, not the bond label, decides) */
    check_rotors("amide, MOL2 am", "C C O N H C C", "1-2:1 2-3:2 2-4:5 4-5:1 4-6:1 6-7:1", "4-6");
    /* N,N'-dimethylthiourea C1-N2(H3)-C4(=S5)-N6(H7)-C8: both thiourea C–N rotate */
    check_rotors("N,N'-dimethylthiourea", "C N H C S N H C", "1-2:1 2-3:1 2-4:1 4-5:2 4-6:1 6-7:1 6-8:1", "2-4 4-6");
    /* its urea: both rigid */
    check_rotors("N,N'-dimethylurea", "C N H C O N H C", "1-2:1 2-3:1 2-4:1 4-5:2 4-6:1 6-7:1 6-8:1", "");
    /* N-acetyl-N'-methylthiourea C1-C2(=O3)-N4(H5)-C6(=S7)-N8(H9)-C10, the DUD-E acylthioureas'
     * core: the acyl C2–N4 stays rigid, the thiourea N4–C6 and C6–N8 rotate */
    check_rotors("acylthiourea", "C C O N H C S N H C",
                 "1-2:1 2-3:2 2-4:1 4-5:1 4-6:1 6-7:2 6-8:1 8-9:1 8-10:1", "4-6 6-8");
    /* a thioamide C–N inside a ring (thiazolidine-2-thione-like) never rotates */
    check_rotors("cyclic thioamide", "C S N C C S H", "1-2:2 1-3:1 3-4:1 4-5:1 5-6:1 6-1:1 3-7:1", "");
    /* a primary thioamide C(=S)NH2: the N's two polar H make it a rotor, as any NH2 on a
     * non-amide carbon (Meeko's count; the non-polar side is ethyl) */
    check_rotors("thiopropionamide", "C C C S N H H", "1-2:1 2-3:1 3-4:2 3-5:1 5-6:1 5-7:1", "2-3 3-5");
    if (check_failures) {
        fprintf(stderr, "%d check(s) failed\n", check_failures);
        return 1;
    }
    printf("torsion rules: all checks passed\n");
    return 0;
}
