/* test_csr.c - building canonical CSR (sorting, duplicates, validation), transpose, generators. */
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

START_TEST(coo_sorted_and_summed)
{
    spira_context ctx = tu_cpu();
    /* 3 x 4, unsorted, with a duplicate (1,2) twice */
    int32_t ri[] = {2, 1, 0, 1, 1, 2};
    int32_t ci[] = {3, 2, 0, 0, 2, 1};
    double v[] = {6, 2, 1, 3, 4, 5};
    spira_matrix A;
    ck_assert_int_eq(spira_matrix_from_coo(ctx, 3, 4, 6, ri, ci, v, SPIRA_R64, &A), SPIRA_OK);
    spira_matrix_info info;
    spira_matrix_get_info(A, &info);
    ck_assert_int_eq(info.nnz, 5);
    int32_t rp[4], cc[5];
    double vv[5];
    spira_matrix_get_csr(A, rp, cc, vv);
    int32_t erp[] = {0, 1, 3, 5}, ecc[] = {0, 0, 2, 1, 3};
    double evv[] = {1, 3, 6, 5, 6};
    ck_assert_mem_eq(rp, erp, sizeof erp);
    ck_assert_mem_eq(cc, ecc, sizeof ecc);
    for (int k = 0; k < 5; k++) ck_assert_double_eq(vv[k], evv[k]);
    spira_matrix_destroy(A);
    spira_context_destroy(ctx);
}
END_TEST

START_TEST(csr_arrays_unsorted_become_canonical)
{
    spira_context ctx = tu_cpu();
    int32_t rp[] = {0, 3, 3, 5};
    int32_t ci[] = {2, 0, 2, 1, 0};
    float v[] = {1, 2, 3, 4, 5};
    spira_matrix A;
    ck_assert_int_eq(spira_matrix_from_csr(ctx, 3, 3, rp, ci, v, SPIRA_R32, &A), SPIRA_OK);
    int32_t orp[4], oci[4];
    float ov[4];
    spira_matrix_get_csr(A, orp, oci, ov);
    int32_t erp[] = {0, 2, 2, 4}, eci[] = {0, 2, 0, 1};
    float ev[] = {2, 4, 5, 4};
    ck_assert_mem_eq(orp, erp, sizeof erp);
    ck_assert_mem_eq(oci, eci, sizeof eci);
    ck_assert_mem_eq(ov, ev, sizeof ev);
    spira_matrix_destroy(A);
    spira_context_destroy(ctx);
}
END_TEST

START_TEST(csr_validation)
{
    spira_context ctx = tu_cpu();
    spira_matrix A = (spira_matrix)1;
    int32_t rp_dec[] = {0, 2, 1}, ci[] = {0, 1, 0};
    ck_assert_int_eq(spira_matrix_from_csr(ctx, 2, 2, rp_dec, ci, NULL, SPIRA_R64, &A),
                     SPIRA_ERR_INVALID_ARG);
    ck_assert_ptr_null(A);
    ck_assert_ptr_nonnull(strstr(spira_last_error(ctx), "decreases at row 1"));
    int32_t rp_start[] = {1, 2, 3};
    ck_assert_int_eq(spira_matrix_from_csr(ctx, 2, 2, rp_start, ci, NULL, SPIRA_R64, &A),
                     SPIRA_ERR_INVALID_ARG);
    int32_t rp[] = {0, 1, 2}, ci_bad[] = {0, 2};
    ck_assert_int_eq(spira_matrix_from_csr(ctx, 2, 2, rp, ci_bad, NULL, SPIRA_R64, &A),
                     SPIRA_ERR_INVALID_ARG);
    ck_assert_ptr_nonnull(strstr(spira_last_error(ctx), "column 2"));
    int32_t ci_neg[] = {0, -1};
    ck_assert_int_eq(spira_matrix_from_csr(ctx, 2, 2, rp, ci_neg, NULL, SPIRA_R64, &A),
                     SPIRA_ERR_INVALID_ARG);
    ck_assert_int_eq(spira_matrix_from_csr(ctx, -1, 2, rp, ci, NULL, SPIRA_R64, &A),
                     SPIRA_ERR_INVALID_ARG);
    ck_assert_int_eq(spira_matrix_from_csr(ctx, 2, 2, NULL, ci, NULL, SPIRA_R64, &A),
                     SPIRA_ERR_INVALID_ARG);
    ck_assert_int_eq(spira_matrix_from_csr(ctx, 2, 2, rp, NULL, NULL, SPIRA_R64, &A),
                     SPIRA_ERR_INVALID_ARG);
    ck_assert_int_eq(spira_matrix_from_csr(ctx, 2, 2, rp, ci, NULL, (spira_dtype)7, &A),
                     SPIRA_ERR_INVALID_ARG);
    ck_assert_int_eq(spira_matrix_from_csr(NULL, 2, 2, rp, ci, NULL, SPIRA_R64, &A),
                     SPIRA_ERR_INVALID_ARG);
    spira_context_destroy(ctx);
}
END_TEST

/* Sizes beyond 32-bit indices are refused with the numbers, never wrapped. */
START_TEST(sizes_beyond_int32)
{
    spira_context ctx = tu_cpu();
    spira_matrix A = NULL;
    int32_t ri[] = {0}, ci[] = {0};
    ck_assert_int_eq(spira_matrix_from_coo(ctx, 3000000000LL, 5, 1, ri, ci, NULL, SPIRA_R64, &A),
                     SPIRA_ERR_UNSUPPORTED);
    ck_assert_ptr_nonnull(strstr(spira_last_error(ctx), "3000000000"));
    ck_assert_int_eq(spira_matrix_from_coo(ctx, 5, 5, 5000000000LL, ri, ci, NULL, SPIRA_R64, &A),
                     SPIRA_ERR_UNSUPPORTED);
    ck_assert_int_eq(spira_matrix_from_coo(ctx, 5, 5, -1, ri, ci, NULL, SPIRA_R64, &A),
                     SPIRA_ERR_INVALID_ARG);
    int32_t bad_r[] = {5};
    ck_assert_int_eq(spira_matrix_from_coo(ctx, 5, 5, 1, bad_r, ci, NULL, SPIRA_R64, &A),
                     SPIRA_ERR_INVALID_ARG);
    ck_assert_ptr_null(A);
    spira_vector v = NULL;
    ck_assert_int_eq(spira_vector_create(ctx, 3000000000LL, SPIRA_R64, &v), SPIRA_ERR_UNSUPPORTED);
    ck_assert_int_eq(spira_matrix_laplacian(ctx, 3, 2000, SPIRA_R64, &A), SPIRA_ERR_UNSUPPORTED);
    spira_context_destroy(ctx);
}
END_TEST

/* Few entries in very many columns: built without per-column work or memory. */
START_TEST(very_wide_matrix)
{
    spira_context ctx = tu_cpu();
    int32_t ri[] = {1, 0, 1, 1}, ci[] = {2000000000, 7, 5, 2000000000};
    double v[] = {1, 2, 3, 4};
    spira_matrix A;
    ck_assert_int_eq(spira_matrix_from_coo(ctx, 2, INT32_MAX, 4, ri, ci, v, SPIRA_R64, &A), SPIRA_OK);
    int32_t rp[3], cc[3];
    double vv[3];
    spira_matrix_get_csr(A, rp, cc, vv);
    ck_assert_int_eq(rp[2], 3);
    ck_assert_int_eq(cc[1], 5);
    ck_assert_int_eq(cc[2], 2000000000);
    ck_assert_double_eq(vv[2], 5.0);
    spira_matrix_destroy(A);
    spira_context_destroy(ctx);
}
END_TEST

START_TEST(transpose_twice_is_identity)
{
    spira_context ctx = tu_cpu();
    unsigned seed = tu_seed() + (unsigned)_i;
    spira_matrix A = tu_shape_matrix(ctx, &tu_shapes[_i], SPIRA_R64, seed), T, TT;
    ck_assert_int_eq(spira_matrix_transpose(A, &T), SPIRA_OK);
    ck_assert_int_eq(spira_matrix_transpose(T, &TT), SPIRA_OK);
    const spira__csr *a = &A->csr, *t = &T->csr, *tt = &TT->csr;
    ck_assert_int_eq(t->nrows, a->ncols);
    ck_assert_int_eq(t->nnz, a->nnz);
    /* canonical: strictly increasing columns in every row of T */
    for (int32_t i = 0; i < t->nrows; i++)
        for (int32_t k = t->row_ptr[i] + 1; k < t->row_ptr[i + 1]; k++)
            ck_assert_int_lt(t->col_idx[k - 1], t->col_idx[k]);
    ck_assert_mem_eq(tt->row_ptr, a->row_ptr, ((size_t)a->nrows + 1) * sizeof(int32_t));
    ck_assert_mem_eq(tt->col_idx, a->col_idx, (size_t)a->nnz * sizeof(int32_t));
    ck_assert_mem_eq(tt->val, a->val, (size_t)a->nnz * sizeof(double));
    spira_matrix_destroy(A);
    spira_matrix_destroy(T);
    spira_matrix_destroy(TT);
    spira_context_destroy(ctx);
}
END_TEST

/* c and one the same CSR, bit for bit. */
static void same_csr(const spira__csr *c, const spira__csr *one)
{
    ck_assert_int_eq(c->nrows, one->nrows);
    ck_assert_int_eq(c->nnz, one->nnz);
    ck_assert_mem_eq(c->row_ptr, one->row_ptr, ((size_t)one->nrows + 1) * sizeof(int32_t));
    ck_assert_mem_eq(c->col_idx, one->col_idx, (size_t)one->nnz * sizeof(int32_t));
    ck_assert_mem_eq(c->val, one->val, (size_t)one->nnz * spira_dtype_size(one->dtype));
}

/* out[m - 1] = make(arg) on m = 1, 2, 3 OpenMP threads (one each in a build without
 * OpenMP: then only what each test checks besides the agreement is tested). */
typedef spira_status (*make_fn)(const void *arg, spira_matrix *out);
static void on_1_2_3_threads(make_fn make, const void *arg, spira_matrix out[3])
{
    const int threads = tu_omp_threads(0);
    for (int m = 1; m <= 3; m++) {
        tu_omp_threads(m);
        ck_assert_int_eq(make(arg, &out[m - 1]), SPIRA_OK);
    }
    tu_omp_threads(threads);
}

static spira_status make_transpose(const void *A, spira_matrix *out)
{
    return spira_matrix_transpose((spira_matrix)A, out);
}

/* The symmetry check on a team (a matrix of 100,000 entries and more) names the first
 * mismatch in row order, as one thread does: none in the 3-D Laplacian on 40^3; with two
 * entries off (rows 50,000 and 20,000, the later one altered first), row 20,000's; within
 * the tolerance, none. */
START_TEST(asymmetry_in_parallel_names_the_first)
{
    spira_context ctx = tu_cpu();
    spira_matrix L;
    ck_assert_int_eq(spira_matrix_laplacian(ctx, 3, 40, SPIRA_R64, &L), SPIRA_OK);
    spira__csr *c = &L->csr;
    ck_assert_int_gt(c->nnz, 200000);
    double *v = c->val;
    const int32_t rows[2] = {50000, 20000};
    const double off[2] = {1e-3, 1e-13};
    const int threads = tu_omp_threads(0);
    for (int step = 0; step <= 4; step++) {
        if (step == 2 || step == 4) { /* alter the last entry of rows[] (a neighbor's) */
            const int32_t r = rows[step / 2 - 1];
            v[c->row_ptr[r + 1] - 1] += step == 4 ? 1e-3 : off[0];
        }
        for (int m = 1; m <= 3; m++) {
            tu_omp_threads(m);
            int32_t i, j;
            const int got = spira__csr_asymmetry(c, 1e-10, &i, &j);
            ck_assert_int_eq(got, step >= 2);
            if (got) {
                ck_assert_int_eq(i, step == 4 ? rows[1] : rows[0]);
                ck_assert_int_eq(j, c->col_idx[c->row_ptr[i + 1] - 1]);
            }
        }
        if (step == 1) { /* within rel: not a mismatch */
            v[c->row_ptr[rows[0]]] *= 1 + off[1];
        }
    }
    tu_omp_threads(threads);
    spira_matrix_destroy(L);
    spira_context_destroy(ctx);
}
END_TEST

/* A transpose large enough to run on a team (lib/csr.c: 100,000 entries and more) gives
 * the one-thread layout bit for bit with 2 and 3 threads, in both precisions, and
 * transposing back gives A. */
START_TEST(transpose_in_parallel_matches_one_thread)
{
    spira_context ctx = tu_cpu();
    const spira_dtype t = _i ? SPIRA_R32 : SPIRA_R64;
    spira_matrix A = tu_random_square(ctx, 20000, 6e-4, 0, t, tu_seed() + 7u * (unsigned)_i);
    ck_assert_int_gt(A->csr.nnz, 200000);
    spira_matrix T[3], TT;
    on_1_2_3_threads(make_transpose, A, T);
    for (int m = 2; m <= 3; m++) same_csr(&T[m - 1]->csr, &T[0]->csr);
    ck_assert_int_eq(spira_matrix_transpose(T[2], &TT), SPIRA_OK);
    same_csr(&TT->csr, &A->csr);
    for (int m = 0; m < 3; m++) spira_matrix_destroy(T[m]);
    spira_matrix_destroy(TT);
    spira_matrix_destroy(A);
    spira_context_destroy(ctx);
}
END_TEST

/* The transpose that scales row i by r[i] on the way (PageRank's P^T) is the plain
 * transpose scaled afterwards (the product in double, rounded once), bit for bit, on 1 to 3
 * threads, in both precisions. */
START_TEST(transpose_scaled_matches_scaling_after)
{
    spira_context ctx = tu_cpu();
    const spira_dtype t = _i ? SPIRA_R32 : SPIRA_R64;
    spira_matrix A = tu_random_square(ctx, 20000, 6e-4, 0, t, tu_seed() + 13u * (unsigned)_i);
    const spira__csr *c = &A->csr;
    double *r = malloc((size_t)c->nrows * sizeof *r);
    unsigned st = tu_seed();
    for (int32_t i = 0; i < c->nrows; i++) r[i] = 1.0 / tu_uniform(&st, 0.5, 7.0);
    spira__csr ref = {0};
    ck_assert_int_eq(spira__csr_transpose(ctx, c, &ref), SPIRA_OK);
    for (int64_t k = 0; k < ref.nnz; k++)
        spira__set(ref.val, t, k, spira__get(ref.val, t, k) * r[ref.col_idx[k]]);
    const int threads = tu_omp_threads(0);
    for (int m = 1; m <= 3; m++) {
        tu_omp_threads(m);
        spira__csr T = {0};
        ck_assert_int_eq(spira__csr_transpose_scaled(ctx, c, r, &T), SPIRA_OK);
        same_csr(&T, &ref);
        spira__csr_free(&T);
    }
    tu_omp_threads(threads);
    spira__csr_free(&ref);
    free(r);
    spira_matrix_destroy(A);
    spira_context_destroy(ctx);
}
END_TEST

typedef struct {
    spira_context ctx;
    int32_t n, nnz;
    const int32_t *ri, *ci;
    const void *v;
    spira_dtype t;
} coo_arrays;

static spira_status make_from_coo(const void *arg, spira_matrix *out)
{
    const coo_arrays *c = arg;
    return spira_matrix_from_coo(c->ctx, c->n, c->n, c->nnz, c->ri, c->ci, c->v, c->t, out);
}

/* A COO of 300,000 entries in random order, a tenth of them repeats of 1,000 positions
 * spread over the whole list (summed in input order, values of mixed magnitudes, so that
 * another order would round differently), built on 1, 2 and 3 threads (the counting sort
 * and the row sorts run on a team above 100,000 entries): the same CSR bit for bit,
 * canonical. */
START_TEST(from_coo_in_parallel_matches_one_thread)
{
    spira_context ctx = tu_cpu();
    const spira_dtype t = _i ? SPIRA_R32 : SPIRA_R64;
    const int32_t n = 20000, nnz = 300000;
    int32_t *ri = malloc((size_t)nnz * sizeof *ri), *ci = malloc((size_t)nnz * sizeof *ci);
    char *v = malloc((size_t)nnz * spira_dtype_size(t));
    ck_assert(ri && ci && v);
    unsigned st = tu_seed() + 11u * (unsigned)_i;
    for (int32_t k = 0; k < nnz; k++) {
        const int repeat = k >= 1000 && rand_r(&st) % 10 == 0; /* one of the first 1000 */
        const int32_t h = rand_r(&st) % 1000;
        ri[k] = repeat ? ri[h] : rand_r(&st) % n;
        ci[k] = repeat ? ci[h] : rand_r(&st) % n;
        const double x = ldexp((double)rand_r(&st) / RAND_MAX - 0.5, rand_r(&st) % 40);
        if (t == SPIRA_R64) ((double *)v)[k] = x;
        else ((float *)v)[k] = (float)x;
    }
    const coo_arrays arrays = {ctx, n, nnz, ri, ci, v, t};
    spira_matrix A[3];
    on_1_2_3_threads(make_from_coo, &arrays, A);
    const spira__csr *one = &A[0]->csr;
    ck_assert_int_lt(one->nnz, nnz); /* repeats were summed */
    for (int32_t i = 0; i < one->nrows; i++)
        for (int32_t k = one->row_ptr[i] + 1; k < one->row_ptr[i + 1]; k++)
            ck_assert_int_lt(one->col_idx[k - 1], one->col_idx[k]);
    for (int m = 2; m <= 3; m++) same_csr(&A[m - 1]->csr, one);
    for (int m = 0; m < 3; m++) spira_matrix_destroy(A[m]);
    free(ri), free(ci), free(v);
    spira_context_destroy(ctx);
}
END_TEST

START_TEST(laplacian_rows_sum)
{
    spira_context ctx = tu_cpu();
    spira_matrix A;
    ck_assert_int_eq(spira_matrix_laplacian(ctx, 3, 6, SPIRA_R64, &A), SPIRA_OK);
    const spira__csr *c = &A->csr;
    ck_assert_int_eq(c->nrows, 216);
    /* interior rows sum to 0, and the matrix is symmetric */
    int32_t interior = 1 + 6 + 36;
    double s = 0;
    for (int32_t k = c->row_ptr[interior]; k < c->row_ptr[interior + 1]; k++)
        s += ((double *)c->val)[k];
    ck_assert_double_eq(s, 0.0);
    ck_assert_int_eq(c->row_ptr[interior + 1] - c->row_ptr[interior], 7);
    spira_matrix T;
    ck_assert_int_eq(spira_matrix_transpose(A, &T), SPIRA_OK);
    ck_assert_mem_eq(T->csr.col_idx, c->col_idx, (size_t)c->nnz * 4);
    ck_assert_mem_eq(T->csr.val, c->val, (size_t)c->nnz * 8);
    spira_matrix_destroy(T);
    ck_assert_int_eq(spira_matrix_laplacian(ctx, 4, 6, SPIRA_R64, &T), SPIRA_ERR_INVALID_ARG);
    ck_assert_ptr_null(T);
    spira_matrix_destroy(A);
    spira_context_destroy(ctx);
}
END_TEST

/* spira_matrix_rmat is the graph of its drawn edges (spira__rmat_edge, each counted once,
 * repeats summed), in both types; the same seed gives the same graph, another seed another;
 * bad arguments and one-process sizes beyond 32-bit indices are refused before anything
 * is allocated. */
START_TEST(rmat_is_its_edges)
{
    spira_context ctx = tu_cpu();
    const int scale = 9, ef = 8;
    const int64_t n = 1 << scale, m = (int64_t)ef << scale;
    const uint64_t seed = tu_seed();
    int32_t *ri = malloc(m * sizeof *ri), *ci = malloc(m * sizeof *ci);
    for (int64_t k = 0; k < m; k++) {
        int64_t u, v;
        spira__rmat_edge(scale, seed, k, &u, &v);
        ri[k] = (int32_t)u, ci[k] = (int32_t)v;
    }
    for (int d = 0; d < 2; d++) {
        const spira_dtype t = d ? SPIRA_R32 : SPIRA_R64;
        spira_matrix G, E;
        ck_assert_int_eq(spira_matrix_rmat(ctx, scale, ef, seed, t, &G), SPIRA_OK);
        ck_assert_int_eq(spira_matrix_from_coo(ctx, n, n, m, ri, ci, NULL, t, &E), SPIRA_OK);
        same_csr(&G->csr, &E->csr);
        double total = 0;
        for (int32_t k = 0; k < G->csr.nnz; k++) total += spira__get(G->csr.val, t, k);
        ck_assert_double_eq(total, (double)m);
        ck_assert_int_lt(G->csr.nnz, m); /* repeats were drawn, and summed */
        spira_matrix_destroy(E);
        ck_assert_int_eq(spira_matrix_rmat(ctx, scale, ef, seed + 1, t, &E), SPIRA_OK);
        ck_assert_msg(E->csr.nnz != G->csr.nnz ||
                          memcmp(E->csr.col_idx, G->csr.col_idx, (size_t)G->csr.nnz * 4) != 0,
                      "seeds %llu and %llu made the same graph", (unsigned long long)seed,
                      (unsigned long long)seed + 1);
        spira_matrix_destroy(E), spira_matrix_destroy(G);
    }
    free(ri), free(ci);
    spira_matrix G = (spira_matrix)&G; /* not NULL: a refusal must clear it */
    const int bad[][3] = {{0, 8, SPIRA_R64}, {41, 8, SPIRA_R64}, {9, 0, SPIRA_R64},
                          {9, 1025, SPIRA_R64}, {9, 8, 7}};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        ck_assert_int_eq(spira_matrix_rmat(ctx, bad[i][0], bad[i][1], 1, (spira_dtype)bad[i][2],
                                           &G), SPIRA_ERR_INVALID_ARG);
        ck_assert_ptr_null(G);
    }
    /* 2^31 edges, and 2^31 vertices: the distributed generator's, not one process's */
    ck_assert_int_eq(spira_matrix_rmat(ctx, 30, 2, 1, SPIRA_R64, &G), SPIRA_ERR_UNSUPPORTED);
    ck_assert_ptr_nonnull(strstr(spira_last_error(ctx), "spira_dist_matrix_rmat"));
    ck_assert_int_eq(spira_matrix_rmat(ctx, 31, 1, 1, SPIRA_R64, &G), SPIRA_ERR_UNSUPPORTED);
    ck_assert_ptr_null(G);
    ck_assert_int_eq(spira_matrix_rmat(ctx, 9, 8, 1, SPIRA_R64, NULL), SPIRA_ERR_INVALID_ARG);
    spira_context_destroy(ctx);
}
END_TEST

/* The CSR reference in float agrees with the double reference on the same inputs. */
START_TEST(reference_spmv_float_vs_double)
{
    spira_context ctx = tu_cpu();
    unsigned seed = tu_seed() + 77 + (unsigned)_i;
    const tu_shape *sh = &tu_shapes[_i];
    spira_matrix Af = tu_shape_matrix(ctx, sh, SPIRA_R32, seed);
    spira_matrix Ad = tu_shape_matrix(ctx, sh, SPIRA_R64, seed);
    int32_t n = sh->ncols, m = sh->nrows;
    float *xf = malloc((n + 1) * sizeof *xf), *yf = malloc((m + 1) * sizeof *yf);
    double *xd = malloc((n + 1) * sizeof *xd), *yd = malloc((m + 1) * sizeof *yd);
    double *y2 = malloc((m + 1) * sizeof *y2), *sc = malloc((m + 1) * sizeof *sc);
    unsigned st = seed;
    for (int32_t j = 0; j < n; j++) xd[j] = xf[j] = (float)tu_uniform(&st, -1, 1);
    for (int32_t i = 0; i < m; i++) yd[i] = yf[i] = (float)tu_uniform(&st, -1, 1);
    spira__csr_spmv_host(&Af->csr, 2.0, xf, -1.0, yf);
    spira__csr_spmv_f64(&Ad->csr, 2.0, xd, -1.0, yd);
    for (int32_t i = 0; i < m; i++) {
        y2[i] = yf[i];
        double s = 1;
        for (int32_t k = Ad->csr.row_ptr[i]; k < Ad->csr.row_ptr[i + 1]; k++)
            s += fabs(((double *)Ad->csr.val)[k]);
        sc[i] = 2 * s;
    }
    tu_check_close(sh->name, y2, yd, sc, m, 1e-5);
    free(xf), free(yf), free(xd), free(yd), free(y2), free(sc);
    spira_matrix_destroy(Af);
    spira_matrix_destroy(Ad);
    spira_context_destroy(ctx);
}
END_TEST

/* spira__csr_values_one: every value exactly 1, on 1, 2 and 8 parts (threads 1, 4 and 16),
 * in both precisions; a single other value anywhere (first, in a later part, last; 2, -1,
 * NaN, a float just below 1) says no, as do no values and no entries. */
START_TEST(values_one_finds_any_other)
{
    const spira_dtype t = _i ? SPIRA_R32 : SPIRA_R64;
    enum { n = 1000000 };
    spira__csr c = {.nrows = 1, .ncols = n, .nnz = n, .dtype = t};
    const size_t es = spira_dtype_size(t);
    c.val = malloc((size_t)n * es);
    for (int64_t k = 0; k < n; k++) spira__set(c.val, t, k, 1.0);
    const int threads = tu_omp_threads(0);
    const int64_t at[4] = {0, n / 2 + 12345, n - 1, 3 * (n / 4)};
    const double odd[4] = {2.0, -1.0, NAN, 0.99999994};
    for (int m = 0; m < 3; m++) {
        tu_omp_threads(m == 0 ? 1 : m == 1 ? 4 : 16);
        ck_assert_int_eq(spira__csr_values_one(&c), 1);
        for (int j = 0; j < 4; j++) {
            spira__set(c.val, t, at[j], odd[j]);
            ck_assert_msg(!spira__csr_values_one(&c), "%g at %lld", odd[j], (long long)at[j]);
            spira__set(c.val, t, at[j], 1.0);
        }
    }
    tu_omp_threads(threads);
    c.nnz = 0;
    ck_assert_int_eq(spira__csr_values_one(&c), 0);
    free(c.val);
    c.val = NULL;
    c.nnz = n;
    ck_assert_int_eq(spira__csr_values_one(&c), 0);
}
END_TEST

Suite *suite_csr(void)
{
    Suite *s = suite_create("csr");
    TCase *tc = tcase_create("build");
    tcase_add_test(tc, coo_sorted_and_summed);
    tcase_add_test(tc, csr_arrays_unsorted_become_canonical);
    tcase_add_test(tc, csr_validation);
    tcase_add_test(tc, sizes_beyond_int32);
    tcase_add_test(tc, laplacian_rows_sum);
    tcase_add_test(tc, rmat_is_its_edges);
    tcase_add_test(tc, very_wide_matrix);
    tcase_add_loop_test(tc, transpose_twice_is_identity, 0, tu_nshapes);
    tcase_add_loop_test(tc, transpose_in_parallel_matches_one_thread, 0, 2);
    tcase_add_loop_test(tc, transpose_scaled_matches_scaling_after, 0, 2);
    tcase_add_test(tc, asymmetry_in_parallel_names_the_first);
    tcase_add_loop_test(tc, from_coo_in_parallel_matches_one_thread, 0, 2);
    tcase_add_loop_test(tc, reference_spmv_float_vs_double, 0, tu_nshapes);
    tcase_add_loop_test(tc, values_one_finds_any_other, 0, 2);
    suite_add_tcase(s, tc);
    return s;
}
