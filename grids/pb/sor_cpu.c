/* sor_cpu.c — the CPU twin of the PB solver: checkerboard SOR with OpenMP over rows. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include "grids/base/vsgrid.h"
#include "grids/pb/pb_system.h"

#if defined(_OPENMP)
#include <omp.h>
#endif

#include "grids/pb/sor_cpu_sweeps.h"

vsg_status vsg_sor_cpu(vsg_pb_system *s, const vsg_sor_settings *set, vsg_sor_result *r)
{
    int threads = 1;
#if defined(_OPENMP)
    if (set->threads > 0) omp_set_num_threads(set->threads);
    threads = omp_get_max_threads();
#endif
    snprintf(r->device, sizeof r->device, "cpu (%d thread%s)", threads, threads == 1 ? "" : "s");
    r->iterations = 0;
    r->converged = 0;
    r->final_change = INFINITY;
    r->device_bytes = 0;
    r->pattern_nodes = 0;
    int check_every = set->check_every > 0 ? set->check_every : 10;
    int show = set->progress && isatty(2);
    double t0 = vsg_now();
    vsg_sor_schedule sc;
    vsg_sor_schedule_init(&sc, set, show, t0);

    for (int it = 0; it < set->max_iter; it++) {
        int check = (it + 1) % check_every == 0 || it + 1 == set->max_iter;
        double lambda = s->nonlinear ? vsg_nl_lambda(it) : 0.0;
        double m0, m1;
        if (s->precision == VSG_PRECISION_FLOAT) {
            m0 = sweep_float(s, 0, sc.omega, lambda, check);
            m1 = sweep_float(s, 1, sc.omega, lambda, check);
        } else {
            m0 = sweep_double(s, 0, sc.omega, lambda, check);
            m1 = sweep_double(s, 1, sc.omega, lambda, check);
        }
        r->iterations = it + 1;
        if (!check) continue;
        double change = m0 > m1 ? m0 : m1;
        if (isnan(m0) || isnan(m1)) change = NAN;
        r->final_change = change;
        vsg_sor_verdict v = vsg_sor_after_check(&sc, set, s->nonlinear, it + 1, lambda, change, vsg_now());
        if (v == VSG_SOR_DIVERGED) {
            r->seconds = vsg_now() - t0;
            r->omega = sc.omega;
            return vsg_fail(VSG_E_CONVERGE, "PB solver diverged at iteration %d (change %g)", it + 1, change);
        }
        if (v == VSG_SOR_CONVERGED) {
            r->converged = 1;
            break;
        }
    }
    if (show) fprintf(stderr, "\r%60s\r", "");
    r->seconds = vsg_now() - t0;
    r->omega = sc.omega;
    return VSG_OK;
}
