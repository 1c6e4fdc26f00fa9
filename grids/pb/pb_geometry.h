/* pb_geometry.h — grid boxes and focusing levels. */
#ifndef VSG_PB_GEOMETRY_H
#define VSG_PB_GEOMETRY_H

#include "grids/pb/pb_setup.h"

#define VSG_MAX_LEVELS 8

/* vsg_fine_level (the requested, finest grid from the box options) is public (vsgrid.h). */
/* Automatic focusing: a coarse box around the whole molecule, then finer boxes (spacing
 * refined at most 4× per step) down to `fine`, each inside the one before. levels[*count−1]
 * is `fine`; *count is 1 when the fine box is already large enough. */
vsg_status vsg_focus_levels(const vsg_molecule *m, const vsg_level *fine, vsg_level *levels, int *count);

#endif
