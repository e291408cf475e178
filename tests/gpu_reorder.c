/*
 * gpu_reorder.c - the solvers' reorder option on the GPU: the gather kernel that moves b
 * and x in and out of the permuted numbering against the CPU loop (bit for bit: it only
 * copies), reordered CG, BiCGSTAB and Jacobi solves against the CPU backend's in float and
 * double (x poisoned with NaN before every run), PageRank and power iteration likewise,
 * and every allocation of a reordered solve
 * failing in turn without a leak.
 */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static spira_context gpu;

/* y = x[idx] on the GPU (idx uploaded, y poisoned first) equals the CPU loop's exactly;
 * n from 0 to 300,000, float and double. */
START_TEST(gpu_gather_like_cpu)
{
    static const int32_t sizes[] = {0, 1, 31, 1000, 300000};
    const spira_dtype t = _i % 2 ? SPIRA_R32 : SPIRA_R64;
    const int32_t n = sizes[_i / 2];
    unsigned seed = tu_seed() + (unsigned)_i;
    spira_context cpu = tu_cpu();
    int32_t *perm = tu_random_perm(n, &seed), *dperm = NULL;
    double *h = malloc((n + 1) * sizeof *h), *got = malloc((n + 1) * sizeof *got);
    double *want = malloc((n + 1) * sizeof *want);
    for (int32_t i = 0; i < n; i++) h[i] = tu_uniform(&seed, -1, 1);
    spira_vector gx, gy, cx, cy;
    ck_assert_int_eq(spira_vector_create(gpu, n, t, &gx), SPIRA_OK);
    ck_assert_int_eq(spira_vector_create(gpu, n, t, &gy), SPIRA_OK);
    ck_assert_int_eq(spira_vector_create(cpu, n, t, &cx), SPIRA_OK);
    ck_assert_int_eq(spira_vector_create(cpu, n, t, &cy), SPIRA_OK);
    ck_assert_int_eq(spira__mem_alloc(gpu, (void **)&dperm, (n + 1) * sizeof *dperm, "test"),
                     SPIRA_OK);
    ck_assert_int_eq(spira__mem_upload(gpu, dperm, perm, n * sizeof *perm), SPIRA_OK);
    spira_vector_set_f64(gx, h);
    spira_vector_set_f64(cx, h);
    spira_vector_fill(gy, NAN);
    ck_assert_int_eq(spira__vector_gather(gx, dperm, gy), SPIRA_OK);
    ck_assert_int_eq(spira__vector_gather(cx, perm, cy), SPIRA_OK);
    ck_assert_int_eq(spira_vector_get_f64(gy, got), SPIRA_OK);
    spira_vector_get_f64(cy, want);
    for (int32_t i = 0; i < n; i++)
        ck_assert_msg(got[i] == want[i], "n %d, %s: y[%d] = %g on the GPU, %g on the CPU", n,
                      t == SPIRA_R64 ? "double" : "float", i, got[i], want[i]);
    spira__mem_free(gpu, dperm);
    spira_vector_destroy(gx), spira_vector_destroy(gy);
    spira_vector_destroy(cx), spira_vector_destroy(cy);
    free(perm), free(h), free(got), free(want);
    spira_context_destroy(cpu);
}
END_TEST

/* Matrix m of the solve cases, in t, on ctx: a randomly numbered band (SPD), the bundled
 * 1138_bus (SPD) and sherman5 (nonsymmetric). */
static spira_matrix case_matrix(spira_context ctx, int m, spira_dtype t, const char **label)
{
    static const char *const files[] = {NULL, "1138_bus.mtx", "sherman5.mtx"};
    if (m == 0) {
        *label = "scrambled band";
        return tu_scrambled_band(ctx, 2000, 3, 0, t, tu_seed() + 17);
    }
    spira_matrix A;
    ck_assert_int_eq(spira_matrix_read_mm(ctx, tu_data(files[m]), t, &A), SPIRA_OK);
    *label = files[m];
    return A;
}

/* The same reordered solve on the GPU and the CPU backend: both converge, to x within the
 * tolerance's reach of each other, with the same bandwidths; x poisoned before each run.
 * _i: the precision (bit 0) and the matrix (the rest). */
START_TEST(gpu_reorder_solves_like_cpu)
{
    const spira_dtype t = _i % 2 ? SPIRA_R32 : SPIRA_R64;
    const int m = _i / 2;
    /* x compared where the condition number lets two solves within rtol agree (double; the
     * band in float: two x within rtol differ by up to cond(A) rtol, where a permutation
     * gone wrong differs by O(1)), the GPU's true residual everywhere */
    const double rtol = t == SPIRA_R64 ? 1e-10 : 1e-4;
    const double tol = t == SPIRA_R64 ? 1e-3 : m == 0 ? 1e-2 : INFINITY;
    spira_context cpu = tu_cpu();
    const char *label;
    spira_matrix Ag = case_matrix(gpu, m, t, &label), Ac = case_matrix(cpu, m, t, &label);
    const int spd = m < 2;
    const int64_t n = Ag->csr.nrows;
    double *h = malloc(n * sizeof *h), *xg = malloc(n * sizeof *xg), *xc = malloc(n * sizeof *xc);
    unsigned seed = tu_seed() + (unsigned)_i;
    /* b = A x for x in [0.5, 1.5): a right-hand side float can solve 1138_bus for */
    for (int64_t i = 0; i < n; i++) xg[i] = tu_uniform(&seed, 0.5, 1.5);
    spira__csr_spmv_f64(&Ac->csr, 1.0, xg, 0.0, h);
    spira_vector bg, xgv, bc, xcv;
    ck_assert_int_eq(spira_vector_create(gpu, n, t, &bg), SPIRA_OK);
    ck_assert_int_eq(spira_vector_create(gpu, n, t, &xgv), SPIRA_OK);
    ck_assert_int_eq(spira_vector_create(cpu, n, t, &bc), SPIRA_OK);
    ck_assert_int_eq(spira_vector_create(cpu, n, t, &xcv), SPIRA_OK);
    spira_vector_set_f64(bg, h);
    spira_vector_set_f64(bc, h);
    static const spira_reorder orders[] = {SPIRA_REORDER_RCM, SPIRA_REORDER_DEGREE};
    static const spira_precond_type pcs[] = {SPIRA_PRECOND_NONE, SPIRA_PRECOND_JACOBI,
                                             SPIRA_PRECOND_ILU0};
    int checked = 0;
    for (int k = 0; k < 2; k++)
        for (int p = 0; p < 3; p++)
            for (int sv = 0; sv < 3; sv++) {
                const spira_solver_type type = sv == 0 ? SPIRA_SOLVER_CG
                                               : sv == 1 ? SPIRA_SOLVER_BICGSTAB
                                                         : SPIRA_SOLVER_JACOBI;
                if ((type == SPIRA_SOLVER_CG && !spd) || (type == SPIRA_SOLVER_JACOBI && (m || p)))
                    continue; /* CG needs SPD; the Jacobi iteration converges on the band */
                spira_solve_opts o = {.rtol = rtol, .maxit = 20000, .precond = pcs[p],
                                      .reorder = orders[k],
                                      .backend = spira_context_backend(gpu)};
                spira_solve_info ig, ic;
                spira_vector_fill(xgv, NAN);
                spira_vector_fill(xcv, NAN);
                spira_status sg = spira_solve(type, Ag, bg, xgv, &o, &ig);
                o.backend = SPIRA_BACKEND_AUTO;
                spira_status sc = spira_solve(type, Ac, bc, xcv, &o, &ic);
                /* beyond this pair's reach in this precision (float's rounding may stop one
                 * backend a little short where the other just makes it) */
                if (sc != SPIRA_OK || (t == SPIRA_R32 && sg == SPIRA_ERR_NOT_CONVERGED)) continue;
                /* nor where the CPU barely made it (unpreconditioned BiCGSTAB on sherman5):
                 * the GPU's rounding may stagnate there */
                if (sg == SPIRA_ERR_NOT_CONVERGED && ic.iterations > 1000 &&
                    (ig.reason == SPIRA_STOPPED_STAGNATION || ig.reason == SPIRA_STOPPED_DIVERGED))
                    continue;
                ck_assert_msg(sg == SPIRA_OK, "%s, solver %d, precond %d, ordering %d, %s: GPU "
                              "%s (%s), CPU converged in %d (seed %u)", label, sv, p, k,
                              t == SPIRA_R64 ? "double" : "float", spira_status_name(sg),
                              spira_last_error(gpu), ic.iterations, tu_seed());
                ck_assert_int_eq(ig.backend, spira_context_backend(gpu));
                ck_assert_int_eq(ig.reorder, orders[k]);
                ck_assert_int_eq(ig.bandwidth_before, ic.bandwidth_before);
                ck_assert_int_eq(ig.bandwidth_after, ic.bandwidth_after);
                spira_vector_get_f64(xgv, xg);
                spira_vector_get_f64(xcv, xc);
                double d = 0, mx = 0;
                for (int64_t i = 0; i < n; i++) {
                    ck_assert_msg(isfinite(xg[i]), "%s: x[%lld] = %g on the GPU", label,
                                  (long long)i, xg[i]);
                    d = fmax(d, fabs(xg[i] - xc[i]));
                    mx = fmax(mx, fabs(xc[i]));
                }
                /* ||b - A x|| / ||b|| of the GPU's x, in double on the host */
                double bn = 0, rn = 0, *r = malloc(n * sizeof *r);
                spira_vector_get_f64(bc, r);
                for (int64_t i = 0; i < n; i++) bn += r[i] * r[i];
                spira__csr_spmv_f64(&Ac->csr, -1.0, xg, 1.0, r);
                for (int64_t i = 0; i < n; i++) rn += r[i] * r[i];
                free(r);
                ck_assert_msg(sqrt(rn / bn) <= 1.5 * rtol + (t == SPIRA_R32 ? 1e-6 : 0),
                              "%s, solver %d, precond %d, ordering %d: the GPU's true residual "
                              "%.3e > rtol %.1e", label, sv, p, k, sqrt(rn / bn), rtol);
                ck_assert_msg(d <= tol * mx, "%s, solver %d, precond %d, ordering %d, %s: "
                              "GPU and CPU x differ by %.3e (max |x| %.3e; seed %u)", label, sv,
                              p, k, t == SPIRA_R64 ? "double" : "float", d, mx, tu_seed());
                checked++;
            }
    ck_assert_int_gt(checked, 0);
    spira_vector_destroy(bg), spira_vector_destroy(xgv);
    spira_vector_destroy(bc), spira_vector_destroy(xcv);
    spira_matrix_destroy(Ag), spira_matrix_destroy(Ac);
    free(h), free(xg), free(xc);
    spira_context_destroy(cpu);
}
END_TEST

/* PageRank of email-Eu-core in each ordering on the GPU and the CPU backend (personalized
 * in half the runs): the same ranks in G's numbering, rank poisoned first. _i: precision
 * (bit 0), personalization (bit 1). */
START_TEST(gpu_pagerank_reordered_like_cpu)
{
    const spira_dtype t = _i % 2 ? SPIRA_R32 : SPIRA_R64;
    const int personal = _i / 2;
    spira_context cpu = tu_cpu();
    spira_matrix Gg, Gc;
    ck_assert_int_eq(spira_matrix_read_mm(gpu, tu_data("email-Eu-core.mtx"), t, &Gg), SPIRA_OK);
    ck_assert_int_eq(spira_matrix_read_mm(cpu, tu_data("email-Eu-core.mtx"), t, &Gc), SPIRA_OK);
    const int64_t n = Gc->csr.nrows;
    double *h = malloc(n * sizeof *h), *rg = malloc(n * sizeof *rg), *rc = malloc(n * sizeof *rc);
    unsigned seed = tu_seed() + (unsigned)_i;
    for (int64_t i = 0; i < n; i++) h[i] = i % 5 ? 0 : tu_uniform(&seed, 0, 1);
    spira_vector vg, vc, tg, tc;
    ck_assert_int_eq(spira_vector_create(gpu, n, t, &vg), SPIRA_OK);
    ck_assert_int_eq(spira_vector_create(cpu, n, t, &vc), SPIRA_OK);
    ck_assert_int_eq(spira_vector_create(gpu, n, t, &tg), SPIRA_OK);
    ck_assert_int_eq(spira_vector_create(cpu, n, t, &tc), SPIRA_OK);
    spira_vector_set_f64(tg, h);
    spira_vector_set_f64(tc, h);
    static const spira_reorder orders[] = {SPIRA_REORDER_RCM, SPIRA_REORDER_DEGREE};
    const double tol = t == SPIRA_R64 ? 1e-10 : 1e-5;
    for (int k = 0; k < 2; k++) {
        spira_pagerank_opts og = {.tol = tol, .reorder = orders[k],
                                  .teleport = personal ? tg : NULL};
        spira_pagerank_opts oc = og;
        oc.teleport = personal ? tc : NULL;
        spira_pagerank_info ig, ic;
        spira_vector_fill(vg, NAN);
        spira_vector_fill(vc, NAN);
        ck_assert_int_eq(spira_pagerank(Gg, vg, &og, &ig), SPIRA_OK);
        ck_assert_int_eq(spira_pagerank(Gc, vc, &oc, &ic), SPIRA_OK);
        ck_assert_int_eq(ig.reorder, orders[k]);
        ck_assert_int_eq(ig.bandwidth_after, ic.bandwidth_after);
        spira_vector_get_f64(vg, rg);
        spira_vector_get_f64(vc, rc);
        double d = 0, mx = 0;
        for (int64_t i = 0; i < n; i++) {
            ck_assert_msg(isfinite(rg[i]), "rank[%lld] = %g on the GPU", (long long)i, rg[i]);
            d = fmax(d, fabs(rg[i] - rc[i]));
            mx = fmax(mx, fabs(rc[i]));
        }
        /* each within about alpha / (1 - alpha) tol of the fixed point (in the 1-norm; the
         * ranks sum to 1), so within 10 tol of each other even a step apart */
        ck_assert_msg(d <= 10 * tol, "ordering %d, %s%s: GPU and CPU ranks differ "
                      "by %.3e (max %.3e)", k, t == SPIRA_R64 ? "double" : "float",
                      personal ? ", personalized" : "", d, mx);
    }
    spira_vector_destroy(vg), spira_vector_destroy(vc);
    spira_vector_destroy(tg), spira_vector_destroy(tc);
    spira_matrix_destroy(Gg), spira_matrix_destroy(Gc);
    free(h), free(rg), free(rc);
    spira_context_destroy(cpu);
}
END_TEST

/* Power iteration in each ordering on the GPU and the CPU backend: the same eigenvalue and
 * eigenvector (both start from the same vector), v poisoned first; _i: the precision. */
START_TEST(gpu_power_reordered_like_cpu)
{
    const spira_dtype t = _i ? SPIRA_R32 : SPIRA_R64;
    const double tol = t == SPIRA_R64 ? 1e-10 : 1e-5;
    spira_context cpu = tu_cpu();
    spira_matrix Ag = tu_scrambled_band(gpu, 3000, 2, 0, t, tu_seed() + 23);
    spira_matrix Ac = tu_scrambled_band(cpu, 3000, 2, 0, t, tu_seed() + 23);
    spira_vector vg, vc;
    ck_assert_int_eq(spira_vector_create(gpu, 3000, t, &vg), SPIRA_OK);
    ck_assert_int_eq(spira_vector_create(cpu, 3000, t, &vc), SPIRA_OK);
    static const spira_reorder orders[] = {SPIRA_REORDER_RCM, SPIRA_REORDER_DEGREE};
    for (int k = 0; k < 2; k++) {
        spira_power_opts o = {.tol = tol, .maxit = 200000, .reorder = orders[k]};
        spira_power_info ig, ic;
        spira_vector_fill(vg, NAN);
        spira_vector_fill(vc, NAN);
        spira_status sc = spira_power(Ac, vc, &o, &ic), sg = spira_power(Ag, vg, &o, &ig);
        if (sc != SPIRA_OK) continue; /* float's rounding floor above tol */
        ck_assert_msg(sg == SPIRA_OK, "ordering %d: GPU %s (%s)", k, spira_status_name(sg),
                      spira_last_error(gpu));
        ck_assert_int_eq(ig.reorder, orders[k]);
        ck_assert_msg(fabs(ig.eigenvalue - ic.eigenvalue) <= 10 * tol * fabs(ic.eigenvalue),
                      "ordering %d: eigenvalue %.15g on the GPU, %.15g on the CPU", k,
                      ig.eigenvalue, ic.eigenvalue);
        double *hg = malloc(3000 * sizeof *hg), *hc = malloc(3000 * sizeof *hc), m = 0;
        spira_vector_get_f64(vg, hg);
        spira_vector_get_f64(vc, hc);
        for (int i = 0; i < 3000; i++) m = fmax(m, fabs(hg[i] - hc[i]));
        ck_assert_msg(m <= (t == SPIRA_R64 ? 1e-6 : 1e-2), "ordering %d: eigenvectors differ by "
                      "%.3e", k, m);
        free(hg), free(hc);
    }
    spira_vector_destroy(vg), spira_vector_destroy(vc);
    spira_matrix_destroy(Ag), spira_matrix_destroy(Ac);
    spira_context_destroy(cpu);
}
END_TEST

START_TEST(gpu_reorder_allocations)
{
    tu_check_reorder_walk(gpu);
}
END_TEST

TCase *tu_gpu_reorder_tcase(spira_context ctx)
{
    gpu = ctx;
    TCase *tc = tcase_create("reorder");
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, gpu_gather_like_cpu, 0, 10);
    tcase_add_loop_test(tc, gpu_reorder_solves_like_cpu, 0, 6);
    tcase_add_loop_test(tc, gpu_pagerank_reordered_like_cpu, 0, 4);
    tcase_add_loop_test(tc, gpu_power_reordered_like_cpu, 0, 2);
    tcase_add_test(tc, gpu_reorder_allocations);
    return tc;
}
