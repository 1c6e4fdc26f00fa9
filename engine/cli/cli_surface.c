/* cli_surface.c — `vsgrid surface RECEPTOR -o OUT.ply`: the electrostatic potential on the
 * molecular surface (ALPB, exact or HCP), as a coloured PLY mesh, CSV tables, a PNG picture
 * and a JSON summary. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/cli/cli.h"
#include "grids/base/vsgrid.h"

static const char usage[] =
    "usage: vsgrid surface RECEPTOR -o OUT.ply [options]\n"
    "\n"
    "Electrostatic potential on the molecular surface of RECEPTOR (PQR, PDBQT or MOL2 with\n"
    "charges and radii; a PDB or mmCIF file is prepared first as by `vsgrid prepare`, AMBER) with the analytic linearized Poisson-Boltzmann model (ALPB; Fenley,\n"
    "Gordon & Onufriev 2008), summed over all atom-vertex pairs (exact) or with hierarchical\n"
    "charge partitioning (HCP: atoms -> residues -> chains/strands -> complexes; paper 004).\n"
    "\n"
    "surface:\n"
    "  --probe R            solvent probe radius, Å (default 1.4; 0 = van der Waals surface)\n"
    "  --spacing H          lattice spacing of the built-in surface, Å (default 0.8): the mesh\n"
    "                       density (about 4.3/H² vertices per Å²: 6.7 at 0.8, twice MSMS density 3)\n"
    "  --vertices F.vert --faces F.face\n"
    "                       use an MSMS surface instead (what GEM reads; plain or .gz)\n"
    "  --max-memory SIZE    memory the surface builder may take (e.g. 8G)\n"
    "potential:\n"
    "  --mode exact|hcp     all pairs, or hierarchical charge partitioning (default hcp)\n"
    "  --thresholds R1,R2,R3  HCP distances for residues, chains, complexes, Å (default 10,70,150)\n"
    "  --groups FILE        HCP components from a file instead of the records: one line per\n"
    "                       atom, \"RESIDUE CHAIN COMPLEX\" labels; a run of equal labels is one\n"
    "                       component (default: residue number/name, chain ID or TER strand, MODEL)\n"
    "  --eps-in E --eps-out E  dielectric constants (default 1 and 80)\n"
    "  --salt C             1:1 salt, mol/L (default 0.15)\n"
    "  --ion-radius R       ion-exclusion layer, Å (default 2.0)\n"
    "  --projection P       evaluate at vertex + P·normal, Å (default 0)\n"
    "  --electrostatic-size A  ALPB's A, Å (default: estimated from the atoms, GEM's A_det)\n"
    "  --temperature T      K (default 298.15), for kT/e\n"
    "  --gem-compat         GEM's conventions exactly: constant 332, κ = 0.316√salt, region\n"
    "                       rule r > A (GEM's inside formula on the surface), A_det; GEM prints\n"
    "                       kcal/mol/e (the CSV has both units)\n"
    "  --device auto|cpu|gpu|N  GPU (float) or the CPU twin (double); auto: GPU when usable\n"
    "outputs:\n"
    "  -o OUT.ply           mesh with x y z nx ny nz, potential (kT/e) and colours per vertex\n"
    "  --csv FILE           per vertex, in vertex order: vertex,x,y,z,nx,ny,nz,atom,residue_name,\n"
    "                       residue_number,chain,potential_kT_e,potential_kcal_mol_e\n"
    "  --residues FILE      per residue: vertices, area (Å²), mean/min/max potential (kT/e)\n"
    "  --png FILE           picture of the coloured surface from six views with a colour bar\n"
    "  --range LO,HI        colour range, kT/e (default -5,5): red negative, white 0, blue positive\n"
    "  --json FILE          summary: sizes, A, region, κ, pairs, times, pairs per second\n"
    "  --quiet              no progress or summary on stderr/stdout\n"
    "\n"
    "Units: Å, e; potentials in kT/e and kcal/(mol·e). Exit codes: 0 ok, 2 usage, 3 bad input,\n"
    "4 memory limit, 5 GPU, 7 not in this build.\n";

/* An output that could not be written: exit 1 (other failure), not 3 (bad input). */
static int output_fail(vsg_status st)
{
    int rc = vsg_cli_fail(st);
    return st == VSG_E_IO ? VSG_EXIT_FAILURE : rc;
}

static int parse_num(const char *cmd, vsg_args *a, double *out, double lo)
{
    const char *v = vsg_arg_value(a, cmd);
    if (!v) return 0;
    if (!vsg_parse_number(v, out) || !(*out >= lo))
        return vsg_cli_usage_error(cmd, "%s: '%s' is not a number ≥ %g", a->name, v, lo), 0;
    return 1;
}

int vsg_cmd_surface(int argc, char **argv)
{
    const char *cmd = "surface";
    const char *rec = NULL, *out = NULL, *vert = NULL, *face = NULL, *csv = NULL, *res_csv = NULL, *png = NULL,
               *json = NULL, *groups_path = NULL;
    int quiet = 0;
    double range[2] = {-5.0, 5.0}, x;
    vsg_surface_options o;
    vsg_ses_options so;
    vsg_surface_options_default(&o);
    vsg_ses_options_default(&so);
    vsg_args a = {argc, 1, argv, NULL, NULL};
    for (; a.i < argc; a.i++) {
        const char *arg = argv[a.i], *v;
        if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) { fputs(usage, stdout); return 0; }
        if (vsg_arg_is(&a, "-o") || vsg_arg_is(&a, "--output")) { if (!(out = vsg_arg_value(&a, cmd))) return VSG_EXIT_USAGE; continue; }
        if (vsg_arg_is(&a, "--vertices")) { if (!(vert = vsg_arg_value(&a, cmd))) return VSG_EXIT_USAGE; continue; }
        if (vsg_arg_is(&a, "--faces")) { if (!(face = vsg_arg_value(&a, cmd))) return VSG_EXIT_USAGE; continue; }
        if (vsg_arg_is(&a, "--groups")) { if (!(groups_path = vsg_arg_value(&a, cmd))) return VSG_EXIT_USAGE; continue; }
        if (vsg_arg_is(&a, "--csv")) { if (!(csv = vsg_arg_value(&a, cmd))) return VSG_EXIT_USAGE; continue; }
        if (vsg_arg_is(&a, "--residues")) { if (!(res_csv = vsg_arg_value(&a, cmd))) return VSG_EXIT_USAGE; continue; }
        if (vsg_arg_is(&a, "--png")) { if (!(png = vsg_arg_value(&a, cmd))) return VSG_EXIT_USAGE; continue; }
        if (vsg_arg_is(&a, "--json")) { if (!(json = vsg_arg_value(&a, cmd))) return VSG_EXIT_USAGE; continue; }
        if (vsg_arg_is(&a, "--quiet")) { quiet = 1; continue; }
        if (vsg_arg_is(&a, "--gem-compat")) { o.alpb.gem_compat = 1; continue; }
        if (vsg_arg_is(&a, "--probe")) { if (!parse_num(cmd, &a, &so.probe, 0.0)) return VSG_EXIT_USAGE; continue; }
        if (vsg_arg_is(&a, "--spacing")) {
            if (!parse_num(cmd, &a, &so.spacing, 0.05)) return VSG_EXIT_USAGE;
            continue;
        }
        if (vsg_arg_is(&a, "--max-memory")) {
            if (!(v = vsg_arg_value(&a, cmd))) return VSG_EXIT_USAGE;
            if (!vsg_parse_size(v, &so.max_bytes)) return vsg_cli_usage_error(cmd, "--max-memory: '%s' is not a size such as 8G", v);
            continue;
        }
        if (vsg_arg_is(&a, "--mode")) {
            if (!(v = vsg_arg_value(&a, cmd))) return VSG_EXIT_USAGE;
            if (!strcmp(v, "exact")) o.mode = VSG_SURFACE_EXACT;
            else if (!strcmp(v, "hcp")) o.mode = VSG_SURFACE_HCP;
            else return vsg_cli_usage_error(cmd, "--mode: '%s' is not exact or hcp", v);
            continue;
        }
        if (vsg_arg_is(&a, "--thresholds")) {
            if (!(v = vsg_arg_value(&a, cmd))) return VSG_EXIT_USAGE;
            if (!vsg_parse_list(v, o.thresholds, 3) || !(o.thresholds[0] > 0) || !(o.thresholds[1] > 0) || !(o.thresholds[2] > 0))
                return vsg_cli_usage_error(cmd, "--thresholds: '%s' is not three positive distances R1,R2,R3", v);
            continue;
        }
        if (vsg_arg_is(&a, "--range")) {
            if (!(v = vsg_arg_value(&a, cmd))) return VSG_EXIT_USAGE;
            if (!vsg_parse_list(v, range, 2) || !(range[0] < range[1]))
                return vsg_cli_usage_error(cmd, "--range: '%s' is not LO,HI with LO < HI", v);
            continue;
        }
        if (vsg_arg_is(&a, "--eps-in")) { if (!parse_num(cmd, &a, &o.alpb.eps_in, 1e-9)) return VSG_EXIT_USAGE; continue; }
        if (vsg_arg_is(&a, "--eps-out")) { if (!parse_num(cmd, &a, &o.alpb.eps_out, 1e-9)) return VSG_EXIT_USAGE; continue; }
        if (vsg_arg_is(&a, "--salt")) { if (!parse_num(cmd, &a, &o.alpb.salt, 0.0)) return VSG_EXIT_USAGE; continue; }
        if (vsg_arg_is(&a, "--ion-radius")) { if (!parse_num(cmd, &a, &o.alpb.ion_radius, 1e-9)) return VSG_EXIT_USAGE; continue; }
        if (vsg_arg_is(&a, "--projection")) { if (!parse_num(cmd, &a, &o.alpb.projection, -1e9)) return VSG_EXIT_USAGE; continue; }
        if (vsg_arg_is(&a, "--electrostatic-size")) { if (!parse_num(cmd, &a, &o.alpb.A, 1e-9)) return VSG_EXIT_USAGE; continue; }
        if (vsg_arg_is(&a, "--temperature")) { if (!parse_num(cmd, &a, &o.alpb.temperature, 1e-9)) return VSG_EXIT_USAGE; continue; }
        if (vsg_arg_is(&a, "--device")) {
            if (!(v = vsg_arg_value(&a, cmd))) return VSG_EXIT_USAGE;
            if (!strcmp(v, "auto")) o.device = VSG_DEVICE_AUTO;
            else if (!strcmp(v, "cpu")) o.device = VSG_DEVICE_CPU;
            else if (!strcmp(v, "gpu")) o.device = VSG_DEVICE_GPU;
            else if (vsg_parse_number(v, &x) && x >= 0 && x == floor(x) && x < 1024) o.device = VSG_DEVICE_GPU, o.gpu_index = (int)x;
            else return vsg_cli_usage_error(cmd, "--device: '%s' is not auto, cpu, gpu or a GPU number", v);
            continue;
        }
        if (arg[0] == '-' && arg[1]) return vsg_cli_usage_error(cmd, "unknown option %s", arg);
        if (!rec) rec = arg;
        else return vsg_cli_usage_error(cmd, "unexpected argument %s", arg);
    }
    if (!rec) return vsg_cli_usage_error(cmd, "need a RECEPTOR");
    if (!out && !csv && !png && !res_csv && !json) return vsg_cli_usage_error(cmd, "need -o OUT.ply (or --csv, --residues, --png, --json)");
    if (!vert != !face) return vsg_cli_usage_error(cmd, "--vertices and --faces go together (an MSMS pair)");
    int talk = !quiet && isatty(2);

    double t0 = vsg_now(), t_read, t_mesh, t_pot, t_write;
    vsg_molecule *m = NULL;
    vsg_mesh *mesh = NULL;
    vsg_hcp *h = NULL;
    double *phi = NULL;
    float *phi_kt = NULL;
    vsg_surface_report r;
    int rc = 0;
    vsg_status st = vsg_cli_read_receptor(rec, VSG_PREP_PQR, quiet, &m); /* a PDB: prepared into a PQR */
    size_t natoms = st == VSG_OK ? vsg_molecule_atom_count(m) : 0;
    t_read = vsg_now() - t0;
    if (st == VSG_OK && talk) fprintf(stderr, "vsgrid surface: %zu atoms read; building the surface...\n", natoms);
    if (st == VSG_OK) st = vert ? vsg_msms_read(vert, face, &mesh) : vsg_ses_mesh(m, &so, &mesh);
    if (st == VSG_OK && vert) {
        for (size_t v = 0; v < mesh->nvert; v++)
            if (mesh->atom[v] >= (int32_t)natoms) {
                st = vsg_fail(VSG_E_FORMAT, "%s: vertex %zu names atom %d but %s has %zu atoms", vert, v + 1,
                              mesh->atom[v] + 1, rec, natoms);
                break;
            }
    }
    t_mesh = vsg_now() - t0 - t_read;
    if (st == VSG_OK) {
        uint32_t *groups = NULL;
        if (groups_path) st = vsg_hcp_read_groups(groups_path, natoms, &groups);
        if (st == VSG_OK) st = vsg_hcp_build_grouped(m, groups, &h);
        free(groups);
    }
    if (st == VSG_OK && !(phi = malloc((mesh->nvert ? mesh->nvert : 1) * sizeof *phi))) st = VSG_E_NOMEM;
    if (st == VSG_OK && talk)
        fprintf(stderr, "vsgrid surface: %zu vertices, %zu faces; %s potential...\n", mesh->nvert, mesh->nface,
                o.mode == VSG_SURFACE_HCP ? "HCP" : "exact");
    if (st == VSG_OK) st = vsg_surface_potential(m, h, mesh, &o, phi, &r);
    /* said after the call, which knows where it ran (one GPU query, the pipeline's) */
    if (st == VSG_OK && o.device == VSG_DEVICE_AUTO && !quiet && !r.on_gpu)
        fprintf(stderr, "vsgrid surface: no usable GPU; the CPU twin computed the potential\n");
    t_pot = vsg_now() - t0 - t_read - t_mesh;
    if (st != VSG_OK) {
        rc = vsg_cli_fail(st);
        goto done;
    }
    double kt = r.k.kt_kcal, lo = INFINITY, hi = -INFINITY;
    phi_kt = malloc((mesh->nvert ? mesh->nvert : 1) * sizeof *phi_kt);
    if (!phi_kt) {
        rc = vsg_cli_fail(VSG_E_NOMEM);
        goto done;
    }
    for (size_t v = 0; v < mesh->nvert; v++) {
        phi_kt[v] = (float)(phi[v] / kt);
        lo = fmin(lo, phi[v] / kt), hi = fmax(hi, phi[v] / kt);
    }
    double t1 = vsg_now();
    if (out && (st = vsg_ply_write(out, mesh, phi_kt, range[0], range[1], "kT/e")) != VSG_OK) rc = output_fail(st);
    if (!rc && csv && (st = vsg_surface_write_vertices(csv, m, mesh, phi, kt)) != VSG_OK) rc = output_fail(st);
    if (!rc && res_csv && (st = vsg_surface_write_residues(res_csv, m, h, mesh, phi, kt)) != VSG_OK) rc = output_fail(st);
    if (!rc && png && (st = vsg_render_mesh_png(png, mesh, phi_kt, range[0], range[1], "kT/e", 400)) != VSG_OK)
        rc = output_fail(st);
    t_write = vsg_now() - t1;
    double rate = r.kernel_seconds > 0 ? r.pairs / r.kernel_seconds : 0;
    if (!quiet)
        printf("surface potential: %zu atoms, %zu vertices, %s on %s: A = %.3f Å, region %d, κ = %.4f/Å; "
               "%.4g pairs in %.4f s (%.3g pairs/s); φ from %.3f to %.3f kT/e\n",
               natoms, mesh->nvert, o.mode == VSG_SURFACE_HCP ? "HCP" : "exact", r.device_name, r.k.A, r.k.region,
               r.k.kappa, r.pairs, r.kernel_seconds, rate, lo, hi);
    if (json) {
        vsg_json j;
        FILE *f = vsg_cli_json_open(json, &j, "surface");
        if (f) {
            vsg_json_str(&j, "receptor", rec);
            vsg_json_int(&j, "atoms", (long long)natoms);
            vsg_json_int(&j, "residues", (long long)r.nres);
            vsg_json_int(&j, "chains", (long long)r.nchain);
            vsg_json_int(&j, "complexes", (long long)r.ncplx);
            vsg_json_str(&j, "surface", vert ? "msms" : so.probe > 0 ? "ses" : "vdw");
            if (!vert) {
                vsg_json_num(&j, "probe_radius", so.probe);
                vsg_json_num(&j, "spacing", so.spacing);
            }
            vsg_json_int(&j, "vertices", (long long)mesh->nvert);
            vsg_json_int(&j, "faces", (long long)mesh->nface);
            vsg_json_num(&j, "surface_area_A2", vsg_mesh_area(mesh, NULL));
            vsg_json_str(&j, "mode", o.mode == VSG_SURFACE_HCP ? "hcp" : "exact");
            if (o.mode == VSG_SURFACE_HCP) {
                vsg_json_array(&j, "thresholds_A");
                for (int i = 0; i < 3; i++) vsg_json_num(&j, NULL, o.thresholds[i]);
                vsg_json_end(&j, ']');
            }
            vsg_json_bool(&j, "gem_compat", o.alpb.gem_compat);
            vsg_json_num(&j, "eps_in", o.alpb.eps_in);
            vsg_json_num(&j, "eps_out", o.alpb.eps_out);
            vsg_json_num(&j, "salt_molar", o.alpb.salt);
            vsg_json_num(&j, "kappa_per_A", r.k.kappa);
            vsg_json_num(&j, "electrostatic_size_A", r.k.A);
            vsg_json_int(&j, "alpb_region", r.k.region);
            vsg_json_num(&j, "coulomb_constant", r.k.coulomb);
            vsg_json_str(&j, "device", r.device_name);
            vsg_json_str(&j, "precision", r.on_gpu ? "float" : "double");
            vsg_json_num(&j, "pairs", r.pairs);
            vsg_json_num(&j, "potential_seconds", r.kernel_seconds);
            vsg_json_num(&j, "pairs_per_second", rate);
            if (r.on_gpu) vsg_json_num(&j, "device_bytes", r.device_bytes);
            vsg_json_num(&j, "potential_min_kT_e", lo);
            vsg_json_num(&j, "potential_max_kT_e", hi);
            vsg_json_object(&j, "seconds");
            vsg_json_num(&j, "read", t_read);
            vsg_json_num(&j, "surface", t_mesh);
            vsg_json_num(&j, "potential", t_pot);
            vsg_json_num(&j, "write", t_write);
            vsg_json_end(&j, '}');
            vsg_cli_json_finish(&j, f, json, vsg_now() - t0);
        } else if (!rc) {
            rc = VSG_EXIT_FAILURE;
        }
    }
done:
    free(phi);
    free(phi_kt);
    vsg_hcp_free(h);
    vsg_mesh_free(mesh);
    vsg_molecule_free(m);
    return rc;
}
