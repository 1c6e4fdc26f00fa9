/* test_gpu_ad4_maps.c — the GPU AutoDock4 maps (gpu/maps/ad4_maps_gpu.cu) against their CPU
 * twin (vsg_ad4_maps_cpu, grids/maps/ad4_maps.c), every map of the gpf (affinity per ligand
 * type + desolvation): the 1STP receptor of AutoDock-GPU's example (../shared/data or
 * $VSG_SHARED_DATA) with its own gpf and with a larger box asking for every probe kind (vdW,
 * donor, A1 and A2 acceptors); random receptors of every common AutoDock type with bonded donor
 * hydrogens (directional terms, the nearest-donor ramp), atoms on nodes, clashes (the clamp),
 * gridcenter auto; a bad device index (VSG_E_DEVICE).
 *
 * Tolerance: |gpu − cpu| ≤ 0.001 kcal/mol + 4 float ulps at every node, and at most 1 node in
 * 1000 differing at all. Both twins compute in double and round to 3 decimals (autogrid4's
 * round3dp) before the float conversion; the GPU picks the CPU's table bins and keeps the CPU's
 * atoms bit for bit, but sums in cell order instead of file order (and may contract FMAs, and its
 * acos/cos/pow differ by an ulp or two), so a value within ~1e-12 of a 0.0005 rounding edge may
 * round one step (0.001, or a float ulp above 4096 kcal/mol) the other way. Everywhere else the
 * floats are identical; the number of differing nodes is printed. Skipped (77) without a GPU.
 * VSG_TEST_SEED=<n> repeats a random run. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "grids/base/vsgrid.h"
#include "grids/formats/grid.h"
#include "grids/receptor/molecule.h"

static unsigned long long rng_state;
static double uniform(double a, double b)
{
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return a + (b - a) * (double)(rng_state >> 11) / 9007199254740992.0;
}

static void add(vsg_molecule *m, const char *ad, double x, double y, double z, double q)
{
    vsg_atom a;
    memset(&a, 0, sizeof a);
    a.x = x, a.y = y, a.z = z, a.charge = q;
    snprintf(a.ad_type, sizeof a.ad_type, "%s", ad);
    snprintf(a.name, sizeof a.name, "%.2s%d", ad, (int)((m->n + 1) % 100));
    a.line = (int)m->n + 1;
    vsg_molecule_push(m, &a);
}

/* n heavy atoms uniform in a cube of half-width w around c; N/NA/OA carry a hydrogen donor
 * (HD at 1 Å) half the time, so D1/A1/A2 atoms have bond partners; the first atoms lie on
 * nodes of the gpf box (centre + k·h) and two pairs clash (the clamped region). */
static vsg_molecule *random_receptor(size_t n, const double c[3], double w, double h)
{
    static const char *ad[] = {"C", "C", "C", "A", "N", "NA", "OA", "OA", "SA", "S", "Cl", "F", "Zn", "Mg", "Fe", "P"};
    vsg_molecule *m = vsg_molecule_new("random", "pdbqt");
    for (size_t i = 0; i < n; i++) {
        const char *t = ad[(int)uniform(0, sizeof ad / sizeof ad[0])];
        double p[3];
        for (int k = 0; k < 3; k++)
            p[k] = i < 6 ? c[k] + h * (double)((int)uniform(-8, 8)) : c[k] + uniform(-w, w);
        add(m, t, p[0], p[1], p[2], uniform(-0.6, 0.6));
        if (i == 10 || i == 20) add(m, "C", p[0] + 0.05, p[1], p[2], 0.1); /* clash */
        if ((!strcmp(t, "N") || !strcmp(t, "NA") || !strcmp(t, "OA")) && uniform(0, 1) < 0.5) {
            double d[3] = {uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)};
            double r = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]) + 1e-9;
            add(m, "HD", p[0] + d[0] / r, p[1] + d[1] / r, p[2] + d[2] / r, uniform(0.1, 0.4));
        }
    }
    return m;
}

static void set_types(vsg_gpf *g, const char *list)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", list);
    g->n_ligand_types = 0;
    for (char *t = strtok(buf, " "); t; t = strtok(NULL, " "))
        snprintf(g->ligand_types[g->n_ligand_types++], 4, "%s", t);
}

static double total_nodes, total_diff;

/* GPU vs CPU on every map of one case. */
static void compare(const char *label, const vsg_molecule *rec, const vsg_gpf *gpf, const vsg_ad4_params *p)
{
    vsg_grid *c[VSG_AG_MAX_MAPS + 1], *g[VSG_AG_MAX_MAPS + 1];
    const int nm = gpf->n_ligand_types + 1;
    double t0 = vsg_now();
    CHECK_STATUS(vsg_ad4_maps_cpu(rec, gpf, p, 0, c), VSG_OK);
    double t1 = vsg_now();
    vsg_status st = vsg_ad4_maps_gpu(rec, gpf, p, 0, g);
    double t2 = vsg_now();
    CHECK_STATUS(st, VSG_OK);
    if (st != VSG_OK) {
        for (int m = 0; m < nm; m++) vsg_grid_free(c[m]);
        return;
    }
    const size_t nodes = vsg_grid_nodes(c[0]);
    size_t ndiff = 0, nbad = 0;
    double worst = 0.0, maxabs = 0.0;
    for (int m = 0; m < nm; m++) {
        CHECK(vsg_grid_nodes(g[m]) == nodes);
        for (int k = 0; k < 3; k++) {
            CHECK(g[m]->n[k] == c[m]->n[k]);
            CHECK(fabs(g[m]->origin[k] - c[m]->origin[k]) == 0.0);
        }
        for (size_t i = 0; i < nodes; i++) {
            const double a = c[m]->data[i], b = g[m]->data[i], d = fabs(a - b);
            maxabs = fabs(a) > maxabs ? fabs(a) : maxabs;
            if (a != b) ndiff++;
            if (!(d <= 1.0001e-3 + 4.0 * FLT_EPSILON * fabs(a))) {
                if (nbad < 5)
                    printf("  %s map %d node %zu: cpu %.6f gpu %.6f\n", label, m, i, a, b);
                nbad++;
            }
            worst = d > worst ? d : worst;
        }
    }
    printf("%s: %d maps x %zu nodes, max |map| %.4g, %zu differing nodes (worst %.3g), cpu %.3f s, gpu %.3f s\n",
           label, nm, nodes, maxabs, ndiff, worst, t1 - t0, t2 - t1);
    CHECK(nbad == 0);
    CHECK((double)ndiff <= 1e-3 * (double)nodes * nm + 1.0);
    total_nodes += (double)nodes * nm, total_diff += (double)ndiff;
    for (int m = 0; m < nm; m++) vsg_grid_free(c[m]), vsg_grid_free(g[m]);
}

int main(void)
{
    if (vsg_gpu_count() == 0) SKIP("no usable GPU");
    const char *seed_env = getenv("VSG_TEST_SEED");
    unsigned long long seed = seed_env ? strtoull(seed_env, NULL, 10) : (unsigned long long)time(NULL);
    rng_state = seed;
    printf("seed %llu (VSG_TEST_SEED to repeat)\n", seed);
    vsg_ad4_params par;
    CHECK_STATUS(vsg_ad4_params_builtin(&par), VSG_OK);

    /* 1STP with its gpf, then a larger box and every probe kind */
    const char *dir = shared_data_dir();
    vsg_molecule *rec = NULL;
    vsg_gpf gpf;
    char path[1200];
    if (dir) {
        snprintf(path, sizeof path, "%s/autodock_gpu/1stp/1stp_protein.pdbqt", dir);
        if (vsg_molecule_read(path, NULL, &rec) != VSG_OK) rec = NULL;
        snprintf(path, sizeof path, "%s/autodock_gpu/1stp/1stp.gpf", dir);
        if (rec && vsg_gpf_read(path, &gpf) != VSG_OK) {
            vsg_molecule_free(rec);
            rec = NULL;
        }
    }
    if (rec) {
        compare("1stp gpf", rec, &gpf, &par);
        gpf.npts[0] = 60, gpf.npts[1] = 56, gpf.npts[2] = 64;
        set_types(&gpf, "A C N NA OA SA S HD H F Cl Br I P Fe Mg Zn");
        compare("1stp 61x57x65, 17 types", rec, &gpf, &par);
        gpf.spacing = 0.2, gpf.smooth = 0.0;
        compare("1stp spacing 0.2, smooth 0", rec, &gpf, &par);
        vsg_molecule_free(rec);
    } else {
        VSG_SKIP_PART("1STP maps", VSG_NO_SHARED);
    }

    /* random receptors */
    for (int rep = 0; rep < 3; rep++) {
        vsg_gpf r;
        memset(&r, 0, sizeof r);
        r.spacing = rep == 1 ? 0.5 : 0.375;
        r.have_npts = 1;
        r.npts[0] = 40 + 2 * rep, r.npts[1] = 36, r.npts[2] = 30 + 4 * rep;
        r.have_center = rep != 2;
        r.center_auto = rep == 2;
        r.center[0] = 1.5, r.center[1] = -2.0, r.center[2] = 0.25;
        r.smooth = rep == 1 ? 0.0 : 0.5;
        r.qasp = 0.01097;
        set_types(&r, rep == 0 ? "A C N NA OA SA S HD" : "HD OA NA C N SA Cl F Br I");
        vsg_molecule *m = random_receptor(rep == 1 ? 1500 : 500, r.center, 14.0, r.spacing);
        char label[64];
        snprintf(label, sizeof label, "random %zu atoms #%d", m->n, rep);
        compare(label, m, &r, &par);
        if (rep == 0) {
            vsg_grid *g[VSG_AG_MAX_MAPS + 1];
            CHECK_STATUS(vsg_ad4_maps_gpu(m, &r, &par, vsg_gpu_count() + 3, g), VSG_E_DEVICE);
            CHECK_STATUS(vsg_ad4_maps_gpu(NULL, &r, &par, 0, g), VSG_E_ARG);
            r.have_npts = 0;
            CHECK_STATUS(vsg_ad4_maps_gpu(m, &r, &par, 0, g), VSG_E_ARG);
        }
        vsg_molecule_free(m);
    }
    printf("all cases: %.0f map values, %.0f differing (%.2g)\n", total_nodes, total_diff,
           total_nodes > 0 ? total_diff / total_nodes : 0.0);
    CHECK_EXIT();
}
