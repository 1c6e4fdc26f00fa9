/* mpi_env.h — whether this process is one rank of an MPI job, and which (issue 7).
 *
 * vsgrid touches MPI only when it was built with it (VSG_HAVE_MPI) AND was launched by an MPI
 * starter with more than one rank (OMPI_COMM_WORLD_SIZE, PMI_SIZE or PMIX_SIZE > 1 in the
 * environment). A plain `vsgrid grid ...`, or `mpirun -np 1 vsgrid ...`, never calls MPI_Init:
 * every function below then answers as for a single process (rank 0 of 1). */
#ifndef VSG_MPI_ENV_H
#define VSG_MPI_ENV_H

#include <stddef.h>
#include <stdio.h>

#include "grids/base/vsgrid.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Initialises MPI (threads: funnelled, only the main thread calls MPI) when the conditions above
 * hold. Returns 0, or nonzero when MPI_Init failed (the caller exits). Then, unless OMP_NUM_THREADS
 * is set, the host's cores are split between its ranks, and ranks > 0 send stdout and stderr to
 * /dev/null (all ranks run the same command; VSG_MPI_ALL_OUTPUT=1 keeps every rank's output). */
int vsg_mpi_start(int *argc, char ***argv);
/* Agrees the exit status over the ranks (the worst one wins) and finalises MPI when it was
 * started; returns the status the process should exit with. */
int vsg_mpi_finish(int rc);
/* This rank's own stderr, even where stderr was silenced (for failures only this rank sees). */
FILE *vsg_mpi_stderr(void);
/* 1 when MPI was started (so the job has > 1 rank). */
int vsg_mpi_active(void);
int vsg_mpi_rank(void);
int vsg_mpi_size(void);
/* 1 when this vsgrid was built with MPI (for --version and the tests). */
int vsg_mpi_built(void);
/* Ranks that share this host (MPI_COMM_TYPE_SHARED); 1 when MPI is not active. */
int vsg_mpi_local_size(void);
/* This rank's number among the ranks of its host (0 .. local_size − 1), for one GPU per rank:
 * MPI_COMM_TYPE_SHARED when MPI is active, else OMPI_COMM_WORLD_LOCAL_RANK / MPI_LOCALRANKID /
 * SLURM_LOCALID from the launcher, else 0. */
int vsg_mpi_local_rank(void);
/* 1 when the MPI library says it can take device pointers (Open MPI's MPIX_Query_cuda_support
 * in <mpi-ext.h>); 0 when it cannot, cannot tell, or MPI is not active. */
int vsg_mpi_cuda_aware(void);

#ifdef __cplusplus
}
#endif

#endif
