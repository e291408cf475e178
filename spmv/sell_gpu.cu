/*
 * sell_gpu.cu - the SELL-C-sigma kernel (Kreutzer et al. 2014; layout in sell.h): a warp
 * a slice, a thread a row of it. In step k the 32 lanes read the slice's entries k*32 +
 * lane, consecutive addresses, so every matrix load is coalesced as in ELL, but each slice
 * is only as wide as its own longest row. A row's padding slots (column -1) are skipped;
 * its sum goes to y at the row's original index (perm). A matrix of few slices gives each
 * slice 2, 4 or 8 warps, each a share of its steps, added in warp order.
 *
 * Long rows (sell.h: more than SPIRA__SELL_LONG entries, kept out of the slices and stored
 * row after row) would each make a slice one warp's serial loop as long as the row, tens
 * of thousands of steps on an R-MAT graph (bench/results/2026-11-26-h200x2-session11). They
 * are cut into chunks (kFewChunk or kManyChunk entries), a warp a chunk reading consecutive
 * addresses, in the same launch as the slices (its last blocks); a chunk's sum is a fixed
 * shuffle tree, and the warp that finishes a row's last chunk (a per-row ticket, as
 * merge's fixup) adds the row's chunk sums in chunk order and writes y: the same bits every
 * run, no floating-point atomics. In a matrix of few slices a long row of 2 to 8 chunks is
 * one block's instead (its warps a chunk each, added in shared memory): the same bits,
 * without the ticket's round trips through global memory. In a matrix of many slices the
 * longest rows, when dense enough (kTileMin), go by column tiles instead, in a launch on
 * the context's side stream beside sell_kernel's: a warp a (row, range of columns), a block
 * 20 rows of one range, so that they share x in L1; their ranges are added in order through
 * tickets as the chunks are. With sigma = 1 (no sorting, no long rows) a slice is as wide
 * as its longest row and its warps walk all of it.
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
 * warps' work. The long rows (counted from a histogram of row lengths up to the
 * threshold, one wait) are sorted as a window of their own after the others; their offsets
 * are a scan of their lengths and a block a row copies them. Last, the slice pointers and
 * the long rows' offsets come back to the host (a third wait) for the plans.
 */
#include "device.h"
#include "rows_gpu.cuh"
#include "sell.h"
#include "sort_gpu.cuh"
#include "cuda/check.cuh"
#include "cuda/gateway.h"

#include <cub/device/device_scan.cuh>

#include <cstdio>
#include <cstring>

namespace {

constexpr int kSellBlock = 256;
constexpr int kWarps = kSellBlock / 32; /* warps a block */
/* About two waves of warps on an H100 (132 SMs of 64): sell_kernel gives a slice more warps
 * while the slices' warps are fewer */
constexpr long long kTargetWarps = 16384;
constexpr int kFillSteps = 8;    /* steps of the layout a warp of the fill writes */
/* A long row's entries a warp. In a matrix of few slices (the latency-bound one: slice_plan)
 * 8 steps of 32 lanes, one round of the unrolled loop's dependent loads, so that a row is
 * many warps' work and one long row does not set the multiply's time; in a matrix of many,
 * 32 steps: fewer chunks, tickets and partials to read back. On an H200 the 1,024 took the
 * circuit matrix (40 rows of 95,000) from 0.070 to 0.063 ms and R-MAT 2^20 from 0.141 to
 * 0.139, but adder_dcop_05 from 0.0094 to 0.0127 and wiki-Vote from 0.0097 to 0.0145
 * (bench/results/2026-11-28-session26, call 2). With hub columns, 96 steps: R-MAT 2^20
 * (unit values, 52,675 hubs) took 0.0997 ms back to back with 1,024, 0.0868 with 2,048,
 * 0.0840 with 3,072, 0.0847 with 4,096 and 0.109 with 8,192, where without hubs the chunk
 * made 2-4% either way and the power-law matrix was 1% slower with 3,072
 * (bench/results/2026-11-29-session29, calls 4-6). */
constexpr int kFewChunk = 256, kManyChunk = 1024, kHubChunk = 3072;
/* Column tiles (tile_kernel): in a matrix of many slices, the longest long rows, those of at
 * least kTileMin entries a range of kTileCols columns on average, are taken a warp a (row,
 * range), kTileRows rows of one range a block, so that the block's rows share the range's
 * x in L1 (bench/longrow-probe.cu, "tiles 8192/20": the circuit matrix's 40 dense rows of
 * 95,000 in 0.023 ms alone against 0.028 by chunks of 1,024 on an H200; slower than the
 * chunks below a few hundred entries a (row, range)). It is a launch of its own (a block of
 * kTileRows warps is not sell_kernel's), on the side stream so that it runs beside the
 * slices as the chunks do inside sell_kernel (after it, the circuit matrix took 0.0583 ms
 * against the chunks' 0.0575; beside, 0.0525-0.0530: bench/results/2026-11-28-session27,
 * calls 6-7), and only when the tiled rows hold kTileWork entries or more, in a matrix of
 * kTileRangesMin ranges or more. */
constexpr int kTileCols = 8192, kTileRows = 20, kTileMin = 256, kTileRangesMin = 16;
constexpr long long kTileWork = 1 << 20;
static_assert(SPIRA__SELL_C == 32, "a slice is a warp");

/* The chunks of a long row of len entries: what slice_plan counts and the kernel walks. */
__host__ __device__ constexpr int long_row_chunks(int len, int chunk)
{
    return (len + chunk - 1) / chunk;
}

/* The handle: first the host layout's struct, its arrays on the device (slice_ptr, perm,
 * long_ptr, cols, vals; tests read the handle as a spira__sell), its stats written by the
 * build or copied by the upload; then the long rows' chunks (none: arrays NULL). */
struct sell_dev {
    spira__sell s;
    int32_t group;         /* warps a slice in sell_kernel: 1, 2, 4 or 8 */
    int32_t nlong_items;   /* the long rows' chunks taken a warp each (none without) */
    /* long rows [block_first, block_end) are taken a block each, not as warp chunks
     * (slice_plan: a matrix of few slices, rows of 2 to kWarps chunks) */
    int32_t block_first, block_end;
    int32_t chunk;         /* a long row's entries a chunk: kFewChunk, kManyChunk, kHubChunk */
    int32_t *long_item;    /* nlong + 1: a long row's first chunk */
    int32_t *item_long;    /* nlong_items: the long row a chunk belongs to */
    void *long_partial;    /* nlong_items chunk sums */
    unsigned *ticket;      /* nlong: a row's chunks done this multiply (back to 0 after) */
    /* long rows [0, ntiled) go by column tiles (tile_kernel), not by chunks */
    int32_t ntiled, nranges; /* nranges: ranges of kTileCols columns (0: no tiles) */
    int32_t *tile_off;       /* ntiled * (nranges + 1): where row j's range q begins in cols */
    void *tile_partial;      /* ntiled * nranges range sums */
    void *xh;                /* s.nhubs values: x at the hub columns, gathered each multiply */
    bool dependent;          /* sell_kernel may start before the gather ends (sm_90 on) */
    char stats[256];         /* the layout's stats and the column tiles, if any */
};

/* The sort key of row i: its window above its length's complement to K, so that the sort
 * keeps windows apart and puts longer rows first within them; a row longer than long_min
 * is in window nwin, after all the others (long_min = K: none is). */
struct window_key {
    const int *rp;
    int sigma, K, lbits, long_min, nwin;
    __device__ unsigned long long operator()(int i) const
    {
        const int len = rp[i + 1] - rp[i];
        const unsigned long long w = len > long_min ? (unsigned)nwin : (unsigned)(i / sigma);
        return w << lbits | (unsigned)(K - len);
    }
};

/* Column c as the layout stores it: a hub's ncols + its rank (map, sell.h), else c. */
__device__ __forceinline__ int hub_col(const int *__restrict__ map, int ncols, int c)
{
    const int k = map ? map[c] : -1;
    return k >= 0 ? ncols + k : c;
}

/* count[c] = the entries of column c (count zeroed before). */
__global__ void __launch_bounds__(kSellBlock)
    hub_count_kernel(long long nnz, const int *__restrict__ ci, int *__restrict__ count)
{
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x; k < nnz; k += stride)
        atomicAdd(&count[ci[k]], 1);
}

/* The hub columns' number and entries, and the largest count (out zeroed before). */
struct hub_sums {
    unsigned long long entries;
    int nhubs, max;
};
__global__ void __launch_bounds__(kSellBlock)
    hub_sum_kernel(int ncols, const int *__restrict__ count, long long min, hub_sums *out)
{
    const int c = blockIdx.x * blockDim.x + threadIdx.x;
    const int n = c < ncols ? count[c] : 0;
    int hubs = n >= min, most = n;
    unsigned long long entries = n >= min ? (unsigned long long)n : 0;
    for (int off = 16; off > 0; off >>= 1) {
        hubs += __shfl_down_sync(0xffffffffu, hubs, off);
        entries += __shfl_down_sync(0xffffffffu, entries, off);
        most = max(most, __shfl_down_sync(0xffffffffu, most, off));
    }
    if ((threadIdx.x & 31u) == 0 && most > 0) {
        if (hubs) atomicAdd(&out->nhubs, hubs), atomicAdd(&out->entries, entries);
        atomicMax(&out->max, most);
    }
}

/* The sort key of column c: a hub's count's complement to K (the largest count), so that
 * the stable sort puts hubs first by decreasing count, ties by column, as the host's; every
 * other column after them. */
struct hub_key {
    const int *count;
    long long min;
    int K;
    __device__ unsigned long long operator()(int c) const
    {
        const int n = count[c];
        return n >= min ? (unsigned long long)(K - n) : (unsigned long long)(K - min + 1);
    }
};

/* map[sorted[k]] = k for the nhubs hubs (map at -1 before). */
__global__ void __launch_bounds__(kSellBlock)
    hub_map_kernel(int nhubs, const int *__restrict__ sorted, int *__restrict__ map)
{
    const int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < nhubs) map[sorted[k]] = k;
}

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
                     const int *__restrict__ map, int ncols, int *__restrict__ slice_ptr,
                     int *__restrict__ cols, T *__restrict__ vals)
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
            cols[q + lane] = entry ? hub_col(map, ncols, ci[b + k]) : -1;
            if (vals) vals[q + lane] = entry ? v[b + k] : T(0); /* none when unit */
        }
    }
}

/* What the long rows' multiply reads (long_chunks, long_block_rows). */
template <typename T> struct long_rows_args {
    int nitems, sliced, chunk;
    const int *long_ptr, *long_item, *item_long, *perm, *cols;
    const T *vals, *x;
    const T *xh; /* x at the hub columns, gathered before the multiply (hubs only) */
    int ncols;   /* a column c >= ncols is hub c - ncols */
    T *partial;
    unsigned *ticket;
    int block_first, block_end; /* the long rows taken a block each (long_block_rows) */
    unsigned row_blocks;        /* the blocks that take them */
};

/* The warp's fixed xor tree: every lane ends with the 32 lanes' sum, in the same order every
 * run. */
template <typename T> __device__ __forceinline__ T warp_tree(T sum)
{
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) sum += __shfl_xor_sync(0xffffffffu, sum, off);
    return sum;
}

/* What a layout's kernels specialize on (template flags F): values all 1, none stored
 * (kUnit), and hub columns gathered first (kHubs; sell.h). */
constexpr int kUnit = 1, kHubs = 2;

/* Entry at's value: read once (evict first), or 1 in a layout of unit values, which stores
 * none; 1 * x is x, so both give the same bits. */
template <typename T, int F> __device__ __forceinline__ T entry_value(const T *vals, unsigned at)
{
    if constexpr ((F & kUnit) != 0) return T(1);
    else return __ldcs(&vals[at]);
}

/* Wait until hub_gather_kernel, the grid before, has finished and its xh is visible: a no-op
 * when the kernel was not launched as its programmatic dependent (sell_launch). */
__device__ __forceinline__ void gather_wait()
{
#if __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

/* x at column c (>= 0): a hub's from xh, gathered before the multiply (kHubs), kept cached. */
template <typename T, int F>
__device__ __forceinline__ T x_at(const T *x, const T *xh, int ncols, int c)
{
    if constexpr ((F & kHubs) != 0) return c < ncols ? __ldg(&x[c]) : __ldg(&xh[c - ncols]);
    else return __ldg(&x[c]);
}

/* The sum of the long rows' entries [begin, stop), lane l taking every 32nd from begin + l
 * (consecutive addresses, read once: evict first), then the warp's tree; the loop unrolled
 * U times. It waits on its gathers of x (ncu: 84% of a warp's cycles stalled on them on
 * R-MAT 2^20), so the chunks take U = 8 (8 in flight instead of 4 took R-MAT from 0.1047 to
 * 0.0993 ms back to back, the other matrices within 1%, with the same 32 registers); the
 * column tiles keep 4 (with 8 the circuit matrix was 3% slower: 0.0543 against 0.0527 ms;
 * bench/results/2026-11-29-session29, calls 3-7). */
template <typename T, int F, int U>
__device__ __forceinline__ T chunk_sum(const long_rows_args<T> &a, int begin, int stop)
{
    T sum = 0;
#pragma unroll U
    for (int at = begin + (int)(threadIdx.x & 31u); at < stop; at += 32)
        sum += entry_value<T, F>(a.vals, (unsigned)at) *
               x_at<T, F>(a.x, a.xh, a.ncols, __ldcs(&a.cols[at]));
    return warp_tree(sum);
}

/* Long row j's sum into y at the row's original index. */
template <typename T>
__device__ __forceinline__ void long_row_store(const long_rows_args<T> &a, int j, T sum, T alpha,
                                               T beta, T *__restrict__ y)
{
    const int i = __ldg(&a.perm[a.sliced + j]);
    y[i] = beta == T(0) ? alpha * sum : alpha * sum + beta * y[i];
}

/* Piece `piece` of a row cut into `pieces` (chunks, or column ranges), its warp's sum in
 * sum: with more than one, the sum goes to partial[first + piece] and the warp that takes
 * the row's last ticket gets true and the row's sum, its pieces added in order (each lane
 * every 32nd, then a fixed tree), and puts the ticket back to 0 for the next multiply. The
 * same bits every run, no floating-point atomics. long_chunks keeps this protocol written
 * out: calling row_done made its path 3-5% slower on R-MAT and power-law graphs, with the
 * same registers (bench/results/2026-11-28-session27, call 6). */
template <typename T>
__device__ __forceinline__ bool row_done(T *partial, unsigned *ticket, int first, int pieces,
                                         int piece, T &sum)
{
    if (pieces == 1) return true;
    const unsigned lane = threadIdx.x & 31u;
    bool last = false;
    if (lane == 0) {
        partial[first + piece] = sum;
        __threadfence(); /* the sum is visible before the ticket is taken */
        last = atomicAdd(ticket, 1u) == (unsigned)pieces - 1;
    }
    last = __shfl_sync(0xffffffffu, last, 0);
    if (last) {
        __threadfence();
        T total = 0;
        for (int k = (int)lane; k < pieces; k += 32) total += __ldcg(&partial[first + k]);
        sum = warp_tree(total);
        if (lane == 0) *ticket = 0;
    }
    return last;
}

/* Long rows' multiply: a warp a chunk of a.chunk entries of a long row (consecutive
 * addresses, read once: evict first). The chunk's sum, a fixed shuffle tree, goes to
 * partial; the warp that takes the row's last ticket adds the row's chunk sums in chunk
 * order (each lane every 32nd, then a fixed tree), writes y and puts the ticket back to 0
 * for the next multiply. A row of one chunk needs no ticket. */
template <typename T, int F>
__device__ void long_chunks(const long_rows_args<T> &a, unsigned warp0, unsigned nwarps, T alpha,
                            T beta, T *__restrict__ y)
{
    const unsigned lane = threadIdx.x & 31u;
    for (unsigned it = warp0; it < (unsigned)a.nitems; it += nwarps) {
        const int j = __ldg(&a.item_long[it]), first = __ldg(&a.long_item[j]);
        const int chunks = __ldg(&a.long_item[j + 1]) - first;
        const int begin = __ldg(&a.long_ptr[j]) + ((int)it - first) * a.chunk;
        T sum = chunk_sum<T, F, 8>(a, begin, min(begin + a.chunk, __ldg(&a.long_ptr[j + 1])));
        bool last = chunks == 1;
        if (!last) {
            if (lane == 0) {
                a.partial[it] = sum;
                __threadfence(); /* the sum is visible before the ticket is taken */
                last = atomicAdd(&a.ticket[j], 1u) == (unsigned)chunks - 1;
            }
            last = __shfl_sync(0xffffffffu, last, 0);
            if (last) {
                __threadfence();
                sum = 0;
                for (int k = (int)lane; k < chunks; k += 32) sum += __ldcg(&a.partial[first + k]);
                sum = warp_tree(sum);
                if (lane == 0) a.ticket[j] = 0;
            }
        }
        if (last && lane == 0) long_row_store(a, j, sum, alpha, beta, y);
    }
}

/* Long rows of 2 to kWarps chunks in a matrix of few slices: a block a row, warp w its
 * chunk w (chunk_sum, as long_chunks), the chunk sums added by the first warp in chunk
 * order, lane k taking chunk k, with the same tree as long_chunks' last warp: the same bits
 * as the ticket path, without its global handshake (a fence, an atomic, the partials read
 * back through L2), which is most of a small matrix's long-row time. */
template <typename T, int F>
__device__ void long_block_rows(const long_rows_args<T> &a, unsigned b, T alpha, T beta,
                                T *__restrict__ y)
{
    __shared__ T chunk_sums[kWarps];
    const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x / 32;
    for (int j = a.block_first + (int)b; j < a.block_end; j += (int)a.row_blocks) {
        const int begin = __ldg(&a.long_ptr[j]), end = __ldg(&a.long_ptr[j + 1]);
        const int chunks = long_row_chunks(end - begin, a.chunk); /* 2..kWarps */
        const int cb = begin + (int)warp * a.chunk;
        const T sum = chunk_sum<T, F, 8>(a, cb, min(cb + a.chunk, end));
        if (lane == 0) chunk_sums[warp] = sum;
        __syncthreads();
        if (warp == 0) {
            const T total = warp_tree((int)lane < chunks ? chunk_sums[lane] : T(0));
            if (lane == 0) long_row_store(a, j, total, alpha, beta, y);
        }
        __syncthreads(); /* chunk_sums is rewritten for the next row */
    }
}

/* The multiply, one launch: the first slice_blocks blocks take the slices, the others the
 * long rows' chunks (long_chunks), so that both run side by side. (The chunks' blocks first
 * made R-MAT 2^20 13% slower, 0.186 ms against 0.163, and the circuit matrix no faster:
 * session 21, calls 4-5.)
 * In the slices, G warps a slice (1, 2, 4 or 8; slice_plan chooses): warp j of a slice's
 * group steps through its steps j, j + G, j + 2G, ..., and the group's first warp adds the
 * others' sums to its own in warp order (shared memory): a fixed order, so the same bits
 * every run. With few slices (a matrix of a few thousand rows) one warp a slice leaves
 * most of the GPU idle while each warp walks its slice's whole width, step after
 * dependent step. */
template <typename T, int G, int F>
__global__ void __launch_bounds__(kSellBlock)
    sell_kernel(int sliced, int nslices, unsigned slice_blocks, const int *__restrict__ slice_ptr,
                const int *__restrict__ perm, const int *__restrict__ cols,
                const T *__restrict__ vals, const T *__restrict__ x, long_rows_args<T> longs,
                T alpha, T beta, T *__restrict__ y)
{
    constexpr int kSlices = kWarps / G; /* slices a block takes */
    __shared__ T part[G > 1 ? kWarps : 1][32];
    if constexpr ((F & kHubs) != 0) gather_wait();
    const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x / 32;
    if (blockIdx.x >= slice_blocks) { /* block-uniform: no barrier is split */
        const unsigned b = blockIdx.x - slice_blocks;
        if (b < longs.row_blocks)
            long_block_rows<T, F>(longs, b, alpha, beta, y);
        else
            long_chunks<T, F>(longs, (b - longs.row_blocks) * kWarps + warp,
                        (gridDim.x - slice_blocks - longs.row_blocks) * kWarps, alpha, beta, y);
        return;
    }
    const unsigned j = warp % G, first = warp - j;
    for (unsigned base = blockIdx.x * kSlices; base < (unsigned)nslices;
         base += slice_blocks * kSlices) { /* the same trip count for the whole block */
        const unsigned sl = base + warp / G;
        /* slots <= INT32_MAX (checked at conversion); unsigned because the step after a
         * slice's last entry may pass it */
        unsigned begin = 0, end = 0;
        if (sl < (unsigned)nslices) begin = __ldg(&slice_ptr[sl]), end = __ldg(&slice_ptr[sl + 1]);
        /* every lane steps through the whole slice (the warp waits for its longest row
         * anyway) and skips padding by a predicate, not a break: the trip count is the
         * warp's, so the unrolled steps' loads are issued together instead of each waiting
         * for the column before it */
        T sum = 0;
#pragma unroll 4
        for (unsigned at = begin + 32u * j + lane; at < end; at += 32u * G) {
            const int c = __ldcs(&cols[at]); /* read once: evict first, keep x cached */
            const T v = entry_value<T, F>(vals, at);
            if (c >= 0) sum += v * x_at<T, F>(x, longs.xh, longs.ncols, c);
        }
        if (G > 1) {
            part[warp][lane] = sum;
            __syncthreads();
            if (j == 0)
                for (int k = 1; k < G; k++) sum += part[first + k][lane];
        }
        const unsigned r = sl * 32 + lane;
        if (j == 0 && sl < (unsigned)nslices && r < (unsigned)sliced) {
            const int i = __ldg(&perm[r]);
            y[i] = beta == T(0) ? alpha * sum : alpha * sum + beta * y[i];
        }
        if (G > 1) __syncthreads(); /* part is rewritten for the next slices */
    }
}

/* Column tiles: block b takes range q = b % nranges of long rows g * kTileRows + warp (g =
 * b / nranges), a warp a (row, range) over its entries (as chunk_sum), the row's ranges added
 * in range order by row_done. */
template <typename T, int F>
__global__ void __launch_bounds__(kTileRows * 32)
    tile_kernel(long_rows_args<T> a, int ntiled, int nranges, const int *__restrict__ off,
                T *partial, T alpha, T beta, T *__restrict__ y)
{
    const int q = (int)(blockIdx.x % (unsigned)nranges);
    const int j = (int)(blockIdx.x / (unsigned)nranges) * kTileRows + (int)(threadIdx.x / 32);
    if (j >= ntiled) return; /* warp-uniform; no block barrier follows */
    const int *o = off + (size_t)j * (nranges + 1) + q;
    T sum = chunk_sum<T, F, 4>(a, __ldg(&o[0]), __ldg(&o[1]));
    if (row_done(partial, &a.ticket[j], j * nranges, nranges, q, sum) && (threadIdx.x & 31u) == 0)
        long_row_store(a, j, sum, alpha, beta, y);
}

/* off[j * (nranges + 1) + q]: where long row j's entries of columns >= q * kTileCols begin
 * (its sorted columns searched), its end for q = nranges. */
__global__ void __launch_bounds__(kSellBlock)
    tile_off_kernel(int ntiled, int nranges, const int *__restrict__ long_ptr,
                    const int *__restrict__ cols, int *__restrict__ off)
{
    const long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= (long long)ntiled * (nranges + 1)) return;
    const int j = (int)(t / (nranges + 1)), q = (int)(t % (nranges + 1));
    int lo = long_ptr[j], hi = long_ptr[j + 1];
    if (q == nranges) lo = hi;
    else {
        const long long from = (long long)q * kTileCols;
        while (lo < hi) { /* the first entry of column >= from */
            const int mid = lo + (hi - lo) / 2;
            if (cols[mid] < from) lo = mid + 1;
            else hi = mid;
        }
    }
    off[t] = lo;
}

/* Long row j's length into len[j], 0 into len[nlong]: the scan makes them offsets. */
__global__ void __launch_bounds__(kSellBlock)
    long_len_kernel(int nlong, int sliced, const int *__restrict__ perm,
                    const int *__restrict__ rp, int *__restrict__ len)
{
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < nlong) {
        const int i = perm[sliced + j];
        len[j] = rp[i + 1] - rp[i];
    } else if (j == nlong) {
        len[j] = 0;
    }
}

/* A block a long row (grid-stride): its entries, in CSR order, to cols and vals from
 * long_ptr[j] (the scanned lengths plus the slots before them). */
template <typename T>
__global__ void __launch_bounds__(kSellBlock)
    long_copy_kernel(int nlong, int sliced, const int *__restrict__ perm,
                     const int *__restrict__ rp, const int *__restrict__ ci,
                     const T *__restrict__ v, const int *__restrict__ map, int ncols,
                     const int *__restrict__ long_ptr, int *__restrict__ cols,
                     T *__restrict__ vals)
{
    for (int j = blockIdx.x; j < nlong; j += gridDim.x) {
        const int i = perm[sliced + j], b = rp[i], len = rp[i + 1] - b, at = long_ptr[j];
        for (int k = threadIdx.x; k < len; k += blockDim.x) {
            cols[at + k] = hub_col(map, ncols, ci[b + k]);
            if (vals) vals[at + k] = v[b + k]; /* none when unit */
        }
    }
}

/* The offsets, in place: long_ptr[j] += slots for j <= nlong. */
__global__ void long_shift_kernel(int nlong, int slots, int *__restrict__ long_ptr)
{
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j <= nlong) long_ptr[j] += slots;
}

/* xh[k] = x[hubs[k]], k < nhubs: the hub columns' x together before the multiply.
 * sell_kernel, launched after it as a programmatic dependent (sm_90 on), may start its
 * blocks as soon as every block of this one has begun, and waits in gather_wait. */
template <typename T>
__global__ void __launch_bounds__(kSellBlock)
    hub_gather_kernel(int nhubs, const int *__restrict__ hubs, const T *__restrict__ x,
                      T *__restrict__ xh)
{
#if __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.launch_dependents;");
#endif
    const int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < nhubs) xh[k] = __ldg(&x[__ldg(&hubs[k])]);
}

template <typename T, int F>
spira_status sell_launch(spira_context ctx, const sell_dev *d, double alpha, const void *x,
                         double beta, void *y)
{
    cudaStream_t st = (cudaStream_t)spira__cuda_stream(ctx);
    const spira__sell *S = &d->s;
    const unsigned row_blocks =
        d->block_end > d->block_first ? spira__blocks(d->block_end - d->block_first, 1) : 0;
    const long_rows_args<T> longs = {d->nlong_items, S->nrows - S->nlong, d->chunk, S->long_ptr,
                                     d->long_item, d->item_long, S->perm, S->cols,
                                     (const T *)S->vals, (const T *)x, (const T *)d->xh,
                                     S->ncols, (T *)d->long_partial, d->ticket, d->block_first,
                                     d->block_end, row_blocks};
    if constexpr ((F & kHubs) != 0) {
        hub_gather_kernel<T><<<spira__blocks(S->nhubs, kSellBlock), kSellBlock, 0, st>>>(
            S->nhubs, S->hubs, (const T *)x, (T *)d->xh);
        SPIRA__LAUNCHED(ctx);
    }
    if (d->ntiled) { /* beside sell_kernel, on the context's side stream (never with hubs) */
        void *side;
        SPIRA__TRY(spira__cuda_fork(ctx, &side));
        const unsigned groups = (unsigned)((d->ntiled + kTileRows - 1) / kTileRows);
        tile_kernel<T, F & kUnit>
            <<<groups * (unsigned)d->nranges, kTileRows * 32, 0, (cudaStream_t)side>>>(
                longs, d->ntiled, d->nranges, d->tile_off, (T *)d->tile_partial, (T)alpha,
                (T)beta, (T *)y);
        SPIRA__LAUNCHED(ctx);
    }
    const unsigned slice_blocks =
        S->nslices ? spira__blocks((long long)S->nslices * 32 * d->group, kSellBlock) : 0;
    const unsigned long_blocks =
        row_blocks +
        (d->nlong_items ? spira__blocks((long long)d->nlong_items * 32, kSellBlock) : 0);
    auto kernel = d->group == 8   ? sell_kernel<T, 8, F>
                  : d->group == 4 ? sell_kernel<T, 4, F>
                  : d->group == 2 ? sell_kernel<T, 2, F>
                                  : sell_kernel<T, 1, F>;
    /* after the gather, as its programmatic dependent: the kernel's launch and its blocks'
     * start overlap the gather's end (R-MAT 2^20: 0.1058 -> 0.1049 ms back to back,
     * bench/results/2026-11-29-session29, calls 1-2) */
    cudaLaunchAttribute dependent = {};
    dependent.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    dependent.val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(slice_blocks + long_blocks);
    cfg.blockDim = dim3(kSellBlock);
    cfg.stream = st;
    cfg.attrs = &dependent;
    cfg.numAttrs = (F & kHubs) != 0 && d->dependent ? 1 : 0;
    SPIRA__CUDA(ctx, cudaLaunchKernelEx(&cfg, kernel, (int)(S->nrows - S->nlong), (int)S->nslices,
                                        slice_blocks, (const int *)S->slice_ptr,
                                        (const int *)S->perm, (const int *)S->cols,
                                        (const T *)S->vals, (const T *)x, longs, (T)alpha,
                                        (T)beta, (T *)y));
    if (d->ntiled) SPIRA__TRY(spira__cuda_join(ctx));
    return SPIRA_OK;
}

/* The column tiles' offsets (tile_off_kernel) and range sums, for d->ntiled rows and
 * d->nranges ranges (ntiled * nranges <= their entries / kTileMin). */
spira_status tile_plan(spira_context ctx, sell_dev *d)
{
    const size_t offs = (size_t)d->ntiled * ((size_t)d->nranges + 1);
    const spira__dev_array arrays[] = {
        {&d->tile_off, NULL, offs * sizeof(int32_t), "SELL column tiles' offsets"},
        {&d->tile_partial, NULL, (size_t)d->ntiled * d->nranges * spira_dtype_size(d->s.dtype),
         "SELL column tiles' sums"},
    };
    SPIRA__TRY(SPIRA__DEV_CLONE(ctx, d, arrays));
    tile_off_kernel<<<spira__blocks((long long)offs, kSellBlock), kSellBlock, 0,
                      (cudaStream_t)spira__cuda_stream(ctx)>>>(d->ntiled, d->nranges,
                                                              d->s.long_ptr, d->s.cols,
                                                              d->tile_off);
    SPIRA__LAUNCHED(ctx);
    return SPIRA_OK;
}

/* The multiply's plan from a layout whose slice pointers are sp and long rows' offsets lp
 * (host, nslices + 1 and nlong + 1), into d: the warps a slice (d->group: doubled while the
 * slices' warps stay under kTargetWarps and each warp keeps at least 4 steps of a mean
 * slice or 8 of the widest: on a matrix of a few thousand rows the widest slice's walk,
 * up to 64 dependent steps for one warp, set the time: wiki-Vote 21 us back to back, 5.9
 * with the widest's rule, session 21 calls 4-5), then the long rows a block takes, and the
 * others' chunks onto the device with the rows' tickets at 0. */
spira_status slice_plan(spira_context ctx, const int32_t *sp, const int32_t *lp, sell_dev *d)
{
    const spira__sell *S = &d->s;
    const double mean_steps = S->nslices ? (double)sp[S->nslices] / 32 / S->nslices : 0;
    int32_t max_steps = 0;
    for (int32_t sl = 0; sl < S->nslices; sl++)
        if ((sp[sl + 1] - sp[sl]) / 32 > max_steps) max_steps = (sp[sl + 1] - sp[sl]) / 32;
    d->group = 1;
    while (d->group < 8 && (int64_t)S->nslices * d->group < kTargetWarps &&
           (mean_steps >= 4.0 * 2 * d->group || max_steps >= 8 * 2 * d->group))
        d->group *= 2;
    snprintf(d->stats, sizeof d->stats, "%s", S->stats);
    if (S->nhubs) {
        const spira__dev_array xh[] = {{&d->xh, NULL,
                                        (size_t)S->nhubs * spira_dtype_size(S->dtype),
                                        "SELL hub columns' x"}};
        SPIRA__TRY(SPIRA__DEV_CLONE(ctx, d, xh));
        int dev, major;
        SPIRA__CUDA(ctx, cudaGetDevice(&dev));
        SPIRA__CUDA(ctx, cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
        d->dependent = major >= 9;
    }
    const int32_t nlong = S->nlong;
    d->block_first = d->block_end = 0;
    d->chunk = kFewChunk;
    if (nlong == 0) return SPIRA_OK;
    /* In a matrix of few slices (the latency-bound one) the long rows of 2 to kWarps chunks
     * go a block each (long_block_rows); they are a run, the long rows being sorted
     * longest first */
    const bool few = (int64_t)S->nslices * d->group < kTargetWarps;
    d->chunk = few ? kFewChunk : S->nhubs ? kHubChunk : kManyChunk;
    d->ntiled = d->nranges = 0;
    const int64_t nranges = ((int64_t)S->ncols + kTileCols - 1) / kTileCols;
    /* the leading rows dense enough, if worth it; not with hubs, whose renumbered columns
     * leave a row's entries out of column order */
    if (!few && !S->nhubs && nranges >= kTileRangesMin) {
        int32_t t = 0;
        int64_t work = 0;
        while (t < nlong && lp[t + 1] - lp[t] >= kTileMin * nranges) work += lp[t + 1] - lp[t++];
        if (work >= kTileWork) {
            d->ntiled = t, d->nranges = (int32_t)nranges;
            const size_t k = strlen(d->stats);
            snprintf(d->stats + k, sizeof d->stats - k,
                     "; %d of them by column tiles (%d ranges of %d columns)", t,
                     (int)nranges, kTileCols);
        }
    }
    auto chunks_of = [&](int32_t j) {
        return j < d->ntiled ? 0 : long_row_chunks(lp[j + 1] - lp[j], d->chunk);
    };
    auto mid = [&](int32_t j) { return few && chunks_of(j) >= 2 && chunks_of(j) <= kWarps; };
    for (int32_t j = 0; j < nlong; j++)
        if (mid(j)) {
            if (d->block_end == 0) d->block_first = j;
            d->block_end = j + 1;
        }
    for (int32_t j = d->block_first; j < d->block_end; j++)
        if (!mid(j)) { /* not a run: every long row by chunks */
            d->block_first = d->block_end = 0;
            break;
        }
    auto by_block = [&](int32_t j) { return j >= d->block_first && j < d->block_end; };
    int64_t nitems = 0;
    for (int32_t j = 0; j < nlong; j++) nitems += by_block(j) ? 0 : chunks_of(j);
    /* nitems <= entries / chunk + nlong < 2^31 */
    int32_t *h = (int32_t *)spira__malloc(((size_t)nlong + 1 + (size_t)nitems) * sizeof(int32_t));
    if (!h)
        return spira__nomem(ctx, "SELL long rows' chunks", (nlong + 1 + nitems) * sizeof(int32_t));
    int32_t *li = h, *il = h + nlong + 1, it = 0;
    for (int32_t j = 0; j < nlong; j++) {
        li[j] = it;
        const int32_t chunks = by_block(j) ? 0 : chunks_of(j);
        for (int32_t c = 0; c < chunks; c++) il[it++] = j;
    }
    li[nlong] = it;
    d->nlong_items = (int32_t)nitems;
    const spira__dev_array arrays[] = {
        {&d->long_item, li, ((size_t)nlong + 1) * sizeof(int32_t), "SELL long rows' chunks"},
        {&d->item_long, il, (size_t)nitems * sizeof(int32_t), "SELL chunks' long rows"},
        {&d->long_partial, NULL, (size_t)nitems * spira_dtype_size(S->dtype),
         "SELL long rows' chunk sums"},
        {&d->ticket, NULL, (size_t)nlong * sizeof(unsigned), "SELL long rows' tickets"},
    };
    spira_status r = SPIRA__DEV_CLONE(ctx, d, arrays);
    spira__free(h);
    if (r == SPIRA_OK) r = spira__cuda_zero(ctx, d->ticket, (size_t)nlong * sizeof(unsigned));
    if (r == SPIRA_OK && d->ntiled) r = tile_plan(ctx, d);
    return r;
}

template <typename T>
spira_status sell_fill(spira_context ctx, const spira__csr_dev *dA, const long long *at,
                       int64_t slots, const int *map, spira__sell *d)
{
    cudaStream_t st = (cudaStream_t)spira__cuda_stream(ctx);
    /* a warp kFillSteps steps, a thread the slice pointers' copy (grid-stride, capped) */
    const long long steps = (slots / 32 + kFillSteps - 1) / kFillSteps;
    const long long threads = max(steps * 32, (long long)d->nslices + 1);
    sell_fill_kernel<T><<<spira__blocks(threads, kSellBlock), kSellBlock, 0, st>>>(
        d->nrows - d->nlong, d->nslices, at, d->perm, dA->row_ptr, dA->col_idx, (const T *)dA->val,
        map, d->ncols, d->slice_ptr, d->cols, (T *)d->vals);
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
        d->nrows - d->nlong, d->nslices, dA->row_ptr, d->perm, w);
    SPIRA__LAUNCHED(ctx);
    /* the input's type as in sell_build_rows' query, so that both name one instantiation */
    SPIRA__CUDA(ctx, cub::DeviceScan::ExclusiveSum(temp, temp_bytes, (const long long *)w, at,
                                                   d->nslices + 1, st));
    long long total = 0;
    SPIRA__TRY(spira__cuda_download(ctx, &total, at + d->nslices, sizeof total));
    *slots = total;
    return SPIRA_OK;
}

/* The long rows' offsets (long_ptr, from slots on) and entries, in stream order. */
template <typename T>
spira_status long_build(spira_context ctx, const spira__csr_dev *dA, spira__sell *d,
                        int32_t slots, const int *map)
{
    cudaStream_t st = (cudaStream_t)spira__cuda_stream(ctx);
    const int sliced = d->nrows - d->nlong, n = d->nlong + 1;
    const size_t lb = spira_sort::aligned((size_t)n * sizeof(int));
    size_t temp = 0;
    SPIRA__CUDA(ctx, cub::DeviceScan::ExclusiveSum(nullptr, temp, (const int *)nullptr,
                                                   (int *)nullptr, n, st));
    void *s = NULL;
    SPIRA__TRY(spira__cuda_scratch_malloc(ctx, &s, lb + temp, "SELL long rows' lengths (scratch)"));
    int *len = (int *)s;
    long_len_kernel<<<spira__blocks(n, kSellBlock), kSellBlock, 0, st>>>(d->nlong, sliced,
                                                                         d->perm, dA->row_ptr, len);
    spira_status r = spira__cuda_status(ctx, cudaGetLastError(), "long_len_kernel", __FILE__,
                                        __LINE__);
    if (r == SPIRA_OK)
        r = spira__cuda_status(ctx,
                               cub::DeviceScan::ExclusiveSum((char *)s + lb, temp,
                                                             (const int *)len, d->long_ptr, n, st),
                               "cub::DeviceScan::ExclusiveSum", __FILE__, __LINE__);
    spira__cuda_scratch_free(ctx, s); /* in stream order: after the scan */
    SPIRA__TRY(r);
    long_shift_kernel<<<spira__blocks(n, kSellBlock), kSellBlock, 0, st>>>(d->nlong, slots,
                                                                           d->long_ptr);
    SPIRA__LAUNCHED(ctx);
    long_copy_kernel<T><<<spira__blocks((long long)d->nlong * kSellBlock, kSellBlock), kSellBlock,
                          0, st>>>(d->nlong, sliced, d->perm, dA->row_ptr, dA->col_idx,
                                   (const T *)dA->val, map, d->ncols, d->long_ptr, d->cols,
                                   (T *)d->vals);
    SPIRA__LAUNCHED(ctx);
    return SPIRA_OK;
}

/* The host conversion's steps (sell.c) on the GPU into d, the layout in handle dev, with
 * the scratch of the widths and their scan in one stream-ordered block; long_entries: the
 * long rows' entries, which follow the slots. */
spira_status sell_build_rows(spira_context ctx, const spira__csr_dev *dA, spira__sell *d,
                             void *dev, int32_t K, int64_t long_entries, const int *map,
                             int64_t *out_entries)
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
    const int64_t entries = slots + long_entries;
    if (r == SPIRA_OK && entries > INT32_MAX)
        r = spira__sell_refuse(ctx, d->nslices, d->nslices, entries);
    if (r == SPIRA_OK) {
        const spira__dev_array arrays[] = {
            {&d->cols, NULL, (size_t)entries * sizeof(int32_t), "SELL columns"},
            {&d->vals, NULL, d->unit ? 0 : (size_t)entries * spira_dtype_size(d->dtype),
             "SELL values"},
        };
        r = SPIRA__DEV_CLONE(ctx, dev, arrays);
        if (d->unit) d->vals = NULL; /* the fills write none */
    }
    if (r == SPIRA_OK && d->nlong) {
        const spira__dev_array arrays[] = {
            {&d->long_ptr, NULL, ((size_t)d->nlong + 1) * sizeof(int32_t),
             "SELL long rows' offsets"},
        };
        r = SPIRA__DEV_CLONE(ctx, dev, arrays);
    }
    if (r == SPIRA_OK)
        r = d->dtype == SPIRA_R64 ? sell_fill<double>(ctx, dA, at, slots, map, d)
                                  : sell_fill<float>(ctx, dA, at, slots, map, d);
    spira__cuda_scratch_free(ctx, s); /* in stream order: after the fill */
    if (r == SPIRA_OK && d->nlong)
        r = d->dtype == SPIRA_R64 ? long_build<double>(ctx, dA, d, (int32_t)slots, map)
                                  : long_build<float>(ctx, dA, d, (int32_t)slots, map);
    if (r == SPIRA_OK) spira__sell_describe(d, slots, long_entries, K);
    *out_entries = entries;
    return r;
}

/* The columns' counts of dA into scratch *s (freed by the caller, on every path; count =
 * its first ncols ints) and the hub columns' totals *h (sell.h's rule: entries of at least
 * min): atomics, then the sums and one wait; whether they are used is kept in dA->hubs. */
spira_status hub_totals(spira_context ctx, const spira__csr_dev *dA, long long min, void **s,
                        hub_sums *h)
{
    cudaStream_t st = (cudaStream_t)spira__cuda_stream(ctx);
    *h = hub_sums{0, 0, 0};
    const size_t cb = spira_sort::aligned((size_t)dA->ncols * sizeof(int));
    SPIRA__TRY(spira__cuda_scratch_malloc(ctx, s, cb + sizeof(hub_sums),
                                          "SELL column counts (scratch)"));
    int *count = (int *)*s;
    hub_sums *sums = (hub_sums *)((char *)*s + cb);
    SPIRA__CUDA(ctx, cudaMemsetAsync(*s, 0, cb + sizeof(hub_sums), st));
    hub_count_kernel<<<spira__stride_blocks(dA->nnz, kSellBlock), kSellBlock, 0, st>>>(
        dA->nnz, dA->col_idx, count);
    hub_sum_kernel<<<spira__blocks(dA->ncols, kSellBlock), kSellBlock, 0, st>>>(dA->ncols, count,
                                                                              min, sums);
    SPIRA__LAUNCHED(ctx);
    SPIRA__TRY(spira__cuda_download(ctx, h, sums, sizeof *h));
    /* the device CSR is const to its readers; this cache, like values_one, is a field they
     * set (atomic: a plan may be built on a worker thread beside another) */
    const int used = spira__sell_hubs_used(h->nhubs, (int64_t)h->entries, dA->nnz, dA->ncols);
    __atomic_store_n(&((spira__csr_dev *)dA)->hubs, (int8_t)(used ? 1 : -1), __ATOMIC_RELAXED);
    return SPIRA_OK;
}

/* dA->hubs: 1 hubs used, -1 not, 0 not counted yet */
static int8_t known_hubs(const spira__csr_dev *dA)
{
    return __atomic_load_n(&dA->hubs, __ATOMIC_RELAXED);
}

/* The hub columns of dA (sell.h), as the host's sell_hubs finds them: d->hubs (in the
 * handle dev) and d->nhubs, and *map (ncols: a hub's rank, -1 for another column) for the
 * fill, in scratch *block that the caller frees; none (d->nhubs 0, both NULL) when not
 * used. The columns' counts and totals (hub_totals), and if used a stable radix sort of the
 * columns by decreasing count. */
spira_status hub_plan(spira_context ctx, const spira__csr_dev *dA, spira__sell *d, void *dev,
                      void **block, const int **map)
{
    cudaStream_t st = (cudaStream_t)spira__cuda_stream(ctx);
    *block = NULL, *map = NULL;
    if (!spira__sell_hubs_possible(d->ncols, d->nnz) || known_hubs(dA) < 0) return SPIRA_OK;
    const size_t cb = spira_sort::aligned((size_t)d->ncols * sizeof(int));
    void *s = NULL; /* the counts, then the sums */
    const long long min = spira__sell_hub_min(d->ncols, d->nnz);
    hub_sums h;
    spira_status r = hub_totals(ctx, dA, min, &s, &h);
    int *count = (int *)s;
    if (r != SPIRA_OK || known_hubs(dA) < 0) {
        spira__cuda_scratch_free(ctx, s);
        return r;
    }
    const spira__dev_array hubs[] = {{&d->hubs, NULL, (size_t)h.nhubs * sizeof(int32_t),
                                      "SELL hub columns"}};
    r = SPIRA__DEV_CLONE(ctx, dev, hubs);
    int *sorted = NULL, *m = NULL; /* the columns by count, and the map after them */
    if (r == SPIRA_OK)
        r = spira__cuda_scratch_malloc(ctx, (void **)&sorted, 2 * cb, "SELL hub order (scratch)");
    if (r == SPIRA_OK) m = (int *)((char *)sorted + cb);
    if (r == SPIRA_OK)
        r = spira__sort_rows(ctx, d->ncols,
                             spira__bits_for((unsigned long long)(h.max - min + 1)),
                             hub_key{count, min, h.max}, sorted, "SELL hub keys (scratch)");
    if (r == SPIRA_OK) {
        r = spira__cuda_status(ctx, cudaMemsetAsync(m, 0xff, (size_t)d->ncols * sizeof(int), st),
                               "cudaMemsetAsync", __FILE__, __LINE__);
        if (r == SPIRA_OK)
            r = spira__cuda_status(ctx, cudaMemcpyAsync(d->hubs, sorted,
                                                        (size_t)h.nhubs * sizeof(int32_t),
                                                        cudaMemcpyDeviceToDevice, st),
                                   "cudaMemcpyAsync", __FILE__, __LINE__);
        if (r == SPIRA_OK) {
            hub_map_kernel<<<spira__blocks(h.nhubs, kSellBlock), kSellBlock, 0, st>>>(h.nhubs,
                                                                                    sorted, m);
            r = spira__cuda_status(ctx, cudaGetLastError(), "hub_map_kernel", __FILE__, __LINE__);
        }
    }
    spira__cuda_scratch_free(ctx, s);
    if (r != SPIRA_OK) {
        spira__cuda_scratch_free(ctx, sorted);
        return r;
    }
    d->nhubs = h.nhubs;
    *block = sorted, *map = m;
    return SPIRA_OK;
}

/* The long rows of dA (longer than long_min) and their entries: a histogram of the lengths
 * up to long_min (one wait). */
spira_status long_rows(spira_context ctx, const spira__csr_dev *dA, int32_t long_min,
                       int32_t *nlong, int64_t *entries)
{
    int32_t *hist = (int32_t *)spira__malloc(((size_t)long_min + 1) * sizeof(int32_t));
    if (!hist) return spira__nomem(ctx, "row length histogram", ((size_t)long_min + 1) * 4);
    spira_status r = spira__rows_dev_hist(ctx, dA, long_min + 1, hist);
    int64_t rows = 0, short_entries = 0;
    for (int32_t k = 0; r == SPIRA_OK && k <= long_min; k++)
        rows += hist[k], short_entries += (int64_t)k * hist[k];
    spira__free(hist);
    *nlong = (int32_t)(dA->nrows - rows);
    *entries = (int64_t)dA->nnz - short_entries;
    return r;
}

} // namespace

static spira_status sell_dev_build(spira_context ctx, const spira__csr *A,
                                   const spira__csr_dev *dA, const char *opts, void *dev,
                                   size_t *bytes)
{
    sell_dev *h = (sell_dev *)dev;
    spira__sell *d = &h->s;
    int unit_ok, hubs_ok;
    SPIRA__TRY(spira__sell_opts(ctx, opts, A->nrows, &d->sigma, &unit_ok, &hubs_ok));
    d->nrows = A->nrows, d->ncols = A->ncols, d->nnz = A->nnz, d->dtype = A->dtype;
    if (unit_ok && A->nnz > 0) SPIRA__TRY(spira__rows_dev_values_one(ctx, dA, &d->unit));
    /* the slice pointers sized for all rows (the long rows, not yet counted, need fewer) */
    const size_t spn = (size_t)(((int64_t)A->nrows + SPIRA__SELL_C - 1) / SPIRA__SELL_C) + 1;
    const spira__dev_array arrays[] = {
        {&d->slice_ptr, NULL, spn * sizeof(int32_t), "SELL slice pointers"},
        {&d->perm, NULL, (size_t)d->nrows * sizeof(int32_t), "SELL row permutation"},
    };
    SPIRA__TRY(SPIRA__DEV_CLONE(ctx, dev, arrays));
    if (d->nrows == 0) { /* no slices: slice_ptr = {0}, nothing else */
        SPIRA__TRY(spira__cuda_zero(ctx, d->slice_ptr, sizeof(int32_t)));
        spira__sell_describe(d, 0, 0, 0);
        *bytes = spira__sell_bytes_of(0, 0, 0, 0, d->dtype, 0);
        return SPIRA_OK;
    }
    int32_t K;
    SPIRA__TRY(spira__rows_dev_max(ctx, dA, &K));
    /* long rows (sigma > 1): a window of their own after the nwin others */
    const int32_t long_min = SPIRA__SELL_LONG;
    int64_t long_entries = 0;
    if (d->sigma > 1 && K > long_min)
        SPIRA__TRY(long_rows(ctx, dA, long_min, &d->nlong, &long_entries));
    d->nslices = (int32_t)(((int64_t)d->nrows - d->nlong + SPIRA__SELL_C - 1) / SPIRA__SELL_C);
    const int32_t nwin = (int32_t)((d->nrows - 1) / d->sigma) + 1;
    /* sigma 1 does not sort; one window needs no window bits */
    const int wbits = spira__bits_for((unsigned long long)(d->nlong ? nwin : nwin - 1));
    const int bits = d->sigma == 1 ? 0 : wbits + spira__bits_for((unsigned)K);
    const int lbits = bits - wbits;
    SPIRA__TRY(spira__sort_rows(ctx, d->nrows, bits,
                                window_key{dA->row_ptr, d->sigma, K, lbits,
                                           d->nlong ? long_min : K, nwin},
                                d->perm, "SELL sort keys (scratch)"));
    int64_t entries = 0;
    void *block = NULL; /* scratch holding map, the hubs' ranks by column, for the fill */
    const int *map = NULL;
    if (hubs_ok) SPIRA__TRY(hub_plan(ctx, dA, d, dev, &block, &map));
    const spira_status built = sell_build_rows(ctx, dA, d, dev, K, long_entries, map, &entries);
    spira__cuda_scratch_free(ctx, block); /* in stream order: after the fill */
    SPIRA__TRY(built);
    *bytes = spira__sell_bytes_of(d->nrows, d->nslices, d->nlong, entries, d->dtype, d->unit);
    /* the plans from the slice pointers and long rows' offsets just built (host copies) */
    const size_t spb = ((size_t)d->nslices + 1) * sizeof(int32_t);
    const size_t lpb = d->nlong ? ((size_t)d->nlong + 1) * sizeof(int32_t) : 0;
    int32_t *sp = (int32_t *)spira__malloc(spb + lpb);
    if (!sp) return spira__nomem(ctx, "SELL slice pointers (host copy)", spb + lpb);
    int32_t *lp = sp + d->nslices + 1;
    spira_status r = spira__cuda_download(ctx, sp, d->slice_ptr, spb);
    if (r == SPIRA_OK && lpb) r = spira__cuda_download(ctx, lp, d->long_ptr, lpb);
    if (r == SPIRA_OK) r = slice_plan(ctx, sp, lp, h);
    spira__free(sp);
    return r;
}

static const char *sell_dev_stats(const void *dev)
{
    const sell_dev *d = (const sell_dev *)dev;
    return d->stats[0] ? d->stats : d->s.stats; /* an empty matrix has no plan's */
}

static spira_status sell_dev_upload(spira_context ctx, const void *layout, void *dev)
{
    const spira__sell *h = (const spira__sell *)layout;
    sell_dev *hd = (sell_dev *)dev;
    spira__sell *d = &hd->s;
    *d = *h; /* sizes and stats; the arrays are cloned below */
    d->slice_ptr = d->perm = d->long_ptr = d->cols = d->hubs = NULL;
    d->vals = NULL;
    const size_t entries = (size_t)spira__sell_entries(h);
    const spira__dev_array arrays[] = {
        {&d->slice_ptr, h->slice_ptr, ((size_t)h->nslices + 1) * sizeof(int32_t),
         "SELL slice pointers"},
        {&d->perm, h->perm, (size_t)h->nrows * sizeof(int32_t), "SELL row permutation"},
        {&d->cols, h->cols, entries * sizeof(int32_t), "SELL columns"},
        {&d->vals, h->vals, h->unit ? 0 : entries * spira_dtype_size(h->dtype), "SELL values"},
        {&d->hubs, h->hubs, (size_t)h->nhubs * sizeof(int32_t), "SELL hub columns"},
    };
    SPIRA__TRY(SPIRA__DEV_CLONE(ctx, dev, arrays));
    if (h->unit) d->vals = NULL;
    if (!h->nhubs) d->hubs = NULL;
    if (h->nlong) {
        const spira__dev_array longs[] = {
            {&d->long_ptr, h->long_ptr, ((size_t)h->nlong + 1) * sizeof(int32_t),
             "SELL long rows' offsets"},
        };
        SPIRA__TRY(SPIRA__DEV_CLONE(ctx, dev, longs));
    }
    return slice_plan(ctx, h->slice_ptr, h->long_ptr, hd);
}

static spira_status sell_dev_apply(spira_context ctx, void *dev, double alpha, const void *x,
                                   double beta, void *y)
{
    const sell_dev *d = (const sell_dev *)dev;
    if (d->s.nrows == 0) return SPIRA_OK;
    const int f = (d->s.unit ? kUnit : 0) | (d->s.nhubs ? kHubs : 0);
    if (d->s.dtype == SPIRA_R64)
        return f == 3   ? sell_launch<double, 3>(ctx, d, alpha, x, beta, y)
               : f == 2 ? sell_launch<double, 2>(ctx, d, alpha, x, beta, y)
               : f == 1 ? sell_launch<double, 1>(ctx, d, alpha, x, beta, y)
                        : sell_launch<double, 0>(ctx, d, alpha, x, beta, y);
    return f == 3   ? sell_launch<float, 3>(ctx, d, alpha, x, beta, y)
           : f == 2 ? sell_launch<float, 2>(ctx, d, alpha, x, beta, y)
           : f == 1 ? sell_launch<float, 1>(ctx, d, alpha, x, beta, y)
                    : sell_launch<float, 0>(ctx, d, alpha, x, beta, y);
}

SPIRA__MODULE_SORT_WARM(sell, window_key, (const void *)width_kernel,
                        (const void *)sell_fill_kernel<double>,
                        (const void *)sell_fill_kernel<float>)

extern "C" spira_status spira__sell_dev_hubs_of(spira_context ctx, const spira__csr_dev *dA,
                                                int32_t *used)
{
    *used = 0;
    if (!spira__sell_hubs_possible(dA->ncols, dA->nnz)) return SPIRA_OK;
    if (!known_hubs(dA)) {
        void *s = NULL;
        hub_sums h;
        const spira_status r =
            hub_totals(ctx, dA, spira__sell_hub_min(dA->ncols, dA->nnz), &s, &h);
        spira__cuda_scratch_free(ctx, s);
        SPIRA__TRY(r);
    }
    *used = known_hubs(dA) > 0;
    return SPIRA_OK;
}

extern "C" const spira__format_gpu spira__sell_gpu = {
    .handle = sizeof(sell_dev),
    .upload = sell_dev_upload,
    .build = sell_dev_build,
    .apply = sell_dev_apply,
    .stats = sell_dev_stats,
};
