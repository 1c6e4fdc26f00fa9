/* read_pdb_lib.c — ligand records of PDB files (ATOM/HETATM by fixed columns, no charges), and
 * the record structure PDB and PDBQT pose files share: MODEL ... ENDMDL is one record; without
 * MODEL, the atoms up to END (or the end of the file) are one record; in PDBQT outside a MODEL,
 * TORSDOF also ends one (it closes every AutoDock ligand, so concatenated ligands split).
 *
 * A MODEL still open at the next MODEL or at the end of the file is a truncated pose (parse):
 * nothing else says whether its atoms are all there. Atoms past the atom limit are counted,
 * never stored. Names: "REMARK  Name = X", else COMPND, else the file's base name with
 * "#MODEL" (a name given outside any MODEL applies to every record of the file). */
#include <stdio.h>
#include <string.h>

#include "ligands/readers/reader_internal.h"

/* "REMARK  Name = X" → X (rank 2); "COMPND    X" → X (rank 1). */
static int name_in(const char *line, size_t len, const char **s, size_t *n)
{
    size_t i;
    if (len > 6 && memcmp(line, "COMPND", 6) == 0) {
        *s = line + 6, *n = len - 6;
        return vsg_lig_blank(*s, *n) ? 0 : 1;
    }
    if (len < 6 || memcmp(line, "REMARK", 6) != 0) return 0;
    for (i = 6; i < len && line[i] == ' '; i++) {}
    if (len - i < 4 || memcmp(line + i, "Name", 4) != 0) return 0;
    for (i += 4; i < len && line[i] == ' '; i++) {}
    if (i >= len || line[i] != '=') return 0;
    *s = line + i + 1, *n = len - i - 1;
    return vsg_lig_blank(*s, *n) ? 0 : 2;
}

static void fallback_name(vsg_lig_ctx *c, vsg_ligand *lig)
{
    if (c->file_name_rank > 0) snprintf(lig->name, sizeof lig->name, "%s", c->file_name);
    else if (lig->model > 0) snprintf(lig->name, sizeof lig->name, "%s#%d", c->base, lig->model);
    else snprintf(lig->name, sizeof lig->name, "%s", c->base);
}

/* The record structure of vsg_lig_read_models below, line by line, for the splitter (which cuts
 * the file between records): keep the two in step. */
void vsg_lig_models_step(vsg_lig_models_state *st, const char *line, size_t len, int torsdof_ends, int *ends_before,
                         int *ends_after)
{
    const char *s;
    size_t n;
    int rank;
    *ends_before = *ends_after = 0;
    if (len >= 6 && (memcmp(line, "ATOM  ", 6) == 0 || memcmp(line, "HETATM", 6) == 0)) {
        st->open = 1;
    } else if (vsg_lig_is(line, len, "MODEL", 5)) {
        if (st->open) { /* the record ends before this line; the caller steps it again */
            st->open = st->in_model = 0;
            *ends_before = 1;
            return;
        }
        st->open = st->in_model = 1;
    } else if (vsg_lig_is(line, len, "ENDMDL", 6) || vsg_lig_is(line, len, "END", 3)) {
        if (st->open) *ends_after = 1, st->open = st->in_model = 0;
    } else if (torsdof_ends && !st->in_model && st->open && vsg_lig_is(line, len, "TORSDOF", 7)) {
        *ends_after = 1;
        st->open = 0;
    } else if (!st->open && (rank = name_in(line, len, &s, &n)) > st->file_name_rank) {
        st->file_name_rank = rank;
        vsg_lig_set_name(st->file_name, sizeof st->file_name, s, n);
    }
}

int vsg_lig_read_models(vsg_lig_ctx *c, vsg_ligand *lig, vsg_lig_atom_fn parse_atom, int torsdof_ends)
{
    char *line;
    size_t len;
    int r, open = 0, in_model = 0, total = 0, name_rank = 0;
    for (;;) {
        int is_atom;
        r = vsg_lig_next(c, lig, &line, &len);
        if (r < 0) return 1;
        if (r == 0) {
            if (!open) return 0;
            if (in_model)
                vsg_lig_failf(c, lig, VSG_E_FORMAT, VSG_LIG_PARSE, c->src.line,
                              "end of file inside MODEL %d (no ENDMDL): truncated pose?", lig->model);
            break;
        }
        is_atom = len >= 6 && (memcmp(line, "ATOM  ", 6) == 0 || memcmp(line, "HETATM", 6) == 0);
        if (is_atom) {
            if (!open) {
                vsg_lig_begin(c, lig);
                fallback_name(c, lig);
                open = 1;
            }
            if (++total > c->max_atoms || lig->status != VSG_OK) continue; /* counted, not stored */
            if (!vsg_lig_reserve_atoms(c, lig, lig->natoms + 1)) continue;
            parse_atom(c, lig, line, len);
            continue;
        }
        if (!open) vsg_lig_drop_text(lig); /* lines between records belong to none */
        if (vsg_lig_is(line, len, "MODEL", 5)) {
            int m = 0;
            if (open) {
                if (in_model)
                    vsg_lig_failf(c, lig, VSG_E_FORMAT, VSG_LIG_PARSE, c->src.line,
                                  "MODEL %d has no ENDMDL before the next MODEL", lig->model);
                vsg_lig_unread(c, lig);
                break;
            }
            vsg_lig_begin(c, lig);
            open = in_model = 1;
            if (!vsg_lig_int(line + 5, len - 5, &m) || m < 0) m = 0;
            lig->model = m;
            fallback_name(c, lig);
        } else if (vsg_lig_is(line, len, "ENDMDL", 6) || vsg_lig_is(line, len, "END", 3)) {
            if (open) break;
        } else if (torsdof_ends && !in_model && open && vsg_lig_is(line, len, "TORSDOF", 7)) {
            break;
        } else {
            const char *s;
            size_t n;
            int rank = name_in(line, len, &s, &n);
            if (rank && open && rank > name_rank) {
                name_rank = rank;
                vsg_lig_set_name(lig->name, sizeof lig->name, s, n);
            } else if (rank && !open && rank > c->file_name_rank) {
                c->file_name_rank = rank;
                vsg_lig_set_name(c->file_name, sizeof c->file_name, s, n);
            }
        }
    }
    if (total > c->max_atoms)
        vsg_lig_failf(c, lig, VSG_E_LIMIT, VSG_LIG_TOO_MANY, lig->line, "%d atoms, more than the limit %d", total,
                      c->max_atoms);
    else if (total == 0)
        vsg_lig_failf(c, lig, VSG_E_DATA, VSG_LIG_NO_ATOMS, lig->line, "no atoms");
    return 1;
}

/* PDB element: columns 77-78, else from the atom name (columns 13-16): a name that starts in
 * column 14 (blank or digit in 13) is a one-letter element; one that starts in 13 is a
 * two-letter element when it is one (FE, CL), except hydrogens (HG12 is a hydrogen). */
static void pdb_element(char el[3], const char *line, size_t len)
{
    const char *nm;
    if (len >= 77) {
        vsg_lig_element(el, line + 76, len >= 78 ? 2 : 1);
        if (el[0]) return;
    }
    el[0] = '\0';
    if (len < 14) return;
    nm = line + 12;
    if (nm[0] == ' ' || (nm[0] >= '0' && nm[0] <= '9')) {
        vsg_lig_element(el, nm + 1, 1);
        return;
    }
    if (nm[0] != 'H' && len >= 14) {
        vsg_lig_element(el, nm, 2);
        if (el[0] && nm[1] != ' ' && !(nm[1] >= '0' && nm[1] <= '9')) return;
    }
    vsg_lig_element(el, nm, 1);
}

int vsg_lig_pdb_coords(vsg_lig_ctx *c, vsg_ligand *lig, const char *line, size_t len, double v[3])
{
    if (len < 54) {
        vsg_lig_failf(c, lig, VSG_E_FORMAT, VSG_LIG_PARSE, c->src.line, "truncated %.6s line (%zu characters, need 54)",
                      line, len);
        return 0;
    }
    for (int i = 0; i < 3; i++)
        if (!vsg_lig_double(line + 30 + 8 * i, 8, &v[i])) {
            char what[48];
            snprintf(what, sizeof what, "%s coordinate (columns %d-%d)", vsg_lig_axis(i), 31 + 8 * i, 38 + 8 * i);
            vsg_lig_bad_number(c, lig, c->src.line, what, line + 30 + 8 * i, 8);
            return 0;
        }
    return 1;
}

static int pdb_atom(vsg_lig_ctx *c, vsg_ligand *lig, const char *line, size_t len)
{
    vsg_lig_atom *a = &lig->atoms[lig->natoms];
    double v[3];
    if (!vsg_lig_pdb_coords(c, lig, line, len, v)) return 0;
    a->x = v[0], a->y = v[1], a->z = v[2];
    a->charge = 0.0;
    a->line = (int)c->src.line;
    a->formal = 0;
    a->ad_type[0] = '\0';
    vsg_lig_copy_field(a->name, sizeof a->name, line + 12, 4);
    pdb_element(a->element, line, len);
    lig->natoms++;
    return 1;
}

int vsg_lig_read_pdb(vsg_lig_ctx *c, vsg_ligand *lig) { return vsg_lig_read_models(c, lig, pdb_atom, 0); }
