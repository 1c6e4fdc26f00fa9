/* mpi_env.c — start and stop MPI only under an MPI launcher with more than one rank (see
 * mpi_env.h); the ranks' sizes and host-local numbers. Without VSG_HAVE_MPI every function
 * answers "one process". Screening over ranks is in mpi_screen.c. */
#define _POSIX_C_SOURCE 200809L /* fdopen, getline, open_memstream */
#include "grids/base/mpi_env.h"

#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include <sys/types.h> /* ssize_t */
#include <unistd.h>

#include "grids/base/vsgrid.h"

#if defined(_OPENMP)
#include <omp.h>
#endif

#if defined(VSG_HAVE_MPI)
#include <mpi.h>
#if defined(OPEN_MPI) && OPEN_MPI
#include <mpi-ext.h> /* MPIX_CUDA_AWARE_SUPPORT, MPIX_Query_cuda_support */
#endif
#endif

static int active, rank, size = 1, local_size = 1, local_rank = -1;
static FILE *real_stderr;  /* ranks > 0: their own stderr, kept for failures only they see */

#if defined(VSG_HAVE_MPI)
/* The world size the launcher announces, before MPI_Init: Open MPI, then PMI/PMIx (MPICH,
 * Slurm's srun). 1 when no launcher says anything. */
static int launcher_size(void)
{
    static const char *vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE"};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        const char *v = getenv(vars[i]);
        if (v && *v) {
            long n = strtol(v, NULL, 10);
            if (n > 0) return (int)n;
        }
    }
    return 1;
}

#endif

int vsg_mpi_start(int *argc, char ***argv)
{
#if defined(VSG_HAVE_MPI)
    if (active || launcher_size() <= 1) return 0;
    int provided = 0;
    if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
        fprintf(stderr, "vsgrid: MPI_Init failed\n");
        return 1;
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    active = 1;
    MPI_Comm local;
    if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &local) == MPI_SUCCESS) {
        MPI_Comm_size(local, &local_size);
        MPI_Comm_rank(local, &local_rank);
        MPI_Comm_free(&local);
    }
    /* The ranks share the host's cores: without an explicit OMP_NUM_THREADS, split them. */
#if defined(_OPENMP)
    if (!getenv("OMP_NUM_THREADS")) {
        int t = omp_get_num_procs() / (local_size > 0 ? local_size : 1);
        omp_set_num_threads(t > 0 ? t : 1);
    }
#endif
    /* Every rank runs the same command: only rank 0 talks (VSG_MPI_ALL_OUTPUT=1 keeps all). */
    const char *all = getenv("VSG_MPI_ALL_OUTPUT");
    if (rank > 0 && !(all && *all && *all != '0')) {
        int fd = dup(2);
        real_stderr = fd >= 0 ? fdopen(fd, "w") : NULL;
        if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr)) {
            /* keep going with whatever streams are left */
        }
    }
#else
    (void)argc;
    (void)argv;
#endif
    return 0;
}

int vsg_mpi_finish(int rc)
{
#if defined(VSG_HAVE_MPI)
    if (!active) return rc;
    /* Every rank runs the same command on the same input, so a failure is normally seen by all;
     * the worst status wins so that mpirun's exit status does not depend on which rank ended first. */
    int worst = rc, first = rc;
    MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    MPI_Bcast(&first, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rc != first && real_stderr) {
        /* A failure rank 0 did not see: say it on this rank's own stderr. */
        fprintf(real_stderr, "vsgrid: rank %d exited with status %d: %s\n", rank, rc, vsg_last_error());
        fflush(real_stderr);
    }
    MPI_Finalize();
    active = 0;
    return worst;
#else
    return rc;
#endif
}

int vsg_mpi_active(void) { return active; }
FILE *vsg_mpi_stderr(void) { return real_stderr ? real_stderr : stderr; }
int vsg_mpi_rank(void) { return rank; }
int vsg_mpi_size(void) { return size; }
int vsg_mpi_local_size(void) { return local_size; }

int vsg_mpi_local_rank(void)
{
    if (local_rank >= 0) return local_rank;
    static const char *vars[] = {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "SLURM_LOCALID"};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        const char *v = getenv(vars[i]);
        if (v && *v) {
            long n = strtol(v, NULL, 10);
            if (n >= 0) return (int)n;
        }
    }
    return 0;
}

int vsg_mpi_cuda_aware(void)
{
#if defined(VSG_HAVE_MPI) && defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
    return active && MPIX_Query_cuda_support() == 1;
#else
    return 0;
#endif
}

int vsg_mpi_built(void)
{
#if defined(VSG_HAVE_MPI)
    return 1;
#else
    return 0;
#endif
}
