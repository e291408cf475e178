/*
 * gf2.c - SpMV over GF(2) (see gf2.h): the matrix (a pattern whose entries are the parity
 * of their count), the registry of GF(2) formats, the plans (one per block width), the
 * multiply, and the csr format's host side, which is the CPU reference.
 */
#include "gf2.h"
#include "spmv.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- the csr format's host side --------------------------------------------------------- */

void spira__gf2_csr_multiply(const spira__gf2_pattern *A, int words, const uint64_t *x,
                             uint64_t *y)
{
#pragma omp parallel for schedule(static) if (A->nnz > 50000)
    for (int32_t i = 0; i < A->nrows; i++) {
        uint64_t acc[4] = {0, 0, 0, 0};
        for (int32_t k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++)
            for (int q = 0; q < words; q++) acc[q] ^= x[(size_t)A->col_idx[k] * words + q];
        for (int q = 0; q < words; q++) y[(size_t)i * words + q] = acc[q];
    }
}

static spira_status csr_borrow(spira_context ctx, const spira__gf2_pattern *A, int words,
                               const char *opts, void **layout)
{
    (void)ctx, (void)words, (void)opts;
    *layout = (void *)A;
    return SPIRA_OK;
}

static void csr_apply(const void *layout, int words, const uint64_t *x, uint64_t *y)
{
    spira__gf2_csr_multiply((const spira__gf2_pattern *)layout, words, x, y);
}

static size_t csr_bytes(const void *layout)
{
    const spira__gf2_pattern *A = (const spira__gf2_pattern *)layout;
    return ((size_t)A->nrows + 1 + (size_t)A->nnz) * sizeof(int32_t);
}

/* ---- the registry ----------------------------------------------------------------------- */

#ifdef HAVE_CUDA
#define GF2_GPU(upload, apply, destroy) upload, apply, destroy
#else
#define GF2_GPU(upload, apply, destroy) NULL, NULL, NULL
#endif

static const spira__gf2_format gf2_formats[] = {
    {"csr", "the pattern as CSR, V lanes of a warp a row (V from the mean row length), XOR "
            "reduced by shuffles; the CPU reference", "",
     csr_borrow, csr_apply, csr_bytes, NULL,
     GF2_GPU(spira__gf2_csr_upload, spira__gf2_csr_apply, spira__gf2_csr_dev_destroy)},
    {"sliced-coo", "sliced COO (Schmidt, Aribowo, Dang): slices of rows whose entries are in "
                   "column order, a block a slice XORing into its rows in shared memory; "
                   "share=thread|warp|block (the SS, MS and LS sub-formats; default warp), "
                   "rows=R a slice", "share rows",
     spira__gf2_sliced_convert, spira__gf2_sliced_host_apply, spira__gf2_sliced_bytes,
     spira__gf2_sliced_destroy,
     GF2_GPU(spira__gf2_sliced_upload, spira__gf2_sliced_apply, spira__gf2_sliced_dev_destroy)},
};
enum { NFORMATS = sizeof gf2_formats / sizeof gf2_formats[0] };

const spira__gf2_format *spira__gf2_format_find(const char *name)
{
    for (int i = 0; i < NFORMATS; i++)
        if (!strcmp(gf2_formats[i].name, name)) return &gf2_formats[i];
    return NULL;
}

int spira_gf2_format_count(void)
{
    return NFORMATS;
}

spira_status spira_gf2_format_describe(int i, const char **name, const char **description)
{
    if (i < 0 || i >= NFORMATS) return SPIRA_ERR_INVALID_ARG;
    if (name) *name = gf2_formats[i].name;
    if (description) *description = gf2_formats[i].description;
    return SPIRA_OK;
}

/* ---- the matrix ------------------------------------------------------------------------- */

/* Keep the entries of C (counts, or summed integer values) that are odd; C is freed. path
 * names the file for a value that is not an integer (NULL: no file). */
static spira_status parity_pattern(spira_context ctx, spira__csr *C, const char *path,
                                   spira_gf2_matrix *out)
{
    spira_status s = SPIRA_OK;
    int32_t kept = 0;
    for (int32_t i = 0; i < C->nrows && s == SPIRA_OK; i++) {
        const int32_t begin = C->row_ptr[i];
        C->row_ptr[i] = kept;
        for (int32_t k = begin; k < C->row_ptr[i + 1]; k++) {
            const double v = spira__get(C->val, C->dtype, k);
            if (v != floor(v) || fabs(v) > 0x1p53) {
                s = spira__error(ctx, SPIRA_ERR_PARSE,
                                 "%s: entry (%d, %d) is %.17g, not an integer of at most 2^53: "
                                 "a GF(2) matrix takes integer values (mod 2)",
                                 path ? path : "COO", i + 1, C->col_idx[k] + 1, v);
                break;
            }
            if (fmod(v, 2.0) != 0) C->col_idx[kept++] = C->col_idx[k];
        }
    }
    if (s == SPIRA_OK) C->row_ptr[C->nrows] = kept;
    spira_gf2_matrix M = s == SPIRA_OK ? spira__calloc(1, sizeof *M) : NULL;
    if (s == SPIRA_OK && !M) s = spira__nomem(ctx, "GF(2) matrix handle", sizeof *M);
    if (s != SPIRA_OK) {
        spira__csr_free(C);
        return s;
    }
    spira__free(C->val);
    C->val = NULL;
    C->nnz = kept;
    M->ctx = ctx;
    M->pattern = *C;
    snprintf(M->format, sizeof M->format, "csr");
    *out = M;
    return SPIRA_OK;
}

spira_status spira_gf2_matrix_from_coo(spira_context ctx, int64_t nrows, int64_t ncols,
                                       int64_t nnz, const int32_t *row_idx,
                                       const int32_t *col_idx, spira_gf2_matrix *M)
{
    if (!ctx || !M) return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "NULL context or output");
    *M = NULL;
    spira__csr C;
    /* values NULL: ones, summed over duplicates into each entry's count */
    SPIRA__TRY(spira__csr_from_coo(ctx, nrows, ncols, nnz, row_idx, col_idx, NULL, SPIRA_R64, &C));
    return parity_pattern(ctx, &C, NULL, M);
}

spira_status spira_gf2_matrix_read_mm(spira_context ctx, const char *path, spira_gf2_matrix *M)
{
    if (!ctx || !path || !M)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "NULL context, path or output");
    *M = NULL;
    spira__csr C;
    int symmetric;
    SPIRA__TRY(spira__mm_read(ctx, path, SPIRA_R64, &C, &symmetric));
    return parity_pattern(ctx, &C, path, M);
}

spira_status spira_gf2_matrix_size(spira_gf2_matrix M, int64_t *nrows, int64_t *ncols,
                                   int64_t *nnz)
{
    if (!M) return SPIRA_ERR_INVALID_ARG;
    if (nrows) *nrows = M->pattern.nrows;
    if (ncols) *ncols = M->pattern.ncols;
    if (nnz) *nnz = M->pattern.nnz;
    return SPIRA_OK;
}

void spira__gf2_plans_drop(spira_gf2_matrix M)
{
    for (int w = 0; w < 3; w++) {
        spira__gf2_plan *p = &M->plan[w];
        if (p->dev) p->fmt->destroy_dev(M->ctx, p->dev);
        if (p->layout && p->fmt->destroy_layout) p->fmt->destroy_layout(p->layout);
        memset(p, 0, sizeof *p);
    }
}

void spira_gf2_matrix_destroy(spira_gf2_matrix M)
{
    if (!M) return;
    spira__gf2_plans_drop(M);
    spira__csr_free(&M->pattern);
    spira__free(M);
}

static spira_status unknown_gf2_format(spira_context ctx, const char *name)
{
    char list[256] = "";
    for (int i = 0; i < NFORMATS; i++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "",
                 gf2_formats[i].name);
    return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "unknown GF(2) format '%s' (known: %s)",
                        name, list);
}

spira_status spira_gf2_matrix_set_format(spira_gf2_matrix M, const char *name,
                                         const char *options)
{
    if (!M || !name) return SPIRA_ERR_INVALID_ARG;
    const spira__gf2_format *f = spira__gf2_format_find(name);
    if (!f) return unknown_gf2_format(M->ctx, name);
    SPIRA__TRY(spira__check_option_keys(M->ctx, f->name, f->options, options));
    if (strlen(options ? options : "") >= sizeof M->format_opts)
        return spira__error(M->ctx, SPIRA_ERR_INVALID_ARG, "format options too long: '%s'",
                            options);
    spira__gf2_plans_drop(M);
    /* name or options may be M's own strings */
    memmove(M->format_opts, options ? options : "", strlen(options ? options : "") + 1);
    memmove(M->format, f->name, strlen(f->name) + 1);
    return SPIRA_OK;
}

spira_status spira__gf2_plan_get(spira_gf2_matrix M, int words, spira__gf2_plan **plan)
{
    spira__gf2_plan *p = &M->plan[words == 1 ? 0 : words == 2 ? 1 : 2];
    if (!p->fmt) {
        spira_context ctx = M->ctx;
        const spira__gf2_format *f = spira__gf2_format_find(M->format);
        const int gpu = ctx->backend == SPIRA_BACKEND_CUDA;
        if (gpu && !f->upload)
            return spira__error(ctx, SPIRA_ERR_UNSUPPORTED,
                                "GF(2) format '%s' has no CUDA kernel in this build", f->name);
        const double t0 = spira__now_ms();
        void *layout = NULL, *dev = NULL;
        spira_status s = f->convert(ctx, &M->pattern, words, M->format_opts, &layout);
        if (s == SPIRA_OK && gpu) {
            s = f->upload(ctx, layout, &dev);
            if (s == SPIRA_OK) s = spira_context_synchronize(ctx);
        }
        if (s != SPIRA_OK) {
            if (dev) f->destroy_dev(ctx, dev);
            if (layout && f->destroy_layout) f->destroy_layout(layout);
            return s;
        }
        *p = (spira__gf2_plan){f, layout, dev, spira__now_ms() - t0};
    }
    *plan = p;
    return SPIRA_OK;
}

spira_status spira_gf2_matrix_prepare(spira_gf2_matrix M, int width, double *setup_ms)
{
    if (!M) return SPIRA_ERR_INVALID_ARG;
    SPIRA__TRY(spira__gf2_width_check(M->ctx, width));
    spira__gf2_plan *p;
    SPIRA__TRY(spira__gf2_plan_get(M, width / 64, &p));
    if (setup_ms) *setup_ms = p->build_ms;
    return SPIRA_OK;
}

spira_status spira_gf2_spmv(spira_gf2_matrix M, spira_gf2_block X, spira_gf2_block Y)
{
    if (!M || !X || !Y) return SPIRA_ERR_INVALID_ARG;
    spira_context ctx = M->ctx;
    if (X->ctx != ctx || Y->ctx != ctx)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "GF(2) SpMV: blocks of another context");
    if (X == Y || (X->data == Y->data && X->nrows))
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "GF(2) SpMV: Y is X (Y = M X in place)");
    if (X->words != Y->words)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "GF(2) SpMV: X is %d bits wide, Y %d",
                            X->words * 64, Y->words * 64);
    if (X->nrows != M->pattern.ncols || Y->nrows != M->pattern.nrows)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG,
                            "GF(2) SpMV: M is %d x %d, X has %d rows, Y %d", M->pattern.nrows,
                            M->pattern.ncols, X->nrows, Y->nrows);
    spira__gf2_plan *p;
    SPIRA__TRY(spira__gf2_plan_get(M, X->words, &p));
    if (p->dev) return p->fmt->apply(ctx, p->dev, X->words, X->data, Y->data);
    p->fmt->host_apply(p->layout, X->words, X->data, Y->data);
    return SPIRA_OK;
}
