/* colormap.c — red–white–blue, linear on each side of the white point, so that equal steps
 * of potential look like equal steps of colour and the sign reads at a glance. */
#include "engine/report/colormap.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "engine/report/bitmap_font.h"

const char *vsg_units_quantity(const char *units)
{
    if (!units || !*units || strstr(units, "/e")) return "potential";   /* kT/e (PB), kcal/mol/e (Coulomb, AutoGrid e) */
    if (!strcmp(units, "kcal/mol")) return "affinity";                 /* AutoGrid / Vina energy maps */
    return "value";
}

double vsg_colormap_white_point(double lo, double hi)
{
    return (lo < 0.0 && hi > 0.0) ? 0.0 : 0.5 * (lo + hi);
}

static uint8_t channel(double t) /* t in [0,1] → 0..255, rounded */
{
    return (uint8_t)lrint(255.0 * (t < 0.0 ? 0.0 : t > 1.0 ? 1.0 : t));
}

void vsg_colormap_rwb(double v, double lo, double hi, uint8_t rgb[3])
{
    if (isnan(v) || isnan(lo) || isnan(hi)) {
        rgb[0] = rgb[1] = rgb[2] = 128;
        return;
    }
    double mid = vsg_colormap_white_point(lo, hi);
    if (v < mid) {
        /* red at lo → white at mid: green and blue rise together */
        double t = mid > lo ? (v - lo) / (mid - lo) : 0.0;
        rgb[0] = 255;
        rgb[1] = rgb[2] = channel(t);
    } else if (v > mid) {
        /* white at mid → blue at hi: red and green fall together */
        double t = hi > mid ? (v - mid) / (hi - mid) : 1.0;
        rgb[0] = rgb[1] = channel(1.0 - t);
        rgb[2] = 255;
    } else {
        rgb[0] = rgb[1] = rgb[2] = 255;
    }
}

static void fill_rect(uint8_t *rgb, int width, int height, int x0, int y0, int w, int h, const uint8_t c[3])
{
    for (int y = y0 < 0 ? 0 : y0; y < y0 + h && y < height; y++)
        for (int x = x0 < 0 ? 0 : x0; x < x0 + w && x < width; x++) memcpy(rgb + 3 * ((size_t)y * width + x), c, 3);
}

static int tick_gap(int font_scale) { return 2 * (font_scale < 1 ? 1 : font_scale); }

int vsg_colorbar_height(int bar_h, int font_scale)
{
    int fs = font_scale < 1 ? 1 : font_scale, gap = tick_gap(fs);
    return bar_h + 2 * gap + vsg_font_text_height(fs) + gap + vsg_font_text_height(fs);
}

void vsg_colorbar_draw(uint8_t *rgb, int width, int height, int x, int y, int bar_w, int bar_h, double lo,
                       double hi, const char *units, int font_scale)
{
    static const uint8_t black[3] = {0, 0, 0};
    int fs = font_scale < 1 ? 1 : font_scale, gap = tick_gap(fs);
    if (bar_w < 2 || bar_h < 2) return;
    for (int i = 0; i < bar_w; i++) {
        uint8_t c[3];
        vsg_colormap_rwb(lo + (hi - lo) * (i + 0.5) / bar_w, lo, hi, c);
        fill_rect(rgb, width, height, x + i, y, 1, bar_h, c);
    }
    fill_rect(rgb, width, height, x - 1, y - 1, bar_w + 2, 1, black);
    fill_rect(rgb, width, height, x - 1, y + bar_h, bar_w + 2, 1, black);
    fill_rect(rgb, width, height, x - 1, y - 1, 1, bar_h + 2, black);
    fill_rect(rgb, width, height, x + bar_w, y - 1, 1, bar_h + 2, black);
    /* ticks and values: lo, white point, hi */
    double mid = vsg_colormap_white_point(lo, hi);
    double values[3] = {lo, mid, hi};
    int ty = y + bar_h + 1, label_y = y + bar_h + 2 * gap;
    for (int t = 0; t < 3; t++) {
        if (t == 1 && !(hi > lo)) continue;
        double frac = hi > lo ? (values[t] - lo) / (hi - lo) : (t == 0 ? 0.0 : 1.0);
        int tx = x + (int)lrint(frac * (bar_w - 1));
        fill_rect(rgb, width, height, tx - (fs - 1) / 2, ty, fs, gap + gap / 2, black);
        char label[32];
        snprintf(label, sizeof label, "%.3g", values[t] == 0.0 ? 0.0 : values[t]); /* no "-0" */
        int lw = vsg_font_text_width(label, fs);
        int lx = tx - lw / 2;
        if (t == 0 && lx < x - 4 * fs) lx = x - 4 * fs;
        if (t == 2 && lx + lw > x + bar_w + 4 * fs) lx = x + bar_w + 4 * fs - lw;
        vsg_font_draw(rgb, width, height, lx, label_y, label, fs, black);
    }
    char title[64];
    if (units && *units) snprintf(title, sizeof title, "%s (%s)", vsg_units_quantity(units), units);
    else snprintf(title, sizeof title, "potential");
    int title_w = vsg_font_text_width(title, fs);
    vsg_font_draw(rgb, width, height, x + (bar_w - title_w) / 2, label_y + vsg_font_text_height(fs) + gap, title, fs,
                  black);
}
