/* test_read_ahead.c — the read-ahead thread (ligands/readers/read_ahead.h), read with random sizes
 * (1 byte to 3 MiB, across its 1 MiB blocks), gives exactly what the inflater gives when read
 * VSG_READ_AHEAD_BLOCK bytes a call: the same bytes, the same end, the same error and message,
 * the same final offset; on gzip (one and several members), plain bytes, empty input,
 * truncated and corrupt gzip; with its thread and without; and closing early while the thread
 * still reads does not hang. */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "check.h"
#include "ligands/readers/inflate.h"
#include "ligands/readers/read_ahead.h"
#include "testkit.h"

static char dir[] = "/tmp/vsg_read_ahead_XXXXXX";

/* Text-like bytes (compressible, so the gzip members are small and inflate takes time). */
static unsigned char *make_bytes(size_t n)
{
    unsigned char *b = malloc(n ? n : 1);
    for (size_t i = 0; i < n; i++) b[i] = (i % 61 == 60) ? '\n' : (unsigned char)('A' + (int)(urand() * 8.0));
    return b;
}

static void write_file(const char *path, const unsigned char *b, size_t n)
{
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (!f) return;
    CHECK(fwrite(b, 1, n, f) == n || n == 0);
    fclose(f);
}

/* gzip of b in `members` members (as `cat a.gz b.gz` makes), into memory. */
static unsigned char *gzip_members(const unsigned char *b, size_t n, int members, size_t *out_n)
{
    size_t cap = n + 1024 * (size_t)members + 4096, len = 0;
    unsigned char *out = malloc(cap);
    for (int m = 0; m < members; m++) {
        size_t a0 = n * (size_t)m / (size_t)members, a1 = n * (size_t)(m + 1) / (size_t)members;
        z_stream z;
        memset(&z, 0, sizeof z);
        deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
        z.next_in = (unsigned char *)b + a0;
        z.avail_in = (uInt)(a1 - a0);
        z.next_out = out + len;
        z.avail_out = (uInt)(cap - len);
        CHECK(deflate(&z, Z_FINISH) == Z_STREAM_END);
        len += z.total_out;
        deflateEnd(&z);
    }
    *out_n = len;
    return out;
}

typedef struct {
    unsigned char *data;
    size_t n;
    long end;          /* the last read's return: 0 or -1 */
    vsg_status err;
    char msg[240];
    uint64_t offset;
} stream;

static void read_all(const char *path, int ahead, stream *s)
{
    int fd = open(path, O_RDONLY);
    vsg_inflate *z = vsg_inflate_open(fd);
    vsg_read_ahead *r = ahead ? vsg_read_ahead_open(z) : NULL;
    CHECK(z != NULL && (!ahead || r != NULL));
    size_t cap = 1 << 20;
    memset(s, 0, sizeof *s);
    s->data = malloc(cap);
    unsigned char *tmp = malloc(3u << 20);
    for (;;) {
        size_t want = !ahead ? VSG_READ_AHEAD_BLOCK
                      : urand() < 0.3 ? 1 + (size_t)(urand() * 100) : 1 + (size_t)(urand() * (3u << 20));
        long got = ahead ? vsg_read_ahead_read(r, tmp, want) : vsg_inflate_read(z, tmp, want);
        CHECK(got <= (long)want);
        if (got <= 0) {
            s->end = got;
            /* the end and the error are sticky */
            long again = ahead ? vsg_read_ahead_read(r, tmp, 10) : vsg_inflate_read(z, tmp, 10);
            CHECK(again == got);
            break;
        }
        if (s->n + (size_t)got > cap) {
            while (s->n + (size_t)got > cap) cap *= 2;
            s->data = realloc(s->data, cap);
        }
        memcpy(s->data + s->n, tmp, (size_t)got);
        s->n += (size_t)got;
    }
    const char *msg = "";
    s->err = ahead ? vsg_read_ahead_error(r, &msg) : vsg_inflate_error(z, &msg);
    snprintf(s->msg, sizeof s->msg, "%s", msg ? msg : "");
    s->offset = ahead ? vsg_read_ahead_offset(r) : vsg_inflate_offset(z);
    if (ahead) vsg_read_ahead_close(r);
    else vsg_inflate_close(z);
    free(tmp);
}

/* The inflater against the read-ahead with its thread, and without (VSG_READ_AHEAD=0: the
 * reader fills the blocks itself). */
static void same(const char *name, const char *path)
{
    stream a;
    read_all(path, 0, &a);
    for (int threaded = 1; threaded >= 0; threaded--) {
        stream b;
        setenv("VSG_READ_AHEAD", threaded ? "1" : "0", 1);
        read_all(path, 1, &b);
        printf("%-28s %9zu bytes, end %ld (%s) / read-ahead%s %9zu bytes, end %ld (%s)\n", name, a.n, a.end, a.msg,
               threaded ? "" : " (no thread)", b.n, b.end, b.msg);
        CHECK(a.n == b.n && memcmp(a.data, b.data, a.n) == 0);
        CHECK(a.end == b.end);
        CHECK(a.err == b.err);
        CHECK(strcmp(a.msg, b.msg) == 0);
        CHECK(a.offset == b.offset);
        free(b.data);
    }
    setenv("VSG_READ_AHEAD", "1", 1);
    free(a.data);
}

int main(void)
{
    testkit_seed();
    CHECK(mkdtemp(dir) != NULL);
    char path[256];
    const size_t sizes[] = {0, 1, 1000, (1u << 20) - 1, 1u << 20, (1u << 20) + 1, 9u << 20};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        const size_t n = sizes[i];
        unsigned char *b = make_bytes(n);
        char name[64];
        snprintf(path, sizeof path, "%s/plain", dir);
        write_file(path, b, n);
        snprintf(name, sizeof name, "plain %zu", n);
        same(name, path);
        for (int members = 1; members <= 3; members += 2) {
            size_t gn;
            unsigned char *g = gzip_members(b, n, members, &gn);
            snprintf(path, sizeof path, "%s/x.gz", dir);
            write_file(path, g, gn);
            snprintf(name, sizeof name, "gzip %zu, %d member%s", n, members, members > 1 ? "s" : "");
            same(name, path);
            if (n > 1000) {
                write_file(path, g, gn * 2 / 3); /* truncated */
                snprintf(name, sizeof name, "truncated gzip %zu", n);
                same(name, path);
                g[gn / 2] ^= 0x5a; /* corrupt deflate data (or, by chance, only the CRC check fails) */
                write_file(path, g, gn);
                snprintf(name, sizeof name, "corrupt gzip %zu", n);
                same(name, path);
            }
            free(g);
        }
        free(b);
    }
    /* closed early, while the thread still reads ahead: no hang, no leak (the ASan build) */
    {
        unsigned char *b = make_bytes(9u << 20);
        size_t gn;
        unsigned char *g = gzip_members(b, 9u << 20, 1, &gn);
        snprintf(path, sizeof path, "%s/x.gz", dir);
        write_file(path, g, gn);
        int fd = open(path, O_RDONLY);
        vsg_read_ahead *r = vsg_read_ahead_open(vsg_inflate_open(fd));
        unsigned char tmp[100];
        CHECK(r != NULL && vsg_read_ahead_read(r, tmp, sizeof tmp) == (long)sizeof tmp);
        CHECK(memcmp(tmp, b, sizeof tmp) == 0);
        vsg_read_ahead_close(r);
        free(g);
        free(b);
    }
    CHECK(vsg_read_ahead_open(NULL) == NULL);
    snprintf(path, sizeof path, "rm -rf %s", dir);
    if (system(path) != 0) fprintf(stderr, "could not remove %s\n", dir);
    CHECK_EXIT();
}
