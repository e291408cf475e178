/*
 * blas.cu - BLAS-1 on the device that reduces nothing: small grid-stride kernels (fill,
 * axpby in one pass, scal, pmul, gather). The reductions (dot, nrm2, asum) are fused.cu's.
 */
#include "cuda/gateway.h"
#include "cuda/check.cuh"

template <typename T>
__global__ void fill_kernel(int n, T *x, T v)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        x[i] = v;
}

/* y <- a x + b y; with b == 0, y is not read (BLAS semantics: NaN in y does not leak) */
template <typename T>
__global__ void axpby_kernel(int n, T a, const T *__restrict__ x, T b, T *__restrict__ y)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        y[i] = b == T(0) ? a * x[i] : a * x[i] + b * y[i];
}

template <typename T>
__global__ void scal_kernel(int n, T a, T *x)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        x[i] *= a;
}

template <typename T>
__global__ void pmul_kernel(int n, const T *x, const T *y, T *w)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        w[i] = x[i] * y[i];
}

/* y[i] = x[idx[i]]: the permutations into and out of a reordered solve (lib/reorder.c) */
template <typename T>
__global__ void gather_kernel(int n, const int *__restrict__ idx, const T *__restrict__ x,
                              T *__restrict__ y)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        y[i] = x[idx[i]];
}

static cudaStream_t stream_of(spira_context ctx)
{
    return (cudaStream_t)spira__cuda_stream(ctx);
}

extern "C" spira_status spira__cuda_fill(spira_context ctx, int32_t n, spira_dtype t, void *dx,
                                         double v)
{
    if (n == 0) return SPIRA_OK;
    unsigned g = spira__blocks(n, 256);
    if (t == SPIRA_R64) fill_kernel<<<g, 256, 0, stream_of(ctx)>>>(n, (double *)dx, v);
    else fill_kernel<<<g, 256, 0, stream_of(ctx)>>>(n, (float *)dx, (float)v);
    SPIRA__LAUNCHED(ctx);
    return SPIRA_OK;
}

extern "C" spira_status spira__cuda_axpby(spira_context ctx, int32_t n, spira_dtype t, double a,
                                          const void *dx, double b, void *dy)
{
    if (n == 0) return SPIRA_OK;
    unsigned g = spira__blocks(n, 256);
    if (t == SPIRA_R64)
        axpby_kernel<<<g, 256, 0, stream_of(ctx)>>>(n, a, (const double *)dx, b, (double *)dy);
    else
        axpby_kernel<<<g, 256, 0, stream_of(ctx)>>>(n, (float)a, (const float *)dx, (float)b,
                                                    (float *)dy);
    SPIRA__LAUNCHED(ctx);
    return SPIRA_OK;
}

extern "C" spira_status spira__cuda_scal(spira_context ctx, int32_t n, spira_dtype t, double a,
                                         void *dx)
{
    if (n == 0) return SPIRA_OK;
    unsigned g = spira__blocks(n, 256);
    if (t == SPIRA_R64) scal_kernel<<<g, 256, 0, stream_of(ctx)>>>(n, a, (double *)dx);
    else scal_kernel<<<g, 256, 0, stream_of(ctx)>>>(n, (float)a, (float *)dx);
    SPIRA__LAUNCHED(ctx);
    return SPIRA_OK;
}

extern "C" spira_status spira__cuda_pmul(spira_context ctx, int32_t n, spira_dtype t,
                                         const void *dx, const void *dy, void *dw)
{
    if (n == 0) return SPIRA_OK;
    unsigned g = spira__blocks(n, 256);
    if (t == SPIRA_R64)
        pmul_kernel<<<g, 256, 0, stream_of(ctx)>>>(n, (const double *)dx, (const double *)dy,
                                                   (double *)dw);
    else
        pmul_kernel<<<g, 256, 0, stream_of(ctx)>>>(n, (const float *)dx, (const float *)dy,
                                                   (float *)dw);
    SPIRA__LAUNCHED(ctx);
    return SPIRA_OK;
}

extern "C" spira_status spira__cuda_gather(spira_context ctx, int32_t n, spira_dtype t,
                                           const int32_t *didx, const void *dx, void *dy)
{
    if (n == 0) return SPIRA_OK;
    unsigned g = spira__blocks(n, 256);
    if (t == SPIRA_R64)
        gather_kernel<<<g, 256, 0, stream_of(ctx)>>>(n, didx, (const double *)dx, (double *)dy);
    else
        gather_kernel<<<g, 256, 0, stream_of(ctx)>>>(n, didx, (const float *)dx, (float *)dy);
    SPIRA__LAUNCHED(ctx);
    return SPIRA_OK;
}

SPIRA__MODULE_ANCHOR(blas, fill_kernel<double>)
