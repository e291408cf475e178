/*
 * spmv.c - the plan cache (a plan is built once per matrix, format and options, then
 * reused), a built plan's multiply and the count of multiplies. It calls nothing above
 * it: choosing the format is auto.c's, and the public calls that settle that choice
 * before they look a plan up are multiply.c's.
 */
#include "spmv.h"
#include "device.h"
#include "csr.h"
#include "cuda/gateway.h"

#include <stdio.h>
#include <string.h>

void spira__plan_destroy(void *p)
{
    spira__spmv_plan *plan = (spira__spmv_plan *)p;
    if (!plan) return;
    spira__replay_clear(plan->ctx, &plan->replay); /* before the arrays its graphs read */
    if (plan->dev) spira__dev_destroy(plan->ctx, plan->fmt->gpu, plan->dev);
    if (plan->layout && plan->fmt->destroy) plan->fmt->destroy(plan->layout);
    spira__free(plan);
}

/* plans made so far in the process, for their serials */
static _Atomic uint64_t plans_made;

spira_status spira__plan_build(spira_context ctx, const char *kind, const spira__format *f,
                               const spira__csr *A, const spira__csr_dev *dA, const char *opts,
                               spira__spmv_plan **out)
{
    *out = NULL;
    int gpu = ctx->backend == SPIRA_BACKEND_CUDA;
    if (gpu && !f->gpu)
        return spira__error(ctx, SPIRA_ERR_UNSUPPORTED,
                            "%s format '%s' has no CUDA kernel in this build", kind, f->name);
    if (!gpu && !f->apply)
        return spira__error(ctx, SPIRA_ERR_UNSUPPORTED,
                            "%s format '%s' needs the CUDA backend", kind, f->name);
    spira__spmv_plan *p = spira__calloc(1, sizeof *p);
    if (!p) return spira__nomem(ctx, "SpMV plan", sizeof *p);
    p->ctx = ctx;
    p->fmt = f;
    p->serial = ++plans_made;
    spira_status s;
    double t0 = spira__now_ms();
    if (gpu && dA && f->gpu->build) { /* converted on the GPU: no host layout */
        s = spira__dev_build(ctx, f->gpu, f->name, A, dA, opts, &p->dev, &p->bytes);
        if (s == SPIRA_OK) s = spira_context_synchronize(ctx);
        p->convert_ms = spira__now_ms() - t0;
        p->on_device = 1;
    } else {
        s = f->convert(ctx, A, opts, &p->layout);
        double t1 = spira__now_ms();
        p->convert_ms = t1 - t0;
        if (s == SPIRA_OK) {
            p->bytes = f->bytes(p->layout);
            if (gpu) {
                s = spira__dev_create(ctx, f->gpu, f->name, p->layout, dA ? A : NULL, dA,
                                      &p->dev);
                if (s == SPIRA_OK) s = spira_context_synchronize(ctx);
                p->upload_ms = spira__now_ms() - t1;
            }
        }
    }
    if (s != SPIRA_OK) {
        spira__plan_destroy(p);
        return s;
    }
    *out = p;
    return SPIRA_OK;
}

#define CSR_DEVICE_KEY "csr:device"

static void csr_dev_entry_destroy(void *dev)
{
    spira__csr_dev_entry *e = (spira__csr_dev_entry *)dev;
    spira__dev_destroy(e->ctx, spira__csr_scalar_format.gpu, e->dev);
    spira__free(e);
}

/* Cached in A before any plan that borrows it, so A's destroy (newest entry first) frees
 * those plans before it; the key is never dropped while A lives. */
spira_status spira__matrix_csr_dev(spira_matrix A, const spira__csr_dev **dA, double *upload_ms)
{
    *dA = NULL;
    if (upload_ms) *upload_ms = 0;
    spira_context ctx = A->ctx;
    if (ctx->backend != SPIRA_BACKEND_CUDA || ctx->host_convert) return SPIRA_OK;
    spira__cache_entry *e = spira__matrix_cache_find(A, CSR_DEVICE_KEY);
    if (!e) {
        const double t0 = spira__now_ms();
        spira__csr_dev_entry *c;
        SPIRA__TRY(spira__alloc(ctx, (void **)&c, 1, sizeof *c, "device CSR entry"));
        c->ctx = ctx;
        /* values all 1 (a graph's): filled on the device, not copied (half a double
         * pattern's bytes, and the staging copy's) */
        spira__csr up = A->csr;
        const int ones = spira__csr_values_one(&A->csr);
        if (ones) up.val = NULL;
        spira_status s = spira__dev_create(ctx, spira__csr_scalar_format.gpu, "CSR", &up,
                                           NULL, NULL, &c->dev);
        if (s == SPIRA_OK) ((spira__csr_dev *)c->dev)->values_one = ones ? 1 : -1;
        if (s == SPIRA_OK && ones)
            s = spira__cuda_fill(ctx, up.nnz, up.dtype, ((spira__csr_dev *)c->dev)->val, 1.0);
        if (s == SPIRA_OK) s = spira_context_synchronize(ctx);
        if (s != SPIRA_OK) {
            csr_dev_entry_destroy(c);
            return s;
        }
        c->unclaimed_ms = spira__now_ms() - t0;
        SPIRA__TRY(spira__matrix_cache_put(A, CSR_DEVICE_KEY, c, csr_dev_entry_destroy,
                                           c->unclaimed_ms, &e));
    }
    spira__csr_dev_entry *c = (spira__csr_dev_entry *)e->plan;
    if (upload_ms) *upload_ms = c->unclaimed_ms, c->unclaimed_ms = 0;
    *dA = (const spira__csr_dev *)c->dev;
    return SPIRA_OK;
}

const spira__csr_dev *spira__matrix_csr_dev_present(spira_matrix A)
{
    spira__cache_entry *e = spira__matrix_cache_find(A, CSR_DEVICE_KEY);
    return e ? (const spira__csr_dev *)((spira__csr_dev_entry *)e->plan)->dev : NULL;
}

spira_status spira__matrix_adopt_csr_dev(spira_context ctx, const spira__csr *shape, void *dev,
                                         spira_matrix *out)
{
    *out = NULL;
    spira__csr_dev_entry *c = NULL;
    spira_status s = spira__alloc(ctx, (void **)&c, 1, sizeof *c, "device CSR entry");
    if (s != SPIRA_OK) {
        spira__dev_destroy(ctx, spira__csr_scalar_format.gpu, dev);
        return s;
    }
    c->ctx = ctx;
    c->dev = dev;
    spira__csr none = *shape;
    none.row_ptr = none.col_idx = NULL;
    none.val = NULL;
    spira_matrix A = NULL;
    s = spira__matrix_wrap(ctx, &none, 0, &A);
    if (s != SPIRA_OK) {
        csr_dev_entry_destroy(c);
        return s;
    }
    A->host_absent = 1;
    s = spira__matrix_cache_put(A, CSR_DEVICE_KEY, c, csr_dev_entry_destroy, 0, NULL);
    if (s != SPIRA_OK) {
        spira_matrix_destroy(A);
        return s;
    }
    *out = A;
    return SPIRA_OK;
}

spira_status spira__matrix_host_csr(spira_matrix A)
{
    if (!A->host_absent) return SPIRA_OK;
    spira_context ctx = A->ctx;
    const spira__csr_dev *d = spira__matrix_csr_dev_present(A);
    spira__csr c;
    SPIRA__TRY(spira__csr_alloc(ctx, &c, A->csr.nrows, A->csr.ncols, A->csr.nnz, A->csr.dtype, 1));
    spira_status s = spira__cuda_download(ctx, c.row_ptr, d->row_ptr,
                                          ((size_t)c.nrows + 1) * sizeof(int32_t));
    if (s == SPIRA_OK)
        s = spira__cuda_download(ctx, c.col_idx, d->col_idx, (size_t)c.nnz * sizeof(int32_t));
    if (s == SPIRA_OK)
        s = spira__cuda_download(ctx, c.val, d->val, (size_t)c.nnz * spira_dtype_size(c.dtype));
    if (s != SPIRA_OK) {
        spira__csr_free(&c);
        return s;
    }
    A->csr = c;
    A->host_absent = 0;
    return SPIRA_OK;
}

/* A matrix that no one has chosen a format for is auto's, not chosen yet: auto.c chooses at
 * its first multiply or solve, for the multiplies then expected. */
const char *spira__matrix_format(spira_matrix A)
{
    if (!A->format[0]) {
        snprintf(A->format, sizeof A->format, "%s", "auto");
        snprintf(A->format_reason, sizeof A->format_reason, "%s",
                 "auto: not chosen yet (at the first multiply or solve)");
        A->autosel.on = 1;
    }
    return A->format;
}

/* the cache key of a plan of format with options opts */
static void format_key(const char *format, const char *opts, char *key, size_t len)
{
    snprintf(key, len, "spmv:%s:%s", format, opts);
}

static void plan_key(spira_matrix A, char *key, size_t len)
{
    format_key(spira__matrix_format(A), A->format_opts, key, len);
}

int spira__spmv_plan_cached(spira_matrix A, const char *format)
{
    char key[sizeof A->cache->key];
    format_key(format, "", key, sizeof key);
    return spira__matrix_cache_find(A, key) != NULL;
}

spira_status spira__spmv_plan_adopt(spira_matrix A, spira__spmv_plan *p)
{
    char key[sizeof A->cache->key];
    format_key(p->fmt->name, "", key, sizeof key);
    p->ctx = A->ctx;
    p->multiplies = &A->multiplies;
    return spira__matrix_cache_put(A, key, p, spira__plan_destroy, p->convert_ms + p->upload_ms,
                                   NULL);
}

spira_status spira_matrix_get_info(spira_matrix A, spira_matrix_info *info)
{
    if (!A || !info) return SPIRA_ERR_INVALID_ARG;
    info->nrows = A->csr.nrows;
    info->ncols = A->csr.ncols;
    info->nnz = A->csr.nnz;
    info->dtype = A->csr.dtype;
    info->symmetric = A->symmetric;
    info->format = spira__matrix_format(A);
    info->format_reason = A->format_reason;
    info->select_ms = A->select_ms;
    /* every plan A holds: auto's may be several (the first multiply's, a solve's), and
     * the first of them paid the CSR's upload */
    info->setup_ms = 0;
    for (const spira__cache_entry *e = A->cache; e; e = e->next)
        if (!strncmp(e->key, "spmv:", 5)) info->setup_ms += e->build_ms;
    return SPIRA_OK;
}

void spira__spmv_plan_drop(spira_matrix A)
{
    char key[sizeof A->cache->key];
    plan_key(A, key, sizeof key);
    spira__matrix_cache_drop(A, key);
}

spira_status spira__spmv_plan_lookup(spira_matrix A, spira__spmv_plan **plan)
{
    char key[sizeof A->cache->key];
    plan_key(A, key, sizeof key);
    spira__cache_entry *e = spira__matrix_cache_find(A, key);
    if (!e) {
        const spira__format *f;
        SPIRA__TRY(spira__format_get(A->ctx, spira__matrix_format(A), &f));
        const spira__csr_dev *dA = NULL;
        double upload_ms = 0; /* the device CSR's, when this plan is the first to need it */
        if (f->gpu && (f->gpu->build || f->gpu->shares_csr))
            SPIRA__TRY(spira__matrix_csr_dev(A, &dA, &upload_ms));
        if (!dA) SPIRA__TRY(spira__matrix_host_csr(A)); /* converted on the host */
        spira__spmv_plan *p = NULL;
        SPIRA__TRY(spira__plan_build(A->ctx, "SpMV", f, &A->csr, dA, A->format_opts, &p));
        p->upload_ms += upload_ms;
        p->multiplies = &A->multiplies;
        SPIRA__TRY(spira__matrix_cache_put(A, key, p, spira__plan_destroy,
                                           p->convert_ms + p->upload_ms, &e));
    }
    *plan = (spira__spmv_plan *)e->plan;
    return SPIRA_OK;
}

void spira__spmv_count(spira__spmv_plan *p, int64_t n)
{
    if (p->multiplies) *p->multiplies += n;
}

spira_status spira__spmv_apply(spira__spmv_plan *p, double alpha, const void *x, double beta,
                               void *y)
{
    if (p->multiplies) ++*p->multiplies;
    if (p->dev)
        return spira__replay_apply(p->ctx, &p->replay, p->fmt->gpu->apply, p->dev, alpha, x,
                                   beta, y);
    p->fmt->apply(p->layout, alpha, x, beta, y);
    return SPIRA_OK;
}

void spira__plan_info(const spira__spmv_plan *p, spira_plan_info *info)
{
    const char *st = p->fmt->stats && p->layout ? p->fmt->stats(p->layout)
                     : p->dev && p->fmt->gpu->stats ? p->fmt->gpu->stats(p->dev)
                                                    : NULL;
    *info = (spira_plan_info){.format = p->fmt->name, .convert_ms = p->convert_ms,
                              .upload_ms = p->upload_ms, .bytes = p->bytes,
                              .on_device = p->on_device, .stats = st ? st : ""};
}
