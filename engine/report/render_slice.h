/* render_slice.h — what the slice picture's parts share beyond the public API. */
#ifndef VSG_RENDER_SLICE_H
#define VSG_RENDER_SLICE_H

/* Font scale of a slice picture's labels: 2 when the plot is 400 pixels or more across either
 * way, else 1. Legends added later use the same. */
int vsg_slice_font_scale(int plot_width, int plot_height);

#endif
