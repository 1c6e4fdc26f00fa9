/* read_pdb_lib.c — ligand records of PDB files (ATOM/HETATM by fixed columns, no charges), and
 * the record structure PDB and PDBQT pose files share: MODEL ... ENDMDL is one record; without
 * MODEL, the atoms up to END (or the end of the file) are one record; in PDBQT outside a MODEL,
 * TORSDOF also ends one (it closes every AutoDock ligand, so concatenated ligands split).
 *
 * A MODEL still open at the next MODEL or at the end of the file is a truncated pose (parse):
 * nothing else says whether its atoms are all there. Atoms past the atom limit are counted,
 * never stored. Names: "REMARK  Name = X", else COMPND, else the file's base name with
 * "#MODEL" (a name given outside any MODEL applies to every record of the file).
 *
 * PDB bonds (issue 20: Gasteiger charges and torsions need them): the CONECT records inside the
 * record (before its END/ENDMDL; a serial repeated in one atom's CONECT lines is a double or
 * triple bond, as the PDB format and Open Babel write them), else bonds inferred from
 * distances (ligands/bond_infer.h). Bonds that carry no order (inferred, or CONECT that repeats
 * no serial) get orders and formal charges from geometry and valence (ligands/bond_orders.h),
 * so that Gasteiger charges, AutoDock types and torsions see the molecule an SDF would give. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ligands/bond_infer.h"
#include "ligands/bond_orders.h"
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
        } else if (!torsdof_ends && open && len > 11 && memcmp(line, "CONECT", 6) == 0) {
            /* PDB: directed serial pairs, kept in lig->bonds until the record ends (pdb_bonds) */
            int from, to;
            if (!vsg_lig_int(line + 6, 5, &from)) continue;
            for (size_t k = 11; k < len && k < 31; k += 5) { /* columns 12-31: four bonded atoms */
                size_t w = len - k < 5 ? len - k : 5;
                if (vsg_lig_blank(line + k, w)) continue;
                if (!vsg_lig_int(line + k, w, &to)) break;
                if (!vsg_lig_reserve_bonds(c, lig, lig->nbonds + 1)) break;
                lig->bonds[lig->nbonds].a = from;
                lig->bonds[lig->nbonds].b = to;
                lig->bonds[lig->nbonds].order = 0; /* serials, not yet indices */
                lig->nbonds++;
            }
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
    /* the serial (columns 7-11), for CONECT; -1 when not a number (hybrid-36 serials) */
    if (lig->natoms >= c->ids_cap) {
        int cap = c->ids_cap ? 2 * c->ids_cap : 64;
        while (cap <= lig->natoms) cap *= 2;
        int *ids = realloc(c->ids, (size_t)cap * sizeof *ids);
        if (!ids) {
            vsg_lig_failf(c, lig, VSG_E_NOMEM, VSG_LIG_TOO_MANY, c->src.line, "out of memory for %d atoms", lig->natoms + 1);
            return 0;
        }
        c->ids = ids, c->ids_cap = cap;
    }
    if (!vsg_lig_int(line + 6, 5, &c->ids[lig->natoms])) c->ids[lig->natoms] = -1;
    lig->natoms++;
    return 1;
}

/* Atom index of a serial, or -1 (serials are nearly always 1..n in order). */
static int index_of_serial(const vsg_lig_ctx *c, const vsg_ligand *lig, int serial)
{
    if (serial >= 1 && serial <= lig->natoms && c->ids[serial - 1] == serial) return serial - 1;
    for (int i = 0; i < lig->natoms; i++)
        if (c->ids[i] == serial) return i;
    return -1;
}

static void perceive_orders(vsg_lig_ctx *c, vsg_ligand *lig)
{
    if (vsg_perceive_bond_orders(lig) != VSG_OK)
        vsg_lig_failf(c, lig, VSG_E_NOMEM, VSG_LIG_TOO_MANY, lig->line, "out of memory for the bond orders of %d atoms",
                      lig->natoms);
}

/* The record's bonds: its CONECT pairs (serials in lig->bonds) as atom indices, a pair named
 * k times from one side of order k (at most 3); none, or none that name its atoms: inferred. */
static void pdb_bonds(vsg_lig_ctx *c, vsg_ligand *lig)
{
    const int m = lig->nbonds;
    int n = 0;
    vsg_lig_bond *raw = m > 0 ? malloc((size_t)m * sizeof *raw) : NULL;
    if (m > 0 && !raw) {
        vsg_lig_failf(c, lig, VSG_E_NOMEM, VSG_LIG_TOO_MANY, lig->line, "out of memory for %d CONECT bonds", m);
        return;
    }
    if (m > 0) memcpy(raw, lig->bonds, (size_t)m * sizeof *raw);
    for (int k = 0; k < m; k++) {
        int a = index_of_serial(c, lig, raw[k].a), b = index_of_serial(c, lig, raw[k].b);
        if (a < 0 || b < 0 || a == b) continue;
        int count = 0, found = -1;
        for (int e = 0; e < m; e++) count += raw[e].a == raw[k].a && raw[e].b == raw[k].b;
        if (count > 3) count = 3;
        for (int e = 0; e < n && found < 0; e++)
            if ((lig->bonds[e].a == a && lig->bonds[e].b == b) || (lig->bonds[e].a == b && lig->bonds[e].b == a)) found = e;
        if (found >= 0) {
            if (count > lig->bonds[found].order) lig->bonds[found].order = count;
            continue;
        }
        lig->bonds[n].a = a;
        lig->bonds[n].b = b;
        lig->bonds[n].order = count;
        n++;
    }
    free(raw);
    lig->nbonds = n;
    if (n > 0) {
        int ordered = 0;
        for (int e = 0; e < n; e++) ordered |= lig->bonds[e].order > 1;
        if (!ordered) perceive_orders(c, lig);
        return;
    }
    int *pairs = NULL, np = 0;
    if (vsg_infer_bonds(lig->atoms, lig->natoms, &pairs, &np) != VSG_OK) {
        vsg_lig_failf(c, lig, VSG_E_NOMEM, VSG_LIG_TOO_MANY, lig->line, "out of memory for the bonds of %d atoms", lig->natoms);
        return;
    }
    if (np > 0 && vsg_lig_reserve_bonds(c, lig, np)) {
        for (int k = 0; k < np; k++) {
            lig->bonds[k].a = pairs[2 * k];
            lig->bonds[k].b = pairs[2 * k + 1];
            lig->bonds[k].order = 1;
        }
        lig->nbonds = np;
    }
    free(pairs);
    perceive_orders(c, lig);
}

int vsg_lig_read_pdb(vsg_lig_ctx *c, vsg_ligand *lig)
{
    int got = vsg_lig_read_models(c, lig, pdb_atom, 0);
    if (got && lig->status == VSG_OK) pdb_bonds(c, lig);
    else if (got) lig->nbonds = 0;
    return got;
}
