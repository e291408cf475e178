/*
 * cusparse.c - host side of the `cusparse` row: parse the options and remember which
 * cuSPARSE algorithm to use; the matrix itself is the canonical CSR, borrowed (cuSPARSE's
 * COO and SELL are made from it on the device, cusparse_gpu.cu). The row has no CPU
 * reference (it exists to measure NVIDIA's kernels).
 *
 * Option alg: 0 (default: CUSPARSE_SPMV_ALG_DEFAULT on CSR), 1 (CSR_ALG1), 2 (CSR_ALG2),
 * coo (COO_ALG1), coo2 (COO_ALG2) or sell (SELL_ALG1 on slices of 32 rows, unsorted). A
 * deterministic context defaults to alg=2 and takes only the algorithms cuSPARSE documents
 * as bitwise reproducible: 2 and coo2.
 */
#include "cusparse_row.h"
#include "csr.h"
#include "sell.h"

static const char *const alg_names[] = {"0", "1", "2", "coo", "coo2", "sell", NULL};

static spira_status cusparse_convert(spira_context ctx, const spira__csr *A, const char *opts,
                                     void **layout)
{
    *layout = NULL;
    int alg;
    SPIRA__TRY(spira__opt_word(ctx, opts, "alg", alg_names,
                               ctx->deterministic ? SPIRA__CUSPARSE_CSR2 : SPIRA__CUSPARSE_DEFAULT,
                               &alg));
    if (ctx->deterministic && alg != SPIRA__CUSPARSE_CSR2 && alg != SPIRA__CUSPARSE_COO2)
        return spira__error(ctx, SPIRA_ERR_UNSUPPORTED,
                            "cusparse refuses alg=%s in a deterministic context: it is not "
                            "documented bitwise reproducible (use alg=2 or alg=coo2)",
                            alg_names[alg]);
    spira__cusparse_layout *L;
    SPIRA__TRY(spira__alloc(ctx, (void **)&L, 1, sizeof *L, "cuSPARSE layout"));
    L->csr = A;
    L->alg = (spira__cusparse_alg)alg;
    *layout = L;
    return SPIRA_OK;
}

/* Slots of cuSPARSE's SELL: each slice of 32 rows, in order, as wide as its longest row. */
static int64_t sell_slots(const spira__csr *A)
{
    const int64_t nslices = ((int64_t)A->nrows + SPIRA__SELL_C - 1) / SPIRA__SELL_C;
    int64_t slots = 0;
    for (int32_t sl = 0; sl < nslices; sl++)
        slots += (int64_t)spira__sell_slice_width(A, NULL, A->nrows, sl) * SPIRA__SELL_C;
    return slots;
}

/* What one multiply reads: the CSR, COO's rows instead of its pointers, or the SELL. */
static size_t cusparse_bytes(const void *layout)
{
    const spira__cusparse_layout *L = layout;
    const spira__csr *A = L->csr;
    switch (L->alg) {
    case SPIRA__CUSPARSE_COO1:
    case SPIRA__CUSPARSE_COO2:
        return (size_t)A->nnz * (2 * sizeof(int32_t) + spira_dtype_size(A->dtype));
    case SPIRA__CUSPARSE_SELL:
        return spira__sell_bytes_of(0, (A->nrows + SPIRA__SELL_C - 1) / SPIRA__SELL_C, 0,
                                    sell_slots(A), A->dtype, 0);
    default:
        return spira__csr_layout_bytes(A);
    }
}

extern const spira__format_gpu spira__cusparse_gpu;

const spira__format spira__cusparse_format = {
    .name = "cusparse",
    .description = "cuSPARSE generic SpMV, the baseline every benchmark compares with (CUDA "
                   "only): alg=0 ALG_DEFAULT on CSR (default), 1 CSR_ALG1, 2 CSR_ALG2 "
                   "(deterministic), coo COO_ALG1, coo2 COO_ALG2 (deterministic), sell "
                   "SELL_ALG1 (slices of 32 rows)",
    .options = "alg",
    .convert = cusparse_convert,
    .bytes = cusparse_bytes,
    .destroy = spira__free, /* the layout is one block */
    .gpu = SPIRA__GPU(&spira__cusparse_gpu),
};
