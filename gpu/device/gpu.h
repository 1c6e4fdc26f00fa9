/* gpu.h — device discovery. Each solver's GPU entry point lives in its own header next to
 * its CPU twin's contract (pb_gpu.h for the PB SOR solver). */
#ifndef VSG_GPU_H
#define VSG_GPU_H

#include <stddef.h>

#include "grids/base/vsgrid.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Number of usable CUDA devices (0 without CUDA, without a driver, or without a GPU). */
int vsg_gpu_count(void);
/* Starts the CUDA runtime and the device's primary context now (the first CUDA call of a
 * process pays ~0.2 s for both), so that a solve can report that fixed cost apart. The current
 * device is left as it was. VSG_E_DEVICE on failure, VSG_E_UNSUPPORTED without CUDA. */
vsg_status vsg_gpu_start(int device);
/* Gives the memory that the PB solver's pool (dev_pool.cuh) holds idle back to the device, so
 * that cudaMemGetInfo and cudaMalloc see it (the screening, Coulomb and placement code call it
 * before they size their work). A no-op when the pool was never used. */
void vsg_gpu_release_pool(int device);
/* Name and memory of a device. */
vsg_status vsg_gpu_describe(int device, char *name, size_t len, double *free_bytes,
                            double *total_bytes);

#ifdef __cplusplus
}
#endif
#endif
