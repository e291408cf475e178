/*
 * ell.c - host side of the ell format and of HYB's ELL part: conversion from canonical
 * CSR into the column-major padded arrays, the fill-limit refusal, and the CPU reference
 * multiply over the padded layout.
 */
#include "ell.h"
#include "padding.h"

#include <string.h>

int32_t spira__csr_max_row(const spira__csr *A)
{
    int32_t K = 0;
    for (int32_t i = 0; i < A->nrows; i++)
        if (A->row_ptr[i + 1] - A->row_ptr[i] > K) K = A->row_ptr[i + 1] - A->row_ptr[i];
    return K;
}

spira_status spira__ell_check_fill(spira_context ctx, const spira__csr *A, int32_t K,
                                   long max_fill)
{
    return spira__check_fill(ctx, "ell", "entries per row (the longest row)", K, A->nrows,
                             A->nnz, max_fill);
}

spira_status spira__ell_pitch(spira_context ctx, int32_t nrows, int32_t K, const char *fmt,
                              int32_t *pitch)
{
    int64_t p = spira__pitch(nrows);
    SPIRA__TRY(spira__check_slots(ctx, fmt, "entries per row", K, p));
    *pitch = K ? (int32_t)p : nrows;
    return SPIRA_OK;
}

spira_status spira__ell_build(spira_context ctx, const spira__csr *A, int32_t K, const char *fmt,
                              spira__ell *out)
{
    memset(out, 0, sizeof *out);
    int32_t pitch;
    SPIRA__TRY(spira__ell_pitch(ctx, A->nrows, K, fmt, &pitch));
    size_t slots = (size_t)K * (size_t)pitch, es = spira_dtype_size(A->dtype);
    spira__ell e = {A->nrows, A->ncols, K, pitch, A->dtype, NULL, NULL};
    spira_status s = spira__alloc(ctx, (void **)&e.cols, slots, sizeof(int32_t), "ELL columns");
    if (s == SPIRA_OK) s = spira__alloc(ctx, &e.vals, slots, es, "ELL values");
    if (s != SPIRA_OK) {
        spira__ell_free(&e);
        return s;
    }
    memset(e.cols, 0xff, slots * sizeof(int32_t)); /* all -1: padding unless filled below */
    memset(e.vals, 0, slots * es);                 /* 0.0 in both precisions */
    for (int32_t i = 0; i < A->nrows; i++) {
        int32_t b = A->row_ptr[i], len = A->row_ptr[i + 1] - b;
        if (len > K) len = K;
        for (int32_t k = 0; k < len; k++) {
            size_t at = (size_t)k * (size_t)e.pitch + (size_t)i;
            e.cols[at] = A->col_idx[b + k];
            memcpy((char *)e.vals + at * es, (const char *)A->val + (size_t)(b + k) * es, es);
        }
    }
    *out = e;
    return SPIRA_OK;
}

void spira__ell_free(spira__ell *e)
{
    if (!e) return;
    spira__free(e->cols);
    spira__free(e->vals);
    memset(e, 0, sizeof *e);
}

#define SPIRA__ELL_BODY(T)                                                               \
    do {                                                                                 \
        const T *v = (const T *)e->vals, *xx = (const T *)x;                             \
        T *yy = (T *)y;                                                                  \
        for (int32_t i = 0; i < e->nrows; i++) {                                         \
            T sum = 0;                                                                   \
            size_t at = (size_t)i;                                                       \
            for (int32_t k = 0; k < e->K; k++, at += (size_t)e->pitch) {                 \
                int32_t c = e->cols[at];                                                 \
                if (c < 0) break; /* padding only at a row's end */                      \
                sum += v[at] * xx[c];                                                    \
            }                                                                            \
            yy[i] = beta == 0 ? (T)(alpha * sum) : (T)(alpha * sum + beta * yy[i]);      \
        }                                                                                \
    } while (0)

void spira__ell_apply(const spira__ell *e, double alpha, const void *x, double beta, void *y)
{
    if (e->dtype == SPIRA_R64) SPIRA__ELL_BODY(double);
    else SPIRA__ELL_BODY(float);
}

size_t spira__ell_bytes(const spira__ell *e)
{
    return (size_t)e->K * (size_t)e->pitch * (sizeof(int32_t) + spira_dtype_size(e->dtype));
}

/* Option max_fill=N (default 3): refuse when K * nrows > N * nnz, K being the longest row. */
static spira_status ell_convert(spira_context ctx, const spira__csr *A, const char *opts,
                               void **layout)
{
    *layout = NULL;
    long max_fill;
    SPIRA__TRY(spira__opt_max_fill(ctx, opts, "ell", &max_fill));
    int32_t K = spira__csr_max_row(A);
    SPIRA__TRY(spira__ell_check_fill(ctx, A, K, max_fill));
    spira__ell built; /* refuses an index overflow before anything is allocated */
    SPIRA__TRY(spira__ell_build(ctx, A, K, "ell", &built));
    spira__ell *e = spira__malloc(sizeof *e);
    if (!e) {
        spira__ell_free(&built);
        return spira__nomem(ctx, "ELL layout", sizeof *e);
    }
    *e = built;
    *layout = e;
    return SPIRA_OK;
}

static void ell_apply(const void *layout, double alpha, const void *x, double beta, void *y)
{
    spira__ell_apply((const spira__ell *)layout, alpha, x, beta, y);
}

static size_t ell_bytes(const void *layout)
{
    return spira__ell_bytes((const spira__ell *)layout);
}

static void ell_destroy(void *layout)
{
    spira__ell_free((spira__ell *)layout);
    spira__free(layout);
}

extern const spira__format_gpu spira__ell_gpu;

const spira__format spira__ell_format = {
    .name = "ell",
    .description = "ELLPACK, column-major padded to the longest row, a thread per row; refuses "
                   "beyond max_fill (default 3) slots per nonzero (Bell & Garland 2008)",
    .options = "max_fill",
    .convert = ell_convert,
    .apply = ell_apply,
    .bytes = ell_bytes,
    .destroy = ell_destroy,
    .gpu = SPIRA__GPU(&spira__ell_gpu),
};
