/*
 * gf2.c - SpMV over GF(2) (see gf2.h): the matrix (a pattern whose entries are the parity
 * of their count), the registry of GF(2) formats and the plans (one per block width, built
 * by spmv.c's plan machinery). The multiply, over the matrix's device parts, is
 * gf2_devices.c's.
 */
#include "gf2_parts.h"
#include "device.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- the registry ---------------------------------------------------------------------- */

#define FORMATS(X) \
    X(csr)         \
    X(sliced)      \
    X(dense)       \
    X(combined)

#define DECLARE(x) extern const spira__format spira__gf2_##x##_format;
FORMATS(DECLARE)
#define POINTER(x) &spira__gf2_##x##_format,
static const spira__format *const formats[] = {FORMATS(POINTER)};
enum { NFORMATS = sizeof formats / sizeof formats[0] };

static spira_status format_get(spira_context ctx, const char *name, const spira__format **f)
{
    return spira__format_in(ctx, "GF(2)", formats, NFORMATS, NULL, name, f);
}

const spira__format *spira__gf2_format_find(const char *name)
{
    for (int i = 0; i < NFORMATS; i++)
        if (!strcmp(formats[i]->name, name)) return formats[i];
    return NULL;
}

int spira_gf2_format_count(void)
{
    return NFORMATS;
}

const char *spira_gf2_format_options(int i)
{
    if (i < 0 || i >= NFORMATS) return NULL;
    return formats[i]->options ? formats[i]->options : "";
}

spira_status spira_gf2_format_describe(int i, const char **name, const char **description)
{
    if (i < 0 || i >= NFORMATS) return SPIRA_ERR_INVALID_ARG;
    if (name) *name = formats[i]->name;
    if (description) *description = formats[i]->description;
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

spira_status spira_gf2_matrix_get_pattern(spira_gf2_matrix M, int32_t *row_ptr, int32_t *col_idx)
{
    if (!M) return SPIRA_ERR_INVALID_ARG;
    const spira__gf2_pattern *P = &M->pattern;
    if (row_ptr) memcpy(row_ptr, P->row_ptr, ((size_t)P->nrows + 1) * sizeof *row_ptr);
    if (col_idx) memcpy(col_idx, P->col_idx, (size_t)P->nnz * sizeof *col_idx);
    return SPIRA_OK;
}

void spira__gf2_plans_drop(spira_gf2_matrix M)
{
    for (int w = 0; w < 3; w++) {
        spira__plan_destroy(M->plan[w]);
        M->plan[w] = NULL;
    }
}

/* The pattern's device copy goes with the plans that were built from it. */
static void pattern_dev_drop(spira_gf2_matrix M)
{
    if (M->pattern_dev)
        spira__dev_destroy(M->ctx, SPIRA__GPU(&spira__gf2_pattern_gpu), M->pattern_dev);
    M->pattern_dev = NULL;
}

/* *dP = M's pattern on the device when a plan of f is to be converted there: f converts on
 * the GPU, and the context is CUDA's and does not convert on the host; NULL otherwise. */
static spira_status pattern_dev_get(spira_gf2_matrix M, const spira__format *f,
                                    const spira__csr_dev **dP)
{
    *dP = NULL;
    spira_context ctx = M->ctx;
    if (ctx->backend != SPIRA_BACKEND_CUDA || ctx->host_convert || !f->gpu || !f->gpu->build)
        return SPIRA_OK;
    if (!M->pattern_dev) {
        const double t0 = spira__now_ms();
        spira_status s = spira__dev_create(ctx, SPIRA__GPU(&spira__gf2_pattern_gpu), "GF(2) pattern",
                                           &M->pattern, NULL, NULL, &M->pattern_dev);
        if (s == SPIRA_OK) s = spira_context_synchronize(ctx);
        if (s != SPIRA_OK) {
            pattern_dev_drop(M);
            return s;
        }
        M->pattern_upload_ms = spira__now_ms() - t0;
    }
    *dP = (const spira__csr_dev *)M->pattern_dev;
    return SPIRA_OK;
}

void spira__gf2_device_drop(spira_gf2_matrix M)
{
    spira__gf2_plans_drop(M);
    pattern_dev_drop(M);
}

void spira_gf2_matrix_destroy(spira_gf2_matrix M)
{
    if (!M) return;
    if (M->parts_free) M->parts_free(M);
    spira__gf2_plans_drop(M);
    pattern_dev_drop(M);
    spira__csr_free(&M->pattern);
    spira__free(M);
}

spira_status spira_gf2_matrix_set_format(spira_gf2_matrix M, const char *name,
                                         const char *options)
{
    if (!M || !name) return SPIRA_ERR_INVALID_ARG;
    const spira__format *f;
    SPIRA__TRY(format_get(M->ctx, name, &f));
    SPIRA__TRY(spira__check_options(M->ctx, f->name, f->options, options, sizeof M->format_opts));
    if (M->parts_free) M->parts_free(M); /* made again in the new format on next use */
    spira__gf2_plans_drop(M);
    /* name or options may be M's own strings */
    memmove(M->format_opts, options ? options : "", strlen(options ? options : "") + 1);
    memmove(M->format, f->name, strlen(f->name) + 1);
    return SPIRA_OK;
}

spira_status spira__gf2_opt_words(spira_context ctx, const char *opts, int *words)
{
    long w;
    SPIRA__TRY(spira__opt_long(ctx, opts, "words", 1, &w));
    if (w != 1 && w != 2 && w != 4)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "GF(2) plan: %ld words a row (1, 2 or 4)",
                            w);
    *words = (int)w;
    return SPIRA_OK;
}

spira_status spira__gf2_plan_get(spira_gf2_matrix M, int words, spira__gf2_plan **plan)
{
    spira__gf2_plan **p = &M->plan[words == 1 ? 0 : words == 2 ? 1 : 2];
    if (!*p) {
        const spira__format *f;
        SPIRA__TRY(format_get(M->ctx, M->format, &f));
        /* the width goes to convert as the option words (gf2.h) */
        char opts[sizeof M->format_opts + 16];
        snprintf(opts, sizeof opts, "%s%swords=%d", M->format_opts, M->format_opts[0] ? "," : "",
                 words);
        const spira__csr_dev *dP;
        SPIRA__TRY(pattern_dev_get(M, f, &dP));
        SPIRA__TRY(spira__plan_build(M->ctx, "GF(2)", f, &M->pattern, dP, opts, p));
        (*p)->upload_ms += M->pattern_upload_ms; /* the first plan that needed it paid it */
        M->pattern_upload_ms = 0;
    }
    *plan = *p;
    return SPIRA_OK;
}
