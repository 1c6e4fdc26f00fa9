/* sor_case.h — what the distributed-SOR tests (test_sor_mpi, test_gpu_sor_mpi) share: the PB
 * case (fas2 at 1 Å on a 41 × 39 × nz lattice centred on the molecule, linear, or nonlinear in
 * 0.15 M 1:1 salt), and the harness that runs the test's own binary under mpirun at 2 and 3
 * ranks with --child, where each rank compares its distributed solve with the whole one. */
#ifndef VSG_TEST_SOR_CASE_H
#define VSG_TEST_SOR_CASE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "grids/base/mpi_env.h"
#include "grids/receptor/molecule.h"
#include "grids/pb/pb_setup.h"
#include "grids/pb/pb_system.h"

static inline void sor_case(const vsg_molecule *m, int nonlinear, int nz, vsg_pb_physics *ph, vsg_level *lv)
{
    vsg_pb_params p;
    vsg_pb_params_default(&p);
    p.spacing = 1.0;
    if (nonlinear) {
        p.nonlinear = 1;
        p.n_ions = 2;
        p.ions[0] = (vsg_ion){+1, 0.15, 2.0};
        p.ions[1] = (vsg_ion){-1, 0.15, 2.0};
    }
    CHECK_STATUS(vsg_pb_physics_from(&p, ph), VSG_OK);
    *lv = (vsg_level){{41, 39, nz}, 1.0, {0, 0, 0}};
    double lo[3], hi[3];
    vsg_molecule_bounds(m, 0, lo, hi);
    for (int d = 0; d < 3; d++) lv->origin[d] = 0.5 * (lo[d] + hi[d]) - 0.5 * (lv->n[d] - 1);
}

/* The PB system of the case, from its starting potential (mdh boundary). */
static inline void sor_case_build(const vsg_molecule *m, const vsg_pb_physics *ph, const vsg_level *lv,
                                  vsg_precision prec, vsg_pb_system *sys)
{
    vsg_grid_charge *q = NULL;
    size_t nq = 0;
    double out = 0.0;
    CHECK_STATUS(vsg_pb_build(m, ph, lv, prec, sys, &q, &nq, &out), VSG_OK);
    free(q);
    CHECK_STATUS(vsg_pb_boundary(sys, m, ph, VSG_BC_MDH, NULL), VSG_OK);
}

/* The solve settings both tests use: adaptive ω from the system's start, the precision's
 * tolerance, a check every 10 iterations. */
static inline vsg_sor_settings sor_case_settings(const vsg_pb_system *a, vsg_precision prec)
{
    vsg_sor_settings set;
    memset(&set, 0, sizeof set);
    set.omega = vsg_sor_omega_start(a);
    set.adapt = 1;
    set.tol = prec == VSG_PRECISION_FLOAT ? 1e-3 : 1e-7;
    set.max_iter = 3000;
    set.check_every = 10;
    return set;
}

/* The --child side: MPI started by a launcher with more than one rank; 0 when so. */
static inline int sor_case_child_start(int *argc, char ***argv)
{
    if (vsg_mpi_start(argc, argv) != 0) return 1;
    if (!vsg_mpi_active()) {
        fprintf(stderr, "child not started by an MPI launcher with > 1 rank\n");
        return 1;
    }
    vsg_set_warning_handler(NULL, NULL);
    return 0;
}

/* The parent side: `self --child` under mpirun at 2 and 3 ranks (oversubscribed: CI machines may
 * have fewer cores; root allowed: CI containers), with the extra mpirun options `extra`. */
static inline void sor_case_run_ranks(const char *self, const char *extra)
{
    for (int np = 2; np <= 3; np++) {
        char cmd[4096];
        snprintf(cmd, sizeof cmd, "mpirun --oversubscribe %s -np %d -x OMP_NUM_THREADS=1 %s '%s' --child",
                 geteuid() == 0 ? "--allow-run-as-root" : "", np, extra, self);
        printf("%s\n", cmd);
        fflush(stdout);
        int rc = system(cmd);
        if (rc != 0) fprintf(stderr, "mpirun -np %d: exit status %d\n", np, rc);
        CHECK(rc == 0);
    }
}

#endif
