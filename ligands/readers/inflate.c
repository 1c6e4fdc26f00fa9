/* inflate.c — the ligand reader's byte source (inflate.h): ISA-L's igzip when the build has it
 * (VSG_HAVE_ISAL), zlib's gz* functions otherwise.
 *
 * The ISA-L source follows zlib's gzread so that both builds read files alike: a file that does
 * not start with the gzip magic passes through as it is; after a gzip member another member
 * follows if the gzip magic does, and anything else after a member is ignored (zlib ignores
 * trailing garbage too); a stream that ends inside a member, bad deflate data and a trailer
 * whose CRC or length disagrees are errors, worded as zlib's are. As with zlib, the bytes a
 * read inflated before the stream ran out come out before the error, while a read that finds
 * bad data or a bad check hands out nothing of what it inflated (they are suspect). */
#define _POSIX_C_SOURCE 200809L /* read(), close() */

#include "ligands/readers/inflate.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define INFLATE_IN (256u * 1024u) /* compressed bytes per read(): few calls, fits in L2 */

#ifdef VSG_HAVE_ISAL

#include <isa-l/igzip_lib.h>

enum { MODE_START, MODE_GZIP, MODE_PLAIN, MODE_DONE };

struct vsg_inflate {
    int fd;
    int mode;
    int in_eof;            /* read() said end of file */
    uint64_t file_read;    /* bytes read from fd */
    unsigned char *in;     /* bytes read, not yet consumed: [next, next + avail) */
    unsigned char *next;   /* plain mode's cursor (gzip mode keeps its own in st) */
    size_t avail;
    vsg_status err;
    char msg[160];
    struct inflate_state st; /* ~90 KiB: the whole struct lives on the heap */
};

const char *vsg_inflate_library(void) { return "isa-l"; }

vsg_inflate *vsg_inflate_open(int fd)
{
    vsg_inflate *z = calloc(1, sizeof *z);
    if (z) z->in = malloc(INFLATE_IN);
    if (!z || !z->in) {
        free(z);
        close(fd);
        return NULL;
    }
    z->fd = fd;
    z->next = z->in;
    return z;
}

vsg_inflate *vsg_inflate_open_plain(int fd, uint64_t offset)
{
    vsg_inflate *z = vsg_inflate_open(fd);
    if (!z) return NULL;
    z->mode = MODE_PLAIN;
    z->file_read = offset;
    return z;
}

static long fail(vsg_inflate *z, vsg_status st, const char *what)
{
    z->err = st;
    snprintf(z->msg, sizeof z->msg, "%s", what);
    return -1;
}

/* Moves the unconsumed bytes [*next, +*avail) to the front and reads more after them, until
 * at least `want` are there or the file ends. 0 ok (maybe fewer at the end), -1 read error. */
static int refill(vsg_inflate *z, unsigned char **next, size_t *avail, size_t want)
{
    if (*avail && *next != z->in) memmove(z->in, *next, *avail);
    *next = z->in;
    while (*avail < want && !z->in_eof) {
        ssize_t n = read(z->fd, z->in + *avail, INFLATE_IN - *avail);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            char why[120];
            snprintf(why, sizeof why, "read error: %s", strerror(errno));
            fail(z, VSG_E_IO, why);
            return -1;
        }
        if (n == 0) z->in_eof = 1;
        *avail += (size_t)n;
        z->file_read += (uint64_t)n;
    }
    return 0;
}

static int is_gzip_magic(const unsigned char *p, size_t n)
{
    return n >= 2 && p[0] == 0x1f && p[1] == 0x8b;
}

/* Starts inflating a member at st.next_in (the magic there, 4 header bytes read if the file has
 * them); 0, or -1 for header flags gzip does not define, which zlib refuses and isal_inflate
 * would skip over. */
static int member_start(vsg_inflate *z)
{
    if (z->st.avail_in >= 4 && (z->st.next_in[3] & 0xe0))
        return (int)fail(z, VSG_E_IO, "truncated or corrupt gzip data (unknown header flags set)");
    isal_inflate_reset(&z->st);
    z->st.crc_flag = ISAL_GZIP; /* parse the header, check the CRC and length trailer */
    return 0;
}

static const char *isal_what(int r)
{
    switch (r) {
    case ISAL_INVALID_BLOCK: return "truncated or corrupt gzip data (invalid deflate block)";
    case ISAL_INVALID_SYMBOL: return "truncated or corrupt gzip data (invalid code)";
    case ISAL_INVALID_LOOKBACK: return "truncated or corrupt gzip data (invalid distance too far back)";
    case ISAL_INVALID_WRAPPER: return "truncated or corrupt gzip data (invalid gzip header)";
    case ISAL_UNSUPPORTED_METHOD: return "truncated or corrupt gzip data (unknown compression method)";
    case ISAL_INCORRECT_CHECKSUM: return "truncated or corrupt gzip data (incorrect data check)";
    case ISAL_NEED_DICT: return "truncated or corrupt gzip data (needs a preset dictionary)";
    default: return "truncated or corrupt gzip data (inflate error)";
    }
}

static long read_gzip(vsg_inflate *z, unsigned char *buf, size_t n)
{
    struct inflate_state *st = &z->st;
    size_t out = 0;
    while (out < n) {
        size_t avail = st->avail_in;
        int r;
        if (st->block_state == ISAL_BLOCK_FINISH) { /* a member ended: another one, or the end */
            if (avail < 4 && !z->in_eof) {
                if (refill(z, &st->next_in, &avail, 4) < 0) break;
                st->avail_in = (uint32_t)avail;
            }
            if (!is_gzip_magic(st->next_in, avail)) { /* end of input, or trailing bytes zlib ignores too */
                z->mode = MODE_DONE;
                break;
            }
            if (member_start(z) < 0) return -1; /* bad data: as in isal_what's cases */
            continue;
        }
        if (avail == 0 && !z->in_eof) {
            if (refill(z, &st->next_in, &avail, 1) < 0) break;
            st->avail_in = (uint32_t)avail;
        }
        st->next_out = buf + out;
        st->avail_out = (uint32_t)(n - out);
        r = isal_inflate(st);
        out = n - st->avail_out;
        if (r < 0) /* bad data or check: like zlib, what this call inflated is not handed out */
            return fail(z, VSG_E_IO, isal_what(r));
        /* isal_inflate stops when the input is used up, the output is full or the member ends:
         * input used up at the end of the file inside a member is a stream cut short */
        if (st->block_state != ISAL_BLOCK_FINISH && st->avail_out > 0 && st->avail_in == 0 && z->in_eof) {
            fail(z, VSG_E_IO, "truncated or corrupt gzip data (unexpected end of file)");
            break;
        }
    }
    if (out > 0) return (long)out; /* an error waits for the next call */
    return z->err ? -1 : 0;
}

long vsg_inflate_read(vsg_inflate *z, void *buf, size_t n)
{
    if (z->err) return -1;
    if (n > (1u << 30)) n = 1u << 30; /* the counts of isal_inflate are 32-bit */
    if (z->mode == MODE_START) {
        if (refill(z, &z->next, &z->avail, 4) < 0) return -1;
        if (is_gzip_magic(z->next, z->avail)) {
            isal_inflate_init(&z->st);
            z->st.next_in = z->next;
            z->st.avail_in = (uint32_t)z->avail;
            z->mode = MODE_GZIP;
            if (member_start(z) < 0) return -1;
        } else {
            z->mode = MODE_PLAIN;
        }
    }
    if (z->mode == MODE_GZIP) return read_gzip(z, buf, n);
    if (z->mode == MODE_PLAIN) {
        if (z->avail > 0) { /* the bytes read to look for the magic */
            size_t k = z->avail < n ? z->avail : n;
            memcpy(buf, z->next, k);
            z->next += k;
            z->avail -= k;
            return (long)k;
        }
        for (;;) {
            ssize_t k = read(z->fd, buf, n);
            if (k < 0 && errno == EINTR) continue;
            if (k < 0) {
                char why[120];
                snprintf(why, sizeof why, "read error: %s", strerror(errno));
                return fail(z, VSG_E_IO, why);
            }
            z->file_read += (uint64_t)k;
            return (long)k;
        }
    }
    return 0;
}

uint64_t vsg_inflate_offset(const vsg_inflate *z)
{
    /* after an error isal_inflate's avail_in means nothing: the file counts as read */
    size_t pending = z->err || z->mode == MODE_DONE ? 0 : z->mode == MODE_GZIP ? z->st.avail_in : z->avail;
    return pending < z->file_read ? z->file_read - pending : 0;
}

void vsg_inflate_close(vsg_inflate *z)
{
    if (!z) return;
    close(z->fd);
    free(z->in);
    free(z);
}

#else /* zlib */

#include <zlib.h>

struct vsg_inflate {
    gzFile gz;             /* NULL for a plain source (vsg_inflate_open_plain) */
    int fd;                /* the plain source's */
    uint64_t file_read;    /* ... and its offset */
    vsg_status err;
    char msg[160];
};

const char *vsg_inflate_library(void) { return "zlib"; }

vsg_inflate *vsg_inflate_open(int fd)
{
    vsg_inflate *z = calloc(1, sizeof *z);
    if (z) z->gz = gzdopen(fd, "rb");
    if (!z || !z->gz) {
        free(z);
        close(fd);
        return NULL;
    }
    gzbuffer(z->gz, INFLATE_IN); /* zlib's 8 KiB default makes reading I/O-call bound */
    return z;
}

vsg_inflate *vsg_inflate_open_plain(int fd, uint64_t offset)
{
    vsg_inflate *z = calloc(1, sizeof *z);
    if (!z) {
        close(fd);
        return NULL;
    }
    z->fd = fd;
    z->file_read = offset;
    return z;
}

/* A plain source's read: the bytes as they are. */
static long read_plain(vsg_inflate *z, void *buf, size_t n)
{
    for (;;) {
        ssize_t k = read(z->fd, buf, n);
        if (k < 0 && errno == EINTR) continue;
        if (k < 0) {
            z->err = VSG_E_IO;
            snprintf(z->msg, sizeof z->msg, "read error: %s", strerror(errno));
            return -1;
        }
        z->file_read += (uint64_t)k;
        return (long)k;
    }
}

/* Sets the sticky error from zlib's state; 1 if there was one. */
static int gz_check(vsg_inflate *z)
{
    int e = Z_OK;
    const char *msg = gzerror(z->gz, &e);
    if (e == Z_OK || e == Z_STREAM_END) return 0;
    z->err = VSG_E_IO; /* as an io record, whatever zlib's reason */
    if (e == Z_ERRNO)
        snprintf(z->msg, sizeof z->msg, "read error: %s", strerror(errno));
    else if (e == Z_MEM_ERROR)
        snprintf(z->msg, sizeof z->msg, "out of memory in zlib");
    else {
        /* Z_BUF_ERROR: the stream ends early; Z_DATA_ERROR: bad data or CRC. zlib's message
         * starts with the path, which the record's message already names. */
        const char *colon = msg ? strstr(msg, ": ") : NULL;
        if (colon) msg = colon + 2;
        snprintf(z->msg, sizeof z->msg, "truncated or corrupt gzip data (%s)", msg && *msg ? msg : "zlib error");
    }
    return 1;
}

long vsg_inflate_read(vsg_inflate *z, void *buf, size_t n)
{
    int k;
    if (z->err) return -1;
    if (!z->gz) return read_plain(z, buf, n > (1u << 30) ? (1u << 30) : n);
    k = gzread(z->gz, buf, (unsigned)(n > (1u << 30) ? (1u << 30) : n));
    if (k > 0) {
        gz_check(z); /* a stream cut short: the bytes before come out, the error waits */
        return k;
    }
    if (gz_check(z)) return -1;
    if (k < 0) { /* an error zlib did not name */
        z->err = VSG_E_IO;
        snprintf(z->msg, sizeof z->msg, "read error");
        return -1;
    }
    return 0;
}

uint64_t vsg_inflate_offset(const vsg_inflate *z)
{
    if (!z->gz) return z->file_read;
    z_off_t o = gzoffset(z->gz);
    return o > 0 ? (uint64_t)o : 0;
}

void vsg_inflate_close(vsg_inflate *z)
{
    if (!z) return;
    if (z->gz) gzclose(z->gz);
    else close(z->fd);
    free(z);
}

#endif

vsg_status vsg_inflate_error(const vsg_inflate *z, const char **msg)
{
    if (msg) *msg = z && z->err ? z->msg : "";
    return z ? z->err : VSG_OK;
}
