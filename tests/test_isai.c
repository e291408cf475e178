/* test_isai.c - the incomplete sparse approximate inverses of the ILU factors
 * (spira_solve_opts.trisolve = SPIRA_TRISOLVE_ISAI, precond/isai.c): each row inverts its
 * factor on its own pattern, IC(0)'s upper one is the lower one's transpose over D, a
 * bidiagonal factor's inverse is one Jacobi sweep, whole solves converge, and bad input, a
 * too long row and every allocation failing in turn are refused cleanly (its symmetry for
 * IC(0) is checked beside the sweeps', in test_ilu.c). */
#include "testutil.h"
#include "ilu.h"
#include "isai.h"
#include "precond.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A's ILU factor under o (built through the registry, looked up in A's cache). */
static spira__ilu_factor *factor_of(spira_matrix A, const spira_solve_opts *o)
{
    spira__precond *M;
    spira_solve_opts exact = *o;
    exact.trisolve = SPIRA_TRISOLVE_DEFAULT;
    ck_assert_int_eq(spira__precond_create(o->precond, &exact, A, &M), SPIRA_OK);
    spira__ilu_factor *f = spira__ilu_of(M);
    spira__precond_destroy(M); /* the factor stays in A's cache */
    ck_assert_ptr_nonnull(f);
    return f;
}

/* The factor's entry (i, j) of L (unit diagonal) or of U, 0 when not stored. */
static double factor_entry(const spira__ilu_factor *f, int upper, int32_t i, int32_t j)
{
    if (!upper && i == j) return 1;
    if (upper ? j < i : j >= i) return 0;
    return spira__csr_entry(&f->lu, i, j);
}

/* (M T)(i, k) = delta_ik for every k in row i's pattern of T (T = L or U), M's columns
 * taken back through perm for L. */
static void check_inverse_rows(const spira__ilu_factor *f, const spira__csr *M, int upper,
                               const char *label)
{
    const int32_t n = f->lu.nrows;
    int32_t *iperm = malloc(n * sizeof *iperm);
    for (int32_t j = 0; j < n; j++) iperm[f->perm && !upper ? f->perm[j] : j] = j;
    for (int32_t i = 0; i < n; i++) {
        const int32_t q0 = upper ? f->diag[i] : f->lu.row_ptr[i];
        const int32_t q1 = upper ? f->lu.row_ptr[i + 1] : f->diag[i] + 1;
        ck_assert_int_eq(M->row_ptr[i + 1] - M->row_ptr[i], q1 - q0);
        for (int32_t q = q0; q < q1; q++) {
            const int32_t k = f->lu.col_idx[q];
            double s = 0, norm = 0;
            for (int32_t p = M->row_ptr[i]; p < M->row_ptr[i + 1]; p++) {
                const double t = spira__get(M->val, M->dtype, p) *
                                 factor_entry(f, upper, iperm[M->col_idx[p]], k);
                s += t, norm += fabs(t);
            }
            const double tol = (M->dtype == SPIRA_R64 ? 1e-12 : 2e-5) * (1 + norm);
            ck_assert_msg(fabs(s - (k == i)) <= tol, "%s, %s: (M T)(%d, %d) = %.3e", label,
                          upper ? "U" : "L", i, k, s);
        }
    }
    free(iperm);
}

/* _i: sherman5 (ILU(0)), west0067 (ILU(0) with the row permutation), orsirr_1 (ILUT), a
 * random permuted matrix in float (ILU(0)), gr_30_30 (IC(0): M_U = M_L^T D^-1). */
START_TEST(isai_rows_invert_on_pattern)
{
    static const struct {
        const char *file;
        spira_precond_type pc;
        spira_dtype t;
    } cases[] = {{"sherman5.mtx", SPIRA_PRECOND_ILU0, SPIRA_R64},
                 {"west0067.mtx", SPIRA_PRECOND_ILU0, SPIRA_R64},
                 {"orsirr_1.mtx", SPIRA_PRECOND_ILUT, SPIRA_R64},
                 {NULL, SPIRA_PRECOND_ILU0, SPIRA_R32},
                 {"gr_30_30.mtx", SPIRA_PRECOND_ILU0, SPIRA_R64}};
    spira_context ctx = tu_cpu();
    spira_matrix A;
    if (cases[_i].file)
        ck_assert_int_eq(spira_matrix_read_mm(ctx, tu_data(cases[_i].file), cases[_i].t, &A),
                         SPIRA_OK);
    else
        A = tu_random_square(ctx, 60, 0.06, 0, cases[_i].t, tu_seed() + 11);
    spira_solve_opts o = {.precond = cases[_i].pc};
    const spira__ilu_factor *f = factor_of(A, &o);
    ck_assert_int_eq(f->ic, _i == 4);
    if (_i == 1 || _i == 3) ck_assert_ptr_nonnull(f->perm);
    spira__csr ml, mu;
    long live = spira__alloc_live();
    ck_assert_int_eq(spira__isai_build(f, &ml, &mu), SPIRA_OK);
    const char *label = cases[_i].file ? cases[_i].file : "random";
    check_inverse_rows(f, &ml, 0, label);
    if (!f->ic) {
        check_inverse_rows(f, &mu, 1, label);
    } else { /* mu(i, j) = ml(j, i) / U(j, j), entry for entry */
        ck_assert_int_eq(mu.nnz, ml.nnz);
        for (int32_t i = 0; i < mu.nrows; i++)
            for (int32_t p = mu.row_ptr[i]; p < mu.row_ptr[i + 1]; p++) {
                const int32_t j = mu.col_idx[p];
                const double want = spira__csr_entry(&ml, j, i) /
                                    spira__get(f->lu.val, f->lu.dtype, f->diag[j]);
                ck_assert(spira__get(mu.val, mu.dtype, p) == want);
            }
    }
    for (const spira__csr *m = &ml; m; m = m == &ml ? &mu : NULL) /* canonical: sorted */
        for (int32_t i = 0; i < m->nrows; i++)
            for (int32_t p = m->row_ptr[i] + 1; p < m->row_ptr[i + 1]; p++)
                ck_assert_int_lt(m->col_idx[p - 1], m->col_idx[p]);
    spira__csr_free(&ml), spira__csr_free(&mu);
    ck_assert_int_eq(spira__alloc_live(), live);
    spira_matrix_destroy(A);
    spira_context_destroy(ctx);
}
END_TEST

/* z = M^-1 r through the registry with o, on the host; r, z: n doubles. */
static void apply_with(spira_matrix A, const spira_solve_opts *o, const double *r, double *z)
{
    spira_context ctx = A->ctx;
    const int32_t n = A->csr.nrows;
    spira__precond *M;
    ck_assert_int_eq(spira__precond_create(o->precond, o, A, &M), SPIRA_OK);
    ck_assert_int_eq(M->isai, o->trisolve == SPIRA_TRISOLVE_ISAI);
    spira_vector vr, vz;
    ck_assert_int_eq(spira_vector_create(ctx, n, A->csr.dtype, &vr), SPIRA_OK);
    ck_assert_int_eq(spira_vector_create(ctx, n, A->csr.dtype, &vz), SPIRA_OK);
    ck_assert_int_eq(spira_vector_set_f64(vr, r), SPIRA_OK);
    ck_assert_int_eq(spira_vector_fill(vz, NAN), SPIRA_OK);
    ck_assert_int_eq(spira__precond_apply(M, vr, vz), SPIRA_OK);
    ck_assert_int_eq(spira_vector_get_f64(vz, z), SPIRA_OK);
    spira_vector_destroy(vr), spira_vector_destroy(vz);
    spira__precond_destroy(M);
}

/* A tridiagonal matrix has bidiagonal factors, whose ISAI is the first Neumann term: the
 * same operator as one Jacobi sweep a triangular solve. _i: 0 a random nonsymmetric one
 * (ILU(0)), 1 the 1-D Laplacian tridiag(-1, 2, -1) (IC(0), M_U = M_L^T D^-1), 2 a random
 * nonsymmetric one in float. */
START_TEST(isai_bidiagonal_is_one_sweep)
{
    spira_context ctx = tu_cpu();
    const int32_t n = 300;
    const spira_dtype t = _i == 2 ? SPIRA_R32 : SPIRA_R64;
    int32_t *ri = malloc(3 * n * sizeof *ri), *ci = malloc(3 * n * sizeof *ci), k = 0;
    double *v = malloc(3 * n * sizeof *v);
    float *vf = malloc(3 * n * sizeof *vf);
    unsigned seed = tu_seed();
    for (int32_t i = 0; i < n; i++)
        for (int32_t j = i - 1; j <= i + 1; j++) {
            if (j < 0 || j >= n) continue;
            ri[k] = i, ci[k] = j;
            v[k] = _i == 1 ? (i == j ? 2 : -1)
                           : (i == j ? tu_uniform(&seed, 3, 5) : tu_uniform(&seed, -1, 1));
            vf[k] = (float)v[k], k++;
        }
    spira_matrix A;
    ck_assert_int_eq(spira_matrix_from_coo(ctx, n, n, k, ri, ci, t == SPIRA_R32 ? (void *)vf : v,
                                           t, &A), SPIRA_OK);
    free(ri), free(ci), free(v), free(vf);
    double *r = malloc(n * sizeof *r), *za = malloc(n * sizeof *za), *zs = malloc(n * sizeof *zs);
    seed = tu_seed() + 1;
    for (int32_t i = 0; i < n; i++) r[i] = tu_uniform(&seed, -1, 1);
    spira_solve_opts o = {.precond = SPIRA_PRECOND_ILU0, .trisolve = SPIRA_TRISOLVE_ISAI};
    apply_with(A, &o, r, za);
    o.trisolve = SPIRA_TRISOLVE_DEFAULT, o.trisolve_sweeps = 1;
    apply_with(A, &o, r, zs);
    for (int32_t i = 0; i < n; i++)
        ck_assert_msg(fabs(za[i] - zs[i]) <= (t == SPIRA_R64 ? 1e-13 : 1e-5) * (1 + fabs(zs[i])),
                      "row %d: ISAI %.17g, one sweep %.17g", i, za[i], zs[i]);
    free(r), free(za), free(zs);
    spira_matrix_destroy(A);
    spira_context_destroy(ctx);
}
END_TEST

/* Whole solves: IC(0)-CG on a 2-D Laplacian and on gr_30_30, ILU(0)-BiCGSTAB on sherman5
 * and on west0067 (rows permuted), ILUT-BiCGSTAB on orsirr_1 converge with ISAI and say so
 * in info.trisolve; a second solve reuses the cached inverses (no setup left to pay). */
START_TEST(isai_in_solves)
{
    static const struct {
        const char *file; /* NULL: the 2-D Laplacian 40^2 */
        spira_solver_type st;
        spira_precond_type pc;
    } cases[] = {{NULL, SPIRA_SOLVER_CG, SPIRA_PRECOND_ILU0},
                 {"gr_30_30.mtx", SPIRA_SOLVER_CG, SPIRA_PRECOND_ILU0},
                 {"sherman5.mtx", SPIRA_SOLVER_BICGSTAB, SPIRA_PRECOND_ILU0},
                 {"west0067.mtx", SPIRA_SOLVER_BICGSTAB, SPIRA_PRECOND_ILU0},
                 {"orsirr_1.mtx", SPIRA_SOLVER_BICGSTAB, SPIRA_PRECOND_ILUT}};
    spira_context ctx = tu_cpu();
    spira_matrix A;
    if (cases[_i].file)
        ck_assert_int_eq(spira_matrix_read_mm(ctx, tu_data(cases[_i].file), SPIRA_R64, &A),
                         SPIRA_OK);
    else
        ck_assert_int_eq(spira_matrix_laplacian(ctx, 2, 40, SPIRA_R64, &A), SPIRA_OK);
    spira_vector xt, b = tu_rhs(A, &xt, tu_seed()), x;
    spira_vector_create(ctx, spira_vector_length(b), SPIRA_R64, &x);
    spira_solve_opts o = {.rtol = 1e-10, .maxit = 5000, .precond = cases[_i].pc,
                          .trisolve = SPIRA_TRISOLVE_ISAI};
    spira_solve_info info;
    for (int rep = 0; rep < 2; rep++) {
        spira_vector_fill(x, 0);
        spira_status s = spira_solve(cases[_i].st, A, b, x, &o, &info);
        ck_assert_msg(s == SPIRA_OK, "%s: %s", cases[_i].file ? cases[_i].file : "Laplacian",
                      spira_last_error(ctx));
        ck_assert_int_eq(info.trisolve, SPIRA_TRISOLVE_ISAI);
        ck_assert_int_eq(info.trisolve_sweeps, 0);
        ck_assert_double_le(info.rel_residual, 1e-9);
    }
    o.trisolve = SPIRA_TRISOLVE_DEFAULT; /* exact solves: reported as such */
    ck_assert_int_eq(spira_solve(cases[_i].st, A, b, x, &o, &info), SPIRA_OK);
    ck_assert_int_eq(info.trisolve, SPIRA_TRISOLVE_DEFAULT);
    spira_vector_destroy(x), spira_vector_destroy(xt), spira_vector_destroy(b);
    spira_matrix_destroy(A);
    spira_context_destroy(ctx);
}
END_TEST

/* Refusals: ISAI with Jacobi sweeps, an unknown trisolve, and a factor row longer than
 * SPIRA_ISAI_MAX_ROW (an arrowhead: U's first row is dense), each with its message and
 * nothing leaked. */
START_TEST(isai_bad_input)
{
    spira_context ctx = tu_cpu();
    const int32_t n = SPIRA_ISAI_MAX_ROW + 200;
    int32_t *ri = malloc(3 * n * sizeof *ri), *ci = malloc(3 * n * sizeof *ci), k = 0;
    double *v = malloc(3 * n * sizeof *v);
    for (int32_t i = 0; i < n; i++) {
        ri[k] = i, ci[k] = i, v[k++] = 4.0 * n;
        if (i) ri[k] = 0, ci[k] = i, v[k++] = 1, ri[k] = i, ci[k] = 0, v[k++] = 1;
    }
    spira_matrix A;
    ck_assert_int_eq(spira_matrix_from_coo(ctx, n, n, k, ri, ci, v, SPIRA_R64, &A), SPIRA_OK);
    free(ri), free(ci), free(v);
    spira_vector b, x;
    spira_vector_create(ctx, n, SPIRA_R64, &b), spira_vector_create(ctx, n, SPIRA_R64, &x);
    spira_vector_fill(b, 1);
    long live = spira__alloc_live();
    spira_solve_opts o = {.precond = SPIRA_PRECOND_ILU0, .trisolve = SPIRA_TRISOLVE_ISAI,
                          .trisolve_sweeps = 2};
    ck_assert_int_eq(spira_solve(SPIRA_SOLVER_BICGSTAB, A, b, x, &o, NULL), SPIRA_ERR_INVALID_ARG);
    tu_assert_error_has(ctx, "not both");
    o.trisolve_sweeps = 0, o.trisolve = (spira_trisolve)7;
    ck_assert_int_eq(spira_solve(SPIRA_SOLVER_BICGSTAB, A, b, x, &o, NULL), SPIRA_ERR_INVALID_ARG);
    tu_assert_error_has(ctx, "spira_solve_opts.trisolve = 7");
    o.trisolve = SPIRA_TRISOLVE_ISAI;
    ck_assert_int_eq(spira_solve(SPIRA_SOLVER_BICGSTAB, A, b, x, &o, NULL), SPIRA_ERR_UNSUPPORTED);
    tu_assert_error_has(ctx, "ISAI: row 1 of the factor's upper part has 1224 entries");
    o.trisolve = SPIRA_TRISOLVE_DEFAULT; /* the factor itself is fine */
    ck_assert_int_eq(spira_solve(SPIRA_SOLVER_BICGSTAB, A, b, x, &o, NULL), SPIRA_OK);
    spira_matrix_destroy(A); /* its cache: the factor */
    spira_vector_destroy(b), spira_vector_destroy(x);
    ck_assert_int_le(spira__alloc_live(), live);
    spira_context_destroy(ctx);
}
END_TEST

/* Every allocation of an ISAI solve fails in turn (ILU(0) with the row permutation on
 * west0067, IC(0) on gr_30_30): SPIRA_ERR_NOMEM and no block left behind, then success. */
START_TEST(isai_allocation_failures)
{
    spira_context ctx = tu_cpu();
    spira_matrix A;
    ck_assert_int_eq(spira_matrix_read_mm(ctx, tu_data(_i ? "gr_30_30.mtx" : "west0067.mtx"),
                                          SPIRA_R64, &A), SPIRA_OK);
    spira_solve_opts o = {.precond = SPIRA_PRECOND_ILU0, .trisolve = SPIRA_TRISOLVE_ISAI};
    ck_assert_int_gt(tu_solve_allocation_walk(A, _i ? SPIRA_SOLVER_CG : SPIRA_SOLVER_BICGSTAB, &o),
                     10);
    spira_matrix_destroy(A);
    spira_context_destroy(ctx);
}
END_TEST

Suite *suite_isai(void)
{
    Suite *s = suite_create("isai");
    TCase *tc = tcase_create("isai");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, isai_rows_invert_on_pattern, 0, 5);
    tcase_add_loop_test(tc, isai_bidiagonal_is_one_sweep, 0, 3);
    tcase_add_loop_test(tc, isai_in_solves, 0, 5);
    tcase_add_test(tc, isai_bad_input);
    tcase_add_loop_test(tc, isai_allocation_failures, 0, 2);
    suite_add_tcase(s, tc);
    return s;
}
