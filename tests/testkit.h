/* testkit.h — small pieces the tests and benchmarks share: a seeded random generator
 * (xorshift64*, so a printed seed repeats a run) and grid comparisons. */
#ifndef VSG_TESTKIT_H
#define VSG_TESTKIT_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "grids/formats/grid.h"

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

/* Seeds the generator from VSG_TEST_SEED, or from the time and pid, and prints the seed so a
 * failing run can be repeated. */
static inline uint64_t testkit_seed(void)
{
    const char *env = getenv("VSG_TEST_SEED");
    uint64_t seed = env ? strtoull(env, NULL, 10) : ((uint64_t)time(NULL) * 0x9E3779B97F4A7C15ull) ^ (uint64_t)getpid();
    if (seed == 0) seed = 1;
    rng = seed;
    printf("seed %llu (VSG_TEST_SEED=%llu repeats this run)\n", (unsigned long long)seed, (unsigned long long)seed);
    return seed;
}

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
