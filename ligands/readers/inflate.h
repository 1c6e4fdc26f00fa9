/* inflate.h — the byte source under the ligand reader: reads a file descriptor, inflating gzip
 * (one or more concatenated members) and passing any other bytes through as they are.
 *
 * Why an interface of its own: inflating is most of the time spent parsing a gzipped library,
 * and Intel ISA-L's igzip does it 2–4× faster than zlib. Builds with ISA-L (VSG_HAVE_ISAL) use
 * it, the others zlib's gz* functions; the reader sees the same bytes, the same errors (a stream
 * that ends early, bad deflate data, a bad CRC or length trailer) and the same progress. */
#ifndef VSG_INFLATE_H
#define VSG_INFLATE_H

#include <stddef.h>
#include <stdint.h>

#include "grids/base/vsgrid.h"

typedef struct vsg_inflate vsg_inflate;

/* A source over fd, which it owns (vsg_inflate_close closes it, also on failure here).
 * NULL when out of memory. */
vsg_inflate *vsg_inflate_open(int fd);

/* A source over fd that passes its bytes through as they are, never inflating (a plain file
 * read from the middle, where bytes that look like the gzip magic are text): fd is read from
 * where it stands, and `offset` (where that is) counts as consumed for vsg_inflate_offset.
 * NULL when out of memory (fd closed). */
vsg_inflate *vsg_inflate_open_plain(int fd, uint64_t offset);

/* Up to n bytes into buf: the count (> 0), 0 at the end of the input, -1 on an error, which is
 * sticky (vsg_inflate_error says what). When the input ends early, the bytes inflated before
 * come out first and the next call reports the error; a call that finds bad data or a bad CRC or
 * length trailer returns -1 at once, dropping what it inflated (zlib's gzread does the same). */
long vsg_inflate_read(vsg_inflate *z, void *buf, size_t n);

/* The error of the last failed read: VSG_E_IO, and a one-line message without
 * the file's name ("truncated or corrupt gzip data (unexpected end of file)"); VSG_OK if none. */
vsg_status vsg_inflate_error(const vsg_inflate *z, const char **msg);

/* Bytes of the file consumed so far (compressed bytes for gzip), for progress. */
uint64_t vsg_inflate_offset(const vsg_inflate *z);

void vsg_inflate_close(vsg_inflate *z);

/* "isa-l" or "zlib": the library that inflates in this build. */
const char *vsg_inflate_library(void);

#endif
