/* dock_kit.h — what the docking tests share: a file's first ligand record, and a Vina map set of
 * a ligand's XS types written under a prefix and read back as a target (as `vsgrid maps` would
 * make it). Header-only, static: each test includes what it uses. */
#ifndef VSG_DOCK_KIT_H
#define VSG_DOCK_KIT_H

#include <stdio.h>

#include "grids/base/vsgrid.h"

/* The first record of path (format from the extension, the record's text kept). lig->source is
 * set to path: the reader's copy of the name is freed with the reader. Returns the reader's
 * status, the record's status, or VSG_E_FORMAT for a file without records. */
static inline vsg_status read_first(const char *path, vsg_ligand *lig)
{
    const char *paths[1] = {path};
    vsg_ligand_reader_options o = {.format = VSG_LIG_AUTO, .keep_text = 1, .max_atoms = 0};
    vsg_ligand_reader *r = NULL;
    vsg_status st = vsg_ligand_reader_open(paths, 1, &o, &r);
    if (st != VSG_OK) return st;
    if (vsg_ligand_reader_next(r, lig) != 1) st = VSG_E_FORMAT;
    else st = lig->status;
    vsg_ligand_reader_close(r);
    lig->source = path;
    return st;
}

/* The distinct XS types of l's atoms, then of extra[0 .. nextra) (e.g. flex residues' types), into
 * types (VSG_XS_COUNT); returns their number. */
static inline int ligand_xs_types(const vsg_vina_ligand *l, const vsg_xs_type *extra, int nextra, vsg_xs_type *types)
{
    vsg_vina_ligand_info info;
    vsg_vina_ligand_get_info(l, &info);
    int nt = 0;
    for (int i = 0; i < info.natoms + nextra; i++) {
        const vsg_xs_type x = i < info.natoms ? vsg_vina_ligand_xs_type(l, i) : extra[i - info.natoms];
        int seen = x == VSG_XS_NONE;
        for (int k = 0; k < nt && !seen; k++) seen = types[k] == x;
        if (!seen) types[nt++] = x;
    }
    return nt;
}

/* Vina maps of rec for types[0 .. nt) in box, written as prefix.TYPE.map (their MACROMOLECULE
 * rec_name) and read back as a Vina target; NULL when any step fails. */
static inline vsg_vina_target *vina_maps_target(const vsg_molecule *rec, const vsg_vina_box *box, const vsg_xs_type *types,
                                                int nt, const char *prefix, const char *rec_name)
{
    vsg_vina_params p;
    vsg_vina_params_default(&p);
    vsg_grid *maps[VSG_XS_COUNT] = {0};
    vsg_vina_target *t = NULL;
    if (vsg_vina_maps_cpu(rec, box, &p, types, nt, maps) != VSG_OK) return NULL;
    int ok = 1;
    for (int k = 0; k < nt; k++) {
        char path[1400];
        snprintf(path, sizeof path, "%.1200s.%s.map", prefix, vsg_xs_type_name(types[k]));
        ok &= vsg_vina_map_write(maps[k], path, rec_name) == VSG_OK;
        vsg_grid_free(maps[k]);
    }
    if (ok) vsg_vina_target_maps(prefix, VSG_VINA_SCORING_VINA, &t);
    return t;
}

#endif
