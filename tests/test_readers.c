/* test_readers.c — molecule readers: PQR (both layouts), PDBQT, MOL2, PDB refusal, gzip,
 * the checks common to all formats, a malformed-input corpus, PQR output round trip, and
 * the strict number parser. Real files come from shared/data (skipped with a message when
 * absent); the rest are written here into the build directory.
 * Expected counts and charges were computed independently with awk on the files. */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

#include "check.h"
#include "grids/receptor/molecule.h"
#include "grids/base/textio.h"
#include "grids/base/vsgrid.h"

/* ---- helpers --------------------------------------------------------------------------- */

static char warn_text[1024];
static int warn_calls;

static void on_warning(const char *msg, void *user)
{
    (void)user;
    warn_calls++;
    snprintf(warn_text, sizeof warn_text, "%s", msg);
}

static const char *data_path(const char *rel)
{
    static char buf[8][1024];
    static int slot;
    const char *dir = shared_data_dir();
    if (!dir) return NULL;
    slot = (slot + 1) % 8;
    if ((size_t)snprintf(buf[slot], sizeof buf[slot], "%s/%s", dir, rel) >= sizeof buf[slot]) return NULL;
    return buf[slot];
}

static const char *scratch(const char *name)
{
    static char buf[8][1024];
    static int slot;
    slot = (slot + 1) % 8;
    if ((size_t)snprintf(buf[slot], sizeof buf[slot], "%s", scratch_path(name)) >= sizeof buf[slot])
        return NULL;
    return buf[slot];
}

static const char *write_text(const char *name, const char *text)
{
    const char *path = scratch(name);
    FILE *f = fopen(path, "wb");
    if (!f) {
        fprintf(stderr, "cannot write %s\n", path);
        check_failures++;
        return path;
    }
    fputs(text, f);
    fclose(f);
    return path;
}

static const char *write_gz(const char *name, const char *text)
{
    const char *path = scratch(name);
    gzFile g = gzopen(path, "wb9");
    if (!g) {
        fprintf(stderr, "cannot write %s\n", path);
        check_failures++;
        return path;
    }
    gzputs(g, text);
    gzclose(g);
    return path;
}

static long file_size(const char *path)
{
    long n;
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fclose(f);
    return n;
}

/* Keeps the first `keep` bytes of src in dst (a truncated download). */
static void copy_prefix(const char *src, const char *dst, long keep, long flip_at)
{
    FILE *in = fopen(src, "rb"), *out = fopen(dst, "wb");
    long i;
    int c;
    if (!in || !out) {
        check_failures++;
        if (in) fclose(in);
        if (out) fclose(out);
        return;
    }
    for (i = 0; i < keep && (c = fgetc(in)) != EOF; i++) fputc(i == flip_at ? c ^ 0x5a : c, out);
    fclose(in);
    fclose(out);
}

static vsg_molecule *read_ok(const char *path, const char *format)
{
    vsg_molecule *m = NULL;
    vsg_status st = vsg_molecule_read(path, format, &m);
    CHECK_STATUS(st, VSG_OK);
    if (st != VSG_OK) fprintf(stderr, "  reading %s\n", path);
    return m;
}

/* The read must fail with `status`, leave *out NULL and name what is wrong (`needle`). */
static void read_fails(const char *path, const char *format, vsg_status status, const char *needle)
{
    vsg_molecule *m = (vsg_molecule *)&m; /* must be reset to NULL */
    vsg_status st = vsg_molecule_read(path, format, &m);
    CHECK_STATUS(st, status);
    CHECK(m == NULL);
    CHECK_CONTAINS(vsg_last_error(), needle);
    if (st == VSG_OK) vsg_molecule_free(m);
}

static vsg_atom_info atom_at(const vsg_molecule *m, size_t i)
{
    vsg_atom_info a;
    memset(&a, 0, sizeof a);
    CHECK_STATUS(vsg_molecule_atom(m, i, &a), VSG_OK);
    return a;
}

/* ---- number parsing ------------------------------------------------------------------ */

static void test_numbers(void)
{
    static const char *bad[] = {"", "   ", "1.2.3", "1.0a0", "abc", "nan", "NaN", "inf", "-inf",
                                "Infinity", "0x10", "1e", "1e+", ".", "-", "+", "1,5", "1 2",
                                "1e999", "--1", "1d0"};
    double v;
    int k;
    size_t i;
    CHECK(vsg_parse_double("  1.5 ", 6, &v) && v == 1.5);
    CHECK(vsg_parse_double("-0.001", 6, &v) && v == -0.001);
    CHECK(vsg_parse_double("+.5", 3, &v) && v == 0.5);
    CHECK(vsg_parse_double("5.", 2, &v) && v == 5.0);
    CHECK(vsg_parse_double("1e3", 3, &v) && v == 1000.0);
    CHECK(vsg_parse_double("-1.25E-2", 8, &v) && v == -0.0125);
    CHECK(vsg_parse_double("12.345678901234567890", 21, &v) && v == 12.345678901234567890);
    CHECK(vsg_parse_double("-100.123-200.456", 8, &v) && v == -100.123); /* only len counts */
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        v = 42.0;
        if (vsg_parse_double(bad[i], strlen(bad[i]), &v)) {
            fprintf(stderr, "vsg_parse_double accepted '%s' as %g\n", bad[i], v);
            check_failures++;
        }
    }
    /* The fast path must agree with strtod to the last bit. */
    {
        unsigned long seed = 12345;
        int trial, mismatches = 0;
        for (trial = 0; trial < 200000; trial++) {
            char s[64];
            double a, b;
            unsigned long r1, r2;
            seed = seed * 6364136223846793005UL + 1442695040888963407UL;
            r1 = seed >> 33;
            seed = seed * 6364136223846793005UL + 1442695040888963407UL;
            r2 = seed >> 33;
            switch (trial % 4) {
            case 0: snprintf(s, sizeof s, "%ld.%03lu", (long)(r1 % 2000000) - 1000000, r2 % 1000); break;
            case 1: snprintf(s, sizeof s, "%.*f", (int)(r2 % 9), ((double)r1 - 1073741824.0) / 1e3); break;
            case 2: snprintf(s, sizeof s, "%lu%lue%d", r1, r2 % 100000, (int)(r2 % 60) - 30); break;
            default: snprintf(s, sizeof s, "%.17g", ((double)r1 / (double)(r2 + 1)) - 1.0); break;
            }
            a = strtod(s, NULL);
            if (!vsg_parse_double(s, strlen(s), &b) || a != b) {
                if (mismatches++ < 5) fprintf(stderr, "parse '%s': %.17g vs strtod %.17g\n", s, b, a);
            }
        }
        CHECK(mismatches == 0);
    }
    CHECK(vsg_parse_int(" 42 ", 4, &k) && k == 42);
    CHECK(vsg_parse_int("-7", 2, &k) && k == -7);
    CHECK(vsg_parse_int("2147483647", 10, &k) && k == 2147483647);
    CHECK(vsg_parse_int("-2147483648", 11, &k) && k == -2147483647 - 1);
    CHECK(!vsg_parse_int("2147483648", 10, &k));
    CHECK(!vsg_parse_int("1.0", 3, &k));
    CHECK(!vsg_parse_int("", 0, &k));
    CHECK(!vsg_parse_int("12a", 3, &k));
    CHECK(!vsg_parse_int("99999999999999999999", 20, &k));
}

static void test_radii(void)
{
    CHECK_NEAR(vsg_radius_for_ad_type("OA"), 1.60, 1e-12);
    CHECK_NEAR(vsg_radius_for_ad_type("HD"), 1.00, 1e-12);
    CHECK_NEAR(vsg_radius_for_ad_type("A"), 2.00, 1e-12);
    CHECK_NEAR(vsg_radius_for_ad_type("Cl"), 2.045, 1e-12);
    CHECK_NEAR(vsg_radius_for_ad_type("ZN"), 0.74, 1e-12);
    CHECK_NEAR(vsg_radius_for_ad_type("Br"), 2.165, 1e-12);
    CHECK(vsg_radius_for_ad_type("Xx") == 0.0);
    CHECK(vsg_radius_for_ad_type("") == 0.0);
    CHECK_NEAR(vsg_radius_for_element("C"), 1.70, 1e-12);
    CHECK_NEAR(vsg_radius_for_element("cl"), 1.75, 1e-12);
    CHECK_NEAR(vsg_radius_for_element("CL"), 1.75, 1e-12);
    CHECK_NEAR(vsg_radius_for_element("O"), 1.52, 1e-12);
    CHECK_NEAR(vsg_radius_for_element("I"), 1.98, 1e-12);
    CHECK(vsg_radius_for_element("Fe") > 0.0);
    CHECK(vsg_radius_for_element("Du") == 0.0);
    CHECK(vsg_radius_for_element("Lp") == 0.0);
    CHECK(vsg_radius_for_element("Xyz") == 0.0);
}

/* ---- synthetic files ------------------------------------------------------------------- */

/* Whitespace fields with chains, an insertion code, HETATM touching its serial, two MODELs,
 * CRLF line ends, TER/REMARK noise and text after END. */
static const char *pqr_whitespace =
    "REMARK   1 written by hand\r\n"
    "MODEL        1\r\n"
    "ATOM      1  N    MET A   1     -29.703   40.250  -18.688  0.1592 1.8240\r\n"
    "ATOM      2  CA   MET A  52A    -29.370   38.833  -19.030  0.0221 1.9080\r\n"
    "TER\r\n"
    "HETATM10661  H1   HOH B 356      -5.698   60.517  -29.614  0.4170 0.0000\r\n"
    "ENDMDL\r\n"
    "MODEL        2\r\n"
    "ATOM      1  N    MET A   1     -29.703   40.250  -18.688  0.1592 1.8240\r\n"
    "ENDMDL\r\n"
    "END\r\n"
    "this is not PQR and must not be read\r\n";

/* PDB fixed columns where the coordinates touch, 4-letter names, a chain merged into a
 * 4-digit residue number... */
static const char *pqr_fixed =
    "ATOM      1 HD21 ASN A  12    -100.123-200.456-300.789  0.4000 1.2000\n"
    "ATOM      2  CA  ASN A1000      10.000  20.000  30.000 -0.5000 1.9000\n"
    "ATOM      3  FE  HEM B 200      11.000  21.000  31.000  2.0000 1.3000\n"
    "ATOM      4 ZN    ZN C 301      12.000  22.000  32.000  2.0000 1.3900\n";

/* No chain, 8 decimals (APBS's bem examples). */
static const char *pqr_nochain =
    "ATOM  5 N      MET    1   -6.40600   5.46900  -3.25900 -0.30000 1.85000\n"
    "ATOM  6 HT1    MET    1   -7.16686   5.76716  -3.90227  0.33000 0.22450\n"
    "ATOM  7 CA     CA     2    1.00000   2.00000   3.00000  2.00000 1.00000\n";

static void test_synthetic_pqr(void)
{
    vsg_molecule *m;
    vsg_atom_info a;
    const char *path;
    uint32_t crc_plain;
    size_t warned;

    path = write_text("ws.pqr", pqr_whitespace);
    warned = vsg_warning_count();
    warn_calls = 0;
    m = read_ok(path, NULL);
    if (m) {
        CHECK(vsg_molecule_atom_count(m) == 4);
        a = atom_at(m, 0);
        CHECK(strcmp(a.name, "N") == 0 && strcmp(a.residue_name, "MET") == 0);
        CHECK(a.chain == 'A' && a.residue_number == 1 && a.insertion_code == ' ');
        CHECK(a.serial == 1 && a.model == 1 && a.line == 3);
        CHECK(strcmp(a.element, "N") == 0 && a.ad_type[0] == '\0');
        CHECK_NEAR(a.x, -29.703, 1e-12);
        CHECK_NEAR(a.y, 40.250, 1e-12);
        CHECK_NEAR(a.z, -18.688, 1e-12);
        CHECK_NEAR(a.charge, 0.1592, 1e-12);
        CHECK_NEAR(a.radius, 1.8240, 1e-12);
        a = atom_at(m, 1);
        CHECK(a.residue_number == 52 && a.insertion_code == 'A' && strcmp(a.element, "C") == 0);
        a = atom_at(m, 2);
        CHECK(a.serial == 10661 && strcmp(a.name, "H1") == 0 && strcmp(a.residue_name, "HOH") == 0);
        CHECK(a.chain == 'B' && a.residue_number == 356 && a.radius == 0.0 && a.line == 6);
        CHECK(strcmp(a.element, "H") == 0);
        a = atom_at(m, 3);
        CHECK(a.model == 2 && a.line == 9);
        CHECK_NEAR(vsg_molecule_net_charge(m), 0.1592 * 2 + 0.0221 + 0.4170, 1e-12);
        crc_plain = vsg_molecule_checksum(m);
        CHECK(crc_plain != 0);
        CHECK(strcmp(vsg_molecule_source(m), path) == 0);
        vsg_molecule_free(m);
        /* one warning summarising the hydrogens without radius */
        CHECK(vsg_warning_count() == warned + 1);
        CHECK(warn_calls == 1);
        CHECK_CONTAINS(warn_text, "1 hydrogen atom with radius 0");

        /* The same bytes gzip-compressed read identically (gzip detected by content). */
        m = read_ok(write_gz("ws.pqr.gz", pqr_whitespace), NULL);
        if (m) {
            CHECK(vsg_molecule_atom_count(m) == 4);
            CHECK(vsg_molecule_checksum(m) == crc_plain);
            vsg_molecule_free(m);
        }
        /* explicit format overrides the extension */
        m = read_ok(write_text("ws_pqr.txt", pqr_whitespace), "PQR");
        if (m) {
            CHECK(vsg_molecule_checksum(m) == crc_plain);
            vsg_molecule_free(m);
        }
    }

    m = read_ok(write_text("fixed.pqr", pqr_fixed), NULL);
    if (m) {
        CHECK(vsg_molecule_atom_count(m) == 4);
        a = atom_at(m, 0);
        CHECK(strcmp(a.name, "HD21") == 0 && strcmp(a.residue_name, "ASN") == 0 && a.chain == 'A');
        CHECK(a.residue_number == 12 && strcmp(a.element, "H") == 0);
        CHECK_NEAR(a.x, -100.123, 1e-12);
        CHECK_NEAR(a.y, -200.456, 1e-12);
        CHECK_NEAR(a.z, -300.789, 1e-12);
        CHECK_NEAR(a.charge, 0.4, 1e-12);
        CHECK_NEAR(a.radius, 1.2, 1e-12);
        a = atom_at(m, 1);
        CHECK(a.chain == 'A' && a.residue_number == 1000 && strcmp(a.element, "C") == 0);
        CHECK_NEAR(a.charge, -0.5, 1e-12);
        a = atom_at(m, 2);
        CHECK(strcmp(a.element, "Fe") == 0 && a.chain == 'B');
        a = atom_at(m, 3);
        CHECK(strcmp(a.element, "Zn") == 0 && a.residue_number == 301);
        vsg_molecule_free(m);
    }

    m = read_ok(write_text("nochain.pqr", pqr_nochain), NULL);
    if (m) {
        CHECK(vsg_molecule_atom_count(m) == 3);
        a = atom_at(m, 0);
        CHECK(a.serial == 5 && strcmp(a.name, "N") == 0 && strcmp(a.residue_name, "MET") == 0);
        CHECK(a.chain == ' ' && a.residue_number == 1);
        CHECK_NEAR(a.x, -6.406, 1e-12);
        CHECK_NEAR(a.charge, -0.3, 1e-12);
        CHECK_NEAR(a.radius, 1.85, 1e-12);
        a = atom_at(m, 1);
        CHECK_NEAR(a.radius, 0.2245, 1e-12);
        a = atom_at(m, 2);
        CHECK(strcmp(a.element, "Ca") == 0); /* calcium ion, not a C alpha */
        {
            double lo[3], hi[3];
            vsg_molecule_bounds(m, 0, lo, hi);
            CHECK_NEAR(lo[0], -7.16686, 1e-12);
            CHECK_NEAR(hi[2], 3.0, 1e-12);
            vsg_molecule_bounds(m, 1, lo, hi);
            CHECK_NEAR(lo[0], -6.406 - 1.85, 1e-12); /* the N's sphere reaches further */
            CHECK_NEAR(hi[2], 4.0, 1e-12);
            CHECK_NEAR(vsg_molecule_max_radius(m), 1.85, 1e-12);
        }
        CHECK_STATUS(vsg_molecule_atom(m, 3, &a), VSG_E_ARG);
        vsg_molecule_free(m);
    }
}

static void test_synthetic_other(void)
{
    vsg_molecule *m;
    vsg_atom_info a;
    static const char *pdbqt =
        "REMARK  Name = test\n"
        "ROOT\n"
        "HETATM    1  C11 BTN A 300       9.051   4.576 -14.459  1.00 21.57     0.172 C \n"
        "HETATM    2  O11 BTN A 300       8.147   5.373 -14.172  1.00 21.65    -0.648 OA\n"
        "ENDROOT\n"
        "BRANCH   1   3\n"
        "ATOM      3 CL1  BTN A 300B      8.697   3.498 -15.132  1.00 22.67    -0.100 Cl\n"
        "ATOM      4 ZN   ZN  A 301      10.697   3.498 -15.132  1.00 22.67     2.000 Zn\n"
        "ENDBRANCH   1   3\n"
        "TORSDOF 1\n";
    static const char *mol2 =
        "# comment\n"
        "@<TRIPOS>MOLECULE\n"
        "lig\n"
        " 3 2 0 0 0\n"
        "SMALL\n"
        "GASTEIGER\n"
        "\n"
        "@<TRIPOS>ATOM\n"
        "      1 C1          1.0000    2.0000    3.0000 C.ar    1  LIG1       -0.1000\n"
        "      2 CL1         2.0000    2.0000    3.0000 Cl      1  LIG1       -0.2000\n"
        "      3 H1          3.0000    2.0000    3.0000 H       2  <0>         0.3000\n"
        "@<TRIPOS>BOND\n"
        "     1     1     2    1\n"
        "@<TRIPOS>MOLECULE\n"
        "second\n"
        " 1 0 0 0 0\n"
        "SMALL\n"
        "GASTEIGER\n"
        "@<TRIPOS>ATOM\n"
        "      1 C1          9.0000    9.0000    9.0000 Du      1  LIG1       -0.1000\n";

    m = read_ok(write_text("small.pdbqt", pdbqt), NULL);
    if (m) {
        CHECK(vsg_molecule_atom_count(m) == 4);
        a = atom_at(m, 0);
        CHECK(strcmp(a.name, "C11") == 0 && strcmp(a.residue_name, "BTN") == 0 && a.chain == 'A');
        CHECK(a.residue_number == 300 && strcmp(a.ad_type, "C") == 0 && strcmp(a.element, "C") == 0);
        CHECK_NEAR(a.x, 9.051, 1e-12);
        CHECK_NEAR(a.z, -14.459, 1e-12);
        CHECK_NEAR(a.charge, 0.172, 1e-12);
        CHECK_NEAR(a.radius, 2.0, 1e-12);
        a = atom_at(m, 1);
        CHECK(strcmp(a.ad_type, "OA") == 0 && strcmp(a.element, "O") == 0);
        CHECK_NEAR(a.radius, 1.6, 1e-12);
        a = atom_at(m, 2);
        CHECK(strcmp(a.ad_type, "Cl") == 0 && strcmp(a.element, "Cl") == 0 && a.insertion_code == 'B');
        CHECK_NEAR(a.radius, 2.045, 1e-12);
        a = atom_at(m, 3);
        CHECK(strcmp(a.element, "Zn") == 0 && a.line == 8);
        CHECK_NEAR(vsg_molecule_net_charge(m), 0.172 - 0.648 - 0.1 + 2.0, 1e-12);
        vsg_molecule_free(m);
    }

    m = read_ok(write_text("small.mol2", mol2), NULL);
    if (m) {
        CHECK(vsg_molecule_atom_count(m) == 3); /* the second molecule is not read */
        a = atom_at(m, 0);
        CHECK(strcmp(a.name, "C1") == 0 && strcmp(a.residue_name, "LIG") == 0);
        CHECK(a.residue_number == 1 && strcmp(a.element, "C") == 0 && a.line == 9);
        CHECK_NEAR(a.radius, 1.70, 1e-12);
        CHECK_NEAR(a.charge, -0.1, 1e-12);
        a = atom_at(m, 1);
        CHECK(strcmp(a.element, "Cl") == 0);
        CHECK_NEAR(a.radius, 1.75, 1e-12);
        a = atom_at(m, 2);
        CHECK(strcmp(a.element, "H") == 0 && strcmp(a.residue_name, "<0>") == 0 && a.residue_number == 2);
        CHECK_NEAR(vsg_molecule_net_charge(m), 0.0, 1e-12);
        vsg_molecule_free(m);
    }
}

/* ---- malformed input --------------------------------------------------------------------- */

typedef struct {
    const char *file;
    const char *text;
    vsg_status status;
    const char *needle;   /* in vsg_last_error(), after "<file>" */
} bad_case;

#define GOOD_LINE "ATOM      1  N    MET A   1     -29.703   40.250  -18.688  0.1592 1.8240\n"
#define PDBQT_LINE(q, t) "ATOM      1  N   ILE A  16      -5.421  19.322  -7.058  1.00  0.00    " q " " t "\n"

static const bad_case bad_cases[] = {
    {"trunc.pqr", GOOD_LINE "ATOM      2  CA   MET A   1     -29.370   38\n", VSG_E_FORMAT,
     ":2: truncated ATOM record (8 fields)"},
    {"trunc_nochain.pqr", "ATOM 1 N MET 1\n", VSG_E_FORMAT, ":1: truncated ATOM record (5 fields)"},
    {"dots.pqr", GOOD_LINE "ATOM 2 CA MET A 1 1.2.3 2.0 3.0 0.1 1.5\n", VSG_E_FORMAT,
     ":2: bad x coordinate '1.2.3'"},
    {"letters.pqr", "REMARK\n" GOOD_LINE "ATOM 2 CA MET A 1 1.0 2.0a0 3.0 0.1 1.5\n", VSG_E_FORMAT,
     ":3: bad y coordinate '2.0a0'"},
    {"nan.pqr", "ATOM 2 CA MET A 1 nan 2.0 3.0 0.1 1.5\n", VSG_E_FORMAT, ":1: bad x coordinate 'nan'"},
    {"inf.pqr", "ATOM 2 CA MET 1 1.0 2.0 inf 0.1 1.5\n", VSG_E_FORMAT, ":1: bad z coordinate 'inf'"},
    {"nan_fixed.pqr", "ATOM      1  N   MET A   1         nan  40.250 -18.688  0.1592 1.8240\n",
     VSG_E_FORMAT, ":1: bad x coordinate"},
    {"charge.pqr", GOOD_LINE GOOD_LINE "ATOM 3 CA MET A 1 1.0 2.0 3.0 abc 1.5\n", VSG_E_FORMAT,
     ":3: bad charge 'abc'"},
    {"radius_bad.pqr", "ATOM      1  N   MET A   1     -29.703  40.250 -18.688  0.1592 1.8x40\n",
     VSG_E_FORMAT, ":1: bad radius '1.8x40'"},
    {"empty.pqr", "", VSG_E_FORMAT, "empty.pqr: no atoms"},
    {"remarks.pqr", "REMARK 1\nREMARK 2 nothing here\nEND\n", VSG_E_FORMAT, "remarks.pqr: no atoms"},
    {"noradius.pqr", "ATOM 1 N MET A 1 1.0 2.0 3.0 0.5\n", VSG_E_DATA, ":1: missing radius"},
    {"noradius2.pqr", "ATOM 1 N MET 1 1.0 2.0 3.0 0.5\n", VSG_E_DATA, ":1: missing radius"},
    {"noradius_fixed.pqr", "ATOM      1  N   MET A   1     -29.703  40.250 -18.688  0.1592\n", VSG_E_DATA,
     ":1: missing radius"},
    {"radius0.pqr", GOOD_LINE "ATOM 2 CA MET A 1 1.0 2.0 3.0 0.1 0.0\n", VSG_E_DATA,
     ":2: atom 'CA' has radius 0"},
    {"radiusneg.pqr", "ATOM 2 CA MET A 1 1.0 2.0 3.0 0.1 -1.5\n", VSG_E_DATA, ":1: atom 'CA' has a negative radius"},
    {"dup.pqr", "REMARK\n" GOOD_LINE "ATOM 2 CB MET A 1 1.0 2.0 3.0 0.1 1.5\n" GOOD_LINE, VSG_E_DATA,
     ":4: atom 'N' is at the same position as atom 'N' of line 2"},
    {"near_dup.pqr",
     "ATOM 1 N MET 1 1.00000000 2.0 3.0 0.1 1.5\nATOM 2 C MET 1 1.00000090 2.0000005 2.9999999 0.1 1.5\n",
     VSG_E_DATA, ":2: atom 'C' is at the same position as atom 'N' of line 1"},
    {"far.pqr", "ATOM 1 N MET 1 1e7 2.0 3.0 0.1 1.5\n", VSG_E_DATA, ":1: atom 'N' lies"},
    {"toomany.pqr", "ATOM 1 N MET A 1 1.0 2.0 3.0 0.1 1.5 7.0 8.0\n", VSG_E_FORMAT, ":1: too many fields"},
    {"badres.pqr", "ATOM 1 N MET A x1 1.0 2.0 3.0 0.1 1.5\n", VSG_E_FORMAT, ":1: bad residue number 'x1'"},
    {"pdblike.pqr", "ATOM      1  N   MET A   1     -29.703  40.250 -18.688  1.00 20.00           N\n",
     VSG_E_FORMAT, ":1: 3 fields after the coordinates"},
    {"nocharge.pdbqt", PDBQT_LINE("-0.066", "N") PDBQT_LINE("      ", "OA"), VSG_E_DATA,
     ":2: missing charge"},
    {"badcharge.pdbqt", PDBQT_LINE("-0.0x6", "N"), VSG_E_FORMAT, ":1: bad charge '"},
    {"notype.pdbqt", "ATOM      1  N   ILE A  16      -5.421  19.322  -7.058  1.00  0.00    -0.066\n",
     VSG_E_DATA, ":1: missing AutoDock atom type"},
    {"badtype.pdbqt", PDBQT_LINE("-0.066", "Xx"), VSG_E_DATA, ":1: unknown AutoDock atom type 'Xx'"},
    {"shortline.pdbqt", "ATOM      1  N   ILE A  16      -5.421  19.322\n", VSG_E_FORMAT, ":1: truncated"},
    {"badxyz.pdbqt", "ATOM      1  N   ILE A  16      -5.421  19.3b2  -7.058  1.00  0.00    -0.066 N\n",
     VSG_E_FORMAT, ":1: bad y coordinate '19.3b2'"},
    {"nocharges.mol2", "@<TRIPOS>MOLECULE\nx\n1 0\nSMALL\nNO_CHARGES\n\n@<TRIPOS>ATOM\n"
                       "1 C1 1.0 2.0 3.0 C.3 1 LIG 0.0\n", VSG_E_DATA, ":5: no charges"},
    {"nocharge2.mol2", "@<TRIPOS>MOLECULE\nx\n1 0\nSMALL\nUSER_CHARGES\n\n@<TRIPOS>ATOM\n"
                       "1 C1 1.0 2.0 3.0 C.3 1 LIG\n", VSG_E_DATA, ":8: no charges"},
    {"count.mol2", "@<TRIPOS>MOLECULE\nx\n2 0\nSMALL\nUSER_CHARGES\n\n@<TRIPOS>ATOM\n"
                   "1 C1 1.0 2.0 3.0 C.3 1 LIG 0.0\n", VSG_E_FORMAT, "declares 2 atoms but the ATOM section has 1"},
    {"dummy.mol2", "@<TRIPOS>MOLECULE\nx\n1 0\nSMALL\nUSER_CHARGES\n\n@<TRIPOS>ATOM\n"
                   "1 D1 1.0 2.0 3.0 Du 1 LIG 0.0\n", VSG_E_DATA, ":8: no radius for SYBYL atom type 'Du'"},
    {"badmol2.mol2", "@<TRIPOS>MOLECULE\nx\n1 0\nSMALL\nUSER_CHARGES\n\n@<TRIPOS>ATOM\n"
                     "1 C1 1.0 two 3.0 C.3 1 LIG 0.0\n", VSG_E_FORMAT, ":8: bad y coordinate 'two'"},
    {"noatoms.mol2", "@<TRIPOS>MOLECULE\nx\n0 0\nSMALL\nUSER_CHARGES\n", VSG_E_FORMAT, "no atoms"},
    {"protein.pdb", "HEADER    test\n" GOOD_LINE GOOD_LINE "END\nATOM after end\n", VSG_E_DATA,
     "protein.pdb: 2 atoms, but PDB files carry no charges or radii; make a PQR first, e.g. "
     "`pdb2pqr --ff=AMBER in.pdb out.pqr`, or use a PDBQT"},
    {"emptypdb.pdb", "HEADER    test\n", VSG_E_FORMAT, "emptypdb.pdb: no atoms"},
    {"mystery.xyz", "3\nwater\n", VSG_E_FORMAT, "unknown molecule file extension '.xyz' (supported: .pqr"},
    {"noext", "", VSG_E_FORMAT, "noext: no file extension to tell the molecule format by (supported: .pqr"},
};

static void test_malformed(void)
{
    size_t i;
    char needle[1200];
    for (i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
        const bad_case *c = &bad_cases[i];
        const char *path = write_text(c->file, c->text);
        int before = check_failures;
        /* the message starts with the file's path, followed by ":line:" or ": " */
        snprintf(needle, sizeof needle, "%s%s", c->needle[0] == ':' ? c->file : "", c->needle);
        read_fails(path, NULL, c->status, needle);
        if (check_failures != before) fprintf(stderr, "  in case %s\n", c->file);
    }

    /* a line longer than 1 MiB */
    {
        size_t n = (1u << 20) + 100, k;
        char *big = malloc(n + 64);
        if (big) {
            strcpy(big, "REMARK ");
            for (k = 7; k < n; k++) big[k] = 'x';
            big[n] = '\n';
            big[n + 1] = '\0';
            read_fails(write_text("longline.pqr", big), NULL, VSG_E_FORMAT, "longline.pqr:1: line longer than 1 MiB");
            free(big);
        }
    }
    /* a long but legal line (grows the buffer) */
    {
        size_t n = 300000, k;
        char *big = malloc(n + 200);
        if (big) {
            strcpy(big, "REMARK ");
            for (k = 7; k < n; k++) big[k] = 'y';
            strcpy(big + n, "\n" GOOD_LINE);
            {
                vsg_molecule *m = read_ok(write_text("longok.pqr", big), NULL);
                if (m) {
                    CHECK(vsg_molecule_atom_count(m) == 1 && atom_at(m, 0).line == 2);
                    vsg_molecule_free(m);
                }
            }
            free(big);
        }
    }

    /* truncated and corrupt gzip */
    {
        char text[64 * 1024];
        size_t k = 0;
        int i2;
        const char *gz, *cut, *bad;
        long size;
        for (i2 = 0; i2 < 500; i2++)
            k += (size_t)snprintf(text + k, sizeof text - k, "ATOM %d C ALA A %d %d.0 %d.5 1.0 0.1 1.7\n",
                                  i2 + 1, i2 + 1, i2, i2 % 7);
        gz = write_gz("full.pqr.gz", text);
        size = file_size(gz);
        CHECK(size > 100);
        cut = scratch("cut.pqr.gz");
        copy_prefix(gz, cut, size - 12, -1);
        read_fails(cut, NULL, VSG_E_FORMAT, "cut.pqr.gz: truncated or corrupt gzip stream (unexpected end");
        cut = scratch("cut_half.pqr.gz");
        copy_prefix(gz, cut, size / 2, -1);
        read_fails(cut, NULL, VSG_E_FORMAT, "cut_half.pqr.gz: truncated or corrupt gzip stream");
        bad = scratch("flipped.pqr.gz");
        copy_prefix(gz, bad, size, size / 2);
        read_fails(bad, NULL, VSG_E_FORMAT, "flipped.pqr.gz: truncated or corrupt gzip stream");
        /* the intact file is fine */
        {
            vsg_molecule *m = read_ok(gz, NULL);
            if (m) {
                CHECK(vsg_molecule_atom_count(m) == 500);
                vsg_molecule_free(m);
            }
        }
    }

    /* I/O and argument errors */
    read_fails(scratch("does_not_exist.pqr"), NULL, VSG_E_IO, "does_not_exist.pqr: cannot open");
    read_fails(scratch("does_not_exist.pqr.gz"), NULL, VSG_E_IO, "does_not_exist.pqr.gz: cannot open");
    read_fails(scratch("."), "pqr", VSG_E_IO, "read error");
    read_fails(write_text("fmt.pqr", GOOD_LINE), "xyz", VSG_E_ARG, "unknown molecule format 'xyz'");
    read_fails("-", NULL, VSG_E_ARG, "standard input");
    CHECK_STATUS(vsg_molecule_read(NULL, NULL, NULL), VSG_E_ARG);
    {
        vsg_molecule *m = NULL;
        CHECK_STATUS(vsg_molecule_read(NULL, NULL, &m), VSG_E_ARG);
        CHECK(m == NULL);
    }
    CHECK(vsg_molecule_atom_count(NULL) == 0);
    CHECK(vsg_molecule_net_charge(NULL) == 0.0);
    vsg_molecule_free(NULL);
}

/* ---- PQR output -------------------------------------------------------------------------- */

static void round_trip(const vsg_molecule *m, const char *name)
{
    const char *out = scratch(name);
    vsg_molecule *back;
    size_t i, n = vsg_molecule_atom_count(m);
    int bad = 0;
    CHECK_STATUS(vsg_molecule_write_pqr(m, out), VSG_OK);
    back = read_ok(out, NULL);
    if (!back) return;
    CHECK(vsg_molecule_atom_count(back) == n);
    for (i = 0; i < n && i < vsg_molecule_atom_count(back) && bad < 5; i++) {
        vsg_atom_info a = atom_at(m, i), b = atom_at(back, i);
        /* half a unit in the last printed place (%.3f, %.4f), plus rounding of the binary value */
        const double dx = 5e-4 + 1e-9, dq = 5e-5 + 1e-9;
        if (fabs(a.x - b.x) > dx || fabs(a.y - b.y) > dx || fabs(a.z - b.z) > dx ||
            fabs(a.charge - b.charge) > dq || fabs(a.radius - b.radius) > dq ||
            strcmp(a.name, b.name) != 0 || strcmp(a.residue_name, b.residue_name) != 0 ||
            a.residue_number != b.residue_number || a.chain != b.chain ||
            a.insertion_code != b.insertion_code || a.serial != b.serial) {
            fprintf(stderr, "%s: atom %zu differs after the round trip (%s %s %d%c %c)\n", name, i,
                    a.name, a.residue_name, a.residue_number, a.insertion_code, a.chain);
            bad++;
        }
    }
    CHECK(bad == 0);
    CHECK_NEAR(vsg_molecule_net_charge(back), vsg_molecule_net_charge(m), 5e-5 * (double)n);
    vsg_molecule_free(back);
}

static void test_write_pqr(void)
{
    /* values that outgrow their PDB columns must still come back (and stay APBS-readable) */
    static const char *odd =
        "ATOM  99999 HD21 ASN A9999A  -1234.567  999.999 -100.000 -10.5000 1.2000\n"
        "ATOM 123456  CA  NALA B 10000     -99.999 -100.001 1000.000  0.0001 12.5000\n"
        "ATOM      7  N   GLY     1       0.000    0.000    0.000  0.0000 1.5500\n";
    vsg_molecule *m = read_ok(write_text("odd.pqr", odd), NULL);
    if (m) {
        vsg_atom_info a = atom_at(m, 0);
        CHECK(a.chain == 'A' && a.residue_number == 9999 && a.insertion_code == 'A');
        a = atom_at(m, 1);
        CHECK(a.serial == 123456 && strcmp(a.residue_name, "NALA") == 0 && a.residue_number == 10000);
        round_trip(m, "odd_out.pqr");
        round_trip(m, "odd_out.pqr.gz");
        {
            /* APBS tokenises on blanks: every line must give 10 or 11 fields */
            FILE *f = fopen(scratch("odd_out.pqr"), "r");
            char line[256];
            int lines = 0;
            while (f && fgets(line, sizeof line, f)) {
                char *tok, *save = line;
                int nf = 0;
                if (strncmp(line, "ATOM", 4) != 0) continue;
                while ((tok = strtok(save, " \n")) != NULL) save = NULL, nf++;
                CHECK(nf == 10 || nf == 11);
                lines++;
            }
            if (f) fclose(f);
            CHECK(lines == 3);
        }
        CHECK_STATUS(vsg_molecule_write_pqr(m, scratch("no_such_dir/x.pqr")), VSG_E_IO);
        CHECK_STATUS(vsg_molecule_write_pqr(NULL, scratch("x.pqr")), VSG_E_ARG);
        vsg_molecule_free(m);
    }
}

/* ---- real files ---------------------------------------------------------------------------- */

typedef struct {
    const char *rel;
    size_t atoms;
    double charge;
    int zero_radius_h; /* hydrogens with radius 0 (one warning) */
} real_case;

static const real_case real_cases[] = {
    {"pqr/apbs_misc/fas2.pqr", 906, 4.053, 0},
    {"pqr/apbs_misc/mache.pqr.gz", 8279, -10.004, 0},
    {"pqr/apbs_bem/1a63.pqr", 2065, -1.0, 0},
    {"pqr/pdb2pqr/1AFS_chain_whitespace_ff=AMBER.pqr.gz", 10524, 2.0, 206},
    {"pqr/pdb2pqr/1AFS_whitespace_ff=PARSE.pqr.gz", 10524, 2.0, 3854},
    {"pqr/pdb2pqr/1HPX_with-ph=7.00_titration_state_method=propka_ligand=LIG_1HPX_ff=AMBER.pqr.gz", 3236,
     6.9999, 34},
    {"pqr/pdb2pqr/1AJJ_pH7_PARSE.pqr", 513, -5.0, 164},
    {"pqr/apbs_barnase_barstar/barnase.pqr", 1730, 2.0, 25},
    {"gem_hcp/nucleosome.pqr.gz", 25086, -144.0, 0},
    {"autodock_gpu/1stp/1stp_protein.pdbqt", 1116, -0.958, 0},
    {"autodock_gpu/1stp/1stp_ligand.pdbqt", 18, -1.001, 0},
    {"adgpu_set42/2brt/protein.pdbqt", 5605, -12.517, 0},
    {"autodock_vina/1iep/1iep_ligand_vina_out.pdbqt", 160, 3.996, 0},
    {"pqr/pdb2pqr/1HPX-ligand.mol2", 87, 0.0, 0},
    {"dude/inha/actives_final.mol2.gz", 41, -0.0002, 0},
    {"dude/inha/crystal_ligand.mol2", 39, -0.0004, 0},
};

static void test_real_files(void)
{
    size_t i;
    vsg_molecule *m;
    vsg_atom_info a;
    for (i = 0; i < sizeof real_cases / sizeof real_cases[0]; i++) {
        const real_case *c = &real_cases[i];
        size_t warned = vsg_warning_count();
        int before = check_failures;
        warn_calls = 0;
        m = read_ok(data_path(c->rel), NULL);
        if (!m) continue;
        CHECK(vsg_molecule_atom_count(m) == c->atoms);
        CHECK_NEAR(vsg_molecule_net_charge(m), c->charge, 1e-3);
        if (c->zero_radius_h == 0) CHECK(vsg_warning_count() == warned);
        if (c->zero_radius_h != 0) CHECK(warn_calls == 1);
        if (c->zero_radius_h > 0) {
            char needle[64];
            snprintf(needle, sizeof needle, "%d hydrogen atoms with radius 0", c->zero_radius_h);
            CHECK_CONTAINS(warn_text, needle);
        }
        if (check_failures != before) fprintf(stderr, "  in %s\n", c->rel);
        vsg_molecule_free(m);
    }

    /* specific atoms, values read off the files */
    m = read_ok(data_path("pqr/apbs_misc/fas2.pqr"), NULL);
    if (m) {
        a = atom_at(m, 0); /* ATOM   8280  N   NTE   544     -13.336   3.045  35.885  0.185 1.824 */
        CHECK(a.serial == 8280 && strcmp(a.name, "N") == 0 && strcmp(a.residue_name, "NTE") == 0);
        CHECK(a.residue_number == 544 && a.chain == ' ' && a.model == 1 && a.line == 1);
        CHECK_NEAR(a.x, -13.336, 1e-12);
        CHECK_NEAR(a.y, 3.045, 1e-12);
        CHECK_NEAR(a.z, 35.885, 1e-12);
        CHECK_NEAR(a.charge, 0.185, 1e-12);
        CHECK_NEAR(a.radius, 1.824, 1e-12);
        round_trip(m, "fas2_out.pqr");
        {
            /* checksum is a function of the atoms, not of the file's bytes */
            vsg_molecule *g;
            CHECK_STATUS(vsg_molecule_write_pqr(m, scratch("fas2_copy.pqr.gz")), VSG_OK);
            g = read_ok(scratch("fas2_copy.pqr.gz"), NULL);
            if (g) {
                CHECK(vsg_molecule_checksum(g) == vsg_molecule_checksum(m)); /* 3 decimals: exact */
                vsg_molecule_free(g);
            }
        }
        vsg_molecule_free(m);
    }
    m = read_ok(data_path("pqr/pdb2pqr/1AFS_chain_whitespace_ff=AMBER.pqr.gz"), NULL);
    if (m) {
        a = atom_at(m, 0); /* line 176: ATOM 1 N MET A 1 -29.703 40.250 -18.688 0.1592 1.8240 (CRLF) */
        CHECK(a.line == 176 && a.chain == 'A' && a.residue_number == 1 && strcmp(a.name, "N") == 0);
        CHECK_NEAR(a.x, -29.703, 1e-12);
        CHECK_NEAR(a.radius, 1.824, 1e-12);
        a = atom_at(m, 10523); /* HETATM10662  H2   HOH B 356  -5.411 59.613 -28.254 0.4170 0.0000 */
        CHECK(a.serial == 10662 && strcmp(a.name, "H2") == 0 && strcmp(a.residue_name, "HOH") == 0);
        CHECK(a.chain == 'B' && a.residue_number == 356 && a.line == 10699 && a.radius == 0.0);
        CHECK_NEAR(a.z, -28.254, 1e-12);
        vsg_molecule_free(m);
    }
    m = read_ok(data_path("pqr/apbs_bem/1a63.pqr"), NULL);
    if (m) {
        a = atom_at(m, 1); /* ATOM  6 HT1    MET    1   -7.16686   5.76716  -3.90227  0.33000 0.22450 */
        CHECK(a.serial == 6 && strcmp(a.name, "HT1") == 0 && a.residue_number == 1 && a.chain == ' ');
        CHECK_NEAR(a.x, -7.16686, 1e-12);
        CHECK_NEAR(a.charge, 0.33, 1e-12);
        CHECK_NEAR(a.radius, 0.2245, 1e-12);
        round_trip(m, "1a63_out.pqr");
        vsg_molecule_free(m);
    }
    m = read_ok(data_path("autodock_gpu/1stp/1stp_protein.pdbqt"), NULL);
    if (m) {
        a = atom_at(m, 0); /* ATOM 1 N ALA A 13 22.637 5.768 11.762 1.00 44.60 -0.067 N */
        CHECK(strcmp(a.name, "N") == 0 && strcmp(a.residue_name, "ALA") == 0 && a.chain == 'A');
        CHECK(a.residue_number == 13 && strcmp(a.ad_type, "N") == 0 && a.line == 2);
        CHECK_NEAR(a.x, 22.637, 1e-12);
        CHECK_NEAR(a.y, 5.768, 1e-12);
        CHECK_NEAR(a.z, 11.762, 1e-12);
        CHECK_NEAR(a.charge, -0.067, 1e-12);
        CHECK_NEAR(a.radius, 1.75, 1e-12);
        a = atom_at(m, 1); /* HN1 ... 0.275 HD */
        CHECK(strcmp(a.ad_type, "HD") == 0 && strcmp(a.element, "H") == 0);
        CHECK_NEAR(a.radius, 1.0, 1e-12);
        CHECK_NEAR(a.charge, 0.275, 1e-12);
        vsg_molecule_free(m);
    }
    m = read_ok(data_path("adgpu_set42/2brt/protein.pdbqt"), NULL);
    if (m) {
        size_t k;
        int found = 0;
        for (k = 0; k < vsg_molecule_atom_count(m); k++) {
            a = atom_at(m, k);
            if (a.line != 5579) continue; /* HETATM 5579 FE FE2 A1350 21.440 30.074 33.371 ... 1.275 Fe */
            found = 1;
            CHECK(strcmp(a.ad_type, "Fe") == 0 && strcmp(a.element, "Fe") == 0);
            CHECK(strcmp(a.residue_name, "FE2") == 0 && a.chain == 'A' && a.residue_number == 1350);
            CHECK_NEAR(a.radius, 0.65, 1e-12);
            CHECK_NEAR(a.charge, 1.275, 1e-12);
        }
        CHECK(found);
        vsg_molecule_free(m);
    }
    m = read_ok(data_path("autodock_vina/1iep/1iep_ligand_vina_out.pdbqt"), NULL);
    if (m) {
        CHECK(atom_at(m, 0).model == 1 && atom_at(m, 39).model == 1);
        CHECK(atom_at(m, 40).model == 2 && atom_at(m, 159).model == 4);
        vsg_molecule_free(m);
    }
    m = read_ok(data_path("pqr/pdb2pqr/1HPX-ligand.mol2"), NULL);
    if (m) {
        a = atom_at(m, 0); /* 1 C1 6.8480 1.1810 6.1590 C.ar 1 UNK 0.000000 */
        CHECK(strcmp(a.name, "C1") == 0 && strcmp(a.residue_name, "UNK") == 0 && a.residue_number == 1);
        CHECK(strcmp(a.element, "C") == 0 && a.line == 9);
        CHECK_NEAR(a.x, 6.848, 1e-12);
        CHECK_NEAR(a.radius, 1.70, 1e-12);
        vsg_molecule_free(m);
    }
    m = read_ok(data_path("dude/inha/actives_final.mol2.gz"), NULL);
    if (m) {
        a = atom_at(m, 12); /* 13 O1 5.4441 -5.2277 -4.8538 O.3 1 <0> -0.4912 */
        CHECK(strcmp(a.name, "O1") == 0 && strcmp(a.element, "O") == 0);
        CHECK_NEAR(a.charge, -0.4912, 1e-12);
        CHECK_NEAR(a.radius, 1.52, 1e-12);
        vsg_molecule_free(m);
    }
    read_fails(data_path("pdb/1mbo.pdb"), NULL, VSG_E_DATA, "1mbo.pdb: 1611 atoms, but PDB files carry no charges");
    read_fails(data_path("pqr/pdb2pqr/1AFS.pdb.gz"), NULL, VSG_E_DATA, "pdb2pqr --ff=AMBER");
    read_fails(data_path("dude/inha/receptor.pdb"), NULL, VSG_E_DATA, "make a PQR first");
}

/* ---- standard input and mutated input ----------------------------------------------------- */

static void test_stdin(void)
{
    vsg_molecule *m;
    const char *path = write_text("stdin.pqr", pqr_nochain);
    if (!freopen(path, "rb", stdin)) {
        printf("freopen(stdin) failed: standard-input check skipped\n");
        return;
    }
    m = read_ok("-", "pqr");
    if (m) {
        CHECK(vsg_molecule_atom_count(m) == 3);
        CHECK(strcmp(vsg_molecule_source(m), "-") == 0);
        vsg_molecule_free(m);
    }
}

/* Random byte edits of valid files: every read must end in OK or in an error that names the
 * file, never in a crash (the suite also runs under ASan and UBSan). */
static void test_mutations(void)
{
    static const char *bases[3][2] = {
        {"fuzz.pqr", "REMARK x\nMODEL 1\n" GOOD_LINE "ATOM 2 CA MET A 1 1.0 2.0 3.0 0.1 1.5\n"
                     "HETATM10661  H1   HOH B 356      -5.698   60.517  -29.614  0.4170 0.0000\n"
                     "ATOM      1 HD21 ASN A  12    -100.123-200.456-300.789  0.4000 1.2000\nENDMDL\nEND\n"},
        {"fuzz.pdbqt", "ROOT\n" PDBQT_LINE("-0.066", "N") PDBQT_LINE("-0.066", "OA")
                       "ATOM      3 CL1  BTN A 300B      8.697   3.498 -15.132  1.00 22.67    -0.100 Cl\n"
                       "ENDROOT\nTORSDOF 0\n"},
        {"fuzz.mol2", "@<TRIPOS>MOLECULE\nx\n 2 1 0 0 0\nSMALL\nGASTEIGER\n\n@<TRIPOS>ATOM\n"
                      "      1 C1          1.0000    2.0000    3.0000 C.ar    1  LIG1       -0.1000\n"
                      "      2 CL1         2.0000    2.0000    3.0000 Cl      1  LIG1       -0.2000\n"
                      "@<TRIPOS>BOND\n     1     1     2    1\n"},
    };
    static const char alphabet[] = " \n\t.-+eE0123456789AZaz@<>\r\0";
    unsigned long seed = 99;
    int iter, ok = 0, failed = 0;
    for (iter = 0; iter < 3000; iter++) {
        const char *name = bases[iter % 3][0], *base = bases[iter % 3][1];
        char buf[2048];
        size_t n = strlen(base), k;
        int edits, e;
        FILE *f;
        vsg_molecule *m = NULL;
        vsg_status st;
        memcpy(buf, base, n);
        seed = seed * 6364136223846793005UL + 1442695040888963407UL;
        edits = 1 + (int)((seed >> 40) % 6);
        for (e = 0; e < edits; e++) {
            seed = seed * 6364136223846793005UL + 1442695040888963407UL;
            k = (size_t)((seed >> 20) % n);
            buf[k] = alphabet[(seed >> 50) % (sizeof alphabet - 1)];
        }
        if ((seed >> 10) % 5 == 0) n = (size_t)((seed >> 30) % n); /* cut short */
        f = fopen(scratch(name), "wb");
        if (!f) {
            check_failures++;
            return;
        }
        fwrite(buf, 1, n, f);
        fclose(f);
        st = vsg_molecule_read(scratch(name), NULL, &m);
        if (st == VSG_OK) {
            CHECK(m != NULL && vsg_molecule_atom_count(m) > 0);
            ok++;
        } else {
            CHECK(st < 0 && m == NULL);
            CHECK_CONTAINS(vsg_last_error(), name);
            failed++;
        }
        vsg_molecule_free(m);
    }
    printf("mutated inputs: %d read, %d refused with a message\n", ok, failed);
    CHECK(ok > 100 && failed > 100);
}

/* ---- speed: no quadratic step on a receptor-sized input ------------------------------------- */

static void test_large(void)
{
    const int n = 300000;
    const char *path = scratch("large.pqr.gz");
    gzFile g = gzopen(path, "wb1");
    vsg_molecule *m;
    clock_t t0;
    double secs;
    int i;
    if (!g) {
        check_failures++;
        return;
    }
    /* all atoms in one plane (x = 0): the worst case for a sweep along x */
    for (i = 0; i < n; i++)
        gzprintf(g, "ATOM  %5d  CA  ALA A%4d       0.000%8.3f%8.3f  0.1000 1.7000\n", i % 100000,
                 i % 10000, (double)(i % 600) * 1.5 - 450.0, (double)(i / 600) * 1.5 - 375.0);
    gzclose(g);
    t0 = clock();
    m = read_ok(path, NULL);
    secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    if (m) {
        CHECK(vsg_molecule_atom_count(m) == (size_t)n);
        CHECK_NEAR(vsg_molecule_net_charge(m), 0.1 * n, 1e-6);
        printf("read %d atoms (gzip PQR, checks included) in %.3f s: %.2f M atoms/s\n", n, secs,
               (double)n / secs / 1e6);
        CHECK(secs < 20.0);
        vsg_molecule_free(m);
    }
}

int main(void)
{
    vsg_set_warning_handler(on_warning, NULL);
    test_numbers();
    test_radii();
    test_synthetic_pqr();
    test_synthetic_other();
    test_malformed();
    test_write_pqr();
    if (shared_data_dir()) test_real_files();
    else VSG_SKIP_PART("real-file checks", VSG_NO_SHARED);
    test_mutations();
    test_large();
    test_stdin();
    vsg_set_warning_handler(NULL, NULL);
    CHECK_EXIT();
}
