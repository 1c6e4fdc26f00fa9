/* molecule.h — the receptor/ligand model every reader fills and every solver reads. */
#ifndef VSG_MOLECULE_H
#define VSG_MOLECULE_H

#include <stddef.h>
#include <stdint.h>

#include "grids/base/vsgrid.h"

/* Atoms keep what the hierarchy of later stages (HCP: atom → residue → chain → model)
 * needs, and where they came from, so every message can name file and line. */
typedef vsg_atom_info vsg_atom;

struct vsg_molecule {
    vsg_atom *atoms;
    size_t n, cap;
    char source[512];   /* path as given */
    char format[8];     /* "pqr", "pdbqt", "mol2", "pdb" */
};

vsg_molecule *vsg_molecule_new(const char *source, const char *format);
/* Appends one atom (copied). VSG_E_NOMEM on allocation failure. */
vsg_status vsg_molecule_push(vsg_molecule *m, const vsg_atom *a);
/* Geometry helpers. */
void vsg_molecule_bounds(const vsg_molecule *m, int with_radii, double lo[3], double hi[3]);
double vsg_molecule_max_radius(const vsg_molecule *m);

/* Per-format readers: fill m from path (plain or gzip). On error they return the status with
 * vsg_last_error() = "path:line: what is wrong". */
vsg_status vsg_read_pqr(const char *path, vsg_molecule *m);
vsg_status vsg_read_pdbqt(const char *path, vsg_molecule *m);
vsg_status vsg_read_mol2(const char *path, vsg_molecule *m);
vsg_status vsg_read_pdb(const char *path, vsg_molecule *m);

/* Radii (Å) used when the file has none. */
double vsg_radius_for_ad_type(const char *ad_type);   /* AutoDock 4 parameter Rii/2; 0 if unknown */
double vsg_radius_for_element(const char *element);   /* Bondi-like vdW radii; 0 if unknown */

#endif
