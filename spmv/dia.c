/*
 * dia.c - host side of the dia format: finding the occupied diagonals, the fill-limit
 * refusal, conversion into the diagonal-major padded array, and the CPU reference multiply.
 */
#include "dia.h"
#include "padding.h"

#include <string.h>

static void dia_destroy(void *layout)
{
    spira__dia *d = (spira__dia *)layout;
    if (!d) return;
    spira__free(d->offsets);
    spira__free(d->data);
    spira__free(d);
}

spira_status spira__dia_check(spira_context ctx, int32_t nrows, int32_t nnz, int64_t ndiag,
                              long max_fill, int64_t *pitch)
{
    *pitch = spira__pitch(nrows);
    SPIRA__TRY(spira__check_fill(ctx, "dia", "occupied diagonals", ndiag, nrows, nnz, max_fill));
    return spira__check_slots(ctx, "dia", "occupied diagonals", ndiag, *pitch);
}

/* Option max_fill=N (default 3): refuse when ndiag * nrows > N * nnz. Conversion uses a
 * temporary map of nrows + ncols - 1 int32 (one per possible diagonal), as CUSP does. */
static spira_status dia_convert(spira_context ctx, const spira__csr *A, const char *opts,
                                void **layout)
{
    *layout = NULL;
    long max_fill;
    SPIRA__TRY(spira__opt_max_fill(ctx, opts, "dia", &max_fill));
    int32_t *map = NULL; /* diagonal j - i + nrows - 1 -> its index in offsets, or -1 */
    int64_t ndiag = 0, span = A->nnz ? (int64_t)A->nrows + A->ncols - 1 : 0;
    spira__dia *d = NULL;
    spira_status s = spira__alloc(ctx, (void **)&map, (size_t)span, sizeof(int32_t),
                                  "DIA diagonal map");
    if (s != SPIRA_OK) return s;
    memset(map, 0xff, (size_t)span * sizeof(int32_t));
    for (int32_t i = 0; i < A->nrows; i++)
        for (int32_t k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++) {
            int64_t at = (int64_t)A->col_idx[k] - i + A->nrows - 1;
            if (map[at] < 0) map[at] = 0, ndiag++;
        }
    int64_t pitch;
    s = spira__dia_check(ctx, A->nrows, A->nnz, ndiag, max_fill, &pitch);
    if (s == SPIRA_OK && !(d = spira__calloc(1, sizeof *d)))
        s = spira__nomem(ctx, "DIA layout", sizeof *d);
    size_t es = spira_dtype_size(A->dtype);
    if (s == SPIRA_OK) {
        d->nrows = A->nrows;
        d->ncols = A->ncols;
        d->ndiag = (int32_t)ndiag;
        d->pitch = ndiag ? (int32_t)pitch : A->nrows;
        d->dtype = A->dtype;
        s = spira__alloc(ctx, (void **)&d->offsets, (size_t)ndiag, sizeof(int32_t),
                         "DIA offsets");
    }
    if (s == SPIRA_OK) s = spira__alloc(ctx, &d->data, (size_t)ndiag * (size_t)d->pitch, es, "DIA data");
    if (s != SPIRA_OK) {
        spira__free(map);
        dia_destroy(d);
        return s;
    }
    memset(d->data, 0, (size_t)ndiag * (size_t)d->pitch * es);
    /* number the diagonals in ascending offset order */
    int32_t n = 0;
    for (int64_t at = 0; at < span; at++)
        if (map[at] >= 0) {
            map[at] = n;
            d->offsets[n++] = (int32_t)(at - (A->nrows - 1));
        }
    for (int32_t i = 0; i < A->nrows; i++)
        for (int32_t k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++) {
            size_t slot = (size_t)map[(int64_t)A->col_idx[k] - i + A->nrows - 1] * (size_t)d->pitch + (size_t)i;
            memcpy((char *)d->data + slot * es, (const char *)A->val + (size_t)k * es, es);
        }
    spira__free(map);
    *layout = d;
    return SPIRA_OK;
}

#define SPIRA__DIA_BODY(T)                                                               \
    do {                                                                                 \
        const T *v = (const T *)d->data, *xx = (const T *)x;                             \
        T *yy = (T *)y;                                                                  \
        for (int32_t i = 0; i < d->nrows; i++) {                                         \
            T sum = 0;                                                                   \
            for (int32_t k = 0; k < d->ndiag; k++) {                                     \
                int64_t j = (int64_t)i + d->offsets[k];                                  \
                if (j >= 0 && j < d->ncols)                                              \
                    sum += v[(size_t)k * (size_t)d->pitch + (size_t)i] * xx[j];          \
            }                                                                            \
            yy[i] = beta == 0 ? (T)(alpha * sum) : (T)(alpha * sum + beta * yy[i]);      \
        }                                                                                \
    } while (0)

static void dia_apply(const void *layout, double alpha, const void *x, double beta, void *y)
{
    const spira__dia *d = (const spira__dia *)layout;
    if (d->dtype == SPIRA_R64) SPIRA__DIA_BODY(double);
    else SPIRA__DIA_BODY(float);
}

static size_t dia_bytes(const void *layout)
{
    const spira__dia *d = (const spira__dia *)layout;
    return (size_t)d->ndiag * sizeof(int32_t) +
           (size_t)d->ndiag * (size_t)d->pitch * spira_dtype_size(d->dtype);
}

extern const spira__format_gpu spira__dia_gpu;

const spira__format spira__dia_format = {
    .name = "dia",
    .description = "DIA, occupied diagonals stored column-major, a thread per row; refuses "
                   "beyond max_fill (default 3) slots per nonzero (Bell & Garland 2008)",
    .options = "max_fill",
    .convert = dia_convert,
    .apply = dia_apply,
    .bytes = dia_bytes,
    .destroy = dia_destroy,
    .gpu = SPIRA__GPU(&spira__dia_gpu),
};
