/* autogrid_maps.c — AutoGrid4 .map / .maps.fld / .maps.xyz / .gpf (declared in vsgrid.h).
 *
 * The layouts follow autogrid4 4.2.6 (AutoGrid main.cpp rev 1.109): a map is six header lines
 * (GRID_PARAMETER_FILE, GRID_DATA_FILE, MACROMOLECULE, "SPACING %.3f", "NELEMENTS %d %d %d",
 * "CENTER %.3f %.3f %.3f") and then (nx+1)(ny+1)(nz+1) values, one per line, x fastest, each
 * printed as "%.3f" of (float)round3dp(v), or "0." when |v| < 1e-4 (PRECISION). The
 * rounding is round3dp as built without HAVE_ROUND, floor(v·1000 + 0.5)/1000 (Debian's
 * autogrid4 prints "0.000", not "-0.000", for v in (−0.0005, −0.0001]). The
 * AVS field file has the same geometry in comments plus dim/veclen/coord/label/variable lines;
 * the .xyz file holds "min max" (%.3f) per axis. gpf keywords are parsed as AutoGrid does:
 * the first word of a line, '#' starts a comment, odd npts are rounded down to even, npts
 * above MAX_GRID_PTS (1025) are capped. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grids/formats/grid.h"
#include "grids/base/vsgrid.h"
#include "grids/base/textio.h"
#include "grids/formats/value_text.h"

#define AG_MAX_GRID_PTS 1025   /* autogrid4 4.2.6 --version: MAX_GRID_PTS */
#define MAX_TOKENS (VSG_AG_MAX_MAPS + 8)

/* ---- small helpers ------------------------------------------------------------------- */

typedef struct {
    int n;
    const char *s[MAX_TOKENS];
    size_t len[MAX_TOKENS];
} tokens;

/* Splits [line, line+len) at blanks; stops at '#' when hash_comment. Extra tokens are counted
 * (n may exceed MAX_TOKENS) but not stored. */
static void split(const char *line, size_t len, int hash_comment, tokens *t)
{
    size_t i = 0;
    t->n = 0;
    while (i < len) {
        while (i < len && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) i++;
        if (i >= len || (hash_comment && line[i] == '#')) break;
        size_t b = i;
        while (i < len && line[i] != ' ' && line[i] != '\t' && line[i] != '\r' && !(hash_comment && line[i] == '#'))
            i++;
        if (t->n < MAX_TOKENS) {
            t->s[t->n] = line + b;
            t->len[t->n] = i - b;
        }
        t->n++;
    }
}

static int tok_is(const tokens *t, int i, const char *word)
{
    return i < t->n && i < MAX_TOKENS && t->len[i] == strlen(word) && !memcmp(t->s[i], word, t->len[i]);
}

static int tok_int(const tokens *t, int i, int *out)
{
    if (i >= t->n || i >= MAX_TOKENS || t->len[i] > 10) return 0;
    return vsg_parse_int(t->s[i], t->len[i], out);
}

static int tok_double(const tokens *t, int i, double *out)
{
    if (i >= t->n || i >= MAX_TOKENS) return 0;
    return vsg_parse_double(t->s[i], t->len[i], out);
}

/* Copies token i into dst; 0 when it does not fit or is missing. */
static int tok_copy(const tokens *t, int i, char *dst, size_t cap)
{
    if (i >= t->n || i >= MAX_TOKENS || t->len[i] + 1 > cap) return 0;
    memcpy(dst, t->s[i], t->len[i]);
    dst[t->len[i]] = '\0';
    return 1;
}

/* Copies the rest of the line from token i on (a file name may hold blanks), trimmed. */
static int rest_copy(const tokens *t, int i, const char *line, size_t len, char *dst, size_t cap)
{
    if (i >= t->n || i >= MAX_TOKENS) return 0;
    size_t b = (size_t)(t->s[i] - line), e = len;
    while (e > b && (line[e - 1] == ' ' || line[e - 1] == '\t' || line[e - 1] == '\r')) e--;
    if (e - b + 1 > cap) return 0;
    memcpy(dst, line + b, e - b);
    dst[e - b] = '\0';
    return 1;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && !strcmp(s + a - b, suffix);
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* ---- gpf ----------------------------------------------------------------------------- */

/* FE_coeff_estat from an AutoDock parameter file, if it sets one. AutoGrid opens the file as
 * written (relative to its working directory); next to the gpf is tried second. */
static vsg_status read_estat(const char *gpf, int gpf_line, const char *name, vsg_gpf *out)
{
    char path[2 * VSG_AG_PATH];
    snprintf(path, sizeof path, "%s", name);
    FILE *f = fopen(path, "r");
    const char *slash = strrchr(gpf, '/');
    if (!f && name[0] != '/' && slash) {
        snprintf(path, sizeof path, "%.*s/%s", (int)(slash - gpf), gpf, name);
        f = fopen(path, "r");
    }
    if (!f) return vsg_fail(VSG_E_IO, "%s:%d: cannot open parameter_file '%s'", gpf, gpf_line, name);
    fclose(f);
    vsg_lines *r = NULL;
    vsg_status st = vsg_lines_open(path, &r);
    if (st != VSG_OK) return st;
    char *line;
    size_t len;
    int rc = 0;
    while ((rc = vsg_lines_next(r, &line, &len)) == 1) {
        tokens t;
        split(line, len, 1, &t);
        if (!tok_is(&t, 0, "FE_coeff_estat")) continue;
        double v;
        if (!tok_double(&t, 1, &v) || !(v > 0.0)) {
            st = vsg_fail(VSG_E_FORMAT, "%s:%d: bad FE_coeff_estat value", path, vsg_lines_number(r));
            break;
        }
        out->have_estat = 1;
        out->estat_coeff = v;
    }
    if (st == VSG_OK && rc < 0) st = (vsg_status)rc;
    vsg_lines_close(r);
    if (st == VSG_OK && strlen(path) >= sizeof out->parameter_file)
        st = vsg_fail(VSG_E_FORMAT, "%s:%d: parameter_file path too long", gpf, gpf_line);
    if (st == VSG_OK) snprintf(out->parameter_file, sizeof out->parameter_file, "%s", path);
    return st;
}

/* A list of AutoDock types (receptor_types, ligand_types): tokens 1.. of t. */
static vsg_status read_types(const char *path, int ln, const tokens *t, char (*dst)[4], int *n, int unique)
{
    *n = 0;
    if (t->n < 2) return vsg_fail(VSG_E_FORMAT, "%s:%d: %.*s needs at least one atom type", path, ln, (int)t->len[0], t->s[0]);
    if (t->n - 1 > VSG_AG_MAX_MAPS)
        return vsg_fail(VSG_E_FORMAT, "%s:%d: more than %d atom types", path, ln, VSG_AG_MAX_MAPS);
    for (int i = 1; i < t->n; i++) {
        if (!tok_copy(t, i, dst[*n], 4))
            return vsg_fail(VSG_E_FORMAT, "%s:%d: atom type '%.*s' is longer than 3 characters", path, ln,
                            (int)(t->len[i] > 20 ? 20 : t->len[i]), t->s[i]);
        for (int j = 0; unique && j < *n; j++)
            if (!strcmp(dst[j], dst[*n]))
                return vsg_fail(VSG_E_FORMAT, "%s:%d: atom type '%s' is listed twice", path, ln, dst[*n]);
        (*n)++;
    }
    return VSG_OK;
}

/* gpf keywords autogrid4 4.2.6 knows that vsgrid does not implement, and why they matter. */
static const char *const unsupported_kw[][2] = {
    {"covalentmap", "covalent maps are not implemented: make them with autogrid4"},
    {"nbp_r_eps", "pair parameter overrides are not implemented: put the types' values in a parameter_file"},
    {"nbp_coeffs", "pair coefficient overrides are not implemented: put the types' values in a parameter_file"},
    {"disorder_h", "disordered hydroxyl hydrogens are not implemented: remove the line"},
    {"fmap", "the floating grid is not implemented: remove the line"},
    {"sol_par", "sol_par (obsolete) is not implemented: put vol and solpar in a parameter_file"},
    {"use_vina_potential", "AutoGrid's Vina potential is not implemented: remove the line (vsgrid maps --vina)"},
    {"types", "the old 'types' keyword is not implemented: write ligand_types"},
};

vsg_status vsg_gpf_read(const char *path, vsg_gpf *out)
{
    if (!path || !out) return vsg_fail(VSG_E_ARG, "gpf: NULL argument");
    memset(out, 0, sizeof *out);
    out->spacing = 0.375; /* AutoGrid's default: a quarter of a C–C bond */
    out->smooth = 0.5;    /* AutoGrid's r_smooth default */
    out->qasp = 0.01097;  /* AutoGrid's solpar_q default */
    int seen_types = 0;   /* a receptor or ligand_types line came before parameter_file */
    vsg_lines *r = NULL;
    vsg_status st = vsg_lines_open(path, &r);
    if (st != VSG_OK) return st;
    char *line;
    size_t len;
    int rc = 0, ln = 0;
    while (st == VSG_OK && (rc = vsg_lines_next(r, &line, &len)) == 1) {
        ln = vsg_lines_number(r);
        tokens t;
        split(line, len, 1, &t);
        if (t.n == 0) continue;
        if (tok_is(&t, 0, "npts")) {
            for (int d = 0; d < 3 && st == VSG_OK; d++) {
                int v;
                if (!tok_int(&t, 1 + d, &v) || v < 0)
                    st = vsg_fail(VSG_E_FORMAT, "%s:%d: npts needs three counts >= 0", path, ln);
                else {
                    if (v > AG_MAX_GRID_PTS) {
                        vsg_warn("%s:%d: npts %d along %c above AutoGrid's maximum %d: using %d", path, ln, v,
                                 "xyz"[d], AG_MAX_GRID_PTS, AG_MAX_GRID_PTS - 1);
                        v = AG_MAX_GRID_PTS;
                    }
                    if (v % 2) {
                        vsg_warn("%s:%d: npts must be even: %c-elements changed from %d to %d (as AutoGrid)", path,
                                 ln, "xyz"[d], v, v - 1);
                        v -= 1;
                    }
                    out->npts[d] = v;
                }
            }
            if (st == VSG_OK && t.n > 4) st = vsg_fail(VSG_E_FORMAT, "%s:%d: npts takes three counts", path, ln);
            out->have_npts = 1;
        } else if (tok_is(&t, 0, "spacing")) {
            if (!tok_double(&t, 1, &out->spacing) || !(out->spacing > 0.0) || t.n > 2)
                st = vsg_fail(VSG_E_FORMAT, "%s:%d: spacing needs one value > 0 Å", path, ln);
        } else if (tok_is(&t, 0, "gridcenter")) {
            if (tok_is(&t, 1, "auto") && t.n == 2) {
                out->center_auto = 1;
                out->have_center = 0;
            } else {
                for (int d = 0; d < 3 && st == VSG_OK; d++)
                    if (!tok_double(&t, 1 + d, &out->center[d]))
                        st = vsg_fail(VSG_E_FORMAT, "%s:%d: gridcenter needs 'auto' or three coordinates", path, ln);
                if (st == VSG_OK && t.n != 4)
                    st = vsg_fail(VSG_E_FORMAT, "%s:%d: gridcenter needs 'auto' or three coordinates", path, ln);
                out->have_center = 1;
                out->center_auto = 0;
            }
        } else if (tok_is(&t, 0, "receptor") || tok_is(&t, 0, "gridfld") || tok_is(&t, 0, "elecmap") ||
                   tok_is(&t, 0, "dsolvmap") || tok_is(&t, 0, "desolvmap")) {
            char *dst = tok_is(&t, 0, "receptor") ? out->receptor
                        : tok_is(&t, 0, "gridfld") ? out->gridfld
                        : tok_is(&t, 0, "elecmap") ? out->elecmap
                                                   : out->dsolvmap;
            if (tok_is(&t, 0, "receptor")) seen_types = 1;
            if (!tok_copy(&t, 1, dst, VSG_AG_PATH))
                st = vsg_fail(VSG_E_FORMAT, "%s:%d: missing or too long file name", path, ln);
        } else if (tok_is(&t, 0, "map")) {
            if (out->n_maps >= VSG_AG_MAX_MAPS)
                st = vsg_fail(VSG_E_FORMAT, "%s:%d: more than %d map lines", path, ln, VSG_AG_MAX_MAPS);
            else if (!tok_copy(&t, 1, out->maps[out->n_maps], VSG_AG_PATH))
                st = vsg_fail(VSG_E_FORMAT, "%s:%d: missing or too long map file name", path, ln);
            else
                out->n_maps++;
        } else if (tok_is(&t, 0, "ligand_types")) {
            seen_types = 1;
            st = read_types(path, ln, &t, out->ligand_types, &out->n_ligand_types, 1);
        } else if (tok_is(&t, 0, "receptor_types")) {
            st = read_types(path, ln, &t, out->receptor_types, &out->n_receptor_types, 0);
        } else if (tok_is(&t, 0, "smooth") || tok_is(&t, 0, "qasp")) {
            double *dst = tok_is(&t, 0, "smooth") ? &out->smooth : &out->qasp;
            if (!tok_double(&t, 1, dst) || !(*dst >= 0.0) || t.n > 2)
                st = vsg_fail(VSG_E_FORMAT, "%s:%d: %.*s needs one number >= 0", path, ln, (int)t.len[0], t.s[0]);
        } else if (tok_is(&t, 0, "outlev")) {
            int v;
            if (!tok_int(&t, 1, &v)) st = vsg_fail(VSG_E_FORMAT, "%s:%d: outlev needs an integer", path, ln);
        } else if (tok_is(&t, 0, "constant")) {
            vsg_warn("%s:%d: 'constant' is obsolete and ignored (as autogrid4 4.2.6 does)", path, ln);
        } else if (tok_is(&t, 0, "dielectric")) {
            if (!tok_double(&t, 1, &out->dielectric) || t.n > 2)
                st = vsg_fail(VSG_E_FORMAT, "%s:%d: dielectric needs one number", path, ln);
            out->have_dielectric = 1;
        } else if (tok_is(&t, 0, "parameter_file")) {
            char name[VSG_AG_PATH];
            if (!tok_copy(&t, 1, name, sizeof name))
                st = vsg_fail(VSG_E_FORMAT, "%s:%d: missing or too long parameter_file name", path, ln);
            else if (seen_types)
                st = vsg_fail(VSG_E_UNSUPPORTED,
                              "%s:%d: parameter_file after receptor or ligand_types (autogrid4 would use two parameter "
                              "sets): move it to the top of the gpf",
                              path, ln);
            else
                st = read_estat(path, ln, name, out);
        } else {
            const char *why = NULL;
            for (size_t k = 0; k < sizeof unsupported_kw / sizeof unsupported_kw[0]; k++)
                if (tok_is(&t, 0, unsupported_kw[k][0])) why = unsupported_kw[k][1];
            if (why)
                st = vsg_fail(VSG_E_UNSUPPORTED, "%s:%d: %.*s: %s", path, ln, (int)t.len[0], t.s[0], why);
            else
                st = vsg_fail(VSG_E_FORMAT, "%s:%d: unknown gpf keyword '%.*s' (docs/FORMATS.md lists those read)", path,
                              ln, (int)(t.len[0] > 40 ? 40 : t.len[0]), t.s[0]);
        }
    }
    if (st == VSG_OK && rc < 0) st = (vsg_status)rc;
    vsg_lines_close(r);
    if (st != VSG_OK) return st;
    if (!out->have_npts) return vsg_fail(VSG_E_FORMAT, "%s: no npts line (the number of grid points)", path);
    if (!out->have_center && !out->center_auto) return vsg_fail(VSG_E_FORMAT, "%s: no gridcenter line", path);
    return VSG_OK;
}

/* ---- .map ---------------------------------------------------------------------------- */

/* Checks that g is an AutoGrid grid (odd counts, one spacing) and returns NELEMENTS, centre. */
static vsg_status ag_geometry(const vsg_grid *g, const char *path, int npts[3], double center[3])
{
    double h = g->spacing[0];
    for (int d = 0; d < 3; d++) {
        if (g->n[d] < 1 || g->n[d] % 2 == 0)
            return vsg_fail(VSG_E_ARG, "%s: AutoGrid maps need an odd number of points per axis (%d along %c)", path,
                            g->n[d], "xyz"[d]);
        if (fabs(g->spacing[d] - h) > 1e-9 * h)
            return vsg_fail(VSG_E_ARG, "%s: AutoGrid maps need one spacing on all axes", path);
        npts[d] = g->n[d] - 1;
        center[d] = g->origin[d] + 0.5 * npts[d] * h;
    }
    return VSG_OK;
}

vsg_status vsg_autogrid_map_write(const vsg_grid *g, const char *path, const vsg_autogrid_header *h)
{
    if (!g || !g->data || !path) return vsg_fail(VSG_E_ARG, "map: NULL argument");
    if (ends_with(path, ".gz")) return vsg_fail(VSG_E_ARG, "%s: AutoGrid maps are written as plain text", path);
    int npts[3];
    double c[3];
    vsg_status st = ag_geometry(g, path, npts, c);
    if (st != VSG_OK) return st;
    size_t n = vsg_grid_nodes(g);
    for (size_t i = 0; i < n; i++)
        if (!isfinite(g->data[i])) return vsg_fail(VSG_E_DATA, "%s: grid value %zu is not finite", path, i);
    FILE *f = fopen(path, "w");
    if (!f) return vsg_fail(VSG_E_IO, "%s: cannot create", path);
    const char *gpf = h && h->gpf ? h->gpf : "none";
    const char *fld = h && h->fld ? h->fld : "none";
    const char *mm = h && h->macromolecule ? h->macromolecule : "none";
    int bad = fprintf(f, "GRID_PARAMETER_FILE %s\nGRID_DATA_FILE %s\nMACROMOLECULE %s\nSPACING %.3f\n"
                         "NELEMENTS %d %d %d\nCENTER %.3f %.3f %.3f\n",
                      gpf, fld, mm, g->spacing[0], npts[0], npts[1], npts[2], c[0], c[1], c[2]) < 0;
    if (!bad) bad = vsg_text_write_values(f, g->data, (size_t)g->n[0] * (size_t)g->n[1], g->n[2], VSG_TEXT_AUTOGRID) != 0;
    if (fclose(f) != 0 || bad) return vsg_fail(VSG_E_IO, "%s: write error", path);
    return VSG_OK;
}

vsg_status vsg_autogrid_maps_write(const vsg_grid *const *g, const char *const *paths, int n,
                                   const vsg_autogrid_header *h)
{
    if (!g || !paths || n < 0) return vsg_fail(VSG_E_ARG, "maps: NULL argument");
    /* One map a thread (the formatting inside each then runs on that thread): the files are
     * written side by side, which a pocket's set of 15 small maps needs more than a faster
     * formatter (docs/PERFORMANCE.md). Each worker's message is carried back to the caller. */
    vsg_status *st = malloc(sizeof *st * (size_t)(n ? n : 1));
    char (*msg)[256] = malloc(sizeof *msg * (size_t)(n ? n : 1));
    if (!st || !msg) {
        free(st), free(msg);
        for (int i = 0; i < n; i++) {
            vsg_status s1 = vsg_autogrid_map_write(g[i], paths[i], h);
            if (s1 != VSG_OK) return s1;
        }
        return VSG_OK;
    }
#pragma omp parallel for schedule(dynamic, 1)
    for (int i = 0; i < n; i++) {
        st[i] = vsg_autogrid_map_write(g[i], paths[i], h);
        snprintf(msg[i], sizeof msg[i], "%s", st[i] == VSG_OK ? "" : vsg_last_error());
    }
    vsg_status out = VSG_OK;
    for (int i = 0; i < n && out == VSG_OK; i++)
        if (st[i] != VSG_OK) out = vsg_fail(st[i], "%s", msg[i]);
    free(st), free(msg);
    return out;
}

vsg_status vsg_autogrid_map_read(const char *path, vsg_grid **out)
{
    if (!path || !out) return vsg_fail(VSG_E_ARG, "map: NULL argument");
    *out = NULL;
    vsg_lines *r = NULL;
    vsg_status st = vsg_lines_open(path, &r);
    if (st != VSG_OK) return st;
    char gpf[VSG_AG_PATH] = "", fld[VSG_AG_PATH] = "", mm[VSG_AG_PATH] = "";
    int npts[3] = {0, 0, 0}, have_sp = 0, have_ne = 0, have_c = 0, blank_after = 0, rc = 0, ln = 0;
    double h = 0.0, c[3] = {0, 0, 0};
    vsg_grid *g = NULL;
    size_t count = 0, expected = 0;
    char *line;
    size_t len;
    while (st == VSG_OK && (rc = vsg_lines_next(r, &line, &len)) == 1) {
        ln = vsg_lines_number(r);
        tokens t;
        split(line, len, 0, &t);
        if (!g) { /* header */
            if (t.n == 0) continue;
            int seen = 0;
            if (tok_is(&t, 0, "GRID_PARAMETER_FILE")) seen = 1, rest_copy(&t, 1, line, len, gpf, sizeof gpf);
            else if (tok_is(&t, 0, "GRID_DATA_FILE")) seen = 1, rest_copy(&t, 1, line, len, fld, sizeof fld);
            else if (tok_is(&t, 0, "MACROMOLECULE")) seen = 1, rest_copy(&t, 1, line, len, mm, sizeof mm);
            else if (tok_is(&t, 0, "SPACING")) {
                seen = 1;
                if (have_sp++ || !tok_double(&t, 1, &h) || !(h > 0.0) || t.n != 2)
                    st = vsg_fail(VSG_E_FORMAT, "%s:%d: bad or repeated SPACING line", path, ln);
            } else if (tok_is(&t, 0, "NELEMENTS")) {
                seen = 1;
                if (have_ne++ || t.n != 4) st = vsg_fail(VSG_E_FORMAT, "%s:%d: bad or repeated NELEMENTS line", path, ln);
                for (int d = 0; d < 3 && st == VSG_OK; d++)
                    if (!tok_int(&t, 1 + d, &npts[d]) || npts[d] < 0 || npts[d] % 2 || npts[d] > 100000)
                        st = vsg_fail(VSG_E_FORMAT, "%s:%d: NELEMENTS needs three even counts >= 0", path, ln);
            } else if (tok_is(&t, 0, "CENTER")) {
                seen = 1;
                if (have_c++ || t.n != 4) st = vsg_fail(VSG_E_FORMAT, "%s:%d: bad or repeated CENTER line", path, ln);
                for (int d = 0; d < 3 && st == VSG_OK; d++)
                    if (!tok_double(&t, 1 + d, &c[d])) st = vsg_fail(VSG_E_FORMAT, "%s:%d: bad CENTER coordinate", path, ln);
            }
            if (st != VSG_OK || seen) continue;
            /* first value: the header must be complete */
            double v;
            if (t.n != 1 || !tok_double(&t, 0, &v)) {
                st = vsg_fail(VSG_E_FORMAT, "%s:%d: unexpected line in the map header: '%.*s'", path, ln,
                              (int)(len > 60 ? 60 : len), line);
                break;
            }
            if (!have_sp || !have_ne || !have_c) {
                st = vsg_fail(VSG_E_FORMAT, "%s:%d: map data before the SPACING, NELEMENTS and CENTER lines", path, ln);
                break;
            }
            int n[3] = {npts[0] + 1, npts[1] + 1, npts[2] + 1};
            double org[3], sp[3] = {h, h, h};
            for (int d = 0; d < 3; d++) org[d] = c[d] - 0.5 * npts[d] * h;
            int efile = ends_with(path, ".e.map") || ends_with(path, ".e.map.gz");
            g = vsg_grid_new(n, org, sp, efile ? "kcal/mol/e" : "kcal/mol");
            if (!g) {
                st = vsg_fail(VSG_E_NOMEM, "%s: cannot allocate a %d x %d x %d map", path, n[0], n[1], n[2]);
                break;
            }
            expected = vsg_grid_nodes(g);
            if (fabs(v) > 3.0e38) {
                st = vsg_fail(VSG_E_FORMAT, "%s:%d: map value %g does not fit a float", path, ln, v);
                break;
            }
            g->data[count++] = (float)v;
            continue;
        }
        /* data */
        if (t.n == 0) {
            blank_after = ln;
            continue;
        }
        double v;
        if (t.n != 1 || !tok_double(&t, 0, &v)) {
            st = vsg_fail(VSG_E_FORMAT, "%s:%d: bad map value '%.*s'", path, ln, (int)(len > 40 ? 40 : len), line);
        } else if (blank_after) {
            st = vsg_fail(VSG_E_FORMAT, "%s:%d: blank line inside the map data", path, blank_after);
        } else if (count >= expected) {
            st = vsg_fail(VSG_E_FORMAT, "%s:%d: more values than NELEMENTS %d %d %d allows (%zu)", path, ln, npts[0],
                          npts[1], npts[2], expected);
        } else if (fabs(v) > 3.0e38) {
            st = vsg_fail(VSG_E_FORMAT, "%s:%d: map value %g does not fit a float", path, ln, v);
        } else {
            g->data[count++] = (float)v;
        }
    }
    if (st == VSG_OK && rc < 0) st = (vsg_status)rc;
    ln = vsg_lines_number(r);
    vsg_lines_close(r);
    if (st == VSG_OK && !g) {
        if (!have_sp || !have_ne || !have_c)
            st = vsg_fail(VSG_E_FORMAT, "%s:%d: not an AutoGrid map (no SPACING, NELEMENTS and CENTER header)", path, ln);
        else
            st = vsg_fail(VSG_E_FORMAT, "%s:%d: truncated map: no values after the header", path, ln);
    }
    if (st == VSG_OK && count != expected)
        st = vsg_fail(VSG_E_FORMAT, "%s:%d: truncated map: %zu of %zu values (NELEMENTS %d %d %d)", path, ln, count,
                      expected, npts[0], npts[1], npts[2]);
    if (st == VSG_OK) {
        st = vsg_grid_meta_add(g, "format", "autogrid map");
        if (st == VSG_OK && gpf[0]) st = vsg_grid_meta_add(g, "autogrid_gpf", "%s", gpf);
        if (st == VSG_OK && fld[0]) st = vsg_grid_meta_add(g, "autogrid_fld", "%s", fld);
        if (st == VSG_OK && mm[0]) st = vsg_grid_meta_add(g, "autogrid_macromolecule", "%s", mm);
        if (st == VSG_OK) st = vsg_grid_meta_add(g, "autogrid_center", "%.6f %.6f %.6f", c[0], c[1], c[2]);
    }
    if (st != VSG_OK) {
        vsg_grid_free(g);
        return st;
    }
    *out = g;
    return VSG_OK;
}

/* ---- .maps.fld / .maps.xyz ------------------------------------------------------------- */

static void label_of(const char *type, char *buf, size_t cap)
{
    if (!strcmp(type, "e")) snprintf(buf, cap, "Electrostatics");
    else if (!strcmp(type, "d")) snprintf(buf, cap, "Desolvation");
    else snprintf(buf, cap, "%s-affinity", type);
}

vsg_status vsg_autogrid_fld_write(const char *path, const vsg_fld *f)
{
    if (!path || !f) return vsg_fail(VSG_E_ARG, "fld: NULL argument");
    if (!ends_with(path, ".fld")) return vsg_fail(VSG_E_ARG, "%s: the grid data file needs the extension .fld", path);
    if (f->n_maps < 1 || f->n_maps > VSG_AG_MAX_MAPS)
        return vsg_fail(VSG_E_ARG, "%s: %d maps (need 1 to %d)", path, f->n_maps, VSG_AG_MAX_MAPS);
    if (!(f->spacing > 0.0)) return vsg_fail(VSG_E_ARG, "%s: spacing must be > 0", path);
    for (int d = 0; d < 3; d++)
        if (f->npts[d] < 0 || f->npts[d] % 2) return vsg_fail(VSG_E_ARG, "%s: NELEMENTS must be even", path);
    /* AutoGrid names the extents file after the fld: X.maps.fld → X.maps.xyz */
    size_t pl = strlen(path);
    char *xyz = malloc(pl + 1);
    if (!xyz) return vsg_fail(VSG_E_NOMEM, "%s: out of memory", path);
    memcpy(xyz, path, pl + 1);
    memcpy(xyz + pl - 3, "xyz", 3);
    FILE *x = fopen(xyz, "w");
    if (!x) {
        vsg_status st = vsg_fail(VSG_E_IO, "%s: cannot create", xyz);
        free(xyz);
        return st;
    }
    int bad = 0;
    for (int d = 0; d < 3; d++) {
        double ext = f->spacing * (f->npts[d] / 2);
        bad |= fprintf(x, "%.3f %.3f\n", f->center[d] - ext, f->center[d] + ext) < 0;
    }
    if (fclose(x) != 0 || bad) {
        vsg_status st = vsg_fail(VSG_E_IO, "%s: write error", xyz);
        free(xyz);
        return st;
    }
    FILE *o = fopen(path, "w");
    if (!o) {
        free(xyz);
        return vsg_fail(VSG_E_IO, "%s: cannot create", path);
    }
    const char *xb = base_name(xyz);
    bad = fprintf(o, "# AVS field file\n#\n# AutoDock Atomic Affinity and Electrostatic Grids\n#\n"
                     "# Created by vsgrid %s.\n#\n#SPACING %.3f\n#NELEMENTS %d %d %d\n#CENTER %.3f %.3f %.3f\n"
                     "#MACROMOLECULE %s\n#GRID_PARAMETER_FILE %s\n#\n",
                  vsg_version(), (double)(float)f->spacing, f->npts[0], f->npts[1], f->npts[2], f->center[0],
                  f->center[1], f->center[2], f->macromolecule[0] ? f->macromolecule : "none",
                  f->gpf[0] ? f->gpf : "none") < 0;
    bad |= fprintf(o, "ndim=3\t\t\t# number of dimensions in the field\n"
                      "dim1=%d\t\t\t# number of x-elements\ndim2=%d\t\t\t# number of y-elements\n"
                      "dim3=%d\t\t\t# number of z-elements\n"
                      "nspace=3\t\t# number of physical coordinates per point\n"
                      "veclen=%d\t\t# number of affinity values at each point\n"
                      "data=float\t\t# data type (byte, integer, float, double)\n"
                      "field=uniform\t\t# field type (uniform, rectilinear, irregular)\n",
                   f->npts[0] + 1, f->npts[1] + 1, f->npts[2] + 1, f->n_maps) < 0;
    for (int d = 0; d < 3; d++)
        bad |= fprintf(o, "coord %d file=%s filetype=ascii offset=%d\n", d + 1, xb, 2 * d) < 0;
    for (int i = 0; i < f->n_maps; i++) {
        char label[64];
        label_of(f->maps[i].type, label, sizeof label);
        bad |= fprintf(o, "label=%s\t# component label for variable %d\n", label, i + 1) < 0;
    }
    bad |= fputs("#\n# location of affinity grid files and how to read them\n#\n", o) < 0;
    for (int i = 0; i < f->n_maps; i++)
        bad |= fprintf(o, "variable %d file=%s filetype=ascii skip=6\n", i + 1, f->maps[i].file) < 0;
    free(xyz);
    if (fclose(o) != 0 || bad) return vsg_fail(VSG_E_IO, "%s: write error", path);
    return VSG_OK;
}

vsg_status vsg_autogrid_fld_read(const char *path, vsg_fld *out)
{
    if (!path || !out) return vsg_fail(VSG_E_ARG, "fld: NULL argument");
    memset(out, 0, sizeof *out);
    vsg_lines *r = NULL;
    vsg_status st = vsg_lines_open(path, &r);
    if (st != VSG_OK) return st;
    int have_sp = 0, have_ne = 0, have_c = 0, dims[3] = {-1, -1, -1}, veclen = -1, nlabels = 0, nvars = 0, rc = 0, ln = 0;
    char *line;
    size_t len;
    while (st == VSG_OK && (rc = vsg_lines_next(r, &line, &len)) == 1) {
        ln = vsg_lines_number(r);
        tokens t;
        if (len > 0 && line[0] == '#') {
            split(line + 1, len - 1, 0, &t);
            const char *l1 = line + 1;
            size_t n1 = len - 1;
            if (tok_is(&t, 0, "SPACING")) {
                have_sp = 1;
                if (!tok_double(&t, 1, &out->spacing) || !(out->spacing > 0.0))
                    st = vsg_fail(VSG_E_FORMAT, "%s:%d: bad #SPACING", path, ln);
            } else if (tok_is(&t, 0, "NELEMENTS")) {
                have_ne = 1;
                for (int d = 0; d < 3 && st == VSG_OK; d++)
                    if (!tok_int(&t, 1 + d, &out->npts[d]) || out->npts[d] < 0 || out->npts[d] % 2)
                        st = vsg_fail(VSG_E_FORMAT, "%s:%d: #NELEMENTS needs three even counts", path, ln);
            } else if (tok_is(&t, 0, "CENTER")) {
                have_c = 1;
                for (int d = 0; d < 3 && st == VSG_OK; d++)
                    if (!tok_double(&t, 1 + d, &out->center[d]))
                        st = vsg_fail(VSG_E_FORMAT, "%s:%d: bad #CENTER", path, ln);
            } else if (tok_is(&t, 0, "MACROMOLECULE")) {
                rest_copy(&t, 1, l1, n1, out->macromolecule, sizeof out->macromolecule);
            } else if (tok_is(&t, 0, "GRID_PARAMETER_FILE")) {
                rest_copy(&t, 1, l1, n1, out->gpf, sizeof out->gpf);
            }
            continue;
        }
        split(line, len, 1, &t);
        if (t.n == 0) continue;
        if (!strncmp(t.s[0], "dim", 3) && t.len[0] > 5 && t.s[0][4] == '=' && t.s[0][3] >= '1' && t.s[0][3] <= '3') {
            int d = t.s[0][3] - '1';
            if (!vsg_parse_int(t.s[0] + 5, t.len[0] - 5, &dims[d]) || dims[d] < 1)
                st = vsg_fail(VSG_E_FORMAT, "%s:%d: bad dim%d", path, ln, d + 1);
        } else if (t.len[0] > 7 && !strncmp(t.s[0], "veclen=", 7)) {
            if (!vsg_parse_int(t.s[0] + 7, t.len[0] - 7, &veclen) || veclen < 1 || veclen > VSG_AG_MAX_MAPS)
                st = vsg_fail(VSG_E_FORMAT, "%s:%d: bad veclen (1 to %d maps)", path, ln, VSG_AG_MAX_MAPS);
        } else if (t.len[0] > 6 && !strncmp(t.s[0], "label=", 6)) {
            if (nlabels >= VSG_AG_MAX_MAPS) {
                st = vsg_fail(VSG_E_FORMAT, "%s:%d: more than %d labels", path, ln, VSG_AG_MAX_MAPS);
                break;
            }
            const char *lab = t.s[0] + 6;
            size_t ll = t.len[0] - 6;
            char *type = out->maps[nlabels].type;
            if (ll == 14 && !memcmp(lab, "Electrostatics", 14)) strcpy(type, "e");
            else if (ll == 11 && !memcmp(lab, "Desolvation", 11)) strcpy(type, "d");
            else if (ll > 9 && ll - 9 < sizeof out->maps[0].type && !memcmp(lab + ll - 9, "-affinity", 9)) {
                memcpy(type, lab, ll - 9);
                type[ll - 9] = '\0';
            } else {
                size_t k = ll < sizeof out->maps[0].type - 1 ? ll : sizeof out->maps[0].type - 1;
                memcpy(type, lab, k);
                type[k] = '\0';
            }
            nlabels++;
        } else if (tok_is(&t, 0, "variable")) {
            int idx;
            if (!tok_int(&t, 1, &idx) || idx != nvars + 1 || idx > VSG_AG_MAX_MAPS) {
                st = vsg_fail(VSG_E_FORMAT, "%s:%d: variable lines must be numbered 1, 2, ... (at most %d)", path, ln,
                              VSG_AG_MAX_MAPS);
                break;
            }
            int found = 0;
            for (int i = 2; i < t.n && i < MAX_TOKENS; i++)
                if (t.len[i] > 5 && !strncmp(t.s[i], "file=", 5)) {
                    if (t.len[i] - 5 + 1 > sizeof out->maps[0].file) break;
                    memcpy(out->maps[nvars].file, t.s[i] + 5, t.len[i] - 5);
                    out->maps[nvars].file[t.len[i] - 5] = '\0';
                    found = 1;
                }
            if (!found) st = vsg_fail(VSG_E_FORMAT, "%s:%d: variable %d has no file=NAME", path, ln, idx);
            nvars++;
        } else if (tok_is(&t, 0, "coord")) {
            for (int i = 2; i < t.n && i < MAX_TOKENS; i++)
                if (t.len[i] > 5 && !strncmp(t.s[i], "file=", 5) && t.len[i] - 5 < sizeof out->xyz) {
                    memcpy(out->xyz, t.s[i] + 5, t.len[i] - 5);
                    out->xyz[t.len[i] - 5] = '\0';
                }
        }
    }
    if (st == VSG_OK && rc < 0) st = (vsg_status)rc;
    vsg_lines_close(r);
    if (st != VSG_OK) return st;
    if (!have_sp || !have_ne || !have_c)
        return vsg_fail(VSG_E_FORMAT, "%s:%d: not an AutoGrid field file (no #SPACING, #NELEMENTS and #CENTER)", path, ln);
    for (int d = 0; d < 3; d++)
        if (dims[d] >= 0 && dims[d] != out->npts[d] + 1)
            return vsg_fail(VSG_E_FORMAT, "%s: dim%d=%d does not match #NELEMENTS %d (+1)", path, d + 1, dims[d],
                            out->npts[d]);
    if (nvars == 0) return vsg_fail(VSG_E_FORMAT, "%s: no variable (map file) lines", path);
    if (nlabels != nvars) return vsg_fail(VSG_E_FORMAT, "%s: %d labels but %d variable lines", path, nlabels, nvars);
    if (veclen >= 0 && veclen != nvars)
        return vsg_fail(VSG_E_FORMAT, "%s: veclen=%d but %d maps listed", path, veclen, nvars);
    out->n_maps = nvars;
    return VSG_OK;
}
