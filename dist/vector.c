/*
 * vector.c - distributed vectors: each rank's entries as an ordinary spira_vector, laid out
 * as a matrix's rows; scatter and gather through one rank; the reductions (a local sum in
 * double, then one MPI_Allreduce).
 */
#include "dist.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

spira_status spira_dist_vector_create(spira_dist_matrix A, spira_dist_vector *out)
{
    if (!A || !out) return SPIRA_ERR_INVALID_ARG;
    *out = NULL;
    spira_dist_vector v = spira__calloc(1, sizeof *v);
    spira_status s = v ? SPIRA_OK : spira__nomem(A->ctx, "distributed vector", sizeof *v);
    if (s == SPIRA_OK) s = spira_vector_create(A->ctx, A->L->local, A->dtype, &v->local);
    s = spira__dist_agree(A->ctx, A->L->comm, s);
    if (s != SPIRA_OK) {
        if (v) spira_vector_destroy(v->local);
        spira__free(v);
        return s;
    }
    v->L = spira__dist_layout_ref(A->L);
    *out = v;
    return SPIRA_OK;
}

void spira_dist_vector_destroy(spira_dist_vector v)
{
    if (!v) return;
    spira_vector_destroy(v->local);
    spira__dist_layout_unref(v->L);
    spira__free(v);
}

int64_t spira_dist_vector_length(spira_dist_vector v)
{
    return v ? v->L->n : 0;
}

spira_vector spira_dist_vector_local(spira_dist_vector v)
{
    return v ? v->local : NULL;
}

/* Counts and displacements of every rank's rows, for Scatterv / Gatherv through root; the
 * global vector is one process's, so its indices fit an int. */
static spira_status row_counts(spira_context ctx, const spira__dist_layout *L, int **count,
                               int **at)
{
    *count = *at = NULL;
    if (L->n > INT32_MAX)
        return spira__error(ctx, SPIRA_ERR_UNSUPPORTED, "a global vector of %lld entries does "
                            "not fit one rank's 32-bit indices", (long long)L->n);
    SPIRA__TRY(spira__alloc(ctx, (void **)count, (size_t)L->size, 2 * sizeof(int), "row counts"));
    *at = *count + L->size;
    for (int r = 0; r < L->size; r++) {
        (*count)[r] = (int)(L->starts[r + 1] - L->starts[r]);
        (*at)[r] = (int)L->starts[r];
    }
    return SPIRA_OK;
}

/* The whole vector between root's `global` and the ranks' rows: scattered to them (gather
 * 0: MPI_Scatterv, then the local part set) or gathered from them (gather 1: the local
 * part read, then MPI_Gatherv), through a double staging of the rank's rows. */
static spira_status root_exchange(spira_dist_vector v, int root, double *global, int gather)
{
    if (!v) return SPIRA_ERR_INVALID_ARG;
    spira_context ctx = v->local->ctx;
    const spira__dist_layout *L = v->L;
    int *count = NULL, *at = NULL;
    double *mine = NULL;
    spira_status s = root >= 0 && root < L->size
                         ? SPIRA_OK
                         : spira__error(ctx, SPIRA_ERR_INVALID_ARG, "root %d out of range", root);
    if (s == SPIRA_OK && L->rank == root && !global && L->n > 0)
        s = spira__error(ctx, SPIRA_ERR_INVALID_ARG, "the root rank's global values are NULL");
    if (s == SPIRA_OK) s = row_counts(ctx, L, &count, &at);
    if (s == SPIRA_OK) s = spira__alloc(ctx, (void **)&mine, (size_t)L->local, sizeof *mine,
                                        "vector staging");
    if (s == SPIRA_OK && gather) s = spira_vector_get_f64(v->local, mine);
    s = spira__dist_agree(ctx, L->comm, s);
    if (s == SPIRA_OK && gather &&
        MPI_Gatherv(mine, L->local, MPI_DOUBLE, global, count, at, MPI_DOUBLE, root,
                    L->comm) != MPI_SUCCESS)
        s = spira__error(ctx, SPIRA_ERR_UNSUPPORTED, "MPI_Gatherv of the vector failed");
    if (s == SPIRA_OK && !gather &&
        MPI_Scatterv(global, count, at, MPI_DOUBLE, mine, L->local, MPI_DOUBLE, root,
                     L->comm) != MPI_SUCCESS)
        s = spira__error(ctx, SPIRA_ERR_UNSUPPORTED, "MPI_Scatterv of the vector failed");
    if (s == SPIRA_OK && !gather) s = spira_vector_set_f64(v->local, mine);
    spira__free(count);
    spira__free(mine);
    return spira__dist_agree(ctx, L->comm, s);
}

spira_status spira_dist_vector_scatter_f64(spira_dist_vector v, int root, const double *global)
{
    return root_exchange(v, root, (double *)global, 0); /* read only when scattering */
}

spira_status spira_dist_vector_gather_f64(spira_dist_vector v, int root, double *global)
{
    return root_exchange(v, root, global, 1);
}

spira_status spira_dist_vector_fill(spira_dist_vector v, double value)
{
    if (!v) return SPIRA_ERR_INVALID_ARG;
    return spira__dist_agree(v->local->ctx, v->L->comm, spira_vector_fill(v->local, value));
}

/* Why vectors of layouts a and b (named) cannot be combined, or NULL when they can: the
 * same rows on the same ranks. Every rank answers alike (the starts are global). */
static const char *layout_differs(const spira__dist_layout *a, const spira__dist_layout *b,
                                  char *why, size_t len, const char *an, const char *bn)
{
    if (a == b) return NULL;
    int cmp = MPI_UNEQUAL;
    MPI_Comm_compare(a->comm, b->comm, &cmp);
    if (a->n != b->n)
        snprintf(why, len, "size mismatch: %s has %lld rows, %s %lld", an, (long long)a->n, bn,
                 (long long)b->n);
    else if (cmp != MPI_IDENT && cmp != MPI_CONGRUENT)
        snprintf(why, len, "%s and %s live on different communicators", an, bn);
    else if (memcmp(a->starts, b->starts, ((size_t)a->size + 1) * sizeof *a->starts))
        snprintf(why, len, "%s and %s spread their %lld rows over the ranks differently", an, bn,
                 (long long)a->n);
    else
        return NULL;
    return why;
}

static spira_status same_layout(spira_dist_vector x, spira_dist_vector y)
{
    char why[160];
    if (layout_differs(x->L, y->L, why, sizeof why, "x", "y"))
        return spira__error(x->local->ctx, SPIRA_ERR_INVALID_ARG, "%s", why);
    if (x->local->dtype != y->local->dtype)
        return spira__error(x->local->ctx, SPIRA_ERR_INVALID_ARG,
                            "precision mismatch: the vectors must share float or double");
    return SPIRA_OK;
}

spira_status spira_dist_dot(spira_dist_vector x, spira_dist_vector y, double *result)
{
    if (!x || !y || !result) return SPIRA_ERR_INVALID_ARG;
    spira_context ctx = x->local->ctx;
    double sum = 0;
    spira_status s = same_layout(x, y);
    if (s == SPIRA_OK) s = spira__dots(1, &x->local, &y->local, &sum);
    SPIRA__TRY(spira__dist_agree(ctx, x->L->comm, s));
    SPIRA__TRY(spira__dist_sum(ctx, x->L, 1, &sum));
    *result = sum;
    return SPIRA_OK;
}

spira_status spira_dist_nrm2(spira_dist_vector x, double *result)
{
    double d;
    SPIRA__TRY(spira_dist_dot(x, x, &d));
    *result = sqrt(d);
    return SPIRA_OK;
}

spira_status spira__dist_vectors_match(spira_dist_matrix A, spira_dist_vector x, const char *xn,
                                       spira_dist_vector y, const char *yn)
{
    spira_dist_vector v[2] = {x, y};
    const char *name[2] = {xn, yn};
    for (int i = 0; i < 2; i++) {
        if (!v[i]) continue;
        char why[160];
        if (layout_differs(A->L, v[i]->L, why, sizeof why, "A", name[i]))
            return spira__error(A->ctx, SPIRA_ERR_INVALID_ARG, "%s", why);
        if (v[i]->local->dtype != A->dtype)
            return spira__error(A->ctx, SPIRA_ERR_INVALID_ARG, "precision mismatch: the matrix "
                                "and %s must share float or double", name[i]);
    }
    return SPIRA_OK;
}
