/*
 * fused.cu - the solvers' fused vector operations on the device: up to SPIRA__DOTS_MAX dot
 * products in one pass over the vectors and one wait; y <- a x + b y with up to two sums of
 * the new y (BiCGSTAB); CG's four vector updates in one pass; PageRank's update with its
 * two sums.
 *
 * The sums accumulate in double in both precisions. Each block sums its share (a grid-stride
 * loop, then a tree over the block) into the context's scratch; the last block to finish
 * sums the blocks' partials in block order. The grid depends on n alone, so the result is
 * the same bits run to run.
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

/* Each block's K sums into the scratch; the last block to finish adds them up in block
 * order into sc->out and leaves the counter at 0 for the next reduction. */
template <int K> __device__ void grid_sums(double (&sum)[K], reduce_scratch *sc)
{
    for (int k = 0; k < K; k++) {
        double s = block_sum(sum[k]);
        if (threadIdx.x == 0) sc->partial[k][blockIdx.x] = s;
    }
    /* the fence makes this block's partials visible to the last block */
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

template <typename T, int K>
__global__ void __launch_bounds__(THREADS) dots_kernel(int n, dot_pairs<T> a, reduce_scratch *sc)
{
    double sum[K];
    for (int k = 0; k < K; k++) sum[k] = 0;
    for (int i = blockIdx.x * THREADS + threadIdx.x; i < n; i += gridDim.x * THREADS)
        for (int k = 0; k < K; k++) sum[k] += (double)a.x[k][i] * (double)a.y[k][i];
    grid_sums(sum, sc);
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

/* A reduction's grid: n alone decides it, so the sums come out the same bits each run. */
static unsigned reduce_blocks(int32_t n)
{
    unsigned g = spira__blocks(n, THREADS);
    return g > MAX_BLOCKS ? MAX_BLOCKS : g;
}

/* After a reduction kernel: its launch status, then its k sums to the host (the one wait). */
static spira_status read_sums(spira_context ctx, cudaStream_t st, reduce_scratch *sc, int k,
                              double *out)
{
    SPIRA__LAUNCHED(ctx);
    SPIRA__CUDA(ctx, cudaMemcpyAsync(out, sc->out, k * sizeof *out, cudaMemcpyDeviceToHost, st));
    SPIRA__CUDA(ctx, cudaStreamSynchronize(st));
    return SPIRA_OK;
}

extern "C" spira_status spira__cuda_dots(spira_context ctx, int k, int32_t n, spira_dtype t,
                                         const void *const *dx, const void *const *dy,
                                         double *out)
{
    cudaStream_t st = (cudaStream_t)spira__cuda_stream(ctx);
    reduce_scratch *sc = (reduce_scratch *)spira__cuda_scratch(ctx);
    if (t == SPIRA_R64) launch_dots<double>(k, n, reduce_blocks(n), st, dx, dy, sc);
    else launch_dots<float>(k, n, reduce_blocks(n), st, dx, dy, sc);
    return read_sums(ctx, st, sc, k, out);
}

/* y <- a x + b y (y not read when b == 0), then out[k] = (y, z_k) for k < K; z_k may be y:
 * each thread reads back the y[i] it wrote. */
template <typename T, int K>
__global__ void __launch_bounds__(THREADS)
axpby_dots_kernel(int n, T a, const T *__restrict__ x, T b, T *y, dot_pairs<T> z,
                  reduce_scratch *sc)
{
    double sum[K];
    for (int k = 0; k < K; k++) sum[k] = 0;
    for (int i = blockIdx.x * THREADS + threadIdx.x; i < n; i += gridDim.x * THREADS) {
        const T yi = b == T(0) ? a * x[i] : a * x[i] + b * y[i];
        y[i] = yi;
        for (int k = 0; k < K; k++) sum[k] += (double)yi * (double)z.x[k][i];
    }
    grid_sums(sum, sc);
}

template <typename T>
static void launch_axpby_dots(int k, int n, double a, const void *x, double b, void *y,
                              const void *const *z, cudaStream_t st, reduce_scratch *sc)
{
    dot_pairs<T> zs = {};
    for (int i = 0; i < k; i++) zs.x[i] = (const T *)z[i];
    unsigned g = reduce_blocks(n);
    if (k == 1)
        axpby_dots_kernel<T, 1><<<g, THREADS, 0, st>>>(n, (T)a, (const T *)x, (T)b, (T *)y, zs, sc);
    else
        axpby_dots_kernel<T, 2><<<g, THREADS, 0, st>>>(n, (T)a, (const T *)x, (T)b, (T *)y, zs, sc);
}

extern "C" spira_status spira__cuda_axpby_dots(spira_context ctx, int k, int32_t n,
                                               spira_dtype t, double a, const void *x, double b,
                                               void *y, const void *const *z, double *out)
{
    cudaStream_t st = (cudaStream_t)spira__cuda_stream(ctx);
    reduce_scratch *sc = (reduce_scratch *)spira__cuda_scratch(ctx);
    if (t == SPIRA_R64) launch_axpby_dots<double>(k, n, a, x, b, y, z, st, sc);
    else launch_axpby_dots<float>(k, n, a, x, b, y, z, st, sc);
    return read_sums(ctx, st, sc, k, out);
}

/* PageRank's step after its SpMV: y <- y + c v; x <- y - x; sums ||x||_1 and (d, y). */
template <typename T>
__global__ void __launch_bounds__(THREADS)
pagerank_kernel(int n, T c, const T *__restrict__ v, T *__restrict__ y, T *__restrict__ x,
                const T *__restrict__ d, reduce_scratch *sc)
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
    grid_sums(sum, sc);
}

extern "C" spira_status spira__cuda_pagerank_update(spira_context ctx, int32_t n, spira_dtype t,
                                                    double c, const void *v, void *y, void *x,
                                                    const void *d, double *out)
{
    cudaStream_t st = (cudaStream_t)spira__cuda_stream(ctx);
    reduce_scratch *sc = (reduce_scratch *)spira__cuda_scratch(ctx);
    unsigned g = reduce_blocks(n);
    if (t == SPIRA_R64)
        pagerank_kernel<<<g, THREADS, 0, st>>>(n, c, (const double *)v, (double *)y,
                                               (double *)x, (const double *)d, sc);
    else
        pagerank_kernel<<<g, THREADS, 0, st>>>(n, (float)c, (const float *)v, (float *)y,
                                               (float *)x, (const float *)d, sc);
    return read_sums(ctx, st, sc, 2, out);
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
