/* cli_grid.c — `vsgrid grid` (a PB grid, or a direct Coulomb / AutoGrid e map) and
 * `vsgrid energy` (energies). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "engine/cli/cli.h"
#include "engine/cli/grid_batch.h"
#include "grids/base/vsgrid.h"

/* What a Σ q·φ energy holds, said next to every such number (issue 20). */
#define VSG_ELEC_ONLY "electrostatic interaction energy only (Σ q·φ; no vdW, desolvation, entropy)"

static const char grid_usage[] =
    "usage: vsgrid grid RECEPTOR -o OUT.vsg [--dx OUT.dx[.gz]] [options]\n"
    "       vsgrid grid RECEPTOR --method coulomb [--dielectric D] [--gpf FILE.gpf]\n"
    "                   [--autogrid-maps PREFIX] [-o OUT.vsg] [options]\n"
    "       vsgrid grid RECEPTOR.pdbqt --gpf FILE.gpf --autogrid-maps PREFIX [options]\n"
    "       vsgrid grid RECEPTOR... | --receptors LIST -o 'DIR/{}.vsg' [--summary FILE.csv]\n"
    "\n"
    "Builds the electrostatic potential grid of a receptor: by default (--method pb, in kT/e)\n"
    "by solving the linear or nonlinear Poisson-Boltzmann equation (finite differences,\n"
    "checkerboard SOR); with --method coulomb (in kcal/mol/e) as the direct sum\n"
    "phi(p) = sum_i q_i / (eps(r) r), r = |p - r_i| clamped below at 0.5 Å, which in AutoGrid\n"
    "mode reproduces autogrid4's electrostatic map (.e.map). Both run on the GPU when one is\n"
    "present (else the CPU twin, which says so once). With --gpf and --autogrid-maps (and no\n"
    "--method, or --method ad4) it writes the whole AutoDock4 map set the gpf asks for, as\n"
    "autogrid4 4.2.6 does: PREFIX.TYPE.map for every ligand_types type (12-6 vdW and 12-10\n"
    "directional H-bonds, 8 Å cutoff, smooth, the 1e5 clamp, pair desolvation), PREFIX.e.map,\n"
    "PREFIX.d.map, PREFIX.maps.fld and PREFIX.maps.xyz, for autodock4, AutoDock-GPU and\n"
    "vsgrid screen. Parameters: AD4.1_bound.dat built in, or the gpf's parameter_file.\n"
    "\n"
    "RECEPTOR: PQR (charges and radii), PDBQT (charges; radii by AutoDock type), MOL2\n"
    "(charges; radii by element), optionally gzipped, or PDB or mmCIF: prepared first as by `vsgrid\n"
    "prepare` (hydrogens, AMBER charges and radii, HETATM groups kept; its summary on stderr).\n"
    "\n"
    "Several receptors (an ensemble, MD snapshots, a target panel) are done in turn by one\n"
    "process, which starts the GPU once for all of them (0.2-0.35 s, most of a small grid's\n"
    "time). Each output name must then contain {}, which stands for the receptor's file name\n"
    "without directory and extension (e.g. -o 'grids/{}.vsg' --json 'grids/{}.json'). A\n"
    "receptor that fails is reported on one line and skipped; the others go on. The exit code\n"
    "is then that of the first failure.\n"
    "  --receptors FILE        receptor paths, one per line (# comments, blank lines skipped),\n"
    "                          after any given on the command line\n"
    "  --summary FILE.csv      one row per receptor: status, exit code, grid, iterations,\n"
    "                          solve and GPU-start seconds, total energy, message\n"
    "\n"
    "Output:\n"
    "  -o, --output FILE       grid file: .vsg (vsgrid's own, compressed), .dx or .dx.gz\n"
    "  --dx FILE               also write OpenDX (.dx or .dx.gz) for PyMOL, VMD, ChimeraX\n"
    "  --json FILE             machine-readable summary (parameters, iterations, timings,\n"
    "                          total_energy_kt, ...)\n"
    "  --method M              pb (Poisson-Boltzmann, kT/e, default) | coulomb (direct sum,\n"
    "                          kcal/mol/e) | ad4 (AutoDock4 map set: needs --gpf and\n"
    "                          --autogrid-maps; the default when both are given)\n"
    "\n"
    "Coulomb and AutoGrid maps (--method coulomb or ad4; the affinity and d maps run on the\n"
    "CPU, --threads; the e map as below):\n"
    "  --dielectric D          mehler-solmajer (sigmoidal distance-dependent eps(r) of Mehler &\n"
    "                          Solmajer 1991, as AutoGrid4; default) | 4r (eps = 4r) | a number\n"
    "                          > 0 (constant dielectric; in AutoGrid mode 0 means 40). Default:\n"
    "                          the gpf's dielectric line when --gpf is given (< 0: mehler-solmajer)\n"
    "  --autogrid              AutoGrid4-compatible conventions (autogrid4 4.2.6): prefactor\n"
    "                          332.0 x 0.1406 (FE_coeff_estat; a gpf parameter_file may change\n"
    "                          it), eps(r) read from AutoGrid's 0.01 Å table, 1/r clamped at\n"
    "                          0.5 Å, no cutoff. Implied by --gpf and --autogrid-maps. Without\n"
    "                          it: 332.0637 kcal Å/(mol e²), eps(r) computed exactly, same clamp\n"
    "  --gpf FILE.gpf          box from an AutoGrid parameter file: gridcenter (or 'auto', the\n"
    "                          mean of the receptor's atoms), npts (even; npts+1 points per axis)\n"
    "                          and spacing (default 0.375 Å); also its dielectric and receptor\n"
    "                          (used when RECEPTOR is not given). Without --gpf the box comes from\n"
    "                          --box, --fill, --around and --spacing as for PB\n"
    "  --autogrid-maps PREFIX  write PREFIX.e.map (with --method ad4 also each ligand type's\n"
    "                          map and PREFIX.d.map), PREFIX.maps.fld and PREFIX.maps.xyz in\n"
    "                          AutoGrid's format (for autodock4 and AutoDock-GPU); the box must\n"
    "                          have an odd number of points per axis (the box options always\n"
    "                          give one)\n"
    "  --elec coulomb|pb       the e map of --autogrid-maps: coulomb (default, autogrid4's) or pb:\n"
    "                          vsgrid's Poisson-Boltzmann potential of the receptor on the same\n"
    "                          lattice (focused from a box around the whole receptor, --bc focus;\n"
    "                          double precision unless --precision; PB options as above: eps-in 2,\n"
    "                          eps-out 78.54, no salt, SES), in kcal/mol/e times AutoDock4's\n"
    "                          electrostatic weight FE_coeff_estat (0.1406, or the gpf's\n"
    "                          parameter_file's), as autogrid4's e map carries it, so it replaces\n"
    "                          the Coulomb term in the same scoring function. Radii: the PDBQT's\n"
    "                          AutoDock types' Rii/2. The .maps.fld gets a comment saying so\n"
    "  --elec-weight W         with --elec pb: the weight instead of FE_coeff_estat\n"
    "  --json FILE             for coulomb: method, dielectric, nodes, seconds,\n"
    "                          evals_per_second, device, ...\n"
    "  --device, --threads     as below (GPU when present; auto falls back to the CPU)\n"
    "  -o/--dx                 as for PB; the grid holds kcal/mol/e\n"
    "\n";

static const char energy_usage[] =
    "usage: vsgrid energy RECEPTOR [grid options] [--solvation] [--ligand LIGAND] [--json FILE]\n"
    "\n"
    "Solves PB for the receptor and prints energies in kT and kcal/mol:\n"
    "  total grid energy  ½ Σ q φ over the grid charges (includes grid self-energy)\n"
    "  --solvation        also solve the reference (solvent dielectric = eps-in, no salt)\n"
    "                     on the same grids and print ΔG_solv = G(solvated) − G(reference)\n"
    "  --ligand LIGAND    interaction energy Σ q_i φ(r_i) of a ligand's charges in the\n"
    "                     receptor's potential (trilinear interpolation)\n"
    "  --json FILE        machine-readable summary: total_energy_kt, total_energy_kcal_mol,\n"
    "                     solvation_energy_kt, solvation_energy_kcal_mol,\n"
    "                     interaction_energy_kt, interaction_energy_kcal_mol, ...\n"
    "\n";

typedef struct {
    const char *receptor, *output, *dx, *json, *around, *ligand;
    int solvation, quiet;
    /* several receptors: all of them (argv's and the list file's), the list, the CSV */
    const char **receptors;
    char (*names)[128]; /* each receptor's {} (vsg_batch_name), for a batch */
    size_t nrec;
    char **listed;
    size_t nlisted;
    const char *list, *summary;
    vsg_pb_params p;
    /* --method coulomb */
    int coulomb, autogrid, have_dielectric;
    int ad4, method_set; /* --method ad4 (implied by --gpf with --autogrid-maps): every map of the gpf */
    vsg_dielectric_model diel_model;
    double diel_eps;
    const char *dielectric, *gpf, *agmaps;
    /* --elec pb: the e map is the PB potential (vsg_pb_map_fill) times elec_weight (< 0: the
     * parameters' FE_coeff_estat) instead of the Coulomb sum */
    int elec_pb;
    int box_checked; /* vsg_cli_ad4_mapset's caller warned already when no atom is near the box */
    int allow_zero_charges; /* --allow-zero-charges */
    double elec_weight;
} grid_cli;

static int add_receptor(grid_cli *c, const char *path)
{
    const char **v = realloc(c->receptors, (c->nrec + 1) * sizeof *v);
    if (!v) return -1;
    c->receptors = v;
    v[c->nrec++] = path;
    return 0;
}

/* The output names a batch makes per receptor from a {} pattern, and their options. */
#define OUTPUTS 4
static const char *const output_option[OUTPUTS] = {"-o", "--dx", "--json", "--autogrid-maps"};
static const char **output_slot(grid_cli *c, int i)
{
    const char **slot[OUTPUTS] = {&c->output, &c->dx, &c->json, &c->agmaps};
    return slot[i];
}

static void free_receptors(grid_cli *c)
{
    for (size_t i = 0; i < c->nlisted; i++) free(c->listed[i]);
    free(c->listed);
    free(c->receptors);
    free(c->names);
    c->listed = NULL;
    c->receptors = NULL;
    c->names = NULL;
    c->nlisted = c->nrec = 0;
}

/* "mehler-solmajer" | "4r" | a number (constant dielectric). 0 on success. */
static int parse_dielectric(const char *cmd, const char *v, vsg_dielectric_model *model, double *eps)
{
    double x;
    if (!strcmp(v, "mehler-solmajer") || !strcmp(v, "ms")) *model = VSG_DIEL_MEHLER_SOLMAJER, *eps = 0.0;
    else if (!strcmp(v, "4r")) *model = VSG_DIEL_DISTANCE_4R, *eps = 0.0;
    else if (vsg_parse_number(v, &x) && x >= 0.0) *model = VSG_DIEL_CONSTANT, *eps = x;
    else return vsg_cli_usage_error(cmd, "--dielectric: '%s' is not mehler-solmajer, 4r or a number >= 0", v);
    return 0;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && !strcmp(s + n - m, suffix);
}

static int grid_extension_ok(const char *path)
{
    return ends_with(path, ".vsg") || ends_with(path, ".dx") || ends_with(path, ".dx.gz");
}

/* Receptor checks before a solve (issue 20): charges all zero (unless allowed), and a --box or
 * --around box with no receptor atom inside or within 8 Å. 0, or VSG_EXIT_INPUT (printed). */
static int check_receptor(const grid_cli *c, const char *cmd, const char *path, const vsg_molecule *m,
                          const vsg_molecule *around)
{
    int e = vsg_cli_check_charges(cmd, path, m, c->allow_zero_charges);
    if (e) return e;
    double lo[3], hi[3];
    const char *what;
    if (around) {
        vsg_atom_info a;
        size_t n = vsg_molecule_atom_count(around);
        for (int d = 0; d < 3; d++) lo[d] = INFINITY, hi[d] = -INFINITY;
        for (size_t i = 0; i < n; i++) {
            if (vsg_molecule_atom(around, i, &a) != VSG_OK) continue;
            const double x[3] = {a.x, a.y, a.z};
            for (int d = 0; d < 3; d++) lo[d] = fmin(lo[d], x[d]), hi[d] = fmax(hi[d], x[d]);
        }
        if (!(lo[0] <= hi[0])) return 0;
        if (!vsg_cli_warn_ligand_in_receptor(cmd, m, path, around, c->around)) {
            const double mid[3] = {(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2};
            const double span[3] = {hi[0] - lo[0] + 2 * c->p.padding, hi[1] - lo[1] + 2 * c->p.padding,
                                    hi[2] - lo[2] + 2 * c->p.padding};
            vsg_cli_warn_group_in_box(cmd, m, path, mid, span);
        }
        what = "--around";
    } else if (c->p.box_mode == VSG_BOX_EXPLICIT) {
        for (int d = 0; d < 3; d++)
            lo[d] = c->p.box_center[d] - 0.5 * c->p.box_size[d], hi[d] = c->p.box_center[d] + 0.5 * c->p.box_size[d];
        vsg_cli_warn_group_in_box(cmd, m, path, c->p.box_center, c->p.box_size); /* a ligand left in the pocket */
        what = "--box";
    } else {
        return 0;
    }
    const double dist = vsg_cli_box_distance(m, lo, hi);
    if (dist <= 8.0) return 0;
    fprintf(stderr, "vsgrid %s: %s: no atom of %s inside the box or within 8 A of it (nearest %.1f A): the grid would "
                    "hold no receptor. Check that %s is in the receptor's frame (docked or crystal coordinates, not "
                    "a library's)\n",
            cmd, what, path, dist, around ? c->around : "the box");
    return VSG_EXIT_INPUT;
}

static int parse(int argc, char **argv, const char *cmd, grid_cli *c)
{
    memset(c, 0, sizeof *c);
    vsg_pb_params_default(&c->p);
    c->elec_weight = -1.0;
    vsg_args a = {argc, 1, argv, NULL, NULL};
    for (; a.i < argc; a.i++) {
        const char *arg = argv[a.i];
        if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
            fputs(!strcmp(cmd, "grid") ? grid_usage : energy_usage, stdout);
            fputs(vsg_cli_pb_help, stdout);
            fputs("\nA receptor whose charges are all 0 is refused ('obabel -xr -p' writes 0.000; make a PQR with\n"
                  "pdb2pqr or a PDBQT with charges); --allow-zero-charges goes on anyway. A --box or --around\n"
                  "with no receptor atom inside or within 8 A is refused (exit 3: a ligand not in the receptor's\n"
                  "frame). Output paths (-o .vsg/.dx/.dx.gz, --dx, --json, --summary) are checked before the solve.\n"
                  "\nExit codes: 0 ok, 1 an output cannot be written, 2 usage (e.g. -o with another extension),\n"
                  "3 bad input (also: all charges 0, a box far from the receptor), 4 memory limit, 5 GPU,\n"
                  "6 not converged.\n", stdout);
            return -2;
        }
        int r = vsg_cli_pb_option(&a, cmd, &c->p, &c->around, &c->quiet);
        if (r < 0) return VSG_EXIT_USAGE;
        if (r > 0) continue;
        const char **target = NULL;
        if (vsg_arg_is(&a, "-o") || vsg_arg_is(&a, "--output")) target = &c->output;
        else if (vsg_arg_is(&a, "--dx")) target = &c->dx;
        else if (vsg_arg_is(&a, "--allow-zero-charges")) { c->allow_zero_charges = 1; continue; }
        else if (vsg_arg_is(&a, "--json")) target = &c->json;
        else if (!strcmp(cmd, "energy") && vsg_arg_is(&a, "--ligand")) target = &c->ligand;
        else if (!strcmp(cmd, "energy") && vsg_arg_is(&a, "--solvation")) { c->solvation = 1; continue; }
        else if (vsg_arg_is(&a, "--method")) {
            const char *v = vsg_arg_value(&a, cmd);
            if (!v) return VSG_EXIT_USAGE;
            c->method_set = 1;
            if (!strcmp(v, "pb")) c->coulomb = 0, c->ad4 = 0;
            else if (!strcmp(v, "coulomb") && !strcmp(cmd, "grid")) c->coulomb = 1, c->ad4 = 0;
            else if (!strcmp(v, "ad4") && !strcmp(cmd, "grid")) c->coulomb = 1, c->ad4 = 1;
            else if (!strcmp(v, "coulomb") || !strcmp(v, "ad4"))
                return vsg_cli_usage_error(cmd, "--method %s: energies come from PB grids only", v);
            else return vsg_cli_usage_error(cmd, "--method: '%s' is not pb, coulomb or ad4", v);
            continue;
        } else if (!strcmp(cmd, "grid") && vsg_arg_is(&a, "--dielectric")) target = &c->dielectric;
        else if (!strcmp(cmd, "grid") && vsg_arg_is(&a, "--gpf")) target = &c->gpf;
        else if (!strcmp(cmd, "grid") && vsg_arg_is(&a, "--autogrid-maps")) target = &c->agmaps;
        else if (!strcmp(cmd, "grid") && vsg_arg_is(&a, "--autogrid")) { c->autogrid = 1; continue; }
        else if (!strcmp(cmd, "grid") && vsg_arg_is(&a, "--elec")) {
            const char *v = vsg_arg_value(&a, cmd);
            if (!v) return VSG_EXIT_USAGE;
            if (!strcmp(v, "pb")) c->elec_pb = 1;
            else if (!strcmp(v, "coulomb")) c->elec_pb = 0;
            else return vsg_cli_usage_error(cmd, "--elec: '%s' is not coulomb or pb", v);
            continue;
        } else if (!strcmp(cmd, "grid") && vsg_arg_is(&a, "--elec-weight")) {
            const char *v = vsg_arg_value(&a, cmd);
            if (!v) return VSG_EXIT_USAGE;
            if (!vsg_parse_number(v, &c->elec_weight) || !(c->elec_weight > 0.0))
                return vsg_cli_usage_error(cmd, "--elec-weight: '%s' is not a number > 0", v);
            continue;
        }
        else if (!strcmp(cmd, "grid") && vsg_arg_is(&a, "--receptors")) target = &c->list;
        else if (!strcmp(cmd, "grid") && vsg_arg_is(&a, "--summary")) target = &c->summary;
        if (target) {
            if (!(*target = vsg_arg_value(&a, cmd))) return VSG_EXIT_USAGE;
            continue;
        }
        if (arg[0] == '-' && arg[1] != '\0') return vsg_cli_usage_error(cmd, "unknown option %s", arg);
        if (c->receptor && strcmp(cmd, "grid"))
            return vsg_cli_usage_error(cmd, "one receptor only (got %s and %s)", c->receptor, arg);
        if (!c->receptor) c->receptor = arg;
        if (add_receptor(c, arg)) return vsg_cli_usage_error(cmd, "out of memory");
    }
    vsg_cli_pb_finish(&c->p);
    if (c->list) {
        vsg_status st = vsg_batch_read_list(c->list, &c->listed, &c->nlisted);
        if (st != VSG_OK) return vsg_cli_fail(st);
        for (size_t i = 0; i < c->nlisted; i++)
            if (add_receptor(c, c->listed[i])) return vsg_cli_usage_error(cmd, "out of memory");
        if (!c->receptor) c->receptor = c->receptors[0];
    }
    if (c->nrec > 1 || c->list) {
        for (int i = 0; i < OUTPUTS; i++) {
            const char *pat = *output_slot(c, i);
            if (pat && !strstr(pat, "{}"))
                return vsg_cli_usage_error(cmd, "%zu receptors: %s %s must contain {} (the receptor's name), e.g. 'grids/{}.vsg'",
                                           c->nrec, output_option[i], pat);
        }
        char (*nm)[128] = c->names = malloc(c->nrec * sizeof *nm);
        if (!nm) return vsg_cli_usage_error(cmd, "out of memory");
        for (size_t i = 0; i < c->nrec; i++) {
            vsg_batch_name(c->receptors[i], nm[i], sizeof nm[i]);
            for (size_t j = 0; j < i; j++)
                if (!strcmp(nm[i], nm[j]))
                    return vsg_cli_usage_error(cmd, "%s and %s would write the same files (both named '%s')",
                                               c->receptors[j], c->receptors[i], nm[i]);
        }
    }
    if (!c->method_set && c->gpf && c->agmaps && !strcmp(cmd, "grid")) c->coulomb = 1, c->ad4 = 1;
    if (c->ad4 && (!c->gpf || !c->agmaps))
        return vsg_cli_usage_error(cmd, "--method ad4 needs --gpf FILE.gpf (the ligand types) and --autogrid-maps PREFIX");
    if (!c->coulomb && (c->dielectric || c->gpf || c->agmaps || c->autogrid))
        return vsg_cli_usage_error(cmd, "--dielectric, --autogrid, --gpf and --autogrid-maps need --method coulomb or ad4");
    if (c->dielectric) {
        if (parse_dielectric(cmd, c->dielectric, &c->diel_model, &c->diel_eps)) return VSG_EXIT_USAGE;
        c->have_dielectric = 1;
        if (c->diel_model == VSG_DIEL_CONSTANT && c->diel_eps == 0.0 && !(c->autogrid || c->gpf || c->agmaps))
            return vsg_cli_usage_error(cmd, "--dielectric 0: a constant dielectric must be > 0 (0 means 40 only with --autogrid)");
    }
    if (c->gpf || c->agmaps) c->autogrid = 1;
    if (c->elec_pb && (!c->gpf || !c->agmaps))
        return vsg_cli_usage_error(cmd, "--elec pb makes the e map of an AutoGrid map set: it needs --gpf FILE.gpf and "
                                        "--autogrid-maps PREFIX (a PB grid alone: leave out --method)");
    if (c->elec_weight > 0.0 && !c->elec_pb) return vsg_cli_usage_error(cmd, "--elec-weight needs --elec pb");
    if (c->elec_pb && c->dielectric)
        return vsg_cli_usage_error(cmd, "--dielectric is the Coulomb e map's; with --elec pb use --eps-in/--eps-out");
    if (!c->receptor && !c->gpf) return vsg_cli_usage_error(cmd, "no receptor given");
    if (!strcmp(cmd, "grid") && !c->output && !c->dx && !c->agmaps)
        return vsg_cli_usage_error(cmd, c->coulomb ? "no output: give -o OUT.vsg, --dx OUT.dx or --autogrid-maps PREFIX"
                                                   : "no output: give -o OUT.vsg (or --dx OUT.dx)");
    /* output paths, before any solve (issue 20): a grid's extension, and a folder to write in */
    const char *grid_out[2] = {c->output, c->dx};
    for (int i = 0; i < 2; i++) {
        const char *o = grid_out[i];
        if (o && !grid_extension_ok(o))
            return vsg_cli_usage_error(cmd, "%s %s: a grid is written as .vsg, .dx or .dx.gz (an AutoGrid map set: "
                                            "--method coulomb --autogrid-maps PREFIX)", i ? "--dx" : "-o", o);
    }
    if (c->nrec <= 1 && !c->list && vsg_mpi_rank() == 0) {
        for (int i = 0; i < OUTPUTS; i++) {
            const char *o = *output_slot(c, i);
            int e = o ? vsg_cli_check_output(cmd, o) : 0;
            if (e) return e;
        }
        int e = c->summary ? vsg_cli_check_output(cmd, c->summary) : 0;
        if (e) return e;
    }
    c->p.progress = !c->quiet && isatty(2);
    return 0;
}

static void print_summary(const vsg_pb_report *r, const vsg_pb_params *p)
{
    fprintf(stderr, "  grid %dx%dx%d, spacing %.4g Å, %d level%s, %s, %s\n", r->n[0], r->n[1], r->n[2],
            r->spacing, r->levels, r->levels == 1 ? "" : "s (focusing)", r->device, r->precision);
    fprintf(stderr, "  %d iterations (%d over all levels), max change %.2e kT/e, %s, %.3f s (%.3g ms/iteration)\n",
            r->iterations, r->total_iterations, r->final_change, r->converged ? "converged" : "NOT converged",
            r->seconds, 1e3 * r->seconds_per_iteration);
    if (r->device_start_seconds > 0.0)
        fprintf(stderr, "  of the %.3f s, %.3f s started the CUDA runtime and the GPU's context (once per process)\n",
                r->seconds, r->device_start_seconds);
    fprintf(stderr, "  memory %.1f bytes/node; %ld listed nodes (boundary and charged)", r->bytes_per_node,
            r->boundary_nodes);
    if (r->pattern_nodes > 0) fprintf(stderr, ", %ld of them updated by the stencil as patterns", r->pattern_nodes);
    fputc('\n', stderr);
    if (r->charge_outside > 1e-6) {
        /* a sum of |q| (the charge each atom spreads to nodes beyond the fine grid's edge) */
        if (r->levels > 1 || p->bc == VSG_BC_FOCUS_FILE)
            fprintf(stderr, "  atoms outside the finest grid hold %.3f e (sum of |q|): harmless for the potential, "
                            "the coarser grid holds them and focusing carries their field to this grid's boundary\n",
                    r->charge_outside);
        else if (p->bc == VSG_BC_ZERO)
            fprintf(stderr, "  atoms outside the grid hold %.3f e (sum of |q|): the potential misses their field "
                            "(zero boundary); enlarge the grid or use --bc focus\n",
                    r->charge_outside);
        else
            fprintf(stderr, "  atoms outside the grid hold %.3f e (sum of |q|): the boundary values include them "
                            "(%s), the solve inside does not; enlarge the grid or use --bc focus if they are near\n",
                    r->charge_outside, p->bc == VSG_BC_SDH ? "sdh" : p->bc == VSG_BC_MDH ? "mdh" : "dipole");
    }
}

static vsg_status load(const char *path, vsg_molecule **m, const char *what, int quiet)
{
    /* a PDB receptor is prepared (vsgrid prepare) into a PQR */
    vsg_status st = !strcmp(what, "receptor")     ? vsg_cli_read_receptor(path, VSG_PREP_PQR, quiet, m)
                    : !strcmp(what, "box around") ? vsg_cli_read_around(path, m)
                                                  : vsg_molecule_read(path, NULL, m);
    if (st == VSG_OK && !quiet)
        fprintf(stderr, "vsgrid: %s %s: %zu atoms, net charge %+.3f e\n", what, path, vsg_molecule_atom_count(*m),
                vsg_molecule_net_charge(*m));
    return st;
}

/* ---- --method coulomb ------------------------------------------------------------------ */

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* The AutoGrid box from a gpf: npts + 1 points per axis centred on gridcenter (or on the mean
 * of the receptor's atoms for "gridcenter auto", AutoGrid's cmean). */
static vsg_status gpf_box(const vsg_gpf *gp, const vsg_molecule *m, int n[3], double origin[3], double *h,
                          double centre[3])
{
    double c[3] = {gp->center[0], gp->center[1], gp->center[2]};
    if (gp->center_auto) {
        size_t na = vsg_molecule_atom_count(m);
        if (na == 0) return vsg_fail(VSG_E_DATA, "gridcenter auto: the receptor has no atoms");
        double s[3] = {0, 0, 0};
        vsg_atom_info at;
        for (size_t i = 0; i < na; i++)
            if (vsg_molecule_atom(m, i, &at) == VSG_OK) s[0] += at.x, s[1] += at.y, s[2] += at.z;
        for (int d = 0; d < 3; d++) c[d] = s[d] / (double)na;
    }
    *h = gp->spacing;
    for (int d = 0; d < 3; d++) {
        n[d] = gp->npts[d] + 1;
        origin[d] = c[d] - (gp->npts[d] / 2) * gp->spacing;
        centre[d] = c[d];
    }
    return VSG_OK;
}

/* A gpf's parameter_file can change FE_coeff_estat: rescale the AutoGrid prefactor. */
static void set_estat(vsg_coulomb_kernel *k, double coeff)
{
    double ratio = 332.0 * coeff / k->scale;
    k->scale *= ratio;
    for (int i = 0; k->table && i < k->table_n; i++) k->table[i] *= ratio;
}

/* Adds a comment line after the first line of an AVS field file (its "# AVS" line): AutoDock,
 * AutoDock-GPU and vsgrid skip comments they do not know. */
static vsg_status fld_annotate(const char *path, const char *note)
{
    FILE *f = fopen(path, "r");
    if (!f) return vsg_fail(VSG_E_IO, "cannot read %s", path);
    char *buf = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len + 4096 > cap) {
            char *nb = realloc(buf, cap = cap * 2 + 8192);
            if (!nb) { free(buf); fclose(f); return vsg_fail(VSG_E_NOMEM, "out of memory"); }
            buf = nb;
        }
        size_t r = fread(buf + len, 1, cap - len, f);
        len += r;
        if (r == 0) break;
    }
    fclose(f);
    char *nl = memchr(buf, '\n', len);
    size_t head = nl ? (size_t)(nl - buf) + 1 : len;
    vsg_status st = VSG_OK;
    if (!(f = fopen(path, "w"))) st = vsg_fail(VSG_E_IO, "cannot write %s", path);
    else {
        fwrite(buf, 1, head, f);
        fprintf(f, "%s\n", note);
        fwrite(buf + head, 1, len - head, f);
        if (ferror(f) | (fclose(f) != 0)) st = vsg_fail(VSG_E_IO, "error writing %s", path);
    }
    free(buf);
    return st;
}

/* One Coulomb grid for c->receptor (or the gpf's); fills *row. Returns the exit code. */
static int run_coulomb(grid_cli *cl, const char *cmd, vsg_batch_row *row)
{
    grid_cli cc = *cl, *c = &cc; /* --around sets c->p.around for this receptor only */
    double t0 = vsg_now();
    vsg_gpf gp;
    vsg_molecule *m = NULL, *around = NULL;
    vsg_grid *g = NULL;
    vsg_coulomb_kernel k;
    memset(&k, 0, sizeof k);
    memset(&gp, 0, sizeof gp);
    char recbuf[2 * VSG_AG_PATH];
    const char *receptor = c->receptor;
    int rc = 0;
    vsg_status st = VSG_OK;
    vsg_pb_params defaults;
    vsg_pb_params_default(&defaults);
    if (!c->elec_pb) vsg_cli_warn_pb_only(&c->p, &defaults);
    if (c->gpf) {
        st = vsg_gpf_read(c->gpf, &gp);
        if (st == VSG_OK && !receptor) {
            /* AutoGrid opens the receptor relative to its working directory; next to the gpf second */
            const char *slash = strrchr(c->gpf, '/');
            if (!gp.receptor[0]) st = vsg_fail(VSG_E_ARG, "no receptor given and %s names none", c->gpf);
            else if (access(gp.receptor, R_OK) != 0 && gp.receptor[0] != '/' && slash)
                snprintf(recbuf, sizeof recbuf, "%.*s/%s", (int)(slash - c->gpf), c->gpf, gp.receptor), receptor = recbuf;
            else
                receptor = gp.receptor;
        }
    }
    if (st == VSG_OK) st = load(receptor, &m, "receptor", c->quiet);
    if (st == VSG_OK && c->around && !c->gpf) {
        st = load(c->around, &around, "box around", c->quiet);
        c->p.around = around;
    }
    if (st == VSG_OK && (c->ad4 ? vsg_cli_check_charges(cmd, receptor, m, c->allow_zero_charges)
                                : check_receptor(c, cmd, receptor, m, c->gpf ? NULL : around))) {
        rc = VSG_EXIT_INPUT;
        snprintf(row->message, sizeof row->message, "receptor refused (charges all 0, or far from the box)");
        vsg_molecule_free(around);
        vsg_molecule_free(m);
        return rc;
    }

    /* geometry */
    int n[3] = {0, 0, 0};
    double origin[3] = {0, 0, 0}, h = 0.0, gpf_centre[3] = {0, 0, 0};
    if (st == VSG_OK && c->gpf) {
        if (c->around || c->p.box_mode != VSG_BOX_FILL)
            vsg_warn("--gpf sets the box: --box/--around/--fill are ignored");
        st = gpf_box(&gp, m, n, origin, &h, gpf_centre);
    } else if (st == VSG_OK) {
        vsg_level lv;
        st = vsg_fine_level(m, &c->p, &lv);
        if (st == VSG_OK) {
            memcpy(n, lv.n, sizeof n);
            memcpy(origin, lv.origin, sizeof origin);
            h = lv.h;
        }
    }
    if (st == VSG_OK && c->gpf && !c->box_checked) {
        double hi[3];
        for (int d = 0; d < 3; d++) hi[d] = origin[d] + (n[d] - 1) * h;
        if (vsg_cli_atoms_near_box(m, origin, hi, 8.0) == 0)
            vsg_warn("%s: no receptor atom within 8 A of the gpf's box (gridcenter %g %g %g): the affinity and "
                     "desolvation maps are zero; check gridcenter and npts", c->gpf, gpf_centre[0], gpf_centre[1],
                     gpf_centre[2]);
    }
    double bytes = (double)n[0] * n[1] * n[2] * sizeof(float);
    if (st == VSG_OK) {
        if (!c->quiet)
            fprintf(stderr, "vsgrid: grid %dx%dx%d at %.4g Å: memory estimate %.1f MiB (limit %.0f MiB)\n", n[0], n[1],
                    n[2], h, bytes / 1048576.0, c->p.max_memory / 1048576.0);
        if (bytes > c->p.max_memory)
            st = vsg_fail(VSG_E_LIMIT, "the grid needs %.1f MiB, over --max-memory %.0f MiB", bytes / 1048576.0,
                          c->p.max_memory / 1048576.0);
    }

    /* dielectric: the command line, else the gpf's dielectric line, else Mehler–Solmajer */
    vsg_dielectric_model model = VSG_DIEL_MEHLER_SOLMAJER;
    double eps = 0.0;
    if (c->have_dielectric) model = c->diel_model, eps = c->diel_eps;
    else if (c->gpf && gp.have_dielectric && gp.dielectric >= 0.0) model = VSG_DIEL_CONSTANT, eps = gp.dielectric;
    else if (st == VSG_OK && c->gpf && !gp.have_dielectric && !c->elec_pb)
        vsg_warn("%s has no dielectric line (autogrid4 would then write a zero e map): using mehler-solmajer", c->gpf);
    if (st == VSG_OK) st = vsg_coulomb_kernel_make(model, eps, c->autogrid, &k);
    if (st == VSG_OK && c->autogrid && gp.have_estat) set_estat(&k, gp.estat_coeff);
    if (st == VSG_OK && c->gpf) { /* the gpf's centre exactly, as autogrid4 places points and atoms */
        k.have_center = 1;
        memcpy(k.center, gpf_centre, sizeof k.center);
    }

    double sp[3] = {h, h, h};
    if (st == VSG_OK && !(g = vsg_grid_new(n, origin, sp, "kcal/mol/e"))) st = VSG_E_NOMEM;
    char dname[32];
    if (st == VSG_OK) {
        st = vsg_grid_meta_add(g, "method", "%s", c->elec_pb ? "pb" : "coulomb");
        if (st == VSG_OK) st = vsg_grid_meta_add(g, "dielectric", "%s", vsg_cli_dielectric_name(&k, dname, sizeof dname));
        if (st == VSG_OK) st = vsg_grid_meta_add(g, "autogrid", "%d", k.autogrid);
        if (st == VSG_OK) st = vsg_grid_meta_add(g, "prefactor_kcal_a_mol_e2", "%.10g", k.scale);
        if (st == VSG_OK) st = vsg_grid_meta_add(g, "receptor", "%s", receptor);
        if (st == VSG_OK) st = vsg_grid_meta_add(g, "receptor_crc32", "%08x", (unsigned)vsg_molecule_checksum(m));
        if (st == VSG_OK) st = vsg_grid_meta_add(g, "vsgrid_version", "%s", vsg_version());
    }

    /* compute: the GPU when asked or present, else the CPU twin */
    size_t charged = 0;
    vsg_atom_info at;
    for (size_t i = 0; m && i < vsg_molecule_atom_count(m); i++)
        if (vsg_molecule_atom(m, i, &at) == VSG_OK) charged += at.charge != 0.0;
    char device[64] = "";
    double secs = 0.0, eps_rate = 0.0, elec_weight = 0.0;
    int no_gpu = 0; /* the Coulomb kernel found no usable GPU (--device auto) */
    vsg_pb_report pbr;
    memset(&pbr, 0, sizeof pbr);
    if (st == VSG_OK && c->elec_pb) {
        /* --elec pb: the PB potential on the map's lattice, focused from a box around the whole
         * receptor, in kcal/mol/e times AutoDock4's electrostatic weight, as the Coulomb e map */
        vsg_ad4_params bp;
        vsg_ad4_params_builtin(&bp);
        elec_weight = c->elec_weight > 0.0 ? c->elec_weight : gp.have_estat ? gp.estat_coeff : bp.coeff_estat;
        vsg_pb_params q = c->p;
        if (q.bc != VSG_BC_FOCUS_FILE) q.bc = VSG_BC_FOCUS;
        if (q.precision == VSG_PRECISION_AUTO) q.precision = VSG_PRECISION_DOUBLE; /* GPU = CPU twin */
        q.progress = 0;
        double tc = vsg_now();
        st = vsg_pb_map_fill(m, &q, elec_weight, g, &pbr);
        secs = vsg_now() - tc;
        if (st == VSG_OK) {
            snprintf(device, sizeof device, "%s", pbr.device);
            st = vsg_grid_meta_add(g, "elec", "pb");
            if (st == VSG_OK) st = vsg_grid_meta_add(g, "elec_weight", "%.6g", elec_weight);
            if (st == VSG_OK) st = vsg_grid_meta_add(g, "eps_in", "%g", q.eps_in);
            if (st == VSG_OK) st = vsg_grid_meta_add(g, "eps_out", "%g", q.eps_out);
            if (st == VSG_OK && !c->quiet)
                fprintf(stderr, "  e map: PB potential (eps %g/%g, %d ion species, %d level%s, %d iterations%s), %s, "
                        "%.3f s; x %.4g kcal/mol/kT x weight %.4g\n", q.eps_in, q.eps_out, q.n_ions, pbr.levels,
                        pbr.levels == 1 ? "" : "s", pbr.iterations, pbr.converged ? "" : ", NOT converged", device, secs,
                        pbr.kt_kcal, elec_weight);
        }
    } else if (st == VSG_OK) {
        double tc = vsg_now();
        int done = 0;
        int gpu_ok = c->p.device == VSG_DEVICE_GPU || c->p.device == VSG_DEVICE_AUTO;
        if (gpu_ok) {
            st = vsg_coulomb_gpu(m, &k, g, c->p.gpu_index, &eps_rate);
            if (st == VSG_OK) {
                done = 1;
                snprintf(device, sizeof device, "gpu %d", c->p.gpu_index < 0 ? 0 : c->p.gpu_index);
            } else if (c->p.device == VSG_DEVICE_AUTO && (st == VSG_E_UNSUPPORTED || st == VSG_E_DEVICE)) {
                vsg_warn("no usable GPU (%s): computing on the CPU", vsg_last_error());
                st = VSG_OK;
                no_gpu = 1; /* said once: the AD4 maps below go to the CPU without a second warning */
            }
        }
        if (st == VSG_OK && !done) {
            int threads = 1;
#ifdef _OPENMP
            if (c->p.threads > 0) omp_set_num_threads(c->p.threads);
            threads = omp_get_max_threads();
#endif
            tc = vsg_now();
            st = vsg_coulomb_cpu(m, &k, g);
            snprintf(device, sizeof device, "cpu (%d thread%s)", threads, threads == 1 ? "" : "s");
            eps_rate = 0.0;
        }
        secs = vsg_now() - tc;
        if (st == VSG_OK && !(eps_rate > 0.0)) eps_rate = secs > 0.0 ? (double)charged * (double)vsg_grid_nodes(g) / secs : 0.0;
    }
    if (st == VSG_OK && !c->elec_pb && !c->quiet)
        fprintf(stderr, "  coulomb %s%s, %zu charged atoms x %zu points, %s, %.3f s (%.3g evaluations/s)\n",
                vsg_cli_dielectric_name(&k, dname, sizeof dname), k.autogrid ? " (AutoGrid conventions)" : "", charged,
                vsg_grid_nodes(g), device, secs, eps_rate);

    /* AutoDock4 affinity maps and the desolvation map: the GPU when asked or present, else the CPU twin */
    vsg_grid *ad4[VSG_AG_MAX_MAPS + 1];
    int nad4 = 0;
    double ad4_secs = 0.0;
    if (st == VSG_OK && c->ad4) {
        vsg_ad4_params par;
        st = vsg_ad4_params_builtin(&par);
        if (st == VSG_OK && gp.parameter_file[0]) st = vsg_ad4_params_read(gp.parameter_file, &par);
        if (st == VSG_OK && gp.n_maps != gp.n_ligand_types)
            vsg_warn("%s: %d map lines for %d ligand types (autogrid4 would stop): writing one map per ligand type",
                     c->gpf, gp.n_maps, gp.n_ligand_types);
        double ta = vsg_now();
        char ad4_dev[32] = "cpu";
        int ad4_done = 0;
        if (st == VSG_OK && !no_gpu && (c->p.device == VSG_DEVICE_GPU || c->p.device == VSG_DEVICE_AUTO)) {
            st = vsg_ad4_maps_gpu(m, &gp, &par, c->p.gpu_index, ad4);
            if (st == VSG_OK) {
                ad4_done = 1;
                snprintf(ad4_dev, sizeof ad4_dev, "gpu %d", c->p.gpu_index < 0 ? 0 : c->p.gpu_index);
            } else if (c->p.device == VSG_DEVICE_AUTO &&
                       (st == VSG_E_UNSUPPORTED || st == VSG_E_DEVICE || st == VSG_E_LIMIT)) {
                vsg_warn("ad4 maps: no usable GPU (%s): computing on the CPU", vsg_last_error());
                st = VSG_OK;
                ta = vsg_now();
            }
        }
        if (st == VSG_OK && !ad4_done) st = vsg_ad4_maps_cpu(m, &gp, &par, c->p.threads, ad4);
        ad4_secs = vsg_now() - ta;
        if (st == VSG_OK) {
            nad4 = gp.n_ligand_types + 1;
            if (!c->quiet)
                fprintf(stderr, "  ad4 maps: %d ligand types + desolvation, %zu points, %s, %.3f s\n", gp.n_ligand_types,
                    vsg_grid_nodes(ad4[0]), ad4_dev, ad4_secs);
        }
    }

    /* outputs */
    if (st == VSG_OK && c->output) st = vsg_grid_write(g, c->output);
    if (st == VSG_OK && c->dx) st = vsg_grid_write(g, c->dx);
    char *emap = NULL, *fldp = NULL;
    if (st == VSG_OK && c->agmaps) {
        size_t l = strlen(c->agmaps) + 24;
        emap = malloc(l);
        fldp = malloc(l);
        if (!emap || !fldp) st = vsg_fail(VSG_E_NOMEM, "out of memory");
        if (st == VSG_OK) {
            snprintf(emap, l, "%s.e.map", c->agmaps);
            snprintf(fldp, l, "%s.maps.fld", c->agmaps);
            vsg_autogrid_header hd = {c->gpf, base_name(fldp), base_name(receptor)};
            /* the e map and every affinity and d map, several files at a time */
            char mp[VSG_AG_MAX_MAPS + 2][VSG_AG_PATH + 32];
            const char *paths[VSG_AG_MAX_MAPS + 2];
            const vsg_grid *maps[VSG_AG_MAX_MAPS + 2];
            int nw = 0;
            maps[nw] = g, paths[nw++] = emap;
            for (int i = 0; i < nad4 && nw < VSG_AG_MAX_MAPS + 2; i++, nw++) {
                snprintf(mp[nw], sizeof mp[nw], "%.*s.%s.map", VSG_AG_PATH, c->agmaps,
                         i < nad4 - 1 ? gp.ligand_types[i] : "d");
                maps[nw] = ad4[i], paths[nw] = mp[nw];
            }
            st = vsg_autogrid_maps_write(maps, paths, nw, &hd);
        }
        if (st == VSG_OK) {
            vsg_fld f;
            memset(&f, 0, sizeof f);
            f.spacing = h;
            for (int d = 0; d < 3; d++) {
                f.npts[d] = n[d] - 1;
                f.center[d] = origin[d] + 0.5 * (n[d] - 1) * h;
            }
            snprintf(f.macromolecule, sizeof f.macromolecule, "%.*s", (int)sizeof f.macromolecule - 1, base_name(receptor));
            snprintf(f.gpf, sizeof f.gpf, "%.*s", (int)sizeof f.gpf - 1, c->gpf ? c->gpf : "none");
            /* AutoGrid's order: the ligand types, then e, then d */
            const char *pb = base_name(c->agmaps);
            for (int i = 0; i < nad4 - 1; i++) {
                snprintf(f.maps[f.n_maps].type, sizeof f.maps[0].type, "%s", gp.ligand_types[i]);
                snprintf(f.maps[f.n_maps].file, sizeof f.maps[0].file, "%.*s.%s.map", VSG_AG_PATH - 8, pb,
                         gp.ligand_types[i]);
                f.n_maps++;
            }
            snprintf(f.maps[f.n_maps].type, sizeof f.maps[0].type, "e");
            snprintf(f.maps[f.n_maps].file, sizeof f.maps[0].file, "%.*s", (int)sizeof f.maps[0].file - 1, base_name(emap));
            f.n_maps++;
            if (nad4 > 0) {
                snprintf(f.maps[f.n_maps].type, sizeof f.maps[0].type, "d");
                snprintf(f.maps[f.n_maps].file, sizeof f.maps[0].file, "%.*s.d.map", VSG_AG_PATH - 8, pb);
                f.n_maps++;
            }
            if (f.n_maps > VSG_AG_MAX_MAPS)
                st = vsg_fail(VSG_E_LIMIT, "%d maps: an AutoGrid map set holds at most %d", f.n_maps, VSG_AG_MAX_MAPS);
            else
                st = vsg_autogrid_fld_write(fldp, &f);
            if (st == VSG_OK && c->elec_pb) {
                char note[256];
                snprintf(note, sizeof note, "# vsgrid: the e map is the Poisson-Boltzmann potential (kcal/mol/e) x %.4g "
                         "(eps_in %g, eps_out %g), not autogrid4's Coulomb map", elec_weight, c->p.eps_in, c->p.eps_out);
                st = fld_annotate(fldp, note);
            }
        }
    }
    if (st == VSG_OK && !c->quiet) {
        if (c->output) fprintf(stderr, "vsgrid: wrote %s\n", c->output);
        if (c->dx) fprintf(stderr, "vsgrid: wrote %s\n", c->dx);
        if (c->agmaps && nad4)
            fprintf(stderr, "vsgrid: wrote %s.{%d ligand type maps,e,d}.map and %s\n", c->agmaps, nad4 - 1, fldp);
        else if (c->agmaps)
            fprintf(stderr, "vsgrid: wrote %s and %s\n", emap, fldp);
    }
    if (st == VSG_OK && c->json) {
        vsg_json j;
        FILE *f = vsg_cli_json_open(c->json, &j, cmd);
        if (f) {
            vsg_json_str(&j, "receptor", receptor);
            vsg_json_int(&j, "receptor_atoms", (long long)vsg_molecule_atom_count(m));
            vsg_json_int(&j, "charged_atoms", (long long)charged);
            vsg_json_num(&j, "receptor_net_charge_e", vsg_molecule_net_charge(m));
            vsg_json_str(&j, "method", "coulomb");
            vsg_json_str(&j, "elec", c->elec_pb ? "pb" : "coulomb");
            if (c->elec_pb) {
                vsg_json_num(&j, "elec_weight", elec_weight);
                vsg_json_int(&j, "pb_iterations", pbr.iterations);
                vsg_json_bool(&j, "pb_converged", pbr.converged);
                vsg_json_num(&j, "kt_kcal_mol", pbr.kt_kcal);
            }
            vsg_json_str(&j, "dielectric", vsg_cli_dielectric_name(&k, dname, sizeof dname));
            if (k.model == VSG_DIEL_CONSTANT) vsg_json_num(&j, "dielectric_constant", k.eps);
            vsg_json_bool(&j, "autogrid", k.autogrid);
            vsg_json_num(&j, "prefactor_kcal_a_mol_e2", k.scale);
            vsg_json_num(&j, "rmin_a", k.rmin);
            if (c->gpf) vsg_json_str(&j, "gpf", c->gpf);
            if (c->output) vsg_json_str(&j, "output", c->output);
            if (c->dx) vsg_json_str(&j, "dx", c->dx);
            if (c->agmaps) {
                vsg_json_str(&j, "autogrid_e_map", emap);
                vsg_json_str(&j, "autogrid_fld", fldp);
            }
            if (nad4) {
                vsg_json_int(&j, "ad4_maps", nad4);
                vsg_json_num(&j, "ad4_seconds", ad4_secs);
            }
            vsg_json_object(&j, "grid");
            vsg_json_array(&j, "nodes");
            for (int d = 0; d < 3; d++) vsg_json_int(&j, NULL, n[d]);
            vsg_json_end(&j, ']');
            vsg_json_array(&j, "origin_a");
            for (int d = 0; d < 3; d++) vsg_json_num(&j, NULL, origin[d]);
            vsg_json_end(&j, ']');
            vsg_json_num(&j, "spacing_a", h);
            vsg_json_str(&j, "units", "kcal/mol/e");
            vsg_json_end(&j, '}');
            vsg_json_int(&j, "nodes", (long long)vsg_grid_nodes(g));
            vsg_json_str(&j, "device", device);
            vsg_json_num(&j, "compute_seconds", secs);
            vsg_json_num(&j, "evals_per_second", eps_rate);
            vsg_json_num(&j, "memory_estimate_bytes", bytes);
            vsg_cli_json_finish(&j, f, c->json, vsg_now() - t0);
        } else {
            rc = VSG_EXIT_FAILURE;
        }
    }
    if (st != VSG_OK) {
        snprintf(row->message, sizeof row->message, "%s", vsg_last_error());
        rc = vsg_cli_fail(st);
    }
    memcpy(row->n, n, sizeof row->n);
    row->solve_seconds = secs;
    snprintf(row->device, sizeof row->device, "%s", device);
    free(emap);
    free(fldp);
    for (int i = 0; i < nad4; i++) vsg_grid_free(ad4[i]);
    vsg_coulomb_kernel_free(&k);
    vsg_grid_free(g);
    vsg_molecule_free(m);
    vsg_molecule_free(around);
    return rc;
}

/* One PB grid (or `energy`) for c->receptor; fills *row. Returns the exit code. */
static int run_pb(grid_cli *cl, const char *cmd, vsg_batch_row *row)
{
    grid_cli c = *cl; /* --around sets c.p.around for this receptor only */
    int rc = 0;
    double t0 = vsg_now();
    vsg_molecule *m = NULL, *around = NULL, *lig = NULL;
    vsg_grid *g = NULL;
    vsg_status st = load(c.receptor, &m, "receptor", c.quiet);
    if (st == VSG_OK && c.around) {
        st = load(c.around, &around, "box around", c.quiet);
        c.p.around = around;
    }
    if (st == VSG_OK && check_receptor(&c, cmd, c.receptor, m, around)) {
        snprintf(row->message, sizeof row->message, "receptor refused (charges all 0, or far from the box)");
        vsg_molecule_free(around);
        vsg_molecule_free(m);
        return VSG_EXIT_INPUT;
    }
    if (st == VSG_OK && c.ligand) st = load(c.ligand, &lig, "ligand", c.quiet);
    double bytes = 0.0;
    int n[3] = {0, 0, 0};
    double h = 0.0;
    if (st == VSG_OK) st = vsg_pb_estimate(m, &c.p, &bytes, n, &h);
    if (st == VSG_OK)
        fprintf(stderr, "vsgrid: grid %dx%dx%d at %.4g Å: memory estimate %.1f MiB (limit %.0f MiB)\n", n[0], n[1],
                n[2], h, bytes / 1048576.0, c.p.max_memory / 1048576.0);
    vsg_pb_report r, rref;
    double dg = 0.0;
    memset(&r, 0, sizeof r);
    memset(&rref, 0, sizeof rref);
    if (st == VSG_OK) {
        if (c.solvation) st = vsg_pb_solvation(m, &c.p, &dg, &r, &rref, &g);
        else st = vsg_pb_solve(m, &c.p, &g, &r);
    }
    if (st == VSG_OK) print_summary(&r, &c.p);
    if (st == VSG_OK && c.output) st = vsg_grid_write(g, c.output);
    if (st == VSG_OK && c.dx) st = vsg_grid_write(g, c.dx);
    vsg_probe_result pr = {0, 0, 0};
    if (st == VSG_OK && lig) st = vsg_grid_probe(g, lig, NULL, &pr);
    if (st == VSG_OK) {
        double kt = r.kt_kcal;
        if (!strcmp(cmd, "energy")) {
            printf("total grid energy        %14.4f kT  %14.4f kcal/mol   electrostatic only: ½Σ q·φ of the "
                   "receptor's charges, grid self-energy included\n",
                   r.energy_kt, r.energy_kt * kt);
            if (c.solvation)
                printf("solvation energy         %14.4f kT  %14.4f kcal/mol   electrostatic (polar) solvation only: "
                       "ε_out=%g minus ε_out=ε_in; no nonpolar term\n", dg, dg * kt, c.p.eps_out);
            if (lig)
                printf("interaction energy       %14.4f kT  %14.4f kcal/mol   %s\n", pr.energy, pr.energy * kt, VSG_ELEC_ONLY);
            if (lig && pr.outside) printf("  (%zu of %zu ligand atoms outside the grid contribute 0)\n", pr.outside, pr.atoms);
        } else {
            if (c.output) fprintf(stderr, "vsgrid: wrote %s\n", c.output);
            if (c.dx) fprintf(stderr, "vsgrid: wrote %s\n", c.dx);
        }
    }
    if (st == VSG_OK && c.json) {
        vsg_json j;
        FILE *f = vsg_cli_json_open(c.json, &j, cmd);
        if (f) {
            vsg_json_str(&j, "receptor", c.receptor);
            vsg_json_int(&j, "receptor_atoms", (long long)vsg_molecule_atom_count(m));
            vsg_json_num(&j, "receptor_net_charge_e", vsg_molecule_net_charge(m));
            if (c.output) vsg_json_str(&j, "output", c.output);
            if (c.dx) vsg_json_str(&j, "dx", c.dx);
            vsg_json_num(&j, "memory_estimate_bytes", bytes);
            vsg_cli_json_pb(&j, &c.p, &r);
            /* MPI (issue 7): ranks, and the distributed SOR of the last (finest) level. */
            vsg_json_int(&j, "ranks", vsg_mpi_size());
            vsg_sor_mpi_stats ms;
            if (vsg_sor_mpi_last(&ms)) {
                vsg_json_object(&j, "mpi");
                vsg_json_int(&j, "ranks", ms.ranks);
                vsg_json_str(&j, "slab_backend", ms.backend);
                vsg_json_str(&j, "halo_path", ms.halo_path);
                vsg_json_int(&j, "planes_per_rank_min", ms.planes_min);
                vsg_json_int(&j, "planes_per_rank_max", ms.planes_max);
                vsg_json_int(&j, "iterations", ms.iterations);
                vsg_json_num(&j, "seconds_per_iteration", ms.seconds_per_iteration);
                vsg_json_num(&j, "comm_seconds", ms.comm_seconds);
                vsg_json_num(&j, "allreduce_seconds", ms.allreduce_seconds);
                vsg_json_num(&j, "halo_bytes_sent_rank0", ms.halo_bytes);
                vsg_json_array(&j, "devices"); /* per rank: GPU number, or -1 for CPU ranks */
                for (int k = 0; k < ms.ranks && k < VSG_SOR_MPI_MAX_REPORTED; k++) vsg_json_int(&j, NULL, ms.device[k]);
                vsg_json_end(&j, ']');
                vsg_json_array(&j, "hosts"); /* per rank: the host, numbered in rank order */
                for (int k = 0; k < ms.ranks && k < VSG_SOR_MPI_MAX_REPORTED; k++) vsg_json_int(&j, NULL, ms.host_id[k]);
                vsg_json_end(&j, ']');
                vsg_json_end(&j, '}');
            }
            vsg_json_num(&j, "kt_kcal_mol", r.kt_kcal);
            if (c.solvation) {
                vsg_json_num(&j, "solvation_energy_kt", dg);
                vsg_json_num(&j, "solvation_energy_kcal_mol", dg * r.kt_kcal);
                vsg_json_num(&j, "reference_energy_kt", rref.energy_kt);
                vsg_json_int(&j, "reference_iterations", rref.iterations);
            }
            if (lig) {
                vsg_json_str(&j, "ligand", c.ligand);
                vsg_json_num(&j, "interaction_energy_kt", pr.energy);
                vsg_json_num(&j, "interaction_energy_kcal_mol", pr.energy * r.kt_kcal);
                vsg_json_int(&j, "ligand_atoms", (long long)pr.atoms);
                vsg_json_int(&j, "ligand_atoms_outside", (long long)pr.outside);
            }
            vsg_cli_json_finish(&j, f, c.json, vsg_now() - t0);
        } else {
            rc = VSG_EXIT_FAILURE;
        }
    }
    if (st != VSG_OK) {
        snprintf(row->message, sizeof row->message, "%s", vsg_last_error());
        rc = vsg_cli_fail(st);
    } else if (!r.converged) {
        rc = VSG_EXIT_CONVERGE;
        snprintf(row->message, sizeof row->message, "not converged in %d iterations", r.iterations);
    }
    memcpy(row->n, n, sizeof row->n);
    row->iterations = r.iterations;
    row->solve_seconds = r.seconds;
    row->device_start_seconds = r.device_start_seconds;
    row->energy_kt = r.energy_kt;
    snprintf(row->device, sizeof row->device, "%s", r.device);
    vsg_grid_free(g);
    vsg_molecule_free(m);
    vsg_molecule_free(around);
    vsg_molecule_free(lig);
    return rc;
}

/* Every receptor in turn, with its own output names; a failure is reported and skipped. The
 * exit code is the first failure's. */
static int run_batch(grid_cli *c, const char *cmd)
{
    vsg_batch_row *rows = calloc(c->nrec, sizeof *rows);
    if (!rows) return vsg_cli_fail(vsg_fail(VSG_E_NOMEM, "out of memory"));
    char names[OUTPUTS][4096];
    int rc = 0;
    for (size_t i = 0; i < c->nrec; i++) {
        vsg_batch_row *row = &rows[i];
        row->path = c->receptors[i];
        snprintf(row->name, sizeof row->name, "%s", c->names[i]);
        grid_cli one = *c;
        one.receptor = row->path;
        int fit = 1;
        for (int k = 0; k < OUTPUTS; k++) {
            const char *pat = *output_slot(c, k);
            if (!pat) continue;
            fit &= vsg_batch_subst(pat, row->name, names[k], sizeof names[k]);
            *output_slot(&one, k) = names[k];
        }
        fprintf(stderr, "vsgrid: receptor %zu of %zu: %s\n", i + 1, c->nrec, row->path);
        double t = vsg_now();
        vsg_status ds = VSG_OK;
        if (!fit) ds = vsg_fail(VSG_E_ARG, "%s: output name too long", row->path);
        for (int k = 0; k < OUTPUTS && ds == VSG_OK; k++)
            if (*output_slot(&one, k)) ds = vsg_batch_make_dirs(*output_slot(&one, k));
        if (ds != VSG_OK) {
            snprintf(row->message, sizeof row->message, "%s", vsg_last_error());
            row->rc = vsg_cli_fail(ds);
        } else {
            vsg_clear_error();
            row->rc = c->coulomb ? run_coulomb(&one, cmd, row) : run_pb(&one, cmd, row);
        }
        row->seconds = vsg_now() - t;
        if (row->rc && !rc) rc = row->rc;
    }
    vsg_batch_print(stderr, rows, c->nrec, !c->coulomb);
    if (c->summary) {
        vsg_status st = vsg_batch_write_csv(c->summary, rows, c->nrec);
        if (st != VSG_OK) {
            int e = vsg_cli_fail(st);
            if (!rc) rc = e;
        } else {
            fprintf(stderr, "vsgrid: wrote %s\n", c->summary);
        }
    }
    free(rows);
    return rc;
}

static int run(int argc, char **argv, const char *cmd)
{
    grid_cli c;
    int rc = parse(argc, argv, cmd, &c);
    if (rc == -2) rc = 0;
    else if (!rc) {
        /* MPI (issue 7): every rank computes the same grid; rank 0 alone writes the files. */
        if (vsg_mpi_rank() > 0) c.output = c.dx = c.json = c.agmaps = c.summary = NULL;
        if (c.nrec > 1 || c.list) {
            rc = run_batch(&c, cmd);
        } else {
            vsg_batch_row row;
            memset(&row, 0, sizeof row);
            row.path = c.receptor ? c.receptor : c.gpf;
            rc = c.coulomb ? run_coulomb(&c, cmd, &row) : run_pb(&c, cmd, &row);
            if (c.summary) {
                vsg_batch_name(row.path, row.name, sizeof row.name);
                row.rc = rc;
                vsg_status st = vsg_batch_write_csv(c.summary, &row, 1);
                if (st != VSG_OK && !rc) rc = vsg_cli_fail(st);
            }
        }
    }
    free_receptors(&c);
    return rc;
}

int vsg_cmd_grid(int argc, char **argv) { return run(argc, argv, "grid"); }
int vsg_cmd_energy(int argc, char **argv) { return run(argc, argv, "energy"); }

/* `vsgrid maps --scoring ad4`: the map set of a gpf it wrote, through the same path as
 * `vsgrid grid --gpf GPF --autogrid-maps PREFIX` (run_coulomb with --method ad4). */
int vsg_cli_ad4_mapset(const vsg_cli_mapset_job *job)
{
    grid_cli c;
    memset(&c, 0, sizeof c);
    c.p = job->pb;
    c.receptor = job->receptor;
    c.gpf = job->gpf;
    c.agmaps = job->prefix;
    c.json = job->json;
    c.quiet = job->quiet;
    c.coulomb = c.ad4 = c.autogrid = c.method_set = 1;
    c.elec_pb = job->elec_pb;
    c.elec_weight = job->elec_weight;
    c.box_checked = job->box_checked;
    c.allow_zero_charges = 1; /* refused or allowed by the caller (maps --allow-zero-charges; rescore) */
    vsg_batch_row row;
    memset(&row, 0, sizeof row);
    row.path = job->receptor;
    return run_coulomb(&c, "maps", &row);
}
