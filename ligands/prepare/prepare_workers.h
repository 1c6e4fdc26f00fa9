/* prepare_workers.h — SMILES preparation in worker processes (internal; prepare_workers.c).
 *
 * Open Babel keeps its SMARTS matches, aromaticity and atom typers and builder templates in
 * process-wide objects, so in one process the preparation's parsing, protonation, 3D build and
 * force-field setup run one molecule at a time under a lock (smiles_obabel.cpp): measured, that
 * part caps a whole host near 150 molecules/s whatever its cores, below one GPU's docking rate.
 * Worker processes each have their own Open Babel, so n of them prepare n molecules at once;
 * and a molecule that crashes or hangs Open Babel takes down a worker, not the screen: its
 * record fails with a status and the worker is replaced.
 *
 * Workers are forked: they run this library's code alone (no exec, so nothing to install) and
 * end on their own when the caller's end of their socket closes, the caller dying too. */
#ifndef VSG_PREPARE_WORKERS_H
#define VSG_PREPARE_WORKERS_H

#include "grids/base/vsgrid.h"
#include "ligands/readers/smiles_record.h"

typedef struct vsg_prep_workers vsg_prep_workers;

/* Starts n workers (n >= 1): NULL when not even one could be started (the caller then prepares
 * in its own process). Call it before starting threads of one's own where one can: a fork
 * copies only the calling thread. */
vsg_prep_workers *vsg_prep_workers_start(int n);
int vsg_prep_workers_count(const vsg_prep_workers *w);
/* vsg_smiles_record_make in worker `slot` (0 <= slot < count; one caller at a time per slot).
 * A worker that dies or takes longer than the time limit (VSG_PREP_TIMEOUT_S, env
 * VSG_PREP_TIMEOUT for tests) fails the record with embed_failed, saying so, and is replaced;
 * when it cannot be, the slot prepares in the caller's process from then on. */
vsg_status vsg_prep_workers_make(vsg_prep_workers *w, int slot, const char *smiles, const char *name,
                                 const vsg_smiles_prep_options *o, vsg_smiles_record *out);
/* The workers a reader's inputs need: `threads` of them (env VSG_PREP_WORKERS: that many, 0
 * none) when one of its first ninputs inputs is SMILES or CSV and this build prepares SMILES;
 * else, or when none can start, NULL. */
vsg_prep_workers *vsg_prep_workers_for(const vsg_ligand_reader *rd, int ninputs, int threads);
/* Ends the workers and waits for them. NULL is fine. */
void vsg_prep_workers_stop(vsg_prep_workers *w);

#define VSG_PREP_TIMEOUT_S 300 /* seconds a molecule may take: the slowest seen take < 10 s */

#endif
