/* grid.c — the grid object: allocation, metadata, interpolation, probing (grid_files.c reads
 * and writes it). */
#include "grids/formats/grid.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grids/base/vsgrid.h"
#include "grids/receptor/molecule.h"

vsg_grid *vsg_grid_new(const int n[3], const double origin[3], const double spacing[3],
                       const char *units)
{
    size_t nodes = 1;
    if (!n || !origin || !spacing) {
        vsg_fail(VSG_E_ARG, "grid: missing size, origin or spacing");
        return NULL;
    }
    for (int d = 0; d < 3; d++) {
        if (n[d] < 1) {
            vsg_fail(VSG_E_ARG, "grid: %d nodes along axis %c (need at least 1)", n[d], "xyz"[d]);
            return NULL;
        }
        if (!isfinite(origin[d]) || !isfinite(spacing[d]) || !(spacing[d] > 0)) {
            vsg_fail(VSG_E_ARG, "grid: bad origin %g or spacing %g along axis %c", origin[d],
                     spacing[d], "xyz"[d]);
            return NULL;
        }
        /* Sizes come from files and user options: check every product before it can wrap. */
        if (nodes > SIZE_MAX / (size_t)n[d]) {
            vsg_fail(VSG_E_LIMIT, "grid: %d x %d x %d nodes overflow the address space", n[0], n[1],
                     n[2]);
            return NULL;
        }
        nodes *= (size_t)n[d];
    }
    if (nodes > SIZE_MAX / sizeof(float)) {
        vsg_fail(VSG_E_LIMIT, "grid: %d x %d x %d nodes overflow the address space", n[0], n[1],
                 n[2]);
        return NULL;
    }

    vsg_grid *g = calloc(1, sizeof *g);
    if (!g) {
        vsg_fail(VSG_E_NOMEM, "grid: out of memory for the grid header");
        return NULL;
    }
    g->data = malloc(nodes * sizeof(float));
    if (!g->data) {
        vsg_fail(VSG_E_NOMEM, "grid: out of memory for %d x %d x %d nodes (%.3g GiB)", n[0], n[1],
                 n[2], (double)nodes * sizeof(float) / (1024.0 * 1024.0 * 1024.0));
        free(g);
        return NULL;
    }
    for (int d = 0; d < 3; d++) {
        g->n[d] = n[d];
        g->origin[d] = origin[d];
        g->spacing[d] = spacing[d];
    }
    snprintf(g->units, sizeof g->units, "%s", units ? units : "");
    return g;
}

size_t vsg_grid_nodes(const vsg_grid *g)
{
    if (!g) return 0;
    return (size_t)g->n[0] * (size_t)g->n[1] * (size_t)g->n[2];
}

vsg_status vsg_grid_meta_add(vsg_grid *g, const char *key, const char *fmt, ...)
{
    if (!g || !key || !*key || !fmt)
        return vsg_fail(VSG_E_ARG, "grid metadata: missing key or value");
    if (strpbrk(key, "=\n\r"))
        return vsg_fail(VSG_E_ARG, "grid metadata: key '%s' may not contain '=' or a newline", key);

    va_list ap;
    va_start(ap, fmt);
    int vlen = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (vlen < 0) return vsg_fail(VSG_E_ARG, "grid metadata: cannot format the value of '%s'", key);

    size_t old = g->meta ? strlen(g->meta) : 0;
    size_t klen = strlen(key);
    size_t add = klen + 3 + (size_t)vlen + 1; /* "key = value\n" */
    char *m = realloc(g->meta, old + add + 1);
    if (!m) return vsg_fail(VSG_E_NOMEM, "grid metadata: out of memory");
    g->meta = m;
    char *p = m + old;
    memcpy(p, key, klen);
    memcpy(p + klen, " = ", 3);
    va_start(ap, fmt);
    vsnprintf(p + klen + 3, (size_t)vlen + 1, fmt, ap);
    va_end(ap);
    /* One line per entry: a newline inside a value would forge a second entry. */
    for (char *c = p + klen + 3; *c; c++)
        if (*c == '\n' || *c == '\r') *c = ' ';
    p[add - 1] = '\n';
    p[add] = '\0';
    return VSG_OK;
}

static const char *skip_blank(const char *s, const char *end)
{
    while (s < end && (*s == ' ' || *s == '\t')) s++;
    return s;
}

const char *vsg_grid_meta_get(const vsg_grid *g, const char *key, char *buf, size_t len)
{
    const char *found = NULL, *found_end = NULL;
    if (!g || !g->meta || !key || !buf || len == 0) return NULL;
    size_t klen = strlen(key);
    /* The last entry wins, so a later stage can override what an earlier one recorded. */
    for (const char *line = g->meta; *line;) {
        const char *eol = strchr(line, '\n');
        if (!eol) eol = line + strlen(line);
        const char *k = skip_blank(line, eol);
        const char *eq = memchr(k, '=', (size_t)(eol - k));
        if (eq) {
            const char *kend = eq;
            while (kend > k && (kend[-1] == ' ' || kend[-1] == '\t')) kend--;
            if ((size_t)(kend - k) == klen && memcmp(k, key, klen) == 0) {
                found = skip_blank(eq + 1, eol);
                found_end = eol;
                while (found_end > found && isspace((unsigned char)found_end[-1])) found_end--;
            }
        }
        line = *eol ? eol + 1 : eol;
    }
    if (!found) return NULL;
    size_t vlen = (size_t)(found_end - found);
    if (vlen >= len) vlen = len - 1;
    memcpy(buf, found, vlen);
    buf[vlen] = '\0';
    return buf;
}

void vsg_grid_free(vsg_grid *g)
{
    if (!g) return;
    free(g->data);
    free(g->meta);
    free(g);
}

vsg_status vsg_grid_shape_of(const vsg_grid *g, vsg_grid_shape *out)
{
    if (!g || !out) return vsg_fail(VSG_E_ARG, "vsg_grid_shape_of: NULL argument");
    memset(out, 0, sizeof *out);
    for (int d = 0; d < 3; d++) {
        out->n[d] = g->n[d];
        out->origin[d] = g->origin[d];
        out->spacing[d] = g->spacing[d];
    }
    memcpy(out->units, g->units, sizeof out->units);
    out->units[sizeof out->units - 1] = '\0';
    return VSG_OK;
}

const float *vsg_grid_values(const vsg_grid *g) { return g ? g->data : NULL; }

const char *vsg_grid_metadata(const vsg_grid *g) { return g && g->meta ? g->meta : ""; }

#define EDGE_SLACK VSG_GRID_EDGE_SLACK

/* Cell index and weight along one axis; 0 when the coordinate is outside. */
static int axis_locate(double x, double origin, double h, int n, int *i0, double *t)
{
    double f = (x - origin) / h;
    if (!(f >= -EDGE_SLACK && f <= (double)(n - 1) + EDGE_SLACK)) return 0; /* NaN too */
    if (n == 1) {
        *i0 = 0;
        *t = 0.0;
        return 1;
    }
    if (f < 0) f = 0;
    if (f > n - 1) f = n - 1;
    int i = (int)f;
    if (i >= n - 1) i = n - 2; /* last node: the last cell with weight 1 */
    *i0 = i;
    *t = f - i;
    return 1;
}

/* Hot path of the probe and the scoring reference: no message on "outside", just status. */
static int interpolate(const vsg_grid *g, double x, double y, double z, double *value)
{
    int i, j, k;
    double tx, ty, tz;
    if (!axis_locate(x, g->origin[0], g->spacing[0], g->n[0], &i, &tx) ||
        !axis_locate(y, g->origin[1], g->spacing[1], g->n[1], &j, &ty) ||
        !axis_locate(z, g->origin[2], g->spacing[2], g->n[2], &k, &tz)) {
        *value = 0.0;
        return 0;
    }
    size_t n0 = (size_t)g->n[0], n01 = n0 * (size_t)g->n[1];
    size_t di = g->n[0] > 1 ? 1 : 0, dj = g->n[1] > 1 ? n0 : 0, dk = g->n[2] > 1 ? n01 : 0;
    const float *p = g->data + (size_t)i + n0 * (size_t)j + n01 * (size_t)k;
    double c00 = p[0] + tx * ((double)p[di] - p[0]);
    double c10 = p[dj] + tx * ((double)p[dj + di] - p[dj]);
    double c01 = p[dk] + tx * ((double)p[dk + di] - p[dk]);
    double c11 = p[dk + dj] + tx * ((double)p[dk + dj + di] - p[dk + dj]);
    double c0 = c00 + ty * (c10 - c00);
    double c1 = c01 + ty * (c11 - c01);
    *value = c0 + tz * (c1 - c0);
    return 1;
}

vsg_status vsg_grid_interpolate(const vsg_grid *g, double x, double y, double z, double *value)
{
    if (!value) return VSG_E_ARG;
    if (!g || !g->data) {
        *value = 0.0;
        return VSG_E_ARG;
    }
    return interpolate(g, x, y, z, value) ? VSG_OK : VSG_E_ARG;
}

vsg_status vsg_grid_probe(const vsg_grid *g, const vsg_molecule *ligand, double *per_atom,
                          vsg_probe_result *out)
{
    if (!g || !g->data || !ligand)
        return vsg_fail(VSG_E_ARG, "vsg_grid_probe: missing grid or molecule");
    if (ligand->n > 0 && !ligand->atoms)
        return vsg_fail(VSG_E_ARG, "vsg_grid_probe: molecule has no atom array");
    double energy = 0.0;
    size_t outside = 0;
    for (size_t a = 0; a < ligand->n; a++) {
        const vsg_atom *at = &ligand->atoms[a];
        double phi;
        if (!interpolate(g, at->x, at->y, at->z, &phi)) outside++;
        energy += at->charge * phi;
        if (per_atom) per_atom[a] = phi;
    }
    if (out) {
        out->energy = energy;
        out->atoms = ligand->n;
        out->outside = outside;
    }
    return VSG_OK;
}
