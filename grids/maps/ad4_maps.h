/* ad4_maps.h — internals of the AutoDock4 maps shared by the CPU twin (ad4_maps.c, ad4_hbond.c)
 * and the GPU twin (gpu/maps/ad4_maps_gpu.cu): AutoGrid 4.2.6's constants, the receptor site
 * record, the pair tables and the H-bond geometry. */
#ifndef VSG_AD4_MAPS_H
#define VSG_AD4_MAPS_H

#include <stddef.h>

#include "grids/base/vsgrid.h"

/* autogrid4 4.2.6 as Debian builds it (its log: NEINT=2048, NDIEL=16384, NBC 8.00, clamp 1e5) */
#define AD4_A_DIV 100.0        /* table bins per Å: lookup(r) = (int)(r·A_DIV) */
#define AD4_INV_A_DIV 0.01     /* angstrom(i) = i·INV_A_DIV */
#define AD4_NEINT 2048         /* vdW/H-bond table length */
#define AD4_NDIEL 16384        /* desolvation table length */
#define AD4_NBC 8.0            /* Å, non-bond cutoff: farther atoms add nothing to these maps */
#define AD4_EINTCLAMP 100000.0 /* pair energy clamp, kcal/mol */
#define AD4_APPROX_ZERO 1.0e-6
#define AD4_SIGMA 3.6          /* Å, desolvation Gaussian width */

enum { AD4_HB_NONE = 0, AD4_HB_DS = 1, AD4_HB_D1 = 2, AD4_HB_AS = 3, AD4_HB_A1 = 4, AD4_HB_A2 = 5 };

/* One receptor atom, coordinates relative to the box centre (as AutoGrid shifts them). */
typedef struct {
    double x[3];
    double vol, solpar, absq;   /* solvation volume and parameter, |charge| */
    int type;                   /* index into the run's receptor types */
    int hbond;                  /* AD4_HB_* */
    int name_class;             /* 1 HD, 2 H, 3 OA or SA, 0 other: what the bond search asks */
    int rexp;                   /* D1: 4 when bonded to OA/SA, 2 otherwise, 0 when no partner */
    double rv[3], rv2[3];       /* AutoGrid's rvector / rvector2 (zero when unset) */
} ad4_site;

/* AutoGrid's bond-vector pass over the receptor in file order (partners searched among the
 * 20 atoms before and after, as autogrid4 does). */
void ad4_hbond_vectors(ad4_site *s, size_t n);

/* The directional factors of an H-bond seen from a grid point: ad4_hbond_factors.h. */

/* The pair energy table of ligand type lig against receptor type rec (AD4_NEINT bins of
 * 1/AD4_A_DIV Å: 12-6 or 12-10, smoothed over `smooth` Å, clamped), as autogrid4 builds it;
 * scratch holds AD4_NEINT doubles. Shared by both twins. */
void ad4_pair_table(const vsg_ad4_params *p, const vsg_ad4_atom_par *lig, const vsg_ad4_atom_par *rec,
                    double smooth, double *t, double *scratch);
/* Every table of ligand types lig[0..nlig) on receptor types rec[0..nrec), [l][r][bin] in tab
 * (nlig·nrec·AD4_NEINT doubles), built in parallel (ad4_tables.c). */
void ad4_pair_tables(const vsg_ad4_params *p, const vsg_ad4_atom_par *const *lig, int nlig,
                     const vsg_ad4_atom_par *const *rec, int nrec, double smooth, double *tab);
/* The desolvation Gaussian, coeff_desolv·exp(−r²/2σ²), at r = i/AD4_A_DIV (AD4_NEINT bins). */
void ad4_desolv_table(const vsg_ad4_params *p, double *sol);
/* What both twins need before the sums (ad4_plan.c). */
typedef struct {
    int nmap, nrt;                                  /* ligand (probe) types, receptor types */
    const vsg_ad4_atom_par *lig[VSG_AG_MAX_MAPS];   /* the gpf's ligand types' parameters */
    const vsg_ad4_atom_par *rtype[VSG_AD4_MAX_TYPES]; /* receptor types, in order of appearance */
    size_t na;
    ad4_site *s;          /* every receptor atom, relative to centre, with its bond vectors */
    double *tab, *sol;    /* pair tables [lig][rtype][bin], desolvation [bin] */
    double centre[3], origin[3], h;
    int ne[3], n[3];      /* nodes: 2·ne + 1 a side, node i at (i − ne)·h from centre */
} ad4_plan;
/* The gpf's checks (VSG_E_ARG, VSG_E_LIMIT past VSG_AG_MAX_MAPS types, VSG_E_UNSUPPORTED for a
 * covalent map Z, VSG_E_DATA for a type without parameters or an untyped receptor atom, with
 * file:line) and the set-up; VSG_E_NOMEM. On failure nothing is left to free. */
vsg_status ad4_plan_make(const vsg_molecule *rec, const vsg_gpf *gpf, const vsg_ad4_params *p, ad4_plan *pl);
void ad4_plan_free(ad4_plan *pl);
/* What the bond search asks of a type: 1 HD, 2 H, 3 OA or SA, 0 other. */
int ad4_name_class(const char *t);

#endif
