/* xs_types.c — receptor XS atom types as AutoDock Vina 1.2 assigns them (vsgrid.h, "Vina and
 * Vinardo maps"): AutoDock type → element, bonds from distances and covalent radii, then
 * carbon C_P/C_H by its neighbours and N/O donor/acceptor flags. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grids/maps/vina_terms.h"
#include "grids/receptor/molecule.h"

enum { EL_H, EL_C, EL_N, EL_O, EL_S, EL_P, EL_F, EL_Cl, EL_Br, EL_I, EL_Si, EL_At, EL_Met, EL_Dummy };

typedef struct {
    const char *name;
    int element;
    double covalent; /* Å */
} ad_kind;

/* AutoDock 4 types Vina knows, with the covalent radii it bonds with. */
static const ad_kind ad_kinds[] = {
    {"C", EL_C, 0.77},   {"A", EL_C, 0.77},   {"N", EL_N, 0.75},   {"O", EL_O, 0.73},
    {"P", EL_P, 1.06},   {"S", EL_S, 1.02},   {"H", EL_H, 0.37},   {"F", EL_F, 0.71},
    {"I", EL_I, 1.33},   {"NA", EL_N, 0.75},  {"OA", EL_O, 0.73},  {"SA", EL_S, 1.02},
    {"HD", EL_H, 0.37},  {"Mg", EL_Met, 1.30}, {"Mn", EL_Met, 1.39}, {"Zn", EL_Met, 1.31},
    {"Ca", EL_Met, 1.74}, {"Fe", EL_Met, 1.25}, {"Cl", EL_Cl, 0.99}, {"Br", EL_Br, 1.14},
    {"Si", EL_Si, 1.11}, {"At", EL_At, 1.44},  {"G0", EL_Dummy, 0.77}, {"G1", EL_Dummy, 0.77},
    {"G2", EL_Dummy, 0.77}, {"G3", EL_Dummy, 0.77}, {"CG0", EL_C, 0.77}, {"CG1", EL_C, 0.77},
    {"CG2", EL_C, 0.77}, {"CG3", EL_C, 0.77}, {"W", EL_Dummy, 0.0},
};
#define AD_KINDS (sizeof ad_kinds / sizeof ad_kinds[0])
static const double max_ad_covalent = 1.74; /* the largest above (Ca) */
static const double other_metal_covalent = 1.75;
/* Metals Vina accepts without an AutoDock type. */
static const char *const other_metals[] = {"Cu", "Fe", "Na", "K", "Hg", "Co", "U", "Cd", "Ni"};

static const char *const xs_names[VSG_XS_COUNT] = {
#define VSG_X_XS(name, value, text) text,
    VSG_XS_TYPE_LIST(VSG_X_XS)
#undef VSG_X_XS
};

const char *vsg_xs_type_name(int t) { return t >= 0 && t < VSG_XS_COUNT ? xs_names[t] : NULL; }

vsg_status vsg_xs_types_from_name(const char *name, vsg_xs_type out[2], int *n)
{
    static const struct { const char *ad; int a, b; } lig[] = {
        {"C", VSG_XS_C_H, VSG_XS_C_P},  {"A", VSG_XS_C_H, VSG_XS_C_P},  {"N", VSG_XS_N_P, VSG_XS_N_D},
        {"NA", VSG_XS_N_A, VSG_XS_N_DA}, {"O", VSG_XS_O_P, VSG_XS_O_D},  {"OA", VSG_XS_O_A, VSG_XS_O_DA},
        {"S", VSG_XS_S_P, -1},           {"SA", VSG_XS_S_P, -1},          {"Se", VSG_XS_S_P, -1},
        {"P", VSG_XS_P_P, -1},           {"F", VSG_XS_F_H, -1},           {"Cl", VSG_XS_Cl_H, -1},
        {"Br", VSG_XS_Br_H, -1},         {"I", VSG_XS_I_H, -1},           {"Mg", VSG_XS_Met_D, -1},
        {"Mn", VSG_XS_Met_D, -1},        {"Zn", VSG_XS_Met_D, -1},        {"Ca", VSG_XS_Met_D, -1},
        {"Fe", VSG_XS_Met_D, -1},        {"H", -1, -1},                   {"HD", -1, -1},
    };
    if (!name || !out || !n) return vsg_fail(VSG_E_ARG, "vsg_xs_types_from_name: NULL argument");
    *n = 0;
    for (int t = 0; t < VSG_XS_COUNT; t++)
        if (!strcmp(name, xs_names[t])) {
            out[0] = (vsg_xs_type)t;
            *n = 1;
            return VSG_OK;
        }
    for (size_t i = 0; i < sizeof lig / sizeof lig[0]; i++)
        if (!strcmp(name, lig[i].ad)) {
            if (lig[i].a >= 0) out[(*n)++] = (vsg_xs_type)lig[i].a;
            if (lig[i].b >= 0) out[(*n)++] = (vsg_xs_type)lig[i].b;
            return VSG_OK;
        }
    return vsg_fail(VSG_E_ARG, "atom type '%s' is neither an XS type (C_H, C_P, N_P, ..., Met_D) nor an "
                    "AutoDock type with an XS equivalent", name);
}

typedef struct {
    double x, y, z, covalent, search; /* search: the covalent radius Vina looks for partners with */
    int element, ad_hd, heteroatom;   /* ad_hd: an HD hydrogen */
    int acceptor;                     /* NA or OA */
} xs_atom;

/* Fills a from the AutoDock type; 0, or −1 when the type has no XS equivalent. */
static int classify(const char *ad, xs_atom *a)
{
    if (!strcmp(ad, "Se")) ad = "S";
    for (size_t k = 0; k < AD_KINDS; k++)
        if (!strcmp(ad, ad_kinds[k].name)) {
            a->element = ad_kinds[k].element;
            a->covalent = ad_kinds[k].covalent;
            a->search = ad_kinds[k].covalent;
            a->ad_hd = !strcmp(ad, "HD");
            a->acceptor = !strcmp(ad, "NA") || !strcmp(ad, "OA");
            /* Vina's heteroatom: any AutoDock type but C, A, H and HD */
            a->heteroatom = strcmp(ad, "C") && strcmp(ad, "A") && strcmp(ad, "H") && strcmp(ad, "HD");
            return 0;
        }
    for (size_t k = 0; k < sizeof other_metals / sizeof other_metals[0]; k++)
        if (!strcmp(ad, other_metals[k])) {
            a->element = EL_Met;
            a->covalent = other_metal_covalent;
            a->search = max_ad_covalent;
            a->ad_hd = a->acceptor = 0;
            a->heteroatom = 1;
            return 0;
        }
    return -1;
}

static double d2(const xs_atom *a, const xs_atom *b)
{
    double dx = a->x - b->x, dy = a->y - b->y, dz = a->z - b->z;
    return dx * dx + dy * dy + dz * dz;
}

/* Cell list over the atoms: cells of `cell` Å, atoms chained by index. */
typedef struct {
    double lo[3], cell;
    int n[3];
    long *head, *next;
} cells;

static vsg_status cells_build(cells *c, const xs_atom *at, size_t n, double cell)
{
    double hi[3];
    c->lo[0] = c->lo[1] = c->lo[2] = INFINITY;
    hi[0] = hi[1] = hi[2] = -INFINITY;
    for (size_t i = 0; i < n; i++) {
        const double p[3] = {at[i].x, at[i].y, at[i].z};
        for (int k = 0; k < 3; k++) {
            if (p[k] < c->lo[k]) c->lo[k] = p[k];
            if (p[k] > hi[k]) hi[k] = p[k];
        }
    }
    c->cell = cell;
    size_t total = 1;
    for (int k = 0; k < 3; k++) {
        /* keep the cell count bounded for sparse, far-flung inputs */
        while ((hi[k] - c->lo[k]) / c->cell > 400.0) c->cell *= 2.0;
    }
    for (int k = 0; k < 3; k++) {
        c->n[k] = (int)((hi[k] - c->lo[k]) / c->cell) + 1;
        total *= (size_t)c->n[k];
    }
    c->head = malloc(total * sizeof *c->head);
    c->next = malloc((n ? n : 1) * sizeof *c->next);
    if (!c->head || !c->next) {
        free(c->head), free(c->next);
        return vsg_fail(VSG_E_NOMEM, "XS typing: out of memory for %zu atoms", n);
    }
    for (size_t i = 0; i < total; i++) c->head[i] = -1;
    for (size_t i = n; i-- > 0;) { /* reversed, so each chain runs in increasing index */
        int ix = (int)((at[i].x - c->lo[0]) / c->cell), iy = (int)((at[i].y - c->lo[1]) / c->cell),
            iz = (int)((at[i].z - c->lo[2]) / c->cell);
        size_t k = (size_t)ix + (size_t)c->n[0] * ((size_t)iy + (size_t)c->n[1] * (size_t)iz);
        c->next[i] = c->head[k];
        c->head[k] = (long)i;
    }
    return VSG_OK;
}

/* Atoms j ≠ i within sqrt(r2max) of atom i, appended to list (capacity cap, grown). */
static vsg_status neighbours(const cells *c, const xs_atom *at, size_t i, double r2max, long **list, size_t *len,
                             size_t *cap)
{
    int lo[3], hi[3];
    const double p[3] = {at[i].x, at[i].y, at[i].z};
    double r = sqrt(r2max);
    *len = 0;
    for (int k = 0; k < 3; k++) {
        lo[k] = (int)floor((p[k] - r - c->lo[k]) / c->cell);
        hi[k] = (int)floor((p[k] + r - c->lo[k]) / c->cell);
        if (lo[k] < 0) lo[k] = 0;
        if (hi[k] > c->n[k] - 1) hi[k] = c->n[k] - 1;
    }
    for (int z = lo[2]; z <= hi[2]; z++)
        for (int y = lo[1]; y <= hi[1]; y++)
            for (int x = lo[0]; x <= hi[0]; x++)
                for (long j = c->head[(size_t)x + (size_t)c->n[0] * ((size_t)y + (size_t)c->n[1] * (size_t)z)]; j >= 0;
                     j = c->next[j]) {
                    if ((size_t)j == i || d2(&at[i], &at[j]) >= r2max) continue;
                    if (*len == *cap) {
                        size_t nc = *cap ? 2 * *cap : 64;
                        long *nl = realloc(*list, nc * sizeof *nl);
                        if (!nl) return vsg_fail(VSG_E_NOMEM, "XS typing: out of memory");
                        *list = nl, *cap = nc;
                    }
                    (*list)[(*len)++] = j;
                }
    return VSG_OK;
}

vsg_status vsg_xs_assign(const vsg_molecule *m, vsg_xs_type *types)
{
    if (!m || !types) return vsg_fail(VSG_E_ARG, "vsg_xs_assign: NULL argument");
    size_t n = m->n;
    xs_atom *at = calloc(n ? n : 1, sizeof *at);
    unsigned char *hetero_nb = calloc(n ? n : 1, 1), *hd_nb = calloc(n ? n : 1, 1);
    if (!at || !hetero_nb || !hd_nb) {
        free(at), free(hetero_nb), free(hd_nb);
        return vsg_fail(VSG_E_NOMEM, "XS typing: out of memory for %zu atoms", n);
    }
    vsg_status st = VSG_OK;
    for (size_t i = 0; i < n && st == VSG_OK; i++) {
        const vsg_atom *a = &m->atoms[i];
        at[i].x = a->x, at[i].y = a->y, at[i].z = a->z;
        if (!a->ad_type[0])
            st = vsg_fail(VSG_E_DATA, "%s:%d: atom %zu (%s) has no AutoDock type: XS types need a PDBQT receptor: make "
                          "one with 'vsgrid prepare %s -o REC.pdbqt' (or prepare_receptor4.py)",
                          m->source, a->line, i + 1, a->name, m->source);
        else if (classify(a->ad_type, &at[i]) != 0)
            st = vsg_fail(VSG_E_DATA, "%s:%d: atom %zu (%s): AutoDock type '%s' has no XS equivalent", m->source,
                          a->line, i + 1, a->name, a->ad_type);
    }
    cells c = {{0, 0, 0}, 0, {0, 0, 0}, NULL, NULL};
    long *rel = NULL;
    size_t nrel = 0, cap = 0;
    if (st == VSG_OK && n) st = cells_build(&c, at, n, 4.0);
    /* Bonds: i–j when r² < (1.1·(cov_i + cov_j))² and no atom c among i's candidates (those within
     * 1.1·(cov_i + the largest covalent radius)) is closer to both i and j than r. Each bond
     * only marks what typing needs: a heteroatom or an HD neighbour. */
    for (size_t i = 0; i < n && st == VSG_OK; i++) {
        double reach = 1.1 * (at[i].search + max_ad_covalent);
        st = neighbours(&c, at, i, reach * reach, &rel, &nrel, &cap);
        for (size_t q = 0; q < nrel && st == VSG_OK; q++) {
            size_t j = (size_t)rel[q];
            if (j <= i) continue;
            double r2 = d2(&at[i], &at[j]), b = 1.1 * (at[i].covalent + at[j].covalent);
            if (!(r2 < b * b)) continue;
            int between = 0;
            for (size_t w = 0; w < nrel && !between; w++) {
                size_t k = (size_t)rel[w];
                if (k == j) continue;
                between = d2(&at[i], &at[k]) < r2 && d2(&at[j], &at[k]) < r2;
            }
            if (between) continue;
            if (at[j].heteroatom) hetero_nb[i] = 1;
            if (at[i].heteroatom) hetero_nb[j] = 1;
            if (at[j].ad_hd) hd_nb[i] = 1;
            if (at[i].ad_hd) hd_nb[j] = 1;
        }
    }
    for (size_t i = 0; i < n && st == VSG_OK; i++) {
        const xs_atom *a = &at[i];
        int donor = a->element == EL_Met || hd_nb[i], acc = a->acceptor;
        vsg_xs_type t = VSG_XS_NONE;
        switch (a->element) {
        case EL_C: t = hetero_nb[i] ? VSG_XS_C_P : VSG_XS_C_H; break;
        case EL_N: t = acc && donor ? VSG_XS_N_DA : acc ? VSG_XS_N_A : donor ? VSG_XS_N_D : VSG_XS_N_P; break;
        case EL_O: t = acc && donor ? VSG_XS_O_DA : acc ? VSG_XS_O_A : donor ? VSG_XS_O_D : VSG_XS_O_P; break;
        case EL_S: t = VSG_XS_S_P; break;
        case EL_P: t = VSG_XS_P_P; break;
        case EL_F: t = VSG_XS_F_H; break;
        case EL_Cl: t = VSG_XS_Cl_H; break;
        case EL_Br: t = VSG_XS_Br_H; break;
        case EL_I: t = VSG_XS_I_H; break;
        case EL_Si: t = VSG_XS_Si; break;
        case EL_At: t = VSG_XS_At; break;
        case EL_Met: t = VSG_XS_Met_D; break;
        default: t = VSG_XS_NONE; break; /* H, HD, G0-G3, W */
        }
        types[i] = t;
    }
    free(rel), free(c.head), free(c.next), free(at), free(hetero_nb), free(hd_nb);
    return st;
}
