/* dock_energy_atoms.c — one ligand atom's intermolecular energy on the receptor's atoms, with its
 * gradient: what final poses are refined on when the map set carries its receptor
 * (vsg_vina_target_add_receptor), as AutoDock Vina 1.2 refines its docked poses with
 * `--receptor` (vina.cpp's dock(): quasi_newton on non_cache, whose eval_deriv this follows).
 * The atom is clamped into the maps' box, every typed receptor atom within 8 Å adds its pair
 * energy, linear in r² between the samples at k/32 Å² (the function whose bin means are Vina's
 * score table, as dock_energy.c's intramolecular pairs), the sum is curled at v, and each Å
 * outside the box adds `slope` kcal/mol. */
#include <math.h>

#include "ligands/dock/dock_internal.h"

double dock_atoms_inter(const vsg_vina_target *t, int xs, const double p[3], double v, double slope, double grad[3])
{
    double q[3], penalty = 0, out_grad[3] = {0, 0, 0};
    for (int d = 0; d < 3; d++) {
        q[d] = p[d];
        if (p[d] < t->begin[d]) q[d] = t->begin[d], penalty += t->begin[d] - p[d], out_grad[d] = -slope;
        else if (p[d] > t->end[d]) q[d] = t->end[d], penalty += p[d] - t->end[d], out_grad[d] = slope;
    }
    penalty *= slope;
    double e = 0, de[3] = {0, 0, 0};
    int lo[3], hi[3], any = 1;
    for (int d = 0; d < 3; d++) {
        lo[d] = (int)floor((q[d] - 8.0 - t->cell_lo[d]) / 8.0);
        hi[d] = (int)floor((q[d] + 8.0 - t->cell_lo[d]) / 8.0);
        if (lo[d] < 0) lo[d] = 0;
        if (hi[d] > t->ncell[d] - 1) hi[d] = t->ncell[d] - 1;
        if (lo[d] > hi[d]) any = 0; /* no receptor atom within 8 Å */
    }
    const size_t per = VINA_TABLE_BINS + 1;
    const double *row = t->samples + (size_t)xs * VSG_XS_COUNT * per;
    for (int cz = lo[2]; any && cz <= hi[2]; cz++)
        for (int cy = lo[1]; cy <= hi[1]; cy++)
            for (int cx = lo[0]; cx <= hi[0]; cx++) {
                const int c = cx + t->ncell[0] * (cy + t->ncell[1] * cz);
                for (int j = t->cell_start[c]; j < t->cell_start[c + 1]; j++) {
                    const double *r = &t->rxyz[3 * j];
                    const double dx = q[0] - r[0], dy = q[1] - r[1], dz = q[2] - r[2];
                    const double r2 = dx * dx + dy * dy + dz * dz;
                    if (!(r2 < VINA_CUTOFF_SQR)) continue;
                    const double *tab = row + (size_t)t->rtype[j] * per;
                    const double xk = r2 * VINA_TABLE_FACTOR;
                    int k0 = (int)xk;
                    if (k0 > VINA_TABLE_BINS - 1) k0 = VINA_TABLE_BINS - 1;
                    const double d = tab[k0 + 1] - tab[k0];
                    e += tab[k0] + (xk - k0) * d;
                    const double dr2 = d * VINA_TABLE_FACTOR * 2; /* dE/dr² · 2, times (q − r) */
                    de[0] += dr2 * dx, de[1] += dr2 * dy, de[2] += dr2 * dz;
                }
            }
    double curl_slope = 1;
    if (e > 0) {
        const double s = v + e;
        curl_slope = v * v / (s * s);
        e = e * v / s;
    }
    if (grad)
        for (int d = 0; d < 3; d++) /* along an axis where the atom is clamped, only the slope moves it
                                       (the true derivative, as dock_energy.c's maps; Vina's
                                       non_cache adds the clamped point's pair force too) */
            grad[d] = out_grad[d] != 0 ? out_grad[d] : curl_slope * de[d];
    return e + penalty;
}
