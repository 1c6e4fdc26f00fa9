/* dev_pool.cu — the PB path's device memory from the stream-ordered pool (dev_pool.cuh). */
#include <cuda_runtime.h>
#include <stdint.h>

#include <atomic>
#include <mutex>

#include "gpu/device/dev_pool.cuh"

#define POOL_DEVICES 64

namespace {

std::once_flag once[POOL_DEVICES];
bool pooled[POOL_DEVICES];            /* set once per device, before any allocation on it */
std::atomic<bool> used[POOL_DEVICES]; /* the pool has been asked for memory (pool_trim) */

/* The default pool of device d, made to keep what it is given back (the default threshold of
 * 0 would return it to the device at every synchronisation, and the next level would map it
 * again). */
void set_up(int d)
{
    int ok = 0;
    if (cudaDeviceGetAttribute(&ok, cudaDevAttrMemoryPoolsSupported, d) != cudaSuccess) ok = 0;
    cudaMemPool_t pool;
    if (ok && cudaDeviceGetDefaultMemPool(&pool, d) == cudaSuccess) {
        uint64_t keep = UINT64_MAX;
        ok = cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep) == cudaSuccess;
    } else {
        ok = 0;
    }
    (void)cudaGetLastError();
    pooled[d] = ok != 0;
}

bool pooled_device(int *device)
{
    int d = 0;
    if (cudaGetDevice(&d) != cudaSuccess || d < 0 || d >= POOL_DEVICES) {
        (void)cudaGetLastError();
        return false;
    }
    std::call_once(once[d], set_up, d);
    if (device) *device = d;
    return pooled[d];
}

} // namespace

cudaError_t pool_alloc(void **p, size_t bytes, cudaStream_t st)
{
    *p = NULL;
    int d = 0;
    if (!pooled_device(&d)) return cudaMalloc(p, bytes);
    used[d] = true;
    cudaError_t e = cudaMallocAsync(p, bytes, st);
    if (e == cudaErrorMemoryAllocation) {
        /* memory freed on other streams returns to the pool once they drain */
        (void)cudaGetLastError();
        e = cudaDeviceSynchronize();
        if (e == cudaSuccess) e = cudaMallocAsync(p, bytes, st);
    }
    if (e == cudaSuccess && ((uintptr_t)*p & 255u)) {
        /* never seen; the kernels' vector loads assume cudaMalloc's alignment */
        (void)cudaFreeAsync(*p, st);
        *p = NULL;
        e = cudaErrorMisalignedAddress;
    }
    return e;
}

void pool_free(void *p, cudaStream_t st)
{
    if (!p) return;
    if (pooled_device(NULL)) (void)cudaFreeAsync(p, st);
    else (void)cudaFree(p);
    (void)cudaGetLastError();
}

cudaError_t pool_mem_info(int device, size_t *free_bytes, size_t *total_bytes)
{
    cudaError_t e = cudaMemGetInfo(free_bytes, total_bytes);
    if (e != cudaSuccess) return e;
    int d = -1;
    cudaMemPool_t pool;
    if (pooled_device(&d) && d == device && cudaDeviceGetDefaultMemPool(&pool, d) == cudaSuccess) {
        uint64_t reserved = 0, used = 0;
        if (cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReservedMemCurrent, &reserved) == cudaSuccess &&
            cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used) == cudaSuccess && reserved > used)
            *free_bytes += (size_t)(reserved - used);
    }
    (void)cudaGetLastError();
    return cudaSuccess;
}

void pool_trim(int device)
{
    if (device < 0 || device >= POOL_DEVICES || !used[device]) return; /* nothing held */
    int prev = -1;
    if (cudaGetDevice(&prev) != cudaSuccess) prev = -1;
    int d = -1;
    cudaMemPool_t pool;
    if (cudaSetDevice(device) == cudaSuccess && pooled_device(&d) &&
        cudaDeviceGetDefaultMemPool(&pool, d) == cudaSuccess && cudaDeviceSynchronize() == cudaSuccess)
        (void)cudaMemPoolTrimTo(pool, 0);
    if (prev >= 0 && prev != device) (void)cudaSetDevice(prev);
    (void)cudaGetLastError();
}
