/* cli_grid.c — `vsgrid grid` (solve and write a PB grid) and `vsgrid energy` (energies). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "timer.h"

static const char grid_usage[] =
    "usage: vsgrid grid RECEPTOR -o OUT.vsg [--dx OUT.dx[.gz]] [options]\n"
    "\n"
    "Builds the electrostatic potential grid (kT/e) of a receptor by solving the linear or\n"
    "nonlinear Poisson-Boltzmann equation (finite differences, checkerboard SOR), on the GPU\n"
    "when one is present (else the CPU twin, which says so once).\n"
    "\n"
    "RECEPTOR: PQR (charges and radii), PDBQT (charges; radii by AutoDock type), MOL2\n"
    "(charges; radii by element), optionally gzipped. PDB has no charges: make a PQR first\n"
    "(pdb2pqr).\n"
    "\n"
    "Output:\n"
    "  -o, --output FILE       grid file: .vsg (vsgrid's own, compressed), .dx or .dx.gz\n"
    "  --dx FILE               also write OpenDX (.dx or .dx.gz) for PyMOL, VMD, ChimeraX\n"
    "  --json FILE             machine-readable summary (parameters, iterations, timings,\n"
    "                          total_energy_kt, ...)\n"
    "  --method pb             the PB solver (default; the only method in this version)\n"
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
    vsg_pb_params p;
} grid_cli;

static int parse(int argc, char **argv, const char *cmd, grid_cli *c)
{
    memset(c, 0, sizeof *c);
    vsg_pb_params_default(&c->p);
    vsg_args a = {argc, 1, argv, NULL, NULL};
    for (; a.i < argc; a.i++) {
        const char *arg = argv[a.i];
        if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
            fputs(!strcmp(cmd, "grid") ? grid_usage : energy_usage, stdout);
            fputs(vsg_cli_pb_help, stdout);
            fputs("\nExit codes: 0 ok, 2 usage, 3 bad input, 4 memory limit, 5 GPU, 6 not converged.\n", stdout);
            return -2;
        }
        int r = vsg_cli_pb_option(&a, cmd, &c->p, &c->around, &c->quiet);
        if (r < 0) return VSG_EXIT_USAGE;
        if (r > 0) continue;
        const char **target = NULL;
        if (vsg_arg_is(&a, "-o") || vsg_arg_is(&a, "--output")) target = &c->output;
        else if (vsg_arg_is(&a, "--dx")) target = &c->dx;
        else if (vsg_arg_is(&a, "--json")) target = &c->json;
        else if (!strcmp(cmd, "energy") && vsg_arg_is(&a, "--ligand")) target = &c->ligand;
        else if (!strcmp(cmd, "energy") && vsg_arg_is(&a, "--solvation")) { c->solvation = 1; continue; }
        else if (vsg_arg_is(&a, "--method")) {
            const char *v = vsg_arg_value(&a, cmd);
            if (!v) return VSG_EXIT_USAGE;
            if (strcmp(v, "pb")) return vsg_cli_usage_error(cmd, "--method %s: this version computes PB grids only (--method pb)", v);
            continue;
        }
        if (target) {
            if (!(*target = vsg_arg_value(&a, cmd))) return VSG_EXIT_USAGE;
            continue;
        }
        if (arg[0] == '-' && arg[1] != '\0') return vsg_cli_usage_error(cmd, "unknown option %s", arg);
        if (c->receptor) return vsg_cli_usage_error(cmd, "one receptor only (got %s and %s)", c->receptor, arg);
        c->receptor = arg;
    }
    vsg_cli_pb_finish(&c->p);
    if (!c->receptor) return vsg_cli_usage_error(cmd, "no receptor given");
    if (!strcmp(cmd, "grid") && !c->output && !c->dx) return vsg_cli_usage_error(cmd, "no output: give -o OUT.vsg (or --dx OUT.dx)");
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
    fprintf(stderr, "  memory %.1f bytes/node; %ld listed nodes (boundary and charged)\n", r->bytes_per_node,
            r->boundary_nodes);
    if (r->charge_outside > 1e-6)
        fprintf(stderr, "  %.3f e of charge lies outside the grid\n", r->charge_outside);
    (void)p;
}

static vsg_status load(const char *path, vsg_molecule **m, const char *what)
{
    vsg_status st = vsg_molecule_read(path, NULL, m);
    if (st == VSG_OK)
        fprintf(stderr, "vsgrid: %s %s: %zu atoms, net charge %+.3f e\n", what, path, vsg_molecule_atom_count(*m),
                vsg_molecule_net_charge(*m));
    return st;
}

static int run(int argc, char **argv, const char *cmd)
{
    grid_cli c;
    int rc = parse(argc, argv, cmd, &c);
    if (rc == -2) return 0;
    if (rc) return rc;
    double t0 = vsg_now();
    vsg_molecule *m = NULL, *around = NULL, *lig = NULL;
    vsg_grid *g = NULL;
    vsg_status st = load(c.receptor, &m, "receptor");
    if (st == VSG_OK && c.around) {
        st = load(c.around, &around, "box around");
        c.p.around = around;
    }
    if (st == VSG_OK && c.ligand) st = load(c.ligand, &lig, "ligand");
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
            printf("total grid energy        %14.4f kT  %14.4f kcal/mol\n", r.energy_kt, r.energy_kt * kt);
            if (c.solvation) printf("solvation energy         %14.4f kT  %14.4f kcal/mol\n", dg, dg * kt);
            if (lig) printf("interaction energy       %14.4f kT  %14.4f kcal/mol\n", pr.energy, pr.energy * kt);
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
    if (st != VSG_OK) rc = vsg_cli_fail(st);
    else if (!r.converged) rc = VSG_EXIT_CONVERGE;
    vsg_grid_free(g);
    vsg_molecule_free(m);
    vsg_molecule_free(around);
    vsg_molecule_free(lig);
    return rc;
}

int vsg_cmd_grid(int argc, char **argv) { return run(argc, argv, "grid"); }
int vsg_cmd_energy(int argc, char **argv) { return run(argc, argv, "energy"); }
