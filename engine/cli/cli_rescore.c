/* cli_rescore.c — `vsgrid rescore RECEPTOR POSES... -o RESULTS.csv`: rescoring docking poses
 * in one command. Pass 1 streams the poses once for the bounding box of their atoms; the
 * receptor grid (PB, or direct Coulomb) is built in memory on that box plus --padding; pass 2
 * is `vsgrid screen`'s pipeline (vsg_screen_run) on that grid, same options, same CSV.
 *
 * Why two passes rather than reading the poses into memory: pose files can be large, and the
 * readers are fast; streaming twice keeps memory bounded by the largest record, as screen does.
 * Standard input cannot be read twice, so '-' is refused.
 *
 * The box is reproducible with `vsgrid grid --box`: its centre is rounded to 0.001 Å and its
 * edge lengths are whole multiples of the spacing (so the node count is exactly size/h + 1,
 * made odd), and both are printed and written to --json.
 *
 * --scoring vina|vinardo: cli_screen_options.c (on the receptor's atoms). --scoring ad4: an
 * AutoDock4 map set around the poses, then screen's scoring on it (rescore_ad4 below). */
#define _XOPEN_SOURCE 700 /* realpath, mkdtemp */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
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
#include "engine/cli/grid_batch.h"

#define RESCORE_SPACING 0.375 /* Å: AutoGrid's default, fine enough for pose-level scores */

static const char rescore_usage[] =
    "usage: vsgrid rescore RECEPTOR POSES... -o RESULTS.csv [options]\n"
    "       vsgrid rescore RECEPTOR.pdbqt POSES... --scoring vina|vinardo -o RESULTS.csv\n"
    "       (Vina / Vinardo scores as 'vina --score_only --autobox': see the end)\n"
    "       vsgrid rescore RECEPTOR.pdbqt POSES... --scoring ad4 -o RESULTS.csv [--keep-maps P]\n"
    "       (AutoDock4 scores as autodock4's epdb, on a map set made around the poses: see\n"
    "       'vsgrid rescore --scoring ad4 --help' and the end)\n"
    "       vsgrid rescore RECEPTOR.pdbqt LIBRARY... --scoring vina --placement flexible\n"
    "       (--box ...|--around LIG) -o RESULTS.csv [--poses-out F.sdf|F.pdbqt] (docking: Vina\n"
    "       maps of the box, then the flexible screen: 'vsgrid rescore --placement flexible --help')\n"
    "\n"
    "Rescores docking poses in one command: reads the poses once for the bounding box of their\n"
    "atoms, builds the receptor's potential grid on that box plus --padding (in memory;\n"
    "--grid-out keeps it), then scores every pose where it is, exactly as\n"
    "'vsgrid grid --box ... && vsgrid screen' would (the box is printed as those options), one\n"
    "CSV row per input record, in input order. Box: centre of the atom extent rounded to 0.001 Å,\n"
    "edges = extent + 2 x padding rounded up to whole spacings.\n"
    "\n"
    "RECEPTOR  PQR (charges and radii), PDBQT (charges; radii by AutoDock type), MOL2, or .gz;\n"
    "          or a PDB or mmCIF file, prepared first as 'vsgrid prepare' does (summary on\n"
    "          stderr): into a PQR (AMBER) here, a PDBQT for --scoring vina|vinardo|ad4\n"
    "POSES     SDF (V2000/V3000), MOL2, PDBQT (multi-MODEL pose files), PDB; .gz read directly;\n"
    "          several files. Standard input ('-') cannot be read twice: not accepted.\n"
    "\n"
    "grid:\n"
    "  --method M              pb (Poisson-Boltzmann, kT/e; default) | coulomb (direct sum,\n"
    "                          kcal/mol/e). AutoDock4 scores: --scoring ad4 (not --method)\n"
    "  --padding P             Å added on each side of the poses' atom extent (default 8)\n"
    "  --spacing H             grid spacing in Å (default 0.375 for rescoring, not grid's 0.5)\n"
    "  --grid-out FILE         also write the grid (.vsg, .dx or .dx.gz) to reuse with screen\n"
    "  --device D              where the GRID is built: auto (GPU if present, default) | cpu |\n"
    "                          gpu | N (scoring devices are --devices)\n"
    "  --grid-precision P      PB solver precision: float | double (default: float on the GPU,\n"
    "                          double on the CPU) (--precision is the scoring precision)\n"
    "  --bc B                  as below, but the default here is focus: the box around the\n"
    "                          poses cuts the receptor, whose charges outside it come in through\n"
    "                          a coarse solve around the whole receptor (APBS/DelPhi focusing)\n"
    "  --temperature K         same as --temp: PB temperature, and kT for the kT/e -> kcal/mol\n"
    "                          conversion of the scores (default 298.15)\n"
    "  --box, --fill, --around are not accepted: the box comes from the poses (use 'vsgrid grid'\n"
    "  and 'vsgrid screen' for another box).\n"
    "\n"
    "Coulomb (--method coulomb):\n"
    "  --dielectric D          mehler-solmajer (default) | 4r | a number > 0 (constant)\n"
    "  --autogrid              autogrid4 4.2.6's conventions (prefactor 332.0 x 0.1406, its\n"
    "                          eps(r) table); see 'vsgrid grid --help'\n"
    "\n"
    "scoring and output (as 'vsgrid screen'; see 'vsgrid screen --help'):\n"
    "  -o, --output FILE.csv   results ('-' = standard output). Columns: index, name, source,\n"
    "                          record, atoms, score_kcal_mol, elec_kcal_mol, atoms_outside,\n"
    "                          status (ok, outside, parse, io, no_atoms, no_charges,\n"
    "                          zero_charges, bad_coord, not_3d, too_many_atoms), message\n"
    "  --sdf-out FILE.sdf      the scored poses as SDF with vsgrid_* score tags\n"
    "  --top N                 with --sdf-out: only the N best (lowest) scores, best first\n"
    "  --json FILE             screen's summary keys, plus receptor, method, nodes, node_count,\n"
    "                          spacing, box (center, size, origin, padding), grid_seconds,\n"
    "                          grid_device, box_seconds (pass 1) and, for PB, its parameters\n"
    "                          and solver report as 'vsgrid grid --json' writes them\n"
    "  --quiet                 no summary or progress on stderr\n"
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
    "  --stereo any|specified  SMILES: stereocentres the SMILES leaves open, or that 5 builds\n"
    "                          inverted, docked as built with a note (any, default) or refused\n"
    "                          with status stereo (specified)\n"
    "  --charges MODE          auto (default) | file | gasteiger\n"
    "  --max-atoms N           records with more atoms get too_many_atoms (default 100000)\n"
    "  --kernel K              auto (default) | cpu | gm | roi | sm | tm | zip | roi-tm-zip |\n"
    "                          roi-sm-zip\n"
    "  --tolerance X           auto: largest error per molecule allowed, kcal/mol (default 0.01)\n"
    "  --precision P           scoring precision: float (default) | double\n"
    "  --devices LIST          scoring devices: all (default: every GPU, else the CPU) | cpu |\n"
    "                          0,1,...\n"
    "  --max-gpu-memory SIZE   cap on device memory per GPU, for the grid and the scoring\n"
    "  --batch-atoms N         cap on atoms per batch\n"
    "  --threads N             CPU threads (OpenMP), for the grid and the scoring\n"
    "\n"
    "Atoms outside the grid contribute 0 and are counted (status 'outside'); with the box built\n"
    "around the poses there are none unless --padding is 0 and a pose lies on the edge.\n"
    "A receptor whose charges are all 0 is refused (exit 3; 'obabel -xr -p' writes 0.000):\n"
    "  --allow-zero-charges    go on anyway (a warning; every elec score is then 0)\n"
    "Exit codes: 0 the run completed (bad records get their rows), 2 usage, 3 unreadable\n"
    "receptor, a receptor with all charges 0, no pose atoms at all, poses with no receptor atom\n"
    "within 8 A (not docked on this receptor), or a pose file that cannot be opened or read\n"
    "(status io; its rows are written, the others scored), 4 memory, 5 GPU requested but\n"
    "unusable, 6 the PB solve did not converge (the rows are still written, on the unconverged\n"
    "grid), 7 not in this build (e.g. no Open Babel), 8 nothing scored (no record scored\n"
    "inside the grid: all failed or outside; with --scoring vina|vinardo a pose with no\n"
    "receptor atom within Vina's 8 A cutoff gets status outside: it is not on this receptor).\n"
    "\n"
    "PB options, as 'vsgrid grid' (here --spacing, --padding and --bc default as above, the\n"
    "solver's --precision is --grid-precision, and --box/--fill/--around are refused):\n";

static const char rescore_ad4_usage[] =
    "--scoring ad4: the AutoDock4 intermolecular energy of every pose, as autodock4's epdb\n"
    "  vsgrid rescore RECEPTOR.pdbqt POSES... --scoring ad4 -o RESULTS.csv [--keep-maps PREFIX]\n"
    "               [--padding 4] [--spacing 0.375] [--device auto|cpu|gpu|N] [scoring options]\n"
    "  is 'vsgrid maps RECEPTOR.pdbqt --scoring ad4 --around POSES -o P' followed by\n"
    "  'vsgrid screen P.maps.fld POSES', in one command, with the same numbers: the AutoDock4\n"
    "  map set (AD4.1_bound.dat, as autogrid4 4.2.6 makes it) of the ligand types the poses\n"
    "  contain, e and d, on a box around all the poses (vina's --autobox rule, as 'maps\n"
    "  --around': centred on the mean of their atoms, each side ceil(2 x (largest distance from\n"
    "  the centre + padding)), npts made even), then every pose scored where it is.\n"
    "  RECEPTOR      PDBQT (AutoDock types and charges), or PDB: prepared into a PDBQT as\n"
    "                'vsgrid prepare' does, kept as P.receptor.pdbqt (the file P.gpf names)\n"
    "  --keep-maps PREFIX  write the map set as PREFIX.<type>.map, PREFIX.e.map, PREFIX.d.map,\n"
    "                PREFIX.maps.fld/.xyz and PREFIX.gpf ('autogrid4 -p' on it in PREFIX's\n"
    "                folder makes the same maps) and keep it; default: a temporary folder,\n"
    "                removed at the end\n"
    "  --padding A   Å added to the largest distance (default 4, as 'maps --around')\n"
    "  --spacing A   map spacing (default 0.375)\n"
    "  --device D    where the maps are made: auto (GPU when usable, else the CPU twin; the same\n"
    "                maps) | cpu | gpu | N (scoring devices are --devices)\n"
    "  --threads N   CPU threads (maps and scoring)\n"
    "  scoring options as 'vsgrid screen': --devices, --kernel, --precision, --tolerance,\n"
    "  --charges, --format, --max-atoms, --max-gpu-memory, --batch-atoms, --sdf-out, --top,\n"
    "  --json, --quiet. Columns as 'vsgrid screen' on a map set: index, name, source, record,\n"
    "  atoms, score_kcal_mol (autodock4's epdb intermolecular energy), vdw_hb_kcal_mol,\n"
    "  elec_kcal_mol, desolv_kcal_mol, atoms_outside, status, message, ad4_intra (the pose's\n"
    "  internal energy, term (2) of autodock4's epdb; PDBQT poses). A pose atom whose type\n"
    "  has no AutoDock4 parameters gets no map: that pose's row has status untyped.\n"
    "  --allow-zero-charges  score on a receptor whose charges are all 0 (refused by default:\n"
    "                the e map would be 0; 'obabel -xr -p' writes 0.000)\n"
    "  Exit codes: 0 the run completed (bad poses get their rows), 2 usage, 3 unreadable receptor\n"
    "  or poses (a pose file that cannot be opened: its rows are written, the others scored),\n"
    "  a receptor without AutoDock types (not PDBQT) or with a type AD4.1_bound.dat lacks, or\n"
    "  with all charges 0, no pose atom of a type it has, poses with no receptor atom within\n"
    "  8 A, 4 memory, 5 GPU requested but unusable, 8 nothing scored (all failed or outside).\n";

typedef struct {
    const char *receptor, *grid_out;
    const char *inputs[4096];
    int ninputs;
    vsg_screen_outputs out;
    int quiet;
    /* grid */
    int coulomb, autogrid, have_dielectric;
    vsg_dielectric_model diel_model;
    double diel_eps;
    vsg_pb_params p;
    /* scoring */
    vsg_screen_options so;
    int allow_zero_charges; /* --allow-zero-charges */
} rescore_cli;

/* ---- option parsing ---------------------------------------------------------------------- */

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && !strcmp(s + n - m, suffix);
}

/* "mehler-solmajer" | "4r" | a number > 0 (as cli_grid.c's, without AutoGrid's 0 = 40). */
/* A file argument: the receptor first, then pose files. 0, or an exit code. */
static int take_file_into(const char *cmd, const char *arg, const char **receptor, const char **inputs, int *ninputs,
                          int cap)
{
    if (!strcmp(arg, "-"))
        return vsg_cli_usage_error(cmd, "standard input ('-') cannot be read twice (box, then scores): give the pose files");
    if (!*receptor) *receptor = arg;
    else if (*ninputs < cap) inputs[(*ninputs)++] = arg;
    else return vsg_cli_usage_error(cmd, "too many pose files (at most %d)", cap);
    return 0;
}
#define take_file(c, cmd, arg) \
    take_file_into(cmd, arg, &(c)->receptor, (c)->inputs, &(c)->ninputs, (int)(sizeof (c)->inputs / sizeof (c)->inputs[0]))

static int parse_dielectric(const char *cmd, const char *v, rescore_cli *c)
{
    double x;
    if (!strcmp(v, "mehler-solmajer") || !strcmp(v, "ms")) c->diel_model = VSG_DIEL_MEHLER_SOLMAJER, c->diel_eps = 0.0;
    else if (!strcmp(v, "4r")) c->diel_model = VSG_DIEL_DISTANCE_4R, c->diel_eps = 0.0;
    else if (vsg_parse_number(v, &x) && x > 0.0) c->diel_model = VSG_DIEL_CONSTANT, c->diel_eps = x;
    else return vsg_cli_usage_error(cmd, "--dielectric: '%s' is not mehler-solmajer, 4r or a number > 0", v);
    c->have_dielectric = 1;
    return 0;
}

static int parse(int argc, char **argv, const char *cmd, rescore_cli *c)
{
    memset(c, 0, sizeof *c);
    vsg_pb_params_default(&c->p);
    c->p.spacing = RESCORE_SPACING;
    c->p.bc = VSG_BC_FOCUS; /* a site box cuts the receptor: its charges outside come in by focusing */
    c->so.tolerance = 0.01;
    c->so.kernel = VSG_KERNEL_AUTO;
    const char *devices = "all", *around = NULL, *dielectric = NULL;
    vsg_args a = {argc, 1, argv, NULL, NULL};
    for (; a.i < argc; a.i++) {
        const char *arg = argv[a.i];
        if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
            fputs(rescore_usage, stdout);
            fputs(vsg_cli_pb_help, stdout);
            fputs("\n", stdout);
            fputs(vsg_cli_vina_help, stdout);
            fputs("\n", stdout);
            fputs(rescore_ad4_usage, stdout);
            return -2;
        }
        if (arg[0] != '-' || !strcmp(arg, "-")) {
            const int r = take_file(c, cmd, arg);
            if (r) return r;
            continue;
        }
        /* options whose name means something else to the PB parser, or that rescore refuses */
        if (vsg_arg_is(&a, "--box") || vsg_arg_is(&a, "--fill") || vsg_arg_is(&a, "--around"))
            return vsg_cli_usage_error(cmd, "%s: rescore builds the box around the poses (--padding, --spacing); "
                                            "for another box use 'vsgrid grid' then 'vsgrid screen'", a.name);
        if (vsg_arg_is(&a, "--grid-precision")) {
            const char *v = vsg_arg_value(&a, cmd);
            if (!v) return VSG_EXIT_USAGE;
            if (!strcmp(v, "double")) c->p.precision = VSG_PRECISION_DOUBLE;
            else if (!strcmp(v, "float")) c->p.precision = VSG_PRECISION_FLOAT;
            else return vsg_cli_usage_error(cmd, "--grid-precision: '%s' is not float or double", v);
            continue;
        }
        if (vsg_arg_is(&a, "--temperature")) {
            const char *v = vsg_arg_value(&a, cmd);
            double x;
            if (!v) return VSG_EXIT_USAGE;
            if (!vsg_parse_number(v, &x) || !(x > 0)) return vsg_cli_usage_error(cmd, "--temperature: '%s' is not a number > 0", v);
            c->p.temperature = x;
            continue;
        }
        if (vsg_arg_is(&a, "--method")) {
            const char *v = vsg_arg_value(&a, cmd);
            if (!v) return VSG_EXIT_USAGE;
            if (!strcmp(v, "pb")) c->coulomb = 0;
            else if (!strcmp(v, "coulomb")) c->coulomb = 1;
            else if (!strcmp(v, "ad4") || !strcmp(v, "autogrid")) {
                fprintf(stderr, "vsgrid %s: --method %s: for AutoDock4 scores give --scoring ad4 (a map set around "
                                "the poses, as autogrid4 makes it, then autodock4's epdb energy of each pose)\n",
                        cmd, v);
                return VSG_EXIT_UNSUPPORTED;
            } else return vsg_cli_usage_error(cmd, "--method: '%s' is not pb or coulomb", v);
            continue;
        }
        if (vsg_arg_is(&a, "--dielectric")) {
            if (!(dielectric = vsg_arg_value(&a, cmd))) return VSG_EXIT_USAGE;
            continue;
        }
        if (vsg_arg_is(&a, "--autogrid")) { c->autogrid = 1; continue; }
        if (vsg_arg_is(&a, "--allow-zero-charges")) { c->allow_zero_charges = 1; continue; }
        if (vsg_arg_is(&a, "--grid-out")) {
            if (!(c->grid_out = vsg_arg_value(&a, cmd))) return VSG_EXIT_USAGE;
            continue;
        }
        int r = vsg_cli_screen_option(&a, cmd, &c->so, &c->out, &devices);
        if (r < 0) return VSG_EXIT_USAGE;
        if (r > 0) continue;
        r = vsg_cli_pb_option(&a, cmd, &c->p, &around, &c->quiet);
        if (r < 0) return VSG_EXIT_USAGE;
        if (r > 0) continue;
        return vsg_cli_usage_error(cmd, "unknown option '%s'", arg);
    }
    vsg_cli_pb_finish(&c->p);
    if (!c->receptor) return vsg_cli_usage_error(cmd, "no RECEPTOR given");
    if (c->ninputs == 0) return vsg_cli_usage_error(cmd, "no POSES given");
    if (!c->out.csv) return vsg_cli_usage_error(cmd, "no output: give -o RESULTS.csv ('-' for standard output)");
    if (c->out.top && !c->out.sdf) return vsg_cli_usage_error(cmd, "--top needs --sdf-out");
    if (!c->coulomb && (dielectric || c->autogrid))
        return vsg_cli_usage_error(cmd, "--dielectric and --autogrid need --method coulomb");
    if (dielectric && parse_dielectric(cmd, dielectric, c)) return VSG_EXIT_USAGE;
    int r = vsg_cli_screen_finish(cmd, devices, &c->so);
    if (r) return r;
    /* outputs written after the grid and the scoring: checked now (issue 20) */
    if (c->grid_out && !ends_with(c->grid_out, ".vsg") && !ends_with(c->grid_out, ".dx") && !ends_with(c->grid_out, ".dx.gz"))
        return vsg_cli_usage_error(cmd, "--grid-out %s: a grid is written as .vsg, .dx or .dx.gz", c->grid_out);
    const char *later[3] = {c->grid_out, c->out.sdf, c->out.json};
    for (int i = 0; i < 3; i++)
        if (later[i] && (r = vsg_cli_check_output(cmd, later[i])) != 0) return r;
    c->so.max_gpu_memory = c->p.max_gpu_memory;
    c->p.progress = !c->quiet && isatty(2);
    return 0;
}

/* ---- pass 1: the box ------------------------------------------------------------------- */

/* Poses whose atom extent [lo, hi] has no receptor atom inside or within 8 Å of it are not in
 * the receptor's frame (DUD-E molecules sit near the origin): every score would be ~0 (issue 20).
 * Returns 0 or VSG_EXIT_INPUT (message printed). */
static int poses_near_receptor(const vsg_molecule *rec, const char *path, const double lo[3], const double hi[3])
{
    double center[3];
    for (int d = 0; d < 3; d++) center[d] = 0.5 * (lo[d] + hi[d]);
    const double dist = vsg_cli_box_distance(rec, lo, hi);
    if (dist <= 8.0) return 0;
    fprintf(stderr, "vsgrid rescore: the poses (centre %.3f %.3f %.3f) have no atom of %s inside or within 8 A of them "
                    "(nearest %.1f A): the poses are not placed on this receptor, so every score would be 0. Dock or "
                    "place them first (vsgrid screen --placement flexible|rigid), or give the receptor they were docked to\n",
            center[0], center[1], center[2], path, dist);
    return VSG_EXIT_INPUT;
}

typedef struct {
    double lo[3], hi[3];       /* extent of the poses' atoms */
    size_t records, used, atoms;
    double center[3], size[3]; /* the box handed to the grid (VSG_BOX_EXPLICIT) */
} pose_box;

static vsg_status poses_extent(const rescore_cli *c, pose_box *b)
{
    memset(b, 0, sizeof *b);
    for (int d = 0; d < 3; d++) b->lo[d] = INFINITY, b->hi[d] = -INFINITY;
    vsg_ligand_reader_options ro;
    memset(&ro, 0, sizeof ro);
    ro.format = c->so.format;
    ro.max_atoms = c->so.max_atoms;
    vsg_ligand_reader *rd = NULL;
    vsg_status st = vsg_ligand_reader_open(c->inputs, c->ninputs, &ro, &rd);
    if (st != VSG_OK) return st;
    vsg_ligand lig;
    vsg_ligand_init(&lig);
    size_t failed = 0;
    char first_failure[256] = "";
    while (vsg_ligand_reader_next(rd, &lig)) {
        b->records++;
        if (lig.status != VSG_OK) { /* gets its row in pass 2; no place in the box */
            if (failed++ == 0) snprintf(first_failure, sizeof first_failure, "%s", lig.message);
            continue;
        }
        size_t before = b->atoms;
        for (int i = 0; i < lig.natoms; i++) {
            const double p[3] = {lig.atoms[i].x, lig.atoms[i].y, lig.atoms[i].z};
            if (!isfinite(p[0]) || !isfinite(p[1]) || !isfinite(p[2])) continue;
            for (int d = 0; d < 3; d++) {
                if (p[d] < b->lo[d]) b->lo[d] = p[d];
                if (p[d] > b->hi[d]) b->hi[d] = p[d];
            }
            b->atoms++;
        }
        b->used += b->atoms > before;
    }
    vsg_ligand_release(&lig);
    vsg_ligand_reader_close(rd);
    if (b->atoms == 0)
        return vsg_fail(VSG_E_DATA, "no atoms with finite coordinates in the %zu record%s of the poses (%zu failed%s%s): "
                        "no box to build", b->records, b->records == 1 ? "" : "s", failed, failed ? "; first: " : "",
                        first_failure);
    return VSG_OK;
}

/* Centre rounded to 0.001 Å, edges whole multiples of h (plus 0.001 Å so the rounding of the
 * centre never leaves an atom out): `grid --box` with the printed numbers gives this grid. */
static void box_from_extent(pose_box *b, double padding, double h)
{
    for (int d = 0; d < 3; d++) {
        b->center[d] = round(0.5 * (b->lo[d] + b->hi[d]) * 1000.0) / 1000.0;
        double len = b->hi[d] - b->lo[d] + 2.0 * padding + 0.001;
        b->size[d] = ceil(len / h - 1e-9) * h;
        if (b->size[d] < 2.0 * h) b->size[d] = 2.0 * h;
    }
}

/* ---- the grid -------------------------------------------------------------------------- */

typedef struct {
    vsg_grid *grid;
    vsg_pb_report pb;        /* PB */
    vsg_coulomb_kernel k;    /* Coulomb */
    char device[64];
    double seconds;
} built_grid;

static vsg_status build_coulomb(const rescore_cli *c, const vsg_molecule *m, built_grid *B)
{
    vsg_pb_params defaults;
    vsg_pb_params_default(&defaults);
    defaults.bc = VSG_BC_FOCUS;                /* rescore's default */
    defaults.temperature = c->p.temperature;   /* used by rescore for kT, whatever the method */
    vsg_cli_warn_pb_only(&c->p, &defaults);
    vsg_level lv;
    vsg_status st = vsg_fine_level(m, &c->p, &lv);
    if (st != VSG_OK) return st;
    double bytes = (double)lv.n[0] * lv.n[1] * lv.n[2] * sizeof(float);
    if (bytes > c->p.max_memory)
        return vsg_fail(VSG_E_LIMIT, "the grid needs %.1f MiB, over --max-memory %.0f MiB", bytes / 1048576.0,
                        c->p.max_memory / 1048576.0);
    vsg_dielectric_model model = c->have_dielectric ? c->diel_model : VSG_DIEL_MEHLER_SOLMAJER;
    st = vsg_coulomb_kernel_make(model, c->have_dielectric ? c->diel_eps : 0.0, c->autogrid, &B->k);
    if (st != VSG_OK) return st;
    double sp[3] = {lv.h, lv.h, lv.h};
    if (!(B->grid = vsg_grid_new(lv.n, lv.origin, sp, "kcal/mol/e"))) return vsg_fail(VSG_E_NOMEM, "out of memory for the grid");
    char dname[32];
    st = vsg_grid_meta_add(B->grid, "method", "coulomb");
    if (st == VSG_OK) st = vsg_grid_meta_add(B->grid, "dielectric", "%s", vsg_cli_dielectric_name(&B->k, dname, sizeof dname));
    if (st == VSG_OK) st = vsg_grid_meta_add(B->grid, "autogrid", "%d", B->k.autogrid);
    if (st == VSG_OK) st = vsg_grid_meta_add(B->grid, "prefactor_kcal_a_mol_e2", "%.10g", B->k.scale);
    if (st == VSG_OK) st = vsg_grid_meta_add(B->grid, "receptor", "%s", c->receptor);
    if (st == VSG_OK) st = vsg_grid_meta_add(B->grid, "receptor_crc32", "%08x", (unsigned)vsg_molecule_checksum(m));
    if (st == VSG_OK) st = vsg_grid_meta_add(B->grid, "vsgrid_version", "%s", vsg_version());
    if (st != VSG_OK) return st;
    /* the GPU when asked or present, else the CPU twin (as `vsgrid grid --method coulomb`) */
    if (c->p.device == VSG_DEVICE_GPU || c->p.device == VSG_DEVICE_AUTO) {
        st = vsg_coulomb_gpu(m, &B->k, B->grid, c->p.gpu_index, NULL);
        if (st == VSG_OK) {
            snprintf(B->device, sizeof B->device, "gpu %d", c->p.gpu_index < 0 ? 0 : c->p.gpu_index);
            return VSG_OK;
        }
        if (c->p.device == VSG_DEVICE_GPU || (st != VSG_E_UNSUPPORTED && st != VSG_E_DEVICE)) return st;
        vsg_warn("no usable GPU (%s): computing the grid on the CPU", vsg_last_error());
    }
    int threads = 1;
#ifdef _OPENMP
    threads = omp_get_max_threads();
#endif
    snprintf(B->device, sizeof B->device, "cpu (%d thread%s)", threads, threads == 1 ? "" : "s");
    return vsg_coulomb_cpu(m, &B->k, B->grid);
}

static vsg_status build_grid(const rescore_cli *c, const vsg_molecule *m, built_grid *B)
{
    const double t0 = vsg_now();
    vsg_status st;
    if (c->coulomb) {
        st = build_coulomb(c, m, B);
    } else {
        double bytes = 0.0, h = 0.0;
        int n[3] = {0, 0, 0};
        st = vsg_pb_estimate(m, &c->p, &bytes, n, &h);
        if (st == VSG_OK && !c->quiet)
            fprintf(stderr, "vsgrid: PB grid %dx%dx%d at %.4g Å: memory estimate %.1f MiB (limit %.0f MiB)\n", n[0], n[1],
                    n[2], h, bytes / 1048576.0, c->p.max_memory / 1048576.0);
        if (st == VSG_OK) st = vsg_pb_solve(m, &c->p, &B->grid, &B->pb);
        if (st == VSG_OK) snprintf(B->device, sizeof B->device, "%s", B->pb.device);
    }
    B->seconds = vsg_now() - t0;
    return st;
}

/* ---- reports --------------------------------------------------------------------------- */

/* screen's summary, with the grid's time and device before the kernel. */
static void print_summary(const rescore_cli *c, const built_grid *B, const vsg_screen_report *rep)
{
    char note[128];
    snprintf(note, sizeof note, "grid %.2f s on %s; ", B->seconds, B->device);
    vsg_cli_screen_summary(rep, note, &c->out);
    fprintf(stderr, "  score_kcal_mol: electrostatic interaction energy only (Σ q·φ; no vdW, desolvation, entropy)\n");
}

static void json_triple(vsg_json *j, const char *key, const double v[3])
{
    vsg_json_array(j, key);
    for (int d = 0; d < 3; d++) vsg_json_num(j, NULL, v[d]);
    vsg_json_end(j, ']');
}

static int write_json(const rescore_cli *c, const pose_box *b, double box_s, const built_grid *B,
                      const vsg_screen_report *rep, double seconds)
{
    vsg_json j;
    FILE *f = vsg_cli_json_open(c->out.json, &j, "rescore");
    if (!f) return VSG_EXIT_FAILURE;
    /* screen's keys */
    if (c->grid_out) vsg_json_str(&j, "grid_out", c->grid_out);
    vsg_cli_json_screen(&j, "elec", c->inputs, c->ninputs, rep);
    /* the grid */
    vsg_grid_shape sh;
    vsg_grid_shape_of(B->grid, &sh);
    vsg_json_str(&j, "receptor", c->receptor);
    vsg_json_str(&j, "method", c->coulomb ? "coulomb" : "pb");
    vsg_json_str(&j, "units", sh.units);
    if (c->coulomb) {
        char dname[32];
        vsg_json_str(&j, "dielectric", vsg_cli_dielectric_name(&B->k, dname, sizeof dname));
        vsg_json_bool(&j, "autogrid", B->k.autogrid);
    }
    vsg_json_array(&j, "nodes");
    for (int d = 0; d < 3; d++) vsg_json_int(&j, NULL, sh.n[d]);
    vsg_json_end(&j, ']');
    vsg_json_int(&j, "node_count", (long long)sh.n[0] * sh.n[1] * sh.n[2]);
    vsg_json_num(&j, "spacing", sh.spacing[0]);
    vsg_json_object(&j, "box");
    json_triple(&j, "center_a", b->center);
    json_triple(&j, "size_a", b->size);
    json_triple(&j, "origin_a", sh.origin);
    json_triple(&j, "poses_min_a", b->lo);
    json_triple(&j, "poses_max_a", b->hi);
    vsg_json_num(&j, "padding_a", c->p.padding);
    vsg_json_int(&j, "pose_atoms", (long long)b->atoms);
    vsg_json_end(&j, '}');
    vsg_json_num(&j, "box_seconds", box_s);
    vsg_json_num(&j, "grid_seconds", B->seconds);
    vsg_json_str(&j, "grid_device", B->device);
    if (!c->coulomb) {
        vsg_cli_json_pb(&j, &c->p, &B->pb);
        vsg_json_num(&j, "kt_kcal_mol", B->pb.kt_kcal);
    }
    vsg_cli_json_finish(&j, f, c->out.json, seconds);
    return 0;
}

/* ---- --scoring ad4: an AutoDock4 map set around the poses, then screen's scoring --------- */
/* `vsgrid maps RECEPTOR --scoring ad4 --around POSES -o P` then `vsgrid screen P.maps.fld
 * POSES`, in one command: pass 1 streams the poses for the box (the rule of `maps --around`,
 * vina's --autobox: centre the mean of every atom, each side ceil(2 x (largest distance from it
 * + padding))) and the AutoDock types they contain; the gpf (vsg_ad4_gpf_for_box) and the maps
 * (vsg_cli_ad4_mapset, the code of `maps --scoring ad4`: GPU when usable, else the CPU twin)
 * go to a private temporary folder, removed at the end (--keep-maps PREFIX writes them there
 * instead and keeps them); pass 2 is vsg_screen_run on the map set, as `screen P.maps.fld`. */

#define AD4_MAX_TYPES (VSG_AG_MAX_MAPS - 2)

typedef struct {
    const char *receptor, *keep;
    const char *inputs[4096];
    int ninputs;
    vsg_screen_outputs out;
    int quiet, threads, gpu_index;
    vsg_device device;
    double padding, spacing;
    vsg_screen_options so;
    int allow_zero_charges; /* --allow-zero-charges */
} ad4_cli;

static int ad4_parse(int argc, char **argv, ad4_cli *c)
{
    const char *cmd = "rescore", *devices = "all", *v;
    double x;
    memset(c, 0, sizeof *c);
    c->padding = 4.0;
    c->spacing = RESCORE_SPACING;
    c->device = VSG_DEVICE_AUTO;
    c->gpu_index = -1;
    c->so.tolerance = 0.01;
    c->so.kernel = VSG_KERNEL_AUTO;
    vsg_args a = {argc, 1, argv, NULL, NULL};
    for (; a.i < argc; a.i++) {
        const char *arg = argv[a.i];
        if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
            fputs(rescore_ad4_usage, stdout);
            return -2;
        }
        if (arg[0] != '-' || !strcmp(arg, "-")) {
            const int r = take_file(c, cmd, arg);
            if (r) return r;
            continue;
        }
#define VALUE() do { if (!(v = vsg_arg_value(&a, cmd))) return VSG_EXIT_USAGE; } while (0)
        if (vsg_arg_is(&a, "--scoring")) { VALUE(); continue; } /* "ad4": the caller checked */
        if (vsg_arg_is(&a, "--quiet")) { c->quiet = 1; continue; }
        if (vsg_arg_is(&a, "--allow-zero-charges")) { c->allow_zero_charges = 1; continue; }
        if (vsg_arg_is(&a, "--keep-maps")) { VALUE(); c->keep = v; continue; }
        if (vsg_arg_is(&a, "--padding")) {
            VALUE();
            if (!vsg_parse_number(v, &c->padding) || !(c->padding >= 0) || c->padding > 1000)
                return vsg_cli_usage_error(cmd, "--padding: '%s' is not a number in [0, 1000]", v);
            continue;
        }
        if (vsg_arg_is(&a, "--spacing")) {
            VALUE();
            if (!vsg_parse_number(v, &c->spacing) || !(c->spacing > 0) || c->spacing > 100)
                return vsg_cli_usage_error(cmd, "--spacing: '%s' is not a number in (0, 100]", v);
            continue;
        }
        if (vsg_arg_is(&a, "--device")) {
            VALUE();
            if (!strcmp(v, "auto")) c->device = VSG_DEVICE_AUTO;
            else if (!strcmp(v, "cpu")) c->device = VSG_DEVICE_CPU;
            else if (!strcmp(v, "gpu")) c->device = VSG_DEVICE_GPU;
            else if (vsg_parse_number(v, &x) && x >= 0 && x == floor(x) && x < 1024) c->device = VSG_DEVICE_GPU, c->gpu_index = (int)x;
            else return vsg_cli_usage_error(cmd, "--device: '%s' is not auto, cpu, gpu or a GPU number", v);
            continue;
        }
        if (vsg_arg_is(&a, "--threads")) {
            VALUE();
            if (!vsg_parse_number(v, &x) || x < 1 || x > 4096 || x != floor(x))
                return vsg_cli_usage_error(cmd, "--threads: '%s' is not a whole number >= 1", v);
            c->threads = (int)x;
            continue;
        }
        if (vsg_arg_is(&a, "--max-gpu-memory")) {
            VALUE();
            if (!vsg_parse_size(v, &c->so.max_gpu_memory)) return vsg_cli_usage_error(cmd, "--max-gpu-memory: '%s' is not a size", v);
            continue;
        }
#undef VALUE
        int r = vsg_cli_screen_option(&a, cmd, &c->so, &c->out, &devices);
        if (r < 0) return VSG_EXIT_USAGE;
        if (r > 0) continue;
        return vsg_cli_usage_error(cmd, "'%s' is not an option of --scoring ad4 (see 'vsgrid rescore --scoring ad4 --help')", arg);
    }
    if (!c->receptor) return vsg_cli_usage_error(cmd, "no RECEPTOR given");
    if (c->ninputs == 0) return vsg_cli_usage_error(cmd, "no POSES given");
    if (!c->out.csv) return vsg_cli_usage_error(cmd, "no output: give -o RESULTS.csv ('-' for standard output)");
    if (c->out.top && !c->out.sdf) return vsg_cli_usage_error(cmd, "--top needs --sdf-out");
    const char *later[2] = {c->out.sdf, c->out.json}; /* written at the end: checked now (issue 20) */
    for (int i = 0; i < 2; i++) {
        int r = later[i] ? vsg_cli_check_output(cmd, later[i]) : 0;
        if (r) return r;
    }
    return vsg_cli_screen_finish(cmd, devices, &c->so);
}

/* Pass 1: the box of `maps --around` over every atom of the records that read, and the
 * AutoDock types of those atoms (SDF/MOL2 typed as the pipeline types them) that AD4.1_bound.dat
 * has, in order of appearance. Types without parameters get no map (their poses: untyped). */
typedef struct {
    double center[3], size[3];
    size_t records, used, atoms;
    char types[AD4_MAX_TYPES][4];
    int ntypes;
    char skipped[64];         /* types without parameters, "Qq G0" */
} ad4_poses;

static vsg_status ad4_pass1(const ad4_cli *c, const vsg_ad4_params *par, ad4_poses *P)
{
    memset(P, 0, sizeof *P);
    vsg_ligand_reader_options ro;
    memset(&ro, 0, sizeof ro);
    ro.format = c->so.format;
    ro.max_atoms = c->so.max_atoms;
    vsg_ligand_reader *rd = NULL;
    vsg_status st = vsg_ligand_reader_open(c->inputs, c->ninputs, &ro, &rd);
    if (st != VSG_OK) return st;
    vsg_ligand lig;
    vsg_ligand_init(&lig);
    double sum[3] = {0, 0, 0}, lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    while (st == VSG_OK && vsg_ligand_reader_next(rd, &lig)) {
        P->records++;
        if (lig.status != VSG_OK || lig.natoms == 0) continue; /* its row comes in pass 2 */
        P->used++;
        for (int i = 0; i < lig.natoms; i++) { /* every atom, in file order, as maps --around */
            const double p[3] = {lig.atoms[i].x, lig.atoms[i].y, lig.atoms[i].z};
            for (int d = 0; d < 3; d++) {
                sum[d] += p[d];
                if (p[d] < lo[d]) lo[d] = p[d];
                if (p[d] > hi[d]) hi[d] = p[d];
            }
        }
        P->atoms += (size_t)lig.natoms;
        if (lig.format != VSG_LIG_PDBQT) { /* screen_prepare.c's typing of SDF/MOL2 for map sets */
            vsg_ligand_merge_nonpolar_h(&lig);
            if (vsg_ligand_assign_ad_types(&lig) != VSG_OK) continue;
        }
        for (int i = 0; i < lig.natoms && st == VSG_OK; i++) {
            const char *t = lig.atoms[i].ad_type;
            int k = 0;
            while (k < P->ntypes && strcmp(P->types[k], t)) k++;
            if (!t[0] || k < P->ntypes) continue;
            if (!vsg_ad4_params_find(par, t)) {
                if (!strstr(P->skipped, t) && strlen(P->skipped) + strlen(t) + 2 < sizeof P->skipped)
                    strcat(strcat(P->skipped, P->skipped[0] ? " " : ""), t);
                continue;
            }
            if (P->ntypes == AD4_MAX_TYPES)
                st = vsg_fail(VSG_E_LIMIT, "the poses hold more than %d AutoDock types: an AutoDock4 map set holds %d maps",
                              AD4_MAX_TYPES, VSG_AG_MAX_MAPS);
            else snprintf(P->types[P->ntypes++], sizeof P->types[0], "%s", t);
        }
    }
    vsg_ligand_release(&lig);
    vsg_ligand_reader_close(rd);
    if (st != VSG_OK) return st;
    if (P->atoms == 0)
        return vsg_fail(VSG_E_DATA, "no atoms in the %zu record%s of the poses: no box to build", P->records,
                        P->records == 1 ? "" : "s");
    if (P->ntypes == 0)
        return vsg_fail(VSG_E_DATA, "no pose atom has an AutoDock type with AutoDock4 parameters%s%s: no map to make",
                        P->skipped[0] ? " (types seen: " : "", P->skipped[0] ? P->skipped : "");
    for (int d = 0; d < 3; d++) {
        P->center[d] = sum[d] / (double)P->atoms;
        /* |c - p| is largest at the extremes: the largest distance of maps --around */
        double far = fmax(fabs(P->center[d] - lo[d]), fabs(P->center[d] - hi[d]));
        P->size[d] = ceil((far + c->padding) * 2.0);
    }
    return VSG_OK;
}

/* Removes the temporary map folder and what is in it (only files vsgrid wrote there). */
static void remove_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *e;
        char path[PATH_MAX];
        while ((e = readdir(d)) != NULL) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            unlink(path);
        }
        closedir(d);
    }
    rmdir(dir);
}

static int rescore_ad4(int argc, char **argv)
{
    const double t0 = vsg_now();
    static ad4_cli c; /* large (the input list): not on the stack */
    int rc = ad4_parse(argc, argv, &c);
    if (rc == -2) return 0;
    if (rc) return rc;
#ifdef _OPENMP
    if (c.threads > 0) omp_set_num_threads(c.threads);
#endif
    FILE *csv = strcmp(c.out.csv, "-") ? fopen(c.out.csv, "w") : stdout; /* unwritable: fail first */
    if (!csv) {
        fprintf(stderr, "vsgrid: cannot write %s: %s\n", c.out.csv, strerror(errno));
        return VSG_EXIT_INPUT;
    }
    vsg_ad4_params par;
    vsg_molecule *rec = NULL;
    vsg_mapset *maps = NULL;
    ad4_poses P;
    vsg_gpf gpf;
    vsg_screen_report rep;
    char tmpdir[PATH_MAX] = "", prefix[PATH_MAX], path[PATH_MAX + 16], abs_rec[PATH_MAX], name[128];
    char rec_pdbqt[PATH_MAX + 32];
    double maps_s = 0.0;
    vsg_status st = vsg_ad4_params_builtin(&par);
    /* where the maps go: --keep-maps PREFIX, else a private temporary folder */
    if (st == VSG_OK && c.keep) {
        if (strlen(c.keep) + 16 >= sizeof prefix) st = vsg_fail(VSG_E_ARG, "--keep-maps: path too long");
        else snprintf(prefix, sizeof prefix, "%s", c.keep);
    } else if (st == VSG_OK) {
        const char *t = getenv("TMPDIR");
        snprintf(tmpdir, sizeof tmpdir, "%s/vsgrid-rescore-XXXXXX", t && t[0] && strlen(t) < 512 ? t : "/tmp");
        if (!mkdtemp(tmpdir)) {
            st = vsg_fail(VSG_E_IO, "cannot make a temporary folder %s for the maps: %s (set TMPDIR, or give --keep-maps)",
                          tmpdir, strerror(errno));
            tmpdir[0] = '\0';
        } else {
            vsg_batch_name(c.receptor, name, sizeof name);
            snprintf(prefix, sizeof prefix, "%s/%s", tmpdir, name[0] ? name : "receptor");
        }
    }
    /* a PDB receptor: prepared once, into a PDBQT beside the maps, the file the gpf names */
    const char *rec_used = c.receptor;
    if (st == VSG_OK) {
        snprintf(path, sizeof path, "%s.receptor.pdbqt", prefix);
        st = vsg_cli_receptor_pdbqt(c.receptor, path, c.quiet, &rec_used);
        if (st == VSG_OK && rec_used != c.receptor) snprintf(rec_pdbqt, sizeof rec_pdbqt, "%s", path), rec_used = rec_pdbqt;
    }
    if (st == VSG_OK) st = vsg_cli_read_receptor(rec_used, VSG_PREP_PDBQT, c.quiet, &rec);
    if (st == VSG_OK && (rc = vsg_cli_check_charges("rescore", c.receptor, rec, c.allow_zero_charges)) != 0) {
        if (csv != stdout) fclose(csv);
        goto done;
    }
    double pass1_s = vsg_now();
    if (st == VSG_OK) st = ad4_pass1(&c, &par, &P);
    pass1_s = vsg_now() - pass1_s;
    if (st == VSG_OK && P.skipped[0])
        vsg_warn("pose atom types without AutoDock4 parameters (no map; their poses get status untyped): %s", P.skipped);
    /* the gpf, as `maps --scoring ad4` writes it, then the maps from it by the same code */
    if (st == VSG_OK) {
        const char *rec_in_gpf = rec_used;
        if (rec_used[0] != '/' && realpath(rec_used, abs_rec) && strlen(abs_rec) < 128) rec_in_gpf = abs_rec;
        const char *pbase = strrchr(prefix, '/');
        pbase = pbase ? pbase + 1 : prefix;
        const char *tv[AD4_MAX_TYPES];
        for (int i = 0; i < P.ntypes; i++) tv[i] = P.types[i];
        st = vsg_ad4_gpf_for_box(rec, rec_in_gpf, P.center, P.size, c.spacing, tv, P.ntypes, pbase, &gpf);
    }
    if (st == VSG_OK) { /* after the receptor's types are checked (vsg_ad4_gpf_for_box) */
        double plo[3], phi[3];
        for (int d = 0; d < 3; d++) plo[d] = P.center[d] - 0.5 * P.size[d], phi[d] = P.center[d] + 0.5 * P.size[d];
        vsg_cli_warn_poses_in_receptor("rescore", rec, c.receptor, c.inputs[0]);
        if ((rc = poses_near_receptor(rec, c.receptor, plo, phi)) != 0) {
            if (csv != stdout) fclose(csv);
            goto done;
        }
    }
    if (st == VSG_OK) {
        char note[512];
        snprintf(note, sizeof note,
                 "written by vsgrid %s: rescore %s --scoring ad4 (box around %zu pose atoms: center %.3f %.3f %.3f, "
                 "size %g %g %g A)\nautogrid4 -p NAME.gpf, run in this directory, makes the same maps",
                 vsg_version(), c.receptor, P.atoms, P.center[0], P.center[1], P.center[2], P.size[0], P.size[1], P.size[2]);
        snprintf(path, sizeof path, "%s.gpf", prefix);
        st = vsg_batch_make_dirs(path);
        if (st == VSG_OK) st = vsg_gpf_write(&gpf, path, note);
    }
    if (st == VSG_OK && !c.quiet)
        fprintf(stderr, "vsgrid: %zu atoms in %zu of %zu records (%.2f s); ligand types %d; 'vsgrid maps' box: "
                        "--box %.10g,%.10g,%.10g,%g,%g,%g --spacing %g\n",
                P.atoms, P.used, P.records, pass1_s, P.ntypes, P.center[0], P.center[1], P.center[2], P.size[0],
                P.size[1], P.size[2], c.spacing);
    if (st == VSG_OK) {
        vsg_cli_mapset_job job;
        memset(&job, 0, sizeof job);
        job.receptor = rec_used;
        job.gpf = path;
        job.prefix = prefix;
        vsg_pb_params_default(&job.pb);
        job.pb.device = c.device;
        job.pb.gpu_index = c.gpu_index;
        job.pb.threads = c.threads;
        job.quiet = c.quiet || !c.keep; /* a temporary set: its 'wrote' lines would name a folder about to go */
        double tm = vsg_now();
        rc = vsg_cli_ad4_mapset(&job);
        maps_s = vsg_now() - tm;
        if (rc) { /* its message is printed */
            if (csv != stdout) fclose(csv);
            goto done;
        }
    }
    /* pass 2: `vsgrid screen PREFIX.maps.fld POSES` */
    if (st == VSG_OK) {
        snprintf(path, sizeof path, "%s.maps.fld", prefix);
        st = vsg_mapset_read(path, &maps);
    }
    if (st == VSG_OK) {
        c.so.inputs = c.inputs;
        c.so.ninputs = c.ninputs;
        vsg_cli_screen_bind(&c.so, &c.out, csv, c.quiet);
        st = vsg_screen_run(vsg_mapset_grids(maps), &c.so, &rep);
    }
    if (csv != stdout && fclose(csv) != 0 && st == VSG_OK) st = vsg_fail(VSG_E_IO, "cannot write %s", c.out.csv);
    if (st != VSG_OK) {
        rc = vsg_cli_fail(st);
        goto done;
    }
    rc = vsg_cli_screen_verdict("rescore", c.inputs, c.ninputs, &rep);
    if (!c.quiet) {
        char note[160];
        snprintf(note, sizeof note, "ad4 maps (%d types + e + d) %.2f s; ", P.ntypes, maps_s);
        vsg_cli_screen_summary(&rep, note, &c.out);
        fprintf(stderr, "  score_kcal_mol: AutoDock4 intermolecular energy (vdW/H-bond + electrostatic + desolvation; "
                        "no intramolecular or torsional-entropy term)\n");
        if (c.keep) fprintf(stderr, "vsgrid: kept the map set %s.maps.fld and %s.gpf\n", prefix, prefix);
    }
    if (c.out.json) {
        vsg_json j;
        FILE *f = vsg_cli_json_open(c.out.json, &j, "rescore");
        if (!f) {
            rc = VSG_EXIT_FAILURE;
        } else {
            vsg_cli_json_screen(&j, "ad4", c.inputs, c.ninputs, &rep);
            vsg_json_str(&j, "receptor", c.receptor);
            vsg_json_str(&j, "scoring", "ad4");
            vsg_json_array(&j, "ligand_types");
            for (int i = 0; i < P.ntypes; i++) vsg_json_str(&j, NULL, P.types[i]);
            vsg_json_end(&j, ']');
            vsg_json_array(&j, "nodes");
            for (int d = 0; d < 3; d++) vsg_json_int(&j, NULL, gpf.npts[d] + 1);
            vsg_json_end(&j, ']');
            vsg_json_num(&j, "spacing", c.spacing);
            vsg_json_object(&j, "box");
            json_triple(&j, "center_a", P.center);
            json_triple(&j, "size_a", P.size);
            vsg_json_num(&j, "padding_a", c.padding);
            vsg_json_int(&j, "pose_atoms", (long long)P.atoms);
            vsg_json_end(&j, '}');
            if (c.keep) vsg_json_str(&j, "maps", c.keep);
            vsg_json_num(&j, "box_seconds", pass1_s);
            vsg_json_num(&j, "maps_seconds", maps_s);
            vsg_cli_json_finish(&j, f, c.out.json, vsg_now() - t0);
        }
    }
done:
    vsg_mapset_free(maps);
    vsg_molecule_free(rec);
    if (tmpdir[0]) remove_dir(tmpdir);
    return rc;
}

/* ---- the command ----------------------------------------------------------------------- */

int vsg_cli_rescore_flexible(int argc, char **argv); /* cli_rescore_flexible.c */

int vsg_cmd_rescore(int argc, char **argv)
{
    const double t0 = vsg_now();
    static rescore_cli c; /* large (the input list): not on the stack */
    const char *scoring = vsg_cli_scoring_arg(argc, argv);
    const char *placement = vsg_cli_placement_arg(argc, argv);
    if (placement && !strcmp(placement, "flexible")) return vsg_cli_rescore_flexible(argc, argv); /* maps + docking */
    if (scoring && (!strcmp(scoring, "vina") || !strcmp(scoring, "vinardo"))) { /* Vina: its own CPU loop */
        int vr = vsg_cli_vina_command(argc, argv, "rescore", 1);
        return vr == -2 ? 0 : vr;
    }
    if (scoring && strcmp(scoring, "ad4") == 0) return rescore_ad4(argc, argv); /* maps around the poses + screen */
    if (scoring) return vsg_cli_usage_error("rescore", "--scoring: '%s' is not vina, vinardo or ad4", scoring);
    int rc = parse(argc, argv, "rescore", &c);
    if (rc == -2) return 0;
    if (rc) return rc;
#ifdef _OPENMP
    if (c.p.threads > 0) omp_set_num_threads(c.p.threads);
#endif
    vsg_molecule *m = NULL;
    built_grid B;
    memset(&B, 0, sizeof B);
    /* the output first: an unwritable path fails before the grid is built */
    FILE *csv = strcmp(c.out.csv, "-") ? fopen(c.out.csv, "w") : stdout;
    if (!csv) {
        fprintf(stderr, "vsgrid: cannot write %s: %s\n", c.out.csv, strerror(errno));
        return VSG_EXIT_INPUT;
    }
    vsg_status st = vsg_cli_read_receptor(c.receptor, VSG_PREP_PQR, c.quiet, &m); /* a PDB: prepared */
    if (st == VSG_OK && !c.quiet)
        fprintf(stderr, "vsgrid: receptor %s: %zu atoms, net charge %+.3f e\n", c.receptor, vsg_molecule_atom_count(m),
                vsg_molecule_net_charge(m));
    if (st == VSG_OK && (rc = vsg_cli_check_charges("rescore", c.receptor, m, c.allow_zero_charges)) != 0) {
        if (csv != stdout) fclose(csv);
        vsg_molecule_free(m);
        return rc;
    }

    /* pass 1 */
    pose_box box;
    double box_s = vsg_now();
    if (st == VSG_OK) st = poses_extent(&c, &box);
    box_s = vsg_now() - box_s;
    if (st == VSG_OK) vsg_cli_warn_poses_in_receptor("rescore", m, c.receptor, c.inputs[0]);
    if (st == VSG_OK && (rc = poses_near_receptor(m, c.receptor, box.lo, box.hi)) != 0) {
        if (csv != stdout) fclose(csv);
        vsg_molecule_free(m);
        return rc;
    }
    if (st == VSG_OK) {
        box_from_extent(&box, c.p.padding, c.p.spacing);
        c.p.box_mode = VSG_BOX_EXPLICIT;
        memcpy(c.p.box_center, box.center, sizeof box.center);
        memcpy(c.p.box_size, box.size, sizeof box.size);
        if (!c.quiet)
            fprintf(stderr, "vsgrid: %zu atoms in %zu of %zu records (%.2f s); 'vsgrid grid' box: --box %.3f,%.3f,%.3f,%.10g,%.10g,%.10g "
                            "--spacing %.10g%s\n",
                    box.atoms, box.used, box.records, box_s, box.center[0], box.center[1], box.center[2], box.size[0],
                    box.size[1], box.size[2], c.p.spacing, c.coulomb ? "" : c.p.bc == VSG_BC_FOCUS ? " --bc focus" : "");
    }

    /* the grid, in memory */
    if (st == VSG_OK) st = build_grid(&c, m, &B);
    int converged = c.coulomb || B.pb.converged;
    if (st == VSG_OK && !c.quiet) {
        vsg_grid_shape sh;
        vsg_grid_shape_of(B.grid, &sh);
        if (c.coulomb) fprintf(stderr, "  coulomb grid %dx%dx%d, %s, %.3f s\n", sh.n[0], sh.n[1], sh.n[2], B.device, B.seconds);
        else
            fprintf(stderr, "  PB grid %dx%dx%d, %d iterations, max change %.2e kT/e, %s, %s, %.3f s\n", sh.n[0], sh.n[1],
                    sh.n[2], B.pb.iterations, B.pb.final_change, B.pb.converged ? "converged" : "NOT converged", B.device,
                    B.seconds);
    }
    if (st == VSG_OK && !converged)
        vsg_warn("the PB solve did not converge (max change %.2e kT/e after %d iterations): scoring on it anyway; exit 6",
                 B.pb.final_change, B.pb.iterations);
    if (st == VSG_OK && c.grid_out) {
        st = vsg_grid_write(B.grid, c.grid_out);
        if (st == VSG_OK && !c.quiet) fprintf(stderr, "vsgrid: wrote %s\n", c.grid_out);
    }

    /* pass 2: screen's pipeline on the grid */
    vsg_score_grids sg;
    if (st == VSG_OK) st = vsg_score_grids_from_grid(B.grid, c.p.temperature, &sg);
    vsg_screen_report rep;
    if (st == VSG_OK) {
        c.so.inputs = c.inputs;
        c.so.ninputs = c.ninputs;
        vsg_cli_screen_bind(&c.so, &c.out, csv, c.quiet);
        st = vsg_screen_run(&sg, &c.so, &rep);
    }
    if (csv != stdout && fclose(csv) != 0 && st == VSG_OK) st = vsg_fail(VSG_E_IO, "cannot write %s", c.out.csv);
    if (st == VSG_OK) {
        if (!c.quiet) print_summary(&c, &B, &rep);
        if (c.out.json) rc = write_json(&c, &box, box_s, &B, &rep, vsg_now() - t0);
        if (!converged) rc = VSG_EXIT_CONVERGE;
        const int verdict = vsg_cli_screen_verdict("rescore", c.inputs, c.ninputs, &rep);
        if (verdict && (rc == 0 || verdict == VSG_EXIT_INPUT)) rc = verdict;
    } else {
        rc = vsg_cli_fail(st);
    }
    vsg_coulomb_kernel_free(&B.k);
    vsg_grid_free(B.grid);
    vsg_molecule_free(m);
    return rc;
}
