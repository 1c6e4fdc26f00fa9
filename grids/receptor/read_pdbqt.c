/* read_pdbqt.c — AutoDock PDBQT: PDB fixed columns plus a partial charge (columns 71-76)
 * and an AutoDock atom type (columns 78-79), from which the radius follows. The torsion
 * tree records (ROOT, BRANCH, TORSDOF...) say nothing about the atoms and are skipped. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "grids/base/vsgrid.h"
#include "grids/receptor/molecule.h"
#include "grids/base/textio.h"

/* Columns [from, to] (1-based, inclusive), clipped to the line and trimmed of blanks (the
 * parsers accept padding; the messages quote the value without it). */
static const char *column(const char *line, size_t len, size_t from, size_t to, size_t *n)
{
    const char *s;
    if (from - 1 >= len) {
        *n = 0;
        return "";
    }
    s = line + from - 1;
    *n = (to < len ? to : len) - (from - 1);
    while (*n > 0 && (*s == ' ' || *s == '\t')) s++, (*n)--;
    while (*n > 0 && (s[*n - 1] == ' ' || s[*n - 1] == '\t')) (*n)--;
    return s;
}

static void copy_field(char *dst, size_t cap, const char *s, size_t n)
{
    while (n > 0 && (*s == ' ' || *s == '\t')) s++, n--;
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t')) n--;
    if (n > cap - 1) n = cap - 1;
    memcpy(dst, s, n);
    dst[n] = '\0';
}

/* Element of an AutoDock type: the acceptor/donor variants name their element. */
static void element_of_type(const char *type, char el[3])
{
    static const char *const map[][2] = {{"A", "C"},  {"NA", "N"}, {"NS", "N"}, {"OA", "O"},
                                         {"OS", "O"}, {"SA", "S"}, {"HD", "H"}, {"HS", "H"}};
    size_t i;
    for (i = 0; i < sizeof map / sizeof map[0]; i++)
        if (strcmp(type, map[i][0]) == 0) {
            strcpy(el, map[i][1]);
            return;
        }
    el[0] = type[0];
    el[1] = type[1] ? (char)tolower((unsigned char)type[1]) : '\0'; /* "CL", "Cl" → "Cl" */
    el[2] = '\0';
}

static vsg_status parse_atom(const char *line, size_t len, vsg_atom *a, const char *path, int ln)
{
    static const char *const axis[3] = {"x", "y", "z"};
    const char *s;
    size_t n;
    int i;
    double v[3];
    if (len < 54) return vsg_fail(VSG_E_FORMAT, "%s:%d: truncated ATOM record (%zu characters)", path, ln, len);
    for (i = 0; i < 3; i++) {
        s = column(line, len, 31 + 8 * (size_t)i, 38 + 8 * (size_t)i, &n);
        if (!vsg_parse_double(s, n, &v[i]))
            return vsg_fail(VSG_E_FORMAT, "%s:%d: bad %s coordinate '%.*s' (columns %d-%d)", path, ln,
                            axis[i], (int)n, s, 31 + 8 * i, 38 + 8 * i);
    }
    a->x = v[0], a->y = v[1], a->z = v[2];
    /* Vina reads the charge from columns 69-76; the 67-70 blank lets a wide charge in too */
    s = column(line, len, 67, 76, &n);
    if (n == 0 && (len < 79 || !isalpha((unsigned char)line[78])))
        /* no charge and no two-letter type: a PDB line (element in 77-78, formal charge in 79-80) */
        return vsg_fail(VSG_E_DATA, "%s:%d: looks like a PDB file, not PDBQT (no partial charge in columns 71-76, no "
                        "AutoDock type in 78-79): for a receptor make a PDBQT with 'vsgrid prepare %s -o REC.pdbqt' "
                        "(or name it .pdb: grid, maps and rescore prepare a PDB file on the way); a ligand is read "
                        "as PDB, SDF or MOL2 when its name ends so (.pdb, .sdf, .mol2)", path, ln, path);
    if (n == 0) return vsg_fail(VSG_E_DATA, "%s:%d: missing charge (columns 71-76 are blank)", path, ln);
    if (!vsg_parse_double(s, n, &a->charge))
        return vsg_fail(VSG_E_FORMAT, "%s:%d: bad charge '%.*s' (columns 71-76)", path, ln, (int)n, s);
    s = column(line, len, 78, len, &n);
    if (n == 0)
        return vsg_fail(VSG_E_DATA, "%s:%d: missing AutoDock atom type (columns 78-79), so no radius",
                        path, ln);
    if (n <= 2) {
        copy_field(a->ad_type, sizeof a->ad_type, s, n);
        a->radius = vsg_radius_for_ad_type(a->ad_type);
        /* Legacy PDBQT writes metals and halogens as PDB element names in capitals (AutoDock-GPU's
         * own receptors: CA, FE, ZN); autogrid4 reads them as its Ca, Fe, Zn, so vsgrid does too
         * (Vina types them Met_D), once with a warning. NA stays AutoDock's acceptor nitrogen. */
        static const char *const legacy[][2] = {{"CA", "Ca"}, {"FE", "Fe"}, {"ZN", "Zn"}, {"MG", "Mg"},
                                               {"MN", "Mn"}, {"CL", "Cl"}, {"BR", "Br"}};
        for (size_t k = 0; k < sizeof legacy / sizeof legacy[0]; k++) /* never AutoDock types as written */
            if (!strcmp(a->ad_type, legacy[k][0])) {
                static _Thread_local const char *warned_path;
                if (warned_path != path)
                    vsg_warn("%s:%d: AutoDock type '%s' read as '%s' (a legacy PDBQT's element name in capitals, as "
                             "autogrid4 reads it); further such atoms of this file are read so without a warning",
                             path, ln, legacy[k][0], legacy[k][1]);
                warned_path = path;
                snprintf(a->ad_type, sizeof a->ad_type, "%s", legacy[k][1]);
                a->radius = vsg_radius_for_ad_type(a->ad_type);
            }
    }
    if (n > 2 || a->radius <= 0.0) {
        size_t nn;
        const char *nm = column(line, len, 13, 16, &nn);
        return vsg_fail(VSG_E_DATA, "%s:%d: unknown AutoDock atom type '%.*s' (atom '%.*s'): no radius and no "
                        "AutoDock4/Vina parameters for it (receptor types: H HD C A N NA OA S SA F P Cl Br I Mg Ca "
                        "Mn Fe Zn)", path, ln, (int)(n > 8 ? 8 : n), s, (int)nn, nm);
    }
    element_of_type(a->ad_type, a->element);
    s = column(line, len, 23, 26, &n);
    if (!vsg_parse_int(s, n, &a->residue_number))
        return vsg_fail(VSG_E_FORMAT, "%s:%d: bad residue number '%.*s' (columns 23-26)", path, ln,
                        (int)n, s);
    s = column(line, len, 7, 11, &n);
    if (!vsg_parse_int(s, n, &a->serial)) a->serial = 0; /* "*****" or hybrid-36 */
    s = column(line, len, 13, 16, &n);
    copy_field(a->name, sizeof a->name, s, n);
    s = column(line, len, 18, 21, &n);
    copy_field(a->residue_name, sizeof a->residue_name, s, n);
    a->chain = line[21];
    a->insertion_code = line[26];
    return VSG_OK;
}


vsg_status vsg_read_pdbqt(const char *path, vsg_molecule *m)
{
    vsg_lines *in;
    vsg_status st;
    char *line;
    size_t len;
    int r, model = 1, segment = 0;
    st = vsg_lines_open(path, &in);
    if (st != VSG_OK) return st;
    while ((r = vsg_lines_next(in, &line, &len)) == 1) {
        int is_atom = (len >= 6 && memcmp(line, "HETATM", 6) == 0) ||
                      (len >= 4 && memcmp(line, "ATOM", 4) == 0 && (len == 4 || line[4] == ' '));
        if (is_atom) {
            vsg_atom a;
            memset(&a, 0, sizeof a);
            st = parse_atom(line, len, &a, vsg_lines_path(in), vsg_lines_number(in));
            if (st != VSG_OK) break;
            a.model = model;
            a.segment = segment;
            a.line = vsg_lines_number(in);
            st = vsg_molecule_push(m, &a);
            if (st != VSG_OK) break;
        } else if (vsg_is_record(line, len, "MODEL")) {
            int num;
            model = len > 6 && vsg_parse_int(line + 6, len - 6, &num) ? num : model + 1;
        } else if (vsg_is_record(line, len, "TER")) {
            segment++;
        } else if (vsg_is_record(line, len, "END")) {
            break;
        }
    }
    if (r < 0) st = (vsg_status)r;
    vsg_lines_close(in);
    return st;
}
