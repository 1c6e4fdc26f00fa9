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
#include "grids/base/vsgrid.h"

/* The dielectric models, vsg_coulomb_kernel, vsg_coulomb_kernel_make/_free, vsg_coulomb_cpu and
 * vsg_coulomb_gpu are public (vsgrid.h, "Coulomb and AutoGrid electrostatic maps"). */
#endif
