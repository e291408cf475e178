/*
 * timing.c - the clock and the median that setup reports, the auto trial and the
 * benchmark drivers time with; the backend's clock around repeated calls (CUDA events on
 * the context's stream, the wall clock on the CPU) and the copy bandwidth measured with it.
 */
#include "spira_impl.h"
#include "cuda/gateway.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

double spira__now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double spira__median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

spira_status spira__time_calls(spira_context ctx, int n, double *ms,
                               spira_status (*call)(void *arg), void *arg)
{
    spira_cuda_timer *tm = NULL; /* no times wanted: the calls back to back, no waits */
    if (ms && ctx->backend == SPIRA_BACKEND_CUDA) SPIRA__TRY(spira__cuda_timer_create(ctx, &tm));
    spira_status s = SPIRA_OK;
    for (int k = 0; k < n && s == SPIRA_OK; k++) {
        double t = 0;
        if (tm) {
            s = spira__cuda_timer_start(ctx, tm);
            if (s == SPIRA_OK) s = call(arg);
            if (s == SPIRA_OK) s = spira__cuda_timer_stop(ctx, tm, &t);
        } else {
            double t0 = spira__now_ms();
            s = call(arg);
            t = spira__now_ms() - t0;
        }
        if (ms) ms[k] = t;
    }
    spira__cuda_timer_destroy(tm);
    return s;
}

typedef struct {
    spira_context ctx;
    void *dst;
    const void *src;
    size_t bytes;
} copy_call;

static spira_status copy_once(void *arg)
{
    copy_call *c = arg;
    if (c->ctx->backend == SPIRA_BACKEND_CUDA) return spira__cuda_copy(c->ctx, c->dst, c->src, c->bytes);
    memcpy(c->dst, c->src, c->bytes);
    return SPIRA_OK;
}

spira_status spira_context_copy_bandwidth(spira_context ctx, size_t bytes, int reps, double *gbs)
{
    if (!ctx || !gbs || reps < 1 || bytes < 8) return SPIRA_ERR_INVALID_ARG;
    int gpu = ctx->backend == SPIRA_BACKEND_CUDA;
    void *a = NULL, *b = NULL;
    double *t = calloc((size_t)reps, sizeof *t);
    if (!t) return spira__nomem(ctx, "copy-bandwidth timings", (size_t)reps * sizeof *t);
    spira_status s = spira__mem_alloc(ctx, &a, bytes, "copy-bandwidth source");
    if (s == SPIRA_OK) s = spira__mem_alloc(ctx, &b, bytes, "copy-bandwidth destination");
    if (s == SPIRA_OK && gpu) s = spira__cuda_fill(ctx, (int32_t)(bytes / 8), SPIRA_R64, a, 1.0);
    if (s == SPIRA_OK && !gpu) memset(a, 1, bytes);
    copy_call c = {ctx, b, a, bytes};
    if (s == SPIRA_OK) s = spira__time_calls(ctx, 2, NULL, copy_once, &c); /* untimed first */
    if (s == SPIRA_OK) s = spira__time_calls(ctx, reps, t, copy_once, &c);
    if (s == SPIRA_OK) *gbs = 2.0 * (double)bytes / (spira__median(t, reps) * 1e6);
    spira__mem_free(ctx, a);
    spira__mem_free(ctx, b);
    free(t);
    return s;
}
