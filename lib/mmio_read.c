/*
 * mmio_read.c - reading Matrix Market files: the whole file into memory (lib/mmio_load.c),
 * parsed by lib/mmio_parse.c, then turned into the canonical CSR or a dense vector. The
 * CSR of a coordinate file is built here from the parser's runs, by all threads; array
 * files and the tests' reference go through the triplets and spira__csr_from_coo.
 *
 * The text is freed before the CSR is built, so the peak is text + triplets, then
 * triplets + CSR, never all three.
 */
#include "mmio.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Triplets to canonical CSR; frees the triplets either way. */
static spira_status coo_to_csr(spira_context ctx, const char *name, spira__mm_coo *c,
                               spira__csr *out, int *symmetric)
{
    spira_status s = spira__csr_from_coo(ctx, c->nrows, c->ncols, c->nnz, c->ri, c->ci, c->val,
                                         c->dtype, out);
    if (s == SPIRA_OK && c->val) s = spira__mm_check_sums(ctx, name, out, 0);
    if (s != SPIRA_OK) spira__csr_free(out);
    if (s == SPIRA_OK && symmetric) *symmetric = c->symmetry == SPIRA__MM_SYMMETRIC;
    spira__mm_coo_free(c);
    return s;
}

#ifdef _OPENMP
#include <omp.h>
#endif

/* One thread's share of the rows, and what it found sorting them. */
typedef struct {
    int32_t r0, r1;        /* its rows */
    int32_t longest;       /* its longest row that is out of column order */
    int dup;               /* a row holds a repeated column */
} row_share;

/* The scatter of one run's triplets to their rows in [r0, r1), in file order; mirror: the
 * transposed off-diagonal ones (negated when skew). T: the values' type. */
#define SPIRA__SCATTER(T)                                                                 \
    do {                                                                                  \
        T *ov = (T *)out->val;                                                            \
        for (int r = 0; r < rs->nruns; r++) {                                             \
            const spira__mm_run *u = &rs->run[r];                                         \
            const T *uv = (const T *)u->val;                                              \
            for (int64_t k = 0; k < u->kept; k++) {                                       \
                int32_t i = mirror ? u->ci[k] : u->ri[k];                                 \
                if ((uint32_t)(i - r0) >= (uint32_t)(r1 - r0)) continue;                  \
                if (mirror && u->ri[k] == i) continue;                                    \
                int32_t pos = next[i]++;                                                  \
                out->col_idx[pos] = mirror ? u->ri[k] : u->ci[k];                         \
                ov[pos] = !uv ? (T)1 : mirror == 2 ? -uv[k] : uv[k];                      \
            }                                                                             \
        }                                                                                 \
    } while (0)

/* Rows [r0, r1) of the CSR from the runs: the stored triplets, then the mirrored ones,
 * each in file order, as spira__csr_from_coo scatters the mirrored triplet list. */
static void scatter_rows(const spira__mm_runs *rs, spira__csr *out, int32_t *next, int32_t r0,
                         int32_t r1, int mirrors)
{
    for (int32_t i = r0; i < r1; i++) next[i] = out->row_ptr[i];
    for (int mirror = 0; mirror <= mirrors; mirror += mirrors ? mirrors : 1) {
        if (out->dtype == SPIRA_R64) SPIRA__SCATTER(double);
        else SPIRA__SCATTER(float);
    }
}

/* Sort the rows of share sh by column (only those out of order, through keys and vals of
 * sh->longest entries) and note whether one holds a repeated column. */
static void sort_rows(spira__csr *out, row_share *sh, spira__col_pos *keys, char *vals)
{
    for (int32_t i = sh->r0; i < sh->r1; i++) {
        int32_t b = out->row_ptr[i], len = out->row_ptr[i + 1] - b, sorted = 1;
        for (int32_t k = 1; k < len && sorted; k++) sorted = out->col_idx[b + k] >= out->col_idx[b + k - 1];
        if (!sorted) spira__csr_sort_row(out, b, len, keys, vals);
        for (int32_t k = 1; k < len && !sh->dup; k++) sh->dup = out->col_idx[b + k] == out->col_idx[b + k - 1];
    }
}

/* Row counts of [r0, r1) into row_ptr[r0 + 1 .. r1]. */
static void count_rows(const spira__mm_runs *rs, int32_t *rp, int32_t r0, int32_t r1, int mirror)
{
    for (int32_t i = r0; i < r1; i++) rp[i + 1] = 0;
    for (int r = 0; r < rs->nruns; r++) {
        const spira__mm_run *u = &rs->run[r];
        for (int64_t k = 0; k < u->kept; k++) {
            int32_t i = u->ri[k], j = u->ci[k];
            if ((uint32_t)(i - r0) < (uint32_t)(r1 - r0)) rp[i + 1]++;
            if (mirror && i != j && (uint32_t)(j - r0) < (uint32_t)(r1 - r0)) rp[j + 1]++;
        }
    }
}

static int max_threads(void)
{
#ifdef _OPENMP
    return omp_get_max_threads();
#else
    return 1;
#endif
}

/* The scatter's or the sort's shares: rows split by entries, nt of them. */
static void share_rows(const int32_t *rp, int32_t nrows, int64_t nnz, row_share *sh, int nt)
{
    for (int u = 0; u < nt; u++) {
        int64_t want = nnz * u / nt;
        int32_t lo = 0, hi = nrows;
        while (lo < hi) { /* the first row starting at or after want */
            int32_t mid = lo + (hi - lo) / 2;
            if (rp[mid] < want) lo = mid + 1;
            else hi = mid;
        }
        sh[u].r0 = lo;
        sh[u].longest = 0;
        sh[u].dup = 0;
        if (u > 0) sh[u - 1].r1 = sh[u].r0;
    }
    sh[nt - 1].r1 = nrows;
}

spira_status spira__mm_csr_finish(spira_context ctx, const char *name, spira__csr *out,
                                  int values, int nt)
{
    row_share *sh = NULL;
    spira__col_pos **cp = NULL;
    char **vals = NULL;
    if (out->nnz < 50000) nt = 1;
    spira_status s = spira__alloc(ctx, (void **)&sh, (size_t)nt, sizeof *sh, "row shares");
    if (s == SPIRA_OK) {
        share_rows(out->row_ptr, out->nrows, out->nnz, sh, nt);
#pragma omp parallel for schedule(static, 1) num_threads(nt) if (nt > 1)
        for (int t = 0; t < nt; t++)
            sh[t].longest = spira__csr_longest_unsorted(out, sh[t].r0, sh[t].r1);
        s = spira__alloc(ctx, (void **)&cp, (size_t)nt, sizeof *cp, "row sort keys");
    }
    if (s == SPIRA_OK) {
        memset(cp, 0, (size_t)nt * sizeof *cp);
        s = spira__alloc(ctx, (void **)&vals, (size_t)nt, sizeof *vals, "row sort values");
    }
    if (s == SPIRA_OK) memset(vals, 0, (size_t)nt * sizeof *vals);
    for (int t = 0; s == SPIRA_OK && t < nt; t++)
        if (sh[t].longest) {
            s = spira__alloc(ctx, (void **)&cp[t], (size_t)sh[t].longest, sizeof **cp,
                             "row sort keys");
            if (s == SPIRA_OK)
                s = spira__alloc(ctx, (void **)&vals[t], (size_t)sh[t].longest,
                                 spira_dtype_size(out->dtype), "row sort values");
        }
    if (s == SPIRA_OK) {
#pragma omp parallel for schedule(static, 1) num_threads(nt) if (nt > 1)
        for (int t = 0; t < nt; t++) sort_rows(out, &sh[t], cp[t], vals[t]);
        int dup = 0;
        for (int t = 0; t < nt; t++) dup |= sh[t].dup;
        if (dup) { /* rare: summed as spira__csr_from_coo sums them, then checked */
            spira__csr_merge_duplicates(out);
            if (values) s = spira__mm_check_sums(ctx, name, out, 0);
        }
    }
    for (int t = 0; (cp || vals) && t < nt; t++) {
        if (cp) spira__free(cp[t]);
        if (vals) spira__free(vals[t]);
    }
    spira__free(cp);
    spira__free(vals);
    spira__free(sh);
    return s;
}

spira_status spira__mm_runs_to_csr(spira_context ctx, const char *name, spira__mm_runs *rs,
                                   spira__csr *out, int *symmetric)
{
    memset(out, 0, sizeof *out);
    name = name ? name : "(memory)";
    if (rs->nruns == 0) { /* an array file: its triplets */
        spira_status s = coo_to_csr(ctx, name, &rs->head, out, symmetric);
        spira__mm_runs_free(rs);
        return s;
    }
    const spira__mm_coo *h = &rs->head;
    const int mirror = h->symmetry == SPIRA__MM_GENERAL ? 0 : h->symmetry == SPIRA__MM_SKEW ? 2 : 1;
    int64_t nnz = 0;
    for (int r = 0; r < rs->nruns; r++)
        nnz += rs->run[r].kept + (mirror ? rs->run[r].lower + rs->run[r].upper : 0);
    const int32_t nrows = (int32_t)h->nrows; /* the parser checked sizes and nnz */
    int nt = nnz < 50000 ? 1 : max_threads();
    int32_t *next = NULL;
    row_share *sh = NULL;
    out->nrows = nrows;
    out->ncols = (int32_t)h->ncols;
    out->nnz = (int32_t)nnz;
    out->dtype = h->dtype;
    spira_status s = spira__alloc(ctx, (void **)&out->row_ptr, (size_t)nrows + 1, sizeof(int32_t),
                                  "CSR row pointers");
    if (s == SPIRA_OK)
        s = spira__alloc(ctx, (void **)&out->col_idx, (size_t)nnz, sizeof(int32_t),
                         "CSR column indices");
    if (s == SPIRA_OK)
        s = spira__alloc(ctx, &out->val, (size_t)nnz, spira_dtype_size(h->dtype), "CSR values");
    if (s == SPIRA_OK)
        s = spira__alloc(ctx, (void **)&next, (size_t)nrows + 1, sizeof *next, "row cursors");
    if (s == SPIRA_OK) s = spira__alloc(ctx, (void **)&sh, (size_t)nt, sizeof *sh, "row shares");
    if (s == SPIRA_OK) {
        spira__mm_hint_huge(out->col_idx, (size_t)nnz * sizeof(int32_t));
        spira__mm_hint_huge(out->val, (size_t)nnz * spira_dtype_size(h->dtype));
        spira__mm_hint_huge(out->row_ptr, ((size_t)nrows + 1) * sizeof(int32_t));
        spira__mm_hint_huge(next, ((size_t)nrows + 1) * sizeof(int32_t));
    }
    if (s == SPIRA_OK) {
        int32_t *rp = out->row_ptr;
        rp[0] = 0;
        /* counts: each thread owns an equal stretch of rows and scans every triplet */
#pragma omp parallel num_threads(nt) if (nt > 1)
        {
#ifdef _OPENMP
            int t = omp_get_thread_num(), n = omp_get_num_threads();
#else
            int t = 0, n = 1;
#endif
            count_rows(rs, rp, (int32_t)((int64_t)nrows * t / n),
                       (int32_t)((int64_t)nrows * (t + 1) / n), mirror);
#pragma omp barrier
#pragma omp single
            {
                for (int32_t i = 0; i < nrows; i++) rp[i + 1] += rp[i];
                share_rows(rp, nrows, nnz, sh, n);
                for (int u = n; u < nt; u++) sh[u].r0 = sh[u].r1 = nrows;
            }
            scatter_rows(rs, out, next, sh[t].r0, sh[t].r1, mirror);
        }
        s = spira__mm_csr_finish(ctx, name, out, h->field != SPIRA__MM_PATTERN, nt);
    }
    spira__free(sh);
    spira__free(next);
    if (s != SPIRA_OK) spira__csr_free(out);
    if (s == SPIRA_OK && symmetric) *symmetric = h->symmetry == SPIRA__MM_SYMMETRIC;
    spira__mm_runs_free(rs);
    return s;
}

spira_status spira__mm_parse_chunks(spira_context ctx, const char *name, const char *text,
                                    size_t len, spira_dtype dtype, int nchunks, spira__csr *out,
                                    int *symmetric)
{
    memset(out, 0, sizeof *out);
    if (nchunks == SPIRA__MM_TRIPLETS) {
        spira__mm_coo c;
        SPIRA__TRY(spira__mm_parse_coo(ctx, name, text, len, dtype, &c));
        return coo_to_csr(ctx, name ? name : "(memory)", &c, out, symmetric);
    }
    spira_status s;
    if (nchunks & SPIRA__MM_NO_FAST) nchunks &= ~SPIRA__MM_NO_FAST;
    else if (spira__mm_fast_csr(ctx, name, text, len, dtype, nchunks, out, symmetric, &s))
        return s;
    spira__mm_runs rs;
    SPIRA__TRY(spira__mm_parse_runs(ctx, name, text, len, dtype, nchunks, &rs));
    return spira__mm_runs_to_csr(ctx, name, &rs, out, symmetric);
}

spira_status spira__mm_parse(spira_context ctx, const char *name, const char *text, size_t len,
                             spira_dtype dtype, spira__csr *out, int *symmetric)
{
    return spira__mm_parse_chunks(ctx, name, text, len, dtype, 0, out, symmetric);
}

spira_status spira__mm_read(spira_context ctx, const char *path, spira_dtype dtype,
                            spira__csr *out, int *symmetric)
{
    memset(out, 0, sizeof *out);
    char *text, nb[SPIRA__MM_NAME_MAX];
    const char *name = spira__mm_name(path, nb);
    size_t len;
    spira__mm_runs rs;
    int mapped;
    SPIRA__TRY(spira__mm_map(ctx, path, &text, &len, &mapped));
    spira_status s;
    if (spira__mm_fast_csr(ctx, name, text, len, dtype, 0, out, symmetric, &s)) {
        spira__mm_unmap(text, len, mapped);
        return s;
    }
    s = spira__mm_parse_runs(ctx, name, text, len, dtype, 0, &rs);
    spira__mm_unmap(text, len, mapped);
    SPIRA__TRY(s);
    return spira__mm_runs_to_csr(ctx, name, &rs, out, symmetric);
}

/* The triplets of an n x 1 or 1 x n file (name for messages; the parser checked the
 * shape and the budget) to a dense vector of ctx; frees the triplets either way. */
static spira_status coo_to_vector(spira_context ctx, const char *name, spira__mm_coo *c,
                                  spira_vector *v)
{
    *v = NULL;
    /* dense values: array entries assigned (so -0 stays -0), coordinate entries summed
     * into zeros (they may repeat or omit some) */
    int64_t n = c->ncols == 1 ? c->nrows : c->ncols;
    double *x = NULL;
    spira_status s = spira__alloc(ctx, (void **)&x, (size_t)(n ? n : 1), sizeof *x,
                                  "vector values");
    if (s == SPIRA_OK) {
        memset(x, 0, (size_t)n * sizeof *x);
        for (int64_t k = 0; k < c->nnz; k++) {
            double e = c->val ? spira__get(c->val, c->dtype, k) : 1.0;
            int64_t i = c->ncols == 1 ? c->ri[k] : c->ci[k];
            x[i] = c->array ? e : x[i] + e;
        }
        for (int64_t i = 0; !c->array && s == SPIRA_OK && i < n; i++)
            s = spira__mm_check_sum(ctx, name, x[i], c->dtype, i + 1, 0);
        if (s == SPIRA_OK) s = spira_vector_create(ctx, n, c->dtype, v);
    }
    if (s == SPIRA_OK) {
        s = spira_vector_set_f64(*v, x);
        if (s != SPIRA_OK) {
            spira_vector_destroy(*v);
            *v = NULL;
        }
    }
    spira__free(x);
    spira__mm_coo_free(c);
    return s;
}

spira_status spira__mm_parse_vector(spira_context ctx, const char *name, const char *text,
                                    size_t len, spira_dtype dtype, spira_vector *v)
{
    *v = NULL;
    spira__mm_coo c;
    SPIRA__TRY(spira__mm_parse_vector_coo(ctx, name, text, len, dtype, 0, &c));
    return coo_to_vector(ctx, name ? name : "(memory)", &c, v);
}

spira_status spira_vector_read_mm_n(spira_context ctx, const char *path, spira_dtype dtype,
                                    int64_t n, spira_vector *v)
{
    if (!ctx || !path || !v)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "NULL context, path or output");
    *v = NULL;
    if (dtype != SPIRA_R32 && dtype != SPIRA_R64)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "unknown dtype %d", (int)dtype);
    if (n < 0) return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "negative vector length %lld", (long long)n);
    char *text, nb[SPIRA__MM_NAME_MAX];
    const char *name = spira__mm_name(path, nb);
    size_t len;
    spira__mm_coo c;
    SPIRA__TRY(spira__mm_load(ctx, path, &text, &len));
    spira_status s = spira__mm_parse_vector_coo(ctx, name, text, len, dtype, n, &c);
    spira__free(text);
    SPIRA__TRY(s);
    return coo_to_vector(ctx, name, &c, v);
}

spira_status spira_vector_read_mm(spira_context ctx, const char *path, spira_dtype dtype,
                                  spira_vector *v)
{
    return spira_vector_read_mm_n(ctx, path, dtype, 0, v);
}
