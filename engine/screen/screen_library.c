/* screen_library.c — a whole library in memory, prepared as the pipeline prepares it, for
 * `vsgrid bench`. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grids/base/vsgrid.h"
#include "engine/screen/screen_internal.h"

/* ---- the whole library in memory, for `vsgrid bench` -------------------------------------------- */

static int grow(void **p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap) return 1;
    size_t n = *cap ? *cap : 4096;
    while (n < need) n *= 2;
    void *q = realloc(*p, n * elem);
    if (!q) return 0;
    *p = q;
    *cap = n;
    return 1;
}

vsg_status vsg_screen_library_load(const vsg_score_grids *g, const vsg_screen_options *o, size_t max_records,
                                   vsg_screen_library *lib)
{
    memset(lib, 0, sizeof *lib);
    pipeline p;
    memset(&p, 0, sizeof p);
    p.g = g;
    p.o = o;
    p.cap_atoms = o->batch_atoms ? o->batch_atoms : 1u << 20;
    vsg_ligand_reader_options ro;
    memset(&ro, 0, sizeof ro);
    ro.format = o->format;
    ro.max_atoms = o->max_atoms;
    ro.smiles = o->smiles;
    vsg_status st = vsg_ligand_reader_open(o->inputs, o->ninputs, &ro, &p.reader);
    if (st != VSG_OK) return st;
    vsg_ligand lig;
    vsg_ligand_init(&lig);
    size_t cap_lig = 0, cap_at[5] = {0, 0, 0, 0, 0}, cap_type = 0;
    while ((max_records == 0 || lib->records < max_records) && vsg_ligand_reader_next(p.reader, &lig) == 1) {
        lib->records++;
        vsg_screen_prepare(&p, &lig);
        if (lig.status != VSG_OK) {
            lib->failed++;
            continue;
        }
        size_t na = lib->natoms + (size_t)lig.natoms;
        if (!grow((void **)&lib->start, &cap_lig, lib->nlig + 2, sizeof *lib->start) ||
            !grow((void **)&lib->x, &cap_at[0], na, sizeof(float)) || !grow((void **)&lib->y, &cap_at[1], na, sizeof(float)) ||
            !grow((void **)&lib->z, &cap_at[2], na, sizeof(float)) || !grow((void **)&lib->q, &cap_at[3], na, sizeof(float)) ||
            !grow((void **)&lib->type, &cap_type, na, 1)) {
            st = vsg_fail(VSG_E_NOMEM, "bench: out of memory for %zu atoms", na);
            break;
        }
        if (lib->nlig == 0) lib->start[0] = 0;
        for (int i = 0; i < lig.natoms; i++) {
            const vsg_lig_atom *a = &lig.atoms[i];
            size_t k = lib->natoms + (size_t)i;
            lib->x[k] = (float)a->x;
            lib->y[k] = (float)a->y;
            lib->z[k] = (float)a->z;
            lib->q[k] = (float)a->charge;
            int t = g->kind == VSG_SCORE_AD4 ? vsg_screen_map_of_type(g, a->ad_type) : -1;
            lib->type[k] = t < 0 ? VSG_SCORE_NO_TYPE : (uint8_t)t;
        }
        lib->natoms = na;
        lib->nlig++;
        lib->start[lib->nlig] = (uint32_t)na;
    }
    vsg_ligand_release(&lig);
    vsg_ligand_reader_close(p.reader);
    if (st != VSG_OK) vsg_screen_library_free(lib);
    return st;
}

void vsg_screen_library_free(vsg_screen_library *lib)
{
    free(lib->start);
    free(lib->x);
    free(lib->y);
    free(lib->z);
    free(lib->q);
    free(lib->type);
    memset(lib, 0, sizeof *lib);
}

vsg_score_batch vsg_screen_library_slice(const vsg_screen_library *lib, size_t first, size_t n, uint32_t *start)
{
    vsg_score_batch b;
    const uint32_t a0 = lib->start[first];
    for (size_t i = 0; i <= n; i++) start[i] = lib->start[first + i] - a0;
    b.nlig = n;
    b.natoms = start[n];
    b.start = start;
    b.x = lib->x + a0;
    b.y = lib->y + a0;
    b.z = lib->z + a0;
    b.q = lib->q + a0;
    b.type = lib->type + a0;
    return b;
}
