/*
 * spmv.c - format selection and dispatch: spira_matrix_set_format, spira_spmv, and the
 * plan cache (a plan is built once per matrix, format and options, then reused).
 */
#include "spmv.h"
#include "auto.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void plan_destroy(void *p)
{
    spira__spmv_plan *plan = (spira__spmv_plan *)p;
    if (!plan) return;
    if (plan->dev && plan->fmt->destroy_dev) plan->fmt->destroy_dev(plan->ctx, plan->dev);
    if (plan->layout && plan->fmt->destroy_layout) plan->fmt->destroy_layout(plan->layout);
    spira__free(plan);
}

static spira_status unknown_format(spira_context ctx, const char *name)
{
    char list[512] = "";
    for (int i = 0; i < spira__format_total(); i++) {
        size_t len = strlen(list);
        snprintf(list + len, sizeof list - len, "%s, ", spira__format_at(i)->name);
    }
    snprintf(list + strlen(list), sizeof list - strlen(list), "auto");
    return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "unknown SpMV format '%s' (known: %s)", name,
                        list);
}

/* The item of an options string "k=v,k2=v2" that starts at p ends at *end; returns where
 * the next one starts. */
static const char *opt_item(const char *p, const char **end)
{
    *end = strchr(p, ',');
    if (!*end) *end = p + strlen(p);
    return **end ? *end + 1 : *end;
}

spira_status spira__check_option_keys(spira_context ctx, const char *format, const char *keys,
                                      const char *opts)
{
    for (const char *p = opts ? opts : "", *end, *next; *p; p = next) {
        next = opt_item(p, &end);
        const char *eq = memchr(p, '=', (size_t)(end - p));
        if (end > p && !eq)
            return spira__error(ctx, SPIRA_ERR_INVALID_ARG,
                                "SpMV format option '%.*s' is not key=value", (int)(end - p), p);
        int known = 0;
        size_t klen = eq ? (size_t)(eq - p) : 0;
        for (const char *k = keys; eq && *k && !known;) {
            size_t len = strcspn(k, " ");
            known = len == klen && strncmp(k, p, klen) == 0;
            k += len + (k[len] == ' ');
        }
        if (eq && !known)
            return spira__error(ctx, SPIRA_ERR_INVALID_ARG,
                                "SpMV format '%s' has no option '%.*s' (%s%s)", format, (int)klen,
                                p, *keys ? "its options: " : "it takes none", keys);
    }
    return SPIRA_OK;
}

spira_status spira_matrix_set_format(spira_matrix A, const char *name, const char *options)
{
    if (!A || !name) return SPIRA_ERR_INVALID_ARG;
    if (!strcmp(name, "auto")) {
        SPIRA__TRY(spira__check_option_keys(A->ctx, "auto", "trial", options));
        return spira__auto_select(A, options);
    }
    const spira__format *f = spira__format_find(name);
    if (!f) return unknown_format(A->ctx, name);
    SPIRA__TRY(spira__check_option_keys(A->ctx, f->name, f->options, options));
    if (strlen(options ? options : "") >= sizeof A->format_opts)
        return spira__error(A->ctx, SPIRA_ERR_INVALID_ARG, "format options too long: '%s'",
                            options);
    A->format_reason[0] = 0;
    A->select_ms = 0;
    /* name or options may be A's own strings (from spira_matrix_get_info) */
    char fmt_name[sizeof A->format];
    snprintf(fmt_name, sizeof fmt_name, "%s", name);
    memmove(A->format_opts, options ? options : "", strlen(options ? options : "") + 1);
    snprintf(A->format, sizeof A->format, "%s", fmt_name);
    return SPIRA_OK;
}

static spira_status plan_build(spira_matrix A, const spira__format *f, spira__spmv_plan **out)
{
    spira_context ctx = A->ctx;
    int gpu = ctx->backend == SPIRA_BACKEND_CUDA;
    if (gpu && !f->upload)
        return spira__error(ctx, SPIRA_ERR_UNSUPPORTED,
                            "SpMV format '%s' has no CUDA kernel in this build", f->name);
    if (!gpu && !f->host_apply)
        return spira__error(ctx, SPIRA_ERR_UNSUPPORTED,
                            "SpMV format '%s' needs the CUDA backend", f->name);
    spira__spmv_plan *p = spira__calloc(1, sizeof *p);
    if (!p) return spira__nomem(ctx, "SpMV plan", sizeof *p);
    p->ctx = ctx;
    p->fmt = f;
    double t0 = spira__now_ms();
    spira_status s = f->convert(ctx, &A->csr, A->format_opts, &p->layout);
    double t1 = spira__now_ms();
    p->convert_ms = t1 - t0;
    if (s == SPIRA_OK) {
        p->bytes = f->bytes(p->layout);
        if (gpu) {
            s = f->upload(ctx, p->layout, &p->dev);
            if (s == SPIRA_OK) s = spira_context_synchronize(ctx);
            p->upload_ms = spira__now_ms() - t1;
        }
    }
    if (s != SPIRA_OK) {
        plan_destroy(p);
        return s;
    }
    *out = p;
    return SPIRA_OK;
}

static void plan_key(spira_matrix A, char *key, size_t len)
{
    snprintf(key, len, "spmv:%s:%s", A->format, A->format_opts);
}

void spira__spmv_plan_drop(spira_matrix A)
{
    char key[sizeof A->cache->key];
    plan_key(A, key, sizeof key);
    spira__matrix_cache_drop(A, key);
}

spira_status spira__spmv_plan_get(spira_matrix A, spira__spmv_plan **plan)
{
    char key[sizeof A->cache->key];
    plan_key(A, key, sizeof key);
    spira__cache_entry *e = spira__matrix_cache_find(A, key);
    if (!e) {
        const spira__format *f = spira__format_find(A->format);
        if (!f) return unknown_format(A->ctx, A->format);
        spira__spmv_plan *p = NULL;
        SPIRA__TRY(plan_build(A, f, &p));
        SPIRA__TRY(spira__matrix_cache_put(A, key, p, plan_destroy, p->convert_ms + p->upload_ms,
                                           &e));
    }
    *plan = (spira__spmv_plan *)e->plan;
    return SPIRA_OK;
}

spira_status spira__spmv_apply(spira__spmv_plan *p, double alpha, const void *x, double beta,
                               void *y)
{
    if (p->dev) return p->fmt->apply(p->ctx, p->dev, alpha, x, beta, y);
    p->fmt->host_apply(p->layout, alpha, x, beta, y);
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

/* The value of the last "key=value" in opts ("k=v,k2=v2"): *v and its length; 0 if absent. */
static int opt_find(const char *opts, const char *key, const char **v, size_t *vlen)
{
    size_t klen = strlen(key);
    int found = 0;
    for (const char *p = opts, *end, *next; p && *p; p = next) {
        next = opt_item(p, &end);
        if ((size_t)(end - p) > klen && strncmp(p, key, klen) == 0 && p[klen] == '=') {
            *v = p + klen + 1;
            *vlen = (size_t)(end - *v);
            found = 1;
        }
    }
    return found;
}

spira_status spira__opt_long(spira_context ctx, const char *opts, const char *key, long def,
                             long *out)
{
    const char *v;
    size_t vlen;
    *out = def;
    if (!opt_find(opts, key, &v, &vlen)) return SPIRA_OK;
    char *stop;
    errno = 0;
    long n = strtol(v, &stop, 10);
    if (errno || stop != v + vlen || vlen == 0)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "format option %s: '%.*s' is not an integer",
                            key, (int)vlen, v);
    *out = n;
    return SPIRA_OK;
}

spira_status spira__opt_word(spira_context ctx, const char *opts, const char *key,
                             const char *const *choices, int def, int *out)
{
    const char *v;
    size_t vlen;
    *out = def;
    if (!opt_find(opts, key, &v, &vlen)) return SPIRA_OK;
    char list[128] = "";
    for (int i = 0; choices[i]; i++) {
        if (strlen(choices[i]) == vlen && strncmp(v, choices[i], vlen) == 0) {
            *out = i;
            return SPIRA_OK;
        }
        size_t len = strlen(list);
        snprintf(list + len, sizeof list - len, "%s%s", i ? " or " : "", choices[i]);
    }
    return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "format option %s='%.*s': %s", key, (int)vlen,
                        v, list);
}
