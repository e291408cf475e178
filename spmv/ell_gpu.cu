/*
 * ell_gpu.cu - the ELL kernel of Bell & Garland (2008): one thread per row; in step k the
 * threads of a warp read cols/vals at k*pitch + i for consecutive i, so every matrix load
 * is coalesced; x is gathered through the read-only cache. A row stops at its first
 * padding slot (column -1), so short rows do not read padding beyond it or touch x.
 * Also the device upload of an ELL layout, used by ell and by hyb's ELL part.
 */
#include "ell_gpu.cuh"
#include "spmv_gpu.h"
#include "cuda/check.cuh"
#include "cuda/gateway.h"

#include <string.h>

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
            const int c = cols[at];
            const T v = vals[at]; /* issued with the column load: padding holds 0 */
            if (c < 0) break;     /* padding only at a row's end */
            sum += v * __ldg(&x[c]);
        }
        y[i] = beta == T(0) ? alpha * sum : alpha * sum + beta * y[i];
    }
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

spira_status spira__ell_dev_fill(spira_context ctx, const spira__ell *h, spira__ell_dev *d)
{
    memset(d, 0, sizeof *d);
    d->nrows = h->nrows;
    d->K = h->K;
    d->pitch = h->pitch;
    d->dtype = h->dtype;
    size_t slots = (size_t)h->K * (size_t)h->pitch;
    size_t cb = slots * sizeof(int32_t), vb = slots * spira_dtype_size(h->dtype);
    spira_status s = spira__cuda_clone(ctx, (void **)&d->cols, h->cols, cb, "ELL columns");
    if (s == SPIRA_OK) s = spira__cuda_clone(ctx, &d->vals, h->vals, vb, "ELL values");
    if (s != SPIRA_OK) spira__ell_dev_release(ctx, d);
    return s;
}

void spira__ell_dev_release(spira_context ctx, spira__ell_dev *d)
{
    spira__cuda_free(ctx, d->cols);
    spira__cuda_free(ctx, d->vals);
    memset(d, 0, sizeof *d);
}

spira_status spira__ell_dev_run(spira_context ctx, const spira__ell_dev *d, double alpha,
                                const void *x, double beta, void *y)
{
    if (d->nrows == 0) return SPIRA_OK;
    return d->dtype == SPIRA_R64 ? ell_launch<double>(ctx, d, alpha, x, beta, y)
                                 : ell_launch<float>(ctx, d, alpha, x, beta, y);
}

/* ---- the ell format's device ops ---------------------------------------------------- */

extern "C" spira_status spira__ell_upload(spira_context ctx, const void *layout, void **dev)
{
    *dev = NULL;
    spira__ell_dev *d = (spira__ell_dev *)spira__calloc(1, sizeof *d);
    if (!d) return spira__nomem(ctx, "device ELL handle", sizeof *d);
    spira_status s = spira__ell_dev_fill(ctx, (const spira__ell *)layout, d);
    if (s != SPIRA_OK) {
        spira__free(d);
        return s;
    }
    *dev = d;
    return SPIRA_OK;
}

extern "C" spira_status spira__ell_apply(spira_context ctx, void *dev, double alpha,
                                         const void *x, double beta, void *y)
{
    return spira__ell_dev_run(ctx, (const spira__ell_dev *)dev, alpha, x, beta, y);
}

extern "C" void spira__ell_destroy_dev(spira_context ctx, void *dev)
{
    if (!dev) return;
    spira__ell_dev_release(ctx, (spira__ell_dev *)dev);
    spira__free(dev);
}
