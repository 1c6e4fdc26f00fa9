/* ad4_intra.h — AutoDock4's intramolecular (internal) energy of a ligand pose, as autodock4
 * 4.2.6 reports it ("(2) Final Total Internal Energy" of epdb and of docked poses). */
#ifndef VSG_AD4_INTRA_H
#define VSG_AD4_INTRA_H

#include "grids/base/vsgrid.h"

typedef struct {
    double total;         /* kcal/mol: vdw_hb + desolv + elec, autodock4's internal energy */
    double vdw_hb;        /* weighted 12-6 / 12-10 terms (smoothed, 8 Å cutoff) */
    double desolv;        /* weighted desolvation (no cutoff) */
    double elec;          /* weighted Mehler–Solmajer electrostatics (no cutoff) */
    int npairs;           /* non-bonded pairs after autodock4's weeding */
    int ntorsions;        /* BRANCHes in the record (0: autodock4 computes no internal energy) */
} vsg_ad4_intra_result;

/* The internal energy of a PDBQT record (lig->text kept: its ROOT/BRANCH tree; AutoDock types
 * and charges of lig->atoms) with parameters p (vsg_ad4_params_builtin for AD4.1_bound.dat):
 * bonds inferred by distance as autodock4 does, pairs 1-2, 1-3, 1-4 and within a rigid body
 * excluded, autodock4's square-distance lookup bins and r_smooth 0.5 Å. A record without
 * torsions gets total 0, as in autodock4. Returns VSG_OK; VSG_E_ARG (NULL, no text, not
 * PDBQT); VSG_E_FORMAT (a bad torsion tree); VSG_E_DATA (a type without parameters, an atom
 * with more than 16 bonds, which autodock4 refuses); VSG_E_NOMEM. */
vsg_status vsg_ad4_intra(const vsg_ligand *lig, const vsg_ad4_params *p, vsg_ad4_intra_result *out);

/* The same energy for a search (ligands/dock/dock_energy_ad4.c): the pairs vsg_ad4_intra scores
 * (weeded at the record's own coordinates, which a search keeps bond lengths of), each pair's
 * electrostatic and desolvation scale, and autodock4's tables by r² bin (1/32 Å²). The pair
 * energy is taken linear in r² between a bin's start and the next's (autodock4 reads the bin's
 * start value alone), so that it equals autodock4's at every bin start and has a slope. */
typedef struct {
    int npairs, ntorsions;
    int (*pair)[2];       /* i < j, autodock4's summation order */
    double *elec_scale;   /* 332.06363 · FE_coeff_estat · qi · qj */
    double *desolv_scale; /* FE_coeff_desolv · (Vj (Si + 0.01097 |qi|) + Vi (Sj + 0.01097 |qj|)) */
    int *vdw;             /* each pair's vdW/H-bond table */
    int nvdw;
    double *vdw_table;    /* nvdw × 2048: the smoothed 12-6/12-10 values below the 8 Å cutoff */
    double *elec_shape;   /* 16384 bins: 1 / (r ε(r)) at the bin's r */
    double *desolv_shape; /* 16384 bins: exp(−r² / 2σ²) */
} ad4_intra_tables;

vsg_status ad4_intra_tables_build(const vsg_ligand *lig, const vsg_ad4_params *p, ad4_intra_tables *out);
void ad4_intra_tables_release(ad4_intra_tables *t);
/* The internal energy at xyz (3 per record atom); g (may be NULL) gets dE/dx added. */
double ad4_intra_tables_eval(const ad4_intra_tables *t, const double *xyz, double *g);

#endif
