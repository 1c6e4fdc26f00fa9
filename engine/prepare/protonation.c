/* protonation.c — the protonation states pdb2pqr gives when it does not titrate: Cys pairs with
 * SG–SG < 2.5 Å are CYX; His is HID or HIE by hydrogen-bond partners near the ring nitrogens
 * (his_score), HIE on a tie. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/prepare/prepare.h"

/* Hydrogen-bond roles of a heavy atom of the structure: 1 acceptor, 2 donor, 3 either. */
static int hb_role(const model *m, int i)
{
    const patom *a = &m->a[i];
    const char *n = a->name, *r = a->resn;
    if (a->element[1] || (a->element[0] != 'N' && a->element[0] != 'O'))
        return 0;
    if (a->element[0] == 'N') {
        if (!strcmp(n, "N"))
            return strcmp(r, "PRO") ? 2 : 0;
        if (!strcmp(r, "LYS") || !strcmp(r, "ARG") || !strcmp(r, "ASN") || !strcmp(r, "GLN") || !strcmp(r, "TRP"))
            return 2;
        return 3; /* His ring N, other groups */
    }
    if (prep_is_water(r))
        return 2; /* a water turns an H to a His nitrogen (pdb2pqr's optimisation keeps them then) */
    if (!strcmp(n, "O") || !strcmp(n, "OXT") || !strcmp(r, "ASP") || !strcmp(r, "GLU") || !strcmp(r, "ASN") ||
        !strcmp(r, "GLN"))
        return 1;
    return 3; /* Ser, Thr, Tyr OH, other groups */
}

/* How much better a His ring nitrogen does as the H carrier than as an acceptor: partners within
 * 3.3 Å of it in the direction of its would-be H (within 53° of the bisector outside the ring):
 * an acceptor counts for it carrying the H, a donor against; closer partners count more. */
static double his_score(const model *m, const pres *p, const char *ring_n, const char *b1, const char *b2)
{
    int n = prep_res_atom(m, p, ring_n), x = prep_res_atom(m, p, b1), y = prep_res_atom(m, p, b2);
    if (n < 0 || x < 0 || y < 0)
        return 0;
    double u[3], nu = 0, score = 0;
    for (int d = 0; d < 3; d++)
        u[d] = m->a[n].x[d] - 0.5 * (m->a[x].x[d] + m->a[y].x[d]), nu += u[d] * u[d];
    nu = sqrt(nu);
    for (int i = 0; i < m->n; i++) {
        if (i >= p->first && i < p->first + p->n)
            continue;
        double d2 = prep_dist2(m->a[n].x, m->a[i].x);
        if (d2 > 3.3 * 3.3 || d2 < 1e-6)
            continue;
        int role = hb_role(m, i);
        if (!role)
            continue;
        double c = 0, dd = sqrt(d2);
        for (int d = 0; d < 3; d++)
            c += u[d] * (m->a[i].x[d] - m->a[n].x[d]);
        if (c / (nu * dd) < 0.6)
            continue;
        double w = 1 + (3.3 - dd);
        if (role == 1)
            score += w;
        else if (role == 2)
            score -= w;
        else
            score += 0.5 * w; /* either: slightly favours carrying the H */
    }
    return score;
}

void prep_protonation(job *j)
{
    model *m = &j->m;
    /* disulfides */
    for (int r = 0; r < m->nr; r++) {
        if (m->r[r].kind != 0 || strcmp(m->r[r].ff, "CYS") != 0)
            continue;
        int sg = prep_res_atom(m, &m->r[r], "SG");
        for (int t = r + 1; sg >= 0 && t < m->nr; t++) {
            if (m->r[t].kind != 0 || (strcmp(m->r[t].ff, "CYS") != 0 && strcmp(m->r[t].ff, "CYX") != 0))
                continue;
            int sg2 = prep_res_atom(m, &m->r[t], "SG");
            if (sg2 >= 0 && prep_dist2(m->a[sg].x, m->a[sg2].x) < 2.5 * 2.5) {
                snprintf(m->r[r].ff, sizeof m->r[r].ff, "CYX");
                snprintf(m->r[t].ff, sizeof m->r[t].ff, "CYX");
                j->s.disulfides++;
            }
        }
    }
    /* histidines: HID or HIE, whichever makes the better hydrogen bonds (below) */
    for (int r = 0; r < m->nr; r++) {
        pres *p = &m->r[r];
        if (p->kind != 0 || strcmp(p->ff, "HIS") != 0)
            continue;
        double sd = his_score(m, p, "ND1", "CG", "CE1"), se = his_score(m, p, "NE2", "CD2", "CE1");
        /* his_score: ring N as donor (H on it) minus as acceptor; HID when ND1 gains more */
        int hid = sd >= se - 1e-9;
        snprintf(p->ff, sizeof p->ff, hid ? "HID" : "HIE");
        if (hid)
            j->s.his_hid++;
        else
            j->s.his_hie++;
    }
}
