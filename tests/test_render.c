/* test_render.c — the picture and mesh writers, checked by decoding what they wrote:
 * PNG (signature, chunk CRCs, inflate, un-filter, pixels equal), the red–white–blue colour
 * map at its anchors, the built-in font, binary PLY (header and exact byte sizes, records
 * decoded), the six-view mesh renderer (colours and shading on a sphere; speed on a few
 * million triangles) and the grid slice renderer (interpolation, outline, bad planes).
 * The seed is fresh each run and printed; VSG_TEST_SEED=<n> repeats a run. */
#define _POSIX_C_SOURCE 200809L /* getpid */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "engine/report/bitmap_font.h"
#include "check.h"
#include "engine/report/colormap.h"
#include "grids/base/vsgrid.h"
#include "grids/formats/grid.h"
#include "grids/receptor/molecule.h"
#include "testkit.h"

static const double PI = 3.14159265358979323846;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static uint8_t *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc(n > 0 ? (size_t)n : 1);
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) free(b), b = NULL;
    fclose(f);
    *len = (size_t)n;
    return b;
}

static uint32_t be32(const uint8_t *p) { return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]; }
static uint32_t le32(const uint8_t *p) { return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0]; }
static float lef(const uint8_t *p)
{
    uint32_t u = le32(p);
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* ---- a minimal PNG decoder, written from the spec, for 8-bit RGB non-interlaced ---------- */

static int paeth(int a, int b, int c)
{
    int p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
    return (pa <= pb && pa <= pc) ? a : pb <= pc ? b : c;
}

/* Returns the pixels (malloc'ed) or NULL after counting a failure; *filters gets a bit per
 * filter type used. */
static uint8_t *png_decode(const char *path, int *w, int *h, unsigned *filters)
{
    size_t len, zlen = 0;
    uint8_t *b = slurp(path, &len), *z = NULL, *raw = NULL, *rgb = NULL;
    static const uint8_t sig[8] = {137, 80, 78, 71, 13, 10, 26, 10};
    int seen_ihdr = 0, seen_iend = 0;
    CHECK(b != NULL);
    if (!b) return NULL;
    CHECK(len > 8 && !memcmp(b, sig, 8));
    z = malloc(len);
    for (size_t off = 8; off + 12 <= len && !seen_iend;) {
        uint32_t n = be32(b + off);
        if (off + 12 + n > len) {
            CHECK(!"chunk runs past the end of the file");
            break;
        }
        const uint8_t *type = b + off + 4, *data = b + off + 8;
        uint32_t crc = (uint32_t)crc32(crc32(0L, type, 4), data, n);
        CHECK(crc == be32(data + n));
        if (!memcmp(type, "IHDR", 4)) {
            CHECK(n == 13 && !seen_ihdr);
            *w = (int)be32(data), *h = (int)be32(data + 4);
            CHECK(data[8] == 8 && data[9] == 2 && data[10] == 0 && data[11] == 0 && data[12] == 0);
            seen_ihdr = 1;
        } else if (!memcmp(type, "IDAT", 4)) {
            CHECK(seen_ihdr);
            memcpy(z + zlen, data, n), zlen += n;
        } else if (!memcmp(type, "IEND", 4)) {
            CHECK(n == 0);
            seen_iend = 1;
            CHECK(off + 12 == len);   /* nothing after IEND */
        }
        off += 12 + n;
    }
    CHECK(seen_ihdr && seen_iend);
    if (seen_ihdr && seen_iend && *w > 0 && *h > 0) {
        size_t stride = (size_t)*w * 3;
        uLongf rawlen = (uLongf)(*h * (stride + 1));
        raw = malloc(rawlen);
        uLongf got = rawlen;
        CHECK(uncompress(raw, &got, z, zlen) == Z_OK);
        CHECK(got == rawlen);
        rgb = malloc(stride * *h);
        for (int y = 0; y < *h; y++) {
            const uint8_t *in = raw + y * (stride + 1);
            uint8_t *row = rgb + y * stride, *prev = y ? rgb + (y - 1) * stride : NULL;
            CHECK(in[0] <= 4);
            *filters |= 1u << in[0];
            for (size_t i = 0; i < stride; i++) {
                int a = i >= 3 ? row[i - 3] : 0, up = prev ? prev[i] : 0, c = (prev && i >= 3) ? prev[i - 3] : 0;
                int pred = in[0] == 0 ? 0 : in[0] == 1 ? a : in[0] == 2 ? up : in[0] == 3 ? (a + up) / 2 : paeth(a, up, c);
                row[i] = (uint8_t)(in[1 + i] + pred);
            }
        }
    }
    free(b), free(z), free(raw);
    return rgb;
}

static void test_png(const char *dir)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/render_small.png", dir);
    /* smooth gradients (Sub/Up/Paeth win), a flat band and noise (None wins) */
    int w = 37, h = 23;
    uint8_t *img = malloc((size_t)w * h * 3);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            uint8_t *p = img + 3 * (y * w + x);
            if (y < 8) p[0] = (uint8_t)(7 * x), p[1] = (uint8_t)(11 * y), p[2] = (uint8_t)(x + y);
            else if (y < 14) p[0] = 200, p[1] = 10, p[2] = 99;
            else p[0] = (uint8_t)(256 * urand()), p[1] = (uint8_t)(256 * urand()), p[2] = (uint8_t)(256 * urand());
        }
    CHECK_STATUS(vsg_png_write_rgb(path, img, w, h), VSG_OK);
    int dw = 0, dh = 0;
    unsigned filters = 0;
    uint8_t *back = png_decode(path, &dw, &dh, &filters);
    CHECK(dw == w && dh == h);
    if (back && dw == w && dh == h) CHECK(!memcmp(back, img, (size_t)w * h * 3));
    CHECK(filters & ~1u);   /* at least one row used a predicting filter */
    printf("png %dx%d: filters used mask 0x%x\n", w, h, filters);
    free(back);
    /* a large smooth image compresses well */
    int W = 600, H = 400;
    uint8_t *big = malloc((size_t)W * H * 3);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            uint8_t c[3];
            vsg_colormap_rwb(sin(x * 0.01) * cos(y * 0.013), -1, 1, c);
            memcpy(big + 3 * ((size_t)y * W + x), c, 3);
        }
    CHECK_STATUS(vsg_png_write_rgb(path, big, W, H), VSG_OK);
    size_t len;
    uint8_t *file = slurp(path, &len);
    printf("png %dx%d smooth: %zu bytes (raw %d, ratio %.1f)\n", W, H, len, W * H * 3, (double)W * H * 3 / (double)len);
    CHECK(len < (size_t)W * H * 3 / 10);
    free(file);
    back = png_decode(path, &dw, &dh, &filters);
    if (back) CHECK(!memcmp(back, big, (size_t)W * H * 3));
    free(back);
    free(big);
    /* bad arguments and unwritable paths fail with a message, no file */
    CHECK_STATUS(vsg_png_write_rgb(path, img, 0, 5), VSG_E_ARG);
    CHECK_STATUS(vsg_png_write_rgb("/nonexistent-dir/x.png", img, w, h), VSG_E_IO);
    CHECK_CONTAINS(vsg_last_error(), "/nonexistent-dir/x.png");
    free(img);
}

static void test_colormap(void)
{
    uint8_t c[3];
    vsg_colormap_rwb(-5, -5, 5, c);
    CHECK(c[0] == 255 && c[1] == 0 && c[2] == 0);
    vsg_colormap_rwb(0, -5, 5, c);
    CHECK(c[0] == 255 && c[1] == 255 && c[2] == 255);
    vsg_colormap_rwb(5, -5, 5, c);
    CHECK(c[0] == 0 && c[1] == 0 && c[2] == 255);
    vsg_colormap_rwb(NAN, -5, 5, c);
    CHECK(c[0] == 128 && c[1] == 128 && c[2] == 128);
    vsg_colormap_rwb(-1e30, -5, 5, c);   /* clamps */
    CHECK(c[0] == 255 && c[1] == 0 && c[2] == 0);
    vsg_colormap_rwb(INFINITY, -5, 5, c);
    CHECK(c[0] == 0 && c[1] == 0 && c[2] == 255);
    vsg_colormap_rwb(2.5, -5, 5, c);     /* halfway to blue */
    CHECK_NEAR(c[0], 127.5, 0.5);
    CHECK(c[0] == c[1] && c[2] == 255);
    vsg_colormap_rwb(-1, -2, 10, c);     /* asymmetric: white stays at 0 */
    CHECK_NEAR(c[1], 127.5, 0.5);
    CHECK(c[0] == 255 && c[1] == c[2]);
    vsg_colormap_rwb(2, 1, 3, c);        /* range without 0: white at the midpoint */
    CHECK(c[0] == 255 && c[1] == 255 && c[2] == 255);
    CHECK_NEAR(vsg_colormap_white_point(1, 3), 2.0, 0);
    vsg_colormap_rwb(1, 1, 1, c);        /* degenerate range */
    CHECK(c[0] == 255 && c[1] == 255 && c[2] == 255);
}

static void test_font(void)
{
    CHECK(vsg_font_text_width("kT/e", 2) == (4 * 6 - 1) * 2);
    CHECK(vsg_font_text_width("Å", 1) == 5);   /* UTF-8 Å is one character */
    CHECK(vsg_font_text_width("", 3) == 0);
    CHECK(vsg_font_text_height(2) == 18);
    uint8_t img[20 * 20 * 3];
    memset(img, 255, sizeof img);
    static const uint8_t black[3] = {0, 0, 0};
    vsg_font_draw(img, 20, 20, 1, 1, "1", 2, black);   /* glyph '1' has 10 ink pixels */
    int ink = 0;
    for (int i = 0; i < 20 * 20; i++) ink += img[3 * i] == 0;
    CHECK(ink == 40);
    vsg_font_draw(img, 20, 20, 15, 15, "kcal/mol/e -0.5e+03 xyz", 3, black);   /* clipped, no overrun */
}

/* ---- meshes ------------------------------------------------------------------------------ */

/* A closed UV sphere of radius r (poles on ±y), triangles counter-clockwise from outside. */
static vsg_mesh *uv_sphere(int nlat, int nlon, double r)
{
    vsg_mesh *m = calloc(1, sizeof *m);
    m->nvert = 2 + (size_t)(nlat - 1) * nlon;
    m->nface = 2 * (size_t)nlon * (nlat - 1);
    m->xyz = malloc(3 * m->nvert * sizeof(float));
    m->normal = malloc(3 * m->nvert * sizeof(float));
    m->atom = malloc(m->nvert * sizeof(int32_t));
    m->tri = malloc(3 * m->nface * sizeof(uint32_t));
    size_t v = 0, f = 0;
    float pn[2][3] = {{0, 1, 0}, {0, -1, 0}};
    for (int p = 0; p < 2; p++, v++)
        for (int d = 0; d < 3; d++) m->normal[3 * v + d] = pn[p][d], m->xyz[3 * v + d] = (float)r * pn[p][d];
    for (int i = 1; i < nlat; i++)
        for (int j = 0; j < nlon; j++, v++) {
            double th = PI * i / nlat, ph = 2 * PI * j / nlon;
            double n[3] = {sin(th) * cos(ph), cos(th), sin(th) * sin(ph)};
            for (int d = 0; d < 3; d++) m->normal[3 * v + d] = (float)n[d], m->xyz[3 * v + d] = (float)(r * n[d]);
        }
    for (size_t i = 0; i < m->nvert; i++) m->atom[i] = -1;
#define RING(i, j) (uint32_t)(2 + (size_t)((i) - 1) * nlon + (size_t)(((j) + nlon) % nlon))
    for (int j = 0; j < nlon; j++) {
        uint32_t t[3];
        t[0] = 0, t[1] = RING(1, j), t[2] = RING(1, j + 1);
        memcpy(m->tri + 3 * f++, t, sizeof t);
        t[0] = 1, t[1] = RING(nlat - 1, j), t[2] = RING(nlat - 1, j + 1);
        memcpy(m->tri + 3 * f++, t, sizeof t);
        for (int i = 1; i < nlat - 1; i++) {
            uint32_t a = RING(i, j), b = RING(i, j + 1), c = RING(i + 1, j), d = RING(i + 1, j + 1);
            uint32_t q1[3] = {a, c, b}, q2[3] = {b, c, d};
            memcpy(m->tri + 3 * f++, q1, sizeof q1);
            memcpy(m->tri + 3 * f++, q2, sizeof q2);
        }
    }
#undef RING
    /* orient: (b − a) × (c − a) along the outward position */
    for (size_t k = 0; k < m->nface; k++) {
        uint32_t *t = m->tri + 3 * k;
        const float *a = m->xyz + 3 * t[0], *b = m->xyz + 3 * t[1], *c = m->xyz + 3 * t[2];
        double e1[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, e2[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
        double n[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]};
        if (n[0] * (a[0] + b[0] + c[0]) + n[1] * (a[1] + b[1] + c[1]) + n[2] * (a[2] + b[2] + c[2]) < 0) {
            uint32_t s = t[1];
            t[1] = t[2], t[2] = s;
        }
    }
    return m;
}

static void mesh_free(vsg_mesh *m)
{
    if (!m) return;
    free(m->xyz), free(m->normal), free(m->atom), free(m->tri), free(m);
}

static void test_ply(const char *dir)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/render_sphere.ply", dir);
    vsg_mesh *m = uv_sphere(7, 11, 2.0);
    float *phi = malloc(m->nvert * sizeof *phi);
    for (size_t i = 0; i < m->nvert; i++) phi[i] = 3.0f * m->xyz[3 * i + 2];   /* -6..6 */
    CHECK_STATUS(vsg_ply_write(path, m, phi, -5, 5, "kT/e"), VSG_OK);
    size_t len;
    uint8_t *b = slurp(path, &len);
    CHECK(b != NULL);
    if (b) {
        const char *end = strstr((const char *)b, "end_header\n");
        CHECK(end != NULL);
        size_t header = end ? (size_t)(end - (const char *)b) + strlen("end_header\n") : 0;
        char *h = calloc(header + 1, 1);
        memcpy(h, b, header);
        CHECK(!strncmp(h, "ply\nformat binary_little_endian 1.0\n", 36));
        char want[256];
        snprintf(want, sizeof want, "element vertex %zu\n", m->nvert);
        CHECK_CONTAINS(h, want);
        snprintf(want, sizeof want, "element face %zu\n", m->nface);
        CHECK_CONTAINS(h, want);
        CHECK_CONTAINS(h, "comment generated by vsgrid");
        CHECK_CONTAINS(h, "comment potential units kT/e\n");
        CHECK_CONTAINS(h, "red -5 kT/e, white 0, blue 5 kT/e");
        CHECK_CONTAINS(h, "property float x\nproperty float y\nproperty float z\nproperty float nx\nproperty float ny\n"
                          "property float nz\nproperty float potential\nproperty uchar red\nproperty uchar green\n"
                          "property uchar blue\nelement face");
        CHECK_CONTAINS(h, "property list uchar int vertex_indices\nend_header\n");
        size_t expect = header + m->nvert * (7 * 4 + 3) + m->nface * (1 + 3 * 4);
        CHECK(len == expect);
        printf("ply: %zu vertices, %zu faces, header %zu bytes, file %zu bytes (expected %zu)\n", m->nvert, m->nface,
               header, len, expect);
        if (len == expect) {
            /* every record decodes to what the mesh holds */
            int bad = 0;
            for (size_t i = 0; i < m->nvert; i++) {
                const uint8_t *r = b + header + i * 31;
                for (int d = 0; d < 3; d++) bad += lef(r + 4 * d) != m->xyz[3 * i + d];
                for (int d = 0; d < 3; d++) bad += lef(r + 12 + 4 * d) != m->normal[3 * i + d];
                bad += lef(r + 24) != phi[i];
                uint8_t c[3];
                vsg_colormap_rwb(phi[i], -5, 5, c);
                bad += memcmp(r + 28, c, 3) != 0;
            }
            for (size_t k = 0; k < m->nface; k++) {
                const uint8_t *r = b + header + m->nvert * 31 + k * 13;
                bad += r[0] != 3;
                for (int d = 0; d < 3; d++) bad += le32(r + 1 + 4 * d) != m->tri[3 * k + d];
            }
            CHECK(bad == 0);
            /* the vertex at +z is blue-ish (φ = +6 clamps to blue) and its colour bytes say so */
        }
        free(h);
        free(b);
    }
    /* no potential: white; bad index: refused */
    CHECK_STATUS(vsg_ply_write(path, m, NULL, 0, 0, NULL), VSG_OK);
    b = slurp(path, &len);
    if (b) {
        const char *end = strstr((const char *)b, "end_header\n");
        size_t header = end ? (size_t)(end - (const char *)b) + 11 : 0;
        CHECK(len == header + m->nvert * 31 + m->nface * 13);
        if (len == header + m->nvert * 31 + m->nface * 13) CHECK(b[header + 28] == 255 && b[header + 30] == 255);
        free(b);
    }
    m->tri[5] = (uint32_t)m->nvert;
    CHECK_STATUS(vsg_ply_write(path, m, phi, -5, 5, "kT/e"), VSG_E_ARG);
    CHECK_STATUS(vsg_render_mesh_png(path, m, phi, -5, 5, "kT/e", 64), VSG_E_ARG);
    free(phi);
    mesh_free(m);
}

static const uint8_t *pixel(const uint8_t *rgb, int w, int x, int y) { return rgb + 3 * ((size_t)y * w + x); }

static void test_render_mesh(const char *dir)
{
    vsg_mesh *m = uv_sphere(40, 80, 10.0);
    float *phi = malloc(m->nvert * sizeof *phi);
    for (size_t i = 0; i < m->nvert; i++) phi[i] = 0.5f * m->xyz[3 * i + 2];   /* −5 at the back, +5 in front */
    uint8_t *rgb = NULL;
    int w = 0, h = 0, tile = 200;
    CHECK_STATUS(vsg_render_mesh_rgb(m, phi, -5, 5, "kT/e", tile, &rgb, &w, &h), VSG_OK);
    CHECK(w == 3 * tile && h > 2 * tile);
    if (rgb) {
        /* front tile (+z toward the viewer): φ = +5 at the centre → blue; back tile → red */
        const uint8_t *f = pixel(rgb, w, tile / 2, tile / 2), *bk = pixel(rgb, w, tile + tile / 2, tile / 2);
        printf("mesh: front centre rgb %d %d %d, back centre %d %d %d\n", f[0], f[1], f[2], bk[0], bk[1], bk[2]);
        CHECK(f[2] > f[0] + 100 && f[2] > 150);
        CHECK(bk[0] > bk[2] + 100 && bk[0] > 150);
        /* left (-x) and right (+x) views see φ ≈ 0 at the centre: near-white shaded grey, no hue */
        const uint8_t *l = pixel(rgb, w, 2 * tile + tile / 2, tile / 2);
        CHECK(abs(l[0] - l[2]) < 40 && l[1] > 100);
        /* right view (+x): front (+z) is on the left of the picture, so left half blue, right red */
        const uint8_t *rl = pixel(rgb, w, tile / 2 - tile / 5, tile + tile / 2), *rr = pixel(rgb, w, tile / 2 + tile / 5, tile + tile / 2);
        CHECK(rl[2] > rl[0] + 50 && rr[0] > rr[2] + 50);
        /* corners are background, not mesh */
        const uint8_t *bg = pixel(rgb, w, tile - 6, tile - 6);
        CHECK(bg[0] == 236 && bg[1] == 238 && bg[2] == 242);
        /* shading: the light comes from the upper left, so the upper-left limb is brighter */
        const uint8_t *ul = pixel(rgb, w, tile / 2 - tile / 4, tile / 2 - tile / 4), *lr = pixel(rgb, w, tile / 2 + tile / 4, tile / 2 + tile / 4);
        CHECK(ul[0] + ul[1] + ul[2] > lr[0] + lr[1] + lr[2]);
        /* the colour bar has pure red and pure blue pixels */
        int red = 0, blue = 0;
        for (int y = 2 * tile; y < h; y++)
            for (int x = 0; x < w; x++) {
                const uint8_t *p = pixel(rgb, w, x, y);
                red += p[0] > 240 && p[1] < 20 && p[2] < 20;
                blue += p[2] > 240 && p[0] < 20 && p[1] < 20;
            }
        CHECK(red > 10 && blue > 10);
    }
    free(rgb);
    char path[1200];
    snprintf(path, sizeof path, "%s/render_sphere.png", dir);
    CHECK_STATUS(vsg_render_mesh_png(path, m, phi, -5, 5, "kT/e", 0), VSG_OK);
    int dw = 0, dh = 0;
    unsigned filters = 0;
    uint8_t *back = png_decode(path, &dw, &dh, &filters);
    CHECK(dw == 3 * VSG_RENDER_TILE_DEFAULT && dh > 2 * VSG_RENDER_TILE_DEFAULT);
    free(back);
    CHECK_STATUS(vsg_render_mesh_png(path, m, NULL, 0, 0, NULL, 100), VSG_OK);   /* white, no bar */
    CHECK_STATUS(vsg_render_mesh_png(path, m, phi, -5, 5, "kT/e", 10), VSG_E_ARG);
    free(phi);
    mesh_free(m);

    /* speed: a sphere of about 4 million triangles, default tiles */
    m = uv_sphere(1000, 2000, 30.0);
    phi = malloc(m->nvert * sizeof *phi);
    for (size_t i = 0; i < m->nvert; i++) phi[i] = m->xyz[3 * i];
    double t0 = now();
    CHECK_STATUS(vsg_render_mesh_png(path, m, phi, -30, 30, "kcal/mol/e", 0), VSG_OK);
    double dt = now() - t0;
    printf("mesh: %zu triangles rendered (6 views of 400 px) and written in %.2f s\n", m->nface, dt);
    CHECK(dt < 30.0);
    free(phi);
    mesh_free(m);
}

static void test_render_slice(const char *dir)
{
    /* φ = x − 10 on a 21 × 17 × 9 grid with 1 Å spacing from the origin: the slice's left
     * edge is −10 (red), its middle 0 (white), its right edge +10 (blue) */
    int n[3] = {21, 17, 9};
    double origin[3] = {0, 0, 0}, h[3] = {1, 1, 1};
    vsg_grid *g = vsg_grid_new(n, origin, h, "kT/e");
    CHECK(g != NULL);
    if (!g) return;
    for (int k = 0; k < n[2]; k++)
        for (int j = 0; j < n[1]; j++)
            for (int i = 0; i < n[0]; i++) g->data[i + n[0] * (j + n[1] * k)] = (float)(i - 10);
    vsg_molecule *mol = vsg_molecule_new("test", "pqr");
    vsg_atom at;
    memset(&at, 0, sizeof at);
    at.x = 10, at.y = 8, at.z = 4.5, at.radius = 3.0;
    vsg_molecule_push(mol, &at);
    at.z = 20;   /* far from the plane: not cut */
    vsg_molecule_push(mol, &at);
    vsg_slice_options o;
    memset(&o, 0, sizeof o);
    o.axis = 2, o.position = 4.25, o.scale = 8, o.outline = mol, o.lo = -10, o.hi = 10;
    uint8_t *rgb = NULL;
    vsg_slice_report r;
    CHECK_STATUS(vsg_render_slice_rgb(g, &o, &rgb, &r), VSG_OK);
    if (rgb) {
        CHECK(r.plot_width == 21 * 8 && r.plot_height == 17 * 8);
        CHECK(r.atoms_cut == 1);
        CHECK_NEAR(r.vmin, -10, 1e-5);
        CHECK_NEAR(r.vmax, 10, 1e-5);
        /* the disc of radius sqrt(9 − 0.0625) Å = 23.9 px: outline ≈ its circumference */
        double circ = 2 * PI * sqrt(9 - 0.0625) * 8;
        printf("slice: %dx%d, outline %ld pixels (circumference %.0f)\n", r.width, r.height, r.outline_pixels, circ);
        CHECK(r.outline_pixels > 0.7 * circ && r.outline_pixels < 1.5 * circ);
        const uint8_t *left = pixel(rgb, r.width, r.plot_x + 1, r.plot_y + 5);
        const uint8_t *right = pixel(rgb, r.width, r.plot_x + r.plot_width - 2, r.plot_y + 5);
        const uint8_t *mid = pixel(rgb, r.width, r.plot_x + r.plot_width / 2, r.plot_y + 5);
        CHECK(left[0] == 255 && left[1] < 10 && left[2] < 10);
        CHECK(right[2] == 255 && right[0] < 10 && right[1] < 10);
        CHECK(mid[0] > 245 && mid[1] > 245 && mid[2] > 245);
        /* quarter way: φ = −5 interpolated → half red: green ≈ 127 */
        int qx = r.plot_x + (int)(5.0 * 8 + 4);   /* node 5 covers pixels 36..43 → centre at 40 */
        CHECK_NEAR(pixel(rgb, r.width, qx, r.plot_y + 5)[1], 127.5, 12);
        /* the disc's centre is inside (coloured, not black), its edge black */
        const uint8_t *cen = pixel(rgb, r.width, r.plot_x + 10 * 8 + 4, r.plot_y + r.plot_height - 1 - (8 * 8 + 4));
        CHECK(!(cen[0] == 0 && cen[1] == 0 && cen[2] == 0));
    }
    free(rgb);
    char path[1200];
    snprintf(path, sizeof path, "%s/render_slice.png", dir);
    o.lo = o.hi = 0, o.scale = 0;
    CHECK_STATUS(vsg_render_slice_png(path, g, &o, &r), VSG_OK);
    CHECK(r.hi > 0 && r.lo == -r.hi);   /* kT/e default: symmetric, from the slice's percentiles */
    CHECK(r.hi <= fmax(fabs(r.vmin), fabs(r.vmax)) + 1e-9);
    int dw = 0, dh = 0;
    unsigned filters = 0;
    uint8_t *back = png_decode(path, &dw, &dh, &filters);
    CHECK(dw == r.width && dh == r.height);
    free(back);
    /* potentials: symmetric at the larger of |2nd|, |98th percentile| (-96 and 96.5 here) */
    double lo, hi;
    float vals[200];
    for (int i = 0; i < 200; i++) vals[i] = (float)(i % 2 ? i : -i) / 2.0f;
    vsg_slice_auto_range("kcal/mol/e", vals, 200, &lo, &hi);
    CHECK_NEAR(hi, 96.5, 1e-9);
    CHECK(lo == -hi);
    vsg_slice_auto_range("kT/e", vals, 200, &lo, &hi);
    CHECK_NEAR(hi, 96.5, 1e-9);
    /* an affinity map (kcal/mol): 30% clamped repulsion at 1e5 inside atoms must not set the
     * scale; symmetric at the 2nd percentile (-0.96 here) */
    for (int i = 0; i < 200; i++) vals[i] = i < 60 ? 1e5f : -(float)(i - 60) / 140.0f;
    vsg_slice_auto_range("kcal/mol", vals, 200, &lo, &hi);
    CHECK(lo < -0.9 && lo > -1.0);
    CHECK(hi == -lo);
    /* all non-negative (a desolvation map): 2nd..98th percentile */
    for (int i = 0; i < 200; i++) vals[i] = (float)i;
    vsg_slice_auto_range("kcal/mol", vals, 200, &lo, &hi);
    CHECK_NEAR(lo, 3, 1e-9);
    CHECK_NEAR(hi, 196, 1e-9);
    /* planes outside the grid, bad axis and scale */
    o.position = 8.5;
    CHECK_STATUS(vsg_render_slice_png(path, g, &o, &r), VSG_E_ARG);
    CHECK_CONTAINS(vsg_last_error(), "outside the grid");
    o.position = 8.0;   /* the last plane is inside */
    CHECK_STATUS(vsg_render_slice_png(path, g, &o, &r), VSG_OK);
    o.axis = 3;
    CHECK_STATUS(vsg_render_slice_png(path, g, &o, &r), VSG_E_ARG);
    o.axis = 0, o.position = 3, o.scale = 65;
    CHECK_STATUS(vsg_render_slice_png(path, g, &o, &r), VSG_E_ARG);
    o.scale = 1, o.outline = NULL;
    CHECK_STATUS(vsg_render_slice_rgb(g, &o, &rgb, &r), VSG_OK);
    CHECK(r.plot_width == 17 && r.plot_height == 9);   /* x slice shows y (17) by z (9) */
    free(rgb);
    vsg_molecule_free(mol);
    vsg_grid_free(g);
}

int main(void)
{
    testkit_seed();
    const char *dir = VSG_BINARY_DIR;
    test_png(dir);
    test_colormap();
    test_font();
    test_ply(dir);
    test_render_mesh(dir);
    test_render_slice(dir);
    CHECK_EXIT();
}
