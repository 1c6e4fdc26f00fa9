/* macrocycle.c — flexible macrocycles for SDF/MOL2 (and prepared SMILES) records, as Meeko
 * prepares them (meeko/macrocycle.py, flexibility.py at forlilab/Meeko 03d4168; Forli & Botta,
 * J. Chem. Inf. Model. 47, 1481, 2007), re-done in our words (torsions.h, vsg_macrocycle_open):
 *
 *  1. rings: the chordless cycles of the bond graph (Meeko: HJK ring detection, chorded rings
 *     dropped); those of 12..33 atoms are breakable (Meeko: 7..33; MC_MIN_OPEN says why); the
 *     bonds of rings under 7 atoms are rigid
 *     (never broken; Meeko's aromatic rings are also rigid, and their bonds join aromatic atoms,
 *     which no break takes either); rings over 33 atoms are neither.
 *  2. candidate bonds, each in a breakable ring and in no rigid ring, scored as Meeko's _score_bond:
 *     both ends non-aromatic carbons, order 1, 2 or 3 (aromatic: never); 100, −50 for a double
 *     bond, −30 for a triple, −30 when conjugated (each end also carries a multiple bond:
 *     Meeko's SMARTS *=*[*]=,#,:[*]), −20 when an end is a stereocentre (an sp3 carbon whose
 *     substituents all differ: RDKit's FindMolChiralCenters(includeUnassigned=True) in Meeko).
 *  3. break sets, as Meeko's combinatorial_break_search: up to 4 bonds, no atom in two of them,
 *     each new bond in a ring not yet broken; only the sets with the most bonds are kept.
 *  4. each set is scored as Meeko's FlexibilityBuilder: the bonds' scores + 10 × (the depth of
 *     the rigid-body tree of the closed molecule − that of the opened one), the root found as
 *     Meeko finds it (leaves pruned until one or two bodies remain, the larger); the best set is
 *     opened (ties: the first in the sorted order of sets; Meeko's order is a Python set's).
 *  5. opening: the bonds are removed, their two carbons typed CGk (k = the bond's place in the set)
 *     and a pseudo-atom Gk appended for each, bonded to it, at its partner's position; the
 *     opened ring's single bonds then are acyclic and rotate by torsions.c's rules (amides stay
 *     rigid, as Meeko's bond typer keeps them).
 * A set whose two closure carbons stay in one rigid body (no rotatable bond between them) is
 * not opened: the glue could not move them. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ligands/ligand.h"
#include "ligands/torsions/torsions.h"

#define MC_MIN_RING 7
/* Rings opened: 12..33 atoms (the usual definition of a macrocycle), not Meeko's 7..33. Opening
 * 7- and 8-membered carbocycles (Meeko's default) made 72 of DUD-E INHA's 2,389 records
 * (cycloheptyl and cyclooctyl amides, actives among them) score 1.9 kcal/mol worse on average
 * (Vina's torsion penalty counts the opened ring's bonds; the search gets 4-7 more torsions) and
 * the screen's ROC AUC fell from 0.715 to 0.671 (one H200, docs/PERFORMANCE.md, "Macrocycles"). */
#define MC_MIN_OPEN 12
#define MC_MAX_RING 33
#define MC_MAX_BREAKS 4
#define MC_DOUBLE_PENALTY 50
#define MC_STEP_CAP 4000000L /* DFS steps for ring search; past it the record keeps its rings rigid */
#define MC_MAX_RINGS 1024
#define MC_MAX_SETS 20000

typedef struct {
    const vsg_ligand *lig;
    int n, m;
    int *start, *nb, *nbond; /* adjacency: neighbour and bond index */
    char *cyclic;            /* per bond: in some ring */
    char *small;             /* per bond: in a ring of fewer than MC_MIN_RING atoms */
    /* rings of MC_MIN_RING..MC_MAX_RING atoms: ring_bond[r * m + e] */
    int nrings;
    char *ring_bond;
    int *path;
    char *on_path;
    long steps;
    int overflow;
    /* candidate bonds and their scores */
    int ncand;
    int *cand;
    int *score; /* per bond */
    /* break sets */
    int nsets, max_len;
    int (*sets)[MC_MAX_BREAKS];
    int *set_len;
    long visits;
} mc_ctx;

static int is_carbon(const vsg_lig_atom *a) { return !strcmp(a->element, "C"); }

static int find_root(int *p, int i)
{
    while (p[i] != i) i = p[i] = p[p[i]];
    return i;
}

/* The shortest path from a to b not using bond e is at most maxlen bonds. */
static int short_cycle(mc_ctx *c, int e, int a, int b, int maxlen, int *dist, int *queue)
{
    for (int i = 0; i < c->n; i++) dist[i] = -1;
    int h = 0, t = 0;
    dist[a] = 0, queue[t++] = a;
    while (h < t) {
        const int u = queue[h++];
        if (dist[u] >= maxlen) continue;
        for (int k = c->start[u]; k < c->start[u + 1]; k++) {
            if (c->nbond[k] == e) continue;
            const int v = c->nb[k];
            if (dist[v] >= 0) continue;
            dist[v] = dist[u] + 1;
            if (v == b) return 1;
            queue[t++] = v;
        }
    }
    return 0;
}

static int bond_between(const mc_ctx *c, int a, int b)
{
    for (int k = c->start[a]; k < c->start[a + 1]; k++)
        if (c->nb[k] == b) return c->nbond[k];
    return -1;
}

static void record_ring(mc_ctx *c, int len, int last)
{
    if (c->nrings >= MC_MAX_RINGS) { c->overflow = 1; return; }
    char *rb = &c->ring_bond[(size_t)c->nrings * (size_t)c->m];
    memset(rb, 0, (size_t)c->m);
    for (int i = 0; i + 1 < len; i++) rb[bond_between(c, c->path[i], c->path[i + 1])] = 1;
    rb[bond_between(c, c->path[len - 1], last)] = 1;
    rb[bond_between(c, last, c->path[0])] = 1;
    c->nrings++;
}

/* Chordless cycles through path[0] (its smallest atom), extended from path[len − 1]. */
static void extend(mc_ctx *c, int len)
{
    const int s = c->path[0], u = c->path[len - 1];
    for (int k = c->start[u]; k < c->start[u + 1] && !c->overflow; k++) {
        if (++c->steps > MC_STEP_CAP) { c->overflow = 1; return; }
        if (!c->cyclic[c->nbond[k]]) continue;
        const int w = c->nb[k];
        if (w <= s || c->on_path[w]) continue;
        int to_start = 0, chord = 0;
        for (int q = c->start[w]; q < c->start[w + 1]; q++) {
            const int x = c->nb[q];
            if (!c->on_path[x] || x == u) continue;
            if (x == s) to_start = 1;
            else chord = 1;
        }
        if (chord) continue;
        if (to_start) { /* w closes a chordless cycle of len + 1 atoms (each direction once) */
            if (len + 1 >= MC_MIN_OPEN && len + 1 <= MC_MAX_RING && c->path[1] < w) record_ring(c, len, w);
            continue;
        }
        if (len + 1 >= MC_MAX_RING) continue;
        c->path[len] = w, c->on_path[w] = 1;
        extend(c, len + 1);
        c->on_path[w] = 0;
    }
}

/* Ranks of atoms by their topology (refined neighbourhoods), for telling substituents apart. */
static void topo_ranks(const mc_ctx *c, uint64_t *rank, uint64_t *tmp, uint64_t *list)
{
    const vsg_ligand *l = c->lig;
    for (int i = 0; i < c->n; i++) {
        uint64_t h = 1469598103934665603ull;
        for (const char *p = l->atoms[i].element; *p; p++) h = (h ^ (uint64_t)(unsigned char)*p) * 1099511628211ull;
        h = (h ^ (uint64_t)(c->start[i + 1] - c->start[i])) * 1099511628211ull;
        h = (h ^ (uint64_t)(l->atoms[i].formal + 16)) * 1099511628211ull;
        rank[i] = h;
    }
    for (int it = 0; it < c->n; it++) {
        int changed = 0;
        for (int i = 0; i < c->n; i++) {
            int nl = 0;
            for (int k = c->start[i]; k < c->start[i + 1]; k++)
                list[nl++] = rank[c->nb[k]] * 31 + (uint64_t)l->bonds[c->nbond[k]].order;
            for (int a = 1; a < nl; a++) /* insertion sort: a handful of neighbours */
                for (int b = a; b > 0 && list[b - 1] > list[b]; b--) {
                    const uint64_t x = list[b];
                    list[b] = list[b - 1], list[b - 1] = x;
                }
            uint64_t h = rank[i] * 1099511628211ull + 7;
            for (int a = 0; a < nl; a++) h = (h ^ list[a]) * 1099511628211ull + (uint64_t)a;
            tmp[i] = h;
        }
        /* the number of classes only grows; stop when it does not */
        int before = 0, after = 0;
        for (int i = 0; i < c->n; i++) {
            int seen_b = 0, seen_a = 0;
            for (int j = 0; j < i; j++) seen_b |= rank[j] == rank[i], seen_a |= tmp[j] == tmp[i];
            before += !seen_b, after += !seen_a;
        }
        for (int i = 0; i < c->n; i++) changed |= rank[i] != tmp[i], rank[i] = tmp[i];
        if (after == before || !changed) break;
    }
}

/* An sp3 carbon whose three or four substituents (a hydrogen, merged or not, counts as one) differ. */
static int stereocentre(const mc_ctx *c, int a, const uint64_t *rank)
{
    const vsg_ligand *l = c->lig;
    if (!is_carbon(&l->atoms[a]) || l->atoms[a].formal != 0) return 0;
    const int deg = c->start[a + 1] - c->start[a];
    if (deg < 3 || deg > 4) return 0;
    for (int k = c->start[a]; k < c->start[a + 1]; k++)
        if (l->bonds[c->nbond[k]].order != 1) return 0;
    int hyd = 0;
    for (int k = c->start[a]; k < c->start[a + 1]; k++) hyd += !strcmp(l->atoms[c->nb[k]].element, "H");
    if (hyd + (4 - deg) > 1) return 0;
    for (int k = c->start[a]; k < c->start[a + 1]; k++)
        for (int q = k + 1; q < c->start[a + 1]; q++)
            if (rank[c->nb[k]] == rank[c->nb[q]]) return 0;
    return 1;
}

/* a carries a bond of one of the orders in mask (bit order) to an atom other than b. */
static int multiple_bond(const mc_ctx *c, int a, int b, unsigned mask)
{
    for (int k = c->start[a]; k < c->start[a + 1]; k++)
        if (c->nb[k] != b && (mask >> c->lig->bonds[c->nbond[k]].order & 1u)) return 1;
    return 0;
}

static int score_bond(const mc_ctx *c, int e, const uint64_t *rank)
{
    const vsg_ligand *l = c->lig;
    const vsg_lig_bond *b = &l->bonds[e];
    if (b->order < 1 || b->order > 3) return -1; /* aromatic (and a MOL2 amide, C–N anyway) */
    const vsg_lig_atom *x = &l->atoms[b->a], *y = &l->atoms[b->b];
    if (!is_carbon(x) || !is_carbon(y) || !strcmp(x->ad_type, "A") || !strcmp(y->ad_type, "A")) return -1;
    int s = 100;
    if (b->order == 3) s -= 30;
    else if (b->order == 2) s -= MC_DOUBLE_PENALTY;
    const unsigned dbl = 1u << 2, multi = 1u << 2 | 1u << 3 | 1u << VSG_BOND_AROMATIC;
    if (b->order == 1 && ((multiple_bond(c, b->a, b->b, dbl) && multiple_bond(c, b->b, b->a, multi)) ||
                          (multiple_bond(c, b->b, b->a, dbl) && multiple_bond(c, b->a, b->b, multi))))
        s -= 30;
    if (stereocentre(c, b->a, rank) || stereocentre(c, b->b, rank)) s -= 20;
    return s;
}

static int pair_less(const vsg_ligand *l, int e, int f)
{
    const int ea = l->bonds[e].a < l->bonds[e].b ? l->bonds[e].a : l->bonds[e].b;
    const int eb = l->bonds[e].a < l->bonds[e].b ? l->bonds[e].b : l->bonds[e].a;
    const int fa = l->bonds[f].a < l->bonds[f].b ? l->bonds[f].a : l->bonds[f].b;
    const int fb = l->bonds[f].a < l->bonds[f].b ? l->bonds[f].b : l->bonds[f].a;
    return ea < fa || (ea == fa && eb < fb);
}

static void add_set(mc_ctx *c, const int *bonds, int len)
{
    int s[MC_MAX_BREAKS] = {-1, -1, -1, -1};
    memcpy(s, bonds, sizeof(int) * (size_t)len);
    for (int a = 1; a < len; a++)
        for (int b = a; b > 0 && pair_less(c->lig, s[b], s[b - 1]); b--) {
            const int x = s[b];
            s[b] = s[b - 1], s[b - 1] = x;
        }
    for (int i = 0; i < c->nsets; i++)
        if (c->set_len[i] == len && !memcmp(c->sets[i], s, sizeof(int) * (size_t)len)) return;
    if (c->nsets >= MC_MAX_SETS) { c->overflow = 1; return; }
    memcpy(c->sets[c->nsets], s, sizeof s);
    c->set_len[c->nsets++] = len;
    if (len > c->max_len) c->max_len = len;
}

static int ring_broken(const mc_ctx *c, int r, const int *broken, int nb)
{
    for (int i = 0; i < nb; i++)
        if (c->ring_bond[(size_t)r * (size_t)c->m + (size_t)broken[i]]) return 1;
    return 0;
}

/* Meeko's _recursive_break. */
static void break_sets(mc_ctx *c, int left, int *broken, int nb)
{
    if (left == 0 || c->overflow) return;
    if (++c->visits > MC_STEP_CAP) { c->overflow = 1; return; }
    for (int q = 0; q < c->ncand && !c->overflow; q++) {
        const int e = c->cand[q], a = c->lig->bonds[e].a, b = c->lig->bonds[e].b;
        int used = 0;
        for (int i = 0; i < nb; i++) {
            const vsg_lig_bond *x = &c->lig->bonds[broken[i]];
            used |= x->a == a || x->a == b || x->b == a || x->b == b;
        }
        if (used) continue;
        int in_unbroken = 0;
        for (int r = 0; r < c->nrings && !in_unbroken; r++)
            in_unbroken = c->ring_bond[(size_t)r * (size_t)c->m + (size_t)e] && !ring_broken(c, r, broken, nb);
        if (!in_unbroken) continue;
        broken[nb] = e;
        add_set(c, broken, nb + 1);
        int unbroken = 0;
        for (int r = 0; r < c->nrings && !unbroken; r++) unbroken = !ring_broken(c, r, broken, nb + 1);
        if (unbroken) break_sets(c, left - 1, broken, nb + 1);
    }
}

/* Opens bonds[0..len) of lig (bond indices of lig as it is): removes them, types the carbons
 * CGk, appends the Gk atoms. VSG_E_NOMEM. */
static vsg_status apply_set(vsg_ligand *lig, const int *bonds, int len)
{
    int pair[MC_MAX_BREAKS][2];
    for (int k = 0; k < len; k++) {
        const vsg_lig_bond *b = &lig->bonds[bonds[k]];
        pair[k][0] = b->a < b->b ? b->a : b->b, pair[k][1] = b->a < b->b ? b->b : b->a;
    }
    int nb = 0;
    for (int e = 0; e < lig->nbonds; e++) {
        int drop = 0;
        for (int k = 0; k < len; k++) drop |= bonds[k] == e;
        if (!drop) lig->bonds[nb++] = lig->bonds[e];
    }
    lig->nbonds = nb;
    const int need_a = lig->natoms + 2 * len, need_b = lig->nbonds + 2 * len;
    if (need_a > lig->atoms_cap) {
        vsg_lig_atom *na = realloc(lig->atoms, sizeof *na * (size_t)need_a);
        if (!na) return vsg_fail(VSG_E_NOMEM, "macrocycle: out of memory");
        lig->atoms = na, lig->atoms_cap = need_a;
    }
    if (need_b > lig->bonds_cap) {
        vsg_lig_bond *nbd = realloc(lig->bonds, sizeof *nbd * (size_t)need_b);
        if (!nbd) return vsg_fail(VSG_E_NOMEM, "macrocycle: out of memory");
        lig->bonds = nbd, lig->bonds_cap = need_b;
    }
    for (int k = 0; k < len; k++)
        for (int s = 0; s < 2; s++) {
            const int anchor = pair[k][s], partner = pair[k][1 - s];
            const char digit = (char)('0' + k); /* k < MC_MAX_BREAKS: one digit */
            memcpy(lig->atoms[anchor].ad_type, (const char[4]){'C', 'G', digit, '\0'}, 4);
            vsg_lig_atom g = lig->atoms[anchor];
            g.x = lig->atoms[partner].x, g.y = lig->atoms[partner].y, g.z = lig->atoms[partner].z;
            g.charge = 0, g.formal = 0;
            memset(g.name, 0, sizeof g.name);
            g.name[0] = 'G', g.name[1] = digit;
            strcpy(g.element, "C"); /* as the PDBQT reader gives a Gk (read_pdbqt_lib.c) */
            memcpy(g.ad_type, (const char[4]){'G', digit, '\0', '\0'}, 4);
            lig->atoms[lig->natoms] = g;
            lig->bonds[lig->nbonds++] = (vsg_lig_bond){anchor, lig->natoms, 1};
            lig->natoms++;
        }
    return VSG_OK;
}

/* Depth of the rigid-body tree of t, rooted as Meeko roots it (leaves pruned until one or two
 * bodies remain; of two, the one with more atoms). */
static int tree_depth(const vsg_torsions *t, int *deg, char *gone, int *dist, int *queue, int *size)
{
    const int nb = t->nbodies;
    for (int b = 0; b < nb; b++) deg[b] = 0, gone[b] = 0, size[b] = 0;
    for (int i = 0; i < t->natoms; i++) size[t->body[i]]++;
    for (int r = 0; r < t->nrotors; r++) deg[t->body[t->rotor[r][0]]]++, deg[t->body[t->rotor[r][1]]]++;
    int left = nb;
    while (left > 2) {
        int nleaf = 0;
        for (int b = 0; b < nb; b++)
            if (!gone[b] && deg[b] <= 1) queue[nleaf++] = b;
        if (nleaf == 0) break;
        for (int i = 0; i < nleaf; i++) {
            const int b = queue[i];
            gone[b] = 1, left--;
            for (int r = 0; r < t->nrotors; r++) {
                const int x = t->body[t->rotor[r][0]], y = t->body[t->rotor[r][1]];
                if (x == b && !gone[y]) deg[y]--;
                else if (y == b && !gone[x]) deg[x]--;
            }
        }
    }
    int root = -1;
    for (int b = 0; b < nb; b++)
        if (!gone[b] && (root < 0 || size[b] > size[root])) root = b;
    if (root < 0) return 0;
    for (int b = 0; b < nb; b++) dist[b] = -1;
    int h = 0, tl = 0, depth = 0;
    dist[root] = 0, queue[tl++] = root;
    while (h < tl) {
        const int b = queue[h++];
        if (dist[b] > depth) depth = dist[b];
        for (int r = 0; r < t->nrotors; r++) {
            const int x = t->body[t->rotor[r][0]], y = t->body[t->rotor[r][1]];
            const int o = x == b ? y : y == b ? x : -1;
            if (o >= 0 && dist[o] < 0) dist[o] = dist[b] + 1, queue[tl++] = o;
        }
    }
    return depth;
}

static void ctx_free(mc_ctx *c)
{
    free(c->start), free(c->nb), free(c->nbond), free(c->cyclic), free(c->small), free(c->ring_bond);
    free(c->path), free(c->on_path), free(c->cand), free(c->score), free(c->sets), free(c->set_len);
}

int vsg_macrocycle_open(vsg_ligand *lig, int (*opened)[2])
{
    if (!lig || lig->format == VSG_LIG_PDBQT || lig->rigid_macrocycles || lig->natoms < MC_MIN_RING ||
        lig->nbonds < MC_MIN_RING)
        return 0;
    for (int i = 0; i < lig->natoms; i++) /* already opened (Meeko's types present): leave it */
        if (lig->atoms[i].ad_type[0] == 'G' || (lig->atoms[i].ad_type[0] == 'C' && lig->atoms[i].ad_type[1] == 'G')) return 0;
    mc_ctx c;
    memset(&c, 0, sizeof c);
    c.lig = lig, c.n = lig->natoms, c.m = lig->nbonds;
    const int n = c.n, m = c.m;
    for (int e = 0; e < m; e++)
        if (lig->bonds[e].a < 0 || lig->bonds[e].a >= n || lig->bonds[e].b < 0 || lig->bonds[e].b >= n ||
            lig->bonds[e].a == lig->bonds[e].b)
            return 0; /* torsions.c reports it */
    int result = 0;
    vsg_ligand trial;
    vsg_ligand_init(&trial);
    vsg_torsions tor;
    memset(&tor, 0, sizeof tor);
    int *ibuf = malloc(sizeof(int) * (size_t)(6 * (n + 2 * MC_MAX_BREAKS) + 8));
    uint64_t *u64 = malloc(sizeof(uint64_t) * (size_t)(3 * n + 8));
    char *cbuf = malloc((size_t)(n + 2 * MC_MAX_BREAKS) + 8);
    c.start = calloc((size_t)n + 1, sizeof(int));
    c.nb = malloc(sizeof(int) * (size_t)(2 * m));
    c.nbond = malloc(sizeof(int) * (size_t)(2 * m));
    c.cyclic = calloc((size_t)m, 1);
    c.small = calloc((size_t)m, 1);
    c.path = malloc(sizeof(int) * (size_t)(MC_MAX_RING + 1));
    c.on_path = calloc((size_t)n, 1);
    c.cand = malloc(sizeof(int) * (size_t)m);
    c.score = malloc(sizeof(int) * (size_t)m);
    c.ring_bond = malloc((size_t)MC_MAX_RINGS * (size_t)m);
    if (!ibuf || !u64 || !cbuf || !c.start || !c.nb || !c.nbond || !c.cyclic || !c.small || !c.path || !c.on_path ||
        !c.cand || !c.score || !c.ring_bond) {
        result = -1;
        vsg_fail(VSG_E_NOMEM, "macrocycle: out of memory");
        goto done;
    }
    for (int e = 0; e < m; e++) c.start[lig->bonds[e].a + 1]++, c.start[lig->bonds[e].b + 1]++;
    for (int i = 0; i < n; i++) c.start[i + 1] += c.start[i];
    {
        int *fill = ibuf;
        for (int i = 0; i < n; i++) fill[i] = c.start[i];
        for (int e = 0; e < m; e++) {
            const int a = lig->bonds[e].a, b = lig->bonds[e].b;
            c.nb[fill[a]] = b, c.nbond[fill[a]++] = e;
            c.nb[fill[b]] = a, c.nbond[fill[b]++] = e;
        }
    }
    /* cyclic bonds: the ends stay connected without the bond */
    {
        int *p = ibuf;
        for (int e = 0; e < m; e++) {
            for (int i = 0; i < n; i++) p[i] = i;
            for (int f = 0; f < m; f++)
                if (f != e) {
                    const int x = find_root(p, lig->bonds[f].a), y = find_root(p, lig->bonds[f].b);
                    if (x != y) p[x] = y;
                }
            c.cyclic[e] = find_root(p, lig->bonds[e].a) == find_root(p, lig->bonds[e].b);
        }
    }
    int any = 0;
    for (int e = 0; e < m; e++)
        if (c.cyclic[e]) {
            c.small[e] = short_cycle(&c, e, lig->bonds[e].a, lig->bonds[e].b, MC_MIN_RING - 2, ibuf, ibuf + n);
            any |= !c.small[e];
        }
    if (!any) goto done; /* every ring bond is in a small ring: nothing to open */
    /* chordless rings of 12..33 atoms, each from its smallest atom */
    for (int s = 0; s < n && !c.overflow; s++) {
        c.path[0] = s, c.on_path[s] = 1;
        extend(&c, 1);
        c.on_path[s] = 0;
    }
    if (c.overflow || c.nrings == 0) goto done;
    /* candidates, in bond order */
    topo_ranks(&c, u64, u64 + n, u64 + 2 * n);
    for (int e = 0; e < m; e++) {
        c.score[e] = -1;
        int in_ring = 0;
        for (int r = 0; r < c.nrings && !in_ring; r++) in_ring = c.ring_bond[(size_t)r * (size_t)m + (size_t)e];
        if (!in_ring || c.small[e]) continue;
        c.score[e] = score_bond(&c, e, u64);
        if (c.score[e] > 0) c.cand[c.ncand++] = e;
    }
    if (c.ncand == 0) goto done;
    c.sets = malloc(sizeof *c.sets * (size_t)MC_MAX_SETS);
    c.set_len = malloc(sizeof(int) * (size_t)MC_MAX_SETS);
    if (!c.sets || !c.set_len) {
        result = -1;
        vsg_fail(VSG_E_NOMEM, "macrocycle: out of memory");
        goto done;
    }
    {
        int broken[MC_MAX_BREAKS];
        break_sets(&c, MC_MAX_BREAKS, broken, 0);
    }
    if (c.overflow || c.nsets == 0) goto done;
    /* the closed molecule's depth, then each set's */
    const int nmax = n + 2 * MC_MAX_BREAKS;
    int *deg = ibuf, *dist = ibuf + nmax, *queue = ibuf + 2 * nmax, *size = ibuf + 3 * nmax;
    if (vsg_torsions_from_bonds(lig, &tor) != VSG_OK) goto done;
    const int base = tree_depth(&tor, deg, cbuf, dist, queue, size);
    vsg_torsions_release(&tor);
    int best = -1, best_score = 0;
    for (int a = 1; a < c.nsets; a++) /* sets in sorted order: lexicographic by their bonds' atoms */
        for (int b = a; b > 0; b--) {
            int less = 0;
            for (int k = 0; k < c.set_len[b] && k < c.set_len[b - 1]; k++) {
                if (pair_less(lig, c.sets[b][k], c.sets[b - 1][k])) { less = 1; break; }
                if (pair_less(lig, c.sets[b - 1][k], c.sets[b][k])) break;
            }
            if (!less) break;
            int tmp[MC_MAX_BREAKS];
            memcpy(tmp, c.sets[b], sizeof tmp);
            memcpy(c.sets[b], c.sets[b - 1], sizeof tmp);
            memcpy(c.sets[b - 1], tmp, sizeof tmp);
            const int tl = c.set_len[b];
            c.set_len[b] = c.set_len[b - 1], c.set_len[b - 1] = tl;
        }
    for (int s = 0; s < c.nsets; s++) {
        if (c.set_len[s] != c.max_len) continue;
        if (vsg_ligand_copy(&trial, lig) != VSG_OK) { result = -1; goto done; }
        if (apply_set(&trial, c.sets[s], c.set_len[s]) != VSG_OK) { result = -1; goto done; }
        if (vsg_torsions_from_bonds(&trial, &tor) != VSG_OK) { vsg_clear_error(); continue; }
        int stuck = 0;
        for (int k = 0; k < c.set_len[s]; k++) {
            const vsg_lig_bond *b = &lig->bonds[c.sets[s][k]];
            stuck |= tor.body[b->a] == tor.body[b->b];
        }
        int sc = 0;
        for (int k = 0; k < c.set_len[s]; k++) sc += c.score[c.sets[s][k]];
        sc += 10 * (base - tree_depth(&tor, deg, cbuf, dist, queue, size));
        vsg_torsions_release(&tor);
        if (stuck) continue;
        if (best < 0 || sc > best_score) best = s, best_score = sc;
    }
    if (best < 0) goto done;
    for (int k = 0; k < c.set_len[best] && opened; k++) {
        const vsg_lig_bond *b = &lig->bonds[c.sets[best][k]];
        opened[k][0] = b->a < b->b ? b->a : b->b, opened[k][1] = b->a < b->b ? b->b : b->a;
    }
    if (apply_set(lig, c.sets[best], c.set_len[best]) != VSG_OK) { result = -1; goto done; }
    result = c.set_len[best];
done:
    vsg_torsions_release(&tor);
    vsg_ligand_release(&trial);
    ctx_free(&c);
    free(ibuf), free(u64), free(cbuf);
    return result;
}
