/* cli_maps.c — `vsgrid maps RECEPTOR.pdbqt --scoring vina|vinardo|ad4 ... -o PREFIX`: a
 * receptor's whole map set on a box. Vina / Vinardo affinity maps, one per ligand XS type, written
 * as `vina --write_maps` does; or an AutoDock4 map set (every ligand type's map, e, d, .maps.fld,
 * .maps.xyz) from a gpf it writes beside them, computed by the code of `vsgrid grid --gpf`
 * (vsg_cli_ad4_mapset). `--elec pb` puts vsgrid's PB potential in the e map. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/cli/cli.h"
#include "engine/cli/grid_batch.h"

static const char usage[] =
    "usage: vsgrid maps RECEPTOR.pdbqt [--scoring vina|vinardo|ad4]\n"
    "                   (--box CX,CY,CZ,SX,SY,SZ | --around LIGAND [--padding 4])\n"
    "                   [--spacing 0.375] [--types C,N,OA,...] [--ligand-types A,C,...]\n"
    "                   [--elec coulomb|pb|none] [--elec-weight W] [PB options] [--analytic]\n"
    "                   [--device auto|cpu|gpu|N] [--gpu-memory MB] [--allow-zero-charges]\n"
    "                   [--hydrated] [--json FILE] [--quiet] -o PREFIX\n"
    "\n"
    "A receptor's whole map set on a box, for docking or for `vsgrid screen`:\n"
    "  vina, vinardo  AutoDock Vina 1.2 affinity maps: for each ligand XS atom type, the sum of\n"
    "                 Vina's (or Vinardo's) weighted intermolecular terms over receptor atoms within\n"
    "                 8 A, in kcal/mol, written as PREFIX.<type>.map the way `vina --write_maps\n"
    "                 PREFIX` writes them, so `vina --maps PREFIX --ligand LIG.pdbqt` docks with them\n"
    "  ad4            an AutoDock4 map set as autogrid4 4.2.6 makes it (AD4.1_bound.dat): one\n"
    "                 affinity map per ligand type PREFIX.<T>.map, PREFIX.e.map (kcal/mol/e),\n"
    "                 PREFIX.d.map, PREFIX.maps.fld and PREFIX.maps.xyz, for autodock4,\n"
    "                 AutoDock-GPU (-ffile PREFIX.maps.fld) and `vsgrid screen PREFIX.maps.fld`;\n"
    "                 also PREFIX.gpf, the grid parameter file they are computed from (the code\n"
    "                 of `vsgrid grid --gpf PREFIX.gpf --autogrid-maps PREFIX`): `autogrid4 -p\n"
    "                 NAME.gpf` run in PREFIX's directory makes the same maps (the e map too\n"
    "                 unless --elec pb)\n"
    "  RECEPTOR       PDBQT (AutoDock types; Vina's XS types are assigned as Vina 1.2 does), or\n"
    "                 PDB or mmCIF: prepared first as by `vsgrid prepare -o X.pdbqt` (summary on stderr);\n"
    "                 for ad4 the prepared receptor is kept as PREFIX.receptor.pdbqt, the file\n"
    "                 PREFIX.gpf names\n"
    "  --scoring S    vina (default), vinardo or ad4\n"
    "  --box CX,CY,CZ,SX,SY,SZ   box center and size (A), as vina's --center_x.. --size_x..\n"
    "  --around LIG   box around a ligand, as vina's --autobox: centered on the mean of its\n"
    "                 atoms, each side ceil(2*(largest distance from the center + padding)); any\n"
    "                 ligand format (PDBQT, MOL2, SDF, a crystal ligand's PDB: its first record)\n"
    "  --padding A    with --around (default 4, vina's --autobox_add)\n"
    "  --spacing A    grid spacing (default 0.375); intervals per side ceil(size/spacing), made\n"
    "                 even (vina's --force_even_voxels; a gpf's even npts), so nodes per side are\n"
    "                 odd. ad4: the gpf's gridcenter and spacing are written with 3 decimals and\n"
    "                 the maps use those values, as autogrid4 would\n"
    "  --types LIST   vina/vinardo ligand types, comma separated: XS names (C_H,C_P,N_P,N_D,N_A,\n"
    "                 N_DA,O_P,O_D,O_A,O_DA,S_P,P_P,F_H,Cl_H,Br_H,I_H,Si,At,Met_D) or AutoDock\n"
    "                 types (C and A give C_H and C_P; N: N_P,N_D; NA: N_A,N_DA; O: O_P,O_D; OA:\n"
    "                 O_A,O_DA; H and HD: no map). Default: all 19 XS types\n"
    "  --hydrated     ad4: also PREFIX.W.map, the water map of hydrated docking (Vina 1.2's\n"
    "                 documented protocol; AutoDock-GPU's W atoms), made from the OA and HD maps\n"
    "                 as AutoDock-Vina's example/autodock_scripts/mapwater.py makes it with its\n"
    "                 defaults: -0.2 where OA or HD is > 0, else 0.6 x min(OA, HD), \"%1.4f\" under\n"
    "                 the OA map's header (OA and HD are added to the ligand types). On by itself\n"
    "                 when the --around ligand has W atoms. Not listed in PREFIX.maps.fld (as\n"
    "                 mapwater.py leaves it): vina --maps PREFIX, AutoDock-GPU and vsgrid dock\n"
    "                 find it by its name\n"
    "  --ligand-types LIST  ad4 ligand types, comma separated AutoDock types with parameters in\n"
    "                 AD4.1_bound.dat. Default: A,C,NA,OA,N,SA,HD,F,Cl,Br,I,P,S (a drug-like\n"
    "                 library), followed by any other type of the --around ligand. (Debian's\n"
    "                 autogrid4 makes at most 14 ligand-type maps; vsgrid up to 30)\n"
    "  --elec E       the electrostatic map. coulomb (ad4's default): autogrid4's e map, the\n"
    "                 Coulomb sum with AutoDock4's distance-dependent dielectric, times AutoDock4's\n"
    "                 weight 0.1406 (FE_coeff_estat). pb: vsgrid's Poisson-Boltzmann potential of\n"
    "                 the receptor (the focusing solver of `vsgrid grid`: a coarse box around the\n"
    "                 whole receptor, then down to the map's own lattice; double precision, so\n"
    "                 GPU and CPU give the same map), in kcal/mol/e (kT/e x kT) times the weight\n"
    "                 --elec-weight: for ad4 it replaces the Coulomb e map in the same function\n"
    "                 (weight 0.1406 by default, as autogrid4's e map carries it); for\n"
    "                 vina/vinardo it is an extra PREFIX.e.map (weight 1 by default: q x map is\n"
    "                 the PB interaction energy in kcal/mol) that vina itself ignores (Vina has no\n"
    "                 electrostatic term; vsgrid screen can read it). none: vina's default\n"
    "                 Receptor charges come from the PDBQT; radii are the AutoDock types' Rii/2\n"
    "                 (C 2.0, N 1.75, OA 1.6, SA 2.0, HD 1.0 A: the sizes AutoDock's own vdW\n"
    "                 term gives these atoms, and what `vsgrid grid REC.pdbqt` uses), so the PB\n"
    "                 map equals `vsgrid grid REC.pdbqt --bc focus` on that box. The .maps.fld\n"
    "                 (ad4) gets a comment that its e map is PB\n"
    "  --elec-weight W  multiply the PB map by W (> 0) instead of the default above\n"
    "  PB options     with --elec pb, as for `vsgrid grid`: --eps-in (2), --eps-out (78.54),\n"
    "                 --salt M (none), --ion, --ion-radius, --temp, --surface (ses), --probe,\n"
    "                 --charge-spline, --bc (focus), --nonlinear, --tol, --max-iter, --precision\n"
    "                 (double), --max-memory, --max-gpu-memory, --threads\n"
    "  --analytic     vina: the terms at the exact distance instead of Vina's r^2 table (not what\n"
    "                 vina computes: ~0.01 kcal/mol apart, ~2% where receptor atoms clash)\n"
    "  --device D     auto (default): the GPU when one is usable, else the CPU twin (OpenMP,\n"
    "                 --threads), which gives the same maps; cpu: the CPU twin; gpu or N: GPU N.\n"
    "                 vina: float sums, within max(1e-4 relative, 1e-5 kcal/mol) of the CPU twin;\n"
    "                 ad4: the affinity and d maps are the CPU twin's values after autogrid4's\n"
    "                 3-decimal rounding; the e map's float sums may round the other way at a\n"
    "                 few nodes (0.001 apart at 17 of 90,405 nodes of 1STP on an H200). A GPU that\n"
    "                 fails falls back to the CPU twin with a warning\n"
    "  --gpu-memory MB  vina: most GPU memory to use (default: the free memory; big boxes go in slabs)\n"
    "  --allow-zero-charges  ad4: make the maps although every receptor charge is 0 (refused\n"
    "                 otherwise: the e map would be 0; a PDBQT written by `obabel -xr` has no charges)\n"
    "  --json FILE    ad4: a machine-readable summary\n"
    "  -o PREFIX      output prefix (directory + name), as vina's --write_maps\n"
    "  --quiet        no summary line\n"
    "Exit codes: 0 ok, 2 usage (e.g. a --ligand-types type without parameters), 3 bad input (a\n"
    "receptor atom type without parameters or XS equivalent, all charges 0 for ad4 or --elec pb), 1 other.\n"
    "A box reaching more than 8 A past the receptor's atoms is warned about (its affinity maps are\n"
    "0 there), as is a box no receptor atom is near.\n";

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
    vsg_status st = vsg_cli_read_around(path, &m);
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

/* The default AutoDock4 ligand types: what a drug-like library needs (AutoDock-GPU's users). */
static const char *const ad4_default_types[] = {"A", "C", "NA", "OA", "N", "SA", "HD", "F", "Cl", "Br", "I", "P", "S"};
#define AD4_MAX_TYPES (VSG_AG_MAX_MAPS - 2)

static int add_type(char (*types)[4], int *n, const char *t)
{
    for (int i = 0; i < *n; i++)
        if (!strcmp(types[i], t)) return 0;
    if (*n >= AD4_MAX_TYPES) return -1;
    snprintf(types[(*n)++], 4, "%s", t);
    return 0;
}

/* --ligand-types, or the default list then the --around ligand's other types. 0 or an exit code. */
static int ad4_types(const char *list, const char *around, const vsg_ad4_params *par, char (*types)[4], int *n,
                     int *has_w)
{
    *n = 0;
    *has_w = 0;
    if (list) {
        char buf[1024];
        if (strlen(list) >= sizeof buf) return vsg_cli_usage_error("maps", "--ligand-types: list too long");
        strcpy(buf, list);
        for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
            if (!vsg_ad4_params_find(par, tok)) {
                char known[512] = "";
                for (int i = 0; i < par->n && strlen(known) + 6 < sizeof known; i++)
                    strcat(known, " "), strcat(known, par->atom[i].type);
                return vsg_cli_usage_error("maps", "--ligand-types: '%s' has no AutoDock4 parameters (AD4.1_bound.dat "
                                           "has:%s): drop it or correct its spelling", tok, known);
            }
            if (add_type(types, n, tok))
                return vsg_cli_usage_error("maps", "--ligand-types: more than %d types", AD4_MAX_TYPES);
        }
        if (*n == 0) return vsg_cli_usage_error("maps", "--ligand-types '%s' names no type", list);
        return 0;
    }
    for (size_t i = 0; i < sizeof ad4_default_types / sizeof ad4_default_types[0]; i++)
        add_type(types, n, ad4_default_types[i]);
    if (around) {
        vsg_molecule *m = NULL;
        vsg_status st = vsg_cli_read_around(around, &m);
        if (st != VSG_OK) return vsg_cli_fail(st);
        vsg_atom_info a;
        for (size_t i = 0; i < vsg_molecule_atom_count(m) && st == VSG_OK; i++) {
            if (vsg_molecule_atom(m, i, &a) != VSG_OK || !a.ad_type[0]) continue;
            if (!strcmp(a.ad_type, "W")) { /* a hydrated ligand's water: the W map, not an autogrid4 type */
                *has_w = 1;
                continue;
            }
            if (!vsg_ad4_params_find(par, a.ad_type))
                st = vsg_fail(VSG_E_DATA, "%s:%d: ligand atom '%s' has AutoDock type '%s', which has no AutoDock4 "
                              "parameters: correct its type or give --ligand-types", around, a.line, a.name, a.ad_type);
            else if (add_type(types, n, a.ad_type))
                st = vsg_fail(VSG_E_LIMIT, "%s: more than %d ligand types: give --ligand-types", around, AD4_MAX_TYPES);
        }
        vsg_molecule_free(m);
        if (st != VSG_OK) return vsg_cli_fail(st);
    }
    return 0;
}

/* PREFIX.W.map from PREFIX.OA.map and PREFIX.HD.map, as mapwater.py makes it. 0 or an exit code. */
static int water_map(const char *prefix, int quiet)
{
    const size_t len = strlen(prefix) + 8;
    char *oa = malloc(len), *hd = malloc(len), *w = malloc(len);
    int rc = 0;
    if (!oa || !hd || !w) rc = vsg_cli_fail(vsg_fail(VSG_E_NOMEM, "out of memory"));
    else {
        snprintf(oa, len, "%s.OA.map", prefix);
        snprintf(hd, len, "%s.HD.map", prefix);
        snprintf(w, len, "%s.W.map", prefix);
        vsg_ad4_water_stats ws;
        const vsg_status st = vsg_ad4_water_map_write(oa, hd, w, &ws);
        if (st != VSG_OK) rc = vsg_cli_fail(st);
        else if (!quiet)
            fprintf(stderr, "vsgrid maps: %s: the water map (mapwater.py's BEST, weight %.1f, entropy %.1f): %.2f%% OA "
                    "points, %.2f%% HD points, values %.2f to %.2f kcal/mol\n", w, VSG_W_MAP_WEIGHT, VSG_W_MAP_ENTROPY,
                    ws.from_oa + ws.from_hd ? 100.0 * ws.from_oa / (ws.from_oa + ws.from_hd) : 0.0,
                    ws.from_oa + ws.from_hd ? 100.0 * ws.from_hd / (ws.from_oa + ws.from_hd) : 0.0, ws.lowest, ws.highest);
    }
    free(oa), free(hd), free(w);
    return rc;
}

/* Every receptor atom has an AutoDock type (Vina's XS types follow from it) and, for an AutoDock4 set (par
   given), one the parameters know (else a file:line error naming the command that makes a PDBQT). */
static vsg_status check_receptor_types(const vsg_molecule *rec, const vsg_ad4_params *par)
{
    vsg_atom_info a;
    for (size_t i = 0; i < vsg_molecule_atom_count(rec); i++) {
        if (vsg_molecule_atom(rec, i, &a) != VSG_OK) continue;
        if (!a.ad_type[0])
            return vsg_fail(VSG_E_DATA, "%s:%d: atom '%s' has no AutoDock type: %s maps need a PDBQT receptor: make "
                            "one with 'vsgrid prepare %s -o REC.pdbqt' (from a PDB, mmCIF or PQR file; or "
                            "prepare_receptor4.py), or give maps the PDB file itself", vsg_molecule_source(rec), a.line,
                            a.name, par ? "AutoDock4" : "Vina", vsg_molecule_source(rec));
        if (!par) continue;
        if (!vsg_ad4_params_find(par, a.ad_type))
            return vsg_fail(VSG_E_DATA, "%s:%d: receptor atom '%s' has AutoDock type '%s', which AD4.1_bound.dat lacks: "
                            "correct its type (prepare_receptor4.py) or remove the atom", vsg_molecule_source(rec), a.line,
                            a.name, a.ad_type);
    }
    return VSG_OK;
}

/* The box: no receptor atom near it is an error (every affinity map would be 0: maps that dock
 * and score nothing); a part more than 8 Å past the receptor's atoms (zero there) a warning. */
static vsg_status check_box(const vsg_molecule *rec, const char *rec_path, const double center[3], const double size[3])
{
    double lo[3], hi[3], rlo[3] = {1e300, 1e300, 1e300}, rhi[3] = {-1e300, -1e300, -1e300};
    for (int k = 0; k < 3; k++) lo[k] = center[k] - size[k] / 2, hi[k] = center[k] + size[k] / 2;
    if (vsg_cli_atoms_near_box(rec, lo, hi, 8.0) == 0)
        return vsg_fail(VSG_E_DATA, "%s: no receptor atom within 8 A of the box (center %g,%g,%g): every map would be "
                        "zero, nothing to dock or score against; check --box or use --around LIGAND",
                        rec_path, center[0], center[1], center[2]);
    vsg_atom_info a;
    for (size_t i = 0; i < vsg_molecule_atom_count(rec); i++) {
        if (vsg_molecule_atom(rec, i, &a) != VSG_OK) continue;
        const double p[3] = {a.x, a.y, a.z};
        for (int k = 0; k < 3; k++) {
            if (p[k] < rlo[k]) rlo[k] = p[k];
            if (p[k] > rhi[k]) rhi[k] = p[k];
        }
    }
    for (int k = 0; k < 3; k++) {
        double out = fmax(rlo[k] - 8.0 - lo[k], hi[k] - (rhi[k] + 8.0));
        if (out > 0.0) {
            vsg_warn("%s: the box reaches %.1f A along %c past the receptor's atoms (%.1f..%.1f A) and their 8 A cutoff: "
                     "the affinity maps are 0 there; is the receptor whole, and the box where you meant it?",
                     rec_path, out, "xyz"[k], rlo[k], rhi[k]);
            return VSG_OK;
        }
    }
    return VSG_OK;
}

int vsg_cmd_maps(int argc, char **argv)
{
    const char *rec_path = NULL, *around = NULL, *prefix = NULL, *box_s = NULL, *types_s = NULL, *ltypes_s = NULL;
    const char *json = NULL, *pb_opt = NULL, *dummy_around = NULL;
    double padding = 4.0, gpu_mb = 0.0, x, elec_weight = -1.0;
    vsg_device device = VSG_DEVICE_AUTO;
    int gpu_index = -1;
    int quiet = 0, rc, ad4 = 0, elec = -1, allow_zero = 0; /* elec: -1 default, 0 none, 1 coulomb, 2 pb */
    int hydrated = 0; /* --hydrated (or a W in the --around ligand): PREFIX.W.map too */
    vsg_vina_box box = {{0, 0, 0}, {0, 0, 0}, 0.375};
    vsg_vina_params p;
    vsg_vina_params_default(&p);
    vsg_pb_params pb;
    vsg_pb_params_default(&pb);
    vsg_args a = {argc, 1, argv, NULL, NULL};
    const char *v;
    for (; a.i < argc; a.i++) {
        const char *arg = argv[a.i];
        if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) { fputs(usage, stdout); return 0; }
        if (vsg_arg_is(&a, "--scoring")) {
            if (!(v = vsg_arg_value(&a, "maps"))) return VSG_EXIT_USAGE;
            if (!strcmp(v, "vina")) p.scoring = VSG_VINA_SCORING_VINA, ad4 = 0;
            else if (!strcmp(v, "vinardo")) p.scoring = VSG_VINA_SCORING_VINARDO, ad4 = 0;
            else if (!strcmp(v, "ad4")) ad4 = 1;
            else return vsg_cli_usage_error("maps", "--scoring: '%s' is not vina, vinardo or ad4", v);
            continue;
        }
        if (vsg_arg_is(&a, "--box")) { if (!(box_s = vsg_arg_value(&a, "maps"))) return VSG_EXIT_USAGE; continue; }
        if (vsg_arg_is(&a, "--hydrated")) { hydrated = 1; continue; }
        if (vsg_arg_is(&a, "--around")) { if (!(around = vsg_arg_value(&a, "maps"))) return VSG_EXIT_USAGE; continue; }
        if (vsg_arg_is(&a, "--types")) { if (!(types_s = vsg_arg_value(&a, "maps"))) return VSG_EXIT_USAGE; continue; }
        if (vsg_arg_is(&a, "--ligand-types")) { if (!(ltypes_s = vsg_arg_value(&a, "maps"))) return VSG_EXIT_USAGE; continue; }
        if (vsg_arg_is(&a, "--json")) { if (!(json = vsg_arg_value(&a, "maps"))) return VSG_EXIT_USAGE; continue; }
        if (vsg_arg_is(&a, "-o") || vsg_arg_is(&a, "--output")) {
            if (!(prefix = vsg_arg_value(&a, "maps"))) return VSG_EXIT_USAGE;
            continue;
        }
        if (vsg_arg_is(&a, "--elec")) {
            if (!(v = vsg_arg_value(&a, "maps"))) return VSG_EXIT_USAGE;
            if (!strcmp(v, "none")) elec = 0;
            else if (!strcmp(v, "coulomb")) elec = 1;
            else if (!strcmp(v, "pb")) elec = 2;
            else return vsg_cli_usage_error("maps", "--elec: '%s' is not coulomb, pb or none", v);
            continue;
        }
        if (vsg_arg_is(&a, "--elec-weight")) {
            if (!(v = vsg_arg_value(&a, "maps"))) return VSG_EXIT_USAGE;
            if (!vsg_parse_number(v, &elec_weight) || !(elec_weight > 0.0))
                return vsg_cli_usage_error("maps", "--elec-weight: '%s' is not a number > 0", v);
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
        if (vsg_arg_is(&a, "--allow-zero-charges")) { allow_zero = 1; continue; }
        if (arg[0] == '-' && arg[1]) {
            /* the PB options of `vsgrid grid`, for --elec pb (--threads for every map) */
            int r = vsg_cli_pb_option(&a, "maps", &pb, &dummy_around, &quiet);
            if (r < 0) return VSG_EXIT_USAGE;
            if (r > 0) {
                if (!strncmp(arg, "--fill", 6)) return vsg_cli_usage_error("maps", "--fill: the box is --box or --around");
                if (strncmp(arg, "--threads", 9)) pb_opt = arg;
                continue;
            }
            return vsg_cli_usage_error("maps", "unknown option %s", arg);
        }
        if (rec_path) return vsg_cli_usage_error("maps", "one receptor only (got %s and %s)", rec_path, arg);
        rec_path = arg;
    }
    vsg_cli_pb_finish(&pb);
    if (!rec_path) return vsg_cli_usage_error("maps", "need a RECEPTOR (PDBQT)");
    if (!prefix) return vsg_cli_usage_error("maps", "need -o PREFIX");
    if (!box_s == !around) return vsg_cli_usage_error("maps", "need exactly one of --box and --around");
    if (elec < 0) elec = ad4 ? 1 : 0;
    if (ad4 && elec == 0) return vsg_cli_usage_error("maps", "--elec none: an AutoDock4 map set needs its e map (coulomb or pb)");
    if (!ad4 && elec == 1)
        return vsg_cli_usage_error("maps", "--elec coulomb: Vina has no electrostatic term; --elec pb writes an extra PREFIX.e.map");
    if (elec != 2 && elec_weight > 0.0) return vsg_cli_usage_error("maps", "--elec-weight needs --elec pb");
    if (elec != 2 && pb_opt) return vsg_cli_usage_error("maps", "%s is a PB option: it needs --elec pb", pb_opt);
    if (ad4 && types_s) return vsg_cli_usage_error("maps", "--types names Vina's XS types: for ad4 give --ligand-types");
    if (!ad4 && ltypes_s) return vsg_cli_usage_error("maps", "--ligand-types is for --scoring ad4: for vina give --types");
    if (!ad4 && json) return vsg_cli_usage_error("maps", "--json is for --scoring ad4");
    if (!ad4 && allow_zero) return vsg_cli_usage_error("maps", "--allow-zero-charges is for --scoring ad4 (Vina has no charges)");
    if (ad4 && p.tabulated == 0) return vsg_cli_usage_error("maps", "--analytic is for vina and vinardo");
    if (!ad4 && hydrated)
        return vsg_cli_usage_error("maps", "--hydrated is for --scoring ad4: hydrated docking was calibrated on the AutoDock4 "
                                   "function (Vina's documentation advises against the Vina function)");
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
    char ltypes[AD4_MAX_TYPES][4];
    int nltypes = 0;
    vsg_ad4_params par;
    vsg_ad4_params_builtin(&par);
    if (ad4) {
        int has_w = 0;
        if ((rc = ad4_types(ltypes_s, around, &par, ltypes, &nltypes, &has_w)) != 0) return rc;
        hydrated |= has_w;
        /* the W map is made from these two */
        if (hydrated && (add_type(ltypes, &nltypes, "OA") || add_type(ltypes, &nltypes, "HD")))
            return vsg_cli_usage_error("maps", "--hydrated: no room for the OA and HD maps (%d types at most)", AD4_MAX_TYPES);
    } else if (types_s) {
        if ((rc = parse_types(types_s, types, &ntypes)) != 0) return rc;
    } else {
        for (int t = 0; t < VSG_XS_COUNT; t++) types[t] = (vsg_xs_type)t;
    }
    if (around && (rc = box_around(around, padding, &box)) != 0) return rc;
    /* PB for the e map: focusing from a box around the whole receptor, double unless asked */
    pb.device = device;
    pb.gpu_index = gpu_index;
    if (elec == 2 && pb.bc != VSG_BC_FOCUS_FILE) pb.bc = VSG_BC_FOCUS;
    if (elec == 2 && pb.precision == VSG_PRECISION_AUTO) pb.precision = VSG_PRECISION_DOUBLE;

    double t0 = vsg_now();
    vsg_molecule *rec = NULL;
    /* a PDB receptor is prepared (vsgrid prepare) into a PDBQT; for an AutoDock4 set it is kept
       as PREFIX.receptor.pdbqt, the file the gpf names, so that autogrid4 -p makes the same maps */
    vsg_status st = VSG_OK;
    char *keep = NULL;
    if (ad4 && vsg_receptor_is_pdb(rec_path)) {
        size_t klen = strlen(prefix) + 32;
        if (!(keep = malloc(klen))) return vsg_cli_fail(vsg_fail(VSG_E_NOMEM, "out of memory"));
        snprintf(keep, klen, "%s.receptor.pdbqt", prefix);
        st = vsg_cli_receptor_pdbqt(rec_path, keep, quiet, &rec_path);
        if (st == VSG_OK && !quiet) fprintf(stderr, "vsgrid maps: the prepared receptor is %s (the gpf names it)\n", keep);
    }
    if (st == VSG_OK) st = vsg_cli_read_receptor(rec_path, VSG_PREP_PDBQT, quiet || keep, &rec);
    if (st != VSG_OK && strstr(vsg_last_error(), "unknown AutoDock atom type")) {
        char msg[1024];
        snprintf(msg, sizeof msg, "%s", vsg_last_error());
        st = vsg_fail(st, "%s: remove the atom or correct its type ('vsgrid prepare REC.pdb -o REC.pdbqt' types a "
                      "PDB file's atoms; or prepare_receptor4.py)", msg);
    }
    if (st == VSG_OK) st = check_receptor_types(rec, ad4 ? &par : NULL);
    if (st == VSG_OK && ad4 && elec == 1 && !allow_zero && (rc = vsg_cli_check_charges("maps", rec_path, rec, 0)) != 0) {
        vsg_molecule_free(rec);
        free(keep);
        return rc;
    }
    if (st == VSG_OK && elec == 2) {
        size_t charged = 0;
        vsg_atom_info at;
        for (size_t i = 0; i < vsg_molecule_atom_count(rec); i++)
            if (vsg_molecule_atom(rec, i, &at) == VSG_OK && at.charge != 0.0) charged++;
        if (!charged)
            st = vsg_fail(VSG_E_DATA, "%s: every atom charge is 0, so --elec pb would write a zero e map: give the "
                          "receptor partial charges ('vsgrid prepare REC.pdb -o REC.pdbqt' adds Gasteiger charges; or "
                          "prepare_receptor4.py) or leave out --elec pb",
                          rec_path);
    }
    if (st == VSG_OK) st = check_box(rec, rec_path, box.center, box.size);
    int warned = 0;
    if (st == VSG_OK && around) {
        vsg_molecule *lig = NULL;
        if (vsg_cli_read_around(around, &lig) == VSG_OK)
            warned = vsg_cli_warn_ligand_in_receptor("maps", rec, rec_path, lig, around);
        vsg_molecule_free(lig);
    }
    if (st == VSG_OK && !warned) vsg_cli_warn_group_in_box("maps", rec, rec_path, box.center, box.size); /* --box too */
    if (st == VSG_OK && ad4) {
        /* the gpf beside the maps, then the maps from it by `vsgrid grid --gpf`'s code */
        size_t plen = strlen(prefix) + 8;
        char *gpf_path = malloc(plen);
        const char *const *tp = NULL;
        const char *tv[AD4_MAX_TYPES];
        for (int i = 0; i < nltypes; i++) tv[i] = ltypes[i];
        tp = tv;
        char abs_rec[PATH_MAX];
        const char *rec_in_gpf = rec_path;
        if (rec_path[0] != '/' && realpath(rec_path, abs_rec) && strlen(abs_rec) < 128) rec_in_gpf = abs_rec;
        const char *pbase = strrchr(prefix, '/');
        pbase = pbase ? pbase + 1 : prefix;
        vsg_gpf gpf;
        if (!gpf_path) st = vsg_fail(VSG_E_NOMEM, "out of memory");
        if (st == VSG_OK) st = vsg_ad4_gpf_for_box(rec, rec_in_gpf, box.center, box.size, box.spacing, tp, nltypes, pbase, &gpf);
        if (st == VSG_OK) {
            char note[512];
            snprintf(note, sizeof note,
                     "written by vsgrid %s: maps %s --scoring ad4 (box center %.3f %.3f %.3f, size %g %g %g A)\n"
                     "autogrid4 -p %s.gpf, run in this directory, makes the same maps%s", vsg_version(), rec_path,
                     box.center[0], box.center[1], box.center[2], box.size[0], box.size[1], box.size[2], pbase,
                     elec == 2 ? "\nexcept the e map: vsgrid's is the Poisson-Boltzmann potential (--elec pb), autogrid4's is Coulomb's" : "");
            snprintf(gpf_path, plen, "%s.gpf", prefix);
            st = vsg_batch_make_dirs(gpf_path); /* PREFIX's directory, as mkdir -p */
            if (st == VSG_OK) st = vsg_gpf_write(&gpf, gpf_path, note);
        }
        if (st != VSG_OK) {
            rc = vsg_cli_fail(st);
        } else {
            vsg_cli_mapset_job job;
            memset(&job, 0, sizeof job);
            job.receptor = rec_path;
            job.gpf = gpf_path;
            job.prefix = prefix;
            job.json = json;
            job.pb = pb;
            job.quiet = quiet;
            job.elec_pb = elec == 2;
            job.elec_weight = elec_weight;
            job.box_checked = 1; /* checked above, in the words of --box / --around */
            rc = vsg_cli_ad4_mapset(&job);
            if (rc == 0 && hydrated) rc = water_map(prefix, quiet);
            if (rc == 0 && !quiet)
                fprintf(stderr, "vsgrid maps: ad4 map set of %d ligand types + e (%s) + d, %dx%dx%d nodes (spacing %g A, "
                        "center %.3f,%.3f,%.3f): %.2f s; %s.maps.fld, %s\n", nltypes, elec == 2 ? "PB" : "Coulomb",
                        gpf.npts[0] + 1, gpf.npts[1] + 1, gpf.npts[2] + 1, box.spacing, box.center[0], box.center[1],
                        box.center[2], vsg_now() - t0, prefix, gpf_path);
        }
        free(gpf_path);
        vsg_molecule_free(rec);
        free(keep);
        return rc;
    }
    const char *ran = "cpu";
    vsg_grid *maps[VSG_XS_COUNT] = {NULL};
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
    /* --elec pb: the PB potential on the maps' lattice, an extra PREFIX.e.map */
    vsg_grid *emap = NULL;
    vsg_pb_report pbr;
    memset(&pbr, 0, sizeof pbr);
    if (elec_weight <= 0.0) elec_weight = 1.0;
    if (st == VSG_OK && elec == 2) {
        vsg_grid_shape s;
        vsg_grid_shape_of(maps[0], &s);
        if (!(emap = vsg_grid_new(s.n, s.origin, s.spacing, "kcal/mol/e"))) st = vsg_fail(VSG_E_NOMEM, "out of memory");
        if (st == VSG_OK) st = vsg_pb_map_fill(rec, &pb, elec_weight, emap, &pbr);
    }
    double t2 = vsg_now();
    const char *base = strrchr(rec_path, '/');
    base = base ? base + 1 : rec_path;
    size_t plen = strlen(prefix) + 16;
    char *path = malloc(plen);
    if (st == VSG_OK && !path) st = vsg_fail(VSG_E_NOMEM, "out of memory");
    if (st == VSG_OK) st = vsg_batch_make_dirs(prefix);
    for (int t = 0; t < ntypes && st == VSG_OK; t++) {
        snprintf(path, plen, "%s.%s.map", prefix, vsg_xs_type_name(types[t]));
        st = vsg_vina_map_write_scored(maps[t], path, base, (int)p.scoring); /* the header names the function */
    }
    if (st == VSG_OK && emap) {
        snprintf(path, plen, "%s.e.map", prefix);
        st = vsg_vina_map_write(emap, path, base);
    }
    rc = st == VSG_OK ? VSG_EXIT_OK : vsg_cli_fail(st);
    if (st == VSG_OK && !quiet) {
        vsg_grid_shape s;
        vsg_grid_shape_of(maps[0], &s);
        fprintf(stderr, "vsgrid maps: %d %s map%s of %dx%dx%d nodes (spacing %g A, center %g,%g,%g): %.2f s maps, "
                "%.2f s writing (%s); %s.<type>.map\n", ntypes, p.scoring ? "vinardo" : "vina", ntypes > 1 ? "s" : "",
                s.n[0], s.n[1], s.n[2], box.spacing, box.center[0], box.center[1], box.center[2], t1 - t0,
                vsg_now() - t2, ran, prefix);
        if (emap)
            fprintf(stderr, "vsgrid maps: %s.e.map: PB potential x %g kcal/mol/e (eps %g/%g, %d levels, %d iterations%s, "
                    "%s), %.2f s\n", prefix, elec_weight, pb.eps_in, pb.eps_out, pbr.levels, pbr.iterations,
                    pbr.converged ? "" : ", NOT converged", pbr.device, t2 - t1);
    }
    for (int t = 0; t < ntypes; t++) vsg_grid_free(maps[t]);
    vsg_grid_free(emap);
    free(path);
    vsg_molecule_free(rec);
    free(keep);
    return rc;
}
