/*
 * cmrs.c - host side of CMRS (see cmrs.h): strips, the packed column words, the column
 * order within a strip, and the CPU reference multiply over that layout.
 */
#include "cmrs.h"

#include <stdlib.h>
#include <string.h>

void spira__cmrs_destroy(void *layout)
{
    spira__cmrs *C = (spira__cmrs *)layout;
    if (!C) return;
    spira__free(C->strip_ptr);
    spira__free(C->packed);
    spira__free(C->val);
    spira__free(C);
}

/* an entry of a strip being sorted: its packed word and where its value is in A */
typedef struct {
    uint32_t word;
    int32_t at;
} strip_entry;

/* by column, then row within the strip: the packed word's order (words are unique, since
 * A has no repeated (row, column)) */
static int by_word(const void *a, const void *b)
{
    uint32_t x = ((const strip_entry *)a)->word, y = ((const strip_entry *)b)->word;
    return x < y ? -1 : x > y;
}

static void fill(const spira__csr *A, spira__cmrs *C, strip_entry *tmp)
{
    const size_t es = spira_dtype_size(A->dtype);
    for (int32_t s = 0; s < C->nstrips; s++) {
        const int64_t first = (int64_t)s * C->height;
        const int64_t last = first + C->height < A->nrows ? first + C->height : A->nrows;
        const int32_t b = C->strip_ptr[s];
        int32_t n = 0;
        for (int64_t i = first; i < last; i++)
            for (int32_t k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++)
                tmp[n++] = (strip_entry){(uint32_t)A->col_idx[k] << SPIRA__CMRS_BITS |
                                             (uint32_t)(i - first),
                                         k};
        if (C->height > 1) qsort(tmp, (size_t)n, sizeof *tmp, by_word);
        for (int32_t t = 0; t < n; t++) {
            C->packed[b + t] = tmp[t].word;
            memcpy((char *)C->val + (size_t)(b + t) * es, (const char *)A->val + (size_t)tmp[t].at * es,
                   es);
        }
    }
}

spira_status spira__cmrs_convert(spira_context ctx, const spira__csr *A, const char *opts,
                                 void **layout)
{
    *layout = NULL;
    long height;
    SPIRA__TRY(spira__opt_long(ctx, opts, "height", A->dtype == SPIRA_R64 ? 4 : 8, &height));
    if (height < 1 || height > 16 || (height & (height - 1)))
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG,
                            "cmrs option height=%ld: 1, 2, 4, 8 or 16", height);
    if (A->ncols > SPIRA__CMRS_MAX_COLS)
        return spira__error(ctx, SPIRA_ERR_UNSUPPORTED,
                            "cmrs: %d columns do not fit the %d bits beside the row within the "
                            "strip (at most %d)",
                            A->ncols, 32 - SPIRA__CMRS_BITS, SPIRA__CMRS_MAX_COLS);
    spira__cmrs *C = spira__calloc(1, sizeof *C);
    if (!C) return spira__nomem(ctx, "CMRS layout", sizeof *C);
    C->nrows = A->nrows;
    C->ncols = A->ncols;
    C->nnz = A->nnz;
    C->height = (int32_t)height;
    C->nstrips = (int32_t)(((int64_t)A->nrows + height - 1) / height);
    C->dtype = A->dtype;
    strip_entry *tmp = NULL;
    spira_status s = spira__alloc(ctx, (void **)&C->strip_ptr, (size_t)C->nstrips + 1,
                                  sizeof(int32_t), "CMRS strip pointers");
    if (s == SPIRA_OK)
        s = spira__alloc(ctx, (void **)&C->packed, (size_t)A->nnz, sizeof(uint32_t),
                         "CMRS column words");
    if (s == SPIRA_OK)
        s = spira__alloc(ctx, &C->val, (size_t)A->nnz, spira_dtype_size(A->dtype), "CMRS values");
    int32_t longest = 0;
    if (s == SPIRA_OK) {
        for (int32_t k = 0; k < C->nstrips; k++) {
            C->strip_ptr[k] = A->row_ptr[k * height];
            int64_t end = (k + 1) * height < A->nrows ? A->row_ptr[(k + 1) * height] : A->nnz;
            if (end - C->strip_ptr[k] > longest) longest = (int32_t)(end - C->strip_ptr[k]);
        }
        C->strip_ptr[C->nstrips] = A->nnz;
        s = spira__alloc(ctx, (void **)&tmp, (size_t)longest, sizeof *tmp, "CMRS strip sort");
    }
    if (s != SPIRA_OK) {
        spira__cmrs_destroy(C);
        return s;
    }
    fill(A, C, tmp);
    spira__free(tmp);
    *layout = C;
    return SPIRA_OK;
}

/* Each strip's row sums in order of its entries, then y for its rows. */
#define SPIRA__CMRS_BODY(T)                                                              \
    do {                                                                                 \
        const T *v = (const T *)C->val, *xx = (const T *)x;                              \
        T *yy = (T *)y;                                                                  \
        for (int32_t s = 0; s < C->nstrips; s++) {                                       \
            T sum[16] = {0};                                                             \
            for (int32_t k = C->strip_ptr[s]; k < C->strip_ptr[s + 1]; k++) {            \
                const uint32_t w = C->packed[k];                                         \
                sum[w & ((1u << SPIRA__CMRS_BITS) - 1)] += v[k] * xx[w >> SPIRA__CMRS_BITS]; \
            }                                                                            \
            for (int32_t r = 0; r < C->height && (int64_t)s * C->height + r < C->nrows; r++) { \
                const int64_t i = (int64_t)s * C->height + r;                            \
                yy[i] = beta == 0 ? (T)(alpha * sum[r]) : (T)(alpha * sum[r] + beta * yy[i]); \
            }                                                                            \
        }                                                                                \
    } while (0)

void spira__cmrs_host_apply(const void *layout, double alpha, const void *x, double beta,
                            void *y)
{
    const spira__cmrs *C = (const spira__cmrs *)layout;
    if (C->dtype == SPIRA_R64) SPIRA__CMRS_BODY(double);
    else SPIRA__CMRS_BODY(float);
}

size_t spira__cmrs_bytes(const void *layout)
{
    const spira__cmrs *C = (const spira__cmrs *)layout;
    return ((size_t)C->nstrips + 1) * sizeof(int32_t) +
           (size_t)C->nnz * (sizeof(uint32_t) + spira_dtype_size(C->dtype));
}
