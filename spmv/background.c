/*
 * background.c - a plan built beside a solve (background.h) by the context's worker
 * (lib/context.c), on the worker's builder context: the same device, its own stream (of the
 * greatest priority) and scratch. The caller hands the job over and goes on; the worker
 * sets the job's flag when it is done, and the caller touches what it made only after
 * waiting for the worker (spira__worker_wait), which orders the two threads' memory.
 */
#include "background.h"
#include "spira_impl.h"

#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

struct spira__plan_job {
    spira_matrix A;               /* read only while the worker builds */
    const spira__format *f;
    const spira__csr_dev *dA;     /* A's device CSR (NULL on the CPU backend) */
    /* the worker's results */
    spira__spmv_plan *plan;
    spira_status status;
    char err[256];
    double asked, started; /* when the job was handed over, and begun (spira__now_ms) */
    double ms;             /* the build's own time */
    atomic_int done;       /* set last by the worker */
};

/* The worker's task. Its builder was made on the worker's thread, whose device is its own. */
static void build(void *arg, spira_context builder)
{
    spira__plan_job *j = (spira__plan_job *)arg;
    const double t0 = j->started = spira__now_ms();
    spira_status s = builder ? spira__context_activate(builder) : SPIRA_ERR_NOMEM;
    if (s == SPIRA_OK)
        s = spira__plan_build(builder, "SpMV", j->f, &j->A->csr, j->dA, "", &j->plan);
    if (s != SPIRA_OK)
        snprintf(j->err, sizeof j->err, "%.250s",
                 !builder ? "no context to build on" : builder->err[0] ? builder->err
                                                                        : spira_status_name(s));
    j->status = s;
    j->ms = spira__now_ms() - t0;
    atomic_store(&j->done, 1);
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
    j->f = f;
    j->dA = dA;
    atomic_init(&j->done, 0);
    j->asked = spira__now_ms();
    if (!spira__worker_post(ctx, build, j)) { /* no thread: the solve goes on alone */
        spira__free(j);
        return SPIRA_OK;
    }
    *job = j;
    return SPIRA_OK;
}

void spira__plan_job_finish(spira__plan_job *j, double *wait_ms, char *note, size_t len)
{
    const double t0 = spira__now_ms();
    spira_context ctx = j->A->ctx;
    spira__worker_wait(ctx);
    *wait_ms = spira__now_ms() - t0;
    if (j->status != SPIRA_OK) {
        snprintf(note, len, "%s not built beside the solve: %s", j->f->name, j->err);
    } else {
        const double build_ms = j->plan->convert_ms + j->plan->upload_ms;
        if (spira__spmv_plan_adopt(j->A, j->plan) == SPIRA_OK) { /* destroyed if not */
            snprintf(note, len, "%s built beside the solve in %.2f ms (conversion %.2f, begun "
                     "%.2f ms after it was asked for), waited %.2f ms for it", j->f->name, j->ms,
                     build_ms, j->started - j->asked, *wait_ms);
        } else {
            snprintf(note, len, "%s built beside the solve, not kept: %s", j->f->name,
                     ctx->err);
            ctx->err[0] = '\0'; /* not the solve's error */
        }
    }
    spira__free(j);
}
