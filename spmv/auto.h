/*
 * auto.h - the "auto" format, every matrix's default: it picks the format that minimizes
 * setup + expected multiplies x time per multiply, both predicted from A's row statistics by
 * the cost model of cost.h (H100 measurements). A solve says how many multiplies it expects
 * (spira__spmv_plan_expect: from its tolerance and iteration limit), the matrix adds the
 * multiplies it has made before, and the option expected_multiplies=N overrides both; the
 * choice is weighed again at every solve, so a matrix solved often moves to the format whose
 * conversion has paid for itself. With the option trial=1 the candidates are instead timed
 * on A on the context's own backend, once. spira_matrix_set_format(A, "auto", opts) (auto.c)
 * chooses at once for SPIRA__AUTO_MULTIPLIES; a new matrix chooses at its first multiply or
 * solve; with nobody saying how many, the choice is weighed again each time the multiplies
 * made double. The choice, the predicted totals of every candidate and the realized ones are in
 * spira_matrix_info.format_reason.
 */
#ifndef SPIRA_SPMV_AUTO_H
#define SPIRA_SPMV_AUTO_H

#include "spmv.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What the rules look at. */
typedef struct {
    int32_t nrows, ncols;
    int64_t nnz;
    double mean;      /* nonzeros per row */
    double cv;        /* standard deviation of the row lengths / mean (0 for no rows) */
    int32_t max_row;  /* the longest row */
    double ell_fill;  /* ELL slots (max_row * nrows) per nonzero */
    double dia_fill;  /* DIA slots (occupied diagonals * nrows) per nonzero; counting stops,
                       * and this is > SPIRA__AUTO_DIA_FILL, once that is certain (infinite
                       * when the longest row alone makes it certain) */
    int32_t ones;     /* every value exactly 1: sell stores none (sell.h) */
    int32_t hubs;     /* sell would gather hub columns (sell.h); counted only for a pattern
                       * of uneven rows (ones, cv > SPIRA__AUTO_UNEVEN), the one kind the
                       * cost model prices them in (cost.c), else 0 */
} spira__row_stats;

/* rows whose lengths' cv is beyond this are uneven (cost.h's uneven rates) */
#define SPIRA__AUTO_UNEVEN 0.5

/* dia when its slots per nonzero are at most this (a 2-D/3-D stencil: 1.0) */
#define SPIRA__AUTO_DIA_FILL 1.5
/* ell on a large matrix when its slots per nonzero are at most this */
#define SPIRA__AUTO_ELL_FILL 1.5
/* the multiplies a choice is made for when no caller says (a lone spira_spmv, or "auto"
 * named without expected_multiplies): one, weighed again as they double (auto.c's decide) */
#define SPIRA__AUTO_MULTIPLIES 1
/* A solve that expects more multiplies than this chooses for this many first and again
 * once it has made them, for the multiplies its convergence so far predicts (solvers/
 * solve.c): the expectation from the tolerance alone can be far off (a BiCGSTAB expected to
 * make 612 has converged in 14), and a conversion bought for it then costs more than the
 * whole solve. A faster format chosen late costs at most these multiplies' difference,
 * which the choice for them bounds by that format's setup. */
#define SPIRA__AUTO_STAGE 32

/* The format auto would choose for A over expect more multiplies (and those made), A's
 * choice left as it is: what a staged solve builds beside its first multiplies (solvers/
 * solve.c, background.h). NULL when A's format is not auto's. */
const char *spira__auto_foresee(spira_matrix A, double expect);

/* "; note" after A's format_reason (auto's choice), before what spira__spmv_account adds. */
void spira__auto_note(spira_matrix A, const char *note);

/* beyond this many possible diagonals (nrows + ncols - 1) they are not counted (dia_fill is
 * infinite): such a matrix is not banded enough for DIA anyway unless it is huge, and the
 * flags would be */
#define SPIRA__AUTO_DIAGONALS_COUNTED (INT64_C(1) << 28)

/* A's statistics on the host, one thread. */
spira_status spira__row_stats_of(spira_context ctx, const spira__csr *A, spira__row_stats *s);
/* The same from A's device CSR dA (the CUDA backend; built without CUDA: the "built without
 * CUDA" refusal): a kernel over the rows and dia's diagonal flags over the nonzeros
 * (auto_gpu.cu). Equal to spira__row_stats_of's, field for field, except a dia_fill beyond
 * SPIRA__AUTO_DIA_FILL: the host stops counting there, the GPU counts every diagonal. */
spira_status spira__row_stats_dev(spira_context ctx, const spira__csr *A,
                                  const spira__csr_dev *dA, spira__row_stats *s);
/* The counts behind them, on the GPU (auto_gpu.cu): the longest row, the sum of the squared
 * row lengths, whether every value is 1, and if diagonals and the longest row is at most
 * dia_limit, the occupied diagonals (else *ndiag = -1: a row's entries lie on as many
 * diagonals, so a row longer than the diagonals DIA may have rules it out uncounted). dA
 * has rows and nonzeros. */
spira_status spira__row_counts_gpu(spira_context ctx, const spira__csr_dev *dA, int diagonals,
                                   double dia_limit, int32_t *max_row, int64_t *sum_sq,
                                   int32_t *ones, int64_t *ndiag);
/* The choice for a matrix with these statistics and values of value_size bytes, on the CUDA
 * backend (cuda = 1: the cost model's cheapest total over horizon multiplies; bit i of built
 * marks a candidate whose plan is built, which costs no setup, bit i of cold one whose
 * kernel this process has not run yet, which costs its loading) or the CPU one
 * (csr-scalar), with the reason and the predicted totals written into why. Candidates, bit
 * by bit: csr-vector, cusparse, ell, dia, merge, sell. prefer (NULL: none) names the format
 * a longer horizon would choose, for a staged solve's first stage: it is taken when the
 * cheapest total beats it by at most half its setup (the choice of least regret between a
 * solve that stops within the stage, where the cheapest wins, and one that goes on, where
 * starting on another format pays for prefer's setup as well). */
const char *spira__auto_rule(const spira__row_stats *s, int cuda, size_t value_size,
                             double horizon, unsigned built, unsigned cold, const char *prefer,
                             char *why, size_t len);

#ifdef __cplusplus
}
#endif
#endif
