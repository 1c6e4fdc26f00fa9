// sor_ceiling.cu — what the red-black sweep on split even/odd arrays can reach on this GPU,
// apart from vsgrid's solver: a standalone micro-benchmark (no vsgrid code) that times one
// iteration (both colours) of a 7-point SOR sweep at N³ in float and double, in forms that
// differ in one thing each, so the cost of each ingredient of vsgrid's sweep can be read off:
//   plain      uniform coefficient, no flags (the issue's "plain uniform red-black sweep")
//   flag       + a flag byte per node: listed nodes skipped, the salt coefficient selected
//              (vsgrid's uniform sweep without its correction list)
// each with 1, 2 or 4 planes a thread (loads of all planes first, as sor_uniform_zb), neighbour
// loads through the read-only cache (__ldg) or plain, a few block shapes, and ("cs") the own
// colour's read and write marked streaming (__ldcs/__stcs: evict first, so L2 keeps the other
// colour, which the neighbour loads read again). Every form sweeps
// the same interior and its result is checked against the plain one-plane form (max |diff|).
//
//   nvcc -O3 -arch=sm_90 -I . -o sor_ceiling scripts/sor_ceiling.cu &&
//   ./sor_ceiling [N] [iterations]
//
// The "vsgrid" rows run vsgrid's kernels (gpu/pb/sor_kernels.cuh) on the same data: its uniform
// sweep alone (flag byte, rounded arithmetic), and the same plus its correction kernel over the
// listed nodes (a list of 2%, random weights: scattered, the worst case for its gathers). On
// an H100 (2026-11-22) these showed that the stencil ran at the flag form's ceiling (0.144 ms at
// 297³ float) and that the separate correction kernel cost 0.07 ms more on these scattered
// lists; bench_sor measures the solver's own sweep (docs/PERFORMANCE.md).
//
// Bytes per node and iteration (the model of scripts/bench_sor.c): each colour's φ read and
// written by its sweep and read once as neighbours by the other's, 3·sizeof(real), plus the
// flag byte in the flag forms. "%copy" is against cudaMemcpy device-to-device in the same run.
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/pb/sor_kernels.cuh" /* vsgrid's own kernels, for the "vsgrid" rows (-I ., the repository root) */

#define CK(call)                                                                              \
    do {                                                                                      \
        cudaError_t e_ = (call);                                                              \
        if (e_ != cudaSuccess) {                                                              \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
            exit(1);                                                                          \
        }                                                                                     \
    } while (0)

struct Off {
    long long o[6]; // element offsets −x, +x, −y, +y, −z, +z into the other colour's array
};

template <typename R, bool LDG>
__device__ __forceinline__ R ld(const R *p)
{
    if (LDG) return __ldg(p);
    return *p;
}

template <typename R, int ZB, bool FLAG, bool LDG, bool CS = false>
__global__ void sweep(R *__restrict__ p, const R *__restrict__ o, const uint8_t *__restrict__ fl, int nx, int ny,
                      int nz, int c, Off off, R w, R u0, R u1)
{
    const int xh = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = 1 + blockIdx.y * blockDim.y + threadIdx.y;
    if (y >= ny - 1) return;
    for (int z0 = 1 + blockIdx.z * ZB; z0 < nz - 1; z0 += gridDim.z * ZB) {
        long long k[ZB];
        bool act[ZB];
        uint8_t f[ZB];
        R v[ZB][6], old[ZB];
#pragma unroll
        for (int j = 0; j < ZB; j++) {
            const int z = z0 + j, x = 1 + ((1 + y + z + c) & 1) + 2 * xh;
            act[j] = z < nz - 1 && x <= nx - 2;
            k[j] = act[j] ? (long long)(((size_t)x + (size_t)nx * ((size_t)y + (size_t)ny * (size_t)z)) >> 1) : 0;
        }
#pragma unroll
        for (int j = 0; j < ZB; j++) {
            if (!act[j]) continue;
            if (FLAG) f[j] = fl[k[j]];
#pragma unroll
            for (int i = 0; i < 6; i++) v[j][i] = ld<R, LDG>(o + k[j] + off.o[i]);
            old[j] = CS ? __ldcs(p + k[j]) : p[k[j]];
        }
#pragma unroll
        for (int j = 0; j < ZB; j++) {
            if (!act[j]) continue;
            if (FLAG && (f[j] & 2)) continue;
            R sum = v[j][0] + v[j][1] + v[j][2] + v[j][3] + v[j][4] + v[j][5];
            R u = FLAG && (f[j] & 1) ? u1 : u0;
            const R nv = old[j] + w * (sum * u - old[j]);
            if (CS) __stcs(p + k[j], nv);
            else p[k[j]] = nv;
        }
    }
}


template <typename R, int ZB, bool FLAG, bool LDG, bool CS = false>
static double run(int n, int iters, int bx, int by, R *d_phi[2], uint8_t *d_fl[2], R *h_ref, size_t cnt[2], R *h_out,
                  double *maxdiff, R *h_init[2])
{
    for (int c = 0; c < 2; c++) CK(cudaMemcpy(d_phi[c], h_init[c], cnt[c] * sizeof(R), cudaMemcpyHostToDevice));
    Off off[2];
    const long long d[3] = {1, n, (long long)n * n};
    for (int c = 0; c < 2; c++)
        for (int a = 0; a < 3; a++) {
            off[c].o[2 * a] = floor_div2(c - d[a]);
            off[c].o[2 * a + 1] = floor_div2(c + d[a]);
        }
    const dim3 block(bx, by, 1);
    long long gz = (n - 2 + ZB - 1) / ZB;
    if (gz > 65535) gz = 65535;
    const dim3 grid((unsigned)(((n - 1) / 2 + bx - 1) / bx), (unsigned)((n - 2 + by - 1) / by), (unsigned)gz);
    const R w = (R)1.9, u0 = (R)(1.0 / 6.0), u1 = (R)(1.0 / 6.1);
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    for (int it = 0; it < 3; it++) // warm-up
        for (int c = 0; c < 2; c++)
            sweep<R, ZB, FLAG, LDG, CS><<<grid, block>>>(d_phi[c], d_phi[1 - c], d_fl[c], n, n, n, c, off[c], w, u0, u1);
    for (int c = 0; c < 2; c++) CK(cudaMemcpy(d_phi[c], h_init[c], cnt[c] * sizeof(R), cudaMemcpyHostToDevice));
    CK(cudaEventRecord(e0));
    for (int it = 0; it < iters; it++)
        for (int c = 0; c < 2; c++)
            sweep<R, ZB, FLAG, LDG, CS><<<grid, block>>>(d_phi[c], d_phi[1 - c], d_fl[c], n, n, n, c, off[c], w, u0, u1);
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    CK(cudaGetLastError());
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, e0, e1));
    CK(cudaMemcpy(h_out, d_phi[0], cnt[0] * sizeof(R), cudaMemcpyDeviceToHost));
    double md = 0;
    if (h_ref)
        for (size_t i = 0; i < cnt[0]; i++) md = fmax(md, fabs((double)h_out[i] - (double)h_ref[i]));
    *maxdiff = md;
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    return ms / iters;
}

/* vsgrid's kernels on the same arrays: mode 0 uniform only, 1 uniform + correction kernel
 * (the two-kernel form); the list holds the listed nodes (flag bit 2) with random weights. */
template <typename R>
static double run_vsgrid(int n, int iters, int mode, R *d_phi[2], uint8_t *d_fl[2], void *d_corr[2], size_t ncorr[2],
                         R *h_init[2], size_t cnt[2])
{
    for (int c = 0; c < 2; c++) CK(cudaMemcpy(d_phi[c], h_init[c], cnt[c] * sizeof(R), cudaMemcpyHostToDevice));
    Offsets off[2];
    const long long d[3] = {1, n, (long long)n * n};
    for (int c = 0; c < 2; c++)
        for (int a = 0; a < 3; a++) {
            off[c].o[2 * a] = floor_div2(c - d[a]) * (long long)sizeof(R);
            off[c].o[2 * a + 1] = floor_div2(c + d[a]) * (long long)sizeof(R);
        }
    vsg_pb_system sys;
    memset(&sys, 0, sizeof sys);
    sys.nx = sys.ny = sys.nz = n;
    const dim3 block(SOR_BLOCK_X, SOR_BLOCK_Y, 1);
    const long long gz = (n - 2 + 3) / 4;
    const dim3 grid((unsigned)(((n - 1) / 2 + SOR_BLOCK_X - 1) / SOR_BLOCK_X),
                    (unsigned)((n - 2 + SOR_BLOCK_Y - 1) / SOR_BLOCK_Y), (unsigned)gz);
    Ions ions;
    memset(&ions, 0, sizeof ions);
    const double omega = 1.9;
    const R u0 = (R)(1.0 / 6.0), u1 = (R)(1.0 / 6.1);
    int cblocks[2];
    for (int c = 0; c < 2; c++) {
        long long b = ((long long)ncorr[c] + CORR_BLOCK - 1) / CORR_BLOCK;
        cblocks[c] = (int)(b < 132 * CORR_BLOCKS_PER_SM ? b : 132 * CORR_BLOCKS_PER_SM);
    }
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    for (int pass = 0; pass < 2; pass++) { /* a warm-up pass, then the timed one */
        if (pass == 1) CK(cudaEventRecord(e0));
        for (int it = 0; it < (pass ? iters : 3); it++)
            for (int c = 0; c < 2; c++) {
                R *p = d_phi[c];
                const R *o = d_phi[1 - c];
                launch_uniform<R>(4, false, false, grid, block, 0, p, o, d_fl[c], &sys, c, off[c], (R)omega, u0, u1,
                                  omega, 0.0, 0.0, ions, (const R *)NULL, NULL);
                if (mode == 1)
                    launch_correct<R>(false, false, cblocks[c], 0, p, o, d_corr[c], ncorr[c], off[c], omega, 0.0, ions,
                                      NULL);
            }
    }
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    CK(cudaGetLastError());
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, e0, e1));
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    return ms / iters;
}

template <typename R>
static void bench(int n, int iters, double copy_gbs)
{
    const size_t nodes = (size_t)n * n * n, cnt[2] = {(nodes + 1) / 2, nodes / 2};
    R *d_phi[2], *h_init[2];
    uint8_t *d_fl[2];
    void *d_corr[2];
    size_t ncorr[2];
    srand(7);
    for (int c = 0; c < 2; c++) {
        CK(cudaMalloc(&d_phi[c], cnt[c] * sizeof(R)));
        CK(cudaMalloc(&d_fl[c], cnt[c]));
        h_init[c] = (R *)malloc(cnt[c] * sizeof(R));
        uint8_t *hf = (uint8_t *)malloc(cnt[c]);
        ncorr[c] = 0;
        for (size_t i = 0; i < cnt[c]; i++) {
            h_init[c][i] = (R)(rand() / (double)RAND_MAX);
            hf[i] = (uint8_t)((rand() % 100) < 2 ? 2 : (rand() % 100) < 60); // 2% listed, 60% salt
            /* the list: interior listed nodes only (the kernels' contract) */
            const size_t L = 2 * i + (size_t)c;
            const int x = (int)(L % n), y = (int)((L / n) % n), z = (int)(L / ((size_t)n * n));
            if (x < 1 || y < 1 || z < 1 || x > n - 2 || y > n - 2 || z > n - 2) hf[i] &= 1;
            if (hf[i] & 2) ncorr[c]++;
        }
        /* SoA: idx[n] (uint64), w0..w5, s, k (R) */
        const size_t nc = ncorr[c], bytes = nc * (sizeof(uint64_t) + 8 * sizeof(R));
        unsigned char *hc = (unsigned char *)malloc(bytes ? bytes : 1);
        uint64_t *idx = (uint64_t *)hc;
        R *wv = (R *)(hc + nc * sizeof(uint64_t));
        size_t e = 0;
        for (size_t i = 0; i < cnt[c]; i++)
            if (hf[i] & 2) {
                idx[e] = i;
                for (int q = 0; q < 6; q++) wv[q * nc + e] = (R)(0.15 + 0.01 * q);
                wv[6 * nc + e] = (R)0.01;
                wv[7 * nc + e] = (R)0.0;
                e++;
            }
        CK(cudaMalloc(&d_corr[c], bytes ? bytes : 1));
        CK(cudaMemcpy(d_corr[c], hc, bytes, cudaMemcpyHostToDevice));
        free(hc);
        CK(cudaMemcpy(d_fl[c], hf, cnt[c], cudaMemcpyHostToDevice));
        free(hf);
    }
    R *ref = (R *)malloc(cnt[0] * sizeof(R)), *ref_flag = (R *)malloc(cnt[0] * sizeof(R)),
      *out = (R *)malloc(cnt[0] * sizeof(R));
    double md;
    const char *prec = sizeof(R) == 4 ? "float" : "double";
    const double rb = (double)sizeof(R);
    // references: the one-plane forms
    run<R, 1, false, true>(n, iters, 32, 8, d_phi, d_fl, NULL, (size_t *)cnt, ref, &md, h_init);
    run<R, 1, true, true>(n, iters, 32, 8, d_phi, d_fl, NULL, (size_t *)cnt, ref_flag, &md, h_init);
    struct {
        const char *name;
        double (*fn)(int, int, int, int, R **, uint8_t **, R *, size_t *, R *, double *, R **);
        int flag, bx, by;
    } forms[] = {
        {"plain zb1 ldg 32x8", run<R, 1, false, true>, 0, 32, 8},
        {"plain zb2 ldg 32x8", run<R, 2, false, true>, 0, 32, 8},
        {"plain zb4 ldg 32x8", run<R, 4, false, true>, 0, 32, 8},
        {"plain zb4 ld  32x8", run<R, 4, false, false>, 0, 32, 8},
        {"plain zb4 ldg 64x4", run<R, 4, false, true>, 0, 64, 4},
        {"plain zb4 ldg 32x4", run<R, 4, false, true>, 0, 32, 4},
        {"plain zb4 ldg 32x16", run<R, 4, false, true>, 0, 32, 16},
        {"plain zb1 ld  32x8", run<R, 1, false, false>, 0, 32, 8},
        {"flag  zb1 ldg 32x8", run<R, 1, true, true>, 1, 32, 8},
        {"flag  zb2 ldg 32x8", run<R, 2, true, true>, 1, 32, 8},
        {"flag  zb4 ldg 32x8", run<R, 4, true, true>, 1, 32, 8},
        {"flag  zb4 ld  32x8", run<R, 4, true, false>, 1, 32, 8},
        {"flag  zb4 ldg 64x4", run<R, 4, true, true>, 1, 64, 4},
        {"plain zb4 ldg cs 32x8", run<R, 4, false, true, true>, 0, 32, 8},
        {"flag  zb4 ldg cs 32x8", run<R, 4, true, true, true>, 1, 32, 8},
    };
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        double ms = forms[i].fn(n, iters, forms[i].bx, forms[i].by, d_phi, d_fl, forms[i].flag ? ref_flag : ref,
                                (size_t *)cnt, out, &md, h_init);
        double bytes = (double)nodes * (3.0 * rb + (forms[i].flag ? 1.0 : 0.0));
        double gbs = bytes / (ms * 1e-3) / 1e9;
        printf("%5d %-6s %-22s %8.4f ms %7.0f GB/s %5.0f%%  max|diff| %.2g\n", n, prec, forms[i].name, ms, gbs,
               100.0 * gbs / copy_gbs, md);
        fflush(stdout);
    }
    const char *vname[2] = {"vsgrid uniform only", "vsgrid uniform+correct"};
    for (int mode = 0; mode < 2; mode++) {
        double ms = run_vsgrid<R>(n, iters, mode, d_phi, d_fl, d_corr, ncorr, h_init, (size_t *)cnt);
        double bytes = (double)nodes * (3.0 * rb + 1.0) +
                       (mode ? (double)(ncorr[0] + ncorr[1]) * (8.0 + 8.0 * rb) : 0.0);
        double gbs = bytes / (ms * 1e-3) / 1e9;
        printf("%5d %-6s %-22s %8.4f ms %7.0f GB/s %5.0f%%  (%.2f%% listed)\n", n, prec, vname[mode], ms, gbs,
               100.0 * gbs / copy_gbs, 100.0 * (double)(ncorr[0] + ncorr[1]) / (double)nodes);
        fflush(stdout);
    }
    for (int c = 0; c < 2; c++) {
        cudaFree(d_phi[c]);
        cudaFree(d_fl[c]);
        cudaFree(d_corr[c]);
        free(h_init[c]);
    }
    free(ref);
    free(ref_flag);
    free(out);
}

int main(int argc, char **argv)
{
    const int n = argc > 1 ? atoi(argv[1]) : 297, iters = argc > 2 ? atoi(argv[2]) : 200;
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    // device-to-device copy of 1 GiB: bytes read + written
    const size_t cb = (size_t)1 << 30;
    void *a, *b;
    CK(cudaMalloc(&a, cb));
    CK(cudaMalloc(&b, cb));
    CK(cudaMemset(a, 1, cb));
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    CK(cudaMemcpy(b, a, cb, cudaMemcpyDeviceToDevice));
    CK(cudaEventRecord(e0));
    for (int i = 0; i < 10; i++) CK(cudaMemcpy(b, a, cb, cudaMemcpyDeviceToDevice));
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, e0, e1));
    const double copy_gbs = 2.0 * cb * 10 / (ms * 1e-3) / 1e9;
    cudaFree(a);
    cudaFree(b);
    printf("%s; copy %.0f GB/s; N = %d, %d iterations per form (both colours each)\n", prop.name, copy_gbs, n, iters);
    bench<float>(n, iters, copy_gbs);
    bench<double>(n, iters, copy_gbs);
    return 0;
}
