/* read_ahead.h — a thread that reads (and inflates) an input ahead of its consumer.
 *
 * Why: in a parallel parse one thread cuts the input into chunks for the parse workers, and
 * with a gzipped library that thread also inflated it: ~830 MB/s of ISA-L output plus ~1.7 GB/s
 * of cutting, one after the other, set the pace of the whole screen. With the inflating moved
 * to a thread of its own the two overlap, and the pace is the slower of them (inflating a
 * single gzip stream, which cannot be split).
 *
 * The consumer sees exactly what vsg_inflate_read would have given it: the same bytes in the
 * same order, the same end, the same error at the same place (after the bytes that came
 * before it) as a consumer that asked for VSG_READ_AHEAD_BLOCK bytes a call; whatever sizes
 * the consumer asks for, it gets the same stream (an inflater that meets corrupt data drops
 * what that call inflated, so without the fixed block the bytes before the error would
 * depend on the consumer's read sizes). Memory: 4 blocks. */
#ifndef VSG_READ_AHEAD_H
#define VSG_READ_AHEAD_H

#include <stddef.h>
#include <stdint.h>

#include "grids/base/vsgrid.h"
#include "ligands/readers/inflate.h"

#define VSG_READ_AHEAD_BLOCK (1u << 20)

typedef struct vsg_read_ahead vsg_read_ahead;

/* Starts reading z ahead. The read-ahead owns z from here on (vsg_read_ahead_close closes it);
 * NULL when no memory can be had, and then z is still the caller's. Without a thread (none
 * could start, or the environment says VSG_READ_AHEAD=0) it reads the same blocks in the
 * caller's thread, when they are needed. */
vsg_read_ahead *vsg_read_ahead_open(vsg_inflate *z);

/* As vsg_inflate_read: the count (> 0), 0 at the end, -1 on an error (sticky). */
long vsg_read_ahead_read(vsg_read_ahead *r, void *buf, size_t n);

/* As vsg_inflate_error, for the error that the last read returned. */
vsg_status vsg_read_ahead_error(const vsg_read_ahead *r, const char **msg);

/* Input bytes consumed up to the data handed out so far (vsg_inflate_offset at that point). */
uint64_t vsg_read_ahead_offset(const vsg_read_ahead *r);

/* Stops the thread and closes the inflater. */
void vsg_read_ahead_close(vsg_read_ahead *r);

#endif
