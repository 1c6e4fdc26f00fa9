/* surface_potential.h — the surface-potential pipeline behind `vsgrid surface`: potentials at the
 * vertices of a mesh, exact or HCP, on the GPU or the CPU twin, and the tables written from
 * them. */
#ifndef VSG_SURFACE_POTENTIAL_H
#define VSG_SURFACE_POTENTIAL_H

#include <stdio.h>

#include "grids/surface/alpb.h"
#include "grids/surface/hcp.h"
#include "grids/surface/surface_mesh.h"

/* vsg_surface_mode, vsg_surface_options(_default), vsg_surface_report, vsg_surface_potential,
 * vsg_surface_write_vertices and vsg_surface_write_residues are public (vsgrid.h, "surface
 * potential, pictures and meshes"). */
#include "grids/base/vsgrid.h"

#endif
