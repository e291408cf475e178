/*
 * test_threads.c - two threads, each with its own context, solving different systems at
 * once give the answers each gives alone. (One context is not to be shared between
 * threads without a lock; two contexts are independent.) And a plan built on a thread of
 * its own beside a solve (spmv/background.h): taken once built, the answer as without it,
 * a failed build nobody's error, nothing leaked.
 */
#include "testutil.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    spira_backend backend;
    int n;            /* grid size of a 3-D Laplacian */
    spira_status s;
    int iterations;
    double *x;        /* solution, malloc'd */
} job;

static void *solve_job(void *arg)
{
    job *j = arg;
    spira_context ctx = NULL;
    spira_matrix A = NULL;
    spira_vector b = NULL, x = NULL;
    spira_context_opts o = {.backend = j->backend};
    int64_t rows = (int64_t)j->n * j->n * j->n;
    j->s = spira_context_create(&ctx, &o);
    if (j->s == SPIRA_OK) j->s = spira_matrix_laplacian(ctx, 3, j->n, SPIRA_R64, &A);
    if (j->s == SPIRA_OK) j->s = spira_vector_create(ctx, rows, SPIRA_R64, &b);
    if (j->s == SPIRA_OK) j->s = spira_vector_create(ctx, rows, SPIRA_R64, &x);
    if (j->s == SPIRA_OK) j->s = spira_vector_fill(b, 1.0);
    spira_solve_info info = {0};
    spira_solve_opts so = {.rtol = 1e-10};
    if (j->s == SPIRA_OK) j->s = spira_solve(SPIRA_SOLVER_CG, A, b, x, &so, &info);
    j->iterations = info.iterations;
    j->x = malloc((size_t)rows * sizeof *j->x);
    if (j->s == SPIRA_OK) j->s = spira_vector_get_f64(x, j->x);
    spira_vector_destroy(b), spira_vector_destroy(x);
    spira_matrix_destroy(A);
    spira_context_destroy(ctx);
    return NULL;
}

/* Run the two jobs alone, then at once, and compare. */
void tu_check_two_threads(spira_backend backend)
{
    job alone[2] = {{backend, 14, 0, 0, NULL}, {backend, 17, 0, 0, NULL}};
    job together[2] = {alone[0], alone[1]};
    for (int k = 0; k < 2; k++) {
        solve_job(&alone[k]);
        ck_assert_int_eq(alone[k].s, SPIRA_OK);
    }
    pthread_t th[2];
    for (int k = 0; k < 2; k++) ck_assert_int_eq(pthread_create(&th[k], NULL, solve_job, &together[k]), 0);
    for (int k = 0; k < 2; k++) pthread_join(th[k], NULL);
    for (int k = 0; k < 2; k++) {
        ck_assert_int_eq(together[k].s, SPIRA_OK);
        ck_assert_int_le(abs(together[k].iterations - alone[k].iterations), 1);
        int64_t rows = (int64_t)alone[k].n * alone[k].n * alone[k].n;
        for (int64_t i = 0; i < rows; i++)
            ck_assert_double_eq_tol(together[k].x[i], alone[k].x[i], 1e-9 * fabs(alone[k].x[i]) + 1e-12);
        free(alone[k].x), free(together[k].x);
    }
}

/* x of CG on A (b all ones) into a malloc'd array; *reason A's format_reason after it. */
static double *cg_ones(spira_matrix A, char *reason, size_t len)
{
    spira_matrix_info mi;
    spira_matrix_get_info(A, &mi);
    spira_vector b, x;
    tu_vectors_for(A, &b, &x);
    ck_assert_int_eq(spira_vector_fill(b, 1.0), SPIRA_OK);
    spira_solve_info si;
    spira_status s = spira_solve(SPIRA_SOLVER_CG, A, b, x, NULL, &si);
    ck_assert_msg(s == SPIRA_OK, "%s", spira_last_error(A->ctx));
    double *h = malloc((size_t)mi.nrows * sizeof *h);
    ck_assert_int_eq(spira_vector_get_f64(x, h), SPIRA_OK);
    spira_matrix_get_info(A, &mi);
    snprintf(reason, len, "%s", mi.format_reason);
    spira_vector_destroy(b), spira_vector_destroy(x);
    return h;
}

void tu_check_built_beside(spira_context ctx, const char *format)
{
    /* the worker ctx may have (made with it) goes first, so that what the jobs make is what
     * the end frees */
    spira__worker_stop(ctx);
    const int was = ctx->background;
    const long live = spira__alloc_live();
    const int32_t n = 10000;
    char reason[600];
    /* without: the solve alone */
    ctx->background = 0;
    spira_matrix A;
    ck_assert_int_eq(spira_matrix_laplacian(ctx, 2, 100, SPIRA_R64, &A), SPIRA_OK);
    double *alone = cg_ones(A, reason, sizeof reason);
    ck_assert_ptr_null(strstr(reason, "beside"));
    spira_matrix_destroy(A);
    /* with, twice on fresh matrices */
    ctx->background = 1;
    ctx->background_format = format;
    double *with[2];
    for (int k = 0; k < 2; k++) {
        ck_assert_int_eq(spira_matrix_laplacian(ctx, 2, 100, SPIRA_R64, &A), SPIRA_OK);
        with[k] = cg_ones(A, reason, sizeof reason);
        char built[64];
        snprintf(built, sizeof built, "; %s built beside the solve in ", format);
        ck_assert_msg(strstr(reason, built), "%s", reason);
        /* switched once the plan was built, or at the second look if it was not by then */
        ck_assert_msg(strstr(reason, " predicted at iteration 32 (") ||
                          strstr(reason, " expected left; "), "%s", reason);
        ck_assert(spira__spmv_plan_cached(A, format));
        /* the adopted plan multiplies on A's context: A's own, and right */
        ck_assert_int_eq(spira_matrix_set_format(A, format, NULL), SPIRA_OK);
        ck_assert_int_gt(tu_check_format(ctx, A, format, NULL, "2-D Laplacian", tu_seed()), 0);
        spira_matrix_destroy(A);
    }
    /* on the CPU every look keeps csr-scalar: the same bits as alone; on the GPU the
     * switch comes when the build is done, to a plan whose sums are ordered otherwise: each
     * x within the tolerance's reach (1e-8 on a matrix of condition about 6,000) */
    for (int k = 0; k < 2; k++)
        for (int32_t i = 0; i < n; i++) {
            if (ctx->backend == SPIRA_BACKEND_CPU)
                ck_assert_msg(memcmp(&with[k][i], &alone[i], sizeof(double)) == 0, "x[%d]", i);
            else
                ck_assert_double_eq_tol(with[k][i], alone[i], 1e-3 * fabs(alone[i]));
        }
    free(alone), free(with[0]), free(with[1]);
    /* a build that fails (dia refuses a band numbered at random) is nobody's error; a solve
     * that converges before its second look takes it at its end */
    ctx->background_format = "dia";
    A = tu_scrambled_band(ctx, 4000, 3, 0, SPIRA_R64, tu_seed());
    free(cg_ones(A, reason, sizeof reason));
    ck_assert_msg(strstr(reason, "dia not built beside the solve: ") &&
                      strstr(reason, "dia refuses"), "%s", reason);
    ck_assert(!spira__spmv_plan_cached(A, "dia"));
    spira_matrix_destroy(A);
    ctx->background_format = NULL;
    ctx->background = was;
    /* the worker and its builder stay with ctx until ctx goes: all else is freed */
    spira__worker_stop(ctx);
    ck_assert_int_eq(spira__alloc_live(), live);
}

START_TEST(plans_built_beside)
{
    spira_context ctx = tu_cpu();
    tu_check_built_beside(ctx, "ell");
    spira_context_destroy(ctx);
}
END_TEST

START_TEST(two_cpu_contexts_at_once)
{
    tu_check_two_threads(SPIRA_BACKEND_CPU);
}
END_TEST

Suite *suite_threads(void)
{
    Suite *s = suite_create("threads");
    TCase *tc = tcase_create("contexts");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, two_cpu_contexts_at_once);
    tcase_add_test(tc, plans_built_beside);
    suite_add_tcase(s, tc);
    return s;
}
