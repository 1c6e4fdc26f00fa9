/* surface_gpu.h — the GPU twins of the surface-potential evaluations of grids/surface/alpb.h (exact
 * all pairs) and grids/surface/hcp.h (hierarchical charge partitioning), in gpu/surface/surface_gpu.cu; without
 * CUDA, gpu/device/gpu_none.c answers VSG_E_UNSUPPORTED and the callers run the CPU twins.
 *
 * Same contract as the twins: phi[v] in kcal/(mol·e) at vertex v + projection·n, with the
 * same regions, constants and HCP decisions. Arithmetic is float (positions relative to the
 * molecule's centre, per-tile float sums accumulated in double), so results agree with the
 * double twins to ~1e-5 of the potential's range (tests/test_gpu_surface.c states the
 * tolerance); an HCP decision can differ only for a vertex within float rounding of a
 * threshold. */
#ifndef VSG_SURFACE_GPU_H
#define VSG_SURFACE_GPU_H

#include "grids/surface/hcp.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    double kernel_seconds;     /* the evaluation kernel alone (CUDA events) */
    double total_seconds;      /* with uploads, downloads and allocations */
    double pairs;              /* charge–vertex pairs evaluated */
    double device_bytes;       /* device memory used */
} vsg_surface_gpu_report;

vsg_status vsg_surface_exact_gpu(int device, const vsg_alpb *k, const vsg_molecule *m,
                                 const vsg_mesh *mesh, double *phi, vsg_surface_gpu_report *rep);
vsg_status vsg_surface_hcp_gpu(int device, const vsg_hcp *h, const vsg_alpb *k, const vsg_mesh *mesh,
                               const double thr[3], double *phi, vsg_surface_gpu_report *rep);

#ifdef __cplusplus
}
#endif
#endif
