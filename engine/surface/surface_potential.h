/* surface_potential.h — the surface-potential pipeline behind `vsgrid surface`: potentials at the
 * vertices of a mesh, exact or HCP, on the GPU or the CPU twin, and the tables written from
 * them. */
#ifndef VSG_SURFACE_POTENTIAL_H
#define VSG_SURFACE_POTENTIAL_H

#include <stdio.h>

#include "grids/surface/alpb.h"
#include "grids/surface/hcp.h"
#include "grids/surface/surface_mesh.h"

typedef enum { VSG_SURFACE_EXACT = 0, VSG_SURFACE_HCP = 1 } vsg_surface_mode;

typedef struct {
    vsg_alpb_params alpb;
    vsg_surface_mode mode;
    double thresholds[3];     /* residue, chain, complex (Å) */
    vsg_device device;        /* auto: GPU when one is usable, else the CPU twin */
    int gpu_index;
} vsg_surface_options;
void vsg_surface_options_default(vsg_surface_options *o);

typedef struct {
    vsg_alpb k;               /* the constants used (A, region, κ...) */
    int on_gpu;
    char device_name[128];
    double pairs;             /* charge–vertex pair evaluations */
    double kernel_seconds;    /* evaluation alone (GPU kernel, or the CPU loop) */
    double seconds;           /* with setup and transfers */
    double device_bytes;
    size_t nres, nchain, ncplx;
} vsg_surface_report;

/* phi[v] in kcal/(mol·e). h may be NULL (built here when needed). */
vsg_status vsg_surface_potential(const vsg_molecule *m, const vsg_hcp *h, const vsg_mesh *mesh,
                                 const vsg_surface_options *o, double *phi, vsg_surface_report *r);

/* Per-vertex CSV in vertex input order: vertex,x,y,z,nx,ny,nz,atom,residue_name,
 * residue_number,chain,potential_kT_e,potential_kcal_mol_e (atom 1-based, 0 when unknown). */
vsg_status vsg_surface_write_vertices(const char *path, const vsg_molecule *m, const vsg_mesh *mesh,
                                      const double *phi_kcal, double kt_kcal);

/* Per-residue table: the vertices whose nearest atom belongs to each residue; area = their
 * share (one third of each incident triangle); mean is area-weighted; residues without
 * surface vertices are listed with 0 vertices (buried). */
vsg_status vsg_surface_write_residues(const char *path, const vsg_molecule *m, const vsg_hcp *h,
                                      const vsg_mesh *mesh, const double *phi_kcal, double kt_kcal);

#endif
