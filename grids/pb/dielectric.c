/* surface.c — van der Waals, solvent-excluded and smoothed dielectric maps, ion exclusion. */
#include "grids/pb/dielectric.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grids/base/constants.h"
#include "grids/base/vsgrid.h"

enum { IN_VDW = 1, IN_SAS = 2, REACHED = 4, INSIDE = 8 };

static vsg_ball *atom_balls(const vsg_molecule *m, double add)
{
    vsg_ball *b = malloc((m->n ? m->n : 1) * sizeof *b);
    if (!b) return NULL;
    for (size_t i = 0; i < m->n; i++) {
        b[i].x = m->atoms[i].x;
        b[i].y = m->atoms[i].y;
        b[i].z = m->atoms[i].z;
        b[i].r = m->atoms[i].radius + add;
    }
    vsg_balls_sort(b, m->n);
    return b;
}

/* Cell list over the SAS spheres, to find the spheres that may bury a point. */
typedef struct {
    double lo[3], cell;
    int n[3];
    size_t *start, *items;  /* CSR: items of cell c are items[start[c] .. start[c+1]) */
} cells;

static void cells_free(cells *c) { free(c->start); free(c->items); }

static int cell_of(const cells *c, const double p[3], int axis)
{
    int i = (int)floor((p[axis] - c->lo[axis]) / c->cell);
    return i < 0 ? 0 : (i >= c->n[axis] ? c->n[axis] - 1 : i);
}

static vsg_status cells_build(cells *c, const vsg_ball *b, size_t n, double cell)
{
    memset(c, 0, sizeof *c);
    double hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    c->lo[0] = c->lo[1] = c->lo[2] = INFINITY;
    for (size_t i = 0; i < n; i++) {
        const double p[3] = {b[i].x, b[i].y, b[i].z};
        for (int a = 0; a < 3; a++) {
            c->lo[a] = p[a] < c->lo[a] ? p[a] : c->lo[a];
            hi[a] = p[a] > hi[a] ? p[a] : hi[a];
        }
    }
    c->cell = cell;
    size_t total = 1;
    for (int a = 0; a < 3; a++) {
        c->n[a] = (int)((hi[a] - c->lo[a]) / cell) + 1;
        total *= (size_t)c->n[a];
    }
    c->start = calloc(total + 1, sizeof *c->start);
    c->items = malloc((n ? n : 1) * sizeof *c->items);
    if (!c->start || !c->items) { cells_free(c); return vsg_fail(VSG_E_NOMEM, "out of memory (cell list)"); }
    size_t *id = malloc((n ? n : 1) * sizeof *id);
    if (!id) { cells_free(c); return vsg_fail(VSG_E_NOMEM, "out of memory (cell list)"); }
    for (size_t i = 0; i < n; i++) {
        const double p[3] = {b[i].x, b[i].y, b[i].z};
        id[i] = (size_t)cell_of(c, p, 0) + (size_t)c->n[0] * ((size_t)cell_of(c, p, 1) + (size_t)c->n[1] * (size_t)cell_of(c, p, 2));
        c->start[id[i] + 1]++;
    }
    for (size_t k = 0; k < total; k++) c->start[k + 1] += c->start[k];
    size_t *fill = malloc((total ? total : 1) * sizeof *fill);
    if (!fill) { free(id); cells_free(c); return vsg_fail(VSG_E_NOMEM, "out of memory (cell list)"); }
    memcpy(fill, c->start, total * sizeof *fill);
    for (size_t i = 0; i < n; i++) c->items[fill[id[i]]++] = i;
    free(fill);
    free(id);
    return VSG_OK;
}

vsg_status vsg_sas_points(const vsg_molecule *m, double probe, double step, vsg_ball **out,
                          size_t *count)
{
    *out = NULL;
    *count = 0;
    vsg_ball *sas = atom_balls(m, probe);
    if (!sas) return vsg_fail(VSG_E_NOMEM, "out of memory (surface)");
    double rmax = 0.0;
    size_t total = 0;
    for (size_t i = 0; i < m->n; i++) {
        rmax = sas[i].r > rmax ? sas[i].r : rmax;
        total += (size_t)ceil(4.0 * VSG_PI * sas[i].r * sas[i].r / (step * step)) + 1;
    }
    cells c;
    vsg_status st = cells_build(&c, sas, m->n, 2.0 * rmax > 1e-6 ? 2.0 * rmax : 1.0);
    if (st != VSG_OK) { free(sas); return st; }
    vsg_ball *pts = malloc((total ? total : 1) * sizeof *pts);
    size_t *first = malloc((m->n + 1) * sizeof *first);
    unsigned char *keep = calloc(total ? total : 1, 1);
    if (!pts || !first || !keep) {
        free(pts); free(first); free(keep); free(sas); cells_free(&c);
        return vsg_fail(VSG_E_NOMEM, "out of memory (surface points)");
    }
    first[0] = 0;
    for (size_t i = 0; i < m->n; i++)
        first[i + 1] = first[i] + (size_t)ceil(4.0 * VSG_PI * sas[i].r * sas[i].r / (step * step)) + 1;

    const double golden = VSG_PI * (3.0 - sqrt(5.0));
    int fail = 0;
#pragma omp parallel reduction(| : fail)
    {
        /* Per atom, the spheres that overlap it: the only ones that can bury its points. */
        size_t cap = 256, nn = 0;
        const vsg_ball **nb = malloc(cap * sizeof *nb);
        if (!nb) fail = 1;
#pragma omp for schedule(dynamic, 16)
        for (ptrdiff_t ii = 0; ii < (ptrdiff_t)m->n; ii++) {
            if (!nb) continue;
            size_t i = (size_t)ii, np = first[i + 1] - first[i];
            const vsg_ball *a = &sas[i];
            const double ac[3] = {a->x, a->y, a->z};
            int ci[3];
            for (int d = 0; d < 3; d++) ci[d] = cell_of(&c, ac, d);
            nn = 0;
            for (int z = ci[2] - 1; z <= ci[2] + 1; z++) {
                if (z < 0 || z >= c.n[2]) continue;
                for (int y = ci[1] - 1; y <= ci[1] + 1; y++) {
                    if (y < 0 || y >= c.n[1]) continue;
                    for (int x = ci[0] - 1; x <= ci[0] + 1; x++) {
                        if (x < 0 || x >= c.n[0]) continue;
                        size_t cc = (size_t)x + (size_t)c.n[0] * ((size_t)y + (size_t)c.n[1] * (size_t)z);
                        for (size_t t = c.start[cc]; t < c.start[cc + 1]; t++) {
                            const vsg_ball *o = &sas[c.items[t]];
                            double dx = a->x - o->x, dy = a->y - o->y, dz = a->z - o->z, rr = a->r + o->r;
                            if (o == a || dx * dx + dy * dy + dz * dz >= rr * rr) continue;
                            if (nn == cap) {
                                const vsg_ball **grown = realloc(nb, 2 * cap * sizeof *nb);
                                if (!grown) { fail = 1; continue; }
                                nb = grown;
                                cap *= 2;
                            }
                            nb[nn++] = o;
                        }
                    }
                }
            }
            size_t last = 0;  /* the sphere that buried the previous point: try it first */
            for (size_t k = 0; k < np; k++) {
                /* Fibonacci sphere: near-uniform points. */
                double zc = 1.0 - (2.0 * (double)k + 1.0) / (double)np;
                double rc = sqrt(1.0 - zc * zc), phi = golden * (double)k;
                double p[3] = {a->x + a->r * rc * cos(phi), a->y + a->r * rc * sin(phi), a->z + a->r * zc};
                int buried = 0;
                for (size_t t = 0; t < nn && !buried; t++) {
                    size_t j = (last + t) % nn;
                    const vsg_ball *o = nb[j];
                    double dx = p[0] - o->x, dy = p[1] - o->y, dz = p[2] - o->z;
                    if (dx * dx + dy * dy + dz * dz < o->r * o->r * (1.0 - 1e-12)) { buried = 1; last = j; }
                }
                vsg_ball *q = &pts[first[i] + k];
                q->x = p[0]; q->y = p[1]; q->z = p[2]; q->r = probe;
                keep[first[i] + k] = (unsigned char)!buried;
            }
        }
        free(nb);
    }
    if (fail) {
        free(pts); free(first); free(keep); free(sas); cells_free(&c);
        return vsg_fail(VSG_E_NOMEM, "out of memory (surface neighbours)");
    }
    size_t n = 0;
    for (size_t k = 0; k < first[m->n]; k++)
        if (keep[k]) pts[n++] = pts[k];
    free(keep); free(first); free(sas); cells_free(&c);
    vsg_balls_sort(pts, n);
    *out = pts;
    *count = n;
    return VSG_OK;
}

vsg_status vsg_mark_inside(const vsg_ball *vdw, const vsg_ball *sas, size_t natoms,
                           const vsg_ball *probe_balls, size_t nprobe, const vsg_lattice *lat,
                           uint8_t *out)
{
    size_t n = (size_t)lat->n[0] * lat->n[1] * lat->n[2];
    memset(out, 0, n);
    vsg_mark_balls(vdw, natoms, lat, out, IN_VDW, NULL, 0, 0);
    if (sas && probe_balls) {
        vsg_mark_balls(sas, natoms, lat, out, IN_SAS, NULL, 0, 0);
        /* Probe balls only matter where the point is in the SAS but outside the vdW volume. */
        vsg_mark_balls(probe_balls, nprobe, lat, out, REACHED, out, IN_SAS, IN_VDW);
    }
#pragma omp parallel for schedule(static)
    for (ptrdiff_t p = 0; p < (ptrdiff_t)n; p++) {
        uint8_t b = out[p];
        int in = (b & IN_VDW) || (sas && probe_balls && (b & IN_SAS) && !(b & REACHED));
        out[p] = (uint8_t)(in ? 1 : 0);
    }
    return VSG_OK;
}

vsg_status vsg_dielectric_codes(const vsg_molecule *m, const vsg_lattice *nodes, vsg_surface surf,
                                double probe, uint8_t *codes[3], int *samples)
{
    int use_probe = surf != VSG_SURFACE_VDW && probe > 0.0;
    int ns = surf == VSG_SURFACE_SMOOTH ? VSG_SMOOTH_SAMPLES : 1;
    *samples = ns;
    size_t n = (size_t)nodes->n[0] * nodes->n[1] * nodes->n[2];
    vsg_ball *vdw = atom_balls(m, 0.0), *sas = use_probe ? atom_balls(m, probe) : NULL;
    vsg_ball *pb = NULL;
    size_t npb = 0;
    uint8_t *tmp = malloc(n ? n : 1);
    vsg_status st = VSG_OK;
    if (!vdw || (use_probe && !sas) || !tmp) st = vsg_fail(VSG_E_NOMEM, "out of memory (dielectric map)");
    if (st == VSG_OK && use_probe) {
        /* Probe positions about half a spacing apart (at most 0.5 Å), so the re-entrant
         * surface between them is off by under step²/(8·probe). */
        double step = nodes->h < 1.0 ? 0.5 * nodes->h : 0.5;
        st = vsg_sas_points(m, probe, step, &pb, &npb);
    }
    for (int d = 0; d < 3 && st == VSG_OK; d++) {
        memset(codes[d], 0, n);
        for (int s = 0; s < ns; s++) {
            vsg_lattice lat = *nodes;
            lat.origin[d] += nodes->h * ((double)s + 0.5) / (double)ns;
            vsg_mark_inside(vdw, sas, m->n, pb, npb, &lat, tmp);
            uint8_t *cd = codes[d];
#pragma omp parallel for schedule(static)
            for (ptrdiff_t p = 0; p < (ptrdiff_t)n; p++) cd[p] = (uint8_t)(cd[p] + tmp[p]);
        }
    }
    free(tmp); free(vdw); free(sas); free(pb);
    return st;
}

vsg_status vsg_ion_exclusion(const vsg_molecule *m, const vsg_lattice *nodes, double ion_radius,
                             uint8_t *flags, uint8_t bit)
{
    vsg_ball *b = atom_balls(m, ion_radius);
    if (!b) return vsg_fail(VSG_E_NOMEM, "out of memory (ion accessibility)");
    vsg_mark_balls(b, m->n, nodes, flags, bit, NULL, 0, 0);
    free(b);
    return VSG_OK;
}
