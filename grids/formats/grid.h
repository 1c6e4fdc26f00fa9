/* grid.h — a regular 3D grid of float32 values with geometry, units and provenance. */
#ifndef VSG_GRID_H
#define VSG_GRID_H

#include <stddef.h>

#include "grids/base/vsgrid.h"

struct vsg_grid {
    int n[3];            /* nodes along x, y, z */
    double origin[3];    /* Å: position of node (0,0,0) */
    double spacing[3];   /* Å */
    char units[16];      /* "kT/e", "kcal/mol/e" */
    float *data;         /* n0*n1*n2 values, x fastest: i + n0*(j + n1*k) */
    char *meta;          /* "key = value\n" lines (method, parameters, checksum...), may be NULL */
};

/* A point computed as origin + (n-1)·h can land a rounding error past the last node; it
 * still counts as on the node. 1e-9 of a cell is far below any physical meaning. (Shared with
 * the GPU's copy of the interpolation, gpu/pb/pb_dev.cu.) */
#define VSG_GRID_EDGE_SLACK 1e-9

/* vsg_grid_new, vsg_grid_nodes, vsg_grid_meta_add and vsg_grid_meta_get are public (vsgrid.h). */

/* File formats (grids/formats/vsg_file.c, grids/formats/dx_file.c). */
vsg_status vsg_vsg_write(const vsg_grid *g, const char *path);
vsg_status vsg_vsg_read(const char *path, vsg_grid **out);
vsg_status vsg_dx_write(const vsg_grid *g, const char *path);   /* .dx or .dx.gz */
vsg_status vsg_dx_read(const char *path, vsg_grid **out);

#endif
