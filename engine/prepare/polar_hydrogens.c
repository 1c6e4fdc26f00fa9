/* polar_hydrogens.c — rotatable polar hydrogens and the hydrogens of kept waters turned for
 * hydrogen bonds (pdb2pqr's default optimisation, simplified), after every residue and group is
 * placed.
 *
 * Groups. Ser HG, Thr HG1 and the HG of a free Cys turn about CB–OG / CB–OG1 / CB–SG (36 steps
 * of 10°, and the angle aimed at each acceptor); Tyr HH stays in the ring plane (its template
 * dihedral or 180° from it); Lys NZ's HZ1–3 and an N-terminal NH3+ (H, H2, H3, not Pro's) turn
 * as one staggered rotor about CE–NZ / CA–N (12 steps of 10° over the rotor's 120°, and the
 * angles that aim each H at each acceptor); a neutral LYN's two H (a pH above 10) turn freely
 * about CE–NZ. ASH's and GLH's acid H stay syn as the templates place them (pdb2pqr may move
 * such an H to the other oxygen: not done). A water's two H keep TIP3P's geometry (0.9572 Å,
 * 104.52°) and are set to donate to the best pair of acceptors, or to the best one (the other H
 * turned in 30° steps about it). Only dihedrals change: every H is its first position rotated
 * about the group's axis (bond lengths and angles kept), a water as a rigid body.
 *
 * Score (higher is better), per H at h of donor D: the best acceptor A (any O; an N without H
 * of a HETATM group or of a His ring), with D···A ≤ 3.5 Å, counts
 * clamp((2.6 − d(H,A)) / 0.8) × clamp((−cos∠DHA − 0.5) / 0.5): 1 from H···A ≤ 1.8 Å and a
 * straight D–H···A, 0 beyond 2.6 Å or below 120°; × 1.25 for a carboxylate O (Asp, Glu, C
 * terminus: a salt bridge is the stronger bond); minus 2 per Å that another H comes closer than
 * 2.0 Å, an acceptor than 1.6 Å, any other heavy atom than 2.2 Å (atoms bonded to D excepted).
 * A group moves only when that gains; three sweeps over all groups, so each sees its
 * neighbours' last choice (in the first the waters' H, not yet oriented, are not in the way).
 * Atoms are found through a grid of 4.2 Å cells that follows every hydrogen moved, so the work
 * grows linearly with the structure. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/prepare/prep_model.h"
#include "grids/base/constants.h"

enum { MAXNEAR = 512, SWEEPS = 3, ACCEPTOR = 1, ANION = 2, WATER_H = 4 };

static const double HB_REACH = 3.5, CELL = 4.2, WAT_OH = 0.9572, WAT_HOH = 104.52;

typedef struct {
    double lo[3], cell;
    int dim[3];
    int *head, *next;
} cell_grid;

/* A rotor: hydrogens h[] on donor d, turned about axis atom → donor; fold 1 free, 2 (Tyr: two
 * choices), 3 (NH3+). v0: each H's first position less the donor's; theta: the angle now. */
typedef struct {
    int axis, d, h[3], nh, fold;
    double v0[3][3], theta;
} rotor;

typedef struct {
    const patom *a;
    const char *acc;   /* per atom: ACCEPTOR, ANION (with ACCEPTOR), WATER_H bits */
    int unplaced_waters; /* water H not oriented yet: not in the way */
    cell_grid g;
} scene;

static size_t cell_of(const cell_grid *g, const double *x)
{
    int c[3];
    for (int d = 0; d < 3; d++) {
        c[d] = (int)((x[d] - g->lo[d]) / g->cell);
        c[d] = c[d] < 0 ? 0 : c[d] >= g->dim[d] ? g->dim[d] - 1 : c[d];
    }
    return ((size_t)c[2] * g->dim[1] + c[1]) * g->dim[0] + c[0];
}

/* A grid of the atoms' cells, 4.2 Å (larger when the box is sparse: a few cells an atom at
 * most); the padding keeps a moved hydrogen inside. */
static int grid_build(cell_grid *g, const patom *a, int n)
{
    double hi[3];
    for (int d = 0; d < 3; d++)
        g->lo[d] = hi[d] = n ? a[0].x[d] : 0;
    for (int i = 1; i < n; i++)
        for (int d = 0; d < 3; d++) {
            g->lo[d] = a[i].x[d] < g->lo[d] ? a[i].x[d] : g->lo[d];
            hi[d] = a[i].x[d] > hi[d] ? a[i].x[d] : hi[d];
        }
    for (int d = 0; d < 3; d++)
        g->lo[d] -= 2, hi[d] += 2;
    g->cell = CELL;
    for (;;) {
        double cells = 1;
        for (int d = 0; d < 3; d++)
            cells *= floor((hi[d] - g->lo[d]) / g->cell) + 1;
        if (cells <= 4.0 * n + 4096)
            break;
        g->cell *= 1.5;
    }
    for (int d = 0; d < 3; d++)
        g->dim[d] = (int)((hi[d] - g->lo[d]) / g->cell) + 1;
    size_t nc = (size_t)g->dim[0] * g->dim[1] * g->dim[2];
    g->head = malloc(nc * sizeof *g->head);
    g->next = malloc(((size_t)n + 1) * sizeof *g->next);
    if (!g->head || !g->next)
        return 0;
    memset(g->head, 0xff, nc * sizeof *g->head);
    for (int i = 0; i < n; i++) {
        size_t k = cell_of(g, a[i].x);
        g->next[i] = g->head[k];
        g->head[k] = i;
    }
    return 1;
}

/* Atom i moves to x: the grid follows it (so that every look-up is exact). */
static void grid_move(cell_grid *g, patom *a, int i, const double *x)
{
    size_t from = cell_of(g, a[i].x), to = cell_of(g, x);
    memcpy(a[i].x, x, sizeof a[i].x);
    if (from == to)
        return;
    for (int *p = &g->head[from]; *p >= 0; p = &g->next[*p])
        if (*p == i) {
            *p = g->next[i];
            break;
        }
    g->next[i] = g->head[to];
    g->head[to] = i;
}

/* Atoms within r of p (r ≤ the cell size, at least 4.2 Å). */
static int near_atoms(const scene *s, const double *p, double r, int *out)
{
    const cell_grid *g = &s->g;
    int c[3], n = 0;
    for (int d = 0; d < 3; d++)
        c[d] = (int)floor((p[d] - g->lo[d]) / g->cell);
    for (int z = c[2] - 1; z <= c[2] + 1; z++)
        for (int y = c[1] - 1; y <= c[1] + 1; y++)
            for (int x = c[0] - 1; x <= c[0] + 1; x++) {
                if (x < 0 || y < 0 || z < 0 || x >= g->dim[0] || y >= g->dim[1] || z >= g->dim[2])
                    continue;
                for (int i = g->head[((size_t)z * g->dim[1] + y) * g->dim[0] + x]; i >= 0; i = g->next[i])
                    if (n < MAXNEAR && prep_dist2(s->a[i].x, p) <= r * r)
                        out[n++] = i;
            }
    return n;
}

static int is_h(const patom *a)
{
    return a->element[0] == 'H' && a->element[1] == 0;
}

static double clamp01(double x)
{
    return x < 0 ? 0 : x > 1 ? 1 : x;
}

/* The hydrogen-bond quality of an H at h on donor d towards acceptor k (0..1; see the top). */
static double hbond(const scene *s, int d, const double *h, int k)
{
    const double *D = s->a[d].x, *A = s->a[k].x;
    double dha = sqrt(prep_dist2(h, A)), dh = sqrt(prep_dist2(h, D));
    if (dha < 1e-9 || dh < 1e-9)
        return 0;
    double c = 0;
    for (int e = 0; e < 3; e++)
        c += (D[e] - h[e]) * (A[e] - h[e]);
    c /= dha * dh;
    return clamp01((2.6 - dha) / 0.8) * clamp01((-c - 0.5) / 0.5);
}

/* Is atom k one of the group's own atoms (own[0..nown))? */
static int in_list(int k, const int *own, int nown)
{
    for (int i = 0; i < nown; i++)
        if (own[i] == k)
            return 1;
    return 0;
}

static int by_index(const void *a, const void *b)
{
    return *(const int *)a - *(const int *)b;
}

/* The surroundings of a group on donor d (own: its atoms): every other atom within 4.2 Å of d
 * (its H lie within 1.4 Å of d, and look 2.2 Å further for bumps, 3.5 Å from d for
 * acceptors), less those bonded to d and, in the first sweep, the waters' H. */
static int environment(const scene *s, int d, const int *own, int nown, int *env)
{
    int nb[MAXNEAR], n = near_atoms(s, s->a[d].x, CELL, nb), m = 0;
    for (int i = 0; i < n; i++) {
        int k = nb[i];
        if (k == d || in_list(k, own, nown) || (s->unplaced_waters && (s->acc[k] & WATER_H)))
            continue;
        if (!is_h(&s->a[k]) && prep_dist2(s->a[k].x, s->a[d].x) < 1.95 * 1.95)
            continue; /* bonded to the donor */
        env[m++] = k;
    }
    qsort(env, (size_t)m, sizeof *env, by_index); /* the grid's order would depend on the frame */
    return m;
}

/* Score of one H at h on donor d among env[0..nenv) (see the top). */
static double h_score(const scene *s, int d, const double *h, const int *env, int nenv)
{
    double best = 0, pen = 0;
    for (int i = 0; i < nenv; i++) {
        int k = env[i];
        double dd = prep_dist2(s->a[k].x, s->a[d].x);
        if ((s->acc[k] & ACCEPTOR) && dd >= 2.4 * 2.4 && dd <= HB_REACH * HB_REACH) {
            double e = hbond(s, d, h, k) * (s->acc[k] & ANION ? 1.25 : 1);
            best = e > best ? e : best;
        }
        double lim = is_h(&s->a[k]) ? 2.0 : s->acc[k] & ACCEPTOR ? 1.6 : 2.2, r2 = prep_dist2(s->a[k].x, h);
        if (r2 < lim * lim)
            pen += 2 * (lim - sqrt(r2));
    }
    return best - pen;
}

/* v rotated by theta about the unit axis u (Rodrigues). */
static void rotate(const double *u, const double *v, double theta, double *out)
{
    double c = cos(theta), sn = sin(theta), uv = u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
    double x[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
    for (int e = 0; e < 3; e++)
        out[e] = v[e] * c + x[e] * sn + u[e] * uv * (1 - c);
}

static void rotor_axis(const patom *a, const rotor *r, double *u)
{
    double len = sqrt(prep_dist2(a[r->d].x, a[r->axis].x));
    for (int e = 0; e < 3; e++)
        u[e] = (a[r->d].x[e] - a[r->axis].x[e]) / len;
}

static double rotor_score(const scene *s, const rotor *r, double theta, const int *env, int nenv)
{
    double u[3], total = 0;
    rotor_axis(s->a, r, u);
    for (int i = 0; i < r->nh; i++) {
        double v[3], h[3];
        rotate(u, r->v0[i], theta, v);
        for (int e = 0; e < 3; e++)
            h[e] = s->a[r->d].x[e] + v[e];
        total += h_score(s, r->d, h, env, nenv);
    }
    return total;
}

/* The angle that turns first-position vector v0 (about u) towards point p from the donor. */
static double aim(const double *u, const double *v0, const double *w)
{
    double uv = 0, uw = 0, a[3], b[3], cr[3], dot = 0, tri = 0;
    for (int e = 0; e < 3; e++)
        uv += u[e] * v0[e], uw += u[e] * w[e];
    for (int e = 0; e < 3; e++)
        a[e] = v0[e] - u[e] * uv, b[e] = w[e] - u[e] * uw;
    cr[0] = a[1] * b[2] - a[2] * b[1], cr[1] = a[2] * b[0] - a[0] * b[2], cr[2] = a[0] * b[1] - a[1] * b[0];
    for (int e = 0; e < 3; e++)
        dot += a[e] * b[e], tri += u[e] * cr[e];
    return atan2(tri, dot);
}

/* The best angle of one rotor given everything else; returns 1 when it moved. */
static int optimise_rotor(scene *s, patom *a, rotor *r)
{
    int env[MAXNEAR], nenv = environment(s, r->d, r->h, r->nh, env), nc = 0;
    double cand[MAXNEAR * 3 + 40];
    if (r->fold == 2) {
        cand[nc++] = 0, cand[nc++] = VSG_PI;
    } else {
        int steps = r->fold == 3 ? 12 : 36;
        for (int k = 0; k < steps; k++)
            cand[nc++] = 2 * VSG_PI / r->fold * k / steps;
        double u[3];
        rotor_axis(a, r, u);
        for (int i = 0; i < nenv; i++) {
            double dd = prep_dist2(a[env[i]].x, a[r->d].x), w[3];
            if (!(s->acc[env[i]] & ACCEPTOR) || dd < 2.4 * 2.4 || dd > HB_REACH * HB_REACH)
                continue;
            for (int e = 0; e < 3; e++)
                w[e] = a[env[i]].x[e] - a[r->d].x[e];
            for (int k = 0; k < r->nh; k++)
                cand[nc++] = aim(u, r->v0[k], w);
        }
    }
    double best_t = r->theta, best = rotor_score(s, r, r->theta, env, nenv);
    for (int c = 0; c < nc; c++) {
        double sc = rotor_score(s, r, cand[c], env, nenv);
        if (sc > best + 1e-6)
            best = sc, best_t = cand[c];
    }
    if (best_t == r->theta)
        return 0;
    r->theta = best_t;
    double u[3];
    rotor_axis(a, r, u);
    for (int i = 0; i < r->nh; i++) {
        double v[3], h[3];
        rotate(u, r->v0[i], best_t, v);
        for (int e = 0; e < 3; e++)
            h[e] = a[r->d].x[e] + v[e];
        grid_move(&s->g, a, r->h[i], h);
    }
    return 1;
}

/* Water o with hydrogens h1, h2: TIP3P H positions along unit bisector b and in-plane unit p. */
static void water_place(const double *o, const double *b, const double *p, double *h1, double *h2)
{
    double half = WAT_HOH / 2 * VSG_PI / 180, cb = cos(half) * WAT_OH, sp = sin(half) * WAT_OH;
    for (int e = 0; e < 3; e++) {
        h1[e] = o[e] + cb * b[e] + sp * p[e];
        h2[e] = o[e] + cb * b[e] - sp * p[e];
    }
}

static int unit(double *v)
{
    double n = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (n < 1e-9)
        return 0;
    for (int e = 0; e < 3; e++)
        v[e] /= n;
    return 1;
}

/* The best orientation of water o (hydrogens o+1, o+2); returns 1 when it moved. */
static int optimise_water(scene *s, patom *a, int o)
{
    int own[2] = {o + 1, o + 2}, env[MAXNEAR], nenv = environment(s, o, own, 2, env), na = 0;
    double dir[12][3];
    for (int i = 0; i < nenv && na < 12; i++) {
        int k = env[i];
        double dd = prep_dist2(a[k].x, a[o].x);
        if (!(s->acc[k] & ACCEPTOR) || dd < 2.4 * 2.4 || dd > HB_REACH * HB_REACH)
            continue;
        for (int e = 0; e < 3; e++)
            dir[na][e] = a[k].x[e] - a[o].x[e];
        na += unit(dir[na]);
    }
    double best = h_score(s, o, a[o + 1].x, env, nenv) + h_score(s, o, a[o + 2].x, env, nenv);
    double bh1[3], bh2[3], h1[3], h2[3];
    int moved = 0;
#define TRY()                                                                                                \
    do {                                                                                                     \
        double sc = h_score(s, o, h1, env, nenv) + h_score(s, o, h2, env, nenv);                             \
        if (sc > best + 1e-6) {                                                                              \
            best = sc, moved = 1;                                                                            \
            memcpy(bh1, h1, sizeof bh1), memcpy(bh2, h2, sizeof bh2);                                        \
        }                                                                                                    \
    } while (0)
    /* pairs: the plane of the two directions, H symmetric about their bisector */
    for (int i = 0; i < na; i++)
        for (int k = i + 1; k < na; k++) {
            double b[3], p[3];
            for (int e = 0; e < 3; e++)
                b[e] = dir[i][e] + dir[k][e], p[e] = dir[i][e] - dir[k][e];
            if (!unit(b) || !unit(p))
                continue;
            water_place(a[o].x, b, p, h1, h2);
            TRY();
        }
    /* singles: H1 on the direction, H2 turned about it in 30° steps */
    for (int i = 0; i < na; i++) {
        double q[3] = {1, 0, 0}, d0 = dir[i][0];
        if (fabs(d0) > 0.9)
            q[0] = 0, q[1] = 1;
        double qd = q[0] * dir[i][0] + q[1] * dir[i][1] + q[2] * dir[i][2];
        for (int e = 0; e < 3; e++)
            q[e] -= qd * dir[i][e];
        unit(q);
        double ang = WAT_HOH * VSG_PI / 180;
        for (int e = 0; e < 3; e++)
            h1[e] = a[o].x[e] + WAT_OH * dir[i][e];
        for (int t = 0; t < 12; t++) {
            double w[3], v[3];
            for (int e = 0; e < 3; e++)
                w[e] = cos(ang) * dir[i][e] + sin(ang) * q[e];
            rotate(dir[i], w, t * VSG_PI / 6, v);
            for (int e = 0; e < 3; e++)
                h2[e] = a[o].x[e] + WAT_OH * v[e];
            TRY();
        }
    }
#undef TRY
    if (moved) {
        grid_move(&s->g, a, o + 1, bh1);
        grid_move(&s->g, a, o + 2, bh2);
    }
    return moved;
}

/* Output atom named name among out[first..first+n), −1. */
static int atom_in(const job *j, int first, int n, const char *name)
{
    for (int i = first; i < first + n; i++)
        if (strcmp(j->out[i].name, name) == 0)
            return i;
    return -1;
}

/* The rotor of a residue's atoms out[first..first+n) for the named axis, donor and H (up to
 * three); 0 when one is missing. */
static int make_rotor(const job *j, int first, int n, const char *axis, const char *d, const char *const *h, int nh,
                      int fold, rotor *r)
{
    r->axis = atom_in(j, first, n, axis);
    r->d = atom_in(j, first, n, d);
    r->nh = nh, r->fold = fold, r->theta = 0;
    if (r->axis < 0 || r->d < 0)
        return 0;
    for (int i = 0; i < 3; i++)
        r->h[i] = -1;
    for (int i = 0; i < nh; i++) {
        if ((r->h[i] = atom_in(j, first, n, h[i])) < 0)
            return 0;
        for (int e = 0; e < 3; e++)
            r->v0[i][e] = j->out[r->h[i]].x[e] - j->out[r->d].x[e];
    }
    return 1;
}

/* An acceptor: any O; an N that bears no H, of a HETATM group or a His ring (a protein's other
 * N without H is Pro's amide N). A carboxylate O (Asp, Glu, the C terminus) is an anion too. */
static char acceptor(const job *j, const scene *s, int i)
{
    const patom *a = &j->out[i];
    const pres *p = &j->m.r[j->res_of[i]];
    if (!strcmp(a->element, "O")) {
        int anion = p->kind == 0 && ((!strcmp(p->ff, "ASP") && !strncmp(a->name, "OD", 2)) ||
                                     (!strcmp(p->ff, "GLU") && !strncmp(a->name, "OE", 2)) ||
                                     (p->cterm && (!strcmp(a->name, "O") || !strcmp(a->name, "OXT"))));
        return anion ? ACCEPTOR | ANION : ACCEPTOR;
    }
    if (strcmp(a->element, "N") != 0)
        return 0;
    if (p->kind == 0 && !(strncmp(p->ff, "HI", 2) == 0 && (!strcmp(a->name, "ND1") || !strcmp(a->name, "NE2"))))
        return 0;
    int nb[MAXNEAR], n = near_atoms(s, a->x, 1.2, nb);
    for (int k = 0; k < n; k++)
        if (is_h(&j->out[nb[k]]))
            return 0;
    return ACCEPTOR;
}

/* Does the H at out[h] on donor out[d] make a hydrogen bond: an acceptor with H···A ≤ 2.5 Å,
 * D–H···A ≥ 120°, D···A 2.4–3.5 Å? */
static int donates(const scene *s, int d, int h)
{
    int nb[MAXNEAR], n = near_atoms(s, s->a[d].x, HB_REACH, nb);
    const double *D = s->a[d].x, *H = s->a[h].x;
    for (int i = 0; i < n; i++) {
        const double *A = s->a[nb[i]].x;
        if (nb[i] == d || !(s->acc[nb[i]] & ACCEPTOR) || prep_dist2(A, D) < 2.4 * 2.4 || prep_dist2(A, H) > 2.5 * 2.5)
            continue;
        double c = 0;
        for (int e = 0; e < 3; e++)
            c += (D[e] - H[e]) * (A[e] - H[e]);
        if (c / sqrt(prep_dist2(D, H) * prep_dist2(A, H)) <= -0.5)
            return 1;
    }
    return 0;
}

vsg_status prep_polar_hydrogens(job *j)
{
    static const char *const hg[] = {"HG"}, *const hg1[] = {"HG1"}, *const hh[] = {"HH"};
    static const char *const hz[] = {"HZ1", "HZ2", "HZ3"}, *const h3[] = {"H", "H2", "H3"};
    rotor *rot = malloc(((size_t)j->m.nr + 1) * 2 * sizeof *rot);
    int *wat = malloc(((size_t)j->m.nr + 1) * sizeof *wat), nrot = 0, nwat = 0;
    scene s = {j->out, NULL, 0, {{0}, 0, {0}, NULL, NULL}};
    char *acc = malloc((size_t)j->nout + 1);
    if (!rot || !wat || !acc || !grid_build(&s.g, j->out, j->nout)) {
        free(rot), free(wat), free(acc), free(s.g.head), free(s.g.next);
        return vsg_fail(VSG_E_NOMEM, "out of memory");
    }
    for (int i = 0; i < j->nout; i++)
        acc[i] = acceptor(j, &s, i);
    s.acc = acc;
    for (int i = 0; i < j->nout;) {
        int n = 0, r = j->res_of[i];
        while (i + n < j->nout && j->res_of[i + n] == r)
            n++;
        const pres *p = &j->m.r[r];
        if (p->kind == 1 && n == 3 && is_h(&j->out[i + 1]) && is_h(&j->out[i + 2])) {
            wat[nwat++] = i;
            acc[i + 1] = acc[i + 2] = WATER_H;
        }
        if (p->kind == 0) {
            const char *f = p->ff;
            nrot += (!strcmp(f, "SER") && make_rotor(j, i, n, "CB", "OG", hg, 1, 1, &rot[nrot])) ||
                    (!strcmp(f, "THR") && make_rotor(j, i, n, "CB", "OG1", hg1, 1, 1, &rot[nrot])) ||
                    (!strcmp(f, "CYS") && make_rotor(j, i, n, "CB", "SG", hg, 1, 1, &rot[nrot])) ||
                    (!strcmp(f, "TYR") && make_rotor(j, i, n, "CZ", "OH", hh, 1, 2, &rot[nrot])) ||
                    (!strcmp(f, "LYS") && make_rotor(j, i, n, "CE", "NZ", hz, 3, 3, &rot[nrot])) ||
                    (!strcmp(f, "LYN") && make_rotor(j, i, n, "CE", "NZ", hz, 2, 1, &rot[nrot])); /* 2 H: free */
            nrot += p->nterm && strcmp(f, "PRO") != 0 && make_rotor(j, i, n, "CA", "N", h3, 3, 3, &rot[nrot]);
        }
        i += n;
    }
    int moved = 1;
    for (int sweep = 0; sweep < SWEEPS && (moved || sweep == 1); sweep++) {
        moved = 0;
        s.unplaced_waters = sweep == 0;
        for (int k = 0; k < nrot; k++)
            moved += optimise_rotor(&s, j->out, &rot[k]);
        for (int k = 0; k < nwat; k++)
            moved += optimise_water(&s, j->out, wat[k]);
    }
    int hb = 0, groups = 0;
    for (int k = 0; k < nrot; k++) {
        groups += rot[k].theta != 0;
        for (int i = 0; i < rot[k].nh; i++)
            hb += donates(&s, rot[k].d, rot[k].h[i]);
    }
    for (int k = 0; k < nwat; k++)
        hb += donates(&s, wat[k], wat[k] + 1) + donates(&s, wat[k], wat[k] + 2);
    if (nrot || nwat)
        prep_printf(&j->notes,
                    "  polar hydrogens: %d rotatable groups (%d turned from the template) and %d waters oriented for "
                    "hydrogen bonds; %d polar H donate one (H...A <= 2.5 A, D-H...A >= 120 deg)\n",
                    nrot, groups, nwat, hb);
    free(rot), free(wat), free(acc), free(s.g.head), free(s.g.next);
    return VSG_OK;
}
