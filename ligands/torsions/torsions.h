/* torsions.h — a ligand's rigid bodies and the rotatable bonds between them: from a PDBQT
 * torsion tree (ROOT/BRANCH/TORSDOF) or from an SDF/MOL2 record's bonds. The Vina model
 * (ligands/score/vina_ligand.c) builds on it. */
#ifndef VSG_TORSIONS_H
#define VSG_TORSIONS_H

#include "grids/base/vsgrid.h"

typedef struct {
    int natoms;
    int *body;         /* rigid body of each atom, 0 .. nbodies − 1 */
    int nbodies;
    int nrotors;
    int (*rotor)[2];   /* atom pairs across a rotatable bond (parent side first) */
    int torsdof;       /* PDBQT: TORSDOF (0 when absent); bonds: nrotors */
} vsg_torsions;

/* From lig->text (PDBQT). Atoms are matched to ATOM/HETATM lines in order; BRANCH a b names
 * serial numbers (columns 7-11) as Vina reads them. VSG_E_FORMAT with the message in lig terms. */
vsg_status vsg_torsions_from_pdbqt(const vsg_ligand *lig, vsg_torsions *t);
/* From lig->bonds (SDF/MOL2, hydrogens as they are in lig): rotatable = single (MOL2 "am"
 * included), acyclic, both ends with another neighbour, not an amide C(=O)–N (thioamide
 * C(=S)–N rotates, as in Open Babel and Meeko: torsions.c). */
vsg_status vsg_torsions_from_bonds(const vsg_ligand *lig, vsg_torsions *t);
void vsg_torsions_release(vsg_torsions *t);

/* Meeko's flexible macrocycles (macrocycle.c): on an SDF/MOL2 record already typed and with its
 * non-polar hydrogens merged, opens the ring(s) of 12..33 atoms at the bond(s) Meeko would break
 * (at most 4): each bond removed, its two carbons typed CGk, a pseudo-atom Gk appended for each
 * (after the record's atoms, in bond order, the lower atom's first), bonded to it at its
 * partner's position; the opened ring's single bonds then rotate (vsg_torsions_from_bonds).
 * Nothing for a PDBQT record, one with lig->rigid_macrocycles, or one with no such ring.
 * Returns the bonds opened (their atoms, lower first, in opened[k] when opened is not NULL:
 * room for 4), 0 for none, −1 when out of memory (vsg_fail said so). */
int vsg_macrocycle_open(vsg_ligand *lig, int (*opened)[2]);

#endif
