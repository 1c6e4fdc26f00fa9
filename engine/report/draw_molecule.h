/* draw_molecule.h — ligand poses projected onto a slice picture (vsg_render_slice_rgb), and
 * the legend lines that name them. Each pose is drawn as a 2-D projection onto the plane: bonds
 * as lines coloured by their atoms' elements, atoms as small discs, faded with the distance
 * from the plane, over the potential. */
#ifndef VSG_DRAW_MOLECULE_H
#define VSG_DRAW_MOLECULE_H

#include <stdint.h>

#include "grids/base/vsgrid.h"

/* Depth cue: atoms and bonds within VSG_POSE_NEAR Å of the plane are opaque; opacity falls
 * linearly to VSG_POSE_FAR_ALPHA at VSG_POSE_FAR Å and stays there beyond. */
#define VSG_POSE_NEAR 1.5
#define VSG_POSE_FAR 6.0
#define VSG_POSE_FAR_ALPHA 0.25
/* Poses after the first of a file: thinner lines, open rings, this much of the opacity. */
#define VSG_POSE_LATER_ALPHA 0.6

/* Colour of an element symbol ("C", "Cl"; "" unknown), CPK-like but dark enough to read over
 * the red-white-blue map: C dark grey (the file's carbon colour, carbon_style 0..; see
 * vsg_pose_carbon_color), N blue, O red, S yellow, P orange, F/Cl/Br/I green, H light grey,
 * anything else pink. */
void vsg_element_color(const char *element, int carbon_style, uint8_t rgb[3]);
/* Carbon colour of the style-th ligand file: dark grey, teal, purple, brown, then again. */
void vsg_pose_carbon_color(int style, uint8_t rgb[3]);

/* Where the slice picture lies: its plane, the grid's shape and the report of
 * vsg_render_slice_rgb (plot position and size; pixels per grid spacing derive from them). */
typedef struct {
    int axis;                 /* 0 = x, 1 = y, 2 = z */
    double position;          /* Å */
    vsg_grid_shape shape;
    vsg_slice_report report;
} vsg_slice_frame;

/* The picture position of a point: pixel column and row (centres at integers) in the whole
 * picture, and its signed distance from the plane (Å). */
void vsg_slice_project(const vsg_slice_frame *f, const double xyz[3], double *col, double *row, double *depth);

/* Draws poses[0..nposes) of one file into rgb (the slice picture, f->report's size), the
 * first pose on top with a thin white halo, the later ones thinner and fainter (open rings).
 * Hydrogens (element H or D) only when hydrogens != 0. Records without bonds (PDBQT) get bonds
 * by distance for the picture: 0.4 Å < d < r_cov(a) + r_cov(b) + 0.45 Å. Drawing is clipped to
 * the plot. Returns the drawn atoms whose centre projects inside the plot, or -1 when out of
 * memory. */
int vsg_draw_poses(uint8_t *rgb, const vsg_slice_frame *f, const vsg_ligand *poses, int nposes, int hydrogens,
                   int carbon_style);

/* Adds legend lines under the picture: line k has a disc in carbon style styles[k] and
 * text[k]; a last line keys the element colours. The picture grows by those lines (and to the
 * right when a line is wider), the old pixels keep their places. Updates r->width, r->height.
 * Returns VSG_OK or VSG_E_NOMEM (*rgb unchanged). */
vsg_status vsg_slice_add_legend(uint8_t **rgb, vsg_slice_report *r, const char *const *text, const int *styles,
                                int n);

#endif
