/* render_mesh.h — a picture of a potential-coloured surface mesh from six sides, drawn by a
 * small software rasteriser (no GPU, no display, no libraries beyond zlib):
 * vsg_render_mesh_png / _rgb and VSG_RENDER_TILE_DEFAULT are public (vsgrid.h, "surface
 * potential, pictures and meshes"). */
#ifndef VSG_RENDER_MESH_H
#define VSG_RENDER_MESH_H

#include "grids/base/vsgrid.h"

#endif
