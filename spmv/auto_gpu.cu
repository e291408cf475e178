/*
 * auto_gpu.cu - the counts auto's row statistics are made of, from the device CSR (see
 * auto.h, spira__row_counts_gpu): the longest row and the sum of the squared row lengths
 * in one kernel over the rows (block reductions, then one integer atomic per block: exact,
 * so the same in any order), whether every value is 1 (rows_gpu.cu; known from the upload,
 * or found once and kept for sell's build), and, unless the longest row already rules DIA
 * out, the occupied diagonals with dia's flagging kernel (diagonals_gpu.cuh). auto.c turns
 * the counts into the statistics with the same code as on the host, so both give the same
 * doubles.
 */
#include "auto.h"
#include "csr_gpu.cuh"
#include "diagonals_gpu.cuh"
#include "rows_gpu.cuh"
#include "cuda/check.cuh"
#include "cuda/gateway.h"

#include <cub/cub.cuh>
#include <cuda/functional>

namespace {

constexpr int kBlock = 256;

struct row_counts {
    unsigned long long sum_sq; /* sum of len^2 <= nnz * max_row < 2^62 */
    int max_row;
};

__global__ void __launch_bounds__(kBlock)
    row_counts_kernel(int nrows, const int *__restrict__ rp, row_counts *out)
{
    using reduce_int = cub::BlockReduce<int, kBlock>;
    using reduce_u64 = cub::BlockReduce<unsigned long long, kBlock>;
    __shared__ union {
        typename reduce_int::TempStorage i;
        typename reduce_u64::TempStorage u;
    } tmp;
    int longest = 0;
    unsigned long long sq = 0;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < nrows;
         i += (long long)gridDim.x * blockDim.x) {
        const int len = rp[i + 1] - rp[i];
        longest = max(longest, len);
        sq += (unsigned long long)len * (unsigned long long)len;
    }
    longest = reduce_int(tmp.i).Reduce(longest, cuda::maximum<int>());
    __syncthreads(); /* tmp is reused */
    sq = reduce_u64(tmp.u).Sum(sq);
    if (threadIdx.x == 0) {
        atomicMax(&out->max_row, longest);
        atomicAdd(&out->sum_sq, sq);
    }
}

} // namespace

spira_status spira__row_counts_gpu(spira_context ctx, const spira__csr_dev *dA, int diagonals,
                                   double dia_limit, int32_t *max_row, int64_t *sum_sq,
                                   int32_t *ones, int64_t *ndiag)
{
    cudaStream_t st = (cudaStream_t)spira__cuda_stream(ctx);
    *max_row = 0, *sum_sq = 0, *ones = 0, *ndiag = -1;
    row_counts *dc = NULL;
    SPIRA__TRY(spira__cuda_scratch_malloc(ctx, (void **)&dc, sizeof *dc,
                                          "row statistics scratch"));
    spira_status s = spira__cuda_zero(ctx, dc, sizeof *dc);
    if (s == SPIRA_OK) {
        row_counts_kernel<<<spira__blocks(dA->nrows, kBlock), kBlock, 0, st>>>(dA->nrows,
                                                                                dA->row_ptr, dc);
        s = spira__cuda_status(ctx, cudaGetLastError(), "row_counts_kernel", __FILE__, __LINE__);
    }
    row_counts c = {0, 0};
    if (s == SPIRA_OK) s = spira__cuda_download(ctx, &c, dc, sizeof c); /* waits */
    spira__cuda_scratch_free(ctx, dc);
    if (s != SPIRA_OK) return s;
    *max_row = c.max_row;
    *sum_sq = (int64_t)c.sum_sq;
    SPIRA__TRY(spira__rows_dev_values_one(ctx, dA, ones));
    if (!diagonals || c.max_row > dia_limit) return SPIRA_OK;
    uint8_t *flags = NULL;
    const size_t span = (size_t)dA->nrows + (size_t)dA->ncols - 1;
    SPIRA__TRY(spira__cuda_scratch_malloc(ctx, (void **)&flags, span, "auto: diagonal flags"));
    s = spira__diagonals_flag(ctx, dA, flags, ndiag);
    spira__cuda_scratch_free(ctx, flags);
    return s;
}

SPIRA__MODULE_ANCHOR(auto, row_counts_kernel)
