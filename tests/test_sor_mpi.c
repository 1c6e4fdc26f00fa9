/* test_sor_mpi.c — the z-slab SOR over MPI ranks (issue 7) gives the single-process solve:
 *   the slab cuts are even planes, cover the grid, and differ by at most 2 updated planes;
 *   under mpirun -np 2 and -np 3 (the test launches itself), on a real receptor (fas2), linear
 *   double, linear float and nonlinear double: the same iteration count, the same final change
 *   and ω, and the potential bit for bit equal to vsg_sor_cpu's (one colour reads only the
 *   other, so the update order within a colour cannot change a bit).
 * Skips (77) when the build has no MPI or mpirun is absent. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "sor_case.h"
#include "grids/receptor/molecule.h"
#include "grids/base/mpi_env.h"
#include "grids/pb/pb_setup.h"
#include "grids/pb/pb_system.h"
#include "grids/pb/sor_mpi.h"
#include "grids/base/vsgrid.h"

static void cuts_rule(void)
{
    int cuts[17];
    for (int ranks = 2; ranks <= 16; ranks++) {
        for (int nz = 9; nz <= 301; nz++) {
            vsg_slab_cuts(nz, ranks, cuts);
            int pmin = 1 << 30, pmax = 0;
            CHECK(cuts[0] == 0 && cuts[ranks] == nz);
            for (int k = 0; k < ranks; k++) {
                CHECK(cuts[k] % 2 == 0);  /* slabs start on an even plane */
                CHECK(cuts[k + 1] >= cuts[k]);
                int a = cuts[k] > 1 ? cuts[k] : 1, b = cuts[k + 1] < nz - 1 ? cuts[k + 1] : nz - 1;
                int p = b > a ? b - a : 0;
                pmin = p < pmin ? p : pmin;
                pmax = p > pmax ? p : pmax;
            }
            if (pmax - pmin > 2) {
                fprintf(stderr, "nz %d ranks %d: planes per rank %d..%d\n", nz, ranks, pmin, pmax);
                CHECK(pmax - pmin <= 2);
            }
        }
    }
}

/* One case on every rank: the single-process solve and the distributed one from the same start. */
static void compare(const vsg_molecule *m, vsg_precision prec, int nonlinear, int nz)
{
    vsg_pb_physics ph;
    vsg_level lv;
    sor_case(m, nonlinear, nz, &ph, &lv);
    vsg_pb_system a, b;
    sor_case_build(m, &ph, &lv, prec, &a);
    sor_case_build(m, &ph, &lv, prec, &b);

    vsg_sor_settings set = sor_case_settings(&a, prec);
    vsg_sor_result ra, rb;
    memset(&ra, 0, sizeof ra);
    memset(&rb, 0, sizeof rb);
    CHECK_STATUS(vsg_sor_cpu(&a, &set, &ra), VSG_OK);
    CHECK_STATUS(vsg_sor_mpi(&b, &set, &rb), VSG_OK);
    size_t differ = 0;
    double maxrel = 0.0, range = 0.0;
    for (size_t L = 0; L < a.nodes; L++) {
        double x = vsg_pb_get(&a, L), y = vsg_pb_get(&b, L);
        range = fmax(range, fabs(x));
        if (memcmp(&x, &y, sizeof x) != 0) differ++;
        if (x != y) maxrel = fmax(maxrel, fabs(x - y) / fmax(fabs(x), 1e-30));
    }
    vsg_sor_mpi_stats ms;
    int dist = vsg_sor_mpi_last(&ms);
    if (vsg_mpi_rank() == 0)
        printf("ranks %d, %s %s, %dx%dx%d: %d vs %d iterations, change %.3e vs %.3e, omega %.6f vs %.6f, "
               "%zu nodes differ (max rel %.3g), %s, planes/rank %d..%d, comm %.3f s of %.3f s\n",
               vsg_mpi_size(), nonlinear ? "nonlinear" : "linear", prec == VSG_PRECISION_FLOAT ? "float" : "double",
               lv.n[0], lv.n[1], lv.n[2], ra.iterations, rb.iterations, ra.final_change, rb.final_change, ra.omega,
               rb.omega, differ, maxrel, rb.device, dist ? ms.planes_min : 0, dist ? ms.planes_max : 0,
               dist ? ms.comm_seconds : 0.0, rb.seconds);
    CHECK(ra.converged && rb.converged);
    CHECK(ra.iterations == rb.iterations);
    CHECK(ra.final_change == rb.final_change);
    CHECK(ra.omega == rb.omega);
    CHECK(differ == 0);
    CHECK(maxrel <= 1e-6);
    CHECK(dist && ms.ranks == vsg_mpi_size());
    vsg_pb_system_free(&a);
    vsg_pb_system_free(&b);
}

static int child(int argc, char **argv)
{
    if (sor_case_child_start(&argc, &argv) != 0) return 1;
    vsg_molecule *m = NULL;
    CHECK_STATUS(vsg_molecule_read(source_path("data/fas2.pqr"), NULL, &m), VSG_OK);
    if (m) {
        compare(m, VSG_PRECISION_DOUBLE, 0, 45);
        compare(m, VSG_PRECISION_DOUBLE, 0, 36);  /* even nz: the last slab ends on an odd plane */
        compare(m, VSG_PRECISION_FLOAT, 0, 45);
        compare(m, VSG_PRECISION_DOUBLE, 1, 45);
    }
    vsg_molecule_free(m);
    return vsg_mpi_finish(check_failures ? 1 : 0);
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "--child")) return child(argc, argv);
    cuts_rule();
    if (!vsg_mpi_built()) SKIP("this vsgrid was built without MPI");
    if (system("command -v mpirun >/dev/null 2>&1") != 0) SKIP("mpirun not found");
    sor_case_run_ranks(argv[0], "");
    CHECK_EXIT();
}
