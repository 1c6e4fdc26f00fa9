/* cli_render.c — `vsgrid render`: a PNG of one plane of a potential grid, with the
 * receptor's outline, for a quick look without PyMOL or ChimeraX. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/cli/cli.h"
#include "engine/report/colormap.h"
#include "grids/base/vsgrid.h"

static const char usage[] =
    "usage: vsgrid render GRID --slice x=V|y=V|z=V -o SLICE.png [--range LO,HI]\n"
    "                     [--receptor FILE | --no-outline] [--scale N] [--quiet]\n"
    "\n"
    "Draws one plane of a grid as a PNG: the value in the red-white-blue scale\n"
    "of APBS, PyMOL and ChimeraX (negative red, 0 white, positive blue), the outline of the\n"
    "receptor's atoms cut by the plane in black, axis names and end coordinates, the slice\n"
    "position and a colour bar labelled with the grid's quantity and units: potential (kT/e\n"
    "for PB, kcal/mol/e for Coulomb and AutoGrid e maps) or affinity (kcal/mol, AutoGrid maps).\n"
    "\n"
    "GRID: .vsg, .dx, .dx.gz or AutoGrid .map[.gz] (format from the extension).\n"
    "\n"
    "Options:\n"
    "  --slice A=V             the plane A = V Å, A one of x, y, z; V a number inside the grid\n"
    "                          or 'center' (the grid's middle). Required. The potential is\n"
    "                          interpolated trilinearly at each pixel, so V need not lie on a\n"
    "                          grid plane. Axes shown: y,z for x; x,z for y; x,y for z\n"
    "  -o, --output FILE.png   the picture (required)\n"
    "  --range LO,HI           colour range, LO < HI, in the grid's units; values beyond are\n"
    "                          clamped to full red / blue. Default: from the slice's 2nd and\n"
    "                          98th percentiles; symmetric about 0 for potentials (kT/e,\n"
    "                          kcal/mol/e); for affinity maps (kcal/mol) symmetric at the 2nd\n"
    "                          percentile, so the clamped repulsion inside atoms does not wash\n"
    "                          the picture out. The summary line says which range it used\n"
    "  --receptor FILE         outline these atoms (centres and radii): PQR, PDBQT, MOL2, or\n"
    "                          PDB (coordinates only; radii by element). Default: the receptor\n"
    "                          named in the grid's metadata when that file exists (as written,\n"
    "                          then next to the grid); none otherwise\n"
    "  --no-outline            draw no outline\n"
    "  --scale N               pixels per grid spacing, 1..64 (default: about 600 pixels across,\n"
    "                          at most 16)\n"
    "  --quiet                 no summary line on stderr\n"
    "\n"
    "Exit codes: 0 ok, 2 usage (bad option, plane outside the grid), 3 bad input (missing or\n"
    "malformed grid or receptor), 4 memory limit.\n";

/* "z=12.5" | "x=center" → axis and position. 0 on success, else the usage exit code. */
static int parse_slice(const char *s, const vsg_grid *g, int *axis, double *pos)
{
    const char *eq = strchr(s, '=');
    if (!eq || eq != s + 1 || !strchr("xyzXYZ", s[0]))
        return vsg_cli_usage_error("render", "--slice: '%s' is not x=V, y=V or z=V", s);
    *axis = tolower((unsigned char)s[0]) - 'x';
    if (!strcmp(eq + 1, "center") || !strcmp(eq + 1, "centre")) {
        vsg_grid_shape sh;
        if (g && vsg_grid_shape_of(g, &sh) == VSG_OK) *pos = sh.origin[*axis] + 0.5 * (sh.n[*axis] - 1) * sh.spacing[*axis];
        else *pos = 0.0;
        return 0;
    }
    if (!vsg_parse_number(eq + 1, pos))
        return vsg_cli_usage_error("render", "--slice: '%s' is not a number (or 'center')", eq + 1);
    return 0;
}

/* The receptor the grid was built from, if its metadata names one that can be found: as
 * written (relative to the working directory), then relative to the grid's directory. */
static const char *default_receptor(const vsg_grid *g, const char *grid_path, char *buf, size_t len)
{
    char name[1024];
    if (!vsg_grid_meta_get(g, "receptor", name, sizeof name) || !name[0]) return NULL;
    if (access(name, R_OK) == 0) {
        snprintf(buf, len, "%s", name);
        return buf;
    }
    const char *slash = strrchr(grid_path, '/');
    if (name[0] != '/' && slash) {
        const char *base = strrchr(name, '/');
        snprintf(buf, len, "%.*s/%s", (int)(slash - grid_path), grid_path, name);
        if (access(buf, R_OK) == 0) return buf;
        snprintf(buf, len, "%.*s/%s", (int)(slash - grid_path), grid_path, base ? base + 1 : name);
        if (access(buf, R_OK) == 0) return buf;
    }
    return NULL;
}

int vsg_cmd_render(int argc, char **argv)
{
    const char *grid_path = NULL, *out = NULL, *slice = NULL, *range = NULL, *receptor = NULL, *scale_s = NULL;
    int no_outline = 0, quiet = 0;
    vsg_args a = {argc, 1, argv, NULL, NULL};
    for (; a.i < argc; a.i++) {
        const char *arg = argv[a.i];
        const char **target = NULL;
        if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
            fputs(usage, stdout);
            return VSG_EXIT_OK;
        }
        if (vsg_arg_is(&a, "-o") || vsg_arg_is(&a, "--output")) target = &out;
        else if (vsg_arg_is(&a, "--slice")) target = &slice;
        else if (vsg_arg_is(&a, "--range")) target = &range;
        else if (vsg_arg_is(&a, "--receptor")) target = &receptor;
        else if (vsg_arg_is(&a, "--scale")) target = &scale_s;
        else if (vsg_arg_is(&a, "--no-outline")) { no_outline = 1; continue; }
        else if (vsg_arg_is(&a, "--quiet")) { quiet = 1; continue; }
        if (target) {
            if (!(*target = vsg_arg_value(&a, "render"))) return VSG_EXIT_USAGE;
            continue;
        }
        if (arg[0] == '-' && arg[1]) return vsg_cli_usage_error("render", "unknown option %s", arg);
        if (grid_path) return vsg_cli_usage_error("render", "one grid only (got %s and %s)", grid_path, arg);
        grid_path = arg;
    }
    if (!grid_path) return vsg_cli_usage_error("render", "no grid given");
    if (!slice) return vsg_cli_usage_error("render", "no plane given: --slice x=V, y=V or z=V");
    if (!out) return vsg_cli_usage_error("render", "no output given: -o SLICE.png");
    if (receptor && no_outline) return vsg_cli_usage_error("render", "--receptor and --no-outline contradict each other");
    vsg_slice_options o;
    memset(&o, 0, sizeof o);
    double lim[2], sc;
    int axis;
    double pos;
    if (parse_slice(slice, NULL, &axis, &pos)) return VSG_EXIT_USAGE;   /* syntax before reading */
    if (range) {
        if (!vsg_parse_list(range, lim, 2)) return vsg_cli_usage_error("render", "--range: '%s' is not LO,HI", range);
        if (!(lim[0] < lim[1])) return vsg_cli_usage_error("render", "--range: LO %g must be below HI %g", lim[0], lim[1]);
        o.lo = lim[0], o.hi = lim[1];
    }
    if (scale_s) {
        if (!vsg_parse_number(scale_s, &sc) || sc != (int)sc || sc < 1 || sc > 64)
            return vsg_cli_usage_error("render", "--scale: '%s' is not a whole number in 1..64", scale_s);
        o.scale = (int)sc;
    }

    vsg_grid *g = NULL;
    vsg_molecule *mol = NULL;
    vsg_status st = vsg_grid_read(grid_path, &g);
    if (st != VSG_OK) return vsg_cli_fail(st);
    parse_slice(slice, g, &o.axis, &o.position);
    char found[2048];
    const char *outline_from = NULL;
    if (receptor) {
        st = vsg_outline_read(receptor, &mol);
        outline_from = receptor;
    } else if (!no_outline && (outline_from = default_receptor(g, grid_path, found, sizeof found))) {
        if (vsg_outline_read(outline_from, &mol) != VSG_OK) {
            vsg_warn("no outline: the grid's receptor %s could not be read (%s)", outline_from, vsg_last_error());
            outline_from = NULL;
        }
    }
    const char *base = strrchr(grid_path, '/');
    o.caption = base ? base + 1 : grid_path;
    o.outline = mol;
    vsg_slice_report r;
    if (st == VSG_OK) st = vsg_render_slice_png(out, g, &o, &r);
    int rc = VSG_EXIT_OK;
    if (st != VSG_OK) {
        rc = vsg_cli_fail(st);
    } else if (!quiet) {
        vsg_grid_shape sh;
        vsg_grid_shape_of(g, &sh);
        const char *q = vsg_units_quantity(sh.units);
        const char *how = range ? "--range"
                          : !strcmp(q, "potential") ? "2nd-98th percentile of the slice, symmetric about 0"
                          : r.lo < 0.0 ? "2nd percentile of the slice, symmetric about 0; repulsion clamped"
                                       : "2nd-98th percentile of the slice";
        fprintf(stderr, "vsgrid render: %s: %d x %d pixels, %c = %.3f Å, %s %.3g..%.3g %s, colours %.3g..%.3g (%s)\n",
                out, r.width, r.height, 'x' + o.axis, o.position, q, r.vmin, r.vmax, sh.units, r.lo, r.hi, how);
        if (outline_from)
            fprintf(stderr, "  outline: %s (%d atoms cut by the plane, %ld pixels)\n", outline_from, r.atoms_cut,
                    r.outline_pixels);
        else if (!no_outline)
            fprintf(stderr, "  no outline: the grid names no receptor that can be found (give --receptor FILE)\n");
    }
    vsg_molecule_free(mol);
    vsg_grid_free(g);
    return rc;
}
