/*
 * csr_vector_gpu.cu - the CSR vector kernel of Bell & Garland (2008) with CUSP's sub-warp
 * vectors: V threads (a "vector", V in 2..32 from the mean row length, csr_vector.c) share
 * a row (csr_row.cuh), and vectors take rows statically, grid-stride. Uses the CSR
 * family's device copy (csr_gpu.cu).
 */
#include "csr_gpu.cuh"
#include "csr_row.cuh"
#include "csr_vector.h"
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
    const unsigned lane = threadIdx.x & (V - 1);
    const unsigned mask = spira__vector_mask<V>();
    const unsigned nvec = gridDim.x * (blockDim.x / V);
    for (unsigned row = (blockIdx.x * blockDim.x + threadIdx.x) / V; row < (unsigned)nrows;
         row += nvec) {
        T sum = spira__csr_row_dot<T, V>(__ldg(&rp[row]), __ldg(&rp[row + 1]), lane, mask, ci,
                                         v, x);
        if (lane == 0) spira__csr_row_store(y, (int)row, sum, alpha, beta);
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

static spira_status csr_vector_dev_apply(spira_context ctx, void *dev, double alpha,
                                         const void *x, double beta, void *y)
{
    const spira__csr_dev *d = (const spira__csr_dev *)dev;
    if (d->nrows == 0) return SPIRA_OK;
    return d->dtype == SPIRA_R64 ? vector_dispatch<double>(ctx, d, alpha, x, beta, y)
                                 : vector_dispatch<float>(ctx, d, alpha, x, beta, y);
}

extern "C" const spira__format_gpu spira__csr_vector_gpu = {
    .handle = sizeof(spira__csr_dev),
    .upload = spira__csr_family_dev_upload,
    .shares_csr = 1,
    .apply = csr_vector_dev_apply,
};

SPIRA__MODULE_ANCHOR(csr_vector, csr_vector_kernel<double, 32>)
