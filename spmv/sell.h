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
 */
#ifndef SPIRA_SPMV_SELL_H
#define SPIRA_SPMV_SELL_H

#include "format.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SPIRA__SELL_C 32            /* rows a slice: a warp */
#define SPIRA__SELL_SIGMA_DEFAULT 65536 /* rows a sorting window (sell.c says why) */

typedef struct {
    int32_t nrows, ncols, nnz, sigma, nslices;
    spira_dtype dtype;
    int32_t *slice_ptr; /* nslices + 1 slot offsets; slice s holds (ptr[s+1]-ptr[s])/C a row */
    int32_t *perm;      /* nrows: the original row of each sorted position */
    int32_t *cols;      /* slice_ptr[nslices] slots, -1 for padding */
    void *vals;         /* as many values of dtype, 0 for padding */
    char stats[160];    /* sigma, slices and the padding ratio, for benchmarks */
} spira__sell;

/* What the host conversion (sell.c) and the one on the GPU (sell_gpu.cu, whose device
 * handle is a spira__sell with its arrays on the device) share, so that they refuse, size
 * and describe a layout in the same words. */
/* Option sigma: 1 (no sorting) or a positive multiple of C, else SPIRA_ERR_INVALID_ARG. */
spira_status spira__sell_opt_sigma(spira_context ctx, const char *opts, int32_t *sigma);
/* The refusal when the first sl + 1 of nslices slices hold slots > INT32_MAX slots. */
spira_status spira__sell_refuse(spira_context ctx, int32_t sl, int32_t nslices, int64_t slots);
/* Slice sl's width: the longest of its rows, rows perm[sl * C ..] (perm NULL: in order). */
int32_t spira__sell_slice_width(const spira__csr *A, const int32_t *perm, int32_t sl);
/* The matrix bytes one multiply reads from a layout of these sizes. */
size_t spira__sell_bytes_of(int32_t nrows, int32_t nslices, int64_t slots, spira_dtype t);
/* S->stats from its sizes, its slots and its longest row. */
void spira__sell_describe(spira__sell *S, int64_t slots, int32_t longest);

#ifdef __cplusplus
}
#endif
#endif
