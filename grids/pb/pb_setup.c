/* pb_setup.c — assembling the checkerboard PB system for one grid level. */
#include "grids/pb/pb_setup.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grids/base/constants.h"
#include "grids/base/vsgrid.h"
#include "grids/pb/dielectric.h"

vsg_status vsg_pb_physics_from(const vsg_pb_params *p, vsg_pb_physics *ph)
{
    memset(ph, 0, sizeof *ph);
    if (!(p->temperature > 0.0)) return vsg_fail(VSG_E_ARG, "temperature must be > 0 K");
    if (!(p->eps_in >= 1.0) || !(p->eps_out >= 1.0))
        return vsg_fail(VSG_E_ARG, "dielectric constants must be >= 1 (eps_in %g, eps_out %g)", p->eps_in, p->eps_out);
    if (p->n_ions < 0 || p->n_ions > VSG_MAX_IONS)
        return vsg_fail(VSG_E_ARG, "at most %d ion species", VSG_MAX_IONS);
    ph->temperature = p->temperature;
    ph->lambda_b = vsg_bjerrum(p->temperature);
    ph->eps_in = p->eps_in;
    ph->eps_out = p->eps_out;
    ph->surface = p->surface;
    ph->probe = p->probe;
    ph->spline = p->spline;
    ph->nonlinear = p->nonlinear;
    double net = 0.0, sumq2 = 0.0, cmax = 0.0;
    for (int i = 0; i < p->n_ions; i++) {
        const vsg_ion *io = &p->ions[i];
        if (!(io->molar >= 0.0) || !(io->radius >= 0.0) || io->charge == 0.0 || !isfinite(io->charge))
            return vsg_fail(VSG_E_ARG, "ion %d: need a non-zero charge, a concentration >= 0 and a radius >= 0", i + 1);
        if (io->molar == 0.0) continue;
        ph->ion_molar[ph->n_ions] = io->molar;
        ph->ion_charge[ph->n_ions] = io->charge;
        ph->n_ions++;
        net += io->molar * io->charge;
        sumq2 += io->molar * io->charge * io->charge;
        cmax = io->molar > cmax ? io->molar : cmax;
        ph->ion_radius = io->radius > ph->ion_radius ? io->radius : ph->ion_radius;
    }
    if (ph->n_ions && fabs(net) > 1e-9 * (cmax > 0 ? cmax : 1.0))
        return vsg_fail(VSG_E_ARG, "ions are not electroneutral: sum of concentration x charge = %g M", net);
    /* κ² = 4π λ_B Σ n_s z_s² / ε_solv, with n_s in ions per Å³. */
    ph->kappa2 = 4.0 * VSG_PI * ph->lambda_b * VSG_MOLAR_TO_A3 * sumq2 / ph->eps_out;
    return VSG_OK;
}

static double eps_of(const vsg_pb_physics *ph, uint8_t code, int samples)
{
    if (code == 0) return ph->eps_out;
    if (code >= samples) return ph->eps_in;
    double f = (double)code / samples;
    return 1.0 / (f / ph->eps_in + (1.0 - f) / ph->eps_out);
}

static void set_scalars(vsg_pb_system *s, const vsg_pb_physics *ph, const vsg_level *lv)
{
    s->kh2 = ph->kappa2 * lv->h * lv->h;
    s->nonlinear = ph->nonlinear && ph->kappa2 > 0.0;
    s->n_ions = ph->n_ions;
    s->two_i = 0.0;
    for (int i = 0; i < ph->n_ions; i++) {
        s->ion_molar[i] = ph->ion_molar[i];
        s->ion_charge[i] = ph->ion_charge[i];
        s->two_i += ph->ion_molar[i] * ph->ion_charge[i] * ph->ion_charge[i];
    }
}

vsg_status vsg_pb_system_init(vsg_pb_system *s, const vsg_pb_physics *ph, const vsg_level *lv,
                              vsg_precision precision)
{
    vsg_status st = vsg_pb_system_alloc(s, lv->n[0], lv->n[1], lv->n[2], lv->h, lv->origin, precision);
    if (st == VSG_OK) set_scalars(s, ph, lv);
    return st;
}

vsg_status vsg_pb_system_describe(vsg_pb_system *s, const vsg_pb_physics *ph, const vsg_level *lv,
                                  vsg_precision precision)
{
    vsg_status st = vsg_pb_system_shape(s, lv->n[0], lv->n[1], lv->n[2], lv->h, lv->origin, precision);
    if (st == VSG_OK) set_scalars(s, ph, lv);
    return st;
}

vsg_status vsg_pb_build(const vsg_molecule *m, const vsg_pb_physics *ph, const vsg_level *lv,
                        vsg_precision precision, vsg_pb_system *s, vsg_grid_charge **charges,
                        size_t *ncharges, double *outside)
{
    *charges = NULL;
    *ncharges = 0;
    vsg_status st = vsg_pb_system_init(s, ph, lv, precision);
    if (st != VSG_OK) return st;
    const int nx = lv->n[0], ny = lv->n[1], nz = lv->n[2];
    const size_t n = s->nodes, plane = (size_t)nx * ny;

    vsg_lattice nodes = {{lv->origin[0], lv->origin[1], lv->origin[2]}, lv->h, {nx, ny, nz}};
    uint8_t *codes[3] = {malloc(n), malloc(n), malloc(n)};
    uint8_t *excluded = calloc(n, 1);
    int samples = 1;
    if (!codes[0] || !codes[1] || !codes[2] || !excluded) st = vsg_fail(VSG_E_NOMEM, "out of memory (maps)");
    if (st == VSG_OK) st = vsg_dielectric_codes(m, &nodes, ph->surface, ph->probe, codes, &samples);
    if (st == VSG_OK && ph->kappa2 > 0.0) st = vsg_ion_exclusion(m, &nodes, ph->ion_radius, excluded, 1);
    if (st == VSG_OK) st = vsg_assign_charges(m, lv, ph->spline, charges, ncharges, outside);

    /* Count, then fill, the listed nodes of each colour per z-plane (parallel, ordered). */
    size_t *cnt[2] = {NULL, NULL};
    if (st == VSG_OK) {
        cnt[0] = calloc((size_t)nz + 1, sizeof(size_t));
        cnt[1] = calloc((size_t)nz + 1, sizeof(size_t));
        if (!cnt[0] || !cnt[1]) st = vsg_fail(VSG_E_NOMEM, "out of memory (correction lists)");
    }
    const vsg_grid_charge *qc = *charges;
    const size_t nq = *ncharges;
    const double eo = ph->eps_out, kfac = eo * s->kh2, qfac = 4.0 * VSG_PI * ph->lambda_b / lv->h;
    for (int pass = 0; pass < 2 && st == VSG_OK; pass++) {
        if (pass == 1) {
            for (int c = 0; c < 2; c++) {
                for (int z = 0; z < nz; z++) cnt[c][z + 1] += cnt[c][z];
                s->ncorr[c] = cnt[c][nz];
                s->corr[c] = malloc((s->ncorr[c] ? s->ncorr[c] : 1) * sizeof(vsg_pb_corr));
                if (!s->corr[c]) st = vsg_fail(VSG_E_NOMEM, "out of memory (correction lists: %zu nodes)", s->ncorr[c]);
            }
            if (st != VSG_OK) break;
        }
#pragma omp parallel for schedule(dynamic, 1)
        for (int z = 1; z < nz - 1; z++) {
            size_t fill[2] = {0, 0};
            if (pass == 1) { fill[0] = cnt[0][z]; fill[1] = cnt[1][z]; }
            /* Charges of this plane: binary search in the sorted list. */
            size_t lo = 0, hi = nq, zstart = plane * (size_t)z;
            while (lo < hi) { size_t mid = (lo + hi) / 2; if (qc[mid].linear < zstart) lo = mid + 1; else hi = mid; }
            size_t qi = lo;
            for (int y = 1; y < ny - 1; y++) {
                for (int x = 1; x < nx - 1; x++) {
                    size_t L = (size_t)x + (size_t)nx * ((size_t)y + (size_t)ny * z);
                    double q = 0.0;
                    while (qi < nq && qc[qi].linear < L) qi++;
                    if (qi < nq && qc[qi].linear == L) q = qc[qi].q;
                    double e[6] = {eps_of(ph, codes[0][L - 1], samples), eps_of(ph, codes[0][L], samples),
                                   eps_of(ph, codes[1][L - nx], samples), eps_of(ph, codes[1][L], samples),
                                   eps_of(ph, codes[2][L - plane], samples), eps_of(ph, codes[2][L], samples)};
                    int salt = ph->kappa2 > 0.0 && !excluded[L];
                    int uniform = e[1] == e[0] && e[2] == e[0] && e[3] == e[0] && e[4] == e[0] && e[5] == e[0];
                    int listed = q != 0.0 || !uniform || (salt && e[0] != eo);
                    int c = (int)(L & 1);
                    if (pass == 0) {
                        if (listed) cnt[c][z + 1]++;
                        continue;
                    }
                    s->flag[c][L >> 1] = (uint8_t)((salt ? VSG_NODE_SALT : 0) | (listed ? VSG_NODE_LISTED : 0));
                    if (!listed) continue;
                    vsg_pb_corr *cr = &s->corr[c][fill[c]++];
                    double d = e[0] + e[1] + e[2] + e[3] + e[4] + e[5] + (salt ? kfac : 0.0);
                    cr->index = L >> 1;
                    for (int i = 0; i < 6; i++) cr->w[i] = e[i] / d;
                    cr->s = qfac * q / d;
                    cr->k = salt ? kfac / d : 0.0;
                }
            }
        }
    }
    /* Face nodes: flags stay 0 (never updated by the sweeps, which skip faces). */
    free(cnt[0]); free(cnt[1]);
    free(codes[0]); free(codes[1]); free(codes[2]); free(excluded);
    if (st != VSG_OK) {
        vsg_pb_system_free(s);
        free(*charges);
        *charges = NULL;
        *ncharges = 0;
    }
    return st;
}

/* Debye–Hückel potential (kT/e) at distance r of a charge q in a sphere of radius a. */
static double dh(const vsg_pb_physics *ph, double q, double r, double a)
{
    double kappa = sqrt(ph->kappa2);
    if (r < a) r = a;
    if (r < 1e-9) r = 1e-9;
    return ph->lambda_b * q * exp(-kappa * (r - a)) / (ph->eps_out * r * (1.0 + kappa * a));
}

vsg_status vsg_pb_boundary(vsg_pb_system *s, const vsg_molecule *m, const vsg_pb_physics *ph,
                           vsg_boundary bc, const vsg_grid *coarse)
{
    const int nx = s->nx, ny = s->ny, nz = s->nz;
    /* Summaries of the charge distribution for sdh and dipole. */
    double qtot = 0.0, cen[3] = {0, 0, 0}, acen = 0.0, qp = 0.0, qn = 0.0, cp[3] = {0, 0, 0}, cn[3] = {0, 0, 0};
    for (size_t i = 0; i < m->n; i++) {
        const vsg_atom *a = &m->atoms[i];
        double p[3] = {a->x, a->y, a->z};
        qtot += a->charge;
        for (int d = 0; d < 3; d++) cen[d] += p[d] / (double)m->n;
        if (a->charge > 0) { qp += a->charge; for (int d = 0; d < 3; d++) cp[d] += a->charge * p[d]; }
        if (a->charge < 0) { qn += a->charge; for (int d = 0; d < 3; d++) cn[d] += a->charge * p[d]; }
    }
    for (int d = 0; d < 3; d++) { if (qp) cp[d] /= qp; if (qn) cn[d] /= qn; }
    for (size_t i = 0; i < m->n; i++) {
        const vsg_atom *a = &m->atoms[i];
        double dx = a->x - cen[0], dy = a->y - cen[1], dz = a->z - cen[2];
        double r = sqrt(dx * dx + dy * dy + dz * dz) + a->radius;
        acen = r > acen ? r : acen;
    }
    if (coarse) {
        /* Focusing: start the interior from the coarse solution too (fewer iterations). */
        int fail = 0;
#pragma omp parallel for schedule(static) reduction(| : fail)
        for (int z = 0; z < nz; z++)
            for (int y = 0; y < ny; y++)
                for (int x = 0; x < nx; x++) {
                    double v;
                    if (vsg_grid_interpolate(coarse, s->origin[0] + x * s->h, s->origin[1] + y * s->h,
                                             s->origin[2] + z * s->h, &v) != VSG_OK) {
                        int face = x == 0 || y == 0 || z == 0 || x == nx - 1 || y == ny - 1 || z == nz - 1;
                        fail |= face;
                        v = 0.0;
                    }
                    vsg_pb_set(s, vsg_pb_linear(s, x, y, z), v);
                }
        if (fail) return vsg_fail(VSG_E_ARG, "focusing: the fine grid is not inside the coarse grid");
        return VSG_OK;
    }
    if (bc == VSG_BC_ZERO) return VSG_OK;
    vsg_mdh_atoms md = {0, NULL, NULL, NULL, NULL, NULL, sqrt(ph->kappa2)};
    if (bc == VSG_BC_MDH && vsg_mdh_prepare(&md, m, ph) != VSG_OK) return vsg_fail(VSG_E_NOMEM, "out of memory (boundary)");
#pragma omp parallel for schedule(dynamic, 1)
    for (int z = 0; z < nz; z++)
        for (int y = 0; y < ny; y++) {
            int zface = z == 0 || z == nz - 1 || y == 0 || y == ny - 1;
            for (int x = 0; x < nx; x += (zface ? 1 : nx - 1)) {
                double p[3] = {s->origin[0] + x * s->h, s->origin[1] + y * s->h, s->origin[2] + z * s->h};
                double v = 0.0;
                if (bc == VSG_BC_SDH) {
                    double r = sqrt((p[0] - cen[0]) * (p[0] - cen[0]) + (p[1] - cen[1]) * (p[1] - cen[1]) + (p[2] - cen[2]) * (p[2] - cen[2]));
                    v = dh(ph, qtot, r, acen);
                } else if (bc == VSG_BC_DIPOLE) {
                    double rp = sqrt((p[0] - cp[0]) * (p[0] - cp[0]) + (p[1] - cp[1]) * (p[1] - cp[1]) + (p[2] - cp[2]) * (p[2] - cp[2]));
                    double rn = sqrt((p[0] - cn[0]) * (p[0] - cn[0]) + (p[1] - cn[1]) * (p[1] - cn[1]) + (p[2] - cn[2]) * (p[2] - cn[2]));
                    v = (qp ? dh(ph, qp, rp, 0.0) : 0.0) + (qn ? dh(ph, qn, rn, 0.0) : 0.0);
                } else { /* MDH: every charge its own Debye–Hückel sphere of the atom's radius */
                    v = vsg_mdh_sum(&md, p);
                }
                vsg_pb_set(s, vsg_pb_linear(s, x, y, z), v);
            }
        }
    vsg_mdh_free(&md);
    return VSG_OK;
}

void vsg_pb_guess(vsg_pb_system *s, const vsg_grid *g)
{
    const int nx = s->nx, ny = s->ny, nz = s->nz;
#pragma omp parallel for schedule(static)
    for (int z = 1; z < nz - 1; z++)
        for (int y = 1; y < ny - 1; y++)
            for (int x = 1; x < nx - 1; x++) {
                double v;
                if (vsg_grid_interpolate(g, s->origin[0] + x * s->h, s->origin[1] + y * s->h,
                                         s->origin[2] + z * s->h, &v) == VSG_OK)
                    vsg_pb_set(s, vsg_pb_linear(s, x, y, z), v);
            }
}

double vsg_pb_energy(const vsg_pb_system *s, const vsg_grid_charge *c, size_t n)
{
    double e = 0.0;
    for (size_t i = 0; i < n; i++) e += c[i].q * vsg_pb_get(s, c[i].linear);
    return 0.5 * e;
}
