/* batch.h — a batch of ligands for the scoring kernels, built one ligand at a time into
 * buffers of fixed capacity (ligands and atoms), structure of arrays as vsg_score_batch wants,
 * with the bounding box of its finite coordinates kept as atoms arrive (the ROI and ZIP
 * kernels need it; keeping it here saves a pass over the atoms).
 *
 * Use: vsg_batch_init once; vsg_batch_append per ligand until it returns VSG_E_LIMIT (batch
 * full: score vsg_batch_view(), vsg_batch_reset, append again); vsg_batch_free at the end. */
#ifndef VSG_BATCH_H
#define VSG_BATCH_H

#include <stddef.h>
#include <stdint.h>

#include "grids/base/vsgrid.h"

/* The per-atom passes over a batch (its box, ZIP packing, type bytes) use an OpenMP team
 * only from this many atoms on. A screen hands the scorer thread batches of ~50k atoms while
 * parse threads hold the cores: a team per batch there cost ~4 ms a batch (its threads wait
 * for cores held by the parsers, then spin after the region, stealing them back), which made
 * the scorer thread the slowest stage of the pipeline. One core does 50k atoms in ~50 µs. */
#define VSG_BATCH_PARALLEL_MIN 1000000

typedef struct {
    size_t cap_ligands, cap_atoms;
    size_t nlig, natoms;
    uint32_t *start;        /* cap_ligands + 1 offsets */
    float *x, *y, *z, *q;   /* cap_atoms each */
    uint8_t *type;          /* cap_atoms; VSG_SCORE_NO_TYPE when the ligand gave none */
    float lo[3], hi[3];     /* box of the finite coordinates; lo > hi while there are none */
    size_t nonfinite;       /* atoms with a NaN or infinite coordinate */
} vsg_batch;

/* Allocates the buffers. VSG_E_ARG for zero capacities or more than 2^32 − 1 atoms (the
 * offsets are 32-bit), VSG_E_NOMEM. */
vsg_status vsg_batch_init(vsg_batch *b, size_t cap_ligands, size_t cap_atoms);
void vsg_batch_free(vsg_batch *b);
/* Empties the batch (capacity kept). */
void vsg_batch_reset(vsg_batch *b);
/* 1 when a ligand of natoms atoms still fits. */
int vsg_batch_fits(const vsg_batch *b, size_t natoms);
/* Appends one ligand (natoms may be 0: an empty ligand, scored 0). type may be NULL (every
 * atom VSG_SCORE_NO_TYPE). VSG_E_LIMIT, batch unchanged, when it does not fit (and, with a
 * message, when natoms alone exceeds the atom capacity: that ligand can never be batched). */
vsg_status vsg_batch_append(vsg_batch *b, size_t natoms, const float *x, const float *y, const float *z,
                            const float *q, const uint8_t *type);
/* Appends a ligand whose natoms atoms the caller has already written in place, at index natoms
 * of x, y, z, q and type (check vsg_batch_fits first): offsets and box are updated. Saves a
 * copy when the caller converts its atoms anyway (the screening pipeline). */
void vsg_batch_commit(vsg_batch *b, size_t natoms);
/* The batch as the scoring contract sees it (pointers into b, valid until b changes). */
vsg_score_batch vsg_batch_view(const vsg_batch *b);

/* Box of the finite coordinates of any vsg_score_batch (OpenMP over atoms); lo > hi (lo = +inf,
 * hi = −inf) when there are none. Returns the number of atoms with a non-finite coordinate. */
size_t vsg_batch_box_of(const vsg_score_batch *b, float lo[3], float hi[3]);

/* AD4: every atom's type is VSG_SCORE_NO_TYPE or a type map of g (not e, not d), as the twin
 * requires (VSG_E_ARG naming the atom otherwise). ELEC batches always pass. */
vsg_status vsg_batch_check_types(const vsg_score_batch *b, const vsg_score_grids *g);

#endif
