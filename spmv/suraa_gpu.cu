/*
 * suraa_gpu.cu - the SURAA kernels (Muhammed et al. 2019, Algorithms 1 and 3-6; see
 * suraa.h): for G3 V lanes of a warp a row (csr_row.cuh; V = 1 is the paper's scalar
 * kernel), for G2 a vector kernel (Y threads a row, Y a multiple of 32: warp shuffles, then
 * the row's warps summed through shared memory in order), and for G1, in a build with
 * SPIRA_DYNAMIC_PARALLELISM, a parent kernel whose threads each launch the vector kernel as
 * a one-block child grid for their row (fire-and-forget: the parent grid completes only
 * when its children have). Each launch of a multiply runs on its own stream, forked from
 * and joined back to the context's stream with events. The conversion on the GPU is in
 * suraa_convert_gpu.cu.
 */
#include "suraa.h"
#include "csr_row.cuh"
#include "device.h"
#include "cuda/check.cuh"
#include "cuda/gateway.h"

#include <cstring>

namespace {

constexpr int kBlock = 256;
constexpr int kStreams = 8; /* launches beyond this share streams, round-robin */

/* The handle: the host layout's struct (its arrays on the device: row_ptr, col_idx, val,
 * perm), then what a multiply of several launches needs. */
struct suraa_dev {
    spira__suraa h;
    int nstreams;
    cudaStream_t stream[kStreams];
    cudaEvent_t fork, join[kStreams];
};

template <typename T>
struct rows {
    const int *__restrict__ rp, *__restrict__ ci, *__restrict__ perm;
    const T *__restrict__ v, *__restrict__ x;
    T alpha, beta;
    T *__restrict__ y;

    __device__ void store(int i, T sum) const
    {
        const int r = perm[i];
        y[r] = beta == T(0) ? alpha * sum : alpha * sum + beta * y[r];
    }
    __device__ T serial_sum(int i) const
    {
        T sum = 0;
        for (int k = rp[i]; k < rp[i + 1]; k++) sum += v[k] * __ldg(&x[ci[k]]);
        return sum;
    }
};

/* V lanes a row; V = 1: a thread a row, the paper's scalar kernel. Eight blocks an SM, as
 * csr-vector and LightSpMV ask: without the bound, nvcc (-rdc=true) gives the V > 1
 * kernels registers enough to hold the GPU to a quarter of its warps. */
template <typename T, int V>
__global__ void __launch_bounds__(kBlock, 8) subwarp_kernel(int first, int end, rows<T> a)
{
    const int nvec = gridDim.x * (blockDim.x / V);
    for (int i = first + (int)((blockIdx.x * blockDim.x + threadIdx.x) / V); i < end; i += nvec) {
        if constexpr (V == 1) {
            a.store(i, a.serial_sum(i));
        } else {
            const unsigned lane = threadIdx.x & (V - 1);
            T sum = spira__csr_row_dot<T, V>(a.rp[i], a.rp[i + 1], lane, spira__vector_mask<V>(),
                                             a.ci, a.v, a.x);
            if (lane == 0) a.store(i, sum);
        }
    }
}

template <typename T, int V>
void subwarp_launch(const spira__suraa_launch *l, cudaStream_t st, rows<T> a)
{
    const long long threads = (long long)(l->end - l->first) * V;
    subwarp_kernel<T, V><<<spira__blocks(threads, kBlock), kBlock, 0, st>>>(l->first, l->end, a);
}

/* Y threads a row (blockDim.x a multiple of Y), blockDim.x / Y rows a block at a time. */
template <typename T>
__global__ void __launch_bounds__(SPIRA__SURAA_MAX_THREADS)
    vector_kernel(int first, int end, int Y, rows<T> a)
{
    __shared__ T warp_sum[SPIRA__SURAA_MAX_THREADS / 32];
    const int per_block = blockDim.x / Y, k = threadIdx.x % Y, warp = threadIdx.x / 32;
    /* the bound is the same for the whole block, so every thread reaches the barriers */
    for (long long base = first + (long long)blockIdx.x * per_block; base < end;
         base += (long long)gridDim.x * per_block) {
        const long long i = base + threadIdx.x / Y;
        T sum = 0;
        if (i < end)
            for (int j = a.rp[i] + k; j < a.rp[i + 1]; j += Y)
                sum += __ldcs(&a.v[j]) * __ldg(&a.x[__ldcs(&a.ci[j])]);
#pragma unroll
        for (int off = 16; off > 0; off >>= 1) sum += __shfl_down_sync(0xffffffffu, sum, off);
        if ((threadIdx.x & 31) == 0) warp_sum[warp] = sum;
        __syncthreads();
        if (k == 0 && i < end) {
            T total = 0;
            for (int w = warp; w < warp + Y / 32; w++) total += warp_sum[w];
            a.store((int)i, total);
        }
        __syncthreads();
    }
}

#ifdef SPIRA_DYNAMIC_PARALLELISM
/* A thread per G1 row: the row's own Y, one child block. A child the device will not take
 * (its pending-launch buffer full) is summed here instead, so no row is lost. */
template <typename T>
__global__ void __launch_bounds__(kBlock) parent_kernel(int first, int end, rows<T> a)
{
    const int i = first + blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= end) return;
    const int n = a.rp[i + 1] - a.rp[i];
    int y = ((n >> 1) + 31) >> 5 << 5;
    y = y < 32 ? 32 : y > SPIRA__SURAA_MAX_THREADS ? SPIRA__SURAA_MAX_THREADS : y;
    vector_kernel<T><<<1, y, 0, cudaStreamFireAndForget>>>(i, i + 1, y, a);
    if (cudaGetLastError() != cudaSuccess) a.store(i, a.serial_sum(i));
}
#endif

template <typename T>
void launch_one(const spira__suraa_launch *l, cudaStream_t st, rows<T> a)
{
    const long long n = l->end - l->first;
    switch (l->kind) {
    case SPIRA__SURAA_SUBWARP:
        switch (l->threads) {
        case 1: subwarp_launch<T, 1>(l, st, a); break;
        case 2: subwarp_launch<T, 2>(l, st, a); break;
        case 4: subwarp_launch<T, 4>(l, st, a); break;
        case 8: subwarp_launch<T, 8>(l, st, a); break;
        case 16: subwarp_launch<T, 16>(l, st, a); break;
        default: subwarp_launch<T, 32>(l, st, a); break;
        }
        break;
    case SPIRA__SURAA_DYNAMIC:
#ifdef SPIRA_DYNAMIC_PARALLELISM
        parent_kernel<T><<<spira__blocks(n, kBlock), kBlock, 0, st>>>(l->first, l->end, a);
#endif /* without it upload refuses the layout */
        break;
    default: {
        /* whole rows to a block: Y = 96 takes 192 threads, not 256 */
        const int b = l->threads >= kBlock ? l->threads : kBlock / l->threads * l->threads;
        vector_kernel<T><<<spira__blocks(n * l->threads, b), b, 0, st>>>(l->first, l->end,
                                                                         l->threads, a);
    }
    }
}

template <typename T>
spira_status run(spira_context ctx, const suraa_dev *d, double alpha, const void *x,
                 double beta, void *y)
{
    const rows<T> a = {d->h.row_ptr, d->h.col_idx, d->h.perm, (const T *)d->h.val,
                       (const T *)x, (T)alpha, (T)beta, (T *)y};
    cudaStream_t st = (cudaStream_t)spira__cuda_stream(ctx);
    if (d->h.nlaunch == 1) { /* nothing to overlap: stay on the context's stream */
        launch_one(&d->h.launch[0], st, a);
        SPIRA__LAUNCHED(ctx);
        return SPIRA_OK;
    }
    SPIRA__CUDA(ctx, cudaEventRecord(d->fork, st));
    for (int k = 0; k < d->nstreams; k++)
        SPIRA__CUDA(ctx, cudaStreamWaitEvent(d->stream[k], d->fork, 0));
    for (int l = 0; l < d->h.nlaunch; l++) {
        launch_one(&d->h.launch[l], d->stream[l % d->nstreams], a);
        SPIRA__LAUNCHED(ctx);
    }
    for (int k = 0; k < d->nstreams; k++) {
        SPIRA__CUDA(ctx, cudaEventRecord(d->join[k], d->stream[k]));
        SPIRA__CUDA(ctx, cudaStreamWaitEvent(st, d->join[k], 0));
    }
    return SPIRA_OK;
}

/* Streams and events for a multiply of more than one launch; G1's pending child launches
 * (g1_rows of them, 0 without dynamic parallelism) within the device's limit. */
spira_status make_streams(spira_context ctx, suraa_dev *d, int32_t g1_rows)
{
    if (g1_rows > 0) {
        size_t limit = 0;
        SPIRA__CUDA(ctx, cudaDeviceGetLimit(&limit, cudaLimitDevRuntimePendingLaunchCount));
        if (limit < (size_t)g1_rows)
            SPIRA__CUDA(ctx, cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, g1_rows));
    }
    if (d->h.nlaunch <= 1) return SPIRA_OK;
    SPIRA__CUDA(ctx, cudaEventCreateWithFlags(&d->fork, cudaEventDisableTiming));
    const int want = d->h.nlaunch < kStreams ? d->h.nlaunch : kStreams;
    for (; d->nstreams < want; d->nstreams++) {
        const int k = d->nstreams;
        SPIRA__CUDA(ctx, cudaStreamCreateWithFlags(&d->stream[k], cudaStreamNonBlocking));
        if (cudaEventCreateWithFlags(&d->join[k], cudaEventDisableTiming) != cudaSuccess) {
            cudaStreamDestroy(d->stream[k]); /* so that destroy finds pairs only */
            return spira__cuda_status(ctx, cudaGetLastError(), "cudaEventCreateWithFlags",
                                      __FILE__, __LINE__);
        }
    }
    return SPIRA_OK;
}

/* The streams and events; the arrays are the dispatcher's to free. */
void suraa_dev_release(spira_context ctx, void *dev)
{
    (void)ctx;
    suraa_dev *d = (suraa_dev *)dev;
    for (int k = 0; k < d->nstreams; k++) {
        cudaStreamDestroy(d->stream[k]);
        cudaEventDestroy(d->join[k]);
    }
    if (d->fork) cudaEventDestroy(d->fork);
}

/* G1's dynamic-parallelism rows (G1 is a DYNAMIC launch exactly when dynamic=1 and it has
 * rows), refused in a build without it. */
spira_status dynamic_rows(spira_context ctx, const spira__suraa *S, int32_t *children)
{
    *children = S->dynamic ? S->group_rows[0] : 0;
#ifndef SPIRA_DYNAMIC_PARALLELISM
    if (*children > 0)
        return spira__error(ctx, SPIRA_ERR_UNSUPPORTED,
                            "suraa dynamic=1: this build has no dynamic parallelism (configure "
                            "--enable-dynamic-parallelism); see suraa.h for why it is off");
#endif
    return SPIRA_OK;
}

spira_status suraa_dev_upload(spira_context ctx, const void *layout, void *dev)
{
    const spira__suraa *S = (const spira__suraa *)layout;
    suraa_dev *d = (suraa_dev *)dev;
    int32_t children;
    SPIRA__TRY(dynamic_rows(ctx, S, &children)); /* before anything is copied */
    d->h = *S; /* sizes, launches, stats; the arrays are cloned below */
    d->h.row_ptr = d->h.col_idx = d->h.perm = NULL;
    d->h.val = NULL;
    const spira__dev_array arrays[] = {
        {&d->h.row_ptr, S->row_ptr, ((size_t)S->nrows + 1) * sizeof(int32_t),
         "SURAA row pointers"},
        {&d->h.col_idx, S->col_idx, (size_t)S->nnz * sizeof(int32_t), "SURAA column indices"},
        {&d->h.perm, S->perm, (size_t)S->nrows * sizeof(int32_t), "SURAA row permutation"},
        {&d->h.val, S->val, (size_t)S->nnz * spira_dtype_size(S->dtype), "SURAA values"},
    };
    SPIRA__TRY(SPIRA__DEV_CLONE(ctx, dev, arrays));
    return make_streams(ctx, d, children);
}

spira_status suraa_dev_build(spira_context ctx, const spira__csr *A, const spira__csr_dev *dA,
                             const char *opts, void *dev, size_t *bytes)
{
    suraa_dev *d = (suraa_dev *)dev;
    SPIRA__TRY(spira__suraa_dev_build(ctx, A, dA, opts, dev, &d->h));
    int32_t children;
    SPIRA__TRY(dynamic_rows(ctx, &d->h, &children));
    SPIRA__TRY(make_streams(ctx, d, children));
    *bytes = spira__suraa_bytes_of(d->h.nrows, d->h.nnz, d->h.dtype);
    return SPIRA_OK;
}

const char *suraa_dev_stats(const void *dev)
{
    return ((const suraa_dev *)dev)->h.stats;
}

spira_status suraa_dev_apply(spira_context ctx, void *dev, double alpha, const void *x,
                             double beta, void *y)
{
    const suraa_dev *d = (const suraa_dev *)dev;
    if (d->h.nrows == 0) return SPIRA_OK;
    return d->h.dtype == SPIRA_R64 ? run<double>(ctx, d, alpha, x, beta, y)
                                 : run<float>(ctx, d, alpha, x, beta, y);
}

} // namespace

SPIRA__MODULE_ANCHOR(suraa, subwarp_kernel<double, 32>)

extern "C" const spira__format_gpu spira__suraa_gpu = {
    .handle = sizeof(suraa_dev),
    .upload = suraa_dev_upload,
    .build = suraa_dev_build,
    .apply = suraa_dev_apply,
    .release = suraa_dev_release,
    .stats = suraa_dev_stats,
};
