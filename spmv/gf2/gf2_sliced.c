/*
 * gf2_sliced.c - host side of the sliced COO format over GF(2) (see gf2.h): the slices,
 * each slice's entries in column order, and the CPU reference over that layout. The same
 * builder and multiply make the combined format's bands (gf2_parts.h): the entries of a
 * subset of the columns, over rows the caller ordered.
 */
#include "gf2_parts.h"

#include <string.h>

/* shared-memory copies of a row by share (a csr band keeps none: 1 for the arithmetic) */
static const int32_t copies[] = {SPIRA__GF2_THREADS, 32, 1, 1};

int32_t spira__gf2_sliced_fit(int share, int words)
{
    if (share == SPIRA__GF2_BAND_CSR) return 1;
    return SPIRA__GF2_SHARED_WORDS / (copies[share] * words);
}

void spira__gf2_sliced_free(spira__gf2_sliced *L)
{
    spira__free(L->slice_ptr);
    spira__free(L->col);
    spira__free(L->row);
    L->slice_ptr = NULL, L->col = NULL, L->row = NULL;
}

static void gf2_sliced_destroy(void *layout)
{
    spira__gf2_sliced *L = (spira__gf2_sliced *)layout;
    if (!L) return;
    spira__gf2_sliced_free(L);
    spira__free(L);
}

size_t spira__gf2_sliced_bytes(const spira__gf2_sliced *L)
{
    return ((size_t)L->nslices + 1) * sizeof(int32_t) +
           (size_t)L->nnz * (sizeof(int32_t) + sizeof(uint16_t));
}

static int kept(const uint8_t *band, int which, int32_t j)
{
    return !band || band[j] == which;
}

/* The entries slice by slice, each slice in column order (then row): walk P by columns
 * (its transpose PT, whose rows list each column's rows ascending) and append every kept
 * entry to its slice. */
static spira_status fill(spira_context ctx, const spira__csr *PT, const uint8_t *band, int which,
                         spira__gf2_sliced *L)
{
    int32_t *cursor = NULL;
    SPIRA__TRY(spira__alloc(ctx, (void **)&cursor, (size_t)L->nslices + 1, sizeof(int32_t),
                            "sliced COO cursors"));
    memcpy(cursor, L->slice_ptr, ((size_t)L->nslices + 1) * sizeof(int32_t));
    for (int32_t j = 0; j < PT->nrows; j++) {
        if (!kept(band, which, j)) continue;
        for (int32_t k = PT->row_ptr[j]; k < PT->row_ptr[j + 1]; k++) {
            const int32_t i = PT->col_idx[k], sl = i / L->rows, at = cursor[sl]++;
            L->col[at] = j;
            L->row[at] = (uint16_t)(i - sl * L->rows);
        }
    }
    spira__free(cursor);
    return SPIRA_OK;
}

spira_status spira__gf2_sliced_build(spira_context ctx, const spira__gf2_pattern *P,
                                     const spira__csr *PT, const uint8_t *band, int which,
                                     int words, int share, int32_t rows, spira__gf2_sliced *L)
{
    memset(L, 0, sizeof *L);
    L->nrows = P->nrows;
    L->ncols = P->ncols;
    L->rows = rows;
    L->nslices = (int32_t)(((int64_t)P->nrows + rows - 1) / rows);
    L->words = words;
    L->share = share;
    L->copies = copies[share];
    spira_status s = spira__alloc(ctx, (void **)&L->slice_ptr, (size_t)L->nslices + 1,
                                  sizeof(int32_t), "sliced COO slice pointers");
    if (s != SPIRA_OK) return s;
    /* slice_ptr: the kept entries of the slices before each */
    int32_t n = 0;
    for (int32_t sl = 0; sl < L->nslices; sl++) {
        L->slice_ptr[sl] = n;
        const int64_t end = (int64_t)(sl + 1) * rows < P->nrows ? (int64_t)(sl + 1) * rows : P->nrows;
        if (!band) {
            n = P->row_ptr[end];
            continue;
        }
        for (int64_t k = P->row_ptr[(int64_t)sl * rows]; k < P->row_ptr[end]; k++)
            n += band[P->col_idx[k]] == which;
    }
    L->slice_ptr[L->nslices] = n;
    L->nnz = n;
    s = spira__alloc(ctx, (void **)&L->col, (size_t)n, sizeof(int32_t), "sliced COO columns");
    if (s == SPIRA_OK)
        s = spira__alloc(ctx, (void **)&L->row, (size_t)n, sizeof(uint16_t), "sliced COO rows");
    if (s == SPIRA_OK) s = fill(ctx, PT, band, which, L);
    if (s != SPIRA_OK) spira__gf2_sliced_free(L);
    return s;
}

void spira__gf2_sliced_accumulate(const spira__gf2_sliced *L, const int32_t *perm,
                                  const uint64_t *x, uint64_t *y)
{
    const int words = L->words;
    /* each slice's rows are its own (perm is one-to-one): slices run in parallel */
#pragma omp parallel for schedule(static) if (L->nnz > 50000)
    for (int32_t sl = 0; sl < L->nslices; sl++) {
        const int64_t first = (int64_t)sl * L->rows;
        for (int32_t k = L->slice_ptr[sl]; k < L->slice_ptr[sl + 1]; k++) {
            const int64_t i = first + L->row[k];
            uint64_t *yr = y + (size_t)(perm ? perm[i] : i) * words;
            for (int q = 0; q < words; q++) yr[q] ^= x[(size_t)L->col[k] * words + q];
        }
    }
}

spira_status spira__gf2_sliced_options(spira_context ctx, const char *opts, int *words,
                                       int *share, long *rows)
{
    SPIRA__TRY(spira__gf2_opt_words(ctx, opts, words));
    static const char *const shares[] = {"thread", "warp", "block", NULL};
    SPIRA__TRY(spira__opt_word(ctx, opts, "share", shares, SPIRA__GF2_SHARE_WARP, share));
    const long fit = spira__gf2_sliced_fit(*share, *words);
    SPIRA__TRY(spira__opt_long(ctx, opts, "rows", fit, rows));
    if (*rows < 1 || *rows > fit)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG,
                            "sliced-coo option rows=%ld: 1 to %ld with share=%s at %d bits "
                            "(48 KiB of shared memory a block)",
                            *rows, fit, shares[*share], 64 * *words);
    return SPIRA_OK;
}

static spira_status gf2_sliced_convert(spira_context ctx, const spira__csr *A, const char *opts,
                                       void **layout)
{
    *layout = NULL;
    int words, share;
    long rows;
    SPIRA__TRY(spira__gf2_sliced_options(ctx, opts, &words, &share, &rows));
    spira__gf2_sliced *L = spira__calloc(1, sizeof *L);
    if (!L) return spira__nomem(ctx, "sliced COO layout", sizeof *L);
    spira__csr AT;
    spira_status s = spira__csr_transpose(ctx, A, &AT);
    if (s == SPIRA_OK) {
        s = spira__gf2_sliced_build(ctx, A, &AT, NULL, 0, words, share, (int32_t)rows, L);
        spira__csr_free(&AT);
    }
    if (s != SPIRA_OK) {
        spira__free(L);
        return s;
    }
    *layout = L;
    return SPIRA_OK;
}

/* Y = M X: alpha 1, beta 0 (gf2.h) */
static void gf2_sliced_apply(const void *layout, double alpha, const void *vx, double beta,
                             void *vy)
{
    (void)alpha, (void)beta;
    const spira__gf2_sliced *L = (const spira__gf2_sliced *)layout;
    memset(vy, 0, (size_t)L->nrows * L->words * sizeof(uint64_t));
    spira__gf2_sliced_accumulate(L, NULL, (const uint64_t *)vx, (uint64_t *)vy);
}

static size_t gf2_sliced_bytes(const void *layout)
{
    return spira__gf2_sliced_bytes((const spira__gf2_sliced *)layout);
}

extern const spira__format_gpu spira__gf2_sliced_gpu;

const spira__format spira__gf2_sliced_format = {
    .name = "sliced-coo",
    .description = "sliced COO (Schmidt, Aribowo, Dang): slices of rows whose entries are in "
                   "column order, a block a slice XORing into its rows in shared memory; "
                   "share=thread|warp|block (the SS, MS and LS sub-formats; default warp), "
                   "rows=R a slice",
    .options = "share rows",
    .convert = gf2_sliced_convert,
    .apply = gf2_sliced_apply,
    .bytes = gf2_sliced_bytes,
    .destroy = gf2_sliced_destroy,
    .gpu = SPIRA__GPU(&spira__gf2_sliced_gpu),
};
