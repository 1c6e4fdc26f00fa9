/* ad4_intra.c — AutoDock4's intramolecular energy of a ligand pose (ad4_intra.h), written from a
 * reading of autodock4 4.2.6 (ccsb-scripps/AutoDock4 at its 4.2.6 release, July 2014; the
 * Debian build: -DNOSQRT -DUSE_8A_NBCUTOFF -DUSE_DOUBLE):
 *
 *  - bonds (nonbonds.cc getbonds): every atom pair whose distance lies within the bond range of
 *    the two atoms' bond_index classes (mdist.h, ±0.1 Å), whatever the torsion tree says (the
 *    rigid-piece restriction came in 2018, after 4.2.6);
 *  - non-bonds (nonbonds.cc nonbonds): all pairs minus 1-2, 1-3 and 1-4 (4.2.6 ignores 1-4
 *    unless the dpf says include_1_4_interactions);
 *  - weeding (weedbonds.cc): minus pairs in one rigid piece (ROOT, or a BRANCH block without its
 *    sub-branches), minus each torsion's two atoms against the other side's piece, and minus
 *    the moving atoms of two torsions that leave the same piece;
 *  - energy (eintcal.cc, intnbtable.cc): table lookups at bin (int)(r²·32) of r² clamped at
 *    0.25 Å² (NEINT 2048 bins to NBC² = 64 Å², NDIEL 16384), no interpolation; vdW/H-bond
 *    from weighted 12-6 / 12-10 tables (AutoGrid's pair rule, clamped at 1e5, min-smoothed over
 *    ±0.25 Å) for r² < 64 only; desolvation and electrostatics (332.06363·FE_coeff_estat·q1q2
 *    / (r·ε_MS(r))) without cutoff.
 * Single-point epdb reports exactly this as "(2) Final Total Internal Energy" (the unbound
 * energy it subtracts there is 0). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ligands/score/ad4_intra.h"
#include "ligands/torsions/torsions.h"

#define NEINT 2048
#define NDIEL 16384
#define SQA_DIV 32.0      /* bins per Å² (NEINT / NBC²) */
#define NBC2 64.0         /* Å², the vdW/H-bond cutoff */
#define RMIN2 0.25        /* Å², electrostatic distance clamp (applied to every term in 4.2.6) */
#define EINTCLAMP 100000.0
#define R_SMOOTH 0.5      /* Å, autodock4's default `smooth` */
#define ELECSCALE 332.06363
#define QSOLPAR 0.01097
#define SIGMA 3.6
#define MAX_NBONDS 16     /* autodock4 stops on an atom with more */

/* bond_index of AD4.1_bound.dat's last column (C 0, N 1, O 2, H 3, other 4, P 5, S 6); vsgrid's
 * parameter reader does not keep that column, so types a parameter file adds are "other". */
static int bond_class(const char *t)
{
    static const struct { const char *t; int c; } tab[] = {
        {"H", 3}, {"HD", 3}, {"HS", 3}, {"C", 0}, {"A", 0}, {"Z", 0}, {"G", 0}, {"GA", 0}, {"J", 0}, {"Q", 0},
        {"N", 1}, {"NA", 1}, {"NS", 1}, {"OA", 2}, {"OS", 2}, {"P", 5}, {"SA", 6}, {"S", 6}};
    for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
        if (!strcmp(tab[i].t, t)) return tab[i].c;
    return 4;
}

/* mdist.h's bond length ranges (Å, before the ±0.1 tolerance), by bond class. */
static void bond_range(int a, int b, double *lo, double *hi)
{
    static const double r[7][7][2] = {
        /*          C              N                O              H              X            P              S */
        /* C */ {{1.20, 1.545}, {1.1, 1.479}, {1.15, 1.47}, {1.022, 1.12}, {0.9, 1.545}, {1.85, 1.89}, {1.55, 1.835}},
        /* N */ {{1.1, 1.479}, {1.0974, 1.128}, {1.0619, 1.25}, {1.004, 1.041}, {0.9, 1.041}, {1.491, 1.491}, {1.58, 1.672}},
        /* O */ {{1.15, 1.47}, {1.0619, 1.25}, {1.208, 1.51}, {0.955, 1.0289}, {0.955, 2.1}, {1.36, 1.67}, {1.41, 1.47}},
        /* H */ {{1.022, 1.12}, {1.004, 1.041}, {0.955, 1.0289}, {100., -100.}, {0.9, 1.5}, {1.40, 1.44}, {1.325, 1.3455}},
        /* X */ {{0.9, 1.545}, {0.9, 1.041}, {0.955, 2.1}, {0.9, 1.5}, {0.9, 2.1}, {0.9, 2.1}, {1.325, 2.1}},
        /* P */ {{1.85, 1.89}, {1.491, 1.491}, {1.36, 1.67}, {1.40, 1.44}, {0.9, 2.1}, {2.18, 2.23}, {1.83, 1.88}},
        /* S */ {{1.55, 1.835}, {1.58, 1.672}, {1.41, 1.47}, {1.325, 1.3455}, {1.325, 2.1}, {1.83, 1.88}, {2.03, 2.05}}};
    *lo = r[a][b][0] - 0.1;
    *hi = r[a][b][1] + 0.1;
}

/* One pair-type's 12-6 or 12-10 coefficients, as autodock4's main.cc sets up its tables. */
typedef struct {
    double ca, cb;
    int xb;
    int kmin; /* the bin of the table's minimum */
} lj_pair;

static double lj_raw(const lj_pair *c, int k);

static lj_pair lj_of(const vsg_ad4_params *p, const vsg_ad4_atom_par *i, const vsg_ad4_atom_par *j)
{
    int don_i = i->hbond == 1 || i->hbond == 2, acc_i = i->hbond >= 3;
    int don_j = j->hbond == 1 || j->hbond == 2, acc_j = j->hbond >= 3;
    double rij, eps;
    lj_pair c = {0, 0, 6, 0};
    if (don_i && acc_j) {
        rij = j->rij_hb, eps = j->epsij_hb * p->coeff_hbond, c.xb = 10;
    } else if (acc_i && don_j) {
        rij = i->rij_hb, eps = i->epsij_hb * p->coeff_hbond, c.xb = 10;
    } else {
        rij = (i->rii + j->rii) / 2.;
        eps = sqrt((i->epsii * p->coeff_vdw) * (j->epsii * p->coeff_vdw));
    }
    double tmp = eps / (double)(12 - c.xb);
    c.ca = tmp * pow(rij, 12.) * (double)c.xb;
    c.cb = tmp * pow(rij, (double)c.xb) * 12.;
    /* the well's bottom lies at r = Rij: in the last bin before it or the first after */
    int f = (int)(rij * rij * SQA_DIV);
    f = f < 1 ? 1 : f > NEINT - 2 ? NEINT - 2 : f;
    c.kmin = lj_raw(&c, f + 1) < lj_raw(&c, f) ? f + 1 : f;
    return c;
}

/* The unsmoothed table value at bin k: r = √(k/32). */
static double lj_raw(const lj_pair *c, int k)
{
    if (k == 0) return EINTCLAMP;
    double r = sqrt((double)k / SQA_DIV);
    double e = c->ca / pow(r, 12.) - c->cb / pow(r, (double)c->xb);
    return e < EINTCLAMP ? e : EINTCLAMP;
}

static int bin_of(double r2)
{
    int k = (int)(r2 * SQA_DIV);
    return k > NEINT - 1 ? NEINT - 1 : k;
}

/* The smoothed table value at bin k: autodock4 replaces bins 1 .. NEINT−2 by the minimum of the
 * raw table over the bins of r ± R_SMOOTH/2 (both ends squared, so the low end folds back near
 * 0), keeping bins 0 and NEINT−1. The raw table falls to its well and rises after it, so that
 * minimum is the well's bin when the window holds it, else the window's end nearer to it: a
 * few pow calls a pair instead of a table per type pair (what makes it cheap in a screen). */
static double lj_smoothed(const lj_pair *c, int k)
{
    if (k == 0 || k == NEINT - 1) return lj_raw(c, k);
    double r = sqrt((double)k / SQA_DIV), lo = r - R_SMOOTH / 2, hi = r + R_SMOOTH / 2;
    int j0 = bin_of(lo * lo), j1 = bin_of(hi * hi);
    return lj_raw(c, j1 < c->kmin ? j1 : j0 > c->kmin ? j0 : c->kmin);
}

/* Mehler–Solmajer ε(r) (distdepdiel.cc). */
static double eps_ms(double r)
{
    const double lambda = 0.003627, eps0 = 78.4, a = -8.5525, b = eps0 - a, rk = 7.7839;
    double e = a + b / (1.0 + rk * exp(-lambda * b * r));
    return e < 1e-6 ? 1.0 : e; /* APPROX_ZERO; never reached for r ≥ 0 */
}

/* autodock4's non-bonded pair mask of a record (nbm[i·n + j] = 1: the pair is scored): bonds by
 * distance, 1-2/1-3/1-4 and rigid-piece pairs removed, then weedbonds' torsion rules. nb and
 * bonded are scratch (n entries). */
static vsg_status weed(const vsg_ligand *lig, const int *cls, const vsg_torsions *tp, int *nb, int (*bonded)[MAX_NBONDS],
                       unsigned char *nbm, const char *src)
{
    const int n = lig->natoms;
    const vsg_torsions t = *tp;
    vsg_status st = VSG_OK;
#define NBM(a, b) nbm[(size_t)(a) * (size_t)n + (size_t)(b)]
    /* bonds by distance over all pairs (order of discovery does not matter below) */
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            double dx = lig->atoms[i].x - lig->atoms[j].x, dy = lig->atoms[i].y - lig->atoms[j].y,
                   dz = lig->atoms[i].z - lig->atoms[j].z, lo, hi;
            double d = sqrt(dx * dx + dy * dy + dz * dz);
            if (cls[i] < 0 || cls[j] < 0) continue; /* a water: no bond */
            bond_range(cls[i], cls[j], &lo, &hi);
            if (d < lo || d > hi) continue;
            if (nb[i] >= MAX_NBONDS || nb[j] >= MAX_NBONDS) {
                st = vsg_fail(VSG_E_DATA, "%s:%d: record %ld: atom %d has more than %d bonds by distance", src,
                              lig->atoms[nb[i] >= MAX_NBONDS ? i : j].line, lig->record, (nb[i] >= MAX_NBONDS ? i : j) + 1,
                              MAX_NBONDS);
                return st;
            }
            bonded[i][nb[i]++] = j;
            bonded[j][nb[j]++] = i;
        }
    memset(nbm, 1, (size_t)n * (size_t)n);
    for (int i = 0; i < n; i++) NBM(i, i) = 0;
    /* 1-2, 1-3, 1-4: everything within three bonds of i */
    for (int i = 0; i < n; i++)
        for (int a = 0; a < nb[i]; a++) {
            int j = bonded[i][a];
            NBM(i, j) = NBM(j, i) = 0;
            for (int b = 0; b < nb[j]; b++) {
                int k = bonded[j][b];
                NBM(i, k) = NBM(k, i) = 0;
                for (int c = 0; c < nb[k]; c++) NBM(i, bonded[k][c]) = NBM(bonded[k][c], i) = 0;
            }
        }
    /* one rigid body: the distance never changes */
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            if (t.body[i] == t.body[j]) NBM(i, j) = 0;
    /* across torsions: a torsion's atom against the other side's piece, and the moving atoms of
     * torsions hanging off the same piece (weedbonds' "1-3 interactions") */
    for (int u = 0; u < t.nrotors; u++) {
        int a11 = t.rotor[u][0], a21 = t.rotor[u][1], p11 = t.body[a11], p21 = t.body[a21];
        NBM(a11, a21) = NBM(a21, a11) = 0;
        for (int v = 0; v < t.nrotors; v++) {
            int a12 = t.rotor[v][0], a22 = t.rotor[v][1], p12 = t.body[a12], p22 = t.body[a22];
            if (p11 == p12) NBM(a22, a21) = NBM(a21, a22) = 0;
            if (p11 == p22) NBM(a12, a21) = NBM(a21, a12) = 0;
            if (p21 == p12) NBM(a22, a11) = NBM(a11, a22) = 0;
            if (p21 == p22) NBM(a12, a11) = NBM(a11, a12) = 0;
        }
        for (int k = 0; k < n; k++) {
            if (t.body[k] == p11) NBM(k, a21) = NBM(a21, k) = 0;
            if (t.body[k] == p21) NBM(k, a11) = NBM(a11, k) = 0;
        }
    }
    /* a water (class −1): no pair at all, as AutoDock-GPU; Vina's pairs of it are all 0 */
    for (int i = 0; i < n; i++)
        if (cls[i] < 0)
            for (int j = 0; j < n; j++) NBM(i, j) = NBM(j, i) = 0;

#undef NBM
    return st;
}

/* Each atom's AutoDock4 parameters and bond class (both pair builders need them). VSG_E_DATA names
 * an atom whose type has none. */
static vsg_status atom_params(const vsg_ligand *lig, const vsg_ad4_params *p, const char *src,
                              const vsg_ad4_atom_par **par, int *cls)
{
    /* a hydrated-docking water (W) has no parameters in AD4.1_bound.dat: Vina gives it zeros,
     * AutoDock-GPU drops its pairs; class −1 bonds to nothing and weed drops its pairs */
    static const vsg_ad4_atom_par water = {0};
    for (int i = 0; i < lig->natoms; i++) {
        if (!strcmp(lig->atoms[i].ad_type, "W")) {
            par[i] = &water, cls[i] = -1;
            continue;
        }
        par[i] = vsg_ad4_params_find(p, lig->atoms[i].ad_type);
        if (!par[i])
            return vsg_fail(VSG_E_DATA, "%s:%d: record %ld: atom type '%s' has no AutoDock4 parameters", src,
                            lig->atoms[i].line, lig->record, lig->atoms[i].ad_type);
        cls[i] = bond_class(lig->atoms[i].ad_type);
    }
    return VSG_OK;
}

vsg_status vsg_ad4_intra(const vsg_ligand *lig, const vsg_ad4_params *p, vsg_ad4_intra_result *out)
{
    if (!lig || !p || !out) return vsg_fail(VSG_E_ARG, "ad4 intra: NULL argument");
    memset(out, 0, sizeof *out);
    if (lig->format != VSG_LIG_PDBQT || !lig->text)
        return vsg_fail(VSG_E_ARG, "ad4 intra: record %ld needs its PDBQT text (torsion tree)", lig->record);
    const int n = lig->natoms;
    const char *src = lig->source ? lig->source : "?";
    const vsg_ad4_atom_par **par = malloc(sizeof *par * (size_t)(n > 0 ? n : 1));
    int *cls = malloc(sizeof *cls * (size_t)(n > 0 ? n : 1));
    int *nb = calloc((size_t)(n > 0 ? n : 1), sizeof *nb);
    int(*bonded)[MAX_NBONDS] = malloc(sizeof *bonded * (size_t)(n > 0 ? n : 1));
    unsigned char *nbm = malloc((size_t)(n > 0 ? n : 1) * (size_t)(n > 0 ? n : 1));
    vsg_torsions t;
    memset(&t, 0, sizeof t);
    vsg_status st = VSG_OK;
    if (!par || !cls || !nb || !bonded || !nbm) { st = vsg_fail(VSG_E_NOMEM, "ad4 intra: out of memory"); goto done; }
    if ((st = atom_params(lig, p, src, par, cls)) != VSG_OK) goto done;
    if ((st = vsg_torsions_from_pdbqt(lig, &t)) != VSG_OK) goto done;
    out->ntorsions = t.nrotors;
    if (t.nrotors == 0) goto done; /* autodock4 skips the internal energy of a rigid ligand */

    if ((st = weed(lig, cls, &t, nb, bonded, nbm, src)) != VSG_OK) goto done;
#define NBM(a, b) nbm[(size_t)(a) * (size_t)n + (size_t)(b)]
    /* the energy of each remaining pair, i < j, summed in autodock4's order */
    const double minus_inv_2s2 = -0.5 / (SIGMA * SIGMA);
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            if (!NBM(i, j)) continue;
            const vsg_lig_atom *ai = &lig->atoms[i], *aj = &lig->atoms[j];
            double dx = ai->x - aj->x, dy = ai->y - aj->y, dz = ai->z - aj->z;
            double r2 = dx * dx + dy * dy + dz * dz;
            if (r2 < RMIN2) r2 = RMIN2;
            int k = (int)(r2 * SQA_DIV), kd = k > NDIEL - 1 ? NDIEL - 1 : k;
            /* the tables hold their bin's distance, not the pair's */
            double rb = sqrt((double)kd / SQA_DIV);
            double q1q2 = ai->charge * aj->charge * (ELECSCALE * p->coeff_estat);
            double e_elec = q1q2 * (1.0 / (rb * eps_ms(rb)));
            double dsv = par[j]->vol * (par[i]->solpar + QSOLPAR * fabs(ai->charge)) +
                         par[i]->vol * (par[j]->solpar + QSOLPAR * fabs(aj->charge));
            double e_desolv = p->coeff_desolv * exp(minus_inv_2s2 * (rb * rb)) * dsv;
            double e_vdw = 0.0;
            if (r2 < NBC2) {
                lj_pair c = lj_of(p, par[i], par[j]);
                e_vdw = lj_smoothed(&c, k > NEINT - 1 ? NEINT - 1 : k);
            }
            out->elec += e_elec;
            out->desolv += e_desolv;
            out->vdw_hb += e_vdw;
            out->total += e_elec + e_vdw + e_desolv;
            out->npairs++;
        }
#undef NBM
done:
    vsg_torsions_release(&t);
    free(par), free(cls), free(nb), free(bonded), free(nbm);
    if (st != VSG_OK) memset(out, 0, sizeof *out);
    return st;
}

/* ---- the same energy as tables, for the docking search (ad4_intra.h) ------------------------ */

void ad4_intra_tables_release(ad4_intra_tables *t)
{
    if (!t) return;
    free(t->pair), free(t->elec_scale), free(t->desolv_scale), free(t->vdw), free(t->vdw_table);
    free(t->elec_shape), free(t->desolv_shape);
    memset(t, 0, sizeof *t);
}

vsg_status ad4_intra_tables_build(const vsg_ligand *lig, const vsg_ad4_params *p, ad4_intra_tables *out)
{
    if (!lig || !p || !out) return vsg_fail(VSG_E_ARG, "ad4 intra: NULL argument");
    memset(out, 0, sizeof *out);
    if (lig->format != VSG_LIG_PDBQT || !lig->text)
        return vsg_fail(VSG_E_ARG, "ad4 intra: record %ld needs its PDBQT text (torsion tree)", lig->record);
    const int n = lig->natoms;
    const size_t n1 = (size_t)(n > 0 ? n : 1);
    const char *src = lig->source ? lig->source : "?";
    const vsg_ad4_atom_par **par = malloc(sizeof *par * n1);
    int *cls = malloc(sizeof *cls * n1), *nb = calloc(n1, sizeof *nb), *tslot = malloc(sizeof *tslot * n1 * n1);
    int(*bonded)[MAX_NBONDS] = malloc(sizeof *bonded * n1);
    unsigned char *nbm = malloc(n1 * n1);
    vsg_torsions t;
    memset(&t, 0, sizeof t);
    vsg_status st = VSG_OK;
    out->elec_shape = malloc(sizeof(double) * NDIEL);
    out->desolv_shape = malloc(sizeof(double) * NDIEL);
    if (!par || !cls || !nb || !tslot || !bonded || !nbm || !out->elec_shape || !out->desolv_shape) {
        st = vsg_fail(VSG_E_NOMEM, "ad4 intra: out of memory");
        goto done;
    }
    if ((st = atom_params(lig, p, src, par, cls)) != VSG_OK) goto done;
    const double minus_inv_2s2 = -0.5 / (SIGMA * SIGMA);
    for (int k = 0; k < NDIEL; k++) {
        const double rb = sqrt((double)k / SQA_DIV);
        out->elec_shape[k] = k ? 1.0 / (rb * eps_ms(rb)) : 0.0; /* bin 0 is never read: r² ≥ 0.25 Å² */
        out->desolv_shape[k] = exp(minus_inv_2s2 * (rb * rb));
    }
    if ((st = vsg_torsions_from_pdbqt(lig, &t)) != VSG_OK) goto done;
    out->ntorsions = t.nrotors;
    if (t.nrotors == 0) goto done; /* no internal energy, as autodock4 */
    if ((st = weed(lig, cls, &t, nb, bonded, nbm, src)) != VSG_OK) goto done;
    int np = 0;
    for (size_t k = 0; k < n1 * n1; k++) np += nbm[k] != 0;
    np /= 2;
    out->pair = malloc(sizeof *out->pair * (size_t)(np > 0 ? np : 1));
    out->elec_scale = malloc(sizeof(double) * (size_t)(np > 0 ? np : 1));
    out->desolv_scale = malloc(sizeof(double) * (size_t)(np > 0 ? np : 1));
    out->vdw = malloc(sizeof(int) * (size_t)(np > 0 ? np : 1));
    if (!out->pair || !out->elec_scale || !out->desolv_scale || !out->vdw) {
        st = vsg_fail(VSG_E_NOMEM, "ad4 intra: out of memory");
        goto done;
    }
    /* one vdW/H-bond table per pair of parameter entries met */
    for (size_t k = 0; k < n1 * n1; k++) tslot[k] = -1;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            if (!nbm[(size_t)i * (size_t)n + (size_t)j]) continue;
            const int m = out->npairs++;
            const vsg_lig_atom *ai = &lig->atoms[i], *aj = &lig->atoms[j];
            out->pair[m][0] = i, out->pair[m][1] = j;
            out->elec_scale[m] = ai->charge * aj->charge * (ELECSCALE * p->coeff_estat);
            out->desolv_scale[m] = p->coeff_desolv * (par[j]->vol * (par[i]->solpar + QSOLPAR * fabs(ai->charge)) +
                                                      par[i]->vol * (par[j]->solpar + QSOLPAR * fabs(aj->charge)));
            /* the table slot of this pair's types: first atom of each type stands for it */
            int ti = i, tj = j;
            for (int x = 0; x < n; x++)
                if (par[x] == par[i]) { ti = x; break; }
            for (int x = 0; x < n; x++)
                if (par[x] == par[j]) { tj = x; break; }
            int *slot = &tslot[(size_t)(ti < tj ? ti : tj) * n1 + (size_t)(ti < tj ? tj : ti)];
            if (*slot < 0) {
                double *grown = realloc(out->vdw_table, sizeof(double) * NEINT * (size_t)(out->nvdw + 1));
                if (!grown) {
                    st = vsg_fail(VSG_E_NOMEM, "ad4 intra: out of memory");
                    goto done;
                }
                out->vdw_table = grown;
                const lj_pair c = lj_of(p, par[i], par[j]);
                for (int k = 0; k < NEINT; k++) grown[(size_t)out->nvdw * NEINT + (size_t)k] = lj_smoothed(&c, k);
                *slot = out->nvdw++;
            }
            out->vdw[m] = *slot;
        }
done:
    vsg_torsions_release(&t);
    free(par), free(cls), free(nb), free(tslot), free(bonded), free(nbm);
    if (st != VSG_OK) ad4_intra_tables_release(out);
    return st;
}

double ad4_intra_tables_eval(const ad4_intra_tables *t, const double *xyz, double *g)
{
    double e = 0;
    for (int m = 0; m < t->npairs; m++) {
        const int i = t->pair[m][0], j = t->pair[m][1];
        const double dx = xyz[3 * i] - xyz[3 * j], dy = xyz[3 * i + 1] - xyz[3 * j + 1], dz = xyz[3 * i + 2] - xyz[3 * j + 2];
        double r2 = dx * dx + dy * dy + dz * dz;
        const int clamped = r2 < RMIN2;
        if (clamped) r2 = RMIN2;
        const double u = r2 * SQA_DIV;
        int k = (int)u;
        if (k > NDIEL - 2) k = NDIEL - 2;
        double fr = u - k;
        if (fr > 1) fr = 1; /* beyond the last bin: its value, flat */
        const double *vt = &t->vdw_table[(size_t)t->vdw[m] * NEINT];
        const double e0 = t->elec_scale[m] * t->elec_shape[k] + t->desolv_scale[m] * t->desolv_shape[k] +
                          (k < NEINT ? vt[k] : 0.0);
        const double e1 = t->elec_scale[m] * t->elec_shape[k + 1] + t->desolv_scale[m] * t->desolv_shape[k + 1] +
                          (k + 1 < NEINT ? vt[k + 1] : 0.0);
        e += e0 + fr * (e1 - e0);
        if (g && !clamped && u < NDIEL - 1) {
            const double s = (e1 - e0) * SQA_DIV * 2; /* dE/dr² · 2, times (a − b) */
            g[3 * i] += s * dx, g[3 * i + 1] += s * dy, g[3 * i + 2] += s * dz;
            g[3 * j] -= s * dx, g[3 * j + 1] -= s * dy, g[3 * j + 2] -= s * dz;
        }
    }
    return e;
}
