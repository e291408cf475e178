/* from-coo.c - the driver of README.md's spira_matrix_from_coo timing (not built by the
 * project): cc -O2 -I lib -I BUILD from-coo.c -LBUILD/.libs -lspira */
#include <spira.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e3 + t.tv_nsec / 1e6; }
int main(void)
{
    const int32_t n = 1 << 20; const int64_t nnz = (int64_t)n * 16;
    int32_t *ri = malloc(nnz * 4), *ci = malloc(nnz * 4); double *v = malloc(nnz * 8);
    unsigned s = 1;
    for (int64_t k = 0; k < nnz; k++) { ri[k] = rand_r(&s) % n; ci[k] = rand_r(&s) % n; v[k] = 1.0; }
    spira_context ctx; spira_context_opts o = {0}; o.backend = SPIRA_BACKEND_CPU;
    if (spira_context_create(&ctx, &o) != SPIRA_OK) return 1;
    for (int r = 0; r < 3; r++) {
        spira_matrix A; double t0 = now();
        if (spira_matrix_from_coo(ctx, n, n, nnz, ri, ci, v, SPIRA_R64, &A) != SPIRA_OK) return 2;
        printf("from_coo %.1f ms\n", now() - t0);
        spira_matrix_destroy(A);
    }
    spira_context_destroy(ctx);
    return 0;
}
