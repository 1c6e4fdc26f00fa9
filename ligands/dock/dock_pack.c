/* dock_pack.c — prepared records into the GPU search's batch (dock_pack.h, dock_gpu.h's
 * layout): bodies renumbered so that the root is 0 and rotor k's child is k + 1, atoms ordered by
 * body, intramolecular pairs listed from both ends with their XS type pair's table row (then the
 * macrocycle glue pairs, with the glue row), each rotor's axis and point in the input frame. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ligands/dock/dock_pack.h"

void dock_pack_release(dock_gpu_batch *b)
{
    if (!b) return;
    free(b->rec), free(b->record_of), free(b->atom_xyz), free(b->atom_type), free(b->atom_body);
    free(b->body_start), free(b->partner_start), free(b->partner), free(b->rotor), free(b->rotor_axis);
    free(b->rotor_point), free(b->work);
    free(b->atom_charge), free(b->atom_heavy), free(b->partner_coef), free(b->vdw_table);
    memset(b, 0, sizeof *b);
}

/* What a record brings to the batch, whichever function it is docked with. */
typedef struct {
    const dock_tree *t;
    const int *body;                 /* the torsions' body of each model atom */
    int nbodies, root;
    int steps, local_steps;
    const vsg_vina_ligand *L;        /* Vina: XS types, pairs, glue pairs */
    uint32_t glue_row;
    const struct dock_ad4 *A;        /* AutoDock4: map types, charges, pairs and tables */
    uint64_t seed;
    const dock_flex_energy *fe;      /* Vina with flexible side chains (their atoms after the ligand's,
                                        t->nlig of them the ligand's): their pairs, movable atoms, tree */
} pack_src;

static int src_pairs(const pack_src *r)
{
    if (r->A) return r->A->intra.npairs;
    return r->L->npairs + r->L->nglue + (r->fe ? r->fe->nlf + r->fe->f->L->npairs : 0);
}

static vsg_status pack_all(const pack_src *src, int nrec, int ad4, const vsg_dock_params *P, dock_gpu_batch *b);

vsg_status dock_pack(const dock_prep *prep, const char *use, int n, const uint64_t *seed, const vsg_dock_params *P,
                     dock_gpu_batch *b)
{
    memset(b, 0, sizeof *b);
    pack_src *src = calloc((size_t)n + 1, sizeof *src);
    if (!src) return vsg_fail(VSG_E_NOMEM, "dock: out of memory");
    int nrec = 0;
    for (int i = 0; i < n; i++) {
        if (!use[i]) continue;
        const dock_prep *d = &prep[i];
        src[nrec++] = (pack_src){&d->tree, d->tor.body, d->tor.nbodies, d->root, d->steps, d->local_steps, d->L,
                                 DOCK_GPU_GLUE_ROW + (d->en.t->tables.sf == VSG_VINA_SCORING_VINARDO ? 1u : 0u), NULL, seed[i],
                                 d->flex ? &d->fe : NULL};
    }
    vsg_status st = pack_all(src, nrec, 0, P, b);
    /* record_of: the caller's index of each packed record */
    for (int i = 0, k = 0; st == VSG_OK && i < n; i++)
        if (use[i]) b->record_of[k++] = i;
    free(src);
    return st;
}

vsg_status dock_pack_ad4(const dock_ad4_prep *d, uint64_t seed, const vsg_dock_params *P, dock_gpu_batch *b)
{
    memset(b, 0, sizeof *b);
    const pack_src src = {&d->tree, d->tor.body, d->tor.nbodies, 0, d->steps, d->local_steps, d->L, 0, &d->A, seed, NULL};
    return pack_all(&src, 1, 1, P, b);
}

/* ad4: the records are for the AutoDock4 function (each src's A set), else Vina's; one a batch. */
static vsg_status pack_all(const pack_src *src, int n, int ad4, const vsg_dock_params *P, dock_gpu_batch *b)
{
    b->random_start = P->random_start;
    b->focus_chains = P->focus_chains;
    b->keep = P->chain_keep < 1 ? 1 : P->chain_keep > DOCK_GPU_MAX_KEEP ? DOCK_GPU_MAX_KEEP : P->chain_keep;
    b->min_rmsd = (float)P->min_rmsd;
    b->focus_amplitude = P->focus_amplitude; /* resolved: 0 is 1 */
    int nrec = n, natoms = 0, nrot = 0, npart = 0, nvdw = 0, flex = 0;
    for (int i = 0; i < n; i++) {
        flex |= src[i].fe != NULL;
        natoms += src[i].t->natoms;
        nrot += src[i].t->nrot;
        npart += 2 * src_pairs(&src[i]);
        if (ad4) nvdw += src[i].A->intra.nvdw;
    }
    b->rec = calloc((size_t)nrec + 1, sizeof *b->rec);
    b->record_of = malloc(sizeof(int) * ((size_t)nrec + 1));
    b->atom_xyz = malloc(sizeof(float) * 3 * ((size_t)natoms + 1));
    b->atom_type = malloc((size_t)natoms + 1);
    b->atom_body = malloc((size_t)natoms + 1);
    b->body_start = malloc(sizeof(int) * ((size_t)nrot + 3 * (size_t)nrec + 1)); /* + a fixed body a record */
    b->partner_start = malloc(sizeof(int) * ((size_t)natoms + (size_t)nrec + 1));
    b->partner = malloc(sizeof(uint32_t) * ((size_t)npart + 1));
    b->rotor = malloc(sizeof(int) * 4 * ((size_t)nrot + 1));
    b->rotor_axis = malloc(sizeof(float) * 3 * ((size_t)nrot + 1));
    b->rotor_point = malloc(sizeof(float) * 3 * ((size_t)nrot + 1));
    b->work = malloc((size_t)32 * ((size_t)natoms + 32 * (size_t)nrec + 1));
    if (ad4 || flex) b->atom_heavy = calloc((size_t)natoms + 1, 1);
    if (ad4) {
        b->atom_charge = malloc(sizeof(float) * ((size_t)natoms + 1));
        b->partner_coef = malloc(sizeof(float) * 2 * ((size_t)npart + 1));
        b->vdw_table = malloc(sizeof(float) * DOCK_GPU_AD4_VDW_SAMPLES * ((size_t)nvdw + 1));
    }
    int maxa = 0;
    for (int i = 0; i < n; i++)
        if (src[i].t->natoms > maxa) maxa = src[i].t->natoms;
    int *newbody = malloc(sizeof(int) * ((size_t)maxa + DOCK_GPU_MAX_ROTORS + 2));
    int *perm = malloc(sizeof(int) * ((size_t)maxa + 1)), *inv = malloc(sizeof(int) * ((size_t)maxa + 1));
    int *deg = malloc(sizeof(int) * ((size_t)maxa + 1));
    int *cbody = flex ? malloc(sizeof(int) * ((size_t)maxa + 1)) : NULL; /* ligand and flex residues' bodies */
    if (!b->rec || !b->record_of || !b->atom_xyz || !b->atom_type || !b->atom_body || !b->body_start ||
        !b->partner_start || !b->partner || !b->rotor || !b->rotor_axis || !b->rotor_point || !b->work || !newbody || !perm || !inv ||
        !deg || (ad4 && (!b->atom_charge || !b->atom_heavy || !b->partner_coef || !b->vdw_table)) ||
        (flex && (!cbody || !b->atom_heavy))) {
        free(newbody), free(perm), free(inv), free(deg), free(cbody);
        dock_pack_release(b);
        return vsg_fail(VSG_E_NOMEM, "dock: out of memory");
    }
    int a0 = 0, r0 = 0, bs0 = 0, ps0 = 0, p0 = 0, chain0 = 0, w0 = 0, v0 = 0;
    for (int i = 0; i < n; i++) {
        const pack_src *d = &src[i];
        const dock_tree *t = d->t;
        const vsg_vina_ligand *L = d->L;
        const struct dock_ad4 *A = d->A;
        const dock_flex_energy *fe = d->fe;
        const vsg_flex *F = fe ? fe->f : NULL;
        const int na = t->natoms, nr = t->nrot, nb = nr + 1 + (F != NULL), nl = F ? t->nlig : na;
        dock_gpu_record *g = &b->rec[b->nrec];
        b->record_of[b->nrec++] = i;
        /* bodies: root 0, rotor k's child k + 1 (the record's body ids are d->body), and with flex
         * residues their fixed root body nr + 1 (their body ids follow the ligand's) */
        const int *body = d->body;
        int nbodies = d->nbodies;
        if (F) {
            for (int a = 0; a < nl; a++) cbody[a] = d->body[a];
            for (int j = 0; j < na - nl; j++) cbody[nl + j] = d->nbodies + F->tor.body[j];
            body = cbody, nbodies = d->nbodies + F->tor.nbodies;
        }
        for (int x = 0; x < nbodies; x++) newbody[x] = -1;
        newbody[d->root] = 0;
        if (F) newbody[d->nbodies + F->root] = nr + 1;
        for (int k = 0; k < nr; k++) newbody[body[t->axis[k][1]]] = k + 1;
        /* atoms ordered by body (stable) */
        int m = 0;
        b->body_start[bs0] = 0;
        for (int bb = 0; bb < nb; bb++) {
            for (int a = 0; a < na; a++)
                if (newbody[body[a]] == bb) perm[m] = a, inv[a] = m, m++;
            b->body_start[bs0 + bb + 1] = m;
        }
        for (int q = 0; q < m; q++) {
            const int a = perm[q];
            for (int k = 0; k < 3; k++) b->atom_xyz[3 * (a0 + q) + k] = (float)t->xyz0[3 * a + k];
            if (A) { /* every atom on its own map; the tree's heavy atoms in the RMSD */
                b->atom_type[a0 + q] = (int8_t)A->type[a];
                b->atom_charge[a0 + q] = (float)A->q[a];
            } else if (a < nl) {
                b->atom_type[a0 + q] = (int8_t)(L->xs[a] == VSG_XS_NONE ? -1 : (int)L->xs[a]);
            } else { /* a flex atom: on the maps when movable and heavy (dock_flex_eval's) */
                b->atom_type[a0 + q] = (int8_t)(F->movable[a - nl] && F->L->xs[a - nl] != VSG_XS_NONE ? (int)F->L->xs[a - nl] : -1);
            }
            b->atom_body[a0 + q] = (uint8_t)newbody[body[a]];
        }
        if (A || F)
            for (int h = 0; h < t->nheavy; h++) b->atom_heavy[a0 + inv[t->heavy[h]]] = 1;
        /* partners of each atom, both directions, in pair-list order */
        for (int q = 0; q < na; q++) deg[q] = 0;
        if (A) {
            const ad4_intra_tables *it = &A->intra;
            for (int k = 0; k < it->npairs; k++) deg[inv[it->pair[k][0]]]++, deg[inv[it->pair[k][1]]]++;
            b->partner_start[ps0] = p0;
            for (int q = 0; q < na; q++) b->partner_start[ps0 + q + 1] = b->partner_start[ps0 + q] + deg[q], deg[q] = 0;
            for (int k = 0; k < it->npairs; k++) {
                const int qx = inv[it->pair[k][0]], qy = inv[it->pair[k][1]];
                const uint32_t row = (uint32_t)(v0 + it->vdw[k]);
                const int at[2] = {b->partner_start[ps0 + qx] + deg[qx]++, b->partner_start[ps0 + qy] + deg[qy]++};
                b->partner[at[0]] = (uint32_t)qy | row << 8;
                b->partner[at[1]] = (uint32_t)qx | row << 8;
                for (int e = 0; e < 2; e++) {
                    b->partner_coef[2 * at[e]] = (float)it->elec_scale[k];
                    b->partner_coef[2 * at[e] + 1] = (float)it->desolv_scale[k];
                }
            }
            for (size_t k = 0; k < (size_t)it->nvdw * DOCK_GPU_AD4_VDW_SAMPLES; k++)
                b->vdw_table[(size_t)v0 * DOCK_GPU_AD4_VDW_SAMPLES + k] = (float)it->vdw_table[k];
            v0 += it->nvdw;
        }
        for (int k = 0; !A && k < L->npairs; k++) deg[inv[L->pair[k][0]]]++, deg[inv[L->pair[k][1]]]++;
        for (int k = 0; !A && k < L->nglue; k++) deg[inv[L->glue[k][0]]]++, deg[inv[L->glue[k][1]]]++;
        for (int k = 0; F && k < fe->nlf; k++) deg[inv[fe->lf[k][0]]]++, deg[inv[nl + fe->lf[k][1]]]++;
        for (int k = 0; F && k < F->L->npairs; k++) deg[inv[nl + F->L->pair[k][0]]]++, deg[inv[nl + F->L->pair[k][1]]]++;
        if (!A) {
            b->partner_start[ps0] = p0;
            for (int q = 0; q < na; q++) b->partner_start[ps0 + q + 1] = b->partner_start[ps0 + q] + deg[q], deg[q] = 0;
        }
        for (int k = 0; !A && k < L->npairs; k++) {
            const int x = L->pair[k][0], y = L->pair[k][1], qx = inv[x], qy = inv[y];
            const uint32_t row = (uint32_t)L->xs[x] * VSG_XS_COUNT + (uint32_t)L->xs[y];
            const uint32_t rowt = (uint32_t)L->xs[y] * VSG_XS_COUNT + (uint32_t)L->xs[x];
            b->partner[b->partner_start[ps0 + qx] + deg[qx]++] = (uint32_t)qy | row << 8;
            b->partner[b->partner_start[ps0 + qy] + deg[qy]++] = (uint32_t)qx | rowt << 8;
        }
        const uint32_t glue_row = d->glue_row;
        for (int k = 0; !A && k < L->nglue; k++) { /* after the record's pairs, as the CPU twin sums them */
            const int qx = inv[L->glue[k][0]], qy = inv[L->glue[k][1]];
            b->partner[b->partner_start[ps0 + qx] + deg[qx]++] = (uint32_t)qy | glue_row << 8;
            b->partner[b->partner_start[ps0 + qy] + deg[qy]++] = (uint32_t)qx | glue_row << 8;
        }
        /* flex residues (dock_flex_eval's): ligand heavy × movable flex heavy pairs, then the flex pairs */
        for (int k = 0; F && k < fe->nlf + F->L->npairs; k++) {
            const int lf = k < fe->nlf;
            const int x = lf ? fe->lf[k][0] : nl + F->L->pair[k - fe->nlf][0];
            const int y = nl + (lf ? fe->lf[k][1] : F->L->pair[k - fe->nlf][1]);
            const uint32_t tx = x < nl ? (uint32_t)L->xs[x] : (uint32_t)F->L->xs[x - nl], ty = (uint32_t)F->L->xs[y - nl];
            const int qx = inv[x], qy = inv[y];
            b->partner[b->partner_start[ps0 + qx] + deg[qx]++] = (uint32_t)qy | (tx * VSG_XS_COUNT + ty) << 8;
            b->partner[b->partner_start[ps0 + qy] + deg[qy]++] = (uint32_t)qx | (ty * VSG_XS_COUNT + tx) << 8;
        }
        /* rotors: parent body, atoms, axis and point in the input frame */
        for (int k = 0; k < nr; k++) {
            const int pa = t->axis[k][0], pb = t->axis[k][1];
            int *R = &b->rotor[4 * (r0 + k)];
            R[0] = newbody[body[pa]], R[1] = inv[pa], R[2] = inv[pb], R[3] = 0;
            double u[3], len = 0;
            for (int j = 0; j < 3; j++) u[j] = t->xyz0[3 * pb + j] - t->xyz0[3 * pa + j], len += u[j] * u[j];
            len = sqrt(len);
            for (int j = 0; j < 3; j++) {
                b->rotor_axis[3 * (r0 + k) + j] = (float)(len > 0 ? u[j] / len : 0);
                b->rotor_point[3 * (r0 + k) + j] = (float)t->xyz0[3 * pb + j];
            }
        }
        /* the energy's work per atom (8 map reads for a heavy atom, 24 for an AutoDock4 atom's three
         * maps, one unit per pair partner), dealt to the 32 lanes longest first to the least loaded
         * (deterministic ties) */
        {
            const int map_cost = A ? 24 : 8;
            int load[32] = {0}, count[32] = {0};
            uint8_t lane_of[256];
            for (int q = 0; q < na; q++) perm[q] = q;
            for (int x = 1; x < na; x++) { /* insertion sort by cost, descending; stable */
                const int q = perm[x];
                const int cq = (b->atom_type[a0 + q] >= 0 ? map_cost : 0) + b->partner_start[ps0 + q + 1] - b->partner_start[ps0 + q];
                int y = x;
                while (y > 0) {
                    const int r = perm[y - 1];
                    const int cr = (b->atom_type[a0 + r] >= 0 ? map_cost : 0) + b->partner_start[ps0 + r + 1] - b->partner_start[ps0 + r];
                    if (cr >= cq) break;
                    perm[y] = r, y--;
                }
                perm[y] = q;
            }
            int rows = 0;
            for (int x = 0; x < na; x++) {
                const int q = perm[x];
                const int cq = (b->atom_type[a0 + q] >= 0 ? map_cost : 0) + b->partner_start[ps0 + q + 1] - b->partner_start[ps0 + q];
                if (cq == 0) { lane_of[q] = 255; continue; } /* no map, no partners: no work */
                int best = 0;
                for (int l = 1; l < 32; l++)
                    if (load[l] < load[best]) best = l;
                load[best] += cq;
                lane_of[q] = (uint8_t)best;
                if (++count[best] > rows) rows = count[best];
            }
            memset(b->work + w0, 255, (size_t)32 * (size_t)rows);
            for (int l = 0; l < 32; l++) count[l] = 0;
            for (int x = 0; x < na; x++) {
                const int q = perm[x];
                if (lane_of[q] == 255) continue;
                b->work[w0 + 32 * count[lane_of[q]] + lane_of[q]] = (uint8_t)q;
                count[lane_of[q]]++;
            }
            g->work0 = w0, g->work_rows = rows;
            w0 += 32 * rows;
        }
        g->natoms = na, g->nrot = nr;
        g->atom0 = a0, g->body0 = bs0, g->pstart0 = ps0, g->rotor0 = r0;
        g->chain0 = chain0, g->nchain = P->exhaustiveness;
        g->steps = d->steps, g->local_steps = d->local_steps;
        g->stream0 = 0, g->focus_steps = P->focus_steps ? P->focus_steps : 4 * d->steps;
        for (int j = 0; j < 3; j++) g->origin0[j] = (float)t->origin0[j];
        g->gyration = t->gyration;
        g->seed = d->seed;
        g->fixed = F != NULL;
        a0 += na, r0 += nr, bs0 += nb + 1, ps0 += na + 1, p0 += 2 * src_pairs(d), chain0 += g->nchain;
        if (na > b->max_atoms) b->max_atoms = na;
        if (nr > b->max_rot) b->max_rot = nr;
    }
    b->nchain = chain0;
    b->natoms = a0, b->nrotor = r0, b->nbody_start = bs0, b->npartner_start = ps0, b->npartner = p0, b->nwork = w0;
    b->nvdw = v0;
    free(newbody), free(perm), free(inv), free(deg), free(cbody);
    return VSG_OK;
}
