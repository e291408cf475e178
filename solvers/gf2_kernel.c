/*
 * gf2_kernel.c - vectors of ker M over GF(2) by Wiedemann's algorithm, 64 runs at once in
 * the bits of a 64-bit block (see spira_gf2_kernel in spira.h). The runs share every block
 * multiply and block operation; they part only on the host, in Berlekamp-Massey and in the
 * per-bit masks built from its result.
 *
 * For each bit l: y = M z, a_i = u . M^i y for i < N = 2n + 16 (n = ncols), the shortest
 * recurrence C(x) = 1 + c_1 x + ... + c_L x^L of a (Berlekamp-Massey), its reverse
 * f(x) = x^L C(1/x) = x^k g(x) with g(0) = 1; f(M) y = 0 whenever the recurrence is M's on
 * y, so M^(k+1) g(M) z = 0 and the last nonzero of w = g(M) z, M w, ... is a kernel vector.
 * A wide M (nrows < ncols) is padded square with zero rows: the multiplies write nrows rows
 * of n-row blocks whose other rows stay zero.
 */
#include "spira_impl.h"
#include "gf2/gf2.h"
#include "gf2_bw.h"

#include <stdio.h>
#include <string.h>

enum { EXTRA_TERMS = 16 };

/* Berlekamp-Massey for the 64 bit sequences of s[0..N) at once (bit l of s[i] is term i of
 * sequence l). C and the shifted previous polynomial B' = x^m B are bit-sliced (word j: the
 * coefficient of x^j of all 64), so a step is one pass over the words whatever each lane
 * does. Words beyond cap are dropped: a lane whose length passes cap gets L = -1 (its
 * recurrence is too long to be M's). The invariant deg C <= L (each lane) bounds the sum
 * for the discrepancy by the largest L.
 *
 * A step is one pass over the words, parallel (OpenMP): C ^= d B', B' <- x B' (or x C_old
 * where a lane's length grows), and the next step's discrepancy from the new C, an XOR
 * reduction, so the result is the same bits for any thread count. The pass reads C and B'
 * and writes Cn and Bn (then swapped), since word j needs the old word j - 1. B' moves up
 * a word each step, so a step costs up to cap words and the whole O(N cap) = O(n^2): the
 * update, the shift and the discrepancy are one pass, not three, because the passes over
 * memory are the cost (bench/results/2026-11-25-code-comments). On return C holds the
 * result; Cn, Bs and Bn are scratch, all cap + 1 words. */
static void berlekamp_massey64(const uint64_t *s, int64_t N, int64_t cap, uint64_t *C,
                               uint64_t *Bs, uint64_t *Cn, uint64_t *Bn, int64_t L[64])
{
    uint64_t *const result = C;
    memset(C, 0, ((size_t)cap + 1) * sizeof *C);
    memset(Bs, 0, ((size_t)cap + 1) * sizeof *Bs);
    memset(Cn, 0, ((size_t)cap + 1) * sizeof *Cn); /* words past top stay 0 in all four */
    memset(Bn, 0, ((size_t)cap + 1) * sizeof *Bn);
    C[0] = ~UINT64_C(0);
    if (cap >= 1) Bs[1] = ~UINT64_C(0); /* x * B with B = 1 */
    for (int l = 0; l < 64; l++) L[l] = 0;
    int64_t degC = 0, degB = 1, top = cap >= 1 ? 1 : 0; /* top: the highest word ever set */
    uint64_t dead = 0, d = N > 0 ? s[0] : 0;            /* step 0's discrepancy: C = 1 */
    for (int64_t i = 0; i < N; i++) {
        d &= ~dead;
        uint64_t grow = 0; /* lanes whose L changes: d = 1 and 2L <= i */
        for (int l = 0; l < 64; l++)
            if ((d >> l & 1) && 2 * L[l] <= i) grow |= UINT64_C(1) << l;
        const int64_t widest = degB > degC ? degB : degC;
        const int64_t newB = widest + 1 < cap ? widest + 1 : cap;
        /* the lengths after this step, known before the pass: its sum needs them */
        for (int l = 0; l < 64; l++)
            if (grow >> l & 1) {
                L[l] = i + 1 - L[l];
                if (L[l] > cap) dead |= UINT64_C(1) << l, L[l] = -1;
            }
        degC = 0;
        for (int l = 0; l < 64; l++)
            if (L[l] > degC) degC = L[l];
        if (newB > top) top = newB;
        /* the next discrepancy sums C_new[j] s[i + 1 - j] over j <= min(degC, i + 1) */
        const int64_t sum_to = i + 1 < N ? (degC < i + 1 ? degC : i + 1) : -1;
        uint64_t next = 0;
#pragma omp parallel for schedule(static) reduction(^ : next) if (top > 8192)
        for (int64_t j = 0; j <= top; j++) {
            uint64_t c = C[j], b = Bs[j];
            if (j <= newB) { /* words past newB are as they were: B' is 0 there */
                c ^= d & b;
                b = j == 0 ? 0 : (grow & C[j - 1]) | (~grow & Bs[j - 1]);
            }
            Cn[j] = c;
            Bn[j] = b;
            if (j <= sum_to) next ^= c & s[i + 1 - j];
        }
        uint64_t *t = C;
        C = Cn, Cn = t;
        t = Bs, Bs = Bn, Bn = t;
        degB = newB;
        d = next;
    }
    if (C != result) memcpy(result, C, ((size_t)top + 1) * sizeof *C);
    for (int l = 0; l < 64; l++)
        if (dead >> l & 1) L[l] = -1;
}

/* The device (or host) buffers of a solve. */
typedef struct {
    uint64_t *z, *u, *v, *v2, *acc, *seq, *word;
} buffers;

static void buffers_free(spira_context ctx, buffers *b)
{
    uint64_t **all[] = {&b->z, &b->u, &b->v, &b->v2, &b->acc, &b->seq, &b->word};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) spira__mem_free(ctx, *all[i]);
}

static spira_status buffers_alloc(spira_context ctx, int32_t n, int64_t N, buffers *b)
{
    memset(b, 0, sizeof *b);
    const size_t nb = (size_t)n * sizeof(uint64_t);
    spira_status s = spira__mem_alloc(ctx, (void **)&b->z, nb, "Wiedemann start block");
    if (s == SPIRA_OK) s = spira__mem_alloc(ctx, (void **)&b->u, nb, "Wiedemann projection block");
    if (s == SPIRA_OK) s = spira__mem_alloc(ctx, (void **)&b->v, nb, "Wiedemann Krylov block");
    if (s == SPIRA_OK) s = spira__mem_alloc(ctx, (void **)&b->v2, nb, "Wiedemann Krylov block");
    if (s == SPIRA_OK) s = spira__mem_alloc(ctx, (void **)&b->acc, nb, "Wiedemann evaluation block");
    if (s == SPIRA_OK)
        s = spira__mem_alloc(ctx, (void **)&b->seq, (size_t)N * sizeof(uint64_t), "Wiedemann sequence");
    if (s == SPIRA_OK) s = spira__mem_alloc(ctx, (void **)&b->word, sizeof(uint64_t), "Wiedemann word");
    if (s == SPIRA_OK) s = spira__mem_zero(ctx, b->acc, nb);
    if (s == SPIRA_OK) s = spira__mem_zero(ctx, b->seq, (size_t)N * sizeof(uint64_t));
    if (s != SPIRA_OK) buffers_free(ctx, b);
    return s;
}

/* The sequence a_i = u . M^i (M z), i < N, left in b->seq where ctx computes. */
static spira_status sequence(spira__gf2_walk *w, buffers *b, int64_t N)
{
    spira_context ctx = w->ctx;
    SPIRA__TRY(spira__gf2_walk_mul(w, b->z, b->v));
    for (int64_t i = 0; i < N; i++) {
        SPIRA__TRY(spira__gf2_dot_into(ctx, w->n, b->u, b->v, b->seq + i));
        if (i + 1 < N) {
            SPIRA__TRY(spira__gf2_walk_mul(w, b->v, b->v2));
            uint64_t *t = b->v;
            b->v = b->v2, b->v2 = t;
        }
    }
    return SPIRA_OK;
}

/* Per lane: D = deg g and the lanes worth evaluating (a recurrence found, short enough for
 * the sequence to have pinned it down). g_j of lane l is bit l of C[D_l - j]. */
static uint64_t lanes_to_evaluate(const int64_t L[64], const uint64_t *C, int64_t N, int32_t n,
                                  int64_t D[64], int64_t *maxD, int64_t *maxk)
{
    uint64_t ok = 0;
    *maxD = *maxk = 0;
    for (int l = 0; l < 64; l++) {
        D[l] = -1;
        if (L[l] < 1 || L[l] > n || 2 * L[l] + 8 > N) continue;
        int64_t k = 0; /* f_j = c_(L-j): the first nonzero from j = 0 is x^k's */
        while (k < L[l] && !(C[L[l] - k] >> l & 1)) k++;
        D[l] = L[l] - k;
        ok |= UINT64_C(1) << l;
        if (D[l] > *maxD) *maxD = D[l];
        if (k > *maxk) *maxk = k;
    }
    return ok;
}

/* acc = g(M) z for every lane: acc ^= (M^j z) & mask_j, mask_j's bit l = g_j of lane l. */
static spira_status evaluate(spira__gf2_walk *w, buffers *b, const uint64_t *C, uint64_t lanes,
                             const int64_t D[64], int64_t maxD)
{
    spira_context ctx = w->ctx;
    SPIRA__TRY(spira__mem_copy(ctx, b->v, b->z, (size_t)w->n * sizeof(uint64_t)));
    for (int64_t j = 0; j <= maxD; j++) {
        uint64_t mask = 0;
        for (int l = 0; l < 64; l++)
            if ((lanes >> l & 1) && j <= D[l]) mask |= (C[D[l] - j] >> l & 1) << l;
        SPIRA__TRY(spira__gf2_xor_masked(ctx, w->n, b->v, mask, b->acc));
        if (j < maxD) {
            SPIRA__TRY(spira__gf2_walk_mul(w, b->v, b->v2));
            uint64_t *t = b->v;
            b->v = b->v2, b->v2 = t;
        }
    }
    return SPIRA_OK;
}

spira_status spira_gf2_kernel(spira_gf2_matrix M, spira_gf2_block K,
                              const spira_gf2_kernel_opts *opts, spira_gf2_kernel_info *info)
{
    if (!M || !K) return SPIRA_ERR_INVALID_ARG;
    spira_context ctx = M->ctx;
    const int32_t m = M->pattern.nrows, n = M->pattern.ncols;
    spira_gf2_kernel_info out = {0};
    if (info) *info = out;
    if (K->ctx != ctx || K->words != 1 || K->nrows != n)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG,
                            "GF(2) kernel: K must be %d rows of 64 bits on M's context, not %d "
                            "of %d", n, K->nrows, 64 * K->words);
    if (m > n)
        return spira__error(ctx, SPIRA_ERR_UNSUPPORTED,
                            "GF(2) kernel: M is %d x %d, taller than wide (pad it with zero "
                            "columns or take M^T's kernel)", m, n);
    if (opts && opts->method != SPIRA_GF2_KERNEL_BIT)
        return spira__gf2_kernel_block(M, K, opts, info);
    SPIRA__TRY(spira__mem_zero(ctx, K->data, (size_t)n * sizeof(uint64_t)));
    /* the plans built now: a format's refusal comes before any allocation */
    SPIRA__TRY(spira__gf2_parts_prepare(M, 1, NULL));
    spira__gf2_walk w = {M, ctx, n, 0, NULL};
    const int64_t N = 2 * (int64_t)n + EXTRA_TERMS, cap = (int64_t)n + 1;
    buffers b;
    SPIRA__TRY(buffers_alloc(ctx, n, N, &b));
    w.word = b.word;
    uint64_t *host = NULL; /* the sequence, then C, B' and their next of Berlekamp-Massey */
    spira_status s = spira__alloc(ctx, (void **)&host, (size_t)N + 4 * ((size_t)cap + 1),
                                  sizeof *host, "Berlekamp-Massey words");
    uint64_t *seq = host, *C = host + N, *Bs = C + cap + 1, *Cn = Bs + cap + 1,
             *Bn = Cn + cap + 1;
    int64_t L[64], D[64], maxD = 0, maxk = 0;
    uint64_t found = 0;
    double t0 = spira__now_ms(), t1 = t0, t2 = t0;
    if (s == SPIRA_OK)
        s = spira__gf2_random_pair(ctx, n, opts ? opts->seed : 0, b.z, b.u, "Wiedemann random words");
    if (s == SPIRA_OK) s = sequence(&w, &b, N);
    if (s == SPIRA_OK) s = spira__mem_download(ctx, seq, b.seq, (size_t)N * sizeof *seq);
    if (s == SPIRA_OK) {
        t1 = spira__now_ms();
        berlekamp_massey64(seq, N, cap, C, Bs, Cn, Bn, L);
        t2 = spira__now_ms();
        const uint64_t lanes = lanes_to_evaluate(L, C, N, n, D, &maxD, &maxk);
        for (int l = 0; l < 64; l++)
            if (L[l] > out.degree) out.degree = (int)L[l];
        if (lanes) s = evaluate(&w, &b, C, lanes, D, maxD);
        /* at most maxk + 1 steps: M^(k+1) g(M) z = 0 */
        if (lanes && s == SPIRA_OK)
            s = spira__gf2_walk_catch(&w, lanes, maxk + 1, b.acc, b.v, b.v2, K->data, &found);
        if (found && s == SPIRA_OK) s = spira__gf2_walk_verify(&w, K->data, b.v, &found);
    }
    buffers_free(ctx, &b);
    spira__free(host);
    if (s != SPIRA_OK) return s;
    const double t[3] = {t0, t1, t2};
    return spira__gf2_kernel_done(ctx, &out, found, w.spmvs, t, info,
                                  "none of 64 runs found a vector (largest recurrence");
}
