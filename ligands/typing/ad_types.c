/* ad_types.c — AutoDock 4 atom types for ligands read from SDF or MOL2, and the merge of
 * non-polar hydrogens into their carbons.
 *
 * The reference is what users of screening pipelines get from Open Babel 3.1's PDBQT writer
 * (`obabel in.sdf -opdbqt`), re-derived here from its rules rather than its code:
 *   H   bonded to a carbon: H (merged away by vsg_ligand_merge_nonpolar_h); any other H: HD
 *   C   aromatic (Open Babel's aromaticity model, below): A; otherwise C
 *   N   NA (acceptor) unless it has 4 neighbours and is sp3 (ammonium) or 3 neighbours and is
 *       sp2 (amide, aniline, pyrrole, nitro...): then N
 *   O   OA, always
 *   S   SA only for a thiolate (formal charge −1); otherwise S. (AutoDockTools'
 *       prepare_ligand4 calls every sulfur SA; Open Babel does not, and we follow it.)
 *   F Cl Br I P Mg Ca Mn Fe Zn: their symbol. Any other element has no AutoDock 4 type.
 *
 * Aromaticity is perceived, not read: input aromatic bonds (SDF type 4, MOL2 "ar") are first
 * given a Kekulé structure (a matching of the atoms that need a double bond), then every ring
 * atom contributes a range of π electrons from its element, charge, valence and degree, and a
 * ring circuit of up to 14 atoms whose count can be 4n+2 (n ≥ 1) makes its atoms aromatic.
 * This is the Open Babel 3 model, used for SDF and every non-MOL2 record. A MOL2 record keeps
 * the file's aromaticity (ring "ar" bonds), as Open Babel's MOL2 reader does. Implied hydrogens
 * (valence rules) count for SDF. Agreement with obabel: tests/test_ligand_typing.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grids/base/vsgrid.h"
#include "ligands/ligand.h"

enum { MAX_AROMATIC_CYCLE = 14, CYCLE_SEARCH_BUDGET = 1 << 20 };

/* Atomic numbers of the elements that can occur in a ligand file, for the valence rules. */
static int atomic_number(const char *sym)
{
    static const char *const table[] = {
        "",   "H",  "He", "Li", "Be", "B",  "C",  "N",  "O",  "F",  "Ne", "Na", "Mg", "Al",
        "Si", "P",  "S",  "Cl", "Ar", "K",  "Ca", "Sc", "Ti", "V",  "Cr", "Mn", "Fe", "Co",
        "Ni", "Cu", "Zn", "Ga", "Ge", "As", "Se", "Br", "Kr", "Rb", "Sr", "Y",  "Zr", "Nb",
        "Mo", "Tc", "Ru", "Rh", "Pd", "Ag", "Cd", "In", "Sn", "Sb", "Te", "I"};
    if (!sym[0])
        return -1;
    for (int z = 1; z < (int)(sizeof table / sizeof table[0]); z++)
        if (strcmp(sym, table[z]) == 0)
            return z;
    return -1;
}

/* The AutoDock 4 type of an element whose type does not depend on its bonds, or NULL. */
static const char *plain_type(int z)
{
    switch (z) {
    case 9: return "F";
    case 12: return "Mg";
    case 15: return "P";
    case 17: return "Cl";
    case 20: return "Ca";
    case 25: return "Mn";
    case 26: return "Fe";
    case 30: return "Zn";
    case 35: return "Br";
    case 53: return "I";
    default: return NULL;
    }
}

/* The refusal of an atom whose element gets no type: which atom, which element and why. */
static vsg_status untyped_element(const vsg_lig_atom *a, int i)
{
    char name[24] = "";
    if (a->name[0]) snprintf(name, sizeof name, "'%s', ", a->name);
    return vsg_fail(VSG_E_DATA,
                    "atom %d (%sline %d): element %s has no AutoDock 4 type, so no Vina (XS) type and no map or "
                    "parameters for it: vsgrid types ligands of H C N O F P S Cl Br I and the ions Mg Ca Mn Fe Zn "
                    "(as Open Babel's PDBQT writer); leave the molecule out or replace the atom",
                    i + 1, name, a->line, a->element[0] ? a->element : "(none given)");
}

/* Working state of one molecule: adjacency in compressed rows and per-atom/per-bond flags. */
typedef struct {
    int n, nb;
    const vsg_lig_bond *bonds;
    int *z, *start, *nbr, *via;   /* neighbours of atom i: nbr[start[i] .. start[i+1]) by bond via[] */
    int *charge, *implicit_h, *order; /* order: Kekulé bond order (aromatic bonds resolved) */
    int *emin, *emax;             /* π electrons an atom can give to an aromatic ring */
    unsigned char *ring_bond, *ring_atom, *needs_double, *potential, *aromatic, *aromatic_bond,
        *visit;
    int *stack, *tin, *low;       /* scratch for the ring and cycle searches */
    long budget;
} typing;

static int degree(const typing *t, int i) { return t->start[i + 1] - t->start[i]; }

static int bond_order_sum(const typing *t, int i)
{
    int v = 0;
    for (int k = t->start[i]; k < t->start[i + 1]; k++)
        v += t->order[t->via[k]];
    return v;
}

/* Ring bonds are the bonds that are not bridges (Tarjan's low-link, iterative). */
static void find_ring_bonds(typing *t)
{
    int timer = 0;
    int *it = t->stack + t->n;    /* per-depth neighbour cursor; stack holds the atoms */
    for (int i = 0; i < t->n; i++)
        t->tin[i] = -1;
    for (int root = 0; root < t->n; root++) {
        if (t->tin[root] >= 0)
            continue;
        int depth = 0;
        t->stack[0] = root;
        it[0] = t->start[root];
        t->tin[root] = t->low[root] = timer++;
        int *parent_bond = t->emin; /* reused scratch: bond that led to the atom */
        parent_bond[root] = -1;
        while (depth >= 0) {
            int a = t->stack[depth];
            if (it[depth] < t->start[a + 1]) {
                int k = it[depth]++;
                int b = t->nbr[k], e = t->via[k];
                if (e == parent_bond[a])
                    continue;
                if (t->tin[b] >= 0) {
                    t->ring_bond[e] = 1; /* an edge back to a visited atom closes a ring */
                    if (t->tin[b] < t->low[a])
                        t->low[a] = t->tin[b];
                } else {
                    t->tin[b] = t->low[b] = timer++;
                    parent_bond[b] = e;
                    t->stack[++depth] = b;
                    it[depth] = t->start[b];
                }
            } else {
                depth--;
                if (depth >= 0) {
                    int p = t->stack[depth];
                    if (t->low[a] < t->low[p])
                        t->low[p] = t->low[a];
                    if (t->low[a] <= t->tin[p]) { /* not a bridge: a's subtree reaches back */
                        t->ring_bond[parent_bond[a]] = 1;
                    }
                }
            }
        }
    }
    for (int e = 0; e < t->nb; e++)
        if (t->ring_bond[e])
            t->ring_atom[t->bonds[e].a] = t->ring_atom[t->bonds[e].b] = 1;
}

/* Does an atom with aromatic bonds take one double bond in the Kekulé structure? Atoms that
 * already have a double or triple bond, pyrrole-type N (three neighbours), furan/thiophene O
 * and S (two), and charged three-neighbour carbons do not. */
static int needs_double_bond(const typing *t, int i)
{
    int has_aromatic = 0;
    for (int k = t->start[i]; k < t->start[i + 1]; k++) {
        int o = t->bonds[t->via[k]].order;
        if (o == VSG_BOND_AROMATIC)
            has_aromatic = 1;
        else if (o == 2) {
            /* exocyclic N=O / S=O on an aromatic atom counts as the N-oxide form */
            int z = t->z[i], deg = degree(t, i) + t->implicit_h[i];
            return (z == 7 && deg == 3 && t->charge[i] == 0) || (z == 16 && deg == 4 && t->charge[i] == 0);
        } else if (o == 3)
            return 0;
    }
    if (!has_aromatic)
        return 0;
    int chg = t->charge[i], deg = degree(t, i) + t->implicit_h[i];
    switch (t->z[i]) {
    case 6:
        return !(deg == 3 && (chg == 1 || chg == -1));
    case 5: case 7: case 15: case 33:
        if (chg == 0 && (deg == 3 || deg > 4))
            return 0;
        if (chg == -1 && deg == 2)
            return 0;
        if (chg == 1 && deg > 3)
            return 0;
        return 1;
    case 8: case 16: case 34: case 52:
        if (chg == 0 && (deg == 2 || deg == 4 || deg > 5))
            return 0;
        if ((chg == 1 || chg == -1) && (deg == 3 || deg == 5 || deg > 6))
            return 0;
        return 1;
    default:
        return 1;
    }
}

/* Alternating path from atom a (unmatched) to another unmatched atom over aromatic bonds;
 * flips the path on success (an augmenting path of the matching). */
static int augment(typing *t, int a, int want_double, int depth)
{
    if (depth > 0 && want_double && t->needs_double[a] == 1) /* reached by a single bond */
        return 1;
    if (--t->budget < 0 || depth > t->n)
        return 0;
    t->visit[a] = 1;
    for (int k = t->start[a]; k < t->start[a + 1]; k++) {
        int e = t->via[k], b = t->nbr[k];
        if (t->bonds[e].order != VSG_BOND_AROMATIC || t->visit[b] || !t->needs_double[b])
            continue;
        if ((t->order[e] == 2) != want_double)
            continue;
        if (augment(t, b, !want_double, depth + 1)) {
            t->order[e] = want_double ? 1 : 2;
            t->visit[a] = 0;
            return 1;
        }
    }
    t->visit[a] = 0;
    return 0;
}

/* Gives every atom that needs a double bond exactly one, over its aromatic bonds: greedy
 * (atoms with one free partner first), then augmenting paths for what is left. needs_double
 * holds 1 for an atom still unmatched, 2 once matched. Atoms that cannot be matched keep
 * single bonds, as Open Babel leaves them. */
static void kekulize(typing *t)
{
    for (int progress = 1; progress;) {
        progress = 0;
        for (int pass = 1; pass <= 3 && !progress; pass++)
            for (int i = 0; i < t->n; i++) {
                if (t->needs_double[i] != 1)
                    continue;
                int free_partners = 0, last = -1;
                for (int k = t->start[i]; k < t->start[i + 1]; k++)
                    if (t->bonds[t->via[k]].order == VSG_BOND_AROMATIC && t->needs_double[t->nbr[k]] == 1) {
                        free_partners++;
                        last = k;
                    }
                if (free_partners == 0 || (pass == 1 && free_partners != 1) || (pass == 2 && free_partners != 2))
                    continue;
                t->order[t->via[last]] = 2;
                t->needs_double[i] = t->needs_double[t->nbr[last]] = 2;
                progress = 1;
                break;
            }
    }
    for (int i = 0; i < t->n; i++) {
        if (t->needs_double[i] != 1)
            continue;
        /* flip an alternating path that ends on another unmatched atom */
        if (augment(t, i, 0, 0)) {
            t->needs_double[i] = 2;
            for (int j = 0; j < t->n; j++) /* the path's far end is now matched too */
                if (t->needs_double[j] == 1) {
                    int has_double = 0;
                    for (int k = t->start[j]; k < t->start[j + 1]; k++)
                        if (t->order[t->via[k]] == 2 && t->bonds[t->via[k]].order == VSG_BOND_AROMATIC)
                            has_double = 1;
                    if (has_double)
                        t->needs_double[j] = 2;
                }
        }
    }
}

/* Hydrogens a structure without explicit hydrogens implies (default valences). */
static int implied_hydrogens(int z, int charge, int valence)
{
    int targets[3] = {0, 0, 0};
    switch (z) {
    case 5: targets[0] = 3; break;
    case 6: targets[0] = 4 - (charge != 0); break;
    case 7: case 15: targets[0] = 3 + charge; targets[1] = 5 + charge; break;
    case 8: targets[0] = 2 + charge; break;
    case 16: targets[0] = 2 + charge; targets[1] = 4; targets[2] = 6; break;
    case 9: case 17: case 35: case 53: targets[0] = 1; break;
    default: return 0;
    }
    for (int k = 0; k < 3 && targets[k]; k++)
        if (valence <= targets[k])
            return targets[k] - valence;
    return 0;
}

static int has_exocyclic_double(const typing *t, int i, int to_z /* 0 = hetero (not C/H) */)
{
    for (int k = t->start[i]; k < t->start[i + 1]; k++) {
        int e = t->via[k], z = t->z[t->nbr[k]];
        if (t->order[e] != 2 || t->ring_bond[e])
            continue;
        if (to_z ? z == to_z : (z != 6 && z != 1))
            return 1;
    }
    return 0;
}

/* π electrons a ring atom gives (Open Babel 3's aromaticity model). Returns 0 when the atom
 * cannot be aromatic. */
static int pi_electrons(const typing *t, int i, int *lo, int *hi)
{
    *lo = *hi = 0;
    if (!t->ring_atom[i])
        return 0;
    int chg = t->charge[i], deg = degree(t, i) + t->implicit_h[i];
    int val = bond_order_sum(t, i) + t->implicit_h[i];
#define GIVE(a, b) do { *lo = (a); *hi = (b); return 1; } while (0)
    switch (t->z[i]) {
    case 6:
        if (chg == 0 && val == 4 && deg == 3) {
            if (has_exocyclic_double(t, i, 0))
                GIVE(0, 0);
            GIVE(1, 1);
        }
        if (chg == 1 && val == 3 && deg == 3) GIVE(0, 0);
        if (chg == 1 && val == 3 && deg == 2) GIVE(1, 1);
        if (chg == -1 && val == 3 && deg == 3) GIVE(2, 2);
        if (chg == -1 && val == 3 && deg == 2) GIVE(1, 1);
        return 0;
    case 7: case 15:
        if (chg == 0 && val == 3 && deg == 3) GIVE(2, 2);
        if (chg == 0 && val == 3 && deg == 2) GIVE(1, 1);
        if (chg == 0 && val == 5 && deg == 3) {
            for (int k = t->start[i]; k < t->start[i + 1]; k++) /* first exocyclic double bond */
                if (t->order[t->via[k]] == 2 && !t->ring_bond[t->via[k]]) {
                    if (t->z[t->nbr[k]] == 8)
                        GIVE(1, 1);
                    GIVE(2, 2);
                }
            return 0;
        }
        if (chg == 1 && val == 4 && deg == 3) GIVE(1, 1);
        if (chg == -1 && val == 2 && deg == 2) GIVE(2, 2);
        return 0;
    case 8: case 34:
        if (chg == 0 && val == 2 && deg == 2) GIVE(2, 2);
        if (chg <= 1 && chg >= 0 && val == 3 && deg == 2) GIVE(1, 1);
        return 0;
    case 16:
        if (chg == 0 && val == 2 && deg == 2) GIVE(2, 2);
        if (chg == 0 && val == 4 && deg == 3 && has_exocyclic_double(t, i, 8)) GIVE(2, 2);
        if (chg == 1 && val == 3 && deg == 2) GIVE(1, 1);
        if (chg == 1 && val == 3 && deg == 3) {
            for (int k = t->start[i]; k < t->start[i + 1]; k++)
                if (t->order[t->via[k]] == 1 && !t->ring_bond[t->via[k]] && t->z[t->nbr[k]] == 8 &&
                    t->charge[t->nbr[k]] == -1)
                    GIVE(2, 2);
        }
        return 0;
    case 5:
        if (chg == 0 && val == 3 && deg == 2) GIVE(1, 1);
        if (chg == 0 && val == 3 && deg == 3) GIVE(0, 0);
        return 0;
    case 33:
        if (chg == 0 && val == 3 && deg == 2) GIVE(1, 1);
        if (chg == 0 && val == 3 && deg == 3) GIVE(2, 2);
        if (chg == 1 && val == 4 && deg == 3) GIVE(1, 1);
        return 0;
    default:
        return 0;
    }
#undef GIVE
}

/* An atom stays a candidate only with at least two candidate ring neighbours. */
static void prune_candidate(typing *t, int i)
{
    int count = 0;
    for (int k = t->start[i]; k < t->start[i + 1]; k++)
        if (t->ring_bond[t->via[k]] && t->potential[t->nbr[k]])
            count++;
    if (count >= 2)
        return;
    t->potential[i] = 0;
    for (int k = t->start[i]; k < t->start[i + 1]; k++)
        if (t->ring_bond[t->via[k]] && t->potential[t->nbr[k]])
            prune_candidate(t, t->nbr[k]);
}

/* Depth-first walk over candidate ring atoms; a return to the root with a π count that can
 * be 4n+2 (more than 2) marks the circuit's atoms and bonds aromatic. */
static int walk_cycle(typing *t, int root, int a, int prev_bond, int lo, int hi, int left)
{
    if (a == root) {
        for (int e = lo; e <= hi; e++)
            if (e % 4 == 2 && e > 2)
                return 1;
        return 0;
    }
    if (!left || !t->potential[a] || t->visit[a] || --t->budget < 0)
        return 0;
    int found = 0;
    t->visit[a] = 1;
    lo += t->emin[a];
    hi += t->emax[a];
    for (int k = t->start[a]; k < t->start[a + 1]; k++) {
        int e = t->via[k], b = t->nbr[k];
        if (e == prev_bond || !t->ring_bond[e] || !t->potential[b])
            continue;
        if (walk_cycle(t, root, b, e, lo, hi, left - 1)) {
            found = 1;
            t->aromatic_bond[e] = 1;
        }
    }
    t->visit[a] = 0;
    if (found)
        t->aromatic[a] = 1;
    return found;
}

static void perceive_aromaticity(typing *t)
{
    for (int i = 0; i < t->n; i++)
        t->potential[i] = (unsigned char)pi_electrons(t, i, &t->emin[i], &t->emax[i]);
    for (int i = 0; i < t->n; i++)
        if (t->potential[i])
            prune_candidate(t, i);
    t->budget = CYCLE_SEARCH_BUDGET;
    for (int r = 0; r < t->n; r++) {
        if (!t->potential[r])
            continue;
        for (int k = t->start[r]; k < t->start[r + 1]; k++) {
            int e = t->via[k];
            if (!t->ring_bond[e])
                continue;
            if (walk_cycle(t, r, t->nbr[k], e, t->emin[r], t->emax[r], MAX_AROMATIC_CYCLE - 1)) {
                t->aromatic[r] = 1;
                t->aromatic_bond[e] = 1;
            }
        }
    }
}

/* Open Babel's hybridisation of a nitrogen (its SMARTS table, later rules winning):
 * 3 by default; 2 when aromatic, double-bonded, bonded to an unsaturated C/N/O, or (with at
 * most three neighbours) bonded to an aromatic atom; 1 when triple-bonded or with two double
 * bonds and two neighbours. */
static int nitrogen_hybridisation(const typing *t, int i)
{
    int deg = degree(t, i), doubles = 0, triples = 0, conjugated = 0, aromatic_nbr = 0;
    for (int k = t->start[i]; k < t->start[i + 1]; k++) {
        int e = t->via[k], b = t->nbr[k];
        if (t->order[e] == 2 && !t->aromatic_bond[e])
            doubles++;
        if (t->order[e] == 3)
            triples++;
        if (t->aromatic[b])
            aromatic_nbr = 1;
        if (t->z[b] == 6 || t->z[b] == 7 || t->z[b] == 8)
            for (int m = t->start[b]; m < t->start[b + 1]; m++)
                if (t->nbr[m] != i && (t->order[t->via[m]] >= 2 || t->aromatic_bond[t->via[m]]))
                    conjugated = 1;
    }
    if (t->aromatic[i])
        return 2; /* 'n' matches none of the aliphatic sp rules */
    int hyb = 3;
    if (doubles || conjugated || (aromatic_nbr && deg >= 1 && deg <= 3))
        hyb = 2;
    if (triples || (deg == 2 && doubles == 2))
        hyb = 1;
    return hyb;
}

static void set_type(vsg_lig_atom *a, const char *type)
{
    snprintf(a->ad_type, sizeof a->ad_type, "%s", type);
}

vsg_status vsg_ligand_assign_ad_types(vsg_ligand *lig)
{
    if (!lig)
        return vsg_fail(VSG_E_ARG, "vsg_ligand_assign_ad_types: no ligand");
    const int n = lig->natoms, nb = lig->nbonds;
    if (n <= 0)
        return VSG_OK;
    for (int e = 0; e < nb; e++) {
        const vsg_lig_bond *b = &lig->bonds[e];
        if (b->a < 0 || b->a >= n || b->b < 0 || b->b >= n || b->a == b->b)
            return vsg_fail(VSG_E_DATA, "bond %d joins atoms %d and %d of a %d-atom molecule", e + 1, b->a + 1,
                            b->b + 1, n);
        if (b->order < 1 || b->order > VSG_BOND_AMIDE)
            return vsg_fail(VSG_E_DATA, "bond %d has order %d", e + 1, b->order);
    }

    typing t;
    memset(&t, 0, sizeof t);
    t.n = n;
    t.nb = nb;
    t.bonds = lig->bonds;
    size_t ints = (size_t)n * 10 + 1 + (size_t)nb * 5;
    int *block = calloc(ints, sizeof(int));
    unsigned char *flags = calloc((size_t)n * 7 + (size_t)nb * 2 + 1, 1);
    if (!block || !flags) {
        free(block);
        free(flags);
        return vsg_fail(VSG_E_NOMEM, "atom typing: out of memory for %d atoms", n);
    }
    int *p = block;
    t.z = p; p += n;
    t.start = p; p += n + 1;
    t.charge = p; p += n;
    t.implicit_h = p; p += n;
    t.emin = p; p += n;
    t.emax = p; p += n;
    t.tin = p; p += n;
    t.low = p; p += n;
    t.stack = p; p += 2 * n; /* atoms, then per-depth cursors */
    t.nbr = p; p += 2 * nb;
    t.via = p; p += 2 * nb;
    t.order = p;
    unsigned char *f = flags;
    t.ring_atom = f; f += n;
    t.needs_double = f; f += n;
    t.potential = f; f += n;
    t.aromatic = f; f += n;
    t.visit = f; f += 3 * n;
    t.ring_bond = f; f += nb;
    t.aromatic_bond = f;

    vsg_status st = VSG_OK;
    int any_h = 0;
    for (int i = 0; i < n; i++) {
        t.z[i] = atomic_number(lig->atoms[i].element);
        if (t.z[i] < 0) {
            st = untyped_element(&lig->atoms[i], i);
            goto done;
        }
        t.charge[i] = lig->atoms[i].formal;
        any_h |= t.z[i] == 1;
    }
    /* adjacency in compressed rows */
    for (int e = 0; e < nb; e++) {
        t.start[lig->bonds[e].a + 1]++;
        t.start[lig->bonds[e].b + 1]++;
        t.order[e] = lig->bonds[e].order == 2 || lig->bonds[e].order == 3 ? lig->bonds[e].order : 1;
    }
    for (int i = 0; i < n; i++)
        t.start[i + 1] += t.start[i];
    for (int i = 0; i < n; i++)
        t.tin[i] = t.start[i];
    for (int e = 0; e < nb; e++) {
        int a = lig->bonds[e].a, b = lig->bonds[e].b;
        t.nbr[t.tin[a]] = b;
        t.via[t.tin[a]++] = e;
        t.nbr[t.tin[b]] = a;
        t.via[t.tin[b]++] = e;
    }
    find_ring_bonds(&t);

    /* Hydrogens a structure leaves out are implied by valence, as Open Babel's SDF reader
     * implies them (MOL2 files state theirs): an aromatic-bond carbon has 4 - 1 - its other
     * bonds, a heteroatom with aromatic bonds none (pyridine-like). */
    const int implied = lig->format != VSG_LIG_MOL2 || !any_h;
    if (implied)
        for (int i = 0; i < n; i++) {
            int arom = 0;
            for (int k = t.start[i]; k < t.start[i + 1]; k++)
                arom += lig->bonds[t.via[k]].order == VSG_BOND_AROMATIC;
            if (arom && t.z[i] == 6)
                t.implicit_h[i] = 3 - bond_order_sum(&t, i) > 0 ? 3 - bond_order_sum(&t, i) : 0;
        }
    for (int i = 0; i < n; i++)
        t.needs_double[i] = (unsigned char)needs_double_bond(&t, i);
    t.budget = CYCLE_SEARCH_BUDGET;
    kekulize(&t);
    if (implied)
        for (int i = 0; i < n; i++) {
            int arom = 0;
            for (int k = t.start[i]; k < t.start[i + 1]; k++)
                arom += lig->bonds[t.via[k]].order == VSG_BOND_AROMATIC;
            if (!arom)
                t.implicit_h[i] = implied_hydrogens(t.z[i], t.charge[i], bond_order_sum(&t, i));
        }
    memset(t.visit, 0, (size_t)n);
    if (lig->format == VSG_LIG_MOL2) {
        /* A MOL2 file states its aromaticity ("ar" bonds), and Open Babel keeps it as read:
         * a Kekulé ring typed C.2 stays aliphatic, a pyridinium typed N.ar stays aromatic.
         * Only ring bonds count: a carboxylate's "ar" bonds do not make its carbon aromatic. */
        for (int e = 0; e < nb; e++)
            if (lig->bonds[e].order == VSG_BOND_AROMATIC && t.ring_bond[e]) {
                t.aromatic_bond[e] = 1;
                t.aromatic[lig->bonds[e].a] = t.aromatic[lig->bonds[e].b] = 1;
            }
    } else {
        perceive_aromaticity(&t);
    }

    for (int i = 0; i < n; i++) {
        vsg_lig_atom *a = &lig->atoms[i];
        const char *type = plain_type(t.z[i]);
        switch (t.z[i]) {
        case 1: {
            type = "HD";
            for (int k = t.start[i]; k < t.start[i + 1]; k++)
                if (t.z[t.nbr[k]] == 6)
                    type = "H";
            break;
        }
        case 6:
            type = t.aromatic[i] ? "A" : "C";
            break;
        case 7: {
            int deg = degree(&t, i), hyb = nitrogen_hybridisation(&t, i);
            type = (deg == 4 && hyb == 3) || (deg == 3 && hyb == 2) ? "N" : "NA";
            break;
        }
        case 8:
            type = "OA";
            break;
        case 16:
            type = t.charge[i] == -1 ? "SA" : "S";
            break;
        default:
            break;
        }
        if (!type) {
            st = untyped_element(a, i);
            goto done;
        }
        set_type(a, type);
    }
done:
    free(block);
    free(flags);
    return st;
}

/* Each hydrogen whose neighbours are all carbons gives its charge to the first of them and
 * leaves; the other atoms keep their order and the bonds are renumbered. */
void vsg_ligand_merge_nonpolar_h(vsg_ligand *lig)
{
    if (!lig || lig->natoms <= 0)
        return;
    const int n = lig->natoms;
    int *carbon = malloc((size_t)n * sizeof(int)); /* merge target, or -1 to keep; then new index */
    if (!carbon) {
        vsg_warn("non-polar hydrogen merge skipped: out of memory for %d atoms", n);
        return;
    }
    for (int i = 0; i < n; i++)
        carbon[i] = -1;
    for (int e = 0; e < lig->nbonds; e++) {
        const vsg_lig_bond *b = &lig->bonds[e];
        if (b->a < 0 || b->a >= n || b->b < 0 || b->b >= n)
            continue;
        for (int side = 0; side < 2; side++) {
            int h = side ? b->b : b->a, other = side ? b->a : b->b;
            if (strcmp(lig->atoms[h].element, "H") != 0)
                continue;
            if (strcmp(lig->atoms[other].element, "C") != 0)
                carbon[h] = -2; /* bonded to something else: polar, stays */
            else if (carbon[h] == -1)
                carbon[h] = other;
        }
    }
    int kept = 0;
    for (int i = 0; i < n; i++) {
        if (carbon[i] >= 0)
            lig->atoms[carbon[i]].charge += lig->atoms[i].charge;
    }
    for (int i = 0; i < n; i++) {
        if (carbon[i] >= 0) {
            carbon[i] = -1; /* removed */
            continue;
        }
        if (kept != i)
            lig->atoms[kept] = lig->atoms[i];
        carbon[i] = kept++;
    }
    int nb = 0;
    for (int e = 0; e < lig->nbonds; e++) {
        vsg_lig_bond b = lig->bonds[e];
        if (b.a < 0 || b.a >= n || b.b < 0 || b.b >= n || carbon[b.a] < 0 || carbon[b.b] < 0)
            continue;
        b.a = carbon[b.a];
        b.b = carbon[b.b];
        lig->bonds[nb++] = b;
    }
    lig->natoms = kept;
    lig->nbonds = nb;
    free(carbon);
}
