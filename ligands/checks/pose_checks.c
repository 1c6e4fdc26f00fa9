/* pose_checks.c — PoseBusters' checks of a ligand pose (vsgrid.h, "pose checks as PoseBusters
 * makes them"; tolerances and their sources in ligands/checks/pose_checks.h): the reference's
 * topology (pose_topology.c) measured on the pose's coordinates, the receptor's heavy atoms
 * around it and the box. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ligands/bond_infer.h"
#include "ligands/checks/pose_checks.h"

/* RDKit's periodic table, Rvdw column (Blue Obelisk), for the elements ligands and receptors
 * carry; 2.0 Å for others, as RDKit's default. */
static const struct { const char *e; double r; } vdw[] = {
    {"H", 1.2},   {"D", 1.2},   {"B", 1.8},  {"C", 1.7},  {"N", 1.6},   {"O", 1.55},  {"F", 1.5},  {"Na", 2.4},
    {"Mg", 2.2},  {"Al", 2.1},  {"Si", 2.1}, {"P", 1.95}, {"S", 1.8},   {"Cl", 1.8},  {"K", 2.8},  {"Ca", 2.4},
    {"Mn", 2.05}, {"Fe", 2.05}, {"Co", 2.0}, {"Ni", 2.0}, {"Cu", 2.0},  {"Zn", 2.1},  {"As", 2.05}, {"Se", 1.9},
    {"Br", 1.9},  {"Cd", 2.2},  {"I", 2.1},  {"Hg", 2.05}};

double vsg_pc_vdw_radius(const char *element)
{
    for (size_t k = 0; k < sizeof vdw / sizeof vdw[0]; k++)
        if (!strcmp(element, vdw[k].e)) return vdw[k].r;
    return 2.0;
}

int vsg_pc_is_metal(const char *element)
{
    static const char *const metals[] = {"Li", "Na", "K",  "Mg", "Ca", "Mn", "Fe", "Co", "Ni", "Cu",
                                         "Zn", "Cd", "Hg", "Sr", "Ba", "Al", "Pt", "Cs", "Rb"};
    for (size_t k = 0; k < sizeof metals / sizeof metals[0]; k++)
        if (!strcmp(element, metals[k])) return 1;
    return 0;
}

int vsg_pc_is_hydrogen(const vsg_lig_atom *a)
{
    return !strcmp(a->element, "H") || !strcmp(a->element, "D") || !strcmp(a->ad_type, "HD") ||
           !strcmp(a->ad_type, "H") || !strcmp(a->ad_type, "HS");
}

static int have(const double *xyz, int i) { return isfinite(xyz[3 * i]) && isfinite(xyz[3 * i + 1]) && isfinite(xyz[3 * i + 2]); }

static double dist(const double *xyz, int a, int b)
{
    double dx = xyz[3 * a] - xyz[3 * b], dy = xyz[3 * a + 1] - xyz[3 * b + 1], dz = xyz[3 * a + 2] - xyz[3 * b + 2];
    return sqrt(dx * dx + dy * dy + dz * dz);
}

/* Eigenvector of the smallest eigenvalue of a symmetric 3×3 matrix (cyclic Jacobi). */
static void smallest_axis(double m[3][3], double out[3])
{
    double v[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    for (int sweep = 0; sweep < 50; sweep++) {
        double off = fabs(m[0][1]) + fabs(m[0][2]) + fabs(m[1][2]);
        if (off < 1e-15) break;
        for (int p = 0; p < 2; p++)
            for (int q = p + 1; q < 3; q++) {
                if (fabs(m[p][q]) < 1e-300) continue;
                double theta = (m[q][q] - m[p][p]) / (2 * m[p][q]);
                double t = (theta >= 0 ? 1.0 : -1.0) / (fabs(theta) + sqrt(theta * theta + 1));
                double c = 1 / sqrt(t * t + 1), s = t * c;
                for (int k = 0; k < 3; k++) { /* m ← Jᵀ m J */
                    double mkp = m[k][p], mkq = m[k][q];
                    m[k][p] = c * mkp - s * mkq, m[k][q] = s * mkp + c * mkq;
                }
                for (int k = 0; k < 3; k++) {
                    double mpk = m[p][k], mqk = m[q][k];
                    m[p][k] = c * mpk - s * mqk, m[q][k] = s * mpk + c * mqk;
                }
                for (int k = 0; k < 3; k++) {
                    double vkp = v[k][p], vkq = v[k][q];
                    v[k][p] = c * vkp - s * vkq, v[k][q] = s * vkp + c * vkq;
                }
            }
    }
    int best = 0;
    for (int k = 1; k < 3; k++)
        if (m[k][k] < m[best][best]) best = k;
    for (int k = 0; k < 3; k++) out[k] = v[k][best];
}

double vsg_pc_plane_deviation(const double *xyz, const int *atom, int n)
{
    double cen[3] = {0, 0, 0}, m[3][3] = {{0}}, axis[3], worst = 0;
    for (int k = 0; k < n; k++) {
        if (!have(xyz, atom[k])) return -1;
        for (int d = 0; d < 3; d++) cen[d] += xyz[3 * atom[k] + d] / n;
    }
    for (int k = 0; k < n; k++)
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++)
                m[a][b] += (xyz[3 * atom[k] + a] - cen[a]) * (xyz[3 * atom[k] + b] - cen[b]);
    smallest_axis(m, axis);
    for (int k = 0; k < n; k++) {
        double d = 0;
        for (int a = 0; a < 3; a++) d += (xyz[3 * atom[k] + a] - cen[a]) * axis[a];
        if (fabs(d) > worst) worst = fabs(d);
    }
    return worst;
}

void vsg_pc_receptor_free(vsg_pc_receptor *r)
{
    if (!r) return;
    free(r->rec_xyz), free(r->rec_r), free(r->rec_metal);
    free(r);
}

vsg_status vsg_pc_receptor_new(const vsg_molecule *receptor, const double box_lo[3], const double box_hi[3],
                               double reach, vsg_pc_receptor **out)
{
    if (out) *out = NULL;
    if (!receptor || !out) return vsg_fail(VSG_E_ARG, "vsg_pc_receptor_new: NULL argument");
    const size_t n = vsg_molecule_atom_count(receptor);
    vsg_pc_receptor *r = calloc(1, sizeof *r);
    if (!r) return vsg_fail(VSG_E_NOMEM, "out of memory for pose checks");
    r->rec_xyz = malloc((n + 1) * 3 * sizeof *r->rec_xyz);
    r->rec_r = malloc((n + 1) * sizeof *r->rec_r);
    r->rec_metal = malloc(n + 1);
    if (!r->rec_xyz || !r->rec_r || !r->rec_metal) {
        vsg_pc_receptor_free(r);
        return vsg_fail(VSG_E_NOMEM, "out of memory for a receptor of %zu atoms", n);
    }
    for (size_t i = 0; i < n; i++) {
        vsg_atom_info ai;
        if (vsg_molecule_atom(receptor, i, &ai) != VSG_OK) continue;
        if (box_lo && box_hi && (ai.x < box_lo[0] - reach || ai.x > box_hi[0] + reach || ai.y < box_lo[1] - reach ||
                                 ai.y > box_hi[1] + reach || ai.z < box_lo[2] - reach || ai.z > box_hi[2] + reach))
            continue;
        char el[3];
        snprintf(el, sizeof el, "%s", ai.element);
        if (!el[0]) { /* no element column: from the AutoDock type or the name */
            const char *s = ai.ad_type[0] ? ai.ad_type : ai.name;
            while (*s == ' ' || (*s >= '0' && *s <= '9')) s++;
            el[0] = *s, el[1] = 0;
        }
        if (!strcmp(el, "H") || !strcmp(el, "D") || !strcmp(ai.ad_type, "HD") || !strcmp(ai.ad_type, "H")) continue;
        r->rec_xyz[3 * r->nrec] = ai.x, r->rec_xyz[3 * r->nrec + 1] = ai.y, r->rec_xyz[3 * r->nrec + 2] = ai.z;
        r->rec_metal[r->nrec] = (unsigned char)vsg_pc_is_metal(el);
        r->rec_r[r->nrec++] = vsg_pc_is_metal(el) ? vsg_covalent_radius(el) : vsg_pc_vdw_radius(el);
    }
    *out = r;
    return VSG_OK;
}

void vsg_pose_checker_free(vsg_pose_checker *c)
{
    if (!c) return;
    free(c->bond), free(c->angle), free(c->pair), free(c->ring), free(c->dbl), free(c->centre), free(c->heavy);
    free(c->lig_r), free(c->lig_cov);
    vsg_pc_receptor_free(c->rec_own);
    free(c);
}

vsg_status vsg_pc_checker_new_shared(const vsg_ligand *reference, const vsg_pc_receptor *rec, vsg_pose_checker **out)
{
    if (out) *out = NULL;
    if (!reference || !out) return vsg_fail(VSG_E_ARG, "vsg_pose_checker_new: NULL argument");
    if (reference->natoms < 1 || !reference->atoms)
        return vsg_fail(VSG_E_DATA, "pose checks: the reference has no atoms");
    if (reference->natoms > 20000)
        return vsg_fail(VSG_E_LIMIT, "pose checks: the reference has %d atoms (at most 20000)", reference->natoms);
    for (int i = 0; i < reference->natoms; i++) {
        const vsg_lig_atom *a = &reference->atoms[i];
        if (!isfinite(a->x) || !isfinite(a->y) || !isfinite(a->z))
            return vsg_fail(VSG_E_DATA, "pose checks: reference atom %d has no coordinates", i + 1);
    }
    vsg_pose_checker *c = calloc(1, sizeof *c);
    if (!c) return vsg_fail(VSG_E_NOMEM, "out of memory for pose checks");
    c->natoms = reference->natoms;
    c->rec = rec;
    vsg_status st = vsg_pc_topology(c, reference);
    if (st == VSG_E_NOMEM) vsg_fail(st, "out of memory for the pose checks of a %d-atom ligand", c->natoms);
    if (st == VSG_OK && (!(c->lig_r = malloc((size_t)(c->nheavy + 1) * sizeof *c->lig_r)) ||
                         !(c->lig_cov = malloc((size_t)(c->nheavy + 1) * sizeof *c->lig_cov))))
        st = vsg_fail(VSG_E_NOMEM, "out of memory for pose checks");
    for (int h = 0; st == VSG_OK && h < c->nheavy; h++) {
        const char *el = reference->atoms[c->heavy[h]].element;
        c->lig_r[h] = vsg_pc_is_metal(el) ? vsg_covalent_radius(el) : vsg_pc_vdw_radius(el);
        c->lig_cov[h] = vsg_covalent_radius(el);
    }
    if (st != VSG_OK) return vsg_pose_checker_free(c), st;
    *out = c;
    return VSG_OK;
}

vsg_status vsg_pose_checker_new(const vsg_ligand *reference, const vsg_molecule *receptor, vsg_pose_checker **out)
{
    vsg_pc_receptor *rec = NULL;
    vsg_status st = vsg_pc_checker_new_shared(reference, NULL, out);
    if (st == VSG_OK && receptor && (st = vsg_pc_receptor_new(receptor, NULL, NULL, 0, &rec)) != VSG_OK) {
        vsg_pose_checker_free(*out);
        *out = NULL;
        return st;
    }
    if (st == VSG_OK) (*out)->rec = (*out)->rec_own = rec;
    return st;
}

int vsg_pose_checker_atoms(const vsg_pose_checker *c) { return c ? c->natoms : 0; }

static int state(int ran, int bad) { return !ran ? VSG_CHECK_NOT_RUN : bad ? VSG_CHECK_FAIL : VSG_CHECK_PASS; }

vsg_status vsg_pose_checker_run(const vsg_pose_checker *c, const double *xyz, const double box_lo[3],
                                const double box_hi[3], vsg_pose_check_result *r)
{
    if (!c || !xyz || !r) return vsg_fail(VSG_E_ARG, "vsg_pose_checker_run: NULL argument");
    memset(r, 0, sizeof *r);
    r->bond_ratio = 1, r->internal_ratio = INFINITY, r->receptor_ratio = INFINITY, r->receptor_distance = INFINITY;
    /* bond lengths */
    for (int k = 0; k < c->nbonds; k++) {
        const vsg_pc_pair *b = &c->bond[k];
        if (!have(xyz, b->a) || !have(xyz, b->b)) continue;
        double d = dist(xyz, b->a, b->b), lo = b->d0 - VSG_PC_DIST12_DELTA, hi = b->d0 + VSG_PC_DIST12_DELTA;
        double err = d < lo ? (lo - d) / lo : d > hi ? (d - hi) / hi : 0;
        r->nbonds++;
        r->bad_bonds += err > VSG_PC_BAD_BOND;
        if (b->d0 > 0 && fabs(d / b->d0 - 1) > fabs(r->bond_ratio - 1)) r->bond_ratio = d / b->d0;
    }
    r->bond_lengths = state(r->nbonds, r->bad_bonds);
    /* bond angles: the 1-3 distance within its bounds, and the angle itself for the report */
    for (int k = 0; k < c->nangles; k++) {
        const vsg_pc_angle *a = &c->angle[k];
        if (!have(xyz, a->a) || !have(xyz, a->b) || !have(xyz, a->j)) continue;
        double d = dist(xyz, a->a, a->b), lo = a->d0 - VSG_PC_DIST13_TOL, hi = a->d0 + VSG_PC_DIST13_TOL;
        double err = d < lo ? (lo - d) / lo : d > hi ? (d - hi) / hi : 0;
        double u[3], v[3], nu = 0, nv = 0, dot = 0;
        for (int q = 0; q < 3; q++) {
            u[q] = xyz[3 * a->a + q] - xyz[3 * a->j + q], v[q] = xyz[3 * a->b + q] - xyz[3 * a->j + q];
            nu += u[q] * u[q], nv += v[q] * v[q], dot += u[q] * v[q];
        }
        double cs = nu > 0 && nv > 0 ? dot / sqrt(nu * nv) : 1;
        double theta = acos(cs > 1 ? 1 : cs < -1 ? -1 : cs) * 180.0 / 3.14159265358979323846;
        r->nangles++;
        r->bad_angles += err > VSG_PC_BAD_ANGLE;
        if (fabs(theta - a->theta0) > r->angle_deviation) r->angle_deviation = fabs(theta - a->theta0);
    }
    r->bond_angles = state(r->nangles, r->bad_angles);
    /* flatness */
    for (int k = 0; k < c->nrings; k++) {
        double d = vsg_pc_plane_deviation(xyz, c->ring[k].atom, c->ring[k].n);
        if (d < 0) continue;
        r->nrings++;
        r->bad_rings += d > VSG_PC_FLATNESS;
        if (d > r->ring_deviation) r->ring_deviation = d;
    }
    r->aromatic_flatness = state(r->nrings, r->bad_rings);
    for (int k = 0; k < c->ndouble; k++) {
        double d = vsg_pc_plane_deviation(xyz, c->dbl[k].atom, c->dbl[k].n);
        if (d < 0) continue;
        r->ndouble++;
        r->bad_double += d > VSG_PC_FLATNESS;
        if (d > r->double_bond_deviation) r->double_bond_deviation = d;
    }
    r->double_bond_flatness = state(r->ndouble, r->bad_double);
    /* tetrahedral stereo: each centre's handedness kept (a flattened centre has lost it) */
    for (int k = 0; k < c->ncentres; k++) {
        const vsg_pc_centre *s = &c->centre[k];
        int i = s->centre;
        if (!have(xyz, i) || !have(xyz, s->nb[0]) || !have(xyz, s->nb[1]) || !have(xyz, s->nb[2])) continue;
        double u[3][3], n[3];
        for (int m = 0; m < 3; m++) {
            double len = 0;
            for (int q = 0; q < 3; q++) u[m][q] = xyz[3 * s->nb[m] + q] - xyz[3 * i + q], len += u[m][q] * u[m][q];
            n[m] = sqrt(len);
        }
        double cx = u[1][1] * u[2][2] - u[1][2] * u[2][1], cy = u[1][2] * u[2][0] - u[1][0] * u[2][2],
               cz = u[1][0] * u[2][1] - u[1][1] * u[2][0];
        double v = n[0] > 0 && n[1] > 0 && n[2] > 0 ? (u[0][0] * cx + u[0][1] * cy + u[0][2] * cz) / (n[0] * n[1] * n[2]) : 0;
        r->ncentres++;
        r->inverted += v * s->sign < VSG_PC_CHIRAL_FLAT;
    }
    r->stereo = state(r->ncentres, r->inverted);
    /* internal clashes */
    for (int k = 0; k < c->npairs; k++) {
        const vsg_pc_nonbonded *p = &c->pair[k];
        if (!have(xyz, p->a) || !have(xyz, p->b) || !(p->lb > 0)) continue;
        double ratio = dist(xyz, p->a, p->b) / p->lb;
        r->npairs++;
        r->internal_clashes += ratio < 1.0 - VSG_PC_CLASH;
        if (ratio < r->internal_ratio) r->internal_ratio = ratio;
    }
    r->internal_clash = state(r->npairs, r->internal_clashes);
    if (!r->npairs) r->internal_ratio = NAN;
    /* the receptor: clashes and distance */
    int placed = 0;
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (int h = 0; h < c->nheavy; h++) {
        int i = c->heavy[h];
        if (!have(xyz, i)) continue;
        placed++;
        for (int q = 0; q < 3; q++) {
            if (xyz[3 * i + q] < lo[q]) lo[q] = xyz[3 * i + q];
            if (xyz[3 * i + q] > hi[q]) hi[q] = xyz[3 * i + q];
        }
    }
    if (c->rec && placed) {
        const vsg_pc_receptor *R = c->rec;
        const double reach = 8.0; /* beyond every clash and the 5 Å distance check */
        for (int j = 0; j < R->nrec; j++) {
            const double *p = &R->rec_xyz[3 * j];
            if (p[0] < lo[0] - reach || p[0] > hi[0] + reach || p[1] < lo[1] - reach || p[1] > hi[1] + reach ||
                p[2] < lo[2] - reach || p[2] > hi[2] + reach)
                continue;
            for (int h = 0; h < c->nheavy; h++) {
                int i = c->heavy[h];
                if (!have(xyz, i)) continue;
                double dx = xyz[3 * i] - p[0], dy = xyz[3 * i + 1] - p[1], dz = xyz[3 * i + 2] - p[2];
                double d = sqrt(dx * dx + dy * dy + dz * dz);
                double ratio = d / (R->rec_metal[j] ? c->lig_cov[h] + R->rec_r[j] : c->lig_r[h] + R->rec_r[j]);
                if (d < r->receptor_distance) r->receptor_distance = d;
                if (ratio < r->receptor_ratio) r->receptor_ratio = ratio;
                r->receptor_clashes += ratio < VSG_PC_RECEPTOR_CLASH;
            }
        }
        r->receptor_clash = state(1, r->receptor_clashes);
        r->near_receptor = state(1, !(r->receptor_distance <= VSG_PC_MAX_DISTANCE));
    } else {
        r->receptor_clash = r->near_receptor = VSG_CHECK_NOT_RUN;
        r->receptor_ratio = r->receptor_distance = NAN;
    }
    /* the box */
    if (box_lo && box_hi) {
        for (int h = 0; h < c->nheavy; h++) {
            int i = c->heavy[h];
            if (!have(xyz, i)) continue;
            int out = 0;
            for (int q = 0; q < 3; q++) out |= xyz[3 * i + q] < box_lo[q] - 1e-9 || xyz[3 * i + q] > box_hi[q] + 1e-9;
            r->atoms_outside += out;
        }
        r->inside_box = state(1, r->atoms_outside);
    } else {
        r->inside_box = VSG_CHECK_NOT_RUN;
        r->atoms_outside = -1;
    }
    int checks[] = {r->bond_lengths, r->bond_angles, r->aromatic_flatness, r->double_bond_flatness, r->stereo,
                    r->internal_clash, r->receptor_clash, r->near_receptor, r->inside_box};
    r->valid = placed > 0;
    for (size_t k = 0; k < sizeof checks / sizeof checks[0]; k++) r->valid &= checks[k] != VSG_CHECK_FAIL;
    return VSG_OK;
}

vsg_status vsg_pose_checks(const vsg_ligand *reference, const double *pose_xyz, const vsg_molecule *receptor,
                           const double box_lo[3], const double box_hi[3], vsg_pose_check_result *out)
{
    if (!reference || !pose_xyz || !out) return vsg_fail(VSG_E_ARG, "vsg_pose_checks: NULL argument");
    vsg_pose_checker *c = NULL;
    vsg_status st = vsg_pose_checker_new(reference, receptor, &c);
    if (st == VSG_OK) st = vsg_pose_checker_run(c, pose_xyz, box_lo, box_hi, out);
    vsg_pose_checker_free(c);
    return st;
}

const char *vsg_check_state_name(int s)
{
    return s == VSG_CHECK_PASS ? "pass" : s == VSG_CHECK_FAIL ? "fail" : "not_run";
}
