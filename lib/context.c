/*
 * context.c - backend choice. AUTO takes CUDA when a device answers, else the CPU.
 */
#include "spira_impl.h"
#include "cuda/gateway.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

static void describe_cpu(spira_context ctx)
{
#ifdef _OPENMP
    snprintf(ctx->device_name, sizeof ctx->device_name, "CPU (%d OpenMP threads)",
             omp_get_max_threads());
#else
    snprintf(ctx->device_name, sizeof ctx->device_name, "CPU (1 thread)");
#endif
}

/* SPIRA_CG_GRAPH (ctx->cg_graph): "off" keeps CG on the GPU to its per-iteration path, n
 * fixes the iterations between host checks; unset or empty, the library decides. */
static spira_status cg_graph_env(spira_context ctx)
{
    const char *env = getenv("SPIRA_CG_GRAPH");
    if (!env || !*env) return SPIRA_OK;
    if (!strcmp(env, "off")) {
        ctx->cg_graph = -1;
        return SPIRA_OK;
    }
    char *end;
    long v = strtol(env, &end, 10);
    if (*env >= '0' && *env <= '9' && !*end && v >= 1 && v <= SPIRA__CG_GRAPH_MAX) {
        ctx->cg_graph = (int)v;
        return SPIRA_OK;
    }
    return spira__error(ctx, SPIRA_ERR_INVALID_ARG,
                        "SPIRA_CG_GRAPH=\"%.64s\": want off, or the iterations between host "
                        "checks, 1 to %d", env, SPIRA__CG_GRAPH_MAX);
}

/* SPIRA_SANITIZE (ctx->separate_arrays): "1" gives every device array its own allocation
 * for compute-sanitizer; unset, empty or "0" carves them from blocks. */
static spira_status sanitize_env(spira_context ctx)
{
    const char *env = getenv("SPIRA_SANITIZE");
    if (!env || !*env || !strcmp(env, "0")) return SPIRA_OK;
    if (!strcmp(env, "1")) {
        ctx->separate_arrays = 1;
        return SPIRA_OK;
    }
    return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "SPIRA_SANITIZE=\"%.64s\": want 0 or 1", env);
}

/* SPIRA_BACKGROUND (ctx->background): "1" lets a staged solve build the plan its expected
 * multiplies choose beside its first iterations (spmv/background.h); unset, empty or "0",
 * not: measured on the H200, the build beside CG ran 4-8 times longer than alone and slowed
 * the iterations by more than it saved (bench/results/2026-11-28-session24). */
static spira_status background_env(spira_context ctx)
{
    const char *env = getenv("SPIRA_BACKGROUND");
    ctx->background = 0;
    if (!env || !*env || !strcmp(env, "0")) return SPIRA_OK;
    if (!strcmp(env, "1")) {
        ctx->background = 1;
        return SPIRA_OK;
    }
    return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "SPIRA_BACKGROUND=\"%.64s\": want 0 or 1",
                        env);
}

spira_status spira_context_create(spira_context *out, const spira_context_opts *opts)
{
    if (!out) return SPIRA_ERR_INVALID_ARG;
    *out = NULL;
    spira_context_opts o = {.backend = SPIRA_BACKEND_AUTO};
    if (opts) o = *opts;
    spira_context ctx = spira__calloc(1, sizeof *ctx);
    if (!ctx) return SPIRA_ERR_NOMEM;
    *out = ctx;
    ctx->device = o.device;
    ctx->max_bytes = o.max_bytes;
    ctx->deterministic = o.deterministic;
    ctx->backend = SPIRA_BACKEND_CPU;
    describe_cpu(ctx);
    SPIRA__TRY(spira__budget_init(ctx, o.max_bytes));
    SPIRA__TRY(cg_graph_env(ctx));
    SPIRA__TRY(sanitize_env(ctx));
    SPIRA__TRY(background_env(ctx));
    if (o.backend != SPIRA_BACKEND_AUTO && o.backend != SPIRA_BACKEND_CPU &&
        o.backend != SPIRA_BACKEND_CUDA)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "unknown backend %d", (int)o.backend);
    if (o.backend == SPIRA_BACKEND_CPU) return SPIRA_OK;
    ctx->backend = SPIRA_BACKEND_CUDA;
    ctx->chosen = o.backend == SPIRA_BACKEND_AUTO;
    spira_status s = spira__cuda_init(ctx);
    if (s == SPIRA_OK) {
        if (ctx->background) spira__worker_start(ctx); /* none: the first build makes it */
        return SPIRA_OK;
    }
    ctx->backend = SPIRA_BACKEND_CPU;
    describe_cpu(ctx);
    if (o.backend == SPIRA_BACKEND_CUDA) return s; /* message set by spira__cuda_init */
    if (s == SPIRA_ERR_NOMEM) return s;
    /* AUTO: run on the CPU, and say in the device name why the GPU was not taken. */
    size_t len = strlen(ctx->device_name);
    snprintf(ctx->device_name + len, sizeof ctx->device_name - len, "; CUDA not used: %.300s",
             ctx->err);
    ctx->err[0] = '\0';
    return SPIRA_OK;
}

spira_status spira__context_builder(const struct spira_context_s *like, spira_context *out)
{
    *out = NULL;
    spira_context b = spira__calloc(1, sizeof *b);
    if (!b) return SPIRA_ERR_NOMEM;
    b->backend = like->backend;
    b->device = like->device;
    b->deterministic = like->deterministic;
    b->host_budget = like->host_budget;
    b->device_budget = like->device_budget;
    b->budget_why = like->budget_why;
    b->max_bytes = like->max_bytes;
    b->poison_builds = like->poison_builds;
    b->separate_arrays = like->separate_arrays;
    b->lite = 1;
    snprintf(b->device_name, sizeof b->device_name, "%s", like->device_name);
    spira_status s = b->backend == SPIRA_BACKEND_CUDA ? spira__cuda_init(b) : SPIRA_OK;
    if (s != SPIRA_OK) {
        spira_context_destroy(b);
        return s;
    }
    *out = b;
    return SPIRA_OK;
}

spira_status spira__context_host(spira_context ctx, spira_context *host)
{
    *host = ctx;
    if (ctx->backend == SPIRA_BACKEND_CPU) return SPIRA_OK;
    if (!ctx->host) {
        spira_context_opts o = {.backend = SPIRA_BACKEND_CPU,
                                .deterministic = ctx->deterministic,
                                .max_bytes = ctx->host_budget};
        spira_context h;
        spira_status s = spira_context_create(&h, &o);
        if (s != SPIRA_OK) {
            spira__error(ctx, s, "the CPU context beside this one: %s", spira_last_error(h));
            spira_context_destroy(h);
            return s;
        }
        h->budget_why = ctx->budget_why; /* its limit is this context's */
        ctx->host = h;
    }
    *host = ctx->host;
    return SPIRA_OK;
}

void spira_context_destroy(spira_context ctx)
{
    if (!ctx) return;
    spira_context_destroy(ctx->host);
    spira__worker_stop(ctx);
    for (int d = 1; d < SPIRA__PARTS_MAX; d++) spira_context_destroy(ctx->part[d]);
    if (ctx->cuda) spira__cuda_fini(ctx);
    spira__free(ctx);
}

spira_backend spira_context_backend(spira_context ctx)
{
    return ctx ? ctx->backend : SPIRA_BACKEND_CPU;
}

const char *spira_context_device_name(spira_context ctx)
{
    return ctx ? ctx->device_name : "";
}

spira_status spira_context_synchronize(spira_context ctx)
{
    if (!ctx) return SPIRA_ERR_INVALID_ARG;
    if (ctx->backend == SPIRA_BACKEND_CUDA) return spira__cuda_synchronize(ctx);
    return SPIRA_OK;
}
