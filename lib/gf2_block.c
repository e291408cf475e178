/*
 * gf2_block.c - blocks of W-bit vectors over GF(2) (see the GF(2) section of spira.h):
 * nrows rows of W / 64 words, where the context computes.
 */
#include "spira_impl.h"
#include "cuda/gateway.h"

spira_status spira__gf2_width_check(spira_context ctx, int width)
{
    if (width == 64 || width == 128 || width == 256) return SPIRA_OK;
    return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "GF(2) block width %d: 64, 128 or 256", width);
}

spira_status spira_gf2_block_create(spira_context ctx, int64_t nrows, int width,
                                    spira_gf2_block *out)
{
    if (!ctx || !out) return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "NULL context or output");
    *out = NULL;
    SPIRA__TRY(spira__gf2_width_check(ctx, width));
    if (nrows < 0)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "GF(2) block rows %lld < 0",
                            (long long)nrows);
    if (nrows > INT32_MAX)
        return spira__error(ctx, SPIRA_ERR_UNSUPPORTED,
                            "GF(2) block rows %lld do not fit 32-bit indices (limit %d)",
                            (long long)nrows, INT32_MAX);
    spira_gf2_block X = spira__calloc(1, sizeof *X);
    if (!X) return spira__nomem(ctx, "GF(2) block handle", sizeof *X);
    X->ctx = ctx;
    X->nrows = (int32_t)nrows;
    X->words = width / 64;
    const size_t bytes = (size_t)nrows * (size_t)X->words * sizeof(uint64_t);
    spira_status s = spira__mem_alloc(ctx, (void **)&X->data, bytes, "GF(2) block");
    if (s == SPIRA_OK) s = spira__mem_zero(ctx, X->data, bytes);
    if (s != SPIRA_OK) {
        spira_gf2_block_destroy(X);
        return s;
    }
    *out = X;
    return SPIRA_OK;
}

void spira_gf2_block_destroy(spira_gf2_block X)
{
    if (!X) return;
    spira__mem_free(X->ctx, X->data);
    spira__free(X);
}

static size_t block_bytes(spira_gf2_block X)
{
    return (size_t)X->nrows * (size_t)X->words * sizeof(uint64_t);
}

static spira_status check_host(spira_gf2_block X, const uint64_t *host)
{
    if (!X) return SPIRA_ERR_INVALID_ARG;
    if (!host && X->nrows) return spira__error(X->ctx, SPIRA_ERR_INVALID_ARG, "NULL host array");
    return SPIRA_OK;
}

spira_status spira_gf2_block_set(spira_gf2_block X, const uint64_t *host)
{
    SPIRA__TRY(check_host(X, host));
    return spira__mem_upload(X->ctx, X->data, host, block_bytes(X));
}

spira_status spira_gf2_block_get(spira_gf2_block X, uint64_t *host)
{
    SPIRA__TRY(check_host(X, host));
    return spira__mem_download(X->ctx, host, X->data, block_bytes(X));
}

spira_status spira__gf2_xor_masked(spira_context ctx, int32_t n, const uint64_t *x, uint64_t mask,
                                   uint64_t *y)
{
    if (ctx->backend == SPIRA_BACKEND_CUDA) return spira__cuda_gf2_xor_masked(ctx, n, x, mask, y);
    for (int32_t i = 0; i < n; i++) y[i] ^= x[i] & mask;
    return SPIRA_OK;
}

spira_status spira__gf2_dot_into(spira_context ctx, int32_t n, const uint64_t *x,
                                 const uint64_t *y, uint64_t *out)
{
    if (ctx->backend == SPIRA_BACKEND_CUDA) return spira__cuda_gf2_dot_into(ctx, n, x, y, out);
    uint64_t acc = 0;
    for (int32_t i = 0; i < n; i++) acc ^= x[i] & y[i];
    *out ^= acc;
    return SPIRA_OK;
}

spira_status spira__gf2_or_into(spira_context ctx, int32_t n, const uint64_t *x, uint64_t *out)
{
    if (ctx->backend == SPIRA_BACKEND_CUDA) return spira__cuda_gf2_or_into(ctx, n, x, out);
    uint64_t acc = 0;
    for (int32_t i = 0; i < n; i++) acc |= x[i];
    *out |= acc;
    return SPIRA_OK;
}
