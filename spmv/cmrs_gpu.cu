/*
 * cmrs_gpu.cu - the CMRS kernel (Koza et al. 2014, Algorithm 1; see cmrs.h): a warp per
 * strip, grid-stride. Lane l walks the strip's entries l, l+32, ... (the first pass starts
 * at the 32-aligned entry before the strip, as the paper's ALIGN_DATA variant), unpacks the
 * row within the strip and the column, and adds val * x[col] into its own shared-memory
 * slot for that row. Then the warp reduces the 32 partial sums of each of the H rows.
 *
 * The paper leaves the slot layout free ("arbitrary, as long as it is one-to-one"). Spira
 * puts row r of lane l at buf[r * 32 + l], so the 32 lanes of a warp touch 32 consecutive
 * slots in the hot loop whatever rows they are on: no bank conflicts there. In the
 * reduction, lane t sums the H slots t*H .. t*H+H-1, which all belong to row t*H/32 (H
 * divides 32), and the 32/H lanes of a row finish with shuffles; the row's sum ends in its
 * first lane. Each row's additions happen in a fixed order: the format is deterministic.
 *
 * The conversion on the GPU (cmrs_dev_build) makes the host's layout array for array: the
 * strip pointers and each entry's column word in place (the entries keep the CSR's order,
 * the values are the device CSR's). Each thread takes a run of kItems entries, whatever
 * rows they fall in (spira__row_of), so a dense row costs what as many entries in short
 * rows cost. One kernel, no scratch, no wait.
 */
#include "cmrs.h"
#include "device.h"
#include "rows_gpu.cuh"
#include "cuda/check.cuh"
#include "cuda/gateway.h"

namespace {

constexpr int kBlock = 128;
constexpr int kWarps = kBlock / 32;

constexpr int kFillBlock = 256;
constexpr int kItems = 4; /* entries a thread in the conversion: one row search for 4 */

/* The handle: the host layout's struct (its arrays on the device, val the device CSR's),
 * then the device CSR an upload borrows from the matrix (or clones where none was given). */
struct cmrs_dev {
    spira__cmrs h;
    spira__csr_dev csr;
};

/* strip_ptr[s] = rp[s * H] (s < nstrips), strip_ptr[nstrips] = nnz; and every entry k of
 * row i its column word. */
__global__ void __launch_bounds__(kFillBlock)
    cmrs_fill_kernel(int nrows, int nnz, int H, int nstrips, const int *__restrict__ rp,
                     const int *__restrict__ ci, int *__restrict__ strip_ptr,
                     unsigned *__restrict__ packed)
{
    const unsigned t = blockIdx.x * blockDim.x + threadIdx.x, stride = gridDim.x * blockDim.x;
    for (unsigned s = t; s <= (unsigned)nstrips; s += stride)
        strip_ptr[s] = s < (unsigned)nstrips ? rp[(long long)s * H] : nnz;
    for (long long k0 = (long long)t * kItems; k0 < nnz; k0 += (long long)stride * kItems) {
        int i = spira__row_of(rp, nrows, k0), next = rp[i + 1];
        const int end = k0 + kItems < nnz ? (int)k0 + kItems : nnz;
        for (int k = (int)k0; k < end; k++) {
            while (k >= next) next = rp[++i + 1]; /* i stays < nrows */
            packed[k] = (unsigned)ci[k] << SPIRA__CMRS_BITS | (unsigned)(i % H);
        }
    }
}

spira_status cmrs_fill(spira_context ctx, const spira__csr_dev *dA, spira__cmrs *d)
{
    cudaStream_t st = (cudaStream_t)spira__cuda_stream(ctx);
    const long long runs = ((long long)d->nnz + kItems - 1) / kItems;
    const long long threads = runs > (long long)d->nstrips + 1 ? runs : (long long)d->nstrips + 1;
    cmrs_fill_kernel<<<spira__blocks(threads, kFillBlock), kFillBlock, 0, st>>>(
        d->nrows, d->nnz, d->height, d->nstrips, dA->row_ptr, dA->col_idx, d->strip_ptr,
        d->packed);
    SPIRA__LAUNCHED(ctx);
    return SPIRA_OK;
}

template <typename T, int H>
__global__ void __launch_bounds__(kBlock)
    cmrs_kernel(int nrows, int nstrips, const int *__restrict__ strip_ptr,
                const unsigned *__restrict__ packed, const T *__restrict__ v,
                const T *__restrict__ x, T alpha, T beta, T *__restrict__ y)
{
    static_assert(H >= 1 && H <= 16 && (H & (H - 1)) == 0, "H is a power of two <= 16");
    constexpr unsigned kRowMask = (1u << SPIRA__CMRS_BITS) - 1;
    constexpr int kLanesPerRow = 32 / H; /* in the reduction */
    __shared__ T buf[kWarps][H * 32];
    T *mine = buf[threadIdx.x / 32];
    const unsigned lane = threadIdx.x & 31;
    const unsigned nwarps = gridDim.x * kWarps;
    for (unsigned s = (blockIdx.x * kBlock + threadIdx.x) / 32; s < (unsigned)nstrips;
         s += nwarps) {
#pragma unroll
        for (int r = 0; r < H; r++) mine[r * 32 + lane] = 0;
        const int start = strip_ptr[s], end = strip_ptr[s + 1];
        for (int j = start - (start & 31) + (int)lane; j < end; j += 32) {
            if (j < start) continue;
            const unsigned w = packed[j];
            mine[(w & kRowMask) * 32 + lane] += v[j] * __ldg(&x[w >> SPIRA__CMRS_BITS]);
        }
        __syncwarp();
        T z = 0;
#pragma unroll
        for (int k = 0; k < H; k++) z += mine[lane * H + k];
#pragma unroll
        for (int off = kLanesPerRow / 2; off > 0; off >>= 1)
            z += __shfl_down_sync(0xffffffffu, z, off, kLanesPerRow);
        const unsigned r = lane / kLanesPerRow;
        const long long row = (long long)s * H + r;
        if (lane % kLanesPerRow == 0 && row < nrows)
            y[row] = beta == T(0) ? alpha * z : alpha * z + beta * y[row];
        __syncwarp(); /* the next strip clears the slots other lanes have just read */
    }
}

template <typename T, int H>
void launch(const spira__cmrs *d, cudaStream_t st, double alpha, const void *x, double beta,
            void *y)
{
    cmrs_kernel<T, H><<<spira__blocks((long long)d->nstrips * 32, kBlock), kBlock, 0, st>>>(
        d->nrows, d->nstrips, d->strip_ptr, d->packed, (const T *)d->val, (const T *)x,
        (T)alpha, (T)beta, (T *)y);
}

template <typename T>
void dispatch(const spira__cmrs *d, cudaStream_t st, double alpha, const void *x, double beta,
              void *y)
{
    switch (d->height) {
    case 1: launch<T, 1>(d, st, alpha, x, beta, y); break;
    case 2: launch<T, 2>(d, st, alpha, x, beta, y); break;
    case 4: launch<T, 4>(d, st, alpha, x, beta, y); break;
    case 8: launch<T, 8>(d, st, alpha, x, beta, y); break;
    default: launch<T, 16>(d, st, alpha, x, beta, y); break;
    }
}

} // namespace

static spira_status cmrs_dev_build(spira_context ctx, const spira__csr *A,
                                   const spira__csr_dev *dA, const char *opts, void *dev,
                                   size_t *bytes)
{
    spira__cmrs *d = &((cmrs_dev *)dev)->h;
    SPIRA__TRY(spira__cmrs_height(ctx, A, opts, &d->height));
    d->nrows = A->nrows, d->ncols = A->ncols, d->nnz = A->nnz, d->dtype = A->dtype;
    d->nstrips = (int32_t)(((int64_t)A->nrows + d->height - 1) / d->height);
    d->val = dA->val;
    const spira__dev_array arrays[] = {
        {&d->strip_ptr, NULL, ((size_t)d->nstrips + 1) * sizeof(int32_t), "CMRS strip pointers"},
        {&d->packed, NULL, (size_t)d->nnz * sizeof(uint32_t), "CMRS column words"},
    };
    SPIRA__TRY(SPIRA__DEV_CLONE(ctx, dev, arrays));
    SPIRA__TRY(cmrs_fill(ctx, dA, d));
    *bytes = spira__cmrs_bytes_of(d->nstrips, d->nnz, d->dtype);
    return SPIRA_OK;
}

static spira_status cmrs_dev_upload(spira_context ctx, const void *layout, void *dev)
{
    const spira__cmrs *C = (const spira__cmrs *)layout;
    cmrs_dev *d = (cmrs_dev *)dev;
    d->h = *C; /* sizes; the arrays are cloned or borrowed below */
    d->h.csr = NULL;
    d->h.strip_ptr = NULL;
    d->h.packed = NULL;
    SPIRA__TRY(spira__csr_dev_fill(ctx, dev, C->csr, &d->csr));
    d->h.val = d->csr.val;
    const spira__dev_array arrays[] = {
        {&d->h.strip_ptr, C->strip_ptr, ((size_t)C->nstrips + 1) * sizeof(int32_t),
         "CMRS strip pointers"},
        {&d->h.packed, C->packed, (size_t)C->nnz * sizeof(uint32_t), "CMRS column words"},
    };
    return SPIRA__DEV_CLONE(ctx, dev, arrays);
}

static spira_status cmrs_dev_apply(spira_context ctx, void *dev, double alpha, const void *x,
                                   double beta, void *y)
{
    const spira__cmrs *d = &((const cmrs_dev *)dev)->h;
    if (d->nrows == 0) return SPIRA_OK;
    cudaStream_t st = (cudaStream_t)spira__cuda_stream(ctx);
    if (d->dtype == SPIRA_R64) dispatch<double>(d, st, alpha, x, beta, y);
    else dispatch<float>(d, st, alpha, x, beta, y);
    SPIRA__LAUNCHED(ctx);
    return SPIRA_OK;
}

SPIRA__MODULE_ANCHOR(cmrs, cmrs_fill_kernel)

extern "C" const spira__format_gpu spira__cmrs_gpu = {
    .handle = sizeof(cmrs_dev),
    .upload = cmrs_dev_upload,
    .build = cmrs_dev_build,
    .shares_csr = 1,
    .apply = cmrs_dev_apply,
};
