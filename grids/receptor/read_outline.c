/* read_outline.c — vsg_outline_read (vsgrid.h): the atoms a picture outlines. PDB has no
 * charges, so vsg_molecule_read refuses it; an outline needs only coordinates and radii. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "grids/base/vsgrid.h"
#include "grids/base/textio.h"
#include "grids/receptor/molecule.h"

static int has_suffix(const char *s, const char *suf)
{
    size_t n = strlen(s), k = strlen(suf);
    return n >= k && strcmp(s + n - k, suf) == 0;
}

/* ATOM/HETATM columns 31-54, element from columns 77-78 (else the atom name). */
static vsg_status read_pdb_coordinates(const char *path, vsg_molecule **out)
{
    vsg_lines *in;
    vsg_status st = vsg_lines_open(path, &in);
    if (st != VSG_OK) return st;
    vsg_molecule *m = vsg_molecule_new(path, "pdb");
    char *line;
    size_t len;
    int rc = 0;
    while (m && (rc = vsg_lines_next(in, &line, &len)) == 1) {
        if (vsg_is_record(line, len, "END") || vsg_is_record(line, len, "ENDMDL")) break;
        if (!((len >= 6 && !memcmp(line, "HETATM", 6)) || (len >= 4 && !memcmp(line, "ATOM", 4) && (len == 4 || line[4] == ' '))))
            continue;
        vsg_atom at;
        memset(&at, 0, sizeof at);
        if (len < 54 || !vsg_parse_double(line + 30, 8, &at.x) || !vsg_parse_double(line + 38, 8, &at.y) ||
            !vsg_parse_double(line + 46, 8, &at.z)) {
            st = vsg_fail(VSG_E_FORMAT, "%s:%d: bad ATOM/HETATM coordinates (columns 31-54)", path, vsg_lines_number(in));
            break;
        }
        char el[3] = {0, 0, 0};
        if (len >= 78) {
            int k = 0;
            for (int c = 76; c < 78; c++)
                if (line[c] != ' ') el[k++] = line[c];
        }
        if (!el[0]) /* atom name, columns 13-16: the first letter that is not a digit */
            for (int c = 12; c < 16 && c < (int)len; c++)
                if (isalpha((unsigned char)line[c])) { el[0] = line[c]; break; }
        at.radius = vsg_radius_for_element(el);
        if (at.radius <= 0.0) at.radius = 1.8;
        at.line = vsg_lines_number(in);
        if (vsg_molecule_push(m, &at) != VSG_OK) st = vsg_fail(VSG_E_NOMEM, "%s: out of memory", path);
    }
    if (st == VSG_OK && !m) st = vsg_fail(VSG_E_NOMEM, "%s: out of memory", path);
    else if (st == VSG_OK && rc < 0) st = (vsg_status)rc;
    else if (st == VSG_OK && m->n == 0) st = vsg_fail(VSG_E_FORMAT, "%s: no ATOM/HETATM records", path);
    vsg_lines_close(in);
    if (st != VSG_OK) {
        vsg_molecule_free(m);
        return st;
    }
    *out = m;
    return VSG_OK;
}

vsg_status vsg_outline_read(const char *path, vsg_molecule **out)
{
    if (has_suffix(path, ".pdb") || has_suffix(path, ".pdb.gz") || has_suffix(path, ".ent") ||
        has_suffix(path, ".ent.gz"))
        return read_pdb_coordinates(path, out);
    vsg_status st = vsg_molecule_read(path, NULL, out);
    if (st != VSG_OK) return st;
    /* the readers give radii for PQR, AutoDock types or elements; a radius of 0 would hide
     * the atom from the outline: fall back to the element, then 1.8 Å */
    vsg_molecule *m = *out;
    for (size_t i = 0; i < m->n; i++)
        if (!(m->atoms[i].radius > 0.0)) {
            double r = vsg_radius_for_element(m->atoms[i].element);
            m->atoms[i].radius = r > 0.0 ? r : 1.8;
        }
    return VSG_OK;
}
