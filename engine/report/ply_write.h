/* ply_write.h — a coloured surface mesh as binary PLY, for MeshLab, ChimeraX, Blender,
 * PyMOL-compatible readers: vsg_ply_write is public (vsgrid.h, "surface potential, pictures
 * and meshes"). */
#ifndef VSG_PLY_WRITE_H
#define VSG_PLY_WRITE_H

#include "grids/base/vsgrid.h"

#endif
