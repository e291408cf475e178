/*
 * sell.h - the host SELL-C-sigma layout (Kreutzer, Hager, Wellein, Fehske, Bishop, SIAM J.
 * Sci. Comput. 2014), shared by sell.c and sell_gpu.cu.
 *
 * Rows are sorted by length, longest first, within windows of sigma rows (stable: equal
 * lengths keep their order); perm[r] is the original row at sorted position r. Sorted
 * rows are cut into slices of C = 32 (a warp); slice s stores width_s = its longest row
 * entries a row, column-major (entry k of lane l at slice_ptr[s] + k*C + l), so a warp
 * reads consecutive addresses. A row shorter than its slice is padded at its end with
 * column -1 (value 0), where the multiply stops. The last slice's missing rows are all
 * padding (perm holds only the nrows real rows). Callers never see the order: y comes out
 * in the original row order.
 *
 * Long rows are kept out of the slices (sigma > 1 only): a row longer than SPIRA__SELL_LONG
 * entries would pad its slice's 31 other rows to its length, as a circuit matrix's dense
 * rows did (4.3 slots a nonzero, bench/results/2026-11-27-session20), and make its warp
 * walk it alone. They follow the sliced rows in the order, sorted longest first across all
 * windows (perm[nrows - nlong ..]), and their entries follow the slots row after row as in
 * CSR: long row j's at long_ptr[j] .. long_ptr[j + 1] of cols and vals.
 * Values all 1 (a pattern file's, a graph's): none are stored (unit, vals NULL), so a
 * multiply reads 4 bytes an entry instead of 12 in double, and adds x's entries as they
 * are (1 * x is x: the same bits as with the ones stored). On the R-MAT graph of 2^20
 * vertices (a pattern) that took sell from 0.130 to 0.115 ms back to back on an H200,
 * where cuSPARSE's CSR, which reads the ones, takes 0.126 (bench/results/
 * 2026-11-28-session28, call 2). Option unit=0 stores them anyway (cuSPARSE's SELL, which
 * borrows this layout, needs them).
 * Hub columns: where a few columns hold most entries at scattered ids (a graph's popular
 * vertices, numbered at random), each gather of x reads a 32-byte sector for one value.
 * Then the columns of at least SPIRA__SELL_HUB_FACTOR x the mean column's entries
 * (spira__sell_hub_min), when there are SPIRA__SELL_HUBS_MIN of them or more and they hold
 * half the entries or more, are renumbered ncols + k, k their rank by decreasing count
 * (ties by column); hubs[k] is the column, and a multiply first gathers x at the hubs into
 * nhubs consecutive values, so the hot entries share sectors and cache lines. The other
 * columns keep their numbers, so a matrix's own locality stays. On R-MAT 2^20 the hubs
 * are 52,675 columns with about 77% of the entries: with unit values sell took 0.105 ms
 * back to back against 0.116 without hubs and cuSPARSE's 0.126, gather included (H200,
 * bench/results/2026-11-28-session28, call 8; the columns renumbered in the file, without
 * the gather, 0.100: call 3), and 0.084 once the long rows' chunks grew to 3,072 entries
 * with hubs (2026-11-29-session29, calls 7-8). Option hubs=0 keeps every column's number.
 */
#ifndef SPIRA_SPMV_SELL_H
#define SPIRA_SPMV_SELL_H

#include "format.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SPIRA__SELL_C 32            /* rows a slice: a warp */
/* The default sigma (sell.c says why): windows of SPIRA__SELL_SIGMA_LARGE rows in a matrix
 * of more than SPIRA__SELL_SIGMA_ROWS rows, of SPIRA__SELL_SIGMA_SMALL in a smaller one */
#define SPIRA__SELL_SIGMA_SMALL 65536
#define SPIRA__SELL_SIGMA_LARGE 1024
#define SPIRA__SELL_SIGMA_ROWS 131072
#define SPIRA__SELL_LONG 64 /* entries beyond which a row is long (sigma > 1): a slice's width
                               where a warp's walk starts to set the multiply's time */
#define SPIRA__SELL_HUB_FACTOR 4   /* a hub column: this many times the mean column's entries */
#define SPIRA__SELL_HUBS_MIN 4096 /* hubs renumbered only when this many or more (fewer fit
                                     the caches scattered as they are) */

typedef struct {
    int32_t nrows, ncols, nnz, sigma, nslices;
    int32_t nlong;      /* rows kept out of the slices: the last nlong of perm */
    spira_dtype dtype;
    int32_t unit;       /* every value is 1: vals is NULL and the multiply reads none */
    int32_t nhubs;      /* hub columns renumbered ncols + k (0: none) */
    int32_t *hubs;      /* nhubs: hub k's column, by decreasing count; NULL without hubs */
    int32_t *slice_ptr; /* nslices + 1 slot offsets; slice s holds (ptr[s+1]-ptr[s])/C a row */
    int32_t *perm;      /* nrows: the original row of each sorted position */
    int32_t *long_ptr;  /* nlong + 1 offsets into cols and vals (from slice_ptr[nslices]);
                           NULL when nlong is 0 */
    int32_t *cols;      /* the slots (-1 for padding), then the long rows' columns (a hub's
                           ncols + its rank) */
    void *vals;         /* as many values of dtype, 0 for padding (NULL when unit) */
    char stats[192];    /* sigma, slices, the padding ratio and the long rows, for benchmarks */
} spira__sell;

/* What the host conversion (sell.c) and the one on the GPU (sell_gpu.cu, whose device
 * handle is a spira__sell with its arrays on the device) share, so that they refuse, size
 * and describe a layout in the same words. */
/* Option sigma: 1 (no sorting) or a positive multiple of C, else SPIRA_ERR_INVALID_ARG;
 * without it the default for a matrix of nrows rows. Options unit and hubs: 1 (the
 * default: no values stored when all are 1; hub columns renumbered) or 0, into *unit_ok
 * and *hubs_ok. */
spira_status spira__sell_opts(spira_context ctx, const char *opts, int32_t nrows,
                              int32_t *sigma, int *unit_ok, int *hubs_ok);
/* The fewest entries a hub column holds in a matrix of ncols columns and nnz entries:
 * SPIRA__SELL_HUB_FACTOR x the mean, rounded up, and at least 2. */
int64_t spira__sell_hub_min(int32_t ncols, int64_t nnz);
/* Whether nhubs hub columns holding hub_entries of nnz entries are renumbered. */
int spira__sell_hubs_used(int64_t nhubs, int64_t hub_entries, int64_t nnz, int32_t ncols);
/* Whether a matrix of ncols columns and nnz entries could have hubs that are used at all
 * (SPIRA__SELL_HUBS_MIN columns of spira__sell_hub_min entries each fit in nnz: so never
 * with fewer than 4 x 4,096 columns); when not, nobody counts the columns. */
int spira__sell_hubs_possible(int32_t ncols, int64_t nnz);
/* *used = whether sell would renumber hub columns of A (one count over A's columns): auto's
 * statistics ask, since a pattern with hubs multiplies faster (cost.c). From the host CSR,
 * or from the device CSR dA (sell_gpu.cu; built without CUDA: absent, SPIRA__GPU). */
spira_status spira__sell_hubs_of(spira_context ctx, const spira__csr *A, int32_t *used);
spira_status spira__sell_dev_hubs_of(spira_context ctx, const struct spira__csr_dev *dA,
                                     int32_t *used);
/* The refusal when the first sl + 1 of nslices slices hold slots > INT32_MAX slots, or (sl =
 * nslices) the slots and the long rows' entries do. */
spira_status spira__sell_refuse(spira_context ctx, int32_t sl, int32_t nslices, int64_t slots);
/* Slice sl's width: the longest of its rows, rows perm[sl * C ..] below sliced (perm NULL:
 * in order). */
int32_t spira__sell_slice_width(const spira__csr *A, const int32_t *perm, int32_t sliced,
                                int32_t sl);
/* The matrix bytes one multiply reads from a layout of these sizes (entries: the slots
 * and the long rows' entries; unit: no values). */
size_t spira__sell_bytes_of(int32_t nrows, int32_t nslices, int32_t nlong, int64_t entries,
                            spira_dtype t, int unit);
/* S->stats from its sizes, its slots, its long rows' entries and its longest row. */
void spira__sell_describe(spira__sell *S, int64_t slots, int64_t long_entries, int32_t longest);
/* The entries of cols and vals of a host layout: its slots, then its long rows' entries. */
int32_t spira__sell_entries(const spira__sell *S);

#ifdef __cplusplus
}
#endif
#endif
