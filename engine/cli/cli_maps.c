/* cli_maps.c — `vsgrid maps RECEPTOR.pdbqt --scoring vina|vinardo ... -o PREFIX`: AutoDock
 * Vina / Vinardo affinity maps, one per ligand XS type, written as `vina --write_maps` does. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/cli/cli.h"

static const char usage[] =
    "usage: vsgrid maps RECEPTOR.pdbqt [--scoring vina|vinardo]\n"
    "                   (--box CX,CY,CZ,SX,SY,SZ | --around LIGAND [--padding 4])\n"
    "                   [--spacing 0.375] [--types C,N,OA,...] [--analytic]\n"
    "                   [--device auto|cpu|gpu|N] [--gpu-memory MB] [--quiet] -o PREFIX\n"
    "\n"
    "AutoDock Vina 1.2 affinity maps of the receptor: for each ligand XS atom type, the sum of\n"
    "Vina's (or Vinardo's) weighted intermolecular terms over receptor atoms within 8 A, in\n"
    "kcal/mol, written as PREFIX.<type>.map the way `vina --write_maps PREFIX` writes them, so\n"
    "`vina --maps PREFIX --ligand LIG.pdbqt` docks with them.\n"
    "  RECEPTOR       PDBQT (AutoDock types: XS types are assigned as Vina 1.2 does)\n"
    "  --scoring S    vina (default) or vinardo\n"
    "  --box CX,CY,CZ,SX,SY,SZ   box center and size (A), as vina's --center_x.. --size_x..\n"
    "  --around LIG   box around a ligand, as vina's --autobox: centered on the mean of its\n"
    "                 atoms, each side ceil(2*(largest distance from the center + padding))\n"
    "  --padding A    with --around (default 4, vina's --autobox_add)\n"
    "  --spacing A    grid spacing (default 0.375); voxels per side ceil(size/spacing), made even\n"
    "                 as vina's --force_even_voxels does (the .map format needs odd node counts)\n"
    "  --types LIST   ligand types, comma separated: XS names (C_H,C_P,N_P,N_D,N_A,N_DA,O_P,\n"
    "                 O_D,O_A,O_DA,S_P,P_P,F_H,Cl_H,Br_H,I_H,Si,At,Met_D) or AutoDock types (C and\n"
    "                 A give C_H and C_P; N: N_P,N_D; NA: N_A,N_DA; O: O_P,O_D; OA: O_A,O_DA;\n"
    "                 H and HD: no map). Default: all 19 XS types\n"
    "  --analytic     the terms at the exact distance instead of Vina's r^2 table (not what\n"
    "                 vina computes: ~0.01 kcal/mol apart, ~2% where receptor atoms clash)\n"
    "  --device D     auto (default): the GPU when one is usable, else the CPU twin; cpu: the\n"
    "                 CPU twin (double, OpenMP); gpu or N: GPU N (float sums; within\n"
    "                 max(1e-4 relative, 1e-5 kcal/mol) of the CPU twin). A GPU that fails\n"
    "                 falls back to the CPU twin with a warning\n"
    "  --gpu-memory MB  most GPU memory to use (default: the free memory; big boxes go in slabs)\n"
    "  -o PREFIX      output prefix (directory + name), as vina's --write_maps\n"
    "  --quiet        no summary line\n"
    "Exit codes: 0 ok, 2 usage, 3 bad input (e.g. a type with no XS equivalent), 1 other.\n";

static int parse_types(const char *s, vsg_xs_type *out, int *n)
{
    char buf[1024];
    if (strlen(s) >= sizeof buf) return vsg_cli_usage_error("maps", "--types: list too long");
    strcpy(buf, s);
    int seen[VSG_XS_COUNT] = {0};
    *n = 0;
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        vsg_xs_type t[2];
        int k;
        if (vsg_xs_types_from_name(tok, t, &k) != VSG_OK)
            return vsg_cli_usage_error("maps", "--types: %s", vsg_last_error());
        for (int j = 0; j < k; j++)
            if (!seen[t[j]]) seen[t[j]] = 1, out[(*n)++] = t[j];
    }
    if (*n == 0) return vsg_cli_usage_error("maps", "--types '%s' names no type with a map", s);
    return 0;
}

static int box_around(const char *path, double padding, vsg_vina_box *b)
{
    vsg_molecule *m = NULL;
    vsg_status st = vsg_molecule_read(path, NULL, &m);
    if (st != VSG_OK) return vsg_cli_fail(st);
    size_t n = vsg_molecule_atom_count(m);
    double c[3] = {0, 0, 0}, far[3] = {0, 0, 0};
    vsg_atom_info a;
    for (size_t i = 0; i < n; i++) {
        vsg_molecule_atom(m, i, &a);
        c[0] += a.x, c[1] += a.y, c[2] += a.z;
    }
    for (int k = 0; k < 3; k++) c[k] /= (double)n;
    for (size_t i = 0; i < n; i++) {
        vsg_molecule_atom(m, i, &a);
        const double p[3] = {a.x, a.y, a.z};
        for (int k = 0; k < 3; k++)
            if (fabs(c[k] - p[k]) > far[k]) far[k] = fabs(c[k] - p[k]);
    }
    for (int k = 0; k < 3; k++) b->center[k] = c[k], b->size[k] = ceil((far[k] + padding) * 2.0);
    vsg_molecule_free(m);
    return 0;
}

int vsg_cmd_maps(int argc, char **argv)
{
    const char *rec_path = NULL, *around = NULL, *prefix = NULL, *box_s = NULL, *types_s = NULL;
    double padding = 4.0, gpu_mb = 0.0, x;
    vsg_device device = VSG_DEVICE_AUTO;
    int gpu_index = -1;
    int quiet = 0, rc;
    vsg_vina_box box = {{0, 0, 0}, {0, 0, 0}, 0.375};
    vsg_vina_params p;
    vsg_vina_params_default(&p);
    vsg_args a = {argc, 1, argv, NULL, NULL};
    const char *v;
    for (; a.i < argc; a.i++) {
        const char *arg = argv[a.i];
        if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) { fputs(usage, stdout); return 0; }
        if (vsg_arg_is(&a, "--scoring")) {
            if (!(v = vsg_arg_value(&a, "maps"))) return VSG_EXIT_USAGE;
            if (!strcmp(v, "vina")) p.scoring = VSG_VINA_SCORING_VINA;
            else if (!strcmp(v, "vinardo")) p.scoring = VSG_VINA_SCORING_VINARDO;
            else if (!strcmp(v, "ad4")) return vsg_cli_usage_error("maps", "--scoring ad4: AutoDock4 maps come from 'vsgrid grid --gpf'");
            else return vsg_cli_usage_error("maps", "--scoring: '%s' is not vina or vinardo", v);
            continue;
        }
        if (vsg_arg_is(&a, "--box")) { if (!(box_s = vsg_arg_value(&a, "maps"))) return VSG_EXIT_USAGE; continue; }
        if (vsg_arg_is(&a, "--around")) { if (!(around = vsg_arg_value(&a, "maps"))) return VSG_EXIT_USAGE; continue; }
        if (vsg_arg_is(&a, "--types")) { if (!(types_s = vsg_arg_value(&a, "maps"))) return VSG_EXIT_USAGE; continue; }
        if (vsg_arg_is(&a, "-o") || vsg_arg_is(&a, "--output")) {
            if (!(prefix = vsg_arg_value(&a, "maps"))) return VSG_EXIT_USAGE;
            continue;
        }
        if (vsg_arg_is(&a, "--spacing")) {
            if (!(v = vsg_arg_value(&a, "maps"))) return VSG_EXIT_USAGE;
            if (!vsg_parse_number(v, &box.spacing) || box.spacing <= 0)
                return vsg_cli_usage_error("maps", "--spacing: '%s' is not a number > 0", v);
            continue;
        }
        if (vsg_arg_is(&a, "--padding")) {
            if (!(v = vsg_arg_value(&a, "maps"))) return VSG_EXIT_USAGE;
            if (!vsg_parse_number(v, &padding) || padding < 0)
                return vsg_cli_usage_error("maps", "--padding: '%s' is not a number >= 0", v);
            continue;
        }
        if (vsg_arg_is(&a, "--analytic")) { p.tabulated = 0; continue; }
        if (vsg_arg_is(&a, "--device")) {
            if (!(v = vsg_arg_value(&a, "maps"))) return VSG_EXIT_USAGE;
            if (!strcmp(v, "auto")) device = VSG_DEVICE_AUTO;
            else if (!strcmp(v, "cpu")) device = VSG_DEVICE_CPU;
            else if (!strcmp(v, "gpu")) device = VSG_DEVICE_GPU;
            else if (vsg_parse_number(v, &x) && x >= 0 && x == floor(x) && x < 1024) device = VSG_DEVICE_GPU, gpu_index = (int)x;
            else return vsg_cli_usage_error("maps", "--device: '%s' is not auto, cpu, gpu or a GPU number", v);
            continue;
        }
        if (vsg_arg_is(&a, "--gpu-memory")) {
            if (!(v = vsg_arg_value(&a, "maps"))) return VSG_EXIT_USAGE;
            if (!vsg_parse_number(v, &gpu_mb) || !(gpu_mb > 0))
                return vsg_cli_usage_error("maps", "--gpu-memory: '%s' is not a number of MB > 0", v);
            continue;
        }
        if (vsg_arg_is(&a, "--quiet")) { quiet = 1; continue; }
        if (arg[0] == '-' && arg[1]) return vsg_cli_usage_error("maps", "unknown option %s", arg);
        if (rec_path) return vsg_cli_usage_error("maps", "one receptor only (got %s and %s)", rec_path, arg);
        rec_path = arg;
    }
    if (!rec_path) return vsg_cli_usage_error("maps", "need a RECEPTOR (PDBQT)");
    if (!prefix) return vsg_cli_usage_error("maps", "need -o PREFIX");
    if (!box_s == !around) return vsg_cli_usage_error("maps", "need exactly one of --box and --around");
    if (box_s) {
        double b[6];
        if (!vsg_parse_list(box_s, b, 6))
            return vsg_cli_usage_error("maps", "--box: '%s' is not CX,CY,CZ,SX,SY,SZ (six numbers)", box_s);
        for (int k = 0; k < 3; k++) box.center[k] = b[k], box.size[k] = b[3 + k];
        for (int k = 0; k < 3; k++)
            if (!(box.size[k] > 0)) return vsg_cli_usage_error("maps", "--box: size %g along %c must be > 0", box.size[k], "xyz"[k]);
    }
    vsg_xs_type types[VSG_XS_COUNT];
    int ntypes = VSG_XS_COUNT;
    if (types_s) {
        if ((rc = parse_types(types_s, types, &ntypes)) != 0) return rc;
    } else {
        for (int t = 0; t < VSG_XS_COUNT; t++) types[t] = (vsg_xs_type)t;
    }
    if (around && (rc = box_around(around, padding, &box)) != 0) return rc;

    double t0 = vsg_now();
    vsg_molecule *rec = NULL;
    vsg_grid *maps[VSG_XS_COUNT] = {NULL};
    vsg_status st = vsg_molecule_read(rec_path, NULL, &rec);
    if (st == VSG_OK) {
        double lo[3], hi[3];
        for (int k = 0; k < 3; k++) lo[k] = box.center[k] - box.size[k] / 2, hi[k] = box.center[k] + box.size[k] / 2;
        if (vsg_cli_atoms_near_box(rec, lo, hi, 8.0) == 0)
            vsg_warn("%s: no receptor atom within 8 A of the box (center %g,%g,%g): every map is zero; "
                     "check --box or --around", rec_path, box.center[0], box.center[1], box.center[2]);
    }
    const char *ran = "cpu";
    if (st == VSG_OK && device != VSG_DEVICE_CPU && (device == VSG_DEVICE_GPU || vsg_gpu_count() > 0)) {
        st = vsg_vina_maps_gpu(rec, &box, &p, types, ntypes, gpu_index, gpu_mb * 1048576.0, maps);
        if (st == VSG_OK) ran = "gpu";
        else if (st == VSG_E_DEVICE || st == VSG_E_UNSUPPORTED || (device == VSG_DEVICE_AUTO && st == VSG_E_LIMIT)) {
            fprintf(stderr, "vsgrid maps: warning: %s; using the CPU twin\n", vsg_last_error());
            st = VSG_OK;
        }
    }
    if (st == VSG_OK && !strcmp(ran, "cpu")) st = vsg_vina_maps_cpu(rec, &box, &p, types, ntypes, maps);
    double t1 = vsg_now();
    const char *base = strrchr(rec_path, '/');
    base = base ? base + 1 : rec_path;
    size_t plen = strlen(prefix) + 16;
    char *path = malloc(plen);
    if (st == VSG_OK && !path) st = vsg_fail(VSG_E_NOMEM, "out of memory");
    for (int t = 0; t < ntypes && st == VSG_OK; t++) {
        snprintf(path, plen, "%s.%s.map", prefix, vsg_xs_type_name(types[t]));
        st = vsg_vina_map_write(maps[t], path, base);
    }
    rc = st == VSG_OK ? VSG_EXIT_OK : vsg_cli_fail(st);
    if (st == VSG_OK && !quiet) {
        vsg_grid_shape s;
        vsg_grid_shape_of(maps[0], &s);
        fprintf(stderr, "vsgrid maps: %d %s map%s of %dx%dx%d nodes (spacing %g A, center %g,%g,%g): %.2f s maps, "
                "%.2f s writing (%s); %s.<type>.map\n", ntypes, p.scoring ? "vinardo" : "vina", ntypes > 1 ? "s" : "",
                s.n[0], s.n[1], s.n[2], box.spacing, box.center[0], box.center[1], box.center[2], t1 - t0,
                vsg_now() - t1, ran, prefix);
    }
    for (int t = 0; t < ntypes; t++) vsg_grid_free(maps[t]);
    free(path);
    vsg_molecule_free(rec);
    return rc;
}
