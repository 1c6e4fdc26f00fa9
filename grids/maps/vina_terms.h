/* vina_terms.h — Vina and Vinardo pair terms and their tabulation, shared by the CPU twin
 * (vina_maps.c) and, later, the GPU twin. */
#ifndef VSG_VINA_TERMS_H
#define VSG_VINA_TERMS_H

#include "grids/base/vsgrid.h"

#define VSG_VINA_CUTOFF 8.0          /* Å: every term is 0 at r ≥ 8 */
#define VSG_VINA_TABLE_FACTOR 32.0   /* samples per Å² of r² (Vina's precalculate) */
/* Bins of the table: r² ≤ 64 → bin ⌊32 r²⌋ ≤ 2048. */
#define VSG_VINA_TABLE_BINS 2049

/* Weighted pair energy, analytic (kcal/mol); 0 for r ≥ 8 Å. Types must be valid. */
double vsg_vina_pair_energy(vsg_vina_scoring sf, int receptor, int ligand, double r);
/* table[k] for k < VSG_VINA_TABLE_BINS: the mean of the energy at r² = k/32 and (k+1)/32, the
 * value Vina's maps take for any r² in [k/32, (k+1)/32). */
void vsg_vina_table_fill(vsg_vina_scoring sf, int receptor, int ligand, double *table);

#endif
