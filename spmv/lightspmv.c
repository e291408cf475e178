/*
 * lightspmv.c - the host half of LightSpMV (see lightspmv.h).
 */
#include "lightspmv.h"
#include "csr_vector.h"

spira_status spira__lightspmv_convert(spira_context ctx, const spira__csr *A, const char *opts,
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

void spira__lightspmv_host_apply(const void *layout, double alpha, const void *x, double beta,
                                 void *y)
{
    spira__csr_layout_apply(((const spira__lightspmv *)layout)->csr, alpha, x, beta, y);
}

size_t spira__lightspmv_bytes(const void *layout)
{
    return spira__csr_layout_bytes(((const spira__lightspmv *)layout)->csr);
}

void spira__lightspmv_destroy(void *layout)
{
    spira__free(layout);
}
