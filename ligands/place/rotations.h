/* rotations.h — the super-Fibonacci rotation set (Alexa, CVPR 2022) for the exhaustive
 * rigid-body pose search. vsg_quat and its calls (vsg_rotations_super_fibonacci,
 * vsg_quat_to_matrix, vsg_quat_angle) are public, with the set's definition:
 * grids/base/vsgrid.h. Coverage is measured in tests/test_place_cpu.c. */
#ifndef VSG_ROTATIONS_H
#define VSG_ROTATIONS_H

#include "grids/base/vsgrid.h"

#endif
