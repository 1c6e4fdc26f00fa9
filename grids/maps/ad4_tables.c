/* ad4_tables.c — AutoGrid 4.2.6's energy tables, shared by both twins of the AutoDock4 maps:
 * the pair table of each (ligand type, receptor type) and the desolvation Gaussian. A set of 13
 * ligand types on 6 receptor types is 78 tables of 2048 bins, each smoothed by a window minimum
 * (51 bins at smooth 0.5): ~8 ms on one thread, most of a pocket map set's GPU call, so the
 * tables are built in parallel. */
#include <math.h>
#include <string.h>

#include "grids/maps/ad4_maps.h"

/* The pair table of ligand type lig on receptor type rec (AD4_NEINT bins). */
void ad4_pair_table(const vsg_ad4_params *p, const vsg_ad4_atom_par *lig, const vsg_ad4_atom_par *rec,
                    double smooth, double *t, double *scratch)
{
    int xa = 12, xb = 6;
    double rij = (lig->rii + rec->rii) / 2.;
    double eps = sqrt((lig->epsii * p->coeff_vdw) * (rec->epsii * p->coeff_vdw));
    int lig_don = lig->hbond == AD4_HB_DS || lig->hbond == AD4_HB_D1, rec_don = rec->hbond == AD4_HB_DS || rec->hbond == AD4_HB_D1;
    if (lig->hbond > 2 && rec_don) {
        xb = 10, rij = lig->rij_hb, eps = lig->epsij_hb * p->coeff_hbond;
    } else if (lig_don && rec->hbond > 2) {
        xb = 10, rij = rec->rij_hb, eps = rec->epsij_hb * p->coeff_hbond;
    }
    double tmp = eps / (double)(xa - xb);
    double ca = tmp * pow(rij, (double)xa) * (double)xb;
    double cb = tmp * pow(rij, (double)xb) * (double)xa;
    for (int i = 1; i < AD4_NEINT; i++) {
        double r = (double)i * AD4_INV_A_DIV;
        double e = ca / pow(r, (double)xa) - cb / pow(r, (double)xb);
        t[i] = AD4_EINTCLAMP < e ? AD4_EINTCLAMP : e;
    }
    t[0] = AD4_EINTCLAMP;
    t[AD4_NEINT - 1] = 0.;
    int w = (int)(smooth * AD4_A_DIV / 2.);
    if (w > 0) {
        for (int i = 0; i < AD4_NEINT; i++) {
            double m = 100000.;
            int lo = i - w > 0 ? i - w : 0, hi = i + w + 1 < AD4_NEINT ? i + w + 1 : AD4_NEINT;
            for (int j = lo; j < hi; j++) m = t[j] < m ? t[j] : m;
            scratch[i] = m;
        }
        memcpy(t, scratch, sizeof(double) * AD4_NEINT);
    }
}

void ad4_pair_tables(const vsg_ad4_params *p, const vsg_ad4_atom_par *const *lig, int nlig,
                     const vsg_ad4_atom_par *const *rec, int nrec, double smooth, double *tab)
{
#pragma omp parallel for schedule(dynamic, 1)
    for (int k = 0; k < nlig * nrec; k++) {
        double scratch[AD4_NEINT];
        ad4_pair_table(p, lig[k / nrec], rec[k % nrec], smooth, tab + (size_t)k * AD4_NEINT, scratch);
    }
}

void ad4_desolv_table(const vsg_ad4_params *p, double *sol)
{
    sol[0] = 0.;
    for (int i = 1; i < AD4_NEINT; i++) {
        double r = (double)i * AD4_INV_A_DIV;
        sol[i] = p->coeff_desolv * exp(-(r * r) / (2. * (AD4_SIGMA * AD4_SIGMA)));
    }
}
