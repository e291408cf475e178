/*
 * multiply.c - the public SpMV calls (spira_spmv, spira_matrix_prepare and the measuring
 * calls) and spira__spmv_plan_get, which they and the upper layers share: auto's choice is
 * settled first (auto.c), then the plan is looked up or built (spmv.c). Neither of those
 * calls back here, so the files' calls run one way: multiply.c -> auto.c -> spmv.c.
 */
#include "spmv.h"
#include "cuda/gateway.h"

spira_status spira__spmv_plan_get(spira_matrix A, spira__spmv_plan **plan)
{
    SPIRA__TRY(spira__auto_settle(A)); /* a new matrix's "auto" chooses now */
    return spira__spmv_plan_lookup(A, plan);
}

spira_status spira_matrix_prepare(spira_matrix A)
{
    if (!A) return SPIRA_ERR_INVALID_ARG;
    spira__spmv_plan *p;
    return spira__spmv_plan_get(A, &p);
}

/* x and y fit A and each other; a sentence in the context otherwise. */
static spira_status spmv_check(spira_matrix A, spira_vector x, spira_vector y)
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
    return SPIRA_OK;
}

spira_status spira_spmv(double alpha, spira_matrix A, spira_vector x, double beta, spira_vector y)
{
    SPIRA__TRY(spmv_check(A, x, y));
    spira__spmv_plan *p;
    SPIRA__TRY(spira__spmv_plan_get(A, &p));
    return spira__spmv_apply(p, alpha, x->data, beta, y->data);
}

/* ---- measuring: what a benchmark reads ---------------------------------------------- */

typedef struct {
    spira__spmv_plan *p;
    double alpha, beta;
    const void *x;
    void *y;
} spmv_call;

static spira_status spmv_once(void *arg)
{
    spmv_call *c = arg;
    return spira__spmv_apply(c->p, c->alpha, c->x, c->beta, c->y);
}

/* The plan is looked up once, outside the clock: each run times the multiply alone. */
spira_status spira_spmv_time(double alpha, spira_matrix A, spira_vector x, double beta,
                             spira_vector y, int n, double *ms)
{
    SPIRA__TRY(spmv_check(A, x, y));
    if (n < 0) return spira__error(A->ctx, SPIRA_ERR_INVALID_ARG, "SpMV timing: %d runs", n);
    spmv_call c = {NULL, alpha, beta, x->data, y->data};
    SPIRA__TRY(spira__spmv_plan_get(A, &c.p));
    return spira__time_calls(A->ctx, n, ms, spmv_once, &c);
}

typedef struct {
    spira_context ctx;
    void *exec;
} graph_call;

static spira_status graph_once(void *arg)
{
    graph_call *g = arg;
    return spira__cuda_graph_launch(g->ctx, g->exec, 1);
}

spira_status spira_spmv_time_graph(double alpha, spira_matrix A, spira_vector x, double beta,
                                   spira_vector y, int n, int runs, double *ms)
{
    SPIRA__TRY(spmv_check(A, x, y));
    spira_context ctx = A->ctx;
    if (n < 1 || runs < 1 || !ms)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "SpMV graph timing: %d multiplies, %d runs",
                            n, runs);
    if (ctx->backend != SPIRA_BACKEND_CUDA)
        return spira__error(ctx, SPIRA_ERR_UNSUPPORTED, "SpMV graph timing: CUDA graphs need the "
                                                        "CUDA backend");
    spmv_call c = {NULL, alpha, beta, x->data, y->data};
    SPIRA__TRY(spira__spmv_plan_get(A, &c.p)); /* outside the capture: a plan may allocate */
    double *t = spira__calloc((size_t)runs, sizeof *t);
    if (!t) return spira__nomem(ctx, "SpMV graph timings", (size_t)runs * sizeof *t);
    spira_status s = spira__cuda_capture_begin(ctx);
    graph_call g = {ctx, NULL};
    if (s == SPIRA_OK) {
        spira_status captured = SPIRA_OK;
        for (int k = 0; k < n && captured == SPIRA_OK; k++) captured = spmv_once(&c);
        s = spira__cuda_capture_end(ctx, captured, &g.exec);
    }
    if (s == SPIRA_OK) s = spira__time_calls(ctx, 1, NULL, graph_once, &g); /* untimed first */
    if (s == SPIRA_OK) s = spira__time_calls(ctx, runs, t, graph_once, &g);
    if (s == SPIRA_OK) *ms = spira__median(t, runs) / n;
    spira__cuda_graph_destroy(ctx, g.exec);
    spira__free(t);
    return s;
}

spira_status spira_matrix_plan_info(spira_matrix A, spira_plan_info *info)
{
    if (!A || !info) return SPIRA_ERR_INVALID_ARG;
    spira__spmv_plan *p;
    SPIRA__TRY(spira__spmv_plan_get(A, &p));
    spira__plan_info(p, info);
    return SPIRA_OK;
}

spira_status spira_matrix_drop_plan(spira_matrix A)
{
    if (!A) return SPIRA_ERR_INVALID_ARG;
    spira__spmv_plan_drop(A);
    return SPIRA_OK;
}

