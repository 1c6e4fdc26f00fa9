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

#endif
