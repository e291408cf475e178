/*
 * gf2_dense.c - the chapter's dense bitmap over GF(2) (see gf2_parts.h): the bitmap built
 * from a pattern, its CPU multiply, and the standalone `dense` format, which holds the
 * whole matrix as a bitmap and refuses beyond max_fill times the CSR's bytes (a bitmap's
 * size is rows x columns, whatever the entries: 10^6 x 10^6 would be 125 GB). The kernel is
 * in gf2_dense_gpu.cu.
 */
#include "gf2_parts.h"
#include "padding.h"

#include <string.h>

void spira__gf2_dense_free(spira__gf2_dense *D)
{
    spira__free(D->col);
    spira__free(D->bits);
    D->col = NULL, D->bits = NULL;
}

size_t spira__gf2_dense_bytes(const spira__gf2_dense *D)
{
    return (size_t)D->ndense * sizeof(int32_t) +
           (size_t)D->ngroups * (size_t)D->ndense * sizeof(uint32_t);
}

spira_status spira__gf2_dense_check(spira_context ctx, int32_t nrows, int32_t ncols, int32_t nnz,
                                    long max_fill)
{
    const int64_t groups = ((int64_t)nrows + SPIRA__GF2_DENSE_ROWS - 1) / SPIRA__GF2_DENSE_ROWS;
    /* < 2^26 groups x < 2^31 columns x 4 bytes: fits int64 */
    const int64_t bitmap = groups * ncols * (int64_t)sizeof(uint32_t);
    const int64_t csr = ((int64_t)nrows + 1 + nnz) * (int64_t)sizeof(int32_t);
    if ((double)bitmap > (double)max_fill * (double)csr)
        return spira__error(ctx, SPIRA_ERR_UNSUPPORTED,
                            "dense refuses: the bitmap of %d x %d (rows padded to %d) would be "
                            "%lld bytes, %.1fx the %lld bytes of its CSR (limit max_fill=%ld)",
                            nrows, ncols, SPIRA__GF2_DENSE_ROWS, (long long)bitmap,
                            (double)bitmap / (double)csr, (long long)csr, max_fill);
    return SPIRA_OK;
}

spira_status spira__gf2_dense_build(spira_context ctx, const spira__gf2_pattern *P,
                                    const int32_t *dpos, const int32_t *dcol, int32_t ndense,
                                    int words, spira__gf2_dense *D)
{
    memset(D, 0, sizeof *D);
    D->nrows = P->nrows;
    D->ngroups = (int32_t)(((int64_t)P->nrows + SPIRA__GF2_DENSE_ROWS - 1) / SPIRA__GF2_DENSE_ROWS);
    D->ndense = ndense;
    D->words = words;
    spira_status s = spira__alloc(ctx, (void **)&D->col, (size_t)ndense, sizeof(int32_t),
                                  "dense bitmap columns");
    if (s == SPIRA_OK)
        s = spira__alloc(ctx, (void **)&D->bits, (size_t)D->ngroups * (size_t)ndense,
                         sizeof(uint32_t), "dense bitmap");
    if (s != SPIRA_OK) {
        spira__gf2_dense_free(D);
        return s;
    }
    for (int32_t d = 0; d < ndense; d++) D->col[d] = dcol ? dcol[d] : d;
    memset(D->bits, 0, (size_t)D->ngroups * (size_t)ndense * sizeof(uint32_t));
    for (int32_t i = 0; i < P->nrows; i++) {
        uint32_t *w = D->bits + (size_t)(i / SPIRA__GF2_DENSE_ROWS) * (size_t)ndense;
        const uint32_t bit = UINT32_C(1) << (i % SPIRA__GF2_DENSE_ROWS);
        for (int32_t k = P->row_ptr[i]; k < P->row_ptr[i + 1]; k++) {
            const int32_t d = dpos ? dpos[P->col_idx[k]] : P->col_idx[k];
            if (d >= 0) w[d] |= bit;
        }
    }
    return SPIRA_OK;
}

void spira__gf2_dense_accumulate(const spira__gf2_dense *D, const int32_t *perm,
                                 const uint64_t *x, uint64_t *y)
{
    const int words = D->words;
#pragma omp parallel for schedule(static) if ((int64_t)D->ngroups * D->ndense > 50000)
    for (int32_t g = 0; g < D->ngroups; g++) {
        const uint32_t *w = D->bits + (size_t)g * (size_t)D->ndense;
        for (int32_t d = 0; d < D->ndense; d++)
            for (uint32_t b = w[d]; b; b &= b - 1) {
                const int64_t i = (int64_t)g * SPIRA__GF2_DENSE_ROWS + __builtin_ctz(b);
                uint64_t *yr = y + (size_t)(perm ? perm[i] : i) * words;
                for (int q = 0; q < words; q++) yr[q] ^= x[(size_t)D->col[d] * words + q];
            }
    }
}

/* ---- the standalone format -------------------------------------------------------------- */

static void gf2_dense_destroy(void *layout)
{
    spira__gf2_dense *D = (spira__gf2_dense *)layout;
    if (!D) return;
    spira__gf2_dense_free(D);
    spira__free(D);
}

static spira_status gf2_dense_convert(spira_context ctx, const spira__csr *A, const char *opts,
                                      void **layout)
{
    *layout = NULL;
    int words;
    long max_fill;
    SPIRA__TRY(spira__gf2_opt_words(ctx, opts, &words));
    SPIRA__TRY(spira__opt_max_fill(ctx, opts, "dense", &max_fill));
    SPIRA__TRY(spira__gf2_dense_check(ctx, A->nrows, A->ncols, A->nnz, max_fill));
    spira__gf2_dense *D = spira__calloc(1, sizeof *D);
    if (!D) return spira__nomem(ctx, "dense layout", sizeof *D);
    spira_status s = spira__gf2_dense_build(ctx, A, NULL, NULL, A->ncols, words, D);
    if (s != SPIRA_OK) {
        spira__free(D);
        return s;
    }
    *layout = D;
    return SPIRA_OK;
}

/* Y = M X: alpha 1, beta 0 (gf2.h) */
static void gf2_dense_apply(const void *layout, double alpha, const void *x, double beta,
                            void *y)
{
    (void)alpha, (void)beta;
    const spira__gf2_dense *D = (const spira__gf2_dense *)layout;
    memset(y, 0, (size_t)D->nrows * D->words * sizeof(uint64_t));
    spira__gf2_dense_accumulate(D, NULL, (const uint64_t *)x, (uint64_t *)y);
}

static size_t gf2_dense_bytes(const void *layout)
{
    return spira__gf2_dense_bytes((const spira__gf2_dense *)layout);
}

extern const spira__format_gpu spira__gf2_dense_gpu;

const spira__format spira__gf2_dense_format = {
    .name = "dense",
    .description = "the chapter's dense bitmap: 32 rows of a column in a 32-bit word, a thread "
                   "a column, XOR partials per warp and per block; the whole matrix, refused "
                   "beyond max_fill (default 3) times its CSR's bytes",
    .options = "max_fill",
    .convert = gf2_dense_convert,
    .apply = gf2_dense_apply,
    .bytes = gf2_dense_bytes,
    .destroy = gf2_dense_destroy,
    .gpu = SPIRA__GPU(&spira__gf2_dense_gpu),
};
