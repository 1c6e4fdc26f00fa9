/* dock_poses.c — PDBQT and SDF output of flexible-docking poses (vsgrid.h, "writing docked poses"),
 * shared by `vsgrid dock` and the flexible screen (engine/screen/flex_screen.c). */
#define _POSIX_C_SOURCE 200809L /* strcasecmp */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "grids/base/vsgrid.h"
#include "engine/screen/molfile_chemistry.h"
#include "ligands/torsions/torsions.h"

double vsg_pose_rmsd_heavy(const vsg_dock_result *r, const vsg_vina_ligand *l, const double *a, const double *b)
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

/* 1 when the record has charges: from its file, or assigned (a screen's Gasteiger charges leave
 * has_charges 0: it means "from the file"). */
static int has_any_charge(const vsg_ligand *lig)
{
    if (lig->has_charges) return 1;
    for (int i = 0; i < lig->natoms; i++)
        if (lig->atoms[i].charge != 0.0) return 1;
    return 0;
}

/* Gasteiger charges for a pose whose record has none (`dock` never needs them to score: Vina has
 * no charge term), so that written poses carry charges; without Open Babel, or for a molecule the
 * method has no parameters for (a heme's Fe), the poses keep 0 and a warning says why: the docking
 * itself stands. Returns VSG_OK. */
static vsg_status pose_charges(vsg_ligand *lig)
{
    if (lig->format == VSG_LIG_PDBQT || has_any_charge(lig)) return VSG_OK;
    if (!vsg_ligand_gasteiger_available()) {
        vsg_warn("%s: record %ld: no partial charges in the file and no Open Babel in this build for Gasteiger "
                 "charges: the poses' partial charges are written as 0",
                 lig->source ? lig->source : "?", lig->record);
        return VSG_OK;
    }
    vsg_status st = vsg_ligand_gasteiger(lig);
    if (st != VSG_OK) {
        char why[300];
        snprintf(why, sizeof why, "%s", vsg_last_error());
        for (int i = 0; i < lig->natoms; i++) lig->atoms[i].charge = 0.0;
        vsg_warn("%s: record %ld: no Gasteiger charges for the poses (%s): their partial charges are written as 0",
                 lig->source ? lig->source : "?", lig->record, why);
        vsg_clear_error();
    }
    return VSG_OK;
}

vsg_status vsg_pose_model_ligand(vsg_ligand *lig, const vsg_dock_result *r)
{
    if (lig->format == VSG_LIG_PDBQT) return VSG_OK;
    vsg_status st = pose_charges(lig); /* before the merge, which folds the hydrogens' charges in */
    if (st != VSG_OK) return st;
    st = vsg_ligand_assign_ad_types(lig);
    if (st != VSG_OK) return st;
    vsg_ligand_merge_nonpolar_h(lig);
    if (vsg_macrocycle_open(lig, NULL) < 0) return VSG_E_NOMEM; /* as the model was opened (dock_prepare.c) */
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

int vsg_pose_write_pdbqt_ligand(FILE *f, const vsg_ligand *lig, const vsg_dock_result *r, const double *xyz, int name)
{
    if (lig->format == VSG_LIG_PDBQT) {
        if (name && lig->name[0] && !has_name(lig)) fprintf(f, "REMARK Name = %s\n", lig->name);
        return write_pdbqt_record(f, lig, xyz, r->natoms);
    }
    write_tree(f, lig, r, xyz);
    return 1;
}

int vsg_pose_write_pdbqt(FILE *f, const vsg_ligand *lig, const vsg_dock_result *r, int k, int model, double rmsd,
                             long record)
{
    const vsg_dock_pose *ps = &r->pose[k];
    remarks(f, model, ps, rmsd);
    if (record >= 0) fprintf(f, "REMARK VSGRID RECORD: %ld %s\n", record, lig->name);
    if (!vsg_pose_write_pdbqt_ligand(f, lig, r, ps->xyz, record >= 0)) return 0;
    fprintf(f, "ENDMDL\n");
    return 1;
}

/* ---- SDF poses ------------------------------------------------------------------------------ */

struct vsg_pose_sdf {
    vsg_ligand rec;     /* the record's atoms (AutoDock types), bonds (inferred for PDBQT), formal charges */
    int *model_of;      /* record atom → model atom, −1 for a merged hydrogen */
    int *anchor;        /* record atom → the model atom whose body carries it */
    int (*frame)[3];    /* body → three model atoms spanning it (−1s when degenerate) */
    int nbody;
    int charges;        /* write atom.dprop.PartialCharge */
    int *out_index;     /* record atom → its atom number − 1 in the molfile, −1 for a macrocycle's glue
                           pseudo-atom (Meeko's G0..G9, left out: the molfile has the ring closed) */
    int nout;           /* atoms written */
};

/* Meeko's macrocycle closure: a glue pseudo-atom Gk, a closure carbon CGk (−1: neither). */
static int glue_dummy(const char *t)
{
    return t[0] == 'G' && t[1] >= '0' && t[1] <= '9' && !t[2] ? t[1] - '0' : -1;
}
static int glue_carbon(const char *t)
{
    return t[0] == 'C' && t[1] == 'G' && t[2] >= '0' && t[2] <= '9' && !t[3] ? t[2] - '0' : -1;
}

/* The molfile of a Meeko macrocycle PDBQT (c has G atoms): bonds, orders and formal charges
 * perceived without the G pseudo-atoms (which sit on their partner carbons), and the closure bond
 * CGk–CGk (Meeko's glue bond, which the PDBQT's tree opened) restored: present from the input's
 * distances when its geometry is closed, as Meeko writes it, else added as a single bond. As
 * Meeko's export (mk_export.py, RDKitMolCreate) writes docked macrocycles: ring closed, no G. */
static vsg_status macrocycle_molfile(vsg_ligand *c, int *out_index, int *nout)
{
    vsg_ligand w;
    vsg_ligand_init(&w);
    int n = 0;
    for (int i = 0; i < c->natoms; i++) out_index[i] = glue_dummy(c->atoms[i].ad_type) >= 0 ? -1 : n++;
    w.natoms = w.atoms_cap = n, w.format = c->format;
    w.atoms = malloc(sizeof *w.atoms * (size_t)(n ? n : 1));
    int *rec = malloc(sizeof(int) * (size_t)(n ? n : 1));
    if (!w.atoms || !rec) {
        free(rec);
        vsg_ligand_release(&w);
        return vsg_fail(VSG_E_NOMEM, "out of memory");
    }
    for (int i = 0; i < c->natoms; i++)
        if (out_index[i] >= 0) w.atoms[out_index[i]] = c->atoms[i], rec[out_index[i]] = i;
    vsg_status st = vsg_molfile_complete_bonds(&w);
    if (st == VSG_OK) vsg_molfile_infer_formal(&w);
    int extra = 0;
    for (int a = 0; st == VSG_OK && a < n; a++) /* closure bonds the distances missed */
        for (int b = a + 1; b < n; b++) {
            const int k = glue_carbon(w.atoms[a].ad_type);
            if (k < 0 || glue_carbon(w.atoms[b].ad_type) != k) continue;
            int has = 0;
            for (int e = 0; e < w.nbonds && !has; e++)
                has = (w.bonds[e].a == a && w.bonds[e].b == b) || (w.bonds[e].a == b && w.bonds[e].b == a);
            extra += !has;
        }
    vsg_lig_bond *nb = st == VSG_OK ? realloc(c->bonds, sizeof *nb * (size_t)(w.nbonds + extra + 1)) : NULL;
    if (st == VSG_OK && !nb) st = vsg_fail(VSG_E_NOMEM, "out of memory");
    if (st == VSG_OK) {
        c->bonds = nb, c->nbonds = 0, c->bonds_cap = w.nbonds + extra + 1;
        for (int e = 0; e < w.nbonds; e++)
            c->bonds[c->nbonds++] = (vsg_lig_bond){rec[w.bonds[e].a], rec[w.bonds[e].b], w.bonds[e].order};
        for (int a = 0; a < n; a++)
            for (int b = a + 1; b < n; b++) {
                const int k = glue_carbon(w.atoms[a].ad_type);
                if (k < 0 || glue_carbon(w.atoms[b].ad_type) != k) continue;
                int has = 0;
                for (int e = 0; e < w.nbonds && !has; e++)
                    has = (w.bonds[e].a == a && w.bonds[e].b == b) || (w.bonds[e].a == b && w.bonds[e].b == a);
                if (!has) c->bonds[c->nbonds++] = (vsg_lig_bond){rec[a], rec[b], 1};
            }
        for (int a = 0; a < n; a++) c->atoms[rec[a]].formal = w.atoms[a].formal;
        *nout = n;
    }
    free(rec);
    vsg_ligand_release(&w);
    return st;
}

/* Three model atoms of a body's point set (its atoms and the rotor atoms on its axes) that span
 * it: o, the farthest from o, the farthest from that line; the third −1 when they are collinear. */
static void body_frame(const vsg_dock_result *r, const vsg_ligand *rec, int body, int f[3])
{
    int o = -1, p = -1, q = -1;
    double best = 0, bestq = 0;
#define XYZ(m, d) ((&rec->atoms[r->record_atom[m]].x)[d])
    for (int pass = 0; pass < 3; pass++) {
        for (int m = 0; m < r->natoms; m++) {
            if (r->record_atom[m] < 0) continue; /* a macrocycle's Gk, added to an SDF/MOL2 record's model */
            int in = r->body[m] == body;
            for (int k = 0; k < r->rotors && !in; k++)
                in = (r->rotor[k][0] == m && r->body[r->rotor[k][1]] == body) ||
                     (r->rotor[k][1] == m && r->body[r->rotor[k][0]] == body);
            if (!in) continue;
            if (pass == 0) { if (o < 0) o = m; continue; }
            double u[3], v[3], uu = 0;
            for (int d = 0; d < 3; d++) u[d] = XYZ(m, d) - XYZ(o, d), uu += u[d] * u[d];
            if (pass == 1) {
                if (uu > best) best = uu, p = m;
                continue;
            }
            double c[3], cc;
            for (int d = 0; d < 3; d++) v[d] = XYZ(p, d) - XYZ(o, d);
            c[0] = u[1] * v[2] - u[2] * v[1], c[1] = u[2] * v[0] - u[0] * v[2], c[2] = u[0] * v[1] - u[1] * v[0];
            cc = (c[0] * c[0] + c[1] * c[1] + c[2] * c[2]) / (best > 0 ? best : 1);
            if (cc > bestq) bestq = cc, q = m;
        }
        if (pass == 1 && p < 0) break;
    }
#undef XYZ
    f[0] = o, f[1] = p, f[2] = bestq > 0.01 ? q : -1;
}

void vsg_pose_sdf_free(vsg_pose_sdf *m)
{
    if (!m) return;
    vsg_ligand_release(&m->rec);
    free(m->model_of), free(m->anchor), free(m->frame), free(m->out_index);
    free(m);
}

vsg_status vsg_pose_sdf_new(const vsg_ligand *lig, const vsg_dock_result *r, vsg_pose_sdf **out)
{
    *out = NULL;
    if (lig->natoms > 999) return vsg_fail(VSG_E_LIMIT, "%s: record %ld: %d atoms: too many for a V2000 molfile",
                                           lig->source, lig->record, lig->natoms);
    vsg_pose_sdf *m = calloc(1, sizeof *m);
    if (!m) return vsg_fail(VSG_E_NOMEM, "out of memory");
    vsg_ligand_init(&m->rec);
    vsg_ligand *c = &m->rec;
    c->index = lig->index, c->source = lig->source, c->record = lig->record, c->format = lig->format;
    memcpy(c->name, lig->name, sizeof c->name);
    c->natoms = c->atoms_cap = lig->natoms;
    c->atoms = malloc(sizeof *c->atoms * (size_t)(lig->natoms ? lig->natoms : 1));
    c->bonds = malloc(sizeof *c->bonds * (size_t)(lig->nbonds ? lig->nbonds : 1));
    m->model_of = malloc(sizeof(int) * (size_t)(lig->natoms ? lig->natoms : 1));
    m->anchor = malloc(sizeof(int) * (size_t)(lig->natoms ? lig->natoms : 1));
    m->out_index = malloc(sizeof(int) * (size_t)(lig->natoms ? lig->natoms : 1));
    int nbody = 0;
    for (int i = 0; i < r->natoms; i++)
        if (r->body[i] + 1 > nbody) nbody = r->body[i] + 1;
    m->nbody = nbody;
    m->frame = malloc(sizeof *m->frame * (size_t)(nbody ? nbody : 1));
    if (!c->atoms || !c->bonds || !m->model_of || !m->anchor || !m->frame || !m->out_index) {
        vsg_pose_sdf_free(m);
        return vsg_fail(VSG_E_NOMEM, "out of memory");
    }
    memcpy(c->atoms, lig->atoms, sizeof *c->atoms * (size_t)lig->natoms);
    c->nbonds = c->bonds_cap = lig->nbonds;
    if (lig->nbonds) memcpy(c->bonds, lig->bonds, sizeof *c->bonds * (size_t)lig->nbonds);
    c->has_charges = lig->has_charges;
    m->charges = 1; /* the file's, the screen's Gasteiger charges, or computed here */
    vsg_status st = VSG_OK;
    int glue = 0;
    for (int i = 0; i < c->natoms; i++) m->out_index[i] = i, glue |= glue_dummy(c->atoms[i].ad_type) >= 0;
    m->nout = c->natoms;
    if (glue && lig->format == VSG_LIG_PDBQT) {
        st = macrocycle_molfile(c, m->out_index, &m->nout);
    } else if (lig->format == VSG_LIG_PDBQT || (lig->format == VSG_LIG_PDB && lig->nbonds == 0)) {
        st = vsg_molfile_complete_bonds(c); /* bonds and their orders: a molfile of single bonds is another molecule */
    } else {
        st = pose_charges(c);
        if (st == VSG_OK) st = vsg_ligand_assign_ad_types(c);
    }
    if (st == VSG_OK && lig->format != VSG_LIG_SDF && !glue) vsg_molfile_infer_formal(c);
    for (int i = 0; st == VSG_OK && i < c->natoms; i++) m->model_of[i] = -1;
    for (int k = 0; st == VSG_OK && k < r->natoms; k++) {
        if (r->record_atom[k] == -1 && lig->format != VSG_LIG_PDBQT) continue; /* a macrocycle's Gk (dock_prepare.c) */
        if (r->record_atom[k] < 0 || r->record_atom[k] >= c->natoms)
            st = vsg_fail(VSG_E_DATA, "%s: record %ld: model atom %d maps to no record atom", lig->source, lig->record, k + 1);
        else m->model_of[r->record_atom[k]] = k;
    }
    for (int i = 0; st == VSG_OK && i < c->natoms; i++) {
        m->anchor[i] = m->model_of[i];
        if (m->anchor[i] >= 0) continue;
        for (int k = 0; k < c->nbonds && m->anchor[i] < 0; k++) { /* the heavy neighbour it was merged into */
            const int o = c->bonds[k].a == i ? c->bonds[k].b : c->bonds[k].b == i ? c->bonds[k].a : -1;
            if (o >= 0 && m->model_of[o] >= 0) m->anchor[i] = m->model_of[o];
        }
        double best = 1e300; /* else the nearest model atom (a macrocycle's Gk has no record atom: not one) */
        int near = -1;
        for (int k = 0; m->anchor[i] < 0 && k < r->natoms; k++) {
            if (r->record_atom[k] < 0) continue;
            const vsg_lig_atom *a = &c->atoms[i], *b = &c->atoms[r->record_atom[k]];
            const double d = (a->x - b->x) * (a->x - b->x) + (a->y - b->y) * (a->y - b->y) + (a->z - b->z) * (a->z - b->z);
            if (d < best) best = d, near = k;
        }
        if (m->anchor[i] < 0) m->anchor[i] = near;
        if (m->anchor[i] < 0) st = vsg_fail(VSG_E_DATA, "%s: record %ld: atom %d has no model atom", lig->source, lig->record, i + 1);
    }
    for (int b = 0; st == VSG_OK && b < nbody; b++) body_frame(r, c, b, m->frame[b]);
    if (st != VSG_OK) {
        vsg_pose_sdf_free(m);
        return st;
    }
    *out = m;
    return VSG_OK;
}

/* Orthonormal frame (columns e1 e2 e3) of points o, p, q (q < 0: e1 only, e2 e3 any completion). */
static void frame_of(const double *o, const double *p, const double *q, double e[3][3])
{
    double n = 0;
    for (int d = 0; d < 3; d++) e[0][d] = p[d] - o[d], n += e[0][d] * e[0][d];
    n = sqrt(n) > 0 ? sqrt(n) : 1;
    for (int d = 0; d < 3; d++) e[0][d] /= n;
    double v[3] = {1, 0, 0};
    if (q) for (int d = 0; d < 3; d++) v[d] = q[d] - o[d];
    else if (fabs(e[0][0]) > 0.9) v[0] = 0, v[1] = 1;
    double dot = v[0] * e[0][0] + v[1] * e[0][1] + v[2] * e[0][2];
    n = 0;
    for (int d = 0; d < 3; d++) e[1][d] = v[d] - dot * e[0][d], n += e[1][d] * e[1][d];
    n = sqrt(n) > 0 ? sqrt(n) : 1;
    for (int d = 0; d < 3; d++) e[1][d] /= n;
    e[2][0] = e[0][1] * e[1][2] - e[0][2] * e[1][1];
    e[2][1] = e[0][2] * e[1][0] - e[0][0] * e[1][2];
    e[2][2] = e[0][0] * e[1][1] - e[0][1] * e[1][0];
}

/* Pose coordinates of every record atom: the model's atoms as docked, a merged hydrogen moved
 * rigidly with the body of its heavy atom. */
static void record_pose(const vsg_pose_sdf *m, const vsg_dock_result *r, const double *xyz, double *out)
{
    const vsg_ligand *c = &m->rec;
    for (int i = 0; i < c->natoms; i++) {
        const int k = m->model_of[i];
        if (k >= 0) {
            for (int d = 0; d < 3; d++) out[3 * i + d] = xyz[3 * k + d];
            continue;
        }
        const int *f = m->frame[r->body[m->anchor[i]]];
        const double x[3] = {c->atoms[i].x, c->atoms[i].y, c->atoms[i].z};
        if (f[0] < 0 || f[1] < 0) { /* a one-atom body: translated with it */
            const int a = m->anchor[i];
            const vsg_lig_atom *h = &c->atoms[r->record_atom[a]];
            out[3 * i] = x[0] - h->x + xyz[3 * a], out[3 * i + 1] = x[1] - h->y + xyz[3 * a + 1];
            out[3 * i + 2] = x[2] - h->z + xyz[3 * a + 2];
            continue;
        }
        double in_o[3], in_p[3], in_q[3], ei[3][3], ep[3][3], loc[3];
        for (int d = 0; d < 3; d++) {
            in_o[d] = (&c->atoms[r->record_atom[f[0]]].x)[d];
            in_p[d] = (&c->atoms[r->record_atom[f[1]]].x)[d];
            in_q[d] = f[2] >= 0 ? (&c->atoms[r->record_atom[f[2]]].x)[d] : 0;
        }
        frame_of(in_o, in_p, f[2] >= 0 ? in_q : NULL, ei);
        frame_of(xyz + 3 * f[0], xyz + 3 * f[1], f[2] >= 0 ? xyz + 3 * f[2] : NULL, ep);
        for (int a = 0; a < 3; a++) loc[a] = ei[a][0] * (x[0] - in_o[0]) + ei[a][1] * (x[1] - in_o[1]) + ei[a][2] * (x[2] - in_o[2]);
        for (int d = 0; d < 3; d++) out[3 * i + d] = xyz[3 * f[0] + d] + loc[0] * ep[0][d] + loc[1] * ep[1][d] + loc[2] * ep[2][d];
    }
}

int vsg_pose_sdf_write(FILE *f, const vsg_pose_sdf *m, const vsg_dock_result *r, int k, long record)
{
    return vsg_pose_sdf_write_items(f, m, r, k, record, NULL);
}

int vsg_pose_sdf_write_items(FILE *f, const vsg_pose_sdf *m, const vsg_dock_result *r, int k, long record, const char *items)
{
    const vsg_ligand *c = &m->rec;
    const vsg_dock_pose *ps = &r->pose[k];
    double *x = malloc(sizeof(double) * 3 * (size_t)(c->natoms ? c->natoms : 1));
    if (!x) return 0;
    record_pose(m, r, ps->xyz, x);
    char name[81];
    snprintf(name, sizeof name, "%.80s", c->name);
    for (char *s = name; *s; s++)
        if (*s == '\n' || *s == '\r') *s = ' ';
    int nbonds = c->nbonds > 999 ? 999 : c->nbonds, ncharged = 0;
    fprintf(f, "%s\n  vsgrid          3D\n%s record %ld, docked pose %d\n", name, vsg_ligand_format_name(c->format),
            c->record, k + 1);
    fprintf(f, "%3d%3d  0  0  0  0  0  0  0  0999 V2000\n", m->nout, nbonds);
    for (int i = 0; i < c->natoms; i++) {
        char el[4];
        if (m->out_index[i] < 0) continue; /* a macrocycle's G pseudo-atom */
        fprintf(f, "%10.4f%10.4f%10.4f %-3s 0  0  0  0  0  0  0  0  0  0  0  0\n", x[3 * i], x[3 * i + 1], x[3 * i + 2],
                vsg_molfile_element(&c->atoms[i], el));
        ncharged += c->atoms[i].formal != 0;
    }
    for (int i = 0; i < nbonds; i++) {
        const vsg_lig_bond *b = &c->bonds[i];
        int order = b->order == VSG_BOND_AROMATIC ? 4 : b->order == VSG_BOND_AMIDE ? 1 : b->order;
        if (order < 1 || order > 4) order = 1;
        fprintf(f, "%3d%3d%3d  0\n", m->out_index[b->a] + 1, m->out_index[b->b] + 1, order);
    }
    for (int i = 0, done = 0; done < ncharged;) { /* formal charges, at most 8 a line */
        const int line = ncharged - done < 8 ? ncharged - done : 8;
        fprintf(f, "M  CHG%3d", line);
        for (int n = 0; n < line; i++) {
            if (c->atoms[i].formal == 0 || m->out_index[i] < 0) continue;
            fprintf(f, " %3d %3d", m->out_index[i] + 1, c->atoms[i].formal);
            n++;
        }
        fputc('\n', f);
        done += line;
    }
    fputs("M  END\n", f);
    const vsg_vina_score *s = &ps->score;
    fprintf(f, "> <vsgrid_score_kcal_mol>\n%.4f\n\n> <vsgrid_inter_kcal_mol>\n%.4f\n\n> <vsgrid_intra_kcal_mol>\n%.4f\n\n"
               "> <vsgrid_torsional_kcal_mol>\n%.4f\n\n> <vsgrid_unbound_kcal_mol>\n%.4f\n\n> <vsgrid_atoms_outside>\n%d\n\n"
               "> <vsgrid_pose>\n%d\n\n",
            s->total, s->inter, s->intra, s->torsional, s->unbound, s->outside, k + 1);
    if (record >= 0) fprintf(f, "> <vsgrid_record>\n%ld\n\n", record);
    if (m->charges) {
        fputs("> <atom.dprop.PartialCharge>\n", f);
        for (int i = 0; i < c->natoms; i++)
            if (m->out_index[i] >= 0) fprintf(f, "%s%.6g", m->out_index[i] ? " " : "", c->atoms[i].charge);
        fputs("\n\n", f);
    }
    fputs("> <atom.prop.AutoDockType>\n", f);
    for (int i = 0; i < c->natoms; i++)
        if (m->out_index[i] >= 0)
            fprintf(f, "%s%s", m->out_index[i] ? " " : "", c->atoms[i].ad_type[0] ? c->atoms[i].ad_type : "n/a");
    fputs("\n\n", f);
    if (items) fputs(items, f);
    fputs("$$$$\n", f);
    free(x);
    return !ferror(f);
}

int vsg_pose_path_kind(const char *path)
{
    size_t n = path ? strlen(path) : 0;
    if (n >= 3 && !strcasecmp(path + n - 3, ".gz")) n -= 3; /* gzip output (vsg_fopen_out) */
    if (n >= 4 && !strncasecmp(path + n - 4, ".sdf", 4)) return 1;
    if (n >= 6 && !strncasecmp(path + n - 6, ".pdbqt", 6)) return 0;
    return -1;
}
