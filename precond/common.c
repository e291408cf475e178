/*
 * common.c - what the preconditioner types share: the apply and destroy every solver calls,
 * the base allocation, and A's inverse diagonal (Jacobi, Neumann, the Jacobi iteration).
 */
#include "precond.h"

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

/* 1 / A(i,i) for every row, on the host; a zero or missing diagonal names its row. */
static spira_status inverse_diagonal(spira_matrix A, double **out)
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
    if (bad < c->nrows) {
        const double a = spira__diagonal_entry(c, bad);
        spira__free(d);
        return spira__error(A->ctx, a == 0 ? SPIRA_ERR_INVALID_ARG : SPIRA_ERR_NONFINITE,
                            "Jacobi needs a nonzero finite diagonal: A(%d,%d) = %g "
                            "(1-based row %d)",
                            bad, bad, a, bad + 1);
    }
    *out = d;
    return SPIRA_OK;
}

spira_status spira__inverse_diagonal_vector(spira_matrix A, spira_vector *out)
{
    double *d = NULL;
    *out = NULL;
    spira_status s = inverse_diagonal(A, &d);
    if (s == SPIRA_OK) s = spira_vector_create(A->ctx, A->csr.nrows, A->csr.dtype, out);
    if (s == SPIRA_OK) s = spira_vector_set_f64(*out, d);
    spira__free(d);
    if (s != SPIRA_OK) {
        spira_vector_destroy(*out);
        *out = NULL;
    }
    return s;
}
