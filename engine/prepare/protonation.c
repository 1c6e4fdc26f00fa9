/* protonation.c — the protonation state of each amino acid at the given pH, as OpenMM's
 * Modeller.addHydrogens(pH) chooses it: fixed model pKa values per residue type (below), not a
 * pKa prediction of the structure (for that: PROPKA, e.g. through pdb2pqr --titration-state-method
 * propka). A state named in the input (HID, HIE, HIP, ASH, GLH, LYN, CYM, CYX; CHARMM's HSD,
 * HSE, HSP) is kept whatever the pH. Cys pairs with SG–SG < 2.5 Å are CYX at any pH; a neutral
 * His is HID or HIE by hydrogen-bond partners near the ring nitrogens (his_score), HID on a tie.
 * Termini stay charged (OpenMM and pdb2pqr without PROPKA do the same). Arg and Tyr stay
 * protonated: AMBER.DAT has no ARN or TYM. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/prepare/prep_model.h"

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

/* OpenMM's model pKa values (wrappers/python/openmm/app/data/hydrogens.xml, maxph: the H is
 * there when pH <= maxph; modeller.py: HIP when pH <= 6.5), openmm/openmm 1a47c2f (2026). */
static const double pka_asp = 4.4, pka_glu = 4.4, pka_his = 6.5, pka_cys = 8.5, pka_lys = 10.0;

static int is_state(const char *ff, const char *const *names)
{
    for (; *names; names++)
        if (strcmp(ff, *names) == 0)
            return 1;
    return 0;
}

/* The state a titratable residue takes at pH ph: its ff unchanged when it stays as it is. */
static const char *state_at_ph(const char *ff, double ph)
{
    if (!strcmp(ff, "ASP") && ph <= pka_asp)
        return "ASH";
    if (!strcmp(ff, "GLU") && ph <= pka_glu)
        return "GLH";
    if (!strcmp(ff, "HIS") && ph <= pka_his)
        return "HIP";
    if (!strcmp(ff, "LYS") && ph > pka_lys)
        return "LYN";
    if (!strcmp(ff, "CYS") && ph > pka_cys)
        return "CYM";
    return ff;
}

/* AMBER.DAT has N- and C-terminal forms of HIP but not of ASH, GLH, LYN, CYM: their charged
 * forms there (NULL: a terminal form exists) */
static const char *amber_terminal_charged(const char *st)
{
    static const char *const pairs[][2] = {{"ASH", "ASP"}, {"GLH", "GLU"}, {"LYN", "LYS"}, {"CYM", "CYS"}};
    for (size_t k = 0; k < sizeof pairs / sizeof pairs[0]; k++)
        if (!strcmp(st, pairs[k][0]))
            return pairs[k][1];
    return NULL;
}

/* the states the pH gave (not those named in the input) */
static void count_state(vsg_prep_summary *s, const char *ff)
{
    if (!strcmp(ff, "HIP"))
        s->his_hip++;
    else if (!strcmp(ff, "ASH"))
        s->asp_ash++;
    else if (!strcmp(ff, "GLH"))
        s->glu_glh++;
    else if (!strcmp(ff, "LYN"))
        s->lys_lyn++;
    else if (!strcmp(ff, "CYM"))
        s->cys_cym++;
}

void prep_protonation(job *j, const vsg_prep_options *o)
{
    static const char *const named_states[] = {"HID", "HIE", "HIP", "ASH", "GLH", "LYN", "CYM", "CYX", NULL};
    model *m = &j->m;
    for (int r = 0; r < m->nr; r++)
        if (m->r[r].kind == 0 && is_state(m->r[r].ff, named_states))
            j->s.kept_named++;
    /* disulfides: every pair of Cys (or CYX by name) with SG–SG < 2.5 Å */
    for (int r = 0; r < m->nr; r++) {
        if (m->r[r].kind != 0 || (strcmp(m->r[r].ff, "CYS") != 0 && strcmp(m->r[r].ff, "CYX") != 0))
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
    for (int r = 0; r < m->nr; r++) {
        pres *p = &m->r[r];
        if (p->kind != 0)
            continue;
        int named = is_state(p->ff, named_states);
        const char *st = state_at_ph(p->ff, o->ph);
        const char *charged = (p->nterm || p->cterm) && o->format == VSG_PREP_PQR && o->ff == VSG_PREP_AMBER
                                  ? amber_terminal_charged(st)
                                  : NULL;
        if (charged) {
            prep_printf(&j->notes, "  %s %c%d at the chain's %s end: %s (AMBER.DAT has no %s%s; pdb2pqr leaves it "
                                   "out)\n",
                        p->resn, m->a[p->first].chain, m->a[p->first].resseq, p->nterm ? "N" : "C", charged,
                        p->nterm ? "N" : "C", st);
            j->s.kept_named -= named;
            snprintf(p->ff, sizeof p->ff, "%s", charged);
            continue;
        }
        if (st != p->ff) {
            snprintf(p->ff, sizeof p->ff, "%s", st);
            count_state(&j->s, st);
        }
        if (strcmp(p->ff, "HIS") != 0)
            continue;
        /* a neutral His: HID or HIE, whichever makes the better hydrogen bonds (his_score: ring
           N as donor, H on it, minus as acceptor; HID when ND1 gains more) */
        double sd = his_score(m, p, "ND1", "CG", "CE1"), se = his_score(m, p, "NE2", "CD2", "CE1");
        int hid = sd >= se - 1e-9;
        snprintf(p->ff, sizeof p->ff, hid ? "HID" : "HIE");
        if (hid)
            j->s.his_hid++;
        else
            j->s.his_hie++;
    }
}
