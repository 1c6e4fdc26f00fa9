/* ad4_maps.c — the AutoDock4 affinity and desolvation maps, CPU twin (declared in vsgrid.h,
 * "AutoDock4 affinity and desolvation maps").
 *
 * What autogrid4 4.2.6 computes, term by term (written from its description, main.cpp):
 *  - Pair tables, one per (ligand type, receptor type), AD4_NEINT bins of 1/100 Å:
 *    E(r) = cA/r^12 − cB/r^n with n = 6 (vdW: Rij = (Rii + Rjj)/2, εij = sqrt(εi·cvdW · εj·cvdW))
 *    or n = 10 when one side is an acceptor (hbond 3..5) and the other a donor (1, 2): then Rij
 *    and εij·chbond are the acceptor's Rij_hb, epsij_hb. cA = ε/(12−n)·Rij^12·n, cB =
 *    ε/(12−n)·Rij^n·12. Each bin min(1e5, E(bin/100)); bin 0 is 1e5, the last 0; then every bin
 *    becomes the minimum over ±(int)(smooth·100/2) bins ("smooth").
 *  - Desolvation: sol(r) = cdesolv·exp(−r²/(2·3.6²)) by bins (bin 0 is 0). A map of probe type
 *    p gets, per receptor atom i within 8 Å, solpar_p·vol_i·sol + (solpar_i + qasp·|q_i|)·vol_p·sol;
 *    the d map gets qasp·vol_i·sol.
 *  - At a grid point, for every receptor atom within AD4_NBC (file order): a probe that cannot
 *    hydrogen-bond adds E. An H-bonding probe, with rsph = clamp(E/100, 0, 1): an AS/A2 probe
 *    on a donor hydrogen adds E·Hramp·(racc + (1 − racc)·rsph); an A1 probe on a donor and a
 *    donor probe on an acceptor keep only the lowest and the highest of E·(r + (1 − r)·rsph)
 *    (r = racc, rdon) over the atoms, and both are added at the end (one such atom: twice);
 *    other pairs add E. racc, rdon, Hramp: ad4_hbond.c.
 *  - Distances are taken with the atoms shifted to the box centre, as AutoGrid does, so the bins
 *    fall where its bins fall. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "grids/base/vsgrid.h"
#include "grids/formats/grid.h"
#include "grids/maps/ad4_hbond_factors.h"
#include "grids/maps/ad4_maps.h"
#include "grids/receptor/molecule.h"

vsg_status vsg_ad4_pair_energy(const vsg_ad4_params *p, const char *ligand_type, const char *receptor_type,
                               double smooth, double r, double *energy)
{
    if (!p || !ligand_type || !receptor_type || !energy || !(r >= 0.0) || !(smooth >= 0.0))
        return vsg_fail(VSG_E_ARG, "ad4 pair energy: NULL argument, r < 0 or smooth < 0");
    const vsg_ad4_atom_par *l = vsg_ad4_params_find(p, ligand_type), *c = vsg_ad4_params_find(p, receptor_type);
    if (!l || !c)
        return vsg_fail(VSG_E_DATA, "ad4 pair energy: no parameters for type '%s'", l ? receptor_type : ligand_type);
    double *t = malloc(sizeof(double) * 2 * AD4_NEINT);
    if (!t) return vsg_fail(VSG_E_NOMEM, "ad4 pair energy: out of memory");
    ad4_pair_table(p, l, c, smooth, t, t + AD4_NEINT);
    int i = (int)(r * AD4_A_DIV);
    *energy = t[i < AD4_NEINT - 1 ? i : AD4_NEINT - 1];
    free(t);
    return VSG_OK;
}

/* A map value as the grid stores it: rounded to autogrid4's 3 decimals first (its round3dp,
 * floor(v·1000 + 0.5)/1000) and then to float, which is the value autogrid4 prints ("%.3f" of
 * (float)round3dp(v)). Converting v to float first would shift a value next to a rounding edge
 * by 0.001 and, above 4096 kcal/mol (the clamped region, up to 1e5 per pair), by a float ulp. */
static float to_map_float(double v)
{
    if (fabs(v) < 1e-3) return (float)v; /* written "0." or 0.001 either way */
    return (float)(floor(v * 1000.0 + 0.5) / 1000.0);
}

vsg_status vsg_ad4_maps_cpu(const vsg_molecule *rec, const vsg_gpf *gpf, const vsg_ad4_params *p, int threads,
                            vsg_grid **out)
{
    if (!out) return vsg_fail(VSG_E_ARG, "ad4 maps: NULL argument");
    for (int m = 0; gpf && m <= gpf->n_ligand_types && m <= VSG_AG_MAX_MAPS; m++) out[m] = NULL;
    ad4_plan pl;
    vsg_status st = ad4_plan_make(rec, gpf, p, &pl);
    if (st != VSG_OK) return st;
    const int nmap = pl.nmap, nrt = pl.nrt;
    const size_t na = pl.na;
    const ad4_site *s = pl.s;
    const vsg_ad4_atom_par *const *lig = pl.lig;
    const double *tab = pl.tab, *sol = pl.sol;
    const int *ne = pl.ne, *n = pl.n;
    const double h = pl.h, spacing[3] = {h, h, h};
    for (int m = 0; m <= nmap; m++) out[m] = NULL;

    /* the grids */
    for (int m = 0; m <= nmap && st == VSG_OK; m++) {
        out[m] = vsg_grid_new(n, pl.origin, spacing, "kcal/mol");
        if (!out[m]) st = VSG_E_NOMEM;
        else if (m < nmap) st = vsg_grid_meta_add(out[m], "method", "ad4 affinity %s", gpf->ligand_types[m]);
        else st = vsg_grid_meta_add(out[m], "method", "ad4 desolvation");
    }

    int nomem = 0;
    if (st == VSG_OK) {
#ifdef _OPENMP
        const int nth = threads > 0 ? threads : omp_get_max_threads();
#else
        const int nth = 1;
        (void)threads;
        (void)nth;
#endif
        const double cut2 = AD4_NBC * AD4_NBC * (1.0 + 1e-12);
        const double qasp = gpf->qasp;
#pragma omp parallel num_threads(nth)
        {
            size_t *near = malloc(sizeof(size_t) * na), *row = malloc(sizeof(size_t) * na);
            double *e = malloc(sizeof(double) * 3 * (nmap + 1));
            if (!near || !row || !e) {
#pragma omp atomic write
                nomem = 1;
            }
#pragma omp for schedule(dynamic, 1)
            for (int kz = 0; kz < n[2]; kz++) {
                if (!near || !row || !e) continue;
                const double cz = (double)(kz - ne[2]) * h;
                size_t nn = 0;
                for (size_t i = 0; i < na; i++) {
                    double dz = s[i].x[2] - cz;
                    if (dz * dz <= cut2) near[nn++] = i;
                }
                for (int jy = 0; jy < n[1]; jy++) {
                    const double cy = (double)(jy - ne[1]) * h;
                    size_t nr = 0;
                    for (size_t k = 0; k < nn; k++) {
                        const ad4_site *a = &s[near[k]];
                        double dy = a->x[1] - cy, dz = a->x[2] - cz;
                        if (dy * dy + dz * dz <= cut2) row[nr++] = near[k];
                    }
                    for (int ix = 0; ix < n[0]; ix++) {
                        const double c[3] = {(double)(ix - ne[0]) * h, cy, cz};
                        double *en = e, *hmin = e + nmap + 1, *hmax = hmin + nmap + 1;
                        int hflag[VSG_AG_MAX_MAPS];
                        for (int m = 0; m <= nmap; m++) en[m] = 0., hmin[m] = 999999., hmax[m] = -999999.;
                        for (int m = 0; m < nmap; m++) hflag[m] = 0;
                        /* the donor hydrogen nearest to the point (first in file order at a tie).
                         * AutoGrid searches all donors; only the row's atoms are searched here:
                         * the nearest matters only when a D1 donor lies within the cutoff, and
                         * then the nearest does too, and the row's list (file order) holds every
                         * atom within the cutoff of the row's points. */
                        double rmin = 999999.;
                        size_t closest = 0;
                        for (size_t k = 0; k < nr; k++) {
                            const ad4_site *a = &s[row[k]];
                            if (a->hbond != AD4_HB_DS && a->hbond != AD4_HB_D1) continue;
                            double d0 = a->x[0] - c[0], d1 = a->x[1] - c[1], d2 = a->x[2] - c[2];
                            double r = sqrt(d0 * d0 + d1 * d1 + d2 * d2);
                            if (r < rmin) rmin = r, closest = row[k];
                        }
                        for (size_t k = 0; k < nr; k++) {
                            const size_t ia = row[k];
                            const ad4_site *a = &s[ia];
                            double u[3] = {a->x[0] - c[0], a->x[1] - c[1], a->x[2] - c[2]};
                            double r = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
                            if (r < AD4_APPROX_ZERO) r = AD4_APPROX_ZERO;
                            if (r > AD4_NBC) continue;
                            const double inv_r = 1. / r;
                            for (int i = 0; i < 3; i++) u[i] *= inv_r;
                            int bin = (int)(r * AD4_A_DIV);
                            if (bin > AD4_NEINT - 1) bin = AD4_NEINT - 1; /* r ≤ 8 Å: never */
                            double racc = 1., rdon = 1., hramp = 1.;
                            if (a->hbond == AD4_HB_D1 || a->hbond == AD4_HB_A1 || a->hbond == AD4_HB_A2)
                                ad4_hbond_factors(s, ia, closest, u, &racc, &rdon, &hramp);
                            const int rdonor = a->hbond == AD4_HB_DS || a->hbond == AD4_HB_D1;
                            const double sl = sol[bin];
                            for (int m = 0; m < nmap; m++) {
                                const vsg_ad4_atom_par *pr = lig[m];
                                const double E = tab[((size_t)m * nrt + a->type) * AD4_NEINT + bin];
                                if (pr->hbond > 0) {
                                    double rsph = E / 100.;
                                    rsph = rsph > 0. ? rsph : 0.;
                                    rsph = rsph < 1. ? rsph : 1.;
                                    if ((pr->hbond == AD4_HB_AS || pr->hbond == AD4_HB_A2) && rdonor) {
                                        en[m] += E * hramp * (racc + (1. - racc) * rsph);
                                    } else if (pr->hbond == AD4_HB_A1 && rdonor) {
                                        double v = E * (racc + (1. - racc) * rsph);
                                        hmin[m] = hmin[m] < v ? hmin[m] : v;
                                        hmax[m] = hmax[m] > v ? hmax[m] : v;
                                        hflag[m] = 1;
                                    } else if ((pr->hbond == AD4_HB_DS || pr->hbond == AD4_HB_D1) && a->hbond > 2) {
                                        double v = E * (rdon + (1. - rdon) * rsph);
                                        hmin[m] = hmin[m] < v ? hmin[m] : v;
                                        hmax[m] = hmax[m] > v ? hmax[m] : v;
                                        hflag[m] = 1;
                                    } else {
                                        en[m] += E;
                                    }
                                } else {
                                    en[m] += E;
                                }
                                en[m] += pr->solpar * a->vol * sl + (a->solpar + qasp * a->absq) * pr->vol * sl;
                            }
                            en[nmap] += qasp * a->vol * sl;
                        }
                        const size_t node = (size_t)ix + (size_t)n[0] * ((size_t)jy + (size_t)n[1] * (size_t)kz);
                        for (int m = 0; m < nmap; m++) {
                            if (hflag[m]) {
                                en[m] += hmin[m];
                                en[m] += hmax[m];
                            }
                            out[m]->data[node] = to_map_float(en[m]);
                        }
                        out[nmap]->data[node] = to_map_float(en[nmap]);
                    }
                }
            }
            free(near);
            free(row);
            free(e);
        }
    }
    if (st == VSG_OK && nomem) st = vsg_fail(VSG_E_NOMEM, "ad4 maps: out of memory for a thread's lists");
    ad4_plan_free(&pl);
    if (st != VSG_OK)
        for (int m = 0; m <= nmap; m++) {
            vsg_grid_free(out[m]);
            out[m] = NULL;
        }
    return st;
}
