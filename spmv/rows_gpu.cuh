/*
 * rows_gpu.cuh - the row structure of a device CSR, computed on the GPU with CUB
 * (rows_gpu.cu): what the conversions on the GPU (format_gpu.build) need before they can
 * size and fill a layout. Every call runs on the context's stream; CUB's temporary storage
 * and the calls' own scratch are allocated through the context and freed before returning,
 * on every path. Calls that return a host value wait for it; the others do not.
 */
#ifndef SPIRA_ROWS_GPU_CUH
#define SPIRA_ROWS_GPU_CUH

#include "csr_gpu.cuh"

/* *K = the longest row of dA (0 without rows): one cub::DeviceReduce::Max, one wait. */
spira_status spira__rows_dev_max(spira_context ctx, const spira__csr_dev *dA, int32_t *K);

/* hist[k] = the rows of dA holding exactly k entries, for k < cap (longer rows are not
 * counted); hist is host memory of cap values. One cub::DeviceHistogram::HistogramEven,
 * one wait. */
spira_status spira__rows_dev_hist(spira_context ctx, const spira__csr_dev *dA, int32_t cap,
                                  int32_t *hist);

/* doff[i] = sum over rows r < i of max(len(r) - skip, 0), for i <= nrows (doff: device, nrows
 * + 1 values), and *total = doff[nrows], the entries beyond the first skip of every row: one
 * cub::DeviceScan::ExclusiveSum, one wait. */
spira_status spira__rows_dev_tail_offsets(spira_context ctx, const spira__csr_dev *dA,
                                          int32_t skip, int32_t *doff, int32_t *total);

/* drow[q] = the i with doff[i] <= q < doff[i + 1], for q < n = doff[nrows] (doff[0] = 0,
 * nondecreasing, device; drow: device, n values): the row index of every entry of a
 * row-major layout whose rows start at doff. No wait. */
spira_status spira__rows_dev_expand(spira_context ctx, int32_t nrows, const int32_t *doff,
                                    int32_t n, int32_t *drow);

/* The row of entry k < nnz of a CSR with nrows rows (rp[0] = 0 <= k < rp[nrows] = nnz): the
 * last i with rp[i] <= k, which skips empty rows. A binary search, for kernels that give
 * each thread a run of entries whatever rows they fall in (balanced over long rows). */
__device__ __forceinline__ int spira__row_of(const int *__restrict__ rp, int nrows, long long k)
{
    int lo = 0, hi = nrows;
    while (hi - lo > 1) {
        const int mid = lo + (hi - lo) / 2;
        if (rp[mid] <= k) lo = mid;
        else hi = mid;
    }
    return lo;
}

/* The entries of chunk q0 of n (the kBlock * kItems entries from q0, cut at n) of a
 * row-major layout whose rows start at off (nrows + 1 offsets, off[nrows] = n), each handed
 * with its row r and that row's first entry b to f(q, r, b): thread t takes q0 + t, q0 + t
 * + kBlock, ..., so that stores to q coalesce, and a run of a long row is spread over the
 * block, whatever the rows' lengths. The block finds its first and last rows by two binary
 * searches, stages their offsets in shared memory when they fit (kBlock * kItems + 1:
 * always but for empty rows), and each entry's row by a search among them. Every thread of
 * the block calls it, with the same q0 (it synchronizes). Where a thread took kItems
 * consecutive entries and searched the row of the first in off, stores were kItems apart
 * and each search walked global memory: SURAA's permuted copy moved 0.85 TB/s on the H100
 * that way (session 22). */
template <int kBlock, int kItems, typename F>
__device__ __forceinline__ void spira__chunk_rows(const int *__restrict__ off, int nrows,
                                                  long long n, long long q0, F f)
{
    constexpr int kChunk = kBlock * kItems;
    __shared__ int staged[kChunk + 1];
    __shared__ int first, count;
    const long long end = q0 + kChunk < n ? q0 + kChunk : n;
    if (threadIdx.x == 0) {
        first = spira__row_of(off, nrows, q0);
        count = spira__row_of(off, nrows, end - 1) - first + 1;
    }
    __syncthreads();
    const int r0 = first, m = count;
    const bool fits = m <= kChunk;
    if (fits)
        for (int k = threadIdx.x; k <= m; k += kBlock) staged[k] = off[r0 + k];
    __syncthreads();
    for (int i = 0; i < kItems; i++) {
        const long long q = q0 + (long long)i * kBlock + threadIdx.x;
        if (q >= end) break;
        int lo = 0, hi = m - 1; /* the last row of the chunk's that starts at or before q */
        while (lo < hi) {
            const int mid = (lo + hi + 1) >> 1;
            if ((fits ? staged[mid] : off[r0 + mid]) <= q) lo = mid;
            else hi = mid - 1;
        }
        f((int)q, r0 + lo, fits ? staged[lo] : off[r0 + lo]);
    }
    __syncthreads(); /* the next chunk's searches write first, count and staged */
}

#endif
