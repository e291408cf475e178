/*
 * ell_gpu.cu - the ELL kernel of Bell & Garland (2008): one thread per row; in step k the
 * threads of a warp read cols/vals at k*pitch + i for consecutive i, so every matrix load
 * is coalesced; x is gathered through the read-only cache. A row stops at its first
 * padding slot (column -1), so short rows do not read padding beyond it or touch x.
 * Also the device upload of an ELL layout and its conversion on the GPU from the device CSR,
 * both used by ell and by hyb's ELL part.
 */
#include "ell_gpu.cuh"
#include "padding.h"
#include "rows_gpu.cuh"
#include "cuda/check.cuh"
#include "cuda/gateway.h"

namespace {

constexpr int kEllBlock = 256;

template <typename T>
__global__ void __launch_bounds__(kEllBlock)
    ell_kernel(int nrows, int K, int pitch, const int *__restrict__ cols,
               const T *__restrict__ vals, const T *__restrict__ x, T alpha, T beta,
               T *__restrict__ y)
{
    const unsigned stride = gridDim.x * blockDim.x;
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < (unsigned)nrows; i += stride) {
        T sum = 0;
        /* k*pitch + i < K*pitch <= INT32_MAX (checked at conversion); unsigned because the
         * step after the last column may pass INT32_MAX */
        unsigned at = i;
        for (int k = 0; k < K; k++, at += (unsigned)pitch) {
            const int c = __ldcs(&cols[at]); /* read once: evict first, keep x cached */
            const T v = __ldcs(&vals[at]);   /* issued with the column load: padding holds 0 */
            if (c < 0) break;                /* padding only at a row's end */
            sum += v * __ldg(&x[c]);
        }
        y[i] = beta == T(0) ? alpha * sum : alpha * sum + beta * y[i];
    }
}

/* The conversion: thread i writes slot k*pitch + i of every column k < K, the row's k-th
 * entry or padding (column -1, value 0), rows nrows..pitch-1 padding only: every slot is
 * written once, and a warp's writes are consecutive, as the multiply's reads are. Its
 * reads of the CSR are a thread per row's, as csr-scalar's. */
template <typename T>
__global__ void __launch_bounds__(kEllBlock)
    ell_fill_kernel(int nrows, int K, int pitch, const int *__restrict__ rp,
                    const int *__restrict__ ci, const T *__restrict__ v, int *__restrict__ cols,
                    T *__restrict__ vals)
{
    const unsigned stride = gridDim.x * blockDim.x;
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < (unsigned)pitch; i += stride) {
        int b = 0, len = 0;
        if (i < (unsigned)nrows) {
            b = rp[i];
            len = min(rp[i + 1] - b, K);
        }
        unsigned at = i; /* as in ell_kernel: K*pitch <= INT32_MAX */
        for (int k = 0; k < K; k++, at += (unsigned)pitch) {
            const bool entry = k < len;
            cols[at] = entry ? ci[b + k] : -1;
            vals[at] = entry ? v[b + k] : T(0);
        }
    }
}

template <typename T>
spira_status ell_fill(spira_context ctx, const spira__csr_dev *dA, spira__ell_dev *d)
{
    cudaStream_t st = (cudaStream_t)spira__cuda_stream(ctx);
    ell_fill_kernel<T><<<spira__blocks(d->pitch, kEllBlock), kEllBlock, 0, st>>>(
        d->nrows, d->K, d->pitch, dA->row_ptr, dA->col_idx, (const T *)dA->val, d->cols,
        (T *)d->vals);
    SPIRA__LAUNCHED(ctx);
    return SPIRA_OK;
}

template <typename T>
spira_status ell_launch(spira_context ctx, const spira__ell_dev *d, double alpha, const void *x,
                        double beta, void *y)
{
    cudaStream_t st = (cudaStream_t)spira__cuda_stream(ctx);
    ell_kernel<T><<<spira__blocks(d->nrows, kEllBlock), kEllBlock, 0, st>>>(
        d->nrows, d->K, d->pitch, d->cols, (const T *)d->vals, (const T *)x, (T)alpha, (T)beta,
        (T *)y);
    SPIRA__LAUNCHED(ctx);
    return SPIRA_OK;
}

} // namespace

spira_status spira__ell_dev_fill(spira_context ctx, void *dev, const spira__ell *h,
                                 spira__ell_dev *d)
{
    d->nrows = h->nrows;
    d->K = h->K;
    d->pitch = h->pitch;
    d->dtype = h->dtype;
    const size_t slots = (size_t)h->K * (size_t)h->pitch;
    const spira__dev_array arrays[] = {
        {&d->cols, h->cols, slots * sizeof(int32_t), "ELL columns"},
        {&d->vals, h->vals, slots * spira_dtype_size(h->dtype), "ELL values"},
    };
    return SPIRA__DEV_CLONE(ctx, dev, arrays);
}

spira_status spira__ell_dev_build(spira_context ctx, void *dev, const spira__csr_dev *dA,
                                  int32_t K, const char *fmt, spira__ell_dev *d)
{
    int32_t pitch;
    SPIRA__TRY(spira__ell_pitch(ctx, dA->nrows, K, fmt, &pitch));
    d->nrows = dA->nrows;
    d->K = K;
    d->pitch = pitch;
    d->dtype = dA->dtype;
    const size_t slots = (size_t)K * (size_t)pitch;
    const spira__dev_array arrays[] = {
        {&d->cols, NULL, slots * sizeof(int32_t), "ELL columns"},
        {&d->vals, NULL, slots * spira_dtype_size(d->dtype), "ELL values"},
    };
    SPIRA__TRY(SPIRA__DEV_CLONE(ctx, dev, arrays));
    if (slots == 0) return SPIRA_OK;
    return d->dtype == SPIRA_R64 ? ell_fill<double>(ctx, dA, d) : ell_fill<float>(ctx, dA, d);
}

size_t spira__ell_dev_bytes(const spira__ell_dev *d)
{
    spira__ell h = {};
    h.K = d->K;
    h.pitch = d->pitch;
    h.dtype = d->dtype;
    return spira__ell_bytes(&h);
}

spira_status spira__ell_dev_apply(spira_context ctx, const spira__ell_dev *d, double alpha,
                                  const void *x, double beta, void *y)
{
    if (d->nrows == 0) return SPIRA_OK;
    return d->dtype == SPIRA_R64 ? ell_launch<double>(ctx, d, alpha, x, beta, y)
                                 : ell_launch<float>(ctx, d, alpha, x, beta, y);
}

/* ---- the ell format's device half -------------------------------------------------- */

static spira_status ell_dev_upload(spira_context ctx, const void *layout, void *dev)
{
    return spira__ell_dev_fill(ctx, dev, (const spira__ell *)layout, (spira__ell_dev *)dev);
}

/* The conversion on the GPU: the longest row by a device reduction, the host convert's
 * refusals, then the fill. */
static spira_status ell_dev_build(spira_context ctx, const spira__csr *A,
                                  const spira__csr_dev *dA, const char *opts, void *dev,
                                  size_t *bytes)
{
    long max_fill;
    SPIRA__TRY(spira__opt_max_fill(ctx, opts, "ell", &max_fill));
    int32_t K;
    SPIRA__TRY(spira__rows_dev_max(ctx, dA, &K));
    SPIRA__TRY(spira__ell_check_fill(ctx, A, K, max_fill));
    spira__ell_dev *d = (spira__ell_dev *)dev;
    SPIRA__TRY(spira__ell_dev_build(ctx, dev, dA, K, "ell", d));
    *bytes = spira__ell_dev_bytes(d);
    return SPIRA_OK;
}

static spira_status ell_dev_apply(spira_context ctx, void *dev, double alpha, const void *x,
                                  double beta, void *y)
{
    return spira__ell_dev_apply(ctx, (const spira__ell_dev *)dev, alpha, x, beta, y);
}

extern "C" const spira__format_gpu spira__ell_gpu = {
    .handle = sizeof(spira__ell_dev),
    .upload = ell_dev_upload,
    .build = ell_dev_build,
    .apply = ell_dev_apply,
};

SPIRA__MODULE_ANCHOR(ell, ell_kernel<double>)
