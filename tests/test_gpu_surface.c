/* test_gpu_surface.c — the GPU surface-potential kernels (gpu/surface/surface_gpu.cu) against their CPU
 * twins (grids/surface/alpb.c, grids/surface/hcp.c), exact and HCP, in every ALPB region, with and without
 * salt, on a real structure (the nucleosome, ../shared) and on random charge sets.
 *
 * Tolerance: float kernels against double twins. Per vertex, |φ_gpu − φ_cpu| ≤ 2e-5 ·
 * max|φ_cpu| (float terms, ~1e-7 relative each, summed over 10⁴ atoms with double
 * accumulation per tile), and the relative RMS ≤ 1e-5. For HCP an approximation decision can
 * flip for a vertex within float rounding of a threshold; such vertices are counted and must
 * be fewer than 1 in 10⁴, each within 1e-2 of max|φ|. Skips without a GPU.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grids/surface/alpb.h"
#include "check.h"
#include "gpu/device/gpu.h"
#include "grids/surface/hcp.h"
#include "grids/receptor/molecule.h"
#include "grids/pb/dielectric.h"
#include "gpu/surface/surface_gpu.h"
#include "surface_kit.h"
#include "testkit.h"


static void compare(const char *what, const double *gpu, const double *cpu, size_t n, int hcp)
{
    double big = 0, worst = 0, worst_flip = 0, num = 0, den = 0;
    size_t flips = 0;
    for (size_t i = 0; i < n; i++) big = fmax(big, fabs(cpu[i]));
    for (size_t i = 0; i < n; i++) {
        double d = fabs(gpu[i] - cpu[i]);
        if (hcp && d > 2e-5 * big) { /* one component on the other side of a threshold */
            flips++;
            worst_flip = fmax(worst_flip, d);
            continue;
        }
        worst = fmax(worst, d);
        num += d * d, den += cpu[i] * cpu[i];
    }
    double rms = sqrt(num / den);
    printf("%-44s max|Δ| %.2e (max|φ| %.3f, ratio %.1e), rel RMS %.1e%s", what, worst, big, worst / big, rms,
           hcp ? "" : "\n");
    if (hcp) printf(", threshold flips %zu of %zu (max|Δ| %.1e)\n", flips, n, worst_flip);
    CHECK(worst <= 2e-5 * big);
    CHECK(rms <= 1e-5);
    CHECK(flips * 10000 < n || flips == 0);
    /* a flip swaps one component's exact sum for its two-charge approximation at the threshold
     * distance: a small change, not an arbitrary one */
    CHECK(worst_flip <= 1e-2 * big);
}

static void run_case(const char *name, const vsg_molecule *m, const vsg_hcp *h, const vsg_mesh *mesh, double salt,
                     double projection, int gem)
{
    vsg_alpb_params p;
    vsg_alpb k;
    vsg_alpb_params_default(&p);
    p.salt = salt, p.projection = projection, p.gem_compat = gem;
    CHECK_STATUS(vsg_alpb_setup(&p, m, &k), VSG_OK);
    size_t n = mesh->nvert;
    double *cpu = malloc(n * sizeof *cpu), *gpu = malloc(n * sizeof *gpu), thr[3] = {10.0, 70.0, 150.0};
    char what[160];
    vsg_surface_gpu_report rep;
    CHECK_STATUS(vsg_alpb_exact_cpu(&k, m, mesh, cpu), VSG_OK);
    CHECK_STATUS(vsg_surface_exact_gpu(0, &k, m, mesh, gpu, &rep), VSG_OK);
    snprintf(what, sizeof what, "%s exact, region %d, salt %.2f:", name, k.region, salt);
    compare(what, gpu, cpu, n, 0);
    double pairs_cpu = 0;
    CHECK_STATUS(vsg_hcp_potential_cpu(h, &k, mesh, thr, cpu, &pairs_cpu), VSG_OK);
    CHECK_STATUS(vsg_surface_hcp_gpu(0, h, &k, mesh, thr, gpu, &rep), VSG_OK);
    snprintf(what, sizeof what, "%s HCP, region %d, salt %.2f:", name, k.region, salt);
    compare(what, gpu, cpu, n, 1);
    CHECK(fabs(rep.pairs - pairs_cpu) <= 1e-3 * pairs_cpu);
    double inf[3] = {INFINITY, INFINITY, INFINITY};
    CHECK_STATUS(vsg_alpb_exact_cpu(&k, m, mesh, cpu), VSG_OK);
    CHECK_STATUS(vsg_surface_hcp_gpu(0, h, &k, mesh, inf, gpu, &rep), VSG_OK);
    snprintf(what, sizeof what, "%s HCP(∞) = exact, region %d:", name, k.region);
    compare(what, gpu, cpu, n, 0);
    free(cpu), free(gpu);
}

int main(void)
{
    if (vsg_gpu_count() < 1) SKIP("no CUDA GPU");
    rng = 20261122;
    printf("seed 20261122\n");
    /* Random charge sets: 3 "chains" of 40 residues of 8 atoms in a 60 Å box. */
    vsg_molecule *rnd = vsg_molecule_new("random", "pqr");
    for (int c = 0; c < 3; c++)
        for (int r = 0; r < 40; r++) {
            double cx = uniform(-25, 25), cy = uniform(-25, 25), cz = uniform(-25, 25);
            for (int a = 0; a < 8; a++) {
                vsg_atom at;
                memset(&at, 0, sizeof at);
                at.x = cx + uniform(-2, 2), at.y = cy + uniform(-2, 2), at.z = cz + uniform(-2, 2);
                at.charge = uniform(-0.8, 0.8), at.radius = uniform(1.2, 1.9);
                at.residue_number = 40 * c + r + 1, at.segment = c, at.model = 1;
                at.chain = (char)('A' + c), at.insertion_code = ' ';
                strcpy(at.residue_name, "RND");
                vsg_molecule_push(rnd, &at);
            }
        }
    vsg_hcp *h = NULL;
    CHECK_STATUS(vsg_hcp_build(rnd, &h), VSG_OK);
    vsg_mesh *mesh = surface_kit_points(rnd, 1, 1.2, 0);
    for (int g = 0; g < 2; g++)
        for (int s = 0; s < 2; s++)
            for (int pr = 0; pr < 2; pr++)
                run_case("random", rnd, h, mesh, s ? 0.15 : 0.0, pr ? 3.0 : 0.0, g);
    surface_kit_free(mesh);
    vsg_hcp_free(h);
    vsg_molecule_free(rnd);

    const char *dir = shared_data_dir();
    if (!dir) {
        VSG_SKIP_PART("nucleosome cases", VSG_NO_SHARED);
        CHECK_EXIT();
    }
    char nuc[1200];
    snprintf(nuc, sizeof nuc, "%s/gem_hcp/nucleosome.pqr.gz", dir);
    vsg_molecule *m = NULL;
    CHECK_STATUS(vsg_molecule_read(nuc, NULL, &m), VSG_OK);
    if (!m) CHECK_EXIT();
    CHECK_STATUS(vsg_hcp_build(m, &h), VSG_OK);
    mesh = surface_kit_points(m, 1, 1.2, 0);
    printf("nucleosome: %zu atoms, %zu surface points\n", m->n, mesh->nvert);
    run_case("nucleosome", m, h, mesh, 0.15, 0.0, 0);
    run_case("nucleosome", m, h, mesh, 0.0, 0.0, 1);
    surface_kit_free(mesh);
    vsg_hcp_free(h);
    vsg_molecule_free(m);
    CHECK_EXIT();
}
