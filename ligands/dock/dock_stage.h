/* dock_stage.h — vsg_dock_batch (vsgrid.h) cut into its three stages, so that a screen overlaps
 * them (engine/screen/flex_screen.c): while the GPUs search one chunk of records, the host
 * prepares the next and finishes the one before. vsg_dock_batch is these stages run one after the
 * other; a record's result does not depend on how it was staged or on the other records.
 *
 *   prepare (host, OpenMP over records): each record's model, tree and search energy; those the
 *       GPU takes (within dock_gpu.h's limits) shared over the GPUs by estimated cost, longest
 *       first to the least loaded, and each GPU's share packed;
 *   search (one host thread per GPU share; shares of different stages may run on one GPU at
 *       once, each call on its own CUDA stream): the share's chains on its GPU;
 *   finish (host, OpenMP): each chain's kept minimum recomputed in double, clustered and scored;
 *       records the GPU did not take (over its limits, no GPU, or a failed search with
 *       VSG_DEVICE_AUTO) docked by the CPU twin. */
#ifndef VSG_DOCK_STAGE_H
#define VSG_DOCK_STAGE_H

#include "grids/base/vsgrid.h"

typedef struct dock_stage dock_stage;

/* ligs (borrowed: they must outlive the stage), seeds as vsg_dock_batch's. With VSG_DEVICE_CPU,
 * or AUTO without a GPU, nothing is prepared here: finish docks every record on the CPU.
 * Returns VSG_OK (records that cannot be prepared get their status at finish); VSG_E_ARG
 * (bad parameters); VSG_E_DEVICE (VSG_DEVICE_GPU and no GPU); VSG_E_NOMEM. */
vsg_status dock_stage_prepare(const vsg_vina_target *t, const vsg_ligand *const *ligs, int n, const uint64_t *seeds,
                              const vsg_dock_params *p, vsg_device device, dock_stage **out);
/* Makes the target's maps ready on a GPU (its context started, maps and pair table uploaded) ahead
 * of the first search; GPUs warm up at the same time from their own threads. VSG_OK or why not
 * (the search then reports it again). */
vsg_status dock_stage_warm(const vsg_vina_target *t, int device);
/* GPU shares of the stage (0 on the CPU path). */
int dock_stage_shares(const dock_stage *s);
/* The GPU number of share g. */
int dock_stage_share_gpu(const dock_stage *s, int g);
/* Searches share g (0 <= g < shares); its outcome is kept for finish. Returns it. */
vsg_status dock_stage_search(dock_stage *s, int g);
/* Fills out/status/message (n entries each, as vsg_dock_batch). Returns VSG_OK when the stage
 * ran (records may have failed); VSG_E_DEVICE (VSG_DEVICE_GPU and a search failed); VSG_E_NOMEM. */
vsg_status dock_stage_finish(dock_stage *s, vsg_dock_result *out, vsg_status *status, char (*message)[256]);
void dock_stage_free(dock_stage *s);

#endif
