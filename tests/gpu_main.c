/*
 * gpu_main.c - the GPU suites: the CPU suites' checks on the CUDA backend, against the
 * CPU double reference. Runs without fork (CUDA does not survive one) and exits 77, which
 * automake counts as SKIP, when no CUDA device is usable.
 */
#include "testutil.h"
#include "cuda/gateway.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static spira_context gpu;

static spira_context cpu(void)
{
    spira_context ctx;
    spira_context_opts o = {SPIRA_BACKEND_CPU, 0, 0};
    ck_assert_int_eq(spira_context_create(&ctx, &o), SPIRA_OK);
    return ctx;
}

START_TEST(gpu_blas_matches_cpu)
{
    spira_dtype t = _i % 2 ? SPIRA_R32 : SPIRA_R64;
    int32_t n = _i < 2 ? 1 : 100000 + 37 * _i;
    spira_context c = cpu();
    unsigned st = tu_seed() + (unsigned)_i;
    double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
    double *o1 = malloc(n * sizeof *o1), *o2 = malloc(n * sizeof *o2);
    for (int32_t i = 0; i < n; i++) a[i] = (float)tu_uniform(&st, -1, 1), b[i] = (float)tu_uniform(&st, -1, 1);
    spira_vector gx, gy, cx, cy;
    ck_assert_int_eq(spira_vector_create(gpu, n, t, &gx), SPIRA_OK);
    ck_assert_int_eq(spira_vector_create(gpu, n, t, &gy), SPIRA_OK);
    spira_vector_create(c, n, t, &cx);
    spira_vector_create(c, n, t, &cy);
    spira_vector_set_f64(gx, a), spira_vector_set_f64(cx, a);
    spira_vector_set_f64(gy, b), spira_vector_set_f64(cy, b);
    double tol = t == SPIRA_R64 ? 1e-12 : 1e-4, rg, rc;
    ck_assert_int_eq(spira_dot(gx, gy, &rg), SPIRA_OK);
    spira_dot(cx, cy, &rc);
    ck_assert_double_eq_tol(rg, rc, tol * sqrt(n));
    ck_assert_int_eq(spira_nrm2(gx, &rg), SPIRA_OK);
    spira_nrm2(cx, &rc);
    ck_assert_double_eq_tol(rg, rc, tol * rc);
    ck_assert_int_eq(spira_axpby(0.5, gx, -2.0, gy), SPIRA_OK);
    spira_axpby(0.5, cx, -2.0, cy);
    ck_assert_int_eq(spira_scal(3.0, gy), SPIRA_OK);
    spira_scal(3.0, cy);
    ck_assert_int_eq(spira_axpy(1.25, gx, gy), SPIRA_OK);
    spira_axpy(1.25, cx, cy);
    ck_assert_int_eq(spira__vector_pmul(gx, gy, gy), SPIRA_OK);
    spira__vector_pmul(cx, cy, cy);
    ck_assert_int_eq(spira_vector_get_f64(gy, o1), SPIRA_OK);
    spira_vector_get_f64(cy, o2);
    for (int32_t i = 0; i < n; i++) ck_assert_double_eq_tol(o1[i], o2[i], tol);
    ck_assert_int_eq(spira_copy(gx, gy), SPIRA_OK);
    ck_assert_int_eq(spira_vector_fill(gx, -0.5), SPIRA_OK);
    spira_vector_get_f64(gy, o1);
    spira_vector_get_f64(gx, o2);
    for (int32_t i = 0; i < n; i++) {
        ck_assert_double_eq(o1[i], a[i]);
        ck_assert_double_eq(o2[i], -0.5);
    }
    spira_vector_destroy(gx), spira_vector_destroy(gy);
    spira_vector_destroy(cx), spira_vector_destroy(cy);
    spira_context_destroy(c);
    free(a), free(b), free(o1), free(o2);
}
END_TEST

START_TEST(gpu_formats_on_shapes)
{
    for (int p = 0; p < 2; p++) {
        spira_dtype t = p ? SPIRA_R32 : SPIRA_R64;
        spira_matrix A = tu_shape_matrix(gpu, &tu_shapes[_i], t, tu_seed() + (unsigned)_i);
        ck_assert_int_gt(tu_check_all_formats(gpu, A, tu_shapes[_i].name, tu_seed() + 5), 0);
        spira_matrix_destroy(A);
    }
}
END_TEST

/* The format variants (HYB with an ELL part, ELL/DIA past the default fill, COO with one
 * chunk per warp, a few, or many: a row spanning many warps, carries fixed up across the
 * fix-up block's threads) on every shape. */
START_TEST(gpu_variants_on_shapes)
{
    int runs = 0;
    for (int p = 0; p < 2; p++) {
        spira_dtype t = p ? SPIRA_R32 : SPIRA_R64;
        spira_matrix A = tu_shape_matrix(gpu, &tu_shapes[_i], t, tu_seed() + (unsigned)_i);
        for (int k = 0; k < tu_nformat_variants; k++)
            runs += tu_check_format(gpu, A, tu_format_variants[k][0], tu_format_variants[k][1],
                                    tu_shapes[_i].name, tu_seed() + 13u * (unsigned)k);
        spira_matrix_destroy(A);
    }
    ck_assert_int_gt(runs, 0);
}
END_TEST

/* Matrices large enough that the default COO interval spans several 32-entry chunks per
 * warp and thousands of carries (a full wave of resident warps). */
START_TEST(gpu_formats_large)
{
    const tu_shape big[2] = {{"random", 300000, 300000}, {"power-law", 20000, 20000}};
    spira_dtype t = _i % 2 ? SPIRA_R32 : SPIRA_R64;
    spira_matrix A = tu_shape_matrix(gpu, &big[_i / 2], t, tu_seed() + 17u * (unsigned)_i);
    ck_assert_int_gt(tu_check_all_formats(gpu, A, big[_i / 2].name, tu_seed() + 19), 0);
    spira_matrix_destroy(A);
}
END_TEST

/* CG on the GPU takes the CPU's iteration count (within a few) and reaches the tolerance. */
START_TEST(gpu_cg_like_cpu)
{
    spira_context c = cpu();
    spira_context ctxs[2] = {c, gpu};
    spira_solve_info info[2];
    for (int k = 0; k < 2; k++) {
        spira_matrix A;
        ck_assert_int_eq(spira_matrix_laplacian(ctxs[k], 3, 24, SPIRA_R64, &A), SPIRA_OK);
        spira_vector b, x;
        spira_vector_create(ctxs[k], 24 * 24 * 24, SPIRA_R64, &b);
        spira_vector_create(ctxs[k], 24 * 24 * 24, SPIRA_R64, &x);
        spira_vector_fill(b, 1.0);
        spira_solve_opts o = {.rtol = 1e-10, .precond = SPIRA_PRECOND_JACOBI};
        ck_assert_int_eq(spira_solve(SPIRA_SOLVER_CG, A, b, x, &o, &info[k]), SPIRA_OK);
        ck_assert_double_le(info[k].rel_residual, 1e-9);
        spira_vector_destroy(b), spira_vector_destroy(x);
        spira_matrix_destroy(A);
    }
    ck_assert_int_le(abs(info[0].iterations - info[1].iterations), 2);
    spira_context_destroy(c);
}
END_TEST

/* Asking for more device memory than the card has: NOMEM with the sizes, and the context
 * still works for the next, smaller request. */
START_TEST(gpu_out_of_memory)
{
    void *p = NULL;
    ck_assert_int_eq(spira__cuda_malloc(gpu, &p, (size_t)1 << 45, "a huge buffer"), SPIRA_ERR_NOMEM);
    ck_assert_ptr_null(p);
    ck_assert_ptr_nonnull(strstr(spira_last_error(gpu), "35184372088832 bytes"));
    spira_vector v;
    ck_assert_int_eq(spira_vector_create(gpu, 1000, SPIRA_R64, &v), SPIRA_OK);
    ck_assert_int_eq(spira_vector_fill(v, 2.0), SPIRA_OK);
    double r;
    ck_assert_int_eq(spira_nrm2(v, &r), SPIRA_OK);
    ck_assert_double_eq_tol(r, 2.0 * sqrt(1000.0), 1e-9);
    spira_vector_destroy(v);
}
END_TEST

int main(void)
{
    spira_context_opts o = {SPIRA_BACKEND_CUDA, 0, 0};
    if (spira_context_create(&gpu, &o) != SPIRA_OK) {
        printf("skipped: no CUDA device (%s)\n", spira_last_error(gpu));
        spira_context_destroy(gpu);
        return 77;
    }
    printf("GPU: %s\n", spira_context_device_name(gpu));
    tu_seed();
    Suite *s = suite_create("gpu");
    TCase *tc = tcase_create("cuda");
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, gpu_blas_matches_cpu, 0, 6);
    tcase_add_loop_test(tc, gpu_formats_on_shapes, 0, tu_nshapes);
    tcase_add_loop_test(tc, gpu_variants_on_shapes, 0, tu_nshapes);
    tcase_add_loop_test(tc, gpu_formats_large, 0, 4);
    tcase_add_test(tc, gpu_cg_like_cpu);
    tcase_add_test(tc, gpu_out_of_memory);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_set_fork_status(sr, CK_NOFORK);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    spira_context_destroy(gpu);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
