/* alpb.c — ALPB constants, GEM's estimate of the electrostatic size A, and the exact
 * all-pairs surface potential (the CPU twin, double precision). Formulas: alpb.h. */
#include "grids/surface/alpb.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grids/base/constants.h"
#include "grids/base/vsgrid.h"
#include "grids/receptor/molecule.h"

void vsg_alpb_params_default(vsg_alpb_params *p)
{
    memset(p, 0, sizeof *p);
    p->eps_in = 1.0;
    p->eps_out = 80.0;
    p->salt = 0.15;
    p->ion_radius = 2.0;
    p->projection = 0.0;
    p->A = 0.0;
    p->temperature = 298.15;
}

double vsg_alpb_estimate_A(const vsg_molecule *m)
{
    /* Atoms are spheres of "mass" r³; their own moment about a diameter (2/5 m r², split
     * over the two axes it is added to) keeps single atoms from giving det = 0. */
    double cx = 0, cy = 0, cz = 0, mass = 0;
    for (size_t i = 0; i < m->n; i++) {
        const vsg_atom *a = &m->atoms[i];
        double w = a->radius * a->radius * a->radius;
        cx += w * a->x, cy += w * a->y, cz += w * a->z, mass += w;
    }
    if (mass <= 0.0) return 0.0;
    cx /= mass, cy /= mass, cz /= mass;
    double I11 = 0, I22 = 0, I33 = 0, I12 = 0, I13 = 0, I23 = 0;
    for (size_t i = 0; i < m->n; i++) {
        const vsg_atom *a = &m->atoms[i];
        double r2 = a->radius * a->radius, w = r2 * a->radius, own = r2 / 5.0;
        double x = a->x - cx, y = a->y - cy, z = a->z - cz;
        double x2 = x * x + own, y2 = y * y + own, z2 = z * z + own;
        I11 += w * (y2 + z2), I22 += w * (z2 + x2), I33 += w * (x2 + y2);
        I12 -= w * x * y, I13 -= w * x * z, I23 -= w * y * z;
    }
    double det = I11 * I22 * I33 + 2.0 * I12 * I23 * I13 - I11 * I23 * I23 - I22 * I13 * I13 -
                 I33 * I12 * I12;
    if (det <= 0.0) return 0.0;
    return sqrt(2.5 / mass) * pow(det, 1.0 / 6.0);
}

vsg_status vsg_alpb_setup(const vsg_alpb_params *p, const vsg_molecule *m, vsg_alpb *k)
{
    memset(k, 0, sizeof *k);
    if (!(p->eps_in > 0.0) || !(p->eps_out > 0.0))
        return vsg_fail(VSG_E_ARG, "dielectric constants must be positive (got %g and %g)", p->eps_in,
                        p->eps_out);
    if (!(p->salt >= 0.0)) return vsg_fail(VSG_E_ARG, "salt concentration must be ≥ 0 (got %g)", p->salt);
    if (!(p->ion_radius > 0.0))
        return vsg_fail(VSG_E_ARG, "ion-exclusion radius must be > 0 (got %g)", p->ion_radius);
    if (!(p->temperature > 0.0)) return vsg_fail(VSG_E_ARG, "temperature must be > 0");
    double A = p->A > 0.0 ? p->A : vsg_alpb_estimate_A(m);
    if (!(A > 0.0) || !isfinite(A))
        return vsg_fail(VSG_E_DATA, "%s: cannot estimate the electrostatic size A (no atoms with radii?)",
                        m->source);
    const double alpha = VSG_ALPB_ALPHA, beta = p->eps_in / p->eps_out;
    const double ab1 = 1.0 + alpha * beta, amb = alpha * (1.0 - beta);
    k->A = A;
    k->projection = p->projection;
    k->ion_radius = p->ion_radius;
    k->r = A + p->projection;
    k->rprime = A + p->ion_radius;
    k->r0 = A / 2.0;
    k->kt_kcal = VSG_R_KCAL * p->temperature;
    if (p->gem_compat) {
        k->kappa = 0.316 * sqrt(p->salt);
        k->coulomb = 332.0;
        k->region = k->r > k->rprime ? 3 : k->r > A ? 2 : 1;
    } else {
        double lambda_b = vsg_bjerrum(p->temperature);
        k->kappa = sqrt(8.0 * VSG_PI * lambda_b * VSG_MOLAR_TO_A3 * p->salt / p->eps_out);
        k->coulomb = VSG_COULOMB_KCAL;
        k->region = k->r > k->rprime ? 3 : k->r >= A ? 2 : 1;
    }
    if (k->r <= 0.0) return vsg_fail(VSG_E_ARG, "projection %g Å puts the point inside out (A = %g Å)",
                                     p->projection, A);
    const double kap = k->kappa, r = k->r, rp = k->rprime;
    k->inv_eps_in = 1.0 / p->eps_in;
    k->c_out = (1.0 + alpha) / (ab1 * p->eps_out);
    double layer = amb / rp * (1.0 - 1.0 / (1.0 + kap * rp)); /* salt term of the layer */
    if (k->region == 3)
        k->c_const = -amb * exp(-kap * (r - rp)) / (r * (1.0 + kap * rp)) / (ab1 * p->eps_out);
    else if (k->region == 2)
        k->c_const = (-amb / r + layer) / (ab1 * p->eps_out);
    else
        k->c_const = layer / (ab1 * p->eps_out);
    k->A2 = A * A;
    k->C = (k->A2 - k->r0 * k->r0) * (k->A2 - r * r);
    k->s2A2 = (1.0 / p->eps_in - 1.0 / p->eps_out) / (ab1 * A) * k->A2;
    return VSG_OK;
}

double vsg_alpb_pair(const vsg_alpb *k, double d, double dp)
{
    const double kap = k->kappa;
    /* 1/(d'(1+κd')) − 1/d' = −κ/(1+κd'): the salt screening of the layer; 0 without salt,
     * so d' need not be known then. */
    double salt = kap > 0.0 ? -kap / (1.0 + kap * dp) : 0.0;
    switch (k->region) {
    case 3:
        return k->c_out * (kap > 0.0 ? exp(-kap * (d - dp)) / (d * (1.0 + kap * dp)) : 1.0 / d) + k->c_const;
    case 2:
        return k->c_out * (1.0 / d + salt) + k->c_const;
    default:
        return k->inv_eps_in / d - k->s2A2 / sqrt(k->C + k->A2 * d * d) + k->c_out * salt + k->c_const;
    }
}

void vsg_alpb_points(const vsg_alpb *k, const vsg_mesh *mesh, size_t i, double p[3], double pp[3])
{
    for (int c = 0; c < 3; c++) {
        double v = mesh->xyz[3 * i + c], n = mesh->normal[3 * i + c];
        p[c] = v + k->projection * n;
        pp[c] = v + k->ion_radius * n;
    }
}

vsg_status vsg_alpb_exact_cpu(const vsg_alpb *k, const vsg_molecule *m, const vsg_mesh *mesh, double *phi)
{
    const long nv = (long)mesh->nvert;
#pragma omp parallel for schedule(dynamic, 64)
    for (long i = 0; i < nv; i++) {
        double p[3], pp[3], sum = 0.0;
        vsg_alpb_points(k, mesh, (size_t)i, p, pp);
        for (size_t j = 0; j < m->n; j++) {
            const vsg_atom *a = &m->atoms[j];
            if (a->charge == 0.0) continue;
            double dx = p[0] - a->x, dy = p[1] - a->y, dz = p[2] - a->z;
            double ex = pp[0] - a->x, ey = pp[1] - a->y, ez = pp[2] - a->z;
            double d = sqrt(dx * dx + dy * dy + dz * dz), dp = sqrt(ex * ex + ey * ey + ez * ez);
            sum += a->charge * vsg_alpb_pair(k, d, dp);
        }
        phi[i] = k->coulomb * sum;
    }
    return VSG_OK;
}
