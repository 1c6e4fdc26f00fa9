/* mpi_env.c — start and stop MPI only under an MPI launcher with more than one rank (see
 * mpi_env.h). Without VSG_HAVE_MPI every function answers "one process". */
#include "mpi_env.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "errors.h"
#include "screen.h"

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

/* ---- screening over ranks ---------------------------------------------------------------- */

static int screen_split;

int vsg_mpi_screen_split(void) { return screen_split; }

int vsg_mpi_owns_batch(size_t seq) { return !screen_split || (int)(seq % (size_t)size) == rank; }

static void part_name(const char *csv, int k, char *buf, size_t len)
{
    snprintf(buf, len, "%s.rank%d.part", strcmp(csv, "-") ? csv : "vsgrid-screen", k);
}

const char *vsg_mpi_screen_part(const char *csv, char *buf, size_t len)
{
    if (!active) return csv;
    screen_split = 1;
    part_name(csv, rank, buf, len);
    return buf;
}

#if defined(VSG_HAVE_MPI)
/* One block header of a part: 1 and its numbers, 0 at the end, -1 when malformed. */
static int next_block(FILE *f, size_t *first, size_t *n)
{
    char line[128];
    if (!fgets(line, sizeof line, f)) return 0;
    return sscanf(line, "#vsgrid-block %zu %zu", first, n) == 2 ? 1 : -1;
}

/* Copies one line (any length) from `in` to `out` (NULL: skips it); 0 at end of file. */
static int copy_line(FILE *in, FILE *out)
{
    int c, any = 0;
    while ((c = getc(in)) != EOF) {
        any = 1;
        if (out) putc(c, out);
        if (c == '\n') break;
    }
    return any;
}

/* Rank 0: the parts' blocks in row order into out. Every row number from 0 to the total must
 * come exactly once: otherwise the ranks cut the input differently, which is an error. */
static vsg_status merge_parts(const char *csv, FILE *out, size_t total)
{
    vsg_status st = VSG_OK;
    FILE **in = calloc((size_t)size, sizeof *in);
    size_t *first = calloc((size_t)size, sizeof *first), *nrows = calloc((size_t)size, sizeof *nrows);
    int *more = calloc((size_t)size, sizeof *more);
    char path[4200];
    if (!in || !first || !nrows || !more) st = vsg_fail(VSG_E_NOMEM, "out of memory (merging the ranks' parts)");
    for (int k = 0; k < size && st == VSG_OK; k++) {
        part_name(csv, k, path, sizeof path);
        if (!(in[k] = fopen(path, "r"))) {
            st = vsg_fail(VSG_E_IO, "cannot read %s (rank %d's rows)", path, k);
            break;
        }
        /* The CSV header: written once, from rank 0's part. */
        if (k == 0) copy_line(in[k], out);
        else copy_line(in[k], NULL);
        more[k] = next_block(in[k], &first[k], &nrows[k]);
        if (more[k] < 0) st = vsg_fail(VSG_E_FORMAT, "%s: not a part of a screening run", path);
    }
    for (size_t row = 0; st == VSG_OK && row < total;) {
        int k = 0;
        while (k < size && !(more[k] == 1 && first[k] == row)) k++;
        if (k == size) {
            st = vsg_fail(VSG_E_DATA, "merging the ranks' CSV parts: no rank has row %zu (the ranks cut the input "
                                      "differently?)", row);
            break;
        }
        for (size_t i = 0; i < nrows[k]; i++)
            if (!copy_line(in[k], out)) {
                st = vsg_fail(VSG_E_FORMAT, "rank %d's part ends inside a block", k);
                break;
            }
        row += nrows[k];
        more[k] = next_block(in[k], &first[k], &nrows[k]);
        if (more[k] < 0) st = vsg_fail(VSG_E_FORMAT, "rank %d's part: a block holds more rows than it says", k);
    }
    for (int k = 0; in && k < size; k++)
        if (in[k]) {
            if (st == VSG_OK && more[k] != 0) st = vsg_fail(VSG_E_DATA, "rank %d's part has rows past the end", k);
            fclose(in[k]);
        }
    free(in);
    free(first);
    free(nrows);
    free(more);
    return st;
}

/* The report's counts summed over the ranks (each counted only its own batches' rows, except
 * `records`, which every rank counts in full); busy times summed, wall time the longest. */
static void reduce_report(vsg_screen_report *rep)
{
    uint64_t v[7] = {rep->scored, rep->failed, rep->outside, rep->atoms, rep->poses, rep->poses_scored, 0}, s[7];
    MPI_Allreduce(v, s, 7, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    rep->scored = (size_t)s[0];
    rep->failed = (size_t)s[1];
    rep->outside = (size_t)s[2];
    rep->atoms = s[3];
    rep->poses = s[4];
    rep->poses_scored = s[5];
    double b[4] = {rep->parse_s, rep->transfer_s, rep->score_s, rep->write_s}, bs[4];
    MPI_Allreduce(b, bs, 4, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    rep->parse_s = bs[0], rep->transfer_s = bs[1], rep->score_s = bs[2], rep->write_s = bs[3];
    double w = rep->seconds;
    MPI_Allreduce(&w, &rep->seconds, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    /* failure codes: every rank's table, merged in rank order */
    typedef struct { char code[16][16]; uint64_t count[16]; uint64_t n; } codes;
    codes mine, *all = malloc((size_t)size * sizeof *all);
    memset(&mine, 0, sizeof mine);
    for (size_t i = 0; i < rep->by_code_n && i < 16; i++) {
        memcpy(mine.code[i], rep->by_code[i], sizeof mine.code[i]);
        mine.count[i] = rep->by_code_count[i];
    }
    mine.n = rep->by_code_n;
    if (!all) return;
    MPI_Allgather(&mine, (int)sizeof mine, MPI_BYTE, all, (int)sizeof mine, MPI_BYTE, MPI_COMM_WORLD);
    rep->by_code_n = 0;
    for (int k = 0; k < size; k++)
        for (uint64_t i = 0; i < all[k].n && i < 16; i++) {
            size_t j = 0;
            while (j < rep->by_code_n && strncmp(rep->by_code[j], all[k].code[i], sizeof rep->by_code[j])) j++;
            if (j == rep->by_code_n) {
                if (j == 16) continue;
                memcpy(rep->by_code[j], all[k].code[i], sizeof rep->by_code[j]);
                rep->by_code_count[j] = 0;
                rep->by_code_n++;
            }
            rep->by_code_count[j] += all[k].count[i];
        }
    free(all);
}
#endif

vsg_status vsg_mpi_screen_finish(vsg_status st, const char *csv, vsg_screen_report *rep)
{
#if defined(VSG_HAVE_MPI)
    if (!active || !screen_split) return st;
    int bad = st != VSG_OK, any = 0;
    MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (any && st == VSG_OK) st = vsg_fail(VSG_E_IO, "screen: another rank failed");
    if (st == VSG_OK) reduce_report(rep);
    /* rank 0 merges (every part is closed: each rank got here after closing its own) */
    if (st == VSG_OK && rank == 0) {
        FILE *out = strcmp(csv, "-") ? fopen(csv, "w") : stdout;
        if (!out) st = vsg_fail(VSG_E_IO, "cannot write %s", csv);
        if (st == VSG_OK) st = merge_parts(csv, out, rep->records);
        if (out && out != stdout && fclose(out) != 0 && st == VSG_OK) st = vsg_fail(VSG_E_IO, "cannot write %s", csv);
        if (out == stdout && fflush(out) != 0 && st == VSG_OK) st = vsg_fail(VSG_E_IO, "cannot write the CSV");
    }
    int bad0 = st != VSG_OK;
    MPI_Bcast(&bad0, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (bad0 && st == VSG_OK) st = vsg_fail(VSG_E_IO, "screen: rank 0 could not merge the parts");
    /* the parts go once merged; kept for inspection when the merge failed or VSG_MPI_KEEP_PARTS=1 */
    char path[4200];
    const char *keep = getenv("VSG_MPI_KEEP_PARTS");
    if (!bad0 && !(keep && *keep && *keep != '0')) {
        part_name(csv, rank, path, sizeof path);
        remove(path);
    }
    screen_split = 0;
    return st;
#else
    (void)csv;
    (void)rep;
    return st;
#endif
}
