/* pb_system.c — allocation and element access of the checkerboard PB system. */
#include "grids/pb/pb_system.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grids/base/vsgrid.h"

vsg_status vsg_pb_system_shape(vsg_pb_system *s, int nx, int ny, int nz, double h,
                               const double origin[3], vsg_precision precision)
{
    memset(s, 0, sizeof *s);
    if (nx < 3 || ny < 3 || nz < 3 || !(nx & 1) || !(ny & 1))
        return vsg_fail(VSG_E_ARG, "PB grid %dx%dx%d: need at least 3 nodes per axis and odd nx, ny",
                        nx, ny, nz);
    s->nx = nx;
    s->ny = ny;
    s->nz = nz;
    s->h = h;
    memcpy(s->origin, origin, sizeof s->origin);
    s->precision = precision;
    s->nodes = (size_t)nx * (size_t)ny * (size_t)nz;
    s->count[0] = (s->nodes + 1) / 2;
    s->count[1] = s->nodes / 2;
    return VSG_OK;
}

vsg_status vsg_pb_system_alloc(vsg_pb_system *s, int nx, int ny, int nz, double h,
                               const double origin[3], vsg_precision precision)
{
    vsg_status st = vsg_pb_system_shape(s, nx, ny, nz, h, origin, precision);
    if (st != VSG_OK) return st;
    size_t real = precision == VSG_PRECISION_FLOAT ? sizeof(float) : sizeof(double);
    for (int c = 0; c < 2; c++) {
        s->flag[c] = calloc(s->count[c], 1);
        s->phi[c] = calloc(s->count[c], real);
        if (!s->flag[c] || !s->phi[c]) {
            vsg_pb_system_free(s);
            return vsg_fail(VSG_E_NOMEM, "out of memory for a %dx%dx%d PB grid (%.1f MiB)", nx, ny,
                            nz, (double)s->nodes * (1.0 + (double)real) / 1048576.0);
        }
    }
    return VSG_OK;
}

void vsg_pb_system_free(vsg_pb_system *s)
{
    for (int c = 0; c < 2; c++) {
        free(s->flag[c]);
        free(s->phi[c]);
        free(s->corr[c]);
        s->flag[c] = NULL;
        s->phi[c] = NULL;
        s->corr[c] = NULL;
        s->ncorr[c] = 0;
    }
}

double vsg_pb_get(const vsg_pb_system *s, size_t linear)
{
    int c = (int)(linear & 1);
    size_t k = linear >> 1;
    if (s->precision == VSG_PRECISION_FLOAT) return ((const float *)s->phi[c])[k];
    return ((const double *)s->phi[c])[k];
}

void vsg_pb_set(vsg_pb_system *s, size_t linear, double v)
{
    int c = (int)(linear & 1);
    size_t k = linear >> 1;
    if (s->precision == VSG_PRECISION_FLOAT)
        ((float *)s->phi[c])[k] = (float)v;
    else
        ((double *)s->phi[c])[k] = v;
}

double vsg_pb_system_bytes(const vsg_pb_system *s)
{
    double real = s->precision == VSG_PRECISION_FLOAT ? 4.0 : 8.0;
    return (double)s->nodes * (1.0 + real) +
           (double)(s->ncorr[0] + s->ncorr[1]) * (double)sizeof(vsg_pb_corr);
}

/* Jacobi spectral radius of the Laplacian on a box with Dirichlet faces, n nodes per axis
 * (n − 2 unknowns): ρ = (cos π/(nx−1) + cos π/(ny−1) + cos π/(nz−1)) / 3; the optimal SOR
 * factor is 2 / (1 + sqrt(1 − ρ²)). Salt and dielectric jumps only lower ρ, so this ω is
 * at or slightly above the optimum, where SOR still converges. */
double vsg_sor_omega(int nx, int ny, int nz)
{
    const double pi = 3.14159265358979323846;
    double rho = (cos(pi / (nx - 1)) + cos(pi / (ny - 1)) + cos(pi / (nz - 1))) / 3.0;
    return 2.0 / (1.0 + sqrt(1.0 - rho * rho));
}

double vsg_sor_omega_start(const vsg_pb_system *s)
{
    const double pi = 3.14159265358979323846;
    int n[3] = {(s->nx - 1) / 2 + 1, (s->ny - 1) / 2 + 1, (s->nz - 1) / 2 + 1};
    double rho = (cos(pi / (n[0] - 1)) + cos(pi / (n[1] - 1)) + cos(pi / (n[2] - 1))) / 3.0;
    return vsg_omega_from_rho(rho * 6.0 / (6.0 + s->kh2));
}
