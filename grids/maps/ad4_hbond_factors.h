/* ad4_hbond_factors.h — the directional factors of AutoGrid 4.2.6's hydrogen bonds seen from a
 * grid point, one source for both twins: ad4_maps.c includes it as C, gpu/maps/ad4_maps_gpu.cu
 * as device code, so the CPU and the GPU run the same operations in the same order.
 *
 * u is the unit vector from the point to receptor atom ia; closest is the donor hydrogen
 * nearest to the point. racc scales acceptor probes on donors (D1: cos^rexp of the angle at the
 * hydrogen, and the ramp hramp between hydrogens of one point), rdon donor probes on acceptors
 * (A1: cos² of the angle at the acceptor; A2: the lone-pair plane of a two-bonded oxygen, with
 * autogrid4's 100° fall-off); all 1 for atoms without directionality. */
#ifndef VSG_AD4_HBOND_FACTORS_H
#define VSG_AD4_HBOND_FACTORS_H

#include <math.h>
#include <stddef.h>

#include "grids/maps/ad4_maps.h"

#ifdef __CUDACC__
#define VSG_HOST_DEVICE __host__ __device__
#else
#define VSG_HOST_DEVICE
#endif

#define AD4_PI_HALVED 1.57079632679489661923

static inline VSG_HOST_DEVICE void ad4_hbond_factors(const ad4_site *s, size_t ia, size_t closest, const double u[3],
                                                     double *racc, double *rdon, double *hramp)
{
    const ad4_site *a = &s[ia];
    double ra = 1., rd = 1., hr = 1.;
    if (a->hbond == AD4_HB_D1) {
        double c = 0.;
        for (int i = 0; i < 3; i++) c -= u[i] * a->rv[i];
        if (c <= 0.) {
            ra = 0.;
        } else {
            if (a->rexp == 2) ra = c * c;
            else if (a->rexp == 4) { double t = c * c; ra = t * t; }
            else ra = c;
            if (ia != closest) {
                double ct = 0.;
                for (int i = 0; i < 3; i++) ct += s[closest].rv[i] * a->rv[i];
                ct = ct < 1.0 ? ct : 1.0;
                ct = ct > -1.0 ? ct : -1.0;
                hr = 0.5 - 0.5 * cos(acos(ct) * 120. / 90.);
            }
        }
    } else if (a->hbond == AD4_HB_A1) {
        double c = 0.;
        for (int i = 0; i < 3; i++) c -= u[i] * a->rv[i];
        rd = c <= 0. ? 0. : c * c;
    } else if (a->hbond == AD4_HB_A2) {
        double c = 0., t0 = 0.;
        for (int i = 0; i < 3; i++) c -= u[i] * a->rv[i];
        for (int i = 0; i < 3; i++) t0 += u[i] * a->rv2[i];
        if (t0 > 1.) t0 = 1.;
        else if (t0 < -1.) t0 = -1.;
        t0 = AD4_PI_HALVED - acos(t0);
        double cr[3] = {u[1] * a->rv2[2] - u[2] * a->rv2[1], u[2] * a->rv2[0] - u[0] * a->rv2[2],
                        u[0] * a->rv2[1] - u[1] * a->rv2[0]};
        double rd2 = cr[0] * cr[0] + cr[1] * cr[1] + cr[2] * cr[2];
        if (rd2 < AD4_APPROX_ZERO) rd2 = AD4_APPROX_ZERO;
        double inv = 1. / sqrt(rd2), ti = 0.;
        for (int i = 0; i < 3; i++) ti += cr[i] * inv * a->rv[i];
        rd = 0.;
        if (c >= 0.) {
            if (ti > 1.) ti = 1.;
            else if (ti < -1.) ti = -1.;
            ti = acos(ti) - AD4_PI_HALVED;
            if (ti < 0.) ti = -ti;
            rd = (0.9 + 0.1 * sin(ti + ti)) * cos(t0);
        } else if (c >= -0.34202) { /* cos 100° */
            rd = 562.25 * pow(0.116978 - c * c, 3.) * cos(t0);
        }
    }
    *racc = ra, *rdon = rd, *hramp = hr;
}

#endif
