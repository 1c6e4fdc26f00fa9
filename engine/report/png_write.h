/* png_write.h — 8-bit RGB truecolour PNG files (zlib), for the pictures `vsgrid render` draws. */
#ifndef VSG_PNG_WRITE_H
#define VSG_PNG_WRITE_H

#include <stdint.h>

#include "grids/base/vsgrid.h"

/* Writes rgb (3·width·height bytes, rows top to bottom, R G B per pixel) as a PNG.
 * VSG_E_ARG for a bad size (width, height in 1..2^24), VSG_E_IO when the file cannot be
 * written (the message names it), VSG_E_NOMEM. */
vsg_status vsg_png_write_rgb(const char *path, const uint8_t *rgb, int width, int height);

#endif
