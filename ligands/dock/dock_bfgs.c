/* dock_bfgs.c — the local optimiser of the docking search (dock_internal.h): BFGS on the
 * inverse Hessian over position, rotation vector and torsions, the method of Vina's
 * quasi_newton/bfgs (Nocedal & Wright, ch. 6): the first step scales the identity by
 * y·s / y·y, each step a backtracking line search from α = 1 halving up to 10 times until the
 * Armijo condition (c = 10⁻⁴) holds, the update skipped when y·s is not positive, a stop when
 * the gradient's norm falls under 10⁻⁵; the result is never worse than the start. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ligands/dock/dock_internal.h"
#include "ligands/dock/dock_method.h"

vsg_status dock_work_init(dock_work *w, const dock_tree *t, const dock_energy *en)
{
    memset(w, 0, sizeof *w);
    w->tree = t, w->en = en;
    w->n = 6 + t->nrot;
    const size_t n = (size_t)w->n, na = 3 * (size_t)t->natoms;
    w->xyz = malloc(sizeof(double) * na);
    w->g_atoms = malloc(sizeof(double) * na);
    w->h = malloc(sizeof(double) * n * n);
    w->g = malloc(sizeof(double) * n * 6);
    w->tor_buf = malloc(sizeof(double) * (size_t)(2 * t->nrot + 1));
    if (!w->xyz || !w->g_atoms || !w->h || !w->g || !w->tor_buf) {
        dock_work_release(w);
        return vsg_fail(VSG_E_NOMEM, "dock: out of memory");
    }
    w->g_new = w->g + n, w->p = w->g + 2 * n, w->y = w->g + 3 * n, w->hy = w->g + 4 * n;
    return VSG_OK;
}

void dock_work_release(dock_work *w)
{
    if (!w) return;
    free(w->xyz);
    free(w->g_atoms);
    free(w->h);
    free(w->g);
    free(w->tor_buf);
    memset(w, 0, sizeof *w);
}

double dock_eval(dock_work *w, const dock_conf *c, double cap, double *grad)
{
    dock_conf_apply(w->tree, c, w->xyz);
    const double e = dock_energy_eval(w->en, w->xyz, cap, grad ? w->g_atoms : NULL, NULL, NULL);
    if (grad) dock_tree_gradient(w->tree, c, w->xyz, w->g_atoms, grad);
    w->evals++;
    return e;
}

static double dot(const double *a, const double *b, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++) s += a[i] * b[i];
    return s;
}

static void conf_copy(dock_conf *dst, const dock_conf *src, int nrot)
{
    memcpy(dst->pos, src->pos, sizeof dst->pos);
    memcpy(dst->q, src->q, sizeof dst->q);
    if (nrot) memcpy(dst->tor, src->tor, sizeof(double) * (size_t)nrot);
}

double dock_bfgs(dock_work *w, dock_conf *c, int max_steps, double cap)
{
    const int n = w->n, nrot = w->tree->nrot;
    double *h = w->h, *g = w->g, *g_new = w->g_new, *p = w->p, *y = w->y, *hy = w->hy;
    dock_conf trial = {{0}, {1, 0, 0, 0}, w->tor_buf}, start = {{0}, {1, 0, 0, 0}, w->tor_buf + nrot};
    conf_copy(&start, c, nrot);
    for (int i = 0; i < n * n; i++) h[i] = 0;
    for (int i = 0; i < n; i++) h[i * n + i] = 1;
    double f0 = dock_eval(w, c, cap, g);
    const double f_start = f0;
    for (int step = 0; step < max_steps; step++) {
        for (int i = 0; i < n; i++) p[i] = -dot(&h[i * n], g, n);
        const double pg = dot(p, g, n);
        double alpha = 1, f1 = 0;
        for (int trialn = 0; trialn < DOCK_LINE_TRIALS; trialn++) {
            conf_copy(&trial, c, nrot);
            dock_conf_increment(w->tree, &trial, p, alpha);
            f1 = dock_eval(w, &trial, cap, g_new);
            if (f1 - f0 < DOCK_ARMIJO * alpha * pg) break;
            alpha *= 0.5;
        }
        for (int i = 0; i < n; i++) y[i] = g_new[i] - g[i];
        f0 = f1;
        conf_copy(c, &trial, nrot);
        if (!(sqrt(dot(g, g, n)) >= DOCK_GRAD_STOP)) break; /* also stops on NaN */
        memcpy(g, g_new, sizeof *g * (size_t)n);
        if (step == 0) {
            const double yy = dot(y, y, n);
            if (fabs(yy) > 1e-12) {
                const double s = alpha * dot(y, p, n) / yy;
                for (int i = 0; i < n; i++) h[i * n + i] = s;
            }
        }
        /* inverse-Hessian update with s = α p (skipped unless the curvature is positive) */
        const double yp = dot(y, p, n);
        if (!(alpha * yp > 1e-12)) continue;
        for (int i = 0; i < n; i++) hy[i] = dot(&h[i * n], y, n);
        const double yhy = dot(y, hy, n), r = 1 / (alpha * yp);
        for (int i = 0; i < n; i++)
            for (int j = i; j < n; j++) {
                const double v = h[i * n + j] - alpha * r * (hy[i] * p[j] + hy[j] * p[i]) +
                                 alpha * alpha * (r * r * yhy + r) * p[i] * p[j];
                h[i * n + j] = h[j * n + i] = v;
            }
    }
    if (!(f0 <= f_start)) {
        conf_copy(c, &start, nrot);
        f0 = f_start;
    }
    return f0;
}

double dock_bfgs_settle(dock_work *w, dock_conf *c, int max_steps)
{
    /* a search refines a kept minimum once; here the minimum itself is the answer */
    double e = dock_bfgs(w, c, max_steps, DOCK_AUTHENTIC_CAP);
    for (int round = 0; round < 20; round++) {
        const double e2 = dock_bfgs(w, c, max_steps, DOCK_AUTHENTIC_CAP);
        const int better = e2 < e - 1e-6;
        e = e2 < e ? e2 : e;
        if (!better) break;
    }
    return e;
}
