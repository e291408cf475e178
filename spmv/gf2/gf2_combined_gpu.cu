/*
 * gf2_combined_gpu.cu - the combined GF(2) format's device half (see gf2_parts.h): the
 * multiply (Y zeroed, the bitmap's kernel, then each band's sliced kernel, all XORing into
 * Y's rows through perm) and the conversion on the GPU, the host's steps (gf2_combined.c)
 * with CUB: rows by weight (a stable radix sort of maxweight - weight), the rows' entries
 * gathered in that order, column counts and classes, the bitmap's columns by a scan of the
 * dense flags, then the bitmap and the bands (gf2_build_gpu.cu).
 *
 * A band's slices may be few (the large sub-format's 6,144 rows make 163 slices of a 10^6-row
 * matrix, against 132 SMs): its entries are then shared by `parts` blocks a slice, each
 * XORing its partial rows into Y atomically (spira__gf2_sliced_dev_parts). XOR is exact, so
 * the bits do not depend on the split.
 */
#include "gf2_dev.cuh"
#include "rows_gpu.cuh"
#include "cuda/check.cuh"

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

namespace {

typedef unsigned long long u64;
constexpr int kBlock = 256;

typedef spira__gf2_combined_dev combined_dev;

cudaStream_t stream_of(spira_context ctx) { return (cudaStream_t)spira__cuda_stream(ctx); }

/* 1 where row i + 1 is heavier than row i: the rows are in weight order when none is */
struct heavier_next {
    const int *rp;
    int nrows;
    __host__ __device__ int operator()(int i) const
    {
        return i + 1 < nrows && rp[i + 2] - rp[i + 1] > rp[i + 1] - rp[i];
    }
};

/* the weight of the i-th row in order, from the sorted keys maxw - weight; 0 past the end */
struct sorted_weight {
    const int *key;
    int nrows, maxw;
    __host__ __device__ int operator()(int i) const { return i < nrows ? maxw - key[i] : 0; }
};

struct is_dense {
    const unsigned char *cls;
    int ncols;
    __host__ __device__ int operator()(int j) const { return j < ncols && cls[j] == 0; }
};

__global__ void __launch_bounds__(kBlock)
    weight_keys_kernel(int nrows, int maxw, const int *__restrict__ rp, int *__restrict__ key,
                       int *__restrict__ row)
{
    const unsigned stride = gridDim.x * blockDim.x;
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < (unsigned)nrows; i += stride) {
        key[i] = maxw - (rp[i + 1] - rp[i]);
        row[i] = (int)i;
    }
}

__global__ void __launch_bounds__(kBlock)
    invert_kernel(int n, const int *__restrict__ perm, int *__restrict__ inv)
{
    const unsigned stride = gridDim.x * blockDim.x;
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < (unsigned)n; i += stride)
        inv[perm[i]] = (int)i;
}

/* entry k of row r goes to the place of its row in the order, inv[r] */
__global__ void __launch_bounds__(kBlock)
    gather_rows_kernel(int nnz, const int *__restrict__ rp, const int *__restrict__ ci,
                       const int *__restrict__ drow, const int *__restrict__ inv,
                       const int *__restrict__ prp, int *__restrict__ pci)
{
    const unsigned stride = gridDim.x * blockDim.x;
    for (unsigned k = blockIdx.x * blockDim.x + threadIdx.x; k < (unsigned)nnz; k += stride) {
        const int r = drow[k];
        pci[prp[inv[r]] + ((int)k - rp[r])] = ci[k];
    }
}

__global__ void __launch_bounds__(kBlock)
    count_columns_kernel(int nnz, const int *__restrict__ ci, int *__restrict__ count)
{
    const unsigned stride = gridDim.x * blockDim.x;
    for (unsigned k = blockIdx.x * blockDim.x + threadIdx.x; k < (unsigned)nnz; k += stride)
        atomicAdd(&count[ci[k]], 1);
}

__global__ void __launch_bounds__(kBlock)
    classes_kernel(int ncols, int nrows, spira__gf2_cuts cuts, const int *__restrict__ count,
                   unsigned char *__restrict__ cls)
{
    const unsigned stride = gridDim.x * blockDim.x;
    for (unsigned j = blockIdx.x * blockDim.x + threadIdx.x; j < (unsigned)ncols; j += stride)
        cls[j] = (unsigned char)spira__gf2_column_class(&cuts, count[j], nrows);
}

__global__ void __launch_bounds__(kBlock)
    dense_columns_kernel(int ncols, const unsigned char *__restrict__ cls,
                         const int *__restrict__ dpos, int *__restrict__ dcol)
{
    const unsigned stride = gridDim.x * blockDim.x;
    for (unsigned j = blockIdx.x * blockDim.x + threadIdx.x; j < (unsigned)ncols; j += stride)
        if (cls[j] == 0) dcol[dpos[j]] = (int)j;
}

/* ---- the conversion on the GPU ------------------------------------------------------------ */

/* *perm_out: d->perm filled (rows by weight) or left NULL when the rows are in order; *keys
 * the sorted keys maxw - weight (scratch of the caller's, nrows ints), *maxw. */
spira_status order_rows(spira_context ctx, void *dev, const spira__csr_dev *dA, combined_dev *d,
                        dev_buf &keys, int *maxw)
{
    cudaStream_t st = stream_of(ctx);
    const int m = dA->nrows;
    d->perm = NULL;
    if (m < 2) return SPIRA_OK;
    /* rows already in weight order (the sieve generator's, equal weights): no permutation */
    auto heavier = thrust::make_transform_iterator(thrust::make_counting_iterator(0),
                                                   heavier_next{dA->row_ptr, m});
    size_t tb = 0;
    SPIRA__CUDA(ctx, cub::DeviceReduce::Sum(nullptr, tb, heavier, (int *)nullptr, m, st));
    {
        dev_buf s(ctx);
        SPIRA__TRY(s.alloc(256 + tb, "row order check (CUB scratch)"));
        SPIRA__CUDA(ctx, cub::DeviceReduce::Sum((char *)s.p + 256, tb, heavier, (int *)s.p, m, st));
        int out_of_order = 0;
        SPIRA__TRY(spira__cuda_download(ctx, &out_of_order, s.p, sizeof out_of_order));
        SPIRA__TRY(spira__cuda_synchronize(ctx));
        if (!out_of_order) return SPIRA_OK;
    }
    SPIRA__TRY(spira__rows_dev_max(ctx, dA, maxw));
    const spira__dev_array arrays[] = {
        {&d->perm, NULL, (size_t)m * sizeof(int32_t), "combined row order"},
    };
    SPIRA__TRY(SPIRA__DEV_CLONE(ctx, dev, arrays));
    dev_buf in(ctx), temp(ctx);
    SPIRA__TRY(in.alloc(2 * (size_t)m * sizeof(int), "combined row order (scratch)"));
    SPIRA__TRY(keys.alloc((size_t)m * sizeof(int), "combined row weights (scratch)"));
    int *kin = (int *)in.p, *rows = kin + m;
    weight_keys_kernel<<<spira__blocks(m, kBlock), kBlock, 0, st>>>(m, *maxw, dA->row_ptr, kin,
                                                                     rows);
    SPIRA__LAUNCHED(ctx);
    int eb = 1;
    while (eb < 31 && (1LL << eb) <= *maxw) eb++;
    SPIRA__CUDA(ctx, cub::DeviceRadixSort::SortPairs(nullptr, tb, kin, (int *)keys.p, rows, d->perm,
                                                     m, 0, eb, st));
    SPIRA__TRY(temp.alloc(tb, "combined row order (CUB scratch)"));
    SPIRA__CUDA(ctx, cub::DeviceRadixSort::SortPairs(temp.p, tb, kin, (int *)keys.p, rows, d->perm,
                                                     m, 0, eb, st));
    return spira__cuda_synchronize(ctx);
}

spira_status combined_build(spira_context ctx, const spira__csr *A, const spira__csr_dev *dA,
                            const char *opts, void *dev, size_t *bytes)
{
    cudaStream_t st = stream_of(ctx);
    combined_dev *d = (combined_dev *)dev;
    int words;
    spira__gf2_cuts cuts;
    SPIRA__TRY(spira__gf2_opt_words(ctx, opts, &words));
    SPIRA__TRY(spira__gf2_combined_cuts(ctx, opts, &cuts));
    const int m = A->nrows, n = A->ncols, nnz = A->nnz;
    d->nrows = m;
    d->words = words;
    /* the rows in order: P, and each entry's row in P */
    dev_buf keys(ctx), prp(ctx), pci(ctx), drow(ctx), drow0(ctx), inv(ctx);
    int maxw = 0;
    SPIRA__TRY(order_rows(ctx, dev, dA, d, keys, &maxw));
    spira__csr_dev P = *dA;
    SPIRA__TRY(drow.alloc((size_t)nnz * sizeof(int32_t), "combined entry rows (scratch)"));
    if (d->perm) {
        SPIRA__TRY(prp.alloc(((size_t)m + 1) * sizeof(int32_t), "combined row pointers (scratch)"));
        SPIRA__TRY(pci.alloc((size_t)nnz * sizeof(int32_t), "combined columns (scratch)"));
        SPIRA__TRY(inv.alloc((size_t)m * sizeof(int32_t), "combined row places (scratch)"));
        SPIRA__TRY(drow0.alloc((size_t)nnz * sizeof(int32_t), "combined entry rows (scratch)"));
        auto w = thrust::make_transform_iterator(thrust::make_counting_iterator(0),
                                                 sorted_weight{(const int *)keys.p, m, maxw});
        size_t tb = 0;
        SPIRA__CUDA(ctx, cub::DeviceScan::ExclusiveSum(nullptr, tb, w, (int *)prp.p, m + 1, st));
        {
            dev_buf temp(ctx);
            SPIRA__TRY(temp.alloc(tb, "combined row pointers (CUB scratch)"));
            SPIRA__CUDA(ctx, cub::DeviceScan::ExclusiveSum(temp.p, tb, w, (int *)prp.p, m + 1, st));
            SPIRA__TRY(spira__cuda_synchronize(ctx));
        }
        invert_kernel<<<spira__blocks(m, kBlock), kBlock, 0, st>>>(m, d->perm, (int *)inv.p);
        SPIRA__LAUNCHED(ctx);
        SPIRA__TRY(spira__rows_dev_expand(ctx, m, dA->row_ptr, nnz, (int *)drow0.p));
        if (nnz > 0) {
            gather_rows_kernel<<<spira__blocks(nnz, kBlock), kBlock, 0, st>>>(
                nnz, dA->row_ptr, dA->col_idx, (const int *)drow0.p, (const int *)inv.p,
                (const int *)prp.p, (int *)pci.p);
            SPIRA__LAUNCHED(ctx);
        }
        P.row_ptr = (int32_t *)prp.p;
        P.col_idx = (int32_t *)pci.p;
    }
    SPIRA__TRY(spira__rows_dev_expand(ctx, m, P.row_ptr, nnz, (int *)drow.p));
    /* the columns' classes, and the bitmap's columns: a scan of the dense flags */
    dev_buf count(ctx), cls(ctx), dpos(ctx);
    SPIRA__TRY(count.alloc((size_t)n * sizeof(int), "combined column counts (scratch)"));
    SPIRA__TRY(cls.alloc((size_t)n, "combined column classes (scratch)"));
    SPIRA__TRY(dpos.alloc(((size_t)n + 1) * sizeof(int), "combined bitmap places (scratch)"));
    SPIRA__TRY(spira__cuda_zero(ctx, count.p, (size_t)n * sizeof(int)));
    if (nnz > 0) {
        count_columns_kernel<<<spira__blocks(nnz, kBlock), kBlock, 0, st>>>(nnz, dA->col_idx,
                                                                            (int *)count.p);
        SPIRA__LAUNCHED(ctx);
    }
    if (n > 0) {
        classes_kernel<<<spira__blocks(n, kBlock), kBlock, 0, st>>>(
            n, m, cuts, (const int *)count.p, (unsigned char *)cls.p);
        SPIRA__LAUNCHED(ctx);
    }
    auto flags = thrust::make_transform_iterator(thrust::make_counting_iterator(0),
                                                 is_dense{(const unsigned char *)cls.p, n});
    size_t tb = 0;
    SPIRA__CUDA(ctx, cub::DeviceScan::ExclusiveSum(nullptr, tb, flags, (int *)dpos.p, n + 1, st));
    int ndense = 0;
    {
        dev_buf temp(ctx);
        SPIRA__TRY(temp.alloc(tb, "combined bitmap places (CUB scratch)"));
        SPIRA__CUDA(ctx, cub::DeviceScan::ExclusiveSum(temp.p, tb, flags, (int *)dpos.p, n + 1, st));
        SPIRA__TRY(spira__cuda_download(ctx, &ndense, (int *)dpos.p + n, sizeof ndense));
        SPIRA__TRY(spira__cuda_synchronize(ctx));
    }
    d->dense.nrows = m;
    d->dense.ndense = ndense;
    d->dense.words = words;
    const spira__dev_array dcol[] = {
        {&d->dense.col, NULL, (size_t)ndense * sizeof(int32_t), "dense bitmap columns"},
    };
    SPIRA__TRY(SPIRA__DEV_CLONE(ctx, dev, dcol));
    if (ndense > 0) {
        dense_columns_kernel<<<spira__blocks(n, kBlock), kBlock, 0, st>>>(
            n, (const unsigned char *)cls.p, (const int *)dpos.p, d->dense.col);
        SPIRA__LAUNCHED(ctx);
    }
    SPIRA__TRY(spira__gf2_dev_dense(ctx, dev, &P, (const int *)drow.p, (const uint8_t *)cls.p,
                                    (const int *)dpos.p, &d->dense));
    for (int b = 0; b < SPIRA__GF2_BANDS; b++) {
        spira__gf2_sliced_dev *B = &d->band[b];
        B->nrows = m;
        B->share = cuts.share[b];
        B->words = words;
        B->rows = spira__gf2_sliced_fit(cuts.share[b], words);
    }
    SPIRA__TRY(spira__gf2_dev_bands(ctx, dev, &P, (const int *)drow.p, (const uint8_t *)cls.p,
                                    SPIRA__GF2_BANDS, d->band));
    /* what the host layout's bytes say (gf2_combined.c) */
    spira__gf2_dense hd = {};
    hd.ngroups = d->dense.ngroups;
    hd.ndense = d->dense.ndense;
    *bytes = (d->perm ? (size_t)m * sizeof(int32_t) : 0) + spira__gf2_dense_bytes(&hd);
    for (int b = 0; b < SPIRA__GF2_BANDS; b++) {
        SPIRA__TRY(spira__gf2_sliced_dev_parts(ctx, &d->band[b], cuts.parts));
        if (d->band[b].nnz == 0) continue;
        spira__gf2_sliced hb = {};
        hb.nslices = d->band[b].nslices;
        hb.nnz = d->band[b].nnz;
        *bytes += spira__gf2_sliced_bytes(&hb);
    }
    return spira__cuda_synchronize(ctx); /* before the scratch goes */
}

} // namespace

static spira_status gf2_combined_dev_upload(spira_context ctx, const void *layout, void *dev)
{
    const spira__gf2_combined *L = (const spira__gf2_combined *)layout;
    combined_dev *d = (combined_dev *)dev;
    d->nrows = L->nrows;
    d->words = L->words;
    const spira__gf2_dense *D = &L->dense;
    d->dense.nrows = D->nrows;
    d->dense.ngroups = D->ngroups;
    d->dense.ndense = D->ndense;
    d->dense.words = D->words;
    if (L->perm) {
        const spira__dev_array perm[] = {
            {&d->perm, L->perm, (size_t)L->nrows * sizeof(int32_t), "combined row order"},
        };
        SPIRA__TRY(SPIRA__DEV_CLONE(ctx, dev, perm));
    }
    const spira__dev_array arrays[] = {
        {&d->dense.col, D->col, (size_t)D->ndense * sizeof(int32_t), "dense bitmap columns"},
        {&d->dense.bits, D->bits, (size_t)D->ngroups * (size_t)D->ndense * sizeof(uint32_t),
         "dense bitmap"},
    };
    SPIRA__TRY(SPIRA__DEV_CLONE(ctx, dev, arrays));
    for (int b = 0; b < SPIRA__GF2_BANDS; b++) {
        const spira__gf2_sliced *h = &L->band[b];
        spira__gf2_sliced_dev *B = &d->band[b];
        B->nrows = L->nrows;
        B->nnz = h->nnz;
        B->nslices = h->nnz ? h->nslices : 0;
        B->rows = h->rows;
        B->share = h->share;
        B->words = h->words;
        if (!h->nnz) continue;
        const spira__dev_array band[] = {
            {&B->slice_ptr, h->slice_ptr, ((size_t)h->nslices + 1) * sizeof(int32_t),
             "sliced COO slice pointers"},
            {&B->col, h->col, (size_t)h->nnz * sizeof(int32_t), "sliced COO columns"},
            {&B->row, h->row, (size_t)h->nnz * sizeof(uint16_t), "sliced COO rows"},
        };
        SPIRA__TRY(SPIRA__DEV_CLONE(ctx, dev, band));
        SPIRA__TRY(spira__gf2_sliced_dev_parts(ctx, B, L->cuts.parts));
    }
    return SPIRA_OK;
}

static spira_status gf2_combined_dev_build(spira_context ctx, const spira__csr *A,
                                           const spira__csr_dev *dA, const char *opts,
                                           void *dev, size_t *bytes)
{
    return combined_build(ctx, A, dA, opts, dev, bytes);
}

/* Y = M X: alpha 1, beta 0 (gf2.h): zeros, then each piece XORs its rows in. */
static spira_status gf2_combined_dev_apply(spira_context ctx, void *dev, double alpha,
                                           const void *vx, double beta, void *vy)
{
    (void)alpha, (void)beta;
    const combined_dev *d = (const combined_dev *)dev;
    if (d->nrows == 0) return SPIRA_OK;
    const u64 *x = (const u64 *)vx;
    u64 *y = (u64 *)vy;
    SPIRA__TRY(spira__cuda_zero(ctx, y, (size_t)d->nrows * d->words * sizeof(u64)));
    SPIRA__TRY(spira__gf2_dense_dev_run(ctx, &d->dense, d->perm, x, y));
    for (int b = 0; b < SPIRA__GF2_BANDS; b++)
        SPIRA__TRY(spira__gf2_sliced_dev_run(ctx, &d->band[b], d->perm, 1, x, y));
    return SPIRA_OK;
}

extern "C" const spira__format_gpu spira__gf2_combined_gpu = {
    .handle = sizeof(combined_dev),
    .upload = gf2_combined_dev_upload,
    .build = gf2_combined_dev_build,
    .apply = gf2_combined_dev_apply,
};
