/* polar_hydrogens.c — the polar hydrogens a record's file left out (vsgrid.h,
 * vsg_ligand_complete_hydrogens).
 *
 * Vina and AutoDock type a ligand from its explicit atoms: an NH2 or ring NH without its
 * hydrogens becomes an acceptor (NA/N_A instead of N/N_D plus HD), a hydroxyl loses its donor
 * and its torsion. Files that carry heavy atoms only (SDF/MOL2 written without hydrogens, crystal
 * ligands from PDB files) are therefore completed here, as Open Babel's `-h` would at neutral
 * valence: no pH model (an amine stays NH2, an acid COOH), formal charges as the file gives them
 * (SDF; MOL2 SYBYL types N.4 and O.co2 read from the record's text; a PDB record's charges as the
 * reader inferred them).
 *
 * Only records without any hydrogen are completed: one that has hydrogens is protonated as its
 * author meant (DUD-E's MOL2 phenolates, pyridiniums and zwitterions have no formal charges to say
 * so). A MOL2 record's partial charges, when they add up to a whole net charge, keep its charge
 * state (keep_file_charge). Only N, O and S get hydrogens. Non-polar hydrogens are not added: Vina and AD4 merge them into
 * their carbon anyway (the score is the same with or without them), and the pose writers place
 * the ones a file has. PDBQT records are left alone: polar hydrogens are explicit there by
 * convention, and the file's types are used as they are.
 *
 * Counting: an atom's valence is the sum of its bond orders (amide bonds single). Aromatic bonds
 * are resolved by a Kekulé matching of each aromatic system, as Open Babel's kekulize does: every
 * carbon needs one aromatic double bond, a two-connected N may take one (pyridine) or stay
 * unmatched and carry a hydrogen (pyrrole, the NH of an imidazole); the matching that leaves the
 * fewest such atoms unmatched wins. A terminal O or S on an aromatic bond (MOL2's carboxylate
 * "ar" bonds) is the charged end of its group and gets no hydrogen.
 *
 * Geometry (ideal, from the heavy atom's neighbours): N–H 1.01 Å, O–H 0.96 Å, S–H 1.34 Å;
 * trigonal (120°, in the plane of the neighbour's substituents) at sp2 and aromatic N (double or
 * aromatic bond, or bonded to a double-bonded or aromatic atom: amides, anilines, MOL2 N.pl3/N.am),
 * tetrahedral (109.5°) otherwise, a lone new hydrogen staggered (anti) to a substituent of the
 * neighbour, or syn to a C=O (acids). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "grids/base/vsgrid.h"
#include "ligands/ligand.h"

enum { KEK_NONE = 0, KEK_REQUIRED, KEK_OPTIONAL };
enum { KEKULE_STEPS = 200000 };
static const double PI = 3.14159265358979323846;

typedef struct {
    int n;
    const vsg_ligand *lig;
    int *deg, *adj_start, *adj, *adj_bond; /* neighbour lists (CSR) */
    int *formal;                           /* formal charges, MOL2 N.4 → +1 */
    unsigned char *co2;                    /* MOL2 O.co2: charged oxygen, never protonated */
    unsigned char *planar;                 /* MOL2 N.pl3 / N.am / N.ar: trigonal */
    /* Kekulé search */
    int *kind, *mate, *best_mate, best_cost;
    long steps;
    int anions; /* terminal O/S left with a single bond by the Kekulé structures (carboxylates) */
} hctx;

static int is_el(const vsg_lig_atom *a, const char *e) { return !strcmp(a->element, e); }
static int is_h(const vsg_lig_atom *a) { return is_el(a, "H") || is_el(a, "D"); }

static int bond_order_value(int order)
{
    return order == 2 || order == 3 ? order : 1; /* 1, amide; aromatic handled apart */
}

/* SYBYL types of a MOL2 record's atoms, read from its text (the reader keeps only the element):
 * N.4 is a charged nitrogen, O.co2 a carboxylate/phosphate oxygen, N.pl3/N.am/N.ar planar.
 * Silently nothing when there is no text or its atom lines do not match the record. */
static void mol2_types(hctx *c)
{
    const vsg_ligand *lig = c->lig;
    if (lig->format != VSG_LIG_MOL2 || !lig->text || !lig->text_len) return;
    const char *s = lig->text, *end = lig->text + lig->text_len;
    int in_atoms = 0, i = 0;
    while (s < end) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        const char *le = nl ? nl : end;
        size_t len = (size_t)(le - s);
        if (len >= 9 && !memcmp(s, "@<TRIPOS>", 9)) {
            if (in_atoms) break;
            in_atoms = len >= 13 && !memcmp(s + 9, "ATOM", 4);
        } else if (in_atoms && i < c->n) {
            char line[256], type[32] = "";
            size_t l = len < sizeof line - 1 ? len : sizeof line - 1;
            memcpy(line, s, l);
            line[l] = '\0';
            if (sscanf(line, "%*s %*s %*s %*s %*s %31s", type) == 1) {
                if (!strcmp(type, "N.4") && c->formal[i] == 0) c->formal[i] = 1;
                else if (!strcmp(type, "O.co2")) c->co2[i] = 1;
                else if (!strcmp(type, "N.pl3") || !strcmp(type, "N.am") || !strcmp(type, "N.ar")) c->planar[i] = 1;
                i++;
            }
        }
        s = nl ? nl + 1 : end;
    }
    if (i != c->n) { /* the text is not this record's atom list: believe nothing from it */
        for (int k = 0; k < c->n; k++) c->co2[k] = c->planar[k] = 0, c->formal[k] = lig->atoms[k].formal;
    }
}

/* Sum of non-aromatic bond orders, aromatic bond count, non-aromatic double/triple bond count. */
static void valence(const hctx *c, int i, int *base, int *narom, int *nmulti)
{
    *base = *narom = *nmulti = 0;
    for (int k = c->adj_start[i]; k < c->adj_start[i + 1]; k++) {
        const int o = c->lig->bonds[c->adj_bond[k]].order;
        if (o == VSG_BOND_AROMATIC) (*narom)++;
        else *base += bond_order_value(o), *nmulti += o == 2 || o == 3;
    }
}

/* The valence an N/O/S atom has with its hydrogens, at its formal charge; −1: not completed. */
static int target_valence(const hctx *c, int i, int base)
{
    const vsg_lig_atom *a = &c->lig->atoms[i];
    const int q = c->formal[i];
    if (is_el(a, "N")) return 3 + q;
    if (is_el(a, "O")) return c->co2[i] ? -1 : 2 + q;
    if (is_el(a, "S")) return base > 2 ? -1 : 2 + q; /* sulfoxides, sulfones: hypervalent, no H */
    return -1;
}

/* ---- Kekulé matching of the aromatic bonds --------------------------------------------------- */

static void kek_search(hctx *c, const int *atoms, int na, int pos, int cost)
{
    if (cost >= c->best_cost || ++c->steps > KEKULE_STEPS) return;
    while (pos < na && (c->kind[atoms[pos]] == KEK_NONE || c->mate[atoms[pos]] != -1)) pos++;
    if (pos == na) {
        c->best_cost = cost;
        for (int k = 0; k < na; k++) c->best_mate[atoms[k]] = c->mate[atoms[k]];
        return;
    }
    const int a = atoms[pos];
    for (int k = c->adj_start[a]; k < c->adj_start[a + 1]; k++) {
        const int b = c->adj[k];
        if (c->lig->bonds[c->adj_bond[k]].order != VSG_BOND_AROMATIC || c->kind[b] == KEK_NONE || c->mate[b] != -1)
            continue;
        c->mate[a] = b, c->mate[b] = a;
        kek_search(c, atoms, na, pos + 1, cost);
        c->mate[a] = c->mate[b] = -1;
    }
    if (c->kind[a] == KEK_OPTIONAL) {
        c->mate[a] = -2;
        kek_search(c, atoms, na, pos + 1, cost + 1);
        c->mate[a] = -1;
    }
}

/* Hydrogens each aromatic atom needs (pyrrole-type N left unmatched by the best Kekulé
 * structure), added into need[]. Returns 0 when out of memory. */
static int aromatic_needs(hctx *c, int *need)
{
    const int n = c->n;
    int *comp = malloc(sizeof(int) * (size_t)n * 2);
    if (!comp) return 0;
    int *stack = comp + n;
    for (int i = 0; i < n; i++) {
        c->mate[i] = -1;
        int base, na, nm;
        valence(c, i, &base, &na, &nm);
        const vsg_lig_atom *a = &c->lig->atoms[i];
        c->kind[i] = KEK_NONE;
        if (na == 0 || nm > 0) continue;
        if (is_el(a, "C")) {
            if (c->formal[i] == 0 && base + na + 1 <= 4) c->kind[i] = KEK_REQUIRED;
        } else if (is_el(a, "N")) {
            const int v = 3 + c->formal[i];
            if (base + na + 1 == v) c->kind[i] = KEK_OPTIONAL; /* pyridine N, or pyrrole N whose H is missing */
            else if (base + na + 1 < v) c->kind[i] = KEK_REQUIRED;
        } else if ((is_el(a, "O") || is_el(a, "S")) && base + na == 1) {
            c->kind[i] = KEK_OPTIONAL; /* a terminal O/S on an aromatic bond: C=O or the charged O⁻ */
        }
    }
    /* connected aromatic systems, one search each */
    unsigned char *seen = calloc((size_t)n, 1);
    if (!seen) {
        free(comp);
        return 0;
    }
    for (int s = 0; s < n; s++) {
        if (seen[s] || c->kind[s] == KEK_NONE) continue;
        int na = 0, top = 0;
        stack[top++] = s, seen[s] = 1;
        while (top) {
            const int a = stack[--top];
            comp[na++] = a;
            for (int k = c->adj_start[a]; k < c->adj_start[a + 1]; k++) {
                const int b = c->adj[k];
                if (!seen[b] && c->kind[b] != KEK_NONE && c->lig->bonds[c->adj_bond[k]].order == VSG_BOND_AROMATIC)
                    seen[b] = 1, stack[top++] = b;
            }
        }
        c->best_cost = n + 1, c->steps = 0;
        kek_search(c, comp, na, 0, 0);
        if (c->best_cost > n) continue; /* no Kekulé structure (or the search ran out): no H here */
        for (int k = 0; k < na; k++) {
            const int a = comp[k];
            if (c->best_mate[a] == -2 && !is_el(&c->lig->atoms[a], "N")) c->anions++;
            if (c->best_mate[a] != -2 || !is_el(&c->lig->atoms[a], "N")) continue;
            int base, nar, nm;
            valence(c, a, &base, &nar, &nm);
            need[a] = 3 + c->formal[a] - base - nar;
        }
    }
    free(seen);
    free(comp);
    return 1;
}

/* ---- geometry ------------------------------------------------------------------------------- */

static double norm3(double v[3])
{
    const double n = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (n > 1e-9)
        for (int d = 0; d < 3; d++) v[d] /= n;
    return n;
}

static void cross3(const double a[3], const double b[3], double o[3])
{
    o[0] = a[1] * b[2] - a[2] * b[1], o[1] = a[2] * b[0] - a[0] * b[2], o[2] = a[0] * b[1] - a[1] * b[0];
}

static void pos_of(const vsg_ligand *lig, int i, double p[3]) { p[0] = lig->atoms[i].x, p[1] = lig->atoms[i].y, p[2] = lig->atoms[i].z; }

/* A unit vector perpendicular to u, pointing towards r (any perpendicular when r is on u's line). */
static void perpendicular(const double u[3], const double *r, double w[3])
{
    double t[3] = {1, 0, 0};
    if (r) memcpy(t, r, sizeof t);
    for (int pass = 0; pass < 3; pass++) {
        const double dot = t[0] * u[0] + t[1] * u[1] + t[2] * u[2];
        for (int d = 0; d < 3; d++) w[d] = t[d] - dot * u[d];
        if (norm3(w) > 1e-6) return;
        t[0] = 0, t[1] = pass == 0, t[2] = pass != 0;
    }
}

/* 1 when atom i (an N or O) is conjugated: it has a double or aromatic bond itself, or a
 * neighbour (C or N) that has one. */
static int conjugated(const hctx *c, int i, int *partner)
{
    *partner = -1;
    for (int k = c->adj_start[i]; k < c->adj_start[i + 1]; k++) {
        const int o = c->lig->bonds[c->adj_bond[k]].order;
        if (o == 2 || o == 3 || o == VSG_BOND_AROMATIC) return 1;
    }
    for (int k = c->adj_start[i]; k < c->adj_start[i + 1]; k++) {
        const int b = c->adj[k];
        if (!is_el(&c->lig->atoms[b], "C") && !is_el(&c->lig->atoms[b], "N")) continue;
        for (int q = c->adj_start[b]; q < c->adj_start[b + 1]; q++) {
            const int o = c->lig->bonds[c->adj_bond[q]].order;
            if (c->adj[q] != i && (o == 2 || o == VSG_BOND_AROMATIC)) {
                if (*partner < 0 || o == 2) *partner = c->adj[q]; /* the C=O oxygen first */
                if (o == 2) return 1;
            }
        }
        if (*partner >= 0) return 1;
    }
    return 0;
}

/* Directions (unit vectors) of h new hydrogens on atom i whose current neighbours point along
 * u[0..k): trigonal or tetrahedral, as the header says. */
static void h_directions(const hctx *c, int i, const double (*u)[3], int k, int h, int trigonal, double (*out)[3])
{
    const vsg_ligand *lig = c->lig;
    const double cos_t = trigonal ? -0.5 : -1.0 / 3.0;           /* 120° or 109.47° from a neighbour */
    const double sin_t = sqrt(1 - cos_t * cos_t);
    if (k >= 2) {
        double b[3] = {0, 0, 0}, n[3];
        for (int j = 0; j < k; j++)
            for (int d = 0; d < 3; d++) b[d] -= u[j][d];
        cross3(u[0], u[1], n);
        const double bn = norm3(b);
        norm3(n);
        if (k >= 3 || trigonal) { /* one hydrogen opposite the others (planar: the plane's normal) */
            for (int d = 0; d < 3; d++) out[0][d] = bn > 0.2 ? b[d] : n[d];
            for (int j = 1; j < h; j++) memcpy(out[j], out[0], sizeof out[0]);
            return;
        }
        /* tetrahedral with two neighbours: the two remaining corners, ±54.75° out of their plane */
        const double a = 0.5 * acos(-1.0 / 3.0);
        for (int j = 0; j < h && j < 2; j++)
            for (int d = 0; d < 3; d++) out[j][d] = b[d] * cos(a) + (j ? -n[d] : n[d]) * sin(a);
        return;
    }
    if (k == 0) { /* nothing bonded (water, ammonia): one along x, the others around it */
        out[0][0] = 1, out[0][1] = out[0][2] = 0;
        if (h > 1) {
            const double first[1][3] = {{1, 0, 0}};
            h_directions(c, i, first, 1, h - 1, trigonal, out + 1);
        }
        return;
    }
    double uu[3], w[3], v[3];
    memcpy(uu, u[0], sizeof uu);
    /* the reference: a substituent of the neighbour, for the dihedral */
    int nb = -1, ref = -1, syn = 0;
    for (int q = c->adj_start[i]; q < c->adj_start[i + 1] && nb < 0; q++)
        if (!is_h(&lig->atoms[c->adj[q]])) nb = c->adj[q];
    if (nb >= 0) {
        int partner;
        if (is_el(&lig->atoms[i], "O") && conjugated(c, i, &partner) && partner >= 0) ref = partner, syn = 1;
        for (int q = c->adj_start[nb]; q < c->adj_start[nb + 1] && ref < 0; q++)
            if (c->adj[q] != i) ref = c->adj[q];
    }
    if (ref >= 0) {
        double r[3], pn[3];
        pos_of(lig, ref, r), pos_of(lig, nb, pn);
        for (int d = 0; d < 3; d++) r[d] -= pn[d];
        perpendicular(uu, r, w);
    } else {
        perpendicular(uu, NULL, w);
    }
    cross3(uu, w, v);
    /* first hydrogen anti to the reference (dihedral 180°), syn (0°) to an acid's C=O; the others
     * 120° (tetrahedral) or 180° (trigonal: both in the plane) around the bond */
    const double phi0 = syn ? 0.0 : PI;
    for (int j = 0; j < h; j++) {
        const double phi = phi0 + (trigonal ? j * PI : j * 2.0 * PI / 3.0);
        for (int d = 0; d < 3; d++) out[j][d] = uu[d] * cos_t + sin_t * (cos(phi) * w[d] + sin(phi) * v[d]);
    }
}

/* ---- appending ------------------------------------------------------------------------------ */

static int grow(void **buf, int *cap, int n, size_t sz)
{
    if (n <= *cap) return 1;
    int c = *cap > 0 ? *cap : 16;
    while (c < n) c *= 2;
    void *p = realloc(*buf, (size_t)c * sz);
    if (!p) return 0;
    *buf = p, *cap = c;
    return 1;
}

/* The SDF text of the record with the new atoms (natoms0.. natoms) and bonds (nbonds0..) added
 * to its molfile, so that writers that keep the record's text (its data items) write them too.
 * Returns 0 when the molfile is not one this can edit (the caller then drops the text). */
static int sdf_text_add(vsg_ligand *lig, int natoms0, int nbonds0)
{
    const char *s = lig->text, *end = lig->text + lig->text_len;
    size_t cap = lig->text_len + 96 * (size_t)(lig->natoms - natoms0) * 2 + 256, n = 0;
    char *out = malloc(cap);
    if (!out) return 0;
    int line = 0, v3000 = 0, nat = -1, nbo = -1, done = 0, ok = 1;
#define PUT(p, len)                                                   \
    do {                                                              \
        size_t l_ = (len);                                            \
        if (n + l_ + 1 > cap) ok = 0;                                 \
        else memcpy(out + n, (p), l_), n += l_;                       \
    } while (0)
    char buf[128];
    while (s < end && ok) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        const char *le = nl ? nl + 1 : end;
        const size_t len = (size_t)(le - s);
        if (done) {
            PUT(s, len);
        } else if (line == 3) {
            v3000 = len >= 39 && !memcmp(s + 34, "V3000", 5);
            if (!v3000) {
                char a[4] = {s[0], s[1], s[2], 0}, b[4] = {s[3], s[4], s[5], 0};
                if (len < 6) { ok = 0; break; }
                nat = atoi(a), nbo = atoi(b);
                if (nat != natoms0 || nbo != nbonds0 || lig->natoms > 999 || lig->nbonds > 999) { ok = 0; break; }
                snprintf(buf, sizeof buf, "%3d%3d", lig->natoms, lig->nbonds);
                PUT(buf, 6);
                PUT(s + 6, len - 6);
            } else {
                PUT(s, len);
            }
        } else if (!v3000 && line > 3 && (line == 4 + nat || line == 4 + nat + nbo)) {
            if (line == 4 + nat) /* after the last atom line: the new atoms */
                for (int i = natoms0; i < lig->natoms; i++) {
                    const vsg_lig_atom *a = &lig->atoms[i];
                    int k = snprintf(buf, sizeof buf, "%10.4f%10.4f%10.4f H   0  0  0  0  0  0  0  0  0  0  0  0\n", a->x,
                                     a->y, a->z);
                    PUT(buf, (size_t)k);
                }
            if (line == 4 + nat + nbo) /* after the last bond line: the new bonds */
                for (int b = nbonds0; b < lig->nbonds; b++) {
                    int k = snprintf(buf, sizeof buf, "%3d%3d  1  0\n", lig->bonds[b].a + 1, lig->bonds[b].b + 1);
                    PUT(buf, (size_t)k);
                }
            if (len >= 6 && !memcmp(s, "M  END", 6)) done = 1;
            PUT(s, len);
        } else if (v3000 && len >= 14 && !memcmp(s, "M  V30 COUNTS ", 14)) {
            int a = 0, b = 0, used = 0;
            if (sscanf(s + 14, "%d %d%n", &a, &b, &used) != 2 || a != natoms0 || b != nbonds0) { ok = 0; break; }
            int k = snprintf(buf, sizeof buf, "M  V30 COUNTS %d %d", lig->natoms, lig->nbonds);
            PUT(buf, (size_t)k);
            PUT(s + 14 + used, len - 14 - (size_t)used);
        } else if (v3000 && len >= 15 && !memcmp(s, "M  V30 END ATOM", 15)) {
            for (int i = natoms0; i < lig->natoms; i++) {
                const vsg_lig_atom *a = &lig->atoms[i];
                int k = snprintf(buf, sizeof buf, "M  V30 %d H %.4f %.4f %.4f 0\n", i + 1, a->x, a->y, a->z);
                PUT(buf, (size_t)k);
            }
            PUT(s, len);
        } else if (v3000 && len >= 15 && !memcmp(s, "M  V30 END BOND", 15)) {
            for (int b = nbonds0; b < lig->nbonds; b++) {
                int k = snprintf(buf, sizeof buf, "M  V30 %d 1 %d %d\n", b + 1, lig->bonds[b].a + 1, lig->bonds[b].b + 1);
                PUT(buf, (size_t)k);
            }
            PUT(s, len);
        } else {
            if (line > 3 && len >= 6 && !memcmp(s, "M  END", 6)) {
                done = 1;
                if (v3000 && nbonds0 == 0 && lig->nbonds > 0) ok = 0; /* no BOND block to extend */
            }
            PUT(s, len);
        }
        line++;
        s = le;
    }
#undef PUT
    if (!ok || !done) {
        free(out);
        return 0;
    }
    out[n] = '\0';
    free(lig->text);
    lig->text = out, lig->text_len = n, lig->text_cap = cap;
    return 1;
}

/* A MOL2 record carries no formal charges, but its partial charges add up to its net charge. When
 * they do (a whole number) and the neutral-valence completion would give another net charge, the
 * file's protonation state is kept: per missing negative charge, the O/S/N about to get a
 * hydrogen with the most negative partial charge keeps one fewer (a phenolate, a thiolate, a
 * sulfonamide anion); per missing positive charge, the two- or three-connected N without a formal
 * charge whose partial charge is the highest gets one more (a pyridinium, an ammonium). */
static void keep_file_charge(hctx *c, int *need)
{
    const vsg_ligand *lig = c->lig;
    if (!lig->has_charges || lig->format != VSG_LIG_MOL2) return;
    double net = 0;
    for (int i = 0; i < c->n; i++) net += lig->atoms[i].charge;
    const double whole = floor(net + 0.5);
    if (fabs(net - whole) > 0.02) return; /* not a whole net charge: nothing to learn from it */
    int model = -c->anions;
    for (int i = 0; i < c->n; i++) {
        model += c->formal[i];
        int base, na, nm;
        valence(c, i, &base, &na, &nm);
        if (c->co2[i] && na == 0 && base == 1) model--; /* an O.co2 with a single bond: O⁻ */
    }
    for (int d = (int)whole - model; d != 0; d += d < 0 ? 1 : -1) {
        int best = -1;
        for (int i = 0; i < c->n; i++) {
            const vsg_lig_atom *a = &lig->atoms[i];
            int base, na, nm;
            valence(c, i, &base, &na, &nm);
            int ok;
            if (d < 0) ok = need[i] > 0 && (is_el(a, "O") || is_el(a, "S") || is_el(a, "N"));
            else {
                int partner;
                ok = is_el(a, "N") && c->formal[i] == 0 && nm == 0 &&
                     ((na == 2 && base == 0 && need[i] == 0) || (na == 0 && base + need[i] == 3 && !conjugated(c, i, &partner)));
            }
            if (ok && (best < 0 || (d < 0 ? a->charge < lig->atoms[best].charge : a->charge > lig->atoms[best].charge)))
                best = i;
        }
        if (best < 0) return;
        need[best] += d < 0 ? -1 : 1;
        if (d > 0) c->formal[best] = 1;
    }
}

static void describe(const vsg_ligand *lig, const int *need, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = '\0';
    int listed = 0, more = 0;
    for (int i = 0; i < lig->natoms && n + 1 < len; i++) {
        if (need[i] <= 0) continue;
        if (listed == 6) {
            more++;
            continue;
        }
        const vsg_lig_atom *a = &lig->atoms[i];
        int k = snprintf(buf + n, len - n, "%s%s%s%d", listed ? ", " : "", a->name[0] ? a->name : a->element,
                         a->name[0] ? " (atom " : " atom ", i + 1);
        if (k < 0 || (size_t)k >= len - n) break;
        n += (size_t)k;
        if (a->name[0] && n + 2 < len) buf[n++] = ')', buf[n] = '\0';
        listed++;
    }
    if (more && n + 24 < len) snprintf(buf + n, len - n, " and %d more", more);
}

vsg_status vsg_ligand_complete_hydrogens(vsg_ligand *lig, int *added, int warn)
{
    if (added) *added = 0;
    if (!lig) return vsg_fail(VSG_E_ARG, "vsg_ligand_complete_hydrogens: no ligand");
    if (lig->status != VSG_OK || lig->format == VSG_LIG_PDBQT || lig->natoms <= 0) return VSG_OK;
    /* a record with any hydrogen is protonated as its author meant: DUD-E writes phenolates,
     * pyridiniums and zwitterions without formal charges (MOL2 has none), so a valence rule would
     * "complete" them wrongly (82 of INHA's 2389 records) */
    for (int i = 0; i < lig->natoms; i++)
        if (is_h(&lig->atoms[i])) return VSG_OK;
    hctx c;
    memset(&c, 0, sizeof c);
    const int n = c.n = lig->natoms;
    c.lig = lig;
    for (int b = 0; b < lig->nbonds; b++)
        if (lig->bonds[b].a < 0 || lig->bonds[b].a >= n || lig->bonds[b].b < 0 || lig->bonds[b].b >= n ||
            lig->bonds[b].a == lig->bonds[b].b)
            return vsg_fail(VSG_E_DATA, "%s:%ld: record %ld: bond %d joins atoms %d and %d of %d", lig->source,
                            lig->line, lig->record, b + 1, lig->bonds[b].a + 1, lig->bonds[b].b + 1, n);
    const size_t ni = (size_t)n;
    int *mem = calloc(ni * 8 + 1 + (size_t)lig->nbonds * 4, sizeof(int));
    unsigned char *flags = calloc(ni * 2, 1);
    if (!mem || !flags) {
        free(mem), free(flags);
        return vsg_fail(VSG_E_NOMEM, "out of memory completing hydrogens (%d atoms)", n);
    }
    c.deg = mem, c.formal = mem + ni, c.kind = mem + 2 * ni, c.mate = mem + 3 * ni, c.best_mate = mem + 4 * ni;
    int *need = mem + 5 * ni;
    c.adj_start = mem + 7 * ni; /* n + 1 entries */
    c.adj = mem + 8 * ni + 1, c.adj_bond = c.adj + 2 * lig->nbonds;
    c.co2 = flags, c.planar = flags + ni;
    for (int i = 0; i < n; i++) c.formal[i] = lig->atoms[i].formal;
    for (int b = 0; b < lig->nbonds; b++) c.deg[lig->bonds[b].a]++, c.deg[lig->bonds[b].b]++;
    for (int i = 0; i < n; i++) c.adj_start[i + 1] = c.adj_start[i] + c.deg[i];
    for (int i = 0; i < n; i++) c.deg[i] = 0;
    for (int b = 0; b < lig->nbonds; b++) {
        const int a = lig->bonds[b].a, o = lig->bonds[b].b;
        c.adj[c.adj_start[a] + c.deg[a]] = o, c.adj_bond[c.adj_start[a] + c.deg[a]++] = b;
        c.adj[c.adj_start[o] + c.deg[o]] = a, c.adj_bond[c.adj_start[o] + c.deg[o]++] = b;
    }
    mol2_types(&c);
    vsg_status st = VSG_OK;
    if (!aromatic_needs(&c, need)) st = vsg_fail(VSG_E_NOMEM, "out of memory completing hydrogens (%d atoms)", n);
    int total = 0;
    for (int i = 0; st == VSG_OK && i < n; i++) {
        int base, na, nm;
        valence(&c, i, &base, &na, &nm);
        if (na == 0) {
            const int v = target_valence(&c, i, base);
            need[i] = v > base ? v - base : 0;
        } else if (!is_el(&lig->atoms[i], "N")) {
            need[i] = 0; /* aromatic O, S: furan, thiophene, the charged end of a carboxylate */
        }
        if (need[i] < 0 || need[i] > 4) need[i] = 0;
    }
    if (st == VSG_OK) keep_file_charge(&c, need);
    for (int i = 0; i < n; i++) total += need[i];
    if (st != VSG_OK || total == 0) {
        free(mem), free(flags);
        return st;
    }
    char what[200];
    describe(lig, need, what, sizeof what);
    const int natoms0 = n, nbonds0 = lig->nbonds;
    if (!grow((void **)&lig->atoms, &lig->atoms_cap, n + total, sizeof *lig->atoms) ||
        !grow((void **)&lig->bonds, &lig->bonds_cap, lig->nbonds + total, sizeof *lig->bonds)) {
        free(mem), free(flags);
        return vsg_fail(VSG_E_NOMEM, "out of memory completing hydrogens (%d atoms)", n);
    }
    for (int i = 0; i < natoms0; i++) {
        if (need[i] <= 0) continue;
        const vsg_lig_atom *x = &lig->atoms[i];
        double u[4][3], dir[4][3], pi[3];
        int k = 0, base, na, nm, partner;
        pos_of(lig, i, pi);
        for (int q = c.adj_start[i]; q < c.adj_start[i + 1] && k < 4; q++) {
            pos_of(lig, c.adj[q], u[k]);
            for (int d = 0; d < 3; d++) u[k][d] -= pi[d];
            if (norm3(u[k]) > 1e-6) k++;
        }
        valence(&c, i, &base, &na, &nm);
        /* trigonal: an sp2/aromatic N (its own multiple bond, a conjugated neighbour, MOL2 N.pl3/N.am),
         * unless it carries four bonds then (ammonium) */
        int trigonal = is_el(x, "N") && (c.planar[i] || conjugated(&c, i, &partner)) && k + need[i] <= 3;
        if (k + need[i] > 4) k = 4 - need[i] > 0 ? 4 - need[i] : 0;
        h_directions(&c, i, (const double(*)[3])u, k, need[i], trigonal, dir);
        const double len = is_el(x, "N") ? 1.01 : is_el(x, "O") ? 0.96 : 1.34;
        for (int j = 0; j < need[i]; j++) {
            vsg_lig_atom *h = &lig->atoms[lig->natoms];
            norm3(dir[j]);
            memset(h, 0, sizeof *h);
            h->x = lig->atoms[i].x + len * dir[j][0];
            h->y = lig->atoms[i].y + len * dir[j][1];
            h->z = lig->atoms[i].z + len * dir[j][2];
            h->line = lig->atoms[i].line;
            strcpy(h->element, "H");
            snprintf(h->name, sizeof h->name, "H%.6s", lig->atoms[i].name[0] ? lig->atoms[i].name : lig->atoms[i].element);
            lig->bonds[lig->nbonds].a = i, lig->bonds[lig->nbonds].b = lig->natoms, lig->bonds[lig->nbonds].order = 1;
            lig->natoms++, lig->nbonds++;
        }
    }
    /* the file's partial charges describe the molecule without these hydrogens: they are no
     * longer the record's (screens then compute Gasteiger charges for it) */
    if (lig->has_charges) {
        lig->has_charges = 0;
        for (int i = 0; i < lig->natoms; i++) lig->atoms[i].charge = 0;
    }
    if (lig->format == VSG_LIG_SDF && lig->text && lig->text_len && !sdf_text_add(lig, natoms0, nbonds0))
        lig->text_len = 0; /* the writers then write the record's atoms as a V2000 molfile */
    if (added) *added = total;
    if (warn)
        vsg_warn("added %d polar hydrogen%s to %s record %ld: the file had none on %s; add them yourself for "
                 "control over protonation (added at neutral valence, no pH model)",
                 total, total == 1 ? "" : "s", lig->source ? lig->source : "?", lig->record, what);
    free(mem), free(flags);
    return VSG_OK;
}
