/* sor_gpu.cu — the GPU twin of vsg_sor_cpu (grids/pb/sor_cpu.c, grids/pb/sor_cpu_sweep.h).
 *
 * Same system, same settings, same schedule: per iteration colour 0 then colour 1, each a
 * uniform-stencil sweep over that colour's interior nodes (listed nodes skipped) and a
 * correction sweep over that colour's list, both in one launch (sor_fused, the list blocks of
 * each z-group right after the group's stencil tiles; VSG_SOR_FUSE=1 puts the whole list first,
 * VSG_SOR_FUSE=0 launches two kernels); convergence tested on the same check
 * iterations from max |Δφ| over every node updated in that iteration; the same nonlinear λ
 * ramp and one-Newton-step update. The linear update uses explicitly rounded operations
 * (__fadd_rn & co., which the compiler never fuses into FMAs) in the CPU's order, so in
 * double precision a linear solve repeats the CPU's arithmetic bit for bit; only exp() in
 * the nonlinear term may differ by an ulp.
 *
 * Before the loop the uncharged listed nodes whose weights repeat leave the list: the stencil
 * updates them from a table of at most 128 weight sets, with the list's arithmetic
 * (sor_patterns.cuh; VSG_SOR_PATTERNS=0 keeps the whole list). On a two-ε surface that is every
 * uncharged listed node, and the list keeps the charged ones.
 *
 * Device memory per node: phi (sizeof real) + flag (1 byte), plus per listed node an index
 * (8) and w[6], s, k in the solve's precision (40 bytes float, 72 double). For 2% listed
 * nodes that is 5.8 bytes/node in float and 10.4 in double; taking the patterns out needs, for
 * a moment, 9 bytes more per listed node and the shorter list beside the old one (reported
 * peak: 6.9 and 12.2). (Flags packed 2 bits a node
 * were tried: 0.25 bytes/node less, but 8–15% slower sweeps on an H100; docs/DESIGN.md.) Max |Δφ| is reduced on the
 * device (warp shuffles, one atomicMax per block on the bits of a non-negative double,
 * which order like the values and keep a NaN above +inf) and one scalar comes back per
 * check; nothing else crosses the bus inside the loop.
 */
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpu/device/gpu.h"
#include "gpu/pb/pb_gpu.h"
extern "C" {
#include "grids/base/vsgrid.h" /* C headers without their own extern "C" guard */
#include "grids/base/profile.h"
}

#define VSG_CUDA_WHO "GPU PB solver"
#include "gpu/device/cuda_check.h"
#include "gpu/device/dev_pool.cuh"
#include "gpu/device/device_prop.cuh"

#include "gpu/pb/pb_dev.cuh"
#include "gpu/pb/sor_kernels.cuh"
#include "gpu/pb/sor_patterns.cuh"

/* cudaMalloc rounds allocations up (2 MiB pages for large ones): margin for the memory test. */
#define DEVICE_SLACK_BYTES (16.0 * 1048576.0)

/* ---- host side ------------------------------------------------------------------------------ */

static size_t real_size(const vsg_pb_system *s)
{
    return s->precision == VSG_PRECISION_FLOAT ? sizeof(float) : sizeof(double);
}

/* Per listed node: the list entry's bytes (sor_kernels.cuh's layout). */
static double corr_entry_bytes(size_t real)
{
    return real == sizeof(float) ? (double)corr_bytes<float>(1) : (double)corr_bytes<double>(1);
}

/* Listed-node patterns (sor_patterns.cuh): VSG_SOR_PATTERNS=0 never, =1 always (benchmarks,
 * the tests that compare the forms); -1 when unset, for pattern_rule to decide. */
static int patterns_asked(void)
{
    const char *e = getenv("VSG_SOR_PATTERNS");
    return e ? atoi(e) != 0 : -1;
}
static int use_patterns(void) { return patterns_asked() != 0; }

/* The default: always in double; in float only when φ does not fit in L2. Measured on an H100
 * (50 MB of L2), same runs: double 161³ 0.045 against 0.050 ms an iteration, 225³ 0.117 against
 * 0.123; float 161³ 0.031–0.032 against 0.028–0.029 (an L2-resident float sweep has no DRAM
 * time for the pattern nodes' FP64 work to hide under), 225³ (46 MB of φ) 0.077–0.078 against
 * 0.079, 297³ 0.160 against 0.166–0.175. */
static bool pattern_rule(const vsg_pb_system *s, const cudaDeviceProp &prop)
{
    const int asked = patterns_asked();
    if (asked >= 0) return asked != 0;
    if (s->precision == VSG_PRECISION_DOUBLE) return true;
    return (double)s->nodes * sizeof(float) > (double)prop.l2CacheSize;
}

/* The peak: φ and flags, the full lists, and, when the patterns are taken out, what that holds
 * for a moment: per entry a code byte, a keep flag and its scan (9 bytes) and a place in the
 * shorter list (all of them, in the worst case), plus the table and the scan's scratch. */
static double solve_bytes(const vsg_pb_system *s, bool patterns)
{
    const size_t real = real_size(s);
    double b = sizeof(unsigned long long); /* the max |Δφ| scalar */
    for (int c = 0; c < 2; c++)
        b += (double)s->count[c] * (double)(real + 1) + (double)s->ncorr[c] * corr_entry_bytes(real);
    const double n = (double)s->ncorr[0] + (double)s->ncorr[1];
    if (patterns && n > 0.0) b += n * (9.0 + corr_entry_bytes(real)) + 2.0 * 1048576.0;
    return b;
}

/* Without a device to ask pattern_rule, the patterns are counted unless they are off. */
extern "C" double vsg_sor_gpu_bytes(const vsg_pb_system *s) { return solve_bytes(s, use_patterns()); }

/* Everything the solve allocates; freed by release() whatever happened. */
struct Solve {
    void *phi[2];
    uint8_t *flag[2];
    void *corr[2];
    size_t ncorr[2];  /* entries of corr (fewer than the system's once the patterns are out) */
    void *pattern;    /* the pattern table, or NULL */
    unsigned long long *maxbits;
    unsigned long long *zoff[2]; /* the interleaved fused launch's list offsets per z-group */
    cudaStream_t stream;
    int prev_device;
    int borrowed; /* phi, flag, corr and stream belong to a resident level (pb_dev.h) */
};

static void release(Solve *d)
{
    for (int c = 0; c < 2 && !d->borrowed; c++) {
        pool_free(d->phi[c], d->stream);
        pool_free(d->flag[c], d->stream);
        pool_free(d->corr[c], d->stream);
    }
    pool_free(d->maxbits, d->stream);
    pool_free(d->pattern, d->stream);
    for (int c = 0; c < 2; c++) pool_free(d->zoff[c], d->stream);
    if (d->stream && !d->borrowed) cudaStreamDestroy(d->stream);
    (void)cudaGetLastError();
    if (d->prev_device >= 0) (void)cudaSetDevice(d->prev_device);
    (void)cudaGetLastError();
}

/* A listed node must be interior: its six neighbours are then inside the other colour's
 * array (the CPU would read out of bounds; on the GPU that would poison the context). The
 * list must be sorted without repeats (pb_system.h): a repeated node would be two threads
 * writing one value, a race the CPU's ordered loop does not have. */
static vsg_status check_corr(const vsg_pb_system *s, int c)
{
    const size_t nxy = (size_t)s->nx * (size_t)s->ny;
    for (size_t e = 0; e < s->ncorr[c]; e++) {
        uint64_t k = s->corr[c][e].index;
        if (k >= s->count[c])
            return vsg_fail(VSG_E_ARG, "PB correction %zu of colour %d: index %llu past the %zu nodes",
                            e, c, (unsigned long long)k, s->count[c]);
        if (e > 0 && k <= s->corr[c][e - 1].index)
            return vsg_fail(VSG_E_ARG,
                            "PB corrections of colour %d not sorted by index (entry %zu: %llu after %llu)",
                            c, e, (unsigned long long)k,
                            (unsigned long long)s->corr[c][e - 1].index);
        size_t L = 2 * (size_t)k + (size_t)c;
        int x = (int)(L % (size_t)s->nx), y = (int)((L / (size_t)s->nx) % (size_t)s->ny);
        int z = (int)(L / nxy);
        if (x < 1 || x > s->nx - 2 || y < 1 || y > s->ny - 2 || z < 1 || z > s->nz - 2)
            return vsg_fail(VSG_E_ARG, "PB correction %zu of colour %d: node (%d,%d,%d) is on the box face",
                            e, c, x, y, z);
    }
    return VSG_OK;
}

/* Corrections of colour c as SoA in one device block: idx[n] (uint64), then w0..w5, s, k. */
template <typename R>
static vsg_status upload_corr(const vsg_pb_system *s, int c, Solve *d)
{
    const size_t n = s->ncorr[c];
    if (n == 0) return VSG_OK;
    const size_t bytes = corr_bytes<R>(n);
    unsigned char *h = (unsigned char *)malloc(bytes);
    if (!h) return vsg_fail(VSG_E_NOMEM, "GPU PB solver: no host memory to stage %zu corrections", n);
    for (size_t e = 0; e < n; e++) put_entry<R>(h, n, e, s->corr[c][e], 0);
    /* On the solve's stream (non-blocking: it does not wait for the legacy default stream),
     * and finished before the staging buffer goes. */
    cudaError_t e1 = pool_alloc(&d->corr[c], bytes, d->stream);
    cudaError_t e2 = cudaSuccess;
    if (e1 == cudaSuccess) e2 = cudaMemcpyAsync(d->corr[c], h, bytes, cudaMemcpyHostToDevice, d->stream);
    if (e1 == cudaSuccess && e2 == cudaSuccess) e2 = cudaStreamSynchronize(d->stream);
    free(h);
    if (e1 != cudaSuccess) return cuda_fail("pool_alloc (correction list)", e1);
    if (e2 != cudaSuccess) return cuda_fail("cudaMemcpyAsync (correction list)", e2);
    return VSG_OK;
}

/* The interleaved fused launch's split of colour c's list by z-group of zb planes (d->zoff[c],
 * groups + 1 offsets) and the list blocks per group its fullest group needs (*blocks). Nothing
 * for an empty list. */
static vsg_status split_list(const vsg_pb_system *s, int c, int zb, int groups, Solve *d, int *blocks)
{
    *blocks = 0;
    if (!d->ncorr[c]) return VSG_OK;
    const size_t bytes = ((size_t)groups + 1) * sizeof(unsigned long long);
    unsigned long long *h = (unsigned long long *)malloc(bytes);
    if (!h) return vsg_fail(VSG_E_NOMEM, "GPU PB solver: out of memory (list offsets)");
    cudaError_t e = pool_alloc((void **)&d->zoff[c], bytes, d->stream);
    if (e == cudaSuccess) {
        list_offsets<<<(groups + 1 + 255) / 256, 256, 0, d->stream>>>(
            (const uint64_t *)d->corr[c], (long long)d->ncorr[c], (long long)s->nx * s->ny, c, zb, groups, d->zoff[c]);
        e = cudaGetLastError();
    }
    if (e == cudaSuccess) e = cudaMemcpyAsync(h, d->zoff[c], bytes, cudaMemcpyDeviceToHost, d->stream);
    if (e == cudaSuccess) e = cudaStreamSynchronize(d->stream);
    unsigned long long most = 0;
    for (int g = 0; g < groups && e == cudaSuccess; g++) most = h[g + 1] - h[g] > most ? h[g + 1] - h[g] : most;
    free(h);
    if (e != cudaSuccess) return cuda_fail("the list offsets", e);
    *blocks = (int)((most + SOR_BLOCK_X * SOR_BLOCK_Y - 1) / (SOR_BLOCK_X * SOR_BLOCK_Y));
    return VSG_OK;
}

/* keep: NULL to solve the host system s (uploaded, solved, downloaded); else the resident
 * level whose arrays are solved in place (s only describes it; the lists were made on the
 * device, sorted and interior by construction). */
template <typename R>
static vsg_status solve(vsg_pb_system *s, const vsg_sor_settings *set, vsg_sor_result *r, Solve *d,
                        vsg_pb_dev *keep)
{
    const int count = vsg_gpu_count();
    if (count == 0)
        return vsg_fail(VSG_E_DEVICE, "GPU PB solver: no CUDA device (no GPU or no driver)");
    const int dev = keep ? keep->device : set->gpu_index < 0 ? 0 : set->gpu_index;
    if (dev >= count)
        return vsg_fail(VSG_E_DEVICE, "GPU PB solver: GPU %d requested, %d CUDA device%s found", dev,
                        count, count == 1 ? "" : "s");
    for (int c = 0; c < 2 && !keep; c++) {
        vsg_status st = check_corr(s, c);
        if (st != VSG_OK) return st;
    }
    if (s->nonlinear && (s->n_ions < 0 || s->n_ions > VSG_MAX_IONS))
        return vsg_fail(VSG_E_ARG, "GPU PB solver: %d ion species (at most %d)", s->n_ions,
                        VSG_MAX_IONS);

    double mark = vsg_now();
    int prev = -1;
    if (cudaGetDevice(&prev) == cudaSuccess && prev != dev) d->prev_device = prev;
    (void)cudaGetLastError();
    CU(cudaSetDevice(dev));
    cudaDeviceProp prop;
    CU(device_prop(&prop, dev));
    snprintf(r->device, sizeof r->device, "%.*s", (int)sizeof r->device - 1, prop.name);

    /* Launch geometry (checked before anything is allocated). */
    const dim3 block(SOR_BLOCK_X, SOR_BLOCK_Y, 1);
    const long long half = (s->nx - 1) / 2; /* most nodes of one colour in an interior row */
    const long long gy = (s->ny - 2 + SOR_BLOCK_Y - 1) / SOR_BLOCK_Y;
    const int zb = planes_per_thread();
    const int zper = zb > 1 ? zb : SOR_Z_PER_THREAD;
    long long gz = (s->nz - 2 + zper - 1) / zper;
    const long long gz_all = gz; /* the fused launch has a linear grid: no cap */
    if (gz > 65535) gz = 65535; /* hardware limit; the kernel strides over the rest */
    if (gy > 65535)
        return vsg_fail(VSG_E_LIMIT, "GPU PB solver: ny = %d is past the launch limit (%d)", s->ny,
                        65535 * SOR_BLOCK_Y + 2);
    const dim3 grid((unsigned)((half + SOR_BLOCK_X - 1) / SOR_BLOCK_X), (unsigned)gy, (unsigned)gz);

    const bool patterns = pattern_rule(s, prop);
    const double need = solve_bytes(s, patterns);
    size_t fr = 0, tot = 0;
    CU(pool_mem_info(dev, &fr, &tot));
    if (set->max_gpu_bytes > 0.0 && need > set->max_gpu_bytes)
        return vsg_fail(VSG_E_LIMIT,
                        "GPU PB solver: a %dx%dx%d %s grid needs %.1f MiB on the GPU, above the "
                        "--max-gpu-memory cap of %.1f MiB",
                        s->nx, s->ny, s->nz, s->precision == VSG_PRECISION_FLOAT ? "float" : "double",
                        need / 1048576.0, set->max_gpu_bytes / 1048576.0);
    if (!keep && need + DEVICE_SLACK_BYTES > (double)fr) /* a resident level is there already */
        return vsg_fail(VSG_E_LIMIT,
                        "GPU PB solver: a %dx%dx%d %s grid needs %.1f MiB on GPU %d (%s), %.1f MiB "
                        "free of %.1f MiB",
                        s->nx, s->ny, s->nz, s->precision == VSG_PRECISION_FLOAT ? "float" : "double",
                        (need + DEVICE_SLACK_BYTES) / 1048576.0, dev, prop.name,
                        (double)fr / 1048576.0, (double)tot / 1048576.0);
    r->device_bytes = need;

    if (keep) {
        d->borrowed = 1;
        d->stream = keep->stream;
        for (int c = 0; c < 2; c++) {
            d->phi[c] = keep->phi[c];
            d->flag[c] = keep->flag[c];
            d->corr[c] = keep->corr[c];
        }
    } else {
        CU(cudaStreamCreateWithFlags(&d->stream, cudaStreamNonBlocking));
    }
    for (int c = 0; c < 2 && !keep; c++) {
        const size_t n = s->count[c];
        CU(pool_alloc(&d->phi[c], n * sizeof(R), d->stream));
        CU(pool_alloc((void **)&d->flag[c], n, d->stream));
        CU(cudaMemcpyAsync(d->phi[c], s->phi[c], n * sizeof(R), cudaMemcpyHostToDevice, d->stream));
        CU(cudaMemcpyAsync(d->flag[c], s->flag[c], n, cudaMemcpyHostToDevice, d->stream));
        vsg_status st = upload_corr<R>(s, c, d);
        if (st != VSG_OK) return st;
    }
    CU(pool_alloc((void **)&d->maxbits, sizeof(unsigned long long), d->stream));
    CU(cudaStreamSynchronize(d->stream));
    vsg_profile_phase(&mark, "sor: checks, allocate, upload");
    for (int c = 0; c < 2; c++) d->ncorr[c] = s->ncorr[c];
    if (patterns) {
        Patterns<R> pt;
        vsg_status ps = find_patterns<R>(d->stream, d->corr, d->ncorr, d->flag, &pt);
        if (ps != VSG_OK) return ps;
        if (pt.table) {
            /* the shorter lists replace the old ones (a resident level's too: nothing reads its
             * list after the solve, and the level frees what it holds) */
            d->pattern = pt.table;
            for (int c = 0; c < 2; c++) {
                r->pattern_nodes += d->ncorr[c] - pt.ncorr[c];
                pool_free(d->corr[c], d->stream);
                d->corr[c] = pt.corr[c];
                d->ncorr[c] = pt.ncorr[c];
                if (keep) {
                    keep->corr[c] = pt.corr[c];
                    keep->ncorr[c] = pt.ncorr[c];
                }
            }
        }
        vsg_profile_phase(&mark, "sor: listed-node patterns");
    }
    const R *pat = (const R *)d->pattern;

    /* Constants exactly as the CPU sweep forms them. */
    Offsets off[2];
    const long long dxyz[3] = {1, s->nx, (long long)s->nx * s->ny};
    for (int c = 0; c < 2; c++)
        for (int a = 0; a < 3; a++) {
            off[c].o[2 * a] = floor_div2(c - dxyz[a]) * (long long)sizeof(R);
            off[c].o[2 * a + 1] = floor_div2(c + dxyz[a]) * (long long)sizeof(R);
        }
    const R u0 = (R)(1.0 / 6.0), u1 = (R)(1.0 / (6.0 + s->kh2));
    const double ksalt = s->kh2 / (6.0 + s->kh2);
    Ions ions;
    memset(&ions, 0, sizeof ions);
    ions.n = s->nonlinear ? s->n_ions : 0; /* validated above; unused when linear */
    for (int i = 0; i < ions.n; i++) {
        ions.molar[i] = s->ion_molar[i];
        ions.charge[i] = s->ion_charge[i];
    }
    ions.two_i = s->two_i;
    int cblocks[2];
    for (int c = 0; c < 2; c++) {
        long long b = ((long long)d->ncorr[c] + CORR_BLOCK - 1) / CORR_BLOCK;
        long long cap = (long long)prop.multiProcessorCount * CORR_BLOCKS_PER_SM;
        cblocks[c] = (int)(b < cap ? b : cap);
    }

    const int check_every = set->check_every > 0 ? set->check_every : 10;
    const int fuse = fuse_sweeps();
    int gblocks[2] = {0, 0};
    if (fuse == 2 && zb > 1 && gz_all < 2147483647LL)
        for (int c = 0; c < 2; c++) {
            vsg_status zs = split_list(s, c, zb, (int)gz_all, d, &gblocks[c]);
            if (zs != VSG_OK) return zs;
        }
    const int show = set->progress && isatty(2);
    int diverged = 0;
    CU(cudaStreamSynchronize(d->stream)); /* the clock covers the iteration loop only */
    const double t0 = vsg_now();
    vsg_sor_schedule sc;
    vsg_sor_schedule_init(&sc, set, show, t0);

    for (int it = 0; it < set->max_iter; it++) {
        const bool check = (it + 1) % check_every == 0 || it + 1 == set->max_iter;
        const double lambda = s->nonlinear ? vsg_nl_lambda(it) : 0.0;
        const bool nl = s->nonlinear && lambda > 0.0;
        const double omega = sc.omega;
        if (check) CU(cudaMemsetAsync(d->maxbits, 0, sizeof(unsigned long long), d->stream));
        for (int c = 0; c < 2; c++) {
            R *p = (R *)d->phi[c];
            const R *o = (const R *)d->phi[1 - c];
            const bool inter = d->zoff[c] != NULL;
            if (fuse && launch_fused<R>(zb, nl, check, grid.x, grid.y, gz_all, inter ? gblocks[c] : cblocks[c],
                                        d->stream, p, o, d->flag[c], s, c, off[c], (R)omega, u0, u1, omega, lambda,
                                        ksalt, ions, d->corr[c], d->ncorr[c], d->zoff[c], pat, d->maxbits)) {
                LAUNCHED("the fused SOR kernel");
                continue;
            }
            launch_uniform<R>(zb, nl, check, grid, block, d->stream, p, o, d->flag[c], s, c, off[c], (R)omega,
                              u0, u1, omega, lambda, ksalt, ions, pat, d->maxbits);
            LAUNCHED("the uniform SOR kernel");
            if (d->ncorr[c]) {
                launch_correct<R>(nl, check, cblocks[c], d->stream, p, o, d->corr[c], d->ncorr[c],
                                  off[c], omega, lambda, ions, d->maxbits);
                LAUNCHED("the SOR correction kernel");
            }
        }
        r->iterations = it + 1;
        if (!check) continue;
        unsigned long long bits = 0;
        CU(cudaMemcpyAsync(&bits, d->maxbits, sizeof bits, cudaMemcpyDeviceToHost, d->stream));
        CU(cudaStreamSynchronize(d->stream));
        double change;
        memcpy(&change, &bits, sizeof change);
        r->final_change = change;
        /* The same schedule as the CPU twin, from the same checks (pb_system.h). */
        const vsg_sor_verdict v = vsg_sor_after_check(&sc, set, s->nonlinear, it + 1, lambda, change, vsg_now());
        if (v == VSG_SOR_DIVERGED) {
            diverged = 1;
            break;
        }
        if (v == VSG_SOR_CONVERGED) {
            r->converged = 1;
            break;
        }
    }
    CU(cudaStreamSynchronize(d->stream));
    r->seconds = vsg_now() - t0;
    r->omega = sc.omega;
    if (show) fprintf(stderr, "\r%60s\r", "");

    /* The solution (or, after divergence, the last state, as the CPU leaves it) back in s; a
     * resident level keeps it. */
    mark = vsg_now();
    for (int c = 0; c < 2 && !keep; c++)
        CU(cudaMemcpyAsync(s->phi[c], d->phi[c], s->count[c] * sizeof(R), cudaMemcpyDeviceToHost,
                           d->stream));
    CU(cudaStreamSynchronize(d->stream));
    vsg_profile_phase(&mark, "sor: download phi");
    if (diverged)
        return vsg_fail(VSG_E_CONVERGE, "PB solver diverged at iteration %d (change %g)",
                        r->iterations, r->final_change);
    return VSG_OK;
}

/* Both entry points: the result cleared, the precision checked, the solve, the release. */
static vsg_status run_solve(vsg_pb_system *s, const vsg_sor_settings *set, vsg_sor_result *r, vsg_pb_dev *keep)
{
    r->iterations = 0;
    r->converged = 0;
    r->final_change = INFINITY;
    r->seconds = 0.0;
    r->device_bytes = 0.0;
    r->pattern_nodes = 0;
    r->device[0] = '\0';
    if (s->precision != VSG_PRECISION_FLOAT && s->precision != VSG_PRECISION_DOUBLE)
        return vsg_fail(VSG_E_ARG, "GPU PB solver: unknown precision %d", (int)s->precision);
    if (keep && keep->precision != s->precision)
        return vsg_fail(VSG_E_ARG, "GPU PB solver: the resident level does not match the system");
    Solve d;
    memset(&d, 0, sizeof d);
    d.prev_device = -1;
    vsg_status st = s->precision == VSG_PRECISION_FLOAT ? solve<float>(s, set, r, &d, keep)
                                                        : solve<double>(s, set, r, &d, keep);
    release(&d);
    return st;
}

extern "C" vsg_status vsg_sor_gpu(vsg_pb_system *s, const vsg_sor_settings *set, vsg_sor_result *r)
{
    return run_solve(s, set, r, NULL);
}

extern "C" vsg_status vsg_sor_gpu_dev(vsg_pb_dev *k, const vsg_pb_system *s, const vsg_sor_settings *set,
                                      vsg_sor_result *r)
{
    if (!k) return vsg_fail(VSG_E_ARG, "GPU PB solver: no resident level");
    /* solve() writes nothing of s when keep is given: the const is honoured. */
    return run_solve((vsg_pb_system *)s, set, r, k);
}
