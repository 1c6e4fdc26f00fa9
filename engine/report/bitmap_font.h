/* bitmap_font.h — a built-in 5×7 pixel font (6×9 cell) for the labels of rendered pictures:
 * numbers, units, axis and view names. No font files, no dependencies. */
#ifndef VSG_BITMAP_FONT_H
#define VSG_BITMAP_FONT_H

#include <stdint.h>

#define VSG_FONT_CELL_W 6   /* advance per character at scale 1 (5 pixels + 1 gap) */
#define VSG_FONT_CELL_H 9   /* line height at scale 1 (7 pixels, a descender row, 1 gap) */

/* Width and height in pixels of text drawn at an integer scale (≥ 1). Counts characters,
 * UTF-8 "Å" and "±" as one. */
int vsg_font_text_width(const char *text, int scale);
int vsg_font_text_height(int scale);

/* Draws text with its top-left corner at (x, y) into rgb (width × height, 3 bytes per pixel,
 * rows top to bottom), each font pixel a scale × scale square of `color`. Clips at the
 * image's edges. ASCII letters, digits and punctuation, plus "Å" and "±"; other characters
 * show as a hollow box. */
void vsg_font_draw(uint8_t *rgb, int width, int height, int x, int y, const char *text, int scale,
                   const uint8_t color[3]);

#endif
