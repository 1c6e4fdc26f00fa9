/* place_cpu.h — exhaustive rigid-body pose search of one ligand on receptor grids: the CPU
 * twin (double precision, OpenMP) of the GPU search declared in gpu/place/place_gpu.h, and the
 * reference its tests compare with (issue 5). Its definition (poses, site lattice, the outside
 * rule, best and top-k order), types and calls (vsg_place_box, vsg_place_cpu, ...) are
 * public: grids/base/vsgrid.h. Each thread keeps its own best and top-k, merged at the end
 * under the total order, so the result is independent of the number of threads. */
#ifndef VSG_PLACE_CPU_H
#define VSG_PLACE_CPU_H

#include <stddef.h>
#include <stdint.h>

#include "ligands/place/rotations.h"
#include "ligands/score/score.h"
#include "grids/base/vsgrid.h"

#endif
