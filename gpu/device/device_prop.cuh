/* device_prop.cuh — a device's properties, asked of CUDA once per process. cudaGetDeviceProperties
 * queries every attribute (some through the driver's slow paths) on each call; the PB solver
 * needs the name, the SM count and the L2 size at every level of every receptor of a batch. */
#ifndef VSG_DEVICE_PROP_CUH
#define VSG_DEVICE_PROP_CUH

#include <cuda_runtime.h>

/* cudaGetDeviceProperties(prop, device), from a copy after the first success. */
cudaError_t device_prop(cudaDeviceProp *prop, int device);

#endif
