/* bond_orders.h — bond orders and formal charges of a ligand whose bonds carry none (a PDB
 * record without CONECT, or with CONECT that repeats no serial): from its geometry and valences,
 * the classical way (hybridisation from angles, ring planarity and bond lengths; then the
 * double and triple bonds as a matching of the atoms that need one, shortest bonds first). */
#ifndef VSG_BOND_ORDERS_H
#define VSG_BOND_ORDERS_H

#include "grids/base/vsgrid.h"

/* Sets lig->bonds[].order to 1, 2 or 3 (a Kekulé structure for aromatic rings, which Open
 * Babel and vsg_ligand_assign_ad_types perceive as aromatic) and lig->atoms[].formal where the
 * structure demands a charge (ammonium and iminium N+, nitro N+/O−, carboxylate O−, ...).
 * Hydrogens: when any hydrogen sits on a carbon every hydrogen is taken to be explicit and
 * valences decide; when hydrogens sit only on other atoms (polar hydrogens, as in PDBQT) those
 * atoms' valences decide and the carbons' geometry; without hydrogens the geometry decides.
 * Returns VSG_OK, VSG_E_ARG (lig NULL or a bond naming a missing atom) or VSG_E_NOMEM. */
vsg_status vsg_perceive_bond_orders(vsg_ligand *lig);

#endif
