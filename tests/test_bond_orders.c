/* test_bond_orders.c — bond orders and formal charges perceived from geometry
 * (ligands/bond_orders.c), on hand-checked molecules: benzene, pyridine, imidazole, acetate,
 * N-methylacetamide, nitrobenzene, methanesulfonamide, methyl phosphate, acetone and
 * isopropanol, (E)-hexatriene. Coordinates: RDKit ETKDG (seed 7) and MMFF, written here as
 * literals; expected orders and charges are RDKit's for the SMILES (aromatic bonds: 4).
 *
 * Each molecule is perceived twice: with its hydrogens (valences decide) and without them
 * (geometry decides). Checked: every non-aromatic bond's order; the aromatic bonds a Kekulé
 * structure (each ring atom at most one double bond, as many double bonds as RDKit's form, none
 * on a pyrrole-type NH when H is there); the formal charges, where a carboxylate or nitro
 * group's oxygens may swap their double bond and charge (resonance forms of one structure).
 * Through the PDB reader: orders perceived without CONECT and with CONECT that repeats no
 * serial, kept as stated when CONECT repeats one. */
#include "ligands/bond_orders.h"
#include "tests/check.h"

typedef struct {
    const char *el;
    double x, y, z;
    int formal;
} case_atom;
typedef struct {
    int a, b, order; /* order 4: aromatic (any Kekulé form) */
} case_bond;

/* ---- coordinates (RDKit ETKDG seed 7, MMFF) ---------------------------------------------- */
static const case_atom benzene_atoms[] = {
    {"C", 1.0721, 0.8919, -0.0260, 0},
    {"C", 1.3087, -0.4825, -0.0045, 0},
    {"C", 0.2366, -1.3744, 0.0215, 0},
    {"C", -1.0721, -0.8919, 0.0260, 0},
    {"C", -1.3087, 0.4825, 0.0045, 0},
    {"C", -0.2366, 1.3744, -0.0215, 0},
    {"H", 1.9073, 1.5868, -0.0462, 0},
    {"H", 2.3283, -0.8584, -0.0080, 0},
    {"H", 0.4210, -2.4453, 0.0383, 0},
    {"H", -1.9073, -1.5868, 0.0462, 0},
    {"H", -2.3283, 0.8584, 0.0080, 0},
    {"H", -0.4210, 2.4453, -0.0383, 0},
};
static const case_bond benzene_bonds[] = {
    {0, 1, 4}, {1, 2, 4}, {2, 3, 4}, {3, 4, 4}, {4, 5, 4}, {5, 0, 4},
    {0, 6, 1}, {1, 7, 1}, {2, 8, 1}, {3, 9, 1}, {4, 10, 1}, {5, 11, 1},
};
static const case_atom pyridine_atoms[] = {
    {"C", -0.3775, 1.1210, 0.0486, 0},
    {"C", -1.2912, 0.0730, 0.0081, 0},
    {"C", -0.8013, -1.2221, -0.0483, 0},
    {"N", 0.5144, -1.5276, -0.0662, 0},
    {"C", 1.3776, -0.4893, -0.0260, 0},
    {"C", 0.9843, 0.8383, 0.0314, 0},
    {"H", -0.7238, 2.1495, 0.0932, 0},
    {"H", -2.3589, 0.2599, 0.0201, 0},
    {"H", -1.4743, -2.0739, -0.0815, 0},
    {"H", 2.4291, -0.7612, -0.0415, 0},
    {"H", 1.7217, 1.6323, 0.0619, 0},
};
static const case_bond pyridine_bonds[] = {
    {0, 1, 4}, {1, 2, 4}, {2, 3, 4}, {3, 4, 4}, {4, 5, 4}, {5, 0, 4},
    {0, 6, 1}, {1, 7, 1}, {2, 8, 1}, {4, 9, 1}, {5, 10, 1},
};
static const case_atom imidazole_atoms[] = {
    {"C", -1.0558, -0.6258, -0.0869, 0},
    {"C", -0.7191, 0.7006, 0.0440, 0},
    {"N", 0.6438, 0.7108, 0.1551, 0},
    {"C", 1.0706, -0.5851, 0.0884, 0},
    {"N", 0.0643, -1.4157, -0.0579, 0},
    {"H", -2.0432, -1.0545, -0.2002, 0},
    {"H", -1.3098, 1.6048, 0.0668, 0},
    {"H", 1.2339, 1.5237, 0.2663, 0},
    {"H", 2.1154, -0.8587, 0.1516, 0},
};
static const case_bond imidazole_bonds[] = {
    {0, 1, 4}, {1, 2, 4}, {2, 3, 4}, {3, 4, 4}, {4, 0, 4}, {0, 5, 1},
    {1, 6, 1}, {2, 7, 1}, {3, 8, 1},
};
static const case_atom acetate_atoms[] = {
    {"C", -0.6385, -0.0534, -0.0004, 0},
    {"C", 0.8755, 0.0668, -0.0004, 0},
    {"O", 1.5025, -1.0174, -0.1573, 0},
    {"O", 1.3135, 1.2409, 0.1573, -1},
    {"H", -1.0387, 0.3050, 0.9527, 0},
    {"H", -0.9561, -1.0912, -0.1405, 0},
    {"H", -1.0581, 0.5492, -0.8114, 0},
};
static const case_bond acetate_bonds[] = {
    {0, 1, 1}, {1, 2, 2}, {1, 3, 1}, {0, 4, 1}, {0, 5, 1}, {0, 6, 1},
};
static const case_atom n_methylacetamide_atoms[] = {
    {"C", 1.8633, 0.2355, 0.2252, 0},
    {"C", 0.3966, 0.3400, 0.5466, 0},
    {"O", -0.0183, 1.0158, 1.4822, 0},
    {"N", -0.4176, -0.3710, -0.3057, 0},
    {"C", -1.8521, -0.2972, -0.1900, 0},
    {"H", 2.1952, 1.1676, -0.2394, 0},
    {"H", 2.4209, 0.0647, 1.1503, 0},
    {"H", 2.0685, -0.5958, -0.4550, 0},
    {"H", -0.0257, -0.7294, -1.1664, 0},
    {"H", -2.1515, -0.3263, 0.8612, 0},
    {"H", -2.2881, -1.1436, -0.7255, 0},
    {"H", -2.1913, 0.6398, -0.6395, 0},
};
static const case_bond n_methylacetamide_bonds[] = {
    {0, 1, 1}, {1, 2, 2}, {1, 3, 1}, {3, 4, 1}, {0, 5, 1}, {0, 6, 1},
    {0, 7, 1}, {3, 8, 1}, {4, 9, 1}, {4, 10, 1}, {4, 11, 1},
};
static const case_atom nitrobenzene_atoms[] = {
    {"C", 0.2843, 1.1772, 0.2217, 0},
    {"C", -1.1062, 1.2958, 0.1884, 0},
    {"C", -1.8995, 0.1706, -0.0439, 0},
    {"C", -1.3095, -1.0789, -0.2442, 0},
    {"C", 0.0800, -1.2099, -0.2133, 0},
    {"C", 0.8734, -0.0784, 0.0202, 0},
    {"N", 2.3351, -0.2097, 0.0539, 1},
    {"O", 2.8180, -1.3366, -0.1287, 0},
    {"O", 3.0020, 0.8140, 0.2631, -1},
    {"H", 0.8883, 2.0636, 0.4038, 0},
    {"H", -1.5731, 2.2660, 0.3436, 0},
    {"H", -2.9829, 0.2678, -0.0689, 0},
    {"H", -1.9340, -1.9511, -0.4247, 0},
    {"H", 0.5242, -2.1904, -0.3712, 0},
};
static const case_bond nitrobenzene_bonds[] = {
    {0, 1, 4}, {1, 2, 4}, {2, 3, 4}, {3, 4, 4}, {4, 5, 4}, {5, 6, 1},
    {6, 7, 2}, {6, 8, 1}, {5, 0, 4}, {0, 9, 1}, {1, 10, 1}, {2, 11, 1},
    {3, 12, 1}, {4, 13, 1},
};
static const case_atom methanesulfonamide_atoms[] = {
    {"C", 1.3014, -0.0387, 0.3044, 0},
    {"S", -0.2968, -0.5280, -0.3058, 0},
    {"O", -0.8196, -1.5961, 0.5123, 0},
    {"O", -0.2617, -0.6015, -1.7468, 0},
    {"N", -1.2276, 0.8174, 0.0567, 0},
    {"H", 1.2286, 0.1479, 1.3773, 0},
    {"H", 1.6257, 0.8558, -0.2305, 0},
    {"H", 1.9981, -0.8582, 0.1156, 0},
    {"H", -1.9623, 0.5652, 0.7206, 0},
    {"H", -1.5858, 1.2363, -0.8038, 0},
};
static const case_bond methanesulfonamide_bonds[] = {
    {0, 1, 1}, {1, 2, 2}, {1, 3, 2}, {1, 4, 1}, {0, 5, 1}, {0, 6, 1},
    {0, 7, 1}, {4, 8, 1}, {4, 9, 1},
};
static const case_atom methyl_phosphate_atoms[] = {
    {"C", -1.6723, -0.0647, -0.3969, 0},
    {"O", -0.3420, 0.2587, -0.7487, 0},
    {"P", 0.7973, -0.2359, 0.2561, 0},
    {"O", 0.8054, -1.6784, 0.6213, 0},
    {"O", 2.1551, 0.2122, -0.4551, 0},
    {"O", 0.7528, 0.7962, 1.4697, 0},
    {"H", -1.9118, 0.3379, 0.5912, 0},
    {"H", -1.8077, -1.1496, -0.3996, 0},
    {"H", -2.3479, 0.3782, -1.1329, 0},
    {"H", 2.5118, -0.5273, -0.9819, 0},
    {"H", 1.0592, 1.6726, 1.1768, 0},
};
static const case_bond methyl_phosphate_bonds[] = {
    {0, 1, 1}, {1, 2, 1}, {2, 3, 2}, {2, 4, 1}, {2, 5, 1}, {0, 6, 1},
    {0, 7, 1}, {0, 8, 1}, {4, 9, 1}, {5, 10, 1},
};
static const case_atom acetone_atoms[] = {
    {"C", -1.2673, -0.0836, -0.2377, 0},
    {"C", -0.0373, 0.0597, 0.6172, 0},
    {"C", 1.2875, 0.0513, -0.0963, 0},
    {"O", -0.1111, 0.1779, 1.8393, 0},
    {"H", -1.3180, 0.7450, -0.9483, 0},
    {"H", -1.2338, -1.0368, -0.7709, 0},
    {"H", -2.1598, -0.0629, 0.3938, 0},
    {"H", 2.0980, 0.1618, 0.6294, 0},
    {"H", 1.4130, -0.8971, -0.6245, 0},
    {"H", 1.3288, 0.8847, -0.8019, 0},
};
static const case_bond acetone_bonds[] = {
    {0, 1, 1}, {1, 2, 1}, {1, 3, 2}, {0, 4, 1}, {0, 5, 1}, {0, 6, 1},
    {2, 7, 1}, {2, 8, 1}, {2, 9, 1},
};
static const case_atom isopropanol_atoms[] = {
    {"C", -1.1519, 0.5201, 0.1283, 0},
    {"C", 0.0388, -0.2956, -0.3518, 0},
    {"C", 1.3527, 0.2902, 0.1399, 0},
    {"O", -0.0703, -1.6258, 0.1445, 0},
    {"H", -1.0972, 1.5526, -0.2300, 0},
    {"H", -1.2060, 0.5292, 1.2225, 0},
    {"H", -2.0881, 0.0773, -0.2284, 0},
    {"H", 0.0453, -0.3415, -1.4461, 0},
    {"H", 2.1946, -0.3223, -0.2005, 0},
    {"H", 1.3940, 0.2993, 1.2348, 0},
    {"H", 1.4946, 1.3118, -0.2254, 0},
    {"H", -0.9062, -1.9952, -0.1878, 0},
};
static const case_bond isopropanol_bonds[] = {
    {0, 1, 1}, {1, 2, 1}, {1, 3, 1}, {0, 4, 1}, {0, 5, 1}, {0, 6, 1},
    {1, 7, 1}, {2, 8, 1}, {2, 9, 1}, {2, 10, 1}, {3, 11, 1},
};
static const case_atom hexatriene_atoms[] = {
    {"C", 3.0451, -0.0248, -0.2216, 0},
    {"C", 1.8312, -0.0082, 0.3411, 0},
    {"C", 0.6078, -0.0084, -0.4269, 0},
    {"C", -0.6078, 0.0084, 0.1404, 0},
    {"C", -1.8312, 0.0082, -0.6275, 0},
    {"C", -3.0451, 0.0248, -0.0649, 0},
    {"H", 3.1840, -0.0395, -1.2979, 0},
    {"H", 3.9379, -0.0240, 0.3959, 0},
    {"H", 1.7518, 0.0062, 1.4262, 0},
    {"H", 0.7029, -0.0228, -1.5107, 0},
    {"H", -0.7029, 0.0228, 1.2243, 0},
    {"H", -1.7518, -0.0062, -1.7126, 0},
    {"H", -3.1840, 0.0395, 1.0114, 0},
    {"H", -3.9379, 0.0240, -0.6823, 0},
};
static const case_bond hexatriene_bonds[] = {
    {0, 1, 2}, {1, 2, 1}, {2, 3, 2}, {3, 4, 1}, {4, 5, 2}, {0, 6, 1},
    {0, 7, 1}, {1, 8, 1}, {2, 9, 1}, {3, 10, 1}, {4, 11, 1}, {5, 12, 1},
    {5, 13, 1},
};

typedef struct {
    const char *name;
    const case_atom *atoms;
    int natoms;
    const case_bond *bonds;
    int nbonds;
} molecule_case;

#define CASE(n) {#n, n##_atoms, (int)(sizeof n##_atoms / sizeof n##_atoms[0]), n##_bonds, \
                  (int)(sizeof n##_bonds / sizeof n##_bonds[0])}

static int is_h(const char *el) { return !strcmp(el, "H"); }

/* Whether atom i is an oxygen with one neighbour on an atom that has two or more of them
 * (carboxylate, nitro, sulfonyl, phosphate): such oxygens may trade bonds and charges. */
static int resonant_oxygen(const molecule_case *mc, int i)
{
    int nbr = -1, deg = 0;
    if (strcmp(mc->atoms[i].el, "O")) return 0;
    for (int e = 0; e < mc->nbonds; e++)
        if (mc->bonds[e].a == i || mc->bonds[e].b == i)
            deg++, nbr = mc->bonds[e].a == i ? mc->bonds[e].b : mc->bonds[e].a;
    if (deg != 1) return 0;
    int terminal_o = 0;
    for (int e = 0; e < mc->nbonds; e++) {
        int o = mc->bonds[e].a == nbr ? mc->bonds[e].b : mc->bonds[e].b == nbr ? mc->bonds[e].a : -1;
        if (o < 0 || strcmp(mc->atoms[o].el, "O")) continue;
        int d = 0;
        for (int f = 0; f < mc->nbonds; f++) d += mc->bonds[f].a == o || mc->bonds[f].b == o;
        terminal_o += d == 1;
    }
    return terminal_o >= 2;
}

/* Perceives mc with or without its hydrogens and checks it; returns the failures. */
static int check_case(const molecule_case *mc, int with_h)
{
    const int before = check_failures;
    int map[64], n = 0;
    vsg_lig_atom atoms[64];
    vsg_lig_bond bonds[64];
    int expect[64], nb = 0;
    for (int i = 0; i < mc->natoms; i++) {
        map[i] = -1;
        if (!with_h && is_h(mc->atoms[i].el)) continue;
        memset(&atoms[n], 0, sizeof atoms[n]);
        snprintf(atoms[n].element, sizeof atoms[n].element, "%s", mc->atoms[i].el);
        atoms[n].x = mc->atoms[i].x, atoms[n].y = mc->atoms[i].y, atoms[n].z = mc->atoms[i].z;
        map[i] = n++;
    }
    for (int e = 0; e < mc->nbonds; e++) {
        if (map[mc->bonds[e].a] < 0 || map[mc->bonds[e].b] < 0) continue;
        bonds[nb] = (vsg_lig_bond){map[mc->bonds[e].a], map[mc->bonds[e].b], 1};
        expect[nb++] = mc->bonds[e].order;
    }
    vsg_ligand lig;
    vsg_ligand_init(&lig);
    lig.atoms = atoms, lig.natoms = n, lig.bonds = bonds, lig.nbonds = nb;
    CHECK(vsg_perceive_bond_orders(&lig) == VSG_OK);
    int got_doubles = 0, resonant_charge = 0, want_resonant_charge = 0;
    for (int e = 0; e < nb; e++) {
        if (expect[e] == 4) {
            got_doubles += bonds[e].order == 2;
            CHECK(bonds[e].order == 1 || bonds[e].order == 2);
            continue;
        }
        int resonant = 0; /* a bond to a carboxylate or nitro oxygen: checked through the charges */
        for (int i = 0; i < mc->natoms; i++)
            resonant |= (map[i] == bonds[e].a || map[i] == bonds[e].b) && resonant_oxygen(mc, i);
        if (resonant) continue;
        if (bonds[e].order != expect[e]) {
            fprintf(stderr, "%s (%s H): bond %d-%d order %d, expected %d\n", mc->name, with_h ? "with" : "without",
                    bonds[e].a, bonds[e].b, bonds[e].order, expect[e]);
            check_failures++;
        }
    }
    /* RDKit's Kekulé form of the aromatic bonds: how many are double */
    for (int i = 0; i < mc->natoms; i++) {
        if (map[i] < 0) continue;
        int aromatic = 0, doubles = 0, has_h = 0;
        for (int e = 0; e < nb; e++) {
            if (bonds[e].a != map[i] && bonds[e].b != map[i]) continue;
            aromatic += expect[e] == 4;
            doubles += expect[e] == 4 && bonds[e].order == 2;
        }
        for (int e = 0; e < mc->nbonds; e++)
            if ((mc->bonds[e].a == i && is_h(mc->atoms[mc->bonds[e].b].el)) ||
                (mc->bonds[e].b == i && is_h(mc->atoms[mc->bonds[e].a].el)))
                has_h = 1;
        if (aromatic) {
            CHECK(doubles <= 1);
            if (with_h && has_h && !strcmp(mc->atoms[i].el, "N")) CHECK(doubles == 0); /* pyrrole-type NH */
        }
        if (resonant_oxygen(mc, i)) {
            resonant_charge += atoms[map[i]].formal;
            want_resonant_charge += mc->atoms[i].formal;
        } else if (atoms[map[i]].formal != mc->atoms[i].formal) {
            fprintf(stderr, "%s (%s H): atom %d (%s) formal charge %d, expected %d\n", mc->name,
                    with_h ? "with" : "without", i, mc->atoms[i].el, atoms[map[i]].formal, mc->atoms[i].formal);
            check_failures++;
        }
    }
    CHECK(resonant_charge == want_resonant_charge);
    /* double bonds of the aromatic rings: a Kekulé form has one per two ring atoms */
    int ring_atoms = 0;
    for (int i = 0; i < mc->natoms; i++) {
        int aromatic = 0;
        for (int e = 0; e < mc->nbonds; e++)
            aromatic |= mc->bonds[e].order == 4 && (mc->bonds[e].a == i || mc->bonds[e].b == i);
        ring_atoms += aromatic;
    }
    const int expected_doubles = ring_atoms / 2;
    if (got_doubles != expected_doubles) {
        fprintf(stderr, "%s (%s H): %d aromatic double bonds, expected %d\n", mc->name, with_h ? "with" : "without",
                got_doubles, expected_doubles);
        check_failures++;
    }
    return check_failures - before;
}

/* Acetone through the PDB reader: conect 0 writes no CONECT, 1 CONECT that repeats nothing,
 * 2 CONECT that repeats the C1–C2 pair (a double bond the file states, wrong on purpose). */
static void write_acetone_pdb(const char *path, int conect)
{
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f) return;
    fprintf(f, "COMPND    acetone\n");
    for (int i = 0; i < 10; i++)
        fprintf(f, "HETATM%5d %-4s UNL     1    %8.3f%8.3f%8.3f  1.00  0.00          %2s\n", i + 1, acetone_atoms[i].el,
                acetone_atoms[i].x, acetone_atoms[i].y, acetone_atoms[i].z, acetone_atoms[i].el);
    for (int e = 0; conect && e < (int)(sizeof acetone_bonds / sizeof acetone_bonds[0]); e++) {
        fprintf(f, "CONECT%5d%5d\n", acetone_bonds[e].a + 1, acetone_bonds[e].b + 1);
        if (conect == 2 && acetone_bonds[e].a == 0 && acetone_bonds[e].b == 1) fprintf(f, "CONECT%5d%5d\n", 1, 2);
    }
    fprintf(f, "END\n");
    fclose(f);
}

/* The order of bond a–b in the first record of path, 0 when absent or unreadable. */
static int read_order(const char *path, int a, int b)
{
    vsg_ligand_reader *r;
    const char *paths[1] = {path};
    int order = 0;
    if (vsg_ligand_reader_open(paths, 1, NULL, &r) != VSG_OK) return 0;
    vsg_ligand lig;
    vsg_ligand_init(&lig);
    if (vsg_ligand_reader_next(r, &lig) == 1 && lig.status == VSG_OK)
        for (int e = 0; e < lig.nbonds; e++)
            if ((lig.bonds[e].a == a && lig.bonds[e].b == b) || (lig.bonds[e].a == b && lig.bonds[e].b == a))
                order = lig.bonds[e].order;
    vsg_ligand_release(&lig);
    vsg_ligand_reader_close(r);
    return order;
}

static void check_reader(void)
{
    const int before = check_failures;
    const char *none = scratch_path("bond_orders_none.pdb"), *plain = scratch_path("bond_orders_plain.pdb"),
               *stated = scratch_path("bond_orders_stated.pdb");
    write_acetone_pdb(none, 0);
    write_acetone_pdb(plain, 1);
    write_acetone_pdb(stated, 2);
    CHECK(read_order(none, 1, 3) == 2);   /* no CONECT: perceived C=O */
    CHECK(read_order(none, 0, 1) == 1);
    CHECK(read_order(plain, 1, 3) == 2);  /* CONECT without repeats: perceived */
    CHECK(read_order(stated, 0, 1) == 2); /* the file's orders are kept as stated */
    CHECK(read_order(stated, 1, 3) == 1);
    remove(none), remove(plain), remove(stated);
    printf("%-20s PDB reader: %s\n", "acetone", check_failures > before ? "FAIL" : "ok");
}

int main(void)
{
    const molecule_case cases[] = {CASE(benzene),        CASE(pyridine),           CASE(imidazole),
                                   CASE(acetate),        CASE(n_methylacetamide),  CASE(nitrobenzene),
                                   CASE(methanesulfonamide), CASE(methyl_phosphate), CASE(acetone),
                                   CASE(isopropanol),    CASE(hexatriene)};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
        for (int with_h = 1; with_h >= 0; with_h--) {
            int f = check_case(&cases[k], with_h);
            printf("%-20s %s H: %s\n", cases[k].name, with_h ? "with   " : "without", f ? "FAIL" : "ok");
        }
    check_reader();
    /* a bond that names a missing atom is refused */
    vsg_lig_atom one[1] = {{.element = "C"}};
    vsg_lig_bond bad[1] = {{0, 3, 1}};
    vsg_ligand lig;
    vsg_ligand_init(&lig);
    lig.atoms = one, lig.natoms = 1, lig.bonds = bad, lig.nbonds = 1;
    CHECK(vsg_perceive_bond_orders(&lig) == VSG_E_ARG);
    CHECK(vsg_perceive_bond_orders(NULL) == VSG_E_ARG);
    return check_failures ? 1 : 0;
}
