/* pb_gpu_bench.h — measurement helpers for scripts/bench_sor.c, CUDA builds only (there is
 * no stub in gpu_none.c: include this under #ifdef VSG_HAVE_CUDA). */
#ifndef VSG_PB_GPU_BENCH_H
#define VSG_PB_GPU_BENCH_H

#ifdef __cplusplus
extern "C" {
#endif

/* Device-to-device cudaMemcpy bandwidth of GPU `device` (−1 = first), GB/s (1e9 bytes),
 * counting bytes read plus bytes written; median of repeated 1 GiB copies. 0 on any error. */
double vsg_gpu_copy_bandwidth(int device);

#ifdef __cplusplus
}
#endif
#endif
