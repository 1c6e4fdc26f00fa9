/* cli_render.c — `vsgrid render`: a PNG of one plane of a potential grid, with the
 * receptor's outline and, on request, a ligand's poses, for a quick look without PyMOL or
 * ChimeraX. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/cli/cli.h"
#include "engine/report/colormap.h"
#include "engine/report/draw_molecule.h"
#include "grids/base/vsgrid.h"

static const char usage[] =
    "usage: vsgrid render GRID --slice x=V|y=V|z=V -o SLICE.png [--range LO,HI]\n"
    "                     [--receptor FILE | --no-outline] [--scale N] [--quiet]\n"
    "                     [--ligand FILE [--poses K] [--record N] [--hydrogens]]\n"
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
    "  --slice A=V             the plane A = V Å, A one of x, y, z; V a number inside the grid,\n"
    "                          'center' (the grid's middle) or 'ligand' (through the centroid of\n"
    "                          the first --ligand's first pose, hydrogens left out unless\n"
    "                          --hydrogens). Required. The potential is\n"
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
    "  --ligand FILE           draw a ligand's poses over the map, projected onto the plane: SDF,\n"
    "                          MOL2, PDBQT (docking output: one pose a MODEL) or PDB, plain or\n"
    "                          .gz; up to 4 files (carbons dark grey, teal, purple, brown; the\n"
    "                          first on top). Bonds as lines (the file's; by distance for PDBQT\n"
    "                          and PDB without CONECT), atoms as discs by element: N blue, O red,\n"
    "                          S yellow, P orange, F/Cl/Br/I green, H light grey, others pink; a\n"
    "                          thin white halo keeps them readable over red and blue. Depth:\n"
    "                          atoms and bonds within 1.5 Å of the plane are opaque, fading\n"
    "                          linearly to 25 % opacity (the map shows through) at 6 Å and\n"
    "                          beyond. Poses after the first: thinner lines, open rings, 60 % of\n"
    "                          that opacity, under the first. A legend line under the picture\n"
    "                          names each file and its poses; one more keys the element colours.\n"
    "                          When no atom falls inside the picture: a warning, the map is drawn\n"
    "  --poses K               draw K poses (records, MODELs) of each file, 1..100 (default 1;\n"
    "                          fewer when the file ends first)\n"
    "  --record N              start at record N of each file, 1-based (default 1)\n"
    "  --hydrogens             draw hydrogens too (default: heavy atoms only)\n"
    "\n"
    "Exit codes: 0 ok, 2 usage (bad option, plane outside the grid), 3 bad input (missing or\n"
    "malformed grid, receptor or ligand), 4 memory limit.\n";

#define MAX_LIGAND_FILES 4
#define MAX_POSES 100

/* The poses of one --ligand file. */
typedef struct {
    const char *path;
    vsg_ligand *poses;   /* cap records, each initialised; nposes of them read */
    int cap, nposes;
    int in_view;   /* drawn atoms inside the picture */
} ligand_file;

/* "z=12.5" | "x=center" | "y=ligand" → axis and position (ligand: of centroid, NULL while
 * only the syntax is checked). 0 on success, else the usage exit code. */
static int parse_slice(const char *s, const vsg_grid *g, const double *centroid, int *axis, double *pos)
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
    if (!strcmp(eq + 1, "ligand")) {
        *pos = centroid ? centroid[*axis] : 0.0;
        return 0;
    }
    if (!vsg_parse_number(eq + 1, pos))
        return vsg_cli_usage_error("render", "--slice: '%s' is not a number (or 'center', 'ligand')", eq + 1);
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

/* Reads records first .. first + count − 1 (1-based) of lf->path. Returns 0, or the exit code
 * after a message naming the file: a record that cannot be read (an unreadable file is one),
 * fewer than `first` records. */
static int read_poses(ligand_file *lf, long first, int count)
{
    vsg_ligand_reader_options ro = {.format = VSG_LIG_AUTO, .keep_text = 0, .max_atoms = 0};
    vsg_ligand_reader *rd = NULL;
    vsg_ligand skip;
    vsg_ligand_init(&skip);
    if (!(lf->poses = calloc((size_t)count, sizeof *lf->poses))) return vsg_cli_fail(vsg_fail(VSG_E_NOMEM, "out of memory"));
    for (lf->cap = 0; lf->cap < count; lf->cap++) vsg_ligand_init(&lf->poses[lf->cap]);
    vsg_status st = vsg_ligand_reader_open(&lf->path, 1, &ro, &rd);
    if (st != VSG_OK) {   /* a file of no known format is bad input here, not bad usage */
        int code = vsg_cli_fail(st);
        return st == VSG_E_ARG ? VSG_EXIT_INPUT : code;
    }
    long records = 0;
    int rc = 0;
    while (lf->nposes < count) {
        vsg_ligand *lig = records + 1 >= first ? &lf->poses[lf->nposes] : &skip;
        if (vsg_ligand_reader_next(rd, lig) != 1) break;
        records++;
        if (lig != &skip) lf->nposes++;
        if (lig->status != VSG_OK && lig != &skip) {
            fprintf(stderr, "vsgrid render: --ligand %s: %s\n", lf->path, lig->message);
            rc = vsg_cli_exit_code(lig->status);
            break;
        }
    }
    if (!rc && lf->nposes == 0) {
        fprintf(stderr, "vsgrid render: --ligand %s: %s\n", lf->path,
                records ? "fewer records than --record asks for" : "no record");
        rc = VSG_EXIT_INPUT;
    }
    vsg_ligand_release(&skip);
    vsg_ligand_reader_close(rd);
    return rc;
}

/* Centroid of a pose's drawn atoms (heavy atoms unless hydrogens); 0 when none. */
static int pose_centroid(const vsg_ligand *lig, int hydrogens, double c[3])
{
    int n = 0;
    c[0] = c[1] = c[2] = 0.0;
    for (int k = 0; k < lig->natoms; k++) {
        const vsg_lig_atom *a = &lig->atoms[k];
        if (!hydrogens && (!strcmp(a->element, "H") || !strcmp(a->element, "D"))) continue;
        c[0] += a->x, c[1] += a->y, c[2] += a->z, n++;
    }
    for (int d = 0; n && d < 3; d++) c[d] /= n;
    return n;
}

/* Draws the poses over the picture, then the legend under it. */
static vsg_status draw_ligands(uint8_t **rgb, vsg_slice_report *r, const vsg_grid *g, const vsg_slice_options *o,
                               ligand_file *lf, int nfiles, long first, int hydrogens)
{
    vsg_slice_frame f;
    f.axis = o->axis, f.position = o->position, f.report = *r;
    vsg_grid_shape_of(g, &f.shape);
    char text[MAX_LIGAND_FILES][1100];
    const char *lines[MAX_LIGAND_FILES];
    int styles[MAX_LIGAND_FILES];
    for (int k = nfiles - 1; k >= 0; k--) {   /* the first file last, on top */
        lf[k].in_view = vsg_draw_poses(*rgb, &f, lf[k].poses, lf[k].nposes, hydrogens, k);
        if (lf[k].in_view < 0) return vsg_fail(VSG_E_NOMEM, "render: out of memory drawing %s", lf[k].path);
        const char *base = strrchr(lf[k].path, '/');
        int n = lf[k].nposes;
        if (n == 1) snprintf(text[k], sizeof text[k], "%s: record %ld", base ? base + 1 : lf[k].path, first);
        else snprintf(text[k], sizeof text[k], "%s: %d poses (records %ld-%ld), first solid", base ? base + 1 : lf[k].path,
                      n, first, first + n - 1);
        lines[k] = text[k], styles[k] = k;
    }
    return vsg_slice_add_legend(rgb, r, lines, styles, nfiles);
}

int vsg_cmd_render(int argc, char **argv)
{
    const char *grid_path = NULL, *out = NULL, *slice = NULL, *range = NULL, *receptor = NULL, *scale_s = NULL;
    const char *poses_s = NULL, *record_s = NULL, *ligand_paths[MAX_LIGAND_FILES];
    int no_outline = 0, quiet = 0, hydrogens = 0, nligands = 0;
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
        else if (vsg_arg_is(&a, "--poses")) target = &poses_s;
        else if (vsg_arg_is(&a, "--record")) target = &record_s;
        else if (vsg_arg_is(&a, "--hydrogens")) { hydrogens = 1; continue; }
        else if (vsg_arg_is(&a, "--ligand")) {
            if (nligands == MAX_LIGAND_FILES) return vsg_cli_usage_error("render", "at most %d --ligand files", MAX_LIGAND_FILES);
            if (!(ligand_paths[nligands++] = vsg_arg_value(&a, "render"))) return VSG_EXIT_USAGE;
            continue;
        }
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
    if (parse_slice(slice, NULL, NULL, &axis, &pos)) return VSG_EXIT_USAGE;   /* syntax before reading */
    if (strstr(slice, "=ligand") && !nligands) return vsg_cli_usage_error("render", "--slice %s needs --ligand FILE", slice);
    double count = 1, first = 1;
    if (poses_s && (!vsg_parse_number(poses_s, &count) || count != (int)count || count < 1 || count > MAX_POSES))
        return vsg_cli_usage_error("render", "--poses: '%s' is not a whole number in 1..%d", poses_s, MAX_POSES);
    if (record_s && (!vsg_parse_number(record_s, &first) || first != (long)first || first < 1 || first > 1e9))
        return vsg_cli_usage_error("render", "--record: '%s' is not a record number (1, 2, ...)", record_s);
    if ((poses_s || record_s || hydrogens) && !nligands)
        return vsg_cli_usage_error("render", "--poses, --record and --hydrogens need --ligand FILE");
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
    ligand_file lf[MAX_LIGAND_FILES];
    memset(lf, 0, sizeof lf);
    int rc = VSG_EXIT_OK;
    double centroid[3] = {0, 0, 0};
    vsg_status st = vsg_grid_read(grid_path, &g);
    if (st != VSG_OK) return vsg_cli_fail(st);
    for (int k = 0; k < nligands && !rc; k++) {
        lf[k].path = ligand_paths[k];
        rc = read_poses(&lf[k], (long)first, (int)count);
    }
    if (rc) goto done;
    if (nligands && !pose_centroid(&lf[0].poses[0], hydrogens, centroid) && strstr(slice, "=ligand")) {
        rc = vsg_cli_usage_error("render", "--slice %s: %s record %ld has no atoms to centre on", slice, lf[0].path,
                                 (long)first);
        goto done;
    }
    parse_slice(slice, g, centroid, &o.axis, &o.position);
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
    if (st == VSG_OK && !nligands) {
        st = vsg_render_slice_png(out, g, &o, &r);
    } else if (st == VSG_OK) {
        uint8_t *rgb = NULL;
        st = vsg_render_slice_rgb(g, &o, &rgb, &r);
        if (st == VSG_OK) st = draw_ligands(&rgb, &r, g, &o, lf, nligands, (long)first, hydrogens);
        if (st == VSG_OK) st = vsg_png_write_rgb(out, rgb, r.width, r.height);
        free(rgb);
    }
    for (int k = 0; st == VSG_OK && k < nligands; k++)
        if (lf[k].in_view == 0)
            vsg_warn("render: no atom of %s (%d pose%s) lies within the picture: the plane %c = %.3f Å shows none of it",
                     lf[k].path, lf[k].nposes, lf[k].nposes == 1 ? "" : "s", 'x' + o.axis, o.position);
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
        for (int k = 0; k < nligands; k++) {
            double c[3];
            int atoms = pose_centroid(&lf[k].poses[0], hydrogens, c);
            fprintf(stderr, "  ligand: %s: %d pose%s from record %ld, %d atoms drawn in view; first pose %d atoms, "
                    "centroid %.3f %.3f %.3f Å\n", lf[k].path, lf[k].nposes, lf[k].nposes == 1 ? "" : "s", (long)first,
                    lf[k].in_view, atoms, c[0], c[1], c[2]);
        }
    }
done:
    for (int k = 0; k < nligands; k++) {
        for (int p = 0; p < lf[k].cap; p++) vsg_ligand_release(&lf[k].poses[p]);
        free(lf[k].poses);
    }
    vsg_molecule_free(mol);
    vsg_grid_free(g);
    return rc;
}
