/*
 * hyb.c - host side of the hyb format: the ELL width from the row-length histogram,
 * conversion into an ELL part and a COO remainder, and the CPU reference multiply
 * (ELL with beta, then COO accumulating, exactly as the GPU does).
 */
#include "hyb.h"

#include <limits.h>
#include <string.h>

int32_t spira__hyb_hist_cap(const spira__csr *A, long min_rows)
{
    int64_t need = ((int64_t)A->nrows + 2) / 3;
    if (min_rows > need) need = min_rows;
    if (A->nrows == 0 || need > A->nrows) return 0;
    int64_t kmax = A->nnz / need; /* rows_ge(k) >= need only if k*need <= nnz */
    if (kmax > A->ncols) kmax = A->ncols;
    return kmax + 1 > INT32_MAX - 1 ? INT32_MAX - 1 : (int32_t)(kmax + 1);
}

int32_t spira__hyb_width_of(const int32_t *hist, int32_t cap, int32_t nrows, long min_rows)
{
    /* rows_ge(k) for k = K+1 only needs the count of rows of length exactly k: walk the
     * histogram upwards, removing the rows shorter than k as k grows. */
    int32_t K = 0;
    int64_t ge = nrows; /* rows_ge(0) */
    for (int32_t k = 1; k <= cap; k++) {
        ge -= hist[k - 1]; /* rows_ge(k) */
        if (3 * ge < nrows || ge < min_rows) break;
        K = k;
    }
    return K;
}

spira_status spira__hyb_width(spira_context ctx, const spira__csr *A, long min_rows, int32_t *K)
{
    *K = 0;
    int32_t cap = spira__hyb_hist_cap(A, min_rows), *hist = NULL;
    if (cap == 0) return SPIRA_OK;
    SPIRA__TRY(spira__alloc(ctx, (void **)&hist, (size_t)cap, sizeof(int32_t),
                            "HYB row-length histogram"));
    memset(hist, 0, (size_t)cap * sizeof(int32_t));
    for (int32_t i = 0; i < A->nrows; i++) {
        int32_t len = A->row_ptr[i + 1] - A->row_ptr[i];
        if (len < cap) hist[len]++;
    }
    *K = spira__hyb_width_of(hist, cap, A->nrows, min_rows);
    spira__free(hist);
    return SPIRA_OK;
}

spira_status spira__hyb_options(spira_context ctx, const char *opts, long *min_rows, long *width,
                                long *interval)
{
    SPIRA__TRY(spira__opt_long(ctx, opts, "min_rows", SPIRA__HYB_MIN_ROWS, min_rows));
    SPIRA__TRY(spira__opt_long(ctx, opts, "ell_width", LONG_MIN, width));
    SPIRA__TRY(spira__coo_opt_interval(ctx, opts, "hyb", interval));
    if (*min_rows < 0)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG,
                            "hyb: option min_rows must be at least 0, got %ld", *min_rows);
    if (*width < 0 && *width != LONG_MIN)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG,
                            "hyb: option ell_width must be at least 0, got %ld", *width);
    return SPIRA_OK;
}

static void hyb_destroy(void *layout);

/* Options: min_rows=N (default 4096, N >= 0), ell_width=N (force K = N, clamped to the
 * longest row), interval=N (the COO part's nonzeros per warp on the GPU, see coo.h). */
static spira_status hyb_convert(spira_context ctx, const spira__csr *A, const char *opts,
                                void **layout)
{
    *layout = NULL;
    long min_rows, width, interval;
    SPIRA__TRY(spira__hyb_options(ctx, opts, &min_rows, &width, &interval));
    int32_t K;
    if (width != LONG_MIN) {
        int32_t maxlen = spira__csr_max_row(A);
        K = width > maxlen ? maxlen : (int32_t)width;
    } else SPIRA__TRY(spira__hyb_width(ctx, A, min_rows, &K));
    spira__hyb *h = spira__calloc(1, sizeof *h);
    if (!h) return spira__nomem(ctx, "HYB layout", sizeof *h);
    spira_status s = spira__ell_build(ctx, A, K, "hyb", &h->ell);
    if (s == SPIRA_OK) s = spira__coo_build(ctx, A, K, &h->coo);
    if (s != SPIRA_OK) {
        hyb_destroy(h);
        return s;
    }
    h->coo.interval = interval;
    *layout = h;
    return SPIRA_OK;
}

static void hyb_apply(const void *layout, double alpha, const void *x, double beta, void *y)
{
    const spira__hyb *h = (const spira__hyb *)layout;
    spira__ell_apply(&h->ell, alpha, x, beta, y); /* y <- alpha*E*x + beta*y */
    spira__coo_accumulate(&h->coo, alpha, x, y);  /* y <- y + alpha*C*x */
}

static size_t hyb_bytes(const void *layout)
{
    const spira__hyb *h = (const spira__hyb *)layout;
    return spira__ell_bytes(&h->ell) + spira__coo_bytes(&h->coo);
}

static void hyb_destroy(void *layout)
{
    spira__hyb *h = (spira__hyb *)layout;
    if (!h) return;
    spira__ell_free(&h->ell);
    spira__coo_free(&h->coo);
    spira__free(h);
}

extern const spira__format_gpu spira__hyb_gpu;

const spira__format spira__hyb_format = {
    .name = "hyb",
    .description = "HYB, ELL of width K (a column while >= 1/3 of the rows and >= 4096 rows "
                   "fill it) plus COO for the rest; no atomics (Bell & Garland 2008)",
    .options = "min_rows ell_width interval",
    .convert = hyb_convert,
    .apply = hyb_apply,
    .bytes = hyb_bytes,
    .destroy = hyb_destroy,
    .gpu = SPIRA__GPU(&spira__hyb_gpu),
};
