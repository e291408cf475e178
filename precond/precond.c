/*
 * precond.c - the preconditioner registry: identity and Jacobi (M = diag(A)) here, the
 * Neumann polynomial in neumann.c, ILU(0) and ILUT in ilu.c.
 */
#include "precond.h"

#include <math.h>

static spira_status identity_apply(spira__precond *self, spira_vector r, spira_vector z)
{
    (void)self;
    return spira_copy(r, z);
}

/* z <- D^-1 r */
static spira_status jacobi_apply(spira__precond *self, spira_vector r, spira_vector z)
{
    return spira__vector_pmul(self->v, r, z);
}

double spira__diagonal_entry(const spira__csr *c, int32_t i)
{
    for (int32_t k = c->row_ptr[i]; k < c->row_ptr[i + 1]; k++)
        if (c->col_idx[k] == i) return spira__get(c->val, c->dtype, k);
    return 0;
}

/* 1 / A(i,i) for every row, on the host; a zero or missing diagonal names its row. */
spira_status spira__inverse_diagonal(spira_matrix A, double **out)
{
    const spira__csr *c = &A->csr;
    double *d = NULL;
    SPIRA__TRY(spira__alloc(A->ctx, (void **)&d, (size_t)c->nrows, sizeof *d, "diagonal"));
    for (int32_t i = 0; i < c->nrows; i++) {
        double a = spira__diagonal_entry(c, i);
        if (a == 0 || !isfinite(a)) {
            spira__free(d);
            return spira__error(A->ctx, a == 0 ? SPIRA_ERR_INVALID_ARG : SPIRA_ERR_NONFINITE,
                                "Jacobi needs a nonzero finite diagonal: A(%d,%d) = %g "
                                "(1-based row %d)",
                                i, i, a, i + 1);
        }
        d[i] = 1.0 / a;
    }
    *out = d;
    return SPIRA_OK;
}

void spira__precond_destroy(spira__precond *p)
{
    if (!p) return;
    if (p->destroy) p->destroy(p);
    spira_vector_destroy(p->v);
    spira__free(p);
}

spira_status spira__inverse_diagonal_vector(spira_matrix A, spira_vector *out)
{
    double *d = NULL;
    *out = NULL;
    spira_status s = spira__inverse_diagonal(A, &d);
    if (s == SPIRA_OK) s = spira_vector_create(A->ctx, A->csr.nrows, A->csr.dtype, out);
    if (s == SPIRA_OK) s = spira_vector_set_f64(*out, d);
    spira__free(d);
    if (s != SPIRA_OK) {
        spira_vector_destroy(*out);
        *out = NULL;
    }
    return s;
}

spira_status spira__precond_create(spira_precond_type type, const spira_solve_opts *o,
                                   spira_matrix A, spira__precond **out)
{
    *out = NULL;
    if (type == SPIRA_PRECOND_NEUMANN) return spira__neumann_create(A, o->precond_degree, out);
    if (type == SPIRA_PRECOND_ILU0 || type == SPIRA_PRECOND_ILUT)
        return spira__ilu_create(A, type, o->precond_drop_tol, o->precond_fill, out);
    if (type != SPIRA_PRECOND_NONE && type != SPIRA_PRECOND_JACOBI)
        return spira__error(A->ctx, SPIRA_ERR_INVALID_ARG, "unknown preconditioner %d", (int)type);
    spira__precond *p = spira__calloc(1, sizeof *p);
    if (!p) return spira__nomem(A->ctx, "preconditioner", sizeof *p);
    spira_status s = SPIRA_OK;
    if (type == SPIRA_PRECOND_NONE) {
        p->name = "none";
        p->apply = identity_apply;
    } else {
        p->name = "jacobi";
        p->apply = jacobi_apply;
        s = spira__inverse_diagonal_vector(A, &p->v);
    }
    if (s != SPIRA_OK) {
        spira__precond_destroy(p);
        return s;
    }
    *out = p;
    return SPIRA_OK;
}
