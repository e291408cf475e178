/*
 * matrix.c - the public matrix handle: construction, info, CSR export, transpose, and the
 * plan cache that upper layers fill (lib/ never looks inside a plan).
 */
#include "spira_impl.h"

#include <stdio.h>
#include <string.h>

spira_status spira__matrix_wrap(spira_context ctx, spira__csr *csr, int symmetric,
                                spira_matrix *out)
{
    spira_matrix A = spira__calloc(1, sizeof *A);
    if (!A) {
        spira__csr_free(csr);
        return spira__nomem(ctx, "matrix handle", sizeof *A);
    }
    A->ctx = ctx;
    A->csr = *csr;
    A->symmetric = symmetric; /* format "": spmv/ gives the default on first use */
    *out = A;
    return SPIRA_OK;
}

spira_status spira__matrix_empty_line(spira_matrix A, int32_t *line, int *is_col)
{
    if (!A->empty.known) {
        SPIRA__TRY(spira__csr_empty_line(A->ctx, &A->csr, &A->empty.line, &A->empty.is_col));
        A->empty.known = 1;
    }
    *line = A->empty.line;
    *is_col = A->empty.is_col;
    return SPIRA_OK;
}

spira_status spira_matrix_from_csr(spira_context ctx, int64_t nrows, int64_t ncols,
                                   const int32_t *row_ptr, const int32_t *col_idx,
                                   const void *val, spira_dtype dtype, spira_matrix *A)
{
    if (!ctx || !A) return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "NULL context or output");
    *A = NULL;
    if (dtype != SPIRA_R32 && dtype != SPIRA_R64)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "unknown dtype %d", (int)dtype);
    spira__csr c;
    SPIRA__TRY(spira__csr_from_arrays(ctx, nrows, ncols, row_ptr, col_idx, val, dtype, &c));
    return spira__matrix_wrap(ctx, &c, 0, A);
}

spira_status spira_matrix_from_coo(spira_context ctx, int64_t nrows, int64_t ncols, int64_t nnz,
                                   const int32_t *row_idx, const int32_t *col_idx,
                                   const void *val, spira_dtype dtype, spira_matrix *A)
{
    if (!ctx || !A) return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "NULL context or output");
    *A = NULL;
    spira__csr c;
    SPIRA__TRY(spira__csr_from_coo(ctx, nrows, ncols, nnz, row_idx, col_idx, val, dtype, &c));
    return spira__matrix_wrap(ctx, &c, 0, A);
}

spira_status spira_matrix_read_mm(spira_context ctx, const char *path, spira_dtype dtype,
                                  spira_matrix *A)
{
    if (!ctx || !A || !path)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "NULL context, path or output");
    *A = NULL;
    if (dtype != SPIRA_R32 && dtype != SPIRA_R64)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "unknown dtype %d", (int)dtype);
    spira__csr c;
    int symmetric = 0;
    SPIRA__TRY(spira__mm_read(ctx, path, dtype, &c, &symmetric));
    return spira__matrix_wrap(ctx, &c, symmetric, A);
}

spira_status spira_matrix_get_csr(spira_matrix A, int32_t *row_ptr, int32_t *col_idx, void *val)
{
    if (!A) return SPIRA_ERR_INVALID_ARG;
    const spira__csr *c = &A->csr;
    if (row_ptr) memcpy(row_ptr, c->row_ptr, ((size_t)c->nrows + 1) * sizeof(int32_t));
    if (col_idx) memcpy(col_idx, c->col_idx, (size_t)c->nnz * sizeof(int32_t));
    if (val) memcpy(val, c->val, (size_t)c->nnz * spira_dtype_size(c->dtype));
    return SPIRA_OK;
}

spira_status spira_matrix_transpose(spira_matrix A, spira_matrix *AT)
{
    if (!A || !AT) return SPIRA_ERR_INVALID_ARG;
    *AT = NULL;
    spira__csr t;
    SPIRA__TRY(spira__csr_transpose(A->ctx, &A->csr, &t));
    return spira__matrix_wrap(A->ctx, &t, A->symmetric, AT);
}

void spira_matrix_destroy(spira_matrix A)
{
    if (!A) return;
    spira__cache_entry *e = A->cache;
    while (e) {
        spira__cache_entry *next = e->next;
        if (e->destroy) e->destroy(e->plan);
        spira__free(e);
        e = next;
    }
    spira__csr_free(&A->csr);
    spira__free(A);
}

spira__cache_entry *spira__matrix_cache_find(spira_matrix A, const char *key)
{
    for (spira__cache_entry *e = A->cache; e; e = e->next)
        if (strcmp(e->key, key) == 0) return e;
    return NULL;
}

void spira__matrix_cache_drop(spira_matrix A, const char *key)
{
    for (spira__cache_entry **pe = &A->cache; *pe; pe = &(*pe)->next) {
        spira__cache_entry *e = *pe;
        if (strcmp(e->key, key) != 0) continue;
        *pe = e->next;
        if (e->destroy) e->destroy(e->plan);
        spira__free(e);
        return;
    }
}

spira_status spira__matrix_cache_get(spira_matrix A, const char *key, const void *arg,
                                     spira_status (*build)(spira_matrix A, const void *arg,
                                                           void **plan),
                                     void (*destroy)(void *), void **out)
{
    spira__cache_entry *e = spira__matrix_cache_find(A, key);
    if (!e) {
        const double t0 = spira__now_ms();
        void *plan = NULL;
        SPIRA__TRY(build(A, arg, &plan));
        SPIRA__TRY(spira__matrix_cache_put(A, key, plan, destroy, spira__now_ms() - t0, &e));
    }
    *out = e->plan;
    return SPIRA_OK;
}

spira_status spira__matrix_cache_put(spira_matrix A, const char *key, void *plan,
                                     void (*destroy)(void *), double build_ms,
                                     spira__cache_entry **entry)
{
    spira__cache_entry *e = spira__calloc(1, sizeof *e);
    if (!e) {
        if (destroy) destroy(plan);
        return spira__nomem(A->ctx, "plan cache entry", sizeof *e);
    }
    snprintf(e->key, sizeof e->key, "%s", key);
    e->plan = plan;
    e->destroy = destroy;
    e->build_ms = build_ms;
    e->next = A->cache;
    A->cache = e;
    if (entry) *entry = e;
    return SPIRA_OK;
}
