/* hcp.c — builds the HCP hierarchy from a molecule's records and evaluates the surface
 * potential with it on the CPU (the twin of gpu/surface/surface_gpu.cu's HCP kernel). */
#include "grids/surface/hcp.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grids/base/vsgrid.h"
#include "grids/receptor/molecule.h"
#include "grids/base/textio.h"

static int same_residue(const vsg_atom *a, const vsg_atom *b)
{
    return a->model == b->model && a->segment == b->segment && a->chain == b->chain &&
           a->residue_number == b->residue_number && a->insertion_code == b->insertion_code &&
           strncmp(a->residue_name, b->residue_name, sizeof a->residue_name) == 0;
}
static int same_chain(const vsg_atom *a, const vsg_atom *b)
{
    return a->model == b->model && a->segment == b->segment && a->chain == b->chain;
}

/* Centre and the two approximate charges of a set of point charges given as x,y,z,q rows
 * (stride 4) — the atoms of a residue, or the approximate charges of a level below. */
typedef struct {
    double c[3], sp[3], sn[3], qp, qn;
    size_t n;
} accum;
static void acc_add(accum *s, const double *xyz, double q, int with_centre)
{
    if (with_centre) {
        for (int d = 0; d < 3; d++) s->c[d] += xyz[d];
        s->n++;
    }
    if (q > 0.0) {
        for (int d = 0; d < 3; d++) s->sp[d] += q * xyz[d];
        s->qp += q;
    } else if (q < 0.0) {
        for (int d = 0; d < 3; d++) s->sn[d] += q * xyz[d];
        s->qn += q;
    }
}
static void acc_finish(const accum *s, vsg_hcp_component *c)
{
    for (int d = 0; d < 3; d++) {
        c->c[d] = s->n ? s->c[d] / (double)s->n : 0.0;
        c->p[0][d] = s->qp != 0.0 ? s->sp[d] / s->qp : c->c[d];
        c->p[1][d] = s->qn != 0.0 ? s->sn[d] / s->qn : c->c[d];
    }
    c->q[0] = s->qp;
    c->q[1] = s->qn;
}

void vsg_hcp_free(vsg_hcp *h)
{
    if (!h) return;
    free(h->atom);
    free(h->atom_index);
    free(h->res);
    free(h->chain);
    free(h->cplx);
    free(h);
}

/* Where each level starts: bit 1 a new residue, 2 a new chain, 4 a new complex (nested: a new
 * complex starts a chain, a new chain a residue). From the records, or from group ids. */
static uint8_t *level_breaks(const vsg_molecule *m, const uint32_t *groups)
{
    uint8_t *brk = malloc(m->n ? m->n : 1);
    if (!brk) return NULL;
    for (size_t i = 0; i < m->n; i++) {
        uint8_t f = 0;
        if (i == 0) f = 7;
        else if (groups) {
            const uint32_t *g = &groups[3 * i], *p = &groups[3 * (i - 1)];
            f = (uint8_t)((g[0] != p[0]) | (g[1] != p[1]) << 1 | (g[2] != p[2]) << 2);
        } else {
            const vsg_atom *a = &m->atoms[i], *b = &m->atoms[i - 1];
            f = (uint8_t)((!same_residue(a, b)) | (!same_chain(a, b)) << 1 | (a->model != b->model) << 2);
        }
        if (f & 4) f |= 2;
        if (f & 2) f |= 1;
        brk[i] = f;
    }
    return brk;
}

vsg_status vsg_hcp_build(const vsg_molecule *m, vsg_hcp **out) { return vsg_hcp_build_grouped(m, NULL, out); }

vsg_status vsg_hcp_build_grouped(const vsg_molecule *m, const uint32_t *groups, vsg_hcp **out)
{
    *out = NULL;
    if (m->n == 0) return vsg_fail(VSG_E_DATA, "%s: no atoms", m->source);
    if (m->n > UINT32_MAX) return vsg_fail(VSG_E_LIMIT, "%s: too many atoms for HCP", m->source);
    vsg_hcp *h = calloc(1, sizeof *h);
    uint8_t *brk = level_breaks(m, groups);
    if (!h || !brk) {
        free(h), free(brk);
        return vsg_fail(VSG_E_NOMEM, "out of memory (HCP)");
    }
    size_t n = m->n, nres = 0, nchain = 0, ncplx = 0;
    for (size_t i = 0; i < n; i++) nres += brk[i] & 1, nchain += (brk[i] >> 1) & 1, ncplx += (brk[i] >> 2) & 1;
    h->natoms = n;
    h->atom = malloc(4 * n * sizeof *h->atom);
    h->atom_index = malloc(n * sizeof *h->atom_index);
    h->res = calloc(nres, sizeof *h->res);
    h->chain = calloc(nchain, sizeof *h->chain);
    h->cplx = calloc(ncplx, sizeof *h->cplx);
    if (!h->atom || !h->atom_index || !h->res || !h->chain || !h->cplx) {
        vsg_hcp_free(h);
        free(brk);
        return vsg_fail(VSG_E_NOMEM, "out of memory (HCP, %zu atoms)", n);
    }
    for (size_t i = 0; i < n; i++) {
        const vsg_atom *a = &m->atoms[i];
        h->atom[4 * i] = a->x, h->atom[4 * i + 1] = a->y, h->atom[4 * i + 2] = a->z;
        h->atom[4 * i + 3] = a->charge;
        h->atom_index[i] = (uint32_t)i;
    }
    /* Residues from atoms; chains from residues; complexes from chains. Approximate charges
     * of a higher level are built from the atoms (sums of the lower levels' sums), so each
     * level reproduces its atoms' monopole and dipole exactly. */
    size_t r = 0, c = 0, x = 0;
    accum ra = {0}, ca = {0}, xa = {0};
    for (size_t i = 0; i <= n; i++) {
        uint8_t f = i < n ? brk[i] : 7;
        int new_res = f & 1, new_chain = f & 2, new_cplx = f & 4;
        if (i && new_res) acc_finish(&ra, &h->res[r++]);
        if (i && new_chain) acc_finish(&ca, &h->chain[c++]);
        if (i && new_cplx) acc_finish(&xa, &h->cplx[x++]);
        if (i == n) break;
        const vsg_atom *a = &m->atoms[i];
        if (new_res) {
            memset(&ra, 0, sizeof ra);
            h->res[r].first = (uint32_t)i;
        }
        if (new_chain) {
            memset(&ca, 0, sizeof ca);
            h->chain[c].first = (uint32_t)r;
        }
        if (new_cplx) {
            memset(&xa, 0, sizeof xa);
            h->cplx[x].first = (uint32_t)c;
        }
        h->res[r].count++;
        if (new_res) h->chain[c].count++;
        if (new_chain) h->cplx[x].count++;
        double xyz[3] = {a->x, a->y, a->z};
        acc_add(&ra, xyz, a->charge, 1);
        acc_add(&ca, xyz, a->charge, 1);
        acc_add(&xa, xyz, a->charge, 1);
    }
    free(brk);
    h->nres = r, h->nchain = c, h->ncplx = x;
    *out = h;
    return VSG_OK;
}

/* Group file: one line per atom, in the molecule's order, "RESIDUE CHAIN COMPLEX" (any
 * labels without spaces); '#' starts a comment, blank lines are skipped. A component is a run of
 * consecutive atoms with the same label (so labels may repeat further on). */
vsg_status vsg_hcp_read_groups(const char *path, size_t natoms, uint32_t **out)
{
    *out = NULL;
    vsg_lines *in;
    vsg_status st = vsg_lines_open(path, &in);
    if (st != VSG_OK) return st;
    uint32_t *g = malloc(3 * (natoms ? natoms : 1) * sizeof *g);
    char prev[3][64] = {"", "", ""};
    size_t i = 0;
    char *line;
    size_t len;
    int r;
    if (!g) {
        vsg_lines_close(in);
        return vsg_fail(VSG_E_NOMEM, "out of memory");
    }
    while ((r = vsg_lines_next(in, &line, &len)) == 1) {
        vsg_token tok[4];
        size_t cut = len;
        for (size_t k = 0; k < len; k++)
            if (line[k] == '#') {
                cut = k;
                break;
            }
        int nt = vsg_tokenize(line, cut, tok, 4);
        if (nt == 0) continue;
        if (nt != 3) {
            st = vsg_fail(VSG_E_FORMAT, "%s:%d: expected 3 labels (residue chain complex), found %d", path,
                          vsg_lines_number(in), nt);
            break;
        }
        if (i == natoms) {
            st = vsg_fail(VSG_E_FORMAT, "%s:%d: more lines than the receptor's %zu atoms", path,
                          vsg_lines_number(in), natoms);
            break;
        }
        for (int k = 0; k < 3; k++) {
            char lab[64];
            size_t l = tok[k].n < sizeof lab - 1 ? tok[k].n : sizeof lab - 1;
            memcpy(lab, tok[k].s, l);
            lab[l] = '\0';
            uint32_t id = i ? g[3 * (i - 1) + k] : 0;
            g[3 * i + k] = (i && strcmp(lab, prev[k]) != 0) ? id + 1 : id;
            memcpy(prev[k], lab, l + 1);
        }
        i++;
    }
    if (r < 0 && st == VSG_OK) st = (vsg_status)r;
    if (st == VSG_OK && i != natoms)
        st = vsg_fail(VSG_E_FORMAT, "%s: %zu lines for %zu atoms (one line per atom, in order)", path, i, natoms);
    vsg_lines_close(in);
    if (st != VSG_OK) {
        free(g);
        return st;
    }
    *out = g;
    return VSG_OK;
}

static double dist(const double *a, const double *b)
{
    double dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2];
    return sqrt(dx * dx + dy * dy + dz * dz);
}

/* The potential of a component's approximate charges at p (and p' for salt). */
static double approx(const vsg_alpb *k, const vsg_hcp_component *c, const double *p, const double *pp,
                     long *pairs)
{
    double s = 0.0;
    for (int j = 0; j < 2; j++)
        if (c->q[j] != 0.0) {
            s += c->q[j] * vsg_alpb_pair(k, dist(p, c->p[j]), dist(pp, c->p[j]));
            (*pairs)++;
        }
    return s;
}

static double residue_exact(const vsg_hcp *h, const vsg_alpb *k, const vsg_hcp_component *res,
                            const double *p, const double *pp, long *pairs)
{
    double s = 0.0;
    for (uint32_t i = res->first; i < res->first + res->count; i++) {
        const double *a = &h->atom[4 * i];
        if (a[3] == 0.0) continue;
        s += a[3] * vsg_alpb_pair(k, dist(p, a), dist(pp, a));
    }
    *pairs += res->count; /* counted as the GPU kernel evaluates them: every atom of the residue */
    return s;
}

vsg_status vsg_hcp_potential_cpu(const vsg_hcp *h, const vsg_alpb *k, const vsg_mesh *mesh,
                                 const double thr[3], double *phi, double *pairs_out)
{
    const long nv = (long)mesh->nvert;
    double total = 0.0;
#pragma omp parallel for schedule(dynamic, 64) reduction(+ : total)
    for (long v = 0; v < nv; v++) {
        double p[3], pp[3], s = 0.0;
        long pairs = 0;
        vsg_alpb_points(k, mesh, (size_t)v, p, pp);
        for (size_t x = 0; x < h->ncplx; x++) {
            const vsg_hcp_component *cx = &h->cplx[x];
            if (dist(p, cx->c) >= thr[2]) {
                s += approx(k, cx, p, pp, &pairs);
                continue;
            }
            for (uint32_t c = cx->first; c < cx->first + cx->count; c++) {
                const vsg_hcp_component *ch = &h->chain[c];
                if (dist(p, ch->c) >= thr[1]) {
                    s += approx(k, ch, p, pp, &pairs);
                    continue;
                }
                for (uint32_t r = ch->first; r < ch->first + ch->count; r++) {
                    const vsg_hcp_component *re = &h->res[r];
                    if (dist(p, re->c) >= thr[0])
                        s += approx(k, re, p, pp, &pairs);
                    else
                        s += residue_exact(h, k, re, p, pp, &pairs);
                }
            }
        }
        phi[v] = k->coulomb * s;
        total += (double)pairs;
    }
    if (pairs_out) *pairs_out = total;
    return VSG_OK;
}

double vsg_relative_rms(const double *a, const double *b, size_t n)
{
    double num = 0.0, den = 0.0;
    for (size_t i = 0; i < n; i++) {
        double d = a[i] - b[i];
        num += d * d;
        den += b[i] * b[i];
    }
    return den > 0.0 ? sqrt(num / den) : (num > 0.0 ? INFINITY : 0.0);
}
