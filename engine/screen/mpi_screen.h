/* mpi_screen.h — screening over MPI ranks: the pipeline's hooks and the merge. */
#ifndef VSG_MPI_SCREEN_H
#define VSG_MPI_SCREEN_H

#include <stddef.h>
#include <stdio.h>

#include "engine/screen/screen.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- screening over ranks (`mpirun -np N vsgrid screen`) --------------------------------
 * The library's batches (the pipeline's units: at most --batch-atoms atoms, 1024 records with
 * the parallel parse, 4096 without) go round-robin over the ranks by sequence number: every rank
 * reads and cuts the whole input (so the batches are the same on every rank), scores only its
 * own batches, and writes their rows to its part file, each batch after a line
 * "#vsgrid-block FIRST NROWS" (FIRST = the batch's first row number in the whole output).
 * Rank 0 then merges the parts in row order into the CSV (VSG_MPI_KEEP_PARTS=1 keeps the parts).
 *
 * --sdf-out and --poses-out go the same way, to their own parts "FILE.rankK.part": each owned
 * batch's records after "#vsgrid-block FIRST NROWS NBYTES" (NBYTES: the block's bytes, written
 * once the batch is done), merged in row order; PDBQT poses get their MODEL numbers from rank 0
 * as it merges. With --top N each rank keeps its own best N (the single-rank heap) and writes
 * them at the end, each after "#vsgrid-top INDEX SCORE BEFORE AFTER WRITTEN": the record's
 * bytes with the vsgrid_rank value cut out (BEFORE bytes, the value, AFTER bytes; WRITTEN 0 and
 * no bytes for a record the SDF writer refused, whose rank number one rank leaves unused too). Rank 0 takes the best N
 * of all by vsg_top_sort's order (score, then row index: a total order, so every rank's best N
 * together hold the global best N) and writes them with their global rank: the single-rank SDF
 * byte for byte. */
/* vsg_mpi_screen_part and vsg_mpi_screen_finish, which the caller of vsg_screen_run uses, are public
 * (grids/base/vsgrid.h); the rest is the pipeline's. */
/* The path this rank writes for another output (SDF, poses): `path` without the split, else
 * "PATH.rankK.part" in buf. */
const char *vsg_mpi_part_path(const char *path, char *buf, size_t len);
/* 1 when this rank scores and writes batch `seq` (always 1 without the split). */
int vsg_mpi_owns_batch(size_t seq);
/* 1 while the split is on (the pipeline then writes block lines). */
int vsg_mpi_screen_split(void);
/* A block of an SDF or pose part: _open writes its header (byte count left blank) and returns
 * where it starts, or −1 (the part is then marked broken and the run fails at the merge);
 * _close fills in the byte count of what was written since. */
long vsg_mpi_block_open(FILE *f, size_t first, size_t nrows);
void vsg_mpi_block_close(FILE *f, long at);
/* --top under the split: one of this rank's best molecules to its SDF part, with its row index
 * and score; tags[rank_tag] is the vsgrid_rank tag, whose value rank 0 supplies. */
vsg_status vsg_mpi_top_write(FILE *f, double score, size_t index, const vsg_ligand *lig, vsg_sdf_tag *tags,
                             int ntags, int rank_tag);
#ifdef __cplusplus
}
#endif

#endif
