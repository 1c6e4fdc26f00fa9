/* rotations.c — the super-Fibonacci rotation set (Alexa 2022; construction in vsgrid.h, "placement")
 * and the two quaternion helpers the pose search needs. */
#include <math.h>
#include <stddef.h>

#include "grids/base/vsgrid.h"

/* ψ: the real root > 1 of ψ⁴ = ψ + 4 (Alexa 2022, eq. 9). */
#define SF_PSI 1.533751168755204288118041
#define SF_PHI 1.414213562373095048801689 /* √2 */
#define SF_TWO_PI 6.283185307179586476925287

vsg_status vsg_rotations_super_fibonacci(int n, vsg_quat *out)
{
    if (!out || n < 1 || n > VSG_ROTATIONS_MAX)
        return vsg_fail(VSG_E_ARG, "rotations: %d rotations asked (1 to %d)", n, VSG_ROTATIONS_MAX);
    for (int i = 0; i < n; i++) {
        double s = i + 0.5;
        double r = sqrt(s / n), R = sqrt(1.0 - s / n);
        double alpha = SF_TWO_PI * s / SF_PHI, beta = SF_TWO_PI * s / SF_PSI;
        vsg_quat q = {r * sin(alpha), r * cos(alpha), R * sin(beta), R * cos(beta)};
        double norm = sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z); /* 1 up to rounding */
        q.w /= norm;
        q.x /= norm;
        q.y /= norm;
        q.z /= norm;
        out[i] = q;
    }
    return VSG_OK;
}

void vsg_quat_to_matrix(const vsg_quat *q, double m[9])
{
    const double w = q->w, x = q->x, y = q->y, z = q->z;
    m[0] = 1 - 2 * (y * y + z * z);
    m[1] = 2 * (x * y - w * z);
    m[2] = 2 * (x * z + w * y);
    m[3] = 2 * (x * y + w * z);
    m[4] = 1 - 2 * (x * x + z * z);
    m[5] = 2 * (y * z - w * x);
    m[6] = 2 * (x * z - w * y);
    m[7] = 2 * (y * z + w * x);
    m[8] = 1 - 2 * (x * x + y * y);
}

double vsg_quat_angle(const vsg_quat *a, const vsg_quat *b)
{
    double d = fabs(a->w * b->w + a->x * b->x + a->y * b->y + a->z * b->z);
    if (d > 1.0) d = 1.0;
    return 2.0 * acos(d);
}
