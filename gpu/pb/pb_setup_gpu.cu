/* pb_setup_gpu.cu — the PB setup of one grid level on the GPU: the twin of vsg_pb_build followed by
 * vsg_pb_boundary(…, NULL) (grids/pb/pb_setup.c, surface.c, balls.c, boundary_mdh.c).
 *
 * What runs where:
 *   host    the system allocation, the charge assignment (vsg_assign_charges, a few thousand
 *           entries), sdh/dipole faces (vsg_pb_boundary itself, so bit for bit the CPU's), the
 *           mdh atom arrays (vsg_mdh_prepare), per-atom SAS point counts and the table of
 *           cos/sin of the Fibonacci angles (libm, so the points are the CPU's to the bit).
 *           These run while the device works on the geometry.
 *   device  cell lists of the atoms and of the SAS points (count, scan, scatter), the SAS points
 *           (one block per atom, its overlapping spheres in shared memory), the dielectric codes
 *           (one thread per node and direction, looping over the samples), the ion exclusion
 *           and the node flags (one thread per node of a colour), the correction lists (prefix
 *           sum of the listed flags per colour, then one thread per listed node: the lists come
 *           out in index order), and the mdh face sum (one thread per face node, atoms through
 *           shared memory).
 *
 * Exactness. Instead of marking balls into the lattice (vsg_mark_balls) each lattice point looks
 * up the balls near it in a cell list and applies vsg_mark_balls' own test to each: the same
 * operations in the same order (z offset, r² − dz², √, the ceil/floor row and column ranges, the
 * strict dx² < rx²), each explicitly rounded (__dadd_rn & co. are never fused into FMAs, as the
 * CPU on x86-64 never fuses). Whether a point is inside a ball is thus decided exactly as on the
 * CPU, and "inside some ball" does not depend on the order of the balls. The SAS points repeat
 * vsg_sas_points' arithmetic with the host's cos/sin, and the burial test against every other
 * sphere near the atom (a superset of the CPU's overlapping neighbours: a sphere that does not
 * overlap the atom's cannot bury one of its points by the 1e-12 margin of the test). The ε table
 * is the CPU's eps_of evaluated on the host; the list weights use the CPU's expression order.
 * So flags and lists are expected to match exactly. Two ways a difference could arise in
 * principle, both needing a coincidence at the 1e-16 level: vsg_mark_balls prefilters balls by
 * z against zk ± rmax rounded, and the cell windows here use a 1e-3 Å slack; and a host libm
 * whose sincos differed from its separate sin and cos (glibc's agree).
 *
 * The mdh faces take the CPU's float inputs (vsg_mdh_prepare) and sum the terms in double: the
 * exact value of what boundary_mdh.c approximates in float (its 64-atom float partial sums lose up
 * to ~2e-6 of the face scale to cancellation, Σ|terms| being ~100× |φ| for a protein), so GPU and
 * CPU faces differ by the CPU's rounding, measured in tests/test_gpu_pb_setup.c.
 */
#include <cuda_runtime.h>
#include <cub/device/device_scan.cuh>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/device/gpu.h"
#include "gpu/pb/pb_setup_gpu.h"
extern "C" {
#include "grids/base/constants.h" /* C headers without their own extern "C" guard */
#include "grids/base/vsgrid.h"
#include "grids/pb/dielectric.h"
#include "grids/base/profile.h"
}

#define VSG_CUDA_WHO "GPU PB setup"
#include "gpu/device/cuda_check.h"
#include "gpu/device/dev_pool.cuh"
#include "gpu/pb/pb_dev.cuh"
#include "gpu/pb/sor_kernels.cuh" /* the correction list's layout (put_entry, corr_bytes) */

/* ---- tuning constants (each can be overridden at build time, e.g. -DSAS_NB_CAP=256) -------------- */
#ifndef SETUP_BLOCK
#define SETUP_BLOCK 256     /* threads per block of the per-node kernels */
#endif
#ifndef SAS_BLOCK
#define SAS_BLOCK 128       /* threads per block (one atom at a time) of the SAS point kernel */
#endif
#ifndef SAS_NB_CAP
#define SAS_NB_CAP 512      /* overlapping spheres kept in shared memory (more: read from the cell list) */
#endif
#ifndef MDH_BLOCK
#define MDH_BLOCK 128       /* face nodes per block and atoms per shared-memory tile */
#endif
#ifndef PROBE_CELL_DIV
#define PROBE_CELL_DIV 2    /* probe-sphere cells of probe/2: fewer spheres tested per point */
#endif
#define MAX_CELLS (1u << 22) /* cells of one cell list at most (the cell grows beyond) */
#define WINDOW_SLACK 1e-3   /* Å added to the search radius of the cell windows */
#define DEVICE_SLACK_BYTES (64.0 * 1048576.0)

static_assert(SAS_BLOCK % 32 == 0 && MDH_BLOCK % 32 == 0, "whole warps");

/* A sphere; atoms carry their radius in r (the tests add the probe or ion radius). */
struct __align__(16) Ball {
    double x, y, z, r;
};

/* Geometry of a cell list: cell (i, j, k) holds the balls whose centre c has
 * floor((c − lo)/size) = (i, j, k), clamped to the grid. */
struct CellGeo {
    double lo[3], size;
    int n[3];
};

/* A cell list on the device, CSR: the balls of cell q are ball[start[q] .. start[q+1]); cells of
 * one row (fixed y, z) are consecutive. id: the ball's index in the input (atoms only). */
struct Cells {
    CellGeo g;
    const unsigned *start;
    const Ball *ball;
    const int *id;
};

/* The node lattice and the surface settings. */
struct Geom {
    int nx, ny, nz;
    double origin[3], h, inv; /* inv = 1/h, as vsg_mark_balls forms it */
    int ns;                   /* samples per edge */
    int use_probe;
    double probe;
    double r_vdw, r_sas, r_probe; /* window radii: the largest ball of each test + slack */
    double ion_radius;
};

/* What the node flags and the weights need (pb_setup.c). */
struct Phys {
    double eps[VSG_SMOOTH_SAMPLES + 1]; /* eps_of(code) for code = 0 .. samples */
    int samples;
    double eps_out, kfac, qfac;
    int salt_on; /* κ² > 0 */
};

/* ---- correctly rounded double operations (never contracted into FMAs) ------------------------- */
__device__ __forceinline__ double rn_add(double a, double b) { return __dadd_rn(a, b); }
__device__ __forceinline__ double rn_sub(double a, double b) { return __dsub_rn(a, b); }
__device__ __forceinline__ double rn_mul(double a, double b) { return __dmul_rn(a, b); }
__device__ __forceinline__ double rn_div(double a, double b) { return __ddiv_rn(a, b); }

/* ---- cell lists ---------------------------------------------------------------------------------- */
__host__ __device__ __forceinline__ int cell_axis(const CellGeo &g, double p, int a)
{
    const double f = floor((p - g.lo[a]) / g.size);
    return f < 0.0 ? 0 : (f > (double)(g.n[a] - 1) ? g.n[a] - 1 : (int)f);
}

__device__ __forceinline__ unsigned cell_index(const CellGeo &g, const Ball &b)
{
    return (unsigned)cell_axis(g, b.x, 0) +
           (unsigned)g.n[0] * ((unsigned)cell_axis(g, b.y, 1) + (unsigned)g.n[1] * (unsigned)cell_axis(g, b.z, 2));
}

/* The cells that may hold a ball centre within R of p: [lo, hi] per axis; false when empty. The
 * floors are monotonic in p, so every centre within R − (rounding) of p is in the window. */
__device__ __forceinline__ bool window(const CellGeo &g, double px, double py, double pz, double R, int lo[3],
                                       int hi[3])
{
    const double p[3] = {px, py, pz};
#pragma unroll
    for (int a = 0; a < 3; a++) {
        const double l = floor((p[a] - R - g.lo[a]) / g.size), u = floor((p[a] + R - g.lo[a]) / g.size);
        if (!(u >= 0.0) || !(l <= (double)(g.n[a] - 1))) return false;
        lo[a] = l > 0.0 ? (int)l : 0;
        hi[a] = u < (double)(g.n[a] - 1) ? (int)u : g.n[a] - 1;
    }
    return true;
}

/* The distance from coordinate p to cell i's slab along axis a (0 inside it). The edge cells
 * also hold the clamped centres beyond the grid, so they reach out to infinity. */
__device__ __forceinline__ double axis_gap(const CellGeo &g, double p, int i, int a)
{
    const double lo = g.lo[a] + (double)i * g.size, hi = lo + g.size;
    if (i > 0 && p < lo) return lo - p;
    if (i < g.n[a] - 1 && p > hi) return p - hi;
    return 0.0;
}

/* True when f(t) holds for some ball t of the window around p (stops at the first). Rows of
 * cells farther than R from p (in y and z) are skipped and each row's x range is cut to the
 * sphere's chord: the window of cells becomes about a sphere instead of a cube (half the balls
 * tested), and nothing within R − rounding is lost (R carries WINDOW_SLACK beyond every ball's
 * radius, far above the rounding of these bounds), so the answer is the cube's. */
template <class F>
__device__ __forceinline__ bool any_near(const Cells &c, double px, double py, double pz, double R, F f)
{
    int lo[3], hi[3];
    if (!window(c.g, px, py, pz, R, lo, hi)) return false;
    const double R2 = R * R;
    for (int z = lo[2]; z <= hi[2]; z++) {
        const double gz = axis_gap(c.g, pz, z, 2), gz2 = gz * gz;
        if (gz2 > R2) continue;
        for (int y = lo[1]; y <= hi[1]; y++) {
            const double gy = axis_gap(c.g, py, y, 1), g2 = gz2 + gy * gy;
            if (g2 > R2) continue;
            const double xr = sqrt(R2 - g2);
            const double l = floor((px - xr - c.g.lo[0]) / c.g.size), u = floor((px + xr - c.g.lo[0]) / c.g.size);
            const int x0 = l > (double)lo[0] ? (int)l : lo[0], x1 = u < (double)hi[0] ? (int)u : hi[0];
            if (x0 > x1) continue;
            const size_t row = (size_t)c.g.n[0] * ((size_t)y + (size_t)c.g.n[1] * (size_t)z);
            const unsigned end = c.start[row + (size_t)x1 + 1];
            for (unsigned t = c.start[row + (size_t)x0]; t < end; t++)
                if (f(t)) return true;
        }
    }
    return false;
}

/* count[cell] += 1 per ball; n from *ncount when given (a count produced on the device). */
__global__ void cell_count(CellGeo g, const Ball *__restrict__ b, long long nmax, const unsigned *ncount,
                           unsigned *__restrict__ count)
{
    const long long n = ncount ? (long long)*ncount : nmax;
    for (long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x; t < n; t += (long long)gridDim.x * blockDim.x)
        atomicAdd(&count[cell_index(g, b[t])], 1u);
}

/* Scatter into the CSR slots (cursor = a copy of start). The order inside a cell is arbitrary:
 * every use asks "is there a ball such that…", which does not depend on it. */
__global__ void cell_fill(CellGeo g, const Ball *__restrict__ b, long long nmax, const unsigned *ncount,
                          unsigned *__restrict__ cursor, Ball *__restrict__ out, int *__restrict__ id)
{
    const long long n = ncount ? (long long)*ncount : nmax;
    for (long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x; t < n; t += (long long)gridDim.x * blockDim.x) {
        const Ball v = b[t];
        const unsigned slot = atomicAdd(&cursor[cell_index(g, v)], 1u);
        out[slot] = v;
        if (id) id[slot] = (int)t;
    }
}

/* ---- the ball test of vsg_mark_balls (grids/base/balls.c) ---------------------------------------------
 * Lattice point (i, j, k) of the lattice with origin (ox, oy, ·), spacing h, inv = 1/h and
 * zk = oz + k·h, against the ball centred at b with radius r: strictly inside, decided by the
 * same operations as the CPU's loop (its row range j0..j1 and column range i0..i1 included;
 * their clamping to the lattice does not matter for a point of the lattice). */
__device__ __forceinline__ bool marks(const Ball &b, double r, double zk, int i, int j, double ox, double oy,
                                      double h, double inv)
{
    const double dz = rn_sub(zk, b.z);
    const double r2 = rn_sub(rn_mul(r, r), rn_mul(dz, dz));
    if (!(r2 > 0.0)) return false;
    const double rd = __dsqrt_rn(r2);
    const double jd = (double)j;
    if (!(jd >= ceil(rn_mul(rn_sub(rn_sub(b.y, rd), oy), inv)) && jd <= floor(rn_mul(rn_sub(rn_add(b.y, rd), oy), inv))))
        return false;
    const double dy = rn_sub(rn_add(oy, rn_mul(jd, h)), b.y);
    const double rx2 = rn_sub(r2, rn_mul(dy, dy));
    if (!(rx2 > 0.0)) return false;
    const double rx = __dsqrt_rn(rx2);
    const double id = (double)i;
    if (!(id >= ceil(rn_mul(rn_sub(rn_sub(b.x, rx), ox), inv)) && id <= floor(rn_mul(rn_sub(rn_add(b.x, rx), ox), inv))))
        return false;
    const double dx = rn_sub(rn_add(ox, rn_mul(id, h)), b.x);
    return rn_mul(dx, dx) < rx2; /* strict: d < r */
}

/* ---- SAS points (vsg_sas_points) ------------------------------------------------------------------ */
struct SasArgs {
    int natoms;
    double probe;
    double r_nb;   /* largest atom radius + probe (a neighbour sphere's largest radius) */
    double shrink; /* 1 − 1e-12, formed on the host as the CPU's compiler forms it */
};

/* One block per atom: its overlapping spheres (the CPU's filter) into shared memory, then one
 * thread per Fibonacci point; kept points are appended to out (order arbitrary). */
__global__ void __launch_bounds__(SAS_BLOCK)
    sas_points(Cells atoms, const Ball *__restrict__ atom, SasArgs a, const unsigned long long *__restrict__ first,
               const double *__restrict__ cosv, const double *__restrict__ sinv, Ball *__restrict__ out,
               unsigned *__restrict__ nout)
{
    __shared__ Ball nb[SAS_NB_CAP];
    __shared__ unsigned nn;
    for (int i = blockIdx.x; i < a.natoms; i += gridDim.x) {
        const Ball A = atom[i];
        const double ra = rn_add(A.r, a.probe);
        if (threadIdx.x == 0) nn = 0;
        __syncthreads();
        int lo[3], hi[3];
        if (window(atoms.g, A.x, A.y, A.z, ra + a.r_nb + WINDOW_SLACK, lo, hi)) {
            const int rows_y = hi[1] - lo[1] + 1, rows = rows_y * (hi[2] - lo[2] + 1);
            for (int rw = threadIdx.x; rw < rows; rw += blockDim.x) {
                const int y = lo[1] + rw % rows_y, z = lo[2] + rw / rows_y;
                const size_t row = (size_t)atoms.g.n[0] * ((size_t)y + (size_t)atoms.g.n[1] * (size_t)z);
                const unsigned end = atoms.start[row + (size_t)hi[0] + 1];
                for (unsigned t = atoms.start[row + (size_t)lo[0]]; t < end; t++) {
                    if (atoms.id[t] == i) continue;
                    const Ball O = atoms.ball[t];
                    const double ro = rn_add(O.r, a.probe);
                    const double dx = rn_sub(A.x, O.x), dy = rn_sub(A.y, O.y), dz = rn_sub(A.z, O.z), rr = rn_add(ra, ro);
                    if (rn_add(rn_add(rn_mul(dx, dx), rn_mul(dy, dy)), rn_mul(dz, dz)) >= rn_mul(rr, rr)) continue;
                    const unsigned slot = atomicAdd(&nn, 1u);
                    if (slot < SAS_NB_CAP) nb[slot] = Ball{O.x, O.y, O.z, ro};
                }
            }
        }
        __syncthreads();
        const unsigned m = nn;
        const unsigned long long f0 = first[i], np = first[i + 1] - f0;
        const double npd = (double)np;
        for (unsigned long long k = threadIdx.x; k < np; k += blockDim.x) {
            /* Fibonacci sphere, as the CPU: zc, rc, then centre + (r·rc)·cos φ_k etc. */
            const double zc = rn_sub(1.0, rn_div(rn_add(rn_mul(2.0, (double)k), 1.0), npd));
            const double rc = __dsqrt_rn(rn_sub(1.0, rn_mul(zc, zc)));
            const double arc = rn_mul(ra, rc);
            const Ball p = {rn_add(A.x, rn_mul(arc, cosv[k])), rn_add(A.y, rn_mul(arc, sinv[k])), rn_add(A.z, rn_mul(ra, zc)),
                            a.probe};
            auto buries = [&](const Ball &o, double ro) {
                const double dx = rn_sub(p.x, o.x), dy = rn_sub(p.y, o.y), dz = rn_sub(p.z, o.z);
                return rn_add(rn_add(rn_mul(dx, dx), rn_mul(dy, dy)), rn_mul(dz, dz)) < rn_mul(rn_mul(ro, ro), a.shrink);
            };
            bool buried = false;
            if (m <= SAS_NB_CAP) {
                for (unsigned t = 0; t < m && !buried; t++) buried = buries(nb[t], nb[t].r);
            } else { /* too many neighbours for shared memory: every sphere near the point */
                buried = any_near(atoms, p.x, p.y, p.z, a.r_nb + WINDOW_SLACK, [&](unsigned t) {
                    return atoms.id[t] != i && buries(atoms.ball[t], rn_add(atoms.ball[t].r, a.probe));
                });
            }
            if (!buried) out[atomicAdd(nout, 1u)] = p;
        }
        __syncthreads(); /* nb and nn are reused by the next atom */
    }
}

/* ---- dielectric codes (vsg_dielectric_codes / vsg_mark_inside) --------------------------------- */

/* Inside the molecule at point (i, j, k) of the lattice with origin (ox, oy, oz): in a van der
 * Waals ball, or (with a probe) in a SAS ball and in no probe ball — vsg_mark_inside's rule. */
__device__ __forceinline__ bool inside(const Geom &g, const Cells &atoms, const Cells &probes, double ox, double oy,
                                       double oz, int i, int j, int k)
{
    const double zk = rn_add(oz, rn_mul((double)k, g.h));
    const double px = rn_add(ox, rn_mul((double)i, g.h)), py = rn_add(oy, rn_mul((double)j, g.h));
    if (any_near(atoms, px, py, zk, g.r_vdw, [&](unsigned t) {
            const Ball b = atoms.ball[t];
            return marks(b, rn_add(b.r, 0.0), zk, i, j, ox, oy, g.h, g.inv);
        }))
        return true;
    if (!g.use_probe) return false;
    if (!any_near(atoms, px, py, zk, g.r_sas, [&](unsigned t) {
            const Ball b = atoms.ball[t];
            return marks(b, rn_add(b.r, g.probe), zk, i, j, ox, oy, g.h, g.inv);
        }))
        return false;
    return !any_near(probes, px, py, zk, g.r_probe, [&](unsigned t) {
        const Ball b = probes.ball[t];
        return marks(b, b.r, zk, i, j, ox, oy, g.h, g.inv);
    });
}

/* codes[d·n + L] = samples of edge L → L + e_d inside; blockIdx.y = d. The sample lattice's
 * origin is the node origin moved along d by h·(s + ½)/ns, formed as the CPU forms it. */
__global__ void __launch_bounds__(SETUP_BLOCK)
    dielectric_codes(Geom g, Cells atoms, Cells probes, uint8_t *__restrict__ codes, long long n)
{
    const int d = blockIdx.y;
    for (long long L = blockIdx.x * (long long)blockDim.x + threadIdx.x; L < n; L += (long long)gridDim.x * blockDim.x) {
        const int i = (int)(L % g.nx);
        const long long r = L / g.nx;
        const int j = (int)(r % g.ny), k = (int)(r / g.ny);
        int code = 0;
        for (int s = 0; s < g.ns; s++) {
            const double shift = rn_div(rn_mul(g.h, rn_add((double)s, 0.5)), (double)g.ns);
            const double ox = d == 0 ? rn_add(g.origin[0], shift) : g.origin[0];
            const double oy = d == 1 ? rn_add(g.origin[1], shift) : g.origin[1];
            const double oz = d == 2 ? rn_add(g.origin[2], shift) : g.origin[2];
            code += inside(g, atoms, probes, ox, oy, oz, i, j, k) ? 1 : 0;
        }
        codes[(size_t)d * (size_t)n + (size_t)L] = (uint8_t)code;
    }
}

/* ---- node flags and correction lists (vsg_pb_build) ---------------------------------------------- */

/* The six midpoint dielectrics of node L in the order −x, +x, −y, +y, −z, +z. */
__device__ __forceinline__ void node_eps(const Phys &p, const uint8_t *__restrict__ codes, size_t n, size_t L,
                                         size_t nx, size_t plane, double e[6])
{
    const uint8_t c[6] = {codes[L - 1], codes[L], codes[n + L - nx], codes[n + L], codes[2 * n + L - plane],
                          codes[2 * n + L]};
#pragma unroll
    for (int a = 0; a < 6; a++) {
        /* p.eps[min(code, samples)], with compile-time indices only (no local-memory copy) */
        double v = p.eps[0];
#pragma unroll
        for (int q = 1; q <= VSG_SMOOTH_SAMPLES; q++)
            if (c[a] >= q && q <= p.samples) v = p.eps[q];
        e[a] = v;
    }
}

/* The grid charge at node L (0 when none): binary search in the merged, sorted list. */
__device__ __forceinline__ double charge_at(const vsg_grid_charge *__restrict__ q, long long nq, size_t L)
{
    long long lo = 0, hi = nq;
    while (lo < hi) {
        const long long mid = lo + (hi - lo) / 2;
        if (q[mid].linear < L) lo = mid + 1;
        else hi = mid;
    }
    return lo < nq && q[lo].linear == L ? q[lo].q : 0.0;
}

/* charged[L] = 1 for every node with a non-zero grid charge: node_flags reads one byte where a
 * binary search of the charge list per node (17 dependent loads for AChBP) cost more. */
__global__ void charge_map(const vsg_grid_charge *__restrict__ q, long long nq, uint8_t *__restrict__ charged)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < nq; i += (long long)gridDim.x * blockDim.x)
        if (q[i].q != 0.0) charged[q[i].linear] = 1;
}

/* excluded[L] = 1 at every node inside some atom's ion-exclusion sphere (its radius plus the ion
 * radius), by vsg_ion_exclusion's own test (marks): a block per atom over the nodes of the
 * sphere's bounding box (one node wider each way than rounding could need; marks decides). The
 * same set as a search per node through the atom cells, which took 0.13 s at 513³ for AChBP;
 * this takes a few milliseconds. */
__global__ void __launch_bounds__(SETUP_BLOCK)
    ion_map(Geom g, const Ball *__restrict__ atom, int natoms, uint8_t *__restrict__ excluded)
{
    const int n[3] = {g.nx, g.ny, g.nz};
    for (int a = blockIdx.x; a < natoms; a += gridDim.x) {
        const Ball b = atom[a];
        const double r = rn_add(b.r, g.ion_radius), c[3] = {b.x, b.y, b.z};
        int lo[3], hi[3];
        bool empty = false;
#pragma unroll
        for (int d = 0; d < 3; d++) {
            const double l = floor((c[d] - r - g.origin[d]) * g.inv) - 1.0, u = ceil((c[d] + r - g.origin[d]) * g.inv) + 1.0;
            if (!(u >= 0.0) || !(l <= (double)(n[d] - 1))) empty = true;
            lo[d] = l > 0.0 ? (int)l : 0;
            hi[d] = u < (double)(n[d] - 1) ? (int)u : n[d] - 1;
        }
        if (empty) continue;
        const long long sx = hi[0] - lo[0] + 1, sy = hi[1] - lo[1] + 1, sz = hi[2] - lo[2] + 1;
        for (long long u = threadIdx.x; u < sx * sy * sz; u += blockDim.x) {
            const int i = lo[0] + (int)(u % sx), j = lo[1] + (int)((u / sx) % sy), k = lo[2] + (int)(u / (sx * sy));
            const double zk = rn_add(g.origin[2], rn_mul((double)k, g.h));
            if (marks(b, r, zk, i, j, g.origin[0], g.origin[1], g.h, g.inv))
                excluded[(size_t)i + (size_t)g.nx * ((size_t)j + (size_t)g.ny * (size_t)k)] = 1;
        }
    }
}

/* Flags of colour c (faces 0) and pos[k] = 1 where listed (scanned afterwards); pos[count] = 0.
 * excluded: ion_map's nodes, or NULL when nothing is excluded (no atoms). */
__global__ void __launch_bounds__(SETUP_BLOCK)
    node_flags(Geom g, Phys p, const uint8_t *__restrict__ excluded, const uint8_t *__restrict__ codes,
               const uint8_t *__restrict__ charged, int c, long long count, uint8_t *__restrict__ flag,
               unsigned *__restrict__ pos)
{
    const size_t nx = (size_t)g.nx, plane = nx * (size_t)g.ny, n = plane * (size_t)g.nz;
    const long long first = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (first == 0) pos[count] = 0;
    for (long long k = first; k < count; k += (long long)gridDim.x * blockDim.x) {
        const size_t L = 2 * (size_t)k + (size_t)c;
        const int x = (int)(L % nx), y = (int)((L / nx) % (size_t)g.ny), z = (int)(L / plane);
        uint8_t f = 0;
        unsigned listed = 0;
        if (x > 0 && y > 0 && z > 0 && x < g.nx - 1 && y < g.ny - 1 && z < g.nz - 1) {
            double e[6];
            node_eps(p, codes, n, L, nx, plane, e);
            const bool salt = p.salt_on && !(excluded && excluded[L]);
            const bool uniform = e[1] == e[0] && e[2] == e[0] && e[3] == e[0] && e[4] == e[0] && e[5] == e[0];
            listed = charged[L] || !uniform || (salt && e[0] != p.eps_out);
            f = (uint8_t)((salt ? VSG_NODE_SALT : 0) | (listed ? VSG_NODE_LISTED : 0));
        }
        flag[k] = f;
        pos[k] = listed;
    }
}

/* One thread per listed node of colour c: its entry at pos[k] (the exclusive prefix sum), with
 * pb_setup.c's arithmetic: D = ε0 + … + ε5 (+ kfac), w_i = ε_i/D, s = qfac·q/D, k = kfac/D. */
__global__ void __launch_bounds__(SETUP_BLOCK)
    fill_corr(Geom g, Phys p, const uint8_t *__restrict__ codes, const vsg_grid_charge *__restrict__ q, long long nq,
              int c, long long count, const uint8_t *__restrict__ flag, const unsigned *__restrict__ pos,
              vsg_pb_corr *__restrict__ out)
{
    const size_t nx = (size_t)g.nx, plane = nx * (size_t)g.ny, n = plane * (size_t)g.nz;
    for (long long k = blockIdx.x * (long long)blockDim.x + threadIdx.x; k < count; k += (long long)gridDim.x * blockDim.x) {
        const uint8_t f = flag[k];
        if (!(f & VSG_NODE_LISTED)) continue;
        const size_t L = 2 * (size_t)k + (size_t)c;
        double e[6];
        node_eps(p, codes, n, L, nx, plane, e);
        const double qv = charge_at(q, nq, L);
        const bool salt = (f & VSG_NODE_SALT) != 0;
        double d = rn_add(rn_add(rn_add(rn_add(rn_add(e[0], e[1]), e[2]), e[3]), e[4]), e[5]);
        d = rn_add(d, salt ? p.kfac : 0.0);
        vsg_pb_corr r;
        r.index = (uint64_t)k;
#pragma unroll
        for (int a = 0; a < 6; a++) r.w[a] = rn_div(e[a], d);
        r.s = rn_div(rn_mul(p.qfac, qv), d);
        r.k = salt ? rn_div(p.kfac, d) : 0.0;
        out[pos[k]] = r;
    }
}

/* ---- box faces --------------------------------------------------------------------------------- */

/* Face node number t: the planes z = 0 and z = nz−1, then the rows y = 0 and y = ny−1 of the
 * inner planes, then the columns x = 0 and x = nx−1 of the inner rows. */
__host__ __device__ __forceinline__ void face_node(long long t, int nx, int ny, int nz, int *x, int *y, int *z)
{
    const long long plane = (long long)nx * ny, rows = (long long)nx * (nz - 2), cols = (long long)(ny - 2) * (nz - 2);
    if (t < 2 * plane) {
        const long long r = t % plane;
        *z = t < plane ? 0 : nz - 1;
        *x = (int)(r % nx);
        *y = (int)(r / nx);
        return;
    }
    t -= 2 * plane;
    if (t < 2 * rows) {
        const long long r = t % rows;
        *y = t < rows ? 0 : ny - 1;
        *x = (int)(r % nx);
        *z = 1 + (int)(r / nx);
        return;
    }
    t -= 2 * rows;
    const long long r = t % cols;
    *x = t < cols ? 0 : nx - 1;
    *y = 1 + (int)(r % (ny - 2));
    *z = 1 + (int)(r / (ny - 2));
}

/* VSG_PROFILE: the time of each phase, the stream drained first (profile.h). */
#define PHASE(what)                                                      \
    do {                                                                 \
        if (vsg_profiling() && st) (void)cudaStreamSynchronize(st);      \
        vsg_profile_phase(&mark, what);                                  \
    } while (0)

static long long face_count(int nx, int ny, int nz)
{
    return 2 * (long long)nx * ny + 2 * (long long)nx * (nz - 2) + 2 * (long long)(ny - 2) * (nz - 2);
}

struct FaceArgs {
    int nx, ny, nz;
    double origin[3], h;
    long long n;
    int natoms;
    float kappa;
};

/* The mdh potential at every face node from the CPU's inputs (vsg_mdh_prepare's float atoms,
 * the node position and κ rounded to float as vsg_mdh_sum rounds them), with every term and the
 * sum in double: the exact value of the CPU's float sum (which loses up to ~2e-6 of the face
 * scale to cancellation: Σ|terms| is ~100× |φ| for a protein). Atoms in tiles of MDH_BLOCK
 * through shared memory. */
__global__ void __launch_bounds__(MDH_BLOCK)
    mdh_faces(FaceArgs f, const float *__restrict__ ax, const float *__restrict__ ay, const float *__restrict__ az,
              const float *__restrict__ aa, const float *__restrict__ ac, double *__restrict__ out)
{
    __shared__ float sx[MDH_BLOCK], sy[MDH_BLOCK], sz[MDH_BLOCK], sa[MDH_BLOCK], sc[MDH_BLOCK];
    const double nk = -(double)f.kappa;
    for (long long base = blockIdx.x * (long long)blockDim.x; base < f.n; base += (long long)gridDim.x * blockDim.x) {
        const long long t = base + threadIdx.x;
        const bool live = t < f.n;
        double px = 0.0, py = 0.0, pz = 0.0;
        if (live) {
            int x, y, z;
            face_node(t, f.nx, f.ny, f.nz, &x, &y, &z);
            px = (double)(float)rn_add(f.origin[0], rn_mul((double)x, f.h));
            py = (double)(float)rn_add(f.origin[1], rn_mul((double)y, f.h));
            pz = (double)(float)rn_add(f.origin[2], rn_mul((double)z, f.h));
        }
        double v = 0.0;
        for (int i0 = 0; i0 < f.natoms; i0 += MDH_BLOCK) {
            const int m = f.natoms - i0 < MDH_BLOCK ? f.natoms - i0 : MDH_BLOCK;
            __syncthreads(); /* the previous tile is no longer read */
            if ((int)threadIdx.x < m) {
                sx[threadIdx.x] = ax[i0 + threadIdx.x];
                sy[threadIdx.x] = ay[i0 + threadIdx.x];
                sz[threadIdx.x] = az[i0 + threadIdx.x];
                sa[threadIdx.x] = aa[i0 + threadIdx.x];
                sc[threadIdx.x] = ac[i0 + threadIdx.x];
            }
            __syncthreads();
            if (!live) continue;
            for (int u = 0; u < m; u++) {
                const double dx = px - (double)sx[u], dy = py - (double)sy[u], dz = pz - (double)sz[u];
                double r = sqrt(dx * dx + dy * dy + dz * dz);
                r = r > (double)sa[u] ? r : (double)sa[u];
                v += (double)sc[u] * exp(nk * r) / r;
            }
        }
        if (live) out[t] = v;
    }
}

/* ---- host side ----------------------------------------------------------------------------------- */

/* ---- a level kept on the device (pb_dev.h) ----------------------------------------------------- */

/* The mdh faces into the potential arrays, rounded to the precision as vsg_pb_set rounds them. */
template <typename R>
__global__ void faces_to_phi(long long n, int nx, int ny, int nz, const double *__restrict__ faces, R *__restrict__ p0,
                             R *__restrict__ p1)
{
    for (long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x; t < n; t += (long long)gridDim.x * blockDim.x) {
        int x, y, z;
        face_node(t, nx, ny, nz, &x, &y, &z);
        const size_t L = (size_t)x + (size_t)nx * ((size_t)y + (size_t)ny * (size_t)z);
        (L & 1 ? p1 : p0)[L >> 1] = (R)faces[t];
    }
}

/* The list as the solver reads it (sor_kernels.cuh's layout, as sor_gpu.cu's upload_corr writes
 * it on the host); and max |s| (as ordered bits) into *smax_bits, for the level's float
 * tolerance. */
template <typename R>
__global__ void __launch_bounds__(SETUP_BLOCK)
    corr_soa(const vsg_pb_corr *__restrict__ in, long long n, void *out, unsigned long long *smax_bits)
{
    unsigned long long m = 0;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < n; e += (long long)gridDim.x * blockDim.x) {
        const vsg_pb_corr q = in[e];
        put_entry<R>(out, (size_t)n, (size_t)e, q, 0);
        const unsigned long long b = (unsigned long long)__double_as_longlong(fabs(q.s));
        m = b > m ? b : m;
    }
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        const unsigned long long u = __shfl_xor_sync(0xffffffffu, m, o);
        m = u > m ? u : m;
    }
    if ((threadIdx.x & 31) == 0 && m) atomicMax(smax_bits, m);
}

/* Everything the call allocates, freed by release() whatever happened. */
struct Dev {
    /* device */
    Ball *atom, *aball, *probe, *pball;
    int *aid;
    unsigned *astart, *acursor, *pstart, *pcursor, *nprobe, *pos[2];
    unsigned long long *first;
    double *cosv, *sinv, *faces;
    uint8_t *codes, *flag[2], *charged, *excluded;
    vsg_grid_charge *charges;
    float *md[5];
    vsg_pb_corr *corr[2];
    unsigned long long *smax;
    void *scan_tmp;
    cudaStream_t stream;
    int prev_device;
    /* host */
    Ball *h_atom;
    unsigned long long *h_first;
    double *h_cos, *h_sin, *h_faces;
    vsg_mdh_atoms md_host;
    int have_md;
};

/* The scratch goes back to the pool in the stream's order; a stream handed to a resident level
 * (keep_stream) stays. The stream has drained by then on success (the build ends waiting for
 * it); the wait is for a failed build, whose level's arrays are freed outside this stream. */
static void release(Dev *d, bool keep_stream)
{
    if (d->stream) (void)cudaStreamSynchronize(d->stream);
    void *dev[] = {d->atom, d->aball, d->probe, d->pball, d->aid, d->astart, d->acursor, d->pstart, d->pcursor,
                   d->nprobe, d->pos[0], d->pos[1], d->first, d->cosv, d->sinv, d->faces, d->codes, d->flag[0],
                   d->flag[1], d->charges, d->md[0], d->md[1], d->md[2], d->md[3], d->md[4], d->corr[0],
                   d->corr[1], d->smax, d->charged, d->excluded, d->scan_tmp};
    for (size_t i = 0; i < sizeof dev / sizeof dev[0]; i++) pool_free(dev[i], d->stream);
    if (d->stream && !keep_stream) cudaStreamDestroy(d->stream);
    (void)cudaGetLastError();
    if (d->prev_device >= 0) (void)cudaSetDevice(d->prev_device);
    (void)cudaGetLastError();
    free(d->h_atom);
    free(d->h_first);
    free(d->h_cos);
    free(d->h_sin);
    free(d->h_faces);
    if (d->have_md) vsg_mdh_free(&d->md_host);
}

/* A cell list's geometry over centres in [lo, hi]: cells of `size`, grown until there are at most
 * MAX_CELLS of them. */
static CellGeo cell_geo(const double lo[3], const double hi[3], double size)
{
    CellGeo g;
    for (;;) {
        double total = 1.0;
        for (int a = 0; a < 3; a++) {
            double k = floor((hi[a] - lo[a]) / size) + 1.0;
            total *= k;
            g.n[a] = k < 1e9 ? (int)k : 1000000000;
        }
        if (total <= (double)MAX_CELLS) break;
        size *= 1.25;
    }
    memcpy(g.lo, lo, sizeof g.lo);
    g.size = size;
    return g;
}

static size_t cells_of(const CellGeo &g) { return (size_t)g.n[0] * (size_t)g.n[1] * (size_t)g.n[2]; }

static int blocks_for(long long items, int threads, int sms, int per_sm)
{
    long long b = (items + threads - 1) / threads, cap = (long long)sms * per_sm;
    if (b > cap) b = cap;
    return b < 1 ? 1 : (int)b;
}

/* eps_of of pb_setup.c, the same expression. */
static double eps_of(const vsg_pb_physics *ph, int code, int samples)
{
    if (code == 0) return ph->eps_out;
    if (code >= samples) return ph->eps_in;
    double f = (double)code / samples;
    return 1.0 / (f / ph->eps_in + (1.0 - f) / ph->eps_out);
}

/* Builds a cell list of nmax balls (or *ncount, a device count, when given) on the stream. */
static vsg_status build_cells(const CellGeo &g, const Ball *balls, long long nmax, const unsigned *ncount,
                              unsigned *start, unsigned *cursor, Ball *out, int *id, void *tmp, size_t tmp_bytes,
                              int sms, cudaStream_t st)
{
    const size_t nc = cells_of(g);
    CU(cudaMemsetAsync(start, 0, (nc + 1) * sizeof(unsigned), st));
    if (nmax > 0) {
        cell_count<<<blocks_for(nmax, SETUP_BLOCK, sms, 8), SETUP_BLOCK, 0, st>>>(g, balls, nmax, ncount, start);
        LAUNCHED("cell_count");
    }
    CU(cub::DeviceScan::ExclusiveSum(tmp, tmp_bytes, start, start, (int)(nc + 1), st));
    CU(cudaMemcpyAsync(cursor, start, nc * sizeof(unsigned), cudaMemcpyDeviceToDevice, st));
    if (nmax > 0) {
        cell_fill<<<blocks_for(nmax, SETUP_BLOCK, sms, 8), SETUP_BLOCK, 0, st>>>(g, balls, nmax, ncount, cursor, out, id);
        LAUNCHED("cell_fill");
    }
    return VSG_OK;
}

/* The end of a resident build: the potential arrays (zero, then the mdh faces), the flags and
 * the charge list handed over, the lists in the solver's layout, max |s|. Waits for the stream. */
template <typename R>
static vsg_status keep_on_device(const vsg_pb_system *s, vsg_boundary bc, long long nfaces, int sms, Dev *d,
                                 vsg_pb_dev *k)
{
    cudaStream_t st = d->stream;
    CU(pool_alloc((void **)&d->smax, sizeof(unsigned long long), st));
    CU(cudaMemsetAsync(d->smax, 0, sizeof(unsigned long long), st));
    k->charges = d->charges;
    d->charges = NULL;
    for (int c = 0; c < 2; c++) {
        CU(pool_alloc((void **)&k->phi[c], s->count[c] * sizeof(R), st));
        CU(cudaMemsetAsync(k->phi[c], 0, s->count[c] * sizeof(R), st));
        k->flag[c] = d->flag[c];
        d->flag[c] = NULL;
        const size_t n = s->ncorr[c];
        k->ncorr[c] = n;
        if (n == 0) continue;
        CU(pool_alloc((void **)&k->corr[c], corr_bytes<R>(n), st));
        corr_soa<R><<<blocks_for((long long)n, SETUP_BLOCK, sms, 8), SETUP_BLOCK, 0, st>>>(d->corr[c], (long long)n,
                                                                                          k->corr[c], d->smax);
        LAUNCHED("corr_soa");
    }
    if (bc == VSG_BC_MDH) {
        faces_to_phi<R><<<blocks_for(nfaces, SETUP_BLOCK, sms, 8), SETUP_BLOCK, 0, st>>>(
            nfaces, s->nx, s->ny, s->nz, d->faces, (R *)k->phi[0], (R *)k->phi[1]);
        LAUNCHED("faces_to_phi");
    }
    unsigned long long bits = 0;
    CU(cudaMemcpyAsync(&bits, d->smax, sizeof bits, cudaMemcpyDeviceToHost, st));
    CU(cudaStreamSynchronize(st));
    memcpy(&k->max_source, &bits, sizeof bits);
    return VSG_OK;
}

/* keep: NULL for the host copy of the system (vsg_pb_build_gpu); else a resident build
 * (vsg_pb_dev_build): s has no arrays and the level's arrays end up in *keep. */
static vsg_status build(const vsg_molecule *m, const vsg_pb_physics *ph, const vsg_level *lv, vsg_boundary bc,
                        vsg_pb_system *s, vsg_grid_charge **charges, size_t *ncharges, double *outside, int device,
                        int depth, Dev *d, vsg_pb_dev *keep)
{
    const int count = vsg_gpu_count();
    if (count == 0) return vsg_fail(VSG_E_DEVICE, "GPU PB setup: no CUDA device (no GPU or no driver)");
    const int dev = device < 0 ? 0 : device;
    if (dev >= count)
        return vsg_fail(VSG_E_DEVICE, "GPU PB setup: GPU %d requested, %d CUDA device%s found", dev, count,
                        count == 1 ? "" : "s");
    if (m->n > (size_t)INT_MAX / 2)
        return vsg_fail(VSG_E_LIMIT, "GPU PB setup: %zu atoms is past this implementation's limit", m->n);
    if (s->count[0] >= (size_t)INT_MAX)
        return vsg_fail(VSG_E_LIMIT, "GPU PB setup: a %dx%dx%d grid is past this implementation's limit", s->nx,
                        s->ny, s->nz);

    double mark = vsg_now();
    cudaStream_t st = NULL;
    int prev = -1;
    if (cudaGetDevice(&prev) == cudaSuccess && prev != dev) d->prev_device = prev;
    (void)cudaGetLastError();
    CU(cudaSetDevice(dev));
    int sms = 0;
    CU(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    if (sms < 1) sms = 1;
    /* A nested level's stream outranks its parent's (one step a level, within the device's
     * range): the parent's build, which overlaps them, then does not hold up the small coarse
     * levels that the parent waits for. */
    int least = 0, greatest = 0;
    CU(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    const int priority = least - depth > greatest ? least - depth : greatest;
    CU(cudaStreamCreateWithPriority(&d->stream, cudaStreamNonBlocking, priority));
    st = d->stream;
    PHASE("setup: device, stream");

    const int nx = s->nx, ny = s->ny, nz = s->nz;
    const long long n = (long long)s->nodes;
    const int natoms = (int)m->n;

    /* ---- host preparation: atoms, surface settings, SAS point counts, the ε table ---- */
    const int use_probe = ph->surface != VSG_SURFACE_VDW && ph->probe > 0.0;
    const int ns = ph->surface == VSG_SURFACE_SMOOTH ? VSG_SMOOTH_SAMPLES : 1;
    Geom g;
    memset(&g, 0, sizeof g);
    g.nx = nx;
    g.ny = ny;
    g.nz = nz;
    memcpy(g.origin, lv->origin, sizeof g.origin);
    g.h = lv->h;
    g.inv = 1.0 / lv->h;
    g.ns = ns;
    g.use_probe = use_probe;
    g.probe = ph->probe;
    g.ion_radius = ph->ion_radius;

    d->h_atom = (Ball *)malloc((natoms ? natoms : 1) * sizeof(Ball));
    if (!d->h_atom) return vsg_fail(VSG_E_NOMEM, "out of memory (GPU PB setup: atoms)");
    double alo[3] = {0, 0, 0}, ahi[3] = {0, 0, 0}, rvdw = 0.0, rsas = 0.0;
    for (int i = 0; i < natoms; i++) {
        const vsg_atom *a = &m->atoms[i];
        d->h_atom[i] = Ball{a->x, a->y, a->z, a->radius};
        const double p[3] = {a->x, a->y, a->z};
        for (int k = 0; k < 3; k++) {
            alo[k] = i == 0 || p[k] < alo[k] ? p[k] : alo[k];
            ahi[k] = i == 0 || p[k] > ahi[k] ? p[k] : ahi[k];
        }
        rvdw = fmax(rvdw, a->radius + 0.0);
        rsas = fmax(rsas, a->radius + ph->probe);
    }
    for (int k = 0; k < 3 && natoms > 0; k++)
        if (!isfinite(alo[k]) || !isfinite(ahi[k]))
            return vsg_fail(VSG_E_ARG, "GPU PB setup: atom coordinates are not finite");
    g.r_vdw = rvdw + WINDOW_SLACK;
    g.r_sas = rsas + WINDOW_SLACK;
    g.r_probe = ph->probe + WINDOW_SLACK;

    /* SAS points per atom, as vsg_sas_points counts them; cos/sin of the Fibonacci angles. */
    unsigned long long total = 0, maxnp = 0;
    if (use_probe && natoms > 0) {
        const double step = lv->h < 1.0 ? 0.5 * lv->h : 0.5;
        d->h_first = (unsigned long long *)malloc(((size_t)natoms + 1) * sizeof(unsigned long long));
        if (!d->h_first) return vsg_fail(VSG_E_NOMEM, "out of memory (GPU PB setup: surface points)");
        d->h_first[0] = 0;
        for (int i = 0; i < natoms; i++) {
            const double r = m->atoms[i].radius + ph->probe;
            const unsigned long long np = (unsigned long long)ceil(4.0 * VSG_PI * r * r / (step * step)) + 1;
            d->h_first[i + 1] = d->h_first[i] + np;
            maxnp = np > maxnp ? np : maxnp;
        }
        total = d->h_first[natoms];
        if (total >= (unsigned long long)UINT_MAX)
            return vsg_fail(VSG_E_LIMIT, "GPU PB setup: %llu surface points is past this implementation's limit", total);
        d->h_cos = (double *)malloc(maxnp * sizeof(double));
        d->h_sin = (double *)malloc(maxnp * sizeof(double));
        if (!d->h_cos || !d->h_sin) return vsg_fail(VSG_E_NOMEM, "out of memory (GPU PB setup: surface points)");
        const double golden = VSG_PI * (3.0 - sqrt(5.0));
        for (unsigned long long k = 0; k < maxnp; k++) {
            const double phi = golden * (double)k;
            d->h_cos[k] = cos(phi);
            d->h_sin[k] = sin(phi);
        }
    }

    /* Cell lists: atoms (cells of the largest vdW radius), SAS points (cells of the probe radius,
     * over the atoms' box grown by the largest SAS radius, which holds every point). */
    Cells atoms, probes;
    memset(&atoms, 0, sizeof atoms);
    memset(&probes, 0, sizeof probes);
    atoms.g = cell_geo(alo, ahi, fmax(rvdw, 0.5) + WINDOW_SLACK);
    {
        double plo[3], phi_[3];
        for (int k = 0; k < 3; k++) {
            plo[k] = alo[k] - rsas - WINDOW_SLACK;
            phi_[k] = ahi[k] + rsas + WINDOW_SLACK;
        }
        probes.g = cell_geo(plo, phi_, fmax(ph->probe / PROBE_CELL_DIV, 0.5) + WINDOW_SLACK);
    }
    const size_t nca = cells_of(atoms.g), ncp = use_probe ? cells_of(probes.g) : 0;
    PHASE("setup: host atoms, surface angles");

    Phys p;
    memset(&p, 0, sizeof p);
    p.samples = ns;
    for (int c = 0; c <= ns; c++) p.eps[c] = eps_of(ph, c, ns);
    p.eps_out = ph->eps_out;
    p.kfac = ph->eps_out * s->kh2;
    p.qfac = 4.0 * VSG_PI * ph->lambda_b / lv->h;
    p.salt_on = ph->kappa2 > 0.0;

    const long long nfaces = face_count(nx, ny, nz);
    const long long cnt[2] = {(long long)s->count[0], (long long)s->count[1]};

    /* Scan scratch: the largest of the four scans. */
    size_t tmp_bytes = 0;
    {
        const long long items[4] = {cnt[0] + 1, cnt[1] + 1, (long long)nca + 1, (long long)ncp + 1};
        for (int k = 0; k < 4; k++) {
            size_t b = 0;
            CU(cub::DeviceScan::ExclusiveSum(NULL, b, (unsigned *)NULL, (unsigned *)NULL, (int)items[k], st));
            tmp_bytes = b > tmp_bytes ? b : tmp_bytes;
        }
    }

    /* Device memory: everything but the correction lists, whose size is known only later. */
    const double need = (double)natoms * (2.0 * sizeof(Ball) + sizeof(int) + 5.0 * sizeof(float)) +
                        (double)(nca + 1) * 2.0 * sizeof(unsigned) +
                        (double)total * 2.0 * sizeof(Ball) + (double)(ncp + 1) * 2.0 * sizeof(unsigned) +
                        (double)(natoms + 1) * 8.0 + (double)maxnp * 16.0 + 3.0 * (double)n + (double)n +
                        (double)(cnt[0] + cnt[1] + 2) * sizeof(unsigned) + (double)tmp_bytes +
                        (double)natoms * 64.0 * sizeof(vsg_grid_charge) + (double)nfaces * sizeof(double) + 2.0 * (double)n +
                        (keep ? (double)n * (s->precision == VSG_PRECISION_FLOAT ? 4.0 : 8.0) : 0.0);
    size_t fr = 0, tot = 0;
    CU(pool_mem_info(dev, &fr, &tot));
    if (need + DEVICE_SLACK_BYTES > (double)fr)
        return vsg_fail(VSG_E_LIMIT, "GPU PB setup: a %dx%dx%d level needs %.1f MiB on GPU %d, %.1f MiB free of %.1f MiB",
                        nx, ny, nz, (need + DEVICE_SLACK_BYTES) / 1048576.0, dev, (double)fr / 1048576.0,
                        (double)tot / 1048576.0);

    CU(pool_alloc((void **)&d->atom, (natoms ? natoms : 1) * sizeof(Ball), st));
    CU(pool_alloc((void **)&d->aball, (natoms ? natoms : 1) * sizeof(Ball), st));
    CU(pool_alloc((void **)&d->aid, (natoms ? natoms : 1) * sizeof(int), st));
    CU(pool_alloc((void **)&d->astart, (nca + 1) * sizeof(unsigned), st));
    CU(pool_alloc((void **)&d->acursor, (nca + 1) * sizeof(unsigned), st));
    CU(pool_alloc((void **)&d->codes, 3 * (size_t)n, st));
    for (int c = 0; c < 2; c++) {
        CU(pool_alloc((void **)&d->flag[c], (size_t)cnt[c], st));
        CU(pool_alloc((void **)&d->pos[c], ((size_t)cnt[c] + 1) * sizeof(unsigned), st));
    }
    CU(pool_alloc((void **)&d->scan_tmp, tmp_bytes ? tmp_bytes : 1, st));
    if (use_probe && natoms > 0) {
        CU(pool_alloc((void **)&d->first, ((size_t)natoms + 1) * sizeof(unsigned long long), st));
        CU(pool_alloc((void **)&d->cosv, maxnp * sizeof(double), st));
        CU(pool_alloc((void **)&d->sinv, maxnp * sizeof(double), st));
        CU(pool_alloc((void **)&d->probe, (total ? total : 1) * sizeof(Ball), st));
        CU(pool_alloc((void **)&d->pball, (total ? total : 1) * sizeof(Ball), st));
        CU(pool_alloc((void **)&d->nprobe, sizeof(unsigned), st));
        CU(pool_alloc((void **)&d->pstart, (ncp + 1) * sizeof(unsigned), st));
        CU(pool_alloc((void **)&d->pcursor, (ncp + 1) * sizeof(unsigned), st));
    }

    PHASE("setup: device allocations");

    /* ---- device: geometry ---- */
    if (natoms > 0) {
        CU(cudaMemcpyAsync(d->atom, d->h_atom, (size_t)natoms * sizeof(Ball), cudaMemcpyHostToDevice, st));
        vsg_status bs = build_cells(atoms.g, d->atom, natoms, NULL, d->astart, d->acursor, d->aball, d->aid,
                                    d->scan_tmp, tmp_bytes, sms, st);
        if (bs != VSG_OK) return bs;
        atoms.start = d->astart;
        atoms.ball = d->aball;
        atoms.id = d->aid;
        if (use_probe) {
            CU(cudaMemcpyAsync(d->first, d->h_first, ((size_t)natoms + 1) * sizeof(unsigned long long),
                               cudaMemcpyHostToDevice, st));
            CU(cudaMemcpyAsync(d->cosv, d->h_cos, maxnp * sizeof(double), cudaMemcpyHostToDevice, st));
            CU(cudaMemcpyAsync(d->sinv, d->h_sin, maxnp * sizeof(double), cudaMemcpyHostToDevice, st));
            CU(cudaMemsetAsync(d->nprobe, 0, sizeof(unsigned), st));
            SasArgs sa;
            sa.natoms = natoms;
            sa.probe = ph->probe;
            sa.r_nb = rsas;
            sa.shrink = 1.0 - 1e-12;
            sas_points<<<blocks_for((long long)natoms * SAS_BLOCK, SAS_BLOCK, sms, 16), SAS_BLOCK, 0, st>>>(
                atoms, d->atom, sa, d->first, d->cosv, d->sinv, d->probe, d->nprobe);
            LAUNCHED("sas_points");
            PHASE("setup: geometry: SAS points");
            if (vsg_profiling()) {
                unsigned kept = 0;
                if (cudaMemcpy(&kept, d->nprobe, sizeof kept, cudaMemcpyDeviceToHost) == cudaSuccess)
                    fprintf(stderr, "vsgrid profile:   (%u of %llu SAS points kept, %d atoms)\n", kept, total, natoms);
            }
            bs = build_cells(probes.g, d->probe, (long long)total, d->nprobe, d->pstart, d->pcursor, d->pball, NULL,
                             d->scan_tmp, tmp_bytes, sms, st);
            if (bs != VSG_OK) return bs;
            probes.start = d->pstart;
            probes.ball = d->pball;
            PHASE("setup: geometry: probe cells");
        }
        const dim3 grid((unsigned)blocks_for(n, SETUP_BLOCK, sms, 32), 3);
        dielectric_codes<<<grid, SETUP_BLOCK, 0, st>>>(g, atoms, probes, d->codes, n);
        LAUNCHED("dielectric_codes");
    } else {
        CU(cudaMemsetAsync(d->codes, 0, 3 * (size_t)n, st)); /* no atoms: all solvent */
    }

    PHASE("setup: geometry kernels");

    /* ---- host, meanwhile: charges, and the faces the CPU's own code computes exactly ---- */
    vsg_status hs = vsg_assign_charges(m, lv, ph->spline, charges, ncharges, outside);
    if (hs != VSG_OK) return hs;
    if (bc == VSG_BC_SDH || bc == VSG_BC_DIPOLE) {
        hs = vsg_pb_boundary(s, m, ph, bc, NULL);
        if (hs != VSG_OK) return hs;
    }
    if (bc == VSG_BC_MDH) {
        memset(&d->md_host, 0, sizeof d->md_host);
        d->md_host.kappa = sqrt(ph->kappa2);
        if (vsg_mdh_prepare(&d->md_host, m, ph) != VSG_OK) return vsg_fail(VSG_E_NOMEM, "out of memory (boundary)");
        d->have_md = 1;
    }

    PHASE("setup: host charges, boundary atoms");

    /* ---- device: flags, list positions, mdh faces ---- */
    const long long nq = (long long)*ncharges;
    CU(pool_alloc((void **)&d->charges, (nq ? (size_t)nq : 1) * sizeof(vsg_grid_charge), st));
    if (nq) CU(cudaMemcpyAsync(d->charges, *charges, (size_t)nq * sizeof(vsg_grid_charge), cudaMemcpyHostToDevice, st));
    CU(pool_alloc((void **)&d->charged, (size_t)n, st));
    CU(cudaMemsetAsync(d->charged, 0, (size_t)n, st));
    if (nq) {
        charge_map<<<blocks_for(nq, SETUP_BLOCK, sms, 8), SETUP_BLOCK, 0, st>>>(d->charges, nq, d->charged);
        LAUNCHED("charge_map");
    }
    if (p.salt_on && natoms > 0) {
        CU(pool_alloc((void **)&d->excluded, (size_t)n, st));
        CU(cudaMemsetAsync(d->excluded, 0, (size_t)n, st));
        ion_map<<<blocks_for((long long)natoms * SETUP_BLOCK, SETUP_BLOCK, sms, 32), SETUP_BLOCK, 0, st>>>(
            g, d->atom, natoms, d->excluded);
        LAUNCHED("ion_map");
    }
    for (int c = 0; c < 2; c++) {
        node_flags<<<blocks_for(cnt[c], SETUP_BLOCK, sms, 32), SETUP_BLOCK, 0, st>>>(g, p, d->excluded, d->codes,
                                                                                    d->charged, c, cnt[c], d->flag[c],
                                                                                    d->pos[c]);
        LAUNCHED("node_flags");
        CU(cub::DeviceScan::ExclusiveSum(d->scan_tmp, tmp_bytes, d->pos[c], d->pos[c], (int)(cnt[c] + 1), st));
    }
    if (bc == VSG_BC_MDH) {
        const size_t nmd = d->md_host.n;
        for (int k = 0; k < 5; k++) CU(pool_alloc((void **)&d->md[k], (nmd ? nmd : 1) * sizeof(float), st));
        CU(pool_alloc((void **)&d->faces, (size_t)nfaces * sizeof(double), st));
        const float *src[5] = {d->md_host.x, d->md_host.y, d->md_host.z, d->md_host.a, d->md_host.c};
        if (nmd)
            for (int k = 0; k < 5; k++)
                CU(cudaMemcpyAsync(d->md[k], src[k], nmd * sizeof(float), cudaMemcpyHostToDevice, st));
        FaceArgs fa;
        fa.nx = nx;
        fa.ny = ny;
        fa.nz = nz;
        memcpy(fa.origin, s->origin, sizeof fa.origin);
        fa.h = s->h;
        fa.n = nfaces;
        fa.natoms = (int)nmd;
        fa.kappa = (float)d->md_host.kappa;
        mdh_faces<<<blocks_for(nfaces, MDH_BLOCK, sms, 32), MDH_BLOCK, 0, st>>>(fa, d->md[0], d->md[1], d->md[2],
                                                                              d->md[3], d->md[4], d->faces);
        LAUNCHED("mdh_faces");
    }
    unsigned listed[2] = {0, 0};
    for (int c = 0; c < 2; c++)
        CU(cudaMemcpyAsync(&listed[c], d->pos[c] + cnt[c], sizeof(unsigned), cudaMemcpyDeviceToHost, st));
    CU(cudaStreamSynchronize(st));
    PHASE("setup: flags, faces kernels");

    /* ---- the lists: exact sizes now known ---- */
    for (int c = 0; c < 2; c++) {
        s->ncorr[c] = listed[c];
        if (!keep) {
            s->corr[c] = (vsg_pb_corr *)malloc((s->ncorr[c] ? s->ncorr[c] : 1) * sizeof(vsg_pb_corr));
            if (!s->corr[c]) return vsg_fail(VSG_E_NOMEM, "out of memory (correction lists: %zu nodes)", s->ncorr[c]);
        }
        CU(pool_alloc((void **)&d->corr[c], (s->ncorr[c] ? s->ncorr[c] : 1) * sizeof(vsg_pb_corr), st));
        fill_corr<<<blocks_for(cnt[c], SETUP_BLOCK, sms, 32), SETUP_BLOCK, 0, st>>>(g, p, d->codes, d->charges, nq, c,
                                                                                   cnt[c], d->flag[c], d->pos[c],
                                                                                   d->corr[c]);
        LAUNCHED("fill_corr");
    }
    PHASE("setup: lists (allocate, fill)");
    if (keep) {
        keep->precision = s->precision;
        keep->device = dev;
        keep->ncharges = (size_t)nq;
        const vsg_status ks = s->precision == VSG_PRECISION_FLOAT ? keep_on_device<float>(s, bc, nfaces, sms, d, keep)
                                                                  : keep_on_device<double>(s, bc, nfaces, sms, d, keep);
        PHASE("setup: keep on the device");
        return ks;
    }
    for (int c = 0; c < 2; c++) {
        CU(cudaMemcpyAsync(s->flag[c], d->flag[c], (size_t)cnt[c], cudaMemcpyDeviceToHost, st));
        if (s->ncorr[c])
            CU(cudaMemcpyAsync(s->corr[c], d->corr[c], s->ncorr[c] * sizeof(vsg_pb_corr), cudaMemcpyDeviceToHost, st));
    }
    if (bc == VSG_BC_MDH) {
        d->h_faces = (double *)malloc((size_t)nfaces * sizeof(double));
        if (!d->h_faces) return vsg_fail(VSG_E_NOMEM, "out of memory (boundary)");
        CU(cudaMemcpyAsync(d->h_faces, d->faces, (size_t)nfaces * sizeof(double), cudaMemcpyDeviceToHost, st));
    }
    CU(cudaStreamSynchronize(st));
    PHASE("setup: download flags, lists, faces");
    if (bc == VSG_BC_MDH)
        for (long long t = 0; t < nfaces; t++) {
            int x, y, z;
            face_node(t, nx, ny, nz, &x, &y, &z);
            vsg_pb_set(s, vsg_pb_linear(s, x, y, z), d->h_faces[t]);
        }
    PHASE("setup: faces into the host system");
    return VSG_OK;
}

/* Both entry points after their checks: build with a fresh Dev, hand the stream to a resident
 * level, release the scratch; on failure s and the charges are freed. */
static vsg_status run_build(const vsg_molecule *m, const vsg_pb_physics *ph, const vsg_level *lv, vsg_boundary bc,
                            vsg_pb_system *s, vsg_grid_charge **charges, size_t *ncharges, double *outside,
                            int device, int depth, vsg_pb_dev *keep)
{
    Dev d;
    memset(&d, 0, sizeof d);
    d.prev_device = -1;
    vsg_status st = build(m, ph, lv, bc, s, charges, ncharges, outside, device, depth, &d, keep);
    const bool hand_over = st == VSG_OK && keep;
    if (hand_over) keep->stream = d.stream; /* the level's stream from now on */
    double mark = vsg_now();
    release(&d, hand_over);
    vsg_profile_phase(&mark, "setup: release device scratch");
    if (st != VSG_OK) {
        vsg_pb_system_free(s);
        free(*charges);
        *charges = NULL;
        *ncharges = 0;
    }
    return st;
}

extern "C" vsg_status vsg_pb_build_gpu(const vsg_molecule *m, const vsg_pb_physics *ph, const vsg_level *lv,
                                       vsg_precision precision, vsg_boundary bc, vsg_pb_system *s,
                                       vsg_grid_charge **charges, size_t *ncharges, double *outside, int device,
                                       double *seconds)
{
    const double t0 = vsg_now();
    *charges = NULL;
    *ncharges = 0;
    *outside = 0.0;
    if (seconds) *seconds = 0.0;
    if (bc != VSG_BC_ZERO && bc != VSG_BC_SDH && bc != VSG_BC_MDH && bc != VSG_BC_DIPOLE)
        return vsg_fail(VSG_E_ARG, "GPU PB setup: boundary %d is not zero, sdh, mdh or dipole (focusing: build "
                                   "with zero, then apply the coarse grid)", (int)bc);
    double mark = t0;
    vsg_status st = vsg_pb_system_init(s, ph, lv, precision); /* as vsg_pb_build does */
    vsg_profile_phase(&mark, "setup: host system allocation");
    if (st != VSG_OK) return st;
    st = run_build(m, ph, lv, bc, s, charges, ncharges, outside, device, 0, NULL);
    if (seconds) *seconds = vsg_now() - t0;
    return st;
}

extern "C" vsg_status vsg_pb_dev_build(const vsg_molecule *m, const vsg_pb_physics *ph, const vsg_level *lv,
                                       vsg_precision precision, vsg_boundary bc, vsg_pb_system *s,
                                       vsg_grid_charge **charges, size_t *ncharges, double *outside, int device,
                                       int depth, vsg_pb_dev **out)
{
    *out = NULL;
    *charges = NULL;
    *ncharges = 0;
    *outside = 0.0;
    if (bc != VSG_BC_ZERO && bc != VSG_BC_MDH)
        return vsg_fail(VSG_E_ARG, "GPU PB setup: a level kept on the GPU takes zero or mdh faces, not %d", (int)bc);
    if (precision != VSG_PRECISION_FLOAT && precision != VSG_PRECISION_DOUBLE)
        return vsg_fail(VSG_E_ARG, "GPU PB setup: unknown precision %d", (int)precision);
    vsg_status st = vsg_pb_system_describe(s, ph, lv, precision);
    if (st != VSG_OK) return st;
    vsg_pb_dev *k = (vsg_pb_dev *)calloc(1, sizeof *k);
    if (!k) return vsg_fail(VSG_E_NOMEM, "out of memory (GPU PB level)");
    k->device = -1;
    st = run_build(m, ph, lv, bc, s, charges, ncharges, outside, device, depth, k);
    if (st != VSG_OK) {
        vsg_pb_dev_free(k);
        return st;
    }
    *out = k;
    return VSG_OK;
}
