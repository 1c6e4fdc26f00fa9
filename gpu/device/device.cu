/* device.cu — CUDA device discovery (gpu.h) and the device-to-device copy benchmark
 * (pb_gpu_bench.h). Every CUDA error becomes a vsg_status; nothing here prints or aborts,
 * so a build with CUDA still runs (and reports 0 GPUs) on a machine without a driver. */
#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>

#include <mutex>

#include "gpu/device/gpu.h"
#include "gpu/device/dev_pool.cuh"
#include "gpu/device/device_prop.cuh"
#include "gpu/pb/pb_gpu_bench.h"
extern "C" {
#include "grids/base/vsgrid.h" /* C header without its own extern "C" guard */
}

extern "C" int vsg_gpu_count(void)
{
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess) {
        (void)cudaGetLastError(); /* clear it: no driver / no device is not an error here */
        return 0;
    }
    return n > 0 ? n : 0;
}

#define PROP_DEVICES 64

cudaError_t device_prop(cudaDeviceProp *prop, int device)
{
    static std::mutex lock;
    static cudaDeviceProp cache[PROP_DEVICES];
    static bool have[PROP_DEVICES];
    if (device < 0 || device >= PROP_DEVICES) return cudaGetDeviceProperties(prop, device);
    std::lock_guard<std::mutex> hold(lock);
    if (!have[device]) {
        const cudaError_t e = cudaGetDeviceProperties(&cache[device], device);
        if (e != cudaSuccess) return e;
        have[device] = true;
    }
    *prop = cache[device];
    return cudaSuccess;
}

extern "C" vsg_status vsg_gpu_start(int device)
{
    int prev = -1;
    if (cudaGetDevice(&prev) != cudaSuccess) prev = -1;
    cudaError_t e = cudaSetDevice(device < 0 ? 0 : device);
    if (e == cudaSuccess) e = cudaFree(0); /* the context is made here */
    if (prev >= 0) (void)cudaSetDevice(prev);
    if (e != cudaSuccess) {
        (void)cudaGetLastError();
        return vsg_fail(VSG_E_DEVICE, "starting GPU %d: %s", device, cudaGetErrorString(e));
    }
    return VSG_OK;
}

extern "C" void vsg_gpu_release_pool(int device) { pool_trim(device); }

extern "C" vsg_status vsg_gpu_describe(int device, char *name, size_t len, double *free_bytes,
                                       double *total_bytes)
{
    if (len) name[0] = '\0';
    if (free_bytes) *free_bytes = 0;
    if (total_bytes) *total_bytes = 0;
    int n = vsg_gpu_count();
    if (device < 0) device = 0;
    if (device >= n)
        return vsg_fail(VSG_E_DEVICE, "GPU %d requested, %d CUDA device%s found", device, n,
                        n == 1 ? "" : "s");
    cudaDeviceProp prop;
    cudaError_t e = device_prop(&prop, device);
    if (e != cudaSuccess) {
        (void)cudaGetLastError();
        return vsg_fail(VSG_E_DEVICE, "cudaGetDeviceProperties(%d): %s", device,
                        cudaGetErrorString(e));
    }
    if (len) snprintf(name, len, "%s", prop.name);
    if (!free_bytes && !total_bytes) return VSG_OK;

    /* Free memory needs a context on that device; leave the caller's current device as it was. */
    int prev = -1;
    if (cudaGetDevice(&prev) != cudaSuccess) prev = -1;
    size_t fr = 0, tot = 0;
    e = cudaSetDevice(device);
    if (e == cudaSuccess) e = cudaMemGetInfo(&fr, &tot);
    if (prev >= 0 && prev != device) (void)cudaSetDevice(prev);
    if (e != cudaSuccess) {
        (void)cudaGetLastError();
        return vsg_fail(VSG_E_DEVICE, "cudaMemGetInfo on GPU %d: %s", device, cudaGetErrorString(e));
    }
    if (free_bytes) *free_bytes = (double)fr;
    if (total_bytes) *total_bytes = (double)tot;
    return VSG_OK;
}

/* ---- device-to-device copy bandwidth ---------------------------------------------------- */

/* Buffer size and repeats: 1 GiB per buffer (far past L2, 50-60 MB on Hopper) copied 20
 * times after 3 warm-ups; the median of the repeats is reported. */
#define VSG_COPY_BYTES ((size_t)1 << 30)
#define VSG_COPY_WARMUP 3
#define VSG_COPY_REPEATS 20

extern "C" double vsg_gpu_copy_bandwidth(int device)
{
    if (device < 0) device = 0;
    if (device >= vsg_gpu_count()) return 0.0;
    int prev = -1;
    if (cudaGetDevice(&prev) != cudaSuccess) prev = -1;
    double result = 0.0;
    void *a = NULL, *b = NULL;
    cudaEvent_t ev[2] = {NULL, NULL};
    size_t fr = 0, tot = 0, bytes = VSG_COPY_BYTES;
    float ms[VSG_COPY_REPEATS];

    if (cudaSetDevice(device) != cudaSuccess || cudaMemGetInfo(&fr, &tot) != cudaSuccess) goto done;
    while (bytes > ((size_t)1 << 24) && 2 * bytes > fr / 2) bytes /= 2; /* leave half free */
    if (cudaMalloc(&a, bytes) != cudaSuccess || cudaMalloc(&b, bytes) != cudaSuccess) goto done;
    /* Non-zero contents, so no path can special-case zeros. */
    if (cudaMemset(a, 0x5a, bytes) != cudaSuccess || cudaMemset(b, 0xa5, bytes) != cudaSuccess)
        goto done;
    if (cudaEventCreate(&ev[0]) != cudaSuccess || cudaEventCreate(&ev[1]) != cudaSuccess) goto done;
    for (int i = 0; i < VSG_COPY_WARMUP; i++)
        if (cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice) != cudaSuccess) goto done;
    for (int i = 0; i < VSG_COPY_REPEATS; i++) {
        /* Alternate direction so neither buffer stays the source. */
        void *src = (i & 1) ? b : a, *dst = (i & 1) ? a : b;
        if (cudaEventRecord(ev[0]) != cudaSuccess ||
            cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice) != cudaSuccess ||
            cudaEventRecord(ev[1]) != cudaSuccess || cudaEventSynchronize(ev[1]) != cudaSuccess ||
            cudaEventElapsedTime(&ms[i], ev[0], ev[1]) != cudaSuccess)
            goto done;
    }
    /* Median by insertion sort (20 values). */
    for (int i = 1; i < VSG_COPY_REPEATS; i++)
        for (int j = i; j > 0 && ms[j] < ms[j - 1]; j--) {
            float t = ms[j];
            ms[j] = ms[j - 1];
            ms[j - 1] = t;
        }
    {
        double med = 0.5 * ((double)ms[VSG_COPY_REPEATS / 2] + (double)ms[(VSG_COPY_REPEATS - 1) / 2]);
        /* Bytes read plus bytes written. */
        if (med > 0.0) result = 2.0 * (double)bytes / (med * 1e-3) / 1e9;
    }
done:
    (void)cudaGetLastError();
    if (ev[0]) cudaEventDestroy(ev[0]);
    if (ev[1]) cudaEventDestroy(ev[1]);
    if (a) cudaFree(a);
    if (b) cudaFree(b);
    if (prev >= 0 && prev != device) (void)cudaSetDevice(prev);
    (void)cudaGetLastError();
    return result;
}
