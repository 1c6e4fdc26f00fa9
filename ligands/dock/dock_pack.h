/* dock_pack.h — prepared records packed into the GPU search's batch (gpu/dock/dock_gpu.h). */
#ifndef VSG_DOCK_PACK_H
#define VSG_DOCK_PACK_H

#include "gpu/dock/dock_gpu.h"
#include "ligands/dock/dock_internal.h"

/* Packs the records i with use[i] set (prep[i] prepared); record i is seeded seed[i] and
 * gets P->exhaustiveness chains. VSG_E_NOMEM. */
vsg_status dock_pack(const dock_prep *prep, const char *use, int n, const uint64_t *seed, const vsg_dock_params *P,
                     dock_gpu_batch *b);
/* One record for the AutoDock4 function (dock_ad4_gpu.c): its map types, charges, heavy atoms,
 * autodock4's pairs with their scales and vdW/H-bond tables (dock_gpu.h); seeded seed. */
vsg_status dock_pack_ad4(const dock_ad4_prep *d, uint64_t seed, const vsg_dock_params *P, dock_gpu_batch *b);
void dock_pack_release(dock_gpu_batch *b);

/* dock_batch.c: the target's map set on GPU `device` (uploaded once, kept with the target), and
 * one record's chain outputs (keep slots of stride floats a chain) finished as the CPU twin
 * finishes its kept minima (atoms and energies again in double, then dock_finish; flex residues'
 * poses into d->flex_out when set). */
vsg_status dock_gpu_target_maps(const vsg_vina_target *t, int device, dock_gpu_maps **out);
/* The chains' kept minima (keep slots of stride floats a chain, energy +inf where unfilled) as
 * the CPU twin's kept entries: conformation, atoms and energy (en at the refined minima's cap) in
 * double; all[0 .. total) point into k. Any docking energy (Vina, flex, AutoDock4). */
typedef struct {
    dock_kept *k, **all;
    double *mem;
    int total;
} dock_gpu_kept_set;
vsg_status dock_gpu_kept(const dock_tree *tree, const dock_energy *en, const float *out, int stride, int nchain, int keep,
                         dock_gpu_kept_set *s);
void dock_gpu_kept_free(dock_gpu_kept_set *s);
/* The GPU a single-record call runs on: device (< 0: 0) checked against the GPUs there are
 * (VSG_E_DEVICE, "no GPU found" when none). */
vsg_status dock_gpu_check_device(int *device);
vsg_status dock_gpu_finish_record(const vsg_vina_target *t, dock_prep *d, const float *out, int stride, int nchain, int keep,
                                  const vsg_dock_params *P, vsg_dock_result *res);
/* The layout of dock_gpu_run's output for batch b: stride floats a kept minimum (energy,
 * position, orientation, torsions), keep minima a chain. */
void dock_gpu_layout(const dock_gpu_batch *b, int *stride, int *keep);
/* A single-record call's packed chains run on maps: their kept minima into *res (as
 * dock_gpu_layout says; the caller frees it), their evaluations added to *evaluations. */
vsg_status dock_gpu_run_record(dock_gpu_maps *maps, const dock_gpu_batch *b, float **res, long *evaluations);
/* VSG_E_LIMIT, naming lig's record, when its model (tree; with: what it includes besides the
 * ligand, "" or e.g. " with its flex residues") is over the GPU search's atoms or torsions. */
vsg_status dock_gpu_check_size(const vsg_ligand *lig, const dock_tree *tree, const char *with);

#endif
