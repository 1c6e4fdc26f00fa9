/* sor_mpi_gpu.h — the GPU slab backend of the distributed PB SOR (issue 7, grids/pb/sor_mpi.h):
 * `mpirun -np N vsgrid grid ... --device gpu` runs one rank per GPU, each rank sweeping its
 * z-slab with the single-GPU solver's own kernels (gpu/pb/sor_kernels.cuh), so the potential and
 * the iteration count are those of vsg_sor_gpu, bit for bit (one colour's update reads only
 * the other colour; the max change does not depend on the order of its terms).
 *
 * Contract of vsg_slab_gpu (on top of vsg_slab_backend's):
 *  - open: GPU set->gpu_index (the caller picks local rank % devices); uploads only the planes
 *    [z_lo − 1, z_hi] (the slab and one ghost plane each side, clipped to the box) and the
 *    correction entries of the slab's planes, so a GPU holds ~1/N of the grid. Fails with
 *    VSG_E_DEVICE (no such GPU), VSG_E_LIMIT (slab does not fit / above max_gpu_bytes), VSG_E_ARG
 *    (a correction entry on the box face or lists not sorted), VSG_E_UNSUPPORTED without CUDA.
 *  - sweep: queued, asynchronous. Ranges holding a slab boundary plane (the first or last
 *    updated plane) go on a high-priority stream with the halo copies; ranges of interior
 *    planes only go on a second, low-priority stream, joined at each change of colour.
 *    Look-ahead: once both boundary planes of a colour are queued, the interior range
 *    [first + 1, last − 1) is queued at once with the same ω, λ and check, and the caller's own
 *    sweep of that range then finds it done; so the device→host copy of the halo (pack) runs
 *    under the interior kernel even though sor_mpi.c packs before it sweeps the interior. A
 *    sweep that overlaps a queued look-ahead with other arguments is an error (VSG_E_ARG);
 *    VSG_SLAB_LOOKAHEAD=0 turns it off.
 *  - pack/unpack: through pinned host staging (cudaMemcpyAsync + event); a caller buffer that
 *    is already page-locked (cudaHostAlloc / cudaHostRegister) is copied directly. pack returns
 *    with the plane in buf; unpack returns once buf may be reused.
 *  - colour_max: device max |Δφ| of the checked sweeps since the last call (NaN above +inf).
 *  - close(keep): the owned planes [z_lo, z_hi) back into s->phi; frees everything.
 *
 * Where the MPI library is CUDA-aware (vsg_mpi_cuda_aware()), sor_mpi.c could hand
 * vsg_slab_gpu_plane()'s device pointers to MPI_Isend/MPI_Irecv instead of pack/unpack (one
 * copy less each way); the staged path is the baseline and what sor_mpi.c uses today. */
#ifndef VSG_SOR_SLAB_GPU_H
#define VSG_SOR_SLAB_GPU_H

#include "grids/pb/sor_mpi.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const vsg_slab_backend vsg_slab_gpu;

/* Device address of colour c of plane z in an open GPU slab (an owned or a ghost plane), after
 * waiting for the sweeps queued before; NULL when z is not stored. For CUDA-aware MPI. */
void *vsg_slab_gpu_plane(void *ctx, int c, int z);

/* Device bytes a slab [z_lo, z_hi) of s would take (planes, flags, its corrections). */
double vsg_slab_gpu_bytes(const vsg_pb_system *s, int z_lo, int z_hi);

#ifdef __cplusplus
}
#endif

#endif
