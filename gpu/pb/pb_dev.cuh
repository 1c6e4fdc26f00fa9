/* pb_dev.cuh — the layout of a resident PB level (pb_dev.h), shared by the .cu files that make
 * it (pb_setup_gpu.cu), solve it (sor_gpu.cu) and read it (pb_dev.cu). */
#ifndef VSG_PB_DEV_CUH
#define VSG_PB_DEV_CUH

#include <cuda_runtime.h>
#include <stdint.h>

#include "gpu/pb/pb_dev.h"

struct vsg_pb_dev {
    int device;            /* the CUDA device the arrays live on */
    cudaStream_t stream;   /* every call's work goes here, in order */
    vsg_precision precision;
    void *phi[2];          /* per colour, in the precision; faces hold the boundary values */
    uint8_t *flag[2];      /* per colour, VSG_NODE_* bits */
    void *corr[2];         /* per colour, SoA: index[n] (uint64), then w0..w5, s, k (n reals each) */
    size_t ncorr[2];
    vsg_grid_charge *charges; /* the build's charge list (for the energy), ncharges entries */
    size_t ncharges;
    double max_source;     /* max |s| over both lists */
};

#endif
