/* dev_pool.cuh — device memory of the PB path (build, resident level, solve) from the device's
 * stream-ordered pool (cudaMallocAsync / cudaFreeAsync).
 *
 * Why: a level allocates and frees some thirty arrays. cudaMalloc maps fresh pages and cudaFree
 * waits for the whole device, 2–5 ms a level at 161³ on an H100, more than the level's sweeps
 * (docs/PERFORMANCE.md, "PB grids"). The pool keeps freed memory mapped, so the next level and
 * the next receptor of a batch take it back in microseconds, in stream order, with no wait.
 *
 * Contract:
 * - pool_alloc: bytes on the current device, usable on stream st in stream order (elsewhere after
 *   st is synchronised); 256-byte aligned, as cudaMalloc. Where the device has no pools it is
 *   cudaMalloc. An out-of-memory answer is retried once after the device drains (memory freed on
 *   other streams is then back in the pool).
 * - pool_free: NULL is a no-op; the memory goes back when st reaches this point.
 * - pool_mem_info: cudaMemGetInfo with the pool's idle memory counted as free (the PB path's own
 *   memory tests: that memory is the pool's to hand out again).
 * - pool_trim: gives the pool's idle memory back to the device (after draining it), for code
 *   that allocates with cudaMalloc and tests cudaMemGetInfo (screen, Coulomb, placement, the MPI
 *   slabs): they then see all of it.
 * The pool keeps what it holds up to the device's whole memory (release threshold); nothing is
 * lost when a process ends. */
#ifndef VSG_DEV_POOL_CUH
#define VSG_DEV_POOL_CUH

#include <cuda_runtime.h>
#include <stddef.h>

cudaError_t pool_alloc(void **p, size_t bytes, cudaStream_t st);
void pool_free(void *p, cudaStream_t st);
cudaError_t pool_mem_info(int device, size_t *free_bytes, size_t *total_bytes);
void pool_trim(int device);

#endif
