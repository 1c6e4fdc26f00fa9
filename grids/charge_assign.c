/* charge_assign.c — point charges to grid nodes: trilinear (APBS spl0) or cubic B-spline
 * (APBS spl2). Both conserve charge and the dipole moment; spl2 spreads each charge over
 * 4×4×4 nodes, which lowers the grid self-energy's dependence on the charge's position. */
#include <math.h>
#include <stdlib.h>

#include "errors.h"
#include "pb_setup.h"

static int by_linear(const void *a, const void *b)
{
    size_t x = ((const vsg_grid_charge *)a)->linear, y = ((const vsg_grid_charge *)b)->linear;
    return (x > y) - (x < y);
}

/* Cubic B-spline weights for the nodes i−1, i, i+1, i+2 at fractional offset t in [0,1). */
static void bspline4(double t, double w[4])
{
    double t2 = t * t, t3 = t2 * t, u = 1.0 - t;
    w[0] = u * u * u / 6.0;
    w[1] = (3.0 * t3 - 6.0 * t2 + 4.0) / 6.0;
    w[2] = (-3.0 * t3 + 3.0 * t2 + 3.0 * t + 1.0) / 6.0;
    w[3] = t3 / 6.0;
}

vsg_status vsg_assign_charges(const vsg_molecule *m, const vsg_level *lv, vsg_charge_spline spline,
                              vsg_grid_charge **out, size_t *count, double *outside)
{
    int span = spline == VSG_SPLINE_SPL2 ? 4 : 2;
    size_t per = (size_t)span * span * span, cap = m->n * per, n = 0;
    vsg_grid_charge *c = malloc((cap ? cap : 1) * sizeof *c);
    if (!c) return vsg_fail(VSG_E_NOMEM, "out of memory (charge assignment)");
    double lost = 0.0;
    for (size_t a = 0; a < m->n; a++) {
        double q = m->atoms[a].charge;
        if (q == 0.0) continue;
        double pos[3] = {m->atoms[a].x, m->atoms[a].y, m->atoms[a].z};
        int base[3];
        double w[3][4];
        for (int d = 0; d < 3; d++) {
            double u = (pos[d] - lv->origin[d]) / lv->h;
            double f = floor(u);
            double t = u - f;
            if (span == 2) {
                base[d] = (int)f;
                w[d][0] = 1.0 - t;
                w[d][1] = t;
            } else {
                base[d] = (int)f - 1;
                bspline4(t, w[d]);
            }
        }
        for (int k = 0; k < span; k++)
            for (int j = 0; j < span; j++)
                for (int i = 0; i < span; i++) {
                    double wq = q * w[0][i] * w[1][j] * w[2][k];
                    if (wq == 0.0) continue;
                    int x = base[0] + i, y = base[1] + j, z = base[2] + k;
                    if (x < 1 || y < 1 || z < 1 || x > lv->n[0] - 2 || y > lv->n[1] - 2 || z > lv->n[2] - 2) {
                        lost += fabs(wq);
                        continue;
                    }
                    c[n].linear = (size_t)x + (size_t)lv->n[0] * ((size_t)y + (size_t)lv->n[1] * (size_t)z);
                    c[n].q = wq;
                    n++;
                }
    }
    qsort(c, n, sizeof *c, by_linear);
    size_t merged = 0;
    for (size_t i = 0; i < n; i++) {
        if (merged && c[merged - 1].linear == c[i].linear)
            c[merged - 1].q += c[i].q;
        else
            c[merged++] = c[i];
    }
    *out = c;
    *count = merged;
    *outside = lost;
    return VSG_OK;
}
