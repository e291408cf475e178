/*
 * merge.h - the merge-based CSR of Merrill and Garland (SC 2016, "Merge-based parallel
 * sparse matrix-vector multiplication"), shared by merge.c and merge_gpu.cu.
 *
 * The merge path walks two lists at once: the row ends (row_ptr[1..nrows]) and the
 * nonzero indices 0..nnz-1; a step down consumes a row end (the row is done), a step
 * right consumes a nonzero. Its nrows + nnz steps are cut into equal shares of `items`
 * steps, one a thread, whatever the row lengths: thread t starts at diagonal t*items and
 * finds where the path crosses it by a binary search. A thread writes every row it ends;
 * the partial sum of the row it stops inside is its carry-out (row, value), added to the
 * row by whoever ends it, in thread order, without atomics: the same bits run to run (and
 * on every GPU, since the shares depend on the matrix alone). On the GPU the threads go
 * in tiles of 128 that stage their steps in shared memory (merge_gpu.cu).
 */
#ifndef SPIRA_SPMV_MERGE_H
#define SPIRA_SPMV_MERGE_H

#include "format.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SPIRA__MERGE_ITEMS_DEFAULT 7 /* path steps a thread (merge.c says why) */
#define SPIRA__MERGE_SHORT_PATH 16384 /* rows + nonzeros up to which the default is 1 */
#define SPIRA__MERGE_ITEMS_MAX 32     /* a tile's staging fits 48 KB of shared memory */
#define SPIRA__MERGE_TILE_THREADS 128 /* threads a tile on the GPU (merge_gpu.cu) */

typedef struct {
    const spira__csr *A; /* borrowed */
    int32_t items;       /* merge-path steps a thread */
    int32_t nthreads;    /* ceil((nrows + nnz) / items) */
    int32_t ntiles;      /* ceil(nthreads / SPIRA__MERGE_TILE_THREADS): one carry-out each */
    char stats[112];
} spira__merge;

#ifdef __CUDACC__
#define SPIRA__MERGE_HD __host__ __device__
#else
#define SPIRA__MERGE_HD
#endif

/* Where the merge path crosses diagonal d (0 <= d <= nrows + nnz): *row row ends and *nz
 * nonzeros consumed, *row + *nz = d (Merrill & Garland's MergePathSearch). */
static inline SPIRA__MERGE_HD void spira__merge_search(int64_t d, const int32_t *row_end,
                                                       int32_t nrows, int32_t nnz,
                                                       int32_t *row, int32_t *nz)
{
    int64_t lo = d > nnz ? d - nnz : 0, hi = d < nrows ? d : nrows;
    while (lo < hi) {
        int64_t pivot = (lo + hi) >> 1;
        if (row_end[pivot] <= d - pivot - 1) lo = pivot + 1; /* row pivot ends before */
        else hi = pivot;
    }
    *row = (int32_t)lo;
    *nz = (int32_t)(d - lo);
}

#ifdef __cplusplus
}
#endif
#endif
