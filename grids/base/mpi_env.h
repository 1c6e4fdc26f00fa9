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

/* vsg_mpi_start, _finish, _active, _rank, _size, _built, _local_size and _local_rank are public
 * (vsgrid.h, "devices and processes"). */

/* This rank's own stderr, even where stderr was silenced (for failures only this rank sees). */
FILE *vsg_mpi_stderr(void);
/* 1 when the MPI library says it can take device pointers (Open MPI's MPIX_Query_cuda_support
 * in <mpi-ext.h>); 0 when it cannot, cannot tell, or MPI is not active. */
int vsg_mpi_cuda_aware(void);

#ifdef __cplusplus
}
#endif

#endif
