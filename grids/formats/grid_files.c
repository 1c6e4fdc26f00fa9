/* grid_files.c — vsg_grid_read and vsg_grid_write: the file format from the name, then the
 * format's own reader or writer (vsg_file.c, dx_file.c, autogrid_maps.c). */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "grids/base/vsgrid.h"
#include "grids/formats/grid.h"

static int ends_with(const char *s, const char *suffix)
{
    size_t ls = strlen(s), lx = strlen(suffix);
    if (ls < lx) return 0;
    for (size_t i = 0; i < lx; i++)
        if (tolower((unsigned char)s[ls - lx + i]) != tolower((unsigned char)suffix[i])) return 0;
    return 1;
}

enum grid_format { FMT_UNKNOWN, FMT_VSG, FMT_DX, FMT_MAP };

static enum grid_format format_of(const char *path)
{
    if (ends_with(path, ".vsg")) return FMT_VSG;
    if (ends_with(path, ".dx") || ends_with(path, ".dx.gz")) return FMT_DX;
    if (ends_with(path, ".map") || ends_with(path, ".map.gz")) return FMT_MAP;
    return FMT_UNKNOWN;
}

/* 1 when PREFIX.SUFFIX names a file that can be opened. */
static int sibling_exists(const char *prefix, const char *suffix)
{
    char p[4096];
    if (snprintf(p, sizeof p, "%s%s", prefix, suffix) >= (int)sizeof p) return 0;
    FILE *f = fopen(p, "rb");
    if (f) fclose(f);
    return f != NULL;
}

/* A path of no grid format that is the prefix of a map set: say which and what to give. */
static vsg_status unknown_format(const char *path)
{
    static const char *const xs[] = {".C_H.map", ".C_P.map", ".N_P.map", ".N_A.map", ".N_D.map", ".N_DA.map",
                                     ".O_A.map", ".O_D.map", ".O_DA.map", ".O_P.map", ".S_P.map", ".P_P.map",
                                     ".F_H.map", ".Cl_H.map", ".Br_H.map", ".I_H.map", ".Met_D.map"};
    for (size_t i = 0; i < sizeof xs / sizeof xs[0]; i++)
        if (sibling_exists(path, xs[i]))
            return vsg_fail(VSG_E_FORMAT, "%s is a Vina map set (%s%s, ...), not one grid: add --scoring vina (or "
                            "vinardo, as the maps were made) to score on it", path, path, xs[i]);
    if (sibling_exists(path, ".maps.fld"))
        return vsg_fail(VSG_E_FORMAT, "%s is the prefix of an AutoDock4 map set: give %s.maps.fld", path, path);
    return vsg_fail(VSG_E_FORMAT, "%s: unknown grid format (supported: .vsg, .dx, .dx.gz, AutoGrid .map[.gz]; "
                    "an AutoDock4 map set as PREFIX.maps.fld, a Vina map set as PREFIX with --scoring vina)", path);
}

vsg_status vsg_grid_read(const char *path, vsg_grid **out)
{
    if (!out) return vsg_fail(VSG_E_ARG, "vsg_grid_read: out is NULL");
    *out = NULL;
    if (!path || !*path) return vsg_fail(VSG_E_ARG, "vsg_grid_read: no path");
    switch (format_of(path)) {
    case FMT_VSG: return vsg_vsg_read(path, out);
    case FMT_DX: return vsg_dx_read(path, out);
    case FMT_MAP: return vsg_autogrid_map_read(path, out);
    default: break;
    }
    return unknown_format(path);
}

vsg_status vsg_grid_write(const vsg_grid *g, const char *path)
{
    if (!g || !g->data) return vsg_fail(VSG_E_ARG, "vsg_grid_write: no grid");
    if (!path || !*path) return vsg_fail(VSG_E_ARG, "vsg_grid_write: no path");
    switch (format_of(path)) {
    case FMT_VSG: return vsg_vsg_write(g, path);
    case FMT_DX: return vsg_dx_write(g, path);
    case FMT_MAP:
        return vsg_fail(VSG_E_FORMAT, "%s: write AutoGrid maps with --autogrid-maps PREFIX (they need a .fld beside them)", path);
    default: break;
    }
    return vsg_fail(VSG_E_FORMAT, "%s: unknown grid format (supported: .vsg, .dx, .dx.gz)", path);
}
