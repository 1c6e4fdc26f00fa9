/* test_screen_merge.c — vsg_screen_merge and the gzip streams under it (vsgrid.h, "shards of a
 * campaign and their merge"), on synthetic screens whose rows hold what RFC 4180 quoting must
 * carry (commas, quotes and line breaks in names and messages), many repeated names and ties:
 *   - gz_file.c: the same text written whole, in random pieces with random fflush, or unbuffered
 *     gives the same .gz bytes (gzip magic, time 0); read back equal; several members read as
 *     one; a cut stream is an error (ferror), not an end; "a" adds a member; a full disk makes
 *     fclose fail; bad modes and missing files set errno;
 *   - a full CSV cut into 3-6 parts (one part of two ranges apart, some parts gzipped), given in
 *     shuffled order: the merge is the full CSV byte for byte, plain and .gz (the .gz the same
 *     bytes whatever the parts' order and compression); best_per_molecule equals the single
 *     run's rule computed here; top K equals sorting the scored rows on (score, index); top K by
 *     name equals the best K names of the per-molecule table with their records counts (K small
 *     against many names, so names are evicted and come back), over many random screens;
 *   - poses: PDBQT as the flexible screen writes them ("MODEL n", REMARK VINA RESULT, REMARK
 *     VSGRID RECORD), renumbered over the merged file; PDBQT as the rigid screen writes them
 *     ("MODEL %8ld", no record index); SDF with vsgrid_record; poses_top = the best records by
 *     their first pose's score, best first; shards that kept their own best K (poses_select top K);
 *   - refusals, each naming the part: a missing shard, a doubled one, another fingerprint, another
 *     records_total, rows that are not the ranges', a truncated CSV (rows missing; a cut row), an
 *     unfinished shard (PATH.partial, no PATH.done: given, or beside the others), another header,
 *     a malformed marker, a cut pose file, poses outside the ranges, an output that is an input;
 *     nothing is left behind by a failed merge; allow_partial merges the rest and counts the
 *     missing records. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "grids/base/vsgrid.h"
#include "testkit.h"

static char dir[] = "/tmp/vsg_merge_XXXXXX";

/* dir/name, kept until the end (the parts' lists hold them). */
static char *paths[4096];
static int npaths;

static char *path_of(const char *name)
{
    char *p = malloc(strlen(dir) + strlen(name) + 2);
    sprintf(p, "%s/%s", dir, name);
    if (npaths < 4096) paths[npaths++] = p; /* else a leak in a test, never reached */
    return p;
}

static void write_file(const char *path, const char *b, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f) {
        perror(path);
        exit(1);
    }
    fwrite(b, 1, n, f);
    fclose(f);
}

/* A whole file through vsg_fopen_in (plain or gzip); NULL when it cannot be read. */
static char *read_all(const char *path, size_t *len, int *error)
{
    *len = 0;
    FILE *f = vsg_fopen_in(path);
    if (!f) return NULL;
    size_t cap = 1 << 16, n = 0;
    char *b = malloc(cap + 1);
    size_t got;
    while ((got = fread(b + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) b = realloc(b, (cap *= 2) + 1);
    }
    if (error) *error = ferror(f);
    fclose(f);
    b[n] = '\0';
    *len = n;
    return b;
}

/* The raw bytes of a file. */
static char *raw(const char *path, size_t *len)
{
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)n + 1);
    *len = fread(b, 1, (size_t)n, f);
    b[*len] = '\0';
    fclose(f);
    return b;
}

static int file_is(const char *path, const char *want, size_t n)
{
    size_t len;
    char *b = read_all(path, &len, NULL);
    const int same = b && len == n && !memcmp(b, want, n);
    if (b && !same) {
        size_t i = 0;
        while (i < len && i < n && b[i] == want[i]) i++;
        fprintf(stderr, "%s: %zu bytes, expected %zu; first difference at byte %zu: got '%.60s' want '%.60s'\n", path,
                len, n, i, b + i, want + (i < n ? i : n));
    }
    free(b);
    return same;
}

static int exists(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0;
}

/* ---- gzip streams -------------------------------------------------------------------------- */

static void test_gz(void)
{
    const size_t n = 1500000;
    char *text = malloc(n + 1);
    for (size_t i = 0; i < n; i++) text[i] = i % 73 == 72 ? '\n' : (char)('0' + (int)(urand() * 10));
    text[n - 1] = '\n';
    text[n] = '\0';
    const char *a = path_of("a.csv.gz"), *b = path_of("b.csv.gz"), *c = path_of("c.csv.gz");
    FILE *f = vsg_fopen_out(a, "w");
    CHECK(f != NULL);
    if (!f) return;
    CHECK(fwrite(text, 1, n, f) == n);
    CHECK(fclose(f) == 0);
    f = vsg_fopen_out(b, "wb"); /* random pieces, fputc / fprintf / fwrite, random flushes */
    for (size_t i = 0; f && i < n;) {
        size_t k = 1 + (size_t)(urand() * 9000);
        if (k > n - i) k = n - i;
        const double u = urand();
        if (u < 0.2) fputc(text[i], f), k = 1;
        else if (u < 0.5) fprintf(f, "%.*s", (int)k, text + i);
        else fwrite(text + i, 1, k, f);
        if (urand() < 0.1) fflush(f);
        i += k;
    }
    CHECK(f && fclose(f) == 0);
    f = vsg_fopen_out(c, "w"); /* unbuffered: every call reaches the compressor as it is */
    if (f) setvbuf(f, NULL, _IONBF, 0);
    for (size_t i = 0; f && i < n;) {
        size_t k = 1 + (size_t)(urand() * 300);
        if (k > n - i) k = n - i;
        fwrite(text + i, 1, k, f);
        i += k;
    }
    CHECK(f && fclose(f) == 0);
    size_t la, lb, lc;
    char *ra = raw(a, &la), *rb = raw(b, &lb), *rc = raw(c, &lc);
    CHECK(ra && rb && rc);
    if (ra && rb && rc) {
        CHECK(la == lb && !memcmp(ra, rb, la));
        CHECK(la == lc && !memcmp(ra, rc, la));
        CHECK(la > 18 && la < n / 2); /* compressed */
        CHECK((unsigned char)ra[0] == 0x1f && (unsigned char)ra[1] == 0x8b && ra[2] == 8);
        CHECK(!ra[4] && !ra[5] && !ra[6] && !ra[7]); /* time 0 */
    }
    CHECK(file_is(a, text, n));
    /* getline over the stream, as the merge reads it */
    f = vsg_fopen_in(a);
    char *line = NULL;
    size_t cap = 0, lines = 0, bytes = 0;
    ssize_t got;
    while (f && (got = getline(&line, &cap, f)) > 0) lines++, bytes += (size_t)got;
    CHECK(f && !ferror(f));
    CHECK(bytes == n && lines == n / 73 + (n % 73 != 0));
    if (f) fclose(f);
    free(line);
    /* two members, one stream */
    f = vsg_fopen_out(path_of("tail.gz"), "w");
    fputs("tail\n", f);
    CHECK(fclose(f) == 0);
    size_t lt;
    char *rt = raw(path_of("tail.gz"), &lt);
    char *both = malloc(la + lt);
    memcpy(both, ra, la);
    memcpy(both + la, rt, lt);
    write_file(path_of("two.gz"), both, la + lt);
    char *want = malloc(n + 6);
    memcpy(want, text, n);
    memcpy(want + n, "tail\n", 5);
    CHECK(file_is(path_of("two.gz"), want, n + 5));
    /* "a" appends a member */
    f = vsg_fopen_out(a, "a");
    CHECK(f != NULL);
    if (f) {
        fputs("tail\n", f);
        CHECK(fclose(f) == 0);
    }
    CHECK(file_is(a, want, n + 5));
    /* a cut stream: an error, not an end */
    write_file(path_of("cut.gz"), ra, la / 2);
    int err = 0;
    size_t lcut;
    free(read_all(path_of("cut.gz"), &lcut, &err));
    CHECK(err);
    CHECK(lcut < n);
    /* plain files stay plain */
    f = vsg_fopen_out(path_of("plain.csv"), "w");
    fputs("x,y\n", f);
    CHECK(fclose(f) == 0);
    size_t lp;
    char *rp = raw(path_of("plain.csv"), &lp);
    CHECK(rp && lp == 4 && !memcmp(rp, "x,y\n", 4));
    free(rp);
    /* errors */
    errno = 0;
    CHECK(vsg_fopen_out(path_of("m.gz"), "r") == NULL && errno == EINVAL);
    errno = 0;
    CHECK(vsg_fopen_in(path_of("none.csv.gz")) == NULL && errno == ENOENT);
    CHECK(vsg_fopen_in(path_of("none.csv")) == NULL);
    CHECK(vsg_fopen_out(path_of("no/such/dir.csv.gz"), "w") == NULL);
    if (exists("/dev/full") && symlink("/dev/full", path_of("full.gz")) == 0) {
        f = vsg_fopen_out(path_of("full.gz"), "w");
        CHECK(f != NULL);
        if (f) {
            fwrite(text, 1, n, f);
            errno = 0;
            CHECK(fclose(f) == EOF);
            CHECK(errno == ENOSPC);
        }
    } else {
        printf("SKIPPED-PART: gzip write error on a full disk (no /dev/full)\n");
    }
    free(ra), free(rb), free(rc), free(rt), free(both), free(want), free(text);
}

/* ---- a synthetic screen ------------------------------------------------------------------- */

#define MAXROWS 4000

typedef struct {
    char *text;   /* the row, with its newline */
    char name[64];
    double score;
    int scored;
    int nposes;   /* poses written for it (scored rows only) */
    double pose_score[3];
} row;

static const char HEADER[] =
    "index,name,source,record,atoms,score_kcal_mol,elec_kcal_mol,atoms_outside,status,message\n";
static row rows[MAXROWS];
static size_t nrows;
static char *full;
static size_t full_len;

static const char *const NAMES[] = {
    "plain", "a,b", "q\"uote", "multi\nline", "c",  "d e", "\"x\"", "f,\"g\"\nh", "i",  "j",  "k",  "l",  "m",  "n",
    "o",     "p",   "r",       "s",           "t",  "u",   "v",     "w",          "y",  "z",  "zz", "aa", "bb", "cc",
    "dd",    "ee",  "ff",      "gg",          "hh", "ii",  "jj",    "kk",         "ll", "mm", "nn", "oo"};

static void make_screen(size_t n, int nnames)
{
    for (size_t i = 0; i < nrows; i++) free(rows[i].text);
    nrows = n;
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    fputs(HEADER, m);
    for (size_t i = 0; i < n; i++) {
        row *r = &rows[i];
        snprintf(r->name, sizeof r->name, "%s", NAMES[(size_t)(urand() * nnames)]);
        const double u = urand();
        r->scored = u < 0.8;
        r->score = -(double)(int)(urand() * 40) / 10.0; /* one decimal: many ties */
        char *t = NULL;
        size_t tl = 0;
        FILE *rf = open_memstream(&t, &tl);
        fprintf(rf, "%zu,", i);
        vsg_csv_field(rf, r->name);
        fputs(",", rf);
        vsg_csv_field(rf, urand() < 0.5 ? "lib,1.sdf" : "lib2.sdf");
        fprintf(rf, ",%zu,%d,", i + 1, 20 + (int)(urand() * 30));
        if (r->scored) {
            fprintf(rf, "%.4f,%.4f,", r->score, r->score);
            if (u < 0.7) fputs("0,ok,\n", rf);
            else fputs("3,outside,\"3 of 40 atoms outside the grid (they contribute 0)\"\n", rf);
        } else {
            fputs(",,,untyped,", rf);
            vsg_csv_field(rf, "atom 2: no map for \"Xx\",\nsee --help");
            fputc('\n', rf);
        }
        fclose(rf);
        r->text = t;
        fputs(t, m);
        r->nposes = r->scored ? 1 + (int)(urand() * 3) : 0;
        for (int k = 0; k < r->nposes; k++) r->pose_score[k] = r->score + 0.01 * k + (k ? urand() : 0);
    }
    fclose(m);
    free(full);
    full = buf, full_len = len;
}

/* Pose styles: 0 flexible PDBQT, 1 rigid PDBQT (MODEL %8ld, no index), 2 SDF. */
static void write_pose(FILE *f, int style, size_t i, int k, long model)
{
    const row *r = &rows[i];
    if (style == 0) {
        fprintf(f, "MODEL %ld\nREMARK VINA RESULT: %9.3f %10.3f %10.3f\nREMARK VSGRID RECORD: %zu %s\n", model,
                r->pose_score[k], k * 1.0, k * 1.0, i, r->name);
        fprintf(f, "ROOT\nATOM      1  C   LIG L   1      %6.3f   1.000   2.000  1.00  0.00     0.000 C \nENDROOT\n"
                   "TORSDOF 0\nENDMDL\n",
                (double)i + k);
    } else if (style == 1) {
        fprintf(f, "MODEL %8ld\nREMARK  Name = %s\nREMARK  vsgrid score_kcal_mol = %.4f\n", model, r->name,
                r->pose_score[k]);
        if (r->nposes > 1) fprintf(f, "REMARK  vsgrid pose_rank = %d\n", k + 1);
        fprintf(f, "ROOT\nATOM      1  C   LIG L   1      %6.3f   1.000   2.000  1.00  0.00     0.000 C \nENDROOT\n"
                   "TORSDOF 0\nENDMDL\n",
                (double)i + k);
    } else {
        fprintf(f, "%s\n  vsgrid          3D\nrecord %zu\n  1  0  0  0  0  0  0  0  0  0999 V2000\n"
                   "    %6.3f    1.0000    2.0000 C   0  0  0  0  0  0  0  0  0  0  0  0\nM  END\n",
                "mol", i, (double)i + k);
        fprintf(f, "> <vsgrid_score_kcal_mol>\n%.4f\n\n> <vsgrid_pose>\n%d\n\n> <vsgrid_record>\n%zu\n\n$$$$\n",
                r->pose_score[k], k + 1, i);
    }
}

/* The poses of records [a, b) (for the full run: [0, n)), numbered from 1. */
static void write_poses(const char *path, int style, const size_t (*rg)[2], int nr)
{
    FILE *f = vsg_fopen_out(path, "w");
    long model = 0;
    for (int q = 0; q < nr; q++)
        for (size_t i = rg[q][0]; i < rg[q][1]; i++)
            for (int k = 0; k < rows[i].nposes; k++) write_pose(f, style, i, k, ++model);
    fclose(f);
}

static const char *const POSE_EXT[] = {".pdbqt", ".pdbqt", ".sdf"};

/* A shard part: its CSV (rows of the ranges), marker and (style >= 0) poses. ranges: [a, b) pairs. */
static void make_part(const char *name, const size_t (*rg)[2], int nr, const char *fp, size_t total, int style,
                      const char *select)
{
    FILE *f = vsg_fopen_out(path_of(name), "w");
    fputs(HEADER, f);
    size_t count = 0;
    for (int q = 0; q < nr; q++)
        for (size_t i = rg[q][0]; i < rg[q][1]; i++) fputs(rows[i].text, f), count++;
    fclose(f);
    char pn[200] = "-";
    if (style >= 0) {
        snprintf(pn, sizeof pn, "%s.poses%s", name, POSE_EXT[style]);
        write_poses(path_of(pn), style, rg, nr);
    }
    char marker[300];
    snprintf(marker, sizeof marker, "%s.done", name);
    f = fopen(path_of(marker), "w");
    fprintf(f, "vsgrid-shard 1\nfingerprint %s\nrecords_total %zu\n", fp, total);
    for (int q = 0; q < nr; q++) fprintf(f, "range %zu %zu\n", rg[q][0], rg[q][1] - rg[q][0]);
    fprintf(f, "rows %zu\ncsv %s\nposes %s\nposes_select %s\n", count, name, pn, select ? select : "all");
    fclose(f);
}

/* The full run's files and a cut into parts: part k holds [cut[k], cut[k+1]); part 1 also takes
 * part 3's range when there are 5 or more (a part of two ranges apart), unless its poses carry no
 * record index (style 1: they could not be placed). Returns the part count. */
static int cut_screen(char names[][64], const char *fp, int style, int gz_some)
{
    int np = 3 + (int)(urand() * 4);
    size_t cut[8];
    cut[0] = 0, cut[np] = nrows;
    for (int k = 1; k < np; k++)
        cut[k] = cut[k - 1] + 1 + (size_t)(urand() * (double)(nrows - cut[k - 1] - (size_t)(np - k)) / 2);
    for (int k = 1; k < np; k++)
        if (cut[k] >= cut[np] - (size_t)(np - k)) cut[k] = cut[np] - (size_t)(np - k);
    int out = 0;
    const int apart = np >= 5 && style != 1;
    for (int k = 0; k < np; k++) {
        if (apart && k == 3) continue; /* it went to part 1 */
        size_t rg[2][2] = {{cut[k], cut[k + 1]}, {0, 0}};
        int nr = 1;
        if (apart && k == 1) rg[1][0] = cut[3], rg[1][1] = cut[4], nr = 2;
        snprintf(names[out], 64, "part%d.csv%s", k, gz_some && urand() < 0.5 ? ".gz" : "");
        make_part(names[out], (const size_t(*)[2])rg, nr, fp, nrows, style, NULL);
        out++;
    }
    return out;
}

static void shuffle(const char **v, int n)
{
    for (int i = n - 1; i > 0; i--) {
        int j = (int)(urand() * (i + 1));
        const char *t = v[i];
        v[i] = v[j], v[j] = t;
    }
}

/* ---- what the single run writes, computed here -------------------------------------------- */

static int better(size_t a, size_t b) /* row a ranks before row b */
{
    return rows[a].score < rows[b].score || (rows[a].score == rows[b].score && a < b);
}

static char *expect_best_per_molecule(size_t *len)
{
    char *buf = NULL;
    FILE *m = open_memstream(&buf, len);
    fprintf(m, "%.*s,records\n", (int)strlen(HEADER) - 1, HEADER);
    for (size_t i = 0; i < nrows; i++) {
        size_t first = i;
        for (size_t j = 0; j < i; j++)
            if (!strcmp(rows[j].name, rows[i].name)) first = j, j = i;
        if (first != i) continue;
        size_t best = i, count = 0;
        for (size_t j = i; j < nrows; j++) {
            if (strcmp(rows[j].name, rows[i].name)) continue;
            count++;
            if (rows[j].scored && (!rows[best].scored || rows[j].score < rows[best].score)) best = j;
        }
        fprintf(m, "%.*s,%zu\n", (int)strlen(rows[best].text) - 1, rows[best].text, count);
    }
    fclose(m);
    return buf;
}

static char *expect_top(long k, int by_name, size_t *len)
{
    size_t *pick = malloc(sizeof *pick * nrows), np = 0;
    for (size_t i = 0; i < nrows; i++) {
        if (!rows[i].scored) continue;
        if (by_name) { /* the name's best scored row only */
            int best = 1;
            for (size_t j = 0; j < nrows && best; j++)
                if (j != i && rows[j].scored && !strcmp(rows[j].name, rows[i].name) && better(j, i)) best = 0;
            if (!best) continue;
        }
        pick[np++] = i;
    }
    for (size_t a = 1; a < np; a++) /* insertion sort on (score, index) */
        for (size_t b = a; b > 0 && better(pick[b], pick[b - 1]); b--) {
            size_t t = pick[b];
            pick[b] = pick[b - 1], pick[b - 1] = t;
        }
    char *buf = NULL;
    FILE *m = open_memstream(&buf, len);
    if (by_name) fprintf(m, "%.*s,records\n", (int)strlen(HEADER) - 1, HEADER);
    else fputs(HEADER, m);
    for (size_t q = 0; q < np && (long)q < k; q++) {
        const size_t i = pick[q];
        if (!by_name) {
            fputs(rows[i].text, m);
            continue;
        }
        size_t count = 0;
        for (size_t j = 0; j < nrows; j++) count += !strcmp(rows[j].name, rows[i].name);
        fprintf(m, "%.*s,%zu\n", (int)strlen(rows[i].text) - 1, rows[i].text, count);
    }
    fclose(m);
    free(pick);
    return buf;
}

/* The best k records' poses by their first pose's score (ties: lower index), best first. */
static char *expect_poses_top(int style, long k, size_t *len)
{
    size_t *pick = malloc(sizeof *pick * nrows), np = 0;
    for (size_t i = 0; i < nrows; i++)
        if (rows[i].nposes) pick[np++] = i;
    for (size_t a = 1; a < np; a++)
        for (size_t b = a; b > 0; b--) {
            const size_t x = pick[b], y = pick[b - 1];
            if (!(rows[x].pose_score[0] < rows[y].pose_score[0] ||
                  (rows[x].pose_score[0] == rows[y].pose_score[0] && x < y)))
                break;
            pick[b] = y, pick[b - 1] = x;
        }
    char *buf = NULL;
    FILE *m = open_memstream(&buf, len);
    long model = 0;
    for (size_t q = 0; q < np && (long)q < k; q++)
        for (int p = 0; p < rows[pick[q]].nposes; p++) write_pose(m, style, pick[q], p, ++model);
    fclose(m);
    free(pick);
    return buf;
}

static vsg_status merge(const char **parts, int n, const char *csv, const char *poses, int bpm, long top,
                        const char *top_csv, long poses_top, int partial, vsg_merge_report *rep)
{
    vsg_merge_options o;
    memset(&o, 0, sizeof o);
    o.parts = parts, o.nparts = n, o.csv = csv, o.poses = poses, o.best_per_molecule = bpm, o.top = top;
    o.top_csv = top_csv, o.poses_top = poses_top, o.allow_partial = partial;
    vsg_clear_error();
    return vsg_screen_merge(&o, rep);
}

/* ---- the merges ------------------------------------------------------------------------------ */

static void test_merge_equals_single_run(int rounds)
{
    for (int round = 0; round < rounds; round++) {
        make_screen(50 + (size_t)(urand() * 400), 4 + (int)(urand() * 36));
        char names[8][64];
        const int np = cut_screen(names, "9f3a", round % 3, 1);
        const char *parts[8];
        for (int k = 0; k < np; k++) parts[k] = path_of(names[k]);
        shuffle(parts, np);
        vsg_merge_report rep;
        const long k_top = 1 + (long)(urand() * 6);
        const long k_poses = 1 + (long)(urand() * 5);
        char pose_out[64];
        snprintf(pose_out, sizeof pose_out, "out%s", POSE_EXT[round % 3]);
        CHECK_STATUS(merge(parts, np, path_of("out.csv"), path_of(pose_out), 0, k_top, path_of("top.csv"), 0, 0, &rep),
                     VSG_OK);
        CHECK(file_is(path_of("out.csv"), full, full_len));
        CHECK(rep.rows == nrows && rep.records_total == nrows && rep.parts == (size_t)np && rep.missing == 0);
        size_t lp, lt;
        const size_t all[1][2] = {{0, nrows}};
        write_poses(path_of("full_poses"), round % 3, all, 1);
        char *want_poses = raw(path_of("full_poses"), &lp);
        CHECK(file_is(path_of(pose_out), want_poses, lp));
        size_t nposes = 0;
        for (size_t i = 0; i < nrows; i++) nposes += (size_t)rows[i].nposes;
        CHECK(rep.poses == nposes);
        char *want_top = expect_top(k_top, 0, &lt);
        CHECK(file_is(path_of("top.csv"), want_top, lt));
        free(want_top), free(want_poses);
        /* best per molecule, and the best names */
        const long k_names = 1 + (long)(urand() * 4);
        CHECK_STATUS(merge(parts, np, path_of("best.csv"), NULL, 1, k_names, path_of("topn.csv"), 0, 0, &rep), VSG_OK);
        size_t lb;
        char *want_best = expect_best_per_molecule(&lb);
        CHECK(file_is(path_of("best.csv"), want_best, lb));
        want_top = expect_top(k_names, 1, &lt);
        CHECK(file_is(path_of("topn.csv"), want_top, lt));
        free(want_best), free(want_top);
        /* the best names without the per-molecule CSV (no table: heap and second pass only) */
        CHECK_STATUS(merge(parts, np, NULL, NULL, 1, k_names, path_of("topn2.csv"), 0, 0, &rep), VSG_OK);
        want_top = expect_top(k_names, 1, &lt);
        CHECK(file_is(path_of("topn2.csv"), want_top, lt));
        free(want_top);
        /* the best records' poses */
        CHECK_STATUS(merge(parts, np, NULL, path_of(pose_out), 0, 0, NULL, k_poses, 0, &rep), VSG_OK);
        char *want_pt = expect_poses_top(round % 3, k_poses, &lt);
        CHECK(file_is(path_of(pose_out), want_pt, lt));
        free(want_pt);
        /* gzip out: the same text; the same bytes whatever the parts' order */
        CHECK_STATUS(merge(parts, np, path_of("out.csv.gz"), NULL, 0, 0, NULL, 0, 0, &rep), VSG_OK);
        CHECK(file_is(path_of("out.csv.gz"), full, full_len));
        size_t l1, l2;
        char *g1 = raw(path_of("out.csv.gz"), &l1);
        shuffle(parts, np);
        CHECK_STATUS(merge(parts, np, path_of("out.csv.gz"), NULL, 0, 0, NULL, 0, 0, &rep), VSG_OK);
        char *g2 = raw(path_of("out.csv.gz"), &l2);
        CHECK(g1 && g2 && l1 == l2 && !memcmp(g1, g2, l1));
        free(g1), free(g2);
        CHECK(!exists(path_of("out.csv.merging")) && !exists(path_of("out.csv.gz.merging.gz")));
        if (check_failures) {
            fprintf(stderr, "round %d: %zu rows, %d parts, top %ld, names %ld, poses %ld\n", round, nrows, np, k_top,
                    k_names, k_poses);
            return;
        }
    }
}

/* Shards that kept their own best K poses (poses_select top K, best first in each). */
static void test_poses_select_top(void)
{
    make_screen(300, 20);
    const long K = 4;
    const size_t rg[3][2] = {{0, 100}, {100, 220}, {220, 300}};
    const char *parts[3];
    for (int k = 0; k < 3; k++) {
        char name[32], pn[64], sel[32];
        snprintf(name, sizeof name, "top%d.csv", k);
        snprintf(pn, sizeof pn, "%s.poses.pdbqt", name);
        snprintf(sel, sizeof sel, "top %ld", K);
        make_part(name, &rg[k], 1, "77", 300, -1, sel);
        /* its own best K, best first, as a shard with --poses-top K writes them */
        row saved[300];
        memcpy(saved, rows, sizeof saved);
        for (size_t i = 0; i < 300; i++)
            if (i < rg[k][0] || i >= rg[k][1]) rows[i].nposes = 0;
        size_t lp;
        char *t = expect_poses_top(0, K, &lp);
        memcpy(rows, saved, sizeof saved);
        write_file(path_of(pn), t, lp);
        free(t);
        char marker[64];
        snprintf(marker, sizeof marker, "%s.done", name);
        size_t lm;
        char *mk = raw(path_of(marker), &lm);
        char *at = strstr(mk, "poses -");
        char fixed[1024];
        snprintf(fixed, sizeof fixed, "%.*sposes %s%s", (int)(at - mk), mk, pn, at + 7);
        write_file(path_of(marker), fixed, strlen(fixed));
        free(mk);
        parts[k] = path_of(name);
    }
    vsg_merge_report rep;
    size_t lt;
    char *want = expect_poses_top(0, K, &lt);
    CHECK_STATUS(merge(parts, 3, NULL, path_of("pt.pdbqt"), 0, 0, NULL, 0, 0, &rep), VSG_OK); /* K by default */
    CHECK(file_is(path_of("pt.pdbqt"), want, lt));
    free(want);
    want = expect_poses_top(0, 2, &lt);
    CHECK_STATUS(merge(parts, 3, NULL, path_of("pt.pdbqt"), 0, 0, NULL, 2, 0, &rep), VSG_OK);
    CHECK(file_is(path_of("pt.pdbqt"), want, lt));
    free(want);
    CHECK_STATUS(merge(parts, 3, NULL, path_of("pt.pdbqt"), 0, 0, NULL, K + 1, 0, &rep), VSG_E_ARG);
}

static void replace_in_file(const char *path, const char *from, const char *to)
{
    size_t n;
    char *b = raw(path, &n);
    char *at = b ? strstr(b, from) : NULL;
    CHECK(at != NULL);
    if (!at) return;
    FILE *f = fopen(path, "wb");
    fprintf(f, "%.*s%s%s", (int)(at - b), b, to, at + strlen(from));
    fclose(f);
    free(b);
}

static void test_refusals(void)
{
    make_screen(200, 10);
    const size_t rg[4][2] = {{0, 50}, {50, 120}, {120, 121}, {121, 200}};
    char names[4][32];
    const char *parts[5];
    for (int k = 0; k < 4; k++) {
        snprintf(names[k], sizeof names[k], "r%d.csv", k);
        make_part(names[k], &rg[k], 1, "abc123", 200, 0, NULL);
        parts[k] = path_of(names[k]);
    }
    vsg_merge_report rep;
    const char *out = path_of("r_out.csv"), *poses = path_of("r_out.pdbqt");
    unlink(out);
    CHECK_STATUS(merge(parts, 4, out, poses, 0, 0, NULL, 0, 0, &rep), VSG_OK);
    CHECK(file_is(out, full, full_len));
    unlink(out);
    /* a missing shard */
    const char *three[3] = {parts[0], parts[2], parts[3]};
    CHECK_STATUS(merge(three, 3, out, NULL, 0, 0, NULL, 0, 0, &rep), VSG_E_DATA);
    CHECK_CONTAINS(vsg_last_error(), "records 50 to 119 (70)");
    CHECK(!exists(out));
    /* --allow-partial: the rest, and what is missing */
    CHECK_STATUS(merge(three, 3, out, NULL, 0, 0, NULL, 0, 1, &rep), VSG_OK);
    CHECK(rep.missing == 70 && rep.rows == 130 && rep.parts == 3);
    {
        char *want = NULL;
        size_t wl = 0;
        FILE *m = open_memstream(&want, &wl);
        fputs(HEADER, m);
        for (size_t i = 0; i < 200; i++)
            if (i < 50 || i >= 120) fputs(rows[i].text, m);
        fclose(m);
        CHECK(file_is(out, want, wl));
        free(want);
    }
    unlink(out);
    /* a doubled shard */
    const char *twice[5] = {parts[0], parts[1], parts[2], parts[3], parts[1]};
    CHECK_STATUS(merge(twice, 5, out, NULL, 0, 0, NULL, 0, 1, &rep), VSG_E_DATA);
    CHECK_CONTAINS(vsg_last_error(), "two shards");
    CHECK_CONTAINS(vsg_last_error(), names[1]);
    /* an overlap of two cuts */
    make_part("x.csv", (const size_t[][2]){{100, 130}}, 1, "abc123", 200, -1, NULL);
    const char *over[5] = {parts[0], parts[1], parts[2], parts[3], path_of("x.csv")};
    CHECK_STATUS(merge(over, 5, out, NULL, 0, 0, NULL, 0, 0, &rep), VSG_E_DATA);
    CHECK_CONTAINS(vsg_last_error(), "records 100 to 119");
    CHECK_CONTAINS(vsg_last_error(), "x.csv");
    /* another fingerprint, another total */
    make_part("f.csv", &rg[1], 1, "abc124", 200, -1, NULL);
    const char *fp[4] = {parts[0], path_of("f.csv"), parts[2], parts[3]};
    CHECK_STATUS(merge(fp, 4, out, NULL, 0, 0, NULL, 0, 1, &rep), VSG_E_DATA);
    CHECK_CONTAINS(vsg_last_error(), "f.csv.done");
    CHECK_CONTAINS(vsg_last_error(), "fingerprint");
    make_part("f.csv", &rg[1], 1, "abc123", 201, -1, NULL);
    CHECK_STATUS(merge(fp, 4, out, NULL, 0, 0, NULL, 0, 0, &rep), VSG_E_DATA);
    CHECK_CONTAINS(vsg_last_error(), "records_total");
    /* rows that are not the ranges': another range's rows, two rows swapped */
    make_part("f.csv", (const size_t[][2]){{51, 121}}, 1, "abc123", 200, -1, NULL);
    replace_in_file(path_of("f.csv.done"), "range 51 70", "range 50 70");
    CHECK_STATUS(merge(fp, 4, out, NULL, 0, 0, NULL, 0, 0, &rep), VSG_E_DATA);
    CHECK_CONTAINS(vsg_last_error(), "f.csv: row 1 has index 51");
    make_part("f.csv", &rg[1], 1, "abc123", 200, -1, NULL);
    {
        size_t n;
        char *b = raw(path_of("f.csv"), &n); /* the rows of 50 and 51 swapped */
        char *r50 = strstr(b, rows[50].text), *r52 = r50 + strlen(rows[50].text) + strlen(rows[51].text);
        FILE *f = fopen(path_of("f.csv"), "wb");
        fprintf(f, "%.*s%s%s%s", (int)(r50 - b), b, rows[51].text, rows[50].text, r52);
        fclose(f);
        free(b);
    }
    CHECK_STATUS(merge(fp, 4, out, NULL, 0, 0, NULL, 0, 1, &rep), VSG_E_DATA);
    CHECK_CONTAINS(vsg_last_error(), "f.csv: row 1 has index 51");
    CHECK(!exists(out) && !exists(path_of("r_out.csv.merging")));
    /* truncated: rows missing, a cut row, extra rows */
    make_part("f.csv", &rg[1], 1, "abc123", 200, -1, NULL);
    {
        size_t n;
        char *b = raw(path_of("f.csv"), &n);
        write_file(path_of("f.csv"), b, (size_t)(strstr(b, rows[100].text) - b));
        CHECK_STATUS(merge(fp, 4, out, NULL, 0, 0, NULL, 0, 0, &rep), VSG_E_DATA);
        CHECK_CONTAINS(vsg_last_error(), "f.csv: ends after 50 rows");
        CHECK_CONTAINS(vsg_last_error(), "truncated");
        write_file(path_of("f.csv"), b, n - 3);
        CHECK_STATUS(merge(fp, 4, out, NULL, 0, 0, NULL, 0, 0, &rep), VSG_E_DATA);
        CHECK_CONTAINS(vsg_last_error(), "f.csv: ends inside a row");
        char *more = malloc(n + strlen(rows[120].text) + 1);
        memcpy(more, b, n);
        strcpy(more + n, rows[120].text);
        write_file(path_of("f.csv"), more, strlen(more));
        CHECK_STATUS(merge(fp, 4, out, NULL, 0, 0, NULL, 0, 0, &rep), VSG_E_DATA);
        CHECK_CONTAINS(vsg_last_error(), "f.csv: more rows");
        free(more), free(b);
    }
    /* a gzipped part cut short: the stream's error */
    make_part("g.csv.gz", &rg[1], 1, "abc123", 200, -1, NULL);
    {
        size_t n;
        char *b = raw(path_of("g.csv.gz"), &n);
        write_file(path_of("g.csv.gz"), b, n / 2);
        free(b);
        const char *gz[4] = {parts[0], path_of("g.csv.gz"), parts[2], parts[3]};
        CHECK_STATUS(merge(gz, 4, out, NULL, 0, 0, NULL, 0, 0, &rep), VSG_E_IO);
        CHECK_CONTAINS(vsg_last_error(), "g.csv.gz");
    }
    /* another header */
    make_part("f.csv", &rg[1], 1, "abc123", 200, -1, NULL);
    replace_in_file(path_of("f.csv"), "atoms_outside", "atoms_out");
    CHECK_STATUS(merge(fp, 4, out, NULL, 0, 0, NULL, 0, 0, &rep), VSG_E_DATA);
    CHECK_CONTAINS(vsg_last_error(), "f.csv: its header differs");
    /* not a screen's CSV */
    write_file(path_of("f.csv"), "a,b\n1,2\n", 8);
    CHECK_STATUS(merge(fp, 4, out, NULL, 0, 0, NULL, 0, 0, &rep), VSG_E_FORMAT);
    /* malformed markers */
    make_part("f.csv", &rg[1], 1, "abc123", 200, -1, NULL);
    replace_in_file(path_of("f.csv.done"), "rows 70", "rows 69");
    CHECK_STATUS(merge(fp, 4, out, NULL, 0, 0, NULL, 0, 0, &rep), VSG_E_FORMAT);
    CHECK_CONTAINS(vsg_last_error(), "f.csv.done");
    make_part("f.csv", &rg[1], 1, "abc123", 200, -1, NULL);
    replace_in_file(path_of("f.csv.done"), "vsgrid-shard 1", "vsgrid-shard 2");
    CHECK_STATUS(merge(fp, 4, out, NULL, 0, 0, NULL, 0, 0, &rep), VSG_E_FORMAT);
    make_part("f.csv", &rg[1], 1, "abc123", 200, -1, NULL);
    replace_in_file(path_of("f.csv.done"), "range 50 70", "range 50 x");
    CHECK_STATUS(merge(fp, 4, out, NULL, 0, 0, NULL, 0, 0, &rep), VSG_E_FORMAT);
    CHECK_CONTAINS(vsg_last_error(), "f.csv.done:4");
    /* unfinished: given (PATH.partial, no PATH.done), or beside the others and not given */
    make_part("f.csv", &rg[1], 1, "abc123", 200, -1, NULL);
    rename(path_of("f.csv"), path_of("f.csv.partial"));
    unlink(path_of("f.csv.done"));
    CHECK_STATUS(merge(fp, 4, out, NULL, 0, 0, NULL, 0, 0, &rep), VSG_E_DATA);
    CHECK_CONTAINS(vsg_last_error(), "f.csv: unfinished shard");
    CHECK_STATUS(merge(fp, 4, out, NULL, 0, 0, NULL, 0, 1, &rep), VSG_OK);
    CHECK(rep.missing == 70 && rep.parts == 3);
    CHECK_STATUS(merge(three, 3, out, NULL, 0, 0, NULL, 0, 0, &rep), VSG_E_DATA);
    CHECK_CONTAINS(vsg_last_error(), "f.csv.partial (its rows start at 50)");
    /* a CSV without marker */
    make_part("f.csv", &rg[1], 1, "abc123", 200, -1, NULL);
    unlink(path_of("f.csv.partial"));
    unlink(path_of("f.csv.done"));
    CHECK_STATUS(merge(fp, 4, out, NULL, 0, 0, NULL, 0, 0, &rep), VSG_E_DATA);
    CHECK_CONTAINS(vsg_last_error(), "f.csv: no marker");
    /* poses: cut short, outside the ranges, missing; without record indices in a part of ranges apart */
    unlink(out), unlink(poses);
    make_part("f.csv", &rg[1], 1, "abc123", 200, 0, NULL);
    {
        size_t n;
        char *b = raw(path_of("f.csv.poses.pdbqt"), &n);
        write_file(path_of("f.csv.poses.pdbqt"), b, n - 7); /* "ENDMDL\n" gone */
        free(b);
    }
    CHECK_STATUS(merge(fp, 4, out, poses, 0, 0, NULL, 0, 0, &rep), VSG_E_DATA);
    CHECK_CONTAINS(vsg_last_error(), "f.csv.poses.pdbqt");
    CHECK_CONTAINS(vsg_last_error(), "cut short");
    CHECK(!exists(out) && !exists(poses));
    make_part("f.csv", &rg[1], 1, "abc123", 200, 0, NULL);
    {
        const size_t wide[1][2] = {{50, 121}};
        write_poses(path_of("f.csv.poses.pdbqt"), 0, wide, 1);
    }
    CHECK_STATUS(merge(fp, 4, out, poses, 0, 0, NULL, 0, 0, &rep), rows[120].nposes ? VSG_E_DATA : VSG_OK);
    make_part("f.csv", &rg[1], 1, "abc123", 200, -1, NULL);
    CHECK_STATUS(merge(fp, 4, out, poses, 0, 0, NULL, 0, 0, &rep), VSG_E_DATA);
    CHECK_CONTAINS(vsg_last_error(), "poses -");
    {
        const size_t two[2][2] = {{50, 100}, {120, 121}}, one[2][2] = {{0, 50}, {100, 120}};
        make_part("s0.csv", one, 2, "abc123", 200, 1, NULL);
        make_part("s1.csv", two, 2, "abc123", 200, 1, NULL);
        make_part("s2.csv", &rg[3], 1, "abc123", 200, 1, NULL);
        const char *apart[3] = {path_of("s0.csv"), path_of("s1.csv"), path_of("s2.csv")};
        CHECK_STATUS(merge(apart, 3, out, poses, 0, 0, NULL, 0, 0, &rep), VSG_E_FORMAT);
        CHECK_CONTAINS(vsg_last_error(), "without record indices");
        CHECK_STATUS(merge(apart, 3, out, NULL, 0, 0, NULL, 0, 0, &rep), VSG_OK); /* the CSV alone interleaves */
        CHECK(file_is(out, full, full_len));
    }
    /* arguments */
    CHECK_STATUS(merge(parts, 4, parts[2], NULL, 0, 0, NULL, 0, 0, &rep), VSG_E_ARG); /* an output that is an input */
    CHECK_STATUS(merge(parts, 4, out, path_of("p.txt"), 0, 0, NULL, 0, 0, &rep), VSG_E_ARG);
    CHECK_STATUS(merge(parts, 4, out, NULL, 0, 3, NULL, 0, 0, &rep), VSG_E_ARG);
    CHECK_STATUS(merge(parts, 0, out, NULL, 0, 0, NULL, 0, 0, &rep), VSG_E_ARG);
    CHECK_STATUS(merge(parts, 4, path_of("no/dir/out.csv"), NULL, 0, 0, NULL, 0, 0, &rep), VSG_E_IO);
    CHECK_CONTAINS(vsg_last_error(), "cannot write");
    /* a marker given instead of its CSV */
    const char *markers[4] = {path_of("r0.csv.done"), parts[1], parts[2], parts[3]};
    CHECK_STATUS(merge(markers, 4, out, NULL, 0, 0, NULL, 0, 0, &rep), VSG_OK);
    CHECK(file_is(out, full, full_len));
}

int main(void)
{
    testkit_seed();
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    test_gz();
    test_merge_equals_single_run(24);
    test_poses_select_top();
    test_refusals();
    if (!check_failures) {
        char cmd[700];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
        if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
    } else {
        fprintf(stderr, "files left in %s\n", dir);
    }
    for (size_t i = 0; i < nrows; i++) free(rows[i].text);
    for (int i = 0; i < npaths; i++) free(paths[i]);
    free(full);
    CHECK_EXIT();
}
