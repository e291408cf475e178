/*
 * common.c - what the preconditioner types share: the apply and destroy every solver calls,
 * the base allocation, and A's inverse diagonal (Jacobi, Neumann, the Jacobi iteration).
 */
#include "precond.h"
#include "cuda/gateway.h"
#include "spmv.h"

#include <math.h>

spira_status spira__precond_apply(spira__precond *M, spira_vector r, spira_vector z)
{
    return M->ops->apply(M, r, z);
}

void spira__precond_destroy(spira__precond *p)
{
    if (!p) return;
    if (p->ops->destroy) p->ops->destroy(p);
    spira_vector_destroy(p->v);
    spira__free(p);
}

spira_status spira__precond_alloc(spira_context ctx, const spira__precond_ops *ops, size_t size,
                                  spira__precond **out)
{
    *out = spira__calloc(1, size);
    if (!*out) return spira__nomem(ctx, "preconditioner", size);
    (*out)->ops = ops;
    return SPIRA_OK;
}

double spira__diagonal_entry(const spira__csr *c, int32_t i)
{
    return spira__csr_entry(c, i, i);
}

/* The error for row bad's diagonal a, as Jacobi names it. */
static spira_status bad_diagonal(spira_matrix A, int32_t bad)
{
    const double a = spira__diagonal_entry(&A->csr, bad);
    return spira__error(A->ctx, a == 0 ? SPIRA_ERR_INVALID_ARG : SPIRA_ERR_NONFINITE,
                        "Jacobi needs a nonzero finite diagonal: A(%d,%d) = %g (1-based row %d)",
                        bad, bad, a, bad + 1);
}

/* 1 / A(i,i) for every row into v, on the host; a zero or missing diagonal names its row. */
static spira_status inverse_diagonal_host(spira_matrix A, spira_vector v)
{
    const spira__csr *c = &A->csr;
    double *d = NULL;
    SPIRA__TRY(spira__alloc(A->ctx, (void **)&d, (size_t)c->nrows, sizeof *d, "diagonal"));
    /* on threads (a search of each row for its diagonal), the first bad row named */
    int32_t bad = c->nrows;
    const int team = c->nnz > SPIRA__PARALLEL_ITEMS;
#pragma omp parallel for schedule(static) reduction(min : bad) if (team)
    for (int32_t i = 0; i < c->nrows; i++) {
        const double a = spira__diagonal_entry(c, i);
        d[i] = 1.0 / a;
        if ((a == 0 || !isfinite(a)) && i < bad) bad = i;
    }
    spira_status s = bad < c->nrows ? bad_diagonal(A, bad) : spira_vector_set_f64(v, d);
    spira__free(d);
    return s;
}

/* A's D^-1 as a vector of A's context: from the device CSR where a plan has uploaded it (a
 * kernel, the host's values bit for bit), else on the host. */
static spira_status inverse_diagonal_new(spira_matrix A, const void *arg, void **plan)
{
    (void)arg;
    spira_vector *out = (spira_vector *)plan;
    SPIRA__TRY(spira_vector_create(A->ctx, A->csr.nrows, A->csr.dtype, out));
    const spira__csr_dev *dA = A->ctx->backend == SPIRA_BACKEND_CUDA
                                   ? spira__matrix_csr_dev_present(A) : NULL;
    spira_status s;
    if (dA) {
        int32_t bad;
        s = spira__cuda_inverse_diagonal(A->ctx, dA, (*out)->data, &bad);
        if (s == SPIRA_OK && bad < A->csr.nrows) s = bad_diagonal(A, bad);
    } else {
        s = inverse_diagonal_host(A, *out);
    }
    if (s != SPIRA_OK) {
        spira_vector_destroy(*out);
        *out = NULL;
    }
    return s;
}

static void vector_destroy(void *v)
{
    spira_vector_destroy((spira_vector)v);
}

/* Made once per matrix and kept in A's cache (a matrix never changes), so every solve after
 * the first gets its D^-1 as a copy on the device, not from the host again. */
spira_status spira__inverse_diagonal_vector(spira_matrix A, spira_vector *out)
{
    *out = NULL;
    void *d;
    SPIRA__TRY(spira__matrix_cache_get(A, "precond:inverse-diagonal", NULL,
                                       inverse_diagonal_new, vector_destroy, &d));
    SPIRA__TRY(spira_vector_create(A->ctx, A->csr.nrows, A->csr.dtype, out));
    spira_status s = spira_copy((spira_vector)d, *out);
    if (s != SPIRA_OK) {
        spira_vector_destroy(*out);
        *out = NULL;
    }
    return s;
}
