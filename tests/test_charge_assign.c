/* test_charge_assign.c — vsg_assign_charges (grids/pb/charge_assign.c) on random charges, many
 * sharing nodes, against a dense accumulation written here: every node's charge must be the sum
 * of its contributions in input order (atom order, then the spline's k, j, i), bit for bit, so
 * that the result does not depend on how the C library sorts; the list sorted by node without
 * repeats; charge conserved (in the box plus lost = total); nodes on the box faces never charged. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "grids/receptor/molecule.h"
#include "grids/pb/pb_setup.h"
#include "testkit.h"

/* The cubic B-spline weights, written out again with charge_assign.c's operations (the test is
 * about which contributions are summed in which order, so the terms must be the same bits). */
static double bspline_w(double t, int i)
{
    double t2 = t * t, t3 = t2 * t, u = 1.0 - t;
    switch (i) {
    case 0: return u * u * u / 6.0;
    case 1: return (3.0 * t3 - 6.0 * t2 + 4.0) / 6.0;
    case 2: return (-3.0 * t3 + 3.0 * t2 + 3.0 * t + 1.0) / 6.0;
    default: return t3 / 6.0;
    }
}

static void check_spline(const vsg_molecule *m, const vsg_level *lv, vsg_charge_spline spline)
{
    vsg_grid_charge *c = NULL;
    size_t n = 0;
    double lost = 0.0;
    CHECK_STATUS(vsg_assign_charges(m, lv, spline, &c, &n, &lost), VSG_OK);
    if (!c) return;
    const size_t nodes = (size_t)lv->n[0] * lv->n[1] * lv->n[2];
    double *dense = calloc(nodes, sizeof *dense);
    unsigned char *hit = calloc(nodes, 1);
    const int span = spline == VSG_SPLINE_SPL2 ? 4 : 2;
    double total = 0.0, lost_ref = 0.0;
    for (size_t a = 0; a < m->n && dense && hit; a++) {
        const double q = m->atoms[a].charge;
        if (q == 0.0) continue;
        total += q;
        const double p[3] = {m->atoms[a].x, m->atoms[a].y, m->atoms[a].z};
        int base[3];
        double w[3][4];
        for (int d = 0; d < 3; d++) {
            const double u = (p[d] - lv->origin[d]) / lv->h, f = floor(u), t = u - f;
            base[d] = (int)f - (span == 4 ? 1 : 0);
            for (int i = 0; i < span; i++) w[d][i] = span == 2 ? (i == 0 ? 1.0 - t : t) : bspline_w(t, i);
        }
        for (int k = 0; k < span; k++)
            for (int j = 0; j < span; j++)
                for (int i = 0; i < span; i++) {
                    const double wq = q * w[0][i] * w[1][j] * w[2][k];
                    if (wq == 0.0) continue;
                    const int x = base[0] + i, y = base[1] + j, z = base[2] + k;
                    if (x < 1 || y < 1 || z < 1 || x > lv->n[0] - 2 || y > lv->n[1] - 2 || z > lv->n[2] - 2) {
                        lost_ref += fabs(wq);
                        continue;
                    }
                    const size_t L = (size_t)x + (size_t)lv->n[0] * ((size_t)y + (size_t)lv->n[1] * (size_t)z);
                    dense[L] = hit[L] ? dense[L] + wq : wq;
                    hit[L] = 1;
                }
    }
    size_t bad_order = 0, bad_value = 0, hits = 0;
    double in_box = 0.0;
    for (size_t e = 0; e < n; e++) {
        if (e > 0 && c[e].linear <= c[e - 1].linear) bad_order++;
        if (c[e].linear >= nodes || !hit[c[e].linear] || c[e].q != dense[c[e].linear]) bad_value++;
        in_box += c[e].q;
    }
    for (size_t L = 0; L < nodes && hit; L++) hits += hit[L];
    printf("%s: %zu nodes charged, %zu out of order, %zu values differ; charge %.6f in box + %.6f lost of %.6f\n",
           spline == VSG_SPLINE_SPL2 ? "spl2" : "spl0", n, bad_order, bad_value, in_box, lost, total);
    CHECK(bad_order == 0);
    CHECK(bad_value == 0);
    CHECK(hits == n);
    CHECK(lost == lost_ref);
    CHECK(lost > 0.0); /* some atoms sit by the faces on purpose */
    free(dense);
    free(hit);
    free(c);
}

int main(void)
{
    testkit_seed();
    vsg_molecule *m = vsg_molecule_new("random", "pqr");
    CHECK(m != NULL);
    if (!m) CHECK_EXIT();
    /* 3000 charges in a 16 Å cube of a 0.5 Å grid, in clumps so that nodes collect several. */
    for (int i = 0; i < 3000; i++) {
        vsg_atom a;
        memset(&a, 0, sizeof a);
        const double cx = 1.0 + 14.0 * (double)(i / 30 % 10) / 9.0;
        a.x = cx + uniform(-0.4, 0.4);
        a.y = uniform(-0.2, 16.2);
        a.z = uniform(0.0, 16.0);
        a.charge = urand() < 0.1 ? 0.0 : uniform(-1.0, 1.0);
        a.radius = 1.5;
        CHECK_STATUS(vsg_molecule_push(m, &a), VSG_OK);
    }
    vsg_level lv = {{33, 33, 33}, 0.5, {0.0, 0.0, 0.0}};
    check_spline(m, &lv, VSG_SPLINE_SPL0);
    check_spline(m, &lv, VSG_SPLINE_SPL2);
    vsg_molecule_free(m);
    CHECK_EXIT();
}
