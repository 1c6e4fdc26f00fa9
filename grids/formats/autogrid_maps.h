/* autogrid_maps.h — AutoGrid4's file formats: grid maps (.map, optionally gzipped), the AVS
 * field file (.maps.fld) with its extents file (.maps.xyz), and the grid parameter file
 * (.gpf), as autogrid4 4.2.6 reads and writes them, so that autodock4 and AutoDock-GPU read
 * vsgrid's maps.
 *
 * Geometry convention: NELEMENTS (the gpf's npts) is even and the map has NELEMENTS + 1 points
 * per axis, centred on CENTER: node (0,0,0) is at CENTER − NELEMENTS/2 · SPACING, x fastest. */
#ifndef VSG_AUTOGRID_MAPS_H
#define VSG_AUTOGRID_MAPS_H

#include "grids/formats/grid.h"

/* The types (vsg_gpf, vsg_autogrid_header, vsg_fld, vsg_fld_map) and calls (vsg_gpf_read,
 * vsg_autogrid_map_write/_read, vsg_autogrid_fld_write/_read) are public (vsgrid.h, "Coulomb and
 * AutoGrid electrostatic maps"). */
#include "grids/base/vsgrid.h"

#endif
