/*
 * spmv.c - the dispatcher: the plan cache (a plan is built once per matrix, format and
 * options, then reused), spira_spmv and spira_matrix_prepare, and the count of multiplies.
 * Choosing the format is auto.c's.
 */
#include "spmv.h"
#include "device.h"
#include "csr.h"

#include <stdio.h>
#include <string.h>

void spira__plan_destroy(void *p)
{
    spira__spmv_plan *plan = (spira__spmv_plan *)p;
    if (!plan) return;
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
        spira_status s = spira__dev_create(ctx, spira__csr_scalar_format.gpu, "CSR", &A->csr,
                                           NULL, NULL, &c->dev);
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

spira_status spira__matrix_format_follow(spira_matrix B, spira_matrix A)
{
    const char *name = spira__matrix_format(A);
    spira__matrix_format(B);
    /* under "auto", B chooses from its own rows (the ones multiplied) */
    if (A->autosel.on) return spira_matrix_set_format(B, "auto", A->autosel.opts);
    if (!strcmp(B->format, name) && !strcmp(B->format_opts, A->format_opts))
        return SPIRA_OK;
    return spira_matrix_set_format(B, name, A->format_opts);
}

static void plan_key(spira_matrix A, char *key, size_t len)
{
    snprintf(key, len, "spmv:%s:%s", spira__matrix_format(A), A->format_opts);
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
    info->setup_ms = 0;
    char key[sizeof A->cache->key];
    plan_key(A, key, sizeof key);
    spira__cache_entry *e = spira__matrix_cache_find(A, key);
    if (e) info->setup_ms = e->build_ms;
    return SPIRA_OK;
}

void spira__spmv_plan_drop(spira_matrix A)
{
    char key[sizeof A->cache->key];
    plan_key(A, key, sizeof key);
    spira__matrix_cache_drop(A, key);
}

spira_status spira__spmv_plan_get(spira_matrix A, spira__spmv_plan **plan)
{
    SPIRA__TRY(spira__auto_settle(A)); /* a new matrix's "auto" chooses now */
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
    if (p->dev) return p->fmt->gpu->apply(p->ctx, p->dev, alpha, x, beta, y);
    p->fmt->apply(p->layout, alpha, x, beta, y);
    return SPIRA_OK;
}

spira_status spira_matrix_prepare(spira_matrix A)
{
    if (!A) return SPIRA_ERR_INVALID_ARG;
    spira__spmv_plan *p;
    return spira__spmv_plan_get(A, &p);
}

spira_status spira_spmv(double alpha, spira_matrix A, spira_vector x, double beta, spira_vector y)
{
    if (!A || !x || !y) return SPIRA_ERR_INVALID_ARG;
    spira_context ctx = A->ctx;
    if (x->ctx != ctx || y->ctx != ctx)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "matrix and vectors belong to different contexts");
    if (x->n != A->csr.ncols || y->n != A->csr.nrows)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG,
                            "SpMV size mismatch: A is %d x %d, x has %d, y has %d", A->csr.nrows,
                            A->csr.ncols, x->n, y->n);
    if (x->dtype != A->csr.dtype || y->dtype != A->csr.dtype)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG,
                            "SpMV precision mismatch between matrix and vectors");
    if (x == y)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "SpMV x and y must be distinct vectors");
    spira__spmv_plan *p;
    SPIRA__TRY(spira__spmv_plan_get(A, &p));
    return spira__spmv_apply(p, alpha, x->data, beta, y->data);
}

