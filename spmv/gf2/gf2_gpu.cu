/*
 * gf2_gpu.cu - the GF(2) SpMV kernels (see gf2.h). A block row of W bits is W/64 words;
 * the kernels are instantiated for 1, 2 and 4 words so that a row's words live in
 * registers.
 *   csr: V lanes of a warp a row (V from the mean row length by csr-vector's rule); lane l
 *     XORs the rows of X of entries l, l+V, ... and the lanes' words are XORed by shuffles.
 *   sliced COO: a block a slice (grid-stride); the slice's rows start at zero in shared
 *     memory, in `copies` copies (the paper's SS, MS and LS sub-formats: a copy per thread,
 *     per lane index, or one); the threads walk the slice's entries (in column order, so
 *     neighbouring threads read nearby rows of X) and XOR X's row into their copy of the
 *     entry's row (atomically where copies are shared); then each row's copies are XORed
 *     together and written to Y once. As a band of the combined format (gf2_parts.h) the
 *     rows are XORed into Y through the row order instead, and a slice's entries may be
 *     shared by `parts` blocks, each XORing its partial rows into Y atomically, where the
 *     slices are too few to fill the device. The sliced format converts on the GPU too
 *     (gf2_build_gpu.cu).
 */
#include "gf2_dev.cuh"
#include "rows_gpu.cuh"
#include "csr_row.cuh"
#include "csr_vector.h"
#include "cuda/check.cuh"
#include "cuda/gateway.h"

namespace {

constexpr int kBlock = 256;
static_assert(kBlock == SPIRA__GF2_THREADS, "the sliced layout's thread copies are a block's");

typedef unsigned long long u64;

/* ---- csr -------------------------------------------------------------------------------- */

struct csr_dev {
    int32_t nrows, words;
    double mean_row;
    int32_t *row_ptr, *col_idx;
};

/* ACC: row i is XORed into Y's row perm[i] (a csr band of the combined format, whose row
 * pointers are its slice pointers) instead of written to row i. */
template <int V, int W, bool ACC = false>
__global__ void __launch_bounds__(kBlock, 8)
    gf2_csr_kernel(int nrows, const int *__restrict__ rp, const int *__restrict__ ci,
                   const u64 *__restrict__ x, u64 *__restrict__ y,
                   const int *__restrict__ perm = nullptr)
{
    const unsigned lane = threadIdx.x & (V - 1);
    const unsigned mask = spira__vector_mask<V>();
    const int nvec = gridDim.x * (blockDim.x / V);
    for (int row = (blockIdx.x * blockDim.x + threadIdx.x) / V; row < nrows; row += nvec) {
        u64 acc[W] = {};
        for (int k = rp[row] + (int)lane; k < rp[row + 1]; k += V) {
            const u64 *xr = x + (size_t)ci[k] * W;
#pragma unroll
            for (int q = 0; q < W; q++) acc[q] ^= __ldg(&xr[q]);
        }
#pragma unroll
        for (int off = V / 2; off > 0; off >>= 1)
#pragma unroll
            for (int q = 0; q < W; q++) acc[q] ^= __shfl_down_sync(mask, acc[q], off, V);
        if (lane == 0) {
            u64 *yr = y + (size_t)(ACC && perm ? perm[row] : row) * W;
#pragma unroll
            for (int q = 0; q < W; q++) {
                if (ACC) yr[q] ^= acc[q];
                else yr[q] = acc[q];
            }
        }
    }
}

template <int V>
void csr_launch(const csr_dev *d, int words, cudaStream_t st, const u64 *x, u64 *y)
{
    const unsigned grid = spira__blocks((long long)d->nrows * V, kBlock);
    switch (words) {
    case 1: gf2_csr_kernel<V, 1><<<grid, kBlock, 0, st>>>(d->nrows, d->row_ptr, d->col_idx, x, y); break;
    case 2: gf2_csr_kernel<V, 2><<<grid, kBlock, 0, st>>>(d->nrows, d->row_ptr, d->col_idx, x, y); break;
    default: gf2_csr_kernel<V, 4><<<grid, kBlock, 0, st>>>(d->nrows, d->row_ptr, d->col_idx, x, y); break;
    }
}

/* ---- sliced COO ------------------------------------------------------------------------- */

/* Item it of the grid is part it % parts of slice it / parts: the entries
 * [len * part / parts, len * (part + 1) / parts) of the slice. ACC false: the slice's rows
 * are written (parts 1, perm NULL); true: XORed into Y's rows perm[i], by a plain read and
 * write where this block alone holds the slice (parts 1), else atomically. */
template <int W, int COPIES, bool ACC>
__global__ void __launch_bounds__(kBlock)
    gf2_sliced_kernel(int nrows, int nslices, int rows, int parts,
                      const int *__restrict__ slice_ptr, const int *__restrict__ col,
                      const unsigned short *__restrict__ row, const int *__restrict__ perm,
                      const u64 *__restrict__ x, u64 *__restrict__ y)
{
    __shared__ u64 buf[SPIRA__GF2_SHARED_WORDS];
    const int copy = COPIES == kBlock ? threadIdx.x : COPIES == 32 ? threadIdx.x & 31 : 0;
    const long long items = (long long)nslices * parts;
    for (long long it = blockIdx.x; it < items; it += gridDim.x) {
        const int sl = (int)(it / parts), part = (int)(it % parts);
        const long long first = (long long)sl * rows;
        const int here = first + rows < nrows ? rows : (int)(nrows - first);
        for (int i = threadIdx.x; i < here * COPIES * W; i += blockDim.x) buf[i] = 0;
        __syncthreads();
        const int b = slice_ptr[sl], len = slice_ptr[sl + 1] - b;
        const int lo = b + (int)((long long)len * part / parts);
        const int hi = b + (int)((long long)len * (part + 1) / parts);
        for (int k = lo + threadIdx.x; k < hi; k += blockDim.x) {
            const u64 *xr = x + (size_t)col[k] * W;
            u64 *slot = buf + ((int)row[k] * COPIES + copy) * W;
#pragma unroll
            for (int q = 0; q < W; q++) {
                if (COPIES == kBlock) slot[q] ^= __ldg(&xr[q]); /* this thread's own copy */
                else atomicXor(&slot[q], __ldg(&xr[q]));
            }
        }
        __syncthreads();
        for (int i = threadIdx.x; i < here * W; i += blockDim.x) {
            const int r = i / W, q = i % W;
            u64 acc = 0;
            for (int c = 0; c < COPIES; c++) acc ^= buf[(r * COPIES + c) * W + q];
            if (!ACC) {
                y[(size_t)first * W + i] = acc;
            } else {
                const long long ri = first + r;
                u64 *yr = y + (size_t)(perm ? perm[ri] : ri) * W + q;
                if (parts == 1) *yr ^= acc;
                else if (acc) atomicXor(yr, acc);
            }
        }
        __syncthreads(); /* the next slice clears buf */
    }
}

template <int W, bool ACC>
void sliced_launch(const spira__gf2_sliced_dev *d, const int *perm, cudaStream_t st, const u64 *x,
                   u64 *y)
{
    const unsigned grid = spira__blocks((long long)d->nslices * d->parts * kBlock, kBlock);
    const unsigned short *row = (const unsigned short *)d->row;
    switch (d->share) {
    case SPIRA__GF2_SHARE_THREAD:
        gf2_sliced_kernel<W, kBlock, ACC><<<grid, kBlock, 0, st>>>(
            d->nrows, d->nslices, d->rows, d->parts, d->slice_ptr, d->col, row, perm, x, y);
        break;
    case SPIRA__GF2_SHARE_WARP:
        gf2_sliced_kernel<W, 32, ACC><<<grid, kBlock, 0, st>>>(
            d->nrows, d->nslices, d->rows, d->parts, d->slice_ptr, d->col, row, perm, x, y);
        break;
    default:
        gf2_sliced_kernel<W, 1, ACC><<<grid, kBlock, 0, st>>>(
            d->nrows, d->nslices, d->rows, d->parts, d->slice_ptr, d->col, row, perm, x, y);
    }
}

/* a csr band (gf2_parts.h): its slices are rows */
template <int V, int W>
void band_csr_launch(const spira__gf2_sliced_dev *d, const int *perm, cudaStream_t st,
                     const u64 *x, u64 *y)
{
    const unsigned grid = spira__blocks((long long)d->nslices * V, kBlock);
    gf2_csr_kernel<V, W, true><<<grid, kBlock, 0, st>>>(d->nslices, d->slice_ptr, d->col, x, y,
                                                        perm);
}

template <int W>
void band_csr_lanes(const spira__gf2_sliced_dev *d, const int *perm, cudaStream_t st,
                    const u64 *x, u64 *y)
{
    switch (spira__csr_vector_lanes(d->nslices ? (double)d->nnz / d->nslices : 0)) {
    case 2: band_csr_launch<2, W>(d, perm, st, x, y); break;
    case 4: band_csr_launch<4, W>(d, perm, st, x, y); break;
    case 8: band_csr_launch<8, W>(d, perm, st, x, y); break;
    case 16: band_csr_launch<16, W>(d, perm, st, x, y); break;
    default: band_csr_launch<32, W>(d, perm, st, x, y); break;
    }
}

template <bool ACC>
void sliced_words(const spira__gf2_sliced_dev *d, const int *perm, cudaStream_t st, const u64 *x,
                  u64 *y)
{
    switch (d->words) {
    case 1: sliced_launch<1, ACC>(d, perm, st, x, y); break;
    case 2: sliced_launch<2, ACC>(d, perm, st, x, y); break;
    default: sliced_launch<4, ACC>(d, perm, st, x, y); break;
    }
}

} // namespace

static spira_status gf2_csr_dev_upload(spira_context ctx, const void *layout, void *dev)
{
    const spira__gf2_csr *L = (const spira__gf2_csr *)layout;
    const spira__gf2_pattern *A = L->A;
    csr_dev *d = (csr_dev *)dev;
    d->nrows = A->nrows;
    d->words = L->words;
    d->mean_row = A->nrows ? (double)A->nnz / A->nrows : 0;
    const spira__dev_array arrays[] = {
        {&d->row_ptr, A->row_ptr, ((size_t)A->nrows + 1) * sizeof(int32_t),
         "GF(2) CSR row pointers"},
        {&d->col_idx, A->col_idx, (size_t)A->nnz * sizeof(int32_t), "GF(2) CSR columns"},
    };
    return SPIRA__DEV_CLONE(ctx, dev, arrays);
}

/* Y = M X: alpha 1, beta 0 (gf2.h) */
static spira_status gf2_csr_dev_apply(spira_context ctx, void *dev, double alpha, const void *x,
                                      double beta, void *y)
{
    (void)alpha, (void)beta;
    const csr_dev *d = (const csr_dev *)dev;
    const int words = d->words;
    if (d->nrows == 0) return SPIRA_OK;
    cudaStream_t st = (cudaStream_t)spira__cuda_stream(ctx);
    const u64 *dx = (const u64 *)x;
    u64 *dy = (u64 *)y;
    switch (spira__csr_vector_lanes(d->mean_row)) {
    case 2: csr_launch<2>(d, words, st, dx, dy); break;
    case 4: csr_launch<4>(d, words, st, dx, dy); break;
    case 8: csr_launch<8>(d, words, st, dx, dy); break;
    case 16: csr_launch<16>(d, words, st, dx, dy); break;
    default: csr_launch<32>(d, words, st, dx, dy); break;
    }
    SPIRA__LAUNCHED(ctx);
    return SPIRA_OK;
}

spira_status spira__gf2_sliced_dev_run(spira_context ctx, const spira__gf2_sliced_dev *d,
                                       const int32_t *perm, int accumulate, const spira__u64 *x,
                                       spira__u64 *y)
{
    if (d->nrows == 0 || d->nslices == 0) return SPIRA_OK;
    cudaStream_t st = (cudaStream_t)spira__cuda_stream(ctx);
    if (d->share == SPIRA__GF2_BAND_CSR) {
        switch (d->words) {
        case 1: band_csr_lanes<1>(d, perm, st, x, y); break;
        case 2: band_csr_lanes<2>(d, perm, st, x, y); break;
        default: band_csr_lanes<4>(d, perm, st, x, y); break;
        }
    } else if (accumulate) {
        sliced_words<true>(d, perm, st, x, y);
    } else {
        sliced_words<false>(d, NULL, st, x, y);
    }
    SPIRA__LAUNCHED(ctx);
    return SPIRA_OK;
}

spira_status spira__gf2_sliced_dev_parts(spira_context ctx, spira__gf2_sliced_dev *d,
                                         int asked)
{
    d->parts = 1;
    if (d->nslices == 0 || d->share == SPIRA__GF2_BAND_CSR) return SPIRA_OK;
    if (asked > 0) {
        d->parts = asked;
        return SPIRA_OK;
    }
    int dev = 0, sms = 0, smem = 0;
    SPIRA__CUDA(ctx, cudaGetDevice(&dev));
    SPIRA__CUDA(ctx, cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    SPIRA__CUDA(ctx, cudaDeviceGetAttribute(&smem, cudaDevAttrMaxSharedMemoryPerMultiprocessor, dev));
    /* resident blocks: the kernel's 48 KiB of shared memory is what limits them */
    const long long per_sm = smem / (SPIRA__GF2_SHARED_WORDS * 8 + 1024) > 0
                                 ? smem / (SPIRA__GF2_SHARED_WORDS * 8 + 1024) : 1;
    const long long want = 2 * (long long)(sms > 0 ? sms : 1) * per_sm;
    /* a part clears and reads back the block's 48 KiB of rows whatever its entries: it takes
     * at least four times that many entries */
    const long long most = (long long)d->nnz / d->nslices / (4 * SPIRA__GF2_SHARED_WORDS);
    long long parts = (want + d->nslices - 1) / d->nslices;
    if (parts > most) parts = most;
    d->parts = parts < 1 ? 1 : (int32_t)parts;
    return SPIRA_OK;
}

static spira_status gf2_sliced_dev_upload(spira_context ctx, const void *layout, void *dev)
{
    const spira__gf2_sliced *L = (const spira__gf2_sliced *)layout;
    spira__gf2_sliced_dev *d = (spira__gf2_sliced_dev *)dev;
    d->nrows = L->nrows;
    d->nnz = L->nnz;
    d->nslices = L->nslices;
    d->rows = L->rows;
    d->share = L->share;
    d->words = L->words;
    d->parts = 1;
    const spira__dev_array arrays[] = {
        {&d->slice_ptr, L->slice_ptr, ((size_t)L->nslices + 1) * sizeof(int32_t),
         "sliced COO slice pointers"},
        {&d->col, L->col, (size_t)L->nnz * sizeof(int32_t), "sliced COO columns"},
        {&d->row, L->row, (size_t)L->nnz * sizeof(uint16_t), "sliced COO rows"},
    };
    return SPIRA__DEV_CLONE(ctx, dev, arrays);
}

/* The host conversion's layout built on the GPU from the pattern's device copy: the same
 * options, the same slices and entries (gf2_build_gpu.cu). */
static spira_status gf2_sliced_dev_build(spira_context ctx, const spira__csr *A,
                                         const spira__csr_dev *dA, const char *opts, void *dev,
                                         size_t *bytes)
{
    int words, share;
    long rows;
    SPIRA__TRY(spira__gf2_sliced_options(ctx, opts, &words, &share, &rows));
    spira__gf2_sliced_dev *d = (spira__gf2_sliced_dev *)dev;
    d->nrows = A->nrows;
    d->rows = (int32_t)rows;
    d->share = share;
    d->words = words;
    d->parts = 1;
    int32_t *drow = NULL;
    SPIRA__TRY(spira__cuda_malloc(ctx, (void **)&drow, (size_t)A->nnz * sizeof(int32_t),
                                  "sliced COO rows (scratch)"));
    spira_status s = spira__rows_dev_expand(ctx, A->nrows, dA->row_ptr, A->nnz, drow);
    if (s == SPIRA_OK) s = spira__gf2_dev_bands(ctx, dev, dA, drow, NULL, 1, d);
    spira__cuda_free(ctx, drow);
    if (s != SPIRA_OK) return s;
    spira__gf2_sliced h = {};
    h.nslices = d->nslices;
    h.nnz = d->nnz;
    *bytes = spira__gf2_sliced_bytes(&h);
    return SPIRA_OK;
}

/* Y = M X: alpha 1, beta 0 (gf2.h) */
static spira_status gf2_sliced_dev_apply(spira_context ctx, void *dev, double alpha,
                                         const void *x, double beta, void *y)
{
    (void)alpha, (void)beta;
    return spira__gf2_sliced_dev_run(ctx, (const spira__gf2_sliced_dev *)dev, NULL, 0,
                                     (const u64 *)x, (u64 *)y);
}

extern "C" const spira__format_gpu spira__gf2_csr_gpu = {
    .handle = sizeof(csr_dev),
    .upload = gf2_csr_dev_upload,
    .apply = gf2_csr_dev_apply,
};

extern "C" const spira__format_gpu spira__gf2_sliced_gpu = {
    .handle = sizeof(spira__gf2_sliced_dev),
    .upload = gf2_sliced_dev_upload,
    .build = gf2_sliced_dev_build,
    .apply = gf2_sliced_dev_apply,
};
