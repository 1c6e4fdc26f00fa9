/* alpb.h — the analytic linearized Poisson–Boltzmann (ALPB) potential on a molecular surface.
 *
 * ALPB (Sigalov, Fenley & Onufriev 2006; Fenley, Gordon & Onufriev 2008) replaces the PB
 * solve by a closed form built on the molecule's effective electrostatic size A: a charge q
 * at distance d from an evaluation point p gives, with β = ε_in/ε_out, α = 0.571412,
 * r = A + projection (where p sits in the effective-sphere picture), r' = A + ion radius and
 * d' = |p' − atom| with p' = vertex + ion_radius·n (the point on the ion-exclusion surface):
 *
 *   region 3 (r > r', beyond the ion-exclusion layer):
 *     φ = q/((1+αβ)ε_out) · [ (1+α)·e^{−κ(d−d')}/(d(1+κd')) − α(1−β)·e^{−κ(r−r')}/(r(1+κr')) ]
 *   region 2 (A ≤ r ≤ r', inside the layer; vsgrid's default, r = A on the surface):
 *     φ = q/((1+αβ)ε_out) · [ (1+α)(1/d + 1/(d'(1+κd')) − 1/d') − α(1−β)/r
 *                             + α(1−β)/r' · (1 − 1/(1+κr')) ]
 *   region 1 (r < A, inside; GEM uses it at r = A too):
 *     φ = q · [ 1/(ε_in d) − (1/ε_in − 1/ε_out)/((1+αβ)A) · A²/√((A²−r0²)(A²−r²) + A²d²)
 *               + ((1+α)(1/(d'(1+κd')) − 1/d') + α(1−β)/r'·(1 − 1/(1+κr')))/((1+αβ)ε_out) ]
 *     with r0 = A/2 (GEM's guess of a charge's depth).
 *
 * Regions 2 and 3 are exact for a charge at the centre of a sphere of radius A (Born /
 * Debye–Hückel with an ion-exclusion radius r'), which is what test_alpb checks; paper 004's
 * eq. 1 prints 1/ε_in in front of the bracket, which would make that limit ε_out/ε_in too
 * large: the salt-free region-3 formula above (1/ε_out) is the one GEM evaluates.
 *
 * Units: distances Å, charges e; the sums are multiplied by the Coulomb constant, giving
 * kcal/(mol·e); kT/e = kcal/(mol·e) / (R·T).
 *
 * --gem-compat reproduces GEM (Gordon, Fenley, Onufriev; the OpenDwarfs "gem" code) exactly:
 * Coulomb constant 332 (charges scaled on read), κ = 0.316·√salt, projection 0 and ion
 * radius 2.0 by default, region chosen with r > A strictly (so region 1 on the surface),
 * A from its moment-of-inertia estimate (vsg_alpb_estimate_A), single-precision results,
 * output in kcal/(mol·e) as GEM's dumpVertices prints them. vsgrid's own defaults differ
 * only where GEM's choices are approximations: κ from the Debye length at the temperature,
 * 332.0637, and region 2 on the surface (r ≥ A counts as outside), which is exact in the
 * centred-sphere limit where GEM's region-1 formula is 1.57× too large (β → 0). */
#ifndef VSG_ALPB_H
#define VSG_ALPB_H

#include <stddef.h>

#include "grids/base/vsgrid.h"

#ifdef __cplusplus
extern "C" {
#endif

#define VSG_ALPB_ALPHA 0.571412

/* vsg_alpb_params, vsg_alpb_params_default and vsg_alpb (everything a pair evaluation needs,
 * derived once by vsg_alpb_setup) are public (vsgrid.h). */

/* GEM's effective electrostatic size (Sigalov, Fenley & Onufriev 2006, "A_det"): atoms as
 * uniform spheres of mass r³, A = √(5/2 / M) · det(I)^{1/6} with I the inertia tensor. */
double vsg_alpb_estimate_A(const vsg_molecule *m);

vsg_status vsg_alpb_setup(const vsg_alpb_params *p, const vsg_molecule *m, vsg_alpb *out);

/* Potential (per unit Coulomb constant, i.e. e/Å) at evaluation distances d and d' from a
 * unit charge. d' matters only with salt. */
double vsg_alpb_pair(const vsg_alpb *k, double d, double dprime);

/* Exact all-pairs potential (kcal/(mol·e)) at each mesh vertex from every atom, double
 * precision, OpenMP. phi has mesh->nvert entries. */
vsg_status vsg_alpb_exact_cpu(const vsg_alpb *k, const vsg_molecule *m, const vsg_mesh *mesh,
                              double *phi);

/* The two evaluation points of vertex i: p = v + projection·n, p' = v + ion_radius·n. */
void vsg_alpb_points(const vsg_alpb *k, const vsg_mesh *mesh, size_t i, double p[3], double pp[3]);

#ifdef __cplusplus
}
#endif

#endif
