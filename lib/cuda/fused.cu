/*
 * fused.cu - fused BLAS-1 on the device: up to SPIRA__DOTS_MAX dot products in one pass over
 * the vectors and one wait; y <- a x + b y with up to two sums of the new y. The sums are
 * reduce.cuh's: in double in both precisions, the same bits run to run. Fused steps that
 * belong to one solver live beside it (solvers/*_kernels_gpu.cu).
 */
#include "cuda/reduce.cuh"

#define THREADS SPIRA__REDUCE_THREADS

template <typename T> using dot_pairs = spira__dot_pairs<T>;

template <typename T, int K>
__global__ void __launch_bounds__(THREADS)
dots_kernel(int n, dot_pairs<T> a, spira__reduce_scratch *sc)
{
    double sum[K];
    spira__dot_partials<T, K>(n, a, sum);
    spira__grid_sums(sum, sc);
}

template <typename T>
static void launch_dots(int k, int n, unsigned g, cudaStream_t st, const void *const *x,
                        const void *const *y, spira__reduce_scratch *sc)
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
    spira__reduce_scratch *sc = spira__reduce_scratch_of(ctx);
    if (t == SPIRA_R64) launch_dots<double>(k, n, spira__reduce_blocks(n), st, dx, dy, sc);
    else launch_dots<float>(k, n, spira__reduce_blocks(n), st, dx, dy, sc);
    return spira__read_sums(ctx, st, sc, k, out);
}

/* The single reductions of the vector API (spira_dot, spira_nrm2, spira_asum) are these
 * kernels too, not cuBLAS's: the same sums in double as the solvers' fused ones, and no
 * cuBLAS module to load lazily, which cost a program's first solve about 2.5 ms on the H100
 * (its first cublasDnrm2; bench/results/2026-11-26-h100-session13). */
extern "C" spira_status spira__cuda_dot(spira_context ctx, int32_t n, spira_dtype t,
                                        const void *dx, const void *dy, double *r)
{
    return spira__cuda_dots(ctx, 1, n, t, &dx, &dy, r);
}

/* sqrt of the sum of squares in double, which holds any float vector's; a double vector's
 * overflows past entries of about 1e154 and underflows below 1e-154, and there cuBLAS's
 * scaled nrm2 answers (a zero vector too: its sum is 0 either way). */
extern "C" spira_status spira__cuda_nrm2(spira_context ctx, int32_t n, spira_dtype t,
                                         const void *dx, double *r)
{
    double ss;
    SPIRA__TRY(spira__cuda_dot(ctx, n, t, dx, dx, &ss));
    if (t == SPIRA_R32 || (ss >= 1e-290 && ss <= 1e290)) {
        *r = sqrt(ss);
        return SPIRA_OK;
    }
    cublasHandle_t h = (cublasHandle_t)spira__cuda_cublas(ctx);
    SPIRA__CUBLAS(ctx, cublasDnrm2(h, n, (const double *)dx, 1, r));
    return SPIRA_OK;
}

template <typename T>
__global__ void __launch_bounds__(THREADS) asum_kernel(int n, const T *x, spira__reduce_scratch *sc)
{
    double sum[1] = {0};
    for (int i = blockIdx.x * THREADS + threadIdx.x; i < n; i += gridDim.x * THREADS)
        sum[0] += fabs((double)x[i]);
    spira__grid_sums(sum, sc);
}

extern "C" spira_status spira__cuda_asum(spira_context ctx, int32_t n, spira_dtype t,
                                         const void *dx, double *r)
{
    cudaStream_t st = (cudaStream_t)spira__cuda_stream(ctx);
    spira__reduce_scratch *sc = spira__reduce_scratch_of(ctx);
    const unsigned g = spira__reduce_blocks(n);
    if (t == SPIRA_R64) asum_kernel<<<g, THREADS, 0, st>>>(n, (const double *)dx, sc);
    else asum_kernel<<<g, THREADS, 0, st>>>(n, (const float *)dx, sc);
    return spira__read_sums(ctx, st, sc, 1, r);
}

/* y <- a x + b y (y not read when b == 0), then out[k] = (y, z_k) for k < K; z_k may be y:
 * each thread reads back the y[i] it wrote. */
template <typename T, int K>
__global__ void __launch_bounds__(THREADS)
axpby_dots_kernel(int n, T a, const T *__restrict__ x, T b, T *y, dot_pairs<T> z,
                  spira__reduce_scratch *sc)
{
    double sum[K];
    for (int k = 0; k < K; k++) sum[k] = 0;
    for (int i = blockIdx.x * THREADS + threadIdx.x; i < n; i += gridDim.x * THREADS) {
        const T yi = b == T(0) ? a * x[i] : a * x[i] + b * y[i];
        y[i] = yi;
        for (int k = 0; k < K; k++) sum[k] += (double)yi * (double)z.x[k][i];
    }
    spira__grid_sums(sum, sc);
}

template <typename T>
static void launch_axpby_dots(int k, int n, double a, const void *x, double b, void *y,
                              const void *const *z, cudaStream_t st, spira__reduce_scratch *sc)
{
    dot_pairs<T> zs = {};
    for (int i = 0; i < k; i++) zs.x[i] = (const T *)z[i];
    unsigned g = spira__reduce_blocks(n);
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
    spira__reduce_scratch *sc = spira__reduce_scratch_of(ctx);
    if (t == SPIRA_R64) launch_axpby_dots<double>(k, n, a, x, b, y, z, st, sc);
    else launch_axpby_dots<float>(k, n, a, x, b, y, z, st, sc);
    return spira__read_sums(ctx, st, sc, k, out);
}

SPIRA__MODULE_ANCHOR(fused, dots_kernel<double, 1>)
