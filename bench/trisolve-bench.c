/*
 * trisolve-bench.c - one ILU(0) apply on the GPU: cuSPARSE's exact triangular solves
 * against K Jacobi sweeps a solve, K = 1, 2, 3, 5, each way of running the sweeps timed
 * alone (precond/ilu_gpu.cu: all 2K sweeps in one launch of one block, or one launch a
 * sweep over the whole GPU) and the automatic choice between them, which this measures
 * (kOneBlockMaxLanes there).
 *
 *   trisolve-bench [--reps N] A.mtx[.gz] ...
 *
 * One line per matrix and K: rows, nonzeros of A, microseconds an apply (median of N,
 * default 200, after 20 untimed applies; CUDA events around each apply, so the gaps
 * between launches count, as they do in a solve) for exact, one block, a launch a sweep,
 * auto. Double precision; ILU(0), shifted where it needs to be (as a solve would take it).
 * Uses the library's private entry points (linked against libspira_core). Built by
 * `make check`, never run by it; exits 77 without a CUDA device.
 */
#include "ilu.h"
#include "precond.h"
#include "cuda/gateway.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { WARMUP = 20 };

/* The median microseconds of `reps` applies of M (K = 0: its exact solves; else the sweeps
 * by path). */
static spira_status time_apply(spira_context ctx, spira__precond *M, int K,
                               spira__sweeps_path path, spira_vector r, spira_vector z, int reps,
                               double *us)
{
    spira_cuda_timer *tm = NULL;
    double *ms = malloc((size_t)reps * sizeof *ms);
    if (!ms) return SPIRA_ERR_NOMEM;
    spira_status s = spira__cuda_timer_create(ctx, &tm);
    for (int i = -WARMUP; i < reps && s == SPIRA_OK; i++) {
        double t = 0;
        s = spira__cuda_timer_start(ctx, tm);
        if (s == SPIRA_OK)
            s = K ? spira__ilu_dev_sweeps(spira__ilu_of(M), K, path, r->data, z->data)
                  : spira__precond_apply(M, r, z);
        if (s == SPIRA_OK) s = spira__cuda_timer_stop(ctx, tm, &t);
        if (i >= 0) ms[i] = t;
    }
    if (s == SPIRA_OK) *us = 1000 * spira__median(ms, reps);
    spira__cuda_timer_destroy(tm);
    free(ms);
    return s;
}

static spira_status bench(spira_context ctx, const char *path, int reps)
{
    spira_matrix A;
    SPIRA__TRY(spira_matrix_read_mm(ctx, path, SPIRA_R64, &A));
    const int32_t n = A->csr.nrows;
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    spira_vector r = NULL, z = NULL;
    spira__precond *E = NULL;
    spira_solve_opts o = {.precond = SPIRA_PRECOND_ILU0};
    spira_status s = spira_vector_create(ctx, n, SPIRA_R64, &r);
    if (s == SPIRA_OK) s = spira_vector_create(ctx, n, SPIRA_R64, &z);
    if (s == SPIRA_OK) s = spira_vector_fill(r, 1.0);
    if (s == SPIRA_OK) s = spira__precond_create(o.precond, &o, A, &E);
    double exact = 0;
    if (s == SPIRA_OK) s = time_apply(ctx, E, 0, SPIRA__SWEEPS_AUTO, r, z, reps, &exact);
    static const int ks[] = {1, 2, 3, 5};
    for (int q = 0; q < 4 && s == SPIRA_OK; q++) {
        spira__precond *M = NULL;
        o.trisolve_sweeps = ks[q];
        s = spira__precond_create(o.precond, &o, A, &M);
        double us[3] = {0};
        for (int p = 0; p < 3 && s == SPIRA_OK; p++) {
            static const spira__sweeps_path paths[] = {
                SPIRA__SWEEPS_ONE_BLOCK, SPIRA__SWEEPS_PER_SWEEP, SPIRA__SWEEPS_AUTO};
            s = time_apply(ctx, M, ks[q], paths[p], r, z, reps, &us[p]);
        }
        if (s == SPIRA_OK)
            printf("%-22s %9d %10d %2d %10.1f %10.1f %10.1f %10.1f\n", base, n, A->csr.nnz, ks[q],
                   exact, us[0], us[1], us[2]);
        spira__precond_destroy(M);
    }
    spira__precond_destroy(E);
    spira_vector_destroy(r);
    spira_vector_destroy(z);
    spira_matrix_destroy(A);
    return s;
}

int main(int argc, char **argv)
{
    int reps = 200, first = 1;
    if (argc > 2 && !strcmp(argv[1], "--reps")) {
        reps = atoi(argv[2]);
        first = 3;
    }
    if (reps < 1 || first >= argc) {
        fprintf(stderr, "usage: trisolve-bench [--reps N] A.mtx[.gz] ...\n");
        return 2;
    }
    spira_context ctx;
    spira_context_opts co = {.backend = SPIRA_BACKEND_CUDA};
    if (spira_context_create(&ctx, &co) != SPIRA_OK) {
        printf("skipped: no CUDA device (%s)\n", spira_last_error(ctx));
        spira_context_destroy(ctx);
        return 77;
    }
    printf("# %s; microseconds an ILU(0) apply, median of %d\n", spira_context_device_name(ctx),
           reps);
    printf("%-22s %9s %10s %2s %10s %10s %10s %10s\n", "matrix", "rows", "nnz", "K", "exact",
           "one_block", "per_sweep", "auto");
    int rc = 0;
    for (int i = first; i < argc; i++) {
        spira_status s = bench(ctx, argv[i], reps);
        if (s != SPIRA_OK) {
            fprintf(stderr, "trisolve-bench: %s: %s: %s\n", argv[i], spira_status_name(s),
                    spira_last_error(ctx));
            rc = 1;
        }
    }
    spira_context_destroy(ctx);
    return rc;
}
