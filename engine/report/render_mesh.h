/* render_mesh.h — a picture of a potential-coloured surface mesh from six sides, drawn by a
 * small software rasteriser (no GPU, no display, no libraries beyond zlib). */
#ifndef VSG_RENDER_MESH_H
#define VSG_RENDER_MESH_H

#include <stdint.h>

#include "grids/surface/surface_mesh.h"
#include "grids/base/vsgrid.h"

#define VSG_RENDER_TILE_DEFAULT 400

/* Orthographic views along the axes, tiled 3 × 2:
 *   front (viewer on +z)  back (-z)   left (-x)
 *   right (+x)            top (+y)    bottom (-y)
 * each `tile` pixels square (≤ 0: VSG_RENDER_TILE_DEFAULT; at most 4096), all at one scale,
 * with per-vertex colours from vsg_colormap_rwb(potential, lo, hi) (NULL: white), Lambert +
 * ambient shading from the normals, a label per view and, with a potential, a colour bar
 * with the units underneath. Writes a PNG. VSG_E_ARG for bad indices or tile size. */
vsg_status vsg_render_mesh_png(const char *path, const vsg_mesh *m, const float *potential, double lo, double hi,
                               const char *units, int tile);

/* The same picture into memory: *rgb (malloc'ed, free() it) of *width × *height pixels. */
vsg_status vsg_render_mesh_rgb(const vsg_mesh *m, const float *potential, double lo, double hi, const char *units,
                               int tile, uint8_t **rgb, int *width, int *height);

#endif
