/* textio.h — line reading over plain or gzip-compressed files, with line numbers and
 * detection of truncated gzip streams (zlib's gzopen reads both transparently). */
#ifndef VSG_TEXTIO_H
#define VSG_TEXTIO_H

#include <stddef.h>

#include "grids/base/vsgrid.h"

typedef struct vsg_lines vsg_lines;

/* Opens path ("-" is standard input). VSG_E_IO with a message if it cannot be opened. */
vsg_status vsg_lines_open(const char *path, vsg_lines **out);
/* Next line without its end-of-line characters. Returns 1 with *line set, 0 at the end of
 * the file, or a negative vsg_status (truncated/corrupt gzip, read error, line over 1 MiB). */
int vsg_lines_next(vsg_lines *r, char **line, size_t *len);
int vsg_lines_number(const vsg_lines *r);   /* 1-based number of the line last returned */
const char *vsg_lines_path(const vsg_lines *r);
void vsg_lines_close(vsg_lines *r);

/* Strict number parsing: the whole (trimmed) field must be a finite number. */
int vsg_parse_double(const char *s, size_t len, double *out);  /* 1 ok, 0 bad */
int vsg_parse_int(const char *s, size_t len, int *out);        /* 1 ok, 0 bad */

/* Fields of a line: blank-separated tokens, pointers into the line (no copies). */
typedef struct {
    const char *s;
    size_t n;
} vsg_token;
/* Splits at blanks; returns the number of fields (only the first max are stored). */
int vsg_tokenize(const char *s, size_t len, vsg_token *tok, int max);
/* 1 if the line is the record `name` ("MODEL", "END"...) followed by a blank or nothing. */
int vsg_is_record(const char *line, size_t len, const char *name);

#endif
