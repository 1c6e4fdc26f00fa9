/* sor_mpi.h — the PB SOR distributed over MPI ranks in z-slabs (issue 7).
 *
 * Every rank holds the whole system (setup is replicated: cheap next to the iterations) and
 * updates only its slab of z-planes; after each colour sweep the slab's first and last planes of
 * that colour go to the neighbouring ranks (non-blocking, overlapped with the interior sweep).
 * Convergence is an MPI_Allreduce of the max change on the single-process check schedule, so the
 * ω decisions, the iteration count and (the red-black update of one colour reads only the other
 * colour) the potential are those of vsg_sor_cpu, bit for bit. At the end every rank gathers the
 * whole potential (MPI_Allgatherv): the next focusing level, the energy and rank 0's output files
 * all see the full grid.
 *
 * Slab rule: the nz planes are cut at even planes, z_k = the even number nearest
 * 1 + k (nz − 2) / N (ties down), z_0 = 0, z_N = nz; rank k owns planes [z_k, z_k+1) and updates
 * those not on a box face. Slabs start on an even plane, so a slab's own colour arrays keep the
 * global checkerboard parity (what a GPU slab needs), and the updated plane counts differ by at
 * most 2 over the ranks. A slab owns one ghost plane each side (the neighbour's boundary plane).
 * Grids with fewer than VSG_SOR_MPI_MIN_PLANES updated planes per rank (the small nested-
 * iteration levels) are solved whole on every rank instead: same result, no messages.
 *
 * The work on one slab goes through vsg_slab_backend so that a GPU slab can plug in; the CPU
 * backend (sor_mpi.c) sweeps with the CPU twin's own sweep (sor_cpu_sweep.h).
 *
 * Halo path: where the backend has the peer hooks (the GPU slab: CUDA IPC) and every rank's
 * neighbours share its host, the boundary planes are copied device to device straight into the
 * neighbours' ghost planes and MPI carries only zero-byte "done" tokens ("ipc"); otherwise
 * they are staged through host memory and MPI ("staged"). VSG_SLAB_IPC=0 forces the staged
 * path; VSG_SLAB_IPC=1 also warns why the direct one could not be used. Same bits either way. */
#ifndef VSG_SOR_MPI_H
#define VSG_SOR_MPI_H

#include "grids/pb/pb_system.h"

#ifdef __cplusplus
extern "C" {
#endif

#define VSG_SOR_MPI_MIN_PLANES 4

/* One slab's worker. Planes are global z indices; a slab's owned planes are [z_lo, z_hi).
 * Calls on one slab are ordered (a GPU backend may queue them on one stream): a sweep may run
 * asynchronously, but pack must see the sweeps issued before it, and colour_max waits for them. */
typedef struct vsg_slab_backend {
    const char *name;
    /* Prepares a slab of system s (which holds the starting potential). *ctx on success. */
    vsg_status (*open)(vsg_pb_system *s, int z_lo, int z_hi, const vsg_sor_settings *set, void **ctx);
    /* Updates colour c on planes [z0, z1) (inside the slab, not on a box face). With `check`,
     * also tracks max |Δφ| for colour_max. */
    vsg_status (*sweep)(void *ctx, int c, int z0, int z1, double omega, double lambda, int check);
    /* Max |Δφ| over the checked sweeps since the last call (NaN when any change was NaN). */
    double (*colour_max)(void *ctx);
    /* Copies colour c of plane z into buf (pack: an owned plane; unpack: a ghost plane).
     * vsg_plane_count(s, c, z) values of the system's precision. */
    vsg_status (*pack)(void *ctx, int c, int z, void *buf);
    vsg_status (*unpack)(void *ctx, int c, int z, const void *buf);
    /* Leaves the slab's owned planes of the potential in s (GPU: copy back); frees ctx (and
     * unmaps what peer_import mapped, if peer_close has not). */
    vsg_status (*close)(void *ctx, vsg_pb_system *s, int keep);

    /* Optional direct halo path between slabs of one host (GPU: CUDA IPC); all NULL / 0 where
     * the backend has none (the CPU slab), and then sor_mpi.c stages through pack/unpack.
     * peer_export writes peer_blob_size bytes saying where this slab's ghost planes live (for
     * the neighbours' peer_import). peer_import maps the ghost plane of the neighbour below
     * (side 0: the neighbour's upper ghost = this slab's first owned plane) or above (side 1:
     * its lower ghost = this slab's last owned plane) from that neighbour's blob; it fails with
     * VSG_E_UNSUPPORTED when the two cannot reach each other's memory (another host, no peer
     * access). push(c) copies colour c of this slab's boundary planes straight into the mapped
     * ghosts, after the sweeps queued before it, and returns when the copies are complete (the
     * caller then tells the neighbours so). peer_close unmaps; every rank calls it, then a
     * barrier, then close, so that no slab frees memory a neighbour still maps. */
    size_t peer_blob_size;
    vsg_status (*peer_export)(void *ctx, void *blob);
    vsg_status (*peer_import)(void *ctx, int side, const void *blob);
    vsg_status (*push)(void *ctx, int c);
    vsg_status (*peer_close)(void *ctx);
} vsg_slab_backend;

extern const vsg_slab_backend vsg_slab_cpu;

/* Nodes of colour c on plane z, and the index of the first in s->phi[c]. The nodes of one
 * colour on one plane are contiguous in the colour array. */
size_t vsg_plane_first(const vsg_pb_system *s, int c, int z);
size_t vsg_plane_count(const vsg_pb_system *s, int c, int z);

/* The slab cuts: z[0] = 0 < z[1] < ... < z[ranks] = nz (even cuts, rule above). */
void vsg_slab_cuts(int nz, int ranks, int *z);

/* vsg_sor_mpi_stats (what the last distributed solve did) and vsg_sor_mpi_last are public
 * (vsgrid.h, "devices and processes"). */

/* The device this rank's slab runs on (GPU number, −1 for the CPU), for the stats; set by the
 * caller before vsg_sor_mpi / vsg_sor_mpi_with (default −1). */
void vsg_sor_mpi_set_device(int gpu);

/* The distributed solve. Without MPI, with one rank or a grid too thin to split, it is
 * vsg_sor_cpu. On success the whole potential is in s on every rank. */
vsg_status vsg_sor_mpi(vsg_pb_system *s, const vsg_sor_settings *set, vsg_sor_result *r);
/* The same with an explicit slab backend (the GPU one, later). */
vsg_status vsg_sor_mpi_with(const vsg_slab_backend *be, vsg_pb_system *s, const vsg_sor_settings *set,
                            vsg_sor_result *r);

#ifdef __cplusplus
}
#endif

#endif
