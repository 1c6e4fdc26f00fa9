/* hydrogens.c — one amino acid or nucleotide completed from its template: heavy atoms as read
 * (renamed to the template's), missing ones rebuilt, then every hydrogen; each placed by
 * superposing the template's atoms nearest it in the bond graph on the residue's, and the
 * backbone amide H bisecting C(i−1)–N–CA. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/prepare/prep_model.h"

static int is_hydrogen_name(const char *name)
{
    const char *p = name;
    while (isdigit((unsigned char)*p))
        p++;
    return *p == 'H';
}

static const char *template_altname(const char *name)
{
    if (!strcmp(name, "OT1") || !strcmp(name, "O1"))
        return "O";
    if (!strcmp(name, "OT2") || !strcmp(name, "O2") || !strcmp(name, "OT"))
        return "OXT";
    return name;
}

/* One amino acid or nucleotide: heavy atoms as read (renamed to the template's), the missing
 * ones built, then every hydrogen of the template built. */
int prep_place_residue(job *j, int r)
{
    model *m = &j->m;
    pres *p = &m->r[r];
    tres t;
    prep_residue_template(p, &t);
    int have[MAX_TATOMS] = {0}, src[MAX_TATOMS];
    double pos[MAX_TATOMS][3];
    for (int i = p->first; i < p->first + p->n; i++) {
        patom *a = &m->a[i];
        if (is_hydrogen_name(a->name) || !strcmp(a->element, "H") || !strcmp(a->element, "D")) {
            j->h_dropped++;
            continue;
        }
        char buf[5];
        int k = prep_tatom_index(&t, p->kind == 3 ? prep_na_template_name(a->name, buf) : template_altname(a->name));
        if (k < 0) {
            j->extra_dropped++;
            prep_printf(&j->notes, "  dropped atom %s of %s %c%d (not in the template)\n", a->name, p->resn,
                      a->chain, a->resseq);
            continue;
        }
        have[k] = 1;
        src[k] = i;
        memcpy(pos[k], a->x, sizeof pos[k]);
    }
    for (int phase = 0; phase < 2; phase++) {
        for (int k = 0; k < t.n; k++) {
            int h = is_hydrogen_name(t.a[k].name);
            if (have[k] || h != phase)
                continue;
            if (!h) {
                j->missing_heavy++;
                prep_printf(&j->notes, "  missing %s of %s %c%d: rebuilt from the template\n", t.a[k].name, p->resn,
                          m->a[p->first].chain, m->a[p->first].resseq);
            }
            int n_ = prep_tatom_index(&t, "N"), ca = prep_tatom_index(&t, "CA");
            if (strcmp(t.a[k].name, "H") == 0 && !p->nterm && p->prev >= 0 && n_ >= 0 && ca >= 0 && have[n_] &&
                have[ca]) {
                int c = prep_res_atom(m, &m->r[p->prev], "C");
                if (c >= 0) {
                    double u[3], v[3], w[3], nu = 0, nv = 0, nw = 0;
                    for (int d = 0; d < 3; d++) {
                        u[d] = pos[n_][d] - pos[ca][d];
                        v[d] = pos[n_][d] - m->a[c].x[d];
                        nu += u[d] * u[d], nv += v[d] * v[d];
                    }
                    for (int d = 0; d < 3; d++)
                        w[d] = u[d] / sqrt(nu) + v[d] / sqrt(nv), nw += w[d] * w[d];
                    for (int d = 0; d < 3; d++)
                        pos[k][d] = pos[n_][d] + 1.01 * w[d] / sqrt(nw);
                    have[k] = 2;
                    continue;
                }
            }
            /* breadth-first from atom k over the template's bonds, level by level: the placed
               atoms of the nearest levels, until at least 3 (a whole level is taken, at most 6) */
            int queue[MAX_TATOMS], depth[MAX_TATOMS], seen[MAX_TATOMS] = {0}, head = 0, tail = 0;
            int ref[6], refdepth[6], nref = 0, level = 0;
            queue[tail] = k, depth[tail++] = 0;
            seen[k] = 1;
            while (head < tail) {
                int a = queue[head], da = depth[head++];
                if (da > level) {
                    if (nref >= 3)
                        break;
                    level = da;
                }
                if (a != k && have[a] && nref < 6)
                    ref[nref] = a, refdepth[nref++] = da;
                for (int b = 0; b < t.a[a].nb; b++) {
                    int c = prep_tatom_index(&t, t.a[a].bond[b]);
                    if (c >= 0 && !seen[c]) {
                        seen[c] = 1;
                        queue[tail] = c, depth[tail++] = da + 1;
                    }
                }
            }
            if (nref < 3) {
                j->unplaced++;
                prep_printf(&j->notes, "  could not build %s of %s %c%d (too few atoms to fit)\n", t.a[k].name,
                          p->resn, m->a[p->first].chain, m->a[p->first].resseq);
                continue;
            }
            double tp[6][3], rp[6][3], R[3][3], ct[3], cr[3];
            for (int q = 0; q < nref; q++)
                for (int d = 0; d < 3; d++)
                    tp[q][d] = t.a[ref[q]].x[d], rp[q][d] = pos[ref[q]][d];
            prep_superpose((const double (*)[3])tp, (const double (*)[3])rp, nref, R, ct, cr);
            /* bonded to a placed atom: the template's bond vector, rotated, from that atom (the
               bond length exact); else the fitted template's position */
            const double *from_t = refdepth[0] == 1 ? t.a[ref[0]].x : ct, *from_r = refdepth[0] == 1 ? pos[ref[0]] : cr;
            for (int d = 0; d < 3; d++) {
                pos[k][d] = from_r[d];
                for (int e = 0; e < 3; e++)
                    pos[k][d] += R[d][e] * (t.a[k].x[e] - from_t[e]);
            }
            have[k] = 2;
        }
    }
    /* emit: atoms read in file order, then the built ones in template order; a phosphate O read
       as OP1/OP2 keeps that name (pdb2pqr keeps it) */
    patom proto = m->a[p->first];
    proto.het = 0;
    for (int k = 0; k < t.n; k++)
        if (have[k] == 1) {
            patom a = m->a[src[k]];
            const char *other = p->kind == 3 ? prep_na_other_name(t.a[k].name) : NULL;
            if (!other || strcmp(a.name, other) != 0)
                snprintf(a.name, sizeof a.name, "%s", t.a[k].name);
            if (!prep_emit(j, &a, r))
                return 0;
        }
    for (int k = 0; k < t.n; k++)
        if (have[k] == 2) {
            patom a = proto;
            snprintf(a.name, sizeof a.name, "%s", t.a[k].name);
            memcpy(a.x, pos[k], sizeof a.x);
            a.element[0] = t.a[k].name[0] == 'H' ? 'H' : t.a[k].name[0];
            a.element[1] = 0;
            a.added = 1;
            a.occ = 1;
            if (a.element[0] == 'H')
                j->s.h_added++;
            else
                j->s.heavy_added++;
            if (!prep_emit(j, &a, r))
                return 0;
        }
    return 1;
}
