/* balls.h — marking the points of a regular lattice that lie inside a set of spheres.
 * The workhorse of the surface, ion-accessibility and probe maps. Parallel over z-planes,
 * so no two threads write the same byte. */
#ifndef VSG_BALLS_H
#define VSG_BALLS_H

#include <stddef.h>
#include <stdint.h>

#include "grids/base/vsgrid.h"

typedef struct { double x, y, z, r; } vsg_ball;

typedef struct {
    double origin[3];  /* position of lattice point (0,0,0) */
    double h;          /* spacing */
    int n[3];          /* points per axis; index i + n0*(j + n1*k) */
} vsg_lattice;

/* Sorts balls by z (in place) — required by vsg_mark_balls. */
void vsg_balls_sort(vsg_ball *b, size_t n);
/* For every lattice point strictly inside some ball (d < r): out[p] |= bit, but only where
 * (mask == NULL || (mask[p] & need) == need && (mask[p] & avoid) == 0). out may equal mask. */
vsg_status vsg_mark_balls(const vsg_ball *sorted, size_t n, const vsg_lattice *lat, uint8_t *out,
                          uint8_t bit, const uint8_t *mask, uint8_t need, uint8_t avoid);

#endif
