/* line_source.h — the ligand reader's buffered line source over the read-ahead inflater
 * (read_ahead.h: ISA-L or zlib) or memory. Why not grids/textio: lines are handed out in place
 * (no copy per line: the parsers are the bottleneck of a screen), the compressed offset is
 * known for progress/ETA, and fuzzing reads from memory. The gzip checks are textio's: a stream
 * that ends early or fails its CRC becomes an error once the good lines are out. */
#ifndef VSG_LINE_SOURCE_H
#define VSG_LINE_SOURCE_H

#include <stddef.h>
#include <stdint.h>

#include "grids/base/vsgrid.h"
#include "ligands/readers/read_ahead.h"

#define VSG_LIG_SRC_CHUNK (256u * 1024u) /* bytes asked of the inflater per call: few calls per line */
#define VSG_LIG_LINE_MAX (1u << 20) /* longer lines are not a molecule we know how to read */

typedef struct {
    vsg_read_ahead *ra;   /* file input (gzip or plain, read ahead: read_ahead.h); NULL for memory */
    const char *mem;      /* memory input */
    size_t mem_len, mem_pos;
    char *buf;            /* bytes [pos, end) not yet handed out; buf[end] is writable */
    size_t cap, pos, end;
    uint64_t base;        /* offset of buf[0] in the input's (uncompressed) text */
    int at_eof;           /* the input has no more bytes */
    vsg_status err;       /* input error, reported once the complete lines before it are out */
    int err_out;          /* 1 once the error has been handed to a parser */
    char err_msg[240];
    long line;            /* 1-based number of the line last handed out */
    /* one line of pushback: the line last handed out, handed out again */
    int pushed;
    char *last;
    size_t last_len;
} vsg_lig_src;

/* Refills the buffer and hands out the next line: 1, 0 at end of input, <0 on input error. */
int vsg_lig_src_slow(vsg_lig_src *s, char **line, size_t *len);
void vsg_lig_src_close(vsg_lig_src *s);
/* Bytes of the input consumed so far (compressed bytes for gzip files): progress and ETA. */
uint64_t vsg_lig_src_offset(const vsg_lig_src *s);
/* Drops the first n bytes of the input's text (nothing read yet; no lines are made of them):
 * 0, or -1 when the input ends or fails before (the source is then at its end). base becomes
 * n, so vsg_lig_src_tell counts from the input's start. */
int vsg_lig_src_skip(vsg_lig_src *s, uint64_t n);

/* Offset in the input's (uncompressed) text of the next line the source hands out (the line
 * pushed back, if one is). */
static inline uint64_t vsg_lig_src_tell(const vsg_lig_src *s)
{
    return s->pushed ? s->base + (uint64_t)(s->last - s->buf) : s->base + s->pos;
}

#endif
