/* ad4_box.c — an AutoDock4 map set's grid parameter file made from a box (vsgrid.h, "receptor
 * map sets from a box"): `vsgrid maps --scoring ad4` writes it beside the maps and computes them
 * from it through vsg_gpf_read and vsg_ad4_maps_cpu/_gpu, the same path as `vsgrid grid --gpf`,
 * and autogrid4 run on the same file makes the same maps. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "grids/base/vsgrid.h"

static const char *base_of(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

vsg_status vsg_ad4_gpf_for_box(const vsg_molecule *rec, const char *receptor_path, const double center[3],
                               const double size[3], double spacing, const char *const *ligand_types, int n_types,
                               const char *map_prefix, vsg_gpf *out)
{
    if (!rec || !receptor_path || !center || !size || !ligand_types || !map_prefix || !out)
        return vsg_fail(VSG_E_ARG, "vsg_ad4_gpf_for_box: NULL argument");
    memset(out, 0, sizeof *out);
    if (!(spacing > 0.0) || !isfinite(spacing))
        return vsg_fail(VSG_E_ARG, "AutoDock4 box: spacing %g Å must be finite and > 0", spacing);
    if (n_types < 1) return vsg_fail(VSG_E_ARG, "AutoDock4 box: no ligand types");
    if (n_types + 2 > VSG_AG_MAX_MAPS)
        return vsg_fail(VSG_E_LIMIT, "AutoDock4 box: %d ligand types + e + d maps, over the %d maps of a map set", n_types,
                        VSG_AG_MAX_MAPS);
    for (int k = 0; k < 3; k++) {
        if (!isfinite(center[k])) return vsg_fail(VSG_E_ARG, "AutoDock4 box: the centre is not finite");
        if (!(size[k] > 0.0) || !isfinite(size[k]))
            return vsg_fail(VSG_E_ARG, "AutoDock4 box: size along %c is %g Å (must be > 0)", "xyz"[k], size[k]);
        /* intervals per axis: ceil(size / spacing), made even (up), as vina's --force_even_voxels
         * and AutoDockTools' npts (autogrid4 rounds odd npts down, which would shrink the box) */
        double v = ceil(size[k] / spacing - 1e-9);
        if (v < 2.0) v = 2.0;
        if (v > 100000.0) return vsg_fail(VSG_E_LIMIT, "AutoDock4 box: %.0f points along %c", v, "xyz"[k]);
        long npts = (long)v;
        if (npts % 2) npts++;
        out->npts[k] = (int)npts;
        out->center[k] = center[k];
    }
    out->have_npts = out->have_center = 1;
    out->spacing = spacing;
    size_t plen = strlen(map_prefix);
    if (plen + 16 >= VSG_AG_PATH || strlen(receptor_path) >= VSG_AG_PATH)
        return vsg_fail(VSG_E_ARG, "AutoDock4 box: a path is longer than %d characters", VSG_AG_PATH - 16);
    snprintf(out->receptor, sizeof out->receptor, "%s", receptor_path);
    snprintf(out->gridfld, sizeof out->gridfld, "%s.maps.fld", map_prefix);
    snprintf(out->elecmap, sizeof out->elecmap, "%s.e.map", map_prefix);
    snprintf(out->dsolvmap, sizeof out->dsolvmap, "%s.d.map", map_prefix);
    out->have_dielectric = 1;
    out->dielectric = -0.1465; /* AutoDock4's distance-dependent (Mehler–Solmajer) dielectric */
    out->smooth = 0.5;
    out->qasp = 0.01097;
    for (int i = 0; i < n_types; i++) {
        const char *t = ligand_types[i];
        if (!t || !t[0] || strlen(t) > 3) return vsg_fail(VSG_E_ARG, "AutoDock4 box: bad ligand type '%s'", t ? t : "");
        for (int j = 0; j < i; j++)
            if (!strcmp(ligand_types[j], t)) return vsg_fail(VSG_E_ARG, "AutoDock4 box: ligand type %s twice", t);
        snprintf(out->ligand_types[i], sizeof out->ligand_types[i], "%s", t);
        snprintf(out->maps[i], sizeof out->maps[i], "%s.%s.map", map_prefix, t);
    }
    out->n_ligand_types = out->n_maps = n_types;
    /* receptor_types: the types present, in file order (autogrid4 checks every atom against them) */
    size_t na = vsg_molecule_atom_count(rec);
    vsg_atom_info a;
    for (size_t i = 0; i < na; i++) {
        if (vsg_molecule_atom(rec, i, &a) != VSG_OK) continue;
        if (!a.ad_type[0])
            return vsg_fail(VSG_E_DATA, "%s:%d: atom '%s' has no AutoDock type (a PDBQT receptor is needed: make one "
                            "with 'vsgrid prepare %s -o REC.pdbqt')", vsg_molecule_source(rec), a.line, a.name,
                            vsg_molecule_source(rec));
        int seen = 0;
        for (int j = 0; j < out->n_receptor_types && !seen; j++) seen = !strcmp(out->receptor_types[j], a.ad_type);
        if (seen) continue;
        if (out->n_receptor_types >= VSG_AG_MAX_MAPS)
            return vsg_fail(VSG_E_LIMIT, "%s: more than %d receptor atom types", vsg_molecule_source(rec), VSG_AG_MAX_MAPS);
        snprintf(out->receptor_types[out->n_receptor_types++], sizeof out->receptor_types[0], "%s", a.ad_type);
    }
    if (out->n_receptor_types == 0) return vsg_fail(VSG_E_DATA, "%s: no atoms", vsg_molecule_source(rec));
    return VSG_OK;
}

vsg_status vsg_gpf_write(const vsg_gpf *g, const char *path, const char *comment)
{
    if (!g || !path) return vsg_fail(VSG_E_ARG, "vsg_gpf_write: NULL argument");
    if (!g->have_npts || g->n_ligand_types < 1 || g->n_maps != g->n_ligand_types)
        return vsg_fail(VSG_E_ARG, "vsg_gpf_write: a gpf needs npts and one map per ligand type");
    FILE *f = fopen(path, "w");
    if (!f) return vsg_fail(VSG_E_IO, "cannot write %s", path);
    /* autogrid4's order: receptor before gridcenter (autogrid4 4.2.6 crashes otherwise), maps
     * after ligand_types; file names relative to the directory autogrid4 runs in */
    if (comment && comment[0]) {
        const char *s = comment;
        while (*s) {
            const char *e = strchr(s, '\n');
            int len = e ? (int)(e - s) : (int)strlen(s);
            fprintf(f, "# %.*s\n", len, s);
            s += len + (e ? 1 : 0);
        }
    }
    fprintf(f, "npts %d %d %d\n", g->npts[0], g->npts[1], g->npts[2]);
    fprintf(f, "gridfld %s\n", base_of(g->gridfld));
    fprintf(f, "spacing %.3f\n", g->spacing);
    fprintf(f, "receptor_types");
    for (int i = 0; i < g->n_receptor_types; i++) fprintf(f, " %s", g->receptor_types[i]);
    fprintf(f, "\nligand_types");
    for (int i = 0; i < g->n_ligand_types; i++) fprintf(f, " %s", g->ligand_types[i]);
    fprintf(f, "\nreceptor %s\n", g->receptor);
    if (g->center_auto) fprintf(f, "gridcenter auto\n");
    else fprintf(f, "gridcenter %.3f %.3f %.3f\n", g->center[0], g->center[1], g->center[2]);
    fprintf(f, "smooth %.3f\n", g->smooth);
    for (int i = 0; i < g->n_maps; i++) fprintf(f, "map %s\n", base_of(g->maps[i]));
    fprintf(f, "elecmap %s\n", base_of(g->elecmap));
    fprintf(f, "dsolvmap %s\n", base_of(g->dsolvmap));
    if (g->have_dielectric) fprintf(f, "dielectric %.4f\n", g->dielectric);
    int bad = ferror(f);
    if (fclose(f) != 0 || bad) return vsg_fail(VSG_E_IO, "error writing %s", path);
    return VSG_OK;
}
