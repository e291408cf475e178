/*
 * diagonals_gpu.cu - flagging the occupied diagonals of a device CSR and counting them (see
 * diagonals_gpu.cuh): one kernel over the nonzeros, then a CUB reduce over the flags.
 *
 * The kernel gives every thread kItems consecutive nonzeros and finds the row of the first
 * by a binary search in row_ptr (the merge-path idea of Merrill & Garland 2016, on one
 * axis), so a row of 10^5 entries costs what 10^5 entries in short rows cost: auto's
 * statistics run this on every matrix, power-law graphs included, where a thread a row
 * would wait on the longest. A flag is read before it is written: on a stencil every
 * thread hits the same few diagonals, and the read (from L1) spares the L2 the millions of
 * stores to one byte. Threads that race on a flag all store 1.
 */
#include "diagonals_gpu.cuh"
#include "rows_gpu.cuh"
#include "cuda/check.cuh"
#include "cuda/gateway.h"

#include <cub/cub.cuh>
#include <cuda/std/functional>

namespace {

constexpr int kBlock = 256;
constexpr int kItems = 4; /* nonzeros a thread: one search for 4 entries */

__global__ void __launch_bounds__(kBlock)
    flag_kernel(int nrows, int nnz, const int *__restrict__ rp, const int *__restrict__ ci,
                uint8_t *flags)
{
    const long long stride = (long long)gridDim.x * blockDim.x * kItems;
    for (long long k0 = ((long long)blockIdx.x * blockDim.x + threadIdx.x) * kItems; k0 < nnz;
         k0 += stride) {
        int i = spira__row_of(rp, nrows, k0), next = rp[i + 1];
        const int end = k0 + kItems < nnz ? (int)k0 + kItems : nnz;
        for (int k = (int)k0; k < end; k++) {
            while (k >= next) next = rp[++i + 1]; /* k < nnz = rp[nrows]: i stays < nrows */
            const long long at = (long long)ci[k] - i + (nrows - 1);
            if (!flags[at]) flags[at] = 1;
        }
    }
}

} // namespace

spira_status spira__diagonals_flag(spira_context ctx, const spira__csr_dev *dA, uint8_t *flags,
                                   int64_t *ndiag)
{
    *ndiag = 0;
    cudaStream_t st = (cudaStream_t)spira__cuda_stream(ctx);
    const long long span = (long long)dA->nrows + dA->ncols - 1;
    /* the count in the first 8 bytes of one scratch block, CUB's storage after them */
    const auto plus = cuda::std::plus<long long>();
    size_t temp = 0;
    SPIRA__CUDA(ctx, cub::DeviceReduce::Reduce(nullptr, temp, flags, (long long *)nullptr, span,
                                               plus, 0LL, st));
    void *scratch = NULL;
    const size_t head = 256; /* keeps CUB's storage aligned */
    SPIRA__TRY(spira__cuda_scratch_malloc(ctx, &scratch, head + temp, "diagonal count scratch"));
    long long *dcount = (long long *)scratch, n = 0;
    spira_status s = spira__cuda_zero(ctx, flags, (size_t)span);
    if (s == SPIRA_OK) {
        const long long threads = ((long long)dA->nnz + kItems - 1) / kItems;
        flag_kernel<<<spira__blocks(threads, kBlock), kBlock, 0, st>>>(
            dA->nrows, dA->nnz, dA->row_ptr, dA->col_idx, flags);
        s = spira__cuda_status(ctx, cudaGetLastError(), "flag_kernel", __FILE__, __LINE__);
    }
    if (s == SPIRA_OK)
        s = spira__cuda_status(ctx,
                               cub::DeviceReduce::Reduce((char *)scratch + head, temp, flags,
                                                         dcount, span, plus, 0LL, st),
                               "cub::DeviceReduce::Reduce", __FILE__, __LINE__);
    if (s == SPIRA_OK) s = spira__cuda_download(ctx, &n, dcount, sizeof n); /* waits */
    spira__cuda_scratch_free(ctx, scratch); /* in stream order: after what reads it */
    *ndiag = n;
    return s;
}

SPIRA__MODULE_ANCHOR(diagonals, flag_kernel)
