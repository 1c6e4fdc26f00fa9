/* pb_solve.c — the public PB entry points: levels (focusing), device choice, energies. */
#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grids/base/constants.h"
#include "grids/base/vsgrid.h"
#include "gpu/device/gpu.h"
#include "grids/formats/grid.h"
#include "grids/formats/grid_ahead.h"
#include "gpu/pb/pb_dev.h"
#include "grids/pb/pb_geometry.h"
#include "gpu/pb/pb_gpu.h"
#include "grids/pb/pb_setup.h"
#include "gpu/pb/pb_setup_gpu.h"
#include "grids/base/mpi_env.h"       /* MPI (issue 7) */
#include "grids/pb/sor_mpi.h"       /* MPI (issue 7) */
#include "gpu/pb/sor_mpi_gpu.h"  /* MPI over GPUs (issue 7) */
#include "grids/base/profile.h"

void vsg_pb_params_default(vsg_pb_params *p)
{
    memset(p, 0, sizeof *p);
    p->spacing = 0.5;
    p->box_mode = VSG_BOX_FILL;
    p->fill = 0.7;
    p->padding = 8.0;
    p->eps_in = 2.0;
    p->eps_out = 78.54;
    p->temperature = 298.15;
    p->surface = VSG_SURFACE_SES;
    p->probe = 1.4;
    p->spline = VSG_SPLINE_SPL0;
    p->bc = VSG_BC_MDH;
    p->max_iter = 20000;
    p->check_every = 10;
    p->precision = VSG_PRECISION_AUTO;
    p->device = VSG_DEVICE_AUTO;
    p->gpu_index = -1;
    p->max_memory = 8.0 * 1024 * 1024 * 1024;
}

/* Bytes per node while a level is built and solved: potential + flag + three dielectric
 * codes + ion map during setup, the float output grid and the coarse grid kept for focusing. */
static double bytes_per_node(vsg_precision pr) { return (pr == VSG_PRECISION_FLOAT ? 4.0 : 8.0) + 1.0 + 4.0 + 4.0 + 4.0; }

static vsg_status plan(const vsg_molecule *m, const vsg_pb_params *p, vsg_level *levels, int *count)
{
    vsg_level fine;
    vsg_status st = vsg_fine_level(m, p, &fine);
    if (st != VSG_OK) return st;
    if (p->bc == VSG_BC_FOCUS) return vsg_focus_levels(m, &fine, levels, count);
    levels[0] = fine;
    *count = 1;
    return VSG_OK;
}

vsg_status vsg_pb_estimate(const vsg_molecule *m, const vsg_pb_params *p, double *bytes, int n[3],
                           double *spacing)
{
    vsg_level lv[VSG_MAX_LEVELS];
    int count = 0;
    vsg_status st = plan(m, p, lv, &count);
    if (st != VSG_OK) return st;
    const vsg_level *f = &lv[count - 1];
    double nodes = (double)f->n[0] * f->n[1] * f->n[2];
    /* Correction lists: charged nodes plus a generous surface estimate. */
    double listed = (double)m->n * (p->spline == VSG_SPLINE_SPL2 ? 64.0 : 8.0) + 0.05 * nodes;
    *bytes = nodes * bytes_per_node(p->precision) + listed * (double)sizeof(vsg_pb_corr);
    if (n) memcpy(n, f->n, sizeof f->n);
    if (spacing) *spacing = f->h;
    return VSG_OK;
}

static vsg_grid *system_to_grid(const vsg_pb_system *s)
{
    int n[3] = {s->nx, s->ny, s->nz};
    double sp[3] = {s->h, s->h, s->h};
    vsg_grid *g = vsg_grid_new(n, s->origin, sp, "kT/e");
    if (!g) return NULL;
#pragma omp parallel for schedule(static)
    for (ptrdiff_t L = 0; L < (ptrdiff_t)s->nodes; L++) g->data[L] = (float)vsg_pb_get(s, (size_t)L);
    return g;
}

static int use_gpu(const vsg_pb_params *p, vsg_status *st)
{
    static int said_cpu;
    *st = VSG_OK;
    if (p->device == VSG_DEVICE_CPU) return 0;
    int count = vsg_gpu_count();
    if (p->device == VSG_DEVICE_GPU) {
        if (count <= 0) *st = vsg_fail(VSG_E_DEVICE, "--device gpu: no usable CUDA GPU found%s",
#if defined(VSG_HAVE_CUDA)
                                       ""
#else
                                       " (this vsgrid was built without CUDA)"
#endif
        );
        return count > 0;
    }
    if (count <= 0 && !said_cpu) {
        said_cpu = 1;
        vsg_warn("no GPU found: running the CPU solver");
    }
    return count > 0;
}

static void add_meta(vsg_grid *g, const vsg_molecule *m, const vsg_pb_params *p, const vsg_pb_report *r)
{
    static const char *surf[] = {"vdw", "ses", "smooth"}, *spl[] = {"spl0", "spl2"},
                      *bcs[] = {"zero", "sdh", "mdh", "dipole", "focus", "focus-file"};
    vsg_grid_meta_add(g, "method", "pb");
    vsg_grid_meta_add(g, "equation", "%s", p->nonlinear ? "nonlinear" : "linear");
    vsg_grid_meta_add(g, "receptor", "%s", m->source);
    vsg_grid_meta_add(g, "receptor_atoms", "%zu", m->n);
    vsg_grid_meta_add(g, "receptor_crc32", "%08x", (unsigned)vsg_molecule_checksum(m));
    vsg_grid_meta_add(g, "eps_in", "%g", p->eps_in);
    vsg_grid_meta_add(g, "eps_out", "%g", p->eps_out);
    vsg_grid_meta_add(g, "temperature_k", "%g", p->temperature);
    for (int i = 0; i < p->n_ions; i++)
        vsg_grid_meta_add(g, "ion", "%g,%g,%g", p->ions[i].charge, p->ions[i].molar, p->ions[i].radius);
    vsg_grid_meta_add(g, "surface", "%s", surf[p->surface]);
    vsg_grid_meta_add(g, "probe_a", "%g", p->probe);
    vsg_grid_meta_add(g, "charge_spline", "%s", spl[p->spline]);
    vsg_grid_meta_add(g, "bc", "%s", bcs[p->bc]);
    vsg_grid_meta_add(g, "levels", "%d", r->levels);
    /* the tolerance the solve used (p->tol is 0 for "the default"), at full precision */
    vsg_grid_meta_add(g, "tol_kt_e", "%.15g", r->tol > 0.0 ? r->tol : p->tol);
    vsg_grid_meta_add(g, "iterations", "%d", r->iterations);
    vsg_grid_meta_add(g, "converged", "%d", r->converged);
    vsg_grid_meta_add(g, "final_change_kt_e", "%g", r->final_change);
    vsg_grid_meta_add(g, "energy_kt", "%.10g", r->energy_kt);
    vsg_grid_meta_add(g, "device", "%s", r->device);
    vsg_grid_meta_add(g, "precision", "%s", r->precision);
}

/* In float the change per iteration cannot fall below a few units in the last place of the
 * largest potential, which sits on a charged node: about twice its source term s = 4πλ_B q/(hD)
 * (≈ 10³ kT/e for a 0.7 e charge at 0.5 Å). The default float tolerance is therefore
 * max(1e-4, 4 ε_float · 2 max|s|); an explicit --tol is kept as given. */
static double level_tol(const vsg_pb_params *p, vsg_precision precision, double smax, double tol)
{
    if (p->tol > 0.0 || precision != VSG_PRECISION_FLOAT) return tol;
    return fmax(tol, 4.0 * FLT_EPSILON * 2.0 * smax);
}

/* max |s| over the lists of a host system (a resident level has it from its build). */
static double max_source(const vsg_pb_system *s)
{
    double smax = 0.0;
    for (int c = 0; c < 2; c++)
        for (size_t e = 0; e < s->ncorr[c]; e++) smax = fmax(smax, fabs(s->corr[c][e].s));
    return smax;
}

/* What one solved level leaves behind besides its grid. */
typedef struct {
    vsg_sor_result res;
    vsg_sor_settings set;
    double energy, charge_in, charge_out, bytes_per_node, setup_seconds;
    long listed, charged;
    int nested_iterations;
} level_out;

static vsg_status solve_level(const vsg_molecule *m, const vsg_pb_params *p, const vsg_pb_physics *ph,
                              const vsg_level *lv, vsg_boundary bc, const vsg_grid *coarse, int *gpu,
                              double tol, int depth, vsg_grid **out, level_out *lo);

/* A resident level solved for its parent's nested start: it stays on the device, and the parent
 * interpolates from it there (vsg_pb_dev_guess_level) instead of from a host grid. */
typedef struct {
    vsg_pb_dev *dev;
    vsg_pb_system s; /* its description (no arrays) */
} dev_level;

static vsg_status solve_level_dev(const vsg_molecule *m, const vsg_pb_params *p, const vsg_pb_physics *ph,
                                  const vsg_level *lv, vsg_boundary bc, int *gpu, double tol, int depth,
                                  vsg_grid **out, dev_level *keep, level_out *lo);
static int resident_ok(vsg_boundary bc, const vsg_grid *coarse);

/* Nested iteration: when a level starts from nothing (no coarser level), first solve the same box
 * at twice the spacing (recursively, down to ~33 nodes) and start from its interpolated
 * potential. The smooth error components, which SOR removes slowest, are then mostly gone: the
 * fine level needs fewer iterations for about an eighth of its cost. Faces stay as computed.
 * 1 and the coarse level in *half when lv has one. */
#define VSG_NESTED_MIN_NODES 65
static int nested_level(const vsg_level *lv, int depth, vsg_level *half)
{
    int nmin = lv->n[0] < lv->n[1] ? lv->n[0] : lv->n[1];
    nmin = lv->n[2] < nmin ? lv->n[2] : nmin;
    if (depth >= 4 || nmin < VSG_NESTED_MIN_NODES) return 0;
    *half = *lv;
    half->h = 2.0 * lv->h;
    for (int d = 0; d < 3; d++) half->n[d] = ((lv->n[d] - 1) / 2 + 1) | 1; /* odd; same origin */
    return 1;
}

/* The coarse level of a nested start, solved beside its parent's build (a GPU parent: the
 * coarse levels' builds and solves, small kernels and host round trips, then overlap the fine
 * level's build instead of following it; at 161³ they took 4.4 ms of a 13.7 ms solve) or before
 * the parent's guess (the CPU twin, and where no thread could be started). When both levels are
 * resident the coarse one stays on the device (dev_level: no grid, no energy, which nobody
 * reads of a nested level); otherwise it is a host grid. */
typedef struct {
    const vsg_molecule *m;
    const vsg_pb_params *p;
    const vsg_pb_physics *ph;
    vsg_level half;
    vsg_boundary bc;
    double tol;
    int depth, gpu, resident;
    /* the answer */
    vsg_status st;
    dev_level cl;   /* resident: the level itself */
    vsg_grid *g;    /* otherwise its potential */
    level_out lo;
    char error[1024]; /* the failure's message, from the job's thread */
    pthread_t thread;
    int started;
} coarse_job;

static void *coarse_run(void *arg)
{
    coarse_job *j = arg;
    /* solve_level_dev fills j->cl only on success; otherwise the host-copy path, with a grid */
    j->st = j->resident ? solve_level_dev(j->m, j->p, j->ph, &j->half, j->bc, &j->gpu, j->tol, j->depth, NULL,
                                          &j->cl, &j->lo)
                        : VSG_E_UNSUPPORTED;
    if (j->st == VSG_E_UNSUPPORTED)
        j->st = solve_level(j->m, j->p, j->ph, &j->half, j->bc, NULL, &j->gpu, j->tol, j->depth, &j->g, &j->lo);
    if (j->st != VSG_OK) snprintf(j->error, sizeof j->error, "%s", vsg_last_error());
    return NULL;
}

/* Starts the coarse level of lv (the caller checked nested_level): on a thread when the parent
 * is a GPU level (threaded), else at once. */
static void coarse_start(coarse_job *j, const vsg_molecule *m, const vsg_pb_params *p, const vsg_pb_physics *ph,
                         const vsg_level *half, vsg_boundary bc, int gpu, double tol, int depth, int resident,
                         int threaded)
{
    memset(j, 0, sizeof *j);
    j->m = m;
    j->p = p;
    j->ph = ph;
    j->half = *half;
    j->bc = bc;
    /* The coarse potential differs from the fine one by O(h²) anyway: a looser tolerance. */
    j->tol = 100.0 * tol;
    j->depth = depth + 1;
    j->gpu = gpu;
    j->resident = resident;
    j->started = threaded && pthread_create(&j->thread, NULL, coarse_run, j) == 0;
    if (!j->started) coarse_run(j);
}

/* Waits for the job (a GPU that failed there under --device auto: the CPU from now on here too). */
static void coarse_join(coarse_job *j, int *gpu)
{
    if (j->started) pthread_join(j->thread, NULL);
    j->started = 0;
    if (!j->gpu) *gpu = 0;
}

static void coarse_free(coarse_job *j)
{
    vsg_pb_dev_free(j->cl.dev);
    vsg_pb_system_free(&j->cl.s);
    vsg_grid_free(j->g);
    j->cl.dev = NULL;
    j->g = NULL;
}

/* Waits for the job and drops its answer, keeping this thread's error message (the parent's
 * failure is the one to report). */
static void coarse_abandon(coarse_job *j, int *gpu)
{
    coarse_join(j, gpu);
    coarse_free(j);
}

/* The job's answer as the start of s (or of the resident level dev); its failure's message
 * becomes this thread's. A resident coarse level (j->cl) comes only from a resident parent. */
static vsg_status coarse_finish(coarse_job *j, vsg_pb_system *s, vsg_pb_dev *dev, int *gpu, int *iterations)
{
    coarse_join(j, gpu);
    vsg_status st = j->st == VSG_OK ? VSG_OK : vsg_fail(j->st, "%s", j->error);
    if (st == VSG_OK) {
        *iterations += j->lo.res.iterations + j->lo.nested_iterations;
        if (j->cl.dev) st = vsg_pb_dev_guess_level(dev, s, j->cl.dev, &j->cl.s);
        else if (dev) st = vsg_pb_dev_guess(dev, s, j->g);
        else vsg_pb_guess(s, j->g);
    }
    coarse_free(j);
    return st;
}

/* MPI (issue 7): the GPU of this rank. Under mpirun with > 1 rank each rank takes its own, local
 * rank % devices (two ranks share a GPU only when the host has fewer GPUs than ranks); an explicit
 * --gpu N holds for every rank. */
static int rank_gpu(const vsg_pb_params *p)
{
    if (p->gpu_index >= 0) return p->gpu_index;
    if (!vsg_mpi_active() || vsg_mpi_size() <= 1) return 0;
    int count = vsg_gpu_count();
    return count > 0 ? vsg_mpi_local_rank() % count : 0;
}

/* 1 when the distributed solve splits s into slabs (the rule of sor_mpi.h): then the GPU slab
 * backend runs on every rank. Thinner grids (small nested levels) are solved whole by each
 * rank's GPU, as without MPI. */
static int gpu_slabs(const vsg_pb_system *s)
{
    const int ranks = vsg_mpi_active() ? vsg_mpi_size() : 1;
    if (ranks <= 1) return 0;
    int *cuts = malloc(((size_t)ranks + 1) * sizeof *cuts);
    if (!cuts) return 0;
    vsg_slab_cuts(s->nz, ranks, cuts);
    int ok = 1;
    for (int k = 0; k < ranks; k++) {
        int a = cuts[k] > 1 ? cuts[k] : 1, b = cuts[k + 1] < s->nz - 1 ? cuts[k + 1] : s->nz - 1;
        if (b - a < VSG_SOR_MPI_MIN_PLANES) ok = 0;
    }
    free(cuts);
    return ok;
}

/* The SOR settings of a level (both twins, both GPU forms). */
static vsg_sor_settings level_settings(const vsg_pb_params *p, const vsg_pb_system *s, double tol, int depth)
{
    vsg_sor_settings set;
    memset(&set, 0, sizeof set);
    set.omega = vsg_sor_omega_start(s);
    set.adapt = 1;
    set.tol = tol;
    set.max_iter = p->max_iter > 0 ? p->max_iter : 20000;
    set.check_every = p->check_every > 0 ? p->check_every : 10;
    set.threads = p->threads;
    set.progress = p->progress && depth == 0;
    set.gpu_index = rank_gpu(p);
    set.max_gpu_bytes = p->max_gpu_memory;
    return set;
}

/* What both level paths report alike of a solved level (the energy and the bytes per node are
 * each path's own). */
static void record_level(level_out *lo, const vsg_sor_result *res, const vsg_sor_settings *set,
                         const vsg_pb_system *s, const vsg_grid_charge *charges, size_t nq, double outside)
{
    lo->res = *res;
    lo->set = *set;
    for (size_t i = 0; i < nq; i++) lo->charge_in += charges[i].q;
    lo->charge_out = outside;
    lo->charged = (long)nq;
    lo->listed = (long)(s->ncorr[0] + s->ncorr[1]);
}

static void profile_level(const vsg_level *lv, int depth, const level_out *lo, const vsg_sor_result *res,
                          double t_nested, double t_sor, double t_after)
{
    if (!vsg_profiling()) return;
    fprintf(stderr,
            "vsgrid profile: level %dx%dx%d depth %d: build+boundary %.4f s, nested guess %.4f s, SOR call "
            "%.4f s (iterations %.4f s, %d it), energy+grid %.4f s\n",
            lv->n[0], lv->n[1], lv->n[2], depth, lo->setup_seconds, t_sor - t_nested, t_after - t_sor, res->seconds,
            res->iterations, vsg_now() - t_after);
}

/* 1 when a GPU level can stay on the device from its build to its answer (pb_dev.h): zero or
 * mdh faces, no coarse grid to focus from, one MPI rank. VSG_PB_RESIDENT=0 keeps the host copy
 * (build, download, upload, solve, download), for comparisons. */
static int resident_ok(vsg_boundary bc, const vsg_grid *coarse)
{
    const char *e = getenv("VSG_PB_RESIDENT");
    if (e && atoi(e) == 0) return 0;
    if (coarse || (bc != VSG_BC_ZERO && bc != VSG_BC_MDH)) return 0;
    return !(vsg_mpi_active() && vsg_mpi_size() > 1);
}

/* 1 when the GPU has room for the coarse levels' builds beside this level's: free memory (and
 * --max-gpu-memory, when set) of twice a generous bound on a resident build's peak (48 bytes a
 * node; pb_setup_gpu.cu's own test counts ~20 in float). Near the limit the levels go one after the
 * other, as before. */
static int room_beside(const vsg_pb_params *p, const vsg_level *lv)
{
    double free_bytes = 0.0;
    if (vsg_gpu_describe(rank_gpu(p), NULL, 0, &free_bytes, NULL) != VSG_OK) return 0;
    if (p->max_gpu_memory > 0.0 && p->max_gpu_memory < free_bytes) free_bytes = p->max_gpu_memory;
    return free_bytes > 2.0 * 48.0 * (double)lv->n[0] * lv->n[1] * lv->n[2];
}

/* A test's hook: VSG_PB_REFUSE_RESIDENT=D makes the resident build of the levels of nesting depth
 * D fail as a device would, with a warning, so that the fallbacks beside a running coarse level
 * can be checked (tests/test_gpu_pb_receptor.c: the answer must not change). */
static int refused_here(int depth)
{
    const char *e = getenv("VSG_PB_REFUSE_RESIDENT");
    if (!(e && *e && atoi(e) == depth)) return 0;
    vsg_warn("VSG_PB_REFUSE_RESIDENT: resident build refused at depth %d", depth); /* the test sees it took */
    return 1;
}

/* A level on the GPU from build to answer: the same steps as solve_level's GPU path, without
 * the host copy of the system. VSG_E_UNSUPPORTED when the resident build cannot be made (the
 * caller then takes the host copy, which has its own fallbacks). With keep (a nested level
 * under a resident parent) the answer is the level itself, left on the device in *keep: no
 * grid, no energy. */
static vsg_status solve_level_dev(const vsg_molecule *m, const vsg_pb_params *p, const vsg_pb_physics *ph,
                                  const vsg_level *lv, vsg_boundary bc, int *gpu, double tol, int depth,
                                  vsg_grid **out, dev_level *keep, level_out *lo)
{
    double ts = vsg_now();
    memset(lo, 0, sizeof *lo);
    vsg_grid_ahead ahead; /* the answer's grid, made while the GPU works */
    if (!keep) vsg_grid_ahead_start(&ahead, lv->n, lv->origin, lv->h, "kT/e");
    vsg_pb_system s;
    vsg_grid_charge *charges = NULL;
    size_t nq = 0;
    double outside = 0.0;
    vsg_pb_dev *dev = NULL;
    vsg_level half;
    coarse_job job;
    const int nested = nested_level(lv, depth, &half);
    /* beside the build when there is room; else after it, which also finds a level too large
     * for the device before any coarse level is solved */
    const int beside = nested && room_beside(p, lv);
    if (beside) coarse_start(&job, m, p, ph, &half, bc, *gpu, tol, depth, 1, 1);
    vsg_status st = refused_here(depth)
                        ? vsg_fail(VSG_E_DEVICE, "resident build refused at depth %d (VSG_PB_REFUSE_RESIDENT)", depth)
                        : vsg_pb_dev_build(m, ph, lv, p->precision, bc, &s, &charges, &nq, &outside, rank_gpu(p),
                                           depth, &dev);
    if (st != VSG_OK) {
        if (beside) coarse_abandon(&job, gpu);
        if (!keep) vsg_grid_free(vsg_grid_ahead_finish(&ahead));
        return st == VSG_E_NOMEM ? st : VSG_E_UNSUPPORTED;
    }
    lo->setup_seconds = vsg_now() - ts;
    const double t_nested = vsg_now();
    if (nested && !beside) coarse_start(&job, m, p, ph, &half, bc, *gpu, tol, depth, 1, 0);
    if (nested) st = coarse_finish(&job, &s, dev, gpu, &lo->nested_iterations);
    const double t_sor = vsg_now();
    vsg_sor_settings set = level_settings(p, &s, level_tol(p, s.precision, vsg_pb_dev_max_source(dev), tol), depth);
    vsg_sor_result res;
    memset(&res, 0, sizeof res);
    if (st == VSG_OK) st = vsg_sor_gpu_dev(dev, &s, &set, &res);
    const double t_after = vsg_now();
    vsg_grid *g = keep ? NULL : vsg_grid_ahead_finish(&ahead);
    if (st == VSG_OK && !keep && !g) st = VSG_E_NOMEM;
    if (st == VSG_OK && !keep) st = vsg_pb_dev_result(dev, &s, charges, nq, &lo->energy, g);
    if (st == VSG_OK) {
        record_level(lo, &res, &set, &s, charges, nq, outside);
        lo->bytes_per_node = res.device_bytes / (double)s.nodes;
        if (keep) {
            keep->dev = dev;
            keep->s = s;
            dev = NULL;
            memset(&s, 0, sizeof s);
        } else {
            *out = g;
            g = NULL;
        }
    }
    profile_level(lv, depth, lo, &res, t_nested, t_sor, t_after);
    vsg_grid_free(g);
    free(charges);
    vsg_pb_dev_free(dev);
    vsg_pb_system_free(&s);
    if (st == VSG_E_DEVICE && *gpu && p->device == VSG_DEVICE_AUTO) {
        /* As the host-copy path does: the CPU twin takes the level over. */
        vsg_warn("GPU solver failed (%s): running the CPU solver", vsg_last_error());
        *gpu = 0;
        return VSG_E_UNSUPPORTED;
    }
    return st;
}

static vsg_status solve_level(const vsg_molecule *m, const vsg_pb_params *p, const vsg_pb_physics *ph,
                              const vsg_level *lv, vsg_boundary bc, const vsg_grid *coarse, int *gpu,
                              double tol, int depth, vsg_grid **out, level_out *lo)
{
    if (*gpu && resident_ok(bc, coarse)) {
        vsg_status rs = solve_level_dev(m, p, ph, lv, bc, gpu, tol, depth, out, NULL, lo);
        if (rs != VSG_E_UNSUPPORTED) return rs;
    }
    double ts = vsg_now();
    memset(lo, 0, sizeof *lo);
    vsg_pb_system s;
    vsg_grid_charge *charges = NULL;
    size_t nq = 0;
    double outside = 0.0;
    vsg_status st = VSG_E_UNSUPPORTED;
    if (*gpu) {
        /* Maps, lists and faces on the GPU (the same system as the CPU builds; focusing faces
         * come from the coarse grid on the host). */
        st = vsg_pb_build_gpu(m, ph, lv, p->precision, coarse ? VSG_BC_ZERO : bc, &s, &charges, &nq, &outside,
                              rank_gpu(p), NULL);
        if (st == VSG_E_NOMEM || st == VSG_E_ARG) return st;
        if (st != VSG_OK) {
            static int said;
            if (!said) vsg_warn("GPU PB setup failed (%s): building the maps on the CPU", vsg_last_error());
            said = 1;
            st = VSG_E_UNSUPPORTED;
        } else if (coarse) {
            st = vsg_pb_boundary(&s, m, ph, bc, coarse);
        }
    }
    if (st == VSG_E_UNSUPPORTED) {
        st = vsg_pb_build(m, ph, lv, p->precision, &s, &charges, &nq, &outside);
        if (st != VSG_OK) return st;
        st = vsg_pb_boundary(&s, m, ph, bc, coarse);
    }
    lo->setup_seconds = vsg_now() - ts;
    const double t_nested = vsg_now();
    vsg_level half;
    if (st == VSG_OK && !coarse && nested_level(lv, depth, &half)) {
        coarse_job job;
        coarse_start(&job, m, p, ph, &half, bc, *gpu, tol, depth, 0, 0);
        st = coarse_finish(&job, &s, NULL, gpu, &lo->nested_iterations);
    }
    const double t_sor = vsg_now();
    vsg_sor_settings set = level_settings(p, &s, level_tol(p, s.precision, max_source(&s), tol), depth);
    vsg_sor_result res;
    memset(&res, 0, sizeof res);
    if (st == VSG_OK && *gpu && gpu_slabs(&s)) {
        /* MPI over GPUs (issue 7): one z-slab per rank on the rank's GPU. A failure to open is
         * agreed by all ranks (sor_mpi.c), so with --device auto they all fall back together;
         * s is untouched then (the slabs only read it before the loop). */
        vsg_sor_mpi_set_device(rank_gpu(p));
        st = vsg_sor_mpi_with(&vsg_slab_gpu, &s, &set, &res);
        if (st != VSG_OK && st != VSG_E_CONVERGE && p->device == VSG_DEVICE_AUTO) {
            vsg_warn("GPU slab solver failed (%s): running the CPU solver", vsg_last_error());
            *gpu = 0;
            st = VSG_OK;
        }
    } else if (st == VSG_OK && *gpu) {
        /* The GPU copies the potential back only on success: s is untouched on failure. */
        st = vsg_sor_gpu(&s, &set, &res);
        if (st == VSG_E_DEVICE && p->device == VSG_DEVICE_AUTO) {
            vsg_warn("GPU solver failed (%s): running the CPU solver", vsg_last_error());
            *gpu = 0;
            st = VSG_OK;
        }
    }
    /* MPI (issue 7): under mpirun with > 1 rank the CPU SOR runs in z-slabs over the ranks
     * (sor_mpi.h); otherwise vsg_sor_mpi is vsg_sor_cpu. */
    if (st == VSG_OK && !*gpu) {
        vsg_sor_mpi_set_device(-1);
        st = vsg_sor_mpi(&s, &set, &res);
    }
    const double t_after = vsg_now();
    if (st == VSG_OK) {
        record_level(lo, &res, &set, &s, charges, nq, outside);
        lo->energy = vsg_pb_energy(&s, charges, nq);
        lo->bytes_per_node = *gpu ? res.device_bytes / (double)s.nodes
                                  : (vsg_pb_system_bytes(&s) + 4.0 * (double)s.nodes) / (double)s.nodes;
        *out = system_to_grid(&s);
        if (!*out) st = vsg_fail(VSG_E_NOMEM, "out of memory (potential grid)");
    }
    profile_level(lv, depth, lo, &res, t_nested, t_sor, t_after);
    free(charges);
    vsg_pb_system_free(&s);
    return st;
}

/* Solves the levels in order; each level's potential gives the next one's boundary. */
static vsg_status solve_levels(const vsg_molecule *m, const vsg_pb_params *p, const vsg_pb_physics *ph,
                               vsg_grid **out, vsg_pb_report *r)
{
    double t0 = vsg_now();
    vsg_level lv[VSG_MAX_LEVELS];
    int count = 0;
    vsg_status st = plan(m, p, lv, &count);
    if (st != VSG_OK) return st;
    vsg_grid *coarse = NULL;
    if (p->bc == VSG_BC_FOCUS_FILE) {
        if (!p->focus_file) return vsg_fail(VSG_E_ARG, "focus from a file: no coarse grid given");
        st = vsg_grid_read(p->focus_file, &coarse);
        if (st != VSG_OK) return st;
        if (strcmp(coarse->units, "kT/e") != 0)
            vsg_warn("focus grid %s has units '%s', expected kT/e", p->focus_file, coarse->units);
    }
    double fine_nodes = (double)lv[count - 1].n[0] * lv[count - 1].n[1] * lv[count - 1].n[2];
    double est = 0.0;
    vsg_pb_estimate(m, p, &est, NULL, NULL);
    if (est > p->max_memory) {
        vsg_grid_free(coarse);
        return vsg_fail(VSG_E_LIMIT, "grid %dx%dx%d needs about %.0f MiB, above the limit of %.0f MiB (--max-memory)",
                        lv[count - 1].n[0], lv[count - 1].n[1], lv[count - 1].n[2], est / 1048576.0,
                        p->max_memory / 1048576.0);
    }
    const double t_dev = vsg_now();
    double mark = t_dev;
    int gpu = use_gpu(p, &st);
    vsg_profile_phase(&mark, "device discovery (CUDA init)");
    if (st != VSG_OK) { vsg_grid_free(coarse); return st; }
    /* The GPU's context now, so that the report can give this once-per-process cost apart
     * (a failure here is met again, and handled, by the first GPU call of the solve). */
    if (gpu) (void)vsg_gpu_start(rank_gpu(p));
    vsg_profile_phase(&mark, "GPU context");
    const double device_start = gpu ? vsg_now() - t_dev : 0.0;
    /* Default precision: float on the GPU (half the bytes per node, accuracy checked against the
     * double twin in the GPU tests), double on the CPU. */
    vsg_pb_params pp = *p;
    if (pp.precision == VSG_PRECISION_AUTO) pp.precision = gpu ? VSG_PRECISION_FLOAT : VSG_PRECISION_DOUBLE;
    p = &pp;
    vsg_precision precision = p->precision;
    double tol = p->tol > 0.0 ? p->tol : (precision == VSG_PRECISION_FLOAT ? 1e-4 : 1e-6);

    memset(r, 0, sizeof *r);
    r->device_start_seconds = device_start;
    r->levels = count;
    r->kt_kcal = vsg_kt_kcal(p->temperature);
    r->debye_length = ph->kappa2 > 0.0 ? 1.0 / sqrt(ph->kappa2) : 0.0;
    snprintf(r->precision, sizeof r->precision, "%s", precision == VSG_PRECISION_FLOAT ? "float" : "double");
    vsg_boundary bc = p->bc == VSG_BC_FOCUS || p->bc == VSG_BC_FOCUS_FILE ? VSG_BC_MDH : p->bc;
    for (int k = 0; k < count && st == VSG_OK; k++) {
        vsg_grid *g = NULL;
        level_out lo;
        st = solve_level(m, p, ph, &lv[k], bc, coarse, &gpu, tol, 0, &g, &lo);
        if (st != VSG_OK) break;
        if (!lo.res.converged)
            vsg_warn("PB level %d/%d did not converge in %d iterations (max change %.3g kT/e > tol %.3g)",
                     k + 1, count, lo.res.iterations, lo.res.final_change, lo.set.tol);
        r->setup_seconds += lo.setup_seconds;
        r->total_iterations += lo.res.iterations + lo.nested_iterations;
        if (k == count - 1) {
            r->iterations = lo.res.iterations;
            r->final_change = lo.res.final_change;
            r->converged = lo.res.converged;
            r->seconds_per_iteration = lo.res.iterations ? lo.res.seconds / lo.res.iterations : 0.0;
            r->omega = lo.res.omega;
            r->tol = lo.set.tol;
            memcpy(r->n, lv[k].n, sizeof r->n);
            memcpy(r->origin, lv[k].origin, sizeof r->origin);
            r->spacing = lv[k].h;
            r->energy_kt = lo.energy;
            r->charge_in_box = lo.charge_in;
            r->charge_outside = lo.charge_out;
            r->boundary_nodes = lo.listed;
            r->charged_nodes = lo.charged;
            r->pattern_nodes = (long)lo.res.pattern_nodes;
            r->bytes_per_node = lo.bytes_per_node;
            r->peak_bytes = fine_nodes * bytes_per_node(precision) + (double)lo.listed * sizeof(vsg_pb_corr);
            snprintf(r->device, sizeof r->device, "%s", lo.res.device);
        }
        vsg_grid_free(coarse);
        coarse = g;
    }
    r->seconds = vsg_now() - t0;
    if (st != VSG_OK) { vsg_grid_free(coarse); return st; }
    add_meta(coarse, m, p, r);
    *out = coarse;
    return VSG_OK;
}

vsg_status vsg_pb_solve(const vsg_molecule *m, const vsg_pb_params *p, vsg_grid **out, vsg_pb_report *report)
{
    if (!m || !p || !out) return vsg_fail(VSG_E_ARG, "vsg_pb_solve: NULL argument");
    *out = NULL;
    vsg_pb_physics ph;
    vsg_status st = vsg_pb_physics_from(p, &ph);
    if (st != VSG_OK) return st;
    vsg_pb_report local;
    return solve_levels(m, p, &ph, out, report ? report : &local);
}

vsg_status vsg_pb_solvation(const vsg_molecule *m, const vsg_pb_params *p, double *dg_kt,
                            vsg_pb_report *solvated, vsg_pb_report *reference, vsg_grid **solvated_grid)
{
    vsg_pb_report rs, rr;
    vsg_grid *gs = NULL, *gr = NULL;
    vsg_status st = vsg_pb_solve(m, p, &gs, &rs);
    if (st != VSG_OK) return st;
    /* Reference: the solvent replaced by the solute dielectric, no ions, same grids. */
    vsg_pb_params ref = *p;
    ref.eps_out = p->eps_in;
    ref.n_ions = 0;
    ref.nonlinear = 0;
    st = vsg_pb_solve(m, &ref, &gr, &rr);
    vsg_grid_free(gr);
    if (st != VSG_OK) { vsg_grid_free(gs); return st; }
    if (rs.charge_outside > 1e-6)
        vsg_warn("atoms outside the finest grid hold %.3f e (sum of |q|, spread to nodes beyond its edge): "
                 "the solvation energy counts only the charges inside it (theirs is missing); enlarge the grid to "
                 "include them",
                 rs.charge_outside);
    if (dg_kt) *dg_kt = rs.energy_kt - rr.energy_kt;
    if (solvated) *solvated = rs;
    if (reference) *reference = rr;
    if (solvated_grid) *solvated_grid = gs; else vsg_grid_free(gs);
    return VSG_OK;
}
