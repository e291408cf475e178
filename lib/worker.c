/*
 * worker.c - a context's worker: one thread of its own that makes the context's builder
 * (spira__context_builder: the same device, a stream of its own) and then runs, one at a
 * time, the tasks handed to it (spmv/background.c's plan builds), each with that builder.
 *
 * A thread made once and left waiting on a condition runs soon after a hand-over; one made
 * for each build began 0.5-2 ms after it was asked for on the H200 machine, while the
 * solve's own threads held the cores (bench/results/2026-11-28-session24, calls 3 and 4).
 * The worker is made with a CUDA context that may build beside its solves, so that the
 * builder's making (about a millisecond) is paid while the caller reads its matrix, and
 * stopped with the context.
 */
#include "spira_impl.h"

#include <pthread.h>

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
