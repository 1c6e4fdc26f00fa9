/* msms_read.c — the MSMS .vert/.face pair (the triangulated surface GEM reads), plain or gzip.
 *
 * .vert: header lines starting with '#', then a line whose first field is the vertex count
 * (MSMS writes "  16529    1441  3.00  1.50": vertices, spheres, density, probe), then one
 * line per vertex "x y z nx ny nz face sphere type". .face: the same header shape with the
 * face count, then "v1 v2 v3 type sphere" with 1-based vertex numbers.
 *
 * Orientation: MSMS writes each face counter-clockwise seen from the solvent — on 1uwo_A
 * (33066 faces) the face normal (b − a) × (c − a) agrees in sign with the sum of its three
 * vertex normals for every face (tests/test_surface_mesh.c measures it), so faces are kept
 * as read; no flip is needed for the vsg_mesh contract.
 *
 * Every line is checked (field count, strict finite numbers, index ranges, counts against
 * the header); errors are "path:line: what" with VSG_E_FORMAT. Vertices and faces are
 * buffered in growing arrays, so a corrupt header count cannot make us allocate gigabytes. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grids/base/vsgrid.h"
#include "grids/base/textio.h"

#define MAX_FIELDS 16

/* Growing arrays for what a file holds before its length is trusted. */
typedef struct {
    void *p;
    size_t n, cap, size;
} buffer;

static int buffer_grow(buffer *b, size_t want)
{
    if (want <= b->cap) return 1;
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < want) cap *= 2;
    void *p = realloc(b->p, cap * b->size);
    if (!p) return 0;
    b->p = p;
    b->cap = cap;
    return 1;
}

/* A line with nothing but blanks. */
static int blank(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r') return 0;
    return 1;
}

/* Reads the header: lines starting with '#' (MSMS writes two), then the count line.
 * *count = its first field; *second = its second field when present (spheres), else −1. */
static vsg_status read_header(vsg_lines *r, const char *what, long *count, long *second)
{
    char *line;
    size_t len;
    int st;
    while ((st = vsg_lines_next(r, &line, &len)) == 1) {
        if (len > 0 && line[0] == '#') continue;
        vsg_token tok[MAX_FIELDS];
        int nf = vsg_tokenize(line, len, tok, MAX_FIELDS);
        int c, s;
        if (nf < 1 || !vsg_parse_int(tok[0].s, tok[0].n, &c) || c < 0)
            return vsg_fail(VSG_E_FORMAT, "%s:%d: expected the %s count (a whole number >= 0), got '%.*s'",
                            vsg_lines_path(r), vsg_lines_number(r), what, (int)(len > 40 ? 40 : len),
                            line);
        *count = c;
        *second = (nf >= 2 && vsg_parse_int(tok[1].s, tok[1].n, &s) && s >= 0) ? s : -1;
        return VSG_OK;
    }
    if (st < 0) return (vsg_status)st;
    return vsg_fail(VSG_E_FORMAT, "%s:%d: file ends before the %s count line", vsg_lines_path(r),
                    vsg_lines_number(r), what);
}

/* After the last record: only blank lines may follow. */
static vsg_status expect_end(vsg_lines *r, long count, const char *what)
{
    char *line;
    size_t len;
    int st;
    while ((st = vsg_lines_next(r, &line, &len)) == 1)
        if (!blank(line, len))
            return vsg_fail(VSG_E_FORMAT, "%s:%d: more %s than the header's %ld", vsg_lines_path(r),
                            vsg_lines_number(r), what, count);
    return st < 0 ? (vsg_status)st : VSG_OK;
}

static vsg_status read_vertices(const char *path, buffer *xyzn, buffer *sphere, long *nsphere)
{
    vsg_lines *r;
    vsg_status st = vsg_lines_open(path, &r);
    if (st != VSG_OK) return st;
    long count;
    st = read_header(r, "vertex", &count, nsphere);
    char *line;
    size_t len;
    int got;
    for (long v = 0; st == VSG_OK && v < count; v++) {
        got = vsg_lines_next(r, &line, &len);
        if (got < 0) {
            st = (vsg_status)got;
            break;
        }
        if (got == 0) {
            st = vsg_fail(VSG_E_FORMAT, "%s:%d: file ends after %ld of %ld vertices", path,
                          vsg_lines_number(r), v, count);
            break;
        }
        vsg_token tok[MAX_FIELDS];
        int nf = vsg_tokenize(line, len, tok, MAX_FIELDS);
        if (nf < 8) {
            st = vsg_fail(VSG_E_FORMAT, "%s:%d: vertex line has %d fields, expected 9 "
                          "(x y z nx ny nz face sphere type)", path, vsg_lines_number(r), nf);
            break;
        }
        double x[6];
        int k, sph;
        for (k = 0; k < 6; k++)
            if (!vsg_parse_double(tok[k].s, tok[k].n, &x[k])) break;
        if (k < 6) {
            st = vsg_fail(VSG_E_FORMAT, "%s:%d: field %d is not a finite number: '%.*s'", path,
                          vsg_lines_number(r), k + 1, (int)(tok[k].n > 40 ? 40 : tok[k].n), tok[k].s);
            break;
        }
        if (!vsg_parse_int(tok[7].s, tok[7].n, &sph) || sph < 1 ||
            (*nsphere >= 0 && sph > *nsphere)) {
            st = vsg_fail(VSG_E_FORMAT, "%s:%d: sphere number '%.*s' is not in 1..%ld", path,
                          vsg_lines_number(r), (int)(tok[7].n > 40 ? 40 : tok[7].n), tok[7].s,
                          *nsphere >= 0 ? *nsphere : (long)INT32_MAX);
            break;
        }
        double nn = sqrt(x[3] * x[3] + x[4] * x[4] + x[5] * x[5]);
        if (!(nn > 0.0)) {
            st = vsg_fail(VSG_E_FORMAT, "%s:%d: vertex normal is zero", path, vsg_lines_number(r));
            break;
        }
        if (!buffer_grow(xyzn, xyzn->n + 6) || !buffer_grow(sphere, sphere->n + 1)) {
            st = vsg_fail(VSG_E_NOMEM, "%s: out of memory after %ld vertices", path, v);
            break;
        }
        float *p = (float *)xyzn->p + xyzn->n;
        for (k = 0; k < 3; k++) p[k] = (float)x[k], p[3 + k] = (float)(x[3 + k] / nn);
        xyzn->n += 6;
        ((int32_t *)sphere->p)[sphere->n++] = sph - 1;
    }
    if (st == VSG_OK) st = expect_end(r, count, "vertices");
    vsg_lines_close(r);
    return st;
}

static vsg_status read_faces(const char *path, long nvert, buffer *tri)
{
    vsg_lines *r;
    vsg_status st = vsg_lines_open(path, &r);
    if (st != VSG_OK) return st;
    long count, unused;
    st = read_header(r, "face", &count, &unused);
    char *line;
    size_t len;
    int got;
    for (long f = 0; st == VSG_OK && f < count; f++) {
        got = vsg_lines_next(r, &line, &len);
        if (got < 0) {
            st = (vsg_status)got;
            break;
        }
        if (got == 0) {
            st = vsg_fail(VSG_E_FORMAT, "%s:%d: file ends after %ld of %ld faces", path,
                          vsg_lines_number(r), f, count);
            break;
        }
        vsg_token tok[MAX_FIELDS];
        int nf = vsg_tokenize(line, len, tok, MAX_FIELDS);
        if (nf < 3) {
            st = vsg_fail(VSG_E_FORMAT, "%s:%d: face line has %d fields, expected 5 "
                          "(v1 v2 v3 type sphere)", path, vsg_lines_number(r), nf);
            break;
        }
        if (!buffer_grow(tri, tri->n + 3)) {
            st = vsg_fail(VSG_E_NOMEM, "%s: out of memory after %ld faces", path, f);
            break;
        }
        for (int k = 0; k < 3; k++) {
            int v;
            if (!vsg_parse_int(tok[k].s, tok[k].n, &v) || v < 1 || v > nvert) {
                st = vsg_fail(VSG_E_FORMAT, "%s:%d: vertex number '%.*s' is not in 1..%ld", path,
                              vsg_lines_number(r), (int)(tok[k].n > 40 ? 40 : tok[k].n), tok[k].s,
                              nvert);
                break;
            }
            ((uint32_t *)tri->p)[tri->n + (size_t)k] = (uint32_t)(v - 1);
        }
        tri->n += 3;
    }
    if (st == VSG_OK) st = expect_end(r, count, "faces");
    vsg_lines_close(r);
    return st;
}

vsg_status vsg_msms_read(const char *vert_path, const char *face_path, vsg_mesh **out)
{
    *out = NULL;
    buffer xyzn = {NULL, 0, 0, sizeof(float)}, sphere = {NULL, 0, 0, sizeof(int32_t)},
           tri = {NULL, 0, 0, sizeof(uint32_t)};
    long nsphere = -1;
    vsg_status st = read_vertices(vert_path, &xyzn, &sphere, &nsphere);
    if (st == VSG_OK) st = read_faces(face_path, (long)sphere.n, &tri);
    vsg_mesh *m = NULL;
    if (st == VSG_OK) {
        m = vsg_mesh_new(sphere.n, tri.n / 3);
        if (!m) st = vsg_fail(VSG_E_NOMEM, "%s: out of memory for the mesh", vert_path);
    }
    if (st == VSG_OK) {
        const float *p = xyzn.p;
        for (size_t v = 0; v < m->nvert; v++) {
            memcpy(m->xyz + 3 * v, p + 6 * v, 3 * sizeof(float));
            memcpy(m->normal + 3 * v, p + 6 * v + 3, 3 * sizeof(float));
            m->atom[v] = ((const int32_t *)sphere.p)[v];
        }
        if (tri.n) memcpy(m->tri, tri.p, tri.n * sizeof(uint32_t));
        *out = m;
    }
    free(xyzn.p);
    free(sphere.p);
    free(tri.p);
    return st;
}
