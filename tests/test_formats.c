/*
 * test_formats.c - the Bell & Garland formats' host side: the layouts each conversion
 * builds (contents and bytes()), the documented refusals of ELL and DIA with their numbers,
 * the HYB width rule on hand-computed histograms, the csr-vector width rule, option
 * errors, failure injection in every conversion, SELL-C-sigma's sort, slices and padding,
 * the merge path's search and shares, every format and variant multiplying the awkward
 * shapes through spira_spmv on the CPU (so through each layout's CPU apply) and refusing
 * exactly the shapes listed for it, sell and merge on the bundled matrices, and auto's
 * statistics, rules and trial. One test case per format family, one for auto, one for
 * what every format shares.
 */
#include "testutil.h"
#include "auto.h"
#include "cost.h"
#include "cmrs.h"
#include "coo.h"
#include "csr_vector.h"
#include "dia.h"
#include "ell.h"
#include "hyb.h"
#include "lightspmv.h"
#include "merge.h"
#include "sell.h"
#include "suraa.h"
#include "spmv.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A matrix whose row i holds lens[i] entries at columns (i + k) mod ncols, k < lens[i],
 * with fresh random values. */
static spira_matrix from_lengths(spira_context ctx, int32_t nrows, int32_t ncols,
                                 const int32_t *lens, spira_dtype t)
{
    int64_t nnz = 0;
    for (int32_t i = 0; i < nrows; i++) nnz += lens[i];
    int32_t *ri = malloc((size_t)(nnz + 1) * sizeof *ri), *ci = malloc((size_t)(nnz + 1) * sizeof *ci);
    double *v = malloc((size_t)(nnz + 1) * sizeof *v);
    ck_assert(ri && ci && v);
    unsigned st = tu_seed() ^ (unsigned)nnz;
    int64_t k = 0;
    for (int32_t i = 0; i < nrows; i++)
        for (int32_t j = 0; j < lens[i]; j++) {
            ri[k] = i;
            ci[k] = (int32_t)(((int64_t)i + j) % ncols);
            v[k++] = (float)tu_uniform(&st, 0.5, 1.5);
        }
    float *vf = malloc((size_t)(nnz + 1) * sizeof *vf);
    for (int64_t e = 0; e < nnz; e++) vf[e] = (float)v[e];
    spira_matrix A = NULL;
    spira_status rc = spira_matrix_from_coo(ctx, nrows, ncols, nnz, ri, ci,
                                            t == SPIRA_R64 ? (void *)v : (void *)vf, t, &A);
    ck_assert_msg(rc == SPIRA_OK, "%s", spira_last_error(ctx));
    free(ri), free(ci), free(v), free(vf);
    return A;
}

/* Convert A's CSR with format name directly (no plan), expecting status want. */
static void *convert(spira_context ctx, spira_matrix A, const char *name, const char *opts,
                     spira_status want)
{
    const spira__format *f = spira__format_find(name);
    ck_assert_ptr_nonnull(f);
    void *layout = NULL;
    spira_status rc = f->convert(ctx, &A->csr, opts, &layout);
    ck_assert_msg(rc == want, "%s '%s': %s, wanted %s (%s)", name, opts, spira_status_name(rc),
                  spira_status_name(want), spira_last_error(ctx));
    if (rc != SPIRA_OK) ck_assert_ptr_null(layout);
    return layout;
}

static void release(const char *name, void *layout)
{
    const spira__format *f = spira__format_find(name);
    if (f->destroy) f->destroy(layout);
}

/* The matrix bytes one multiply reads, as format name reports them for its layout. */
static size_t bytes_of(const char *name, const void *layout)
{
    return spira__format_find(name)->bytes(layout);
}

/* ---- ELL -------------------------------------------------------------------------------- */

/* 1000 x 1000, two entries a row, row 5 dense: K = 1000, 1e6 slots for 2998 nonzeros. The
 * default limit refuses with the numbers; the limit is inclusive (333 refuses 333.6x, 334
 * accepts), and an accepted plan multiplies correctly. */
/* The HYB width of A, asserting the computation succeeds. */
static int32_t hyb_width(spira_matrix A, long min_rows)
{
    int32_t K = -1;
    ck_assert_int_eq(spira__hyb_width(A->ctx, &A->csr, min_rows, &K), SPIRA_OK);
    return K;
}

START_TEST(ell_refuses_dense_row)
{
    spira_context ctx = tu_cpu();
    int32_t lens[1000];
    for (int i = 0; i < 1000; i++) lens[i] = i == 5 ? 1000 : 2;
    spira_matrix A = from_lengths(ctx, 1000, 1000, lens, SPIRA_R64);
    ck_assert_int_eq(A->csr.nnz, 2998);
    ck_assert_int_eq(spira_matrix_set_format(A, "ell", NULL), SPIRA_OK);
    ck_assert_int_eq(spira_matrix_prepare(A), SPIRA_ERR_UNSUPPORTED);
    tu_assert_error_has(ctx, "ell refuses: 1000 entries per row (the longest row) x 1000 rows = "
                          "1000000 stored slots, 333.6x the 2998 nonzeros (limit max_fill=3)");
    ck_assert_int_eq(spira_matrix_set_format(A, "ell", "max_fill=333"), SPIRA_OK);
    ck_assert_int_eq(spira_matrix_prepare(A), SPIRA_ERR_UNSUPPORTED);
    tu_assert_error_has(ctx, "limit max_fill=333)");
    ck_assert_int_eq(tu_check_format(ctx, A, "ell", "max_fill=334", "dense row", tu_seed()), 2);
    spira__ell *e = convert(ctx, A, "ell", "max_fill=334", SPIRA_OK);
    ck_assert_int_eq(e->K, 1000);
    ck_assert_int_eq(e->pitch, 1024);
    ck_assert_uint_eq(spira__ell_bytes(e), (size_t)1000 * 1024 * (4 + 8));
    release("ell", e);
    spira_matrix_destroy(A);
    spira_context_destroy(ctx);
}
END_TEST

/* 70000 x 40000 with a dense first row: within a lax fill limit, but 40000 x 70016 slots
 * overflow 32-bit indices: refused before a single allocation. */
START_TEST(ell_refuses_index_overflow)
{
    spira_context ctx = tu_cpu();
    int32_t *lens = malloc(70000 * sizeof *lens);
    for (int i = 0; i < 70000; i++) lens[i] = i == 0 ? 40000 : 1;
    spira_matrix A = from_lengths(ctx, 70000, 40000, lens, SPIRA_R32);
    free(lens);
    spira__alloc_fail_at(1000000000L); /* armed only to count allocations */
    convert(ctx, A, "ell", "max_fill=100000", SPIRA_ERR_UNSUPPORTED);
    long made = spira__alloc_count();
    spira__alloc_fail_at(0);
    ck_assert_int_eq(made, 0);
    tu_assert_error_has(ctx, "ell refuses: 40000 entries per row x 70016 padded rows = 2800640000 "
                          "slots exceed the 32-bit index range");
    /* HYB forced to that width hits the same check, under its own name */
    convert(ctx, A, "hyb", "ell_width=40000", SPIRA_ERR_UNSUPPORTED);
    tu_assert_error_has(ctx, "hyb refuses: 40000 entries per row");
    spira_matrix_destroy(A);
    spira_context_destroy(ctx);
}
END_TEST

/* The layout of a 100 x 100 tridiagonal matrix: K = 3, pitch 128, each row's entries in
 * column order down its slots, padding -1 / 0 at row ends and in the pitch rows. */
START_TEST(ell_layout_contents)
{
    spira_context ctx = tu_cpu();
    for (int p = 0; p < 2; p++) {
        spira_dtype t = p ? SPIRA_R32 : SPIRA_R64;
        spira_matrix A = tu_shape_matrix(ctx, &(tu_shape){"tridiagonal", 100, 100}, t, tu_seed());
        spira__ell *e = convert(ctx, A, "ell", NULL, SPIRA_OK);
        ck_assert_int_eq(e->K, 3);
        ck_assert_int_eq(e->pitch, 128);
        ck_assert_uint_eq(spira__ell_bytes(e), 3 * 128 * (4 + spira_dtype_size(t)));
        const spira__csr *c = &A->csr;
        for (int32_t i = 0; i < e->pitch; i++)
            for (int32_t k = 0; k < e->K; k++) {
                int32_t at = k * e->pitch + i;
                int32_t len = i < c->nrows ? c->row_ptr[i + 1] - c->row_ptr[i] : 0;
                if (k < len) {
                    ck_assert_int_eq(e->cols[at], c->col_idx[c->row_ptr[i] + k]);
                    ck_assert_double_eq(spira__get(e->vals, t, at),
                                        spira__get(c->val, t, c->row_ptr[i] + k));
                } else {
                    ck_assert_int_eq(e->cols[at], -1);
                    ck_assert_double_eq(spira__get(e->vals, t, at), 0.0);
                }
            }
        ck_assert_int_eq(e->cols[0 * 128 + 0], 0); /* row 0: columns 0, 1, padding */
        ck_assert_int_eq(e->cols[2 * 128 + 0], -1);
        ck_assert_int_eq(e->cols[2 * 128 + 50], 51); /* row 50: 49, 50, 51 */
        release("ell", e);
        spira_matrix_destroy(A);
    }
    spira_context_destroy(ctx);
}
END_TEST

/* ---- DIA -------------------------------------------------------------------------------- */

/* A random 500 x 500 matrix occupies hundreds of diagonals: refused with their count
 * (counted here independently) and the fill ratio. */
START_TEST(dia_refuses_random)
{
    spira_context ctx = tu_cpu();
    spira_matrix A = tu_shape_matrix(ctx, &tu_shapes[0], SPIRA_R64, tu_seed());
    ck_assert_str_eq(tu_shapes[0].name, "random");
    const spira__csr *c = &A->csr;
    char seen[999] = {0};
    int ndiag = 0;
    for (int32_t i = 0; i < c->nrows; i++)
        for (int32_t k = c->row_ptr[i]; k < c->row_ptr[i + 1]; k++)
            if (!seen[c->col_idx[k] - i + 499]++) ndiag++;
    ck_assert_int_gt(ndiag, 100);
    char want[200];
    snprintf(want, sizeof want,
             "dia refuses: %d occupied diagonals x 500 rows = %d stored slots, %.1fx the %d "
             "nonzeros (limit max_fill=3)",
             ndiag, ndiag * 500, ndiag * 500.0 / c->nnz, c->nnz);
    ck_assert_int_eq(spira_matrix_set_format(A, "dia", NULL), SPIRA_OK);
    double x[500], y[500];
    spira_vector vx, vy;
    spira_vector_create(ctx, 500, SPIRA_R64, &vx);
    spira_vector_create(ctx, 500, SPIRA_R64, &vy);
    for (int i = 0; i < 500; i++) x[i] = 1, y[i] = 7;
    spira_vector_set_f64(vx, x);
    spira_vector_set_f64(vy, y);
    ck_assert_int_eq(spira_spmv(1.0, A, vx, 0.0, vy), SPIRA_ERR_UNSUPPORTED);
    tu_assert_error_has(ctx, want);
    spira_vector_get_f64(vy, y);
    ck_assert_double_eq(y[0], 7); /* a refused SpMV leaves y alone */
    spira_vector_destroy(vx), spira_vector_destroy(vy);
    spira_matrix_destroy(A);
    spira_context_destroy(ctx);
}
END_TEST

/* Rectangular DIA: a wide 5 x 8 with offsets -2, 0, 3, 7 and a tall 8 x 5 with -7, -1, 0,
 * 4 (every diagonal clipped by the matrix' edge). Offsets ascending, slots hold A(i, i+off)
 * or 0, and both multiply correctly in both precisions. */
START_TEST(dia_rectangular)
{
    spira_context ctx = tu_cpu();
    const struct {
        int32_t m, n, offs[4], nnz;
    } cases[2] = {{5, 8, {-2, 0, 3, 7}, 14}, {8, 5, {-7, -1, 0, 4}, 12}};
    for (int cs = 0; cs < 2; cs++)
        for (int p = 0; p < 2; p++) {
            spira_dtype t = p ? SPIRA_R32 : SPIRA_R64;
            int32_t m = cases[cs].m, n = cases[cs].n, ri[64], ci[64];
            double v[64];
            int k = 0;
            for (int d = 0; d < 4; d++)
                for (int32_t i = 0; i < m; i++) {
                    int32_t j = i + cases[cs].offs[d];
                    if (j >= 0 && j < n) ri[k] = i, ci[k] = j, v[k] = 1 + i * 10 + j, k++;
                }
            ck_assert_int_eq(k, cases[cs].nnz);
            float vf[64];
            for (int e = 0; e < k; e++) vf[e] = (float)v[e];
            spira_matrix A;
            ck_assert_int_eq(spira_matrix_from_coo(ctx, m, n, k, ri, ci,
                                                   p ? (void *)vf : (void *)v, t, &A),
                             SPIRA_OK);
            spira__dia *d = convert(ctx, A, "dia", NULL, SPIRA_OK);
            ck_assert_int_eq(d->ndiag, 4);
            ck_assert_int_eq(d->pitch, 32);
            ck_assert_mem_eq(d->offsets, cases[cs].offs, sizeof cases[cs].offs);
            ck_assert_uint_eq(bytes_of("dia", d), 4 * 4 + 4 * 32 * spira_dtype_size(t));
            for (int dd = 0; dd < 4; dd++)
                for (int32_t i = 0; i < d->pitch; i++) {
                    int32_t j = i + cases[cs].offs[dd];
                    double want = i < m && j >= 0 && j < n ? 1 + i * 10 + j : 0;
                    ck_assert_double_eq(spira__get(d->data, t, dd * d->pitch + i), want);
                }
            release("dia", d);
            ck_assert_int_eq(tu_check_format(ctx, A, "dia", NULL, "rectangular dia", tu_seed()), 2);
            spira_matrix_destroy(A);
        }
    spira_context_destroy(ctx);
}
END_TEST

/* ---- HYB -------------------------------------------------------------------------------- */

/* Row lengths 1,1,1,1,2,2,2,2,5,5,5,9 (36 nonzeros): rows_ge(k) = 12, 8, 4, 4, 4, 1 for
 * k = 1..6. Without a floor, 3*rows_ge >= 12 holds up to k = 5: K = 5. With min_rows 5,
 * rows_ge(3) = 4 stops at K = 2; min_rows 4 gives 5 again; CUSP's 4096 gives 0. */
START_TEST(hyb_width_small_histogram)
{
    spira_context ctx = tu_cpu();
    int32_t lens[12] = {1, 1, 1, 1, 2, 2, 2, 2, 5, 5, 5, 9};
    spira_matrix A = from_lengths(ctx, 12, 20, lens, SPIRA_R64);
    ck_assert_int_eq(hyb_width(A, 0), 5);
    ck_assert_int_eq(hyb_width(A, 4), 5);
    ck_assert_int_eq(hyb_width(A, 5), 2);
    ck_assert_int_eq(hyb_width(A, SPIRA__HYB_MIN_ROWS), 0);
    /* the layouts: ELL 5 x pitch 32 and the 4 entries of the 9-row beyond column 5 */
    spira__hyb *h = convert(ctx, A, "hyb", "min_rows=0", SPIRA_OK);
    ck_assert_int_eq(h->ell.K, 5);
    ck_assert_int_eq(h->coo.nnz, 4);
    for (int k = 0; k < 4; k++) ck_assert_int_eq(h->coo.row[k], 11);
    ck_assert_int_eq(h->coo.col[0], (11 + 5) % 20);
    ck_assert_uint_eq(bytes_of("hyb", h), 5 * 32 * 12 + 4 * 16);
    release("hyb", h);
    /* forced widths: 3 leaves 2*3 + 6 = 12 in COO; beyond the longest row clamps to 9 */
    h = convert(ctx, A, "hyb", "ell_width=3", SPIRA_OK);
    ck_assert_int_eq(h->ell.K, 3);
    ck_assert_int_eq(h->coo.nnz, 12);
    ck_assert_uint_eq(bytes_of("hyb", h), 3 * 32 * 12 + 12 * 16);
    release("hyb", h);
    h = convert(ctx, A, "hyb", "ell_width=100", SPIRA_OK);
    ck_assert_int_eq(h->ell.K, 9);
    ck_assert_int_eq(h->coo.nnz, 0);
    release("hyb", h);
    /* the default: all COO */
    h = convert(ctx, A, "hyb", NULL, SPIRA_OK);
    ck_assert_int_eq(h->ell.K, 0);
    ck_assert_int_eq(h->coo.nnz, 36);
    ck_assert_uint_eq(bytes_of("hyb", h), 36 * 16);
    release("hyb", h);
    const char *variants[] = {NULL, "min_rows=0", "ell_width=3", "ell_width=100", "ell_width=0"};
    for (int i = 0; i < 5; i++)
        ck_assert_int_eq(tu_check_format(ctx, A, "hyb", variants[i], "hyb histogram", tu_seed()), 2);
    spira_matrix_destroy(A);
    spira_context_destroy(ctx);
}
END_TEST

/* The rule as hyb.h states it, by brute force: the largest K whose every column k <= K is
 * filled by 3 * rows_ge(k) >= nrows rows and by min_rows rows. */
static int32_t hyb_width_by_definition(const spira__csr *A, long min_rows)
{
    int32_t K = 0;
    for (int32_t k = 1;; k++) {
        int64_t ge = 0;
        for (int32_t i = 0; i < A->nrows; i++) ge += A->row_ptr[i + 1] - A->row_ptr[i] >= k;
        if (ge == 0 || 3 * ge < A->nrows || ge < min_rows) return K;
        K = k;
    }
}

/* The width from the histogram below its cap (what the GPU's conversion downloads) is the
 * rule's, on random row-length profiles (empty rows, equal rows, one long row, few rows,
 * heavy tails) and floors around the thresholds; and the cap stays above K and within
 * three mean rows (plus the one that always fails). Only row_ptr is read: no matrix made. */
START_TEST(hyb_width_capped_histogram)
{
    spira_context ctx = tu_cpu();
    unsigned st = tu_seed();
    for (int trial = 0; trial < 400; trial++) {
        const int32_t nrows = trial % 7 == 0 ? 1 + trial % 5 : 1 + (int32_t)tu_uniform(&st, 0, 300);
        const int32_t ncols = 1 + (int32_t)tu_uniform(&st, 0, 2000);
        int32_t *rp = malloc(((size_t)nrows + 1) * sizeof *rp);
        rp[0] = 0;
        const int kind = trial % 5;
        for (int32_t i = 0; i < nrows; i++) {
            double u = tu_uniform(&st, 0, 1);
            int32_t len = kind == 0 ? (int32_t)(u * 12)                    /* uniform, empty rows */
                        : kind == 1 ? 7                                    /* equal */
                        : kind == 2 ? (i == nrows / 2 ? ncols : (int32_t)(u * 4)) /* one long row */
                        : kind == 3 ? (int32_t)(1.0 / (0.01 + u * u))     /* heavy tail */
                                    : (u < 0.6 ? 0 : (int32_t)(u * 30));  /* mostly empty */
            if (len > ncols) len = ncols;
            rp[i + 1] = rp[i] + len;
        }
        spira__csr A = {nrows, ncols, rp[nrows], SPIRA_R64, rp, NULL, NULL};
        const long floors[] = {0, 1, 2, (nrows + 2) / 3, nrows / 2, nrows, nrows + 1,
                               SPIRA__HYB_MIN_ROWS};
        for (int f = 0; f < 8; f++) {
            int32_t K = -1;
            ck_assert_int_eq(spira__hyb_width(ctx, &A, floors[f], &K), SPIRA_OK);
            ck_assert_msg(K == hyb_width_by_definition(&A, floors[f]),
                          "trial %d (%d rows, %d nonzeros), min_rows %ld: K %d, the rule's %d",
                          trial, nrows, A.nnz, floors[f], K,
                          hyb_width_by_definition(&A, floors[f]));
            const int32_t cap = spira__hyb_hist_cap(&A, floors[f]);
            ck_assert(cap == 0 ? K == 0 : K < cap);
            ck_assert_int_le(cap, 3 * (int64_t)A.nnz / nrows + 2);
        }
        free(rp);
    }
    spira_context_destroy(ctx);
}
END_TEST

/* 6000 rows: 4000 of length 2 and 2000 of length 6. The third-of-the-rows rule alone takes
 * all 6 columns (3 * 2000 >= 6000); CUSP's 4096-row floor stops at 2. With one row moved
 * to the short side (1999 long rows) 3 * 1999 < 6000 stops at 2 without the floor too. */
START_TEST(hyb_width_floor)
{
    spira_context ctx = tu_cpu();
    int32_t *lens = malloc(6000 * sizeof *lens);
    for (int i = 0; i < 6000; i++) lens[i] = i % 3 == 2 ? 6 : 2;
    spira_matrix A = from_lengths(ctx, 6000, 6000, lens, SPIRA_R32);
    ck_assert_int_eq(hyb_width(A, SPIRA__HYB_MIN_ROWS), 2);
    ck_assert_int_eq(hyb_width(A, 0), 6);
    ck_assert_int_eq(hyb_width(A, 2000), 6);
    ck_assert_int_eq(hyb_width(A, 2001), 2);
    spira__hyb *h = convert(ctx, A, "hyb", NULL, SPIRA_OK);
    ck_assert_int_eq(h->ell.K, 2);
    ck_assert_int_eq(h->coo.nnz, 2000 * 4);
    release("hyb", h);
    spira_matrix_destroy(A);
    lens[2] = 2;
    A = from_lengths(ctx, 6000, 6000, lens, SPIRA_R32);
    ck_assert_int_eq(hyb_width(A, 0), 2);
    ck_assert_int_eq(tu_check_format(ctx, A, "hyb", NULL, "hyb floor", tu_seed()), 2);
    spira_matrix_destroy(A);
    free(lens);
    spira_context_destroy(ctx);
}
END_TEST

/* ---- csr-vector, COO and sizes ------------------------------------------------------------ */

START_TEST(csr_vector_lanes_rule)
{
    const struct {
        double mean;
        int v;
    } t[] = {{0, 2},  {0.5, 2}, {1, 2},   {2, 2},    {2.01, 4}, {3, 4},  {4, 4},
             {4.5, 8}, {8, 8},  {9, 16},  {16, 16},  {16.5, 32}, {32, 32}, {1000, 32}};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        ck_assert_msg(spira__csr_vector_lanes(t[i].mean) == t[i].v, "mean %g: V %d, wanted %d",
                      t[i].mean, spira__csr_vector_lanes(t[i].mean), t[i].v);
}
END_TEST

/* The COO of a whole matrix borrows the CSR's columns and values and expands row_ptr. */
START_TEST(coo_layout_contents)
{
    spira_context ctx = tu_cpu();
    spira_matrix A = tu_shape_matrix(ctx, &tu_shapes[3], SPIRA_R32, tu_seed()); /* empty rows */
    const spira__csr *c = &A->csr;
    spira__coo *o = convert(ctx, A, "coo", "interval=64", SPIRA_OK);
    ck_assert_int_eq(o->nnz, c->nnz);
    ck_assert_ptr_eq(o->col, c->col_idx);
    ck_assert_ptr_eq(o->val, c->val);
    ck_assert_int_eq(o->interval, 64);
    for (int32_t i = 0; i < c->nrows; i++)
        for (int32_t k = c->row_ptr[i]; k < c->row_ptr[i + 1]; k++) ck_assert_int_eq(o->row[k], i);
    ck_assert_uint_eq(spira__coo_bytes(o), (size_t)c->nnz * 12);
    release("coo", o);
    spira_matrix_destroy(A);
    spira_context_destroy(ctx);
}
END_TEST

/* ---- CMRS ------------------------------------------------------------------------------- */

/* Strips of a 10-row matrix (the last strip short) for every height: strip_ptr is row_ptr
 * at every height-th row, the values are A's own, and entry k's word is A's column k with
 * its row's place in the strip. */
START_TEST(cmrs_layout_contents)
{
    spira_context ctx = tu_cpu();
    const int32_t lens[10] = {3, 0, 5, 1, 2, 7, 0, 0, 4, 2};
    spira_matrix A = from_lengths(ctx, 10, 12, lens, SPIRA_R64);
    const spira__csr *c = &A->csr;
    for (int h = 1; h <= 16; h *= 2) {
        char opts[16];
        snprintf(opts, sizeof opts, "height=%d", h);
        spira__cmrs *C = convert(ctx, A, "cmrs", opts, SPIRA_OK);
        ck_assert_int_eq(C->height, h);
        ck_assert_int_eq(C->nstrips, (10 + h - 1) / h);
        ck_assert_int_eq(C->strip_ptr[C->nstrips], c->nnz);
        ck_assert_ptr_eq(C->val, c->val);
        for (int32_t s = 0; s < C->nstrips; s++) {
            ck_assert_int_eq(C->strip_ptr[s], c->row_ptr[s * h]);
            for (int32_t i = s * h; i < (s + 1) * h && i < 10; i++)
                for (int32_t k = c->row_ptr[i]; k < c->row_ptr[i + 1]; k++)
                    ck_assert_uint_eq(C->packed[k], (uint32_t)c->col_idx[k] << 4 | (uint32_t)(i - s * h));
        }
        ck_assert_uint_eq(bytes_of("cmrs", C), (size_t)(C->nstrips + 1) * 4 + (size_t)c->nnz * 12);
        release("cmrs", C);
    }
    spira_matrix_destroy(A);
    spira_context_destroy(ctx);
}
END_TEST

/* 2^28 + 1 columns leave no room for the row within the strip: refused with the numbers,
 * before anything is allocated; 2^28 columns fit. */
START_TEST(cmrs_refuses_wide)
{
    spira_context ctx = tu_cpu();
    const int32_t lens[3] = {1, 2, 1};
    for (int extra = 0; extra < 2; extra++) {
        spira_matrix A = from_lengths(ctx, 3, SPIRA__CMRS_MAX_COLS + extra, lens, SPIRA_R32);
        spira__alloc_fail_at(1000000000L); /* armed only to count allocations */
        void *C = convert(ctx, A, "cmrs", NULL, extra ? SPIRA_ERR_UNSUPPORTED : SPIRA_OK);
        long made = spira__alloc_count();
        spira__alloc_fail_at(0);
        if (extra) {
            ck_assert_int_eq(made, 0);
            tu_assert_error_has(ctx, "cmrs: 268435457 columns do not fit the 28 bits beside the row "
                                  "within the strip (at most 268435456)");
        } else {
            release("cmrs", C);
        }
        spira_matrix_destroy(A);
    }
    spira_context_destroy(ctx);
}
END_TEST

/* ---- SURAA ------------------------------------------------------------------------------ */

/* 10 rows of 1500 entries, 40 of 100 and 150 of 3, interleaved: the rows sorted longest
 * first (ties by first column), each a copy of its row of A; the groups and launches the
 * options give; bytes. */
START_TEST(suraa_layout_contents)
{
    spira_context ctx = tu_cpu();
    int32_t lens[200];
    for (int i = 0; i < 200; i++) lens[i] = i % 20 == 7 ? 1500 : i % 5 == 1 ? 100 : 3;
    spira_matrix A = from_lengths(ctx, 200, 3000, lens, SPIRA_R64);
    const spira__csr *c = &A->csr;
    const struct {
        const char *opts;
        int32_t segment, g1, g2, g3, nlaunch;
        spira__suraa_launch l[3];
    } want[] = {
        /* IQR 0 (the middle half are rows of 3): the 32-row floor; two segments of mean
         * > 32 (537.5 and 57.6: Y 288 and 32); rows of 3 take a thread each */
        {"", 32, 64, 0, 136, 3,
         {{SPIRA__SURAA_VECTOR, 0, 32, 288}, {SPIRA__SURAA_VECTOR, 32, 64, 32}, {SPIRA__SURAA_SUBWARP, 64, 200, 1}}},
        {"dynamic=1,g3=scalar", 32, 64, 0, 136, 2,
         {{SPIRA__SURAA_DYNAMIC, 0, 64, 0}, {SPIRA__SURAA_SUBWARP, 64, 200, 1}}},
        {"segment=10,children=15,dynamic=1", 10, 10, 40, 150, 3,
         {{SPIRA__SURAA_DYNAMIC, 0, 10, 0}, {SPIRA__SURAA_VECTOR, 10, 50, 64}, {SPIRA__SURAA_SUBWARP, 50, 200, 1}}},
        {"segment=10", 10, 50, 0, 150, 3,
         {{SPIRA__SURAA_VECTOR, 0, 10, 768}, {SPIRA__SURAA_VECTOR, 10, 50, 64}, {SPIRA__SURAA_SUBWARP, 50, 200, 1}}},
        {"segment=10,children=0,dynamic=1", 10, 0, 50, 150, 3,
         {{SPIRA__SURAA_VECTOR, 0, 10, 768}, {SPIRA__SURAA_VECTOR, 10, 50, 64}, {SPIRA__SURAA_SUBWARP, 50, 200, 1}}},
    };
    for (size_t w = 0; w < sizeof want / sizeof want[0]; w++) {
        spira__suraa *S = convert(ctx, A, "suraa", want[w].opts, SPIRA_OK);
        ck_assert_double_eq(S->fd_rows, 0);
        ck_assert_int_eq(S->segment, want[w].segment);
        ck_assert_int_eq(S->group_rows[0], want[w].g1);
        ck_assert_int_eq(S->group_rows[1], want[w].g2);
        ck_assert_int_eq(S->group_rows[2], want[w].g3);
        ck_assert_int_eq(S->nlaunch, want[w].nlaunch);
        for (int32_t l = 0; l < S->nlaunch; l++)
            ck_assert_msg(!memcmp(&S->launch[l], &want[w].l[l], sizeof S->launch[l]),
                          "'%s' launch %d: kind %d rows %d..%d Y %d", want[w].opts, l,
                          S->launch[l].kind, S->launch[l].first, S->launch[l].end,
                          S->launch[l].threads);
        char seen[200] = {0};
        for (int32_t i = 0; i < 200; i++) {
            const int32_t r = S->perm[i], n = S->row_ptr[i + 1] - S->row_ptr[i];
            ck_assert(r >= 0 && r < 200 && !seen[r]);
            seen[r] = 1;
            ck_assert_int_eq(n, lens[r]);
            if (i > 0) { /* longest first, then by first column (here: by row) */
                const int32_t np = S->row_ptr[i] - S->row_ptr[i - 1];
                ck_assert(np > n || (np == n && S->col_idx[S->row_ptr[i - 1]] < S->col_idx[S->row_ptr[i]]));
            }
            for (int32_t k = 0; k < n; k++) {
                ck_assert_int_eq(S->col_idx[S->row_ptr[i] + k], c->col_idx[c->row_ptr[r] + k]);
                ck_assert_double_eq(spira__get(S->val, SPIRA_R64, S->row_ptr[i] + k),
                                    spira__get(c->val, SPIRA_R64, c->row_ptr[r] + k));
            }
        }
        ck_assert_uint_eq(bytes_of("suraa", S), (size_t)(201 + 200) * 4 + (size_t)c->nnz * 12);
        release("suraa", S);
    }
    /* G3 rows of 20: 32 lanes by csr-vector's rule, or a thread with g3=scalar */
    int32_t twenty[100];
    for (int i = 0; i < 100; i++) twenty[i] = 20;
    spira_matrix B = from_lengths(ctx, 100, 100, twenty, SPIRA_R64);
    for (int scalar = 0; scalar < 2; scalar++) {
        spira__suraa *S = convert(ctx, B, "suraa", scalar ? "g3=scalar" : "", SPIRA_OK);
        const spira__suraa_launch l = {SPIRA__SURAA_SUBWARP, 0, 100, scalar ? 1 : 32};
        ck_assert_int_eq(S->nlaunch, 1);
        ck_assert(!memcmp(&S->launch[0], &l, sizeof l));
        release("suraa", S);
    }
    spira_matrix_destroy(B);
    /* Y: half the row rounded up to a warp, 32 to 1024 */
    const int64_t npr[] = {0, 1, 65, 66, 100, 1500, 2048, 2049, 1 << 30};
    const int32_t y[] = {32, 32, 32, 64, 64, 768, 1024, 1024, 1024};
    for (int i = 0; i < 9; i++) ck_assert_int_eq(spira__suraa_threads(npr[i]), y[i]);
    spira_matrix_destroy(A);
    spira_context_destroy(ctx);
}
END_TEST

/* The Freedman-Diaconis segment when it is above the floor: lengths 1..4096 (each once),
 * IQR 2048 over m = 4096 rows gives 2 * 2048 / 16 = 256 rows. */
START_TEST(suraa_freedman_diaconis)
{
    spira_context ctx = tu_cpu();
    static int32_t lens[4096];
    for (int i = 0; i < 4096; i++) lens[i] = (i * 1031) % 4096 + 1; /* 1..4096, shuffled */
    spira_matrix A = from_lengths(ctx, 4096, 4096, lens, SPIRA_R32);
    spira__suraa *S = convert(ctx, A, "suraa", NULL, SPIRA_OK);
    ck_assert_double_eq_tol(S->fd_rows, 256, 1e-9);
    ck_assert_int_eq(S->segment, 256);
    /* the first 8 segments (2048 rows, means > 32) fill the children; the next 7 have means
     * of 1920.5 .. 384.5 (G2), the last, rows 1..256 (mean 128.5), too, so G3 is empty */
    ck_assert_int_eq(S->group_rows[0], 2048);
    ck_assert_int_eq(S->group_rows[1], 2048);
    ck_assert_int_eq(S->group_rows[2], 0);
    ck_assert_ptr_nonnull(strstr(S->stats, "segments of 256 rows (Freedman-Diaconis 256.00); "
                                           "rows G1 2048 (vector), G2 2048, G3 0 (sub-warp)"));
    release("suraa", S);
    spira_matrix_destroy(A);
    spira_context_destroy(ctx);
}
END_TEST

/* What suraa's conversion on the GPU (suraa_convert_gpu.cu) rebuilds the launches from,
 * checked against the host's on every shape and option: each (kind, threads) is one launch
 * (its segments one contiguous run), launches start on segment boundaries, and a segment is
 * in G1 exactly when its own mean is over 32 and its end within `children`. */
START_TEST(suraa_runs_are_contiguous)
{
    spira_context ctx = tu_cpu();
    static const char *const opts[] = {NULL, "segment=1", "segment=7,children=5", "g3=scalar",
                                       "children=0", "dynamic=1", "segment=3,children=100000"};
    static int32_t lens[2048]; /* every length 1..2048 once: the rule gives 161-row segments */
    for (int i = 0; i < 2048; i++) lens[i] = (i * 1031) % 2048 + 1;
    for (int k = 0; k <= tu_nshapes; k++) {
        spira_matrix A = k < tu_nshapes ? tu_shape_matrix(ctx, &tu_shapes[k], SPIRA_R64, tu_seed())
                                        : from_lengths(ctx, 2048, 2048, lens, SPIRA_R64);
        for (size_t o = 0; o < sizeof opts / sizeof opts[0]; o++) {
            spira__suraa *S = convert(ctx, A, "suraa", opts[o], SPIRA_OK);
            for (int l = 0; l < S->nlaunch; l++) {
                const spira__suraa_launch *a = &S->launch[l];
                ck_assert_int_eq(a->first % S->segment, 0);
                ck_assert_int_eq(a->end, l + 1 < S->nlaunch ? S->launch[l + 1].first : S->nrows);
                for (int b = 0; b < l; b++)
                    ck_assert_msg(S->launch[b].kind != a->kind ||
                                      S->launch[b].threads != a->threads,
                                  "launches %d and %d share kind %d, threads %d", b, l, a->kind,
                                  a->threads);
            }
            int32_t g[3] = {0, 0, 0};
            for (int32_t first = 0; first < S->nrows; first += S->segment) {
                const int32_t end = first + S->segment < S->nrows ? first + S->segment : S->nrows;
                const double mean = (double)(S->row_ptr[end] - S->row_ptr[first]) / (end - first);
                g[mean > 32 && end <= S->children ? 0 : mean >= 32 ? 1 : 2] += end - first;
            }
            ck_assert_msg(memcmp(g, S->group_rows, sizeof g) == 0,
                          "shape %d, %s: groups %d/%d/%d by each segment alone, %d/%d/%d", k,
                          opts[o] ? opts[o] : "", g[0], g[1], g[2], S->group_rows[0],
                          S->group_rows[1], S->group_rows[2]);
            release("suraa", S);
        }
        spira_matrix_destroy(A);
    }
    spira_context_destroy(ctx);
}
END_TEST

/* LightSpMV's layout: the level, V (the csr-vector rule unless lanes= gives it) and the
 * batch (0 without the option: chosen on the device at upload). */
START_TEST(lightspmv_options)
{
    spira_context ctx = tu_cpu();
    spira_matrix A = tu_shape_matrix(ctx, &(tu_shape){"tridiagonal", 100, 100}, SPIRA_R64, tu_seed());
    const struct {
        const char *opts;
        int warp, lanes, batch;
    } t[] = {
        {NULL, 1, 4, 0},        {"level=vector", 0, 4, 0}, {"lanes=32,batch=32", 1, 32, 32},
        {"lanes=2,batch=1", 1, 2, 1}, {"level=vector,lanes=16", 0, 16, 0},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        spira__lightspmv *L = convert(ctx, A, "lightspmv", t[i].opts, SPIRA_OK);
        ck_assert_ptr_eq(L->csr, &A->csr);
        ck_assert_msg(L->warp_level == t[i].warp && L->lanes == t[i].lanes && L->batch == t[i].batch,
                      "'%s': level %d, lanes %d, batch %d", t[i].opts, L->warp_level, L->lanes,
                      L->batch);
        release("lightspmv", L);
    }
    spira_matrix_destroy(A);
    spira_context_destroy(ctx);
}
END_TEST

/* ---- auto ------------------------------------------------------------------------------- */

static spira__row_stats stats_of(spira_matrix A)
{
    spira__row_stats st;
    ck_assert_int_eq(spira__row_stats_of(A->ctx, &A->csr, &st), SPIRA_OK);
    return st;
}

/* The statistics of a hand-made matrix: rows of 3, 0, 1 and 2 entries on 4 diagonals. */
START_TEST(auto_row_stats)
{
    spira_context ctx = tu_cpu();
    const int32_t lens[4] = {3, 0, 1, 2}; /* row i: columns i .. i+len-1 (mod 5) */
    spira_matrix A = from_lengths(ctx, 4, 5, lens, SPIRA_R64);
    spira__row_stats st = stats_of(A);
    ck_assert_int_eq(st.nnz, 6);
    ck_assert_double_eq_tol(st.mean, 1.5, 1e-15);
    ck_assert_int_eq(st.max_row, 3);
    ck_assert_double_eq_tol(st.cv, sqrt(1.25) / 1.5, 1e-15);
    ck_assert_double_eq_tol(st.ell_fill, 3.0 * 4 / 6, 1e-15);
    /* DIA may have 1.5 x 6 / 4 = 2.25 diagonals; row 0 alone lies on 3: out, uncounted */
    ck_assert(isinf(st.dia_fill));
    spira_matrix_destroy(A);
    /* rows of 2 at columns i, i + 1: diagonals 0 and 1 (of at most 1.5 x 8 / 4 = 3), so
     * counted: 2 x 4 slots for 8 nonzeros */
    const int32_t two[4] = {2, 2, 2, 2};
    A = from_lengths(ctx, 4, 5, two, SPIRA_R64);
    st = stats_of(A);
    ck_assert_double_eq_tol(st.dia_fill, 2.0 * 4 / 8, 1e-15);
    spira_matrix_destroy(A);
    /* 2^29 columns: too many diagonals to count, so DIA is out, the rest is counted */
    const int32_t one[3] = {1, 1, 1};
    A = from_lengths(ctx, 3, INT32_C(1) << 29, one, SPIRA_R64);
    st = stats_of(A);
    ck_assert(isinf(st.dia_fill));
    ck_assert_int_eq(st.max_row, 1);
    ck_assert_double_eq_tol(st.ell_fill, 1.0, 1e-15);
    spira_matrix_destroy(A);
    /* no rows, no entries: nothing is filled */
    ck_assert_int_eq(spira_matrix_from_coo(ctx, 0, 0, 0, NULL, NULL, NULL, SPIRA_R64, &A), SPIRA_OK);
    st = stats_of(A);
    ck_assert(isinf(st.dia_fill) && isinf(st.ell_fill));
    spira_matrix_destroy(A);
    spira_context_destroy(ctx);
}
END_TEST

/* The cost model's choice on the CUDA backend, for a horizon of expected multiplies, on the
 * kinds of matrix its constants were drawn from; the CPU backend's is csr-scalar. */
typedef struct {
    const char *what, *want;
    double horizon;
    spira_matrix A;
} auto_case;

START_TEST(auto_rules)
{
    spira_context ctx = tu_cpu();
    char why[400];
    auto_case t[9];
    int n = 0;
    spira_matrix L;
    ck_assert_int_eq(spira_matrix_laplacian(ctx, 2, 50, SPIRA_R64, &L), SPIRA_OK);
    /* 12,300 nonzeros: launch latency sets the time, whatever the format */
    t[n++] = (auto_case){"small 2-D Laplacian", "csr-vector", 1e6, L};
    t[n++] = (auto_case){"small random", "csr-vector", 1e3,
                         tu_shape_matrix(ctx, &tu_shapes[0], SPIRA_R64, tu_seed())};
    int32_t *lens = malloc(80000 * sizeof *lens);
    for (int i = 0; i < 2000; i++) lens[i] = i == 7 ? 2000 : 2; /* one dense row */
    /* csr-vector waits on the long row at every multiply; sell takes it apart in chunks in
     * its one launch (5.4 us back to back against merge's 7.1 on the H100, session 21),
     * which pays its conversion's 0.2 ms of waits back over 1000 multiplies, not over 10:
     * then merge, which takes the row in equal shares and borrows the CSR */
    t[n++] = (auto_case){"a dense row, 1000 multiplies", "sell", 1e3,
                         from_lengths(ctx, 2000, 2000, lens, SPIRA_R32)};
    t[n++] = (auto_case){"a dense row, 10 multiplies", "merge", 10,
                         from_lengths(ctx, 2000, 2000, lens, SPIRA_R32)};
    /* 1.28e6 nonzeros; from_lengths puts row i at columns i .. i+15 (mod 80000): a band
     * whose wrap at the end doubles its diagonals, so ELL, not DIA, once its conversion on
     * the GPU (a few of its multiplies) is paid back: not by 10 multiplies, by 1000 */
    for (int i = 0; i < 80000; i++) lens[i] = 16;
    t[n++] = (auto_case){"rows of 16, 10^5 multiplies", "ell", 1e5,
                         from_lengths(ctx, 80000, 80000, lens, SPIRA_R32)};
    t[n++] = (auto_case){"rows of 16, 10^3 multiplies", "ell", 1e3,
                         from_lengths(ctx, 80000, 80000, lens, SPIRA_R32)};
    t[n++] = (auto_case){"rows of 16, 10 multiplies", "csr-vector", 10,
                         from_lengths(ctx, 80000, 80000, lens, SPIRA_R32)};
    for (int i = 0; i < 80000; i++) lens[i] = i % 100 ? 12 : 600; /* uneven, longest < 1024 */
    t[n++] = (auto_case){"large, uneven rows", "cusparse", 1e3,
                         from_lengths(ctx, 80000, 80000, lens, SPIRA_R32)};
    ck_assert_int_eq(spira_matrix_from_coo(ctx, 10, 10, 0, NULL, NULL, NULL, SPIRA_R64, &L), SPIRA_OK);
    t[n++] = (auto_case){"no entries", "csr-vector", 1e3, L};
    for (int i = 0; i < n; i++) {
        spira__row_stats st = stats_of(t[i].A);
        const size_t vs = t[i].A->csr.dtype == SPIRA_R32 ? 4 : 8;
        const char *got = spira__auto_rule(&st, 1, vs, t[i].horizon, 0, 0, NULL, why, sizeof why);
        ck_assert_msg(!strcmp(got, t[i].want), "%s: %s (%s), wanted %s", t[i].what, got, why,
                      t[i].want);
        ck_assert_ptr_nonnull(strstr(why, " ms predicted ("));
        ck_assert_str_eq(spira__auto_rule(&st, 0, vs, t[i].horizon, 0, 0, NULL, why, sizeof why),
                         "csr-scalar");
        spira_matrix_destroy(t[i].A);
    }
    free(lens);
    spira_context_destroy(ctx);
}
END_TEST

/* The case: the 3-D Laplacian 150^3 in double. DIA converts on the GPU in 32 of
 * its own multiplies (its host conversion took 334 ms, 3,600 of them), so one CG solve
 * (about 500 multiplies; the time-to-solution suite's 3-D problems take 110-350) pays it
 * back, and so does a tenth of one; a single multiply does not, and goes to merge, which
 * borrows the CSR and streams it faster than csr-vector (1.1-1.5x on the H100's Laplacians
 * and uniform rows); a DIA plan already built costs nothing more. Without DIA, ELL,
 * which converts on the GPU too. Then rows of 16 at random columns. */
START_TEST(auto_rule_by_numbers)
{
    spira__row_stats st = {.nrows = 3375000, .ncols = 3375000, .nnz = 23490000, .mean = 6.96,
                           .cv = 0.03, .max_row = 7, .ell_fill = 1.0057, .dia_fill = 1.0057};
    char why[400];
    ck_assert_str_eq(spira__auto_rule(&st, 1, 8, 500, 0, 0, NULL, why, sizeof why), "dia");
    ck_assert_ptr_nonnull(strstr(why, "for 500 multiplies, dia "));
    ck_assert_ptr_nonnull(strstr(why, "cusparse "));
    ck_assert_str_eq(spira__auto_rule(&st, 1, 8, 50, 0, 0, NULL, why, sizeof why), "dia");
    /* one multiply: a format that borrows the CSR, merge the faster of the two there */
    ck_assert_str_eq(spira__auto_rule(&st, 1, 8, 1, 0, 0, NULL, why, sizeof why), "merge");
    const unsigned dia_built = 1u << 3; /* candidates: csr-vector, cusparse, ell, dia, merge */
    ck_assert_str_eq(spira__auto_rule(&st, 1, 8, 1, dia_built, 0, NULL, why, sizeof why), "dia");
    ck_assert_ptr_nonnull(strstr(why, "dia (built) 0.0 ms setup"));
    spira__cost c;
    ck_assert_int_eq(spira__cost_predict(&st, "dia", 8, &c), 0);
    ck_assert(c.on_device);
    ck_assert(c.multiply_ms > 0.08 && c.multiply_ms < 0.11); /* measured: 0.0926 */
    ck_assert(c.convert_ms == 10 * c.multiply_ms); /* the table's, 10: measured on the H100 */
    ck_assert(c.upload_ms < 0.1);                 /* the CSR's is sunk; an allocation */
    ck_assert_int_eq(spira__cost_predict(&st, "cusparse", 8, &c), 0);
    /* its descriptors and workspace only: the CSR it borrows is uploaded before the
     * choice; and, once a process, loading its kernel */
    ck_assert(!c.on_device && c.convert_ms == 0 && c.upload_ms > 0.1 && c.upload_ms < 0.5);
    ck_assert(c.first_use_ms > 3 && c.first_use_ms < 5);
    ck_assert_int_eq(spira__cost_predict(&st, "pkt", 8, &c), -1); /* not modeled */
    st.dia_fill = INFINITY;
    ck_assert_int_eq(spira__cost_predict(&st, "dia", 8, &c), -1);
    /* without DIA: ELL, converted on the GPU (its host conversion took 300 ms), for one
     * solve; merge still for one multiply */
    ck_assert_str_eq(spira__auto_rule(&st, 1, 8, 500, 0, 0, NULL, why, sizeof why), "ell");
    ck_assert_ptr_nonnull(strstr(why, "dia out"));
    ck_assert_str_eq(spira__auto_rule(&st, 1, 8, 1, 0, 0, NULL, why, sizeof why), "merge");
    /* rows of 16 at random columns over 10^6 rows: the setups of the formats that borrow
     * the CSR are next to nothing; ELL's is a few of its multiplies on the GPU, paid back
     * within 100 */
    spira__row_stats u = {.nrows = 1000000, .ncols = 1000000, .nnz = 16000000, .mean = 16,
                          .cv = 0.01, .max_row = 17, .ell_fill = 1.0625, .dia_fill = INFINITY};
    ck_assert_str_eq(spira__auto_rule(&u, 1, 8, 1, 0, 0, NULL, why, sizeof why), "merge");
    ck_assert_str_eq(spira__auto_rule(&u, 1, 8, 100, 0, 0, NULL, why, sizeof why), "ell");
    ck_assert_int_eq(spira__cost_predict(&u, "ell", 8, &c), 0);
    ck_assert(c.on_device);
    ck_assert(c.convert_ms == 8 * c.multiply_ms); /* the table's, 8: measured on the H100 */
    ck_assert(c.upload_ms < 0.1);                 /* the CSR's is sunk; an allocation */
    ck_assert_str_eq(spira__auto_rule(&u, 1, 8, 100000, 0, 0, NULL, why, sizeof why), "ell");
    u.ell_fill = 2; /* a long row: ELL's padding is memory, not speed; SELL sorts it away */
    ck_assert_str_eq(spira__auto_rule(&u, 1, 8, 100000, 0, 0, NULL, why, sizeof why), "sell");
    ck_assert_ptr_nonnull(strstr(why, "ell out"));
    /* the kNN Laplacian of the time-to-solution suite (4e5 points, 12.5 neighbours on
     * average, 24 at most): SELL over cuSPARSE for a solve's multiplies, not for one */
    spira__row_stats k = {.nrows = 400000, .ncols = 400000, .nnz = 4999658, .mean = 12.5,
                          .cv = 0.25, .max_row = 24, .ell_fill = 1.92, .dia_fill = INFINITY};
    ck_assert_str_eq(spira__auto_rule(&k, 1, 8, 300, 0, 0, NULL, why, sizeof why), "sell");
    ck_assert_str_ne(spira__auto_rule(&k, 1, 8, 1, 0, 0, NULL, why, sizeof why), "sell");
    ck_assert_ptr_nonnull(strstr(why, "sell "));
    /* a staged solve's first stage prefers the whole solve's format (sell) where the
     * cheapest beats it by at most half sell's setup: by the model's numbers, over the
     * first 33 multiplies (the session-30 timeline: csr-vector's 33 then sell's build cost
     * more than sell's build and 33), not over 1 */
    ck_assert_str_eq(spira__auto_rule(&k, 1, 8, 33, 0, 0, "sell", why, sizeof why), "sell");
    ck_assert_ptr_nonnull(strstr(why, "the longer horizon's choice"));
    int kept = 0, left = 0;
    for (double h = 1; h <= 64; h++) {
        const char *cheapest = spira__auto_rule(&k, 1, 8, h, 0, 0, NULL, why, sizeof why);
        if (!strcmp(cheapest, "sell")) continue;
        spira__cost cc, cs;
        ck_assert_int_eq(spira__cost_predict(&k, cheapest, 8, &cc), 0);
        ck_assert_int_eq(spira__cost_predict(&k, "sell", 8, &cs), 0);
        const double setup = cs.convert_ms + cs.upload_ms;
        const double lead = setup + h * cs.multiply_ms - (cc.convert_ms + cc.upload_ms +
                                                          h * cc.multiply_ms);
        const char *got = spira__auto_rule(&k, 1, 8, h, 0, 0, "sell", why, sizeof why);
        ck_assert_msg(!strcmp(got, 2 * lead <= setup ? "sell" : cheapest),
                      "%g multiplies: %s over %s by %g ms, sell's setup %g ms: %s", h, cheapest,
                      "sell", lead, setup, got);
        kept += !strcmp(got, "sell"), left += !strcmp(got, cheapest);
    }
    ck_assert(kept > 0 && left > 0);
    ck_assert_str_eq(spira__auto_rule(&k, 1, 8, 1, 0, 0, "no-such", why, sizeof why),
                     spira__auto_rule(&k, 1, 8, 1, 0, 0, NULL, why, sizeof why));
    /* R-MAT 2^20 (Graph500, edge factor 16) under PageRank's 90 expected multiplies:
     * cuSPARSE's faster multiply pays for its setup, but not for loading its kernel too in
     * a process that has not run it (bit 1 of cold), where merge wins; merge also wins
     * over csr-vector, which waits on the hubs' rows */
    spira__row_stats g = {.nrows = 1048576, .ncols = 1048576, .nnz = 16085955, .mean = 15.3,
                          .cv = 7.5, .max_row = 23068, .ell_fill = 1503, .dia_fill = INFINITY};
    ck_assert_str_eq(spira__auto_rule(&g, 1, 8, 90, 0, 0, NULL, why, sizeof why), "cusparse");
    ck_assert_str_eq(spira__auto_rule(&g, 1, 8, 90, 0, 1u << 1, NULL, why, sizeof why), "merge");
    ck_assert_ptr_nonnull(strstr(why, "csr-vector "));
    /* a cold cuSPARSE's load is paid back over enough multiplies */
    ck_assert_str_eq(spira__auto_rule(&g, 1, 8, 1000, 0, 1u << 1, NULL, why, sizeof why), "cusparse");
    /* the same graph as a pattern (values all 1): sell, which stores none (0.116 ms on the
     * H200 against cuSPARSE's 0.126), once its conversion is paid back; not for 90 */
    g.ones = 1;
    ck_assert_int_eq(spira__cost_predict(&g, "sell", 8, &c), 0);
    ck_assert(c.multiply_ms > 0.10 && c.multiply_ms < 0.13);
    ck_assert_str_eq(spira__auto_rule(&g, 1, 8, 1000, 0, 0, NULL, why, sizeof why), "sell");
    ck_assert_str_eq(spira__auto_rule(&g, 1, 8, 90, 0, 0, NULL, why, sizeof why), "cusparse");
    /* with its hub columns gathered (sell.h): 0.084-0.092 ms on the H200, 1.45-1.50x
     * cuSPARSE's CSR; paid back from about 35 multiplies (90 now), not over 10 */
    g.hubs = 1;
    ck_assert_int_eq(spira__cost_predict(&g, "sell", 8, &c), 0);
    ck_assert(c.multiply_ms > 0.08 && c.multiply_ms < 0.095);
    ck_assert_str_eq(spira__auto_rule(&g, 1, 8, 90, 0, 0, NULL, why, sizeof why), "sell");
    ck_assert_str_eq(spira__auto_rule(&g, 1, 8, 10, 0, 0, NULL, why, sizeof why), "cusparse");
}
END_TEST

/* The cost model's setup kinds agree with the registry in a build with CUDA: a format it
 * prices as converted on the GPU has format_gpu.build, one it prices at no conversion
 * borrows the device CSR, and one it prices as converted on the host has neither. (Built
 * without CUDA no format has a device half to compare with.) */
START_TEST(auto_cost_matches_registry)
{
    const char *const modeled[] = {"csr-vector", "cusparse", "ell", "dia", "merge", "sell"};
    spira__row_stats st = {.nrows = 1000, .ncols = 1000, .nnz = 5000, .mean = 5, .cv = 0.1,
                           .max_row = 6, .ell_fill = 1.2, .dia_fill = 1.2};
    for (size_t i = 0; i < sizeof modeled / sizeof modeled[0]; i++) {
        const spira__format *f = spira__format_find(modeled[i]);
        ck_assert_ptr_nonnull(f);
        spira__cost c;
        ck_assert_int_eq(spira__cost_predict(&st, modeled[i], 8, &c), 0);
        if (!f->gpu) continue;
        ck_assert_msg(c.on_device == (f->gpu->build != NULL),
                      "%s: the cost model prices its conversion on the %s, the registry %s a "
                      "GPU build", modeled[i], c.on_device ? "GPU" : "host",
                      f->gpu->build ? "has" : "has no");
        if (!c.on_device)
            ck_assert_msg((c.convert_ms == 0) == (f->gpu->shares_csr != 0),
                          "%s: priced at %g ms of conversion, shares_csr %d", modeled[i],
                          c.convert_ms, f->gpu->shares_csr);
    }
}
END_TEST

/* set_format "auto" resolves at once, names the format and the reason in the info; naming a
 * format clears the reason; a bad option leaves the selection as it was. */
START_TEST(auto_select)
{
    spira_context ctx = tu_cpu();
    spira_matrix A;
    ck_assert_int_eq(spira_matrix_laplacian(ctx, 2, 20, SPIRA_R64, &A), SPIRA_OK);
    spira_matrix_info mi;
    ck_assert_int_eq(spira_matrix_set_format(A, "auto", NULL), SPIRA_OK);
    spira_matrix_get_info(A, &mi);
    ck_assert_str_eq(mi.format, "csr-scalar"); /* the CPU backend */
    ck_assert_ptr_nonnull(strstr(mi.format_reason, ": the CPU backend multiplies CSR"));
    ck_assert_double_ge(mi.select_ms, 0);
    ck_assert_int_eq(spira_matrix_set_format(A, "ell", NULL), SPIRA_OK);
    spira_matrix_get_info(A, &mi);
    ck_assert_str_eq(mi.format_reason, "");
    ck_assert_double_eq(mi.select_ms, 0);
    ck_assert_int_eq(spira_matrix_set_format(A, "auto", "trial=2"), SPIRA_ERR_INVALID_ARG);
    tu_assert_error_has(ctx, "auto option trial=2: 0 or 1");
    ck_assert_int_eq(spira_matrix_set_format(A, "auto", "tries=1"), SPIRA_ERR_INVALID_ARG);
    tu_assert_error_has(ctx, "SpMV format 'auto' has no option 'tries' (its options: trial "
                             "expected_multiplies)");
    spira_matrix_get_info(A, &mi);
    ck_assert_str_eq(mi.format, "ell");
    /* the info's own strings handed back (they are A's): the same selection */
    ck_assert_int_eq(spira_matrix_set_format(A, "hyb", "min_rows=0"), SPIRA_OK);
    spira_matrix_get_info(A, &mi);
    ck_assert_int_eq(spira_matrix_set_format(A, mi.format, A->format_opts), SPIRA_OK);
    spira_matrix_get_info(A, &mi);
    ck_assert_str_eq(mi.format, "hyb");
    ck_assert_str_eq(A->format_opts, "min_rows=0");
    ck_assert_int_eq(spira_matrix_set_format(A, "no-such", NULL), SPIRA_ERR_INVALID_ARG);
    tu_assert_error_has(ctx, "pkt, auto)");
    spira_matrix_destroy(A);
    spira_context_destroy(ctx);
}
END_TEST

/* A new matrix is "auto", not chosen until used; a solve chooses (csr-scalar on the CPU),
 * every multiply is counted, and the reason carries the realized totals; a named format
 * takes auto's place until "auto" is asked for again; bad expected_multiplies are refused. */
START_TEST(auto_default_follows_solves)
{
    spira_context ctx = tu_cpu();
    spira_matrix A;
    ck_assert_int_eq(spira_matrix_laplacian(ctx, 2, 20, SPIRA_R64, &A), SPIRA_OK);
    spira_matrix_info mi;
    spira_matrix_get_info(A, &mi);
    ck_assert_str_eq(mi.format, "auto");
    ck_assert_ptr_nonnull(strstr(mi.format_reason, "not chosen yet"));
    spira_vector b, x;
    ck_assert_int_eq(spira_vector_create(ctx, 400, SPIRA_R64, &b), SPIRA_OK);
    ck_assert_int_eq(spira_vector_create(ctx, 400, SPIRA_R64, &x), SPIRA_OK);
    ck_assert_int_eq(spira_vector_fill(b, 1.0), SPIRA_OK);
    spira_solve_info si;
    ck_assert_int_eq(spira_solve(SPIRA_SOLVER_CG, A, b, x, NULL, &si), SPIRA_OK);
    ck_assert_str_eq(si.format, "csr-scalar");
    ck_assert_int_ge(A->multiplies, si.iterations);
    spira_matrix_get_info(A, &mi);
    ck_assert_ptr_nonnull(strstr(mi.format_reason, ": the CPU backend multiplies CSR"));
    char realized[96];
    snprintf(realized, sizeof realized, "), %lld multiplies in solves of ",
             (long long)A->multiplies);
    ck_assert_msg(strstr(mi.format_reason, "; realized: setup ") &&
                      strstr(mi.format_reason, realized), "%s", mi.format_reason);
    const int64_t made = A->multiplies;
    ck_assert_int_eq(spira_spmv(1.0, A, b, 0.0, x), SPIRA_OK);
    ck_assert_int_eq(A->multiplies, made + 1);
    /* nobody says how many: chosen for one, weighed again each time the count doubles */
    spira_matrix B;
    ck_assert_int_eq(spira_matrix_laplacian(ctx, 2, 20, SPIRA_R64, &B), SPIRA_OK);
    ck_assert_int_eq(spira_matrix_set_format(B, "auto", NULL), SPIRA_OK);
    spira_matrix_get_info(B, &mi);
    ck_assert_msg(strstr(mi.format_reason, "auto: 1 by default (no caller said how many: "
                                           "weighed again as the multiplies made double) + 0 "
                                           "made before: "), "%s", mi.format_reason);
    int64_t rechecks[6];
    for (int i = 0; i < 6; i++) {
        ck_assert_int_eq(spira_spmv(1.0, B, b, 0.0, x), SPIRA_OK);
        rechecks[i] = B->autosel.recheck;
    }
    /* made 1, 2, ..., 6: weighed again at 1 (for 1 more), 2 and 4 */
    const int64_t want[6] = {1, 2, 4, 4, 8, 8};
    for (int i = 0; i < 6; i++) ck_assert_int_eq(rechecks[i], want[i]);
    spira_matrix_get_info(B, &mi);
    ck_assert_msg(strstr(mi.format_reason, "auto: 0 expected (multiplies outside a solve) + 4 "
                                           "made before: "), "%s", mi.format_reason);
    spira_matrix_destroy(B);
    ck_assert_int_eq(spira_matrix_set_format(A, "auto", "expected_multiplies=0"),
                     SPIRA_ERR_INVALID_ARG);
    tu_assert_error_has(ctx, "auto option expected_multiplies=0: a count >= 1");
    ck_assert_int_eq(spira_matrix_set_format(A, "auto", "expected_multiplies=many"),
                     SPIRA_ERR_INVALID_ARG);
    tu_assert_error_has(ctx, "'many' is not an integer");
    ck_assert_int_eq(spira_matrix_set_format(A, "auto", "expected_multiplies=20"), SPIRA_OK);
    spira_matrix_get_info(A, &mi);
    ck_assert_str_eq(mi.format, "csr-scalar");
    spira_plan_info scalar, ell;
    ck_assert_int_eq(spira_matrix_plan_info(A, &scalar), SPIRA_OK);
    ck_assert_int_eq(spira_matrix_set_format(A, "ell", NULL), SPIRA_OK);
    ck_assert_int_eq(spira_solve(SPIRA_SOLVER_CG, A, b, x, NULL, &si), SPIRA_OK);
    ck_assert_str_eq(si.format, "ell"); /* named: the solve does not choose */
    spira_matrix_get_info(A, &mi);
    ck_assert_str_eq(mi.format_reason, "");
    /* the setup of every plan A holds: auto's csr-scalar and the named ell */
    ck_assert_int_eq(spira_matrix_plan_info(A, &ell), SPIRA_OK);
    ck_assert_double_eq_tol(mi.setup_ms, scalar.convert_ms + scalar.upload_ms + ell.convert_ms +
                                             ell.upload_ms, 1e-12);
    ck_assert_double_gt(ell.convert_ms, 0);
    spira_vector_destroy(b), spira_vector_destroy(x);
    spira_matrix_destroy(A);
    spira_context_destroy(ctx);
}
END_TEST

/* The iterations left that the reason of A's staged choice predicted at iteration `at`
 * (-1: no such reason). */
static double predicted_left(spira_matrix A, int at)
{
    spira_matrix_info mi;
    spira_matrix_get_info(A, &mi);
    char key[64];
    snprintf(key, sizeof key, " predicted at iteration %d (", at);
    const char *p = strstr(mi.format_reason, key);
    return p ? atof(p + strlen(key)) : -1;
}

/* A solve that expects more than SPIRA__AUTO_STAGE multiplies chooses for that many, and at
 * the iteration they are made chooses again for what its convergence predicts: CG and the
 * Jacobi iteration at iteration 32, BiCGSTAB (two a step) at 16, CG's graph too (its batch
 * ends there). On a Laplacian, whose CG and BiCGSTAB speed up as they go, the prediction
 * may be high but not below half the iterations then taken; the Jacobi iteration on a
 * diagonally dominant matrix falls at one rate, which it predicts within 1.5x. The plan
 * stays csr-scalar on the CPU. A deterministic context makes its choice up front. */
START_TEST(auto_solve_stages)
{
    spira_context ctx = tu_cpu();
    spira_matrix A;
    ck_assert_int_eq(spira_matrix_laplacian(ctx, 2, 100, SPIRA_R64, &A), SPIRA_OK);
    spira_vector b, x;
    ck_assert_int_eq(spira_vector_create(ctx, 10000, SPIRA_R64, &b), SPIRA_OK);
    ck_assert_int_eq(spira_vector_create(ctx, 10000, SPIRA_R64, &x), SPIRA_OK);
    ck_assert_int_eq(spira_vector_fill(b, 1.0), SPIRA_OK);
    const spira_solver_type types[2] = {SPIRA_SOLVER_CG, SPIRA_SOLVER_BICGSTAB};
    const int at[2] = {32, 16};
    spira_solve_info si;
    spira_matrix_info mi;
    for (int graph = 0; graph < 2; graph++)
        for (int t = 0; t < 2; t++) {
            ctx->cg_graph = graph ? 8 : 0;
            ck_assert_int_eq(spira_solve(types[t], A, b, x, NULL, &si), SPIRA_OK);
            const double left = predicted_left(A, at[t]), took = si.iterations - at[t];
            ck_assert_msg(left >= 0.5 * took && left <= 10000 - at[t],
                          "solver %d graph %d: %g iterations left predicted, %g taken", t,
                          graph, left, took);
            spira_matrix_get_info(A, &mi);
            ck_assert_msg(strstr(mi.format_reason, "; realized: setup "), "%s", mi.format_reason);
        }
    ctx->cg_graph = 0;
    spira_matrix_destroy(A);
    /* 2.8 on the diagonal, -1 beside it: Jacobi's rate about 2 / 2.8 */
    enum { n = 10000 };
    int32_t *ri = malloc(3 * n * sizeof *ri), *ci = malloc(3 * n * sizeof *ci);
    double *v = malloc(3 * n * sizeof *v);
    int64_t nnz = 0;
    for (int32_t i = 0; i < n; i++)
        for (int32_t d = -1; d <= 1; d++)
            if (i + d >= 0 && i + d < n) ri[nnz] = i, ci[nnz] = i + d, v[nnz++] = d ? -1 : 2.8;
    ck_assert_int_eq(spira_matrix_from_coo(ctx, n, n, nnz, ri, ci, v, SPIRA_R64, &A), SPIRA_OK);
    free(ri), free(ci), free(v);
    ck_assert_int_eq(spira_solve(SPIRA_SOLVER_JACOBI, A, b, x, NULL, &si), SPIRA_OK);
    const double left = predicted_left(A, 32), took = si.iterations - 32;
    ck_assert_msg(left >= took / 1.5 && left <= 1.5 * took, "Jacobi: %g left predicted, %g taken",
                  left, took);
    spira_matrix_destroy(A);
    ck_assert_int_eq(spira_matrix_laplacian(ctx, 2, 100, SPIRA_R64, &A), SPIRA_OK);
    ctx->deterministic = 1;
    ck_assert_int_eq(spira_solve(SPIRA_SOLVER_CG, A, b, x, NULL, &si), SPIRA_OK);
    ck_assert_double_eq(predicted_left(A, 32), -1);
    spira_vector_destroy(b), spira_vector_destroy(x);
    spira_matrix_destroy(A);
    spira_context_destroy(ctx);
}
END_TEST

/* trial=1 times the candidates on this backend, keeps the fastest's plan and no other, and
 * the SpMV it then runs is right. */
START_TEST(auto_trial)
{
    spira_context ctx = tu_cpu();
    spira_matrix A = tu_shape_matrix(ctx, &tu_shapes[4], SPIRA_R64, tu_seed()); /* dense row */
    ck_assert_int_eq(spira_matrix_set_format(A, "auto", "trial=1"), SPIRA_OK);
    spira_matrix_info mi;
    spira_matrix_get_info(A, &mi);
    char fastest[64];
    snprintf(fastest, sizeof fastest, "fastest %s", mi.format);
    ck_assert_msg(strstr(mi.format_reason, fastest), "%s", mi.format_reason);
    ck_assert_ptr_nonnull(strstr(mi.format_reason, "auto: timed trial, ms per multiply: csr-scalar "));
    ck_assert_ptr_nonnull(strstr(mi.format_reason, "cmrs "));
    ck_assert_ptr_nonnull(strstr(mi.format_reason, "merge "));
    ck_assert_ptr_null(strstr(mi.format_reason, "cusparse")); /* CUDA only */
    /* the trial's cost beside the kept plan's: at least the 70 timed multiplies of each of
     * seven other formats, so more than the kept format's setup alone */
    ck_assert_double_gt(mi.select_ms, 0);
    int plans = 0;
    for (spira__cache_entry *e = A->cache; e; e = e->next) plans += !strncmp(e->key, "spmv:", 5);
    ck_assert_int_eq(plans, 1);
    char key[128];
    snprintf(key, sizeof key, "spmv:%s:", mi.format);
    ck_assert_ptr_nonnull(spira__matrix_cache_find(A, key));
    ck_assert_int_gt(tu_check_format(ctx, A, mi.format, NULL, "auto trial", tu_seed()), 0);
    spira_matrix_destroy(A);
    spira_context_destroy(ctx);
}
END_TEST

/* Every allocation of a trial may fail: NOMEM with the selection as it was, or success, and
 * never a leak. */
START_TEST(auto_trial_alloc_failures)
{
    spira_context ctx = tu_cpu();
    spira_matrix A = tu_shape_matrix(ctx, &tu_shapes[0], SPIRA_R64, tu_seed());
    long live = spira__alloc_live();
    for (long n = 1;; n++) {
        ck_assert_int_eq(spira_matrix_set_format(A, "coo", NULL), SPIRA_OK);
        spira__alloc_fail_at(n);
        spira_status rc = spira_matrix_set_format(A, "auto", "trial=1");
        long made = spira__alloc_count();
        spira__alloc_fail_at(0);
        spira_matrix_info mi;
        spira_matrix_get_info(A, &mi);
        if (rc == SPIRA_OK) {
            ck_assert_ptr_nonnull(strstr(mi.format_reason, "fastest"));
        } else {
            ck_assert_msg(rc == SPIRA_ERR_NOMEM, "failure %ld: %s", n, spira_status_name(rc));
            ck_assert_str_eq(mi.format, "coo");
        }
        /* drop whatever plan is cached: what is left must be what was there before */
        spira__spmv_plan_drop(A);
        ck_assert_int_eq(spira__alloc_live(), live);
        if (rc == SPIRA_OK && made < n) break; /* ran without reaching the failure */
        ck_assert_int_lt(n, 2000);
    }
    spira_matrix_destroy(A);
    spira_context_destroy(ctx);
}
END_TEST

/* ---- SELL-C-sigma, merge-based CSR ---------------------------------------------------- */

/* 100 x 120, row i of (7i mod 13) entries, row 5 of 60 and row 70 empty. sigma=1 keeps the
 * order; larger windows sort longest first (equal lengths in row order) without moving a
 * row out of its window. Every slice is as wide as its longest row, holds its rows'
 * entries column-major in the CSR's order and padding (-1, 0) after them; bytes() and the
 * padding ratio in the stats follow from the slots, which wider windows make fewer. */
START_TEST(sell_layout_contents)
{
    spira_context ctx = tu_cpu();
    int32_t lens[100];
    for (int32_t i = 0; i < 100; i++) lens[i] = (7 * i) % 13;
    lens[5] = 60, lens[70] = 0;
    spira_matrix A = from_lengths(ctx, 100, 120, lens, SPIRA_R64);
    const spira__csr *csr = &A->csr;
    const int32_t sigmas[] = {1, 32, 64, 1024};
    int32_t slots[4];
    for (int k = 0; k < 4; k++) {
        char opts[32];
        snprintf(opts, sizeof opts, "sigma=%d", sigmas[k]);
        spira__sell *S = convert(ctx, A, "sell", opts, SPIRA_OK);
        ck_assert_int_eq(S->nslices, 4);
        ck_assert_int_eq(S->sigma, sigmas[k]);
        int seen[100] = {0};
        for (int32_t r = 0; r < 100; r++) {
            int32_t i = S->perm[r];
            ck_assert(i >= 0 && i < 100 && !seen[i]);
            seen[i] = 1;
            ck_assert_int_eq(i / sigmas[k], r / sigmas[k]); /* stays in its window */
            if (sigmas[k] == 1) ck_assert_int_eq(i, r);
            if (r % sigmas[k]) {
                int32_t p = S->perm[r - 1];
                ck_assert(lens[p] > lens[i] || (lens[p] == lens[i] && p < i));
            }
        }
        const double *v = S->vals, *cv = csr->val;
        for (int32_t sl = 0; sl < 4; sl++) {
            int32_t width = 0;
            for (int32_t r = sl * 32; r < 100 && r < sl * 32 + 32; r++)
                if (lens[S->perm[r]] > width) width = lens[S->perm[r]];
            ck_assert_int_eq(S->slice_ptr[sl + 1] - S->slice_ptr[sl], 32 * width);
            for (int32_t lane = 0; lane < 32; lane++)
                for (int32_t e = 0; e < width; e++) {
                    int32_t r = sl * 32 + lane, at = S->slice_ptr[sl] + 32 * e + lane;
                    if (r < 100 && e < lens[S->perm[r]]) {
                        int32_t b = csr->row_ptr[S->perm[r]] + e;
                        ck_assert_int_eq(S->cols[at], csr->col_idx[b]);
                        ck_assert(v[at] == cv[b]);
                    } else {
                        ck_assert_int_eq(S->cols[at], -1);
                        ck_assert(v[at] == 0);
                    }
                }
        }
        slots[k] = S->slice_ptr[4];
        ck_assert_uint_eq(bytes_of("sell", S), (size_t)slots[k] * 12 + (5 + 100) * 4);
        char pad[64];
        snprintf(pad, sizeof pad, "padding %.3f slots a nonzero", (double)slots[k] / csr->nnz);
        ck_assert_msg(strstr(S->stats, pad), "'%s' lacks '%s'", S->stats, pad);
        release("sell", S);
        ck_assert_int_eq(tu_check_format(ctx, A, "sell", opts, "sell lengths", tu_seed()), 2);
    }
    ck_assert_int_eq(slots[1], slots[0]); /* windows of one slice: the same widths */
    ck_assert_int_lt(slots[2], slots[1]);
    ck_assert_int_le(slots[3], slots[2]);
    spira_matrix_destroy(A);
    spira_context_destroy(ctx);
}
END_TEST

/* The default sigma follows the rows: one window of 65536 up to SPIRA__SELL_SIGMA_ROWS rows
 * (a row moves across the 1024-row boundaries), windows of 1024 beyond (none does). */
START_TEST(sell_default_sigma)
{
    spira_context ctx = tu_cpu();
    for (int larger = 0; larger < 2; larger++) {
        const int32_t n = SPIRA__SELL_SIGMA_ROWS + larger;
        int32_t *lens = malloc((size_t)n * sizeof *lens);
        ck_assert_ptr_nonnull(lens);
        for (int32_t i = 0; i < n; i++) lens[i] = (7 * i) % 13;
        spira_matrix A = from_lengths(ctx, n, 200, lens, SPIRA_R32);
        spira__sell *S = convert(ctx, A, "sell", NULL, SPIRA_OK);
        const int32_t sigma = larger ? SPIRA__SELL_SIGMA_LARGE : SPIRA__SELL_SIGMA_SMALL;
        ck_assert_int_eq(S->sigma, sigma);
        int32_t moved = 0; /* rows out of their 1024-row window */
        for (int32_t r = 0; r < n; r++) {
            ck_assert_int_eq(S->perm[r] / sigma, r / sigma);
            moved += S->perm[r] / SPIRA__SELL_SIGMA_LARGE != r / SPIRA__SELL_SIGMA_LARGE;
        }
        if (larger) ck_assert_int_eq(moved, 0);
        else ck_assert_int_gt(moved, 0);
        release("sell", S);
        spira_matrix_destroy(A);
        free(lens);
    }
    spira_context_destroy(ctx);
}
END_TEST

/* 200 x 300, rows of 1-5 entries, one of 64 and three long ones (150, 120, 150 entries,
 * over SPIRA__SELL_LONG = 64): with sorting windows, the long rows leave the slices for the
 * end of the order, longest first (equal lengths in row order), their entries after the
 * slots row after row as in CSR; the row of 64 stays in a slice. sigma=1 keeps every row
 * in its slice. Both multiply as the CSR reference does. */
START_TEST(sell_long_rows)
{
    spira_context ctx = tu_cpu();
    int32_t lens[200];
    for (int32_t i = 0; i < 200; i++) lens[i] = 1 + i % 5;
    lens[7] = 150, lens[100] = 120, lens[150] = 150, lens[120] = SPIRA__SELL_LONG;
    for (int p = 0; p < 2; p++) {
        spira_matrix A = from_lengths(ctx, 200, 300, lens, p ? SPIRA_R32 : SPIRA_R64);
        const spira__csr *csr = &A->csr;
        spira__sell *S = convert(ctx, A, "sell", NULL, SPIRA_OK);
        ck_assert_int_eq(S->nlong, 3);
        ck_assert_int_eq(S->nslices, (197 + 31) / 32);
        ck_assert_int_eq(S->perm[197], 7);
        ck_assert_int_eq(S->perm[198], 150);
        ck_assert_int_eq(S->perm[199], 100);
        for (int32_t r = 1; r < 197; r++) ck_assert(lens[S->perm[r - 1]] >= lens[S->perm[r]]);
        ck_assert_int_eq(S->perm[0], 120);
        const int32_t slots = S->slice_ptr[S->nslices];
        ck_assert_int_eq(S->slice_ptr[1], 32 * SPIRA__SELL_LONG);
        ck_assert_int_eq(S->long_ptr[0], slots);
        for (int32_t j = 0; j < 3; j++) {
            const int32_t i = S->perm[197 + j], b = csr->row_ptr[i];
            ck_assert_int_eq(S->long_ptr[j + 1] - S->long_ptr[j], lens[i]);
            for (int32_t k = 0; k < lens[i]; k++) {
                const int32_t at = S->long_ptr[j] + k;
                ck_assert_int_eq(S->cols[at], csr->col_idx[b + k]);
                if (p) ck_assert(((const float *)S->vals)[at] == ((const float *)csr->val)[b + k]);
                else ck_assert(((const double *)S->vals)[at] == ((const double *)csr->val)[b + k]);
            }
        }
        const size_t es = p ? 4 : 8;
        ck_assert_uint_eq(bytes_of("sell", S), (size_t)(slots + 420) * (4 + es) +
                                                   (size_t)(S->nslices + 1 + 4 + 200) * 4);
        ck_assert_msg(strstr(S->stats, "3 long rows apart (420 entries)"), "%s", S->stats);
        release("sell", S);
        ck_assert_int_eq(tu_check_format(ctx, A, "sell", NULL, "sell long rows", tu_seed()), 2);
        S = convert(ctx, A, "sell", "sigma=1", SPIRA_OK);
        ck_assert_int_eq(S->nlong, 0);
        ck_assert_int_eq(S->nslices, 7);
        ck_assert(!S->long_ptr);
        release("sell", S);
        ck_assert_int_eq(tu_check_format(ctx, A, "sell", "sigma=1", "sell unsorted", tu_seed()), 2);
        spira_matrix_destroy(A);
    }
    spira_context_destroy(ctx);
}
END_TEST

/* Values all 1 (a graph's): sell stores none (unit), with rows in slices and long rows
 * apart, and multiplies to the same bits as the layout that stores the ones (unit=0), and
 * as the CSR reference; one value off 1 by 2^-20 stores them; unit=2 is refused. */
START_TEST(sell_unit_values)
{
    spira_context ctx = tu_cpu();
    int32_t lens[200];
    for (int32_t i = 0; i < 200; i++) lens[i] = 1 + i % 5;
    lens[7] = 150, lens[100] = 120, lens[150] = 150;
    const spira__format *f = spira__format_find("sell");
    for (int p = 0; p < 2; p++) {
        const spira_dtype t = p ? SPIRA_R32 : SPIRA_R64;
        const size_t es = spira_dtype_size(t);
        spira_matrix A = from_lengths(ctx, 200, 300, lens, t);
        for (int64_t k = 0; k < A->csr.nnz; k++) spira__set(A->csr.val, t, k, 1.0);
        spira__sell *S = convert(ctx, A, "sell", NULL, SPIRA_OK), *V = convert(ctx, A, "sell", "unit=0", SPIRA_OK);
        ck_assert(S->unit && !S->vals && !V->unit && V->vals);
        ck_assert_msg(strstr(S->stats, "; values all 1, none stored"), "%s", S->stats);
        ck_assert_msg(!strstr(V->stats, "values all 1"), "%s", V->stats);
        const int32_t entries = spira__sell_entries(S);
        ck_assert_uint_eq(bytes_of("sell", S), bytes_of("sell", V) - (size_t)entries * es);
        char x[300 * 8], y[200 * 8], z[200 * 8];
        unsigned st = tu_seed();
        for (int32_t c = 0; c < 300; c++) spira__set(x, t, c, tu_uniform(&st, -1, 1));
        f->apply(S, 1.5, x, 0.0, y);
        f->apply(V, 1.5, x, 0.0, z);
        ck_assert_msg(memcmp(y, z, 200 * es) == 0, "unit values: not the bits of the stored ones");
        release("sell", S), release("sell", V);
        ck_assert_int_eq(tu_check_format(ctx, A, "sell", NULL, "sell unit values", tu_seed()), 2);
        spira__set(A->csr.val, t, A->csr.nnz / 2, 1.0 + 0x1p-20);
        S = convert(ctx, A, "sell", NULL, SPIRA_OK);
        ck_assert(!S->unit && S->vals);
        release("sell", S);
        convert(ctx, A, "sell", "unit=2", SPIRA_ERR_INVALID_ARG);
        ck_assert_msg(strstr(spira_last_error(ctx), "unit=2"), "%s", spira_last_error(ctx));
        spira_matrix_destroy(A);
    }
    spira_context_destroy(ctx);
}
END_TEST

/* Hub columns (sell.h) on tu_hub_matrix, values random and all 1, float and double: the
 * 5,000 hubs found and renumbered ncols + their rank, by decreasing count, ties by column
 * (and auto's statistics say so for the pattern);
 * the multiply the bits of the layout that keeps the columns' numbers (hubs=0) and the CSR
 * reference's; hubs=2 refused. */
START_TEST(sell_hub_columns)
{
    spira_context ctx = tu_cpu();
    const spira__format *f = spira__format_find("sell");
    for (int v = 0; v < 4; v++) {
        const spira_dtype t = v % 2 ? SPIRA_R32 : SPIRA_R64;
        const size_t es = spira_dtype_size(t);
        spira_matrix A = tu_hub_matrix(ctx, 100000, t, v >= 2, tu_seed() + (unsigned)v);
        const spira__csr *csr = &A->csr;
        spira__sell *S = convert(ctx, A, "sell", NULL, SPIRA_OK), *V = convert(ctx, A, "sell", "hubs=0", SPIRA_OK);
        ck_assert_int_eq(S->nhubs, 5000);
        ck_assert_int_eq(V->nhubs, 0);
        spira__row_stats rs; /* auto asks about hubs for a pattern of uneven rows alone */
        ck_assert_int_eq(spira__row_stats_of(ctx, csr, &rs), SPIRA_OK);
        ck_assert(rs.cv > SPIRA__AUTO_UNEVEN);
        ck_assert_int_eq(rs.hubs, v >= 2);
        ck_assert(S->unit == (v >= 2));
        ck_assert_msg(strstr(S->stats, "; 5000 hub columns gathered first"), "%s", S->stats);
        int32_t *count = calloc((size_t)csr->ncols, sizeof *count);
        ck_assert_ptr_nonnull(count);
        for (int32_t k = 0; k < csr->nnz; k++) count[csr->col_idx[k]]++;
        for (int32_t k = 0; k < S->nhubs; k++) {
            const int32_t c = S->hubs[k];
            ck_assert_int_eq(c % 20, 0);
            if (k) {
                const int32_t p = S->hubs[k - 1];
                ck_assert_msg(count[p] > count[c] || (count[p] == count[c] && p < c),
                              "hub %d: column %d of %d entries after column %d of %d", k, c,
                              count[c], p, count[p]);
            }
        }
        for (int32_t e = 0; e < spira__sell_entries(S); e++) { /* same entries, renumbered */
            const int32_t c = S->cols[e], u = V->cols[e];
            ck_assert_int_eq(c >= csr->ncols ? S->hubs[c - csr->ncols] : c, u);
            ck_assert(c < csr->ncols || u % 20 == 0);
        }
        free(count);
        char *x = malloc((size_t)csr->ncols * es), *y = malloc((size_t)csr->nrows * es),
             *z = malloc((size_t)csr->nrows * es);
        ck_assert(x && y && z);
        unsigned st = tu_seed();
        for (int32_t c = 0; c < csr->ncols; c++) spira__set(x, t, c, tu_uniform(&st, -1, 1));
        f->apply(S, 1.5, x, 0.0, y);
        f->apply(V, 1.5, x, 0.0, z);
        ck_assert_msg(memcmp(y, z, (size_t)csr->nrows * es) == 0, "hub columns: not hubs=0's bits");
        free(x), free(y), free(z);
        release("sell", S), release("sell", V);
        ck_assert_int_eq(tu_check_format(ctx, A, "sell", NULL, "sell hub columns", tu_seed()), 2);
        convert(ctx, A, "sell", "hubs=2", SPIRA_ERR_INVALID_ARG);
        spira_matrix_destroy(A);
    }
    spira_context_destroy(ctx);
}
END_TEST

/* spira__sell_hubs_possible, which spares the column count where hubs cannot be used: at its
 * boundary (4,096 columns of 8 entries, every entry in one of them: 16,384 columns give a
 * hub's minimum of 8, so hubs; 16,383 give 9, so none), and on skewed random columns it is
 * never false where a count finds hubs used. */
START_TEST(sell_hubs_possible_bound)
{
    spira_context ctx = tu_cpu();
    enum { N = 4096 * 8 };
    int32_t *ri = malloc(N * sizeof *ri), *ci = malloc(N * sizeof *ci);
    ck_assert(ri && ci);
    for (int32_t r = 0; r < N; r++) ri[r] = r, ci[r] = 4 * (r % 4096);
    for (int32_t ncols = 16383; ncols <= 16384; ncols++) {
        spira_matrix A;
        ck_assert_int_eq(spira_matrix_from_coo(ctx, N, ncols, N, ri, ci, NULL, SPIRA_R64, &A),
                         SPIRA_OK);
        const int want = ncols == 16384;
        ck_assert_int_eq(spira__sell_hubs_possible(ncols, N), want);
        spira__sell *S = convert(ctx, A, "sell", NULL, SPIRA_OK);
        ck_assert_int_eq(S->nhubs, want ? 4096 : 0);
        release("sell", S);
        spira_matrix_destroy(A);
    }
    free(ri);
    free(ci);
    unsigned st = tu_seed();
    int used = 0; /* trials with hubs: the check below must meet some */
    for (int trial = 0; trial < 200; trial++) {
        /* 15 entries in 16 in the first `hot` columns: hubs from about 17,500 columns */
        const int32_t ncols = 14000 + (int32_t)(rand_r(&st) % 26000);
        const int32_t hot = 3500 + (int32_t)(rand_r(&st) % 6500);
        const int64_t nnz = 1 + rand_r(&st) % 200000;
        int32_t *count = calloc((size_t)ncols, sizeof *count);
        ck_assert_ptr_nonnull(count);
        for (int64_t k = 0; k < nnz; k++)
            count[rand_r(&st) % 16 ? (int32_t)(rand_r(&st) % hot)
                                   : (int32_t)(rand_r(&st) % ncols)]++;
        const int64_t min = spira__sell_hub_min(ncols, nnz);
        int64_t nhubs = 0, entries = 0;
        for (int32_t c = 0; c < ncols; c++)
            if (count[c] >= min) nhubs++, entries += count[c];
        free(count);
        if (!spira__sell_hubs_used(nhubs, entries, nnz, ncols)) continue;
        used++;
        ck_assert_msg(spira__sell_hubs_possible(ncols, nnz),
                      "%d columns, %lld entries: %lld hubs used, said impossible", ncols,
                      (long long)nnz, (long long)nhubs);
    }
    ck_assert_msg(used >= 20, "%d of 200 trials with hubs", used);
    spira_context_destroy(ctx);
}
END_TEST

/* 60 x 100 with empty rows (the first and last among them), rows of one and a row of 90:
 * the search's crossing of every diagonal is the walk's (a row end is taken before the
 * nonzero of its own index), and the multiply with every share from 1 to 32 steps a
 * thread (a row split across up to 90 threads) matches the CSR reference. */
START_TEST(merge_path_search)
{
    spira_context ctx = tu_cpu();
    int32_t lens[60];
    for (int32_t i = 0; i < 60; i++) lens[i] = i % 4 == 0 ? 0 : i % 5;
    lens[59] = 0, lens[21] = 90;
    for (int p = 0; p < 2; p++) {
        spira_matrix A = from_lengths(ctx, 60, 100, lens, p ? SPIRA_R32 : SPIRA_R64);
        const spira__csr *csr = &A->csr;
        int32_t row = 0, nz = 0, path = csr->nrows + csr->nnz;
        for (int32_t d = 0; d <= path; d++) {
            int32_t r, z;
            spira__merge_search(d, csr->row_ptr + 1, csr->nrows, csr->nnz, &r, &z);
            ck_assert_msg(r == row && z == nz, "diagonal %d: (%d, %d), the walk (%d, %d)", d,
                          r, z, row, nz);
            if (row < csr->nrows && (nz == csr->nnz || csr->row_ptr[row + 1] <= nz)) row++;
            else nz++;
        }
        for (int items = 1; items <= SPIRA__MERGE_ITEMS_MAX; items++) {
            char opts[32];
            snprintf(opts, sizeof opts, "items=%d", items);
            spira__merge *M = convert(ctx, A, "merge", opts, SPIRA_OK);
            ck_assert_int_eq(M->nthreads, (path + items - 1) / items);
            ck_assert_int_eq(M->ntiles, (M->nthreads + 127) / 128);
            ck_assert_uint_eq(bytes_of("merge", M), 61 * 4 + (size_t)csr->nnz * (p ? 8 : 12) +
                                                        (M->ntiles + 1) * 8 +
                                                        M->ntiles * (p ? 8 : 12));
            release("merge", M);
            ck_assert_int_eq(tu_check_format(ctx, A, "merge", opts, "merge lengths", tu_seed()), 2);
        }
        spira_matrix_destroy(A);
    }
    spira_context_destroy(ctx);
}
END_TEST

/* sell and merge, with their defaults and their extreme options, on every matrix under
 * data/ in both precisions. */
START_TEST(sell_merge_bundled)
{
    spira_context ctx = tu_cpu();
    const char *v[][2] = {{"sell", NULL}, {"sell", "sigma=1"}, {"merge", NULL}, {"merge", "items=1"}};
    for (int p = 0; p < 2; p++) {
        spira_matrix A;
        ck_assert_int_eq(spira_matrix_read_mm(ctx, tu_data(tu_bundled[_i]), p ? SPIRA_R32 : SPIRA_R64, &A),
                         SPIRA_OK);
        for (int k = 0; k < 4; k++)
            ck_assert_int_eq(tu_check_format(ctx, A, v[k][0], v[k][1], tu_bundled[_i], tu_seed()), 2);
        spira_matrix_destroy(A);
    }
    spira_context_destroy(ctx);
}
END_TEST

/* bytes() of every new format on a 100 x 100 tridiagonal (298 nonzeros), and the plan
 * reports the same. */
START_TEST(layout_bytes)
{
    spira_context ctx = tu_cpu();
    const struct {
        const char *name;
        size_t f64, f32;
    } want[] = {
        {"csr-vector", 101 * 4 + 298 * 12, 101 * 4 + 298 * 8},
        {"coo", 298 * 16, 298 * 12},
        {"ell", 3 * 128 * 12, 3 * 128 * 8},
        {"dia", 3 * 4 + 3 * 128 * 8, 3 * 4 + 3 * 128 * 4},
        {"hyb", 298 * 16, 298 * 12}, /* 100 rows < 4096: K = 0 */
        {"lightspmv", 101 * 4 + 298 * 12, 101 * 4 + 298 * 8},
        {"suraa", 201 * 4 + 298 * 12, 201 * 4 + 298 * 8},
        {"cmrs", 26 * 4 + 298 * 12, 14 * 4 + 298 * 8}, /* 25 strips of 4, 13 of 8 */
        /* 4 slices 3 wide (rows 0 and 99, of 2, sorted last), the slice pointers, perm */
        {"sell", 384 * 12 + 105 * 4, 384 * 8 + 105 * 4},
        /* 398 path steps, a short path: a step a thread, 398 threads in 4 tiles: 5 pairs
         * of coordinates, 4 carry-outs */
        {"merge", 101 * 4 + 298 * 12 + 5 * 8 + 4 * 12, 101 * 4 + 298 * 8 + 5 * 8 + 4 * 8},
    };
    for (int p = 0; p < 2; p++) {
        spira_dtype t = p ? SPIRA_R32 : SPIRA_R64;
        spira_matrix A = tu_shape_matrix(ctx, &(tu_shape){"tridiagonal", 100, 100}, t, tu_seed());
        ck_assert_int_eq(A->csr.nnz, 298);
        for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
            const spira__format *f = spira__format_find(want[i].name);
            void *layout = convert(ctx, A, want[i].name, NULL, SPIRA_OK);
            size_t b = f->bytes(layout);
            ck_assert_msg(b == (p ? want[i].f32 : want[i].f64), "%s: %zu bytes", want[i].name, b);
            release(want[i].name, layout);
            spira__spmv_plan *plan;
            ck_assert_int_eq(spira_matrix_set_format(A, want[i].name, NULL), SPIRA_OK);
            ck_assert_int_eq(spira__spmv_plan_get(A, &plan), SPIRA_OK);
            ck_assert_uint_eq(plan->bytes, b);
        }
        spira_matrix_destroy(A);
    }
    spira_context_destroy(ctx);
}
END_TEST

/* Malformed options are INVALID_ARG naming the option, reported when the plan is built;
 * the matrix stays usable with valid ones. */
START_TEST(option_errors)
{
    spira_context ctx = tu_cpu();
    spira_matrix A;
    ck_assert_int_eq(spira_matrix_laplacian(ctx, 2, 6, SPIRA_R64, &A), SPIRA_OK);
    const struct {
        const char *fmt, *opts, *says;
    } bad[] = {
        {"ell", "max_fill=abc", "max_fill: 'abc' is not an integer"},
        {"ell", "max_fill=0", "ell: option max_fill must be at least 1"},
        {"dia", "max_fill=2x", "max_fill: '2x' is not an integer"},
        {"dia", "max_fill=-3", "dia: option max_fill must be at least 1 (stored slots per nonzero), got -3"},
        {"coo", "interval=33", "coo: option interval"},
        {"coo", "interval=-32", "multiple of 32"},
        {"hyb", "min_rows=-1", "hyb: option min_rows must be at least 0, got -1"},
        {"hyb", "ell_width=-2", "hyb: option ell_width must be at least 0, got -2"},
        {"hyb", "ell_width=", "ell_width: '' is not an integer"},
        {"hyb", "min_rows=0,interval=40", "hyb: option interval"},
        {"lightspmv", "level=thread", "format option level='thread': vector or warp"},
        {"lightspmv", "level=", "format option level='': vector or warp"},
        {"lightspmv", "lanes=3", "lightspmv option lanes=3: 2, 4, 8, 16 or 32"},
        {"lightspmv", "lanes=64", "lightspmv option lanes=64"},
        {"lightspmv", "batch=0", "lightspmv option batch=0: 1 to 1024"},
        {"cmrs", "height=3", "cmrs option height=3: 1, 2, 4, 8 or 16"},
        {"cmrs", "height=32", "cmrs option height=32"},
        {"cmrs", "height=0", "cmrs option height=0"},
        {"suraa", "segment=-1", "suraa option segment=-1: rows per segment, 1 or more (0: the Freedman-Diaconis rule)"},
        {"suraa", "children=-5", "suraa option children=-5: 0 to 1048576"},
        {"suraa", "dynamic=2", "suraa option dynamic=2: 0 or 1"},
        {"suraa", "g3=warp", "format option g3='warp': scalar or vector"},
        {"pkt", "partition=kway", "format option partition='kway': metis or rcm"},
        {"sell", "sigma=33", "sell option sigma=33: 1 (no sorting) or a positive multiple of 32"},
        {"sell", "sigma=0", "sell option sigma=0"},
        {"sell", "sigma=-64", "sell option sigma=-64"},
        {"sell", "sigma=x", "sigma: 'x' is not an integer"},
        {"merge", "items=0", "merge option items=0: 1 to 32 (merge-path steps a thread)"},
        {"merge", "items=33", "merge option items=33"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ck_assert_int_eq(spira_matrix_set_format(A, bad[i].fmt, bad[i].opts), SPIRA_OK);
        ck_assert_msg(spira_matrix_prepare(A) == SPIRA_ERR_INVALID_ARG, "%s '%s' accepted",
                      bad[i].fmt, bad[i].opts);
        tu_assert_error_has(ctx, bad[i].says);
    }
    ck_assert_int_eq(spira_matrix_set_format(A, "hyb", "min_rows=0,interval=64,ell_width=4"), SPIRA_OK);
    ck_assert_int_eq(spira_matrix_prepare(A), SPIRA_OK);
    /* keys a format does not take are refused at once, and the selection stays as it was */
    const struct {
        const char *fmt, *opts, *says;
    } keys[] = {
        {"ell", "max_fil=4", "SpMV format 'ell' has no option 'max_fil' (its options: max_fill)"},
        {"csr-scalar", "level=warp", "SpMV format 'csr-scalar' has no option 'level' (it takes none)"},
        {"hyb", "min_rows=0,,width=3", "has no option 'width' (its options: min_rows ell_width interval)"},
        {"lightspmv", "warp", "SpMV format option 'warp' is not key=value"},
        {"pkt", "rows=64,rcm", "SpMV format option 'rcm' is not key=value"},
    };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        ck_assert_int_eq(spira_matrix_set_format(A, keys[i].fmt, keys[i].opts), SPIRA_ERR_INVALID_ARG);
        tu_assert_error_has(ctx, keys[i].says);
        spira_matrix_info mi;
        ck_assert_int_eq(spira_matrix_get_info(A, &mi), SPIRA_OK);
        ck_assert_str_eq(mi.format, "hyb");
    }
    ck_assert_int_eq(spira_matrix_set_format(A, "lightspmv", "level=vector,"), SPIRA_OK);
    ck_assert_int_eq(spira_matrix_prepare(A), SPIRA_OK);
    spira_matrix_destroy(A);
    spira_context_destroy(ctx);
}
END_TEST

/* Every allocation of every conversion may fail: NOMEM and no layout, never a crash (and,
 * under a leak checker, nothing leaked). */
START_TEST(convert_alloc_failures)
{
    spira_context ctx = tu_cpu();
    spira_matrix A = tu_shape_matrix(ctx, &tu_shapes[4], SPIRA_R64, tu_seed()); /* dense row */
    const char *v[][2] = {{"coo", NULL},        {"ell", "max_fill=1000"}, {"dia", "max_fill=1000"},
                          {"hyb", "min_rows=0"}, {"hyb", NULL},            {"csr-vector", NULL},
                          {"lightspmv", NULL},   {"cmrs", NULL},           {"cmrs", "height=1"},
                          {"suraa", NULL},       {"sell", NULL},           {"sell", "sigma=1"},
                          {"merge", NULL}};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        const spira__format *f = spira__format_find(v[i][0]);
        for (long n = 1;; n++) {
            void *layout = NULL;
            spira__alloc_fail_at(n);
            spira_status rc = f->convert(ctx, &A->csr, v[i][1], &layout);
            long made = spira__alloc_count();
            spira__alloc_fail_at(0);
            if (rc == SPIRA_OK) {
                ck_assert_ptr_nonnull(layout);
                if (f->destroy) f->destroy(layout);
                if (made < n) break; /* ran without hitting the failure: all paths seen */
            } else {
                ck_assert_msg(rc == SPIRA_ERR_NOMEM, "%s, failure %ld: %s", v[i][0], n,
                              spira_status_name(rc));
                ck_assert_ptr_null(layout);
            }
            ck_assert_int_lt(n, 100);
        }
    }
    spira_matrix_destroy(A);
    spira_context_destroy(ctx);
}
END_TEST

/* The shapes (tu_shapes) a format or variant refuses on the CPU backend, space-separated;
 * on every other shape it must multiply. A format that refused everything, or refused a
 * shape it takes, fails here. */
static const struct {
    const char *name, *opts, *refuses; /* "*": every shape (a format without CPU code) */
} refusals[] = {
    {"csr-scalar", NULL, ""},
    {"csr-vector", NULL, ""},
    {"lightspmv", NULL, ""},
    {"lightspmv", "level=vector", ""},
    {"lightspmv", "batch=1", ""},
    {"lightspmv", "level=vector,batch=1", ""},
    {"lightspmv", "lanes=32,batch=7", ""},
    {"lightspmv", "level=vector,lanes=2,batch=3", ""},
    {"cmrs", NULL, ""},
    {"cmrs", "height=1", ""},
    {"cmrs", "height=2", ""},
    {"cmrs", "height=8", ""},
    {"cmrs", "height=16", ""},
    {"suraa", NULL, ""},
    {"suraa", "segment=1", ""},
    {"suraa", "segment=7,children=5", ""},
    {"suraa", "g3=scalar", ""},
    {"suraa", "children=0", ""},
    {"coo", NULL, ""},
    {"coo", "interval=32", ""},
    {"coo", "interval=96", ""},
    {"coo", "interval=4096", ""},
    /* max_fill=3 slots a nonzero: a long row, or a tail of them */
    {"ell", NULL, "dense-row long-row power-law sparse-rows"},
    {"ell", "max_fill=1000", ""},
    /* 3 slots a nonzero: only matrices of few diagonals */
    {"dia", NULL, "random empty-rows dense-row wide tall long-row equal-rows power-law one-column "
                  "sparse-rows"},
    /* one-column: 700 diagonals of 704 slots for 700 nonzeros */
    {"dia", "max_fill=300", "one-column sparse-rows"},
    {"hyb", NULL, ""},
    {"hyb", "min_rows=0", ""},
    {"hyb", "ell_width=2,interval=64", ""},
    {"pkt", NULL, "wide tall long-row no-entries one-row one-column"}, /* square only */
    {"cusparse", NULL, "*"},
    {"sell", NULL, ""},
    {"sell", "sigma=1", ""},
    {"sell", "sigma=32", ""},
    {"sell", "sigma=4096", ""},
    {"sell", "unit=0", ""},
    {"merge", NULL, ""},
    {"merge", "items=1", ""},
    {"merge", "items=3", ""},
    {"merge", "items=32", ""},
    {"merge", "items=17", ""},
};

static const char *refused_shapes(const char *name, const char *opts)
{
    for (size_t i = 0; i < sizeof refusals / sizeof refusals[0]; i++)
        if (!strcmp(refusals[i].name, name) &&
            !strcmp(refusals[i].opts ? refusals[i].opts : "", opts ? opts : ""))
            return refusals[i].refuses;
    ck_abort_msg("no refusals listed for %s %s", name, opts ? opts : "");
    return NULL;
    return NULL;
}

/* Whether word is one of the space-separated words of list. */
static int listed(const char *list, const char *word)
{
    const size_t n = strlen(word);
    for (const char *p = list; (p = strstr(p, word)); p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == 0)) return 1;
    return 0;
}

/* r, what tu_check_format returned (2: both multiplies ran, 0: refused), as listed. */
static void assert_refusal(const char *name, const char *opts, const char *shape, int r)
{
    const char *list = refused_shapes(name, opts);
    const int refuses = !strcmp(list, "*") || listed(list, shape);
    ck_assert_msg(r == (refuses ? 0 : 2), "%s %s on %s: %s", name, opts ? opts : "", shape,
                  r ? "multiplied, but it is listed as refusing" : "refused");
}

/* Every registered format with its defaults on every shape: it multiplies exactly the
 * shapes it is not listed as refusing. */
START_TEST(defaults_refuse_as_listed)
{
    spira_context ctx = tu_cpu();
    spira_matrix A = tu_shape_matrix(ctx, &tu_shapes[_i], SPIRA_R64, tu_seed() + (unsigned)_i);
    for (int f = 0; f < spira_format_count(); f++) {
        const char *name;
        ck_assert_int_eq(spira_format_describe(f, &name, NULL), SPIRA_OK);
        int r = tu_check_format(ctx, A, name, NULL, tu_shapes[_i].name,
                                tu_seed() + 7u * (unsigned)f);
        assert_refusal(name, NULL, tu_shapes[_i].name, r);
    }
    spira_matrix_destroy(A);
    spira_context_destroy(ctx);
}
END_TEST

/* Every variant (HYB with an ELL part, ELL/DIA past the default fill, short COO intervals)
 * on every awkward shape, both precisions, through spira_spmv on the CPU, refusing exactly
 * the shapes listed. */
START_TEST(variants_on_shapes)
{
    spira_context ctx = tu_cpu();
    for (int p = 0; p < 2; p++) {
        spira_dtype t = p ? SPIRA_R32 : SPIRA_R64;
        spira_matrix A = tu_shape_matrix(ctx, &tu_shapes[_i], t, tu_seed() + (unsigned)_i);
        for (int k = 0; k < tu_nformat_variants; k++) {
            int r = tu_check_format(ctx, A, tu_format_variants[k][0], tu_format_variants[k][1],
                                    tu_shapes[_i].name, tu_seed() + 11u * (unsigned)k);
            assert_refusal(tu_format_variants[k][0], tu_format_variants[k][1],
                           tu_shapes[_i].name, r);
        }
        spira_matrix_destroy(A);
    }
    spira_context_destroy(ctx);
}
END_TEST

/* A test case of the suite, with the time its tests may take. */
static TCase *tcase(Suite *s, const char *name)
{
    TCase *tc = tcase_create(name);
    tcase_set_timeout(tc, 120);
    suite_add_tcase(s, tc);
    return tc;
}

Suite *suite_formats(void)
{
    Suite *s = suite_create("formats");
    TCase *tc = tcase(s, "csr-family");
    tcase_add_test(tc, csr_vector_lanes_rule);
    tcase_add_test(tc, lightspmv_options);
    tc = tcase(s, "ell");
    tcase_add_test(tc, ell_refuses_dense_row);
    tcase_add_test(tc, ell_refuses_index_overflow);
    tcase_add_test(tc, ell_layout_contents);
    tc = tcase(s, "dia");
    tcase_add_test(tc, dia_refuses_random);
    tcase_add_test(tc, dia_rectangular);
    tc = tcase(s, "coo-hyb");
    tcase_add_test(tc, coo_layout_contents);
    tcase_add_test(tc, hyb_width_small_histogram);
    tcase_add_test(tc, hyb_width_floor);
    tcase_add_test(tc, hyb_width_capped_histogram);
    tc = tcase(s, "cmrs");
    tcase_add_test(tc, cmrs_layout_contents);
    tcase_add_test(tc, cmrs_refuses_wide);
    tc = tcase(s, "suraa");
    tcase_add_test(tc, suraa_layout_contents);
    tcase_add_test(tc, suraa_freedman_diaconis);
    tcase_add_test(tc, suraa_runs_are_contiguous);
    tc = tcase(s, "auto");
    tcase_add_test(tc, auto_row_stats);
    tcase_add_test(tc, auto_rules);
    tcase_add_test(tc, auto_rule_by_numbers);
    tcase_add_test(tc, auto_cost_matches_registry);
    tcase_add_test(tc, auto_default_follows_solves);
    tcase_add_test(tc, auto_solve_stages);
    tcase_add_test(tc, auto_select);
    tcase_add_test(tc, auto_trial);
    tcase_add_test(tc, auto_trial_alloc_failures);
    tc = tcase(s, "sell-merge");
    tcase_add_test(tc, sell_layout_contents);
    tcase_add_test(tc, sell_default_sigma);
    tcase_add_test(tc, sell_long_rows);
    tcase_add_test(tc, sell_unit_values);
    tcase_add_test(tc, sell_hub_columns);
    tcase_add_test(tc, sell_hubs_possible_bound);
    tcase_add_test(tc, merge_path_search);
    tcase_add_loop_test(tc, sell_merge_bundled, 0, tu_nbundled);
    tc = tcase(s, "every-format");
    tcase_add_test(tc, layout_bytes);
    tcase_add_test(tc, option_errors);
    tcase_add_test(tc, convert_alloc_failures);
    tcase_add_loop_test(tc, variants_on_shapes, 0, tu_nshapes);
    tcase_add_loop_test(tc, defaults_refuse_as_listed, 0, tu_nshapes);
    return s;
}
