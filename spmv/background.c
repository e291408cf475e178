/*
 * background.c - a plan built on a thread of its own beside a solve (background.h).
 *
 * The thread owns a builder context (the parent's spira__context_builder, made by the first
 * job's thread and kept in the parent between jobs: a job takes it and gives it back, so
 * no two threads ever use one), builds the plan there and ends; the caller's thread joins
 * it and only then touches what it made. On the CUDA backend the builder's stream runs the
 * conversion's kernels beside the solve's, and its waits for the sizes it reads back block
 * this thread alone. The thread starts after the solve's setup, whose CUDA graph capture
 * must see no other thread's synchronizing call on the device, and is joined before the
 * solve's second look captures again.
 */
#include "background.h"
#include "spira_impl.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

struct spira__plan_job {
    spira_matrix A;               /* read only while the thread runs */
    spira_context ctx;            /* A's */
    const spira__format *f;
    const spira__csr_dev *dA;     /* A's device CSR (NULL on the CPU backend) */
    struct spira_context_s like;  /* A's context as it was at the start, for a new builder */
    spira_context builder;        /* taken from ctx->builder, or made by the thread */
    pthread_t thread;
    /* the thread's results */
    spira__spmv_plan *plan;
    spira_status status;
    char err[256];
    double asked, started; /* when the job was started, and its thread (spira__now_ms) */
    double ms; /* the thread's own time: the builder's making (if it had to) and the build */
    atomic_int done; /* set last by the thread: the results are there to join */
};

/* What the thread runs. Every CUDA call of this thread goes to the builder's device, made
 * current here (a builder kept from an earlier job was made on another thread). */
static void *build(void *arg)
{
    spira__plan_job *j = (spira__plan_job *)arg;
    const double t0 = j->started = spira__now_ms();
    spira_status s = j->builder ? spira__context_activate(j->builder)
                                : spira__context_builder(&j->like, &j->builder);
    if (s == SPIRA_OK)
        s = spira__plan_build(j->builder, "SpMV", j->f, &j->A->csr, j->dA, "", &j->plan);
    if (s != SPIRA_OK)
        snprintf(j->err, sizeof j->err, "%.250s",
                 j->builder && j->builder->err[0] ? j->builder->err : spira_status_name(s));
    j->status = s;
    j->ms = spira__now_ms() - t0;
    atomic_store(&j->done, 1);
    return NULL;
}

int spira__plan_job_done(const spira__plan_job *job)
{
    return atomic_load(&((spira__plan_job *)job)->done);
}

/* Whether format f's plan can be built on another context and used on A's: a conversion of
 * its own, and nothing in the plan that belongs to the context that made it. */
static int buildable(spira_context ctx, const spira__format *f)
{
    if (ctx->backend != SPIRA_BACKEND_CUDA) return f->apply != NULL && f->destroy != NULL;
    return f->gpu && f->gpu->build && !f->gpu->release;
}

spira_status spira__plan_job_start(spira_matrix A, const char *format, spira__plan_job **job)
{
    *job = NULL;
    spira_context ctx = A->ctx;
    const spira__format *f = spira__format_find(format);
    if (!f || !buildable(ctx, f) || spira__spmv_plan_cached(A, format)) return SPIRA_OK;
    const spira__csr_dev *dA = NULL;
    if (ctx->backend == SPIRA_BACKEND_CUDA) {
        dA = spira__matrix_csr_dev_present(A); /* uploaded by the solve's first plan */
        if (!dA) return SPIRA_OK;
    } else if (A->host_absent) {
        return SPIRA_OK;
    }
    spira__plan_job *j;
    SPIRA__TRY(spira__alloc(ctx, (void **)&j, 1, sizeof *j, "a plan built beside the solve"));
    memset(j, 0, sizeof *j);
    j->A = A;
    j->ctx = ctx;
    j->f = f;
    j->dA = dA;
    j->like = *ctx;
    atomic_init(&j->done, 0);
    spira__context_builder_settle(ctx);
    j->builder = ctx->builder;
    ctx->builder = NULL;
    j->asked = spira__now_ms();
    if (pthread_create(&j->thread, NULL, build, j) != 0) { /* none: the solve goes on alone */
        ctx->builder = j->builder;
        spira__free(j);
        return SPIRA_OK;
    }
    *job = j;
    return SPIRA_OK;
}

int spira__plan_job_finish(spira__plan_job *j, double *wait_ms, char *note, size_t len)
{
    const double t0 = spira__now_ms();
    pthread_join(j->thread, NULL);
    *wait_ms = spira__now_ms() - t0;
    spira_context ctx = j->ctx;
    /* the builder back to A's context; on its own device again for this thread */
    if (ctx->builder) spira_context_destroy(j->builder);
    else ctx->builder = j->builder;
    spira_status s = spira__context_activate(ctx);
    int adopted = 0;
    if (j->status == SPIRA_OK && s == SPIRA_OK) {
        const double build_ms = j->plan->convert_ms + j->plan->upload_ms;
        s = spira__spmv_plan_adopt(j->A, j->plan); /* destroys it on failure */
        if (s == SPIRA_OK) {
            adopted = 1;
            snprintf(note, len, "%s built beside the solve in %.2f ms (conversion %.2f, from "
                     "%.2f ms after the solve began), waited %.2f ms for it", j->f->name, j->ms,
                     build_ms, j->started - j->asked, *wait_ms);
        } else {
            snprintf(note, len, "%s built beside the solve, not kept: %s", j->f->name,
                     ctx->err);
            ctx->err[0] = '\0'; /* not the solve's error */
        }
    } else {
        spira__plan_destroy(j->plan);
        snprintf(note, len, "%s not built beside the solve: %s", j->f->name,
                 j->status != SPIRA_OK ? j->err : ctx->err);
        if (j->status == SPIRA_OK) ctx->err[0] = '\0';
    }
    spira__free(j);
    return adopted;
}
