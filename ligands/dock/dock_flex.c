/* dock_flex.c — flexible receptor side chains as AutoDock Vina 1.2 docks them (vsgrid.h,
 * "Flexible receptor side chains"): the flex PDBQT read (BEGIN_RES/END_RES blocks, each a
 * ROOT/BRANCH tree), its Vina model, the docking tree widened by the residues' torsions, the
 * ligand–flex pair list, the pose's flex terms as `vina --score_only --flex` forms them, the
 * residues written back as vina writes them, and vsg_dock_flex_cpu.
 *
 * The model reuses the ligand's (vina_ligand.c): the residues are re-read as ONE PDBQT torsion
 * tree whose ROOT holds every residue's ROOT atoms and whose branches are the residues' branches
 * (serials renumbered). That gives Vina's flex semantics at once: ROOT atoms of all residues fixed
 * relative to each other (Vina's inflex–inflex is DISTANCE_FIXED), a body fixed to the atoms
 * across its rotatable bonds, bonds between non-variable pairs only, pairs beyond 3 bonds with
 * both atoms typed (other_pairs), XS types by the same rules. What differs is stated in vsgrid.h. */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include <ctype.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grids/base/textio.h"
#include "ligands/dock/dock_internal.h"
#include "ligands/dock/dock_method.h"

/* ---- reading ---------------------------------------------------------------------------- */

static int starts(const char *s, const char *w) { return !strncmp(s, w, strlen(w)); }

static int blank(const char *s)
{
    for (; *s; s++)
        if (!isspace((unsigned char)*s)) return 0;
    return 1;
}

/* A fixed-column field [a, b) (0-based) of line s as a number (vsg_parse_double: the whole trimmed
 * field a finite number); 0 when the line is shorter or the field malformed. */
static int field_num(const char *s, size_t a, size_t b, double *out)
{
    return strlen(s) >= b && vsg_parse_double(s + a, b - a, out);
}

typedef struct {
    int line_index;   /* into the file's lines */
    int residue;
    int in_root;
    int serial;
} raw_atom;

void vsg_flex_free(vsg_flex *f)
{
    if (!f) return;
    free(f->path);
    vsg_vina_ligand_free(f->L);
    vsg_torsions_release(&f->tor);
    free(f->movable);
    free(f->mov);
    if (f->lines)
        for (int i = 0; i < f->nlines; i++) free(f->lines[i]);
    free(f->lines);
    free(f->line_atom);
    free(f->file_atom);
    free(f);
}

void vsg_flex_get_info(const vsg_flex *f, vsg_flex_info *info)
{
    if (!info) return;
    memset(info, 0, sizeof *info);
    if (!f) return;
    info->residues = f->nres;
    info->natoms = f->L->natoms;
    info->movable_heavy = f->nmov;
    info->torsions = f->tor.nrotors;
    info->npairs = f->L->npairs;
}

/* The file's lines (plain or gzipped, vsg_lines), kept for the pose writer. */
static vsg_status read_lines(const char *path, vsg_flex *f)
{
    vsg_lines *in = NULL;
    vsg_status st = vsg_lines_open(path, &in);
    if (st != VSG_OK) return st;
    char *line;
    size_t len;
    int lcap = 0, rc;
    while ((rc = vsg_lines_next(in, &line, &len)) == 1) {
        if (f->nlines == lcap) {
            lcap = lcap ? 2 * lcap : 256;
            char **nl = realloc(f->lines, sizeof *nl * (size_t)lcap);
            if (!nl) { st = vsg_fail(VSG_E_NOMEM, "flex: out of memory"); break; }
            f->lines = nl;
        }
        if (!(f->lines[f->nlines] = strndup(line, len))) { st = vsg_fail(VSG_E_NOMEM, "flex: out of memory"); break; }
        f->nlines++;
        if (f->nlines > 10000000) { st = vsg_fail(VSG_E_LIMIT, "%s: over 10^7 lines: not a flex-residue file", path); break; }
    }
    if (st == VSG_OK && rc < 0) st = (vsg_status)rc;
    vsg_lines_close(in);
    return st;
}

/* Appends text to a growing buffer. */
static int put(char **b, size_t *len, size_t *cap, const char *s)
{
    const size_t n = strlen(s);
    if (*len + n + 1 > *cap) {
        size_t c = *cap ? *cap : 4096;
        while (*len + n + 1 > c) c *= 2;
        char *nb = realloc(*b, c);
        if (!nb) return 0;
        *b = nb, *cap = c;
    }
    memcpy(*b + *len, s, n + 1);
    *len += n;
    return 1;
}

vsg_status vsg_flex_read(const char *path, vsg_flex **out)
{
    if (!out) return vsg_fail(VSG_E_ARG, "vsg_flex_read: NULL argument");
    *out = NULL;
    if (!path) return vsg_fail(VSG_E_ARG, "vsg_flex_read: NULL argument");
    vsg_flex *f = calloc(1, sizeof *f);
    raw_atom *ra = NULL;
    int *stack = NULL, *order = NULL;
    char *text = NULL;
    vsg_ligand lig;
    vsg_ligand_init(&lig);
    if (!f || !(f->path = strdup(path))) { free(f); return vsg_fail(VSG_E_NOMEM, "flex: out of memory"); }
    vsg_status st = read_lines(path, f);
    int na = 0;
    if (st != VSG_OK) goto fail;
    ra = malloc(sizeof *ra * (size_t)(f->nlines + 1));
    stack = malloc(sizeof *stack * (size_t)(2 * f->nlines + 2));
    f->line_atom = malloc(sizeof(int) * (size_t)(f->nlines + 1));
    if (!ra || !stack || !f->line_atom) { st = vsg_fail(VSG_E_NOMEM, "flex: out of memory"); goto fail; }
    /* pass 1: the structure, checked as Vina's parse_pdbqt_flex checks it, with the line of any fault */
    enum { OUTSIDE, BEFORE_ROOT, ROOT, BODY } state = OUTSIDE;
    int depth = 0, res_start_atom = 0, res_line = 0;
    for (int i = 0; i < f->nlines; i++) {
        const char *s = f->lines[i];
        const int ln = i + 1;
        f->line_atom[i] = -1;
        if (blank(s) || starts(s, "REMARK") || starts(s, "WARNING")) continue;
        const int is_atom = starts(s, "ATOM") || starts(s, "HETATM");
        if (starts(s, "MODEL")) {
            st = vsg_fail(VSG_E_FORMAT, "%s:%d: MODEL in a flex-residue file (one set of residues, as vina --flex "
                          "reads it; split a multi-model file)", path, ln);
            goto fail;
        }
        if (state == OUTSIDE) {
            if (starts(s, "BEGIN_RES")) { state = BEFORE_ROOT, res_start_atom = na, res_line = ln, f->nres++; continue; }
            st = vsg_fail(VSG_E_FORMAT, "%s:%d: '%.40s' outside a BEGIN_RES ... END_RES block (a flex-residue file "
                          "as prepare_flexreceptor writes it; the rigid part goes to --receptor)", path, ln, s);
            goto fail;
        }
        if (starts(s, "BEGIN_RES")) {
            st = vsg_fail(VSG_E_FORMAT, "%s:%d: BEGIN_RES inside the residue begun at line %d (no END_RES)", path, ln,
                          res_line);
            goto fail;
        }
        if (state == BEFORE_ROOT) {
            if (starts(s, "ROOT")) { state = ROOT; continue; }
            st = vsg_fail(VSG_E_FORMAT, "%s:%d: '%.40s' before the residue's ROOT", path, ln, s);
            goto fail;
        }
        if (state == ROOT && starts(s, "ENDROOT")) {
            if (na == res_start_atom) { st = vsg_fail(VSG_E_FORMAT, "%s:%d: an empty ROOT", path, ln); goto fail; }
            state = BODY;
            continue;
        }
        if (is_atom) {
            double x, y, z;
            if (!field_num(s, 30, 38, &x) || !field_num(s, 38, 46, &y) || !field_num(s, 46, 54, &z) || strlen(s) < 78) {
                st = vsg_fail(VSG_E_FORMAT, "%s:%d: a malformed atom line (PDBQT columns: x 31-38, y 39-46, z 47-54, "
                              "type 78-79)", path, ln);
                goto fail;
            }
            double serial;
            if (!field_num(s, 6, 11, &serial)) {
                st = vsg_fail(VSG_E_FORMAT, "%s:%d: no atom serial number in columns 7-11", path, ln);
                goto fail;
            }
            ra[na] = (raw_atom){i, f->nres - 1, state == ROOT, (int)serial};
            f->line_atom[i] = na++;
            continue;
        }
        if (state == ROOT) {
            st = vsg_fail(VSG_E_FORMAT, "%s:%d: '%.40s' inside ROOT (no ENDROOT)", path, ln, s);
            goto fail;
        }
        if (starts(s, "BRANCH") || starts(s, "ENDBRANCH")) {
            const int end = starts(s, "ENDBRANCH");
            int a, b;
            if (sscanf(s + (end ? 9 : 6), "%d %d", &a, &b) != 2) {
                st = vsg_fail(VSG_E_FORMAT, "%s:%d: %s needs two atom serial numbers", path, ln, end ? "ENDBRANCH" : "BRANCH");
                goto fail;
            }
            if (!end) {
                int found = 0;
                for (int k = res_start_atom; k < na && !found; k++) found = ra[k].serial == a;
                if (!found) {
                    st = vsg_fail(VSG_E_FORMAT, "%s:%d: BRANCH %d %d: atom %d is not among this residue's atoms read "
                                  "before it", path, ln, a, b, a);
                    goto fail;
                }
                stack[depth++] = i;
            } else {
                int pa, pb;
                if (!depth || sscanf(f->lines[stack[depth - 1]] + 6, "%d %d", &pa, &pb) != 2 || pa != a || pb != b) {
                    st = vsg_fail(VSG_E_FORMAT, "%s:%d: ENDBRANCH %d %d closes no open BRANCH %d %d", path, ln, a, b, a, b);
                    goto fail;
                }
                /* the branch's first atom (b) must be in it, as Vina requires */
                int found = 0;
                for (int k = res_start_atom; k < na && !found; k++)
                    found = ra[k].line_index > stack[depth - 1] && ra[k].serial == b;
                if (!found) {
                    st = vsg_fail(VSG_E_FORMAT, "%s:%d: BRANCH %d %d: atom %d is not in the branch", path,
                                  stack[depth - 1] + 1, a, b, b);
                    goto fail;
                }
                depth--;
            }
            continue;
        }
        if (starts(s, "END_RES")) {
            if (depth) {
                st = vsg_fail(VSG_E_FORMAT, "%s:%d: END_RES with BRANCH of line %d still open", path, ln, stack[depth - 1] + 1);
                goto fail;
            }
            state = OUTSIDE;
            continue;
        }
        st = vsg_fail(VSG_E_FORMAT, "%s:%d: '%.40s' is not a flex-residue PDBQT line (ROOT, BRANCH, ATOM, END_RES ...)",
                      path, ln, s);
        goto fail;
    }
    if (state != OUTSIDE) {
        st = vsg_fail(VSG_E_FORMAT, "%s:%d: the file ends inside the residue begun at line %d (no END_RES)", path,
                      f->nlines, res_line);
        goto fail;
    }
    if (f->nres == 0 || na == 0) {
        st = vsg_fail(VSG_E_FORMAT, "%s: no BEGIN_RES ... END_RES residue: not a flex-residue PDBQT (vina --flex)", path);
        goto fail;
    }
    /* pass 2: one tree. Model order: every ROOT atom (file order), then each residue's branch atoms
     * (file order); serials renumbered to model index + 1 */
    order = malloc(sizeof(int) * (size_t)na);           /* model index → raw atom */
    f->file_atom = malloc(sizeof(int) * (size_t)na);     /* raw atom (file order) → model index */
    lig.atoms = calloc((size_t)na, sizeof *lig.atoms);
    if (!order || !f->file_atom || !lig.atoms) { st = vsg_fail(VSG_E_NOMEM, "flex: out of memory"); goto fail; }
    int m = 0;
    for (int k = 0; k < na; k++)
        if (ra[k].in_root) order[m] = k, f->file_atom[k] = m++;
    for (int k = 0; k < na; k++)
        if (!ra[k].in_root) order[m] = k, f->file_atom[k] = m++;
    size_t len = 0, cap = 0;
    int ok = put(&text, &len, &cap, "ROOT\n");
    char line[512];
    /* root atom lines */
    for (int q = 0; q < m && ok; q++) {
        const raw_atom *r = &ra[order[q]];
        if (!r->in_root) break;
        snprintf(line, sizeof line, "%.6s%5d%s\n", f->lines[r->line_index], q + 1, f->lines[r->line_index] + 11);
        ok = put(&text, &len, &cap, line);
    }
    ok = ok && put(&text, &len, &cap, "ENDROOT\n");
    /* each residue's branch lines, serials mapped within the residue: BRANCH a b names the last atom
     * a of the residue read before it and the first atom b after it; ENDBRANCH repeats its BRANCH */
    for (int i = 0, res = -1, sp = 0; i < f->nlines && ok; i++) {
        const char *s = f->lines[i];
        if (starts(s, "BEGIN_RES")) { res++; continue; }
        if (f->line_atom[i] >= 0) {
            const int k = f->line_atom[i];
            if (ra[k].in_root) continue;
            snprintf(line, sizeof line, "%.6s%5d%s\n", s, f->file_atom[k] + 1, s + 11);
            ok = put(&text, &len, &cap, line);
            continue;
        }
        if (starts(s, "ENDBRANCH")) {
            sp--;
            snprintf(line, sizeof line, "ENDBRANCH %d %d\n", stack[2 * sp], stack[2 * sp + 1]);
            ok = put(&text, &len, &cap, line);
            continue;
        }
        if (!starts(s, "BRANCH")) continue;
        int a, b, ma = -1, mb = -1;
        if (sscanf(s + 6, "%d %d", &a, &b) != 2) continue; /* checked in pass 1 */
        for (int k = 0; k < na; k++) {
            if (ra[k].residue != res) continue;
            if (ra[k].serial == a && ra[k].line_index < i) ma = k;
            if (ra[k].serial == b && ra[k].line_index > i && mb < 0) mb = k;
        }
        if (ma < 0 || mb < 0) { st = vsg_fail(VSG_E_FORMAT, "%s:%d: BRANCH %d %d: atoms not found", path, i + 1, a, b); goto fail; }
        stack[2 * sp] = f->file_atom[ma] + 1, stack[2 * sp + 1] = f->file_atom[mb] + 1, sp++;
        snprintf(line, sizeof line, "BRANCH %d %d\n", f->file_atom[ma] + 1, f->file_atom[mb] + 1);
        ok = put(&text, &len, &cap, line);
    }
    ok = ok && put(&text, &len, &cap, "TORSDOF 0\n");
    if (!ok) { st = vsg_fail(VSG_E_NOMEM, "flex: out of memory"); goto fail; }
    /* the record the ligand model is built from */
    lig.natoms = na, lig.atoms_cap = na;
    lig.format = VSG_LIG_PDBQT, lig.status = VSG_OK, lig.source = f->path, lig.record = 1, lig.line = 1;
    lig.text = text, lig.text_len = len, lig.text_cap = cap;
    text = NULL;
    for (int q = 0; q < na; q++) {
        const char *s = f->lines[ra[order[q]].line_index];
        vsg_lig_atom *a = &lig.atoms[q];
        field_num(s, 30, 38, &a->x), field_num(s, 38, 46, &a->y), field_num(s, 46, 54, &a->z);
        if (!field_num(s, 68, 76, &a->charge)) a->charge = 0;
        a->line = ra[order[q]].line_index + 1;
        size_t k = 0;
        for (size_t c = 12; c < 16 && s[c]; c++)
            if (s[c] != ' ' && k + 1 < sizeof a->name) a->name[k++] = s[c];
        k = 0;
        for (size_t c = 77; s[c] && k + 1 < sizeof a->ad_type; c++)
            if (s[c] != ' ') a->ad_type[k++] = s[c];
        /* the element of the AutoDock type (A aromatic carbon, HD/HS hydrogen, NA/NS, OA/OS, SA) */
        static const char *const el[][2] = {{"A", "C"}, {"HD", "H"}, {"HS", "H"}, {"NA", "N"}, {"NS", "N"},
                                            {"OA", "O"}, {"OS", "O"}, {"SA", "S"}};
        a->element[0] = a->ad_type[0], a->element[1] = a->ad_type[0] ? a->ad_type[1] : '\0', a->element[2] = '\0';
        for (size_t e = 0; e < sizeof el / sizeof el[0]; e++)
            if (!strcmp(a->ad_type, el[e][0])) a->element[0] = el[e][1][0], a->element[1] = '\0';
    }
    lig.has_charges = 1;
    snprintf(lig.name, sizeof lig.name, "flex residues");
    if ((st = vsg_vina_ligand_new(&lig, &f->L)) != VSG_OK) goto fail;
    if ((st = vsg_torsions_from_pdbqt(&lig, &f->tor)) != VSG_OK) goto fail;
    f->root = f->tor.body[0]; /* model atom 0 is a ROOT atom */
    /* a ROOT CA is bonded to its backbone N in the rigid part, and Vina bonds them (inflex and grid
     * atoms are fixed relative to each other): a carbon bonded to a heteroatom, C_P. The flex file
     * alone bonds it to CB only. (It meets only flex atoms of other residues and its own beyond
     * 3 bonds.) */
    for (int q = 0; q < na; q++)
        if (f->tor.body[q] == f->root && !strcmp(lig.atoms[q].name, "CA") && f->L->xs[q] == VSG_XS_C_H)
            f->L->xs[q] = VSG_XS_C_P;
    f->movable = malloc((size_t)na + 1);
    f->mov = malloc(sizeof(int) * (size_t)(na + 1));
    if (!f->movable || !f->mov) { st = vsg_fail(VSG_E_NOMEM, "flex: out of memory"); goto fail; }
    /* Vina's movable atoms: not a ROOT atom, nor the first atom of a branch off the ROOT (the CB on
     * the CA–CB axis: postprocess_residue inserts it "inflex" with the ROOT); those never meet
     * the receptor or the ligand, and being fixed relative to each other, pair with nothing but
     * movable flex atoms (as the one tree's ROOT group, rigid to the ligand model, does here) */
    for (int q = 0; q < na; q++) f->movable[q] = f->tor.body[q] != f->root;
    for (int k = 0; k < f->tor.nrotors; k++)
        for (int s2 = 0; s2 < 2; s2++)
            if (f->tor.body[f->tor.rotor[k][1 - s2]] == f->root) f->movable[f->tor.rotor[k][s2]] = 0;
    for (int q = 0; q < na; q++) {
        if (f->movable[q]) f->nmov_all++;
        if (f->movable[q] && f->L->xs[q] != VSG_XS_NONE) f->mov[f->nmov++] = q;
    }
    for (int q = 0; q < na; q++) /* the line of each model atom, now in model order */
        f->line_atom[ra[order[q]].line_index] = q;
    free(ra), free(stack), free(order), free(text);
    vsg_ligand_release(&lig);
    *out = f;
    return VSG_OK;
fail:
    lig.source = NULL;
    vsg_ligand_release(&lig);
    free(ra), free(stack), free(order), free(text);
    vsg_flex_free(f);
    return st;
}

vsg_status vsg_flex_check_rigid(const vsg_flex *f, const vsg_molecule *rigid)
{
    if (!f || !rigid) return vsg_fail(VSG_E_ARG, "vsg_flex_check_rigid: NULL argument");
    const size_t n = vsg_molecule_atom_count(rigid);
    for (size_t j = 0; j < n; j++) {
        vsg_atom_info a;
        if (vsg_molecule_atom(rigid, j, &a) != VSG_OK) continue;
        for (int i = 0; i < f->L->natoms; i++) {
            if (!f->movable[i]) continue; /* a ROOT atom: prepare_flexreceptor keeps none twice either */
            const double *p = &f->L->xyz[3 * i];
            const double dx = p[0] - a.x, dy = p[1] - a.y, dz = p[2] - a.z;
            if (dx * dx + dy * dy + dz * dz < 0.25) {
                char name[8] = "";
                const char *ln = f->L->line[i] > 0 ? f->lines[f->L->line[i] - 1] : "";
                for (size_t c = 12, k = 0; c < 16 && ln[c] && k + 1 < sizeof name; c++)
                    if (ln[c] != ' ') name[k++] = ln[c], name[k] = '\0';
                return vsg_fail(VSG_E_DATA, "%s:%d: flex atom %s lies on receptor atom %s %s %d (%s line %d): the "
                                "receptor still holds the flexible side chains; give its rigid part (prepare_flexreceptor's "
                                "_rigid.pdbqt) and maps made from that", f->path, f->L->line[i], name, a.name,
                                a.residue_name, a.residue_number,
                                vsg_molecule_source(rigid) ? vsg_molecule_source(rigid) : "receptor", a.line);
            }
        }
    }
    return VSG_OK;
}

/* A map made with the side chain in holds, at each of its atoms, that atom's overlap with itself
 * (two atoms at r = 0: Vina's repulsion alone is 0.84·R² ≈ 12 kcal/mol for two carbons) and its
 * bonded neighbours' (≈ 4 each): far above what a side chain in its input place meets from the rest
 * of the protein. So a movable heavy atom in the box on a value over 8 kcal/mol is refused. */
#define FLEX_SELF_MAP 8.0

vsg_status vsg_flex_check_maps(const vsg_vina_target *t, const vsg_flex *f)
{
    if (!t || !f) return vsg_fail(VSG_E_ARG, "vsg_flex_check_maps: NULL argument");
    if (!t->is_maps) return VSG_OK;
    for (int m = 0; m < f->nmov; m++) {
        const int j = f->mov[m], x = f->L->xs[j];
        const double *p = &f->L->xyz[3 * j];
        if (!t->map[x]) continue; /* dock says which map is missing */
        int inside = 1;
        for (int d = 0; d < 3; d++) inside &= p[d] >= t->begin[d] && p[d] <= t->end[d];
        if (!inside) /* its every pose would score the out-of-box penalty (found as a new user: 1FPU's
                        residue with another receptor's maps gave "intra 66060799" and exit 0) */
            return vsg_fail(VSG_E_DATA, "%s:%d: this flex atom (%.3f, %.3f, %.3f) lies outside the maps' box "
                            "(%.3f..%.3f, %.3f..%.3f, %.3f..%.3f): the maps must cover the flexible residues too "
                            "(vsgrid maps REC_rigid.pdbqt with a --box that holds them), and the residues must be "
                            "the maps' receptor's", f->path, f->L->line[j], p[0], p[1], p[2], t->begin[0], t->end[0],
                            t->begin[1], t->end[1], t->begin[2], t->end[2]);
        /* the node nearest the atom, uncurled */
        size_t idx = 0, stride = 1;
        for (int d = 0; d < 3; d++) {
            long k = lround((p[d] - t->begin[d]) * t->factor[d]);
            if (k < 0) k = 0;
            if (k > t->n[d] - 1) k = t->n[d] - 1;
            idx += (size_t)k * stride;
            stride *= (size_t)t->n[d];
        }
        const double v = t->map[x][idx];
        if (v > FLEX_SELF_MAP)
            return vsg_fail(VSG_E_DATA, "%s:%d: the %s map holds %.1f kcal/mol where this flex atom lies: the maps were "
                            "made with the flexible side chains in the receptor; make them from the rigid part only "
                            "(vsgrid maps REC_rigid.pdbqt ...)", f->path, f->L->line[j], vsg_xs_type_name(x), v);
    }
    return VSG_OK;
}

/* Coordinates as PDBQT writes them: %8.3f in columns 31-54. */
int vsg_flex_write_pdbqt(FILE *out, const vsg_flex *f, const double *xyz)
{
    if (!out || !f) return 0;
    for (int i = 0; i < f->nlines; i++) {
        const char *s = f->lines[i];
        const int q = f->line_atom[i];
        if (q < 0) {
            fprintf(out, "%s\n", s);
            continue;
        }
        int k = 0; /* the file-order index of model atom q */
        while (k < f->L->natoms && f->file_atom[k] != q) k++;
        const double *p = xyz ? &xyz[3 * k] : &f->L->xyz[3 * q];
        fprintf(out, "%.30s%8.3f%8.3f%8.3f%s\n", s, p[0], p[1], p[2], s + 54);
    }
    return !ferror(out);
}

/* ---- the docking tree and energy with flex residues ----------------------------------------- */

vsg_status dock_flex_tree(const vsg_flex *f, dock_tree *t)
{
    dock_tree ft;
    vsg_status st = dock_tree_build(f->L, f->tor.body, f->tor.nbodies, f->tor.nrotors, (const int(*)[2])f->tor.rotor,
                                    f->root, &ft);
    if (st != VSG_OK) return vsg_fail(st, "%s: %s", f->path, vsg_last_error());
    const int nl = t->natoms, nf = ft.natoms, nr = t->nrot + ft.nrot;
    const int nsl = t->sub_start[t->nrot], nsf = ft.sub_start[ft.nrot];
    double *xyz = malloc(sizeof(double) * 3 * (size_t)(nl + nf));
    int(*axis)[2] = malloc(sizeof *axis * (size_t)(nr + 1));
    int *ss = malloc(sizeof(int) * (size_t)(nr + 1)), *sub = malloc(sizeof(int) * (size_t)(nsl + nsf + 1));
    if (!xyz || !axis || !ss || !sub) {
        free(xyz), free(axis), free(ss), free(sub);
        dock_tree_release(&ft);
        return vsg_fail(VSG_E_NOMEM, "dock: out of memory");
    }
    memcpy(xyz, t->xyz0, sizeof(double) * 3 * (size_t)nl);
    memcpy(xyz + 3 * nl, ft.xyz0, sizeof(double) * 3 * (size_t)nf);
    for (int k = 0; k < t->nrot; k++) axis[k][0] = t->axis[k][0], axis[k][1] = t->axis[k][1];
    for (int k = 0; k < ft.nrot; k++) axis[t->nrot + k][0] = nl + ft.axis[k][0], axis[t->nrot + k][1] = nl + ft.axis[k][1];
    for (int k = 0; k <= t->nrot; k++) ss[k] = t->sub_start[k];
    for (int k = 1; k <= ft.nrot; k++) ss[t->nrot + k] = nsl + ft.sub_start[k];
    memcpy(sub, t->sub, sizeof(int) * (size_t)nsl);
    for (int s = 0; s < nsf; s++) sub[nsl + s] = nl + ft.sub[s];
    free(t->axis), free(t->sub_start), free(t->sub), free(t->xyz_own);
    t->axis = axis, t->sub_start = ss, t->sub = sub, t->xyz_own = xyz, t->xyz0 = xyz;
    t->nlig = nl, t->natoms = nl + nf, t->nrot = nr;
    dock_tree_release(&ft);
    return VSG_OK;
}

vsg_status dock_flex_energy_init(const vsg_flex *f, const vsg_vina_ligand *lig, const dock_tree *t, dock_flex_energy *fe)
{
    memset(fe, 0, sizeof *fe);
    fe->f = f;
    fe->nlig = t->nlig;
    int nh = 0;
    for (int i = 0; i < lig->natoms; i++) nh += lig->xs[i] != VSG_XS_NONE;
    fe->lf = malloc(sizeof *fe->lf * (size_t)(nh * f->nmov + 1));
    if (!fe->lf) return vsg_fail(VSG_E_NOMEM, "dock: out of memory");
    for (int i = 0; i < lig->natoms; i++) {
        if (lig->xs[i] == VSG_XS_NONE) continue;
        for (int m = 0; m < f->nmov; m++) fe->lf[fe->nlf][0] = i, fe->lf[fe->nlf][1] = f->mov[m], fe->nlf++;
    }
    return VSG_OK;
}

void dock_flex_energy_release(dock_flex_energy *fe)
{
    if (!fe) return;
    free(fe->lf);
    memset(fe, 0, sizeof *fe);
}

vsg_status dock_flex_score(const vsg_vina_target *t, const vsg_flex *f, const vsg_vina_ligand *lig, const double *lig_xyz,
                           const double *flex_xyz, vsg_flex_pose *out)
{
    memset(out, 0, sizeof *out);
    const vsg_vina_ligand *F = f->L;
    for (int i = 0; i < lig->natoms; i++) { /* ligand–flex: Vina's inter_pairs, eval_fast, curled at 1000 */
        if (lig->xs[i] == VSG_XS_NONE) continue;
        const double *a = &lig_xyz[3 * i];
        for (int m = 0; m < f->nmov; m++) {
            const int j = f->mov[m];
            const double *b = &flex_xyz[3 * j];
            const double dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2], r2 = dx * dx + dy * dy + dz * dz;
            if (r2 < VINA_CUTOFF_SQR) out->ligand_flex += vina_curl(vina_table_eval(&t->tables, lig->xs[i], F->xs[j], r2));
        }
    }
    for (int m = 0; m < f->nmov; m++) { /* flex–rigid: the grid's eval_intra, or non_cache's */
        const int j = f->mov[m];
        if (t->is_maps && !t->rxyz && !t->map[F->xs[j]])
            return vsg_fail(VSG_E_DATA, "%s:%d: flex atom %d is %s, and the map set has no %s map", f->path, F->line[j],
                            j + 1, vsg_xs_type_name(F->xs[j]), vsg_xs_type_name(F->xs[j]));
        out->flex_rigid += vina_score_atom(t, F->xs[j], &flex_xyz[3 * j], &out->outside);
    }
    for (int k = 0; k < F->npairs; k++) { /* other_pairs */
        const int i = F->pair[k][0], j = F->pair[k][1];
        const double *a = &flex_xyz[3 * i], *b = &flex_xyz[3 * j];
        const double dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2], r2 = dx * dx + dy * dy + dz * dz;
        if (r2 < VINA_CUTOFF_SQR) out->flex_intra += vina_curl(vina_table_eval(&t->tables, F->xs[i], F->xs[j], r2));
    }
    return VSG_OK;
}

/* score (vsg_vina_score_pose's, the ligand alone) with the flex terms in, as vina.cpp's score()
 * forms it; unbound = the pose's own intra (--score_only). */
static void add_flex_terms(vsg_vina_score *s, const vsg_flex_pose *fp)
{
    s->inter += fp->ligand_flex;
    s->intra += fp->flex_rigid + fp->flex_intra;
    s->unbound = s->intra;
    const double e = s->inter + s->intra - s->unbound;
    s->total = fabs(e) < DBL_EPSILON ? 0 : e / vina_num_tors_div(s->num_tors);
    s->torsional = s->total - e;
}

/* flex_xyz in file order → model order (into buf), or the model's own. */
const double *dock_flex_model_order(const vsg_flex *f, const double *flex_xyz, double *buf)
{
    if (!flex_xyz) return f->L->xyz;
    for (int k = 0; k < f->L->natoms; k++)
        for (int d = 0; d < 3; d++) buf[3 * f->file_atom[k] + d] = flex_xyz[3 * k + d];
    return buf;
}

vsg_status vsg_flex_score_pose(const vsg_vina_target *t, const vsg_vina_ligand *l, const vsg_flex *f,
                               const double *flex_xyz, vsg_vina_score *score, vsg_flex_pose *terms)
{
    if (!t || !l || !f || !score) return vsg_fail(VSG_E_ARG, "vsg_flex_score_pose: NULL argument");
    double *buf = malloc(sizeof(double) * 3 * (size_t)f->L->natoms);
    if (!buf) return vsg_fail(VSG_E_NOMEM, "flex: out of memory");
    vsg_flex_pose fp;
    vsg_status st = vsg_vina_score_pose(t, l, score);
    if (st == VSG_OK) st = dock_flex_score(t, f, l, l->xyz, dock_flex_model_order(f, flex_xyz, buf), &fp);
    free(buf);
    if (st != VSG_OK) return st;
    add_flex_terms(score, &fp);
    if (terms) *terms = fp;
    return VSG_OK;
}

void dock_flex_finish_pose(const vsg_vina_target *t, const vsg_flex *f, const vsg_vina_ligand *shadow,
                           const double *flex_model_xyz, vsg_vina_score *score, vsg_flex_pose *fp, vsg_status *st)
{
    double *keep = fp->xyz;
    if (*st != VSG_OK) return;
    *st = dock_flex_score(t, f, shadow, shadow->xyz, flex_model_xyz, fp);
    fp->xyz = keep;
    if (*st != VSG_OK) return;
    add_flex_terms(score, fp);
    for (int k = 0; k < f->L->natoms; k++) /* model order → file order */
        for (int d = 0; d < 3; d++) fp->xyz[3 * k + d] = flex_model_xyz[3 * f->file_atom[k] + d];
}

void vsg_flex_poses_free(vsg_flex_pose *poses, int n)
{
    if (!poses) return;
    for (int i = 0; i < n; i++) free(poses[i].xyz);
    free(poses);
}

vsg_status dock_flex_poses_new(const vsg_flex *f, int n, vsg_flex_pose **out)
{
    vsg_flex_pose *fp = calloc((size_t)n + 1, sizeof *fp);
    vsg_status st = fp ? VSG_OK : vsg_fail(VSG_E_NOMEM, "dock: out of memory");
    for (int i = 0; st == VSG_OK && i < n; i++)
        if (!(fp[i].xyz = malloc(sizeof(double) * 3 * (size_t)f->L->natoms))) st = vsg_fail(VSG_E_NOMEM, "dock: out of memory");
    *out = fp;
    return st;
}

vsg_status dock_flex_poses_hand_off(vsg_status st, vsg_flex_pose *fp, int n, vsg_dock_result *out, vsg_flex_pose **poses)
{
    if (st != VSG_OK) {
        vsg_flex_poses_free(fp, n);
        vsg_dock_result_release(out);
        return st;
    }
    for (int i = out->npose; i < n; i++) free(fp[i].xyz), fp[i].xyz = NULL;
    *poses = fp;
    return VSG_OK;
}
