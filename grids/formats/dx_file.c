/* dx_file.c — OpenDX regular grids (.dx, .dx.gz), the dialect APBS writes and PyMOL, VMD,
 * ChimeraX and GridDataFormats read:
 *
 *   # comments
 *   object 1 class gridpositions counts nx ny nz
 *   origin x0 y0 z0
 *   delta hx 0 0
 *   delta 0 hy 0
 *   delta 0 0 hz
 *   object 2 class gridconnections counts nx ny nz
 *   object 3 class array type double rank 0 items N data follows
 *   v v v            (3 per line, z fastest: x outer, y middle, z inner loop)
 *   attribute "dep" string "positions"
 *   object "regular positions regular connections" class field
 *   component "positions" value 1
 *   component "connections" value 2
 *   component "data" value 3
 *
 * Our memory layout is x fastest, so both directions transpose, a block of x-planes at a time
 * (the block is read contiguously, not with a stride of nx*ny per value).
 * The reader takes what other writers produce (comments anywhere, "type float", any number of
 * values per line) and refuses what it cannot represent: skewed or flipped axes, vectors,
 * binary data. Values are parsed straight from the read buffer (an exact fast path, strtod
 * otherwise) and written by a formatter that reproduces printf's "%.6e" (see "numbers").
 */
#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "grids/base/vsgrid.h"
#include "grids/formats/grid.h"

#define IO_CHUNK ((size_t)1 << 20)
#define MAX_LINE ((size_t)1 << 20) /* longest header line or number we accept */
#define BLOCK_PLANES 16            /* x-planes transposed at a time: 16 floats = a cache line */

static int ends_with_gz(const char *s)
{
    size_t n = strlen(s);
    return n >= 3 && s[n - 3] == '.' && tolower((unsigned char)s[n - 2]) == 'g' &&
           tolower((unsigned char)s[n - 1]) == 'z';
}

/* ---- numbers ----------------------------------------------------------------------------
 * glibc's printf("%.6e") and strtod cost ~400 ns and ~100 ns a value: minutes for a 300³
 * grid. Both have a fast path here for the common case, and the library call otherwise. */

static const double exact_p10[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                     1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                     1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* v·10^k; each step multiplies or divides by an exact power of ten (|k| ≤ 22 in one step). */
static double scale10(double v, int k)
{
    while (k > 22) { v *= 1e22; k -= 22; }
    while (k < -22) { v /= 1e22; k += 22; }
    return k >= 0 ? v * exact_p10[k] : v / exact_p10[-k];
}

/* Nearest integer, ties to even, as printf rounds. */
static double round_even(double s)
{
    double r = floor(s + 0.5);
    if (r - s == 0.5 && fmod(r, 2.0) != 0.0) r -= 1.0;
    return r;
}

/* "%.6e" of a finite float: 7 significant digits, 2-digit exponent, like printf. The last
 * digit may differ from printf's in rare near-ties, far below the printed precision. */
static int format_e6(char *dst, float f)
{
    double v = f;
    char *p = dst;
    if (signbit(v)) {
        *p++ = '-';
        v = -v;
    }
    int e = 0;
    uint32_t m = 0;
    if (v > 0) {
        e = (int)floor(log10(v));
        double r = round_even(scale10(v, 6 - e));
        if (r >= 1e7) r = round_even(scale10(v, 6 - ++e)); /* log10 rounded up across 10^k */
        if (r < 1e6) r = round_even(scale10(v, 6 - --e));  /* or down */
        m = (uint32_t)r;
    }
    char d[7];
    for (int i = 6; i >= 0; i--) {
        d[i] = (char)('0' + m % 10);
        m /= 10;
    }
    *p++ = d[0];
    *p++ = '.';
    memcpy(p, d + 1, 6);
    p += 6;
    *p++ = 'e';
    *p++ = e < 0 ? '-' : '+';
    unsigned ae = (unsigned)(e < 0 ? -e : e);
    if (ae >= 100) *p++ = (char)('0' + ae / 100);
    *p++ = (char)('0' + ae / 10 % 10);
    *p++ = (char)('0' + ae % 10);
    return (int)(p - dst);
}

/* Parses the whole token [s, s+len) as a number. The fast path takes up to 15 significant
 * digits and a decimal exponent within ±22 of them: one exact multiply or divide, hence the
 * correctly rounded double (Clinger), the same bits as strtod. Anything else goes to strtod.
 * Returns 1 when the whole token is a number. */
static int parse_number(const char *s, size_t len, double *out)
{
    const char *p = s, *end = s + len;
    int neg = 0, digits = 0, frac = 0, any = 0;
    uint64_t m = 0;
    if (p < end && (*p == '-' || *p == '+')) neg = *p++ == '-';
    for (; p < end && *p >= '0' && *p <= '9'; p++, any = 1)
        if (m || *p != '0') m = m * 10 + (uint64_t)(*p - '0'), digits++;
    if (p < end && *p == '.')
        for (p++; p < end && *p >= '0' && *p <= '9'; p++, any = 1) {
            if (m || *p != '0') m = m * 10 + (uint64_t)(*p - '0'), digits++;
            frac++;
            if (digits > 15) break;
        }
    int ex = 0;
    if (any && digits <= 15 && p < end && (*p == 'e' || *p == 'E')) {
        const char *q = p + 1;
        int eneg = 0, edig = 0;
        if (q < end && (*q == '-' || *q == '+')) eneg = *q++ == '-';
        for (; q < end && *q >= '0' && *q <= '9' && edig < 4; q++, edig++)
            ex = ex * 10 + (*q - '0');
        if (edig > 0) p = q;
        if (eneg) ex = -ex;
    }
    int k = ex - frac;
    if (any && digits <= 15 && p == end && k >= -22 && k <= 22) {
        double v = (double)m;
        v = k >= 0 ? v * exact_p10[k] : v / exact_p10[-k];
        *out = neg ? -v : v;
        return 1;
    }
    char *stop;
    *out = strtod(s, &stop); /* s[len] is whitespace or NUL: strtod stops there */
    return stop == end && len > 0;
}

/* ---- writer ---------------------------------------------------------------------------- */

typedef struct {
    gzFile gz;
    const char *path;
    char *buf;
    size_t len;
    int failed;
} dxout;

static void out_flush(dxout *o)
{
    if (o->failed || o->len == 0) return;
    if (gzwrite(o->gz, o->buf, (unsigned)o->len) != (int)o->len) o->failed = 1;
    o->len = 0;
}

/* Room for one more formatted item (a header line or a value). */
static char *out_room(dxout *o, size_t need)
{
    if (o->len + need > IO_CHUNK) out_flush(o);
    return o->buf + o->len;
}

static void out_bytes(dxout *o, const char *s, size_t n)
{
    while (n > 0) {
        size_t take = n < IO_CHUNK / 2 ? n : IO_CHUNK / 2;
        memcpy(out_room(o, take), s, take);
        o->len += take;
        s += take;
        n -= take;
    }
}

static void out_text(dxout *o, const char *s) { out_bytes(o, s, strlen(s)); }

static void out_line(dxout *o, const char *fmt, ...) VSG_PRINTF(2, 3);
static void out_line(dxout *o, const char *fmt, ...)
{
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    out_text(o, line);
}

static void write_header(dxout *o, const vsg_grid *g)
{
    const int *n = g->n;
    out_line(o, "# OpenDX regular grid written by vsgrid %s\n", vsg_version());
    out_line(o, "# units = %.*s\n", (int)sizeof g->units - 1, g->units);
    /* Provenance travels as comments, which every reader skips. */
    for (const char *m = g->meta; m && *m;) {
        const char *eol = strchr(m, '\n');
        size_t len = eol ? (size_t)(eol - m) : strlen(m);
        out_text(o, "# meta: ");
        out_bytes(o, m, len);
        out_text(o, "\n");
        m += len + (eol ? 1 : 0);
    }
    out_line(o, "object 1 class gridpositions counts %d %d %d\n", n[0], n[1], n[2]);
    out_line(o, "origin %.16e %.16e %.16e\n", g->origin[0], g->origin[1], g->origin[2]);
    out_line(o, "delta %.16e 0.000000e+00 0.000000e+00\n", g->spacing[0]);
    out_line(o, "delta 0.000000e+00 %.16e 0.000000e+00\n", g->spacing[1]);
    out_line(o, "delta 0.000000e+00 0.000000e+00 %.16e\n", g->spacing[2]);
    out_line(o, "object 2 class gridconnections counts %d %d %d\n", n[0], n[1], n[2]);
    out_line(o, "object 3 class array type double rank 0 items %zu data follows\n",
             vsg_grid_nodes(g));
}

static void write_footer(dxout *o)
{
    out_text(o, "attribute \"dep\" string \"positions\"\n"
                "object \"regular positions regular connections\" class field\n"
                "component \"positions\" value 1\n"
                "component \"connections\" value 2\n"
                "component \"data\" value 3\n");
}

/* Values in DX order (z fastest), three per line. */
static vsg_status write_values(dxout *o, const vsg_grid *g)
{
    size_t n0 = (size_t)g->n[0], n1 = (size_t)g->n[1], n2 = (size_t)g->n[2];
    size_t n12 = n1 * n2, nodes = vsg_grid_nodes(g), count = 0;
    size_t planes = n0 < BLOCK_PLANES ? n0 : BLOCK_PLANES;
    float *tb = malloc(planes * n12 * sizeof(float));
    if (!tb) return vsg_fail(VSG_E_NOMEM, "%s: out of memory", o->path);
    for (size_t i0 = 0; i0 < n0 && !o->failed; i0 += planes) {
        size_t b = n0 - i0 < planes ? n0 - i0 : planes;
        for (size_t k = 0; k < n2; k++)
            for (size_t j = 0; j < n1; j++) {
                const float *src = g->data + i0 + n0 * (j + n1 * k);
                for (size_t ii = 0; ii < b; ii++) tb[ii * n12 + j * n2 + k] = src[ii];
            }
        for (size_t t = 0; t < b * n12; t++) {
            float v = tb[t];
            if (!isfinite(v)) {
                size_t i = i0 + t / n12, j = (t % n12) / n2, k = t % n2;
                free(tb);
                return vsg_fail(VSG_E_DATA, "%s: value at node (%zu, %zu, %zu) is not finite (%g)",
                                o->path, i, j, k, (double)v);
            }
            char *dst = out_room(o, 32);
            int w = format_e6(dst, v);
            count++;
            dst[w] = (count % 3 == 0 || count == nodes) ? '\n' : ' ';
            o->len += (size_t)w + 1;
        }
    }
    free(tb);
    return VSG_OK;
}

vsg_status vsg_dx_write(const vsg_grid *g, const char *path)
{
    if (!g || !g->data || !path) return vsg_fail(VSG_E_ARG, "vsg_dx_write: NULL argument");
    size_t pl = strlen(path);
    char *tmp = malloc(pl + 5);
    dxout o = {NULL, path, malloc(IO_CHUNK), 0, 0};
    vsg_status st = VSG_OK;
    if (!tmp || !o.buf) {
        free(tmp);
        free(o.buf);
        return vsg_fail(VSG_E_NOMEM, "%s: out of memory", path);
    }
    memcpy(tmp, path, pl);
    memcpy(tmp + pl, ".tmp", 5);
    /* "T": plain text through the same gz calls, so one writer serves .dx and .dx.gz. */
    o.gz = gzopen(tmp, ends_with_gz(path) ? "wb6" : "wbT");
    if (!o.gz) {
        st = vsg_fail(VSG_E_IO, "%s: cannot create: %s", tmp, strerror(errno));
        goto done;
    }
    gzbuffer(o.gz, 256 * 1024);
    write_header(&o, g);
    st = write_values(&o, g);
    if (st == VSG_OK) {
        write_footer(&o);
        out_flush(&o);
    }
    int zerr = Z_OK;
    if (o.failed) gzerror(o.gz, &zerr);
    if (gzclose(o.gz) != Z_OK) o.failed = 1;
    if (st == VSG_OK && o.failed)
        st = vsg_fail(VSG_E_IO, "%s: write failed: %s", tmp,
                      zerr == Z_ERRNO || zerr == Z_OK ? strerror(errno) : "zlib error");
    if (st == VSG_OK && rename(tmp, path) != 0)
        st = vsg_fail(VSG_E_IO, "%s: cannot rename to %s: %s", tmp, path, strerror(errno));
    if (st != VSG_OK) remove(tmp);
done:
    free(tmp);
    free(o.buf);
    return st;
}

/* ---- reader ---------------------------------------------------------------------------- */

typedef struct {
    gzFile gz;
    const char *path;
    char *buf;       /* buf[len] is always '\0', so strtod stops inside the buffer */
    size_t cap, len, pos;
    int eof;
    long newlines;   /* '\n' consumed before pos */
    long line;       /* 1-based line of the item last returned, for messages */
} dxin;

/* Keeps the unread bytes and reads more. VSG_OK, or an error (I/O, corrupt gzip, long line). */
static vsg_status in_fill(dxin *r)
{
    if (r->pos > 0) {
        memmove(r->buf, r->buf + r->pos, r->len - r->pos);
        r->len -= r->pos;
        r->pos = 0;
    }
    if (r->len + 1 >= r->cap) {
        if (r->cap >= MAX_LINE + IO_CHUNK)
            return vsg_fail(VSG_E_FORMAT, "%s:%ld: line longer than %zu bytes", r->path,
                            r->newlines + 1, MAX_LINE);
        char *nb = realloc(r->buf, r->cap * 2);
        if (!nb) return vsg_fail(VSG_E_NOMEM, "%s: out of memory", r->path);
        r->buf = nb;
        r->cap *= 2;
    }
    int n = gzread(r->gz, r->buf + r->len, (unsigned)(r->cap - 1 - r->len));
    int zerr = Z_OK;
    const char *msg = n <= 0 ? gzerror(r->gz, &zerr) : NULL;
    if (n < 0 || (n == 0 && zerr != Z_OK)) {
        if (zerr == Z_ERRNO)
            return vsg_fail(VSG_E_IO, "%s: read error: %s", r->path, strerror(errno));
        return vsg_fail(VSG_E_FORMAT, "%s: truncated or corrupt gzip data (%s)", r->path, msg);
    }
    if (n == 0) r->eof = 1;
    r->len += (size_t)n;
    r->buf[r->len] = '\0';
    return VSG_OK;
}

/* Next line, NUL-terminated in place. 1 = line, 0 = end of file, <0 = error status. */
static int in_line(dxin *r, char **line)
{
    for (;;) {
        char *start = r->buf + r->pos;
        char *nl = memchr(start, '\n', r->len - r->pos);
        if (nl || (r->eof && r->pos < r->len)) {
            char *end = nl ? nl : r->buf + r->len;
            *end = '\0';
            r->line = ++r->newlines; /* a final line without '\n' still counts as a line */
            r->pos = (size_t)(end - r->buf) + (nl ? 1 : 0);
            *line = start;
            return 1;
        }
        if (r->eof) return 0;
        vsg_status st = in_fill(r);
        if (st != VSG_OK) return st;
    }
}

/* Next whitespace-separated token, wherever the line breaks fall. Sets *tok (NUL-terminated by
 * the following byte, which is whitespace or the buffer's end) and *tlen. 1 / 0 (EOF) / <0. */
static int in_token(dxin *r, char **tok, size_t *tlen)
{
    for (;;) {
        while (r->pos < r->len && isspace((unsigned char)r->buf[r->pos])) {
            if (r->buf[r->pos] == '\n') r->newlines++;
            r->pos++;
        }
        if (r->pos < r->len) {
            size_t e = r->pos;
            while (e < r->len && !isspace((unsigned char)r->buf[e])) e++;
            if (e < r->len || r->eof) {
                r->line = r->newlines + 1;
                *tok = r->buf + r->pos;
                *tlen = e - r->pos;
                r->pos = e; /* the whitespace after the token stays: it ends strtod */
                return 1;
            }
        } else if (r->eof) {
            return 0;
        }
        vsg_status st = in_fill(r); /* token cut by the buffer's end: read on */
        if (st != VSG_OK) return st;
    }
}

/* Splits a line into words (quotes stripped). Returns the count (at most max). */
static int split_words(char *s, char **w, int max)
{
    int n = 0;
    while (*s && n < max) {
        while (*s && isspace((unsigned char)*s)) s++;
        if (!*s) break;
        char *start = s;
        while (*s && !isspace((unsigned char)*s)) s++;
        if (*s) *s++ = '\0';
        size_t len = strlen(start);
        if (len >= 2 && start[0] == '"' && start[len - 1] == '"') {
            start[len - 1] = '\0';
            start++;
        }
        w[n++] = start;
    }
    return n;
}

static int word_double(const char *s, double *v)
{
    char *end;
    errno = 0;
    *v = strtod(s, &end);
    return end != s && *end == '\0' && isfinite(*v);
}

static int word_long(const char *s, long long *v)
{
    char *end;
    errno = 0;
    *v = strtoll(s, &end, 10);
    return end != s && *end == '\0' && errno == 0;
}

/* Index of the word after `key`, or -1. */
static int after(char **w, int n, const char *key)
{
    for (int i = 0; i + 1 < n; i++)
        if (strcmp(w[i], key) == 0) return i + 1;
    return -1;
}

typedef struct {
    int have_counts, have_origin, deltas, have_conn;
    int n[3];
    double origin[3], spacing[3];
    char units[16];
    char *meta;
    size_t meta_len, meta_cap;
} dxhead;

static int parse_counts(char **w, int nw, const char *path, long line, int n[3], vsg_status *st)
{
    int at = after(w, nw, "counts");
    if (at < 0 || nw - at != 3) {
        *st = vsg_fail(at >= 0 && nw - at != 3 ? VSG_E_UNSUPPORTED : VSG_E_FORMAT,
                       "%s:%ld: need 'counts nx ny nz' (3D grids only)", path, line);
        return 0;
    }
    for (int d = 0; d < 3; d++) {
        long long v;
        if (!word_long(w[at + d], &v) || v < 1 || v > INT32_MAX) {
            *st = vsg_fail(VSG_E_FORMAT, "%s:%ld: bad grid count '%s'", path, line, w[at + d]);
            return 0;
        }
        n[d] = (int)v;
    }
    return 1;
}

static vsg_status meta_append(dxhead *h, const char *s, const char *path)
{
    size_t len = strlen(s);
    while (len > 0 && isspace((unsigned char)s[len - 1])) len--;
    if (h->meta_len + len + 2 > h->meta_cap) {
        size_t cap = (h->meta_cap ? h->meta_cap * 2 : 256) + len + 2;
        char *m = realloc(h->meta, cap);
        if (!m) return vsg_fail(VSG_E_NOMEM, "%s: out of memory", path);
        h->meta = m;
        h->meta_cap = cap;
    }
    memcpy(h->meta + h->meta_len, s, len);
    h->meta_len += len;
    h->meta[h->meta_len++] = '\n';
    h->meta[h->meta_len] = '\0';
    return VSG_OK;
}

/* Comments: our own units and metadata lines; APBS's "POTENTIAL (kT/e)". */
static vsg_status comment(dxhead *h, const char *c, const char *path)
{
    c++; /* '#' */
    while (*c == ' ' || *c == '\t') c++;
    if (strncmp(c, "units = ", 8) == 0) {
        size_t len = strcspn(c + 8, "\r\n");
        while (len > 0 && isspace((unsigned char)c[8 + len - 1])) len--;
        if (len < sizeof h->units) {
            memcpy(h->units, c + 8, len);
            h->units[len] = '\0';
        }
    } else if (strncmp(c, "meta: ", 6) == 0) {
        return meta_append(h, c + 6, path);
    } else if (!h->units[0] && strstr(c, "(kT/e)")) {
        snprintf(h->units, sizeof h->units, "kT/e");
    }
    return VSG_OK;
}

/* The "object ... class array" line: checks it describes N scalar values that follow. */
static vsg_status array_line(char **w, int nw, const char *path, long line, const dxhead *h,
                             size_t nodes)
{
    int at;
    if (!h->have_counts || !h->have_origin || h->deltas != 3)
        return vsg_fail(VSG_E_FORMAT, "%s:%ld: data before the grid's counts, origin and 3 deltas",
                        path, line);
    if ((at = after(w, nw, "rank")) >= 0 && strcmp(w[at], "0") != 0)
        return vsg_fail(VSG_E_UNSUPPORTED, "%s:%ld: rank %s data (only scalar grids)", path, line,
                        w[at]);
    if ((at = after(w, nw, "shape")) >= 0 && strcmp(w[at], "1") != 0)
        return vsg_fail(VSG_E_UNSUPPORTED, "%s:%ld: shape %s data (only scalar grids)", path, line,
                        w[at]);
    for (int i = 0; i < nw; i++)
        if (strcmp(w[i], "binary") == 0 || strcmp(w[i], "ieee") == 0 || strcmp(w[i], "msb") == 0 ||
            strcmp(w[i], "lsb") == 0)
            return vsg_fail(VSG_E_UNSUPPORTED, "%s:%ld: binary DX data (only text)", path, line);
    if ((at = after(w, nw, "data")) < 0 || strcmp(w[at], "follows") != 0)
        return vsg_fail(VSG_E_UNSUPPORTED, "%s:%ld: data not inline ('data follows' expected)",
                        path, line);
    long long items;
    if ((at = after(w, nw, "items")) < 0 || !word_long(w[at], &items) || items < 0)
        return vsg_fail(VSG_E_FORMAT, "%s:%ld: array without a valid 'items' count", path, line);
    if ((unsigned long long)items != (unsigned long long)nodes)
        return vsg_fail(VSG_E_FORMAT, "%s:%ld: %lld items, but counts %d x %d x %d make %zu", path,
                        line, items, h->n[0], h->n[1], h->n[2], nodes);
    return VSG_OK;
}

/* N values in DX order into the grid, a block of x-planes at a time. */
static vsg_status read_values(dxin *r, vsg_grid *g)
{
    size_t n0 = (size_t)g->n[0], n1 = (size_t)g->n[1], n2 = (size_t)g->n[2];
    size_t n12 = n1 * n2, nodes = vsg_grid_nodes(g), count = 0;
    size_t planes = n0 < BLOCK_PLANES ? n0 : BLOCK_PLANES;
    float *tb = malloc(planes * n12 * sizeof(float));
    if (!tb) return vsg_fail(VSG_E_NOMEM, "%s: out of memory", r->path);
    vsg_status st = VSG_OK;
    for (size_t i0 = 0; i0 < n0 && st == VSG_OK; i0 += planes) {
        size_t b = n0 - i0 < planes ? n0 - i0 : planes;
        for (size_t t = 0; t < b * n12; t++) {
            char *tok = NULL;
            size_t tlen = 0;
            int got = in_token(r, &tok, &tlen);
            if (got < 0) {
                st = (vsg_status)got;
                break;
            }
            /* The footer's keywords where a number should be: the data stopped early. */
            if (got == 0 || strncmp(tok, "attribute", 9) == 0 || strncmp(tok, "object", 6) == 0 ||
                strncmp(tok, "component", 9) == 0) {
                st = vsg_fail(VSG_E_FORMAT, "%s:%ld: only %zu of %zu values", r->path, r->line,
                              count, nodes);
                break;
            }
            double v;
            if (!parse_number(tok, tlen, &v)) {
                st = vsg_fail(VSG_E_FORMAT, "%s:%ld: bad number '%.*s' (value %zu)", r->path,
                              r->line, (int)(tlen < 40 ? tlen : 40), tok, count + 1);
                break;
            }
            if (!isfinite(v) || fabs(v) > FLT_MAX) {
                st = vsg_fail(VSG_E_FORMAT, "%s:%ld: value '%.*s' is not a finite float", r->path,
                              r->line, (int)(tlen < 40 ? tlen : 40), tok);
                break;
            }
            tb[t] = (float)v;
            count++;
        }
        if (st != VSG_OK) break;
        for (size_t k = 0; k < n2; k++)
            for (size_t j = 0; j < n1; j++) {
                float *dst = g->data + i0 + n0 * (j + n1 * k);
                for (size_t ii = 0; ii < b; ii++) dst[ii] = tb[ii * n12 + j * n2 + k];
            }
    }
    free(tb);
    return st;
}

/* After the values: the field/component lines; more numbers mean a count mismatch. Reads to
 * the end so that a truncated gzip trailer is noticed. */
static vsg_status read_trailer(dxin *r, size_t nodes)
{
    char *line = NULL;
    int got;
    while ((got = in_line(r, &line)) == 1) {
        while (isspace((unsigned char)*line)) line++;
        if (*line == '-' || *line == '+' || *line == '.' || isdigit((unsigned char)*line))
            return vsg_fail(VSG_E_FORMAT, "%s:%ld: more values than the %zu items declared",
                            r->path, r->line, nodes);
    }
    return got < 0 ? (vsg_status)got : VSG_OK;
}

static vsg_status read_dx(dxin *r, vsg_grid **out)
{
    dxhead h;
    memset(&h, 0, sizeof h);
    vsg_grid *g = NULL;
    vsg_status st = VSG_OK;
    char *line = NULL, *w[64];
    int got;
    while (st == VSG_OK && !g && (got = in_line(r, &line)) != 0) {
        if (got < 0) {
            st = (vsg_status)got;
            break;
        }
        while (isspace((unsigned char)*line)) line++;
        if (!*line) continue;
        if (*line == '#') {
            st = comment(&h, line, r->path);
            continue;
        }
        int nw = split_words(line, w, 64);
        long ln = r->line;
        if (strcmp(w[0], "object") == 0) {
            int at = after(w, nw, "class");
            const char *cls = at >= 0 ? w[at] : "";
            if (strcmp(cls, "gridpositions") == 0) {
                if (parse_counts(w, nw, r->path, ln, h.n, &st)) h.have_counts = 1;
            } else if (strcmp(cls, "gridconnections") == 0) {
                int c[3];
                if (parse_counts(w, nw, r->path, ln, c, &st)) {
                    if (h.have_counts && (c[0] != h.n[0] || c[1] != h.n[1] || c[2] != h.n[2]))
                        st = vsg_fail(VSG_E_FORMAT,
                                      "%s:%ld: connections counts %d %d %d differ from positions "
                                      "counts %d %d %d", r->path, ln, c[0], c[1], c[2], h.n[0],
                                      h.n[1], h.n[2]);
                    h.have_conn = 1;
                }
            } else if (strcmp(cls, "array") == 0) {
                size_t nodes = h.have_counts
                                   ? (size_t)h.n[0] * (size_t)h.n[1] * (size_t)h.n[2] : 0;
                st = array_line(w, nw, r->path, ln, &h, nodes);
                if (st == VSG_OK) {
                    g = vsg_grid_new(h.n, h.origin, h.spacing, h.units[0] ? h.units : "");
                    if (!g) {
                        char why[512];
                        snprintf(why, sizeof why, "%s", vsg_last_error());
                        st = vsg_fail(strstr(why, "out of memory") ? VSG_E_NOMEM : VSG_E_LIMIT,
                                      "%s: %s", r->path, why);
                    }
                }
            } else if (strcmp(cls, "field") != 0) {
                st = vsg_fail(VSG_E_UNSUPPORTED, "%s:%ld: object class '%s' is not supported",
                              r->path, ln, cls);
            }
        } else if (strcmp(w[0], "origin") == 0) {
            if (nw != 4 || !word_double(w[1], &h.origin[0]) || !word_double(w[2], &h.origin[1]) ||
                !word_double(w[3], &h.origin[2]))
                st = vsg_fail(VSG_E_FORMAT, "%s:%ld: need 'origin x y z' with 3 numbers", r->path,
                              ln);
            else
                h.have_origin = 1;
        } else if (strcmp(w[0], "delta") == 0) {
            double d[3];
            if (nw != 4 || !word_double(w[1], &d[0]) || !word_double(w[2], &d[1]) ||
                !word_double(w[3], &d[2])) {
                st = vsg_fail(VSG_E_FORMAT, "%s:%ld: need 'delta a b c' with 3 numbers", r->path,
                              ln);
            } else if (h.deltas >= 3) {
                st = vsg_fail(VSG_E_FORMAT, "%s:%ld: more than 3 delta lines", r->path, ln);
            } else {
                int a = h.deltas;
                double along = d[a];
                double off = fabs(d[(a + 1) % 3]) + fabs(d[(a + 2) % 3]);
                /* Printed zeros are exact; anything else is a skewed or permuted axis. */
                if (!(along > 0) || off > 1e-9 * along)
                    st = vsg_fail(VSG_E_UNSUPPORTED,
                                  "%s:%ld: delta %g %g %g: only orthogonal grids with positive "
                                  "spacing along x, y, z (in that order) are supported",
                                  r->path, ln, d[0], d[1], d[2]);
                else
                    h.spacing[h.deltas++] = along;
            }
        } else if (strcmp(w[0], "attribute") == 0 || strcmp(w[0], "component") == 0) {
            /* field description: nothing we need */
        } else {
            st = vsg_fail(VSG_E_FORMAT, "%s:%ld: unrecognised line starting '%.40s'", r->path, ln,
                          w[0]);
        }
    }
    if (st == VSG_OK && !g)
        st = vsg_fail(VSG_E_FORMAT, "%s: no 'object ... class array ... data follows' section%s",
                      r->path, h.have_counts ? "" : " (not an OpenDX file?)");
    if (st == VSG_OK && g) st = read_values(r, g);
    if (st == VSG_OK) st = read_trailer(r, vsg_grid_nodes(g));
    if (st == VSG_OK && h.meta_len) {
        g->meta = h.meta;
        h.meta = NULL;
    }
    free(h.meta);
    if (st != VSG_OK) {
        vsg_grid_free(g);
        return st;
    }
    *out = g;
    return VSG_OK;
}

vsg_status vsg_dx_read(const char *path, vsg_grid **out)
{
    if (!out) return vsg_fail(VSG_E_ARG, "vsg_dx_read: out is NULL");
    *out = NULL;
    if (!path) return vsg_fail(VSG_E_ARG, "vsg_dx_read: no path");
    dxin r;
    memset(&r, 0, sizeof r);
    r.path = path;
    r.cap = IO_CHUNK;
    r.buf = malloc(r.cap);
    if (!r.buf) return vsg_fail(VSG_E_NOMEM, "%s: out of memory", path);
    r.buf[0] = '\0';
    r.gz = gzopen(path, "rb"); /* reads plain text and gzip alike */
    if (!r.gz) {
        vsg_status st = vsg_fail(VSG_E_IO, "%s: cannot open: %s", path, strerror(errno));
        free(r.buf);
        return st;
    }
    gzbuffer(r.gz, 256 * 1024);
    vsg_status st = read_dx(&r, out);
    gzclose(r.gz);
    free(r.buf);
    return st;
}
