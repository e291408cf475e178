/*
 * csr_vector_gpu.cu - the CSR vector kernel of Bell & Garland (2008) with CUSP's sub-warp
 * vectors: V threads (a "vector", V in 2..32 from the mean row length, csr_vector.c) share
 * a row; lane l of the vector reads entries start+l, start+l+V, ... so the vector's loads
 * of col_idx/val are contiguous, then the V partial sums are reduced with __shfl_down_sync
 * over the vector's own lanes. For V = 32 the first pass starts at the 32-aligned entry
 * before the row (lanes before the row's start idle), so later passes are aligned
 * segments. Uses the CSR family's device copy (csr_gpu.cu).
 */
#include "csr_gpu.cuh"
#include "csr_vector.h"
#include "spmv_gpu.h"
#include "cuda/check.cuh"
#include "cuda/gateway.h"

namespace {

constexpr int kVecBlock = 256;

template <typename T, int V>
__global__ void __launch_bounds__(kVecBlock, 8)
    csr_vector_kernel(int nrows, const int *__restrict__ rp, const int *__restrict__ ci,
                      const T *__restrict__ v, const T *__restrict__ x, T alpha, T beta,
                      T *__restrict__ y)
{
    static_assert(V >= 2 && V <= 32 && (V & (V - 1)) == 0, "V is a power of two <= 32");
    const unsigned lane = threadIdx.x & (V - 1); /* lane within the vector */
    /* the vector's lanes within the warp: the shuffles below name only them, since other
     * vectors of the warp may already have left the row loop */
    const unsigned mask = (0xffffffffu >> (32 - V)) << ((threadIdx.x & 31) & ~(V - 1));
    const unsigned nvec = gridDim.x * (blockDim.x / V);
    for (unsigned row = (blockIdx.x * blockDim.x + threadIdx.x) / V; row < (unsigned)nrows;
         row += nvec) {
        const int start = __ldg(&rp[row]), end = __ldg(&rp[row + 1]);
        T sum = 0;
        if (V == 32 && end - start > 32) {
            int j = start - (start & (V - 1)) + (int)lane;
            if (j >= start) sum += v[j] * __ldg(&x[ci[j]]);
            for (j += V; j < end; j += V) sum += v[j] * __ldg(&x[ci[j]]);
        } else {
            for (int j = start + (int)lane; j < end; j += V) sum += v[j] * __ldg(&x[ci[j]]);
        }
#pragma unroll
        for (int off = V / 2; off > 0; off >>= 1) sum += __shfl_down_sync(mask, sum, off, V);
        if (lane == 0) y[row] = beta == T(0) ? alpha * sum : alpha * sum + beta * y[row];
    }
}

template <typename T, int V>
spira_status vector_launch(spira_context ctx, const spira__csr_dev *d, double alpha,
                           const void *x, double beta, void *y)
{
    cudaStream_t st = (cudaStream_t)spira__cuda_stream(ctx);
    csr_vector_kernel<T, V><<<spira__blocks((long long)d->nrows * V, kVecBlock), kVecBlock, 0, st>>>(
        d->nrows, d->row_ptr, d->col_idx, (const T *)d->val, (const T *)x, (T)alpha, (T)beta,
        (T *)y);
    SPIRA__LAUNCHED(ctx);
    return SPIRA_OK;
}

template <typename T>
spira_status vector_dispatch(spira_context ctx, const spira__csr_dev *d, double alpha,
                             const void *x, double beta, void *y)
{
    switch (spira__csr_vector_lanes(d->mean_row)) {
    case 2: return vector_launch<T, 2>(ctx, d, alpha, x, beta, y);
    case 4: return vector_launch<T, 4>(ctx, d, alpha, x, beta, y);
    case 8: return vector_launch<T, 8>(ctx, d, alpha, x, beta, y);
    case 16: return vector_launch<T, 16>(ctx, d, alpha, x, beta, y);
    default: return vector_launch<T, 32>(ctx, d, alpha, x, beta, y);
    }
}

} // namespace

extern "C" spira_status spira__csr_vector_apply(spira_context ctx, void *dev, double alpha,
                                                const void *x, double beta, void *y)
{
    const spira__csr_dev *d = (const spira__csr_dev *)dev;
    if (d->nrows == 0) return SPIRA_OK;
    return d->dtype == SPIRA_R64 ? vector_dispatch<double>(ctx, d, alpha, x, beta, y)
                                 : vector_dispatch<float>(ctx, d, alpha, x, beta, y);
}
