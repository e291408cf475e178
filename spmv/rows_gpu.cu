/*
 * rows_gpu.cu - the row structure of a device CSR with CUB (see rows_gpu.cuh): the longest
 * row, the row-length histogram, the offsets of the entries beyond a row's first `skip`,
 * and the expansion of row offsets into one row index per entry.
 *
 * Row lengths are never stored: CUB reads them through an iterator that differences
 * row_ptr. The expansion gives each thread a run of kItems consecutive entries and finds
 * the row of the first by a binary search in the offsets (spira__row_of), so that its cost
 * does not depend on how the entries spread over rows (a thread or warp per row would leave
 * one thread walking a dense row of millions): one kernel that writes each entry's row
 * once, where a mark in a zeroed array and a max-scan over it would write and read the
 * array three times in three launches, with CUB's scratch.
 *
 * Each call makes one allocation (the call's own scratch ahead of CUB's temporary storage),
 * stream-ordered (spira__cuda_scratch_malloc), freed by `scratch`'s destructor on every path
 * without waiting for the device: a call that returns no host value enqueues its work and
 * returns.
 */
#include "rows_gpu.cuh"
#include "cuda/check.cuh"
#include "cuda/gateway.h"

#include <cub/device/device_histogram.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

namespace {

constexpr int kBlock = 256;
constexpr size_t kAlign = 256; /* CUB's temporary storage starts this aligned */

/* Device memory of this call, freed in stream order when the call returns, whichever way. */
struct scratch {
    spira_context ctx;
    void *p = nullptr;
    explicit scratch(spira_context c) : ctx(c) {}
    ~scratch() { spira__cuda_scratch_free(ctx, p); }
    scratch(const scratch &) = delete;
    scratch &operator=(const scratch &) = delete;
};

size_t aligned(size_t bytes) { return (bytes + kAlign - 1) / kAlign * kAlign; }

/* max(len(i) - skip, 0) for i < nrows, 0 for i == nrows (the total's slot of a scan) */
struct tail_len {
    const int *rp;
    int nrows, skip;
    __host__ __device__ int operator()(int i) const
    {
        if (i >= nrows) return 0;
        const int l = rp[i + 1] - rp[i] - skip;
        return l > 0 ? l : 0;
    }
};

thrust::transform_iterator<tail_len, thrust::counting_iterator<int>>
lengths(const spira__csr_dev *dA, int skip)
{
    return thrust::make_transform_iterator(thrust::make_counting_iterator(0),
                                           tail_len{dA->row_ptr, dA->nrows, skip});
}

cudaStream_t stream_of(spira_context ctx) { return (cudaStream_t)spira__cuda_stream(ctx); }

constexpr int kItems = 4; /* entries a thread in the expansion: one row search for 4 */

__global__ void __launch_bounds__(kBlock)
    expand_kernel(int nrows, const int *__restrict__ off, int n, int *__restrict__ row)
{
    const long long stride = (long long)gridDim.x * blockDim.x * kItems;
    for (long long q0 = ((long long)blockIdx.x * blockDim.x + threadIdx.x) * kItems; q0 < n;
         q0 += stride) {
        int i = spira__row_of(off, nrows, q0), next = off[i + 1];
        const int end = q0 + kItems < n ? (int)q0 + kItems : n;
        for (int q = (int)q0; q < end; q++) {
            while (q >= next) next = off[++i + 1]; /* q < n = off[nrows]: i stays < nrows */
            row[q] = i;
        }
    }
}

/* *flag = 1 if a value of v[0, n) is not exactly 1 (NaN included), else left as it is. */
template <typename T>
__global__ void __launch_bounds__(kBlock)
    not_one_kernel(long long n, const T *__restrict__ v, int *__restrict__ flag)
{
    const long long stride = (long long)gridDim.x * blockDim.x;
    bool other = false;
    for (long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x; k < n; k += stride)
        other |= !(__ldcs(&v[k]) == T(1));
    if (__syncthreads_or(other) && threadIdx.x == 0) *flag = 1;
}

} // namespace

spira_status spira__rows_dev_values_one(spira_context ctx, const spira__csr_dev *dA,
                                        int32_t *ones)
{
    *ones = 0;
    if (dA->nnz == 0) return SPIRA_OK;
    /* known from the upload or an earlier call (a plan may be built on a worker thread
     * beside another: an atomic int8) */
    const int8_t known = __atomic_load_n(&dA->values_one, __ATOMIC_RELAXED);
    if (known) {
        *ones = known > 0;
        return SPIRA_OK;
    }
    cudaStream_t st = stream_of(ctx);
    scratch s(ctx);
    SPIRA__TRY(spira__cuda_scratch_malloc(ctx, &s.p, sizeof(int), "values' check (scratch)"));
    SPIRA__CUDA(ctx, cudaMemsetAsync(s.p, 0, sizeof(int), st));
    const unsigned blocks = spira__stride_blocks(dA->nnz, kBlock);
    if (dA->dtype == SPIRA_R64)
        not_one_kernel<double><<<blocks, kBlock, 0, st>>>(dA->nnz, (const double *)dA->val,
                                                         (int *)s.p);
    else
        not_one_kernel<float><<<blocks, kBlock, 0, st>>>(dA->nnz, (const float *)dA->val,
                                                        (int *)s.p);
    SPIRA__LAUNCHED(ctx);
    int other = 1;
    SPIRA__TRY(spira__cuda_download(ctx, &other, s.p, sizeof other));
    *ones = !other;
    /* the device CSR is const to its readers; this cache is its one field they set */
    __atomic_store_n(&((spira__csr_dev *)dA)->values_one, (int8_t)(other ? -1 : 1),
                     __ATOMIC_RELAXED);
    return SPIRA_OK;
}

spira_status spira__rows_dev_max(spira_context ctx, const spira__csr_dev *dA, int32_t *K)
{
    *K = 0;
    if (dA->nrows == 0) return SPIRA_OK;
    cudaStream_t st = stream_of(ctx);
    size_t tb = 0;
    SPIRA__CUDA(ctx, cub::DeviceReduce::Max(nullptr, tb, lengths(dA, 0), (int *)nullptr,
                                            dA->nrows, st));
    scratch s(ctx);
    SPIRA__TRY(spira__cuda_scratch_malloc(ctx, &s.p, kAlign + tb, "longest row (CUB scratch)"));
    int *out = (int *)s.p;
    SPIRA__CUDA(ctx, cub::DeviceReduce::Max((char *)s.p + kAlign, tb, lengths(dA, 0), out,
                                            dA->nrows, st));
    return spira__cuda_download(ctx, K, out, sizeof *K);
}

spira_status spira__rows_dev_hist(spira_context ctx, const spira__csr_dev *dA, int32_t cap,
                                  int32_t *hist)
{
    if (cap <= 0) return SPIRA_OK;
    if (dA->nrows == 0) {
        for (int32_t k = 0; k < cap; k++) hist[k] = 0;
        return SPIRA_OK;
    }
    cudaStream_t st = stream_of(ctx);
    /* bins of width 1 over [0, cap): bin k counts length k; longer rows fall outside */
    const size_t hb = aligned((size_t)cap * sizeof(int32_t));
    size_t tb = 0;
    SPIRA__CUDA(ctx, cub::DeviceHistogram::HistogramEven(nullptr, tb, lengths(dA, 0),
                                                         (int *)nullptr, cap + 1, 0, cap,
                                                         dA->nrows, st));
    scratch s(ctx);
    SPIRA__TRY(spira__cuda_scratch_malloc(ctx, &s.p, hb + tb,
                                          "row-length histogram (CUB scratch)"));
    int *dh = (int *)s.p;
    SPIRA__CUDA(ctx, cub::DeviceHistogram::HistogramEven((char *)s.p + hb, tb, lengths(dA, 0),
                                                         dh, cap + 1, 0, cap, dA->nrows, st));
    return spira__cuda_download(ctx, hist, dh, (size_t)cap * sizeof(int32_t));
}

spira_status spira__rows_dev_tail_offsets(spira_context ctx, const spira__csr_dev *dA,
                                          int32_t skip, int32_t *doff, int32_t *total)
{
    *total = 0;
    cudaStream_t st = stream_of(ctx);
    /* nrows + 1 items: the last one is 0, so that doff[nrows] is the total */
    const int n = dA->nrows + 1;
    size_t tb = 0;
    SPIRA__CUDA(ctx, cub::DeviceScan::ExclusiveSum(nullptr, tb, lengths(dA, skip), doff, n, st));
    scratch s(ctx);
    SPIRA__TRY(spira__cuda_scratch_malloc(ctx, &s.p, tb, "row offsets (CUB scratch)"));
    SPIRA__CUDA(ctx, cub::DeviceScan::ExclusiveSum(s.p, tb, lengths(dA, skip), doff, n, st));
    return spira__cuda_download(ctx, total, doff + dA->nrows, sizeof *total);
}

spira_status spira__rows_dev_expand(spira_context ctx, int32_t nrows, const int32_t *doff,
                                    int32_t n, int32_t *drow)
{
    if (n == 0 || nrows == 0) return SPIRA_OK;
    const long long runs = ((long long)n + kItems - 1) / kItems;
    expand_kernel<<<spira__blocks(runs, kBlock), kBlock, 0, stream_of(ctx)>>>(nrows, doff, n,
                                                                              drow);
    SPIRA__LAUNCHED(ctx);
    return SPIRA_OK;
}

SPIRA__MODULE_ANCHOR(rows, expand_kernel)
