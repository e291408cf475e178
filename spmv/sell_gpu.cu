/*
 * sell_gpu.cu - the SELL-C-sigma kernel (Kreutzer et al. 2014; layout in sell.h): a warp
 * a slice, a thread a row of it. In step k the 32 lanes read the slice's entries k*32 +
 * lane, consecutive addresses, so every matrix load is coalesced as in ELL, but each slice
 * is only as wide as its own longest row. A row's padding slots (column -1) are skipped;
 * its sum goes to y at the row's original index (perm). A matrix of few slices gives each
 * slice 2, 4 or 8 warps, each a share of its steps, added in warp order.
 *
 * A wide slice (more than kWide entries a row: a power-law graph's hubs, a circuit's dense
 * rows, sorted together by sigma) would be one warp's serial loop as long as its longest
 * row, tens of thousands of steps on an R-MAT graph, longer than another format's whole
 * multiply (bench/results/2026-11-26-h200x2-session11). Such slices are cut into chunks
 * of kChunk steps, a warp a chunk (each lane its row's kChunk entries there, still
 * coalesced), whose sums a second kernel adds up for each row in a fixed order: the same
 * bits on every run, no atomics. Which slices are wide and their chunks are read off
 * slice_ptr when the layout reaches the device (wide_plan); the layout itself does not
 * change, so the host conversion and the GPU's stay byte for byte.
 *
 * The conversion on the GPU (sell_dev_build) makes the host conversion's layout array for
 * array: the longest row K (a reduce, one wait), the rows sorted by (window, K - length)
 * with a stable sort (sort_gpu.cuh; ties in row order, as sell.c's keys end with the
 * row), so perm is the host's; each slice's width as the longest of its 32 rows (a warp a
 * slice, a shuffle max), an exclusive scan of the widths in 64 bits (the one more wait:
 * the slot count, checked against the 32-bit index range and sized before the columns and
 * values are allocated), then the fill: a warp a run of steps of the layout (a step: slot
 * k*32 + lane of a slice, the row's k-th entry or padding), whatever slices they fall in, so
 * the fill's writes are coalesced as the multiply's reads and a slice of dense rows is many
 * warps' work. Last, the slice pointers come back to the host (a third wait) for wide_plan.
 */
#include "device.h"
#include "rows_gpu.cuh"
#include "sell.h"
#include "sort_gpu.cuh"
#include "cuda/check.cuh"
#include "cuda/gateway.h"

#include <cub/device/device_scan.cuh>

namespace {

constexpr int kSellBlock = 256;
constexpr int kWide = 64; /* steps (entries a row) a warp, above which a slice is chunked */
/* About two waves of warps on an H100 (132 SMs of 64): sell_kernel gives a slice more warps
 * while the slices' warps are fewer */
constexpr long long kTargetWarps = 16384;
constexpr int kChunk = 32; /* steps of a chunk: a warp's loop about as long as a narrow slice's */
constexpr int kSumThreads = 1024; /* a block adding up a wide slice's chunks */
constexpr int kFillSteps = 8;     /* steps of the layout a warp of the fill writes */
static_assert(SPIRA__SELL_C == 32, "a slice is a warp");

/* The handle: first the host layout's struct, its arrays on the device (slice_ptr, perm,
 * cols, vals; tests read the handle as a spira__sell), its stats written by the build or
 * copied by the upload; then the wide slices' chunks (none: nwide 0, arrays NULL). */
struct sell_dev {
    spira__sell s;
    int32_t group;         /* warps a slice in sell_kernel: 1, 2, 4 or 8 */
    int32_t nwide, nitems; /* slices wider than kWide steps a warp; their chunks in all */
    int32_t *wide_slice;   /* nwide: the slice */
    int32_t *wide_item;    /* nwide + 1: its first chunk (chunks in slice order) */
    int32_t *item_wide;    /* nitems: the wide slice a chunk belongs to */
    void *partial;         /* nitems x 32 sums, a chunk's lanes */
};

/* The sort key of row i: its window above its length's complement to K, so that the sort
 * keeps windows apart and puts longer rows first within them. */
struct window_key {
    const int *rp;
    int sigma, K, lbits;
    __device__ unsigned long long operator()(int i) const
    {
        const unsigned long long w = (unsigned)(i / sigma);
        return w << lbits | (unsigned)(K - (rp[i + 1] - rp[i]));
    }
};

/* w[s] = 32 * the longest of slice s's rows (perm order), w[nslices] = 0: a warp a slice. */
__global__ void __launch_bounds__(kSellBlock)
    width_kernel(int nrows, int nslices, const int *__restrict__ rp, const int *__restrict__ perm,
                 long long *__restrict__ w)
{
    const unsigned lane = threadIdx.x & 31u;
    const unsigned nwarps = gridDim.x * (blockDim.x / 32);
    const unsigned first = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    if (first == 0 && lane == 0) w[nslices] = 0;
    for (unsigned sl = first; sl < (unsigned)nslices; sl += nwarps) {
        const unsigned r = sl * 32 + lane;
        int len = 0;
        if (r < (unsigned)nrows) {
            const int i = perm[r];
            len = rp[i + 1] - rp[i];
        }
#pragma unroll
        for (int off = 16; off > 0; off >>= 1)
            len = max(len, __shfl_xor_sync(0xffffffffu, len, off));
        if (lane == 0) w[sl] = 32LL * len;
    }
}

/* The fill, a warp a run of kFillSteps steps of the whole layout, a step being one slot of
 * each of a slice's 32 rows (slots q..q+31 with q a multiple of 32: widths are multiples of
 * 32, so a step never straddles two slices): lane l writes row sl*32 + l's entry k there, or
 * padding. The run's first slice is found by a binary search over at (the scanned widths,
 * slots <= INT32_MAX), the next ones by walking. A dense row's slice is many warps' work, as
 * in the multiply's chunks, not one warp's loop as long as the row (16.9 ms of setup on a
 * circuit matrix's 40 dense rows when it was). The first threads also copy at into
 * slice_ptr. */
template <typename T>
__global__ void __launch_bounds__(kSellBlock)
    sell_fill_kernel(int nrows, int nslices, const long long *__restrict__ at,
                     const int *__restrict__ perm, const int *__restrict__ rp,
                     const int *__restrict__ ci, const T *__restrict__ v,
                     int *__restrict__ slice_ptr, int *__restrict__ cols, T *__restrict__ vals)
{
    const unsigned t = blockIdx.x * blockDim.x + threadIdx.x, stride = gridDim.x * blockDim.x;
    for (unsigned sl = t; sl <= (unsigned)nslices; sl += stride) slice_ptr[sl] = (int)at[sl];
    const unsigned lane = threadIdx.x & 31u, nwarps = stride / 32;
    const long long steps = at[nslices] / 32;
    for (long long g = t / 32; g * kFillSteps < steps; g += nwarps) {
        long long step = g * kFillSteps;
        const long long last = min(step + kFillSteps, steps);
        int lo = 0, hi = nslices; /* the last slice whose first step is <= step */
        while (hi - lo > 1) {
            const int mid = lo + (hi - lo) / 2;
            if (at[mid] <= step * 32) lo = mid;
            else hi = mid;
        }
        int sl = lo - 1, b = 0, len = 0;
        long long next = at[lo]; /* where the slice after sl starts (sl + 1 = lo first) */
        for (; step < last; step++) {
            const long long q = step * 32;
            while (q >= next) { /* into the next slice (empty ones passed over) */
                sl++;
                next = at[sl + 1];
                const unsigned r = (unsigned)sl * 32 + lane;
                b = 0, len = 0;
                if (r < (unsigned)nrows) {
                    const int i = perm[r];
                    b = rp[i];
                    len = rp[i + 1] - b;
                }
            }
            const int k = (int)((q - at[sl]) / 32);
            const bool entry = k < len;
            cols[q + lane] = entry ? ci[b + k] : -1;
            vals[q + lane] = entry ? v[b + k] : T(0);
        }
    }
}

/* G warps a slice (1, 2, 4 or 8; wide_plan chooses): warp j of a slice's group steps
 * through its steps j, j + G, j + 2G, ..., and the group's first warp adds the others' sums
 * to its own in warp order (shared memory): a fixed order, so the same bits every run. With
 * few slices (a matrix of a few thousand rows) one warp a slice leaves most of the GPU idle
 * while each warp walks its slice's whole width, step after dependent step. */
template <typename T, int G>
__global__ void __launch_bounds__(kSellBlock)
    sell_kernel(int nrows, int nslices, const int *__restrict__ slice_ptr,
                const int *__restrict__ perm, const int *__restrict__ cols,
                const T *__restrict__ vals, const T *__restrict__ x, T alpha, T beta,
                T *__restrict__ y)
{
    constexpr int kWarps = kSellBlock / 32, kSlices = kWarps / G; /* slices a block takes */
    __shared__ T part[G > 1 ? kWarps : 1][32];
    const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x / 32;
    const unsigned j = warp % G, first = warp - j;
    for (unsigned base = blockIdx.x * kSlices; base < (unsigned)nslices;
         base += gridDim.x * kSlices) { /* the same trip count for the whole block */
        const unsigned sl = base + warp / G;
        /* slots <= INT32_MAX (checked at conversion); unsigned because the step after a
         * slice's last entry may pass it */
        unsigned begin = 0, end = 0;
        bool mine = false; /* a slice of this kernel's (a wide one is sell_wide_kernel's) */
        if (sl < (unsigned)nslices) {
            begin = __ldg(&slice_ptr[sl]), end = __ldg(&slice_ptr[sl + 1]);
            mine = end - begin <= 32u * kWide * G;
            if (!mine) end = begin;
        }
        /* every lane steps through the whole slice (the warp waits for its longest row
         * anyway) and skips padding by a predicate, not a break: the trip count is the
         * warp's, so the unrolled steps' loads are issued together instead of each waiting
         * for the column before it */
        T sum = 0;
#pragma unroll 4
        for (unsigned at = begin + 32u * j + lane; at < end; at += 32u * G) {
            const int c = __ldcs(&cols[at]); /* read once: evict first, keep x cached */
            const T v = __ldcs(&vals[at]);
            if (c >= 0) sum += v * __ldg(&x[c]);
        }
        if (G > 1) {
            part[warp][lane] = sum;
            __syncthreads();
            if (j == 0)
                for (int k = 1; k < G; k++) sum += part[first + k][lane];
        }
        const unsigned r = sl * 32 + lane;
        if (j == 0 && mine && r < (unsigned)nrows) {
            const int i = __ldg(&perm[r]);
            y[i] = beta == T(0) ? alpha * sum : alpha * sum + beta * y[i];
        }
        if (G > 1) __syncthreads(); /* part is rewritten for the next slices */
    }
}

/* A warp a chunk of a wide slice: lane l sums row l's entries in the chunk's kChunk steps
 * into partial[item * 32 + l]. Padding (column -1, value 0) is skipped by a predicate
 * rather than a break, so that the loads of successive steps need not wait for each other:
 * a wide slice's rows, sorted longest first, are mostly entries. */
template <typename T>
__global__ void __launch_bounds__(kSellBlock)
    sell_wide_kernel(int nitems, const int *__restrict__ slice_ptr,
                     const int *__restrict__ wide_slice, const int *__restrict__ wide_item,
                     const int *__restrict__ item_wide, const int *__restrict__ cols,
                     const T *__restrict__ vals, const T *__restrict__ x, T *__restrict__ partial)
{
    const unsigned lane = threadIdx.x & 31u;
    const unsigned nwarps = gridDim.x * (blockDim.x / 32);
    for (unsigned it = (blockIdx.x * blockDim.x + threadIdx.x) / 32; it < (unsigned)nitems;
         it += nwarps) {
        const int w = __ldg(&item_wide[it]), sl = __ldg(&wide_slice[w]);
        const unsigned chunk = it - (unsigned)__ldg(&wide_item[w]);
        const unsigned end = __ldg(&slice_ptr[sl + 1]);
        const unsigned first = __ldg(&slice_ptr[sl]) + chunk * (32u * kChunk) + lane;
        T sum = 0;
#pragma unroll 4
        for (int k = 0; k < kChunk; k++) {
            const unsigned at = first + 32u * (unsigned)k;
            if (at >= end) break; /* the slice's last chunk: the same for every lane */
            const int c = cols[at];
            const T v = vals[at];
            if (c >= 0) sum += v * __ldg(&x[c]);
        }
        partial[(size_t)it * 32 + lane] = sum;
    }
}

/* A block a wide slice: warp j adds lane l's chunk sums j, j + 32, j + 64, ... in order,
 * then warp 0 adds the 32 warps' in warp order and writes y: a fixed order, so the same
 * bits every run, and a slice of thousands of chunks is 32 short loops, not one long one. */
template <typename T>
__global__ void __launch_bounds__(kSumThreads)
    sell_wide_sum_kernel(int nrows, int nwide, const int *__restrict__ wide_slice,
                         const int *__restrict__ wide_item, const int *__restrict__ perm,
                         const T *__restrict__ partial, T alpha, T beta, T *__restrict__ y)
{
    constexpr int kWarps = kSumThreads / 32;
    __shared__ T warp_sum[kWarps][32];
    const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x / 32;
    for (unsigned w = blockIdx.x; w < (unsigned)nwide; w += gridDim.x) {
        const int end = __ldg(&wide_item[w + 1]);
        T sum = 0;
#pragma unroll 4
        for (int it = __ldg(&wide_item[w]) + (int)warp; it < end; it += kWarps)
            sum += partial[(size_t)it * 32 + lane];
        warp_sum[warp][lane] = sum;
        __syncthreads();
        const unsigned r = (unsigned)__ldg(&wide_slice[w]) * 32 + lane;
        if (warp == 0 && r < (unsigned)nrows) {
            T total = 0;
            for (int k = 0; k < kWarps; k++) total += warp_sum[k][lane];
            const int i = __ldg(&perm[r]);
            y[i] = beta == T(0) ? alpha * total : alpha * total + beta * y[i];
        }
        __syncthreads(); /* warp_sum is rewritten for the next slice */
    }
}

template <typename T>
spira_status sell_launch(spira_context ctx, const sell_dev *d, double alpha, const void *x,
                         double beta, void *y)
{
    cudaStream_t st = (cudaStream_t)spira__cuda_stream(ctx);
    const spira__sell *S = &d->s;
    auto kernel = d->group == 8   ? sell_kernel<T, 8>
                  : d->group == 4 ? sell_kernel<T, 4>
                  : d->group == 2 ? sell_kernel<T, 2>
                                  : sell_kernel<T, 1>;
    kernel<<<spira__blocks((long long)S->nslices * 32 * d->group, kSellBlock), kSellBlock, 0,
             st>>>(S->nrows, S->nslices, S->slice_ptr, S->perm, S->cols, (const T *)S->vals,
                   (const T *)x, (T)alpha, (T)beta, (T *)y);
    SPIRA__LAUNCHED(ctx);
    if (d->nwide == 0) return SPIRA_OK;
    sell_wide_kernel<T><<<spira__blocks((long long)d->nitems * 32, kSellBlock), kSellBlock, 0,
                          st>>>(d->nitems, S->slice_ptr, d->wide_slice, d->wide_item,
                                d->item_wide, S->cols, (const T *)S->vals, (const T *)x,
                                (T *)d->partial);
    SPIRA__LAUNCHED(ctx);
    sell_wide_sum_kernel<T><<<spira__blocks((long long)d->nwide * kSumThreads, kSumThreads),
                              kSumThreads, 0, st>>>(S->nrows, d->nwide, d->wide_slice, d->wide_item, S->perm,
                                       (const T *)d->partial, (T)alpha, (T)beta, (T *)y);
    SPIRA__LAUNCHED(ctx);
    return SPIRA_OK;
}

/* The multiply's plan from a layout whose slice pointers are sp (host, nslices + 1), into
 * d: the warps a slice (d->group: doubled while the slices' warps stay under kTargetWarps
 * and each warp keeps at least 4 steps of a mean slice), then the slices wider than kWide
 * steps a warp and their chunks, onto the device (nothing when there are none). */
spira_status wide_plan(spira_context ctx, const int32_t *sp, sell_dev *d)
{
    const spira__sell *S = &d->s;
    const double mean_steps = S->nslices ? (double)sp[S->nslices] / 32 / S->nslices : 0;
    d->group = 1;
    while (d->group < 8 && (int64_t)S->nslices * d->group < kTargetWarps &&
           mean_steps >= 4.0 * 2 * d->group)
        d->group *= 2;
    const int64_t wide = (int64_t)kWide * d->group;
    int64_t nwide = 0, nitems = 0;
    for (int32_t sl = 0; sl < S->nslices; sl++) {
        const int64_t steps = ((int64_t)sp[sl + 1] - sp[sl]) / 32;
        if (steps > wide) nwide++, nitems += (steps + kChunk - 1) / kChunk;
    }
    if (nwide == 0) return SPIRA_OK;
    /* nitems <= slots / (32 kChunk) < 2^31 / 1024 */
    int32_t *h = (int32_t *)spira__malloc(((size_t)2 * nwide + 1 + (size_t)nitems) * sizeof(int32_t));
    if (!h) return spira__nomem(ctx, "SELL wide slices", (2 * nwide + 1 + nitems) * sizeof(int32_t));
    int32_t *ws = h, *wi = h + nwide, *iw = wi + nwide + 1;
    int32_t w = 0, it = 0;
    for (int32_t sl = 0; sl < S->nslices; sl++) {
        const int64_t steps = ((int64_t)sp[sl + 1] - sp[sl]) / 32;
        if (steps <= wide) continue;
        ws[w] = sl, wi[w] = it;
        for (int64_t c = 0; c < (steps + kChunk - 1) / kChunk; c++) iw[it++] = w;
        w++;
    }
    wi[w] = it;
    d->nwide = (int32_t)nwide, d->nitems = (int32_t)nitems;
    const spira__dev_array arrays[] = {
        {&d->wide_slice, ws, (size_t)nwide * sizeof(int32_t), "SELL wide slices"},
        {&d->wide_item, wi, ((size_t)nwide + 1) * sizeof(int32_t), "SELL wide slices' chunks"},
        {&d->item_wide, iw, (size_t)nitems * sizeof(int32_t), "SELL chunks' slices"},
        {&d->partial, NULL, (size_t)nitems * 32 * spira_dtype_size(S->dtype), "SELL chunk sums"},
    };
    spira_status r = SPIRA__DEV_CLONE(ctx, d, arrays);
    spira__free(h);
    return r;
}

template <typename T>
spira_status sell_fill(spira_context ctx, const spira__csr_dev *dA, const long long *at,
                       int64_t slots, spira__sell *d)
{
    cudaStream_t st = (cudaStream_t)spira__cuda_stream(ctx);
    /* a warp kFillSteps steps, a thread the slice pointers' copy (grid-stride, capped) */
    const long long steps = (slots / 32 + kFillSteps - 1) / kFillSteps;
    const long long threads = max(steps * 32, (long long)d->nslices + 1);
    sell_fill_kernel<T><<<spira__blocks(threads, kSellBlock), kSellBlock, 0, st>>>(
        d->nrows, d->nslices, at, d->perm, dA->row_ptr, dA->col_idx, (const T *)dA->val,
        d->slice_ptr, d->cols, (T *)d->vals);
    SPIRA__LAUNCHED(ctx);
    return SPIRA_OK;
}

/* The refusal when the scanned widths at (device, nslices + 1) pass INT32_MAX: the first
 * slice whose end does, found by a binary search over single values read back (a refusal
 * only, so its cost does not matter), named as the host names it. */
spira_status refuse(spira_context ctx, const long long *at, int32_t nslices)
{
    int32_t lo = 0, hi = nslices - 1; /* at[hi + 1] > INT32_MAX */
    while (lo < hi) {
        const int32_t mid = lo + (hi - lo) / 2;
        long long v = 0;
        SPIRA__TRY(spira__cuda_download(ctx, &v, at + mid + 1, sizeof v));
        if (v > INT32_MAX) hi = mid;
        else lo = mid + 1;
    }
    long long v = 0;
    SPIRA__TRY(spira__cuda_download(ctx, &v, at + lo + 1, sizeof v));
    return spira__sell_refuse(ctx, lo, nslices, v);
}

/* The slice widths scanned into at (device scratch w and at, nslices + 1 each, CUB's
 * storage after them), *slots = at[nslices] (waited for). */
spira_status slice_slots(spira_context ctx, const spira__csr_dev *dA, const spira__sell *d,
                         long long *w, long long *at, void *temp, size_t temp_bytes,
                         int64_t *slots)
{
    cudaStream_t st = (cudaStream_t)spira__cuda_stream(ctx);
    width_kernel<<<spira__blocks((long long)d->nslices * 32, kSellBlock), kSellBlock, 0, st>>>(
        d->nrows, d->nslices, dA->row_ptr, d->perm, w);
    SPIRA__LAUNCHED(ctx);
    /* the input's type as in sell_build_rows' query, so that both name one instantiation */
    SPIRA__CUDA(ctx, cub::DeviceScan::ExclusiveSum(temp, temp_bytes, (const long long *)w, at,
                                                   d->nslices + 1, st));
    long long total = 0;
    SPIRA__TRY(spira__cuda_download(ctx, &total, at + d->nslices, sizeof total));
    *slots = total;
    return SPIRA_OK;
}

/* The host conversion's steps (sell.c) on the GPU into d, the layout in handle dev, with
 * the scratch of the widths and their scan in one stream-ordered block. */
spira_status sell_build_rows(spira_context ctx, const spira__csr_dev *dA, spira__sell *d,
                             void *dev, int32_t K, int64_t *out_slots)
{
    const size_t wb = spira_sort::aligned(((size_t)d->nslices + 1) * sizeof(long long));
    size_t temp = 0;
    SPIRA__CUDA(ctx, cub::DeviceScan::ExclusiveSum(nullptr, temp, (const long long *)nullptr,
                                                   (long long *)nullptr, d->nslices + 1,
                                                   (cudaStream_t)spira__cuda_stream(ctx)));
    void *s = NULL;
    SPIRA__TRY(spira__cuda_scratch_malloc(ctx, &s, 2 * wb + temp, "SELL slice widths (scratch)"));
    long long *w = (long long *)s, *at = (long long *)((char *)s + wb);
    int64_t slots = 0;
    spira_status r = slice_slots(ctx, dA, d, w, at, (char *)s + 2 * wb, temp, &slots);
    if (r == SPIRA_OK && slots > INT32_MAX) r = refuse(ctx, at, d->nslices);
    if (r == SPIRA_OK) {
        const spira__dev_array arrays[] = {
            {&d->cols, NULL, (size_t)slots * sizeof(int32_t), "SELL columns"},
            {&d->vals, NULL, (size_t)slots * spira_dtype_size(d->dtype), "SELL values"},
        };
        r = SPIRA__DEV_CLONE(ctx, dev, arrays);
    }
    if (r == SPIRA_OK)
        r = d->dtype == SPIRA_R64 ? sell_fill<double>(ctx, dA, at, slots, d)
                                  : sell_fill<float>(ctx, dA, at, slots, d);
    spira__cuda_scratch_free(ctx, s); /* in stream order: after the fill */
    if (r == SPIRA_OK) spira__sell_describe(d, slots, K);
    *out_slots = slots;
    return r;
}

} // namespace

static spira_status sell_dev_build(spira_context ctx, const spira__csr *A,
                                   const spira__csr_dev *dA, const char *opts, void *dev,
                                   size_t *bytes)
{
    sell_dev *h = (sell_dev *)dev;
    spira__sell *d = &h->s;
    SPIRA__TRY(spira__sell_opt_sigma(ctx, opts, &d->sigma));
    d->nrows = A->nrows, d->ncols = A->ncols, d->nnz = A->nnz, d->dtype = A->dtype;
    d->nslices = (int32_t)(((int64_t)A->nrows + SPIRA__SELL_C - 1) / SPIRA__SELL_C);
    const spira__dev_array arrays[] = {
        {&d->slice_ptr, NULL, ((size_t)d->nslices + 1) * sizeof(int32_t), "SELL slice pointers"},
        {&d->perm, NULL, (size_t)d->nrows * sizeof(int32_t), "SELL row permutation"},
    };
    SPIRA__TRY(SPIRA__DEV_CLONE(ctx, dev, arrays));
    if (d->nrows == 0) { /* no slices: slice_ptr = {0}, nothing else */
        SPIRA__TRY(spira__cuda_zero(ctx, d->slice_ptr, sizeof(int32_t)));
        spira__sell_describe(d, 0, 0);
        *bytes = spira__sell_bytes_of(0, 0, 0, d->dtype);
        return SPIRA_OK;
    }
    int32_t K;
    SPIRA__TRY(spira__rows_dev_max(ctx, dA, &K));
    /* sigma 1 does not sort; one window needs no window bits */
    const int wbits = spira__bits_for((unsigned long long)(d->nrows - 1) / (unsigned)d->sigma);
    const int bits = d->sigma == 1 ? 0 : wbits + spira__bits_for((unsigned)K);
    const int lbits = bits - wbits;
    SPIRA__TRY(spira__sort_rows(ctx, d->nrows, bits,
                                window_key{dA->row_ptr, d->sigma, K, lbits}, d->perm,
                                "SELL sort keys (scratch)"));
    int64_t slots = 0;
    SPIRA__TRY(sell_build_rows(ctx, dA, d, dev, K, &slots));
    *bytes = spira__sell_bytes_of(d->nrows, d->nslices, slots, d->dtype);
    /* the wide slices from the slice pointers just built (host copy, nslices + 1) */
    const size_t spb = ((size_t)d->nslices + 1) * sizeof(int32_t);
    int32_t *sp = (int32_t *)spira__malloc(spb);
    if (!sp) return spira__nomem(ctx, "SELL slice pointers (host copy)", spb);
    spira_status r = spira__cuda_download(ctx, sp, d->slice_ptr, spb);
    if (r == SPIRA_OK) r = wide_plan(ctx, sp, h);
    spira__free(sp);
    return r;
}

static const char *sell_dev_stats(const void *dev)
{
    return ((const sell_dev *)dev)->s.stats;
}

static spira_status sell_dev_upload(spira_context ctx, const void *layout, void *dev)
{
    const spira__sell *h = (const spira__sell *)layout;
    sell_dev *hd = (sell_dev *)dev;
    spira__sell *d = &hd->s;
    *d = *h; /* sizes and stats; the arrays are cloned below */
    d->slice_ptr = d->perm = d->cols = NULL;
    d->vals = NULL;
    const size_t slots = (size_t)h->slice_ptr[h->nslices];
    const spira__dev_array arrays[] = {
        {&d->slice_ptr, h->slice_ptr, ((size_t)h->nslices + 1) * sizeof(int32_t),
         "SELL slice pointers"},
        {&d->perm, h->perm, (size_t)h->nrows * sizeof(int32_t), "SELL row permutation"},
        {&d->cols, h->cols, slots * sizeof(int32_t), "SELL columns"},
        {&d->vals, h->vals, slots * spira_dtype_size(h->dtype), "SELL values"},
    };
    SPIRA__TRY(SPIRA__DEV_CLONE(ctx, dev, arrays));
    return wide_plan(ctx, h->slice_ptr, hd);
}

static spira_status sell_dev_apply(spira_context ctx, void *dev, double alpha, const void *x,
                                   double beta, void *y)
{
    const sell_dev *d = (const sell_dev *)dev;
    if (d->s.nrows == 0) return SPIRA_OK;
    return d->s.dtype == SPIRA_R64 ? sell_launch<double>(ctx, d, alpha, x, beta, y)
                                 : sell_launch<float>(ctx, d, alpha, x, beta, y);
}

SPIRA__MODULE_SORT_WARM(sell, window_key, (const void *)width_kernel,
                        (const void *)sell_fill_kernel<double>,
                        (const void *)sell_fill_kernel<float>)

extern "C" const spira__format_gpu spira__sell_gpu = {
    .handle = sizeof(sell_dev),
    .upload = sell_dev_upload,
    .build = sell_dev_build,
    .apply = sell_dev_apply,
    .stats = sell_dev_stats,
};
