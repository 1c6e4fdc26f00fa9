/* pb_setup_gpu.h — the GPU twin of the PB setup of one grid level (grids/pb/pb_setup.c):
 * vsg_pb_build (dielectric codes, ion exclusion, charges, correction lists) followed by
 * vsg_pb_boundary(s, m, ph, bc, NULL), in one call.
 *
 * Contract: the result equals the CPU's — same allocation of s (vsg_pb_system_alloc), same
 * fields (kh2, ions, nonlinear), same flags, same correction lists in the same order with the
 * same double values, same charge list (*charges, *ncharges, *outside), and the same face
 * potentials: bit for bit for ZERO, SDH and DIPOLE (computed by the CPU's own code on the host
 * while the device works); for MDH the exact (double) sum over the CPU's float inputs, which the
 * CPU's float sum approximates to ~2e-6 of the largest face |φ| (tests/test_gpu_pb_setup.c checks
 * GPU − CPU ≤ 5e-6 of it). The interior of phi is zero.
 * The geometry (SAS points, dielectric codes, ion exclusion) repeats the CPU's floating-point
 * operations one by one in double (no fused multiply-adds; the Fibonacci angles' cos/sin come
 * from the host's libm), so the flags and lists match exactly; gpu/pb/pb_setup_gpu.cu says where a
 * difference could still arise in principle.
 *
 * bc must be ZERO, SDH, MDH or DIPOLE. For focusing, build with VSG_BC_ZERO and then call
 * vsg_pb_boundary(s, m, ph, bc, coarse) on the host, as the CPU path does.
 * device: CUDA device number (< 0: the first). *seconds (may be NULL): wall time of the call.
 *
 * Errors: VSG_E_DEVICE (no GPU, or a CUDA call failed: the message names it), VSG_E_LIMIT (the
 * level does not fit in the device's free memory), VSG_E_NOMEM, VSG_E_ARG (bad bc or level);
 * VSG_E_UNSUPPORTED in a build without CUDA (gpu/device/gpu_none.c). On any error s is freed and
 * *charges is NULL; the caller can run the CPU setup instead. */
#ifndef VSG_PB_SETUP_GPU_H
#define VSG_PB_SETUP_GPU_H

/* pb_system.h includes these: C++ must see them before the C block below. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "grids/pb/pb_setup.h"

vsg_status vsg_pb_build_gpu(const vsg_molecule *m, const vsg_pb_physics *ph, const vsg_level *lv,
                            vsg_precision precision, vsg_boundary bc, vsg_pb_system *s,
                            vsg_grid_charge **charges, size_t *ncharges, double *outside, int device,
                            double *seconds);

#ifdef __cplusplus
}
#endif
#endif
