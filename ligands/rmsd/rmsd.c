/* rmsd.c — symmetry-aware heavy-atom RMSD between two poses of one molecule (vsgrid.h,
 * "Symmetry-aware RMSD"). Why a graph match and not the atom order: a crystal ligand and a
 * docked pose come from different files (SDF against PDBQT) that list atoms in different
 * orders, and a symmetric group (a carboxylate's oxygens, a phenyl's flip) docked the other way
 * round is the same pose; an order-bound RMSD calls both a failure. As obrms, RDKit's CalcRMS
 * and spyrmsd: the minimum, without superposition, over the correspondences of the two
 * heavy-atom bond graphs that keep elements and bonds.
 *
 * Bonds are the record's (SDF, MOL2) or, for records without any (PDBQT, PDB), inferred from
 * distances (ligands/bond_infer.h: covalent radii sum + 0.45 Å, Open Babel's rule, radii from
 * Cordero et al. 2008; the PDB reader infers them the same way when a record has no CONECT).
 * The correspondences are enumerated by backtracking (VF2-like): reference atoms in
 * breadth-first order from the rarest (element, degree) class, each next atom's candidates the
 * free pose neighbours of a mapped neighbour's image, pruned by element, degree and adjacency to
 * every mapped atom, nearest candidate first, and cut as soon as the partial sum of squares
 * reaches the best complete one (branch and bound: the minimum stays exact). The search stops
 * after MAX_ISOMORPHISMS complete correspondences or MAX_STEPS placements (highly symmetric
 * graphs), keeping the best found, with a warning. Meant for ligands: bond inference is
 * quadratic in the heavy atoms and the search recursive, one level per heavy atom. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ligands/bond_infer.h"
#include "ligands/ligand.h"

#define MAX_ISOMORPHISMS 100000 /* complete correspondences explored at most */
#define MAX_STEPS 20000000L     /* candidate placements tried at most */

static int is_hydrogen(const vsg_lig_atom *a)
{
    return !strcmp(a->element, "H") || !strcmp(a->element, "D") || !strcmp(a->ad_type, "HD") ||
           !strcmp(a->ad_type, "H") || !strcmp(a->ad_type, "HS") ||
           !strcmp(a->ad_type, "W"); /* a hydrated-docking water: a pseudo-atom, not the ligand's */
}

/* One record's heavy-atom graph: positions, elements, adjacency lists (CSR). */
typedef struct {
    int n, nedges;        /* heavy atoms, undirected bonds */
    const vsg_lig_atom **atom;
    int *start, *nbr;     /* neighbours of i: nbr[start[i] .. start[i+1]) */
} graph;

static void graph_free(graph *g)
{
    free(g->atom);
    free(g->start);
    free(g->nbr);
}

/* Keeps bond (a, b) of heavy indices once; pairs[] holds 2 per bond. */
static int add_pair(int *pairs, int *np, int a, int b)
{
    if (a == b) return 0;
    for (int k = 0; k < *np; k++)
        if ((pairs[2 * k] == a && pairs[2 * k + 1] == b) || (pairs[2 * k] == b && pairs[2 * k + 1] == a)) return 0;
    pairs[2 * *np] = a;
    pairs[2 * *np + 1] = b;
    (*np)++;
    return 1;
}

static vsg_status graph_build(const vsg_ligand *lig, graph *g)
{
    memset(g, 0, sizeof *g);
    int *heavy = malloc((size_t)(lig->natoms ? lig->natoms : 1) * sizeof *heavy); /* atom → heavy index or −1 */
    g->atom = malloc((size_t)(lig->natoms ? lig->natoms : 1) * sizeof *g->atom);
    if (!heavy || !g->atom) return free(heavy), VSG_E_NOMEM;
    for (int i = 0; i < lig->natoms; i++) {
        heavy[i] = is_hydrogen(&lig->atoms[i]) ? -1 : g->n;
        if (heavy[i] >= 0) g->atom[g->n++] = &lig->atoms[i];
    }
    /* the record's bonds among heavy atoms, or bonds inferred from distances */
    int cap = lig->nbonds > 0 ? lig->nbonds : 4 * g->n + 4, np = 0;
    int *pairs = malloc((size_t)cap * 2 * sizeof *pairs);
    if (!pairs) return free(heavy), VSG_E_NOMEM;
    if (lig->nbonds > 0) {
        for (int k = 0; k < lig->nbonds; k++) {
            int a = lig->bonds[k].a, b = lig->bonds[k].b;
            if (a < 0 || b < 0 || a >= lig->natoms || b >= lig->natoms) {
                free(pairs), free(heavy);
                return vsg_fail(VSG_E_DATA, "rmsd: bond %d names atom %d or %d of a %d-atom record", k + 1, a + 1,
                                b + 1, lig->natoms);
            }
            if (heavy[a] >= 0 && heavy[b] >= 0) add_pair(pairs, &np, heavy[a], heavy[b]);
        }
    } else {
        for (int i = 0; i < g->n; i++)
            for (int j = i + 1; j < g->n; j++) {
                const vsg_lig_atom *a = g->atom[i], *b = g->atom[j];
                double dx = a->x - b->x, dy = a->y - b->y, dz = a->z - b->z;
                double reach = vsg_bond_reach(a->element, b->element); /* ligands/bond_infer.h */
                if (dx * dx + dy * dy + dz * dz >= reach * reach) continue;
                if (np == cap) {
                    int *grown = realloc(pairs, (size_t)cap * 4 * sizeof *pairs);
                    if (!grown) return free(pairs), free(heavy), VSG_E_NOMEM;
                    pairs = grown, cap *= 2;
                }
                pairs[2 * np] = i, pairs[2 * np + 1] = j, np++;
            }
    }
    free(heavy);
    g->nedges = np;
    g->start = calloc((size_t)g->n + 1, sizeof *g->start);
    g->nbr = malloc((size_t)(2 * np + 1) * sizeof *g->nbr);
    if (!g->start || !g->nbr) return free(pairs), VSG_E_NOMEM;
    for (int k = 0; k < 2 * np; k++) g->start[pairs[k] + 1]++;
    for (int i = 0; i < g->n; i++) g->start[i + 1] += g->start[i];
    int *fill = malloc((size_t)(g->n ? g->n : 1) * sizeof *fill);
    if (!fill) return free(pairs), VSG_E_NOMEM;
    memcpy(fill, g->start, (size_t)g->n * sizeof *fill);
    for (int k = 0; k < np; k++) {
        int a = pairs[2 * k], b = pairs[2 * k + 1];
        g->nbr[fill[a]++] = b;
        g->nbr[fill[b]++] = a;
    }
    free(fill);
    free(pairs);
    return VSG_OK;
}

static int degree(const graph *g, int i) { return g->start[i + 1] - g->start[i]; }

static int adjacent(const graph *g, int i, int j)
{
    for (int k = g->start[i]; k < g->start[i + 1]; k++)
        if (g->nbr[k] == j) return 1;
    return 0;
}

static double dist2(const vsg_lig_atom *a, const vsg_lig_atom *b)
{
    double dx = a->x - b->x, dy = a->y - b->y, dz = a->z - b->z;
    return dx * dx + dy * dy + dz * dz;
}

static int same_kind(const graph *r, int i, const graph *p, int j)
{
    return degree(r, i) == degree(p, j) && !strcmp(r->atom[i]->element, p->atom[j]->element);
}

/* Element counts of both graphs: 0 when equal, else a message in *why. */
static int element_counts_differ(const graph *r, const graph *p, char *why, size_t len)
{
    for (int i = 0; i < r->n; i++) {
        const char *el = r->atom[i]->element;
        int nr = 0, np = 0, seen = 0;
        for (int k = 0; k < i && !seen; k++) seen = !strcmp(r->atom[k]->element, el);
        if (seen) continue;
        for (int k = 0; k < r->n; k++) nr += !strcmp(r->atom[k]->element, el);
        for (int k = 0; k < p->n; k++) np += !strcmp(p->atom[k]->element, el);
        if (nr != np) {
            snprintf(why, len, "%d %s in the reference, %d in the pose", nr, el[0] ? el : "atoms of unknown element",
                     np);
            return 1;
        }
    }
    return 0;
}

typedef struct {
    const graph *r, *p;
    int *order;      /* reference atoms in search order */
    int *anchor;     /* order[d]'s mapped neighbour (its reference index), −1 for a new component */
    int *map;        /* reference → pose, −1 free */
    char *used;      /* pose atom taken */
    int *cand;       /* candidate lists: at depth d, from cand + off[d] */
    size_t *off;
    double *partial; /* sum of squares over depths < d */
    double best;     /* best complete sum of squares, HUGE_VAL before any */
    long found, steps;
} search;

/* Candidates for reference atom i at depth d, nearest first; returns their count. */
static int candidates(search *s, int d, int i, int *out)
{
    const graph *r = s->r, *p = s->p;
    int nc = 0;
    if (s->anchor[d] >= 0) {
        int img = s->map[s->anchor[d]];
        for (int k = p->start[img]; k < p->start[img + 1]; k++) {
            int j = p->nbr[k];
            if (!s->used[j] && same_kind(r, i, p, j)) out[nc++] = j;
        }
    } else {
        for (int j = 0; j < p->n; j++)
            if (!s->used[j] && same_kind(r, i, p, j)) out[nc++] = j;
    }
    /* every mapped reference neighbour of i must map onto a neighbour of the candidate, and the
     * candidate no more mapped neighbours than i (then bonds map onto bonds both ways) */
    int keep = 0, mapped_nbrs = 0;
    for (int k = r->start[i]; k < r->start[i + 1]; k++) mapped_nbrs += s->map[r->nbr[k]] >= 0;
    for (int c = 0; c < nc; c++) {
        int j = out[c], ok = 1, pose_mapped = 0;
        for (int k = r->start[i]; k < r->start[i + 1] && ok; k++) {
            int m = s->map[r->nbr[k]];
            if (m >= 0 && !adjacent(p, j, m)) ok = 0;
        }
        for (int k = p->start[j]; k < p->start[j + 1]; k++) pose_mapped += s->used[p->nbr[k]] != 0;
        if (ok && pose_mapped == mapped_nbrs) out[keep++] = j;
    }
    /* nearest first: a good first correspondence makes the bound bite early (insertion sort) */
    for (int a = 1; a < keep; a++) {
        int j = out[a], b = a;
        double dj = dist2(r->atom[i], p->atom[j]);
        while (b > 0 && dist2(r->atom[i], p->atom[out[b - 1]]) > dj) out[b] = out[b - 1], b--;
        out[b] = j;
    }
    return keep;
}

static void explore(search *s, int d)
{
    const graph *r = s->r;
    if (d == r->n) {
        s->found++;
        if (s->partial[d] < s->best) s->best = s->partial[d];
        return;
    }
    int i = s->order[d], *cand = s->cand + s->off[d];
    int nc = candidates(s, d, i, cand);
    for (int c = 0; c < nc; c++) {
        if (s->found >= MAX_ISOMORPHISMS || s->steps >= MAX_STEPS) return;
        s->steps++;
        int j = cand[c];
        double sum = s->partial[d] + dist2(r->atom[i], s->p->atom[j]);
        if (sum >= s->best) return; /* the later candidates are farther still */
        s->map[i] = j, s->used[j] = 1, s->partial[d + 1] = sum;
        explore(s, d + 1);
        s->map[i] = -1, s->used[j] = 0;
    }
}

/* Breadth-first order over every component, each started at its rarest (element, degree)
 * atom; anchor[d] is a mapped neighbour of order[d] (−1 for a component's first atom). */
static void search_order(const graph *r, const graph *p, int *order, int *anchor)
{
    int n = r->n, head = 0, tail = 0;
    int *rarity = malloc((size_t)n * sizeof *rarity), *seen = calloc((size_t)n, sizeof *seen);
    int *parent = malloc((size_t)n * sizeof *parent);
    if (!rarity || !seen || !parent) { /* plain order: still correct, only slower */
        for (int i = 0; i < n; i++) order[i] = i, anchor[i] = -1;
        free(rarity), free(seen), free(parent);
        return;
    }
    for (int i = 0; i < n; i++) {
        rarity[i] = 0;
        for (int j = 0; j < p->n; j++) rarity[i] += same_kind(r, i, p, j);
    }
    while (tail < n) {
        int root = -1;
        for (int i = 0; i < n; i++)
            if (!seen[i] && (root < 0 || rarity[i] < rarity[root])) root = i;
        seen[root] = 1, parent[root] = -1, order[tail++] = root;
        while (head < tail) {
            int i = order[head++];
            for (int k = r->start[i]; k < r->start[i + 1]; k++) {
                int j = r->nbr[k];
                if (!seen[j]) seen[j] = 1, parent[j] = i, order[tail++] = j;
            }
        }
    }
    for (int d = 0; d < n; d++) anchor[d] = parent[order[d]];
    free(rarity), free(seen), free(parent);
}

vsg_status vsg_ligand_rmsd(const vsg_ligand *ref, const vsg_ligand *pose, double *rmsd)
{
    if (!ref || !pose || !rmsd) return vsg_fail(VSG_E_ARG, "vsg_ligand_rmsd: NULL argument");
    graph r, p;
    vsg_status st = graph_build(ref, &r);
    if (st == VSG_OK) st = graph_build(pose, &p);
    else memset(&p, 0, sizeof p);
    if (st != VSG_OK) {
        graph_free(&r), graph_free(&p);
        return st == VSG_E_NOMEM ? vsg_fail(st, "rmsd: out of memory") : st;
    }
    char why[160];
    if (r.n != p.n || r.n == 0) {
        graph_free(&r), graph_free(&p);
        return vsg_fail(VSG_E_DATA, "rmsd: %d heavy atoms in the reference, %d in the pose", r.n, p.n);
    }
    if (element_counts_differ(&r, &p, why, sizeof why)) {
        graph_free(&r), graph_free(&p);
        return vsg_fail(VSG_E_DATA, "rmsd: elements differ: %s", why);
    }
    if (r.nedges != p.nedges) {
        graph_free(&r), graph_free(&p);
        return vsg_fail(VSG_E_DATA, "rmsd: bond graphs differ: %d heavy-atom bonds in the reference, %d in the pose",
                        r.nedges, p.nedges);
    }
    size_t n = (size_t)r.n;
    search s = {.r = &r, .p = &p, .best = HUGE_VAL};
    s.order = malloc(n * sizeof *s.order);
    s.anchor = malloc(n * sizeof *s.anchor);
    s.map = malloc(n * sizeof *s.map);
    s.used = calloc(n, 1);
    s.off = malloc((n + 1) * sizeof *s.off);
    s.partial = calloc(n + 1, sizeof *s.partial);
    if (s.order && s.anchor && s.off) {
        /* a component's first atom may have any pose atom as candidate, the others a neighbour */
        int maxdeg = 0;
        for (int j = 0; j < p.n; j++) maxdeg = degree(&p, j) > maxdeg ? degree(&p, j) : maxdeg;
        search_order(&r, &p, s.order, s.anchor);
        s.off[0] = 0;
        for (size_t d = 0; d < n; d++) s.off[d + 1] = s.off[d] + (s.anchor[d] >= 0 ? (size_t)maxdeg : n);
        s.cand = malloc((s.off[n] + 1) * sizeof *s.cand);
    }
    if (!s.order || !s.anchor || !s.map || !s.used || !s.off || !s.cand || !s.partial) {
        st = vsg_fail(VSG_E_NOMEM, "rmsd: out of memory for %zu heavy atoms", n);
    } else {
        for (size_t i = 0; i < n; i++) s.map[i] = -1;
        explore(&s, 0);
        if (s.best == HUGE_VAL)
            st = vsg_fail(VSG_E_DATA, "rmsd: the heavy-atom bond graphs differ (%d atoms, %d bonds, no correspondence)%s",
                          r.n, r.nedges, s.steps >= MAX_STEPS ? " within the search limit" : "");
        else
            *rmsd = sqrt(s.best / (double)n);
        if (s.best != HUGE_VAL && (s.found >= MAX_ISOMORPHISMS || s.steps >= MAX_STEPS))
            vsg_warn("rmsd: search limit reached (%ld correspondences, %ld steps) for a %d-atom graph: the RMSD is "
                     "the least of those explored", s.found, s.steps, r.n);
    }
    free(s.order), free(s.anchor), free(s.map), free(s.used), free(s.cand), free(s.off), free(s.partial);
    graph_free(&r), graph_free(&p);
    return st;
}
