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

#endif
