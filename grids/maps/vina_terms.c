/* vina_terms.c — the terms of Vina's and Vinardo's scoring functions between one receptor
 * atom and one ligand atom (vsgrid.h, "Vina and Vinardo maps"), and Vina's r² table. */
#include <math.h>

#include "grids/maps/vina_terms.h"

/* XS van der Waals radii (Å): Vina's, then Vinardo's, by vsg_xs_type. */
static const double xs_radius_vina[VSG_XS_COUNT] = {1.9, 1.9, 1.8, 1.8, 1.8, 1.8, 1.7, 1.7, 1.7, 1.7,
                                                    2.0, 2.1, 1.5, 1.8, 2.0, 2.2, 2.2, 2.3, 1.2};
static const double xs_radius_vinardo[VSG_XS_COUNT] = {2.0, 2.0, 1.7, 1.7, 1.7, 1.7, 1.6, 1.6, 1.6, 1.6,
                                                       2.0, 2.1, 1.5, 1.8, 2.0, 2.2, 2.2, 2.3, 1.2};

static int hydrophobic(int t)
{
    return t == VSG_XS_C_H || t == VSG_XS_F_H || t == VSG_XS_Cl_H || t == VSG_XS_Br_H || t == VSG_XS_I_H;
}
static int acceptor(int t) { return t == VSG_XS_N_A || t == VSG_XS_N_DA || t == VSG_XS_O_A || t == VSG_XS_O_DA; }
static int donor(int t)
{
    return t == VSG_XS_N_D || t == VSG_XS_N_DA || t == VSG_XS_O_D || t == VSG_XS_O_DA || t == VSG_XS_Met_D;
}
static int hbond_pair(int a, int b) { return (donor(a) && acceptor(b)) || (donor(b) && acceptor(a)); }

/* 1 at x ≤ good, 0 at x ≥ bad (bad > good), linear between. */
static double ramp(double good, double bad, double x)
{
    if (x <= good) return 1.0;
    if (x >= bad) return 0.0;
    return (x - bad) / (good - bad);
}

static void terms(vsg_vina_scoring sf, int a, int b, double r, vsg_vina_terms *t)
{
    const int vinardo = sf == VSG_VINA_SCORING_VINARDO;
    const double *R = vinardo ? xs_radius_vinardo : xs_radius_vina;
    double d = r - (R[a] + R[b]);
    t->optimal_distance = d;
    t->gauss1 = t->gauss2 = t->repulsion = t->hydrophobic = t->hbond = t->energy = 0.0;
    if (r >= VSG_VINA_CUTOFF) return;
    /* the same order of operations as Vina, so tables agree to the last bit */
    if (vinardo) {
        double g = d / 0.8;
        t->gauss1 = exp(-(g * g));
        t->repulsion = d > 0.0 ? 0.0 : d * d;
        t->hydrophobic = hydrophobic(a) && hydrophobic(b) ? ramp(0.0, 2.5, d) : 0.0;
        t->hbond = hbond_pair(a, b) ? ramp(-0.6, 0.0, d) : 0.0;
        double e = 0.0;
        e += -0.045 * t->gauss1;
        e += 0.8 * t->repulsion;
        e += -0.035 * t->hydrophobic;
        e += -0.600 * t->hbond;
        t->energy = e;
    } else {
        double g1 = d / 0.5, g2 = (r - (R[a] + R[b] + 3.0)) / 2.0;
        t->gauss1 = exp(-(g1 * g1));
        t->gauss2 = exp(-(g2 * g2));
        t->repulsion = d > 0.0 ? 0.0 : d * d;
        t->hydrophobic = hydrophobic(a) && hydrophobic(b) ? ramp(0.5, 1.5, d) : 0.0;
        t->hbond = hbond_pair(a, b) ? ramp(-0.7, 0.0, d) : 0.0;
        double e = 0.0;
        e += -0.035579 * t->gauss1;
        e += -0.005156 * t->gauss2;
        e += 0.840245 * t->repulsion;
        e += -0.035069 * t->hydrophobic;
        e += -0.587439 * t->hbond;
        t->energy = e;
    }
}

double vsg_vina_pair_energy(vsg_vina_scoring sf, int receptor, int ligand, double r)
{
    vsg_vina_terms t;
    terms(sf, receptor, ligand, r, &t);
    return t.energy;
}

vsg_status vsg_vina_pair_terms(vsg_vina_scoring sf, vsg_xs_type receptor, vsg_xs_type ligand, double r,
                               vsg_vina_terms *out)
{
    if (!out) return vsg_fail(VSG_E_ARG, "vsg_vina_pair_terms: NULL argument");
    if (sf != VSG_VINA_SCORING_VINA && sf != VSG_VINA_SCORING_VINARDO)
        return vsg_fail(VSG_E_ARG, "vsg_vina_pair_terms: unknown scoring %d", (int)sf);
    if ((int)receptor < 0 || receptor >= VSG_XS_COUNT || (int)ligand < 0 || ligand >= VSG_XS_COUNT)
        return vsg_fail(VSG_E_ARG, "vsg_vina_pair_terms: XS type out of range (%d, %d)", (int)receptor, (int)ligand);
    if (!(r >= 0.0) || !isfinite(r)) return vsg_fail(VSG_E_ARG, "vsg_vina_pair_terms: bad distance %g", r);
    terms(sf, receptor, ligand, r, out);
    return VSG_OK;
}

void vsg_vina_table_fill(vsg_vina_scoring sf, int receptor, int ligand, double *table)
{
    double lo = vsg_vina_pair_energy(sf, receptor, ligand, 0.0);
    for (int k = 0; k < VSG_VINA_TABLE_BINS; k++) {
        double hi = vsg_vina_pair_energy(sf, receptor, ligand, sqrt((k + 1) / VSG_VINA_TABLE_FACTOR));
        table[k] = (hi + lo) / 2.0;
        lo = hi;
    }
}
