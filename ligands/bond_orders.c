/* bond_orders.c — bond orders and formal charges from geometry and valence (see bond_orders.h).
 *
 * The classical perception (Baber & Hodgkin 1992; Labute 2005; Open Babel's
 * PerceiveBondOrders), re-derived, in two steps:
 *  1. How many π bonds each atom needs. Where hydrogens are explicit (all of them when any sits
 *     on a carbon; those of N, O, S when only polar ones are there, as PDBQT keeps them), valence
 *     says it: a carbon of degree 3 needs one, of degree 2 two; a nitrogen of degree 2 one, of
 *     degree 1 two (nitrile); a terminal O or S one; a sulfonyl S two, a sulfinyl S or a
 *     phosphoryl P one (to terminal O or S only). Elsewhere the geometry says it: the angle sum of
 *     a three-connected atom
 *     (planar: sp2), the angle of a two-connected one (linear: sp; about 120°: sp2), membership
 *     of a planar 5- or 6-membered ring (aromatic candidates: their angles alone do not tell),
 *     and, for terminal atoms, how much shorter than a single bond their bond is.
 *  2. Which bonds get them: a b-matching of those needs over the bonds that can carry a π bond,
 *     searched depth first per conjugated system, the atom with the fewest choices first and the
 *     relatively shortest bond first, each unmet need paying a cost (a carbon's high, a terminal
 *     oxygen's low: it becomes O−); of equally cheap structures the one whose π bonds are the
 *     shortest (an enolate's C–O− is longer than its C=O), looked for a while after the first.
 *     A planar three-connected nitrogen may take a π bond at a small cost (it becomes N+:
 *     pyridinium, amidinium); a nitro or N-oxide nitrogen must; a sulfonamide N may stay N−.
 * Formal charges then follow from valence: N with four bonds +1; a terminal O left without its
 * π bond −1 (with explicit polar H; without, when its bond is short: nitro, sulfonate,
 * phosphate, or it sits on a carboxyl carbon: the libraries write carboxylic acids as
 * carboxylates, whatever their geometry); with explicit polar H a two-connected N left without
 * one −1 (tetrazolate). */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ligands/bond_infer.h"
#include "ligands/bond_orders.h"

enum {
    SEARCH_BUDGET = 20000000, /* atom visits a conjugated system may cost (each search node visits
                                 the system's atoms); past it the best so far is kept */
    TIE_BUDGET = 2000,       /* search nodes left, once a structure is found, for a cheaper one
                                or one as cheap on shorter bonds */
    COST_CARBON = 100,       /* an sp/sp2 carbon left without its π bond: a radical */
    COST_HYPERVALENT = 50,   /* a sulfonyl/phosphoryl S or P without its S=O / P=O */
    COST_GEOMETRY_CARBON = 20, /* a carbon whose need only bond lengths and angles suggest */
    COST_NITROGEN = 10,      /* an imine/pyridine N left single: N− (or an NH in a 6-ring) */
    COST_SULFONYL_N = 2,     /* an N on a sulfonyl S left single: the sulfonamide anion, acidic */
    COST_OPTIONAL_N = 3,     /* without H: a chain N that may carry H instead (amide, aniline) */
    COST_RING_NH = 4,        /* without H: a 5-ring N that may (pyrrole-type); a chain NH is the
                                likelier tautomer when the two compete */
    COST_CHARGED_N = 5,      /* a planar three-connected N taking a π bond: N+ */
    COST_TERMINAL = 4,       /* a terminal O or S left single: O−, S−; more than an optional N */
    COST_TERMINAL_NO_H = 12  /* the same without H (or OH, SH): more than any N left for an H,
                                so that amides and pyridones keep their C=O */
};
static const double PLANAR_SUM = 345.0;    /* degrees: angle sum of an sp2 centre (sp3: 328) */
static const double LINEAR_ANGLE = 155.0;  /* degrees: sp */
static const double TRIGONAL_ANGLE = 115.0; /* degrees: sp2 chain atom (sp3: 109-113) */
static const double RING_TORSION = 10.0;   /* degrees: largest torsion of a planar ring */
static const double DEGREES_PER_RADIAN = 57.29577951308232;

typedef struct {
    int n, nb;
    const vsg_lig_atom *at;
    vsg_lig_bond *bonds;
    int *z, *start, *nbr, *via;       /* neighbours of i: nbr[start[i] .. start[i+1]) by bond via[] */
    int *need, *rem, *miss_cost, *use_cost, *left, *best_left;
    int *members, *system_start;      /* atoms of conjugated system s: members[system_start[s] ..
                                         system_start[s+1]) */
    int *ord, *best_ord;
    double *shortness;                /* Å shorter than the single-bond length of the pair */
    unsigned char *pi_ok;             /* the bond may carry π bonds */
    int cost, best, first, last;      /* first, last: the members of the system searched */
    double shorter, best_shorter;     /* Σ shortness of the π bonds placed: among the cheapest
                                         structures, the one on the shortest bonds */
    long budget;
} perceiver;

static int element_z(const char *el)
{
    static const struct {
        const char *el;
        int z;
    } known[] = {{"H", 1}, {"D", 1}, {"C", 6}, {"N", 7}, {"O", 8}, {"P", 15}, {"S", 16}};
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (!strcmp(el, known[i].el)) return known[i].z;
    return 0;
}

static int degree(const perceiver *p, int i) { return p->start[i + 1] - p->start[i]; }

static double distance(const vsg_lig_atom *a, const vsg_lig_atom *b)
{
    const double dx = a->x - b->x, dy = a->y - b->y, dz = a->z - b->z;
    return sqrt(dx * dx + dy * dy + dz * dz);
}

/* Angle a–b–c in degrees. */
static double angle(const vsg_lig_atom *a, const vsg_lig_atom *b, const vsg_lig_atom *c)
{
    const double u[3] = {a->x - b->x, a->y - b->y, a->z - b->z}, v[3] = {c->x - b->x, c->y - b->y, c->z - b->z};
    const double uv = u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
    const double nu = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]), nv = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (nu == 0.0 || nv == 0.0) return 0.0;
    double c_ = uv / (nu * nv);
    c_ = c_ > 1.0 ? 1.0 : c_ < -1.0 ? -1.0 : c_;
    return acos(c_) * DEGREES_PER_RADIAN;
}

/* Torsion a–b–c–d in degrees (absolute value). */
static double torsion(const vsg_lig_atom *a, const vsg_lig_atom *b, const vsg_lig_atom *c, const vsg_lig_atom *d)
{
    const double b1[3] = {b->x - a->x, b->y - a->y, b->z - a->z}, b2[3] = {c->x - b->x, c->y - b->y, c->z - b->z},
                 b3[3] = {d->x - c->x, d->y - c->y, d->z - c->z};
    const double n1[3] = {b1[1] * b2[2] - b1[2] * b2[1], b1[2] * b2[0] - b1[0] * b2[2], b1[0] * b2[1] - b1[1] * b2[0]};
    const double n2[3] = {b2[1] * b3[2] - b2[2] * b3[1], b2[2] * b3[0] - b2[0] * b3[2], b2[0] * b3[1] - b2[1] * b3[0]};
    const double nb2 = sqrt(b2[0] * b2[0] + b2[1] * b2[1] + b2[2] * b2[2]);
    if (nb2 == 0.0) return 0.0; /* coincident atoms: no torsion to speak of */
    const double m1[3] = {n1[1] * b2[2] / nb2 - n1[2] * b2[1] / nb2, n1[2] * b2[0] / nb2 - n1[0] * b2[2] / nb2,
                          n1[0] * b2[1] / nb2 - n1[1] * b2[0] / nb2};
    const double x = n1[0] * n2[0] + n1[1] * n2[1] + n1[2] * n2[2], y = m1[0] * n2[0] + m1[1] * n2[1] + m1[2] * n2[2];
    return fabs(atan2(y, x) * DEGREES_PER_RADIAN);
}

/* Sum of the angles at i over its neighbour pairs (three-connected atoms: 360 when planar). */
static double angle_sum(const perceiver *p, int i)
{
    double s = 0.0;
    for (int k = p->start[i]; k < p->start[i + 1]; k++)
        for (int m = k + 1; m < p->start[i + 1]; m++) s += angle(&p->at[p->nbr[k]], &p->at[i], &p->at[p->nbr[m]]);
    return s;
}

static int is_terminal(const perceiver *p, int i) { return degree(p, i) == 1; }

/* The cycles of 5 or 6 atoms with at most three neighbours through path[0], depth first: the
 * size of the first whose torsions are all under RING_TORSION, else 0. */
static int ring_walk(const perceiver *p, int *path, int len)
{
    const int last = path[len - 1];
    for (int k = p->start[last]; k < p->start[last + 1]; k++) {
        const int next = p->nbr[k];
        if (p->z[next] <= 1 || degree(p, next) > 3) continue;
        if (next == path[0] && len >= 5) {
            double worst = 0.0;
            for (int t = 0; t < len; t++) {
                double w = torsion(&p->at[path[t]], &p->at[path[(t + 1) % len]], &p->at[path[(t + 2) % len]],
                                   &p->at[path[(t + 3) % len]]);
                if (w > worst) worst = w;
            }
            if (worst < RING_TORSION) return len;
            continue;
        }
        if (len == 6) continue;
        int seen = 0;
        for (int t = 0; t < len; t++) seen |= path[t] == next;
        if (seen) continue;
        path[len] = next;
        const int size = ring_walk(p, path, len + 1);
        if (size) return size;
    }
    return 0;
}

/* The size of a planar 5- or 6-membered ring through i, 0 when none. */
static int planar_ring(const perceiver *p, int i)
{
    int path[6] = {i};
    return degree(p, i) <= 3 ? ring_walk(p, path, 1) : 0;
}

static double max_shortness(const perceiver *p, int i)
{
    double s = -1.0;
    for (int k = p->start[i]; k < p->start[i + 1]; k++)
        if (p->z[p->nbr[k]] > 1 && p->shortness[p->via[k]] > s) s = p->shortness[p->via[k]];
    return s;
}

static int on_sulfonyl(const perceiver *p, int i)
{
    for (int k = p->start[i]; k < p->start[i + 1]; k++)
        if (p->z[p->nbr[k]] == 16 && degree(p, p->nbr[k]) == 4) return 1;
    return 0;
}

static int has_terminal_o(const perceiver *p, int i)
{
    for (int k = p->start[i]; k < p->start[i + 1]; k++)
        if (p->z[p->nbr[k]] == 8 && is_terminal(p, p->nbr[k])) return 1;
    return 0;
}

/* The π bonds atom i needs, what each unmet one costs, what taking one costs (step 1). */
static void set_need(perceiver *p, int i, int carbon_h, int polar_h)
{
    const int d = degree(p, i);
    int need = 0, miss = 0, use = 0, ring;
    const int *nbr = p->nbr + p->start[i];
    const double mean_angle = d == 2 ? angle(&p->at[nbr[0]], &p->at[i], &p->at[nbr[1]]) : 0.0;
    const double s1 = d == 1 ? p->shortness[p->via[p->start[i]]] : 0.0;
    const int z1 = d == 1 ? p->z[p->nbr[p->start[i]]] : 0;
    switch (p->z[i]) {
    case 6:
        if (carbon_h) need = d == 3 ? 1 : d == 2 ? 2 : 0, miss = COST_CARBON;
        else if (d == 3) need = angle_sum(p, i) >= PLANAR_SUM, miss = COST_CARBON;
        else if (d == 2 && mean_angle > LINEAR_ANGLE) need = 2, miss = COST_CARBON;
        else if (d == 2 && planar_ring(p, i) && max_shortness(p, i) >= 0.07) /* not a CH2 of indoline */
            need = 1, miss = COST_CARBON;
        else if (d == 2) /* C=C 1.34 Å is 0.18 short, a conjugated single bond 0.05: in rings too */
            need = max_shortness(p, i) >= 0.12 || (mean_angle > TRIGONAL_ANGLE && max_shortness(p, i) >= 0.06),
            miss = COST_GEOMETRY_CARBON;
        else if (d == 1) need = s1 > 0.24 ? 2 : s1 > 0.10, miss = COST_GEOMETRY_CARBON;
        break;
    case 7:
        if (d == 3 && has_terminal_o(p, i)) need = 1, miss = COST_CARBON; /* nitro, N-oxide: N+ */
        else if (d == 3 && angle_sum(p, i) >= PLANAR_SUM) need = 1, use = COST_CHARGED_N;
        else if (polar_h)
            need = d == 2 ? 1 : d == 1 ? 2 : 0, miss = on_sulfonyl(p, i) ? COST_SULFONYL_N : COST_NITROGEN;
        else if (d == 2 && (ring = planar_ring(p, i)) != 0 && max_shortness(p, i) >= 0.05)
            need = 1, miss = ring == 5 ? COST_RING_NH : COST_NITROGEN; /* NH fits a 5-ring, not a 6-ring */
        else if (d == 2 && mean_angle > LINEAR_ANGLE) need = 2, miss = COST_NITROGEN;
        else if (d == 2) need = max_shortness(p, i) > 0.14, miss = COST_OPTIONAL_N; /* C=N 1.28, Ar–NH 1.38 Å */
        else if (d == 1) need = s1 > 0.24 ? 2 : s1 > 0.12, miss = s1 > 0.24 ? COST_NITROGEN : COST_OPTIONAL_N;
        break;
    case 8:
        if (d == 1 && z1 > 1)
            need = polar_h || z1 != 6 || s1 > 0.12, miss = polar_h ? COST_TERMINAL : COST_TERMINAL_NO_H;
        break;
    case 16:
        if (d == 1 && z1 > 1) /* C=S 1.71 Å, C–S 1.81 */
            need = polar_h || z1 != 6 || s1 > 0.05, miss = polar_h ? COST_TERMINAL : COST_TERMINAL_NO_H;
        else if (d == 3 && has_terminal_o(p, i)) need = 1, miss = COST_HYPERVALENT;
        else if (d == 4) need = 2, miss = COST_HYPERVALENT;
        break;
    case 15:
        if (d == 4) need = 1, miss = COST_HYPERVALENT;
        break;
    default:
        break;
    }
    p->need[i] = p->rem[i] = need;
    p->miss_cost[i] = miss;
    p->use_cost[i] = use;
}

/* Whether the bond a–b may carry π bonds: between C, N, O, S, P, never O–O, and a
 * three- or four-connected S or P only to a terminal O or S. */
static int pi_allowed(const perceiver *p, int a, int b)
{
    const int za = p->z[a], zb = p->z[b];
    if (za <= 1 || zb <= 1 || (za == 8 && zb == 8)) return 0;
    for (int r = 0; r < 2; r++) {
        const int x = r ? b : a, y = r ? a : b;
        const int hypervalent = p->z[x] == 15 || (p->z[x] == 16 && degree(p, x) >= 3);
        if (hypervalent && !((p->z[y] == 8 || p->z[y] == 16) && is_terminal(p, y))) return 0;
    }
    return 1;
}

typedef struct {
    int bond, cost;  /* bond −1: leave one need unmet */
    double shortness;
} option;

/* Depth-first b-matching of the current conjugated system (step 2): the atom with the fewest
 * choices first, cheaper choices and relatively shorter bonds first; the cheapest structure is
 * kept, of equal costs the one on the shortest bonds. */
static void search(perceiver *p)
{
    if (p->cost > p->best || p->budget <= 0) return;
    p->budget -= p->last - p->first;
    int pick = -1, fewest = INT_MAX;
    for (int m = p->first; m < p->last && fewest > 0; m++) {
        const int i = p->members[m];
        if (p->rem[i] <= 0) continue;
        int choices = 0;
        for (int k = p->start[i]; k < p->start[i + 1]; k++)
            choices += p->pi_ok[p->via[k]] && p->ord[p->via[k]] < 3 && p->rem[p->nbr[k]] > 0;
        if (choices < fewest) fewest = choices, pick = i;
    }
    if (pick < 0) {
        if (p->cost == p->best && p->shorter <= p->best_shorter) return;
        const long tie = TIE_BUDGET * (long)(p->last - p->first);
        if (p->best == INT_MAX && p->budget > tie) p->budget = tie; /* the first structure: look nearby */
        p->best = p->cost, p->best_shorter = p->shorter;
        for (int m = p->first; m < p->last; m++) { /* the system's atoms and bonds only */
            const int a = p->members[m];
            p->best_left[a] = p->left[a];
            for (int k = p->start[a]; k < p->start[a + 1]; k++) p->best_ord[p->via[k]] = p->ord[p->via[k]];
        }
        return;
    }
    const int i = pick;
    option opt[9];
    int nopt = 0;
    for (int k = p->start[i]; k < p->start[i + 1] && nopt < 8; k++) {
        const int e = p->via[k], j = p->nbr[k];
        if (!p->pi_ok[e] || p->ord[e] >= 3 || p->rem[j] <= 0) continue;
        opt[nopt++] = (option){e, p->use_cost[i] + p->use_cost[j], p->shortness[e]};
    }
    opt[nopt++] = (option){-1, p->miss_cost[i], -INFINITY};
    for (int a = 1; a < nopt; a++) /* insertion sort: cost, then shortness */
        for (int b = a; b > 0 && (opt[b].cost < opt[b - 1].cost ||
                                  (opt[b].cost == opt[b - 1].cost && opt[b].shortness > opt[b - 1].shortness));
             b--) {
            option t = opt[b];
            opt[b] = opt[b - 1], opt[b - 1] = t;
        }
    for (int o = 0; o < nopt; o++) {
        const int e = opt[o].bond, j = e < 0 ? -1 : p->bonds[e].a == i ? p->bonds[e].b : p->bonds[e].a;
        p->rem[i]--;
        p->cost += opt[o].cost;
        if (e >= 0) p->ord[e]++, p->rem[j]--, p->shorter += opt[o].shortness;
        else p->left[i]++;
        search(p);
        if (e >= 0) p->ord[e]--, p->rem[j]++, p->shorter -= opt[o].shortness;
        else p->left[i]--;
        p->cost -= opt[o].cost;
        p->rem[i]++;
    }
}

/* Lists the conjugated systems (atoms with needs joined by bonds that may carry them) in
 * members[], breadth first; seen[] is scratch. Returns how many. */
static int list_systems(perceiver *p, unsigned char *seen)
{
    int count = 0, tail = 0;
    memset(seen, 0, (size_t)p->n);
    for (int i = 0; i < p->n; i++) {
        if (seen[i] || p->need[i] <= 0) continue;
        p->system_start[count++] = tail;
        seen[i] = 1;
        p->members[tail++] = i;
        for (int head = p->system_start[count - 1]; head < tail; head++) {
            const int x = p->members[head];
            for (int k = p->start[x]; k < p->start[x + 1]; k++) {
                const int y = p->nbr[k];
                if (p->pi_ok[p->via[k]] && p->need[y] > 0 && !seen[y]) seen[y] = 1, p->members[tail++] = y;
            }
        }
    }
    p->system_start[count] = tail;
    return count;
}

/* Whether c is a carbon with a terminal C=O. */
static int carboxyl_carbon(const perceiver *p, int c)
{
    if (p->z[c] != 6) return 0;
    for (int k = p->start[c]; k < p->start[c + 1]; k++)
        if (p->z[p->nbr[k]] == 8 && is_terminal(p, p->nbr[k]) && p->ord[p->via[k]] == 2) return 1;
    return 0;
}

/* Formal charges from the valences found (see the file comment). */
static void set_charges(perceiver *p, vsg_ligand *lig, int polar_h)
{
    for (int i = 0; i < p->n; i++) {
        int valence = 0;
        for (int k = p->start[i]; k < p->start[i + 1]; k++) valence += p->ord[p->via[k]];
        const int d = degree(p, i);
        int formal = 0;
        if (p->z[i] == 7 && valence == 4) formal = 1;
        else if (p->z[i] == 7 && polar_h && d == 2 && valence == 2 && p->left[i]) formal = -1;
        else if (p->z[i] == 8 && d == 1 && p->left[i]) {
            const int j = p->nbr[p->start[i]];
            const double r = distance(&p->at[i], &p->at[j]);
            /* without H a short bond says O− (carboxylate 1.26, P–O− 1.52 Å), a long one OH */
            const int short_bond = (p->z[j] == 6 && r < 1.30) || (p->z[j] == 15 && r < 1.54);
            formal = polar_h || p->z[j] == 7 || p->z[j] == 16 || short_bond ? -1 : 0;
        } else if (p->z[i] == 8 && d == 1 && !polar_h && valence == 1 && carboxyl_carbon(p, p->nbr[p->start[i]])) {
            formal = -1; /* no H to say COOH: a carboxylate at pH 7, as libraries write them */
        } else if (p->z[i] == 16 && polar_h && d == 1 && p->left[i]) formal = -1;
        lig->atoms[i].formal = formal;
    }
}

vsg_status vsg_perceive_bond_orders(vsg_ligand *lig)
{
    if (!lig) return vsg_fail(VSG_E_ARG, "vsg_perceive_bond_orders: no ligand");
    const int n = lig->natoms, nb = lig->nbonds;
    for (int e = 0; e < nb; e++)
        if (lig->bonds[e].a < 0 || lig->bonds[e].a >= n || lig->bonds[e].b < 0 || lig->bonds[e].b >= n)
            return vsg_fail(VSG_E_ARG, "bond %d joins atoms %d and %d of a %d-atom molecule", e + 1,
                            lig->bonds[e].a + 1, lig->bonds[e].b + 1, n);
    if (n == 0) return VSG_OK;
    perceiver p = {.n = n, .nb = nb, .at = lig->atoms, .bonds = lig->bonds, .best = INT_MAX};
    int *ints = calloc((size_t)(11 * n + 3 + 4 * nb), sizeof *ints);
    double *shortness = malloc((size_t)(nb ? nb : 1) * sizeof *shortness);
    unsigned char *pi_ok = calloc((size_t)(nb + n), 1); /* and the systems' seen[] */
    if (!ints || !shortness || !pi_ok) {
        free(ints), free(shortness), free(pi_ok);
        return vsg_fail(VSG_E_NOMEM, "out of memory perceiving the bond orders of %d atoms", n);
    }
    int *f = ints;
    p.z = f, f += n;
    p.start = f, f += n + 1;
    p.need = f, f += n;
    p.rem = f, f += n;
    p.miss_cost = f, f += n;
    p.use_cost = f, f += n;
    p.left = f, f += n;
    p.best_left = f, f += n;
    p.members = f, f += n;
    p.system_start = f, f += n + 1;
    int *fill = f;
    f += n;
    p.nbr = f, f += 2 * nb;
    p.via = f, f += 2 * nb;
    p.ord = malloc((size_t)(2 * (nb ? nb : 1)) * sizeof *p.ord);
    if (!p.ord) {
        free(ints), free(shortness), free(pi_ok);
        return vsg_fail(VSG_E_NOMEM, "out of memory perceiving the bond orders of %d atoms", n);
    }
    p.best_ord = p.ord + (nb ? nb : 1);
    p.shortness = shortness;
    p.pi_ok = pi_ok;

    int carbon_h = 0, polar_h = 0; /* hydrogens on carbons are all there; on N, O, S */
    for (int i = 0; i < n; i++) p.z[i] = element_z(lig->atoms[i].element);
    for (int e = 0; e < nb; e++) {
        p.start[lig->bonds[e].a + 1]++, p.start[lig->bonds[e].b + 1]++;
        p.ord[e] = 1;
        const int za = p.z[lig->bonds[e].a], zb = p.z[lig->bonds[e].b];
        carbon_h |= (za == 1 && zb == 6) || (za == 6 && zb == 1);
        polar_h |= za == 1 || zb == 1;
        const vsg_lig_atom *a = &lig->atoms[lig->bonds[e].a], *b = &lig->atoms[lig->bonds[e].b];
        shortness[e] = vsg_covalent_radius(a->element) + vsg_covalent_radius(b->element) - distance(a, b);
    }
    for (int i = 0; i < n; i++) p.start[i + 1] += p.start[i], fill[i] = p.start[i];
    for (int e = 0; e < nb; e++) {
        const int a = lig->bonds[e].a, b = lig->bonds[e].b;
        p.nbr[fill[a]] = b, p.via[fill[a]++] = e;
        p.nbr[fill[b]] = a, p.via[fill[b]++] = e;
    }
    for (int e = 0; e < nb; e++) pi_ok[e] = (unsigned char)pi_allowed(&p, lig->bonds[e].a, lig->bonds[e].b);
    for (int i = 0; i < n; i++) set_need(&p, i, carbon_h, polar_h);
    const int systems = list_systems(&p, pi_ok + nb);
    memcpy(p.best_ord, p.ord, (size_t)nb * sizeof *p.ord);
    for (int sys = 0; sys < systems; sys++) {
        p.first = p.system_start[sys], p.last = p.system_start[sys + 1];
        p.best = INT_MAX, p.cost = 0, p.shorter = 0.0, p.budget = SEARCH_BUDGET;
        search(&p);
        /* the best of this system stays (its bonds and atoms are its own): the next one is
         * searched beside it */
        for (int m = p.first; m < p.last; m++) {
            const int i = p.members[m];
            p.left[i] = p.best_left[i], p.rem[i] = 0;
            for (int k = p.start[i]; k < p.start[i + 1]; k++) p.ord[p.via[k]] = p.best_ord[p.via[k]];
        }
    }
    for (int e = 0; e < nb; e++) lig->bonds[e].order = p.ord[e];
    set_charges(&p, lig, polar_h);
    free(ints), free(shortness), free(pi_ok), free(p.ord);
    return VSG_OK;
}
