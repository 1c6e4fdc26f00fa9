/* line_source.c — the ligand reader's line source (line_source.h): lines handed out in place
 * from a buffer refilled from the read-ahead inflater or from memory. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ligands/readers/line_source.h"

/* Reads more bytes after [pos, end), compacting and growing the buffer as needed. */
static void src_fill(vsg_lig_src *s)
{
    size_t want;
    if (s->pos > 0) {
        memmove(s->buf, s->buf + s->pos, s->end - s->pos);
        s->end -= s->pos;
        s->base += s->pos;
        s->pos = 0;
    }
    if (s->end >= VSG_LIG_LINE_MAX) {
        s->at_eof = 1;
        s->err = VSG_E_FORMAT;
        snprintf(s->err_msg, sizeof s->err_msg, "line longer than 1 MiB: not a molecule file");
        return;
    }
    if (s->cap - 1 - s->end < VSG_LIG_SRC_CHUNK / 4) {
        size_t cap = s->cap * 2;
        char *b = realloc(s->buf, cap);
        if (!b) {
            s->at_eof = 1;
            s->err = VSG_E_NOMEM;
            snprintf(s->err_msg, sizeof s->err_msg, "out of memory for a long line");
            return;
        }
        s->buf = b;
        s->cap = cap;
    }
    want = s->cap - 1 - s->end; /* one byte for the NUL after a last line without newline */
    if (s->ra) {
        long n = vsg_read_ahead_read(s->ra, s->buf + s->end, want);
        if (n > 0) {
            s->end += (size_t)n;
        } else {
            const char *msg;
            s->at_eof = 1;
            if (n < 0) {
                s->err = vsg_read_ahead_error(s->ra, &msg);
                if (!s->err) s->err = VSG_E_IO;
                snprintf(s->err_msg, sizeof s->err_msg, "%s", *msg ? msg : "read error");
            }
        }
    } else {
        size_t n = s->mem_len - s->mem_pos;
        if (n > want) n = want;
        memcpy(s->buf + s->end, s->mem + s->mem_pos, n);
        s->mem_pos += n;
        s->end += n;
        if (n == 0) s->at_eof = 1;
    }
}

int vsg_lig_src_slow(vsg_lig_src *s, char **line, size_t *len)
{
    for (;;) {
        char *p = s->buf + s->pos;
        char *nl = s->pos < s->end ? memchr(p, '\n', s->end - s->pos) : NULL;
        size_t n;
        if (nl) {
            n = (size_t)(nl - p);
            s->pos += n + 1;
        } else if (s->at_eof) {
            /* the bytes after an input error are an incomplete line: dropped, error reported */
            if (s->err) {
                s->err_out = 1;
                return s->err;
            }
            if (s->pos == s->end) return 0;
            n = s->end - s->pos; /* last line without a newline */
            s->pos = s->end;
        } else {
            src_fill(s);
            continue;
        }
        if (n > 0 && p[n - 1] == '\r') n--;
        p[n] = '\0';
        *line = p;
        *len = n;
        s->line++;
        return 1;
    }
}

int vsg_lig_src_skip(vsg_lig_src *s, uint64_t n)
{
    uint64_t left = n;
    s->pos = s->end = 0;
    while (left > 0) {
        size_t want = s->cap - 1;
        long got;
        if (want > left) want = (size_t)left;
        if (s->ra) {
            got = vsg_read_ahead_read(s->ra, s->buf, want);
        } else {
            size_t k = s->mem_len - s->mem_pos;
            if (k > want) k = want;
            s->mem_pos += k;
            got = (long)k;
        }
        if (got <= 0) {
            s->at_eof = 1;
            s->base = n - left;
            return -1;
        }
        left -= (uint64_t)got;
    }
    s->base = n;
    return 0;
}

void vsg_lig_src_close(vsg_lig_src *s)
{
    vsg_read_ahead_close(s->ra); /* and its inflater */
    free(s->buf);
    memset(s, 0, sizeof *s);
}

uint64_t vsg_lig_src_offset(const vsg_lig_src *s)
{
    if (s->ra) return vsg_read_ahead_offset(s->ra);
    return s->mem_pos;
}
