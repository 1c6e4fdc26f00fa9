/* mmcif_model.c — the input model of receptor preparation from a PDBx/mmCIF file: the
 * _atom_site table of the first data block (a loop_, or tag-value pairs for one atom), read
 * into the same atoms as a PDB file gives (pdb_model.c): the author fields the PDB format
 * carries (auth_asym_id, auth_seq_id, auth_comp_id, auth_atom_id; label_* when those are
 * absent or '?'), the first model, alternate locations by occupancy as pdb_model.c does.
 * Tokens per CIF 1.1: '…' and "…" (a quote ends only before a blank), '.' and '?' (no value),
 * ';' text fields (one value, not used), # comments, tags in any order and any case.
 * PDB has one-character chain IDs: longer ones get a free character each (summary note). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "grids/base/textio.h"
#include "engine/prepare/prep_model.h"

enum { F_GROUP, F_TYPE, F_LATOM, F_AATOM, F_ALT, F_LCOMP, F_ACOMP, F_LASYM, F_AASYM, F_LSEQ, F_ASEQ, F_INS,
       F_X, F_Y, F_Z, F_OCC, F_MODEL, NF };
static const char *const field_name[NF] = {"group_PDB", "type_symbol", "label_atom_id", "auth_atom_id",
                                           "label_alt_id", "label_comp_id", "auth_comp_id", "label_asym_id",
                                           "auth_asym_id", "label_seq_id", "auth_seq_id", "pdbx_PDB_ins_code",
                                           "Cartn_x", "Cartn_y", "Cartn_z", "occupancy", "pdbx_PDB_model_num"};
enum { VAL_MAX = 64, MAX_CHAIN_NOTES = 8 };

enum { T_END, T_VALUE, T_TAG, T_LOOP, T_DATA, T_OTHER };

typedef struct {
    int kind, line;
    const char *s;
    size_t n;
    int null; /* unquoted '.' or '?' */
    int text; /* a ';' text field */
} token;

typedef struct {
    char s[VAL_MAX];
    int set, null, text;
} value;

typedef struct {
    const char *path;
    vsg_lines *L;
    char *line;
    size_t len, pos;
    int have_line;
    /* the atom table: which fields it has, the row being filled, model and chains */
    int have[NF];
    value row[NF];
    int row_line, model, model_set;
    char (*chains)[VAL_MAX]; /* distinct chain IDs, first appearance first */
    int nchains, chain_cap;
    int *chain_of;           /* each atom's chain (index into chains) */
    int chain_of_cap, wrapped;
    model *m;
    int *altdrop;
} reader;

static int blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

/* Next token; 0, or a negative vsg_status (failed). */
static int next_token(reader *r, token *t)
{
    memset(t, 0, sizeof *t);
    for (;;) {
        if (!r->have_line || r->pos >= r->len) {
            int rc = vsg_lines_next(r->L, &r->line, &r->len);
            if (rc < 0)
                return rc;
            if (rc == 0) {
                t->kind = T_END;
                t->line = vsg_lines_number(r->L);
                return 0;
            }
            r->have_line = 1;
            r->pos = 0;
            if (r->len > 0 && r->line[0] == ';') { /* text field: up to a line that starts with ';' */
                t->line = vsg_lines_number(r->L);
                do {
                    rc = vsg_lines_next(r->L, &r->line, &r->len);
                    if (rc < 0)
                        return rc;
                    if (rc == 0)
                        return vsg_fail(VSG_E_FORMAT, "%s:%d: ';' text field never closed", r->path, t->line);
                } while (!(r->len > 0 && r->line[0] == ';'));
                r->pos = 1;
                t->kind = T_VALUE;
                t->text = 1;
                return 0;
            }
        }
        while (r->pos < r->len && blank(r->line[r->pos]))
            r->pos++;
        if (r->pos < r->len && r->line[r->pos] != '#')
            break;
        r->pos = r->len; /* blank rest, or a comment */
    }
    const char *s = r->line + r->pos;
    size_t rest = r->len - r->pos;
    t->line = vsg_lines_number(r->L);
    if (s[0] == '\'' || s[0] == '"') {
        size_t k = 1;
        while (k < rest && !(s[k] == s[0] && (k + 1 == rest || blank(s[k + 1]))))
            k++;
        if (k >= rest)
            return vsg_fail(VSG_E_FORMAT, "%s:%d: quoted value never closed", r->path, t->line);
        t->kind = T_VALUE;
        t->s = s + 1;
        t->n = k - 1;
        r->pos += k + 1;
        return 0;
    }
    size_t k = 0;
    while (k < rest && !blank(s[k]))
        k++;
    r->pos += k;
    t->s = s;
    t->n = k;
    if (s[0] == '_')
        t->kind = T_TAG;
    else if (k == 5 && strncasecmp(s, "loop_", 5) == 0)
        t->kind = T_LOOP;
    else if (k >= 5 && strncasecmp(s, "data_", 5) == 0)
        t->kind = T_DATA;
    else if ((k >= 5 && strncasecmp(s, "save_", 5) == 0) || (k == 7 && strncasecmp(s, "global_", 7) == 0) ||
             (k == 5 && strncasecmp(s, "stop_", 5) == 0))
        t->kind = T_OTHER;
    else {
        t->kind = T_VALUE;
        t->null = k == 1 && (s[0] == '.' || s[0] == '?');
    }
    return 0;
}

/* The _atom_site field a tag names, -1 for any other tag (and -2 for another category). */
static int atom_site_field(const token *t)
{
    static const char cat[] = "_atom_site.";
    size_t c = sizeof cat - 1;
    if (t->n <= c || strncasecmp(t->s, cat, c) != 0)
        return -2;
    for (int f = 0; f < NF; f++)
        if (strlen(field_name[f]) == t->n - c && strncasecmp(t->s + c, field_name[f], t->n - c) == 0)
            return f;
    return -1;
}

static vsg_status store(reader *r, int f, const token *t)
{
    if (f < 0)
        return VSG_OK;
    value *v = &r->row[f];
    if (t->n >= VAL_MAX)
        return vsg_fail(VSG_E_FORMAT, "%s:%d: _atom_site.%s: a value of %zu characters", r->path, t->line,
                        field_name[f], t->n);
    if (t->n)
        memcpy(v->s, t->s, t->n);
    v->s[t->n] = 0;
    v->set = 1;
    v->null = t->null;
    v->text = t->text;
    return VSG_OK;
}

/* The value of field f, or NULL when the table lacks it or it is '.', '?' or empty. */
static const char *get(const reader *r, int f)
{
    return r->have[f] && r->row[f].set && !r->row[f].null && r->row[f].s[0] ? r->row[f].s : NULL;
}

static const char *get_either(const reader *r, int author, int label)
{
    const char *s = get(r, author);
    return s ? s : get(r, label);
}

static vsg_status number(const reader *r, int f, double *out)
{
    const char *s = get(r, f);
    if (!s)
        return vsg_fail(VSG_E_FORMAT, "%s:%d: no value of _atom_site.%s", r->path, r->row_line, field_name[f]);
    size_t n = strlen(s);
    const char *open = strchr(s, '(');
    if (open && s[n - 1] == ')') /* a standard uncertainty, 1.234(5) */
        n = (size_t)(open - s);
    if (!vsg_parse_double(s, n, out))
        return vsg_fail(VSG_E_FORMAT, "%s:%d: _atom_site.%s: '%s' is not a number", r->path, r->row_line,
                        field_name[f], s);
    return VSG_OK;
}

static vsg_status integer(const reader *r, int f, int *out)
{
    const char *s = get(r, f);
    if (!vsg_parse_int(s, strlen(s), out))
        return vsg_fail(VSG_E_FORMAT, "%s:%d: _atom_site.%s: '%s' is not an integer", r->path, r->row_line,
                        field_name[f], s);
    return VSG_OK;
}

static int chain_index(reader *r, const char *id)
{
    for (int i = r->nchains - 1; i >= 0; i--)
        if (strcmp(r->chains[i], id) == 0)
            return i;
    if (r->nchains == r->chain_cap) {
        int cap = r->chain_cap ? 2 * r->chain_cap : 16;
        char(*t)[VAL_MAX] = realloc(r->chains, (size_t)cap * sizeof *t);
        if (!t)
            return -1;
        r->chains = t;
        r->chain_cap = cap;
    }
    snprintf(r->chains[r->nchains], VAL_MAX, "%s", id);
    return r->nchains++;
}

static vsg_status push_atom(reader *r, const patom *a, int chain)
{
    model *m = r->m;
    if (a->altloc != ' ') /* the same atom seen before in another location: the higher occupancy */
        for (int i = m->n - 1; i >= 0 && i >= m->n - 64; i--)
            if (r->chain_of[i] == chain && m->a[i].resseq == a->resseq && m->a[i].icode == a->icode &&
                strcmp(m->a[i].name, a->name) == 0) {
                if (a->occ > m->a[i].occ)
                    m->a[i] = *a;
                (*r->altdrop)++;
                return VSG_OK;
            }
    if (m->n == m->cap || m->n == r->chain_of_cap) {
        int cap = m->cap ? 2 * m->cap : 4096;
        patom *t = realloc(m->a, (size_t)cap * sizeof *t);
        if (t)
            m->a = t, m->cap = cap;
        int *c = t ? realloc(r->chain_of, (size_t)cap * sizeof *c) : NULL;
        if (!c)
            return vsg_fail(VSG_E_NOMEM, "out of memory reading %s", r->path);
        r->chain_of = c;
        r->chain_of_cap = cap;
    }
    r->chain_of[m->n] = chain;
    m->a[m->n++] = *a;
    return VSG_OK;
}

/* One _atom_site row into the model (rows of a later model skipped). */
static vsg_status take_row(reader *r)
{
    for (int f = 0; f < NF; f++)
        if (r->have[f] && r->row[f].text)
            return vsg_fail(VSG_E_FORMAT, "%s:%d: _atom_site.%s: a ';' text field, not a value", r->path,
                            r->row_line, field_name[f]);
    vsg_status st;
    if (get(r, F_MODEL)) {
        int num;
        if ((st = integer(r, F_MODEL, &num)) != VSG_OK)
            return st;
        if (!r->model_set)
            r->model = num, r->model_set = 1;
        else if (num != r->model)
            return VSG_OK;
    }
    patom a;
    memset(&a, 0, sizeof a);
    a.line = r->row_line;
    const char *name = get_either(r, F_AATOM, F_LATOM), *resn = get_either(r, F_ACOMP, F_LCOMP);
    if (!name || !resn)
        return vsg_fail(VSG_E_FORMAT, "%s:%d: an atom without its %s", r->path, r->row_line,
                        name ? "residue name (_atom_site.auth_comp_id)" : "name (_atom_site.auth_atom_id)");
    if (strlen(name) >= sizeof a.name || strlen(resn) >= sizeof a.resn)
        return vsg_fail(VSG_E_FORMAT, "%s:%d: %s '%s' longer than the PDB format's %zu characters", r->path,
                        r->row_line, strlen(resn) >= sizeof a.resn ? "residue name" : "atom name",
                        strlen(resn) >= sizeof a.resn ? resn : name,
                        strlen(resn) >= sizeof a.resn ? sizeof a.resn - 1 : sizeof a.name - 1);
    memcpy(a.name, name, strlen(name) + 1);
    memcpy(a.resn, resn, strlen(resn) + 1);
    const char *g = get(r, F_GROUP);
    a.het = g && strcasecmp(g, "HETATM") == 0;
    const char *one[2] = {get(r, F_ALT), get(r, F_INS)};
    for (int k = 0; k < 2; k++)
        if (one[k] && strlen(one[k]) != 1)
            return vsg_fail(VSG_E_FORMAT, "%s:%d: _atom_site.%s '%s' is not one character", r->path, r->row_line,
                            field_name[k ? F_INS : F_ALT], one[k]);
    a.altloc = one[0] ? one[0][0] : ' ';
    a.icode = one[1] ? one[1][0] : ' ';
    int seq = get(r, F_ASEQ) ? F_ASEQ : F_LSEQ;
    if (get(r, seq)) {
        if ((st = integer(r, seq, &a.resseq)) != VSG_OK)
            return st;
        if (a.resseq > 9999 || a.resseq < -999) { /* four columns: modulo 10000, as PDB writers do */
            a.resseq = (a.resseq % 10000 + 10000) % 10000;
            r->wrapped++;
        }
    }
    for (int k = 0; k < 3; k++) {
        if ((st = number(r, F_X + k, &a.x[k])) != VSG_OK)
            return st;
        if (!(a.x[k] > -999.9995 && a.x[k] < 9999.9995)) /* what a PDB file can hold, and the output */
            return vsg_fail(VSG_E_FORMAT, "%s:%d: _atom_site.%s %g is outside the PDB format's -999.999..9999.999 A "
                                          "(the PQR/PDBQT columns)", r->path, r->row_line, field_name[F_X + k], a.x[k]);
    }
    a.occ = 1;
    if (get(r, F_OCC) && (st = number(r, F_OCC, &a.occ)) != VSG_OK)
        return st;
    const char *el = get(r, F_TYPE);
    if (el && strlen(el) >= sizeof a.element)
        return vsg_fail(VSG_E_FORMAT, "%s:%d: _atom_site.type_symbol '%s' is not an element", r->path, r->row_line, el);
    if (el)
        memcpy(a.element, el, strlen(el) + 1);
    else { /* as pdb_model.c: the name's first letter */
        const char *p = a.name;
        while (isdigit((unsigned char)*p))
            p++;
        a.element[0] = *p ? *p : 'X';
    }
    a.element[1] = (char)tolower((unsigned char)a.element[1]);
    const char *chain = get_either(r, F_AASYM, F_LASYM);
    int c = chain_index(r, chain ? chain : " ");
    if (c < 0)
        return vsg_fail(VSG_E_NOMEM, "out of memory reading %s", r->path);
    return push_atom(r, &a, c);
}

/* The atom table's columns, checked when its first value comes. */
static vsg_status check_columns(const reader *r, int line)
{
    static const int need[] = {F_X, F_Y, F_Z};
    for (size_t k = 0; k < sizeof need / sizeof *need; k++)
        if (!r->have[need[k]])
            return vsg_fail(VSG_E_FORMAT, "%s:%d: _atom_site without _atom_site.%s", r->path, line,
                            field_name[need[k]]);
    if (!r->have[F_AATOM] && !r->have[F_LATOM])
        return vsg_fail(VSG_E_FORMAT, "%s:%d: _atom_site without atom names (auth_atom_id or label_atom_id)",
                        r->path, line);
    if (!r->have[F_ACOMP] && !r->have[F_LCOMP])
        return vsg_fail(VSG_E_FORMAT, "%s:%d: _atom_site without residue names (auth_comp_id or label_comp_id)",
                        r->path, line);
    return VSG_OK;
}

/* One-character chain IDs as they are; each longer one the first character no chain uses
 * (A-Z, a-z, 0-9), in order of appearance; past 62 chains the characters are used again. */
static vsg_status assign_chains(reader *r, sbuf *notes)
{
    static const char pool[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    char *to = malloc((size_t)r->nchains + 1);
    int used[256] = {0}, next = 0, mapped = 0;
    if (!to)
        return vsg_fail(VSG_E_NOMEM, "out of memory reading %s", r->path);
    for (int i = 0; i < r->nchains; i++)
        if (strlen(r->chains[i]) == 1)
            used[(unsigned char)r->chains[i][0]] = 1;
    for (int i = 0; i < r->nchains; i++) {
        if (strlen(r->chains[i]) == 1) {
            to[i] = r->chains[i][0];
            continue;
        }
        int tries = 0;
        while (used[(unsigned char)pool[next % (sizeof pool - 1)]] && tries++ < (int)sizeof pool)
            next++;
        to[i] = pool[next % (sizeof pool - 1)];
        used[(unsigned char)to[i]] = 1;
        next++;
        if (mapped++ < MAX_CHAIN_NOTES)
            prep_printf(notes, "%s%s as %c", mapped == 1 ? "  chain IDs longer than PDB's one character: " : ", ",
                        r->chains[i], to[i]);
    }
    if (mapped)
        prep_printf(notes, "%s\n", mapped > MAX_CHAIN_NOTES ? ", ..." : "");
    for (int i = 0; i < r->m->n; i++)
        r->m->a[i].chain = to[r->chain_of[i]];
    free(to);
    return VSG_OK;
}

static vsg_status read_atom_site(reader *r, int *found)
{
    token t;
    int rc, blocks = 0;
    int in_loop = 0, loop_atoms = 0, loop_values = 0, ncols = 0, loop_line = 0, colcap = 0;
    int *col = NULL; /* each loop column's field, -1 another */
    long nvals = 0;
    int pairs = 0;   /* _atom_site as tag-value pairs: one atom */
    vsg_status st = VSG_OK;
    for (;;) {
        if ((rc = next_token(r, &t)) < 0) {
            st = (vsg_status)rc;
            break;
        }
        int ends_loop = t.kind != T_VALUE && !(t.kind == T_TAG && in_loop && !loop_values);
        if (ends_loop && in_loop) {
            if (loop_atoms && loop_values && nvals % ncols != 0) {
                st = vsg_fail(VSG_E_FORMAT, "%s:%d: the _atom_site loop (line %d) ends after %ld values, not a "
                                            "whole number of rows of %d (truncated?)",
                              r->path, t.line, loop_line, nvals, ncols);
                break;
            }
            in_loop = 0;
        }
        if (pairs && (t.kind != T_TAG || atom_site_field(&t) == -2)) {
            if ((st = check_columns(r, r->row_line)) != VSG_OK || (st = take_row(r)) != VSG_OK)
                break;
            pairs = 0;
        }
        if (t.kind == T_END || (t.kind == T_DATA && blocks++))
            break;
        if (t.kind == T_LOOP) {
            in_loop = 1;
            loop_atoms = loop_values = ncols = 0;
            nvals = 0;
            loop_line = t.line;
        } else if (t.kind == T_TAG && in_loop) {
            int f = atom_site_field(&t);
            if (ncols == colcap) {
                colcap = colcap ? 2 * colcap : 32;
                int *c = realloc(col, (size_t)colcap * sizeof *c);
                if (!c) {
                    st = vsg_fail(VSG_E_NOMEM, "out of memory reading %s", r->path);
                    break;
                }
                col = c;
            }
            col[ncols++] = f < 0 ? -1 : f;
            if (f != -2) {
                loop_atoms = 1;
                if (f >= 0)
                    r->have[f] = 1;
            }
        } else if (t.kind == T_TAG) { /* a tag and its value */
            int f = atom_site_field(&t);
            token v;
            if ((rc = next_token(r, &v)) < 0) {
                st = (vsg_status)rc;
                break;
            }
            if (v.kind != T_VALUE) {
                st = vsg_fail(VSG_E_FORMAT, "%s:%d: tag %.*s without a value", r->path, t.line, (int)t.n, t.s);
                break;
            }
            if (f == -2)
                continue;
            if (*found && !pairs) {
                st = vsg_fail(VSG_E_FORMAT, "%s:%d: a second _atom_site table", r->path, t.line);
                break;
            }
            if (!pairs) {
                r->row_line = t.line;
                for (int k = 0; k < NF; k++)
                    r->row[k].set = 0;
            }
            pairs = *found = 1;
            if (f >= 0) {
                r->have[f] = 1;
                if ((st = store(r, f, &v)) != VSG_OK)
                    break;
            }
        } else if (t.kind == T_VALUE) {
            if (!in_loop) {
                st = vsg_fail(VSG_E_FORMAT, "%s:%d: a value without a tag", r->path, t.line);
                break;
            }
            if (ncols == 0) {
                st = vsg_fail(VSG_E_FORMAT, "%s:%d: loop_ without tags", r->path, t.line);
                break;
            }
            if (!loop_values && loop_atoms) {
                if (*found) {
                    st = vsg_fail(VSG_E_FORMAT, "%s:%d: a second _atom_site table", r->path, loop_line);
                    break;
                }
                *found = 1;
                if ((st = check_columns(r, loop_line)) != VSG_OK)
                    break;
            }
            loop_values = 1;
            if (!loop_atoms)
                continue;
            int c = (int)(nvals++ % ncols);
            if (c == 0) {
                r->row_line = t.line;
                for (int f = 0; f < NF; f++)
                    r->row[f].set = 0;
            }
            if ((st = store(r, col[c], &t)) != VSG_OK)
                break;
            if (c == ncols - 1 && (st = take_row(r)) != VSG_OK)
                break;
        }
    }
    free(col);
    return st;
}

vsg_status prep_read_mmcif(const char *path, model *m, int *altdrop, sbuf *notes)
{
    reader r;
    memset(&r, 0, sizeof r);
    r.path = path;
    r.m = m;
    r.altdrop = altdrop;
    vsg_status st = vsg_lines_open(path, &r.L);
    if (st != VSG_OK)
        return st;
    int found = 0;
    st = read_atom_site(&r, &found);
    int last = vsg_lines_number(r.L);
    vsg_lines_close(r.L);
    if (st == VSG_OK && !found)
        st = vsg_fail(VSG_E_FORMAT, "%s:%d: no _atom_site table (the atoms) in the first data block", path, last);
    else if (st == VSG_OK && m->n == 0)
        st = vsg_fail(VSG_E_FORMAT, "%s:%d: the _atom_site table has no atoms", path, last);
    if (st == VSG_OK)
        st = assign_chains(&r, notes);
    if (st == VSG_OK && r.wrapped)
        prep_printf(notes, "  %d atoms with residue numbers outside -999..9999: written modulo 10000\n", r.wrapped);
    free(r.chains);
    free(r.chain_of);
    return st;
}

/* The first line that is not blank or a comment opens a data block or is a CIF tag or loop_:
 * an mmCIF file, whatever its name says. Else the name (.cif, .mmcif, plain or .gz) decides. */
int prep_is_mmcif(const char *path)
{
    static const char *const tails[] = {".cif", ".mmcif", ".cif.gz", ".mmcif.gz", ".CIF", ".CIF.gz"};
    if (!path)
        return 0;
    vsg_lines *L;
    if (strcmp(path, "-") != 0 && vsg_lines_open(path, &L) == VSG_OK) {
        char *line;
        size_t len;
        int rc, says = -1;
        while (says < 0 && (rc = vsg_lines_next(L, &line, &len)) > 0) {
            size_t i = 0;
            while (i < len && blank(line[i]))
                i++;
            if (i == len || line[i] == '#')
                continue;
            says = (len - i >= 5 && (strncasecmp(line + i, "data_", 5) == 0 || strncasecmp(line + i, "loop_", 5) == 0)) ||
                   line[i] == '_';
        }
        vsg_lines_close(L);
        if (says >= 0)
            return says;
    }
    size_t n = strlen(path);
    for (size_t k = 0; k < sizeof tails / sizeof *tails; k++)
        if (n >= strlen(tails[k]) && strcmp(path + n - strlen(tails[k]), tails[k]) == 0)
            return 1;
    return 0;
}
