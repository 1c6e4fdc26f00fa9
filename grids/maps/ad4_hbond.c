/* ad4_hbond.c — AutoGrid 4.2.6's directional hydrogen bonds: the receptor bond vectors and the
 * angular factors at a grid point (ad4_maps.h).
 *
 * Written from the description of autogrid4 4.2.6 (main.cpp, "bond vector loop" and the grid
 * loop), with its thresholds:
 *  - D1 donor hydrogen: the first atom within sqrt(1.90) Å among the 20 before and after it
 *    (file order) is its heavy atom; rvector = unit(H − X); rexp 4 on OA/SA, else 2.
 *  - A2 acceptor (OA, SA): bonded atoms within 1.9 Å (1.3 Å for H/HD), the first two kept.
 *    One (carbonyl O=C): rvector = unit(O − C), rvector2 = unit(rvector × unit(X − C)) for the
 *    last atom X bonded to C (1.7 Å, 1.3 Å for HD). Two (hydroxyl/ether X1−O−X2): rvector2 =
 *    unit(X2 − X1), rvector = unit(O − the foot of O on the X1−X2 line).
 *  - A1 acceptor (NA): up to three bonded atoms (1.7 Å, 1.3 Å for H/HD); rvector = unit(N −
 *    their mean).
 *  - At a point: cosθ = −u·rvector. Donor: racc = cosθ^rexp (0 when cosθ ≤ 0) and, unless it is
 *    the hydrogen nearest the point, Hramp = ½ − ½cos(4/3·acos(rvector·rvector_nearest)).
 *    A1: rdon = cos²θ (0 behind). A2: Goodford's rdon = (0.9 + 0.1 sin 2ti)·cos t0 in front,
 *    562.25 (0.116978 − cos²θ)³ cos t0 down to 100°, 0 beyond, with t0 the angle out of the lone
 *    pair plane and ti the angle in it. */
#include <math.h>
#include <string.h>

#include "grids/maps/ad4_maps.h"

/* v ← v / |v|, with AutoGrid's guard against a zero length */
static void normalize(double v[3])
{
    double rd2 = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
    if (rd2 < AD4_APPROX_ZERO) rd2 = AD4_APPROX_ZERO;
    double inv = 1. / sqrt(rd2);
    for (int i = 0; i < 3; i++) v[i] *= inv;
}

static double dist2(const double a[3], const double b[3])
{
    double d0 = a[0] - b[0], d1 = a[1] - b[1], d2 = a[2] - b[2];
    return d0 * d0 + d1 * d1 + d2 * d2;
}

static int is_h(const ad4_site *s) { return s->name_class == 1 || s->name_class == 2; }

void ad4_hbond_vectors(ad4_site *s, size_t n)
{
    for (size_t ia = 0; ia < n; ia++) {
        ad4_site *a = &s[ia];
        memset(a->rv, 0, sizeof a->rv);
        memset(a->rv2, 0, sizeof a->rv2);
        a->rexp = 0;
        size_t from = ia > 20 ? ia - 20 : 0, to = ia + 20 < n - 1 ? ia + 20 : n - 1;
        if (a->hbond == AD4_HB_D1) {
            for (size_t ib = from; ib <= to; ib++) {
                if (ib == ia) continue;
                double d[3] = {a->x[0] - s[ib].x[0], a->x[1] - s[ib].x[1], a->x[2] - s[ib].x[2]};
                if (d[0] * d[0] + d[1] * d[1] + d[2] * d[2] < 1.90) {
                    a->rexp = s[ib].name_class == 3 ? 4 : 2;
                    normalize(d);
                    memcpy(a->rv, d, sizeof d);
                    break;
                }
            }
        } else if (a->hbond == AD4_HB_A2) {
            int nbond = 0;
            size_t i1 = 0, i2 = 0;
            for (size_t ib = from; ib <= to; ib++) {
                if (ib == ia) continue;
                double rd2 = dist2(a->x, s[ib].x);
                if ((rd2 < 3.61 && !is_h(&s[ib])) || (rd2 < 1.69 && is_h(&s[ib]))) {
                    if (nbond == 1) nbond = 2, i2 = ib;
                    else if (nbond == 0) nbond = 1, i1 = ib;
                }
            }
            if (nbond == 1) {
                for (int i = 0; i < 3; i++) a->rv[i] = a->x[i] - s[i1].x[i];
                normalize(a->rv);
                for (size_t j = from; j <= to; j++) {
                    if (j == i1 || j == ia) continue;
                    double rd2 = dist2(s[i1].x, s[j].x);
                    int hd = s[j].name_class == 1;
                    if ((rd2 < 2.89 && !hd) || (rd2 < 1.69 && hd)) {
                        double d[3];
                        for (int i = 0; i < 3; i++) d[i] = s[j].x[i] - s[i1].x[i];
                        normalize(d);
                        a->rv2[0] = a->rv[1] * d[2] - a->rv[2] * d[1];
                        a->rv2[1] = a->rv[2] * d[0] - a->rv[0] * d[2];
                        a->rv2[2] = a->rv[0] * d[1] - a->rv[1] * d[0];
                        normalize(a->rv2);
                    }
                }
            } else if (nbond == 2) {
                for (int i = 0; i < 3; i++) a->rv2[i] = s[i2].x[i] - s[i1].x[i];
                normalize(a->rv2);
                double rdot = 0.;
                for (int i = 0; i < 3; i++) rdot += (a->x[i] - s[i1].x[i]) * a->rv2[i];
                for (int i = 0; i < 3; i++) a->rv[i] = a->x[i] - ((rdot * a->rv2[i]) + s[i1].x[i]);
                normalize(a->rv);
            }
        } else if (a->hbond == AD4_HB_A1) {
            int nbond = 0;
            size_t b[3] = {0, 0, 0};
            for (size_t ib = from; ib <= to && nbond < 3; ib++) {
                if (ib == ia) continue;
                double rd2 = dist2(a->x, s[ib].x);
                if ((rd2 < 2.89 && !is_h(&s[ib])) || (rd2 < 1.69 && is_h(&s[ib]))) b[nbond++] = ib;
            }
            if (nbond == 1)
                for (int i = 0; i < 3; i++) a->rv[i] = a->x[i] - s[b[0]].x[i];
            else if (nbond == 2)
                for (int i = 0; i < 3; i++) a->rv[i] = a->x[i] - (s[b[1]].x[i] + s[b[0]].x[i]) / 2.;
            else if (nbond == 3)
                for (int i = 0; i < 3; i++) a->rv[i] = a->x[i] - (s[b[0]].x[i] + s[b[1]].x[i] + s[b[2]].x[i]) / 3.;
            if (nbond > 0) normalize(a->rv);
        }
    }
}
