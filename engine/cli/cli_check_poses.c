/* cli_check_poses.c — `vsgrid check-poses POSES...`: PoseBusters' plausibility checks of every
 * pose record (vsg_pose_checker, ligands/checks/), one CSV row per record, so a record that
 * cannot be checked keeps its row. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/cli/cli.h"

int vsg_cmd_check_poses(int argc, char **argv);

static const char usage[] =
    "usage: vsgrid check-poses POSES... [--receptor REC] [--reference LIGAND]\n"
    "                          [--maps PREFIX | --box CX,CY,CZ,SX,SY,SZ] [-o CHECKS.csv] [--quiet]\n"
    "\n"
    "Checks every pose record (SDF/MOL2 molecule, PDBQT/PDB MODEL) as PoseBusters does (its\n"
    "'dock' configuration; hydrogens not checked):\n"
    "  bond_lengths          heavy-atom bonds within 25% of bounds d0 +- 0.01 A\n"
    "  bond_angles           1-3 distances within 25% of bounds d0 +- 0.04 A\n"
    "  aromatic_flatness     5- and 6-membered aromatic rings within 0.25 A of their plane\n"
    "  double_bond_flatness  C=C double bonds and their neighbours within 0.25 A of a plane\n"
    "  stereo                tetrahedral stereo centres keep their handedness\n"
    "  internal_clash        atoms 3+ bonds apart no closer than 70% of their lower bound\n"
    "                        (1-4: cis distance; 1-5, 1-6, farther: 0.7, 0.85, 1 x vdW sum)\n"
    "  receptor_clash        heavy-atom distances to the receptor >= 0.75 x vdW radii sum\n"
    "  near_receptor         some heavy atom within 5 A of the receptor\n"
    "  inside_box            every heavy atom inside the box\n"
    "d0 is the reference's own bond length or 1-3 distance: docking that keeps bond lengths and\n"
    "angles (vsgrid, vina) passes those checks by construction; other tools' poses are measured.\n"
    "  POSES            SDF, MOL2, PDBQT or PDB poses (plain or .gz), several files too\n"
    "  --reference LIG  the ligand as it was docked (its first record), whose geometry and\n"
    "                   stereo are the ideal; it must list the heavy atoms in the poses' order\n"
    "                   (the docking input, or any pose of the same run). Default: the first\n"
    "                   record of POSES (its own bonds and angles then pass by definition)\n"
    "  --receptor REC   PDBQT, PQR, MOL2 or PDB (prepared first) receptor: the receptor checks;\n"
    "                   without it they are not run (empty columns)\n"
    "  --maps PREFIX    the box of a Vina map set (vsgrid maps -o PREFIX)\n"
    "  --box C,S        the box: centre and edge lengths, A; without a box inside_box is not run\n"
    "  -o CHECKS.csv    the CSV (default: standard output)\n"
    "  --quiet          no summary on stderr\n"
    "CSV: index,name,bond_lengths,bond_length_ratio,bond_angles,angle_deviation_deg,\n"
    "aromatic_flatness,aromatic_ring_deviation,double_bond_flatness,double_bond_deviation,stereo,\n"
    "stereo_centres,inverted_centres,internal_clash,internal_min_ratio,receptor_clash,\n"
    "receptor_min_ratio,receptor_min_distance,near_receptor,inside_box,atoms_outside,valid,status\n"
    "(index 1-based over the records; a check is 1 pass, 0 fail, empty when not run; valid 1\n"
    "when no check failed; status ok, or why the record could not be checked, its other\n"
    "columns then empty and the reason on stderr).\n"
    "Exit 0 when every record was checked (valid or not); 2 usage; 3 an unreadable input or a\n"
    "record that could not be checked (e.g. other heavy atoms than the reference's).\n";

static int is_h(const vsg_lig_atom *a)
{
    return !strcmp(a->element, "H") || !strcmp(a->element, "D") || !strcmp(a->ad_type, "HD") ||
           !strcmp(a->ad_type, "H") || !strcmp(a->ad_type, "HS");
}

/* Heavy atoms in file order: pose heavy atom k is reference heavy atom k (elements must agree).
 * The hydrogens too when both list the same atoms. xyz gets NaN for atoms the pose lacks. */
static int map_pose(const vsg_ligand *ref, const vsg_ligand *p, double *xyz, char *why, size_t len)
{
    for (int i = 0; i < 3 * ref->natoms; i++) xyz[i] = NAN;
    int same = ref->natoms == p->natoms;
    for (int i = 0; same && i < ref->natoms; i++) same = !strcmp(ref->atoms[i].element, p->atoms[i].element);
    if (same) {
        for (int i = 0; i < ref->natoms; i++)
            xyz[3 * i] = p->atoms[i].x, xyz[3 * i + 1] = p->atoms[i].y, xyz[3 * i + 2] = p->atoms[i].z;
        return 1;
    }
    int i = 0, j = 0, n = 0;
    for (;;) {
        while (i < ref->natoms && is_h(&ref->atoms[i])) i++;
        while (j < p->natoms && is_h(&p->atoms[j])) j++;
        if (i == ref->natoms || j == p->natoms) break;
        if (strcmp(ref->atoms[i].element, p->atoms[j].element)) {
            snprintf(why, len, "heavy atom %d is %s in the reference, %s in the pose (atoms must be in the same order)",
                     n + 1, ref->atoms[i].element, p->atoms[j].element);
            return 0;
        }
        xyz[3 * i] = p->atoms[j].x, xyz[3 * i + 1] = p->atoms[j].y, xyz[3 * i + 2] = p->atoms[j].z;
        i++, j++, n++;
    }
    while (i < ref->natoms && is_h(&ref->atoms[i])) i++;
    while (j < p->natoms && is_h(&p->atoms[j])) j++;
    if (i != ref->natoms || j != p->natoms || !n) {
        int nr = 0, np = 0;
        for (int k = 0; k < ref->natoms; k++) nr += !is_h(&ref->atoms[k]);
        for (int k = 0; k < p->natoms; k++) np += !is_h(&p->atoms[k]);
        snprintf(why, len, "%d heavy atoms in the reference, %d in the pose", nr, np);
        return 0;
    }
    return 1;
}

static void put_state(FILE *f, int s)
{
    if (s == VSG_CHECK_PASS) fputs(",1", f);
    else if (s == VSG_CHECK_FAIL) fputs(",0", f);
    else fputs(",", f);
}

static void put_value(FILE *f, int s, double v, const char *fmt)
{
    if (s == VSG_CHECK_NOT_RUN || !isfinite(v)) { fputs(",", f); return; }
    fputc(',', f);
    fprintf(f, fmt, v);
}

/* The first record of path (the reference); exit code 0 or the failure's. */
static int read_first(const char *path, vsg_ligand *lig)
{
    vsg_ligand_reader_options ro = {.format = VSG_LIG_AUTO, .keep_text = 0, .max_atoms = 0};
    vsg_ligand_reader *rd = NULL;
    vsg_status st = vsg_ligand_reader_open(&path, 1, &ro, &rd);
    if (st != VSG_OK) return vsg_cli_fail(st);
    int rc = 0;
    if (vsg_ligand_reader_next(rd, lig) != 1) {
        fprintf(stderr, "vsgrid check-poses: %s: no record\n", path);
        rc = VSG_EXIT_INPUT;
    } else if (lig->status != VSG_OK) {
        fprintf(stderr, "vsgrid check-poses: %s\n", lig->message);
        rc = vsg_cli_exit_code(lig->status) == VSG_EXIT_USAGE ? VSG_EXIT_INPUT : vsg_cli_exit_code(lig->status);
    }
    vsg_ligand_reader_close(rd);
    return rc;
}

int vsg_cmd_check_poses(int argc, char **argv)
{
    const char *poses[64], *rec_path = NULL, *ref_path = NULL, *maps = NULL, *out_path = "-", *v;
    int nposes = 0, quiet = 0, have_box = 0;
    double box[6], lo[3], hi[3];
    vsg_args a = {argc, 1, argv, NULL, NULL};
    for (; a.i < argc; a.i++) {
        const char *arg = argv[a.i];
        if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) { fputs(usage, stdout); return 0; }
        if (vsg_arg_is(&a, "--quiet")) { quiet = 1; continue; }
        if (vsg_arg_is(&a, "--receptor")) { if (!(rec_path = vsg_arg_value(&a, "check-poses"))) return VSG_EXIT_USAGE; continue; }
        if (vsg_arg_is(&a, "--reference")) { if (!(ref_path = vsg_arg_value(&a, "check-poses"))) return VSG_EXIT_USAGE; continue; }
        if (vsg_arg_is(&a, "--maps")) { if (!(maps = vsg_arg_value(&a, "check-poses"))) return VSG_EXIT_USAGE; continue; }
        if (vsg_arg_is(&a, "-o")) { if (!(out_path = vsg_arg_value(&a, "check-poses"))) return VSG_EXIT_USAGE; continue; }
        if (vsg_arg_is(&a, "--box")) {
            if (!(v = vsg_arg_value(&a, "check-poses"))) return VSG_EXIT_USAGE;
            if (!vsg_parse_list(v, box, 6) || !(box[3] > 0 && box[4] > 0 && box[5] > 0))
                return vsg_cli_usage_error("check-poses", "--box: expected CX,CY,CZ,SX,SY,SZ with edge lengths > 0, got '%s'", v);
            have_box = 1;
            continue;
        }
        if (arg[0] == '-' && arg[1]) return vsg_cli_usage_error("check-poses", "unknown option %s", arg);
        if (nposes == (int)(sizeof poses / sizeof poses[0]))
            return vsg_cli_usage_error("check-poses", "at most %d POSES files", (int)(sizeof poses / sizeof poses[0]));
        poses[nposes++] = arg;
    }
    if (!nposes) return vsg_cli_usage_error("check-poses", "needs POSES");
    if (have_box && maps) return vsg_cli_usage_error("check-poses", "--box and --maps both give the box: name one");
    if (strcmp(out_path, "-") && vsg_cli_check_output("check-poses", out_path)) return VSG_EXIT_FAILURE;

    int rc = VSG_EXIT_OK;
    vsg_molecule *rec = NULL;
    vsg_pose_checker *chk = NULL;
    vsg_ligand_reader *rd = NULL;
    vsg_ligand ref, lig;
    vsg_ligand_init(&ref);
    vsg_ligand_init(&lig);
    double *xyz = NULL;
    FILE *f = NULL;
    vsg_status st;
    if (maps) { /* the map set's box: Vina's, else Vinardo's */
        vsg_vina_target *t = NULL;
        vsg_vina_box b;
        st = vsg_vina_target_maps(maps, VSG_VINA_SCORING_VINA, &t);
        if (st == VSG_E_DATA) st = vsg_vina_target_maps(maps, VSG_VINA_SCORING_VINARDO, &t);
        if (st != VSG_OK) { rc = vsg_cli_fail(st); goto done; }
        vsg_vina_target_is_maps(t, &b);
        vsg_vina_target_free(t);
        for (int k = 0; k < 3; k++) box[k] = b.center[k], box[3 + k] = b.size[k];
        have_box = 1;
    }
    for (int k = 0; have_box && k < 3; k++) lo[k] = box[k] - box[3 + k] / 2, hi[k] = box[k] + box[3 + k] / 2;
    if (rec_path && (st = vsg_cli_read_receptor(rec_path, VSG_PREP_PDBQT, 1, &rec)) != VSG_OK) {
        rc = vsg_cli_fail(st);
        goto done;
    }
    if ((rc = read_first(ref_path ? ref_path : poses[0], &ref)) != 0) goto done;
    if ((st = vsg_pose_checker_new(&ref, rec, &chk)) != VSG_OK) {
        fprintf(stderr, "vsgrid check-poses: %s: %s\n", ref_path ? ref_path : poses[0], vsg_last_error());
        rc = vsg_cli_exit_code(st) == VSG_EXIT_USAGE ? VSG_EXIT_INPUT : vsg_cli_exit_code(st);
        goto done;
    }
    xyz = malloc((size_t)ref.natoms * 3 * sizeof *xyz);
    vsg_ligand_reader_options ro = {.format = VSG_LIG_AUTO, .keep_text = 0, .max_atoms = 0};
    if (!xyz) { rc = vsg_cli_fail(vsg_fail(VSG_E_NOMEM, "out of memory")); goto done; }
    if ((st = vsg_ligand_reader_open(poses, nposes, &ro, &rd)) != VSG_OK) { rc = vsg_cli_fail(st); goto done; }
    f = strcmp(out_path, "-") ? fopen(out_path, "w") : stdout;
    if (!f) { fprintf(stderr, "vsgrid check-poses: cannot write %s\n", out_path); rc = VSG_EXIT_FAILURE; goto done; }
    fputs("index,name,bond_lengths,bond_length_ratio,bond_angles,angle_deviation_deg,aromatic_flatness,"
          "aromatic_ring_deviation,double_bond_flatness,double_bond_deviation,stereo,stereo_centres,inverted_centres,"
          "internal_clash,internal_min_ratio,receptor_clash,receptor_min_ratio,receptor_min_distance,near_receptor,"
          "inside_box,atoms_outside,valid,status\n",
          f);
    long records = 0, failed = 0, valid = 0, fails[9] = {0};
    static const char *const names[9] = {"bond_lengths", "bond_angles", "aromatic_flatness", "double_bond_flatness",
                                         "stereo", "internal_clash", "receptor_clash", "near_receptor", "inside_box"};
    while (vsg_ligand_reader_next(rd, &lig) == 1) {
        records++;
        char why[300] = "";
        const char *code = "ok";
        vsg_pose_check_result r;
        int ok = 0;
        if (lig.status != VSG_OK) snprintf(why, sizeof why, "%s", lig.message), code = lig.code;
        else if (!map_pose(&ref, &lig, xyz, why, sizeof why)) code = "mismatch";
        else ok = vsg_pose_checker_run(chk, xyz, have_box ? lo : NULL, have_box ? hi : NULL, &r) == VSG_OK;
        fprintf(f, "%ld,", records);
        vsg_csv_field(f, lig.name);
        if (!ok) {
            failed++;
            fprintf(f, ",,,,,,,,,,,,,,,,,,,,,%s\n", code);
            fprintf(stderr, "vsgrid check-poses: %s record %ld: %s\n", lig.source ? lig.source : "", lig.record, why);
            continue;
        }
        put_state(f, r.bond_lengths), put_value(f, r.bond_lengths, r.bond_ratio, "%.3f");
        put_state(f, r.bond_angles), put_value(f, r.bond_angles, r.angle_deviation, "%.2f");
        put_state(f, r.aromatic_flatness), put_value(f, r.aromatic_flatness, r.ring_deviation, "%.3f");
        put_state(f, r.double_bond_flatness), put_value(f, r.double_bond_flatness, r.double_bond_deviation, "%.3f");
        put_state(f, r.stereo), fprintf(f, ",%d,%d", r.ncentres, r.inverted);
        put_state(f, r.internal_clash), put_value(f, r.internal_clash, r.internal_ratio, "%.3f");
        put_state(f, r.receptor_clash), put_value(f, r.receptor_clash, r.receptor_ratio, "%.3f");
        put_value(f, r.receptor_clash, r.receptor_distance, "%.3f"), put_state(f, r.near_receptor);
        put_state(f, r.inside_box);
        if (r.inside_box == VSG_CHECK_NOT_RUN) fputs(",", f);
        else fprintf(f, ",%d", r.atoms_outside);
        fprintf(f, ",%d,ok\n", r.valid);
        int s[9] = {r.bond_lengths, r.bond_angles, r.aromatic_flatness, r.double_bond_flatness, r.stereo,
                    r.internal_clash, r.receptor_clash, r.near_receptor, r.inside_box};
        for (int k = 0; k < 9; k++) fails[k] += s[k] == VSG_CHECK_FAIL;
        valid += r.valid;
    }
    if (fflush(f) != 0 || ferror(f)) { fprintf(stderr, "vsgrid check-poses: error writing %s\n", out_path); rc = VSG_EXIT_FAILURE; goto done; }
    if (!records) { fprintf(stderr, "vsgrid check-poses: no records in POSES\n"); rc = VSG_EXIT_INPUT; goto done; }
    if (!quiet) {
        long checked = records - failed;
        fprintf(stderr, "check-poses: %ld poses checked, %ld valid (%.1f%%)", checked, valid,
                checked ? 100.0 * (double)valid / (double)checked : 0.0);
        for (int k = 0; k < 9; k++)
            if (fails[k]) fprintf(stderr, "; %s failed %ld", names[k], fails[k]);
        fprintf(stderr, "%s%s\n", rec ? "" : "; no receptor (--receptor)", have_box ? "" : "; no box (--box, --maps)");
    }
    if (failed) {
        fprintf(stderr, "vsgrid check-poses: %ld of %ld records could not be checked\n", failed, records);
        rc = VSG_EXIT_INPUT;
    }
done:
    if (f && f != stdout) fclose(f);
    free(xyz);
    vsg_ligand_reader_close(rd);
    vsg_pose_checker_free(chk);
    vsg_molecule_free(rec);
    vsg_ligand_release(&ref);
    vsg_ligand_release(&lig);
    return rc;
}
