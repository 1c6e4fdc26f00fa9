/* test_prepare.c — vsg_receptor_prepare (engine/prepare/): argument errors, the summary, and the
 * geometry of what it builds, on a Pro-Cys dipeptide of 1AJJ with a Ca2+ ion and a water:
 * N-terminal Pro (H, H2), C-terminal Cys (OXT built), AMBER and PARSE totals +2 (NPRO +1,
 * CCYS −1, Ca +2), every built H 0.95–1.12 Å from its heavy atom and ≥ 1.5 Å from every other
 * heavy atom, OXT 1.2–1.3 Å from C. Protonation at a pH, on two 5-residue pieces of 1AJJ
 * (Phe-Glu-Phe-His-Cys, Lys-Asp-Lys-Ser-Asp as chain B) at pH 3, 7.4 and 12: total charges, the
 * states' hydrogens present or absent and 0.95–1.05 Å from their O, N; AMBER's terminal Asp,
 * Lys, Cys kept charged; residues named HSP, ASH, LYN in the input kept. (pdb2pqr agreement on
 * whole proteins: tests/cli_prepare.sh.) */
#include "grids/base/vsgrid.h"
#include "tests/check.h"

static const char dipeptide[] =
    "ATOM      1  N   PRO A   4      -0.169   7.698  13.415  1.00 22.81           N\n"
    "ATOM      2  CA  PRO A   4       0.745   6.948  12.566  1.00 22.22           C\n"
    "ATOM      3  C   PRO A   4       2.242   7.069  13.001  1.00 21.42           C\n"
    "ATOM      4  O   PRO A   4       2.527   6.607  14.110  1.00 21.79           O\n"
    "ATOM      5  CB  PRO A   4       0.532   7.450  11.164  1.00 22.96           C\n"
    "ATOM      6  CG  PRO A   4      -0.343   8.686  11.221  1.00 24.22           C\n"
    "ATOM      7  CD  PRO A   4      -0.704   8.833  12.692  1.00 23.59           C\n"
    "ATOM      8  N   CYS A   5       3.194   7.584  12.163  1.00 20.42           N\n"
    "ATOM      9  CA  CYS A   5       4.673   7.669  12.388  1.00 18.85           C\n"
    "ATOM     10  C   CYS A   5       5.169   8.640  13.469  1.00 18.26           C\n"
    "ATOM     11  O   CYS A   5       4.462   9.578  13.844  0.60 18.46           O\n"
    "ATOM     12  CB  CYS A   5       5.409   8.135  11.144  1.00 17.94           C\n"
    "ATOM     13  SG ACYS A   5       5.534   6.993   9.751  0.60 15.29           S\n"
    "ATOM     14  SG BCYS A   5       5.934   6.993   9.751  0.40 15.29           S\n"
    "HETATM   15 CA    CA A  73      15.392   6.217   0.598  1.00  9.85          CA\n"
    "HETATM   16  O   HOH A  74       7.399   1.385  11.146  1.00 24.99           O\n"
    "END\n";

/* 1AJJ residues 8-12 (chain A) and 31-35 (as chain B): Glu, His, free Cys; Lys, Asp */
static const char pieces[] =
    "ATOM     25  N   PHE A   8       8.524  13.700  12.101  1.00 11.55           N\n"
    "ATOM     26  CA  PHE A   8       9.471  13.927  11.013  1.00 10.72           C\n"
    "ATOM     27  C   PHE A   8       9.730  12.719  10.115  1.00 10.38           C\n"
    "ATOM     28  O   PHE A   8      10.093  12.883   8.945  1.00  9.94           O\n"
    "ATOM     29  CB  PHE A   8      10.823  14.430  11.564  1.00  9.94           C\n"
    "ATOM     30  CG  PHE A   8      10.655  15.568  12.570  1.00 10.31           C\n"
    "ATOM     31  CD1 PHE A   8       9.820  16.651  12.266  1.00  9.68           C\n"
    "ATOM     32  CD2 PHE A   8      11.306  15.517  13.807  1.00  8.70           C\n"
    "ATOM     33  CE1 PHE A   8       9.635  17.671  13.194  1.00  9.75           C\n"
    "ATOM     34  CE2 PHE A   8      11.117  16.541  14.731  1.00  9.22           C\n"
    "ATOM     35  CZ  PHE A   8      10.283  17.618  14.431  1.00  9.20           C\n"
    "ATOM     36  N   GLU A   9       9.463  11.508  10.585  1.00 10.17           N\n"
    "ATOM     37  CA  GLU A   9       9.728  10.325   9.769  1.00 10.33           C\n"
    "ATOM     38  C   GLU A   9       8.806  10.255   8.546  1.00  9.58           C\n"
    "ATOM     39  O   GLU A   9       7.653  10.725   8.557  1.00  8.99           O\n"
    "ATOM     40  CB  GLU A   9       9.573   9.058  10.643  1.00 11.83           C\n"
    "ATOM     41  CG  GLU A   9      10.706   8.998  11.659  1.00 15.27           C\n"
    "ATOM     42  CD  GLU A   9      10.746   7.721  12.483  1.00 19.23           C\n"
    "ATOM     43  OE1 GLU A   9      10.530   6.621  11.925  1.00 21.32           O\n"
    "ATOM     44  OE2 GLU A   9      11.022   7.827  13.702  1.00 21.36           O\n"
    "ATOM     45  N   PHE A  10       9.389   9.748   7.444  1.00  8.98           N\n"
    "ATOM     46  CA  PHE A  10       8.671   9.561   6.204  1.00  8.08           C\n"
    "ATOM     47  C   PHE A  10       7.825   8.312   6.356  1.00  7.93           C\n"
    "ATOM     48  O   PHE A  10       8.263   7.259   6.831  1.00  7.57           O\n"
    "ATOM     49  CB  PHE A  10       9.654   9.402   5.000  1.00  7.06           C\n"
    "ATOM     50  CG  PHE A  10       8.949   9.163   3.668  1.00  6.56           C\n"
    "ATOM     51  CD1 PHE A  10       8.412  10.247   2.946  1.00  6.92           C\n"
    "ATOM     52  CD2 PHE A  10       8.760   7.863   3.173  1.00  6.05           C\n"
    "ATOM     53  CE1 PHE A  10       7.689  10.040   1.773  1.00  6.13           C\n"
    "ATOM     54  CE2 PHE A  10       8.039   7.659   1.999  1.00  5.58           C\n"
    "ATOM     55  CZ  PHE A  10       7.502   8.737   1.300  1.00  6.91           C\n"
    "ATOM     56  N   HIS A  11       6.582   8.435   5.941  1.00  7.80           N\n"
    "ATOM     57  CA  HIS A  11       5.687   7.299   6.036  1.00  7.98           C\n"
    "ATOM     58  C   HIS A  11       5.541   6.615   4.687  1.00  7.83           C\n"
    "ATOM     59  O   HIS A  11       4.920   7.145   3.760  1.00  7.69           O\n"
    "ATOM     60  CB  HIS A  11       4.313   7.754   6.524  1.00  8.22           C\n"
    "ATOM     61  CG  HIS A  11       3.537   6.641   7.231  1.00  9.26           C\n"
    "ATOM     62  ND1 HIS A  11       2.387   6.824   7.893  1.00 10.45           N\n"
    "ATOM     63  CD2 HIS A  11       3.881   5.315   7.369  1.00  9.65           C\n"
    "ATOM     64  CE1 HIS A  11       2.026   5.671   8.417  1.00 10.03           C\n"
    "ATOM     65  NE2 HIS A  11       2.927   4.776   8.100  1.00  9.64           N\n"
    "ATOM     66  N   CYS A  12       6.120   5.431   4.591  1.00  7.66           N\n"
    "ATOM     67  CA  CYS A  12       5.972   4.600   3.416  1.00  7.81           C\n"
    "ATOM     68  C   CYS A  12       4.505   4.260   3.200  1.00  7.59           C\n"
    "ATOM     69  O   CYS A  12       3.809   3.954   4.165  1.00  7.63           O\n"
    "ATOM     70  CB  CYS A  12       6.711   3.281   3.590  1.00  8.09           C\n"
    "ATOM     71  SG  CYS A  12       8.458   3.396   4.016  1.00  9.11           S\n"
    "ATOM    203  N   LYS B  31       9.281  -0.933   1.486  1.00  8.62           N\n"
    "ATOM    204  CA  LYS B  31       8.932  -2.176   0.793  1.00  8.61           C\n"
    "ATOM    205  C   LYS B  31       8.417  -1.878  -0.598  1.00  8.11           C\n"
    "ATOM    206  O   LYS B  31       8.694  -2.599  -1.550  1.00  8.54           O\n"
    "ATOM    207  CB  LYS B  31       7.829  -2.934   1.499  1.00  9.44           C\n"
    "ATOM    208  CG  LYS B  31       8.216  -3.595   2.812  1.00 11.96           C\n"
    "ATOM    209  CD  LYS B  31       6.969  -4.196   3.458  1.00 13.86           C\n"
    "ATOM    210  CE  LYS B  31       7.305  -5.281   4.475  1.00 15.64           C\n"
    "ATOM    211  NZ  LYS B  31       7.783  -4.787   5.762  1.00 17.22           N\n"
    "ATOM    212  N   ASP B  32       7.688  -0.763  -0.767  1.00  7.58           N\n"
    "ATOM    213  CA  ASP B  32       7.129  -0.377  -2.056  1.00  7.22           C\n"
    "ATOM    214  C   ASP B  32       7.925   0.707  -2.762  1.00  6.99           C\n"
    "ATOM    215  O   ASP B  32       7.476   1.297  -3.757  1.00  6.66           O\n"
    "ATOM    216  CB  ASP B  32       5.716   0.132  -1.849  1.00  8.00           C\n"
    "ATOM    217  CG  ASP B  32       5.553   1.400  -0.990  1.00  8.35           C\n"
    "ATOM    218  OD1 ASP B  32       6.506   1.891  -0.359  1.00  6.51           O\n"
    "ATOM    219  OD2 ASP B  32       4.424   1.888  -0.951  1.00 10.68           O\n"
    "ATOM    220  N   LYS B  33       9.082   1.023  -2.182  1.00  7.02           N\n"
    "ATOM    221  CA  LYS B  33      10.011   2.052  -2.664  1.00  7.22           C\n"
    "ATOM    222  C   LYS B  33       9.358   3.440  -2.745  1.00  7.17           C\n"
    "ATOM    223  O   LYS B  33       9.899   4.337  -3.384  1.00  7.33           O\n"
    "ATOM    224  CB  LYS B  33      10.575   1.675  -4.052  1.00  7.21           C\n"
    "ATOM    225  CG  LYS B  33      11.383   0.387  -3.975  1.00  7.90           C\n"
    "ATOM    226  CD  LYS B  33      11.945   0.023  -5.350  1.00  8.52           C\n"
    "ATOM    227  CE  LYS B  33      12.851  -1.223  -5.310  1.00  8.29           C\n"
    "ATOM    228  NZ  LYS B  33      13.456  -1.502  -6.611  1.00  6.56           N\n"
    "ATOM    229  N   SER B  34       8.252   3.716  -2.051  1.00  7.21           N\n"
    "ATOM    230  CA  SER B  34       7.546   5.012  -2.161  1.00  7.62           C\n"
    "ATOM    231  C   SER B  34       8.392   6.196  -1.688  1.00  7.99           C\n"
    "ATOM    232  O   SER B  34       8.247   7.356  -2.092  1.00  7.93           O\n"
    "ATOM    233  CB  SER B  34       6.222   4.964  -1.358  1.00  6.45           C\n"
    "ATOM    234  OG  SER B  34       6.401   4.511  -0.020  1.00  6.56           O\n"
    "ATOM    235  N   ASP B  35       9.371   5.877  -0.851  1.00  8.11           N\n"
    "ATOM    236  CA  ASP B  35      10.295   6.906  -0.393  1.00  8.24           C\n"
    "ATOM    237  C   ASP B  35      11.183   7.493  -1.475  1.00  8.26           C\n"
    "ATOM    238  O   ASP B  35      11.887   8.472  -1.216  1.00  8.43           O\n"
    "ATOM    239  CB  ASP B  35      11.184   6.331   0.686  1.00  7.39           C\n"
    "ATOM    240  CG  ASP B  35      12.000   5.105   0.246  1.00  7.64           C\n"
    "ATOM    241  OD1 ASP B  35      11.438   4.108  -0.225  1.00  7.72           O\n"
    "ATOM    242  OD2 ASP B  35      13.222   5.137   0.406  1.00  5.29           O\n"
    "END\n";

typedef struct {
    char name[5], chain;
    int resseq;
    double x[3], q;
} atom;

static int parse(const char *text, atom *a, int max)
{
    int n = 0;
    for (const char *l = text; *l && n < max; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : l + strlen(l)) {
        if (strncmp(l, "ATOM", 4) != 0 && strncmp(l, "HETATM", 6) != 0)
            continue;
        sscanf(l + 12, "%4s", a[n].name);
        a[n].chain = l[21];
        a[n].resseq = atoi(l + 22);
        sscanf(l + 30, "%lf %lf %lf %lf", &a[n].x[0], &a[n].x[1], &a[n].x[2], &a[n].q);
        n++;
    }
    return n;
}

static double dist(const atom *a, const atom *b)
{
    return sqrt((a->x[0] - b->x[0]) * (a->x[0] - b->x[0]) + (a->x[1] - b->x[1]) * (a->x[1] - b->x[1]) +
                (a->x[2] - b->x[2]) * (a->x[2] - b->x[2]));
}

static int find(const atom *a, int n, char chain, int resseq, const char *name)
{
    for (int i = 0; i < n; i++)
        if (a[i].chain == chain && a[i].resseq == resseq && !strcmp(a[i].name, name))
            return i;
    return -1;
}

/* Present: the H (by name) of residue chain/resseq lies 0.95–1.05 Å from its parent. */
static void check_h(const atom *a, int n, char chain, int resseq, const char *h, const char *parent, int present)
{
    int i = find(a, n, chain, resseq, h), k = find(a, n, chain, resseq, parent);
    if ((i >= 0) != present)
        fprintf(stderr, "%c%d %s: %s, expected %s\n", chain, resseq, h, i >= 0 ? "present" : "absent",
                present ? "present" : "absent");
    CHECK((i >= 0) == present);
    CHECK(k >= 0);
    if (i >= 0 && k >= 0) {
        double d = dist(&a[i], &a[k]);
        CHECK(d > 0.95 && d < 1.05);
    }
}

static char *write_pieces(const char *path, int named)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return NULL;
    for (const char *l = pieces; *l; l = strchr(l, '\n') + 1) {
        char line[96];
        size_t len = (size_t)(strchr(l, '\n') - l);
        snprintf(line, sizeof line, "%.*s", (int)len, l);
        int r = len > 26 ? atoi(line + 22) : 0;
        const char *rename = !named ? NULL : r == 11 ? "HSP" : r == 35 ? "ASH" : r == 33 ? "LYN" : NULL;
        if (rename && !strncmp(line, "ATOM", 4))
            memcpy(line + 17, rename, 3);
        fprintf(f, "%s\n", line);
    }
    return fclose(f) == 0 ? (char *)path : NULL;
}

/* One preparation of the pieces: total charge and atoms written as expected; the atoms parsed. */
static int prepare_pieces(const char *path, vsg_prep_forcefield ff, double ph, double charge, int atoms,
                          vsg_prep_summary *s, atom *a, int max)
{
    vsg_prep_options o;
    vsg_prep_options_default(&o);
    o.ff = ff;
    o.ph = ph;
    char *text = NULL;
    CHECK(vsg_receptor_prepare(path, &o, &text, s) == VSG_OK);
    if (!text)
        return 0;
    if (fabs(s->total_charge - charge) > 1e-6 || s->atoms_out != atoms)
        fprintf(stderr, "%s pH %.1f: charge %+.4f (expected %+.0f), %d atoms (expected %d)\n%s",
                ff == VSG_PREP_PARSE ? "PARSE" : "AMBER", ph, s->total_charge, charge, s->atoms_out, atoms, s->report);
    CHECK_NEAR(s->total_charge, charge, 1e-6);
    CHECK(s->atoms_out == atoms);
    int n = parse(text, a, max);
    CHECK(n == atoms);
    free(text);
    return n;
}

static void test_ph(void)
{
    char path[512];
    snprintf(path, sizeof path, "%s/test_prepare_pieces.pdb", VSG_BINARY_DIR);
    CHECK(write_pieces(path, 0) != NULL);
    static atom a[256];
    vsg_prep_summary s;
    /* PARSE has every state at the chain ends too. pH 7.4: -1 (Glu9, Asp32, Asp35 -; Lys31,
       Lys33 +; termini); pH 3: GLH 9, HIP 11, ASH 32 and 35: +3; pH 12: CYM 12, LYN 31 and 33: -4 */
    int n = prepare_pieces(path, VSG_PREP_PARSE, 7.4, -1, 168, &s, a, 256);
    CHECK(s.his_hip + s.asp_ash + s.glu_glh + s.lys_lyn + s.cys_cym + s.kept_named == 0);
    CHECK(s.his_hid + s.his_hie == 1 && s.disulfides == 0);
    check_h(a, n, 'A', 9, "HE2", "OE2", 0);
    check_h(a, n, 'B', 32, "HD2", "OD2", 0);
    check_h(a, n, 'A', 12, "HG", "SG", 1);
    check_h(a, n, 'B', 33, "HZ3", "NZ", 1);
    CHECK((find(a, n, 'A', 11, "HD1") >= 0) + (find(a, n, 'A', 11, "HE2") >= 0) == 1);
    vsg_prep_summary_free(&s);

    n = prepare_pieces(path, VSG_PREP_PARSE, 3, 3, 172, &s, a, 256);
    CHECK(s.his_hip == 1 && s.asp_ash == 2 && s.glu_glh == 1 && s.lys_lyn == 0 && s.cys_cym == 0);
    CHECK(s.his_hid + s.his_hie == 0);
    CHECK(strstr(s.report, "pH 3.0 (model pKa values, no titration): 1 HIP, 2 ASH, 1 GLH, 0 LYN, 0 CYM") != NULL);
    check_h(a, n, 'A', 9, "HE2", "OE2", 1);
    check_h(a, n, 'A', 11, "HD1", "ND1", 1);
    check_h(a, n, 'A', 11, "HE2", "NE2", 1);
    check_h(a, n, 'B', 32, "HD2", "OD2", 1);
    check_h(a, n, 'B', 35, "HD2", "OD2", 1);
    vsg_prep_summary_free(&s);

    n = prepare_pieces(path, VSG_PREP_PARSE, 12, -4, 165, &s, a, 256);
    CHECK(s.lys_lyn == 2 && s.cys_cym == 1 && s.his_hip + s.asp_ash + s.glu_glh == 0);
    check_h(a, n, 'A', 12, "HG", "SG", 0);
    check_h(a, n, 'B', 31, "HZ3", "NZ", 0);
    check_h(a, n, 'B', 33, "HZ3", "NZ", 0);
    check_h(a, n, 'B', 33, "HZ1", "NZ", 1);
    check_h(a, n, 'B', 33, "HZ2", "NZ", 1);
    vsg_prep_summary_free(&s);

    /* AMBER.DAT has no CASH, CCYM, NLYN: Asp35 (pH 3), Cys12 and Lys31 (pH 12) stay charged */
    n = prepare_pieces(path, VSG_PREP_AMBER, 3, 2, 171, &s, a, 256);
    CHECK(s.asp_ash == 1 && strstr(s.report, "ASP B35 at the chain's C end: ASP (AMBER.DAT has no CASH") != NULL);
    check_h(a, n, 'B', 35, "HD2", "OD2", 0);
    vsg_prep_summary_free(&s);
    n = prepare_pieces(path, VSG_PREP_AMBER, 12, -2, 167, &s, a, 256);
    CHECK(s.lys_lyn == 1 && s.cys_cym == 0);
    check_h(a, n, 'A', 12, "HG", "SG", 1);
    check_h(a, n, 'B', 31, "HZ3", "NZ", 1);
    vsg_prep_summary_free(&s);
    /* every built H at its bond length from one heavy atom, clear of the others */
    for (int i = 0; i < n; i++) {
        if (a[i].name[0] != 'H')
            continue;
        double best = 1e9, second = 1e9;
        for (int k = 0; k < n; k++) {
            if (a[k].name[0] == 'H' || k == i)
                continue;
            double d = dist(&a[i], &a[k]);
            if (d < best)
                second = best, best = d;
            else if (d < second)
                second = d;
        }
        CHECK(best > 0.95 && best < 1.12);
        CHECK(second >= 1.5);
    }

    /* explicit names win: HSP 11 (HIP), ASH 35, LYN 33 at pH 12 and 3 */
    CHECK(write_pieces(path, 1) != NULL);
    n = prepare_pieces(path, VSG_PREP_PARSE, 12, -2, 167, &s, a, 256);
    CHECK(s.kept_named == 3 && s.lys_lyn == 1 && s.cys_cym == 1 && s.his_hip == 0);
    CHECK(strstr(s.report, "states kept as named in the input: 3") != NULL);
    check_h(a, n, 'A', 11, "HD1", "ND1", 1);
    check_h(a, n, 'A', 11, "HE2", "NE2", 1);
    check_h(a, n, 'B', 35, "HD2", "OD2", 1);
    vsg_prep_summary_free(&s);
    prepare_pieces(path, VSG_PREP_PARSE, 3, 2, 171, &s, a, 256);
    CHECK(s.kept_named == 3 && s.lys_lyn == 0 && s.asp_ash == 1 && s.his_hip == 0);
    vsg_prep_summary_free(&s);
    /* AMBER: the C-terminal ASH has no CASH: charged, not counted as kept */
    prepare_pieces(path, VSG_PREP_AMBER, 12, -1, 168, &s, a, 256);
    CHECK(s.kept_named == 2);
    vsg_prep_summary_free(&s);

    if (vsg_ligand_gasteiger_available()) {
        /* PDBQT has no terminal limits: formal charges follow every state */
        CHECK(write_pieces(path, 0) != NULL);
        vsg_prep_options o;
        vsg_prep_options_default(&o);
        o.format = VSG_PREP_PDBQT;
        const double phs[3] = {3, 7.4, 12}, want[3] = {3, -1, -4};
        for (int k = 0; k < 3; k++) {
            char *text = NULL;
            o.ph = phs[k];
            CHECK(vsg_receptor_prepare(path, &o, &text, &s) == VSG_OK);
            CHECK_NEAR(s.total_charge, want[k], 0.01);
            free(text);
            vsg_prep_summary_free(&s);
        }
    }
    remove(path);
}

int main(void)
{
    char path[512];
    snprintf(path, sizeof path, "%s/test_prepare_dipeptide.pdb", VSG_BINARY_DIR);
    FILE *f = fopen(path, "w");
    if (!f || fputs(dipeptide, f) < 0 || fclose(f) != 0) {
        printf("cannot write %s\n", path);
        return 1;
    }
    char *text = NULL;
    vsg_prep_options o;
    vsg_prep_options_default(&o);
    CHECK_NEAR(o.ph, 7.4, 1e-12);
    CHECK(vsg_receptor_prepare(NULL, &o, &text, NULL) == VSG_E_ARG);
    CHECK(vsg_receptor_prepare(path, &o, NULL, NULL) == VSG_E_ARG);
    o.ph = 20;
    CHECK(vsg_receptor_prepare(path, &o, &text, NULL) == VSG_E_ARG);
    o.ph = 7.4;
    CHECK(vsg_receptor_prepare("/nonexistent/x.pdb", &o, &text, NULL) == VSG_E_IO);
    CHECK(text == NULL);

    vsg_prep_summary s;
    CHECK(vsg_receptor_prepare(path, &o, &text, &s) == VSG_OK);
    CHECK(text != NULL && s.report != NULL);
    if (!text || !s.report)
        return 1;
    CHECK(s.atoms_in == 15);  /* the B location of SG dropped */
    CHECK(s.altlocs_dropped == 1);
    CHECK(s.atoms_out == 29); /* NPRO 16 + CCYS 12 + Ca */
    CHECK(s.h_added == 14);
    CHECK(s.heavy_added == 1); /* OXT */
    CHECK(s.het_groups == 1 && s.waters_dropped == 1 && s.residues == 2);
    CHECK_NEAR(s.total_charge, 2.0, 1e-6);
    atom a[64];
    int n = parse(text, a, 64);
    CHECK(n == 29);
    int sg = -1, c = -1, oxt = -1;
    for (int i = 0; i < n; i++) {
        if (!strcmp(a[i].name, "SG")) sg = i;
        if (!strcmp(a[i].name, "OXT")) oxt = i;
        if (!strcmp(a[i].name, "C") && i > 5) c = i;
    }
    CHECK(sg >= 0 && fabs(a[sg].x[0] - 5.534) < 1e-9); /* the higher occupancy */
    CHECK(oxt >= 0 && c >= 0);
    if (oxt >= 0 && c >= 0) {
        double d = dist(&a[oxt], &a[c]);
        CHECK(d > 1.2 && d < 1.3);
    }
    for (int i = 0; i < n; i++) {
        if (a[i].name[0] != 'H')
            continue;
        double best = 1e9, second = 1e9;
        for (int k = 0; k < n; k++) {
            if (a[k].name[0] == 'H' || k == i)
                continue;
            double d = dist(&a[i], &a[k]);
            if (d < best)
                second = best, best = d;
            else if (d < second)
                second = d;
        }
        if (!(best > 0.95 && best < 1.12 && second >= 1.5))
            fprintf(stderr, "H %s: %.3f A from its heavy atom, %.3f from the next\n", a[i].name, best, second);
        CHECK(best > 0.95 && best < 1.12);
        CHECK(second >= 1.5);
    }
    free(text);
    vsg_prep_summary_free(&s);

    o.ff = VSG_PREP_PARSE;
    o.keep_waters = 1;
    CHECK(vsg_receptor_prepare(path, &o, &text, &s) == VSG_OK);
    CHECK_NEAR(s.total_charge, 2.0, 1e-6);
    CHECK(s.atoms_out == 32); /* the kept water with its two H */
    free(text);
    vsg_prep_summary_free(&s);

    o.format = VSG_PREP_PDBQT;
    vsg_status st = vsg_receptor_prepare(path, &o, &text, &s);
    if (!vsg_ligand_gasteiger_available()) {
        CHECK(st == VSG_E_UNSUPPORTED);
        printf("PDBQT check skipped: no Open Babel in this build\n");
    } else {
        CHECK(st == VSG_OK);
        if (st == VSG_OK) {
            CHECK_NEAR(s.total_charge, 2.0, 1e-3);
            CHECK(strstr(text, " HD\n") != NULL); /* polar H kept */
            CHECK(strstr(text, " SA\n") != NULL);
            free(text);
            vsg_prep_summary_free(&s);
        }
    }
    remove(path);
    test_ph();
    return check_failures ? 1 : 0;
}
