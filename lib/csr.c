/*
 * csr.c - the canonical host CSR: building it from COO or caller arrays (validated,
 * columns sorted, duplicates summed), transposing it, and the CPU reference SpMV.
 *
 * Building is a stable counting sort by row, then a sort of each row that is out of
 * order; memory is O(nnz + rows) whatever the number of columns (a 10 x 2e9 matrix with
 * a few entries must not allocate per column). Transposing is a counting sort by column
 * (A^T has a row per column), in parallel over blocks of rows when A is large.
 */
#include "spira_impl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

spira_status spira__check_dims(spira_context ctx, int64_t nrows, int64_t ncols, int64_t nnz)
{
    if (nrows < 0 || ncols < 0 || nnz < 0)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG,
                            "negative size: %lld rows, %lld columns, %lld nonzeros",
                            (long long)nrows, (long long)ncols, (long long)nnz);
    if (nrows > INT32_MAX || ncols > INT32_MAX || nnz > INT32_MAX)
        return spira__error(ctx, SPIRA_ERR_UNSUPPORTED,
                            "matrix of %lld rows, %lld columns, %lld nonzeros does not fit "
                            "32-bit indices (limit %d each)",
                            (long long)nrows, (long long)ncols, (long long)nnz, INT32_MAX);
    return SPIRA_OK;
}

void spira__csr_free(spira__csr *A)
{
    if (!A) return;
    spira__free(A->row_ptr);
    spira__free(A->col_idx);
    spira__free(A->val);
    A->row_ptr = A->col_idx = NULL;
    A->val = NULL;
}

double spira__csr_entry(const spira__csr *A, int32_t i, int32_t j)
{
    int32_t lo = A->row_ptr[i], hi = A->row_ptr[i + 1];
    while (lo < hi) {
        int32_t mid = lo + (hi - lo) / 2;
        if (A->col_idx[mid] < j) lo = mid + 1;
        else hi = mid;
    }
    return lo < A->row_ptr[i + 1] && A->col_idx[lo] == j ? spira__get(A->val, A->dtype, lo) : 0;
}

/* The position of row i's first entry a(i,j) farther than rel from a(j,i), or -1. */
static int32_t row_asymmetry(const spira__csr *A, double rel, int32_t i)
{
    for (int32_t k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++) {
        double a = spira__get(A->val, A->dtype, k), b = spira__csr_entry(A, A->col_idx[k], i);
        if (!(fabs(a - b) <= rel * (fabs(a) + fabs(b)))) return k;
    }
    return -1;
}

int spira__csr_asymmetry(const spira__csr *A, double rel, int32_t *pi, int32_t *pj)
{
    *pi = *pj = -1;
    if (A->nrows != A->ncols) return 1;
    /* the first row with a mismatch, on threads (a search of the mirror entry each) */
    int32_t first = A->nrows;
    const int team = A->nnz > SPIRA__PARALLEL_ITEMS;
#pragma omp parallel for schedule(static) reduction(min : first) if (team)
    for (int32_t i = 0; i < A->nrows; i++)
        if (i < first && row_asymmetry(A, rel, i) >= 0) first = i;
    if (first == A->nrows) return 0;
    *pi = first;
    *pj = A->col_idx[row_asymmetry(A, rel, first)];
    return 1;
}

/* Thread t of a team of n, in a stable counting sort of items by key (keys[k] in
 * [0, nkeys)), the team's threads holding consecutive blocks of items in order, this
 * one [first, end): counts its keys, then with the others turns the counts into ptr
 * (nkeys + 1: each bucket's first slot) and into cursors (n rows of nkeys + 1: thread u's
 * first slot in each bucket, after the threads before it), so that each thread scatters
 * its items by cursors[t] and the result is the one-thread sort's for any team. Every
 * thread of the team must call it (it holds the team's barriers). */
static void sort_cursors(int t, int n, const int32_t *keys, int64_t first, int64_t end,
                         int32_t nkeys, int32_t *ptr, int32_t *cursors)
{
    const size_t w = (size_t)nkeys + 1;
    int32_t *cur = cursors + (size_t)t * w;
    memset(cur, 0, w * sizeof *cur);
    for (int64_t k = first; k < end; k++) cur[keys[k]]++;
#pragma omp barrier
#pragma omp for schedule(static)
    for (int32_t j = 0; j < nkeys; j++) {
        int32_t total = 0;
        for (int u = 0; u < n; u++) total += cursors[(size_t)u * w + j];
        ptr[j + 1] = total;
    }
#pragma omp single
    {
        ptr[0] = 0;
        for (int32_t j = 0; j < nkeys; j++) ptr[j + 1] += ptr[j];
    }
#pragma omp for schedule(static)
    for (int32_t j = 0; j < nkeys; j++) {
        int32_t at = ptr[j];
        for (int u = 0; u < n; u++) {
            const int32_t c = cursors[(size_t)u * w + j];
            cursors[(size_t)u * w + j] = at;
            at += c;
        }
    }
}

spira_status spira__csr_empty_line(spira_context ctx, const spira__csr *A, int32_t *line,
                                   int *is_col)
{
    *line = -1;
    *is_col = 0;
    int32_t row = A->nrows; /* the first row without a nonzero value, in parallel */
    const int team = A->nnz > SPIRA__PARALLEL_ITEMS;
#pragma omp parallel for schedule(static) reduction(min : row) if (team)
    for (int32_t i = 0; i < A->nrows; i++) {
        int32_t k = A->row_ptr[i];
        while (k < A->row_ptr[i + 1] && spira__get(A->val, A->dtype, k) == 0) k++;
        if (k == A->row_ptr[i + 1] && i < row) row = i;
    }
    if (row < A->nrows) {
        *line = row;
        return SPIRA_OK;
    }
    unsigned char *seen;
    SPIRA__TRY(spira__alloc(ctx, (void **)&seen, (size_t)A->ncols + 1, 1, "column marks"));
    memset(seen, 0, (size_t)A->ncols);
#pragma omp parallel for schedule(static) if (team)
    for (int32_t k = 0; k < A->nnz; k++)
        if (spira__get(A->val, A->dtype, k) != 0) {
#pragma omp atomic write
            seen[A->col_idx[k]] = 1;
        }
    for (int32_t j = 0; j < A->ncols && *line < 0; j++)
        if (!seen[j]) {
            *line = j;
            *is_col = 1;
        }
    spira__free(seen);
    return SPIRA_OK;
}

spira_status spira__csr_alloc(spira_context ctx, spira__csr *A, int32_t nrows, int32_t ncols,
                              int32_t nnz, spira_dtype dtype, int with_values)
{
    memset(A, 0, sizeof *A);
    A->nrows = nrows;
    A->ncols = ncols;
    A->nnz = nnz;
    A->dtype = dtype;
    /* the three arrays together, so a matrix that cannot fit is refused before any is made */
    size_t entry = sizeof(int32_t) + (with_values ? spira_dtype_size(dtype) : 0);
    SPIRA__TRY(spira__budget_check(ctx, 1, ((size_t)nrows + 1) * sizeof(int32_t) + (size_t)nnz * entry,
                                   "the CSR arrays"));
    spira_status s = spira__alloc(ctx, (void **)&A->row_ptr, (size_t)nrows + 1, sizeof(int32_t),
                                  "CSR row pointers");
    if (s == SPIRA_OK)
        s = spira__alloc(ctx, (void **)&A->col_idx, (size_t)nnz, sizeof(int32_t),
                         "CSR column indices");
    if (s == SPIRA_OK && with_values)
        s = spira__alloc(ctx, &A->val, (size_t)nnz, spira_dtype_size(dtype), "CSR values");
    if (s != SPIRA_OK) spira__csr_free(A);
    return s;
}

int spira__csr_values_one(const spira__csr *A)
{
    enum { step = 1 << 16 }; /* entries a part checks between looks at the others' verdict */
    const int64_t n = A->nnz;
    const int dbl = A->dtype == SPIRA_R64;
    if (!A->val || n == 0 || spira__get(A->val, A->dtype, 0) != 1.0) return 0;
    const int parts = spira__host_parts((size_t)n * spira_dtype_size(A->dtype));
    int other = 0;
#pragma omp parallel for num_threads(parts) schedule(static) if (parts > 1)
    for (int t = 0; t < parts; t++) {
        const int64_t k1 = n * (t + 1) / parts;
        for (int64_t k = n * t / parts; k < k1; k += step) {
            int seen;
#pragma omp atomic read
            seen = other;
            if (seen) break;
            const int64_t end = k1 - k < step ? k1 : k + step;
            int bad = 0;
            if (dbl)
                for (int64_t i = k; i < end; i++) bad |= ((const double *)A->val)[i] != 1.0;
            else
                for (int64_t i = k; i < end; i++) bad |= ((const float *)A->val)[i] != 1.0f;
            if (bad) {
#pragma omp atomic write
                other = 1;
                break;
            }
        }
    }
    return !other;
}

/* Sum adjacent equal columns within each row, in place, and shrink the arrays. */
void spira__csr_merge_duplicates(spira__csr *A)
{
    int32_t w = 0, start = 0;
    for (int32_t i = 0; i < A->nrows; i++) {
        int32_t end = A->row_ptr[i + 1];
        int32_t row_first = w;
        for (int32_t k = start; k < end; k++) {
            double v = spira__get(A->val, A->dtype, k);
            if (w > row_first && A->col_idx[w - 1] == A->col_idx[k]) {
                spira__set(A->val, A->dtype, w - 1, spira__get(A->val, A->dtype, w - 1) + v);
            } else {
                A->col_idx[w] = A->col_idx[k];
                spira__set(A->val, A->dtype, w, v);
                w++;
            }
        }
        start = end;
        A->row_ptr[i + 1] = w;
    }
    A->nnz = w; /* the arrays keep their original size; the tail is unused */
}

static int col_pos_cmp(const void *a, const void *b)
{
    const spira__col_pos *x = a, *y = b;
    if (x->col != y->col) return x->col < y->col ? -1 : 1;
    return (x->pos > y->pos) - (x->pos < y->pos); /* stable: duplicates keep input order */
}

void spira__csr_sort_row(spira__csr *A, int32_t b, int32_t len, spira__col_pos *keys, char *vals)
{
    size_t es = spira_dtype_size(A->dtype);
    for (int32_t k = 0; k < len; k++) keys[k] = (spira__col_pos){A->col_idx[b + k], k};
    qsort(keys, (size_t)len, sizeof *keys, col_pos_cmp);
    char *v = (char *)A->val + (size_t)b * es;
    memcpy(vals, v, (size_t)len * es);
    for (int32_t k = 0; k < len; k++) {
        A->col_idx[b + k] = keys[k].col;
        memcpy(v + (size_t)k * es, vals + (size_t)keys[k].pos * es, es);
    }
}

/* Sort the columns of each row (values alongside). Rows already in order are left alone;
 * the others go through one buffer sized by the longest row, so memory stays O(nnz + rows)
 * whatever the number of columns. */
int32_t spira__csr_longest_unsorted(const spira__csr *A, int32_t r0, int32_t r1)
{
    int32_t longest = 0;
    for (int32_t i = r0; i < r1; i++) {
        int32_t len = A->row_ptr[i + 1] - A->row_ptr[i];
        for (int32_t k = A->row_ptr[i] + 1; k < A->row_ptr[i + 1]; k++)
            if (A->col_idx[k] < A->col_idx[k - 1]) {
                if (len > longest) longest = len;
                break;
            }
    }
    return longest;
}

spira_status spira__csr_sort_rows(spira_context ctx, spira__csr *A)
{
    int32_t longest = spira__csr_longest_unsorted(A, 0, A->nrows);
    if (longest == 0) return SPIRA_OK;
    const size_t es = spira_dtype_size(A->dtype);
    const int nt = spira__threads_for(A->nnz, longest); /* a buffer of the longest row each */
    spira__col_pos *cp = NULL;
    char *vals = NULL;
    spira_status s = spira__alloc(ctx, (void **)&cp, (size_t)nt * longest, sizeof *cp,
                                  "row sort keys");
    if (s == SPIRA_OK)
        s = spira__alloc(ctx, (void **)&vals, (size_t)nt * longest, es, "row sort values");
    if (s == SPIRA_OK) {
#pragma omp parallel num_threads(nt)
        {
            int t, n;
            spira__team(&t, &n);
            spira__col_pos *my_cp = cp + (size_t)t * longest;
            char *my_vals = vals + (size_t)t * longest * es;
#pragma omp for schedule(dynamic, 1024)
            for (int32_t i = 0; i < A->nrows; i++) {
                int32_t b = A->row_ptr[i], len = A->row_ptr[i + 1] - b, sorted = 1;
                for (int32_t k = 1; k < len && sorted; k++)
                    sorted = A->col_idx[b + k] >= A->col_idx[b + k - 1];
                if (!sorted) spira__csr_sort_row(A, b, len, my_cp, my_vals);
            }
        }
    }
    spira__free(cp);
    spira__free(vals);
    return s;
}

spira_status spira__csr_from_coo(spira_context ctx, int64_t nrows, int64_t ncols, int64_t nnz,
                                 const int32_t *ri, const int32_t *ci, const void *val,
                                 spira_dtype dtype, spira__csr *out)
{
    memset(out, 0, sizeof *out);
    SPIRA__TRY(spira__check_dims(ctx, nrows, ncols, nnz));
    if (dtype != SPIRA_R32 && dtype != SPIRA_R64)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "unknown dtype %d", (int)dtype);
    if (nnz > 0 && (!ri || !ci))
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "COO index arrays are NULL");
    for (int64_t k = 0; k < nnz; k++) {
        if (ri[k] < 0 || ri[k] >= nrows || ci[k] < 0 || ci[k] >= ncols)
            return spira__error(ctx, SPIRA_ERR_INVALID_ARG,
                                "entry %lld: index (%d, %d) outside the %lld x %lld matrix "
                                "(0-based)",
                                (long long)k, ri[k], ci[k], (long long)nrows, (long long)ncols);
    }
    SPIRA__TRY(spira__csr_alloc(ctx, out, (int32_t)nrows, (int32_t)ncols, (int32_t)nnz, dtype, 1));
    const int nt = spira__threads_for(nnz, nrows + 1);
    int32_t *cursors = NULL; /* nt rows of nrows + 1 */
    spira_status s = spira__alloc(ctx, (void **)&cursors, (size_t)nt * ((size_t)nrows + 1),
                                  sizeof(int32_t), "row cursors");
    if (s != SPIRA_OK) {
        spira__csr_free(out);
        return s;
    }
    /* a stable counting sort by row (blocks of entries, a thread each), then each row
     * sorted by column */
#pragma omp parallel num_threads(nt)
    {
        int t, n;
        spira__team(&t, &n);
        const int64_t k0 = nnz * t / n, k1 = nnz * (t + 1) / n;
        sort_cursors(t, n, ri, k0, k1, (int32_t)nrows, out->row_ptr, cursors);
        int32_t *cur = cursors + (size_t)t * ((size_t)nrows + 1);
        for (int64_t k = k0; k < k1; k++) {
            const int32_t pos = cur[ri[k]]++;
            out->col_idx[pos] = ci[k];
            spira__set(out->val, dtype, pos, val ? spira__get(val, dtype, k) : 1.0);
        }
    }
    spira__free(cursors);
    s = spira__csr_sort_rows(ctx, out);
    if (s != SPIRA_OK) {
        spira__csr_free(out);
        return s;
    }
    spira__csr_merge_duplicates(out);
    return SPIRA_OK;
}

spira_status spira__csr_from_arrays(spira_context ctx, int64_t nrows, int64_t ncols,
                                    const int32_t *rp, const int32_t *ci, const void *val,
                                    spira_dtype dtype, spira__csr *out)
{
    memset(out, 0, sizeof *out);
    if (nrows < 0 || ncols < 0)
        return spira__check_dims(ctx, nrows, ncols, 0);
    if (!rp) return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "row_ptr is NULL");
    if (rp[0] != 0)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "row_ptr[0] is %d, must be 0", rp[0]);
    for (int64_t i = 0; i < nrows; i++)
        if (rp[i + 1] < rp[i])
            return spira__error(ctx, SPIRA_ERR_INVALID_ARG,
                                "row_ptr decreases at row %lld (%d then %d)", (long long)i,
                                rp[i], rp[i + 1]);
    int64_t nnz = rp[nrows];
    SPIRA__TRY(spira__check_dims(ctx, nrows, ncols, nnz));
    if (nnz > 0 && !ci) return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "col_idx is NULL");
    int sorted = 1;
    for (int64_t i = 0; i < nrows; i++)
        for (int32_t k = rp[i]; k < rp[i + 1]; k++) {
            if (ci[k] < 0 || ci[k] >= ncols)
                return spira__error(ctx, SPIRA_ERR_INVALID_ARG,
                                    "row %lld: column %d outside 0..%lld", (long long)i, ci[k],
                                    (long long)ncols - 1);
            if (k > rp[i] && ci[k] <= ci[k - 1]) sorted = 0;
        }
    if (sorted) {
        SPIRA__TRY(spira__csr_alloc(ctx, out, (int32_t)nrows, (int32_t)ncols, (int32_t)nnz, dtype, 1));
        memcpy(out->row_ptr, rp, ((size_t)nrows + 1) * sizeof(int32_t));
        if (nnz) memcpy(out->col_idx, ci, (size_t)nnz * sizeof(int32_t));
        if (val && nnz) memcpy(out->val, val, (size_t)nnz * spira_dtype_size(dtype));
        else
            for (int64_t k = 0; k < nnz; k++) spira__set(out->val, dtype, k, 1.0);
        return SPIRA_OK;
    }
    int32_t *ri = NULL;
    SPIRA__TRY(spira__alloc(ctx, (void **)&ri, (size_t)nnz, sizeof(int32_t), "row indices"));
    for (int64_t i = 0; i < nrows; i++)
        for (int32_t k = rp[i]; k < rp[i + 1]; k++) ri[k] = (int32_t)i;
    spira_status s = spira__csr_from_coo(ctx, nrows, ncols, nnz, ri, ci, val, dtype, out);
    spira__free(ri);
    return s;
}

/* The first row of part t of n: where the entries before it reach t/n of the total. */
static int32_t transpose_split(const spira__csr *A, int t, int n)
{
    if (t >= n) return A->nrows;
    const int64_t target = (int64_t)A->nnz * t / n;
    int32_t lo = 0, hi = A->nrows; /* the first row i with row_ptr[i] >= target */
    while (lo < hi) {
        const int32_t mid = lo + (hi - lo) / 2;
        if (A->row_ptr[mid] < target) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* Rows [r0, r1) of A into A^T at the cursors cur (one per column of A, advanced), row i's
 * values times row_scale[i] (in double, rounded once to T) when row_scale is given. */
#define SPIRA__TRANSPOSE_SCATTER(T)                                                      \
    do {                                                                                 \
        const T *v = (const T *)A->val;                                                  \
        T *o = (T *)AT->val;                                                             \
        for (int32_t i = r0; i < r1; i++)                                                \
            for (int32_t k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++) {                \
                const int32_t pos = cur[A->col_idx[k]]++;                                \
                AT->col_idx[pos] = i;                                                    \
                if (v) o[pos] = row_scale ? (T)((double)v[k] * row_scale[i]) : v[k];     \
            }                                                                            \
    } while (0)

spira_status spira__csr_transpose(spira_context ctx, const spira__csr *A, spira__csr *AT)
{
    return spira__csr_transpose_scaled(ctx, A, NULL, AT);
}

/* A counting sort by column (sort_cursors), the team's blocks of entries whole rows of A
 * with about equal entries: A^T's rows list A's rows in increasing order, as one thread's
 * would, whatever the team. */
spira_status spira__csr_transpose_scaled(spira_context ctx, const spira__csr *A,
                                         const double *row_scale, spira__csr *AT)
{
    SPIRA__TRY(spira__csr_alloc(ctx, AT, A->ncols, A->nrows, A->nnz, A->dtype, A->val != NULL));
    const int nt = spira__threads_for(A->nnz, (int64_t)A->ncols + 1);
    const size_t w = (size_t)A->ncols + 1;
    int32_t *cursors = NULL; /* nt x w: thread t's next slot in each row of A^T */
    spira_status s = spira__alloc(ctx, (void **)&cursors, (size_t)nt * w, sizeof(int32_t),
                                  "transpose cursors");
    if (s != SPIRA_OK) {
        spira__csr_free(AT);
        return s;
    }
#pragma omp parallel num_threads(nt)
    {
        int t, n;
        spira__team(&t, &n);
        const int32_t r0 = transpose_split(A, t, n), r1 = transpose_split(A, t + 1, n);
        sort_cursors(t, n, A->col_idx, A->row_ptr[r0], A->row_ptr[r1], A->ncols, AT->row_ptr,
                     cursors);
        int32_t *cur = cursors + (size_t)t * w;
        if (A->dtype == SPIRA_R64) SPIRA__TRANSPOSE_SCATTER(double);
        else SPIRA__TRANSPOSE_SCATTER(float);
    }
    spira__free(cursors);
    return SPIRA_OK;
}

/* One body for both precisions: y <- alpha A x + beta y; accumulates in T. */
#define SPIRA__CSR_SPMV_BODY(T)                                                          \
    do {                                                                                 \
        const T *v = (const T *)A->val;                                                  \
        const T *xx = (const T *)x;                                                      \
        T *yy = (T *)y;                                                                  \
        _Pragma("omp parallel for schedule(static) if (A->nnz > 50000)")                 \
        for (int32_t i = 0; i < A->nrows; i++) {                                         \
            T sum = 0;                                                                   \
            for (int32_t k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++)                  \
                sum += v[k] * xx[A->col_idx[k]];                                         \
            yy[i] = beta == 0 ? (T)(alpha * sum) : (T)(alpha * sum + beta * yy[i]);      \
        }                                                                                \
    } while (0)

void spira__csr_spmv_host(const spira__csr *A, double alpha, const void *x, double beta,
                          void *y)
{
    if (A->dtype == SPIRA_R64) SPIRA__CSR_SPMV_BODY(double);
    else SPIRA__CSR_SPMV_BODY(float);
}

void spira__csr_spmv_f64(const spira__csr *A, double alpha, const double *x, double beta,
                         double *y)
{
    for (int32_t i = 0; i < A->nrows; i++) {
        double sum = 0;
        for (int32_t k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++)
            sum += spira__get(A->val, A->dtype, k) * x[A->col_idx[k]];
        y[i] = beta == 0 ? alpha * sum : alpha * sum + beta * y[i];
    }
}
