/* read_pqr.c — PQR (PDB-like records carrying charge and radius).
 *
 * Two layouts exist in the wild and are told apart line by line:
 *   whitespace  ATOM serial name resname [chain] resnum[icode] x y z q r   (pdb2pqr
 *               --whitespace, APBS examples; the chain is optional)
 *   fixed       PDB columns for x, y, z (31-38, 39-46, 47-54) where fields may touch,
 *               e.g. "-100.123-200.456", then q and r separated by blanks.
 * A line is read as whitespace fields when they have the right count and the last five are
 * numbers; otherwise by columns. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "grids/base/vsgrid.h"
#include "grids/receptor/molecule.h"
#include "grids/base/textio.h"

#define MAX_TOKENS 24

typedef vsg_token token;

/* What went wrong with one reading of a line (the message is built only if it is reported). */
typedef struct {
    vsg_status status;
    char what[200];
} line_error;

static int set_error(line_error *e, vsg_status st, const char *what, const token *t)
{
    e->status = st;
    if (t) {
        const char *p = t->s;
        size_t n = t->n;
        while (n > 0 && *p == ' ') p++, n--;
        while (n > 0 && p[n - 1] == ' ') n--;
        snprintf(e->what, sizeof e->what, "%s '%.*s'", what, (int)(n > 40 ? 40 : n), p);
    } else {
        snprintf(e->what, sizeof e->what, "%s", what);
    }
    return 0;
}


/* Copies a field into a fixed char array, without surrounding blanks, truncated to fit. */
static void copy_field(char *dst, size_t cap, const char *s, size_t n)
{
    while (n > 0 && (*s == ' ' || *s == '\t')) s++, n--;
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t')) n--;
    if (n > cap - 1) n = cap - 1;
    memcpy(dst, s, n);
    dst[n] = '\0';
}

/* Columns [from, to] (1-based, inclusive) of a line, clipped to its length. */
static token column(const char *line, size_t len, size_t from, size_t to)
{
    token t = {"", 0};
    if (from - 1 < len) {
        t.s = line + from - 1;
        t.n = (to < len ? to : len) - (from - 1);
    }
    return t;
}

/* "52", "52A" (insertion code), and with chain_ok "A1001" / "A1001B" (the chain merged
 * into a 4-digit residue number, as fixed-column files do past 999). */
static int parse_resnum(token t, int chain_ok, int *num, char *icode, char *chain)
{
    char ic = ' ', ch = 0;
    if (chain_ok && t.n >= 2 && isalpha((unsigned char)t.s[0]) &&
        (isdigit((unsigned char)t.s[1]) || t.s[1] == '-'))
        ch = t.s[0], t.s++, t.n--;
    if (t.n >= 2 && isalpha((unsigned char)t.s[t.n - 1])) ic = t.s[--t.n];
    if (!vsg_parse_int(t.s, t.n, num)) return 0;
    *icode = ic;
    if (ch) *chain = ch;
    return 1;
}

static const char *const number_names[5] = {"x coordinate", "y coordinate", "z coordinate",
                                            "charge", "radius"};

/* Whitespace layout. tok are the fields after the record name (nt of them). */
static int parse_whitespace(const token *tok, int nt, vsg_atom *a, line_error *e)
{
    double v[5];
    int i, k, num, nums;
    char bad[96], ic, ch = ' ';
    /* with chain: serial name resname chain resnum; without: serial name resname resnum */
    int with_chain = nt >= 5 && tok[3].n == 1 && parse_resnum(tok[4], 0, &num, &ic, &ch);
    int without = nt >= 4 && parse_resnum(tok[3], 1, &num, &ic, &ch);
    if (nt == 10 && with_chain) k = 5;
    else if (nt == 9 && without) k = 4;
    else {
        /* Name what is missing when the leading fields are recognisable. */
        nums = with_chain ? nt - 5 : without ? nt - 4 : -1;
        if (nums == 4)
            return set_error(e, VSG_E_DATA, "missing radius (4 numbers after the residue number, "
                                            "expected x y z charge radius)", NULL);
        if (nums == 3) return set_error(e, VSG_E_DATA, "missing charge and radius", NULL);
        if (nums < 0 && nt == 10)
            return tok[3].n != 1 ? set_error(e, VSG_E_FORMAT, "bad chain identifier", &tok[3])
                                 : set_error(e, VSG_E_FORMAT, "bad residue number", &tok[4]);
        if (nums < 0 && nt == 9) return set_error(e, VSG_E_FORMAT, "bad residue number", &tok[3]);
        snprintf(bad, sizeof bad, nt < 9 || nums < 5 ? "truncated ATOM record (%d fields)"
                                                    : "too many fields in ATOM record (%d)", nt + 1);
        return set_error(e, VSG_E_FORMAT, bad, NULL);
    }
    for (i = 0; i < 5; i++)
        if (!vsg_parse_double(tok[k + i].s, tok[k + i].n, &v[i])) {
            snprintf(bad, sizeof bad, "bad %s", number_names[i]);
            return set_error(e, VSG_E_FORMAT, bad, &tok[k + i]);
        }
    a->chain = k == 5 ? tok[3].s[0] : ' ';
    parse_resnum(tok[k - 1], k == 4, &a->residue_number, &a->insertion_code, &a->chain);
    if (!vsg_parse_int(tok[0].s, tok[0].n, &a->serial)) a->serial = 0; /* "*****", hybrid-36 */
    copy_field(a->name, sizeof a->name, tok[1].s, tok[1].n);
    copy_field(a->residue_name, sizeof a->residue_name, tok[2].s, tok[2].n);
    a->x = v[0], a->y = v[1], a->z = v[2], a->charge = v[3], a->radius = v[4];
    return 1;
}

/* Fixed-column layout. *coords_ok tells whether x, y, z were read (to pick which error to
 * report when both layouts fail). */
static int parse_columns(const char *line, size_t len, vsg_atom *a, int *coords_ok, line_error *e)
{
    double v[5];
    token rest[4], t;
    int i, nr;
    char bad[96];
    *coords_ok = 0;
    if (len < 54) return set_error(e, VSG_E_FORMAT, "truncated ATOM record", NULL);
    for (i = 0; i < 3; i++) {
        t = column(line, len, 31 + 8 * (size_t)i, 38 + 8 * (size_t)i);
        if (!vsg_parse_double(t.s, t.n, &v[i])) {
            snprintf(bad, sizeof bad, "bad %s (columns %d-%d)", number_names[i], 31 + 8 * i, 38 + 8 * i);
            return set_error(e, VSG_E_FORMAT, bad, &t);
        }
    }
    *coords_ok = 1;
    nr = vsg_tokenize(line + 54, len - 54, rest, 4);
    if (nr == 0) return set_error(e, VSG_E_DATA, "missing charge and radius", NULL);
    if (nr == 1) return set_error(e, VSG_E_DATA, "missing radius", NULL);
    if (nr > 2) {
        snprintf(bad, sizeof bad, "%d fields after the coordinates, expected charge and radius", nr);
        return set_error(e, VSG_E_FORMAT, bad, NULL);
    }
    for (i = 0; i < 2; i++)
        if (!vsg_parse_double(rest[i].s, rest[i].n, &v[3 + i])) {
            snprintf(bad, sizeof bad, "bad %s", number_names[3 + i]);
            return set_error(e, VSG_E_FORMAT, bad, &rest[i]);
        }
    t = column(line, len, 23, 26);
    if (!vsg_parse_int(t.s, t.n, &a->residue_number))
        return set_error(e, VSG_E_FORMAT, "bad residue number (columns 23-26)", &t);
    t = column(line, len, 7, 11);
    if (!vsg_parse_int(t.s, t.n, &a->serial)) a->serial = 0;
    t = column(line, len, 13, 16);
    copy_field(a->name, sizeof a->name, t.s, t.n);
    t = column(line, len, 18, 21); /* 21 too: CHARMM's 4-letter residue names */
    copy_field(a->residue_name, sizeof a->residue_name, t.s, t.n);
    a->chain = line[21];
    a->insertion_code = line[26];
    a->x = v[0], a->y = v[1], a->z = v[2], a->charge = v[3], a->radius = v[4];
    return 1;
}

/* Element from the atom name: PQR has no element column and whitespace files lose the PDB
 * alignment that would tell "CA" (C alpha) from "CA" (calcium). Two letters only for ions
 * (name = residue name) and for prefixes no protein or nucleic-acid atom name uses. */
static void element_from_name(const char *name, const char *resname, char el[3])
{
    static const char *const two[] = {"FE", "ZN", "MG", "MN", "CL", "BR", "CU", "NI", "SE"};
    char up[3] = {0, 0, 0};
    size_t i;
    while (*name && !isalpha((unsigned char)*name)) name++; /* "1HB" */
    el[0] = el[1] = el[2] = '\0';
    if (!*name) return;
    up[0] = (char)toupper((unsigned char)name[0]);
    if (isalpha((unsigned char)name[1])) up[1] = (char)toupper((unsigned char)name[1]);
    el[0] = up[0];
    if (!up[1]) return;
    if (strlen(name) == 2 && strlen(resname) >= 2 && toupper((unsigned char)resname[0]) == up[0] &&
        toupper((unsigned char)resname[1]) == up[1] && !isalpha((unsigned char)resname[2])) {
        el[1] = (char)tolower((unsigned char)up[1]);
        return;
    }
    for (i = 0; i < sizeof two / sizeof two[0]; i++)
        if (up[0] == two[i][0] && up[1] == two[i][1]) el[1] = (char)tolower((unsigned char)up[1]);
}

/* ATOM or HETATM: returns the length of the record name, 0 for other records. */
static size_t atom_record(const char *line, size_t len)
{
    if (len >= 6 && memcmp(line, "HETATM", 6) == 0) return 6;
    if (len >= 4 && memcmp(line, "ATOM", 4) == 0 && (len == 4 || line[4] == ' ' || isdigit((unsigned char)line[4])))
        return 4;
    return 0;
}


vsg_status vsg_read_pqr(const char *path, vsg_molecule *m)
{
    vsg_lines *in;
    vsg_status st;
    char *line;
    size_t len;
    int r, model = 1, segment = 0;
    st = vsg_lines_open(path, &in);
    if (st != VSG_OK) return st;
    while ((r = vsg_lines_next(in, &line, &len)) == 1) {
        size_t kw = atom_record(line, len);
        if (kw) {
            token tok[MAX_TOKENS];
            int nt = vsg_tokenize(line + kw, len - kw, tok, MAX_TOKENS);
            vsg_atom a;
            line_error ews, ecol;
            int coords_ok = 0;
            memset(&a, 0, sizeof a);
            a.chain = a.insertion_code = ' ';
            if (!parse_whitespace(tok, nt, &a, &ews)) { /* reads tok[0..9] at most */
                memset(&a, 0, sizeof a);
                a.chain = a.insertion_code = ' ';
                if (!parse_columns(line, len, &a, &coords_ok, &ecol)) {
                    /* Report the reading that got furthest. */
                    const line_error *e = coords_ok ? &ecol : &ews;
                    st = vsg_fail(e->status, "%s:%d: %s", vsg_lines_path(in), vsg_lines_number(in), e->what);
                    break;
                }
            }
            a.model = model;
            a.segment = segment;
            a.line = vsg_lines_number(in);
            element_from_name(a.name, a.residue_name, a.element);
            st = vsg_molecule_push(m, &a);
            if (st != VSG_OK) break;
        } else if (vsg_is_record(line, len, "MODEL")) {
            token tok[3];
            int nt = vsg_tokenize(line, len, tok, 3), num;
            model = nt >= 2 && vsg_parse_int(tok[1].s, tok[1].n, &num) ? num : model + 1;
        } else if (vsg_is_record(line, len, "TER")) {
            segment++;
        } else if (vsg_is_record(line, len, "END")) {
            break; /* text after END is not structure (1mbo.pdb carries a FASTA there) */
        }
    }
    if (r < 0) st = (vsg_status)r;
    vsg_lines_close(in);
    return st;
}
