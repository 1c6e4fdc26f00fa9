/* value_text.h — grid values as text, one per line (value_text.c). Internal to the map writers. */
#ifndef VSG_VALUE_TEXT_H
#define VSG_VALUE_TEXT_H

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    VSG_TEXT_AUTOGRID = 0, /* autogrid4's map values: "0." below 1e-4, else "%.3f" of round3dp(v) */
    VSG_TEXT_G4 = 1        /* vina --write_maps: "%.4g" */
} vsg_text_style;

/* Exactly printf("%.3f\n", (double)x) into o (room for 48 characters); returns the length. */
size_t vsg_text_fixed3(float x, char *o);
/* autogrid4's line for value v (VSG_TEXT_AUTOGRID); returns the length. */
size_t vsg_text_autogrid(double v, char *o);
/* Writes nz planes of `plane` values each (x fastest), one line per value, planes formatted in
 * parallel. Returns 0, or −1 on a write error (ferror/fclose tell the rest). */
int vsg_text_write_values(FILE *f, const float *v, size_t plane, int nz, vsg_text_style style);

#ifdef __cplusplus
}
#endif
#endif
