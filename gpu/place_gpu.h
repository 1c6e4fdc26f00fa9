/* place_gpu.h — the GPU twin of the rigid-body pose search (grids/place_cpu.h): the contract
 * for gpu/place.cu. NOT IMPLEMENTED YET: every entry point returns VSG_E_UNSUPPORTED (in CUDA
 * builds too), so callers (the screening pipeline) can already select it and fall back to the
 * CPU twin.
 *
 * Planned design (issue 5):
 *  - Setup (open): the grids go on the device as the screening kernels keep them
 *    (gpu/screen_gpu.h: global memory, or the stacked texture for TM), and the rotation set is
 *    uploaded once as float4 quaternions, or generated on the device from (i, N) by the
 *    super-Fibonacci formula (ligands/rotations.h), which needs no upload at all.
 *  - Per ligand (place): one copy of the ligand (centred offsets x_i − c as float, q, type:
 *    ≤ 17 B/atom) goes to constant or shared memory; no per-pose upload. A kernel takes a tile
 *    of (rotation, site) poses per block: each warp rotates the offsets by its rotation (the
 *    3×3 matrix in registers), adds the site point, tests the grid bounds (any atom outside →
 *    the pose is rejected, exactly the CPU twin's test on the float coordinates), and sums the
 *    per-atom lookups with the chosen kernel's interpolation (GM/TM/SM variants as in
 *    screen.cu), in float with the warp sum reduced in double.
 *  - Reduction on the device: each block reduces its poses to the best (total, pose index)
 *    pair packed in one 64-bit key (order-preserving float bits of the total, then the pose
 *    index) so one atomicMin per block gives the global best deterministically (ties → lowest
 *    pose index, as the twin). Top-k: each block keeps its k best in shared memory, written to
 *    a per-block list that a second small kernel merges; only k poses come back.
 *  - Same pose index as the twin: index = rotation × n_sites + site, sites x fastest
 *    (place_cpu.h). The float kernels may pick a different best pose only when two poses are
 *    within their float error of each other; tests compare the pose index on small cases and
 *    the score within the kernel's tolerance.
 */
#ifndef VSG_PLACE_GPU_H
#define VSG_PLACE_GPU_H

#include "place_cpu.h"
#include "score.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct vsg_place_gpu vsg_place_gpu; /* grids and rotation set resident on one device */

/* Puts the grids and the rotation set on `device`; max_gpu_memory_bytes caps what it
 * allocates (0 = what is free). VSG_E_ARG, VSG_E_DEVICE, VSG_E_LIMIT, VSG_E_UNSUPPORTED (no
 * CUDA in this build, or not implemented yet: today always). */
vsg_status vsg_place_gpu_open(const vsg_score_grids *g, const vsg_quat *rotations, int nrotations, int device,
                              double max_gpu_memory_bytes, vsg_place_gpu **out);

/* The search of vsg_place_cpu on the device with kernel k (GM, TM, SM; ZIP/ROI make no sense
 * for generated poses) in float or double; same options (o->rotations must be the set given to
 * open) and the same result fields. */
vsg_status vsg_place_gpu_run(vsg_place_gpu *s, const vsg_place_ligand *lig, const vsg_place_options *o, vsg_kernel k,
                             int double_precision, vsg_place_result *r);

void vsg_place_gpu_close(vsg_place_gpu *s);

/* 1 when this build can place with kernel k at that precision (0 today). */
int vsg_place_gpu_supports(vsg_kernel k, int double_precision);

#ifdef __cplusplus
}
#endif
#endif
