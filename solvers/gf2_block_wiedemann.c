/*
 * gf2_block_wiedemann.c - vectors of ker M over GF(2) by Coppersmith's block Wiedemann
 * ("Solving homogeneous linear equations over GF(2) via block Wiedemann algorithm", Math.
 * Comp. 62, 1994) with m = n = 64: spira_gf2_kernel's SPIRA_GF2_KERNEL_BLOCK.
 *
 * B = [M; 0] (N = ncols square). X, Z random N x 64, Y = B Z.
 * 1. a_i = X^T B^i Y, i < L = 2 ceil(N/64) + EXTRA (spira_gf2_krylov_sequence).
 * 2. The generator (gf2_matrix_bm.c): columns g_j(x) with sum_k a_(i+k) c_k = 0 for
 *    i <= L - 1 - delta_j, c_k = coefficient delta_j - k of g_j. For such a column,
 *    w = sum_k B^k Y c_k has X^T B^i w = 0 for about N/64 + EXTRA values of i, which the
 *    random X makes w = 0 (or w in a part of B's nilpotent space the walk below crosses).
 * 3. Evaluation: 64 columns of least delta at once, one in each lane: with g_j of degree
 *    hi_j <= delta_j and lowest term lo_j, u_j = sum_(k <= hi_j - lo_j) B^k Z g_(j, hi_j - k)
 *    (one pass, a multiply and a block times 64 x 64 product a term), and
 *    B^(delta_j - hi_j + 1) u_j = w_j = 0.
 * 4. The walk: u, B u, B^2 u, ...: a lane whose vector is nonzero and whose image is zero
 *    is a kernel vector (checked by that very multiply) and goes into K.
 * 5. K's found columns are made independent (a column echelon pass on the host, applied on
 *    the device as K T), then M K is checked once more.
 * Multiplies: 1 + (L - 1) + max(hi - lo) + the walk + 1, about 3 N / 64.
 */
#include "gf2_bw.h"
#include "gf2_inner.h"

#include <string.h>

/* Orders beyond 2 ceil(N/64): the verified window of a generator column over N/64. */
enum { EXTRA = 10, WALK_MARGIN = 8 };

typedef struct {
    spira__gf2_walk w;      /* M, its context, n, the multiplies, a word of scratch */
    uint64_t *v, *v2, *acc; /* n-word blocks where ctx computes */
} bw;

/* Random X and Z uploaded, Y = B Z. */
static spira_status start_blocks(bw *b, uint64_t seed, spira_gf2_block X, spira_gf2_block Z,
                                 spira_gf2_block Y)
{
    SPIRA__TRY(spira__gf2_random_pair(b->w.ctx, b->w.n, seed, X->data, Z->data,
                                      "block Wiedemann random words"));
    return spira__gf2_walk_mul(&b->w, Z->data, Y->data);
}

/* The lanes: up to 64 generator columns with g != 0, least delta first; per lane its
 * column, hi, lo. Returns the number of lanes. */
static int pick_columns(const spira__gf2_generator *G, int col[64], int64_t hi[64],
                        int64_t lo[64])
{
    int order[128], cnt = 0;
    int64_t h[128], l[128];
    for (int j = 0; j < 128; j++) {
        const uint64_t *g = G->g + (size_t)j * G->cap;
        h[j] = G->delta[j];
        while (h[j] >= 0 && !g[h[j]]) h[j]--;
        if (h[j] < 0) continue;
        l[j] = 0;
        while (!g[l[j]]) l[j]++;
        int p = cnt++; /* insertion by (delta, j) */
        while (p > 0 && G->delta[order[p - 1]] > G->delta[j]) order[p] = order[p - 1], p--;
        order[p] = j;
    }
    if (cnt > 64) cnt = 64;
    for (int q = 0; q < cnt; q++) col[q] = order[q], hi[q] = h[order[q]], lo[q] = l[order[q]];
    return cnt;
}

/* acc = u for every lane (step 3); S on the host, then where ctx computes. */
static spira_status evaluate(bw *b, const spira__gf2_generator *G, int lanes, const int col[64],
                             const int64_t hi[64], const int64_t lo[64], int64_t maxD,
                             const uint64_t *Z)
{
    spira_context ctx = b->w.ctx;
    const size_t words = ((size_t)maxD + 1) * 64;
    uint64_t *S = NULL, *dS = NULL;
    SPIRA__TRY(spira__alloc(ctx, (void **)&S, words, sizeof *S, "block Wiedemann evaluation"));
    memset(S, 0, words * sizeof *S);
    /* S_k's row b, bit l: bit b of g_(col_l, hi_l - k) */
    for (int l = 0; l < lanes; l++) {
        const uint64_t *g = G->g + (size_t)col[l] * G->cap;
        for (int64_t k = 0; k <= hi[l] - lo[l]; k++)
            for (int bit = 0; bit < 64; bit++)
                S[k * 64 + bit] |= (g[hi[l] - k] >> bit & 1) << l;
    }
    spira_status s = spira__mem_alloc(ctx, (void **)&dS, words * sizeof *dS,
                                      "block Wiedemann evaluation");
    if (s == SPIRA_OK) s = spira__mem_upload(ctx, dS, S, words * sizeof *S);
    if (s == SPIRA_OK) s = spira__mem_zero(ctx, b->acc, (size_t)b->w.n * sizeof *b->acc);
    if (s == SPIRA_OK) s = spira__mem_copy(ctx, b->v, Z, (size_t)b->w.n * sizeof *b->v);
    for (int64_t k = 0; k <= maxD && s == SPIRA_OK; k++) { /* acc ^= (B^k Z) S_k */
        s = spira__gf2_mul_small(ctx, b->w.n, 1, 1, b->v, dS + k * 64, b->acc);
        if (s == SPIRA_OK && k < maxD) {
            s = spira__gf2_walk_mul(&b->w, b->v, b->v2);
            uint64_t *t = b->v;
            b->v = b->v2, b->v2 = t;
        }
    }
    spira__mem_free(ctx, dS);
    spira__free(S);
    return s;
}

/* Step 5's column echelon pass over the n words of K: T (64 rows of S-form: row b, what
 * lane b adds to) with K T's nonzero columns independent; returns those columns. Row i's
 * bits outside the pivots found so far are cleared by adding the new pivot's column. */
static uint64_t echelon(const uint64_t *K, int32_t n, uint64_t lanes, uint64_t T[64])
{
    for (int bit = 0; bit < 64; bit++) T[bit] = UINT64_C(1) << bit;
    uint64_t piv = 0;
    for (int32_t i = 0; i < n && piv != lanes; i++) {
        uint64_t r = 0;
        for (uint64_t x = K[i]; x; x &= x - 1) r ^= T[__builtin_ctzll(x)];
        const uint64_t cand = r & ~piv;
        if (!cand) continue;
        const int p = __builtin_ctzll(cand);
        const uint64_t others = cand & ~(UINT64_C(1) << p);
        piv |= UINT64_C(1) << p;
        for (int bit = 0; bit < 64; bit++) /* column q += column p, q in others */
            if (T[bit] >> p & 1) T[bit] ^= others;
    }
    for (int bit = 0; bit < 64; bit++) T[bit] &= piv;
    return piv;
}

static spira_status independent(bw *b, uint64_t *K, uint64_t *found)
{
    spira_context ctx = b->w.ctx;
    uint64_t *h = NULL, *dT = NULL, T[64];
    SPIRA__TRY(spira__alloc(ctx, (void **)&h, (size_t)b->w.n + 1, sizeof *h,
                            "block Wiedemann kernel copy"));
    spira_status s = spira__mem_download(ctx, h, K, (size_t)b->w.n * sizeof *h);
    if (s == SPIRA_OK) {
        *found = echelon(h, b->w.n, *found, T);
        s = spira__mem_alloc(ctx, (void **)&dT, sizeof T, "block Wiedemann basis change");
    }
    if (s == SPIRA_OK) s = spira__mem_upload(ctx, dT, T, sizeof T);
    if (s == SPIRA_OK) s = spira__mem_zero(ctx, b->v, (size_t)b->w.n * sizeof *b->v);
    if (s == SPIRA_OK) s = spira__gf2_mul_small(ctx, b->w.n, 1, 1, K, dT, b->v);
    if (s == SPIRA_OK) s = spira__mem_copy(ctx, K, b->v, (size_t)b->w.n * sizeof *K);
    spira__mem_free(ctx, dT);
    spira__free(h);
    return s;
}

spira_status spira__gf2_kernel_block(spira_gf2_matrix M, spira_gf2_block K,
                                     const spira_gf2_kernel_opts *opts,
                                     spira_gf2_kernel_info *info)
{
    spira_context ctx = K->ctx;
    if (opts->method != SPIRA_GF2_KERNEL_BLOCK)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "GF(2) kernel: method %d (0: bit, 1: "
                            "block)", opts->method);
    const int32_t n = K->nrows;
    spira_gf2_kernel_info out = {0};
    bw b = {{M, ctx, n, 0, NULL}, NULL, NULL, NULL};
    const int64_t L = 2 * (((int64_t)n + 63) / 64) + EXTRA;
    const size_t nb = (size_t)n * sizeof(uint64_t);
    spira_gf2_block X = NULL, Y = NULL, Z = NULL;
    uint64_t *seq = NULL, found = 0;
    spira__gf2_generator G = {0};
    double t0 = spira__now_ms(), t1 = t0, t2 = t0;
    spira_status s = spira__mem_zero(ctx, K->data, nb);
    if (s == SPIRA_OK) s = spira_gf2_block_create(ctx, n, 64, &X);
    if (s == SPIRA_OK) s = spira_gf2_block_create(ctx, n, 64, &Y);
    if (s == SPIRA_OK) s = spira_gf2_block_create(ctx, n, 64, &Z);
    if (s == SPIRA_OK)
        s = spira__alloc(ctx, (void **)&seq, (size_t)L * 64, sizeof *seq, "block Wiedemann sequence");
    if (s == SPIRA_OK) s = spira__mem_alloc(ctx, (void **)&b.w.word, sizeof *b.w.word, "GF(2) word");
    if (s == SPIRA_OK) s = start_blocks(&b, opts->seed, X, Z, Y);
    if (s == SPIRA_OK) s = spira_gf2_krylov_sequence(M, X, Y, L - 1, seq);
    b.w.spmvs += L - 1;
    spira_gf2_block_destroy(X), spira_gf2_block_destroy(Y); /* room for the evaluation */
    t1 = spira__now_ms();
    if (s == SPIRA_OK) s = spira__gf2_matrix_bm(ctx, seq, L, &G);
    t2 = spira__now_ms();
    if (s == SPIRA_OK) s = spira__mem_alloc(ctx, (void **)&b.v, nb, "block Wiedemann block");
    if (s == SPIRA_OK) s = spira__mem_alloc(ctx, (void **)&b.v2, nb, "block Wiedemann block");
    if (s == SPIRA_OK) s = spira__mem_alloc(ctx, (void **)&b.acc, nb, "block Wiedemann block");
    if (s == SPIRA_OK) {
        int col[64];
        int64_t hi[64], lo[64], maxD = 0, maxs = 0;
        const int lanes = pick_columns(&G, col, hi, lo);
        for (int l = 0; l < lanes; l++) {
            if (hi[l] - lo[l] > maxD) maxD = hi[l] - lo[l];
            if (G.delta[col[l]] - hi[l] > maxs) maxs = G.delta[col[l]] - hi[l];
            if (G.delta[col[l]] > out.degree) out.degree = (int)G.delta[col[l]];
        }
        const uint64_t mask = lanes == 64 ? ~UINT64_C(0) : (UINT64_C(1) << lanes) - 1;
        if (lanes) s = evaluate(&b, &G, lanes, col, hi, lo, maxD, Z->data);
        if (lanes && s == SPIRA_OK) /* step 4 */
            s = spira__gf2_walk_catch(&b.w, mask, maxs + 1 + WALK_MARGIN, b.acc, b.v, b.v2,
                                      K->data, &found);
        if (found && s == SPIRA_OK) s = independent(&b, K->data, &found);
        if (found && s == SPIRA_OK) s = spira__gf2_walk_verify(&b.w, K->data, b.v, &found);
    }
    spira_gf2_block_destroy(Z);
    spira__mem_free(ctx, b.v), spira__mem_free(ctx, b.v2), spira__mem_free(ctx, b.acc);
    spira__mem_free(ctx, b.w.word);
    spira__free(seq);
    spira__gf2_generator_free(&G);
    if (s != SPIRA_OK) {
        spira__mem_zero(ctx, K->data, nb); /* no half answer */
        return s;
    }
    const double t[3] = {t0, t1, t2};
    return spira__gf2_kernel_done(ctx, &out, found, b.w.spmvs, t, info,
                                  "block Wiedemann found no vector (largest generator degree");
}
