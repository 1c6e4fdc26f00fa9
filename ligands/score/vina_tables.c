/* vina_tables.c — Vina's r² tables (precalculate.h's "fast" values): for each XS type pair,
 * bin k = ⌊32 r²⌋ holds the mean of the pair energy at r² = k/32 and (k+1)/32, the energies
 * from the public analytic terms (vsg_vina_pair_terms). Vina scores poses, with or without maps,
 * from these bins, so they are what must be matched, not the analytic curve. */
#include <math.h>
#include <stdlib.h>

#include "ligands/score/vina_internal.h"

vsg_status vina_tables_build(vsg_vina_scoring sf, vina_tables *t)
{
    if (!t || (sf != VSG_VINA_SCORING_VINA && sf != VSG_VINA_SCORING_VINARDO))
        return vsg_fail(VSG_E_ARG, "Vina tables: unknown scoring function");
    t->sf = sf;
    t->bins = malloc(sizeof *t->bins * (size_t)VSG_XS_COUNT * VSG_XS_COUNT * VINA_TABLE_BINS);
    double *smooth = malloc(sizeof *smooth * (VINA_TABLE_BINS + 1));
    if (!t->bins || !smooth) {
        free(smooth);
        vina_tables_release(t);
        return vsg_fail(VSG_E_NOMEM, "Vina tables: out of memory");
    }
    for (int a = 0; a < VSG_XS_COUNT; a++)
        for (int b = a; b < VSG_XS_COUNT; b++) {
            for (int k = 0; k <= VINA_TABLE_BINS; k++) {
                vsg_vina_terms e;
                vsg_status st = vsg_vina_pair_terms(sf, (vsg_xs_type)a, (vsg_xs_type)b, sqrt(k / VINA_TABLE_FACTOR), &e);
                if (st != VSG_OK) {
                    free(smooth);
                    vina_tables_release(t);
                    return st;
                }
                smooth[k] = e.energy;
            }
            double *ab = t->bins + ((size_t)a * VSG_XS_COUNT + b) * VINA_TABLE_BINS;
            double *ba = t->bins + ((size_t)b * VSG_XS_COUNT + a) * VINA_TABLE_BINS;
            for (int k = 0; k < VINA_TABLE_BINS; k++) ab[k] = ba[k] = (smooth[k + 1] + smooth[k]) / 2;
        }
    free(smooth);
    return VSG_OK;
}

void vina_tables_release(vina_tables *t)
{
    if (!t) return;
    free(t->bins);
    t->bins = NULL;
}
