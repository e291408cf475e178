/*
 * csr_gpu.cu - the device CSR copy shared by the CSR family, and the csr-scalar kernel
 * of Bell & Garland (2008): one thread per row. Coalescing is poor for long rows
 * (neighbouring threads read far-apart entries), fine for very short ones.
 */
#include "csr_gpu.cuh"
#include "cuda/check.cuh"
#include "cuda/gateway.h"

spira_status spira__csr_dev_fill(spira_context ctx, void *dev, const spira__csr *A,
                                 spira__csr_dev *d)
{
    const spira__csr_dev *shared = spira__dev_shared_csr(dev, A);
    if (shared) { /* the matrix's own device copy: its arrays outlive this handle */
        *d = *shared;
        return SPIRA_OK;
    }
    d->nrows = A->nrows;
    d->ncols = A->ncols;
    d->nnz = A->nnz;
    d->dtype = A->dtype;
    d->mean_row = A->nrows ? (double)A->nnz / A->nrows : 0;
    const spira__dev_array arrays[] = {
        {&d->row_ptr, A->row_ptr, ((size_t)A->nrows + 1) * sizeof(int32_t), "CSR row pointers"},
        {&d->col_idx, A->col_idx, (size_t)A->nnz * sizeof(int32_t), "CSR column indices"},
        {&d->val, A->val, (size_t)A->nnz * spira_dtype_size(A->dtype), "CSR values"},
    };
    return SPIRA__DEV_CLONE(ctx, dev, arrays);
}

spira_status spira__csr_family_dev_upload(spira_context ctx, const void *layout, void *dev)
{
    return spira__csr_dev_fill(ctx, dev, (const spira__csr *)layout, (spira__csr_dev *)dev);
}

template <typename T>
__global__ void csr_scalar_kernel(int nrows, const int *__restrict__ rp, const int *__restrict__ ci,
                                  const T *__restrict__ v, const T *__restrict__ x, T alpha, T beta,
                                  T *__restrict__ y)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < nrows; i += gridDim.x * blockDim.x) {
        T sum = 0;
        for (int k = rp[i]; k < rp[i + 1]; k++) sum += v[k] * __ldg(&x[ci[k]]);
        y[i] = beta == T(0) ? alpha * sum : alpha * sum + beta * y[i];
    }
}

static spira_status csr_scalar_dev_apply(spira_context ctx, void *dev, double alpha,
                                         const void *x, double beta, void *y)
{
    spira__csr_dev *d = (spira__csr_dev *)dev;
    if (d->nrows == 0) return SPIRA_OK;
    cudaStream_t st = (cudaStream_t)spira__cuda_stream(ctx);
    unsigned g = spira__blocks(d->nrows, 128);
    if (d->dtype == SPIRA_R64)
        csr_scalar_kernel<<<g, 128, 0, st>>>(d->nrows, d->row_ptr, d->col_idx,
                                             (const double *)d->val, (const double *)x, alpha,
                                             beta, (double *)y);
    else
        csr_scalar_kernel<<<g, 128, 0, st>>>(d->nrows, d->row_ptr, d->col_idx,
                                             (const float *)d->val, (const float *)x,
                                             (float)alpha, (float)beta, (float *)y);
    SPIRA__LAUNCHED(ctx);
    return SPIRA_OK;
}

extern "C" const spira__format_gpu spira__csr_scalar_gpu = {
    .handle = sizeof(spira__csr_dev),
    .upload = spira__csr_family_dev_upload,
    .shares_csr = 1,
    .apply = csr_scalar_dev_apply,
};

SPIRA__MODULE_ANCHOR(csr, csr_scalar_kernel<double>)
