/*
 * testutil.h - shared by the test suites: data paths, fresh random matrices of awkward
 * shapes, the double-precision reference and the closeness check.
 */
#ifndef SPIRA_TESTUTIL_H
#define SPIRA_TESTUTIL_H

#include <check.h>

#include "spira_impl.h"
#include "spmv.h"
#include "ilu.h"

/* A fresh CPU-backend context (asserts it was created). */
spira_context tu_cpu(void);
/* Path of a bundled file under data/ (static buffer). */
const char *tu_data(const char *name);
/* The seed of this run (fresh each run unless SPIRA_TEST_SEED is set); printed on failure. */
unsigned tu_seed(void);
/* Uniform in [lo, hi) from a private generator. */
double tu_uniform(unsigned *state, double lo, double hi);

/* Awkward shapes every format must multiply correctly. */
typedef struct {
    const char *name;
    int32_t nrows, ncols;
} tu_shape;
extern const tu_shape tu_shapes[];
/* The matrices under data/ (names for tu_data). */
extern const char *const tu_bundled[];
extern const int tu_nbundled;
extern const int tu_nshapes;
/* The triplets of a fresh random matrix of shape s (values in [-1, 1], exactly
 * representable in float; duplicates possible), in plain malloc'd arrays. */
typedef struct {
    int32_t *ri, *ci;
    double *v;
    float *vf;
    int64_t nnz;
} tu_triplets;
void tu_shape_triplets(const tu_shape *s, unsigned seed, tu_triplets *T);
void tu_triplets_free(tu_triplets *T);
/* A fresh random matrix of shape s (values in [-1, 1]). */
spira_matrix tu_shape_matrix(spira_context ctx, const tu_shape *s, spira_dtype t, unsigned seed);

/* Check y against ref entrywise: |y - ref| <= tol * scale_i + tiny, where scale is the
 * row's sum of |terms| (so cancellation does not make the bound meaningless). */
void tu_check_close(const char *what, const double *y, const double *ref, const double *scale,
                    int64_t n, double tol);

/* The context's last error contains text (the failure message shows both). */
void tu_assert_error_has(spira_context ctx, const char *text);

/* Relative accuracy to expect from SpMV in a dtype (a few ulps times row length). */
double tu_tol(spira_dtype t);

/* y <- alpha A x + beta y with every registered format, checked against the double
 * reference, y poisoned (NaN) when beta = 0. A format may decline only with
 * SPIRA_ERR_UNSUPPORTED and a message saying it refuses (ELL/DIA fill limits) or, on the
 * CPU backend, that it needs CUDA. Returns the number of (format, case) runs checked. */
int tu_check_all_formats(spira_context ctx, spira_matrix A, const char *label, unsigned seed);
/* The same for one format with an options string (may be NULL); returns the number of
 * cases checked (0 when it refused). */
int tu_check_format(spira_context ctx, spira_matrix A, const char *name, const char *options,
                    const char *label, unsigned seed);

/* Format variants, {name, options}, that reach code the defaults skip on small matrices:
 * HYB with an ELL part (its 4096-row floor otherwise makes it pure COO), ELL and DIA past
 * their default fill limits, short and long COO intervals (GPU: one chunk or many per warp,
 * rows spanning many warps), SELL unsorted, in one-slice windows and in wide ones, merge
 * with shares from 1 step (a row spans as many threads as it has entries) to 1024). */
extern const char *const tu_format_variants[][2];
extern const int tu_nformat_variants;

/* GF(2) (test_gf2.c): the matrix of the triplets (repeats cancel) with every GF(2)
 * format variant and width 64, 128, 256 on ctx, against the XOR of the triplets, Y poisoned
 * (all bits set); returns the runs checked. And n rows of `weight` entries with low columns
 * dense, as a number-field-sieve matrix has (v and vf NULL). */
int tu_gf2_check(spira_context ctx, int32_t nrows, int32_t ncols, int64_t nnz,
                 const int32_t *ri, const int32_t *ci, const char *label, unsigned seed);
void tu_gf2_nfs_triplets(int32_t n, int weight, unsigned seed, tu_triplets *T);
/* Fail each allocation in turn of building a matrix, blocks, every variant's plan, a
 * multiply and a kernel search on ctx: NOMEM or success, never a crash (leaks show under a
 * leak checker). */
void tu_gf2_alloc_walk(spira_context ctx);
/* m x n with `weight` uniform random columns a row (repeats possible: they cancel). */
void tu_gf2_wide_triplets(int32_t m, int32_t n, int weight, unsigned seed, tu_triplets *T);
/* spira_gf2_kernel of the triplets' matrix with format on ctx and seed: asserts it finds a
 * vector, that the found columns of K are nonzero and sent to 0 (by the triplets), the
 * others empty; returns the found lanes, K (n words) copied out. */
uint64_t tu_gf2_kernel_check(spira_context ctx, int32_t m, int32_t n, const tu_triplets *T,
                             const char *format, uint64_t seed, uint64_t *K);
extern const char *const tu_gf2_variants[][2];
extern const int tu_gf2_nvariants;
/* The devices tu_gf2_check and tu_gf2_kernel_run split their matrices over (1 unless a
 * test sets it: test_gf2_devices.c). */
extern int tu_gf2_devices;
/* The n x n identity over GF(2) on ctx. */
spira_gf2_matrix tu_gf2_identity(spira_context ctx, int32_t n);
/* spira_gf2_kernel(M, K, o) finds nothing: NOT_CONVERGED saying says, info's found 0, and K
 * (nrows words, 64 bits) left zero. */
void tu_gf2_kernel_none(spira_gf2_matrix M, spira_gf2_block K, const spira_gf2_kernel_opts *o,
                        const char *says);

/* Suites */
Suite *suite_context(void);
Suite *suite_csr(void);
Suite *suite_blas(void);
Suite *suite_spmv(void);
Suite *suite_solvers(void);
Suite *suite_krylov(void);
Suite *suite_eigen(void);
Suite *suite_ilu(void);
Suite *suite_mmio(void);
Suite *suite_faults(void);
Suite *suite_threads(void);
Suite *suite_determinism(void);
Suite *suite_gf2(void);
Suite *suite_property(void);
/* Every format `runs` times and a BiCGSTAB solve twice: bitwise equal (test_determinism.c). */
void tu_check_bitwise(spira_context ctx, int runs);
/* spira__dots and spira__cg_update on ctx against double loops (test_blas.c). */
void tu_check_fused_blas(spira_context ctx, spira_dtype t, int32_t n, unsigned seed);

/* The n-th allocation fails for n = 1, 2, ... through a workflow over every format on ctx
 * (NULL: a CPU context made inside, its own allocations walked too); variant 0..3 picks
 * the shape and precision (test_faults.c). */
void tu_check_allocation_walk(spira_context ctx, int variant);

/* OpenMP's threads for the next parallel regions set to n (n < 1: left as they are); returns
 * the number before (1 in a build without OpenMP, where nothing is set). */
int tu_omp_threads(int n);
/* Two threads with a context each solve at once and match their lone runs (test_threads.c). */
void tu_check_two_threads(spira_backend backend);
/* A staged CG on ctx builds `format` beside its first iterations (the test hook
 * ctx->background_format) and takes it once built: A caches it, the reason says so, its
 * multiply is right, x as without it (the same bits on the CPU, whose looks keep
 * csr-scalar); a build that fails is reported in the reason and is not the solve's error;
 * nothing leaks. */
void tu_check_built_beside(spira_context ctx, const char *format);
Suite *suite_pkt(void);
Suite *suite_reorder(void);
Suite *suite_isai(void);
/* The n-th allocation fails for n = 1, 2, ... through reordered solves (RCM with IC(0) by
 * CG, degree with Jacobi by a reused BiCGSTAB solver, PageRank in RCM order, power
 * iteration in degree order) on ctx (NULL: a CPU context made
 * inside): NOMEM or success, nothing leaked (test_reorder.c). */
void tu_check_reorder_walk(spira_context ctx);
/* A fresh random permutation of 0..n-1 (malloc'd). */
int32_t *tu_random_perm(int32_t n, unsigned *seed);
/* An n x n band of half-width w, every entry in the band stored, randomly numbered
 * (entry (p[i], p[j]) for |i - j| <= w): symmetric with diagonal 2w + 1 and off-diagonals
 * in [-1, 0) (SPD, by dominance), or with upper only the diagonal and the upper band (a
 * pattern that is not structurally symmetric). */
spira_matrix tu_scrambled_band(spira_context ctx, int32_t n, int32_t w, int upper,
                               spira_dtype t, unsigned seed);
/* check_gpu's case for the reordered solves (gpu_reorder.c) on ctx. */
TCase *tu_gpu_reorder_tcase(spira_context ctx);
Suite *suite_formats(void);

/* b = A * xtrue with xtrue fresh random in [0.5, 1.5), so the solution is known. */
spira_vector tu_rhs(spira_matrix A, spira_vector *xtrue, unsigned seed);
/* Every allocation of spira_solve(st, A', ones, x, o) fails in turn, n = 1, 2, ..., A' a
 * fresh copy of A each time (so what A's cache would keep, factors and inverses, is built
 * again): SPIRA_ERR_NOMEM and no block left behind, until the solve succeeds; returns n. */
long tu_solve_allocation_walk(spira_matrix A, spira_solver_type st, const spira_solve_opts *o);
/* b with A's rows and x with its columns, zero, in A's dtype on A's context. */
void tu_vectors_for(spira_matrix A, spira_vector *b, spira_vector *x);
/* max |x - xtrue| */
double tu_max_err(spira_vector x, spira_vector xt);
/* A square n x n matrix from COO with double values, stored in dtype t. */
spira_matrix tu_coo(spira_context ctx, int32_t n, int32_t nnz, const int32_t *ri,
                    const int32_t *ci, const double *v, spira_dtype t);
/* A square n x n matrix (n >= 100,000, a multiple of 20) whose columns are hubs as sell.h
 * means them: every row 6 entries among 5,000 hub columns (every 20th below 100,000) and one
 * at a random other column, rows 7, 900 and 5,000 long (300, 150 and 7,000 entries over all
 * columns); values in [-1, 1], or all 1 (ones). */
spira_matrix tu_hub_matrix(spira_context ctx, int32_t n, spira_dtype t, int ones, unsigned seed);
/* Kershaw's 4 x 4 SPD matrix, whose IC(0) has the pivots 3, 5/3, 3/5, -5: the case for
 * the incomplete factorization's diagonal shift (diagonally dominant from alpha = 4/3 on). */
spira_matrix tu_kershaw(spira_context ctx, spira_dtype t);

/* Matrices for the incomplete LU with Jacobi sweeps for its triangular solves (test_ilu.c,
 * gpu_trisolve.c), case 0..tu_ntrisolve_cases-1: random (dominant; with zero diagonal
 * entries, so P != I; ILUT), awkward (1 x 1, diagonal, triangular: empty triangle rows),
 * long rows, a deep chain, a large 2-D Laplacian. *pc: the preconditioner to take. */
extern const int tu_ntrisolve_cases;
spira_matrix tu_trisolve_case(spira_context ctx, int i, spira_dtype t, unsigned seed,
                              spira_precond_type *pc, const char **label);
/* The apply of factor f with `sweeps` Jacobi sweeps a triangular solve (0: exact
 * substitution), in double, from r (n values) into z; scale gets the same recurrence on
 * absolute values (|r|, |entries|), which bounds the rounding each z[i] may carry. */
void tu_ilu_reference(const spira__ilu_factor *f, int sweeps, const double *r, double *z,
                      double *scale);
/* The relative tolerance, against that scale, for an apply of f in dtype t. */
double tu_trisolve_tol(const spira__ilu_factor *f, int sweeps, spira_dtype t);
/* The sweeps after which both of f's triangular solves are exact: the longest chain of
 * dependencies in its strict lower or upper triangle, in edges (at least 1). */
int32_t tu_ilu_depth(const spira__ilu_factor *f);
/* The scale to compare K sweeps' apply with the exact one from r: per row the larger of the
 * two references' scales (tu_ilu_reference; zr: n values of scratch). */
void tu_ilu_exact_scale(const spira__ilu_factor *f, int K, const double *r, double *zr,
                        double *scale);
/* |z[i] - ref[i]| <= tol scale[i] for every i, else fail naming what, i and the seed. */
void tu_check_scaled(const char *what, const double *z, const double *ref, const double *scale,
                     int64_t n, double tol);

/* check_gpu's case comparing the conversions on the GPU with the host's
 * (gpu_device_convert.c), with two contexts of its own. */
TCase *tu_gpu_device_convert_tcase(void);
/* check_gpu's case comparing the ELL, COO and HYB layouts built on the GPU with the host's,
 * array for array (gpu_device_layout.c). */
TCase *tu_gpu_device_layout_tcase(void);
/* check_gpu's case comparing the GF(2) layouts built on the GPU with the host's, array for
 * array (gpu_gf2_convert.c). */
TCase *tu_gpu_gf2_convert_tcase(void);
/* check_gpu's case for the Jacobi-sweep triangular solves (gpu_trisolve.c) on ctx. */
TCase *tu_gpu_trisolve_tcase(spira_context ctx);
/* CG through its graph against CG per iteration (test_cg_graph.c), with a context of its
 * own on the backend: check_gpu's case (CUDA), and check_spira's suite (CPU). */
TCase *tu_cg_graph_tcase(spira_backend backend);
Suite *suite_cg_graph(void);

/* Two deterministic CUDA contexts for the cases comparing conversions on the GPU with the
 * host's: tu_host_ctx converts every plan on the host (ctx->host_convert). Made and freed
 * by a case's unchecked fixture. */
extern spira_context tu_dev_ctx, tu_host_ctx;
void tu_convert_contexts_make(void);
void tu_convert_contexts_free(void);
/* The same matrix in both: a bundled file in double, or shape s in t with seed. */
void tu_convert_pair_file(const char *name, spira_matrix *Ad, spira_matrix *Ah);
void tu_convert_pair_shape(const tu_shape *s, spira_dtype t, unsigned seed, spira_matrix *Ad,
                           spira_matrix *Ah);
/* The plans of (name, opts) for Ad (on tu_dev_ctx) and Ah (on tu_host_ctx): 1 with both
 * built (*pd, *ph), 0 when both refused alike (UNSUPPORTED, the same message); any other
 * outcome fails the test, naming label. */
int tu_convert_plans(spira_matrix Ad, spira_matrix Ah, const char *name, const char *opts,
                     const char *label, spira__spmv_plan **pd, spira__spmv_plan **ph);

/* A random n x n matrix in dtype t: a random permutation's entries (so it is structurally
 * nonsingular), about density n^2 more in [-4, 4], and with dominant a diagonal of 4 n. */
spira_matrix tu_random_square(spira_context ctx, int32_t n, double density, int dominant,
                              spira_dtype t, unsigned seed);

#endif
