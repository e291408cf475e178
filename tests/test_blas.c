/* test_blas.c - vectors and BLAS-1 against plain double loops, both precisions. */
#include "testutil.h"

#include <math.h>
#include <stdlib.h>

START_TEST(blas_ops)
{
    spira_dtype t = _i % 2 ? SPIRA_R32 : SPIRA_R64;
    int32_t n = _i < 2 ? 1 : 1000 + _i;
    double tol = t == SPIRA_R64 ? 1e-14 : 1e-6;
    spira_context ctx = tu_cpu();
    unsigned st = tu_seed() + (unsigned)_i;
    double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *o = malloc(n * sizeof *o);
    for (int32_t i = 0; i < n; i++) {
        a[i] = (float)tu_uniform(&st, -1, 1);
        b[i] = (float)tu_uniform(&st, -1, 1);
    }
    spira_vector x, y;
    ck_assert_int_eq(spira_vector_create(ctx, n, t, &x), SPIRA_OK);
    ck_assert_int_eq(spira_vector_create(ctx, n, t, &y), SPIRA_OK);
    ck_assert_int_eq(spira_vector_length(x), n);
    spira_vector_set_f64(x, a);
    spira_vector_set_f64(y, b);
    double dot = 0, nrm = 0, r;
    for (int32_t i = 0; i < n; i++) dot += a[i] * b[i], nrm += a[i] * a[i];
    ck_assert_int_eq(spira_dot(x, y, &r), SPIRA_OK);
    ck_assert_double_eq_tol(r, dot, tol * n);
    ck_assert_int_eq(spira_nrm2(x, &r), SPIRA_OK);
    ck_assert_double_eq_tol(r, sqrt(nrm), tol * sqrt(nrm) * 4);
    /* y <- 2 x + 3 y */
    ck_assert_int_eq(spira_axpby(2.0, x, 3.0, y), SPIRA_OK);
    spira_vector_get_f64(y, o);
    for (int32_t i = 0; i < n; i++) ck_assert_double_eq_tol(o[i], 2 * a[i] + 3 * b[i], 5 * tol);
    /* y <- y - 0.5 x */
    ck_assert_int_eq(spira_axpy(-0.5, x, y), SPIRA_OK);
    spira_vector_get_f64(y, o);
    for (int32_t i = 0; i < n; i++) ck_assert_double_eq_tol(o[i], 1.5 * a[i] + 3 * b[i], 8 * tol);
    ck_assert_int_eq(spira_scal(-2.0, x), SPIRA_OK);
    ck_assert_int_eq(spira_copy(x, y), SPIRA_OK);
    spira_vector_get_f64(y, o);
    for (int32_t i = 0; i < n; i++) ck_assert_double_eq_tol(o[i], -2 * a[i], 2 * tol);
    ck_assert_int_eq(spira_vector_fill(y, 0.25), SPIRA_OK);
    spira_vector_get_f64(y, o);
    for (int32_t i = 0; i < n; i++) ck_assert_double_eq(o[i], 0.25);
    spira_vector_destroy(x);
    spira_vector_destroy(y);
    spira_context_destroy(ctx);
    free(a), free(b), free(o);
}
END_TEST

/* beta = 0 must not read y: NaN there does not propagate (BLAS semantics). */
START_TEST(axpby_beta_zero_ignores_nan)
{
    spira_context ctx = tu_cpu();
    spira_vector x, y;
    spira_vector_create(ctx, 3, SPIRA_R64, &x);
    spira_vector_create(ctx, 3, SPIRA_R64, &y);
    double a[] = {1, 2, 3}, b[] = {NAN, INFINITY, NAN}, o[3];
    spira_vector_set(x, a);
    spira_vector_set(y, b);
    ck_assert_int_eq(spira_axpby(2.0, x, 0.0, y), SPIRA_OK);
    spira_vector_get(y, o);
    for (int i = 0; i < 3; i++) ck_assert_double_eq(o[i], 2 * a[i]);
    spira_vector_destroy(x);
    spira_vector_destroy(y);
    spira_context_destroy(ctx);
}
END_TEST

START_TEST(mismatches_are_errors)
{
    spira_context ctx = tu_cpu();
    spira_vector x, y, z;
    spira_vector_create(ctx, 3, SPIRA_R64, &x);
    spira_vector_create(ctx, 4, SPIRA_R64, &y);
    spira_vector_create(ctx, 3, SPIRA_R32, &z);
    double r;
    ck_assert_int_eq(spira_dot(x, y, &r), SPIRA_ERR_INVALID_ARG);
    ck_assert_int_eq(spira_axpy(1, x, z), SPIRA_ERR_INVALID_ARG);
    ck_assert_int_eq(spira_dot(x, NULL, &r), SPIRA_ERR_INVALID_ARG);
    ck_assert_int_eq(spira_copy(NULL, x), SPIRA_ERR_INVALID_ARG);
    spira_vector_destroy(z);
    ck_assert_int_eq(spira_vector_create(ctx, -1, SPIRA_R64, &z), SPIRA_ERR_INVALID_ARG);
    ck_assert_ptr_null(z);
    ck_assert_int_eq(spira_nrm2(NULL, &r), SPIRA_ERR_INVALID_ARG);
    spira_vector_destroy(x);
    spira_vector_destroy(y);
    spira_vector_destroy(NULL);
    spira_context_destroy(ctx);
}
END_TEST

/* nrm2 does not overflow where the sum of squares would. */
START_TEST(nrm2_scaled)
{
    spira_context ctx = tu_cpu();
    spira_vector x;
    spira_vector_create(ctx, 2, SPIRA_R64, &x);
    double a[] = {3e200, 4e200}, r;
    spira_vector_set(x, a);
    spira_nrm2(x, &r);
    ck_assert_double_eq_tol(r, 5e200, 1e186);
    spira_vector_destroy(x);
    spira_context_destroy(ctx);
}
END_TEST

Suite *suite_blas(void)
{
    Suite *s = suite_create("blas");
    TCase *tc = tcase_create("cpu");
    tcase_add_loop_test(tc, blas_ops, 0, 6);
    tcase_add_test(tc, axpby_beta_zero_ignores_nan);
    tcase_add_test(tc, mismatches_are_errors);
    tcase_add_test(tc, nrm2_scaled);
    suite_add_tcase(s, tc);
    return s;
}
