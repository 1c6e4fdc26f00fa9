/* bond_infer.h — bonds of a molecule that has coordinates but no bond table (PDB ligands
 * without CONECT; heavy-atom graphs for the RMSD): Open Babel's distance rule, two atoms bonded
 * when 0.4 Å < d < r_cov(a) + r_cov(b) + 0.45 Å, covalent radii of Cordero et al. (2008) as
 * Open Babel 3 has them. Shared by ligands/readers/read_pdb_lib.c and ligands/rmsd/rmsd.c. */
#ifndef VSG_BOND_INFER_H
#define VSG_BOND_INFER_H

#include "grids/base/vsgrid.h"

#define VSG_BOND_TOLERANCE 0.45 /* Å over the sum of covalent radii */

/* Covalent radius of an element symbol ("C", "Cl"), Å; 1.5 for elements not in the table. */
double vsg_covalent_radius(const char *element);
/* The largest distance (Å) at which atoms of these elements are bonded. */
double vsg_bond_reach(const char *element_a, const char *element_b);
/* Bonds of atoms[0..n) by distance, each hydrogen keeping only its nearest partner. *pairs
 * (malloc'd; free it) gets 2 atom indices per bond (a < b), *npairs the count. Near linear
 * (a sweep along x). Returns VSG_OK or VSG_E_NOMEM. */
vsg_status vsg_infer_bonds(const vsg_lig_atom *atoms, int n, int **pairs, int *npairs);

#endif
