/* read_mol2_lib.c — one molecule of a multi-molecule Tripos MOL2 file (a ligand library, e.g.
 * DUD-E's actives_final.mol2.gz), from its @<TRIPOS>MOLECULE line to the next one.
 *
 * MOLECULE: name, counts (atoms bonds ...), molecule type, charge type. ATOM lines:
 * "id name x y z type [subst_id [subst_name [charge ...]]]"; the element is the SYBYL type's
 * part before the dot (C.ar → C, Cl → Cl; LP, Du, Any... → ""). BOND lines: "id a b type",
 * type 1/2/3/ar/am (du and un read as single, nc bonds dropped). Other sections are skipped.
 * Charges count as read (has_charges) when the charge type is not NO_CHARGES and every atom
 * line has its charge column; otherwise they are 0 (a few DUD-E decoys say NO_CHARGES above a
 * charge column: like Open Babel, the header is believed). The counts line is checked: atom lines and bond lines must
 * match it, and a molecule that announces bonds needs its @<TRIPOS>BOND section (parse). */
#include <stdio.h>
#include <string.h>

#include "ligands/readers/reader_internal.h"

static int is_section(const char *l, size_t n) { return n >= 9 && memcmp(l, "@<TRIPOS>", 9) == 0; }
static int is_molecule(const char *l, size_t n) { return vsg_lig_is_mol2_start(l, n); }

/* Reads to the next @<TRIPOS>MOLECULE (left for the next record) or the end of the file. */
static int skip_record(vsg_lig_ctx *c, vsg_ligand *lig)
{
    char *line;
    size_t len;
    int r;
    while ((r = vsg_lig_next(c, lig, &line, &len)) == 1)
        if (is_molecule(line, len)) {
            vsg_lig_unread(c, lig);
            break;
        }
    return 1;
}

static int parse_atom(vsg_lig_ctx *c, vsg_ligand *lig, const char *line, size_t len, int *with_charge)
{
    const char *f[9];
    size_t fl[9];
    int nf = vsg_lig_fields(line, len, f, fl, 9);
    vsg_lig_atom *a = &lig->atoms[lig->natoms];
    double v[3];
    size_t tn;
    if (nf < 6) {
        vsg_lig_failf(c, lig, VSG_E_FORMAT, VSG_LIG_PARSE, c->src.line,
                      "atom line %d has %d fields, need 'id name x y z type': '%.40s'", lig->natoms + 1, nf, line);
        return 0;
    }
    if (!vsg_lig_atom_xyz(c, lig, &f[2], &fl[2], v)) return 0;
    a->charge = 0.0;
    if (nf >= 9) {
        if (!vsg_lig_double(f[8], fl[8], &a->charge)) {
            char what[32];
            snprintf(what, sizeof what, "charge of atom %d", lig->natoms + 1);
            vsg_lig_bad_number(c, lig, c->src.line, what, f[8], fl[8]);
            return 0;
        }
    } else {
        *with_charge = 0;
    }
    a->x = v[0], a->y = v[1], a->z = v[2];
    a->line = (int)c->src.line;
    a->formal = 0;
    a->ad_type[0] = '\0';
    vsg_lig_copy_field(a->name, sizeof a->name, f[1], fl[1]);
    for (tn = 0; tn < fl[5] && f[5][tn] != '.'; tn++) {}
    vsg_lig_element(a->element, f[5], tn); /* LP (lone pair), Du, Any, Hal...: no element */
    lig->natoms++;
    return 1;
}

static int parse_bond(vsg_lig_ctx *c, vsg_ligand *lig, const char *line, size_t len, int *dropped)
{
    const char *f[4];
    size_t fl[4];
    int nf = vsg_lig_fields(line, len, f, fl, 4), id, a, b, order;
    if (nf < 4 || !vsg_lig_int(f[0], fl[0], &id) || !vsg_lig_int(f[1], fl[1], &a) || !vsg_lig_int(f[2], fl[2], &b) ||
        a < 1 || b < 1 || a > lig->natoms || b > lig->natoms) {
        vsg_lig_failf(c, lig, VSG_E_FORMAT, VSG_LIG_PARSE, c->src.line, "bad bond line '%.40s'", line);
        return 0;
    }
    if (fl[3] == 1 && f[3][0] >= '1' && f[3][0] <= '3') order = f[3][0] - '0';
    else if (fl[3] == 2 && memcmp(f[3], "ar", 2) == 0) order = VSG_BOND_AROMATIC;
    else if (fl[3] == 2 && memcmp(f[3], "am", 2) == 0) order = VSG_BOND_AMIDE;
    else if (fl[3] == 2 && (memcmp(f[3], "du", 2) == 0 || memcmp(f[3], "un", 2) == 0)) order = 1;
    else if (fl[3] == 2 && memcmp(f[3], "nc", 2) == 0) {
        (*dropped)++; /* "not connected": no bond */
        return 1;
    } else {
        vsg_lig_failf(c, lig, VSG_E_FORMAT, VSG_LIG_PARSE, c->src.line, "bad bond type '%.*s'",
                      (int)(fl[3] > 8 ? 8 : fl[3]), f[3]);
        return 0;
    }
    if (!vsg_lig_reserve_bonds(c, lig, lig->nbonds + 1)) return 0;
    lig->bonds[lig->nbonds].a = a - 1;
    lig->bonds[lig->nbonds].b = b - 1;
    lig->bonds[lig->nbonds].order = order;
    lig->nbonds++;
    return 1;
}

int vsg_lig_read_mol2(vsg_lig_ctx *c, vsg_ligand *lig)
{
    enum { HEADER, ATOMS, BONDS, OTHER } section = HEADER;
    char *line;
    size_t len;
    int r, natoms = -1, nbonds = 0, header_lines = 0, charges = 0, with_charge = 1, atoms_seen = 0;
    int bonds_seen = 0, dropped = 0;
    /* find the molecule: comments and blank lines before it are skipped */
    for (;;) {
        r = vsg_lig_next(c, lig, &line, &len);
        if (r < 0) return 1;
        if (r == 0) return 0;
        if (is_molecule(line, len)) break;
        vsg_lig_drop_text(lig); /* not part of any record */
    }
    vsg_lig_begin(c, lig);
    for (;;) {
        r = vsg_lig_next(c, lig, &line, &len);
        if (r < 0) return 1;
        if (r == 0) break;
        if (is_section(line, len)) {
            if (is_molecule(line, len)) {
                vsg_lig_unread(c, lig);
                break;
            }
            if (header_lines < 2) {
                vsg_lig_failf(c, lig, VSG_E_FORMAT, VSG_LIG_PARSE, c->src.line,
                              "MOLECULE section without a name and counts line");
                return skip_record(c, lig);
            }
            if (memcmp(line + 9, "ATOM", 4) == 0 && vsg_lig_blank(line + 13, len - 13)) {
                section = ATOMS;
                atoms_seen = 1;
            } else if (memcmp(line + 9, "BOND", 4) == 0 && vsg_lig_blank(line + 13, len - 13)) {
                section = BONDS;
                bonds_seen = 1;
            } else {
                section = OTHER;
            }
            continue;
        }
        if (section == HEADER) {
            const char *f[2];
            size_t fl[2];
            header_lines++;
            if (header_lines == 1) {
                vsg_lig_set_name(lig->name, sizeof lig->name, line, len);
            } else if (header_lines == 2) {
                int nf = vsg_lig_fields(line, len, f, fl, 2);
                if (nf < 1 || !vsg_lig_int(f[0], fl[0], &natoms) || natoms < 0 ||
                    (nf >= 2 && (!vsg_lig_int(f[1], fl[1], &nbonds) || nbonds < 0))) {
                    vsg_lig_failf(c, lig, VSG_E_FORMAT, VSG_LIG_PARSE, c->src.line, "bad counts line '%.40s'", line);
                    return skip_record(c, lig);
                }
                if (natoms > c->max_atoms) {
                    vsg_lig_failf(c, lig, VSG_E_LIMIT, VSG_LIG_TOO_MANY, c->src.line, "%d atoms, more than the limit %d",
                                  natoms, c->max_atoms);
                    return skip_record(c, lig);
                }
                if (!vsg_lig_reserve_atoms(c, lig, natoms > 0 ? natoms : 1)) return skip_record(c, lig);
            } else if (header_lines == 4) {
                int nf = vsg_lig_fields(line, len, f, fl, 1);
                charges = !(nf == 1 && fl[0] == 10 && memcmp(f[0], "NO_CHARGES", 10) == 0);
            }
            continue;
        }
        if (section == ATOMS) {
            if (vsg_lig_blank(line, len)) continue;
            if (lig->natoms >= natoms) {
                vsg_lig_failf(c, lig, VSG_E_FORMAT, VSG_LIG_PARSE, c->src.line, "more atom lines than the %d announced",
                              natoms);
                return skip_record(c, lig);
            }
            if (!parse_atom(c, lig, line, len, &with_charge)) return skip_record(c, lig);
        } else if (section == BONDS) {
            if (vsg_lig_blank(line, len)) continue;
            if (lig->nbonds + dropped >= nbonds) {
                vsg_lig_failf(c, lig, VSG_E_FORMAT, VSG_LIG_PARSE, c->src.line, "more bond lines than the %d announced",
                              nbonds);
                return skip_record(c, lig);
            }
            if (!parse_bond(c, lig, line, len, &dropped)) return skip_record(c, lig);
        }
    }
    /* end of the molecule: check it against its counts line */
    if (natoms < 0) {
        vsg_lig_failf(c, lig, VSG_E_FORMAT, VSG_LIG_PARSE, c->src.line, "%s",
                      header_lines == 0 ? "MOLECULE section without a name" : "MOLECULE section without a counts line");
        return 1;
    }
    if (natoms == 0) {
        vsg_lig_failf(c, lig, VSG_E_DATA, VSG_LIG_NO_ATOMS, c->src.line, "no atoms");
        return 1;
    }
    if (!atoms_seen || lig->natoms != natoms) {
        vsg_lig_failf(c, lig, VSG_E_FORMAT, VSG_LIG_PARSE, c->src.line, "%d atoms announced, %d atom lines%s", natoms,
                      lig->natoms, atoms_seen ? "" : " (no @<TRIPOS>ATOM section)");
        return 1;
    }
    if (nbonds > 0 && !bonds_seen) {
        vsg_lig_failf(c, lig, VSG_E_FORMAT, VSG_LIG_PARSE, c->src.line, "%d bonds announced but no @<TRIPOS>BOND section",
                      nbonds);
        return 1;
    }
    if (lig->nbonds + dropped != nbonds) {
        vsg_lig_failf(c, lig, VSG_E_FORMAT, VSG_LIG_PARSE, c->src.line, "%d bonds announced, %d bond lines", nbonds,
                      lig->nbonds + dropped);
        return 1;
    }
    lig->has_charges = charges && with_charge;
    if (!lig->has_charges) { /* values under NO_CHARGES (DUD-E writes some) are not vouched for */
        int i;
        for (i = 0; i < lig->natoms; i++) lig->atoms[i].charge = 0.0;
    }
    return 1;
}
