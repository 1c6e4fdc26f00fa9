/* render_mesh.c — z-buffered orthographic rasteriser for the six standard views of a mesh.
 *
 * Visibility first, shading after (deferred shading): every triangle is rasterised into a
 * per-tile depth buffer that remembers the nearest triangle and its barycentric weights at
 * each pixel centre; then each visible pixel is shaded once. With millions of triangles
 * most are smaller than a pixel, so the first pass is a few edge tests per triangle and the
 * cost of shading does not grow with the overdraw. Triangles are drawn two-sided (no
 * back-face culling), so a mesh with a few inverted faces still renders whole. The six
 * views are independent: one OpenMP thread each. */
#include "grids/base/vsgrid.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/report/bitmap_font.h"
#include "engine/report/colormap.h"

#define NVIEWS 6

/* Camera frames: right × up = toward the viewer, so every view is a proper rotation and a
 * counter-clockwise triangle seen from outside stays counter-clockwise on screen. */
typedef struct {
    const char *name;
    float right[3], up[3], toward[3];
} view;

static const view views[NVIEWS] = {
    {"front (+z)", {1, 0, 0}, {0, 1, 0}, {0, 0, 1}},
    {"back (-z)", {-1, 0, 0}, {0, 1, 0}, {0, 0, -1}},
    {"left (-x)", {0, 0, 1}, {0, 1, 0}, {-1, 0, 0}},
    {"right (+x)", {0, 0, -1}, {0, 1, 0}, {1, 0, 0}},
    {"top (+y)", {1, 0, 0}, {0, 0, -1}, {0, 1, 0}},
    {"bottom (-y)", {1, 0, 0}, {0, 0, 1}, {0, -1, 0}},
};

static const uint8_t background[3] = {236, 238, 242};  /* light grey-blue: white means φ = 0 */
static const uint8_t separator[3] = {170, 170, 180};
static const uint8_t ink[3] = {0, 0, 0};

static float dot3(const float a[3], const float *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

typedef struct {
    float *depth;        /* larger = nearer the viewer; -FLT_MAX = empty */
    uint32_t *face;      /* nearest face at the pixel */
    float *w1, *w2;      /* barycentric weights of the face's 2nd and 3rd vertex */
} tile_buffers;

/* Pass 1: nearest face per pixel centre. centre: the mesh's centre; scale: pixels per Å. */
static void rasterise(const vsg_mesh *m, const view *v, const float centre[3], float scale, int tile,
                      tile_buffers *b)
{
    float half = 0.5f * (float)tile;
    for (size_t f = 0; f < m->nface; f++) {
        float sx[3], sy[3], sz[3];
        for (int k = 0; k < 3; k++) {
            const float *p = m->xyz + 3 * (size_t)m->tri[3 * f + k];
            float q[3] = {p[0] - centre[0], p[1] - centre[1], p[2] - centre[2]};
            sx[k] = half + scale * dot3(v->right, q);
            sy[k] = half - scale * dot3(v->up, q);   /* image rows grow downwards */
            sz[k] = dot3(v->toward, q);
        }
        float area = (sx[1] - sx[0]) * (sy[2] - sy[0]) - (sx[2] - sx[0]) * (sy[1] - sy[0]);
        if (!(fabsf(area) > 1e-12f)) continue;   /* edge-on, degenerate or NaN */
        float xmin = fminf(sx[0], fminf(sx[1], sx[2])), xmax = fmaxf(sx[0], fmaxf(sx[1], sx[2]));
        float ymin = fminf(sy[0], fminf(sy[1], sy[2])), ymax = fmaxf(sy[0], fmaxf(sy[1], sy[2]));
        if (!(xmax >= 0.0f && ymax >= 0.0f && xmin <= (float)tile && ymin <= (float)tile)) continue; /* off-tile */
        xmin = fmaxf(xmin, 0.0f), ymin = fmaxf(ymin, 0.0f);   /* keep the int conversions in range */
        xmax = fminf(xmax, (float)tile), ymax = fminf(ymax, (float)tile);
        /* pixel centres at i + 0.5 inside the box */
        int x0 = (int)ceilf(xmin - 0.5f), x1 = (int)floorf(xmax - 0.5f);
        int y0 = (int)ceilf(ymin - 0.5f), y1 = (int)floorf(ymax - 0.5f);
        if (x0 < 0) x0 = 0;
        if (y0 < 0) y0 = 0;
        if (x1 > tile - 1) x1 = tile - 1;
        if (y1 > tile - 1) y1 = tile - 1;
        if (x0 > x1 || y0 > y1) continue;
        float inv = 1.0f / area;
        for (int y = y0; y <= y1; y++) {
            float py = (float)y + 0.5f;
            for (int x = x0; x <= x1; x++) {
                float px = (float)x + 0.5f;
                /* barycentric weights from signed sub-areas; same sign as area = inside */
                float a1 = ((sx[2] - sx[0]) * (py - sy[0]) - (px - sx[0]) * (sy[2] - sy[0])) * -inv;
                float a2 = ((sx[1] - sx[0]) * (py - sy[0]) - (px - sx[0]) * (sy[1] - sy[0])) * inv;
                float a0 = 1.0f - a1 - a2;
                if (a0 < -1e-6f || a1 < -1e-6f || a2 < -1e-6f) continue;
                float z = a0 * sz[0] + a1 * sz[1] + a2 * sz[2];
                size_t i = (size_t)y * tile + x;
                if (z > b->depth[i]) {
                    b->depth[i] = z;
                    b->face[i] = (uint32_t)f;
                    b->w1[i] = a1;
                    b->w2[i] = a2;
                }
            }
        }
    }
}

/* Pass 2: colour, normal and Lambert + ambient shading of each covered pixel, into the tile
 * at (ox, oy) of the picture. */
static void shade(const vsg_mesh *m, const uint8_t *vcolor, const view *v, int tile, const tile_buffers *b,
                  uint8_t *rgb, int width, int ox, int oy)
{
    /* light from the viewer's upper left, a little in front */
    float light[3];
    float lv[3] = {-0.35f, 0.45f, 1.0f}, ln = sqrtf(lv[0] * lv[0] + lv[1] * lv[1] + lv[2] * lv[2]);
    for (int d = 0; d < 3; d++) light[d] = (lv[0] * v->right[d] + lv[1] * v->up[d] + lv[2] * v->toward[d]) / ln;
    for (int y = 0; y < tile; y++)
        for (int x = 0; x < tile; x++) {
            size_t i = (size_t)y * tile + x;
            uint8_t *out = rgb + 3 * ((size_t)(oy + y) * width + ox + x);
            if (b->depth[i] == -FLT_MAX) {
                memcpy(out, background, 3);
                continue;
            }
            const uint32_t *t = m->tri + 3 * (size_t)b->face[i];
            float w[3] = {1.0f - b->w1[i] - b->w2[i], b->w1[i], b->w2[i]};
            float n[3] = {0, 0, 0}, c[3] = {0, 0, 0};
            for (int k = 0; k < 3; k++)
                for (int d = 0; d < 3; d++) {
                    n[d] += w[k] * m->normal[3 * (size_t)t[k] + d];
                    c[d] += w[k] * vcolor[3 * (size_t)t[k] + d];
                }
            float nn = sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
            float lambert = nn > 0.0f ? fabsf(dot3(light, n)) / nn : 1.0f;   /* two-sided */
            float k = 0.4f + 0.6f * lambert;
            for (int d = 0; d < 3; d++) {
                float val = c[d] * k;
                out[d] = (uint8_t)(val > 255.0f ? 255.0f : val + 0.5f);
            }
        }
}

static void fill_rect(uint8_t *rgb, int width, int height, int x0, int y0, int w, int h, const uint8_t c[3])
{
    for (int y = y0 < 0 ? 0 : y0; y < y0 + h && y < height; y++)
        for (int x = x0 < 0 ? 0 : x0; x < x0 + w && x < width; x++) memcpy(rgb + 3 * ((size_t)y * width + x), c, 3);
}

vsg_status vsg_render_mesh_rgb(const vsg_mesh *m, const float *potential, double lo, double hi, const char *units,
                               int tile, uint8_t **rgb_out, int *width_out, int *height_out)
{
    if (!m || !rgb_out || !width_out || !height_out) return vsg_fail(VSG_E_ARG, "vsg_render_mesh_rgb: missing argument");
    *rgb_out = NULL;
    if (tile <= 0) tile = VSG_RENDER_TILE_DEFAULT;
    if (tile < 32 || tile > 4096) return vsg_fail(VSG_E_ARG, "render: tile size %d pixels outside 32..4096", tile);
    if ((m->nvert && (!m->xyz || !m->normal)) || (m->nface && !m->tri))
        return vsg_fail(VSG_E_ARG, "render: mesh arrays missing");
    if (m->nface > UINT32_MAX) return vsg_fail(VSG_E_ARG, "render: %zu faces is too many", m->nface);
    for (size_t i = 0; i < 3 * m->nface; i++)
        if (m->tri[i] >= m->nvert)
            return vsg_fail(VSG_E_ARG, "render: face %zu names vertex %u but the mesh has %zu", i / 3,
                            (unsigned)m->tri[i], m->nvert);

    /* one scale for all views: the largest box edge fills 90% of a tile */
    float lo3[3] = {FLT_MAX, FLT_MAX, FLT_MAX}, hi3[3] = {-FLT_MAX, -FLT_MAX, -FLT_MAX};
    for (size_t i = 0; i < m->nvert; i++)
        for (int d = 0; d < 3; d++) {
            float x = m->xyz[3 * i + d];
            if (!isfinite(x)) continue;
            lo3[d] = fminf(lo3[d], x);
            hi3[d] = fmaxf(hi3[d], x);
        }
    float centre[3], extent = 0.0f;
    for (int d = 0; d < 3; d++) {
        if (lo3[d] > hi3[d]) lo3[d] = hi3[d] = 0.0f;
        centre[d] = 0.5f * (lo3[d] + hi3[d]);
        extent = fmaxf(extent, hi3[d] - lo3[d]);
    }
    float scale = extent > 0.0f ? 0.9f * (float)tile / extent : 1.0f;

    int fs = tile >= 300 ? 2 : 1;   /* font scale */
    int bar_h = 6 * (fs + 1);
    int strip = potential ? vsg_colorbar_height(bar_h, fs) + 8 * fs + 6 : 0;
    int width = 3 * tile, height = 2 * tile + strip;
    uint8_t *rgb = malloc((size_t)width * height * 3);
    uint8_t *vcolor = malloc(3 * (m->nvert ? m->nvert : 1));
    int nthreads = 1;
#ifdef _OPENMP
    nthreads = NVIEWS;
#endif
    size_t npix = (size_t)tile * tile;
    tile_buffers *tb = calloc((size_t)nthreads, sizeof *tb);
    int nomem = !rgb || !vcolor || !tb;
    for (int t = 0; !nomem && t < nthreads; t++) {
        tb[t].depth = malloc(npix * sizeof(float));
        tb[t].face = malloc(npix * sizeof(uint32_t));
        tb[t].w1 = malloc(npix * sizeof(float));
        tb[t].w2 = malloc(npix * sizeof(float));
        nomem = !tb[t].depth || !tb[t].face || !tb[t].w1 || !tb[t].w2;
    }
    if (nomem) {
        for (int t = 0; tb && t < nthreads; t++) free(tb[t].depth), free(tb[t].face), free(tb[t].w1), free(tb[t].w2);
        free(tb), free(rgb), free(vcolor);
        return vsg_fail(VSG_E_NOMEM, "render: out of memory for a %d x %d picture", width, height);
    }
    for (size_t i = 0; i < m->nvert; i++) {
        if (potential) vsg_colormap_rwb(potential[i], lo, hi, vcolor + 3 * i);
        else vcolor[3 * i] = vcolor[3 * i + 1] = vcolor[3 * i + 2] = 255;
    }
    fill_rect(rgb, width, height, 0, 0, width, height, background);

#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, 1) num_threads(NVIEWS)
#endif
    for (int vi = 0; vi < NVIEWS; vi++) {
        int t = 0;
#ifdef _OPENMP
        t = vi;
#endif
        tile_buffers *b = &tb[t];
        for (size_t i = 0; i < npix; i++) b->depth[i] = -FLT_MAX;
        rasterise(m, &views[vi], centre, scale, tile, b);
        shade(m, vcolor, &views[vi], tile, b, rgb, width, (vi % 3) * tile, (vi / 3) * tile);
    }

    /* frames between tiles, labels, colour bar */
    fill_rect(rgb, width, height, tile - 1, 0, 1, 2 * tile, separator);
    fill_rect(rgb, width, height, 2 * tile - 1, 0, 1, 2 * tile, separator);
    fill_rect(rgb, width, height, 0, tile - 1, width, 1, separator);
    fill_rect(rgb, width, height, 0, 2 * tile - 1, width, 1, separator);
    for (int vi = 0; vi < NVIEWS; vi++)
        vsg_font_draw(rgb, width, height, (vi % 3) * tile + 4 * fs, (vi / 3) * tile + 4 * fs, views[vi].name, fs, ink);
    if (potential) {
        int bar_w = (3 * tile) / 2;
        vsg_colorbar_draw(rgb, width, height, (width - bar_w) / 2, 2 * tile + 6 * fs, bar_w, bar_h, lo, hi, units, fs);
    }
    for (int t = 0; t < nthreads; t++) free(tb[t].depth), free(tb[t].face), free(tb[t].w1), free(tb[t].w2);
    free(tb);
    free(vcolor);
    *rgb_out = rgb;
    *width_out = width;
    *height_out = height;
    return VSG_OK;
}

vsg_status vsg_render_mesh_png(const char *path, const vsg_mesh *m, const float *potential, double lo, double hi,
                               const char *units, int tile)
{
    uint8_t *rgb;
    int w, h;
    vsg_status st = vsg_render_mesh_rgb(m, potential, lo, hi, units, tile, &rgb, &w, &h);
    if (st != VSG_OK) return st;
    st = vsg_png_write_rgb(path, rgb, w, h);
    free(rgb);
    return st;
}
