/* test_gpu_dock.c — the GPU docking search (gpu/dock/) against its CPU twin (ligands/dock/):
 *  1. energy and gradient: the GPU's float evaluation of 300 conformations (near the crystal
 *     pose and anywhere in the box) against the CPU's double dock_eval, at both caps:
 *     |ΔE| ≤ 1e-4·(1 + |E|) and each gradient component within 1e-3·(1 + |∇|) — float round-off
 *     of the same function, not a different one;
 *  2. the search: biotin (1STP, 5 rotors) and, with ../shared, imatinib (1IEP, 6 rotors) docked
 *     from random starts come back within 2 Å of the crystal pose, as the CPU twin does with
 *     the same parameters (chain_keep 1, the GPU's); and over the first 24 DUD-E INHA actives
 *     (../shared) the two twins' best scores agree on average (|mean GPU − CPU| ≤ 0.25 kcal/mol)
 *     and for at least 80% of the molecules within 0.5 kcal/mol — one search, two devices (single
 *     chains diverge with float round-off, so a statement about one molecule would be luck);
 *  3. repeatability: the same batch twice gives the same poses bit for bit, and a record gives
 *     the same poses alone or behind another record (same seed), and whatever the chains' block
 *     shape (VSG_DOCK_WARPS: 1, 2 or 4 chains a block; a chain's scratch is its warp's slice);
 *  4. the reported score is vsg_vina_score_pose's on the returned pose, whichever device.
 * Skips (77) without a GPU. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/dock/dock_gpu.h"
#include "grids/base/vsgrid.h"
#include "ligands/dock/dock_internal.h"
#include "ligands/dock/dock_method.h"
#include "ligands/dock/dock_pack.h"
#include "ligands/dock/dock_rng.h"
#include "tests/check.h"
#include "tests/dock_kit.h"
#include "tests/gpu_twins_kit.h"

/* Vina maps of the ligand's XS types on its autobox (padding 8 Å as vina's autobox_add does not;
 * room for random starts), written under prefix and read back. */
static vsg_vina_target *make_maps(const char *rec_path, const vsg_ligand *lig, const char *prefix)
{
    vsg_vina_ligand *l = NULL;
    if (vsg_vina_ligand_new(lig, &l) != VSG_OK) return NULL;
    vsg_molecule *rec = NULL;
    vsg_vina_target *t = NULL;
    if (vsg_molecule_read(rec_path, NULL, &rec) == VSG_OK) {
        vsg_vina_box box;
        vsg_vina_ligand_autobox(l, &box);
        vsg_xs_type types[VSG_XS_COUNT];
        const int nt = ligand_xs_types(l, NULL, 0, types);
        t = vina_maps_target(rec, &box, types, nt, prefix, "receptor");
        vsg_molecule_free(rec);
    }
    vsg_vina_ligand_free(l);
    return t;
}

/* The GPU's energy and gradient against the CPU's on random conformations of one record. */
static void test_energy(const vsg_vina_target *t, const vsg_ligand *lig, const char *label)
{
    vsg_dock_params P;
    vsg_dock_params_default(&P);
    dock_params_resolve(&P, &P);
    dock_prep d;
    CHECK_STATUS(dock_prepare(t, lig, &P, &d), VSG_OK);
    const char use = 1;
    dock_gpu_batch b;
    const uint64_t seed0 = 0;
    CHECK_STATUS(dock_pack(&d, &use, 1, &seed0, &P, &b), VSG_OK);
    dock_gpu_maps *m = NULL;
    float *pair = NULL;
    {
        /* the batch's own cache builds the table; here the test builds what it needs directly */
        const size_t per = DOCK_GPU_TABLE_SAMPLES;
        pair = calloc(per * VSG_XS_COUNT * VSG_XS_COUNT, sizeof(float));
        for (int a = 0; a < VSG_XS_COUNT; a++)
            for (int bb = 0; bb < VSG_XS_COUNT; bb++)
                for (size_t k = 0; k < per; k++) {
                    vsg_vina_terms tm;
                    if (vsg_vina_pair_terms(VSG_VINA_SCORING_VINA, (vsg_xs_type)a, (vsg_xs_type)bb, sqrt((double)k / 32.0),
                                            &tm) == VSG_OK)
                        pair[((size_t)a * VSG_XS_COUNT + (size_t)bb) * per + k] = (float)tm.energy;
                }
        const double *maps[VSG_XS_COUNT];
        for (int x = 0; x < VSG_XS_COUNT; x++) maps[x] = t->map[x];
        CHECK_STATUS(dock_gpu_maps_upload(t->n, t->begin, t->end, t->factor, maps, pair, 0, &m), VSG_OK);
    }
    if (m) twin_energy(label, m, &b, &d.tree, &d.en, t->begin, t->end, 11, 1e-4, 1e-3, d.tree.nrot, HUGE_VAL);
    dock_gpu_maps_free(m);
    free(pair);
    dock_pack_release(&b);
    dock_prep_release(&d);
}

static double heavy_rmsd(const vsg_dock_result *r, const vsg_ligand *lig)
{
    /* the model's heavy atoms against the record's input coordinates (same order) */
    return r->npose ? r->pose[0].rmsd_input : 1e9;
    (void)lig;
}

static void test_search(const vsg_vina_target *t, const vsg_ligand *lig, const char *label, int chains, int steps)
{
    vsg_dock_params p;
    vsg_dock_params_default(&p);
    p.seed = 5, p.exhaustiveness = chains, p.steps = steps, p.chain_keep = 1, p.poses = 3;
    const vsg_ligand *one[1] = {lig};
    vsg_dock_result g1, g2, c1;
    vsg_status s1, s2, s3;
    char msg[1][256];
    double t0 = vsg_now();
    CHECK_STATUS(vsg_dock_batch(t, one, 1, NULL, &p, VSG_DEVICE_GPU, &g1, &s1, msg), VSG_OK);
    const double tg = vsg_now() - t0;
    CHECK_STATUS(s1, VSG_OK);
    CHECK_STATUS(vsg_dock_batch(t, one, 1, NULL, &p, VSG_DEVICE_GPU, &g2, &s2, msg), VSG_OK);
    t0 = vsg_now();
    CHECK_STATUS(vsg_dock_batch(t, one, 1, NULL, &p, VSG_DEVICE_CPU, &c1, &s3, msg), VSG_OK);
    const double tc = vsg_now() - t0;
    CHECK(g1.npose >= 1 && c1.npose >= 1 && g1.npose == g2.npose);
    if (g1.npose < 1 || c1.npose < 1) return;
    printf("%s search (%d chains x %d steps): GPU best %.3f kcal/mol at %.2f A, %ld evaluations, %.2f s; CPU twin %.3f "
           "at %.2f A, %ld evaluations, %.2f s\n",
           label, chains, steps, g1.pose[0].energy, heavy_rmsd(&g1, lig), g1.evaluations, tg, c1.pose[0].energy,
           heavy_rmsd(&c1, lig), c1.evaluations, tc);
    CHECK(heavy_rmsd(&g1, lig) < 2.0);
    CHECK(heavy_rmsd(&c1, lig) < 2.0);
    for (int i = 0; i < g1.npose; i++) {
        CHECK(!memcmp(g1.pose[i].xyz, g2.pose[i].xyz, sizeof(double) * 3 * (size_t)g1.natoms));
        CHECK(g1.pose[i].score.total == g2.pose[i].score.total);
    }
    /* the score is the pose's vsg_vina_score_pose */
    vsg_vina_ligand *l = NULL;
    if (vsg_vina_ligand_new(lig, &l) == VSG_OK) {
        vsg_vina_ligand shadow = *l;
        shadow.xyz = g1.pose[0].xyz;
        vsg_vina_score s;
        CHECK_STATUS(vsg_vina_score_pose(t, &shadow, &s), VSG_OK);
        CHECK(s.total == g1.pose[0].score.total);
        vsg_vina_ligand_free(l);
    }
    /* in blocks of 2 and of 4 chains (the default: 1), the same poses */
    for (int w = 2; w <= 4; w += 2) {
        char warps[4];
        snprintf(warps, sizeof warps, "%d", w);
        setenv("VSG_DOCK_WARPS", warps, 1);
        vsg_dock_result g4;
        vsg_status s5;
        CHECK_STATUS(vsg_dock_batch(t, one, 1, NULL, &p, VSG_DEVICE_GPU, &g4, &s5, msg), VSG_OK);
        unsetenv("VSG_DOCK_WARPS");
        CHECK(s5 == VSG_OK && g4.npose == g1.npose);
        if (s5 == VSG_OK && g4.npose == g1.npose)
            for (int i = 0; i < g1.npose; i++) CHECK(!memcmp(g1.pose[i].xyz, g4.pose[i].xyz, sizeof(double) * 3 * (size_t)g1.natoms));
        vsg_dock_result_release(&g4);
    }
    /* behind another record, with the same seed, the same poses */
    const vsg_ligand *two[2] = {lig, lig};
    vsg_dock_result g3[2];
    vsg_status s4[2];
    char msg2[2][256];
    p.seed = 4;
    CHECK_STATUS(vsg_dock_batch(t, two, 2, NULL, &p, VSG_DEVICE_GPU, g3, s4, msg2), VSG_OK);
    CHECK(s4[1] == VSG_OK && g3[1].npose == g1.npose);
    if (g3[1].npose == g1.npose)
        for (int i = 0; i < g1.npose; i++) CHECK(!memcmp(g1.pose[i].xyz, g3[1].pose[i].xyz, sizeof(double) * 3 * (size_t)g1.natoms));
    vsg_dock_result_release(&g3[0]);
    vsg_dock_result_release(&g3[1]);
    vsg_dock_result_release(&g1);
    vsg_dock_result_release(&g2);
    vsg_dock_result_release(&c1);
}

/* Several distinct minima a chain (chain_keep > 1, `--search vina`'s 20): 8 chains give 9 poses,
 * distinct by heavy-atom RMSD, in score order, the same in every run, as deep as the CPU twin's. */
static void test_keep(const vsg_vina_target *t, const vsg_ligand *lig, const char *label)
{
    vsg_dock_params p;
    vsg_dock_params_default(&p);
    p.seed = 3, p.exhaustiveness = 8, p.steps = 200, p.chain_keep = 20, p.poses = 9;
    const vsg_ligand *one[1] = {lig};
    vsg_dock_result g1, g2, c1, k1;
    vsg_status s[4];
    char msg[1][256];
    CHECK_STATUS(vsg_dock_batch(t, one, 1, NULL, &p, VSG_DEVICE_GPU, &g1, &s[0], msg), VSG_OK);
    CHECK_STATUS(vsg_dock_batch(t, one, 1, NULL, &p, VSG_DEVICE_GPU, &g2, &s[1], msg), VSG_OK);
    CHECK_STATUS(vsg_dock_batch(t, one, 1, NULL, &p, VSG_DEVICE_CPU, &c1, &s[2], msg), VSG_OK);
    p.chain_keep = 1;
    CHECK_STATUS(vsg_dock_batch(t, one, 1, NULL, &p, VSG_DEVICE_GPU, &k1, &s[3], msg), VSG_OK);
    for (int i = 0; i < 4; i++) CHECK_STATUS(s[i], VSG_OK);
    printf("%s, 8 chains x 200 steps: GPU keeping 20 a chain %d poses (best %.3f), keeping 1 %d poses (best %.3f); "
           "CPU twin keeping 20 %d poses (best %.3f)\n",
           label, g1.npose, g1.npose ? g1.pose[0].energy : 0, k1.npose, k1.npose ? k1.pose[0].energy : 0, c1.npose,
           c1.npose ? c1.pose[0].energy : 0);
    CHECK(g1.npose == 9 && c1.npose == 9);
    CHECK(k1.npose <= 8);
    CHECK(g1.npose == g2.npose);
    for (int i = 0; i < g1.npose && i < g2.npose; i++)
        CHECK(!memcmp(g1.pose[i].xyz, g2.pose[i].xyz, sizeof(double) * 3 * (size_t)g1.natoms));
    for (int i = 1; i < g1.npose; i++) CHECK(g1.pose[i].score.total >= g1.pose[i - 1].score.total);
    for (int i = 0; i < g1.npose; i++)
        for (int j = i + 1; j < g1.npose; j++) {
            double d2 = 0;
            int nh = 0;
            for (int a = 0; a < g1.natoms; a++) {
                if (!strcmp(lig->atoms[g1.record_atom[a]].element, "H")) continue;
                for (int d = 0; d < 3; d++) {
                    const double x = g1.pose[i].xyz[3 * a + d] - g1.pose[j].xyz[3 * a + d];
                    d2 += x * x;
                }
                nh++;
            }
            CHECK(nh > 0 && sqrt(d2 / nh) >= p.min_rmsd - 1e-9);
        }
    if (g1.npose && c1.npose) CHECK(fabs(g1.pose[0].energy - c1.pose[0].energy) < 0.5);
    vsg_dock_result_release(&g1);
    vsg_dock_result_release(&g2);
    vsg_dock_result_release(&c1);
    vsg_dock_result_release(&k1);
}

/* The twins over many molecules: the same search on both devices finds equally good poses. */
static void test_twins(const char *base)
{
    char rec[1024], lib[1024], crystal[1024], prefix[1024];
    snprintf(rec, sizeof rec, "%s/data/inha/receptor.pdbqt", VSG_SOURCE_DIR);
    snprintf(lib, sizeof lib, "%s/dude/inha/actives_final.mol2.gz", base);
    snprintf(crystal, sizeof crystal, "%s/dude/inha/crystal_ligand.mol2", base);
    snprintf(prefix, sizeof prefix, "%s/test_gpu_dock_inha", VSG_BINARY_DIR);
    vsg_ligand cl;
    vsg_ligand_init(&cl);
    if (read_first(crystal, &cl) != VSG_OK) {
        printf("INHA data absent: the twins' comparison skipped\n");
        vsg_ligand_release(&cl);
        return;
    }
    vsg_vina_target *t = NULL;
    {
        /* maps of every type a drug-like library has, around the crystal ligand */
        vsg_molecule *m = NULL;
        vsg_vina_ligand *l = NULL;
        CHECK_STATUS(vsg_molecule_read(rec, NULL, &m), VSG_OK);
        CHECK_STATUS(vsg_vina_ligand_new(&cl, &l), VSG_OK);
        if (m && l) {
            vsg_vina_box box;
            vsg_vina_ligand_autobox(l, &box);
            vsg_xs_type types[VSG_XS_COUNT];
            for (int k = 0; k < VSG_XS_COUNT; k++) types[k] = (vsg_xs_type)k;
            vsg_vina_params p;
            vsg_vina_params_default(&p);
            vsg_grid *maps[VSG_XS_COUNT] = {0};
            if (vsg_vina_maps_cpu(m, &box, &p, types, VSG_XS_COUNT, maps) == VSG_OK) {
                int ok = 1;
                for (int k = 0; k < VSG_XS_COUNT; k++) {
                    char path[1200];
                    snprintf(path, sizeof path, "%s.%s.map", prefix, vsg_xs_type_name(types[k]));
                    ok &= vsg_vina_map_write(maps[k], path, "receptor") == VSG_OK;
                    vsg_grid_free(maps[k]);
                }
                if (ok) vsg_vina_target_maps(prefix, VSG_VINA_SCORING_VINA, &t);
            }
        }
        vsg_vina_ligand_free(l);
        vsg_molecule_free(m);
    }
    CHECK(t != NULL);
    enum { N = 24 };
    vsg_ligand ligs[N];
    const vsg_ligand *lp[N];
    int n = 0;
    const char *paths[1] = {lib};
    vsg_ligand_reader_options o = {.format = VSG_LIG_AUTO, .keep_text = 1, .max_atoms = 0};
    vsg_ligand_reader *r = NULL;
    if (t && vsg_ligand_reader_open(paths, 1, &o, &r) == VSG_OK) {
        for (; n < N; n++) {
            vsg_ligand_init(&ligs[n]);
            if (vsg_ligand_reader_next(r, &ligs[n]) != 1) {
                vsg_ligand_release(&ligs[n]);
                break;
            }
            lp[n] = &ligs[n];
        }
        vsg_ligand_reader_close(r);
    }
    if (t && n == N) {
        vsg_dock_params p;
        vsg_dock_params_default(&p);
        vsg_dock_params_preset(&p, "fast");
        p.poses = 1;
        vsg_dock_result g[N], c[N];
        vsg_status sg[N], sc[N];
        static char mg[N][256], mc[N][256];
        CHECK_STATUS(vsg_dock_batch(t, lp, N, NULL, &p, VSG_DEVICE_GPU, g, sg, mg), VSG_OK);
        CHECK_STATUS(vsg_dock_batch(t, lp, N, NULL, &p, VSG_DEVICE_CPU, c, sc, mc), VSG_OK);
        double sum = 0;
        int both = 0, close = 0;
        for (int i = 0; i < N; i++) {
            if (sg[i] != VSG_OK || sc[i] != VSG_OK || !g[i].npose || !c[i].npose) continue;
            const double d = g[i].pose[0].score.total - c[i].pose[0].score.total;
            sum += d, both++, close += fabs(d) <= 0.5;
        }
        printf("twins on %d INHA actives (fast search): mean GPU - CPU %+.3f kcal/mol, %d within 0.5\n", both,
               both ? sum / both : 0, close);
        CHECK(both == N);
        CHECK(both && fabs(sum / both) <= 0.25);
        CHECK(close >= (int)(0.8 * N));
        for (int i = 0; i < N; i++) vsg_dock_result_release(&g[i]), vsg_dock_result_release(&c[i]);
        /* focus chains: the exploring chains are the same launch, and a focus chain's minimum only
         * replaces a higher one, so no record's best gets worse; the twins still agree */
        vsg_dock_result f[N], cf[N];
        vsg_status sf[N], scf[N];
        static char mf[N][256], mcf[N][256];
        p.focus_chains = 8, p.focus_steps = 80;
        CHECK_STATUS(vsg_dock_batch(t, lp, N, NULL, &p, VSG_DEVICE_GPU, f, sf, mf), VSG_OK);
        p.focus_chains = 0;
        CHECK_STATUS(vsg_dock_batch(t, lp, N, NULL, &p, VSG_DEVICE_GPU, g, sg, mg), VSG_OK);
        p.focus_chains = 8;
        CHECK_STATUS(vsg_dock_batch(t, lp, N, NULL, &p, VSG_DEVICE_CPU, cf, scf, mcf), VSG_OK);
        int worse = 0, better = 0;
        sum = 0, both = 0;
        for (int i = 0; i < N; i++) {
            if (sf[i] != VSG_OK || sg[i] != VSG_OK || scf[i] != VSG_OK || !f[i].npose || !g[i].npose || !cf[i].npose) continue;
            worse += f[i].pose[0].energy > g[i].pose[0].energy + 1e-3;
            better += f[i].pose[0].energy < g[i].pose[0].energy - 1e-3;
            sum += f[i].pose[0].score.total - cf[i].pose[0].score.total, both++;
        }
        printf("focus chains (8 x 80 steps) on the GPU: %d of %d records better, %d worse; mean GPU - CPU %+.3f\n", better,
               both, worse, both ? sum / both : 0);
        CHECK(both == N && worse == 0 && better > 0);
        CHECK(both && fabs(sum / both) <= 0.25);
        for (int i = 0; i < N; i++) vsg_dock_result_release(&cf[i]);
        /* small focus moves (focus_amplitude 0.1, the presets'): they reach the GPU's focus chains
         * (other minima than with the exploring chains' moves), never make a record worse than
         * no focus chains, and the twins agree */
        vsg_dock_result f01[N];
        vsg_status sf01[N];
        static char mf01[N][256];
        p.focus_amplitude = 0.1;
        CHECK_STATUS(vsg_dock_batch(t, lp, N, NULL, &p, VSG_DEVICE_GPU, f01, sf01, mf01), VSG_OK);
        CHECK_STATUS(vsg_dock_batch(t, lp, N, NULL, &p, VSG_DEVICE_CPU, cf, scf, mcf), VSG_OK);
        p.focus_amplitude = 0;
        int differ = 0;
        worse = 0, sum = 0, both = 0;
        for (int i = 0; i < N; i++) {
            if (sf01[i] != VSG_OK || sg[i] != VSG_OK || scf[i] != VSG_OK || !f01[i].npose || !g[i].npose || !cf[i].npose)
                continue;
            worse += f01[i].pose[0].energy > g[i].pose[0].energy + 1e-3;
            differ += fabs(f01[i].pose[0].energy - f[i].pose[0].energy) > 1e-4;
            sum += f01[i].pose[0].score.total - cf[i].pose[0].score.total, both++;
        }
        printf("focus moves x 0.1 on the GPU: %d of %d records differ from full moves, %d worse than none; mean GPU - CPU "
               "%+.3f\n", differ, both, worse, both ? sum / both : 0);
        CHECK(both == N && worse == 0 && differ > 0);
        CHECK(both && fabs(sum / both) <= 0.25);
        for (int i = 0; i < N; i++)
            vsg_dock_result_release(&g[i]), vsg_dock_result_release(&f[i]), vsg_dock_result_release(&cf[i]),
                vsg_dock_result_release(&f01[i]);
    }
    for (int i = 0; i < n; i++) vsg_ligand_release(&ligs[i]);
    vsg_vina_target_free(t);
    vsg_ligand_release(&cl);
}

int main(void)
{
    if (vsg_gpu_count() < 1) SKIP("no GPU");
    { /* AUTO: a record of 16 chains or fewer on the CPU (a core each), more on the GPU; the
       * thread count never changes it (the same seed, the same poses) */
        vsg_dock_params a;
        vsg_dock_params_default(&a);
        CHECK_STATUS(vsg_dock_params_preset(&a, "vina"), VSG_OK);
        CHECK(vsg_dock_auto_device(&a) == VSG_DEVICE_CPU);
        CHECK_STATUS(vsg_dock_params_preset(&a, "balanced"), VSG_OK);
        CHECK(vsg_dock_auto_device(&a) == VSG_DEVICE_GPU);
        a.exhaustiveness = 8, a.focus_chains = 8;
        for (a.threads = 1; a.threads <= 64; a.threads *= 2) CHECK(vsg_dock_auto_device(&a) == VSG_DEVICE_CPU);
        a.focus_chains = 9;
        CHECK(vsg_dock_auto_device(&a) == VSG_DEVICE_GPU);
    }
    char rec[1024], ligp[1024], prefix[1024];
    snprintf(rec, sizeof rec, "%s/data/1stp_receptor.pdbqt", VSG_SOURCE_DIR);
    snprintf(ligp, sizeof ligp, "%s/data/biotin.pdbqt", VSG_SOURCE_DIR);
    snprintf(prefix, sizeof prefix, "%s/test_gpu_dock_1stp", VSG_BINARY_DIR);
    vsg_ligand lig;
    vsg_ligand_init(&lig);
    CHECK_STATUS(read_first(ligp, &lig), VSG_OK);
    vsg_vina_target *t = make_maps(rec, &lig, prefix);
    CHECK(t != NULL);
    if (t) {
        test_energy(t, &lig, "biotin");
        test_search(t, &lig, "biotin", 32, 40);
        test_keep(t, &lig, "biotin");
    }
    vsg_vina_target_free(t);
    vsg_ligand_release(&lig);
    /* imatinib in Abl (../shared) */
    const char *shared = getenv("VSG_SHARED_DATA");
    char base[800];
    snprintf(base, sizeof base, "%s", shared ? shared : VSG_SOURCE_DIR "/../shared/data");
    snprintf(rec, sizeof rec, "%s/autodock_vina/1iep/1iep_receptor.pdbqt", base);
    snprintf(ligp, sizeof ligp, "%s/autodock_vina/1iep/1iep_ligand.pdbqt", base);
    FILE *f = fopen(rec, "r");
    if (!f) {
        VSG_SKIP_PART("the 1IEP case", VSG_NO_SHARED);
        CHECK_EXIT();
    }
    fclose(f);
    vsg_ligand_init(&lig);
    CHECK_STATUS(read_first(ligp, &lig), VSG_OK);
    snprintf(prefix, sizeof prefix, "%s/test_gpu_dock_1iep", VSG_BINARY_DIR);
    t = make_maps(rec, &lig, prefix);
    CHECK(t != NULL);
    if (t) {
        test_energy(t, &lig, "imatinib");
        test_search(t, &lig, "imatinib", 64, 60);
    }
    vsg_vina_target_free(t);
    vsg_ligand_release(&lig);
    test_twins(base);
    CHECK_EXIT();
}
