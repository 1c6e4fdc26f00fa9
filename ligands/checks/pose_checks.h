/* pose_checks.h — the pose checks' own pieces (the public part, vsg_pose_checker and
 * vsg_pose_check_result, is in grids/base/vsgrid.h, "pose checks as PoseBusters makes them").
 *
 * Tolerances, all PoseBusters' "dock" configuration (posebusters/config/dock.yml of
 * github.com/maabuu/posebusters, v0.2–0.4; Buttenschoen, Morris & Deane, Chem. Sci. 15, 3130
 * (2024)), with the bounds they widen as RDKit's distance-geometry bounds matrix
 * (Code/GraphMol/DistGeomHelpers/BoundsMatrixBuilder.cpp) sets them, except that the ideal
 * bond lengths and angles are the reference record's own (RDKit takes UFF's):
 *   bond (1-2):  bounds d0 ± 0.01 Å (RDKit DIST12_DELTA); a bond fails when it lies more than
 *                25 % outside them (threshold_bad_bond_length 0.25).
 *   angle (1-3): bounds d0 ± 0.04 Å on the 1-3 distance (RDKit DIST13_TOL); fails more than 25 %
 *                outside (threshold_bad_angle 0.25).
 *   internal clash (atoms 3 or more bonds apart): lower bound 1-4: the cis distance of the path
 *                (RDKit's torsion-free 1-4 bound), 1-5: 0.7 (VDW_SCALE_15), 1-6: 0.85, farther
 *                or unconnected: 1.0 × the sum of van der Waals radii; never above the
 *                reference's own distance (a rigid part keeps what the molecule has); a clash
 *                below 70 % of it (threshold_clash 0.3).
 *   flatness:    5- and 6-membered aromatic rings and C=C double bonds with their neighbours
 *                within 0.25 Å of their least-squares plane (threshold_flatness 0.25).
 *   receptor:    heavy-atom distance / (sum of radii) ≥ 0.75 (clash_cutoff 0.75; van der Waals
 *                radii, covalent radii for metal ions as PoseBusters' inorganic cofactors);
 *                near: some heavy atom within 5 Å of the receptor (max_distance 5.0).
 * Hydrogens are left out everywhere (ignore_hydrogens: True). Radii are RDKit's periodic table's
 * (Rvdw, from the Blue Obelisk data repository), as PoseBusters takes them. */
#ifndef VSG_POSE_CHECKS_H
#define VSG_POSE_CHECKS_H

#include "grids/base/vsgrid.h"

#define VSG_PC_DIST12_DELTA 0.01  /* Å, RDKit DIST12_DELTA */
#define VSG_PC_DIST13_TOL 0.04    /* Å, RDKit DIST13_TOL */
#define VSG_PC_BAD_BOND 0.25      /* PoseBusters threshold_bad_bond_length */
#define VSG_PC_BAD_ANGLE 0.25     /* PoseBusters threshold_bad_angle */
#define VSG_PC_CLASH 0.3          /* PoseBusters threshold_clash */
#define VSG_PC_VDW_SCALE_15 0.7   /* RDKit VDW_SCALE_15 (1-5); 1-6: 0.7 + 0.5·(1 − 0.7) */
#define VSG_PC_FLATNESS 0.25      /* Å, PoseBusters threshold_flatness */
#define VSG_PC_RECEPTOR_CLASH 0.75 /* PoseBusters clash_cutoff */
#define VSG_PC_MAX_DISTANCE 5.0   /* Å, PoseBusters max_distance */
#define VSG_PC_CHIRAL_MIN 0.15    /* |triple product| of the unit bond vectors below which a
                                     reference centre counts as planar (ideal sp3: 0.385) */
#define VSG_PC_CHIRAL_FLAT 0.05   /* a pose centre flatter than this has lost its stereo */

typedef struct { int a, b; double d0; } vsg_pc_pair;           /* bonds, 1-3 pairs */
typedef struct { int a, j, b; double d0, theta0; } vsg_pc_angle; /* theta0 in degrees */
typedef struct { int a, b; double lb; } vsg_pc_nonbonded;       /* clash lower bound, Å */
typedef struct { int n, atom[8]; } vsg_pc_flat;                 /* atoms that share a plane */
typedef struct { int centre, nb[3]; double sign; } vsg_pc_centre;

/* The receptor's heavy atoms as the checks use them: made once (vsg_pc_receptor_new) and shared
 * by the checkers of many ligands (a screen's), or owned by one checker. */
typedef struct {
    int nrec;
    double *rec_xyz, *rec_r;    /* van der Waals radius, or covalent for a metal ion */
    unsigned char *rec_metal;   /* metal ions: radii sums of covalent radii, as PoseBusters' inorganic cofactors */
} vsg_pc_receptor;

struct vsg_pose_checker {
    int natoms;
    int nbonds, nangles, npairs, nrings, ndouble, ncentres, nheavy;
    vsg_pc_pair *bond;
    vsg_pc_angle *angle;
    vsg_pc_nonbonded *pair;
    vsg_pc_flat *ring, *dbl;
    vsg_pc_centre *centre;
    int *heavy;                 /* the reference's heavy atoms */
    double *lig_r, *lig_cov;    /* their van der Waals and covalent radii */
    /* receptor heavy atoms (NULL: those checks not run), owned when made with the checker */
    const vsg_pc_receptor *rec;
    vsg_pc_receptor *rec_own;
};

/* The receptor's heavy atoms; with box_lo/box_hi, only those within reach Å of the box (a
 * screen's checks look at poses in the box: the clash and distance tests see 8 Å around the
 * pose). VSG_OK, VSG_E_ARG, VSG_E_NOMEM. */
vsg_status vsg_pc_receptor_new(const vsg_molecule *receptor, const double box_lo[3], const double box_hi[3],
                               double reach, vsg_pc_receptor **out);
void vsg_pc_receptor_free(vsg_pc_receptor *r);
/* The box of a map set t (centre ± size / 2): 1, or 0 when t is NULL or no map set. */
int vsg_pc_target_box(const vsg_vina_target *t, double lo[3], double hi[3]);
/* A checker for reference that uses rec (NULL: no receptor checks) without owning it: rec must
 * outlive it. Returns as vsg_pose_checker_new. */
vsg_status vsg_pc_checker_new_shared(const vsg_ligand *reference, const vsg_pc_receptor *rec, vsg_pose_checker **out);

/* Van der Waals radius of an element as RDKit's periodic table has it (2.0 Å when unknown). */
double vsg_pc_vdw_radius(const char *element);
/* 1 for metal ions PoseBusters measures with covalent radii (inorganic cofactors). */
int vsg_pc_is_metal(const char *element);
/* 1 for hydrogen (element H or D, or AutoDock type H, HD, HS). */
int vsg_pc_is_hydrogen(const vsg_lig_atom *a);
/* Fills c's topology from the reference (bonds, angles, non-bonded pairs, rings, double bonds,
 * stereo centres). VSG_OK, VSG_E_DATA (a bond naming a missing atom), VSG_E_NOMEM. */
vsg_status vsg_pc_topology(struct vsg_pose_checker *c, const vsg_ligand *ref);
/* Largest distance (Å) of the points xyz[atom[k]] to their least-squares plane; -1 when an atom
 * has no coordinates (NaN). */
double vsg_pc_plane_deviation(const double *xyz, const int *atom, int n);

#endif
