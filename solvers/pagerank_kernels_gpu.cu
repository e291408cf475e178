/*
 * pagerank_kernels_gpu.cu - PageRank's fused update on the device (solver_kernels.h): the
 * teleport axpy, the difference, its 1-norm and the next (d, x) in one pass and one wait,
 * summed by lib/cuda/reduce.cuh (double, the same bits run to run).
 */
#include "solver_kernels.h"
#include "cuda/reduce.cuh"
#include "cuda/check.cuh"
#include "cuda/gateway.h"

#define THREADS SPIRA__REDUCE_THREADS

/* y <- y + c v; x <- y - x; sums ||x||_1 and (d, y). */
template <typename T>
__global__ void __launch_bounds__(THREADS)
pagerank_kernel(int n, T c, const T *__restrict__ v, T *__restrict__ y, T *__restrict__ x,
                const T *__restrict__ d, spira__reduce_scratch *sc)
{
    double sum[2] = {0, 0};
    for (int i = blockIdx.x * THREADS + threadIdx.x; i < n; i += gridDim.x * THREADS) {
        T yi = y[i] + c * v[i];
        T xi = yi - x[i];
        y[i] = yi;
        x[i] = xi;
        sum[0] += fabs((double)xi);
        sum[1] += (double)d[i] * (double)yi;
    }
    spira__grid_sums(sum, sc);
}

extern "C" spira_status spira__cuda_pagerank_update(spira_context ctx, int32_t n, spira_dtype t,
                                                    double c, const void *v, void *y, void *x,
                                                    const void *d, double *out)
{
    cudaStream_t st = (cudaStream_t)spira__cuda_stream(ctx);
    spira__reduce_scratch *sc = spira__reduce_scratch_of(ctx);
    unsigned g = spira__reduce_blocks(n);
    if (t == SPIRA_R64)
        pagerank_kernel<<<g, THREADS, 0, st>>>(n, c, (const double *)v, (double *)y,
                                               (double *)x, (const double *)d, sc);
    else
        pagerank_kernel<<<g, THREADS, 0, st>>>(n, (float)c, (const float *)v, (float *)y,
                                               (float *)x, (const float *)d, sc);
    return spira__read_sums(ctx, st, sc, 2, out);
}

/* Row i's weights summed in double in solver_kernels.h's order (a warp a row, lane l
 * taking entry l of each chunk, the chunk's xor tree, lane 0 adding the chunks in order)
 * and checked as pagerank.c's row_sums checks them, 1 / sum (0 for a dangling row) and
 * the dangling flag. On R-MAT 2^20 the host's loops took 4.4-10 ms of PageRank's 16-23 ms
 * setup on the H200's 16 cores (bimodal between processes: session 25, call 3). */
template <typename T>
__global__ void __launch_bounds__(THREADS)
pagerank_scales_kernel(int n, const int *__restrict__ rp, const T *__restrict__ w,
                       double *__restrict__ inv, T *__restrict__ d, int *bad)
{
    static_assert(SPIRA__PAGERANK_CHUNK == 32, "a chunk is a warp");
    const int lane = (int)(threadIdx.x & 31u);
    const long long warps = (long long)gridDim.x * (THREADS / 32);
    for (long long i = ((long long)blockIdx.x * THREADS + threadIdx.x) / 32; i < n; i += warps) {
        const int end = rp[i + 1];
        double sum = 0;
        bool ok = true;
#pragma unroll 4
        for (int k0 = rp[i]; k0 < end; k0 += 32) {
            double v = k0 + lane < end ? (double)w[k0 + lane] : 0.0;
            ok &= isfinite(v) && v >= 0;
            for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off);
            sum += v; /* every lane holds the tree's sum: lane l's own is lane 0's */
        }
        ok = __all_sync(0xffffffffu, ok);
        if (lane == 0) {
            if (!ok || !isfinite(sum)) atomicMin(bad, (int)i);
            const double r = sum > 0 ? 1.0 / sum : 0.0;
            inv[i] = r;
            d[i] = r == 0 ? T(1) : T(0);
        }
    }
}

extern "C" spira_status spira__cuda_pagerank_scales(spira_context ctx, const spira__csr_dev *G,
                                                    double *inv, void *d, int32_t *bad_row)
{
    cudaStream_t st = (cudaStream_t)spira__cuda_stream(ctx);
    auto launch = [&](int *bad) {
        if (G->nrows == 0) return SPIRA_OK;
        const unsigned g = spira__blocks((long long)G->nrows * 32, THREADS);
        if (G->dtype == SPIRA_R64)
            pagerank_scales_kernel<<<g, THREADS, 0, st>>>(G->nrows, G->row_ptr,
                                                          (const double *)G->val, inv,
                                                          (double *)d, bad);
        else
            pagerank_scales_kernel<<<g, THREADS, 0, st>>>(G->nrows, G->row_ptr,
                                                          (const float *)G->val, inv,
                                                          (float *)d, bad);
        return spira__cuda_status(ctx, cudaGetLastError(), "pagerank_scales_kernel", __FILE__,
                                  __LINE__);
    };
    return spira__cuda_first_bad_row(ctx, G->nrows, "PageRank row check", launch, bad_row);
}

SPIRA__MODULE_ANCHOR(pagerank, pagerank_kernel<double>)
