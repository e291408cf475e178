/*
 * diagonal_gpu.cu - 1 / A(i,i) for every row, from A's device CSR (Jacobi's and Neumann's
 * D^-1, precond/common.c): a thread a row searches its sorted columns for the diagonal.
 * Each value is the host's bit for bit (the reciprocal in double, rounded once to the
 * vector's type), and the first row whose diagonal is zero, missing or not finite comes
 * back for common.c to name, as the host's loop does.
 */
#include "cuda/gateway.h"
#include "cuda/check.cuh"

namespace {

constexpr int kBlock = 256;

template <typename T>
__global__ void __launch_bounds__(kBlock)
    inverse_diagonal_kernel(int nrows, const int *__restrict__ rp, const int *__restrict__ ci,
                            const T *__restrict__ v, T *__restrict__ d, int *bad)
{
    for (long long i = (long long)blockIdx.x * kBlock + threadIdx.x; i < nrows;
         i += (long long)gridDim.x * kBlock) {
        int lo = rp[i], hi = rp[i + 1];
        const int end = hi;
        while (lo < hi) {
            const int mid = lo + (hi - lo) / 2;
            if (ci[mid] < i) lo = mid + 1;
            else hi = mid;
        }
        const double a = lo < end && ci[lo] == i ? (double)v[lo] : 0.0;
        d[i] = (T)(1.0 / a);
        if (a == 0 || !isfinite(a)) atomicMin(bad, (int)i);
    }
}

} // namespace

extern "C" spira_status spira__cuda_inverse_diagonal(spira_context ctx, const spira__csr_dev *dA,
                                                     void *dd, int32_t *bad_row)
{
    cudaStream_t st = (cudaStream_t)spira__cuda_stream(ctx);
    auto launch = [&](int *bad) {
        const unsigned g = spira__blocks(dA->nrows, kBlock);
        if (dA->dtype == SPIRA_R64)
            inverse_diagonal_kernel<<<g, kBlock, 0, st>>>(dA->nrows, dA->row_ptr, dA->col_idx,
                                                          (const double *)dA->val, (double *)dd,
                                                          bad);
        else
            inverse_diagonal_kernel<<<g, kBlock, 0, st>>>(dA->nrows, dA->row_ptr, dA->col_idx,
                                                          (const float *)dA->val, (float *)dd,
                                                          bad);
        return spira__cuda_status(ctx, cudaGetLastError(), "inverse_diagonal_kernel", __FILE__,
                                  __LINE__);
    };
    return spira__cuda_first_bad_row(ctx, dA->nrows, "diagonal check", launch, bad_row);
}
