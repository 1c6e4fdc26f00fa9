/* test_dock_ad4.c — docking with the AutoDock4 function on the CPU (vsg_dock_ad4_cpu,
 * ligands/dock/dock_energy_ad4.c), on AutoDock-GPU's 2BRT complex (../shared/data/adgpu_set42:
 * its own AutoGrid map set, the crystal ligand flex-xray.pdbqt and the random start rand-0.pdbqt):
 *  - the search energy's analytic gradient against central finite differences, atom by atom, at
 *    the crystal pose moved off its grid points (the intramolecular tables are linear in r²
 *    between bins, so a difference step that crosses a bin edge sees a kink: at most 5% of the
 *    coordinates may disagree, and the median error must be tiny);
 *  - the energy's intermolecular part at the crystal pose equals vsg_ad4_score_pose's;
 *  - a dock from rand-0: poses ranked by estimated free energy, terms that add up, the torsional
 *    term 0.2983 × TORSDOF, and (with autodock4 on PATH) the best pose written as PDBQT and run
 *    through autodock4's epdb: its intermolecular and internal energies must equal the pose's
 *    terms within 0.01 kcal/mol (autodock4 prints 4 decimals), the crystal pose's too;
 *  - refusals: an SDF/MOL2 record, a NULL target.
 * Exit 77 without the shared data. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

#include "check.h"
#include "grids/base/vsgrid.h"

/* The first record of path; *r stays open (the record's source name is the reader's). */
static int read_one(const char *path, vsg_ligand *lig, vsg_ligand_reader **r)
{
    const char *paths[1] = {path};
    vsg_ligand_reader_options o = {.format = VSG_LIG_AUTO, .keep_text = 1, .max_atoms = 0};
    if (vsg_ligand_reader_open(paths, 1, &o, r) != VSG_OK) return 0;
    return vsg_ligand_reader_next(*r, lig) == 1 && lig->status == VSG_OK;
}

/* The PDBQT file src (one ligand) with its atom lines moved to xyz, in order, as a PDBQT writer
 * writes coordinates (%8.3f). */
static int write_pose(const char *src, int natoms, const double *xyz, const char *path)
{
    FILE *in = fopen(src, "r"), *f = fopen(path, "w");
    char line[512];
    int k = 0, ok = in && f;
    while (ok && fgets(line, sizeof line, in)) {
        size_t len = strlen(line);
        if (len >= 54 && (!strncmp(line, "ATOM  ", 6) || !strncmp(line, "HETATM", 6)) && k < natoms) {
            fprintf(f, "%.30s%8.3f%8.3f%8.3f%s", line, xyz[3 * k], xyz[3 * k + 1], xyz[3 * k + 2], line + 54);
            k++;
        } else {
            fputs(line, f);
        }
    }
    if (in) fclose(in);
    if (f) ok &= fclose(f) == 0;
    return ok && k == natoms;
}

static int gunzip_copy(const char *src, const char *dst)
{
    gzFile in = gzopen(src, "rb");
    FILE *out = fopen(dst, "wb");
    int ok = in && out, n;
    char buf[65536];
    while (ok && (n = gzread(in, buf, sizeof buf)) > 0) ok = fwrite(buf, 1, (size_t)n, out) == (size_t)n;
    if (in) gzclose(in);
    if (out) ok &= fclose(out) == 0;
    return ok;
}

/* autodock4 epdb of dir/pose.pdbqt on dir's plain maps: inter and internal energy (4 decimals). */
static int epdb(const char *dir, const char *pose, double *inter, double *intra)
{
    char path[1300], cmd[2600], line[512];
    snprintf(path, sizeof path, "%s/epdb.dpf", dir);
    FILE *f = fopen(path, "w");
    if (!f) return 0;
    fprintf(f, "autodock_parameter_version 4.2\noutlev 1\nligand_types A C HD OA\nfld protein.maps.fld\n"
               "map protein.A.map\nmap protein.C.map\nmap protein.HD.map\nmap protein.OA.map\n"
               "elecmap protein.e.map\ndesolvmap protein.d.map\nmove %s\nepdb\n", pose);
    fclose(f);
    snprintf(cmd, sizeof cmd, "cd '%s' && autodock4 -p epdb.dpf -l epdb.dlg > epdb.out 2>&1", dir);
    if (system(cmd) != 0) return 0;
    snprintf(path, sizeof path, "%s/epdb.dlg", dir);
    if (!(f = fopen(path, "r"))) return 0;
    int got = 0;
    double both = NAN;
    while (fgets(line, sizeof line, f)) {
        const char *eq = strchr(line, '=');
        if (!eq) continue;
        if (!strncmp(line, "Total Intermolecular Interaction Energy", 39)) *inter = atof(eq + 1), got |= 1;
        if (!strncmp(line, "Total Intermolecular + Intramolecular Energy", 44)) both = atof(eq + 1), got |= 2;
    }
    fclose(f);
    *intra = both - *inter;
    return got == 3;
}

static double rmsd_heavy(const vsg_ligand *lig, const double *a)
{
    double s = 0;
    int n = 0;
    for (int i = 0; i < lig->natoms; i++) {
        if (!strcmp(lig->atoms[i].ad_type, "HD") || !strcmp(lig->atoms[i].ad_type, "H")) continue;
        const double dx = a[3 * i] - lig->atoms[i].x, dy = a[3 * i + 1] - lig->atoms[i].y, dz = a[3 * i + 2] - lig->atoms[i].z;
        s += dx * dx + dy * dy + dz * dz, n++;
    }
    return sqrt(s / n);
}

int main(void)
{
    const char *shared = shared_data_dir();
    if (!shared) SKIP(VSG_NO_SHARED);
    char dir[1100], fld[1200], xpath[1200], rpath[1200];
    snprintf(dir, sizeof dir, "%s/adgpu_set42/2brt", shared);
    snprintf(fld, sizeof fld, "%s/protein.maps.fld", dir);
    snprintf(xpath, sizeof xpath, "%s/flex-xray.pdbqt", dir);
    snprintf(rpath, sizeof rpath, "%s/rand-0.pdbqt", dir);
    struct stat sb;
    if (stat(fld, &sb) != 0) SKIP("no adgpu_set42/2brt in the shared data");

    vsg_ad4_target *t = NULL;
    CHECK_STATUS(vsg_ad4_target_read(fld, NULL, &t), VSG_OK);
    vsg_ligand xray, rand0;
    vsg_ligand_init(&xray), vsg_ligand_init(&rand0);
    vsg_ligand_reader *rx = NULL, *rr = NULL;
    CHECK(read_one(xpath, &xray, &rx));
    CHECK(read_one(rpath, &rand0, &rr));
    if (check_failures || !t) return 1;
    const int n = xray.natoms;

    /* ---- gradient against finite differences ---- */
    double *x0 = malloc(sizeof(double) * 3 * (size_t)n), *g = malloc(sizeof(double) * 3 * (size_t)n);
    double *err = malloc(sizeof(double) * 3 * (size_t)n);
    /* each atom moved by its own few thousandths of an Å: off the grid planes, and no pair left at
     * a distance that is a multiple of 0.001 Å per axis (whose r² can sit exactly on a table bin's
     * edge, where the one-sided slopes differ) */
    for (int i = 0; i < n; i++)
        for (int d = 0; d < 3; d++)
            x0[3 * i + d] = (d == 0 ? xray.atoms[i].x : d == 1 ? xray.atoms[i].y : xray.atoms[i].z) +
                            0.004 * sin(1.7 * i + 2.3 * d + 0.5);
    const double e0 = vsg_dock_ad4_energy(t, &xray, x0, g);
    CHECK(isfinite(e0));
    int bad = 0;
    const double h = 1e-6;
    for (int c = 0; c < 3 * n; c++) {
        const double keep = x0[c];
        x0[c] = keep + h;
        const double ep = vsg_dock_ad4_energy(t, &xray, x0, NULL);
        x0[c] = keep - h;
        const double em = vsg_dock_ad4_energy(t, &xray, x0, NULL);
        x0[c] = keep;
        const double fd = (ep - em) / (2 * h);
        err[c] = fabs(fd - g[c]) / fmax(1.0, fabs(g[c]));
        if (err[c] > 1e-3) {
            bad++;
            printf("  gradient coordinate %d (atom %d): analytic %.6f, finite difference %.6f\n", c, c / 3 + 1, g[c], fd);
        }
    }
    for (int a = 1; a < 3 * n; a++) /* insertion sort for the median */
        for (int b = a; b > 0 && err[b] < err[b - 1]; b--) {
            double x = err[b];
            err[b] = err[b - 1], err[b - 1] = x;
        }
    printf("gradient: %d of %d coordinates off by > 1e-3 (relative), median error %.2g\n", bad, 3 * n, err[3 * n / 2]);
    CHECK(bad <= (3 * n) / 20);
    CHECK(err[3 * n / 2] < 1e-5);

    /* ---- the crystal pose: inter of the search energy = the exact score's inter ---- */
    vsg_ad4_score sx;
    CHECK_STATUS(vsg_ad4_score_pose(t, &xray, NULL, &sx), VSG_OK);
    double *xr = malloc(sizeof(double) * 3 * (size_t)n);
    for (int i = 0; i < n; i++) xr[3 * i] = xray.atoms[i].x, xr[3 * i + 1] = xray.atoms[i].y, xr[3 * i + 2] = xray.atoms[i].z;
    CHECK_NEAR(sx.torsional, 0.2983 * sx.torsdof, 1e-9);
    CHECK(sx.torsdof == 4);
    CHECK_NEAR(sx.total, sx.inter + sx.torsional, 1e-9);
    CHECK_NEAR(sx.inter, sx.vdw_hb_desolv + sx.elec, 1e-9);
    printf("crystal pose: total %.4f inter %.4f (vdW+Hb+desolv %.4f, elec %.4f) intra %.4f torsional %.4f\n", sx.total,
           sx.inter, sx.vdw_hb_desolv, sx.elec, sx.intra, sx.torsional);

    /* ---- a dock from rand-0 ---- */
    vsg_dock_params p;
    vsg_dock_params_default(&p);
    p.exhaustiveness = 32, p.steps = 60, p.seed = 7;
    vsg_dock_result r;
    vsg_ad4_score sc[9];
    CHECK_STATUS(vsg_dock_ad4_cpu(t, &rand0, &p, &r, sc), VSG_OK);
    CHECK(r.npose >= 1 && r.natoms == n);
    for (int k = 0; k < r.npose; k++) {
        CHECK_NEAR(r.pose[k].score.total, sc[k].total, 0);
        CHECK_NEAR(sc[k].total, sc[k].inter + sc[k].intra + sc[k].torsional - sc[k].unbound, 1e-9);
        CHECK_NEAR(sc[k].unbound, sc[k].intra, 0);
        CHECK(sc[k].outside == 0);
        if (k) CHECK(sc[k].total >= sc[k - 1].total);
        /* the returned terms are those of the returned (rounded) coordinates */
        vsg_ad4_score again;
        CHECK_STATUS(vsg_ad4_score_pose(t, &rand0, r.pose[k].xyz, &again), VSG_OK);
        CHECK_NEAR(again.total, sc[k].total, 1e-12);
        for (int c = 0; c < 3 * n; c++) CHECK_NEAR(r.pose[k].xyz[c], round(r.pose[k].xyz[c] * 1000) / 1000, 1e-9);
    }
    const double rms = r.npose ? rmsd_heavy(&xray, r.pose[0].xyz) : NAN;
    printf("dock from rand-0: %d poses, best %.4f kcal/mol (inter %.4f, intra %.4f), RMSD to the crystal %.2f A, %.2f s\n",
           r.npose, sc[0].total, sc[0].inter, sc[0].intra, rms, r.seconds);
    CHECK(sc[0].total < sx.total); /* the crystal pose clashes on these maps (its HD 21) */

    /* ---- autodock4's epdb of the written best pose and of the crystal pose ---- */
    if (system("command -v autodock4 > /dev/null 2>&1") != 0) {
        VSG_SKIP_PART("the autodock4 epdb comparison", "autodock4 not on PATH, apt-get install autodock");
    } else {
        const char *scr = scratch_path("dock_ad4");
        mkdir(scr, 0755);
        const char *types[] = {"A", "C", "HD", "OA", "e", "d"};
        char src[1400], dst[1400];
        int ok = 1;
        for (int i = 0; i < 6; i++) {
            snprintf(src, sizeof src, "%s/protein.%s.map.gz", dir, types[i]);
            snprintf(dst, sizeof dst, "%s/protein.%s.map", scr, types[i]);
            ok &= gunzip_copy(src, dst);
        }
        snprintf(src, sizeof src, "cp '%s' '%s/'", fld, scr);
        ok &= system(src) == 0;
        snprintf(dst, sizeof dst, "%s/best.pdbqt", scr);
        ok &= write_pose(rpath, n, r.pose[0].xyz, dst);
        snprintf(dst, sizeof dst, "%s/xray.pdbqt", scr);
        ok &= write_pose(xpath, n, xr, dst);
        CHECK(ok);
        double ai = NAN, aa = NAN, xi = NAN, xa = NAN;
        CHECK(epdb(scr, "best.pdbqt", &ai, &aa));
        CHECK(epdb(scr, "xray.pdbqt", &xi, &xa));
        printf("autodock4 epdb, best pose: inter %.4f intra %.4f (vsgrid %.4f, %.4f); crystal: inter %.4f intra %.4f "
               "(vsgrid %.4f, %.4f)\n", ai, aa, sc[0].inter, sc[0].intra, xi, xa, sx.inter, sx.intra);
        CHECK_NEAR(sc[0].inter, ai, 0.01);
        CHECK_NEAR(sc[0].intra, aa, 0.01);
        CHECK_NEAR(sx.inter, xi, 0.01);
        CHECK_NEAR(sx.intra, xa, 0.01);
    }
    vsg_dock_result_release(&r);

    /* ---- refusals ---- */
    vsg_ligand mol2 = rand0;
    mol2.format = VSG_LIG_MOL2;
    CHECK_STATUS(vsg_dock_ad4_cpu(t, &mol2, &p, &r, NULL), VSG_E_ARG);
    CHECK(r.npose == 0 && r.pose == NULL);
    CHECK_STATUS(vsg_dock_ad4_cpu(NULL, &rand0, &p, &r, NULL), VSG_E_ARG);
    CHECK(isnan(vsg_dock_ad4_energy(t, &mol2, xr, NULL)));

    free(x0), free(g), free(err), free(xr);
    vsg_ligand_release(&xray), vsg_ligand_release(&rand0);
    vsg_ligand_reader_close(rx), vsg_ligand_reader_close(rr);
    vsg_ad4_target_free(t);
    if (check_failures) {
        fprintf(stderr, "%d check(s) failed\n", check_failures);
        return 1;
    }
    printf("dock ad4: all checks passed\n");
    return 0;
}
