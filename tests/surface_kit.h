/* surface_kit.h — surface points for the surface-potential tests without the mesh builder:
 * every `stride`-th solvent-accessible point (probe 1.4 Å, `step` Å apart) as a vertex. With
 * `on_atoms`, each point is pulled back onto the van der Waals sphere of its nearest atom (by
 * surface distance), with that atom's outward radial normal and index, as a surface vertex
 * would be (brute force: use a stride on large molecules); otherwise it stays on the SAS with a
 * random unit normal (enough to exercise the projections). Free with surface_kit_free. */
#ifndef VSG_TEST_SURFACE_KIT_H
#define VSG_TEST_SURFACE_KIT_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "grids/receptor/molecule.h"
#include "grids/pb/dielectric.h"
#include "grids/base/vsgrid.h"
#include "testkit.h"

static inline vsg_mesh *surface_kit_points(const vsg_molecule *m, size_t stride, double step, int on_atoms)
{
    vsg_ball *pts = NULL;
    size_t n = 0;
    if (vsg_sas_points(m, 1.4, step, &pts, &n) != VSG_OK) return NULL;
    size_t nv = (n + stride - 1) / stride;
    vsg_mesh *mesh = calloc(1, sizeof *mesh);
    mesh->nvert = nv;
    mesh->xyz = malloc(3 * nv * sizeof(float));
    mesh->normal = malloc(3 * nv * sizeof(float));
    mesh->atom = malloc(nv * sizeof(int32_t));
    for (size_t v = 0; v < nv; v++) {
        const vsg_ball *b = &pts[v * stride];
        double p[3] = {b->x, b->y, b->z}, u[3];
        mesh->atom[v] = -1;
        if (on_atoms) {
            size_t best = 0;
            double bd = INFINITY;
            for (size_t j = 0; j < m->n; j++) {
                const vsg_atom *a = &m->atoms[j];
                double d = sqrt((b->x - a->x) * (b->x - a->x) + (b->y - a->y) * (b->y - a->y) +
                                (b->z - a->z) * (b->z - a->z)) - a->radius;
                if (d < bd) bd = d, best = j;
            }
            const vsg_atom *a = &m->atoms[best];
            double c[3] = {a->x, a->y, a->z};
            for (int d = 0; d < 3; d++) u[d] = p[d] - c[d];
            double l = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
            for (int d = 0; d < 3; d++) u[d] /= l, p[d] = c[d] + a->radius * u[d];
            mesh->atom[v] = (int32_t)best;
        } else {
            for (int d = 0; d < 3; d++) u[d] = urand() - 0.5;
            double l = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
            for (int d = 0; d < 3; d++) u[d] /= l;
        }
        for (int d = 0; d < 3; d++) {
            mesh->normal[3 * v + d] = (float)u[d];
            mesh->xyz[3 * v + d] = (float)p[d];
        }
    }
    free(pts);
    return mesh;
}

static inline void surface_kit_free(vsg_mesh *m)
{
    if (!m) return;
    free(m->xyz), free(m->normal), free(m->atom), free(m);
}

#endif
