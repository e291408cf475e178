/*
 * context.c - backend choice (AUTO takes CUDA when a device answers, else the CPU), the
 * contexts made beside one (its CPU companion, its builder), and its worker thread.
 */
#include "spira_impl.h"
#include "cuda/gateway.h"

#include <pthread.h>
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

/* *out = the environment variable name, "0" or "1", or dflt when it is unset or empty;
 * anything else is refused naming it. Read when a context is made:
 *   SPIRA_SANITIZE (ctx->separate_arrays, default 0): 1 gives every device array its own
 *     allocation for compute-sanitizer; 0 carves them from blocks.
 *   SPIRA_BACKGROUND (ctx->background, default 0): 1 lets a staged solve build the plan its
 *     expected multiplies choose beside its first iterations (spmv/background.h); off by
 *     default: measured on the H200, the build beside CG ran 4-8 times longer than alone
 *     and slowed the iterations by more than it saved (bench/results/2026-11-28-session24).
 *   SPIRA_SPMV_GRAPHS (ctx->spmv_graphs, default 1): 0 launches every multiply directly; 1
 *     launches a plan's repeated multiplies from CUDA graphs (spmv/replay.h). */
static spira_status env_flag(spira_context ctx, const char *name, int dflt, int *out)
{
    const char *env = getenv(name);
    *out = dflt;
    if (!env || !*env) return SPIRA_OK;
    if (!strcmp(env, "0") || !strcmp(env, "1")) {
        *out = env[0] == '1';
        return SPIRA_OK;
    }
    return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "%s=\"%.64s\": want 0 or 1", name, env);
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
    SPIRA__TRY(env_flag(ctx, "SPIRA_SANITIZE", 0, &ctx->separate_arrays));
    SPIRA__TRY(env_flag(ctx, "SPIRA_BACKGROUND", 0, &ctx->background));
    SPIRA__TRY(env_flag(ctx, "SPIRA_SPMV_GRAPHS", 1, &ctx->spmv_graphs));
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

/* ---- the worker: one thread a context that makes its builder (spira__context_builder: the
 * same device, a stream of its own) and then runs, one at a time, the tasks handed to it
 * (spmv/background.c's plan builds), each with that builder. A thread made once and left
 * waiting on a condition runs soon after a hand-over; one made for each build began 0.5-2
 * ms after it was asked for on the H200 machine, while the solve's own threads held the
 * cores (bench/results/2026-11-28-session24, calls 3 and 4). It is made with a CUDA context
 * that may build beside its solves, so that the builder's making (about a millisecond) is
 * paid while the caller reads its matrix, and stopped with the context. Here beside the
 * context's making and destroying, which it calls and which call it. */

struct spira__worker {
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    struct spira_context_s like; /* the context as it was when the worker was made */
    spira_context builder;       /* the worker's; NULL where it could not be made */
    void (*task)(void *arg, spira_context builder);
    void *arg;
    int busy; /* the builder's making, or a task handed over, not finished yet */
    int quit;
};

static void *run(void *arg)
{
    struct spira__worker *w = (struct spira__worker *)arg;
    if (spira__context_builder(&w->like, &w->builder) != SPIRA_OK) w->builder = NULL;
    pthread_mutex_lock(&w->lock);
    w->busy = 0;
    pthread_cond_broadcast(&w->cond);
    for (;;) {
        while (!w->task && !w->quit) pthread_cond_wait(&w->cond, &w->lock);
        if (!w->task) break;
        void (*task)(void *, spira_context) = w->task;
        pthread_mutex_unlock(&w->lock);
        task(w->arg, w->builder);
        pthread_mutex_lock(&w->lock);
        w->task = NULL;
        w->busy = 0;
        pthread_cond_broadcast(&w->cond);
    }
    pthread_mutex_unlock(&w->lock);
    spira_context_destroy(w->builder);
    return NULL;
}

int spira__worker_start(spira_context ctx)
{
    if (ctx->worker) return 1;
    struct spira__worker *w = spira__calloc(1, sizeof *w);
    if (!w) return 0;
    w->like = *ctx;
    w->busy = 1;
    if (pthread_mutex_init(&w->lock, NULL) != 0) {
        spira__free(w);
        return 0;
    }
    if (pthread_cond_init(&w->cond, NULL) != 0) {
        pthread_mutex_destroy(&w->lock);
        spira__free(w);
        return 0;
    }
    if (pthread_create(&w->thread, NULL, run, w) != 0) {
        pthread_cond_destroy(&w->cond);
        pthread_mutex_destroy(&w->lock);
        spira__free(w);
        return 0;
    }
    ctx->worker = w;
    return 1;
}

int spira__worker_post(spira_context ctx, void (*task)(void *arg, spira_context builder),
                       void *arg)
{
    if (!spira__worker_start(ctx)) return 0;
    struct spira__worker *w = ctx->worker;
    spira__worker_wait(ctx); /* one task at a time */
    pthread_mutex_lock(&w->lock);
    w->task = task;
    w->arg = arg;
    w->busy = 1;
    pthread_cond_broadcast(&w->cond);
    pthread_mutex_unlock(&w->lock);
    return 1;
}

void spira__worker_wait(spira_context ctx)
{
    struct spira__worker *w = ctx->worker;
    if (!w) return;
    pthread_mutex_lock(&w->lock);
    while (w->busy) pthread_cond_wait(&w->cond, &w->lock);
    pthread_mutex_unlock(&w->lock);
}

void spira__worker_stop(spira_context ctx)
{
    struct spira__worker *w = ctx->worker;
    if (!w) return;
    pthread_mutex_lock(&w->lock);
    w->quit = 1;
    pthread_cond_broadcast(&w->cond);
    pthread_mutex_unlock(&w->lock);
    pthread_join(w->thread, NULL); /* a task under way ends first */
    pthread_cond_destroy(&w->cond);
    pthread_mutex_destroy(&w->lock);
    spira__free(w);
    ctx->worker = NULL;
}
