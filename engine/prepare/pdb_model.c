/* pdb_model.c — the input model of receptor preparation: ATOM/HETATM records up to the first
 * END/ENDMDL (alternate locations: the highest occupancy, the first on a tie), grouped into
 * residues; amino acids matched to their templates (a protonation state named in the input,
 * HIP, ASH, ..., kept as the residue's form), chains' termini, and peptide gaps (a gap inside a
 * chain is not a terminus, as pdb2pqr); then the nucleotides (nucleic_acids.c). */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grids/base/textio.h"
#include "engine/prepare/prep_model.h"

static int push_atom(model *m, const patom *a)
{
    if (m->n == m->cap) {
        int cap = m->cap ? 2 * m->cap : 4096;
        patom *t = realloc(m->a, (size_t)cap * sizeof *t);
        if (!t)
            return 0;
        m->a = t;
        m->cap = cap;
    }
    m->a[m->n++] = *a;
    return 1;
}

static void field(const char *line, size_t len, size_t from, size_t n, char *out, size_t outsz)
{
    size_t k = 0;
    for (size_t i = from; i < from + n && i < len && k + 1 < outsz; i++)
        if (line[i] != ' ')
            out[k++] = line[i];
    out[k] = 0;
}

static int same_residue(const patom *a, const patom *b)
{
    return a->chain == b->chain && a->resseq == b->resseq && a->icode == b->icode;
}

vsg_status prep_read_pdb(const char *path, model *m, int *altdrop)
{
    vsg_lines *L;
    vsg_status st = vsg_lines_open(path, &L);
    if (st != VSG_OK)
        return st;
    char *line;
    size_t len;
    int rc;
    while ((rc = vsg_lines_next(L, &line, &len)) > 0) {
        if (vsg_is_record(line, len, "END") || vsg_is_record(line, len, "ENDMDL"))
            break;
        int het = len >= 6 && strncmp(line, "HETATM", 6) == 0;
        if (!het && !(len >= 6 && strncmp(line, "ATOM  ", 6) == 0))
            continue;
        patom a;
        memset(&a, 0, sizeof a);
        char buf[16];
        field(line, len, 12, 4, a.name, sizeof a.name);
        field(line, len, 17, 3, a.resn, sizeof a.resn);
        a.altloc = len > 16 ? line[16] : ' ';
        a.chain = len > 21 ? line[21] : ' ';
        a.icode = len > 26 ? line[26] : ' ';
        a.het = het;
        a.line = vsg_lines_number(L);
        field(line, len, 22, 4, buf, sizeof buf);
        if (!vsg_parse_int(buf, strlen(buf), &a.resseq))
            a.resseq = 0;
        for (int k = 0; k < 3; k++)
            if (len < (size_t)(38 + 8 * k) || !vsg_parse_double(line + 30 + 8 * k, 8, &a.x[k]) ||
                !(a.x[k] > -999.9995 && a.x[k] < 9999.9995)) { /* 8.3 columns hold no more ("1e+28" would) */
                vsg_lines_close(L);
                return vsg_fail(VSG_E_FORMAT, "%s:%d: bad coordinates (numbers in -999.999..9999.999 A in "
                                "columns 31-54)", path, a.line);
            }
        a.occ = 1;
        if (len >= 60)
            vsg_parse_double(line + 54, 6, &a.occ);
        field(line, len, 76, 2, a.element, sizeof a.element);
        if (!a.element[0]) {
            const char *p = a.name;
            while (isdigit((unsigned char)*p))
                p++;
            a.element[0] = *p ? *p : 'X';
        }
        a.element[1] = (char)tolower((unsigned char)a.element[1]);
        if (a.altloc != ' ') {
            int dup = -1;
            for (int i = m->n - 1; i >= 0 && i >= m->n - 64; i--)
                if (same_residue(&m->a[i], &a) && strcmp(m->a[i].name, a.name) == 0) {
                    dup = i;
                    break;
                }
            if (dup >= 0) {
                if (a.occ > m->a[dup].occ)
                    m->a[dup] = a;
                (*altdrop)++;
                continue;
            }
        }
        if (!push_atom(m, &a)) {
            vsg_lines_close(L);
            return vsg_fail(VSG_E_NOMEM, "out of memory reading %s", path);
        }
    }
    vsg_lines_close(L);
    if (rc < 0)
        return (vsg_status)rc;
    if (m->n == 0)
        return vsg_fail(VSG_E_FORMAT, "%s: no ATOM/HETATM records", path);
    return VSG_OK;
}

/* Input names of protonation states: the standard residue whose template they use, and the
 * state they ask for (CHARMM's HSD/HSE/HSP as AMBER's HID/HIE/HIP). MSE has no template. */
static const char *const aa_alias[][3] = {
    {"HID", "HIS", "HID"}, {"HIE", "HIS", "HIE"}, {"HIP", "HIS", "HIP"}, {"HSD", "HIS", "HID"},
    {"HSE", "HIS", "HIE"}, {"HSP", "HIS", "HIP"}, {"CYX", "CYS", "CYX"}, {"CYM", "CYS", "CYM"},
    {"ASH", "ASP", "ASH"}, {"GLH", "GLU", "GLH"}, {"LYN", "LYS", "LYN"}, {"MSE", "", ""}};

static const char *aa_base(const char *resn)
{
    for (size_t i = 0; i < sizeof aa_alias / sizeof aa_alias[0]; i++)
        if (strcmp(resn, aa_alias[i][0]) == 0)
            return aa_alias[i][1];
    return resn;
}

/* The template form a residue starts with: the state its input name asks for, else its name. */
static const char *aa_state(const char *resn)
{
    for (size_t i = 0; i < sizeof aa_alias / sizeof aa_alias[0]; i++)
        if (strcmp(resn, aa_alias[i][0]) == 0)
            return aa_alias[i][2];
    return resn;
}

int prep_is_water(const char *resn)
{
    return !strcmp(resn, "HOH") || !strcmp(resn, "WAT") || !strcmp(resn, "H2O") || !strcmp(resn, "DOD") ||
           !strcmp(resn, "TIP") || !strcmp(resn, "SOL");
}

int prep_res_atom(const model *m, const pres *p, const char *name)
{
    for (int i = p->first; i < p->first + p->n; i++)
        if (strcmp(m->a[i].name, name) == 0)
            return i;
    return -1;
}

void prep_build_residues(job *j)
{
    model *m = &j->m;
    for (int i = 0; i < m->n; i++) {
        if (m->nr == 0 || !same_residue(&m->a[i], &m->a[m->r[m->nr - 1].first]) ||
            strcmp(m->a[i].resn, m->r[m->nr - 1].resn) != 0) {
            if (m->nr == m->rcap) {
                int cap = m->rcap ? 2 * m->rcap : 1024;
                pres *t = realloc(m->r, (size_t)cap * sizeof *t);
                if (!t)
                    return;
                m->r = t;
                m->rcap = cap;
            }
            pres *p = &m->r[m->nr++];
            memset(p, 0, sizeof *p);
            p->first = i;
            p->prev = -1;
            snprintf(p->resn, sizeof p->resn, "%s", m->a[i].resn);
        }
        m->r[m->nr - 1].n++;
    }
    /* kinds, templates, chains' ends */
    int last_aa = -1;
    char chain = 0;
    for (int r = 0; r < m->nr; r++) {
        pres *p = &m->r[r];
        const char *base = aa_base(p->resn);
        p->tmpl = base[0] ? prep_find_template(base) : -1;
        if (p->tmpl >= 0 && prep_res_atom(m, p, "CA") >= 0 && (prep_res_atom(m, p, "N") >= 0 || prep_res_atom(m, p, "C") >= 0)) {
            p->kind = 0;
            snprintf(p->ff, sizeof p->ff, "%s", aa_state(p->resn));
            char c = m->a[p->first].chain;
            if (last_aa < 0 || c != chain) {
                p->nterm = 1;
                if (last_aa >= 0)
                    m->r[last_aa].cterm = 1;
            } else
                p->prev = last_aa;
            last_aa = r;
            chain = c;
        } else {
            p->kind = prep_is_water(p->resn) ? 1 : 2;
            snprintf(p->ff, sizeof p->ff, "%s", p->resn);
        }
    }
    if (last_aa >= 0)
        m->r[last_aa].cterm = 1;
    /* a C-N peptide link decides prev for the amide H: only when bonded */
    for (int r = 0; r < m->nr; r++) {
        pres *p = &m->r[r];
        if (p->prev < 0)
            continue;
        int c = prep_res_atom(m, &m->r[p->prev], "C"), n = prep_res_atom(m, p, "N");
        if (c < 0 || n < 0 || prep_dist2(m->a[c].x, m->a[n].x) > 2.0 * 2.0)
            p->prev = -2; /* gap: not a terminus (as pdb2pqr), amide H from the template */
    }
    prep_nucleic_acids(j);
}
