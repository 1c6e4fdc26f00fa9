/* surface_mesh.h — triangulated molecular surfaces: the points where `vsgrid surface`
 * evaluates the electrostatic potential, and the mesh its PLY/PNG outputs draw.
 *
 * A mesh is closed and consistently oriented: every undirected edge belongs to exactly two
 * triangles, which traverse it in opposite directions; triangles are counter-clockwise seen
 * from the solvent, so (b − a) × (c − a) points outward. Normals are unit vectors pointing
 * into the solvent. Each vertex carries the index of its nearest atom (0-based, in the
 * molecule's order), from which the residue and chain follow. */
#ifndef VSG_SURFACE_MESH_H
#define VSG_SURFACE_MESH_H

#include <stddef.h>
#include <stdint.h>

#include "grids/base/vsgrid.h"

/* vsg_mesh, vsg_mesh_new/_free, vsg_ses_options(_default), vsg_ses_mesh, vsg_msms_read,
 * vsg_mesh_topology, vsg_mesh_check, vsg_mesh_area and vsg_mesh_volume are public (vsgrid.h,
 * "surface potential, pictures and meshes"). */

#endif
