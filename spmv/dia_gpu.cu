/*
 * dia_gpu.cu - the DIA kernel of Bell & Garland (2008): one thread per row; for diagonal
 * d, the threads of a warp read data[d*pitch + i] for consecutive rows i (coalesced) and
 * x[i + offsets[d]] (consecutive too, through the read-only cache). The offsets are staged
 * in shared memory a block's width at a time, as in the paper, so the inner loop reads
 * them without a global load. The column bounds test skips the slots where a diagonal
 * leaves the matrix, which makes rectangular matrices work.
 *
 * The conversion on the GPU (dia_dev_build) makes the host conversion's layout from the
 * device CSR, array for array: the occupied diagonals flagged and counted
 * (diagonals_gpu.cuh), the host's refusal (spira__dia_check) before anything the layout
 * keeps is allocated, the offsets compacted from the flags in ascending order by CUB's
 * DeviceSelect::Flagged, then one kernel that writes every slot once: a thread a padded
 * row walks the diagonals in order and its row's entries beside them (both ascend in
 * column), storing the entry on diagonal d or 0. Its writes are coalesced like the
 * multiply's reads, and the padding (rows nrows .. pitch-1, and slots off the matrix)
 * comes out 0 without a memset. A thread a row is balanced here: the fill limit holds a row
 * to ndiag <= max_fill * nnz / nrows entries, and every thread makes ndiag steps.
 */
#include "dia.h"
#include "device.h"
#include "csr_gpu.cuh"
#include "diagonals_gpu.cuh"
#include "padding.h"
#include "cuda/check.cuh"
#include "cuda/gateway.h"

#include <cub/cub.cuh>
#include <thrust/iterator/counting_iterator.h>

namespace {

constexpr int kDiaBlock = 256;

typedef spira__dia dia_dev; /* offsets: device, ndiag; data: device, ndiag*pitch */

template <typename T>
__global__ void __launch_bounds__(kDiaBlock)
    dia_kernel(int nrows, int ncols, int ndiag, int pitch, const int *__restrict__ offsets,
               const T *__restrict__ data, const T *__restrict__ x, T alpha, T beta,
               T *__restrict__ y)
{
    __shared__ int s_off[kDiaBlock];
    const unsigned stride = gridDim.x * blockDim.x;
    /* block-uniform trip count: every thread reaches the barriers */
    for (unsigned base = blockIdx.x * blockDim.x; base < (unsigned)nrows; base += stride) {
        const unsigned i = base + threadIdx.x;
        T sum = 0;
        for (int d0 = 0; d0 < ndiag; d0 += kDiaBlock) {
            __syncthreads(); /* the previous chunk of offsets is no longer read */
            if (d0 + (int)threadIdx.x < ndiag) s_off[threadIdx.x] = offsets[d0 + threadIdx.x];
            __syncthreads();
            if (i < (unsigned)nrows) {
                const int dn = min(kDiaBlock, ndiag - d0);
                /* < ndiag*pitch <= INT32_MAX (checked); unsigned: the step after the last
                 * diagonal may pass INT32_MAX */
                unsigned at = (unsigned)d0 * (unsigned)pitch + i;
                for (int d = 0; d < dn; d++, at += (unsigned)pitch) {
                    /* unsigned wrap sends i + offset < 0 beyond ncols as well */
                    const unsigned j = i + (unsigned)s_off[d];
                    if (j < (unsigned)ncols) sum += data[at] * __ldg(&x[j]);
                }
            }
        }
        if (i < (unsigned)nrows) y[i] = beta == T(0) ? alpha * sum : alpha * sum + beta * y[i];
    }
}

template <typename T>
spira_status dia_launch(spira_context ctx, const dia_dev *d, double alpha, const void *x,
                        double beta, void *y)
{
    cudaStream_t st = (cudaStream_t)spira__cuda_stream(ctx);
    dia_kernel<T><<<spira__blocks(d->nrows, kDiaBlock), kDiaBlock, 0, st>>>(
        d->nrows, d->ncols, d->ndiag, d->pitch, d->offsets, (const T *)d->data, (const T *)x,
        (T)alpha, (T)beta, (T *)y);
    SPIRA__LAUNCHED(ctx);
    return SPIRA_OK;
}

/* data[d*pitch + i] = A(i, i + offsets[d]), 0 where not stored or off the matrix, for
 * every padded row i < pitch: the thread of row i merges the ascending diagonals with its
 * row's ascending columns (every entry lies on one of the diagonals, so none is skipped). */
template <typename T>
__global__ void __launch_bounds__(kDiaBlock)
    dia_fill_kernel(int nrows, int ndiag, int pitch, const int *__restrict__ offsets,
                    const int *__restrict__ rp, const int *__restrict__ ci,
                    const T *__restrict__ val, T *__restrict__ data)
{
    __shared__ int s_off[kDiaBlock];
    const unsigned stride = gridDim.x * blockDim.x;
    /* block-uniform trip count: every thread reaches the barriers */
    for (unsigned base = blockIdx.x * blockDim.x; base < (unsigned)pitch; base += stride) {
        const unsigned i = base + threadIdx.x;
        int k = 0, end = 0; /* a padding row has no entries */
        if (i < (unsigned)nrows) k = rp[i], end = rp[i + 1];
        for (int d0 = 0; d0 < ndiag; d0 += kDiaBlock) {
            __syncthreads(); /* the previous chunk of offsets is no longer read */
            if (d0 + (int)threadIdx.x < ndiag) s_off[threadIdx.x] = offsets[d0 + threadIdx.x];
            __syncthreads();
            if (i < (unsigned)pitch) {
                const int dn = min(kDiaBlock, ndiag - d0);
                size_t at = (size_t)d0 * (size_t)pitch + i; /* < ndiag*pitch <= INT32_MAX */
                for (int d = 0; d < dn; d++, at += (size_t)pitch) {
                    T v = 0;
                    if (k < end && ci[k] == (long long)i + s_off[d]) v = val[k++];
                    data[at] = v;
                }
            }
        }
    }
}

/* d's offsets from the flags of its span diagonals: the numbers of the flagged ones, in
 * ascending order, less nrows - 1. */
spira_status dia_offsets(spira_context ctx, dia_dev *d, const uint8_t *flags, long long span)
{
    cudaStream_t st = (cudaStream_t)spira__cuda_stream(ctx);
    const thrust::counting_iterator<int> offset(-(d->nrows - 1));
    size_t temp = 0;
    SPIRA__CUDA(ctx, cub::DeviceSelect::Flagged(nullptr, temp, offset, flags, d->offsets,
                                                (long long *)nullptr, span, st));
    void *scratch = NULL;
    const size_t head = 256; /* the count selected (not read: the reduce counted them) */
    SPIRA__TRY(spira__cuda_scratch_malloc(ctx, &scratch, head + temp, "DIA offset scratch"));
    spira_status s = spira__cuda_status(
        ctx, cub::DeviceSelect::Flagged((char *)scratch + head, temp, offset, flags, d->offsets,
                                        (long long *)scratch, span, st),
        "cub::DeviceSelect::Flagged", __FILE__, __LINE__);
    spira__cuda_scratch_free(ctx, scratch); /* in stream order: after the select */
    return s;
}

template <typename T>
spira_status dia_fill_launch(spira_context ctx, dia_dev *d, const spira__csr_dev *dA)
{
    cudaStream_t st = (cudaStream_t)spira__cuda_stream(ctx);
    dia_fill_kernel<T><<<spira__blocks(d->pitch, kDiaBlock), kDiaBlock, 0, st>>>(
        d->nrows, d->ndiag, d->pitch, d->offsets, dA->row_ptr, dA->col_idx,
        (const T *)dA->val, (T *)d->data);
    SPIRA__LAUNCHED(ctx);
    return SPIRA_OK;
}

} // namespace

/* The host conversion's steps in its order (dia.c: the option, the diagonals, the refusal,
 * the layout), on the GPU. */
static spira_status dia_dev_build(spira_context ctx, const spira__csr *A,
                                  const spira__csr_dev *dA, const char *opts, void *dev,
                                  size_t *bytes)
{
    dia_dev *d = (dia_dev *)dev;
    long max_fill;
    SPIRA__TRY(spira__opt_max_fill(ctx, opts, "dia", &max_fill));
    d->nrows = A->nrows;
    d->ncols = A->ncols;
    d->dtype = A->dtype;
    const long long span = A->nnz ? (long long)A->nrows + A->ncols - 1 : 0;
    uint8_t *flags = NULL; /* scratch: one byte a possible diagonal */
    int64_t ndiag = 0, pitch = 0;
    spira_status s = SPIRA_OK;
    if (span) {
        s = spira__cuda_scratch_malloc(ctx, (void **)&flags, (size_t)span, "DIA diagonal flags");
        if (s == SPIRA_OK) s = spira__diagonals_flag(ctx, dA, flags, &ndiag);
    }
    if (s == SPIRA_OK) s = spira__dia_check(ctx, A->nrows, A->nnz, ndiag, max_fill, &pitch);
    const size_t es = spira_dtype_size(A->dtype);
    if (s == SPIRA_OK) {
        d->ndiag = (int32_t)ndiag;
        d->pitch = ndiag ? (int32_t)pitch : A->nrows;
        const spira__dev_array arrays[] = {
            {&d->offsets, NULL, (size_t)d->ndiag * sizeof(int32_t), "DIA offsets"},
            {&d->data, NULL, (size_t)d->ndiag * (size_t)d->pitch * es, "DIA data"},
        };
        s = SPIRA__DEV_CLONE(ctx, dev, arrays);
    }
    if (s == SPIRA_OK && ndiag) s = dia_offsets(ctx, d, flags, span);
    if (s == SPIRA_OK && ndiag)
        s = d->dtype == SPIRA_R64 ? dia_fill_launch<double>(ctx, d, dA)
                                  : dia_fill_launch<float>(ctx, d, dA);
    spira__cuda_scratch_free(ctx, flags); /* in stream order: after the fill */
    if (s == SPIRA_OK)
        *bytes = (size_t)d->ndiag * sizeof(int32_t) + (size_t)d->ndiag * (size_t)d->pitch * es;
    return s;
}

static spira_status dia_dev_upload(spira_context ctx, const void *layout, void *dev)
{
    const spira__dia *h = (const spira__dia *)layout;
    dia_dev *d = (dia_dev *)dev;
    d->nrows = h->nrows;
    d->ncols = h->ncols;
    d->ndiag = h->ndiag;
    d->pitch = h->pitch;
    d->dtype = h->dtype;
    const spira__dev_array arrays[] = {
        {&d->offsets, h->offsets, (size_t)h->ndiag * sizeof(int32_t), "DIA offsets"},
        {&d->data, h->data, (size_t)h->ndiag * (size_t)h->pitch * spira_dtype_size(h->dtype),
         "DIA data"},
    };
    return SPIRA__DEV_CLONE(ctx, dev, arrays);
}

static spira_status dia_dev_apply(spira_context ctx, void *dev, double alpha, const void *x,
                                  double beta, void *y)
{
    const dia_dev *d = (const dia_dev *)dev;
    if (d->nrows == 0) return SPIRA_OK;
    return d->dtype == SPIRA_R64 ? dia_launch<double>(ctx, d, alpha, x, beta, y)
                                 : dia_launch<float>(ctx, d, alpha, x, beta, y);
}

extern "C" const spira__format_gpu spira__dia_gpu = {
    .handle = sizeof(dia_dev),
    .upload = dia_dev_upload,
    .build = dia_dev_build,
    .apply = dia_dev_apply,
};

SPIRA__MODULE_ANCHOR(dia, dia_kernel<double>)
