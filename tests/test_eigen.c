/* test_eigen.c - spira_asum, power iteration (known spectra) and PageRank (hand-checkable
 * graphs and a dense Google-matrix reference), float and double. */
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PI 3.14159265358979323846

/* From COO with double values (NULL: pattern), stored in dtype t. */
static spira_matrix coo(spira_context ctx, int32_t n, int32_t nnz, const int32_t *ri,
                        const int32_t *ci, const double *v, spira_dtype t)
{
    float *f = malloc((nnz ? nnz : 1) * sizeof *f);
    for (int32_t k = 0; v && k < nnz; k++) f[k] = (float)v[k];
    const void *val = !v ? NULL : t == SPIRA_R64 ? (const void *)v : f;
    spira_matrix A;
    ck_assert_int_eq(spira_matrix_from_coo(ctx, n, n, nnz, ri, ci, val, t, &A), SPIRA_OK);
    free(f);
    return A;
}

static double *get(spira_vector v)
{
    double *h = malloc((spira_vector_length(v) + 1) * sizeof *h);
    ck_assert_int_eq(spira_vector_get_f64(v, h), SPIRA_OK);
    return h;
}

START_TEST(asum_matches_loop)
{
    spira_dtype t = _i ? SPIRA_R32 : SPIRA_R64;
    spira_context ctx = tu_cpu();
    unsigned st = tu_seed() + 3;
    int32_t n = 1000 + (int32_t)tu_uniform(&st, 0, 1000);
    double *h = malloc(n * sizeof *h), ref = 0, r = -1;
    for (int32_t i = 0; i < n; i++) {
        h[i] = tu_uniform(&st, -2, 2);
        if (t == SPIRA_R32) h[i] = (float)h[i];
        ref += fabs(h[i]);
    }
    spira_vector x;
    spira_vector_create(ctx, n, t, &x);
    spira_vector_set_f64(x, h);
    ck_assert_int_eq(spira_asum(x, &r), SPIRA_OK);
    ck_assert_double_eq_tol(r, ref, 1e-12 * ref);
    h[n / 2] = NAN;
    spira_vector_set_f64(x, h);
    ck_assert_int_eq(spira_asum(x, &r), SPIRA_OK);
    ck_assert(isnan(r));
    ck_assert_int_eq(spira_asum(x, NULL), SPIRA_ERR_INVALID_ARG);
    spira_vector_destroy(x);
    spira_context_destroy(ctx);
    free(h);
}
END_TEST

/* ---- power iteration ------------------------------------------------------------ */

/* Diagonal with random entries in [-4, 4] and one dominant entry (+10, or -10 for a
 * negative dominant eigenvalue) at a random place; _i: bit 0 float, bit 1 negative. */
START_TEST(power_diagonal)
{
    spira_dtype t = _i & 1 ? SPIRA_R32 : SPIRA_R64;
    double dom = _i & 2 ? -10.0 : 10.0;
    spira_context ctx = tu_cpu();
    unsigned st = tu_seed() + 29 + _i;
    int32_t n = 60, ri[60], p = (int32_t)tu_uniform(&st, 0, n);
    double d[60];
    for (int32_t i = 0; i < n; i++) ri[i] = i, d[i] = i == p ? dom : tu_uniform(&st, -4, 4);
    spira_matrix A = coo(ctx, n, n, ri, ri, d, t);
    spira_vector v;
    spira_vector_create(ctx, n, t, &v);
    spira_vector_fill(v, NAN); /* poisoned: ignored without use_initial_guess */
    spira_power_opts o = {.tol = t == SPIRA_R64 ? 1e-10 : 1e-5};
    spira_power_info info;
    ck_assert_int_eq(spira_power(A, v, &o, &info), SPIRA_OK);
    ck_assert_int_eq(info.reason, SPIRA_CONVERGED_RTOL);
    ck_assert_double_le(info.residual, o.tol * 10);
    ck_assert_double_eq_tol(info.eigenvalue, dom, t == SPIRA_R64 ? 1e-9 : 1e-4);
    /* the ratio is at most 0.4: ~ 25 (double) or 13 (float) steps */
    ck_assert_int_lt(info.iterations, 40);
    ck_assert_int_gt(info.iterations, 3);
    double *h = get(v);
    ck_assert_double_eq_tol(fabs(h[p]), 1.0, t == SPIRA_R64 ? 1e-9 : 1e-4);
    free(h);
    spira_vector_destroy(v);
    spira_matrix_destroy(A);
    spira_context_destroy(ctx);
}
END_TEST

/* The 2-D Laplacian on an n x n grid has eigenvalues 4 - 2 cos(j pi/(n+1)) - 2 cos(k pi/
 * (n+1)), j, k = 1..n: the largest is 4 + 4 cos(pi/(n+1)). _i: float. */
START_TEST(power_laplacian)
{
    spira_dtype t = _i ? SPIRA_R32 : SPIRA_R64;
    spira_context ctx = tu_cpu();
    int n = 10;
    spira_matrix A;
    spira_matrix_laplacian(ctx, 2, n, t, &A);
    spira_vector v, w;
    spira_vector_create(ctx, n * n, t, &v);
    spira_vector_create(ctx, n * n, t, &w);
    spira_power_opts o = {.tol = t == SPIRA_R64 ? 1e-8 : 1e-4};
    spira_power_info info;
    ck_assert_int_eq(spira_power(A, v, &o, &info), SPIRA_OK);
    double exact = 4 + 4 * cos(PI / (n + 1));
    ck_assert_double_eq_tol(info.eigenvalue, exact, (t == SPIRA_R64 ? 1e-10 : 1e-5) * exact);
    /* the residual, recomputed: ||A v - lambda v|| with ||v|| = 1 */
    double nv, res;
    spira_nrm2(v, &nv);
    ck_assert_double_eq_tol(nv, 1.0, t == SPIRA_R64 ? 1e-12 : 1e-6);
    spira_spmv(1.0, A, v, 0.0, w);
    spira_axpy(-info.eigenvalue, v, w);
    spira_nrm2(w, &res);
    ck_assert_double_le(res, 2 * o.tol * exact);
    /* gap ratio lambda_2 / lambda_1 ~ 0.97: a few hundred steps, not thousands */
    ck_assert_int_gt(info.iterations, 50);
    ck_assert_int_lt(info.iterations, 2000);
    /* the limit: NOT_CONVERGED, the last estimate kept */
    o.maxit = 5;
    ck_assert_int_eq(spira_power(A, v, &o, &info), SPIRA_ERR_NOT_CONVERGED);
    ck_assert_int_eq(info.reason, SPIRA_STOPPED_MAXIT);
    ck_assert_int_eq(info.iterations, 5);
    ck_assert_ptr_nonnull(strstr(spira_last_error(ctx), "5 iterations"));
    ck_assert_double_gt(info.eigenvalue, 4.0);
    ck_assert_double_le(info.eigenvalue, exact * (1 + 1e-6));
    /* restart from the converged vector: done at once */
    o.maxit = 0;
    ck_assert_int_eq(spira_power(A, v, &o, &info), SPIRA_OK);
    o.use_initial_guess = 1;
    ck_assert_int_eq(spira_power(A, v, &o, &info), SPIRA_OK);
    ck_assert_int_le(info.iterations, 2);
    spira_vector_destroy(v), spira_vector_destroy(w);
    spira_matrix_destroy(A);
    spira_context_destroy(ctx);
}
END_TEST

START_TEST(power_errors)
{
    spira_context ctx = tu_cpu();
    int32_t ri[] = {0, 1, 1}, ci[] = {0, 1, 0};
    double val[] = {2, 3, NAN};
    spira_matrix A = coo(ctx, 2, 3, ri, ci, val, SPIRA_R64), R;
    spira_matrix_from_coo(ctx, 2, 3, 1, ri, ci, NULL, SPIRA_R64, &R);
    spira_vector v, vf;
    spira_vector_create(ctx, 2, SPIRA_R64, &v);
    spira_vector_create(ctx, 2, SPIRA_R32, &vf);
    spira_power_info info;
    ck_assert_int_eq(spira_power(A, v, NULL, &info), SPIRA_ERR_NONFINITE);
    ck_assert_int_eq(info.reason, SPIRA_STOPPED_NONFINITE);
    ck_assert_int_eq(info.iterations, 1);
    ck_assert_int_eq(spira_power(R, v, NULL, &info), SPIRA_ERR_INVALID_ARG);
    ck_assert_ptr_nonnull(strstr(spira_last_error(ctx), "square"));
    ck_assert_int_eq(spira_power(A, vf, NULL, &info), SPIRA_ERR_INVALID_ARG);
    ck_assert_int_eq(spira_power(A, NULL, NULL, &info), SPIRA_ERR_INVALID_ARG);
    spira_power_opts o = {.use_initial_guess = 1};
    spira_vector_fill(v, 0);
    ck_assert_int_eq(spira_power(A, v, &o, &info), SPIRA_ERR_INVALID_ARG);
    ck_assert_ptr_nonnull(strstr(spira_last_error(ctx), "zero"));
    /* each field checked by name, before the start vector is looked at */
    static const struct { double tol; int maxit; const char *says; } bad[] = {
        {-2, 0, "spira_power_opts.tol = -2: want a finite number >= 0"},
        {NAN, 0, "spira_power_opts.tol = nan"},
        {INFINITY, 0, "spira_power_opts.tol = inf"},
        {0, -1, "spira_power_opts.maxit = -1: want an integer from 1"},
    };
    for (int i = 0; i < 4; i++) {
        spira_power_opts ob = {.tol = bad[i].tol, .maxit = bad[i].maxit};
        ck_assert_int_eq(spira_power(A, v, &ob, NULL), SPIRA_ERR_INVALID_ARG);
        tu_assert_error_has(ctx, bad[i].says);
    }
    spira_vector_destroy(v), spira_vector_destroy(vf);
    spira_matrix_destroy(A), spira_matrix_destroy(R);
    spira_context_destroy(ctx);
}
END_TEST

/* ---- PageRank --------------------------------------------------------------------- */

/* Dense reference: the Google matrix M (row-stochastic: row i is where a walker at i goes
 * next) built entry by entry, and x^T <- x^T M until it no longer moves. w: n x n
 * weights (row-major), tele: teleport (normalized here; NULL uniform). */
static void dense_pagerank(int n, const double *w, const double *tele, double alpha, double *x)
{
    double *M = calloc((size_t)n * n, sizeof *M), *v = malloc(n * sizeof *v);
    double *y = malloc(n * sizeof *y), vs = 0;
    for (int j = 0; j < n; j++) vs += v[j] = tele ? tele[j] : 1.0;
    for (int j = 0; j < n; j++) v[j] /= vs;
    for (int i = 0; i < n; i++) {
        double s = 0;
        for (int j = 0; j < n; j++) s += w[i * n + j];
        for (int j = 0; j < n; j++)
            M[i * n + j] = (s > 0 ? alpha * w[i * n + j] / s : alpha * v[j]) + (1 - alpha) * v[j];
    }
    for (int j = 0; j < n; j++) x[j] = 1.0 / n;
    for (int it = 0; it < 100000; it++) {
        double d = 0;
        for (int j = 0; j < n; j++) {
            y[j] = 0;
            for (int i = 0; i < n; i++) y[j] += x[i] * M[i * n + j];
        }
        for (int j = 0; j < n; j++) d += fabs(y[j] - x[j]), x[j] = y[j];
        if (d < 1e-16) break;
    }
    free(M), free(v), free(y);
}

/* Run spira_pagerank on the COO graph and return the ranks (malloc'd). */
static double *pagerank(spira_context ctx, int32_t n, int32_t nnz, const int32_t *ri,
                        const int32_t *ci, const double *w, const double *tele,
                        spira_pagerank_opts o, spira_dtype t, spira_pagerank_info *info)
{
    spira_matrix G = coo(ctx, n, nnz, ri, ci, w, t);
    spira_vector r, tv = NULL;
    spira_vector_create(ctx, n, t, &r);
    spira_vector_fill(r, NAN); /* poisoned */
    if (tele) {
        spira_vector_create(ctx, n, t, &tv);
        spira_vector_set_f64(tv, tele);
        o.teleport = tv;
    }
    ck_assert_int_eq(spira_pagerank(G, r, &o, info), SPIRA_OK);
    ck_assert_int_eq(info->reason, SPIRA_CONVERGED_ATOL);
    double *h = get(r);
    spira_vector_destroy(r), spira_vector_destroy(tv);
    spira_matrix_destroy(G);
    return h;
}

static void check_sum_one(const double *x, int n, double tol)
{
    double s = 0;
    for (int i = 0; i < n; i++) {
        ck_assert_double_ge(x[i], 0);
        s += x[i];
    }
    ck_assert_double_eq_tol(s, 1.0, tol);
}

/* A directed 3-cycle: uniform, and x_0 (uniform) is already the fixed point. */
START_TEST(pagerank_cycle)
{
    spira_dtype t = _i ? SPIRA_R32 : SPIRA_R64;
    spira_context ctx = tu_cpu();
    int32_t ri[] = {0, 1, 2}, ci[] = {1, 2, 0};
    spira_pagerank_info info;
    double *x = pagerank(ctx, 3, 3, ri, ci, NULL, NULL, (spira_pagerank_opts){0}, t, &info);
    for (int i = 0; i < 3; i++) ck_assert_double_eq_tol(x[i], 1.0 / 3, 1e-7);
    ck_assert_int_eq(info.iterations, 1);
    ck_assert_double_le(info.delta, 1e-7);
    free(x);
    /* teleporting always to vertex 0 (given unnormalized): x_0 = (1 - a) / (1 - a^3),
     * x_1 = a x_0, x_2 = a^2 x_0 */
    double tele[] = {5, 0, 0}, a = 0.85;
    spira_pagerank_opts o = {.tol = t == SPIRA_R64 ? 1e-12 : 1e-6};
    x = pagerank(ctx, 3, 3, ri, ci, NULL, tele, o, t, &info);
    double x0 = (1 - a) / (1 - a * a * a), tol = t == SPIRA_R64 ? 1e-10 : 1e-5;
    ck_assert_double_eq_tol(x[0], x0, tol);
    ck_assert_double_eq_tol(x[1], a * x0, tol);
    ck_assert_double_eq_tol(x[2], a * a * x0, tol);
    free(x);
    spira_context_destroy(ctx);
}
END_TEST

/* Undirected star (centre 0, m leaves, both directions): with n = m + 1, each leaf has
 * l = (a + m (1 - a) / n) / (m (1 + a)) and the centre 1 - m l. */
START_TEST(pagerank_star)
{
    spira_context ctx = tu_cpu();
    enum { m = 6 };
    int32_t ri[2 * m], ci[2 * m];
    for (int k = 0; k < m; k++) ri[2 * k] = 0, ci[2 * k] = k + 1, ri[2 * k + 1] = k + 1, ci[2 * k + 1] = 0;
    double a = 0.7, n = m + 1, l = (a + m * (1 - a) / n) / (m * (1 + a));
    spira_pagerank_opts o = {.alpha = a, .tol = 1e-13};
    spira_pagerank_info info;
    double *x = pagerank(ctx, m + 1, 2 * m, ri, ci, NULL, NULL, o, SPIRA_R64, &info);
    ck_assert_double_eq_tol(x[0], 1 - m * l, 1e-11);
    for (int k = 1; k <= m; k++) ck_assert_double_eq_tol(x[k], l, 1e-11);
    check_sum_one(x, m + 1, 1e-14);
    free(x);
    spira_context_destroy(ctx);
}
END_TEST

/* 0 -> 1 with 1 dangling: x_0 = (1 - a)/2 + a x_1/2 and sum 1 give x_0 = 1/(2 + a). */
START_TEST(pagerank_dangling)
{
    spira_dtype t = _i ? SPIRA_R32 : SPIRA_R64;
    spira_context ctx = tu_cpu();
    int32_t ri[] = {0}, ci[] = {1};
    double a = 0.85, tol = t == SPIRA_R64 ? 1e-10 : 1e-5;
    spira_pagerank_opts o = {.tol = t == SPIRA_R64 ? 1e-12 : 1e-6};
    spira_pagerank_info info;
    double *x = pagerank(ctx, 2, 1, ri, ci, NULL, NULL, o, t, &info);
    ck_assert_double_eq_tol(x[0], 1 / (2 + a), tol);
    ck_assert_double_eq_tol(x[1], (1 + a) / (2 + a), tol);
    ck_assert_double_le(info.sum_error, t == SPIRA_R64 ? 1e-13 : 1e-5);
    free(x);
    /* a row of explicit zero weights is dangling too */
    int32_t rz[] = {0, 1}, cz[] = {1, 0};
    double wz[] = {1, 0};
    x = pagerank(ctx, 2, 2, rz, cz, wz, NULL, o, t, &info);
    ck_assert_double_eq_tol(x[0], 1 / (2 + a), tol);
    free(x);
    spira_context_destroy(ctx);
}
END_TEST

/* A random weighted graph of 50 vertices with dangling vertices and self-loops, with and
 * without personalization, against the dense Google-matrix reference; _i: float. */
START_TEST(pagerank_random_vs_dense)
{
    spira_dtype t = _i ? SPIRA_R32 : SPIRA_R64;
    spira_context ctx = tu_cpu();
    enum { n = 50 };
    unsigned st = tu_seed() + 41 + _i;
    double *w = calloc(n * n, sizeof *w), tele[n], ref[n];
    int32_t ri[n * n], ci[n * n], nnz = 0;
    double wv[n * n];
    for (int i = 0; i < n; i++) {
        int dangling = i % 7 == 3;
        for (int j = 0; j < n && !dangling; j++)
            if (tu_uniform(&st, 0, 1) < 0.1) {
                ri[nnz] = i, ci[nnz] = j;
                wv[nnz] = w[i * n + j] = (float)tu_uniform(&st, 0.1, 3);
                nnz++;
            }
        tele[i] = (float)tu_uniform(&st, 0, 2);
    }
    double tol = t == SPIRA_R64 ? 1e-12 : 1e-6, err = 0;
    for (int pers = 0; pers < 2; pers++) {
        double a = pers ? 0.9 : 0.85;
        spira_pagerank_opts o = {.alpha = pers ? a : 0, .tol = tol, .maxit = 5000};
        spira_pagerank_info info;
        double *x = pagerank(ctx, n, nnz, ri, ci, wv, pers ? tele : NULL, o, t, &info);
        dense_pagerank(n, w, pers ? tele : NULL, a, ref);
        err = 0;
        for (int i = 0; i < n; i++) err += fabs(x[i] - ref[i]);
        /* the L1 error of the power method is about delta * a / (1 - a) */
        ck_assert_double_le(err, t == SPIRA_R64 ? 1e-10 : 2e-5);
        check_sum_one(x, n, t == SPIRA_R64 ? 1e-14 : 1e-6);
        ck_assert_double_le(info.delta, tol);
        /* L1 contraction by a per step: log(tol) / log(a) steps, give or take */
        ck_assert_int_le(info.iterations, (int)(log(tol) / log(a)) + 20);
        ck_assert_int_gt(info.iterations, 5);
        free(x);
    }
    free(w);
    spira_context_destroy(ctx);
}
END_TEST

/* The transition matrix is built once and cached in G; later calls reuse it (same
 * answer), the limit gives NOT_CONVERGED with normalized ranks, the initial guess works. */
START_TEST(pagerank_cache_maxit_guess)
{
    spira_context ctx = tu_cpu();
    int32_t ri[] = {0, 0, 1, 2, 3, 3}, ci[] = {1, 2, 2, 0, 2, 4};
    spira_matrix G = coo(ctx, 5, 6, ri, ci, NULL, SPIRA_R64);
    spira_vector r;
    spira_vector_create(ctx, 5, SPIRA_R64, &r);
    spira_pagerank_opts o = {.tol = 1e-12};
    spira_pagerank_info info;
    ck_assert_ptr_null(spira__matrix_cache_find(G, "pagerank:transition"));
    ck_assert_int_eq(spira_pagerank(G, r, &o, &info), SPIRA_OK);
    ck_assert_ptr_nonnull(spira__matrix_cache_find(G, "pagerank:transition"));
    ck_assert_str_eq(info.format, "csr-scalar");
    int its = info.iterations;
    double *x1 = get(r);
    ck_assert_int_eq(spira_pagerank(G, r, &o, &info), SPIRA_OK);
    double *x2 = get(r);
    for (int i = 0; i < 5; i++) ck_assert_double_eq(x1[i], x2[i]);
    ck_assert_int_eq(info.iterations, its);
    /* from the answer as initial guess (scaled by 3: normalized internally): 1 step */
    spira_scal(3.0, r);
    o.use_initial_guess = 1;
    ck_assert_int_eq(spira_pagerank(G, r, &o, &info), SPIRA_OK);
    ck_assert_int_le(info.iterations, 2);
    /* the limit */
    o.use_initial_guess = 0;
    o.maxit = 3;
    ck_assert_int_eq(spira_pagerank(G, r, &o, &info), SPIRA_ERR_NOT_CONVERGED);
    ck_assert_int_eq(info.reason, SPIRA_STOPPED_MAXIT);
    ck_assert_int_eq(info.iterations, 3);
    ck_assert_ptr_nonnull(strstr(spira_last_error(ctx), "3 iterations"));
    double *x3 = get(r);
    check_sum_one(x3, 5, 1e-14);
    free(x1), free(x2), free(x3);
    spira_vector_destroy(r);
    spira_matrix_destroy(G);
    spira_context_destroy(ctx);
}
END_TEST

/* On a graph large enough for the row sums to run on a team (solvers/pagerank.c), the error
 * names the first bad row in order, as a serial scan would: a NaN in row 40,000 and a
 * negative weight in row 90,000 report the NaN; without it, the negative weight. */
START_TEST(pagerank_errors_first_row_in_order)
{
    spira_context ctx = tu_cpu();
    const int32_t n = 100000, per = 2;
    int32_t *ri = malloc((size_t)n * per * sizeof *ri), *ci = malloc((size_t)n * per * sizeof *ci);
    double *v = malloc((size_t)n * per * sizeof *v);
    ck_assert(ri && ci && v);
    for (int32_t i = 0; i < n; i++)
        for (int32_t k = 0; k < per; k++) {
            ri[i * per + k] = i, ci[i * per + k] = (i + 1 + k) % n;
            v[i * per + k] = 1.0;
        }
    v[90000 * per + 1] = -3;
    spira_vector r;
    ck_assert_int_eq(spira_vector_create(ctx, n, SPIRA_R64, &r), SPIRA_OK);
    for (int nan_too = 1; nan_too >= 0; nan_too--) {
        v[40000 * per] = nan_too ? NAN : 1.0;
        spira_matrix G = coo(ctx, n, n * per, ri, ci, v, SPIRA_R64);
        ck_assert_int_eq(spira_pagerank(G, r, NULL, NULL),
                         nan_too ? SPIRA_ERR_NONFINITE : SPIRA_ERR_INVALID_ARG);
        ck_assert_ptr_nonnull(strstr(spira_last_error(ctx), nan_too ? "G(40001,40002)"
                                                                    : "G(90001,90003) = -3"));
        spira_matrix_destroy(G);
    }
    spira_vector_destroy(r);
    free(ri), free(ci), free(v);
    spira_context_destroy(ctx);
}
END_TEST

START_TEST(pagerank_errors)
{
    spira_context ctx = tu_cpu();
    int32_t ri[] = {0, 1, 2}, ci[] = {1, 2, 0};
    double neg[] = {1, -2, 1}, nan_[] = {1, 1, NAN};
    spira_matrix Gn = coo(ctx, 3, 3, ri, ci, neg, SPIRA_R64);
    spira_matrix Gz = coo(ctx, 3, 3, ri, ci, nan_, SPIRA_R64);
    spira_matrix G = coo(ctx, 3, 3, ri, ci, NULL, SPIRA_R64), R;
    spira_matrix_from_coo(ctx, 3, 4, 3, ri, ci, NULL, SPIRA_R64, &R);
    spira_vector r, r4, rf, tv;
    spira_vector_create(ctx, 3, SPIRA_R64, &r);
    spira_vector_create(ctx, 3, SPIRA_R64, &tv);
    spira_vector_create(ctx, 4, SPIRA_R64, &r4);
    spira_vector_create(ctx, 3, SPIRA_R32, &rf);
    spira_pagerank_info info;
    ck_assert_int_eq(spira_pagerank(Gn, r, NULL, &info), SPIRA_ERR_INVALID_ARG);
    ck_assert_ptr_nonnull(strstr(spira_last_error(ctx), "negative edge weight G(2,3) = -2"));
    ck_assert_int_eq(spira_pagerank(Gz, r, NULL, &info), SPIRA_ERR_NONFINITE);
    ck_assert_int_eq(info.reason, SPIRA_STOPPED_NONFINITE);
    ck_assert_ptr_nonnull(strstr(spira_last_error(ctx), "G(3,1)"));
    ck_assert_int_eq(spira_pagerank(R, r, NULL, &info), SPIRA_ERR_INVALID_ARG);
    ck_assert_int_eq(spira_pagerank(G, r4, NULL, &info), SPIRA_ERR_INVALID_ARG);
    ck_assert_int_eq(spira_pagerank(G, rf, NULL, &info), SPIRA_ERR_INVALID_ARG);
    spira_pagerank_opts o = {.alpha = 1.0};
    ck_assert_int_eq(spira_pagerank(G, r, &o, &info), SPIRA_ERR_INVALID_ARG);
    ck_assert_ptr_nonnull(strstr(spira_last_error(ctx), "alpha"));
    static const struct { double alpha, tol; int maxit; const char *says; } badopt[] = {
        {-0.5, 0, 0, "spira_pagerank_opts.alpha (the damping) = -0.5: want a finite number in (0, 1)"},
        {NAN, 0, 0, "spira_pagerank_opts.alpha (the damping) = nan"},
        {0, -3, 0, "spira_pagerank_opts.tol = -3"},
        {0, NAN, 0, "spira_pagerank_opts.tol = nan"},
        {0, 0, -5, "spira_pagerank_opts.maxit = -5"},
    };
    for (int i = 0; i < 5; i++) {
        spira_pagerank_opts ob = {.alpha = badopt[i].alpha, .tol = badopt[i].tol,
                                  .maxit = badopt[i].maxit};
        ck_assert_int_eq(spira_pagerank(G, r, &ob, &info), SPIRA_ERR_INVALID_ARG);
        tu_assert_error_has(ctx, badopt[i].says);
    }
    /* SPIRA_TOL_ZERO: only the iteration limit stops (the 3-cycle's ranks never move, so
     * the difference is exactly 0 at once: a tolerance of 0 is met) */
    spira_pagerank_opts oz = {.tol = SPIRA_TOL_ZERO, .maxit = 7};
    ck_assert_int_eq(spira_pagerank(G, r, &oz, &info), SPIRA_OK);
    ck_assert_double_eq(info.delta, 0);
    o.alpha = 0;
    o.teleport = tv;
    double bad[] = {1, -1, 1};
    spira_vector_set(tv, bad);
    ck_assert_int_eq(spira_pagerank(G, r, &o, &info), SPIRA_ERR_INVALID_ARG);
    ck_assert_ptr_nonnull(strstr(spira_last_error(ctx), "teleport[2]"));
    spira_vector_fill(tv, 0);
    ck_assert_int_eq(spira_pagerank(G, r, &o, &info), SPIRA_ERR_INVALID_ARG);
    o.teleport = r4;
    ck_assert_int_eq(spira_pagerank(G, r, &o, &info), SPIRA_ERR_INVALID_ARG);
    spira_vector_destroy(r), spira_vector_destroy(r4), spira_vector_destroy(rf);
    spira_vector_destroy(tv);
    spira_matrix_destroy(G), spira_matrix_destroy(Gn), spira_matrix_destroy(Gz);
    spira_matrix_destroy(R);
    spira_context_destroy(ctx);
}
END_TEST

/* Every allocation of a PageRank call made to fail in turn: a clean error, no leak (the
 * sanitizer build checks the latter), and a correct answer once allocation works. */
START_TEST(pagerank_alloc_failures)
{
    spira_context ctx = tu_cpu();
    int32_t ri[] = {0, 1, 2, 2}, ci[] = {1, 2, 0, 1};
    spira_vector r;
    spira_vector_create(ctx, 3, SPIRA_R64, &r);
    for (long k = 1; k < 100; k++) {
        spira_matrix G = coo(ctx, 3, 4, ri, ci, NULL, SPIRA_R64);
        spira__alloc_fail_at(k);
        spira_status s = spira_pagerank(G, r, NULL, NULL);
        spira__alloc_fail_at(0);
        spira_matrix_destroy(G);
        if (s == SPIRA_OK) break;
        ck_assert_int_eq(s, SPIRA_ERR_NOMEM);
    }
    double *x = get(r);
    check_sum_one(x, 3, 1e-12);
    free(x);
    spira_vector_destroy(r);
    spira_context_destroy(ctx);
}
END_TEST

Suite *suite_eigen(void)
{
    Suite *s = suite_create("eigen");
    TCase *tc = tcase_create("power");
    tcase_add_loop_test(tc, asum_matches_loop, 0, 2);
    tcase_add_loop_test(tc, power_diagonal, 0, 4);
    tcase_add_loop_test(tc, power_laplacian, 0, 2);
    tcase_add_test(tc, power_errors);
    suite_add_tcase(s, tc);
    tc = tcase_create("pagerank");
    tcase_add_loop_test(tc, pagerank_cycle, 0, 2);
    tcase_add_test(tc, pagerank_star);
    tcase_add_loop_test(tc, pagerank_dangling, 0, 2);
    tcase_add_loop_test(tc, pagerank_random_vs_dense, 0, 2);
    tcase_add_test(tc, pagerank_cache_maxit_guess);
    tcase_add_test(tc, pagerank_errors);
    tcase_add_test(tc, pagerank_errors_first_row_in_order);
    tcase_add_test(tc, pagerank_alloc_failures);
    suite_add_tcase(s, tc);
    return s;
}
