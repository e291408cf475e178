/*
 * test_faults.c - failure injection: the n-th allocation fails, for n = 1, 2, ... through
 * a whole workflow (context, matrix, every SpMV format, reading a gzipped Matrix Market
 * file, preconditioned solves: Jacobi, IC(0) exact and with Jacobi sweeps). Each run
 * must return SPIRA_OK or SPIRA_ERR_NOMEM, never crash, and leave no block allocated.
 * The GPU suite walks the same workflow on its CUDA context, where device allocations (every
 * format's upload) fail in turn too.
 */
#include "testutil.h"

#include <string.h>

/* One whole workflow on `given` (or, if NULL, on a CPU context it creates); returns the
 * first failing status. Frees all it made. */
static spira_status workflow(spira_context given, const tu_shape *shape, const tu_triplets *T,
                             spira_dtype t)
{
    spira_context ctx = given;
    spira_matrix A = NULL, S = NULL, F = NULL;
    spira_vector x = NULL, y = NULL, b = NULL, sx = NULL;
    spira_context_opts o = {.backend = SPIRA_BACKEND_CPU};
    spira_status s = given ? SPIRA_OK : spira_context_create(&ctx, &o);
    if (s == SPIRA_OK)
        s = spira_matrix_from_coo(ctx, shape->nrows, shape->ncols, T->nnz, T->ri, T->ci,
                                  t == SPIRA_R64 ? (void *)T->v : (void *)T->vf, t, &A);
    if (s == SPIRA_OK) s = spira_vector_create(ctx, shape->ncols, t, &x);
    if (s == SPIRA_OK) s = spira_vector_create(ctx, shape->nrows, t, &y);
    if (s == SPIRA_OK) s = spira_vector_fill(x, 1.0);
    for (int f = 0; s == SPIRA_OK && f < spira_format_count(); f++) {
        const char *name;
        spira_format_describe(f, &name, NULL);
        s = spira_matrix_set_format(A, name, NULL);
        if (s == SPIRA_OK) s = spira_matrix_prepare(A);
        if (s == SPIRA_ERR_UNSUPPORTED) { /* a documented refusal, or GPU-only */
            s = SPIRA_OK;
            continue;
        }
        if (s == SPIRA_OK) s = spira_spmv(1.0, A, x, 0.0, y);
    }
    if (s == SPIRA_OK) s = spira_matrix_read_mm(ctx, tu_data("mbeacxc.mtx.gz"), t, &F);
    if (s == SPIRA_OK) s = spira_matrix_laplacian(ctx, 2, 6, t, &S);
    if (s == SPIRA_OK) s = spira_vector_create(ctx, 36, t, &b);
    if (s == SPIRA_OK) s = spira_vector_create(ctx, 36, t, &sx);
    if (s == SPIRA_OK) s = spira_vector_fill(b, 1.0);
    if (s == SPIRA_OK) {
        spira_solve_opts so = {.rtol = 1e-5, .precond = SPIRA_PRECOND_JACOBI};
        s = spira_solve(SPIRA_SOLVER_CG, S, b, sx, &so, NULL);
        /* IC(0) with exact solves, then with Jacobi sweeps on the same cached factor: on
         * the GPU the sweeps' device part is made (and fails) while the exact part stands */
        so.precond = SPIRA_PRECOND_ILU0;
        if (s == SPIRA_OK) s = spira_solve(SPIRA_SOLVER_CG, S, b, sx, &so, NULL);
        so.trisolve_sweeps = 2;
        if (s == SPIRA_OK) s = spira_solve(SPIRA_SOLVER_CG, S, b, sx, &so, NULL);
    }
    if (s != SPIRA_OK && s != SPIRA_ERR_NOMEM)
        ck_abort_msg("status %s: %s", spira_status_name(s), spira_last_error(ctx));
    if (s == SPIRA_ERR_NOMEM && ctx)
        ck_assert_msg(strstr(spira_last_error(ctx), "memory") != NULL, "message: %s",
                      spira_last_error(ctx));
    spira_vector_destroy(x), spira_vector_destroy(y), spira_vector_destroy(b);
    spira_vector_destroy(sx);
    spira_matrix_destroy(A), spira_matrix_destroy(S), spira_matrix_destroy(F);
    if (!given) spira_context_destroy(ctx);
    return s;
}

void tu_check_allocation_walk(spira_context ctx, int variant)
{
    spira_dtype t = variant % 2 ? SPIRA_R32 : SPIRA_R64;
    const tu_shape *shape = &tu_shapes[variant < 2 ? 0 : 3]; /* random, empty-rows */
    tu_triplets T;
    tu_shape_triplets(shape, tu_seed() + (unsigned)variant, &T);
    long base = spira__alloc_live();
    int ok = 0;
    for (long n = 1; n < 100000 && !ok; n++) {
        spira__alloc_fail_at(n);
        spira_status s = workflow(ctx, shape, &T, t);
        long made = spira__alloc_count();
        spira__alloc_fail_at(0);
        ck_assert_msg(spira__alloc_live() == base, "failing allocation %ld leaked %ld blocks", n,
                      spira__alloc_live() - base);
        if (made < n) { /* no allocation failed: the walk is complete */
            ck_assert_int_eq(s, SPIRA_OK);
            ok = 1;
        } else {
            ck_assert_msg(s == SPIRA_ERR_NOMEM, "allocation %ld failed but status %s", n,
                          spira_status_name(s));
        }
    }
    ck_assert(ok);
    tu_triplets_free(&T);
}

START_TEST(nth_allocation_fails)
{
    tu_check_allocation_walk(NULL, _i);
}
END_TEST

Suite *suite_faults(void)
{
    Suite *s = suite_create("faults");
    TCase *tc = tcase_create("alloc");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, nth_allocation_fails, 0, 4);
    suite_add_tcase(s, tc);
    return s;
}
