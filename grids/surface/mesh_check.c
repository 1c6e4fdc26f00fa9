/* mesh_check.c — is a triangle mesh a closed, consistently oriented surface?
 *
 * Every face contributes its three directed edges; sorting them by undirected key groups
 * the uses of each edge. A closed oriented 2-manifold has exactly two uses per edge, in
 * opposite directions. Memory: 8 bytes per directed edge (24 per face) plus one byte per
 * vertex. */
#include "grids/base/vsgrid.h"

#include <stdlib.h>


static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

vsg_status vsg_mesh_check(const vsg_mesh *m, vsg_mesh_topology *t)
{
    t->edges = t->boundary_or_nonmanifold = t->misoriented = t->unused_vertices = 0;
    t->euler = 0;
    /* Key of a directed edge a→b: lo·2^32 + hi·2 + (a > b), so the uses of one undirected
     * edge sort together and the lowest bit tells the direction; needs indices < 2^31. */
    if (m->nvert >= ((size_t)1 << 31))
        return vsg_fail(VSG_E_LIMIT, "mesh check: %zu vertices, at most 2^31 supported", m->nvert);
    for (size_t f = 0; f < 3 * m->nface; f++)
        if (m->tri[f] >= m->nvert)
            return vsg_fail(VSG_E_ARG, "mesh check: face %zu uses vertex %u of %zu", f / 3,
                            m->tri[f], m->nvert);
    size_t ne = 3 * m->nface;
    uint64_t *key = malloc((ne ? ne : 1) * sizeof *key);
    uint8_t *used = calloc(m->nvert ? m->nvert : 1, 1);
    if (!key || !used) {
        free(key);
        free(used);
        return vsg_fail(VSG_E_NOMEM, "mesh check: out of memory for %zu edges", ne);
    }
    for (size_t f = 0; f < m->nface; f++)
        for (int c = 0; c < 3; c++) {
            uint64_t a = m->tri[3 * f + c], b = m->tri[3 * f + (c + 1) % 3];
            used[a] = 1;
            uint64_t lo = a < b ? a : b, hi = a < b ? b : a, dir = a < b ? 0 : 1;
            key[3 * f + c] = (lo << 32) | (hi << 1) | dir;
        }
    qsort(key, ne, sizeof *key, cmp_u64);
    for (size_t i = 0; i < ne;) {
        size_t j = i;
        while (j < ne && (key[j] >> 1) == (key[i] >> 1)) j++;
        t->edges++;
        if (j - i != 2)
            t->boundary_or_nonmanifold++;
        else if ((key[i] & 1) == (key[i + 1] & 1))
            t->misoriented++;
        i = j;
    }
    for (size_t v = 0; v < m->nvert; v++) t->unused_vertices += !used[v];
    t->euler = (long)m->nvert - (long)t->edges + (long)m->nface;
    free(key);
    free(used);
    return VSG_OK;
}
