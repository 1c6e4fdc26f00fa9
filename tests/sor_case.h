/* sor_case.h — the PB case the distributed-SOR tests (test_sor_mpi, test_gpu_sor_mpi) share:
 * fas2 at 1 Å on a 41 × 39 × nz lattice centred on the molecule, linear, or nonlinear in
 * 0.15 M 1:1 salt. */
#ifndef VSG_TEST_SOR_CASE_H
#define VSG_TEST_SOR_CASE_H

#include "check.h"
#include "molecule.h"
#include "pb_setup.h"

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

#endif
