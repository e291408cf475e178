/* test_solvers.c - CG on known problems, its stopping reasons and its error paths; the
 * reusable solver handle against spira_solve. */
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* b = A * ones, so the solution is known exactly. */
static spira_vector rhs_of_ones(spira_matrix A, spira_vector *xtrue)
{
    spira_matrix_info info;
    spira_matrix_get_info(A, &info);
    spira_vector b;
    ck_assert_int_eq(spira_vector_create(A->ctx, info.nrows, info.dtype, &b), SPIRA_OK);
    ck_assert_int_eq(spira_vector_create(A->ctx, info.nrows, info.dtype, xtrue), SPIRA_OK);
    spira_vector_fill(*xtrue, 1.0);
    ck_assert_int_eq(spira_spmv(1.0, A, *xtrue, 0.0, b), SPIRA_OK);
    return b;
}

START_TEST(cg_laplacian)
{
    spira_dtype t = _i ? SPIRA_R32 : SPIRA_R64;
    spira_context ctx = tu_cpu();
    spira_matrix A;
    ck_assert_int_eq(spira_matrix_laplacian(ctx, 2, 32, t, &A), SPIRA_OK);
    spira_vector xt, b = rhs_of_ones(A, &xt), x;
    spira_vector_create(ctx, 1024, t, &x);
    spira_solve_opts o = {.rtol = t == SPIRA_R64 ? 1e-10 : 1e-5};
    spira_solve_info info;
    ck_assert_int_eq(spira_solve(SPIRA_SOLVER_CG, A, b, x, &o, &info), SPIRA_OK);
    ck_assert_int_eq(info.reason, SPIRA_CONVERGED_RTOL);
    ck_assert_double_le(info.rel_residual, o.rtol * 10);
    /* unpreconditioned CG on the 32x32 Laplacian: about 2 sqrt(kappa) ~ 80 iterations */
    ck_assert_int_gt(info.iterations, 30);
    ck_assert_int_lt(info.iterations, 120);
    ck_assert_str_eq(info.format, "csr-scalar");
    spira_axpy(-1.0, xt, x);
    double err;
    spira_nrm2(x, &err);
    ck_assert_double_le(err / 32.0, t == SPIRA_R64 ? 1e-7 : 1e-2);
    spira_vector_destroy(x), spira_vector_destroy(xt), spira_vector_destroy(b);
    spira_matrix_destroy(A);
    spira_context_destroy(ctx);
}
END_TEST

static int count_calls(int it, double r, void *data)
{
    (void)r;
    *(int *)data = it;
    return 0;
}

START_TEST(cg_maxit_and_history)
{
    spira_context ctx = tu_cpu();
    spira_matrix A;
    spira_matrix_laplacian(ctx, 3, 12, SPIRA_R64, &A);
    spira_vector xt, b = rhs_of_ones(A, &xt), x;
    spira_vector_create(ctx, 1728, SPIRA_R64, &x);
    double hist[6] = {0};
    int last = -1;
    spira_solve_opts o = {.rtol = 1e-12, .maxit = 5, .history = hist, .history_len = 6,
                          .monitor = count_calls, .monitor_data = &last};
    spira_solve_info info;
    ck_assert_int_eq(spira_solve(SPIRA_SOLVER_CG, A, b, x, &o, &info), SPIRA_ERR_NOT_CONVERGED);
    ck_assert_int_eq(info.reason, SPIRA_STOPPED_MAXIT);
    ck_assert_int_eq(info.iterations, 5);
    ck_assert_int_eq(last, 5);
    double bn;
    spira_nrm2(b, &bn);
    ck_assert_double_eq_tol(hist[0], bn, 1e-12 * bn);
    ck_assert_double_lt(hist[5], hist[0]);
    ck_assert_ptr_nonnull(strstr(spira_last_error(ctx), "5 iterations"));
    /* restart from the given x: converges, and the true residual confirms it */
    o.maxit = 500;
    o.use_initial_guess = 1;
    o.history = NULL;
    ck_assert_int_eq(spira_solve(SPIRA_SOLVER_CG, A, b, x, &o, &info), SPIRA_OK);
    ck_assert_double_le(info.rel_residual, 1e-11);
    spira_vector_destroy(x), spira_vector_destroy(xt), spira_vector_destroy(b);
    spira_matrix_destroy(A);
    spira_context_destroy(ctx);
}
END_TEST

START_TEST(cg_jacobi_preconditioned)
{
    spira_context ctx = tu_cpu();
    /* a badly scaled SPD diagonal-dominant matrix: Jacobi fixes the scaling at once */
    int32_t n = 200, ri[600], ci[600];
    double v[600];
    int k = 0;
    for (int32_t i = 0; i < n; i++) {
        double s = pow(10.0, (i % 7) - 3);
        ri[k] = i, ci[k] = i, v[k++] = 4 * s;
        if (i > 0) ri[k] = i, ci[k] = i - 1, v[k++] = -0.5 * sqrt(s * pow(10.0, ((i - 1) % 7) - 3));
        if (i < n - 1) ri[k] = i, ci[k] = i + 1, v[k++] = -0.5 * sqrt(s * pow(10.0, ((i + 1) % 7) - 3));
    }
    spira_matrix A;
    ck_assert_int_eq(spira_matrix_from_coo(ctx, n, n, k, ri, ci, v, SPIRA_R64, &A), SPIRA_OK);
    spira_vector xt, b = rhs_of_ones(A, &xt), x;
    spira_vector_create(ctx, n, SPIRA_R64, &x);
    spira_solve_opts o = {.rtol = 1e-10, .maxit = 1000};
    spira_solve_info plain, pre;
    ck_assert_int_eq(spira_solve(SPIRA_SOLVER_CG, A, b, x, &o, &plain), SPIRA_OK);
    o.precond = SPIRA_PRECOND_JACOBI;
    ck_assert_int_eq(spira_solve(SPIRA_SOLVER_CG, A, b, x, &o, &pre), SPIRA_OK);
    ck_assert_int_lt(pre.iterations, plain.iterations);
    ck_assert_double_le(pre.rel_residual, 1e-9);
    spira_vector_destroy(x), spira_vector_destroy(xt), spira_vector_destroy(b);
    spira_matrix_destroy(A);
    spira_context_destroy(ctx);
}
END_TEST

START_TEST(cg_breakdown_on_indefinite)
{
    spira_context ctx = tu_cpu();
    /* diag(1, -1): (p, Ap) = 0 for b = (1, 1) */
    int32_t ri[] = {0, 1}, ci[] = {0, 1};
    double v[] = {1, -1}, bb[] = {1, 1};
    spira_matrix A;
    spira_matrix_from_coo(ctx, 2, 2, 2, ri, ci, v, SPIRA_R64, &A);
    spira_vector b, x;
    tu_vectors_for(A, &b, &x);
    spira_vector_set(b, bb);
    spira_solve_info info;
    ck_assert_int_eq(spira_solve(SPIRA_SOLVER_CG, A, b, x, NULL, &info), SPIRA_ERR_BREAKDOWN);
    ck_assert_int_eq(info.reason, SPIRA_STOPPED_BREAKDOWN);
    ck_assert_ptr_nonnull(strstr(spira_last_error(ctx), "(p, A p)"));
    tu_assert_error_has(ctx, "A is not symmetric positive definite: try BiCGSTAB");
    /* the true residual of the x handed back is still reported: x = 0, so exactly 1 */
    ck_assert_double_eq(info.rel_residual, 1.0);
    /* with Jacobi, M^-1 = diag(1, -1) is indefinite: (r, M^-1 r) = 1 - 4 < 0 for b = (1, 2),
     * a breakdown that names the preconditioner */
    double b2[] = {1, 2};
    spira_vector_set(b, b2);
    spira_solve_opts o = {.precond = SPIRA_PRECOND_JACOBI};
    ck_assert_int_eq(spira_solve(SPIRA_SOLVER_CG, A, b, x, &o, &info), SPIRA_ERR_BREAKDOWN);
    ck_assert_int_eq(info.reason, SPIRA_STOPPED_BREAKDOWN);
    tu_assert_error_has(ctx, "(r, M^-1 r) < 0: the preconditioner jacobi is not positive "
                             "definite, which CG needs; (r, M^-1 r) = -3");
    ck_assert_int_eq(info.iterations, 1);
    spira_vector_destroy(x), spira_vector_destroy(b);
    spira_matrix_destroy(A);
    spira_context_destroy(ctx);
}
END_TEST

START_TEST(solve_bad_inputs)
{
    spira_context ctx = tu_cpu();
    spira_matrix A, R;
    spira_matrix_laplacian(ctx, 2, 4, SPIRA_R64, &A);
    int32_t ri[] = {0}, ci[] = {2};
    spira_matrix_from_coo(ctx, 2, 3, 1, ri, ci, NULL, SPIRA_R64, &R);
    spira_vector b, x, x5, xf;
    tu_vectors_for(A, &b, &x);
    spira_vector_create(ctx, 5, SPIRA_R64, &x5);
    spira_vector_create(ctx, 16, SPIRA_R32, &xf);
    spira_solve_info info;
    /* b = 0: x = 0 at once */
    spira_vector_fill(b, 0);
    spira_vector_fill(x, 7);
    ck_assert_int_eq(spira_solve(SPIRA_SOLVER_CG, A, b, x, NULL, &info), SPIRA_OK);
    ck_assert_int_eq(info.reason, SPIRA_CONVERGED_ZERO_RHS);
    double nx;
    spira_nrm2(x, &nx);
    ck_assert_double_eq(nx, 0);
    /* non-square, size and precision mismatch, NaN in b */
    ck_assert_int_eq(spira_solve(SPIRA_SOLVER_CG, R, b, x, NULL, &info), SPIRA_ERR_INVALID_ARG);
    ck_assert_ptr_nonnull(strstr(spira_last_error(ctx), "square"));
    ck_assert_int_eq(spira_solve(SPIRA_SOLVER_CG, A, b, x5, NULL, &info), SPIRA_ERR_INVALID_ARG);
    ck_assert_int_eq(spira_solve(SPIRA_SOLVER_CG, A, b, xf, NULL, &info), SPIRA_ERR_INVALID_ARG);
    ck_assert_int_eq(spira_solve(SPIRA_SOLVER_CG, A, b, b, NULL, &info), SPIRA_ERR_INVALID_ARG);
    ck_assert_int_eq(spira_solve((spira_solver_type)99, A, b, x, NULL, &info), SPIRA_ERR_INVALID_ARG);
    spira_vector_fill(b, NAN);
    ck_assert_int_eq(spira_solve(SPIRA_SOLVER_CG, A, b, x, NULL, &info), SPIRA_ERR_NONFINITE);
    spira_vector_destroy(b), spira_vector_destroy(x), spira_vector_destroy(x5);
    spira_vector_destroy(xf);
    spira_matrix_destroy(A), spira_matrix_destroy(R);
    spira_context_destroy(ctx);
}
END_TEST

/* Solvers that cannot win stop and say so: Jacobi on [[1, 1], [-1, 1]] (its iteration
 * matrix is a rotation: ||r|| never changes) stagnates; CG on that nonsymmetric A says so
 * and points at BiCGSTAB, which solves it. */
START_TEST(hopeless_solves_stop)
{
    spira_context ctx = tu_cpu();
    int32_t ri[] = {0, 0, 1, 1}, ci[] = {0, 1, 0, 1};
    double v[] = {1, 1, -1, 1}, bb[] = {1, 0};
    spira_matrix A;
    spira_matrix_from_coo(ctx, 2, 2, 4, ri, ci, v, SPIRA_R64, &A);
    spira_vector b, x;
    tu_vectors_for(A, &b, &x);
    spira_vector_set(b, bb);
    spira_solve_info info;
    spira_solve_opts o = {.stagnation_window = 50};
    ck_assert_int_eq(spira_solve(SPIRA_SOLVER_JACOBI, A, b, x, &o, &info),
                     SPIRA_ERR_NOT_CONVERGED);
    ck_assert_int_eq(info.reason, SPIRA_STOPPED_STAGNATION);
    ck_assert_int_eq(info.iterations, 50);
    tu_assert_error_has(ctx, "stagnation: in 50 iterations (0 to 50)");
    o.stagnation_window = 0; /* the default, 1000 */
    ck_assert_int_eq(spira_solve(SPIRA_SOLVER_JACOBI, A, b, x, &o, &info),
                     SPIRA_ERR_NOT_CONVERGED);
    ck_assert_int_eq(info.reason, SPIRA_STOPPED_STAGNATION);
    ck_assert_int_eq(info.iterations, 1000);
    o.stagnation_window = -1;
    ck_assert_int_eq(spira_solve(SPIRA_SOLVER_JACOBI, A, b, x, &o, &info), SPIRA_ERR_INVALID_ARG);
    tu_assert_error_has(ctx, "spira_solve_opts.stagnation_window = -1");
    /* CG: whatever stops it, the message says A is not symmetric and names an entry */
    o = (spira_solve_opts){.maxit = 20};
    spira_status s = spira_solve(SPIRA_SOLVER_CG, A, b, x, &o, &info);
    ck_assert_int_ne(s, SPIRA_OK);
    tu_assert_error_has(ctx, "A is not symmetric (A(1,2) = 1 but A(2,1) = -1, 1-based), and CG "
                             "needs symmetric positive definite A: try BiCGSTAB");
    ck_assert_int_eq(spira_solve(SPIRA_SOLVER_BICGSTAB, A, b, x, NULL, &info), SPIRA_OK);
    ck_assert_double_le(info.rel_residual, 1e-8);
    spira_vector_destroy(x), spira_vector_destroy(b);
    spira_matrix_destroy(A);
    spira_context_destroy(ctx);
}
END_TEST

/* The default stagnation window grows with A: n steps end a Krylov method in exact
 * arithmetic, so a plateau shorter than n is not taken for stagnation. 750 copies of the
 * rotation block above (1500 rows): Jacobi stops after 1500 iterations, not 1000. */
START_TEST(stagnation_window_grows_with_n)
{
    spira_context ctx = tu_cpu();
    enum { BLOCKS = 750, N = 2 * BLOCKS };
    int32_t ri[4 * BLOCKS], ci[4 * BLOCKS];
    double v[4 * BLOCKS], bb[N] = {0};
    for (int k = 0; k < BLOCKS; k++) {
        const int32_t r[] = {0, 0, 1, 1}, c[] = {0, 1, 0, 1};
        const double a[] = {1, 1, -1, 1};
        for (int e = 0; e < 4; e++) {
            ri[4 * k + e] = 2 * k + r[e], ci[4 * k + e] = 2 * k + c[e], v[4 * k + e] = a[e];
        }
        bb[2 * k] = 1;
    }
    spira_matrix A;
    ck_assert_int_eq(spira_matrix_from_coo(ctx, N, N, 4 * BLOCKS, ri, ci, v, SPIRA_R64, &A),
                     SPIRA_OK);
    spira_vector b, x;
    tu_vectors_for(A, &b, &x);
    spira_vector_set(b, bb);
    spira_solve_info info;
    const spira_solve_opts o = {.maxit = 5000};
    ck_assert_int_eq(spira_solve(SPIRA_SOLVER_JACOBI, A, b, x, &o, &info),
                     SPIRA_ERR_NOT_CONVERGED);
    ck_assert_int_eq(info.reason, SPIRA_STOPPED_STAGNATION);
    ck_assert_int_eq(info.iterations, N);
    spira_vector_destroy(x), spira_vector_destroy(b);
    spira_matrix_destroy(A);
    spira_context_destroy(ctx);
}
END_TEST

/* Kershaw's matrix: CG with ILU(0) (= IC(0) here) retries on A + alpha diag(A) until every
 * pivot is positive, says which alpha in info, and converges; in float too (_i). */
START_TEST(ic0_shifted_for_kershaw)
{
    spira_dtype t = _i ? SPIRA_R32 : SPIRA_R64;
    spira_context ctx = tu_cpu();
    spira_matrix A = tu_kershaw(ctx, t);
    spira_vector xt, x, b = rhs_of_ones(A, &xt);
    spira_vector_create(ctx, 4, t, &x);
    spira_solve_opts o = {.precond = SPIRA_PRECOND_ILU0, .rtol = t == SPIRA_R64 ? 1e-10 : 1e-5};
    spira_solve_info info;
    ck_assert_int_eq(spira_solve(SPIRA_SOLVER_CG, A, b, x, &o, &info), SPIRA_OK);
    ck_assert_double_gt(info.precond_shift, 0);
    ck_assert_double_le(info.precond_shift, 8); /* diagonally dominant from alpha = 4/3 on */
    ck_assert_double_le(info.rel_residual, o.rtol);
    ck_assert_int_le(info.iterations, 8);
    /* without a preconditioner nothing is shifted */
    o.precond = SPIRA_PRECOND_NONE;
    ck_assert_int_eq(spira_solve(SPIRA_SOLVER_CG, A, b, x, &o, &info), SPIRA_OK);
    ck_assert_double_eq(info.precond_shift, 0);
    spira_vector_destroy(x), spira_vector_destroy(xt), spira_vector_destroy(b);
    spira_matrix_destroy(A);
    spira_context_destroy(ctx);
}
END_TEST

/* Every field of spira_solve_opts is checked, by name, before any work; 0 keeps meaning
 * the default and SPIRA_TOL_ZERO asks for a tolerance of exactly 0. */
START_TEST(solve_opts_checked)
{
    spira_context ctx = tu_cpu();
    spira_matrix A;
    spira_matrix_laplacian(ctx, 2, 8, SPIRA_R64, &A);
    spira_vector xt, x, b = rhs_of_ones(A, &xt);
    spira_vector_create(ctx, 64, SPIRA_R64, &x);
    static const struct { spira_solve_opts o; const char *says; } bad[] = {
        {{.rtol = NAN}, "spira_solve_opts.rtol = nan: want a finite number >= 0"},
        {{.rtol = INFINITY}, "spira_solve_opts.rtol = inf"},
        {{.rtol = -2}, "spira_solve_opts.rtol = -2"},
        {{.atol = -1e-3}, "spira_solve_opts.atol = -0.001"},
        {{.atol = NAN}, "spira_solve_opts.atol = nan"},
        {{.maxit = -5}, "spira_solve_opts.maxit = -5: want an integer from 1 to 2147483647"},
        {{.precond = (spira_precond_type)99}, "spira_solve_opts.precond = 99"},
        {{.precond_degree = -1}, "spira_solve_opts.precond_degree = -1"},
        {{.precond_degree = 65}, "spira_solve_opts.precond_degree = 65: want an integer from 1 to 64"},
        {{.precond_drop_tol = 1.5}, "spira_solve_opts.precond_drop_tol = 1.5: want a finite number in (0, 1)"},
        {{.precond_fill = 0.5}, "spira_solve_opts.precond_fill = 0.5"},
        {{.trisolve_sweeps = -1}, "spira_solve_opts.trisolve_sweeps = -1: want an integer from 0"},
        {{.trisolve_sweeps = 65}, "spira_solve_opts.trisolve_sweeps = 65: want an integer from 0 "
                                  "(exact triangular solves) to 64"},
        {{.damping = -1}, "spira_solve_opts.damping = -1"},
        {{.damping = NAN}, "spira_solve_opts.damping = nan"},
        {{.history_len = -1}, "spira_solve_opts.history_len = -1"},
        {{.backend = SPIRA_BACKEND_CUDA}, "spira_solve_opts.backend = CUDA in a context on the CPU"},
        {{.backend = (spira_backend)7}, "spira_solve_opts.backend = 7: unknown backend"},
    };
    spira_solve_info info;
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        long live = spira__alloc_live();
        ck_assert_int_eq(spira_solve(SPIRA_SOLVER_CG, A, b, x, &bad[i].o, &info),
                         SPIRA_ERR_INVALID_ARG);
        tu_assert_error_has(ctx, bad[i].says);
        ck_assert_int_eq(info.iterations, 0);
        ck_assert_int_eq(spira__alloc_live(), live);
    }
    /* zeroed: the defaults (rtol 1e-8) */
    spira_solve_opts o = {0};
    ck_assert_int_eq(spira_solve(SPIRA_SOLVER_CG, A, b, x, &o, &info), SPIRA_OK);
    ck_assert_double_le(info.rel_residual, 1e-8);
    ck_assert_int_eq(info.backend, SPIRA_BACKEND_CPU); /* where it ran, and why */
    ck_assert_str_eq(info.backend_reason, "the context's backend");
    o.backend = SPIRA_BACKEND_CPU; /* the host, asked for: the context's own backend */
    ck_assert_int_eq(spira_solve(SPIRA_SOLVER_CG, A, b, x, &o, &info), SPIRA_OK);
    ck_assert_int_eq(info.backend, SPIRA_BACKEND_CPU);
    o.backend = SPIRA_BACKEND_AUTO;
    /* a tolerance of exactly 0: the iteration limit stops it */
    o.rtol = SPIRA_TOL_ZERO;
    o.maxit = 5;
    ck_assert_int_eq(spira_solve(SPIRA_SOLVER_CG, A, b, x, &o, &info), SPIRA_ERR_NOT_CONVERGED);
    ck_assert_int_eq(info.reason, SPIRA_STOPPED_MAXIT);
    ck_assert_int_eq(info.iterations, 5);
    spira_vector_destroy(x), spira_vector_destroy(xt), spira_vector_destroy(b);
    spira_matrix_destroy(A);
    spira_context_destroy(ctx);
}
END_TEST

/* A square matrix with a zero row or column is refused before any setup: no plan is
 * built, nothing is allocated, the message names the line. */
START_TEST(solve_refuses_structurally_singular)
{
    spira_context ctx = tu_cpu();
    /* row 1 empty; column 2 empty; row 0 stored but zero (column 1 then has only a zero) */
    static const struct { int32_t ri[3], ci[3]; double v[3]; const char *says; } M[] = {
        {{0, 2, 2}, {0, 1, 2}, {1, 1, 1}, "its row 1 (0-based)"},
        {{0, 1, 2}, {0, 1, 1}, {1, 1, 1}, "its column 2 (0-based)"},
        {{0, 1, 2}, {1, 0, 2}, {0, 1, 1}, "its row 0 (0-based)"},
    };
    spira_vector b, x;
    spira_vector_create(ctx, 3, SPIRA_R64, &b);
    spira_vector_create(ctx, 3, SPIRA_R64, &x);
    spira_vector_fill(b, 1);
    for (int i = 0; i < 3; i++)
        for (int type = SPIRA_SOLVER_CG; type <= SPIRA_SOLVER_JACOBI; type++) {
            spira_matrix A;
            ck_assert_int_eq(spira_matrix_from_coo(ctx, 3, 3, 3, M[i].ri, M[i].ci, M[i].v,
                                                   SPIRA_R64, &A), SPIRA_OK);
            long live = spira__alloc_live();
            spira_solve_info info;
            ck_assert_int_eq(spira_solve((spira_solver_type)type, A, b, x, NULL, &info),
                             SPIRA_ERR_INVALID_ARG);
            tu_assert_error_has(ctx, "A is structurally singular");
            tu_assert_error_has(ctx, M[i].says);
            ck_assert_int_eq(info.iterations, 0);
            ck_assert_ptr_null(A->cache); /* no SpMV plan, no preconditioner was built */
            ck_assert_int_eq(spira__alloc_live(), live);
            spira_matrix_destroy(A);
        }
    spira_vector_destroy(x), spira_vector_destroy(b);
    spira_context_destroy(ctx);
}
END_TEST

/* The same check on a matrix large enough to be scanned by a team (lib/csr.c): the first
 * empty row or column in order is named, an explicit zero counts as empty, and a matrix
 * that passes is scanned once (a second solve finds the answer kept in it). */
START_TEST(solve_refuses_structurally_singular_large)
{
    spira_context ctx = tu_cpu();
    const int32_t n = 60000;
    int32_t *ri = malloc(3 * (size_t)n * sizeof *ri), *ci = malloc(3 * (size_t)n * sizeof *ci);
    double *v = malloc(3 * (size_t)n * sizeof *v);
    ck_assert(ri && ci && v);
    spira_vector b, x;
    spira_vector_create(ctx, n, SPIRA_R64, &b);
    spira_vector_create(ctx, n, SPIRA_R64, &x);
    spira_vector_fill(b, 1);
    /* tridiagonal, then: rows 41234 and 50001 zeroed (the first is named); column 30000's
     * entries dropped (named when no row is empty); nothing (solved) */
    for (int c = 0; c < 3; c++) {
        int32_t nnz = 0;
        for (int32_t i = 0; i < n; i++)
            for (int32_t j = i - 1; j <= i + 1; j++) {
                if (j < 0 || j >= n || (c == 1 && j == 30000)) continue;
                ri[nnz] = i, ci[nnz] = j;
                v[nnz++] = c == 0 && (i == 41234 || i == 50001) ? 0.0 : i == j ? 4.0 : -1.0;
            }
        spira_matrix A;
        ck_assert_int_eq(spira_matrix_from_coo(ctx, n, n, nnz, ri, ci, v, SPIRA_R64, &A), SPIRA_OK);
        ck_assert_int_gt(A->csr.nnz, 100000);
        for (int again = 0; again < 2; again++) {
            spira_vector_fill(x, 0);
            const spira_status s = spira_solve(SPIRA_SOLVER_CG, A, b, x, NULL, NULL);
            if (c < 2) {
                ck_assert_int_eq(s, SPIRA_ERR_INVALID_ARG);
                tu_assert_error_has(ctx, c == 0 ? "its row 41234 (0-based)" : "its column 30000 (0-based)");
            } else {
                ck_assert_int_eq(s, SPIRA_OK);
            }
            ck_assert_int_eq(A->empty.known, 1);
        }
        spira_matrix_destroy(A);
    }
    spira_vector_destroy(x), spira_vector_destroy(b);
    free(ri), free(ci), free(v);
    spira_context_destroy(ctx);
}
END_TEST

/* NaN inside A stops the solve with a typed status at once, not at the iteration limit. */
START_TEST(cg_nan_in_matrix)
{
    spira_context ctx = tu_cpu();
    int32_t ri[] = {0, 1, 1}, ci[] = {0, 1, 0};
    double v[] = {2, 2, NAN};
    spira_matrix A;
    spira_matrix_from_coo(ctx, 2, 2, 3, ri, ci, v, SPIRA_R64, &A);
    spira_vector b, x;
    tu_vectors_for(A, &b, &x);
    spira_vector_fill(b, 1);
    spira_solve_info info;
    ck_assert_int_eq(spira_solve(SPIRA_SOLVER_CG, A, b, x, NULL, &info), SPIRA_ERR_NONFINITE);
    ck_assert_int_le(info.iterations, 2);
    spira_vector_destroy(x), spira_vector_destroy(b);
    spira_matrix_destroy(A);
    spira_context_destroy(ctx);
}
END_TEST

/* A solver handle set up once gives, for each of several right-hand sides, the bits,
 * iterations and residual of spira_solve on the same system; after A's format changes it
 * sets up again and still matches; later solves report no setup; nothing leaks. */
START_TEST(solver_handle_reuse)
{
    static const struct {
        spira_solver_type type;
        spira_precond_type precond;
    } cases[] = {
        {SPIRA_SOLVER_CG, SPIRA_PRECOND_NONE},         {SPIRA_SOLVER_CG, SPIRA_PRECOND_JACOBI},
        {SPIRA_SOLVER_CG, SPIRA_PRECOND_NEUMANN},      {SPIRA_SOLVER_CG, SPIRA_PRECOND_ILU0},
        {SPIRA_SOLVER_BICGSTAB, SPIRA_PRECOND_NONE},   {SPIRA_SOLVER_BICGSTAB, SPIRA_PRECOND_ILUT},
        {SPIRA_SOLVER_JACOBI, SPIRA_PRECOND_NONE},
    };
    spira_context ctx = tu_cpu();
    long live = spira__alloc_live();
    spira_matrix A;
    ck_assert_int_eq(spira_matrix_laplacian(ctx, 2, 12, SPIRA_R64, &A), SPIRA_OK);
    const int32_t n = 144;
    double *x1 = malloc(n * sizeof *x1), *x2 = malloc(n * sizeof *x2);
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        spira_solve_opts o = {.rtol = 1e-8, .precond = cases[c].precond};
        ck_assert_int_eq(spira_matrix_set_format(A, "csr-scalar", NULL), SPIRA_OK);
        spira_solver S;
        ck_assert_int_eq(spira_solver_create(cases[c].type, A, &o, &S), SPIRA_OK);
        for (int k = 0; k < 4; k++) {
            if (k == 3) ck_assert_int_eq(spira_matrix_set_format(A, "ell", NULL), SPIRA_OK);
            spira_vector xt, x;
            spira_vector b = tu_rhs(A, &xt, tu_seed() + (unsigned)k);
            spira_vector_create(ctx, n, SPIRA_R64, &x);
            spira_solve_info i1, i2;
            ck_assert_int_eq(spira_solver_solve(S, b, x, &i1), SPIRA_OK);
            spira_vector_get_f64(x, x1);
            spira_vector_fill(x, NAN);
            ck_assert_int_eq(spira_solve(cases[c].type, A, b, x, &o, &i2), SPIRA_OK);
            spira_vector_get_f64(x, x2);
            ck_assert_msg(memcmp(x1, x2, n * sizeof *x1) == 0, "case %zu rhs %d: x differs", c, k);
            ck_assert_int_eq(i1.iterations, i2.iterations);
            ck_assert_int_eq(i1.reason, i2.reason);
            ck_assert_double_eq(i1.rel_residual, i2.rel_residual);
            ck_assert_str_eq(i1.format, k == 3 ? "ell" : "csr-scalar");
            if (k == 1 || k == 2) ck_assert_double_eq(i1.setup_ms, 0);
            spira_vector_destroy(x), spira_vector_destroy(xt), spira_vector_destroy(b);
        }
        spira_solver_destroy(S);
    }
    free(x1), free(x2);
    spira_matrix_destroy(A);
    ck_assert_int_eq(spira__alloc_live(), live);
    spira_context_destroy(ctx);
}
END_TEST

/* The handle's errors: bad arguments, operands that do not fit A, a preconditioner the
 * solver refuses; destroy takes NULL. */
START_TEST(solver_handle_errors)
{
    spira_context ctx = tu_cpu();
    spira_matrix A, R;
    ck_assert_int_eq(spira_matrix_laplacian(ctx, 2, 3, SPIRA_R64, &A), SPIRA_OK);
    int32_t ri[] = {0, 1}, ci[] = {0, 2};
    double v[] = {1, 1};
    spira_matrix_from_coo(ctx, 2, 3, 2, ri, ci, v, SPIRA_R64, &R);
    spira_solver S = NULL;
    ck_assert_int_eq(spira_solver_create(SPIRA_SOLVER_CG, NULL, NULL, &S), SPIRA_ERR_INVALID_ARG);
    ck_assert_int_eq(spira_solver_create(SPIRA_SOLVER_CG, A, NULL, NULL), SPIRA_ERR_INVALID_ARG);
    ck_assert_int_eq(spira_solver_create((spira_solver_type)99, A, NULL, &S),
                     SPIRA_ERR_INVALID_ARG);
    tu_assert_error_has(ctx, "unknown solver");
    ck_assert_int_eq(spira_solver_create(SPIRA_SOLVER_BICGSTAB, R, NULL, &S),
                     SPIRA_ERR_INVALID_ARG);
    tu_assert_error_has(ctx, "BiCGSTAB needs a square matrix; A is 2 x 3");
    spira_solve_opts o = {.precond = SPIRA_PRECOND_ILUT};
    ck_assert_int_eq(spira_solver_create(SPIRA_SOLVER_CG, A, &o, &S), SPIRA_ERR_INVALID_ARG);
    tu_assert_error_has(ctx, "CG needs a symmetric preconditioner and ilut is not");
    ck_assert_ptr_null(S);
    ck_assert_int_eq(spira_solver_create(SPIRA_SOLVER_CG, A, NULL, &S), SPIRA_OK);
    spira_vector b, x, x5;
    spira_vector_create(ctx, 9, SPIRA_R64, &b), spira_vector_create(ctx, 9, SPIRA_R64, &x);
    spira_vector_create(ctx, 5, SPIRA_R64, &x5);
    spira_vector_fill(b, 1);
    ck_assert_int_eq(spira_solver_solve(NULL, b, x, NULL), SPIRA_ERR_INVALID_ARG);
    ck_assert_int_eq(spira_solver_solve(S, NULL, x, NULL), SPIRA_ERR_INVALID_ARG);
    ck_assert_int_eq(spira_solver_solve(S, b, x5, NULL), SPIRA_ERR_INVALID_ARG);
    tu_assert_error_has(ctx, "size mismatch: A is 9 x 9, x has 5 values");
    ck_assert_int_eq(spira_solver_solve(S, b, b, NULL), SPIRA_ERR_INVALID_ARG);
    ck_assert_int_eq(spira_solver_solve(S, b, x, NULL), SPIRA_OK);
    spira_solver_destroy(S);
    spira_solver_destroy(NULL);
    spira_vector_destroy(b), spira_vector_destroy(x), spira_vector_destroy(x5);
    spira_matrix_destroy(A), spira_matrix_destroy(R);
    spira_context_destroy(ctx);
}
END_TEST

/* CG's classic step in the middle of a solve (forced by the test hook ctx->cg_classic_at,
 * which the GPU suite uses to make CG's graph hand an iteration to the host): the solve
 * goes on from it and ends as the one without it, within a step or two; x is the same to
 * the tolerance. The CPU backend never makes a graph. */
START_TEST(cg_classic_step_mid_solve)
{
    spira_context ctx = tu_cpu();
    spira_matrix A;
    ck_assert_int_eq(spira_matrix_laplacian(ctx, 2, 24, SPIRA_R64, &A), SPIRA_OK);
    spira_vector xt, b = rhs_of_ones(A, &xt), x[2];
    spira_solve_info info[2];
    double err[2];
    for (int k = 0; k < 2; k++) {
        spira_solve_opts o = {.rtol = 1e-10, .precond = SPIRA_PRECOND_JACOBI};
        ck_assert_int_eq(spira_vector_create(ctx, 576, SPIRA_R64, &x[k]), SPIRA_OK);
        ctx->cg_classic_at = k ? 7 : 0;
        ck_assert_int_eq(spira_solve(SPIRA_SOLVER_CG, A, b, x[k], &o, &info[k]), SPIRA_OK);
        ck_assert_int_eq(info[k].reason, SPIRA_CONVERGED_RTOL);
        spira_axpy(-1.0, xt, x[k]);
        spira_nrm2(x[k], &err[k]);
    }
    ck_assert_int_le(abs(info[0].iterations - info[1].iterations), 2);
    ck_assert_int_gt(info[1].iterations, 7);
    ck_assert_double_le(err[1], 1e-7 * 24);
    ck_assert_int_eq(ctx->cg_graph_runs, 0);
    for (int k = 0; k < 2; k++) spira_vector_destroy(x[k]);
    spira_vector_destroy(xt), spira_vector_destroy(b);
    spira_matrix_destroy(A);
    spira_context_destroy(ctx);
}
END_TEST

Suite *suite_solvers(void)
{
    Suite *s = suite_create("solvers");
    TCase *tc = tcase_create("cg");
    tcase_add_loop_test(tc, cg_laplacian, 0, 2);
    tcase_add_test(tc, cg_maxit_and_history);
    tcase_add_test(tc, cg_jacobi_preconditioned);
    tcase_add_test(tc, cg_breakdown_on_indefinite);
    tcase_add_test(tc, solve_bad_inputs);
    tcase_add_test(tc, cg_nan_in_matrix);
    tcase_add_test(tc, solve_refuses_structurally_singular);
    tcase_add_test(tc, solve_refuses_structurally_singular_large);
    tcase_add_test(tc, solve_opts_checked);
    tcase_add_test(tc, hopeless_solves_stop);
    tcase_add_test(tc, stagnation_window_grows_with_n);
    tcase_add_loop_test(tc, ic0_shifted_for_kershaw, 0, 2);
    tcase_add_test(tc, cg_classic_step_mid_solve);
    suite_add_tcase(s, tc);
    tc = tcase_create("handle");
    tcase_add_test(tc, solver_handle_reuse);
    tcase_add_test(tc, solver_handle_errors);
    suite_add_tcase(s, tc);
    return s;
}
