/* mpi_screen.c — screening over MPI ranks (`mpirun -np N vsgrid screen`): which batches a rank
 * owns, its part files, and their merge on rank 0 into the single-rank outputs (the contract
 * is in mpi_screen.h). Without VSG_HAVE_MPI there is one process and no split. */
#define _POSIX_C_SOURCE 200809L /* fdopen, getline, open_memstream */
#include "engine/screen/mpi_screen.h"

#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include <sys/types.h> /* ssize_t */
#include <unistd.h>

#include "grids/base/vsgrid.h"
#include "grids/base/mpi_env.h"
#include "engine/screen/screen.h"

#if defined(VSG_HAVE_MPI)
#include <mpi.h>
#endif

/* ---- screening over ranks ---------------------------------------------------------------- */

static int screen_split;
static int part_broken; /* a block header of an SDF/pose part could not be written or filled in */

int vsg_mpi_screen_split(void) { return screen_split; }

int vsg_mpi_owns_batch(size_t seq) { return !screen_split || (int)(seq % (size_t)vsg_mpi_size()) == vsg_mpi_rank(); }

static void part_name(const char *csv, int k, char *buf, size_t len)
{
    snprintf(buf, len, "%s.rank%d.part", strcmp(csv, "-") ? csv : "vsgrid-screen", k);
}

const char *vsg_mpi_screen_part(const char *csv, char *buf, size_t len)
{
    if (!vsg_mpi_active()) return csv;
    screen_split = 1;
    part_broken = 0;
    part_name(csv, vsg_mpi_rank(), buf, len);
    return buf;
}

const char *vsg_mpi_part_path(const char *path, char *buf, size_t len)
{
    if (!screen_split || !path) return path;
    part_name(path, vsg_mpi_rank(), buf, len);
    return buf;
}

/* A block header "#vsgrid-block FIRST NROWS NBYTES": NBYTES is a fixed-width field at the end
 * of the line, written blank first and over it once the block's length is known. */
#define NBYTES_WIDTH 20

long vsg_mpi_block_open(FILE *f, size_t first, size_t nrows)
{
    long at = ftell(f);
    int n = at < 0 ? -1 : fprintf(f, "#vsgrid-block %zu %zu ", first, nrows);
    if (n < 0 || fprintf(f, "%*zu\n", NBYTES_WIDTH, (size_t)0) < 0) {
        part_broken = 1;
        return -1;
    }
    return at + n; /* where NBYTES goes */
}

void vsg_mpi_block_close(FILE *f, long at)
{
    long end = ftell(f), body = at + NBYTES_WIDTH + 1;
    if (end < body || fseek(f, at, SEEK_SET) != 0 || fprintf(f, "%*zu", NBYTES_WIDTH, (size_t)(end - body)) < 0 ||
        fseek(f, end, SEEK_SET) != 0)
        part_broken = 1;
}

/* The last occurrence of needle in hay[0..n), or NULL. */
static const char *last_match(const char *hay, size_t n, const char *needle)
{
    size_t m = strlen(needle);
    for (size_t i = n >= m ? n - m + 1 : 0; i-- > 0;)
        if (!memcmp(hay + i, needle, m)) return hay + i;
    return NULL;
}

vsg_status vsg_mpi_top_write(FILE *f, double score, size_t index, const vsg_ligand *lig, vsg_sdf_tag *tags,
                             int ntags, int rank_tag)
{
    /* the record goes through the SDF writer with "@" for the rank; the last "@" line after a
     * vsgrid_rank header is ours (our tags follow the input's own data items) */
    char value[sizeof tags[0].value], needle[160];
    memcpy(value, tags[rank_tag].value, sizeof value);
    snprintf(tags[rank_tag].value, sizeof tags[rank_tag].value, "@");
    snprintf(needle, sizeof needle, "> <vsgrid_%s>\n@\n", tags[rank_tag].name);
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    vsg_status st = m ? vsg_sdf_write_record(m, lig, tags, ntags) : vsg_fail(VSG_E_NOMEM, "out of memory (--top part)");
    if (m && fclose(m) != 0 && st == VSG_OK) st = vsg_fail(VSG_E_NOMEM, "out of memory (--top part)");
    memcpy(tags[rank_tag].value, value, sizeof value);
    const char *at = st == VSG_OK ? last_match(buf, len, needle) : NULL;
    if (st == VSG_OK && !at) st = vsg_fail(VSG_E_FORMAT, "--top part: the record has no rank tag");
    if (st == VSG_OK) {
        size_t before = (size_t)(at - buf) + strlen(needle) - 2; /* up to the "@" */
        fprintf(f, "#vsgrid-top %zu %.17g %zu %zu 1\n", index, score, before, len - before - 1);
        fwrite(buf, 1, before, f);
        fwrite(buf + before + 1, 1, len - before - 1, f);
    } else {
        /* not writable (e.g. too large for V2000): one rank writes nothing for it but counts its
         * rank all the same, so rank 0 must know it is there (written flag 0) */
        fprintf(f, "#vsgrid-top %zu %.17g 0 0 0\n", index, score);
    }
    if (ferror(f)) st = vsg_fail(VSG_E_IO, "cannot write the --top part");
    free(buf);
    return st;
}

#if defined(VSG_HAVE_MPI)
/* One block header of a part: 1 and its numbers, 0 at the end, -1 when malformed. CSV headers
 * have two numbers; SDF and pose headers a third, the block's bytes (nbytes NULL: CSV). */
static int next_block(FILE *f, size_t *first, size_t *n, size_t *nbytes)
{
    char line[128];
    if (!fgets(line, sizeof line, f)) return 0;
    if (!nbytes) return sscanf(line, "#vsgrid-block %zu %zu", first, n) == 2 ? 1 : -1;
    return sscanf(line, "#vsgrid-block %zu %zu %zu", first, n, nbytes) == 3 ? 1 : -1;
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

/* Copies n bytes; with `model`, PDBQT poses: every "MODEL" line gets the next number (*model
 * counts them over the whole output, as the single-rank writer does). 0 when `in` ends early. */
static int copy_bytes(FILE *in, FILE *out, size_t n, long *model)
{
    if (!model) {
        char buf[1 << 16];
        while (n > 0) {
            size_t k = fread(buf, 1, n < sizeof buf ? n : sizeof buf, in);
            if (k == 0) return 0;
            fwrite(buf, 1, k, out);
            n -= k;
        }
        return 1;
    }
    char *line = NULL;
    size_t cap = 0;
    int ok = 1;
    while (n > 0) {
        ssize_t k = getline(&line, &cap, in);
        if (k <= 0 || (size_t)k > n) {
            ok = 0;
            break;
        }
        if (!strncmp(line, "MODEL ", 6)) /* the line's own form: rigid poses pad to 8 (vsg_pdbqt_write_record), docked ones do not */
            fprintf(out, line[6] == ' ' ? "MODEL %8ld\n" : "MODEL %ld\n", ++*model);
        else fwrite(line, 1, (size_t)k, out);
        n -= (size_t)k;
    }
    free(line);
    return ok;
}

/* What a part holds: CSV rows (a header line, then blocks of lines), or blocks of bytes (SDF
 * records, poses; PDBQT poses renumbered). */
typedef enum { PART_CSV, PART_BYTES, PART_PDBQT } part_kind;

/* Rank 0: the parts' blocks in row order into out. Every row number from 0 to the total must
 * come exactly once: otherwise the ranks cut the input differently, which is an error. */
static vsg_status merge_parts(const char *path, part_kind kind, FILE *out, size_t total)
{
    vsg_status st = VSG_OK;
    FILE **in = calloc((size_t)vsg_mpi_size(), sizeof *in);
    size_t *first = calloc((size_t)vsg_mpi_size(), sizeof *first), *nrows = calloc((size_t)vsg_mpi_size(), sizeof *nrows);
    size_t *nbytes = calloc((size_t)vsg_mpi_size(), sizeof *nbytes);
    int *more = calloc((size_t)vsg_mpi_size(), sizeof *more);
    long model = 0;
    char part[4200];
    if (!in || !first || !nrows || !nbytes || !more) st = vsg_fail(VSG_E_NOMEM, "out of memory (merging the ranks' parts)");
    for (int k = 0; k < vsg_mpi_size() && st == VSG_OK; k++) {
        part_name(path, k, part, sizeof part);
        if (!(in[k] = fopen(part, "r"))) {
            st = vsg_fail(VSG_E_IO, "cannot read %s (rank %d's part of %s)", part, k, path);
            break;
        }
        /* The CSV header: written once, from rank 0's part. */
        if (kind == PART_CSV) copy_line(in[k], k == 0 ? out : NULL);
        more[k] = next_block(in[k], &first[k], &nrows[k], kind == PART_CSV ? NULL : &nbytes[k]);
        if (more[k] < 0) st = vsg_fail(VSG_E_FORMAT, "%s: not a part of a screening run", part);
    }
    for (size_t row = 0; st == VSG_OK && row < total;) {
        int k = 0;
        while (k < vsg_mpi_size() && !(more[k] == 1 && first[k] == row)) k++;
        if (k == vsg_mpi_size()) {
            st = vsg_fail(VSG_E_DATA, "merging the ranks' parts of %s: no rank has row %zu (the ranks cut the input "
                                      "differently?)", path, row);
            break;
        }
        if (kind == PART_CSV) {
            for (size_t i = 0; i < nrows[k]; i++)
                if (!copy_line(in[k], out)) {
                    st = vsg_fail(VSG_E_FORMAT, "rank %d's part of %s ends inside a block", k, path);
                    break;
                }
        } else if (!copy_bytes(in[k], out, nbytes[k], kind == PART_PDBQT ? &model : NULL)) {
            st = vsg_fail(VSG_E_FORMAT, "rank %d's part of %s ends inside a block", k, path);
        }
        row += nrows[k];
        more[k] = next_block(in[k], &first[k], &nrows[k], kind == PART_CSV ? NULL : &nbytes[k]);
        if (more[k] < 0) st = vsg_fail(VSG_E_FORMAT, "rank %d's part of %s: a block holds more than it says", k, path);
    }
    for (int k = 0; in && k < vsg_mpi_size(); k++)
        if (in[k]) {
            if (st == VSG_OK && more[k] != 0) st = vsg_fail(VSG_E_DATA, "rank %d's part of %s has rows past the end", k, path);
            fclose(in[k]);
        }
    free(in);
    free(first);
    free(nrows);
    free(nbytes);
    free(more);
    return st;
}

/* One molecule of a rank's best N (--top): where its record lies in that rank's part. */
typedef struct {
    double score;
    size_t index;
    int k;
    long at;
    size_t before, after;
    int written; /* 0: the record could not be written (the single-rank run skips it too) */
} top_ref;

/* vsg_top_sort's order (screen_output.c): lower score first, then lower row index. */
static int top_cmp(const void *a, const void *b)
{
    const top_ref *x = a, *y = b;
    if (x->score != y->score) return x->score > y->score ? 1 : -1;
    return x->index > y->index ? 1 : x->index < y->index ? -1 : 0;
}

/* Rank 0, --top: the best `top` of every rank's best, in order, with their global rank. */
static vsg_status merge_top(const char *path, long top, FILE *out)
{
    vsg_status st = VSG_OK;
    FILE **in = calloc((size_t)vsg_mpi_size(), sizeof *in);
    top_ref *refs = NULL;
    size_t n = 0, cap = 0;
    char part[4200], line[256];
    if (!in) st = vsg_fail(VSG_E_NOMEM, "out of memory (merging the ranks' best molecules)");
    for (int k = 0; k < vsg_mpi_size() && st == VSG_OK; k++) {
        part_name(path, k, part, sizeof part);
        if (!(in[k] = fopen(part, "r"))) {
            st = vsg_fail(VSG_E_IO, "cannot read %s (rank %d's part of %s)", part, k, path);
            break;
        }
        while (st == VSG_OK && fgets(line, sizeof line, in[k])) {
            top_ref r = {0.0, 0, k, 0, 0, 0, 0};
            if (sscanf(line, "#vsgrid-top %zu %lf %zu %zu %d", &r.index, &r.score, &r.before, &r.after, &r.written) != 5 ||
                (r.at = ftell(in[k])) < 0 || fseek(in[k], (long)(r.before + r.after), SEEK_CUR) != 0) {
                st = vsg_fail(VSG_E_FORMAT, "%s: not a --top part of a screening run", part);
                break;
            }
            if (n == cap) {
                size_t c = cap ? 2 * cap : 64;
                top_ref *q = realloc(refs, c * sizeof *q);
                if (!q) {
                    st = vsg_fail(VSG_E_NOMEM, "out of memory (merging the ranks' best molecules)");
                    break;
                }
                refs = q;
                cap = c;
            }
            refs[n++] = r;
        }
    }
    if (st == VSG_OK) qsort(refs, n, sizeof *refs, top_cmp);
    for (size_t i = 0; st == VSG_OK && i < n && i < (size_t)top; i++) {
        FILE *f = in[refs[i].k];
        if (!refs[i].written) continue; /* its rank number stays unused, as with one rank */
        if (fseek(f, refs[i].at, SEEK_SET) != 0 || !copy_bytes(f, out, refs[i].before, NULL) ||
            fprintf(out, "%zu", i + 1) < 0 || !copy_bytes(f, out, refs[i].after, NULL))
            st = vsg_fail(VSG_E_FORMAT, "rank %d's part of %s ends inside a record", refs[i].k, path);
    }
    for (int k = 0; in && k < vsg_mpi_size(); k++)
        if (in[k]) fclose(in[k]);
    free(in);
    free(refs);
    return st;
}

/* Rank 0: one output from the ranks' parts; '-' (CSV only) is standard output. */
static vsg_status merge_output(const char *path, part_kind kind, long top, size_t total)
{
    FILE *out = strcmp(path, "-") ? vsg_fopen_out(path, "w") : stdout; /* .gz: gzipped */
    if (!out) return vsg_fail(VSG_E_IO, "cannot write %s: %s", path, strerror(errno));
    vsg_status st = top > 0 ? merge_top(path, top, out) : merge_parts(path, kind, out, total);
    if (out != stdout && fclose(out) != 0 && st == VSG_OK) st = vsg_fail(VSG_E_IO, "cannot write %s", path);
    if (out == stdout && fflush(out) != 0 && st == VSG_OK) st = vsg_fail(VSG_E_IO, "cannot write the CSV");
    return st;
}

/* The report's counts summed over the ranks (each counted only its own batches' rows, except
 * `records`, which every rank counts in full); busy times summed, wall time the longest. */
static void reduce_report(vsg_screen_report *rep)
{
    uint64_t v[8] = {rep->scored, rep->failed, rep->outside, rep->atoms, rep->poses, rep->poses_scored,
                     rep->poses_checked, rep->poses_valid}, s[8];
    MPI_Allreduce(v, s, 8, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    rep->scored = (size_t)s[0];
    rep->failed = (size_t)s[1];
    rep->outside = (size_t)s[2];
    rep->atoms = s[3];
    rep->poses = s[4];
    rep->poses_scored = s[5];
    rep->poses_checked = s[6], rep->poses_valid = s[7];
    double b[4] = {rep->parse_s, rep->transfer_s, rep->score_s, rep->write_s}, bs[4];
    MPI_Allreduce(b, bs, 4, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    rep->parse_s = bs[0], rep->transfer_s = bs[1], rep->score_s = bs[2], rep->write_s = bs[3];
    double w = rep->seconds;
    MPI_Allreduce(&w, &rep->seconds, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    /* failure codes: every rank's table, merged in rank order */
    typedef struct { char code[16][16]; uint64_t count[16]; uint64_t n; } codes;
    codes mine, *all = malloc((size_t)vsg_mpi_size() * sizeof *all);
    memset(&mine, 0, sizeof mine);
    for (size_t i = 0; i < rep->by_code_n && i < 16; i++) {
        memcpy(mine.code[i], rep->by_code[i], sizeof mine.code[i]);
        mine.count[i] = rep->by_code_count[i];
    }
    mine.n = rep->by_code_n;
    if (!all) return;
    MPI_Allgather(&mine, (int)sizeof mine, MPI_BYTE, all, (int)sizeof mine, MPI_BYTE, MPI_COMM_WORLD);
    rep->by_code_n = 0;
    for (int k = 0; k < vsg_mpi_size(); k++)
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

vsg_status vsg_mpi_screen_finish(vsg_status st, const char *csv, const char *sdf, long top, const char *poses,
                                 vsg_screen_report *rep)
{
#if defined(VSG_HAVE_MPI)
    if (!vsg_mpi_active() || !screen_split) return st;
    if (part_broken && st == VSG_OK) st = vsg_fail(VSG_E_IO, "screen: cannot write this rank's SDF or pose part");
    int bad = st != VSG_OK, any = 0;
    MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (any && st == VSG_OK) st = vsg_fail(VSG_E_IO, "screen: another rank failed");
    if (st == VSG_OK) reduce_report(rep);
    /* rank 0 merges (every part is closed: each rank got here after closing its own) */
    if (st == VSG_OK && vsg_mpi_rank() == 0) {
        st = merge_output(csv, PART_CSV, 0, rep->records);
        if (st == VSG_OK && sdf) st = merge_output(sdf, PART_BYTES, top, rep->records);
        if (st == VSG_OK && poses)
            st = merge_output(poses, vsg_ligand_format_of(poses) == VSG_LIG_PDBQT ? PART_PDBQT : PART_BYTES, 0,
                              rep->records);
    }
    int bad0 = st != VSG_OK;
    MPI_Bcast(&bad0, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (bad0 && st == VSG_OK) st = vsg_fail(VSG_E_IO, "screen: rank 0 could not merge the parts");
    /* the parts go once merged; kept for inspection when the merge failed or VSG_MPI_KEEP_PARTS=1 */
    char path[4200];
    const char *keep = getenv("VSG_MPI_KEEP_PARTS");
    if (!bad0 && !(keep && *keep && *keep != '0')) {
        const char *outs[3] = {csv, sdf, poses};
        for (int i = 0; i < 3; i++)
            if (outs[i]) {
                part_name(outs[i], vsg_mpi_rank(), path, sizeof path);
                remove(path);
            }
    }
    screen_split = 0;
    return st;
#else
    (void)csv;
    (void)sdf;
    (void)top;
    (void)poses;
    (void)rep;
    return st;
#endif
}
