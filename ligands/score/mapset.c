/* mapset.c — load an AutoGrid4 map set (.maps.fld + its .map / .map.gz files) into score grids
 * of kind AD4 (vsgrid.h, "AutoGrid map sets"). The fld is read with vsg_autogrid_fld_read and every map with
 * vsg_autogrid_map_read; this file resolves the map paths, checks that the set is usable for
 * AutoDock4 scoring (one shape, each type once, e and d present) and arranges the maps in the
 * order vsgrid.h describes (type maps, then e, then d). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grids/formats/grid.h"
#include "grids/base/vsgrid.h"

/* Map headers and the fld print geometry with 3 decimals: within this they agree. */
#define FLD_TOLERANCE 1.5e-3
/* Maps of one set are read from the same printed numbers: they agree exactly, up to rounding. */
#define SHAPE_TOLERANCE 1e-6

struct vsg_mapset {
    vsg_score_grids grids;
    vsg_grid *map[VSG_SCORE_MAX_MAPS];
    char *path[VSG_SCORE_MAX_MAPS];
};

void vsg_mapset_free(vsg_mapset *m)
{
    if (!m) return;
    for (int i = 0; i < VSG_SCORE_MAX_MAPS; i++) {
        vsg_grid_free(m->map[i]);
        free(m->path[i]);
    }
    free(m);
}

const vsg_score_grids *vsg_mapset_grids(const vsg_mapset *m) { return m ? &m->grids : NULL; }

const char *vsg_mapset_map_path(const vsg_mapset *m, int i)
{
    return m && i >= 0 && i < m->grids.nmaps ? m->path[i] : NULL;
}

uint8_t vsg_score_grids_type_index(const vsg_score_grids *g, const char *ad_type)
{
    if (!g || !ad_type || g->kind != VSG_SCORE_AD4 || !ad_type[0]) return VSG_SCORE_NO_TYPE;
    for (int i = 0; i < g->nmaps && i < VSG_SCORE_MAX_MAPS; i++)
        if (i != g->e_map && i != g->d_map && !strcmp(g->types[i], ad_type)) return (uint8_t)i;
    return VSG_SCORE_NO_TYPE;
}

uint8_t vsg_mapset_type_index(const vsg_mapset *m, const char *ad_type)
{
    return vsg_score_grids_type_index(m ? &m->grids : NULL, ad_type);
}

static int readable(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    fclose(f);
    return 1;
}

/* The map file of an fld entry: relative names are relative to the fld's folder; the name as
 * written is tried first, then with ".gz". VSG_E_IO when neither can be opened. */
static vsg_status resolve_map(const char *fld_path, const char *file, int variable, char **out)
{
    const char *slash = strrchr(fld_path, '/');
    size_t dir = (file[0] != '/' && slash) ? (size_t)(slash - fld_path) + 1 : 0;
    size_t cap = dir + strlen(file) + 4;
    char *p = malloc(cap);
    if (!p) return vsg_fail(VSG_E_NOMEM, "%s: out of memory", fld_path);
    snprintf(p, cap, "%.*s%s", (int)dir, fld_path, file);
    size_t len = strlen(p);
    int found = readable(p);
    if (!found && (len < 3 || strcmp(p + len - 3, ".gz"))) {
        memcpy(p + len, ".gz", 4);
        found = readable(p);
        if (!found) p[len] = '\0';
    }
    if (!found) {
        int gz = len >= 3 && !strcmp(p + len - 3, ".gz");
        vsg_status st = vsg_fail(VSG_E_IO, "%s: map file '%s' of variable %d not found (looked for %s%s%s%s)",
                                 fld_path, file, variable, p, gz ? "" : " and ", gz ? "" : p, gz ? "" : ".gz");
        free(p);
        return st;
    }
    *out = p;
    return VSG_OK;
}

/* Checks map i against the set's first map and the fld's geometry. */
static vsg_status check_shape(const char *fld_path, const vsg_fld *f, const vsg_mapset *m, int i)
{
    const vsg_grid *g = m->map[i], *g0 = m->map[0];
    for (int d = 0; d < 3; d++) {
        if (g->n[d] != g0->n[d] || fabs(g->origin[d] - g0->origin[d]) > SHAPE_TOLERANCE ||
            fabs(g->spacing[d] - g0->spacing[d]) > SHAPE_TOLERANCE)
            return vsg_fail(VSG_E_DATA,
                            "%s: maps of different shapes: %s is %d x %d x %d from (%.3f, %.3f, %.3f) at %.4g Å, "
                            "%s is %d x %d x %d from (%.3f, %.3f, %.3f) at %.4g Å",
                            fld_path, m->path[i], g->n[0], g->n[1], g->n[2], g->origin[0], g->origin[1],
                            g->origin[2], g->spacing[0], m->path[0], g0->n[0], g0->n[1], g0->n[2], g0->origin[0],
                            g0->origin[1], g0->origin[2], g0->spacing[0]);
        double center = g->origin[d] + 0.5 * (g->n[d] - 1) * g->spacing[d];
        if (g->n[d] != f->npts[d] + 1 || fabs(g->spacing[d] - f->spacing) > FLD_TOLERANCE ||
            fabs(center - f->center[d]) > FLD_TOLERANCE)
            return vsg_fail(VSG_E_DATA,
                            "%s: map %s (NELEMENTS %d %d %d, SPACING %.3f, CENTER %.3f %.3f %.3f) does not match "
                            "the fld (NELEMENTS %d %d %d, SPACING %.3f, CENTER %.3f %.3f %.3f)",
                            fld_path, m->path[i], g->n[0] - 1, g->n[1] - 1, g->n[2] - 1, g->spacing[0],
                            g->origin[0] + 0.5 * (g->n[0] - 1) * g->spacing[0],
                            g->origin[1] + 0.5 * (g->n[1] - 1) * g->spacing[1],
                            g->origin[2] + 0.5 * (g->n[2] - 1) * g->spacing[2], f->npts[0], f->npts[1], f->npts[2],
                            f->spacing, f->center[0], f->center[1], f->center[2]);
    }
    return VSG_OK;
}

vsg_status vsg_mapset_read(const char *fld_path, vsg_mapset **out)
{
    if (!fld_path || !out) return vsg_fail(VSG_E_ARG, "mapset: NULL argument");
    *out = NULL;
    vsg_fld *f = malloc(sizeof *f); /* ~17 KB: kept off the stack */
    if (!f) return vsg_fail(VSG_E_NOMEM, "%s: out of memory", fld_path);
    vsg_status st = vsg_autogrid_fld_read(fld_path, f);
    if (st != VSG_OK) {
        free(f);
        return st;
    }

    /* Order: type maps as listed, then e, then d; each type once. */
    int order[VSG_AG_MAX_MAPS], n = 0, e = -1, d = -1;
    for (int i = 0; i < f->n_maps && st == VSG_OK; i++) {
        const char *t = f->maps[i].type;
        for (int j = 0; j < i; j++)
            if (!strcmp(f->maps[j].type, t)) {
                st = vsg_fail(VSG_E_FORMAT, "%s: type '%s' listed twice (variables %d and %d)", fld_path, t, j + 1,
                              i + 1);
                break;
            }
        if (st != VSG_OK) break;
        if (!strcmp(t, "e")) e = i;
        else if (!strcmp(t, "d")) d = i;
        else if (!t[0] || strlen(t) > 3)
            st = vsg_fail(VSG_E_FORMAT, "%s: variable %d: '%s' is not an AutoDock atom type (1 to 3 characters)",
                          fld_path, i + 1, t);
        else order[n++] = i;
    }
    if (st == VSG_OK && (e < 0 || d < 0))
        st = vsg_fail(VSG_E_FORMAT, "%s: no %s map listed (AutoDock4 scoring needs the e and d maps)", fld_path,
                      e < 0 ? "electrostatic (Electrostatics, e)" : "desolvation (Desolvation, d)");
    if (st == VSG_OK && n + 2 > VSG_SCORE_MAX_MAPS)
        st = vsg_fail(VSG_E_FORMAT, "%s: %d maps, at most %d are supported", fld_path, n + 2, VSG_SCORE_MAX_MAPS);
    vsg_mapset *m = NULL;
    if (st == VSG_OK && !(m = calloc(1, sizeof *m))) st = vsg_fail(VSG_E_NOMEM, "%s: out of memory", fld_path);
    if (st != VSG_OK) {
        free(f);
        return st;
    }
    order[n] = e;
    order[n + 1] = d;
    int total = n + 2;
    for (int i = 0; i < total && st == VSG_OK; i++) {
        const vsg_fld_map *fm = &f->maps[order[i]];
        st = resolve_map(fld_path, fm->file, order[i] + 1, &m->path[i]);
        if (st == VSG_OK) st = vsg_autogrid_map_read(m->path[i], &m->map[i]);
        if (st == VSG_OK) st = check_shape(fld_path, f, m, i);
    }
    if (st == VSG_OK) {
        vsg_score_grids *g = &m->grids;
        g->kind = VSG_SCORE_AD4;
        for (int k = 0; k < 3; k++) {
            g->n[k] = m->map[0]->n[k];
            g->origin[k] = m->map[0]->origin[k];
            g->spacing[k] = m->map[0]->spacing[k];
        }
        g->nmaps = total;
        for (int i = 0; i < total; i++) {
            g->maps[i] = m->map[i]->data;
            snprintf(g->types[i], sizeof g->types[i], "%s", f->maps[order[i]].type);
        }
        g->e_map = n;
        g->d_map = n + 1;
        g->elec_factor = 1.0;
        for (int k = 0; k < 3 && st == VSG_OK; k++)
            if (g->n[k] < 2)
                st = vsg_fail(VSG_E_DATA, "%s: NELEMENTS %d along %c: scoring needs at least 2 nodes per axis",
                              fld_path, g->n[k] - 1, "xyz"[k]);
    }
    free(f);
    if (st != VSG_OK) {
        vsg_mapset_free(m);
        return st;
    }
    *out = m;
    return VSG_OK;
}

vsg_status vsg_mapset_add_map(vsg_mapset *m, const char *type, const char *path)
{
    if (!m || !type || !path) return vsg_fail(VSG_E_ARG, "vsg_mapset_add_map: NULL argument");
    vsg_score_grids *g = &m->grids;
    if (!type[0] || strlen(type) > 3 || !strcmp(type, "e") || !strcmp(type, "d"))
        return vsg_fail(VSG_E_ARG, "vsg_mapset_add_map: '%s' is not an AutoDock atom type", type);
    if (vsg_score_grids_type_index(g, type) != VSG_SCORE_NO_TYPE)
        return vsg_fail(VSG_E_ARG, "vsg_mapset_add_map: the set has a %s map already", type);
    if (g->nmaps + 1 > VSG_SCORE_MAX_MAPS)
        return vsg_fail(VSG_E_FORMAT, "%s: %d maps, at most %d are supported", path, g->nmaps + 1, VSG_SCORE_MAX_MAPS);
    vsg_grid *add = NULL;
    vsg_status st = vsg_autogrid_map_read(path, &add);
    if (st != VSG_OK) return st;
    const vsg_grid *g0 = m->map[0];
    for (int d = 0; d < 3; d++)
        if (add->n[d] != g0->n[d] || fabs(add->origin[d] - g0->origin[d]) > SHAPE_TOLERANCE ||
            fabs(add->spacing[d] - g0->spacing[d]) > SHAPE_TOLERANCE) {
            st = vsg_fail(VSG_E_DATA, "%s (%d x %d x %d nodes from (%.3f, %.3f, %.3f)) is not on the grid of %s (%d x %d x %d "
                          "from (%.3f, %.3f, %.3f)): make it from this map set's maps", path, add->n[0], add->n[1],
                          add->n[2], add->origin[0], add->origin[1], add->origin[2], m->path[0], g0->n[0], g0->n[1],
                          g0->n[2], g0->origin[0], g0->origin[1], g0->origin[2]);
            vsg_grid_free(add);
            return st;
        }
    char *p = malloc(strlen(path) + 1);
    if (!p) {
        vsg_grid_free(add);
        return vsg_fail(VSG_E_NOMEM, "%s: out of memory", path);
    }
    strcpy(p, path);
    /* the set's order stays type maps, e, d: e and d move up one */
    const int n = g->nmaps - 2;
    for (int i = g->nmaps; i > n; i--) {
        m->map[i] = m->map[i - 1], m->path[i] = m->path[i - 1];
        g->maps[i] = g->maps[i - 1];
        memcpy(g->types[i], g->types[i - 1], sizeof g->types[i]);
    }
    m->map[n] = add, m->path[n] = p;
    g->maps[n] = add->data;
    snprintf(g->types[n], sizeof g->types[n], "%s", type);
    g->nmaps++;
    g->e_map = n + 1;
    g->d_map = n + 2;
    return VSG_OK;
}
