/* cli_probe.c — `vsgrid probe GRID LIGAND`: potential at each ligand atom and Σ q·φ. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/cli/cli.h"

/* What a Σ q·φ energy holds, said next to every such number (issue 20). */
#define VSG_ELEC_ONLY "electrostatic interaction energy only (Σ q·φ; no vdW, desolvation, entropy)"

static const char usage[] =
    "usage: vsgrid probe GRID LIGAND [--csv ATOMS.csv] [--json FILE] [--quiet]\n"
    "\n"
    "Interpolates the grid (trilinear) at each atom of LIGAND and prints the per-atom\n"
    "potential and the interaction energy Σ q_i φ(r_i).\n"
    "  GRID     .vsg, .dx or .dx.gz; kT/e grids (PB) are converted to kcal/mol with the\n"
    "           grid's temperature (metadata temperature_k, default 298.15 K);\n"
    "           kcal/mol/e grids (Coulomb, AutoGrid) are used as they are\n"
    "  LIGAND   PQR, PDBQT or MOL2 with charges\n"
    "  --csv FILE   per-atom table: index,name,residue,x,y,z,charge_e,potential,energy_kcal_mol\n"
    "  --json FILE  summary: interaction_energy_kt, interaction_energy_kcal_mol, atoms, outside\n"
    "  --quiet      print only the total\n"
    "Atoms outside the grid contribute 0 and are counted (a warning names how many).\n";

int vsg_cmd_probe(int argc, char **argv)
{
    const char *grid_path = NULL, *lig_path = NULL, *csv = NULL, *json = NULL;
    int quiet = 0;
    vsg_args a = {argc, 1, argv, NULL, NULL};
    for (; a.i < argc; a.i++) {
        const char *arg = argv[a.i];
        if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) { fputs(usage, stdout); return 0; }
        if (vsg_arg_is(&a, "--csv")) { if (!(csv = vsg_arg_value(&a, "probe"))) return VSG_EXIT_USAGE; continue; }
        if (vsg_arg_is(&a, "--json")) { if (!(json = vsg_arg_value(&a, "probe"))) return VSG_EXIT_USAGE; continue; }
        if (vsg_arg_is(&a, "--quiet")) { quiet = 1; continue; }
        if (arg[0] == '-' && arg[1]) return vsg_cli_usage_error("probe", "unknown option %s", arg);
        if (!grid_path) grid_path = arg;
        else if (!lig_path) lig_path = arg;
        else return vsg_cli_usage_error("probe", "unexpected argument %s", arg);
    }
    if (!grid_path || !lig_path) return vsg_cli_usage_error("probe", "need GRID and LIGAND");
    double t0 = vsg_now();
    vsg_grid *g = NULL;
    vsg_molecule *m = NULL;
    vsg_status st = vsg_grid_read(grid_path, &g);
    if (st == VSG_OK) st = vsg_molecule_read(lig_path, NULL, &m);
    if (st != VSG_OK) {
        int rc = vsg_cli_fail(st);
        vsg_grid_free(g);
        return rc;
    }
    vsg_grid_shape shape;
    vsg_grid_shape_of(g, &shape);
    int kt_units = strcmp(shape.units, "kT/e") == 0;
    double temperature = 298.15;
    const char *meta = vsg_grid_metadata(g);
    const char *t = meta ? strstr(meta, "temperature_k = ") : NULL;
    if (t) temperature = atof(t + strlen("temperature_k = "));
    double kt = vsg_kt_kcal(temperature);
    double to_kcal = kt_units ? kt : 1.0;
    size_t n = vsg_molecule_atom_count(m);
    double *phi = calloc(n ? n : 1, sizeof *phi);
    vsg_probe_result r;
    st = phi ? vsg_grid_probe(g, m, phi, &r) : VSG_E_NOMEM;
    int rc = 0;
    if (st == VSG_OK) {
        FILE *cf = csv ? fopen(csv, "w") : NULL;
        if (csv && !cf) fprintf(stderr, "vsgrid: cannot write %s\n", csv), rc = VSG_EXIT_FAILURE;
        if (!quiet) printf("%5s %-4s %-4s %9s %9s %9s %8s %12s %12s\n", "atom", "name", "res", "x", "y", "z",
                           "q(e)", kt_units ? "phi(kT/e)" : "phi", "q.phi(kcal)");
        if (cf) fprintf(cf, "index,name,residue,x,y,z,charge_e,potential_%s,energy_kcal_mol\n", kt_units ? "kt_e" : "kcal_mol_e");
        for (size_t i = 0; i < n; i++) {
            vsg_atom_info ai;
            vsg_molecule_atom(m, i, &ai);
            if (!quiet)
                printf("%5zu %-4s %-4s %9.3f %9.3f %9.3f %8.4f %12.5f %12.5f\n", i + 1, ai.name, ai.residue_name, ai.x,
                       ai.y, ai.z, ai.charge, phi[i], ai.charge * phi[i] * to_kcal);
            if (cf) fprintf(cf, "%zu,%s,%s,%.4f,%.4f,%.4f,%.5f,%.7g,%.7g\n", i + 1, ai.name, ai.residue_name, ai.x, ai.y,
                            ai.z, ai.charge, phi[i], ai.charge * phi[i] * to_kcal);
        }
        if (cf && fclose(cf) != 0) fprintf(stderr, "vsgrid: error writing %s\n", csv), rc = VSG_EXIT_FAILURE;
        if (r.outside) fprintf(stderr, "vsgrid: warning: %zu of %zu atoms lie outside the grid and contribute 0\n", r.outside, r.atoms);
        if (kt_units)
            printf("interaction energy %.4f kT = %.4f kcal/mol (%zu atoms, %zu outside): %s\n", r.energy,
                   r.energy * kt, r.atoms, r.outside, VSG_ELEC_ONLY);
        else
            printf("interaction energy %.4f kcal/mol (%zu atoms, %zu outside): %s\n", r.energy, r.atoms, r.outside,
                   VSG_ELEC_ONLY);
        if (json) {
            vsg_json j;
            FILE *f = vsg_cli_json_open(json, &j, "probe");
            if (f) {
                vsg_json_str(&j, "grid", grid_path);
                vsg_json_str(&j, "ligand", lig_path);
                vsg_json_str(&j, "grid_units", shape.units);
                vsg_json_int(&j, "atoms", (long long)r.atoms);
                vsg_json_int(&j, "atoms_outside", (long long)r.outside);
                if (kt_units) {
                    vsg_json_num(&j, "temperature_k", temperature);
                    vsg_json_num(&j, "interaction_energy_kt", r.energy);
                }
                vsg_json_num(&j, "interaction_energy_kcal_mol", r.energy * to_kcal);
                vsg_cli_json_finish(&j, f, json, vsg_now() - t0);
            } else {
                rc = VSG_EXIT_FAILURE;
            }
        }
    } else {
        rc = vsg_cli_fail(st);
    }
    free(phi);
    vsg_molecule_free(m);
    vsg_grid_free(g);
    return rc;
}
