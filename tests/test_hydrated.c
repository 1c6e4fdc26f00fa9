/* test_hydrated.c — hydrated docking's pieces (issue 28 item 3; vsgrid.h, "Hydrated docking"):
 *   - the W map node rule against values worked out by hand from mapwater.py's `best` (weight
 *     0.6, entropy −0.2), and vsg_ad4_water_map_write on two small maps written here: the OA
 *     header copied, every node the rule's value printed "%1.4f", the OA/HD counts; a short map
 *     and a non-number refused (file:line), leaving no W file;
 *   - Vina's example ligand (data/hydrated: Meeko's nicotine with two W): refused by the Vina
 *     model with a message naming file:line; accepted by the AD4 model with the W atoms neither
 *     heavy nor in any pair, TORSDOF 2; its AutoDock4 internal energy equals that of the same
 *     record without its W lines; a W moved 5 Å away or into another body refused (file:line);
 *   - dry.py's verdicts on a constructed map set and receptor: a water 1.0 Å from a receptor
 *     oxygen is removed although its map is strong, a bridging one 2.9 Å from it is kept STRONG,
 *     one 1.5 Å from a receptor HD only is not a clash, one 1.5 Å from a ligand carbon is
 *     removed, one by a ligand hydrogen only is not; weak, displaced and out-of-grid waters; the
 *     published dry.py's half-node box (its scan reaches a node one further up). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grids/base/vsgrid.h"
#include "ligands/score/ad4_intra.h"
#include "tests/check.h"
#include "tests/dock_kit.h"

static const char *dir = VSG_BINARY_DIR;

/* ---- the W map ------------------------------------------------------------------------------ */

/* mapwater.py's best() as its text reads, written out again: positive → ENTROPY, else weight ×
 * the lower of the two. */
static double mapwater(double oa, double hd)
{
    if (oa > 0 || hd > 0) return -0.2;
    return oa < hd ? 0.6 * oa : 0.6 * hd;
}

static void write_map(const char *path, const char *name, const double *v, int n, int nel)
{
    FILE *f = fopen(path, "w");
    if (!f) return;
    fprintf(f, "GRID_PARAMETER_FILE t.gpf\nGRID_DATA_FILE t.maps.fld\nMACROMOLECULE %s\nSPACING 0.375\n"
               "NELEMENTS %d %d %d\nCENTER 1.000 2.000 3.000\n", name, nel, nel, nel);
    for (int i = 0; i < n; i++) fprintf(f, "%.3f\n", v[i]);
    fclose(f);
}

static void test_water_map(void)
{
    /* by hand: 0.6 × −0.5 = −0.3; 0.6 × −0.9 = −0.54; a positive side → −0.2; 0 and 0 → 0 */
    CHECK_NEAR(vsg_ad4_water_value(-0.5, -0.3), -0.3, 1e-12);
    CHECK_NEAR(vsg_ad4_water_value(-0.2, -0.9), -0.54, 1e-12);
    CHECK_NEAR(vsg_ad4_water_value(0.1, -1.0), -0.2, 1e-12);
    CHECK_NEAR(vsg_ad4_water_value(-3.0, 0.001), -0.2, 1e-12);
    CHECK_NEAR(vsg_ad4_water_value(0.0, 0.0), 0.0, 1e-12);
    CHECK_NEAR(vsg_ad4_water_value(-1.634, -0.42), -0.9804, 1e-12);

    enum { NEL = 2, N = 27 };
    double oa[N], hd[N];
    for (int i = 0; i < N; i++) { /* every branch: both negative either way round, one positive, zeros */
        oa[i] = (i % 5 == 0) ? 0.25 * i : -0.137 * (i % 7) - 0.01 * i;
        hd[i] = (i % 4 == 1) ? 0.05 : -0.211 * (i % 3) - 0.003 * i;
    }
    oa[26] = 0, hd[26] = 0;
    char po[512], ph[512], pw[512];
    snprintf(po, sizeof po, "%s/hyd_t.OA.map", dir);
    snprintf(ph, sizeof ph, "%s/hyd_t.HD.map", dir);
    snprintf(pw, sizeof pw, "%s/hyd_t.W.map", dir);
    write_map(po, "r_oa.pdbqt", oa, N, NEL);
    write_map(ph, "r_hd.pdbqt", hd, N, NEL);
    vsg_ad4_water_stats s;
    CHECK_STATUS(vsg_ad4_water_map_write(po, ph, pw, &s), VSG_OK);
    CHECK(s.nodes == N);
    FILE *fo = fopen(po, "r"), *fw = fopen(pw, "r");
    CHECK(fo && fw);
    if (fo && fw) {
        char a[256], b[256];
        for (int i = 0; i < 6; i++) { /* the OA map's header, as it is */
            CHECK(fgets(a, sizeof a, fo) && fgets(b, sizeof b, fw));
            CHECK(!strcmp(a, b));
        }
        long from_oa = 0, from_hd = 0;
        for (int i = 0; i < N; i++) {
            double o;
            CHECK(fgets(a, sizeof a, fo) && sscanf(a, "%lf", &o) == 1);
            CHECK(fgets(b, sizeof b, fw) != NULL);
            /* the printed HD value of node i: the file holds hd[i] with 3 decimals */
            char hs[32], want[32];
            snprintf(hs, sizeof hs, "%.3f", hd[i]);
            snprintf(want, sizeof want, "%1.4f\n", mapwater(o, strtod(hs, NULL)));
            if (strcmp(b, want)) fprintf(stderr, "node %d: W %s, want %s", i, b, want);
            CHECK(!strcmp(b, want));
            const double h = strtod(hs, NULL);
            if (!(o > 0 || h > 0)) {
                if (o < h) from_oa++;
                else from_hd++;
            }
        }
        CHECK(fgets(b, sizeof b, fw) == NULL); /* no more */
        CHECK(s.from_oa == from_oa && s.from_hd == from_hd);
    }
    if (fo) fclose(fo);
    if (fw) fclose(fw);
    /* a short HD map: refused, no W file left */
    remove(pw);
    write_map(ph, "r_hd.pdbqt", hd, N - 1, NEL);
    CHECK_STATUS(vsg_ad4_water_map_write(po, ph, pw, NULL), VSG_E_DATA);
    CHECK_CONTAINS(vsg_last_error(), "differ in size");
    CHECK(fopen(pw, "r") == NULL);
    /* a value that is not a number: file:line */
    write_map(ph, "r_hd.pdbqt", hd, N, NEL);
    FILE *f = fopen(ph, "a");
    if (f) fputs("x.y\n", f), fclose(f);
    write_map(po, "r_oa.pdbqt", oa, N, NEL);
    f = fopen(po, "a");
    if (f) fputs("0.000\n", f), fclose(f);
    CHECK_STATUS(vsg_ad4_water_map_write(po, ph, pw, NULL), VSG_E_FORMAT);
    CHECK_CONTAINS(vsg_last_error(), "hyd_t.HD.map:34: not a map value");
    /* a CENTER that differs: not one grid */
    write_map(ph, "r_hd.pdbqt", hd, N, NEL);
    f = fopen(ph, "r+");
    if (f) {
        char buf[4096];
        size_t len = fread(buf, 1, sizeof buf - 1, f);
        buf[len] = '\0';
        char *c = strstr(buf, "CENTER 1.000");
        if (c) c[7] = '9';
        rewind(f);
        fwrite(buf, 1, len, f);
        fclose(f);
    }
    write_map(po, "r_oa.pdbqt", oa, N, NEL);
    CHECK_STATUS(vsg_ad4_water_map_write(po, ph, pw, NULL), VSG_E_DATA);
    CHECK_CONTAINS(vsg_last_error(), "not one grid");
    CHECK_STATUS(vsg_ad4_water_map_write(NULL, ph, pw, NULL), VSG_E_ARG);
}

/* ---- the ligand's model ---------------------------------------------------------------------- */

/* Copies src to dst, line by line: drop[] (1-based, 0-terminated) left out; line `move` (if > 0)
 * put after line `after` instead of where it was; line `shift` (if > 0) moved dx along x. */
static void rewrite(const char *src, const char *dst, const int *drop, int move, int after, int shift, double dx)
{
    FILE *in = fopen(src, "r"), *out = fopen(dst, "w");
    char lines[64][128];
    int n = 0;
    while (in && n < 64 && fgets(lines[n], sizeof lines[n], in)) n++;
    for (int i = 1; i <= n && out; i++) {
        int skip = i == move;
        for (const int *d = drop; d && *d; d++) skip |= *d == i;
        if (skip) continue;
        if (i == shift) {
            char *l = lines[i - 1];
            char head[31], coord[9];
            memcpy(head, l, 30), head[30] = '\0';
            snprintf(coord, sizeof coord, "%8.3f", strtod(l + 30, NULL) + dx);
            fprintf(out, "%s%s%s", head, coord, l + 38);
        } else {
            fputs(lines[i - 1], out);
        }
        if (i == after && move > 0) fputs(lines[move - 1], out);
    }
    if (in) fclose(in);
    if (out) fclose(out);
}

static void test_ligand(void)
{
    char path[512], dryp[512], bad[512];
    snprintf(path, sizeof path, "%s/data/hydrated/1uw6_ligand.pdbqt", VSG_SOURCE_DIR);
    vsg_ligand lig;
    vsg_ligand_init(&lig);
    CHECK_STATUS(read_first(path, &lig), VSG_OK);
    CHECK(lig.natoms == 15);
    CHECK(!strcmp(lig.atoms[12].ad_type, "W") && !strcmp(lig.atoms[14].ad_type, "W"));
    vsg_vina_ligand *l = NULL;
    CHECK_STATUS(vsg_vina_ligand_new(&lig, &l), VSG_E_DATA); /* the Vina function: refused */
    CHECK_CONTAINS(vsg_last_error(), "1uw6_ligand.pdbqt:19: record 1: atom 13 (WAT): W is a hydrated-docking water");
    CHECK_CONTAINS(vsg_last_error(), "--scoring ad4");
    CHECK_STATUS(vsg_vina_ligand_new_ad4(&lig, &l), VSG_OK);
    vsg_vina_ligand_info info;
    vsg_vina_ligand_get_info(l, &info);
    CHECK(info.heavy_atoms == 12); /* 10 C/N + ... : the W are not heavy */
    CHECK(info.torsdof == 2);
    CHECK(vsg_vina_ligand_xs_type(l, 12) == VSG_XS_NONE && vsg_vina_ligand_xs_type(l, 14) == VSG_XS_NONE);
    for (int k = 0; k < info.npairs; k++) {
        int i, j;
        CHECK_STATUS(vsg_vina_ligand_pair(l, k, &i, &j), VSG_OK);
        CHECK(i != 12 && j != 12 && i != 14 && j != 14);
    }
    vsg_vina_ligand_free(l);
    /* AutoDock4 internal energy: the same with and without the waters */
    vsg_ad4_params par;
    vsg_ad4_params_builtin(&par);
    vsg_ad4_intra_result wet, dry;
    CHECK_STATUS(vsg_ad4_intra(&lig, &par, &wet), VSG_OK);
    snprintf(dryp, sizeof dryp, "%s/hyd_dry.pdbqt", dir);
    const int drop[] = {19, 23, 0};
    rewrite(path, dryp, drop, 0, 0, 0, 0);
    vsg_ligand d;
    vsg_ligand_init(&d);
    CHECK_STATUS(read_first(dryp, &d), VSG_OK);
    CHECK(d.natoms == 13);
    CHECK_STATUS(vsg_ad4_intra(&d, &par, &dry), VSG_OK);
    CHECK(wet.npairs == dry.npairs && dry.npairs > 0);
    CHECK_NEAR(wet.total, dry.total, 1e-12);
    vsg_ligand_release(&d);
    vsg_ligand_release(&lig);

    /* W 13 moved 5 Å off its nitrogen; then W 13 moved into the ROOT (its N is in BRANCH 1 7) */
    snprintf(bad, sizeof bad, "%s/hyd_bad1.pdbqt", dir);
    rewrite(path, bad, NULL, 0, 0, 19, 5.0);
    vsg_ligand_init(&lig);
    CHECK_STATUS(read_first(bad, &lig), VSG_OK);
    CHECK_STATUS(vsg_vina_ligand_new_ad4(&lig, &l), VSG_E_DATA);
    CHECK_CONTAINS(vsg_last_error(), "hyd_bad1.pdbqt:19: record 1: atom 13 (WAT): misplaced W");
    vsg_ligand_release(&lig);
    snprintf(bad, sizeof bad, "%s/hyd_bad2.pdbqt", dir);
    rewrite(path, bad, NULL, 19, 10, 0, 0);
    vsg_ligand_init(&lig);
    CHECK_STATUS(read_first(bad, &lig), VSG_OK);
    CHECK_STATUS(vsg_vina_ligand_new_ad4(&lig, &l), VSG_E_DATA);
    CHECK_CONTAINS(vsg_last_error(), "hyd_bad2.pdbqt:11: record 1: atom 7 (WAT): misplaced W");
    CHECK_CONTAINS(vsg_last_error(), "in another ROOT/BRANCH body");
    vsg_ligand_release(&lig);
}

/* ---- the dry step ------------------------------------------------------------------------------ */

#define NEL 30 /* intervals: 31 nodes a side, centre 0, spacing 0.375: origin −5.625 */
#define SP 0.375
#define NN (NEL + 1)

/* The W map: −0.9 for x nodes < 8, −0.4 for 8..19, −0.1 from 20; one node −0.95 at (16, 25, 15). */
static double wval(int x, int y, int z)
{
    if (x == 16 && y == 25 && z == 15) return -0.95;
    return x < 8 ? -0.9 : x < 20 ? -0.4 : -0.1;
}

static void write_set(const char *prefix)
{
    char p[600];
    const char *kinds[3] = {"W", "e", "d"};
    for (int m = 0; m < 3; m++) {
        snprintf(p, sizeof p, "%s.%s.map", prefix, kinds[m]);
        FILE *f = fopen(p, "w");
        if (!f) return;
        fprintf(f, "GRID_PARAMETER_FILE t.gpf\nGRID_DATA_FILE t.maps.fld\nMACROMOLECULE r.pdbqt\nSPACING 0.375\n"
                   "NELEMENTS %d %d %d\nCENTER 0.000 0.000 0.000\n", NEL, NEL, NEL);
        for (int z = 0; z < NN; z++)
            for (int y = 0; y < NN; y++)
                for (int x = 0; x < NN; x++) fprintf(f, "%.3f\n", m == 0 ? wval(x, y, z) : 0.0);
        fclose(f);
    }
    snprintf(p, sizeof p, "%s.maps.fld", prefix);
    FILE *f = fopen(p, "w");
    if (!f) return;
    const char *base = strrchr(prefix, '/') ? strrchr(prefix, '/') + 1 : prefix;
    fprintf(f, "# AVS field file\n#SPACING 0.375\n#NELEMENTS %d %d %d\n#CENTER 0.000 0.000 0.000\n"
               "#MACROMOLECULE r.pdbqt\n#GRID_PARAMETER_FILE t.gpf\n#\nndim=3\ndim1=%d\ndim2=%d\ndim3=%d\nnspace=3\n"
               "veclen=3\ndata=float\nfield=uniform\ncoord 1 file=%s.maps.xyz filetype=ascii offset=0\n"
               "coord 2 file=%s.maps.xyz filetype=ascii offset=2\ncoord 3 file=%s.maps.xyz filetype=ascii offset=4\n"
               "label=W-affinity\nlabel=Electrostatics\nlabel=Desolvation\n"
               "variable 1 file=%s.W.map filetype=ascii skip=6\nvariable 2 file=%s.e.map filetype=ascii skip=6\n"
               "variable 3 file=%s.d.map filetype=ascii skip=6\n",
            NEL, NEL, NEL, NN, NN, NN, base, base, base, base, base, base);
    fclose(f);
    snprintf(p, sizeof p, "%s.maps.xyz", prefix);
    if ((f = fopen(p, "w"))) fprintf(f, "-5.625 5.625\n-5.625 5.625\n-5.625 5.625\n"), fclose(f);
}

/* x of the node u (fractional index) */
static double at(double u) { return -5.625 + u * SP; }

static void test_dry(void)
{
    char prefix[512], fld[600], rp[600], lp[600];
    snprintf(prefix, sizeof prefix, "%s/hyd_set", dir);
    write_set(prefix);
    snprintf(fld, sizeof fld, "%s.maps.fld", prefix);
    vsg_ad4_target *t = NULL;
    CHECK_STATUS(vsg_ad4_target_read(fld, NULL, &t), VSG_OK);
    if (!t) return;
    /* receptor: an oxygen at node (3, 5, 5) of the strong region, a polar hydrogen at (3, 25, 5) */
    snprintf(rp, sizeof rp, "%s/hyd_rec.pdbqt", dir);
    FILE *f = fopen(rp, "w");
    if (f) {
        fprintf(f, "ATOM      1  O   HOH A   1    %8.3f%8.3f%8.3f  1.00  0.00    -0.400 OA\n", at(3), at(5), at(5));
        fprintf(f, "ATOM      2  H   SER A   2    %8.3f%8.3f%8.3f  1.00  0.00     0.200 HD\n", at(3), at(25), at(5));
        fclose(f);
    }
    vsg_molecule *rec = NULL;
    CHECK_STATUS(vsg_molecule_read(rp, "pdbqt", &rec), VSG_OK);
    /* ligand: C at (20, 5, 25), H at (3, 15, 25), and 8 waters placed below through xyz */
    snprintf(lp, sizeof lp, "%s/hyd_lig.pdbqt", dir);
    enum { NW = 8, NA = 2 + NW };
    if ((f = fopen(lp, "w"))) {
        fprintf(f, "ROOT\n");
        fprintf(f, "ATOM      1  C1  LIG     1       0.000   0.000   0.000  1.00  0.00     0.000 C \n");
        fprintf(f, "ATOM      2  H1  LIG     1       1.000   0.000   0.000  1.00  0.00     0.000 HD\n");
        for (int i = 0; i < NW; i++)
            fprintf(f, "ATOM     %2d WAT  LIG     1       0.000   0.000   %5.3f  1.00  0.00     0.000 W \n", 3 + i, 3.0 + 0.5 * i);
        fprintf(f, "ENDROOT\nTORSDOF 0\n");
        fclose(f);
    }
    vsg_ligand lig;
    vsg_ligand_init(&lig);
    CHECK_STATUS(read_first(lp, &lig), VSG_OK);
    double xyz[3 * NA];
    const double pos[NA][3] = {
        {at(20), at(5), at(25)},       /* C */
        {at(3), at(15), at(25)},       /* H */
        {at(3) + 1.0, at(5), at(5)},   /* 1.0 Å from the receptor O, strong map: removed */
        {at(3), at(5) + 2.9, at(5)},   /* 2.9 Å from it: a bridging water, STRONG −0.9 */
        {at(3) + 1.5, at(25), at(5)},  /* 1.5 Å from the receptor HD only: no clash, STRONG */
        {at(20) + 1.5, at(5), at(25)}, /* 1.5 Å from the ligand C: removed */
        {at(3) + 1.2, at(15), at(25)}, /* 1.2 Å from the ligand H only: no clash; STRONG */
        {at(13), at(5), at(15)},       /* the weak region: −0.4 WEAK */
        {at(12.2), at(25), at(15)},    /* dry.py's node 13 (12.2 + 0.5, rounded), scan 10..16: the −0.95 node */
        {at(26), at(15), at(15)},      /* −0.1: displaced */
    };
    for (int i = 0; i < NA; i++)
        for (int d = 0; d < 3; d++) xyz[3 * i + d] = pos[i][d];
    vsg_water_verdict v[NW];
    int nw = 0;
    CHECK_STATUS(vsg_ad4_dry(t, rec, &lig, xyz, v, &nw), VSG_OK);
    CHECK(nw == NW);
    const vsg_water_class want[NW] = {VSG_WATER_RECEPTOR_CLASH, VSG_WATER_STRONG, VSG_WATER_STRONG, VSG_WATER_LIGAND_CLASH,
                                      VSG_WATER_STRONG, VSG_WATER_WEAK, VSG_WATER_STRONG, VSG_WATER_DISPLACED};
    const double score[NW] = {NAN, -0.9, -0.9, NAN, -0.9, -0.4, -0.95, -0.1};
    for (int i = 0; i < nw && i < NW; i++) {
        if (v[i].cls != want[i])
            fprintf(stderr, "water %d: %s (%.3f), want %s\n", i, vsg_water_class_name(v[i].cls), v[i].score,
                    vsg_water_class_name(want[i]));
        CHECK(v[i].atom == 2 + i);
        CHECK(v[i].cls == want[i]);
        if (isnan(score[i])) CHECK(isnan(v[i].score));
        else CHECK_NEAR(v[i].score, score[i], 1e-6);
    }
    /* without the receptor (dry.py without -r): the 1.0 Å water is judged on the map */
    CHECK_STATUS(vsg_ad4_dry(t, NULL, &lig, xyz, v, &nw), VSG_OK);
    CHECK(v[0].cls == VSG_WATER_STRONG);
    /* out of the grid: dry.py's score 0, displaced */
    xyz[3 * 9] = 9.0;
    CHECK_STATUS(vsg_ad4_dry(t, rec, &lig, xyz, v, &nw), VSG_OK);
    CHECK(v[7].cls == VSG_WATER_DISPLACED && v[7].score == 0.0);
    CHECK_STATUS(vsg_ad4_dry(NULL, rec, &lig, xyz, v, &nw), VSG_E_ARG);
    CHECK(!strcmp(vsg_water_class_name(VSG_WATER_DISPLACED), "DISPLC"));
    vsg_ligand_release(&lig);
    vsg_molecule_free(rec);
    vsg_ad4_target_free(t);
}

int main(void)
{
    test_water_map();
    test_ligand();
    test_dry();
    CHECK_EXIT();
}
