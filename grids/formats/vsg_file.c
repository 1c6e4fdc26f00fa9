/* vsg_file.c — the native .vsg grid file: self-describing, versioned, checksummed.
 *
 * Layout, format version 1. All integers little-endian, whatever the host.
 *
 *   offset     size  field
 *   0          8     magic "\x89VSG\r\n\x1a\n" (catches text-mode and 7-bit transfers, as PNG's)
 *   8          4     uint32 format version = 1
 *   12         4     uint32 header length H (bytes)
 *   16         H     header: UTF-8 text, "key = value\n" lines, no NUL:
 *                      vsgrid_version, nx, ny, nz, origin_x, origin_y, origin_z,
 *                      spacing_x, spacing_y, spacing_z (%.17g, exact), units,
 *                      then the grid's metadata lines verbatim
 *   16+H       4     uint32 CRC-32 (zlib crc32) of the H header bytes
 *   20+H       4     uint32 number of maps M (1 in version 1: "potential")
 *   then M times:
 *              4     uint32 name length L
 *              L     name bytes (UTF-8, no NUL)
 *              8     uint64 raw byte count (= nx*ny*nz*4)
 *              8     uint64 compressed byte count C
 *              4     uint32 CRC-32 of the raw bytes
 *              C     zlib stream (RFC 1950, Huffman-only deflate, written in parallel pieces;
 *                    see write_map) of the raw bytes: float32
 *                    little-endian, x fastest: value(i,j,k) at i + nx*(j + ny*k)
 *   end of file right after the last map.
 *
 * The file is written to "path.tmp" and renamed, so a failed write never leaves a half file
 * under the real name. Compression works in bounded batches of 1 MiB pieces, so a grid never
 * needs a second full-size copy in memory. The reader checks every field and names the file in its message.
 */
#define _POSIX_C_SOURCE 200809L /* fseeko/ftello: files over 2 GiB */
#define _FILE_OFFSET_BITS 64

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <zlib.h>

#include "grids/base/vsgrid.h"
#include "grids/formats/grid.h"

#define VSG_FORMAT_VERSION 1u
#define MAP_NAME "potential"
#define CHUNK ((size_t)16 << 20)
#define MAX_HEADER ((uint32_t)16 << 20) /* refuse absurd lengths from corrupt files */
#define MAX_MAPS 1024u
#define MAX_NAME 4096u

static const unsigned char magic[8] = {0x89, 'V', 'S', 'G', '\r', '\n', 0x1a, '\n'};

/* ---- little-endian helpers ------------------------------------------------------------- */

static void put_u32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (unsigned char)(v >> (8 * i));
}

static void put_u64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++) p[i] = (unsigned char)(v >> (8 * i));
}

static uint32_t get_u32(const unsigned char *p)
{
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) v |= (uint32_t)p[i] << (8 * i);
    return v;
}

static uint64_t get_u64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v |= (uint64_t)p[i] << (8 * i);
    return v;
}

static int host_is_little_endian(void)
{
    const uint32_t one = 1;
    unsigned char b;
    memcpy(&b, &one, 1);
    return b == 1;
}

/* Float values to little-endian bytes (or back: the swap is its own inverse). */
static void floats_to_le(const float *src, unsigned char *dst, size_t count)
{
    if (host_is_little_endian()) {
        memcpy(dst, src, count * 4);
        return;
    }
    for (size_t i = 0; i < count; i++) {
        uint32_t bits;
        memcpy(&bits, &src[i], 4);
        put_u32(dst + 4 * i, bits);
    }
}

static void le_to_floats_inplace(float *data, size_t count)
{
    if (host_is_little_endian()) return;
    unsigned char *b = (unsigned char *)data;
    for (size_t i = 0; i < count; i++) {
        uint32_t bits = get_u32(b + 4 * i);
        memcpy(&data[i], &bits, 4);
    }
}

/* CRC-32 over any length (zlib's crc32 takes a uInt). */
static uint32_t crc_update(uint32_t crc, const unsigned char *p, size_t len)
{
    while (len > 0) {
        uInt n = len > (size_t)UINT_MAX ? UINT_MAX : (uInt)len;
        crc = (uint32_t)crc32(crc, p, n);
        p += n;
        len -= n;
    }
    return crc;
}

/* ---- writer ---------------------------------------------------------------------------- */

typedef struct {
    char *s;
    size_t len, cap;
} strbuf;

static int sb_add(strbuf *b, const char *fmt, ...) VSG_PRINTF(2, 3);
static int sb_add(strbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) return 0;
    if (b->len + (size_t)n + 1 > b->cap) {
        size_t cap = (b->cap ? b->cap * 2 : 1024) + (size_t)n + 1;
        char *s = realloc(b->s, cap);
        if (!s) return 0;
        b->s = s;
        b->cap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
    return 1;
}

static int write_all(FILE *f, const void *p, size_t n) { return fwrite(p, 1, n, f) == n; }

/* Header text: the fixed keys, then the metadata lines verbatim. */
static int build_header(const vsg_grid *g, strbuf *h)
{
    int ok = sb_add(h, "vsgrid_version = %s\n", vsg_version()) &&
             sb_add(h, "nx = %d\nny = %d\nnz = %d\n", g->n[0], g->n[1], g->n[2]) &&
             sb_add(h, "origin_x = %.17g\norigin_y = %.17g\norigin_z = %.17g\n", g->origin[0],
                    g->origin[1], g->origin[2]) &&
             sb_add(h, "spacing_x = %.17g\nspacing_y = %.17g\nspacing_z = %.17g\n", g->spacing[0],
                    g->spacing[1], g->spacing[2]) &&
             sb_add(h, "units = %.*s\n", (int)sizeof g->units - 1, g->units);
    if (ok && g->meta && g->meta[0]) {
        size_t ml = strlen(g->meta);
        ok = sb_add(h, "%s%s", g->meta, g->meta[ml - 1] == '\n' ? "" : "\n");
    }
    return ok;
}

/* Compression in parallel, pigz-style, into one ordinary zlib stream (so the reader, and any
 * zlib, sees nothing special): each PIECE of raw bytes is deflated independently as raw deflate
 * ending on a byte boundary (Z_SYNC_FLUSH; the last one Z_FINISH); the pieces are concatenated
 * behind a zlib header and followed by the Adler-32 of all the data, combined from the pieces'.
 * Deflate runs at about 30 MB/s on float potentials (mostly incompressible mantissas), so this is
 * the difference between 0.6 s and a fraction of it for a 161³ grid. Pieces go out in batches,
 * so memory stays bounded (BATCH pieces in flight).
 * Huffman coding only (Z_HUFFMAN_ONLY): on a PB potential the string matching of level 6 finds
 * almost nothing (a 161³ 1STP grid: 0.930 of the raw size at level 6, 0.929 Huffman-only) and
 * costs 3.5× the time; for a 513³ grid (540 MB) the write was most of the whole command. Any
 * zlib reads the stream as before. */
#define PIECE ((size_t)1 << 20)
#define BATCH 32

typedef struct {
    unsigned char *out;
    size_t out_len, raw_len;
    uLong adler, crc;
    int ok;
} piece;

static void compress_piece(const float *vals, size_t n, int last, piece *pc, unsigned char *raw)
{
    pc->ok = 0;
    pc->raw_len = n * 4;
    floats_to_le(vals, raw, n);
    pc->adler = adler32(adler32(0L, Z_NULL, 0), raw, (uInt)pc->raw_len);
    pc->crc = crc32(crc32(0L, Z_NULL, 0), raw, (uInt)pc->raw_len);
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    if (deflateInit2(&zs, 6, Z_DEFLATED, -15, 8, Z_HUFFMAN_ONLY) != Z_OK) return;
    size_t cap = deflateBound(&zs, (uLong)pc->raw_len) + 16;
    pc->out = malloc(cap);
    if (!pc->out) { deflateEnd(&zs); return; }
    zs.next_in = raw;
    zs.avail_in = (uInt)pc->raw_len;
    zs.next_out = pc->out;
    zs.avail_out = (uInt)cap;
    int zr = deflate(&zs, last ? Z_FINISH : Z_SYNC_FLUSH);
    pc->out_len = cap - zs.avail_out;
    pc->ok = last ? zr == Z_STREAM_END : (zr == Z_OK && zs.avail_in == 0);
    deflateEnd(&zs);
}

/* Writes the values as one zlib stream; returns the compressed size and the raw CRC-32. */
static vsg_status write_map(FILE *f, const vsg_grid *g, const char *tmp, uint64_t *csize,
                            uint32_t *crc_out)
{
    const size_t nodes = vsg_grid_nodes(g), per = PIECE / 4;
    const size_t npieces = (nodes + per - 1) / per;
    piece *pcs = calloc(BATCH, sizeof *pcs);
    unsigned char *raw = malloc((size_t)BATCH * PIECE);
    if (!pcs || !raw) {
        free(pcs);
        free(raw);
        return vsg_fail(VSG_E_NOMEM, "%s: out of memory for compression buffers", tmp);
    }
    const unsigned char zhead[2] = {0x78, 0x01};  /* deflate, 32K window, "fastest" (Huffman only) */
    uint64_t written = 2;
    uLong adler = adler32(0L, Z_NULL, 0), crc = crc32(0L, Z_NULL, 0);
    vsg_status st = write_all(f, zhead, 2) ? VSG_OK : vsg_fail(VSG_E_IO, "%s: write failed: %s", tmp, strerror(errno));
    for (size_t first = 0; first < npieces && st == VSG_OK; first += BATCH) {
        size_t count = npieces - first < BATCH ? npieces - first : BATCH;
#pragma omp parallel for schedule(dynamic, 1)
        for (ptrdiff_t i = 0; i < (ptrdiff_t)count; i++) {
            size_t k = first + (size_t)i, v0 = k * per, n = nodes - v0 < per ? nodes - v0 : per;
            compress_piece(g->data + v0, n, k + 1 == npieces, &pcs[i], raw + (size_t)i * PIECE);
        }
        for (size_t i = 0; i < count; i++) {
            if (st == VSG_OK && !pcs[i].ok) st = vsg_fail(VSG_E_NOMEM, "%s: zlib compression failed", tmp);
            if (st == VSG_OK && !write_all(f, pcs[i].out, pcs[i].out_len))
                st = vsg_fail(VSG_E_IO, "%s: write failed: %s", tmp, strerror(errno));
            if (st == VSG_OK) {
                written += pcs[i].out_len;
                adler = adler32_combine(adler, pcs[i].adler, (z_off_t)pcs[i].raw_len);
                crc = crc32_combine(crc, pcs[i].crc, (z_off_t)pcs[i].raw_len);
            }
            free(pcs[i].out);
            pcs[i].out = NULL;
        }
    }
    if (st == VSG_OK) {
        unsigned char tail[4] = {(unsigned char)(adler >> 24), (unsigned char)(adler >> 16),
                                 (unsigned char)(adler >> 8), (unsigned char)adler};
        if (!write_all(f, tail, 4)) st = vsg_fail(VSG_E_IO, "%s: write failed: %s", tmp, strerror(errno));
        written += 4;
    }
    free(pcs);
    free(raw);
    *csize = written;
    *crc_out = (uint32_t)crc;
    return st;
}

static vsg_status write_file(const vsg_grid *g, FILE *f, const char *tmp)
{
    strbuf h = {0};
    vsg_status st = VSG_OK;
    unsigned char b[32];
    if (!build_header(g, &h)) return vsg_fail(VSG_E_NOMEM, "%s: out of memory for the header", tmp);
    if (h.len > MAX_HEADER) {
        free(h.s);
        return vsg_fail(VSG_E_LIMIT, "%s: metadata too long (%zu bytes, limit %u)", tmp, h.len,
                        (unsigned)MAX_HEADER);
    }
    put_u32(b, VSG_FORMAT_VERSION);
    put_u32(b + 4, (uint32_t)h.len);
    int ok = write_all(f, magic, 8) && write_all(f, b, 8) && write_all(f, h.s, h.len);
    put_u32(b, crc_update((uint32_t)crc32(0L, Z_NULL, 0), (const unsigned char *)h.s, h.len));
    put_u32(b + 4, 1); /* one map */
    put_u32(b + 8, (uint32_t)strlen(MAP_NAME));
    ok = ok && write_all(f, b, 12) && write_all(f, MAP_NAME, strlen(MAP_NAME));
    free(h.s);

    /* Sizes and CRC are known only after compressing: reserve the slot, patch it after. */
    off_t slot = ftello(f);
    memset(b, 0, 20);
    ok = ok && slot >= 0 && write_all(f, b, 20);
    if (!ok) return vsg_fail(VSG_E_IO, "%s: write failed: %s", tmp, strerror(errno));

    uint64_t csize = 0;
    uint32_t crc = 0;
    st = write_map(f, g, tmp, &csize, &crc);
    if (st != VSG_OK) return st;

    put_u64(b, (uint64_t)vsg_grid_nodes(g) * 4u);
    put_u64(b + 8, csize);
    put_u32(b + 16, crc);
    if (fseeko(f, slot, SEEK_SET) != 0 || !write_all(f, b, 20) || fseeko(f, 0, SEEK_END) != 0)
        return vsg_fail(VSG_E_IO, "%s: write failed: %s", tmp, strerror(errno));
    return VSG_OK;
}

vsg_status vsg_vsg_write(const vsg_grid *g, const char *path)
{
    if (!g || !g->data || !path) return vsg_fail(VSG_E_ARG, "vsg_vsg_write: NULL argument");
    size_t pl = strlen(path);
    char *tmp = malloc(pl + 5);
    if (!tmp) return vsg_fail(VSG_E_NOMEM, "%s: out of memory", path);
    memcpy(tmp, path, pl);
    memcpy(tmp + pl, ".tmp", 5);

    vsg_status st;
    FILE *f = fopen(tmp, "wb");
    if (!f) {
        st = vsg_fail(VSG_E_IO, "%s: cannot create: %s", tmp, strerror(errno));
        free(tmp);
        return st;
    }
    st = write_file(g, f, tmp);
    if (fclose(f) != 0 && st == VSG_OK)
        st = vsg_fail(VSG_E_IO, "%s: write failed: %s", tmp, strerror(errno));
    if (st == VSG_OK && rename(tmp, path) != 0)
        st = vsg_fail(VSG_E_IO, "%s: cannot rename to %s: %s", tmp, path, strerror(errno));
    if (st != VSG_OK) remove(tmp);
    free(tmp);
    return st;
}

/* ---- reader ---------------------------------------------------------------------------- */

typedef struct {
    FILE *f;
    const char *path;
    uint64_t size; /* bytes in the file */
} reader;

/* Reads exactly n bytes or fails naming what was being read. */
static vsg_status read_exact(reader *r, void *p, size_t n, const char *what)
{
    size_t got = fread(p, 1, n, r->f);
    if (got == n) return VSG_OK;
    if (ferror(r->f))
        return vsg_fail(VSG_E_IO, "%s: read error in %s: %s", r->path, what, strerror(errno));
    return vsg_fail(VSG_E_FORMAT, "%s: truncated file (in %s)", r->path, what);
}

enum {
    K_VERSION, K_NX, K_NY, K_NZ, K_OX, K_OY, K_OZ, K_SX, K_SY, K_SZ, K_UNITS, K_COUNT
};
static const char *const fixed_keys[K_COUNT] = {
    "vsgrid_version", "nx", "ny", "nz", "origin_x", "origin_y", "origin_z",
    "spacing_x", "spacing_y", "spacing_z", "units"};

typedef struct {
    char *value[K_COUNT]; /* point into the header copy */
    char *meta;           /* the other lines, verbatim */
    size_t meta_len;
} header;

static void trim(char **s, char **e)
{
    while (*s < *e && (**s == ' ' || **s == '\t')) (*s)++;
    while (*e > *s && ((*e)[-1] == ' ' || (*e)[-1] == '\t' || (*e)[-1] == '\r')) (*e)--;
}

/* Splits the header text (modified in place) into fixed keys and metadata lines. */
static vsg_status parse_header(char *text, size_t len, const char *path, header *h)
{
    memset(h, 0, sizeof *h);
    if (memchr(text, '\0', len))
        return vsg_fail(VSG_E_FORMAT, "%s: header contains a NUL byte", path);
    h->meta = malloc(len + 2); /* each line and a '\n' (len + 1 when the last has none), the NUL */
    if (!h->meta) return vsg_fail(VSG_E_NOMEM, "%s: out of memory", path);
    char *p = text, *end = text + len;
    int lineno = 0;
    while (p < end) {
        char *eol = memchr(p, '\n', (size_t)(end - p));
        if (!eol) eol = end;
        lineno++;
        char *eq = memchr(p, '=', (size_t)(eol - p));
        int fixed = -1;
        if (eq) {
            char *ks = p, *ke = eq;
            trim(&ks, &ke);
            for (int k = 0; k < K_COUNT; k++)
                if (!h->value[k] && strlen(fixed_keys[k]) == (size_t)(ke - ks) &&
                    memcmp(ks, fixed_keys[k], (size_t)(ke - ks)) == 0)
                    fixed = k;
        }
        if (fixed >= 0) {
            char *vs = eq + 1, *ve = eol;
            trim(&vs, &ve);
            *ve = '\0'; /* ve ≤ eol, which is '\n' or the end of the allocation's slack */
            h->value[fixed] = vs;
        } else if (eol > p) {
            memcpy(h->meta + h->meta_len, p, (size_t)(eol - p));
            h->meta_len += (size_t)(eol - p);
            h->meta[h->meta_len++] = '\n';
        }
        p = eol + 1;
    }
    h->meta[h->meta_len] = '\0';
    for (int k = 0; k < K_COUNT; k++)
        if (!h->value[k])
            return vsg_fail(VSG_E_FORMAT, "%s: header lacks the key '%s'", path, fixed_keys[k]);
    return VSG_OK;
}

static int parse_int_field(const char *s, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || *end || errno || v < 1 || v > INT_MAX) return 0;
    *out = (int)v;
    return 1;
}

static int parse_double_field(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end || !isfinite(v)) return 0;
    *out = v;
    return 1;
}

/* deflate never compresses better than about 1032:1; a header that claims more values than
 * the file could hold is corrupt, and is refused before a huge allocation. */
#define MAX_RATIO 1100u

/* Builds the grid described by the header (values not yet read). */
static vsg_status grid_from_header(header *h, const reader *r, vsg_grid **out)
{
    const char *path = r->path;
    int n[3];
    double origin[3], spacing[3];
    for (int d = 0; d < 3; d++) {
        if (!parse_int_field(h->value[K_NX + d], &n[d]))
            return vsg_fail(VSG_E_FORMAT, "%s: header: bad %s '%s' (need a positive integer)", path,
                            fixed_keys[K_NX + d], h->value[K_NX + d]);
        if (!parse_double_field(h->value[K_OX + d], &origin[d]))
            return vsg_fail(VSG_E_FORMAT, "%s: header: bad %s '%s'", path, fixed_keys[K_OX + d],
                            h->value[K_OX + d]);
        if (!parse_double_field(h->value[K_SX + d], &spacing[d]) || !(spacing[d] > 0))
            return vsg_fail(VSG_E_FORMAT, "%s: header: bad %s '%s' (need a positive number)", path,
                            fixed_keys[K_SX + d], h->value[K_SX + d]);
    }
    if (strlen(h->value[K_UNITS]) >= sizeof(((vsg_grid *)0)->units))
        return vsg_fail(VSG_E_FORMAT, "%s: header: units '%s' too long", path, h->value[K_UNITS]);
    double bytes = 4.0 * n[0] * n[1] * (double)n[2];
    if (bytes > (double)r->size * MAX_RATIO)
        return vsg_fail(VSG_E_FORMAT, "%s: %d x %d x %d values cannot fit in a %llu-byte file "
                        "(truncated or corrupt)", path, n[0], n[1], n[2],
                        (unsigned long long)r->size);
    vsg_grid *g = vsg_grid_new(n, origin, spacing, h->value[K_UNITS]);
    if (!g) {
        /* vsg_grid_new's message says what failed (memory or size limit); add the file. */
        char why[512];
        snprintf(why, sizeof why, "%s", vsg_last_error());
        vsg_status st = strstr(why, "out of memory") ? VSG_E_NOMEM : VSG_E_LIMIT;
        return vsg_fail(st, "%s: %s", path, why);
    }
    if (h->meta_len > 0) {
        g->meta = h->meta;
        h->meta = NULL;
    }
    *out = g;
    return VSG_OK;
}

/* Inflates C compressed bytes straight into the grid's values (no second copy). */
static vsg_status read_map_data(reader *r, vsg_grid *g, uint64_t csize, uint32_t want_crc)
{
    size_t raw = vsg_grid_nodes(g) * 4;
    unsigned char *dst = (unsigned char *)g->data;
    size_t insz = csize == 0 ? 1 : csize < CHUNK ? (size_t)csize : CHUNK;
    unsigned char *in = malloc(insz);
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    if (!in) return vsg_fail(VSG_E_NOMEM, "%s: out of memory", r->path);
    if (inflateInit(&zs) != Z_OK) {
        free(in);
        return vsg_fail(VSG_E_NOMEM, "%s: cannot start zlib decompression", r->path);
    }
    vsg_status st = VSG_OK;
    uint64_t left = csize;
    size_t produced = 0;
    uint32_t crc = (uint32_t)crc32(0L, Z_NULL, 0);
    int zr = Z_OK;
    while (zr != Z_STREAM_END) {
        if (zs.avail_in == 0) {
            if (left == 0) {
                st = vsg_fail(VSG_E_FORMAT, "%s: compressed data ends early (corrupt map)",
                              r->path);
                break;
            }
            size_t n = left < insz ? (size_t)left : insz;
            st = read_exact(r, in, n, "map data");
            if (st != VSG_OK) break;
            left -= n;
            zs.next_in = in;
            zs.avail_in = (uInt)n;
        }
        size_t room = raw - produced;
        unsigned char spill; /* a stream longer than declared lands here and is caught */
        zs.next_out = room ? dst + produced : &spill;
        zs.avail_out = room ? (uInt)(room < CHUNK ? room : CHUNK) : 1;
        zr = inflate(&zs, Z_NO_FLUSH);
        if (zr != Z_OK && zr != Z_STREAM_END && zr != Z_BUF_ERROR) {
            st = vsg_fail(VSG_E_FORMAT, "%s: corrupt compressed data (zlib: %s)", r->path,
                          zs.msg ? zs.msg : "error");
            break;
        }
        if (!room && zs.avail_out == 0) {
            st = vsg_fail(VSG_E_FORMAT, "%s: map holds more data than its declared size", r->path);
            break;
        }
        size_t got = room ? (size_t)((room < CHUNK ? room : CHUNK) - zs.avail_out) : 0;
        crc = crc_update(crc, dst + produced, got);
        produced += got;
    }
    if (st == VSG_OK && produced != raw)
        st = vsg_fail(VSG_E_FORMAT, "%s: map holds %zu bytes, header says %zu", r->path, produced,
                      raw);
    if (st == VSG_OK && (left > 0 || zs.avail_in > 0))
        st = vsg_fail(VSG_E_FORMAT, "%s: compressed size does not match the stream", r->path);
    if (st == VSG_OK && crc != want_crc)
        st = vsg_fail(VSG_E_FORMAT, "%s: checksum mismatch in the map data (corrupt file)",
                      r->path);
    inflateEnd(&zs);
    free(in);
    if (st == VSG_OK) le_to_floats_inplace(g->data, vsg_grid_nodes(g));
    return st;
}

static vsg_status read_file(reader *r, vsg_grid **out)
{
    unsigned char b[32];
    size_t got = fread(b, 1, 8, r->f);
    if (got == 0 && !ferror(r->f)) return vsg_fail(VSG_E_FORMAT, "%s: empty file", r->path);
    if (got < 8 || memcmp(b, magic, 8) != 0)
        return vsg_fail(VSG_E_FORMAT, "%s: not a vsgrid file (bad magic bytes)", r->path);
    vsg_status st = read_exact(r, b, 8, "file header");
    if (st != VSG_OK) return st;
    uint32_t version = get_u32(b), hlen = get_u32(b + 4);
    if (version == 0 || version > VSG_FORMAT_VERSION)
        return vsg_fail(VSG_E_FORMAT,
                        "%s: format version %u is not supported by vsgrid %s (it reads up to %u)",
                        r->path, (unsigned)version, vsg_version(), (unsigned)VSG_FORMAT_VERSION);
    if (hlen > MAX_HEADER || hlen > r->size)
        return vsg_fail(VSG_E_FORMAT,
                        "%s: header length %u is implausible (truncated or corrupt file)", r->path,
                        (unsigned)hlen);

    char *text = malloc((size_t)hlen + 1);
    if (!text) return vsg_fail(VSG_E_NOMEM, "%s: out of memory", r->path);
    text[hlen] = '\0';
    header h = {0};
    vsg_grid *g = NULL;
    st = read_exact(r, text, hlen, "text header");
    if (st == VSG_OK) st = read_exact(r, b, 8, "header checksum");
    if (st == VSG_OK &&
        crc_update((uint32_t)crc32(0L, Z_NULL, 0), (unsigned char *)text, hlen) != get_u32(b))
        st = vsg_fail(VSG_E_FORMAT, "%s: header checksum mismatch (corrupt file)", r->path);
    uint32_t maps = get_u32(b + 4);
    if (st == VSG_OK && (maps == 0 || maps > MAX_MAPS))
        st = vsg_fail(VSG_E_FORMAT, "%s: implausible map count %u (corrupt file)", r->path,
                      (unsigned)maps);
    if (st == VSG_OK) st = parse_header(text, hlen, r->path, &h);
    if (st == VSG_OK) st = grid_from_header(&h, r, &g);

    int have_potential = 0;
    char name[MAX_NAME + 1];
    for (uint32_t m = 0; st == VSG_OK && m < maps; m++) {
        st = read_exact(r, b, 4, "map name length");
        if (st != VSG_OK) break;
        uint32_t nlen = get_u32(b);
        if (nlen == 0 || nlen > MAX_NAME) {
            st = vsg_fail(VSG_E_FORMAT, "%s: map %u: implausible name length %u", r->path,
                          (unsigned)m, (unsigned)nlen);
            break;
        }
        st = read_exact(r, name, nlen, "map name");
        if (st == VSG_OK) st = read_exact(r, b, 20, "map sizes");
        if (st != VSG_OK) break;
        name[nlen] = '\0';
        uint64_t raw = get_u64(b), csize = get_u64(b + 8);
        uint32_t crc = get_u32(b + 16);
        if (raw != (uint64_t)vsg_grid_nodes(g) * 4u) {
            st = vsg_fail(VSG_E_FORMAT,
                          "%s: map '%s' has %llu bytes, but %d x %d x %d floats need %llu", r->path,
                          name, (unsigned long long)raw, g->n[0], g->n[1], g->n[2],
                          (unsigned long long)vsg_grid_nodes(g) * 4u);
            break;
        }
        if (strcmp(name, MAP_NAME) == 0 && !have_potential) {
            st = read_map_data(r, g, csize, crc);
            have_potential = 1;
        } else if (csize > (uint64_t)INT64_MAX || fseeko(r->f, (off_t)csize, SEEK_CUR) != 0) {
            /* Maps of later versions are skipped; seeking past the end is caught below. */
            st = vsg_fail(VSG_E_FORMAT, "%s: map '%s': bad compressed size", r->path, name);
        }
    }
    if (st == VSG_OK && !have_potential)
        st = vsg_fail(VSG_E_FORMAT, "%s: no '%s' map in the file", r->path, MAP_NAME);
    if (st == VSG_OK) {
        /* Anything after the last map means a size field is wrong, or the file was damaged. */
        off_t pos = ftello(r->f);
        if (pos < 0 || (uint64_t)pos > r->size)
            st = vsg_fail(VSG_E_FORMAT, "%s: truncated file (in a map)", r->path);
        else if ((uint64_t)pos < r->size)
            st = vsg_fail(VSG_E_FORMAT, "%s: %llu unexpected bytes after the last map", r->path,
                          (unsigned long long)(r->size - (uint64_t)pos));
    }
    free(text);
    free(h.meta);
    if (st != VSG_OK) {
        vsg_grid_free(g);
        return st;
    }
    *out = g;
    return VSG_OK;
}

vsg_status vsg_vsg_read(const char *path, vsg_grid **out)
{
    if (!out) return vsg_fail(VSG_E_ARG, "vsg_vsg_read: out is NULL");
    *out = NULL;
    if (!path) return vsg_fail(VSG_E_ARG, "vsg_vsg_read: no path");
    FILE *f = fopen(path, "rb");
    if (!f) return vsg_fail(VSG_E_IO, "%s: cannot open: %s", path, strerror(errno));
    reader r = {f, path, 0};
    off_t end;
    if (fseeko(f, 0, SEEK_END) != 0 || (end = ftello(f)) < 0 || fseeko(f, 0, SEEK_SET) != 0) {
        fclose(f);
        return vsg_fail(VSG_E_IO, "%s: cannot seek: %s", path, strerror(errno));
    }
    r.size = (uint64_t)end;
    vsg_status st = read_file(&r, out);
    fclose(f);
    return st;
}
