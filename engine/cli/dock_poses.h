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

/* SDF output of poses: the input molecule itself (all its atoms and bonds; a PDBQT record's bonds
 * inferred from distances), the model's atoms at their docked coordinates and each hydrogen the
 * model merged moved rigidly with the body of its heavy atom. vsg_cli_sdf_mol_new takes the
 * record as read (before vsg_cli_dock_model_ligand) and r, the result of docking it; it types a
 * copy of the atoms (AutoDock types) and, for MOL2/PDBQT records, infers formal charges (N with 4
 * neighbours, valence 4 or a pyridinium's: +1; a carboxylate's aromatic C-O bonds: C=O and C-O-;
 * MOL2: an O or S with one single bond, an N with two: -1). Returns VSG_OK;
 * VSG_E_LIMIT (over 999 atoms); the typing's status; VSG_E_NOMEM. */
typedef struct vsg_cli_sdf_mol vsg_cli_sdf_mol;
vsg_status vsg_cli_sdf_mol_new(const vsg_ligand *rec, const vsg_dock_result *r, vsg_cli_sdf_mol **out);
void vsg_cli_sdf_mol_free(vsg_cli_sdf_mol *m);
/* Writes pose k of r as one V2000 record: title = the record's name, M  CHG, then the data items
 * vsgrid_score_kcal_mol, vsgrid_inter_kcal_mol, vsgrid_intra_kcal_mol, vsgrid_torsional_kcal_mol,
 * vsgrid_unbound_kcal_mol, vsgrid_atoms_outside, vsgrid_pose (k + 1), vsgrid_record (record ≥ 0),
 * atom.dprop.PartialCharge (the record's charges, when it has any) and atom.prop.AutoDockType
 * (RDKit's atom property lists), then $$$$. Returns 1; 0 on a write error or out of memory. */
int vsg_cli_sdf_write_pose(FILE *f, const vsg_cli_sdf_mol *m, const vsg_dock_result *r, int k, long record);

/* 1 when path ends in .sdf (any case), 0 for .pdbqt, −1 otherwise. */
int vsg_cli_pose_path_kind(const char *path);

#endif
