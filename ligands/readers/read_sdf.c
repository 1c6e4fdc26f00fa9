/* read_sdf.c — one record of an MDL SD file (CTfile V2000 or V3000 connection table, then data
 * items, then $$$$).
 *
 * V2000 atom and bond lines are read by their fixed columns (CTfile spec: x, y, z in 10-column
 * fields, symbol in 32-34, charge code in 37-39), which is both what the spec says and fast;
 * a letter in a number field is an error, never read as 0. M  CHG replaces the atom-block
 * charges, as the spec says. V3000 is read by its blank-separated fields, continuation lines
 * ("-" at the end) joined.
 *
 * Partial charges come from data items when present (first such item wins):
 *  - any tag whose name contains "partial" then "charge" (any case), e.g.
 *    PUBCHEM_MMFF94_PARTIAL_CHARGES: either "count" then count lines "atom-index charge"
 *    (PubChem; atoms not listed get 0), or one value per atom over one or more lines;
 *  - RDKit atom property lists, tags "atom.dprop.NAME"/"atom.prop.NAME" with "charge" in NAME
 *    (not "formal"), e.g. atom.dprop.PartialCharge, atom.dprop._GasteigerCharge: one value per
 *    atom, blank-separated.
 * A charge item that does not fit (wrong count, a value that is not a number) fails the record
 * (parse), rather than scoring it with charges from elsewhere.
 *
 * End of record: $$$$. A file whose last record has its M  END but no $$$$ (a .mol file, or an
 * SD file without the final line) still yields that molecule: M  END says the connection table
 * is complete. End of file before M  END is a truncated record (parse). */
#include <stdio.h>
#include <string.h>

#include "ligands/readers/reader_internal.h"

static int is_dollars(const char *l, size_t n) { return vsg_lig_is_sdf_end(l, n); }
static int is_mend(const char *l, size_t n) { return n >= 6 && memcmp(l, "M  END", 6) == 0 && vsg_lig_blank(l + 6, n - 6); }

/* Reads to the end of the record ($$$$ or end of file) after a failure. */
static int skip_record(vsg_lig_ctx *c, vsg_ligand *lig)
{
    char *line;
    size_t len;
    int r;
    while ((r = vsg_lig_next(c, lig, &line, &len)) == 1)
        if (is_dollars(line, len)) break;
    return 1;
}

/* Same after a failure on a line that may itself be $$$$. */
static int skip_from(vsg_lig_ctx *c, vsg_ligand *lig, const char *line, size_t len)
{
    return is_dollars(line, len) ? 1 : skip_record(c, lig);
}

/* Case-insensitive search of needle (lower case) in s[0..n). */
static const char *find_ci(const char *s, size_t n, const char *needle)
{
    size_t k = strlen(needle), i, j;
    for (i = 0; i + k <= n; i++) {
        for (j = 0; j < k; j++) {
            char ch = s[i + j];
            if (ch >= 'A' && ch <= 'Z') ch = (char)(ch + 32);
            if (ch != needle[j]) break;
        }
        if (j == k) return s + i;
    }
    return NULL;
}

/* 1: partial-charge tag (indexed or per-atom list); 2: RDKit atom list only; 0: not charges. */
static int charge_tag_kind(const char *name, size_t n)
{
    const char *p = find_ci(name, n, "partial");
    if (p && find_ci(p, n - (size_t)(p - name), "charge")) return 1;
    if ((n > 11 && find_ci(name, 11, "atom.dprop.") == name) || (n > 10 && find_ci(name, 10, "atom.prop.") == name))
        if (find_ci(name, n, "charge") && !find_ci(name, n, "formal")) return 2;
    return 0;
}

/* Reading of one charge data item. */
typedef struct {
    int active, kind, lines, mode; /* mode 0 undecided, 1 "count + index charge", 2 list */
    int expect, seen;
    double first;
    char tag[48];
} charge_item;

static void charge_start(charge_item *q, vsg_ligand *lig, int kind, const char *tag, size_t n)
{
    int i;
    memset(q, 0, sizeof *q);
    q->active = 1;
    q->kind = kind;
    vsg_lig_set_name(q->tag, sizeof q->tag, tag, n);
    for (i = 0; i < lig->natoms; i++) lig->atoms[i].charge = 0.0;
}

static void charge_line(vsg_lig_ctx *c, vsg_ligand *lig, charge_item *q, const char *line, size_t len)
{
    const char *f[3];
    size_t fl[3];
    long ln = c->src.line;
    int nf, iv;
    double v;
    if (lig->status != VSG_OK) return;
    if (q->lines++ == 0 && q->kind == 1) {
        nf = vsg_lig_fields(line, len, f, fl, 3);
        if (nf == 1 && vsg_lig_int(f[0], fl[0], &iv) && iv >= 0 && iv <= lig->natoms) {
            q->mode = 1; /* may still turn out to be a one-atom list: see charge_end */
            q->expect = iv;
            q->first = iv;
            return;
        }
    }
    if (q->mode == 1) {
        nf = vsg_lig_fields(line, len, f, fl, 3);
        if (nf != 2 || !vsg_lig_int(f[0], fl[0], &iv) || iv < 1 || iv > lig->natoms ||
            !vsg_lig_double(f[1], fl[1], &v)) {
            vsg_lig_failf(c, lig, VSG_E_FORMAT, VSG_LIG_PARSE, ln,
                          "data item <%s>: expected 'atom-index charge', got '%.40s'", q->tag, line);
            return;
        }
        if (++q->seen > q->expect) {
            vsg_lig_failf(c, lig, VSG_E_FORMAT, VSG_LIG_PARSE, ln, "data item <%s>: more than the %d charges announced",
                          q->tag, q->expect);
            return;
        }
        lig->atoms[iv - 1].charge = v;
        return;
    }
    q->mode = 2;
    {
        size_t i = 0;
        while (i < len) {
            size_t b;
            while (i < len && (line[i] == ' ' || line[i] == '\t')) i++;
            if (i >= len) break;
            b = i;
            while (i < len && line[i] != ' ' && line[i] != '\t') i++;
            if (!vsg_lig_double(line + b, i - b, &v)) {
                vsg_lig_failf(c, lig, VSG_E_FORMAT, VSG_LIG_PARSE, ln, "data item <%s>: bad charge '%.*s'", q->tag,
                              (int)(i - b > 24 ? 24 : i - b), line + b);
                return;
            }
            if (q->seen < lig->natoms) lig->atoms[q->seen].charge = v;
            q->seen++;
        }
    }
}

static void charge_end(vsg_lig_ctx *c, vsg_ligand *lig, charge_item *q)
{
    if (!q->active) return;
    q->active = 0;
    if (lig->status != VSG_OK) return;
    if (q->mode == 1 && q->lines == 1 && lig->natoms == 1 && q->expect == 1) {
        /* a lone integer for a one-atom molecule: its charge, not a count */
        lig->atoms[0].charge = q->first;
        lig->has_charges = 1;
        return;
    }
    if (q->mode == 1 ? q->seen == q->expect : q->seen == lig->natoms) {
        lig->has_charges = 1;
        return;
    }
    vsg_lig_failf(c, lig, VSG_E_FORMAT, VSG_LIG_PARSE, c->src.line, "data item <%s>: %d charges for %d atoms",
                  q->tag, q->seen, lig->natoms);
}

/* Data items after M  END, up to $$$$ (or the end of the file). */
static int read_data_items(vsg_lig_ctx *c, vsg_ligand *lig)
{
    charge_item q;
    char *line;
    size_t len;
    int r, in_value = 0;
    q.active = 0;
    while ((r = vsg_lig_next(c, lig, &line, &len)) == 1) {
        if (is_dollars(line, len)) break;
        if (!in_value) {
            if (len > 0 && line[0] == '>') {
                const char *lt = memchr(line, '<', len), *gt;
                in_value = 1;
                if (!lt) continue;
                gt = memchr(lt, '>', len - (size_t)(lt - line));
                if (gt && !lig->has_charges && lig->status == VSG_OK) {
                    int kind = charge_tag_kind(lt + 1, (size_t)(gt - lt - 1));
                    if (kind) charge_start(&q, lig, kind, lt + 1, (size_t)(gt - lt - 1));
                }
            }
            continue;
        }
        if (vsg_lig_blank(line, len)) {
            in_value = 0;
            charge_end(c, lig, &q);
        } else if (q.active) {
            charge_line(c, lig, &q, line, len);
        }
    }
    if (r >= 0) charge_end(c, lig, &q);
    return 1;
}

/* ---- V2000 ---------------------------------------------------------------------------------- */

static int parse_atom_v2000(vsg_lig_ctx *c, vsg_ligand *lig, const char *line, size_t len)
{
    vsg_lig_atom *a = &lig->atoms[lig->natoms];
    double v[3];
    int code = 0;
    size_t se;
    if (len < 32) {
        vsg_lig_failf(c, lig, VSG_E_FORMAT, VSG_LIG_PARSE, c->src.line,
                      "atom line %d too short (%zu characters, need 32): '%.40s'", lig->natoms + 1, len, line);
        return 0;
    }
    const char *xyz[3] = {line, line + 10, line + 20};
    const size_t w[3] = {10, 10, 10};
    if (!vsg_lig_atom_xyz(c, lig, xyz, w, v)) return 0;
    se = len < 34 ? len : 34;
    if (len > 36) {
        size_t ce = len < 39 ? len : 39;
        if (!vsg_lig_blank(line + 36, ce - 36) && (!vsg_lig_int(line + 36, ce - 36, &code) || code < 0 || code > 7)) {
            vsg_lig_failf(c, lig, VSG_E_FORMAT, VSG_LIG_PARSE, c->src.line, "bad charge field '%.*s' of atom %d",
                          (int)(ce - 36), line + 36, lig->natoms + 1);
            return 0;
        }
    }
    a->x = v[0], a->y = v[1], a->z = v[2];
    a->charge = 0.0;
    a->line = (int)c->src.line;
    a->formal = code == 0 || code == 4 ? 0 : 4 - code; /* 1..3 → +3..+1, 5..7 → −1..−3 */
    a->name[0] = '\0';
    a->ad_type[0] = '\0';
    vsg_lig_element(a->element, line + 31, se - 31);
    if (!a->element[0] && se - 31 >= 1) {
        /* deuterium and tritium are hydrogens for scoring */
        const char *s = line + 31;
        size_t n = se - 31;
        while (n > 0 && s[n - 1] == ' ') n--;
        while (n > 0 && *s == ' ') s++, n--;
        if (n == 1 && (*s == 'D' || *s == 'T')) strcpy(a->element, "H");
    }
    lig->natoms++;
    return 1;
}

static int parse_bond_v2000(vsg_lig_ctx *c, vsg_ligand *lig, const char *line, size_t len)
{
    int a, b, t;
    if (len < 9 || !vsg_lig_int(line, 3, &a) || !vsg_lig_int(line + 3, 3, &b) || !vsg_lig_int(line + 6, 3, &t) ||
        a < 1 || b < 1 || a > lig->natoms || b > lig->natoms || t < 1 || t > 8) {
        vsg_lig_failf(c, lig, VSG_E_FORMAT, VSG_LIG_PARSE, c->src.line, "bad bond line %d: '%.40s'", lig->nbonds + 1,
                      line);
        return 0;
    }
    lig->bonds[lig->nbonds].a = a - 1;
    lig->bonds[lig->nbonds].b = b - 1;
    lig->bonds[lig->nbonds].order = t <= 3 ? t : t == 4 ? VSG_BOND_AROMATIC : 1; /* 5-8: query bonds */
    lig->nbonds++;
    return 1;
}

/* "M  CHGnn8 aaa vvv ...": replaces every atom-block charge of the record (first M  CHG). */
static int parse_m_chg(vsg_lig_ctx *c, vsg_ligand *lig, const char *line, size_t len, int *first)
{
    const char *f[20];
    size_t fl[20];
    int nf = vsg_lig_fields(line + 6, len - 6, f, fl, 20), k, i;
    if (nf < 1 || !vsg_lig_int(f[0], fl[0], &k) || k < 1 || k > 8 || nf != 1 + 2 * k) {
        vsg_lig_failf(c, lig, VSG_E_FORMAT, VSG_LIG_PARSE, c->src.line, "bad M  CHG line '%.40s'", line);
        return 0;
    }
    if (*first) {
        for (i = 0; i < lig->natoms; i++) lig->atoms[i].formal = 0;
        *first = 0;
    }
    for (i = 0; i < k; i++) {
        int a, q;
        if (!vsg_lig_int(f[1 + 2 * i], fl[1 + 2 * i], &a) || !vsg_lig_int(f[2 + 2 * i], fl[2 + 2 * i], &q) || a < 1 ||
            a > lig->natoms || q < -15 || q > 15) {
            vsg_lig_failf(c, lig, VSG_E_FORMAT, VSG_LIG_PARSE, c->src.line, "bad M  CHG line '%.40s'", line);
            return 0;
        }
        lig->atoms[a - 1].formal = q;
    }
    return 1;
}

/* The `count` lines of a V2000 atom or bond block, each through `parse`, which advances *have.
 * −1 when the block is complete; otherwise the record has failed and the value is what
 * read_v2000 returns (1 at the end of the input, or skip_from's). */
static int read_counted(vsg_lig_ctx *c, vsg_ligand *lig, const int *have, int count, const char *what,
                        int (*parse)(vsg_lig_ctx *, vsg_ligand *, const char *, size_t))
{
    char *line;
    size_t len;
    while (*have < count) {
        int r = vsg_lig_next(c, lig, &line, &len);
        if (r < 0) return 1;
        if (r == 0 || is_dollars(line, len) || is_mend(line, len)) {
            vsg_lig_failf(c, lig, VSG_E_FORMAT, VSG_LIG_PARSE, c->src.line, "%s block ends after %d of %d %ss (%s)",
                          what, *have, count, what, r == 0 ? "end of file" : line);
            return r == 0 ? 1 : skip_from(c, lig, line, len);
        }
        if (!parse(c, lig, line, len)) return skip_from(c, lig, line, len);
    }
    return -1;
}

static int read_v2000(vsg_lig_ctx *c, vsg_ligand *lig, int natoms, int nbonds)
{
    char *line;
    size_t len;
    int r, first_chg = 1;
    if (!vsg_lig_reserve_atoms(c, lig, natoms) || !vsg_lig_reserve_bonds(c, lig, nbonds)) return skip_record(c, lig);
    if ((r = read_counted(c, lig, &lig->natoms, natoms, "atom", parse_atom_v2000)) >= 0) return r;
    if ((r = read_counted(c, lig, &lig->nbonds, nbonds, "bond", parse_bond_v2000)) >= 0) return r;
    for (;;) { /* properties block, to M  END */
        r = vsg_lig_next(c, lig, &line, &len);
        if (r < 0) return 1;
        if (r == 0 || is_dollars(line, len)) {
            vsg_lig_failf(c, lig, VSG_E_FORMAT, VSG_LIG_PARSE, c->src.line, "no M  END before %s",
                          r == 0 ? "the end of the file" : "$$$$");
            return 1;
        }
        if (is_mend(line, len)) break;
        if (len >= 6 && memcmp(line, "M  CHG", 6) == 0 && !parse_m_chg(c, lig, line, len, &first_chg))
            return skip_record(c, lig);
    }
    return read_data_items(c, lig);
}

/* ---- V3000 ---------------------------------------------------------------------------------- */

static int join_append(vsg_lig_ctx *c, const char *s, size_t n)
{
    size_t have = c->join ? strlen(c->join) : 0;
    if (have + n + 1 > c->join_cap) {
        size_t cap = c->join_cap ? c->join_cap : 256;
        char *j;
        while (cap < have + n + 1) cap *= 2;
        j = realloc(c->join, cap);
        if (!j) return 0;
        c->join = j;
        c->join_cap = cap;
    }
    memcpy(c->join + have, s, n);
    c->join[have + n] = '\0';
    return 1;
}

static int word_is(const char *f, size_t n, const char *w) { return strlen(w) == n && memcmp(f, w, n) == 0; }

/* Atom index of a V3000 atom id (ids are nearly always 1..n in order). */
static int atom_of_id(const vsg_lig_ctx *c, const vsg_ligand *lig, int id)
{
    int i;
    if (id >= 1 && id <= lig->natoms && c->ids[id - 1] == id) return id - 1;
    for (i = 0; i < lig->natoms; i++)
        if (c->ids[i] == id) return i;
    return -1;
}

static int v3000_atom(vsg_lig_ctx *c, vsg_ligand *lig, const char *s, size_t n, int natoms)
{
    const char *f[64];
    size_t fl[64];
    int nf = vsg_lig_fields(s, n, f, fl, 64), id, i;
    vsg_lig_atom *a;
    double v[3];
    if (lig->natoms >= natoms) {
        vsg_lig_failf(c, lig, VSG_E_FORMAT, VSG_LIG_PARSE, c->src.line, "more atoms than COUNTS says (%d)", natoms);
        return 0;
    }
    if (nf < 6 || !vsg_lig_int(f[0], fl[0], &id) || id < 1) {
        vsg_lig_failf(c, lig, VSG_E_FORMAT, VSG_LIG_PARSE, c->src.line, "bad V3000 atom line '%.40s'", s);
        return 0;
    }
    if (!vsg_lig_atom_xyz(c, lig, &f[2], &fl[2], v)) return 0;
    a = &lig->atoms[lig->natoms];
    memset(a, 0, sizeof *a);
    a->x = v[0], a->y = v[1], a->z = v[2];
    a->line = (int)c->src.line;
    {
        const char *t = f[1];
        size_t tn = fl[1];
        if (tn >= 2 && t[0] == '"' && t[tn - 1] == '"') t++, tn -= 2;
        vsg_lig_element(a->element, t, tn);
        if (!a->element[0] && tn == 1 && (*t == 'D' || *t == 'T')) strcpy(a->element, "H");
    }
    for (i = 6; i < nf && i < 64; i++)
        if (fl[i] > 4 && memcmp(f[i], "CHG=", 4) == 0 && !vsg_lig_int(f[i] + 4, fl[i] - 4, &a->formal)) {
            vsg_lig_failf(c, lig, VSG_E_FORMAT, VSG_LIG_PARSE, c->src.line, "bad %.*s", (int)(fl[i] > 20 ? 20 : fl[i]),
                          f[i]);
            return 0;
        }
    c->ids[lig->natoms] = id;
    lig->natoms++;
    return 1;
}

static int v3000_bond(vsg_lig_ctx *c, vsg_ligand *lig, const char *s, size_t n, int nbonds)
{
    const char *f[4];
    size_t fl[4];
    int nf = vsg_lig_fields(s, n, f, fl, 4), id, t, a, b;
    if (lig->nbonds >= nbonds) {
        vsg_lig_failf(c, lig, VSG_E_FORMAT, VSG_LIG_PARSE, c->src.line, "more bonds than COUNTS says (%d)", nbonds);
        return 0;
    }
    if (nf < 4 || !vsg_lig_int(f[0], fl[0], &id) || !vsg_lig_int(f[1], fl[1], &t) || !vsg_lig_int(f[2], fl[2], &a) ||
        !vsg_lig_int(f[3], fl[3], &b) || t < 1 || t > 10 || (a = atom_of_id(c, lig, a)) < 0 ||
        (b = atom_of_id(c, lig, b)) < 0) {
        vsg_lig_failf(c, lig, VSG_E_FORMAT, VSG_LIG_PARSE, c->src.line, "bad V3000 bond line '%.40s'", s);
        return 0;
    }
    lig->bonds[lig->nbonds].a = a;
    lig->bonds[lig->nbonds].b = b;
    lig->bonds[lig->nbonds].order = t <= 3 ? t : t == 4 ? VSG_BOND_AROMATIC : 1;
    lig->nbonds++;
    return 1;
}

static int read_v3000(vsg_lig_ctx *c, vsg_ligand *lig)
{
    enum { OUT, ATOMS, BONDS, OTHER } state = OUT;
    char *line;
    size_t len;
    int r, natoms = -1, nbonds = 0, depth = 0;
    if (c->join) c->join[0] = '\0';
    for (;;) {
        const char *f[3], *s;
        size_t fl[3], n;
        int nf;
        r = vsg_lig_next(c, lig, &line, &len);
        if (r < 0) return 1;
        if (r == 0 || is_dollars(line, len)) {
            vsg_lig_failf(c, lig, VSG_E_FORMAT, VSG_LIG_PARSE, c->src.line, "no M  END before %s",
                          r == 0 ? "the end of the file" : "$$$$");
            return 1;
        }
        if (is_mend(line, len)) break;
        if (len < 7 || memcmp(line, "M  V30 ", 7) != 0) continue;
        if (!join_append(c, line + 7, len - 7)) {
            vsg_lig_failf(c, lig, VSG_E_NOMEM, VSG_LIG_PARSE, c->src.line, "out of memory");
            return skip_record(c, lig);
        }
        n = strlen(c->join);
        if (n > 0 && c->join[n - 1] == '-') { /* continued on the next line */
            c->join[n - 1] = '\0';
            continue;
        }
        s = c->join;
        nf = vsg_lig_fields(s, n, f, fl, 3);
        if (nf >= 2 && word_is(f[0], fl[0], "BEGIN")) {
            if (state == OTHER) depth++;
            else if (word_is(f[1], fl[1], "CTAB")) {}
            else if (word_is(f[1], fl[1], "ATOM") && natoms >= 0) state = ATOMS;
            else if (word_is(f[1], fl[1], "BOND") && natoms >= 0) state = BONDS;
            else if (word_is(f[1], fl[1], "ATOM") || word_is(f[1], fl[1], "BOND")) {
                vsg_lig_failf(c, lig, VSG_E_FORMAT, VSG_LIG_PARSE, c->src.line, "%.*s block before COUNTS",
                              (int)fl[1], f[1]);
                return skip_record(c, lig);
            } else state = OTHER, depth = 1;
        } else if (nf >= 1 && word_is(f[0], fl[0], "END")) {
            if (state == OTHER) {
                if (--depth == 0) state = OUT;
            } else state = OUT;
        } else if (state == OUT && nf >= 3 && word_is(f[0], fl[0], "COUNTS")) {
            if (!vsg_lig_int(f[1], fl[1], &natoms) || !vsg_lig_int(f[2], fl[2], &nbonds) || natoms < 0 || nbonds < 0) {
                vsg_lig_failf(c, lig, VSG_E_FORMAT, VSG_LIG_PARSE, c->src.line, "bad COUNTS line '%.40s'", s);
                return skip_record(c, lig);
            }
            if (natoms > c->max_atoms) {
                vsg_lig_failf(c, lig, VSG_E_LIMIT, VSG_LIG_TOO_MANY, c->src.line, "%d atoms, more than the limit %d",
                              natoms, c->max_atoms);
                return skip_record(c, lig);
            }
            if (natoms == 0) {
                vsg_lig_failf(c, lig, VSG_E_DATA, VSG_LIG_NO_ATOMS, c->src.line, "no atoms");
                return skip_record(c, lig);
            }
            if (nbonds > 8 * natoms + 64) { /* bounded memory: no molecule has that many */
                vsg_lig_failf(c, lig, VSG_E_FORMAT, VSG_LIG_PARSE, c->src.line, "%d bonds for %d atoms", nbonds, natoms);
                return skip_record(c, lig);
            }
            if (!vsg_lig_reserve_atoms(c, lig, natoms) || !vsg_lig_reserve_bonds(c, lig, nbonds))
                return skip_record(c, lig);
            if (natoms > c->ids_cap) {
                int *ids = realloc(c->ids, (size_t)natoms * sizeof *ids);
                if (!ids) {
                    vsg_lig_failf(c, lig, VSG_E_NOMEM, VSG_LIG_TOO_MANY, c->src.line, "out of memory");
                    return skip_record(c, lig);
                }
                c->ids = ids;
                c->ids_cap = natoms;
            }
        } else if (state == ATOMS) {
            if (!v3000_atom(c, lig, s, n, natoms)) return skip_record(c, lig);
        } else if (state == BONDS) {
            if (!v3000_bond(c, lig, s, n, nbonds)) return skip_record(c, lig);
        }
        c->join[0] = '\0';
    }
    if (natoms < 0) {
        vsg_lig_failf(c, lig, VSG_E_FORMAT, VSG_LIG_PARSE, c->src.line, "V3000 record without COUNTS line");
        return skip_record(c, lig);
    }
    if (lig->natoms != natoms || lig->nbonds != nbonds) {
        vsg_lig_failf(c, lig, VSG_E_FORMAT, VSG_LIG_PARSE, c->src.line, "COUNTS says %d atoms and %d bonds, read %d and %d",
                      natoms, nbonds, lig->natoms, lig->nbonds);
        return skip_record(c, lig);
    }
    return read_data_items(c, lig);
}

/* ---- the record ---------------------------------------------------------------------------- */

/* A record whose header line says 2D (columns 21-22) and whose every z is 0 is a drawing, not a
 * structure (ChEMBL, PubChem 2D downloads): docking or scoring it would use flat geometry. With
 * Open Babel and the record's text, it is prepared as its SMILES would be (the drawing's
 * wedges give the stereo; issue 29); else it is refused. */
static void refuse_2d(vsg_lig_ctx *c, vsg_ligand *lig)
{
    for (int i = 0; i < lig->natoms; i++)
        if (lig->atoms[i].z != 0.0) return;
    char *smiles = NULL;
    if (c->keep_text && lig->text_len > 0 && vsg_molblock_smiles(lig->text, &smiles) == VSG_OK) {
        lig->natoms = lig->nbonds = 0;
        lig->has_charges = 0;
        vsg_lig_smiles_into(c, lig, smiles, lig->line);
        free(smiles);
        return;
    }
    free(smiles);
    vsg_lig_failf(c, lig, VSG_E_DATA, VSG_LIG_NOT_3D, lig->line,
                  "2D coordinates (the header says 2D, every z is 0): make 3D conformers first (vsgrid "
                  "prepare-ligands, RDKit's EmbedMolecule, obabel --gen3d)");
}

int vsg_lig_read_sdf(vsg_lig_ctx *c, vsg_ligand *lig)
{
    char *line;
    size_t len;
    int r, i, natoms, nbonds, all_blank = 1, two_d = 0;
    /* header block: title, program/time, comment; then the counts line */
    for (i = 0; i < 4; i++) {
        r = vsg_lig_next(c, lig, &line, &len);
        if (r < 0) return 1;
        if (r == 0) {
            if (all_blank) { /* blank lines after the last record are no record */
                if (i > 0) c->record--;
                return 0;
            }
            vsg_lig_failf(c, lig, VSG_E_FORMAT, VSG_LIG_PARSE, c->src.line, "end of file in the header (line %d of 4)",
                          i + 1);
            return 1;
        }
        if (i == 0) {
            vsg_lig_begin(c, lig);
            vsg_lig_set_name(lig->name, sizeof lig->name, line, len);
        }
        if (i == 3 && all_blank && vsg_lig_blank(line, len)) {
            /* four blank lines: no header, so no record if only blank lines are left */
            while ((r = vsg_lig_next(c, lig, &line, &len)) == 1 && vsg_lig_blank(line, len)) {}
            if (r < 0) return 1;
            if (r == 0) {
                c->record--;
                return 0;
            }
        }
        if (!vsg_lig_blank(line, len)) all_blank = 0;
        if (i == 1) two_d = len >= 22 && line[20] == '2' && line[21] == 'D'; /* the dimension code */
        if (is_dollars(line, len)) {
            vsg_lig_failf(c, lig, VSG_E_FORMAT, VSG_LIG_PARSE, c->src.line, "record ends before its counts line");
            return 1;
        }
    }
    /* counts line: aaabbb... and the version tag in columns 35-39 */
    if (len >= 39 && memcmp(line + 34, "V3000", 5) == 0) {
        r = read_v3000(c, lig);
        if (r == 1 && two_d && lig->status == VSG_OK) refuse_2d(c, lig);
        return r;
    }
    if (len < 6 || !vsg_lig_int(line, 3, &natoms) || !vsg_lig_int(line + 3, 3, &nbonds) || natoms < 0 || nbonds < 0) {
        vsg_lig_failf(c, lig, VSG_E_FORMAT, VSG_LIG_PARSE, c->src.line, "bad counts line '%.40s'", line);
        return skip_from(c, lig, line, len);
    }
    if (natoms > c->max_atoms) {
        vsg_lig_failf(c, lig, VSG_E_LIMIT, VSG_LIG_TOO_MANY, c->src.line, "%d atoms, more than the limit %d", natoms,
                      c->max_atoms);
        return skip_record(c, lig);
    }
    if (natoms == 0) {
        vsg_lig_failf(c, lig, VSG_E_DATA, VSG_LIG_NO_ATOMS, c->src.line, "no atoms (counts line '%.40s')", line);
        return skip_record(c, lig);
    }
    r = read_v2000(c, lig, natoms, nbonds);
    if (r == 1 && two_d && lig->status == VSG_OK) refuse_2d(c, lig);
    return r;
}
