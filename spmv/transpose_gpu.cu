/*
 * transpose_gpu.cu - a device CSR's transpose made on the GPU, row i of A scaled by
 * row_scale[i] on the way (PageRank's P^T = (D^-1 G)^T), for spmv/transpose.c.
 *
 * The entries are put in order by column with sort_gpu.cuh's stable radix sort, starting
 * from A's order (by row, then as stored), so that each row of A^T lists A's rows in
 * increasing order: the order the host's counting sort makes (lib/csr.c), and with the
 * scaled value computed by the same expression, the same arrays bit for bit. Then A^T's
 * row pointers from where each column's run starts in the sorted order, and a gather
 * through the entries' rows (rows_gpu.cuh's expansion: a binary search an entry instead
 * took 1.3 ms on R-MAT 2^20's 1.6 * 10^7 entries, H100).
 */
#include "spmv.h"
#include "rows_gpu.cuh"
#include "sort_gpu.cuh"

namespace {

constexpr int kBlock = 256;

/* A's column of entry k: the sort's key */
struct column_of {
    const int32_t *col_idx;
    __device__ unsigned operator()(int k) const { return (unsigned)col_idx[k]; }
};

/* row_ptr of A^T (ncols + 1 pointers): entry p of the sorted order starts the rows
 * (column of p - 1, column of p], the last one ends the rest. */
__global__ void __launch_bounds__(kBlock)
    starts_kernel(int nnz, int ncols, const int32_t *__restrict__ perm,
                  const int32_t *__restrict__ col_idx, int32_t *__restrict__ row_ptr)
{
    const unsigned stride = gridDim.x * blockDim.x;
    for (unsigned p = blockIdx.x * blockDim.x + threadIdx.x; p <= (unsigned)nnz; p += stride) {
        const int lo = p == 0 ? -1 : col_idx[perm[p - 1]];
        const int hi = p == (unsigned)nnz ? ncols : col_idx[perm[p]];
        for (int c = lo + 1; c <= hi; c++) row_ptr[c] = (int32_t)p;
    }
}

/* A^T's entry p = A's entry perm[p]: its row (row[k]) as the column, its value times the
 * row's scale (in double, rounded once to T, as the host's transpose does). */
template <typename T>
__global__ void __launch_bounds__(kBlock)
    gather_kernel(int nnz, const int32_t *__restrict__ perm, const int32_t *__restrict__ row,
                  const T *__restrict__ val, const double *__restrict__ scale,
                  int32_t *__restrict__ t_col, T *__restrict__ t_val)
{
    const unsigned stride = gridDim.x * blockDim.x;
    for (unsigned p = blockIdx.x * blockDim.x + threadIdx.x; p < (unsigned)nnz; p += stride) {
        const int k = perm[p], i = row[k];
        t_col[p] = i;
        t_val[p] = scale ? (T)((double)val[k] * scale[i]) : val[k];
    }
}

} // namespace

extern "C" spira_status spira__csr_dev_transpose_scaled(spira_context ctx, const spira__csr_dev *A,
                                                        const double *row_scale,
                                                        spira__csr_dev *AT)
{
    cudaStream_t st = (cudaStream_t)spira__cuda_stream(ctx);
    if (A->nnz == 0)
        return spira__cuda_zero(ctx, AT->row_ptr, ((size_t)A->ncols + 1) * sizeof(int32_t));
    int32_t *perm = NULL, *row = NULL; /* the entries' sorted order; each entry's row */
    const size_t b = (size_t)A->nnz * sizeof(int32_t);
    SPIRA__TRY(spira__cuda_scratch_malloc(ctx, (void **)&perm, b, "transpose: entries' order"));
    spira_status s = spira__cuda_scratch_malloc(ctx, (void **)&row, b, "transpose: entries' rows");
    const int bits = spira__bits_for((unsigned long long)(A->ncols - 1));
    if (s == SPIRA_OK)
        s = spira__sort_rows(ctx, A->nnz, bits, column_of{A->col_idx}, perm,
                             "transpose: the sort by column");
    if (s == SPIRA_OK) s = spira__rows_dev_expand(ctx, A->nrows, A->row_ptr, A->nnz, row);
    if (s == SPIRA_OK) {
        starts_kernel<<<spira__blocks((long long)A->nnz + 1, kBlock), kBlock, 0, st>>>(
            A->nnz, A->ncols, perm, A->col_idx, AT->row_ptr);
        s = spira__cuda_status(ctx, cudaGetLastError(), "starts_kernel", __FILE__, __LINE__);
    }
    if (s == SPIRA_OK) {
        const unsigned g = spira__blocks(A->nnz, kBlock);
        if (A->dtype == SPIRA_R64)
            gather_kernel<<<g, kBlock, 0, st>>>(A->nnz, perm, row, (const double *)A->val,
                                                row_scale, AT->col_idx, (double *)AT->val);
        else
            gather_kernel<<<g, kBlock, 0, st>>>(A->nnz, perm, row, (const float *)A->val,
                                                row_scale, AT->col_idx, (float *)AT->val);
        s = spira__cuda_status(ctx, cudaGetLastError(), "gather_kernel", __FILE__, __LINE__);
    }
    spira__cuda_scratch_free(ctx, row);
    spira__cuda_scratch_free(ctx, perm); /* in stream order: after the gather */
    return s;
}

SPIRA__MODULE_ANCHOR(transpose, starts_kernel)
SPIRA__MODULE_SORT_WARM(transpose, column_of, (const void *)starts_kernel,
                        (const void *)gather_kernel<double>, (const void *)gather_kernel<float>)
