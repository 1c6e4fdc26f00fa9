/* cli_screen.c — `vsgrid screen`: score ligand libraries or docking poses on a receptor grid
 * (a PB or Coulomb grid: electrostatics; an AutoGrid map set: the AutoDock4 intermolecular
 * energy), one CSV row per input record, in input order. */
#define _POSIX_C_SOURCE 200809L /* pthreads, isatty */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "cli.h"
#include "errors.h"
#include "grid.h"
#include "mapset.h"
#include "screen.h"
#include "timer.h"

static const char screen_usage[] =
    "usage: vsgrid screen GRID LIBRARY... -o RESULTS.csv [options]\n"
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
    "                          zero_charges, bad_coord, too_many_atoms, untyped), message\n"
    "  --sdf-out FILE.sdf      the scored molecules as SDF: SDF input as read plus vsgrid_*\n"
    "                          score tags; other formats as V2000 molfiles with the same tags\n"
    "  --top N                 with --sdf-out: only the N best (lowest) scores, best first,\n"
    "                          with a vsgrid_rank tag\n"
    "  --json FILE             summary: records, scored, failed (by status), kernel, device,\n"
    "                          seconds split into parse/transfer/score/write, throughput\n"
    "  --quiet                 no summary or progress on stderr\n"
    "\n"
    "input:\n"
    "  --format F              sdf | mol2 | pdbqt | pdb (default: from each file's extension)\n"
    "  --charges MODE          file (charges as read; molecules without any: no_charges),\n"
    "                          gasteiger (Gasteiger-Marsili through Open Babel for every molecule),\n"
    "                          auto (default: the file's, else Gasteiger when available)\n"
    "  --max-atoms N           records with more atoms get too_many_atoms (default 100000)\n"
    "  --parse-threads N       threads parsing the input in parallel (default: the cores the\n"
    "                          scorers leave, at most 8; 1 = one reader thread)\n"
    "\n"
    "scoring:\n"
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
    "Atoms outside the grid are counted (atoms_outside, status 'outside'): on potential grids\n"
    "they contribute 0; on map sets they are scored by autodock4's rule (grids/score_cpu.c).\n"
    "Exit codes: 0 the run completed (bad records get their rows), 2 usage, 3 unreadable grid,\n"
    "4 memory, 5 GPU requested but unusable, 7 not in this build (e.g. no Open Babel).\n";

typedef struct {
    const char *grid;
    const char *inputs[4096];
    int ninputs;
    vsg_screen_outputs out;
    int quiet;
    double temperature;
    int threads;
    vsg_screen_options so;
} screen_cli;

static int parse(int argc, char **argv, const char *cmd, screen_cli *c)
{
    memset(c, 0, sizeof *c);
    c->temperature = 298.15;
    c->so.tolerance = 0.01;
    c->so.kernel = VSG_KERNEL_AUTO;
    const char *devices = "all";
    vsg_args a = {argc, 1, argv, NULL, NULL};
    for (; a.i < argc; a.i++) {
        const char *arg = argv[a.i];
        if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
            fputs(screen_usage, stdout);
            return -2;
        }
        if (arg[0] != '-' || !strcmp(arg, "-")) {
            if (!c->grid) c->grid = arg;
            else if (c->ninputs < (int)(sizeof c->inputs / sizeof c->inputs[0])) c->inputs[c->ninputs++] = arg;
            else return vsg_cli_usage_error(cmd, "too many library files (at most %d)", (int)(sizeof c->inputs / sizeof c->inputs[0]));
            continue;
        }
        if (vsg_arg_is(&a, "--quiet")) { c->quiet = 1; continue; }
        int r = vsg_cli_screen_option(&a, cmd, &c->so, &c->out, &devices);
        if (r < 0) return VSG_EXIT_USAGE;
        if (r > 0) continue;
        const char *v = NULL;
        double x;
#define VALUE() do { v = vsg_arg_value(&a, cmd); if (!v) return VSG_EXIT_USAGE; } while (0)
        if (vsg_arg_is(&a, "--device")) {
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
    if (c->ninputs == 0) return vsg_cli_usage_error(cmd, "no LIBRARY given");
    if (!c->out.csv) return vsg_cli_usage_error(cmd, "no output: give -o RESULTS.csv ('-' for standard output)");
    if (c->out.top && !c->out.sdf) return vsg_cli_usage_error(cmd, "--top needs --sdf-out");
    for (int i = 0; i < c->ninputs; i++)
        if (!strcmp(c->inputs[i], "-") && c->so.format == VSG_LIG_AUTO)
            return vsg_cli_usage_error(cmd, "reading standard input needs --format");
    return vsg_cli_screen_finish(cmd, devices, &c->so);
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
    vsg_status st = vsg_grid_read(path, &L->grid);
    if (st != VSG_OK) return st;
    st = vsg_score_grids_from_grid(L->grid, temperature, &L->elec);
    if (st == VSG_OK) L->g = &L->elec;
    return st;
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
    vsg_cli_json_finish(&j, f, c->out.json, seconds);
}

int vsg_cmd_screen(int argc, char **argv)
{
    const double t0 = vsg_now();
    static screen_cli c; /* large (the input list): not on the stack */
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
    FILE *csv = strcmp(c.out.csv, "-") ? fopen(c.out.csv, "w") : stdout;
    if (!csv) {
        fprintf(stderr, "vsgrid: cannot write %s: %s\n", c.out.csv, strerror(errno));
        free_grids(&L);
        return VSG_EXIT_INPUT;
    }
    c.so.inputs = c.inputs;
    c.so.ninputs = c.ninputs;
    vsg_cli_screen_bind(&c.so, &c.out, csv, c.quiet);
    vsg_screen_report rep;
    st = vsg_screen_run(L.g, &c.so, &rep);
    if (csv != stdout && fclose(csv) != 0 && st == VSG_OK) st = vsg_fail(VSG_E_IO, "cannot write %s", c.out.csv);
    if (st != VSG_OK) {
        free_grids(&L);
        return vsg_cli_fail(st);
    }
    if (!c.quiet) vsg_cli_screen_summary(&rep, "", &c.out);
    if (c.out.json) write_json(&c, &L, &rep, vsg_now() - t0);
    free_grids(&L);
    return 0;
}
