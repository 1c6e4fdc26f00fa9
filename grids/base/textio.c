/* textio.c — line reader over zlib's gz* API (plain and gzip files alike) and strict,
 * locale-independent number parsing for the molecule readers. */
#define _POSIX_C_SOURCE 200809L /* dup() for standard input */

#include "grids/base/textio.h"

#include <errno.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "grids/base/vsgrid.h"

#define LINE_MAX_BYTES (1u << 20) /* longer lines are not text we know how to read */
#define GZ_BUFFER (256u * 1024u)  /* zlib's default 8 KiB makes large receptors I/O bound */

struct vsg_lines {
    gzFile gz;
    char *buf;
    size_t cap;
    int line;
    char path[512];
};

vsg_status vsg_lines_open(const char *path, vsg_lines **out)
{
    vsg_lines *r;
    int is_stdin;
    if (!path || !out) return vsg_fail(VSG_E_ARG, "vsg_lines_open: NULL argument");
    *out = NULL;
    r = calloc(1, sizeof *r);
    if (!r) return vsg_fail(VSG_E_NOMEM, "%s: out of memory", path);
    is_stdin = strcmp(path, "-") == 0;
    snprintf(r->path, sizeof r->path, "%s", is_stdin ? "<stdin>" : path);
    errno = 0;
    if (is_stdin) {
        /* dup so that gzclose() does not close the process's standard input */
        int fd = dup(0);
        r->gz = fd >= 0 ? gzdopen(fd, "rb") : NULL;
        if (!r->gz && fd >= 0) close(fd);
    } else {
        r->gz = gzopen(path, "rb");
    }
    if (!r->gz) {
        vsg_status st = vsg_fail(VSG_E_IO, "%s: cannot open: %s", r->path,
                                 errno ? strerror(errno) : "out of memory");
        free(r);
        return st;
    }
    gzbuffer(r->gz, GZ_BUFFER);
    r->cap = 4096;
    r->buf = malloc(r->cap);
    if (!r->buf) {
        gzclose(r->gz);
        free(r);
        return vsg_fail(VSG_E_NOMEM, "%s: out of memory", path);
    }
    *out = r;
    return VSG_OK;
}

/* Turns zlib's sticky error state into a status (VSG_OK when there is none). */
static vsg_status gz_status(vsg_lines *r)
{
    int err = Z_OK;
    const char *msg = gzerror(r->gz, &err);
    switch (err) {
    case Z_OK:
    case Z_STREAM_END:
        return VSG_OK;
    case Z_ERRNO:
        return vsg_fail(VSG_E_IO, "%s:%d: read error: %s", r->path, r->line + 1,
                        strerror(errno));
    case Z_MEM_ERROR:
        return vsg_fail(VSG_E_NOMEM, "%s: out of memory in zlib", r->path);
    default: /* Z_BUF_ERROR: stream cut short; Z_DATA_ERROR: bad data or CRC */
        if (!msg || !*msg) msg = "zlib error";
        {
            /* zlib prefixes its message with the path we already print */
            const char *colon = strstr(msg, ": ");
            if (colon && strncmp(msg, r->path, (size_t)(colon - msg)) == 0) msg = colon + 2;
        }
        return vsg_fail(VSG_E_FORMAT, "%s: truncated or corrupt gzip stream (%s)", r->path, msg);
    }
}

int vsg_lines_next(vsg_lines *r, char **line, size_t *len)
{
    size_t n = 0;
    for (;;) {
        size_t got;
        if (r->cap - n < 2) {
            size_t cap = r->cap * 2;
            char *p;
            if (r->cap >= LINE_MAX_BYTES + 2)
                return vsg_fail(VSG_E_FORMAT, "%s:%d: line longer than 1 MiB", r->path,
                                r->line + 1);
            if (cap > LINE_MAX_BYTES + 2) cap = LINE_MAX_BYTES + 2;
            p = realloc(r->buf, cap);
            if (!p) return vsg_fail(VSG_E_NOMEM, "%s: out of memory", r->path);
            r->buf = p;
            r->cap = cap;
        }
        if (!gzgets(r->gz, r->buf + n, (int)(r->cap - n))) {
            vsg_status st = gz_status(r);
            if (st != VSG_OK) return st;
            if (n == 0) return 0; /* clean end of file */
            break;                /* last line had no newline */
        }
        got = strlen(r->buf + n); /* an embedded NUL ends the line early: garbage in, no crash */
        n += got;
        if (n > 0 && r->buf[n - 1] == '\n') break;
        if (n + 1 < r->cap) {
            /* Short of a newline with room left: end of data. zlib flags a cut-off stream
             * while still handing out the bytes before the cut, so ask now. */
            vsg_status st = gz_status(r);
            if (st != VSG_OK) return st;
            break;
        }
    }
    while (n > 0 && (r->buf[n - 1] == '\n' || r->buf[n - 1] == '\r')) n--;
    r->buf[n] = '\0';
    r->line++;
    if (r->line == 1 && n >= 3 && memcmp(r->buf, "\xEF\xBB\xBF", 3) == 0) {
        /* UTF-8 byte-order mark written by some Windows editors */
        memmove(r->buf, r->buf + 3, n - 2);
        n -= 3;
    }
    *line = r->buf;
    if (len) *len = n;
    return 1;
}

int vsg_lines_number(const vsg_lines *r) { return r ? r->line : 0; }

const char *vsg_lines_path(const vsg_lines *r) { return r ? r->path : ""; }

void vsg_lines_close(vsg_lines *r)
{
    if (!r) return;
    if (r->gz) gzclose(r->gz);
    free(r->buf);
    free(r);
}

/* ---- numbers ------------------------------------------------------------------------ */

static void trim(const char **s, size_t *len)
{
    const char *p = *s;
    size_t n = *len;
    while (n > 0 && (*p == ' ' || *p == '\t')) p++, n--;
    while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == '\t' || p[n - 1] == '\r')) n--;
    *s = p;
    *len = n;
}

/* Powers of ten that are exact doubles (Clinger's fast path). */
static const double exact_pow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                     1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                     1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

int vsg_parse_double(const char *s, size_t len, double *out)
{
    const char *p, *end;
    int neg = 0, digits = 0, inexact = 0, exp10 = 0;
    uint64_t mant = 0;
    double v;
    if (!s) return 0;
    trim(&s, &len);
    if (len == 0 || len > 64) return 0;
    p = s;
    end = s + len;
    if (*p == '+' || *p == '-') neg = *p++ == '-';
    /* The grammar is checked here, so strtod never sees "inf", "nan" or hex floats. */
    for (; p < end && *p >= '0' && *p <= '9'; p++, digits++) {
        if (mant < UINT64_C(100000000000000000)) mant = mant * 10 + (uint64_t)(*p - '0');
        else exp10++, inexact |= *p != '0';
    }
    if (p < end && *p == '.') {
        for (p++; p < end && *p >= '0' && *p <= '9'; p++, digits++) {
            if (mant < UINT64_C(100000000000000000)) mant = mant * 10 + (uint64_t)(*p - '0'), exp10--;
            else inexact |= *p != '0';
        }
    }
    if (digits == 0) return 0;
    if (p < end && (*p == 'e' || *p == 'E')) {
        int eneg = 0, edigits = 0, e = 0;
        p++;
        if (p < end && (*p == '+' || *p == '-')) eneg = *p++ == '-';
        for (; p < end && *p >= '0' && *p <= '9'; p++, edigits++)
            if (e < 100000) e = e * 10 + (*p - '0');
        if (edigits == 0) return 0;
        exp10 += eneg ? -e : e;
    }
    if (p != end) return 0;
    if (!inexact && mant <= (UINT64_C(1) << 53) && exp10 >= -22 && exp10 <= 22) {
        /* one correctly rounded operation on two exact values: exact result, no locale */
        v = (double)mant;
        v = exp10 >= 0 ? v * exact_pow10[exp10] : v / exact_pow10[-exp10];
        if (neg) v = -v;
    } else {
        /* rare (long mantissas, big exponents): strtod, with the locale's decimal point */
        char buf[72], *stop;
        const char *dp = localeconv()->decimal_point;
        size_t i;
        memcpy(buf, s, len);
        buf[len] = '\0';
        for (i = 0; i < len; i++)
            if (buf[i] == '.' && dp && dp[0] && !dp[1]) buf[i] = dp[0];
        errno = 0;
        v = strtod(buf, &stop);
        if (stop != buf + len) return 0;
    }
    if (!isfinite(v)) return 0;
    *out = v;
    return 1;
}

int vsg_parse_int(const char *s, size_t len, int *out)
{
    const char *p, *end;
    int neg = 0;
    long long v = 0;
    if (!s) return 0;
    trim(&s, &len);
    if (len == 0) return 0;
    p = s;
    end = s + len;
    if (*p == '+' || *p == '-') neg = *p++ == '-';
    if (p == end) return 0;
    for (; p < end; p++) {
        if (*p < '0' || *p > '9') return 0;
        v = v * 10 + (*p - '0');
        if (v > (long long)INT_MAX + 1) return 0;
    }
    if (neg) v = -v;
    if (v > INT_MAX || v < INT_MIN) return 0;
    *out = (int)v;
    return 1;
}

int vsg_tokenize(const char *s, size_t len, vsg_token *tok, int max)
{
    size_t i = 0;
    int n = 0;
    while (i < len) {
        size_t start;
        while (i < len && (s[i] == ' ' || s[i] == '\t')) i++;
        if (i == len) break;
        start = i;
        while (i < len && s[i] != ' ' && s[i] != '\t') i++;
        if (n < max) tok[n].s = s + start, tok[n].n = i - start;
        n++;
    }
    return n;
}

int vsg_is_record(const char *line, size_t len, const char *name)
{
    size_t n = strlen(name);
    return len >= n && memcmp(line, name, n) == 0 && (len == n || line[n] == ' ' || line[n] == '\t');
}
