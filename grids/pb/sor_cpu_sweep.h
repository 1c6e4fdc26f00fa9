/* sor_cpu_sweep.h — one colour sweep of the checkerboard SOR, instantiated for double and
 * float by sor_cpu.c (define REAL and SWEEP before including). Returns max |Δφ| when
 * `check` is set, else 0. */

static double SWEEP(vsg_pb_system *s, int c, double omega, double lambda, int check)
{
    const int nx = s->nx, ny = s->ny, nz = s->nz;
    REAL *restrict p = (REAL *)s->phi[c];
    const REAL *restrict o = (const REAL *)s->phi[1 - c];
    const uint8_t *restrict fl = s->flag[c];
    const ptrdiff_t dx = 1, dy = nx, dz = (ptrdiff_t)nx * ny;
    /* Index in the other colour of neighbour L + d is (L >> 1) + floor((c + d) / 2). */
#define OFF(d) ((ptrdiff_t)floor((c + (double)(d)) / 2.0))
    const ptrdiff_t off[6] = {OFF(-dx), OFF(dx), OFF(-dy), OFF(dy), OFF(-dz), OFF(dz)};
#undef OFF
    const REAL u[2] = {(REAL)(1.0 / 6.0), (REAL)(1.0 / (6.0 + s->kh2))};
    const double ksalt = s->kh2 / (6.0 + s->kh2);
    const REAL w = (REAL)omega;
    const int nonlinear = s->nonlinear && lambda > 0.0;
    double maxd = 0.0;
    int bad = 0;  /* a NaN anywhere: OpenMP's max reduction would drop it */

#pragma omp parallel for collapse(2) schedule(static) reduction(max : maxd) reduction(| : bad)
    for (int z = 1; z < nz - 1; z++) {
        for (int y = 1; y < ny - 1; y++) {
            int x0 = 1 + ((1 + y + z + c) & 1);
            if (x0 > nx - 2) continue;
            size_t k0 = ((size_t)x0 + (size_t)nx * ((size_t)y + (size_t)ny * z)) >> 1;
            size_t cnt = (size_t)((nx - 2 - x0) / 2 + 1);
            double rowmax = 0.0;
            if (!nonlinear) {
                /* Pointers per neighbour so the compiler sees unit-stride streams and
                 * vectorises; the max-change variant runs only on check iterations. */
                const REAL *restrict a0 = o + k0 + off[0], *restrict a1 = o + k0 + off[1];
                const REAL *restrict a2 = o + k0 + off[2], *restrict a3 = o + k0 + off[3];
                const REAL *restrict a4 = o + k0 + off[4], *restrict a5 = o + k0 + off[5];
                REAL *restrict pp = p + k0;
                const uint8_t *restrict ff = fl + k0;
                const REAL u0 = u[0], u1 = u[1];
                if (!check) {
                    for (size_t t = 0; t < cnt; t++) {
                        REAL sum = a0[t] + a1[t] + a2[t] + a3[t] + a4[t] + a5[t];
                        uint8_t f = ff[t];
                        REAL old = pp[t];
                        REAL nv = old + w * (sum * ((f & 1) ? u1 : u0) - old);
                        pp[t] = (f & VSG_NODE_LISTED) ? old : nv;
                    }
                } else {
                    REAL rm = 0, total = 0;
                    for (size_t t = 0; t < cnt; t++) {
                        REAL sum = a0[t] + a1[t] + a2[t] + a3[t] + a4[t] + a5[t];
                        uint8_t f = ff[t];
                        REAL old = pp[t];
                        REAL nv = old + w * (sum * ((f & 1) ? u1 : u0) - old);
                        nv = (f & VSG_NODE_LISTED) ? old : nv;
                        REAL d = nv > old ? nv - old : old - nv;
                        rm = d > rm ? d : rm;
                        total += d;  /* NaN-sticky, unlike the max */
                        pp[t] = nv;
                    }
                    rowmax = (double)rm;
                    bad |= !(total == total);
                }
            } else {
                for (size_t t = 0; t < cnt; t++) {
                    size_t k = k0 + t;
                    uint8_t f = fl[k];
                    if (f & VSG_NODE_LISTED) continue;
                    REAL sum = o[k + off[0]] + o[k + off[1]] + o[k + off[2]] + o[k + off[3]] +
                               o[k + off[4]] + o[k + off[5]];
                    double old = p[k];
                    double gs = (double)(sum * u[f & 1]);
                    if (f & VSG_NODE_SALT) {
                        /* One Newton step on A − φ − λk(g(φ) − φ) = 0 from the old value. */
                        double g, dg;
                        vsg_pb_ion_term(s, old, &g, &dg);
                        double fval = gs - old - lambda * ksalt * (g - old);
                        gs = old + fval / (1.0 + lambda * ksalt * (dg - 1.0));
                    }
                    REAL nv = (REAL)(old + omega * (gs - old));
                    if (check) {
                        double d = fabs((double)nv - old);
                        rowmax = d > rowmax ? d : rowmax;
                        bad |= !(d == d);
                    }
                    p[k] = nv;
                }
            }
            if (rowmax > maxd) maxd = rowmax;
        }
    }

    /* Corrections: listed nodes relax from their own old value with the full stencil. */
    const vsg_pb_corr *restrict cl = s->corr[c];
    const ptrdiff_t ncorr = (ptrdiff_t)s->ncorr[c];
#pragma omp parallel for schedule(static) reduction(max : maxd) reduction(| : bad)
    for (ptrdiff_t e = 0; e < ncorr; e++) {
        const vsg_pb_corr *q = &cl[e];
        size_t k = (size_t)q->index;
        double gs = q->s;
        for (int i = 0; i < 6; i++) gs += q->w[i] * (double)o[k + off[i]];
        double old = p[k];
        if (q->k > 0.0 && nonlinear) {
            double g, dg;
            vsg_pb_ion_term(s, old, &g, &dg);
            double fval = gs - old - lambda * q->k * (g - old);
            gs = old + fval / (1.0 + lambda * q->k * (dg - 1.0));
        }
        REAL nv = (REAL)(old + omega * (gs - old));
        if (check) {
            double d = fabs((double)nv - old);
            if (d > maxd) maxd = d;
            bad |= !(d == d);
        }
        p[k] = nv;
    }
    return bad ? NAN : maxd;
}
