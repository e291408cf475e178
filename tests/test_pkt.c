/* test_pkt.c - the packet format (spmv/pkt*.c): the partition covers every row once, the
 * layout holds exactly the matrix's entries, RCM is a permutation that shrinks bandwidth,
 * a 2-D Laplacian keeps most nonzeros inside packets, and the CPU reference over the packet
 * layout matches the CSR reference on fresh random and (scrambled) Laplacian matrices in
 * float and double, with METIS and with the RCM fallback. */
#include "testutil.h"
#include "pkt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The partitions to try: the built-in fallback always, METIS when configure found it. */
static const char *partitions[] = {"partition=rcm",
#ifdef HAVE_METIS
                                   "partition=metis"
#endif
};
static const int npartitions = sizeof partitions / sizeof partitions[0];

/* A 2-D Laplacian on an n x n grid with rows and columns renumbered by a fresh random
 * permutation, so the natural order no longer reveals the mesh. */
static spira_matrix scrambled_laplacian(spira_context ctx, int n, spira_dtype t, unsigned seed)
{
    spira_matrix L;
    ck_assert_int_eq(spira_matrix_laplacian(ctx, 2, n, t, &L), SPIRA_OK);
    const spira__csr *c = &L->csr;
    int32_t m = c->nrows, *perm = malloc(m * sizeof *perm);
    int32_t *ri = malloc(c->nnz * sizeof *ri), *ci = malloc(c->nnz * sizeof *ci);
    for (int32_t i = 0; i < m; i++) perm[i] = i;
    for (int32_t i = m - 1; i > 0; i--) {
        int32_t j = (int32_t)tu_uniform(&seed, 0, i + 1), tmp = perm[i];
        perm[i] = perm[j];
        perm[j] = tmp;
    }
    for (int32_t i = 0; i < m; i++)
        for (int32_t k = c->row_ptr[i]; k < c->row_ptr[i + 1]; k++)
            ri[k] = perm[i], ci[k] = perm[c->col_idx[k]];
    spira_matrix A;
    ck_assert_int_eq(spira_matrix_from_coo(ctx, m, m, c->nnz, ri, ci, c->val, t, &A), SPIRA_OK);
    spira_matrix_destroy(L);
    free(perm), free(ri), free(ci);
    return A;
}

static int cmp_triplet(const void *a, const void *b)
{
    const double *x = a, *y = b;
    for (int k = 0; k < 2; k++)
        if (x[k] != y[k]) return x[k] < y[k] ? -1 : 1;
    return 0;
}

/* Every structural promise of the layout, and that slabs + remainder hold exactly A. */
static void check_layout(const spira__csr *A, const spira__pkt *P, int32_t target, const char *what)
{
    int32_t n = A->nrows, *seen = calloc(n + 1, sizeof *seen);
    ck_assert_int_eq(P->row_begin[0], 0);
    ck_assert_int_eq(P->row_begin[P->npackets], n);
    for (int32_t p = 0; p < P->npackets; p++) {
        int32_t nr = P->row_begin[p + 1] - P->row_begin[p];
        ck_assert_msg(nr >= 1 && nr <= target, "%s: packet %d has %d rows (cap %d)", what, p, nr, target);
        for (int32_t r = P->row_begin[p]; r < P->row_begin[p + 1]; r++) {
            ck_assert(P->rows[r] >= 0 && P->rows[r] < n);
            seen[P->rows[r]]++;
            if (r > P->row_begin[p]) ck_assert_int_lt(P->rows[r - 1], P->rows[r]);
        }
    }
    for (int32_t i = 0; i < n; i++)
        ck_assert_msg(seen[i] == 1, "%s: row %d is in %d packets", what, i, seen[i]);
    /* collect (row, col, value) from the layout */
    double *trip = malloc(((size_t)A->nnz + 1) * 3 * sizeof *trip);
    int64_t k = 0;
    memset(seen, 0, (n + 1) * sizeof *seen); /* now: rows written by the packet kernel */
    for (int32_t p = 0; p < P->npackets; p++) {
        int32_t rb = P->row_begin[p], nr = P->row_begin[p + 1] - rb;
        for (int32_t t = 0; t < P->threads; t++) {
            int padded = 0, last = -1;
            for (int32_t s = 0; s < P->steps[p]; s++) {
                int64_t slot = (int64_t)P->entry_begin[p] + (int64_t)s * P->threads + t;
                uint32_t w = P->words[slot];
                if (w == SPIRA__PKT_PAD) {
                    padded = 1;
                    continue;
                }
                ck_assert_msg(!padded, "%s: thread %d has an entry after padding", what, t);
                int32_t lr = (int32_t)(w >> 16), lc = (int32_t)(w & 0xffff);
                ck_assert_int_lt(lr, nr);
                if (lr != last) { /* a row's slots are contiguous in one thread's list */
                    ck_assert_int_eq(seen[P->rows[rb + lr]], 0);
                    seen[P->rows[rb + lr]] = 1;
                    last = lr;
                }
                if (lc == SPIRA__PKT_NOCOL) continue;
                ck_assert_int_lt(lc, nr);
                trip[3 * k] = P->rows[rb + lr];
                trip[3 * k + 1] = P->rows[rb + lc];
                trip[3 * k + 2] = spira__get(P->vals, P->dtype, slot);
                k++;
            }
        }
    }
    for (int32_t i = 0; i < n; i++)
        ck_assert_msg(seen[i] == 1, "%s: row %d gets no slot, y would not be written", what, i);
    ck_assert_int_eq(k, P->inside_nnz);
    for (int32_t r = 0; r < P->rem_nrows; r++) {
        if (r) ck_assert_int_lt(P->rem_rows[r - 1], P->rem_rows[r]);
        for (int32_t e = P->rem_ptr[r]; e < P->rem_ptr[r + 1]; e++, k++) {
            trip[3 * k] = P->rem_rows[r];
            trip[3 * k + 1] = P->rem_cols[e];
            trip[3 * k + 2] = spira__get(P->rem_vals, P->dtype, e);
        }
    }
    ck_assert_int_eq(k, A->nnz);
    qsort(trip, (size_t)k, 3 * sizeof *trip, cmp_triplet);
    int64_t e = 0;
    for (int32_t i = 0; i < n; i++)
        for (int32_t q = A->row_ptr[i]; q < A->row_ptr[i + 1]; q++, e++) {
            ck_assert_msg(trip[3 * e] == i && trip[3 * e + 1] == A->col_idx[q],
                          "%s: entry %lld is (%g, %g), expected (%d, %d)", what, (long long)e,
                          trip[3 * e], trip[3 * e + 1], i, A->col_idx[q]);
            ck_assert(trip[3 * e + 2] == spira__get(A->val, A->dtype, q));
        }
    free(trip);
    free(seen);
}

/* The partition covers every row exactly once and the layout holds exactly A, on shapes
 * with empty rows, a dense row, a power-law tail, and on a scrambled Laplacian. */
START_TEST(layout_is_the_matrix)
{
    spira_context ctx = tu_cpu();
    const char *shapes[] = {"random", "empty", "one", "empty-rows", "dense-row",
                            "equal-rows", "tridiagonal", "power-law"};
    const char *sizes[] = {"rows=2048,threads=256", "rows=37,threads=32", "rows=100,threads=64"};
    for (int p = 0; p < npartitions; p++)
        for (int z = 0; z < 3; z++) {
            char opts[96];
            snprintf(opts, sizeof opts, "%s,%s", partitions[p], sizes[z]);
            int32_t target = z == 0 ? 2048 : z == 1 ? 37 : 100;
            for (size_t s = 0; s <= sizeof shapes / sizeof shapes[0]; s++) {
                spira_matrix A;
                const char *name = s < sizeof shapes / sizeof shapes[0] ? shapes[s] : "laplacian";
                spira_dtype t = s % 2 ? SPIRA_R32 : SPIRA_R64;
                if (s < sizeof shapes / sizeof shapes[0]) {
                    int k = 0;
                    while (strcmp(tu_shapes[k].name, name)) k++;
                    A = tu_shape_matrix(ctx, &tu_shapes[k], t, tu_seed() + (unsigned)(7 * s + z));
                } else {
                    A = scrambled_laplacian(ctx, 40, t, tu_seed() + (unsigned)z);
                }
                void *L = NULL;
                spira_status rc = spira__pkt_format.convert(ctx, &A->csr, opts, &L);
                ck_assert_msg(rc == SPIRA_OK, "%s %s: %s", name, opts, spira_last_error(ctx));
                char what[160];
                snprintf(what, sizeof what, "%s (%s)", name, opts);
                check_layout(&A->csr, L, target, what);
                spira__pkt_format.destroy(L);
                spira_matrix_destroy(A);
            }
        }
    spira_context_destroy(ctx);
}
END_TEST

/* RCM returns a permutation, and on a scrambled n x n grid it brings the bandwidth back to
 * about n (the natural order's): a random numbering has bandwidth near n^2. */
START_TEST(rcm_permutes_and_narrows)
{
    spira_context ctx = tu_cpu();
    int n = 50;
    spira_matrix A = scrambled_laplacian(ctx, n, SPIRA_R64, tu_seed() + 11);
    const spira__csr *c = &A->csr;
    int32_t m = c->nrows, *perm = malloc(m * sizeof *perm), *inv = malloc(m * sizeof *inv);
    ck_assert_int_eq(spira__csr_rcm(ctx, c, perm), SPIRA_OK);
    for (int32_t i = 0; i < m; i++) inv[i] = -1;
    for (int32_t k = 0; k < m; k++) {
        ck_assert(perm[k] >= 0 && perm[k] < m);
        ck_assert_msg(inv[perm[k]] == -1, "row %d appears twice in the RCM order", perm[k]);
        inv[perm[k]] = k;
    }
    int32_t band = 0, band0 = 0;
    for (int32_t i = 0; i < m; i++)
        for (int32_t k = c->row_ptr[i]; k < c->row_ptr[i + 1]; k++) {
            int32_t d = abs(inv[i] - inv[c->col_idx[k]]), d0 = abs(i - c->col_idx[k]);
            if (d > band) band = d;
            if (d0 > band0) band0 = d0;
        }
    ck_assert_msg(band <= 2 * n, "RCM bandwidth %d on a %d x %d grid (scrambled: %d)", band, n,
                  n, band0);
    ck_assert_int_gt(band0, 10 * n);
    free(perm), free(inv);
    spira_matrix_destroy(A);
    spira_context_destroy(ctx);
}
END_TEST

/* On a (scrambled) 2-D Laplacian, both partitions keep > 90% of nonzeros inside packets. */
START_TEST(laplacian_mostly_inside)
{
    spira_context ctx = tu_cpu();
    spira_matrix A = scrambled_laplacian(ctx, 200, SPIRA_R64, tu_seed() + 5);
    for (int p = 0; p < npartitions; p++) {
        void *L = NULL;
        ck_assert_int_eq(spira__pkt_format.convert(ctx, &A->csr, partitions[p], &L), SPIRA_OK);
        const spira__pkt *P = L;
        double inside = (double)P->inside_nnz / A->csr.nnz;
        ck_assert_msg(inside > 0.9, "%s: only %.3f of nonzeros inside packets (%s)",
                      partitions[p], inside, P->stats);
        ck_assert_int_eq(P->metis, !strcmp(partitions[p], "partition=metis"));
        ck_assert_ptr_nonnull(strstr(spira__pkt_format.stats(L), "inside packets"));
        spira__pkt_format.destroy(L);
    }
    spira_matrix_destroy(A);
    spira_context_destroy(ctx);
}
END_TEST

/* The CPU reference over the packet layout against the CSR reference in double, y poisoned
 * when beta = 0, on random square matrices and scrambled Laplacians, float and double. */
START_TEST(host_apply_matches_csr)
{
    spira_context ctx = tu_cpu();
    const char *sizes[] = {"", "rows=64,threads=32"};
    for (int prec = 0; prec < 2; prec++) {
        spira_dtype t = prec ? SPIRA_R32 : SPIRA_R64;
        spira_matrix mats[3];
        mats[0] = tu_shape_matrix(ctx, &tu_shapes[0], t, tu_seed() + 21);  /* random 500 */
        mats[1] = tu_shape_matrix(ctx, &tu_shapes[10], t, tu_seed() + 22); /* power-law */
        mats[2] = scrambled_laplacian(ctx, 70, t, tu_seed() + 23);
        for (int mi = 0; mi < 3; mi++) {
            const spira__csr *c = &mats[mi]->csr;
            int32_t m = c->nrows;
            double *x = malloc(m * sizeof *x), *y0 = malloc(m * sizeof *y0);
            double *ref = malloc(m * sizeof *ref), *out = malloc(m * sizeof *out);
            double *scale = malloc(m * sizeof *scale);
            spira_vector vx, vy;
            spira_vector_create(ctx, m, t, &vx);
            spira_vector_create(ctx, m, t, &vy);
            unsigned st = tu_seed() + 31u * (unsigned)mi;
            for (int p = 0; p < npartitions; p++)
                for (int z = 0; z < 2; z++)
                    for (int cse = 0; cse < 2; cse++) {
                        double alpha = cse ? -0.75 : 1.5, beta = cse ? 0.5 : 0.0;
                        char opts[64];
                        snprintf(opts, sizeof opts, "%s%s%s", partitions[p], z ? "," : "", sizes[z]);
                        for (int32_t j = 0; j < m; j++) x[j] = (float)tu_uniform(&st, -1, 1);
                        for (int32_t i = 0; i < m; i++)
                            y0[i] = beta == 0 ? NAN : (float)tu_uniform(&st, -1, 1);
                        memcpy(ref, y0, m * sizeof *ref);
                        spira__csr_spmv_f64(c, alpha, x, beta, ref);
                        for (int32_t i = 0; i < m; i++) {
                            double s = 0;
                            for (int32_t k = c->row_ptr[i]; k < c->row_ptr[i + 1]; k++)
                                s += fabs(spira__get(c->val, t, k) * x[c->col_idx[k]]);
                            scale[i] = fabs(alpha) * s + (beta == 0 ? 0 : fabs(beta * y0[i]));
                        }
                        ck_assert_int_eq(spira_matrix_set_format(mats[mi], "pkt", opts), SPIRA_OK);
                        spira_vector_set_f64(vx, x);
                        spira_vector_set_f64(vy, y0);
                        ck_assert_msg(spira_spmv(alpha, mats[mi], vx, beta, vy) == SPIRA_OK, "%s",
                                      spira_last_error(ctx));
                        spira_vector_get_f64(vy, out);
                        char what[128];
                        snprintf(what, sizeof what, "pkt (%s) on matrix %d, %s, beta %g", opts, mi,
                                 prec ? "float" : "double", beta);
                        tu_check_close(what, out, ref, scale, m, 4 * tu_tol(t));
                    }
            spira_vector_destroy(vx), spira_vector_destroy(vy);
            free(x), free(y0), free(ref), free(out), free(scale);
        }
        for (int mi = 0; mi < 3; mi++) spira_matrix_destroy(mats[mi]);
    }
    spira_context_destroy(ctx);
}
END_TEST

/* Non-square matrices are refused (the word tu_check_all_formats accepts), bad options
 * are invalid arguments naming the option. */
START_TEST(refusals_and_options)
{
    spira_context ctx = tu_cpu();
    spira_matrix A;
    spira_vector x, y;
    int32_t ri[] = {0, 1}, ci[] = {2, 0};
    ck_assert_int_eq(spira_matrix_from_coo(ctx, 2, 3, 2, ri, ci, NULL, SPIRA_R64, &A), SPIRA_OK);
    spira_vector_create(ctx, 3, SPIRA_R64, &x);
    spira_vector_create(ctx, 2, SPIRA_R64, &y);
    ck_assert_int_eq(spira_matrix_set_format(A, "pkt", NULL), SPIRA_OK);
    ck_assert_int_eq(spira_spmv(1, A, x, 0, y), SPIRA_ERR_UNSUPPORTED);
    ck_assert_ptr_nonnull(strstr(spira_last_error(ctx), "refuse"));
    ck_assert_ptr_nonnull(strstr(spira_last_error(ctx), "2 x 3"));
    spira_matrix_destroy(A);
    spira_vector_destroy(x), spira_vector_destroy(y);
    ck_assert_int_eq(spira_matrix_laplacian(ctx, 2, 8, SPIRA_R64, &A), SPIRA_OK);
    const char *bad[] = {"partition=kway", "rows=0", "rows=100000", "threads=33", "threads=2048",
                         "rows=many"};
    for (int k = 0; k < 6; k++) {
        void *L = (void *)1;
        ck_assert_int_eq(spira__pkt_format.convert(ctx, &A->csr, bad[k], &L), SPIRA_ERR_INVALID_ARG);
        ck_assert_ptr_null(L);
    }
    spira_matrix_destroy(A);
    spira_context_destroy(ctx);
}
END_TEST

/* Every allocation of the conversion failing in turn: NOMEM, never a crash; then success. */
START_TEST(conversion_survives_allocation_failure)
{
    spira_context ctx = tu_cpu();
    spira_matrix A = scrambled_laplacian(ctx, 30, SPIRA_R64, tu_seed() + 3);
    for (int p = 0; p < npartitions; p++) {
        int done = 0;
        for (long n = 1; n < 200 && !done; n++) {
            void *L = NULL;
            spira__alloc_fail_at(n);
            spira_status s = spira__pkt_format.convert(ctx, &A->csr, partitions[p], &L);
            spira__alloc_fail_at(0);
            if (s == SPIRA_OK) {
                done = 1;
                check_layout(&A->csr, L, 2048, partitions[p]);
            } else {
                ck_assert_int_eq(s, SPIRA_ERR_NOMEM);
                ck_assert_ptr_null(L);
            }
            spira__pkt_format.destroy(L);
        }
        ck_assert(done);
    }
    spira_matrix_destroy(A);
    spira_context_destroy(ctx);
}
END_TEST

Suite *suite_pkt(void)
{
    Suite *s = suite_create("pkt");
    TCase *tc = tcase_create("pkt");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, layout_is_the_matrix);
    tcase_add_test(tc, rcm_permutes_and_narrows);
    tcase_add_test(tc, laplacian_mostly_inside);
    tcase_add_test(tc, host_apply_matches_csr);
    tcase_add_test(tc, refusals_and_options);
    tcase_add_test(tc, conversion_survives_allocation_failure);
    suite_add_tcase(s, tc);
    return s;
}
