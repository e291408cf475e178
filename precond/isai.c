/*
 * isai.c - incomplete sparse approximate inverses of an incomplete LU factor (Anzt, Huckle,
 * Braeckle, Dongarra, "Incomplete sparse approximate inverses for parallel
 * preconditioning", Parallel Computing 71, 2018): M_L ~ L^-1 and M_U ~ U^-1, each with its
 * factor's own pattern, so that a preconditioner apply is two SpMVs instead of two
 * triangular solves (whose level schedule is sequential where the factor is).
 *
 * Row i of M_L has the pattern J = {j : L(i, j) != 0} (L's strict lower part and the unit
 * diagonal, J sorted, i last) and asks (M_L L)(i, k) = delta_ik for k in J only:
 *     m L(J, J) = e_i restricted to J,
 * a |J| x |J| triangular system (L(J, J) is lower triangular), solved backwards from
 * m_i = 1. Row i of M_U likewise with U's pattern (i first), forwards from m_i = 1 / U(i, i).
 * The systems are independent, so rows go to threads, each with a dense |J|^2 scratch:
 * rows longer than SPIRA_ISAI_MAX_ROW entries are refused (the arrowhead matrix's dense
 * row would need 17 GB). Where L has no fill-in closure (a bidiagonal L), M_L is the
 * first Neumann term I - L_s, the same as one Jacobi sweep.
 *
 * The row permutation of the factor (P A = L U) is folded into M_L's columns: M_L P has
 * entry (i, perm[j]) for M_L's (i, j), so M_L r already reads P r. For an IC(0) factor
 * (U = D L^T) M_U = M_L^T D^-1 instead of its own systems, which keeps M^-1 =
 * M_L^T D^-1 M_L symmetric positive definite for CG.
 */
#include "isai.h"

#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

typedef struct {
    int32_t *J;  /* the row's pattern, sorted */
    double *m;   /* the solution: M's row */
    double *T;   /* K x K: the factor restricted to J x J, row-major */
} scratch;

/* Sort J[0..K) (the factor's rows are usually sorted already). */
static void sort_pattern(int32_t *J, int32_t K)
{
    for (int32_t a = 1; a < K; a++) {
        int32_t c = J[a], b = a;
        for (; b > 0 && J[b - 1] > c; b--) J[b] = J[b - 1];
        J[b] = c;
    }
}

/* Index of c in the sorted J[lo, hi), or -1. */
static int32_t find(const int32_t *J, int32_t lo, int32_t hi, int32_t c)
{
    const int32_t end = hi;
    while (lo < hi) {
        int32_t mid = (lo + hi) >> 1;
        if (J[mid] < c) lo = mid + 1;
        else hi = mid;
    }
    return lo < end && J[lo] == c ? lo : -1;
}

/* Row j of the factor's lower (upper 0) or upper (1) part with the diagonal, the range of
 * lu positions: lower [row_ptr[j], diag[j]] (the diagonal, U's, stands for L's unit one),
 * upper [diag[j], row_ptr[j + 1]). */
static void part_of(const spira__ilu_factor *f, int upper, int32_t j, int32_t *q0, int32_t *q1)
{
    *q0 = upper ? f->diag[j] : f->lu.row_ptr[j];
    *q1 = upper ? f->lu.row_ptr[j + 1] : f->diag[j] + 1;
}

/* Row i of M (upper: M_U, else M_L, unpermuted) into cols/vals (K entries, sorted). */
static void isai_row(const spira__ilu_factor *f, int upper, int32_t i, scratch *w, int32_t *cols,
                     double *vals)
{
    const spira__csr *lu = &f->lu;
    int32_t q0, q1;
    part_of(f, upper, i, &q0, &q1);
    const int32_t K = q1 - q0;
    for (int32_t a = 0; a < K; a++) w->J[a] = lu->col_idx[q0 + a];
    sort_pattern(w->J, K);
    memset(w->T, 0, (size_t)K * (size_t)K * sizeof *w->T);
    for (int32_t a = 0; a < K; a++) { /* row J[a] of the factor, restricted to J */
        const int32_t j = w->J[a];
        int32_t r0, r1;
        part_of(f, upper, j, &r0, &r1);
        for (int32_t q = r0; q < r1; q++) {
            const int32_t c = lu->col_idx[q];
            /* L: columns <= j sit in J[0, a]; U: columns >= j in J[a, K) */
            const int32_t b = upper ? find(w->J, a, K, c) : find(w->J, 0, a + 1, c);
            if (b < 0) continue;
            w->T[(size_t)a * K + b] = !upper && c == j ? 1.0 /* L's unit diagonal */
                                                       : spira__get(lu->val, lu->dtype, q);
        }
    }
    const double *T = w->T;
    double *m = w->m;
    if (!upper) { /* m T = e_{K-1}, T lower with a unit diagonal: backwards */
        for (int32_t b = K - 1; b >= 0; b--) {
            double s = b == K - 1 ? 1.0 : 0.0;
            for (int32_t a = b + 1; a < K; a++) s -= m[a] * T[(size_t)a * K + b];
            m[b] = s;
        }
    } else { /* m T = e_0, T upper: forwards */
        for (int32_t b = 0; b < K; b++) {
            double s = b == 0 ? 1.0 : 0.0;
            for (int32_t a = 0; a < b; a++) s -= m[a] * T[(size_t)a * K + b];
            m[b] = s / T[(size_t)b * K + b];
        }
    }
    for (int32_t a = 0; a < K; a++) cols[a] = w->J[a], vals[a] = m[a];
}

/* M (upper: M_U, else M_L) with its row pointers from the factor's parts; out's arrays
 * through spira__alloc. */
static spira_status isai_part(const spira__ilu_factor *f, int upper, int32_t kmax,
                              spira__csr *out)
{
    spira_context ctx = f->ctx;
    const int32_t n = f->lu.nrows;
    const size_t es = spira_dtype_size(f->lu.dtype);
    *out = (spira__csr){.nrows = n, .ncols = n, .dtype = f->lu.dtype};
    SPIRA__TRY(spira__alloc(ctx, (void **)&out->row_ptr, (size_t)n + 1, sizeof(int32_t),
                            "ISAI row pointers"));
    out->row_ptr[0] = 0;
    for (int32_t i = 0; i < n; i++) {
        int32_t q0, q1;
        part_of(f, upper, i, &q0, &q1);
        out->row_ptr[i + 1] = out->row_ptr[i] + (q1 - q0);
    }
    out->nnz = out->row_ptr[n];
    /* a thread's scratch: J, m and T, rounded to 64 bytes; threads: as many as fit 64 MB */
    const size_t per = (((size_t)kmax * kmax + 2 * (size_t)kmax) * sizeof(double) + 63) &
                       ~(size_t)63;
    int threads = 1;
#ifdef _OPENMP
    threads = omp_get_max_threads();
#endif
    if ((size_t)threads * per > ((size_t)64 << 20)) threads = (int)(((size_t)64 << 20) / per);
    /* about nnz * kmax steps: below a few million a team costs more than it saves (1138_bus
     * took 0.65 ms on one thread, 15 on two busy cores) */
    if (threads < 1 || (size_t)out->nnz * (size_t)kmax < ((size_t)2 << 20)) threads = 1;
    char *work = NULL;
    double *vals = NULL;
    spira_status s = spira__alloc(ctx, (void **)&out->col_idx, (size_t)out->nnz,
                                  sizeof(int32_t), "ISAI columns");
    if (s == SPIRA_OK) s = spira__alloc(ctx, &out->val, (size_t)out->nnz, es, "ISAI values");
    if (s == SPIRA_OK) s = spira__alloc(ctx, (void **)&vals, (size_t)out->nnz, sizeof *vals,
                                        "ISAI values in double");
    if (s == SPIRA_OK) s = spira__alloc(ctx, (void **)&work, (size_t)threads, per,
                                        "ISAI dense local systems");
    if (s != SPIRA_OK) {
        spira__csr_free(out);
        spira__free(vals), spira__free(work);
        return s;
    }
#pragma omp parallel num_threads(threads)
    {
        int t = 0;
#ifdef _OPENMP
        t = omp_get_thread_num();
#endif
        double *base = (double *)(work + (size_t)t * per);
        /* m, T, then J's kmax ints in the last kmax doubles' room */
        scratch w = {(int32_t *)(base + kmax + (size_t)kmax * kmax), base, base + kmax};
#pragma omp for schedule(dynamic, 64)
        for (int32_t i = 0; i < n; i++)
            isai_row(f, upper, i, &w, out->col_idx + out->row_ptr[i], vals + out->row_ptr[i]);
    }
    for (int32_t k = 0; k < out->nnz; k++) spira__set(out->val, out->dtype, k, vals[k]);
    spira__free(vals), spira__free(work);
    return SPIRA_OK;
}

/* The longest row of either part, or an error naming it when it passes the limit. */
static spira_status longest_row(const spira__ilu_factor *f, int32_t *kmax)
{
    *kmax = 1;
    for (int upper = 0; upper < 2; upper++)
        for (int32_t i = 0; i < f->lu.nrows; i++) {
            int32_t q0, q1;
            part_of(f, upper, i, &q0, &q1);
            if (q1 - q0 > SPIRA_ISAI_MAX_ROW)
                return spira__error(f->ctx, SPIRA_ERR_UNSUPPORTED,
                                    "ISAI: row %d of the factor's %s part has %d entries; its "
                                    "local system would be a dense %d x %d (at most %d "
                                    "entries a row: use exact solves or Jacobi sweeps)",
                                    i + 1, upper ? "upper" : "lower", q1 - q0, q1 - q0,
                                    q1 - q0, SPIRA_ISAI_MAX_ROW);
            if (q1 - q0 > *kmax) *kmax = q1 - q0;
        }
    return SPIRA_OK;
}

/* M_U = M_L^T D^-1 for an IC(0) factor: (i, j) = M_L(j, i) / U(j, j). */
static spira_status ic_upper(const spira__ilu_factor *f, const spira__csr *ml, spira__csr *mu)
{
    SPIRA__TRY(spira__csr_transpose(f->ctx, ml, mu));
    for (int32_t i = 0; i < mu->nrows; i++)
        for (int32_t k = mu->row_ptr[i]; k < mu->row_ptr[i + 1]; k++) {
            const int32_t j = mu->col_idx[k];
            const double d = spira__get(f->lu.val, f->lu.dtype, f->diag[j]);
            spira__set(mu->val, mu->dtype, k, spira__get(mu->val, mu->dtype, k) / d);
        }
    return SPIRA_OK;
}

/* M_L's columns through the factor's row permutation: (i, perm[j]), each row sorted again. */
static spira_status permute_columns(const spira__ilu_factor *f, spira__csr *ml)
{
    for (int32_t k = 0; k < ml->nnz; k++) ml->col_idx[k] = f->perm[ml->col_idx[k]];
    return spira__csr_sort_rows(f->ctx, ml);
}

spira_status spira__isai_build(const spira__ilu_factor *f, spira__csr *ml, spira__csr *mu)
{
    *ml = (spira__csr){0};
    *mu = (spira__csr){0};
    int32_t kmax;
    SPIRA__TRY(longest_row(f, &kmax));
    SPIRA__TRY(isai_part(f, 0, kmax, ml));
    spira_status s = f->ic ? ic_upper(f, ml, mu) : isai_part(f, 1, kmax, mu);
    if (s == SPIRA_OK && f->perm) s = permute_columns(f, ml);
    if (s != SPIRA_OK) {
        spira__csr_free(ml);
        spira__csr_free(mu);
    }
    return s;
}
