/* box_ligand_check.c — a co-crystallised ligand left in the receptor at the centre of a docking
 * box (vsg_receptor_warn_box_group): its pocket is full, so ligands dock elsewhere or clash, and
 * nothing else says so when the box was given by numbers (--box) rather than around that ligand.
 * `vsgrid maps`, `vsgrid grid` and Python's maps() call it. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "grids/base/vsgrid.h"

/* Residues a receptor is made of (amino acids with their protonation names, nucleotides) and
 * waters: every other residue name is a HETATM group. */
static int polymer_or_water(const char *resn)
{
    static const char *const names[] = {
        "ALA", "ARG", "ASN", "ASP", "CYS", "GLN", "GLU", "GLY", "HIS", "ILE", "LEU", "LYS", "MET", "PHE", "PRO",
        "SER", "THR", "TRP", "TYR", "VAL", "HID", "HIE", "HIP", "HSD", "HSE", "HSP", "CYX", "CYM", "ASH", "GLH",
        "LYN", "ARN", "TYM", "MSE", "SEC", "PYL", "ACE", "NME", "NMA", "A", "C", "G", "U", "T", "DA", "DC", "DG",
        "DT", "DU", "RA", "RC", "RG", "RU", "HOH", "WAT", "H2O", "DOD", "TIP", "TIP3", "SOL", NULL};
    for (int i = 0; names[i]; i++)
        if (!strcmp(resn, names[i])) return 1;
    return 0;
}

int vsg_receptor_warn_box_group(const vsg_molecule *rec, const char *rec_name, const char *who, const double center[3],
                                const double size[3])
{
    if (!rec || !center || !size) return 0;
    const size_t n = vsg_molecule_atom_count(rec);
    vsg_atom_info a, best;
    double best_d = INFINITY, c[3] = {0, 0, 0};
    int heavy = 0, best_heavy = 0;
    vsg_atom_info cur;
    memset(&cur, 0, sizeof cur);
    memset(&best, 0, sizeof best);
    /* residues are runs of atoms with one (chain, number, insertion code, name) */
    for (size_t i = 0; i <= n; i++) {
        const int have = i < n && vsg_molecule_atom(rec, i, &a) == VSG_OK;
        const int same = have && heavy > 0 && a.chain == cur.chain && a.residue_number == cur.residue_number &&
                         a.insertion_code == cur.insertion_code && !strcmp(a.residue_name, cur.residue_name);
        if (!same && heavy > 0) { /* the group just ended */
            if (heavy >= 6 && !polymer_or_water(cur.residue_name)) {
                int inside = 1;
                double d2 = 0;
                for (int k = 0; k < 3; k++) {
                    const double off = c[k] / heavy - center[k];
                    if (fabs(off) > size[k] / 4) inside = 0;
                    d2 += off * off;
                }
                if (inside && d2 < best_d) best_d = d2, best = cur, best_heavy = heavy;
            }
            heavy = 0, c[0] = c[1] = c[2] = 0;
        }
        if (!have) continue;
        if (!strcmp(a.element, "H")) continue;
        if (!heavy) cur = a;
        heavy++, c[0] += a.x, c[1] += a.y, c[2] += a.z;
    }
    if (!best_heavy) return 0;
    vsg_warn("%s: the box's centre holds the HETATM group %s %c%d of %s (%d heavy atoms, %.1f A from the centre): if "
             "it is a co-crystallised ligand, the pocket is full and ligands dock elsewhere or clash; remove its "
             "HETATM lines and prepare the receptor again (a cofactor that belongs to the site may stay)",
             who ? who : "box", best.residue_name, best.chain, best.residue_number,
             rec_name ? rec_name : vsg_molecule_source(rec), best_heavy, sqrt(best_d));
    return 1;
}
