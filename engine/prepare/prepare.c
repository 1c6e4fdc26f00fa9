/* prepare.c — receptor preparation: a PDB file to a PQR (AMBER or PARSE charges and radii) or
 * a PDBQT (Gasteiger charges, AutoDock 4 types), the way pdb2pqr prepares proteins when it
 * does not titrate. See vsgrid.h ("receptor preparation") for the contract.
 *
 * Method. Atoms are read up to the first END/ENDMDL; alternate locations keep the highest
 * occupancy (the first on a tie). Standard amino acids are matched to pdb2pqr's AA.xml
 * templates (ideal coordinates with hydrogens): every template atom the residue lacks is
 * placed by superposing (Horn's quaternion fit) the template's atoms near it in the bond graph
 * on the residue's atoms, heavy atoms first; the backbone amide H bisects C(i−1)–N–CA. Termini:
 * the first amino acid of each chain gets NH3+ (H, H2, H3; Pro H, H2), the last OXT (built
 * when absent); gaps inside a chain are not termini (as pdb2pqr). Cys pairs with SG–SG
 * < 2.5 Å are CYX; His is HID or HIE by hydrogen-bond partners near the ring nitrogens (his_score),
 * HIE on a tie. Charges and radii come from
 * pdb2pqr's AMBER.DAT / PARSE.DAT with its name rules (AMBER.names / PARSE.names).
 * Other HETATM groups: bonds from distances, Gasteiger charges (Open Babel), Bondi radii;
 * single metal ions their formal charge. */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grids/base/textio.h"
#include "grids/base/vsgrid.h"
#include "engine/prepare/prepare.h"

enum { MAXB = 6, MAX_TATOMS = 32 };

typedef struct {
    char name[5];
    double x[3];
    char bond[MAXB][5];
    int nb;
} tatom;

typedef struct {
    char name[4];
    tatom a[MAX_TATOMS];
    int n;
} tres;

typedef struct {
    char name[5], resn[4], element[3], chain, icode, altloc;
    int resseq, het, added, line;
    double occ, x[3], q, r;
    char ad[3];
} patom;

typedef struct {
    int first, n;
    char resn[4];     /* as read */
    char ff[5];       /* the template form: HID, HIE, CYX or resn */
    int kind;         /* 0 amino acid, 1 water, 2 other group */
    int nterm, cterm, tmpl;
    int prev;         /* index of the preceding amino acid of the chain, −1 */
} pres;

/* ---- growable buffers ------------------------------------------------------------------ */
typedef struct {
    char *s;
    size_t n, cap;
    int oom;
} sbuf;

static void sb_printf(sbuf *b, const char *fmt, ...) VSG_PRINTF(2, 3);
static void sb_printf(sbuf *b, const char *fmt, ...)
{
    if (b->oom)
        return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int k = vsnprintf(b->s ? b->s + b->n : NULL, b->s ? b->cap - b->n : 0, fmt, ap);
        va_end(ap);
        if (k < 0)
            return;
        if (b->s && b->n + (size_t)k < b->cap) {
            b->n += (size_t)k;
            return;
        }
        size_t cap = b->cap ? b->cap * 2 : 4096;
        while (cap < b->n + (size_t)k + 1)
            cap *= 2;
        char *t = realloc(b->s, cap);
        if (!t) {
            b->oom = 1;
            return;
        }
        b->s = t;
        b->cap = cap;
    }
}

/* ---- templates ------------------------------------------------------------------------ */
static tres *g_tmpl;
static int g_ntmpl;

static int load_templates(void)
{
    if (g_tmpl)
        return 1;
    tres *t = calloc(40, sizeof *t);
    if (!t)
        return 0;
    int n = 0;
    for (int i = 0; vsg_ff_templates[i]; i++) {
        char rn[8], an[8], bonds[64];
        double x, y, z;
        if (sscanf(vsg_ff_templates[i], "%7s %7s %lf %lf %lf %63s", rn, an, &x, &y, &z, bonds) != 6)
            continue;
        if (n == 0 || strcmp(t[n - 1].name, rn) != 0) {
            if (n == 40)
                break;
            snprintf(t[n].name, sizeof t[n].name, "%.3s", rn);
            n++;
        }
        tres *r = &t[n - 1];
        if (r->n == MAX_TATOMS)
            continue;
        tatom *a = &r->a[r->n++];
        snprintf(a->name, sizeof a->name, "%.4s", an);
        a->x[0] = x, a->x[1] = y, a->x[2] = z;
        for (char *p = strtok(bonds, ","); p && a->nb < MAXB; p = strtok(NULL, ","))
            if (strcmp(p, "-") != 0)
                snprintf(a->bond[a->nb++], 5, "%s", p);
    }
    g_tmpl = t;
    g_ntmpl = n;
    return 1;
}

static int find_template(const char *resn)
{
    for (int i = 0; i < g_ntmpl; i++)
        if (strcmp(g_tmpl[i].name, resn) == 0)
            return i;
    return -1;
}

static int tatom_index(const tres *r, const char *name)
{
    for (int i = 0; i < r->n; i++)
        if (strcmp(r->a[i].name, name) == 0)
            return i;
    return -1;
}

static void tadd(tres *r, const char *name, double x, double y, double z, const char *bonded)
{
    if (r->n == MAX_TATOMS || tatom_index(r, name) >= 0)
        return;
    tatom *a = &r->a[r->n++];
    memset(a, 0, sizeof *a);
    snprintf(a->name, sizeof a->name, "%s", name);
    a->x[0] = x, a->x[1] = y, a->x[2] = z;
    snprintf(a->bond[a->nb++], 5, "%s", bonded);
    int j = tatom_index(r, bonded);
    if (j >= 0 && r->a[j].nb < MAXB)
        snprintf(r->a[j].bond[r->a[j].nb++], 5, "%s", name);
}

static void tremove(tres *r, const char *name)
{
    int i = tatom_index(r, name);
    if (i < 0)
        return;
    memmove(&r->a[i], &r->a[i + 1], (size_t)(r->n - i - 1) * sizeof r->a[0]);
    r->n--;
    for (int k = 0; k < r->n; k++)
        for (int b = 0; b < r->a[k].nb; b++)
            if (strcmp(r->a[k].bond[b], name) == 0) {
                memmove(r->a[k].bond[b], r->a[k].bond[b + 1], (size_t)(r->a[k].nb - b - 1) * 5);
                r->a[k].nb--;
                b--;
            }
}

/* The template of one residue in its protonation and terminal state (PATCHES.xml's NTERM and
 * CTERM coordinates). */
static void residue_template(const pres *p, tres *out)
{
    *out = g_tmpl[p->tmpl];
    if (strcmp(p->ff, "HID") == 0)
        tremove(out, "HE2");
    else if (strcmp(p->ff, "HIE") == 0)
        tremove(out, "HD1");
    else if (strcmp(p->ff, "CYX") == 0)
        tremove(out, "HG");
    if (p->nterm) {
        int pro = strcmp(p->ff, "PRO") == 0;
        tremove(out, "H");
        tadd(out, "H", 0.934, 1.811, 0.000, "N");
        tadd(out, "H2", 1.746, 0.653, -0.817, "N");
        if (!pro) /* pdb2pqr's N-terminal Pro has H and H2 */
            tadd(out, "H3", 1.746, 0.653, 0.817, "N");
    }
    if (p->cterm)
        tadd(out, "OXT", -1.529, 1.858, 0.695, "C");
}

/* ---- geometry: Horn's quaternion superposition ----------------------------------------- */
static void jacobi4(double a[4][4], double v[4][4], double d[4])
{
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            v[i][j] = i == j;
    for (int sweep = 0; sweep < 50; sweep++) {
        double off = 0;
        for (int p = 0; p < 4; p++)
            for (int q = p + 1; q < 4; q++)
                off += a[p][q] * a[p][q];
        if (off < 1e-22)
            break;
        for (int p = 0; p < 4; p++)
            for (int q = p + 1; q < 4; q++) {
                if (fabs(a[p][q]) < 1e-30)
                    continue;
                double th = (a[q][q] - a[p][p]) / (2 * a[p][q]);
                double t = (th >= 0 ? 1 : -1) / (fabs(th) + sqrt(th * th + 1));
                double c = 1 / sqrt(t * t + 1), s = t * c;
                for (int k = 0; k < 4; k++) {
                    double akp = a[k][p], akq = a[k][q];
                    a[k][p] = c * akp - s * akq;
                    a[k][q] = s * akp + c * akq;
                }
                for (int k = 0; k < 4; k++) {
                    double apk = a[p][k], aqk = a[q][k];
                    a[p][k] = c * apk - s * aqk;
                    a[q][k] = s * apk + c * aqk;
                }
                for (int k = 0; k < 4; k++) {
                    double vkp = v[k][p], vkq = v[k][q];
                    v[k][p] = c * vkp - s * vkq;
                    v[k][q] = s * vkp + c * vkq;
                }
            }
    }
    for (int i = 0; i < 4; i++)
        d[i] = a[i][i];
}

/* Rotation R and centroids so that R (t − ct) + cr maps the template points t[] onto r[]. */
static void superpose(const double (*t)[3], const double (*r)[3], int n, double R[3][3], double ct[3],
                      double cr[3])
{
    ct[0] = ct[1] = ct[2] = cr[0] = cr[1] = cr[2] = 0;
    for (int i = 0; i < n; i++)
        for (int k = 0; k < 3; k++)
            ct[k] += t[i][k] / n, cr[k] += r[i][k] / n;
    double S[3][3] = {{0}};
    for (int i = 0; i < n; i++)
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++)
                S[a][b] += (t[i][a] - ct[a]) * (r[i][b] - cr[b]);
    double N[4][4] = {
        {S[0][0] + S[1][1] + S[2][2], S[1][2] - S[2][1], S[2][0] - S[0][2], S[0][1] - S[1][0]},
        {S[1][2] - S[2][1], S[0][0] - S[1][1] - S[2][2], S[0][1] + S[1][0], S[2][0] + S[0][2]},
        {S[2][0] - S[0][2], S[0][1] + S[1][0], -S[0][0] + S[1][1] - S[2][2], S[1][2] + S[2][1]},
        {S[0][1] - S[1][0], S[2][0] + S[0][2], S[1][2] + S[2][1], -S[0][0] - S[1][1] + S[2][2]}};
    double V[4][4], d[4];
    jacobi4(N, V, d);
    int m = 0;
    for (int i = 1; i < 4; i++)
        if (d[i] > d[m])
            m = i;
    double q0 = V[0][m], q1 = V[1][m], q2 = V[2][m], q3 = V[3][m];
    R[0][0] = q0 * q0 + q1 * q1 - q2 * q2 - q3 * q3;
    R[0][1] = 2 * (q1 * q2 - q0 * q3);
    R[0][2] = 2 * (q1 * q3 + q0 * q2);
    R[1][0] = 2 * (q1 * q2 + q0 * q3);
    R[1][1] = q0 * q0 - q1 * q1 + q2 * q2 - q3 * q3;
    R[1][2] = 2 * (q2 * q3 - q0 * q1);
    R[2][0] = 2 * (q1 * q3 - q0 * q2);
    R[2][1] = 2 * (q2 * q3 + q0 * q1);
    R[2][2] = q0 * q0 - q1 * q1 - q2 * q2 + q3 * q3;
}

static double dist2(const double *a, const double *b)
{
    double dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2];
    return dx * dx + dy * dy + dz * dz;
}

static int is_hydrogen_name(const char *name)
{
    const char *p = name;
    while (isdigit((unsigned char)*p))
        p++;
    return *p == 'H';
}

/* ---- reading ---------------------------------------------------------------------------- */
typedef struct {
    patom *a;
    int n, cap;
    pres *r;
    int nr, rcap;
} model;

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

static vsg_status read_pdb(const char *path, model *m, int *altdrop)
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
            if (len < (size_t)(38 + 8 * k) || !vsg_parse_double(line + 30 + 8 * k, 8, &a.x[k])) {
                vsg_lines_close(L);
                return vsg_fail(VSG_E_FORMAT, "%s:%d: bad coordinates", path, a.line);
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

/* ---- force-field tables ------------------------------------------------------------------- */
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

/* AMBER.names: termini are N+RES / C+RES, the N-terminal H is H1 (NPRO's: H3). */
static int amber_params(const pres *p, const char *atom, double *q, double *r)
{
    char res[8];
    snprintf(res, sizeof res, "%s%s", p->nterm ? "N" : p->cterm ? "C" : "", p->ff);
    const char *name = atom;
    if (p->nterm && strcmp(atom, "H") == 0)
        name = strcmp(p->ff, "PRO") ? "H1" : "H3";
    return ff_lookup(vsg_ff_amber, res, name, q, r);
}

/* PARSE.names: HIE → HIS, CYX → CSS, H → HN, HA3 → HA1, HB3 → HB1 (not ALA), HG3 → HG1
 * (not ILE, VAL), HD3 → HD1 (not ILE, LEU), HE3 → HE1 (not MET, TRP), ILE HG13 → HG11;
 * termini: the BK+/BK-/PR+/PR- groups first (H → H1, O → O1, OXT → O2; NPRO H2 → HN2),
 * then the residue. */
static int parse_params(const pres *p, const char *atom, double *q, double *r)
{
    const char *res = p->ff;
    if (strcmp(res, "HIE") == 0)
        res = "HIS";
    else if (strcmp(res, "HIP") == 0)
        res = "HI+";
    else if (strcmp(res, "CYX") == 0)
        res = "CSS";
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

/* ---- elements ------------------------------------------------------------------------------ */
static double bondi_radius(const char *el)
{
    static const struct { const char *e; double r; } t[] = {
        {"H", 1.20}, {"C", 1.70}, {"N", 1.55}, {"O", 1.52}, {"F", 1.47}, {"P", 1.80}, {"S", 1.80},
        {"Cl", 1.75}, {"Br", 1.85}, {"I", 1.98}, {"Se", 1.90}, {"B", 1.92}, {"Si", 2.10},
        {"Na", 2.27}, {"K", 2.75}, {"Mg", 1.73}, {"Ca", 2.31}, {"Zn", 1.39}, {"Fe", 1.94},
        {"Mn", 1.97}, {"Cu", 1.40}, {"Ni", 1.63}, {"Co", 1.92}, {"Cd", 1.58}, {"Hg", 1.55}};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (strcmp(t[i].e, el) == 0)
            return t[i].r;
    return 1.80;
}

/* Formal charge of a lone metal or halide ion, or 99 when el is not one. */
static int ion_charge(const char *el)
{
    static const struct { const char *e; int q; } t[] = {
        {"Li", 1}, {"Na", 1}, {"K", 1}, {"Rb", 1}, {"Cs", 1}, {"Mg", 2}, {"Ca", 2}, {"Sr", 2},
        {"Ba", 2}, {"Zn", 2}, {"Mn", 2}, {"Fe", 2}, {"Co", 2}, {"Ni", 2}, {"Cu", 2}, {"Cd", 2},
        {"Hg", 2}, {"Al", 3}, {"F", -1}, {"Cl", -1}, {"Br", -1}, {"I", -1}};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (strcmp(t[i].e, el) == 0)
            return t[i].q;
    return 99;
}

static double covalent_radius(const char *el)
{
    static const struct { const char *e; double r; } t[] = {
        {"H", 0.31}, {"C", 0.76}, {"N", 0.71}, {"O", 0.66}, {"F", 0.57}, {"P", 1.07}, {"S", 1.05},
        {"Cl", 1.02}, {"Br", 1.20}, {"I", 1.39}, {"B", 0.84}, {"Se", 1.20}, {"Si", 1.11}};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (strcmp(t[i].e, el) == 0)
            return t[i].r;
    return 0; /* metals: no covalent bonds inferred */
}

/* ---- the pipeline -------------------------------------------------------------------------- */
typedef struct {
    model m;            /* input atoms and residues */
    patom *out;         /* output atoms */
    int nout, capout;
    int *res_of;        /* residue of each output atom */
    sbuf notes;
    vsg_prep_summary s;
    int missing_heavy, unplaced, h_dropped, extra_dropped, unknown, waters_kept;
} job;

static int emit(job *j, const patom *a, int res)
{
    if (j->nout == j->capout) {
        int cap = j->capout ? 2 * j->capout : 8192;
        patom *t = realloc(j->out, (size_t)cap * sizeof *t);
        int *u = realloc(j->res_of, (size_t)cap * sizeof *u);
        if (t)
            j->out = t;
        if (u)
            j->res_of = u;
        if (!t || !u)
            return 0;
        j->capout = cap;
    }
    j->res_of[j->nout] = res;
    j->out[j->nout++] = *a;
    return 1;
}

static const char *aa_base(const char *resn)
{
    static const char *const alias[][2] = {{"HID", "HIS"}, {"HIE", "HIS"}, {"HIP", "HIS"}, {"HSD", "HIS"},
                                           {"HSE", "HIS"}, {"HSP", "HIS"}, {"CYX", "CYS"}, {"CYM", "CYS"},
                                           {"ASH", "ASP"}, {"GLH", "GLU"}, {"LYN", "LYS"}, {"MSE", ""}};
    for (size_t i = 0; i < sizeof alias / sizeof alias[0]; i++)
        if (strcmp(resn, alias[i][0]) == 0)
            return alias[i][1];
    return resn;
}

static int is_water(const char *resn)
{
    return !strcmp(resn, "HOH") || !strcmp(resn, "WAT") || !strcmp(resn, "H2O") || !strcmp(resn, "DOD") ||
           !strcmp(resn, "TIP") || !strcmp(resn, "SOL");
}

static int res_atom(const model *m, const pres *p, const char *name)
{
    for (int i = p->first; i < p->first + p->n; i++)
        if (strcmp(m->a[i].name, name) == 0)
            return i;
    return -1;
}

static void build_residues(job *j)
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
        p->tmpl = base[0] ? find_template(base) : -1;
        if (p->tmpl >= 0 && res_atom(m, p, "CA") >= 0 && (res_atom(m, p, "N") >= 0 || res_atom(m, p, "C") >= 0)) {
            p->kind = 0;
            snprintf(p->ff, sizeof p->ff, "%s", base);
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
            p->kind = is_water(p->resn) ? 1 : 2;
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
        int c = res_atom(m, &m->r[p->prev], "C"), n = res_atom(m, p, "N");
        if (c < 0 || n < 0 || dist2(m->a[c].x, m->a[n].x) > 2.0 * 2.0)
            p->prev = -2; /* gap: not a terminus (as pdb2pqr), amide H from the template */
    }
}

static int is_water(const char *resn);

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
    if (is_water(r))
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
    int n = res_atom(m, p, ring_n), x = res_atom(m, p, b1), y = res_atom(m, p, b2);
    if (n < 0 || x < 0 || y < 0)
        return 0;
    double u[3], nu = 0, score = 0;
    for (int d = 0; d < 3; d++)
        u[d] = m->a[n].x[d] - 0.5 * (m->a[x].x[d] + m->a[y].x[d]), nu += u[d] * u[d];
    nu = sqrt(nu);
    for (int i = 0; i < m->n; i++) {
        if (i >= p->first && i < p->first + p->n)
            continue;
        double d2 = dist2(m->a[n].x, m->a[i].x);
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

static void protonation(job *j)
{
    model *m = &j->m;
    /* disulfides */
    for (int r = 0; r < m->nr; r++) {
        if (m->r[r].kind != 0 || strcmp(m->r[r].ff, "CYS") != 0)
            continue;
        int sg = res_atom(m, &m->r[r], "SG");
        for (int t = r + 1; sg >= 0 && t < m->nr; t++) {
            if (m->r[t].kind != 0 || (strcmp(m->r[t].ff, "CYS") != 0 && strcmp(m->r[t].ff, "CYX") != 0))
                continue;
            int sg2 = res_atom(m, &m->r[t], "SG");
            if (sg2 >= 0 && dist2(m->a[sg].x, m->a[sg2].x) < 2.5 * 2.5) {
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

static const char *template_altname(const char *name)
{
    if (!strcmp(name, "OT1") || !strcmp(name, "O1"))
        return "O";
    if (!strcmp(name, "OT2") || !strcmp(name, "O2") || !strcmp(name, "OT"))
        return "OXT";
    return name;
}

/* One amino acid: heavy atoms as read (renamed to the template's), the missing ones built,
 * then every hydrogen of the template built. */
static int place_residue(job *j, int r)
{
    model *m = &j->m;
    pres *p = &m->r[r];
    tres t;
    residue_template(p, &t);
    int have[MAX_TATOMS] = {0}, src[MAX_TATOMS];
    double pos[MAX_TATOMS][3];
    for (int i = p->first; i < p->first + p->n; i++) {
        patom *a = &m->a[i];
        if (is_hydrogen_name(a->name) || !strcmp(a->element, "H") || !strcmp(a->element, "D")) {
            j->h_dropped++;
            continue;
        }
        int k = tatom_index(&t, template_altname(a->name));
        if (k < 0) {
            j->extra_dropped++;
            sb_printf(&j->notes, "  dropped atom %s of %s %c%d (not in the template)\n", a->name, p->resn,
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
                sb_printf(&j->notes, "  missing %s of %s %c%d: rebuilt from the template\n", t.a[k].name, p->resn,
                          m->a[p->first].chain, m->a[p->first].resseq);
            }
            int n_ = tatom_index(&t, "N"), ca = tatom_index(&t, "CA");
            if (strcmp(t.a[k].name, "H") == 0 && !p->nterm && p->prev >= 0 && n_ >= 0 && ca >= 0 && have[n_] &&
                have[ca]) {
                int c = res_atom(m, &m->r[p->prev], "C");
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
                    int c = tatom_index(&t, t.a[a].bond[b]);
                    if (c >= 0 && !seen[c]) {
                        seen[c] = 1;
                        queue[tail] = c, depth[tail++] = da + 1;
                    }
                }
            }
            if (nref < 3) {
                j->unplaced++;
                sb_printf(&j->notes, "  could not build %s of %s %c%d (too few atoms to fit)\n", t.a[k].name,
                          p->resn, m->a[p->first].chain, m->a[p->first].resseq);
                continue;
            }
            double tp[6][3], rp[6][3], R[3][3], ct[3], cr[3];
            for (int q = 0; q < nref; q++)
                for (int d = 0; d < 3; d++)
                    tp[q][d] = t.a[ref[q]].x[d], rp[q][d] = pos[ref[q]][d];
            superpose((const double (*)[3])tp, (const double (*)[3])rp, nref, R, ct, cr);
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
    /* emit: atoms read in file order, then the built ones in template order */
    patom proto = m->a[p->first];
    proto.het = 0;
    for (int k = 0; k < t.n; k++)
        if (have[k] == 1) {
            patom a = m->a[src[k]];
            snprintf(a.name, sizeof a.name, "%s", t.a[k].name);
            if (!emit(j, &a, r))
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
            if (!emit(j, &a, r))
                return 0;
        }
    return 1;
}

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
            double ri = covalent_radius(a[i].element), rk = covalent_radius(a[k].element);
            if (ri <= 0 || rk <= 0 || dist2(a[i].x, a[k].x) > (ri + rk + 0.45) * (ri + rk + 0.45))
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

static void mark_planar_rings(vsg_ligand *lig, int from);
static void mark_oxo_groups(vsg_ligand *lig, int from);
static vsg_status spread_formal_charges(vsg_ligand *lig);

/* HETATM groups have no bond orders: the bonds of planar 5- and 6-membered rings (every ring
 * atom within 0.1 Å of the ring's mean plane) among lig->bonds[from..] become aromatic, so
 * Open Babel perceives aromatic rings and sp2 atoms (adenine, nicotinamide, flavin, haem). */
static void mark_planar_rings(vsg_ligand *lig, int from)
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
static void mark_oxo_groups(vsg_ligand *lig, int from)
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
static vsg_status spread_formal_charges(vsg_ligand *lig)
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

static vsg_status charge_groups(job *j, const vsg_prep_options *o)
{
    model *m = &j->m;
    for (int r = 0; r < m->nr; r++) {
        pres *p = &m->r[r];
        if (p->kind == 1) {
            if (!o->keep_waters) {
                j->s.waters_dropped++;
                continue;
            }
            j->waters_kept++;
            for (int i = p->first; i < p->first + p->n; i++) {
                patom a = m->a[i];
                a.q = 0, a.r = bondi_radius(a.element);
                if (!emit(j, &a, r))
                    return vsg_fail(VSG_E_NOMEM, "out of memory");
            }
            continue;
        }
        if (p->kind != 2)
            continue;
        j->s.het_groups++;
        int start = j->nout;
        for (int i = p->first; i < p->first + p->n; i++) {
            patom a = m->a[i];
            a.het = 1;
            a.r = bondi_radius(a.element);
            a.q = 0;
            if (!emit(j, &a, r))
                return vsg_fail(VSG_E_NOMEM, "out of memory");
        }
        int q = ion_charge(m->a[p->first].element);
        if (p->n == 1 && q != 99) {
            j->out[start].q = q;
            sb_printf(&j->notes, "  %s %c%d: ion, formal charge %+d\n", p->resn, m->a[p->first].chain,
                      m->a[p->first].resseq, q);
            continue;
        }
        if (o->format == VSG_PREP_PDBQT)
            continue; /* charged with the whole structure */
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
            if (covalent_radius(j->out[i].element) > 0) {
                back[norg] = i;
                org[norg++] = j->out[i];
            } else {
                int qi = ion_charge(j->out[i].element);
                j->out[i].q = qi == 99 ? 0 : qi;
                metal_q += qi == 99 ? 0 : qi;
                nmetal++;
            }
        }
        vsg_ligand lig;
        vsg_ligand_init(&lig);
        vsg_status st = norg ? group_ligand(org, norg, &lig) : VSG_OK;
        if (st == VSG_OK && norg) {
            mark_planar_rings(&lig, 0);
            mark_oxo_groups(&lig, 0);
            st = vsg_ligand_gasteiger(&lig);
        }
        if (st == VSG_OK && norg)
            st = spread_formal_charges(&lig);
        if (st == VSG_OK) {
            double sum = metal_q;
            for (int i = 0; i < lig.natoms; i++)
                j->out[back[i]].q = lig.atoms[i].charge, sum += lig.atoms[i].charge;
            sb_printf(&j->notes, "  %s %c%d (%d atoms): kept, Gasteiger charges%s (sum %+.3f), Bondi radii\n",
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
            sb_printf(&j->notes, "  %s %c%d (%d atoms): kept with charges 0 (%s%s)\n", p->resn, m->a[p->first].chain,
                      m->a[p->first].resseq, p->n,
                      st == VSG_E_UNSUPPORTED ? "no Open Babel in this build for Gasteiger charges" : "no Gasteiger charges: ",
                      st == VSG_E_UNSUPPORTED ? "" : vsg_last_error());
        }
    }
    return VSG_OK;
}

static void charge_residues(job *j, const vsg_prep_options *o)
{
    model *m = &j->m;
    for (int i = 0; i < j->nout; i++) {
        pres *p = &m->r[j->res_of[i]];
        if (p->kind != 0)
            continue;
        double q = 0, rad = 0;
        int ok = o->ff == VSG_PREP_PARSE ? parse_params(p, j->out[i].name, &q, &rad)
                                          : amber_params(p, j->out[i].name, &q, &rad);
        if (!ok) {
            sb_printf(&j->notes, "  no %s parameters for %s %s %c%d: charge 0\n",
                      o->ff == VSG_PREP_PARSE ? "PARSE" : "AMBER", j->out[i].name, p->resn, j->out[i].chain,
                      j->out[i].resseq);
            j->unknown++;
        }
        j->out[i].q = q;
        j->out[i].r = rad;
    }
}

static int find_out(const job *j, int first, int count, const char *name)
{
    for (int i = first; first >= 0 && i < first + count; i++)
        if (strcmp(j->out[i].name, name) == 0)
            return i;
    return -1;
}

/* ---- PDBQT: Gasteiger charges over the whole structure -------------------------------------- */
static int add_bond(vsg_ligand *lig, int a, int b, int order)
{
    if (a < 0 || b < 0 || a == b)
        return 1;
    for (int e = 0; e < lig->nbonds; e++)
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

/* Double and aromatic bonds, and formal charges, of the standard residues. */
static const char *const multiple_bonds[] = {
    "* C O 2",      "ASP CG OD1 2",  "GLU CD OE1 2",  "ASN CG OD1 2",  "GLN CD OE1 2",  "ARG CZ NH2 2",
    "PHE CG CD1 4", "PHE CD1 CE1 4", "PHE CE1 CZ 4",  "PHE CZ CE2 4",  "PHE CE2 CD2 4", "PHE CD2 CG 4",
    "TYR CG CD1 4", "TYR CD1 CE1 4", "TYR CE1 CZ 4",  "TYR CZ CE2 4",  "TYR CE2 CD2 4", "TYR CD2 CG 4",
    "TRP CG CD1 4", "TRP CD1 NE1 4", "TRP NE1 CE2 4", "TRP CE2 CD2 4", "TRP CD2 CG 4",  "TRP CE2 CZ2 4",
    "TRP CZ2 CH2 4", "TRP CH2 CZ3 4", "TRP CZ3 CE3 4", "TRP CE3 CD2 4", "HI* CG ND1 4", "HI* ND1 CE1 4",
    "HI* CE1 NE2 4", "HI* NE2 CD2 4", "HI* CD2 CG 4",  NULL};

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
    patom *tmp = malloc((size_t)n * sizeof *tmp);
    int *stack = malloc((size_t)n * sizeof *stack), *done = calloc((size_t)n, sizeof *done), k = 0;
    if (!tmp || !stack || !done) {
        free(tmp);
        free(stack);
        free(done);
        return 0;
    }
    /* iterative depth-first search, an atom emitted when popped; its terminal neighbours (one
       bond: O, N, halogens) right after it */
    int cap = 8 * n + 16; /* pushes: at most one per bond end */
    free(stack);
    stack = malloc((size_t)cap * sizeof *stack);
    if (!stack) {
        free(tmp);
        free(done);
        return 0;
    }
#define BONDED(I, J)                                                                                        \
    ((I) != (J) && covalent_radius(a[I].element) > 0 && covalent_radius(a[J].element) > 0 &&                \
     dist2(a[I].x, a[J].x) <= (covalent_radius(a[I].element) + covalent_radius(a[J].element) + 0.45) *       \
                                  (covalent_radius(a[I].element) + covalent_radius(a[J].element) + 0.45))
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

static vsg_status pdbqt_charges(job *j, vsg_ligand *lig)
{
    model *m = &j->m;
    /* ions and waters last, outside the Gasteiger molecule (Open Babel has no parameters for
       metal ions): ions keep their formal charge, waters 0 */
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
            int metal = p->kind == 2 && covalent_radius(j->out[i].element) <= 0;
            int tail = p->kind == 1 || metal || (p->kind == 2 && p->n == 1 && ion_charge(j->out[i].element) != 99);
            if (tail != pass)
                continue;
            if (tail) {
                snprintf(j->out[i].ad, sizeof j->out[i].ad, "%s", p->kind == 1 ? "OA" : j->out[i].element);
                int qi = ion_charge(j->out[i].element);
                j->out[i].q = p->kind == 1 || qi == 99 ? 0 : qi;
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
        if (p->kind != 0) {
            int from = lig->nbonds;
            for (int a = first[r]; a < first[r] + count[r]; a++)
                for (int b = a + 1; b < first[r] + count[r]; b++) {
                    double ra = covalent_radius(j->out[a].element), rb = covalent_radius(j->out[b].element);
                    double lim = ra + rb + 0.45;
                    if (ra > 0 && rb > 0 && dist2(j->out[a].x, j->out[b].x) < lim * lim)
                        ok &= add_bond(lig, a, b, 1);
                }
            if (ok) {
                mark_planar_rings(lig, from);
                mark_oxo_groups(lig, from);
            }
            continue;
        }
        tres t;
        residue_template(p, &t);
        for (int k = 0; k < t.n; k++)
            for (int b = 0; b < t.a[k].nb; b++)
                ok &= add_bond(lig, ATOM_OF(r, t.a[k].name), ATOM_OF(r, t.a[k].bond[b]), 1);
        for (int e = 0; multiple_bonds[e]; e++) {
            char rp[8], a1[8], a2[8];
            int order;
            if (sscanf(multiple_bonds[e], "%7s %7s %7s %d", rp, a1, a2, &order) == 4 && res_matches(rp, p->ff))
                ok &= add_bond(lig, ATOM_OF(r, a1), ATOM_OF(r, a2), order);
        }
        if (p->prev >= 0)
            ok &= add_bond(lig, ATOM_OF(p->prev, "C"), ATOM_OF(r, "N"), 1);
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
        if (!strcmp(p->ff, "CYX")) {
            int sg = ATOM_OF(r, "SG");
            for (int s = r + 1; sg >= 0 && s < m->nr; s++) {
                if (m->r[s].kind != 0 || strcmp(m->r[s].ff, "CYX") != 0 || first[s] < 0)
                    continue;
                int sg2 = ATOM_OF(s, "SG");
                if (sg2 >= 0 && dist2(j->out[sg].x, j->out[sg2].x) < 2.5 * 2.5)
                    ok &= add_bond(lig, sg, sg2, 1);
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
    st = spread_formal_charges(lig);
    if (st != VSG_OK)
        return st;
    for (int i = 0; i < lig->natoms; i++) {
        j->out[i].q = lig->atoms[i].charge;
        snprintf(j->out[i].ad, sizeof j->out[i].ad, "%s", lig->atoms[i].ad_type);
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

/* ---- writers and the entry point ---------------------------------------------------------- */
static void pdb_name(const char *name, char out[6])
{
    if (strlen(name) >= 4 || isdigit((unsigned char)name[0]))
        snprintf(out, 6, "%-4.4s", name);
    else
        snprintf(out, 6, " %-3s", name);
}

void vsg_prep_options_default(vsg_prep_options *o)
{
    if (!o)
        return;
    memset(o, 0, sizeof *o);
    o->ph = 7.4;
    o->ff = VSG_PREP_AMBER;
    o->format = VSG_PREP_PQR;
}

void vsg_prep_summary_free(vsg_prep_summary *s)
{
    if (s) {
        free(s->report);
        s->report = NULL;
    }
}

static void release_job(job *j)
{
    free(j->m.a);
    free(j->m.r);
    free(j->out);
    free(j->res_of);
    free(j->notes.s);
    free(j->s.report);
}

vsg_status vsg_receptor_prepare(const char *path, const vsg_prep_options *opt, char **text,
                                vsg_prep_summary *summary)
{
    if (!path || !text)
        return vsg_fail(VSG_E_ARG, "vsg_receptor_prepare: path and text are required");
    *text = NULL;
    vsg_prep_options o;
    vsg_prep_options_default(&o);
    if (opt)
        o = *opt;
    if ((o.ff != VSG_PREP_AMBER && o.ff != VSG_PREP_PARSE) || (o.format != VSG_PREP_PQR && o.format != VSG_PREP_PDBQT) ||
        !(o.ph >= 0 && o.ph <= 14))
        return vsg_fail(VSG_E_ARG, "vsg_receptor_prepare: bad options (force field, format, or pH outside 0..14)");
    if (o.format == VSG_PREP_PDBQT && !vsg_ligand_gasteiger_available())
        return vsg_fail(VSG_E_UNSUPPORTED, "PDBQT preparation needs Gasteiger charges: this vsgrid was built "
                                           "without Open Babel (libopenbabel-dev)");
    if (!load_templates())
        return vsg_fail(VSG_E_NOMEM, "out of memory");
    job j;
    memset(&j, 0, sizeof j);
    vsg_status st = read_pdb(path, &j.m, &j.s.altlocs_dropped);
    if (st != VSG_OK) {
        release_job(&j);
        return st;
    }
    j.s.atoms_in = j.m.n;
    build_residues(&j);
    if (!j.m.r) {
        release_job(&j);
        return vsg_fail(VSG_E_NOMEM, "out of memory");
    }
    protonation(&j);
    for (int r = 0; r < j.m.nr; r++)
        if (j.m.r[r].kind == 0) {
            j.s.residues++;
            if (!place_residue(&j, r)) {
                release_job(&j);
                return vsg_fail(VSG_E_NOMEM, "out of memory");
            }
        }
    st = charge_groups(&j, &o);
    if (st == VSG_OK && o.format == VSG_PREP_PQR)
        charge_residues(&j, &o);
    vsg_ligand lig;
    vsg_ligand_init(&lig);
    if (st == VSG_OK && o.format == VSG_PREP_PDBQT)
        st = pdbqt_charges(&j, &lig);
    vsg_ligand_release(&lig);
    if (st != VSG_OK) {
        release_job(&j);
        return st;
    }
    /* text */
    sbuf out = {0};
    sb_printf(&out, "REMARK   1 %s by vsgrid prepare from %s\n",
              o.format == VSG_PREP_PQR ? (o.ff == VSG_PREP_PARSE ? "PQR, PARSE charges and radii"
                                                                 : "PQR, AMBER charges and radii")
                                       : "PDBQT, Gasteiger charges, AutoDock 4 types",
              path);
    int serial = 0;
    double total = 0;
    for (int i = 0; i < j.nout; i++) {
        const patom *a = &j.out[i];
        if (a->ad[0] == '-')
            continue;
        char nm[6];
        pdb_name(a->name, nm);
        serial++;
        total += a->q;
        if (o.format == VSG_PREP_PQR)
            sb_printf(&out, "%-6s%5d %s %-3s %c%4d%c   %8.3f%8.3f%8.3f %7.4f %6.4f\n", a->het ? "HETATM" : "ATOM",
                      serial % 100000, nm, a->resn, a->chain, a->resseq, a->icode, a->x[0], a->x[1], a->x[2], a->q,
                      a->r);
        else
            sb_printf(&out, "%-6s%5d %s %-3s %c%4d%c   %8.3f%8.3f%8.3f%6.2f%6.2f    %6.3f %-2s\n",
                      a->het ? "HETATM" : "ATOM", serial % 100000, nm, a->resn, a->chain, a->resseq, a->icode,
                      a->x[0], a->x[1], a->x[2], 1.0, 0.0, a->q, a->ad[0] ? a->ad : a->element);
    }
    sb_printf(&out, "END\n");
    j.s.atoms_out = serial;
    j.s.total_charge = total;
    /* summary */
    sbuf rep = {0};
    sb_printf(&rep, "prepared %s: %d atoms read, %d written (%d hydrogens and %d heavy atoms added)\n", path,
              j.s.atoms_in, j.s.atoms_out, j.s.h_added, j.s.heavy_added);
    sb_printf(&rep, "  %d amino acids (His: %d HID, %d HIE by H-bond partner; %d disulfides), %d other groups kept, "
                    "%d waters %s, %d alternate locations dropped, %d input hydrogens rebuilt\n",
              j.s.residues, j.s.his_hid, j.s.his_hie, j.s.disulfides, j.s.het_groups,
              o.keep_waters ? j.waters_kept : j.s.waters_dropped, o.keep_waters ? "kept" : "dropped",
              j.s.altlocs_dropped, j.h_dropped);
    if (j.missing_heavy)
        sb_printf(&rep, "  %d missing heavy atoms rebuilt from templates\n", j.missing_heavy);
    if (fabs(o.ph - 7.4) > 1.5)
        sb_printf(&rep, "  note: pH %.1f, but the protonation states are pdb2pqr's fixed ones (no pKa titration)\n",
                  o.ph);
    if (j.notes.s)
        sb_printf(&rep, "%s", j.notes.s);
    sb_printf(&rep, "  total charge %+.4f e\n", total);
    if (out.oom || rep.oom) {
        free(out.s);
        free(rep.s);
        release_job(&j);
        return vsg_fail(VSG_E_NOMEM, "out of memory");
    }
    *text = out.s;
    if (summary) {
        *summary = j.s;
        summary->report = rep.s;
        j.s.report = NULL;
    } else
        free(rep.s);
    release_job(&j);
    return VSG_OK;
}
