/* test_gpu_coulomb.c — the GPU Coulomb grid (gpu/coulomb/coulomb_gpu.cu) against its CPU twin
 * (vsg_coulomb_cpu, grids/coulomb/coulomb.c) on random charge sets (~1k and ~20k atoms in a box) and on
 * the 1STP receptor, grids of odd sizes with non-round origins and unequal spacings, every
 * dielectric model: constant, ε = 4r, Mehler–Solmajer analytic, AutoGrid's table mode
 * (vsg_coulomb_kernel_make(..., autogrid = 1)), and a cutoff.
 *
 * Tolerance: max |gpu − cpu| ≤ 1e-5 · max |cpu| + 1e-6 kcal/mol/e. The GPU works in float: each
 * term is off by a few 1e-7 relative (rsqrtf is within 2 ulp, positions within ~1e-7 Å), each
 * tile of 256 terms is summed in float and the tiles in double; the largest |φ| is a node on an
 * atom (clamped at rmin), the largest single term, so the float error stays ~1e-6 of it even
 * with 20k atoms; 1e-5 leaves a 10× margin and still catches one wrong bin of a table (≥ 1e-3
 * of a term) or one atom wrongly kept or dropped at the cutoff.
 *
 * Some atoms sit exactly on nodes (the clamp), a few charges are exactly zero (skipped). The
 * output is poisoned with NaN before each GPU call and every node must be written. A repeated
 * call must give the same bits (a differing result would be a race). The seed is fresh each run
 * and printed; VSG_TEST_SEED=<n> repeats a run. Skipped (77) without a GPU. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "grids/formats/grid.h"
#include "grids/receptor/molecule.h"
#include "grids/base/vsgrid.h"
#include "gpu/device/gpu.h"
#include "testkit.h"

#define REL_TOL 1e-5
#define ABS_TOL 1e-6
#define CUTOFF 6.0 /* Å, for the cutoff cases: well inside the boxes, so it drops atoms */


/* ---- inputs ------------------------------------------------------------------------------ */

static vsg_grid *make_grid(int nx, int ny, int nz, const double origin[3], const double spacing[3])
{
    const int n[3] = {nx, ny, nz};
    vsg_grid *g = vsg_grid_new(n, origin, spacing, "kcal/mol/e");
    if (!g) fprintf(stderr, "vsg_grid_new: %s\n", vsg_last_error());
    return g;
}

/* n atoms uniform in the grid's box widened by `pad` Å on each side, charges in [−1, 1], one
 * in 50 exactly zero; the first `on_nodes` sit exactly on random nodes (node position formed as
 * origin + i·h, as the twins form it). */
static vsg_molecule *random_molecule(size_t n, const vsg_grid *g, double pad, size_t on_nodes)
{
    vsg_molecule *m = vsg_molecule_new("random", "pqr");
    if (!m) return NULL;
    for (size_t i = 0; i < n; i++) {
        vsg_atom a;
        memset(&a, 0, sizeof a);
        double p[3];
        for (int c = 0; c < 3; c++) {
            if (i < on_nodes) {
                int k = (int)(urand() * g->n[c]);
                if (k >= g->n[c]) k = g->n[c] - 1;
                p[c] = g->origin[c] + k * g->spacing[c];
            } else {
                p[c] = uniform(g->origin[c] - pad, g->origin[c] + (g->n[c] - 1) * g->spacing[c] + pad);
            }
        }
        a.x = p[0];
        a.y = p[1];
        a.z = p[2];
        a.charge = urand() < 0.02 ? 0.0 : uniform(-1.0, 1.0);
        a.radius = 1.7;
        a.serial = (int)i + 1;
        a.model = 1;
        a.line = (int)i + 1;
        strcpy(a.name, "C");
        strcpy(a.residue_name, "UNK");
        strcpy(a.element, "C");
        a.chain = 'A';
        a.insertion_code = ' ';
        if (vsg_molecule_push(m, &a) != VSG_OK) {
            vsg_molecule_free(m);
            return NULL;
        }
    }
    return m;
}

/* ---- one comparison ------------------------------------------------------------------------ */

typedef struct {
    const char *name;
    vsg_dielectric_model model;
    double eps;
    int autogrid;
    double cutoff;
} kernel_case;

static const kernel_case KERNELS[] = {
    {"constant eps=4", VSG_DIEL_CONSTANT, 4.0, 0, 0.0},
    {"distance 4r", VSG_DIEL_DISTANCE_4R, 0.0, 0, 0.0},
    {"Mehler-Solmajer", VSG_DIEL_MEHLER_SOLMAJER, 0.0, 0, 0.0},
    {"AutoGrid table (MS)", VSG_DIEL_MEHLER_SOLMAJER, 0.0, 1, 0.0},
    {"AutoGrid constant eps=1", VSG_DIEL_CONSTANT, 1.0, 1, 0.0},
    {"constant eps=1, cutoff", VSG_DIEL_CONSTANT, 1.0, 0, CUTOFF},
    {"AutoGrid table (MS), cutoff", VSG_DIEL_MEHLER_SOLMAJER, 0.0, 1, CUTOFF},
};
#define NKERNELS (sizeof KERNELS / sizeof KERNELS[0])

/* CPU twin vs GPU for one molecule, kernel and grid geometry; gpu is scratch of the same shape. */
static void compare(const char *what, const vsg_molecule *m, const kernel_case *kc, vsg_grid *cpu,
                    vsg_grid *gpu)
{
    vsg_coulomb_kernel k;
    memset(&k, 0, sizeof k);
    vsg_status st = vsg_coulomb_kernel_make(kc->model, kc->eps, kc->autogrid, &k);
    CHECK_STATUS(st, VSG_OK);
    if (st != VSG_OK) return;
    k.cutoff = kc->cutoff;
    const size_t nodes = vsg_grid_nodes(cpu);

    st = vsg_coulomb_cpu(m, &k, cpu);
    CHECK_STATUS(st, VSG_OK);

    for (size_t i = 0; i < nodes; i++) gpu->data[i] = NAN;
    double rate = -1.0;
    st = vsg_coulomb_gpu(m, &k, gpu, 0, &rate);
    CHECK_STATUS(st, VSG_OK);
    if (st != VSG_OK) {
        vsg_coulomb_kernel_free(&k);
        return;
    }
    CHECK(rate > 0.0);

    size_t unwritten = 0, worst = 0;
    double maxcpu = 0.0, maxdiff = 0.0;
    for (size_t i = 0; i < nodes; i++) {
        if (!isfinite(gpu->data[i])) unwritten++;
        double c = fabs((double)cpu->data[i]);
        if (c > maxcpu) maxcpu = c;
        double d = fabs((double)gpu->data[i] - (double)cpu->data[i]);
        if (!(d <= maxdiff)) { /* a NaN is the worst */
            maxdiff = d;
            worst = i;
        }
    }
    const double tol = REL_TOL * maxcpu + ABS_TOL;
    printf("  %-34s %-28s max|cpu| %10.4g  max|diff| %9.3g (%.2g of max)  %.3g evals/s\n", what, kc->name,
           maxcpu, maxdiff, maxcpu > 0 ? maxdiff / maxcpu : 0.0, rate);
    if (unwritten) fprintf(stderr, "    %zu of %zu nodes not written (NaN)\n", unwritten, nodes);
    CHECK(unwritten == 0);
    if (!(maxdiff <= tol)) {
        const int nx = cpu->n[0], ny = cpu->n[1];
        fprintf(stderr, "    worst node (%zu, %zu, %zu): gpu %.9g cpu %.9g, tolerance %.3g\n", worst % nx,
                (worst / nx) % ny, worst / ((size_t)nx * ny), (double)gpu->data[worst], (double)cpu->data[worst],
                tol);
    }
    CHECK(maxdiff <= tol);

    /* Same inputs, same bits: the atom order and the summation order are fixed. */
    float *first = malloc(nodes * sizeof(float));
    if (first) {
        memcpy(first, gpu->data, nodes * sizeof(float));
        for (size_t i = 0; i < nodes; i++) gpu->data[i] = NAN;
        CHECK_STATUS(vsg_coulomb_gpu(m, &k, gpu, 0, NULL), VSG_OK);
        CHECK(memcmp(first, gpu->data, nodes * sizeof(float)) == 0);
        free(first);
    }
    vsg_coulomb_kernel_free(&k);
}

static void compare_all(const char *what, const vsg_molecule *m, const int n[3], const double origin[3],
                        const double spacing[3])
{
    vsg_grid *cpu = make_grid(n[0], n[1], n[2], origin, spacing);
    vsg_grid *gpu = make_grid(n[0], n[1], n[2], origin, spacing);
    CHECK(cpu && gpu);
    if (cpu && gpu) {
        printf("%s: %zu atoms, %dx%dx%d grid, origin (%.3f, %.3f, %.3f), spacing (%.3f, %.3f, %.3f)\n", what,
               m->n, n[0], n[1], n[2], origin[0], origin[1], origin[2], spacing[0], spacing[1], spacing[2]);
        for (size_t i = 0; i < NKERNELS; i++) compare(what, m, &KERNELS[i], cpu, gpu);
    }
    vsg_grid_free(cpu);
    vsg_grid_free(gpu);
}

/* ---- error paths ---------------------------------------------------------------------------- */

static void error_paths(int ngpu)
{
    const int n[3] = {9, 10, 11};
    const double origin[3] = {-1.1, 0.3, 2.7}, spacing[3] = {0.5, 0.5, 0.5};
    vsg_grid *g = make_grid(n[0], n[1], n[2], origin, spacing);
    CHECK(g != NULL);
    if (!g) return;
    vsg_molecule *m = random_molecule(20, g, 2.0, 0);
    CHECK(m != NULL);
    vsg_coulomb_kernel k;
    memset(&k, 0, sizeof k);
    CHECK_STATUS(vsg_coulomb_kernel_make(VSG_DIEL_CONSTANT, 4.0, 0, &k), VSG_OK);
    double rate = 1.0;

    CHECK_STATUS(vsg_coulomb_gpu(m, &k, g, ngpu, &rate), VSG_E_DEVICE);
    CHECK(rate == 0.0);
    CHECK_CONTAINS(vsg_last_error(), "GPU");
    CHECK_STATUS(vsg_coulomb_gpu(NULL, &k, g, 0, &rate), VSG_E_ARG);
    CHECK_STATUS(vsg_coulomb_gpu(m, NULL, g, 0, &rate), VSG_E_ARG);
    CHECK_STATUS(vsg_coulomb_gpu(m, &k, NULL, 0, &rate), VSG_E_ARG);

    /* No charge at all: φ = 0 everywhere (poisoned first), no throughput to report. */
    if (m) {
        for (size_t i = 0; i < m->n; i++) m->atoms[i].charge = 0.0;
        const size_t nodes = vsg_grid_nodes(g);
        for (size_t i = 0; i < nodes; i++) g->data[i] = NAN;
        CHECK_STATUS(vsg_coulomb_gpu(m, &k, g, 0, &rate), VSG_OK);
        size_t nonzero = 0;
        for (size_t i = 0; i < nodes; i++) nonzero += g->data[i] != 0.0f;
        CHECK(nonzero == 0);
        CHECK(rate == 0.0);
    }
    vsg_coulomb_kernel_free(&k);
    vsg_molecule_free(m);
    vsg_grid_free(g);
}

int main(void)
{
    const int ngpu = vsg_gpu_count();
    if (ngpu == 0) SKIP("no GPU");
    char name[256];
    if (vsg_gpu_describe(0, name, sizeof name, NULL, NULL) == VSG_OK) printf("GPU 0: %s\n", name);

    testkit_seed();

    /* ~1k atoms around and inside a small grid; unequal spacings; 40 atoms on nodes. */
    {
        const int n[3] = {37, 29, 23};
        const double origin[3] = {-3.17 + uniform(-1, 1), 2.71 + uniform(-1, 1), -0.33 + uniform(-1, 1)};
        const double spacing[3] = {0.41, 0.37, 0.53};
        vsg_grid *shape = make_grid(n[0], n[1], n[2], origin, spacing);
        vsg_molecule *m = shape ? random_molecule(1000, shape, 3.0, 40) : NULL;
        CHECK(m != NULL);
        if (m) compare_all("random 1k", m, n, origin, spacing);
        vsg_molecule_free(m);
        vsg_grid_free(shape);
    }
    /* ~20k atoms in a 30 Å box, grid sizes that are not multiples of the GPU's brick. */
    {
        const int n[3] = {45, 41, 39};
        const double origin[3] = {12.345 + uniform(-1, 1), -31.77 + uniform(-1, 1), 47.09 + uniform(-1, 1)};
        const double spacing[3] = {0.55, 0.55, 0.55};
        vsg_grid *shape = make_grid(n[0], n[1], n[2], origin, spacing);
        vsg_molecule *m = shape ? random_molecule(20000, shape, 3.0, 100) : NULL;
        CHECK(m != NULL);
        if (m) compare_all("random 20k", m, n, origin, spacing);
        vsg_molecule_free(m);
        vsg_grid_free(shape);
    }
    /* The 1STP receptor (streptavidin), a 0.375 Å grid over its middle, origin off the lattice. */
    {
        vsg_molecule *m = NULL;
        vsg_status st = vsg_molecule_read(source_path("data/1stp_receptor.pdbqt"), NULL, &m);
        CHECK_STATUS(st, VSG_OK);
        if (st == VSG_OK) {
            double lo[3], hi[3];
            vsg_molecule_bounds(m, 0, lo, hi);
            const int n[3] = {51, 47, 43};
            const double spacing[3] = {0.375, 0.375, 0.375};
            double origin[3];
            for (int c = 0; c < 3; c++)
                origin[c] = 0.5 * (lo[c] + hi[c]) - 0.5 * (n[c] - 1) * spacing[c] + uniform(-0.5, 0.5);
            compare_all("1STP receptor", m, n, origin, spacing);
        }
        vsg_molecule_free(m);
    }
    error_paths(ngpu);
    CHECK_EXIT();
}
