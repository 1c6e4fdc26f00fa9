/* cli_screen.c — `vsgrid screen`: score ligand libraries or docking poses on a receptor grid
 * (a PB or Coulomb grid: electrostatics; an AutoGrid map set: the AutoDock4 intermolecular
 * energy), one CSV row per input record, in input order. */
#define _POSIX_C_SOURCE 200809L /* pthreads, isatty */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "engine/cli/cli.h"
#include "engine/cli/dock_options.h"
#include "engine/cli/cli_vina.h"

static const char screen_usage[] =
    "usage: vsgrid screen GRID LIBRARY... -o RESULTS.csv [options]\n"
    "       vsgrid screen PREFIX POSES... --scoring vina|vinardo -o RESULTS.csv (see below)\n"
    "\n"
    "Scores every molecule (or docking pose) of the libraries where it is, on the receptor\n"
    "grid, and writes one CSV row per input record, in input order, whatever is wrong with it.\n"
    "\n"
    "GRID      a potential grid (.vsg, .dx, .dx.gz from 'vsgrid grid', or an AutoGrid .map):\n"
    "            score = sum_i q_i phi(r_i), trilinear interpolation; kT/e grids are converted\n"
    "            with kT at --temperature, kcal/mol/e grids are used as they are;\n"
    "          or an AutoGrid map set (.maps.fld and the maps it lists, .map or .map.gz):\n"
    "            the AutoDock4 intermolecular energy sum_i [map_type(r_i) + q_i e(r_i) +\n"
    "            |q_i| d(r_i)], as autodock4's epdb reports it.\n"
    "LIBRARY   SDF (V2000/V3000), MOL2, PDBQT (multi-MODEL pose files), PDB, SMILES (.smi,\n"
    "          .ism, .csv with a smiles column: prepared in 3D, see --ph); .gz read\n"
    "          directly; several files; '-' reads standard input (give --format).\n"
    "\n"
    "output:\n"
    "  -o, --output FILE.csv   results ('-' = standard output). Columns: index, name, source,\n"
    "                          record, atoms, score_kcal_mol, one <term>_kcal_mol per term\n"
    "                          (elec; or vdw_hb, elec, desolv for map sets), atoms_outside,\n"
    "                          status (ok, outside, parse, io, no_atoms, no_charges,\n"
    "                          zero_charges, bad_coord, not_3d, too_many_atoms, untyped), message;\n"
    "                          map sets add ad4_intra last (autodock4's internal energy of\n"
    "                          a PDBQT pose, AD4.1 parameters; empty for other formats)\n"
    "  --sdf-out FILE.sdf      the scored molecules as SDF: SDF input as read plus vsgrid_*\n"
    "                          score tags; other formats as V2000 molfiles with the same tags\n"
    "  --top N                 with --sdf-out: only the N best (lowest) scores, best first,\n"
    "                          with a vsgrid_rank tag\n"
    "  --best-per-molecule     records grouped by name (protomers, tautomers, conformers):\n"
    "                          one row per name, its best-scored record's (ties and nothing\n"
    "                          scored: the first), in the order of first appearance, plus a\n"
    "                          last column records (how many the name had); rows written at\n"
    "                          the end. --top N then lists N different molecules\n"
    "  --json FILE             summary: records, scored, failed (by status), kernel, device,\n"
    "                          seconds split into parse/transfer/score/write, throughput\n"
    "  --quiet                 no summary or progress on stderr\n"
    "  --resume                go on with an interrupted screen: the rows already in the -o\n"
    "                          file are checked against the libraries' records (index, name,\n"
    "                          source, record) and kept, a cut last row dropped; the other\n"
    "                          records are screened and appended (SDF and poses files too),\n"
    "                          the result byte for byte an uninterrupted run's. Same command\n"
    "                          line needed (RESULTS.csv.resume, written by every screen, has\n"
    "                          it); another library or options: exit 3, nothing written.\n"
    "                          Not with --top or '-o -'\n"
    "\n"
    "input:\n"
    "  --format F              sdf | mol2 | pdbqt | pdb | smi | csv (default: from each file's\n"
    "                          content, whatever its extension says (a warning when they disagree),\n"
    "                          else from its extension). PDB ligands get bonds from CONECT, else\n"
    "                          from distances (covalent radii), for Gasteiger charges and torsions\n"
    "  --ph X|none             SMILES libraries (.smi/.ism/.csv with a smiles column, .gz too) are\n"
    "                          prepared in 3D by Open Babel: largest fragment, protonated at pH X\n"
    "                          (default 7.4) by its pH model, or in the SMILES's own states (none);\n"
    "                          hydrogens, 3D (RDKit's ETKDG + 50 MMFF94 iterations, else Open\n"
    "                          Babel's builder + 100 steps), Gasteiger charges (README)\n"
    "  --minimize N            SMILES: the force-field steps after the 3D build (default: RDKit\n"
    "                          200, Open Babel 100; 0: the generator's coordinates)\n"
    "  --embed rdkit|openbabel SMILES: the 3D conformer generator (default: RDKit's ETKDG when\n"
    "                          built with RDKit, else Open Babel's builder)\n"
    "  --conformers N          SMILES, --placement flexible: dock up to N conformers of each\n"
    "                          molecule whose rings differ (RDKit's ETKDG; a molecule without a\n"
    "                          non-aromatic ring has one) and keep the best-scoring; the row's\n"
    "                          message says which won. Default 1\n"
    "  --stereo MODE           SMILES: stereocentres the SMILES leaves open, or that 5 builds\n"
    "                          inverted, docked as built with a note (any, default), refused\n"
    "                          with status stereo (specified), or with --placement flexible\n"
    "                          and RDKit: every stereoisomer of the open centres and double\n"
    "                          bonds (up to 8) docked, the best kept (enumerate; the row says\n"
    "                          how many and which won, its pose has its stereo)\n"
    "  --charges MODE          file (charges as read; molecules without any: no_charges),\n"
    "                          gasteiger (Gasteiger-Marsili through Open Babel for every molecule),\n"
    "                          auto (default: the file's, else Gasteiger when available)\n"
    "  --max-atoms N           records with more atoms get too_many_atoms (default 100000)\n"
    "  --parse-threads N       threads parsing the input in parallel (default: the cores the\n"
    "                          scorers leave, at most 8; 1 = one reader thread)\n"
    "\n"
    "scoring:\n"
    "  --scoring S             ad4: GRID must be an AutoGrid map set (.maps.fld; the default\n"
    "                          for a .fld anyway) | vina | vinardo: GRID is a Vina map-set\n"
    "                          PREFIX, scored on the CPU (below). Without it: by GRID's kind\n"
    "  --kernel K              auto (default) | cpu | gm | roi | sm | tm | zip | roi-tm-zip |\n"
    "                          roi-sm-zip. auto runs every kernel of the device on the first\n"
    "                          batch and keeps the fastest within --tolerance of the CPU twin\n"
    "                          (name a kernel for bit-for-bit repeatable scores)\n"
    "  --tolerance X           auto: largest error per molecule allowed, kcal/mol (default 0.01)\n"
    "  --precision P           float (default) | double (GPU kernels that have it; cpu is double)\n"
    "  --devices LIST          all (default: every GPU, else the CPU) | cpu | 0,1,...\n"
    "  --device N              one GPU (same as --devices N)\n"
    "  --max-gpu-memory SIZE   cap on device memory per GPU (e.g. 4G); batches are sized to it\n"
    "  --batch-atoms N         cap on atoms per batch\n"
    "  --threads N             CPU threads (OpenMP)\n"
    "  --temperature K         for kT/e grids (default 298.15)\n"
    "\n"
    "placement:\n"
    "  --placement P           as-is (default: every molecule scored where it is) | flexible\n"
    "                          (--scoring vina|vinardo: each molecule docked, see below) | rigid:\n"
    "                          each molecule is placed by an exhaustive rigid-body search\n"
    "                          on an AutoDock4 map set (GRID a .maps.fld: it has the steric\n"
    "                          terms; a PB or Coulomb grid is refused, ligands would sink into\n"
    "                          the protein: 'vsgrid maps REC.pdbqt --scoring ad4 --around LIG\n"
    "                          -o P' makes one, --elec pb for PB electrostatics)\n"
    "                          (one conformation; on the GPU with the GM kernel in float, or on\n"
    "                          the CPU twin (vsg_place_cpu) without one or with\n"
    "                          --top-poses > 1):\n"
    "                          its centroid (mean of its atom positions) goes to every site\n"
    "                          point of the box, in every orientation of the rotation set;\n"
    "                          poses with an atom outside the grid are rejected; the best\n"
    "                          (lowest score; ties: lowest pose index) is kept. Molecules with\n"
    "                          no pose inside the grid get status no_pose.\n"
    "  --box CX,CY,CZ,SX,SY,SZ site box: centre and edge lengths, Å\n"
    "  --around LIGAND         site box: the first record's atom extent plus --padding\n"
    "  --padding P             with --around: Å added on each side (default 2)\n"
    "                          (default box: the grid's box minus 2 Å on each side)\n"
    "  --site-step S           Å between site points (default 1.0), a lattice centred on\n"
    "                          the box; site index = ix + nx (iy + ny iz)\n"
    "  --rotations N           orientations (default 1000): the super-Fibonacci set (Alexa\n"
    "                          2022, vsg_rotations_super_fibonacci); N = 1000 leaves no rotation more\n"
    "                          than about 22 degrees from a member, 5000 about 13\n"
    "  --poses-out FILE        the best pose of every placed molecule, atoms in the order\n"
    "                          scored: FILE.sdf (SDF input keeps its record, coordinates\n"
    "                          moved) or FILE.pdbqt (a rigid AutoDock ligand per pose: MODEL,\n"
    "                          ROOT, ATOM lines with charge and AD type, ENDROOT, TORSDOF 0,\n"
    "                          ENDMDL). On map sets, non-polar H are merged as scored.\n"
    "  --top-poses K           with --poses-out: the K best poses per molecule (1-16)\n"
    "  With rigid placement the CSV gains, after the score terms: pose_index (rotation x\n"
    "  sites + site), pose_qw,pose_qx,pose_qy,pose_qz (the rotation R as a unit quaternion)\n"
    "  and pose_tx,pose_ty,pose_tz (T): x' = R x + T takes the input coordinates to the\n"
    "  best pose; --sdf-out writes the best pose with vsgrid_pose_* tags.\n"
    "\n"
    "Atoms outside the grid are counted (atoms_outside, status 'outside'): on potential grids\n"
    "they contribute 0; on map sets they are scored by autodock4's rule (ligands/score/score_cpu.c).\n"
    "Exit codes: 0 the run completed (bad records get their rows), 2 usage, 3 unreadable grid,\n"
    "or a library that cannot be opened or read (status io: its rows are written, the other\n"
    "libraries screened, and a last line names it), 4 memory, 5 GPU requested but unusable,\n"
    "7 not in this build (e.g. no Open Babel), 8 nothing scored: records were read but none\n"
    "was scored inside the grid (all outside: the molecules are not in the pocket, so their\n"
    "scores mean nothing; dock or place them with --placement, or score poses with 'vsgrid\n"
    "rescore', which builds its grid around them; or every record failed). The rows are\n"
    "written in every case.\n"
    "\n";

/* The help's campaign part (screen_usage, the Vina and flexible parts and the search's options
 * come before it). */
static const char campaign_help[] =
    "\n"
    "campaigns (issue 26: libraries too large for one run; every screen kind):\n"
    "  --shard K/N             task K (0-based) of N: screens records [K T/N, (K+1) T/N) of the\n"
    "                          T records of the libraries, e.g. --shard $SLURM_ARRAY_TASK_ID/100.\n"
    "                          Index the libraries once first ('vsgrid index LIB...': each task\n"
    "                          then starts reading at its first record; without an index it scans\n"
    "                          the files before its slice). -o FILE.csv must be the task's own: it\n"
    "                          is written as FILE.csv.partial (poses too), renamed when every record\n"
    "                          of the slice has its row, and FILE.csv.done written last (what\n"
    "                          'vsgrid merge' checks). Run the same command again after any kill\n"
    "                          (SIGTERM, SIGKILL, a node lost): it goes on from the partial files\n"
    "                          (rows checked against the records, a cut row dropped; PDBQT poses and\n"
    "                          --poses-top start the slice again); a finished task exits 0 at once.\n"
    "                          Not with --top or --best-per-molecule ('vsgrid merge' does both).\n"
    "  --records A:B           the records A <= index < B instead (the same files and marker)\n"
    "  -o FILE.csv.gz          any CSV, SDF or pose output ending in .gz is written gzipped\n"
    "  mpirun -np N vsgrid screen ...   the ranks share the work (flexible: chunks of 512 records\n"
    "                          round-robin, one GPU per rank), rank 0 merges: the same files\n"
    "\n";

/* `vsgrid screen` (and what `vsgrid rescore ... --placement flexible` and the old entry points
 * call): the command line handed to the screen job option by option (vsgrid.h, "a screen as one
 * call"), the run, and its report. Returns the exit code. */
/* SIGINT and SIGTERM (Ctrl-C; Slurm's time limit, scancel) ask the screen to stop between chunks
 * (vsg_screen_stop), so its rows are whole and --resume goes on from them; a second signal
 * kills at once, as without the handler. on 0: the defaults again. */
static void on_stop_signal(int sig)
{
    vsg_screen_stop();
    signal(sig, SIG_DFL);
}

static void stop_on_signals(int on)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on ? on_stop_signal : SIG_DFL;
    sa.sa_flags = SA_RESTART; /* reads interrupted by the signal go on: no record becomes an io row */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

int vsg_cli_screen_command(int argc, char **argv, const char *cmd)
{
    const double t0 = vsg_now();
    const char *json = NULL;
    int quiet = 0, npos = 0, rc = 0;
    vsg_screen_job *j = NULL;
    if (vsg_screen_job_new(&j) != VSG_OK) return vsg_cli_fail(VSG_E_NOMEM);
    vsg_args a = {argc, 1, argv, NULL, NULL};
    for (; a.i < argc && rc == 0; a.i++) {
        const char *arg = argv[a.i];
        if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
            fputs(screen_usage, stdout);
            fputs(vsg_cli_vina_help, stdout);
            fputs(vsg_cli_vina_flexible_help, stdout);
            fputs(vsg_cli_dock_options_help, stdout);
            fputs(campaign_help, stdout);
            vsg_screen_job_free(j);
            return -2;
        }
        vsg_status st = VSG_OK;
        if (arg[0] != '-' || !strcmp(arg, "-")) {
            st = vsg_screen_job_set(j, npos++ ? "library" : "target", arg);
        } else if (vsg_arg_is(&a, "--quiet")) {
            quiet = 1;
        } else if (vsg_arg_is(&a, "--json")) {
            if (!(json = vsg_arg_value(&a, cmd))) rc = VSG_EXIT_USAGE;
        } else {
            /* the option's name: "-o", or "--name" / "--name=value" */
            char name[64];
            const char *eq = strchr(arg, '=');
            const char *n0 = arg[1] == '-' ? arg + 2 : arg + 1;
            snprintf(name, sizeof name, "%.*s", (int)(eq && arg[1] == '-' ? (size_t)(eq - n0) : strlen(n0)), n0);
            const int kind = vsg_screen_job_key(name);
            if (kind == 0) {
                rc = vsg_cli_usage_error(cmd, "unknown option '%s' (see --help)", arg);
            } else if (kind == 1) {
                vsg_arg_is(&a, arg[1] == '-' ? arg : "-o"); /* consume the flag */
                st = vsg_screen_job_set(j, name, eq ? eq + 1 : "1");
            } else {
                char opt[80];
                snprintf(opt, sizeof opt, "%s%s", arg[1] == '-' ? "--" : "-", name);
                const char *v = vsg_arg_is(&a, opt) ? vsg_arg_value(&a, cmd) : NULL;
                if (!v) rc = VSG_EXIT_USAGE;
                else st = vsg_screen_job_set(j, name, v);
            }
        }
        if (st != VSG_OK) rc = st == VSG_E_ARG ? vsg_cli_usage_error(cmd, "%s", vsg_last_error()) : vsg_cli_fail(st);
    }
    const char *target = vsg_screen_job_info(j, "target");
    if (rc == 0 && !quiet) rc = vsg_screen_job_set(j, "progress", "1") == VSG_OK ? 0 : VSG_EXIT_FAILURE;
    if (rc == 0 && vsg_screen_job_check(j) != VSG_OK) rc = vsg_cli_usage_error(cmd, "%s", vsg_last_error());
    if (rc == 0 && target) { /* a receptor where a grid belongs: say what makes one */
        vsg_status st = vsg_cli_receptor_not_grid(target);
        if (st != VSG_OK) rc = vsg_cli_fail(st);
    }
    /* outputs written at the end: checked now, not after the whole screen (issue 20) */
    const char *later[4] = {vsg_screen_job_info(j, "sdf-out"), json, vsg_screen_job_info(j, "poses-out"), NULL};
    for (int i = 0; rc == 0 && i < 3; i++)
        if (later[i] && vsg_mpi_rank() == 0) rc = vsg_cli_check_output(cmd, later[i]);
    if (rc) {
        vsg_screen_job_free(j);
        return rc;
    }
    vsg_screen_report rep;
    memset(&rep, 0, sizeof rep);
    stop_on_signals(1);
    vsg_status st = vsg_screen_job_run(j, &rep);
    stop_on_signals(0);
    if (st == VSG_E_STOPPED) { /* Ctrl-C, or a scheduler's SIGTERM: say what is kept and how to go on */
        const char *o = vsg_screen_job_info(j, "output"), *sh = vsg_screen_job_info(j, "shard_state");
        fprintf(stderr, "vsgrid %s: interrupted after %zu records; their rows are in %s%s: %s\n", cmd, rep.records,
                o ? o : "the output", sh && sh[0] ? ".partial" : "",
                sh && sh[0] ? "run the same command again to go on" : "run the same command with --resume to go on");
        vsg_screen_job_free(j);
        return VSG_EXIT_INTERRUPTED;
    }
    if (st != VSG_OK) {
        rc = st == VSG_E_ARG ? vsg_cli_usage_error(cmd, "%s", vsg_last_error()) : vsg_cli_fail(st);
        vsg_screen_job_free(j);
        return rc;
    }
    const char *kind = vsg_screen_job_info(j, "kind"), *shard = vsg_screen_job_info(j, "shard_state");
    const int flexible = !strcmp(kind, "flexible"), vina = flexible || !strcmp(kind, "vina");
    const char *scoring = vsg_screen_job_info(j, "scoring");
    const int vinardo = scoring && !strcmp(scoring, "vinardo");
    const char *out_path = vsg_screen_job_info(j, "output");
    if (shard && !strcmp(shard, "done")) {
        fprintf(stderr, "vsgrid: %s is done already (%s.done: %zu rows): nothing to do\n", out_path, out_path, rep.records);
        vsg_screen_job_free(j);
        return 0;
    }
    if (vsg_mpi_rank() != 0) { /* rank 0 reports */
        vsg_screen_job_free(j);
        return 0;
    }
    vsg_screen_outputs out = {out_path ? out_path : "-", vsg_screen_job_info(j, "sdf-out"), json, 0};
    if (flexible) out.sdf = vsg_screen_job_info(j, "poses-out"); /* the summary's "wrote" line */
    if (!quiet) {
        if (shard && shard[0])
            fprintf(stderr, "vsgrid: %s: records %s..%zu of %s%s%s%s\n",
                    vsg_screen_job_info(j, "shard") ? vsg_screen_job_info(j, "shard") : "records",
                    vsg_screen_job_info(j, "first"),
                    (size_t)strtoull(vsg_screen_job_info(j, "first"), NULL, 10) + (size_t)strtoull(vsg_screen_job_info(j, "count"), NULL, 10),
                    vsg_screen_job_info(j, "records_total"), !strcmp(shard, "resumed") ? " (resumed after " : "",
                    !strcmp(shard, "resumed") ? vsg_screen_job_info(j, "resumed_rows") : "", !strcmp(shard, "resumed") ? " rows)" : "");
        /* --receptor: the best poses were refined and scored on its atoms, not on the maps */
        const int on_atoms = flexible && vsg_screen_job_info(j, "receptor");
        vsg_cli_screen_summary(&rep, on_atoms ? "refined and scored on the receptor's atoms; " : vina ? "on the maps; " : "", &out);
        if (flexible)
            fprintf(stderr, "  score_kcal_mol: %s's estimated free energy of binding of each record's best docked pose, "
                            "(inter + intra - unbound) / (1 + w N_rot), rescored as 'vina --score_only'%s\n",
                    vinardo ? "Vinardo" : "Vina", on_atoms ? " on the receptor's atoms" : " on the maps");
        else if (vina)
            fprintf(stderr, "  score_kcal_mol: %s's estimated free energy of binding of each pose as given, (inter + intra - "
                            "unbound) / (1 + w N_rot), as 'vina --score_only'; each term in its own column\n",
                    vinardo ? "Vinardo" : "Vina");
        else
            fprintf(stderr, "  score_kcal_mol: %s%s\n",
                    target && strlen(target) > 4 && !strcmp(target + strlen(target) - 4, ".fld")
                        ? "AutoDock4 intermolecular energy (vdW/H-bond + electrostatic + desolvation; no intramolecular "
                          "or torsional-entropy term)"
                        : "electrostatic interaction energy only (Σ q·φ; no vdW, desolvation, entropy)",
                    !strcmp(kind, "rigid") ? ", of each record's best rigid placement" : ", of each pose as given");
        if (!strcmp(kind, "rigid"))
            fprintf(stderr, "vsgrid: placement: %.3g poses, %.3g scored (the rest left the grid), %.3g poses/s scored%s%s\n",
                    (double)rep.poses, (double)rep.poses_scored, rep.score_s > 0 ? rep.poses_scored / rep.score_s : 0.0,
                    vsg_screen_job_info(j, "poses-out") ? "; wrote " : "",
                    vsg_screen_job_info(j, "poses-out") ? vsg_screen_job_info(j, "poses-out") : "");
        if (shard && shard[0]) fprintf(stderr, "vsgrid: wrote %s.done\n", out_path);
    }
    const int nlib = atoi(vsg_screen_job_info(j, "libraries"));
    const char **libs = malloc(sizeof *libs * (size_t)(nlib > 0 ? nlib : 1));
    for (int i = 0; libs && i < nlib; i++) libs[i] = vsg_screen_job_library(j, i);
    if (json && libs) {
        vsg_json js;
        FILE *f = vsg_cli_json_open(json, &js, cmd);
        if (f) {
            const int maps = target && strlen(target) > 4 && !strcmp(target + strlen(target) - 4, ".fld");
            vsg_json_str(&js, vina ? "maps" : "grid", target);
            vsg_cli_json_screen(&js, vina ? (vinardo ? "vinardo" : "vina") : maps ? "ad4" : "elec", libs, nlib, &rep);
            if (!vina || flexible) vsg_json_str(&js, "placement", kind);
            if (!strcmp(kind, "rigid")) {
                double b[6] = {0};
                const char *box = vsg_screen_job_info(j, "site_box");
                if (box) sscanf(box, "%lf,%lf,%lf,%lf,%lf,%lf", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5]);
                vsg_json_int(&js, "rotations", atol(vsg_screen_job_info(j, "rotations_used")));
                vsg_json_num(&js, "site_step", atof(vsg_screen_job_info(j, "site_step_used")));
                vsg_json_array(&js, "site_box_center");
                for (int d = 0; d < 3; d++) vsg_json_num(&js, NULL, b[d]);
                vsg_json_end(&js, ']');
                vsg_json_array(&js, "site_box_half_extents");
                for (int d = 0; d < 3; d++) vsg_json_num(&js, NULL, b[3 + d]);
                vsg_json_end(&js, ']');
                vsg_json_int(&js, "poses", (long long)rep.poses);
                vsg_json_int(&js, "poses_scored", (long long)rep.poses_scored);
                vsg_json_num(&js, "poses_scored_per_second", rep.score_s > 0 ? rep.poses_scored / rep.score_s : 0.0);
            }
            if (flexible) {
                vsg_json_int(&js, "seed", atoll(vsg_screen_job_info(j, "seed_used")));
                vsg_json_str(&js, "search", vsg_screen_job_info(j, "search_used"));
                vsg_json_int(&js, "exhaustiveness", atol(vsg_screen_job_info(j, "exhaustiveness_used")));
                vsg_json_int(&js, "steps", atol(vsg_screen_job_info(j, "steps_used"))); /* 0: Vina's default for each record's size */
                vsg_json_int(&js, "focus_chains", atol(vsg_screen_job_info(j, "focus_chains_used")));
                vsg_json_int(&js, "focus_steps", atol(vsg_screen_job_info(j, "focus_steps_used"))); /* 0: 4 x steps */
                vsg_json_int(&js, "max_torsions", atol(vsg_screen_job_info(j, "max_torsions_used")));
                vsg_json_int(&js, "dock_evaluations", atoll(vsg_screen_job_info(j, "evaluations")));
                if (vsg_screen_job_info(j, "poses-out")) vsg_json_str(&js, "poses_out", vsg_screen_job_info(j, "poses-out"));
                vsg_json_int(&js, "poses", atol(vsg_screen_job_info(j, "poses_used")));
            }
            if (shard && shard[0]) {
                vsg_json_str(&js, "shard_state", shard);
                vsg_json_int(&js, "first_record", atoll(vsg_screen_job_info(j, "first")));
                vsg_json_int(&js, "slice_records", atoll(vsg_screen_job_info(j, "count")));
                vsg_json_int(&js, "records_total", atoll(vsg_screen_job_info(j, "records_total")));
                vsg_json_int(&js, "resumed_rows", atoll(vsg_screen_job_info(j, "resumed_rows")));
            }
            vsg_cli_json_finish(&js, f, json, vsg_now() - t0);
        }
    }
    rc = vsg_cli_screen_verdict(cmd, libs, nlib, &rep); /* issue 20: io rows, nothing scored inside */
    free(libs);
    vsg_screen_job_free(j);
    return rc;
}

/* ---- the end-of-run verdict and receptor checks (issue 20: no silent wrong answer) ------------ */


int vsg_cli_check_charges(const char *cmd, const char *path, const vsg_molecule *m, int allow)
{
    size_t n = vsg_molecule_atom_count(m);
    vsg_atom_info a;
    for (size_t i = 0; i < n; i++)
        if (vsg_molecule_atom(m, i, &a) == VSG_OK && a.charge != 0.0) return 0;
    if (n == 0) return 0;
    if (allow) {
        vsg_warn("%s: every atom charge is 0 (%zu atoms): the electrostatic potential is zero", path, n);
        return 0;
    }
    fprintf(stderr, "vsgrid %s: %s: every atom charge is 0 (%zu atoms), so the electrostatics would be zero. "
                    "Likely cause: a receptor written without charges ('obabel -xr -p' writes 0.000; make a PQR with "
                    "pdb2pqr, or a PDBQT with Gasteiger charges); --allow-zero-charges goes on anyway\n",
            cmd, path, n);
    return VSG_EXIT_INPUT;
}

double vsg_cli_box_distance(const vsg_molecule *m, const double lo[3], const double hi[3])
{
    double best = INFINITY;
    size_t na = vsg_molecule_atom_count(m);
    vsg_atom_info a;
    for (size_t i = 0; i < na; i++) {
        if (vsg_molecule_atom(m, i, &a) != VSG_OK) continue;
        const double x[3] = {a.x, a.y, a.z};
        double d2 = 0.0;
        for (int k = 0; k < 3; k++) {
            double d = x[k] < lo[k] ? lo[k] - x[k] : x[k] > hi[k] ? x[k] - hi[k] : 0.0;
            d2 += d * d;
        }
        if (d2 < best) best = d2;
    }
    return isfinite(best) ? sqrt(best) : best;
}

int vsg_cli_check_output(const char *cmd, const char *path)
{
    if (!path || !strcmp(path, "-")) return 0;
    const char *slash = strrchr(path, '/');
    char dir[4096];
    if (!slash) snprintf(dir, sizeof dir, ".");
    else if (slash == path) snprintf(dir, sizeof dir, "/");
    else snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    struct stat sb;
    if (stat(path, &sb) == 0) {
        if (S_ISDIR(sb.st_mode)) {
            fprintf(stderr, "vsgrid %s: cannot write %s: it is a folder\n", cmd, path);
            return VSG_EXIT_FAILURE;
        }
        if (access(path, W_OK) != 0) {
            fprintf(stderr, "vsgrid %s: cannot write %s: %s\n", cmd, path, strerror(errno));
            return VSG_EXIT_FAILURE;
        }
        return 0;
    }
    if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
        fprintf(stderr, "vsgrid %s: cannot write %s: no folder %s (make it first)\n", cmd, path, dir);
        return VSG_EXIT_FAILURE;
    }
    if (access(dir, W_OK) != 0) {
        fprintf(stderr, "vsgrid %s: cannot write %s: folder %s: %s\n", cmd, path, dir, strerror(errno));
        return VSG_EXIT_FAILURE;
    }
    return 0;
}

int vsg_cmd_screen(int argc, char **argv)
{
    const int rc = vsg_cli_screen_command(argc, argv, "screen");
    return rc == -2 ? 0 : rc;
}
