/*
 * coo_gpu.cu - the COO kernel of Bell & Garland (2008): flat work distribution with a
 * segmented reduction, insensitive to how nonzeros spread over rows.
 *
 * The nnz triplets (row-major, so equal rows are contiguous) are cut into nwarps intervals
 * of `interval` nonzeros (a multiple of 32; by default sized so that one wave of resident
 * warps covers the matrix, as CUSP does). A warp walks its interval 32 entries at a time:
 * each lane forms val*x[col], a segmented inclusive scan over equal row indices (warp
 * shuffles) sums each row's run, and a row whose run ends inside the interval is complete
 * as far as this warp goes, so one lane adds alpha*sum to y[row]. The run still open at a
 * chunk's end is carried in registers into the next chunk; the run open at the interval's
 * end is written out as the warp's carry (carry_row[w], carry_val[w]) instead.
 *
 * Why this is race-free without atomics: a row's last entry lies in exactly one interval;
 * only that warp adds to y[row] directly (unless the entry ends its interval, when no warp
 * does), every other warp holding entries of the row has it as its open run and carries it.
 * The fix-up kernel (one block) then adds the carries: the carries are sorted by row, so a
 * segmented reduction over them (each thread a contiguous run of carries, then an
 * exclusive segmented scan across the block) gives each row's carry total, added by exactly
 * one thread. Results are deterministic for a given interval (hence for a given GPU model);
 * they differ from CSR's in rounding only.
 *
 * y must hold beta*y beforehand (the coo format scales it; hyb's ELL part writes it).
 *
 * The conversion on the GPU (spira__coo_dev_build) makes the row indices by expanding row
 * offsets (rows_gpu.cu: one kernel, balanced however long the rows are, no scratch, no
 * wait): the whole matrix's build allocates its row and carry arrays and waits for nothing;
 * for HYB's remainder the offsets are a scan of the rows' lengths beyond K, and a thread per
 * entry gathers its column and value from the CSR.
 */
#include "coo_gpu.cuh"
#include "rows_gpu.cuh"
#include "cuda/check.cuh"
#include "cuda/gateway.h"

#include <string.h>

namespace {

constexpr int kCooBlock = 256;  /* 8 warps per block in the flat kernel */
constexpr int kFixBlock = 1024; /* the one block of the fix-up */
constexpr unsigned kFull = 0xffffffffu;
constexpr int kNoRow = -2; /* "no open run": never a row, never the -1 of an idle lane */

/* Inclusive segmented sum over the 32 lanes of a warp (Hillis-Steele). Keys must be equal
 * only on contiguous lanes, which sorted rows guarantee: lane i then adds lane i-d's
 * partial exactly when the two lanes are in one segment. */
template <typename T>
__device__ __forceinline__ T seg_scan(int lane, int key, T v)
{
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
        const T u = __shfl_up_sync(kFull, v, d);
        const int k = __shfl_up_sync(kFull, key, d);
        if (lane >= d && k == key) v += u;
    }
    return v;
}

template <typename T>
__global__ void __launch_bounds__(kCooBlock)
    coo_flat_kernel(long long nnz, long long interval, int nwarps, const int *__restrict__ rows,
                    const int *__restrict__ cols, const T *__restrict__ vals,
                    const T *__restrict__ x, T alpha, T *__restrict__ y,
                    int *__restrict__ carry_row, T *__restrict__ carry_val)
{
    const int lane = threadIdx.x & 31;
    const int w = (int)((blockIdx.x * (unsigned)blockDim.x + threadIdx.x) >> 5);
    if (w >= nwarps) return; /* whole warps only: the shuffles below use the full mask */
    const long long b = (long long)w * interval, e = min(b + interval, nnz);
    int crow = kNoRow; /* the run left open by the previous chunk (warp-uniform) */
    T cval = 0;
    for (long long base = b; base < e; base += 32) {
        const long long k = base + lane;
        const int last = (int)min(31LL, e - 1 - base); /* last lane holding an entry */
        int r = -1;
        T p = 0;
        if (k < e) {
            r = __ldcs(&rows[k]); /* read once: evict first, keep x cached */
            p = __ldcs(&vals[k]) * __ldg(&x[__ldcs(&cols[k])]);
        }
        p = seg_scan(lane, r, p);
        /* the open run either goes on in this chunk's first segment, or it ended with the
         * previous chunk, inside the interval: then it is complete here (lane 0 starts
         * another row) */
        if (r == crow) p += cval;
        else if (lane == 0 && crow != kNoRow) y[crow] += alpha * cval;
        /* a segment whose next entry, in this chunk, has another row is complete */
        const int rnext = __shfl_down_sync(kFull, r, 1);
        if (lane < last && rnext != r) y[r] += alpha * p;
        crow = __shfl_sync(kFull, r, last);
        cval = __shfl_sync(kFull, p, last);
    }
    if (lane == 0) {
        carry_row[w] = crow;
        carry_val[w] = alpha * cval;
    }
}

/* One block adds the n carries (rows nondecreasing) to y. Thread t takes carries
 * [t*per, t*per + per): runs strictly inside that range are complete and added at once;
 * its first run may have begun in earlier threads and its last may go on in later ones.
 * An exclusive segmented scan over the threads' last runs gives each thread the sum of
 * the earlier carries of the row it starts with; the thread that holds a row's final carry
 * adds the row's total. */
template <typename T>
__global__ void __launch_bounds__(kFixBlock)
    coo_fixup_kernel(int n, const int *__restrict__ crow, const T *__restrict__ cval,
                     T *__restrict__ y)
{
    __shared__ int s_key[32];
    __shared__ T s_sum[32];
    const int t = threadIdx.x, lane = t & 31, wid = t >> 5, nw = blockDim.x >> 5;
    const int per = (n + (int)blockDim.x - 1) / (int)blockDim.x;
    const int s = min(t * per, n), e = min(s + per, n); /* empty ranges form a suffix */

    int rf = -1, rl = -1; /* first and last row of this range (-1: empty range) */
    T sf = 0, sl = 0;     /* their sums within the range */
    bool first_open = true;
    for (int j = s; j < e; j++) {
        const int r = crow[j];
        const T v = cval[j];
        if (j == s) {
            rf = rl = r;
            sl = v;
        } else if (r == rl) {
            sl += v;
        } else {
            if (first_open) {
                sf = sl;
                first_open = false;
            } else {
                y[rl] += sl; /* begun and ended inside this range */
            }
            rl = r;
            sl = v;
        }
    }
    if (first_open) sf = sl;

    /* exclusive segmented scan of (rl, sl) over the block: (pk, pv) = the last row before
     * this thread and the sum of its carries before this thread */
    const T inc = seg_scan(lane, rl, sl);
    if (lane == 31) {
        s_key[wid] = rl;
        s_sum[wid] = inc;
    }
    __syncthreads();
    if (wid == 0) {
        const int k = lane < nw ? s_key[lane] : -3;
        const T v = seg_scan(lane, k, lane < nw ? s_sum[lane] : T(0));
        if (lane < nw) s_sum[lane] = v; /* the key of an inclusive prefix is its last key */
    }
    __syncthreads();
    int pk = __shfl_up_sync(kFull, rl, 1);
    T pv = __shfl_up_sync(kFull, inc, 1);
    if (lane == 0) {
        pk = kNoRow;
        pv = 0;
    }
    if (wid > 0) { /* previous warps all hold carries (empty ranges are a suffix) */
        const int wk = s_key[wid - 1];
        const T wv = s_sum[wid - 1];
        if (lane == 0) {
            pk = wk;
            pv = wv;
        } else if (pk == wk) {
            pv += wv;
        }
    }
    if (s < e) {
        const T head = sf + (pk == rf ? pv : T(0));
        T tail = sl;
        if (rf != rl) y[rf] += head; /* the first row ends inside this range */
        else tail = head;
        const int next = e < n ? crow[e] : -1;
        if (next != rl) y[rl] += tail; /* the last row ends with this range */
    }
}

/* Entry q of the remainder beyond the first skip of each row: its row i = row[q] starts at
 * off[i], so it is the CSR's entry rp[i] + skip + (q - off[i]). */
template <typename T>
__global__ void __launch_bounds__(kCooBlock)
    coo_gather_kernel(int n, int skip, const int *__restrict__ row, const int *__restrict__ off,
                      const int *__restrict__ rp, const int *__restrict__ ci,
                      const T *__restrict__ v, int *__restrict__ col, T *__restrict__ val)
{
    const unsigned stride = gridDim.x * blockDim.x;
    for (unsigned q = blockIdx.x * blockDim.x + threadIdx.x; q < (unsigned)n; q += stride) {
        const int i = row[q];
        const int p = rp[i] + skip + ((int)q - off[i]);
        col[q] = ci[p];
        val[q] = v[p];
    }
}

template <typename T>
spira_status coo_gather(spira_context ctx, const spira__csr_dev *dA, int32_t skip,
                        const int32_t *off, spira__coo_dev *d)
{
    cudaStream_t st = (cudaStream_t)spira__cuda_stream(ctx);
    coo_gather_kernel<T><<<spira__blocks(d->nnz, kCooBlock), kCooBlock, 0, st>>>(
        d->nnz, skip, d->row, off, dA->row_ptr, dA->col_idx, (const T *)dA->val, d->col,
        (T *)d->val);
    SPIRA__LAUNCHED(ctx);
    return SPIRA_OK;
}

template <typename T>
spira_status resident_warps(spira_context ctx, long long *warps)
{
    int dev = 0, sms = 0, per_sm = 0;
    SPIRA__CUDA(ctx, cudaGetDevice(&dev));
    SPIRA__CUDA(ctx, cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    SPIRA__CUDA(ctx, cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, coo_flat_kernel<T>,
                                                                   kCooBlock, 0));
    if (per_sm < 1) per_sm = 1;
    if (sms < 1) sms = 1;
    *warps = (long long)sms * per_sm * (kCooBlock / 32);
    return SPIRA_OK;
}

template <typename T>
spira_status coo_launch(spira_context ctx, const spira__coo_dev *d, double alpha, const void *x,
                        void *y)
{
    cudaStream_t st = (cudaStream_t)spira__cuda_stream(ctx);
    const unsigned blocks = (unsigned)(((long long)d->nwarps + kCooBlock / 32 - 1) / (kCooBlock / 32));
    coo_flat_kernel<T><<<blocks, kCooBlock, 0, st>>>(
        d->nnz, d->interval, d->nwarps, d->row, d->col, (const T *)d->val, (const T *)x,
        (T)alpha, (T *)y, d->carry_row, (T *)d->carry_val);
    SPIRA__LAUNCHED(ctx);
    coo_fixup_kernel<T><<<1, kFixBlock, 0, st>>>(d->nwarps, d->carry_row,
                                                 (const T *)d->carry_val, (T *)y);
    SPIRA__LAUNCHED(ctx);
    return SPIRA_OK;
}

} // namespace

/* d's interval (the option's, or one wave of resident warps over d->nnz) and warps, and
 * the carry scratch they need: the one rule of the upload and the conversion on the GPU. */
static spira_status coo_dev_size(spira_context ctx, void *dev, long interval, spira__coo_dev *d)
{
    d->interval = 32;
    d->nwarps = 0;
    if (d->nnz > 0) {
        if (interval > 0) {
            d->interval = interval;
        } else {
            long long warps = 1;
            SPIRA__TRY(d->dtype == SPIRA_R64 ? resident_warps<double>(ctx, &warps)
                                             : resident_warps<float>(ctx, &warps));
            long long units = ((long long)d->nnz + 31) / 32;
            d->interval = 32 * ((units + warps - 1) / warps);
        }
        d->nwarps = (int32_t)(((long long)d->nnz + d->interval - 1) / d->interval);
    }
    const spira__dev_array arrays[] = {
        {&d->carry_row, NULL, (size_t)d->nwarps * sizeof(int32_t), "COO carry rows"},
        {&d->carry_val, NULL, (size_t)d->nwarps * spira_dtype_size(d->dtype),
         "COO carry values"},
    };
    return SPIRA__DEV_CLONE(ctx, dev, arrays);
}

spira_status spira__coo_dev_fill(spira_context ctx, void *dev, const spira__coo *h,
                                 spira__coo_dev *d)
{
    d->nrows = h->nrows;
    d->nnz = h->nnz;
    d->dtype = h->dtype;
    const size_t ib = (size_t)h->nnz * sizeof(int32_t);
    const spira__dev_array arrays[] = {
        {&d->row, h->row, ib, "COO rows"},
        {&d->col, h->col, ib, "COO columns"},
        {&d->val, h->val, (size_t)h->nnz * spira_dtype_size(h->dtype), "COO values"},
    };
    SPIRA__TRY(SPIRA__DEV_CLONE(ctx, dev, arrays));
    return coo_dev_size(ctx, dev, h->interval, d);
}

spira_status spira__coo_dev_build(spira_context ctx, void *dev, const spira__csr_dev *dA,
                                  int32_t skip, long interval, spira__coo_dev *d)
{
    d->nrows = dA->nrows;
    d->dtype = dA->dtype;
    if (skip == 0) { /* the whole matrix: the CSR's own columns and values, in its order */
        d->nnz = dA->nnz;
        d->col = dA->col_idx;
        d->val = dA->val;
        const spira__dev_array arrays[] = {
            {&d->row, NULL, (size_t)d->nnz * sizeof(int32_t), "COO rows"},
        };
        SPIRA__TRY(SPIRA__DEV_CLONE(ctx, dev, arrays));
        SPIRA__TRY(spira__rows_dev_expand(ctx, d->nrows, dA->row_ptr, d->nnz, d->row));
        return coo_dev_size(ctx, dev, interval, d);
    }
    /* the remainder beyond skip: its row offsets first (scratch), then its size */
    int32_t *off = NULL;
    SPIRA__TRY(spira__cuda_scratch_malloc(ctx, (void **)&off,
                                          ((size_t)dA->nrows + 1) * sizeof(int32_t),
                                          "COO row offsets (scratch)"));
    spira_status s = spira__rows_dev_tail_offsets(ctx, dA, skip, off, &d->nnz);
    if (s == SPIRA_OK) {
        const size_t ib = (size_t)d->nnz * sizeof(int32_t);
        const spira__dev_array arrays[] = {
            {&d->row, NULL, ib, "COO rows"},
            {&d->col, NULL, ib, "COO columns"},
            {&d->val, NULL, (size_t)d->nnz * spira_dtype_size(d->dtype), "COO values"},
        };
        s = SPIRA__DEV_CLONE(ctx, dev, arrays);
    }
    if (s == SPIRA_OK) s = spira__rows_dev_expand(ctx, d->nrows, off, d->nnz, d->row);
    if (s == SPIRA_OK && d->nnz > 0)
        s = d->dtype == SPIRA_R64 ? coo_gather<double>(ctx, dA, skip, off, d)
                                  : coo_gather<float>(ctx, dA, skip, off, d);
    spira__cuda_scratch_free(ctx, off); /* in stream order: after the gather */
    if (s != SPIRA_OK) return s;
    return coo_dev_size(ctx, dev, interval, d);
}

size_t spira__coo_dev_bytes(const spira__coo_dev *d)
{
    spira__coo h = {};
    h.nnz = d->nnz;
    h.dtype = d->dtype;
    return spira__coo_bytes(&h);
}

spira_status spira__coo_dev_accumulate(spira_context ctx, const spira__coo_dev *d, double alpha,
                                       const void *x, void *y)
{
    if (d->nnz == 0) return SPIRA_OK;
    return d->dtype == SPIRA_R64 ? coo_launch<double>(ctx, d, alpha, x, y)
                                 : coo_launch<float>(ctx, d, alpha, x, y);
}

/* ---- the coo format's device half -------------------------------------------------- */

static spira_status coo_dev_upload(spira_context ctx, const void *layout, void *dev)
{
    return spira__coo_dev_fill(ctx, dev, (const spira__coo *)layout, (spira__coo_dev *)dev);
}

static spira_status coo_dev_build(spira_context ctx, const spira__csr *A,
                                  const spira__csr_dev *dA, const char *opts, void *dev,
                                  size_t *bytes)
{
    (void)A;
    long interval;
    SPIRA__TRY(spira__coo_opt_interval(ctx, opts, "coo", &interval));
    spira__coo_dev *d = (spira__coo_dev *)dev;
    SPIRA__TRY(spira__coo_dev_build(ctx, dev, dA, 0, interval, d));
    *bytes = spira__coo_dev_bytes(d);
    return SPIRA_OK;
}

/* y <- beta*y (beta == 0: zeros, y not read), then y <- y + alpha*A*x. */
static spira_status coo_dev_apply(spira_context ctx, void *dev, double alpha, const void *x,
                                  double beta, void *y)
{
    const spira__coo_dev *d = (const spira__coo_dev *)dev;
    if (d->nrows == 0) return SPIRA_OK;
    if (beta == 0) SPIRA__TRY(spira__cuda_fill(ctx, d->nrows, d->dtype, y, 0.0));
    else if (beta != 1) SPIRA__TRY(spira__cuda_scal(ctx, d->nrows, d->dtype, beta, y));
    return spira__coo_dev_accumulate(ctx, d, alpha, x, y);
}

extern "C" const spira__format_gpu spira__coo_gpu = {
    .handle = sizeof(spira__coo_dev),
    .upload = coo_dev_upload,
    .build = coo_dev_build,
    .apply = coo_dev_apply,
};

SPIRA__MODULE_ANCHOR(coo, coo_flat_kernel<double>)
