/*
 * merge_gpu.cu - the merge-based CSR kernels (Merrill & Garland 2016; merge.h), over the
 * CSR family's device copy (csr_gpu.cu), in tiles of SPIRA__MERGE_TILE_THREADS threads.
 *
 * A tile is the merge-path steps of its threads' shares: items * 128 steps, the row ends
 * and nonzeros between two diagonals. Where the path crosses each tile's first diagonal is
 * searched once, when the plan is made (merge_tiles_kernel, a thread a tile), so a multiply
 * searches the global CSR no more; Merrill and Garland search it once a tile too.
 *
 * merge_tile_kernel, a block a tile: the tile's row ends and its nonzeros' products
 * v[k] * x[col[k]] are staged in shared memory with coalesced loads (a thread a nonzero,
 * the block striding over the tile; the products skewed by one slot every 128 bytes, so
 * that threads walking shares of 8 or 16 doubles do not meet in one bank); then each
 * thread finds its share's start by a binary search in shared memory, walks its items
 * steps, writes y for every row it ends, and leaves the partial sum of the row it stops
 * inside as its carry. The carries of a row are consecutive threads: a segmented scan
 * (shuffles within a warp, then the warps' trailing runs in warp order) gives the run's
 * last thread the run's sum, which it adds to y[row] when the row ends inside the tile
 * (the next thread ended it and wrote y[row] before the barrier), else the run is the
 * tile's carry-out: (crow[tile], cval[tile]), nondecreasing in the tile.
 *
 * merge_fixup_kernel: the tiles' carry-outs of a row (a run of equal crow) are added to
 * y[row] by the run's first carry's lane when the run is one long, else by that lane's
 * whole warp: the run's end found 32 carries a step, lanes summing every 32nd carry, then
 * a fixed shuffle tree. No atomics anywhere: the same bits every run. Empty
 * rows are ended like any other; a row of any length (a dense row, a row longer than
 * many tiles) only makes its runs of carries longer.
 */
#include "csr_gpu.cuh"
#include "merge.h"
#include "cuda/check.cuh"
#include "cuda/gateway.h"

namespace {

constexpr int kTile = SPIRA__MERGE_TILE_THREADS;
/* Plans of at most this many tiles fix up in the tile kernel's launch (FUSE below): its last
 * block's four warps walk 32 carries each a step, four steps at most, in place of a second
 * launch (2.3 us and a gap on adder_dcop_05 in an H100 trace; back to back the multiply
 * moved by under 0.3 us on an H200: bench/results/2026-11-27-session20, calls 1 and 2) */
constexpr int kFuseTiles = 512;

typedef struct {
    spira__csr_dev csr;
    int32_t items, nthreads, ntiles;
    int32_t *tile_row, *tile_nz; /* device, ntiles + 1: where each tile's first diagonal
                                    crosses the path (the last: nrows, nnz) */
    int32_t *crow; /* device, ntiles: the row each tile stops inside (nrows: none) */
    void *cval;    /* device, ntiles values: the partial sum left there */
    unsigned *ticket; /* device: blocks of a fused launch done so far (0 between launches) */
} merge_dev;

__global__ void merge_tiles_kernel(int nrows, int nnz, long long tile_steps, int ntiles,
                                   const int *__restrict__ rp, int *__restrict__ tile_row,
                                   int *__restrict__ tile_nz)
{
    const long long path = (long long)nrows + nnz;
    for (long long j = (long long)blockIdx.x * blockDim.x + threadIdx.x; j <= ntiles;
         j += (long long)gridDim.x * blockDim.x) {
        const long long d = j * tile_steps < path ? j * tile_steps : path;
        int row, nz;
        spira__merge_search(d, rp + 1, nrows, nnz, &row, &nz);
        tile_row[j] = row;
        tile_nz[j] = nz;
    }
}

/* Slot of the tile's i-th product: one slot skipped every 128 bytes (the banks' width). */
template <typename T>
__device__ __forceinline__ int merge_slot(int i)
{
    return i + i / (int)(128 / sizeof(T));
}

/* Shared memory of a tile of `steps` path steps: the skewed products, then the row ends. */
template <typename T>
size_t merge_smem(int steps)
{
    return ((size_t)steps + (size_t)steps / (128 / sizeof(T)) + 1) * sizeof(T) +
           (size_t)steps * sizeof(int);
}

/* The carry-outs crow/cval[0..n) added to y in thread order (merge_fixup_kernel's text
 * above), by warps starting at carry `first` and striding by `stride`. crow, cval and y
 * are read through L2 (__ldcg): in the fused tile kernel other blocks wrote them during
 * this launch, and a line of y this SM read earlier may be stale in its L1. */
template <typename T>
__device__ __forceinline__ void merge_fixup(int nrows, int n, long long first, long long stride,
                                            const int *__restrict__ crow,
                                            const T *__restrict__ cval, T alpha,
                                            T *__restrict__ y)
{
    const int lane = threadIdx.x & 31;
    for (long long base = first; base < n; base += stride) {
        const long long t = base + lane;
        const int r = t < n ? __ldcg(&crow[t]) : nrows;
        const bool head = r < nrows && (t == 0 || __ldcg(&crow[t - 1]) != r);
        const bool alone = head && (t + 1 == n || __ldcg(&crow[t + 1]) != r);
        if (alone) y[r] = __ldcg(&y[r]) + alpha * __ldcg(&cval[t]);
        unsigned runs = __ballot_sync(0xffffffffu, head && !alone);
        while (runs) { /* each longer run by the whole warp, in lane order */
            const int l = __ffs(runs) - 1;
            runs &= runs - 1;
            const int hr = __shfl_sync(0xffffffffu, r, l);
            const long long h = base + l;
            /* the run's end: the first carry past row hr (carry rows never decrease), 32
             * carries a step by a ballot; a binary search here cost a dependent load a
             * step, 57 us a multiply on mbeacxc's runs at items=1 */
            long long end = h + 1;
            for (;; end += 32) {
                const long long k = end + lane;
                const bool out = k >= n || __ldcg(&crow[k]) != hr;
                const unsigned past = __ballot_sync(0xffffffffu, out);
                if (past) {
                    end += __ffs(past) - 1;
                    break;
                }
            }
            T s = 0;
            for (long long k = h + lane; k < end; k += 32) s += __ldcg(&cval[k]);
            for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
            if (lane == 0) y[hr] = __ldcg(&y[hr]) + alpha * s;
        }
    }
}

/* Twelve tiles an SM (1536 threads, 42 registers at most; nvcc takes 40 without spilling,
 * 48 left alone); their shared memory, about items * 128 * (sizeof(T) + 4) bytes (11 KB
 * at the default 7 in double), fits beside them. FUSE: the fixup runs in this launch, by
 * the block that finishes last (a ticket taken after every block's writes are fenced; that
 * block resets it for the next launch), for plans of few tiles (kFuseTiles), with the same
 * additions in the same order as merge_fixup_kernel's: the same bits. */
template <typename T, bool FUSE>
__global__ void __launch_bounds__(kTile, 12)
    merge_tile_kernel(int nrows, int items, const int *__restrict__ tile_row,
                      const int *__restrict__ tile_nz, const int *__restrict__ rp,
                      const int *__restrict__ ci, const T *__restrict__ v,
                      const T *__restrict__ x, T alpha, T beta, T *__restrict__ y,
                      int *__restrict__ crow, T *__restrict__ cval, unsigned *__restrict__ ticket)
{
    extern __shared__ __align__(16) unsigned char merge_smem[];
    const int tile = blockIdx.x, tid = threadIdx.x;
    const int r0 = tile_row[tile], z0 = tile_nz[tile];
    const int nr = tile_row[tile + 1] - r0, nk = tile_nz[tile + 1] - z0;
    const int steps = items * kTile;
    T *s_prod = (T *)merge_smem;                                  /* the nk products */
    int *s_end = (int *)(s_prod + merge_slot<T>(steps - 1) + 1);  /* the nr row ends */
    for (int i = tid; i < nr; i += kTile) s_end[i] = __ldg(&rp[r0 + 1 + i]);
#pragma unroll 4
    for (int i = tid; i < nk; i += kTile) /* entries read once: evict first, keep x cached */
        s_prod[merge_slot<T>(i)] = __ldcs(&v[z0 + i]) * __ldg(&x[__ldcs(&ci[z0 + i])]);
    __syncthreads();

    /* this thread's share: the tile's steps [d, d_end); a thread past the path's end has
     * none and stops at (nr, nk), the row nrows: no carry */
    const int len = nr + nk, d = min(tid * items, len), d_end = min(d + items, len);
    int lo = max(d - nk, 0), hi = min(d, nr); /* spira__merge_search within the tile */
    while (lo < hi) {
        const int pivot = (lo + hi) >> 1;
        if (s_end[pivot] <= z0 + d - pivot - 1) lo = pivot + 1;
        else hi = pivot;
    }
    int row = lo, nz = d - lo;
    T sum = 0;
    for (int s = d; s < d_end; s++) {
        if (row < nr && s_end[row] <= z0 + nz) { /* row ends: its nonzeros are consumed */
            const int r = r0 + row++;
            y[r] = beta == T(0) ? alpha * sum : alpha * sum + beta * y[r];
            sum = 0;
        } else {
            sum += s_prod[merge_slot<T>(nz++)];
        }
    }
    /* the carries' runs: rows are nondecreasing in the thread, so equal rows o apart
     * enclose a run, and after the shuffles run holds the run's sum from its first thread
     * in this warp (or the warp's first lane) to this one, in a fixed order */
    const int c = r0 + row, lane = tid & 31, warp = tid >> 5;
    T run = sum;
    for (int o = 1; o < 32; o <<= 1) {
        const T up = __shfl_up_sync(0xffffffffu, run, o);
        const int cu = __shfl_up_sync(0xffffffffu, c, o);
        if (lane >= o && cu == c) run += up;
    }
    __syncthreads(); /* the staging is free: the carries take its place */
    int *s_crow = s_end;           /* kTile: each thread's carry row */
    T *s_wsum = s_prod;            /* kTile / 32: each warp's last lane's run */
    s_crow[tid] = c;
    if (lane == 31) s_wsum[warp] = run;
    __syncthreads();
    const bool last = tid == kTile - 1 || s_crow[tid + 1] != c;
    if (c < nrows && last) { /* the last carry of row c's run in this tile */
        for (int w = warp - 1; w >= 0 && s_crow[32 * w + 31] == c; w--) run += s_wsum[w];
        if (tid < kTile - 1) { /* thread tid + 1 ended row c and wrote y[c] */
            y[c] += alpha * run;
        } else { /* row c goes on past the tile */
            crow[tile] = c;
            cval[tile] = run;
        }
    } else if (tid == kTile - 1) { /* the path ends in this tile */
        crow[tile] = nrows;
        cval[tile] = 0;
    }
    if (!FUSE) return;
    __shared__ bool s_last;
    __threadfence(); /* this thread's y, crow and cval before the ticket */
    __syncthreads();
    if (tid == 0) s_last = atomicAdd(ticket, 1u) == gridDim.x - 1;
    __syncthreads();
    if (!s_last) return;
    __threadfence();
    merge_fixup<T>(nrows, gridDim.x, tid & ~31, kTile, crow, cval, alpha, y);
    if (tid == 0) *ticket = 0;
}

template <typename T>
__global__ void __launch_bounds__(256, 4)
    merge_fixup_kernel(int nrows, int n, const int *__restrict__ crow,
                       const T *__restrict__ cval, T alpha, T *__restrict__ y)
{
    merge_fixup<T>(nrows, n, (long long)blockIdx.x * blockDim.x + (threadIdx.x & ~31),
                   (long long)gridDim.x * blockDim.x, crow, cval, alpha, y);
}

template <typename T>
spira_status merge_launch(spira_context ctx, const merge_dev *d, double alpha, const void *x,
                          double beta, void *y)
{
    cudaStream_t st = (cudaStream_t)spira__cuda_stream(ctx);
    /* at most 32 items (merge.c refuses more): up to 51 KB, allowed at upload */
    const size_t smem = merge_smem<T>(d->items * kTile);
    if (d->ntiles <= kFuseTiles) {
        merge_tile_kernel<T, true><<<d->ntiles, kTile, smem, st>>>(
            d->csr.nrows, d->items, d->tile_row, d->tile_nz, d->csr.row_ptr, d->csr.col_idx,
            (const T *)d->csr.val, (const T *)x, (T)alpha, (T)beta, (T *)y, d->crow,
            (T *)d->cval, d->ticket);
        SPIRA__LAUNCHED(ctx);
        return SPIRA_OK;
    }
    merge_tile_kernel<T, false><<<d->ntiles, kTile, smem, st>>>(
        d->csr.nrows, d->items, d->tile_row, d->tile_nz, d->csr.row_ptr, d->csr.col_idx,
        (const T *)d->csr.val, (const T *)x, (T)alpha, (T)beta, (T *)y, d->crow, (T *)d->cval,
        nullptr);
    SPIRA__LAUNCHED(ctx);
    merge_fixup_kernel<T><<<spira__blocks(d->ntiles, 256), 256, 0, st>>>(
        d->csr.nrows, d->ntiles, d->crow, (const T *)d->cval, (T)alpha, (T *)y);
    SPIRA__LAUNCHED(ctx);
    return SPIRA_OK;
}

/* A tile kernel's leave to use more than the 48 KB of shared memory a block gets unasked. */
template <typename K>
spira_status allow_smem(spira_context ctx, K kernel, size_t bytes)
{
    SPIRA__CUDA(ctx, cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          (int)bytes));
    return SPIRA_OK;
}

} // namespace

static spira_status merge_dev_upload(spira_context ctx, const void *layout, void *dev)
{
    const spira__merge *M = (const spira__merge *)layout;
    merge_dev *d = (merge_dev *)dev;
    d->items = M->items;
    d->nthreads = M->nthreads;
    d->ntiles = M->ntiles;
    SPIRA__TRY(spira__csr_dev_fill(ctx, dev, M->A, &d->csr));
    const size_t tiles = (size_t)M->ntiles;
    const spira__dev_array arrays[] = {
        {&d->tile_row, NULL, (tiles + 1) * sizeof(int32_t), "merge tile rows"},
        {&d->tile_nz, NULL, (tiles + 1) * sizeof(int32_t), "merge tile nonzeros"},
        {&d->crow, NULL, tiles * sizeof(int32_t), "merge carry-out rows"},
        {&d->cval, NULL, tiles * spira_dtype_size(M->A->dtype), "merge carry-out values"},
        {&d->ticket, NULL, sizeof(unsigned), "merge ticket"},
    };
    SPIRA__TRY(SPIRA__DEV_CLONE(ctx, dev, arrays));
    SPIRA__TRY(spira__cuda_zero(ctx, d->ticket, sizeof(unsigned)));
    /* a tile past the 48 KB a block gets unasked (32 items in double) asks for its size */
    const int steps = M->items * kTile;
    if (M->A->dtype == SPIRA_R64 && merge_smem<double>(steps) > 48 * 1024)
        SPIRA__TRY(allow_smem(ctx, M->ntiles <= kFuseTiles ? merge_tile_kernel<double, true>
                                                           : merge_tile_kernel<double, false>,
                              merge_smem<double>(steps)));
    if (M->A->dtype == SPIRA_R32 && merge_smem<float>(steps) > 48 * 1024)
        SPIRA__TRY(allow_smem(ctx, M->ntiles <= kFuseTiles ? merge_tile_kernel<float, true>
                                                           : merge_tile_kernel<float, false>,
                              merge_smem<float>(steps)));
    cudaStream_t st = (cudaStream_t)spira__cuda_stream(ctx);
    merge_tiles_kernel<<<spira__blocks((long long)tiles + 1, 256), 256, 0, st>>>(
        d->csr.nrows, d->csr.nnz, (long long)d->items * kTile, d->ntiles, d->csr.row_ptr,
        d->tile_row, d->tile_nz);
    SPIRA__LAUNCHED(ctx);
    return SPIRA_OK;
}

static spira_status merge_dev_apply(spira_context ctx, void *dev, double alpha, const void *x,
                                    double beta, void *y)
{
    const merge_dev *d = (const merge_dev *)dev;
    if (d->csr.nrows == 0) return SPIRA_OK;
    return d->csr.dtype == SPIRA_R64 ? merge_launch<double>(ctx, d, alpha, x, beta, y)
                                     : merge_launch<float>(ctx, d, alpha, x, beta, y);
}

SPIRA__MODULE_ANCHOR(merge, merge_tile_kernel<double, false>)

extern "C" const spira__format_gpu spira__merge_gpu = {
    .handle = sizeof(merge_dev),
    .upload = merge_dev_upload,
    .shares_csr = 1,
    .apply = merge_dev_apply,
};
