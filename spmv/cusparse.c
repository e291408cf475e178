/*
 * cusparse.c - host side of the `cusparse` row: parse the options and remember which
 * cuSPARSE algorithm to use; the matrix itself is the canonical CSR, borrowed. The row has
 * no CPU reference (it exists to measure NVIDIA's kernel), see cusparse_gpu.cu.
 *
 * Options: "alg=0" (default: CUSPARSE_SPMV_ALG_DEFAULT) or "alg=2" (CUSPARSE_SPMV_CSR_ALG2,
 * bitwise reproducible). A deterministic context defaults to alg=2.
 */
#include "cusparse_row.h"
#include "csr.h"

static spira_status cusparse_convert(spira_context ctx, const spira__csr *A, const char *opts,
                                     void **layout)
{
    *layout = NULL;
    long alg;
    SPIRA__TRY(spira__opt_long(ctx, opts, "alg", ctx->deterministic ? 2 : 0, &alg));
    if (alg != 0 && alg != 2)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG,
                            "cusparse option alg=%ld: 0 (ALG_DEFAULT) or 2 (CSR_ALG2)", alg);
    if (alg == 0 && ctx->deterministic)
        return spira__error(ctx, SPIRA_ERR_UNSUPPORTED,
                            "cusparse refuses alg=0 in a deterministic context: ALG_DEFAULT is "
                            "not documented bitwise reproducible (use alg=2)");
    spira__cusparse_layout *L;
    SPIRA__TRY(spira__alloc(ctx, (void **)&L, 1, sizeof *L, "cuSPARSE layout"));
    L->csr = A;
    L->alg = (int)alg;
    *layout = L;
    return SPIRA_OK;
}

static size_t cusparse_bytes(const void *layout)
{
    return spira__csr_layout_bytes(((const spira__cusparse_layout *)layout)->csr);
}

extern const spira__format_gpu spira__cusparse_gpu;

const spira__format spira__cusparse_format = {
    .name = "cusparse",
    .description = "cuSPARSE generic SpMV on CSR, the baseline every benchmark compares with "
                   "(CUDA only; alg=2: CSR_ALG2, deterministic; the default ALG_DEFAULT may "
                   "not be)",
    .options = "alg",
    .convert = cusparse_convert,
    .bytes = cusparse_bytes,
    .destroy = spira__free, /* the layout is one block */
    .gpu = SPIRA__GPU(&spira__cusparse_gpu),
};
