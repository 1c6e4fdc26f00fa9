/* brick_stage.cuh — one staging step of the map kernels (ad4_maps_gpu.cu, vina_maps_gpu.cu): a
 * block of THREADS threads looks at the next THREADS atoms of a cell row, keeps those within
 * reach of its brick of nodes (the distance from the atom to the brick's bounding box), and
 * appends them, in row order, to the tile in shared memory. Ordered compaction: a ballot per
 * warp, the warps' counts in s_wc, a prefix over them. */
#ifndef VSG_BRICK_STAGE_CUH
#define VSG_BRICK_STAGE_CUH

/* Squared distance from q to the box [lo, hi] (0 inside). */
__device__ __forceinline__ double brick_dist2(const double q[3], const double lo[3], const double hi[3])
{
    double dd = 0.0;
#pragma unroll
    for (int c = 0; c < 3; c++) {
        const double e = q[c] < lo[c] ? lo[c] - q[c] : q[c] > hi[c] ? q[c] - hi[c] : 0.0;
        dd += e * e;
    }
    return dd;
}

/* Called by every thread of the block with the same cnt, base and a1: `load(j, &item, q)` reads
 * atom j (a1 > j ≥ base) into the tile's item type and its position q; the item is kept when q
 * is within √reach2 of the brick. Returns the tile's new count (the same in every thread). */
template <int THREADS, typename T, typename Load>
__device__ __forceinline__ int brick_stage(T *tile, int *s_wc, int cnt, int base, int a1, const double lo[3],
                                           const double hi[3], double reach2, Load load)
{
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const int j = base + tid;
    bool keep = false;
    T item;
    if (j < a1) {
        double q[3];
        load(j, &item, q);
        keep = brick_dist2(q, lo, hi) <= reach2;
    }
    const unsigned bal = __ballot_sync(0xffffffffu, keep);
    if (lane == 0) s_wc[warp] = __popc(bal);
    __syncthreads();
    int off = cnt, tot = 0;
#pragma unroll
    for (int w = 0; w < THREADS / 32; w++) {
        const int c = s_wc[w];
        off += w < warp ? c : 0;
        tot += c;
    }
    if (keep) tile[off + __popc(bal & ((1u << lane) - 1u))] = item;
    __syncthreads();
    return cnt + tot;
}

#endif
