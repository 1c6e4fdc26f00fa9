/* place_cpu.h — exhaustive rigid-body pose search of one ligand on receptor grids: the CPU
 * twin (double precision, OpenMP) of the GPU search declared in gpu/place/place_gpu.h, and the
 * reference its tests compare with (issue 5).
 *
 * Poses. The ligand is rigid (one conformation). Its centroid c is the plain mean of its atom
 * positions (no mass or charge weights). A pose is a rotation R (one member of a rotation set,
 * ligands/place/rotations.h) and a site point s (one node of the site lattice below); its atoms are
 *     x'_i = R · (x_i − c) + s,
 * i.e. the rigid motion x' = R·x + T with T = s − R·c (what the CSV reports). The pose's
 * coordinates are rounded to float, as every batch is, and scored by vsg_score_cpu (score.h),
 * so the interpolation is the screening twin's, bit for bit.
 *
 * Site lattice. Per axis d, n_d = ⌊2·half_d/step⌋ + 1 points, centred on the box centre:
 * p_d(i) = center_d + (i − (n_d − 1)/2)·step, i = 0 .. n_d − 1. Site index
 * = ix + n_x·(iy + n_y·iz) (x fastest). Pose index = rotation index × n_sites + site index.
 *
 * Outside the grid. A pose with any atom outside the grid (score.h's closed interval, tested
 * on the float coordinates that are scored) is rejected: never scored as if inside, never
 * kept. Poses whose rotated bounding box clearly leaves the grid are rejected before
 * scoring (a lenient test, 1e-3 Å, so that the scorer's own outside count decides the rest).
 *
 * Best pose: the lowest total; ties go to the lowest pose index. Top-k: the k best in that
 * order. Both are independent of the number of threads (each thread keeps its own best and
 * top-k, merged at the end under that total order). */
#ifndef VSG_PLACE_CPU_H
#define VSG_PLACE_CPU_H

#include <stddef.h>
#include <stdint.h>

#include "ligands/place/rotations.h"
#include "ligands/score/score.h"
#include "grids/base/vsgrid.h"

#ifdef __cplusplus
extern "C" {
#endif

#define VSG_PLACE_DEFAULT_STEP 1.0       /* Å */
#define VSG_PLACE_MAX_POSES 1000000000000000ull /* per molecule: rotations × sites */

/* The box of site points (where the centroid may go). */
typedef struct {
    double center[3]; /* Å */
    double half[3];   /* Å, half-extents (≥ 0) */
    double step;      /* Å between site points (> 0) */
} vsg_place_box;

/* One ligand, as in a vsg_score_batch (x, y, z in the grids' frame). */
typedef struct {
    size_t natoms;
    const float *x, *y, *z, *q;
    const uint8_t *type; /* AD4: type-map index per atom (score.h); ELEC: may be NULL */
} vsg_place_ligand;

typedef struct {
    uint64_t pose;          /* rotation × n_sites + site */
    int rotation;           /* index into the rotation set */
    uint64_t site;          /* index into the site lattice */
    vsg_quat q;             /* the rotation R */
    double site_point[3];   /* s: where the centroid goes, Å */
    double translation[3];  /* T = s − R·c: x' = R·x + T on the input coordinates, Å */
    vsg_score_result score;
} vsg_place_pose;

typedef struct {
    const vsg_quat *rotations;
    int nrotations;
    vsg_place_box box;
    int top_k;              /* poses to keep in vsg_place_result.top (0 = the best only) */
} vsg_place_options;

typedef struct {
    int found;              /* 0 when every pose had an atom outside the grid (best unset) */
    vsg_place_pose best;
    vsg_place_pose *top;    /* caller's array of top_k entries (may be NULL when top_k = 0) */
    int ntop;               /* filled, best first (≤ top_k, fewer when fewer poses fit) */
    uint64_t poses;         /* rotations × sites */
    uint64_t scored;        /* poses scored */
    uint64_t rejected;      /* poses with an atom outside the grid (poses − scored + outside) */
    double centroid[3];     /* c */
} vsg_place_result;

/* Site lattice size along each axis. VSG_E_ARG for a bad box (step ≤ 0, negative or
 * non-finite half-extents, more than 10^6 points on an axis). */
vsg_status vsg_place_lattice(const vsg_place_box *box, int n[3]);
/* Position of site `site` of that lattice. */
void vsg_place_site_point(const vsg_place_box *box, const int n[3], uint64_t site, double p[3]);

/* Searches every (rotation, site) pose; r->top must hold o->top_k entries. VSG_E_ARG (bad
 * grids, ligand or options: the twin's checks), VSG_E_LIMIT (more than VSG_PLACE_MAX_POSES
 * poses), VSG_E_NOMEM. A ligand with no pose inside the grid is not an error: r->found = 0. */
vsg_status vsg_place_cpu(const vsg_score_grids *g, const vsg_place_ligand *lig, const vsg_place_options *o,
                         vsg_place_result *r);

/* x' = R·x + T of a pose, in double (to write the pose's coordinates). */
void vsg_place_transform(const vsg_place_pose *p, const double x[3], double out[3]);

#ifdef __cplusplus
}
#endif
#endif
