/*
 * ilut.c - ILUT(tau, fill), the dual-threshold incomplete LU (Saad, "ILUT: a dual
 * threshold incomplete LU factorization", Numer. Linear Algebra Appl. 1(4), 1994; Saad,
 * "Iterative Methods for Sparse Linear Systems", 2nd ed., Algorithm 10.6), of P A.
 *
 * Row by row: load row i into a dense work row w, then for each column k < i holding a
 * nonzero, in increasing order (fill-in found on the way included, hence the heap),
 * l = w(k) / u(k,k); drop it when |l| < tau ||a_i||_2, else w -= l * (row k of U). Then
 * drop what is below tau ||a_i||_2 and keep the p largest of L's part and the p largest of
 * U's part, with p = ceil(fill * nnz(a_i) / 2): the factor has at most about fill * nnz(A)
 * entries. The diagonal is always kept; a zero one is a breakdown. Unlike ILU(0) the
 * pattern is the factor's own, so the rows are appended to growing arrays.
 */
#include "ilu.h"

#include <math.h>
#include <stdlib.h>

/* A binary min-heap of column indices (the columns left of the diagonal still to
 * eliminate). */
typedef struct {
    int32_t *a;
    int32_t n;
} col_heap;

static void heap_push(col_heap *h, int32_t v)
{
    int32_t i = h->n++;
    for (; i > 0 && h->a[(i - 1) / 2] > v; i = (i - 1) / 2) h->a[i] = h->a[(i - 1) / 2];
    h->a[i] = v;
}

static int32_t heap_pop(col_heap *h)
{
    int32_t top = h->a[0], last = h->a[--h->n], i = 0;
    for (;;) {
        int32_t c = 2 * i + 1;
        if (c >= h->n) break;
        if (c + 1 < h->n && h->a[c + 1] < h->a[c]) c++;
        if (h->a[c] >= last) break;
        h->a[i] = h->a[c];
        i = c;
    }
    if (h->n) h->a[i] = last;
    return top;
}

typedef struct {
    double mag;
    int32_t col;
} entry;

/* largest first; ties by column, so the choice does not depend on the qsort */
static int by_magnitude_desc(const void *x, const void *y)
{
    const entry *a = x, *b = y;
    if (a->mag != b->mag) return (a->mag < b->mag) - (a->mag > b->mag);
    return (a->col > b->col) - (a->col < b->col);
}

static int by_column(const void *x, const void *y)
{
    int32_t a = ((const entry *)x)->col, b = ((const entry *)y)->col;
    return (a > b) - (a < b);
}

/* The factor's rows so far, in double, growing. */
typedef struct {
    int32_t *col;
    double *val;
    size_t len, cap;
} rows;

static spira_status rows_reserve(spira_context ctx, rows *r, size_t more)
{
    if (r->len + more <= r->cap) return SPIRA_OK;
    size_t cap = 2 * r->cap > r->len + more ? 2 * r->cap : r->len + more;
    if (cap > INT32_MAX)
        return spira__error(ctx, SPIRA_ERR_UNSUPPORTED,
                            "ILUT factor exceeds 32-bit indices (%zu entries); lower the fill",
                            cap);
    int32_t *c = spira__realloc(r->col, cap * sizeof *c);
    if (!c) return spira__nomem(ctx, "ILUT factor", cap * sizeof *c);
    r->col = c;
    double *v = spira__realloc(r->val, cap * sizeof *v);
    if (!v) return spira__nomem(ctx, "ILUT factor", cap * sizeof *v);
    r->val = v;
    r->cap = cap;
    return SPIRA_OK;
}

/* Work space of one factorization. */
typedef struct {
    double *w;      /* dense row, 0 outside the row's nonzeros */
    int32_t *pos;   /* 1 where w holds a nonzero of the row, else 0 */
    int32_t *nz;    /* the row's columns, unordered */
    int32_t nnz;
    col_heap left;  /* columns < i to eliminate */
    entry *keep;    /* candidates for L's or U's part */
} work;

static void row_add(work *k, int32_t j, double v, int32_t i)
{
    k->pos[j] = 1;
    k->w[j] = v;
    k->nz[k->nnz++] = j;
    if (j < i) heap_push(&k->left, j);
}

/* Append the p largest |w(j)| >= drop with lo <= j < hi, in column order. */
static void keep_largest(work *k, rows *out, int32_t lo, int32_t hi, double drop, int32_t p)
{
    int32_t m = 0;
    for (int32_t t = 0; t < k->nnz; t++) {
        int32_t j = k->nz[t];
        double a = fabs(k->w[j]);
        if (j >= lo && j < hi && a >= drop && a > 0) k->keep[m++] = (entry){a, j};
    }
    if (m > p) {
        qsort(k->keep, (size_t)m, sizeof *k->keep, by_magnitude_desc);
        m = p;
    }
    qsort(k->keep, (size_t)m, sizeof *k->keep, by_column);
    for (int32_t t = 0; t < m; t++) {
        out->col[out->len] = k->keep[t].col;
        out->val[out->len++] = k->w[k->keep[t].col];
    }
}

static spira_status factor(spira_context ctx, const spira__csr *A, double tau, double fill,
                           const double *dr, const double *dc, spira__ilu_factor *f, work *k,
                           rows *out)
{
    int32_t n = A->nrows;
    int32_t *rp = f->lu.row_ptr;
    rp[0] = 0;
    for (int32_t i = 0; i < n; i++) {
        int32_t r = f->perm ? f->perm[i] : i;
        double norm = 0;
        k->nnz = 0;
        for (int32_t q = A->row_ptr[r]; q < A->row_ptr[r + 1]; q++) {
            double a = spira__get(A->val, A->dtype, q);
            if (dr) a *= dr[r] * dc[A->col_idx[q]];
            norm += a * a;
            row_add(k, A->col_idx[q], a, i);
        }
        if (!k->pos[i]) row_add(k, i, 0, i);
        double drop = tau * sqrt(norm);
        while (k->left.n > 0) {
            int32_t c = heap_pop(&k->left);
            if (k->w[c] == 0) continue;
            double l = k->w[c] / out->val[f->diag[c]];
            if (fabs(l) < drop) {
                k->w[c] = 0;
                continue;
            }
            k->w[c] = l;
            for (int32_t q = f->diag[c] + 1; q < rp[c + 1]; q++) {
                int32_t j = out->col[q];
                if (!k->pos[j]) row_add(k, j, 0, i);
                k->w[j] -= l * out->val[q];
            }
        }
        double piv = k->w[i];
        int32_t p = (int32_t)ceil(fill * (A->row_ptr[r + 1] - A->row_ptr[r]) / 2.0);
        if (p < 1) p = 1;
        spira_status s = rows_reserve(ctx, out, 2 * (size_t)p + 1);
        if (s == SPIRA_OK && (piv == 0 || !isfinite(piv)))
            s = spira__error(ctx, SPIRA_ERR_BREAKDOWN,
                             "ILUT breaks down: pivot %g at row %d (1-based%s); try a smaller "
                             "drop tolerance or a larger fill",
                             piv, i + 1, f->perm ? ", after the row permutation" : "");
        if (s == SPIRA_OK) {
            keep_largest(k, out, 0, i, drop, p);
            f->diag[i] = (int32_t)out->len;
            out->col[out->len] = i;
            out->val[out->len++] = piv;
            keep_largest(k, out, i + 1, n, drop, p);
            rp[i + 1] = (int32_t)out->len;
        }
        for (int32_t t = 0; t < k->nnz; t++) {
            k->w[k->nz[t]] = 0;
            k->pos[k->nz[t]] = 0;
        }
        if (s != SPIRA_OK) return s;
    }
    return SPIRA_OK;
}

/* L U ~ S P A Dc, S = the scales of P A's rows, becomes (S^-1 L S)(S^-1 U Dc^-1) ~ P A:
 * still unit lower times upper, so the apply does not know about the scaling. */
static void unscale(const spira__ilu_factor *f, rows *out, const double *dr, const double *dc)
{
    const int32_t *rp = f->lu.row_ptr;
    for (int32_t i = 0; i < f->lu.nrows; i++) {
        double si = dr[f->perm[i]];
        for (int32_t q = rp[i]; q < rp[i + 1]; q++) {
            int32_t j = out->col[q];
            if (j < i) out->val[q] *= dr[f->perm[j]] / si;
            else out->val[q] /= si * dc[j];
        }
    }
}

spira_status spira__ilut_factor(spira_context ctx, const spira__csr *A, double tau, double fill,
                                const double *dr, const double *dc, spira__ilu_factor *f)
{
    size_t n = (size_t)A->nrows;
    work k = {0};
    rows out = {0};
    f->lu = (spira__csr){.nrows = A->nrows, .ncols = A->ncols, .dtype = A->dtype};
    spira_status s = spira__alloc(ctx, (void **)&f->lu.row_ptr, n + 1, sizeof(int32_t),
                                  "ILUT factor");
    if (s == SPIRA_OK)
        s = spira__alloc(ctx, (void **)&f->diag, n, sizeof *f->diag, "ILUT diagonal positions");
    if (s == SPIRA_OK) s = spira__alloc(ctx, (void **)&k.w, n, sizeof *k.w, "ILUT work");
    if (s == SPIRA_OK) s = spira__alloc(ctx, (void **)&k.pos, n, sizeof *k.pos, "ILUT work");
    if (s == SPIRA_OK) s = spira__alloc(ctx, (void **)&k.nz, n, sizeof *k.nz, "ILUT work");
    if (s == SPIRA_OK)
        s = spira__alloc(ctx, (void **)&k.left.a, n, sizeof *k.left.a, "ILUT work");
    if (s == SPIRA_OK) s = spira__alloc(ctx, (void **)&k.keep, n, sizeof *k.keep, "ILUT work");
    if (s == SPIRA_OK) s = rows_reserve(ctx, &out, (size_t)A->nnz + n);
    if (s == SPIRA_OK) {
        for (size_t j = 0; j < n; j++) {
            k.w[j] = 0;
            k.pos[j] = 0;
        }
        s = factor(ctx, A, tau, fill, dr, dc, f, &k, &out);
    }
    if (s == SPIRA_OK && dr) unscale(f, &out, dr, dc);
    if (s == SPIRA_OK) {
        f->lu.nnz = (int32_t)out.len;
        f->lu.col_idx = out.col;
        out.col = NULL;
        s = spira__alloc(ctx, &f->lu.val, out.len, spira_dtype_size(A->dtype), "ILUT factor");
    }
    if (s == SPIRA_OK)
        for (size_t q = 0; q < out.len; q++)
            spira__set(f->lu.val, A->dtype, (int64_t)q, out.val[q]);
    spira__free(out.col);
    spira__free(out.val);
    spira__free(k.w);
    spira__free(k.pos);
    spira__free(k.nz);
    spira__free(k.left.a);
    spira__free(k.keep);
    return s;
}
