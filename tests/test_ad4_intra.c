/* test_ad4_intra.c — AutoDock4's intramolecular energy (ligands/score/ad4_intra.c) against
 * autodock4 4.2.6 itself (Debian package "autodock"), pose by pose.
 *
 * Always: on data/biotin.pdbqt, the energy is finite with pairs, deterministic, and 0 with no
 * pairs for the same atoms with the torsion tree flattened into ROOT (autodock4 computes no
 * internal energy for a rigid ligand); a record without its text is refused.
 * With ../shared/data (or $VSG_SHARED_DATA) and autodock4 on PATH: for the complexes with
 * AutoGrid maps and flexible ligands (1IEP's crystal pose and the MODELs of its AD4 and Vina
 * results; 2BRT's and 5WLO's crystal and rand-N poses; 3CE3's crystal pose), autodock4 runs
 * "move POSE / epdb" once per pose and the dlg's "Ligand Intramolecular Energy Analysis" is
 * read: the number of pair rows and the Total row (total, elec, vdW, Hb, desolv, printed to
 * 4 decimals). Required: the same pair count, |Δ total| ≤ 0.001 kcal/mol (the differences
 * seen are the 4-decimal rounding, ≤ 5e-5), and each part within 0.01. Exit 77 (skipped) for the peer part without
 * autodock4 or the shared data. */
#define _POSIX_C_SOURCE 200809L /* mkdir */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

#include "grids/base/vsgrid.h"
#include "grids/base/textio.h"
#include "check.h"
#include "ligands/score/ad4_intra.h"

#define MAX_POSES 24
#define TOL_KCAL 0.01
#define TOL_TOTAL 1e-3 /* the total itself: autodock4 prints it to 4 decimals */

typedef struct {
    const char *name, *dir, *fld;
    const char *poses[5]; /* single-pose PDBQT files */
    const char *multi[2]; /* multi-MODEL PDBQT files: every MODEL is a pose */
} complex_case;

static const complex_case cases[] = {
    {"1iep", "autodock_vina/1iep", "1iep_receptor.maps.fld", {"1iep_ligand.pdbqt"},
     {"1iep_ligand_ad4_out.pdbqt", "1iep_ligand_vina_out.pdbqt"}},
    {"2brt", "adgpu_set42/2brt", "protein.maps.fld", {"flex-xray.pdbqt", "rand-0.pdbqt", "rand-1.pdbqt", "rand-2.pdbqt"},
     {NULL}},
    {"5wlo", "adgpu_set42/5wlo", "protein.maps.fld", {"flex-xray.pdbqt", "rand-0.pdbqt", "rand-1.pdbqt", "rand-2.pdbqt"},
     {NULL}},
    {"3ce3", "autodock_gpu/3ce3", "3ce3_protein.maps.fld", {"3ce3_ligand.pdbqt"}, {NULL}},
};

typedef struct {
    char label[64];
    char file[32];
    double ad4[5]; /* autodock4: total, elec, vdW, Hb, desolv */
    int ad4_pairs, have_ad4;
} pose;

static int exists(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f) fclose(f);
    return f != NULL;
}

/* Copies src (plain or gzip) to dst as plain text (autodock4 reads plain maps only). */
static int gunzip_copy(const char *src, const char *dst)
{
    gzFile in = gzopen(src, "rb");
    FILE *out = fopen(dst, "wb");
    int ok = in && out, n;
    char buf[65536];
    while (ok && (n = gzread(in, buf, sizeof buf)) > 0) ok = fwrite(buf, 1, (size_t)n, out) == (size_t)n;
    if (in) gzclose(in);
    if (out) ok &= fclose(out) == 0;
    if (!ok) fprintf(stderr, "cannot copy %s to %s\n", src, dst);
    return ok;
}

/* Splits a multi-MODEL PDBQT into dir/<stem>_mN.pdbqt, appending poses. */
static int split_models(const char *src, const char *dir, const char *stem, pose *poses, int *np)
{
    vsg_lines *r = NULL;
    if (vsg_lines_open(src, &r) != VSG_OK) return 0;
    char *line;
    size_t len;
    FILE *out = NULL;
    int model = 0, ok = 1;
    while (ok && vsg_lines_next(r, &line, &len) == 1) {
        if (vsg_is_record(line, len, "MODEL")) {
            if (*np >= MAX_POSES) break;
            model++;
            pose *p = &poses[(*np)++];
            snprintf(p->label, sizeof p->label, "%.30s MODEL %d", stem, model);
            snprintf(p->file, sizeof p->file, "pose%d.pdbqt", *np); /* unique: stems share prefixes */
            char path[1200];
            snprintf(path, sizeof path, "%s/%s", dir, p->file);
            out = fopen(path, "w");
            ok = out != NULL;
        } else if (vsg_is_record(line, len, "ENDMDL")) {
            if (out) ok = fclose(out) == 0;
            out = NULL;
        } else if (out) {
            ok = fprintf(out, "%.*s\n", (int)len, line) >= 0;
        }
    }
    if (out) fclose(out);
    vsg_lines_close(r);
    return ok && model > 0;
}

/* The first record of a PDBQT file, with its text. */
static vsg_status read_first(const char *path, vsg_ligand *lig)
{
    vsg_ligand_reader_options opt = {.format = VSG_LIG_PDBQT, .keep_text = 1, .max_atoms = 0};
    vsg_ligand_reader *r = NULL;
    vsg_status st = vsg_ligand_reader_open(&path, 1, &opt, &r);
    if (st != VSG_OK) return st;
    st = vsg_ligand_reader_next(r, lig) == 1 ? lig->status : vsg_fail(VSG_E_FORMAT, "%s: no record", path);
    vsg_ligand_reader_close(r);
    return st;
}

/* The dlg's intramolecular table: pair rows and the Total row. */
static int parse_dlg(const char *path, pose *p)
{
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    char line[4096];
    int in = 0;
    while (fgets(line, sizeof line, f)) {
        if (strstr(line, "Ligand Intramolecular Energy Analysis")) {
            in = 1, p->ad4_pairs = 0;
            continue;
        }
        if (!in) continue;
        int k, a, b;
        double v[5];
        if (sscanf(line, " %d %d-%d", &k, &a, &b) == 3) {
            p->ad4_pairs++;
        } else if (sscanf(line, "Total %lf %lf %lf %lf %lf", &v[0], &v[1], &v[2], &v[3], &v[4]) == 5) {
            memcpy(p->ad4, v, sizeof v);
            p->have_ad4 = 1;
            in = 0;
        }
    }
    fclose(f);
    return p->have_ad4;
}

/* One complex: the number of failed poses (1 when the case cannot run). */
static int run_case(const char *shared, const complex_case *cc, const vsg_ad4_params *par, double *max_diff)
{
    char src_dir[1024], dir[1024], path[2200];
    snprintf(src_dir, sizeof src_dir, "%.900s/%.100s", shared, cc->dir);
    snprintf(path, sizeof path, "%s/%s", src_dir, cc->fld);
    if (!exists(path)) {
        printf("%-5s skipped: no %s\n", cc->name, path);
        return 0;
    }
    mkdir(scratch_path("ad4_intra"), 0755);
    snprintf(dir, sizeof dir, "%.900s/%.60s", scratch_path("ad4_intra"), cc->name);
    mkdir(dir, 0755);

    /* maps: those that exist, gunzipped, and an fld that lists only them */
    vsg_fld *f = calloc(2, sizeof *f);
    if (!f) return 1;
    vsg_fld *kept = f + 1;
    if (vsg_autogrid_fld_read(path, f) != VSG_OK) {
        fprintf(stderr, "%s: %s\n", cc->name, vsg_last_error());
        free(f);
        return 1;
    }
    *kept = *f;
    kept->n_maps = 0;
    for (int i = 0; i < f->n_maps; i++) {
        char src[2200], gz[2210], dst[2200];
        snprintf(src, sizeof src, "%s/%s", src_dir, f->maps[i].file);
        snprintf(gz, sizeof gz, "%s.gz", src);
        snprintf(dst, sizeof dst, "%s/%s", dir, f->maps[i].file);
        const char *from = exists(src) ? src : exists(gz) ? gz : NULL;
        if (!from) continue;
        if (!gunzip_copy(from, dst)) {
            free(f);
            return 1;
        }
        kept->maps[kept->n_maps++] = f->maps[i];
    }
    snprintf(path, sizeof path, "%s/%s", dir, cc->fld);
    CHECK_STATUS(vsg_autogrid_fld_write(path, kept), VSG_OK);

    pose poses[MAX_POSES];
    memset(poses, 0, sizeof poses);
    int np = 0, failed = 0;
    for (int i = 0; i < 5 && cc->poses[i]; i++) {
        snprintf(path, sizeof path, "%s/%s", src_dir, cc->poses[i]);
        pose *p = &poses[np++];
        snprintf(p->label, sizeof p->label, "%s", cc->poses[i]);
        snprintf(p->file, sizeof p->file, "pose%d.pdbqt", np);
        char dst[2200];
        snprintf(dst, sizeof dst, "%s/%s", dir, p->file);
        if (!gunzip_copy(path, dst)) failed = 1;
    }
    for (int i = 0; i < 2 && cc->multi[i]; i++) {
        snprintf(path, sizeof path, "%s/%s", src_dir, cc->multi[i]);
        char stem[64];
        snprintf(stem, sizeof stem, "%.*s", (int)(strlen(cc->multi[i]) - 6), cc->multi[i]);
        if (!split_models(path, dir, stem, poses, &np)) failed = 1;
    }

    for (int k = 0; k < np && !failed; k++) {
        vsg_ligand lig;
        vsg_ligand_init(&lig);
        snprintf(path, sizeof path, "%s/%s", dir, poses[k].file);
        vsg_ad4_intra_result res;
        if (read_first(path, &lig) != VSG_OK || vsg_ad4_intra(&lig, par, &res) != VSG_OK) {
            fprintf(stderr, "%s: %s: %s\n", cc->name, poses[k].file, vsg_last_error());
            vsg_ligand_release(&lig);
            failed++;
            continue;
        }
        /* autodock4 on this pose: ligand types = the pose's types, each with its map */
        char types[32][4];
        int nt = 0, missing = 0;
        for (int i = 0; i < lig.natoms; i++) {
            int seen = 0;
            for (int j = 0; j < nt; j++) seen |= !strcmp(types[j], lig.atoms[i].ad_type);
            if (!seen && nt < 32) snprintf(types[nt++], sizeof types[0], "%s", lig.atoms[i].ad_type);
        }
        snprintf(path, sizeof path, "%s/ad4_%d.dpf", dir, k + 1);
        FILE *dpf = fopen(path, "w");
        if (!dpf) {
            vsg_ligand_release(&lig);
            failed++;
            continue;
        }
        fprintf(dpf, "autodock_parameter_version 4.2\noutlev 1\nligand_types");
        for (int j = 0; j < nt; j++) fprintf(dpf, " %s", types[j]);
        fprintf(dpf, "\nfld %s\n", cc->fld);
        const char *efile = NULL, *dfile = NULL;
        for (int i = 0; i < kept->n_maps; i++) {
            if (!strcmp(kept->maps[i].type, "e")) efile = kept->maps[i].file;
            if (!strcmp(kept->maps[i].type, "d")) dfile = kept->maps[i].file;
        }
        for (int j = 0; j < nt; j++) {
            const char *m = NULL;
            for (int i = 0; i < kept->n_maps; i++)
                if (!strcmp(kept->maps[i].type, types[j])) m = kept->maps[i].file;
            if (!m) missing = 1;
            fprintf(dpf, "map %s\n", m ? m : "missing.map");
        }
        fprintf(dpf, "elecmap %s\ndesolvmap %s\nmove %s\nepdb\n", efile ? efile : "missing", dfile ? dfile : "missing",
                poses[k].file);
        fclose(dpf);
        if (missing || !efile || !dfile) {
            printf("%-5s %-36s skipped: a map is missing for its types\n", cc->name, poses[k].label);
            vsg_ligand_release(&lig);
            continue;
        }
        char cmd[3000];
        snprintf(cmd, sizeof cmd, "cd '%s' && autodock4 -p ad4_%d.dpf -l ad4_%d.dlg > ad4_%d.out 2>&1", dir, k + 1,
                 k + 1, k + 1);
        snprintf(path, sizeof path, "%s/ad4_%d.dlg", dir, k + 1);
        if (system(cmd) != 0 || !parse_dlg(path, &poses[k])) {
            fprintf(stderr, "%s: autodock4 failed or no intramolecular table, see %s\n", cc->name, path);
            vsg_ligand_release(&lig);
            failed++;
            continue;
        }
        const double *a = poses[k].ad4;
        double dt = res.total - a[0], de = res.elec - a[1], dv = res.vdw_hb - (a[2] + a[3]), dd = res.desolv - a[4];
        int ok = fabs(dt) <= TOL_TOTAL && fabs(de) <= TOL_KCAL && fabs(dv) <= TOL_KCAL && fabs(dd) <= TOL_KCAL &&
                 res.npairs == poses[k].ad4_pairs;
        if (fabs(dt) > *max_diff) *max_diff = fabs(dt);
        printf("%-5s %-36s %5d %4d/%-4d %10.4f %10.4f %9.1e %9.1e %9.1e %9.1e %s\n", cc->name, poses[k].label,
               lig.natoms, res.npairs, poses[k].ad4_pairs, a[0], res.total, dt, dv, de, dd, ok ? "ok" : "FAIL");
        if (!ok) failed++;
        vsg_ligand_release(&lig);
    }
    free(f);
    return failed;
}

/* The always-run checks on data/biotin.pdbqt. */
static void unit_checks(const vsg_ad4_params *par)
{
    vsg_ligand lig;
    vsg_ligand_init(&lig);
    CHECK_STATUS(read_first(source_path("data/biotin.pdbqt"), &lig), VSG_OK);
    vsg_ad4_intra_result a, b;
    CHECK_STATUS(vsg_ad4_intra(&lig, par, &a), VSG_OK);
    CHECK_STATUS(vsg_ad4_intra(&lig, par, &b), VSG_OK);
    CHECK(a.ntorsions > 0 && a.npairs > 0 && isfinite(a.total));
    CHECK(a.total == b.total && a.npairs == b.npairs);
    CHECK_NEAR(a.total, a.vdw_hb + a.desolv + a.elec, 1e-9);
    printf("biotin: %d torsions, %d pairs, internal %.4f kcal/mol (vdW+Hb %.4f, desolv %.4f, elec %.4f)\n",
           a.ntorsions, a.npairs, a.total, a.vdw_hb, a.desolv, a.elec);
    /* the same atoms, all in ROOT: a rigid ligand, no internal energy */
    char *flat = malloc(lig.text_len + 1);
    size_t m = 0;
    if (flat) {
        for (const char *p = lig.text, *end = lig.text + lig.text_len; p < end;) {
            const char *e = memchr(p, '\n', (size_t)(end - p));
            size_t len = e ? (size_t)(e - p + 1) : (size_t)(end - p);
            if (strncmp(p, "BRANCH", 6) && strncmp(p, "ENDBRANCH", 9)) memcpy(flat + m, p, len), m += len;
            p += len;
        }
        char *saved = lig.text;
        size_t saved_len = lig.text_len;
        lig.text = flat, lig.text_len = m;
        CHECK_STATUS(vsg_ad4_intra(&lig, par, &b), VSG_OK);
        CHECK(b.total == 0.0 && b.npairs == 0 && b.ntorsions == 0);
        lig.text = NULL;
        CHECK_STATUS(vsg_ad4_intra(&lig, par, &b), VSG_E_ARG);
        lig.text = saved, lig.text_len = saved_len;
        free(flat);
    }
    vsg_ligand_release(&lig);
}

int main(void)
{
    vsg_ad4_params par;
    CHECK_STATUS(vsg_ad4_params_builtin(&par), VSG_OK);
    unit_checks(&par);
    const char *shared = shared_data_dir();
    if (!shared) SKIP("the autodock4 comparison: " VSG_NO_SHARED " (the unit checks passed)");
    if (system("command -v autodock4 > /dev/null 2>&1") != 0)
        SKIP("the autodock4 comparison: autodock4 not on PATH, apt-get install autodock (the unit checks passed)");
    printf("%-5s %-36s %5s %9s %10s %10s %9s %9s %9s %9s\n", "case", "pose", "atoms", "pairs", "autodock4", "vsgrid",
           "d total", "d vdw+hb", "d elec", "d desolv");
    double max_diff = 0.0;
    int failed = 0;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) failed += run_case(shared, &cases[c], &par, &max_diff);
    printf("max |d total| %.2g kcal/mol (autodock4 prints 4 decimals); tolerance %.2g; %d failed\n", max_diff, TOL_TOTAL,
           failed);
    CHECK(failed == 0);
    CHECK_EXIT();
}
