/*
 * test_gf2_devices.c - GF(2) over several devices on the CPU backend: N = 1, 2, 3 parts on
 * the host through the same code as N GPUs (row cuts, copies of X and of the rows, the
 * Krylov exchange, the partial terms XORed), parts that own no rows, every width; bad
 * device counts; allocation failures. The checks are shared with gpu_gf2_devices.c.
 */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include "test_gf2_devices.h"
#include "gf2/gf2.h"

#include <stdlib.h>
#include <string.h>

/* The parts cover M's rows in order, each [r0, r1), and their chunks each part's; returns
 * how many parts own no row. */
static int parts_cover(spira_gf2_matrix M, int ndev)
{
    spira__gf2_part *parts;
    int n, empty = 0;
    ck_assert_int_eq(spira__gf2_parts(M, &parts, &n), SPIRA_OK);
    ck_assert_int_eq(n, ndev);
    ck_assert_int_eq(parts[0].r0, 0);
    for (int d = 0; d < n; d++) {
        ck_assert_int_le(parts[d].r0, parts[d].r1);
        if (d) ck_assert_int_eq(parts[d].r0, parts[d - 1].r1);
        empty += parts[d].r0 == parts[d].r1;
        const spira__gf2_part *p = &parts[d];
        ck_assert_int_eq(p->nchunks, ndev == 1 ? 1 : M->chunks);
        ck_assert_int_eq(p->cut[0], p->r0);
        ck_assert_int_eq(p->cut[p->nchunks], p->r1);
        for (int c = 0; c < p->nchunks; c++) {
            ck_assert_int_le(p->cut[c], p->cut[c + 1]);
            ck_assert_int_eq(p->sub[c]->pattern.nrows, p->cut[c + 1] - p->cut[c]);
        }
    }
    ck_assert_int_eq(parts[n - 1].r1, M->pattern.nrows);
    return empty;
}

void tu_gf2_devices_spmv(spira_context ctx, int ndev, unsigned seed)
{
    tu_gf2_devices = ndev;
    /* two rows (fewer than three parts) */
    int32_t r2[] = {0, 0, 1, 1, 1}, c2[] = {0, 4, 1, 2, 4};
    tu_gf2_check(ctx, 2, 5, 5, r2, c2, "2 x 5", seed);
    /* one dense row, then empty ones: the cut by nonzeros gives the later parts few rows */
    enum { DN = 9, DC = 700 };
    int32_t rd[DC + 2], cd[DC + 2];
    for (int k = 0; k < DC; k++) rd[k] = 0, cd[k] = k;
    rd[DC] = DN - 1, cd[DC] = 3, rd[DC + 1] = 4, cd[DC + 1] = 5;
    tu_gf2_check(ctx, DN, DC, DC + 2, rd, cd, "dense row", seed + 1);
    tu_triplets T;
    tu_gf2_nfs_triplets(3000, 20, seed + 2, &T);
    tu_gf2_check(ctx, 3000, 3000, T.nnz, T.ri, T.ci, "sieve-shaped", seed + 3);
    tu_triplets_free(&T);
    tu_gf2_devices = 1;
}

void tu_gf2_devices_krylov(spira_context ctx, int ndev, int32_t n, int64_t L, unsigned seed)
{
    uint64_t st = seed * 2654435761u + 11;
    for (int shape = 0; shape < 2; shape++)
        for (int words = 1; words <= 4; words *= 2) {
            const int32_t m = shape ? n - n / 7 - 1 : n;
            tu_triplets T;
            tu_gf2_wide_triplets(m, n, 7, seed + (unsigned)(shape * 8 + words), &T);
            spira_gf2_matrix A;
            ck_assert_int_eq(spira_gf2_matrix_from_coo(ctx, m, n, T.nnz, T.ri, T.ci, &A), SPIRA_OK);
            ck_assert_msg(spira_gf2_matrix_set_devices(A, ndev) == SPIRA_OK, "%s",
                          spira_last_error(ctx));
            parts_cover(A, ndev);
            const size_t nw = (size_t)n * words, ab = (size_t)(L + 1) * 64 * words * words;
            uint64_t *x = malloc(nw * 8), *y = malloc(nw * 8), *a = malloc(ab * 8),
                     *ref = malloc(ab * 8);
            for (size_t k = 0; k < nw; k++) x[k] = spira__xorshift64(&st), y[k] = spira__xorshift64(&st);
            spira_gf2_block X, Y;
            ck_assert_int_eq(spira_gf2_block_create(ctx, n, 64 * words, &X), SPIRA_OK);
            ck_assert_int_eq(spira_gf2_block_create(ctx, n, 64 * words, &Y), SPIRA_OK);
            ck_assert_int_eq(spira_gf2_block_set(X, x), SPIRA_OK);
            ck_assert_int_eq(spira_gf2_block_set(Y, y), SPIRA_OK);
            for (int run = 0; run < 2; run++) { /* twice: the parts' blocks made afresh */
                memset(a, 0xff, ab * 8);
                ck_assert_msg(spira_gf2_krylov_sequence(A, X, Y, L, a) == SPIRA_OK, "%s",
                              spira_last_error(ctx));
                if (!run) tu_gf2_krylov_reference(m, n, &T, words, x, y, L, ref);
                for (size_t k = 0; k < ab; k++)
                    ck_assert_msg(a[k] == ref[k], "%d devices, %d x %d, %d bits: a_%zu word %zu",
                                  ndev, m, n, 64 * words, k / (ab / (L + 1)), k % (ab / (L + 1)));
            }
            uint64_t *back = malloc(nw * 8); /* X and Y untouched */
            ck_assert_int_eq(spira_gf2_block_get(Y, back), SPIRA_OK);
            ck_assert(!memcmp(back, y, nw * 8));
            ck_assert_int_eq(spira_gf2_block_get(X, back), SPIRA_OK);
            ck_assert(!memcmp(back, x, nw * 8));
            free(back);
            spira_gf2_block_destroy(X), spira_gf2_block_destroy(Y);
            spira_gf2_matrix_destroy(A);
            free(x), free(y), free(a), free(ref);
            tu_triplets_free(&T);
        }
}

void tu_gf2_devices_kernel(spira_context ctx, int ndev, int32_t n, unsigned seed)
{
    const int32_t m = n - 40;
    tu_triplets T;
    tu_gf2_wide_triplets(m, n, 6, seed, &T);
    uint64_t *K1 = malloc((size_t)n * 8), *KN = malloc((size_t)n * 8);
    spira_status s1, sN;
    spira_gf2_kernel_info i1 = tu_gf2_kernel_run(ctx, m, n, &T, "csr", SPIRA_GF2_KERNEL_BLOCK,
                                                 seed, -1, K1, &s1);
    tu_gf2_devices = ndev;
    spira_gf2_kernel_info iN = tu_gf2_kernel_run(ctx, m, n, &T, "csr", SPIRA_GF2_KERNEL_BLOCK,
                                                 seed, -1, KN, &sN);
    tu_gf2_devices = 1;
    ck_assert_int_eq(s1, SPIRA_OK); /* 40 more columns than rows: a kernel of 40 or more */
    ck_assert_int_eq(sN, s1);
    ck_assert_int_eq(iN.found, i1.found);
    ck_assert(iN.lanes == i1.lanes);
    ck_assert_int_eq(iN.spmvs, i1.spmvs);
    ck_assert_msg(!memcmp(K1, KN, (size_t)n * 8), "%d devices: another K than one device's",
                  ndev);
    free(K1), free(KN);
    tu_triplets_free(&T);
}

void tu_gf2_devices_alloc_walk(spira_context ctx, int ndev)
{
    tu_triplets T;
    tu_gf2_wide_triplets(150, 160, 5, tu_seed(), &T);
    uint64_t a[3 * 64];
    { /* the devices' contexts, which ctx keeps, made before the count of what is live */
        spira_gf2_matrix W;
        ck_assert_int_eq(spira_gf2_matrix_from_coo(ctx, 150, 160, T.nnz, T.ri, T.ci, &W), SPIRA_OK);
        ck_assert_msg(spira_gf2_matrix_set_devices(W, ndev) == SPIRA_OK, "%s",
                      spira_last_error(ctx));
        spira_gf2_matrix_destroy(W);
    }
    for (long k = 1;; k++) {
        spira_gf2_matrix M = NULL;
        spira_gf2_block X = NULL, Y = NULL, K = NULL;
        const long live = spira__alloc_live();
        spira__alloc_fail_at(k);
        spira_status s = spira_gf2_matrix_from_coo(ctx, 150, 160, T.nnz, T.ri, T.ci, &M);
        if (s == SPIRA_OK) s = spira_gf2_matrix_set_devices(M, ndev);
        if (s == SPIRA_OK) s = spira_gf2_block_create(ctx, 160, 64, &X);
        if (s == SPIRA_OK) s = spira_gf2_block_create(ctx, 160, 64, &Y);
        if (s == SPIRA_OK) s = spira_gf2_krylov_sequence(M, X, Y, 2, a);
        if (s == SPIRA_OK) s = spira_gf2_matrix_set_format(M, "sliced-coo", NULL);
        if (s == SPIRA_OK) s = spira_gf2_block_create(ctx, 150, 64, &K);
        if (s == SPIRA_OK) s = spira_gf2_spmv(M, X, K);
        spira_gf2_kernel_opts o = {5, SPIRA_GF2_KERNEL_BLOCK};
        if (s == SPIRA_OK) s = spira_gf2_kernel(M, Y, &o, NULL);
        if (s == SPIRA_ERR_NOT_CONVERGED) s = SPIRA_OK;
        const long made = spira__alloc_count();
        spira__alloc_fail_at(0);
        spira_gf2_block_destroy(X), spira_gf2_block_destroy(Y), spira_gf2_block_destroy(K);
        spira_gf2_matrix_destroy(M);
        ck_assert_int_eq(spira__alloc_live(), live);
        if (s == SPIRA_OK && made < k) break;
        ck_assert_msg(s == SPIRA_ERR_NOMEM, "%d devices, failure %ld: %s: %s", ndev, k,
                      spira_status_name(s), spira_last_error(ctx));
        ck_assert_int_lt(k, 1000); /* a bound on the walk, not on the allocations */
    }
    tu_triplets_free(&T);
}

/* _i + 1 parts: 1 (the path every other test takes), 2, 3 */
START_TEST(gf2_devices_spmv)
{
    spira_context ctx = tu_cpu();
    tu_gf2_devices_spmv(ctx, _i + 1, tu_seed() + (unsigned)_i);
    /* the shapes above do leave parts empty: three parts of two rows */
    int32_t r[] = {0, 1}, c[] = {1, 0};
    spira_gf2_matrix M;
    ck_assert_int_eq(spira_gf2_matrix_from_coo(ctx, 2, 2, 2, r, c, &M), SPIRA_OK);
    ck_assert_int_eq(spira_gf2_matrix_set_devices(M, 3), SPIRA_OK);
    ck_assert_int_ge(parts_cover(M, 3), 1);
    int n = 0;
    ck_assert_int_eq(spira_gf2_matrix_devices(M, &n), SPIRA_OK);
    ck_assert_int_eq(n, 3);
    spira_gf2_matrix_destroy(M);
    spira_context_destroy(ctx);
}
END_TEST

START_TEST(gf2_devices_krylov)
{
    spira_context ctx = tu_cpu();
    tu_gf2_devices_krylov(ctx, _i + 1, 290, 9, tu_seed() + (unsigned)_i);
    if (_i == 1) { /* chunks a part: four, and more than some parts have rows */
        ck_assert_int_eq(setenv("SPIRA_GF2_CHUNKS", "4", 1), 0);
        tu_gf2_devices_krylov(ctx, 2, 290, 5, tu_seed() + 7);
        tu_gf2_devices_kernel(ctx, 2, 300, tu_seed() + 10);
        ck_assert_int_eq(setenv("SPIRA_GF2_CHUNKS", "8", 1), 0);
        tu_gf2_devices_krylov(ctx, 3, 17, 5, tu_seed() + 8);
        tu_gf2_devices_spmv(ctx, 3, tu_seed() + 9);
        unsetenv("SPIRA_GF2_CHUNKS");
    }
    spira_context_destroy(ctx);
}
END_TEST

START_TEST(gf2_devices_kernel)
{
    spira_context ctx = tu_cpu();
    tu_gf2_devices_kernel(ctx, 2 + _i, 700, tu_seed() + (unsigned)_i);
    spira_context_destroy(ctx);
}
END_TEST

START_TEST(gf2_devices_bad)
{
    spira_context ctx = tu_cpu();
    int32_t r[] = {0}, c[] = {0};
    spira_gf2_matrix M;
    ck_assert_int_eq(spira_gf2_matrix_from_coo(ctx, 1, 1, 1, r, c, &M), SPIRA_OK);
    const int bad[] = {0, -1, 17};
    for (int k = 0; k < 3; k++) {
        ck_assert_int_eq(spira_gf2_matrix_set_devices(M, bad[k]), SPIRA_ERR_INVALID_ARG);
        tu_assert_error_has(ctx, "devices (1 to 16)");
    }
    int n = 0;
    ck_assert_int_eq(spira_gf2_matrix_devices(M, &n), SPIRA_OK);
    ck_assert_int_eq(n, 1); /* a refusal keeps what was set */
    ck_assert_int_eq(spira_gf2_matrix_set_devices(NULL, 1), SPIRA_ERR_INVALID_ARG);
    ck_assert_int_eq(setenv("SPIRA_GF2_CHUNKS", "9", 1), 0);
    ck_assert_int_eq(spira_gf2_matrix_set_devices(M, 2), SPIRA_ERR_INVALID_ARG);
    tu_assert_error_has(ctx, "SPIRA_GF2_CHUNKS=\"9\": want 1 to 8 chunks a device");
    unsetenv("SPIRA_GF2_CHUNKS");
    ck_assert_int_eq(spira_gf2_matrix_devices(M, NULL), SPIRA_ERR_INVALID_ARG);
    spira_gf2_matrix_destroy(M);
    spira_context_destroy(ctx);
}
END_TEST

START_TEST(gf2_devices_alloc_failures)
{
    spira_context ctx = tu_cpu();
    tu_gf2_devices_alloc_walk(ctx, 2 + _i);
    spira_context_destroy(ctx);
}
END_TEST

Suite *suite_gf2_devices(void)
{
    Suite *s = suite_create("gf2_devices");
    TCase *tc = tcase_create("GF(2) over devices");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, gf2_devices_spmv, 0, 3);
    tcase_add_loop_test(tc, gf2_devices_krylov, 0, 3);
    tcase_add_loop_test(tc, gf2_devices_kernel, 0, 2);
    tcase_add_test(tc, gf2_devices_bad);
    tcase_add_loop_test(tc, gf2_devices_alloc_failures, 0, 2);
    suite_add_tcase(s, tc);
    return s;
}
