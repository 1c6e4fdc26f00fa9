/* balls.c — lattice points inside spheres, parallel over z-planes. */
#include "grids/base/balls.h"

#include <math.h>
#include <stdlib.h>

static int by_z(const void *a, const void *b)
{
    double za = ((const vsg_ball *)a)->z, zb = ((const vsg_ball *)b)->z;
    return (za > zb) - (za < zb);
}

void vsg_balls_sort(vsg_ball *b, size_t n) { qsort(b, n, sizeof *b, by_z); }

/* First ball with z >= value. */
static size_t lower_bound(const vsg_ball *b, size_t n, double value)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (b[mid].z < value) lo = mid + 1; else hi = mid;
    }
    return lo;
}

vsg_status vsg_mark_balls(const vsg_ball *b, size_t n, const vsg_lattice *lat, uint8_t *out,
                          uint8_t bit, const uint8_t *mask, uint8_t need, uint8_t avoid)
{
    if (n == 0) return VSG_OK;
    double rmax = 0.0;
    for (size_t i = 0; i < n; i++) rmax = b[i].r > rmax ? b[i].r : rmax;
    const int nx = lat->n[0], ny = lat->n[1], nz = lat->n[2];
    const double h = lat->h, inv = 1.0 / h;

#pragma omp parallel for schedule(dynamic, 1)
    for (int k = 0; k < nz; k++) {
        double zk = lat->origin[2] + k * h;
        size_t first = lower_bound(b, n, zk - rmax);
        size_t plane = (size_t)nx * ny * (size_t)k;
        for (size_t a = first; a < n && b[a].z <= zk + rmax; a++) {
            double dz = zk - b[a].z, r2 = b[a].r * b[a].r - dz * dz;
            if (r2 <= 0.0) continue;
            double rd = sqrt(r2);
            int j0 = (int)ceil((b[a].y - rd - lat->origin[1]) * inv);
            int j1 = (int)floor((b[a].y + rd - lat->origin[1]) * inv);
            if (j0 < 0) j0 = 0;
            if (j1 > ny - 1) j1 = ny - 1;
            for (int j = j0; j <= j1; j++) {
                double dy = lat->origin[1] + j * h - b[a].y, rx2 = r2 - dy * dy;
                if (rx2 <= 0.0) continue;
                double rx = sqrt(rx2);
                int i0 = (int)ceil((b[a].x - rx - lat->origin[0]) * inv);
                int i1 = (int)floor((b[a].x + rx - lat->origin[0]) * inv);
                if (i0 < 0) i0 = 0;
                if (i1 > nx - 1) i1 = nx - 1;
                uint8_t *row = out + plane + (size_t)nx * j;
                const uint8_t *mrow = mask ? mask + plane + (size_t)nx * j : NULL;
                for (int i = i0; i <= i1; i++) {
                    double dx = lat->origin[0] + i * h - b[a].x;
                    if (dx * dx >= rx2) continue;  /* strict: d < r */
                    if (mrow && ((mrow[i] & need) != need || (mrow[i] & avoid))) continue;
                    row[i] |= bit;
                }
            }
        }
    }
    return VSG_OK;
}
