/*
 * lightspmv.c - the host half of LightSpMV (see lightspmv.h).
 */
#include "lightspmv.h"

spira_status spira__lightspmv_convert(spira_context ctx, const spira__csr *A, const char *opts,
                                      void **layout)
{
    static const char *const levels[] = {"vector", "warp", NULL};
    int level;
    *layout = NULL;
    SPIRA__TRY(spira__opt_word(ctx, opts, "level", levels, 1, &level));
    spira__lightspmv *L = spira__calloc(1, sizeof *L);
    if (!L) return spira__nomem(ctx, "LightSpMV layout", sizeof *L);
    L->csr = A;
    L->warp_level = level == 1;
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
