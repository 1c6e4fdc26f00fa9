/* png_write.h — 8-bit RGB truecolour PNG files (zlib), for the pictures `vsgrid render` draws:
 * vsg_png_write_rgb is public (vsgrid.h, "surface potential, pictures and meshes"). */
#ifndef VSG_PNG_WRITE_H
#define VSG_PNG_WRITE_H

#include "grids/base/vsgrid.h"

#endif
