/*
 * hyb.h - the host HYB layout (Bell & Garland 2008): an ELL part holding the first K
 * entries of every row and a COO part holding the rest, built from the ELL and COO pieces.
 *
 * The width rule (spira__hyb_width): with rows_ge(k) the number of rows holding k or more
 * nonzeros, K is the largest k with
 *     3 * rows_ge(k) >= nrows   and   rows_ge(k) >= min_rows,
 * i.e. the k-th ELL column is added while at least a third of the rows fill it (the
 * paper's rule: ELL is about three times faster per entry than COO, so a column is worth
 * it while at most two thirds of it are padding), and while at least min_rows rows fill it
 * (CUSP's breakeven threshold, 4096: a column shorter than that has too little parallelism
 * to beat COO). Since rows_ge falls with k, this is the same as CUSP's
 * compute_optimal_entries_per_row(relative_speed 3, breakeven_threshold 4096). The rule
 * keeps the ELL part's fill K*nrows/nnz_ell at most 3.
 *
 * The rule reads the row-length histogram only below cap (spira__hyb_hist_cap): with
 * need = max(ceil(nrows/3), min_rows) rows to fill a column, rows_ge(k) >= need needs
 * k*need <= nnz and k <= ncols, so k = cap = min(nnz/need, ncols) + 1 always fails and the
 * walk stops there. That bounds the histogram by three times the mean row length, whatever
 * the longest row, which is what lets the GPU's conversion download it at once.
 */
#ifndef SPIRA_SPMV_HYB_H
#define SPIRA_SPMV_HYB_H

#include "coo.h"
#include "ell.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SPIRA__HYB_MIN_ROWS 4096 /* CUSP's breakeven_threshold */

typedef struct {
    spira__ell ell; /* the first K entries of every row */
    spira__coo coo; /* the entries beyond K */
} spira__hyb;

/* K by the rule above; 0 for a matrix without rows. */
spira_status spira__hyb_width(spira_context ctx, const spira__csr *A, long min_rows, int32_t *K);
/* The histogram bins the rule reads, [0, cap): 0 when no column can be filled (no rows, or
 * min_rows beyond nrows), and never beyond INT32_MAX - 1 (then K stops there: a width the
 * slot check refuses anyway). */
int32_t spira__hyb_hist_cap(const spira__csr *A, long min_rows);
/* The rule over hist[k] = rows of length k, k < cap (spira__hyb_hist_cap). */
int32_t spira__hyb_width_of(const int32_t *hist, int32_t cap, int32_t nrows, long min_rows);
/* hyb's options, checked (convert's and the GPU build's): min_rows (>= 0), ell_width
 * (>= 0; LONG_MIN when absent) and the COO part's interval. */
spira_status spira__hyb_options(spira_context ctx, const char *opts, long *min_rows, long *width,
                                long *interval);

#ifdef __cplusplus
}
#endif

#endif
