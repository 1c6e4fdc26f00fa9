/* test_prepare.c — vsg_receptor_prepare (engine/prepare/): argument errors, the summary, and the
 * geometry of what it builds, on a Pro-Cys dipeptide of 1AJJ with a Ca2+ ion and a water:
 * N-terminal Pro (H, H2), C-terminal Cys (OXT built), AMBER and PARSE totals +2 (NPRO +1,
 * CCYS −1, Ca +2), every built H 0.95–1.12 Å from its heavy atom and ≥ 1.5 Å from every other
 * heavy atom, OXT 1.2–1.3 Å from C. (pdb2pqr agreement on whole proteins: tests/cli_prepare.sh.) */
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

typedef struct {
    char name[5];
    double x[3], q;
} atom;

static int parse(const char *text, atom *a, int max)
{
    int n = 0;
    for (const char *l = text; *l && n < max; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : l + strlen(l)) {
        if (strncmp(l, "ATOM", 4) != 0 && strncmp(l, "HETATM", 6) != 0)
            continue;
        sscanf(l + 12, "%4s", a[n].name);
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
    return check_failures ? 1 : 0;
}
