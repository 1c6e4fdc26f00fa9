/* het_groups.c — cofactors, ions and waters (HETATM groups): kept, bonds from distances, bond
 * orders guessed (planar rings aromatic, oxo groups), Gasteiger charges through Open Babel with
 * each formal charge spread over its group, Bondi radii; lone ions their formal charge; waters
 * (kept on request) with two hydrogens and the force field's water charges. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/prepare/prep_model.h"
#include "grids/base/constants.h"

/* Bonds of a group from distances (covalent radii + 0.45 Å). */
static vsg_status group_ligand(const patom *a, int n, vsg_ligand *lig)
{
    lig->natoms = 0;
    lig->nbonds = 0;
    lig->atoms = calloc((size_t)n, sizeof *lig->atoms);
    lig->atoms_cap = n;
    if (!lig->atoms)
        return vsg_fail(VSG_E_NOMEM, "out of memory");
    for (int i = 0; i < n; i++) {
        vsg_lig_atom *d = &lig->atoms[lig->natoms++];
        memcpy(d->element, a[i].element, sizeof d->element);
        snprintf(d->name, sizeof d->name, "%s", a[i].name);
        d->x = a[i].x[0], d->y = a[i].x[1], d->z = a[i].x[2];
    }
    for (int i = 0; i < n; i++)
        for (int k = i + 1; k < n; k++) {
            double ri = prep_covalent_radius(a[i].element), rk = prep_covalent_radius(a[k].element);
            if (ri <= 0 || rk <= 0 || prep_dist2(a[i].x, a[k].x) > (ri + rk + 0.45) * (ri + rk + 0.45))
                continue;
            if (lig->nbonds == lig->bonds_cap) {
                int cap = lig->bonds_cap ? 2 * lig->bonds_cap : 64;
                vsg_lig_bond *t = realloc(lig->bonds, (size_t)cap * sizeof *t);
                if (!t)
                    return vsg_fail(VSG_E_NOMEM, "out of memory");
                lig->bonds = t;
                lig->bonds_cap = cap;
            }
            lig->bonds[lig->nbonds++] = (vsg_lig_bond){i, k, 1};
        }
    return VSG_OK;
}

/* HETATM groups have no bond orders: the bonds of planar 5- and 6-membered rings (every ring
 * atom within 0.1 Å of the ring's mean plane) among lig->bonds[from..] become aromatic, so
 * Open Babel perceives aromatic rings and sp2 atoms (adenine, nicotinamide, flavin, haem). */
void prep_mark_planar_rings(vsg_ligand *lig, int from)
{
    int nb = lig->nbonds - from;
    if (nb <= 0)
        return;
    enum { MAXQ = 64 };
    for (int e = from; e < lig->nbonds; e++) {
        int a = lig->bonds[e].a, b = lig->bonds[e].b;
        /* breadth-first from b to a without the bond e, at most 5 bonds deep */
        int queue[MAXQ], parent[MAXQ], depth[MAXQ], head = 0, tail = 0, found = -1;
        queue[tail] = b, parent[tail] = -1, depth[tail++] = 0;
        while (head < tail && found < 0) {
            int cur = head++;
            if (depth[cur] >= 5)
                continue;
            for (int f = from; f < lig->nbonds && found < 0; f++) {
                if (f == e)
                    continue;
                int x = lig->bonds[f].a, y = lig->bonds[f].b, nxt;
                if (x == queue[cur])
                    nxt = y;
                else if (y == queue[cur])
                    nxt = x;
                else
                    continue;
                int dup = 0;
                for (int c = cur; c >= 0 && !dup; c = parent[c])
                    dup = queue[c] == nxt;
                if (dup || tail == MAXQ)
                    continue;
                queue[tail] = nxt, parent[tail] = cur, depth[tail] = depth[cur] + 1;
                if (nxt == a && depth[tail] >= 3)
                    found = tail;
                tail++;
            }
        }
        if (found < 0)
            continue;
        int ring[8], nr = 0;
        for (int c = found; c >= 0 && nr < 8; c = parent[c])
            ring[nr++] = queue[c];
        if (nr < 5 || nr > 6)
            continue;
        double cen[3] = {0}, nrm[3] = {0};
        for (int i = 0; i < nr; i++) {
            const vsg_lig_atom *u = &lig->atoms[ring[i]], *v = &lig->atoms[ring[(i + 1) % nr]];
            cen[0] += u->x / nr, cen[1] += u->y / nr, cen[2] += u->z / nr;
            nrm[0] += (u->y - v->y) * (u->z + v->z); /* Newell's normal */
            nrm[1] += (u->z - v->z) * (u->x + v->x);
            nrm[2] += (u->x - v->x) * (u->y + v->y);
        }
        double len = sqrt(nrm[0] * nrm[0] + nrm[1] * nrm[1] + nrm[2] * nrm[2]), dev = 0;
        if (len < 1e-9)
            continue;
        for (int i = 0; i < nr; i++) {
            const vsg_lig_atom *u = &lig->atoms[ring[i]];
            double d = fabs(((u->x - cen[0]) * nrm[0] + (u->y - cen[1]) * nrm[1] + (u->z - cen[2]) * nrm[2]) / len);
            dev = d > dev ? d : dev;
        }
        if (dev > 0.1)
            continue;
        for (int i = 0; i < nr; i++) {
            int x = ring[i], y = ring[(i + 1) % nr], degree = 0;
            for (int f = from; f < lig->nbonds; f++) {
                if ((lig->bonds[f].a == x && lig->bonds[f].b == y) || (lig->bonds[f].a == y && lig->bonds[f].b == x))
                    lig->bonds[f].order = VSG_BOND_AROMATIC;
                degree += lig->bonds[f].a == x || lig->bonds[f].b == x;
            }
            /* a nitrogen with three bonds in an aromatic 6-ring is a pyridinium N+ (NAD+, NADP+) */
            if (nr == 6 && degree == 3 && !strcmp(lig->atoms[x].element, "N"))
                lig->atoms[x].formal = 1;
        }
    }
}

/* Oxo groups of HETATM groups (no hydrogens, no bond orders in a PDB file), at pH ~7: on a
 * trigonal C (three bonds) the first terminal O is C=O and a second one O− (carboxylate); on P
 * the first terminal O is P=O and the others O− (phosphates); on S the first two are S=O and
 * the others O− (sulfate, sulfonate). Bonds lig->bonds[from..] only. */
void prep_mark_oxo_groups(vsg_ligand *lig, int from)
{
    for (int x = 0; x < lig->natoms; x++) {
        const char *el = lig->atoms[x].element;
        int isc = !strcmp(el, "C"), isp = !strcmp(el, "P"), iss = !strcmp(el, "S");
        if (!isc && !isp && !iss)
            continue;
        int degree = 0, oxo = 0;
        for (int f = from; f < lig->nbonds; f++) {
            int y = lig->bonds[f].a == x ? lig->bonds[f].b : lig->bonds[f].b == x ? lig->bonds[f].a : -1;
            if (y < 0)
                continue;
            degree++;
            int dy = 0;
            for (int g = from; g < lig->nbonds; g++)
                dy += lig->bonds[g].a == y || lig->bonds[g].b == y;
            if (dy != 1 || strcmp(lig->atoms[y].element, "O") != 0)
                continue;
            oxo++;
            int doubles = iss ? 2 : 1;
            if ((isc && degree > 3) || lig->bonds[f].order == VSG_BOND_AROMATIC)
                continue;
            if (oxo <= doubles)
                lig->bonds[f].order = 2;
            else
                lig->atoms[y].formal = -1;
        }
        if (isc && degree != 3) /* an sp3 carbon's O is a hydroxyl: undo */
            for (int f = from; f < lig->nbonds; f++) {
                int y = lig->bonds[f].a == x ? lig->bonds[f].b : lig->bonds[f].b == x ? lig->bonds[f].a : -1;
                if (y >= 0 && !strcmp(lig->atoms[y].element, "O")) {
                    if (lig->bonds[f].order == 2)
                        lig->bonds[f].order = 1;
                    lig->atoms[y].formal = 0;
                }
            }
    }
}

/* Open Babel's Gasteiger charges sum to 0 whatever the formal charges; AutoDock's receptor
 * preparation gives charged residues and groups their integral charge. Each formal charge is
 * spread evenly over its atom and the atoms bonded to it (the charged group). */
vsg_status prep_spread_formal_charges(vsg_ligand *lig)
{
    int *deg = calloc((size_t)lig->natoms + 1, sizeof *deg);
    if (!deg)
        return vsg_fail(VSG_E_NOMEM, "out of memory");
    for (int e = 0; e < lig->nbonds; e++)
        deg[lig->bonds[e].a]++, deg[lig->bonds[e].b]++;
    for (int i = 0; i < lig->natoms; i++)
        if (lig->atoms[i].formal)
            lig->atoms[i].charge += lig->atoms[i].formal / (double)(deg[i] + 1);
    for (int e = 0; e < lig->nbonds; e++) {
        int a = lig->bonds[e].a, b = lig->bonds[e].b;
        if (lig->atoms[a].formal)
            lig->atoms[b].charge += lig->atoms[a].formal / (double)(deg[a] + 1);
        if (lig->atoms[b].formal)
            lig->atoms[a].charge += lig->atoms[b].formal / (double)(deg[b] + 1);
    }
    free(deg);
    return VSG_OK;
}

/* A water force field's charge and radius: AMBER.DAT's WAT (OW, HW), PARSE.DAT's H2O (OH, HH1,
 * HH2), as pdb2pqr names them (AMBER.names, PARSE.names). */
static void water_params(const vsg_prep_options *o, int hydrogen, double *q, double *rad)
{
    const char *key = o->ff == VSG_PREP_PARSE ? (hydrogen ? "H2O HH1 " : "H2O OH ")
                                              : (hydrogen ? "WAT HW " : "WAT OW ");
    const char *const *table = o->ff == VSG_PREP_PARSE ? vsg_ff_parse : vsg_ff_amber;
    for (int i = 0; table[i]; i++)
        if (strncmp(table[i], key, strlen(key)) == 0 && sscanf(table[i] + strlen(key), "%lf %lf", q, rad) == 2)
            return;
    *q = 0, *rad = 0;
}

/* A kept water: its O as read (hydrogens read are rebuilt), two H in TIP3P's geometry (0.9572 Å,
 * 104.52°) named H1, H2 as pdb2pqr writes them, oriented for hydrogen bonds later
 * (polar_hydrogens.c). PQR: the force field's water charges and radii; PDBQT: set with the
 * types (pdbqt_charges.c). */
static vsg_status emit_water(job *j, const vsg_prep_options *o, int r)
{
    const pres *p = &j->m.r[r];
    int oxygen = -1;
    for (int i = p->first; i < p->first + p->n; i++)
        if (!strcmp(j->m.a[i].element, "O") && oxygen < 0)
            oxygen = i;
        else if (!strcmp(j->m.a[i].element, "H") || !strcmp(j->m.a[i].element, "D"))
            j->h_dropped++;
    if (oxygen < 0)
        return VSG_OK;
    j->waters_kept++;
    static const double half = 104.52 / 2 * VSG_PI / 180, oh = 0.9572;
    patom a = j->m.a[oxygen];
    water_params(o, 0, &a.q, &a.r);
    if (!prep_emit(j, &a, r))
        return vsg_fail(VSG_E_NOMEM, "out of memory");
    for (int k = 0; k < 2; k++) {
        patom h = j->m.a[oxygen];
        snprintf(h.name, sizeof h.name, "H%d", k + 1);
        snprintf(h.element, sizeof h.element, "H");
        h.x[0] += oh * cos(half), h.x[1] += (k ? -oh : oh) * sin(half);
        h.added = 1, h.occ = 1;
        water_params(o, 1, &h.q, &h.r);
        j->s.h_added++;
        if (!prep_emit(j, &h, r))
            return vsg_fail(VSG_E_NOMEM, "out of memory");
    }
    return VSG_OK;
}

vsg_status prep_charge_groups(job *j, const vsg_prep_options *o)
{
    model *m = &j->m;
    for (int r = 0; r < m->nr; r++) {
        pres *p = &m->r[r];
        if (p->kind == 1) {
            if (!o->keep_waters) {
                j->s.waters_dropped++;
                continue;
            }
            vsg_status st = emit_water(j, o, r);
            if (st != VSG_OK)
                return st;
            continue;
        }
        if (p->kind != 2)
            continue;
        j->s.het_groups++;
        int start = j->nout;
        for (int i = p->first; i < p->first + p->n; i++) {
            patom a = m->a[i];
            a.het = 1;
            a.r = prep_bondi_radius(a.element);
            a.q = 0;
            if (!prep_emit(j, &a, r))
                return vsg_fail(VSG_E_NOMEM, "out of memory");
        }
        int q = prep_ion_charge(m->a[p->first].element);
        if (p->n == 1 && q != 99) {
            j->out[start].q = q;
            prep_printf(&j->notes, "  %s %c%d: ion, formal charge %+d\n", p->resn, m->a[p->first].chain,
                      m->a[p->first].resseq, q);
            continue;
        }
        j->organic_groups++;
        if (o->format == VSG_PREP_PDBQT) { /* charged with the whole structure */
            prep_printf(&j->notes, "  %s %c%d (%d atoms): kept, Gasteiger charges with the whole structure\n", p->resn,
                        m->a[p->first].chain, m->a[p->first].resseq, p->n);
            continue;
        }
        /* the organic part; metal atoms (no covalent radius: Fe of a haem, Zn of a cluster) take
           their usual ion charge, 0 when it is not known */
        int n = j->nout - start, norg = 0, nmetal = 0, metal_q = 0;
        patom *org = malloc((size_t)n * sizeof *org);
        int *back = malloc((size_t)n * sizeof *back);
        if (!org || !back) {
            free(org);
            free(back);
            return vsg_fail(VSG_E_NOMEM, "out of memory");
        }
        for (int i = start; i < j->nout; i++) {
            if (prep_covalent_radius(j->out[i].element) > 0) {
                back[norg] = i;
                org[norg++] = j->out[i];
            } else {
                int qi = prep_ion_charge(j->out[i].element);
                j->out[i].q = qi == 99 ? 0 : qi;
                metal_q += qi == 99 ? 0 : qi;
                nmetal++;
            }
        }
        vsg_ligand lig;
        vsg_ligand_init(&lig);
        vsg_status st = norg ? group_ligand(org, norg, &lig) : VSG_OK;
        if (st == VSG_OK && norg) {
            prep_mark_planar_rings(&lig, 0);
            prep_mark_oxo_groups(&lig, 0);
            st = vsg_ligand_gasteiger(&lig);
        }
        if (st == VSG_OK && norg)
            st = prep_spread_formal_charges(&lig);
        if (st == VSG_OK) {
            double sum = metal_q;
            for (int i = 0; i < lig.natoms; i++)
                j->out[back[i]].q = lig.atoms[i].charge, sum += lig.atoms[i].charge;
            prep_printf(&j->notes, "  %s %c%d (%d atoms): kept, Gasteiger charges%s (sum %+.3f), Bondi radii\n",
                      p->resn, m->a[p->first].chain, m->a[p->first].resseq, p->n,
                      nmetal ? ", metal atoms their ion charge" : "", sum);
        }
        vsg_ligand_release(&lig);
        free(org);
        free(back);
        if (st == VSG_E_NOMEM)
            return vsg_fail(st, "HETATM group %s %c%d: %s", p->resn, m->a[p->first].chain, m->a[p->first].resseq,
                            vsg_last_error());
        if (st != VSG_OK) {
            for (int i = start; i < j->nout; i++)
                j->out[i].q = 0;
            prep_printf(&j->notes, "  %s %c%d (%d atoms): kept with charges 0 (%s%s)\n", p->resn, m->a[p->first].chain,
                      m->a[p->first].resseq, p->n,
                      st == VSG_E_UNSUPPORTED ? "no Open Babel in this build for Gasteiger charges" : "no Gasteiger charges: ",
                      st == VSG_E_UNSUPPORTED ? "" : vsg_last_error());
        }
    }
    return VSG_OK;
}
