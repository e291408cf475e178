/*
 * testutil.c - random matrices of awkward shapes, the reference check, data paths.
 */
#include "testutil.h"
#include "spmv.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#include <time.h>

spira_context tu_cpu(void)
{
    spira_context ctx;
    spira_context_opts o = {.backend = SPIRA_BACKEND_CPU};
    ck_assert_int_eq(spira_context_create(&ctx, &o), SPIRA_OK);
    return ctx;
}

const char *tu_data(const char *name)
{
    static char path[4096];
    const char *dir = getenv("SPIRA_DATA");
    snprintf(path, sizeof path, "%s/%s", dir ? dir : "data", name);
    return path;
}

unsigned tu_seed(void)
{
    static unsigned seed;
    if (!seed) {
        const char *e = getenv("SPIRA_TEST_SEED");
        seed = e ? (unsigned)strtoul(e, NULL, 10) : (unsigned)time(NULL) ^ (unsigned)clock();
        if (!seed) seed = 1;
        fprintf(stderr, "test seed: %u (set SPIRA_TEST_SEED to repeat)\n", seed);
    }
    return seed;
}

double tu_uniform(unsigned *state, double lo, double hi)
{
    /* xorshift32: private, so suites do not disturb each other's sequences */
    unsigned x = *state ? *state : 1;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    *state = x;
    return lo + (hi - lo) * (x / 4294967296.0);
}

const tu_shape tu_shapes[] = {
    {"random", 500, 500},       {"empty", 0, 0},           {"one", 1, 1},
    {"empty-rows", 300, 300},   {"dense-row", 400, 400},   {"wide", 200, 900},
    {"tall", 900, 200},         {"long-row", 100, 5000},   {"equal-rows", 256, 256},
    {"tridiagonal", 1000, 1000}, {"power-law", 3000, 3000}, {"no-entries", 50, 40},
    {"one-row", 1, 700},         {"one-column", 700, 1},
    {"sparse-rows", 6000, 6000}, /* a row in 8 has entries: runs of empty rows */
};
const int tu_nshapes = sizeof tu_shapes / sizeof tu_shapes[0];

/* Column pattern of row i for shape s: appends (i, j) pairs to ri/ci. */
static void shape_row(const tu_shape *s, int32_t i, unsigned *st, int32_t *ri, int32_t *ci,
                      int64_t *k)
{
    int32_t m = s->ncols, len;
    const char *n = s->name;
    if (!strcmp(n, "no-entries")) return;
    if (!strcmp(n, "one")) len = 1;
    else if (!strcmp(n, "one-row")) len = m; /* 1 x N, dense */
    else if (!strcmp(n, "empty-rows")) len = i % 3 == 0 ? 0 : 1 + (int32_t)tu_uniform(st, 0, 8);
    else if (!strcmp(n, "sparse-rows")) len = i % 8 ? 0 : 1 + (int32_t)tu_uniform(st, 0, 10);
    else if (!strcmp(n, "dense-row")) len = i == 7 ? m : 3;
    else if (!strcmp(n, "long-row")) len = i == 50 ? 4000 : 1 + (int32_t)tu_uniform(st, 0, 5);
    else if (!strcmp(n, "equal-rows")) len = 8;
    else if (!strcmp(n, "tridiagonal")) {
        for (int32_t d = -1; d <= 1; d++)
            if (i + d >= 0 && i + d < m) ri[*k] = i, ci[(*k)++] = i + d;
        return;
    } else if (!strcmp(n, "power-law")) {
        double u = tu_uniform(st, 0, 1);
        len = (int32_t)(1.0 / (0.002 + u * u)); /* a heavy tail: a few rows of hundreds */
    } else len = 1 + (int32_t)tu_uniform(st, 0, 10);
    if (len > m) len = m;
    if (len == m) {
        for (int32_t j = 0; j < m; j++) ri[*k] = i, ci[(*k)++] = j;
        return;
    }
    for (int32_t t = 0; t < len; t++) { /* duplicates allowed: the builder sums them */
        ri[*k] = i;
        ci[(*k)++] = (int32_t)tu_uniform(st, 0, m);
    }
}

void tu_shape_triplets(const tu_shape *s, unsigned seed, tu_triplets *T)
{
    unsigned st = seed * 2654435761u + 1;
    int64_t cap = (int64_t)s->nrows * 12 + 6000 + (int64_t)s->ncols;
    if (!strcmp(s->name, "power-law")) cap = (int64_t)s->nrows * 600;
    T->ri = malloc((size_t)cap * sizeof *T->ri);
    T->ci = malloc((size_t)cap * sizeof *T->ci);
    ck_assert(T->ri && T->ci);
    int64_t k = 0;
    for (int32_t i = 0; i < s->nrows; i++) {
        shape_row(s, i, &st, T->ri, T->ci, &k);
        ck_assert_msg(k <= cap, "shape %s overflows its buffer", s->name);
    }
    T->v = malloc((size_t)(k ? k : 1) * sizeof *T->v);
    T->vf = malloc((size_t)(k ? k : 1) * sizeof *T->vf);
    ck_assert(T->v && T->vf);
    for (int64_t e = 0; e < k; e++) T->vf[e] = (float)(T->v[e] = tu_uniform(&st, -1, 1));
    T->nnz = k;
}

void tu_triplets_free(tu_triplets *T)
{
    free(T->ri), free(T->ci), free(T->v), free(T->vf);
}

spira_matrix tu_shape_matrix(spira_context ctx, const tu_shape *s, spira_dtype t, unsigned seed)
{
    tu_triplets T;
    tu_shape_triplets(s, seed, &T);
    spira_matrix A = NULL;
    spira_status rc = spira_matrix_from_coo(ctx, s->nrows, s->ncols, T.nnz, T.ri, T.ci,
                                            t == SPIRA_R64 ? (void *)T.v : (void *)T.vf, t, &A);
    ck_assert_msg(rc == SPIRA_OK, "shape %s: %s", s->name, spira_last_error(ctx));
    tu_triplets_free(&T);
    return A;
}

double tu_tol(spira_dtype t)
{
    return t == SPIRA_R64 ? 1e-13 : 2e-5;
}

void tu_check_close(const char *what, const double *y, const double *ref, const double *scale,
                    int64_t n, double tol)
{
    /* a plain test an entry, Check only on a failure: each passing ck_assert costs Check a
     * record written, which made the large cases slow */
    for (int64_t i = 0; i < n; i++) {
        double err = fabs(y[i] - ref[i]);
        if (!(isfinite(y[i]) && err <= tol * scale[i] + 1e-300))
            ck_abort_msg("%s: entry %lld is %.17g, reference %.17g (|err| %.3g > %.3g * %.3g), "
                         "seed %u",
                         what, (long long)i, y[i], ref[i], err, tol, scale[i], tu_seed());
    }
}

/* |alpha| |A| |x| + |beta| |y|, the scale of each entry's rounding error. */
static void abs_scale(const spira__csr *A, double alpha, const double *x, double beta,
                      const double *y, double *scale)
{
    for (int32_t i = 0; i < A->nrows; i++) {
        double s = 0;
        for (int32_t k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++)
            s += fabs(spira__get(A->val, A->dtype, k) * x[A->col_idx[k]]);
        scale[i] = fabs(alpha) * s + (beta == 0 ? 0 : fabs(beta * y[i]));
    }
}

int tu_check_format(spira_context ctx, spira_matrix A, const char *name, const char *options,
                    const char *label, unsigned seed)
{
    const spira__csr *c = &A->csr;
    int32_t n = c->ncols, m = c->nrows;
    spira_dtype t = c->dtype;
    unsigned st = seed ^ 0x9e3779b9u;
    double *x = malloc(((size_t)n + 1) * sizeof *x), *y0 = malloc(((size_t)m + 1) * sizeof *y0);
    double *ref = malloc(((size_t)m + 1) * sizeof *ref), *out = malloc(((size_t)m + 1) * sizeof *out);
    double *scale = malloc(((size_t)m + 1) * sizeof *scale);
    ck_assert(x && y0 && ref && out && scale);
    spira_vector vx, vy;
    ck_assert_int_eq(spira_vector_create(ctx, n, t, &vx), SPIRA_OK);
    ck_assert_int_eq(spira_vector_create(ctx, m, t, &vy), SPIRA_OK);
    int runs = 0;
    {
        const double ab[2][2] = {{1.5, 0.0}, {-0.75, 0.5}};
        spira_status rc = spira_matrix_set_format(A, name, options);
        ck_assert_int_eq(rc, SPIRA_OK);
        for (int cse = 0; cse < 2; cse++) {
            double alpha = ab[cse][0], beta = ab[cse][1];
            /* values exactly representable in float, so both precisions see one input */
            for (int32_t j = 0; j < n; j++) x[j] = (float)tu_uniform(&st, -1, 1);
            for (int32_t i = 0; i < m; i++) y0[i] = beta == 0 ? NAN : (float)tu_uniform(&st, -1, 1);
            memcpy(ref, y0, (size_t)m * sizeof *ref);
            spira__csr_spmv_f64(c, alpha, x, beta, ref);
            abs_scale(c, alpha, x, beta, y0, scale);
            ck_assert_int_eq(spira_vector_set_f64(vx, x), SPIRA_OK);
            ck_assert_int_eq(spira_vector_set_f64(vy, y0), SPIRA_OK);
            rc = spira_spmv(alpha, A, vx, beta, vy);
            /* a documented refusal (ELL/DIA fill), or a GPU-only format on the CPU */
            if (rc == SPIRA_ERR_UNSUPPORTED && (strstr(spira_last_error(ctx), "refuse") ||
                                                strstr(spira_last_error(ctx), "needs the CUDA")))
                break;
            ck_assert_msg(rc == SPIRA_OK, "%s, format %s: %s (%s)", label, name,
                          spira_status_name(rc), spira_last_error(ctx));
            ck_assert_int_eq(spira_vector_get_f64(vy, out), SPIRA_OK);
            char what[160];
            snprintf(what, sizeof what, "%s, format %s%s%s, %s, alpha %g beta %g", label, name,
                     options ? " " : "", options ? options : "",
                     t == SPIRA_R64 ? "double" : "float", alpha, beta);
            tu_check_close(what, out, ref, scale, m, tu_tol(t) * (1 + sqrt((double)c->nnz / (m ? m : 1))));
            runs++;
        }
    }
    spira_vector_destroy(vx);
    spira_vector_destroy(vy);
    free(x);
    free(y0);
    free(ref);
    free(out);
    free(scale);
    return runs;
}

const char *const tu_format_variants[][2] = {
    {"hyb", "min_rows=0"},   {"hyb", "ell_width=2,interval=64"}, {"ell", "max_fill=1000"},
    {"dia", "max_fill=300"}, {"coo", "interval=32"},             {"coo", "interval=96"},
    {"coo", "interval=4096"},          {"lightspmv", "level=vector"},
    {"lightspmv", "batch=1"},          {"lightspmv", "level=vector,batch=1"},
    {"lightspmv", "lanes=32,batch=7"}, {"lightspmv", "level=vector,lanes=2,batch=3"},
    {"cmrs", "height=1"},              {"cmrs", "height=2"},
    {"cmrs", "height=8"},              {"cmrs", "height=16"},
    {"suraa", "segment=1"},            {"suraa", "segment=7,children=5"},
    {"suraa", "g3=scalar"},            {"suraa", "children=0"},
    {"sell", "sigma=1"},               {"sell", "sigma=32"},
    {"sell", "sigma=4096"},            {"sell", "unit=0"},
    {"merge", "items=1"},              {"merge", "items=3"},
    {"merge", "items=32"},             {"merge", "items=17"},
};
const int tu_nformat_variants = sizeof tu_format_variants / sizeof tu_format_variants[0];

const char *const tu_bundled[] = {"1138_bus.mtx", "adder_dcop_05.mtx", "bayer10.mtx.gz",
                                  "bcsstk01.mtx", "email-Eu-core.mtx", "gr_30_30.mtx",
                                  "mbeacxc.mtx.gz", "orsirr_1.mtx", "pores_1.mtx",
                                  "sherman5.mtx", "west0067.mtx"};
const int tu_nbundled = sizeof tu_bundled / sizeof tu_bundled[0];

int tu_check_all_formats(spira_context ctx, spira_matrix A, const char *label, unsigned seed)
{
    int runs = 0;
    for (int f = 0; f < spira_format_count(); f++) {
        const char *name;
        spira_format_describe(f, &name, NULL);
        runs += tu_check_format(ctx, A, name, NULL, label, seed + 7919u * (unsigned)f);
    }
    return runs;
}

long tu_solve_allocation_walk(spira_matrix A, spira_solver_type st, const spira_solve_opts *o)
{
    spira_context ctx = A->ctx;
    spira_vector b, x;
    ck_assert_int_eq(spira_vector_create(ctx, A->csr.nrows, A->csr.dtype, &b), SPIRA_OK);
    ck_assert_int_eq(spira_vector_create(ctx, A->csr.ncols, A->csr.dtype, &x), SPIRA_OK);
    ck_assert_int_eq(spira_vector_fill(b, 1), SPIRA_OK);
    spira_status s = SPIRA_ERR_NOMEM;
    long k;
    for (k = 1; k < 1000 && s != SPIRA_OK; k++) {
        const long live = spira__alloc_live();
        spira_matrix T, C; /* A^T^T: A itself, with an empty cache */
        ck_assert_int_eq(spira_matrix_transpose(A, &T), SPIRA_OK);
        ck_assert_int_eq(spira_matrix_transpose(T, &C), SPIRA_OK);
        spira_matrix_destroy(T);
        ck_assert_int_eq(spira_vector_fill(x, 0), SPIRA_OK);
        spira__alloc_fail_at(k);
        s = spira_solve(st, C, b, x, o, NULL);
        spira__alloc_fail_at(0);
        spira_matrix_destroy(C);
        if (s != SPIRA_OK) ck_assert_msg(s == SPIRA_ERR_NOMEM, "allocation %ld: %s", k,
                                         spira_last_error(ctx));
        ck_assert_msg(spira__alloc_live() == live, "allocation %ld failing left %ld blocks", k,
                      spira__alloc_live() - live);
    }
    ck_assert_int_eq(s, SPIRA_OK);
    spira_vector_destroy(x), spira_vector_destroy(b);
    return k - 1;
}

/* b = A * xtrue with xtrue fresh random in [0.5, 1.5), so the solution is known. */
spira_vector tu_rhs(spira_matrix A, spira_vector *xtrue, unsigned seed)
{
    spira_matrix_info mi;
    spira_matrix_get_info(A, &mi);
    double *h = malloc(mi.nrows * sizeof *h);
    for (int64_t i = 0; i < mi.nrows; i++) h[i] = tu_uniform(&seed, 0.5, 1.5);
    spira_vector b;
    ck_assert_int_eq(spira_vector_create(A->ctx, mi.nrows, mi.dtype, &b), SPIRA_OK);
    ck_assert_int_eq(spira_vector_create(A->ctx, mi.nrows, mi.dtype, xtrue), SPIRA_OK);
    spira_vector_set_f64(*xtrue, h);
    ck_assert_int_eq(spira_spmv(1.0, A, *xtrue, 0.0, b), SPIRA_OK);
    free(h);
    return b;
}

void tu_vectors_for(spira_matrix A, spira_vector *b, spira_vector *x)
{
    spira_matrix_info mi;
    ck_assert_int_eq(spira_matrix_get_info(A, &mi), SPIRA_OK);
    ck_assert_int_eq(spira_vector_create(A->ctx, mi.nrows, mi.dtype, b), SPIRA_OK);
    ck_assert_int_eq(spira_vector_create(A->ctx, mi.ncols, mi.dtype, x), SPIRA_OK);
}

/* max |x - xtrue| */
double tu_max_err(spira_vector x, spira_vector xt)
{
    int64_t n = spira_vector_length(x);
    double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), m = 0;
    spira_vector_get_f64(x, a);
    spira_vector_get_f64(xt, b);
    for (int64_t i = 0; i < n; i++) m = fmax(m, fabs(a[i] - b[i]));
    free(a), free(b);
    return m;
}

/* From COO with double values, stored in dtype t (the API takes values in t). */
spira_matrix tu_coo(spira_context ctx, int32_t n, int32_t nnz, const int32_t *ri,
                        const int32_t *ci, const double *v, spira_dtype t)
{
    float *f = malloc((nnz ? nnz : 1) * sizeof *f);
    for (int32_t k = 0; k < nnz; k++) f[k] = (float)v[k];
    spira_matrix A;
    ck_assert_int_eq(spira_matrix_from_coo(ctx, n, n, nnz, ri, ci,
                                           t == SPIRA_R64 ? (const void *)v : f, t, &A),
                     SPIRA_OK);
    free(f);
    return A;
}

spira_matrix tu_hub_matrix(spira_context ctx, int32_t n, spira_dtype t, int ones, unsigned seed)
{
    enum { hubs = 5000 };
    const int64_t cap = (int64_t)n * 7 + 7450;
    int32_t *ri = malloc((size_t)cap * sizeof *ri), *ci = malloc((size_t)cap * sizeof *ci);
    double *v = malloc((size_t)cap * sizeof *v);
    ck_assert(ri && ci && v);
    int32_t k = 0;
    for (int32_t i = 0; i < n; i++) {
        const int32_t len = i == 7 ? 300 : i == 900 ? 150 : i == 5000 ? 7000 : 7;
        for (int32_t j = 0; j < len; j++, k++) {
            ri[k] = i;
            if (len > 7) /* 337 is prime to n (a multiple of 20 that 337 does not divide):
                          * distinct columns, hubs among them */
                ci[k] = (int32_t)((int64_t)j * 337 % n);
            else if (j < 6) /* 823 j distinct mod 5,000 for j < 6 */
                ci[k] = (int32_t)(((int64_t)i * 7 + (int64_t)j * 823) % hubs * 20);
            else /* not a multiple of 20 */
                ci[k] = 20 * (int32_t)tu_uniform(&seed, 0, n / 20) + 1 + (int32_t)tu_uniform(&seed, 0, 19);
            const double u = tu_uniform(&seed, -1, 1);
            v[k] = ones ? 1.0 : u;
        }
    }
    spira_matrix A = tu_coo(ctx, n, k, ri, ci, v, t);
    free(ri), free(ci), free(v);
    return A;
}

spira_matrix tu_kershaw(spira_context ctx, spira_dtype t)
{
    static const int32_t ri[] = {0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3};
    static const int32_t ci[] = {0, 1, 3, 0, 1, 2, 1, 2, 3, 0, 2, 3};
    static const double v[] = {3, -2, 2, -2, 3, -2, -2, 3, -2, 2, -2, 3};
    return tu_coo(ctx, 4, 12, ri, ci, v, t);
}

void tu_assert_error_has(spira_context ctx, const char *text)
{
    ck_assert_msg(strstr(spira_last_error(ctx), text), "error '%s' lacks '%s'",
                  spira_last_error(ctx), text);
}

/* ---- incomplete LU with Jacobi sweeps for its triangular solves ---- */

const int tu_ntrisolve_cases = 10;

/* A random n x n matrix: a random permutation's entries (so it is structurally
 * nonsingular), about density n^2 more in [-4, 4], and with dominant a diagonal of 4 n. */
spira_matrix tu_random_square(spira_context ctx, int32_t n, double density, int dominant,
                              spira_dtype t, unsigned seed)
{
    int32_t cap = n * n + 2 * n, k = 0, *perm = malloc(n * sizeof *perm);
    int32_t *ri = malloc(cap * sizeof *ri), *ci = malloc(cap * sizeof *ci);
    double *v = malloc(cap * sizeof *v);
    for (int32_t i = 0; i < n; i++) perm[i] = i;
    for (int32_t i = n - 1; i > 0; i--) {
        int32_t j = (int32_t)tu_uniform(&seed, 0, i + 1), s = perm[i];
        perm[i] = perm[j], perm[j] = s;
    }
    for (int32_t i = 0; i < n; i++) {
        ri[k] = i, ci[k] = perm[i], v[k++] = tu_uniform(&seed, 0.5, 4);
        if (dominant) ri[k] = i, ci[k] = i, v[k++] = 4 * n;
        for (int32_t j = 0; j < n; j++)
            if (tu_uniform(&seed, 0, 1) < density)
                ri[k] = i, ci[k] = j, v[k++] = tu_uniform(&seed, -4, 4);
    }
    spira_matrix A = tu_coo(ctx, n, k, ri, ci, v, t);
    free(ri), free(ci), free(v), free(perm);
    return A;
}

/* n x n with the diagonal (2 + i % 3) and, with lower / upper, the first sub- or
 * superdiagonal (-1) and, with far, the third (0.5): triangular matrices, whose factor has
 * one strict triangle empty, or tridiagonal ones, whose ILU(0) is exact and whose sweeps
 * need n - 1 steps to be. */
static spira_matrix banded(spira_context ctx, int32_t n, int lower, int upper, int far,
                           spira_dtype t)
{
    int32_t *ri = malloc(5 * n * sizeof *ri), *ci = malloc(5 * n * sizeof *ci), k = 0;
    double *v = malloc(5 * n * sizeof *v);
    for (int32_t i = 0; i < n; i++) {
        ri[k] = i, ci[k] = i, v[k++] = 2 + i % 3;
        if (lower && i > 0) ri[k] = i, ci[k] = i - 1, v[k++] = -1;
        if (far && lower && i > 2) ri[k] = i, ci[k] = i - 3, v[k++] = 0.5;
        if (upper && i + 1 < n) ri[k] = i, ci[k] = i + 1, v[k++] = -1;
        if (far && upper && i + 3 < n) ri[k] = i, ci[k] = i + 3, v[k++] = 0.5;
    }
    spira_matrix A = tu_coo(ctx, n, k, ri, ci, v, t);
    free(ri), free(ci), free(v);
    return A;
}

spira_matrix tu_trisolve_case(spira_context ctx, int i, spira_dtype t, unsigned seed,
                              spira_precond_type *pc, const char **label)
{
    static const char *const labels[] = {
        "random 40, dominant",        "random 40, zero diagonal entries (P != I)",
        "random 40, ILUT",            "1 x 1",
        "diagonal 7 (empty triangles)", "lower triangular 9 (U strictly empty)",
        "upper triangular 9 (L strictly empty)", "random 120, rows of ~60 (V = 32)",
        "tridiagonal 50 (depth 49)",  "Laplacian 2-D 300^2 (90,000 rows)"};
    *pc = i == 2 ? SPIRA_PRECOND_ILUT : SPIRA_PRECOND_ILU0;
    *label = labels[i];
    spira_matrix A = NULL;
    switch (i) {
    case 0: A = tu_random_square(ctx, 40, 0.1, 1, t, seed); break;
    case 1: A = tu_random_square(ctx, 40, 0.1, 0, t, seed); break;
    case 2: A = tu_random_square(ctx, 40, 0.15, 0, t, seed); break;
    case 3: A = banded(ctx, 1, 1, 1, 0, t); break;
    case 4: A = banded(ctx, 7, 0, 0, 0, t); break;
    case 5: A = banded(ctx, 9, 1, 0, 1, t); break;
    case 6: A = banded(ctx, 9, 0, 1, 1, t); break;
    case 7: A = tu_random_square(ctx, 120, 0.5, 1, t, seed); break;
    case 8: A = banded(ctx, 50, 1, 1, 0, t); break;
    default: ck_assert_int_eq(spira_matrix_laplacian(ctx, 2, 300, t, &A), SPIRA_OK);
    }
    return A;
}

void tu_ilu_reference(const spira__ilu_factor *f, int sweeps, const double *r, double *z,
                      double *scale)
{
    const spira__csr *lu = &f->lu;
    const int32_t n = lu->nrows, *rp = lu->row_ptr, *ci = lu->col_idx, *dg = f->diag;
    size_t bytes = (n ? n : 1) * sizeof(double);
    double *b = malloc(bytes), *ab = malloc(bytes), *x = malloc(bytes), *ax = malloc(bytes);
    double *nx = malloc(bytes), *nax = malloc(bytes);
#define V(q) spira__get(lu->val, lu->dtype, q)
    for (int32_t i = 0; i < n; i++) {
        b[i] = r[f->perm ? f->perm[i] : i];
        ab[i] = fabs(b[i]);
    }
    /* L y = P r, then U z = y: exactly (substitution), or by the sweeps */
    if (!sweeps) {
        for (int32_t i = 0; i < n; i++) {
            x[i] = b[i], ax[i] = ab[i];
            for (int32_t q = rp[i]; q < dg[i]; q++)
                x[i] -= V(q) * x[ci[q]], ax[i] += fabs(V(q)) * ax[ci[q]];
        }
        for (int32_t i = n - 1; i >= 0; i--) {
            double s = x[i], as = ax[i];
            for (int32_t q = dg[i] + 1; q < rp[i + 1]; q++)
                s -= V(q) * z[ci[q]], as += fabs(V(q)) * scale[ci[q]];
            z[i] = s / V(dg[i]);
            scale[i] = as / fabs(V(dg[i]));
        }
    } else {
        memcpy(x, b, bytes), memcpy(ax, ab, bytes);
        for (int j = 0; j < sweeps; j++) {
            for (int32_t i = 0; i < n; i++) {
                nx[i] = b[i], nax[i] = ab[i];
                for (int32_t q = rp[i]; q < dg[i]; q++)
                    nx[i] -= V(q) * x[ci[q]], nax[i] += fabs(V(q)) * ax[ci[q]];
            }
            memcpy(x, nx, bytes), memcpy(ax, nax, bytes);
        }
        memcpy(b, x, bytes), memcpy(ab, ax, bytes); /* b = y_K */
        for (int32_t i = 0; i < n; i++) {
            z[i] = b[i] / V(dg[i]);
            scale[i] = ab[i] / fabs(V(dg[i]));
        }
        for (int j = 0; j < sweeps; j++) {
            for (int32_t i = 0; i < n; i++) {
                double s = b[i], as = ab[i];
                for (int32_t q = dg[i] + 1; q < rp[i + 1]; q++)
                    s -= V(q) * z[ci[q]], as += fabs(V(q)) * scale[ci[q]];
                nx[i] = s / V(dg[i]);
                nax[i] = as / fabs(V(dg[i]));
            }
            memcpy(z, nx, bytes), memcpy(scale, nax, bytes);
        }
    }
#undef V
    free(b), free(ab), free(x), free(ax), free(nx), free(nax);
}

double tu_trisolve_tol(const spira__ilu_factor *f, int sweeps, spira_dtype t)
{
    int32_t longest = 0;
    for (int32_t i = 0; i < f->lu.nrows; i++)
        if (f->lu.row_ptr[i + 1] - f->lu.row_ptr[i] > longest)
            longest = f->lu.row_ptr[i + 1] - f->lu.row_ptr[i];
    const double u = t == SPIRA_R64 ? 0x1p-53 : 0x1p-24;
    /* each step (a sweep, or a row of a substitution, which may wait on n - 1 others) adds
     * at most (terms + 1) units of rounding times the entry's scale; 4x to spare */
    const int steps = sweeps ? 2 * sweeps + 2 : 2 * f->lu.nrows + 2;
    return 4.0 * steps * (longest + 2) * u;
}

/* The longest chain in f's strict lower (upper: 1) triangle, in edges. */
static int32_t ilu_chain(const spira__ilu_factor *f, int upper)
{
    const int32_t n = f->lu.nrows, *rp = f->lu.row_ptr, *ci = f->lu.col_idx;
    int32_t *level = calloc(n ? n : 1, sizeof *level), deepest = 0;
    ck_assert_ptr_nonnull(level);
    for (int32_t s = 0; s < n; s++) {
        int32_t i = upper ? n - 1 - s : s;
        for (int32_t q = upper ? f->diag[i] + 1 : rp[i]; q < (upper ? rp[i + 1] : f->diag[i]); q++)
            if (level[ci[q]] + 1 > level[i]) level[i] = level[ci[q]] + 1;
        if (level[i] > deepest) deepest = level[i];
    }
    free(level);
    return deepest;
}

int32_t tu_ilu_depth(const spira__ilu_factor *f)
{
    const int32_t lower = ilu_chain(f, 0), upper = ilu_chain(f, 1);
    const int32_t K = lower > upper ? lower : upper;
    return K < 1 ? 1 : K;
}

void tu_ilu_exact_scale(const spira__ilu_factor *f, int K, const double *r, double *zr,
                        double *scale)
{
    const int32_t n = f->lu.nrows;
    double *se = malloc((n ? n : 1) * sizeof *se);
    ck_assert_ptr_nonnull(se);
    tu_ilu_reference(f, 0, r, zr, se);
    tu_ilu_reference(f, K, r, zr, scale);
    for (int32_t i = 0; i < n; i++) scale[i] = fmax(scale[i], se[i]);
    free(se);
}

void tu_check_scaled(const char *what, const double *z, const double *ref, const double *scale,
                     int64_t n, double tol)
{
    for (int64_t i = 0; i < n; i++)
        ck_assert_msg(fabs(z[i] - ref[i]) <= tol * scale[i] + 1e-300,
                      "%s (seed %u): z[%lld] = %.17g, reference %.17g (scale %g, tol %g)", what,
                      tu_seed(), (long long)i, z[i], ref[i], scale[i], tol);
}

spira_context tu_dev_ctx, tu_host_ctx;

static spira_context deterministic_cuda(int host_convert)
{
    spira_context c;
    spira_context_opts o = {.backend = SPIRA_BACKEND_CUDA, .deterministic = 1};
    spira_status s = spira_context_create(&c, &o);
    ck_assert_msg(s == SPIRA_OK, "deterministic CUDA context: %s", spira_last_error(c));
    c->host_convert = host_convert;
    return c;
}

void tu_convert_contexts_make(void)
{
    tu_dev_ctx = deterministic_cuda(0);
    tu_dev_ctx->poison_builds = 1; /* a slot a GPU conversion leaves unwritten shows */
    tu_host_ctx = deterministic_cuda(1);
}

void tu_convert_contexts_free(void)
{
    spira_context_destroy(tu_dev_ctx);
    spira_context_destroy(tu_host_ctx);
    tu_dev_ctx = tu_host_ctx = NULL;
}

void tu_convert_pair_file(const char *name, spira_matrix *Ad, spira_matrix *Ah)
{
    ck_assert_int_eq(spira_matrix_read_mm(tu_dev_ctx, tu_data(name), SPIRA_R64, Ad), SPIRA_OK);
    ck_assert_int_eq(spira_matrix_read_mm(tu_host_ctx, tu_data(name), SPIRA_R64, Ah), SPIRA_OK);
}

void tu_convert_pair_shape(const tu_shape *s, spira_dtype t, unsigned seed, spira_matrix *Ad,
                           spira_matrix *Ah)
{
    *Ad = tu_shape_matrix(tu_dev_ctx, s, t, seed);
    *Ah = tu_shape_matrix(tu_host_ctx, s, t, seed);
}

int tu_convert_plans(spira_matrix Ad, spira_matrix Ah, const char *name, const char *opts,
                     const char *label, spira__spmv_plan **pd, spira__spmv_plan **ph)
{
    *pd = *ph = NULL;
    spira_status sd = spira_matrix_set_format(Ad, name, opts);
    if (sd == SPIRA_OK) sd = spira__spmv_plan_get(Ad, pd);
    char msg[1024];
    snprintf(msg, sizeof msg, "%s", spira_last_error(tu_dev_ctx));
    spira_status sh = spira_matrix_set_format(Ah, name, opts);
    if (sh == SPIRA_OK) sh = spira__spmv_plan_get(Ah, ph);
    ck_assert_msg(sd == sh, "%s %s:%s: on the GPU %s (%s), on the host %s (%s)", label, name,
                  opts ? opts : "", spira_status_name(sd), msg, spira_status_name(sh),
                  spira_last_error(tu_host_ctx));
    if (sd == SPIRA_OK) return 1;
    ck_assert_msg(sd == SPIRA_ERR_UNSUPPORTED, "%s %s:%s: %s", label, name, opts ? opts : "",
                  msg);
    ck_assert_str_eq(msg, spira_last_error(tu_host_ctx));
    return 0;
}

spira_gf2_matrix tu_gf2_identity(spira_context ctx, int32_t n)
{
    int32_t *idx = malloc(((size_t)n + 1) * sizeof *idx);
    ck_assert_ptr_nonnull(idx);
    for (int32_t i = 0; i < n; i++) idx[i] = i;
    spira_gf2_matrix I;
    ck_assert_int_eq(spira_gf2_matrix_from_coo(ctx, n, n, n, idx, idx, &I), SPIRA_OK);
    free(idx);
    return I;
}

void tu_gf2_kernel_none(spira_gf2_matrix M, spira_gf2_block K, const spira_gf2_kernel_opts *o,
                        const char *says)
{
    spira_gf2_kernel_info info;
    ck_assert_int_eq(spira_gf2_kernel(M, K, o, &info), SPIRA_ERR_NOT_CONVERGED);
    tu_assert_error_has(K->ctx, says);
    ck_assert_int_eq(info.found, 0);
    const int32_t n = K->nrows;
    uint64_t *k = malloc(((size_t)n + 1) * sizeof *k);
    ck_assert_ptr_nonnull(k);
    ck_assert_int_eq(spira_gf2_block_get(K, k), SPIRA_OK);
    for (int32_t i = 0; i < n; i++) ck_assert(k[i] == 0);
    free(k);
}

int32_t *tu_random_perm(int32_t n, unsigned *seed)
{
    int32_t *p = malloc((n ? n : 1) * sizeof *p);
    for (int32_t i = 0; i < n; i++) p[i] = i;
    for (int32_t i = n - 1; i > 0; i--) {
        int32_t j = (int32_t)tu_uniform(seed, 0, i + 1), t = p[i];
        p[i] = p[j], p[j] = t;
    }
    return p;
}

spira_matrix tu_scrambled_band(spira_context ctx, int32_t n, int32_t w, int upper,
                               spira_dtype t, unsigned seed)
{
    int32_t *p = tu_random_perm(n, &seed), cap = n * (2 * w + 1), k = 0;
    int32_t *ri = malloc(cap * sizeof *ri), *ci = malloc(cap * sizeof *ci);
    double *v = malloc(cap * sizeof *v);
    for (int32_t i = 0; i < n; i++) {
        ri[k] = p[i], ci[k] = p[i], v[k++] = 2 * w + 1;
        for (int32_t j = i + 1; j <= i + w && j < n; j++) {
            double a = tu_uniform(&seed, -1, 0);
            ri[k] = p[i], ci[k] = p[j], v[k++] = a;
            if (!upper) ri[k] = p[j], ci[k] = p[i], v[k++] = a;
        }
    }
    spira_matrix A = tu_coo(ctx, n, k, ri, ci, v, t);
    free(ri), free(ci), free(v), free(p);
    return A;
}

int tu_omp_threads(int n)
{
#ifdef _OPENMP
    const int before = omp_get_max_threads();
    if (n >= 1) omp_set_num_threads(n);
    return before;
#else
    (void)n;
    return 1;
#endif
}
