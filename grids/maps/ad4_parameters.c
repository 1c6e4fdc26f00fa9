/* ad4_parameters.c — AutoDock4 force-field parameters: the built-in set and the parameter-file
 * reader (declared in vsgrid.h, "AutoDock4 affinity and desolvation maps").
 *
 * Source of the built-in table: AD4.1_bound.dat as shipped with AutoDock/AutoGrid 4.2.6
 * (ccsb-scripps/AutoGrid, ad4_shared/AD4.1_bound.dat; the set autogrid4 uses when a gpf names
 * no parameter_file). Columns as in the file: Rii (Å), epsii (kcal/mol), vol (Å³), solpar,
 * Rij_hb (Å), epsij_hb (kcal/mol), hbond code (0 none, 1 DS, 2 D1, 3 AS, 4 A1, 5 A2). The
 * rec_index/map_index/bond_index columns are not used by the maps. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grids/base/vsgrid.h"
#include "grids/base/textio.h"

static const vsg_ad4_atom_par builtin[] = {
    /* type   Rii   epsii   vol      solpar    Rij_hb epsij_hb hbond */
    {"H", 2.00, 0.020, 0.0000, 0.00051, 0.0, 0.0, 0},
    {"HD", 2.00, 0.020, 0.0000, 0.00051, 0.0, 0.0, 2},
    {"HS", 2.00, 0.020, 0.0000, 0.00051, 0.0, 0.0, 1},
    {"C", 4.00, 0.150, 33.5103, -0.00143, 0.0, 0.0, 0},
    {"A", 4.00, 0.150, 33.5103, -0.00052, 0.0, 0.0, 0},
    {"N", 3.50, 0.160, 22.4493, -0.00162, 0.0, 0.0, 0},
    {"NA", 3.50, 0.160, 22.4493, -0.00162, 1.9, 5.0, 4},
    {"NS", 3.50, 0.160, 22.4493, -0.00162, 1.9, 5.0, 3},
    {"OA", 3.20, 0.200, 17.1573, -0.00251, 1.9, 5.0, 5},
    {"OS", 3.20, 0.200, 17.1573, -0.00251, 1.9, 5.0, 3},
    {"F", 3.09, 0.080, 15.4480, -0.00110, 0.0, 0.0, 0},
    {"Mg", 1.30, 0.875, 1.5600, -0.00110, 0.0, 0.0, 0},
    {"MG", 1.30, 0.875, 1.5600, -0.00110, 0.0, 0.0, 0},
    {"P", 4.20, 0.200, 38.7924, -0.00110, 0.0, 0.0, 0},
    {"SA", 4.00, 0.200, 33.5103, -0.00214, 2.5, 1.0, 5},
    {"S", 4.00, 0.200, 33.5103, -0.00214, 0.0, 0.0, 0},
    {"Cl", 4.09, 0.276, 35.8235, -0.00110, 0.0, 0.0, 0},
    {"CL", 4.09, 0.276, 35.8235, -0.00110, 0.0, 0.0, 0},
    {"Ca", 1.98, 0.550, 2.7700, -0.00110, 0.0, 0.0, 0},
    {"CA", 1.98, 0.550, 2.7700, -0.00110, 0.0, 0.0, 0},
    {"Mn", 1.30, 0.875, 2.1400, -0.00110, 0.0, 0.0, 0},
    {"MN", 1.30, 0.875, 2.1400, -0.00110, 0.0, 0.0, 0},
    {"Fe", 1.30, 0.010, 1.8400, -0.00110, 0.0, 0.0, 0},
    {"FE", 1.30, 0.010, 1.8400, -0.00110, 0.0, 0.0, 0},
    {"Zn", 1.48, 0.550, 1.7000, -0.00110, 0.0, 0.0, 0},
    {"ZN", 1.48, 0.550, 1.7000, -0.00110, 0.0, 0.0, 0},
    {"Br", 4.33, 0.389, 42.5661, -0.00110, 0.0, 0.0, 0},
    {"BR", 4.33, 0.389, 42.5661, -0.00110, 0.0, 0.0, 0},
    {"I", 4.72, 0.550, 55.0585, -0.00110, 0.0, 0.0, 0},
    {"Z", 4.00, 0.150, 33.5103, -0.00143, 0.0, 0.0, 0},
    {"G", 4.00, 0.150, 33.5103, -0.00143, 0.0, 0.0, 0},
    {"GA", 4.00, 0.150, 33.5103, -0.00052, 0.0, 0.0, 0},
    {"J", 4.00, 0.150, 33.5103, -0.00143, 0.0, 0.0, 0},
    {"Q", 4.00, 0.150, 33.5103, -0.00143, 0.0, 0.0, 0},
};

vsg_status vsg_ad4_params_builtin(vsg_ad4_params *out)
{
    if (!out) return vsg_fail(VSG_E_ARG, "ad4 parameters: NULL argument");
    memset(out, 0, sizeof *out);
    out->coeff_vdw = 0.1662;
    out->coeff_hbond = 0.1209;
    out->coeff_estat = 0.1406;
    out->coeff_desolv = 0.1322;
    out->coeff_tors = 0.2983;
    out->n = (int)(sizeof builtin / sizeof builtin[0]);
    memcpy(out->atom, builtin, sizeof builtin);
    return VSG_OK;
}

const vsg_ad4_atom_par *vsg_ad4_params_find(const vsg_ad4_params *p, const char *type)
{
    if (!p || !type) return NULL;
    for (int i = 0; i < p->n; i++)
        if (!strcmp(p->atom[i].type, type)) return &p->atom[i];
    return NULL;
}

#define MAXTOK 16

/* Splits at blanks, stopping at '#'; returns the token count (at most MAXTOK stored). */
static int split_words(const char *line, size_t len, const char **s, size_t *l)
{
    int n = 0;
    size_t i = 0;
    while (i < len) {
        while (i < len && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) i++;
        if (i >= len || line[i] == '#') break;
        size_t b = i;
        while (i < len && line[i] != ' ' && line[i] != '\t' && line[i] != '\r' && line[i] != '#') i++;
        if (n < MAXTOK) s[n] = line + b, l[n] = i - b;
        n++;
    }
    return n;
}

static int word_is(const char *s, size_t l, const char *w)
{
    return l == strlen(w) && !memcmp(s, w, l);
}

vsg_status vsg_ad4_params_read(const char *path, vsg_ad4_params *p)
{
    if (!path || !p) return vsg_fail(VSG_E_ARG, "ad4 parameters: NULL argument");
    vsg_lines *r = NULL;
    vsg_status st = vsg_lines_open(path, &r);
    if (st != VSG_OK) return st;
    static const char *const coeff_name[] = {"FE_coeff_vdW", "FE_coeff_hbond", "FE_coeff_estat", "FE_coeff_desolv",
                                             "FE_coeff_tors"};
    double *const coeff[] = {&p->coeff_vdw, &p->coeff_hbond, &p->coeff_estat, &p->coeff_desolv, &p->coeff_tors};
    char *line;
    size_t len;
    int rc;
    while (st == VSG_OK && (rc = vsg_lines_next(r, &line, &len)) == 1) {
        int ln = vsg_lines_number(r);
        const char *s[MAXTOK];
        size_t l[MAXTOK];
        int n = split_words(line, len, s, l);
        if (n == 0) continue;
        int c = -1;
        for (int k = 0; k < 5; k++)
            if (word_is(s[0], l[0], coeff_name[k])) c = k;
        if (c >= 0) {
            double v;
            if (n < 2 || !vsg_parse_double(s[1], l[1], &v))
                st = vsg_fail(VSG_E_FORMAT, "%s:%d: %s needs a number", path, ln, coeff_name[c]);
            else
                *coeff[c] = v;
        } else if (word_is(s[0], l[0], "atom_par")) {
            vsg_ad4_atom_par a;
            memset(&a, 0, sizeof a);
            double v[6];
            int ok = n >= 9 && n <= MAXTOK && l[1] >= 1 && l[1] <= 3;
            for (int k = 0; ok && k < 6; k++) ok = vsg_parse_double(s[2 + k], l[2 + k], &v[k]);
            if (ok) ok = vsg_parse_int(s[8], l[8], &a.hbond) && a.hbond >= 0 && a.hbond <= 5;
            if (!ok) {
                st = vsg_fail(VSG_E_FORMAT,
                              "%s:%d: atom_par needs TYPE Rii epsii vol solpar Rij_hb epsij_hb hbond(0-5) "
                              "[rec_index map_index bond_index]",
                              path, ln);
                break;
            }
            memcpy(a.type, s[1], l[1]);
            a.rii = v[0], a.epsii = v[1], a.vol = v[2], a.solpar = v[3], a.rij_hb = v[4], a.epsij_hb = v[5];
            vsg_ad4_atom_par *old = (vsg_ad4_atom_par *)vsg_ad4_params_find(p, a.type);
            if (old)
                *old = a;
            else if (p->n >= VSG_AD4_MAX_TYPES)
                st = vsg_fail(VSG_E_LIMIT, "%s:%d: more than %d atom types", path, ln, VSG_AD4_MAX_TYPES);
            else
                p->atom[p->n++] = a;
        } else {
            /* AutoDock skips what it does not know, and so do the maps */
            vsg_warn("%s:%d: '%.*s' is not a parameter vsgrid reads (atom_par, FE_coeff_*): skipped", path, ln,
                     (int)(l[0] > 40 ? 40 : l[0]), s[0]);
        }
    }
    if (st == VSG_OK && rc < 0) st = (vsg_status)rc;
    vsg_lines_close(r);
    return st;
}
