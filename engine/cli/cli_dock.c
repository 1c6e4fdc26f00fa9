/* cli_dock.c — `vsgrid dock PREFIX LIGAND -o OUT.pdbqt`: one ligand docked into a Vina or
 * Vinardo map set by vsg_dock_batch (the GPU search when there is a GPU, else its CPU twin), its
 * best poses written as PDBQT models that `vina --score_only` rescores: a PDBQT input's own lines
 * (ROOT/BRANCH tree, atom lines) with the pose's coordinates; an SDF/MOL2 input as the model the
 * search moved (AutoDock types, non-polar hydrogens merged) with the tree it used. With --scoring
 * ad4, the AutoDock4 function on an AutoGrid map set (vsg_dock_ad4_cpu, CPU). */
#define _POSIX_C_SOURCE 200809L /* access */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/cli/cli.h"
#include "engine/cli/dock_options.h"
#include "grids/base/vsgrid.h"

#define DEFAULT_SEARCH "detail"

static const char usage[] =
    "usage: vsgrid dock PREFIX LIGAND.pdbqt|.sdf|.mol2 [--scoring vina|vinardo|ad4] [--search S]\n"
    "                   [--devices D] [--seed N] [--exhaustiveness N] [--steps N] [--poses K]\n"
    "                   [--min-rmsd A] [--from-input | --local-only] [--threads N] [--csv OUT.csv]\n"
    "                   [--json FILE] [--receptor REC.pdbqt]\n"
    "                   [--record N] [--quiet] -o OUT.pdbqt|OUT.sdf[.gz]\n"
    "\n"
    "Docks one record of LIGAND (its only one, or --record N) into the Vina map set PREFIX.<XS type>.map (`vsgrid maps\n"
    "REC.pdbqt --scoring vina --around LIG -o PREFIX` or `vina --write_maps PREFIX`) by AutoDock\n"
    "Vina 1.2's method: Monte Carlo chains of a random change of position, orientation or one\n"
    "torsion, BFGS on the analytic gradient of the maps and the ligand's internal pairs,\n"
    "Metropolis acceptance; on the GPU when there is one (a warp a chain), else on the CPU. Bond\n"
    "lengths, angles and rings stay as in the input.\n"
    "  --scoring S        vina (default) or vinardo: must be what the maps were made with; ad4:\n"
    "                     the AutoDock4 function on an AutoGrid map set (PREFIX.maps.fld, from\n"
    "                     `vsgrid maps REC.pdbqt --scoring ad4` or autogrid4), a PDBQT ligand, on\n"
    "                     the CPU: the same search over autodock4's inter + intra energy, each pose\n"
    "                     scored as autodock4's epdb scores it (score = Estimated Free Energy of\n"
    "                     Binding = inter + torsional, unbound model 'same as bound')\n"
    "  --poses K          poses written at most (default 9), best first, none within --min-rmsd\n"
    "                     (default 1 A, heavy atoms) of a better one\n"
    "  --record N         the record of a multi-record LIGAND to dock (1-based); without it a\n"
    "                     LIGAND of several records is refused: `vsgrid screen PREFIX LIGAND\n"
    "                     --scoring vina --placement flexible` docks them all\n"
    "  --from-input       start every chain from the input pose instead of a random one\n"
    "  --local-only       no search: the input pose minimised in place (vina --local_only), one\n"
    "                     pose, on the CPU; with the crystal pose, tells a scoring function's\n"
    "                     miss (its minimum scores worse than the docked pose) from a search's\n"
    "  --receptor REC     the receptor the maps were made from (PDBQT, or a PDB to prepare): the\n"
    "                     final poses are refined on its atoms (BFGS, no map interpolation) and\n"
    "                     scored there, as vina --receptor does after its search (unless\n"
    "                     --no_refine); without it, poses are refined and scored on the maps\n"
    "                     (vina --maps). Costs a few ms a pose on the CPU (docs/PERFORMANCE.md)\n"
    "  --threads N        OpenMP threads (CPU search; default all)\n"
    "  -o OUT.pdbqt       the poses as MODEL/ENDMDL blocks with `REMARK VINA RESULT: score\n"
    "                     rmsd rmsd` (kcal/mol; heavy-atom RMSD to the best pose, twice) and the\n"
    "                     terms, best first; the best pose's score = what `vina --score_only`\n"
    "                     gives it (on the receptor's atoms with --receptor), the others' as\n"
    "                     vina 1.2.4+ writes them: (inter + intra - the best pose's intra) /\n"
    "                     (1 + 0.0585 torsions), so the scores are in order\n"
    "  -o OUT.sdf         the poses as the input molecule (all its atoms and bonds, merged\n"
    "                     hydrogens moved with their heavy atom, M  CHG) with the items\n"
    "                     vsgrid_score_kcal_mol and its terms, vsgrid_pose, atom.dprop.PartialCharge,\n"
    "                     atom.prop.AutoDockType, vsgrid_posebusters_valid and _failed (docs/FORMATS.md)\n"
    "  --csv OUT.csv      one row a pose: pose,score_kcal_mol,inter_kcal_mol,intra_kcal_mol,\n"
    "                     torsional_kcal_mol,search_energy_kcal_mol,num_tors,rmsd_best_A,rmsd_input_A,\n"
    "                     posebusters_valid,posebusters_failed (PoseBusters' checks of the pose:\n"
    "                     1/0 and the failed checks' names, as `vsgrid check-poses`; the receptor\n"
    "                     clash checks run with --receptor)\n"
    "                     (rmsd_input: to the input coordinates, same atom order, no symmetry)\n"
    "  --json FILE        a summary: poses, scores, chains, steps, evaluations, seconds, device\n"
    "  --quiet            no summary line\n"
    "The search (default --search " DEFAULT_SEARCH "):\n";

static const char usage_end[] =
    "A result that cannot mean what it says is refused, with nothing written: maps of another\n"
    "scoring function than --scoring (vsgrid maps records it), maps that are 0 everywhere, a best\n"
    "pose with atoms outside the maps' box (a box too small: its score would be Vina's penalty)\n"
    "or touching no receptor atom (a box beyond the receptor).\n"
    "Exit codes: 0 ok, 2 usage (an -o that is not .pdbqt or .sdf, a multi-record LIGAND without\n"
    "--record), 3 bad input (no map set, maps of another function or all 0, a ligand atom\n"
    "without a map, a malformed torsion tree), 4 memory, 8 the best pose outside the box or\n"
    "away from the receptor, 1 other failure (a GPU asked for and missing).\n";

/* --scoring ad4: one PDBQT record docked on an AutoGrid map set by vsg_dock_ad4_cpu (the CPU
 * only for now), its poses written over the record's own lines with autodock4's terms. */
/* The record dock docks: record N (--record), or the file's only one (a second is refused: which
 * was meant?); both docking functions read it here. VSG_EXIT_OK, or the exit code after a message. */
/* --ph, for a SMILES ligand: both docking paths read the ligand with it */
static vsg_smiles_options dock_smiles;

static int read_record(vsg_ligand_reader *rd, const char *ligpath, const char *prefix, long record, vsg_ligand *lig)
{
    long got = 0;
    int more;
    while ((more = vsg_ligand_reader_next(rd, lig)) == 1 && ++got < (record ? record : 1)) {}
    if (more != 1) {
        if (record) fprintf(stderr, "vsgrid dock: %s: no record %ld (the file has %ld)\n", ligpath, record, got);
        else fprintf(stderr, "vsgrid dock: %s: no record\n", ligpath);
        return record ? VSG_EXIT_USAGE : VSG_EXIT_INPUT;
    }
    if (!record) { /* a second record: which one was meant? */
        vsg_ligand next;
        vsg_ligand_init(&next);
        more = vsg_ligand_reader_next(rd, &next);
        vsg_ligand_release(&next);
        if (more == 1) {
            fprintf(stderr, "vsgrid dock: %s holds more than one record: dock docks one; choose it with --record N, "
                            "or dock them all with `vsgrid screen %s %s --scoring vina --placement flexible "
                            "--poses-out POSES.sdf -o RESULTS.csv`\n", ligpath, prefix, ligpath);
            return VSG_EXIT_USAGE;
        }
    }
    if (lig->status != VSG_OK) {
        fprintf(stderr, "vsgrid dock: %s\n", lig->message);
        return vsg_cli_exit_code(lig->status);
    }
    return VSG_EXIT_OK;
}

static int dock_ad4(const char *prefix, const char *ligpath, const char *outpath, const char *csvpath, long record,
                    int local_only, const char *recpath, int sdf, vsg_device device, const vsg_dock_params *p, int quiet)
{
    if (device == VSG_DEVICE_GPU)
        return vsg_cli_usage_error("dock", "--scoring ad4 runs on the CPU only (the GPU search takes the Vina and "
                                   "Vinardo functions): use --devices cpu or all");
    if (local_only) return vsg_cli_usage_error("dock", "--local-only is not available with --scoring ad4");
    if (recpath) return vsg_cli_usage_error("dock", "--receptor is not available with --scoring ad4 (poses are scored "
                                            "on the AutoGrid maps, as autodock4 scores them)");
    if (sdf) return vsg_cli_usage_error("dock", "--scoring ad4 writes PDBQT (-o OUT.pdbqt), the input's own lines");
    if (device != VSG_DEVICE_CPU && vsg_gpu_count() > 0 && !quiet)
        fprintf(stderr, "vsgrid dock: --scoring ad4 runs on the CPU (no GPU search for the AutoDock4 function yet)\n");
    char fld[4096];
    const size_t len = strlen(prefix);
    snprintf(fld, sizeof fld, "%s%s", prefix, len > 4 && !strcmp(prefix + len - 4, ".fld") ? "" : ".maps.fld");
    vsg_ad4_target *t = NULL;
    char vina_map[4200];
    snprintf(vina_map, sizeof vina_map, "%s.C_H.map", prefix);
    if (access(fld, F_OK) != 0 && access(vina_map, F_OK) == 0) /* the common slip: a Vina map set given to the AD4 function */
        return vsg_cli_fail(vsg_fail(VSG_E_FORMAT, "%s is a Vina map set; --scoring ad4 docks on an AutoDock4 map set: "
                                     "'vsgrid maps REC.pdbqt --scoring ad4 --around LIG -o PREFIX' makes PREFIX.maps.fld", prefix));
    vsg_status st = vsg_ad4_target_read(fld, NULL, &t);
    if (st != VSG_OK) return vsg_cli_fail(st);
    const char *paths[1] = {ligpath};
    vsg_ligand_reader_options ro = {.format = VSG_LIG_AUTO, .keep_text = 1, .max_atoms = 0, .smiles = dock_smiles};
    vsg_ligand_reader *rd = NULL;
    vsg_ligand lig;
    vsg_ligand_init(&lig);
    vsg_dock_result res;
    memset(&res, 0, sizeof res);
    vsg_vina_ligand *vl = NULL;
    vsg_ad4_score *sc = calloc((size_t)p->poses + 1, sizeof *sc);
    FILE *f = NULL, *csv = NULL;
    int rc = VSG_EXIT_OK;
    if (!sc) { rc = vsg_cli_fail(vsg_fail(VSG_E_NOMEM, "dock: out of memory")); goto done; }
    if ((st = vsg_ligand_reader_open(paths, 1, &ro, &rd)) != VSG_OK) { rc = vsg_cli_fail(st); goto done; }
    if ((rc = read_record(rd, ligpath, prefix, record, &lig)) != VSG_EXIT_OK) goto done;
    if ((st = vsg_vina_ligand_new(&lig, &vl)) != VSG_OK) { rc = vsg_cli_fail(st); goto done; }
    if ((st = vsg_dock_ad4_cpu(t, &lig, p, &res, sc)) != VSG_OK) { rc = vsg_cli_fail(st); goto done; }
    /* never a meaningless best score (the Vina path's rule, vsg_dock_pose_check): outside the grid,
     * repulsive (no room in the box or the pocket), or touching no receptor atom */
    if (sc[0].outside || !(sc[0].inter < 0)) {
        fprintf(stderr, "vsgrid dock: %s: best %.3f kcal/mol means nothing: %s; make AD4 maps over the pocket with room "
                        "for the ligand (vsgrid maps REC --scoring ad4 --around LIG)\n", ligpath, sc[0].total,
                sc[0].outside ? "atoms lie outside the maps' grid"
                : sc[0].inter > 0 ? "the pose clashes with the receptor (intermolecular energy repulsive): the ligand "
                                    "does not fit the box or the pocket"
                                  : "the pose touches no receptor atom");
        rc = VSG_EXIT_NOTHING_SCORED;
        goto done;
    }
    for (int k = 1; k < res.npose; k++) /* later poses that mean nothing are not results either */
        if (sc[k].outside || !(sc[k].inter < 0)) {
            for (int j = k; j < res.npose; j++) free(res.pose[j].xyz), res.pose[j].xyz = NULL;
            res.npose = k;
            break;
        }
    if (!(f = vsg_fopen_out(outpath, "w"))) { fprintf(stderr, "vsgrid dock: cannot write %s\n", outpath); rc = VSG_EXIT_FAILURE; goto done; }
    if (csvpath && !(csv = fopen(csvpath, "w"))) { fprintf(stderr, "vsgrid dock: cannot write %s\n", csvpath); rc = VSG_EXIT_FAILURE; goto done; }
    if (csv) fprintf(csv, "pose,score_kcal_mol,inter_kcal_mol,vdw_hb_desolv_kcal_mol,elec_kcal_mol,intra_kcal_mol,"
                          "torsional_kcal_mol,unbound_kcal_mol,search_energy_kcal_mol,torsdof,rmsd_best_A,rmsd_input_A\n");
    for (int k = 0; k < res.npose; k++) {
        const vsg_dock_pose *ps = &res.pose[k];
        const double rb = vsg_pose_rmsd_heavy(&res, vl, ps->xyz, res.pose[0].xyz);
        if (!vsg_pose_write_pdbqt(f, &lig, &res, k, k + 1, rb, -1)) {
            fprintf(stderr, "vsgrid dock: %s: the record's atom lines do not match its model\n", ligpath);
            rc = VSG_EXIT_FAILURE;
            goto done;
        }
        if (csv)
            fprintf(csv, "%d,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%d,%.3f,%.3f\n", k + 1, sc[k].total, sc[k].inter,
                    sc[k].vdw_hb_desolv, sc[k].elec, sc[k].intra, sc[k].torsional, sc[k].unbound, ps->energy,
                    sc[k].torsdof, rb, ps->rmsd_input);
    }
    if (ferror(f) || (csv && ferror(csv))) { fprintf(stderr, "vsgrid dock: write error\n"); rc = VSG_EXIT_FAILURE; goto done; }
    if (!quiet)
        printf("dock: %s: %d poses, best %.3f kcal/mol (AutoDock4: inter %.3f, intra %.3f, torsional %.3f), %d torsions, "
               "%d chains x %d steps, %ld evaluations, %.2f s on the CPU\n",
               ligpath, res.npose, sc[0].total, sc[0].inter, sc[0].intra, sc[0].torsional, res.rotors, res.chains,
               res.steps, res.evaluations, res.seconds);
done:
    if (f && fclose(f) && rc == VSG_EXIT_OK) rc = VSG_EXIT_FAILURE;
    if (csv && fclose(csv) && rc == VSG_EXIT_OK) rc = VSG_EXIT_FAILURE;
    free(sc);
    vsg_dock_result_release(&res);
    vsg_vina_ligand_free(vl);
    vsg_ligand_release(&lig);
    if (rd) vsg_ligand_reader_close(rd);
    vsg_ad4_target_free(t);
    return rc;
}

/* PoseBusters' checks of pose k (vsg_pose_checker_run on the record's atoms, those the model merged
 * NaN; the maps' box): 1 when valid; failed gets the names of the checks that failed, ';'-joined. */
static int check_pose(const vsg_pose_checker *c, const vsg_vina_target *t, const vsg_dock_result *r, int k, int natoms,
                      double *xyz, char *failed, size_t len)
{
    failed[0] = '\0';
    for (int i = 0; i < 3 * natoms; i++) xyz[i] = NAN;
    for (int m = 0; m < r->natoms; m++) {
        const int a = r->record_atom ? r->record_atom[m] : m;
        if (a >= 0 && a < natoms)
            for (int q = 0; q < 3; q++) xyz[3 * a + q] = r->pose[k].xyz[3 * m + q];
    }
    vsg_vina_box b;
    double lo[3], hi[3];
    vsg_vina_target_is_maps(t, &b);
    for (int d = 0; d < 3; d++) lo[d] = b.center[d] - b.size[d] / 2, hi[d] = b.center[d] + b.size[d] / 2;
    vsg_pose_check_result pc;
    if (vsg_pose_checker_run(c, xyz, lo, hi, &pc) != VSG_OK) {
        snprintf(failed, len, "not_run");
        return 0;
    }
    const struct { const char *name; int state; } checks[] = {
        {"bond_lengths", pc.bond_lengths}, {"bond_angles", pc.bond_angles}, {"aromatic_flatness", pc.aromatic_flatness},
        {"double_bond_flatness", pc.double_bond_flatness}, {"stereo", pc.stereo}, {"internal_clash", pc.internal_clash},
        {"receptor_clash", pc.receptor_clash}, {"near_receptor", pc.near_receptor}, {"inside_box", pc.inside_box}};
    size_t used = 0;
    for (size_t i = 0; i < sizeof checks / sizeof checks[0]; i++)
        if (checks[i].state == VSG_CHECK_FAIL && used + strlen(checks[i].name) + 2 < len)
            used += (size_t)snprintf(failed + used, len - used, "%s%s", used ? ";" : "", checks[i].name);
    return pc.valid;
}

/* The presets below `thorough` were tuned on pocket-sized boxes; in a box several times the
 * ligand's own (--around's: its heavy atoms' reach from their centre + 4 Å a side), such as
 * AutoDock-GPU's 30 Å cubes, they miss poses vina finds (docs/PERFORMANCE.md, issue 28): say so. */
static void warn_large_box(const vsg_vina_target *t, const vsg_ligand *lig)
{
    double c[3] = {0, 0, 0}, reach = 0;
    int n = 0;
    for (int i = 0; i < lig->natoms; i++) {
        if (!strcmp(lig->atoms[i].element, "H")) continue;
        c[0] += lig->atoms[i].x, c[1] += lig->atoms[i].y, c[2] += lig->atoms[i].z, n++;
    }
    if (!n) return;
    for (int d = 0; d < 3; d++) c[d] /= n;
    for (int i = 0; i < lig->natoms; i++) {
        if (!strcmp(lig->atoms[i].element, "H")) continue;
        const double dx = lig->atoms[i].x - c[0], dy = lig->atoms[i].y - c[1], dz = lig->atoms[i].z - c[2];
        const double r = sqrt(dx * dx + dy * dy + dz * dz);
        if (r > reach) reach = r;
    }
    vsg_vina_box b;
    vsg_vina_target_is_maps(t, &b);
    const double side = 2 * (reach + 4), ratio = b.size[0] * b.size[1] * b.size[2] / (side * side * side);
    if (ratio > 2.0)
        vsg_warn("the maps' box (%.1f x %.1f x %.1f A) is %.1f times the ligand's own box (%.0f A a side): the search "
                 "presets fast, balanced and detail were tuned on pocket boxes and miss poses in boxes this large; "
                 "--search thorough (16 x detail's effort) re-docks as often as vina there, or make maps around the "
                 "pocket (vsgrid maps REC --around LIG)",
                 b.size[0], b.size[1], b.size[2], ratio, side);
}

int vsg_cmd_dock(int argc, char **argv)
{
    const char *prefix = NULL, *ligpath = NULL, *outpath = NULL, *csvpath = NULL, *json = NULL, *recpath = NULL, *v;
    vsg_vina_scoring sf = VSG_VINA_SCORING_VINA;
    int ad4 = 0; /* --scoring ad4: vsg_dock_ad4_cpu on an AutoGrid map set */
    vsg_dock_params p;
    vsg_dock_params_default(&p);
    int quiet = 0;
    long record = 0; /* --record N; 0: the file must hold one */
    int local_only = 0;
    vsg_cli_dock_opts dopt;
    vsg_cli_dock_opts_init(&dopt, DEFAULT_SEARCH);
    vsg_args a = {argc, 1, argv, NULL, NULL};
    for (; a.i < argc; a.i++) {
        const char *arg = argv[a.i];
        double x;
        if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
            fputs(usage, stdout), fputs(vsg_cli_dock_options_help, stdout), fputs(usage_end, stdout);
            return 0;
        }
        const int dr = vsg_cli_dock_option(&a, "dock", &dopt);
        if (dr < 0) return VSG_EXIT_USAGE;
        if (dr > 0) continue;
        if (vsg_arg_is(&a, "--scoring")) {
            if (!(v = vsg_arg_value(&a, "dock"))) return VSG_EXIT_USAGE;
            ad4 = !strcmp(v, "ad4");
            if (!strcmp(v, "vina")) sf = VSG_VINA_SCORING_VINA;
            else if (!strcmp(v, "vinardo")) sf = VSG_VINA_SCORING_VINARDO;
            else if (!ad4) return vsg_cli_usage_error("dock", "--scoring: '%s' is not vina, vinardo or ad4", v);
            continue;
        }
        int *ip = vsg_arg_is(&a, "--poses") ? &p.poses : vsg_arg_is(&a, "--threads") ? &p.threads : NULL;
        if (ip) {
            const char *name = a.name;
            if (!(v = vsg_arg_value(&a, "dock"))) return VSG_EXIT_USAGE;
            if (!vsg_parse_number(v, &x) || x != floor(x) || x < 1 || x > 1e6)
                return vsg_cli_usage_error("dock", "%s: '%s' is not an integer in 1..1000000", name, v);
            *ip = (int)x;
            continue;
        }
        if (vsg_arg_is(&a, "--min-rmsd")) {
            if (!(v = vsg_arg_value(&a, "dock"))) return VSG_EXIT_USAGE;
            if (!vsg_parse_number(v, &p.min_rmsd) || !(p.min_rmsd >= 0) || !isfinite(p.min_rmsd))
                return vsg_cli_usage_error("dock", "--min-rmsd: '%s' is not a number >= 0", v);
            continue;
        }
        if (vsg_arg_is(&a, "--record")) {
            if (!(v = vsg_arg_value(&a, "dock"))) return VSG_EXIT_USAGE;
            if (!vsg_parse_number(v, &x) || x != floor(x) || x < 1 || x > 1e12)
                return vsg_cli_usage_error("dock", "--record: '%s' is not a record number (1, 2, ...)", v);
            record = (long)x;
            continue;
        }
        if (vsg_arg_is(&a, "--from-input")) { p.random_start = 0; continue; }
        if (vsg_arg_is(&a, "--local-only")) { local_only = 1; continue; }
        if (vsg_arg_is(&a, "--quiet")) { quiet = 1; continue; }
        if (vsg_arg_is(&a, "--csv")) { if (!(csvpath = vsg_arg_value(&a, "dock"))) return VSG_EXIT_USAGE; continue; }
        if (vsg_arg_is(&a, "--json")) { if (!(json = vsg_arg_value(&a, "dock"))) return VSG_EXIT_USAGE; continue; }
        if (vsg_arg_is(&a, "--receptor")) { if (!(recpath = vsg_arg_value(&a, "dock"))) return VSG_EXIT_USAGE; continue; }
        if (vsg_arg_is(&a, "-o") || vsg_arg_is(&a, "--output")) {
            if (!(outpath = vsg_arg_value(&a, "dock"))) return VSG_EXIT_USAGE;
            continue;
        }
        if (arg[0] == '-' && arg[1]) return vsg_cli_usage_error("dock", "unknown option '%s'", arg);
        if (!prefix) prefix = arg;
        else if (!ligpath) ligpath = arg;
        else return vsg_cli_usage_error("dock", "one map set and one ligand file ('%s' is a third)", arg);
    }
    if (!prefix || !ligpath) return vsg_cli_usage_error("dock", "needs a map set PREFIX and a LIGAND file");
    if (!outpath) return vsg_cli_usage_error("dock", "needs -o OUT.pdbqt");
    /* the extension says what is written: PDBQT text in a .mol2 opens as garbage elsewhere */
    if (vsg_pose_path_kind(outpath) < 0)
        return vsg_cli_usage_error("dock", "-o '%s': dock writes PDBQT (.pdbqt) or SDF (.sdf), gzipped when the "
                                   "name ends in .gz; name the file so", outpath);
    const int sdf = vsg_pose_path_kind(outpath) == 1;
    vsg_pose_sdf *sm = NULL;
    vsg_device device = VSG_DEVICE_AUTO;
    if (vsg_cli_dock_apply("dock", &dopt, &p, &device)) return VSG_EXIT_USAGE;
    dock_smiles = dopt.smiles;
    if (ad4) return dock_ad4(prefix, ligpath, outpath, csvpath, record, local_only, recpath, sdf, device, &p, quiet);

    vsg_vina_target *t = NULL;
    vsg_molecule *rec = NULL; /* --receptor: refinement, and the pose checks' clashes */
    vsg_status st = vsg_cli_receptor_not_grid(prefix);
    if (st == VSG_OK) st = vsg_vina_target_maps(prefix, sf, &t);
    if (st == VSG_OK && recpath) { /* Vina's final refinement on the receptor's atoms */
        st = vsg_cli_read_receptor(recpath, VSG_PREP_PDBQT, quiet, &rec);
        if (st == VSG_OK) st = vsg_vina_target_add_receptor(t, rec);
    }
    if (st != VSG_OK) {
        vsg_molecule_free(rec);
        vsg_vina_target_free(t);
        return vsg_cli_fail(st);
    }
    vsg_pose_checker *checker = NULL;
    double *check_xyz = NULL;
    const char *paths[1] = {ligpath};
    vsg_ligand_reader_options ro = {.format = VSG_LIG_AUTO, .keep_text = 1, .max_atoms = 0, .smiles = dock_smiles};
    vsg_ligand_reader *rd = NULL;
    vsg_ligand lig;
    vsg_ligand_init(&lig);
    vsg_dock_result res;
    memset(&res, 0, sizeof res);
    vsg_vina_ligand *vl = NULL;
    int rc = VSG_EXIT_OK;
    FILE *f = NULL, *csv = NULL;
    if ((st = vsg_ligand_reader_open(paths, 1, &ro, &rd)) != VSG_OK) { rc = vsg_cli_fail(st); goto done; }
    if ((rc = read_record(rd, ligpath, prefix, record, &lig)) != VSG_EXIT_OK) goto done;
    /* a file without hydrogens: its polar ones at neutral valence, with a warning (else wrong Vina types) */
    if ((st = vsg_ligand_complete_hydrogens(&lig, NULL, 1)) != VSG_OK) { rc = vsg_cli_fail(st); goto done; }
    if ((st = vsg_vina_ligand_new(&lig, &vl)) != VSG_OK) { rc = vsg_cli_fail(st); goto done; }
    if (!local_only && (long)p.exhaustiveness * (p.steps ? p.steps : 1) < 512L * 240) warn_large_box(t, &lig);
    {
        const vsg_ligand *one[1] = {&lig};
        const uint64_t seed = p.seed;
        vsg_status rst = VSG_OK;
        char msg[1][256];
        if (local_only) { /* the input pose minimised in place: the CPU's one BFGS */
            rst = vsg_dock_local(t, &lig, &p, &res);
            if (rst != VSG_OK) snprintf(msg[0], sizeof msg[0], "%s", vsg_last_error());
            device = VSG_DEVICE_CPU;
        } else if ((st = vsg_dock_batch(t, one, 1, &seed, &p, device, &res, &rst, msg)) != VSG_OK) {
            rc = vsg_cli_fail(st);
            goto done;
        }
        if (rst != VSG_OK) {
            fprintf(stderr, "vsgrid dock: %s\n", msg[0]);
            rc = vsg_cli_exit_code(rst);
            goto done;
        }
    }
    {
        char why[320];
        if (vsg_dock_pose_check(t, &res, 0, why, sizeof why) != VSG_OK) { /* never a meaningless best score */
            fprintf(stderr, "vsgrid dock: %s: best %.3f kcal/mol means nothing: %s\n", ligpath, res.pose[0].score.total, why);
            rc = VSG_EXIT_NOTHING_SCORED;
            goto done;
        }
        for (int k = 1; k < res.npose; k++) /* later poses that leave the box or the receptor are not results either */
            if (vsg_dock_pose_check(t, &res, k, NULL, 0) != VSG_OK) {
                for (int j = k; j < res.npose; j++) free(res.pose[j].xyz), res.pose[j].xyz = NULL;
                res.npose = k;
                break;
            }
    }
    const int on_gpu = device == VSG_DEVICE_GPU || (device == VSG_DEVICE_AUTO && vsg_gpu_count() > 0);
    /* PoseBusters' checks of each pose against the record as read (before the PDBQT writer types it) */
    if ((st = vsg_pose_checker_new(&lig, rec, &checker)) != VSG_OK) { rc = vsg_cli_fail(st); goto done; }
    if (!(check_xyz = malloc(sizeof(double) * 3 * (size_t)(lig.natoms + 1)))) { rc = vsg_cli_fail(vsg_fail(VSG_E_NOMEM, "dock: out of memory")); goto done; }
    int nvalid = 0;
    /* SDF: the record as read; PDBQT: an SDF/MOL2 record as the model has it (typed, non-polar hydrogens merged) */
    if (sdf && (st = vsg_pose_sdf_new(&lig, &res, &sm)) != VSG_OK) { rc = vsg_cli_fail(st); goto done; }
    if (!sdf && (st = vsg_pose_model_ligand(&lig, &res)) != VSG_OK) { rc = vsg_cli_fail(st); goto done; }
    if (!(f = vsg_fopen_out(outpath, "w"))) { fprintf(stderr, "vsgrid dock: cannot write %s\n", outpath); rc = VSG_EXIT_FAILURE; goto done; }
    if (csvpath && !(csv = fopen(csvpath, "w"))) { fprintf(stderr, "vsgrid dock: cannot write %s\n", csvpath); rc = VSG_EXIT_FAILURE; goto done; }
    if (csv) fprintf(csv, "pose,score_kcal_mol,inter_kcal_mol,intra_kcal_mol,torsional_kcal_mol,search_energy_kcal_mol,"
                          "num_tors,rmsd_best_A,rmsd_input_A,posebusters_valid,posebusters_failed\n");
    for (int k = 0; k < res.npose; k++) {
        const vsg_dock_pose *ps = &res.pose[k];
        char failed[200];
        const int valid = check_pose(checker, t, &res, k, vsg_pose_checker_atoms(checker), check_xyz, failed, sizeof failed);
        nvalid += valid;
        const double rb = vsg_pose_rmsd_heavy(&res, vl, ps->xyz, res.pose[0].xyz);
        char items[320];
        snprintf(items, sizeof items, "> <vsgrid_posebusters_valid>\n%d\n\n> <vsgrid_posebusters_failed>\n%s\n\n", valid, failed);
        if (sdf ? !vsg_pose_sdf_write_items(f, sm, &res, k, -1, items) : !vsg_pose_write_pdbqt(f, &lig, &res, k, k + 1, rb, -1)) {
            fprintf(stderr, "vsgrid dock: %s: the record's atom lines do not match its model\n", ligpath);
            rc = VSG_EXIT_FAILURE;
            goto done;
        }
        if (csv)
            fprintf(csv, "%d,%.3f,%.3f,%.3f,%.3f,%.3f,%.2f,%.3f,%.3f,%d,%s\n", k + 1, ps->score.total, ps->score.inter,
                    ps->score.intra, ps->score.torsional, ps->energy, ps->score.num_tors, rb, ps->rmsd_input, valid,
                    failed[0] ? failed : "");
    }
    if (ferror(f) || (csv && ferror(csv))) { fprintf(stderr, "vsgrid dock: write error\n"); rc = VSG_EXIT_FAILURE; goto done; }
    if (!quiet)
        printf("dock: %s: %d poses (%d PoseBusters-valid%s), best %.3f kcal/mol (inter %.3f, intra %.3f), %d torsions, "
               "%d chains x %d steps, %ld evaluations, %.2f s on the %s\n",
               ligpath, res.npose, nvalid, rec ? "" : "; receptor clashes checked with --receptor", res.pose[0].score.total,
               res.pose[0].score.inter, res.pose[0].score.intra, res.rotors, res.chains, res.steps, res.evaluations,
               res.seconds, on_gpu ? "GPU" : "CPU");
    if (json) {
        vsg_json j;
        FILE *jf = vsg_cli_json_open(json, &j, "dock");
        if (!jf) { rc = VSG_EXIT_FAILURE; goto done; }
        vsg_json_str(&j, "ligand", ligpath);
        vsg_json_str(&j, "scoring", sf == VSG_VINA_SCORING_VINA ? "vina" : "vinardo");
        vsg_json_int(&j, "seed", (long long)p.seed);
        vsg_json_str(&j, "search", dopt.search);
        vsg_json_str(&j, "device", on_gpu ? "gpu" : "cpu");
        vsg_json_int(&j, "chains", res.chains);
        vsg_json_int(&j, "steps", res.steps);
        vsg_json_int(&j, "torsions", res.rotors);
        vsg_json_int(&j, "evaluations", res.evaluations);
        vsg_json_array(&j, "poses");
        for (int k = 0; k < res.npose; k++) vsg_json_num(&j, NULL, res.pose[k].score.total);
        vsg_json_end(&j, ']');
        vsg_json_num(&j, "score", res.pose[0].score.total);
        vsg_cli_json_finish(&j, jf, json, res.seconds);
    }
done:
    if (f && fclose(f) && rc == VSG_EXIT_OK) rc = VSG_EXIT_FAILURE;
    if (csv && fclose(csv) && rc == VSG_EXIT_OK) rc = VSG_EXIT_FAILURE;
    vsg_pose_sdf_free(sm);
    vsg_pose_checker_free(checker);
    free(check_xyz);
    vsg_molecule_free(rec);
    vsg_dock_result_release(&res);
    vsg_vina_ligand_free(vl);
    vsg_ligand_release(&lig);
    if (rd) vsg_ligand_reader_close(rd);
    vsg_vina_target_free(t);
    return rc;
}
