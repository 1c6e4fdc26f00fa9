/* gpu_twins_kit.h — the GPU search's energy against its CPU twin's, for the GPU docking tests
 * (test_gpu_dock.c: Vina function; test_gpu_dock_ad4.c: AutoDock4; test_gpu_dock_flex.c: flexible
 * side chains). One packed record, NCONF random conformations (half near the input pose, half
 * anywhere in the box), evaluated by dock_gpu_eval in float and by dock_eval in double on the
 * same (float-rounded) conformations, at the hunting and the refining cap; the worst relative
 * differences are printed and checked. */
#ifndef VSG_TEST_GPU_TWINS_KIT_H
#define VSG_TEST_GPU_TWINS_KIT_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "gpu/dock/dock_gpu.h"
#include "ligands/dock/dock_internal.h"
#include "ligands/dock/dock_method.h"
#include "ligands/dock/dock_rng.h"
#include "tests/check.h"

enum { TWIN_NCONF = 300 };

/* Record 0 of b (tree, energy en) on maps m: |ΔE| ≤ tol_e·(1 + |E|) and every gradient component
 * within tol_g·(1 + |∇|max), at both caps. Positions drawn in [lo, hi]; torsions from flex_from on
 * (a flex residue's: tree->nrot when none) reported apart. Returns conformations whose CPU energy
 * exceeded big (atoms outside an AutoGrid set's grid: its penalty's branch), at the first cap. */
static inline int twin_energy(const char *label, dock_gpu_maps *m, const dock_gpu_batch *b, const dock_tree *tree,
                              const dock_energy *en, const double lo[3], const double hi[3], uint64_t seed, double tol_e,
                              double tol_g, int flex_from, double big)
{
    const int nr = tree->nrot, stride = 8 + b->max_rot, ng = 6 + b->max_rot, n = TWIN_NCONF;
    float *conf = calloc((size_t)n * (size_t)stride, sizeof(float));
    float *e = calloc((size_t)n, sizeof(float)), *g = calloc((size_t)n * (size_t)ng, sizeof(float));
    int *rec = calloc((size_t)n, sizeof(int)), over = 0;
    dock_conf *cs = calloc((size_t)n, sizeof *cs);
    double *torbuf = calloc((size_t)n * ((size_t)nr + 1), sizeof(double)), *grad = malloc(sizeof(double) * (6 + (size_t)nr));
    dock_rng rng = dock_rng_for(seed, 0);
    for (int i = 0; i < n; i++) {
        dock_conf *c = &cs[i];
        c->tor = torbuf + (size_t)i * ((size_t)nr + 1);
        const int near = i < n / 2;
        for (int k = 0; k < 3; k++) c->pos[k] = near ? tree->origin0[k] + dock_rng_range(&rng, -1, 1) : dock_rng_range(&rng, lo[k], hi[k]);
        if (near) {
            double rv[3];
            dock_rng_in_sphere(&rng, rv);
            c->q[0] = 1, c->q[1] = c->q[2] = c->q[3] = 0;
            double d6[6] = {0, 0, 0, 0.4 * rv[0], 0.4 * rv[1], 0.4 * rv[2]};
            dock_tree rigid = *tree;
            rigid.nrot = 0;
            dock_conf_increment(&rigid, c, d6, 1.0);
        } else {
            dock_rng_quat(&rng, c->q);
        }
        for (int k = 0; k < nr; k++) c->tor[k] = near ? dock_rng_range(&rng, -0.5, 0.5) : dock_rng_range(&rng, -DOCK_PI, DOCK_PI);
        float *o = conf + (size_t)i * (size_t)stride;
        for (int k = 0; k < 3; k++) o[1 + k] = (float)c->pos[k];
        for (int k = 0; k < 4; k++) o[4 + k] = (float)c->q[k];
        for (int k = 0; k < nr; k++) o[8 + k] = (float)c->tor[k];
        /* the CPU evaluates the conformation the GPU sees: the float-rounded one */
        for (int k = 0; k < 3; k++) c->pos[k] = o[1 + k];
        for (int k = 0; k < 4; k++) c->q[k] = o[4 + k];
        for (int k = 0; k < nr; k++) c->tor[k] = o[8 + k];
    }
    dock_work w;
    CHECK_STATUS(dock_work_init(&w, tree, en), VSG_OK);
    for (int cap = 0; cap < 2 && m && grad; cap++) {
        const double v = cap ? DOCK_AUTHENTIC_CAP : DOCK_HUNT_CAP;
        CHECK_STATUS(dock_gpu_eval(m, b, rec, conf, n, v, e, g), VSG_OK);
        double worst_e = 0, worst_g = 0, worst_f = 0;
        for (int i = 0; i < n; i++) {
            const double ec = dock_eval(&w, &cs[i], v, grad);
            over += cap == 0 && ec > big;
            const double de = fabs(ec - e[i]) / (1 + fabs(ec));
            double norm = 0;
            for (int k = 0; k < 6 + nr; k++) norm = fmax(norm, fabs(grad[k]));
            for (int k = 0; k < 6 + nr; k++) {
                const double dg = fabs(grad[k] - g[(size_t)i * (size_t)ng + (size_t)k]) / (1 + norm);
                if (dg > worst_g) worst_g = dg;
                if (k >= 6 + flex_from && dg > worst_f) worst_f = dg;
                if (dg > tol_g)
                    fprintf(stderr, "%s conf %d cap %g: d%d CPU %.6g GPU %.6g\n", label, i, v, k, grad[k], g[(size_t)i * (size_t)ng + (size_t)k]);
            }
            if (de > worst_e) worst_e = de;
            if (de > tol_e) fprintf(stderr, "%s conf %d cap %g: E CPU %.6f GPU %.6f\n", label, i, v, ec, e[i]);
        }
        printf("%s energy, cap %g: %d conformations, worst |dE|/(1+|E|) %.2e, worst gradient %.2e", label, v, n, worst_e, worst_g);
        if (flex_from < nr) printf(" (the flex residues' torsions %.2e)", worst_f);
        printf("\n");
        CHECK(worst_e <= tol_e);
        CHECK(worst_g <= tol_g);
    }
    dock_work_release(&w);
    free(conf), free(e), free(g), free(rec), free(cs), free(torbuf), free(grad);
    return over;
}

#endif
