/* molfile_chemistry.c — element symbols and formal charges for the molfiles vsgrid writes
 * (molfile_chemistry.h): records read from MOL2, PDBQT or PDB carry neither as a molfile needs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/screen/molfile_chemistry.h"
#include "ligands/bond_orders.h"

const char *vsg_molfile_element(const vsg_lig_atom *a, char el[4])
{
    if (a->element[0]) snprintf(el, 4, "%s", a->element);
    else if (!strcmp(a->ad_type, "A")) strcpy(el, "C");
    else if (!strcmp(a->ad_type, "Cl") || !strcmp(a->ad_type, "Br") || !strcmp(a->ad_type, "Zn") ||
             !strcmp(a->ad_type, "Fe") || !strcmp(a->ad_type, "Mg") || !strcmp(a->ad_type, "Mn") ||
             !strcmp(a->ad_type, "Ca"))
        snprintf(el, 4, "%s", a->ad_type);
    else if (a->ad_type[0]) snprintf(el, 4, "%c", a->ad_type[0]);
    else snprintf(el, 4, "%c", a->name[0] ? a->name[0] : 'C');
    return el;
}

static int is_el(const vsg_ligand *l, int i, const char *el)
{
    char e[4];
    return !strcmp(vsg_molfile_element(&l->atoms[i], e), el);
}

/* 1 when atom i has two aromatic bonds that close a six-membered ring of aromatic bonds (an N
 * there with a third neighbour is a pyridinium's). */
static int aromatic_ring6(const vsg_ligand *l, int i)
{
    int nb[2], n = 0;
    for (int k = 0; k < l->nbonds; k++)
        if (l->bonds[k].order == VSG_BOND_AROMATIC && (l->bonds[k].a == i || l->bonds[k].b == i) && n < 2)
            nb[n++] = l->bonds[k].a == i ? l->bonds[k].b : l->bonds[k].a;
    if (n != 2) return 0;
    int front[64], nf = 1, seen[64];
    int ns = 2;
    front[0] = nb[0], seen[0] = i, seen[1] = nb[0];
    for (int depth = 1; depth <= 4 && nf > 0; depth++) { /* nb[1] reached in 4 aromatic steps: a 6-ring */
        int next[64], nn = 0;
        for (int f = 0; f < nf; f++)
            for (int k = 0; k < l->nbonds; k++) {
                const vsg_lig_bond *b = &l->bonds[k];
                if (b->order != VSG_BOND_AROMATIC || (b->a != front[f] && b->b != front[f])) continue;
                const int o = b->a == front[f] ? b->b : b->a;
                if (o == nb[1]) return depth == 4;
                int old = 0;
                for (int q = 0; q < ns; q++) old |= seen[q] == o;
                if (!old && nn < 64 && ns < 64) next[nn++] = o, seen[ns++] = o;
            }
        memcpy(front, next, sizeof(int) * (size_t)nn);
        nf = nn;
    }
    return 0;
}

void vsg_molfile_infer_formal(vsg_ligand *l)
{
    for (int i = 0; i < l->natoms; i++)
        if (l->atoms[i].formal) return;
    int *deg = calloc((size_t)l->natoms * 2, sizeof *deg);
    if (!deg) return;
    int *val = deg + l->natoms;
    for (int k = 0; k < l->nbonds; k++) deg[l->bonds[k].a]++, deg[l->bonds[k].b]++;
    for (int k = 0; k < l->nbonds; k++) { /* carboxylates (and other terminal aromatic O) */
        vsg_lig_bond *b = &l->bonds[k];
        if (b->order != VSG_BOND_AROMATIC) continue;
        const int o = is_el(l, b->a, "O") && deg[b->a] == 1 ? b->a : is_el(l, b->b, "O") && deg[b->b] == 1 ? b->b : -1;
        if (o < 0) continue;
        const int c = o == b->a ? b->b : b->a;
        int first = 1;
        for (int m = 0; m < k; m++) {
            const vsg_lig_bond *q = &l->bonds[m];
            if ((q->a == c || q->b == c) && q->order == 2 && is_el(l, q->a == c ? q->b : q->a, "O") &&
                deg[q->a == c ? q->b : q->a] == 1)
                first = 0;
        }
        if (first) b->order = 2;
        else b->order = 1, l->atoms[o].formal = -1;
    }
    for (int k = 0; k < l->nbonds; k++) {
        const vsg_lig_bond *b = &l->bonds[k];
        const int o = b->order == VSG_BOND_AMIDE ? 1 : b->order;
        if (o == VSG_BOND_AROMATIC) val[b->a] = val[b->b] = -100; /* aromatic: left alone */
        else val[b->a] += o, val[b->b] += o;
    }
    for (int i = 0; i < l->natoms; i++)
        if (is_el(l, i, "N") && (deg[i] == 4 || val[i] == 4 || (deg[i] == 3 && aromatic_ring6(l, i))))
            l->atoms[i].formal = 1;
        else if (l->format == VSG_LIG_MOL2 && (is_el(l, i, "O") || is_el(l, i, "S")) && deg[i] == 1 && val[i] == 1 && !l->atoms[i].formal)
            l->atoms[i].formal = -1; /* MOL2 has its hydrogens and bond orders: O-, S- */
        else if (l->format == VSG_LIG_MOL2 && is_el(l, i, "N") && deg[i] == 2 && val[i] == 2)
            l->atoms[i].formal = -1; /* an N with two single bonds and no H: N- (a sulfonamide's anion) */
    free(deg);
}

vsg_status vsg_molfile_complete_bonds(vsg_ligand *l)
{
    if (l->nbonds > 0) return VSG_OK;
    int *pairs = NULL, n = 0;
    vsg_status st = vsg_ligand_bonds_by_distance(l, &pairs, &n);
    if (st != VSG_OK) return st;
    if (n > l->bonds_cap) {
        vsg_lig_bond *nb = realloc(l->bonds, sizeof *nb * (size_t)n);
        if (!nb) {
            free(pairs);
            return vsg_fail(VSG_E_NOMEM, "out of memory for %d bonds", n);
        }
        l->bonds = nb, l->bonds_cap = n;
    }
    for (int k = 0; k < n; k++) l->bonds[k].a = pairs[2 * k], l->bonds[k].b = pairs[2 * k + 1], l->bonds[k].order = 1;
    l->nbonds = n;
    free(pairs);
    return vsg_perceive_bond_orders(l);
}
