/* colormap.h — the red–white–blue potential colour scale (APBS / PyMOL / ChimeraX convention:
 * negative red, neutral white, positive blue) and its legend, a labelled colour bar. */
#ifndef VSG_COLORMAP_H
#define VSG_COLORMAP_H

#include <stdint.h>

/* Colour of value v on the scale lo..hi: lo and below pure red (255,0,0), the white point
 * (255,255,255) at 0 when lo < 0 < hi and at the midpoint otherwise, hi and above pure blue
 * (0,0,255), linear in between on each side. NaN gives grey (128,128,128). A degenerate
 * range (lo ≥ hi) colours below lo red, above blue, equal white. */
void vsg_colormap_rwb(double v, double lo, double hi, uint8_t rgb[3]);

/* The value shown white for the range lo..hi (0 or the midpoint, as above). */
double vsg_colormap_white_point(double lo, double hi);

/* What a grid in these units holds: "potential" per charge (kT/e from PB, kcal/mol/e from
 * Coulomb or an AutoGrid e map, or no units), "affinity" for kcal/mol (AutoGrid affinity and
 * desolvation maps, Vina maps), else "value". */
const char *vsg_units_quantity(const char *units);

/* Total height in pixels of a colour bar of bar height bar_h with its labels (font scale). */
int vsg_colorbar_height(int bar_h, int font_scale);

/* Draws a horizontal colour bar with its top-left corner at (x, y), bar_w × bar_h pixels
 * framed in black, ticks with values at lo, the white point and hi, and the title
 * "QUANTITY (UNITS)" centred underneath, QUANTITY from vsg_units_quantity (units may be
 * NULL or "": "potential"). Clips at the image's edges. */
void vsg_colorbar_draw(uint8_t *rgb, int width, int height, int x, int y, int bar_w, int bar_h, double lo,
                       double hi, const char *units, int font_scale);

#endif
