/* test_gpu_vina_maps.c — the GPU Vina / Vinardo maps (gpu/maps/vina_maps_gpu.cu) against their
 * CPU twin (vsg_vina_maps_cpu, grids/maps/vina_maps.c): the 1IEP receptor (Vina's own example,
 * from ../shared/data or $VSG_SHARED_DATA; a random receptor of 600 atoms when absent) in Vina's
 * 1IEP box, all 19 ligand types, vina and vinardo, tabulated and analytic; random receptors of a
 * few hundred atoms of every AutoDock type (some atoms exactly on nodes, clashes) with odd boxes
 * and spacings, repeated and more than 20 types (several launches), a memory limit that forces
 * z-slabs; and a bad device index (VSG_E_DEVICE).
 *
 * Tolerance: |gpu − cpu| ≤ max(1e-4·|cpu|, 1e-5 kcal/mol) at every node. The GPU picks the CPU's
 * table bin and keeps the CPU's atoms bit for bit (r² in double, formed the same way); what
 * differs is float table values summed in float (~100–300 terms of up to ~10 kcal/mol each). The
 * worst measured error is printed per case. Also counted: nodes whose "%.4g" text (the .map
 * files) differs. Skipped (77) without a GPU. VSG_TEST_SEED=<n> repeats a random run. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "grids/formats/grid.h"
#include "grids/receptor/molecule.h"
#include "grids/base/vsgrid.h"

#define REL_TOL 1e-4
#define ABS_TOL 1e-5

static unsigned long long rng_state;
static double uniform(double a, double b)
{
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return a + (b - a) * (double)(rng_state >> 11) / 9007199254740992.0;
}

static void add(vsg_molecule *m, const char *ad, double x, double y, double z)
{
    vsg_atom a;
    memset(&a, 0, sizeof a);
    a.x = x, a.y = y, a.z = z;
    snprintf(a.ad_type, sizeof a.ad_type, "%s", ad);
    snprintf(a.name, sizeof a.name, "%.2s%d", ad, (int)((m->n + 1) % 100));
    a.line = (int)m->n + 1;
    vsg_molecule_push(m, &a);
}

/* n atoms of random AutoDock types, uniform in the box widened by 9 Å; the first few exactly
 * on nodes of a box with center c, spacing h (as the twins form nodes). */
static vsg_molecule *random_receptor(size_t n, const vsg_vina_box *b)
{
    static const char *ad[] = {"C", "C", "C", "A", "N", "NA", "OA", "O", "S", "SA", "HD", "H",
                               "F", "Cl", "Br", "I", "P", "Zn", "Fe", "Mg"};
    vsg_molecule *m = vsg_molecule_new("random", "pdbqt");
    for (size_t i = 0; i < n; i++) {
        double p[3];
        for (int k = 0; k < 3; k++) {
            if (i < 5) {
                /* on a node: origin + h·i with Vina's even voxel count */
                long v = (long)ceil(b->size[k] / b->spacing);
                if (v % 2) v++;
                double origin = b->center[k] - b->spacing * (double)v / 2.0;
                p[k] = origin + b->spacing * (double)(long)uniform(0, (double)v);
            } else {
                p[k] = b->center[k] + uniform(-b->size[k] / 2 - 9, b->size[k] / 2 + 9);
            }
        }
        add(m, ad[(size_t)uniform(0, sizeof ad / sizeof ad[0])], p[0], p[1], p[2]);
    }
    return m;
}

static int text_differs(float a, float b)
{
    char x[32], y[32];
    snprintf(x, sizeof x, "%.4g", (double)a);
    snprintf(y, sizeof y, "%.4g", (double)b);
    return strcmp(x, y) != 0;
}

static void compare(const char *what, const vsg_molecule *rec, const vsg_vina_box *box, const vsg_vina_params *p,
                    const vsg_xs_type *types, int ntypes, double max_bytes)
{
    vsg_grid *cpu[64] = {NULL}, *gpu[64] = {NULL};
    vsg_status sc = vsg_vina_maps_cpu(rec, box, p, types, ntypes, cpu);
    vsg_status sg = vsg_vina_maps_gpu(rec, box, p, types, ntypes, -1, max_bytes, gpu);
    CHECK(sc == VSG_OK);
    if (sg != VSG_OK) fprintf(stderr, "%s: GPU: %s\n", what, vsg_last_error());
    CHECK(sg == VSG_OK);
    if (sc != VSG_OK || sg != VSG_OK) goto done;
    double worst = 0, max_abs = 0, max_val = 0;
    size_t text = 0, total = 0, bad = 0;
    for (int t = 0; t < ntypes; t++) {
        const size_t nn = vsg_grid_nodes(cpu[t]);
        CHECK(vsg_grid_nodes(gpu[t]) == nn);
        for (int k = 0; k < 3; k++) {
            CHECK(gpu[t]->n[k] == cpu[t]->n[k]);
            CHECK(gpu[t]->origin[k] == cpu[t]->origin[k]);
            CHECK(gpu[t]->spacing[k] == cpu[t]->spacing[k]);
        }
        for (size_t i = 0; i < nn; i++) {
            const double c = cpu[t]->data[i], g = gpu[t]->data[i];
            const double err = fabs(g - c), tol = fmax(REL_TOL * fabs(c), ABS_TOL);
            if (!(err <= tol)) {
                if (bad++ < 5)
                    fprintf(stderr, "%s: type %s node %zu: gpu %.9g cpu %.9g\n", what, vsg_xs_type_name(types[t]), i, g, c);
            }
            if (err / tol > worst) worst = err / tol;
            if (err > max_abs) max_abs = err;
            if (fabs(c) > max_val) max_val = fabs(c);
            text += text_differs(cpu[t]->data[i], gpu[t]->data[i]);
            total++;
        }
    }
    CHECK(bad == 0);
    printf("%-34s %2d types %9zu values: max |gpu-cpu| %.2e (max |cpu| %.3g), worst %.3f of tolerance, "
           "%zu values differ in %%.4g text (%.1e)\n",
           what, ntypes, total, max_abs, max_val, worst, text, (double)text / (double)(total ? total : 1));
done:
    for (int t = 0; t < ntypes; t++) vsg_grid_free(cpu[t]), vsg_grid_free(gpu[t]);
}

int main(void)
{
    if (vsg_gpu_count() == 0) SKIP("no usable GPU");
    const char *seed_s = getenv("VSG_TEST_SEED");
    unsigned long long seed = seed_s ? strtoull(seed_s, NULL, 10) : (unsigned long long)time(NULL);
    printf("seed %llu (VSG_TEST_SEED=%llu repeats it)\n", seed, seed);
    rng_state = seed;

    vsg_xs_type all[VSG_XS_COUNT];
    for (int t = 0; t < VSG_XS_COUNT; t++) all[t] = (vsg_xs_type)t;
    vsg_vina_params vina, vinardo, analytic;
    vsg_vina_params_default(&vina);
    vinardo = vina, vinardo.scoring = VSG_VINA_SCORING_VINARDO;
    analytic = vina, analytic.tabulated = 0;

    /* 1IEP in Vina's example box */
    {
        char path[1200];
        const char *dir = shared_data_dir();
        vsg_molecule *rec = NULL;
        vsg_vina_box box = {{15.190, 53.903, 16.917}, {20, 20, 20}, 0.375};
        if (dir) {
            snprintf(path, sizeof path, "%s/autodock_vina/1iep/1iep_receptor.pdbqt", dir);
            if (vsg_molecule_read(path, NULL, &rec) != VSG_OK) rec = NULL;
        }
        const char *name = rec ? "1IEP" : "random 600 (no 1IEP)";
        if (!rec) VSG_SKIP_PART("1IEP receptor (a random one of 600 atoms instead)", VSG_NO_SHARED);
        if (!rec) rec = random_receptor(600, &box);
        char what[96];
        snprintf(what, sizeof what, "%s vina", name);
        compare(what, rec, &box, &vina, all, VSG_XS_COUNT, 0);
        snprintf(what, sizeof what, "%s vinardo", name);
        compare(what, rec, &box, &vinardo, all, VSG_XS_COUNT, 0);
        const vsg_xs_type few[3] = {VSG_XS_C_H, VSG_XS_N_A, VSG_XS_O_DA};
        vsg_vina_box small = {{15.190, 53.903, 16.917}, {10, 10, 10}, 0.375};
        snprintf(what, sizeof what, "%s vina analytic", name);
        compare(what, rec, &small, &analytic, few, 3, 0);
        snprintf(what, sizeof what, "%s vina slabs (8 MB)", name);
        compare(what, rec, &box, &vina, all, VSG_XS_COUNT, 8.0 * 1048576.0);
        /* a bad device index */
        vsg_grid *g[1] = {NULL};
        CHECK_STATUS(vsg_vina_maps_gpu(rec, &box, &vina, all, 1, vsg_gpu_count() + 3, 0, g), VSG_E_DEVICE);
        CHECK(g[0] == NULL);
        vsg_molecule_free(rec);
    }
    /* random receptors, odd boxes */
    for (int rep = 0; rep < 4; rep++) {
        vsg_vina_box box;
        for (int k = 0; k < 3; k++) box.center[k] = uniform(-40, 40), box.size[k] = uniform(4, 22);
        box.spacing = rep == 3 ? 1.0 : uniform(0.3, 0.6);
        vsg_molecule *rec = random_receptor(200 + (size_t)uniform(0, 500), &box);
        vsg_xs_type many[25];
        for (int t = 0; t < 25; t++) many[t] = (vsg_xs_type)(int)uniform(0, VSG_XS_COUNT);
        char what[96];
        snprintf(what, sizeof what, "random %zu atoms vina", rec->n);
        compare(what, rec, &box, &vina, many, rep == 0 ? 25 : 7, 0);
        snprintf(what, sizeof what, "random %zu atoms vinardo", rec->n);
        compare(what, rec, &box, &vinardo, many + 3, rep == 1 ? 22 : 5, rep == 2 ? 2.0 * 1048576.0 : 0);
        vsg_molecule_free(rec);
    }
    CHECK_EXIT();
}
