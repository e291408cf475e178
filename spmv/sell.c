/*
 * sell.c - host side of the sell format, SELL-C-sigma (Kreutzer, Hager, Wellein, Fehske,
 * Bishop, SIAM J. Sci. Comput. 2014; layout in sell.h): the sort within windows of sigma
 * rows, the slices of C = 32 rows padded to their longest row, the padding ratio, and the
 * CPU reference multiply over the slices. The kernel is in sell_gpu.cu.
 *
 * The default sigma: 65536 rows, the whole matrix in one window up to that size, in a matrix
 * of up to SPIRA__SELL_SIGMA_ROWS rows; 1024 in a larger one. Before the long rows were kept
 * apart, windows of 1024 or 4096 rows left power-law and R-MAT matrices several times the
 * nonzeros in slots (bench/sell-padding.py; bench/results/2026-11-24-sell-padding/); with
 * them apart, 1024 leaves R-MAT 2^20 1.12 slots a nonzero and the circuit and kNN matrices
 * 1.01-1.03, and its multiply is faster than with 65536 on an H200 (R-MAT 3%, kNN 2%,
 * power-law 2%, the circuit matrix 0.5%; the Laplacians and uniform rows even): a slice's
 * rows, and so its gathers of x near the diagonal and its writes of y, come from 1024 rows,
 * not 65536. In a matrix of a few tens of thousands of rows one window is better
 * (p2p-Gnutella31, 62,586 rows: 17% slower with 1024; bench/results/2026-11-28-session27).
 * A few dense rows among short ones (a circuit matrix) would pad their slices to their
 * length in every window: rows over SPIRA__SELL_LONG entries are kept apart, row after row
 * (sell.h).
 */
#include "sell.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int key_order(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* perm: each window of sigma rows sorted by length, longest first, equal lengths in row
 * order (keys: the length's complement above the row), the long rows (longer than
 * SPIRA__SELL_LONG, with sigma > 1) taken out of their windows and sorted the same way after
 * all of them. keys is nrows scratch. Returns the long rows' count. */
static int32_t sell_sort(const spira__csr *A, int32_t sigma, uint64_t *keys, int32_t *perm)
{
    const int32_t long_min = SPIRA__SELL_LONG;
    const int32_t n = A->nrows;
    int32_t nlong = 0;
    if (sigma > 1)
        for (int32_t i = 0; i < n; i++) nlong += A->row_ptr[i + 1] - A->row_ptr[i] > long_min;
    int32_t at = 0, at_long = n - nlong;
    for (int32_t w = 0; w < n; w += sigma) {
        const int32_t end = n - w < sigma ? n : w + sigma, first = at;
        for (int32_t i = w; i < end; i++) {
            uint32_t len = (uint32_t)(A->row_ptr[i + 1] - A->row_ptr[i]);
            uint64_t key = (uint64_t)(UINT32_MAX - len) << 32 | (uint32_t)i;
            if (nlong && len > (uint32_t)long_min) keys[at_long++] = key;
            else keys[at++] = key;
        }
        if (sigma > 1) qsort(keys + first, (size_t)(at - first), sizeof *keys, key_order);
    }
    qsort(keys + at, (size_t)nlong, sizeof *keys, key_order);
    for (int32_t i = 0; i < n; i++) perm[i] = (int32_t)(keys[i] & UINT32_MAX);
    return nlong;
}

static void sell_destroy(void *layout)
{
    spira__sell *S = (spira__sell *)layout;
    if (!S) return;
    spira__free(S->slice_ptr);
    spira__free(S->perm);
    spira__free(S->long_ptr);
    spira__free(S->cols);
    spira__free(S->vals);
    spira__free(S->hubs);
    spira__free(S);
}

spira_status spira__sell_opts(spira_context ctx, const char *opts, int32_t nrows,
                              int32_t *sigma, int *unit_ok, int *hubs_ok)
{
    const int32_t C = SPIRA__SELL_C;
    const long fallback =
        nrows > SPIRA__SELL_SIGMA_ROWS ? SPIRA__SELL_SIGMA_LARGE : SPIRA__SELL_SIGMA_SMALL;
    long v;
    SPIRA__TRY(spira__opt_long(ctx, opts, "sigma", fallback, &v));
    if (v != 1 && (v < C || v % C || v > INT32_MAX - C))
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG,
                            "sell option sigma=%ld: 1 (no sorting) or a positive multiple of "
                            "%d (the rows a sorting window holds)",
                            v, C);
    *sigma = (int32_t)v;
    SPIRA__TRY(spira__opt_long(ctx, opts, "unit", 1, &v));
    if (v != 0 && v != 1)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG,
                            "sell option unit=%ld: 1 (values all 1 not stored) or 0 (stored)", v);
    *unit_ok = (int)v;
    SPIRA__TRY(spira__opt_long(ctx, opts, "hubs", 1, &v));
    if (v != 0 && v != 1)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG,
                            "sell option hubs=%ld: 1 (hub columns renumbered) or 0 (not)", v);
    *hubs_ok = (int)v;
    return SPIRA_OK;
}

int64_t spira__sell_hub_min(int32_t ncols, int64_t nnz)
{
    if (ncols <= 0) return 2;
    const int64_t m = (SPIRA__SELL_HUB_FACTOR * nnz + ncols - 1) / ncols;
    return m < 2 ? 2 : m;
}

int spira__sell_hubs_used(int64_t nhubs, int64_t hub_entries, int64_t nnz, int32_t ncols)
{
    return nhubs >= SPIRA__SELL_HUBS_MIN && 2 * hub_entries >= nnz &&
           nhubs <= (int64_t)INT32_MAX - ncols; /* ncols + k stays an int32 */
}

int spira__sell_hubs_possible(int32_t ncols, int64_t nnz)
{
    return nnz > 0 && ncols >= SPIRA__SELL_HUBS_MIN &&
           SPIRA__SELL_HUBS_MIN * spira__sell_hub_min(ncols, nnz) <= nnz;
}

/* *count = A's entries a column (ncols, allocated: the caller frees it), and the hub
 * columns' number and entries (those of at least min entries). */
static spira_status hub_totals(spira_context ctx, const spira__csr *A, int64_t min,
                               int32_t **count, int64_t *nhubs, int64_t *entries)
{
    SPIRA__TRY(spira__alloc(ctx, (void **)count, (size_t)A->ncols, sizeof **count,
                            "SELL column counts"));
    memset(*count, 0, (size_t)A->ncols * sizeof **count);
    for (int32_t k = 0; k < A->nnz; k++) (*count)[A->col_idx[k]]++;
    *nhubs = *entries = 0;
    for (int32_t c = 0; c < A->ncols; c++)
        if ((*count)[c] >= min) ++*nhubs, *entries += (*count)[c];
    return SPIRA_OK;
}

spira_status spira__sell_hubs_of(spira_context ctx, const spira__csr *A, int32_t *used)
{
    *used = 0;
    if (!spira__sell_hubs_possible(A->ncols, A->nnz)) return SPIRA_OK;
    int32_t *count = NULL;
    int64_t nhubs, entries;
    SPIRA__TRY(hub_totals(ctx, A, spira__sell_hub_min(A->ncols, A->nnz), &count, &nhubs,
                          &entries));
    spira__free(count);
    *used = spira__sell_hubs_used(nhubs, entries, A->nnz, A->ncols);
    return SPIRA_OK;
}

/* Column c as the layout stores it: a hub's ncols + its rank (map: NULL without hubs), else
 * c; sell_gpu.cu's hub_col on the device. */
static int32_t stored_col(const int32_t *map, int32_t ncols, int32_t c)
{
    return map && map[c] >= 0 ? ncols + map[c] : c;
}

/* The hub columns of A (sell.h) into S->hubs and S->nhubs, and *map (ncols: a hub's rank,
 * -1 for another column) for the fill; none (S->nhubs 0, *map NULL) when not used. */
static spira_status sell_hubs(spira_context ctx, const spira__csr *A, spira__sell *S,
                              int32_t **map)
{
    *map = NULL;
    if (!spira__sell_hubs_possible(A->ncols, A->nnz)) return SPIRA_OK;
    int32_t *count = NULL;
    const int64_t min = spira__sell_hub_min(A->ncols, A->nnz);
    int64_t nhubs, entries;
    SPIRA__TRY(hub_totals(ctx, A, min, &count, &nhubs, &entries));
    uint64_t *keys = NULL;
    spira_status s = SPIRA_OK;
    if (spira__sell_hubs_used(nhubs, entries, A->nnz, A->ncols)) {
        s = spira__alloc(ctx, (void **)&keys, (size_t)nhubs, sizeof *keys, "SELL hub keys");
        if (s == SPIRA_OK)
            s = spira__alloc(ctx, (void **)&S->hubs, (size_t)nhubs, sizeof *S->hubs, "SELL hubs");
        if (s == SPIRA_OK)
            s = spira__alloc(ctx, (void **)map, (size_t)A->ncols, sizeof **map, "SELL hub map");
    }
    if (s == SPIRA_OK && keys) {
        int64_t at = 0; /* by decreasing count, ties by column, as the GPU's stable sort */
        for (int32_t c = 0; c < A->ncols; c++)
            if (count[c] >= min) keys[at++] = (uint64_t)(UINT32_MAX - (uint32_t)count[c]) << 32 | (uint32_t)c;
        qsort(keys, (size_t)nhubs, sizeof *keys, key_order);
        for (int32_t c = 0; c < A->ncols; c++) (*map)[c] = -1;
        for (int64_t k = 0; k < nhubs; k++) {
            S->hubs[k] = (int32_t)(keys[k] & UINT32_MAX);
            (*map)[S->hubs[k]] = (int32_t)k;
        }
        S->nhubs = (int32_t)nhubs;
    }
    spira__free(keys);
    spira__free(count);
    if (s != SPIRA_OK) {
        spira__free(*map);
        *map = NULL;
    }
    return s;
}

spira_status spira__sell_refuse(spira_context ctx, int32_t sl, int32_t nslices, int64_t slots)
{
    if (sl >= nslices)
        return spira__error(ctx, SPIRA_ERR_UNSUPPORTED,
                            "sell refuses: its %d slices and its long rows hold %lld entries "
                            "(padding included), beyond the 32-bit index range (%d)",
                            nslices, (long long)slots, INT32_MAX);
    return spira__error(ctx, SPIRA_ERR_UNSUPPORTED,
                        "sell refuses: the first %d of %d slices already hold %lld "
                        "slots (padding included), beyond the 32-bit index range (%d)",
                        sl + 1, nslices, (long long)slots, INT32_MAX);
}

int32_t spira__sell_slice_width(const spira__csr *A, const int32_t *perm, int32_t sliced,
                                int32_t sl)
{
    const int32_t C = SPIRA__SELL_C;
    int32_t width = 0;
    for (int32_t r = sl * C; r < sliced && r < (sl + 1) * C; r++) {
        const int32_t i = perm ? perm[r] : r, len = A->row_ptr[i + 1] - A->row_ptr[i];
        if (len > width) width = len;
    }
    return width;
}

size_t spira__sell_bytes_of(int32_t nrows, int32_t nslices, int32_t nlong, int64_t entries,
                            spira_dtype t, int unit)
{
    const size_t pointers = (size_t)nslices + 1 + (nlong ? (size_t)nlong + 1 : 0);
    return (size_t)entries * (sizeof(int32_t) + (unit ? 0 : spira_dtype_size(t))) +
           (pointers + (size_t)nrows) * sizeof(int32_t);
}

void spira__sell_describe(spira__sell *S, int64_t slots, int64_t long_entries, int32_t longest)
{
    const int32_t C = SPIRA__SELL_C;
    /* what ELL would store: the longest row for every row, rows rounded up to 32 */
    double ell = (double)longest * (double)(((int64_t)S->nrows + C - 1) / C) * C;
    int k;
    if (S->nnz)
        k = snprintf(S->stats, sizeof S->stats,
                     "sigma %d, %d slices of %d rows, padding %.3f slots a nonzero (ELL: %.3f)",
                     S->sigma, S->nslices, C,
                     (double)(slots + long_entries) / S->nnz, ell / S->nnz);
    else
        k = snprintf(S->stats, sizeof S->stats, "sigma %d, %d slices of %d rows, no nonzeros",
                     S->sigma, S->nslices, C);
    if (S->nlong && k > 0 && (size_t)k < sizeof S->stats)
        k += snprintf(S->stats + k, sizeof S->stats - (size_t)k,
                      "; %d long rows apart (%lld entries)", S->nlong, (long long)long_entries);
    if (S->unit && k > 0 && (size_t)k < sizeof S->stats)
        k += snprintf(S->stats + k, sizeof S->stats - (size_t)k, "; values all 1, none stored");
    if (S->nhubs && k > 0 && (size_t)k < sizeof S->stats)
        snprintf(S->stats + k, sizeof S->stats - (size_t)k, "; %d hub columns gathered first",
                 S->nhubs);
}

int32_t spira__sell_entries(const spira__sell *S)
{
    return S->nlong ? S->long_ptr[S->nlong] : S->slice_ptr[S->nslices];
}

/* Options sigma=N: 1 (no sorting: SELL-C-1) or a positive multiple of C; unit=0|1;
 * hubs=0|1. */
static spira_status sell_convert(spira_context ctx, const spira__csr *A, const char *opts,
                                 void **layout)
{
    *layout = NULL;
    const int32_t C = SPIRA__SELL_C;
    int32_t sigma;
    int unit_ok, hubs_ok;
    SPIRA__TRY(spira__sell_opts(ctx, opts, A->nrows, &sigma, &unit_ok, &hubs_ok));
    spira__sell *S = spira__calloc(1, sizeof *S);
    if (!S) return spira__nomem(ctx, "SELL layout", sizeof *S);
    S->nrows = A->nrows, S->ncols = A->ncols, S->nnz = A->nnz, S->dtype = A->dtype;
    S->sigma = sigma;
    S->unit = unit_ok && A->nnz > 0 && spira__csr_values_one(A);
    uint64_t *keys = NULL;
    spira_status s = spira__alloc(ctx, (void **)&S->perm, (size_t)A->nrows, sizeof(int32_t),
                                  "SELL row permutation");
    if (s == SPIRA_OK)
        s = spira__alloc(ctx, (void **)&keys, (size_t)A->nrows, sizeof *keys, "SELL sort keys");
    if (s == SPIRA_OK) {
        S->nlong = sell_sort(A, S->sigma, keys, S->perm);
        S->nslices = (int32_t)(((int64_t)A->nrows - S->nlong + C - 1) / C);
        s = spira__alloc(ctx, (void **)&S->slice_ptr, (size_t)S->nslices + 1, sizeof(int32_t),
                         "SELL slice pointers");
    }
    if (s == SPIRA_OK && S->nlong)
        s = spira__alloc(ctx, (void **)&S->long_ptr, (size_t)S->nlong + 1, sizeof(int32_t),
                         "SELL long rows' offsets");
    spira__free(keys);
    if (s != SPIRA_OK) {
        sell_destroy(S);
        return s;
    }
    /* slice widths: the first row of a slice is its longest (sorted), but with sigma = 1
     * any row may be; then the long rows' entries after the slots */
    const int32_t sliced = A->nrows - S->nlong;
    int64_t slots = 0, entries;
    S->slice_ptr[0] = 0;
    for (int32_t sl = 0; sl < S->nslices; sl++) {
        slots += (int64_t)spira__sell_slice_width(A, S->perm, sliced, sl) * C;
        if (slots > INT32_MAX) {
            sell_destroy(S);
            return spira__sell_refuse(ctx, sl, S->nslices, slots);
        }
        S->slice_ptr[sl + 1] = (int32_t)slots;
    }
    entries = slots;
    for (int32_t j = 0; j < S->nlong; j++) {
        const int32_t i = S->perm[sliced + j];
        S->long_ptr[j] = (int32_t)entries; /* <= INT32_MAX: checked at the step before */
        entries += A->row_ptr[i + 1] - A->row_ptr[i];
        if (entries > INT32_MAX) {
            sell_destroy(S);
            return spira__sell_refuse(ctx, S->nslices, S->nslices, entries);
        }
    }
    if (S->nlong) S->long_ptr[S->nlong] = (int32_t)entries;
    size_t es = spira_dtype_size(A->dtype);
    s = spira__alloc(ctx, (void **)&S->cols, (size_t)entries, sizeof(int32_t), "SELL columns");
    if (s == SPIRA_OK && !S->unit)
        s = spira__alloc(ctx, &S->vals, (size_t)entries, es, "SELL values");
    int32_t *map = NULL; /* a hub's rank by column, when hubs are renumbered */
    if (s == SPIRA_OK && hubs_ok) s = sell_hubs(ctx, A, S, &map);
    if (s != SPIRA_OK) {
        sell_destroy(S);
        return s;
    }
    char *vals = (char *)S->vals; /* NULL when unit: the columns only */
    memset(S->cols, 0xff, (size_t)slots * sizeof(int32_t)); /* all -1: padding unless filled */
    if (vals) memset(vals, 0, (size_t)slots * es);          /* 0.0 in both precisions */
    for (int32_t r = 0; r < sliced; r++) {
        int32_t i = S->perm[r], b = A->row_ptr[i], len = A->row_ptr[i + 1] - b;
        size_t at = (size_t)S->slice_ptr[r / C] + (size_t)(r % C);
        for (int32_t k = 0; k < len; k++, at += C) {
            S->cols[at] = stored_col(map, A->ncols, A->col_idx[b + k]);
            if (vals) memcpy(vals + at * es, (const char *)A->val + (size_t)(b + k) * es, es);
        }
    }
    for (int32_t j = 0; j < S->nlong; j++) {
        const int32_t i = S->perm[sliced + j], b = A->row_ptr[i];
        const size_t at = (size_t)S->long_ptr[j], len = (size_t)(A->row_ptr[i + 1] - b);
        for (size_t k = 0; k < len; k++)
            S->cols[at + k] = stored_col(map, A->ncols, A->col_idx[b + k]);
        if (vals) memcpy(vals + at * es, (const char *)A->val + (size_t)b * es, len * es);
    }
    int32_t longest = 0;
    for (int32_t i = 0; i < A->nrows; i++)
        if (A->row_ptr[i + 1] - A->row_ptr[i] > longest) longest = A->row_ptr[i + 1] - A->row_ptr[i];
    spira__free(map);
    spira__sell_describe(S, slots, entries - slots, longest);
    *layout = S;
    return SPIRA_OK;
}

#define SPIRA__SELL_BODY(T)                                                              \
    do {                                                                                 \
        const T *v = (const T *)S->vals, *xx = (const T *)x;                             \
        T *yy = (T *)y;                                                                  \
        const int32_t sliced = S->nrows - S->nlong;                                      \
        for (int32_t r = 0; r < S->nrows; r++) {                                         \
            size_t at, end, step;                                                        \
            if (r < sliced) {                                                            \
                int32_t sl = r / SPIRA__SELL_C;                                          \
                at = (size_t)S->slice_ptr[sl] + (size_t)(r % SPIRA__SELL_C);             \
                end = (size_t)S->slice_ptr[sl + 1], step = SPIRA__SELL_C;                \
            } else {                                                                     \
                at = (size_t)S->long_ptr[r - sliced];                                    \
                end = (size_t)S->long_ptr[r - sliced + 1], step = 1;                     \
            }                                                                            \
            T sum = 0;                                                                   \
            for (; at < end; at += step) {                                               \
                int32_t c = S->cols[at];                                                 \
                if (c < 0) break; /* padding only at a row's end */                      \
                const T xc = c < S->ncols ? xx[c] : xx[S->hubs[c - S->ncols]];           \
                sum += v ? v[at] * xc : xc; /* 1 * x is x */                             \
            }                                                                            \
            int32_t i = S->perm[r];                                                      \
            yy[i] = beta == 0 ? (T)(alpha * sum) : (T)(alpha * sum + beta * yy[i]);      \
        }                                                                                \
    } while (0)

static void sell_apply(const void *layout, double alpha, const void *x, double beta, void *y)
{
    const spira__sell *S = (const spira__sell *)layout;
    if (S->dtype == SPIRA_R64) SPIRA__SELL_BODY(double);
    else SPIRA__SELL_BODY(float);
}

static size_t sell_bytes(const void *layout)
{
    const spira__sell *S = (const spira__sell *)layout;
    return spira__sell_bytes_of(S->nrows, S->nslices, S->nlong, spira__sell_entries(S),
                                S->dtype, S->unit);
}

static const char *sell_stats(const void *layout)
{
    return ((const spira__sell *)layout)->stats;
}

extern const spira__format_gpu spira__sell_gpu;

const spira__format spira__sell_format = {
    .name = "sell",
    .description = "SELL-C-sigma: rows sorted by length within windows of sigma (default "
                   "65536 rows, 1024 beyond 131072 rows), slices of 32 padded to their "
                   "longest, a warp a slice, rows over 64 entries apart in chunks, no "
                   "values stored when all are 1 (unit=0: stored), a graph's hub columns "
                   "gathered first (hubs=0: not); the padding ratio in its stats "
                   "(Kreutzer et al. 2014)",
    .options = "sigma unit hubs",
    .convert = sell_convert,
    .apply = sell_apply,
    .bytes = sell_bytes,
    .destroy = sell_destroy,
    .stats = sell_stats,
    .gpu = SPIRA__GPU(&spira__sell_gpu),
};
