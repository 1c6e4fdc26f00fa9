/* read_mol2.c — Tripos MOL2, first molecule only (a receptor or one ligand). Atom lines:
 *   id name x y z type [subst_id [subst_name [charge [status]]]]
 * The charge is required; the radius comes from the element of the SYBYL type ("C.ar"). */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "grids/base/vsgrid.h"
#include "grids/receptor/molecule.h"
#include "grids/base/textio.h"

#define MAX_TOKENS 12

typedef vsg_token token;


static void copy_token(char *dst, size_t cap, token t)
{
    size_t n = t.n < cap - 1 ? t.n : cap - 1;
    memcpy(dst, t.s, n);
    dst[n] = '\0';
}

/* "LIG1" → LIG 1, "ALA25" → ALA 25; otherwise the whole name and the substructure id. */
static void residue_from_subst(token name, int subst_id, vsg_atom *a)
{
    size_t d = name.n;
    while (d > 0 && isdigit((unsigned char)name.s[d - 1])) d--;
    if (d > 0 && d < name.n && d <= 4 && name.n - d <= 9 &&
        vsg_parse_int(name.s + d, name.n - d, &a->residue_number)) {
        name.n = d;
    } else {
        a->residue_number = subst_id;
    }
    copy_token(a->residue_name, sizeof a->residue_name, name);
}

static vsg_status parse_atom(const token *tok, int nt, vsg_atom *a, const char *path, int ln)
{
    static const char *const axis[3] = {"x", "y", "z"};
    double v[3];
    int i, subst_id = 0;
    token type, base;
    if (nt < 6) return vsg_fail(VSG_E_FORMAT, "%s:%d: truncated ATOM line (%d fields)", path, ln, nt);
    if (nt < 9)
        return vsg_fail(VSG_E_DATA, "%s:%d: no charges (the atom line has %d fields; the charge is the 9th)",
                        path, ln, nt);
    for (i = 0; i < 3; i++)
        if (!vsg_parse_double(tok[2 + i].s, tok[2 + i].n, &v[i]))
            return vsg_fail(VSG_E_FORMAT, "%s:%d: bad %s coordinate '%.*s'", path, ln, axis[i],
                            (int)(tok[2 + i].n > 40 ? 40 : tok[2 + i].n), tok[2 + i].s);
    if (!vsg_parse_double(tok[8].s, tok[8].n, &a->charge))
        return vsg_fail(VSG_E_FORMAT, "%s:%d: bad charge '%.*s'", path, ln,
                        (int)(tok[8].n > 40 ? 40 : tok[8].n), tok[8].s);
    a->x = v[0], a->y = v[1], a->z = v[2];
    if (!vsg_parse_int(tok[0].s, tok[0].n, &a->serial)) a->serial = 0;
    copy_token(a->name, sizeof a->name, tok[1]);
    type = base = tok[5];
    for (base.n = 0; base.n < type.n && type.s[base.n] != '.'; base.n++) {}
    if (base.n >= 1 && base.n <= 2 && isalpha((unsigned char)base.s[0])) {
        a->element[0] = (char)toupper((unsigned char)base.s[0]);
        a->element[1] = base.n == 2 ? (char)tolower((unsigned char)base.s[1]) : '\0';
        a->element[2] = '\0';
        a->radius = vsg_radius_for_element(a->element);
    }
    if (a->radius <= 0.0) /* Du, LP, Any, Hal...: no atom to give a size */
        return vsg_fail(VSG_E_DATA, "%s:%d: no radius for SYBYL atom type '%.*s'", path, ln,
                        (int)(type.n > 20 ? 20 : type.n), type.s);
    if (!vsg_parse_int(tok[6].s, tok[6].n, &subst_id)) subst_id = 0;
    residue_from_subst(tok[7], subst_id, a);
    a->chain = a->insertion_code = ' ';
    return VSG_OK;
}

vsg_status vsg_read_mol2(const char *path, vsg_molecule *m)
{
    vsg_lines *in;
    vsg_status st;
    char *line;
    size_t len;
    int r, molecules = 0, header = -1, in_atoms = 0, declared = -1, atoms = 0;
    st = vsg_lines_open(path, &in);
    if (st != VSG_OK) return st;
    while ((r = vsg_lines_next(in, &line, &len)) == 1) {
        token tok[MAX_TOKENS];
        int nt;
        if (len >= 9 && memcmp(line, "@<TRIPOS>", 9) == 0) {
            in_atoms = 0;
            if (strncmp(line + 9, "MOLECULE", 8) == 0) {
                if (++molecules > 1) break; /* later molecules are other ligands */
                header = 0;
            } else if (strncmp(line + 9, "ATOM", 4) == 0 && molecules == 1) {
                in_atoms = 1;
            }
            continue;
        }
        if (header >= 0 && header < 4) {
            /* MOLECULE header: name, counts, molecule type, charge type */
            header++;
            nt = vsg_tokenize(line, len, tok, MAX_TOKENS);
            if (header == 2 && (nt < 1 || !vsg_parse_int(tok[0].s, tok[0].n, &declared)))
                declared = -1;
            if (header == 4 && nt >= 1 && tok[0].n == 10 && memcmp(tok[0].s, "NO_CHARGES", 10) == 0) {
                st = vsg_fail(VSG_E_DATA, "%s:%d: no charges (charge type NO_CHARGES); assign partial "
                              "charges first", vsg_lines_path(in), vsg_lines_number(in));
                break;
            }
            continue;
        }
        if (!in_atoms) continue;
        nt = vsg_tokenize(line, len, tok, MAX_TOKENS);
        if (nt == 0 || tok[0].s[0] == '#') continue;
        {
            vsg_atom a;
            memset(&a, 0, sizeof a);
            st = parse_atom(tok, nt, &a, vsg_lines_path(in), vsg_lines_number(in));
            if (st != VSG_OK) break;
            a.model = 1;
            a.line = vsg_lines_number(in);
            st = vsg_molecule_push(m, &a);
            if (st != VSG_OK) break;
            atoms++;
        }
    }
    if (r < 0) st = (vsg_status)r;
    if (st == VSG_OK && declared >= 0 && atoms > 0 && declared != atoms)
        st = vsg_fail(VSG_E_FORMAT, "%s: the MOLECULE header declares %d atoms but the ATOM section "
                      "has %d", vsg_lines_path(in), declared, atoms);
    vsg_lines_close(in);
    return st;
}
