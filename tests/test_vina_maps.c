/* test_vina_maps.c — Vina / Vinardo maps (vsgrid.h, "Vina and Vinardo maps"): XS typing of a
 * hand-made receptor, each term at known distances (hand-computed), one map node, the box's
 * even-voxel geometry, the .map writer, and bad input. The comparison with vina itself is
 * tests/peer_vina_maps.sh. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "grids/receptor/molecule.h"

static void add(vsg_molecule *m, const char *ad, double x, double y, double z)
{
    vsg_atom a;
    memset(&a, 0, sizeof a);
    a.x = x, a.y = y, a.z = z;
    snprintf(a.ad_type, sizeof a.ad_type, "%s", ad);
    snprintf(a.name, sizeof a.name, "%s%zu", ad, m->n + 1);
    a.line = (int)m->n + 1;
    vsg_molecule_push(m, &a);
}

static void test_typing(void)
{
    vsg_molecule *m = vsg_molecule_new("hand", "pdbqt");
    add(m, "C", 0, 0, 0);          /* 0: bonded to N → C_P */
    add(m, "N", 1.47, 0, 0);       /* 1: bonded to HD → N_D */
    add(m, "HD", 1.47, 1.01, 0);   /* 2: no type */
    add(m, "C", -1.53, 0, 0);      /* 3: bonded to carbon only → C_H */
    add(m, "OA", 20, 0, 0);        /* 4: acceptor → O_A */
    add(m, "C", 21.43, 0, 0);      /* 5: bonded to OA → C_P */
    add(m, "OA", 20, 5, 0);        /* 6: acceptor with HD → O_DA */
    add(m, "HD", 20.97, 5, 0);     /* 7 */
    add(m, "NA", 20, 10, 0);       /* 8: → N_A */
    add(m, "N", 20, 15, 0);        /* 9: → N_P */
    add(m, "O", 25, 15, 0);        /* 10: → O_P */
    add(m, "Zn", 30, 0, 0);        /* 11: metal → Met_D */
    add(m, "A", 31.9, 0, 0);       /* 12: aromatic carbon bonded to Zn (1.9 < 1.1·(0.77+1.31)) → C_P */
    add(m, "SA", 40, 0, 0);        /* 13: → S_P */
    add(m, "Cl", 40, 5, 0);        /* 14: → Cl_H */
    /* the third-atom rule: C 15 and N 17 are 1.6 Å apart (< 1.1·(0.77+0.75)), but C 16 is closer
     * to both, so 15–17 is no bond: 15 stays C_H, 16 (bonded to N) is C_P */
    add(m, "C", 50, 0, 0);         /* 15 */
    add(m, "C", 50.8, 0.1, 0);     /* 16 */
    add(m, "N", 51.6, 0, 0);       /* 17: no HD → N_P */
    add(m, "Cu", 60, 0, 0);        /* 18: a metal Vina knows without an AutoDock type → Met_D */
    add(m, "HD", 60, 1.2, 0);      /* 19 */
    add(m, "O", 70, 0, 0);         /* 20: with HD → O_D */
    add(m, "HD", 70.96, 0, 0);     /* 21 */
    add(m, "NA", 80, 0, 0);        /* 22: with HD → N_DA */
    add(m, "HD", 81.01, 0, 0);     /* 23 */
    const vsg_xs_type want[] = {VSG_XS_C_P, VSG_XS_N_D, VSG_XS_NONE, VSG_XS_C_H, VSG_XS_O_A, VSG_XS_C_P,
                                VSG_XS_O_DA, VSG_XS_NONE, VSG_XS_N_A, VSG_XS_N_P, VSG_XS_O_P, VSG_XS_Met_D,
                                VSG_XS_C_P, VSG_XS_S_P, VSG_XS_Cl_H, VSG_XS_C_H, VSG_XS_C_P, VSG_XS_N_P,
                                VSG_XS_Met_D, VSG_XS_NONE, VSG_XS_O_D, VSG_XS_NONE, VSG_XS_N_DA, VSG_XS_NONE};
    vsg_xs_type got[24];
    CHECK(m->n == 24);
    CHECK(vsg_xs_assign(m, got) == VSG_OK);
    for (size_t i = 0; i < m->n; i++)
        if (got[i] != want[i]) {
            fprintf(stderr, "atom %zu (%s): XS type %s, want %s\n", i, m->atoms[i].ad_type,
                    got[i] == VSG_XS_NONE ? "none" : vsg_xs_type_name(got[i]),
                    want[i] == VSG_XS_NONE ? "none" : vsg_xs_type_name(want[i]));
            check_failures++;
        }
    vsg_molecule_free(m);
}

static void test_names(void)
{
    vsg_xs_type t[2];
    int n = -1;
    CHECK(strcmp(vsg_xs_type_name(VSG_XS_N_DA), "N_DA") == 0);
    CHECK(strcmp(vsg_xs_type_name(VSG_XS_Met_D), "Met_D") == 0);
    CHECK(vsg_xs_type_name(VSG_XS_COUNT) == NULL && vsg_xs_type_name(-1) == NULL);
    CHECK(vsg_xs_types_from_name("O_DA", t, &n) == VSG_OK && n == 1 && t[0] == VSG_XS_O_DA);
    CHECK(vsg_xs_types_from_name("OA", t, &n) == VSG_OK && n == 2 && t[0] == VSG_XS_O_A && t[1] == VSG_XS_O_DA);
    CHECK(vsg_xs_types_from_name("A", t, &n) == VSG_OK && n == 2 && t[0] == VSG_XS_C_H && t[1] == VSG_XS_C_P);
    CHECK(vsg_xs_types_from_name("Zn", t, &n) == VSG_OK && n == 1 && t[0] == VSG_XS_Met_D);
    CHECK(vsg_xs_types_from_name("HD", t, &n) == VSG_OK && n == 0);
    CHECK(vsg_xs_types_from_name("Xx", t, &n) == VSG_E_ARG && strstr(vsg_last_error(), "'Xx'"));
    CHECK(vsg_xs_types_from_name(NULL, t, &n) == VSG_E_ARG);
}

static void test_terms(void)
{
    vsg_vina_terms t;
    /* C_H–C_H at 4.0 Å: d = 4.0 − 3.8 = 0.2; gauss1 e^−0.16, gauss2 e^−1.96, hydrophobic 1 */
    CHECK(vsg_vina_pair_terms(VSG_VINA_SCORING_VINA, VSG_XS_C_H, VSG_XS_C_H, 4.0, &t) == VSG_OK);
    CHECK_NEAR(t.optimal_distance, 0.2, 1e-12);
    CHECK_NEAR(t.gauss1, 0.8521437889662111, 1e-12);
    CHECK_NEAR(t.gauss2, 0.14085842092104503, 1e-12);
    CHECK_NEAR(t.repulsion, 0.0, 0);
    CHECK_NEAR(t.hydrophobic, 1.0, 0);
    CHECK_NEAR(t.hbond, 0.0, 0);
    CHECK_NEAR(t.energy, -0.06611368988589773, 1e-12);
    /* 3.0 Å: d = −0.8, repulsion 0.64 */
    CHECK(vsg_vina_pair_terms(VSG_VINA_SCORING_VINA, VSG_XS_C_H, VSG_XS_C_H, 3.0, &t) == VSG_OK);
    CHECK_NEAR(t.repulsion, 0.64, 1e-12);
    CHECK_NEAR(t.gauss1, 0.07730474044329984, 1e-12);
    CHECK_NEAR(t.gauss2, 0.027051846866350416, 1e-12);
    CHECK_NEAR(t.energy, 0.49979789531732466, 1e-12);
    /* 4.8 Å: d = 1.0, halfway down the hydrophobic ramp (0.5 → 1.5) */
    CHECK(vsg_vina_pair_terms(VSG_VINA_SCORING_VINA, VSG_XS_C_H, VSG_XS_C_H, 4.8, &t) == VSG_OK);
    CHECK_NEAR(t.hydrophobic, 0.5, 1e-12);
    CHECK_NEAR(t.energy, -0.02008293851470223, 1e-12);
    /* donor N_D – acceptor O_A at 3.15 Å: d = 3.15 − 3.5 = −0.35, halfway along the hbond ramp */
    CHECK(vsg_vina_pair_terms(VSG_VINA_SCORING_VINA, VSG_XS_N_D, VSG_XS_O_A, 3.15, &t) == VSG_OK);
    CHECK_NEAR(t.hbond, 0.5, 1e-12);
    CHECK_NEAR(t.hydrophobic, 0.0, 0);
    CHECK_NEAR(t.repulsion, 0.1225, 1e-12);
    CHECK_NEAR(t.energy, -0.2128978999687026, 1e-12);
    /* acceptor–acceptor: no hbond; C_P is not hydrophobic */
    CHECK(vsg_vina_pair_terms(VSG_VINA_SCORING_VINA, VSG_XS_O_A, VSG_XS_N_A, 3.0, &t) == VSG_OK && t.hbond == 0.0);
    CHECK(vsg_vina_pair_terms(VSG_VINA_SCORING_VINA, VSG_XS_C_P, VSG_XS_C_H, 3.8, &t) == VSG_OK && t.hydrophobic == 0.0);
    /* the 8 Å cutoff */
    CHECK(vsg_vina_pair_terms(VSG_VINA_SCORING_VINA, VSG_XS_C_H, VSG_XS_C_H, 8.0, &t) == VSG_OK);
    CHECK(t.gauss1 == 0.0 && t.gauss2 == 0.0 && t.energy == 0.0);
    CHECK(vsg_vina_pair_terms(VSG_VINA_SCORING_VINA, VSG_XS_C_H, VSG_XS_C_H, 7.99, &t) == VSG_OK && t.gauss2 > 0.0);
    /* Vinardo: C_H radius 2.0, so at 4.0 Å d = 0: gauss 1, hydrophobic 1 → −0.045 − 0.035 */
    CHECK(vsg_vina_pair_terms(VSG_VINA_SCORING_VINARDO, VSG_XS_C_H, VSG_XS_C_H, 4.0, &t) == VSG_OK);
    CHECK_NEAR(t.gauss1, 1.0, 1e-15);
    CHECK_NEAR(t.gauss2, 0.0, 0);
    CHECK_NEAR(t.energy, -0.08, 1e-15);
    /* hydrophobic ramp 0 → 2.5: at d = 1.25 (r = 5.25) it is 0.5; gauss e^−(1.25/0.8)² */
    CHECK(vsg_vina_pair_terms(VSG_VINA_SCORING_VINARDO, VSG_XS_C_H, VSG_XS_C_H, 5.25, &t) == VSG_OK);
    CHECK_NEAR(t.hydrophobic, 0.5, 1e-12);
    CHECK_NEAR(t.gauss1, 0.08703836765622351, 1e-12);
    /* N_D–O_A: radii 1.7 + 1.6; at 3.0 Å d = −0.3, hbond (ramp −0.6 → 0) 0.5, repulsion 0.09 */
    CHECK(vsg_vina_pair_terms(VSG_VINA_SCORING_VINARDO, VSG_XS_N_D, VSG_XS_O_A, 3.0, &t) == VSG_OK);
    CHECK_NEAR(t.hbond, 0.5, 1e-12);
    CHECK_NEAR(t.repulsion, 0.09, 1e-12);
    CHECK_NEAR(t.energy, -0.045 * exp(-(0.3 / 0.8) * (0.3 / 0.8)) + 0.8 * 0.09 - 0.6 * 0.5, 1e-12);
    /* bad arguments */
    CHECK(vsg_vina_pair_terms(VSG_VINA_SCORING_VINA, VSG_XS_NONE, VSG_XS_C_H, 4.0, &t) == VSG_E_ARG);
    CHECK(vsg_vina_pair_terms(VSG_VINA_SCORING_VINA, VSG_XS_C_H, VSG_XS_C_H, -1.0, &t) == VSG_E_ARG);
    CHECK(vsg_vina_pair_terms((vsg_vina_scoring)7, VSG_XS_C_H, VSG_XS_C_H, 4.0, &t) == VSG_E_ARG);
}

static void test_map(void)
{
    /* one C_H receptor atom (a carbon alone) at the origin; box ±4 Å at 0.5 Å → 17 nodes a side */
    vsg_molecule *m = vsg_molecule_new("one", "pdbqt");
    add(m, "C", 0, 0, 0);
    vsg_vina_box box = {{0, 0, 0}, {8, 8, 8}, 0.5};
    vsg_vina_params p;
    vsg_vina_params_default(&p);
    CHECK(p.scoring == VSG_VINA_SCORING_VINA && p.tabulated == 1);
    vsg_xs_type types[2] = {VSG_XS_C_H, VSG_XS_O_A};
    vsg_grid *maps[2] = {NULL, NULL};
    CHECK(vsg_vina_maps_cpu(m, &box, &p, types, 2, maps) == VSG_OK);
    if (maps[0] && maps[1]) {
        vsg_grid_shape s;
        vsg_grid_shape_of(maps[0], &s);
        CHECK(s.n[0] == 17 && s.n[1] == 17 && s.n[2] == 17);
        CHECK_NEAR(s.origin[0], -4.0, 1e-12);
        CHECK_NEAR(s.spacing[0], 0.5, 1e-12);
        const float *v = vsg_grid_values(maps[0]);
        /* node (16, 8, 8) = (4, 0, 0): r² = 16 → Vina's table bin 512, the mean of the energy at
         * r = 4 and r = √(513/32) (hand-computed: −0.06602035660315188); analytic −0.066113690 */
        size_t at4 = 16 + 17 * (8 + 17 * 8);
        CHECK_NEAR(v[at4], -0.06602035660315188, 1e-7);
        /* the origin node sits on the atom: r = 0, d = −3.8: repulsion 14.44 dominates */
        size_t at0 = 8 + 17 * (8 + 17 * 8);
        CHECK(v[at0] > 10.0f);
        /* O_A probe: no hydrophobic term, so at 4 Å (d = 4 − 3.6 = 0.4) only the gaussians */
        vsg_vina_terms t;
        vsg_vina_pair_terms(VSG_VINA_SCORING_VINA, VSG_XS_C_H, VSG_XS_O_A, 4.0, &t);
        CHECK_NEAR(vsg_grid_values(maps[1])[at4], t.energy, 2e-3);
        char buf[32];
        CHECK(vsg_grid_meta_get(maps[1], "xs_type", buf, sizeof buf) && strcmp(buf, "O_A") == 0);
        vsg_grid_free(maps[0]), vsg_grid_free(maps[1]);
    }
    /* analytic: exactly the pair energy at 4 Å */
    p.tabulated = 0;
    CHECK(vsg_vina_maps_cpu(m, &box, &p, types, 1, maps) == VSG_OK);
    if (maps[0]) {
        CHECK_NEAR(vsg_grid_values(maps[0])[16 + 17 * (8 + 17 * 8)], -0.06611368988589773, 1e-7);
        /* the writer: vina's header, "%.4g" values, x fastest */
        char path[512];
        snprintf(path, sizeof path, "%s/test_vina_maps.C_H.map", VSG_BINARY_DIR);
        CHECK(vsg_vina_map_write(maps[0], path, NULL) == VSG_OK);
        FILE *f = fopen(path, "r");
        char line[128];
        int ln = 0;
        while (f && fgets(line, sizeof line, f)) {
            ln++;
            if (ln == 3) CHECK(strcmp(line, "MACROMOLECULE NULL\n") == 0);
            if (ln == 4) CHECK(strcmp(line, "SPACING 0.5\n") == 0);
            if (ln == 5) CHECK(strcmp(line, "NELEMENTS 16 16 16\n") == 0);
            if (ln == 6) CHECK(strcmp(line, "CENTER 0 0 0\n") == 0);
            if (ln == 6 + 1 + 16 + 17 * (8 + 17 * 8)) CHECK(strcmp(line, "-0.06611\n") == 0);
        }
        CHECK(ln == 6 + 17 * 17 * 17);
        if (f) fclose(f);
        remove(path);
        vsg_grid_free(maps[0]);
    }
    /* Vina's even voxel counts: 15.1/0.4 → 38, 20.3/0.4 → 51 → 52, 14.9/0.4 → 38 */
    vsg_vina_box b2 = {{1, 2, 3}, {15.1, 20.3, 14.9}, 0.4};
    p.tabulated = 1;
    CHECK(vsg_vina_maps_cpu(m, &b2, &p, types, 1, maps) == VSG_OK);
    if (maps[0]) {
        vsg_grid_shape s;
        vsg_grid_shape_of(maps[0], &s);
        CHECK(s.n[0] == 39 && s.n[1] == 53 && s.n[2] == 39);
        CHECK_NEAR(s.origin[1], 2 - 0.4 * 52 / 2, 1e-12);
        vsg_grid_free(maps[0]);
    }
    /* bad input: an empty box, a bad spacing, no types, a type out of range */
    vsg_vina_box empty = {{0, 0, 0}, {8, 0, 8}, 0.375};
    maps[0] = NULL;
    CHECK(vsg_vina_maps_cpu(m, &empty, &p, types, 1, maps) == VSG_E_ARG && maps[0] == NULL);
    CHECK(strstr(vsg_last_error(), "empty box") != NULL);
    vsg_vina_box nospacing = {{0, 0, 0}, {8, 8, 8}, 0.0};
    CHECK(vsg_vina_maps_cpu(m, &nospacing, &p, types, 1, maps) == VSG_E_ARG);
    CHECK(vsg_vina_maps_cpu(m, &box, &p, types, 0, maps) == VSG_E_ARG);
    vsg_xs_type badt = (vsg_xs_type)VSG_XS_COUNT;
    CHECK(vsg_vina_maps_cpu(m, &box, &p, &badt, 1, maps) == VSG_E_ARG);
    CHECK(vsg_vina_maps_cpu(NULL, &box, &p, types, 1, maps) == VSG_E_ARG);
    vsg_molecule_free(m);

    /* an AutoDock type with no XS equivalent, and an atom without one (a PQR receptor) */
    vsg_molecule *bad = vsg_molecule_new("bad.pdbqt", "pdbqt");
    add(bad, "C", 0, 0, 0);
    add(bad, "Xx", 2, 0, 0);
    vsg_xs_type got[2];
    CHECK(vsg_xs_assign(bad, got) == VSG_E_DATA && strstr(vsg_last_error(), "'Xx'") != NULL);
    CHECK(vsg_vina_maps_cpu(bad, &box, &p, types, 1, maps) == VSG_E_DATA && maps[0] == NULL);
    vsg_molecule_free(bad);
    bad = vsg_molecule_new("bad.pqr", "pqr");
    add(bad, "", 0, 0, 0);
    CHECK(vsg_xs_assign(bad, got) == VSG_E_DATA && strstr(vsg_last_error(), "no AutoDock type") != NULL);
    vsg_molecule_free(bad);

    /* the writer refuses an even node count (an odd voxel count) */
    int n[3] = {4, 5, 5};
    double o[3] = {0, 0, 0}, h[3] = {1, 1, 1};
    vsg_grid *g = vsg_grid_new(n, o, h, "kcal/mol");
    CHECK(g && vsg_vina_map_write(g, "/nonexistent/x.map", NULL) == VSG_E_ARG);
    vsg_grid_free(g);
    n[0] = 5;
    g = vsg_grid_new(n, o, h, "kcal/mol");
    if (g) memset((void *)vsg_grid_values(g), 0, vsg_grid_nodes(g) * sizeof(float));
    CHECK(g && vsg_vina_map_write(g, "/nonexistent/x.map", NULL) == VSG_E_IO);
    vsg_grid_free(g);
}

int main(void)
{
    test_names();
    test_typing();
    test_terms();
    test_map();
    if (check_failures) {
        fprintf(stderr, "test_vina_maps: %d failure(s)\n", check_failures);
        return 1;
    }
    printf("test_vina_maps: ok\n");
    return 0;
}
