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

#define VSG_AG_PATH 512
#define VSG_AG_MAX_MAPS 32

/* What a .gpf says about the box and the electrostatics (other keywords are ignored). */
typedef struct {
    int npts[3];                     /* NELEMENTS per axis, even (AutoGrid rounds odd counts down) */
    double spacing;                  /* Å (AutoGrid's default 0.375 when absent) */
    double center[3];                /* Å; unset when center_auto */
    int have_npts, have_center;
    int center_auto;                 /* "gridcenter auto": mean of the receptor's atom coordinates */
    char receptor[VSG_AG_PATH];      /* "" when absent */
    char gridfld[VSG_AG_PATH];       /* "" when absent */
    char elecmap[VSG_AG_PATH];       /* "" when absent */
    int have_dielectric;
    double dielectric;               /* < 0: Mehler–Solmajer (the magnitude is ignored);
                                        > 0: constant; 0: constant 40 (AutoGrid) */
    int have_estat;
    double estat_coeff;              /* FE_coeff_estat from the gpf's parameter_file, if it sets one */
} vsg_gpf;

/* Reads a gpf. VSG_E_IO / VSG_E_FORMAT ("file:line: ...") on a bad file; a parameter_file is
 * looked up as written, then next to the gpf. */
vsg_status vsg_gpf_read(const char *path, vsg_gpf *out);

/* Header lines of a map (informational for AutoDock; all three may be NULL → "none"). */
typedef struct {
    const char *gpf;                 /* GRID_PARAMETER_FILE */
    const char *fld;                 /* GRID_DATA_FILE */
    const char *macromolecule;       /* MACROMOLECULE */
} vsg_autogrid_header;

/* Writes g as an AutoGrid map: six header lines, then one value per line, x fastest, as
 * autogrid4 prints them ("%.3f" of the value rounded to 3 decimals, "0." when |v| < 1e-4).
 * g must have odd node counts and the same spacing on all axes. Plain text only. */
vsg_status vsg_autogrid_map_write(const vsg_grid *g, const char *path, const vsg_autogrid_header *h);

/* Reads a .map or .map.gz. Units: "kcal/mol/e" for electrostatic maps (name ends in ".e.map"
 * or ".e.map.gz"), "kcal/mol" otherwise. The header's file names and centre are kept in the
 * grid's metadata (autogrid_gpf, autogrid_fld, autogrid_macromolecule, autogrid_center). */
vsg_status vsg_autogrid_map_read(const char *path, vsg_grid **out);

/* One map listed in a .maps.fld. */
typedef struct {
    char type[8];                    /* ligand atom type ("A", "OA"), or "e" / "d" */
    char file[VSG_AG_PATH];          /* map file name as written in the fld */
} vsg_fld_map;

typedef struct {
    int npts[3];                     /* NELEMENTS */
    double spacing;
    double center[3];
    char macromolecule[VSG_AG_PATH];
    char gpf[VSG_AG_PATH];
    char xyz[VSG_AG_PATH];           /* extents file named by the coord lines */
    int n_maps;
    vsg_fld_map maps[VSG_AG_MAX_MAPS];
} vsg_fld;

/* Writes the AVS field file as autogrid4 does, and its .xyz extents file (path with "fld"
 * replaced by "xyz", as AutoGrid derives it). Labels: "X-affinity" for atom types,
 * "Electrostatics" for "e", "Desolvation" for "d". The maps should be listed atom types first,
 * then e, then d (AutoGrid's order, which AutoDock expects). */
vsg_status vsg_autogrid_fld_write(const char *path, const vsg_fld *f);
/* Reads a .maps.fld (geometry from its #SPACING/#NELEMENTS/#CENTER comments and dim lines,
 * maps from its label/variable lines). */
vsg_status vsg_autogrid_fld_read(const char *path, vsg_fld *out);

#endif
