/* test_sor_cpu.c — the CPU twin's contract beyond the analytic cases:
 *   a NaN in the potential is reported as divergence (never as convergence);
 *   float and double solutions of a real receptor agree within 1e-4 of the potential's range;
 *   the solve is deterministic (same input → bit-identical grid, whatever the thread count). */
#include <math.h>
#include <string.h>

#include "check.h"
#include "grids/formats/grid.h"
#include "grids/receptor/molecule.h"
#include "grids/pb/pb_setup.h"
#include "grids/pb/pb_system.h"
#include "grids/base/vsgrid.h"
#include "testkit.h"


static void nan_is_divergence(const vsg_molecule *m)
{
    vsg_pb_params p;
    vsg_pb_params_default(&p);
    p.spacing = 1.0;
    vsg_pb_physics ph;
    CHECK_STATUS(vsg_pb_physics_from(&p, &ph), VSG_OK);
    vsg_level lv = {{33, 33, 33}, 1.0, {-16, -16, -16}};
    double lo[3], hi[3];
    vsg_molecule_bounds(m, 0, lo, hi);
    for (int d = 0; d < 3; d++) lv.origin[d] = 0.5 * (lo[d] + hi[d]) - 16.0;
    for (int prec = 0; prec < 2; prec++) {
        vsg_pb_system s;
        vsg_grid_charge *q = NULL;
        size_t nq = 0;
        double out = 0.0;
        CHECK_STATUS(vsg_pb_build(m, &ph, &lv, prec ? VSG_PRECISION_FLOAT : VSG_PRECISION_DOUBLE, &s, &q, &nq, &out), VSG_OK);
        vsg_pb_set(&s, vsg_pb_linear(&s, 16, 16, 17), NAN);
        vsg_sor_settings set;
        memset(&set, 0, sizeof set);
        set.omega = 1.9;
        set.tol = 1e-6;
        set.max_iter = 100;
        set.check_every = 10;
        vsg_sor_result r;
        CHECK_STATUS(vsg_sor_cpu(&s, &set, &r), VSG_E_CONVERGE);
        CHECK(!r.converged);
        free(q);
        vsg_pb_system_free(&s);
    }
}

int main(void)
{
    vsg_set_warning_handler(NULL, NULL);
    vsg_molecule *m = NULL;
    CHECK_STATUS(vsg_molecule_read(source_path("data/fas2.pqr"), NULL, &m), VSG_OK);
    if (!m) CHECK_EXIT();
    nan_is_divergence(m);

    vsg_pb_params p;
    vsg_pb_params_default(&p);
    p.device = VSG_DEVICE_CPU;
    p.spacing = 0.8;
    p.n_ions = 2;
    p.ions[0] = (vsg_ion){+1, 0.15, 2.0};
    p.ions[1] = (vsg_ion){-1, 0.15, 2.0};
    vsg_grid *gd = NULL, *gf = NULL, *g1 = NULL;
    vsg_pb_report rd, rf, r1;
    CHECK_STATUS(vsg_pb_solve(m, &p, &gd, &rd), VSG_OK);
    p.precision = VSG_PRECISION_FLOAT;
    CHECK_STATUS(vsg_pb_solve(m, &p, &gf, &rf), VSG_OK);
    p.precision = VSG_PRECISION_DOUBLE;
    p.threads = 1;
    CHECK_STATUS(vsg_pb_solve(m, &p, &g1, &r1), VSG_OK);
    if (gd && gf && g1) {
        double range = grid_range(gd);
        printf("fas2 at 0.8 Å: range %.2f kT/e; float vs double max diff %.3g (%d vs %d iterations, float tol %.2g)\n",
               range, grid_max_diff(gd, gf), rd.iterations, rf.iterations, rf.tol);
        CHECK(rd.converged && rf.converged);
        CHECK(grid_max_diff(gd, gf) <= 1e-4 * range);
        CHECK(grid_max_diff(gd, g1) == 0.0);  /* 1 thread and all threads: bit-identical */
        CHECK_NEAR(rd.energy_kt, r1.energy_kt, 0.0);
        CHECK(rd.omega > 1.0 && rd.omega < 2.0);
    }
    vsg_grid_free(gf);
    vsg_grid_free(g1);
    vsg_grid_free(gd);
    vsg_molecule_free(m);
    CHECK_EXIT();
}
