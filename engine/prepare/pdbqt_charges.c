/* pdbqt_charges.c — a PDBQT receptor as AutoDock's preparation gives it: Gasteiger charges over
 * the whole structure (bonds and orders of the standard residues and nucleotides from the
 * templates, formal charges of charged residues, termini and phosphates spread over their
 * groups), AutoDock 4 types, non-polar hydrogens merged into their carbons. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/prepare/prep_model.h"

static int find_out(const job *j, int first, int count, const char *name)
{
    /* a nucleotide's phosphate O is written as read: O1P or OP1 */
    const char *other = first >= 0 && j->m.r[j->res_of[first]].kind == 3 ? prep_na_other_name(name) : NULL;
    for (int i = first; first >= 0 && i < first + count; i++)
        if (strcmp(j->out[i].name, name) == 0 || (other && strcmp(j->out[i].name, other) == 0))
            return i;
    return -1;
}

/* A bond a–b, or a higher order for it when bonds[from..] has it already: a residue's bonds are
 * all added in its own block (from = the block's first bond), so the scan stays in the residue. */
static int add_bond(vsg_ligand *lig, int from, int a, int b, int order)
{
    if (a < 0 || b < 0 || a == b)
        return 1;
    for (int e = from; e < lig->nbonds; e++)
        if ((lig->bonds[e].a == a && lig->bonds[e].b == b) || (lig->bonds[e].a == b && lig->bonds[e].b == a)) {
            lig->bonds[e].order = order > lig->bonds[e].order ? order : lig->bonds[e].order;
            return 1;
        }
    if (lig->nbonds == lig->bonds_cap) {
        int cap = lig->bonds_cap ? 2 * lig->bonds_cap : 4096;
        vsg_lig_bond *t = realloc(lig->bonds, (size_t)cap * sizeof *t);
        if (!t)
            return 0;
        lig->bonds = t;
        lig->bonds_cap = cap;
    }
    lig->bonds[lig->nbonds++] = (vsg_lig_bond){a, b, order};
    return 1;
}

/* Double and aromatic bonds of the standard residues (formal charges: by protonation state, in
 * prep_pdbqt_charges: LYS NZ, ARG NH2, HIP NE2 +1; ASP OD2, GLU OE2, CYM SG −1; ASH, GLH, LYN,
 * HID, HIE 0). */
static const char *const multiple_bonds[] = {
    "* C O 2",      "ASP CG OD1 2",  "GLU CD OE1 2",  "ASN CG OD1 2",  "GLN CD OE1 2",  "ARG CZ NH2 2",
    "PHE CG CD1 4", "PHE CD1 CE1 4", "PHE CE1 CZ 4",  "PHE CZ CE2 4",  "PHE CE2 CD2 4", "PHE CD2 CG 4",
    "TYR CG CD1 4", "TYR CD1 CE1 4", "TYR CE1 CZ 4",  "TYR CZ CE2 4",  "TYR CE2 CD2 4", "TYR CD2 CG 4",
    "TRP CG CD1 4", "TRP CD1 NE1 4", "TRP NE1 CE2 4", "TRP CE2 CD2 4", "TRP CD2 CG 4",  "TRP CE2 CZ2 4",
    "TRP CZ2 CH2 4", "TRP CH2 CZ3 4", "TRP CZ3 CE3 4", "TRP CE3 CD2 4", "HI* CG ND1 4", "HI* ND1 CE1 4",
    "HI* CE1 NE2 4", "HI* NE2 CD2 4", "HI* CD2 CG 4",  NULL};

/* Nucleotides, by base (the form's second letter): the base rings aromatic, their exocyclic
 * C=O double, the phosphate's P=O1P double (its O2P −1 in prep_pdbqt_charges). */
static const char *const nucleotide_bonds[] = {
    "* P O1P 2",   "AG N9 C8 4", "AG C8 N7 4", "AG N7 C5 4", "AG C5 C4 4", "AG C4 N9 4", "AG C5 C6 4",
    "AG C6 N1 4",  "AG N1 C2 4", "AG C2 N3 4", "AG N3 C4 4", "G C6 O6 2",  "CTU N1 C2 4", "CTU C2 N3 4",
    "CTU N3 C4 4", "CTU C4 C5 4", "CTU C5 C6 4", "CTU C6 N1 4", "CTU C2 O2 2", "TU C4 O4 2", NULL};

static int res_matches(const char *pat, const char *ff)
{
    if (strcmp(pat, "*") == 0)
        return 1;
    if (strcmp(pat, "HI*") == 0)
        return strncmp(ff, "HI", 2) == 0;
    return strcmp(pat, ff) == 0;
}

/* A HETATM group's atoms in depth-first order over its bonds (from distances), so that bonded
 * atoms lie close in the file: autogrid4 looks for an atom's bonds among its near neighbours in
 * file order only (a DUD-E NAD lists its hydroxyl O 30 atoms after their carbons). */
static int reorder_group(patom *a, int n)
{
    if (n < 3)
        return 1;
    /* iterative depth-first search, an atom emitted when popped; its terminal neighbours (one
       bond: O, N, halogens) right after it */
    int cap = 8 * n + 16, k = 0; /* pushes: at most one per bond end */
    patom *tmp = malloc((size_t)n * sizeof *tmp);
    int *stack = malloc((size_t)cap * sizeof *stack), *done = calloc((size_t)n, sizeof *done);
    if (!tmp || !stack || !done) {
        free(tmp);
        free(stack);
        free(done);
        return 0;
    }
#define BONDED(I, J)                                                                                        \
    ((I) != (J) && prep_covalent_radius(a[I].element) > 0 && prep_covalent_radius(a[J].element) > 0 &&                \
     prep_dist2(a[I].x, a[J].x) <= (prep_covalent_radius(a[I].element) + prep_covalent_radius(a[J].element) + 0.45) *       \
                                  (prep_covalent_radius(a[I].element) + prep_covalent_radius(a[J].element) + 0.45))
    for (int root = 0; root < n; root++) {
        if (done[root])
            continue;
        int top = 0;
        stack[top++] = root;
        while (top) {
            int x = stack[--top];
            if (done[x])
                continue;
            done[x] = 1;
            tmp[k++] = a[x];
            for (int y = 0; y < n; y++) {
                if (done[y] || !BONDED(x, y))
                    continue;
                int degree = 0;
                for (int z = 0; z < n && degree < 2; z++)
                    degree += BONDED(y, z);
                if (degree == 1) {
                    done[y] = 1;
                    tmp[k++] = a[y];
                }
            }
            for (int y = n - 1; y >= 0; y--) /* pushed in reverse: visited in file order */
                if (!done[y] && BONDED(x, y) && top < cap)
                    stack[top++] = y;
        }
    }
#undef BONDED
    memcpy(a, tmp, (size_t)n * sizeof *tmp);
    free(tmp);
    free(stack);
    free(done);
    return 1;
}

/* A water's Gasteiger charges (O, H): AutoDock's receptor preparation (prepare_receptor4.py
 * with waters kept, -U nphs_lps) adds their hydrogens and charges each water, a molecule of its
 * own, by Gasteiger like the protein; types OA and HD (a donor). The same method, through Open
 * Babel, on one H2O (charges depend on the bonds only, not on the orientation). */
static vsg_status water_gasteiger(double *qo, double *qh)
{
    vsg_ligand w;
    vsg_ligand_init(&w);
    w.atoms = calloc(3, sizeof *w.atoms);
    w.bonds = calloc(2, sizeof *w.bonds);
    if (!w.atoms || !w.bonds) {
        vsg_ligand_release(&w);
        return vsg_fail(VSG_E_NOMEM, "out of memory");
    }
    w.atoms_cap = 3, w.bonds_cap = 2, w.natoms = 3, w.nbonds = 2;
    static const char *const el[3] = {"O", "H", "H"};
    for (int i = 0; i < 3; i++) {
        snprintf(w.atoms[i].element, sizeof w.atoms[i].element, "%s", el[i]);
        snprintf(w.atoms[i].name, sizeof w.atoms[i].name, "%s", el[i]);
        w.atoms[i].x = i == 1 ? 0.9572 : i == 2 ? -0.2400 : 0;
        w.atoms[i].y = i == 2 ? 0.9266 : 0;
    }
    w.bonds[0] = (vsg_lig_bond){0, 1, 1}, w.bonds[1] = (vsg_lig_bond){0, 2, 1};
    vsg_status st = vsg_ligand_gasteiger(&w);
    if (st == VSG_OK)
        *qo = w.atoms[0].charge, *qh = w.atoms[1].charge;
    vsg_ligand_release(&w);
    return st;
}

vsg_status prep_pdbqt_charges(job *j, vsg_ligand *lig)
{
    model *m = &j->m;
    double water_q[2] = {0, 0};
    for (int i = 0; i < j->nout; i++)
        if (m->r[j->res_of[i]].kind == 1) {
            vsg_status st = water_gasteiger(&water_q[0], &water_q[1]);
            if (st != VSG_OK)
                return st;
            break;
        }
    /* ions and waters last, outside the Gasteiger molecule (Open Babel has no parameters for
       metal ions): ions keep their formal charge, waters their own Gasteiger charges */
    patom *tmp = malloc((size_t)j->nout * sizeof *tmp);
    int *tres_of = malloc((size_t)j->nout * sizeof *tres_of), ng = 0;
    if (!tmp || !tres_of) {
        free(tmp);
        free(tres_of);
        return vsg_fail(VSG_E_NOMEM, "out of memory");
    }
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0, k = pass ? ng : 0; i < j->nout; i++) {
            const pres *p = &m->r[j->res_of[i]];
            int metal = p->kind == 2 && prep_covalent_radius(j->out[i].element) <= 0;
            int tail = p->kind == 1 || metal || (p->kind == 2 && p->n == 1 && prep_ion_charge(j->out[i].element) != 99);
            if (tail != pass)
                continue;
            int wh = p->kind == 1 && !strcmp(j->out[i].element, "H");
            if (tail) {
                const char *type = p->kind == 1 ? (wh ? "HD" : "OA") : j->out[i].element;
                snprintf(j->out[i].ad, sizeof j->out[i].ad, "%s", type);
                int qi = prep_ion_charge(j->out[i].element);
                j->out[i].q = p->kind == 1 ? water_q[wh] : qi == 99 ? 0 : qi;
            }
            tmp[k] = j->out[i];
            tres_of[k++] = j->res_of[i];
            if (!pass)
                ng = k;
        }
    memcpy(j->out, tmp, (size_t)j->nout * sizeof *tmp);
    memcpy(j->res_of, tres_of, (size_t)j->nout * sizeof *tres_of);
    free(tmp);
    free(tres_of);
    for (int i = 0; i < ng;) {
        int e = i;
        while (e < ng && j->res_of[e] == j->res_of[i])
            e++;
        if (m->r[j->res_of[i]].kind == 2 && !reorder_group(j->out + i, e - i))
            return vsg_fail(VSG_E_NOMEM, "out of memory");
        i = e;
    }
    lig->atoms = calloc((size_t)ng + 1, sizeof *lig->atoms);
    if (!lig->atoms)
        return vsg_fail(VSG_E_NOMEM, "out of memory");
    lig->atoms_cap = ng + 1;
    lig->natoms = ng;
    for (int i = 0; i < ng; i++) {
        vsg_lig_atom *d = &lig->atoms[i];
        memcpy(d->element, j->out[i].element, sizeof d->element);
        snprintf(d->name, sizeof d->name, "%s", j->out[i].name);
        d->x = j->out[i].x[0], d->y = j->out[i].x[1], d->z = j->out[i].x[2];
        d->formal = (int)lround(j->out[i].q) * (j->res_of[i] >= 0 && m->r[j->res_of[i]].kind == 2);
    }
    /* per residue: first output atom, atom by name */
    int *first = malloc((size_t)m->nr * sizeof *first), *count = calloc((size_t)m->nr, sizeof *count);
    if (!first || !count) {
        free(first);
        free(count);
        return vsg_fail(VSG_E_NOMEM, "out of memory");
    }
    for (int r = 0; r < m->nr; r++)
        first[r] = -1;
    for (int i = 0; i < ng; i++) {
        if (first[j->res_of[i]] < 0)
            first[j->res_of[i]] = i;
        count[j->res_of[i]]++;
    }
#define ATOM_OF(res, nm) find_out(j, first[res], count[res], nm)
    int ok = 1;
    for (int r = 0; r < m->nr && ok; r++) {
        pres *p = &m->r[r];
        if (first[r] < 0)
            continue;
        if (p->kind != 0 && p->kind != 3) {
            int from = lig->nbonds;
            for (int a = first[r]; a < first[r] + count[r]; a++)
                for (int b = a + 1; b < first[r] + count[r]; b++) {
                    double ra = prep_covalent_radius(j->out[a].element), rb = prep_covalent_radius(j->out[b].element);
                    double lim = ra + rb + 0.45;
                    if (ra > 0 && rb > 0 && prep_dist2(j->out[a].x, j->out[b].x) < lim * lim)
                        ok &= add_bond(lig, from, a, b, 1);
                }
            if (ok) {
                prep_mark_planar_rings(lig, from);
                prep_mark_oxo_groups(lig, from);
            }
            continue;
        }
        const int block = lig->nbonds; /* this residue's bonds, its links to earlier ones included */
        tres t;
        prep_residue_template(p, &t);
        for (int k = 0; k < t.n; k++)
            for (int b = 0; b < t.a[k].nb; b++)
                ok &= add_bond(lig, block, ATOM_OF(r, t.a[k].name), ATOM_OF(r, t.a[k].bond[b]), 1);
        if (p->kind == 3) {
            for (int e = 0; nucleotide_bonds[e]; e++) {
                char bases[8], a1[8], a2[8];
                int order;
                if (sscanf(nucleotide_bonds[e], "%7s %7s %7s %d", bases, a1, a2, &order) == 4 &&
                    (bases[0] == '*' || strchr(bases, p->ff[1])))
                    ok &= add_bond(lig, block, ATOM_OF(r, a1), ATOM_OF(r, a2), order);
            }
            int f;
            if (p->prev >= 0)
                ok &= add_bond(lig, block, ATOM_OF(p->prev, "O3'"), ATOM_OF(r, "P"), 1);
            if ((f = ATOM_OF(r, "O2P")) >= 0)
                lig->atoms[f].formal = -1;
            continue;
        }
        for (int e = 0; multiple_bonds[e]; e++) {
            char rp[8], a1[8], a2[8];
            int order;
            if (sscanf(multiple_bonds[e], "%7s %7s %7s %d", rp, a1, a2, &order) == 4 && res_matches(rp, p->ff))
                ok &= add_bond(lig, block, ATOM_OF(r, a1), ATOM_OF(r, a2), order);
        }
        if (p->prev >= 0)
            ok &= add_bond(lig, block, ATOM_OF(p->prev, "C"), ATOM_OF(r, "N"), 1);
        int f;
        if (p->nterm && (f = ATOM_OF(r, "N")) >= 0)
            lig->atoms[f].formal = 1;
        if (p->cterm && (f = ATOM_OF(r, "OXT")) >= 0)
            lig->atoms[f].formal = -1;
        if (!strcmp(p->ff, "LYS") && (f = ATOM_OF(r, "NZ")) >= 0)
            lig->atoms[f].formal = 1;
        if (!strcmp(p->ff, "ARG") && (f = ATOM_OF(r, "NH2")) >= 0)
            lig->atoms[f].formal = 1;
        if (!strcmp(p->ff, "ASP") && (f = ATOM_OF(r, "OD2")) >= 0)
            lig->atoms[f].formal = -1;
        if (!strcmp(p->ff, "GLU") && (f = ATOM_OF(r, "OE2")) >= 0)
            lig->atoms[f].formal = -1;
        if (!strcmp(p->ff, "HIP") && (f = ATOM_OF(r, "NE2")) >= 0)
            lig->atoms[f].formal = 1;
        if (!strcmp(p->ff, "CYM") && (f = ATOM_OF(r, "SG")) >= 0)
            lig->atoms[f].formal = -1;
        if (!strcmp(p->ff, "CYX")) {
            int sg = ATOM_OF(r, "SG");
            for (int s = r + 1; sg >= 0 && s < m->nr; s++) {
                if (m->r[s].kind != 0 || strcmp(m->r[s].ff, "CYX") != 0 || first[s] < 0)
                    continue;
                int sg2 = ATOM_OF(s, "SG");
                if (sg2 >= 0 && prep_dist2(j->out[sg].x, j->out[sg2].x) < 2.5 * 2.5)
                    ok &= add_bond(lig, block, sg, sg2, 1);
            }
        }
    }
#undef ATOM_OF
    free(first);
    free(count);
    if (!ok)
        return vsg_fail(VSG_E_NOMEM, "out of memory");
    vsg_status st = vsg_ligand_gasteiger(lig);
    if (st != VSG_OK)
        return st;
    st = vsg_ligand_assign_ad_types(lig);
    if (st != VSG_OK)
        return st;
    st = prep_spread_formal_charges(lig);
    if (st != VSG_OK)
        return st;
    for (int i = 0; i < lig->natoms; i++) {
        j->out[i].q = lig->atoms[i].charge;
        snprintf(j->out[i].ad, sizeof j->out[i].ad, "%.2s", lig->atoms[i].ad_type); /* assigned: 2 letters at most */
        if (!strcmp(j->out[i].ad, "S"))
            snprintf(j->out[i].ad, sizeof j->out[i].ad, "SA"); /* AutoDockTools' receptor sulfur */
    }
    /* non-polar H merged into their carbon (AutoDock's receptor preparation) */
    for (int e = 0; e < lig->nbonds; e++) {
        int a = lig->bonds[e].a, b = lig->bonds[e].b;
        if (!strcmp(j->out[a].element, "H"))
            a = b, b = lig->bonds[e].a;
        if (strcmp(j->out[b].element, "H") != 0 || strcmp(j->out[a].element, "C") != 0)
            continue;
        j->out[a].q += j->out[b].q;
        j->out[b].ad[0] = '-'; /* dropped when written */
    }
    return VSG_OK;
}
