/* render_slice.h — a picture of one plane of a potential grid: the potential in the
 * red–white–blue scale, the molecule's outline, axes, position and a colour bar:
 * vsg_slice_options, vsg_slice_report, vsg_slice_auto_range and vsg_render_slice_png / _rgb are
 * public (vsgrid.h, "surface potential, pictures and meshes"). */
#ifndef VSG_RENDER_SLICE_H
#define VSG_RENDER_SLICE_H

#include "grids/base/vsgrid.h"

#endif
