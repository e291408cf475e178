/*
 * merge_gpu.cu - the merge-based CSR kernels (Merrill & Garland 2016; merge.h), over the
 * CSR family's device copy (csr_gpu.cu) and one carry-out a thread.
 *
 * merge_kernel: thread t takes merge-path steps [t*items, (t+1)*items). It finds its start
 * by the binary search on its diagonal; its end is lane + 1's start (a shuffle), only the
 * warp's last lane searches its own. It writes y for every row it ends and leaves the
 * partial sum of the row it stops inside as (crow[t], cval[t]); crow is nondecreasing in t.
 *
 * merge_fixup_kernel: the carry-outs of a row (a run of equal crow) are added to y[row]
 * by the run's first carry's lane when the run is one long, else by that lane's whole warp:
 * the run's end found by a binary search on crow, lanes summing every 32nd carry, then a
 * fixed shuffle tree. No atomics: the same bits every run. Empty rows are ended like any
 * other; a row of any length (a dense row, a row longer than a block's shares) only makes
 * its run of carries longer.
 */
#include "csr_gpu.cuh"
#include "merge.h"
#include "cuda/check.cuh"
#include "cuda/gateway.h"

namespace {

constexpr int kMergeBlock = 256;

typedef struct {
    spira__csr_dev csr;
    int32_t items, nthreads;
    int32_t *crow; /* device, nthreads: the row each thread stops inside (nrows: none) */
    void *cval;    /* device, nthreads values: its partial sum there */
} merge_dev;

/* Four blocks an SM (make kernel-registers' 64): left alone, nvcc gives the double kernel
 * more registers than that; capped, nothing spills. */
template <typename T>
__global__ void __launch_bounds__(kMergeBlock, 4)
    merge_kernel(int nrows, int nnz, int items, int nthreads, const int *__restrict__ rp,
                 const int *__restrict__ ci, const T *__restrict__ v, const T *__restrict__ x,
                 T alpha, T beta, T *__restrict__ y, int *__restrict__ crow,
                 T *__restrict__ cval)
{
    const int lane = threadIdx.x & 31;
    const long long path = (long long)nrows + nnz;
    const long long stride = (long long)gridDim.x * blockDim.x;
    /* whole warps go round together: the end coordinates come by shuffle */
    for (long long base = (long long)blockIdx.x * blockDim.x + (threadIdx.x & ~31);
         base < nthreads; base += stride) {
        const long long t = base + lane, d0 = t * items < path ? t * items : path;
        int row, nz, row_end, nz_end;
        spira__merge_search(d0, rp + 1, nrows, nnz, &row, &nz);
        row_end = __shfl_down_sync(0xffffffffu, row, 1);
        nz_end = __shfl_down_sync(0xffffffffu, nz, 1);
        if (lane == 31) {
            const long long d1 = d0 + items < path ? d0 + items : path;
            spira__merge_search(d1, rp + 1, nrows, nnz, &row_end, &nz_end);
        }
        if (t >= nthreads) continue;
        T sum = 0;
        for (; row < row_end; row++) {
            const int end = __ldg(&rp[row + 1]);
            for (; nz < end; nz++) sum += __ldg(&v[nz]) * __ldg(&x[__ldg(&ci[nz])]);
            y[row] = beta == T(0) ? alpha * sum : alpha * sum + beta * y[row];
            sum = 0;
        }
        for (; nz < nz_end; nz++) sum += __ldg(&v[nz]) * __ldg(&x[__ldg(&ci[nz])]);
        crow[t] = row_end;
        cval[t] = sum;
    }
}

template <typename T>
__global__ void __launch_bounds__(kMergeBlock, 4)
    merge_fixup_kernel(int nrows, int n, const int *__restrict__ crow,
                       const T *__restrict__ cval, T alpha, T *__restrict__ y)
{
    const int lane = threadIdx.x & 31;
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long base = (long long)blockIdx.x * blockDim.x + (threadIdx.x & ~31); base < n;
         base += stride) {
        const long long t = base + lane;
        const int r = t < n ? crow[t] : nrows;
        const bool head = r < nrows && (t == 0 || crow[t - 1] != r);
        const bool alone = head && (t + 1 == n || crow[t + 1] != r);
        if (alone) y[r] += alpha * cval[t];
        unsigned runs = __ballot_sync(0xffffffffu, head && !alone);
        while (runs) { /* each longer run by the whole warp, in lane order */
            const int l = __ffs(runs) - 1;
            runs &= runs - 1;
            const int hr = __shfl_sync(0xffffffffu, r, l);
            const long long h = base + l;
            long long lo = h + 1, hi = n; /* the run's end: the first carry past row hr */
            while (lo < hi) {
                const long long mid = (lo + hi) >> 1;
                if (crow[mid] <= hr) lo = mid + 1;
                else hi = mid;
            }
            T s = 0;
            for (long long k = h + lane; k < lo; k += 32) s += cval[k];
            for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
            if (lane == 0) y[hr] += alpha * s;
        }
    }
}

template <typename T>
spira_status merge_launch(spira_context ctx, const merge_dev *d, double alpha, const void *x,
                          double beta, void *y)
{
    cudaStream_t st = (cudaStream_t)spira__cuda_stream(ctx);
    const unsigned blocks = spira__blocks(d->nthreads, kMergeBlock);
    merge_kernel<T><<<blocks, kMergeBlock, 0, st>>>(
        d->csr.nrows, d->csr.nnz, d->items, d->nthreads, d->csr.row_ptr, d->csr.col_idx,
        (const T *)d->csr.val, (const T *)x, (T)alpha, (T)beta, (T *)y, d->crow, (T *)d->cval);
    SPIRA__LAUNCHED(ctx);
    merge_fixup_kernel<T><<<blocks, kMergeBlock, 0, st>>>(d->csr.nrows, d->nthreads, d->crow,
                                                         (const T *)d->cval, (T)alpha, (T *)y);
    SPIRA__LAUNCHED(ctx);
    return SPIRA_OK;
}

} // namespace

static spira_status merge_dev_upload(spira_context ctx, const void *layout, void *dev)
{
    const spira__merge *M = (const spira__merge *)layout;
    merge_dev *d = (merge_dev *)dev;
    d->items = M->items;
    d->nthreads = M->nthreads;
    SPIRA__TRY(spira__csr_dev_fill(ctx, dev, M->A, &d->csr));
    const spira__dev_array arrays[] = {
        {&d->crow, NULL, (size_t)M->nthreads * sizeof(int32_t), "merge carry-out rows"},
        {&d->cval, NULL, (size_t)M->nthreads * spira_dtype_size(M->A->dtype),
         "merge carry-out values"},
    };
    return SPIRA__DEV_CLONE(ctx, dev, arrays);
}

static spira_status merge_dev_apply(spira_context ctx, void *dev, double alpha, const void *x,
                                    double beta, void *y)
{
    const merge_dev *d = (const merge_dev *)dev;
    if (d->csr.nrows == 0) return SPIRA_OK;
    return d->csr.dtype == SPIRA_R64 ? merge_launch<double>(ctx, d, alpha, x, beta, y)
                                     : merge_launch<float>(ctx, d, alpha, x, beta, y);
}

extern "C" const spira__format_gpu spira__merge_gpu = {
    .handle = sizeof(merge_dev),
    .upload = merge_dev_upload,
    .shares_csr = 1,
    .apply = merge_dev_apply,
};
