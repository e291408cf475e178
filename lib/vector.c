/*
 * vector.c - dense vectors stored where the context computes (device or host), and the
 * memory helpers that the other layers use to place data there.
 */
#include "spira_impl.h"
#include "cuda/gateway.h"

#include <string.h>

static int on_gpu(spira_context ctx)
{
    return ctx->backend == SPIRA_BACKEND_CUDA;
}

spira_status spira__mem_alloc(spira_context ctx, void **p, size_t bytes, const char *what)
{
    *p = NULL;
    if (on_gpu(ctx)) return spira__cuda_malloc(ctx, p, bytes, what);
    return spira__alloc(ctx, p, bytes, 1, what);
}

void spira__mem_free(spira_context ctx, void *p)
{
    if (!p) return;
    if (on_gpu(ctx)) spira__cuda_free(ctx, p);
    else spira__free(p);
}

spira_status spira__mem_upload(spira_context ctx, void *dst, const void *src, size_t bytes)
{
    if (bytes == 0) return SPIRA_OK;
    if (on_gpu(ctx)) return spira__cuda_upload(ctx, dst, src, bytes);
    memcpy(dst, src, bytes);
    return SPIRA_OK;
}

spira_status spira__mem_download(spira_context ctx, void *dst, const void *src, size_t bytes)
{
    if (bytes == 0) return SPIRA_OK;
    if (on_gpu(ctx)) return spira__cuda_download(ctx, dst, src, bytes);
    memcpy(dst, src, bytes);
    return SPIRA_OK;
}

spira_status spira__mem_zero(spira_context ctx, void *p, size_t bytes)
{
    if (bytes == 0) return SPIRA_OK;
    if (on_gpu(ctx)) return spira__cuda_zero(ctx, p, bytes);
    memset(p, 0, bytes);
    return SPIRA_OK;
}

spira_status spira__mem_copy(spira_context ctx, void *dst, const void *src, size_t bytes)
{
    if (bytes == 0) return SPIRA_OK;
    if (on_gpu(ctx)) return spira__cuda_copy(ctx, dst, src, bytes);
    memcpy(dst, src, bytes);
    return SPIRA_OK;
}

spira_status spira_vector_create(spira_context ctx, int64_t n, spira_dtype dtype, spira_vector *out)
{
    if (!ctx || !out) return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "NULL context or output");
    *out = NULL;
    if (n < 0) return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "vector length %lld < 0", (long long)n);
    if (n > INT32_MAX)
        return spira__error(ctx, SPIRA_ERR_UNSUPPORTED,
                            "vector length %lld does not fit 32-bit indices (limit %d)",
                            (long long)n, INT32_MAX);
    if (dtype != SPIRA_R32 && dtype != SPIRA_R64)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "unknown dtype %d", (int)dtype);
    spira_vector v = spira__calloc(1, sizeof *v);
    if (!v) return spira__nomem(ctx, "vector handle", sizeof *v);
    v->ctx = ctx;
    v->n = (int32_t)n;
    v->dtype = dtype;
    spira_status s = spira__mem_alloc(ctx, &v->data, (size_t)n * spira_dtype_size(dtype),
                                      "vector values");
    if (s != SPIRA_OK) {
        spira__free(v);
        return s;
    }
    *out = v;
    return SPIRA_OK;
}

void spira_vector_destroy(spira_vector v)
{
    if (!v) return;
    spira__mem_free(v->ctx, v->data);
    spira__free(v);
}

int64_t spira_vector_length(spira_vector v)
{
    return v ? v->n : 0;
}

spira_dtype spira_vector_dtype(spira_vector v)
{
    return v ? v->dtype : SPIRA_R64;
}

static size_t vbytes(spira_vector v)
{
    return (size_t)v->n * spira_dtype_size(v->dtype);
}

spira_status spira_vector_set(spira_vector v, const void *host)
{
    if (!v || (!host && v->n)) return SPIRA_ERR_INVALID_ARG;
    return spira__mem_upload(v->ctx, v->data, host, vbytes(v));
}

spira_status spira_vector_get(spira_vector v, void *host)
{
    if (!v || (!host && v->n)) return SPIRA_ERR_INVALID_ARG;
    return spira__mem_download(v->ctx, host, v->data, vbytes(v));
}

spira_status spira_vector_set_f64(spira_vector v, const double *host)
{
    if (!v || (!host && v->n)) return SPIRA_ERR_INVALID_ARG;
    if (v->dtype == SPIRA_R64) return spira_vector_set(v, host);
    float *tmp = NULL;
    SPIRA__TRY(spira__alloc(v->ctx, (void **)&tmp, (size_t)v->n, sizeof *tmp, "staging"));
    for (int32_t i = 0; i < v->n; i++) tmp[i] = (float)host[i];
    spira_status s = spira_vector_set(v, tmp);
    spira__free(tmp);
    return s;
}

spira_status spira_vector_get_f64(spira_vector v, double *host)
{
    if (!v || (!host && v->n)) return SPIRA_ERR_INVALID_ARG;
    if (v->dtype == SPIRA_R64) return spira_vector_get(v, host);
    float *tmp = NULL;
    SPIRA__TRY(spira__alloc(v->ctx, (void **)&tmp, (size_t)v->n, sizeof *tmp, "staging"));
    spira_status s = spira_vector_get(v, tmp);
    if (s == SPIRA_OK)
        for (int32_t i = 0; i < v->n; i++) host[i] = tmp[i];
    spira__free(tmp);
    return s;
}

spira_status spira__vectors_match(spira_vector x, spira_vector y, spira_vector z)
{
    spira_vector v[3] = {x, y, z}, first = NULL;
    for (int i = 0; i < 3; i++) {
        if (!v[i]) continue;
        if (!first) {
            first = v[i];
            continue;
        }
        if (v[i]->ctx != first->ctx)
            return spira__error(first->ctx, SPIRA_ERR_INVALID_ARG,
                                "vectors belong to different contexts");
        if (v[i]->n != first->n)
            return spira__error(first->ctx, SPIRA_ERR_INVALID_ARG,
                                "vector lengths differ: %d and %d", first->n, v[i]->n);
        if (v[i]->dtype != first->dtype)
            return spira__error(first->ctx, SPIRA_ERR_INVALID_ARG,
                                "vector precisions differ (float and double)");
    }
    return first ? SPIRA_OK : SPIRA_ERR_INVALID_ARG;
}
