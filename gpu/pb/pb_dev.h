/* pb_dev.h — a PB level kept on the GPU from its set-up to its answer: the GPU twin of
 * vsg_pb_build + vsg_pb_boundary + vsg_pb_guess + vsg_sor_cpu + vsg_pb_energy and the potential
 * grid, without the system ever crossing the bus. The separate calls (vsg_pb_build_gpu, then
 * vsg_sor_gpu on the host copy) download flags, lists and faces and upload them again; at 513³
 * that round trip and the host's page faults took over a second of a 2.7 s solve
 * (docs/PERFORMANCE.md). Same arithmetic as the separate calls, so the same bits: the
 * resident path is a change of where the arrays live, not of what is computed.
 *
 * Contract:
 * - vsg_pb_dev_build: as vsg_pb_build_gpu (same flags, lists, charges, faces), but s only
 *   describes the system (vsg_pb_system_describe: sizes, scalars, ncorr; no arrays) and the
 *   arrays stay in *out. bc must be VSG_BC_ZERO or VSG_BC_MDH (the other faces and focusing
 *   are computed on the host: use the separate calls). depth: the level's nesting depth (0
 *   for a level solved for itself); a deeper level's work gets a higher stream priority.
 * - vsg_pb_dev_guess: vsg_pb_guess(s, coarse) on the device (interior nodes from the coarse
 *   grid's trilinear interpolation, in the CPU's operation order; faces untouched).
 * - vsg_pb_dev_guess_level: vsg_pb_dev_guess from a resident coarse level (described by cs)
 *   instead of its grid: the same values as from the float grid vsg_pb_dev_result would give
 *   (origin, spacing and nodes of cs), read on the device. Both levels on one device, in one
 *   precision; the coarse level may be freed when the call returns.
 * - vsg_sor_gpu_dev: vsg_sor_gpu on the resident arrays (same schedule, kernels and result).
 *   Like vsg_sor_gpu it may take the listed-node patterns out of the lists (sor_patterns.cuh):
 *   the level's flags then carry pattern bits and its lists are the shorter ones, so a level
 *   is solved once.
 * - vsg_pb_dev_result: vsg_pb_energy (the potential at each charge of the build's list, which
 *   stays on the device, gathered there and summed on the host in the CPU's order, with the
 *   charges the build returned) and the float potential grid (interleaved on the
 *   device, one download into g, the caller's grid of s's nodes: grid_ahead.h makes it while
 *   the GPU works).
 * - vsg_pb_dev_max_source: max |s| over both correction lists (level tolerances).
 * Errors as pb_gpu.h and pb_setup_gpu.h; VSG_E_UNSUPPORTED without CUDA. */
#ifndef VSG_PB_DEV_H
#define VSG_PB_DEV_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "grids/formats/grid.h"
#include "grids/pb/pb_setup.h"

typedef struct vsg_pb_dev vsg_pb_dev;

vsg_status vsg_pb_dev_build(const vsg_molecule *m, const vsg_pb_physics *ph, const vsg_level *lv,
                            vsg_precision precision, vsg_boundary bc, vsg_pb_system *s,
                            vsg_grid_charge **charges, size_t *ncharges, double *outside, int device,
                            int depth, vsg_pb_dev **out);
vsg_status vsg_pb_dev_guess(vsg_pb_dev *d, const vsg_pb_system *s, const vsg_grid *coarse);
vsg_status vsg_pb_dev_guess_level(vsg_pb_dev *d, const vsg_pb_system *s, const vsg_pb_dev *coarse,
                                  const vsg_pb_system *cs);
vsg_status vsg_sor_gpu_dev(vsg_pb_dev *d, const vsg_pb_system *s, const vsg_sor_settings *set,
                           vsg_sor_result *r);
vsg_status vsg_pb_dev_result(vsg_pb_dev *d, const vsg_pb_system *s, const vsg_grid_charge *charges,
                             size_t ncharges, double *energy, vsg_grid *g);
double vsg_pb_dev_max_source(const vsg_pb_dev *d);
void vsg_pb_dev_free(vsg_pb_dev *d);

#ifdef __cplusplus
}
#endif
#endif
