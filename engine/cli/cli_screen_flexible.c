/* cli_screen_flexible.c — `vsgrid screen PREFIX LIBRARY... --scoring vina|vinardo --placement
 * flexible`: the options of a flexible screen, handed to vsg_flex_screen_run (vsgrid.h, "flexible
 * screens"; engine/screen/flex_screen.c), which docks every record, one CSV row per input record
 * in input order, with the best --poses poses of each record as PDBQT MODELs or SDF records
 * (--poses-out). Under mpirun the ranks share the chunks and rank 0 merges the parts. Built on the
 * public API only (engine/cli/ is its client). */
#define _POSIX_C_SOURCE 200809L /* isatty */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "engine/cli/cli.h"
#include "engine/cli/cli_vina.h"
#include "engine/cli/dock_options.h"
#include "grids/base/vsgrid.h"

#define DEFAULT_MAX_TORSIONS 32           /* AutoDock4's MAX_TORS */
#define DEFAULT_SEARCH "balanced"

const char vsg_cli_vina_flexible_help[] =
    "Flexible docking in the screen (--scoring vina|vinardo --placement flexible): each record is\n"
    "docked into the map set PREFIX (AutoDock Vina 1.2's method: Monte Carlo chains of a random\n"
    "change of position, orientation or one torsion, BFGS on the analytic gradient of the maps\n"
    "and the ligand's internal pairs, Metropolis acceptance; rings, bond lengths and angles as in\n"
    "the input) instead of being scored where it is. On the GPU (the default when there is one)\n"
    "one warp runs a chain and thousands of chains of many records run at once; --devices cpu\n"
    "runs the same search on the CPU (OpenMP). One row per input record, in input order, with the\n"
    "as-is columns above for the best pose (its 'vina --score_only' terms, computed in double on\n"
    "the CPU from the pose, whichever device searched); a record that cannot be docked gets its\n"
    "status and message: untyped, torsions (a malformed tree, or over --max-torsions),\n"
    "too_many_atoms, no_pose, disconnected (an SDF/MOL2 record of several molecules: a salt, a\n"
    "mixture), the reader's codes (not_3d: a 2D SDF). Record i (the index column) is docked\n"
    "with seed --seed + i: the rows repeat exactly for a seed on a device, whatever --threads or\n"
    "the batch. (--placement rigid needs an AutoDock4 map set, a .maps.fld.)\n"
    "  --max-torsions N    records with more rotatable bonds get status torsions (default 32)\n"
    "  --poses-out F.pdbqt the best --poses poses of each docked record as MODELs, in input order,\n"
    "                      with REMARK VINA RESULT (score, RMSD to the best pose) and 'REMARK\n"
    "                      VSGRID RECORD: index name'; a PDBQT record keeps its tree, an SDF/MOL2\n"
    "                      one gets the tree searched (AutoDock types, non-polar H merged)\n"
    "  --poses-out F.sdf   the same poses as the input molecule: all its atoms and bonds (a PDBQT\n"
    "                      record's inferred from distances), merged hydrogens moved with their\n"
    "                      heavy atom, M  CHG, and the items vsgrid_score_kcal_mol (and each term),\n"
    "                      vsgrid_pose, vsgrid_record, atom.dprop.PartialCharge and\n"
    "                      atom.prop.AutoDockType (RDKit's atom property lists; vsgrid reads the\n"
    "                      charges back)\n"
    "  --poses K           poses of each record written (default 1), best first, none within\n"
    "                      --min-rmsd of a better one; the CSV keeps one row (the best pose)\n"
    "  --poses-top K       poses of the K best-scored records only (score, then index), best\n"
    "                      first, written at the end (their text held in memory: K records)\n"
    "  --poses-below S     poses of the records scoring S kcal/mol or better only, in input order\n"
    "  --min-rmsd A        heavy-atom RMSD under which two poses are one (default 1 A)\n"
    "  --json FILE         the screen's keys plus placement, search, seed, exhaustiveness,\n"
    "                      steps, max_torsions, dock_evaluations\n"
    "  --resume            go on with an interrupted screen: the -o file's rows (and the .sdf\n"
    "                      poses) are checked against the records and kept, the rest docked and\n"
    "                      appended, as 'vsgrid screen --resume' (same command line; exit 3 if not)\n"
    "Exit codes as 'vsgrid screen': 3 a library that cannot be opened or read (its rows are\n"
    "written, the others docked), 8 no record docked (all failed).\n"
    "The search (default --search balanced):\n";

const char *vsg_cli_placement_arg(int argc, char **argv)
{
    const char *v = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--placement")) v = i + 1 < argc ? argv[i + 1] : "";
        else if (!strncmp(argv[i], "--placement=", 12)) v = argv[i] + 12;
    }
    return v;
}

int vsg_cli_vina_flexible_command(int argc, char **argv, const char *cmd)
{
    const double t0 = vsg_now();
    static const char *inputs[4096];
    const char *target = NULL, *poses_path = NULL;
    int ninputs = 0, quiet = 0, resume = 0, threads = 0, max_atoms = 0, max_torsions = DEFAULT_MAX_TORSIONS;
    long poses_top = 0;
    int poses_below = 0;
    double poses_max_score = 0;
    vsg_ligand_format format = VSG_LIG_AUTO;
    vsg_screen_outputs out;
    memset(&out, 0, sizeof out);
    vsg_dock_params p;
    vsg_dock_params_default(&p);
    p.poses = 1; /* --poses: the best pose unless more are written */
    vsg_cli_dock_opts dopt;
    vsg_cli_dock_opts_init(&dopt, DEFAULT_SEARCH);
    vsg_vina_scoring sf = VSG_VINA_SCORING_VINA;
    vsg_args a = {argc, 1, argv, NULL, NULL};
    for (; a.i < argc; a.i++) {
        const char *arg = argv[a.i], *v;
        double x;
        if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
            fputs(vsg_cli_vina_help, stdout);
            fputs(vsg_cli_vina_flexible_help, stdout);
            fputs(vsg_cli_dock_options_help, stdout);
            return -2;
        }
        if (arg[0] != '-' || !strcmp(arg, "-")) {
            if (!target) target = arg;
            else if (ninputs < (int)(sizeof inputs / sizeof inputs[0])) inputs[ninputs++] = arg;
            else return vsg_cli_usage_error(cmd, "too many library files (at most %d)", (int)(sizeof inputs / sizeof inputs[0]));
            continue;
        }
#define VALUE() do { if (!(v = vsg_arg_value(&a, cmd))) return VSG_EXIT_USAGE; } while (0)
        const int dr = vsg_cli_dock_option(&a, cmd, &dopt);
        if (dr < 0) return VSG_EXIT_USAGE;
        if (dr > 0) continue;
        if (vsg_arg_is(&a, "--quiet")) quiet = 1;
        else if (vsg_arg_is(&a, "--resume")) resume = 1;
        else if (vsg_arg_is(&a, "--scoring")) {
            VALUE();
            if (!strcmp(v, "vina")) sf = VSG_VINA_SCORING_VINA;
            else if (!strcmp(v, "vinardo")) sf = VSG_VINA_SCORING_VINARDO;
            else return vsg_cli_usage_error(cmd, "--scoring: '%s' is not vina or vinardo", v);
        } else if (vsg_arg_is(&a, "--placement")) {
            VALUE();
            if (strcmp(v, "flexible")) return vsg_cli_usage_error(cmd, "--placement: '%s' here is not flexible", v);
        } else if (vsg_arg_is(&a, "-o") || vsg_arg_is(&a, "--output")) { VALUE(); out.csv = v; }
        else if (vsg_arg_is(&a, "--json")) { VALUE(); out.json = v; }
        else if (vsg_arg_is(&a, "--poses-out")) { VALUE(); poses_path = v; }
        else if (vsg_arg_is(&a, "--poses")) {
            VALUE();
            if (!vsg_parse_number(v, &x) || x != floor(x) || x < 1 || x > 1000)
                return vsg_cli_usage_error(cmd, "--poses: '%s' is not an integer in 1..1000", v);
            p.poses = (int)x;
        } else if (vsg_arg_is(&a, "--poses-top")) {
            VALUE();
            if (!vsg_parse_number(v, &x) || x != floor(x) || x < 1 || x > 1e9)
                return vsg_cli_usage_error(cmd, "--poses-top: '%s' is not an integer in 1..1000000000", v);
            poses_top = (long)x;
        } else if (vsg_arg_is(&a, "--poses-below")) {
            VALUE();
            if (!vsg_parse_number(v, &x) || !isfinite(x))
                return vsg_cli_usage_error(cmd, "--poses-below: '%s' is not a score in kcal/mol", v);
            poses_below = 1, poses_max_score = x;
        } else if (vsg_arg_is(&a, "--min-rmsd")) {
            VALUE();
            if (!vsg_parse_number(v, &x) || !(x >= 0) || x > 100)
                return vsg_cli_usage_error(cmd, "--min-rmsd: '%s' is not a distance in 0..100 A", v);
            p.min_rmsd = x;
        }
        else if (vsg_arg_is(&a, "--format")) {
            VALUE();
            if (!strcmp(v, "sdf")) format = VSG_LIG_SDF;
            else if (!strcmp(v, "mol2")) format = VSG_LIG_MOL2;
            else if (!strcmp(v, "pdbqt")) format = VSG_LIG_PDBQT;
            else if (!strcmp(v, "pdb")) format = VSG_LIG_PDB;
            else return vsg_cli_usage_error(cmd, "--format: '%s' is not sdf, mol2, pdbqt or pdb", v);
        } else if (vsg_arg_is(&a, "--max-torsions")) {
            VALUE();
            if (!vsg_parse_number(v, &x) || x != floor(x) || x < 0 || x > 1000)
                return vsg_cli_usage_error(cmd, "--max-torsions: '%s' is not an integer in 0..1000", v);
            max_torsions = (int)x;
        } else if (vsg_arg_is(&a, "--max-atoms") || vsg_arg_is(&a, "--threads")) {
            const char *name = a.name;
            VALUE();
            if (!vsg_parse_number(v, &x) || x != floor(x) || x < 1 || x > 1e6)
                return vsg_cli_usage_error(cmd, "%s: '%s' is not an integer in 1..1000000", name, v);
            if (!strcmp(name, "--max-atoms")) max_atoms = (int)x;
            else threads = (int)x;
        } else {
            return vsg_cli_usage_error(cmd, "%s does not apply to --placement flexible (see --help)", arg);
        }
#undef VALUE
    }
    vsg_device device = VSG_DEVICE_AUTO;
    if (vsg_cli_dock_apply(cmd, &dopt, &p, &device)) return VSG_EXIT_USAGE;
    if (vsg_mpi_active() && resume) return vsg_cli_usage_error(cmd, "--resume: not under mpirun (run shards: --shard K/N)");
    if (vsg_mpi_active() && poses_top > 0)
        return vsg_cli_usage_error(cmd, "--poses-top chooses over the whole run: not under mpirun (run shards and 'vsgrid merge --poses-top')");
    if (vsg_mpi_active() && device != VSG_DEVICE_CPU && p.ngpus == 0 && vsg_gpu_count() > 0) {
        /* one rank per GPU: the ranks of a node take its GPUs in turn */
        p.ngpus = 1;
        p.gpus[0] = vsg_mpi_local_rank() % vsg_gpu_count();
    }
    if (!target) return vsg_cli_usage_error(cmd, "no map-set PREFIX given");
    if (ninputs == 0) return vsg_cli_usage_error(cmd, "no LIBRARY given");
    if (!out.csv) return vsg_cli_usage_error(cmd, "no output: give -o RESULTS.csv ('-' for standard output)");
    const int sdf = poses_path ? vsg_pose_path_kind(poses_path) : 0;
    if (sdf < 0) return vsg_cli_usage_error(cmd, "--poses-out: '%s' is not a .pdbqt or .sdf file", poses_path);
    if ((poses_top || poses_below) && !poses_path) return vsg_cli_usage_error(cmd, "--poses-top and --poses-below need --poses-out");
    if (poses_top && poses_below) return vsg_cli_usage_error(cmd, "give --poses-top or --poses-below, not both");
    if (resume && poses_top) return vsg_cli_usage_error(cmd, "--resume: not with --poses-top (chosen over the whole run)");
    if (resume && (!strcmp(out.csv, "-") || (poses_path && !sdf)))
        return vsg_cli_usage_error(cmd, "--resume needs -o FILE.csv, and --poses-out as .sdf");
    for (int i = 0; i < ninputs; i++)
        if (!strcmp(inputs[i], "-") && format == VSG_LIG_AUTO) return vsg_cli_usage_error(cmd, "reading standard input needs --format");
#ifdef _OPENMP
    if (threads > 0) omp_set_num_threads(threads);
#else
    (void)threads;
#endif
    vsg_vina_target *t = NULL;
    vsg_status st = vsg_cli_receptor_not_grid(target);
    if (st == VSG_OK) st = vsg_vina_target_maps(target, sf, &t);
    if (st != VSG_OK) return vsg_cli_fail(st);
    /* --resume (vsgrid.h, vsg_resume_prepare): the rows written are checked and kept, the rest docked */
    static char fingerprint[60000];
    size_t skip = 0;
    vsg_resume_fingerprint(argc, argv, fingerprint, sizeof fingerprint);
    if (resume) {
        vsg_resume_spec rs = {out.csv, NULL, poses_path, p.poses > 1, fingerprint, inputs, ninputs, {format, 0, max_atoms}};
        st = vsg_resume_prepare(&rs, &skip);
        if (st != VSG_OK) {
            fprintf(stderr, "vsgrid %s: --resume: %s\n", cmd, vsg_last_error());
            vsg_vina_target_free(t);
            return st == VSG_E_NOMEM ? VSG_EXIT_LIMIT : VSG_EXIT_INPUT;
        }
        if (!quiet) fprintf(stderr, "vsgrid: resuming %s after its %zu rows\n", out.csv, skip);
    } else if (strcmp(out.csv, "-") && vsg_mpi_rank() == 0 && vsg_resume_sidecar_write(out.csv, fingerprint) != VSG_OK) {
        vsg_warn("%s (--resume will not work on this run)", vsg_last_error());
    }
    /* MPI: each rank writes parts, which rank 0 merges after the run */
    char csv_part[4200], poses_part[4200];
    const char *csv_path = vsg_mpi_screen_part(out.csv, csv_part, sizeof csv_part);
    const char *poses_file = poses_path && vsg_mpi_active() ? (snprintf(poses_part, sizeof poses_part, "%s.rank%d.part",
                                                                        poses_path, vsg_mpi_rank()), poses_part)
                                                            : poses_path;
    FILE *csv = strcmp(csv_path, "-") ? fopen(csv_path, resume ? "a" : "w") : stdout;
    FILE *poses = NULL;
    if (!csv || (poses_file && !(poses = fopen(poses_file, resume ? "a" : "w")))) {
        fprintf(stderr, "vsgrid: cannot write %s\n", csv ? poses_file : csv_path);
        if (csv && csv != stdout) fclose(csv);
        vsg_vina_target_free(t);
        return VSG_EXIT_INPUT;
    }
    vsg_screen_report rep;
    long evaluations = 0;
    vsg_flex_screen_options fo = {inputs, ninputs, format, max_atoms, max_torsions, p, device, csv, poses, sdf,
                                  poses_top, poses_below, poses_max_score, !quiet && isatty(2)};
    vsg_screen_extra x;
    memset(&x, 0, sizeof x);
    x.resume = resume, x.resume_skip = skip;
    st = vsg_flex_screen_run(t, &fo, &x, &rep, &evaluations);
    if (csv != stdout && fclose(csv) != 0 && st == VSG_OK) st = vsg_fail(VSG_E_IO, "cannot write %s", out.csv);
    if (poses && fclose(poses) != 0 && st == VSG_OK) st = vsg_fail(VSG_E_IO, "cannot write %s", poses_path);
    st = vsg_mpi_screen_finish(st, out.csv, NULL, 0, poses_path, &rep); /* MPI: counts summed, parts merged */
    if (st != VSG_OK) {
        vsg_vina_target_free(t);
        return vsg_cli_fail(st);
    }
    out.sdf = poses_path; /* the summary's "wrote" line */
    if (vsg_mpi_rank() != 0) { /* rank 0 reports */
        vsg_vina_target_free(t);
        return 0;
    }
    if (!quiet) {
        vsg_cli_screen_summary(&rep, "on the maps; ", &out);
        fprintf(stderr, "  score_kcal_mol: %s's estimated free energy of binding of each record's best docked pose, "
                        "(inter + intra - unbound) / (1 + w N_rot), rescored as 'vina --score_only'\n",
                sf == VSG_VINA_SCORING_VINARDO ? "Vinardo" : "Vina");
    }
    if (out.json) {
        vsg_json j;
        FILE *f = vsg_cli_json_open(out.json, &j, cmd);
        if (f) {
            vsg_json_str(&j, "maps", target);
            vsg_cli_json_screen(&j, sf == VSG_VINA_SCORING_VINARDO ? "vinardo" : "vina", inputs, ninputs, &rep);
            vsg_json_str(&j, "placement", "flexible");
            vsg_json_int(&j, "seed", (long long)p.seed);
            vsg_json_str(&j, "search", dopt.search);
            vsg_json_int(&j, "exhaustiveness", p.exhaustiveness);
            vsg_json_int(&j, "steps", p.steps); /* 0: Vina's default for each record's size */
            vsg_json_int(&j, "max_torsions", max_torsions);
            vsg_json_int(&j, "dock_evaluations", evaluations);
            if (poses_path) vsg_json_str(&j, "poses_out", poses_path);
            vsg_json_int(&j, "poses", p.poses);
            vsg_cli_json_finish(&j, f, out.json, vsg_now() - t0);
        }
    }
    vsg_vina_target_free(t);
    return vsg_cli_screen_verdict(cmd, inputs, ninputs, &rep); /* issue 20: io rows, nothing docked */
}
