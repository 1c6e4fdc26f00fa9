/* pb_setup.h — from a molecule and the physics to a PB system on one grid level:
 * dielectric codes, ion accessibility, charge assignment, correction lists, boundary values. */
#ifndef VSG_PB_SETUP_H
#define VSG_PB_SETUP_H

#include "grids/formats/grid.h"
#include "grids/receptor/molecule.h"
#include "grids/pb/pb_system.h"

/* vsg_level (one grid box: nodes, spacing, origin) is public (vsgrid.h). */

/* Physics derived from vsg_pb_params (see vsg_pb_physics_from). */
typedef struct {
    double temperature, lambda_b;   /* K, Å */
    double eps_in, eps_out;
    double kappa2;                  /* 1/Å², 0 without salt */
    double ion_radius;              /* Å, the largest species' radius */
    int n_ions;
    double ion_molar[VSG_MAX_IONS], ion_charge[VSG_MAX_IONS];
    vsg_surface surface;
    double probe;
    vsg_charge_spline spline;
    int nonlinear;
} vsg_pb_physics;

typedef struct { size_t linear; double q; } vsg_grid_charge;

/* Checks the ions (electroneutrality, positive concentrations) and fills ph. */
vsg_status vsg_pb_physics_from(const vsg_pb_params *p, vsg_pb_physics *ph);

/* Assigns the charges to interior nodes (spl0: 8 nodes, spl2: 64 nodes, cubic B-spline);
 * merged and sorted by node. Charge that would land on box-face nodes or outside the box is
 * dropped; *outside receives the sum of |q| dropped. */
vsg_status vsg_assign_charges(const vsg_molecule *m, const vsg_level *lv, vsg_charge_spline spline,
                              vsg_grid_charge **out, size_t *count, double *outside);

/* Allocates the system for a level and sets its scalars (κ²h², ions, nonlinear): the part of
 * vsg_pb_build that the GPU setup (gpu/pb/pb_setup_gpu.cu) shares. */
vsg_status vsg_pb_system_init(vsg_pb_system *s, const vsg_pb_physics *ph, const vsg_level *lv,
                              vsg_precision precision);
/* The same scalars over vsg_pb_system_shape: no arrays (a system kept on the GPU). */
vsg_status vsg_pb_system_describe(vsg_pb_system *s, const vsg_pb_physics *ph, const vsg_level *lv,
                                  vsg_precision precision);

/* Builds the system's flags and correction lists (phi stays as allocated: zero). */
vsg_status vsg_pb_build(const vsg_molecule *m, const vsg_pb_physics *ph, const vsg_level *lv,
                        vsg_precision precision, vsg_pb_system *s, vsg_grid_charge **charges,
                        size_t *ncharges, double *outside);

/* Box-face values. bc is ZERO, SDH, MDH or DIPOLE; or coarse != NULL for focusing, in which
 * case the interior is also initialised from the coarse potential. */
vsg_status vsg_pb_boundary(vsg_pb_system *s, const vsg_molecule *m, const vsg_pb_physics *ph,
                           vsg_boundary bc, const vsg_grid *coarse);

/* The charged atoms as arrays for the mdh boundary sum (grids/pb/boundary_mdh.c). */
typedef struct {
    size_t n;
    float *x, *y, *z, *a, *c;
    double kappa;
} vsg_mdh_atoms;
vsg_status vsg_mdh_prepare(vsg_mdh_atoms *md, const vsg_molecule *m, const vsg_pb_physics *ph);
double vsg_mdh_sum(const vsg_mdh_atoms *md, const double p[3]);
void vsg_mdh_free(vsg_mdh_atoms *md);

/* Interior nodes from a grid (trilinear), faces untouched: a starting guess. */
void vsg_pb_guess(vsg_pb_system *s, const vsg_grid *g);

/* ½ Σ q_j φ_j over the grid charges (kT). */
double vsg_pb_energy(const vsg_pb_system *s, const vsg_grid_charge *c, size_t n);

#endif
