/* molfile_chemistry.h — what a molfile needs that MOL2, PDBQT and PDB records do not say: each
 * atom's element symbol, bonds and their orders (PDBQT), and formal charges, so that every SDF vsgrid writes (docked poses, placed
 * poses, scored records) sanitises in RDKit and its formal charges are its partial charges' sum. */
#ifndef VSG_MOLFILE_CHEMISTRY_H
#define VSG_MOLFILE_CHEMISTRY_H

#include "grids/base/vsgrid.h"

/* The element of atom a: its element, else from its AutoDock type (A → C, OA → O, HD → H; Cl, Br
 * and metals keep two letters), else the first letter of its name ("C" without one). */
const char *vsg_molfile_element(const vsg_lig_atom *a, char el[4]);
/* Formal charges for a record that has none (MOL2, PDBQT): a nitrogen with four neighbours, a
 * valence of 4 over plain bonds, or a third neighbour on a six-membered aromatic ring is +1; a
 * carboxylate's two aromatic C–O bonds (MOL2 O.co2) become C=O and C–O⁻, and (MOL2 only: its
 * bond orders and hydrogens are all there) an O or S with one single bond, or an N with two, is
 * −1. Bonds and formal charges of l change; a record with any formal charge is left alone. */
void vsg_molfile_infer_formal(vsg_ligand *l);
/* Bonds for a record that has none (PDBQT; a PDB without CONECT): from distances
 * (vsg_ligand_bonds_by_distance), with their orders and formal charges perceived from geometry
 * and valences (vsg_perceive_bond_orders: a PDBQT's carboxylate C(=O)O-, its aromatic rings, its
 * C=O), not all single. A record with bonds is left alone. VSG_OK, VSG_E_NOMEM. */
vsg_status vsg_molfile_complete_bonds(vsg_ligand *l);

#endif
