/* dock_poses.c — PDBQT output of flexible-docking poses (dock_poses.h), shared by `vsgrid dock`
 * and `vsgrid screen --placement flexible`. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/cli/dock_poses.h"

double vsg_cli_dock_rmsd_heavy(const vsg_dock_result *r, const vsg_vina_ligand *l, const double *a, const double *b)
{
    double s = 0;
    int n = 0;
    for (int i = 0; i < r->natoms; i++) {
        if (vsg_vina_ligand_xs_type(l, i) == VSG_XS_NONE) continue;
        for (int d = 0; d < 3; d++) s += (a[3 * i + d] - b[3 * i + d]) * (a[3 * i + d] - b[3 * i + d]);
        n++;
    }
    return n ? sqrt(s / n) : 0;
}

vsg_status vsg_cli_dock_model_ligand(vsg_ligand *lig, const vsg_dock_result *r)
{
    if (lig->format == VSG_LIG_PDBQT) return VSG_OK;
    vsg_status st = vsg_ligand_assign_ad_types(lig);
    if (st != VSG_OK) return st;
    vsg_ligand_merge_nonpolar_h(lig);
    if (lig->natoms != r->natoms)
        return vsg_fail(VSG_E_DATA, "%s: record %ld: %d atoms after the hydrogen merge, the model has %d", lig->source,
                        lig->record, lig->natoms, r->natoms);
    return VSG_OK;
}

static void remarks(FILE *f, int model, const vsg_dock_pose *p, double rmsd)
{
    fprintf(f, "MODEL %d\n", model);
    fprintf(f, "REMARK VINA RESULT: %9.3f %10.3f %10.3f\n", p->score.total, rmsd, rmsd);
    fprintf(f, "REMARK INTER + INTRA:    %12.3f\nREMARK INTER:            %12.3f\nREMARK INTRA:            %12.3f\n"
               "REMARK UNBOUND:          %12.3f\n",
            p->score.inter + p->score.intra, p->score.inter, p->score.intra, p->score.unbound);
}

/* PDBQT input: the record's own lines, atom coordinates replaced (columns 31-54). */
static int write_pdbqt_record(FILE *f, const vsg_ligand *lig, const double *xyz, int natoms)
{
    int atom = 0, root_seen = 0;
    const char *p = lig->text, *end = lig->text + lig->text_len;
    if (!p) return 0;
    /* the reader's record may begin at its first atom, after a ROOT line: put ROOT back */
    int has_endroot = 0;
    for (const char *q = p; q && q < end; q = memchr(q, '\n', (size_t)(end - q)), q = q ? q + 1 : NULL)
        if (end - q >= 7 && !memcmp(q, "ENDROOT", 7)) has_endroot = 1;
    while (p < end) {
        const char *e = memchr(p, '\n', (size_t)(end - p));
        size_t len = e ? (size_t)(e - p) : (size_t)(end - p);
        const char *s = p;
        p = e ? e + 1 : end;
        while (len > 0 && s[len - 1] == '\r') len--;
        if ((len >= 5 && !memcmp(s, "MODEL", 5)) || (len >= 6 && !memcmp(s, "ENDMDL", 6))) continue;
        if (len >= 4 && !memcmp(s, "ROOT", 4)) root_seen = 1;
        if (len >= 54 && (!memcmp(s, "ATOM  ", 6) || !memcmp(s, "HETATM", 6))) {
            if (atom >= natoms) return 0;
            if (!root_seen && has_endroot) fputs("ROOT\n", f);
            root_seen = 1;
            fprintf(f, "%.30s%8.3f%8.3f%8.3f%.*s\n", s, xyz[3 * atom], xyz[3 * atom + 1], xyz[3 * atom + 2],
                    (int)(len - 54), s + 54);
            atom++;
            continue;
        }
        fprintf(f, "%.*s\n", (int)len, s);
    }
    return atom == natoms;
}

/* SDF/MOL2 input: the model's atoms (m, typed and merged as the search had them) under the tree. */
static void atom_line(FILE *f, const vsg_ligand *m, const double *xyz, int i)
{
    const vsg_lig_atom *a = &m->atoms[i];
    const char *name = a->name[0] ? a->name : a->element;
    fprintf(f, "ATOM  %5d %-4.4s LIG L   1    %8.3f%8.3f%8.3f  1.00  0.00    %6.3f %-2s\n", i + 1, name, xyz[3 * i],
            xyz[3 * i + 1], xyz[3 * i + 2], a->charge, a->ad_type);
}

static void write_branches(FILE *f, const vsg_ligand *m, const vsg_dock_result *r, const double *xyz, int body)
{
    for (int k = 0; k < r->rotors; k++) {
        const int a = r->rotor[k][0], b = r->rotor[k][1];
        if (r->body[a] != body) continue;
        fprintf(f, "BRANCH %3d %3d\n", a + 1, b + 1);
        for (int i = 0; i < r->natoms; i++)
            if (r->body[i] == r->body[b]) atom_line(f, m, xyz, i);
        write_branches(f, m, r, xyz, r->body[b]);
        fprintf(f, "ENDBRANCH %3d %3d\n", a + 1, b + 1);
    }
}

static void write_tree(FILE *f, const vsg_ligand *m, const vsg_dock_result *r, const double *xyz)
{
    fprintf(f, "REMARK Name = %s\nROOT\n", m->name);
    for (int i = 0; i < r->natoms; i++)
        if (r->body[i] == r->root) atom_line(f, m, xyz, i);
    fprintf(f, "ENDROOT\n");
    write_branches(f, m, r, xyz, r->root);
    fprintf(f, "TORSDOF %d\n", r->rotors);
}

/* 1 when the PDBQT record's text has its own "REMARK Name" line (then the name travels with it). */
static int has_name(const vsg_ligand *lig)
{
    static const char key[] = "REMARK";
    for (size_t i = 0; lig->text && i + 6 <= lig->text_len; i++) {
        if (memcmp(lig->text + i, key, 6) != 0 || (i > 0 && lig->text[i - 1] != '\n')) continue;
        size_t j = i + 6;
        while (j < lig->text_len && lig->text[j] == ' ') j++;
        if (lig->text_len - j >= 4 && !memcmp(lig->text + j, "Name", 4)) return 1;
    }
    return 0;
}

int vsg_cli_dock_write_model(FILE *f, const vsg_ligand *lig, const vsg_dock_result *r, int k, int model, double rmsd,
                             long record)
{
    const vsg_dock_pose *ps = &r->pose[k];
    remarks(f, model, ps, rmsd);
    if (record >= 0) fprintf(f, "REMARK VSGRID RECORD: %ld %s\n", record, lig->name);
    if (lig->format == VSG_LIG_PDBQT) {
        if (record >= 0 && lig->name[0] && !has_name(lig)) fprintf(f, "REMARK Name = %s\n", lig->name);
        if (!write_pdbqt_record(f, lig, ps->xyz, r->natoms)) return 0;
    } else {
        write_tree(f, lig, r, ps->xyz);
    }
    fprintf(f, "ENDMDL\n");
    return 1;
}
