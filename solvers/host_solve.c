/*
 * host_solve.c - small systems solved on the host beside a CUDA context.
 *
 * A GPU iteration costs a floor of kernel launches and synchronizations whatever the size
 * (several times a small system's whole iteration on the host; issue 14, the numbers in
 * bench/results/2026-11-25-code-comments), so below a crossover the host is faster. When
 * the library chose the CUDA backend (the context was made with AUTO), a solve whose
 * predicted host iteration is cheaper than its predicted GPU iteration runs on the CPU
 * companion context (spira__context_host): on a twin of A there (a copy of its CSR,
 * cached in A), with b and x copied over and back. spira_solve_opts.backend forces either.
 *
 * The host's side of the model is the least portable: the same build's host iteration on
 * 1138_bus took 19 us on one H100 machine's 16 cores and 8.2 on another's 32, where the
 * GPU's graph iteration took 10-15 on both. So where the two predictions are within a
 * factor of SPIRA__HOST_MEASURE_RATIO, the solver is timed instead: solve.c makes the host
 * solver, runs a few iterations of it (tens of microseconds at these sizes) and keeps it if
 * it beat the GPU's prediction, else frees it and sets up on the GPU. Not in a
 * deterministic context, whose choice must not depend on a clock.
 */
#include "host_solve.h"

#include <string.h>

/* The model, per iteration of a solver making k multiplies and preconditioner applies:
 * host: HOST_FIXED_US + k * (nnz * HOST_NS_NNZ + n * HOST_NS_ROW) / 1000;
 * GPU:  CG whose iteration runs as a CUDA graph (no preconditioner or Jacobi, no monitor:
 *       cg_graph.c) GPU_GRAPH_US an iteration, any other k * GPU_APPLY_US, or the streaming time
 *       of the same bytes if that is more.
 * Fitted, within 30%, to bench/host-crossover.sh and the graph timings of
 * bench/results/2026-11-24-h100-session7 (an H100 with 16 host cores); the points it was
 * fitted to are listed in bench/results/2026-11-25-code-comments. */
#define HOST_FIXED_US 2.0
#define HOST_NS_NNZ 1.0
#define HOST_NS_ROW 5.0
#define GPU_GRAPH_US 11.0
#define GPU_APPLY_US 33.0
#define GPU_NS_NNZ 0.006 /* 12 bytes a nonzero at 2 TB/s */
#define GPU_NS_ROW 0.024 /* the vectors' 48 bytes a row at 2 TB/s */

#define TWIN_KEY "host:twin"

static double host_model_us(double n, double nnz, double k)
{
    return HOST_FIXED_US + k * (nnz * HOST_NS_NNZ + n * HOST_NS_ROW) / 1000;
}

static double gpu_model_us(double n, double nnz, double k, int graph)
{
    const double stream = k * (nnz * GPU_NS_NNZ + n * GPU_NS_ROW) / 1000;
    const double floor = graph ? GPU_GRAPH_US : k * GPU_APPLY_US;
    return stream > floor ? stream : floor;
}

spira_status spira__host_solve_where(spira_matrix A, const spira_solve_opts *o,
                                     int applies_per_it, int graph, int *on_host,
                                     double *gpu_us, const char **why)
{
    spira_context ctx = A->ctx;
    *on_host = 0;
    *gpu_us = 0;
    *why = "the context's backend";
    if (o->backend == SPIRA_BACKEND_CUDA && ctx->backend != SPIRA_BACKEND_CUDA)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG,
                            "spira_solve_opts.backend = CUDA in a context on the CPU backend");
    if ((unsigned)o->backend > SPIRA_BACKEND_CUDA)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG,
                            "spira_solve_opts.backend = %d: unknown backend", (int)o->backend);
    if (ctx->backend != SPIRA_BACKEND_CUDA) return SPIRA_OK;
    if (o->backend == SPIRA_BACKEND_CUDA) {
        *why = "asked for by spira_solve_opts.backend";
        return SPIRA_OK;
    }
    if (o->backend == SPIRA_BACKEND_CPU) {
        *on_host = 1;
        *why = "asked for by spira_solve_opts.backend";
        return SPIRA_OK;
    }
    if (!ctx->chosen) {
        *why = "the context's backend (named by its creator)";
        return SPIRA_OK;
    }
    const double n = A->csr.nrows, nnz = (double)A->csr.nnz, k = applies_per_it;
    const double h = host_model_us(n, nnz, k), g = gpu_model_us(n, nnz, k, graph);
    *gpu_us = g;
    /* a deterministic context keeps the model's answer: a timing could send the same solve
     * to the host in one run and to the GPU, which rounds otherwise, in the next */
    if (!ctx->deterministic && h < g * SPIRA__HOST_MEASURE_RATIO &&
        g < h * SPIRA__HOST_MEASURE_RATIO) {
        *on_host = -1;
        *why = "too close to predict: the host's iteration is timed";
        return SPIRA_OK;
    }
    *on_host = h < g;
    *why = *on_host ? "small system: the host's iteration is predicted faster than the GPU's"
                    : "the GPU's iteration is predicted faster than the host's";
    return SPIRA_OK;
}

void spira__host_decide(double host_us, double gpu_us, int *on_host, const char **why)
{
    *on_host = host_us >= 0 && host_us < gpu_us;
    *why = host_us < 0 ? "the GPU's (the host's iteration could not be timed)"
           : *on_host  ? "small system: the host's iteration, timed, is faster than the GPU's "
                         "predicted"
                       : "the GPU's iteration is predicted faster than the host's, timed";
}

/* A copy of A's CSR in the host context, cached in A. */
static spira_status twin_of(spira_matrix A, spira_context host, spira_matrix *T)
{
    spira__cache_entry *e = spira__matrix_cache_find(A, TWIN_KEY);
    if (!e) {
        spira__csr c;
        const spira__csr *a = &A->csr;
        SPIRA__TRY(spira__csr_from_arrays(host, a->nrows, a->ncols, a->row_ptr, a->col_idx,
                                          a->val, a->dtype, &c));
        spira_matrix t;
        SPIRA__TRY(spira__matrix_wrap(host, &c, A->symmetric, &t));
        SPIRA__TRY(spira__matrix_cache_put(A, TWIN_KEY, t, (void (*)(void *))spira_matrix_destroy,
                                           0, &e));
    }
    *T = (spira_matrix)e->plan;
    return SPIRA_OK;
}

spira_status spira__host_twin(spira_matrix A, const spira_solve_opts *o, spira_context *host,
                              spira_matrix *T, spira_solve_opts *ho)
{
    *host = NULL;
    spira_context h;
    SPIRA__TRY(spira__context_host(A->ctx, &h));
    *host = h;
    *ho = o ? *o : (spira_solve_opts){0};
    ho->backend = SPIRA_BACKEND_CPU;
    return twin_of(A, h, T);
}

spira_status spira__host_vectors(spira_context host, spira_matrix A, spira__host_solver *h)
{
    spira_status s = spira_vector_create(host, A->csr.nrows, A->csr.dtype, &h->b);
    if (s == SPIRA_OK) s = spira_vector_create(host, A->csr.ncols, A->csr.dtype, &h->x);
    return s;
}

void spira__host_failed(spira_context ctx, spira_context host, spira_status s)
{
    if (host && host->err[0]) spira__error(ctx, s, "on the host: %s", host->err);
}

spira_status spira__host_copy_in(spira__host_solver *h, spira_vector b, spira_vector x,
                                 int use_initial_guess)
{
    spira_status s = spira_vector_get(b, h->b->data);
    if (s == SPIRA_OK && use_initial_guess) s = spira_vector_get(x, h->x->data);
    if (s == SPIRA_OK) h->b->ctx->err[0] = '\0';
    return s;
}

spira_status spira__host_copy_out(spira__host_solver *h, spira_vector x, spira_status r)
{
    spira_context ctx = x->ctx, host = h->b->ctx;
    /* x gets the host's iterate whatever the outcome, as a solve on the GPU leaves it */
    spira_status s = spira_vector_set(x, h->x->data);
    if (r != SPIRA_OK && host->err[0]) spira__error(ctx, r, "%s", host->err);
    return r != SPIRA_OK ? r : s;
}

void spira__host_vectors_free(spira__host_solver *h)
{
    spira_vector_destroy(h->b);
    spira_vector_destroy(h->x);
    memset(h, 0, sizeof *h);
}
