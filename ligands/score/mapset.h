/* mapset.h — an AutoGrid4 map set (the .maps.fld and every map it lists) loaded into memory,
 * ready to score AutoDock4 poses with vsg_score_cpu or the GPU kernels (ligands/score/score.h).
 *
 * The fld names one map per ligand atom type ("A", "C", "OA", ...) plus the electrostatic "e"
 * and desolvation "d" maps. Map files are looked up relative to the fld's folder, as written
 * and then with ".gz" appended (AutoGrid writes plain maps; data sets often ship them gzipped
 * under the names the fld gives without ".gz"). All maps must have one shape (node counts,
 * origin, spacing), which must also be the fld's; otherwise the read fails with a message that
 * names both files. */
#ifndef VSG_MAPSET_H
#define VSG_MAPSET_H

#include <stdint.h>

#include "ligands/score/score.h"
#include "grids/base/vsgrid.h"

typedef struct vsg_mapset vsg_mapset; /* opaque, owns its maps */

/* Reads fld_path and its maps. Errors: VSG_E_IO (fld or a map missing or unreadable),
 * VSG_E_FORMAT (malformed file, a type listed twice, a type name over 3 characters, no "e" or
 * no "d" map, more than VSG_SCORE_MAX_MAPS maps), VSG_E_DATA (maps of different shapes, or a
 * map that disagrees with the fld's geometry), VSG_E_NOMEM. */
vsg_status vsg_mapset_read(const char *fld_path, vsg_mapset **out);
void vsg_mapset_free(vsg_mapset *m);

/* The maps as score grids: kind VSG_SCORE_AD4, the type maps in the fld's order with their
 * AutoDock type names, then e_map and d_map, elec_factor 1. Valid until vsg_mapset_free. */
const vsg_score_grids *vsg_mapset_grids(const vsg_mapset *m);

/* Index into grids->maps of the type map of an AutoDock atom type ("OA"; exact, case-sensitive
 * as AutoDock's types are), or VSG_SCORE_NO_TYPE when the set has no map for it. "e" and "d"
 * are not atom types and never match. */
uint8_t vsg_mapset_type_index(const vsg_mapset *m, const char *ad_type);
/* The same lookup on any AD4 score grids (VSG_SCORE_NO_TYPE for ELEC grids). */
uint8_t vsg_score_grids_type_index(const vsg_score_grids *g, const char *ad_type);

/* The map file read for grids->maps[i] (the path as resolved, ".gz" included), or NULL. */
const char *vsg_mapset_map_path(const vsg_mapset *m, int i);

#endif
