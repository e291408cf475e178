/*
 * lightspmv.c - the host half of LightSpMV (see lightspmv.h).
 */
#include "lightspmv.h"
#include "csr.h"
#include "csr_vector.h"

static spira_status lightspmv_convert(spira_context ctx, const spira__csr *A, const char *opts,
                                      void **layout)
{
    static const char *const levels[] = {"vector", "warp", NULL};
    int level;
    long lanes, batch;
    *layout = NULL;
    SPIRA__TRY(spira__opt_word(ctx, opts, "level", levels, 1, &level));
    double mean_row = A->nrows ? (double)A->nnz / A->nrows : 0;
    SPIRA__TRY(spira__opt_long(ctx, opts, "lanes", spira__csr_vector_lanes(mean_row), &lanes));
    if (lanes < 2 || lanes > 32 || (lanes & (lanes - 1)))
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG,
                            "lightspmv option lanes=%ld: 2, 4, 8, 16 or 32", lanes);
    SPIRA__TRY(spira__opt_long(ctx, opts, "batch", -1, &batch)); /* -1: absent */
    if (batch != -1 && (batch < 1 || batch > 1024))
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG,
                            "lightspmv option batch=%ld: 1 to 1024", batch);
    spira__lightspmv *L = spira__calloc(1, sizeof *L);
    if (!L) return spira__nomem(ctx, "LightSpMV layout", sizeof *L);
    L->csr = A;
    L->warp_level = level == 1;
    L->lanes = (int)lanes;
    L->batch = batch == -1 ? 0 : (int)batch; /* 0: chosen at upload */
    *layout = L;
    return SPIRA_OK;
}

static void lightspmv_apply(const void *layout, double alpha, const void *x, double beta,
                            void *y)
{
    spira__csr_layout_apply(((const spira__lightspmv *)layout)->csr, alpha, x, beta, y);
}

static size_t lightspmv_bytes(const void *layout)
{
    return spira__csr_layout_bytes(((const spira__lightspmv *)layout)->csr);
}

extern const spira__format_gpu spira__lightspmv_gpu;

const spira__format spira__lightspmv_format = {
    .name = "lightspmv",
    .description = "CSR with rows handed out at run time by an atomic row counter to vectors "
                   "of V = 2..32 lanes (Liu & Schmidt 2015): level=warp (default) or vector, "
                   "batch=K (K times the paper's rows per atomic; default: 32 rows, fewer on "
                   "small matrices), lanes=V; deterministic",
    .options = "level lanes batch",
    .convert = lightspmv_convert,
    .apply = lightspmv_apply,
    .bytes = lightspmv_bytes,
    .destroy = spira__free, /* the layout is one block */
    .gpu = SPIRA__GPU(&spira__lightspmv_gpu),
};
