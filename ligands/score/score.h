/* score.h — scoring ligand atoms on receptor grids: the contract shared by the CPU twin
 * (ligands/score/score_cpu.c, double precision, OpenMP) and the GPU kernels (gpu/score/score_gpu.cu).
 *
 * Two kinds of score:
 *  - VSG_SCORE_ELEC: E = elec_factor · Σ_i q_i φ(r_i) with φ trilinearly interpolated in one
 *    grid (a PB grid in kT/e: elec_factor = kT in kcal/mol; a Coulomb grid in kcal/mol/e:
 *    elec_factor = 1).
 *  - VSG_SCORE_AD4: the AutoDock4 intermolecular energy of a pose on an AutoGrid map set,
 *    E = Σ_i [ map_{type(i)}(r_i) + q_i e(r_i) + |q_i| d(r_i) ] (kcal/mol), as autodock4's
 *    epdb reports it.
 *
 * Interpolation (both kinds, every kernel): u = (x − origin)/spacing per axis, i0 = ⌊u⌋ clamped
 * to [0, n − 2] (so a point on the upper face interpolates in the last cell), t = u − i0, the
 * usual product of (1 − t) and t weights over the 8 corners.
 *
 * Outside the grid (a coordinate outside [origin, origin + (n − 1)·spacing]; NaN counts as
 * outside): counted in vsg_score_result.outside in both kinds.
 *  - ELEC: the atom contributes 0.
 *  - AD4: autodock4's rule (documented with its source in ligands/score/score_cpu.c), so that the
 *    energy equals what autodock4 reports for the same pose.
 */
#ifndef VSG_SCORE_H
#define VSG_SCORE_H

#include <stddef.h>
#include <stdint.h>

#include "grids/base/vsgrid.h"

#define VSG_SCORE_MAX_MAPS 32
#define VSG_SCORE_NO_TYPE 255 /* batch type of an atom with no type map (ELEC, or untyped) */

typedef enum { VSG_SCORE_ELEC = 0, VSG_SCORE_AD4 = 1 } vsg_score_kind;

/* The receptor grids, all of one shape; the values stay owned by the caller. */
typedef struct {
    vsg_score_kind kind;
    int n[3];                               /* nodes per axis (≥ 2 each) */
    double origin[3];                       /* Å, node (0,0,0) */
    double spacing[3];                      /* Å */
    int nmaps;                              /* ELEC: 1; AD4: type maps + e + d */
    const float *maps[VSG_SCORE_MAX_MAPS];  /* n0·n1·n2 values each, x fastest */
    char types[VSG_SCORE_MAX_MAPS][4];      /* AD4: the AutoDock type of each map ("C", "OA",
                                               "e", "d"); ELEC: "" */
    int e_map, d_map;                       /* AD4: indices of the e and d maps; ELEC: e_map = 0,
                                               d_map = −1 */
    double elec_factor;                     /* ELEC: kcal/mol per (e · grid unit); AD4: 1 */
} vsg_score_grids;

/* A batch of ligands, atoms contiguous (structure of arrays). */
typedef struct {
    size_t nlig;
    size_t natoms;
    const uint32_t *start;  /* nlig + 1 offsets: ligand l owns atoms [start[l], start[l+1]) */
    const float *x, *y, *z; /* Å, the grids' frame */
    const float *q;         /* e */
    const uint8_t *type;    /* AD4: index into maps of the atom's type map (VSG_SCORE_NO_TYPE:
                               none, the type term is 0); ELEC: may be NULL */
} vsg_score_batch;

typedef struct {
    double total;   /* kcal/mol */
    double elec;    /* kcal/mol: Σ q φ (ELEC), Σ q e (AD4) */
    double vdw_hb;  /* AD4: Σ map_type; ELEC: 0 */
    double desolv;  /* AD4: Σ |q| d; ELEC: 0 */
    int outside;    /* atoms outside the grid */
} vsg_score_result;

/* Kernel variants (paper 003). CPU = the double-precision twin, the reference. */
typedef enum {
    VSG_KERNEL_AUTO = 0,
    VSG_KERNEL_CPU,
    VSG_KERNEL_GM,         /* grids in global memory, one thread per atom */
    VSG_KERNEL_ROI,        /* only the batch's region of the grid on the device */
    VSG_KERNEL_SM,         /* the region staged in shared memory */
    VSG_KERNEL_TM,         /* texture objects, hardware trilinear filtering (9-bit weights) */
    VSG_KERNEL_ZIP,        /* coordinates as 3 × uint16 from the batch box, charge/type packed */
    VSG_KERNEL_ROI_TM_ZIP,
    VSG_KERNEL_ROI_SM_ZIP,
    VSG_KERNEL_COUNT
} vsg_kernel;

const char *vsg_kernel_name(vsg_kernel k);          /* "gm", "roi-tm-zip", ... */
vsg_kernel vsg_kernel_from_name(const char *name);  /* VSG_KERNEL_COUNT when unknown */

/* Fills g from a grid (ELEC): elec_factor from its units ("kT/e" → kT at temperature_k in
 * kcal/mol, "kcal/mol/e" → 1); VSG_E_DATA for other units or fewer than 2 nodes on an axis. */
vsg_status vsg_score_grids_from_grid(const vsg_grid *grid, double temperature_k, vsg_score_grids *g);

/* The CPU twin: out[l] for every ligand of the batch, in double precision. */
vsg_status vsg_score_cpu(const vsg_score_grids *g, const vsg_score_batch *b, vsg_score_result *out);

#endif
