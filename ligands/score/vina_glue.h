/* vina_glue.h — the macrocycle glue pair of AutoDock Vina 1.2 (Meeko's Gk pseudo-atom with the
 * closure carbon CGk of its label that it stands in for), the one formula the CPU search
 * (ligands/dock/dock_energy.c, double) and the GPU search (gpu/dock/dock_gpu.cu, float, the
 * same constants) evaluate.
 *
 * Source (AutoDock-Vina, src/lib): potentials.h `linearattraction` returns r for a glued pair
 * (is_glued: XS types Gk and C_H_CGk/C_P_CGk) below its cutoff, 20 Å (scoring_function.h, for
 * vina, vinardo and ad4 alike); its weight is `weight_glue` = 50 (main.cpp, "macrocycle glue
 * weight"). The pair's energy is ScoringFunction::eval, the weighted sum of every potential of
 * the function over the pair, so the glue pair also gets the steric terms of Gk (XS radius 0)
 * against CGk (radius 1.9 Å; Vinardo's 2.0) below 8 Å: Gk is neither hydrophobic nor an H-bond
 * partner, so those are the gaussians and the repulsion at surface distance d = r − R, R = 1.9 Å
 * (Vinardo 2.0). With the weights of vina_terms.c:
 *   Vina:    e(r) = 50 r + [r < 8] (−0.035579 exp(−(d/0.5)²) − 0.005156 exp(−((d − 3)/2)²)
 *                                   + 0.840245 d² [d < 0])
 *   Vinardo: e(r) = 50 r + [r < 8] (−0.045 exp(−(d/0.8)²) + 0.8 d² [d < 0])
 * for r < 20 Å, 0 beyond (as Vina). At closure (r = 0) e = 3.033 kcal/mol (Vina) or 3.200
 * (Vinardo): the repulsion of a zero-radius atom sitting on a carbon, a constant of closed rings.
 * model.cpp evaluates the glue pairs in the search (eval_deriv, curled at v[2] like the
 * intramolecular pairs) and, since Vina 1.2.4, not in the intramolecular energy that
 * --score_only and the reported affinities use; vsgrid does the same (the search energy only).
 * Vina reads e from its per-pair r² table (samples at k/32 Å², linear between); vsgrid evaluates
 * the function itself, with its exact gradient (de/dr = 50 + the terms' derivatives; at r = 0
 * the direction is undefined and the gradient is taken as 0). */
#ifndef VSG_VINA_GLUE_H
#define VSG_VINA_GLUE_H

#include <math.h>

#define VINA_GLUE_WEIGHT 50.0      /* main.cpp weight_glue */
#define VINA_GLUE_CUTOFF_SQR 400.0 /* Å²: linearattraction(20.0) */
#define VINA_GLUE_STERIC_SQR 64.0  /* Å²: the 8 Å cutoff of the other potentials */
#define VINA_GLUE_R_VINA 1.9       /* xs_vdw_radii: G 0, CG 1.9 */
#define VINA_GLUE_R_VINARDO 2.0    /* xs_vinardo_vdw_radii: G 0, CG 2.0 */

/* e(r) of the glue pair at r² (Vinardo when vinardo is set); *dedr gets de/dr. */
static inline double vina_glue_energy(int vinardo, double r2, double *dedr)
{
    *dedr = 0;
    if (!(r2 < VINA_GLUE_CUTOFF_SQR)) return 0;
    const double r = sqrt(r2);
    double e = VINA_GLUE_WEIGHT * r, de = VINA_GLUE_WEIGHT;
    if (r2 < VINA_GLUE_STERIC_SQR) {
        const double d = r - (vinardo ? VINA_GLUE_R_VINARDO : VINA_GLUE_R_VINA);
        if (vinardo) {
            const double g = d / 0.8, x = exp(-(g * g));
            e += -0.045 * x, de += -0.045 * x * (-2 * g / 0.8);
            if (d < 0) e += 0.8 * d * d, de += 1.6 * d;
        } else {
            const double g1 = d / 0.5, g2 = (d - 3) / 2, x1 = exp(-(g1 * g1)), x2 = exp(-(g2 * g2));
            e += -0.035579 * x1 - 0.005156 * x2;
            de += -0.035579 * x1 * (-2 * g1 / 0.5) - 0.005156 * x2 * (-2 * g2 / 2);
            if (d < 0) e += 0.840245 * d * d, de += 2 * 0.840245 * d;
        }
    }
    *dedr = de;
    return e;
}

#endif
