/*
 * test_reorder.c - the locality orderings (lib/reorder.c) and the solvers' reorder option
 * (solvers/reorder.c): each ordering is a permutation, RCM brings a randomly numbered band
 * back to about its width, a reordered solve gives the unreordered solve's x with a true
 * residual within the tolerance (CG, BiCGSTAB, Jacobi; no, Jacobi and ILU(0)
 * preconditioners; random and bundled matrices), errors are those of the plain solve, and
 * no failing allocation leaks.
 */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const spira_reorder orders[] = {SPIRA_REORDER_RCM, SPIRA_REORDER_DEGREE};
static const char *const order_names[] = {"rcm", "degree"};

/* A random symmetric positive definite n x n matrix: tu_random_square's pattern made
 * symmetric, values averaged, diagonal dominant. */
static spira_matrix random_spd(spira_context ctx, int32_t n, double density, spira_dtype t,
                               unsigned seed)
{
    spira_matrix R = tu_random_square(ctx, n, density, 1, SPIRA_R64, seed);
    const spira__csr *c = &R->csr;
    int32_t cap = 2 * c->nnz, k = 0, *ri = malloc(cap * sizeof *ri), *ci = malloc(cap * sizeof *ci);
    double *v = malloc(cap * sizeof *v);
    for (int32_t i = 0; i < n; i++)
        for (int32_t q = c->row_ptr[i]; q < c->row_ptr[i + 1]; q++) {
            int32_t j = c->col_idx[q];
            double a = ((const double *)c->val)[q];
            if (i == j) {
                ri[k] = i, ci[k] = i, v[k++] = a;
                continue;
            }
            ri[k] = i, ci[k] = j, v[k++] = a / 2;
            ri[k] = j, ci[k] = i, v[k++] = a / 2;
        }
    spira_matrix A = tu_coo(ctx, n, k, ri, ci, v, t);
    free(ri), free(ci), free(v);
    spira_matrix_destroy(R);
    return A;
}

/* perm is a permutation of 0..n-1 */
static void assert_permutation(const int32_t *perm, int32_t n, const char *what)
{
    char *seen = calloc(n + 1, 1);
    for (int32_t k = 0; k < n; k++) {
        ck_assert_msg(perm[k] >= 0 && perm[k] < n, "%s: perm[%d] = %d outside 0..%d", what, k,
                      perm[k], n - 1);
        ck_assert_msg(!seen[perm[k]], "%s: row %d placed twice", what, perm[k]);
        seen[perm[k]] = 1;
    }
    free(seen);
}

static int32_t row_len(const spira__csr *c, int32_t i)
{
    return c->row_ptr[i + 1] - c->row_ptr[i];
}

/* Both orderings are permutations on every square awkward shape; the degree ordering is
 * by decreasing row length, ties in row order; P A P^T has A's entries where perm says. */
START_TEST(orderings_are_permutations)
{
    spira_context ctx = tu_cpu();
    int checked = 0;
    for (int si = 0; si < tu_nshapes; si++) {
        const tu_shape *sh = &tu_shapes[si];
        if (sh->nrows != sh->ncols) continue;
        spira_matrix A = tu_shape_matrix(ctx, sh, SPIRA_R64, tu_seed() + si);
        const spira__csr *c = &A->csr;
        int32_t n = c->nrows, *perm = malloc((n + 1) * sizeof *perm);
        ck_assert_int_eq(spira__csr_rcm(ctx, c, perm), SPIRA_OK);
        assert_permutation(perm, n, sh->name);
        ck_assert_int_eq(spira__csr_degree_order(ctx, c, perm), SPIRA_OK);
        assert_permutation(perm, n, sh->name);
        for (int32_t k = 1; k < n; k++) {
            int32_t a = row_len(c, perm[k - 1]), b = row_len(c, perm[k]);
            ck_assert_msg(a > b || (a == b && perm[k - 1] < perm[k]),
                          "%s: degree order has row %d (%d entries) before row %d (%d)",
                          sh->name, perm[k - 1], a, perm[k], b);
        }
        spira__csr B;
        ck_assert_int_eq(spira__csr_permute(ctx, c, perm, &B), SPIRA_OK);
        ck_assert_int_eq(B.nnz, c->nnz);
        for (int32_t k = 0; k < n; k++)
            for (int32_t q = B.row_ptr[k]; q < B.row_ptr[k + 1]; q++) {
                if (q > B.row_ptr[k]) ck_assert_int_lt(B.col_idx[q - 1], B.col_idx[q]);
                ck_assert(spira__get(B.val, B.dtype, q) ==
                          spira__csr_entry(c, perm[k], perm[B.col_idx[q]]));
            }
        spira__csr_free(&B);
        free(perm);
        spira_matrix_destroy(A);
        checked++;
    }
    ck_assert_int_gt(checked, 2);
    spira_context_destroy(ctx);
}
END_TEST

/* spira_matrix_reorder: the public P A P^T is the internal one for each ordering (the
 * identity for none) with its permutation handed out, and refuses what it cannot order. */
START_TEST(public_reorder_matches)
{
    spira_context ctx = tu_cpu();
    const spira_reorder kinds[] = {SPIRA_REORDER_NONE, SPIRA_REORDER_RCM, SPIRA_REORDER_DEGREE};
    spira_matrix A = tu_scrambled_band(ctx, 300, 3, 1, SPIRA_R32, tu_seed() + 3);
    const spira__csr *c = &A->csr;
    int32_t n = c->nrows, *perm = malloc(n * sizeof *perm), *want = malloc(n * sizeof *want);
    for (int i = 0; i < 3; i++) {
        spira_matrix PA;
        memset(perm, 0xff, n * sizeof *perm);
        ck_assert_int_eq(spira_matrix_reorder(A, kinds[i], perm, &PA), SPIRA_OK);
        if (kinds[i] == SPIRA_REORDER_RCM) ck_assert_int_eq(spira__csr_rcm(ctx, c, want), SPIRA_OK);
        else if (kinds[i] == SPIRA_REORDER_DEGREE)
            ck_assert_int_eq(spira__csr_degree_order(ctx, c, want), SPIRA_OK);
        else
            for (int32_t k = 0; k < n; k++) want[k] = k;
        ck_assert_mem_eq(perm, want, n * sizeof *perm);
        spira__csr B;
        ck_assert_int_eq(spira__csr_permute(ctx, c, want, &B), SPIRA_OK);
        const spira__csr *p = &PA->csr;
        ck_assert_int_eq(p->dtype, SPIRA_R32);
        ck_assert_int_eq(p->nnz, B.nnz);
        ck_assert_mem_eq(p->row_ptr, B.row_ptr, (n + 1) * sizeof *B.row_ptr);
        ck_assert_mem_eq(p->col_idx, B.col_idx, B.nnz * sizeof *B.col_idx);
        ck_assert_mem_eq(p->val, B.val, B.nnz * sizeof(float));
        spira__csr_free(&B);
        spira_matrix_destroy(PA);
    }
    ck_assert_int_eq(spira_matrix_reorder(A, SPIRA_REORDER_RCM, NULL, NULL), SPIRA_ERR_INVALID_ARG);
    spira_matrix PA = (spira_matrix)1;
    ck_assert_int_eq(spira_matrix_reorder(A, (spira_reorder)7, NULL, &PA), SPIRA_ERR_INVALID_ARG);
    ck_assert_ptr_null(PA);
    ck_assert_ptr_nonnull(strstr(spira_last_error(ctx), "ordering 7"));
    const int32_t ri[] = {0, 4}, ci[] = {6, 1};
    const double rv[] = {1, 2};
    spira_matrix R;
    ck_assert_int_eq(spira_matrix_from_coo(ctx, 5, 7, 2, ri, ci, rv, SPIRA_R64, &R), SPIRA_OK);
    ck_assert_int_eq(spira_matrix_reorder(R, SPIRA_REORDER_DEGREE, NULL, &PA), SPIRA_ERR_INVALID_ARG);
    ck_assert_ptr_nonnull(strstr(spira_last_error(ctx), "5 x 7"));
    spira_matrix_destroy(R);
    free(perm), free(want);
    spira_matrix_destroy(A);
    spira_context_destroy(ctx);
}
END_TEST

/* RCM on a randomly numbered band of half-width w gives back a bandwidth of about w (the
 * scrambled one is near n), symmetric pattern or not (then on A + A^T's). */
START_TEST(rcm_restores_band)
{
    spira_context ctx = tu_cpu();
    const int32_t n = 600, w = 4;
    for (int upper = 0; upper < 2; upper++) {
        spira_matrix A = tu_scrambled_band(ctx, n, w, upper, SPIRA_R64, tu_seed() + 7 + upper);
        const spira__csr *c = &A->csr;
        int32_t *perm = malloc(n * sizeof *perm);
        ck_assert_int_eq(spira__csr_rcm(ctx, c, perm), SPIRA_OK);
        spira__csr B;
        ck_assert_int_eq(spira__csr_permute(ctx, c, perm, &B), SPIRA_OK);
        int32_t before = spira__csr_bandwidth(c), after = spira__csr_bandwidth(&B);
        ck_assert_msg(after <= 2 * w, "RCM bandwidth %d on a band of half-width %d (%s; "
                      "scrambled: %d; seed %u)", after, w, upper ? "upper" : "symmetric",
                      before, tu_seed());
        ck_assert_int_gt(before, 20 * w);
        spira__csr_free(&B);
        free(perm);
        spira_matrix_destroy(A);
    }
    spira_context_destroy(ctx);
}
END_TEST

/* || b - A x || / ||b|| in double, on the host */
static double true_residual(spira_matrix A, spira_vector b, spira_vector x)
{
    int64_t n = spira_vector_length(b);
    double *hb = malloc((n + 1) * sizeof *hb), *hx = malloc((n + 1) * sizeof *hx);
    spira_vector_get_f64(b, hb);
    spira_vector_get_f64(x, hx);
    double bn = 0, rn = 0;
    for (int64_t i = 0; i < n; i++) bn += hb[i] * hb[i];
    spira__csr_spmv_f64(&A->csr, -1.0, hx, 1.0, hb);
    for (int64_t i = 0; i < n; i++) rn += hb[i] * hb[i];
    free(hb), free(hx);
    return sqrt(rn) / sqrt(bn);
}

/* max |x - y| / max |y| */
static double rel_diff(spira_vector x, spira_vector y)
{
    double d = tu_max_err(x, y), m = 0;
    int64_t n = spira_vector_length(y);
    double *h = malloc((n + 1) * sizeof *h);
    spira_vector_get_f64(y, h);
    for (int64_t i = 0; i < n; i++) m = fmax(m, fabs(h[i]));
    free(h);
    return m > 0 ? d / m : d;
}

/* Solve A x = b with solver/precond unreordered and in each ordering: when the plain solve
 * converges (in at most 1000 iterations: beyond, a stagnation is let pass), each reordered
 * one does too, with the same x to tol (relative) and a true
 * residual within rtol; the info names the ordering and the bandwidths. Returns the
 * reordered solves checked. */
static int check_solves(spira_matrix A, spira_solver_type type, spira_precond_type pc,
                        double rtol, double tol, const char *label)
{
    spira_context ctx = A->ctx;
    spira_vector xt, b = tu_rhs(A, &xt, tu_seed() + 3), x0, x;
    spira_matrix_info mi;
    spira_matrix_get_info(A, &mi);
    ck_assert_int_eq(spira_vector_create(ctx, mi.nrows, mi.dtype, &x0), SPIRA_OK);
    ck_assert_int_eq(spira_vector_create(ctx, mi.nrows, mi.dtype, &x), SPIRA_OK);
    spira_solve_opts o = {.rtol = rtol, .precond = pc, .maxit = 20000};
    spira_solve_info info;
    int checked = 0;
    spira_status s0 = spira_solve(type, A, b, x0, &o, &info);
    const int plain_its = info.iterations;
    ck_assert_int_eq(info.reorder, SPIRA_REORDER_NONE);
    ck_assert(info.bandwidth_before == 0 && info.bandwidth_after == 0);
    for (int k = 0; s0 == SPIRA_OK && k < 2; k++) {
        o.reorder = orders[k];
        spira_vector_fill(x, NAN);
        spira_status s = spira_solve(type, A, b, x, &o, &info);
        /* a system the plain solve barely did (BiCGSTAB without a preconditioner on
         * sherman5: thousands of iterations) may stagnate under another rounding */
        if (s == SPIRA_ERR_NOT_CONVERGED && plain_its > 1000 &&
            (info.reason == SPIRA_STOPPED_STAGNATION || info.reason == SPIRA_STOPPED_DIVERGED))
            continue;
        ck_assert_msg(s == SPIRA_OK, "%s, %s: reordered solve %s (%s) where the plain one "
                      "converged (seed %u)", label, order_names[k], spira_status_name(s),
                      spira_last_error(ctx), tu_seed());
        ck_assert_int_eq(info.reorder, orders[k]);
        ck_assert_int_eq(info.bandwidth_before, spira__csr_bandwidth(&A->csr));
        ck_assert(info.bandwidth_after >= 0 && info.bandwidth_after < mi.nrows);
        ck_assert(info.reorder_ms >= 0 && info.setup_ms >= info.reorder_ms);
        double r = true_residual(A, b, x), d = rel_diff(x, x0);
        ck_assert_msg(r <= 1.5 * rtol, "%s, %s: true residual %.3e > rtol %.1e (seed %u)",
                      label, order_names[k], r, rtol, tu_seed());
        ck_assert_msg(d <= tol, "%s, %s: x differs from the plain solve's by %.3e > %.1e "
                      "(relative; seed %u)", label, order_names[k], d, tol, tu_seed());
        checked++;
    }
    spira_vector_destroy(xt), spira_vector_destroy(b);
    spira_vector_destroy(x0), spira_vector_destroy(x);
    return checked;
}

static const spira_precond_type preconds[] = {SPIRA_PRECOND_NONE, SPIRA_PRECOND_JACOBI,
                                              SPIRA_PRECOND_ILU0};

/* Random matrices: SPD for CG, nonsymmetric for BiCGSTAB and the Jacobi iteration, in both
 * precisions. */
START_TEST(random_solves_match)
{
    spira_context ctx = tu_cpu();
    const spira_dtype t = _i ? SPIRA_R32 : SPIRA_R64;
    const double rtol = _i ? 1e-5 : 1e-11, tol = _i ? 1e-3 : 1e-8;
    int checked = 0;
    for (int trial = 0; trial < 3; trial++) {
        unsigned seed = tu_seed() + 100 * trial;
        spira_matrix S = random_spd(ctx, 60 + 70 * trial, 0.05, t, seed);
        spira_matrix N = tu_random_square(ctx, 50 + 80 * trial, 0.04, 1, t, seed + 1);
        spira_matrix B = tu_scrambled_band(ctx, 300, 3, 0, t, seed + 2);
        for (int p = 0; p < 3; p++) {
            checked += check_solves(S, SPIRA_SOLVER_CG, preconds[p], rtol, tol, "random SPD, CG");
            checked += check_solves(B, SPIRA_SOLVER_CG, preconds[p], rtol, tol, "band, CG");
            checked += check_solves(N, SPIRA_SOLVER_BICGSTAB, preconds[p], rtol, tol,
                                    "random, BiCGSTAB");
        }
        /* the Jacobi iteration's preconditioner is its own D^-1 */
        checked += check_solves(N, SPIRA_SOLVER_JACOBI, SPIRA_PRECOND_NONE, rtol, tol,
                                "random, Jacobi");
        checked += check_solves(B, SPIRA_SOLVER_JACOBI, SPIRA_PRECOND_NONE, rtol, tol,
                                "band, Jacobi");
        spira_matrix_destroy(S), spira_matrix_destroy(N), spira_matrix_destroy(B);
    }
    ck_assert_int_eq(checked, 3 * (3 * 3 + 2) * 2);
    spira_context_destroy(ctx);
}
END_TEST

/* The bundled matrices: CG on the SPD ones, BiCGSTAB on all square ones, each ordering and
 * preconditioner; a pair the plain solve cannot do is skipped (the count says how many ran).
 * Two x within rtol 1e-10 of the residual differ by up to about cond(A) 1e-10: 1e-4 on
 * bcsstk01 (a wrong permutation differs by O(1)). */
START_TEST(bundled_solves_match)
{
    spira_context ctx = tu_cpu();
    static const struct {
        const char *file;
        int spd;
    } mats[] = {{"1138_bus.mtx", 1}, {"gr_30_30.mtx", 1}, {"bcsstk01.mtx", 1},
                {"sherman5.mtx", 0}, {"west0067.mtx", 0}, {"orsirr_1.mtx", 0},
                {"pores_1.mtx", 0}};
    int checked = 0;
    for (size_t m = 0; m < sizeof mats / sizeof *mats; m++) {
        spira_matrix A;
        ck_assert_int_eq(spira_matrix_read_mm(ctx, tu_data(mats[m].file), SPIRA_R64, &A),
                         SPIRA_OK);
        for (int p = 0; p < 3; p++) {
            char label[96];
            if (mats[m].spd) {
                snprintf(label, sizeof label, "%s, CG, precond %d", mats[m].file, p);
                checked += check_solves(A, SPIRA_SOLVER_CG, preconds[p], 1e-10, 1e-3, label);
            }
            snprintf(label, sizeof label, "%s, BiCGSTAB, precond %d", mats[m].file, p);
            checked += check_solves(A, SPIRA_SOLVER_BICGSTAB, preconds[p], 1e-10, 1e-3, label);
        }
        if (mats[m].spd) {
            char label[96];
            snprintf(label, sizeof label, "%s, Jacobi", mats[m].file);
            checked += check_solves(A, SPIRA_SOLVER_JACOBI, SPIRA_PRECOND_NONE, 1e-8, 1e-3, label);
        }
        spira_matrix_destroy(A);
    }
    ck_assert_int_ge(checked, 20);
    spira_context_destroy(ctx);
}
END_TEST

/* The reordering is paid once per matrix: a second solve, and a solver reused for a second
 * right-hand side, report none; a format named for A reaches P A P^T; a start from the
 * solution makes no iteration (x goes in permuted); RCM narrows a scrambled band, as the
 * info shows. */
START_TEST(reorder_cached_and_reported)
{
    spira_context ctx = tu_cpu();
    spira_matrix A = tu_scrambled_band(ctx, 400, 2, 0, SPIRA_R64, tu_seed() + 5);
    spira_vector xt, b = tu_rhs(A, &xt, tu_seed()), x;
    ck_assert_int_eq(spira_vector_create(ctx, 400, SPIRA_R64, &x), SPIRA_OK);
    spira_solve_opts o = {.rtol = 1e-10, .reorder = SPIRA_REORDER_RCM,
                          .precond = SPIRA_PRECOND_ILU0};
    spira_solve_info info;
    ck_assert_int_eq(spira_solve(SPIRA_SOLVER_CG, A, b, x, &o, &info), SPIRA_OK);
    ck_assert(info.reorder_ms > 0);
    ck_assert_int_le(info.bandwidth_after, 4);
    ck_assert_int_gt(info.bandwidth_before, 40);
    ck_assert_int_eq(spira_solve(SPIRA_SOLVER_CG, A, b, x, &o, &info), SPIRA_OK);
    ck_assert(info.reorder_ms == 0);
    ck_assert_int_le(info.bandwidth_after, 4);
    spira_solver S;
    o.reorder = SPIRA_REORDER_DEGREE;
    ck_assert_int_eq(spira_solver_create(SPIRA_SOLVER_BICGSTAB, A, &o, &S), SPIRA_OK);
    ck_assert_int_eq(spira_solver_solve(S, b, x, &info), SPIRA_OK);
    ck_assert(info.reorder_ms > 0 && info.setup_ms > 0);
    ck_assert_int_eq(spira_solver_solve(S, b, x, &info), SPIRA_OK);
    ck_assert(info.reorder_ms == 0 && info.setup_ms == 0);
    ck_assert_int_eq(info.reorder, SPIRA_REORDER_DEGREE);
    ck_assert_msg(tu_max_err(x, xt) < 1e-7, "error %g", tu_max_err(x, xt));
    /* a format named for A after the setup: P A P^T multiplies with it from the next solve */
    ck_assert_int_eq(spira_matrix_set_format(A, "ell", NULL), SPIRA_OK);
    ck_assert_int_eq(spira_solver_solve(S, b, x, &info), SPIRA_OK);
    ck_assert_str_eq(info.format, "ell");
    ck_assert_msg(tu_max_err(x, xt) < 1e-7, "error %g", tu_max_err(x, xt));
    spira_solver_destroy(S);
    ck_assert_int_eq(spira_matrix_set_format(A, "auto", NULL), SPIRA_OK);
    /* from the solution itself: converged at iteration 0 */
    o.use_initial_guess = 1;
    o.reorder = SPIRA_REORDER_RCM;
    spira_copy(xt, x);
    ck_assert_int_eq(spira_solve(SPIRA_SOLVER_CG, A, b, x, &o, &info), SPIRA_OK);
    ck_assert_int_eq(info.iterations, 0);
    ck_assert_msg(tu_max_err(x, xt) < 1e-12, "error %g", tu_max_err(x, xt));
    /* b = 0: x = 0 */
    spira_vector_fill(b, 0.0);
    ck_assert_int_eq(spira_solve(SPIRA_SOLVER_CG, A, b, x, &o, &info), SPIRA_OK);
    ck_assert_int_eq(info.reason, SPIRA_CONVERGED_ZERO_RHS);
    ck_assert(tu_max_err(x, b) == 0);
    spira_vector_destroy(xt), spira_vector_destroy(b), spira_vector_destroy(x);
    spira_matrix_destroy(A);
    spira_context_destroy(ctx);
}
END_TEST

/* The status and message of a solve with and without the reordering, which must agree. */
static void same_error(spira_solver_type type, spira_matrix A, spira_vector b, spira_vector x,
                       const char *label)
{
    spira_context ctx = A->ctx;
    char plain[1024];
    spira_solve_opts o = {0};
    spira_status s0 = spira_solve(type, A, b, x, &o, NULL);
    snprintf(plain, sizeof plain, "%s", spira_last_error(ctx));
    ck_assert_msg(s0 != SPIRA_OK, "%s: the plain solve succeeded", label);
    for (int k = 0; k < 2; k++) {
        o.reorder = orders[k];
        spira_status s = spira_solve(type, A, b, x, &o, NULL);
        ck_assert_msg(s == s0, "%s, %s: %s (%s), without reordering %s (%s)", label,
                      order_names[k], spira_status_name(s), spira_last_error(ctx),
                      spira_status_name(s0), plain);
        ck_assert_str_eq(spira_last_error(ctx), plain);
    }
}

/* A structurally singular, a non-square and an empty matrix, a zero diagonal under Jacobi
 * and NaN in b fail as they do without the reordering; an unknown ordering is refused
 * naming the field. */
START_TEST(errors_as_without)
{
    spira_context ctx = tu_cpu();
    int32_t ri[] = {0, 0, 2, 2}, ci[] = {0, 2, 0, 2};
    double v[] = {2, 1, 1, 2};
    spira_matrix Z = tu_coo(ctx, 3, 4, ri, ci, v, SPIRA_R64); /* row 1 empty */
    spira_vector b, x, b2, x2, b0, x0;
    ck_assert_int_eq(spira_vector_create(ctx, 3, SPIRA_R64, &b), SPIRA_OK);
    ck_assert_int_eq(spira_vector_create(ctx, 3, SPIRA_R64, &x), SPIRA_OK);
    spira_vector_fill(b, 1.0);
    same_error(SPIRA_SOLVER_CG, Z, b, x, "zero row");
    same_error(SPIRA_SOLVER_BICGSTAB, Z, b, x, "zero row");
    spira_matrix R;
    int32_t rp[] = {0, 1, 2}, rc[] = {0, 2};
    ck_assert_int_eq(spira_matrix_from_csr(ctx, 2, 3, rp, rc, NULL, SPIRA_R64, &R), SPIRA_OK);
    ck_assert_int_eq(spira_vector_create(ctx, 2, SPIRA_R64, &b2), SPIRA_OK);
    ck_assert_int_eq(spira_vector_create(ctx, 2, SPIRA_R64, &x2), SPIRA_OK);
    spira_vector_fill(b2, 1.0);
    same_error(SPIRA_SOLVER_BICGSTAB, R, b2, x2, "2 x 3");
    spira_matrix E;
    int32_t ep[] = {0};
    ck_assert_int_eq(spira_matrix_from_csr(ctx, 0, 0, ep, NULL, NULL, SPIRA_R64, &E), SPIRA_OK);
    ck_assert_int_eq(spira_vector_create(ctx, 0, SPIRA_R64, &b0), SPIRA_OK);
    ck_assert_int_eq(spira_vector_create(ctx, 0, SPIRA_R64, &x0), SPIRA_OK);
    spira_solve_opts o = {0};
    spira_status se = spira_solve(SPIRA_SOLVER_CG, E, b0, x0, &o, NULL);
    if (se != SPIRA_OK) same_error(SPIRA_SOLVER_CG, E, b0, x0, "0 x 0");
    else
        for (int k = 0; k < 2; k++) {
            o.reorder = orders[k];
            ck_assert_int_eq(spira_solve(SPIRA_SOLVER_CG, E, b0, x0, &o, NULL), SPIRA_OK);
        }
    /* a zero diagonal entry under Jacobi: the message names A's row, not P A P^T's */
    spira_matrix W;
    ck_assert_int_eq(spira_matrix_read_mm(ctx, tu_data("west0067.mtx"), SPIRA_R64, &W), SPIRA_OK);
    spira_vector bw, xw;
    ck_assert_int_eq(spira_vector_create(ctx, 67, SPIRA_R64, &bw), SPIRA_OK);
    ck_assert_int_eq(spira_vector_create(ctx, 67, SPIRA_R64, &xw), SPIRA_OK);
    spira_vector_fill(bw, 1.0);
    same_error(SPIRA_SOLVER_JACOBI, W, bw, xw, "west0067, Jacobi");
    spira_vector_destroy(bw), spira_vector_destroy(xw);
    spira_matrix_destroy(W);
    /* NaN in b, on a good matrix: NONFINITE, x as given */
    spira_matrix L;
    ck_assert_int_eq(spira_matrix_laplacian(ctx, 2, 4, SPIRA_R64, &L), SPIRA_OK);
    spira_vector bl, xl;
    ck_assert_int_eq(spira_vector_create(ctx, 16, SPIRA_R64, &bl), SPIRA_OK);
    ck_assert_int_eq(spira_vector_create(ctx, 16, SPIRA_R64, &xl), SPIRA_OK);
    spira_vector_fill(bl, NAN);
    spira_vector_fill(xl, 3.0);
    same_error(SPIRA_SOLVER_CG, L, bl, xl, "NaN in b");
    double h[16];
    spira_vector_get_f64(xl, h);
    for (int i = 0; i < 16; i++) ck_assert(h[i] == 3.0);
    /* an unknown ordering */
    spira_vector_fill(bl, 1.0);
    o.reorder = (spira_reorder)7;
    ck_assert_int_eq(spira_solve(SPIRA_SOLVER_CG, L, bl, xl, &o, NULL), SPIRA_ERR_INVALID_ARG);
    tu_assert_error_has(ctx, "spira_solve_opts.reorder = 7");
    o.reorder = (spira_reorder)-1;
    ck_assert_int_eq(spira_solver_create(SPIRA_SOLVER_CG, L, &o, &(spira_solver){0}),
                     SPIRA_ERR_INVALID_ARG);
    tu_assert_error_has(ctx, "spira_solve_opts.reorder = -1");
    spira_vector_destroy(b), spira_vector_destroy(x), spira_vector_destroy(b2);
    spira_vector_destroy(x2), spira_vector_destroy(b0), spira_vector_destroy(x0);
    spira_vector_destroy(bl), spira_vector_destroy(xl);
    spira_matrix_destroy(Z), spira_matrix_destroy(R), spira_matrix_destroy(E);
    spira_matrix_destroy(L);
    spira_context_destroy(ctx);
}
END_TEST

/* PageRank in each ordering gives the plain call's ranks, in G's numbering, with a
 * personalized teleport vector and from a start too; an unknown ordering is refused. */
START_TEST(pagerank_reordered_matches)
{
    spira_context ctx = tu_cpu();
    spira_matrix G;
    ck_assert_int_eq(spira_matrix_read_mm(ctx, tu_data("email-Eu-core.mtx"), SPIRA_R64, &G),
                     SPIRA_OK);
    const int64_t n = G->csr.nrows;
    spira_vector r0, r, tel;
    ck_assert_int_eq(spira_vector_create(ctx, n, SPIRA_R64, &r0), SPIRA_OK);
    ck_assert_int_eq(spira_vector_create(ctx, n, SPIRA_R64, &r), SPIRA_OK);
    ck_assert_int_eq(spira_vector_create(ctx, n, SPIRA_R64, &tel), SPIRA_OK);
    double *h = malloc(n * sizeof *h);
    unsigned seed = tu_seed();
    for (int64_t i = 0; i < n; i++) h[i] = i % 7 ? 0 : tu_uniform(&seed, 0, 1);
    spira_vector_set_f64(tel, h);
    for (int personal = 0; personal < 2; personal++) {
        spira_pagerank_opts o = {.tol = 1e-12, .teleport = personal ? tel : NULL};
        spira_pagerank_info info;
        ck_assert_int_eq(spira_pagerank(G, r0, &o, &info), SPIRA_OK);
        ck_assert_int_eq(info.reorder, SPIRA_REORDER_NONE);
        for (int k = 0; k < 2; k++) {
            o.reorder = orders[k];
            o.use_initial_guess = 0;
            spira_vector_fill(r, NAN);
            ck_assert_int_eq(spira_pagerank(G, r, &o, &info), SPIRA_OK);
            ck_assert_int_eq(info.reorder, orders[k]);
            ck_assert_int_eq(info.bandwidth_before, spira__csr_bandwidth(&G->csr));
            ck_assert_msg(rel_diff(r, r0) < 1e-9, "%s%s: ranks differ by %g", order_names[k],
                          personal ? ", personalized" : "", rel_diff(r, r0));
            /* from a start: the plain call's ranks again */
            o.use_initial_guess = 1;
            spira_vector_fill(r, 1.0);
            ck_assert_int_eq(spira_pagerank(G, r, &o, &info), SPIRA_OK);
            ck_assert(info.reorder_ms == 0); /* G's cache had it */
            ck_assert_msg(rel_diff(r, r0) < 1e-9, "%s, from a start: ranks differ by %g",
                          order_names[k], rel_diff(r, r0));
        }
    }
    spira_pagerank_opts bad = {.reorder = (spira_reorder)3};
    ck_assert_int_eq(spira_pagerank(G, r, &bad, NULL), SPIRA_ERR_INVALID_ARG);
    tu_assert_error_has(ctx, "spira_pagerank_opts.reorder = 3");
    free(h);
    spira_vector_destroy(r0), spira_vector_destroy(r), spira_vector_destroy(tel);
    spira_matrix_destroy(G);
    spira_context_destroy(ctx);
}
END_TEST

/* Power iteration in each ordering starts from the plain call's vector permuted, so it
 * makes the same iterations to the same eigenpair, in A's numbering; a zero start is
 * refused as without the reordering; an unknown ordering is refused naming the field. */
START_TEST(power_reordered_matches)
{
    spira_context ctx = tu_cpu();
    spira_matrix A = tu_scrambled_band(ctx, 200, 2, 0, SPIRA_R64, tu_seed() + 9);
    /* one diagonal entry raised to 15: the dominant eigenvalue is then >= 11 and, by
     * interlacing, the next <= 9, so every seed converges in a few hundred steps (the band
     * alone left some seeds' top two within 1e-4 of each other: 100000 steps not enough) */
    for (int32_t k = A->csr.row_ptr[0]; k < A->csr.row_ptr[1]; k++)
        if (A->csr.col_idx[k] == 0) ((double *)A->csr.val)[k] = 15;
    spira_vector v0, v;
    ck_assert_int_eq(spira_vector_create(ctx, 200, SPIRA_R64, &v0), SPIRA_OK);
    ck_assert_int_eq(spira_vector_create(ctx, 200, SPIRA_R64, &v), SPIRA_OK);
    spira_power_opts o = {.tol = 1e-10, .maxit = 100000};
    spira_power_info i0, info;
    spira_status s0 = spira_power(A, v0, &o, &i0);
    ck_assert_msg(s0 == SPIRA_OK, "%s", spira_last_error(ctx));
    for (int k = 0; k < 2; k++) {
        o.reorder = orders[k];
        spira_vector_fill(v, NAN);
        ck_assert_int_eq(spira_power(A, v, &o, &info), SPIRA_OK);
        ck_assert_int_eq(info.reorder, orders[k]);
        ck_assert_int_eq(info.bandwidth_before, spira__csr_bandwidth(&A->csr));
        ck_assert_msg(abs(info.iterations - i0.iterations) <= 2, "%s: %d iterations, plain %d",
                      order_names[k], info.iterations, i0.iterations);
        ck_assert_msg(fabs(info.eigenvalue - i0.eigenvalue) <= 1e-9 * fabs(i0.eigenvalue),
                      "%s: eigenvalue %.15g, plain %.15g", order_names[k], info.eigenvalue,
                      i0.eigenvalue);
        ck_assert_msg(tu_max_err(v, v0) < 1e-6, "%s: eigenvectors differ by %g", order_names[k],
                      tu_max_err(v, v0));
    }
    spira_vector_fill(v, 0.0);
    o.use_initial_guess = 1;
    o.reorder = SPIRA_REORDER_NONE;
    ck_assert_int_eq(spira_power(A, v, &o, NULL), SPIRA_ERR_INVALID_ARG);
    char plain[1024];
    snprintf(plain, sizeof plain, "%s", spira_last_error(ctx));
    o.reorder = SPIRA_REORDER_RCM;
    ck_assert_int_eq(spira_power(A, v, &o, NULL), SPIRA_ERR_INVALID_ARG);
    ck_assert_str_eq(spira_last_error(ctx), plain);
    o.reorder = (spira_reorder)5;
    ck_assert_int_eq(spira_power(A, v, &o, NULL), SPIRA_ERR_INVALID_ARG);
    tu_assert_error_has(ctx, "spira_power_opts.reorder = 5");
    spira_vector_destroy(v0), spira_vector_destroy(v);
    spira_matrix_destroy(A);
    spira_context_destroy(ctx);
}
END_TEST

/* The reordered solves of the walk: RCM with IC(0) by CG, degree with Jacobi by BiCGSTAB
 * through a solver object (two right-hand sides), PageRank in RCM order with a teleport
 * vector, power iteration in degree order, on a matrix and vectors of its own. */
static spira_status walk_workflow(spira_context given)
{
    spira_context ctx = given;
    spira_matrix A = NULL, G = NULL;
    spira_vector b = NULL, x = NULL;
    spira_solver S = NULL;
    spira_status s = ctx ? SPIRA_OK : spira_context_create(&ctx, &(spira_context_opts){
                                                                   .backend = SPIRA_BACKEND_CPU});
    if (s == SPIRA_OK) s = spira_matrix_laplacian(ctx, 2, 7, SPIRA_R64, &A);
    if (s == SPIRA_OK) s = spira_vector_create(ctx, 49, SPIRA_R64, &b);
    if (s == SPIRA_OK) s = spira_vector_create(ctx, 49, SPIRA_R64, &x);
    if (s == SPIRA_OK) s = spira_vector_fill(b, 1.0);
    spira_solve_opts o = {.rtol = 1e-8, .precond = SPIRA_PRECOND_ILU0,
                          .reorder = SPIRA_REORDER_RCM};
    if (s == SPIRA_OK) s = spira_solve(SPIRA_SOLVER_CG, A, b, x, &o, NULL);
    o.precond = SPIRA_PRECOND_JACOBI;
    o.reorder = SPIRA_REORDER_DEGREE;
    o.use_initial_guess = 1;
    if (s == SPIRA_OK) s = spira_solver_create(SPIRA_SOLVER_BICGSTAB, A, &o, &S);
    if (s == SPIRA_OK) s = spira_solver_solve(S, b, x, NULL);
    if (s == SPIRA_OK) s = spira_vector_fill(x, 0.0);
    if (s == SPIRA_OK) s = spira_solver_solve(S, b, x, NULL);
    /* a graph of 49 vertices: i -> i + 1 and i -> 3 i (mod 49), weights 1 */
    int32_t gi[98], gj[98];
    for (int32_t i = 0; i < 49; i++) gi[2 * i] = gi[2 * i + 1] = i, gj[2 * i] = (i + 1) % 49,
                                     gj[2 * i + 1] = 3 * i % 49;
    if (s == SPIRA_OK) s = spira_matrix_from_coo(ctx, 49, 49, 98, gi, gj, NULL, SPIRA_R64, &G);
    spira_pagerank_opts po = {.reorder = SPIRA_REORDER_RCM, .teleport = b};
    if (s == SPIRA_OK) s = spira_pagerank(G, x, &po, NULL);
    spira_power_opts pw = {.reorder = SPIRA_REORDER_DEGREE, .tol = 1e-3};
    if (s == SPIRA_OK) s = spira_power(A, x, &pw, NULL);
    spira_matrix_destroy(G);
    spira_solver_destroy(S);
    spira_vector_destroy(b), spira_vector_destroy(x);
    spira_matrix_destroy(A);
    if (!given) spira_context_destroy(ctx);
    return s;
}

void tu_check_reorder_walk(spira_context ctx)
{
    long base = spira__alloc_live();
    int done = 0;
    for (long n = 1; n < 100000 && !done; n++) {
        spira__alloc_fail_at(n);
        spira_status s = walk_workflow(ctx);
        long made = spira__alloc_count();
        spira__alloc_fail_at(0);
        ck_assert_msg(spira__alloc_live() == base, "failing allocation %ld leaked %ld blocks",
                      n, spira__alloc_live() - base);
        if (made < n) { /* no allocation failed: the walk is complete */
            ck_assert_msg(s == SPIRA_OK, "status %s: %s", spira_status_name(s),
                          ctx ? spira_last_error(ctx) : "");
            done = 1;
        } else {
            ck_assert_msg(s == SPIRA_ERR_NOMEM, "allocation %ld failed but status %s (%s)", n,
                          spira_status_name(s), ctx ? spira_last_error(ctx) : "");
        }
    }
    ck_assert(done);
}

START_TEST(allocation_walk)
{
    tu_check_reorder_walk(NULL);
}
END_TEST

Suite *suite_reorder(void)
{
    Suite *s = suite_create("reorder");
    TCase *tc = tcase_create("reorder");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, orderings_are_permutations);
    tcase_add_test(tc, rcm_restores_band);
    tcase_add_test(tc, public_reorder_matches);
    tcase_add_loop_test(tc, random_solves_match, 0, 2);
    tcase_add_test(tc, bundled_solves_match);
    tcase_add_test(tc, reorder_cached_and_reported);
    tcase_add_test(tc, errors_as_without);
    tcase_add_test(tc, pagerank_reordered_matches);
    tcase_add_test(tc, power_reordered_matches);
    tcase_add_test(tc, allocation_walk);
    suite_add_tcase(s, tc);
    return s;
}
