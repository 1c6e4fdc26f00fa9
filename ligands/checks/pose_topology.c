/* pose_topology.c — what the pose checks measure, taken once from the reference record
 * (pose_checks.h): its heavy-atom bonds with their lengths, the 1-3 pairs with their distances
 * and angles, the pairs 3 or more bonds apart with their clash bounds, the 5- and 6-membered
 * aromatic rings and the C=C double bonds that must stay flat, and the tetrahedral stereo
 * centres with their handedness.
 *
 * Bonds are the record's (SDF, MOL2) or inferred from distances (PDBQT, PDB: covalent radii +
 * 0.45 Å, ligands/bond_infer.h) with orders perceived from the geometry (ligands/bond_orders.h).
 * A ring is aromatic when each of its atoms has an aromatic bond, an AutoDock type A or a double
 * bond (a Kekulé structure), one N, O or S of a 5-membered ring giving its lone pair excepted.
 * A stereo centre is a C or Si with 4 heavy neighbours or 3 and at most one H, an N with 4
 * neighbours (H counted), or a P or S with 3 or 4, whose heavy neighbours differ from each other
 * (Morgan-style invariants over the heavy-atom graph: element, degree, hydrogens, charge) and
 * which is pyramidal in the reference; the sign of the triple product of its first three heavy
 * neighbours is its handedness. Centres whose substituents only differ by ring cis/trans
 * relations (a 1,4-disubstituted cyclohexane) are not counted. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ligands/bond_infer.h"
#include "ligands/bond_orders.h"
#include "ligands/checks/pose_checks.h"
#include "ligands/ligand.h"

#define FAR 255 /* topological distance of unconnected atoms */

typedef struct {
    int n;
    const vsg_lig_atom *at;
    unsigned char *isheavy;
    int *start, *nbr, *nbr_order; /* heavy neighbours (CSR) and the bond order to each */
    int *hcount;                  /* hydrogens bonded */
    unsigned char *dist;          /* n × n topological distances over heavy atoms (FAR: none) */
} graph;

static double ref_dist(const vsg_lig_atom *a, const vsg_lig_atom *b)
{
    double dx = a->x - b->x, dy = a->y - b->y, dz = a->z - b->z;
    return sqrt(dx * dx + dy * dy + dz * dz);
}

static double ref_angle(const vsg_lig_atom *a, const vsg_lig_atom *j, const vsg_lig_atom *b)
{
    double u[3] = {a->x - j->x, a->y - j->y, a->z - j->z}, v[3] = {b->x - j->x, b->y - j->y, b->z - j->z};
    double nu = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]), nv = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    double c = (u[0] * v[0] + u[1] * v[1] + u[2] * v[2]) / (nu * nv);
    return acos(c > 1 ? 1 : c < -1 ? -1 : c);
}

static int degree(const graph *g, int i) { return g->start[i + 1] - g->start[i]; }

static void graph_free(graph *g)
{
    free(g->isheavy), free(g->start), free(g->nbr), free(g->nbr_order), free(g->hcount), free(g->dist);
}

/* The bonds with orders: the record's, or inferred and perceived. *bonds malloc'd. */
static vsg_status record_bonds(const vsg_ligand *ref, vsg_lig_bond **bonds, int *nb)
{
    *bonds = NULL, *nb = 0;
    if (ref->nbonds > 0) {
        for (int k = 0; k < ref->nbonds; k++) {
            int a = ref->bonds[k].a, b = ref->bonds[k].b;
            if (a < 0 || b < 0 || a >= ref->natoms || b >= ref->natoms || a == b)
                return vsg_fail(VSG_E_DATA, "pose checks: bond %d names atom %d or %d of a %d-atom record", k + 1,
                                a + 1, b + 1, ref->natoms);
        }
        *bonds = malloc((size_t)ref->nbonds * sizeof **bonds);
        if (!*bonds) return VSG_E_NOMEM;
        memcpy(*bonds, ref->bonds, (size_t)ref->nbonds * sizeof **bonds);
        *nb = ref->nbonds;
        return VSG_OK;
    }
    int *pairs = NULL, np = 0;
    vsg_status st = vsg_infer_bonds(ref->atoms, ref->natoms, &pairs, &np);
    if (st != VSG_OK) return st;
    vsg_ligand tmp;
    vsg_ligand_init(&tmp);
    st = vsg_ligand_copy(&tmp, ref);
    vsg_lig_bond *b = malloc((size_t)(np ? np : 1) * sizeof *b);
    if (st == VSG_OK && !b) st = VSG_E_NOMEM;
    if (st == VSG_OK) {
        for (int k = 0; k < np; k++) b[k].a = pairs[2 * k], b[k].b = pairs[2 * k + 1], b[k].order = 1;
        free(tmp.bonds);
        tmp.bonds = b, tmp.bonds_cap = np ? np : 1, tmp.nbonds = np;
        b = NULL;
        /* orders from the geometry; without them only AutoDock A types mark aromatic rings */
        if (vsg_perceive_bond_orders(&tmp) != VSG_OK) {
            vsg_clear_error();
            for (int k = 0; k < np; k++) tmp.bonds[k].order = 1;
        }
        *bonds = malloc((size_t)(np ? np : 1) * sizeof **bonds);
        if (!*bonds) st = VSG_E_NOMEM;
        else memcpy(*bonds, tmp.bonds, (size_t)np * sizeof **bonds), *nb = np;
    }
    free(b);
    free(pairs);
    vsg_ligand_release(&tmp);
    return st;
}

static vsg_status graph_build(graph *g, const vsg_ligand *ref)
{
    memset(g, 0, sizeof *g);
    int n = ref->natoms;
    g->n = n, g->at = ref->atoms;
    vsg_lig_bond *bonds = NULL;
    int nb = 0;
    vsg_status st = record_bonds(ref, &bonds, &nb);
    if (st != VSG_OK) return st;
    g->isheavy = malloc((size_t)n);
    g->start = calloc((size_t)n + 1, sizeof *g->start);
    g->nbr = malloc((size_t)(2 * nb + 1) * sizeof *g->nbr);
    g->nbr_order = malloc((size_t)(2 * nb + 1) * sizeof *g->nbr_order);
    g->hcount = calloc((size_t)n, sizeof *g->hcount);
    g->dist = malloc((size_t)n * (size_t)n);
    int *fill = malloc((size_t)n * sizeof *fill), *queue = malloc((size_t)n * sizeof *queue);
    if (!g->isheavy || !g->start || !g->nbr || !g->nbr_order || !g->hcount || !g->dist || !fill || !queue) {
        free(bonds), free(fill), free(queue);
        return VSG_E_NOMEM;
    }
    for (int i = 0; i < n; i++) g->isheavy[i] = !vsg_pc_is_hydrogen(&ref->atoms[i]);
    for (int k = 0; k < nb; k++) {
        int a = bonds[k].a, b = bonds[k].b;
        if (g->isheavy[a] && g->isheavy[b]) g->start[a + 1]++, g->start[b + 1]++;
        else if (g->isheavy[a]) g->hcount[a]++;
        else if (g->isheavy[b]) g->hcount[b]++;
    }
    for (int i = 0; i < n; i++) g->start[i + 1] += g->start[i];
    memcpy(fill, g->start, (size_t)n * sizeof *fill);
    for (int k = 0; k < nb; k++) {
        int a = bonds[k].a, b = bonds[k].b;
        if (!g->isheavy[a] || !g->isheavy[b]) continue;
        g->nbr[fill[a]] = b, g->nbr_order[fill[a]++] = bonds[k].order;
        g->nbr[fill[b]] = a, g->nbr_order[fill[b]++] = bonds[k].order;
    }
    free(bonds);
    /* breadth-first distances from every heavy atom */
    memset(g->dist, FAR, (size_t)n * (size_t)n);
    for (int s = 0; s < n; s++) {
        if (!g->isheavy[s]) continue;
        unsigned char *d = g->dist + (size_t)s * n;
        int head = 0, tail = 0;
        d[s] = 0, queue[tail++] = s;
        while (head < tail) {
            int u = queue[head++];
            if (d[u] >= FAR - 1) continue;
            for (int e = g->start[u]; e < g->start[u + 1]; e++)
                if (d[g->nbr[e]] == FAR) d[g->nbr[e]] = (unsigned char)(d[u] + 1), queue[tail++] = g->nbr[e];
        }
    }
    free(fill), free(queue);
    return VSG_OK;
}

static unsigned dist(const graph *g, int a, int b) { return g->dist[(size_t)a * g->n + b]; }

/* Cis distance of the path a-j-k-l: the smallest a–l distance over the torsion. */
static double cis_distance(const graph *g, int a, int l)
{
    for (int e = g->start[a]; e < g->start[a + 1]; e++) {
        int j = g->nbr[e];
        if (dist(g, j, l) != 2) continue;
        for (int f = g->start[j]; f < g->start[j + 1]; f++) {
            int k = g->nbr[f];
            if (dist(g, k, l) != 1 || k == a) continue;
            const vsg_lig_atom *A = &g->at[a], *J = &g->at[j], *K = &g->at[k], *L = &g->at[l];
            double b1 = ref_dist(A, J), b2 = ref_dist(J, K), b3 = ref_dist(K, L);
            double t1 = ref_angle(A, J, K), t2 = ref_angle(J, K, L);
            double x = b2 - b3 * cos(t2) - b1 * cos(t1), y = b3 * sin(t2) - b1 * sin(t1);
            return sqrt(x * x + y * y);
        }
    }
    return ref_dist(&g->at[a], &g->at[l]);
}

static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/* Morgan-style invariants: atoms the graph's symmetry exchanges get equal values. */
static vsg_status invariants(const graph *g, uint64_t *inv)
{
    int n = g->n;
    uint64_t *next = malloc((n > 0 ? (size_t)n : 1) * sizeof *next);
    if (!next) return VSG_E_NOMEM;
    for (int i = 0; i < n; i++) {
        const vsg_lig_atom *a = &g->at[i];
        uint64_t e = (uint64_t)(unsigned char)a->element[0] << 8 | (unsigned char)a->element[1];
        inv[i] = mix(e ^ (uint64_t)degree(g, i) << 16 ^ (uint64_t)g->hcount[i] << 24 ^ (uint64_t)(a->formal + 8) << 32);
    }
    for (int round = 0; round < 12; round++) {
        for (int i = 0; i < n; i++) {
            if (!g->isheavy[i]) { next[i] = inv[i]; continue; }
            uint64_t nb[16];
            int m = 0;
            for (int e = g->start[i]; e < g->start[i + 1] && m < 16; e++) nb[m++] = inv[g->nbr[e]];
            for (int p = 1; p < m; p++) /* insertion sort: the neighbours' order must not matter */
                for (int q = p; q > 0 && nb[q - 1] > nb[q]; q--) { uint64_t t = nb[q]; nb[q] = nb[q - 1], nb[q - 1] = t; }
            uint64_t h = mix(inv[i]);
            for (int p = 0; p < m; p++) h = mix(h ^ nb[p]);
            next[i] = h;
        }
        memcpy(inv, next, (size_t)n * sizeof *inv);
    }
    free(next);
    return VSG_OK;
}

static double triple(const vsg_lig_atom *c, const vsg_lig_atom *a, const vsg_lig_atom *b, const vsg_lig_atom *d)
{
    double u[3] = {a->x - c->x, a->y - c->y, a->z - c->z}, v[3] = {b->x - c->x, b->y - c->y, b->z - c->z},
           w[3] = {d->x - c->x, d->y - c->y, d->z - c->z};
    double nu = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]), nv = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]),
           nw = sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
    if (!(nu > 0 && nv > 0 && nw > 0)) return 0;
    double x = v[1] * w[2] - v[2] * w[1], y = v[2] * w[0] - v[0] * w[2], z = v[0] * w[1] - v[1] * w[0];
    return (u[0] * x + u[1] * y + u[2] * z) / (nu * nv * nw);
}

/* A carbon whose 3 heavy neighbours lie in one plane with it (fewer neighbours: 1). */
static int planar_centre(const graph *g, int i)
{
    if (degree(g, i) < 3) return 1;
    const int *nb = &g->nbr[g->start[i]];
    return fabs(triple(&g->at[i], &g->at[nb[0]], &g->at[nb[1]], &g->at[nb[2]])) < 0.1;
}

static int is_elem(const vsg_lig_atom *a, const char *e) { return !strcmp(a->element, e); }

static int stereo_candidate(const graph *g, int i)
{
    const vsg_lig_atom *a = &g->at[i];
    int h = degree(g, i), H = g->hcount[i];
    if (is_elem(a, "C") || is_elem(a, "Si")) return h == 4 || (h == 3 && H <= 1);
    if (is_elem(a, "N")) return h + H == 4 && h >= 3;
    if (is_elem(a, "P") || is_elem(a, "S")) return h == 3 || h == 4;
    return 0;
}

/* Rings of 5 and 6 heavy atoms: simple cycles through atoms above the start, each once. */
typedef struct { vsg_pc_flat *ring; int n, cap; } ring_list;

static int ring_dfs(const graph *g, int *path, int len, ring_list *rl)
{
    int u = path[len - 1], s = path[0];
    for (int e = g->start[u]; e < g->start[u + 1]; e++) {
        int v = g->nbr[e];
        if (v == s && len >= 5 && path[1] < path[len - 1]) {
            if (rl->n == rl->cap) {
                int cap = rl->cap ? 2 * rl->cap : 16;
                vsg_pc_flat *r = realloc(rl->ring, (size_t)cap * sizeof *r);
                if (!r) return 0;
                rl->ring = r, rl->cap = cap;
            }
            rl->ring[rl->n].n = len;
            memcpy(rl->ring[rl->n].atom, path, (size_t)len * sizeof *path);
            rl->n++;
            continue;
        }
        if (v <= s || len == 6) continue;
        int on = 0;
        for (int k = 1; k < len; k++) on |= path[k] == v;
        if (on) continue;
        path[len] = v;
        if (!ring_dfs(g, path, len + 1, rl)) return 0;
    }
    return 1;
}

static int aromatic_ring(const graph *g, const vsg_pc_flat *r)
{
    int donors = 0;
    for (int k = 0; k < r->n; k++) {
        int i = r->atom[k], ok = !strcmp(g->at[i].ad_type, "A");
        for (int e = g->start[i]; e < g->start[i + 1]; e++) {
            int o = g->nbr_order[e];
            if (o == 2 || o == VSG_BOND_AROMATIC) ok = 1;
        }
        if (ok) continue;
        const vsg_lig_atom *a = &g->at[i];
        if (r->n == 5 && (is_elem(a, "N") || is_elem(a, "O") || is_elem(a, "S") || is_elem(a, "Se")) && degree(g, i) <= 3 &&
            !donors)
            donors = 1;
        else
            return 0;
    }
    return 1;
}

vsg_status vsg_pc_topology(struct vsg_pose_checker *c, const vsg_ligand *ref)
{
    graph g;
    vsg_status st = graph_build(&g, ref);
    if (st != VSG_OK) return graph_free(&g), st;
    int n = g.n;
    const vsg_lig_atom *at = ref->atoms;
    size_t nh = 0;
    for (int i = 0; i < n; i++) nh += g.isheavy[i];
    size_t nb_cap = (size_t)g.start[n] / 2 + 1, pair_cap = nh * (nh + 1) / 2 + 1;
    c->heavy = malloc((nh + 1) * sizeof *c->heavy);
    c->bond = malloc(nb_cap * sizeof *c->bond);
    c->angle = malloc(pair_cap * sizeof *c->angle);
    c->pair = malloc(pair_cap * sizeof *c->pair);
    c->centre = malloc((nh + 1) * sizeof *c->centre);
    uint64_t *inv = malloc((n > 0 ? (size_t)n : 1) * sizeof *inv);
    unsigned char *in_arom = calloc(n > 0 ? (size_t)n : 1, 1);
    int path[8];
    ring_list rl = {NULL, 0, 0};
    if (!c->heavy || !c->bond || !c->angle || !c->pair || !c->centre || !inv || !in_arom) { st = VSG_E_NOMEM; goto out; }
    for (int i = 0; i < n; i++)
        if (g.isheavy[i]) c->heavy[c->nheavy++] = i;
    for (int i = 0; i < n; i++)
        for (int e = g.start[i]; e < g.start[i + 1]; e++)
            if (g.nbr[e] > i) c->bond[c->nbonds++] = (vsg_pc_pair){i, g.nbr[e], ref_dist(&at[i], &at[g.nbr[e]])};
    /* 1-3 pairs (once each, through their first centre) and pairs 3 or more bonds apart */
    for (size_t p = 0; p < nh; p++)
        for (size_t q = p + 1; q < nh; q++) {
            int a = c->heavy[p], b = c->heavy[q];
            unsigned d = dist(&g, a, b);
            double d0 = ref_dist(&at[a], &at[b]);
            if (d == 2) {
                for (int e = g.start[a]; e < g.start[a + 1]; e++) {
                    int j = g.nbr[e];
                    if (dist(&g, j, b) != 1) continue;
                    c->angle[c->nangles++] = (vsg_pc_angle){a, j, b, d0, ref_angle(&at[a], &at[j], &at[b]) * 180.0 / 3.14159265358979323846};
                    break;
                }
            } else if (d >= 3) {
                double rsum = vsg_pc_vdw_radius(at[a].element) + vsg_pc_vdw_radius(at[b].element);
                double lb = d == 3   ? cis_distance(&g, a, b)
                            : d == 4 ? VSG_PC_VDW_SCALE_15 * rsum
                            : d == 5 ? (VSG_PC_VDW_SCALE_15 + 0.5 * (1.0 - VSG_PC_VDW_SCALE_15)) * rsum
                                     : rsum;
                if (d0 < lb) lb = d0; /* the molecule's own geometry is allowed */
                c->pair[c->npairs++] = (vsg_pc_nonbonded){a, b, lb};
            }
        }
    /* aromatic rings */
    for (size_t p = 0; p < nh; p++) {
        path[0] = c->heavy[p];
        if (!ring_dfs(&g, path, 1, &rl)) { st = VSG_E_NOMEM; goto out; }
    }
    for (int r = 0; r < rl.n; r++)
        if (aromatic_ring(&g, &rl.ring[r])) {
            rl.ring[c->nrings++] = rl.ring[r];
            for (int k = 0; k < rl.ring[r].n; k++) in_arom[rl.ring[r].atom[k]] = 1;
        }
    c->ring = rl.ring, rl.ring = NULL;
    /* C=C double bonds outside aromatic rings, with their heavy neighbours */
    c->dbl = malloc(nb_cap * sizeof *c->dbl);
    if (!c->dbl) { st = VSG_E_NOMEM; goto out; }
    for (int i = 0; i < n; i++)
        for (int e = g.start[i]; e < g.start[i + 1]; e++) {
            int j = g.nbr[e];
            if (j < i || g.nbr_order[e] != 2 || !is_elem(&at[i], "C") || !is_elem(&at[j], "C")) continue;
            if (in_arom[i] && in_arom[j]) continue;
            if (degree(&g, i) + g.hcount[i] > 3 || degree(&g, j) + g.hcount[j] > 3) continue;
            /* orders perceived from a PDBQT's geometry: only carbons that are trigonal planar there */
            if (ref->nbonds == 0 && (!planar_centre(&g, i) || !planar_centre(&g, j))) continue;
            vsg_pc_flat f = {2, {i, j}};
            for (int s = 0; s < 2; s++) {
                int u = s ? j : i;
                for (int k = g.start[u]; k < g.start[u + 1] && f.n < 8; k++)
                    if (g.nbr[k] != i && g.nbr[k] != j) f.atom[f.n++] = g.nbr[k];
            }
            if (f.n >= 4) c->dbl[c->ndouble++] = f;
        }
    /* tetrahedral stereo centres */
    if ((st = invariants(&g, inv)) != VSG_OK) goto out;
    for (size_t p = 0; p < nh; p++) {
        int i = c->heavy[p];
        if (!stereo_candidate(&g, i)) continue;
        int nb[4], m = 0, distinct = 1;
        for (int e = g.start[i]; e < g.start[i + 1] && m < 4; e++) nb[m++] = g.nbr[e];
        for (int x = 0; x < m; x++)
            for (int y = x + 1; y < m; y++) distinct &= inv[nb[x]] != inv[nb[y]];
        if (!distinct || m < 3) continue;
        double v = triple(&at[i], &at[nb[0]], &at[nb[1]], &at[nb[2]]);
        if (fabs(v) < VSG_PC_CHIRAL_MIN) continue;
        c->centre[c->ncentres++] = (vsg_pc_centre){i, {nb[0], nb[1], nb[2]}, v > 0 ? 1.0 : -1.0};
    }
out:
    free(rl.ring);
    free(inv);
    free(in_arom);
    graph_free(&g);
    return st;
}
