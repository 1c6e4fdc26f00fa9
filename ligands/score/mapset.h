/* mapset.h — an AutoGrid4 map set (the .maps.fld and every map it lists) loaded into memory.
 * Its calls (vsg_mapset_read, vsg_mapset_grids, vsg_mapset_type_index, ...) are public:
 * grids/base/vsgrid.h. */
#ifndef VSG_MAPSET_H
#define VSG_MAPSET_H

#include <stdint.h>

#include "ligands/score/score.h"
#include "grids/base/vsgrid.h"

#endif
