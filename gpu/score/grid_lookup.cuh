/* grid_lookup.cuh — what the screening kernels (screen.cu) and the placement kernels (place.cu)
 * share about reading score grids (vsgrid.h, "scoring arrays of coordinates"): the checks on a vsg_score_grids, the per-axis
 * node-position tables (each node's position as a float pair hi + lo = the double position, so a
 * float kernel locates an atom in its cell to ~1e-7 whatever the origin), the float bounds that
 * accept exactly the coordinates the CPU twin's double test accepts, and the trilinear blend in
 * the twin's order. Include after cuda_check.h (vsgrid.h must be visible). */
#ifndef VSG_GRID_LOOKUP_CUH
#define VSG_GRID_LOOKUP_CUH

#include <cuda_runtime.h>
#include <math.h>

#include "grids/base/vsgrid.h"

/* The 8 corners of the cell at base (x fastest; sy, sz the strides of y and z), blended along x,
 * then y, then z with the fractions t. SHARED: base is in shared memory (no __ldg). */
template <typename R, bool SHARED>
__device__ __forceinline__ R trilinear(const float *base, int sy, int sz, const R t[3])
{
    float v[8];
    const int off[8] = {0, 1, sy, sy + 1, sz, sz + 1, sz + sy, sz + sy + 1};
#pragma unroll
    for (int k = 0; k < 8; k++) v[k] = SHARED ? base[off[k]] : __ldg(base + off[k]);
    const R c00 = (R)v[0] + t[0] * ((R)v[1] - (R)v[0]);
    const R c10 = (R)v[2] + t[0] * ((R)v[3] - (R)v[2]);
    const R c01 = (R)v[4] + t[0] * ((R)v[5] - (R)v[4]);
    const R c11 = (R)v[6] + t[0] * ((R)v[7] - (R)v[6]);
    const R c0 = c00 + t[1] * (c10 - c00);
    const R c1 = c01 + t[1] * (c11 - c01);
    return c0 + t[2] * (c1 - c0);
}

/* The smallest float ≥ v, the largest float ≤ v: the float bounds that accept exactly the floats
 * the twin's double test accepts. */
static inline float float_at_least(double v)
{
    float f = (float)v;
    if ((double)f < v) f = nextafterf(f, INFINITY);
    return f;
}
static inline float float_at_most(double v)
{
    float f = (float)v;
    if ((double)f > v) f = nextafterf(f, -INFINITY);
    return f;
}

/* The grids the GPU kernels accept; `who` prefixes the messages ("GPU screening"). */
static inline vsg_status check_score_grids(const vsg_score_grids *g, const char *who)
{
    if (g->kind != VSG_SCORE_ELEC && g->kind != VSG_SCORE_AD4)
        return vsg_fail(VSG_E_ARG, "%s: unknown grid kind %d", who, (int)g->kind);
    for (int d = 0; d < 3; d++)
        if (g->n[d] < 2 || !(g->spacing[d] > 0.0) || !isfinite(g->origin[d]) || !isfinite(g->spacing[d]))
            return vsg_fail(VSG_E_ARG, "%s: bad grid geometry along %c (%d nodes, spacing %g)", who, "xyz"[d],
                            g->n[d], g->spacing[d]);
    if (g->nmaps < 1 || g->nmaps > VSG_SCORE_MAX_MAPS)
        return vsg_fail(VSG_E_ARG, "%s: %d maps (1 to %d)", who, g->nmaps, VSG_SCORE_MAX_MAPS);
    for (int i = 0; i < g->nmaps; i++)
        if (!g->maps[i]) return vsg_fail(VSG_E_ARG, "%s: map %d is NULL", who, i);
    if (g->e_map < 0 || g->e_map >= g->nmaps) return vsg_fail(VSG_E_ARG, "%s: e_map %d out of range", who, g->e_map);
    if (g->kind == VSG_SCORE_AD4 && (g->d_map < 0 || g->d_map >= g->nmaps))
        return vsg_fail(VSG_E_ARG, "%s: d_map %d out of range", who, g->d_map);
    if ((double)g->n[0] * g->n[1] * g->n[2] > 2147483647.0)
        return vsg_fail(VSG_E_LIMIT, "%s: %d x %d x %d nodes exceed 2^31", who, g->n[0], g->n[1], g->n[2]);
    return VSG_OK;
}

/* Node positions of the three axes, one after the other, as (hi, lo) float pairs: tab holds
 * n0 + n1 + n2 entries, node_off[a] is where axis a starts. */
static inline void fill_node_table(const vsg_score_grids *g, float2 *tab, int node_off[3])
{
    int off = 0;
    for (int a = 0; a < 3; a++) {
        node_off[a] = off;
        for (int i = 0; i < g->n[a]; i++) {
            const double v = g->origin[a] + i * g->spacing[a];
            const float hi = (float)v;
            tab[off + i] = make_float2(hi, (float)(v - (double)hi));
        }
        off += g->n[a];
    }
}

#endif
