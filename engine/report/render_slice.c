/* render_slice.c — one plane of a grid as a picture. Values come from trilinear
 * interpolation at pixel centres, so a slice between grid planes shows the potential there,
 * not the nearest plane's. The outline is the boundary of the union of the atoms' discs in
 * the plane: the discs are painted into a mask (cost ∝ the discs' area, not pixels × atoms)
 * and a mask pixel whose neighbour is outside every disc turns black. */
#include "grids/base/vsgrid.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/report/bitmap_font.h"
#include "engine/report/colormap.h"
#include "engine/report/render_slice.h"

static const char axis_name[3] = {'x', 'y', 'z'};

int vsg_slice_font_scale(int plot_width, int plot_height) { return plot_width >= 400 || plot_height >= 400 ? 2 : 1; }

/* The grid as this file reads it, through the public accessors. */
typedef struct {
    int n[3];
    double origin[3], spacing[3];
    char units[16];
    const float *data;
} slice_grid;

static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* The automatic colour range, from the 2nd and 98th percentiles of the finite values (so a few
 * extreme nodes, such as the clamped 1e5 kcal/mol of an AutoGrid affinity map inside the
 * receptor's atoms, do not wash the picture out):
 *  - potentials (units per charge: kT/e, kcal/mol/e, or no units): symmetric about 0 at the
 *    larger of |p2|, |p98|, so that white is 0 and the sign reads at a glance;
 *  - energy maps (kcal/mol: AutoGrid affinity and desolvation maps): when p2 < 0, symmetric
 *    about 0 at |p2| (the favourable side sets the scale; repulsion is clamped to full blue);
 *    otherwise p2..p98.
 * 1 when all values are 0 (or none is finite). */
void vsg_slice_auto_range(const char *units, const float *values, size_t n, double *lo, double *hi)
{
    double p2 = 0.0, p98 = 0.0;
    float *a = malloc((n ? n : 1) * sizeof *a);
    size_t k = 0;
    for (size_t i = 0; a && i < n; i++)
        if (isfinite(values[i])) a[k++] = values[i];
    if (k) {
        qsort(a, k, sizeof *a, cmp_float);
        p2 = a[(size_t)floor(0.02 * (double)(k - 1))];
        p98 = a[(size_t)ceil(0.98 * (double)(k - 1))];
    }
    free(a);
    int per_charge = !units || !*units || strstr(units, "/e") != NULL;
    if (per_charge || p2 < 0.0) {
        double r = per_charge ? fmax(fabs(p2), fabs(p98)) : -p2;
        if (!(r > 0.0)) r = 1.0;
        *lo = -r;
        *hi = r;
    } else {
        *lo = p2;
        *hi = p98 > p2 ? p98 : p2 + 1.0;
    }
}

/* Trilinear interpolation at fractional node indices, clamped to the grid. */
static double sample(const slice_grid *g, const double f[3])
{
    int i0[3], i1[3];
    double w[3];
    for (int d = 0; d < 3; d++) {
        double x = f[d] < 0.0 ? 0.0 : f[d] > g->n[d] - 1 ? g->n[d] - 1 : f[d];
        i0[d] = (int)floor(x);
        if (i0[d] > g->n[d] - 2) i0[d] = g->n[d] - 2 < 0 ? 0 : g->n[d] - 2;
        i1[d] = i0[d] + 1 < g->n[d] ? i0[d] + 1 : i0[d];
        w[d] = x - i0[d];
    }
    double v = 0.0;
    for (int c = 0; c < 8; c++) {
        int ix = c & 1 ? i1[0] : i0[0], iy = c & 2 ? i1[1] : i0[1], iz = c & 4 ? i1[2] : i0[2];
        double wt = (c & 1 ? w[0] : 1 - w[0]) * (c & 2 ? w[1] : 1 - w[1]) * (c & 4 ? w[2] : 1 - w[2]);
        if (wt != 0.0) v += wt * g->data[(size_t)ix + (size_t)g->n[0] * ((size_t)iy + (size_t)g->n[1] * iz)];
    }
    return v;
}

static void fill_rect(uint8_t *rgb, int width, int height, int x0, int y0, int w, int h, const uint8_t c[3])
{
    for (int y = y0 < 0 ? 0 : y0; y < y0 + h && y < height; y++)
        for (int x = x0 < 0 ? 0 : x0; x < x0 + w && x < width; x++) memcpy(rgb + 3 * ((size_t)y * width + x), c, 3);
}

/* Paints the discs of the atoms cut by the plane into mask (pw × ph); returns atoms cut. */
static int paint_discs(const slice_grid *g, const vsg_molecule *mol, int a, int u, int v, double pos, int s, int pw,
                       int ph, uint8_t *mask)
{
    int cut = 0;
    size_t natoms = vsg_molecule_atom_count(mol);
    for (size_t k = 0; k < natoms; k++) {
        vsg_atom_info info;
        if (vsg_molecule_atom(mol, k, &info) != VSG_OK) continue;
        const vsg_atom_info *at = &info;
        double c[3] = {at->x, at->y, at->z}, r = at->radius, d = c[a] - pos;
        if (!(r > 0.0) || !(fabs(d) < r)) continue;
        cut++;
        double rho = sqrt(r * r - d * d);
        /* pixel i has its centre at node index (i + 0.5)/s − 0.5; row j counts down from the top */
        double ci = ((c[u] - g->origin[u]) / g->spacing[u] + 0.5) * s - 0.5;
        double cj = ph - 0.5 - ((c[v] - g->origin[v]) / g->spacing[v] + 0.5) * s;
        double ru = rho / g->spacing[u] * s, rv = rho / g->spacing[v] * s;
        if (!(ci + ru >= 0.0 && ci - ru <= pw && cj + rv >= 0.0 && cj - rv <= ph)) continue;   /* off the picture */
        /* clamp in floating point, so that the int conversions stay in range */
        int i0 = (int)fmax(ceil(ci - ru), 0.0), i1 = (int)fmin(floor(ci + ru), pw - 1.0);
        int j0 = (int)fmax(ceil(cj - rv), 0.0), j1 = (int)fmin(floor(cj + rv), ph - 1.0);
        for (int j = j0; j <= j1; j++)
            for (int i = i0; i <= i1; i++) {
                double du = (i - ci) / ru, dv = (j - cj) / rv;
                if (du * du + dv * dv <= 1.0) mask[(size_t)j * pw + i] = 1;
            }
    }
    return cut;
}

vsg_status vsg_render_slice_rgb(const vsg_grid *grid, const vsg_slice_options *o, uint8_t **rgb_out,
                                vsg_slice_report *r)
{
    slice_grid view;
    const slice_grid *g = NULL;
    vsg_grid_shape shape;
    if (grid && vsg_grid_shape_of(grid, &shape) == VSG_OK) {
        memcpy(view.n, shape.n, sizeof view.n);
        memcpy(view.origin, shape.origin, sizeof view.origin);
        memcpy(view.spacing, shape.spacing, sizeof view.spacing);
        memcpy(view.units, shape.units, sizeof view.units);
        view.data = vsg_grid_values(grid);
        g = &view;
    }
    if (!g || !g->data || !o || !rgb_out || !r) return vsg_fail(VSG_E_ARG, "vsg_render_slice_rgb: missing argument");
    *rgb_out = NULL;
    memset(r, 0, sizeof *r);
    int a = o->axis;
    if (a < 0 || a > 2) return vsg_fail(VSG_E_ARG, "slice axis %d is not 0 (x), 1 (y) or 2 (z)", a);
    int u = a == 0 ? 1 : 0, v = a == 2 ? 1 : 2;
    double amin = g->origin[a], amax = g->origin[a] + (g->n[a] - 1) * g->spacing[a];
    double tol = 1e-6 * (g->spacing[a] > 0 ? g->spacing[a] : 1.0);
    if (!isfinite(o->position) || o->position < amin - tol || o->position > amax + tol)
        return vsg_fail(VSG_E_ARG, "slice %c = %g Å is outside the grid (%c from %.3f to %.3f Å)", axis_name[a],
                        o->position, axis_name[a], amin, amax);
    int s = o->scale;
    if (s == 0) {
        int nmax = g->n[u] > g->n[v] ? g->n[u] : g->n[v];
        s = 600 / (nmax > 0 ? nmax : 1);
        s = s < 1 ? 1 : s > 16 ? 16 : s;
    }
    if (s < 1 || s > 64) return vsg_fail(VSG_E_ARG, "slice scale %d is outside 1..64 pixels per grid spacing", s);
    double pixels = (double)g->n[u] * s * (double)g->n[v] * s;
    if (pixels > 64e6)
        return vsg_fail(VSG_E_LIMIT, "slice picture of %.0f Mpixels is too large (limit 64): use a smaller --scale",
                        pixels / 1e6);
    int pw = g->n[u] * s, ph = g->n[v] * s;

    /* the potential at pixel centres */
    float *val = malloc((size_t)pw * ph * sizeof *val);
    uint8_t *mask = calloc((size_t)pw * ph, 1);
    if (!val || !mask) {
        free(val), free(mask);
        return vsg_fail(VSG_E_NOMEM, "slice: out of memory for %d x %d pixels", pw, ph);
    }
    double fa = g->spacing[a] > 0 ? (o->position - g->origin[a]) / g->spacing[a] : 0.0;
    r->vmin = INFINITY, r->vmax = -INFINITY;
    for (int j = 0; j < ph; j++)
        for (int i = 0; i < pw; i++) {
            double f[3];
            f[a] = fa;
            f[u] = (i + 0.5) / s - 0.5;
            f[v] = (ph - j - 0.5) / s - 0.5;
            float x = (float)sample(g, f);
            val[(size_t)j * pw + i] = x;
            if (isfinite(x)) r->vmin = fmin(r->vmin, x), r->vmax = fmax(r->vmax, x);
        }
    r->lo = o->lo, r->hi = o->hi;
    if (!(o->lo < o->hi)) vsg_slice_auto_range(g->units, val, (size_t)pw * ph, &r->lo, &r->hi);
    if (o->outline) r->atoms_cut = paint_discs(g, o->outline, a, u, v, o->position, s, pw, ph, mask);

    /* layout: title on top, y labels on the left, x labels and the colour bar below */
    int fs = vsg_slice_font_scale(pw, ph), th = vsg_font_text_height(fs), gap = 4 * fs;
    char umin[32], umax[32], vmin[32], vmax[32], uname[16], vname[16], title[256];
    snprintf(umin, sizeof umin, "%.1f", g->origin[u]);
    snprintf(umax, sizeof umax, "%.1f", g->origin[u] + (g->n[u] - 1) * g->spacing[u]);
    snprintf(vmin, sizeof vmin, "%.1f", g->origin[v]);
    snprintf(vmax, sizeof vmax, "%.1f", g->origin[v] + (g->n[v] - 1) * g->spacing[v]);
    snprintf(uname, sizeof uname, "%c (Å)", axis_name[u]);
    snprintf(vname, sizeof vname, "%c", axis_name[v]);
    snprintf(title, sizeof title, "slice %c = %.2f Å%s%s", axis_name[a], o->position,
             o->caption && *o->caption ? "  " : "", o->caption ? o->caption : "");
    int wv = vsg_font_text_width(vmin, fs) > vsg_font_text_width(vmax, fs) ? vsg_font_text_width(vmin, fs)
                                                                           : vsg_font_text_width(vmax, fs);
    int ml = gap + vsg_font_text_width(vname, fs) + gap + wv + gap;
    int mr = gap + vsg_font_text_width(umax, fs) / 2 + gap;
    int mt = gap + th + gap;
    int bar_w = pw > 160 * fs ? pw : 160 * fs, bar_h = 6 * (fs + 1);
    int below = gap + th + gap / 2 + th + 2 * gap + vsg_colorbar_height(bar_h, fs) + gap;
    int width = ml + pw + mr;
    if (width < bar_w + 2 * 8 * gap) width = bar_w + 2 * 8 * gap;
    int tw = vsg_font_text_width(title, fs) + 2 * gap;
    if (width < tw) width = tw;
    int height = mt + ph + below;
    uint8_t *rgb = malloc((size_t)width * height * 3);
    if (!rgb) {
        free(val), free(mask);
        return vsg_fail(VSG_E_NOMEM, "slice: out of memory for a %d x %d picture", width, height);
    }
    static const uint8_t white[3] = {255, 255, 255}, black[3] = {0, 0, 0};
    fill_rect(rgb, width, height, 0, 0, width, height, white);
    int px0 = ml, py0 = mt;
    int t = fs;   /* outline thickness */
    for (int j = 0; j < ph; j++)
        for (int i = 0; i < pw; i++) {
            size_t k = (size_t)j * pw + i;
            uint8_t *out = rgb + 3 * ((size_t)(py0 + j) * width + px0 + i);
            int edge = 0;
            if (mask[k])
                for (int dd = 1; dd <= t && !edge; dd++)
                    edge = (i - dd >= 0 && !mask[k - dd]) || (i + dd < pw && !mask[k + dd]) ||
                           (j - dd >= 0 && !mask[k - (size_t)dd * pw]) || (j + dd < ph && !mask[k + (size_t)dd * pw]);
            if (edge) {
                memcpy(out, black, 3);
                r->outline_pixels++;
            } else {
                vsg_colormap_rwb(val[k], r->lo, r->hi, out);
            }
        }
    /* frame, title, axes */
    fill_rect(rgb, width, height, px0 - 1, py0 - 1, pw + 2, 1, black);
    fill_rect(rgb, width, height, px0 - 1, py0 + ph, pw + 2, 1, black);
    fill_rect(rgb, width, height, px0 - 1, py0 - 1, 1, ph + 2, black);
    fill_rect(rgb, width, height, px0 + pw, py0 - 1, 1, ph + 2, black);
    vsg_font_draw(rgb, width, height, gap, gap, title, fs, black);
    int ly = py0 + ph + gap;
    vsg_font_draw(rgb, width, height, px0 - vsg_font_text_width(umin, fs) / 2, ly, umin, fs, black);
    vsg_font_draw(rgb, width, height, px0 + pw - vsg_font_text_width(umax, fs) / 2, ly, umax, fs, black);
    vsg_font_draw(rgb, width, height, px0 + (pw - vsg_font_text_width(uname, fs)) / 2, ly + th + gap / 2, uname, fs,
                  black);
    vsg_font_draw(rgb, width, height, px0 - gap - vsg_font_text_width(vmax, fs), py0, vmax, fs, black);
    vsg_font_draw(rgb, width, height, px0 - gap - vsg_font_text_width(vmin, fs), py0 + ph - th, vmin, fs, black);
    vsg_font_draw(rgb, width, height, gap, py0 + (ph - th) / 2, vname, fs, black);
    int bx = px0 + (pw - bar_w) / 2;
    if (bx < 8 * gap) bx = 8 * gap;
    if (bx + bar_w > width - 8 * gap) bx = (width - bar_w) / 2;
    vsg_colorbar_draw(rgb, width, height, bx, ly + 2 * th + gap / 2 + 2 * gap, bar_w, bar_h, r->lo, r->hi, g->units, fs);
    free(val);
    free(mask);
    r->width = width, r->height = height, r->plot_width = pw, r->plot_height = ph;
    r->plot_x = px0, r->plot_y = py0;
    *rgb_out = rgb;
    return VSG_OK;
}

vsg_status vsg_render_slice_png(const char *path, const vsg_grid *g, const vsg_slice_options *o,
                                vsg_slice_report *r)
{
    vsg_slice_report local;
    uint8_t *rgb;
    if (!r) r = &local;
    vsg_status st = vsg_render_slice_rgb(g, o, &rgb, r);
    if (st != VSG_OK) return st;
    st = vsg_png_write_rgb(path, rgb, r->width, r->height);
    free(rgb);
    return st;
}
