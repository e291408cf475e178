/*
 * csr_gpu.cu - the device CSR copy (upload/destroy) shared by the CSR family, and the
 * csr-scalar kernel of Bell & Garland (2008): one thread per row. Coalescing is poor for
 * long rows (neighbouring threads read far-apart entries), fine for very short ones.
 */
#include "csr_gpu.cuh"
#include "spmv_gpu.h"
#include "cuda/check.cuh"
#include "cuda/gateway.h"

extern "C" spira_status spira__csr_dev_upload(spira_context ctx, const void *layout, void **dev)
{
    const spira__csr *A = (const spira__csr *)layout;
    *dev = NULL;
    spira__csr_dev *d = (spira__csr_dev *)spira__calloc(1, sizeof *d);
    if (!d) return spira__nomem(ctx, "device CSR handle", sizeof *d);
    d->nrows = A->nrows;
    d->ncols = A->ncols;
    d->nnz = A->nnz;
    d->dtype = A->dtype;
    d->mean_row = A->nrows ? (double)A->nnz / A->nrows : 0;
    size_t rp = ((size_t)A->nrows + 1) * sizeof(int32_t), ci = (size_t)A->nnz * sizeof(int32_t);
    size_t vb = (size_t)A->nnz * spira_dtype_size(A->dtype);
    spira_status s = spira__cuda_clone(ctx, (void **)&d->row_ptr, A->row_ptr,
                                       rp, "CSR row pointers");
    if (s == SPIRA_OK) s = spira__cuda_clone(ctx, (void **)&d->col_idx, A->col_idx,
                                             ci, "CSR column indices");
    if (s == SPIRA_OK) s = spira__cuda_clone(ctx, &d->val, A->val, vb, "CSR values");
    if (s != SPIRA_OK) {
        spira__csr_dev_destroy(ctx, d);
        return s;
    }
    *dev = d;
    return SPIRA_OK;
}

extern "C" void spira__csr_dev_destroy(spira_context ctx, void *dev)
{
    spira__csr_dev *d = (spira__csr_dev *)dev;
    if (!d) return;
    spira__cuda_free(ctx, d->row_ptr);
    spira__cuda_free(ctx, d->col_idx);
    spira__cuda_free(ctx, d->val);
    spira__free(d);
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

extern "C" spira_status spira__csr_scalar_apply(spira_context ctx, void *dev, double alpha,
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
