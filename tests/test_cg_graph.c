/*
 * test_cg_graph.c - CG through its CUDA graph (solvers/cg_graph.c) against CG's
 * per-iteration path (ctx->cg_graph = -1) in the same context: a test case of check_gpu on
 * the CUDA backend, and a suite of check_spira on the CPU backend, where the graph's
 * launches are made by calls (ctx->cg_graph > 0) around the same scalar step, so the host
 * half (batches, replay of the checks, hand-over to the classic step, restarts) is checked
 * without a GPU. The two paths make the same operations with the same kernels, so each
 * solve must come out the same both ways: status, reason, iterations, residuals, message,
 * history, the multiplies counted in A, and x bit for bit; and the graph must have run
 * (ctx->cg_graph_runs) where it should, and not where it should not. It runs with the
 * library's batches (on the GPU: 8 doubling to 64, cut by maxit and by the predicted
 * convergence; on the CPU a fixed 8) and with fixed batches of 5 and 64 iterations, which
 * run launches past the stop: they must change nothing.
 */
#include "testutil.h"
#include "solver.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static spira_context ctx; /* deterministic: every format gives the same bits run to run */
/* the graph as the library runs it on this backend, and two fixed batches */
static int graph_mode, all_modes[3];

static void context_make(spira_backend backend)
{
    spira_context_opts o = {.backend = backend, .deterministic = 1};
    spira_status s = spira_context_create(&ctx, &o);
    ck_assert_msg(s == SPIRA_OK, "deterministic context: %s", spira_last_error(ctx));
    graph_mode = backend == SPIRA_BACKEND_CUDA ? 0 : 8;
    all_modes[0] = graph_mode, all_modes[1] = 5, all_modes[2] = SPIRA__CG_GRAPH_MAX;
}

static void context_make_cuda(void)
{
    context_make(SPIRA_BACKEND_CUDA);
}

static void context_make_cpu(void)
{
    context_make(SPIRA_BACKEND_CPU);
}

static void context_free(void)
{
    spira_context_destroy(ctx);
    ctx = NULL;
}

#define HLEN 300
#define OFF (-1)

typedef struct {
    spira_status s;
    spira_solve_info info;
    char msg[1024];
    double *x;
    double hist[HLEN];
    long runs;          /* graph runs */
    int64_t multiplies; /* A's */
} outcome;

static void outcome_free(outcome *o)
{
    free(o->x);
    o->x = NULL;
}

/* CG on A x = b with the graph mode `mode` (OFF, 0, or a fixed batch), x from x0 (NULL:
 * zero, unless o says use_initial_guess, then x0 is required) */
static void solve(spira_matrix A, spira_vector b, const double *x0, const spira_solve_opts *o,
                  int mode, outcome *out)
{
    const int32_t n = A->csr.nrows;
    memset(out, 0, sizeof *out);
    for (int i = 0; i < HLEN; i++) out->hist[i] = -1.0;
    spira_vector x;
    ck_assert_int_eq(spira_vector_create(ctx, n, A->csr.dtype, &x), SPIRA_OK);
    double *h = malloc(n * sizeof *h);
    for (int32_t i = 0; i < n; i++) h[i] = x0 ? x0[i] : NAN; /* x = 0 must not read x */
    ck_assert_int_eq(spira_vector_set_f64(x, h), SPIRA_OK);
    spira_solve_opts so = *o;
    if (!so.history) so.history = out->hist;
    if (!so.history_len) so.history_len = HLEN;
    ctx->cg_graph = mode;
    ctx->err[0] = '\0';
    const long runs = ctx->cg_graph_runs;
    const int64_t mult = A->multiplies;
    out->s = spira_solve(SPIRA_SOLVER_CG, A, b, x, &so, &out->info);
    snprintf(out->msg, sizeof out->msg, "%s", out->s == SPIRA_OK ? "" : spira_last_error(ctx));
    out->runs = ctx->cg_graph_runs - runs;
    out->multiplies = A->multiplies - mult;
    ctx->cg_graph = 0;
    out->x = h;
    ck_assert_int_eq(spira_vector_get_f64(x, h), SPIRA_OK);
    spira_vector_destroy(x);
}

/* The graph's outcome g is the per-iteration one p. */
static void same(const char *what, const outcome *p, const outcome *g, int32_t n)
{
    ck_assert_msg(p->runs == 0, "%s: the per-iteration path ran the graph", what);
    ck_assert_msg(g->s == p->s, "%s: status %s, per iteration %s (%s | %s)", what,
                  spira_status_name(g->s), spira_status_name(p->s), g->msg, p->msg);
    ck_assert_msg(g->info.reason == p->info.reason, "%s: reason %s, per iteration %s", what,
                  spira_reason_string(g->info.reason), spira_reason_string(p->info.reason));
    ck_assert_msg(g->info.iterations == p->info.iterations, "%s: %d iterations, per iteration %d",
                  what, g->info.iterations, p->info.iterations);
    ck_assert_msg(!memcmp(&g->info.rel_residual, &p->info.rel_residual, sizeof(double)) &&
                      !memcmp(&g->info.recurrence_residual, &p->info.recurrence_residual,
                              sizeof(double)),
                  "%s: residuals %.17g %.17g, per iteration %.17g %.17g", what,
                  g->info.rel_residual, g->info.recurrence_residual, p->info.rel_residual,
                  p->info.recurrence_residual);
    ck_assert_msg(!strcmp(g->msg, p->msg), "%s: message \"%s\", per iteration \"%s\"", what,
                  g->msg, p->msg);
    ck_assert_msg(g->multiplies == p->multiplies, "%s: %lld multiplies, per iteration %lld",
                  what, (long long)g->multiplies, (long long)p->multiplies);
    for (int i = 0; i < HLEN; i++) /* unwritten entries stay -1 both ways */
        ck_assert_msg(memcmp(&g->hist[i], &p->hist[i], sizeof(double)) == 0,
                      "%s: history[%d] = %.17g, per iteration %.17g", what, i, g->hist[i],
                      p->hist[i]);
    for (int32_t i = 0; i < n; i++)
        ck_assert_msg(memcmp(&g->x[i], &p->x[i], sizeof(double)) == 0,
                      "%s: x[%d] = %.17g, per iteration %.17g (%d iterations)", what, i,
                      g->x[i], p->x[i], p->info.iterations);
}

/* Solve per iteration, then through the graph in each mode of modes (nmodes), comparing;
 * expect_graph: the graph must have run in those. The per-iteration outcome is left in *p
 * (free it) when p is not NULL. */
static void compare(const char *what, spira_matrix A, spira_vector b, const double *x0,
                    const spira_solve_opts *o, const int *modes, int nmodes, int expect_graph,
                    outcome *p)
{
    outcome ref, g;
    solve(A, b, x0, o, OFF, &ref);
    for (int m = 0; m < nmodes; m++) {
        char label[256];
        snprintf(label, sizeof label, "%s, graph mode %d", what, modes[m]);
        solve(A, b, x0, o, modes[m], &g);
        same(label, &ref, &g, A->csr.nrows);
        if (expect_graph)
            ck_assert_msg(g.runs > 0, "%s: the graph did not run", label);
        else
            ck_assert_msg(g.runs == 0, "%s: the graph ran", label);
        outcome_free(&g);
    }
    if (p) *p = ref;
    else outcome_free(&ref);
}


/* b = A * (a fixed vector), so the solution is known and no entry is 0 */
static spira_vector rhs(spira_matrix A)
{
    const int32_t n = A->csr.nrows;
    spira_vector xt, b;
    double *h = malloc(n * sizeof *h);
    for (int32_t i = 0; i < n; i++) h[i] = 1.0 + 0.5 * sin(0.37 * i);
    ck_assert_int_eq(spira_vector_create(ctx, n, A->csr.dtype, &xt), SPIRA_OK);
    ck_assert_int_eq(spira_vector_create(ctx, n, A->csr.dtype, &b), SPIRA_OK);
    ck_assert_int_eq(spira_vector_set_f64(xt, h), SPIRA_OK);
    ck_assert_int_eq(spira_spmv(1.0, A, xt, 0.0, b), SPIRA_OK);
    spira_vector_destroy(xt);
    free(h);
    return b;
}

/* The bundled SPD matrices (<= 5,000 rows, issue 14's small systems) and 2-D and 3-D
 * Laplacians */
static spira_matrix spd_matrix(int which, spira_dtype t, char *name, size_t len)
{
    static const char *const files[3] = {"bcsstk01.mtx", "1138_bus.mtx", "gr_30_30.mtx"};
    spira_matrix A;
    if (which < 3) {
        snprintf(name, len, "%s", files[which]);
        ck_assert_int_eq(spira_matrix_read_mm(ctx, tu_data(files[which]), t, &A), SPIRA_OK);
    } else if (which == 3) {
        snprintf(name, len, "2-D Laplacian 50 x 50");
        ck_assert_int_eq(spira_matrix_laplacian(ctx, 2, 50, t, &A), SPIRA_OK);
    } else {
        snprintf(name, len, "3-D Laplacian 16^3");
        ck_assert_int_eq(spira_matrix_laplacian(ctx, 3, 16, t, &A), SPIRA_OK);
    }
    return A;
}

/* _i: matrix (5) x precond (none, Jacobi) x precision; csr-scalar. In float at rtol 1e-7
 * the recurrence runs ahead of b - A x, so solve.c's restarts from the true residual are
 * crossed too. */
START_TEST(cg_graph_spd)
{
    const int which = _i / 4;
    const spira_precond_type M = _i % 2 ? SPIRA_PRECOND_JACOBI : SPIRA_PRECOND_NONE;
    const spira_dtype t = (_i / 2) % 2 ? SPIRA_R32 : SPIRA_R64;
    char name[64], what[160];
    spira_matrix A = spd_matrix(which, t, name, sizeof name);
    ck_assert_int_eq(spira_matrix_set_format(A, "csr-scalar", NULL), SPIRA_OK);
    spira_vector b = rhs(A);
    spira_solve_opts o = {.rtol = t == SPIRA_R64 ? 1e-10 : 1e-7, .precond = M};
    snprintf(what, sizeof what, "%s, %s, %s", name, M ? "Jacobi" : "no preconditioner",
             t == SPIRA_R64 ? "double" : "float");
    outcome p;
    compare(what, A, b, NULL, &o, all_modes, 3, 1, &p);
    /* and a solve that converges: the graph is to be used, not only to agree */
    if (t == SPIRA_R64)
        ck_assert_msg(p.s == SPIRA_OK, "%s: %s", what, p.msg);
    outcome_free(&p);
    spira_vector_destroy(b);
    spira_matrix_destroy(A);
}
END_TEST

/* Every format on gr_30_30 (Jacobi, double) and a Laplacian (float): where the format's
 * apply can be captured the graph runs, else CG falls back to its per-iteration path; both
 * ways the outcome is the per-iteration one. The formats that fell back are printed. */
START_TEST(cg_graph_formats)
{
    const spira_dtype t = _i ? SPIRA_R32 : SPIRA_R64;
    spira_matrix A;
    if (_i == 0) ck_assert_int_eq(spira_matrix_read_mm(ctx, tu_data("gr_30_30.mtx"), t, &A), SPIRA_OK);
    else ck_assert_int_eq(spira_matrix_laplacian(ctx, 2, 40, t, &A), SPIRA_OK);
    spira_vector b = rhs(A);
    char fell_back[1024] = "";
    int captured = 0;
    for (int f = 0; f < spira_format_count(); f++) {
        const char *name;
        spira_format_describe(f, &name, NULL);
        if (!strcmp(name, "auto")) continue; /* its choice may change between the solves */
        if (spira_matrix_set_format(A, name, NULL) != SPIRA_OK ||
            spira_matrix_prepare(A) != SPIRA_OK)
            continue; /* refused (fill limits) or not for this matrix */
        spira_solve_opts o = {.rtol = t == SPIRA_R64 ? 1e-10 : 1e-5,
                              .precond = SPIRA_PRECOND_JACOBI};
        outcome p, g;
        char what[128];
        snprintf(what, sizeof what, "%s, %s", name, _i ? "2-D Laplacian, float" : "gr_30_30");
        solve(A, b, NULL, &o, OFF, &p);
        solve(A, b, NULL, &o, graph_mode, &g);
        same(what, &p, &g, A->csr.nrows);
        if (g.runs) captured++;
        else snprintf(fell_back + strlen(fell_back), sizeof fell_back - strlen(fell_back), " %s",
                      name);
        if (!strcmp(name, "csr-scalar") || !strcmp(name, "ell") || !strcmp(name, "dia"))
            ck_assert_msg(g.runs > 0, "%s: the graph did not run", what);
        outcome_free(&p), outcome_free(&g);
    }
    ck_assert_int_gt(captured, 0);
    if (fell_back[0]) printf("cg_graph_formats: per-iteration CG (apply not captured):%s\n",
                             fell_back);
    spira_vector_destroy(b);
    spira_matrix_destroy(A);
}
END_TEST

/* maxit reached: at the end of a batch (the library cuts the batch to it), in the middle of
 * a fixed batch of 5 and of 64 (launches past the stop), and after a restart round. */
START_TEST(cg_graph_maxit)
{
    spira_matrix A;
    const spira_dtype t = _i ? SPIRA_R32 : SPIRA_R64;
    ck_assert_int_eq(spira_matrix_laplacian(ctx, 2, 40, t, &A), SPIRA_OK);
    ck_assert_int_eq(spira_matrix_set_format(A, "csr-scalar", NULL), SPIRA_OK);
    spira_vector b = rhs(A);
    const int maxits[3] = {1, 13, 77};
    for (int k = 0; k < 3; k++) {
        spira_solve_opts o = {.rtol = 1e-12, .maxit = maxits[k], .precond = k == 1};
        char what[64];
        snprintf(what, sizeof what, "maxit %d, %s", maxits[k], _i ? "float" : "double");
        outcome p;
        compare(what, A, b, NULL, &o, all_modes, 3, 1, &p);
        ck_assert_int_eq(p.s, SPIRA_ERR_NOT_CONVERGED);
        ck_assert_int_eq(p.info.reason, SPIRA_STOPPED_MAXIT);
        ck_assert_int_eq(p.info.iterations, maxits[k]);
        outcome_free(&p);
    }
    spira_vector_destroy(b);
    spira_matrix_destroy(A);
}
END_TEST

/* diag(1, -1, 1, ..., 1) with b = e_1 + e_2 (no preconditioner): (r, A r) = 0 from the
 * recurrence, the classic step measures (p, A p) = 0: breakdown. With Jacobi, M^-1 = A^-1:
 * gamma = (r, M^-1 r) = 0 (b = e_1 + e_2) or < 0 (b = e_2). A shifted 1-D Laplacian
 * (diagonal 1.99, one negative eigenvalue) with b = ones breaks down a few iterations in (at
 * 5 on the CPU backend, with and without Jacobi), and diverges at once with dtol just
 * above 1. */
START_TEST(cg_graph_breakdown)
{
    enum { n = 50 };
    int32_t ri[3 * n], ci[3 * n];
    double v[3 * n];
    int nnz = 0;
    for (int i = 0; i < n; i++) ri[nnz] = ci[nnz] = i, v[nnz++] = i == 1 ? -1.0 : 1.0;
    spira_matrix D = tu_coo(ctx, n, nnz, ri, ci, v, SPIRA_R64);
    nnz = 0;
    for (int i = 0; i < n; i++) {
        ri[nnz] = ci[nnz] = i, v[nnz++] = 1.99;
        if (i) ri[nnz] = i, ci[nnz] = i - 1, v[nnz++] = -1;
        if (i + 1 < n) ri[nnz] = i, ci[nnz] = i + 1, v[nnz++] = -1;
    }
    spira_matrix S = tu_coo(ctx, n, nnz, ri, ci, v, SPIRA_R64);
    ck_assert_int_eq(spira_matrix_set_format(D, "csr-scalar", NULL), SPIRA_OK);
    ck_assert_int_eq(spira_matrix_set_format(S, "csr-scalar", NULL), SPIRA_OK);
    double hb[n] = {0};
    spira_vector b;
    ck_assert_int_eq(spira_vector_create(ctx, n, SPIRA_R64, &b), SPIRA_OK);
    struct {
        int e1, precond;
        const char *says;
    } cases[3] = {{1, 0, "(p, A p) <= 0"}, {1, 1, "rho = (r, M^-1 r)"}, {0, 1, "(r, M^-1 r) < 0"}};
    for (int k = 0; k < 3; k++) {
        hb[0] = cases[k].e1, hb[1] = 1;
        ck_assert_int_eq(spira_vector_set_f64(b, hb), SPIRA_OK);
        spira_solve_opts o = {.precond = cases[k].precond ? SPIRA_PRECOND_JACOBI : 0};
        outcome p;
        compare(cases[k].says, D, b, NULL, &o, all_modes, 3, 1, &p);
        ck_assert_int_eq(p.s, SPIRA_ERR_BREAKDOWN);
        ck_assert_int_eq(p.info.iterations, 1);
        ck_assert_msg(strstr(p.msg, cases[k].says), "message: %s", p.msg);
        outcome_free(&p);
    }
    for (int i = 0; i < n; i++) hb[i] = 1;
    ck_assert_int_eq(spira_vector_set_f64(b, hb), SPIRA_OK);
    for (int k = 0; k < 3; k++) {
        spira_solve_opts o = {.rtol = 1e-10, .precond = k == 1 ? SPIRA_PRECOND_JACOBI : 0,
                              .dtol = k == 2 ? 1.0000001 : 0};
        const char *what[3] = {"shifted Laplacian", "shifted Laplacian, Jacobi",
                               "shifted Laplacian, dtol"};
        outcome p;
        compare(what[k], S, b, NULL, &o, all_modes, 3, 1, &p);
        if (k < 2) {
            ck_assert_int_eq(p.s, SPIRA_ERR_BREAKDOWN);
            ck_assert_int_gt(p.info.iterations, 1);
        } else {
            ck_assert_int_eq(p.info.reason, SPIRA_STOPPED_DIVERGED);
        }
        outcome_free(&p);
    }
    spira_vector_destroy(b);
    spira_matrix_destroy(D), spira_matrix_destroy(S);
}
END_TEST

/* The graph hands an iteration to the host's classic step and goes on (the test hook
 * ctx->cg_classic_at forces the step on both paths): at the first iteration, at one inside
 * a batch, at one on a batch's edge. */
START_TEST(cg_graph_classic_step)
{
    spira_matrix A;
    const spira_dtype t = _i ? SPIRA_R32 : SPIRA_R64;
    ck_assert_int_eq(spira_matrix_laplacian(ctx, 2, 30, t, &A), SPIRA_OK);
    ck_assert_int_eq(spira_matrix_set_format(A, "csr-scalar", NULL), SPIRA_OK);
    spira_vector b = rhs(A);
    const int at[3] = {1, 11, 8};
    for (int k = 0; k < 3; k++) {
        spira_solve_opts o = {.rtol = _i ? 1e-5 : 1e-10, .precond = k % 2};
        char what[64];
        snprintf(what, sizeof what, "classic step at %d, %s", at[k], _i ? "float" : "double");
        ctx->cg_classic_at = at[k];
        outcome p;
        compare(what, A, b, NULL, &o, all_modes, 3, 1, &p);
        ctx->cg_classic_at = 0;
        ck_assert_msg(p.s == SPIRA_OK, "%s: %s", what, p.msg);
        ck_assert_int_gt(p.info.iterations, at[k]);
        outcome_free(&p);
    }
    spira_vector_destroy(b);
    spira_matrix_destroy(A);
}
END_TEST

/* b = 0 (the dispatcher's shortcut: no iteration, no graph run); the other stops: atol,
 * stagnation (a window of 2: at 9 on the CPU backend), a non-finite initial guess; and a
 * nonzero initial guess. (Divergence: cg_graph_breakdown.) */
START_TEST(cg_graph_stops)
{
    spira_matrix A;
    ck_assert_int_eq(spira_matrix_read_mm(ctx, tu_data("bcsstk01.mtx"), SPIRA_R64, &A), SPIRA_OK);
    ck_assert_int_eq(spira_matrix_set_format(A, "csr-scalar", NULL), SPIRA_OK);
    const int32_t n = A->csr.nrows;
    spira_vector z, b = rhs(A);
    ck_assert_int_eq(spira_vector_create(ctx, n, SPIRA_R64, &z), SPIRA_OK);
    ck_assert_int_eq(spira_vector_fill(z, 0.0), SPIRA_OK);
    spira_solve_opts o = {0};
    outcome p;
    compare("b = 0", A, z, NULL, &o, all_modes, 3, 0, &p);
    ck_assert_int_eq(p.s, SPIRA_OK);
    ck_assert_int_eq(p.info.reason, SPIRA_CONVERGED_ZERO_RHS);
    for (int32_t i = 0; i < n; i++) ck_assert(p.x[i] == 0);
    outcome_free(&p);
    double bnorm;
    ck_assert_int_eq(spira_nrm2(b, &bnorm), SPIRA_OK);
    o = (spira_solve_opts){.rtol = 1e-14, .atol = 1e-3 * bnorm};
    compare("atol", A, b, NULL, &o, all_modes, 3, 1, &p);
    ck_assert_int_eq(p.info.reason, SPIRA_CONVERGED_ATOL);
    outcome_free(&p);
    o = (spira_solve_opts){.stagnation_window = 2};
    compare("stagnation", A, b, NULL, &o, all_modes, 3, 1, &p);
    ck_assert_int_eq(p.info.reason, SPIRA_STOPPED_STAGNATION);
    outcome_free(&p);
    double *x0 = malloc(n * sizeof *x0);
    for (int32_t i = 0; i < n; i++) x0[i] = i == 3 ? INFINITY : 0.25;
    o = (spira_solve_opts){.use_initial_guess = 1};
    compare("x0 with Inf", A, b, x0, &o, all_modes, 3, 1, &p);
    ck_assert_int_eq(p.info.reason, SPIRA_STOPPED_NONFINITE);
    outcome_free(&p);
    x0[3] = -0.5;
    o = (spira_solve_opts){.use_initial_guess = 1, .precond = SPIRA_PRECOND_JACOBI};
    compare("x0 given", A, b, x0, &o, all_modes, 3, 1, &p);
    ck_assert_int_eq(p.s, SPIRA_OK);
    outcome_free(&p);
    free(x0);
    spira_vector_destroy(b), spira_vector_destroy(z);
    spira_matrix_destroy(A);
}
END_TEST

/* History arrays shorter than the solve and longer; and none. */
START_TEST(cg_graph_history)
{
    spira_matrix A;
    ck_assert_int_eq(spira_matrix_laplacian(ctx, 2, 30, SPIRA_R64, &A), SPIRA_OK);
    ck_assert_int_eq(spira_matrix_set_format(A, "csr-scalar", NULL), SPIRA_OK);
    spira_vector b = rhs(A);
    const int lens[3] = {1, 10, HLEN};
    for (int k = 0; k < 3; k++) {
        spira_solve_opts o = {.rtol = 1e-10, .history_len = lens[k]};
        char what[64];
        snprintf(what, sizeof what, "history_len %d", lens[k]);
        outcome p;
        compare(what, A, b, NULL, &o, all_modes, 3, 1, &p);
        ck_assert_int_lt(p.info.iterations + 1, HLEN);
        for (int i = 0; i < HLEN; i++) /* written exactly where asked */
            ck_assert((p.hist[i] >= 0) == (i < lens[k] && i <= p.info.iterations));
        outcome_free(&p);
    }
    spira_vector_destroy(b);
    spira_matrix_destroy(A);
}
END_TEST

/* One solver, two solves with different x and b: the graph reads x's address from device
 * memory at each run, so it follows. Between the two, A's plan is built again (likely where
 * the old one was: the graph must see it is not the one it captured). */
START_TEST(cg_graph_solver_reuse)
{
    spira_matrix A;
    ck_assert_int_eq(spira_matrix_laplacian(ctx, 3, 12, SPIRA_R64, &A), SPIRA_OK);
    ck_assert_int_eq(spira_matrix_set_format(A, "csr-scalar", NULL), SPIRA_OK);
    const int32_t n = A->csr.nrows;
    spira_vector b1 = rhs(A), b2, x[2][2];
    ck_assert_int_eq(spira_vector_create(ctx, n, SPIRA_R64, &b2), SPIRA_OK);
    ck_assert_int_eq(spira_vector_fill(b2, 1.0), SPIRA_OK);
    spira_solve_opts o = {.rtol = 1e-10, .precond = SPIRA_PRECOND_JACOBI};
    spira_solve_info info[2][2];
    double *h[2][2];
    for (int mode = 0; mode < 2; mode++) {
        ctx->cg_graph = mode ? graph_mode : OFF;
        const long runs = ctx->cg_graph_runs;
        spira_solver S;
        ck_assert_int_eq(spira_solver_create(SPIRA_SOLVER_CG, A, &o, &S), SPIRA_OK);
        for (int k = 0; k < 2; k++) {
            if (k) {
                spira__spmv_plan_drop(A);
                ck_assert_int_eq(spira_matrix_prepare(A), SPIRA_OK);
            }
            ck_assert_int_eq(spira_vector_create(ctx, n, SPIRA_R64, &x[mode][k]), SPIRA_OK);
            ck_assert_int_eq(spira_solver_solve(S, k ? b2 : b1, x[mode][k], &info[mode][k]),
                             SPIRA_OK);
            h[mode][k] = malloc(n * sizeof(double));
            ck_assert_int_eq(spira_vector_get_f64(x[mode][k], h[mode][k]), SPIRA_OK);
        }
        spira_solver_destroy(S);
        if (mode) ck_assert_int_ge(ctx->cg_graph_runs - runs, 2); /* and restarts */
        else ck_assert_int_eq(ctx->cg_graph_runs, runs);
    }
    ctx->cg_graph = 0;
    for (int k = 0; k < 2; k++) {
        ck_assert_int_eq(info[0][k].iterations, info[1][k].iterations);
        ck_assert(memcmp(h[0][k], h[1][k], n * sizeof(double)) == 0);
        for (int mode = 0; mode < 2; mode++) free(h[mode][k]), spira_vector_destroy(x[mode][k]);
    }
    spira_vector_destroy(b1), spira_vector_destroy(b2);
    spira_matrix_destroy(A);
}
END_TEST

static int count_calls(int it, double rnorm, void *data)
{
    (void)it, (void)rnorm;
    ++*(int *)data;
    return 0;
}

/* Where CG keeps its per-iteration path: a monitor (it sees every iteration as it comes),
 * Neumann's and ILU(0)'s applies. */
START_TEST(cg_graph_fallbacks)
{
    spira_matrix A;
    ck_assert_int_eq(spira_matrix_laplacian(ctx, 2, 20, SPIRA_R64, &A), SPIRA_OK);
    ck_assert_int_eq(spira_matrix_set_format(A, "csr-scalar", NULL), SPIRA_OK);
    spira_vector b = rhs(A);
    int calls = 0;
    spira_solve_opts o = {.rtol = 1e-10, .monitor = count_calls, .monitor_data = &calls};
    outcome p;
    compare("monitor", A, b, NULL, &o, all_modes, 3, 0, &p);
    ck_assert_int_ge(calls, 4 * (p.info.iterations + 1)); /* and more where it restarted */
    outcome_free(&p);
    const spira_precond_type ms[2] = {SPIRA_PRECOND_NEUMANN, SPIRA_PRECOND_ILU0};
    for (int k = 0; k < 2; k++) {
        o = (spira_solve_opts){.rtol = 1e-10, .precond = ms[k]};
        compare(k ? "ILU(0)" : "Neumann", A, b, NULL, &o, all_modes, 3, 0, NULL);
    }
    spira_vector_destroy(b);
    spira_matrix_destroy(A);
}
END_TEST

/* The n-th allocation fails, for every n, through a solver's setup (the graph's host and
 * device blocks) and solve: SPIRA_ERR_NOMEM naming memory, or OK once none failed; nothing
 * leaked; and the graph ran in the walk's last, complete run. */
START_TEST(cg_graph_allocation_walk)
{
    spira_matrix A;
    ck_assert_int_eq(spira_matrix_laplacian(ctx, 2, 8, SPIRA_R64, &A), SPIRA_OK);
    ck_assert_int_eq(spira_matrix_set_format(A, "csr-scalar", NULL), SPIRA_OK);
    spira_vector b = rhs(A), x;
    ck_assert_int_eq(spira_vector_create(ctx, 64, SPIRA_R64, &x), SPIRA_OK);
    ck_assert_int_eq(spira_matrix_prepare(A), SPIRA_OK);
    const long live = spira__alloc_live();
    ctx->cg_graph = graph_mode;
    for (int m = 0; m < 2; m++) {
        spira_solve_opts o = {.rtol = 1e-10, .precond = m ? SPIRA_PRECOND_JACOBI : 0};
        int done = 0;
        for (long k = 1; k < 1000 && !done; k++) {
            const long runs = ctx->cg_graph_runs;
            spira__alloc_fail_at(k);
            spira_status s = spira_solve(SPIRA_SOLVER_CG, A, b, x, &o, NULL);
            const long made = spira__alloc_count();
            spira__alloc_fail_at(0);
            /* Jacobi's D^-1 stays in A's cache: a later solve's, not a leak */
            spira__matrix_cache_drop(A, "precond:inverse-diagonal");
            ck_assert_msg(spira__alloc_live() == live, "allocation %ld failing leaked %ld blocks",
                          k, spira__alloc_live() - live);
            if (made < k) {
                ck_assert_msg(s == SPIRA_OK, "%s", spira_last_error(ctx));
                ck_assert_int_ge(ctx->cg_graph_runs - runs, 1);
                done = 1;
            } else {
                ck_assert_msg(s == SPIRA_ERR_NOMEM, "allocation %ld failed, status %s: %s", k,
                              spira_status_name(s), spira_last_error(ctx));
                tu_assert_error_has(ctx, "memory");
            }
        }
        ck_assert(done);
    }
    ctx->cg_graph = 0;
    spira_vector_destroy(b), spira_vector_destroy(x);
    spira_matrix_destroy(A);
}
END_TEST

TCase *tu_cg_graph_tcase(spira_backend backend)
{
    const int gpu = backend == SPIRA_BACKEND_CUDA;
    TCase *tc = tcase_create(gpu ? "CG's graph on the GPU" : "CG's graph made by calls");
    tcase_set_timeout(tc, 300);
    tcase_add_unchecked_fixture(tc, gpu ? context_make_cuda : context_make_cpu, context_free);
    tcase_add_loop_test(tc, cg_graph_spd, 0, 20);
    tcase_add_loop_test(tc, cg_graph_formats, 0, 2);
    tcase_add_loop_test(tc, cg_graph_maxit, 0, 2);
    tcase_add_test(tc, cg_graph_breakdown);
    tcase_add_loop_test(tc, cg_graph_classic_step, 0, 2);
    tcase_add_test(tc, cg_graph_stops);
    tcase_add_test(tc, cg_graph_history);
    tcase_add_test(tc, cg_graph_solver_reuse);
    tcase_add_test(tc, cg_graph_fallbacks);
    tcase_add_test(tc, cg_graph_allocation_walk);
    return tc;
}

Suite *suite_cg_graph(void)
{
    Suite *s = suite_create("cg_graph");
    suite_add_tcase(s, tu_cg_graph_tcase(SPIRA_BACKEND_CPU));
    return s;
}
