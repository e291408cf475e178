/*
 * ilu.c - the incomplete-LU preconditioners, M = P^T L U, and ILU(0) itself: L U is the
 * incomplete LU factorization of P A that keeps exactly P A's sparsity pattern (Saad,
 * "Iterative Methods for Sparse Linear Systems", 2nd ed., Algorithm 10.4, the IKJ
 * variant). ILUT (ilut.c) chooses its own pattern by size; the rest is shared.
 *
 * P is the identity when every diagonal entry of A is nonzero. Otherwise the factor would
 * divide by those zeros, so P is the maximum-product row permutation of matching.c, which
 * moves the largest available entries onto the diagonal (as MC64 does before direct and
 * incomplete factorizations). For symmetric A with P = I, U = D L^T and M = L D L^T is
 * symmetric (ILU(0) is then IC(0)), so CG may use it; a permuted M is not symmetric and
 * belongs with BiCGSTAB. ILU(0) is cheap but weak on hard nonsymmetric systems (bayer10
 * stays unconverged after 20,000 BiCGSTAB iterations); ILUT solves it. ILUT always takes
 * the matching, with MC64's row and column scaling, since its dropping depends on scale.
 *
 * The factorization runs once on the host in double, is stored in A's dtype and cached in
 * A beside its SpMV plans, so every later solve on A reuses it (and, on the GPU, its
 * cuSPARSE analysis). Its passes over the entries run on threads (the permuted copy, the
 * symmetry check, the shift and the store); the elimination stays in row order: by level
 * sets on threads, the rows of one level of a natural-order 3-D Laplacian lie ~100 rows
 * apart, and 2 threads took 90 ms where one took 29-41 on 10^6 rows. An apply is
 * z = U^-1 L^-1 (P r): on the host below, on the GPU with cuSPARSE's SpSV (ilu_gpu.cu).
 *
 * Or approximately, with spira_solve_opts.trisolve_sweeps = K (Anzt, Chow, Dongarra,
 * "Iterative sparse triangular solves for preconditioning", Euro-Par 2015): each solve
 * T x = b (T = L or U, D = diag(T), T = D + S with S strictly triangular; D = I for L) is
 * replaced by K Jacobi sweeps
 *     x_0 = D^-1 b,   x_j = D^-1 (b - S x_{j-1}),   j = 1..K.
 * D^-1 S is nilpotent, so x_K = sum_{i <= K} (-D^-1 S)^i D^-1 b: exact once K reaches the
 * longest chain of dependencies in T (its level count less one), and before that each
 * sweep is an SpMV over a strict triangle, free of the exact solve's sequential levels,
 * which is what makes it fast on a GPU. For IC(0) (U = D L^T, so U's sweeps are L's
 * transposed) the approximate M^-1 is T_L^T D^-1 T_L with T_L = sum_{i <= K} (-L_s)^i: still
 * symmetric positive definite, so CG keeps it. On the host (host_sweeps, in double, the
 * GPU's reference) and on the GPU (ilu_gpu.cu, over the strict triangles of
 * spira__ilu_split). The sweeps are a property of the preconditioner, not of the cached
 * factor: solves with and without them share one factor.
 *
 * Or with approximate inverses of the factors (spira_solve_opts.trisolve = ISAI, isai.c):
 * z = M_U (M_L P r), two SpMVs through matrices of their own (auto formats, on the GPU when
 * A's context is), built once per factor and cached beside it.
 *
 * ILU(0) exists for M-matrices and diagonally dominant matrices, not for every nonsingular
 * one. When a pivot becomes zero (or, for symmetric A with a positive diagonal, where
 * M = L D L^T must be SPD for CG, not positive), the factorization is retried on the
 * shifted A + alpha diag(A), alpha = 1e-3, 2e-3, 4e-3, ... (Manteuffel's shifted
 * incomplete Cholesky, 1980; PETSc's MAT_SHIFT_POSITIVE_DEFINITE does the like): large
 * enough alpha makes the matrix diagonally dominant, so the factor exists; the alpha used
 * is reported (spira_solve_info.precond_shift). A pivot that stays bad up to alpha ~ 500,
 * a row without a diagonal entry or a non-finite one stops the setup with
 * SPIRA_ERR_BREAKDOWN naming its row.
 */
#include "precond.h"
#include "ilu.h"
#include "isai.h"
#include "matching.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define MAX_FILL 1000

static void factor_destroy(void *p)
{
    spira__ilu_factor *f = (spira__ilu_factor *)p;
    if (!f) return;
    if (f->dev) spira__ilu_dev_destroy(f);
    spira__csr_free(&f->lu);
    spira__free(f->perm);
    spira__free(f->diag);
    spira__free(f);
}

/* The permutation, or none: P = I when A(i,i) is a nonzero for every i. With scale (n
 * doubles for dr, then n for dc) also the matching's scaling, and then P is taken even
 * for a full diagonal. */
static spira_status choose_rows(spira_matrix A, spira__ilu_factor *f, double *scale)
{
    const spira__csr *c = &A->csr;
    int32_t i = 0;
    while (!scale && i < c->nrows && spira__diagonal_entry(c, i) != 0) i++;
    if (i == c->nrows && !scale) return SPIRA_OK;
    SPIRA__TRY(spira__alloc(A->ctx, (void **)&f->perm, (size_t)c->nrows, sizeof *f->perm,
                            "incomplete LU row permutation"));
    return spira__max_product_matching(A->ctx, c, f->perm, scale,
                                       scale ? scale + c->nrows : NULL);
}

/* lu's pattern <- the rows of P A's (its values allocated in A's dtype, not filled). */
static spira_status permuted_pattern(spira_matrix A, spira__ilu_factor *f)
{
    const spira__csr *c = &A->csr;
    spira__csr *lu = &f->lu;
    *lu = (spira__csr){.nrows = c->nrows, .ncols = c->ncols, .nnz = c->nnz, .dtype = c->dtype};
    SPIRA__TRY(spira__alloc(A->ctx, (void **)&lu->row_ptr, (size_t)c->nrows + 1,
                            sizeof *lu->row_ptr, "ILU(0) factor"));
    SPIRA__TRY(spira__alloc(A->ctx, (void **)&lu->col_idx, (size_t)c->nnz, sizeof *lu->col_idx,
                            "ILU(0) factor"));
    SPIRA__TRY(spira__alloc(A->ctx, &lu->val, (size_t)c->nnz, spira_dtype_size(c->dtype),
                            "ILU(0) factor"));
    lu->row_ptr[0] = 0;
    for (int32_t j = 0; j < c->nrows; j++) {
        int32_t i = f->perm ? f->perm[j] : j;
        lu->row_ptr[j + 1] = lu->row_ptr[j] + c->row_ptr[i + 1] - c->row_ptr[i];
    }
    /* by rows on threads: the first touch of the new arrays (page faults) is most of it */
#pragma omp parallel for schedule(static) if (c->nnz > SPIRA__PARALLEL_ITEMS)
    for (int32_t j = 0; j < c->nrows; j++) {
        const int32_t i = f->perm ? f->perm[j] : j, b = c->row_ptr[i];
        memcpy(lu->col_idx + lu->row_ptr[j], c->col_idx + b,
               (size_t)(c->row_ptr[i + 1] - b) * sizeof *lu->col_idx);
    }
    return SPIRA_OK;
}

/* w <- the values of P (A + alpha diag(A)) on lu's pattern, in double (read from A each
 * time: no copy of them is kept for the retries); mark <- all -1. */
static void shifted_values(const spira__csr *c, const spira__ilu_factor *f, double alpha,
                           double *w, int32_t *mark)
{
#pragma omp parallel for schedule(static) if (c->nnz > SPIRA__PARALLEL_ITEMS)
    for (int32_t j = 0; j < c->nrows; j++) {
        int32_t i = f->perm ? f->perm[j] : j, k = f->lu.row_ptr[j];
        mark[j] = -1;
        for (int32_t q = c->row_ptr[i]; q < c->row_ptr[i + 1]; q++, k++) {
            const double v = spira__get(c->val, c->dtype, q);
            w[k] = c->col_idx[q] == j ? (1 + alpha) * v : v;
        }
    }
}

/* Factor w (the values of f->lu's pattern) in place; mark: n ints, all -1, left so.
 * Returns -1 when every pivot is nonzero and finite (positive: > 0), else the first row
 * whose pivot is not, its pivot in *bad. */
static int32_t factor_rows(spira__ilu_factor *f, double *w, int32_t *mark, int positive,
                           double *bad)
{
    const int32_t *rp = f->lu.row_ptr, *ci = f->lu.col_idx;
    for (int32_t i = 0; i < f->lu.nrows; i++) {
        for (int32_t k = rp[i]; k < rp[i + 1]; k++) mark[ci[k]] = k;
        /* row i -= l(i,c) * row c of U, for each c < i in row i's pattern, in order */
        for (int32_t k = rp[i]; k < rp[i + 1] && ci[k] < i; k++) {
            int32_t c = ci[k];
            double l = w[k] /= w[f->diag[c]];
            for (int32_t q = f->diag[c] + 1; q < rp[c + 1]; q++)
                if (mark[ci[q]] >= 0) w[mark[ci[q]]] -= l * w[q];
        }
        int32_t d = f->diag[i] = mark[i];
        double piv = d >= 0 ? w[d] : 0;
        for (int32_t k = rp[i]; k < rp[i + 1]; k++) mark[ci[k]] = -1;
        if (!(positive ? piv > 0 : piv != 0) || !isfinite(piv)) {
            *bad = piv;
            return i;
        }
    }
    return -1;
}

/* Symmetric A (to rounding) with a positive diagonal and no row permutation: IC(0), whose
 * M = L D L^T is SPD exactly when every pivot is > 0. */
static int wants_positive(const spira__csr *c, const spira__ilu_factor *f)
{
    int32_t i, j;
    if (f->perm || spira__csr_asymmetry(c, 1e-10, &i, &j)) return 0;
    int positive = 1;
    const int team = c->nnz > SPIRA__PARALLEL_ITEMS;
#pragma omp parallel for schedule(static) reduction(&& : positive) if (team)
    for (i = 0; i < c->nrows; i++) positive = positive && spira__csr_entry(c, i, i) > 0;
    return positive;
}

/* The largest diagonal shift tried before ILU(0) gives up. */
#define MAX_SHIFT 1024.0

static spira_status ilu0_factor(spira_matrix A, spira__ilu_factor *f)
{
    const spira__csr *c = &A->csr;
    SPIRA__TRY(spira__alloc(A->ctx, (void **)&f->diag, (size_t)c->nrows, sizeof *f->diag,
                            "ILU(0) diagonal positions"));
    /* the factor is made in double: in place in a double one, else in w */
    double *w = NULL;
    int32_t *mark = NULL;
    spira_status s = permuted_pattern(A, f);
    if (s == SPIRA_OK && c->dtype == SPIRA_R64) w = f->lu.val;
    else if (s == SPIRA_OK)
        s = spira__alloc(A->ctx, (void **)&w, (size_t)c->nnz, sizeof *w, "ILU(0) work");
    if (s == SPIRA_OK)
        s = spira__alloc(A->ctx, (void **)&mark, (size_t)c->nrows, sizeof *mark, "ILU(0) work");
    const int positive = s == SPIRA_OK && wants_positive(c, f);
    f->ic = positive;
    for (double alpha = 0; s == SPIRA_OK; alpha = alpha ? 2 * alpha : 1e-3) {
        shifted_values(c, f, alpha, w, mark);
        double piv = 0;
        int32_t row = factor_rows(f, w, mark, positive, &piv);
        f->shift = alpha;
        if (row < 0) break;
        int hopeless = f->diag[row] < 0 || !isfinite(piv) || 2 * alpha > MAX_SHIFT;
        if (hopeless)
            s = spira__error(A->ctx, SPIRA_ERR_BREAKDOWN,
                             "ILU(0) breaks down: pivot %g at row %d (1-based%s)%s, with the "
                             "diagonal shifted by %g diag(A); ILU(0) needs an M-matrix or a "
                             "diagonally dominant one", piv, row + 1,
                             f->perm ? ", after the row permutation" : "",
                             f->diag[row] < 0 ? ", which has no diagonal entry" : "", alpha);
    }
    if (s == SPIRA_OK && w != f->lu.val) {
#pragma omp parallel for schedule(static) if (c->nnz > SPIRA__PARALLEL_ITEMS)
        for (int32_t k = 0; k < c->nnz; k++) spira__set(f->lu.val, f->lu.dtype, k, w[k]);
    }
    if (w != f->lu.val) spira__free(w);
    spira__free(mark);
    return s;
}

/* tau < 0: ILU(0); else ILUT(tau, fill). */
static spira_status factor_build(spira_matrix A, double tau, double fill, spira__ilu_factor *f)
{
    const spira__csr *c = &A->csr;
    for (int32_t k = 0; k < c->nnz; k++)
        if (!isfinite(spira__get(c->val, c->dtype, k)))
            return spira__error(A->ctx, SPIRA_ERR_NONFINITE,
                                "incomplete LU: A has a non-finite entry (nonzero %d)", k + 1);
    /* ILU(0) does not change under scaling; ILUT's dropping does, and works far better on
     * MC64's scaled matrix (|entries| <= 1, 1 on the diagonal): on the CPU backend BiCGSTAB
     * with the defaults needs 3 instead of 31 iterations on pores_1, 15 instead of 151 on
     * orsirr_1, and converges on bayer10 (929) where it did not in 5000 unscaled. */
    double *scale = NULL;
    spira_status s = SPIRA_OK;
    if (tau >= 0)
        s = spira__alloc(A->ctx, (void **)&scale, 2 * (size_t)c->nrows, sizeof *scale,
                         "ILUT scaling");
    if (s == SPIRA_OK) s = choose_rows(A, f, scale);
    if (s == SPIRA_OK)
        s = tau < 0 ? ilu0_factor(A, f)
                    : spira__ilut_factor(A->ctx, c, tau, fill, scale,
                                         scale ? scale + c->nrows : NULL, f);
    spira__free(scale);
    return s;
}

/* The cache key of A's factor with these parameters; with isai, of its inverses. */
static void factor_key(spira_matrix A, double tau, double fill, int isai,
                       char key[sizeof A->cache->key])
{
    if (tau < 0) snprintf(key, sizeof A->cache->key, "precond:ilu0%s", isai ? ":isai" : "");
    else snprintf(key, sizeof A->cache->key, "precond:ilut:%.17g:%.17g%s", tau, fill,
                  isai ? ":isai" : "");
}

typedef struct {
    double tau, fill;
} factor_params;

static spira_status factor_new(spira_matrix A, const void *arg, void **plan)
{
    const factor_params *fp = (const factor_params *)arg;
    spira__ilu_factor *f = spira__calloc(1, sizeof *f);
    if (!f) return spira__nomem(A->ctx, "incomplete LU factor", sizeof *f);
    f->ctx = A->ctx;
    spira_status s = factor_build(A, fp->tau, fp->fill, f);
    if (s != SPIRA_OK) {
        factor_destroy(f);
        return s;
    }
    *plan = f;
    return SPIRA_OK;
}

/* A's factor, built on first use and cached in A under its parameters. */
static spira_status factor_get(spira_matrix A, double tau, double fill, spira__ilu_factor **out)
{
    char key[sizeof A->cache->key];
    factor_key(A, tau, fill, 0, key);
    const factor_params fp = {tau, fill};
    return spira__matrix_cache_get(A, key, &fp, factor_new, factor_destroy, (void **)out);
}

/* M_L ~ L^-1 P and M_U ~ U^-1 as matrices of A's context (isai.c), cached in A. */
typedef struct {
    spira_matrix ml, mu;
} isai_pair;

static void isai_destroy(void *p)
{
    isai_pair *q = (isai_pair *)p;
    if (!q) return;
    spira_matrix_destroy(q->ml);
    spira_matrix_destroy(q->mu);
    spira__free(q);
}

static spira_status isai_new(spira_matrix A, const void *arg, void **plan)
{
    isai_pair *q = spira__calloc(1, sizeof *q);
    if (!q) return spira__nomem(A->ctx, "ISAI pair", sizeof *q);
    spira__csr ml, mu;
    spira_status s = spira__isai_build((const spira__ilu_factor *)arg, &ml, &mu);
    if (s == SPIRA_OK) { /* a wrap that fails frees its CSR */
        s = spira__matrix_wrap(A->ctx, &ml, 0, &q->ml);
        if (s == SPIRA_OK) s = spira__matrix_wrap(A->ctx, &mu, 0, &q->mu);
        else spira__csr_free(&mu);
    }
    if (s != SPIRA_OK) {
        isai_destroy(q);
        return s;
    }
    *plan = q;
    return SPIRA_OK;
}

/* The inverses of f (A's factor under tau and fill), built on first use and cached. */
static spira_status isai_get(spira_matrix A, double tau, double fill, const spira__ilu_factor *f,
                             isai_pair **out)
{
    char key[sizeof A->cache->key];
    factor_key(A, tau, fill, 1, key);
    return spira__matrix_cache_get(A, key, f, isai_new, isai_destroy, (void **)out);
}

typedef struct {
    spira__precond base;  /* first: the registry sees only this; base.sweeps: K, or 0 */
    spira__ilu_factor *f; /* owned by A's cache */
    double *y;            /* host: work, n doubles (exact) or 3n (sweeps) */
    isai_pair *isai;      /* with ISAI (owned by A's cache), else NULL */
    spira_vector t;       /* with ISAI: M_L P r */
} ilu_precond;

/* z <- U^-1 L^-1 P r on the host, accumulating in double. */
static void host_apply(const spira__ilu_factor *f, const void *r, void *z, double *y)
{
    const spira__csr *lu = &f->lu;
    const int32_t *rp = lu->row_ptr, *ci = lu->col_idx;
    for (int32_t j = 0; j < lu->nrows; j++) {
        double s = spira__get(r, lu->dtype, f->perm ? f->perm[j] : j);
        for (int32_t k = rp[j]; k < f->diag[j]; k++)
            s -= spira__get(lu->val, lu->dtype, k) * y[ci[k]];
        y[j] = s;
    }
    for (int32_t j = lu->nrows - 1; j >= 0; j--) {
        double s = y[j];
        for (int32_t k = f->diag[j] + 1; k < rp[j + 1]; k++)
            s -= spira__get(lu->val, lu->dtype, k) * y[ci[k]];
        y[j] = s / spira__get(lu->val, lu->dtype, f->diag[j]);
    }
    for (int32_t j = 0; j < lu->nrows; j++) spira__set(z, lu->dtype, j, y[j]);
}

/* The same approximated by `sweeps` Jacobi sweeps a triangular solve (the header's
 * iteration), in double: the reference the GPU's sweeps are tested against. w: 3n. */
static void host_sweeps(const spira__ilu_factor *f, int sweeps, const void *r, void *z,
                        double *w)
{
    const spira__csr *lu = &f->lu;
    const int32_t n = lu->nrows, *rp = lu->row_ptr, *ci = lu->col_idx, *dg = f->diag;
    const spira_dtype t = lu->dtype;
    double *b = w, *x = w + n, *next = w + 2 * (size_t)n, *swap;
    /* L y = P r, L unit: y_0 = P r, y_j = P r - L_s y_{j-1} */
    for (int32_t i = 0; i < n; i++) b[i] = x[i] = spira__get(r, t, f->perm ? f->perm[i] : i);
    for (int j = 0; j < sweeps; j++) {
        for (int32_t i = 0; i < n; i++) {
            double s = b[i];
            for (int32_t q = rp[i]; q < dg[i]; q++) s -= spira__get(lu->val, t, q) * x[ci[q]];
            next[i] = s;
        }
        swap = x, x = next, next = swap;
    }
    /* U z = y_K: z_0 = D^-1 y_K, z_j = D^-1 (y_K - U_s z_{j-1}) */
    swap = b, b = x, x = swap;
    for (int32_t i = 0; i < n; i++) x[i] = b[i] / spira__get(lu->val, t, dg[i]);
    for (int j = 0; j < sweeps; j++) {
        for (int32_t i = 0; i < n; i++) {
            double s = b[i];
            for (int32_t q = dg[i] + 1; q < rp[i + 1]; q++)
                s -= spira__get(lu->val, t, q) * x[ci[q]];
            next[i] = s / spira__get(lu->val, t, dg[i]);
        }
        swap = x, x = next, next = swap;
    }
    for (int32_t i = 0; i < n; i++) spira__set(z, t, i, x[i]);
}

spira__ilu_factor *spira__ilu_of(spira__precond *M)
{
    if (!M || (M->ops != &spira__precond_ilu0 && M->ops != &spira__precond_ilut)) return NULL;
    return ((ilu_precond *)M)->f;
}

spira_status spira__ilu_split(const spira__ilu_factor *f, spira__csr *lower, spira__csr *upper,
                              void **diag)
{
    const spira__csr *lu = &f->lu;
    const int32_t n = lu->nrows;
    const size_t es = spira_dtype_size(lu->dtype);
    int32_t nl = 0;
    for (int32_t i = 0; i < n; i++) nl += f->diag[i] - lu->row_ptr[i];
    *lower = (spira__csr){.nrows = n, .ncols = n, .nnz = nl, .dtype = lu->dtype};
    *upper = (spira__csr){.nrows = n, .ncols = n, .nnz = lu->nnz - nl - n, .dtype = lu->dtype};
    *diag = NULL;
    spira__csr *part[2] = {lower, upper};
    spira_status s = spira__alloc(f->ctx, diag, (size_t)n, es, "ILU sweeps: U's diagonal");
    for (int k = 0; k < 2 && s == SPIRA_OK; k++) {
        s = spira__alloc(f->ctx, (void **)&part[k]->row_ptr, (size_t)n + 1, sizeof(int32_t),
                         "ILU sweeps: a strict triangle");
        if (s == SPIRA_OK)
            s = spira__alloc(f->ctx, (void **)&part[k]->col_idx, (size_t)part[k]->nnz,
                             sizeof(int32_t), "ILU sweeps: a strict triangle");
        if (s == SPIRA_OK)
            s = spira__alloc(f->ctx, &part[k]->val, (size_t)part[k]->nnz, es,
                             "ILU sweeps: a strict triangle");
    }
    if (s != SPIRA_OK) {
        spira__csr_free(lower);
        spira__csr_free(upper);
        spira__free(*diag);
        *diag = NULL;
        return s;
    }
    lower->row_ptr[0] = upper->row_ptr[0] = 0;
    for (int32_t i = 0; i < n; i++) {
        /* row i of lu: [row_ptr[i], diag[i]) lower, diag[i], (diag[i], row_ptr[i + 1]) upper */
        const int32_t a = lu->row_ptr[i], d = f->diag[i], e = lu->row_ptr[i + 1];
        const int32_t lo = lower->row_ptr[i], up = upper->row_ptr[i];
        memcpy(lower->col_idx + lo, lu->col_idx + a, (size_t)(d - a) * sizeof(int32_t));
        memcpy((char *)lower->val + lo * es, (const char *)lu->val + a * es, (size_t)(d - a) * es);
        memcpy(upper->col_idx + up, lu->col_idx + d + 1, (size_t)(e - d - 1) * sizeof(int32_t));
        memcpy((char *)upper->val + up * es, (const char *)lu->val + (d + 1) * es,
               (size_t)(e - d - 1) * es);
        memcpy((char *)*diag + i * es, (const char *)lu->val + d * es, es);
        lower->row_ptr[i + 1] = lo + (d - a);
        upper->row_ptr[i + 1] = up + (e - d - 1);
    }
    return SPIRA_OK;
}

static spira_status ilu_apply(spira__precond *self, spira_vector r, spira_vector z)
{
    ilu_precond *p = (ilu_precond *)self;
    const int k = p->base.sweeps;
    SPIRA__TRY(spira__vectors_match(r, z, NULL));
    if (p->isai) {
        SPIRA__TRY(spira_spmv(1.0, p->isai->ml, r, 0.0, p->t));
        return spira_spmv(1.0, p->isai->mu, p->t, 0.0, z);
    }
    if (p->f->dev)
        return k ? spira__ilu_dev_sweeps(p->f, k, SPIRA__SWEEPS_AUTO, r->data, z->data)
                 : spira__ilu_dev_apply(p->f, r->data, z->data);
    if (k) host_sweeps(p->f, k, r->data, z->data, p->y);
    else host_apply(p->f, r->data, z->data, p->y);
    return SPIRA_OK;
}

static void ilu_destroy(spira__precond *self)
{
    spira__free(((ilu_precond *)self)->y);
    spira_vector_destroy(((ilu_precond *)self)->t);
}

static spira_status ilu_create(const spira__precond_ops *ops, spira_matrix A,
                               const spira_solve_opts *o, spira__precond **out)
{
    const int ilut = ops->type == SPIRA_PRECOND_ILUT;
    const char *name = ilut ? "ILUT" : "ILU(0)";
    double tau = -1, fill = 0;
    if (A->csr.nrows != A->csr.ncols)
        return spira__error(A->ctx, SPIRA_ERR_INVALID_ARG, "%s needs a square matrix; A is %d x %d",
                            name, A->csr.nrows, A->csr.ncols);
    if (ilut) {
        tau = o->precond_drop_tol ? o->precond_drop_tol : SPIRA_ILUT_DEFAULT_DROP_TOL;
        fill = o->precond_fill ? o->precond_fill : SPIRA_ILUT_DEFAULT_FILL;
        if (!(tau > 0 && tau < 1) || !(fill >= 1 && fill <= MAX_FILL))
            return spira__error(A->ctx, SPIRA_ERR_INVALID_ARG,
                                "ILUT drop tolerance %g (0 < tau < 1) or fill %g (1 to %d)", tau,
                                fill, MAX_FILL);
    }
    if (o->trisolve_sweeps < 0 || o->trisolve_sweeps > SPIRA_TRISOLVE_MAX_SWEEPS)
        return spira__error(A->ctx, SPIRA_ERR_INVALID_ARG, "%s: %d Jacobi sweeps a triangular "
                            "solve (0: exact solves, at most %d)", name, o->trisolve_sweeps,
                            SPIRA_TRISOLVE_MAX_SWEEPS);
    const int isai = o->trisolve == SPIRA_TRISOLVE_ISAI;
    if (isai && o->trisolve_sweeps)
        return spira__error(A->ctx, SPIRA_ERR_INVALID_ARG, "%s: ISAI or %d Jacobi sweeps a "
                            "triangular solve, not both", name, o->trisolve_sweeps);
    spira__precond *base;
    SPIRA__TRY(spira__precond_alloc(A->ctx, ops, sizeof(ilu_precond), &base));
    ilu_precond *p = (ilu_precond *)base;
    spira_status s = factor_get(A, tau, fill, &p->f);
    if (s == SPIRA_OK) p->base.shift = p->f->shift;
    if (s == SPIRA_OK && ilut)
        p->base.unsymmetric = "ILUT drops entries by row and permutes and scales rows";
    else if (s == SPIRA_OK && p->f->perm)
        p->base.unsymmetric = "A has zero diagonal entries, so its rows were permuted";
    p->base.sweeps = o->trisolve_sweeps;
    p->base.isai = isai;
    if (s == SPIRA_OK && isai) {
        s = isai_get(A, tau, fill, p->f, &p->isai);
        if (s == SPIRA_OK)
            s = spira_vector_create(A->ctx, A->csr.nrows, A->csr.dtype, &p->t);
    } else if (s == SPIRA_OK && A->ctx->backend == SPIRA_BACKEND_CUDA)
        s = spira__ilu_dev_setup(p->f, p->base.sweeps);
    else if (s == SPIRA_OK)
        s = spira__alloc(A->ctx, (void **)&p->y, (size_t)A->csr.nrows * (p->base.sweeps ? 3 : 1),
                         sizeof *p->y, "incomplete LU work vectors");
    if (s != SPIRA_OK) {
        spira__precond_destroy(&p->base);
        return s;
    }
    *out = &p->base;
    return SPIRA_OK;
}

const spira__precond_ops spira__precond_ilu0 = {
    .type = SPIRA_PRECOND_ILU0,
    .name = "ilu0",
    .create = ilu_create,
    .apply = ilu_apply,
    .destroy = ilu_destroy,
};

const spira__precond_ops spira__precond_ilut = {
    .type = SPIRA_PRECOND_ILUT,
    .name = "ilut",
    .create = ilu_create,
    .apply = ilu_apply,
    .destroy = ilu_destroy,
};
