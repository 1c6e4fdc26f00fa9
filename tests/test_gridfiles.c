/* test_gridfiles.c — grid object, .vsg/.dx/.dx.gz round trips, interpolation, probing, and
 * corrupt or malformed files (every one must give an error, never a crash). */
#include <float.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "check.h"
#include "grids/base/vsgrid.h"
#include "grids/formats/grid.h"
#include "grids/receptor/molecule.h"

/* ---- helpers ------------------------------------------------------------------------- */

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static double rnd(void) /* [0, 1), deterministic (xorshift64*) */
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (double)((rng_state * 2685821657736338717ull) >> 11) / 9007199254740992.0;
}

/* Random non-zero values spanning several magnitudes and both signs. */
static vsg_grid *random_grid(int nx, int ny, int nz, const double origin[3], const double h[3])
{
    int n[3] = {nx, ny, nz};
    vsg_grid *g = vsg_grid_new(n, origin, h, "kT/e");
    if (!g) return NULL;
    for (size_t i = 0; i < vsg_grid_nodes(g); i++) {
        double v = (0.1 + rnd()) * pow(10.0, (int)(rnd() * 7) - 3);
        g->data[i] = (float)(rnd() < 0.5 ? -v : v);
    }
    return g;
}

static long file_size(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fclose(f);
    return n;
}

static unsigned char *slurp(const char *path, long *len)
{
    *len = file_size(path);
    if (*len < 0) return NULL;
    unsigned char *b = malloc((size_t)*len + 1);
    FILE *f = fopen(path, "rb");
    if (!b || !f || fread(b, 1, (size_t)*len, f) != (size_t)*len) {
        free(b);
        if (f) fclose(f);
        return NULL;
    }
    fclose(f);
    return b;
}

static int spit(const char *path, const void *p, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f) return 0;
    int ok = fwrite(p, 1, len, f) == len;
    return fclose(f) == 0 && ok;
}

static int exists(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f) fclose(f);
    return f != NULL;
}

static void check_same_shape(const vsg_grid *a, const vsg_grid *b, double rel)
{
    for (int d = 0; d < 3; d++) {
        CHECK(a->n[d] == b->n[d]);
        CHECK_NEAR(b->origin[d], a->origin[d], rel * fabs(a->origin[d]));
        CHECK_NEAR(b->spacing[d], a->spacing[d], rel * a->spacing[d]);
    }
    CHECK(strcmp(a->units, b->units) == 0);
}

/* ---- grid object and metadata -------------------------------------------------------- */

static void test_new_and_meta(void)
{
    double o[3] = {0, 0, 0}, h[3] = {1, 1, 1};
    int bad[3] = {3, 0, 3};
    CHECK(vsg_grid_new(bad, o, h, "kT/e") == NULL);
    CHECK_CONTAINS(vsg_last_error(), "axis y");
    int huge[3] = {INT_MAX, INT_MAX, INT_MAX};
    CHECK(vsg_grid_new(huge, o, h, "kT/e") == NULL);
    CHECK_CONTAINS(vsg_last_error(), "overflow");
    double hneg[3] = {1, -1, 1};
    int n[3] = {2, 3, 4};
    CHECK(vsg_grid_new(n, o, hneg, "kT/e") == NULL);
#if !defined(__SANITIZE_ADDRESS__)
    /* 4 PiB: an honest out-of-memory (AddressSanitizer would abort on it instead). */
    int big[3] = {1 << 20, 1 << 20, 1 << 10};
    CHECK(vsg_grid_new(big, o, h, "kT/e") == NULL);
    CHECK_CONTAINS(vsg_last_error(), "out of memory");
#endif

    vsg_grid *g = vsg_grid_new(n, o, h, "a-very-long-units-string");
    CHECK(g != NULL);
    if (!g) return;
    CHECK(vsg_grid_nodes(g) == 24);
    CHECK(strlen(g->units) == 15); /* truncated, still terminated */
    CHECK(strcmp(vsg_grid_metadata(g), "") == 0);
    char buf[64];
    CHECK(vsg_grid_meta_get(g, "method", buf, sizeof buf) == NULL);
    CHECK_STATUS(vsg_grid_meta_add(g, "method", "%s", "pb"), VSG_OK);
    CHECK_STATUS(vsg_grid_meta_add(g, "eps_in", "%g", 2.0), VSG_OK);
    CHECK_STATUS(vsg_grid_meta_add(g, "method", "%s", "coulomb"), VSG_OK);
    CHECK_STATUS(vsg_grid_meta_add(g, "note", "two\nlines"), VSG_OK);
    CHECK_STATUS(vsg_grid_meta_add(g, "bad=key", "x"), VSG_E_ARG);
    CHECK_STATUS(vsg_grid_meta_add(g, "", "x"), VSG_E_ARG);
    CHECK(strcmp(vsg_grid_metadata(g),
                 "method = pb\neps_in = 2\nmethod = coulomb\nnote = two lines\n") == 0);
    CHECK(vsg_grid_meta_get(g, "method", buf, sizeof buf) != NULL);
    CHECK(strcmp(buf, "coulomb") == 0); /* the last entry wins */
    CHECK(vsg_grid_meta_get(g, "eps_in", buf, sizeof buf) && strcmp(buf, "2") == 0);
    CHECK(vsg_grid_meta_get(g, "eps", buf, sizeof buf) == NULL);
    char tiny[4];
    CHECK(vsg_grid_meta_get(g, "method", tiny, sizeof tiny) && strcmp(tiny, "cou") == 0);

    vsg_grid_shape s;
    CHECK_STATUS(vsg_grid_shape_of(g, &s), VSG_OK);
    CHECK(s.n[0] == 2 && s.n[1] == 3 && s.n[2] == 4);
    CHECK(vsg_grid_values(g) == g->data);
    CHECK(vsg_grid_values(NULL) == NULL);
    vsg_grid_free(g);
    vsg_grid_free(NULL);
}

/* ---- round trips ---------------------------------------------------------------------- */

static void roundtrip(int nx, int ny, int nz, const double h[3], const char *tag)
{
    double origin[3] = {-12.25 + rnd(), 3.0 / 7.0, 1e-3 * rnd()};
    vsg_grid *g = random_grid(nx, ny, nz, origin, h);
    CHECK(g != NULL);
    if (!g) return;
    vsg_grid_meta_add(g, "method", "pb");
    vsg_grid_meta_add(g, "receptor_crc32", "%08x", 0xdeadbeefu);
    vsg_grid_meta_add(g, "comment", "a # b = c");
    size_t nodes = vsg_grid_nodes(g);
    const char *ext[3] = {".vsg", ".dx", ".dx.gz"};
    for (int e = 0; e < 3; e++) {
        char name[128];
        snprintf(name, sizeof name, "rt_%s%s", tag, ext[e]);
        const char *path = scratch_path(name);
        CHECK_STATUS(vsg_grid_write(g, path), VSG_OK);
        char tmp[1100];
        snprintf(tmp, sizeof tmp, "%s.tmp", path);
        CHECK(!exists(tmp));
        vsg_grid *r = NULL;
        CHECK_STATUS(vsg_grid_read(path, &r), VSG_OK);
        CHECK(r != NULL);
        if (!r) continue;
        if (e == 0) {
            check_same_shape(g, r, 0.0); /* %.17g: exact */
            CHECK(memcmp(g->data, r->data, nodes * sizeof(float)) == 0);
        } else {
            check_same_shape(g, r, 1e-15);
            double worst = 0;
            for (size_t i = 0; i < nodes; i++) {
                double rel = fabs((double)r->data[i] - g->data[i]) / fabs((double)g->data[i]);
                if (rel > worst) worst = rel;
            }
            CHECK(worst <= 1e-6);
            if (worst > 1e-6) fprintf(stderr, "  %s: worst relative error %.3g\n", name, worst);
        }
        CHECK(strcmp(vsg_grid_metadata(r), vsg_grid_metadata(g)) == 0);
        vsg_grid_free(r);
    }
    vsg_grid_free(g);
}

static void test_roundtrips(void)
{
    double cubic[3] = {0.5, 0.5, 0.5}, odd[3] = {0.375, 1.0 / 3.0, 1.25};
    roundtrip(7, 9, 11, cubic, "7x9x11");
    roundtrip(1, 1, 1, cubic, "1x1x1");
    roundtrip(5, 4, 3, odd, "noncubic");
    roundtrip(37, 5, 3, odd, "37x5x3"); /* more x-planes than one transpose block */

    /* The files are what the formats say: gzip magic, plain text, our magic. */
    long len;
    unsigned char *b = slurp(scratch_path("rt_7x9x11.dx.gz"), &len);
    CHECK(b && len > 2 && b[0] == 0x1f && b[1] == 0x8b);
    free(b);
    b = slurp(scratch_path("rt_7x9x11.dx"), &len);
    CHECK(b && len > 0 && b[0] == '#');
    if (b) {
        b[len] = '\0';
        CHECK_CONTAINS((char *)b, "object 1 class gridpositions counts 7 9 11\n");
        CHECK_CONTAINS((char *)b,
                       "object 3 class array type double rank 0 items 693 data follows\n");
        CHECK_CONTAINS((char *)b, "component \"data\" value 3\n");
    }
    free(b);
    b = slurp(scratch_path("rt_7x9x11.vsg"), &len);
    CHECK(b && len > 16 && memcmp(b, "\x89VSG\r\n\x1a\n", 8) == 0 && b[8] == 1 && b[9] == 0);
    free(b);

    /* Over 16 MiB of values: the streaming (de)compression crosses its chunk boundary. */
    double o[3] = {0, 0, 0};
    vsg_grid *g = random_grid(130, 130, 260, o, cubic);
    CHECK(g != NULL);
    if (g) {
        const char *path = scratch_path("rt_big.vsg");
        CHECK_STATUS(vsg_grid_write(g, path), VSG_OK);
        vsg_grid *r = NULL;
        CHECK_STATUS(vsg_grid_read(path, &r), VSG_OK);
        CHECK(r && memcmp(r->data, g->data, vsg_grid_nodes(g) * sizeof(float)) == 0);
        vsg_grid_free(r);
        remove(path);
    }
    vsg_grid_free(g);
}

static void test_dispatch(void)
{
    double o[3] = {0, 0, 0}, h[3] = {1, 1, 1};
    vsg_grid *g = random_grid(2, 2, 2, o, h), *r = NULL;
    CHECK(g != NULL);
    if (!g) return;
    CHECK_STATUS(vsg_grid_write(g, scratch_path("x.grd")), VSG_E_FORMAT);
    CHECK_CONTAINS(vsg_last_error(), ".dx.gz");
    CHECK_STATUS(vsg_grid_read(scratch_path("x.grd"), &r), VSG_E_FORMAT);
    CHECK(r == NULL);
    /* AutoGrid maps are read, but written only as a set with their .fld (--autogrid-maps). */
    CHECK_STATUS(vsg_grid_write(g, scratch_path("x.map")), VSG_E_FORMAT);
    CHECK_CONTAINS(vsg_last_error(), "--autogrid-maps");
    CHECK_STATUS(vsg_grid_read(scratch_path("does_not_exist.vsg"), &r), VSG_E_IO);
    CHECK_CONTAINS(vsg_last_error(), "does_not_exist.vsg");
    CHECK_STATUS(vsg_grid_read(scratch_path("does_not_exist.dx"), &r), VSG_E_IO);
    CHECK_STATUS(vsg_grid_write(g, scratch_path("no_such_dir/x.vsg")), VSG_E_IO);
    CHECK_STATUS(vsg_grid_read(NULL, &r), VSG_E_ARG);
    CHECK_STATUS(vsg_grid_write(NULL, scratch_path("x.vsg")), VSG_E_ARG);
    /* Upper-case extensions are the same formats. */
    CHECK_STATUS(vsg_grid_write(g, scratch_path("UPPER.DX")), VSG_OK);
    CHECK_STATUS(vsg_grid_read(scratch_path("UPPER.DX"), &r), VSG_OK);
    vsg_grid_free(r);

    /* A failed write leaves neither the file nor its temporary behind. */
    const char *path = scratch_path("nan.dx");
    remove(path);
    g->data[5] = NAN;
    CHECK_STATUS(vsg_grid_write(g, path), VSG_E_DATA);
    CHECK_CONTAINS(vsg_last_error(), "not finite");
    CHECK(!exists(path));
    char tmp[1100];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    CHECK(!exists(tmp));
    vsg_grid_free(g);
}

/* ---- interpolation and probing -------------------------------------------------------- */

static const double LA = 0.75, LB = -1.25, LC = 0.5, LD = 2.0;
static double linear(double x, double y, double z) { return LA + LB * x + LC * y + LD * z; }

static vsg_grid *linear_grid(void)
{
    int n[3] = {7, 9, 11};
    double o[3] = {-1.5, 2.25, 0.5}, h[3] = {0.5, 0.375, 0.25};
    vsg_grid *g = vsg_grid_new(n, o, h, "kT/e");
    if (!g) return NULL;
    for (int k = 0; k < n[2]; k++)
        for (int j = 0; j < n[1]; j++)
            for (int i = 0; i < n[0]; i++)
                g->data[i + n[0] * (j + n[1] * k)] =
                    (float)linear(o[0] + i * h[0], o[1] + j * h[1], o[2] + k * h[2]);
    return g;
}

static void test_interpolate(void)
{
    vsg_grid *g = linear_grid();
    CHECK(g != NULL);
    if (!g) return;
    double v, hi[3];
    for (int d = 0; d < 3; d++) hi[d] = g->origin[d] + (g->n[d] - 1) * g->spacing[d];

    double worst = 0;
    for (int t = 0; t < 2000; t++) {
        double p[3];
        for (int d = 0; d < 3; d++) p[d] = g->origin[d] + rnd() * (hi[d] - g->origin[d]);
        if (vsg_grid_interpolate(g, p[0], p[1], p[2], &v) != VSG_OK) {
            CHECK(!"interior point refused");
            break;
        }
        double err = fabs(v - linear(p[0], p[1], p[2]));
        if (err > worst) worst = err;
    }
    CHECK_NEAR(worst, 0.0, 1e-5);

    /* On every node: the stored value, including the last node of each axis. */
    int bad = 0;
    for (int k = 0; k < g->n[2]; k++)
        for (int j = 0; j < g->n[1]; j++)
            for (int i = 0; i < g->n[0]; i++) {
                double x = g->origin[0] + i * g->spacing[0], y = g->origin[1] + j * g->spacing[1],
                       z = g->origin[2] + k * g->spacing[2];
                if (vsg_grid_interpolate(g, x, y, z, &v) != VSG_OK ||
                    fabs(v - g->data[i + g->n[0] * (j + g->n[1] * k)]) > 1e-9)
                    bad++;
            }
    CHECK(bad == 0);
    CHECK_STATUS(vsg_grid_interpolate(g, hi[0], hi[1], hi[2], &v), VSG_OK);
    CHECK_NEAR(v, linear(hi[0], hi[1], hi[2]), 1e-5);

    /* Outside, by a little or a lot, or not a number: VSG_E_ARG and 0. */
    double eps = 1e-6;
    double outside[][3] = {{g->origin[0] - eps, 3, 1},   {hi[0] + eps, 3, 1},
                           {0, g->origin[1] - eps, 1},   {0, hi[1] + eps, 1},
                           {0, 3, g->origin[2] - eps},   {0, 3, hi[2] + eps},
                           {1e9, 1e9, 1e9},              {NAN, 3, 1}};
    for (size_t t = 0; t < sizeof outside / sizeof outside[0]; t++) {
        v = 42;
        CHECK_STATUS(vsg_grid_interpolate(g, outside[t][0], outside[t][1], outside[t][2], &v),
                     VSG_E_ARG);
        CHECK(v == 0.0);
    }
    CHECK_STATUS(vsg_grid_interpolate(NULL, 0, 0, 0, &v), VSG_E_ARG);
    CHECK_STATUS(vsg_grid_interpolate(g, 0, 3, 1, NULL), VSG_E_ARG);
    vsg_grid_free(g);

    /* A single node: inside only exactly there. */
    int n1[3] = {1, 1, 1};
    double o1[3] = {1, 2, 3}, h1[3] = {0.5, 0.5, 0.5};
    g = vsg_grid_new(n1, o1, h1, "kT/e");
    CHECK(g != NULL);
    if (!g) return;
    g->data[0] = 3.5f;
    CHECK_STATUS(vsg_grid_interpolate(g, 1, 2, 3, &v), VSG_OK);
    CHECK(v == 3.5);
    CHECK_STATUS(vsg_grid_interpolate(g, 1.1, 2, 3, &v), VSG_E_ARG);
    vsg_grid_free(g);
}

static void test_probe(void)
{
    vsg_grid *g = linear_grid();
    CHECK(g != NULL);
    if (!g) return;
    /* Built by hand so this test does not depend on the molecule readers. */
    vsg_atom atoms[4];
    memset(atoms, 0, sizeof atoms);
    double xyz[4][3] = {{0.1, 3.0, 1.2}, {1.4, 4.9, 2.6}, {-1.0, 2.5, 0.75}, {50, 0, 0}};
    double q[4] = {0.4, -0.8, 0.25, 1.0};
    for (int a = 0; a < 4; a++) {
        atoms[a].x = xyz[a][0];
        atoms[a].y = xyz[a][1];
        atoms[a].z = xyz[a][2];
        atoms[a].charge = q[a];
    }
    struct vsg_molecule m;
    memset(&m, 0, sizeof m);
    m.atoms = atoms;
    m.n = m.cap = 4;

    double per_atom[4] = {9, 9, 9, 9}, expect = 0;
    for (int a = 0; a < 3; a++) expect += q[a] * linear(xyz[a][0], xyz[a][1], xyz[a][2]);
    vsg_probe_result res;
    memset(&res, 0xff, sizeof res);
    CHECK_STATUS(vsg_grid_probe(g, &m, per_atom, &res), VSG_OK);
    CHECK_NEAR(res.energy, expect, 1e-5);
    CHECK(res.atoms == 4);
    CHECK(res.outside == 1);
    for (int a = 0; a < 3; a++)
        CHECK_NEAR(per_atom[a], linear(xyz[a][0], xyz[a][1], xyz[a][2]), 1e-5);
    CHECK(per_atom[3] == 0.0);
    CHECK_STATUS(vsg_grid_probe(g, &m, NULL, &res), VSG_OK);
    CHECK_NEAR(res.energy, expect, 1e-5);
    CHECK_STATUS(vsg_grid_probe(g, NULL, NULL, &res), VSG_E_ARG);
    CHECK_STATUS(vsg_grid_probe(NULL, &m, NULL, &res), VSG_E_ARG);
    m.n = 0;
    CHECK_STATUS(vsg_grid_probe(g, &m, NULL, &res), VSG_OK);
    CHECK(res.energy == 0 && res.atoms == 0 && res.outside == 0);
    vsg_grid_free(g);
}

/* ---- corrupt .vsg files ---------------------------------------------------------------- */

static vsg_status read_bytes_as_vsg(const unsigned char *b, size_t len, const char *name)
{
    const char *path = scratch_path(name);
    if (!spit(path, b, len)) return VSG_E_IO;
    vsg_grid *g = (vsg_grid *)&g; /* must come back NULL on failure */
    vsg_status st = vsg_grid_read(path, &g);
    if (st != VSG_OK && g != NULL) {
        fprintf(stderr, "failed read left *out set\n");
        check_failures++;
    }
    if (st == VSG_OK) vsg_grid_free(g);
    return st;
}

/* A .vsg whose header text is replaced (with a valid CRC): the fields themselves are checked. */
static void vsg_with_header(const unsigned char *b, long len, const char *from, const char *to,
                            vsg_status want, const char *needle)
{
    uint32_t hlen = (uint32_t)b[12] | (uint32_t)b[13] << 8 | (uint32_t)b[14] << 16 |
                    (uint32_t)b[15] << 24;
    char *text = malloc(hlen + 1), *hit;
    unsigned char *out = malloc((size_t)len + 256);
    if (!text || !out) goto done;
    memcpy(text, b + 16, hlen);
    text[hlen] = '\0';
    hit = strstr(text, from);
    CHECK(hit != NULL);
    if (!hit) goto done;
    size_t fl = strlen(from), tl = strlen(to), nl = hlen - fl + tl;
    memcpy(out, b, 12);
    out[12] = (unsigned char)nl;
    out[13] = (unsigned char)(nl >> 8);
    out[14] = (unsigned char)(nl >> 16);
    out[15] = (unsigned char)(nl >> 24);
    size_t pre = (size_t)(hit - text);
    memcpy(out + 16, text, pre);
    memcpy(out + 16 + pre, to, tl);
    memcpy(out + 16 + pre + tl, hit + fl, hlen - pre - fl);
    uint32_t crc = (uint32_t)crc32(0L, out + 16, (uInt)nl);
    for (int i = 0; i < 4; i++) out[16 + nl + i] = (unsigned char)(crc >> (8 * i));
    memcpy(out + 20 + nl, b + 20 + hlen, (size_t)len - 20 - hlen);
    CHECK_STATUS(read_bytes_as_vsg(out, (size_t)len - hlen + nl, "edited.vsg"), want);
    CHECK_CONTAINS(vsg_last_error(), needle);
done:
    free(text);
    free(out);
}

static void test_corrupt_vsg(void)
{
    double o[3] = {1, 2, 3}, h[3] = {0.5, 0.5, 0.5};
    vsg_grid *g = random_grid(3, 4, 5, o, h);
    CHECK(g != NULL);
    if (!g) return;
    vsg_grid_meta_add(g, "method", "test");
    const char *good = scratch_path("good.vsg");
    CHECK_STATUS(vsg_grid_write(g, good), VSG_OK);
    vsg_grid_free(g);
    long len;
    unsigned char *b = slurp(good, &len);
    CHECK(b != NULL && len > 40);
    if (!b) return;
    CHECK_STATUS(read_bytes_as_vsg(b, (size_t)len, "copy.vsg"), VSG_OK);

    /* Every truncation is an error. */
    int accepted = 0;
    for (long cut = 0; cut < len; cut++)
        if (read_bytes_as_vsg(b, (size_t)cut, "cut.vsg") != VSG_E_FORMAT) accepted++;
    CHECK(accepted == 0);

    /* Every single-bit and whole-byte flip anywhere is an error: fields are validated, and
     * the header and the values carry CRCs. */
    accepted = 0;
    for (long i = 0; i < len; i++) {
        unsigned char keep = b[i];
        for (int f = 0; f < 2; f++) {
            b[i] = (unsigned char)(keep ^ (f ? 0xff : 0x01));
            if (read_bytes_as_vsg(b, (size_t)len, "flip.vsg") == VSG_OK) {
                fprintf(stderr, "  flip at byte %ld accepted\n", i);
                accepted++;
            }
        }
        b[i] = keep;
    }
    CHECK(accepted == 0);

    /* Messages that say what is wrong and name the file. */
    CHECK_STATUS(read_bytes_as_vsg(b, 0, "empty.vsg"), VSG_E_FORMAT);
    CHECK_CONTAINS(vsg_last_error(), "empty.vsg");
    CHECK_CONTAINS(vsg_last_error(), "empty");
    CHECK_STATUS(read_bytes_as_vsg((const unsigned char *)"hello, this is text\n", 20, "text.vsg"),
                 VSG_E_FORMAT);
    CHECK_CONTAINS(vsg_last_error(), "not a vsgrid file");
    b[8] = 2; /* a newer format version */
    CHECK_STATUS(read_bytes_as_vsg(b, (size_t)len, "v2.vsg"), VSG_E_FORMAT);
    CHECK_CONTAINS(vsg_last_error(), "version 2");
    b[8] = 1;
    b[20] ^= 1; /* inside the text header */
    CHECK_STATUS(read_bytes_as_vsg(b, (size_t)len, "hdr.vsg"), VSG_E_FORMAT);
    CHECK_CONTAINS(vsg_last_error(), "header checksum");
    b[20] ^= 1;
    b[len - 10] ^= 0x10; /* inside the compressed values */
    CHECK_STATUS(read_bytes_as_vsg(b, (size_t)len, "data.vsg"), VSG_E_FORMAT);
    CHECK_CONTAINS(vsg_last_error(), "data.vsg");
    b[len - 10] ^= 0x10;
    CHECK_STATUS(read_bytes_as_vsg(b, (size_t)len - 1, "short.vsg"), VSG_E_FORMAT);
    CHECK_CONTAINS(vsg_last_error(), "truncated");

    vsg_with_header(b, len, "units = kT/e\n", "units = kcal/mol/e\n", VSG_OK, "");
    vsg_with_header(b, len, "nz = 5\n", "", VSG_E_FORMAT, "lacks the key 'nz'");
    vsg_with_header(b, len, "nx = 3\n", "nx = 3x\n", VSG_E_FORMAT, "bad nx '3x'");
    vsg_with_header(b, len, "nx = 3\n", "nx = 0\n", VSG_E_FORMAT, "bad nx '0'");
    vsg_with_header(b, len, "nx = 3\n", "nx = 4\n", VSG_E_FORMAT, "4 x 4 x 5 floats need");
    vsg_with_header(b, len, "nx = 3\n", "nx = 300000\n", VSG_E_FORMAT, "cannot fit");
    vsg_with_header(b, len, "spacing_y = 0.5\n", "spacing_y = -0.5\n", VSG_E_FORMAT,
                    "bad spacing_y");
    vsg_with_header(b, len, "origin_z = 3\n", "origin_z = nan\n", VSG_E_FORMAT, "bad origin_z");
    vsg_with_header(b, len, "units = kT/e\n", "units = 0123456789abcdef\n", VSG_E_FORMAT,
                    "too long");

    unsigned char *longer = malloc((size_t)len + 3);
    if (longer) {
        memcpy(longer, b, (size_t)len);
        memcpy(longer + len, "abc", 3);
        CHECK_STATUS(read_bytes_as_vsg(longer, (size_t)len + 3, "long.vsg"), VSG_E_FORMAT);
        CHECK_CONTAINS(vsg_last_error(), "after the last map");
        free(longer);
    }
    free(b);
}

/* ---- malformed and foreign .dx files --------------------------------------------------- */

static vsg_status read_text_as_dx(const char *text, const char *name, vsg_grid **out)
{
    const char *path = scratch_path(name);
    *out = NULL;
    if (!spit(path, text, strlen(text))) return VSG_E_IO;
    return vsg_grid_read(path, out);
}

#define DX_HEAD(counts, items)                                 \
    "object 1 class gridpositions counts " counts "\n"         \
    "origin 0 0 0\n"                                           \
    "delta 1 0 0\ndelta 0 1 0\ndelta 0 0 1\n"                  \
    "object 2 class gridconnections counts " counts "\n"       \
    "object 3 class array type double rank 0 items " items " data follows\n"
#define DX_TAIL "attribute \"dep\" string \"positions\"\n"

static void expect_dx_error(const char *text, const char *name, vsg_status want,
                            const char *needle)
{
    vsg_grid *g = NULL;
    CHECK_STATUS(read_text_as_dx(text, name, &g), want);
    CHECK(g == NULL);
    CHECK_CONTAINS(vsg_last_error(), name);
    CHECK_CONTAINS(vsg_last_error(), needle);
    vsg_grid_free(g);
}

static void test_dx_malformed(void)
{
    expect_dx_error(DX_HEAD("2 2 2", "8") "1 2 3\n4 5\n" DX_TAIL, "few.dx", VSG_E_FORMAT,
                    "only 5 of 8");
    expect_dx_error(DX_HEAD("2 2 2", "8") "1 2 3\n4 5\n", "trunc.dx", VSG_E_FORMAT, "only 5 of 8");
    expect_dx_error(DX_HEAD("2 2 2", "9") "1 2 3\n4 5 6\n7 8 9\n", "items.dx", VSG_E_FORMAT,
                    "9 items");
    expect_dx_error(DX_HEAD("2 2 2", "8") "1 2 3\n4 5 6\n7 8 9\n" DX_TAIL, "many.dx", VSG_E_FORMAT,
                    "more values");
    expect_dx_error(DX_HEAD("2 2 2", "8") "1 2 3\n4 abc 6\n7 8\n" DX_TAIL, "text.dx", VSG_E_FORMAT,
                    "text.dx:9: bad number 'abc'");
    expect_dx_error(DX_HEAD("2 2 2", "8") "1 2 3\n4 1.5e 6\n7 8\n" DX_TAIL, "num.dx",
                    VSG_E_FORMAT, "bad number '1.5e'");
    expect_dx_error(DX_HEAD("2 2 2", "8") "1 2 3\n4 nan 6\n7 8\n" DX_TAIL, "nan.dx", VSG_E_FORMAT,
                    "not a finite");
    expect_dx_error(DX_HEAD("2 2 2", "8") "1 2 3\n4 1e300 6\n7 8\n" DX_TAIL, "range.dx",
                    VSG_E_FORMAT, "not a finite float");
    expect_dx_error("object 1 class gridpositions counts 2 2 2\norigin 0 0 0\n"
                    "delta 1 0.5 0\ndelta 0 1 0\ndelta 0 0 1\n"
                    "object 3 class array type double rank 0 items 8 data follows\n",
                    "skew.dx", VSG_E_UNSUPPORTED, "orthogonal");
    expect_dx_error("object 1 class gridpositions counts 2 2 2\norigin 0 0 0\n"
                    "delta 0 1 0\ndelta 1 0 0\ndelta 0 0 1\n",
                    "perm.dx", VSG_E_UNSUPPORTED, "orthogonal");
    expect_dx_error("object 1 class gridpositions counts 2 2 2\norigin 0 0 0\n"
                    "delta 1 0 0\ndelta 0 1 0\ndelta 0 0 1\n"
                    "object 2 class gridconnections counts 2 2 3\n",
                    "conn.dx", VSG_E_FORMAT, "differ");
    expect_dx_error("object 1 class gridpositions counts 2 2 2\norigin 0 0 0\n"
                    "object 3 class array type double rank 0 items 8 data follows\n"
                    "1 2 3 4 5 6 7 8\n",
                    "nodelta.dx", VSG_E_FORMAT, "3 deltas");
    expect_dx_error(DX_HEAD("2 2 2", "8") "", "nodata.dx", VSG_E_FORMAT, "only 0 of 8");
    expect_dx_error("object 1 class gridpositions counts 2 2 2\norigin 0 0 0\n"
                    "delta 1 0 0\ndelta 0 1 0\ndelta 0 0 1\n"
                    "object 3 class array type float rank 1 shape 3 items 8 data follows\n",
                    "vector.dx", VSG_E_UNSUPPORTED, "rank 1");
    expect_dx_error("object 1 class gridpositions counts 2 2 2\norigin 0 zero 0\n", "origin.dx",
                    VSG_E_FORMAT, "origin.dx:2");
    expect_dx_error("object 1 class gridpositions counts 2 -2 2\n", "count.dx", VSG_E_FORMAT,
                    "bad grid count");
    expect_dx_error("", "empty.dx", VSG_E_FORMAT, "not an OpenDX file");
    expect_dx_error("hello world\n", "hello.dx", VSG_E_FORMAT, "unrecognised");

    /* Truncated gzip: in the middle of the values, and only the trailer missing. */
    double o[3] = {0, 0, 0}, h[3] = {1, 1, 1};
    vsg_grid *g = random_grid(6, 6, 6, o, h), *r = NULL;
    CHECK(g != NULL);
    if (!g) return;
    const char *gz = scratch_path("whole.dx.gz");
    CHECK_STATUS(vsg_grid_write(g, gz), VSG_OK);
    vsg_grid_free(g);
    long len;
    unsigned char *b = slurp(gz, &len);
    CHECK(b != NULL && len > 100);
    if (!b) return;
    const char *cut = scratch_path("cut.dx.gz");
    long cuts[3] = {len / 2, len - 4, len - 1};
    for (int c = 0; c < 3; c++) {
        CHECK(spit(cut, b, (size_t)cuts[c]));
        CHECK(vsg_grid_read(cut, &r) == VSG_E_FORMAT);
        CHECK(r == NULL);
        CHECK_CONTAINS(vsg_last_error(), "cut.dx.gz");
    }
    free(b);
}

/* The .dx writer formats values itself (printf is too slow for 27M values): its text must be
 * printf's "%.6e", over the whole float range, and read back to the same float. */
static void test_dx_numbers(void)
{
    int n[3] = {40, 50, 60};
    double o[3] = {0, 0, 0}, h[3] = {1, 1, 1};
    vsg_grid *g = vsg_grid_new(n, o, h, "kT/e");
    CHECK(g != NULL);
    if (!g) return;
    size_t nodes = vsg_grid_nodes(g);
    const float special[] = {0.0f, -0.0f, 1.0f, -1.0f, FLT_MAX, -FLT_MAX, FLT_MIN, 1e-45f,
                             3e-39f, 0.1f, 9.9999995e5f, 999999.94f, 1e7f, 10000005.0f,
                             16777215.0f, 123456.7f, 9.999999e-5f, 1e-10f, 5e-1f, 2.5e-6f};
    size_t ns = sizeof special / sizeof special[0];
    for (size_t i = 0; i < nodes; i++) {
        if (i < ns) {
            g->data[i] = special[i];
        } else {
            uint32_t bits = (uint32_t)(rnd() * 4294967296.0);
            float f;
            memcpy(&f, &bits, 4);
            g->data[i] = isfinite(f) ? f : (float)rnd();
        }
    }
    const char *path = scratch_path("numbers.dx");
    CHECK_STATUS(vsg_grid_write(g, path), VSG_OK);
    vsg_grid *r = NULL;
    CHECK_STATUS(vsg_grid_read(path, &r), VSG_OK);
    long len;
    char *text = (char *)slurp(path, &len);
    char *p = text ? strstr(text, "data follows\n") : NULL;
    CHECK(r != NULL && p != NULL);
    if (r && p) {
        p += strlen("data follows\n");
        size_t differ = 0, bad_value = 0;
        for (int i = 0; i < n[0]; i++)
            for (int j = 0; j < n[1]; j++)
                for (int k = 0; k < n[2]; k++) {
                    size_t at = (size_t)i + (size_t)n[0] * ((size_t)j + (size_t)n[1] * k);
                    char want[32];
                    int w = snprintf(want, sizeof want, "%.6e", (double)g->data[at]);
                    if (strncmp(p, want, (size_t)w) != 0 || (p[w] != ' ' && p[w] != '\n')) {
                        if (differ++ < 5)
                            fprintf(stderr, "  value %a: wrote '%.*s', printf '%s'\n",
                                    (double)g->data[at], w, p, want);
                    }
                    p = strpbrk(p, " \n");
                    if (!p) break;
                    p++;
                    if (r->data[at] != strtof(want, NULL)) bad_value++;
                }
        CHECK(differ == 0);
        CHECK(bad_value == 0);
    }
    free(text);
    vsg_grid_free(r);
    vsg_grid_free(g);
    remove(path);
}

/* What APBS and other writers produce: comments, "type float", ragged value lines, CRLF. */
static void test_dx_foreign(void)
{
    const char *text =
        "# Data from APBS 3.4.1\r\n"
        "#\r\n"
        "# POTENTIAL (kT/e)\r\n"
        "#\r\n"
        "object 1 class gridpositions counts 2 3 4\r\n"
        "origin -1.000000e+00 2.500000e+00 1.000000e-01\r\n"
        "delta 5.000000e-01 0.000000e+00 0.000000e+00\r\n"
        "delta 0.000000e+00 2.500000e-01 0.000000e+00\r\n"
        "delta 0.000000e+00 0.000000e+00 1.250000e+00\r\n"
        "object 2 class gridconnections counts 2 3 4\r\n"
        "object 3 class array type \"float\" rank 0 items 24 data follows\r\n"
        "0 1 2\r\n3\r\n10 11 12 13 20\r\n21\r\n  22   23\r\n"
        "100 101 102 103 110 111\r\n112 113 120 121 122 123\r\n"
        "attribute \"dep\" string \"positions\"\r\n"
        "object \"regular positions regular connections\" class field\r\n"
        "component \"positions\" value 1\r\n"
        "component \"connections\" value 2\r\n"
        "component \"data\" value 3";
    vsg_grid *g = NULL;
    CHECK_STATUS(read_text_as_dx(text, "apbs.dx", &g), VSG_OK);
    if (!g) return;
    CHECK(g->n[0] == 2 && g->n[1] == 3 && g->n[2] == 4);
    CHECK(g->origin[0] == -1.0 && g->origin[1] == 2.5 && g->origin[2] == 0.1);
    CHECK(g->spacing[0] == 0.5 && g->spacing[1] == 0.25 && g->spacing[2] == 1.25);
    CHECK(strcmp(g->units, "kT/e") == 0);
    int bad = 0;
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 3; j++)
            for (int k = 0; k < 4; k++)
                if (g->data[i + 2 * (j + 3 * k)] != (float)(100 * i + 10 * j + k)) bad++;
    CHECK(bad == 0);
    vsg_grid_free(g);
}

int main(void)
{
    test_new_and_meta();
    test_roundtrips();
    test_dispatch();
    test_interpolate();
    test_probe();
    test_corrupt_vsg();
    test_dx_malformed();
    test_dx_numbers();
    test_dx_foreign();
    CHECK_EXIT();
}
