/* test_library_index.c — record selection and library indexes (vsgrid.h, "record selection and
 * library indexes"; ligands/readers/library_index.c, ligand_reader.c): a reader restricted to
 * ranges of records yields the very records of a full serial read, field by field (index,
 * record, line, name, status, code, message, atoms and their coordinates, bonds, kept text),
 * with and without an index (entries every 1, 3, 1024 records), for SDF, MOL2, PDBQT
 * (multi-MODEL) and PDB, plain and gzipped (one and several members), several files at once
 * with an unreadable path, a folder, an empty and a blank file among them, damaged gzip
 * streams, CRLF, a last line without newline, a plain file whose record starts with the gzip
 * magic, real libraries of ../shared/data and hundreds of randomly damaged files. The index's
 * record count equals the serial reader's on every file; a stale index is refused, and so are
 * bad arguments (unsorted or overlapping ranges, an index of another file, a reader already
 * read from). */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "check.h"
#include "grids/base/vsgrid.h"
#include "ligands/readers/ligand_reader.h"

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t rnd(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 2685821657736338717ull;
}
static size_t rnd_below(size_t n) { return n ? (size_t)(rnd() % n) : 0; }

/* ---- text buffers and files ------------------------------------------------------------------ */

typedef struct {
    char *s;
    size_t n, cap;
} buf_t;

static void put(buf_t *b, const char *s, size_t n)
{
    if (b->n + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->n + n + 1) cap *= 2;
        b->s = realloc(b->s, cap);
        if (!b->s) abort();
        b->cap = cap;
    }
    memcpy(b->s + b->n, s, n);
    b->n += n;
    b->s[b->n] = '\0';
}
static void puts_b(buf_t *b, const char *s) { put(b, s, strlen(s)); }
static void printf_b(buf_t *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void printf_b(buf_t *b, const char *fmt, ...)
{
    char tmp[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    put(b, tmp, (size_t)n);
}

static char scratch_dir[1024];
static const char *spath(const char *name)
{
    static char p[32][1200];
    static int slot;
    slot = (slot + 1) % 32;
    snprintf(p[slot], sizeof p[slot], "%s/%s", scratch_dir, name);
    return p[slot];
}

static const char *write_file(const char *name, const void *bytes, size_t n)
{
    const char *path = spath(name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(bytes, 1, n, f) != n) {
        fprintf(stderr, "cannot write %s\n", path);
        check_failures++;
    }
    if (f) fclose(f);
    return path;
}

/* gzip of bytes[0..n) in `members` members (cut at about equal sizes); returns the length. */
static size_t gzip_members(const char *bytes, size_t n, int members, unsigned char **out)
{
    size_t cap = n + n / 2 + 1024 * (size_t)(members + 1), used = 0, at = 0;
    unsigned char *o = malloc(cap);
    if (!o) abort();
    for (int m = 0; m < members; m++) {
        size_t len = m == members - 1 ? n - at : n / (size_t)members;
        z_stream z;
        memset(&z, 0, sizeof z);
        if (deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) abort();
        z.next_in = (unsigned char *)bytes + at;
        z.avail_in = (unsigned)len;
        z.next_out = o + used;
        z.avail_out = (unsigned)(cap - used);
        if (deflate(&z, Z_FINISH) != Z_STREAM_END) abort();
        used += z.total_out;
        deflateEnd(&z);
        at += len;
    }
    *out = o;
    return used;
}

static const char *write_gz(const char *name, const buf_t *b, int members, long cut, int flip_crc)
{
    unsigned char *gz;
    size_t n = gzip_members(b->s, b->n, members, &gz);
    if (flip_crc) gz[n - 8] ^= 0x5a;
    if (cut > 0 && (size_t)cut < n) n -= (size_t)cut;
    const char *p = write_file(name, gz, n);
    free(gz);
    return p;
}

/* ---- records as read ------------------------------------------------------------------------- */

typedef struct {
    size_t index;
    long record, line;
    int model, natoms, nbonds, has_charges, status, format;
    char code[16], name[128], message[256], source[256];
    uint64_t atoms_hash, text_hash;
    double x0, y0, z0;
} rec_t;

typedef struct {
    rec_t *r;
    size_t n, cap;
    size_t count, failed; /* vsg_ligand_reader_count after the read */
} recs_t;

static uint64_t hash_bytes(uint64_t h, const void *p, size_t n)
{
    const unsigned char *c = p;
    for (size_t i = 0; i < n; i++) h = (h ^ c[i]) * 0x100000001b3ull;
    return h;
}

static void snap(const vsg_ligand *lig, rec_t *o)
{
    uint64_t h = 0xcbf29ce484222325ull;
    memset(o, 0, sizeof *o);
    o->index = lig->index;
    o->record = lig->record;
    o->line = lig->line;
    o->model = lig->model;
    o->natoms = lig->natoms;
    o->nbonds = lig->nbonds;
    o->has_charges = lig->has_charges;
    o->status = (int)lig->status;
    o->format = (int)lig->format;
    snprintf(o->code, sizeof o->code, "%s", lig->code);
    snprintf(o->name, sizeof o->name, "%s", lig->name);
    snprintf(o->message, sizeof o->message, "%s", lig->message);
    snprintf(o->source, sizeof o->source, "%s", lig->source ? lig->source : "(null)");
    for (int i = 0; i < lig->natoms; i++) {
        const vsg_lig_atom *a = &lig->atoms[i];
        h = hash_bytes(h, &a->x, sizeof a->x);
        h = hash_bytes(h, &a->y, sizeof a->y);
        h = hash_bytes(h, &a->z, sizeof a->z);
        h = hash_bytes(h, &a->charge, sizeof a->charge);
        h = hash_bytes(h, &a->line, sizeof a->line);
        h = hash_bytes(h, &a->formal, sizeof a->formal);
        h = hash_bytes(h, a->name, strlen(a->name));
        h = hash_bytes(h, a->element, strlen(a->element));
        h = hash_bytes(h, a->ad_type, strlen(a->ad_type));
    }
    for (int i = 0; i < lig->nbonds; i++) h = hash_bytes(h, &lig->bonds[i], sizeof lig->bonds[i]);
    o->atoms_hash = h;
    if (lig->natoms > 0) o->x0 = lig->atoms[0].x, o->y0 = lig->atoms[0].y, o->z0 = lig->atoms[0].z;
    o->text_hash = hash_bytes(0xcbf29ce484222325ull, lig->text ? lig->text : "", lig->text ? lig->text_len : 0);
}

static void recs_push(recs_t *rs, const rec_t *r)
{
    if (rs->n == rs->cap) {
        rs->cap = rs->cap ? rs->cap * 2 : 256;
        rs->r = realloc(rs->r, rs->cap * sizeof *rs->r);
        if (!rs->r) abort();
    }
    rs->r[rs->n++] = *r;
}

static void recs_free(recs_t *rs)
{
    free(rs->r);
    memset(rs, 0, sizeof *rs);
}

/* Reads paths (all of it, or the ranges with idx) into rs; the status of open/select. */
static vsg_status read_recs(const char *const *paths, int npaths, const vsg_ligand_reader_options *opt,
                            const vsg_record_range *ranges, int nranges, int select,
                            const vsg_library_index *const *idx, recs_t *rs)
{
    vsg_ligand_reader *r = NULL;
    vsg_ligand lig;
    vsg_status st;
    rec_t one;
    memset(rs, 0, sizeof *rs);
    st = vsg_ligand_reader_open(paths, npaths, opt, &r);
    if (st != VSG_OK) return st;
    if (select && (st = vsg_ligand_reader_select(r, ranges, nranges, idx)) != VSG_OK) {
        vsg_ligand_reader_close(r);
        return st;
    }
    vsg_ligand_init(&lig);
    while (vsg_ligand_reader_next(r, &lig)) {
        snap(&lig, &one);
        recs_push(rs, &one);
    }
    rs->count = vsg_ligand_reader_count(r, &rs->failed);
    vsg_ligand_release(&lig);
    vsg_ligand_reader_close(r);
    return VSG_OK;
}

static int messages_differ(const char *a, const char *b) { return strcmp(a, b) != 0; }

static int rec_differs(const rec_t *a, const rec_t *b, char *why, size_t len)
{
#define FIELD(f, fmt)                                                                    \
    if (a->f != b->f) {                                                                  \
        snprintf(why, len, #f " " fmt " != " fmt, a->f, b->f);                           \
        return 1;                                                                        \
    }
#define SFIELD(f)                                                                        \
    if (strcmp(a->f, b->f)) {                                                            \
        snprintf(why, len, #f " '%.280s' != '%.280s'", a->f, b->f);                      \
        return 1;                                                                        \
    }
    FIELD(index, "%zu") FIELD(record, "%ld") FIELD(line, "%ld") FIELD(model, "%d") FIELD(natoms, "%d")
    FIELD(nbonds, "%d") FIELD(has_charges, "%d") FIELD(status, "%d") FIELD(format, "%d")
    SFIELD(code) SFIELD(name) SFIELD(source)
    if (messages_differ(a->message, b->message)) {
        snprintf(why, len, "message '%.280s' != '%.280s'", a->message, b->message);
        return 1;
    }
    FIELD(x0, "%.17g") FIELD(y0, "%.17g") FIELD(z0, "%.17g")
    FIELD(atoms_hash, "%016" PRIx64) FIELD(text_hash, "%016" PRIx64)
#undef FIELD
#undef SFIELD
    return 0;
}

/* The records of `all` (a full read) inside the ranges, in order, must be `got`, field by field. */
static int expect_selection(const char *what, const recs_t *all, const vsg_record_range *ranges, int nranges,
                            const recs_t *got)
{
    size_t k = 0, want = 0;
    int bad = 0;
    char why[1200];
    for (int i = 0; i < nranges; i++)
        for (size_t j = ranges[i].first; j < all->n && j - ranges[i].first < ranges[i].count; j++) {
            want++;
            if (k >= got->n) {
                if (!bad++) fprintf(stderr, "%s: record %zu missing (got %zu records)\n", what, j, got->n);
                continue;
            }
            if (rec_differs(&got->r[k], &all->r[j], why, sizeof why)) {
                if (bad++ < 3) fprintf(stderr, "%s: record %zu (#%zu of the selection): %s\n", what, j, k, why);
            }
            k++;
        }
    if (got->n != want) {
        if (!bad) fprintf(stderr, "%s: %zu records, expected %zu\n", what, got->n, want);
        bad++;
    }
    if (got->count != got->n) {
        fprintf(stderr, "%s: vsg_ligand_reader_count %zu, %zu records yielded\n", what, got->count, got->n);
        bad++;
    }
    if (bad) check_failures++;
    return bad == 0;
}

/* ---- generated libraries --------------------------------------------------------------------- */

static void sdf_record(buf_t *b, int i, const char *eol)
{
    printf_b(b, "mol_%d%s  vsgrid test%s%s", i, eol, eol, eol);
    printf_b(b, "  3  2  0  0  0  0            999 V2000%s", eol);
    printf_b(b, "%10.4f%10.4f%10.4f O   0  0  0  0  0  0%s", 0.001 * i, 0.0, 0.1173, eol);
    printf_b(b, "%10.4f%10.4f%10.4f H   0  0  0  0  0  0%s", 0.001 * i, 0.7572, -0.4692, eol);
    printf_b(b, "%10.4f%10.4f%10.4f H   0  0  0  0  0  0%s", 0.001 * i, -0.7572, -0.4692, eol);
    printf_b(b, "  1  2  1  0%s  1  3  1  0%sM  END%s> <id>%s%d%s%s$$$$%s", eol, eol, eol, eol, i, eol, eol, eol);
}

/* Damaged SDF records, one of each kind (they are records too). */
static void sdf_bad(buf_t *b, int kind)
{
    switch (kind % 5) {
    case 0: puts_b(b, "badcount\n\n\n  x  2  0  0  0  0            999 V2000\n    0.0 0.0 0.0 O\nM  END\n$$$$\n"); break;
    case 1: puts_b(b, "nan\n\n\n  1  0  0  0  0  0            999 V2000\n    0.0000       nan    0.1173 O   0  0\nM  END\n$$$$\n"); break;
    case 2: puts_b(b, "empty\n\n\n  0  0  0  0  0  0            999 V2000\nM  END\n$$$$\n"); break;
    case 3: puts_b(b, "\n$$$$\n"); break;
    case 4: puts_b(b, "short\n\n\n  4  1  0  0  0  0            999 V2000\n    0.0000    0.0000    0.0000 C   0  0\n$$$$\n"); break;
    }
}

static void sdf_library(buf_t *b, int n, const char *eol, int with_bad)
{
    for (int i = 0; i < n; i++) {
        if (with_bad && i % 97 == 13) sdf_bad(b, i / 97);
        else sdf_record(b, i, eol);
    }
}

static void mol2_record(buf_t *b, int i)
{
    printf_b(b, "@<TRIPOS>MOLECULE\nm2_%d\n 3 2 1 0 0\nSMALL\nUSER_CHARGES\n\n@<TRIPOS>ATOM\n", i);
    printf_b(b, "      1 O1      %10.4f    0.0000    0.1173 O.3       1 HOH1       -0.8340\n", 0.01 * i);
    printf_b(b, "      2 H1      %10.4f    0.7572   -0.4692 H         1 HOH1        0.4170\n", 0.01 * i);
    printf_b(b, "      3 H2      %10.4f   -0.7572   -0.4692 H         1 HOH1        0.4170\n", 0.01 * i);
    puts_b(b, "@<TRIPOS>BOND\n     1     1     2    1\n     2     1     3    1\n");
}

static void mol2_library(buf_t *b, int n)
{
    puts_b(b, "# a comment before the first molecule\n\n");
    for (int i = 0; i < n; i++) {
        if (i % 89 == 7) puts_b(b, "@<TRIPOS>MOLECULE\nnothing\n 0 0\nSMALL\nNO_CHARGES\n\n");
        else if (i % 89 == 50) puts_b(b, "@<TRIPOS>MOLECULE\nletters\n 1 0\nSMALL\nUSER_CHARGES\n\n@<TRIPOS>ATOM\n      1 C1  0.0 1.O 0.0 C.3 1 LIG 0.0\n");
        else mol2_record(b, i);
    }
}

static void pdbqt_atom(buf_t *b, int serial, double x, double y, double z, const char *rec)
{
    printf_b(b, "%-6s%5d  N   UNL     1    %8.3f%8.3f%8.3f  1.00  0.00    -0.322 N \n", rec, serial, x, y, z);
}

/* A Vina-style pose file: file-level names (COMPND, then a better REMARK Name half way), MODELs,
 * some records without MODEL that TORSDOF ends, a truncated model. */
static void pdbqt_library(buf_t *b, int n)
{
    puts_b(b, "COMPND    first_name\n");
    for (int i = 0; i < n; i++) {
        if (i == n / 2) puts_b(b, "REMARK  Name = second name\n");
        if (i % 7 == 3) { /* a single ligand, TORSDOF ends it */
            puts_b(b, "ROOT\n");
            pdbqt_atom(b, 1, 1.0 + i, 2.0, 3.0, "ATOM");
            pdbqt_atom(b, 2, 1.5 + i, 2.0, 3.0, "ATOM");
            puts_b(b, "ENDROOT\nTORSDOF 0\n");
            continue;
        }
        printf_b(b, "MODEL %d\nREMARK VINA RESULT:    -%d.1      0.000      0.000\n", i + 1, i % 9);
        puts_b(b, "ROOT\n");
        pdbqt_atom(b, 1, 0.5 * i, -1.0, 2.25, "ATOM");
        pdbqt_atom(b, 2, 0.5 * i + 1.1, -1.0, 2.25, "HETATM");
        if (i % 31 == 30) { /* a bad coordinate */
            puts_b(b, "ATOM      3  N   UNL     1      1.2x0   2.000   3.000  1.00  0.00    -0.322 N \n");
        }
        puts_b(b, "ENDROOT\nTORSDOF 0\n");
        if (i % 53 != 52) puts_b(b, "ENDMDL\n"); /* else the next MODEL comes first: a parse error */
    }
}

static void pdb_library(buf_t *b, int n)
{
    puts_b(b, "REMARK  Name = pdb lib\n");
    for (int i = 0; i < n; i++) {
        if (i % 5 == 0) printf_b(b, "MODEL %8d\n", i + 1);
        printf_b(b, "HETATM%5d  C1  LIG A   1    %8.3f%8.3f%8.3f  1.00  0.00           C\n", 1, 0.1 * i, 0.0, 0.0);
        printf_b(b, "HETATM%5d  O1  LIG A   1    %8.3f%8.3f%8.3f  1.00  0.00           O\n", 2, 0.1 * i + 1.23, 0.0, 0.0);
        if (i % 3 == 0) puts_b(b, "CONECT    1    2    2\n");
        puts_b(b, i % 5 == 0 ? "ENDMDL\n" : "END\n");
    }
}

/* ---- the checks ---------------------------------------------------------------------------- */

static vsg_library_index *build(const char *path, const vsg_ligand_reader_options *opt, long every)
{
    vsg_library_index *ix = NULL;
    vsg_status st = vsg_library_index_build(path, opt, every, &ix);
    if (st != VSG_OK) {
        fprintf(stderr, "index of %s: %s\n", path, vsg_last_error());
        check_failures++;
        return NULL;
    }
    return ix;
}

/* The index count of each file equals the serial reader's count of that file alone. */
static void check_counts(const char *what, const char *const *paths, int npaths, const vsg_ligand_reader_options *opt)
{
    size_t total = 0, counted = 0;
    for (int i = 0; i < npaths; i++) {
        recs_t one;
        const char *p[1] = {paths[i]};
        if (read_recs(p, 1, opt, NULL, 0, 0, NULL, &one) != VSG_OK) {
            fprintf(stderr, "%s: cannot read %s: %s\n", what, paths[i], vsg_last_error());
            check_failures++;
            continue;
        }
        vsg_library_index *ix = build(paths[i], opt, 7);
        if (ix && vsg_library_index_records(ix) != one.n) {
            fprintf(stderr, "%s: %s: index counts %zu records, the reader %zu\n", what, paths[i],
                    vsg_library_index_records(ix), one.n);
            check_failures++;
        }
        total += one.n;
        vsg_library_index_free(ix);
        recs_free(&one);
    }
    CHECK_STATUS(vsg_library_count(paths, npaths, opt, NULL, &counted), VSG_OK);
    if (counted != total) {
        fprintf(stderr, "%s: vsg_library_count %zu, the reader %zu\n", what, counted, total);
        check_failures++;
    }
}

/* Ranges of a library of `total` records whose files start at starts[0..nfiles). */
static int make_ranges(size_t total, const size_t *starts, int nfiles, int kind, vsg_record_range *rg)
{
    size_t mid = total / 2;
    switch (kind) {
    case 0: rg[0] = (vsg_record_range){0, total}; return 1;                 /* everything */
    case 1: rg[0] = (vsg_record_range){0, 1}; return 1;                     /* the first record */
    case 2: rg[0] = (vsg_record_range){total - 1, 1}; return 1;             /* the last */
    case 3: rg[0] = (vsg_record_range){mid, total - mid + 5}; return 1;     /* the second half, and past the end */
    case 4: rg[0] = (vsg_record_range){mid, 0}; return 1;                   /* an empty count */
    case 5: /* around every file boundary: the last 2 of a file and the first 2 of the next */
    {
        int n = 0;
        for (int i = 1; i < nfiles; i++) {
            size_t a = starts[i] >= 2 ? starts[i] - 2 : 0;
            if (n && a < rg[n - 1].first + rg[n - 1].count) a = rg[n - 1].first + rg[n - 1].count;
            rg[n++] = (vsg_record_range){a, starts[i] + 2 - a};
        }
        if (!n) rg[n++] = (vsg_record_range){mid, 3};
        return n;
    }
    case 6: /* several: a gap, adjacent ranges, an empty one between */
        if (total < 12) {
            rg[0] = (vsg_record_range){0, 1};
            rg[1] = (vsg_record_range){2, 0};
            rg[2] = (vsg_record_range){2, 1};
            rg[3] = (vsg_record_range){total > 4 ? total - 1 : 3, 4};
            return 4;
        }
        rg[0] = (vsg_record_range){1, 2};
        rg[1] = (vsg_record_range){total / 3, 4};
        rg[2] = (vsg_record_range){total / 3 + 4, 0};
        rg[3] = (vsg_record_range){total / 3 + 4, 3};
        rg[4] = (vsg_record_range){total - 2, 2};
        if (rg[1].first < 3) rg[1].first = 3;
        if (rg[2].first < rg[1].first + 4) rg[2].first = rg[3].first = rg[1].first + 4;
        if (rg[4].first < rg[3].first + 3) return 4;
        return 5;
    case 7: rg[0] = (vsg_record_range){total, 10}; return 1;                /* past the end: nothing */
    default: { /* random sorted disjoint ranges */
        int n = 0;
        size_t at = 0;
        while (n < 6 && at < total + 2) {
            at += rnd_below(total / 3 + 2);
            size_t c = rnd_below(total / 4 + 3);
            rg[n++] = (vsg_record_range){at, c};
            at += c;
        }
        return n;
    }
    }
}

/* Every range kind, without an index and with indexes every 1, 3 and 1024 records (and the
 * index written and read back), against the full read. */
static void check_selections(const char *what, const char *const *paths, int npaths,
                             const vsg_ligand_reader_options *opt, int kinds)
{
    recs_t all, got;
    size_t starts[64];
    int nstarts = 0;
    const long everies[3] = {1, 3, 1024};
    vsg_library_index *ix[3][64];
    if (read_recs(paths, npaths, opt, NULL, 0, 0, NULL, &all) != VSG_OK || all.n == 0) {
        fprintf(stderr, "%s: full read failed: %s\n", what, vsg_last_error());
        check_failures++;
        return;
    }
    for (size_t i = 0; i < all.n && nstarts < 64; i++)
        if (i == 0 || strcmp(all.r[i].source, all.r[i - 1].source) || all.r[i].record <= all.r[i - 1].record)
            starts[nstarts++] = i;
    memset(ix, 0, sizeof ix);
    for (int e = 0; e < 3; e++)
        for (int i = 0; i < npaths; i++) {
            if (!strcmp(paths[i], "-")) continue;
            ix[e][i] = build(paths[i], opt, everies[e]);
            if (e == 2 && ix[e][i]) { /* written and read back */
                char p[1200];
                vsg_library_index *back = NULL;
                snprintf(p, sizeof p, "%s/sel_%d.vsgidx", scratch_dir, i);
                CHECK_STATUS(vsg_library_index_write(ix[e][i], p), VSG_OK);
                CHECK_STATUS(vsg_library_index_read(p, paths[i], &back), VSG_OK);
                if (back) {
                    CHECK(vsg_library_index_records(back) == vsg_library_index_records(ix[e][i]));
                    CHECK(vsg_library_index_entries(back) == vsg_library_index_entries(ix[e][i]));
                    vsg_library_index_free(ix[e][i]);
                    ix[e][i] = back;
                }
            }
        }
    int checked = 0, passed = 0;
    for (int kind = 0; kind < kinds; kind++) {
        vsg_record_range rg[64];
        int nr = make_ranges(all.n, starts, nstarts, kind, rg);
        for (int e = -1; e < 3; e++) {
            char label[300];
            snprintf(label, sizeof label, "%s, ranges kind %d, %s%ld", what, kind, e < 0 ? "no index" : "index every ",
                     e < 0 ? 0 : everies[e]);
            vsg_status st = read_recs(paths, npaths, opt, rg, nr, 1, e < 0 ? NULL : (const vsg_library_index *const *)ix[e],
                                      &got);
            checked++;
            if (st != VSG_OK) {
                fprintf(stderr, "%s: %s\n", label, vsg_last_error());
                check_failures++;
                continue;
            }
            passed += expect_selection(label, &all, rg, nr, &got);
            recs_free(&got);
        }
    }
    /* shards K of N as a job array cuts them: every record exactly once */
    for (int nshards = 1; nshards <= 7; nshards += 3) {
        size_t seen = 0;
        for (int k = 0; k < nshards; k++) {
            size_t a = all.n * (size_t)k / (size_t)nshards, b = all.n * (size_t)(k + 1) / (size_t)nshards;
            vsg_record_range rg = {a, b - a};
            char label[300];
            snprintf(label, sizeof label, "%s, shard %d of %d", what, k + 1, nshards);
            if (read_recs(paths, npaths, opt, &rg, 1, 1, (const vsg_library_index *const *)ix[2], &got) == VSG_OK) {
                passed += expect_selection(label, &all, &rg, 1, &got);
                seen += got.n;
                recs_free(&got);
            }
            checked++;
        }
        CHECK(seen == all.n);
    }
    printf("  %-44s %6zu records in %d files: %d/%d selections equal the full read\n", what, all.n, nstarts, passed,
           checked);
    for (int e = 0; e < 3; e++)
        for (int i = 0; i < npaths; i++) vsg_library_index_free(ix[e][i]);
    recs_free(&all);
}

static void test_generated(void)
{
    buf_t sdf = {0}, sdf_crlf = {0}, mol2 = {0}, pdbqt = {0}, pdb = {0}, blank = {0};
    vsg_ligand_reader_options opt = {.format = VSG_LIG_AUTO, .keep_text = 0, .max_atoms = 0};
    sdf_library(&sdf, 2600, "\n", 1);
    sdf_library(&sdf_crlf, 300, "\r\n", 0);
    puts_b(&sdf_crlf, "last\r\n\r\n\r\n  1  0  0  0  0  0            999 V2000\r\n    1.0000    2.0000    3.0000 C   0  0\r\nM  END");
    mol2_library(&mol2, 2100);
    pdbqt_library(&pdbqt, 1500);
    pdb_library(&pdb, 1100);
    puts_b(&blank, "\n   \n\t\n\n");
    /* a line of 3 MiB after record 1500: the reader's line limit (1 MiB) ends the file there */
    buf_t longline = {0};
    sdf_library(&longline, 1500, "\n", 0);
    for (int i = 0; i < 3 * 1024; i++) puts_b(&longline, i ? "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
                                                        "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
                                                        "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
                                                        "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
                                                        "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
                                                        "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
                                                        "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
                                                        "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
                                                        : "long\n");
    puts_b(&longline, "\n");
    sdf_library(&longline, 100, "\n", 0);
    const char *p_sdf = write_file("gen.sdf", sdf.s, sdf.n);
    const char *p_sdf_gz = write_gz("gen3.sdf.gz", &sdf, 3, 0, 0);
    const char *p_crlf = write_file("gen_crlf.sdf", sdf_crlf.s, sdf_crlf.n);
    const char *p_mol2 = write_file("gen.mol2", mol2.s, mol2.n);
    const char *p_mol2_gz = write_gz("gen.mol2.gz", &mol2, 1, 0, 0);
    const char *p_pdbqt = write_file("gen.pdbqt", pdbqt.s, pdbqt.n);
    const char *p_pdbqt_gz = write_gz("gen.pdbqt.gz", &pdbqt, 2, 0, 0);
    const char *p_pdb = write_file("gen.pdb", pdb.s, pdb.n);
    const char *p_pdb_gz = write_gz("gen.pdb.gz", &pdb, 1, 0, 0);
    const char *p_empty = write_file("empty.sdf", "", 0);
    const char *p_blank = write_file("blank.mol2", blank.s, blank.n);
    const char *p_missing = spath("does_not_exist.sdf");
    const char *p_dir = spath("a_folder.sdf");
    remove(p_missing);
    mkdir(p_dir, 0755);
    /* damaged gzip: cut inside the stream (the last member), a bad CRC */
    const char *p_cut = write_gz("cut.mol2.gz", &mol2, 2, 3000, 0);
    const char *p_crc = write_gz("badcrc.sdf.gz", &sdf, 1, 0, 1);
    const char *p_long = write_file("longline.sdf", longline.s, longline.n);
    const char *p_long_gz = write_gz("longline.sdf.gz", &longline, 1, 0, 0);

    struct {
        const char *what;
        const char *paths[12];
        int n, kinds;
    } sets[] = {
        {"SDF", {p_sdf}, 1, 14},
        {"SDF .gz, 3 members", {p_sdf_gz}, 1, 14},
        {"SDF CRLF, last record unterminated", {p_crlf}, 1, 12},
        {"MOL2", {p_mol2}, 1, 14},
        {"MOL2 .gz", {p_mol2_gz}, 1, 12},
        {"PDBQT multi-MODEL", {p_pdbqt}, 1, 14},
        {"PDBQT .gz", {p_pdbqt_gz}, 1, 12},
        {"PDB", {p_pdb}, 1, 14},
        {"PDB .gz", {p_pdb_gz}, 1, 12},
        {"gzip cut short, bad CRC", {p_cut, p_crc}, 2, 12},
        {"a line of 3 MiB", {p_long, p_long_gz}, 2, 10},
        {"several files, unreadable ones among them",
         {p_empty, p_sdf, p_missing, p_mol2_gz, p_blank, p_dir, p_pdbqt, p_empty, p_pdb_gz, p_crlf, p_cut},
         11,
         16},
    };
    for (size_t s = 0; s < sizeof sets / sizeof sets[0]; s++) {
        check_counts(sets[s].what, sets[s].paths, sets[s].n, &opt);
        check_selections(sets[s].what, sets[s].paths, sets[s].n, &opt, sets[s].kinds);
    }
    /* keep_text: the kept text of a selected record is the full read's */
    {
        vsg_ligand_reader_options kt = {.format = VSG_LIG_AUTO, .keep_text = 1, .max_atoms = 0};
        const char *two[2] = {p_mol2_gz, p_pdbqt};
        check_selections("kept text, MOL2 .gz + PDBQT", two, 2, &kt, 10);
    }
    free(sdf.s);
    free(sdf_crlf.s);
    free(mol2.s);
    free(pdbqt.s);
    free(pdb.s);
    free(blank.s);
    free(longline.s);
}

/* A plain file whose record 1024 starts with the gzip magic (as text): read from that byte, it
 * must not be taken for a gzip stream. */
static void test_plain_magic(void)
{
    buf_t b = {0};
    for (int i = 0; i < 1030; i++) {
        if (i == 1024 || i == 1027) puts_b(&b, "\x1f\x8b\x08 not gzip\n\n\n  1  0  0  0  0  0            999 V2000\n"
                                              "    1.0000    2.0000    3.0000 C   0  0\nM  END\n$$$$\n");
        else sdf_record(&b, i, "\n");
    }
    const char *p = write_file("magic.sdf", b.s, b.n);
    const char *paths[1] = {p};
    vsg_ligand_reader_options opt = {.format = VSG_LIG_SDF, .keep_text = 0, .max_atoms = 0};
    check_counts("gzip magic inside a plain file", paths, 1, &opt);
    check_selections("gzip magic inside a plain file", paths, 1, &opt, 12);
    /* a range that starts right at the entry of record 1024 */
    {
        recs_t all, got;
        vsg_library_index *ix = build(p, &opt, 1024);
        const vsg_library_index *ixs[1] = {ix};
        vsg_record_range rg = {1024, 4};
        read_recs(paths, 1, &opt, NULL, 0, 0, NULL, &all);
        CHECK_STATUS(read_recs(paths, 1, &opt, &rg, 1, 1, ixs, &got), VSG_OK);
        expect_selection("record 1024 starts with 1f 8b", &all, &rg, 1, &got);
        CHECK(got.n == 4 && got.n && strcmp(got.r[0].code, "ok") == 0);
        recs_free(&all);
        recs_free(&got);
        vsg_library_index_free(ix);
    }
    free(b.s);
}

/* Randomly damaged files: lines deleted, doubled, swapped, boundary lines inserted, the file cut
 * at a random byte; each is read whole, counted by its index and read in random ranges. */
static void test_damaged(int nfiles)
{
    static const char *inserts[] = {"$$$$", "@<TRIPOS>MOLECULE", "MODEL 3", "ENDMDL", "END", "TORSDOF 2", "", "   ",
                                    "REMARK  Name = inserted", "COMPND    cmp", "@<TRIPOS>ATOM", "M  END",
                                    "ATOM      9  C   UNL     1       1.000   2.000   3.000  1.00  0.00     0.100 C ",
                                    "\x1f\x8b"};
    buf_t src[4] = {{0}};
    const char *ext[4] = {"sdf", "mol2", "pdbqt", "pdb"};
    int mismatched = 0, bad_sel = 0;
    sdf_library(&src[0], 40, "\n", 1);
    mol2_library(&src[1], 30);
    pdbqt_library(&src[2], 30);
    pdb_library(&src[3], 30);
    for (int f = 0; f < nfiles; f++) {
        const int fmt = f % 4;
        const buf_t *s = &src[fmt];
        /* lines of the source */
        const char *lines[4096];
        size_t lens[4096], nl = 0;
        for (const char *p = s->s; *p && nl < 4096;) {
            const char *e = strchr(p, '\n');
            lines[nl] = p;
            lens[nl++] = e ? (size_t)(e - p) : strlen(p);
            p = e ? e + 1 : p + strlen(p);
        }
        buf_t out = {0};
        for (size_t i = 0; i < nl; i++) {
            const size_t r = rnd_below(100);
            if (r < 4) continue;                                     /* deleted */
            if (r < 7) put(&out, lines[i], lens[i]), puts_b(&out, "\n"); /* doubled */
            if (r < 10) {                                            /* a boundary line before it */
                puts_b(&out, inserts[rnd_below(sizeof inserts / sizeof inserts[0])]);
                puts_b(&out, rnd_below(5) ? "\n" : "\r\n");
            }
            put(&out, lines[i], lens[i]);
            puts_b(&out, "\n");
        }
        if (rnd_below(3) == 0 && out.n > 0) out.n = rnd_below(out.n), out.s[out.n] = '\0'; /* cut */
        char name[64];
        snprintf(name, sizeof name, "damaged_%03d.%s%s", f, ext[fmt], f % 3 == 2 ? ".gz" : "");
        const char *p = f % 3 == 2 ? write_gz(name, &out, 1 + f % 2, f % 5 == 0 ? 7 : 0, 0)
                                   : write_file(name, out.s, out.n);
        const char *paths[1] = {p};
        /* the format given (sniffing could take a damaged file for another format: tested above) */
        vsg_ligand_reader_options opt = {.format = (vsg_ligand_format)(VSG_LIG_SDF + fmt), .keep_text = 0, .max_atoms = 0};
        recs_t all, got;
        if (read_recs(paths, 1, &opt, NULL, 0, 0, NULL, &all) != VSG_OK) {
            /* no format recognised: the reader refuses it, and so must the index */
            vsg_library_index *ix = NULL;
            CHECK(vsg_library_index_build(p, &opt, 3, &ix) != VSG_OK);
            vsg_library_index_free(ix);
            free(out.s);
            continue;
        }
        vsg_library_index *ix1 = build(p, &opt, 1), *ix3 = build(p, &opt, 3);
        if (!ix1 || !ix3 || vsg_library_index_records(ix1) != all.n || vsg_library_index_records(ix3) != all.n) {
            if (mismatched++ < 5)
                fprintf(stderr, "damaged file %s: index counts %zu / %zu records, the reader %zu\n", p,
                        ix1 ? vsg_library_index_records(ix1) : 0, ix3 ? vsg_library_index_records(ix3) : 0, all.n);
            check_failures++;
        }
        for (int t = 0; t < 6; t++) {
            vsg_record_range rg[16];
            size_t starts[1] = {0};
            int nr = make_ranges(all.n, starts, 1, t < 3 ? 8 : t == 3 ? 2 : t == 4 ? 3 : 6, rg);
            const vsg_library_index *ixs[1] = {t % 2 ? ix1 : ix3};
            char label[200];
            snprintf(label, sizeof label, "damaged file %s, try %d", p, t);
            if (read_recs(paths, 1, &opt, rg, nr, 1, t == 5 ? NULL : ixs, &got) != VSG_OK) {
                fprintf(stderr, "%s: %s\n", label, vsg_last_error());
                check_failures++;
                continue;
            }
            if (!expect_selection(label, &all, rg, nr, &got)) bad_sel++;
            recs_free(&got);
        }
        vsg_library_index_free(ix1);
        vsg_library_index_free(ix3);
        recs_free(&all);
        free(out.s);
    }
    printf("  %d randomly damaged files: %d index counts differ, %d selections differ\n", nfiles, mismatched, bad_sel);
    for (int i = 0; i < 4; i++) free(src[i].s);
}

/* Real libraries (../shared/data and data/): counts, and a few ranges through each. */
static void test_real(void)
{
    static const char *rel_shared[] = {
        "dude/inha/actives_final.mol2.gz", "dude_xiap_docked/actives_docked.sdf", "ligands_rdkit/egfr.sdf.gz",
        "autodock_vina/1iep/1iep_ligand_vina_out.pdbqt", "autodock_vina/1iep/1iep_ligand_ad4_out.pdbqt",
        "dude_xiap_docked/receptor_rdkit.pdb", "autodock_gpu/1stp/Ligands_noHydrogens_withMissing_1_Instances.sdf",
        "dude/inha/decoys_final.mol2.gz"};
    static const char *rel_data[] = {"data/inha/library.mol2.gz", "data/xiap_actives_docked.sdf.gz",
                                     "data/xiap_actives_docked.mol2.gz", "data/biotin.pdbqt",
                                     "data/1stp_receptor.pdbqt", "tests/data/1ajj_pro4_cys5.pdb"};
    const char *paths[16];
    int n = 0;
    vsg_ligand_reader_options opt = {.format = VSG_LIG_AUTO, .keep_text = 0, .max_atoms = 0};
    struct stat sb;
    for (size_t i = 0; i < sizeof rel_data / sizeof rel_data[0]; i++) {
        const char *p = source_path(rel_data[i]);
        static char keep[16][1200];
        snprintf(keep[n], sizeof keep[n], "%s", p);
        if (stat(keep[n], &sb) == 0) paths[n] = keep[n], n++;
    }
    check_counts("data/ libraries", paths, n, &opt);
    check_selections("data/ libraries", paths, n, &opt, 12);
    const char *dir = shared_data_dir();
    if (!dir) {
        VSG_SKIP_PART("the ../shared/data libraries", VSG_NO_SHARED);
        return;
    }
    n = 0;
    for (size_t i = 0; i < sizeof rel_shared / sizeof rel_shared[0]; i++) {
        static char keep[16][1200];
        snprintf(keep[n], sizeof keep[n], "%s/%s", dir, rel_shared[i]);
        if (stat(keep[n], &sb) == 0) paths[n] = keep[n], n++;
    }
    if (n < (int)(sizeof rel_shared / sizeof rel_shared[0])) VSG_SKIP_PART("some ../shared/data libraries", "not found");
    check_counts("../shared/data libraries", paths, n, &opt);
    check_selections("../shared/data libraries", paths, n, &opt, 10);
}

/* Stale and foreign indexes, bad ranges, a reader already read from, broken index files. */
static void test_refusals(void)
{
    buf_t b = {0}, c = {0};
    sdf_library(&b, 50, "\n", 0);
    sdf_library(&c, 60, "\n", 0);
    static char p[1200], q[1200], ixp[1200]; /* spath's buffers are reused */
    snprintf(p, sizeof p, "%s", write_file("stale.sdf", b.s, b.n));
    snprintf(q, sizeof q, "%s", write_file("other.sdf", c.s, c.n));
    snprintf(ixp, sizeof ixp, "%s", spath("stale.sdf.vsgidx"));
    char def[1200];
    vsg_ligand_reader_options opt = {.format = VSG_LIG_AUTO, .keep_text = 0, .max_atoms = 0};
    vsg_library_index *ix = build(p, &opt, 8), *back = NULL, *iq = build(q, &opt, 8);
    vsg_ligand_reader *r = NULL;
    vsg_ligand lig;
    const char *paths[2] = {p, q};
    CHECK(ix && vsg_library_index_records(ix) == 50 && vsg_library_index_entries(ix) == 7);
    CHECK(vsg_library_index_path(p, def, sizeof def) && strcmp(def, ixp) == 0);
    CHECK(vsg_library_index_path(p, def, 5) == NULL);
    CHECK_STATUS(vsg_library_index_write(ix, ixp), VSG_OK);
    CHECK_STATUS(vsg_library_index_read(ixp, p, &back), VSG_OK);
    vsg_library_index_free(back);
    back = NULL;
    CHECK_STATUS(vsg_library_index_read(ixp, NULL, &back), VSG_OK); /* the library the index names */
    vsg_library_index_free(back);
    back = NULL;
    /* an index read for another library: refused as stale (another size) */
    CHECK_STATUS(vsg_library_index_read(ixp, q, &back), VSG_E_DATA);
    CHECK_CONTAINS(vsg_last_error(), "vsgrid index");
    /* the library touched (mtime), then changed (size) */
    {
        struct timespec ts[2] = {{0, UTIME_OMIT}, {1700000000, 5}};
        CHECK(utimensat(AT_FDCWD, p, ts, 0) == 0);
        CHECK_STATUS(vsg_library_index_read(ixp, p, &back), VSG_E_DATA);
        CHECK_CONTAINS(vsg_last_error(), "modified");
        CHECK_CONTAINS(vsg_last_error(), "run `vsgrid index");
        /* the in-memory index of the old file is refused by select too */
        CHECK_STATUS(vsg_ligand_reader_open(paths, 1, &opt, &r), VSG_OK);
        const vsg_library_index *ixs[1] = {ix};
        vsg_record_range rg = {3, 2};
        CHECK_STATUS(vsg_ligand_reader_select(r, &rg, 1, ixs), VSG_E_ARG);
        vsg_ligand_reader_close(r);
        r = NULL;
        vsg_library_index_free(ix);
        ix = build(p, &opt, 8);
        CHECK_STATUS(vsg_library_index_write(ix, ixp), VSG_OK);
        FILE *f = fopen(p, "ab");
        if (f) fputs("more\n", f), fclose(f);
        CHECK_STATUS(vsg_library_index_read(ixp, p, &back), VSG_E_DATA);
        CHECK_CONTAINS(vsg_last_error(), "bytes");
        /* the same size and time, other first bytes */
        vsg_library_index_free(ix);
        ix = build(p, &opt, 8);
        struct stat sb;
        CHECK(stat(p, &sb) == 0);
        CHECK_STATUS(vsg_library_index_write(ix, ixp), VSG_OK);
        f = fopen(p, "r+b");
        if (f) fputc('W', f), fclose(f);
        struct timespec keep[2] = {{0, UTIME_OMIT}, sb.st_mtim};
        CHECK(utimensat(AT_FDCWD, p, keep, 0) == 0);
        CHECK_STATUS(vsg_library_index_read(ixp, p, &back), VSG_E_DATA);
        CHECK_CONTAINS(vsg_last_error(), "first bytes");
        vsg_library_index_free(ix);
        ix = build(p, &opt, 8);
    }
    /* select: an index of another file, unsorted or overlapping ranges, after a read, a format
     * other than the index's */
    {
        const vsg_library_index *swapped[2] = {iq, ix}, *right[2] = {ix, iq};
        vsg_record_range ok[2] = {{3, 2}, {70, 5}}, unsorted[2] = {{70, 5}, {3, 2}}, overlap[2] = {{3, 5}, {7, 2}};
        vsg_record_range huge[1] = {{5, SIZE_MAX}};
        CHECK_STATUS(vsg_ligand_reader_open(paths, 2, &opt, &r), VSG_OK);
        CHECK_STATUS(vsg_ligand_reader_select(r, ok, 2, swapped), VSG_E_ARG);
        CHECK_CONTAINS(vsg_last_error(), "index of another file");
        CHECK_STATUS(vsg_ligand_reader_select(r, unsorted, 2, right), VSG_E_ARG);
        CHECK_STATUS(vsg_ligand_reader_select(r, overlap, 2, NULL), VSG_E_ARG);
        CHECK_STATUS(vsg_ligand_reader_select(r, huge, 1, NULL), VSG_E_ARG);
        CHECK_STATUS(vsg_ligand_reader_select(r, NULL, 1, NULL), VSG_E_ARG);
        CHECK_STATUS(vsg_ligand_reader_select(r, ok, 2, right), VSG_OK);
        CHECK_STATUS(vsg_ligand_reader_select(r, ok, 2, right), VSG_E_ARG); /* twice */
        vsg_ligand_init(&lig);
        int k = 0;
        size_t idxs[8];
        while (vsg_ligand_reader_next(r, &lig) && k < 8) idxs[k++] = lig.index;
        CHECK(k == 7 && idxs[0] == 3 && idxs[1] == 4 && idxs[2] == 70 && idxs[6] == 74);
        vsg_ligand_reader_close(r);
        CHECK_STATUS(vsg_ligand_reader_open(paths, 2, &opt, &r), VSG_OK);
        CHECK(vsg_ligand_reader_next(r, &lig) == 1);
        CHECK_STATUS(vsg_ligand_reader_select(r, ok, 2, NULL), VSG_E_ARG);
        vsg_ligand_reader_close(r);
        vsg_ligand_reader_options as_mol2 = {.format = VSG_LIG_MOL2, .keep_text = 0, .max_atoms = 0};
        CHECK_STATUS(vsg_ligand_reader_open(paths, 2, &as_mol2, &r), VSG_OK);
        CHECK_STATUS(vsg_ligand_reader_select(r, ok, 2, right), VSG_E_ARG);
        CHECK_CONTAINS(vsg_last_error(), "mol2");
        vsg_ligand_reader_close(r);
        /* no ranges: nothing */
        CHECK_STATUS(vsg_ligand_reader_open(paths, 2, &opt, &r), VSG_OK);
        CHECK_STATUS(vsg_ligand_reader_select(r, NULL, 0, NULL), VSG_OK);
        CHECK(vsg_ligand_reader_next(r, &lig) == 0);
        vsg_ligand_reader_close(r);
        vsg_ligand_release(&lig);
        size_t total = 0;
        CHECK_STATUS(vsg_library_count(paths, 2, &opt, right, &total), VSG_OK);
        CHECK(total == 111);
        CHECK_STATUS(vsg_library_count(paths, 2, &opt, swapped, &total), VSG_E_ARG);
        const char *dash[1] = {"-"};
        CHECK_STATUS(vsg_library_count(dash, 1, &opt, NULL, &total), VSG_E_ARG);
    }
    /* build: bad arguments */
    {
        vsg_library_index *x = NULL;
        CHECK_STATUS(vsg_library_index_build("-", &opt, 5, &x), VSG_E_ARG);
        CHECK_STATUS(vsg_library_index_build(p, &opt, -1, &x), VSG_E_ARG);
        CHECK_STATUS(vsg_library_index_build(NULL, &opt, 5, &x), VSG_E_ARG);
        CHECK_STATUS(vsg_library_index_build(spath("unknown.xyz"), &opt, 5, &x), VSG_E_ARG);
        CHECK_STATUS(vsg_library_index_build(p, &opt, 0, &x), VSG_OK); /* 0 = 1024 */
        CHECK(x && vsg_library_index_entries(x) == 1);
        vsg_library_index_free(x);
    }
    /* broken index files */
    {
        static const struct {
            const char *name, *text;
            vsg_status st;
        } cases[] = {
            {"garbage.vsgidx", "hello\n", VSG_E_FORMAT},
            {"version.vsgidx", "vsgrid-index 9\n", VSG_E_FORMAT},
            {"empty.vsgidx", "", VSG_E_FORMAT},
        };
        vsg_library_index *x = NULL;
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
            const char *ip = write_file(cases[i].name, cases[i].text, strlen(cases[i].text));
            CHECK_STATUS(vsg_library_index_read(ip, p, &x), cases[i].st);
        }
        CHECK_STATUS(vsg_library_index_read(spath("no_such.vsgidx"), p, &x), VSG_E_IO);
        /* every truncation of a good index is refused (the 'end' line is missing) */
        CHECK_STATUS(vsg_library_index_write(ix, ixp), VSG_OK);
        FILE *f = fopen(ixp, "rb");
        char text[8192];
        size_t n = f ? fread(text, 1, sizeof text, f) : 0;
        if (f) fclose(f);
        int refused = 0, tries = 0;
        for (size_t cut = 0; cut + 1 < n; cut += 3) {
            const char *ip = write_file("cut.vsgidx", text, cut);
            tries++;
            if (vsg_library_index_read(ip, p, &x) == VSG_E_FORMAT) refused++;
            else vsg_library_index_free(x), x = NULL;
        }
        CHECK(refused == tries);
        /* an entry out of order */
        char *e = strstr(text, "\ne 8 ");
        if (e) {
            e[3] = '0'; /* record 8 made 0: not after the entry before */
            const char *ip = write_file("order.vsgidx", text, n);
            CHECK_STATUS(vsg_library_index_read(ip, p, &x), VSG_E_FORMAT);
            e[3] = '8';
        } else {
            CHECK(e != NULL);
        }
    }
    vsg_library_index_free(ix);
    vsg_library_index_free(iq);
    free(b.s);
    free(c.s);
}

/* Standard input and memory: selected without an index (scanning). */
static void test_stdin_memory(void)
{
    buf_t b = {0};
    mol2_library(&b, 300);
    const char *p = write_file("stdin.mol2", b.s, b.n);
    const char *paths[1] = {p}, *dash[1] = {"-"};
    vsg_ligand_reader_options opt = {.format = VSG_LIG_MOL2, .keep_text = 0, .max_atoms = 0};
    recs_t all, got;
    vsg_record_range rg[2] = {{17, 3}, {250, 60}};
    read_recs(paths, 1, &opt, NULL, 0, 0, NULL, &all);
    int fd = dup(0);
    if (fd >= 0 && freopen(p, "rb", stdin)) {
        CHECK_STATUS(read_recs(dash, 1, &opt, rg, 2, 1, NULL, &got), VSG_OK);
        /* same records, source "-" */
        CHECK(got.n == 53);
        for (size_t i = 0; i < got.n; i++) snprintf(got.r[i].source, sizeof got.r[i].source, "%s", p);
        for (size_t i = 0; i < got.n; i++) {
            char *m = strstr(got.r[i].message, "<stdin>");
            if (m) { /* the message names <stdin>: compare the rest */
                char fixed[512];
                snprintf(fixed, sizeof fixed, "%.*s%s%s", (int)(m - got.r[i].message), got.r[i].message, p, m + 7);
                snprintf(got.r[i].message, sizeof got.r[i].message, "%.255s", fixed);
            }
        }
        expect_selection("standard input, no index", &all, rg, 2, &got);
        recs_free(&got);
        dup2(fd, 0);
        const vsg_library_index *none[1] = {NULL};
        (void)none;
    } else {
        fprintf(stderr, "cannot redirect standard input\n");
        check_failures++;
    }
    if (fd >= 0) close(fd);
    /* memory */
    {
        vsg_ligand_reader *r = NULL;
        vsg_ligand lig;
        rec_t one;
        CHECK_STATUS(vsg_ligand_reader_open_memory(b.s, b.n, VSG_LIG_MOL2, &opt, &r), VSG_OK);
        CHECK_STATUS(vsg_ligand_reader_select(r, rg, 2, NULL), VSG_OK);
        memset(&got, 0, sizeof got);
        vsg_ligand_init(&lig);
        while (vsg_ligand_reader_next(r, &lig)) {
            snap(&lig, &one);
            snprintf(one.source, sizeof one.source, "%s", p);
            recs_push(&got, &one);
        }
        got.count = vsg_ligand_reader_count(r, &got.failed);
        vsg_ligand_release(&lig);
        vsg_ligand_reader_close(r);
        CHECK(got.n == 53);
        for (size_t i = 0; i < got.n; i++) {
            char *m = strstr(got.r[i].message, "<memory>");
            if (m) {
                char fixed[512];
                snprintf(fixed, sizeof fixed, "%.*s%s%s", (int)(m - got.r[i].message), got.r[i].message, p, m + 8);
                snprintf(got.r[i].message, sizeof got.r[i].message, "%.255s", fixed);
            }
        }
        expect_selection("memory, no index", &all, rg, 2, &got);
        recs_free(&got);
    }
    recs_free(&all);
    free(b.s);
}

int main(void)
{
    snprintf(scratch_dir, sizeof scratch_dir, "%s", scratch_path("library_index"));
    mkdir(scratch_dir, 0755);
    const char *seed = getenv("VSG_TEST_SEED");
    rng_state = seed ? strtoull(seed, NULL, 10) : (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 20);
    if (!rng_state) rng_state = 1;
    printf("seed %llu (VSG_TEST_SEED=%llu repeats this run)\n", (unsigned long long)rng_state,
           (unsigned long long)rng_state);
    test_refusals();
    test_plain_magic();
    test_generated();
    test_stdin_memory();
    test_damaged(400);
    test_real();
    CHECK_EXIT();
}
