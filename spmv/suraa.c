/*
 * suraa.c - host side of SURAA (see suraa.h): the sort by row length, the
 * Freedman-Diaconis segments, the groups and their launches, and the CPU reference
 * multiply, which walks the same launches (so a row no launch covers shows on CI).
 */
#include "suraa.h"
#include "csr_vector.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int32_t npr, first, row;
} row_key;

/* longest first; ties by first column (an empty row has none: last), then by row */
static int by_length(const void *a, const void *b)
{
    const row_key *p = a, *q = b;
    if (p->npr != q->npr) return p->npr > q->npr ? -1 : 1;
    if (p->first != q->first) return p->first < q->first ? -1 : 1;
    return (p->row > q->row) - (p->row < q->row);
}

static void suraa_destroy(void *layout)
{
    spira__suraa *S = (spira__suraa *)layout;
    if (!S) return;
    spira__free(S->row_ptr);
    spira__free(S->col_idx);
    spira__free(S->val);
    spira__free(S->perm);
    spira__free(S);
}

/* Sort the rows (perm) and copy them into S in that order. */
static spira_status sort_rows(spira_context ctx, const spira__csr *A, spira__suraa *S)
{
    const int32_t m = A->nrows;
    row_key *key = NULL;
    SPIRA__TRY(spira__alloc(ctx, (void **)&key, (size_t)m, sizeof *key, "SURAA row order"));
    for (int32_t i = 0; i < m; i++) {
        const int32_t b = A->row_ptr[i], e = A->row_ptr[i + 1];
        key[i] = (row_key){e - b, e > b ? A->col_idx[b] : INT32_MAX, i};
    }
    if (m > 1) qsort(key, (size_t)m, sizeof *key, by_length);
    const size_t es = spira_dtype_size(A->dtype);
    S->row_ptr[0] = 0;
    for (int32_t i = 0; i < m; i++) {
        const int32_t r = key[i].row, b = A->row_ptr[r], n = key[i].npr, at = S->row_ptr[i];
        S->perm[i] = r;
        S->row_ptr[i + 1] = at + n;
        if (n == 0) continue; /* an empty matrix has no arrays to copy from */
        memcpy(S->col_idx + at, A->col_idx + b, (size_t)n * sizeof(int32_t));
        memcpy((char *)S->val + (size_t)at * es, (const char *)A->val + (size_t)b * es,
               (size_t)n * es);
    }
    spira__free(key);
    return SPIRA_OK;
}

static int32_t npr_at(const spira__suraa *S, int32_t i)
{
    return S->row_ptr[i + 1] - S->row_ptr[i];
}

/* Append a launch, or widen the last one when it is the same kernel with the same Y. */
static void add_launch(spira__suraa *S, int32_t kind, int32_t first, int32_t end, int32_t y)
{
    spira__suraa_launch *l = S->nlaunch ? &S->launch[S->nlaunch - 1] : NULL;
    if (l && l->kind == kind && l->threads == y && l->end == first) {
        l->end = end;
        return;
    }
    S->launch[S->nlaunch++] = (spira__suraa_launch){kind, first, end, y};
}

/* Segments of S->segment sorted rows, each to G1, G2 or G3 by its mean length. */
static void group_segments(spira__suraa *S)
{
    const int32_t m = S->nrows;
    int g1_open = 1;
    for (int32_t first = 0; first < m; first += S->segment) {
        const int32_t end = first + S->segment < m ? first + S->segment : m;
        const int64_t nnz = (int64_t)S->row_ptr[end] - S->row_ptr[first];
        int32_t kind, y;
        const int g = spira__suraa_segment(
            g1_open && S->group_rows[0] + (end - first) <= S->children, S->dynamic,
            S->g3_scalar, nnz, end - first, &kind, &y);
        g1_open = g == 0;
        S->group_rows[g] += end - first;
        add_launch(S, kind, first, end, y);
    }
}

/* 2 IQR / cbrt(m) over the row lengths, in rows; the lengths are sorted longest first, so
 * the first quartile (ascending) sits at 3m/4 and the third at m/4. The option's segment,
 * else the rule's, floored. */
void spira__suraa_size_segments(spira__suraa *S, int32_t segment, int32_t q3, int32_t q1)
{
    const int32_t m = S->nrows;
    S->fd_rows = m ? 2.0 * (q3 - q1) / cbrt((double)m) : 0;
    S->segment = segment ? segment
                         : S->fd_rows > SPIRA__SURAA_MIN_SEGMENT ? (int32_t)S->fd_rows
                                                                 : SPIRA__SURAA_MIN_SEGMENT;
}

void spira__suraa_describe(spira__suraa *S)
{
    snprintf(S->stats, sizeof S->stats,
             "segments of %d rows (Freedman-Diaconis %.2f); rows G1 %d (%s), G2 %d, G3 %d "
             "(%s); %d launches",
             S->segment, S->fd_rows, S->group_rows[0], S->dynamic ? "dynamic" : "vector",
             S->group_rows[1], S->group_rows[2], S->g3_scalar ? "scalar" : "sub-warp",
             S->nlaunch);
}

size_t spira__suraa_bytes_of(int32_t nrows, int32_t nnz, spira_dtype t)
{
    return ((size_t)nrows + 1 + nrows) * sizeof(int32_t) +
           (size_t)nnz * (sizeof(int32_t) + spira_dtype_size(t));
}

spira_status spira__suraa_options(spira_context ctx, const char *opts, spira__suraa *S,
                                  int32_t *segment_opt)
{
    long segment, children, dynamic;
    int g3_vector;
    static const char *const g3_kernels[] = {"scalar", "vector", NULL};
    SPIRA__TRY(spira__opt_long(ctx, opts, "segment", 0, &segment));
    SPIRA__TRY(spira__opt_long(ctx, opts, "children", 2048, &children));
    SPIRA__TRY(spira__opt_long(ctx, opts, "dynamic", 0, &dynamic));
    SPIRA__TRY(spira__opt_word(ctx, opts, "g3", g3_kernels, 1, &g3_vector));
    if (segment < 0 || segment > INT32_MAX)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG,
                            "suraa option segment=%ld: rows per segment, 1 or more (0: the "
                            "Freedman-Diaconis rule)", segment);
    if (children < 0 || children > 1 << 20)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG,
                            "suraa option children=%ld: 0 to 1048576 rows for dynamic "
                            "parallelism", children);
    if (dynamic != 0 && dynamic != 1)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "suraa option dynamic=%ld: 0 or 1",
                            dynamic);
    S->children = (int32_t)children;
    S->dynamic = (int32_t)dynamic;
    S->g3_scalar = !g3_vector;
    *segment_opt = (int32_t)segment;
    return SPIRA_OK;
}

static spira_status suraa_convert(spira_context ctx, const spira__csr *A, const char *opts,
                                  void **layout)
{
    *layout = NULL;
    spira__suraa o = {0};
    int32_t segment;
    SPIRA__TRY(spira__suraa_options(ctx, opts, &o, &segment));
    spira__suraa *S = spira__calloc(1, sizeof *S);
    if (!S) return spira__nomem(ctx, "SURAA layout", sizeof *S);
    S->nrows = A->nrows;
    S->ncols = A->ncols;
    S->nnz = A->nnz;
    S->dtype = A->dtype;
    S->children = o.children;
    S->dynamic = o.dynamic;
    S->g3_scalar = o.g3_scalar;
    spira_status s = spira__alloc(ctx, (void **)&S->row_ptr, (size_t)A->nrows + 1,
                                  sizeof(int32_t), "SURAA row pointers");
    if (s == SPIRA_OK)
        s = spira__alloc(ctx, (void **)&S->col_idx, (size_t)A->nnz, sizeof(int32_t),
                         "SURAA column indices");
    if (s == SPIRA_OK)
        s = spira__alloc(ctx, &S->val, (size_t)A->nnz, spira_dtype_size(A->dtype), "SURAA values");
    if (s == SPIRA_OK)
        s = spira__alloc(ctx, (void **)&S->perm, (size_t)A->nrows, sizeof(int32_t),
                         "SURAA row permutation");
    if (s == SPIRA_OK) s = sort_rows(ctx, A, S);
    if (s != SPIRA_OK) {
        suraa_destroy(S);
        return s;
    }
    const int32_t m = A->nrows;
    spira__suraa_size_segments(S, segment, m ? npr_at(S, m / 4) : 0,
                               m ? npr_at(S, (int32_t)((int64_t)3 * m / 4)) : 0);
    group_segments(S);
    spira__suraa_describe(S);
    *layout = S;
    return SPIRA_OK;
}

/* The launches in order, each row's sum to y[perm[i]]. */
#define SPIRA__SURAA_BODY(T)                                                             \
    do {                                                                                 \
        const T *v = (const T *)S->val, *xx = (const T *)x;                              \
        T *yy = (T *)y;                                                                  \
        for (int32_t l = 0; l < S->nlaunch; l++)                                         \
            for (int32_t i = S->launch[l].first; i < S->launch[l].end; i++) {            \
                T sum = 0;                                                               \
                for (int32_t k = S->row_ptr[i]; k < S->row_ptr[i + 1]; k++)              \
                    sum += v[k] * xx[S->col_idx[k]];                                     \
                const int32_t r = S->perm[i];                                            \
                yy[r] = beta == 0 ? (T)(alpha * sum) : (T)(alpha * sum + beta * yy[r]);  \
            }                                                                            \
    } while (0)

static void suraa_apply(const void *layout, double alpha, const void *x, double beta,
                        void *y)
{
    const spira__suraa *S = (const spira__suraa *)layout;
    if (S->dtype == SPIRA_R64) SPIRA__SURAA_BODY(double);
    else SPIRA__SURAA_BODY(float);
}

static size_t suraa_bytes(const void *layout)
{
    const spira__suraa *S = (const spira__suraa *)layout;
    return spira__suraa_bytes_of(S->nrows, S->nnz, S->dtype);
}

static const char *suraa_stats(const void *layout)
{
    return ((const spira__suraa *)layout)->stats;
}

extern const spira__format_gpu spira__suraa_gpu;

const spira__format spira__suraa_format = {
    .name = "suraa",
    .description = "rows sorted by length, Freedman-Diaconis segments (at least 32 rows), each "
                   "to a kernel by its mean: V lanes a row under 32 (g3=scalar: a thread, as "
                   "the paper), Y threads a row from 32, and for the longest rows (up to "
                   "children=2048) dynamic parallelism with dynamic=1 (a build option); a "
                   "stream per launch (Muhammed et al. 2019; segment=N); deterministic",
    .options = "segment children dynamic g3",
    .convert = suraa_convert,
    .apply = suraa_apply,
    .bytes = suraa_bytes,
    .destroy = suraa_destroy,
    .stats = suraa_stats,
    .gpu = SPIRA__GPU(&spira__suraa_gpu),
};
