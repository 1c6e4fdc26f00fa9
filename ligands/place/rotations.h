/* rotations.h — a deterministic, near-uniform set of N rotations (unit quaternions) for the
 * exhaustive rigid-body pose search (ligands/place/place_cpu.h, gpu/place/place_gpu.h).
 *
 * The set is the super-Fibonacci spiral of M. Alexa, "Super-Fibonacci Spirals: Fast,
 * Low-Discrepancy Sampling of SO(3)", CVPR 2022. Member i (0 ≤ i < N) is built from
 * s = i + 1/2, r = √(s/N), R = √(1 − s/N), α = 2π s/φ, β = 2π s/ψ with φ = √2 and ψ the real
 * root > 1 of ψ⁴ = ψ + 4 (ψ ≈ 1.5337511687552043):
 *     q_i = (w, x, y, z) = (r sin α, r cos α, R sin β, R cos β).
 * It is a volume-preserving map of a 2D low-discrepancy (Fibonacci-like) sequence onto the
 * unit 3-sphere, so every N gives a near-uniform set (no special N, unlike the Hopf grids
 * of Yershova et al. 2010, which refine by factors of 8), and member i depends only on (i, N):
 * the GPU can generate any member from its index alone.
 *
 * Coverage, measured in tests/test_place_cpu.c (largest angle from 200 000 random rotations to
 * the nearest member; the theoretical lower bound for N balls covering SO(3) is about
 * (6π/N)^(1/3)): see that test for the numbers, and the header of ligands/place/place_cpu.h.
 */
#ifndef VSG_ROTATIONS_H
#define VSG_ROTATIONS_H

#include "grids/base/vsgrid.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    double w, x, y, z; /* unit quaternion; q and −q are the same rotation */
} vsg_quat;

/* The largest rotation set vsg_rotations_super_fibonacci accepts. */
#define VSG_ROTATIONS_MAX 10000000

/* Fills out[0 .. n) with the super-Fibonacci set of n rotations (normalised in double).
 * VSG_E_ARG when n < 1, n > VSG_ROTATIONS_MAX or out is NULL. */
vsg_status vsg_rotations_super_fibonacci(int n, vsg_quat *out);

/* Row-major rotation matrix of a unit quaternion: v' = m · v. */
void vsg_quat_to_matrix(const vsg_quat *q, double m[9]);

/* Angle (radians, in [0, π]) of the rotation that takes a to b: 2 acos |a·b|. */
double vsg_quat_angle(const vsg_quat *a, const vsg_quat *b);

#ifdef __cplusplus
}
#endif
#endif
