/* cuda_check.h — one way for every .cu file to turn a CUDA error into a vsg status: the
 * message names the component (VSG_CUDA_WHO, defined before including), the failed call and
 * CUDA's own words; a non-sticky error is cleared so later calls start clean. Never aborts. */
#ifndef VSG_CUDA_CHECK_H
#define VSG_CUDA_CHECK_H

#include <cuda_runtime.h>

extern "C" {
#include "grids/base/vsgrid.h"
}

#ifndef VSG_CUDA_WHO
#error "define VSG_CUDA_WHO (e.g. \"GPU PB solver\") before including cuda_check.h"
#endif

static vsg_status cuda_fail(const char *what, cudaError_t e)
{
    (void)cudaGetLastError();
    return vsg_fail(VSG_E_DEVICE, VSG_CUDA_WHO ": %s failed: %s (%s)", what, cudaGetErrorString(e),
                    cudaGetErrorName(e));
}

/* Returns from the calling function with VSG_E_DEVICE when the call fails. */
#define CU(call)                                                  \
    do {                                                          \
        cudaError_t cu_e_ = (call);                               \
        if (cu_e_ != cudaSuccess) return cuda_fail(#call, cu_e_); \
    } while (0)

/* After a launch: configuration errors now, execution errors at the next synchronisation. */
#define LAUNCHED(name)                                                        \
    do {                                                                      \
        cudaError_t cu_e_ = cudaGetLastError();                               \
        if (cu_e_ != cudaSuccess) return cuda_fail("launch of " name, cu_e_); \
    } while (0)

#endif
