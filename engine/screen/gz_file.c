/* gz_file.c — files that may be gzipped, as stdio streams (vsgrid.h, vsg_fopen_out / vsg_fopen_in):
 * a path ending in .gz is deflated (gzip, level 6) on write and inflated (every member of a
 * multi-member file) on read behind a FILE* made with glibc's fopencookie, so the code that writes
 * CSV rows and poses keeps using fprintf / fputs / getline on it; any other path is a plain file,
 * "-" standard output / input.
 *
 * Determinism: the compressor is fed in blocks of exactly GZ_BLOCK bytes (the last one shorter),
 * whatever pieces stdio hands over (fputc, fprintf, fflush in between), so the same text gives
 * the same .gz bytes. The gzip header carries no name and time 0 (as `gzip -n`).
 * Errors: NULL with errno set (EINVAL: a bad mode; ENOMEM; open's errno). A write error (disk
 * full) sticks: later writes fail and fclose returns EOF with errno set. On read, a truncated or
 * corrupt gzip stream sets the stream's error flag (ferror) with errno EIO; getline then returns
 * -1 as at the end, so a reader checks ferror before trusting an end. */
#define _GNU_SOURCE /* fopencookie (this file only) */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <zlib.h>

#include "grids/base/vsgrid.h"

#define GZ_BLOCK (256u * 1024u) /* input bytes per deflate call */
#define GZ_OUT (256u * 1024u)   /* compressed bytes per write */
#define GZ_IN (256u * 1024u)    /* zlib's read buffer */
#define GZ_LEVEL 6

static int is_gz(const char *path)
{
    const size_t n = strlen(path);
    return n > 3 && !strcasecmp(path + n - 3, ".gz");
}

/* ---- writing ------------------------------------------------------------------------------ */

typedef struct {
    int fd;
    z_stream z;
    unsigned char *in, *out;
    size_t nin;
    int err; /* errno of the first failure, 0 while all is well */
} gz_writer;

static int write_all(int fd, const unsigned char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0) {
            if (errno == EINTR) continue;
            return errno ? errno : EIO;
        }
        p += w, n -= (size_t)w;
    }
    return 0;
}

/* Deflates the buffered input (flush: Z_NO_FLUSH for a full block, Z_FINISH at the end). */
static int gz_deflate(gz_writer *w, int flush)
{
    w->z.next_in = w->in;
    w->z.avail_in = (uInt)w->nin;
    for (;;) {
        w->z.next_out = w->out;
        w->z.avail_out = GZ_OUT;
        const int zr = deflate(&w->z, flush);
        if (zr == Z_STREAM_ERROR) return EIO;
        const size_t have = GZ_OUT - w->z.avail_out;
        const int e = have ? write_all(w->fd, w->out, have) : 0;
        if (e) return e;
        if (flush == Z_FINISH ? zr == Z_STREAM_END : w->z.avail_in == 0 && w->z.avail_out != 0) break;
    }
    w->nin = 0;
    return 0;
}

static ssize_t gz_write(void *cookie, const char *buf, size_t size)
{
    gz_writer *w = cookie;
    if (w->err) {
        errno = w->err;
        return -1;
    }
    size_t done = 0;
    while (done < size) {
        size_t take = GZ_BLOCK - w->nin;
        if (take > size - done) take = size - done;
        memcpy(w->in + w->nin, buf + done, take);
        w->nin += take, done += take;
        if (w->nin == GZ_BLOCK && (w->err = gz_deflate(w, Z_NO_FLUSH)) != 0) {
            errno = w->err;
            return -1;
        }
    }
    return (ssize_t)size;
}

static int gz_close_writer(void *cookie)
{
    gz_writer *w = cookie;
    int e = w->err;
    if (!e) e = gz_deflate(w, Z_FINISH);
    deflateEnd(&w->z);
    if (close(w->fd) != 0 && !e) e = errno ? errno : EIO;
    free(w->in), free(w->out), free(w);
    if (e) {
        errno = e;
        return -1;
    }
    return 0;
}

static FILE *open_gz_out(const char *path, int append)
{
    gz_writer *w = calloc(1, sizeof *w);
    if (w) w->in = malloc(GZ_BLOCK), w->out = malloc(GZ_OUT);
    if (!w || !w->in || !w->out) {
        if (w) free(w->in), free(w->out);
        free(w);
        errno = ENOMEM;
        return NULL;
    }
    /* windowBits 15 + 16: a gzip wrapper; zlib writes time 0, no name, OS unix */
    if (deflateInit2(&w->z, GZ_LEVEL, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
        free(w->in), free(w->out), free(w);
        errno = ENOMEM;
        return NULL;
    }
    w->fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | (append ? O_APPEND : O_TRUNC), 0666);
    if (w->fd < 0) {
        const int e = errno;
        deflateEnd(&w->z);
        free(w->in), free(w->out), free(w);
        errno = e;
        return NULL;
    }
    cookie_io_functions_t io = {NULL, gz_write, NULL, gz_close_writer};
    FILE *f = fopencookie(w, "w", io);
    if (!f) {
        const int e = errno ? errno : ENOMEM;
        deflateEnd(&w->z);
        close(w->fd);
        free(w->in), free(w->out), free(w);
        errno = e;
        return NULL;
    }
    setvbuf(f, NULL, _IOFBF, 64 * 1024);
    return f;
}

/* Standard output or input as a stream of its own (a duplicate descriptor): fclose reports its
 * write errors and leaves stdout / stdin open. */
static FILE *open_std(int fd, const char *mode)
{
    if (fd == 1) fflush(stdout);
    const int d = dup(fd);
    if (d < 0) return NULL;
    FILE *f = fdopen(d, mode);
    if (!f) {
        const int e = errno;
        close(d);
        errno = e;
    }
    return f;
}

FILE *vsg_fopen_out(const char *path, const char *mode)
{
    if (!path || !mode || (mode[0] != 'w' && mode[0] != 'a') || (mode[1] && strcmp(mode + 1, "b"))) {
        errno = EINVAL;
        return NULL;
    }
    if (!strcmp(path, "-")) return open_std(1, "w");
    if (is_gz(path)) return open_gz_out(path, mode[0] == 'a');
    return fopen(path, mode);
}

/* ---- reading ------------------------------------------------------------------------------ */

static ssize_t gz_read(void *cookie, char *buf, size_t size)
{
    gzFile g = cookie;
    if (size > INT_MAX / 2) size = INT_MAX / 2;
    const int n = gzread(g, buf, (unsigned)size);
    int zerr = Z_OK;
    if (n == 0) gzerror(g, &zerr); /* zlib ends a cut stream with 0 and Z_BUF_ERROR: not an end */
    if (n < 0 || zerr != Z_OK) {
        errno = EIO; /* truncated or corrupt: "unexpected end of file", "invalid ..." */
        return -1;
    }
    return n;
}

static int gz_close_reader(void *cookie)
{
    const int r = gzclose_r((gzFile)cookie);
    if (r != Z_OK) {
        errno = r == Z_ERRNO ? (errno ? errno : EIO) : EIO;
        return -1;
    }
    return 0;
}

FILE *vsg_fopen_in(const char *path)
{
    if (!path) {
        errno = EINVAL;
        return NULL;
    }
    if (!strcmp(path, "-")) return open_std(0, "r");
    if (!is_gz(path)) return fopen(path, "r");
    const int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return NULL;
    gzFile g = gzdopen(fd, "rb"); /* every member, one after the other (multi-member files) */
    if (!g) {
        close(fd);
        errno = ENOMEM;
        return NULL;
    }
    gzbuffer(g, GZ_IN);
    cookie_io_functions_t io = {gz_read, NULL, NULL, gz_close_reader};
    FILE *f = fopencookie(g, "r", io);
    if (!f) {
        const int e = errno ? errno : ENOMEM;
        gzclose_r(g);
        errno = e;
        return NULL;
    }
    setvbuf(f, NULL, _IOFBF, 64 * 1024);
    return f;
}
