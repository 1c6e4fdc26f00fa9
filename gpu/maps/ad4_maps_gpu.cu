/* ad4_maps_gpu.cu — the GPU twin of vsg_ad4_maps_cpu (grids/maps/ad4_maps.c): AutoDock4
 * affinity maps (one per gpf ligand type) and the desolvation map (vsgrid.h, "AutoDock4
 * affinity and desolvation maps").
 *
 * Work. Per node, a pass over the receptor atoms within 8 Å (a protein with polar hydrogens:
 * ~150–250 atoms; the brick's candidate list ~2–3× that). Per in-cutoff pair: ~15 double
 * operations (r, 1/r, u, bin), the directional factors for D1/A1/A2 atoms (a few dot products;
 * A2 also acos/sin/cos), then per map one 8-byte gathered table read (L1/L2: the tables are
 * nmap × nrt × 2048 × 8 bytes, ~1–2 MB) and ~12 double operations (H-bond branch, desolvation);
 * the output is 4 bytes per node and map. So ~200 × (30 + 15·nmap) ≈ 30–50 kflop (FP64) per
 * node against (nmap+1) × 4 bytes written: compute- and gather-bound, never DRAM-bound.
 * Doubles throughout: the result is rounded to 3 decimals of values up to 1e5–1e6 kcal/mol, and
 * the table bin (int)(r·100) must be the CPU's bin, which float r cannot promise.
 *
 * Layout. A block of 256 threads owns a brick of 8 × 8 × 4 nodes, one thread per node; every
 * thread computes all maps of its node from one pass over the atoms (accumulators in local
 * memory, L1-resident). The receptor atoms within reach of the box are binned on the host into
 * 4 Å cells (counting sort, x fastest, file order within a cell), so a block visits only the
 * cells within 8 Å of its brick: one contiguous range per (y, z) cell row, the same atom for the
 * whole warp at a time (broadcast loads, no divergence in the loop bounds). Two passes: the donor
 * hydrogen nearest to the node (ties: first in file order, as the CPU twin), then the sums.
 *
 * Arithmetic. The host builds what the CPU twin builds, the same way: sites shifted to the box
 * centre, the bond vectors (ad4_hbond_vectors, the CPU twin's own code), the pair tables
 * (ad4_pair_table, the CPU twin's own) and the desolvation table. The device forms the
 * node, r and the bin with explicitly rounded operations (never contracted), so it picks the
 * CPU's bin and keeps or drops the CPU's atoms bit for bit; the final rounding to 3 decimals is
 * the CPU's to_map_float, also uncontracted. What may differ: the order of the sums (cell order,
 * not file order), FMA contraction in the per-map terms, and device acos/cos/sin/pow (≤ 2 ulp):
 * ~1e-15 relative, visible only where a value lies on a 0.0005 rounding edge (one step of 0.001).
 * tests/test_gpu_ad4_maps.c measures it. */
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grids/base/vsgrid.h"
#include "grids/formats/grid.h"
#include "grids/receptor/molecule.h"
#include "gpu/device/gpu.h"
extern "C" {
#include "grids/maps/ad4_maps.h"
}
#include "grids/maps/ad4_hbond_factors.h" /* host and device: the CPU twin's own source */

#define VSG_CUDA_WHO "GPU AD4 maps"
#include "gpu/device/cuda_check.h"

#define AB_X 8
#define AB_Y 8
#define AB_Z 4
#define AB_THREADS (AB_X * AB_Y * AB_Z)
#define AB_CELL 4.0 /* Å, host-side cell size */
#define AB_MAXM VSG_AG_MAX_MAPS

static_assert(AB_MAXM <= 32, "hflag is a 32-bit mask");

struct AParams {
    const ad4_site *s;     /* sorted by cell */
    const int *orig;       /* file index of each sorted site (ties of the nearest donor) */
    const int *cell_start; /* ncell + 1 entries */
    const double *tab;     /* [m][rt][AD4_NEINT] */
    const double *sol;     /* [AD4_NEINT] */
    float *out;            /* [nmap + 1][nodes] */
    int n[3], ne[3];
    int nc[3];
    double corigin[3];
    double h, qasp;
    int nmap, nrt;
};

__constant__ int c_lig_hb[AB_MAXM];
__constant__ double c_lig_solpar[AB_MAXM], c_lig_vol[AB_MAXM];

/* ---- device code ---------------------------------------------------------------------------- */

/* ad4_maps.c's to_map_float, uncontracted. */
__device__ __forceinline__ float to_map_float_d(double v)
{
    if (fabs(v) < 1e-3) return (float)v;
    return (float)__ddiv_rn(floor(__dadd_rn(__dmul_rn(v, 1000.0), 0.5)), 1000.0);
}

/* r from the node c to site x as the CPU forms it: sqrt((d0² + d1²) + d2²), d = x − c. */
__device__ __forceinline__ double dist_d(const double *x, double c0, double c1, double c2, double *d)
{
    d[0] = __dsub_rn(x[0], c0), d[1] = __dsub_rn(x[1], c1), d[2] = __dsub_rn(x[2], c2);
    return __dsqrt_rn(__dadd_rn(__dadd_rn(__dmul_rn(d[0], d[0]), __dmul_rn(d[1], d[1])), __dmul_rn(d[2], d[2])));
}

__global__ void __launch_bounds__(AB_THREADS) ad4_kernel(AParams p)
{
    const int tid = threadIdx.x;
    const int bx = blockIdx.x * AB_X, by = blockIdx.y * AB_Y, bz = blockIdx.z * AB_Z;
    const int ix = bx + (tid % AB_X), iy = by + (tid / AB_X) % AB_Y, iz = bz + tid / (AB_X * AB_Y);
    const bool mine = ix < p.n[0] && iy < p.n[1] && iz < p.n[2];
    if (__syncthreads_count(mine) == 0) return;
    /* the node as the CPU twin forms it: (i − ne)·h, relative to the box centre */
    const double cx = __dmul_rn((double)(ix - p.ne[0]), p.h);
    const double cy = __dmul_rn((double)(iy - p.ne[1]), p.h);
    const double cz = __dmul_rn((double)(iz - p.ne[2]), p.h);
    /* the brick's extent (clamped to the grid) and the cells within reach */
    int c0[3], c1[3];
    {
        const int b0[3] = {bx, by, bz};
        const int b1[3] = {min(bx + AB_X - 1, p.n[0] - 1), min(by + AB_Y - 1, p.n[1] - 1),
                           min(bz + AB_Z - 1, p.n[2] - 1)};
        const double reach = AD4_NBC + 1e-3;
        for (int c = 0; c < 3; c++) {
            const double lo = (double)(b0[c] - p.ne[c]) * p.h, hi = (double)(b1[c] - p.ne[c]) * p.h;
            c0[c] = max(0, (int)floor((lo - reach - p.corigin[c]) / AB_CELL));
            c1[c] = min(p.nc[c] - 1, (int)floor((hi + reach - p.corigin[c]) / AB_CELL));
        }
    }
    const bool any = c1[0] >= c0[0] && c1[1] >= c0[1] && c1[2] >= c0[2];
    const ad4_site *__restrict__ s = p.s;

    /* pass 1: the donor hydrogen nearest to the node (first in file order at a tie) */
    double rmin = 999999.;
    int closest = 0, corig = INT32_MAX;
    for (int cz_ = c0[2]; any && cz_ <= c1[2]; cz_++)
        for (int cy_ = c0[1]; cy_ <= c1[1]; cy_++) {
            const int cb = (cz_ * p.nc[1] + cy_) * p.nc[0];
            const int a0 = __ldg(p.cell_start + cb + c0[0]), a1 = __ldg(p.cell_start + cb + c1[0] + 1);
            for (int j = a0; j < a1; j++) {
                const int hb = s[j].hbond;
                if (hb != AD4_HB_DS && hb != AD4_HB_D1) continue;
                double d[3];
                const double r = dist_d(s[j].x, cx, cy, cz, d);
                const int o = __ldg(p.orig + j);
                if (r < rmin || (r == rmin && o < corig)) rmin = r, closest = j, corig = o;
            }
        }

    /* pass 2: the sums */
    const int nmap = p.nmap;
    double en[AB_MAXM + 1], hmin[AB_MAXM], hmax[AB_MAXM];
    unsigned hflag = 0;
    for (int m = 0; m <= nmap; m++) en[m] = 0.;
    for (int m = 0; m < nmap; m++) hmin[m] = 999999., hmax[m] = -999999.;
    const double qasp = p.qasp;
    for (int cz_ = c0[2]; any && cz_ <= c1[2]; cz_++)
        for (int cy_ = c0[1]; cy_ <= c1[1]; cy_++) {
            const int cb = (cz_ * p.nc[1] + cy_) * p.nc[0];
            const int a0 = __ldg(p.cell_start + cb + c0[0]), a1 = __ldg(p.cell_start + cb + c1[0] + 1);
            for (int j = a0; j < a1; j++) {
                const ad4_site *a = &s[j];
                double u[3];
                double r = dist_d(a->x, cx, cy, cz, u);
                if (r < AD4_APPROX_ZERO) r = AD4_APPROX_ZERO;
                if (r > AD4_NBC) continue;
                const double inv_r = __ddiv_rn(1., r);
                for (int i = 0; i < 3; i++) u[i] = __dmul_rn(u[i], inv_r);
                int bin = (int)__dmul_rn(r, AD4_A_DIV);
                if (bin > AD4_NEINT - 1) bin = AD4_NEINT - 1;
                const int ahb = a->hbond;
                double racc = 1., rdon = 1., hramp = 1.;
                if (ahb == AD4_HB_D1 || ahb == AD4_HB_A1 || ahb == AD4_HB_A2)
                    ad4_hbond_factors(s, (size_t)j, (size_t)closest, u, &racc, &rdon, &hramp);
                const int rdonor = ahb == AD4_HB_DS || ahb == AD4_HB_D1;
                const double sl = __ldg(p.sol + bin);
                const double avol = a->vol, asolq = a->solpar + qasp * a->absq;
                const double *tb = p.tab + (size_t)a->type * AD4_NEINT + bin;
                const size_t mstride = (size_t)p.nrt * AD4_NEINT;
                for (int m = 0; m < nmap; m++) {
                    const int phb = c_lig_hb[m];
                    const double E = __ldg(tb + (size_t)m * mstride);
                    if (phb > 0) {
                        double rsph = E / 100.;
                        rsph = rsph > 0. ? rsph : 0.;
                        rsph = rsph < 1. ? rsph : 1.;
                        if ((phb == AD4_HB_AS || phb == AD4_HB_A2) && rdonor) {
                            en[m] += E * hramp * (racc + (1. - racc) * rsph);
                        } else if (phb == AD4_HB_A1 && rdonor) {
                            double v = E * (racc + (1. - racc) * rsph);
                            hmin[m] = hmin[m] < v ? hmin[m] : v;
                            hmax[m] = hmax[m] > v ? hmax[m] : v;
                            hflag |= 1u << m;
                        } else if ((phb == AD4_HB_DS || phb == AD4_HB_D1) && ahb > 2) {
                            double v = E * (rdon + (1. - rdon) * rsph);
                            hmin[m] = hmin[m] < v ? hmin[m] : v;
                            hmax[m] = hmax[m] > v ? hmax[m] : v;
                            hflag |= 1u << m;
                        } else {
                            en[m] += E;
                        }
                    } else {
                        en[m] += E;
                    }
                    en[m] += c_lig_solpar[m] * avol * sl + asolq * c_lig_vol[m] * sl;
                }
                en[nmap] += qasp * avol * sl;
            }
        }
    if (mine) {
        const size_t nodes = (size_t)p.n[0] * p.n[1] * p.n[2];
        const size_t node = (size_t)ix + (size_t)p.n[0] * ((size_t)iy + (size_t)p.n[1] * (size_t)iz);
        for (int m = 0; m < nmap; m++) {
            double v = en[m];
            if (hflag >> m & 1u) {
                v += hmin[m];
                v += hmax[m];
            }
            p.out[(size_t)m * nodes + node] = to_map_float_d(v);
        }
        p.out[(size_t)nmap * nodes + node] = to_map_float_d(en[nmap]);
    }
}

/* ---- host code ------------------------------------------------------------------------------ */


struct Dev {
    ad4_site *s;
    int *orig, *cells;
    double *tab, *sol;
    float *out;
    int prev_device;
};

static void dev_release(Dev *d)
{
    if (d->s) cudaFree(d->s);
    if (d->orig) cudaFree(d->orig);
    if (d->cells) cudaFree(d->cells);
    if (d->tab) cudaFree(d->tab);
    if (d->sol) cudaFree(d->sol);
    if (d->out) cudaFree(d->out);
    (void)cudaGetLastError();
    if (d->prev_device >= 0) (void)cudaSetDevice(d->prev_device);
    (void)cudaGetLastError();
}

struct Host {
    ad4_site *s, *sorted;
    int *cell, *start, *orig;
    double *tab, *sol;
    float *out;
    int outs; /* out[0 .. nmap] were set (to NULL, then grids) */
};

static void host_free(Host *h)
{
    free(h->s), free(h->sorted), free(h->cell), free(h->start), free(h->orig), free(h->tab), free(h->sol);
    free(h->out);
}

static vsg_status run(const vsg_molecule *rec, const vsg_gpf *gpf, const vsg_ad4_params *p, int device,
                      vsg_grid **out, Dev *d, Host *H)
{
    /* the CPU twin's checks, messages and set-up */
    if (!rec || !gpf || !p || !out) return vsg_fail(VSG_E_ARG, "ad4 maps: NULL argument");
    const int nmap = gpf->n_ligand_types;
    if (nmap < 1) return vsg_fail(VSG_E_ARG, "ad4 maps: the gpf names no ligand_types");
    if (!gpf->have_npts) return vsg_fail(VSG_E_ARG, "ad4 maps: the gpf has no npts");
    if (!(gpf->spacing > 0.0)) return vsg_fail(VSG_E_ARG, "ad4 maps: spacing must be > 0");
    if (!(gpf->smooth >= 0.0)) return vsg_fail(VSG_E_ARG, "ad4 maps: smooth must be >= 0");
    if (nmap > AB_MAXM) return vsg_fail(VSG_E_LIMIT, "ad4 maps: %d ligand types (at most %d)", nmap, AB_MAXM);
    const size_t na = rec->n;
    if (na == 0) return vsg_fail(VSG_E_DATA, "ad4 maps: the receptor has no atoms");
    for (int m = 0; m <= nmap; m++) out[m] = NULL;
    H->outs = 1;

    const vsg_ad4_atom_par *lig[VSG_AG_MAX_MAPS];
    for (int m = 0; m < nmap; m++) {
        if (!strcmp(gpf->ligand_types[m], "Z"))
            return vsg_fail(VSG_E_UNSUPPORTED, "ad4 maps: ligand type Z (a covalent map) is not implemented in vsgrid");
        lig[m] = vsg_ad4_params_find(p, gpf->ligand_types[m]);
        if (!lig[m])
            return vsg_fail(VSG_E_DATA,
                            "ad4 maps: ligand type '%s' has no parameters (add an atom_par line to a parameter_file)",
                            gpf->ligand_types[m]);
    }

    double centre[3] = {gpf->center[0], gpf->center[1], gpf->center[2]};
    if (!gpf->have_center) {
        double sum[3] = {0, 0, 0};
        for (size_t i = 0; i < na; i++) sum[0] += rec->atoms[i].x, sum[1] += rec->atoms[i].y, sum[2] += rec->atoms[i].z;
        for (int k = 0; k < 3; k++) centre[k] = sum[k] / (double)na;
    }

    ad4_site *s = H->s = (ad4_site *)calloc(na, sizeof *s);
    const vsg_ad4_atom_par *rtype[VSG_AD4_MAX_TYPES];
    int nrt = 0;
    if (!s) return vsg_fail(VSG_E_NOMEM, "ad4 maps: out of memory for %zu atoms", na);
    for (size_t i = 0; i < na; i++) {
        const vsg_atom *a = &rec->atoms[i];
        if (!a->ad_type[0])
            return vsg_fail(VSG_E_DATA, "%s:%d: atom has no AutoDock type (AutoDock4 maps need a PDBQT receptor)",
                            rec->source, a->line);
        const vsg_ad4_atom_par *pa = vsg_ad4_params_find(p, a->ad_type);
        if (!pa)
            return vsg_fail(VSG_E_DATA,
                            "%s:%d: receptor type '%s' has no parameters (add an atom_par line to a parameter_file)",
                            rec->source, a->line, a->ad_type);
        int t = 0;
        while (t < nrt && rtype[t] != pa) t++;
        if (t == nrt) rtype[nrt++] = pa;
        s[i].x[0] = a->x - centre[0], s[i].x[1] = a->y - centre[1], s[i].x[2] = a->z - centre[2];
        s[i].vol = pa->vol, s[i].solpar = pa->solpar, s[i].absq = fabs(a->charge);
        s[i].type = t, s[i].hbond = pa->hbond, s[i].name_class = ad4_name_class(a->ad_type);
    }
    for (int t = 0; gpf->n_receptor_types > 0 && t < nrt; t++) {
        int k = 0;
        while (k < gpf->n_receptor_types && strcmp(gpf->receptor_types[k], rtype[t]->type)) k++;
        if (k == gpf->n_receptor_types)
            vsg_warn("ad4 maps: receptor type '%s' is not in the gpf's receptor_types (autogrid4 would stop)",
                     rtype[t]->type);
    }

    /* the device: checked before the work */
    const int count = vsg_gpu_count();
    if (count == 0) return vsg_fail(VSG_E_DEVICE, "GPU AD4 maps: no CUDA device (no GPU or no driver)");
    const int dev = device < 0 ? 0 : device;
    if (dev >= count)
        return vsg_fail(VSG_E_DEVICE, "GPU AD4 maps: GPU %d requested, %d CUDA device%s found", dev, count,
                        count == 1 ? "" : "s");

    ad4_hbond_vectors(s, na);

    /* tables, as the CPU twin builds them */
    H->tab = (double *)malloc(sizeof(double) * ((size_t)nmap * nrt + 1) * AD4_NEINT);
    H->sol = (double *)malloc(sizeof(double) * AD4_NEINT);
    if (!H->tab || !H->sol) return vsg_fail(VSG_E_NOMEM, "ad4 maps: out of memory for the tables");
    {
        double *scratch = H->tab + (size_t)nmap * nrt * AD4_NEINT;
        for (int m = 0; m < nmap; m++)
            for (int t = 0; t < nrt; t++)
                ad4_pair_table(p, lig[m], rtype[t], gpf->smooth, H->tab + ((size_t)m * nrt + t) * AD4_NEINT, scratch);
        H->sol[0] = 0.;
        for (int i = 1; i < AD4_NEINT; i++) {
            double r = (double)i * AD4_INV_A_DIV;
            H->sol[i] = p->coeff_desolv * exp(-(r * r) / (2. * (AD4_SIGMA * AD4_SIGMA)));
        }
    }

    /* the grids */
    const int ne[3] = {gpf->npts[0] / 2, gpf->npts[1] / 2, gpf->npts[2] / 2};
    const int n[3] = {2 * ne[0] + 1, 2 * ne[1] + 1, 2 * ne[2] + 1};
    const double h = gpf->spacing;
    double origin[3], spacing[3] = {h, h, h};
    for (int k = 0; k < 3; k++) origin[k] = centre[k] - ne[k] * h;
    vsg_status st = VSG_OK;
    for (int m = 0; m <= nmap && st == VSG_OK; m++) {
        out[m] = vsg_grid_new(n, origin, spacing, "kcal/mol");
        if (!out[m]) st = VSG_E_NOMEM;
        else if (m < nmap) st = vsg_grid_meta_add(out[m], "method", "ad4 affinity %s", gpf->ligand_types[m]);
        else st = vsg_grid_meta_add(out[m], "method", "ad4 desolvation");
    }
    if (st != VSG_OK) return st;
    if ((n[0] + AB_X - 1) / AB_X > 2147483647 || (n[1] + AB_Y - 1) / AB_Y > 65535 || (n[2] + AB_Z - 1) / AB_Z > 65535)
        return vsg_fail(VSG_E_LIMIT, "GPU AD4 maps: %d x %d x %d nodes are past the launch limits", n[0], n[1], n[2]);

    /* sites within reach of the box (relative to the centre), binned into cells */
    double blo[3], bhi[3];
    for (int k = 0; k < 3; k++) blo[k] = -ne[k] * h, bhi[k] = ne[k] * h;
    const double reach = AD4_NBC + 1e-3;
    double corigin[3];
    int nc[3];
    for (int k = 0; k < 3; k++) {
        corigin[k] = blo[k] - reach - 1.0;
        nc[k] = (int)ceil((bhi[k] - blo[k] + 2 * reach + 2.0) / AB_CELL) + 1;
    }
    if ((double)nc[0] * nc[1] * nc[2] > 1e8) return vsg_fail(VSG_E_LIMIT, "GPU AD4 maps: box too large for the cell list");
    if (na > (size_t)INT32_MAX / 2) return vsg_fail(VSG_E_LIMIT, "GPU AD4 maps: %zu receptor atoms", na);
    const size_t ncell = (size_t)nc[0] * nc[1] * nc[2];
    H->cell = (int *)malloc(na * sizeof(int));
    H->start = (int *)calloc(ncell + 1, sizeof(int));
    H->sorted = (ad4_site *)malloc(na * sizeof(ad4_site));
    H->orig = (int *)malloc(na * sizeof(int));
    if (!H->cell || !H->start || !H->sorted || !H->orig) return vsg_fail(VSG_E_NOMEM, "ad4 maps: out of memory");
    size_t nr = 0;
    for (size_t i = 0; i < na; i++) {
        double dd = 0.0;
        for (int k = 0; k < 3; k++) {
            const double q = s[i].x[k], e = q < blo[k] ? blo[k] - q : q > bhi[k] ? q - bhi[k] : 0.0;
            dd += e * e;
        }
        H->cell[i] = -1;
        if (!(dd <= reach * reach)) continue;
        int ci[3];
        for (int k = 0; k < 3; k++) {
            int c = (int)floor((s[i].x[k] - corigin[k]) / AB_CELL);
            ci[k] = c < 0 ? 0 : c >= nc[k] ? nc[k] - 1 : c;
        }
        H->cell[i] = (ci[2] * nc[1] + ci[1]) * nc[0] + ci[0];
        H->start[H->cell[i] + 1]++;
        nr++;
    }
    for (size_t c = 0; c < ncell; c++) H->start[c + 1] += H->start[c];
    {
        int *fill = (int *)malloc(ncell * sizeof(int));
        if (!fill) return vsg_fail(VSG_E_NOMEM, "ad4 maps: out of memory");
        memcpy(fill, H->start, ncell * sizeof(int));
        for (size_t i = 0; i < na; i++) {
            if (H->cell[i] < 0) continue;
            const int j = fill[H->cell[i]]++; /* file order within a cell */
            H->sorted[j] = s[i];
            H->orig[j] = (int)i;
        }
        free(fill);
    }
    /* map parameters */
    int hb[AB_MAXM] = {0};
    double solpar[AB_MAXM] = {0}, vol[AB_MAXM] = {0};
    for (int m = 0; m < nmap; m++) hb[m] = lig[m]->hbond, solpar[m] = lig[m]->solpar, vol[m] = lig[m]->vol;

    /* device */
    CU(cudaGetDevice(&d->prev_device));
    CU(cudaSetDevice(dev));
    const size_t nodes = (size_t)n[0] * n[1] * n[2];
    const size_t out_bytes = sizeof(float) * nodes * (nmap + 1);
    const size_t tab_bytes = sizeof(double) * (size_t)nmap * nrt * AD4_NEINT;
    CU(cudaMalloc((void **)&d->s, (nr ? nr : 1) * sizeof(ad4_site)));
    CU(cudaMalloc((void **)&d->orig, (nr ? nr : 1) * sizeof(int)));
    CU(cudaMalloc((void **)&d->cells, (ncell + 1) * sizeof(int)));
    CU(cudaMalloc((void **)&d->tab, tab_bytes));
    CU(cudaMalloc((void **)&d->sol, sizeof(double) * AD4_NEINT));
    CU(cudaMalloc((void **)&d->out, out_bytes));
    if (nr) {
        CU(cudaMemcpy(d->s, H->sorted, nr * sizeof(ad4_site), cudaMemcpyHostToDevice));
        CU(cudaMemcpy(d->orig, H->orig, nr * sizeof(int), cudaMemcpyHostToDevice));
    }
    CU(cudaMemcpy(d->cells, H->start, (ncell + 1) * sizeof(int), cudaMemcpyHostToDevice));
    CU(cudaMemcpy(d->tab, H->tab, tab_bytes, cudaMemcpyHostToDevice));
    CU(cudaMemcpy(d->sol, H->sol, sizeof(double) * AD4_NEINT, cudaMemcpyHostToDevice));
    CU(cudaMemcpyToSymbol(c_lig_hb, hb, sizeof hb));
    CU(cudaMemcpyToSymbol(c_lig_solpar, solpar, sizeof solpar));
    CU(cudaMemcpyToSymbol(c_lig_vol, vol, sizeof vol));

    AParams P;
    memset(&P, 0, sizeof P);
    P.s = d->s, P.orig = d->orig, P.cell_start = d->cells, P.tab = d->tab, P.sol = d->sol, P.out = d->out;
    for (int k = 0; k < 3; k++) P.n[k] = n[k], P.ne[k] = ne[k], P.nc[k] = nc[k], P.corigin[k] = corigin[k];
    P.h = h, P.qasp = gpf->qasp, P.nmap = nmap, P.nrt = nrt;
    dim3 grid((n[0] + AB_X - 1) / AB_X, (n[1] + AB_Y - 1) / AB_Y, (n[2] + AB_Z - 1) / AB_Z);
    ad4_kernel<<<grid, AB_THREADS>>>(P);
    LAUNCHED("ad4_kernel");
    CU(cudaDeviceSynchronize());
    for (int m = 0; m <= nmap; m++)
        CU(cudaMemcpy(out[m]->data, d->out + (size_t)m * nodes, sizeof(float) * nodes, cudaMemcpyDeviceToHost));
    return VSG_OK;
}

extern "C" vsg_status vsg_ad4_maps_gpu(const vsg_molecule *rec, const vsg_gpf *gpf, const vsg_ad4_params *p,
                                       int device, vsg_grid **out)
{
    Dev d;
    Host H;
    memset(&d, 0, sizeof d);
    memset(&H, 0, sizeof H);
    d.prev_device = -1;
    vsg_status st = run(rec, gpf, p, device, out, &d, &H);
    dev_release(&d);
    host_free(&H);
    if (st != VSG_OK && H.outs)
        for (int m = 0; m <= gpf->n_ligand_types; m++) {
            vsg_grid_free(out[m]);
            out[m] = NULL;
        }
    return st;
}
