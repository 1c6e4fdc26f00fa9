/* gpu.h — device discovery. Each solver's GPU entry point lives in its own header next to
 * its CPU twin's contract (pb_gpu.h for the PB SOR solver). */
#ifndef VSG_GPU_H
#define VSG_GPU_H

#include <stddef.h>

#include "grids/base/vsgrid.h"

#ifdef __cplusplus
extern "C" {
#endif

/* vsg_gpu_count, vsg_gpu_start and vsg_gpu_describe are public (vsgrid.h, "devices and
 * processes"). */

/* Gives the memory that the PB solver's pool (dev_pool.cuh) holds idle back to the device, so
 * that cudaMemGetInfo and cudaMalloc see it (the screening, Coulomb and placement code call it
 * before they size their work). A no-op when the pool was never used. */
void vsg_gpu_release_pool(int device);

#ifdef __cplusplus
}
#endif
#endif
