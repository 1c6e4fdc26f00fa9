/* torsions.c — rigid bodies and rotatable bonds of a ligand (torsions.h).
 *
 * PDBQT: the tree as Vina 1.2.3 parses it (parse_pdbqt.cpp): ROOT is body 0, each BRANCH a b a
 * new body whose axis runs from atom a (found among the atoms listed so far in the enclosing
 * block, by serial number) to atom b (which must be listed in the branch). A branch that holds
 * only its axis atom and no sub-branch is no torsion for Vina (it merges it into the parent), so
 * it is merged here too. Everything that is not ROOT/BRANCH/ENDBRANCH/TORSDOF/ATOM/HETATM (REMARK,
 * MODEL, TER, ...) is skipped.
 *
 * Bonds (SDF/MOL2): a bond is rotatable when Meeko and AutoDockTools would make it a torsion:
 * single (a MOL2 "am" bond counts as single, as Open Babel and RDKit read it), in no ring, each
 * end bonded to something else (polar hydrogens count, the non-polar ones are merged before),
 * neither end on a triple bond (rotating a linear group moves nothing), and not the C–N bond of
 * an amide: a carbon double-bonded to O. Thioamide and thiourea C(=S)–N bonds rotate, as both
 * references rotate them: Open Babel 3.1 (OBBond::IsAmide, which `obabel -opdbqt`'s
 * IsRotBond_PDBQT uses, needs a carbonyl C=O) and Meeko (bondtyper.py's amide SMARTS
 * [NX3]-[CX3]=[O,N] since January 2022; before it, [NX3]-[CX3]=O). Where the two disagree
 * vsgrid keeps what it did: amidine C(=N)–N rotates (Open Babel; Meeko freezes it), tertiary
 * amides stay rigid (Open Babel; Meeko rotates those whose two N substituents differ), and an
 * acyl on an aromatic N stays rigid (Open Babel; Meeko's aliphatic [NX3] misses it). Both
 * references also rotate C(=O)–N where the N is double-bonded (N-acyl imines, acylguanidines
 * drawn as C(=O)N=C), which vsgrid freezes (docs/FORMATS.md, "Torsions"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ligands/torsions/torsions.h"

void vsg_torsions_release(vsg_torsions *t)
{
    if (!t) return;
    free(t->body);
    free(t->rotor);
    memset(t, 0, sizeof *t);
}

static int starts(const char *s, size_t n, const char *w)
{
    size_t m = strlen(w);
    return n >= m && !memcmp(s, w, m);
}

/* Two integers after a keyword (BRANCH, ENDBRANCH), as Vina's istream >> reads them. */
static int two_ints(const char *s, size_t n, size_t skip, int *a, int *b)
{
    char buf[96];
    size_t m = n - skip < sizeof buf - 1 ? n - skip : sizeof buf - 1;
    memcpy(buf, s + skip, m);
    buf[m] = '\0';
    return sscanf(buf, "%d %d", a, b) == 2 && *a >= 0 && *b >= 0;
}

typedef struct {
    int from_serial, to_serial;
    int from_atom, to_atom; /* −1 until found */
    int parent_body, body;
    int listed, sub;        /* atoms listed in the branch block, sub-branches */
    int line;
} branch;

static vsg_status tree_fail(const vsg_ligand *lig, long line, const char *what, int a, int b)
{
    return vsg_fail(VSG_E_FORMAT, "%s:%ld: record %ld: torsion tree: %s%s%d %d", lig->source ? lig->source : "?",
                    line, lig->record, what, a >= 0 ? ": " : "", a, b);
}

vsg_status vsg_torsions_from_pdbqt(const vsg_ligand *lig, vsg_torsions *t)
{
    if (!lig || !t || !lig->text) return vsg_fail(VSG_E_ARG, "torsions: no record text");
    memset(t, 0, sizeof *t);
    const int n = lig->natoms;
    t->natoms = n;
    t->body = calloc((size_t)(n > 0 ? n : 1), sizeof *t->body);
    int *serial = calloc((size_t)(n > 0 ? n : 1), sizeof *serial);
    int *stack = NULL;
    branch *br = NULL;
    int nbr = 0, cap = 0, depth = 0, k = 0, have_torsdof = 0, have_root = 0;
    vsg_status st = VSG_OK;
    if (!t->body || !serial) { st = vsg_fail(VSG_E_NOMEM, "torsions: out of memory"); goto done; }
    stack = malloc(sizeof *stack * (size_t)(n + 2));
    if (!stack) { st = vsg_fail(VSG_E_NOMEM, "torsions: out of memory"); goto done; }
    long line = lig->line;
    for (const char *p = lig->text, *end = lig->text + lig->text_len; p < end; line++) {
        const char *e = memchr(p, '\n', (size_t)(end - p));
        size_t len = e ? (size_t)(e - p) : (size_t)(end - p);
        const char *s = p;
        p = e ? e + 1 : end;
        while (len > 0 && (s[len - 1] == '\r' || s[len - 1] == ' ')) len--;
        const int cur = depth > 0 ? br[stack[depth - 1]].body : 0;
        if (starts(s, len, "ATOM  ") || starts(s, len, "HETATM")) {
            if (k >= n) { st = tree_fail(lig, line, "more ATOM lines than atoms read", -1, 0); goto done; }
            char num[8] = {0};
            if (len > 6) memcpy(num, s + 6, len - 6 < 5 ? len - 6 : 5);
            serial[k] = atoi(num);
            t->body[k] = cur;
            if (depth > 0) {
                branch *b = &br[stack[depth - 1]];
                b->listed++;
                if (serial[k] == b->to_serial) b->to_atom = k;
            }
            k++;
        } else if (starts(s, len, "ROOT") || starts(s, len, "ENDROOT")) {
            have_root = 1; /* the reader may drop a ROOT before the record's first atom, never ENDROOT */
        } else if (starts(s, len, "BRANCH")) {
            int a, b;
            if (!two_ints(s, len, 6, &a, &b)) { st = tree_fail(lig, line, "malformed BRANCH", -1, 0); goto done; }
            int from = -1;
            for (int i = 0; i < k; i++) /* Vina looks among the atoms listed so far in this block */
                if (t->body[i] == cur && serial[i] == a) { from = i; break; }
            if (from < 0) { st = tree_fail(lig, line, "BRANCH atom not in its enclosing block", a, b); goto done; }
            if (nbr == cap) {
                cap = cap ? 2 * cap : 16;
                branch *nb = realloc(br, sizeof *br * (size_t)cap);
                if (!nb) { st = vsg_fail(VSG_E_NOMEM, "torsions: out of memory"); goto done; }
                br = nb;
            }
            if (depth > 0) br[stack[depth - 1]].sub++;
            if (depth >= n + 1) { st = tree_fail(lig, line, "BRANCH nested deeper than the atoms allow", a, b); goto done; }
            br[nbr] = (branch){a, b, from, -1, cur, nbr + 1, 0, 0, (int)line};
            stack[depth++] = nbr++;
        } else if (starts(s, len, "ENDBRANCH")) {
            int a, b;
            if (!two_ints(s, len, 9, &a, &b)) { st = tree_fail(lig, line, "malformed ENDBRANCH", -1, 0); goto done; }
            if (depth == 0) { st = tree_fail(lig, line, "ENDBRANCH without BRANCH", a, b); goto done; }
            branch *top = &br[stack[depth - 1]];
            if (top->from_serial != a || top->to_serial != b) { st = tree_fail(lig, line, "ENDBRANCH does not match its BRANCH", a, b); goto done; }
            if (top->to_atom < 0) { st = tree_fail(lig, line, "the BRANCH's second atom is not in the branch", a, b); goto done; }
            depth--;
        } else if (starts(s, len, "TORSDOF")) {
            int v;
            char buf[64];
            size_t m = len - 7 < sizeof buf - 1 ? len - 7 : sizeof buf - 1;
            memcpy(buf, s + 7, m);
            buf[m] = '\0';
            if (have_torsdof) { st = tree_fail(lig, line, "TORSDOF given twice", -1, 0); goto done; }
            if (sscanf(buf, "%d", &v) != 1 || v < 0) { st = tree_fail(lig, line, "malformed TORSDOF", -1, 0); goto done; }
            t->torsdof = v;
            have_torsdof = 1;
        }
    }
    /* Vina refuses atoms outside ROOT ("Unknown or inappropriate tag"); read as one rigid body, a
     * receptor given as the ligand was docked for minutes as 1,000+ atoms */
    if (n > 0 && !have_root) {
        st = vsg_fail(VSG_E_FORMAT, "%s:%ld: record %ld: torsion tree: no ROOT/ENDROOT: not a ligand PDBQT "
                      "(a receptor? a ligand's atoms are in ROOT and BRANCH blocks, as Meeko and vina write them)",
                      lig->source ? lig->source : "?", lig->line, lig->record);
        goto done;
    }
    if (depth != 0) { st = tree_fail(lig, line, "BRANCH without ENDBRANCH", br[stack[depth - 1]].from_serial, br[stack[depth - 1]].to_serial); goto done; }
    if (k != n) { st = tree_fail(lig, lig->line, "fewer ATOM lines than atoms read", k, n); goto done; }
    /* bodies: merge the branches Vina finds empty, then number the rest */
    int *newid = malloc(sizeof *newid * (size_t)(nbr + 1));
    t->rotor = malloc(sizeof *t->rotor * (size_t)(nbr > 0 ? nbr : 1));
    if (!newid || !t->rotor) { free(newid); st = vsg_fail(VSG_E_NOMEM, "torsions: out of memory"); goto done; }
    int *merged_into = newid; /* first pass: body → body it merges into (itself when kept) */
    merged_into[0] = 0;
    for (int i = 0; i < nbr; i++) {
        const branch *b = &br[i];
        merged_into[b->body] = (b->listed == 1 && b->sub == 0) ? merged_into[b->parent_body] : b->body;
    }
    for (int i = 0; i < n; i++) t->body[i] = merged_into[t->body[i]];
    /* compact numbering in order of first appearance over the bodies */
    int *compact = malloc(sizeof *compact * (size_t)(nbr + 1));
    if (!compact) { free(newid); st = vsg_fail(VSG_E_NOMEM, "torsions: out of memory"); goto done; }
    for (int i = 0; i <= nbr; i++) compact[i] = -1;
    int nb = 0;
    for (int i = 0; i <= nbr; i++)
        if (merged_into[i] == i) compact[i] = nb++;
    for (int i = 0; i < n; i++) t->body[i] = compact[t->body[i]];
    for (int i = 0; i < nbr; i++)
        if (merged_into[br[i].body] == br[i].body) {
            t->rotor[t->nrotors][0] = br[i].from_atom;
            t->rotor[t->nrotors][1] = br[i].to_atom;
            t->nrotors++;
        }
    t->nbodies = nb;
    free(compact);
    free(newid);
done:
    free(serial);
    free(stack);
    free(br);
    if (st != VSG_OK) vsg_torsions_release(t);
    return st;
}

/* ---- from bonds ---------------------------------------------------------------------------- */

static int find(int *p, int i)
{
    while (p[i] != i) i = p[i] = p[p[i]];
    return i;
}

/* Is atom a the carbon of a carbonyl (C=O), whose C–N bond is an amide's? A thiocarbonyl
 * (C=S) is not: thioamide and thiourea C–N bonds rotate (the header's sources). */
static int amide_carbon(const vsg_ligand *lig, int a)
{
    if (strcmp(lig->atoms[a].element, "C") != 0) return 0;
    for (int e = 0; e < lig->nbonds; e++) {
        const vsg_lig_bond *b = &lig->bonds[e];
        if (b->order != 2 || (b->a != a && b->b != a)) continue;
        if (!strcmp(lig->atoms[b->a == a ? b->b : b->a].element, "O")) return 1;
    }
    return 0;
}

vsg_status vsg_torsions_from_bonds(const vsg_ligand *lig, vsg_torsions *t)
{
    if (!lig || !t) return vsg_fail(VSG_E_ARG, "torsions: NULL argument");
    memset(t, 0, sizeof *t);
    const int n = lig->natoms, m = lig->nbonds;
    for (int e = 0; e < m; e++)
        if (lig->bonds[e].a < 0 || lig->bonds[e].a >= n || lig->bonds[e].b < 0 || lig->bonds[e].b >= n ||
            lig->bonds[e].a == lig->bonds[e].b)
            return vsg_fail(VSG_E_DATA, "%s: record %ld: bond %d names a missing atom", lig->source ? lig->source : "?",
                            lig->record, e + 1);
    t->natoms = n;
    t->body = malloc(sizeof *t->body * (size_t)(n > 0 ? n : 1));
    t->rotor = malloc(sizeof *t->rotor * (size_t)(m > 0 ? m : 1));
    int *deg = calloc((size_t)(n > 0 ? n : 1), sizeof *deg), *triple = calloc((size_t)(n > 0 ? n : 1), sizeof *triple);
    int *parent = malloc(sizeof *parent * (size_t)(n > 0 ? n : 1)), *rot = calloc((size_t)(m > 0 ? m : 1), sizeof *rot);
    if (!t->body || !t->rotor || !deg || !triple || !parent || !rot) {
        free(deg), free(triple), free(parent), free(rot);
        vsg_torsions_release(t);
        return vsg_fail(VSG_E_NOMEM, "torsions: out of memory");
    }
    for (int e = 0; e < m; e++) {
        deg[lig->bonds[e].a]++, deg[lig->bonds[e].b]++;
        if (lig->bonds[e].order == 3) triple[lig->bonds[e].a] = triple[lig->bonds[e].b] = 1;
    }
    for (int e = 0; e < m; e++) {
        const vsg_lig_bond *b = &lig->bonds[e];
        if ((b->order != 1 && b->order != VSG_BOND_AMIDE) || deg[b->a] < 2 || deg[b->b] < 2 || triple[b->a] || triple[b->b]) continue;
        if ((amide_carbon(lig, b->a) && !strcmp(lig->atoms[b->b].element, "N")) ||
            (amide_carbon(lig, b->b) && !strcmp(lig->atoms[b->a].element, "N")))
            continue;
        /* in a ring when its ends stay connected without it */
        for (int i = 0; i < n; i++) parent[i] = i;
        for (int f = 0; f < m; f++)
            if (f != e) {
                int x = find(parent, lig->bonds[f].a), y = find(parent, lig->bonds[f].b);
                if (x != y) parent[x] = y;
            }
        if (find(parent, b->a) != find(parent, b->b)) rot[e] = 1;
    }
    /* bodies: what stays connected when the rotatable bonds are cut */
    for (int i = 0; i < n; i++) parent[i] = i;
    for (int e = 0; e < m; e++)
        if (!rot[e]) {
            int x = find(parent, lig->bonds[e].a), y = find(parent, lig->bonds[e].b);
            if (x != y) parent[x < y ? y : x] = x < y ? x : y;
        }
    for (int i = 0; i < n; i++) deg[i] = -1; /* reused: root → body number */
    for (int i = 0; i < n; i++) {
        int r = find(parent, i);
        if (deg[r] < 0) deg[r] = t->nbodies++;
        t->body[i] = deg[r];
    }
    for (int e = 0; e < m; e++)
        if (rot[e]) {
            t->rotor[t->nrotors][0] = lig->bonds[e].a;
            t->rotor[t->nrotors][1] = lig->bonds[e].b;
            t->nrotors++;
        }
    t->torsdof = t->nrotors;
    free(deg), free(triple), free(parent), free(rot);
    return VSG_OK;
}
