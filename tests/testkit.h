/* testkit.h — small pieces the tests and benchmarks share: a seeded random generator
 * (xorshift64*, so a printed seed repeats a run) and grid comparisons. */
#ifndef VSG_TESTKIT_H
#define VSG_TESTKIT_H

#include <math.h>
#include <stdint.h>

#include "grid.h"

static uint64_t rng = 0x9E3779B97F4A7C15ull;

/* Uniform in [0, 1). */
static inline double urand(void)
{
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return (double)((rng * 2685821657736338717ull) >> 11) * (1.0 / 9007199254740992.0);
}

static inline double uniform(double a, double b) { return a + (b - a) * urand(); }

/* max − min of a grid's values. */
static inline double grid_range(const vsg_grid *g)
{
    double lo = INFINITY, hi = -INFINITY;
    for (size_t i = 0; i < vsg_grid_nodes(g); i++) {
        lo = fmin(lo, g->data[i]);
        hi = fmax(hi, g->data[i]);
    }
    return hi - lo;
}

/* max |a − b| over two grids of the same shape. */
static inline double grid_max_diff(const vsg_grid *a, const vsg_grid *b)
{
    double d = 0.0;
    for (size_t i = 0; i < vsg_grid_nodes(a); i++) d = fmax(d, fabs((double)a->data[i] - b->data[i]));
    return d;
}

#endif
