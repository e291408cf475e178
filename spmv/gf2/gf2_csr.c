/*
 * gf2_csr.c - the csr format over GF(2) (see gf2.h): the pattern itself, borrowed, and its
 * multiply, which is the CPU reference every GF(2) format is checked against. The kernel
 * is in gf2_gpu.cu.
 */
#include "gf2.h"

void spira__gf2_csr_multiply(const spira__gf2_pattern *A, int words, const uint64_t *x,
                             uint64_t *y)
{
#pragma omp parallel for schedule(static) if (A->nnz > 50000)
    for (int32_t i = 0; i < A->nrows; i++) {
        uint64_t acc[4] = {0, 0, 0, 0};
        for (int32_t k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++)
            for (int q = 0; q < words; q++) acc[q] ^= x[(size_t)A->col_idx[k] * words + q];
        for (int q = 0; q < words; q++) y[(size_t)i * words + q] = acc[q];
    }
}

static spira_status gf2_csr_convert(spira_context ctx, const spira__csr *A, const char *opts,
                                    void **layout)
{
    *layout = NULL;
    int words;
    SPIRA__TRY(spira__gf2_opt_words(ctx, opts, &words));
    spira__gf2_csr *L = spira__malloc(sizeof *L);
    if (!L) return spira__nomem(ctx, "GF(2) CSR layout", sizeof *L);
    *L = (spira__gf2_csr){A, words};
    *layout = L;
    return SPIRA_OK;
}

/* Y = M X: alpha 1, beta 0 (gf2.h) */
static void gf2_csr_apply(const void *layout, double alpha, const void *x, double beta, void *y)
{
    (void)alpha, (void)beta;
    const spira__gf2_csr *L = (const spira__gf2_csr *)layout;
    spira__gf2_csr_multiply(L->A, L->words, (const uint64_t *)x, (uint64_t *)y);
}

static size_t gf2_csr_bytes(const void *layout)
{
    const spira__gf2_pattern *A = ((const spira__gf2_csr *)layout)->A;
    return ((size_t)A->nrows + 1 + (size_t)A->nnz) * sizeof(int32_t);
}

extern const spira__format_gpu spira__gf2_csr_gpu;

const spira__format spira__gf2_csr_format = {
    .name = "csr",
    .description = "the pattern as CSR, V lanes of a warp a row (V from the mean row length), "
                   "XOR reduced by shuffles; the CPU reference",
    .options = "",
    .convert = gf2_csr_convert,
    .apply = gf2_csr_apply,
    .bytes = gf2_csr_bytes,
    .destroy = spira__free, /* the layout is one block */
    .gpu = SPIRA__GPU(&spira__gf2_csr_gpu),
};
