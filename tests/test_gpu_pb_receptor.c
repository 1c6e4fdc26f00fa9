/* test_gpu_pb_receptor.c — the GPU PB solver against its CPU twin on real receptors, through the
 * whole pipeline (maps, boundary, nested start, adaptive ω): data/1stp_receptor.pdbqt and
 * data/fas2.pqr, linear with 0.15 M salt, and nonlinear for fas2.
 *   double: same iterations, max |φ_gpu − φ_cpu| ≤ 1e-8 × range (in practice bit-identical);
 *   float:  max |φ_gpu,float − φ_cpu,double| ≤ 1e-4 × range.
 * The GPU runs keep each level on the device from build to answer (pb_dev.h); each is repeated
 * through the host copy of the system (VSG_PB_RESIDENT=0), which must give the same bits, the
 * same iterations and the same energy, in both precisions and for zero and mdh faces; so must the
 * fallbacks of the nested start (a resident build refused beside a running coarse level). Last,
 * the solver's device memory all comes back (the pool released, as much free as at the start).
 * Skipped (77) without a GPU. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "gpu/device/gpu.h"
#include "grids/formats/grid.h"
#include "grids/base/vsgrid.h"
#include "testkit.h"


/* The solve of p through the host copy of the system must equal g, r bit for bit. */
static void same_as_host_copy(const vsg_molecule *m, const vsg_pb_params *p, const vsg_grid *g,
                              const vsg_pb_report *r)
{
    setenv("VSG_PB_RESIDENT", "0", 1);
    vsg_grid *h = NULL;
    vsg_pb_report q;
    CHECK_STATUS(vsg_pb_solve(m, p, &h, &q), VSG_OK);
    unsetenv("VSG_PB_RESIDENT");
    if (!h || !g) return;
    const double d = grid_max_diff(g, h);
    printf("  resident vs host copy (%s, bc %d): max|diff| %.3g, iterations %d vs %d, energy %.10g vs %.10g\n",
           r->precision, (int)p->bc, d, r->iterations, q.iterations, r->energy_kt, q.energy_kt);
    CHECK(d == 0.0);
    CHECK(q.iterations == r->iterations && q.total_iterations == r->total_iterations);
    CHECK(q.energy_kt == r->energy_kt);
    vsg_grid_free(h);
}

/* The other ways of a nested start on the GPU: the resident build refused at depth 0 (the
 * coarse levels, solved beside it on a thread, are dropped and the level goes through the host
 * copy), at depth 1 (that coarse level is solved through the host copy and its parent starts
 * from its grid), and, under a --max-gpu-memory cap that leaves no room for the levels side by
 * side, the coarse levels after their parent's build instead of beside it: each must give g, r
 * bit for bit. */
static void count_refusals(const char *message, void *user)
{
    if (strstr(message, "VSG_PB_REFUSE_RESIDENT")) __atomic_add_fetch((int *)user, 1, __ATOMIC_RELAXED);
}

static void same_when_refused(const vsg_molecule *m, const vsg_pb_params *p, const vsg_grid *g,
                              const vsg_pb_report *r)
{
    const double cap = 64.0 * 1048576.0; /* room for each solve, not for 96 bytes a node */
    /* the cap's premise: the finest level has no room beside it under the cap */
    CHECK(96.0 * (double)r->n[0] * r->n[1] * r->n[2] > cap);
    for (int way = 0; way < 3; way++) {
        char d[8];
        snprintf(d, sizeof d, "%d", way);
        vsg_pb_params pc = *p;
        int refusals = 0;
        vsg_set_warning_handler(count_refusals, &refusals);
        if (way < 2) setenv("VSG_PB_REFUSE_RESIDENT", d, 1);
        else pc.max_gpu_memory = cap;
        vsg_grid *h = NULL;
        vsg_pb_report q;
        CHECK_STATUS(vsg_pb_solve(m, &pc, &h, &q), VSG_OK);
        unsetenv("VSG_PB_REFUSE_RESIDENT");
        vsg_set_warning_handler(NULL, NULL);
        CHECK(way < 2 ? refusals > 0 : refusals == 0); /* the hook took (and only when asked) */
        if (!h || !g) continue;
        const double diff = grid_max_diff(g, h);
        printf("  %s (%s): max|diff| %.3g, iterations %d/%d vs %d/%d\n",
               way == 0 ? "resident build refused at depth 0" : way == 1 ? "resident build refused at depth 1"
                                                                         : "coarse levels after the build (cap)",
               r->precision, diff, q.iterations, q.total_iterations, r->iterations, r->total_iterations);
        CHECK(diff == 0.0);
        CHECK(q.iterations == r->iterations && q.total_iterations == r->total_iterations);
        CHECK(q.energy_kt == r->energy_kt);
        vsg_grid_free(h);
    }
}

static void compare(const char *file, double spacing, int nonlinear, vsg_boundary bc)
{
    vsg_molecule *m = NULL;
    CHECK_STATUS(vsg_molecule_read(source_path(file), NULL, &m), VSG_OK);
    if (!m) return;
    vsg_pb_params p;
    vsg_pb_params_default(&p);
    p.spacing = spacing;
    p.nonlinear = nonlinear;
    p.bc = bc;
    p.n_ions = 2;
    p.ions[0] = (vsg_ion){+1, 0.15, 2.0};
    p.ions[1] = (vsg_ion){-1, 0.15, 2.0};
    vsg_grid *cpu = NULL, *gd = NULL, *gf = NULL;
    vsg_pb_report rc, rd, rf;
    p.device = VSG_DEVICE_CPU;
    p.precision = VSG_PRECISION_DOUBLE;
    CHECK_STATUS(vsg_pb_solve(m, &p, &cpu, &rc), VSG_OK);
    p.device = VSG_DEVICE_GPU;
    CHECK_STATUS(vsg_pb_solve(m, &p, &gd, &rd), VSG_OK);
    same_as_host_copy(m, &p, gd, &rd);
    p.precision = VSG_PRECISION_FLOAT;
    CHECK_STATUS(vsg_pb_solve(m, &p, &gf, &rf), VSG_OK);
    same_as_host_copy(m, &p, gf, &rf);
    if (!nonlinear && bc == VSG_BC_MDH) same_when_refused(m, &p, gf, &rf); /* float: the default */
    if (cpu && gd && gf) {
        double range = grid_range(cpu), dd = grid_max_diff(cpu, gd), df = grid_max_diff(cpu, gf);
        printf("%s %s at %.2f Å (%dx%dx%d): range %.2f kT/e; iterations cpu %d gpu-double %d gpu-float %d; "
               "max|diff|/range double %.3g float %.3g; %s, %.3f ms/iteration (float)\n",
               file, nonlinear ? "nonlinear" : "linear", spacing, rc.n[0], rc.n[1], rc.n[2], range, rc.iterations,
               rd.iterations, rf.iterations, dd / range, df / range, rf.device, 1e3 * rf.seconds_per_iteration);
        CHECK(rc.converged && rd.converged && rf.converged);
        CHECK(rc.iterations == rd.iterations);
        CHECK(dd <= 1e-8 * range);
        CHECK(df <= 1e-4 * range);
        CHECK_NEAR(rd.energy_kt, rc.energy_kt, 1e-8 * fabs(rc.energy_kt));
        CHECK(strstr(rd.device, "cpu") == NULL);
        /* The once-per-process GPU start is reported apart, as a part of the time to solution. */
        CHECK(rc.device_start_seconds == 0.0);
        CHECK(rd.device_start_seconds > 0.0 && rd.device_start_seconds < rd.seconds);
    }
    vsg_grid_free(cpu);
    vsg_grid_free(gd);
    vsg_grid_free(gf);
    vsg_molecule_free(m);
}

int main(void)
{
    if (vsg_gpu_count() <= 0) SKIP("no GPU");
    vsg_set_warning_handler(NULL, NULL);
    double free0 = 0.0, held = 0.0, free1 = 0.0;
    CHECK_STATUS(vsg_gpu_start(0), VSG_OK);
    CHECK_STATUS(vsg_gpu_describe(0, NULL, 0, &free0, NULL), VSG_OK);
    compare("data/1stp_receptor.pdbqt", 0.5, 0, VSG_BC_MDH);
    compare("data/fas2.pqr", 0.5, 0, VSG_BC_MDH);
    compare("data/fas2.pqr", 0.8, 1, VSG_BC_MDH);
    compare("data/fas2.pqr", 0.8, 0, VSG_BC_ZERO);
    /* Every array of those solves went back to the pool (dev_pool.cuh), and the pool gives its
     * memory back when asked: then the device has as much free as before the first solve (the
     * slack is for the kernels' code, which loads on first use). A leak, or a pool that kept
     * its memory from cudaMalloc's users, fails here. */
    CHECK_STATUS(vsg_gpu_describe(0, NULL, 0, &held, NULL), VSG_OK);
    vsg_gpu_release_pool(0);
    CHECK_STATUS(vsg_gpu_describe(0, NULL, 0, &free1, NULL), VSG_OK);
    printf("free device memory: %.1f MiB before the solves, %.1f after them, %.1f once the pool is released\n",
           free0 / 1048576.0, held / 1048576.0, free1 / 1048576.0);
    CHECK(free1 >= held);
    CHECK(free1 >= free0 - 64.0 * 1048576.0);
    CHECK_EXIT();
}
