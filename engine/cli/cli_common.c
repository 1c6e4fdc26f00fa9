/* cli_common.c — option parsing, exit codes and JSON reports shared by the subcommands. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/cli/cli.h"
#include "grids/base/vsgrid.h"

int vsg_cli_exit_code(vsg_status s)
{
    switch (s) {
    case VSG_OK: return VSG_EXIT_OK;
    case VSG_E_ARG: return VSG_EXIT_USAGE;
    case VSG_E_IO: case VSG_E_FORMAT: case VSG_E_DATA: return VSG_EXIT_INPUT;
    case VSG_E_NOMEM: case VSG_E_LIMIT: return VSG_EXIT_LIMIT;
    case VSG_E_DEVICE: return VSG_EXIT_DEVICE;
    case VSG_E_CONVERGE: return VSG_EXIT_CONVERGE;
    case VSG_E_UNSUPPORTED: return VSG_EXIT_UNSUPPORTED;
    case VSG_E_STOPPED: return VSG_EXIT_INTERRUPTED; /* 128 + SIGINT, as a shell reports a Ctrl-C */
    }
    return VSG_EXIT_FAILURE;
}

int vsg_cli_fail(vsg_status s)
{
    const char *msg = vsg_last_error();
    fprintf(stderr, "vsgrid: %s\n", msg && *msg ? msg : vsg_status_text(s));
    return vsg_cli_exit_code(s);
}

int vsg_cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "vsgrid %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n(see 'vsgrid %s --help')\n", cmd);
    return VSG_EXIT_USAGE;
}

int vsg_arg_is(vsg_args *a, const char *name)
{
    const char *arg = a->argv[a->i];
    size_t n = strlen(name);
    if (strncmp(arg, name, n) != 0) return 0;
    if (arg[n] == '\0') { a->name = name; a->inline_value = NULL; return 1; }
    if (arg[n] == '=') { a->name = name; a->inline_value = arg + n + 1; return 1; }
    return 0;
}

const char *vsg_arg_value(vsg_args *a, const char *cmd)
{
    if (a->inline_value) return a->inline_value;
    if (a->i + 1 >= a->argc) {
        vsg_cli_usage_error(cmd, "option %s needs a value", a->name);
        return NULL;
    }
    return a->argv[++a->i];
}

int vsg_parse_number(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end != '\0' || errno == ERANGE || !isfinite(v)) return 0;
    *out = v;
    return 1;
}

int vsg_parse_size(const char *s, double *bytes)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || !(v > 0.0)) return 0;
    double mult = 1.0;
    switch (*end) {
    case '\0': break;
    case 'k': case 'K': mult = 1024.0; end++; break;
    case 'm': case 'M': mult = 1048576.0; end++; break;
    case 'g': case 'G': mult = 1073741824.0; end++; break;
    case 't': case 'T': mult = 1099511627776.0; end++; break;
    default: return 0;
    }
    if (*end == 'B' || *end == 'b') end++;
    if (*end != '\0') return 0;
    *bytes = v * mult;
    return 1;
}

int vsg_parse_list(const char *s, double *out, int n)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s", s);
    int k = 0;
    char *save = NULL;
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (k >= n || !vsg_parse_number(tok, &out[k])) return 0;
        k++;
    }
    return k == n;
}

const char vsg_cli_pb_help[] =
    "Grid box (lengths in Å):\n"
    "  --spacing H             grid spacing in Å (default 0.5)\n"
    "  --fill F                box around the receptor: the receptor (with radii) spans F of a\n"
    "                          cubic box's edge, as DelPhi's perfil (default 0.7)\n"
    "  --box CX,CY,CZ,SX,SY,SZ explicit box: centre and edge lengths in Å; nodes per axis =\n"
    "                          length/spacing + 1 (APBS), rounded up to an odd count\n"
    "  --around LIGAND         box around a ligand's atoms plus --padding on each side; PQR,\n"
    "                          PDBQT, MOL2 (every atom), or SDF, PDB (a crystal ligand; the\n"
    "                          first record), .gz too\n"
    "  --padding P             Å around the ligand for --around (default 8)\n"
    "Physics:\n"
    "  --eps-in E              solute dielectric (default 2)\n"
    "  --eps-out E             solvent dielectric (default 78.54)\n"
    "  --temp T                temperature in K (default 298.15)\n"
    "  --salt MOLAR            1:1 salt, ions of radius --ion-radius (default none)\n"
    "  --ion-radius R          ion-exclusion radius in Å for every species (default 2.0)\n"
    "  --ion Q,MOLAR,RADIUS    an ion species (charge e, mol/L, exclusion radius Å); repeat\n"
    "                          for each species; the set must be electroneutral\n"
    "  --surface S             dielectric boundary: vdw | ses (solvent-excluded, default) |\n"
    "                          smooth (ses sampled along each edge, harmonic mean)\n"
    "  --probe R               solvent probe radius in Å (default 1.4)\n"
    "  --charge-spline S       spl0 (trilinear, 8 nodes, default) | spl2 (cubic B-spline)\n"
    "  --bc B                  box-face potential: zero | sdh (one Debye-Hückel sphere) |\n"
    "                          mdh (sum over all charges, default) | dipole | focus (automatic\n"
    "                          focusing from a coarse box) | focus:COARSE.vsg (from a coarser grid)\n"
    "  --nonlinear             nonlinear PB (sinh ion term, introduced gradually)\n"
    "Solver:\n"
    "  --tol T                 stop when max |change| per check <= T kT/e (default 1e-6;\n"
    "                          in float the float resolution of the largest potential,\n"
    "                          at least 1e-4)\n"
    "  --max-iter N            iteration cap per focusing level (default 20000)\n"
    "  --check-every N         test convergence every N iterations (default 10)\n"
    "  --precision P           float | double (default: float on the GPU, double on the CPU)\n"
    "  --device D              auto (GPU if present, default) | cpu | gpu | N (GPU number)\n"
    "  --threads N             CPU threads (default: all)\n"
    "  --max-memory SIZE       refuse grids needing more host memory (default 8G)\n"
    "  --max-gpu-memory SIZE   cap on GPU memory (default: all free memory)\n"
    "  --quiet                 no progress line\n";

/* --ion-radius applies to every species, wherever it stands on the command line. */
static double ion_radius_override = -1.0;

void vsg_cli_pb_finish(vsg_pb_params *p)
{
    if (ion_radius_override >= 0.0)
        for (int i = 0; i < p->n_ions; i++) p->ions[i].radius = ion_radius_override;
}

int vsg_cli_pb_option(vsg_args *a, const char *cmd, vsg_pb_params *p, const char **around_path, int *quiet)
{
    const char *v;
    double x, l[6];
#define NUMBER_OPTION(opt, field, cond, what)                                            \
    if (vsg_arg_is(a, opt)) {                                                            \
        if (!(v = vsg_arg_value(a, cmd))) return -1;                                     \
        if (!vsg_parse_number(v, &x) || !(cond)) {                                       \
            vsg_cli_usage_error(cmd, "%s: '%s' is not %s", opt, v, what);                \
            return -1;                                                                   \
        }                                                                                \
        field = x;                                                                       \
        return 1;                                                                        \
    }
    NUMBER_OPTION("--spacing", p->spacing, x > 0.0, "a spacing > 0")
    NUMBER_OPTION("--padding", p->padding, x >= 0.0, "a padding >= 0")
    NUMBER_OPTION("--eps-in", p->eps_in, x >= 1.0, "a dielectric >= 1")
    NUMBER_OPTION("--eps-out", p->eps_out, x >= 1.0, "a dielectric >= 1")
    NUMBER_OPTION("--temp", p->temperature, x > 0.0, "a temperature > 0 K")
    NUMBER_OPTION("--probe", p->probe, x >= 0.0, "a radius >= 0")
    NUMBER_OPTION("--tol", p->tol, x > 0.0, "a tolerance > 0")
#undef NUMBER_OPTION
    if (vsg_arg_is(a, "--fill")) {
        if (!(v = vsg_arg_value(a, cmd))) return -1;
        if (!vsg_parse_number(v, &x) || !(x > 0.0 && x <= 1.0))
            return vsg_cli_usage_error(cmd, "--fill: '%s' is not in (0, 1]", v), -1;
        p->fill = x;
        p->box_mode = VSG_BOX_FILL;
        return 1;
    }
    if (vsg_arg_is(a, "--box")) {
        if (!(v = vsg_arg_value(a, cmd))) return -1;
        if (!vsg_parse_list(v, l, 6) || !(l[3] > 0 && l[4] > 0 && l[5] > 0))
            return vsg_cli_usage_error(cmd, "--box: expected CX,CY,CZ,SX,SY,SZ with edge lengths > 0, got '%s'", v), -1;
        memcpy(p->box_center, l, 3 * sizeof(double));
        memcpy(p->box_size, l + 3, 3 * sizeof(double));
        p->box_mode = VSG_BOX_EXPLICIT;
        return 1;
    }
    if (vsg_arg_is(a, "--around")) {
        if (!(v = vsg_arg_value(a, cmd))) return -1;
        *around_path = v;
        p->box_mode = VSG_BOX_AROUND;
        return 1;
    }
    if (vsg_arg_is(a, "--salt")) {
        if (!(v = vsg_arg_value(a, cmd))) return -1;
        if (!vsg_parse_number(v, &x) || x < 0.0) return vsg_cli_usage_error(cmd, "--salt: '%s' is not a concentration >= 0", v), -1;
        if (p->n_ions + 2 > VSG_MAX_IONS) return vsg_cli_usage_error(cmd, "at most %d ion species", VSG_MAX_IONS), -1;
        p->ions[p->n_ions++] = (vsg_ion){+1.0, x, 2.0};
        p->ions[p->n_ions++] = (vsg_ion){-1.0, x, 2.0};
        return 1;
    }
    if (vsg_arg_is(a, "--ion-radius")) {
        if (!(v = vsg_arg_value(a, cmd))) return -1;
        if (!vsg_parse_number(v, &x) || x < 0.0) return vsg_cli_usage_error(cmd, "--ion-radius: '%s' is not a radius >= 0", v), -1;
        ion_radius_override = x;
        return 1;
    }
    if (vsg_arg_is(a, "--ion")) {
        if (!(v = vsg_arg_value(a, cmd))) return -1;
        if (!vsg_parse_list(v, l, 3) || l[0] == 0.0 || l[1] < 0.0 || l[2] < 0.0)
            return vsg_cli_usage_error(cmd, "--ion: expected CHARGE,MOLAR,RADIUS (charge != 0), got '%s'", v), -1;
        if (p->n_ions >= VSG_MAX_IONS) return vsg_cli_usage_error(cmd, "at most %d ion species", VSG_MAX_IONS), -1;
        p->ions[p->n_ions++] = (vsg_ion){l[0], l[1], l[2]};
        return 1;
    }
    if (vsg_arg_is(a, "--surface")) {
        if (!(v = vsg_arg_value(a, cmd))) return -1;
        if (!strcmp(v, "vdw")) p->surface = VSG_SURFACE_VDW;
        else if (!strcmp(v, "ses")) p->surface = VSG_SURFACE_SES;
        else if (!strcmp(v, "smooth")) p->surface = VSG_SURFACE_SMOOTH;
        else return vsg_cli_usage_error(cmd, "--surface: '%s' is not vdw, ses or smooth", v), -1;
        return 1;
    }
    if (vsg_arg_is(a, "--charge-spline")) {
        if (!(v = vsg_arg_value(a, cmd))) return -1;
        if (!strcmp(v, "spl0")) p->spline = VSG_SPLINE_SPL0;
        else if (!strcmp(v, "spl2")) p->spline = VSG_SPLINE_SPL2;
        else return vsg_cli_usage_error(cmd, "--charge-spline: '%s' is not spl0 or spl2", v), -1;
        return 1;
    }
    if (vsg_arg_is(a, "--bc")) {
        if (!(v = vsg_arg_value(a, cmd))) return -1;
        if (!strcmp(v, "zero")) p->bc = VSG_BC_ZERO;
        else if (!strcmp(v, "sdh")) p->bc = VSG_BC_SDH;
        else if (!strcmp(v, "mdh") || !strcmp(v, "coulomb")) p->bc = VSG_BC_MDH;
        else if (!strcmp(v, "dipole")) p->bc = VSG_BC_DIPOLE;
        else if (!strcmp(v, "focus")) p->bc = VSG_BC_FOCUS;
        else if (!strncmp(v, "focus:", 6) && v[6]) { p->bc = VSG_BC_FOCUS_FILE; p->focus_file = v + 6; }
        else return vsg_cli_usage_error(cmd, "--bc: '%s' is not zero, sdh, mdh, dipole, focus or focus:FILE", v), -1;
        return 1;
    }
    if (vsg_arg_is(a, "--nonlinear")) { p->nonlinear = 1; return 1; }
    if (vsg_arg_is(a, "--quiet")) { *quiet = 1; return 1; }
    if (vsg_arg_is(a, "--max-iter") || vsg_arg_is(a, "--check-every") || vsg_arg_is(a, "--threads")) {
        const char *opt = a->name;
        if (!(v = vsg_arg_value(a, cmd))) return -1;
        if (!vsg_parse_number(v, &x) || x < 1 || x != floor(x) || x > 1e9)
            return vsg_cli_usage_error(cmd, "%s: '%s' is not a positive integer", opt, v), -1;
        if (!strcmp(opt, "--max-iter")) p->max_iter = (int)x;
        else if (!strcmp(opt, "--check-every")) p->check_every = (int)x;
        else p->threads = (int)x;
        return 1;
    }
    if (vsg_arg_is(a, "--precision")) {
        if (!(v = vsg_arg_value(a, cmd))) return -1;
        if (!strcmp(v, "double")) p->precision = VSG_PRECISION_DOUBLE;
        else if (!strcmp(v, "float")) p->precision = VSG_PRECISION_FLOAT;
        else return vsg_cli_usage_error(cmd, "--precision: '%s' is not float or double", v), -1;
        return 1;
    }
    if (vsg_arg_is(a, "--device")) {
        if (!(v = vsg_arg_value(a, cmd))) return -1;
        if (!strcmp(v, "auto")) p->device = VSG_DEVICE_AUTO;
        else if (!strcmp(v, "cpu")) p->device = VSG_DEVICE_CPU;
        else if (!strcmp(v, "gpu")) p->device = VSG_DEVICE_GPU;
        else if (vsg_parse_number(v, &x) && x >= 0 && x == floor(x) && x < 1024) { p->device = VSG_DEVICE_GPU; p->gpu_index = (int)x; }
        else return vsg_cli_usage_error(cmd, "--device: '%s' is not auto, cpu, gpu or a GPU number", v), -1;
        return 1;
    }
    if (vsg_arg_is(a, "--max-memory") || vsg_arg_is(a, "--max-gpu-memory")) {
        const char *opt = a->name;
        if (!(v = vsg_arg_value(a, cmd))) return -1;
        if (!vsg_parse_size(v, &x)) return vsg_cli_usage_error(cmd, "%s: '%s' is not a size such as 8G or 512M", opt, v), -1;
        if (!strcmp(opt, "--max-memory")) p->max_memory = x; else p->max_gpu_memory = x;
        return 1;
    }
    return 0;
}

FILE *vsg_cli_json_open(const char *path, vsg_json *j, const char *command)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "vsgrid: cannot write %s\n", path);
        return NULL;
    }
    vsg_json_open(j, f);
    vsg_json_str(j, "command", command);
    vsg_json_str(j, "vsgrid_version", vsg_version());
    return f;
}

void vsg_cli_json_finish(vsg_json *j, FILE *f, const char *path, double seconds)
{
    vsg_json_int(j, "warnings", (long long)vsg_warning_count());
    vsg_json_num(j, "seconds", seconds);
    vsg_json_close(j);
    if (fclose(f) != 0) fprintf(stderr, "vsgrid: error writing %s\n", path);
}

void vsg_cli_json_pb(vsg_json *j, const vsg_pb_params *p, const vsg_pb_report *r)
{
    static const char *surf[] = {"vdw", "ses", "smooth"}, *spl[] = {"spl0", "spl2"},
                      *bcs[] = {"zero", "sdh", "mdh", "dipole", "focus", "focus-file"};
    vsg_json_object(j, "parameters");
    vsg_json_num(j, "spacing_a", p->spacing);
    vsg_json_num(j, "eps_in", p->eps_in);
    vsg_json_num(j, "eps_out", p->eps_out);
    vsg_json_num(j, "temperature_k", p->temperature);
    vsg_json_array(j, "ions");
    for (int i = 0; i < p->n_ions; i++) {
        vsg_json_object(j, NULL);
        vsg_json_num(j, "charge_e", p->ions[i].charge);
        vsg_json_num(j, "concentration_molar", p->ions[i].molar);
        vsg_json_num(j, "radius_a", p->ions[i].radius);
        vsg_json_end(j, '}');
    }
    vsg_json_end(j, ']');
    vsg_json_str(j, "surface", surf[p->surface]);
    vsg_json_num(j, "probe_a", p->probe);
    vsg_json_str(j, "charge_spline", spl[p->spline]);
    vsg_json_str(j, "bc", bcs[p->bc]);
    if (p->focus_file) vsg_json_str(j, "focus_file", p->focus_file);
    vsg_json_bool(j, "nonlinear", p->nonlinear);
    vsg_json_int(j, "max_iter", p->max_iter);
    vsg_json_int(j, "check_every", p->check_every);
    vsg_json_end(j, '}');
    vsg_json_object(j, "grid");
    vsg_json_array(j, "nodes");
    for (int d = 0; d < 3; d++) vsg_json_int(j, NULL, r->n[d]);
    vsg_json_end(j, ']');
    vsg_json_array(j, "origin_a");
    for (int d = 0; d < 3; d++) vsg_json_num(j, NULL, r->origin[d]);
    vsg_json_end(j, ']');
    vsg_json_num(j, "spacing_a", r->spacing);
    vsg_json_int(j, "levels", r->levels);
    vsg_json_end(j, '}');
    vsg_json_object(j, "solver");
    vsg_json_str(j, "device", r->device);
    vsg_json_str(j, "precision", r->precision);
    vsg_json_int(j, "iterations", r->iterations);
    vsg_json_int(j, "total_iterations", r->total_iterations);
    vsg_json_bool(j, "converged", r->converged);
    vsg_json_num(j, "final_change_kt_e", r->final_change);
    vsg_json_num(j, "tol_kt_e", r->tol);
    vsg_json_num(j, "omega", r->omega);
    vsg_json_num(j, "seconds", r->seconds);
    vsg_json_num(j, "time_to_solution_seconds", r->seconds);  /* maps, boundary and all levels' solves */
    vsg_json_num(j, "device_start_seconds", r->device_start_seconds); /* of it: the CUDA runtime and context */
    vsg_json_num(j, "setup_seconds", r->setup_seconds);
    vsg_json_num(j, "seconds_per_iteration", r->seconds_per_iteration);
    vsg_json_num(j, "bytes_per_node", r->bytes_per_node);
    vsg_json_num(j, "peak_bytes", r->peak_bytes);
    vsg_json_int(j, "boundary_nodes", r->boundary_nodes);
    vsg_json_int(j, "charged_nodes", r->charged_nodes);
    vsg_json_int(j, "pattern_nodes", r->pattern_nodes);
    vsg_json_num(j, "debye_length_a", r->debye_length);
    vsg_json_end(j, '}');
    vsg_json_num(j, "total_energy_kt", r->energy_kt);
    vsg_json_num(j, "total_energy_kcal_mol", r->energy_kt * r->kt_kcal);
    vsg_json_num(j, "charge_in_box_e", r->charge_in_box);
    vsg_json_num(j, "charge_outside_e", r->charge_outside);
}

const char *vsg_cli_dielectric_name(const vsg_coulomb_kernel *k, char *buf, size_t len)
{
    if (k->model == VSG_DIEL_MEHLER_SOLMAJER) return "mehler-solmajer";
    if (k->model == VSG_DIEL_DISTANCE_4R) return "4r";
    snprintf(buf, len, "%g", k->eps);
    return buf;
}

void vsg_cli_warn_pb_only(const vsg_pb_params *p, const vsg_pb_params *d)
{
    if (p->eps_in != d->eps_in || p->eps_out != d->eps_out || p->n_ions || p->surface != d->surface ||
        p->probe != d->probe || p->spline != d->spline || p->bc != d->bc || p->nonlinear || p->tol != d->tol ||
        p->max_iter != d->max_iter || p->check_every != d->check_every || p->temperature != d->temperature ||
        p->precision != d->precision)
        vsg_warn("PB options (--eps-*, --salt, --ion, --surface, --probe, --bc, --tol, ...) do not apply to --method coulomb");
}

size_t vsg_cli_atoms_near_box(const vsg_molecule *m, const double lo[3], const double hi[3], double reach)
{
    size_t n = 0, na = vsg_molecule_atom_count(m);
    vsg_atom_info a;
    for (size_t i = 0; i < na; i++) {
        if (vsg_molecule_atom(m, i, &a) != VSG_OK) continue;
        const double x[3] = {a.x, a.y, a.z};
        double d2 = 0.0;
        for (int k = 0; k < 3; k++) {
            double d = x[k] < lo[k] ? lo[k] - x[k] : x[k] > hi[k] ? x[k] - hi[k] : 0.0;
            d2 += d * d;
        }
        if (d2 <= reach * reach) n++;
    }
    return n;
}
