/* test_peer_ad4.c — the AD4 score of the CPU twin (vsg_score_cpu on a map set read by
 * vsg_mapset_read) against autodock4 4.2.6 itself (Debian package "autodock"), pose by pose.
 *
 * For each complex of ../shared/data with AutoGrid maps and ligand PDBQT files (1STP, 3CE3,
 * 2BRT and 5WLO with their crystal and rand-N poses, 1IEP with its crystal pose and the
 * MODELs of its AD4 and Vina result files), in a scratch folder:
 *  - the maps are copied (gunzipped: autodock4 reads plain maps only) with an fld listing the
 *    maps that exist (1IEP's fld lists types whose maps were not kept);
 *  - a pose "shifted" is made from the crystal pose: its centroid moved onto the grid's +x face,
 *    so that about half of its atoms lie outside the grid, coordinates snapped to 1/8 Å (exact
 *    in float and in autodock4's double, so that the outside penalty 1000·|r − c|², which grows
 *    fast, is compared without the rounding of the batch's float coordinates);
 *  - autodock4 runs "move POSE / epdb" once per pose (one run per pose: within one run, epdb's
 *    table shows the previous pose's desolvation for atoms outside the grid), and the dlg's
 *    intermolecular table ("Total" row: vdW+Hbond, Electrostatic, Desolvation) and "Total
 *    Intermolecular Interaction Energy" are parsed;
 *  - the same poses, read with vsg_molecule_read (AutoDock type, charge), are scored as one
 *    batch by vsg_score_cpu on the maps as vsg_mapset_read loads them (from the data set's own
 *    fld and .map.gz files where it lists no missing map), and atom by atom (which must add up).
 * |Δ total| ≤ 0.01 kcal/mol is required, plus two effects of the contract's float32 inputs
 * (autodock4 holds doubles): for atoms outside the grid, what the float rounding of their
 * coordinates changes in the penalty 1000·|r − c|² (computed exactly from the reader's double
 * coordinates: the rand-N poses lie tens of Å from the grid, their totals are ~10⁷ kcal/mol and
 * float coordinates move them by ~0.1 kcal/mol), and 2·2⁻²⁴ of the inside atoms' term
 * magnitudes for the float maps (AutoGrid's clash values reach 10⁵ kcal/mol).
 * Maps are not regenerated with autogrid4: both programs read the same map files, so the
 * comparison is of the scoring alone, whichever AutoGrid build made the maps.
 * Exit 77 (skipped) without autodock4 on PATH or without ../shared/data. */
#define _POSIX_C_SOURCE 200809L /* mkdir */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

#include "grids/formats/grid.h"
#include "grids/base/vsgrid.h"
#include "check.h"
#include "grids/receptor/molecule.h"
#include "grids/base/textio.h"

#define MAX_POSES 16
#define TOL_KCAL 0.01

typedef struct {
    const char *name, *dir, *fld;
    const char *poses[5];    /* single-pose PDBQT files; the first is the crystal pose */
    const char *multi[2];    /* multi-MODEL PDBQT files: every MODEL is a pose */
} complex_case;

static const complex_case cases[] = {
    {"1stp", "autodock_gpu/1stp", "1stp_protein.maps.fld", {"1stp_ligand.pdbqt"}, {NULL}},
    {"3ce3", "autodock_gpu/3ce3", "3ce3_protein.maps.fld", {"3ce3_ligand.pdbqt"}, {NULL}},
    {"2brt", "adgpu_set42/2brt", "protein.maps.fld", {"flex-xray.pdbqt", "rand-0.pdbqt", "rand-1.pdbqt", "rand-2.pdbqt"},
     {NULL}},
    {"5wlo", "adgpu_set42/5wlo", "protein.maps.fld", {"flex-xray.pdbqt", "rand-0.pdbqt", "rand-1.pdbqt", "rand-2.pdbqt"},
     {NULL}},
    {"1iep", "autodock_vina/1iep", "1iep_receptor.maps.fld", {"1iep_ligand.pdbqt"},
     {"1iep_ligand_ad4_out.pdbqt", "1iep_ligand_vina_out.pdbqt"}},
};

typedef struct {
    char label[64];
    char file[32];            /* in the scratch folder */
    vsg_molecule *mol;
    double ad4[4];            /* autodock4: total, vdW+Hbond, elec, desolv */
    int have_ad4;
} pose;

static int exists(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f) fclose(f);
    return f != NULL;
}

/* Copies src (plain or gzip) to dst as plain text. */
static int gunzip_copy(const char *src, const char *dst)
{
    gzFile in = gzopen(src, "rb");
    FILE *out = fopen(dst, "wb");
    int ok = in && out, n;
    char buf[65536];
    while (ok && (n = gzread(in, buf, sizeof buf)) > 0) ok = fwrite(buf, 1, (size_t)n, out) == (size_t)n;
    if (in) {
        int err;
        gzerror(in, &err);
        ok &= err == Z_OK || err == Z_STREAM_END;
        gzclose(in);
    }
    if (out) ok &= fclose(out) == 0;
    if (!ok) fprintf(stderr, "cannot copy %s to %s\n", src, dst);
    return ok;
}

static int is_atom(const char *line, size_t len)
{
    return len >= 54 && (!strncmp(line, "ATOM  ", 6) || !strncmp(line, "HETATM", 6));
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
            snprintf(p->file, sizeof p->file, "%.12s_m%d.pdbqt", stem, model);
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

/* Writes the crystal pose moved by `shift`, coordinates snapped to 1/8 Å. */
static int write_shifted(const char *src, const char *dst, const double shift[3])
{
    vsg_lines *r = NULL;
    if (vsg_lines_open(src, &r) != VSG_OK) return 0;
    FILE *out = fopen(dst, "w");
    char *line;
    size_t len;
    int ok = out != NULL;
    while (ok && vsg_lines_next(r, &line, &len) == 1) {
        if (!is_atom(line, len)) {
            ok = fprintf(out, "%.*s\n", (int)len, line) >= 0;
            continue;
        }
        double c[3];
        for (int d = 0; d < 3; d++) {
            char field[9];
            memcpy(field, line + 30 + 8 * d, 8);
            field[8] = '\0';
            c[d] = round((atof(field) + shift[d]) * 8.0) / 8.0;
        }
        ok = fprintf(out, "%.30s%8.3f%8.3f%8.3f%.*s\n", line, c[0], c[1], c[2], (int)(len - 54), line + 54) >= 0;
    }
    if (out) ok &= fclose(out) == 0;
    vsg_lines_close(r);
    return ok;
}

/* The map file of a type in an fld ("" when absent: autodock4 then fails, and says so). */
static const char *map_file(const vsg_fld *f, const char *type)
{
    for (int i = 0; i < f->n_maps; i++)
        if (!strcmp(f->maps[i].type, type)) return f->maps[i].file;
    return "";
}

/* Reads the dlg: per epdb, the Total row of the intermolecular table and the total line. */
static int parse_dlg(const char *path, pose *poses, int np)
{
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    char line[4096];
    int k = -1, in_table = 0;
    double row[4] = {0, 0, 0, 0};
    while (fgets(line, sizeof line, f)) {
        if (strstr(line, "Intermolecular Energy Analysis")) {
            k++;
            in_table = 1;
            continue;
        }
        if (k < 0 || k >= np) continue;
        double a, b, c, d;
        if (in_table && sscanf(line, " Total %lf %lf %lf %lf", &a, &b, &c, &d) == 4) {
            row[0] = a, row[1] = b, row[2] = c, row[3] = d;
            in_table = 0;
        }
        const char *t = strstr(line, "Total Intermolecular Interaction Energy");
        if (t && sscanf(strchr(t, '=') + 1, "%lf", &a) == 1) {
            poses[k].ad4[0] = a;
            poses[k].ad4[1] = row[1];
            poses[k].ad4[2] = row[2];
            poses[k].ad4[3] = row[3];
            poses[k].have_ad4 = 1;
            if (fabs(row[0] - a) > 2e-4 * (1.0 + fabs(a) * 1e-6)) {
                fprintf(stderr, "%s: epdb table total %.4f but Total Intermolecular Interaction Energy %.4f\n", path,
                        row[0], a);
                check_failures++;
            }
        }
    }
    fclose(f);
    return k + 1 == np;
}

/* One complex: returns the number of failed poses (or 1 when the case cannot run). */
static int run_case(const char *shared, const complex_case *cc, double *max_diff)
{
    char src_dir[1024], dir[1024], path[1400];
    snprintf(src_dir, sizeof src_dir, "%s/%s", shared, cc->dir);
    mkdir(scratch_path("peer_ad4"), 0755);
    snprintf(dir, sizeof dir, "%s/%s", scratch_path("peer_ad4"), cc->name);
    mkdir(dir, 0755);

    /* maps: copy those that exist, gunzipped, and write an fld that lists them */
    vsg_fld *f = calloc(2, sizeof *f);
    if (!f) return 1;
    vsg_fld *kept = f + 1;
    snprintf(path, sizeof path, "%s/%s", src_dir, cc->fld);
    if (vsg_autogrid_fld_read(path, f) != VSG_OK) {
        fprintf(stderr, "%s: %s\n", cc->name, vsg_last_error());
        free(f);
        return 1;
    }
    *kept = *f;
    kept->n_maps = 0;
    int dropped = 0;
    for (int i = 0; i < f->n_maps; i++) {
        char src[1400], gz[1410], dst[1400];
        snprintf(src, sizeof src, "%s/%s", src_dir, f->maps[i].file);
        snprintf(gz, sizeof gz, "%s.gz", src);
        snprintf(dst, sizeof dst, "%s/%s", dir, f->maps[i].file);
        const char *from = exists(src) ? src : exists(gz) ? gz : NULL;
        if (!from) {
            dropped++;
            continue;
        }
        if (!gunzip_copy(from, dst)) {
            free(f);
            return 1;
        }
        kept->maps[kept->n_maps++] = f->maps[i];
    }
    char fld[1400];
    snprintf(fld, sizeof fld, "%s/%s", dir, cc->fld);
    CHECK_STATUS(vsg_autogrid_fld_write(fld, kept), VSG_OK);
    /* the score reads the data set's own fld and .map.gz files when they are complete */
    vsg_mapset *ms = NULL;
    snprintf(path, sizeof path, "%s/%s", src_dir, cc->fld);
    double t_m0 = vsg_now();
    vsg_status st = vsg_mapset_read(dropped ? fld : path, &ms);
    double t_maps = vsg_now() - t_m0;
    if (st != VSG_OK) {
        fprintf(stderr, "%s: %s\n", cc->name, vsg_last_error());
        free(f);
        check_failures++;
        return 1;
    }
    const vsg_score_grids *g = vsg_mapset_grids(ms);

    /* poses */
    pose poses[MAX_POSES];
    memset(poses, 0, sizeof poses);
    int np = 0, bad = 0;
    for (int i = 0; i < 5 && cc->poses[i]; i++) {
        snprintf(path, sizeof path, "%s/%s", src_dir, cc->poses[i]);
        pose *p = &poses[np++];
        snprintf(p->label, sizeof p->label, "%s", cc->poses[i]);
        snprintf(p->file, sizeof p->file, "pose%d.pdbqt", np);
        char dst[1400];
        snprintf(dst, sizeof dst, "%s/%s", dir, p->file);
        if (!gunzip_copy(path, dst)) bad = 1;
    }
    for (int i = 0; i < 2 && cc->multi[i]; i++) {
        snprintf(path, sizeof path, "%s/%s", src_dir, cc->multi[i]);
        char stem[64];
        snprintf(stem, sizeof stem, "%.*s", (int)(strlen(cc->multi[i]) - 6), cc->multi[i]);
        if (!split_models(path, dir, stem, poses, &np)) bad = 1;
    }
    /* the shifted crystal pose: centroid onto the +x face */
    vsg_molecule *crystal = NULL;
    snprintf(path, sizeof path, "%s/%s", src_dir, cc->poses[0]);
    if (vsg_molecule_read(path, "pdbqt", &crystal) == VSG_OK && vsg_molecule_atom_count(crystal) > 0 &&
        np < MAX_POSES) {
        double cen[3] = {0, 0, 0};
        size_t n = vsg_molecule_atom_count(crystal);
        for (size_t i = 0; i < n; i++) cen[0] += crystal->atoms[i].x, cen[1] += crystal->atoms[i].y, cen[2] += crystal->atoms[i].z;
        double shift[3] = {g->origin[0] + (g->n[0] - 1) * g->spacing[0] - cen[0] / n, 0.0, 0.0};
        pose *p = &poses[np++];
        snprintf(p->label, sizeof p->label, "%s shifted to +x face", cc->poses[0]);
        snprintf(p->file, sizeof p->file, "shifted.pdbqt");
        char dst[1400];
        snprintf(dst, sizeof dst, "%s/%s", dir, p->file);
        if (!write_shifted(path, dst, shift)) bad = 1;
    } else {
        bad = 1;
    }
    vsg_molecule_free(crystal);
    if (bad) fprintf(stderr, "%s: cannot prepare the poses (%s)\n", cc->name, vsg_last_error());

    /* read the poses; the union of their types, each needs a map */
    char types[VSG_SCORE_MAX_MAPS][4];
    int ntypes = 0;
    size_t natoms = 0;
    for (int k = 0; k < np; k++) {
        snprintf(path, sizeof path, "%s/%s", dir, poses[k].file);
        if (vsg_molecule_read(path, "pdbqt", &poses[k].mol) != VSG_OK) {
            fprintf(stderr, "%s: %s\n", cc->name, vsg_last_error());
            bad = 1;
            continue;
        }
        for (size_t i = 0; i < poses[k].mol->n; i++) {
            const char *t = poses[k].mol->atoms[i].ad_type;
            int seen = 0;
            for (int j = 0; j < ntypes; j++) seen |= !strcmp(types[j], t);
            if (seen) continue;
            if (vsg_mapset_type_index(ms, t) == VSG_SCORE_NO_TYPE || ntypes >= VSG_SCORE_MAX_MAPS) {
                fprintf(stderr, "%s: %s: no map for ligand atom type '%s'\n", cc->name, poses[k].file, t);
                bad = 1;
                continue;
            }
            snprintf(types[ntypes++], sizeof types[0], "%s", t);
        }
        natoms += poses[k].mol->n;
    }

    /* autodock4: one run per pose (in one run, epdb's table keeps the previous pose's
     * desolvation values for atoms outside the grid: its Desolvation column would be stale) */
    double t_a0 = vsg_now();
    for (int k = 0; k < np && !bad; k++) {
        snprintf(path, sizeof path, "%s/ad4_%d.dpf", dir, k + 1);
        FILE *dpf = fopen(path, "w");
        if (!dpf) {
            bad = 1;
            break;
        }
        fprintf(dpf, "autodock_parameter_version 4.2\noutlev 1\nligand_types");
        for (int j = 0; j < ntypes; j++) fprintf(dpf, " %s", types[j]);
        fprintf(dpf, "\nfld %s\n", cc->fld);
        for (int j = 0; j < ntypes; j++) fprintf(dpf, "map %s\n", map_file(kept, types[j]));
        fprintf(dpf, "elecmap %s\ndesolvmap %s\n", map_file(kept, "e"), map_file(kept, "d"));
        fprintf(dpf, "move %s\nepdb\n", poses[k].file);
        bad = fclose(dpf) != 0;
        char cmd[3000];
        snprintf(cmd, sizeof cmd, "cd '%s' && autodock4 -p ad4_%d.dpf -l ad4_%d.dlg > ad4_%d.out 2>&1", dir, k + 1,
                 k + 1, k + 1);
        if (!bad && system(cmd) != 0) {
            fprintf(stderr, "%s: autodock4 failed, see %s/ad4_%d.dlg and .out\n", cc->name, dir, k + 1);
            bad = 1;
        }
        snprintf(path, sizeof path, "%s/ad4_%d.dlg", dir, k + 1);
        if (!bad && !parse_dlg(path, &poses[k], 1)) {
            fprintf(stderr, "%s: %s does not hold one epdb energy table\n", cc->name, path);
            bad = 1;
        }
    }
    double t_ad4 = vsg_now();

    /* vsgrid: all poses as one batch */
    uint32_t *start = calloc((size_t)np + 1, sizeof *start);
    float *x = malloc((natoms + 1) * sizeof *x), *y = malloc((natoms + 1) * sizeof *y);
    float *z = malloc((natoms + 1) * sizeof *z), *q = malloc((natoms + 1) * sizeof *q);
    uint8_t *type = malloc(natoms + 1);
    vsg_score_result res[MAX_POSES], *per_atom = NULL;
    if (!bad && start && x && y && z && q && type) {
        size_t a = 0;
        for (int k = 0; k < np; k++) {
            for (size_t i = 0; i < poses[k].mol->n; i++, a++) {
                const vsg_atom *at = &poses[k].mol->atoms[i];
                x[a] = (float)at->x, y[a] = (float)at->y, z[a] = (float)at->z, q[a] = (float)at->charge;
                type[a] = vsg_mapset_type_index(ms, at->ad_type);
            }
            start[k + 1] = (uint32_t)a;
        }
        vsg_score_batch b = {(size_t)np, natoms, start, x, y, z, q, type};
        CHECK_STATUS(vsg_score_cpu(g, &b, res), VSG_OK);
        /* every atom as its own ligand: the per-atom terms (they must add up to the poses') */
        uint32_t *one = malloc((natoms + 1) * sizeof *one);
        per_atom = malloc((natoms + 1) * sizeof *per_atom);
        if (one && per_atom) {
            for (size_t i = 0; i <= natoms; i++) one[i] = (uint32_t)i;
            vsg_score_batch b1 = {natoms, natoms, one, x, y, z, q, type};
            CHECK_STATUS(vsg_score_cpu(g, &b1, per_atom), VSG_OK);
            for (int k = 0; k < np; k++) {
                double sum = 0.0;
                for (uint32_t i = start[k]; i < start[k + 1]; i++) sum += per_atom[i].total;
                CHECK_NEAR(sum, res[k].total, 1e-9 * (1.0 + fabs(sum)));
            }
        } else {
            bad = 1;
        }
        free(one);
    } else {
        bad = 1;
    }
    double t_vsg = vsg_now();

    int failed = bad;
    if (!bad) {
        double c[3], hi[3];
        for (int d = 0; d < 3; d++) {
            c[d] = g->origin[d] + 0.5 * (g->n[d] - 1) * g->spacing[d];
            hi[d] = g->origin[d] + (g->n[d] - 1) * g->spacing[d];
        }
        for (int k = 0; k < np; k++) {
            /* tolerance: 0.01, plus what the float rounding of the outside atoms' coordinates
             * changes in their penalty 1000·|r − c|² (autodock4 holds them in double) */
            double tol = TOL_KCAL, shift = 0.0;
            for (uint32_t a = start[k]; a < start[k + 1]; a++) {
                const vsg_atom *at = &poses[k].mol->atoms[a - start[k]];
                double pf[3] = {x[a], y[a], z[a]}, pd[3] = {at->x, at->y, at->z}, r2f = 0.0, r2d = 0.0;
                int out = 0;
                for (int d = 0; d < 3; d++) {
                    out |= !(pf[d] >= g->origin[d] && pf[d] <= hi[d]);
                    r2f += (pf[d] - c[d]) * (pf[d] - c[d]);
                    r2d += (pd[d] - c[d]) * (pd[d] - c[d]);
                }
                if (out) shift += 1000.0 * (r2f - r2d);
            }
            /* plus the float32 storage of the maps (vsgrid.h) where autodock4 holds doubles: 2⁻²⁴ of
             * the magnitude of each inside atom's terms (it matters for atoms deep in clashes, where
             * AutoGrid's values reach 10⁵ kcal/mol) */
            double mapmag = 0.0;
            for (uint32_t a = start[k]; a < start[k + 1]; a++)
                if (!per_atom[a].outside)
                    mapmag += fabs(per_atom[a].vdw_hb) + fabs(per_atom[a].elec) + fabs(per_atom[a].desolv);
            tol += fabs(shift) + 2.0 * 0x1p-24 * mapmag;
            const vsg_score_result *r = &res[k];
            double dt = r->total - poses[k].ad4[0];
            double dv = r->vdw_hb - poses[k].ad4[1], de = r->elec - poses[k].ad4[2], dd = r->desolv - poses[k].ad4[3];
            int ok = fabs(dt) <= tol;
            if (!ok) failed++;
            if (fabs(dt - shift) > *max_diff) *max_diff = fabs(dt - shift);
            printf("%-5s %-36s %5u %4d %16.4f %16.4f %9.2e %9.2e %9.2e %9.2e %8.2g %s\n", cc->name, poses[k].label,
                   start[k + 1] - start[k], r->outside, poses[k].ad4[0], r->total, dt, dv, de, dd, tol,
                   ok ? "ok" : "FAIL");
        }
        printf("%-5s %d poses: autodock4 %.2f s (%d runs, each reads the maps), vsgrid %.3f s (map set read) + "
               "%.2g s (score)%s\n", cc->name, np, t_ad4 - t_a0, np, t_maps, t_vsg - t_ad4,
               dropped ? ", fld reduced to the maps present" : "");
    }
    free(per_atom), free(start), free(x), free(y), free(z), free(q), free(type);
    free(f);
    vsg_mapset_free(ms);
    for (int k = 0; k < np; k++) vsg_molecule_free(poses[k].mol);
    return failed;
}

int main(void)
{
    const char *shared = shared_data_dir();
    if (!shared) SKIP(VSG_NO_SHARED);
    if (system("command -v autodock4 > /dev/null 2>&1") != 0) SKIP("autodock4 not on PATH (apt-get install autodock)");
    double max_diff = 0.0;
    int failed = 0;
    printf("%-5s %-36s %5s %4s %16s %16s %9s %9s %9s %9s %8s\n", "case", "pose", "atoms", "out", "autodock4",
           "vsgrid", "d total", "d vdw+hb", "d elec", "d desolv", "tol");
    printf("%-5s %-36s %5s %4s %16s %16s %9s %9s %9s %9s %8s\n", "", "", "", "", "kcal/mol", "kcal/mol", "", "", "",
           "", "");
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) failed += run_case(shared, &cases[c], &max_diff);
    printf("max |d total - float-coordinate penalty shift| %.4g kcal/mol; tolerance 0.01 kcal/mol + that shift;"
           " %d failed\n", max_diff, failed);
    CHECK(failed == 0);
    CHECK_EXIT();
}
