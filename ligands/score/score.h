/* score.h — scoring ligand atoms on receptor grids: the contract shared by the CPU twin
 * (ligands/score/score_cpu.c, double precision, OpenMP) and the GPU kernels
 * (gpu/score/score_gpu.cu). The contract itself (kinds of score, interpolation, the rule for
 * atoms outside the grid) and its types and calls (vsg_score_grids, vsg_score_batch,
 * vsg_score_result, vsg_kernel, vsg_score_cpu, ...) are public: grids/base/vsgrid.h. */
#ifndef VSG_SCORE_H
#define VSG_SCORE_H

#include <stddef.h>
#include <stdint.h>

#include "grids/base/vsgrid.h"

#endif
