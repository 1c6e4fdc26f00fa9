/* ff_charges.c — PQR charges and radii of amino acids and nucleotides from pdb2pqr's AMBER.DAT
 * / PARSE.DAT, with its naming rules (AMBER.names, PARSE.names). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/prepare/prep_model.h"

static int ff_lookup(const char *const *table, const char *res, const char *atom, double *q, double *r)
{
    size_t lr = strlen(res), la = strlen(atom);
    for (int i = 0; table[i]; i++) {
        const char *s = table[i];
        if (strncmp(s, res, lr) != 0 || s[lr] != ' ' || strncmp(s + lr + 1, atom, la) != 0 || s[lr + 1 + la] != ' ')
            continue;
        return sscanf(s + lr + la + 2, "%lf %lf", q, r) == 2;
    }
    return 0;
}

/* AMBER.names: termini are N+RES / C+RES, the N-terminal H is H1 (NPRO's: H3); LYN's HZ1 is
 * HZ3 (pdb2pqr's LYN patch removes HZ3, AMBER.DAT's LYN has HZ2, HZ3). AMBER.DAT has no
 * terminal ASH, GLH, LYN, CYM: protonation.c keeps such residues charged at a chain end. */
static int amber_params(const pres *p, const char *atom, double *q, double *r)
{
    char res[8];
    snprintf(res, sizeof res, "%s%s", p->nterm ? "N" : p->cterm ? "C" : "", p->ff);
    const char *name = atom;
    if (p->nterm && strcmp(atom, "H") == 0)
        name = strcmp(p->ff, "PRO") ? "H1" : "H3";
    else if (strcmp(p->ff, "LYN") == 0 && strcmp(atom, "HZ1") == 0)
        name = "HZ3";
    return ff_lookup(vsg_ff_amber, res, name, q, r);
}

/* PARSE.names: HIE → HIS, HIP → HI+, CYX → CSS, ASH → AS0, GLH → GL0, LYN → LY0, CYM → CY-,
 * H → HN, HA3 → HA1, HB3 → HB1 (not ALA), HG3 → HG1 (not ILE, VAL), HD3 → HD1 (not ILE,
 * LEU), HE3 → HE1 (not MET, TRP), ILE HG13 → HG11; termini: the BK+/BK-/PR+/PR- groups first
 * (H → H1, O → O1, OXT → O2; NPRO H2 → HN2), then the residue. */
static int parse_params(const pres *p, const char *atom, double *q, double *r)
{
    const char *res = p->ff;
    if (strcmp(res, "HIE") == 0)
        res = "HIS";
    else if (strcmp(res, "HIP") == 0)
        res = "HI+";
    else if (strcmp(res, "CYX") == 0)
        res = "CSS";
    else if (strcmp(res, "ASH") == 0)
        res = "AS0";
    else if (strcmp(res, "GLH") == 0)
        res = "GL0";
    else if (strcmp(res, "LYN") == 0)
        res = "LY0";
    else if (strcmp(res, "CYM") == 0)
        res = "CY-";
    int pro = strcmp(p->ff, "PRO") == 0;
    if (p->nterm) {
        const char *g = pro ? "PR+" : "BK+", *n = atom;
        if (strcmp(atom, "H") == 0)
            n = pro ? "HN1" : "H1";
        else if (pro && strcmp(atom, "H2") == 0)
            n = "HN2";
        if (ff_lookup(vsg_ff_parse, g, n, q, r))
            return 1;
    }
    if (p->cterm) {
        const char *g = pro ? "PR-" : "BK-", *n = atom;
        if (!pro && strcmp(atom, "O") == 0)
            n = "O1";
        else if (!pro && strcmp(atom, "OXT") == 0)
            n = "O2";
        if (ff_lookup(vsg_ff_parse, g, n, q, r))
            return 1;
    }
    char name[8];
    snprintf(name, sizeof name, "%s", atom);
    if (strcmp(atom, "H") == 0)
        snprintf(name, sizeof name, "HN");
    else if (strcmp(atom, "HA3") == 0)
        snprintf(name, sizeof name, "HA1");
    else if (strcmp(atom, "HB3") == 0 && strcmp(p->ff, "ALA") != 0)
        snprintf(name, sizeof name, "HB1");
    else if (strcmp(atom, "HG3") == 0 && strcmp(p->ff, "ILE") != 0 && strcmp(p->ff, "VAL") != 0)
        snprintf(name, sizeof name, "HG1");
    else if (strcmp(atom, "HD3") == 0 && strcmp(p->ff, "ILE") != 0 && strcmp(p->ff, "LEU") != 0)
        snprintf(name, sizeof name, "HD1");
    else if (strcmp(atom, "HE3") == 0 && strcmp(p->ff, "MET") != 0 && strcmp(p->ff, "TRP") != 0)
        snprintf(name, sizeof name, "HE1");
    else if (strcmp(atom, "HG13") == 0 && strcmp(p->ff, "ILE") == 0)
        snprintf(name, sizeof name, "HG11");
    return ff_lookup(vsg_ff_parse, res, name, q, r);
}

/* AMBER.names / PARSE.names for nucleotides: the residue DA, DA5, DA3 or DAN (both ends: a chain
 * of one); H5' → H5'1, H5'' → H5'2, H2' → H2'1, H2'' → H2'2 (DNA) or HO'2 (RNA), OP1/OP2 →
 * O1P/O2P. The same rules for both tables (PARSE.DAT has only RNA: prep_na_check_ff). */
static int nucleotide_params(const char *const *table, const pres *p, const char *atom, double *q, double *r)
{
    char res[8];
    snprintf(res, sizeof res, "%s%s", p->ff, p->nterm && p->cterm ? "N" : p->nterm ? "5" : p->cterm ? "3" : "");
    static const char *const names[][2] = {{"H5'", "H5'1"}, {"H5''", "H5'2"}, {"H2'", "H2'1"}, {"OP1", "O1P"},
                                           {"OP2", "O2P"}};
    const char *name = atom;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(atom, names[i][0]))
            name = names[i][1];
    if (!strcmp(atom, "H2''"))
        name = p->ff[0] == 'D' ? "H2'2" : "HO'2";
    return ff_lookup(table, res, name, q, r);
}

void prep_charge_residues(job *j, const vsg_prep_options *o)
{
    model *m = &j->m;
    for (int i = 0; i < j->nout; i++) {
        pres *p = &m->r[j->res_of[i]];
        if (p->kind != 0 && p->kind != 3)
            continue;
        double q = 0, rad = 0;
        int ok = p->kind == 3 ? nucleotide_params(o->ff == VSG_PREP_PARSE ? vsg_ff_parse : vsg_ff_amber, p,
                                                  j->out[i].name, &q, &rad)
                 : o->ff == VSG_PREP_PARSE ? parse_params(p, j->out[i].name, &q, &rad)
                                           : amber_params(p, j->out[i].name, &q, &rad);
        if (!ok) {
            prep_printf(&j->notes, "  no %s parameters for %s %s %c%d: charge 0\n",
                      o->ff == VSG_PREP_PARSE ? "PARSE" : "AMBER", j->out[i].name, p->resn, j->out[i].chain,
                      j->out[i].resseq);
            j->unknown++;
        }
        j->out[i].q = q;
        j->out[i].r = rad;
    }
}
