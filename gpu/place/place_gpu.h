/* place_gpu.h — the GPU twin of the rigid-body pose search (vsgrid.h, "placement"), implemented in
 * gpu/place/place_gpu.cu (CUDA builds; gpu/device/gpu_none.c answers VSG_E_UNSUPPORTED without CUDA).
 *
 * What is implemented (issue 5):
 *  - Kernel GM (VSG_KERNEL_AUTO means GM) in float; TM, SM and double precision answer
 *    VSG_E_UNSUPPORTED. Best pose only: top_k 0 or 1 (top[0] = best); top_k > 1 answers
 *    VSG_E_UNSUPPORTED.
 *  - Setup (open): the grids go to global memory (float, as screen.cu's GM kernel reads them,
 *    with its hi+lo node-position table); the rotation set is uploaded once as the double
 *    row-major matrices vsg_quat_to_matrix gives (the twin's matrices exactly, 72 B each).
 *  - Per ligand (run): the centred coordinates x_i − c (double, the twin's centroid and
 *    expression), q and type go to the device once; no per-pose upload. A block takes one
 *    rotation and tiles of 256 consecutive sites, one pose per thread; it stages R·(x_i − c) in
 *    shared memory with the twin's double operations in the twin's order (no FMA), and each
 *    thread forms (float)(offset + site point). So the scored float coordinates are the twin's
 *    bit for bit, and a pose is rejected exactly when the twin rejects it (vsgrid.h's scoring closed
 *    interval): r->rejected equals the twin's. Interpolation and sums are float.
 *  - Reduction on the device: each block reduces its poses to the best key (order-preserving
 *    float bits of the total << 32 | pose index within the launch), one 64-bit atomicMin per
 *    block: ties go to the lowest pose index, deterministically. A launch covers whole
 *    rotations and at most 2^32 − 2 poses; the host keeps the first strictly better launch.
 *  - Result: as the twin's, except r->scored = poses with every atom inside (the twin counts
 *    the poses its prefilter let through) and the best pose's terms are the float kernel's
 *    (rescored on the device by a one-block kernel).
 *  - Limits: at most 1024 atoms per ligand (shared memory), at most 2^32 − 2 site points
 *    (VSG_E_LIMIT otherwise).
 *  - Same pose index as the twin: index = rotation × n_sites + site, sites x fastest
 *    (vsgrid.h, "placement"). The float kernel may pick a different best pose only when two poses are
 *    within its float error of each other; tests/test_gpu_place.c compares the pose index and
 *    the score within that error.
 */
#ifndef VSG_PLACE_GPU_H
#define VSG_PLACE_GPU_H

#include "grids/base/vsgrid.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct vsg_place_gpu vsg_place_gpu; /* grids and rotation set resident on one device */

/* Puts the grids and the rotation set on `device`; max_gpu_memory_bytes caps what it
 * allocates (0 = what is free). VSG_E_ARG, VSG_E_DEVICE, VSG_E_LIMIT, VSG_E_UNSUPPORTED (no
 * CUDA in this build). The rotations are copied: the caller may free them. */
vsg_status vsg_place_gpu_open(const vsg_score_grids *g, const vsg_quat *rotations, int nrotations, int device,
                              double max_gpu_memory_bytes, vsg_place_gpu **out);

/* The search of vsg_place_cpu on the device with kernel k (GM or AUTO; TM, SM: later; ZIP/ROI
 * make no sense for generated poses) in float (double: later); same options (o->rotations must
 * hold the set given to open, VSG_E_ARG otherwise; top_k ≤ 1) and the same result fields. */
vsg_status vsg_place_gpu_run(vsg_place_gpu *s, const vsg_place_ligand *lig, const vsg_place_options *o, vsg_kernel k,
                             int double_precision, vsg_place_result *r);

void vsg_place_gpu_close(vsg_place_gpu *s);

/* 1 when this build can place with kernel k at that precision (CUDA builds: GM/AUTO, float). */
int vsg_place_gpu_supports(vsg_kernel k, int double_precision);

#ifdef __cplusplus
}
#endif
#endif
