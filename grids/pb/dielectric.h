/* surface.h — dielectric at the midpoints between grid nodes, and ion accessibility.
 *
 * For each node L and axis d the edge L → L + e_d gets a code: how many of its `samples`
 * sample points lie inside the molecule (0 = all solvent). The edge's dielectric is the
 * harmonic mean along it, 1/ε = f/ε_in + (1 − f)/ε_out with f = code/samples — the exact
 * flux-weighted average for a layered edge.
 *   vdw:    inside = within the van der Waals radius of an atom; one sample, the midpoint.
 *   ses:    inside = not reachable by a solvent probe (radius `probe`): van der Waals volume
 *           plus the re-entrant regions; one sample, the midpoint.
 *   smooth: the ses (or vdw if probe = 0) indicator sampled at VSG_SMOOTH_SAMPLES points
 *           along each edge, so ε varies gradually across the boundary.
 */
#ifndef VSG_SURFACE_H
#define VSG_SURFACE_H

#include <stdint.h>

#include "grids/base/balls.h"
#include "grids/receptor/molecule.h"

#define VSG_SMOOTH_SAMPLES 4

/* Solvent probe positions on the solvent-accessible surface: points on each atom's sphere
 * of radius r + probe not inside any other such sphere. Spacing about `step` Å. */
vsg_status vsg_sas_points(const vsg_molecule *m, double probe, double step, vsg_ball **out,
                          size_t *count);

/* Marks lattice points inside the molecule (bit 1 of out, which is zeroed first). `probe_balls`
 * are sorted SAS points with r = probe (NULL/0 for vdw); `vdw` and `sas` are the atoms as
 * sorted balls of radius r and r + probe. */
vsg_status vsg_mark_inside(const vsg_ball *vdw, const vsg_ball *sas, size_t natoms,
                           const vsg_ball *probe_balls, size_t nprobe, const vsg_lattice *lat,
                           uint8_t *out);

/* Codes for the three edge directions (each array nodes long), for the node lattice `nodes`. */
vsg_status vsg_dielectric_codes(const vsg_molecule *m, const vsg_lattice *nodes, vsg_surface surf,
                                double probe, uint8_t *codes[3], int *samples);

/* flags[L] |= bit where node L is NOT ion-accessible (within r_i + ion_radius of an atom). */
vsg_status vsg_ion_exclusion(const vsg_molecule *m, const vsg_lattice *nodes, double ion_radius,
                             uint8_t *flags, uint8_t bit);

#endif
