/* batch.c — the batch builder of batch.h: fixed-capacity structure-of-arrays buffers filled one
 * ligand at a time, with the box of the finite coordinates kept on the way. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ligands/score/batch.h"
#include "grids/base/vsgrid.h"

vsg_status vsg_batch_init(vsg_batch *b, size_t cap_ligands, size_t cap_atoms)
{
    if (!b) return vsg_fail(VSG_E_ARG, "batch: NULL argument");
    memset(b, 0, sizeof *b);
    if (cap_ligands == 0 || cap_atoms == 0)
        return vsg_fail(VSG_E_ARG, "batch: capacities must be > 0 (%zu ligands, %zu atoms)", cap_ligands, cap_atoms);
    if (cap_atoms > UINT32_MAX || cap_ligands > UINT32_MAX - 1)
        return vsg_fail(VSG_E_ARG, "batch: %zu atoms or %zu ligands exceed the 32-bit offsets", cap_atoms,
                        cap_ligands);
    b->start = malloc((cap_ligands + 1) * sizeof *b->start);
    b->x = malloc(cap_atoms * sizeof(float));
    b->y = malloc(cap_atoms * sizeof(float));
    b->z = malloc(cap_atoms * sizeof(float));
    b->q = malloc(cap_atoms * sizeof(float));
    b->type = malloc(cap_atoms);
    if (!b->start || !b->x || !b->y || !b->z || !b->q || !b->type) {
        vsg_batch_free(b);
        return vsg_fail(VSG_E_NOMEM, "batch: out of memory for %zu ligands, %zu atoms", cap_ligands, cap_atoms);
    }
    b->cap_ligands = cap_ligands;
    b->cap_atoms = cap_atoms;
    vsg_batch_reset(b);
    return VSG_OK;
}

void vsg_batch_free(vsg_batch *b)
{
    if (!b) return;
    free(b->start);
    free(b->x);
    free(b->y);
    free(b->z);
    free(b->q);
    free(b->type);
    memset(b, 0, sizeof *b);
}

void vsg_batch_reset(vsg_batch *b)
{
    b->nlig = 0;
    b->natoms = 0;
    if (b->start) b->start[0] = 0;
    for (int d = 0; d < 3; d++) {
        b->lo[d] = INFINITY;
        b->hi[d] = -INFINITY;
    }
    b->nonfinite = 0;
}

int vsg_batch_fits(const vsg_batch *b, size_t natoms)
{
    return b->nlig < b->cap_ligands && natoms <= b->cap_atoms - b->natoms;
}

vsg_status vsg_batch_append(vsg_batch *b, size_t natoms, const float *x, const float *y, const float *z,
                            const float *q, const uint8_t *type)
{
    if (!b || !b->start || (natoms && (!x || !y || !z || !q))) return vsg_fail(VSG_E_ARG, "batch: NULL argument");
    if (natoms > b->cap_atoms)
        return vsg_fail(VSG_E_LIMIT, "batch: a ligand of %zu atoms exceeds the batch capacity of %zu atoms", natoms,
                        b->cap_atoms);
    if (!vsg_batch_fits(b, natoms)) return VSG_E_LIMIT; /* full: the normal signal, no message */
    const size_t at = b->natoms;
    if (natoms > 0) { /* (memcpy must not see NULL sources) */
        memcpy(b->x + at, x, natoms * sizeof(float));
        memcpy(b->y + at, y, natoms * sizeof(float));
        memcpy(b->z + at, z, natoms * sizeof(float));
        memcpy(b->q + at, q, natoms * sizeof(float));
        if (type)
            memcpy(b->type + at, type, natoms);
        else
            memset(b->type + at, VSG_SCORE_NO_TYPE, natoms);
    }
    vsg_batch_commit(b, natoms);
    return VSG_OK;
}

void vsg_batch_commit(vsg_batch *b, size_t natoms)
{
    const size_t at = b->natoms;
    for (size_t i = at; i < at + natoms; i++) {
        const float p[3] = {b->x[i], b->y[i], b->z[i]};
        if (!isfinite(p[0]) || !isfinite(p[1]) || !isfinite(p[2])) {
            b->nonfinite++;
            continue;
        }
        for (int d = 0; d < 3; d++) {
            if (p[d] < b->lo[d]) b->lo[d] = p[d];
            if (p[d] > b->hi[d]) b->hi[d] = p[d];
        }
    }
    b->natoms += natoms;
    b->nlig++;
    b->start[b->nlig] = (uint32_t)b->natoms;
}

vsg_score_batch vsg_batch_view(const vsg_batch *b)
{
    vsg_score_batch v;
    v.nlig = b->nlig;
    v.natoms = b->natoms;
    v.start = b->start;
    v.x = b->x;
    v.y = b->y;
    v.z = b->z;
    v.q = b->q;
    v.type = b->type;
    return v;
}

size_t vsg_batch_box_of(const vsg_score_batch *b, float lo[3], float hi[3])
{
    float l0 = INFINITY, l1 = INFINITY, l2 = INFINITY, h0 = -INFINITY, h1 = -INFINITY, h2 = -INFINITY;
    long long n = (long long)b->natoms, bad = 0;
    const float *x = b->x, *y = b->y, *z = b->z;
#pragma omp parallel for reduction(min : l0, l1, l2) reduction(max : h0, h1, h2) reduction(+ : bad) \
    schedule(static) if (n >= VSG_BATCH_PARALLEL_MIN)
    for (long long i = 0; i < n; i++) {
        float px = x[i], py = y[i], pz = z[i];
        if (!isfinite(px) || !isfinite(py) || !isfinite(pz)) {
            bad++;
            continue;
        }
        l0 = fminf(l0, px);
        l1 = fminf(l1, py);
        l2 = fminf(l2, pz);
        h0 = fmaxf(h0, px);
        h1 = fmaxf(h1, py);
        h2 = fmaxf(h2, pz);
    }
    lo[0] = l0;
    lo[1] = l1;
    lo[2] = l2;
    hi[0] = h0;
    hi[1] = h1;
    hi[2] = h2;
    return (size_t)bad;
}

vsg_status vsg_batch_check_types(const vsg_score_batch *b, const vsg_score_grids *g)
{
    if (g->kind != VSG_SCORE_AD4 || b->natoms == 0) return VSG_OK;
    if (!b->type) return vsg_fail(VSG_E_ARG, "score: AD4 batch without atom types");
    long long n = (long long)b->natoms, bad = -1;
    const uint8_t *type = b->type;
    const int nmaps = g->nmaps, e = g->e_map, d = g->d_map;
#pragma omp parallel for schedule(static) reduction(max : bad) if (n >= VSG_BATCH_PARALLEL_MIN)
    for (long long i = 0; i < n; i++) {
        int t = type[i];
        if (t != VSG_SCORE_NO_TYPE && (t >= nmaps || t == e || t == d) && i > bad) bad = i;
    }
    if (bad >= 0)
        return vsg_fail(VSG_E_ARG, "score: atom %lld has type index %d, not a type map (%d maps, e %d, d %d)", bad,
                        (int)type[bad], nmaps, e, d);
    return VSG_OK;
}
