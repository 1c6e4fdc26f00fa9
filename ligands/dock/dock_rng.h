/* dock_rng.h — the docking search's random numbers: splitmix64 (Steele, Lea, Flood 2014) over
 * a 64-bit counter, so a chain's stream is a pure function of (seed, chain) and results repeat
 * exactly for a seed, whatever the thread count. Compiled for the GPU chains too (DOCK_HD), so a
 * GPU chain draws the very numbers its CPU twin draws. */
#ifndef VSG_DOCK_RNG_H
#define VSG_DOCK_RNG_H

#include <math.h>
#include <stdint.h>

#ifdef __CUDACC__
#define DOCK_HD __host__ __device__
#else
#define DOCK_HD
#endif

typedef struct {
    uint64_t state;
} dock_rng;

static inline DOCK_HD uint64_t dock_rng_next(dock_rng *r)
{
    uint64_t z = (r->state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
/* The stream of chain k of a seed: the seed and the chain mixed, so neighbouring seeds differ. */
static inline DOCK_HD dock_rng dock_rng_for(uint64_t seed, uint64_t chain)
{
    dock_rng r = {seed};
    uint64_t a = dock_rng_next(&r);
    r.state = a ^ (chain * 0xD1B54A32D192ED03ull);
    (void)dock_rng_next(&r);
    return r;
}
/* Uniform in [0, 1): the top 53 bits. */
static inline DOCK_HD double dock_rng_uniform(dock_rng *r)
{
    return (double)(dock_rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}
static inline DOCK_HD double dock_rng_range(dock_rng *r, double lo, double hi)
{
    return lo + (hi - lo) * dock_rng_uniform(r);
}
/* 0 .. n−1 (n ≥ 1). */
static inline DOCK_HD int dock_rng_int(dock_rng *r, int n)
{
    return (int)(dock_rng_uniform(r) * n);
}
/* A point uniform inside the unit sphere (rejection). */
static inline DOCK_HD void dock_rng_in_sphere(dock_rng *r, double v[3])
{
    do {
        for (int d = 0; d < 3; d++) v[d] = dock_rng_range(r, -1, 1);
    } while (v[0] * v[0] + v[1] * v[1] + v[2] * v[2] > 1);
}
/* A uniformly random unit quaternion (Shoemake). */
static inline DOCK_HD void dock_rng_quat(dock_rng *r, double q[4])
{
    const double u1 = dock_rng_uniform(r), u2 = 2 * 3.14159265358979323846 * dock_rng_uniform(r), u3 = 2 * 3.14159265358979323846 * dock_rng_uniform(r);
    const double a = sqrt(1 - u1), b = sqrt(u1);
    q[0] = a * sin(u2), q[1] = a * cos(u2), q[2] = b * sin(u3), q[3] = b * cos(u3);
}

#endif
