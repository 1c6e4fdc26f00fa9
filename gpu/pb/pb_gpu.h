/* pb_gpu.h — the GPU twin of vsg_sor_cpu (grids/pb/sor_cpu.c): same system, same settings,
 * same schedule (ω, check iterations, nonlinear ramp, convergence rule), same result within
 * the stated tolerance (float: 1e-4 of the potential's range; double: 1e-8).
 * The potential arrays in s->phi are read as the initial guess (box faces hold the boundary
 * values) and overwritten with the solution. */
#ifndef VSG_PB_GPU_H
#define VSG_PB_GPU_H

#include "grids/pb/pb_system.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Device memory the solve of s would need at its peak (bytes): φ, flags, the correction
 * lists, and the moment the listed-node patterns are taken out of them (sor_patterns.cuh),
 * counted unless VSG_SOR_PATTERNS=0. The solve itself reports what it needed, without that
 * moment where it kept the whole list (small float grids). */
double vsg_sor_gpu_bytes(const vsg_pb_system *s);
/* VSG_E_UNSUPPORTED without CUDA, VSG_E_DEVICE without a usable GPU, VSG_E_LIMIT when the
 * system does not fit in the device memory (message names bytes needed and available). */
vsg_status vsg_sor_gpu(vsg_pb_system *s, const vsg_sor_settings *set, vsg_sor_result *r);

#ifdef __cplusplus
}
#endif
#endif
