/*
 * test_gf2_bw.c - block Wiedemann over GF(2) on the CPU backend: the block operations
 * against bit-by-bit loops, the Krylov sequence against one made from the triplets, the
 * matrix Berlekamp-Massey's approximation property, and the kernel search against Gaussian
 * elimination (nullity) and the single-bit Wiedemann on random wide matrices, matrices with
 * many zero or duplicated columns and with a one-dimensional kernel; bad arguments and
 * allocation failures.
 */
#include "test_gf2_bw.h"
#include "gf2_bw.h"
#include "gf2_inner.h"

#include <stdlib.h>
#include <string.h>

/* ---- references ---------------------------------------------------------------------- */

int32_t tu_gf2_nullity(int32_t m, int32_t n, const tu_triplets *T)
{
    const int32_t w = (n + 63) / 64;
    uint64_t *A = calloc((size_t)m * w + 1, 8);
    for (int64_t e = 0; e < T->nnz; e++)
        A[(size_t)T->ri[e] * w + T->ci[e] / 64] ^= UINT64_C(1) << (T->ci[e] % 64);
    int32_t rank = 0;
    for (int32_t c = 0; c < n && rank < m; c++) {
        const uint64_t bit = UINT64_C(1) << (c % 64);
        int32_t p = rank;
        while (p < m && !(A[(size_t)p * w + c / 64] & bit)) p++;
        if (p == m) continue;
        for (int32_t q = 0; q < w; q++) {
            uint64_t t = A[(size_t)p * w + q];
            A[(size_t)p * w + q] = A[(size_t)rank * w + q], A[(size_t)rank * w + q] = t;
        }
        for (int32_t i = 0; i < m; i++)
            if (i != rank && (A[(size_t)i * w + c / 64] & bit))
                for (int32_t q = c / 64; q < w; q++) A[(size_t)i * w + q] ^= A[(size_t)rank * w + q];
        rank++;
    }
    free(A);
    return n - rank;
}

/* rank of the lanes of K (n words) as vectors of GF(2)^n */
static int lanes_rank(const uint64_t *K, int32_t n)
{
    uint64_t piv = 0, T[64];
    for (int b = 0; b < 64; b++) T[b] = UINT64_C(1) << b;
    for (int32_t i = 0; i < n; i++) { /* the same elimination as the library's, written out */
        uint64_t r = 0;
        for (int b = 0; b < 64; b++)
            if (K[i] >> b & 1) r ^= T[b];
        uint64_t cand = r & ~piv;
        if (!cand) continue;
        int p = 0;
        while (!(cand >> p & 1)) p++;
        piv |= UINT64_C(1) << p;
        for (int b = 0; b < 64; b++)
            if (T[b] >> p & 1) T[b] ^= cand & ~(UINT64_C(1) << p);
    }
    return __builtin_popcountll(piv);
}

spira_gf2_kernel_info tu_gf2_kernel_run(spira_context ctx, int32_t m, int32_t n,
                                        const tu_triplets *T, const char *format, int method,
                                        uint64_t seed, int32_t nullity, uint64_t *K,
                                        spira_status *status)
{
    spira_gf2_matrix M;
    ck_assert_int_eq(spira_gf2_matrix_from_coo(ctx, m, n, T->nnz, T->ri, T->ci, &M), SPIRA_OK);
    ck_assert_int_eq(spira_gf2_matrix_set_format(M, format, NULL), SPIRA_OK);
    ck_assert_msg(spira_gf2_matrix_set_devices(M, tu_gf2_devices) == SPIRA_OK, "%s",
                  spira_last_error(ctx));
    spira_gf2_block B;
    ck_assert_int_eq(spira_gf2_block_create(ctx, n, 64, &B), SPIRA_OK);
    uint64_t *poison = malloc((size_t)n * 8 + 8);
    memset(poison, 0xa5, (size_t)n * 8 + 8);
    ck_assert_int_eq(spira_gf2_block_set(B, poison), SPIRA_OK);
    spira_gf2_kernel_opts o = {seed, method};
    spira_gf2_kernel_info info;
    memset(&info, 0x5a, sizeof info);
    *status = spira_gf2_kernel(M, B, &o, &info);
    ck_assert_msg(*status == SPIRA_OK || *status == SPIRA_ERR_NOT_CONVERGED, "%s, method %d: %s",
                  format, method, spira_last_error(ctx));
    ck_assert_int_eq(spira_gf2_block_get(B, K), SPIRA_OK);
    ck_assert_int_eq(info.found, __builtin_popcountll(info.lanes));
    ck_assert_int_eq(info.found > 0, *status == SPIRA_OK);
    uint64_t nz = 0, *image = calloc((size_t)m + 1, sizeof *image);
    for (int32_t i = 0; i < n; i++) nz |= K[i];
    for (int64_t e = 0; e < T->nnz; e++) image[T->ri[e]] ^= K[T->ci[e]];
    for (int32_t i = 0; i < m; i++)
        ck_assert_msg(!(image[i] & info.lanes), "%s, method %d: row %d of M K is %016llx",
                      format, method, i, (unsigned long long)image[i]);
    ck_assert_msg(nz == info.lanes, "%s, method %d: nonzero columns %016llx, found %016llx",
                  format, method, (unsigned long long)nz, (unsigned long long)info.lanes);
    if (method == SPIRA_GF2_KERNEL_BLOCK) /* made independent: a basis of what it found */
        ck_assert_int_eq(lanes_rank(K, n), info.found);
    if (nullity >= 0)
        ck_assert_msg(lanes_rank(K, n) <= nullity, "method %d: %d independent vectors, "
                      "nullity %d", method, lanes_rank(K, n), nullity);
    free(image), free(poison);
    spira_gf2_block_destroy(B);
    spira_gf2_matrix_destroy(M);
    return info;
}

void tu_gf2_krylov_reference(int32_t m, int32_t n, const tu_triplets *T, int words,
                             const uint64_t *X, const uint64_t *Y, int64_t L, uint64_t *a)
{
    const int W = 64 * words;
    uint64_t *v = malloc((size_t)n * words * 8 + 8), *v2 = malloc((size_t)n * words * 8 + 8);
    memcpy(v, Y, (size_t)n * words * 8);
    memset(a, 0, ((size_t)L + 1) * W * words * 8);
    for (int64_t i = 0; i <= L; i++) {
        uint64_t *ai = a + (size_t)i * W * words;
        for (int32_t k = 0; k < n; k++) /* bit by bit: row r of a_i gets v_k where X(k, r) */
            for (int r = 0; r < W; r++)
                if (X[(size_t)k * words + r / 64] >> (r % 64) & 1)
                    for (int q = 0; q < words; q++) ai[r * words + q] ^= v[(size_t)k * words + q];
        memset(v2, 0, (size_t)n * words * 8); /* v2 = [A; 0] v from the triplets */
        for (int64_t e = 0; e < T->nnz; e++)
            for (int q = 0; q < words; q++)
                v2[(size_t)T->ri[e] * words + q] ^= v[(size_t)T->ci[e] * words + q];
        uint64_t *t = v;
        v = v2, v2 = t;
    }
    (void)m;
    free(v), free(v2);
}

void tu_gf2_one_kernel_triplets(int32_t n, unsigned seed, tu_triplets *T, uint64_t *v)
{
    unsigned st = seed;
    int32_t *perm = malloc((size_t)n * sizeof *perm), nsup = 0;
    memset(v, 0, (size_t)n * 8);
    for (int32_t i = 0; i < n; i++) perm[i] = i;
    for (int32_t i = n - 1; i > 0; i--) {
        int32_t j = (int32_t)tu_uniform(&st, 0, i + 1), t = perm[i];
        perm[i] = perm[j], perm[j] = t;
    }
    /* v's support: the first nsup of perm (at least 2); rows: chain and units, n - 1 of them */
    nsup = 2 + (int32_t)tu_uniform(&st, 0, n - 1);
    for (int32_t i = 0; i < nsup; i++) v[perm[i]] = 1;
    const int32_t m = n - 1;
    ck_assert_int_ge(m, 1);
    int32_t **rows = malloc((size_t)n * sizeof *rows), *len = calloc((size_t)n, sizeof *len);
    const int cap = 64;
    for (int32_t r = 0; r < m; r++) {
        rows[r] = malloc(cap * sizeof **rows);
        if (r < nsup - 1) rows[r][0] = perm[r], rows[r][1] = perm[r + 1], len[r] = 2;
        else rows[r][0] = perm[r + 1], len[r] = 1;
    }
    /* row r += row s (s != r) a few times: the row space, hence the kernel, stays */
    for (int32_t k = 0; k < 4 * m; k++) {
        int32_t r = (int32_t)tu_uniform(&st, 0, m), s = (int32_t)tu_uniform(&st, 0, m);
        if (r == s || len[r] + len[s] > cap) continue;
        memcpy(rows[r] + len[r], rows[s], (size_t)len[s] * sizeof **rows);
        len[r] += len[s];
    }
    T->nnz = 0;
    for (int32_t r = 0; r < m; r++) T->nnz += len[r];
    T->ri = malloc((size_t)T->nnz * sizeof *T->ri + 4);
    T->ci = malloc((size_t)T->nnz * sizeof *T->ci + 4);
    T->v = NULL, T->vf = NULL;
    int64_t e = 0;
    for (int32_t r = 0; r < m; r++) {
        for (int32_t q = 0; q < len[r]; q++) T->ri[e] = r, T->ci[e++] = rows[r][q];
        free(rows[r]);
    }
    free(rows), free(len), free(perm);
}

/* ---- the block operations ------------------------------------------------------------ */

/* X^T Z and X S on the CPU (byte tables) against bit-by-bit loops, every width. */
START_TEST(gf2_bw_block_ops)
{
    spira_context ctx = tu_cpu();
    uint64_t st = tu_seed() * 2654435761u + 1;
    const int32_t sizes[] = {0, 1, 7, 1000};
    for (int si = 0; si < 4; si++)
        for (int wi = 1; wi <= 4; wi *= 2)
            for (int wo = 1; wo <= 4; wo *= 2) {
                const int32_t n = sizes[si];
                uint64_t *x = malloc((size_t)n * wi * 8 + 8), *z = malloc((size_t)n * wi * 8 + 8);
                uint64_t *S = malloc(64 * wi * wo * 8), *y = malloc((size_t)n * wo * 8 + 8);
                uint64_t *ref = malloc((size_t)n * wo * 8 + 8);
                uint64_t out[1024], oref[1024];
                for (int32_t k = 0; k < n * wi; k++) x[k] = spira__xorshift64(&st), z[k] = spira__xorshift64(&st);
                for (int k = 0; k < 64 * wi * wo; k++) S[k] = spira__xorshift64(&st);
                for (int32_t k = 0; k < n * wo; k++) y[k] = ref[k] = spira__xorshift64(&st);
                for (int k = 0; k < 64 * wi * wi; k++) out[k] = oref[k] = spira__xorshift64(&st);
                if (wi == wo) { /* out ^= X^T Z */
                    ck_assert_int_eq(spira__gf2_inner_into(ctx, n, wi, x, z, out), SPIRA_OK);
                    for (int32_t k = 0; k < n; k++)
                        for (int r = 0; r < 64 * wi; r++)
                            for (int c = 0; c < 64 * wi; c++)
                                if ((x[k * wi + r / 64] >> (r % 64) & 1) &&
                                    (z[k * wi + c / 64] >> (c % 64) & 1))
                                    oref[r * wi + c / 64] ^= UINT64_C(1) << (c % 64);
                    ck_assert(!memcmp(out, oref, 64 * wi * wi * 8));
                }
                ck_assert_int_eq(spira__gf2_mul_small(ctx, n, wi, wo, x, S, y), SPIRA_OK);
                for (int32_t k = 0; k < n; k++)
                    for (int b = 0; b < 64 * wi; b++)
                        if (x[k * wi + b / 64] >> (b % 64) & 1)
                            for (int q = 0; q < wo; q++) ref[k * wo + q] ^= S[b * wo + q];
                ck_assert_msg(!memcmp(y, ref, (size_t)n * wo * 8), "n %d, %d -> %d words", n,
                              wi, wo);
                free(x), free(z), free(S), free(y), free(ref);
            }
    ck_assert_int_eq(spira__gf2_mul_small(ctx, 1, 3, 1, NULL, NULL, NULL), SPIRA_ERR_INVALID_ARG);
    ck_assert_int_eq(spira__gf2_inner_into(ctx, -1, 1, NULL, NULL, NULL), SPIRA_ERR_INVALID_ARG);
    spira_context_destroy(ctx);
}
END_TEST

/* spira_gf2_krylov_sequence on a square and a wide matrix, every width, against the
 * reference made from the triplets; a poisoned. Shapes refused. */
START_TEST(gf2_bw_krylov)
{
    spira_context ctx = tu_cpu();
    uint64_t st = tu_seed() * 40503u + 3;
    for (int shape = 0; shape < 2; shape++)
        for (int words = 1; words <= 4; words *= 2) {
            const int32_t n = 301, m = shape ? 250 : n;
            const int64_t L = 12;
            tu_triplets T;
            tu_gf2_wide_triplets(m, n, 5, tu_seed() + (unsigned)(shape * 8 + words), &T);
            spira_gf2_matrix A;
            ck_assert_int_eq(spira_gf2_matrix_from_coo(ctx, m, n, T.nnz, T.ri, T.ci, &A), SPIRA_OK);
            const size_t nw = (size_t)n * words, term = (size_t)64 * words * words;
            uint64_t *x = malloc(nw * 8), *y = malloc(nw * 8);
            uint64_t *a = malloc((L + 1) * term * 8), *ref = malloc((L + 1) * term * 8);
            for (size_t k = 0; k < nw; k++) x[k] = spira__xorshift64(&st), y[k] = spira__xorshift64(&st);
            spira_gf2_block X, Y;
            ck_assert_int_eq(spira_gf2_block_create(ctx, n, 64 * words, &X), SPIRA_OK);
            ck_assert_int_eq(spira_gf2_block_create(ctx, n, 64 * words, &Y), SPIRA_OK);
            spira_gf2_block_set(X, x), spira_gf2_block_set(Y, y);
            memset(a, 0xff, (L + 1) * term * 8);
            ck_assert_msg(spira_gf2_krylov_sequence(A, X, Y, L, a) == SPIRA_OK, "%s",
                          spira_last_error(ctx));
            tu_gf2_krylov_reference(m, n, &T, words, x, y, L, ref);
            for (size_t k = 0; k < (L + 1) * term; k++)
                ck_assert_msg(a[k] == ref[k], "%d x %d, %d bits: a_%zu word %zu", m, n,
                              64 * words, k / term, k % term);
            if (words == 1) {
                spira_gf2_block W;
                ck_assert_int_eq(spira_gf2_block_create(ctx, n, 128, &W), SPIRA_OK);
                ck_assert_int_eq(spira_gf2_krylov_sequence(A, X, W, L, a), SPIRA_ERR_INVALID_ARG);
                tu_assert_error_has(ctx, "must both be 301 rows of one width");
                ck_assert_int_eq(spira_gf2_krylov_sequence(A, X, Y, -1, a), SPIRA_ERR_INVALID_ARG);
                ck_assert_int_eq(spira_gf2_krylov_sequence(A, X, Y, L, NULL), SPIRA_ERR_INVALID_ARG);
                spira_gf2_block_destroy(W);
            }
            spira_gf2_block_destroy(X), spira_gf2_block_destroy(Y);
            spira_gf2_matrix_destroy(A);
            free(x), free(y), free(a), free(ref);
            tu_triplets_free(&T);
        }
    /* tall: A^i Y has no meaning */
    int32_t idx[3] = {0, 1, 2};
    spira_gf2_matrix Tall;
    spira_gf2_block X;
    uint64_t a[64];
    ck_assert_int_eq(spira_gf2_matrix_from_coo(ctx, 3, 2, 2, idx, idx, &Tall), SPIRA_OK);
    ck_assert_int_eq(spira_gf2_block_create(ctx, 2, 64, &X), SPIRA_OK);
    ck_assert_int_eq(spira_gf2_krylov_sequence(Tall, X, X, 0, a), SPIRA_ERR_UNSUPPORTED);
    tu_assert_error_has(ctx, "taller than wide");
    spira_gf2_block_destroy(X);
    spira_gf2_matrix_destroy(Tall);
    spira_context_destroy(ctx);
}
END_TEST

/* The generator of a real sequence: every column's approximation A g_j = -r_j mod x^L with
 * deg r_j < delta_j, checked as sum_k a_(i+k) c_k = 0 for i <= L - 1 - delta_j; the sum of
 * the 64 least deltas near the Krylov space's dimension (N plus a few). */
START_TEST(gf2_bw_matrix_bm)
{
    spira_context ctx = tu_cpu();
    const int32_t n = 700;
    tu_triplets T;
    tu_gf2_wide_triplets(n, n, 6, tu_seed(), &T);
    const int64_t L = 2 * ((n + 63) / 64) + 10;
    uint64_t st = tu_seed() + 11;
    uint64_t *x = malloc(n * 8), *y = malloc(n * 8), *a = malloc(L * 64 * 8);
    for (int32_t k = 0; k < n; k++) x[k] = spira__xorshift64(&st), y[k] = spira__xorshift64(&st);
    tu_gf2_krylov_reference(n, n, &T, 1, x, y, L - 1, a);
    spira__gf2_generator G;
    ck_assert_int_eq(spira__gf2_matrix_bm(ctx, a, L, &G), SPIRA_OK);
    int64_t sum = 0, least[128];
    for (int j = 0; j < 128; j++) {
        const uint64_t *g = G.g + (size_t)j * G.cap;
        const int64_t d = G.delta[j];
        ck_assert(d >= 0 && d <= L + 1);
        for (int64_t t = d + 1; t < G.cap; t++) ck_assert(g[t] == 0);
        for (int64_t i = 0; i + d < L; i++) { /* sum_k a_(i+k) c_k, c_k = g[d - k] */
            uint64_t acc = 0; /* the 64 rows' bits */
            for (int64_t k = 0; k <= d; k++)
                for (int c = 0; c < 64; c++)
                    if (g[d - k] >> c & 1)
                        for (int r = 0; r < 64; r++) acc ^= (a[(i + k) * 64 + r] >> c & 1) << r;
            ck_assert_msg(acc == 0, "column %d (delta %lld): order %lld gives %016llx", j,
                          (long long)d, (long long)i, (unsigned long long)acc);
        }
        least[j] = d;
    }
    for (int i = 1; i < 128; i++) /* sort the deltas */
        for (int j = i; j > 0 && least[j - 1] > least[j]; j--) {
            int64_t t = least[j];
            least[j] = least[j - 1], least[j - 1] = t;
        }
    for (int j = 0; j < 64; j++) sum += least[j];
    ck_assert_msg(sum <= n + 64, "the 64 least deltas sum to %lld for N = %d", (long long)sum, n);
    spira__gf2_generator_free(&G);
    ck_assert_int_eq(spira__gf2_matrix_bm(ctx, a, 0, &G), SPIRA_ERR_INVALID_ARG);
    ck_assert_ptr_null(G.g);
    free(x), free(y), free(a);
    tu_triplets_free(&T);
    spira_context_destroy(ctx);
}
END_TEST

/* ---- the kernel search --------------------------------------------------------------- */

/* Random matrices of awkward kinds, both methods: every vector verified, block's found
 * vectors independent and within the nullity; block finds one whenever the nullity is not
 * zero. _i: the kind. */
START_TEST(gf2_bw_kernel_kinds)
{
    spira_context ctx = tu_cpu();
    const int kind = _i % 4;
    const int32_t sizes[] = {50, 333, 1500};
    const int32_t n = sizes[_i / 4];
    unsigned seed = tu_seed() + 97u * (unsigned)_i;
    tu_triplets T;
    int32_t m = n;
    const char *what = "";
    if (kind == 0) { /* wide random */
        m = n - n / 20 - 1, what = "wide";
        tu_gf2_wide_triplets(m, n, 7, seed, &T);
    } else if (kind == 1) { /* square with a third of the columns empty (> 64 for n >= 333) */
        what = "empty columns";
        tu_gf2_wide_triplets(m, n, 5, seed, &T);
        for (int64_t e = 0; e < T.nnz; e++)
            if (T.ci[e] % 3 == 1) T.ci[e]--;
    } else if (kind == 2) { /* square, column c + 1 a copy of column c for c = 5 mod 97 */
        what = "duplicated columns";
        tu_gf2_wide_triplets(m, n, 12, seed, &T);
        for (int64_t e = 0; e < T.nnz; e++) /* empty the copies' columns ... */
            if (T.ci[e] % 97 == 6) T.ci[e] = (T.ci[e] + 3) % n;
        const int64_t nnz = T.nnz;
        for (int64_t e = 0; e < nnz; e++) /* ... and fill them with their originals' rows */
            if (T.ci[e] % 97 == 5 && T.ci[e] + 1 < n) {
                T.ci = realloc(T.ci, (size_t)(T.nnz + 1) * sizeof *T.ci);
                T.ri = realloc(T.ri, (size_t)(T.nnz + 1) * sizeof *T.ri);
                T.ri[T.nnz] = T.ri[e], T.ci[T.nnz] = T.ci[e] + 1, T.nnz++;
            }
    } else { /* kernel of dimension one */
        what = "one-dimensional kernel";
        uint64_t *v = malloc((size_t)n * 8);
        tu_gf2_one_kernel_triplets(n, seed, &T, v);
        m = n - 1;
        free(v);
    }
    const int32_t nullity = tu_gf2_nullity(m, n, &T);
    if (kind == 3) ck_assert_int_eq(nullity, 1);
    uint64_t *Kb = malloc((size_t)n * 8), *Kw = malloc((size_t)n * 8);
    spira_status sb, sw;
    spira_gf2_kernel_info ib = tu_gf2_kernel_run(ctx, m, n, &T, _i % 2 ? "sliced-coo" : "csr",
                                                 SPIRA_GF2_KERNEL_BLOCK, seed, nullity, Kb, &sb);
    spira_gf2_kernel_info iw = tu_gf2_kernel_run(ctx, m, n, &T, "csr", SPIRA_GF2_KERNEL_BIT,
                                                 seed, nullity, Kw, &sw);
    ck_assert_msg(nullity == 0 || ib.found >= 1, "%s, n %d: nullity %d, block found none",
                  what, n, nullity);
    ck_assert_msg(ib.spmvs <= 3 * (n + 63) / 64 + 40, "%s, n %d: %lld multiplies", what, n,
                  (long long)ib.spmvs);
    if (nullity == 1 && iw.found) { /* one nonzero vector in the kernel: both found it */
        uint64_t lb = ib.lanes & -ib.lanes, lw = iw.lanes & -iw.lanes;
        for (int32_t i = 0; i < n; i++)
            ck_assert_msg(!(Kb[i] & lb) == !(Kw[i] & lw), "%s, n %d: the two methods' vectors "
                          "differ at %d", what, n, i);
    }
    if (kind == 1) /* many vectors there: block Wiedemann's 64 lanes find many */
        ck_assert_msg(ib.found >= (nullity < 64 ? nullity : 64) / 2, "%s, n %d: %d of nullity "
                      "%d", what, n, ib.found, nullity);
    free(Kb), free(Kw);
    tu_triplets_free(&T);
    spira_context_destroy(ctx);
}
END_TEST

/* Nonsingular: the identity has no kernel vector; a bad method is refused. */
START_TEST(gf2_bw_kernel_none)
{
    spira_context ctx = tu_cpu();
    spira_gf2_matrix I = tu_gf2_identity(ctx, 200);
    spira_gf2_block B;
    ck_assert_int_eq(spira_gf2_block_create(ctx, 200, 64, &B), SPIRA_OK);
    spira_gf2_kernel_opts o = {5, SPIRA_GF2_KERNEL_BLOCK};
    spira_gf2_kernel_info info;
    tu_gf2_kernel_none(I, B, &o, "block Wiedemann found no vector");
    o.method = 7;
    ck_assert_int_eq(spira_gf2_kernel(I, B, &o, &info), SPIRA_ERR_INVALID_ARG);
    tu_assert_error_has(ctx, "method 7");
    spira_gf2_block_destroy(B);
    spira_gf2_matrix_destroy(I);
    spira_context_destroy(ctx);
}
END_TEST

/* Each allocation of the block search fails in turn: NOMEM, nothing leaked, K zero. */
START_TEST(gf2_bw_alloc_failures)
{
    spira_context ctx = tu_cpu();
    tu_triplets T;
    tu_gf2_wide_triplets(190, 200, 6, tu_seed(), &T);
    for (long k = 1;; k++) {
        spira_gf2_matrix M = NULL;
        spira_gf2_block B = NULL;
        const long live = spira__alloc_live();
        spira_status s = spira_gf2_matrix_from_coo(ctx, 190, 200, T.nnz, T.ri, T.ci, &M);
        if (s == SPIRA_OK) s = spira_gf2_block_create(ctx, 200, 64, &B);
        spira_gf2_kernel_opts o = {3, SPIRA_GF2_KERNEL_BLOCK};
        spira__alloc_fail_at(k);
        if (s == SPIRA_OK) s = spira_gf2_kernel(M, B, &o, NULL);
        const long made = spira__alloc_count();
        spira__alloc_fail_at(0);
        if (s == SPIRA_ERR_NOMEM) {
            uint64_t K[200];
            ck_assert_int_eq(spira_gf2_block_get(B, K), SPIRA_OK);
            for (int i = 0; i < 200; i++) ck_assert(K[i] == 0);
        }
        spira_gf2_block_destroy(B);
        spira_gf2_matrix_destroy(M);
        ck_assert_int_eq(spira__alloc_live(), live);
        if (s == SPIRA_OK && made < k) break;
        ck_assert_msg(s == SPIRA_ERR_NOMEM, "failure %ld: %s", k, spira_status_name(s));
        ck_assert_int_lt(k, 200);
    }
    tu_triplets_free(&T);
    spira_context_destroy(ctx);
}
END_TEST

Suite *suite_gf2_bw(void)
{
    Suite *s = suite_create("gf2_bw");
    TCase *tc = tcase_create("block Wiedemann");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, gf2_bw_block_ops);
    tcase_add_test(tc, gf2_bw_krylov);
    tcase_add_test(tc, gf2_bw_matrix_bm);
    tcase_add_loop_test(tc, gf2_bw_kernel_kinds, 0, 12);
    tcase_add_test(tc, gf2_bw_kernel_none);
    tcase_add_test(tc, gf2_bw_alloc_failures);
    suite_add_tcase(s, tc);
    return s;
}
