/* test_coulomb.c — the Coulomb CPU twin against hand-computed sums (constant, 4r, Mehler–
 * Solmajer), AutoGrid's table semantics and clamps, and the AutoGrid file formats (.map,
 * .map.gz, .maps.fld/.xyz, .gpf) with malformed inputs.
 * The seed is fresh each run and printed; VSG_TEST_SEED=<n> repeats a run. */
#define _POSIX_C_SOURCE 200809L /* truncate, getpid */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "grids/formats/grid.h"
#include "grids/base/vsgrid.h"
#include "check.h"
#include "grids/receptor/molecule.h"
#include "testkit.h"


/* Mehler–Solmajer as published (Protein Eng. 4, 903), written out here independently. */
static double ms_eps(double r)
{
    double B = 78.4 + 8.5525;
    return -8.5525 + B / (1.0 + 7.7839 * exp(-0.003627 * B * r));
}

static vsg_molecule *random_molecule(int n, double lo, double hi)
{
    vsg_molecule *m = vsg_molecule_new("random", "pqr");
    for (int i = 0; m && i < n; i++) {
        vsg_atom a;
        memset(&a, 0, sizeof a);
        a.x = lo + (hi - lo) * urand();
        a.y = lo + (hi - lo) * urand();
        a.z = lo + (hi - lo) * urand();
        a.charge = urand() < 0.1 ? 0.0 : 2.0 * urand() - 1.0; /* some zero charges on purpose */
        a.radius = 1.5;
        if (vsg_molecule_push(m, &a) != VSG_OK) {
            vsg_molecule_free(m);
            return NULL;
        }
    }
    return m;
}

static vsg_molecule *one_atom(double x, double y, double z, double q)
{
    vsg_molecule *m = vsg_molecule_new("one", "pqr");
    vsg_atom a;
    memset(&a, 0, sizeof a);
    a.x = x, a.y = y, a.z = z, a.charge = q, a.radius = 1.0;
    if (m && vsg_molecule_push(m, &a) != VSG_OK) {
        vsg_molecule_free(m);
        return NULL;
    }
    return m;
}

/* Potential of m at p by the formula (no table), r clamped at rmin, optional cutoff;
 * *mag receives Σ|q f| (the scale of the rounding error of a float result). */
static double hand_sum(const vsg_molecule *m, const double p[3], vsg_dielectric_model model, double scale, double eps,
                       double rmin, double cutoff, double *mag)
{
    double e = 0.0, a = 0.0;
    for (size_t i = 0; i < m->n; i++) {
        double dx = m->atoms[i].x - p[0], dy = m->atoms[i].y - p[1], dz = m->atoms[i].z - p[2];
        double r = sqrt(dx * dx + dy * dy + dz * dz);
        if (cutoff > 0.0 && r > cutoff) continue;
        double rc = r < rmin ? rmin : r, f;
        if (model == VSG_DIEL_CONSTANT) f = scale / (eps * rc);
        else if (model == VSG_DIEL_DISTANCE_4R) f = scale / (4.0 * rc * rc);
        else f = scale / (rc * ms_eps(rc));
        e += m->atoms[i].charge * f;
        a += fabs(m->atoms[i].charge * f);
    }
    *mag = a;
    return e;
}

/* Random grids and charge sets: every node checked against the hand sum. */
static void test_against_hand_sums(void)
{
    const vsg_dielectric_model models[3] = {VSG_DIEL_CONSTANT, VSG_DIEL_DISTANCE_4R, VSG_DIEL_MEHLER_SOLMAJER};
    for (int trial = 0; trial < 6; trial++) {
        vsg_dielectric_model model = models[trial % 3];
        double eps = 1.0 + 79.0 * urand();
        vsg_coulomb_kernel k;
        CHECK_STATUS(vsg_coulomb_kernel_make(model, eps, 0, &k), VSG_OK);
        CHECK(k.table == NULL);
        CHECK_NEAR(k.scale, 332.0637, 1e-9);
        CHECK_NEAR(k.rmin, 0.5, 0);
        if (trial >= 3) k.cutoff = 4.0 + 4.0 * urand(); /* the cutoff path too */
        vsg_molecule *m = random_molecule(20 + (int)(60 * urand()), -6.0, 6.0);
        int n[3] = {5 + (int)(8 * urand()), 5 + (int)(8 * urand()), 5 + (int)(8 * urand())};
        double h = 0.3 + 0.7 * urand();
        double org[3] = {-3.0 - 2 * urand(), -3.0 - 2 * urand(), -3.0 - 2 * urand()}, sp[3] = {h, h, h};
        vsg_grid *g = vsg_grid_new(n, org, sp, "kcal/mol/e");
        CHECK(m && g);
        if (!m || !g) {
            vsg_molecule_free(m);
            vsg_grid_free(g);
            vsg_coulomb_kernel_free(&k);
            continue;
        }
        CHECK_STATUS(vsg_coulomb_cpu(m, &k, g), VSG_OK);
        int bad = 0;
        for (int kz = 0; kz < n[2]; kz++)
            for (int j = 0; j < n[1]; j++)
                for (int i = 0; i < n[0]; i++) {
                    double p[3] = {org[0] + i * h, org[1] + j * h, org[2] + kz * h}, mag;
                    double want = hand_sum(m, p, model, 332.0637, eps, 0.5, k.cutoff, &mag);
                    double got = g->data[i + (size_t)n[0] * (j + (size_t)n[1] * kz)];
                    if (!(fabs(got - want) <= 1e-6 * mag + 1e-7) && bad++ < 3)
                        CHECK_NEAR(got, want, 1e-6 * mag + 1e-7);
                }
        CHECK(bad == 0);
        vsg_grid_free(g);
        vsg_molecule_free(m);
        vsg_coulomb_kernel_free(&k);
    }
}

/* The Mehler–Solmajer values: the formula, and the table autogrid4 prints in its log. */
static void test_mehler_solmajer(void)
{
    vsg_coulomb_kernel k;
    CHECK_STATUS(vsg_coulomb_kernel_make(VSG_DIEL_MEHLER_SOLMAJER, 0.0, 1, &k), VSG_OK);
    CHECK(k.table != NULL);
    if (!k.table) return;
    CHECK(k.table_n == 16384);
    CHECK_NEAR(k.table_per_a, 100.0, 0);
    CHECK_NEAR(k.scale, 332.0 * 0.1406, 1e-12);
    CHECK_NEAR(k.rmin, 0.5, 0);
    CHECK_NEAR(k.cutoff, 0.0, 0);
    /* ε(d) as autogrid4 4.2.6 logs it ("d Dielectric", %9.2lf) */
    const double d[] = {0.0, 0.1, 0.5, 1.0, 2.0, 2.9, 4.0, 5.0};
    const double logged[] = {1.00, 1.63, 2.82, 4.47, 8.36, 12.56, 18.58, 24.78};
    for (int i = 0; i < 8; i++) {
        int idx = (int)lround(d[i] * 100);
        CHECK_NEAR(k.scale / k.table[idx], logged[i], 0.005 + 1e-12);
        if (idx > 0) CHECK_NEAR(k.scale / k.table[idx], ms_eps(idx / 100.0), 1e-12);
    }
    CHECK_NEAR(k.scale / k.table[k.table_n - 1], 78.4, 0.05); /* the solvent limit */
    vsg_coulomb_kernel_free(&k);
    CHECK(k.table == NULL);
    vsg_coulomb_kernel_free(&k); /* twice is harmless */

    /* analytic mode: one charge, f(r) = 332.0637 / (r ε(r)) at node distances */
    CHECK_STATUS(vsg_coulomb_kernel_make(VSG_DIEL_MEHLER_SOLMAJER, 0.0, 0, &k), VSG_OK);
    vsg_molecule *m = one_atom(0.0, 0.0, 0.0, 1.0);
    int n[3] = {9, 1, 1};
    double org[3] = {0, 0, 0}, sp[3] = {0.75, 0.75, 0.75};
    vsg_grid *g = vsg_grid_new(n, org, sp, "kcal/mol/e");
    CHECK(m && g);
    if (m && g) {
        CHECK_STATUS(vsg_coulomb_cpu(m, &k, g), VSG_OK);
        for (int i = 0; i < 9; i++) {
            double r = i * 0.75, rc = r < 0.5 ? 0.5 : r;
            CHECK_REL(g->data[i], 332.0637 / (rc * ms_eps(rc)), 1e-6);
        }
    }
    vsg_grid_free(g);
    vsg_molecule_free(m);
    vsg_coulomb_kernel_free(&k);
}

/* AutoGrid semantics: index from the unclamped distance, 1/r clamped at 0.5 Å, last entry
 * beyond 163.83 Å, ε = 1 at index 0, zero charges skipped. */
static void test_table_semantics(void)
{
    vsg_coulomb_kernel k;
    CHECK_STATUS(vsg_coulomb_kernel_make(VSG_DIEL_MEHLER_SOLMAJER, 0.0, 1, &k), VSG_OK);
    if (!k.table) return;
    const double rs[] = {0.0, 0.004, 0.3, 0.499, 0.5, 0.57, 1.2345, 37.0, 163.835, 250.0};
    for (int t = 0; t < 10; t++) {
        double r = rs[t];
        double q = -0.37;
        vsg_molecule *m = one_atom(1.0 + r, -2.0, 3.0, q);
        int n[3] = {1, 1, 1};
        double org[3] = {1.0, -2.0, 3.0}, sp[3] = {0.375, 0.375, 0.375};
        vsg_grid *g = vsg_grid_new(n, org, sp, "kcal/mol/e");
        CHECK(m && g);
        if (m && g) {
            CHECK_STATUS(vsg_coulomb_cpu(m, &k, g), VSG_OK);
            double rr = (1.0 + r) - 1.0; /* the distance the kernel sees */
            int idx = (int)(rr * 100.0);
            if (idx > 16383) idx = 16383;
            double want = q * k.table[idx] / (rr < 0.5 ? 0.5 : rr);
            CHECK_REL(g->data[0], want, 1e-6);
            /* inside the clamp the ε index still moves with r (AutoGrid), unlike ε(0.5) */
            if (r > 0.05 && r < 0.45) CHECK(fabs(g->data[0] - q * k.table[50] / 0.5) > 0.05);
        }
        vsg_grid_free(g);
        vsg_molecule_free(m);
    }
    /* on top of an atom: q · 332 · 0.1406 / 0.5 (ε(0) = 1) */
    vsg_molecule *m = one_atom(0.25, 0.25, 0.25, 1.0);
    int n[3] = {3, 3, 3};
    double org[3] = {-0.125, -0.125, -0.125}, sp[3] = {0.375, 0.375, 0.375};
    vsg_grid *g = vsg_grid_new(n, org, sp, "kcal/mol/e");
    if (m && g) {
        CHECK_STATUS(vsg_coulomb_cpu(m, &k, g), VSG_OK);
        CHECK_REL(g->data[1 + 3 * (1 + 3 * 1)], 332.0 * 0.1406 / 0.5, 1e-6);
        /* a zero charge adds nothing, even on a node */
        vsg_atom a;
        memset(&a, 0, sizeof a);
        a.x = org[0], a.y = org[1], a.z = org[2];
        float before = g->data[0];
        CHECK_STATUS(vsg_molecule_push(m, &a), VSG_OK);
        CHECK_STATUS(vsg_coulomb_cpu(m, &k, g), VSG_OK);
        CHECK(g->data[0] == before);
    }
    vsg_grid_free(g);
    vsg_molecule_free(m);
    vsg_coulomb_kernel_free(&k);

    /* constant dielectric in AutoGrid mode: 0 → 40, no table, same clamp */
    CHECK_STATUS(vsg_coulomb_kernel_make(VSG_DIEL_CONSTANT, 0.0, 1, &k), VSG_OK);
    CHECK_NEAR(k.eps, 40.0, 0);
    CHECK(k.table == NULL);
    CHECK_NEAR(k.scale, 332.0 * 0.1406, 1e-12);
    vsg_coulomb_kernel_free(&k);
    CHECK_STATUS(vsg_coulomb_kernel_make(VSG_DIEL_CONSTANT, 0.0, 0, &k), VSG_E_ARG);
    CHECK_STATUS(vsg_coulomb_kernel_make(VSG_DIEL_CONSTANT, -2.0, 1, &k), VSG_E_ARG);
    CHECK_STATUS(vsg_coulomb_kernel_make(VSG_DIEL_CONSTANT, NAN, 0, &k), VSG_E_ARG);
    CHECK_STATUS(vsg_coulomb_kernel_make((vsg_dielectric_model)7, 1.0, 0, &k), VSG_E_ARG);
    CHECK_STATUS(vsg_coulomb_kernel_make(VSG_DIEL_DISTANCE_4R, 0.0, 1, &k), VSG_OK);
    CHECK(k.table == NULL);
    vsg_coulomb_kernel_free(&k);
    CHECK_STATUS(vsg_coulomb_cpu(NULL, &k, NULL), VSG_E_ARG);
}

/* Ties: an atom on a node sits at a lattice distance from the others, and some lattice distances
 * land exactly on a table-bin edge (0.55·√121 = 6.05 Å, bin 605). Which bin is picked then
 * depends on how r² is associated; AutoGrid's hypotenuse() forms (dx² + dy²) + dz², and the
 * twins must too (dx² + (dy² + dz²) rounds to 604.99999999999994 for some of these). */
static void test_table_ties(void)
{
    vsg_coulomb_kernel k;
    CHECK_STATUS(vsg_coulomb_kernel_make(VSG_DIEL_MEHLER_SOLMAJER, 0.0, 1, &k), VSG_OK);
    if (!k.table) return;
    const int n[3] = {21, 21, 21};
    const double h = 0.55, org[3] = {1.234, 1.234, 1.234}, sp[3] = {h, h, h};
    const double half = 10.0, centre = org[0] + 0.5 * (n[0] - 1) * h, p = (10 - half) * h;
    int ties = 0;
    for (int a = 0; a < 21 && ties < 4; a++)
        for (int b = 0; b < 21 && ties < 4; b++)
            for (int c = 0; c < 21 && ties < 4; c++) {
                const double dx = ((org[0] + a * h) - centre) - p, dy = ((org[1] + b * h) - centre) - p,
                             dz = ((org[2] + c * h) - centre) - p;
                const double r_ag = sqrt(dx * dx + dy * dy + dz * dz), r_other = sqrt(dx * dx + (dy * dy + dz * dz));
                if ((int)(r_ag * 100.0) == (int)(r_other * 100.0)) continue;
                ties++;
                vsg_molecule *m = one_atom(org[0] + a * h, org[1] + b * h, org[2] + c * h, 1.0);
                vsg_grid *g = vsg_grid_new(n, org, sp, "kcal/mol/e");
                CHECK(m && g);
                if (m && g) {
                    CHECK_STATUS(vsg_coulomb_cpu(m, &k, g), VSG_OK);
                    const float got = g->data[10 + 21 * (10 + 21 * 10)];
                    const float want = (float)(k.table[(int)(r_ag * 100.0)] / r_ag);
                    if (got != want)
                        fprintf(stderr, "tie at node offset (%d, %d, %d): %.9g, AutoGrid's bin gives %.9g\n", a - 10,
                                b - 10, c - 10, got, want);
                    CHECK(got == want);
                }
                vsg_grid_free(g);
                vsg_molecule_free(m);
            }
    CHECK(ties == 4); /* the lattice has such ties: the test is not vacuous */
    vsg_coulomb_kernel_free(&k);
}

/* ---- AutoGrid files ------------------------------------------------------------------ */

static int write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f) return 0;
    fputs(text, f);
    return fclose(f) == 0;
}

static int line_of(const char *path, int want, char *buf, size_t len)
{
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    int ln = 0, ok = 0;
    while (fgets(buf, (int)len, f))
        if (++ln == want) {
            buf[strcspn(buf, "\n")] = '\0';
            ok = 1;
            break;
        }
    fclose(f);
    return ok;
}

static void test_map_round_trip(void)
{
    int n[3] = {5, 7, 3};
    double h = 0.375, c[3] = {10.734, 2.033, -11.537};
    double org[3] = {c[0] - 2 * h, c[1] - 3 * h, c[2] - 1 * h}, sp[3] = {h, h, h};
    vsg_grid *g = vsg_grid_new(n, org, sp, "kcal/mol/e");
    CHECK(g != NULL);
    if (!g) return;
    size_t nn = vsg_grid_nodes(g);
    for (size_t i = 0; i < nn; i++) g->data[i] = (float)((urand() - 0.5) * pow(10.0, (int)(urand() * 5) - 2));
    g->data[0] = 0.00004f;   /* |v| < 1e-4: "0." */
    g->data[1] = -0.0003f;   /* rounds to "0.000" (floor(x + 0.5)), not "-0.000" */
    g->data[2] = 12.3456f;
    g->data[3] = -7.0f;
    const char *path = scratch_path("cl_rt.e.map");
    vsg_autogrid_header hd = {"x.gpf", "x.maps.fld", "rec.pdbqt"};
    CHECK_STATUS(vsg_autogrid_map_write(g, path, &hd), VSG_OK);
    char line[256];
    CHECK(line_of(path, 1, line, sizeof line) && !strcmp(line, "GRID_PARAMETER_FILE x.gpf"));
    CHECK(line_of(path, 2, line, sizeof line) && !strcmp(line, "GRID_DATA_FILE x.maps.fld"));
    CHECK(line_of(path, 3, line, sizeof line) && !strcmp(line, "MACROMOLECULE rec.pdbqt"));
    CHECK(line_of(path, 4, line, sizeof line) && !strcmp(line, "SPACING 0.375"));
    CHECK(line_of(path, 5, line, sizeof line) && !strcmp(line, "NELEMENTS 4 6 2"));
    CHECK(line_of(path, 6, line, sizeof line) && !strcmp(line, "CENTER 10.734 2.033 -11.537"));
    CHECK(line_of(path, 7, line, sizeof line) && !strcmp(line, "0."));
    CHECK(line_of(path, 8, line, sizeof line) && !strcmp(line, "0.000"));
    CHECK(line_of(path, 9, line, sizeof line) && !strcmp(line, "12.346"));
    CHECK(line_of(path, 10, line, sizeof line) && !strcmp(line, "-7.000"));
    vsg_grid *r = NULL;
    CHECK_STATUS(vsg_autogrid_map_read(path, &r), VSG_OK);
    if (r) {
        for (int d = 0; d < 3; d++) {
            CHECK(r->n[d] == n[d]);
            CHECK_NEAR(r->origin[d], org[d], 1e-9);
            CHECK_NEAR(r->spacing[d], h, 0);
        }
        CHECK(!strcmp(r->units, "kcal/mol/e"));
        for (size_t i = 0; i < nn; i++) CHECK_NEAR(r->data[i], g->data[i], 5.01e-4 + 1e-6 * fabs(g->data[i]));
        char buf[128];
        CHECK(vsg_grid_meta_get(r, "autogrid_macromolecule", buf, sizeof buf) && !strcmp(buf, "rec.pdbqt"));
        CHECK(vsg_grid_meta_get(r, "autogrid_fld", buf, sizeof buf) && !strcmp(buf, "x.maps.fld"));
    }
    vsg_grid_free(r);

    /* gzipped, not an e map → kcal/mol */
    const char *gzp = scratch_path("cl_rt.C.map.gz");
    {
        FILE *f = fopen(path, "rb");
        gzFile z = gzopen(gzp, "wb");
        char b[4096];
        size_t k;
        while (f && z && (k = fread(b, 1, sizeof b, f)) > 0) gzwrite(z, b, (unsigned)k);
        if (f) fclose(f);
        if (z) gzclose(z);
    }
    r = NULL;
    CHECK_STATUS(vsg_autogrid_map_read(gzp, &r), VSG_OK);
    if (r) {
        CHECK(!strcmp(r->units, "kcal/mol"));
        CHECK(vsg_grid_nodes(r) == nn);
        CHECK_NEAR(r->data[2], 12.346, 1e-5);
    }
    vsg_grid_free(r);

    /* writer refuses what AutoGrid cannot express */
    int ne[3] = {4, 5, 5};
    vsg_grid *even = vsg_grid_new(ne, org, sp, "kcal/mol/e");
    if (even) {
        memset(even->data, 0, vsg_grid_nodes(even) * sizeof(float));
        CHECK_STATUS(vsg_autogrid_map_write(even, scratch_path("cl_even.map"), NULL), VSG_E_ARG);
    }
    vsg_grid_free(even);
    double sp2[3] = {0.375, 0.5, 0.375};
    vsg_grid *aniso = vsg_grid_new(n, org, sp2, "kcal/mol/e");
    if (aniso) {
        memset(aniso->data, 0, vsg_grid_nodes(aniso) * sizeof(float));
        CHECK_STATUS(vsg_autogrid_map_write(aniso, scratch_path("cl_aniso.map"), NULL), VSG_E_ARG);
    }
    vsg_grid_free(aniso);
    g->data[5] = NAN;
    CHECK_STATUS(vsg_autogrid_map_write(g, scratch_path("cl_nan.map"), NULL), VSG_E_DATA);
    CHECK_STATUS(vsg_autogrid_map_write(g, scratch_path("cl_nan.map.gz"), NULL), VSG_E_ARG);
    vsg_grid_free(g);
}

/* Each malformed map must fail with VSG_E_FORMAT and name file:line. */
static void test_map_malformed(void)
{
    static const char hdr[] = "GRID_PARAMETER_FILE a.gpf\nGRID_DATA_FILE a.maps.fld\nMACROMOLECULE a.pdbqt\n"
                              "SPACING 0.5\nNELEMENTS 2 2 2\nCENTER 0 0 0\n";
    char good[4096], text[8192];
    strcpy(good, hdr);
    for (int i = 0; i < 27; i++) strcat(good, i % 2 ? "1.5\n" : "-0.25\n");
    const char *p = scratch_path("cl_bad.e.map");
    vsg_grid *g = NULL;
    CHECK(write_text(p, good));
    CHECK_STATUS(vsg_autogrid_map_read(p, &g), VSG_OK);
    vsg_grid_free(g);
    struct { const char *what, *from, *to, *where; } cases[] = {
        {"bad number", "1.5\n-0.25\n1.5\n", "1.5\nabc\n1.5\n", "cl_bad.e.map:9"},
        {"nan", "1.5\n-0.25\n1.5\n", "1.5\nnan\n1.5\n", "cl_bad.e.map:9"},
        {"two values", "1.5\n-0.25\n1.5\n", "1.5\n1 2\n1.5\n", "cl_bad.e.map:9"},
        {"odd nelements", "NELEMENTS 2 2 2", "NELEMENTS 2 3 2", "cl_bad.e.map:5"},
        {"negative nelements", "NELEMENTS 2 2 2", "NELEMENTS 2 -2 2", "cl_bad.e.map:5"},
        {"bad spacing", "SPACING 0.5", "SPACING 0", "cl_bad.e.map:4"},
        {"bad center", "CENTER 0 0 0", "CENTER 0 x 0", "cl_bad.e.map:6"},
        {"junk header", "MACROMOLECULE a.pdbqt", "HELLO world", "cl_bad.e.map:3"},
        {"no spacing", "SPACING 0.5\n", "", "cl_bad.e.map:6"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        char *at = strstr(good, cases[c].from);
        CHECK(at != NULL);
        if (!at) continue;
        snprintf(text, sizeof text, "%.*s%s%s", (int)(at - good), good, cases[c].to, at + strlen(cases[c].from));
        CHECK(write_text(p, text));
        g = NULL;
        vsg_status st = vsg_autogrid_map_read(p, &g);
        if (st != VSG_E_FORMAT) fprintf(stderr, "case '%s'\n", cases[c].what);
        CHECK_STATUS(st, VSG_E_FORMAT);
        CHECK_CONTAINS(vsg_last_error(), cases[c].where);
        CHECK(g == NULL);
        vsg_grid_free(g);
    }
    /* truncated and overlong data, empty file, missing file, truncated gzip */
    size_t glen = strlen(good);
    snprintf(text, sizeof text, "%.*s", (int)(glen - 6), good); /* drops the last value, "-0.25\n" */
    CHECK(write_text(p, text));
    CHECK_STATUS(vsg_autogrid_map_read(p, &g), VSG_E_FORMAT);
    CHECK_CONTAINS(vsg_last_error(), "26 of 27");
    snprintf(text, sizeof text, "%s2.0\n", good);
    CHECK(write_text(p, text));
    CHECK_STATUS(vsg_autogrid_map_read(p, &g), VSG_E_FORMAT);
    CHECK_CONTAINS(vsg_last_error(), "cl_bad.e.map:34");
    snprintf(text, sizeof text, "%s\n\n", good); /* trailing blank lines are fine */
    CHECK(write_text(p, text));
    g = NULL;
    CHECK_STATUS(vsg_autogrid_map_read(p, &g), VSG_OK);
    vsg_grid_free(g);
    snprintf(text, sizeof text, "%.*s\n-0.25\n", (int)(glen - 6), good); /* a blank line inside the data */
    CHECK(write_text(p, text));
    CHECK_STATUS(vsg_autogrid_map_read(p, &g), VSG_E_FORMAT);
    CHECK(write_text(p, hdr));
    CHECK_STATUS(vsg_autogrid_map_read(p, &g), VSG_E_FORMAT);
    CHECK(write_text(p, ""));
    CHECK_STATUS(vsg_autogrid_map_read(p, &g), VSG_E_FORMAT);
    CHECK_STATUS(vsg_autogrid_map_read(scratch_path("cl_no_such.map"), &g), VSG_E_IO);
    const char *gzp = scratch_path("cl_trunc.e.map.gz");
    gzFile z = gzopen(gzp, "wb");
    if (z) {
        gzputs(z, good);
        gzclose(z);
    }
    FILE *f = fopen(gzp, "r+b");
    if (f) {
        fseek(f, 0, SEEK_END);
        long len = ftell(f);
        fclose(f);
        CHECK(truncate(gzp, len - 12) == 0);
    }
    CHECK_STATUS(vsg_autogrid_map_read(gzp, &g), VSG_E_FORMAT);
}

static void test_fld(void)
{
    vsg_fld f;
    memset(&f, 0, sizeof f);
    f.npts[0] = 24, f.npts[1] = 22, f.npts[2] = 32;
    f.spacing = 0.375;
    f.center[0] = 10.734, f.center[1] = 2.033, f.center[2] = -11.537;
    strcpy(f.macromolecule, "1stp_protein.pdbqt");
    strcpy(f.gpf, "1stp.gpf");
    const char *types[] = {"A", "OA", "e", "d"};
    for (int i = 0; i < 4; i++) {
        strcpy(f.maps[i].type, types[i]);
        snprintf(f.maps[i].file, sizeof f.maps[i].file, "rec.%s.map", types[i]);
    }
    f.n_maps = 4;
    const char *p = scratch_path("cl_rec.maps.fld");
    CHECK_STATUS(vsg_autogrid_fld_write(p, &f), VSG_OK);
    char line[256];
    CHECK(line_of(scratch_path("cl_rec.maps.xyz"), 1, line, sizeof line) && !strcmp(line, "6.234 15.234"));
    CHECK(line_of(scratch_path("cl_rec.maps.xyz"), 3, line, sizeof line) && !strcmp(line, "-17.537 -5.537"));
    CHECK(line_of(p, 14, line, sizeof line) && !strcmp(line, "dim1=25\t\t\t# number of x-elements"));
    CHECK(line_of(p, 18, line, sizeof line) && !strcmp(line, "veclen=4\t\t# number of affinity values at each point"));
    CHECK(line_of(p, 21, line, sizeof line) && !strcmp(line, "coord 1 file=cl_rec.maps.xyz filetype=ascii offset=0"));
    CHECK(line_of(p, 26, line, sizeof line) && !strcmp(line, "label=Electrostatics\t# component label for variable 3"));
    CHECK(line_of(p, 34, line, sizeof line) && !strcmp(line, "variable 4 file=rec.d.map filetype=ascii skip=6"));
    vsg_fld r;
    CHECK_STATUS(vsg_autogrid_fld_read(p, &r), VSG_OK);
    CHECK(r.n_maps == 4);
    for (int i = 0; i < 4 && i < r.n_maps; i++) {
        CHECK(!strcmp(r.maps[i].type, types[i]));
        CHECK(!strcmp(r.maps[i].file, f.maps[i].file));
    }
    for (int d = 0; d < 3; d++) {
        CHECK(r.npts[d] == f.npts[d]);
        CHECK_NEAR(r.center[d], f.center[d], 1e-9);
    }
    CHECK_NEAR(r.spacing, 0.375, 0);
    CHECK(!strcmp(r.macromolecule, "1stp_protein.pdbqt"));
    CHECK(!strcmp(r.xyz, "cl_rec.maps.xyz"));
    CHECK_STATUS(vsg_autogrid_fld_write(scratch_path("cl_rec.maps"), &f), VSG_E_ARG);
    f.npts[1] = 23;
    CHECK_STATUS(vsg_autogrid_fld_write(p, &f), VSG_E_ARG);

    /* the fld that AutoDock-GPU ships with 1stp, when the shared data is there */
    const char *sd = shared_data_dir();
    if (sd) {
        char path[1200];
        snprintf(path, sizeof path, "%s/autodock_gpu/1stp/1stp_protein.maps.fld", sd);
        CHECK_STATUS(vsg_autogrid_fld_read(path, &r), VSG_OK);
        CHECK(r.n_maps == 8);
        CHECK(r.n_maps == 8 && !strcmp(r.maps[6].type, "e") && !strcmp(r.maps[6].file, "1stp_protein.e.map"));
        CHECK(r.n_maps == 8 && !strcmp(r.maps[5].type, "HD"));
        snprintf(path, sizeof path, "%s/autodock_gpu/1stp/1stp_protein.e.map", sd);
        vsg_grid *g = NULL;
        CHECK_STATUS(vsg_autogrid_map_read(path, &g), VSG_OK);
        if (g) {
            CHECK(g->n[0] == 25 && g->n[1] == 23 && g->n[2] == 33);
            CHECK_NEAR(g->origin[0], 6.234, 1e-9);
            CHECK_NEAR(g->data[0], 0.074, 1e-6);
        }
        vsg_grid_free(g);
    } else {
        VSG_SKIP_PART("AutoDock-GPU's 1stp .fld and .e.map", VSG_NO_SHARED);
    }

    /* malformed: labels and variables disagree, no geometry */
    const char *q = scratch_path("cl_bad.maps.fld");
    CHECK(write_text(q, "#SPACING 0.375\n#NELEMENTS 2 2 2\n#CENTER 0 0 0\nveclen=2\nlabel=A-affinity\n"
                        "label=Electrostatics\nvariable 1 file=a.A.map filetype=ascii skip=6\n"));
    CHECK_STATUS(vsg_autogrid_fld_read(q, &r), VSG_E_FORMAT);
    CHECK(write_text(q, "ndim=3\nlabel=A-affinity\nvariable 1 file=a.A.map\n"));
    CHECK_STATUS(vsg_autogrid_fld_read(q, &r), VSG_E_FORMAT);
    CHECK(write_text(q, "#SPACING 0.375\n#NELEMENTS 2 2 2\n#CENTER 0 0 0\ndim1=4\nlabel=A-affinity\n"
                        "variable 1 file=a.A.map\n"));
    CHECK_STATUS(vsg_autogrid_fld_read(q, &r), VSG_E_FORMAT);
    CHECK(write_text(q, "#SPACING 0.375\n#NELEMENTS 2 2 2\n#CENTER 0 0 0\nlabel=A-affinity\nvariable 2 file=a\n"));
    CHECK_STATUS(vsg_autogrid_fld_read(q, &r), VSG_E_FORMAT);
    CHECK_CONTAINS(vsg_last_error(), "cl_bad.maps.fld:5");
}

static int warnings_seen;
static void count_warning(const char *msg, void *user)
{
    (void)msg;
    (void)user;
    warnings_seen++;
}

static void test_gpf(void)
{
    const char *p = scratch_path("cl_a.gpf");
    CHECK(write_text(p, "npts 24 22 32                        # num.grid points in xyz\n"
                        "gridfld 1stp_protein.maps.fld        # grid_data_file\n"
                        "spacing 0.375                        # spacing(A)\n"
                        "receptor_types A C H HD N OA         # receptor atom types\n"
                        "receptor 1stp_protein.pdbqt          # macromolecule\n"
                        "gridcenter 10.734 2.033 -11.537      # xyz-coordinates or auto\n"
                        "\n# a comment line\n"
                        "elecmap 1stp_protein.e.map           # electrostatic potential map\n"
                        "dielectric -0.1465                   # <0, AD4 distance-dep.diel;>0, constant\n"));
    vsg_gpf g;
    CHECK_STATUS(vsg_gpf_read(p, &g), VSG_OK);
    CHECK(g.npts[0] == 24 && g.npts[1] == 22 && g.npts[2] == 32);
    CHECK_NEAR(g.spacing, 0.375, 0);
    CHECK(g.have_center && !g.center_auto);
    CHECK_NEAR(g.center[2], -11.537, 0);
    CHECK(!strcmp(g.receptor, "1stp_protein.pdbqt"));
    CHECK(!strcmp(g.gridfld, "1stp_protein.maps.fld"));
    CHECK(!strcmp(g.elecmap, "1stp_protein.e.map"));
    CHECK(g.have_dielectric && g.dielectric < 0.0);
    CHECK(!g.have_estat);

    /* auto centre, odd npts rounded down (with a warning), default spacing, parameter_file */
    CHECK(write_text(scratch_path("cl_par.dat"), "FE_coeff_vdW    0.1662\nFE_coeff_estat  0.2000\n"
                                                 "atom_par Si     4.10  0.200  35.8235  -0.00143  0.0  0.0  0  -1  -1  6\n"));
    CHECK(write_text(p, "parameter_file cl_par.dat\nnpts 21 20 19\ngridcenter auto\ndielectric 4\n"));
    warnings_seen = 0;
    vsg_set_warning_handler(count_warning, NULL);
    CHECK_STATUS(vsg_gpf_read(p, &g), VSG_OK);
    vsg_set_warning_handler(NULL, NULL);
    CHECK(warnings_seen == 2);
    CHECK(g.npts[0] == 20 && g.npts[1] == 20 && g.npts[2] == 18);
    CHECK(g.center_auto && !g.have_center);
    CHECK_NEAR(g.spacing, 0.375, 0);
    CHECK(g.have_estat);
    CHECK_NEAR(g.estat_coeff, 0.2, 0);
    CHECK_NEAR(g.dielectric, 4.0, 0);

    struct { const char *text, *where; vsg_status st; } bad[] = {
        {"npts 24 22\ngridcenter 0 0 0\n", "cl_a.gpf:1", VSG_E_FORMAT},
        {"npts 24 x 22\ngridcenter 0 0 0\n", "cl_a.gpf:1", VSG_E_FORMAT},
        {"npts 24 -2 22\ngridcenter 0 0 0\n", "cl_a.gpf:1", VSG_E_FORMAT},
        {"npts 2 2 2\nspacing 0\ngridcenter 0 0 0\n", "cl_a.gpf:2", VSG_E_FORMAT},
        {"npts 2 2 2\ngridcenter 0 0\n", "cl_a.gpf:2", VSG_E_FORMAT},
        {"npts 2 2 2\ngridcenter 1 2 z\n", "cl_a.gpf:2", VSG_E_FORMAT},
        {"npts 2 2 2\ngridcenter 0 0 0\ndielectric abc\n", "cl_a.gpf:3", VSG_E_FORMAT},
        {"gridcenter 0 0 0\n", "no npts", VSG_E_FORMAT},
        {"npts 2 2 2\n", "no gridcenter", VSG_E_FORMAT},
        {"npts 2 2 2\ngridcenter 0 0 0\nparameter_file cl_missing.dat\n", "cl_a.gpf:3", VSG_E_IO},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK(write_text(p, bad[i].text));
        CHECK_STATUS(vsg_gpf_read(p, &g), bad[i].st);
        CHECK_CONTAINS(vsg_last_error(), bad[i].where);
    }
    CHECK_STATUS(vsg_gpf_read(scratch_path("cl_none.gpf"), &g), VSG_E_IO);
}

int main(void)
{
    testkit_seed();
    /* relative paths in the gpf tests (parameter_file) resolve next to the gpf */
    test_against_hand_sums();
    test_mehler_solmajer();
    test_table_semantics();
    test_table_ties();
    test_map_round_trip();
    test_map_malformed();
    test_fld();
    test_gpf();
    CHECK_EXIT();
}
