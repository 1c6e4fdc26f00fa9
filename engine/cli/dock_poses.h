/* dock_poses.h — PDBQT output of flexible-docking poses (vsg_dock_cpu), shared by `vsgrid dock`
 * (every pose of one ligand) and `vsgrid screen --placement flexible` (the best pose of each
 * record). A pose is one MODEL/ENDMDL block that `vina --score_only`, autodock4 and `vsgrid
 * screen --scoring vina` rescore: `REMARK VINA RESULT: score rmsd rmsd`, the score terms, then a
 * PDBQT record's own lines (ROOT/BRANCH tree, atom lines) with the pose's coordinates, or, for
 * an SDF/MOL2 record, the model the search moved (AutoDock types, non-polar hydrogens merged)
 * under the tree it used. In engine/cli/ (not engine/screen/): it uses the public API only. */
#ifndef VSG_CLI_DOCK_POSES_H
#define VSG_CLI_DOCK_POSES_H

#include <stdio.h>

#include "grids/base/vsgrid.h"

/* Heavy-atom RMSD between two coordinate sets of the model's atoms (same order, no symmetry). */
double vsg_cli_dock_rmsd_heavy(const vsg_dock_result *r, const vsg_vina_ligand *l, const double *a, const double *b);

/* Makes lig (the record vsg_dock_cpu docked) writable by vsg_cli_dock_write_model: a PDBQT
 * record is left as it is (it needs the reader's keep_text); an SDF/MOL2 record gets its
 * AutoDock types and its non-polar hydrogens merged, as the model has them. Returns VSG_OK;
 * the typing's status; VSG_E_DATA when the atom count then differs from the model's. */
vsg_status vsg_cli_dock_model_ligand(vsg_ligand *lig, const vsg_dock_result *r);

/* Writes pose k of r as MODEL `model`: the REMARK lines (rmsd printed twice on the VINA RESULT
 * line; record ≥ 0: `REMARK VSGRID RECORD: index name` after them, the screen's CSV index and
 * the record's name, and `REMARK Name = name` for a PDBQT record without one), then the record or the tree, then ENDMDL. Returns 1; 0 when the PDBQT
 * record's atom lines do not match the model (the block is then incomplete). */
int vsg_cli_dock_write_model(FILE *f, const vsg_ligand *lig, const vsg_dock_result *r, int k, int model, double rmsd,
                             long record);

#endif
