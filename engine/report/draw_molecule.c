/* draw_molecule.c — ligand poses over a slice picture. Strokes go into a layer of colour and
 * opacity over the plot (painter's order: later strokes replace earlier ones), composited onto
 * the map once, so that overlapping strokes of one pose never darken each other and the map
 * shows through a faded atom exactly as much as its opacity says. Per pose: a white halo
 * under all its bonds and atoms (first pose only), the bonds, then the atoms farthest from the
 * plane first, so the atoms in the plane are on top. */
#include "engine/report/draw_molecule.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/report/bitmap_font.h"
#include "engine/report/render_slice.h"

typedef struct {
    uint8_t rgb[3];
    float alpha;   /* 0 = nothing drawn here */
} layer_pixel;

typedef struct {
    layer_pixel *px;
    int w, h;
} layer;

static const uint8_t white[3] = {255, 255, 255};

void vsg_pose_carbon_color(int style, uint8_t rgb[3])
{
    static const uint8_t carbon[4][3] = {{64, 64, 64}, {0, 140, 140}, {130, 60, 190}, {150, 100, 30}};
    memcpy(rgb, carbon[(style < 0 ? 0 : style) % 4], 3);
}

void vsg_element_color(const char *element, int carbon_style, uint8_t rgb[3])
{
    static const struct {
        const char *el;
        uint8_t rgb[3];
    } table[] = {
        {"N", {40, 70, 240}},  {"O", {230, 0, 0}},    {"S", {230, 200, 0}},   {"P", {255, 128, 0}},
        {"F", {20, 170, 20}},  {"Cl", {20, 170, 20}}, {"Br", {20, 170, 20}},  {"I", {20, 170, 20}},
        {"H", {200, 200, 200}}, {"D", {200, 200, 200}},
    };
    if (!strcmp(element, "C")) {
        vsg_pose_carbon_color(carbon_style, rgb);
        return;
    }
    for (size_t k = 0; k < sizeof table / sizeof table[0]; k++)
        if (!strcmp(element, table[k].el)) {
            memcpy(rgb, table[k].rgb, 3);
            return;
        }
    static const uint8_t other[3] = {255, 80, 180};
    memcpy(rgb, other, 3);
}

static int is_hydrogen(const vsg_lig_atom *a) { return !strcmp(a->element, "H") || !strcmp(a->element, "D"); }

/* Opacity of a stroke at this distance from the plane (VSG_POSE_NEAR/FAR). */
static float depth_alpha(double depth)
{
    double d = fabs(depth);
    if (d <= VSG_POSE_NEAR) return 1.0f;
    if (d >= VSG_POSE_FAR) return (float)VSG_POSE_FAR_ALPHA;
    return (float)(1.0 - (1.0 - VSG_POSE_FAR_ALPHA) * (d - VSG_POSE_NEAR) / (VSG_POSE_FAR - VSG_POSE_NEAR));
}

void vsg_slice_project(const vsg_slice_frame *f, const double xyz[3], double *col, double *row, double *depth)
{
    int a = f->axis, u = a == 0 ? 1 : 0, v = a == 2 ? 1 : 2;
    const vsg_grid_shape *g = &f->shape;
    const vsg_slice_report *r = &f->report;
    /* as render_slice.c: pixel i has its centre at node index (i + 0.5)/s − 0.5, rows count down */
    double s = (double)r->plot_width / g->n[u];
    *col = r->plot_x + ((xyz[u] - g->origin[u]) / g->spacing[u] + 0.5) * s - 0.5;
    *row = r->plot_y + r->plot_height - 0.5 - ((xyz[v] - g->origin[v]) / g->spacing[v] + 0.5) * s;
    *depth = xyz[a] - f->position;
}

static void put(layer *L, int i, int j, const uint8_t c[3], float alpha)
{
    if (i < 0 || j < 0 || i >= L->w || j >= L->h) return;
    layer_pixel *p = &L->px[(size_t)j * L->w + i];
    memcpy(p->rgb, c, 3);
    p->alpha = alpha;
}

/* A disc (ring_inner < 0) or a ring of radius rad centred at (ci, cj), layer pixels. */
static void disc(layer *L, double ci, double cj, double rad, double ring_inner, const uint8_t c[3], float alpha)
{
    int i0 = (int)fmax(floor(ci - rad), -1.0), i1 = (int)fmin(ceil(ci + rad), L->w);
    int j0 = (int)fmax(floor(cj - rad), -1.0), j1 = (int)fmin(ceil(cj + rad), L->h);
    for (int j = j0; j <= j1; j++)
        for (int i = i0; i <= i1; i++) {
            double d2 = (i - ci) * (i - ci) + (j - cj) * (j - cj);
            if (d2 <= rad * rad && (ring_inner < 0.0 || d2 >= ring_inner * ring_inner)) put(L, i, j, c, alpha);
        }
}

typedef struct {
    double ci, cj, depth;   /* layer pixel position and distance from the plane (Å) */
    uint8_t rgb[3];
} point;

/* A line of half-width hw from p to q: each half in its end's colour (colour NULL), or all in
 * `color`; opacity from the depth interpolated along the line, times scale. */
static void segment(layer *L, const point *p, const point *q, double hw, const uint8_t *color, float scale)
{
    double dx = q->ci - p->ci, dy = q->cj - p->cj, len2 = dx * dx + dy * dy;
    int i0 = (int)fmax(floor(fmin(p->ci, q->ci) - hw), -1.0), i1 = (int)fmin(ceil(fmax(p->ci, q->ci) + hw), L->w);
    int j0 = (int)fmax(floor(fmin(p->cj, q->cj) - hw), -1.0), j1 = (int)fmin(ceil(fmax(p->cj, q->cj) + hw), L->h);
    for (int j = j0; j <= j1; j++)
        for (int i = i0; i <= i1; i++) {
            double t = len2 > 0.0 ? ((i - p->ci) * dx + (j - p->cj) * dy) / len2 : 0.0;
            t = t < 0.0 ? 0.0 : t > 1.0 ? 1.0 : t;
            double ex = p->ci + t * dx - i, ey = p->cj + t * dy - j;
            if (ex * ex + ey * ey > hw * hw) continue;
            const uint8_t *c = color ? color : t < 0.5 ? p->rgb : q->rgb;
            put(L, i, j, c, scale * depth_alpha(p->depth + t * (q->depth - p->depth)));
        }
}

static const point *sort_points;
static int cmp_farther_first(const void *a, const void *b)
{
    double x = fabs(sort_points[*(const int *)a].depth), y = fabs(sort_points[*(const int *)b].depth);
    return (x < y) - (x > y);
}

/* One pose into the layer. Returns its drawn atoms inside the plot, or -1 (out of memory). */
static int draw_pose(layer *L, const vsg_slice_frame *f, const vsg_ligand *lig, int first, int hydrogens,
                     int carbon_style)
{
    const vsg_slice_report *r = &f->report;
    int n = lig->natoms, in_view = 0, *pairs = NULL, nb = 0, *order = malloc((size_t)(n ? n : 1) * sizeof *order);
    point *pt = malloc((size_t)(n ? n : 1) * sizeof *pt);
    /* a record without a bond table (PDBQT): bonds by distance, Open Babel's rule */
    if (lig->nbonds == 0 && n > 1 && vsg_ligand_bonds_by_distance(lig, &pairs, &nb) != VSG_OK) nb = -1;
    if (!order || !pt || nb < 0) {
        free(order), free(pt), free(pairs);
        return -1;
    }
    if (lig->nbonds > 0) nb = lig->nbonds;
    int u = f->axis == 0 ? 1 : 0;
    double per_angstrom = (double)r->plot_width / f->shape.n[u] / f->shape.spacing[u];
    /* sizes in pixels: atoms 0.3 Å, lines 0.18 Å wide, with a floor so coarse pictures show them */
    double rad = fmin(fmax(0.3 * per_angstrom, 2.5), 12.0), hw = fmin(fmax(0.09 * per_angstrom, 0.8), 4.0);
    double halo = 1.2;
    int shown = 0;
    for (int k = 0; k < n; k++) {
        const vsg_lig_atom *a = &lig->atoms[k];
        double xyz[3] = {a->x, a->y, a->z};
        vsg_slice_project(f, xyz, &pt[k].ci, &pt[k].cj, &pt[k].depth);
        pt[k].ci -= r->plot_x, pt[k].cj -= r->plot_y;
        vsg_element_color(a->element, carbon_style, pt[k].rgb);
        if (!hydrogens && is_hydrogen(a)) continue;
        order[shown++] = k;
        if (pt[k].ci > -0.5 && pt[k].ci < L->w - 0.5 && pt[k].cj > -0.5 && pt[k].cj < L->h - 0.5) in_view++;
    }
    sort_points = pt;
    qsort(order, (size_t)shown, sizeof *order, cmp_farther_first);
    float scale = first ? 1.0f : (float)VSG_POSE_LATER_ALPHA;
    for (int pass = first ? 0 : 1; pass < 3; pass++) {
        if (pass < 2)
            for (int b = 0; b < nb; b++) {
                int i = lig->nbonds > 0 ? lig->bonds[b].a : pairs[2 * b], j = lig->nbonds > 0 ? lig->bonds[b].b : pairs[2 * b + 1];
                if (i < 0 || j < 0 || i >= n || j >= n) continue;
                if (!hydrogens && (is_hydrogen(&lig->atoms[i]) || is_hydrogen(&lig->atoms[j]))) continue;
                if (pass == 0) segment(L, &pt[i], &pt[j], hw + halo, white, scale);
                else segment(L, &pt[i], &pt[j], first ? hw : 0.6 * hw, NULL, scale);
            }
        if (pass == 1) continue;
        for (int s = 0; s < shown; s++) {
            const point *p = &pt[order[s]];
            float alpha = scale * depth_alpha(p->depth);
            if (pass == 0) disc(L, p->ci, p->cj, rad + halo, -1.0, white, alpha);
            else if (first) disc(L, p->ci, p->cj, rad, -1.0, p->rgb, alpha);
            else disc(L, p->ci, p->cj, rad, rad - 1.2, p->rgb, alpha);
        }
    }
    free(order), free(pt), free(pairs);
    return in_view;
}

int vsg_draw_poses(uint8_t *rgb, const vsg_slice_frame *f, const vsg_ligand *poses, int nposes, int hydrogens,
                   int carbon_style)
{
    const vsg_slice_report *r = &f->report;
    layer L = {calloc((size_t)r->plot_width * r->plot_height, sizeof(layer_pixel)), r->plot_width, r->plot_height};
    if (!L.px) return -1;
    int in_view = 0;
    for (int k = nposes - 1; k >= 0 && in_view >= 0; k--) {   /* the first pose last, on top */
        int v = draw_pose(&L, f, &poses[k], k == 0, hydrogens, carbon_style);
        in_view = v < 0 ? -1 : in_view + v;
    }
    for (int j = 0; in_view >= 0 && j < L.h; j++)
        for (int i = 0; i < L.w; i++) {
            const layer_pixel *p = &L.px[(size_t)j * L.w + i];
            if (p->alpha <= 0.0f) continue;
            uint8_t *out = rgb + 3 * ((size_t)(r->plot_y + j) * r->width + r->plot_x + i);
            for (int c = 0; c < 3; c++) out[c] = (uint8_t)lrintf(p->alpha * p->rgb[c] + (1.0f - p->alpha) * out[c]);
        }
    free(L.px);
    return in_view;
}

/* A legend disc of colour c, diameter th, at (x, y) top-left. */
static void legend_disc(uint8_t *rgb, int width, int x, int y, int th, const uint8_t c[3])
{
    double rad = 0.4 * th, ci = x + 0.5 * th, cj = y + 0.5 * th;
    for (int j = y; j < y + th; j++)
        for (int i = x; i < x + th && i < width; i++)
            if ((i - ci) * (i - ci) + (j - cj) * (j - cj) <= rad * rad) memcpy(rgb + 3 * ((size_t)j * width + i), c, 3);
}

vsg_status vsg_slice_add_legend(uint8_t **rgb, vsg_slice_report *r, const char *const *text, const int *styles,
                                int n)
{
    static const uint8_t black[3] = {0, 0, 0};
    static const char *const key[] = {"C", "N", "O", "S", "P", "F Cl Br I"};
    int fs = vsg_slice_font_scale(r->plot_width, r->plot_height), th = vsg_font_text_height(fs), gap = 4 * fs;
    int x0 = r->plot_x, width = r->width;
    for (int k = 0; k < n; k++) {
        int w = x0 + th + gap + vsg_font_text_width(text[k], fs) + gap;
        if (w > width) width = w;
    }
    int key_w = x0;
    for (size_t k = 0; k < sizeof key / sizeof key[0]; k++) key_w += th + gap / 2 + vsg_font_text_width(key[k], fs) + 2 * gap;
    if (key_w > width) width = key_w;
    int line = th + gap, height = r->height + (n + 1) * line + gap;
    uint8_t *out = malloc((size_t)width * height * 3);
    if (!out) return vsg_fail(VSG_E_NOMEM, "slice legend: out of memory for a %d x %d picture", width, height);
    memset(out, 255, (size_t)width * height * 3);
    for (int j = 0; j < r->height; j++) memcpy(out + 3 * (size_t)j * width, *rgb + 3 * (size_t)j * r->width, 3 * (size_t)r->width);
    int y = r->height;
    for (int k = 0; k < n; k++, y += line) {
        uint8_t c[3];
        vsg_pose_carbon_color(styles[k], c);
        legend_disc(out, width, x0, y, th, c);
        vsg_font_draw(out, width, height, x0 + th + gap, y, text[k], fs, black);
    }
    int x = x0;
    for (size_t k = 0; k < sizeof key / sizeof key[0]; k++) {
        uint8_t c[3];
        vsg_element_color(k + 1 < sizeof key / sizeof key[0] ? key[k] : "Cl", 0, c);
        legend_disc(out, width, x, y, th, c);
        x += th + gap / 2;
        vsg_font_draw(out, width, height, x, y, key[k], fs, black);
        x += vsg_font_text_width(key[k], fs) + 2 * gap;
    }
    free(*rgb);
    *rgb = out;
    r->width = width, r->height = height;
    return VSG_OK;
}
