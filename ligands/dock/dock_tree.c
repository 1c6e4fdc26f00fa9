/* dock_tree.c — a docked ligand's conformation and what turns it into coordinates
 * (dock_internal.h): the torsion tree read from the record's bodies and rotors, the rigid move
 * of the root, the rotation of each subtree about its bond, and the chain rule that takes atom
 * gradients to position, orientation and torsion gradients (Vina's conf/change, in our words:
 * the orientation is a quaternion moved by rotation vectors, whose gradient is the torque). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ligands/dock/dock_internal.h"

void dock_tree_release(dock_tree *t)
{
    if (!t) return;
    free(t->axis);
    free(t->sub_start);
    free(t->sub);
    free(t->heavy);
    free(t->xyz_own);
    memset(t, 0, sizeof *t);
}

vsg_status dock_tree_build(const vsg_vina_ligand *l, const int *body, int nbodies, int nrotors, const int (*rotor)[2],
                           int root, dock_tree *t)
{
    memset(t, 0, sizeof *t);
    const int n = l->natoms;
    t->natoms = n;
    t->nlig = n;
    t->xyz0 = l->xyz;
    int *parent_rotor = malloc(sizeof(int) * (size_t)(nbodies > 0 ? nbodies : 1));
    int *order = malloc(sizeof(int) * (size_t)(nbodies > 0 ? nbodies : 1));
    int *bparent = malloc(sizeof(int) * (size_t)(nbodies > 0 ? nbodies : 1));
    t->axis = malloc(sizeof *t->axis * (size_t)(nrotors > 0 ? nrotors : 1));
    t->sub_start = calloc((size_t)nrotors + 1, sizeof(int));
    t->sub = malloc(sizeof(int) * (size_t)n * (size_t)(nrotors > 0 ? nrotors : 1));
    t->heavy = malloc(sizeof(int) * (size_t)n);
    char *in_sub = malloc((size_t)(nbodies > 0 ? nbodies : 1));
    vsg_status st = VSG_OK;
    if (!parent_rotor || !order || !bparent || !t->axis || !t->sub_start || !t->sub || !t->heavy || !in_sub) {
        st = vsg_fail(VSG_E_NOMEM, "dock: out of memory");
        goto done;
    }
    for (int b = 0; b < nbodies; b++) parent_rotor[b] = -2, bparent[b] = -1;
    /* breadth first from the root over the rotors; each rotor is oriented parent side first */
    int head = 0, tail = 0;
    order[tail++] = root;
    parent_rotor[root] = -1;
    while (head < tail) {
        const int b = order[head++];
        for (int r = 0; r < nrotors; r++) {
            int a = rotor[r][0], c = rotor[r][1];
            if (body[c] == b) a = rotor[r][1], c = rotor[r][0];
            if (body[a] != b || parent_rotor[body[c]] != -2) continue;
            const int k = t->nrot++;
            t->axis[k][0] = a, t->axis[k][1] = c;
            parent_rotor[body[c]] = k;
            bparent[body[c]] = b;
            order[tail++] = body[c];
        }
    }
    if (tail != nbodies || t->nrot != nrotors) {
        st = vsg_fail(VSG_E_DATA, "dock: the torsion tree is not connected (%d of %d bodies reached from the root)", tail,
                      nbodies);
        goto done;
    }
    /* subtree of each rotor: the bodies below its child body */
    for (int k = 0; k < t->nrot; k++) {
        const int c = body[t->axis[k][1]];
        for (int b = 0; b < nbodies; b++) {
            int x = b;
            while (x >= 0 && x != c) x = bparent[x];
            in_sub[b] = x == c;
        }
        t->sub_start[k + 1] = t->sub_start[k];
        for (int i = 0; i < n; i++)
            if (in_sub[body[i]]) t->sub[t->sub_start[k + 1]++] = i;
    }
    int nroot = 0;
    for (int d = 0; d < 3; d++) t->origin0[d] = 0;
    for (int i = 0; i < n; i++)
        if (body[i] == root) {
            for (int d = 0; d < 3; d++) t->origin0[d] += l->xyz[3 * i + d];
            nroot++;
        }
    for (int d = 0; d < 3; d++) t->origin0[d] /= nroot > 0 ? nroot : 1;
    double r2 = 0;
    for (int i = 0; i < n; i++)
        if (l->xs[i] != VSG_XS_NONE) {
            t->heavy[t->nheavy++] = i;
            for (int d = 0; d < 3; d++) r2 += (l->xyz[3 * i + d] - t->origin0[d]) * (l->xyz[3 * i + d] - t->origin0[d]);
        }
    t->gyration = t->nheavy ? sqrt(r2 / t->nheavy) : 0;
done:
    free(parent_rotor);
    free(order);
    free(bparent);
    free(in_sub);
    if (st != VSG_OK) dock_tree_release(t);
    return st;
}

void dock_quat_normalize(double q[4])
{
    double s = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    if (!(s > 0)) {
        q[0] = 1, q[1] = q[2] = q[3] = 0;
        return;
    }
    for (int i = 0; i < 4; i++) q[i] /= s;
}

/* 3×3 rotation matrix of a unit quaternion. */
static void quat_matrix(const double q[4], double m[9])
{
    const double w = q[0], x = q[1], y = q[2], z = q[3];
    m[0] = 1 - 2 * (y * y + z * z), m[1] = 2 * (x * y - w * z), m[2] = 2 * (x * z + w * y);
    m[3] = 2 * (x * y + w * z), m[4] = 1 - 2 * (x * x + z * z), m[5] = 2 * (y * z - w * x);
    m[6] = 2 * (x * z - w * y), m[7] = 2 * (y * z + w * x), m[8] = 1 - 2 * (x * x + y * y);
}

void dock_quat_rotate(const double q[4], const double v[3], double out[3])
{
    double m[9];
    quat_matrix(q, m);
    for (int r = 0; r < 3; r++) out[r] = m[3 * r] * v[0] + m[3 * r + 1] * v[1] + m[3 * r + 2] * v[2];
}

/* Rodrigues: rotation matrix of angle a about unit axis u. */
static void axis_matrix(const double u[3], double a, double m[9])
{
    const double c = cos(a), s = sin(a), t = 1 - c;
    m[0] = t * u[0] * u[0] + c, m[1] = t * u[0] * u[1] - s * u[2], m[2] = t * u[0] * u[2] + s * u[1];
    m[3] = t * u[0] * u[1] + s * u[2], m[4] = t * u[1] * u[1] + c, m[5] = t * u[1] * u[2] - s * u[0];
    m[6] = t * u[0] * u[2] - s * u[1], m[7] = t * u[1] * u[2] + s * u[0], m[8] = t * u[2] * u[2] + c;
}

void dock_conf_apply(const dock_tree *t, const dock_conf *c, double *xyz)
{
    memcpy(xyz, t->xyz0, sizeof *xyz * 3 * (size_t)t->natoms);
    /* torsions, deepest rotors first: their axes have not moved yet */
    for (int k = t->nrot - 1; k >= 0; k--) {
        const double a = c->tor[k];
        if (a == 0) continue;
        const double *pa = &xyz[3 * t->axis[k][0]], *pb = &xyz[3 * t->axis[k][1]];
        double u[3] = {pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2]};
        const double len = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
        if (!(len > 0)) continue;
        for (int d = 0; d < 3; d++) u[d] /= len;
        double m[9], o[3] = {pb[0], pb[1], pb[2]};
        axis_matrix(u, a, m);
        for (int s = t->sub_start[k]; s < t->sub_start[k + 1]; s++) {
            double *x = &xyz[3 * t->sub[s]];
            const double v[3] = {x[0] - o[0], x[1] - o[1], x[2] - o[2]};
            for (int r = 0; r < 3; r++) x[r] = o[r] + m[3 * r] * v[0] + m[3 * r + 1] * v[1] + m[3 * r + 2] * v[2];
        }
    }
    double m[9];
    quat_matrix(c->q, m);
    for (int i = 0; i < t->nlig; i++) { /* the ligand's atoms: flex residues have no rigid move */
        double *x = &xyz[3 * i];
        const double v[3] = {x[0] - t->origin0[0], x[1] - t->origin0[1], x[2] - t->origin0[2]};
        for (int r = 0; r < 3; r++) x[r] = c->pos[r] + m[3 * r] * v[0] + m[3 * r + 1] * v[1] + m[3 * r + 2] * v[2];
    }
}

void dock_conf_increment(const dock_tree *t, dock_conf *c, const double *d, double alpha)
{
    for (int k = 0; k < 3; k++) c->pos[k] += alpha * d[k];
    const double rv[3] = {alpha * d[3], alpha * d[4], alpha * d[5]};
    const double ang = sqrt(rv[0] * rv[0] + rv[1] * rv[1] + rv[2] * rv[2]);
    if (ang > 0) {
        const double s = sin(ang / 2) / ang;
        const double r[4] = {cos(ang / 2), rv[0] * s, rv[1] * s, rv[2] * s};
        const double *q = c->q;
        const double nq[4] = {r[0] * q[0] - r[1] * q[1] - r[2] * q[2] - r[3] * q[3],
                              r[0] * q[1] + r[1] * q[0] + r[2] * q[3] - r[3] * q[2],
                              r[0] * q[2] - r[1] * q[3] + r[2] * q[0] + r[3] * q[1],
                              r[0] * q[3] + r[1] * q[2] - r[2] * q[1] + r[3] * q[0]};
        memcpy(c->q, nq, sizeof nq);
        dock_quat_normalize(c->q);
    }
    for (int k = 0; k < t->nrot; k++) {
        double a = c->tor[k] + alpha * d[6 + k];
        a = fmod(a, 2 * 3.14159265358979323846); /* keep angles bounded (−2π, 2π) */
        c->tor[k] = a;
    }
}

static void cross_add(const double a[3], const double b[3], double out[3])
{
    out[0] += a[1] * b[2] - a[2] * b[1];
    out[1] += a[2] * b[0] - a[0] * b[2];
    out[2] += a[0] * b[1] - a[1] * b[0];
}

void dock_tree_gradient(const dock_tree *t, const dock_conf *c, const double *xyz, const double *g, double *out)
{
    const int n = t->nlig; /* position and orientation move the ligand's atoms only */
    for (int k = 0; k < 6 + t->nrot; k++) out[k] = 0;
    for (int i = 0; i < n; i++) {
        const double *gi = &g[3 * i];
        const double v[3] = {xyz[3 * i] - c->pos[0], xyz[3 * i + 1] - c->pos[1], xyz[3 * i + 2] - c->pos[2]};
        out[0] += gi[0], out[1] += gi[1], out[2] += gi[2];
        cross_add(v, gi, &out[3]);
    }
    for (int k = 0; k < t->nrot; k++) {
        const double *pa = &xyz[3 * t->axis[k][0]], *pb = &xyz[3 * t->axis[k][1]];
        double u[3] = {pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2]};
        const double len = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
        if (!(len > 0)) continue;
        double tq[3] = {0, 0, 0};
        for (int s = t->sub_start[k]; s < t->sub_start[k + 1]; s++) {
            const int i = t->sub[s];
            const double v[3] = {xyz[3 * i] - pb[0], xyz[3 * i + 1] - pb[1], xyz[3 * i + 2] - pb[2]};
            cross_add(v, &g[3 * i], tq);
        }
        out[6 + k] = (u[0] * tq[0] + u[1] * tq[1] + u[2] * tq[2]) / len;
    }
}
