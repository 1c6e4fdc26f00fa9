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

typedef struct {
    size_t nvert, nface;
    float *xyz;       /* 3·nvert, Å */
    float *normal;    /* 3·nvert, unit, outward */
    int32_t *atom;    /* nvert: nearest atom (0-based), −1 when unknown */
    uint32_t *tri;    /* 3·nface vertex indices (0-based), counter-clockwise from outside */
} vsg_mesh;

/* Allocates a mesh with room for nvert vertices and nface faces (arrays uninitialised;
 * atom[] set to −1). NULL when out of memory. */
vsg_mesh *vsg_mesh_new(size_t nvert, size_t nface);
void vsg_mesh_free(vsg_mesh *m);

typedef struct {
    double probe;          /* solvent probe radius, Å (default 1.4; 0 = van der Waals surface) */
    double spacing;        /* lattice spacing, Å (default 0.8: ~6.7 vertices per Å², twice MSMS density 3); finer = more vertices */
    double max_bytes;      /* memory the builder may take (0 = no limit); the builder works in
                              bounded slabs and coarsens nothing silently: over the limit it
                              fails with VSG_E_LIMIT and a message naming the memory needed */
} vsg_ses_options;
void vsg_ses_options_default(vsg_ses_options *o);

/* Solvent-excluded (probe > 0) or van der Waals (probe = 0) surface of the molecule's atoms
 * (centres and radii), triangulated on a lattice. Atoms with radius ≤ 0 are skipped. */
vsg_status vsg_ses_mesh(const vsg_molecule *m, const vsg_ses_options *o, vsg_mesh **out);

/* MSMS output pair (what GEM reads): `vert` lines "x y z nx ny nz face sphere type" after a
 * 3-line header whose last line starts with the vertex count; `face` lines "v1 v2 v3 type
 * sphere" (1-based) after a 3-line header. Plain or gzip. The MSMS sphere number (1-based)
 * becomes atom (0-based). Normals are normalised as read; MSMS orders faces
 * counter-clockwise from outside. Errors name file and line. */
vsg_status vsg_msms_read(const char *vert_path, const char *face_path, vsg_mesh **out);

/* Topology check: counts undirected edges not shared by exactly two faces (open or
 * non-manifold) and edges whose two faces traverse them in the same direction
 * (inconsistent orientation). Also returns the Euler characteristic V − E + F. */
typedef struct {
    size_t edges, boundary_or_nonmanifold, misoriented, unused_vertices;
    long euler;
} vsg_mesh_topology;
vsg_status vsg_mesh_check(const vsg_mesh *m, vsg_mesh_topology *t);

/* Total area (Å²) and enclosed volume (Å³, divergence theorem; positive when oriented
 * outward). Per-vertex area = one third of the area of each incident triangle (area may be
 * NULL). */
double vsg_mesh_area(const vsg_mesh *m, double *vertex_area);
double vsg_mesh_volume(const vsg_mesh *m);

#endif
