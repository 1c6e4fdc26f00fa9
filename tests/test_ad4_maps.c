/* test_ad4_maps.c — the AutoDock4 affinity and desolvation maps (grids/maps/ad4_*): parameters
 * (built-in AD4.1_bound.dat, parameter files), pair energies and whole maps computed by hand for
 * one or two receptor atoms (vdW, directional H-bond, desolvation, smoothing, clamp), and the gpf
 * reader on good and malformed files. The comparison with autogrid4 itself is
 * tests/peer_autogrid_maps.sh. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grids/base/vsgrid.h"
#include "check.h"

static int write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f) return 0;
    int ok = fputs(text, f) >= 0;
    return fclose(f) == 0 && ok;
}

static const double cvdw = 0.1662, chb = 0.1209, cdes = 0.1322, qasp = 0.01097;

/* AutoGrid's desolvation factor at bin r·100 */
static double sol_at(double r)
{
    double rb = (int)(r * 100.0) * 0.01;
    return cdes * exp(-rb * rb / (2.0 * 3.6 * 3.6));
}

/* 12-n potential with well depth eps at rij, at the bin of r */
static double lj(double eps, double rij, int n, double r)
{
    double rb = (int)(r * 100.0) * 0.01, x = rij / rb;
    return eps / (12.0 - n) * (n * pow(x, 12) - 12.0 * pow(x, n));
}

/* what the maps hold: the value rounded to autogrid4's 3 decimals */
static double r3(double v) { return floor(v * 1000.0 + 0.5) / 1000.0; }

static void test_params(void)
{
    vsg_ad4_params p;
    CHECK_STATUS(vsg_ad4_params_builtin(&p), VSG_OK);
    CHECK_NEAR(p.coeff_vdw, 0.1662, 0);
    CHECK_NEAR(p.coeff_desolv, 0.1322, 0);
    const vsg_ad4_atom_par *oa = vsg_ad4_params_find(&p, "OA");
    CHECK(oa && oa->hbond == 5);
    if (oa) {
        CHECK_NEAR(oa->rii, 3.2, 0);
        CHECK_NEAR(oa->vol, 17.1573, 0);
        CHECK_NEAR(oa->rij_hb, 1.9, 0);
    }
    CHECK(vsg_ad4_params_find(&p, "Si") == NULL);
    CHECK(vsg_ad4_params_find(&p, "oa") == NULL);

    const char *par = scratch_path("ad4_par.dat");
    CHECK(write_file(par, "# comment\nFE_coeff_vdW    0.2000\n\n"
                          "atom_par Si     4.10  0.200  35.8235  -0.00143  0.0  0.0  0  -1  -1  6\n"
                          "atom_par OA     3.00  0.250  17.0000  -0.00200  1.8  4.0  5  -1  -1  2 # changed\n"));
    CHECK_STATUS(vsg_ad4_params_read(par, &p), VSG_OK);
    CHECK_NEAR(p.coeff_vdw, 0.2, 0);
    CHECK_NEAR(p.coeff_hbond, 0.1209, 0);
    const vsg_ad4_atom_par *si = vsg_ad4_params_find(&p, "Si");
    CHECK(si && si->hbond == 0);
    if (si) CHECK_NEAR(si->rii, 4.10, 0);
    oa = vsg_ad4_params_find(&p, "OA");
    if (oa) {
        CHECK_NEAR(oa->rii, 3.00, 0);
        CHECK_NEAR(oa->epsij_hb, 4.0, 0);
    }

    struct { const char *text, *where; vsg_status st; } bad[] = {
        {"atom_par Xx 1.0 0.1 2.0 0.0 0.0 0.0\n", "ad4_par.dat:1", VSG_E_FORMAT},           /* too few */
        {"atom_par Xx 1.0 0.1 2.0 zero 0.0 0.0 0 -1 -1 0\n", "ad4_par.dat:1", VSG_E_FORMAT}, /* bad number */
        {"\natom_par Xx 1.0 0.1 2.0 0.0 0.0 0.0 7 -1 -1 0\n", "ad4_par.dat:2", VSG_E_FORMAT}, /* hbond 7 */
        {"atom_par Xxxx 1.0 0.1 2.0 0.0 0.0 0.0 0 -1 -1 0\n", "ad4_par.dat:1", VSG_E_FORMAT}, /* long type */
        {"FE_coeff_hbond abc\n", "ad4_par.dat:1", VSG_E_FORMAT},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK(write_file(par, bad[i].text));
        CHECK_STATUS(vsg_ad4_params_read(par, &p), bad[i].st);
        CHECK_CONTAINS(vsg_last_error(), bad[i].where);
    }
    CHECK_STATUS(vsg_ad4_params_read(scratch_path("ad4_none.dat"), &p), VSG_E_IO);
}

static void test_pair_energy(void)
{
    vsg_ad4_params p;
    vsg_ad4_params_builtin(&p);
    double e;
    /* C–C: 12-6, Rij 4 Å, eps = sqrt(0.15·cvdw · 0.15·cvdw): E(Rij) = −eps */
    const double eps_cc = 0.15 * cvdw;
    CHECK_STATUS(vsg_ad4_pair_energy(&p, "C", "C", 0.0, 4.0, &e), VSG_OK);
    CHECK_NEAR(e, -eps_cc, 1e-12);
    CHECK_STATUS(vsg_ad4_pair_energy(&p, "C", "C", 0.0, 3.3, &e), VSG_OK);
    CHECK_NEAR(e, lj(eps_cc, 4.0, 6, 3.3), 1e-12);
    /* C–OA: mixed radii (4 + 3.2)/2, eps = sqrt(0.15·0.2)·cvdw */
    CHECK_STATUS(vsg_ad4_pair_energy(&p, "C", "OA", 0.0, 5.1, &e), VSG_OK);
    CHECK_NEAR(e, lj(sqrt(0.15 * 0.2) * cvdw, 3.6, 6, 5.1), 1e-12);
    /* OA probe on a HD receptor atom: 12-10 with OA's Rij_hb 1.9, epsij_hb 5.0·chbond, and the
     * same pair the other way round (HD probe on OA) */
    CHECK_STATUS(vsg_ad4_pair_energy(&p, "OA", "HD", 0.0, 2.5, &e), VSG_OK);
    CHECK_NEAR(e, lj(5.0 * chb, 1.9, 10, 2.5), 1e-12);
    CHECK_NEAR(lj(5.0 * chb, 1.9, 10, 1.9), -5.0 * chb, 1e-12);
    CHECK_STATUS(vsg_ad4_pair_energy(&p, "HD", "OA", 0.0, 2.5, &e), VSG_OK);
    CHECK_NEAR(e, lj(5.0 * chb, 1.9, 10, 2.5), 1e-12);
    /* the clamp at 1e5 kcal/mol */
    CHECK_STATUS(vsg_ad4_pair_energy(&p, "C", "C", 0.0, 0.5, &e), VSG_OK);
    CHECK_NEAR(e, 100000.0, 0);
    CHECK_STATUS(vsg_ad4_pair_energy(&p, "C", "C", 0.5, 0.0, &e), VSG_OK);
    CHECK_NEAR(e, 100000.0, 0);
    /* smoothing 0.5 Å: the minimum over ±0.25 Å: at 3.5 Å the value of 3.75 Å, at the well −eps */
    CHECK_STATUS(vsg_ad4_pair_energy(&p, "C", "C", 0.5, 3.5, &e), VSG_OK);
    CHECK_NEAR(e, lj(eps_cc, 4.0, 6, 3.75), 1e-12);
    CHECK_STATUS(vsg_ad4_pair_energy(&p, "C", "C", 0.5, 4.1, &e), VSG_OK);
    CHECK_NEAR(e, -eps_cc, 1e-12);
    CHECK_STATUS(vsg_ad4_pair_energy(&p, "C", "Si", 0.5, 4.1, &e), VSG_E_DATA);
    CHECK_STATUS(vsg_ad4_pair_energy(&p, "C", "C", 0.5, -1.0, &e), VSG_E_ARG);
}

/* A PDBQT atom line (x, y, z, charge, type) */
static void atom_line(char *buf, size_t cap, int serial, const char *name, double x, double y, double z, double q,
                      const char *type)
{
    snprintf(buf, cap, "ATOM  %5d %-4s ALA A   1    %8.3f%8.3f%8.3f  1.00  0.00    %6.3f %-2s\n", serial, name, x, y, z,
             q, type);
}

static double node_value(const vsg_grid *g, double x, double y, double z)
{
    vsg_grid_shape s;
    vsg_grid_shape_of(g, &s);
    int i = (int)lround((x - s.origin[0]) / s.spacing[0]), j = (int)lround((y - s.origin[1]) / s.spacing[1]),
        k = (int)lround((z - s.origin[2]) / s.spacing[2]);
    return vsg_grid_values(g)[i + s.n[0] * (j + s.n[1] * k)];
}

static void test_maps_by_hand(void)
{
    vsg_ad4_params p;
    vsg_ad4_params_builtin(&p);
    const vsg_ad4_atom_par *C = vsg_ad4_params_find(&p, "C"), *OA = vsg_ad4_params_find(&p, "OA"),
                           *N = vsg_ad4_params_find(&p, "N"), *HD = vsg_ad4_params_find(&p, "HD");
    /* one carbon (charge 0.2) at the box centre; probes C at 3 Å along x, smooth 0 */
    char l1[128], l2[128], text[512];
    atom_line(l1, sizeof l1, 1, "C1", 1.0, 2.0, 3.0, 0.2, "C");
    const char *rec = scratch_path("ad4_one.pdbqt");
    CHECK(write_file(rec, l1));
    const char *gpf = scratch_path("ad4_one.gpf");
    CHECK(write_file(gpf, "npts 16 16 16\nspacing 0.25\nreceptor_types C\nligand_types C OA\n"
                          "gridcenter 1.0 2.0 3.0\nsmooth 0\nmap x.C.map\nmap x.OA.map\ndsolvmap x.d.map\n"));
    vsg_molecule *m = NULL;
    vsg_gpf g;
    CHECK_STATUS(vsg_molecule_read(rec, NULL, &m), VSG_OK);
    CHECK_STATUS(vsg_gpf_read(gpf, &g), VSG_OK);
    vsg_grid *out[3] = {NULL, NULL, NULL};
    CHECK_STATUS(vsg_ad4_maps_cpu(m, &g, &p, 1, out), VSG_OK);
    if (out[0] && out[1] && out[2]) {
        double r = 1.5, s = sol_at(r);
        double desolv_c = C->solpar * C->vol * s + (C->solpar + qasp * 0.2) * C->vol * s;
        double e_c = lj(0.15 * cvdw, 4.0, 6, r) + desolv_c;
        CHECK_NEAR(node_value(out[0], 2.5, 2.0, 3.0), (float)r3(e_c), 0);
        double e_oa = lj(sqrt(0.15 * 0.2) * cvdw, 3.6, 6, r) + OA->solpar * C->vol * s +
                      (C->solpar + qasp * 0.2) * OA->vol * s;
        CHECK_NEAR(node_value(out[1], 1.0, 0.5, 3.0), (float)r3(e_oa), 0);
        CHECK_NEAR(node_value(out[2], 1.0, 2.0, 4.5), (float)r3(qasp * C->vol * s), 0);
        /* beyond 8 Å nothing: the box corner is sqrt(3)·2 Å away, inside; all finite */
        CHECK(isfinite(node_value(out[0], 3.0, 4.0, 5.0)));
    }
    for (int i = 0; i < 3; i++) vsg_grid_free(out[i]);
    vsg_molecule_free(m);

    /* an N–H donor along +x: N at centre − 1 Å, HD at the centre (charges 0) */
    atom_line(l1, sizeof l1, 1, "N", -1.0, 0.0, 0.0, 0.0, "N");
    atom_line(l2, sizeof l2, 2, "H", 0.0, 0.0, 0.0, 0.0, "HD");
    snprintf(text, sizeof text, "%s%s", l1, l2);
    rec = scratch_path("ad4_nh.pdbqt");
    CHECK(write_file(rec, text));
    CHECK(write_file(gpf, "npts 16 16 16\nspacing 0.25\nligand_types OA C\ngridcenter 0 0 0\nsmooth 0\n"));
    CHECK_STATUS(vsg_molecule_read(rec, NULL, &m), VSG_OK);
    CHECK_STATUS(vsg_gpf_read(gpf, &g), VSG_OK);
    CHECK_STATUS(vsg_ad4_maps_cpu(m, &g, &p, 0, out), VSG_OK);
    if (out[0] && out[1]) {
        /* on the N–H axis, 2 Å from H: racc = cos²0 = 1, full 12-10 H-bond with HD; vdW with N */
        double rh = 2.0, rn = 3.0;
        double hb = lj(5.0 * chb, 1.9, 10, rh);
        double vdw_n = lj(sqrt(0.2 * 0.16) * cvdw, 3.35, 6, rn);
        double des = OA->solpar * HD->vol * sol_at(rh) + (HD->solpar) * OA->vol * sol_at(rh) +
                     OA->solpar * N->vol * sol_at(rn) + (N->solpar) * OA->vol * sol_at(rn);
        CHECK_NEAR(node_value(out[0], 2.0, 0.0, 0.0), (float)r3(hb + vdw_n + des), 0);
        /* at 90° from the N–H axis: racc = 0 and rsph = 0 for a negative E: no H-bond at all */
        double rn2 = sqrt(5.0);
        double at90 = lj(sqrt(0.2 * 0.16) * cvdw, 3.35, 6, rn2) + OA->solpar * HD->vol * sol_at(rh) +
                      HD->solpar * OA->vol * sol_at(rh) + OA->solpar * N->vol * sol_at(rn2) +
                      N->solpar * OA->vol * sol_at(rn2);
        CHECK_NEAR(node_value(out[0], 0.0, 2.0, 0.0), (float)r3(at90), 0);
        /* C probe (no H-bonds): plain 12-6 with HD and N */
        double c_axis = lj(sqrt(0.15 * 0.02) * cvdw, 3.0, 6, rh) + lj(sqrt(0.15 * 0.16) * cvdw, 3.75, 6, rn);
        double c_des = C->solpar * HD->vol * sol_at(rh) + HD->solpar * C->vol * sol_at(rh) +
                       C->solpar * N->vol * sol_at(rn) + N->solpar * C->vol * sol_at(rn);
        CHECK_NEAR(node_value(out[1], 2.0, 0.0, 0.0), (float)r3(c_axis + c_des), 0);
    }
    for (int i = 0; i < 3; i++) vsg_grid_free(out[i]);

    /* a ligand type without parameters; a receptor type without parameters */
    CHECK(write_file(gpf, "npts 4 4 4\nligand_types C Si\ngridcenter 0 0 0\n"));
    CHECK_STATUS(vsg_gpf_read(gpf, &g), VSG_OK);
    CHECK_STATUS(vsg_ad4_maps_cpu(m, &g, &p, 1, out), VSG_E_DATA);
    CHECK_CONTAINS(vsg_last_error(), "'Si' has no parameters");
    CHECK(out[0] == NULL && out[1] == NULL);
    vsg_molecule_free(m);
    /* a parameter set with C only: the receptor's N (line 1) has none */
    vsg_ad4_params only_c;
    memset(&only_c, 0, sizeof only_c);
    only_c.coeff_vdw = cvdw, only_c.coeff_hbond = chb, only_c.coeff_desolv = cdes;
    only_c.n = 1;
    only_c.atom[0] = *C;
    CHECK(write_file(gpf, "npts 4 4 4\nligand_types C\ngridcenter 0 0 0\n"));
    CHECK_STATUS(vsg_molecule_read(rec, NULL, &m), VSG_OK);
    CHECK_STATUS(vsg_gpf_read(gpf, &g), VSG_OK);
    CHECK_STATUS(vsg_ad4_maps_cpu(m, &g, &only_c, 1, out), VSG_E_DATA);
    CHECK_CONTAINS(vsg_last_error(), "ad4_nh.pdbqt:1: receptor type 'N' has no parameters");
    vsg_molecule_free(m);
}

static void test_gpf_keywords(void)
{
    const char *p = scratch_path("ad4_a.gpf");
    CHECK(write_file(scratch_path("ad4_bs.dat"), "atom_par Si     4.10  0.200  35.8235  -0.00143  0.0  0.0  0  -1  -1  6\n"));
    CHECK(write_file(p, "parameter_file ad4_bs.dat\nnpts 52 52 52\ngridfld r.maps.fld\nspacing 0.375\n"
                        "receptor_types HD C A N NA OA\nligand_types HD C A Si   # ligand atom types\n"
                        "receptor r.pdbqt\ngridcenter 15.190 53.903 16.917\nsmooth 0.25\nqasp 0.02\noutlev 1\n"
                        "map r.HD.map\nmap r.C.map\nmap r.A.map\nmap r.Si.map\nelecmap r.e.map\n"
                        "desolvmap r.d.map\ndielectric -42.000\n"));
    vsg_gpf g;
    CHECK_STATUS(vsg_gpf_read(p, &g), VSG_OK);
    CHECK(g.n_ligand_types == 4 && !strcmp(g.ligand_types[3], "Si"));
    CHECK(g.n_receptor_types == 6 && !strcmp(g.receptor_types[4], "NA"));
    CHECK(g.n_maps == 4 && !strcmp(g.maps[1], "r.C.map"));
    CHECK(!strcmp(g.dsolvmap, "r.d.map"));
    CHECK_NEAR(g.smooth, 0.25, 0);
    CHECK_NEAR(g.qasp, 0.02, 0);
    CHECK_CONTAINS(g.parameter_file, "ad4_bs.dat");
    vsg_ad4_params par;
    vsg_ad4_params_builtin(&par);
    CHECK_STATUS(vsg_ad4_params_read(g.parameter_file, &par), VSG_OK);
    CHECK(vsg_ad4_params_find(&par, "Si") != NULL);
    /* defaults */
    CHECK(write_file(p, "npts 2 2 2\ngridcenter 0 0 0\n"));
    CHECK_STATUS(vsg_gpf_read(p, &g), VSG_OK);
    CHECK_NEAR(g.smooth, 0.5, 0);
    CHECK_NEAR(g.qasp, 0.01097, 0);
    CHECK(g.n_ligand_types == 0 && g.parameter_file[0] == '\0');

    struct { const char *text, *where; vsg_status st; } bad[] = {
        {"npts 2 2 2\ngridcenter 0 0 0\nfoo 1\n", "ad4_a.gpf:3: unknown gpf keyword 'foo'", VSG_E_FORMAT},
        {"npts 2 2 2\nsmooth x\ngridcenter 0 0 0\n", "ad4_a.gpf:2", VSG_E_FORMAT},
        {"npts 2 2 2\nsmooth -1\ngridcenter 0 0 0\n", "ad4_a.gpf:2", VSG_E_FORMAT},
        {"npts 2 2 2\nqasp 0.1 0.2\ngridcenter 0 0 0\n", "ad4_a.gpf:2", VSG_E_FORMAT},
        {"npts 2 2 2\nligand_types\ngridcenter 0 0 0\n", "ad4_a.gpf:2", VSG_E_FORMAT},
        {"npts 2 2 2\nligand_types C OAXX\n", "ad4_a.gpf:2", VSG_E_FORMAT},
        {"npts 2 2 2\nligand_types C C\n", "ad4_a.gpf:2: atom type 'C' is listed twice", VSG_E_FORMAT},
        {"npts 2 2 2\noutlev high\n", "ad4_a.gpf:2", VSG_E_FORMAT},
        {"npts 2 2 2\ncovalentmap 5.0 1000.0 1 2 3\n", "ad4_a.gpf:2: covalentmap", VSG_E_UNSUPPORTED},
        {"npts 2 2 2\nnbp_r_eps 4.0 0.0222 12 6 C C\n", "ad4_a.gpf:2: nbp_r_eps", VSG_E_UNSUPPORTED},
        {"npts 2 2 2\ndisorder_h\n", "ad4_a.gpf:2: disorder_h", VSG_E_UNSUPPORTED},
        {"npts 2 2 2\nuse_vina_potential\n", "ad4_a.gpf:2", VSG_E_UNSUPPORTED},
        {"ligand_types C\nparameter_file ad4_bs.dat\n", "ad4_a.gpf:2: parameter_file after", VSG_E_UNSUPPORTED},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK(write_file(p, bad[i].text));
        CHECK_STATUS(vsg_gpf_read(p, &g), bad[i].st);
        CHECK_CONTAINS(vsg_last_error(), bad[i].where);
    }
}

int main(void)
{
    test_params();
    test_pair_energy();
    test_maps_by_hand();
    test_gpf_keywords();
    CHECK_EXIT();
}
