/* test_spmv.c - every format's conversion and layout reference against the CSR reference
 * (CPU backend), on fresh random matrices of awkward shapes and on bundled real ones. */
#include "testutil.h"
#include "csr.h"
#include "cusparse_row.h"

#include <string.h>

START_TEST(all_formats_on_shapes)
{
    spira_context ctx = tu_cpu();
    for (int p = 0; p < 2; p++) {
        spira_dtype t = p ? SPIRA_R32 : SPIRA_R64;
        spira_matrix A = tu_shape_matrix(ctx, &tu_shapes[_i], t, tu_seed() + (unsigned)_i);
        ck_assert_int_gt(tu_check_all_formats(ctx, A, tu_shapes[_i].name, tu_seed() + 3), 0);
        spira_matrix_destroy(A);
    }
    spira_context_destroy(ctx);
}
END_TEST

START_TEST(unknown_format_lists_names)
{
    spira_context ctx = tu_cpu();
    spira_matrix A;
    ck_assert_int_eq(spira_matrix_laplacian(ctx, 2, 4, SPIRA_R64, &A), SPIRA_OK);
    ck_assert_int_eq(spira_matrix_set_format(A, "nope", NULL), SPIRA_ERR_INVALID_ARG);
    ck_assert_ptr_nonnull(strstr(spira_last_error(ctx), "csr-scalar"));
    spira_matrix_info info;
    spira_matrix_get_info(A, &info);
    ck_assert_str_eq(info.format, "auto"); /* unchanged: a new matrix's, not chosen yet */
    spira_matrix_destroy(A);
    spira_context_destroy(ctx);
}
END_TEST

START_TEST(spmv_checks_sizes)
{
    spira_context ctx = tu_cpu();
    spira_matrix A;
    spira_vector x, y;
    int32_t ri[] = {0, 1}, ci[] = {2, 0};
    ck_assert_int_eq(spira_matrix_from_coo(ctx, 2, 3, 2, ri, ci, NULL, SPIRA_R64, &A), SPIRA_OK);
    spira_vector_create(ctx, 2, SPIRA_R64, &x);
    spira_vector_create(ctx, 2, SPIRA_R64, &y);
    ck_assert_int_eq(spira_spmv(1, A, x, 0, y), SPIRA_ERR_INVALID_ARG);
    ck_assert_ptr_nonnull(strstr(spira_last_error(ctx), "2 x 3"));
    ck_assert_int_eq(spira_spmv(1, A, y, 0, y), SPIRA_ERR_INVALID_ARG);
    /* the graph timing checks the same, then needs CUDA */
    double ms;
    ck_assert_int_eq(spira_spmv_time_graph(1, A, x, 0, y, 5, 1, &ms), SPIRA_ERR_INVALID_ARG);
    spira_vector z;
    spira_vector_create(ctx, 3, SPIRA_R64, &z);
    ck_assert_int_eq(spira_spmv_time_graph(1, A, z, 0, y, 5, 1, &ms), SPIRA_ERR_UNSUPPORTED);
    ck_assert_ptr_nonnull(strstr(spira_last_error(ctx), "CUDA"));
    spira_vector_destroy(z);
    spira_vector_destroy(x);
    spira_vector_destroy(y);
    spira_matrix_destroy(A);
    spira_context_destroy(ctx);
}
END_TEST

/* A plan is built once and reused: the cache holds one entry per format. */
START_TEST(plan_cached)
{
    spira_context ctx = tu_cpu();
    spira_matrix A;
    spira_vector x, y;
    ck_assert_int_eq(spira_matrix_laplacian(ctx, 2, 10, SPIRA_R64, &A), SPIRA_OK);
    spira_vector_create(ctx, 100, SPIRA_R64, &x);
    spira_vector_create(ctx, 100, SPIRA_R64, &y);
    spira_vector_fill(x, 1);
    ck_assert_int_eq(spira_matrix_prepare(A), SPIRA_OK);
    void *first = A->cache->plan;
    for (int k = 0; k < 3; k++) ck_assert_int_eq(spira_spmv(1, A, x, 0, y), SPIRA_OK);
    ck_assert_ptr_eq(A->cache->plan, first);
    ck_assert_ptr_null(A->cache->next);
    spira_vector_destroy(x);
    spira_vector_destroy(y);
    spira_matrix_destroy(A);
    spira_context_destroy(ctx);
}
END_TEST

/* The cusparse row: CPU-only contexts are told it needs CUDA; its options parse to the
 * algorithm (0 default, 2 = CSR_ALG2) and anything else is refused with the value. */
START_TEST(cusparse_row_options)
{
    spira_context ctx = tu_cpu();
    spira_matrix A;
    spira_vector x, y;
    ck_assert_int_eq(spira_matrix_laplacian(ctx, 2, 6, SPIRA_R64, &A), SPIRA_OK);
    spira_vector_create(ctx, 36, SPIRA_R64, &x);
    spira_vector_create(ctx, 36, SPIRA_R64, &y);
    ck_assert_int_eq(spira_matrix_set_format(A, "cusparse", "alg=2"), SPIRA_OK);
    ck_assert_int_eq(spira_spmv(1, A, x, 0, y), SPIRA_ERR_UNSUPPORTED);
    ck_assert_ptr_nonnull(strstr(spira_last_error(ctx), "needs the CUDA backend"));
    const char *opts[] = {"", "alg=2", "alg=0", "alg=1", "alg=coo", "alg=coo2", "alg=sell",
                          "alg=3", "alg=two", "alg=coo3"};
    const int want[] = {SPIRA__CUSPARSE_DEFAULT, SPIRA__CUSPARSE_CSR2, SPIRA__CUSPARSE_DEFAULT,
                        SPIRA__CUSPARSE_CSR1, SPIRA__CUSPARSE_COO1, SPIRA__CUSPARSE_COO2,
                        SPIRA__CUSPARSE_SELL, -1, -1, -1};
    /* bytes a multiply reads: the CSR, COO (rows for pointers), or SELL's 32-row slices,
     * each as wide as its longest row (rows 0-31 of the 6 x 6 grid hold up to 5 entries,
     * rows 32-35, its last row less a corner, 4 and 3) */
    const size_t vb = sizeof(double), csr_b = spira__csr_layout_bytes(&A->csr);
    const size_t coo_b = (size_t)A->csr.nnz * (8 + vb), sell_b = 32 * (5 + 4) * (4 + vb) + 3 * 4;
    const size_t bytes[] = {csr_b, csr_b, csr_b, csr_b, coo_b, coo_b, sell_b};
    for (int k = 0; k < 10; k++) {
        void *L = NULL;
        spira_status s = spira__cusparse_format.convert(ctx, &A->csr, opts[k], &L);
        if (want[k] < 0) {
            ck_assert_int_eq(s, SPIRA_ERR_INVALID_ARG);
            ck_assert_ptr_null(L);
            continue;
        }
        ck_assert_int_eq(s, SPIRA_OK);
        ck_assert_int_eq(((spira__cusparse_layout *)L)->alg, want[k]);
        ck_assert_uint_eq(spira__cusparse_format.bytes(L), bytes[k]);
        spira__cusparse_format.destroy(L);
    }
    /* a deterministic context defaults to CSR_ALG2 and refuses ALG_DEFAULT */
    ctx->deterministic = 1;
    void *L = NULL;
    ck_assert_int_eq(spira__cusparse_format.convert(ctx, &A->csr, "", &L), SPIRA_OK);
    ck_assert_int_eq(((spira__cusparse_layout *)L)->alg, SPIRA__CUSPARSE_CSR2);
    spira__cusparse_format.destroy(L);
    L = NULL;
    ck_assert_int_eq(spira__cusparse_format.convert(ctx, &A->csr, "alg=coo2", &L), SPIRA_OK);
    spira__cusparse_format.destroy(L);
    const char *refused[] = {"alg=0", "alg=1", "alg=coo", "alg=sell"};
    for (int k = 0; k < 4; k++) {
        L = NULL;
        ck_assert_int_eq(spira__cusparse_format.convert(ctx, &A->csr, refused[k], &L),
                         SPIRA_ERR_UNSUPPORTED);
        ck_assert_ptr_nonnull(strstr(spira_last_error(ctx), "refuses"));
        ck_assert_ptr_null(L);
    }
    spira_vector_destroy(x);
    spira_vector_destroy(y);
    spira_matrix_destroy(A);
    spira_context_destroy(ctx);
}
END_TEST

Suite *suite_spmv(void)
{
    Suite *s = suite_create("spmv");
    TCase *tc = tcase_create("formats");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, all_formats_on_shapes, 0, tu_nshapes);
    tcase_add_test(tc, unknown_format_lists_names);
    tcase_add_test(tc, spmv_checks_sizes);
    tcase_add_test(tc, plan_cached);
    tcase_add_test(tc, cusparse_row_options);
    suite_add_tcase(s, tc);
    return s;
}
