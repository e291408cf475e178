/*
 * cmrs.c - host side of CMRS (see cmrs.h): strips, the packed column words, and the CPU
 * reference multiply over that layout.
 */
#include "cmrs.h"

static void cmrs_destroy(void *layout)
{
    spira__cmrs *C = (spira__cmrs *)layout;
    if (!C) return;
    spira__free(C->strip_ptr);
    spira__free(C->packed);
    spira__free(C);
}

/* Each entry's column word: its column and its row's place in the strip. */
static void fill(const spira__csr *A, spira__cmrs *C)
{
    for (int32_t i = 0; i < A->nrows; i++)
        for (int32_t k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++)
            C->packed[k] = (uint32_t)A->col_idx[k] << SPIRA__CMRS_BITS | (uint32_t)(i % C->height);
}

spira_status spira__cmrs_height(spira_context ctx, const spira__csr *A, const char *opts,
                                int32_t *height)
{
    long h;
    SPIRA__TRY(spira__opt_long(ctx, opts, "height", A->dtype == SPIRA_R64 ? 4 : 8, &h));
    if (h < 1 || h > 16 || (h & (h - 1)))
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG,
                            "cmrs option height=%ld: 1, 2, 4, 8 or 16", h);
    if (A->ncols > SPIRA__CMRS_MAX_COLS)
        return spira__error(ctx, SPIRA_ERR_UNSUPPORTED,
                            "cmrs: %d columns do not fit the %d bits beside the row within the "
                            "strip (at most %d)",
                            A->ncols, 32 - SPIRA__CMRS_BITS, SPIRA__CMRS_MAX_COLS);
    *height = (int32_t)h;
    return SPIRA_OK;
}

size_t spira__cmrs_bytes_of(int32_t nstrips, int32_t nnz, spira_dtype t)
{
    return ((size_t)nstrips + 1) * sizeof(int32_t) +
           (size_t)nnz * (sizeof(uint32_t) + spira_dtype_size(t));
}

static spira_status cmrs_convert(spira_context ctx, const spira__csr *A, const char *opts,
                                 void **layout)
{
    *layout = NULL;
    int32_t height;
    SPIRA__TRY(spira__cmrs_height(ctx, A, opts, &height));
    spira__cmrs *C = spira__calloc(1, sizeof *C);
    if (!C) return spira__nomem(ctx, "CMRS layout", sizeof *C);
    C->nrows = A->nrows;
    C->ncols = A->ncols;
    C->nnz = A->nnz;
    C->height = height;
    C->nstrips = (int32_t)(((int64_t)A->nrows + height - 1) / height);
    C->dtype = A->dtype;
    C->csr = A;
    C->val = A->val;
    spira_status s = spira__alloc(ctx, (void **)&C->strip_ptr, (size_t)C->nstrips + 1,
                                  sizeof(int32_t), "CMRS strip pointers");
    if (s == SPIRA_OK)
        s = spira__alloc(ctx, (void **)&C->packed, (size_t)A->nnz, sizeof(uint32_t),
                         "CMRS column words");
    if (s != SPIRA_OK) {
        cmrs_destroy(C);
        return s;
    }
    for (int32_t k = 0; k < C->nstrips; k++) C->strip_ptr[k] = A->row_ptr[(int64_t)k * height];
    C->strip_ptr[C->nstrips] = A->nnz;
    fill(A, C);
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

static void cmrs_apply(const void *layout, double alpha, const void *x, double beta,
                       void *y)
{
    const spira__cmrs *C = (const spira__cmrs *)layout;
    if (C->dtype == SPIRA_R64) SPIRA__CMRS_BODY(double);
    else SPIRA__CMRS_BODY(float);
}

static size_t cmrs_bytes(const void *layout)
{
    const spira__cmrs *C = (const spira__cmrs *)layout;
    return spira__cmrs_bytes_of(C->nstrips, C->nnz, C->dtype);
}

extern const spira__format_gpu spira__cmrs_gpu;

const spira__format spira__cmrs_format = {
    .name = "cmrs",
    .description = "compressed multi-row storage: strips of height = 1..16 rows (a power of two; "
                   "default 4 double, 8 float), a warp per strip, the row within the strip in "
                   "the column word's low 4 bits, per-lane row sums in shared memory (Koza et "
                   "al. 2014); deterministic",
    .options = "height",
    .convert = cmrs_convert,
    .apply = cmrs_apply,
    .bytes = cmrs_bytes,
    .destroy = cmrs_destroy,
    .gpu = SPIRA__GPU(&spira__cmrs_gpu),
};
