/* ses_mesh.c — the solvent-excluded (or van der Waals) surface as a closed triangle mesh.
 *
 * Field. With P the probe-centre region (points outside every sphere of radius R = r + probe)
 * the SES is the set f = 0 of f(x) = probe − d(x, P): negative inside the molecule, positive
 * in the solvent, exactly the signed distance to the surface near it. d(x, P) is taken as the
 * smallest of three upper bounds, each the distance to a point known to lie in P:
 *   - lattice: an exact Euclidean distance transform (Felzenszwalb–Huttenlocher, separable)
 *     to the lattice points outside all SAS spheres;
 *   - spheres: the point of SAS sphere i nearest to x, when no other SAS sphere contains it
 *     (exact on the convex, contact part of the surface);
 *   - circles: the point of the intersection circle of SAS spheres i, j nearest to x, when
 *     no third sphere contains it (exact on the toroidal, re-entrant part).
 * Only the concave spherical triangles (probe touching three atoms) rest on the lattice bound,
 * which overestimates d by at most about one spacing there. The exact bounds are evaluated only
 * where the lattice bound says the surface is near (probe − 1.75h < d < probe + 3.5h). probe = 0 gives
 * the van der Waals union: the same field with R = r.
 *
 * Mesh. Marching tetrahedra on the Kuhn (Freudenthal) split of each lattice cube into six
 * tetrahedra sharing the main diagonal — a triangulation of space, so neighbouring cubes agree
 * on shared faces and the level set is a closed 2-manifold (values exactly 0 count as outside).
 * A vertex is created once per lattice edge (seven edge directions per lattice point: x, y, z,
 * the three face diagonals and the body diagonal) and shared, so the mesh is indexed. Each
 * triangle's orientation comes from a table computed from the tetrahedron's geometry (normal
 * towards the outside corners), so triangles are counter-clockwise from the solvent.
 * Vertices are then moved onto the exact surface where the nearest point of P is a sphere or
 * circle point (a move of at most h/4), and given the exact normal there (direction from the
 * vertex to the nearest probe centre); elsewhere the area-weighted face normal.
 *
 * Memory. The lattice (nx·ny·nz, spacing h, the SAS box padded by 2h) is processed in z-slabs
 * of S cube layers; the distance transform needs m = ceil((probe + 4h)/h) + 1 extra planes on
 * each side of a slab. Peak bytes ≈
 *     nx·ny·(5·(S + 1 + 2m) + 40)          slab occupancy + distances/field, edge→vertex ids
 *   + 84·natoms + 4·ncells                 atoms, cell list (2 Å cells), circle index
 *   + 64·ncircles                          exposed intersection circles (~3 per atom)
 *   + 16·nvert + 12·nface (×2 while growing), then the final mesh 28·nvert + 12·nface
 * S is 64 by default and shrinks to fit max_bytes; below S = 1 the build fails with VSG_E_LIMIT.
 * Measured: the nucleosome (25k atoms, 0.5 Å) peaks at 120 MB resident with its 1.46 M-vertex
 * mesh; a 300 Å assembly needs ~150 MB of slab memory plus ~100 MB per million atoms plus mesh. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "grids/base/balls.h"
#include "grids/base/vsgrid.h"
#include "grids/receptor/molecule.h"

#define EDT_INF 1e30f
#define CELL 2.0          /* Å, cell-list edge */
#define MAX_SLAB 64       /* cube layers per slab */
#define INSIDE_TOL 1e-6   /* Å², a point on sphere k's boundary is not "inside" it */

typedef struct {
    double x, y, z, r, R;  /* centre, van der Waals radius, SAS radius r + probe */
} satom;

/* Intersection circle of SAS spheres i < j: centre, unit axis from i to j, radius. */
struct circle {
    double o[3], u[3], rho;
    uint32_t j;
};

/* Atoms bucketed in cubic cells, x fastest, so a row of cells is one contiguous index range. */
typedef struct {
    const satom *a;
    size_t n;
    double lo[3], cell, Rmax;
    int nc[3];
    uint32_t *start;   /* ncells + 1 */
    uint32_t *order;   /* atom indices sorted by cell */
    uint32_t *cstart;  /* natoms + 1: the circles of atom i with partners j > i that are */
    struct circle *circ; /* (possibly) exposed are circ[cstart[i] .. cstart[i + 1]) */
} cells;

/* Neighbours of a point: atom index and distance to its centre. */
typedef struct {
    uint32_t *idx;
    double *dist;
    uint32_t *cand;    /* scratch: positions in the list */
    size_t n, cap;
    uint32_t *hash;    /* scratch: atom index → position, hcap slots */
    size_t hcap;
    uint32_t burier;   /* the sphere that last buried a candidate point: tried first */
} near_list;

static void near_list_free(near_list *nl)
{
    free(nl->idx);
    free(nl->dist);
    free(nl->cand);
    free(nl->hash);
}

/* ---- cell list ------------------------------------------------------------------------ */

static int cell_of(const cells *c, double v, int d)
{
    int i = (int)floor((v - c->lo[d]) / c->cell);
    return i < 0 ? 0 : i >= c->nc[d] ? c->nc[d] - 1 : i;
}

static vsg_status cells_build(cells *c, const satom *a, size_t n)
{
    double hi[3] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
    c->a = a;
    c->n = n;
    c->Rmax = 0.0;
    for (int d = 0; d < 3; d++) c->lo[d] = HUGE_VAL;
    for (size_t i = 0; i < n; i++) {
        const double p[3] = {a[i].x, a[i].y, a[i].z};
        for (int d = 0; d < 3; d++) {
            c->lo[d] = fmin(c->lo[d], p[d]);
            hi[d] = fmax(hi[d], p[d]);
        }
        c->Rmax = fmax(c->Rmax, a[i].R);
    }
    /* 2 Å cells, coarser when the atoms are spread so thinly that cells would outnumber them. */
    c->cell = CELL;
    for (;;) {
        double total = 1.0;
        for (int d = 0; d < 3; d++) {
            c->nc[d] = (int)((hi[d] - c->lo[d]) / c->cell) + 1;
            total *= c->nc[d];
        }
        if (total <= 8.0 * (double)n + 4096.0) break;
        c->cell *= 2.0;
    }
    size_t nc = (size_t)c->nc[0] * c->nc[1] * c->nc[2];
    c->start = calloc(nc + 1, sizeof *c->start);
    c->order = malloc((n ? n : 1) * sizeof *c->order);
    uint32_t *which = malloc((n ? n : 1) * sizeof *which);
    if (!c->start || !c->order || !which) {
        free(which);
        return vsg_fail(VSG_E_NOMEM, "surface mesh: out of memory for the cell list of %zu atoms", n);
    }
    for (size_t i = 0; i < n; i++) {
        size_t id = (size_t)cell_of(c, a[i].x, 0) +
                    (size_t)c->nc[0] * (cell_of(c, a[i].y, 1) + (size_t)c->nc[1] * cell_of(c, a[i].z, 2));
        which[i] = (uint32_t)id;
        c->start[id + 1]++;
    }
    for (size_t i = 0; i < nc; i++) c->start[i + 1] += c->start[i];
    for (size_t i = 0; i < n; i++) c->order[c->start[which[i]]++] = (uint32_t)i;
    for (size_t i = nc; i > 0; i--) c->start[i] = c->start[i - 1];
    c->start[0] = 0;
    free(which);
    return VSG_OK;
}

static void cells_free(cells *c)
{
    free(c->start);
    free(c->order);
    free(c->cstart);
    free(c->circ);
}

static int list_push(near_list *l, uint32_t i, double d)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 256;
        uint32_t *idx = realloc(l->idx, cap * sizeof *idx);
        if (!idx) return 0;
        l->idx = idx;
        idx = realloc(l->cand, cap * sizeof *idx);
        if (!idx) return 0;
        l->cand = idx;
        double *dist = realloc(l->dist, cap * sizeof *dist);
        if (!dist) return 0;
        l->dist = dist;
        l->cap = cap;
    }
    l->idx[l->n] = i;
    l->dist[l->n++] = d;
    return 1;
}

/* Atoms with |x − c| < R + extra (use_vdw: r + extra). 0 on allocation failure. */
static int gather(const cells *c, const double x[3], double extra, int use_vdw, near_list *l)
{
    l->n = 0;
    double reach = c->Rmax + extra;
    int lo[3], hi[3];
    for (int d = 0; d < 3; d++) {
        lo[d] = cell_of(c, x[d] - reach, d);
        hi[d] = cell_of(c, x[d] + reach, d);
    }
    for (int k = lo[2]; k <= hi[2]; k++)
        for (int j = lo[1]; j <= hi[1]; j++) {
            size_t row = (size_t)c->nc[0] * (j + (size_t)c->nc[1] * k);
            for (uint32_t s = c->start[row + lo[0]]; s < c->start[row + hi[0] + 1]; s++) {
                uint32_t i = c->order[s];
                const satom *a = c->a + i;
                double dx = x[0] - a->x, dy = x[1] - a->y, dz = x[2] - a->z;
                double lim = (use_vdw ? a->r : a->R) + extra, d2 = dx * dx + dy * dy + dz * dz;
                if (d2 < lim * lim && !list_push(l, i, sqrt(d2))) return 0;
            }
        }
    return 1;
}

/* For every pair of intersecting SAS spheres, whether their intersection circle may be
 * exposed: 48 points of the circle are tested against the other spheres shrunk by half the
 * sample spacing, so an exposed arc between samples is not missed (a buried circle kept by
 * that margin costs time, never accuracy). Two passes over the atoms: count, then fill. */
static vsg_status circles_build(cells *c)
{
    enum { SAMPLES = 48 };
    const size_t n = c->n;
    c->cstart = calloc(n + 1, sizeof *c->cstart);
    if (!c->cstart) return vsg_fail(VSG_E_NOMEM, "surface mesh: out of memory for circle lists");
    double cs[SAMPLES][2];
    for (int k = 0; k < SAMPLES; k++)
        cs[k][0] = cos(2.0 * 3.14159265358979 * k / SAMPLES), cs[k][1] = sin(2.0 * 3.14159265358979 * k / SAMPLES);
    int fail = 0;
    for (int pass = 0; pass < 2 && !fail; pass++) {
#pragma omp parallel
        {
            near_list nl = {NULL, NULL, NULL, 0, 0, NULL, 0, 0};
#pragma omp for schedule(dynamic, 16)
            for (long ii = 0; ii < (long)n; ii++) {
                const satom *ai = c->a + ii;
                const double ci[3] = {ai->x, ai->y, ai->z};
                if (!gather(c, ci, ai->R, 0, &nl)) {
#pragma omp atomic write
                    fail = 1;
                    continue;
                }
                uint32_t count = 0;
                for (size_t w = 0; w < nl.n; w++) {
                    uint32_t j = nl.idx[w];
                    const satom *aj = c->a + j;
                    double dij = nl.dist[w];
                    /* refine() looks pairs up from the lower index only */
                    if (j <= (uint32_t)ii || dij <= fabs(ai->R - aj->R) || dij >= ai->R + aj->R) continue;
                    double u[3] = {(aj->x - ai->x) / dij, (aj->y - ai->y) / dij, (aj->z - ai->z) / dij};
                    double along = (dij * dij + ai->R * ai->R - aj->R * aj->R) / (2.0 * dij);
                    double rho = sqrt(fmax(ai->R * ai->R - along * along, 0.0));
                    /* two unit vectors perpendicular to u */
                    double t[3] = {fabs(u[0]) < 0.9 ? 1.0 : 0.0, fabs(u[0]) < 0.9 ? 0.0 : 1.0, 0.0};
                    double e1[3] = {u[1] * t[2] - u[2] * t[1], u[2] * t[0] - u[0] * t[2], u[0] * t[1] - u[1] * t[0]};
                    double n1 = sqrt(e1[0] * e1[0] + e1[1] * e1[1] + e1[2] * e1[2]);
                    for (int d = 0; d < 3; d++) e1[d] /= n1;
                    double e2[3] = {u[1] * e1[2] - u[2] * e1[1], u[2] * e1[0] - u[0] * e1[2], u[0] * e1[1] - u[1] * e1[0]};
                    double margin = rho * 3.14159265358979 / SAMPLES + 1e-6;
                    double o[3] = {ci[0] + along * u[0], ci[1] + along * u[1], ci[2] + along * u[2]};
                    /* only spheres reaching the circle can bury part of it */
                    size_t nb = 0;
                    for (size_t q = 0; q < nl.n; q++) {
                        uint32_t k2 = nl.idx[q];
                        const satom *ak = c->a + k2;
                        double dx = o[0] - ak->x, dy = o[1] - ak->y, dz = o[2] - ak->z, r = ak->R - margin;
                        if (k2 == (uint32_t)ii || k2 == j || r <= 0 ||
                            dx * dx + dy * dy + dz * dz >= (r + rho) * (r + rho))
                            continue;
                        nl.cand[nb++] = k2;
                    }
                    int open = 0;
                    size_t last = 0;
                    for (int k = 0; k < SAMPLES && !open; k++) {
                        double y[3];
                        for (int d = 0; d < 3; d++) y[d] = o[d] + rho * (cs[k][0] * e1[d] + cs[k][1] * e2[d]);
                        open = 1;
                        for (size_t q = 0; q < nb && open; q++) {
                            size_t at = (last + q) % nb;   /* start from the last burier */
                            const satom *ak = c->a + nl.cand[at];
                            double r = ak->R - margin;
                            double dx = y[0] - ak->x, dy = y[1] - ak->y, dz = y[2] - ak->z;
                            if (dx * dx + dy * dy + dz * dz < r * r) open = 0, last = at;
                        }
                    }
                    if (!open) continue;
                    if (pass == 1) {
                        struct circle *cc = c->circ + c->cstart[ii] + count;
                        memcpy(cc->o, o, sizeof o);
                        memcpy(cc->u, u, sizeof u);
                        cc->rho = rho;
                        cc->j = j;
                    }
                    count++;
                }
                if (pass == 0) c->cstart[ii + 1] = count;
            }
            near_list_free(&nl);
        }
        if (pass == 0 && !fail) {
            for (size_t i = 0; i < n; i++) c->cstart[i + 1] += c->cstart[i];
            c->circ = malloc(((size_t)c->cstart[n] + 1) * sizeof *c->circ);
            if (!c->circ) fail = 1;
        }
    }
    return fail ? vsg_fail(VSG_E_NOMEM, "surface mesh: out of memory for circle lists") : VSG_OK;
}

/* ---- exact distance to P near the surface --------------------------------------------- */

/* No SAS sphere of the list but skip1/skip2 contains y. Neighbouring queries are buried by
 * the same sphere more often than not, so the last one that buried a point is tried first. */
static int inside_sphere(const satom *a, const double y[3])
{
    double dx = y[0] - a->x, dy = y[1] - a->y, dz = y[2] - a->z;
    return dx * dx + dy * dy + dz * dz < a->R * a->R - INSIDE_TOL;
}

static int exposed(const cells *c, near_list *l, const double y[3], uint32_t skip1, uint32_t skip2)
{
    uint32_t b = l->burier;
    if (b < c->n && b != skip1 && b != skip2 && inside_sphere(c->a + b, y)) return 0;
    for (size_t q = 0; q < l->n; q++) {
        uint32_t k = l->idx[q];
        if (k == skip1 || k == skip2) continue;
        if (inside_sphere(c->a + k, y)) {
            l->burier = k;
            return 0;
        }
    }
    return 1;
}

/* The circle point p is the nearest point of P (outside spheres i and j) only when x − p lies
 * in the cone spanned by c_i − p and c_j − p (the re-entrant wedge); elsewhere a sphere point
 * or another circle is nearer. e = x − p lies in the plane of the three points. */
static int in_cone(const double p[3], const satom *ai, const satom *aj, const double e[3])
{
    double a[3] = {ai->x - p[0], ai->y - p[1], ai->z - p[2]}, b[3] = {aj->x - p[0], aj->y - p[1], aj->z - p[2]};
    double aa = a[0] * a[0] + a[1] * a[1] + a[2] * a[2], bb = b[0] * b[0] + b[1] * b[1] + b[2] * b[2];
    double ab = a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    double ae = a[0] * e[0] + a[1] * e[1] + a[2] * e[2], be = b[0] * e[0] + b[1] * e[1] + b[2] * e[2];
    double det = aa * bb - ab * ab;
    if (!(det > 1e-12 * aa * bb)) return 0;
    double alpha = (ae * bb - be * ab) / det, beta = (be * aa - ae * ab) / det;
    return alpha >= -1e-9 && beta >= -1e-9;
}

/* d(x, P) bounded above by `best` (the lattice bound): the nearest exposed sphere or circle
 * point, when closer. Returns the distance; *found = 1 and y = that point when one was. */
static double refine(const cells *c, const double x[3], double best, near_list *l, int *found,
                     double y[3], int *fail)
{
    *found = 0;
    if (!gather(c, x, best, 0, l)) {
        *fail = 1;
        return best;
    }
    for (size_t q = 0; q < l->n; q++) {
        const satom *a = c->a + l->idx[q];
        /* a sphere point is the nearest point of P only seen from inside that sphere */
        double dist = l->dist[q], d = a->R - dist;
        if (d >= best || d < 0.0 || dist <= 0.0) continue;
        double s = a->R / dist, p[3] = {a->x + (x[0] - a->x) * s, a->y + (x[1] - a->y) * s,
                                       a->z + (x[2] - a->z) * s};
        if (!exposed(c, l, p, l->idx[q], l->idx[q])) continue;
        best = d;
        *found = 1;
        memcpy(y, p, sizeof p);
    }
    /* Circle points lie on both spheres, so they are at least max(d_i, d_j) away: only atoms
     * with d_i < best can help, and only pairs whose circle is exposed somewhere; a small
     * hash finds a circle's partner among the candidates. */
    size_t nc = 0;
    for (size_t q = 0; q < l->n; q++)
        if (fabs(l->dist[q] - c->a[l->idx[q]].R) < best) l->cand[nc++] = (uint32_t)q;
    /* atom index → list position, open addressing in a table of at least 2·nc slots */
    size_t hmask = 15;
    while (hmask + 1 < 2 * nc) hmask = 2 * hmask + 1;
    if (hmask + 1 > l->hcap) {
        uint32_t *t = realloc(l->hash, (hmask + 1) * sizeof *t);
        if (!t) {
            *fail = 1;
            return best;
        }
        l->hash = t;
        l->hcap = hmask + 1;
    }
    for (size_t k = 0; k <= hmask; k++) l->hash[k] = UINT32_MAX;
    for (size_t qi = 0; qi < nc; qi++) {
        size_t k = (l->idx[l->cand[qi]] * 2654435761u) & hmask;
        while (l->hash[k] != UINT32_MAX) k = (k + 1) & hmask;
        l->hash[k] = l->cand[qi];
    }
    for (size_t qi = 0; qi < nc; qi++) {
        size_t q = l->cand[qi];
        uint32_t i = l->idx[q];
        const satom *ai = c->a + i;
        if (fabs(l->dist[q] - ai->R) >= best) continue;
        for (uint32_t s = c->cstart[i]; s < c->cstart[i + 1]; s++) {
            const struct circle *cc = c->circ + s;
            uint32_t j = cc->j;
            size_t k = (j * 2654435761u) & hmask;
            while (l->hash[k] != UINT32_MAX && l->idx[l->hash[k]] != j) k = (k + 1) & hmask;
            if (l->hash[k] == UINT32_MAX) continue;
            size_t w = l->hash[k];
            const satom *aj = c->a + j;
            if (fabs(l->dist[w] - aj->R) >= best) continue;
            const double *o = cc->o, *u = cc->u, rho = cc->rho;
            double v[3] = {x[0] - o[0], x[1] - o[1], x[2] - o[2]};
            double vu = v[0] * u[0] + v[1] * u[1] + v[2] * u[2];
            if (vu * vu >= best * best) continue;   /* the circle's plane is already too far */
            for (int d = 0; d < 3; d++) v[d] -= vu * u[d];
            double vn = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
            if (vn < 1e-9) continue;   /* on the axis: every circle point is as near */
            double p[3];
            for (int d = 0; d < 3; d++) p[d] = o[d] + rho * v[d] / vn;
            double e[3] = {x[0] - p[0], x[1] - p[1], x[2] - p[2]};
            double dd2 = e[0] * e[0] + e[1] * e[1] + e[2] * e[2];
            if (dd2 >= best * best || !in_cone(p, ai, aj, e) ||
                !exposed(c, l, p, l->idx[q], l->idx[w]))
                continue;
            best = sqrt(dd2);
            *found = 1;
            memcpy(y, p, sizeof p);
        }
    }
    return best;
}

/* ---- exact Euclidean distance transform, one line (Felzenszwalb & Huttenlocher 2012) ---- */

/* d[q] = min_p (q − p)² + f[p] over the finite f[p] (squared distances in lattice units). */
static void edt_line(const float *f, float *d, int n, int *v, float *z)
{
    int k = -1;
    for (int q = 0; q < n; q++) {
        if (f[q] >= EDT_INF) continue;
        if (k < 0) {
            k = 0;
            v[0] = q;
            z[0] = -EDT_INF;
            z[1] = EDT_INF;
            continue;
        }
        float s;
        for (;;) {
            int p = v[k];
            s = ((f[q] + (float)q * q) - (f[p] + (float)p * p)) / (2.0f * (float)(q - p));
            if (s <= z[k] && k > 0) k--;
            else break;
        }
        if (s <= z[k]) {   /* k == 0 and the new parabola is lower everywhere */
            v[0] = q;
            z[1] = EDT_INF;
            continue;
        }
        k++;
        v[k] = q;
        z[k] = s;
        z[k + 1] = EDT_INF;
    }
    if (k < 0) {
        for (int q = 0; q < n; q++) d[q] = EDT_INF;
        return;
    }
    int j = 0;
    for (int q = 0; q < n; q++) {
        while (z[j + 1] < (float)q) j++;
        float dq = (float)(q - v[j]);
        d[q] = dq * dq + f[v[j]];
    }
}

/* In place over a block of nx·ny·nzp values (0 at sites, EDT_INF elsewhere). 0 on NOMEM. */
static int edt_3d(float *g, int nx, int ny, int nzp)
{
    int nmax = nx > ny ? nx : ny;
    nmax = nmax > nzp ? nmax : nzp;
    int fail = 0;
#pragma omp parallel
    {
        float *in = malloc(sizeof(float) * nmax), *out = malloc(sizeof(float) * nmax);
        float *z = malloc(sizeof(float) * (nmax + 1));
        int *v = malloc(sizeof(int) * nmax);
        if (!in || !out || !z || !v) {
#pragma omp atomic write
            fail = 1;
        }
        int ok = in && out && z && v;
        /* x lines */
#pragma omp for schedule(static)
        for (long line = 0; line < (long)ny * nzp; line++) {
            if (!ok) continue;
            float *row = g + (size_t)line * nx;
            edt_line(row, out, nx, v, z);
            memcpy(row, out, sizeof(float) * nx);
        }
        /* y lines */
#pragma omp for schedule(static)
        for (long line = 0; line < (long)nx * nzp; line++) {
            if (!ok) continue;
            long k = line / nx, i = line % nx;
            float *base = g + (size_t)k * nx * ny + i;
            for (int j = 0; j < ny; j++) in[j] = base[(size_t)j * nx];
            edt_line(in, out, ny, v, z);
            for (int j = 0; j < ny; j++) base[(size_t)j * nx] = out[j];
        }
        /* z lines */
#pragma omp for schedule(static)
        for (long line = 0; line < (long)nx * ny; line++) {
            if (!ok) continue;
            float *base = g + line;
            for (int k = 0; k < nzp; k++) in[k] = base[(size_t)k * nx * ny];
            edt_line(in, out, nzp, v, z);
            for (int k = 0; k < nzp; k++) base[(size_t)k * nx * ny] = out[k];
        }
        free(in);
        free(out);
        free(z);
        free(v);
    }
    return !fail;
}

/* ---- marching tetrahedra tables ------------------------------------------------------- */

/* Cube corners: bit 0 = +x, bit 1 = +y, bit 2 = +z. Kuhn tetrahedron t for the axis order
 * (a, b, c): corners 0, e_a, e_a + e_b, 7 — a chain, so every edge runs from a corner to one
 * of its supersets and is named by (start corner, direction bits). */
static const int kuhn_axes[6][2] = {{0, 1}, {0, 2}, {1, 0}, {1, 2}, {2, 0}, {2, 1}};

typedef struct {
    int ntri;
    uint8_t edge[2][3][2];   /* [triangle][vertex] = (start corner, end corner) */
} tet_case;

static void corner_xyz(int c, double p[3])
{
    p[0] = c & 1;
    p[1] = (c >> 1) & 1;
    p[2] = (c >> 2) & 1;
}

static void build_tables(tet_case table[6][16], int corner[6][4])
{
    for (int t = 0; t < 6; t++) {
        int a = kuhn_axes[t][0], b = kuhn_axes[t][1];
        corner[t][0] = 0;
        corner[t][1] = 1 << a;
        corner[t][2] = (1 << a) | (1 << b);
        corner[t][3] = 7;
        for (int mask = 0; mask < 16; mask++) {
            tet_case *tc = &table[t][mask];
            int in[4], out[4], ni = 0, no = 0;
            for (int q = 0; q < 4; q++) {
                if (mask >> q & 1) in[ni++] = q;
                else out[no++] = q;
            }
            tc->ntri = 0;
            int tris[2][3][2], ntri = 0;
            if (ni == 1 || ni == 3) {
                int apex = ni == 1 ? in[0] : out[0];
                const int *rest = ni == 1 ? out : in;
                for (int v = 0; v < 3; v++) tris[0][v][0] = apex, tris[0][v][1] = rest[v];
                ntri = 1;
            } else if (ni == 2) {
                /* quad ac, ad, bd, bc (a, b inside; c, d outside) as two triangles */
                int A = in[0], B = in[1], C = out[0], D = out[1];
                int quad[4][2] = {{A, C}, {A, D}, {B, D}, {B, C}};
                int pick[2][3] = {{0, 1, 2}, {0, 2, 3}};
                for (int s = 0; s < 2; s++)
                    for (int v = 0; v < 3; v++)
                        tris[s][v][0] = quad[pick[s][v]][0], tris[s][v][1] = quad[pick[s][v]][1];
                ntri = 2;
            }
            /* outward = from the inside corners' centroid to the outside corners' */
            double cin[3] = {0, 0, 0}, cout[3] = {0, 0, 0}, p[3];
            for (int q = 0; q < ni; q++) {
                corner_xyz(corner[t][in[q]], p);
                for (int d = 0; d < 3; d++) cin[d] += p[d] / ni;
            }
            for (int q = 0; q < no; q++) {
                corner_xyz(corner[t][out[q]], p);
                for (int d = 0; d < 3; d++) cout[d] += p[d] / no;
            }
            for (int s = 0; s < ntri; s++) {
                double m[3][3];
                for (int v = 0; v < 3; v++) {
                    double p0[3], p1[3];
                    corner_xyz(corner[t][tris[s][v][0]], p0);
                    corner_xyz(corner[t][tris[s][v][1]], p1);
                    for (int d = 0; d < 3; d++) m[v][d] = 0.5 * (p0[d] + p1[d]);
                }
                double u[3], w[3], n[3];
                for (int d = 0; d < 3; d++) u[d] = m[1][d] - m[0][d], w[d] = m[2][d] - m[0][d];
                n[0] = u[1] * w[2] - u[2] * w[1];
                n[1] = u[2] * w[0] - u[0] * w[2];
                n[2] = u[0] * w[1] - u[1] * w[0];
                double dot = 0.0;
                for (int d = 0; d < 3; d++) dot += n[d] * (cout[d] - cin[d]);
                int order[3] = {0, 1, 2};
                if (dot < 0) order[1] = 2, order[2] = 1;
                for (int v = 0; v < 3; v++) {
                    int q0 = tris[s][order[v]][0], q1 = tris[s][order[v]][1];
                    if (q0 > q1) { int tmp = q0; q0 = q1; q1 = tmp; }   /* lower in the chain first */
                    tc->edge[s][v][0] = (uint8_t)corner[t][q0];
                    tc->edge[s][v][1] = (uint8_t)corner[t][q1];
                }
            }
            tc->ntri = ntri;
        }
    }
}

/* ---- growing output ------------------------------------------------------------------- */

typedef struct {
    float *xyz;
    uint32_t *tri;
    size_t nv, nf, cap_v, cap_f;
    double fixed_bytes, max_bytes;
} builder;

static vsg_status grow(builder *b, int vertex)
{
    size_t cap = vertex ? b->cap_v : b->cap_f;
    size_t want = cap ? 2 * cap : 65536;
    /* both arrays at their new sizes, plus the old copy of the one growing (realloc) */
    double bytes = b->fixed_bytes + 12.0 * (want + cap + (vertex ? b->cap_f : b->cap_v));
    if (b->max_bytes > 0 && bytes > b->max_bytes)
        return vsg_fail(VSG_E_LIMIT, "surface mesh: needs more than %.0f bytes (max_bytes %.0f) for "
                        "%zu vertices and %zu faces so far; raise the limit or use a coarser spacing",
                        bytes, b->max_bytes, b->nv, b->nf);
    if (vertex && want > UINT32_MAX)
        return vsg_fail(VSG_E_LIMIT, "surface mesh: more than 2^32 vertices; use a coarser spacing");
    void *p = realloc(vertex ? (void *)b->xyz : (void *)b->tri, want * 12);
    if (!p) return vsg_fail(VSG_E_NOMEM, "surface mesh: out of memory at %zu vertices", b->nv);
    if (vertex) b->xyz = p, b->cap_v = want;
    else b->tri = p, b->cap_f = want;
    return VSG_OK;
}

/* ---- the builder ---------------------------------------------------------------------- */

typedef struct {
    int nx, ny, nz;
    double origin[3], h;
} lattice;

/* Field values of planes [k0, k1] (in slab buffer g, whose plane 0 is lattice plane z0),
 * from the occupancy (occ: inside SAS) and squared lattice distances already in g. */
static int compute_field(const cells *c, const lattice *L, double probe, const uint8_t *occ,
                         float *g, int z0, int k0, int k1)
{
    const double h = L->h, cap = probe + 2.0 * h;
    const long rows = (long)L->ny * (k1 - k0 + 1);
    int fail = 0;
#pragma omp parallel
    {
        near_list nl = {NULL, NULL, NULL, 0, 0, NULL, 0, 0};
#pragma omp for schedule(dynamic, 4)
        for (long row = 0; row < rows; row++) {
            int j = (int)(row % L->ny), k = k0 + (int)(row / L->ny);
            size_t base = ((size_t)(k - z0) * L->ny + j) * L->nx;
            for (int i = 0; i < L->nx; i++) {
                double x[3] = {L->origin[0] + i * h, L->origin[1] + j * h, L->origin[2] + k * h};
                size_t p = base + i;
                int found, bad = 0;
                double y[3];
                if (!occ[p]) {
                    /* outside the SAS: f = probe + distance to the SAS, needed only when the
                     * probe is smaller than a tetrahedron edge */
                    double f = probe;
                    if (probe < 2.0 * h) {
                        double s = 2.0 * h;
                        if (!gather(c, x, s, 0, &nl)) bad = 1;
                        for (size_t q = 0; q < nl.n; q++)
                            s = fmin(s, nl.dist[q] - c->a[nl.idx[q]].R);
                        f += fmax(s, 0.0);
                    }
                    g[p] = (float)f;
                } else {
                    double d = h * sqrt((double)g[p]);
                    /* the lattice bound errs by at most about √3·h: refine only where a
                     * tetrahedron edge (≤ √3·h) may cross the surface */
                    if (d > probe - 1.75 * h && d < probe + 3.5 * h)
                        d = refine(c, x, d, &nl, &found, y, &bad);
                    g[p] = (float)(probe - fmin(d, cap));
                }
                if (bad) {
#pragma omp atomic write
                    fail = 1;
                }
            }
        }
        near_list_free(&nl);
    }
    return !fail;
}

/* Vertex id (1-based, 0 = none yet) slots for edges starting at the lower plane (all seven
 * directions) and the upper plane (the three in-plane ones). */
typedef struct {
    uint32_t *lo3, *hi3, *z4;   /* nx·ny·3, nx·ny·3, nx·ny·4 */
} edge_ids;

static uint32_t *edge_slot(const edge_ids *e, int nx, int i, int j, int start, int dir)
{
    size_t p = (size_t)(j + (start >> 1 & 1)) * nx + i + (start & 1);
    if (start & 4) return e->hi3 + 3 * p + (dir - 1);
    if (dir & 4) return e->z4 + 4 * p + (dir - 4);
    return e->lo3 + 3 * p + (dir - 1);
}

/* Triangulates the cube layer between lattice planes k and k + 1. */
static vsg_status march_layer(builder *b, const lattice *L, const float *f0, const float *f1, int k,
                              const edge_ids *e, const tet_case table[6][16], const int corner[6][4])
{
    const int nx = L->nx, ny = L->ny;
    const double h = L->h;
    for (int j = 0; j + 1 < ny; j++)
        for (int i = 0; i + 1 < nx; i++) {
            float v[8];
            size_t p = (size_t)j * nx + i;
            v[0] = f0[p], v[1] = f0[p + 1], v[2] = f0[p + nx], v[3] = f0[p + nx + 1];
            v[4] = f1[p], v[5] = f1[p + 1], v[6] = f1[p + nx], v[7] = f1[p + nx + 1];
            int cube = 0;
            for (int c = 0; c < 8; c++) cube |= (v[c] < 0.0f) << c;
            if (cube == 0 || cube == 255) continue;
            for (int t = 0; t < 6; t++) {
                int mask = 0;
                for (int q = 0; q < 4; q++) mask |= (cube >> corner[t][q] & 1) << q;
                const tet_case *tc = &table[t][mask];
                for (int s = 0; s < tc->ntri; s++) {
                    uint32_t id[3];
                    for (int w = 0; w < 3; w++) {
                        int a = tc->edge[s][w][0], c2 = tc->edge[s][w][1];
                        uint32_t *slot = edge_slot(e, nx, i, j, a, a ^ c2);
                        if (!*slot) {
                            if (b->nv == b->cap_v) {
                                vsg_status st = grow(b, 1);
                                if (st != VSG_OK) return st;
                            }
                            double t0 = v[a] / (double)(v[a] - v[c2]);
                            t0 = t0 < 1e-3 ? 1e-3 : t0 > 1.0 - 1e-3 ? 1.0 - 1e-3 : t0;
                            double pa[3], pc[3];
                            corner_xyz(a, pa);
                            corner_xyz(c2, pc);
                            float *xyz = b->xyz + 3 * b->nv;
                            const int ijk[3] = {i, j, k};
                            for (int d = 0; d < 3; d++)
                                xyz[d] = (float)(L->origin[d] +
                                                 h * (ijk[d] + pa[d] + t0 * (pc[d] - pa[d])));
                            *slot = (uint32_t)(++b->nv);
                        }
                        id[w] = *slot - 1;
                    }
                    if (b->nf == b->cap_f) {
                        vsg_status st = grow(b, 0);
                        if (st != VSG_OK) return st;
                    }
                    memcpy(b->tri + 3 * b->nf++, id, sizeof id);
                }
            }
        }
    return VSG_OK;
}

/* Moves vertices onto the exact surface where the nearest probe point is known exactly,
 * sets normals (exact there, area-weighted face normals elsewhere) and nearest atoms. */
static int finish_vertices(vsg_mesh *m, const cells *c, double probe, double h)
{
    /* face normals first, from the marched positions */
    float *fn = calloc(3 * (m->nvert ? m->nvert : 1), sizeof(float));
    if (!fn) return 0;
    for (size_t f = 0; f < m->nface; f++) {
        const uint32_t *t = m->tri + 3 * f;
        const float *a = m->xyz + 3 * (size_t)t[0], *b = m->xyz + 3 * (size_t)t[1],
                    *cc = m->xyz + 3 * (size_t)t[2];
        double u[3], w[3], n[3];
        for (int d = 0; d < 3; d++) u[d] = b[d] - a[d], w[d] = cc[d] - a[d];
        n[0] = u[1] * w[2] - u[2] * w[1];
        n[1] = u[2] * w[0] - u[0] * w[2];
        n[2] = u[0] * w[1] - u[1] * w[0];
        for (int v = 0; v < 3; v++)
            for (int d = 0; d < 3; d++) fn[3 * (size_t)t[v] + d] += (float)n[d];
    }
    int fail = 0;
#pragma omp parallel
    {
        near_list nl = {NULL, NULL, NULL, 0, 0, NULL, 0, 0};
#pragma omp for schedule(dynamic, 256)
        for (long v = 0; v < (long)m->nvert; v++) {
            float *xyz = m->xyz + 3 * v, *nrm = m->normal + 3 * v;
            double x[3] = {xyz[0], xyz[1], xyz[2]}, y[3], n[3] = {fn[3 * v], fn[3 * v + 1], fn[3 * v + 2]};
            int found = 0, bad = 0;
            double d = refine(c, x, probe + 2.0 * h, &nl, &found, y, &bad);
            if (found && fabs(d - probe) < 0.25 * h && d > 1e-9) {
                /* exact: the surface point on the segment from the probe centre y through x
                 * (for probe 0, y itself), the normal from x towards y */
                double u[3] = {y[0] - x[0], y[1] - x[1], y[2] - x[2]};
                for (int q = 0; q < 3; q++) u[q] /= d;
                if (probe > 0)
                    for (int q = 0; q < 3; q++) xyz[q] = (float)(y[q] - probe * u[q]);
                else
                    for (int q = 0; q < 3; q++) xyz[q] = (float)y[q];
                for (int q = 0; q < 3; q++) n[q] = u[q];
                x[0] = xyz[0], x[1] = xyz[1], x[2] = xyz[2];
            }
            /* nearest atom: min |x − c| − r; every surface point lies within 2·probe + 2h of a
             * van der Waals sphere, widen the search if not */
            double best = HUGE_VAL, reach = 2.0 * probe + 2.0 * h;
            int32_t who = -1;
            while (who < 0 && !bad) {
                if (!gather(c, x, reach, 1, &nl)) bad = 1;
                for (size_t q = 0; q < nl.n; q++) {
                    double s = nl.dist[q] - c->a[nl.idx[q]].r;
                    if (s < best) best = s, who = (int32_t)nl.idx[q];
                }
                reach *= 2.0;
                if (reach > 1e6) break;
            }
            m->atom[v] = who;
            double nn = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
            if (!(nn > 0.0) && who >= 0) {
                const satom *a = c->a + who;
                n[0] = x[0] - a->x, n[1] = x[1] - a->y, n[2] = x[2] - a->z;
                nn = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
            }
            if (!(nn > 0.0)) n[0] = n[1] = 0.0, n[2] = nn = 1.0;
            for (int q = 0; q < 3; q++) nrm[q] = (float)(n[q] / nn);
            if (bad) {
#pragma omp atomic write
                fail = 1;
            }
        }
        near_list_free(&nl);
    }
    free(fn);
    return !fail;
}

vsg_status vsg_ses_mesh(const vsg_molecule *mol, const vsg_ses_options *o, vsg_mesh **out)
{
    *out = NULL;
    vsg_ses_options def;
    if (!o) vsg_ses_options_default(&def), o = &def;
    const double probe = o->probe, h = o->spacing;
    if (!(probe >= 0.0 && probe <= 100.0))
        return vsg_fail(VSG_E_ARG, "surface mesh: probe radius %g outside [0, 100] Å", probe);
    if (!(h >= 0.01 && h <= 10.0))
        return vsg_fail(VSG_E_ARG, "surface mesh: spacing %g outside [0.01, 10] Å", h);
    if (!(o->max_bytes >= 0.0))
        return vsg_fail(VSG_E_ARG, "surface mesh: max_bytes %g is negative", o->max_bytes);

    /* atoms with a radius, and the lattice around their SAS spheres */
    size_t na = 0;
    satom *at = malloc((mol->n ? mol->n : 1) * sizeof *at);
    if (!at) return vsg_fail(VSG_E_NOMEM, "surface mesh: out of memory for %zu atoms", mol->n);
    double lo[3] = {HUGE_VAL, HUGE_VAL, HUGE_VAL}, hi[3] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
    for (size_t i = 0; i < mol->n; i++) {
        const vsg_atom *a = mol->atoms + i;
        if (!(a->radius > 0.0)) continue;
        if (!isfinite(a->x) || !isfinite(a->y) || !isfinite(a->z) || !(a->radius < 100.0)) {
            free(at);
            return vsg_fail(VSG_E_DATA, "%s:%d: atom %zu has a non-finite position or radius %g",
                            mol->source, a->line, i + 1, a->radius);
        }
        satom s = {a->x, a->y, a->z, a->radius, a->radius + probe};
        const double p[3] = {a->x, a->y, a->z};
        for (int d = 0; d < 3; d++) {
            lo[d] = fmin(lo[d], p[d] - s.R);
            hi[d] = fmax(hi[d], p[d] + s.R);
        }
        at[na++] = s;
    }
    /* skipped atoms shift the numbering: remember each kept atom's index in the molecule */
    int32_t *mol_index = malloc((na ? na : 1) * sizeof *mol_index);
    if (!mol_index) {
        free(at);
        return vsg_fail(VSG_E_NOMEM, "surface mesh: out of memory for %zu atoms", na);
    }
    for (size_t i = 0, q = 0; i < mol->n; i++)
        if (mol->atoms[i].radius > 0.0) mol_index[q++] = (int32_t)i;
    if (na == 0) {
        free(at);
        free(mol_index);
        return vsg_fail(VSG_E_DATA, "%s: no atom with a radius > 0 to build a surface from",
                        mol->source);
    }

    lattice L;
    L.h = h;
    int nn[3];
    for (int d = 0; d < 3; d++) {
        L.origin[d] = lo[d] - 2.0 * h;
        double n = ceil((hi[d] - lo[d] + 4.0 * h) / h) + 1.0;
        if (n > 1e6) {
            free(at);
            free(mol_index);
            return vsg_fail(VSG_E_LIMIT, "surface mesh: the molecule spans %.0f Å, %.0f lattice points "
                            "along one axis at spacing %g Å", hi[d] - lo[d], n, h);
        }
        nn[d] = (int)n;
    }
    L.nx = nn[0], L.ny = nn[1], L.nz = nn[2];

    /* memory: choose the slab thickness under max_bytes */
    const int margin = (int)ceil((probe + 4.0 * h) / h) + 1;
    const double plane = (double)L.nx * L.ny;
    cells c = {0};
    double fixed = (84.0 + 3.0 * 64.0) * (double)na + 40.0 * plane;   /* ~3 circles per atom */
    int S = MAX_SLAB < L.nz - 1 ? MAX_SLAB : L.nz - 1;
    if (S < 1) S = 1;
    if (o->max_bytes > 0) {
        while (S > 1 && fixed + 5.0 * plane * (S + 1 + 2 * margin) > 0.5 * o->max_bytes) S /= 2;
        double need = fixed + 5.0 * plane * (S + 1 + 2 * margin);
        if (need > o->max_bytes) {
            free(at);
            free(mol_index);
            return vsg_fail(VSG_E_LIMIT, "surface mesh: needs at least %.0f bytes for a %dx%dx%d "
                            "lattice at %g Å (max_bytes %.0f); use a coarser spacing", need, L.nx,
                            L.ny, L.nz, h, o->max_bytes);
        }
    }

    vsg_status st = cells_build(&c, at, na);
    if (st == VSG_OK) st = circles_build(&c);
    const int zcap = S + 1 + 2 * margin;
    size_t pl = (size_t)L.nx * L.ny;
    uint8_t *occ = NULL;
    float *g = NULL;
    vsg_ball *sas = NULL;
    edge_ids e = {NULL, NULL, NULL};
    builder b = {NULL, NULL, 0, 0, 0, 0, 0.0, o->max_bytes};
    if (st == VSG_OK) {
        occ = malloc(pl * zcap);
        g = malloc(pl * zcap * sizeof(float));
        sas = malloc(na * sizeof *sas);
        e.lo3 = calloc(pl * 3, sizeof(uint32_t));
        e.hi3 = calloc(pl * 3, sizeof(uint32_t));
        e.z4 = calloc(pl * 4, sizeof(uint32_t));
        if (!occ || !g || !sas || !e.lo3 || !e.hi3 || !e.z4)
            st = vsg_fail(VSG_E_NOMEM, "surface mesh: out of memory for a %dx%dx%d slab (%.0f bytes)",
                          L.nx, L.ny, zcap, 5.0 * plane * zcap + 40.0 * plane);
    }
    b.fixed_bytes = fixed + 5.0 * plane * zcap + 4.0 * (c.nc[0] * (double)c.nc[1] * c.nc[2]);
    tet_case table[6][16];
    int corner[6][4];
    build_tables(table, corner);
    if (st == VSG_OK) {
        for (size_t i = 0; i < na; i++) sas[i] = (vsg_ball){at[i].x, at[i].y, at[i].z, at[i].R};
        vsg_balls_sort(sas, na);
    }

    /* slabs: field planes [k0, k1], cube layers k0 .. k1 − 1 */
    for (int k0 = 0; st == VSG_OK && k0 < L.nz - 1; k0 += S) {
        int k1 = k0 + S < L.nz - 1 ? k0 + S : L.nz - 1;
        int z0 = k0 - margin < 0 ? 0 : k0 - margin;
        int z1 = k1 + margin > L.nz - 1 ? L.nz - 1 : k1 + margin;
        int nzp = z1 - z0 + 1;
        vsg_lattice slab = {{L.origin[0], L.origin[1], L.origin[2] + z0 * h}, h, {L.nx, L.ny, nzp}};
        memset(occ, 0, pl * nzp);
        vsg_mark_balls(sas, na, &slab, occ, 1, NULL, 0, 0);
        for (size_t p = 0; p < pl * nzp; p++) g[p] = occ[p] ? EDT_INF : 0.0f;
        if (!edt_3d(g, L.nx, L.ny, nzp) || !compute_field(&c, &L, probe, occ, g, z0, k0, k1)) {
            st = vsg_fail(VSG_E_NOMEM, "surface mesh: out of memory in the distance field");
            break;
        }
        for (int k = k0; st == VSG_OK && k < k1; k++) {
            st = march_layer(&b, &L, g + (size_t)(k - z0) * pl, g + (size_t)(k + 1 - z0) * pl, k, &e,
                             table, corner);
            /* the upper plane's in-plane edges become the next layer's lower ones */
            uint32_t *t = e.lo3;
            e.lo3 = e.hi3;
            e.hi3 = t;
            memset(e.hi3, 0, pl * 3 * sizeof(uint32_t));
            memset(e.z4, 0, pl * 4 * sizeof(uint32_t));
        }
    }
    free(occ);
    free(g);
    free(sas);
    free(e.lo3);
    free(e.hi3);
    free(e.z4);

    vsg_mesh *m = NULL;
    if (st == VSG_OK) {
        double need = b.fixed_bytes + 12.0 * (b.cap_v + b.cap_f) + 28.0 * b.nv + 12.0 * b.nf;
        if (o->max_bytes > 0 && need > o->max_bytes)
            st = vsg_fail(VSG_E_LIMIT, "surface mesh: needs %.0f bytes for %zu vertices and %zu faces "
                          "(max_bytes %.0f)", need, b.nv, b.nf, o->max_bytes);
    }
    if (st == VSG_OK) {
        m = vsg_mesh_new(b.nv, b.nf);
        if (!m) st = vsg_fail(VSG_E_NOMEM, "surface mesh: out of memory for %zu vertices", b.nv);
    }
    if (st == VSG_OK) {
        if (b.nv) memcpy(m->xyz, b.xyz, 12 * b.nv);
        if (b.nf) memcpy(m->tri, b.tri, 12 * b.nf);
        free(b.xyz);
        free(b.tri);
        b.xyz = NULL;
        b.tri = NULL;
        if (!finish_vertices(m, &c, probe, h))
            st = vsg_fail(VSG_E_NOMEM, "surface mesh: out of memory while placing vertices");
        for (size_t v = 0; st == VSG_OK && v < m->nvert; v++)
            if (m->atom[v] >= 0) m->atom[v] = mol_index[m->atom[v]];
    }
    free(b.xyz);
    free(b.tri);
    cells_free(&c);
    free(at);
    free(mol_index);
    if (st != VSG_OK) {
        vsg_mesh_free(m);
        return st;
    }
    *out = m;
    return VSG_OK;
}
