/* test_polar_hydrogens.c — vsg_ligand_complete_hydrogens (issue 27 item 5): the polar hydrogens a
 * file left out. Analytic checks on small molecules built here (counts; N–H 1.01, O–H 0.96,
 * S–H 1.34 Å; 109.5° at sp3 N/O, 120° and planarity at amide/aromatic N; imidazole gets one NH,
 * pyridine none, a carboxylate "ar" none; PDBQT and complete records untouched; an SDF record's
 * text gets the atoms), then real data: the DUD-E INHA MOL2 records (../shared/data or
 * $VSG_SHARED_DATA) stripped of every hydrogen (written here) and completed give the same Vina XS
 * types, polar-hydrogen count and torsion count as the originals for >= 95% of records (the rate
 * is printed), and the originals get no hydrogen at all. The completed records are written to
 * polar_h_inha.sdf in the build's test directory (cli_polar_hydrogens.sh checks them with RDKit). */
#define _POSIX_C_SOURCE 200809L /* strdup, strtok_r */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grids/base/vsgrid.h"
#include "ligands/ligand.h"
#include "engine/screen/screen.h"
#include "tests/check.h"

static void atom(vsg_ligand *l, const char *el, double x, double y, double z)
{
    if (l->natoms == l->atoms_cap) {
        l->atoms_cap = l->atoms_cap ? 2 * l->atoms_cap : 16;
        l->atoms = realloc(l->atoms, sizeof *l->atoms * (size_t)l->atoms_cap);
    }
    vsg_lig_atom *a = &l->atoms[l->natoms];
    memset(a, 0, sizeof *a);
    a->x = x, a->y = y, a->z = z;
    snprintf(a->element, sizeof a->element, "%s", el);
    snprintf(a->name, sizeof a->name, "%.2s%d", el, (l->natoms + 1) % 1000);
    l->natoms++;
}

static void bond(vsg_ligand *l, int a, int b, int order)
{
    if (l->nbonds == l->bonds_cap) {
        l->bonds_cap = l->bonds_cap ? 2 * l->bonds_cap : 16;
        l->bonds = realloc(l->bonds, sizeof *l->bonds * (size_t)l->bonds_cap);
    }
    l->bonds[l->nbonds].a = a, l->bonds[l->nbonds].b = b, l->bonds[l->nbonds++].order = order;
}

static void start(vsg_ligand *l, vsg_ligand_format f)
{
    vsg_ligand_release(l);
    vsg_ligand_init(l);
    l->format = f;
    l->source = "test";
    l->record = 1;
}

static double dist(const vsg_ligand *l, int a, int b)
{
    const vsg_lig_atom *p = &l->atoms[a], *q = &l->atoms[b];
    return sqrt((p->x - q->x) * (p->x - q->x) + (p->y - q->y) * (p->y - q->y) + (p->z - q->z) * (p->z - q->z));
}

static double angle(const vsg_ligand *l, int a, int c, int b)
{
    const vsg_lig_atom *p = &l->atoms[a], *o = &l->atoms[c], *q = &l->atoms[b];
    double u[3] = {p->x - o->x, p->y - o->y, p->z - o->z}, v[3] = {q->x - o->x, q->y - o->y, q->z - o->z};
    double d = u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
    return acos(d / sqrt((u[0] * u[0] + u[1] * u[1] + u[2] * u[2]) * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]))) * 180 / 3.14159265358979;
}

/* hydrogens bonded to atom i, into h[] */
static int hydrogens_on(const vsg_ligand *l, int i, int *h)
{
    int n = 0;
    for (int k = 0; k < l->nbonds; k++) {
        const int o = l->bonds[k].a == i ? l->bonds[k].b : l->bonds[k].b == i ? l->bonds[k].a : -1;
        if (o >= 0 && !strcmp(l->atoms[o].element, "H")) h[n++] = o;
    }
    return n;
}

static int complete(vsg_ligand *l)
{
    int added = -1;
    CHECK(vsg_ligand_complete_hydrogens(l, &added, 0) == VSG_OK);
    return added;
}

static void analytic(void)
{
    vsg_ligand l;
    vsg_ligand_init(&l);
    int h[4];

    /* methylamine CH3-NH2 (sp3): 2 H, 1.01 Å, H-N-C and H-N-H 109.5° */
    start(&l, VSG_LIG_SDF);
    atom(&l, "C", 0, 0, 0), atom(&l, "N", 1.47, 0, 0), bond(&l, 0, 1, 1);
    CHECK(complete(&l) == 2);
    CHECK(hydrogens_on(&l, 1, h) == 2);
    CHECK(fabs(dist(&l, 1, h[0]) - 1.01) < 1e-6 && fabs(dist(&l, 1, h[1]) - 1.01) < 1e-6);
    CHECK(fabs(angle(&l, 0, 1, h[0]) - 109.47) < 0.1 && fabs(angle(&l, 0, 1, h[1]) - 109.47) < 0.1);
    CHECK(fabs(angle(&l, h[0], 1, h[1]) - 109.47) < 0.1);
    CHECK(l.natoms == 4 && l.nbonds == 3);
    CHECK(complete(&l) == 0); /* complete now */

    /* methanol: 1 H, 0.96 Å, 109.5° */
    start(&l, VSG_LIG_SDF);
    atom(&l, "C", 0, 0, 0), atom(&l, "O", 1.43, 0, 0), bond(&l, 0, 1, 1);
    CHECK(complete(&l) == 1);
    CHECK(hydrogens_on(&l, 1, h) == 1 && fabs(dist(&l, 1, h[0]) - 0.96) < 1e-6);
    CHECK(fabs(angle(&l, 0, 1, h[0]) - 109.47) < 0.1);

    /* methanethiol: S-H 1.34 Å; dimethyl sulfoxide: none */
    start(&l, VSG_LIG_SDF);
    atom(&l, "C", 0, 0, 0), atom(&l, "S", 1.82, 0, 0), bond(&l, 0, 1, 1);
    CHECK(complete(&l) == 1);
    CHECK(hydrogens_on(&l, 1, h) == 1 && fabs(dist(&l, 1, h[0]) - 1.34) < 1e-6);
    start(&l, VSG_LIG_SDF);
    atom(&l, "S", 0, 0, 0), atom(&l, "C", 1.8, 0, 0), atom(&l, "C", -0.6, 1.7, 0), atom(&l, "O", -0.3, -0.5, 1.4);
    bond(&l, 0, 1, 1), bond(&l, 0, 2, 1), bond(&l, 0, 3, 2);
    CHECK(complete(&l) == 0);

    /* acetamide CH3-C(=O)-NH2: 2 H on N, 120° and in the amide plane */
    start(&l, VSG_LIG_SDF);
    atom(&l, "C", 0, 0, 0), atom(&l, "C", 1.52, 0, 0), atom(&l, "O", 2.14, 1.06, 0), atom(&l, "N", 2.19, -1.16, 0);
    bond(&l, 0, 1, 1), bond(&l, 1, 2, 2), bond(&l, 1, 3, 1);
    CHECK(complete(&l) == 2);
    CHECK(hydrogens_on(&l, 3, h) == 2);
    CHECK(fabs(angle(&l, 1, 3, h[0]) - 120) < 0.1 && fabs(angle(&l, 1, 3, h[1]) - 120) < 0.1);
    CHECK(fabs(l.atoms[h[0]].z) < 1e-6 && fabs(l.atoms[h[1]].z) < 1e-6); /* planar */
    CHECK(complete(&l) == 0);

    /* methylammonium (formal +1): 3 H, tetrahedral */
    start(&l, VSG_LIG_SDF);
    atom(&l, "C", 0, 0, 0), atom(&l, "N", 1.49, 0, 0), bond(&l, 0, 1, 1);
    l.atoms[1].formal = 1;
    CHECK(complete(&l) == 3);
    CHECK(hydrogens_on(&l, 1, h) == 3);
    for (int a = 0; a < 3; a++) CHECK(fabs(angle(&l, 0, 1, h[a]) - 109.47) < 0.1);
    CHECK(fabs(angle(&l, h[0], 1, h[1]) - 109.47) < 0.1 && fabs(angle(&l, h[1], 1, h[2]) - 109.47) < 0.1);

    /* dimethylamine (sp3, two neighbours): 1 H at 109.5° from both */
    start(&l, VSG_LIG_SDF);
    atom(&l, "N", 0, 0, 0), atom(&l, "C", 1.47, 0, 0), atom(&l, "C", -0.49, 1.386, 0);
    bond(&l, 0, 1, 1), bond(&l, 0, 2, 1);
    CHECK(complete(&l) == 1);
    CHECK(hydrogens_on(&l, 0, h) == 1);
    CHECK(fabs(angle(&l, 1, 0, h[0]) - 109.47) < 1.5 && fabs(angle(&l, 2, 0, h[0]) - 109.47) < 1.5);

    /* pyridine (aromatic bonds): no H; pyrrole-type N of imidazole: exactly one H, in the plane,
     * 126° from both ring neighbours (the bisector) */
    const double r = 1.39;
    start(&l, VSG_LIG_SDF);
    for (int k = 0; k < 6; k++) atom(&l, k == 0 ? "N" : "C", r * cos(k * 3.14159265358979 / 3), r * sin(k * 3.14159265358979 / 3), 0);
    for (int k = 0; k < 6; k++) bond(&l, k, (k + 1) % 6, VSG_BOND_AROMATIC);
    CHECK(complete(&l) == 0);
    start(&l, VSG_LIG_SDF);
    for (int k = 0; k < 5; k++)
        atom(&l, k == 0 || k == 2 ? "N" : "C", 1.18 * cos(k * 2 * 3.14159265358979 / 5), 1.18 * sin(k * 2 * 3.14159265358979 / 5), 0);
    for (int k = 0; k < 5; k++) bond(&l, k, (k + 1) % 5, VSG_BOND_AROMATIC);
    CHECK(complete(&l) == 1);
    int nh = hydrogens_on(&l, 0, h) + hydrogens_on(&l, 2, h + 1);
    CHECK(nh == 1);
    const int ring_n = hydrogens_on(&l, 0, h) ? 0 : 2, hh = l.natoms - 1;
    CHECK(fabs(l.atoms[hh].z) < 1e-6);
    CHECK(fabs(angle(&l, (ring_n + 1) % 5, ring_n, hh) - angle(&l, (ring_n + 4) % 5, ring_n, hh)) < 1e-6);

    /* acetate written as MOL2 carboxylate ("ar" C-O bonds): no H; acetic acid (C=O, C-O): 1 H syn */
    start(&l, VSG_LIG_MOL2);
    atom(&l, "C", 0, 0, 0), atom(&l, "C", 1.52, 0, 0), atom(&l, "O", 2.14, 1.08, 0), atom(&l, "O", 2.14, -1.08, 0);
    bond(&l, 0, 1, 1), bond(&l, 1, 2, VSG_BOND_AROMATIC), bond(&l, 1, 3, VSG_BOND_AROMATIC);
    CHECK(complete(&l) == 0);
    start(&l, VSG_LIG_SDF);
    atom(&l, "C", 0, 0, 0), atom(&l, "C", 1.52, 0, 0), atom(&l, "O", 2.14, 1.08, 0), atom(&l, "O", 2.14, -1.08, 0);
    bond(&l, 0, 1, 1), bond(&l, 1, 2, 2), bond(&l, 1, 3, 1);
    CHECK(complete(&l) == 1);
    CHECK(hydrogens_on(&l, 3, h) == 1 && fabs(angle(&l, 1, 3, h[0]) - 109.47) < 0.1 && fabs(l.atoms[h[0]].z) < 1e-6);
    CHECK(dist(&l, h[0], 2) < 2.4); /* syn: the H points to the C=O side */

    /* a PDBQT record is typed as is; a record with a status is left alone */
    start(&l, VSG_LIG_PDBQT);
    atom(&l, "C", 0, 0, 0), atom(&l, "N", 1.47, 0, 0), bond(&l, 0, 1, 1);
    CHECK(complete(&l) == 0 && l.natoms == 2);
    CHECK(vsg_ligand_complete_hydrogens(NULL, NULL, 0) == VSG_E_ARG);
    start(&l, VSG_LIG_SDF);
    atom(&l, "C", 0, 0, 0), bond(&l, 0, 3, 1);
    CHECK(vsg_ligand_complete_hydrogens(&l, NULL, 0) == VSG_E_DATA); /* a bond to a missing atom */

    /* an SDF record's text gets the new atoms and bonds (counts line, atom and bond blocks) */
    start(&l, VSG_LIG_SDF);
    const char *sdf = "ethanol\n  test\n\n  3  2  0  0  0  0  0  0  0  0999 V2000\n"
                      "    0.0000    0.0000    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0\n"
                      "    1.5200    0.0000    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0\n"
                      "    2.0200    1.3500    0.0000 O   0  0  0  0  0  0  0  0  0  0  0  0\n"
                      "  1  2  1  0\n  2  3  1  0\nM  END\n> <id>\n7\n\n$$$$\n";
    l.text = strdup(sdf), l.text_len = strlen(sdf), l.text_cap = l.text_len + 1;
    atom(&l, "C", 0, 0, 0), atom(&l, "C", 1.52, 0, 0), atom(&l, "O", 2.02, 1.35, 0);
    bond(&l, 0, 1, 1), bond(&l, 1, 2, 1);
    l.has_charges = 1;
    CHECK(complete(&l) == 1);
    CHECK(l.text_len > 0 && strstr(l.text, "  4  3  0  0") && strstr(l.text, " H   0  0") && strstr(l.text, "  3  4  1  0\nM  END"));
    CHECK(strstr(l.text, "> <id>\n7") != NULL);
    CHECK(l.has_charges == 0); /* the file's charges described the molecule without the H */
    vsg_ligand_release(&l);
}

/* ---- real data: DUD-E INHA, stripped of hydrogens ------------------------------------------------ */

/* The MOL2 record's text without its hydrogens (atoms renumbered, their bonds dropped). */
static void strip_mol2(const char *t, size_t n, FILE *out)
{
    char *s = malloc(n + 1);
    memcpy(s, t, n), s[n] = 0;
    int newid[4096] = {0}, nat = 0, nbo = 0, section = 0, na_total = 0;
    static double fold[4096]; /* the hydrogens' charges, folded into their heavy atoms (united atoms) */
    static unsigned char is_h[4096];
    memset(fold, 0, sizeof fold), memset(is_h, 0, sizeof is_h);
    /* pass 1: which atoms stay */
    char *save = NULL, *copy = strdup(s);
    for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (!strncmp(line, "@<TRIPOS>", 9)) { section = !strncmp(line + 9, "ATOM", 4) ? 1 : !strncmp(line + 9, "BOND", 4) ? 2 : 3; continue; }
        if (section == 1) {
            int id; char name[32], type[32];
            double q = 0;
            if (sscanf(line, "%d %31s %*f %*f %*f %31s %*s %*s %lf", &id, name, type, &q) >= 3 && id > 0 && id < 4096) {
                na_total++;
                if (strcmp(type, "H")) newid[id] = ++nat;
                else is_h[id] = 1, fold[id] = q;
            }
        } else if (section == 2) {
            int id, a, b;
            if (sscanf(line, "%d %d %d", &id, &a, &b) != 3 || a < 1 || b < 1 || a >= 4096 || b >= 4096) continue;
            if (newid[a] && newid[b]) nbo++;
            else if (is_h[a] && newid[b]) fold[b] += fold[a], fold[a] = 0;
            else if (is_h[b] && newid[a]) fold[a] += fold[b], fold[b] = 0;
        }
    }
    free(copy);
    section = 0;
    int header = 0, bid = 0;
    save = NULL;
    for (char *line = strtok_r(s, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (!strncmp(line, "@<TRIPOS>", 9)) {
            section = !strncmp(line + 9, "MOLECULE", 8) ? 4 : !strncmp(line + 9, "ATOM", 4) ? 1 : !strncmp(line + 9, "BOND", 4) ? 2 : 3;
            header = 0;
            fprintf(out, "%s\n", line);
            continue;
        }
        if (section == 4 && ++header == 2) { fprintf(out, "%5d %5d     0     0     0\n", nat, nbo); continue; }
        if (section == 1) {
            int id; char name[32], type[32], sub[32], subn[32]; double x, y, z, q;
            int k = sscanf(line, "%d %31s %lf %lf %lf %31s %31s %31s %lf", &id, name, &x, &y, &z, type, sub, subn, &q);
            if (k >= 6 && id > 0 && id < 4096 && newid[id])
                fprintf(out, "%7d %-8s %9.4f %9.4f %9.4f %-8s %s %s %9.4f\n", newid[id], name, x, y, z, type,
                        k >= 7 ? sub : "1", k >= 8 ? subn : "<0>", (k >= 9 ? q : 0.0) + fold[id]);
            continue;
        }
        if (section == 2) {
            int id, a, b; char type[16];
            if (sscanf(line, "%d %d %d %15s", &id, &a, &b, type) == 4 && a < 4096 && b < 4096 && newid[a] && newid[b])
                fprintf(out, "%6d %5d %5d %s\n", ++bid, newid[a], newid[b], type);
            continue;
        }
        fprintf(out, "%s\n", line);
    }
    (void)na_total;
    free(s);
}

typedef struct {
    int ok, xs_n, torsions, polar_h, heavy;
    int xs[512];
} model_info;

static void model_of(const vsg_ligand *lig, model_info *m)
{
    memset(m, 0, sizeof *m);
    vsg_vina_ligand *vl = NULL;
    if (vsg_vina_ligand_new(lig, &vl) != VSG_OK) return;
    vsg_vina_ligand_info in;
    vsg_vina_ligand_get_info(vl, &in);
    for (int i = 0; i < in.natoms && m->xs_n < 512; i++) {
        const vsg_xs_type t = vsg_vina_ligand_xs_type(vl, i);
        if (t != VSG_XS_NONE) m->xs[m->xs_n++] = (int)t;
    }
    m->torsions = in.rotors, m->heavy = in.heavy_atoms, m->polar_h = in.natoms - in.heavy_atoms;
    m->ok = 1;
    vsg_vina_ligand_free(vl);
}

static void inha(void)
{
    const char *env = getenv("VSG_SHARED_DATA");
    char dir[1024], path[2][1200];
    snprintf(dir, sizeof dir, "%s", env ? env : VSG_SOURCE_DIR "/../shared/data");
    snprintf(path[0], sizeof path[0], "%s/dude/inha/actives_final.mol2.gz", dir);
    snprintf(path[1], sizeof path[1], "%s/dude/inha/decoys_final.mol2.gz", dir);
    FILE *probe = fopen(path[0], "rb");
    if (!probe) {
        printf("SKIPPED-PART: the DUD-E INHA comparison (no shared data at %s; set VSG_SHARED_DATA)\n", dir);
        return;
    }
    fclose(probe);
    /* the stripped copy */
    const char *stripped = VSG_BINARY_DIR "/polar_h_inha_stripped.mol2";
    FILE *out = fopen(stripped, "w");
    CHECK(out != NULL);
    if (!out) return;
    const char *paths[2] = {path[0], path[1]};
    vsg_ligand_reader_options ro = {.format = VSG_LIG_AUTO, .keep_text = 1, .max_atoms = 0};
    vsg_ligand_reader *rd = NULL;
    vsg_ligand lig;
    vsg_ligand_init(&lig);
    CHECK(vsg_ligand_reader_open(paths, 2, &ro, &rd) == VSG_OK);
    long records = 0, added_to_originals = 0;
    static unsigned char charged[8192];
    while (vsg_ligand_reader_next(rd, &lig) == 1) {
        strip_mol2(lig.text, lig.text_len, out);
        int added = 0;
        if (lig.status == VSG_OK && vsg_ligand_complete_hydrogens(&lig, &added, 0) == VSG_OK && added) {
            added_to_originals++;
            if (lig.index < 8192) charged[lig.index] = 1;
            if (added_to_originals <= 5) printf("  original record %ld (%s): %d H added\n", lig.record, lig.name, added);
        }
        records++;
    }
    vsg_ligand_reader_close(rd);
    fclose(out);
    printf("INHA: %ld records; hydrogens added to %ld complete originals\n", records, added_to_originals);
    CHECK(added_to_originals == 0);

    /* originals and stripped copies side by side */
    vsg_ligand_reader *ra = NULL, *rb = NULL;
    const char *sp[1] = {stripped};
    CHECK(vsg_ligand_reader_open(paths, 2, &ro, &ra) == VSG_OK);
    CHECK(vsg_ligand_reader_open(sp, 1, &ro, &rb) == VSG_OK);
    vsg_ligand st;
    vsg_ligand_init(&st);
    model_info *mo = malloc(sizeof *mo), *ms = malloc(sizeof *ms);
    FILE *sdf = fopen(VSG_BINARY_DIR "/polar_h_inha.sdf", "w");
    CHECK(sdf != NULL);
    long n = 0, same = 0, same_types = 0, same_tors = 0, same_h = 0, shown = 0;
    while (vsg_ligand_reader_next(ra, &lig) == 1 && vsg_ligand_reader_next(rb, &st) == 1) {
        if (lig.status != VSG_OK) continue;
        n++;
        int added = 0;
        CHECK(vsg_ligand_complete_hydrogens(&st, &added, 0) == VSG_OK);
        model_of(&lig, mo);
        model_of(&st, ms);
        if (sdf) {
            char rec[32];
            snprintf(rec, sizeof rec, "%ld", lig.index);
            vsg_sdf_tag tag;
            tag.name = "record";
            snprintf(tag.value, sizeof tag.value, "%s", rec);
            vsg_sdf_write_record(sdf, &st, &tag, 1);
        }
        const int types = mo->ok && ms->ok && mo->xs_n == ms->xs_n && !memcmp(mo->xs, ms->xs, sizeof(int) * (size_t)mo->xs_n);
        const int tors = mo->ok && ms->ok && mo->torsions == ms->torsions;
        const int hs = mo->ok && ms->ok && mo->polar_h == ms->polar_h;
        same_types += types, same_tors += tors, same_h += hs, same += types && tors && hs;
        if (!(types && tors && hs) && lig.index < 8192 && !charged[lig.index] && shown++ < 30)
            printf("  differs: record %ld %s: xs %s, torsions %d vs %d, polar H %d vs %d (added %d)\n", lig.index,
                   lig.name, types ? "same" : "differ", mo->torsions, ms->torsions, mo->polar_h, ms->polar_h, added);
    }
    if (sdf) fclose(sdf);
    vsg_ligand_reader_close(ra);
    vsg_ligand_reader_close(rb);
    const double rate = n ? (double)same / (double)n : 0;
    printf("INHA stripped of hydrogens and completed: %ld of %ld records (%.2f%%) have the originals' Vina types, "
           "polar hydrogens and torsions (types %ld, polar H %ld, torsions %ld)\n",
           same, n, 100 * rate, same_types, same_h, same_tors);
    CHECK(n > 100 && rate >= 0.95);
    free(mo), free(ms);
    vsg_ligand_release(&lig);
    vsg_ligand_release(&st);
}

int main(void)
{
    analytic();
    inha();
    CHECK_EXIT();
}
