/* test_gpu_pb_setup.c — the GPU PB setup (gpu/pb/pb_setup_gpu.cu) against the CPU's (vsg_pb_build then
 * vsg_pb_boundary, grids/pb/pb_setup.c) on real receptors: data/1stp_receptor.pdbqt and
 * data/fas2.pqr at the default level (0.5 Å, fill 0.7), for the surfaces vdw, ses and smooth,
 * without and with salt (0.15 M 1:1, ion radius 2 Å), spl0 and spl2, bc mdh and zero; plus sdh
 * and dipole, float precision, a nonlinear system, a coarser level, a small box inside the molecule
 * (as focusing makes) and a zero probe once each, and the error paths.
 *   flags: mismatching nodes counted and printed; 0 required for vdw, ≤ 1e-6 of the nodes for
 *          ses and smooth (expected 0: the GPU repeats the CPU's arithmetic, see pb_setup_gpu.cu);
 *   lists: same length and, walked by index, the same entries (index, w[6], s, k compared
 *          exactly), except near flag mismatches (≤ 14 entries per mismatching node allowed);
 *   charges: the same list, bit for bit, and the same charge outside the box;
 *   faces: zero, sdh and dipole bit for bit; mdh: the GPU sums the CPU's float inputs in double,
 *          so on a sample of face nodes it must equal a long-double sum of those inputs to
 *          1e-10 of the largest face |φ|, and the whole face must agree with the CPU's float
 *          sum to 5e-6 of it (the CPU's own rounding: up to ~2e-6, Σ|terms| being ~100× |φ|;
 *          a per-node relative bound cannot hold where φ crosses zero). The interior is zero
 *          on both sides.
 * Prints the CPU and GPU setup times per case. Skipped (77) without a GPU. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "grids/base/vsgrid.h"
#include "gpu/device/gpu.h"
#include "grids/pb/pb_geometry.h"
#include "grids/pb/pb_setup.h"
#include "gpu/pb/pb_setup_gpu.h"

static const char *surface_name[] = {"vdw", "ses", "smooth"};
static const char *bc_name[] = {"zero", "sdh", "mdh", "dipole"};

typedef struct {
    double cpu, gpu;  /* summed setup seconds */
    int cases;
    size_t flag_mismatches;
} totals;

/* Entries of two index-sorted lists of one colour: present in one only, or present in both
 * with different values. */
static void compare_lists(const vsg_pb_corr *a, size_t na, const vsg_pb_corr *b, size_t nb, size_t *only,
                          size_t *differ)
{
    size_t i = 0, j = 0;
    while (i < na || j < nb) {
        if (j >= nb || (i < na && a[i].index < b[j].index)) {
            (*only)++;
            i++;
        } else if (i >= na || b[j].index < a[i].index) {
            (*only)++;
            j++;
        } else {
            int same = a[i].s == b[j].s && a[i].k == b[j].k;
            for (int w = 0; w < 6; w++) same = same && a[i].w[w] == b[j].w[w];
            if (!same) (*differ)++;
            i++;
            j++;
        }
    }
}

static int sorted_unique(const vsg_pb_corr *c, size_t n)
{
    for (size_t e = 1; e < n; e++)
        if (c[e].index <= c[e - 1].index) return 0;
    return 1;
}

/* The mdh sum of vsg_mdh_sum's float inputs at node (x, y, z), exactly (long double). */
static double mdh_reference(const vsg_mdh_atoms *md, const vsg_pb_system *s, int x, int y, int z)
{
    const long double px = (float)(s->origin[0] + x * s->h), py = (float)(s->origin[1] + y * s->h),
                      pz = (float)(s->origin[2] + z * s->h), k = (float)md->kappa;
    long double v = 0.0L;
    for (size_t i = 0; i < md->n; i++) {
        long double dx = px - md->x[i], dy = py - md->y[i], dz = pz - md->z[i];
        long double r = sqrtl(dx * dx + dy * dy + dz * dz);
        if (r < md->a[i]) r = md->a[i];
        v += md->c[i] * expl(-k * r) / r;
    }
    return (double)v;
}

static void compare_case(const char *file, const vsg_molecule *m, const vsg_pb_physics *ph, const vsg_level *lv,
                         vsg_boundary bc, vsg_precision prec, totals *tot)
{
    vsg_pb_system a, b;
    vsg_grid_charge *qa = NULL, *qb = NULL;
    size_t na = 0, nb = 0;
    double oa = -1.0, ob = -2.0;
    double t0 = vsg_now();
    vsg_status sa = vsg_pb_build(m, ph, lv, prec, &a, &qa, &na, &oa);
    if (sa == VSG_OK) sa = vsg_pb_boundary(&a, m, ph, bc, NULL);
    const double tc = vsg_now() - t0;
    CHECK_STATUS(sa, VSG_OK);
    if (sa != VSG_OK) return;
    double tg = -1.0;
    vsg_status sb = vsg_pb_build_gpu(m, ph, lv, prec, bc, &b, &qb, &nb, &ob, 0, &tg);
    CHECK_STATUS(sb, VSG_OK);
    if (sb != VSG_OK) {
        vsg_pb_system_free(&a);
        free(qa);
        return;
    }
    CHECK(tg > 0.0);

    /* The system's scalars and geometry. */
    CHECK(a.nx == b.nx && a.ny == b.ny && a.nz == b.nz && a.nodes == b.nodes);
    CHECK(a.count[0] == b.count[0] && a.count[1] == b.count[1]);
    CHECK(a.h == b.h && a.origin[0] == b.origin[0] && a.origin[1] == b.origin[1] && a.origin[2] == b.origin[2]);
    CHECK(a.precision == b.precision);
    CHECK(a.kh2 == b.kh2 && a.nonlinear == b.nonlinear && a.n_ions == b.n_ions && a.two_i == b.two_i);
    for (int i = 0; i < a.n_ions && i < VSG_MAX_IONS; i++)
        CHECK(a.ion_molar[i] == b.ion_molar[i] && a.ion_charge[i] == b.ion_charge[i]);

    /* Flags. */
    size_t flag_diff = 0, listed = 0, salt = 0;
    for (int c = 0; c < 2; c++)
        for (size_t k = 0; k < a.count[c]; k++) {
            flag_diff += a.flag[c][k] != b.flag[c][k];
            listed += (a.flag[c][k] & VSG_NODE_LISTED) != 0;
            salt += (a.flag[c][k] & VSG_NODE_SALT) != 0;
        }

    /* Correction lists. */
    size_t only = 0, differ = 0;
    for (int c = 0; c < 2; c++) {
        CHECK(sorted_unique(b.corr[c], b.ncorr[c]));
        compare_lists(a.corr[c], a.ncorr[c], b.corr[c], b.ncorr[c], &only, &differ);
    }

    /* Charges. */
    CHECK(na == nb);
    CHECK(oa == ob);
    size_t qdiff = 0;
    for (size_t i = 0; i < na && i < nb; i++) qdiff += qa[i].linear != qb[i].linear || qa[i].q != qb[i].q;
    CHECK(qdiff == 0);

    /* Potential: faces against each other, interior zero. */
    double scale = 0.0, maxdiff = 0.0, maxrel = 0.0;
    size_t face_exact_diff = 0, interior_nonzero = 0;
    for (int z = 0; z < a.nz; z++)
        for (int y = 0; y < a.ny; y++)
            for (int x = 0; x < a.nx; x++) {
                size_t L = vsg_pb_linear(&a, x, y, z);
                double va = vsg_pb_get(&a, L), vb = vsg_pb_get(&b, L);
                int face = x == 0 || y == 0 || z == 0 || x == a.nx - 1 || y == a.ny - 1 || z == a.nz - 1;
                if (!face) {
                    interior_nonzero += va != 0.0 || vb != 0.0;
                    continue;
                }
                scale = fmax(scale, fabs(va));
                maxdiff = fmax(maxdiff, fabs(va - vb));
                if (va != 0.0) maxrel = fmax(maxrel, fabs(va - vb) / fabs(va));
                face_exact_diff += va != vb;
            }
    CHECK(interior_nonzero == 0);
    double gpu_ref = 0.0, cpu_ref = 0.0;
    if (bc == VSG_BC_MDH) {
        CHECK(scale > 0.0);
        CHECK(maxdiff <= 5e-6 * scale);
        /* Every 29th face node against the exact sum of the CPU's inputs. */
        vsg_mdh_atoms md = {0, NULL, NULL, NULL, NULL, NULL, sqrt(ph->kappa2)};
        CHECK_STATUS(vsg_mdh_prepare(&md, m, ph), VSG_OK);
        long long t = 0;
        for (int z = 0; z < a.nz; z++)
            for (int y = 0; y < a.ny; y++) {
                int zface = z == 0 || z == a.nz - 1 || y == 0 || y == a.ny - 1;
                for (int x = 0; x < a.nx; x += zface ? 1 : a.nx - 1)
                    if (t++ % 29 == 0) {
                        size_t L = vsg_pb_linear(&a, x, y, z);
                        double r = mdh_reference(&md, &a, x, y, z);
                        if (prec == VSG_PRECISION_FLOAT) r = (float)r;
                        gpu_ref = fmax(gpu_ref, fabs(vsg_pb_get(&b, L) - r));
                        cpu_ref = fmax(cpu_ref, fabs(vsg_pb_get(&a, L) - r));
                    }
            }
        vsg_mdh_free(&md);
        /* double: the device's exp and summation order only; float: the storage rounding. */
        CHECK(gpu_ref <= (prec == VSG_PRECISION_FLOAT ? 1e-7 : 1e-10) * scale);
    } else {
        CHECK(face_exact_diff == 0);
    }

    /* Tolerances: vdw exact; ses/smooth ≤ 1e-6 of the nodes (expected 0). */
    const size_t allowed = ph->surface == VSG_SURFACE_VDW ? 0 : (size_t)(1e-6 * (double)a.nodes);
    CHECK(flag_diff <= allowed);
    CHECK(only + differ <= 14 * allowed);
    if (allowed == 0) CHECK(a.ncorr[0] == b.ncorr[0] && a.ncorr[1] == b.ncorr[1]);

    printf("%-24s %3dx%3dx%3d %-6s %-4s salt %-3s %-6s %-6s %s | listed %7zu salt %8zu charges %6zu | "
           "flags differ %zu, list entries only-in-one %zu differ %zu | faces max|gpu-cpu| %.2e of max|phi| %.3g "
           "(node-relative worst %.1e; vs exact: gpu %.1e cpu %.1e) | cpu %7.1f ms gpu %6.1f ms\n",
           file, a.nx, a.ny, a.nz, surface_name[ph->surface], ph->spline == VSG_SPLINE_SPL2 ? "spl2" : "spl0",
           ph->kappa2 > 0.0 ? "yes" : "no", bc_name[bc], prec == VSG_PRECISION_FLOAT ? "float" : "double",
           ph->nonlinear ? "nonlinear" : "linear", listed, salt, na, flag_diff, only, differ,
           scale > 0.0 ? maxdiff / scale : 0.0, scale, maxrel, scale > 0.0 ? gpu_ref / scale : 0.0,
           scale > 0.0 ? cpu_ref / scale : 0.0, 1e3 * tc, 1e3 * tg);
    fflush(stdout);
    tot->cpu += tc;
    tot->gpu += tg;
    tot->cases++;
    tot->flag_mismatches += flag_diff;

    vsg_pb_system_free(&a);
    vsg_pb_system_free(&b);
    free(qa);
    free(qb);
}

static void physics_probe(vsg_pb_physics *ph, vsg_surface surf, int salt, vsg_charge_spline spl, int nonlinear,
                          double probe)
{
    vsg_pb_params p;
    vsg_pb_params_default(&p);
    p.probe = probe;
    p.surface = surf;
    p.spline = spl;
    p.nonlinear = nonlinear;
    if (salt) {
        p.n_ions = 2;
        p.ions[0] = (vsg_ion){+1, 0.15, 2.0};
        p.ions[1] = (vsg_ion){-1, 0.15, 2.0};
    }
    CHECK_STATUS(vsg_pb_physics_from(&p, ph), VSG_OK);
}

static void physics(vsg_pb_physics *ph, vsg_surface surf, int salt, vsg_charge_spline spl, int nonlinear)
{
    physics_probe(ph, surf, salt, spl, nonlinear, 1.4);
}

static void error_paths(const vsg_molecule *m, const vsg_level *lv)
{
    vsg_pb_physics ph;
    physics(&ph, VSG_SURFACE_SES, 1, VSG_SPLINE_SPL0, 0);
    vsg_pb_system s;
    vsg_grid_charge *q = (vsg_grid_charge *)&s; /* must come back NULL */
    size_t nq = 99;
    double out = -1.0, sec = -1.0;
    /* A device that does not exist. */
    CHECK_STATUS(vsg_pb_build_gpu(m, &ph, lv, VSG_PRECISION_DOUBLE, VSG_BC_MDH, &s, &q, &nq, &out, 1000, &sec),
                 VSG_E_DEVICE);
    CHECK(q == NULL && nq == 0);
    CHECK(s.flag[0] == NULL && s.flag[1] == NULL && s.phi[0] == NULL && s.corr[0] == NULL);
    CHECK_CONTAINS(vsg_last_error(), "GPU 1000");
    /* Focusing is the caller's (zero, then the coarse grid). */
    q = (vsg_grid_charge *)&s;
    CHECK_STATUS(vsg_pb_build_gpu(m, &ph, lv, VSG_PRECISION_DOUBLE, VSG_BC_FOCUS, &s, &q, &nq, &out, 0, NULL),
                 VSG_E_ARG);
    CHECK(q == NULL && nq == 0);
    /* An even nx: refused by vsg_pb_system_alloc, as on the CPU. */
    vsg_level bad = *lv;
    bad.n[0] = 40;
    q = (vsg_grid_charge *)&s;
    CHECK_STATUS(vsg_pb_build_gpu(m, &ph, &bad, VSG_PRECISION_DOUBLE, VSG_BC_ZERO, &s, &q, &nq, &out, 0, NULL),
                 VSG_E_ARG);
    CHECK(q == NULL && nq == 0);
}

static void run_file(const char *file, totals *tot)
{
    vsg_molecule *m = NULL;
    CHECK_STATUS(vsg_molecule_read(source_path(file), NULL, &m), VSG_OK);
    if (!m) return;
    vsg_pb_params p;
    vsg_pb_params_default(&p);
    vsg_level lv;
    CHECK_STATUS(vsg_fine_level(m, &p, &lv), VSG_OK);

    static const vsg_surface surfs[] = {VSG_SURFACE_VDW, VSG_SURFACE_SES, VSG_SURFACE_SMOOTH};
    for (int si = 0; si < 3; si++)
        for (int salt = 0; salt < 2; salt++)
            for (int spl = 0; spl < 2; spl++)
                for (int bi = 0; bi < 2; bi++) {
                    vsg_pb_physics ph;
                    physics(&ph, surfs[si], salt, spl ? VSG_SPLINE_SPL2 : VSG_SPLINE_SPL0, 0);
                    compare_case(file, m, &ph, &lv, bi ? VSG_BC_ZERO : VSG_BC_MDH, VSG_PRECISION_DOUBLE, tot);
                }
    /* Once each: sdh, dipole, float storage (faces converted the same way), nonlinear. */
    vsg_pb_physics ph;
    physics(&ph, VSG_SURFACE_SES, 1, VSG_SPLINE_SPL0, 0);
    compare_case(file, m, &ph, &lv, VSG_BC_SDH, VSG_PRECISION_DOUBLE, tot);
    compare_case(file, m, &ph, &lv, VSG_BC_DIPOLE, VSG_PRECISION_FLOAT, tot);
    compare_case(file, m, &ph, &lv, VSG_BC_MDH, VSG_PRECISION_FLOAT, tot);
    physics(&ph, VSG_SURFACE_SMOOTH, 1, VSG_SPLINE_SPL2, 1);
    compare_case(file, m, &ph, &lv, VSG_BC_MDH, VSG_PRECISION_DOUBLE, tot);
    /* A coarser level of the same box (different spacing, probe step 0.5 Å). */
    vsg_level coarse = lv;
    coarse.h = 1.1;
    for (int d = 0; d < 3; d++) coarse.n[d] = ((int)((lv.n[d] - 1) * lv.h / coarse.h) + 1) | 1;
    physics(&ph, VSG_SURFACE_SES, 1, VSG_SPLINE_SPL2, 0);
    compare_case(file, m, &ph, &coarse, VSG_BC_MDH, VSG_PRECISION_DOUBLE, tot);
    /* A small fine box inside the molecule, as a focusing level has: atoms, SAS spheres and
     * charges outside the box (some charge is dropped). */
    vsg_level small = {{41, 41, 41}, 0.35, {m->atoms[0].x - 7.0, m->atoms[0].y - 7.0, m->atoms[0].z - 7.0}};
    compare_case(file, m, &ph, &small, VSG_BC_MDH, VSG_PRECISION_DOUBLE, tot);
    /* No probe: ses is the vdW surface, smooth samples the vdW indicator. */
    physics_probe(&ph, VSG_SURFACE_SMOOTH, 1, VSG_SPLINE_SPL0, 0, 0.0);
    compare_case(file, m, &ph, &lv, VSG_BC_ZERO, VSG_PRECISION_DOUBLE, tot);
    physics_probe(&ph, VSG_SURFACE_SES, 0, VSG_SPLINE_SPL0, 0, 0.0);
    compare_case(file, m, &ph, &lv, VSG_BC_ZERO, VSG_PRECISION_DOUBLE, tot);

    error_paths(m, &lv);
    vsg_molecule_free(m);
}

int main(void)
{
    if (vsg_gpu_count() <= 0) SKIP("no GPU");
    vsg_set_warning_handler(NULL, NULL);

    /* The first call pays for the CUDA context and the module load: time it apart. */
    {
        vsg_molecule *m = NULL;
        CHECK_STATUS(vsg_molecule_read(source_path("data/fas2.pqr"), NULL, &m), VSG_OK);
        if (m) {
            vsg_pb_physics ph;
            physics(&ph, VSG_SURFACE_SES, 1, VSG_SPLINE_SPL0, 0);
            vsg_level lv = {{33, 33, 33}, 1.0, {-16.0, -16.0, -16.0}};
            vsg_pb_system s;
            vsg_grid_charge *q = NULL;
            size_t nq = 0;
            double out = 0.0, sec = 0.0;
            CHECK_STATUS(vsg_pb_build_gpu(m, &ph, &lv, VSG_PRECISION_DOUBLE, VSG_BC_MDH, &s, &q, &nq, &out, 0, &sec),
                         VSG_OK);
            printf("first GPU call (context, module load): %.1f ms\n", 1e3 * sec);
            vsg_pb_system_free(&s);
            free(q);
            vsg_molecule_free(m);
        }
    }

    totals tot = {0.0, 0.0, 0, 0};
    run_file("data/1stp_receptor.pdbqt", &tot);
    run_file("data/fas2.pqr", &tot);
    printf("%d cases: setup cpu %.3f s, gpu %.3f s (%.1fx); flag mismatches in all %zu\n", tot.cases, tot.cpu,
           tot.gpu, tot.gpu > 0.0 ? tot.cpu / tot.gpu : 0.0, tot.flag_mismatches);
    CHECK_EXIT();
}
