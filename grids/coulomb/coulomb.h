/* coulomb.h — the direct Coulomb potential grid, φ(p) = Σ_i q_i f(|p − r_i|) (kcal/mol/e), the
 * contract shared by the CPU twin (grids/coulomb/coulomb.c, OpenMP, double) and the GPU kernel
 * (gpu/coulomb/coulomb_gpu.cu). Both evaluate the same kernel description below, so the AutoGrid-
 * compatible mode (AutoGrid4's constants, dielectric table and clamps) is defined once.
 *
 * f(r) for r clamped below at rmin (and atoms beyond `cutoff` skipped when cutoff > 0):
 *   VSG_DIEL_CONSTANT         f = scale / (eps r)
 *   VSG_DIEL_DISTANCE_4R      f = scale / (4 r · r)                      (ε = 4r)
 *   VSG_DIEL_MEHLER_SOLMAJER  f = scale / (r ε_MS(r)), ε_MS(r) = A + B / (1 + k e^{−λ B r})
 *                             (Mehler & Solmajer 1991, the sigmoidal function AutoGrid4 uses)
 * When `table` is set (AutoGrid-compatible mode), f is not computed analytically but read as
 *   f = table[min((int)(r · table_per_a), table_n − 1)] / max(r, rmin)
 * with the table index taken from the unclamped r (AutoGrid does so)
 * i.e. the table holds scale/ε at AutoGrid's distance resolution, exactly as AutoGrid looks it
 * up; see coulomb.c for the conventions and the reference. */
#ifndef VSG_COULOMB_H
#define VSG_COULOMB_H

#include "grids/formats/grid.h"
#include "grids/receptor/molecule.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    VSG_DIEL_CONSTANT = 0,
    VSG_DIEL_DISTANCE_4R = 1,
    VSG_DIEL_MEHLER_SOLMAJER = 2
} vsg_dielectric_model;

typedef struct {
    vsg_dielectric_model model;
    double eps;            /* VSG_DIEL_CONSTANT */
    double scale;          /* prefactor, kcal·Å/(mol·e²) (332.0637 × any coefficient) */
    double rmin;           /* Å: r < rmin is evaluated at rmin */
    double cutoff;         /* Å: atoms farther than this are skipped; 0 = all atoms */
    double *table;         /* optional scale/ε table (AutoGrid mode), owned by the kernel */
    int table_n;
    double table_per_a;    /* table entries per Å */
    int autogrid;          /* 1: AutoGrid4-compatible conventions */
} vsg_coulomb_kernel;

/* Fills k for a model. autogrid = 1 selects AutoGrid4's exact conventions for the model (its
 * constants, clamps and lookup table); eps is the constant dielectric for VSG_DIEL_CONSTANT. */
vsg_status vsg_coulomb_kernel_make(vsg_dielectric_model model, double eps, int autogrid,
                                   vsg_coulomb_kernel *k);
void vsg_coulomb_kernel_free(vsg_coulomb_kernel *k);

/* The CPU twin: fills g->data (geometry already set in g) with the potential of m's charges.
 * Double precision, OpenMP over grid points. */
vsg_status vsg_coulomb_cpu(const vsg_molecule *m, const vsg_coulomb_kernel *k, vsg_grid *g);

/* The GPU kernel (gpu/coulomb/coulomb_gpu.cu; VSG_E_UNSUPPORTED without CUDA, VSG_E_DEVICE without a GPU).
 * Same contract; float arithmetic with double accumulation per point where it matters.
 * *evals_per_second (may be NULL) receives atoms × grid points / kernel seconds. */
vsg_status vsg_coulomb_gpu(const vsg_molecule *m, const vsg_coulomb_kernel *k, vsg_grid *g, int device,
                           double *evals_per_second);

#ifdef __cplusplus
}
#endif
#endif
