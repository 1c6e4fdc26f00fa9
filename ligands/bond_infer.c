/* bond_infer.c — bonds from interatomic distances (see bond_infer.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ligands/bond_infer.h"

double vsg_covalent_radius(const char *el)
{
    static const struct {
        const char *el;
        double r;
    } radii[] = {{"C", 0.76},  {"N", 0.71},  {"O", 0.66},  {"S", 1.05},  {"P", 1.07},  {"F", 0.57},
                 {"Cl", 1.02}, {"Br", 1.20}, {"I", 1.39},  {"B", 0.84},  {"Si", 1.11}, {"Se", 1.20},
                 {"As", 1.19}, {"H", 0.31},  {"Li", 1.28}, {"Na", 1.66}, {"K", 2.03},  {"Mg", 1.41},
                 {"Ca", 1.76}, {"Zn", 1.22}, {"Fe", 1.32}, {"Mn", 1.39}, {"Cu", 1.32}, {"Co", 1.26},
                 {"Ni", 1.24}, {"Pt", 1.36}, {"Hg", 1.32}, {"Cd", 1.44}, {"Ru", 1.46}, {"Sn", 1.39},
                 {"D", 0.31}};
    for (size_t i = 0; i < sizeof radii / sizeof radii[0]; i++)
        if (!strcmp(el, radii[i].el)) return radii[i].r;
    return 1.5;
}

double vsg_bond_reach(const char *a, const char *b)
{
    return vsg_covalent_radius(a) + vsg_covalent_radius(b) + VSG_BOND_TOLERANCE;
}

typedef struct {
    int a, b;
    double d2;
} candidate;

typedef struct {
    double x;
    int i;
} keyed; /* an atom's x and index: sorted without shared state (parse threads run this at once) */

static int by_x(const void *p, const void *q)
{
    const keyed *a = p, *b = q;
    return a->x < b->x ? -1 : a->x > b->x ? 1 : a->i - b->i;
}

static int by_distance(const void *p, const void *q)
{
    const candidate *a = p, *b = q;
    if (a->d2 != b->d2) return a->d2 < b->d2 ? -1 : 1;
    return a->a != b->a ? a->a - b->a : a->b - b->b;
}

static int is_h(const vsg_lig_atom *a) { return !strcmp(a->element, "H") || !strcmp(a->element, "D"); }

vsg_status vsg_infer_bonds(const vsg_lig_atom *atoms, int n, int **pairs, int *npairs)
{
    *pairs = NULL;
    *npairs = 0;
    if (n < 2) return VSG_OK;
    keyed *order = malloc((size_t)n * sizeof *order);
    char *h_bonded = calloc((size_t)n, 1);
    size_t cap = (size_t)n * 4, nc = 0;
    candidate *c = malloc(cap * sizeof *c);
    if (!order || !h_bonded || !c) {
        free(order), free(h_bonded), free(c);
        return VSG_E_NOMEM;
    }
    double max_r = 0.0;
    for (int i = 0; i < n; i++) {
        order[i].i = i;
        order[i].x = isfinite(atoms[i].x) ? atoms[i].x : INFINITY;
        double r = vsg_covalent_radius(atoms[i].element);
        if (r > max_r) max_r = r;
    }
    qsort(order, (size_t)n, sizeof *order, by_x);
    const double window = 2.0 * max_r + VSG_BOND_TOLERANCE;
    for (int s = 0; s < n; s++) {
        const vsg_lig_atom *a = &atoms[order[s].i];
        if (!isfinite(a->x) || !isfinite(a->y) || !isfinite(a->z)) continue;
        for (int t = s + 1; t < n && order[t].x - a->x < window; t++) {
            const vsg_lig_atom *b = &atoms[order[t].i];
            const double dx = a->x - b->x, dy = a->y - b->y, dz = a->z - b->z, d2 = dx * dx + dy * dy + dz * dz;
            const double reach = vsg_bond_reach(a->element, b->element);
            if (!(d2 < reach * reach) || d2 <= 0.16) continue;
            if (nc == cap) {
                candidate *g = realloc(c, 2 * cap * sizeof *c);
                if (!g) {
                    free(order), free(h_bonded), free(c);
                    return VSG_E_NOMEM;
                }
                c = g, cap *= 2;
            }
            int i = order[s].i, j = order[t].i;
            c[nc].a = i < j ? i : j;
            c[nc].b = i < j ? j : i;
            c[nc].d2 = d2;
            nc++;
        }
    }
    free(order);
    qsort(c, nc, sizeof *c, by_distance);
    int *out = malloc((nc ? nc : 1) * 2 * sizeof *out), m = 0;
    if (!out) {
        free(h_bonded), free(c);
        return VSG_E_NOMEM;
    }
    for (size_t k = 0; k < nc; k++) { /* nearest first: a hydrogen keeps one partner */
        const int ha = is_h(&atoms[c[k].a]), hb = is_h(&atoms[c[k].b]);
        if ((ha && h_bonded[c[k].a]) || (hb && h_bonded[c[k].b])) continue;
        if (ha) h_bonded[c[k].a] = 1;
        if (hb) h_bonded[c[k].b] = 1;
        out[2 * m] = c[k].a, out[2 * m + 1] = c[k].b, m++;
    }
    free(h_bonded), free(c);
    *pairs = out;
    *npairs = m;
    return VSG_OK;
}

vsg_status vsg_ligand_bonds_by_distance(const vsg_ligand *lig, int **pairs, int *npairs)
{
    if (!lig || !pairs || !npairs) return vsg_fail(VSG_E_ARG, "vsg_ligand_bonds_by_distance: NULL argument");
    vsg_status st = vsg_infer_bonds(lig->atoms, lig->natoms, pairs, npairs);
    return st == VSG_OK ? VSG_OK : vsg_fail(st, "out of memory inferring bonds");
}
