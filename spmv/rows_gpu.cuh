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

/* *ones = 1 when every value of dA is exactly 1 (a pattern file's, a graph's), as
 * spira__csr_values_one decides on the host, else 0 (also without entries): dA's
 * values_one when known (the matrix's upload sets it), else one pass over the values and
 * one wait, kept in dA->values_one for the next caller (auto's statistics, sell's build). */
spira_status spira__rows_dev_values_one(spira_context ctx, const spira__csr_dev *dA,
                                        int32_t *ones);

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

#endif
