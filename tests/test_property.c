/*
 * test_property.c - every solver with every preconditioner (ILU(0) and ILUT also with Jacobi
 * sweeps for their triangular solves) on seeded random matrices of
 * five kinds: SPD, nonsymmetric, symmetric indefinite, singular and badly scaled. Whatever
 * the pair can or cannot do, each run must end with a typed status whose reason agrees
 * with it, within the iteration limit, leaking nothing; and a run that says "converged"
 * must meet the tolerance with its true residual, recomputed here in double from x.
 * _i picks the seed offset, so each loop iteration draws fresh matrices (the run's seed,
 * tu_seed, is printed on failure; SPIRA_TEST_SEED repeats it).
 */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SPD, NONSYMMETRIC, INDEFINITE, SINGULAR, BADLY_SCALED, KINDS };
static const char *const kind_name[KINDS] = {"spd", "nonsymmetric", "indefinite", "singular",
                                             "badly-scaled"};

/* n x n with about 5 off-diagonal entries a row, in COO (duplicates possible: summed). */
static spira_matrix random_matrix(spira_context ctx, int kind, int32_t n, unsigned seed)
{
    int64_t cap = (int64_t)n * 12 + 8, k = 0;
    int32_t *ri = malloc((size_t)cap * sizeof *ri), *ci = malloc((size_t)cap * sizeof *ci);
    double *v = malloc((size_t)cap * sizeof *v), *scale = malloc((size_t)n * sizeof *scale);
    ck_assert(ri && ci && v && scale);
    unsigned st = seed;
    int symmetric = kind != NONSYMMETRIC;
    double *rowsum = calloc((size_t)n, sizeof *rowsum);
    ck_assert_ptr_nonnull(rowsum);
    for (int32_t i = 0; i < n; i++)
        for (int e = 0; e < 3; e++) {
            int32_t j = (int32_t)tu_uniform(&st, 0, n);
            if (j == i) continue;
            double a = tu_uniform(&st, -1, 1);
            ri[k] = i, ci[k] = j, v[k++] = a;
            rowsum[i] += fabs(a);
            double b = symmetric ? a : tu_uniform(&st, -1, 1);
            ri[k] = j, ci[k] = i, v[k++] = b;
            rowsum[j] += fabs(b);
        }
    for (int32_t i = 0; i < n; i++) {
        double d = rowsum[i] + tu_uniform(&st, 0.1, 1); /* dominant: SPD when symmetric */
        if (kind == NONSYMMETRIC) d = tu_uniform(&st, 0.2, 1) * rowsum[i]; /* far from it */
        if (kind == INDEFINITE) d = (i % 3 ? 1 : -1) * tu_uniform(&st, 0.3, 1) * rowsum[i];
        if (kind == SINGULAR) d = rowsum[i]; /* semidefinite, and made... */
        ri[k] = i, ci[k] = i, v[k++] = d;
    }
    if (kind == SINGULAR) { /* ... singular outright: row and column 0 repeat row/col 1 */
        for (int64_t e = 0; e < k; e++)
            if (ri[e] == 0 || ci[e] == 0) v[e] = 0;
        int64_t k0 = k;
        for (int64_t e = 0; e < k0; e++) {
            if (ri[e] == 1 && k < cap) ri[k] = 0, ci[k] = ci[e] == 1 ? 0 : ci[e], v[k++] = v[e];
        }
        k0 = k;
        for (int64_t e = 0; e < k0; e++)
            if (ci[e] == 1 && ri[e] != 0 && ri[e] != 1 && k < cap) ri[k] = ri[e], ci[k] = 0, v[k++] = v[e];
    }
    if (kind == BADLY_SCALED) { /* D A D, D = 10^[-6, 6] */
        for (int32_t i = 0; i < n; i++) scale[i] = pow(10.0, tu_uniform(&st, -6, 6));
        for (int64_t e = 0; e < k; e++) v[e] *= scale[ri[e]] * scale[ci[e]];
    }
    spira_matrix A;
    ck_assert_int_eq(spira_matrix_from_coo(ctx, n, n, k, ri, ci, v, SPIRA_R64, &A), SPIRA_OK);
    free(ri), free(ci), free(v), free(scale), free(rowsum);
    return A;
}

/* ||b - A x|| / ||b|| in double from the host copies. */
static double true_residual(spira_matrix A, const double *b, spira_vector x, int32_t n)
{
    double *xh = malloc((size_t)n * sizeof *xh), *r = malloc((size_t)n * sizeof *r);
    ck_assert(xh && r);
    ck_assert_int_eq(spira_vector_get_f64(x, xh), SPIRA_OK);
    memcpy(r, b, (size_t)n * sizeof *r);
    spira__csr_spmv_f64(&A->csr, -1.0, xh, 1.0, r);
    double rr = 0, bb = 0;
    for (int32_t i = 0; i < n; i++) rr += r[i] * r[i], bb += b[i] * b[i];
    free(xh), free(r);
    return sqrt(rr / bb);
}

START_TEST(every_solver_ends_typed)
{
    spira_context ctx = tu_cpu();
    const int32_t n = 40;
    const int maxit = 300;
    const double rtol = 1e-8;
    int runs = 0, converged = 0;
    for (int kind = 0; kind < KINDS; kind++) {
        unsigned seed = tu_seed() * 7919u + (unsigned)(_i * KINDS + kind);
        long live = spira__alloc_live(); /* A's cache keeps plans and factors: count at the end */
        spira_matrix A = random_matrix(ctx, kind, n, seed);
        /* b = A x_true, x_true in [-1, 1]: consistent even for the singular kind */
        double *xt = malloc((size_t)n * sizeof *xt), *bh = malloc((size_t)n * sizeof *bh);
        ck_assert(xt && bh);
        unsigned st = seed ^ 0x9e3779b9u;
        for (int32_t i = 0; i < n; i++) xt[i] = tu_uniform(&st, -1, 1), bh[i] = 0;
        spira__csr_spmv_f64(&A->csr, 1.0, xt, 0.0, bh);
        spira_vector b, x;
        spira_vector_create(ctx, n, SPIRA_R64, &b);
        spira_vector_create(ctx, n, SPIRA_R64, &x);
        spira_vector_set_f64(b, bh);
        for (int type = SPIRA_SOLVER_CG; type <= SPIRA_SOLVER_JACOBI; type++)
            for (int v = SPIRA_PRECOND_NONE; v <= SPIRA_PRECOND_ILUT + 2; v++) {
                /* past ILUT: ILU(0) and ILUT again, with 1-5 Jacobi sweeps a triangular
                 * solve */
                const int pc = v <= SPIRA_PRECOND_ILUT ? v : v - 2;
                spira_solve_opts o = {.rtol = rtol, .maxit = maxit,
                                      .precond = (spira_precond_type)pc,
                                      .trisolve_sweeps = v > pc ? 1 + (int)(seed % 5) : 0};
                spira_solve_info info;
                spira_vector_fill(x, 7.0); /* poisoned: the solve starts from 0 */
                spira_status s = spira_solve((spira_solver_type)type, A, b, x, &o, &info);
                runs++;
                const char *msg = spira_last_error(ctx);
                ck_assert_msg(info.iterations <= maxit, "%s, solver %d, precond %d: %d iterations",
                              kind_name[kind], type, pc, info.iterations);
                switch (s) {
                case SPIRA_OK: {
                    ck_assert(info.reason == SPIRA_CONVERGED_RTOL ||
                              info.reason == SPIRA_CONVERGED_ATOL);
                    double tr = true_residual(A, bh, x, n);
                    ck_assert_msg(tr <= rtol * 1.001, "%s, solver %d, precond %d: converged "
                                  "with a true residual %.3e > %g (seed %u)", kind_name[kind],
                                  type, pc, tr, rtol, tu_seed());
                    converged++;
                    break;
                }
                case SPIRA_ERR_NOT_CONVERGED:
                    ck_assert_msg(info.reason == SPIRA_STOPPED_MAXIT ||
                                  info.reason == SPIRA_STOPPED_STAGNATION ||
                                  info.reason == SPIRA_STOPPED_DIVERGED,
                                  "%s: reason %d", kind_name[kind], info.reason);
                    break;
                case SPIRA_ERR_BREAKDOWN:
                    /* in the iteration, or in the preconditioner's setup (no iteration) */
                    ck_assert(info.reason == SPIRA_STOPPED_BREAKDOWN ||
                              info.reason == SPIRA_STOPPED_ERROR);
                    ck_assert(strstr(msg, "breakdown") || strstr(msg, "breaks down"));
                    break;
                case SPIRA_ERR_NONFINITE:
                    ck_assert(info.reason == SPIRA_STOPPED_NONFINITE);
                    break;
                case SPIRA_ERR_INVALID_ARG: /* refused up front: CG with ILUT, a zero diagonal */
                    ck_assert_int_eq(info.iterations, 0);
                    ck_assert(strlen(msg) > 10);
                    break;
                default:
                    ck_abort_msg("%s, solver %d, precond %d: %s: %s", kind_name[kind], type, pc,
                                 spira_status_name(s), msg);
                }
            }
        spira_vector_destroy(x), spira_vector_destroy(b);
        spira_matrix_destroy(A);
        ck_assert_int_eq(spira__alloc_live(), live);
        free(xt), free(bh);
    }
    ck_assert_int_eq(runs, KINDS * 3 * 7);
    ck_assert_int_gt(converged, runs / 3); /* the easy kinds do converge */
    spira_context_destroy(ctx);
}
END_TEST

Suite *suite_property(void)
{
    Suite *s = suite_create("property");
    TCase *tc = tcase_create("solvers");
    tcase_add_loop_test(tc, every_solver_ends_typed, 0, 8);
    suite_add_tcase(s, tc);
    return s;
}
