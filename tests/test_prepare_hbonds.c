/* test_prepare_hbonds.c — hydrogen-bond placement of rotatable polar H and of kept waters' H
 * (engine/prepare/polar_hydrogens.c), on Leu-Ser-Gly of 1AJJ with an acetate 2.7 Å from the
 * Ser OG, and a water between two acetates (O···O 2.8 Å, 105° apart):
 * the Ser HG points at the acetate O (H···O < 2.2 Å), the water donates to both (each H···O
 * < 2.2 Å), water H at 0.9572 Å and 104.52°; AMBER water charges O −0.834 / H +0.417 (PARSE
 * −0.72 / +0.36), the total charge the same with and without the water; PDBQT water O OA and H
 * HD, neutral. Then the step again on the prepared atoms, each group turned away first: bond
 * lengths and angles to the axis unchanged to 1e-6, the H back on their acceptors. With
 * ../shared/data: 1AJJ's Ser HG dihedrals within 30° of pdb2pqr's (its regression output, made
 * with the default optimisation) for at least 4 of 5 (measured 4/5; the template's: 2/5). A
 * neutral LYN (pH 11) turns its two H to an acetate O placed between them (test_lyn). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/prepare/prep_model.h"
#include "grids/base/vsgrid.h"
#include "tests/check.h"

static const char tripeptide[] =
    "ATOM      1  N   LEU A  13       4.048   4.197   1.955  1.00  8.03           N\n"
    "ATOM      2  CA  LEU A  13       2.662   3.802   1.674  1.00  8.70           C\n"
    "ATOM      3  C   LEU A  13       2.430   2.334   2.026  1.00  8.87           C\n"
    "ATOM      4  O   LEU A  13       1.305   1.939   2.299  1.00  9.01           O\n"
    "ATOM      5  CB  LEU A  13       2.298   4.006   0.207  1.00  9.20           C\n"
    "ATOM      6  CG  LEU A  13       2.411   5.457  -0.281  1.00 11.02           C\n"
    "ATOM      7  CD1 LEU A  13       1.962   5.593  -1.728  1.00 12.60           C\n"
    "ATOM      8  CD2 LEU A  13       1.504   6.305   0.552  1.00 10.90           C\n"
    "ATOM      9  N   SER A  14       3.513   1.548   2.151  1.00  8.82           N\n"
    "ATOM     10  CA  SER A  14       3.418   0.165   2.610  1.00  9.39           C\n"
    "ATOM     11  C   SER A  14       3.267   0.124   4.142  1.00  9.60           C\n"
    "ATOM     12  O   SER A  14       3.198  -0.927   4.783  1.00  9.66           O\n"
    "ATOM     13  CB  SER A  14       4.681  -0.605   2.163  1.00  9.83           C\n"
    "ATOM     14  OG  SER A  14       5.872   0.192   2.204  1.00 10.76           O\n"
    "ATOM     15  N   GLY A  15       3.331   1.264   4.831  1.00  9.69           N\n"
    "ATOM     16  CA  GLY A  15       3.027   1.319   6.252  1.00 10.03           C\n"
    "ATOM     17  C   GLY A  15       4.192   1.686   7.172  1.00 10.25           C\n"
    "ATOM     18  O   GLY A  15       3.969   2.346   8.188  1.00 10.93           O\n";

typedef struct {
    char name[5], resn[4];
    int resseq;
    double x[3], q;
    char type[3];
} atom;

static double dist(const double *a, const double *b)
{
    return sqrt(prep_dist2(a, b));
}

static void unitv(double *v)
{
    double n = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    for (int e = 0; e < 3; e++)
        v[e] /= n;
}

static double angle(const double *a, const double *b, const double *c)
{
    double u[3], v[3], d = 0;
    for (int e = 0; e < 3; e++)
        u[e] = a[e] - b[e], v[e] = c[e] - b[e];
    unitv(u), unitv(v);
    for (int e = 0; e < 3; e++)
        d += u[e] * v[e];
    return acos(d > 1 ? 1 : d < -1 ? -1 : d) * 180 / 3.14159265358979323846;
}

static double dihedral(const double *p0, const double *p1, const double *p2, const double *p3)
{
    double b0[3], b1[3], b2[3], v[3], w[3], x = 0, y = 0, d0 = 0, d2 = 0;
    for (int e = 0; e < 3; e++)
        b0[e] = p0[e] - p1[e], b1[e] = p2[e] - p1[e], b2[e] = p3[e] - p2[e];
    unitv(b1);
    for (int e = 0; e < 3; e++)
        d0 += b0[e] * b1[e], d2 += b2[e] * b1[e];
    for (int e = 0; e < 3; e++)
        v[e] = b0[e] - d0 * b1[e], w[e] = b2[e] - d2 * b1[e];
    double c[3] = {b1[1] * v[2] - b1[2] * v[1], b1[2] * v[0] - b1[0] * v[2], b1[0] * v[1] - b1[1] * v[0]};
    for (int e = 0; e < 3; e++)
        x += v[e] * w[e], y += c[e] * w[e];
    return atan2(y, x) * 180 / 3.14159265358979323846;
}

/* PQR (whitespace fields, with or without a chain) or PDBQT (fixed columns) records. */
static int parse(const char *text, atom *a, int max, int pdbqt)
{
    int n = 0;
    for (const char *l = text; *l && n < max; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : l + strlen(l)) {
        if (strncmp(l, "ATOM", 4) != 0 && strncmp(l, "HETATM", 6) != 0)
            continue;
        atom *t = &a[n];
        memset(t, 0, sizeof *t);
        if (pdbqt) {
            sscanf(l + 12, "%4s", t->name);
            sscanf(l + 17, "%3s", t->resn);
            t->resseq = atoi(l + 22);
            sscanf(l + 30, "%lf %lf %lf", &t->x[0], &t->x[1], &t->x[2]);
            t->q = atof(l + 70);
            sscanf(l + 77, "%2s", t->type);
        } else {
            char f[11][16], line[128];
            size_t len = strcspn(l, "\n");
            snprintf(line, sizeof line, "%.*s", (int)(len < 127 ? len : 127), l);
            int k = sscanf(line + 6, "%15s %15s %15s %15s %15s %15s %15s %15s %15s %15s", f[0], f[1], f[2], f[3], f[4],
                           f[5], f[6], f[7], f[8], f[9]);
            if (k < 9)
                continue;
            int c = k == 10; /* a chain field */
            snprintf(t->name, sizeof t->name, "%.4s", f[1]);
            snprintf(t->resn, sizeof t->resn, "%.3s", f[2]);
            t->resseq = atoi(f[3 + c]);
            for (int e = 0; e < 3; e++)
                t->x[e] = atof(f[4 + c + e]);
            t->q = atof(f[7 + c]);
        }
        n++;
    }
    return n;
}

static const atom *find(const atom *a, int n, int resseq, const char *name)
{
    for (int i = 0; i < n; i++)
        if (a[i].resseq == resseq && strcmp(a[i].name, name) == 0)
            return &a[i];
    return NULL;
}

/* An acetate (ACT) whose O1 sits at o1, its C 1.25 Å further along dir, O2 and CH3 in the
 * plane of dir and side. */
static void write_acetate(FILE *f, int resseq, const double *o1, const double *dir, const double *side)
{
    double c[3], o2[3], ch3[3];
    double a2 = 125 * 3.14159265358979323846 / 180, a3 = 117.5 * 3.14159265358979323846 / 180;
    for (int e = 0; e < 3; e++) {
        c[e] = o1[e] + 1.25 * dir[e];
        o2[e] = c[e] + 1.25 * (-cos(a2) * dir[e] + sin(a2) * side[e]);
        ch3[e] = c[e] + 1.52 * (-cos(a3) * dir[e] - sin(a3) * side[e]);
    }
    const char *nm[4] = {"O", "C", "OXT", "CH3"};
    const double *p[4] = {o1, c, o2, ch3};
    for (int k = 0; k < 4; k++)
        fprintf(f, "HETATM%5d  %-3s ACT B%4d    %8.3f%8.3f%8.3f  1.00 10.00           %c\n", 100 + 4 * resseq + k,
                nm[k], resseq, p[k][0], p[k][1], p[k][2], nm[k][0]);
}

static void rotate(const double *u, const double *v, double t, double *out)
{
    double c = cos(t), s = sin(t), uv = u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
    double x[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
    for (int e = 0; e < 3; e++)
        out[e] = v[e] * c + x[e] * s + u[e] * uv * (1 - c);
}

/* The prepared atoms as a preparation job (out atoms, residues by number), for the step alone. */
static void load_job(job *j, const atom *a, int n)
{
    memset(j, 0, sizeof *j);
    j->out = calloc((size_t)n, sizeof *j->out);
    j->res_of = calloc((size_t)n, sizeof *j->res_of);
    j->m.r = calloc((size_t)n, sizeof *j->m.r);
    j->nout = n;
    for (int i = 0; i < n; i++) {
        patom *p = &j->out[i];
        snprintf(p->name, sizeof p->name, "%.4s", a[i].name);
        snprintf(p->resn, sizeof p->resn, "%.3s", a[i].resn);
        p->element[0] = a[i].name[0];
        memcpy(p->x, a[i].x, sizeof p->x);
        if (i == 0 || a[i].resseq != a[i - 1].resseq || strcmp(a[i].resn, a[i - 1].resn) != 0) {
            pres *r = &j->m.r[j->m.nr++];
            snprintf(r->resn, sizeof r->resn, "%.3s", a[i].resn);
            snprintf(r->ff, sizeof r->ff, "%.3s", a[i].resn);
            r->kind = !strcmp(a[i].resn, "HOH") ? 1 : !strcmp(a[i].resn, "ACT") ? 2 : 0;
            r->nterm = j->m.nr == 1;
            r->cterm = !strcmp(a[i].resn, "GLY");
            r->first = i;
        }
        j->res_of[i] = j->m.nr - 1;
    }
}

static int index_of(int n, int resseq, const char *resn, const char *name, const atom *a)
{
    for (int i = 0; i < n; i++)
        if (a[i].resseq == resseq && !strcmp(a[i].resn, resn) && !strcmp(a[i].name, name))
            return i;
    return -1;
}

/* A neutral LYN (pH 11) turns its two H for a hydrogen bond: Lys 31 of 1AJJ (between Cys 30 and
 * Asp 32: a chain end stays LYS with AMBER, which has no terminal LYN), then an acetate
 * O 2.9 Å from NZ on the tetrahedral cone, 60° around the axis from where the template puts HZ1
 * (between the two H): one H must reach it (H···O < 2.1 Å; unturned, both stay ≥ 2.3 Å). */
static void test_lyn(void)
{
    static const char lys[] = /* 1AJJ Cys 30, Lys 31, Asp 32: the Lys inside the chain */
        "ATOM    197  N   CYS A  30      11.642   1.769   1.627  1.00  8.98           N\n"
        "ATOM    198  CA  CYS A  30      10.308   1.231   1.844  1.00  8.79           C\n"
        "ATOM    199  C   CYS A  30      10.165  -0.045   1.028  1.00  8.65           C\n"
        "ATOM    200  O   CYS A  30      10.718  -0.155  -0.073  1.00  8.67           O\n"
        "ATOM    201  CB  CYS A  30       9.251   2.238   1.385  1.00  8.28           C\n"
        "ATOM    202  SG  CYS A  30       9.248   3.843   2.263  1.00  8.85           S\n"
        "ATOM    203  N   LYS A  31       9.281  -0.933   1.486  1.00  8.62           N\n"
        "ATOM    204  CA  LYS A  31       8.932  -2.176   0.793  1.00  8.61           C\n"
        "ATOM    205  C   LYS A  31       8.417  -1.878  -0.598  1.00  8.11           C\n"
        "ATOM    206  O   LYS A  31       8.694  -2.599  -1.550  1.00  8.54           O\n"
        "ATOM    207  CB  LYS A  31       7.829  -2.934   1.499  1.00  9.44           C\n"
        "ATOM    208  CG  LYS A  31       8.216  -3.595   2.812  1.00 11.96           C\n"
        "ATOM    209  CD  LYS A  31       6.969  -4.196   3.458  1.00 13.86           C\n"
        "ATOM    210  CE  LYS A  31       7.305  -5.281   4.475  1.00 15.64           C\n"
        "ATOM    211  NZ  LYS A  31       7.783  -4.787   5.762  1.00 17.22           N\n"
        "ATOM    212  N   ASP A  32       7.688  -0.763  -0.767  1.00  7.58           N\n"
        "ATOM    213  CA  ASP A  32       7.129  -0.377  -2.056  1.00  7.22           C\n"
        "ATOM    214  C   ASP A  32       7.925   0.707  -2.762  1.00  6.99           C\n"
        "ATOM    215  O   ASP A  32       7.476   1.297  -3.757  1.00  6.66           O\n"
        "ATOM    216  CB  ASP A  32       5.716   0.132  -1.849  1.00  8.00           C\n"
        "ATOM    217  CG  ASP A  32       5.553   1.400  -0.990  1.00  8.35           C\n"
        "ATOM    218  OD1 ASP A  32       6.506   1.891  -0.359  1.00  6.51           O\n"
        "ATOM    219  OD2 ASP A  32       4.424   1.888  -0.951  1.00 10.68           O\n";
    char path[512];
    snprintf(path, sizeof path, "%s/test_prepare_lyn.pdb", VSG_BINARY_DIR);
    vsg_prep_options o;
    vsg_prep_options_default(&o);
    o.ph = 11;
    static atom a[64];
    char *text = NULL;
    vsg_prep_summary s;
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f)
        return;
    fputs(lys, f);
    fclose(f);
    CHECK(vsg_receptor_prepare(path, &o, &text, &s) == VSG_OK);
    int n = text ? parse(text, a, 64, 0) : 0;
    const atom *ce = find(a, n, 31, "CE"), *nz = find(a, n, 31, "NZ"), *h1 = find(a, n, 31, "HZ1");
    CHECK(s.lys_lyn == 1 && ce && nz && h1 && !find(a, n, 31, "HZ3"));
    if (!ce || !nz || !h1) {
        free(text);
        vsg_prep_summary_free(&s);
        return;
    }
    /* the O: HZ1's direction turned 60° about CE→NZ, at the tetrahedral angle, 2.9 Å from NZ */
    double u[3], v[3], w[3], o1[3];
    for (int e = 0; e < 3; e++)
        u[e] = nz->x[e] - ce->x[e], v[e] = h1->x[e] - nz->x[e];
    unitv(u);
    unitv(v);
    rotate(u, v, 60 * 3.14159265358979323846 / 180, w);
    for (int e = 0; e < 3; e++)
        o1[e] = nz->x[e] + 2.9 * w[e];
    double before = 1e9;
    for (int k = 1; k <= 2; k++) {
        const atom *h = find(a, n, 31, k == 1 ? "HZ1" : "HZ2");
        double d = h ? dist(h->x, o1) : 0;
        before = d < before ? d : before;
    }
    free(text);
    vsg_prep_summary_free(&s);
    double side[3] = {u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]};
    unitv(side);
    f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f)
        return;
    fputs(lys, f);
    write_acetate(f, 1, o1, w, side);
    fputs("END\n", f);
    fclose(f);
    CHECK(vsg_receptor_prepare(path, &o, &text, &s) == VSG_OK);
    n = text ? parse(text, a, 64, 0) : 0;
    double after = 1e9;
    for (int k = 1; k <= 2; k++) {
        const atom *h = find(a, n, 31, k == 1 ? "HZ1" : "HZ2");
        double d = h ? dist(h->x, o1) : 1e9;
        after = d < after ? d : after;
    }
    printf("LYN: nearest HZ to the acetate O %.2f A turned (%.2f A where the template puts them)\n", after, before);
    CHECK(before >= 2.3);
    CHECK(after < 2.1);
    free(text);
    vsg_prep_summary_free(&s);
}

int main(void)
{
    test_lyn();
    char path[512];
    snprintf(path, sizeof path, "%s/test_prepare_hbonds.pdb", VSG_BINARY_DIR);
    FILE *f = fopen(path, "w");
    if (!f) {
        printf("cannot write %s\n", path);
        return 1;
    }
    fputs(tripeptide, f);
    /* the acetate's O 2.7 Å from OG, on the tetrahedral cone of CB–OG–H, where it is farthest
       from the peptide */
    double cb[3] = {4.681, -0.605, 2.163}, og[3] = {5.872, 0.192, 2.204}, u[3], p[3] = {0, 0, 1}, best[3] = {0};
    for (int e = 0; e < 3; e++)
        u[e] = og[e] - cb[e];
    unitv(u);
    double up = p[0] * u[0] + p[1] * u[1] + p[2] * u[2], clear = 0;
    for (int e = 0; e < 3; e++)
        p[e] -= up * u[e];
    unitv(p);
    atom pep[18];
    int npep = parse(tripeptide, pep, 18, 1);
    for (int k = 0; k < 12; k++) {
        double side[3], d[3], acc[3], far[3], m = 1e9;
        rotate(u, p, k * 3.14159265358979323846 / 6, side);
        double t = 70.5 * 3.14159265358979323846 / 180;
        for (int e = 0; e < 3; e++) {
            d[e] = cos(t) * u[e] + sin(t) * side[e];
            acc[e] = og[e] + 2.7 * d[e], far[e] = og[e] + 4.5 * d[e];
        }
        for (int i = 0; i < npep; i++)
            if (strcmp(pep[i].name, "OG") != 0) {
                double r = dist(pep[i].x, acc) < dist(pep[i].x, far) ? dist(pep[i].x, acc) : dist(pep[i].x, far);
                m = r < m ? r : m;
            }
        if (m > clear)
            clear = m, memcpy(best, d, sizeof best);
    }
    double serO[3], side0[3] = {u[1] * best[2] - u[2] * best[1], u[2] * best[0] - u[0] * best[2],
                                u[0] * best[1] - u[1] * best[0]};
    unitv(side0);
    for (int e = 0; e < 3; e++)
        serO[e] = og[e] + 2.7 * best[e];
    printf("acetate O at %.2f A from the nearest other peptide atom\n", clear);
    CHECK(clear > 2.6);
    write_acetate(f, 1, serO, best, side0);
    /* a water 25 Å away between two acetates, their O 2.8 Å from it, 105° apart */
    double w[3] = {30, 0, 0}, a1[3] = {1, 0, 0}, a2[3], z[3] = {0, 0, 1}, o1[3], o2[3];
    double t105 = 105 * 3.14159265358979323846 / 180;
    a2[0] = cos(t105), a2[1] = sin(t105), a2[2] = 0;
    for (int e = 0; e < 3; e++)
        o1[e] = w[e] + 2.8 * a1[e], o2[e] = w[e] + 2.8 * a2[e];
    write_acetate(f, 2, o1, a1, z);
    write_acetate(f, 3, o2, a2, z);
    fprintf(f, "HETATM  200  O   HOH C  50    %8.3f%8.3f%8.3f  1.00 10.00           O\nEND\n", w[0], w[1], w[2]);
    fclose(f);

    vsg_prep_options o;
    vsg_prep_options_default(&o);
    vsg_prep_summary s, s0;
    char *text = NULL, *text0 = NULL;
    CHECK(vsg_receptor_prepare(path, &o, &text0, &s0) == VSG_OK);
    o.keep_waters = 1;
    CHECK(vsg_receptor_prepare(path, &o, &text, &s) == VSG_OK);
    if (!text || !text0)
        CHECK_EXIT();
    printf("%s", s.report);
    CHECK_CONTAINS(s.report, "1 waters kept (hydrogens added");
    CHECK_NEAR(s.total_charge, s0.total_charge, 1e-6); /* the water is neutral */
    static atom a[256];
    int n = parse(text, a, 256, 0);
    const atom *hg = find(a, n, 14, "HG"), *ow = find(a, n, 50, "O");
    const atom *h1 = find(a, n, 50, "H1"), *h2 = find(a, n, 50, "H2");
    CHECK(hg && ow && h1 && h2);
    if (!hg || !ow || !h1 || !h2)
        CHECK_EXIT();
    printf("Ser HG...O(acetate) %.3f A; water H1...O %.3f / %.3f, H2...O %.3f / %.3f A\n", dist(hg->x, serO),
           dist(h1->x, o1), dist(h1->x, o2), dist(h2->x, o1), dist(h2->x, o2));
    CHECK(dist(hg->x, serO) < 2.2);
    double near1 = fmin(dist(h1->x, o1), dist(h1->x, o2)), near2 = fmin(dist(h2->x, o1), dist(h2->x, o2));
    CHECK(near1 < 2.2 && near2 < 2.2);
    CHECK((dist(h1->x, o1) < 2.2) != (dist(h2->x, o1) < 2.2)); /* one H to each acceptor */
    CHECK_NEAR(dist(ow->x, h1->x), 0.9572, 2e-3);
    CHECK_NEAR(dist(ow->x, h2->x), 0.9572, 2e-3);
    CHECK_NEAR(angle(h1->x, ow->x, h2->x), 104.52, 0.3);
    CHECK_NEAR(ow->q, -0.834, 1e-6);
    CHECK_NEAR(h1->q, 0.417, 1e-6);
    CHECK_NEAR(h2->q, 0.417, 1e-6);

    /* the step alone on these atoms, every group turned away first */
    job j;
    load_job(&j, a, n);
    int iog = index_of(n, 14, "SER", "OG", a), ihg = index_of(n, 14, "SER", "HG", a);
    int icb = index_of(n, 14, "SER", "CB", a), in = index_of(n, 13, "LEU", "N", a);
    int ica = index_of(n, 13, "LEU", "CA", a), iw = index_of(n, 50, "HOH", "O", a);
    CHECK(iog >= 0 && ihg >= 0 && icb >= 0 && in >= 0 && ica >= 0 && iw >= 0);
    if (iog < 0 || ihg < 0 || icb < 0 || in < 0 || ica < 0 || iw < 0)
        CHECK_EXIT();
    struct {
        int axis, d, h;
    } bonds[5] = {{icb, iog, ihg}, {ica, in, -1}, {ica, in, -1}, {ica, in, -1}, {iw + 2, iw, iw + 1}};
    int nterm_h[3] = {index_of(n, 13, "LEU", "H", a), index_of(n, 13, "LEU", "H2", a),
                      index_of(n, 13, "LEU", "H3", a)};
    for (int k = 0; k < 3; k++)
        bonds[1 + k].h = nterm_h[k];
    CHECK(nterm_h[0] >= 0 && nterm_h[1] >= 0 && nterm_h[2] >= 0);
    double len0[5], ang0[5], hoh0 = angle(j.out[iw + 1].x, j.out[iw].x, j.out[iw + 2].x);
    double turn[4] = {150, 40, 40, 40};
    for (int k = 0; k < 4; k++) {
        double ax[3], v[3], r[3];
        for (int e = 0; e < 3; e++) {
            ax[e] = j.out[bonds[k].d].x[e] - j.out[bonds[k].axis].x[e];
            v[e] = j.out[bonds[k].h].x[e] - j.out[bonds[k].d].x[e];
        }
        unitv(ax);
        rotate(ax, v, turn[k] * 3.14159265358979323846 / 180, r);
        for (int e = 0; e < 3; e++)
            j.out[bonds[k].h].x[e] = j.out[bonds[k].d].x[e] + r[e];
    }
    /* the water turned 90° about z */
    for (int k = 1; k <= 2; k++) {
        double v[3], r[3];
        for (int e = 0; e < 3; e++)
            v[e] = j.out[iw + k].x[e] - j.out[iw].x[e];
        rotate(z, v, 3.14159265358979323846 / 2, r);
        for (int e = 0; e < 3; e++)
            j.out[iw + k].x[e] = j.out[iw].x[e] + r[e];
    }
    for (int k = 0; k < 5; k++) {
        len0[k] = dist(j.out[bonds[k].d].x, j.out[bonds[k].h].x);
        ang0[k] = angle(j.out[bonds[k].axis].x, j.out[bonds[k].d].x, j.out[bonds[k].h].x);
    }
    CHECK(dist(j.out[ihg].x, serO) > 2.5);
    CHECK(prep_polar_hydrogens(&j) == VSG_OK);
    double worst = 0;
    for (int k = 0; k < 5; k++) {
        double dl = fabs(dist(j.out[bonds[k].d].x, j.out[bonds[k].h].x) - len0[k]);
        double da = fabs(angle(j.out[bonds[k].axis].x, j.out[bonds[k].d].x, j.out[bonds[k].h].x) - ang0[k]);
        worst = k < 4 ? fmax(worst, fmax(dl, da)) : worst;
        if (k < 4) { /* the water: rebuilt in TIP3P's geometry, checked below */
            CHECK(dl < 1e-6);
            CHECK(da < 1e-6);
        }
    }
    CHECK_NEAR(angle(j.out[iw + 1].x, j.out[iw].x, j.out[iw + 2].x), hoh0, 0.3);
    CHECK_NEAR(dist(j.out[iw].x, j.out[iw + 1].x), 0.9572, 1e-9);
    CHECK_NEAR(angle(j.out[iw + 1].x, j.out[iw].x, j.out[iw + 2].x), 104.52, 1e-6);
    printf("the step alone: worst change of a bond length or angle %.2e; Ser HG...O %.3f A; water H...O %.3f, %.3f A\n",
           worst, dist(j.out[ihg].x, serO), fmin(dist(j.out[iw + 1].x, o1), dist(j.out[iw + 1].x, o2)),
           fmin(dist(j.out[iw + 2].x, o1), dist(j.out[iw + 2].x, o2)));
    CHECK(dist(j.out[ihg].x, serO) < 2.2);
    CHECK(fmin(dist(j.out[iw + 1].x, o1), dist(j.out[iw + 1].x, o2)) < 2.2);
    CHECK(fmin(dist(j.out[iw + 2].x, o1), dist(j.out[iw + 2].x, o2)) < 2.2);
    CHECK(j.notes.s && strstr(j.notes.s, "1 waters oriented"));
    free(j.out), free(j.res_of), free(j.m.r), free(j.notes.s);
    free(text), free(text0);
    vsg_prep_summary_free(&s), vsg_prep_summary_free(&s0);

    /* PARSE water charges; PDBQT types */
    o.ff = VSG_PREP_PARSE;
    CHECK(vsg_receptor_prepare(path, &o, &text, &s) == VSG_OK);
    if (text) {
        n = parse(text, a, 256, 0);
        ow = find(a, n, 50, "O"), h1 = find(a, n, 50, "H1");
        CHECK(ow && h1 && fabs(ow->q + 0.72) < 1e-6 && fabs(h1->q - 0.36) < 1e-6);
        free(text);
        vsg_prep_summary_free(&s);
    }
    o.ff = VSG_PREP_AMBER;
    o.format = VSG_PREP_PDBQT;
    if (!vsg_ligand_gasteiger_available())
        VSG_SKIP_PART("PDBQT water types", "no Open Babel in this build");
    else if (vsg_receptor_prepare(path, &o, &text, &s) == VSG_OK) {
        n = parse(text, a, 256, 1);
        ow = find(a, n, 50, "O"), h1 = find(a, n, 50, "H1"), h2 = find(a, n, 50, "H2");
        CHECK(ow && h1 && h2);
        if (ow && h1 && h2) {
            printf("PDBQT water: O %s %+.3f, H %s %+.3f\n", ow->type, ow->q, h1->type, h1->q);
            CHECK(!strcmp(ow->type, "OA") && !strcmp(h1->type, "HD") && !strcmp(h2->type, "HD"));
            CHECK(ow->q < -0.3 && h1->q > 0.15);
            CHECK_NEAR(ow->q + h1->q + h2->q, 0, 2e-3);
        }
        free(text);
        vsg_prep_summary_free(&s);
    } else
        CHECK(0);

    /* pdb2pqr's hydroxyl H on 1AJJ */
    const char *shared = shared_data_dir();
    char ajj[1100], ref[1100];
    if (shared) {
        snprintf(ajj, sizeof ajj, "%s/pqr/pdb2pqr/1AJJ.pdb", shared);
        snprintf(ref, sizeof ref, "%s/pqr/pdb2pqr/1AJJ_pH7_PARSE.pqr", shared);
    }
    FILE *rf = shared ? fopen(ref, "rb") : NULL;
    if (!rf) {
        VSG_SKIP_PART("1AJJ hydroxyl H against pdb2pqr", VSG_NO_SHARED);
        CHECK_EXIT();
    }
    static char reftext[1 << 17];
    size_t got = fread(reftext, 1, sizeof reftext - 1, rf);
    reftext[got] = 0;
    fclose(rf);
    vsg_prep_options_default(&o);
    o.ff = VSG_PREP_PARSE;
    CHECK(vsg_receptor_prepare(ajj, &o, &text, &s) == VSG_OK);
    if (!text)
        CHECK_EXIT();
    static atom mine[2048], theirs[2048];
    int nm = parse(text, mine, 2048, 0), nt = parse(reftext, theirs, 2048, 0), total = 0, close = 0;
    static const char *const groups[4][5] = {{"SER", "CA", "CB", "OG", "HG"}, {"THR", "CA", "CB", "OG1", "HG1"},
                                             {"TYR", "CE1", "CZ", "OH", "HH"}, {"CYS", "CA", "CB", "SG", "HG"}};
    for (int i = 0; i < nt; i++)
        for (int g = 0; g < 4; g++) {
            if (strcmp(theirs[i].resn, groups[g][0]) != 0 || strcmp(theirs[i].name, groups[g][4]) != 0)
                continue;
            const atom *t[4], *m[4];
            int ok = 1;
            for (int k = 0; k < 4; k++) {
                t[k] = find(theirs, nt, theirs[i].resseq, groups[g][1 + k]);
                m[k] = find(mine, nm, theirs[i].resseq, groups[g][1 + k]);
                ok &= t[k] && m[k];
            }
            if (!ok)
                continue;
            double dt = dihedral(t[0]->x, t[1]->x, t[2]->x, t[3]->x), dm = dihedral(m[0]->x, m[1]->x, m[2]->x, m[3]->x);
            double diff = fabs(fmod(dt - dm + 540, 360) - 180);
            total++;
            close += diff <= 30;
        }
    printf("1AJJ: %d of %d hydroxyl/thiol H within 30 deg of pdb2pqr's\n", close, total);
    CHECK(total == 5);
    CHECK(close >= 4);
    free(text);
    vsg_prep_summary_free(&s);
    CHECK_EXIT();
}
