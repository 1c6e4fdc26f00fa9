/* cli_screen.c — `vsgrid screen`: score ligand libraries or docking poses on a receptor grid
 * (a PB or Coulomb grid: electrostatics; an AutoGrid map set: the AutoDock4 intermolecular
 * energy), one CSV row per input record, in input order. */
#define _POSIX_C_SOURCE 200809L /* pthreads, isatty */
#include <errno.h>
#include <math.h>
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
    "LIBRARY   SDF (V2000/V3000), MOL2, PDBQT (multi-MODEL pose files), PDB; .gz read\n"
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
    "  --format F              sdf | mol2 | pdbqt | pdb (default: from each file's content,\n"
    "                          whatever its extension says (a warning when they disagree), else\n"
    "                          from its extension). PDB ligands get bonds from CONECT, else from\n"
    "                          distances (covalent radii), for Gasteiger charges and torsions\n"
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

typedef struct {
    const char *grid;
    const char *inputs[4096];
    int ninputs;
    vsg_screen_outputs out;
    int quiet;
    double temperature;
    int threads;
    int scoring_ad4; /* --scoring ad4: GRID must be a .maps.fld */
    int resume;      /* --resume */
    vsg_screen_extra x; /* --resume, --best-per-molecule (vsgrid.h) */
    vsg_screen_options so;
    /* placement */
    int have_box, have_padding, have_step, have_rotations;
    double box[6], padding;
    const char *around;
} screen_cli;

static int parse(int argc, char **argv, const char *cmd, screen_cli *c)
{
    memset(c, 0, sizeof *c);
    c->temperature = 298.15;
    c->so.tolerance = 0.01;
    c->so.kernel = VSG_KERNEL_AUTO;
    c->so.nrotations = 1000;
    c->so.box.step = VSG_PLACE_DEFAULT_STEP;
    c->padding = 2.0;
    const char *devices = "all";
    vsg_args a = {argc, 1, argv, NULL, NULL};
    for (; a.i < argc; a.i++) {
        const char *arg = argv[a.i];
        if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
            fputs(screen_usage, stdout);
            fputs(vsg_cli_vina_help, stdout);
            fputs(vsg_cli_vina_flexible_help, stdout);
            fputs(vsg_cli_dock_options_help, stdout);
            return -2;
        }
        if (arg[0] != '-' || !strcmp(arg, "-")) {
            if (!c->grid) c->grid = arg;
            else if (c->ninputs < (int)(sizeof c->inputs / sizeof c->inputs[0])) c->inputs[c->ninputs++] = arg;
            else return vsg_cli_usage_error(cmd, "too many library files (at most %d)", (int)(sizeof c->inputs / sizeof c->inputs[0]));
            continue;
        }
        if (vsg_arg_is(&a, "--quiet")) { c->quiet = 1; continue; }
        if (vsg_arg_is(&a, "--resume")) { c->resume = 1; continue; }
        if (vsg_arg_is(&a, "--best-per-molecule")) { c->x.best_per_molecule = 1; continue; }
        int r = vsg_cli_screen_option(&a, cmd, &c->so, &c->out, &devices);
        if (r < 0) return VSG_EXIT_USAGE;
        if (r > 0) continue;
        const char *v = NULL;
        double x;
#define VALUE() do { v = vsg_arg_value(&a, cmd); if (!v) return VSG_EXIT_USAGE; } while (0)
        if (vsg_arg_is(&a, "--scoring")) {
            VALUE();
            if (strcmp(v, "ad4") != 0) return vsg_cli_usage_error(cmd, "--scoring: '%s' is not ad4, vina or vinardo", v);
            c->scoring_ad4 = 1;
        } else if (vsg_arg_is(&a, "--device")) {
            VALUE();
            devices = !strcmp(v, "gpu") ? "0" : !strcmp(v, "auto") ? "all" : v;
        } else if (vsg_arg_is(&a, "--max-gpu-memory")) {
            VALUE();
            if (!vsg_parse_size(v, &c->so.max_gpu_memory)) return vsg_cli_usage_error(cmd, "--max-gpu-memory: '%s' is not a size", v);
        } else if (vsg_arg_is(&a, "--parse-threads")) {
            VALUE();
            if (!vsg_parse_number(v, &x) || x < 1 || x > VSG_SCREEN_MAX_PARSE_THREADS || x != (int)x)
                return vsg_cli_usage_error(cmd, "--parse-threads: '%s' is not a whole number in [1, %d]", v,
                                           VSG_SCREEN_MAX_PARSE_THREADS);
            c->so.parse_threads = (int)x;
        } else if (vsg_arg_is(&a, "--threads")) {
            VALUE();
            if (!vsg_parse_number(v, &x) || x < 1 || x > 4096) return vsg_cli_usage_error(cmd, "--threads: '%s' is not a number >= 1", v);
            c->threads = (int)x;
        } else if (vsg_arg_is(&a, "--placement")) {
            VALUE();
            if (!strcmp(v, "as-is")) c->so.placement = VSG_PLACEMENT_AS_IS;
            else if (!strcmp(v, "rigid")) c->so.placement = VSG_PLACEMENT_RIGID;
            else return vsg_cli_usage_error(cmd, "--placement: '%s' is not as-is or rigid", v);
        } else if (vsg_arg_is(&a, "--box")) {
            VALUE();
            if (!vsg_parse_list(v, c->box, 6) || !(c->box[3] >= 0 && c->box[4] >= 0 && c->box[5] >= 0))
                return vsg_cli_usage_error(cmd, "--box: '%s' is not CX,CY,CZ,SX,SY,SZ with sizes >= 0", v);
            c->have_box = 1;
        } else if (vsg_arg_is(&a, "--around")) {
            VALUE();
            c->around = v;
        } else if (vsg_arg_is(&a, "--padding")) {
            VALUE();
            if (!vsg_parse_number(v, &x) || !(x >= 0) || x > 1000) return vsg_cli_usage_error(cmd, "--padding: '%s' is not a number in [0, 1000]", v);
            c->padding = x;
            c->have_padding = 1;
        } else if (vsg_arg_is(&a, "--site-step")) {
            VALUE();
            if (!vsg_parse_number(v, &x) || !(x >= 0.01) || x > 100) return vsg_cli_usage_error(cmd, "--site-step: '%s' is not a number in [0.01, 100]", v);
            c->so.box.step = x;
            c->have_step = 1;
        } else if (vsg_arg_is(&a, "--rotations")) {
            VALUE();
            if (!vsg_parse_number(v, &x) || x < 1 || x > 1e6 || x != (int)x)
                return vsg_cli_usage_error(cmd, "--rotations: '%s' is not a whole number in [1, 1000000]", v);
            c->so.nrotations = (int)x;
            c->have_rotations = 1;
        } else if (vsg_arg_is(&a, "--top-poses")) {
            VALUE();
            if (!vsg_parse_number(v, &x) || x < 1 || x > VSG_SCREEN_MAX_TOP_POSES || x != (int)x)
                return vsg_cli_usage_error(cmd, "--top-poses: '%s' is not a whole number in [1, %d]", v, VSG_SCREEN_MAX_TOP_POSES);
            c->so.top_poses = (int)x;
        } else if (vsg_arg_is(&a, "--poses-out")) {
            VALUE();
            vsg_ligand_format f = vsg_ligand_format_of(v);
            if (f != VSG_LIG_SDF && f != VSG_LIG_PDBQT) return vsg_cli_usage_error(cmd, "--poses-out: '%s' must end in .sdf or .pdbqt", v);
            c->so.poses_path = v;
        } else if (vsg_arg_is(&a, "--temperature")) {
            VALUE();
            if (!vsg_parse_number(v, &x) || !(x > 0)) return vsg_cli_usage_error(cmd, "--temperature: '%s' is not a number > 0", v);
            c->temperature = x;
        } else {
            return vsg_cli_usage_error(cmd, "unknown option '%s'", arg);
        }
#undef VALUE
    }
    if (!c->grid) return vsg_cli_usage_error(cmd, "no GRID given");
    if (c->scoring_ad4 && (strlen(c->grid) < 4 || strcmp(c->grid + strlen(c->grid) - 4, ".fld") != 0))
        return vsg_cli_usage_error(cmd, "--scoring ad4 needs an AutoGrid map set (GRID ending in .fld), not '%s'", c->grid);
    if (c->ninputs == 0) return vsg_cli_usage_error(cmd, "no LIBRARY given");
    if (!c->out.csv) return vsg_cli_usage_error(cmd, "no output: give -o RESULTS.csv ('-' for standard output)");
    if (c->out.top && !c->out.sdf) return vsg_cli_usage_error(cmd, "--top needs --sdf-out");
    if (c->resume && (!strcmp(c->out.csv, "-") || c->out.top || vsg_mpi_active()))
        return vsg_cli_usage_error(cmd, "--resume needs -o FILE.csv, and works neither with --top (the best are "
                                        "chosen over the whole run) nor under MPI");
    if (c->x.best_per_molecule && (c->resume || vsg_mpi_active()))
        return vsg_cli_usage_error(cmd, "--best-per-molecule writes its rows at the end: not with --resume or under MPI");
    if (c->resume && c->so.poses_path && vsg_ligand_format_of(c->so.poses_path) != VSG_LIG_SDF)
        return vsg_cli_usage_error(cmd, "--resume: --poses-out must be an .sdf file");
    for (int i = 0; i < c->ninputs; i++)
        if (!strcmp(c->inputs[i], "-") && c->so.format == VSG_LIG_AUTO)
            return vsg_cli_usage_error(cmd, "reading standard input needs --format");
    if (c->so.placement != VSG_PLACEMENT_RIGID &&
        (c->have_box || c->around || c->have_padding || c->have_step || c->have_rotations || c->so.top_poses || c->so.poses_path))
        return vsg_cli_usage_error(cmd, "--box, --around, --padding, --site-step, --rotations, --top-poses and --poses-out need --placement rigid");
    if (c->have_box && c->around) return vsg_cli_usage_error(cmd, "give --box or --around, not both");
    if (c->have_padding && !c->around) return vsg_cli_usage_error(cmd, "--padding needs --around");
    if (c->so.top_poses && !c->so.poses_path) return vsg_cli_usage_error(cmd, "--top-poses needs --poses-out");
    int r = vsg_cli_screen_finish(cmd, devices, &c->so);
    if (r == 0 && c->so.placement == VSG_PLACEMENT_RIGID && c->so.top_poses > 1) {
        /* the GPU keeps the best pose only: top-k placement runs on the CPU twin */
        c->so.ndevices = 1;
        c->so.devices[0] = VSG_SCREEN_CPU;
    }
    /* outputs written at the end: checked now, not after the whole screen (issue 20) */
    const char *later[3] = {c->out.sdf, c->out.json, c->so.poses_path};
    for (int i = 0; r == 0 && i < 3; i++)
        if (later[i] && vsg_mpi_rank() == 0) r = vsg_cli_check_output(cmd, later[i]);
    return r;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && !strcmp(s + n - m, suffix);
}

/* The grids to score on: a map set (AD4) or one potential grid (ELEC). */
typedef struct {
    vsg_mapset *maps;
    vsg_grid *grid;
    vsg_score_grids elec;
    const vsg_score_grids *g;
} loaded_grids;

static vsg_status load_grids(const char *path, double temperature, loaded_grids *L)
{
    memset(L, 0, sizeof *L);
    if (ends_with(path, ".fld")) {
        vsg_status st = vsg_mapset_read(path, &L->maps);
        if (st == VSG_OK) L->g = vsg_mapset_grids(L->maps);
        return st;
    }
    vsg_status st = vsg_cli_receptor_not_grid(path);
    if (st != VSG_OK) return st;
    st = vsg_grid_read(path, &L->grid);
    if (st != VSG_OK) return st;
    st = vsg_score_grids_from_grid(L->grid, temperature, &L->elec);
    if (st == VSG_OK) L->g = &L->elec;
    return st;
}

/* The site box: --box, --around LIGAND (+ padding), or the grid's box minus 2 Å a side. */
static vsg_status resolve_box(const screen_cli *c, const vsg_score_grids *g, vsg_place_box *box)
{
    if (c->have_box) {
        for (int d = 0; d < 3; d++) {
            box->center[d] = c->box[d];
            box->half[d] = 0.5 * c->box[3 + d];
        }
        return VSG_OK;
    }
    if (c->around) {
        vsg_molecule *m = NULL;
        vsg_status st = vsg_ligand_file_molecule(c->around, &m); /* its first record */
        if (st != VSG_OK) return vsg_fail(st, "--around: %s", vsg_last_error());
        double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
        vsg_atom_info a;
        for (size_t i = 0; i < vsg_molecule_atom_count(m); i++) {
            if (vsg_molecule_atom(m, i, &a) != VSG_OK) continue;
            const double p[3] = {a.x, a.y, a.z};
            for (int d = 0; d < 3; d++) {
                if (p[d] < lo[d]) lo[d] = p[d];
                if (p[d] > hi[d]) hi[d] = p[d];
            }
        }
        for (int d = 0; d < 3; d++) {
            box->center[d] = 0.5 * (lo[d] + hi[d]);
            box->half[d] = 0.5 * (hi[d] - lo[d]) + c->padding;
        }
        vsg_molecule_free(m);
        return VSG_OK;
    }
    const double margin = 2.0;
    for (int d = 0; d < 3; d++) {
        double extent = (g->n[d] - 1) * g->spacing[d];
        box->center[d] = g->origin[d] + 0.5 * extent;
        box->half[d] = 0.5 * extent - margin > 0 ? 0.5 * extent - margin : 0.0;
    }
    return VSG_OK;
}

static void free_grids(loaded_grids *L)
{
    vsg_mapset_free(L->maps);
    vsg_grid_free(L->grid);
}

static void write_json(const screen_cli *c, const loaded_grids *L, const vsg_screen_report *rep, double seconds)
{
    vsg_json j;
    FILE *f = vsg_cli_json_open(c->out.json, &j, "screen");
    if (!f) return;
    vsg_json_str(&j, "grid", c->grid);
    vsg_cli_json_screen(&j, L->g->kind == VSG_SCORE_AD4 ? "ad4" : "elec", c->inputs, c->ninputs, rep);
    vsg_json_str(&j, "placement", c->so.placement == VSG_PLACEMENT_RIGID ? "rigid" : "as-is");
    if (c->so.placement == VSG_PLACEMENT_RIGID) {
        vsg_json_int(&j, "rotations", c->so.nrotations);
        vsg_json_num(&j, "site_step", c->so.box.step);
        vsg_json_array(&j, "site_box_center");
        for (int d = 0; d < 3; d++) vsg_json_num(&j, NULL, c->so.box.center[d]);
        vsg_json_end(&j, ']');
        vsg_json_array(&j, "site_box_half_extents");
        for (int d = 0; d < 3; d++) vsg_json_num(&j, NULL, c->so.box.half[d]);
        vsg_json_end(&j, ']');
        vsg_json_int(&j, "poses", (long long)rep->poses);
        vsg_json_int(&j, "poses_scored", (long long)rep->poses_scored);
        vsg_json_num(&j, "poses_scored_per_second", rep->score_s > 0 ? rep->poses_scored / rep->score_s : 0.0);
    }
    vsg_cli_json_finish(&j, f, c->out.json, seconds);
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
    const double t0 = vsg_now();
    static screen_cli c; /* large (the input list): not on the stack */
    const char *scoring = vsg_cli_scoring_arg(argc, argv);
    if (scoring && (!strcmp(scoring, "vina") || !strcmp(scoring, "vinardo"))) { /* Vina: its own CPU loop */
        const char *placement = vsg_cli_placement_arg(argc, argv);
        if (placement && !strcmp(placement, "flexible")) { /* each record docked */
            int vr = vsg_cli_vina_flexible_command(argc, argv, "screen");
            return vr == -2 ? 0 : vr;
        }
        if (placement && strcmp(placement, "as-is"))
            return vsg_cli_usage_error("screen", "--placement %s with --scoring %s: rigid placement works on an AutoDock4 "
                                       "map set (GRID a .maps.fld, --scoring ad4); on a Vina map set use --placement "
                                       "flexible (each record docked) or as-is", placement, scoring);
        char **args = argv; /* --placement as-is is the Vina screen's only mode: drop it */
        int nargs = argc;
        char *kept[512];
        if (placement && argc <= (int)(sizeof kept / sizeof kept[0])) {
            nargs = 0;
            for (int i = 0; i < argc; i++) {
                if (!strcmp(argv[i], "--placement")) { i++; continue; }
                if (!strncmp(argv[i], "--placement=", 12)) continue;
                kept[nargs++] = argv[i];
            }
            args = kept;
        }
        int vr = vsg_cli_vina_command(nargs, args, "screen", 0);
        if (vr == -2) fputs(vsg_cli_vina_flexible_help, stdout), fputs(vsg_cli_dock_options_help, stdout);
        return vr == -2 ? 0 : vr;
    }
    int r = parse(argc, argv, "screen", &c);
    if (r == -2) return 0;
    if (r) return r;
#ifdef _OPENMP
    if (c.threads > 0) omp_set_num_threads(c.threads);
#endif
    loaded_grids L;
    vsg_status st = load_grids(c.grid, c.temperature, &L);
    if (st != VSG_OK) {
        free_grids(&L);
        return vsg_cli_fail(st);
    }
    if (c.so.placement == VSG_PLACEMENT_RIGID && L.g->kind != VSG_SCORE_AD4) {
        free_grids(&L);
        return vsg_cli_usage_error("screen", "%s: %s", c.grid, VSG_SCREEN_STERIC_HINT);
    }
    /* MPI (issue 7): under mpirun each rank writes its batches to part files (CSV here; SDF and
     * poses in the pipeline), which rank 0 merges below. */
    char part[4200];
    const char *csv_path = vsg_mpi_screen_part(c.out.csv, part, sizeof part);
    static char fingerprint[60000];
    vsg_resume_fingerprint(argc, argv, fingerprint, sizeof fingerprint);
    if (c.resume) { /* --resume: check the rows written, cut what is incomplete, skip the records done */
        vsg_resume_spec rs = {c.out.csv, c.out.sdf, c.so.poses_path, c.so.top_poses > 1, fingerprint, c.inputs,
                              c.ninputs, {c.so.format, 0, c.so.max_atoms}};
        st = vsg_resume_prepare(&rs, &c.x.resume_skip);
        if (st != VSG_OK) {
            fprintf(stderr, "vsgrid screen: --resume: %s\n", vsg_last_error());
            free_grids(&L);
            return st == VSG_E_NOMEM ? VSG_EXIT_LIMIT : VSG_EXIT_INPUT;
        }
        c.x.resume = 1;
        if (!c.quiet) fprintf(stderr, "vsgrid: resuming %s after its %zu rows\n", c.out.csv, c.x.resume_skip);
    } else if (strcmp(c.out.csv, "-") && vsg_mpi_rank() == 0 && vsg_resume_sidecar_write(c.out.csv, fingerprint) != VSG_OK) {
        vsg_warn("%s (--resume will not work on this run)", vsg_last_error());
    }
    FILE *csv = strcmp(csv_path, "-") ? fopen(csv_path, c.resume ? "a" : "w") : stdout;
    if (!csv) {
        fprintf(stderr, "vsgrid: cannot write %s: %s\n", csv_path, strerror(errno));
        free_grids(&L);
        return VSG_EXIT_INPUT;
    }
    vsg_quat *rotations = NULL;
    if (c.so.placement == VSG_PLACEMENT_RIGID) {
        int n[3];
        st = resolve_box(&c, L.g, &c.so.box);
        if (st == VSG_OK) st = vsg_place_lattice(&c.so.box, n);
        rotations = st == VSG_OK ? malloc(sizeof *rotations * (size_t)c.so.nrotations) : NULL;
        if (st == VSG_OK && !rotations) st = vsg_fail(VSG_E_NOMEM, "out of memory for %d rotations", c.so.nrotations);
        if (st == VSG_OK) st = vsg_rotations_super_fibonacci(c.so.nrotations, rotations);
        if (st != VSG_OK) {
            free(rotations);
            if (csv != stdout) fclose(csv);
            free_grids(&L);
            return vsg_cli_fail(st);
        }
        c.so.rotations = rotations;
        if (!c.quiet)
            fprintf(stderr,
                    "vsgrid: rigid placement: %d rotations x %d x %d x %d sites (step %g A) around (%.3f, %.3f, %.3f) = "
                    "%.3g poses per molecule, %s\n",
                    c.so.nrotations, n[0], n[1], n[2], c.so.box.step, c.so.box.center[0], c.so.box.center[1],
                    c.so.box.center[2], (double)c.so.nrotations * n[0] * n[1] * n[2],
                    c.so.devices[0] == VSG_SCREEN_CPU ? "on the CPU twin" : "on the GPU where it can (the CPU twin otherwise)");
    }
    c.so.inputs = c.inputs;
    c.so.ninputs = c.ninputs;
    vsg_cli_screen_bind(&c.so, &c.out, csv, c.quiet);
    vsg_screen_report rep;
    st = vsg_screen_run_extra(L.g, &c.so, &c.x, &rep);
    if (csv != stdout && fclose(csv) != 0 && st == VSG_OK) st = vsg_fail(VSG_E_IO, "cannot write %s", csv_path);
    /* MPI (issue 7): sum the counts, rank 0 merges the parts */
    st = vsg_mpi_screen_finish(st, c.out.csv, c.out.sdf, c.out.top, c.so.poses_path, &rep);
    free(rotations);
    if (st != VSG_OK) {
        free_grids(&L);
        return vsg_cli_fail(st);
    }
    if (!c.quiet) {
        vsg_cli_screen_summary(&rep, "", &c.out);
        fprintf(stderr, "  score_kcal_mol: %s%s\n",
                L.maps ? "AutoDock4 intermolecular energy (vdW/H-bond + electrostatic + desolvation; no intramolecular "
                         "or torsional-entropy term)"
                       : "electrostatic interaction energy only (Σ q·φ; no vdW, desolvation, entropy)",
                c.so.placement == VSG_PLACEMENT_RIGID ? ", of each record's best rigid placement" : ", of each pose as given");
    }
    if (!c.quiet && c.so.placement == VSG_PLACEMENT_RIGID)
        fprintf(stderr, "vsgrid: placement: %.3g poses, %.3g scored (the rest left the grid), %.3g poses/s scored%s%s\n",
                (double)rep.poses, (double)rep.poses_scored, rep.score_s > 0 ? rep.poses_scored / rep.score_s : 0.0,
                c.so.poses_path ? "; wrote " : "", c.so.poses_path ? c.so.poses_path : "");
    if (c.out.json && vsg_mpi_rank() == 0) write_json(&c, &L, &rep, vsg_now() - t0); /* MPI: rank 0 writes */
    free_grids(&L);
    return vsg_mpi_rank() == 0 ? vsg_cli_screen_verdict("screen", c.inputs, c.ninputs, &rep) : 0;
}
