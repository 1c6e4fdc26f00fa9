/* render_slice.h — a picture of one plane of a potential grid: the potential in the
 * red–white–blue scale, the molecule's outline, axes, position and a colour bar. */
#ifndef VSG_RENDER_SLICE_H
#define VSG_RENDER_SLICE_H

#include <stdint.h>

#include "grids/base/vsgrid.h"

typedef struct {
    int axis;                     /* 0 = x, 1 = y, 2 = z: the plane is {axis = position} */
    double position;              /* Å; must lie within the grid along that axis */
    double lo, hi;                /* colour range; lo ≥ hi (e.g. both 0) = automatic (below) */
    int scale;                    /* pixels per grid spacing, 1..64; 0 = automatic (~600 px) */
    const vsg_molecule *outline;  /* atoms (centres, radii) to outline, or NULL */
    const char *caption;          /* extra text after the slice position (e.g. the file), or NULL */
} vsg_slice_options;

typedef struct {
    int width, height;            /* the picture, pixels */
    int plot_x, plot_y;           /* top-left pixel of the potential part */
    int plot_width, plot_height;  /* the potential part, pixels */
    double lo, hi;                /* colour range used */
    double vmin, vmax;            /* potential on the slice */
    int atoms_cut;                /* atoms whose sphere the plane cuts */
    long outline_pixels;          /* pixels drawn black as outline */
} vsg_slice_report;

/* The automatic colour range: ±5 when the grid is in kT/e (the usual APBS / PyMOL surface
 * range); otherwise ± the 99th percentile of |φ| over the n values (1 when all are 0). */
void vsg_slice_auto_range(const char *units, const float *values, size_t n, double *lo, double *hi);

/* Samples the plane by trilinear interpolation at each pixel centre (each grid node covers
 * scale × scale pixels; the horizontal and vertical axes are y,z for an x slice, x,z for y,
 * x,y for z), draws the boundary of the union of the atoms' discs cut by the plane in black,
 * and writes a PNG with title, axis names and end coordinates, and a colour bar.
 * VSG_E_ARG when the plane is outside the grid or the options are bad (message says why),
 * VSG_E_LIMIT for a picture over 64 Mpixels. r may be NULL. */
vsg_status vsg_render_slice_png(const char *path, const vsg_grid *g, const vsg_slice_options *o,
                                vsg_slice_report *r);

/* The same picture into memory: *rgb (malloc'ed, free() it), size in r->width × r->height. */
vsg_status vsg_render_slice_rgb(const vsg_grid *g, const vsg_slice_options *o, uint8_t **rgb,
                                vsg_slice_report *r);

#endif
