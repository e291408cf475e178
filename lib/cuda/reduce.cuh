/*
 * reduce.cuh - the deterministic grid reduction the fused operations share, for .cu files
 * of any layer (lib/cuda/fused.cu, solvers/*_kernels_gpu.cu): a kernel adds its K sums per
 * thread with spira__grid_sums, launched on spira__reduce_blocks(n) blocks of
 * SPIRA__REDUCE_THREADS threads, and spira__read_sums brings the K results to the host
 * (the one wait), or a kernel of the caller's reads them on the device (CG's graph).
 * Dot products take their per-thread sums from spira__dot_partials, so whichever kernel
 * reduces (x_k, y_k) gets the same bits.
 *
 * The sums accumulate in double. Each block sums its share (a tree over the block) into the
 * context's scratch; the last block to finish sums the blocks' partials in block order.
 * The grid depends on n alone, so the result is the same bits run to run.
 */
#ifndef SPIRA_CUDA_REDUCE_CUH
#define SPIRA_CUDA_REDUCE_CUH

#include "cuda/gateway.h"
#include "cuda/check.cuh"

#define SPIRA__REDUCE_THREADS 256
#define SPIRA__REDUCE_MAX_BLOCKS 1024
#define SPIRA__REDUCE_MAX_SUMS 3

/* What the scratch holds for a reduction: a finished-block counter (left at 0 between
 * reductions), the blocks' partial sums, component by component, and the result. */
struct spira__reduce_scratch {
    unsigned done;
    double partial[SPIRA__REDUCE_MAX_SUMS][SPIRA__REDUCE_MAX_BLOCKS];
    double out[SPIRA__REDUCE_MAX_SUMS];
};
static_assert(sizeof(spira__reduce_scratch) <= SPIRA__CUDA_SCRATCH_BYTES, "scratch too small");
static_assert(SPIRA__DOTS_MAX <= SPIRA__REDUCE_MAX_SUMS, "scratch too narrow for the dots");

/* The sum of v over the block, in thread 0 (a fixed order: shuffles, then the warps' sums). */
static __device__ __forceinline__ double spira__block_sum(double v)
{
    __shared__ double warp_sum[SPIRA__REDUCE_THREADS / 32];
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    if (threadIdx.x % 32 == 0) warp_sum[threadIdx.x / 32] = v;
    __syncthreads();
    v = 0;
    if (threadIdx.x == 0)
        for (int w = 0; w < SPIRA__REDUCE_THREADS / 32; w++) v += warp_sum[w];
    __syncthreads(); /* warp_sum is reused by the next call */
    return v;
}

/* Each block's K sums into the scratch; the last block to finish adds them up in block
 * order into sc->out (written by its thread 0) and leaves the counter at 0 for the next
 * reduction. True in every thread of that last block, so its thread 0 may go on with the
 * results (CG's graph step does). */
template <int K>
static __device__ __forceinline__ bool spira__grid_sums(double (&sum)[K],
                                                        spira__reduce_scratch *sc)
{
    static_assert(K <= SPIRA__REDUCE_MAX_SUMS, "too many sums");
    for (int k = 0; k < K; k++) {
        double s = spira__block_sum(sum[k]);
        if (threadIdx.x == 0) sc->partial[k][blockIdx.x] = s;
    }
    /* the fence makes this block's partials visible to the last block */
    __shared__ bool last;
    if (threadIdx.x == 0) {
        __threadfence();
        last = atomicAdd(&sc->done, 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (!last) return false;
    for (int k = 0; k < K; k++) {
        double s = 0;
        for (int b = threadIdx.x; b < gridDim.x; b += SPIRA__REDUCE_THREADS)
            s += __ldcg(&sc->partial[k][b]);
        s = spira__block_sum(s);
        if (threadIdx.x == 0) sc->out[k] = s;
    }
    if (threadIdx.x == 0) sc->done = 0;
    return true;
}

/* The vectors of up to SPIRA__DOTS_MAX dot products (x[k], y[k]), n values each. */
template <typename T> struct spira__dot_pairs {
    const T *x[SPIRA__DOTS_MAX], *y[SPIRA__DOTS_MAX];
};

/* This thread's share of the K dot products, in double, over a grid-stride loop on a
 * grid of SPIRA__REDUCE_THREADS-thread blocks: one expression for every kernel that sums
 * dots (fused.cu's, CG's graph step), so they round alike. */
template <typename T, int K>
static __device__ __forceinline__ void spira__dot_partials(int n, const spira__dot_pairs<T> &a,
                                                           double (&sum)[K])
{
    for (int k = 0; k < K; k++) sum[k] = 0;
    for (int i = blockIdx.x * SPIRA__REDUCE_THREADS + threadIdx.x; i < n;
         i += gridDim.x * SPIRA__REDUCE_THREADS)
        for (int k = 0; k < K; k++) sum[k] += (double)a.x[k][i] * (double)a.y[k][i];
}

/* A reduction's grid: n alone decides it, so the sums come out the same bits each run. */
static inline unsigned spira__reduce_blocks(int32_t n)
{
    unsigned g = spira__blocks(n, SPIRA__REDUCE_THREADS);
    return g > SPIRA__REDUCE_MAX_BLOCKS ? SPIRA__REDUCE_MAX_BLOCKS : g;
}

/* The context's scratch, as a reduction sees it. */
static inline spira__reduce_scratch *spira__reduce_scratch_of(spira_context ctx)
{
    return (spira__reduce_scratch *)spira__cuda_scratch(ctx);
}

/* After a reduction kernel: its launch status, the context's sum hook if one is set (a
 * distributed solve's sum over the ranks, on the device), then its k sums to the host (the
 * one wait). */
static inline spira_status spira__read_sums(spira_context ctx, cudaStream_t st,
                                            spira__reduce_scratch *sc, int k, double *out)
{
    SPIRA__LAUNCHED(ctx);
    if (ctx->sum_hook) {
        spira_status (*hook)(void *, int, double *) = ctx->sum_hook;
        ctx->sum_hook = NULL;
        SPIRA__TRY(hook(ctx->sum_hook_data, k, sc->out));
    }
    SPIRA__CUDA(ctx, cudaMemcpyAsync(out, sc->out, k * sizeof *out, cudaMemcpyDeviceToHost, st));
    SPIRA__CUDA(ctx, cudaStreamSynchronize(st));
    return SPIRA_OK;
}

#endif
