/* screen_gpu.h — the GPU side of ligand scoring (gpu/score/score_gpu.cu): receptor grids resident on
 * one device, batches of ligands scored by the kernel variants of paper 003 (GM, ROI, SM, TM,
 * ZIP, ROI-TM-ZIP, ROI-SM-ZIP), each checked against the CPU twin vsg_score_cpu (vsgrid.h,
 * tests/test_gpu_screen.c). Without CUDA every entry point returns VSG_E_UNSUPPORTED.
 *
 * What each kernel reads (all: one vsg_score_result per ligand, reduced on the device):
 *  - GM   atoms as float x, y, z, q + a type byte (17 B/atom); the whole grids in global memory,
 *         read through the read-only cache (__ldg). float and double arithmetic.
 *  - ROI  as GM, but the lookups go to a compact sub-grid holding only the nodes that cover the
 *         batch's atoms (bounding box of the batch's finite atoms, clipped to the grid, one node
 *         of margin on each side). It is gathered per call on the device from the resident
 *         grids (cudaMemcpy3D device to device), or uploaded from the host grids when the whole
 *         grids do not fit the memory cap (then only the ROI kernels run).
 *  - SM   as GM, and each block (512 atoms) stages the nodes covering its own atoms in shared
 *         memory when they fit: (bounding box of the block's cells + 1 node)³ × (maps needed:
 *         ELEC 1; AD4 e, d and the type maps present) × 4 B ≤ 48 KiB. Otherwise that block
 *         reads global memory as GM does (vsg_screen_timing counts both kinds of block).
 *  - TM   one 3D cudaArray holding every map stacked along z (map m at z + m·nz), a texture
 *         object with cudaFilterModeLinear, unnormalised coordinates (+0.5 to reach node
 *         centres), clamp addressing. Hardware weights are 1.8 fixed point: |Δweight| ≤ 1/256
 *         per axis, so |error| ≤ Σ_axes (1/256 + coordinate rounding) · (largest difference
 *         between neighbouring nodes of the cell along that axis). float only. The texel
 *         coordinate is (x − origin)·(1/spacing) in float (no node table: its ~1e-6-cell
 *         rounding is far below the weights' 1/256), which saves three gathers per atom.
 *  - ZIP  atoms as 3 × uint16 coordinates in the batch's box + one uint32 of charge (24-bit
 *         fixed point) and type (ligands/score/zip.h: 10 B/atom), decoded in the kernel exactly as
 *         vsg_zip_unpack decodes them on the host, so the CPU twin on the unpacked batch
 *         predicts ZIP's result; lookups as GM.
 *  - ROI-TM-ZIP: ZIP atoms, the ROI copied into a stacked texture. ROI-SM-ZIP: ZIP atoms, the
 *         ROI sub-grid, shared-memory staging per block as SM.
 *
 * Precision. float kernels other than TM locate an atom's cell in float and form its fractional position t
 * against a per-axis table of node positions held as float pairs (hi + lo = the double node
 * position), so t is accurate to ~1e-7 whatever the grid's origin; corner values are combined
 * in float, each warp's per-ligand partial sum is float and partial sums meet in double
 * (atomicAdd), so a ligand's result is within a few 1e-7 of Σ|q|·|φ| of the double twin.
 * double kernels follow the twin's formulas (u = (x − origin)/spacing in double).
 * Outside the grid: the twin's rule (ligands/score/score_cpu.c), same classification bit for bit (the
 * float bounds are the float values the twin's double test accepts); AD4 penalties in double.
 *
 * Batches: vsg_score_batch as in vsgrid.h; ligands are never split across launches; a batch
 * larger than one launch goes in several, double-buffered on two streams (the host packs
 * launch i + 1 into pinned memory while launch i transfers and runs). Empty ligands score 0.
 */
#ifndef VSG_SCREEN_GPU_H
#define VSG_SCREEN_GPU_H

#include <stddef.h>

#include "grids/base/vsgrid.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct vsg_screen_gpu vsg_screen_gpu; /* grids resident on one device + batch buffers */

/* Seconds of one vsg_screen_gpu_score call. Device times come from CUDA events and are summed
 * over launches (with two streams in flight they may overlap, so they can add up to more than
 * wall_s). The per-ligand reduction is fused into the scoring kernel: kernel_s covers
 * decompression, interpolation and reduction; download_s is the copy of the per-ligand sums. */
typedef struct {
    double pack_s;     /* host: copy or ZIP-pack of the atoms into pinned buffers */
    double upload_s;   /* device: host-to-device copies of atoms and per-launch tables */
    double roi_s;      /* device: ROI gather/upload and texture copy (ROI and TM kernels) */
    double kernel_s;   /* device: scoring kernel (decode + interpolate + per-ligand reduce) */
    double download_s; /* device: per-ligand results back to the host */
    double wall_s;     /* host: the whole call */
    int launches;      /* kernel launches */
    size_t bytes_up;   /* bytes copied host to device (atoms, tables, ROI from the host) */
    long long sm_blocks, sm_staged; /* SM kernels: blocks, and blocks that used shared memory */
} vsg_screen_timing;

/* Puts the grids on `device` (≥ 0). max_gpu_memory_bytes caps what this object allocates
 * (0 = the device's free memory). The grids go whole on the device when they take at most half
 * of the cap; otherwise only the ROI kernels run (the other kernels then fail with
 * VSG_E_LIMIT). Batch buffers are sized from what is left (at most 2^23 atoms per launch) and
 * shrink by halves when an allocation fails. The grids' values are copied; g may be freed after.
 * VSG_E_ARG (bad grids), VSG_E_DEVICE (no such GPU, CUDA error), VSG_E_LIMIT (not even a
 * minimal batch fits), VSG_E_UNSUPPORTED (no CUDA in this build). */
vsg_status vsg_screen_gpu_open(const vsg_score_grids *g, int device, double max_gpu_memory_bytes,
                               vsg_screen_gpu **out);

/* Atoms of one launch (a batch may be larger: it is split into launches of whole ligands). */
size_t vsg_screen_gpu_batch_atoms(const vsg_screen_gpu *s);

/* Caps the atoms per launch below the allocated capacity (tests, tuning); 0 restores it.
 * Values below 32 become 32. */
void vsg_screen_gpu_set_launch_atoms(vsg_screen_gpu *s, size_t atoms);

/* 1 when the grids live whole on the device (all kernels available). */
int vsg_screen_gpu_grids_resident(const vsg_screen_gpu *s);

/* Scores every ligand of b into out[0 .. b->nlig) (elec_factor applied for ELEC, AD4 penalty
 * as in the twin). t may be NULL. The batch's box (for ZIP and ROI) is computed from its finite
 * coordinates. VSG_E_ARG (bad batch: the twin's checks, plus AD4 types), VSG_E_UNSUPPORTED
 * (TM kernels in double, AUTO or CPU), VSG_E_LIMIT (one ligand larger than a launch, grids not
 * resident for a non-ROI kernel), VSG_E_DATA (ZIP: a charge beyond ±8 e or not finite),
 * VSG_E_DEVICE (CUDA error, message names the call). */
vsg_status vsg_screen_gpu_score(vsg_screen_gpu *s, const vsg_score_batch *b, vsg_kernel k, int double_precision,
                                vsg_score_result *out, vsg_screen_timing *t);

/* The same, with the box of b's finite coordinates given (the batch builder keeps it: saves a
 * pass over the atoms). Every finite coordinate must lie in [lo, hi]. */
vsg_status vsg_screen_gpu_score_box(vsg_screen_gpu *s, const vsg_score_batch *b, const float lo[3],
                                    const float hi[3], vsg_kernel k, int double_precision, vsg_score_result *out,
                                    vsg_screen_timing *t);

/* Kernel-only timing: launches the last launch of the last score call again `repeats` times
 * on the data still on the device (same kernel and precision) and gives the mean seconds per
 * launch and its atoms. VSG_E_ARG when nothing was scored yet. */
vsg_status vsg_screen_gpu_rerun_last(vsg_screen_gpu *s, int repeats, double *seconds, size_t *atoms);

void vsg_screen_gpu_close(vsg_screen_gpu *s);

/* 1 when this build can run kernel k at that precision (0 without CUDA). */
int vsg_screen_gpu_supports(vsg_kernel k, int double_precision);

#ifdef __cplusplus
}
#endif
#endif
