/* vina_ligand.c — the Vina model of one ligand record (vsgrid.h, "Vina and Vinardo pose
 * scores"): rigid bodies from the torsion tree, Vina's bonds, XS types, the intramolecular pairs
 * and N_rot, each step as AutoDock Vina 1.2.3 takes it (model.cpp: assign_bonds, assign_types,
 * initialize_pairs; conf_independent.cpp: num_tors).
 *
 * Macrocycles as Meeko writes them (ring opened at one bond; each of the two closure carbons typed
 * CGk and carrying a pseudo-atom Gk where its partner was): as Vina ≥ 1.2.4 (atom_constants.h,
 * model.cpp, cache.cpp) — a CGk is a carbon whose map is C_P or C_H by the usual rule and whose
 * pairs are not hydrophobic (Vina's C_H_CGk/C_P_CGk; it is always C_P here, being bonded to its
 * Gk, which like CGk counts as a heteroatom in Vina's ad_is_heteroatom: so a carbon bonded to a
 * CGk is C_P too); a Gk has no map and no pair but the glue pair with each CGk of its label free
 * to move relative to it (the other closure carbon); pairs across the closure bond (an atom of
 * {CGk and its neighbours} with an atom of {the other CGk and its neighbours}: the 1-2, 1-3, 1-4
 * pairs of the closed ring) are dropped (model.cpp's is_closure_clash, is_unmatched_closure_dummy);
 * Gk counts as a heavy atom in N_rot (Vina's num_tors: not a hydrogen). Vina 1.2.3 (Debian's)
 * still paired Gk with every atom (radius 0) and added the glue to the intramolecular energy of
 * --score_only; 1.2.4 dropped both, and vsgrid follows 1.2.4. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ligands/ligand.h"
#include "ligands/score/vina_internal.h"
#include "ligands/torsions/torsions.h"

enum { EL_H, EL_C, EL_N, EL_O, EL_S, EL_P, EL_F, EL_Cl, EL_Br, EL_I, EL_Si, EL_At, EL_Met, EL_Dummy };

/* AutoDock types Vina knows, with their element and covalent radius (Vina's atom_kind_data). */
static const struct {
    const char *name;
    int el;
    double cov;
    int hetero, acceptor;
} ad_kinds[] = {
    {"C", EL_C, 0.77, 0, 0},    {"A", EL_C, 0.77, 0, 0},    {"N", EL_N, 0.75, 1, 0},    {"O", EL_O, 0.73, 1, 0},
    {"P", EL_P, 1.06, 1, 0},    {"S", EL_S, 1.02, 1, 0},    {"H", EL_H, 0.37, 0, 0},    {"F", EL_F, 0.71, 1, 0},
    {"I", EL_I, 1.33, 1, 0},    {"NA", EL_N, 0.75, 1, 1},   {"OA", EL_O, 0.73, 1, 1},   {"SA", EL_S, 1.02, 1, 0},
    {"HD", EL_H, 0.37, 0, 0},   {"Mg", EL_Met, 1.30, 1, 0}, {"Mn", EL_Met, 1.39, 1, 0}, {"Zn", EL_Met, 1.31, 1, 0},
    {"Ca", EL_Met, 1.74, 1, 0}, {"Fe", EL_Met, 1.25, 1, 0}, {"Cl", EL_Cl, 0.99, 1, 0},  {"Br", EL_Br, 1.14, 1, 0},
    {"Si", EL_Si, 1.11, 1, 0},  {"At", EL_At, 1.44, 1, 0},  {"Se", EL_S, 1.02, 1, 0}, /* Vina reads Se as S */
    /* macrocycle closure (Meeko): glue pseudo-atoms and closure carbons, heteroatoms to Vina */
    {"G0", EL_Dummy, 0.77, 1, 0}, {"G1", EL_Dummy, 0.77, 1, 0}, {"G2", EL_Dummy, 0.77, 1, 0}, {"G3", EL_Dummy, 0.77, 1, 0},
    {"CG0", EL_C, 0.77, 1, 0},    {"CG1", EL_C, 0.77, 1, 0},    {"CG2", EL_C, 0.77, 1, 0},    {"CG3", EL_C, 0.77, 1, 0},
};
/* Metals Vina accepts without an AutoDock type (covalent radius 1.75, Met_D). */
static const char *const other_metals[] = {"Cu", "Na", "K", "Hg", "Co", "U", "Cd", "Ni"};
#define MAX_COVALENT 1.74 /* the largest radius of Vina's table (Ca): the search radius for bonds */

typedef struct {
    int el, hetero, acceptor, hd;
    double cov;
    int glue;  /* macrocycle closure label k: CGk (closure carbon) or Gk (its pseudo-atom); −1 none */
    int water; /* W, a hydrated-docking water (vsgrid.h, "Hydrated docking"): no bond, no pair */
} kind;

static int kind_of(const char *t, kind *k)
{
    for (size_t i = 0; i < sizeof ad_kinds / sizeof ad_kinds[0]; i++)
        if (!strcmp(t, ad_kinds[i].name)) {
            *k = (kind){ad_kinds[i].el, ad_kinds[i].hetero, ad_kinds[i].acceptor, !strcmp(t, "HD"), ad_kinds[i].cov, -1, 0};
            if (t[0] == 'G') k->glue = t[1] - '0';
            else if (t[0] == 'C' && t[1] == 'G') k->glue = t[2] - '0';
            return 1;
        }
    for (size_t i = 0; i < sizeof other_metals / sizeof other_metals[0]; i++)
        if (!strcmp(t, other_metals[i])) {
            *k = (kind){EL_Met, 1, 0, 0, 1.75, -1, 0};
            return 1;
        }
    return 0;
}

void vsg_vina_ligand_free(vsg_vina_ligand *l)
{
    if (!l) return;
    free(l->xyz);
    free(l->xs);
    free(l->line);
    free(l->pair);
    free(l->glue);
    free(l);
}

void vsg_vina_ligand_get_info(const vsg_vina_ligand *l, vsg_vina_ligand_info *info)
{
    if (!info) return;
    if (!l) memset(info, 0, sizeof *info);
    else *info = l->info;
}

vsg_xs_type vsg_vina_ligand_xs_type(const vsg_vina_ligand *l, int i)
{
    return l && i >= 0 && i < l->natoms ? l->xs[i] : VSG_XS_NONE;
}

vsg_status vsg_vina_ligand_pair(const vsg_vina_ligand *l, int k, int *i, int *j)
{
    if (!l || !i || !j || k < 0 || k >= l->npairs) return vsg_fail(VSG_E_ARG, "vsg_vina_ligand_pair: bad argument");
    *i = l->pair[k][0];
    *j = l->pair[k][1];
    return VSG_OK;
}

vsg_status vsg_vina_ligand_autobox(const vsg_vina_ligand *l, vsg_vina_box *box)
{
    if (!l || !box || l->natoms < 1) return vsg_fail(VSG_E_ARG, "vsg_vina_ligand_autobox: bad argument");
    double c[3] = {0, 0, 0}, far[3] = {0, 0, 0};
    for (int i = 0; i < l->natoms; i++)
        for (int d = 0; d < 3; d++) c[d] += l->xyz[3 * i + d];
    for (int d = 0; d < 3; d++) c[d] /= l->natoms;
    for (int i = 0; i < l->natoms; i++)
        for (int d = 0; d < 3; d++) {
            double r = fabs(c[d] - l->xyz[3 * i + d]);
            if (far[d] < r) far[d] = r;
        }
    for (int d = 0; d < 3; d++) {
        box->center[d] = c[d];
        box->size[d] = ceil((far[d] + 4.0) * 2);
    }
    box->spacing = 0.375;
    return VSG_OK;
}

static double d2(const double *a, const double *b)
{
    double x = a[0] - b[0], y = a[1] - b[1], z = a[2] - b[2];
    return x * x + y * y + z * z;
}

/* Vina's bonded_to(a, n): a depth-first walk that records each atom the first time it is met
 * (so an atom first met deep in a small ring is not walked on from a shorter path: kept as is). */
static void walk(const int *adj_start, const int *adj, int a, int depth, char *seen)
{
    if (seen[a]) return;
    seen[a] = 1;
    if (depth > 0)
        for (int e = adj_start[a]; e < adj_start[a + 1]; e++) walk(adj_start, adj, adj[e], depth - 1, seen);
}

static vsg_status model_fail(const vsg_ligand *lig, vsg_status st, int atom, const char *fmt, const char *what)
{
    const vsg_lig_atom *a = &lig->atoms[atom];
    return vsg_fail(st, "%s:%d: record %ld: atom %d (%s): %s%s", lig->source ? lig->source : "?", a->line, lig->record,
                    atom + 1, a->name, fmt, what);
}

/* Each W must sit where Meeko puts it (2.0 Å from an HD along its bond, 3.0 Å from an acceptor)
 * on an atom of its own body, or it does not move with any polar atom in the search. */
static vsg_status check_waters(const vsg_ligand *lig, const vsg_torsions *tor, const kind *k, const double *xyz)
{
    const int n = lig->natoms;
    for (int i = 0; i < n; i++) {
        if (!k[i].water) continue;
        int anchor = -1, near = -1;
        double dnear = HUGE_VAL;
        for (int j = 0; j < n && anchor < 0; j++) {
            if (k[j].water || !(k[j].hd || k[j].el == EL_N || k[j].el == EL_O || k[j].el == EL_S)) continue;
            const double d = sqrt(d2(&xyz[3 * i], &xyz[3 * j])), want = k[j].hd ? 2.0 : 3.0;
            if (tor->body[j] == tor->body[i] && fabs(d - want) <= VSG_W_ANCHOR_TOL) anchor = j;
            else if (d < dnear) dnear = d, near = j;
        }
        if (anchor >= 0) continue;
        char why[400];
        if (near >= 0)
            snprintf(why, sizeof why, "the nearest polar atom, %d (%s, %s), is %.2f A away%s", near + 1, lig->atoms[near].name,
                     lig->atoms[near].ad_type, dnear, tor->body[near] == tor->body[i] ? "" : " and in another ROOT/BRANCH body");
        else snprintf(why, sizeof why, "the record has no polar atom");
        char msg[700];
        snprintf(msg, sizeof msg, "a W (hydrated-docking water) sits %.1f A from a polar hydrogen HD or %.1f A from an "
                 "N/O/S acceptor (within %.1f A) in the same ROOT/BRANCH body, as Meeko's -w places it; here %s: "
                 "prepare the ligand again with mk_prepare_ligand.py -w", 2.0, 3.0, VSG_W_ANCHOR_TOL, why);
        return vsg_fail(VSG_E_DATA, "%s:%d: record %ld: atom %d (%s): misplaced W: %s", lig->source ? lig->source : "?",
                        lig->atoms[i].line, lig->record, i + 1, lig->atoms[i].name, msg);
    }
    return VSG_OK;
}

static vsg_status build_model(const vsg_ligand *lig, const vsg_torsions *tor, vsg_vina_ligand *L, int waters)
{
    const int n = lig->natoms;
    vsg_status st = VSG_OK;
    kind *k = malloc(sizeof *k * (size_t)n);
    char *rigid = calloc((size_t)n * (size_t)n, 1);
    int *bi = NULL, *bj = NULL, *adj_start = calloc((size_t)n + 1, sizeof(int)), *adj = NULL;
    char *seen = calloc((size_t)n, 1);
    unsigned *closure = calloc((size_t)n, sizeof *closure);
    int nb = 0, cap = 0;
    if (!k || !rigid || !adj_start || !seen || !closure) { st = vsg_fail(VSG_E_NOMEM, "vina model: out of memory"); goto done; }
    for (int i = 0; i < n; i++) {
        const char *t = lig->atoms[i].ad_type;
        if (!strcmp(t, "W") && waters) { /* Vina's AD_TYPE_W: element Dummy, covalent radius 0 */
            k[i] = (kind){EL_Dummy, 1, 0, 0, 0.0, -1, 1};
        } else if (!strcmp(t, "W")) {
            st = model_fail(lig, VSG_E_DATA, i, "W is a hydrated-docking water (Meeko's -w): ",
                            "the Vina and Vinardo functions do not model it (Vina's documentation advises against "
                            "it); dock it with `vsgrid dock PREFIX LIG.pdbqt --scoring ad4` on an AutoDock4 map set "
                            "with a W map (`vsgrid maps REC.pdbqt --scoring ad4 --hydrated`), or prepare the "
                            "ligand without -w");
            goto done;
        } else if (!kind_of(t, &k[i])) {
            char why[400];
            snprintf(why, sizeof why, "%s: Vina has no atom type (no map, no parameters) for it; it types ligands of "
                     "H C N O F P S Cl Br I, the metals Mg Ca Mn Fe Zn and Meeko's macrocycle closure types CG0-CG3 and "
                     "G0-G3: leave the molecule out or replace the atom",
                     t[0] ? t : "(none)");
            st = model_fail(lig, VSG_E_DATA, i, "no XS type for AutoDock type ", why);
            goto done;
        }
        L->xyz[3 * i] = lig->atoms[i].x, L->xyz[3 * i + 1] = lig->atoms[i].y, L->xyz[3 * i + 2] = lig->atoms[i].z;
        L->line[i] = lig->atoms[i].line;
    }
    if (waters && (st = check_waters(lig, tor, k, L->xyz)) != VSG_OK) goto done;
    /* rigid pairs: members of one group = a body plus the atoms across its rotatable bonds
     * (Vina fixes a branch's axis atoms to the branch and to its sub-branches' axis atoms) */
    {
        int *member = malloc(sizeof *member * (size_t)(n + 2 * tor->nrotors + 1));
        if (!member) { st = vsg_fail(VSG_E_NOMEM, "vina model: out of memory"); goto done; }
        for (int g = 0; g < tor->nbodies; g++) {
            int nm = 0;
            for (int i = 0; i < n; i++)
                if (tor->body[i] == g) member[nm++] = i;
            for (int r = 0; r < tor->nrotors; r++)
                for (int s = 0; s < 2; s++)
                    if (tor->body[tor->rotor[r][1 - s]] == g) member[nm++] = tor->rotor[r][s];
            for (int a = 0; a < nm; a++)
                for (int b = 0; b < nm; b++) rigid[(size_t)member[a] * n + member[b]] = 1;
        }
        free(member);
    }
    for (int r = 0; r < tor->nrotors; r++) { /* the axis itself: rigid, and rotatable (2) */
        int a = tor->rotor[r][0], b = tor->rotor[r][1];
        rigid[(size_t)a * n + b] = rigid[(size_t)b * n + a] = 2;
    }
    /* Vina's bonds: rigid pairs within 1.1 × the covalent bond length, no rigid atom between */
    int *rel = malloc(sizeof *rel * (size_t)n);
    if (!rel) { st = vsg_fail(VSG_E_NOMEM, "vina model: out of memory"); goto done; }
    for (int i = 0; i < n; i++) {
        int nrel = 0;
        if (k[i].water) continue; /* radius 0: Vina bonds it to nothing Meeko puts near it; never */
        const double reach = 1.1 * (k[i].cov + MAX_COVALENT);
        for (int j = 0; j < n; j++)
            if (j != i && rigid[(size_t)i * n + j] && d2(&L->xyz[3 * i], &L->xyz[3 * j]) < reach * reach) rel[nrel++] = j;
        for (int q = 0; q < nrel; q++) {
            int j = rel[q];
            if (j <= i || k[j].water) continue;
            double r2 = d2(&L->xyz[3 * i], &L->xyz[3 * j]), len = 1.1 * (k[i].cov + k[j].cov);
            if (!(r2 < len * len)) continue;
            int between = 0;
            for (int c = 0; c < nrel && !between; c++) {
                int x = rel[c];
                if (x == j) continue;
                if (rigid[(size_t)i * n + x] && rigid[(size_t)j * n + x] && d2(&L->xyz[3 * i], &L->xyz[3 * x]) < r2 &&
                    d2(&L->xyz[3 * j], &L->xyz[3 * x]) < r2)
                    between = 1;
            }
            if (between) continue;
            if (nb == cap) {
                cap = cap ? 2 * cap : 64;
                int *na = realloc(bi, sizeof *bi * (size_t)cap), *nbb = na ? realloc(bj, sizeof *bj * (size_t)cap) : NULL;
                if (na) bi = na;
                if (nbb) bj = nbb;
                if (!na || !nbb) { free(rel); st = vsg_fail(VSG_E_NOMEM, "vina model: out of memory"); goto done; }
            }
            bi[nb] = i, bj[nb] = j, nb++;
        }
    }
    free(rel);
    /* adjacency in the order Vina's bond lists have: bonds found from lower atoms first */
    adj = malloc(sizeof *adj * (size_t)(2 * nb + 1));
    if (!adj) { st = vsg_fail(VSG_E_NOMEM, "vina model: out of memory"); goto done; }
    for (int e = 0; e < nb; e++) adj_start[bi[e] + 1]++, adj_start[bj[e] + 1]++;
    for (int i = 0; i < n; i++) adj_start[i + 1] += adj_start[i];
    {
        int *fill = calloc((size_t)n, sizeof *fill);
        if (!fill) { st = vsg_fail(VSG_E_NOMEM, "vina model: out of memory"); goto done; }
        /* atom x: its bonds to lower atoms (ascending, as those atoms found them), then its own */
        for (int e = 0; e < nb; e++) adj[adj_start[bj[e]] + fill[bj[e]]++] = bi[e];
        for (int e = 0; e < nb; e++) adj[adj_start[bi[e]] + fill[bi[e]]++] = bj[e];
        free(fill);
    }
    /* XS types (Vina's assign_types) */
    int heavy = 0;
    for (int i = 0; i < n; i++) {
        int hetero_nb = 0, hd_nb = 0;
        for (int e = adj_start[i]; e < adj_start[i + 1]; e++) {
            hetero_nb |= k[adj[e]].hetero;
            hd_nb |= k[adj[e]].hd;
        }
        int donor = k[i].el == EL_Met || hd_nb, acc = k[i].acceptor;
        vsg_xs_type x = VSG_XS_NONE;
        switch (k[i].el) {
        case EL_H: break;
        case EL_C: x = hetero_nb ? VSG_XS_C_P : VSG_XS_C_H; break;
        case EL_N: x = acc && donor ? VSG_XS_N_DA : acc ? VSG_XS_N_A : donor ? VSG_XS_N_D : VSG_XS_N_P; break;
        case EL_O: x = acc && donor ? VSG_XS_O_DA : acc ? VSG_XS_O_A : donor ? VSG_XS_O_D : VSG_XS_O_P; break;
        case EL_S: x = VSG_XS_S_P; break;
        case EL_P: x = VSG_XS_P_P; break;
        case EL_F: x = VSG_XS_F_H; break;
        case EL_Cl: x = VSG_XS_Cl_H; break;
        case EL_Br: x = VSG_XS_Br_H; break;
        case EL_I: x = VSG_XS_I_H; break;
        case EL_Si: x = VSG_XS_Si; break;
        case EL_At: x = VSG_XS_At; break;
        case EL_Dummy: break; /* a glue pseudo-atom: no map */
        default: x = VSG_XS_Met_D; break;
        }
        L->xs[i] = x;
        if (k[i].el != EL_H && k[i].el != EL_Dummy) heavy++;
    }
    /* macrocycle closure: each Gk bonded to one atom, a CGk; each CGk to a Gk (Meeko's layout);
     * closure[i]: the labels of the CG atoms among i and its neighbours (is_closure_clash) */
    for (int i = 0; i < n; i++) {
        if (k[i].glue < 0) continue;
        int partner = 0, other = 0;
        for (int e = adj_start[i]; e < adj_start[i + 1]; e++) {
            const int a = adj[e];
            if (k[a].glue == k[i].glue && (k[a].el == EL_Dummy) != (k[i].el == EL_Dummy)) partner++;
            else if (k[i].el == EL_Dummy) other++;
        }
        if (partner != 1 || other) {
            char why[300];
            snprintf(why, sizeof why, "%s is bonded to %d %s%d atom%s%s: Meeko's macrocycle closure puts one G%d on each "
                     "CG%d carbon (the ring bond it opened), a Vina bond length away", lig->atoms[i].ad_type, partner,
                     k[i].el == EL_Dummy ? "CG" : "G", k[i].glue, partner == 1 ? "" : "s",
                     other ? " and to other atoms" : "", k[i].glue, k[i].glue);
            st = model_fail(lig, VSG_E_DATA, i, "bad macrocycle closure: ", why);
            goto done;
        }
        if (k[i].el == EL_C) {
            closure[i] |= 1u << k[i].glue;
            for (int e = adj_start[i]; e < adj_start[i + 1]; e++) closure[adj[e]] |= 1u << k[i].glue;
        }
    }
    /* pairs: free to move relative to each other, more than 3 bonds apart, both typed; glue pairs
     * (Gk with a CGk) apart; no other pair of a G, none across a closure bond (model.cpp) */
    int pcap = 0, gcap = 0;
    for (int i = 0; i < n; i++) {
        memset(seen, 0, (size_t)n);
        walk(adj_start, adj, i, 3, seen);
        for (int j = i + 1; j < n; j++) {
            if (rigid[(size_t)i * n + j] || seen[j]) continue;
            if (k[i].glue >= 0 || k[j].glue >= 0) {
                const int gi = k[i].el == EL_Dummy, gj = k[j].el == EL_Dummy;
                if ((gi || gj) && !(gi && gj) && k[i].glue == k[j].glue) { /* Gk – CGk: glue */
                    if (L->nglue == gcap) {
                        gcap = gcap ? 2 * gcap : 4;
                        int(*ng)[2] = realloc(L->glue, sizeof *ng * (size_t)gcap);
                        if (!ng) { st = vsg_fail(VSG_E_NOMEM, "vina model: out of memory"); goto done; }
                        L->glue = ng;
                    }
                    L->glue[L->nglue][0] = gi ? i : j, L->glue[L->nglue][1] = gi ? j : i;
                    L->nglue++;
                    continue;
                }
            }
            if (closure[i] & closure[j]) continue;
            if (L->xs[i] == VSG_XS_NONE || L->xs[j] == VSG_XS_NONE) continue;
            if (L->npairs == pcap) {
                pcap = pcap ? 2 * pcap : 256;
                int(*np)[2] = realloc(L->pair, sizeof *np * (size_t)pcap);
                if (!np) { st = vsg_fail(VSG_E_NOMEM, "vina model: out of memory"); goto done; }
                L->pair = np;
            }
            L->pair[L->npairs][0] = i, L->pair[L->npairs][1] = j;
            L->npairs++;
        }
    }
    /* N_rot: ½ per heavy atom and rotatable bond to a heavy atom with more than one heavy neighbour */
    double ntors = 0;
    for (int i = 0; i < n; i++) {
        if (k[i].el == EL_H) continue;
        int ar = 0;
        for (int e = adj_start[i]; e < adj_start[i + 1]; e++) {
            int a = adj[e];
            if (rigid[(size_t)i * n + a] != 2 || k[a].el == EL_H) continue;
            int heavy_nb = 0;
            for (int f = adj_start[a]; f < adj_start[a + 1]; f++) heavy_nb += k[adj[f]].el != EL_H;
            if (heavy_nb > 1) ar++;
        }
        ntors += 0.5 * ar;
    }
    L->info.natoms = n;
    L->info.heavy_atoms = heavy;
    L->info.bodies = tor->nbodies;
    L->info.rotors = tor->nrotors;
    L->info.torsdof = tor->torsdof;
    L->info.num_tors = ntors;
    L->info.nbonds = nb;
    L->info.npairs = L->npairs;
    L->info.nglue = L->nglue;
done:
    free(closure);
    free(k);
    free(rigid);
    free(bi);
    free(bj);
    free(adj_start);
    free(adj);
    free(seen);
    return st;
}

static vsg_status ligand_new(const vsg_ligand *lig, vsg_vina_ligand **out, int waters);

vsg_status vsg_vina_ligand_new(const vsg_ligand *lig, vsg_vina_ligand **out) { return ligand_new(lig, out, 0); }

vsg_status vsg_vina_ligand_new_ad4(const vsg_ligand *lig, vsg_vina_ligand **out) { return ligand_new(lig, out, 1); }

static vsg_status ligand_new(const vsg_ligand *lig, vsg_vina_ligand **out, int waters)
{
    if (!out) return vsg_fail(VSG_E_ARG, "vsg_vina_ligand_new: NULL argument");
    *out = NULL;
    if (!lig) return vsg_fail(VSG_E_ARG, "vsg_vina_ligand_new: NULL argument");
    if (lig->status != VSG_OK) return vsg_fail(VSG_E_ARG, "vsg_vina_ligand_new: a failed record (%s)", lig->code);
    const int pdbqt = lig->format == VSG_LIG_PDBQT;
    if (pdbqt && !lig->text)
        return vsg_fail(VSG_E_ARG, "vsg_vina_ligand_new: PDBQT record without its text (the reader needs keep_text)");
    vsg_ligand work;
    vsg_ligand_init(&work);
    const vsg_ligand *src = lig;
    vsg_status st = VSG_OK;
    if (!pdbqt) { /* SDF/MOL2/PDB: AutoDock types, non-polar hydrogens merged, as the preparation tools do */
        if ((st = vsg_ligand_copy(&work, lig)) != VSG_OK) goto fail;
        if ((st = vsg_ligand_assign_ad_types(&work)) != VSG_OK) goto fail;
        vsg_ligand_merge_nonpolar_h(&work);
        /* Meeko's flexible macrocycles (unless the record keeps them rigid); not for AutoDock4,
           whose map sets have no CGk/Gk types */
        if (!waters && vsg_macrocycle_open(&work, NULL) < 0) { st = VSG_E_NOMEM; goto fail; }
        src = &work;
    }
    if (src->natoms < 1) { st = vsg_fail(VSG_E_DATA, "%s: record %ld: no atoms", lig->source ? lig->source : "?", lig->record); goto fail; }
    if (src->natoms > VSG_VINA_MAX_ATOMS) {
        st = vsg_fail(VSG_E_LIMIT, "%s: record %ld: %d atoms, over the %d a Vina model takes", lig->source ? lig->source : "?",
                      lig->record, src->natoms, VSG_VINA_MAX_ATOMS);
        goto fail;
    }
    vsg_torsions tor;
    st = pdbqt ? vsg_torsions_from_pdbqt(src, &tor) : vsg_torsions_from_bonds(src, &tor);
    if (st != VSG_OK) goto fail;
    vsg_vina_ligand *L = calloc(1, sizeof *L);
    if (L) {
        L->natoms = src->natoms;
        L->xyz = malloc(sizeof *L->xyz * 3 * (size_t)src->natoms);
        L->xs = malloc(sizeof *L->xs * (size_t)src->natoms);
        L->line = malloc(sizeof *L->line * (size_t)src->natoms);
    }
    if (!L || !L->xyz || !L->xs || !L->line) st = vsg_fail(VSG_E_NOMEM, "vina model: out of memory");
    else st = build_model(src, &tor, L, waters);
    vsg_torsions_release(&tor);
    if (st != VSG_OK) {
        vsg_vina_ligand_free(L);
        goto fail;
    }
    vsg_ligand_release(&work);
    *out = L;
    return VSG_OK;
fail:
    vsg_ligand_release(&work);
    return st;
}
