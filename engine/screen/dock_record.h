/* dock_record.h — what a record that cannot be docked is called, shared by the flexible screen's
 * rows (flex_screen.c) and prepare-ligands' PDBQT output (prepare_ligands.c), so that the same
 * molecule fails with the same status in both. */
#ifndef VSG_DOCK_RECORD_H
#define VSG_DOCK_RECORD_H

#include "grids/base/vsgrid.h"

#define VSG_LIG_DISCONNECTED "disconnected" /* an SDF/MOL2 record of several molecules */

/* Fragments of an SDF/MOL2 record's bond graph (PDBQT and PDB records carry no bonds: 1). */
int vsg_record_fragments(const vsg_ligand *lig);
/* The status code of a record whose model or tree failed with st and message msg
 * (vsg_vina_ligand_new, vsg_dock_tree, the search): torsions (a malformed or unconnected tree),
 * untyped, too_many_atoms, nomem, error. */
const char *vsg_dock_fail_code(vsg_status st, const char *msg);

#endif
