/* score_cpu.c — the CPU twin of the scoring kernels (vsgrid.h, "scoring arrays of coordinates"): every ligand of a batch
 * scored on receptor grids in double precision, ligands spread over OpenMP threads, each
 * ligand summed in atom order by one thread (so the result does not depend on the thread
 * count). It is the reference the GPU kernels (gpu/score/score_gpu.cu) are checked against, and it
 * reproduces autodock4 4.2.6's "epdb" intermolecular energy (tests/test_peer_ad4.c).
 *
 * Interpolation (vsgrid.h): u = (x − origin)/spacing, i0 = ⌊u⌋ clamped to [0, n − 2],
 * t = u − i0, corners weighted by products of (1 − t) and t. This is AutoDock 4.2.6's
 * trilinterp (autodock/trilinterp.cc: u0 = (int)((x − lo)·inv_spacing), p0u = u − u0,
 * p1u = 1 − p0u, m = Σ p·map over the 8 corners), which truncates instead of clamping because
 * it never interpolates an atom on the upper face (see below); inside the grid both agree.
 *
 * Atoms outside the grid (vsgrid.h: a coordinate outside [origin, origin + (n − 1)·spacing]):
 *  - ELEC: contribute 0, counted in `outside`.
 *  - AD4: autodock4's rule. trilinterp.cc (AutoDock 4.2.6, rev 1.15), when some atom is out of
 *    the grid (is_out_grid_info in autodock/constants.h: x ≤ lo or x ≥ hi on some axis, with
 *    lo/hi = center ∓ (NELEMENTS/2)·spacing from readfield.cc), gives that atom no map terms
 *    but a penalty epenalty = ENERGYPENALTY · |r − center|², ENERGYPENALTY = 500 kcal/mol/Å²
 *    (autodock/constants.h), added to the electrostatic total AND to the map ("vdW + Hbond +
 *    desolv") total: the atom adds 2 · 500 · |r − c|² to the intermolecular energy. Measured
 *    with Debian's autodock4 4.2.6 epdb on 1STP (atom at (16.884, 2.103, −8.662), grid centre
 *    (10.734, 2.033, −11.537)): vdW+Hbond column 23046.5125 = Electrostatic column =
 *    500 · 46.093025, and "Total Intermolecular Interaction Energy" counts both. Here:
 *    vdw_hb += 500 d², elec += 500 d², desolv += 0, total += 1000 d², c = origin +
 *    (n − 1)/2 · spacing. autodock4 also calls an atom exactly on a face outside (open
 *    interval); vsgrid.h's scoring closed interval is kept for every kernel, which differs only for a
 *    coordinate that equals a face bit for bit (and the batch's float coordinates do not
 *    reproduce autodock4's double ones to that precision anyway).
 *  - NaN coordinates: outside, counted, contribute 0 in both kinds (never a NaN total).
 *
 * AD4 inside the grid: map_type(r) + q·e(r) + |q|·d(r) (trilinterp.cc: elec += e·charge,
 * emap += m + d·abs_charge), which is what epdb prints as "Total Intermolecular Interaction
 * Energy" = "vdW + Hbond + desolv Energy" + "Electrostatic Energy". */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "grids/base/vsgrid.h"
#include "grids/formats/grid.h"

/* autodock/constants.h (4.2.6): ENERGYPENALTY, kcal/mol/Å², per outside atom and per total. */
#define AD4_ENERGY_PENALTY 500.0

/* ---- kernel names ---------------------------------------------------------------------- */

static const char *const kernel_names[VSG_KERNEL_COUNT] = {
    [VSG_KERNEL_AUTO] = "auto", [VSG_KERNEL_CPU] = "cpu",         [VSG_KERNEL_GM] = "gm",
    [VSG_KERNEL_ROI] = "roi",   [VSG_KERNEL_SM] = "sm",           [VSG_KERNEL_TM] = "tm",
    [VSG_KERNEL_ZIP] = "zip",   [VSG_KERNEL_ROI_TM_ZIP] = "roi-tm-zip", [VSG_KERNEL_ROI_SM_ZIP] = "roi-sm-zip",
};

const char *vsg_kernel_name(vsg_kernel k)
{
    return (int)k >= 0 && k < VSG_KERNEL_COUNT ? kernel_names[k] : "unknown";
}

vsg_kernel vsg_kernel_from_name(const char *name)
{
    if (!name) return VSG_KERNEL_COUNT;
    for (int k = 0; k < VSG_KERNEL_COUNT; k++)
        if (!strcmp(name, kernel_names[k])) return (vsg_kernel)k;
    return VSG_KERNEL_COUNT;
}

/* ---- grids from a vsgrid grid ---------------------------------------------------------- */

vsg_status vsg_score_grids_from_grid(const vsg_grid *grid, double temperature_k, vsg_score_grids *g)
{
    if (!grid || !g || !grid->data) return vsg_fail(VSG_E_ARG, "score grids: NULL argument");
    memset(g, 0, sizeof *g);
    double factor;
    if (!strcmp(grid->units, "kT/e")) {
        if (!(temperature_k > 0.0) || !isfinite(temperature_k))
            return vsg_fail(VSG_E_ARG, "score grids: temperature %g K must be > 0 for a kT/e grid", temperature_k);
        factor = vsg_kt_kcal(temperature_k);
    } else if (!strcmp(grid->units, "kcal/mol/e")) {
        factor = 1.0;
    } else {
        return vsg_fail(VSG_E_DATA, "score grids: grid units '%s' are not a potential (need kT/e or kcal/mol/e)",
                        grid->units);
    }
    for (int d = 0; d < 3; d++) {
        if (grid->n[d] < 2)
            return vsg_fail(VSG_E_DATA, "score grids: %d node(s) along %c, interpolation needs at least 2",
                            grid->n[d], "xyz"[d]);
        if (!(grid->spacing[d] > 0.0) || !isfinite(grid->origin[d]))
            return vsg_fail(VSG_E_DATA, "score grids: bad geometry along %c", "xyz"[d]);
    }
    g->kind = VSG_SCORE_ELEC;
    for (int d = 0; d < 3; d++) {
        g->n[d] = grid->n[d];
        g->origin[d] = grid->origin[d];
        g->spacing[d] = grid->spacing[d];
    }
    g->nmaps = 1;
    g->maps[0] = grid->data;
    g->e_map = 0;
    g->d_map = -1;
    g->elec_factor = factor;
    return VSG_OK;
}

/* ---- the twin ---------------------------------------------------------------------------- */

/* Where a point falls: the cell's first node (linear index) and the 8 corner weights. */
typedef struct {
    size_t base;
    double w[8];
} cell;

static int locate(const vsg_score_grids *g, double x, double y, double z, cell *c)
{
    const double p[3] = {x, y, z};
    int i0[3];
    double t[3];
    for (int d = 0; d < 3; d++) {
        double lo = g->origin[d], hi = g->origin[d] + (g->n[d] - 1) * g->spacing[d];
        if (!(p[d] >= lo && p[d] <= hi)) return 0; /* NaN fails too */
        double u = (p[d] - lo) / g->spacing[d];
        int i = (int)floor(u);
        if (i < 0) i = 0;
        if (i > g->n[d] - 2) i = g->n[d] - 2;
        i0[d] = i;
        t[d] = u - i;
    }
    size_t nx = (size_t)g->n[0], nxy = nx * (size_t)g->n[1];
    c->base = (size_t)i0[0] + nx * (size_t)i0[1] + nxy * (size_t)i0[2];
    for (int k = 0; k < 8; k++) {
        double wx = (k & 1) ? t[0] : 1.0 - t[0];
        double wy = (k & 2) ? t[1] : 1.0 - t[1];
        double wz = (k & 4) ? t[2] : 1.0 - t[2];
        c->w[k] = wx * wy * wz;
    }
    return 1;
}

static double interpolate(const vsg_score_grids *g, const float *map, const cell *c)
{
    size_t nx = (size_t)g->n[0], nxy = nx * (size_t)g->n[1];
    const size_t off[8] = {0, 1, nx, nx + 1, nxy, nxy + 1, nxy + nx, nxy + nx + 1};
    double v = 0.0;
    for (int k = 0; k < 8; k++) v += c->w[k] * (double)map[c->base + off[k]];
    return v;
}

static void score_ligand(const vsg_score_grids *g, const vsg_score_batch *b, size_t lig, vsg_score_result *r)
{
    double elec = 0.0, vdw_hb = 0.0, desolv = 0.0, penalty = 0.0;
    int outside = 0;
    double center[3];
    for (int d = 0; d < 3; d++) center[d] = g->origin[d] + 0.5 * (g->n[d] - 1) * g->spacing[d];
    for (size_t i = b->start[lig]; i < b->start[lig + 1]; i++) {
        double x = b->x[i], y = b->y[i], z = b->z[i], q = b->q[i];
        cell c;
        if (!locate(g, x, y, z, &c)) {
            outside++;
            if (g->kind == VSG_SCORE_AD4 && isfinite(x) && isfinite(y) && isfinite(z)) {
                double dx = x - center[0], dy = y - center[1], dz = z - center[2];
                penalty += AD4_ENERGY_PENALTY * (dx * dx + dy * dy + dz * dz);
            }
            continue;
        }
        elec += q * interpolate(g, g->maps[g->e_map], &c);
        if (g->kind == VSG_SCORE_AD4) {
            uint8_t t = b->type[i];
            if (t != VSG_SCORE_NO_TYPE) vdw_hb += interpolate(g, g->maps[t], &c);
            desolv += fabs(q) * interpolate(g, g->maps[g->d_map], &c);
        }
    }
    memset(r, 0, sizeof *r);
    r->outside = outside;
    if (g->kind == VSG_SCORE_ELEC) {
        r->elec = g->elec_factor * elec;
        r->total = r->elec;
    } else {
        r->elec = elec + penalty;     /* autodock4 adds the penalty to the electrostatic total */
        r->vdw_hb = vdw_hb + penalty; /* ... and to the map total */
        r->desolv = desolv;
        r->total = r->elec + r->vdw_hb + r->desolv;
    }
}

/* Rejects what would make the loop read out of bounds. */
static vsg_status validate(const vsg_score_grids *g, const vsg_score_batch *b)
{
    if (g->kind != VSG_SCORE_ELEC && g->kind != VSG_SCORE_AD4)
        return vsg_fail(VSG_E_ARG, "score: unknown grid kind %d", (int)g->kind);
    for (int d = 0; d < 3; d++)
        if (g->n[d] < 2 || !(g->spacing[d] > 0.0) || !isfinite(g->origin[d]) || !isfinite(g->spacing[d]))
            return vsg_fail(VSG_E_ARG, "score: bad grid geometry along %c (%d nodes, spacing %g)", "xyz"[d], g->n[d],
                            g->spacing[d]);
    if (g->nmaps < 1 || g->nmaps > VSG_SCORE_MAX_MAPS)
        return vsg_fail(VSG_E_ARG, "score: %d maps (1 to %d)", g->nmaps, VSG_SCORE_MAX_MAPS);
    for (int i = 0; i < g->nmaps; i++)
        if (!g->maps[i]) return vsg_fail(VSG_E_ARG, "score: map %d is NULL", i);
    if (g->e_map < 0 || g->e_map >= g->nmaps) return vsg_fail(VSG_E_ARG, "score: e_map %d out of range", g->e_map);
    if (g->kind == VSG_SCORE_AD4 && (g->d_map < 0 || g->d_map >= g->nmaps))
        return vsg_fail(VSG_E_ARG, "score: d_map %d out of range", g->d_map);
    if (b->nlig == 0) return VSG_OK;
    if (!b->start) return vsg_fail(VSG_E_ARG, "score: batch without ligand offsets");
    if (b->start[0] != 0 || b->start[b->nlig] != b->natoms)
        return vsg_fail(VSG_E_ARG, "score: ligand offsets must run from 0 to natoms (%zu), not %u to %u", b->natoms,
                        (unsigned)b->start[0], (unsigned)b->start[b->nlig]);
    for (size_t l = 0; l < b->nlig; l++)
        if (b->start[l + 1] < b->start[l])
            return vsg_fail(VSG_E_ARG, "score: ligand %zu has offsets %u > %u", l, (unsigned)b->start[l],
                            (unsigned)b->start[l + 1]);
    if (b->natoms == 0) return VSG_OK;
    if (!b->x || !b->y || !b->z || !b->q) return vsg_fail(VSG_E_ARG, "score: batch without coordinates or charges");
    if (g->kind == VSG_SCORE_AD4) {
        if (!b->type) return vsg_fail(VSG_E_ARG, "score: AD4 batch without atom types");
        for (size_t i = 0; i < b->natoms; i++) {
            uint8_t t = b->type[i];
            if (t != VSG_SCORE_NO_TYPE && ((int)t >= g->nmaps || (int)t == g->e_map || (int)t == g->d_map))
                return vsg_fail(VSG_E_ARG, "score: atom %zu has type index %d, not a type map (%d maps, e %d, d %d)",
                                i, (int)t, g->nmaps, g->e_map, g->d_map);
        }
    }
    return VSG_OK;
}

vsg_status vsg_score_cpu(const vsg_score_grids *g, const vsg_score_batch *b, vsg_score_result *out)
{
    if (!g || !b || (!out && b->nlig > 0)) return vsg_fail(VSG_E_ARG, "score: NULL argument");
    vsg_status st = validate(g, b);
    if (st != VSG_OK) return st;
    long long nlig = (long long)b->nlig;
#pragma omp parallel for schedule(dynamic, 16)
    for (long long l = 0; l < nlig; l++) score_ligand(g, b, (size_t)l, &out[l]);
    return VSG_OK;
}
