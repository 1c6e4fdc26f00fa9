/* ply_write.h — a coloured surface mesh as binary PLY, for MeshLab, ChimeraX, Blender,
 * PyMOL-compatible readers. */
#ifndef VSG_PLY_WRITE_H
#define VSG_PLY_WRITE_H

#include "grids/surface/surface_mesh.h"
#include "grids/base/vsgrid.h"

/* Writes m as "binary_little_endian 1.0" PLY:
 *   element vertex: float x y z nx ny nz, float potential, uchar red green blue
 *   element face:   list uchar int vertex_indices
 * Colours come from vsg_colormap_rwb(potential, lo, hi); potential may be NULL (then 0 is
 * written and the vertices are white). Header comments name the generator, the units of
 * `potential` (units may be NULL) and the colour range. Byte order is little-endian on every
 * host. VSG_E_ARG for a mesh whose indices are out of range or too large for int32,
 * VSG_E_IO when the file cannot be written. */
vsg_status vsg_ply_write(const char *path, const vsg_mesh *m, const float *potential, double lo, double hi,
                         const char *units);

#endif
