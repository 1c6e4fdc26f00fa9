/* library_index.c — indexes of ligand library files (vsgrid.h, "record selection and library
 * indexes"): where every `every`-th record starts, so that a campaign's task reads its slice of
 * records without scanning the file before it (vsg_ligand_reader_select, ligand_reader.c).
 *
 * Building is one pass of the reader's splitter (vsg_ligand_reader_next_chunk: lines only, cut
 * at the record boundaries the parsers use), in chunks that end at multiples of `every`; an
 * entry is a chunk's start (byte offset in the uncompressed text, lines and records before it,
 * the PDB/PDBQT name state). The splitter's count is exact for every record a boundary ends;
 * what follows the file's last boundary (a last record without its end, blank lines, a gzip
 * stream that breaks, a file without molecules) is parsed, so that the index's count is the
 * serial reader's exactly.
 *
 * The file format (text, docs/FORMATS.md "Library index (.vsgidx)"):
 *     vsgrid-index 1
 *     library PATH
 *     size BYTES | -          (- : the library was no regular file when indexed)
 *     mtime SECONDS.NANOSECONDS | -
 *     head HEX16              (FNV-1a 64 of its first 65536 bytes as stored)
 *     compression gzip|none
 *     format sdf|mol2|pdbqt|pdb
 *     every N
 *     records N
 *     entries N
 *     e RECORD LINE OFFSET RANK[ NAME]   (N lines, RECORD ascending)
 *     end
 * PATH and NAME are written with '%' and control characters as %XX. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grids/base/vsgrid.h"
#include "ligands/readers/ligand_reader.h"

#define LIX_VERSION 1
#define LIX_CHUNK_RECORDS 1024 /* records a splitter chunk holds at most while indexing */

/* ---- building ------------------------------------------------------------------------------ */

static vsg_library_index *lix_new(const char *library, long every)
{
    vsg_library_index *ix = calloc(1, sizeof *ix);
    if (!ix) return NULL;
    ix->library = malloc(strlen(library) + 1);
    if (!ix->library) {
        free(ix);
        return NULL;
    }
    strcpy(ix->library, library);
    ix->every = every;
    return ix;
}

/* Appends an entry; its name is the previous entry's string when equal (shared). 0, or -1 no memory. */
static int lix_add(vsg_library_index *ix, uint64_t offset, long line, long record, int rank, const char *name)
{
    vsg_lix_entry *e;
    if (ix->n == ix->cap) {
        size_t cap = ix->cap ? ix->cap * 2 : 64;
        vsg_lix_entry *t = realloc(ix->e, cap * sizeof *t);
        if (!t) return -1;
        ix->e = t;
        ix->cap = cap;
    }
    e = &ix->e[ix->n];
    e->offset = offset;
    e->line = line;
    e->record = record;
    e->name_rank = rank > 0 ? rank : 0;
    e->name = NULL;
    if (e->name_rank > 0) {
        const vsg_lix_entry *prev = ix->n ? &ix->e[ix->n - 1] : NULL;
        if (prev && prev->name && !strcmp(prev->name, name)) {
            e->name = prev->name;
        } else {
            e->name = malloc(strlen(name) + 1);
            if (!e->name) return -1;
            strcpy(e->name, name);
        }
    }
    ix->n++;
    return 0;
}

void vsg_library_index_free(vsg_library_index *ix)
{
    if (!ix) return;
    for (size_t i = 0; i < ix->n; i++)
        if (ix->e[i].name && (i == 0 || ix->e[i].name != ix->e[i - 1].name)) free(ix->e[i].name);
    free(ix->e);
    free(ix->library);
    free(ix);
}

size_t vsg_library_index_records(const vsg_library_index *ix) { return ix ? ix->records : 0; }
size_t vsg_library_index_entries(const vsg_library_index *ix) { return ix ? ix->n : 0; }

const char *vsg_library_index_path(const char *library, char *buf, size_t len)
{
    if (!library || !buf || len == 0) return NULL;
    if ((size_t)snprintf(buf, len, "%s.vsgidx", library) >= len) return NULL;
    return buf;
}

/* One pass of the splitter over path: entries every `every` records (none when every is
 * LONG_MAX: a count only) and the exact record count. */
static vsg_status lix_scan(const char *path, const vsg_ligand_reader_options *ro, long every, vsg_library_index *ix)
{
    vsg_ligand_reader_options o = ro ? *ro : (vsg_ligand_reader_options){.format = VSG_LIG_AUTO};
    vsg_ligand_reader *r = NULL;
    vsg_lig_chunk ch;
    vsg_status st;
    o.keep_text = 0;
    st = vsg_ligand_reader_open(&path, 1, &o, &r);
    if (st != VSG_OK) return st;
    ix->format = vsg_ligand_reader_format(r, 0);
    memset(&ch, 0, sizeof ch);
    for (;;) {
        long want = every - (long)(ix->records % (size_t)every);
        if (want > LIX_CHUNK_RECORDS) want = LIX_CHUNK_RECORDS;
        const int got = vsg_ligand_reader_next_chunk(r, &ch, want, (size_t)-1);
        if (got == 0) break;
        if (got < 0) {
            st = vsg_fail(VSG_E_NOMEM, "%s: out of memory while indexing", path);
            break;
        }
        if (ch.open_failed) { /* the reader's one io record */
            ix->records = 1;
            break;
        }
        if (ix->records % (size_t)every == 0 && every != LONG_MAX &&
            lix_add(ix, ch.offset, ch.first_line, ch.first_record, ch.file_name_rank, ch.file_name) != 0) {
            st = vsg_fail(VSG_E_NOMEM, "%s: out of memory for the index entries", path);
            break;
        }
        if (!ch.last_in_file) {
            ix->records += (size_t)ch.records;
            continue;
        }
        const long k = vsg_lig_chunk_count(&ch, &o); /* what follows the last boundary, parsed */
        if (k < 0) st = vsg_fail(VSG_E_NOMEM, "%s: out of memory while indexing", path);
        else ix->records += (size_t)k;
        break;
    }
    vsg_lig_chunk_free(&ch);
    vsg_ligand_reader_close(r);
    return st;
}

vsg_status vsg_library_index_build(const char *path, const vsg_ligand_reader_options *ro, long every,
                                   vsg_library_index **out)
{
    vsg_library_index *ix;
    vsg_lix_identity before, after;
    vsg_status st;
    if (!out) return vsg_fail(VSG_E_ARG, "vsg_library_index_build: NULL argument");
    *out = NULL;
    if (!path || !path[0]) return vsg_fail(VSG_E_ARG, "vsg_library_index_build: no path");
    if (!strcmp(path, "-")) return vsg_fail(VSG_E_ARG, "standard input cannot be indexed: index a file");
    if (every < 0) return vsg_fail(VSG_E_ARG, "index entries every %ld records: give a count >= 1", every);
    if (every == 0) every = 1024;
    ix = lix_new(path, every);
    if (!ix) return vsg_fail(VSG_E_NOMEM, "out of memory for a library index");
    vsg_lix_identify(path, &before);
    st = lix_scan(path, ro, every, ix);
    if (st != VSG_OK) {
        vsg_library_index_free(ix);
        return st;
    }
    vsg_lix_identify(path, &after);
    if (before.exists != after.exists || before.size != after.size || before.mtime_s != after.mtime_s ||
        before.mtime_ns != after.mtime_ns || before.head != after.head) {
        vsg_library_index_free(ix);
        return vsg_fail(VSG_E_DATA, "%s changed while it was being indexed: index it again once it is complete", path);
    }
    ix->exists = before.exists;
    ix->size = before.size;
    ix->mtime_s = before.mtime_s;
    ix->mtime_ns = before.mtime_ns;
    ix->head = before.head;
    ix->gzip = before.gzip;
    *out = ix;
    return VSG_OK;
}

/* ---- the file ------------------------------------------------------------------------------ */

/* Writes s with '%' and control characters as %XX. */
static void put_escaped(FILE *f, const char *s)
{
    for (; *s; s++) {
        const unsigned char c = (unsigned char)*s;
        if (c == '%' || c < 0x20 || c == 0x7f) fprintf(f, "%%%02X", c);
        else fputc(c, f);
    }
}

/* Undoes put_escaped in place; 0, or -1 for a bad escape. */
static int unescape(char *s)
{
    char *d = s;
    for (; *s; s++) {
        if (*s != '%') {
            *d++ = *s;
            continue;
        }
        unsigned v = 0;
        for (int k = 1; k <= 2; k++) {
            const char c = s[k];
            if (c >= '0' && c <= '9') v = v * 16 + (unsigned)(c - '0');
            else if (c >= 'A' && c <= 'F') v = v * 16 + (unsigned)(c - 'A' + 10);
            else if (c >= 'a' && c <= 'f') v = v * 16 + (unsigned)(c - 'a' + 10);
            else return -1;
        }
        if (v == 0) return -1;
        *d++ = (char)v;
        s += 2;
    }
    *d = '\0';
    return 0;
}

vsg_status vsg_library_index_write(const vsg_library_index *ix, const char *path)
{
    char tmp[4096];
    FILE *f;
    int bad;
    if (!ix || !path || !path[0]) return vsg_fail(VSG_E_ARG, "vsg_library_index_write: NULL argument");
    /* written beside and renamed: a task never reads half an index */
    if ((size_t)snprintf(tmp, sizeof tmp, "%s.tmp%ld", path, (long)getpid()) >= sizeof tmp)
        return vsg_fail(VSG_E_ARG, "%s: path too long", path);
    f = fopen(tmp, "w");
    if (!f) return vsg_fail(VSG_E_IO, "cannot write %s: %s", path, strerror(errno));
    fprintf(f, "vsgrid-index %d\nlibrary ", LIX_VERSION);
    put_escaped(f, ix->library);
    if (ix->exists)
        fprintf(f, "\nsize %" PRIu64 "\nmtime %" PRId64 ".%09ld\n", ix->size, ix->mtime_s, ix->mtime_ns);
    else
        fprintf(f, "\nsize -\nmtime -\n");
    fprintf(f, "head %016" PRIx64 "\ncompression %s\nformat %s\nevery %ld\nrecords %zu\nentries %zu\n", ix->head,
            ix->gzip ? "gzip" : "none", vsg_ligand_format_name(ix->format), ix->every, ix->records, ix->n);
    for (size_t i = 0; i < ix->n; i++) {
        const vsg_lix_entry *e = &ix->e[i];
        fprintf(f, "e %ld %ld %" PRIu64 " %d", e->record, e->line, e->offset, e->name_rank);
        if (e->name_rank > 0 && e->name) {
            fputc(' ', f);
            put_escaped(f, e->name);
        }
        fputc('\n', f);
    }
    fputs("end\n", f);
    bad = ferror(f);
    if (fclose(f) != 0) bad = 1;
    if (bad || rename(tmp, path) != 0) {
        const int e = errno;
        remove(tmp);
        return vsg_fail(VSG_E_IO, "cannot write %s: %s", path, strerror(e ? e : EIO));
    }
    return VSG_OK;
}

/* A whole line of f without its newline into buf (cap bytes); 1, 0 at the end, -1 too long. */
static int get_line(FILE *f, char *buf, size_t cap)
{
    size_t n;
    if (!fgets(buf, (int)cap, f)) return 0;
    n = strlen(buf);
    if (n && buf[n - 1] == '\n') buf[--n] = '\0';
    else if (!feof(f)) return -1;
    if (n && buf[n - 1] == '\r') buf[--n] = '\0';
    return 1;
}

/* "KEY VALUE": the value, or NULL when the line is another key. */
static char *key_value(char *line, const char *key)
{
    size_t n = strlen(key);
    return strncmp(line, key, n) == 0 && line[n] == ' ' ? line + n + 1 : NULL;
}

static int parse_u64(const char *s, uint64_t *v)
{
    char *end;
    if (!(*s >= '0' && *s <= '9')) return 0;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 10);
    if (errno || *end) return 0;
    *v = (uint64_t)x;
    return 1;
}

static vsg_ligand_format format_named(const char *s)
{
    for (int f = VSG_LIG_SDF; f <= VSG_LIG_CSV; f++)
        if (!strcmp(s, vsg_ligand_format_name((vsg_ligand_format)f))) return (vsg_ligand_format)f;
    return VSG_LIG_AUTO;
}

vsg_status vsg_library_index_read(const char *path, const char *library, vsg_library_index **out)
{
    static const char *const keys[] = {"library", "size", "mtime", "head", "compression", "format", "every", "records",
                                       "entries"};
    enum { NKEYS = sizeof keys / sizeof keys[0] };
    char line[8192], why[300];
    vsg_library_index *ix = NULL;
    uint64_t v, nentries = 0;
    long lineno = 0;
    FILE *f;
    vsg_status st = VSG_OK;
    if (!out) return vsg_fail(VSG_E_ARG, "vsg_library_index_read: NULL argument");
    *out = NULL;
    if (!path || !path[0]) return vsg_fail(VSG_E_ARG, "vsg_library_index_read: no path");
    f = fopen(path, "r");
    if (!f) return vsg_fail(VSG_E_IO, "cannot open the library index %s: %s", path, strerror(errno));
#define BAD(...)                                                               \
    do {                                                                       \
        char what_[240];                                                       \
        snprintf(what_, sizeof what_, __VA_ARGS__);                            \
        st = vsg_fail(VSG_E_FORMAT, "%s:%ld: %s", path, lineno, what_);        \
        goto done;                                                             \
    } while (0)
    lineno = 1;
    if (get_line(f, line, sizeof line) != 1 || strncmp(line, "vsgrid-index ", 13) != 0) {
        st = vsg_fail(VSG_E_FORMAT, "%s: not a vsgrid library index (no 'vsgrid-index' first line)", path);
        goto done;
    }
    if (strcmp(line + 13, "1") != 0) BAD("index format version %.20s; this vsgrid reads version %d", line + 13, LIX_VERSION);
    ix = lix_new("", 1);
    if (!ix) {
        st = vsg_fail(VSG_E_NOMEM, "out of memory for a library index");
        goto done;
    }
    for (int k = 0; k < NKEYS; k++) {
        char *val;
        lineno++;
        if (get_line(f, line, sizeof line) != 1) BAD("ends early: '%.60s' line expected", keys[k]);
        if (!(val = key_value(line, keys[k]))) BAD("'%.60s' line expected", keys[k]);
        switch (k) {
        case 0: {
            char *p;
            if (unescape(val) != 0 || !val[0]) BAD("bad library path");
            p = realloc(ix->library, strlen(val) + 1);
            if (!p) {
                st = vsg_fail(VSG_E_NOMEM, "out of memory for a library index");
                goto done;
            }
            ix->library = strcpy(p, val);
            break;
        }
        case 1:
            if (!strcmp(val, "-")) break;
            if (!parse_u64(val, &ix->size)) BAD("bad size '%.60s'", val);
            ix->exists = 1;
            break;
        case 2: {
            uint64_t s, ns;
            char *dot = strchr(val, '.');
            if (!strcmp(val, "-") && !ix->exists) break;
            if (!dot || !ix->exists) BAD("bad mtime '%.60s'", val);
            *dot = '\0';
            if (!parse_u64(val, &s) || strlen(dot + 1) != 9 || !parse_u64(dot + 1, &ns) || s > INT64_MAX)
                BAD("bad mtime");
            ix->mtime_s = (int64_t)s;
            ix->mtime_ns = (long)ns;
            break;
        }
        case 3: {
            char *end;
            if (strlen(val) != 16) BAD("bad head '%.60s'", val);
            errno = 0;
            ix->head = (uint64_t)strtoull(val, &end, 16);
            if (errno || *end) BAD("bad head '%.60s'", val);
            break;
        }
        case 4:
            if (!strcmp(val, "gzip")) ix->gzip = 1;
            else if (strcmp(val, "none") != 0) BAD("bad compression '%.60s'", val);
            break;
        case 5:
            if ((ix->format = format_named(val)) == VSG_LIG_AUTO) BAD("unknown format '%.60s'", val);
            break;
        case 6:
            if (!parse_u64(val, &v) || v < 1 || v > LONG_MAX) BAD("bad every '%.60s'", val);
            ix->every = (long)v;
            break;
        case 7:
            if (!parse_u64(val, &v) || v < 1 || v > LONG_MAX) BAD("bad record count '%.60s'", val);
            ix->records = (size_t)v;
            break;
        case 8:
            if (!parse_u64(val, &nentries) || nentries > ix->records + 1) BAD("bad entry count '%.60s'", val);
            break;
        }
    }
    for (uint64_t i = 0; i < nentries; i++) {
        uint64_t rec, ln, off, rank;
        char *p, *fld[4], *name = NULL;
        lineno++;
        if (get_line(f, line, sizeof line) != 1) BAD("ends after %" PRIu64 " of %" PRIu64 " entries", i, nentries);
        if (strncmp(line, "e ", 2) != 0) BAD("entry %" PRIu64 " of %" PRIu64 " expected", i + 1, nentries);
        p = line + 2;
        for (int k = 0; k < 4; k++) {
            fld[k] = p;
            while (*p && *p != ' ') p++;
            if (k < 3 && !*p) BAD("entry with fewer than 4 fields");
            if (*p) *p++ = '\0', name = p;
            else name = NULL;
        }
        if (!parse_u64(fld[0], &rec) || !parse_u64(fld[1], &ln) || !parse_u64(fld[2], &off) ||
            !parse_u64(fld[3], &rank) || rank > 2 || rec > ix->records || ln > LONG_MAX)
            BAD("bad entry");
        if ((rank > 0) != (name != NULL) || (name && (unescape(name) != 0 || !name[0])))
            BAD("bad entry name");
        if (i == 0 ? rec != 0 || ln != 0 || off != 0
                   : rec <= (uint64_t)ix->e[ix->n - 1].record || ln < (uint64_t)ix->e[ix->n - 1].line ||
                         off < ix->e[ix->n - 1].offset)
            BAD("entries out of order");
        if (lix_add(ix, off, (long)ln, (long)rec, (int)rank, name ? name : "") != 0) {
            st = vsg_fail(VSG_E_NOMEM, "out of memory for a library index");
            goto done;
        }
    }
    lineno++;
    if (get_line(f, line, sizeof line) != 1 || strcmp(line, "end") != 0) BAD("'end' expected (a truncated index?)");
#undef BAD
    if (!library) library = ix->library;
    if (vsg_lix_matches(ix, library, why, sizeof why) != 0)
        st = vsg_fail(VSG_E_DATA, "%s is stale: %s: %s; run `vsgrid index %s` again", path, library, why, library);
done:
    fclose(f);
    if (st != VSG_OK) {
        vsg_library_index_free(ix);
        return st;
    }
    *out = ix;
    return VSG_OK;
}

/* ---- counting ------------------------------------------------------------------------------- */

vsg_status vsg_library_count(const char *const *paths, int npaths, const vsg_ligand_reader_options *ro,
                             const vsg_library_index *const *idx, size_t *records)
{
    vsg_ligand_reader *r = NULL;
    vsg_status st;
    size_t total = 0;
    char why[300];
    if (!records) return vsg_fail(VSG_E_ARG, "vsg_library_count: NULL argument");
    *records = 0;
    for (int i = 0; paths && i < npaths; i++)
        if (paths[i] && !strcmp(paths[i], "-"))
            return vsg_fail(VSG_E_ARG, "standard input cannot be counted ahead of reading it");
    st = vsg_ligand_reader_open(paths, npaths, ro, &r); /* the paths and their formats, checked */
    if (st != VSG_OK) return st;
    for (int i = 0; i < npaths && st == VSG_OK; i++) {
        const vsg_library_index *ix = idx ? idx[i] : NULL;
        if (ix) {
            if (vsg_lix_matches(ix, paths[i], why, sizeof why) != 0)
                st = vsg_fail(VSG_E_ARG, "%s: index of another file: %s", paths[i], why);
            else if (ix->format != vsg_ligand_reader_format(r, i))
                st = vsg_fail(VSG_E_ARG, "%s: the index was made reading it as %s, not %s", paths[i],
                              vsg_ligand_format_name(ix->format),
                              vsg_ligand_format_name(vsg_ligand_reader_format(r, i)));
            else
                total += ix->records;
            continue;
        }
        vsg_library_index *tmp = lix_new(paths[i], LONG_MAX);
        if (!tmp) {
            st = vsg_fail(VSG_E_NOMEM, "out of memory");
            break;
        }
        vsg_ligand_reader_options o = ro ? *ro : (vsg_ligand_reader_options){.format = VSG_LIG_AUTO};
        o.format = vsg_ligand_reader_format(r, i);
        st = lix_scan(paths[i], &o, LONG_MAX, tmp);
        total += tmp->records;
        vsg_library_index_free(tmp);
    }
    vsg_ligand_reader_close(r);
    if (st == VSG_OK) *records = total;
    return st;
}
