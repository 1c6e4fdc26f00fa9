/* nucleic_acids.c — DNA and RNA in receptor preparation, as pdb2pqr 3.5.2 reads them: residues
 * named DA DC DG DT, RA RC RG RU or A C G U (written RA RC RG RU) are nucleotides matched to
 * NA.xml's templates (DA, DC, DG: the ribose templates without O2', PATCHES.xml's DNA patches;
 * templates.c applies them). The first nucleotide of each chain is a 5' end (its phosphate
 * removed, H5T on O5'), the last a 3' end (H3T on O3'), whatever lies between: a break in the
 * O3'–P links inside a chain is noted, not made an end (pdb2pqr's chains are chain IDs). */
#include <stdio.h>
#include <string.h>

#include "engine/prepare/prep_model.h"

/* Input names and the form each takes (pdb2pqr's RNA_MAPPING: A C G U are RNA). */
static const char *const na_names[][3] = {
    {"DA", "DA", "RA"}, {"DC", "DC", "RC"}, {"DG", "DG", "RG"}, {"DT", "DT", "DT"},
    {"RA", "RA", "RA"}, {"RC", "RC", "RC"}, {"RG", "RG", "RG"}, {"RU", "RU", "RU"},
    {"A", "RA", "RA"},  {"C", "RC", "RC"},  {"G", "RG", "RG"},  {"U", "RU", "RU"}};

/* Heavy-atom names of other conventions (hydrogens are rebuilt whatever their names): the old
 * PDB's '*' for the prime, OP1/OP2 (the template's O1P/O2P), C5M for thymine's methyl C7. */
const char *prep_na_template_name(const char *name, char buf[5])
{
    snprintf(buf, 5, "%s", name);
    for (char *c = buf; *c; c++)
        if (*c == '*')
            *c = '\'';
    if (!strcmp(buf, "OP1"))
        return "O1P";
    if (!strcmp(buf, "OP2"))
        return "O2P";
    if (!strcmp(buf, "C5M"))
        return "C7";
    return buf;
}

const char *prep_na_other_name(const char *name)
{
    static const char *const pairs[][2] = {{"O1P", "OP1"}, {"O2P", "OP2"}, {"OP1", "O1P"}, {"OP2", "O2P"}};
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
        if (!strcmp(name, pairs[i][0]))
            return pairs[i][1];
    return NULL;
}

static int na_atom(const model *m, const pres *p, const char *tname)
{
    char buf[5];
    for (int i = p->first; i < p->first + p->n; i++)
        if (!strcmp(prep_na_template_name(m->a[i].name, buf), tname))
            return i;
    return -1;
}

void prep_nucleic_acids(job *j)
{
    model *m = &j->m;
    int last = -1;
    for (int r = 0; r < m->nr; r++) {
        pres *p = &m->r[r];
        if (p->kind != 2)
            continue;
        size_t f = 0;
        while (f < sizeof na_names / sizeof na_names[0] && strcmp(p->resn, na_names[f][0]) != 0)
            f++;
        if (f == sizeof na_names / sizeof na_names[0] || na_atom(m, p, "C1'") < 0 || na_atom(m, p, "C4'") < 0)
            continue;
        p->kind = 3;
        p->tmpl = prep_find_template(na_names[f][2]);
        snprintf(p->ff, sizeof p->ff, "%s", na_names[f][1]);
        for (int i = p->first; i < p->first + p->n; i++)
            snprintf(m->a[i].resn, sizeof m->a[i].resn, "%.3s", p->ff);
        if (p->ff[0] == 'D')
            j->na_dna++;
        else
            j->na_rna++;
        char c = m->a[p->first].chain;
        if (last < 0 || m->a[m->r[last].first].chain != c) {
            p->nterm = 1;
            if (last >= 0)
                m->r[last].cterm = 1;
        } else {
            int o3 = na_atom(m, &m->r[last], "O3'"), ph = na_atom(m, p, "P");
            if (o3 >= 0 && ph >= 0 && prep_dist2(m->a[o3].x, m->a[ph].x) <= 2.0 * 2.0)
                p->prev = last;
            else {
                p->prev = -2;
                j->na_gaps++;
                prep_printf(&j->notes, "  no O3'-P link between %s %c%d and %s %c%d: a gap, not an end (as pdb2pqr)\n",
                            m->r[last].ff, c, m->a[m->r[last].first].resseq, p->ff, c, m->a[p->first].resseq);
            }
        }
        last = r;
    }
    if (last >= 0)
        m->r[last].cterm = 1;
    for (int r = 0; r < m->nr; r++)
        if (m->r[r].kind == 3) {
            j->na_5 += m->r[r].nterm;
            j->na_3 += m->r[r].cterm;
        }
}

/* PARSE.DAT has RNA (RA..RU and their ends) but no DNA: pdb2pqr 3.5.2 with --ff=PARSE writes
 * none of a DNA's atoms (each "missing" from the force field), a PQR without its charges. */
vsg_status prep_na_check_ff(const job *j, const vsg_prep_options *o)
{
    if (j->na_dna && o->format == VSG_PREP_PQR && o->ff == VSG_PREP_PARSE)
        return vsg_fail(VSG_E_UNSUPPORTED, "PARSE has no DNA parameters (%d DNA nucleotides; pdb2pqr leaves their "
                                           "atoms out): use --ff amber, or a PDBQT",
                        j->na_dna);
    return VSG_OK;
}
