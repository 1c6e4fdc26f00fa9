/* cli_receptor.c — receptors, and the ligands that place boxes, named on the command line. A
 * PDB receptor is prepared as `vsgrid prepare` does (vsg_receptor_read) with its summary on
 * stderr, so every command that takes a receptor takes a PDB the same way; where a file must
 * name the receptor for another program (the gpf of an AutoDock4 map set, which autogrid4
 * reads), the prepared PDBQT is kept beside it. A --around ligand may be in any ligand format. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/cli/cli.h"
#include "engine/cli/grid_batch.h"

vsg_status vsg_cli_read_receptor(const char *path, vsg_prep_format format, int quiet, vsg_molecule **m)
{
    char *prep = NULL;
    vsg_status st = vsg_receptor_read(path, format, m, &prep);
    if (prep && !quiet) fputs(prep, stderr);
    free(prep);
    return st;
}

vsg_status vsg_cli_receptor_pdbqt(const char *path, const char *keep, int quiet, const char **used)
{
    *used = path;
    if (!vsg_receptor_is_pdb(path)) return VSG_OK;
    vsg_prep_options o;
    vsg_prep_options_default(&o);
    o.format = VSG_PREP_PDBQT;
    char *text = NULL;
    vsg_prep_summary s;
    memset(&s, 0, sizeof s);
    vsg_status st = vsg_receptor_prepare(path, &o, &text, &s);
    if (st != VSG_OK) return st;
    if (s.report && !quiet) fputs(s.report, stderr);
    vsg_prep_summary_free(&s);
    st = vsg_batch_make_dirs(keep); /* keep's folder, as mkdir -p */
    if (st != VSG_OK) {
        free(text);
        return st;
    }
    FILE *f = fopen(keep, "w");
    int ok = f && fputs(text, f) >= 0;
    if (f && fclose(f) != 0) ok = 0;
    free(text);
    if (!ok) return vsg_fail(VSG_E_IO, "cannot write the prepared receptor %s", keep);
    *used = keep;
    return VSG_OK;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && !strcmp(s + n - m, suffix);
}

vsg_status vsg_cli_receptor_not_grid(const char *path)
{
    static const char *const receptor_ext[] = {".pdb", ".pdb.gz", ".ent", ".ent.gz", ".pqr", ".pqr.gz", ".pdbqt",
                                               ".pdbqt.gz", ".mol2", ".cif", ".cif.gz", ".mmcif", NULL};
    for (int i = 0; receptor_ext[i]; i++)
        if (ends_with(path, receptor_ext[i]))
            return vsg_fail(VSG_E_FORMAT, "%s is a receptor, not a grid or map set: screen scores on maps made from "
                            "it first ('vsgrid maps %s --scoring vina|ad4 --around LIG -o PREFIX', or 'vsgrid grid %s "
                            "--around LIG -o G.vsg'); 'vsgrid rescore %s POSES' does both in one command",
                            path, path, path, path);
    return VSG_OK;
}

vsg_status vsg_cli_read_around(const char *path, vsg_molecule **m)
{
    char base[4096];
    snprintf(base, sizeof base, "%s", path);
    size_t n = strlen(base);
    if (n > 3 && !strcmp(base + n - 3, ".gz")) base[n - 3] = '\0';
    if (ends_with(base, ".pqr") || ends_with(base, ".pdbqt") || ends_with(base, ".mol2"))
        return vsg_molecule_read(path, NULL, m);
    return vsg_ligand_file_molecule(path, m); /* SDF, PDB (no charges needed for a box), ... */
}

int vsg_cli_warn_ligand_in_receptor(const char *cmd, const vsg_molecule *rec, const char *rec_path,
                                    const vsg_molecule *lig, const char *lig_path)
{
    size_t nl = vsg_molecule_atom_count(lig), nr = vsg_molecule_atom_count(rec), heavy = 0, covered = 0;
    vsg_atom_info a, b, first;
    memset(&first, 0, sizeof first);
    for (size_t i = 0; i < nl; i++) {
        if (vsg_molecule_atom(lig, i, &a) != VSG_OK || !strcmp(a.element, "H")) continue;
        heavy++;
        for (size_t k = 0; k < nr; k++) {
            if (vsg_molecule_atom(rec, k, &b) != VSG_OK) continue;
            const double dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z;
            if (dx * dx + dy * dy + dz * dz < 1.0) { /* within 1 Å: the same atom, not a contact */
                if (!covered++) first = b;
                break;
            }
        }
    }
    if (heavy == 0 || 2 * covered < heavy) return 0;
    vsg_warn("%s: %zu of the %zu heavy atoms of %s lie within 1 A of atoms of %s (first: %s %c%d): the ligand itself "
             "is part of the receptor, so its pocket is full and docking or scoring there gives clashes. Remove its "
             "HETATM lines from the receptor (a co-crystallised ligand), then prepare it again",
             cmd, covered, heavy, lig_path, rec_path, first.residue_name, first.chain, first.residue_number);
    return 1;
}

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

int vsg_cli_warn_group_in_box(const char *cmd, const vsg_molecule *rec, const char *rec_path, const double center[3],
                              const double size[3])
{
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
             cmd, best.residue_name, best.chain, best.residue_number, rec_path, best_heavy, sqrt(best_d));
    return 1;
}

int vsg_cli_warn_poses_in_receptor(const char *cmd, const vsg_molecule *rec, const char *rec_path, const char *poses)
{
    vsg_molecule *first = NULL; /* the first record stands for the poses: a holo receptor holds them all */
    if (!poses || !strcmp(poses, "-") || vsg_ligand_file_molecule(poses, &first) != VSG_OK) {
        vsg_molecule_free(first);
        return 0;
    }
    int warned = vsg_cli_warn_ligand_in_receptor(cmd, rec, rec_path, first, poses);
    vsg_molecule_free(first);
    return warned;
}
