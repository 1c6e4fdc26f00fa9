/* screen.h — the screening pipeline behind `vsgrid screen`, `vsgrid rescore` and `vsgrid bench`.
 *
 * One reader thread parses the libraries and prepares each record (charges, AutoDock types,
 * checks) into batches; one scorer thread per device (a GPU, or the CPU twin) scores whole
 * batches; the calling thread writes the rows. Batches come from a fixed pool, so at most
 * pool-size batches exist whatever the library size: memory stays bounded, and a slow stage
 * makes the others wait instead of queueing without end. Batches carry a sequence number and
 * the writer emits them in that order, so the output is in input order with any number of
 * devices. Every record yields exactly one row.
 *
 * With parse_threads > 1, the reader thread only cuts the input into chunks of
 * whole records and that many parse workers parse and prepare them, each into the chunk's own
 * batch of the sequence: the same rows, in the same order (screen_pipeline.c).
 */
#ifndef VSG_SCREEN_H
#define VSG_SCREEN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ligands/ligand.h"
#include "grids/base/vsgrid.h"

/* The pipeline's public part (vsg_screen_options, vsg_screen_report, vsg_screen_run, the
 * library in memory, scorers, vsg_csv_field) is in grids/base/vsgrid.h; here are the writers
 * of the pipeline's SDF and pose output. */

/* ---- SDF output (sdf_writer.c) ------------------------------------------------------------ */
typedef struct {
    const char *name;   /* tag name without the "vsgrid_" prefix, e.g. "score_kcal_mol" */
    char value[64];
} vsg_sdf_tag;
/* Writes one molecule: an SDF input record as read (text kept) with the tags added before
 * its $$$$, or, for other formats, a V2000 molfile built from its atoms and bonds. */
vsg_status vsg_sdf_write_record(FILE *f, const vsg_ligand *lig, const vsg_sdf_tag *tags, int ntags);

/* Moves a molecule rigidly, x' = m·x + t (m row-major): its atoms, and the coordinates of its
 * SDF text (V2000 atom block or V3000 atom lines) so that SDF output keeps the record's other
 * fields; when the text cannot be rewritten it is dropped (output then falls back to a V2000
 * molfile built from the atoms). */
void vsg_ligand_move(vsg_ligand *lig, const double m[9], const double t[3]);
/* Writes one molecule as a rigid AutoDock ligand: MODEL model, REMARK lines (name, source and
 * the tags), ROOT, one ATOM line per atom in the molecule's order (x, y, z, partial charge
 * and AutoDock type columns; the element when it has no type), ENDROOT, TORSDOF 0, ENDMDL. */
vsg_status vsg_pdbqt_write_record(FILE *f, const vsg_ligand *lig, long model, const vsg_sdf_tag *tags, int ntags);

/* ---- prepare-ligands' PDBQT (prepared_pdbqt.c) ------------------------------------------- */
/* A record of `vsgrid prepare-ligands -o OUT.pdbqt` is made in two steps, so that threads prepare
 * records and the writer keeps input order. vsg_prepared_pdbqt makes the ligand part in memory:
 * `REMARK VSGRID STATUS: ok`, `REMARK VSGRID SOURCE: file:line record N`, a SMILES record's
 * `REMARK VSGRID SMILES:` and `REMARK VSGRID NOTE:` (its preparation note), then the ligand
 * with vsg_dock_tree's tree (AutoDock types, non-polar hydrogens merged, the record's charges);
 * a PDBQT record: its own lines, its tree checked, not rebuilt (a hydrated ligand's W stay).
 * lig (status ok, charges assigned) is typed and merged in place. A record that cannot have a
 * tree (disconnected, untyped, torsions, too_many_atoms) is failed in place (lig->status, code,
 * message) and *body stays NULL. *body is malloc'ed (free it), *len its length. Returns VSG_OK
 * (failed records too); VSG_E_NOMEM. */
vsg_status vsg_prepared_pdbqt(vsg_ligand *lig, char **body, size_t *len);
/* Writes the record's block: `MODEL index+1`, `REMARK VSGRID RECORD: index name`, then the body
 * (an ok record), or, for a failed record (or no body), `REMARK VSGRID STATUS: code`, SOURCE,
 * `REMARK VSGRID MESSAGE: message` and `REMARK Name = name` without atoms; ENDMDL. */
void vsg_prepared_pdbqt_write(FILE *f, const vsg_ligand *lig, size_t index, const char *body, size_t len);

#endif
