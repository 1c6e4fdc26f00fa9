/* surface_mesh.c — the mesh container, the builder's defaults, and the two integrals every
 * caller wants from a closed mesh: its area (total and per vertex, the weights of a surface
 * average) and the volume it encloses (divergence theorem, so a sign error in the
 * orientation shows up as a negative volume). */
#include "grids/base/vsgrid.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

vsg_mesh *vsg_mesh_new(size_t nvert, size_t nface)
{
    vsg_mesh *m = calloc(1, sizeof *m);
    if (!m) return NULL;
    /* Refuse sizes whose byte counts would overflow size_t. */
    if (nvert > SIZE_MAX / (3 * sizeof(float)) || nface > SIZE_MAX / (3 * sizeof(uint32_t))) {
        free(m);
        return NULL;
    }
    m->nvert = nvert;
    m->nface = nface;
    /* Allocate at least one element so a zero-sized mesh still has valid pointers. */
    m->xyz = malloc(3 * (nvert ? nvert : 1) * sizeof(float));
    m->normal = malloc(3 * (nvert ? nvert : 1) * sizeof(float));
    m->atom = malloc((nvert ? nvert : 1) * sizeof(int32_t));
    m->tri = malloc(3 * (nface ? nface : 1) * sizeof(uint32_t));
    if (!m->xyz || !m->normal || !m->atom || !m->tri) {
        vsg_mesh_free(m);
        return NULL;
    }
    for (size_t i = 0; i < nvert; i++) m->atom[i] = -1;
    return m;
}

void vsg_mesh_free(vsg_mesh *m)
{
    if (!m) return;
    free(m->xyz);
    free(m->normal);
    free(m->atom);
    free(m->tri);
    free(m);
}

void vsg_ses_options_default(vsg_ses_options *o)
{
    memset(o, 0, sizeof *o);
    o->probe = 1.4;
    o->spacing = 0.8;
    o->max_bytes = 0.0;
}

/* Twice the vector area of face f: (b − a) × (c − a), in double. Faces with an index out
 * of range count as zero (vsg_mesh_check reports them). */
static int face_cross(const vsg_mesh *m, size_t f, double a[3], double n[3])
{
    const uint32_t *t = m->tri + 3 * f;
    if (t[0] >= m->nvert || t[1] >= m->nvert || t[2] >= m->nvert) return 0;
    const float *pa = m->xyz + 3 * (size_t)t[0], *pb = m->xyz + 3 * (size_t)t[1],
                *pc = m->xyz + 3 * (size_t)t[2];
    double u[3], v[3];
    for (int d = 0; d < 3; d++) {
        a[d] = pa[d];
        u[d] = (double)pb[d] - pa[d];
        v[d] = (double)pc[d] - pa[d];
    }
    n[0] = u[1] * v[2] - u[2] * v[1];
    n[1] = u[2] * v[0] - u[0] * v[2];
    n[2] = u[0] * v[1] - u[1] * v[0];
    return 1;
}

double vsg_mesh_area(const vsg_mesh *m, double *vertex_area)
{
    double total = 0.0;
    if (vertex_area)
        for (size_t i = 0; i < m->nvert; i++) vertex_area[i] = 0.0;
    for (size_t f = 0; f < m->nface; f++) {
        double a[3], n[3];
        if (!face_cross(m, f, a, n)) continue;
        double area = 0.5 * sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        total += area;
        if (vertex_area)
            for (int c = 0; c < 3; c++) vertex_area[m->tri[3 * f + c]] += area / 3.0;
    }
    return total;
}

double vsg_mesh_volume(const vsg_mesh *m)
{
    /* Σ a · ((b − a) × (c − a)) / 6 = Σ a · (b × c) / 6, the signed volume of the cone from
     * the origin; relative to a keeps the rounding small far from the origin only if the mesh
     * is near it, so subtract the first vertex as a local origin. */
    double o[3] = {0, 0, 0}, vol = 0.0;
    if (m->nvert)
        for (int d = 0; d < 3; d++) o[d] = m->xyz[d];
    for (size_t f = 0; f < m->nface; f++) {
        double a[3], n[3];
        if (!face_cross(m, f, a, n)) continue;
        vol += (a[0] - o[0]) * n[0] + (a[1] - o[1]) * n[1] + (a[2] - o[2]) * n[2];
    }
    return vol / 6.0;
}
