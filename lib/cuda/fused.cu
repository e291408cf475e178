/*
 * fused.cu - the solvers' fused vector operations on the device: up to SPIRA__DOTS_MAX dot
 * products in one pass over the vectors and one wait, and CG's four vector updates in one pass.
 *
 * The dots accumulate in double in both precisions. Each block sums its share (a grid-stride
 * loop, then a tree over the block) into the context's scratch; the last block to finish
 * sums the blocks' partials in block order. The grid depends on n alone, so the result is
 * the same bits run to run, on any GPU.
 */
#include "cuda/gateway.h"
#include "cuda/check.cuh"

#define THREADS 256
#define MAX_BLOCKS 1024

/* What the scratch holds for a reduction: a finished-block counter (left at 0 between
 * reductions), the blocks' partial sums, component by component, and the result. */
struct reduce_scratch {
    unsigned done;
    double partial[SPIRA__DOTS_MAX][MAX_BLOCKS];
    double out[SPIRA__DOTS_MAX];
};
static_assert(sizeof(reduce_scratch) <= SPIRA__CUDA_SCRATCH_BYTES, "scratch too small");

template <typename T> struct dot_pairs {
    const T *x[SPIRA__DOTS_MAX], *y[SPIRA__DOTS_MAX];
};

/* The sum of v over the block, in thread 0 (a fixed order: shuffles, then the warps' sums). */
__device__ double block_sum(double v)
{
    __shared__ double warp_sum[THREADS / 32];
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    if (threadIdx.x % 32 == 0) warp_sum[threadIdx.x / 32] = v;
    __syncthreads();
    v = 0;
    if (threadIdx.x == 0)
        for (int w = 0; w < THREADS / 32; w++) v += warp_sum[w];
    __syncthreads(); /* warp_sum is reused by the next call */
    return v;
}

template <typename T, int K>
__global__ void __launch_bounds__(THREADS) dots_kernel(int n, dot_pairs<T> a, reduce_scratch *sc)
{
    double sum[K];
    for (int k = 0; k < K; k++) sum[k] = 0;
    for (int i = blockIdx.x * THREADS + threadIdx.x; i < n; i += gridDim.x * THREADS)
        for (int k = 0; k < K; k++) sum[k] += (double)a.x[k][i] * (double)a.y[k][i];
    for (int k = 0; k < K; k++) {
        double s = block_sum(sum[k]);
        if (threadIdx.x == 0) sc->partial[k][blockIdx.x] = s;
    }
    /* the last block to arrive sums the partials; the fence makes ours visible to it */
    __shared__ bool last;
    if (threadIdx.x == 0) {
        __threadfence();
        last = atomicAdd(&sc->done, 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (!last) return;
    for (int k = 0; k < K; k++) {
        double s = 0;
        for (int b = threadIdx.x; b < gridDim.x; b += THREADS) s += __ldcg(&sc->partial[k][b]);
        s = block_sum(s);
        if (threadIdx.x == 0) sc->out[k] = s;
    }
    if (threadIdx.x == 0) sc->done = 0;
}

template <typename T>
static void launch_dots(int k, int n, unsigned g, cudaStream_t st, const void *const *x,
                        const void *const *y, reduce_scratch *sc)
{
    dot_pairs<T> a = {};
    for (int i = 0; i < k; i++) a.x[i] = (const T *)x[i], a.y[i] = (const T *)y[i];
    if (k == 1) dots_kernel<T, 1><<<g, THREADS, 0, st>>>(n, a, sc);
    else if (k == 2) dots_kernel<T, 2><<<g, THREADS, 0, st>>>(n, a, sc);
    else dots_kernel<T, 3><<<g, THREADS, 0, st>>>(n, a, sc);
}

extern "C" spira_status spira__cuda_dots(spira_context ctx, int k, int32_t n, spira_dtype t,
                                         const void *const *dx, const void *const *dy,
                                         double *out)
{
    cudaStream_t st = (cudaStream_t)spira__cuda_stream(ctx);
    reduce_scratch *sc = (reduce_scratch *)spira__cuda_scratch(ctx);
    unsigned g = spira__blocks(n, THREADS);
    if (g > MAX_BLOCKS) g = MAX_BLOCKS;
    if (t == SPIRA_R64) launch_dots<double>(k, n, g, st, dx, dy, sc);
    else launch_dots<float>(k, n, g, st, dx, dy, sc);
    SPIRA__LAUNCHED(ctx);
    SPIRA__CUDA(ctx, cudaMemcpyAsync(out, sc->out, k * sizeof *out, cudaMemcpyDeviceToHost, st));
    SPIRA__CUDA(ctx, cudaStreamSynchronize(st));
    return SPIRA_OK;
}

/* p <- u + beta p; s <- w + beta s; x <- x + alpha p; r <- r - alpha s. u may be r: each
 * element of u is read before r's is written. With beta == 0, p and s are not read. */
template <typename T>
__global__ void cg_update_kernel(int n, T alpha, T beta, const T *u, const T *__restrict__ w,
                                 T *__restrict__ p, T *__restrict__ s, T *__restrict__ x, T *r)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        T pi = beta == T(0) ? u[i] : u[i] + beta * p[i];
        T si = beta == T(0) ? w[i] : w[i] + beta * s[i];
        p[i] = pi;
        s[i] = si;
        x[i] += alpha * pi;
        r[i] -= alpha * si;
    }
}

extern "C" spira_status spira__cuda_cg_update(spira_context ctx, int32_t n, spira_dtype t,
                                              double alpha, double beta, const void *u,
                                              const void *w, void *p, void *s, void *x, void *r)
{
    if (n == 0) return SPIRA_OK;
    cudaStream_t st = (cudaStream_t)spira__cuda_stream(ctx);
    unsigned g = spira__blocks(n, THREADS);
    if (t == SPIRA_R64)
        cg_update_kernel<<<g, THREADS, 0, st>>>(n, alpha, beta, (const double *)u,
                                                (const double *)w, (double *)p, (double *)s,
                                                (double *)x, (double *)r);
    else
        cg_update_kernel<<<g, THREADS, 0, st>>>(n, (float)alpha, (float)beta, (const float *)u,
                                                (const float *)w, (float *)p, (float *)s,
                                                (float *)x, (float *)r);
    SPIRA__LAUNCHED(ctx);
    return SPIRA_OK;
}
