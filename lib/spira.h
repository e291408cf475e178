/*
 * spira.h - the whole public API of Spira, iterative sparse solvers for NVIDIA GPUs.
 *
 * Plain C11. Every call returns a spira_status; the sentence behind a failure is in
 * spira_last_error(ctx). The library never prints, exits or aborts. Objects belong to
 * the context they were created with and must not outlive it. One context must not be
 * used from two threads at once without a lock; two contexts may run in parallel.
 *
 * Indices are 32-bit: rows, columns and nonzeros of a matrix must each fit in int32_t,
 * otherwise the call returns SPIRA_ERR_UNSUPPORTED naming the numbers.
 */
#ifndef SPIRA_H
#define SPIRA_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(SPIRA_BUILDING) && defined(__GNUC__)
#define SPIRA_API __attribute__((visibility("default")))
#else
#define SPIRA_API
#endif

#define SPIRA_VERSION_MAJOR 0
#define SPIRA_VERSION_MINOR 1
#define SPIRA_VERSION_PATCH 0

/* "MAJOR.MINOR.PATCH" of the library actually linked. */
SPIRA_API const char *spira_version(void);

/* ---- status -------------------------------------------------------------------- */

typedef enum {
    SPIRA_OK = 0,
    SPIRA_ERR_INVALID_ARG,   /* a NULL handle, a bad size, mismatched objects */
    SPIRA_ERR_IO,            /* a file could not be opened, read or written */
    SPIRA_ERR_PARSE,         /* a Matrix Market file is malformed (message has the line) */
    SPIRA_ERR_NOMEM,         /* an allocation failed or would exceed the memory budget
                                (message has the size, what it was for and the limit) */
    SPIRA_ERR_DEVICE,        /* a CUDA, cuBLAS or cuSPARSE call failed, or no device */
    SPIRA_ERR_UNSUPPORTED,   /* valid, but not handled: too large, wrong field, no CUDA */
    SPIRA_ERR_BREAKDOWN,     /* a solver quantity became zero (message names it) */
    SPIRA_ERR_NOT_CONVERGED, /* the iteration limit was reached */
    SPIRA_ERR_NONFINITE      /* NaN or Inf in the input or during a solve */
} spira_status;

/* A short constant name for a status ("SPIRA_ERR_PARSE"). */
SPIRA_API const char *spira_status_name(spira_status s);

/* ---- handles and types --------------------------------------------------------- */

typedef struct spira_context_s *spira_context;
typedef struct spira_matrix_s *spira_matrix;
typedef struct spira_vector_s *spira_vector;

typedef enum {
    SPIRA_BACKEND_AUTO = 0, /* CUDA if a device is usable, else CPU */
    SPIRA_BACKEND_CPU,      /* the reference backend: plain loops (OpenMP if built with it) */
    SPIRA_BACKEND_CUDA      /* cuBLAS, cuSPARSE and Spira's kernels on one device */
} spira_backend;

typedef enum {
    SPIRA_R32 = 0, /* float */
    SPIRA_R64      /* double */
} spira_dtype;

/* Size in bytes of one value of type t. */
SPIRA_API size_t spira_dtype_size(spira_dtype t);

/* ---- context ------------------------------------------------------------------- */

typedef struct {
    spira_backend backend; /* default SPIRA_BACKEND_AUTO */
    int device;            /* CUDA device ordinal, default 0 */
    int deterministic;     /* nonzero: bitwise reproducible results run to run. Every
                            * Spira format and solver is so already (no floating-point
                            * atomics; CPU dots in a fixed order); this mode also keeps
                            * cuBLAS atomics off and makes `cusparse` use CSR_ALG2
                            * (alg=0 is refused) */
    size_t max_bytes;      /* the memory budget: no one host or device allocation of the
                            * library (nor a size a file declares) may exceed it; beyond it a
                            * call returns SPIRA_ERR_NOMEM naming the need and the limit,
                            * before allocating. 0: the environment variable SPIRA_MAX_BYTES
                            * if set (bytes, or with a K, M, G or T suffix: powers of 1024),
                            * else what the machine has free when the context is made (host:
                            * MemAvailable, or RLIMIT_AS if lower; device: cudaMemGetInfo) */
} spira_context_opts;

/* Create a context. opts may be NULL (AUTO, device 0). With SPIRA_BACKEND_CUDA and no
 * usable device, returns SPIRA_ERR_DEVICE and *ctx holds a context whose
 * spira_last_error says why (destroy it); AUTO falls back to the CPU and says why in the
 * device name. A SPIRA_MAX_BYTES that is not a byte count gives SPIRA_ERR_INVALID_ARG
 * (and a context to destroy, as above). */
SPIRA_API spira_status spira_context_create(spira_context *ctx, const spira_context_opts *opts);
SPIRA_API void spira_context_destroy(spira_context ctx);
/* The backend actually in use (never AUTO). */
SPIRA_API spira_backend spira_context_backend(spira_context ctx);
/* "CPU (4 OpenMP threads)" or "NVIDIA H100 80GB HBM3 (device 0, sm_90)"; when AUTO fell
 * back to the CPU, followed by "; CUDA not used: " and the CUDA error that kept it out. */
SPIRA_API const char *spira_context_device_name(spira_context ctx);
/* The memory budget (spira_context_opts.max_bytes) in force for host and for device
 * allocations (device 0 on the CPU backend). Either pointer may be NULL. */
SPIRA_API spira_status spira_context_budget(spira_context ctx, size_t *host_bytes,
                                            size_t *device_bytes);
/* Why the last failing call on this context failed; "" if none did. */
SPIRA_API const char *spira_last_error(spira_context ctx);
/* Wait for all work queued on the context's stream (a no-op on the CPU). */
SPIRA_API spira_status spira_context_synchronize(spira_context ctx);
/* The memory bandwidth to hold a SpMV's GB/s against: two buffers of bytes (>= 8) where
 * the context computes, copied once untimed twice, then reps times each timed on the
 * backend's clock (as spira_spmv_time); *gbs = 2 bytes (read + written) / the median time. */
SPIRA_API spira_status spira_context_copy_bandwidth(spira_context ctx, size_t bytes, int reps,
                                                    double *gbs);

/* ---- matrices ------------------------------------------------------------------ */

typedef struct {
    int64_t nrows, ncols, nnz; /* nnz counts stored entries after expansion */
    spira_dtype dtype;
    int symmetric;             /* 1 if read from a symmetric Matrix Market file */
    const char *format;        /* SpMV format in use ("auto" until auto has chosen) */
    double setup_ms;           /* time spent building the SpMV plans A holds, 0 if none: the
                                * current format's, and those auto used before it (a lone
                                * multiply's, a solve's first iterations'); the current one's
                                * alone: spira_matrix_plan_info */
    const char *format_reason; /* why "auto" chose format, predicted and realized totals
                                * ("" when it was named) */
    double select_ms;          /* time "auto" spent choosing: its row statistics, or the
                                * trial's timings and the plans it did not keep (0 if named) */
} spira_matrix_info;

/* From 0-based CSR arrays (copied; columns need not be sorted, duplicates are summed).
 * val holds nnz = row_ptr[nrows] values of type dtype; NULL means all ones. */
SPIRA_API spira_status spira_matrix_from_csr(spira_context ctx, int64_t nrows, int64_t ncols,
                                             const int32_t *row_ptr, const int32_t *col_idx,
                                             const void *val, spira_dtype dtype,
                                             spira_matrix *A);
/* From 0-based COO triplets (copied; any order, duplicates summed). val NULL: ones. */
SPIRA_API spira_status spira_matrix_from_coo(spira_context ctx, int64_t nrows, int64_t ncols,
                                             int64_t nnz, const int32_t *row_idx,
                                             const int32_t *col_idx, const void *val,
                                             spira_dtype dtype, spira_matrix *A);
/* Read a Matrix Market file (.mtx, or gzip-compressed: detected by content, any name).
 * Coordinate and array; real, integer, pattern (values 1); general, symmetric,
 * skew-symmetric (expanded); complex and hermitian give SPIRA_ERR_UNSUPPORTED. A
 * malformed file (NaN or Inf values included) gives SPIRA_ERR_PARSE, its message
 * "FILE:LINE: what"; sizes beyond 32-bit indices SPIRA_ERR_UNSUPPORTED. */
SPIRA_API spira_status spira_matrix_read_mm(spira_context ctx, const char *path,
                                            spira_dtype dtype, spira_matrix *A);
/* Write as "coordinate real general" with 17 significant digits (9 for float), so that
 * reading it back gives the same bits; gzip-compressed when path ends in ".gz". NaN or
 * Inf values: SPIRA_ERR_NONFINITE, no file written. */
SPIRA_API spira_status spira_matrix_write_mm(spira_matrix A, const char *path);
/* The standard finite-difference Laplacian on an n^dim grid (dim 2: 5-point, dim 3:
 * 7-point; Dirichlet boundary, diagonal 2*dim, off-diagonals -1): SPD, n^dim rows. */
SPIRA_API spira_status spira_matrix_laplacian(spira_context ctx, int dim, int64_t n,
                                              spira_dtype dtype, spira_matrix *A);
/* The R-MAT graph with Graph500's parameters (Chakrabarti, Zhan, Faloutsos 2004: quadrant
 * probabilities a, b, c = 0.57, 0.19, 0.19; vertex numbers scrambled): 2^scale vertices and
 * edge_factor 2^scale edges drawn from seed, G(u,v) = how often the edge u -> v was drawn
 * (self-loops kept, as Graph500's generator makes them). The graph spira_dist_matrix_rmat
 * makes on any number of ranks, here in one process, for PageRank and SpMV benchmarks
 * without a file. One process holds 32-bit indices: scale <= 30 and at most 2^31 - 1
 * edges drawn, else SPIRA_ERR_UNSUPPORTED naming the sizes. */
SPIRA_API spira_status spira_matrix_rmat(spira_context ctx, int scale, int edge_factor,
                                         uint64_t seed, spira_dtype dtype, spira_matrix *A);
SPIRA_API spira_status spira_matrix_get_info(spira_matrix A, spira_matrix_info *info);
/* Copy out the canonical CSR (sorted columns). Any pointer may be NULL. val gets
 * values in the matrix's dtype. Sizes from spira_matrix_get_info. */
SPIRA_API spira_status spira_matrix_get_csr(spira_matrix A, int32_t *row_ptr, int32_t *col_idx,
                                            void *val);
/* AT = A^T, same context and dtype. */
SPIRA_API spira_status spira_matrix_transpose(spira_matrix A, spira_matrix *AT);
SPIRA_API void spira_matrix_destroy(spira_matrix A);

/* ---- SpMV formats (spmv/) ------------------------------------------------------ */

/* Select the format used by every SpMV on A. The plan is built on first use, cached in
 * A and reused by later SpMVs and solves. options may be NULL (format-specific
 * "key=value,..." otherwise). Unknown name: SPIRA_ERR_INVALID_ARG listing the names; a key
 * the format does not take: SPIRA_ERR_INVALID_ARG listing its keys (values are checked when
 * the plan is built).
 * name "auto" (every new matrix's format, chosen at its first multiply or solve) picks the
 * format minimizing setup + expected multiplies x time per multiply, both predicted from A's
 * rows by a cost model of H100 measurements (on the CPU backend: csr-scalar). It chooses at
 * once for one multiply, weighed again each time the multiplies made double, or for options
 * "expected_multiplies=N"; each solve then chooses again for the multiplies it expects
 * (from its tolerance and limit) plus those A has made, and a solve that expects more than
 * 32 chooses for its first 32, then again for what its convergence predicts.
 * With options "trial=1" it times the candidate formats on A on the context's backend
 * instead (their conversions are paid then, the winner's plan is kept, and the choice is
 * final). spira_matrix_get_info names the format and the reason, with the predicted and,
 * after a solve, the realized totals. Naming any other format ends auto's choosing. */
SPIRA_API spira_status spira_matrix_set_format(spira_matrix A, const char *name,
                                               const char *options);
/* Build the plan of the selected format now, so its cost is not paid by the first SpMV. */
SPIRA_API spira_status spira_matrix_prepare(spira_matrix A);
/* Number of registered formats, and the name and one-line description of the i-th. */
SPIRA_API int spira_format_count(void);
SPIRA_API spira_status spira_format_describe(int i, const char **name, const char **description);
/* The option keys the i-th format takes, space-separated ("" none; NULL: no such format). */
SPIRA_API const char *spira_format_options(int i);

/* y <- alpha*A*x + beta*y, with A's selected format, on the context's backend. */
SPIRA_API spira_status spira_spmv(double alpha, spira_matrix A, spira_vector x, double beta,
                                  spira_vector y);

/* ---- measuring a format (what spira-spmv and spira-gf2 report) ---------------------
 * A plan is a format's layout of a matrix, built once and cached in it. The times are
 * those of building it; a solve's info reports the same split. */
typedef struct {
    const char *format; /* the format the plan runs ("auto" resolved to its choice) */
    double convert_ms;  /* analysis + conversion, on the host or (on_device) the GPU */
    double upload_ms;   /* device allocation + copy (0 on the CPU or when built there) */
    size_t bytes;       /* the layout's bytes as its multiply reads them, padding included */
    int on_device;      /* 1: converted on the GPU from the matrix's device CSR */
    const char *stats;  /* the format's own figures (HYB's width, ...), "" if none; valid
                         * until the plan is dropped */
} spira_plan_info;
/* The plan of A's selected format (built now if it is not: as spira_matrix_prepare). */
SPIRA_API spira_status spira_matrix_plan_info(spira_matrix A, spira_plan_info *info);
/* Free the plan of A's selected format now (its device memory with it); the next multiply
 * builds it again. The format and its options stay selected. */
SPIRA_API spira_status spira_matrix_drop_plan(spira_matrix A);
/* n multiplies y <- alpha*A*x + beta*y, each timed on the backend's clock: CUDA events
 * around it on the context's stream, the wall clock on the CPU. ms[k] gets the k-th run's
 * milliseconds (ms NULL: warm-up, none kept, and on CUDA the calls queued back to back with
 * no event and no wait between them). The plan is built (or found) before the
 * first run, outside every timing. Arguments as spira_spmv. */
SPIRA_API spira_status spira_spmv_time(double alpha, spira_matrix A, spira_vector x, double beta,
                                       spira_vector y, int n, double *ms);
/* n multiplies as spira_spmv_time's, captured once in a CUDA graph; the graph is launched
 * once untimed, then `runs` times, each timed with CUDA events: *ms = the median run / n, a
 * multiply as a solver whose iteration is captured pays it (the kernels queued by the
 * device, no host launch path between them; solvers capture small systems' iterations).
 * CUDA only (SPIRA_ERR_UNSUPPORTED on the CPU backend); a format whose multiply cannot be
 * captured gives the capture's error. Arguments as spira_spmv; n >= 1, runs >= 1. */
SPIRA_API spira_status spira_spmv_time_graph(double alpha, spira_matrix A, spira_vector x,
                                             double beta, spira_vector y, int n, int runs,
                                             double *ms);

/* ---- vectors and BLAS-1 (lib/) ------------------------------------------------- */

/* A vector lives where its context computes: device memory on CUDA, host memory on CPU. */
SPIRA_API spira_status spira_vector_create(spira_context ctx, int64_t n, spira_dtype dtype,
                                           spira_vector *v);
SPIRA_API void spira_vector_destroy(spira_vector v);
SPIRA_API int64_t spira_vector_length(spira_vector v);
SPIRA_API spira_dtype spira_vector_dtype(spira_vector v);
/* Copy n values of the vector's dtype in from / out to host memory. */
SPIRA_API spira_status spira_vector_set(spira_vector v, const void *host);
SPIRA_API spira_status spira_vector_get(spira_vector v, void *host);
/* Copy in / out as doubles, converting to / from the vector's dtype. */
SPIRA_API spira_status spira_vector_set_f64(spira_vector v, const double *host);
SPIRA_API spira_status spira_vector_get_f64(spira_vector v, double *host);
/* Every entry <- value. */
SPIRA_API spira_status spira_vector_fill(spira_vector v, double value);
/* Read a dense vector from Matrix Market (array n x 1, or coordinate n x 1: absent
 * entries 0; 1 x n is accepted too) / write one as "array real general" n x 1. */
SPIRA_API spira_status spira_vector_read_mm(spira_context ctx, const char *path,
                                            spira_dtype dtype, spira_vector *v);
/* The same, for a file that must hold a vector of n entries (n > 0; 0: any): a size line
 * declaring another length is refused (SPIRA_ERR_INVALID_ARG) before anything is
 * allocated, as is a length whose values exceed the memory budget (SPIRA_ERR_NOMEM). */
SPIRA_API spira_status spira_vector_read_mm_n(spira_context ctx, const char *path,
                                              spira_dtype dtype, int64_t n, spira_vector *v);
SPIRA_API spira_status spira_vector_write_mm(spira_vector v, const char *path);

/* BLAS-1 on vectors of one context, equal length and dtype. Results are returned in
 * double whatever the dtype. */
SPIRA_API spira_status spira_dot(spira_vector x, spira_vector y, double *result);
SPIRA_API spira_status spira_nrm2(spira_vector x, double *result);
SPIRA_API spira_status spira_axpy(double alpha, spira_vector x, spira_vector y);  /* y += a x */
SPIRA_API spira_status spira_axpby(double alpha, spira_vector x, double beta,
                                   spira_vector y);                            /* y = a x + b y */
SPIRA_API spira_status spira_scal(double alpha, spira_vector x);               /* x *= a */
SPIRA_API spira_status spira_copy(spira_vector x, spira_vector y);             /* y = x */
SPIRA_API spira_status spira_asum(spira_vector x, double *result);             /* sum |x_i| */

/* ---- solvers (solvers/) and preconditioners (precond/) -------------------------- */

typedef enum {
    SPIRA_SOLVER_CG = 0,  /* conjugate gradients, A symmetric positive definite */
    SPIRA_SOLVER_BICGSTAB,/* BiCGSTAB, general square A */
    SPIRA_SOLVER_JACOBI   /* x <- x + w D^-1 (b - A x) */
} spira_solver_type;

typedef enum {
    SPIRA_PRECOND_NONE = 0,
    SPIRA_PRECOND_JACOBI,  /* M = diag(A) */
    SPIRA_PRECOND_NEUMANN, /* M^-1 = sum_{k=0..m} (I - D^-1 A)^k D^-1, m = precond_degree:
                              m SpMVs per apply; SPD for SPD A whose Jacobi iteration
                              converges; prefer even m (odd m helps little) */
    SPIRA_PRECOND_ILU0,    /* M = P^T L U, incomplete LU on A's pattern, factored once per
                              matrix (on the host) and cached; P permutes rows (maximum-product
                              matching) only when A has zero diagonal entries. Symmetric
                              (IC(0)) for symmetric A without P, so CG may use it then; CG
                              refuses a permuted one */
    SPIRA_PRECOND_ILUT     /* M = P^T L U, dual-threshold incomplete LU of the matched and
                              MC64-scaled A: entries below precond_drop_tol ||row|| dropped, at
                              most about precond_fill * nnz(A) kept; cached like ILU(0); for
                              the hard nonsymmetric systems ILU(0) cannot do; never symmetric:
                              BiCGSTAB only (CG refuses it) */
} spira_precond_type;

typedef enum {
    SPIRA_CONVERGED_RTOL = 0,   /* ||r|| <= rtol ||b|| */
    SPIRA_CONVERGED_ATOL,       /* ||r|| <= atol */
    SPIRA_CONVERGED_ZERO_RHS,   /* b = 0, so x = 0 */
    SPIRA_STOPPED_MAXIT,
    SPIRA_STOPPED_BREAKDOWN,
    SPIRA_STOPPED_NONFINITE,
    SPIRA_STOPPED_STAGNATION,
    SPIRA_STOPPED_BY_MONITOR,    /* the monitor callback returned nonzero */
    SPIRA_STOPPED_ERROR,         /* a backend call failed: see the status */
    SPIRA_STOPPED_DIVERGED       /* ||r|| > dtol max(||b||, ||r_0||) */
} spira_reason;

/* Short text for a reason ("converged: relative tolerance"). */
SPIRA_API const char *spira_reason_string(spira_reason r);

/* Called once per iteration (iteration 0 is the initial residual). Return nonzero to stop. */
typedef int (*spira_monitor_fn)(int iteration, double residual_norm, void *data);

/* The options structs below: 0 in a field means its default, so a zeroed struct asks for
 * the defaults. A tolerance of exactly 0 (only the iteration limit stops) is asked for with
 * SPIRA_TOL_ZERO. A field outside its range (a negative count, NaN or Inf, a negative
 * tolerance other than SPIRA_TOL_ZERO) is SPIRA_ERR_INVALID_ARG naming the field. */
#define SPIRA_TOL_ZERO (-1.0)

/* What 0 means for the preconditioner parameters of spira_solve_opts. */
#define SPIRA_NEUMANN_DEFAULT_DEGREE 2
#define SPIRA_ILUT_DEFAULT_DROP_TOL 1e-3
#define SPIRA_ILUT_DEFAULT_FILL 5.0
/* The most Jacobi sweeps spira_solve_opts.trisolve_sweeps may ask for. */
#define SPIRA_TRISOLVE_MAX_SWEEPS 64

/* How ILU(0)/IC(0)/ILUT apply their triangular factors (spira_solve_opts.trisolve). */
typedef enum {
    SPIRA_TRISOLVE_DEFAULT = 0, /* exact solves, or trisolve_sweeps Jacobi sweeps when > 0 */
    SPIRA_TRISOLVE_ISAI         /* incomplete sparse approximate inverses (Anzt, Huckle,
                                   Braeckle, Dongarra, Parallel Computing 2018): M_L ~ L^-1
                                   and M_U ~ U^-1 with the patterns of L and U, each row from
                                   a small dense triangular system (rows of L or U up to
                                   SPIRA_ISAI_MAX_ROW entries), built once per factor; an
                                   apply is two SpMVs (M_U (M_L P r)) in the matrices' own
                                   auto formats: no sequential levels. IC(0) takes
                                   M_U = M_L^T D^-1, so M stays symmetric for CG */
} spira_trisolve;
/* The longest row of L or U that ISAI takes: its local system is dense, n^2 doubles. */
#define SPIRA_ISAI_MAX_ROW 1024

/* A symmetric permutation P A P^T that a solve may apply for locality (spira_solve_opts.
 * reorder): built once per matrix and ordering and cached in A (with its own SpMV format,
 * auto's choice when A's is auto), b and x permuted in and x back out by the solve, so the
 * caller never sees it; the preconditioner is built on the permuted matrix. */
typedef enum {
    SPIRA_REORDER_NONE = 0, /* A as given */
    SPIRA_REORDER_RCM,      /* reverse Cuthill-McKee on the pattern of A + A^T: a narrow band
                               (stencils and meshes numbered at random, ILU's fill and levels) */
    SPIRA_REORDER_DEGREE    /* rows by decreasing length, ties in their order: rows of like
                               length together (ELL/SELL-like kernels), hubs of power-law
                               graphs first */
} spira_reorder;
/* PA = P A P^T for ordering kind of a square A (SPIRA_REORDER_NONE: the identity, PA a
 * copy), in A's context and dtype, canonical, with A's symmetry flag; perm (A's nrows
 * entries, may be NULL) gets the permutation: perm[k] is A's row placed at k, so
 * PA(k, l) = A(perm[k], perm[l]) and (P x)[k] = x[perm[k]]. The ordering and the copy are
 * made on the host. What spira_solve_opts.reorder iterates on, to time formats on it. */
SPIRA_API spira_status spira_matrix_reorder(spira_matrix A, spira_reorder kind, int32_t *perm,
                                            spira_matrix *PA);

typedef struct {
    double rtol;               /* relative tolerance on ||b - A x|| / ||b||, >= 0; 0 means
                                  1e-8, SPIRA_TOL_ZERO exactly 0 */
    double atol;               /* absolute tolerance on ||b - A x||, >= 0; 0 disables */
    int maxit;                 /* iteration limit, >= 1; 0 means 10000 */
    int use_initial_guess;     /* nonzero: start from x as given; else from x = 0 */
    spira_precond_type precond;
    int precond_degree;        /* polynomial preconditioners: SpMVs per apply (1..64); 0 means 2 */
    double precond_drop_tol;   /* ILUT: relative drop tolerance in (0, 1); 0 means 1e-3 */
    double precond_fill;       /* ILUT: factor size limit / nnz(A), 1..1000; 0 means 5 */
    double damping;            /* Jacobi solver weight w, finite and > 0; 0 means 1 */
    spira_monitor_fn monitor;  /* may be NULL */
    void *monitor_data;
    double *history;           /* if not NULL, receives ||r_k|| for k = 0..history_len-1 */
    int history_len;           /* >= 0 */
    double dtol;               /* divergence tolerance: stop (SPIRA_STOPPED_DIVERGED) when
                                  ||r|| > dtol max(||b||, ||r_0||); > 1, INFINITY never;
                                  0 means 1e5 */
    int stagnation_window;     /* stop (SPIRA_STOPPED_STAGNATION) when ||r|| has not gone below
                                  0.99 times its best for this many iterations; >= 1
                                  (>= maxit: never); 0 means max(1000, rows of A) */
    spira_backend backend;     /* where the iterations run. AUTO (0): on the context's backend,
                                  except that a CUDA context the library chose (created with
                                  SPIRA_BACKEND_AUTO) solves small systems on the host when its
                                  crossover model says that is faster, or where the model
                                  cannot tell, when a few host iterations timed at setup
                                  beat the GPU's predicted one (not in a deterministic
                                  context: the model alone; solvers/host_solve.c);
                                  CPU: on the host (b and x are copied over and back); CUDA:
                                  on the GPU (a CPU context refuses it) */
    int trisolve_sweeps;       /* ILU(0)/IC(0)/ILUT: 0 (the default) solves L y = P r and
                                  U z = y exactly (cuSPARSE's SpSV on the GPU, whose level
                                  schedule is sequential where the factor is); K in 1..64
                                  replaces each solve by K Jacobi sweeps from y_0 = D^-1 r,
                                  y_j = D^-1 (r - (T - D) y_{j-1}) for T = L or U, D = diag(T)
                                  (Anzt, Chow, Dongarra, Euro-Par 2015): SpMV-like kernels,
                                  an approximate M^-1, exact when K reaches the triangles'
                                  dependency depth; symmetric for IC(0), so CG keeps it */
    spira_reorder reorder;     /* solve with P A P^T for this ordering (see spira_reorder);
                                  0: SPIRA_REORDER_NONE. Square A only (as every solver);
                                  not with a distributed solve */
    spira_trisolve trisolve;   /* ILU(0)/IC(0)/ILUT: how the factors are applied (see
                                  spira_trisolve); ISAI with trisolve_sweeps > 0 is refused */
} spira_solve_opts;

typedef struct {
    int iterations;
    double rel_residual;       /* ||b - A x|| / ||b||, recomputed from x at the end */
    double recurrence_residual;/* the solver's own running estimate, relative */
    spira_reason reason;
    const char *format;        /* SpMV format used */
    double setup_ms;           /* SpMV plan + preconditioner setup */
    double solve_ms;           /* iterations */
    double precond_shift;      /* ILU(0)/IC(0): alpha when the factor is of the shifted
                                  A + alpha diag(A) (its pivots were not all nonzero, or for
                                  symmetric A with a positive diagonal not all > 0); else 0 */
    spira_backend backend;     /* where the iterations ran (CPU or CUDA) */
    const char *backend_reason;/* why there, in words (a static string) */
    int trisolve_sweeps;       /* the Jacobi sweeps each triangular solve of the preconditioner
                                  made (ILU(0)/ILUT, spira_solve_opts.trisolve_sweeps); 0:
                                  exact solves, or a preconditioner without them */
    spira_reorder reorder;     /* the ordering the solve ran in (spira_solve_opts.reorder) */
    double reorder_ms;         /* building P A P^T and the permutation this solve paid for
                                  (counted in setup_ms too; 0 when A's cache had them) */
    int64_t bandwidth_before;  /* max |i - j| over A's entries; with reorder only (else 0) */
    int64_t bandwidth_after;   /* the same for P A P^T */
    spira_trisolve trisolve;   /* ISAI when the preconditioner applied approximate inverses
                                  (spira_solve_opts.trisolve), else DEFAULT */
} spira_solve_info;

/* Solve A x = b. opts may be NULL (defaults); info may be NULL. Returns SPIRA_OK when
 * converged, SPIRA_ERR_NOT_CONVERGED at the limit, on divergence (SPIRA_STOPPED_DIVERGED)
 * or stagnation (SPIRA_STOPPED_STAGNATION), SPIRA_ERR_BREAKDOWN or SPIRA_ERR_NONFINITE
 * naming the quantity (CG: (r, M^-1 r) <= 0 names the preconditioner, (p, A p) <= 0 says
 * A is not SPD; a failed CG on a nonsymmetric A says so), and the usual errors for bad
 * arguments. */
SPIRA_API spira_status spira_solve(spira_solver_type type, spira_matrix A, spira_vector b,
                                   spira_vector x, const spira_solve_opts *opts,
                                   spira_solve_info *info);

/* A solver set up once for A and reused for many right-hand sides (as PETSc's KSP and
 * Ginkgo's generated solvers are): create does what does not depend on b (A's SpMV plan,
 * the preconditioner: D^-1, the Neumann polynomial's vectors, the incomplete-LU factor and
 * its triangular-solve analysis; the solver's workspace), each solve only iterates.
 * spira_solve(type, A, b, x, opts, info) is create, one solve, destroy. A must outlive
 * the solver; when A's format changes, the next solve sets the plan and the preconditioner
 * up again. info->setup_ms of a solve is the setup it paid: create's for the first solve,
 * 0 after (unless A's format changed). Errors are create's and spira_solve's. */
typedef struct spira_solver_s *spira_solver;
SPIRA_API spira_status spira_solver_create(spira_solver_type type, spira_matrix A,
                                           const spira_solve_opts *opts, spira_solver *S);
SPIRA_API spira_status spira_solver_solve(spira_solver S, spira_vector b, spira_vector x,
                                          spira_solve_info *info);
SPIRA_API void spira_solver_destroy(spira_solver S);

/* ---- eigenvalues and ranking (solvers/) --------------------------------------------- */

typedef struct {
    double tol;            /* stop when ||A v - lambda v|| <= tol |lambda|; 0 means 1e-8,
                              SPIRA_TOL_ZERO exactly 0 */
    int maxit;             /* >= 1; 0 means 10000 */
    int use_initial_guess; /* nonzero: start from v as given; else a fixed pseudo-random start */
    spira_reorder reorder; /* iterate on P A P^T (see spira_reorder; 0: none) from P v_0 (the
                              same start), v permuted back: the same eigenpair, in A's
                              numbering */
} spira_power_opts;

typedef struct {
    double eigenvalue;     /* lambda = (v, A v), the Rayleigh quotient of the final v */
    int iterations;        /* SpMVs made */
    double residual;       /* ||A v - lambda v|| with ||v|| = 1 (absolute) */
    spira_reason reason;   /* SPIRA_CONVERGED_RTOL, SPIRA_STOPPED_MAXIT, ..._NONFINITE, ... */
    const char *format;    /* SpMV format used */
    double setup_ms;       /* SpMV plan + start vector */
    double solve_ms;       /* iterations */
    spira_reorder reorder; /* the ordering it ran in (spira_power_opts.reorder) */
    double reorder_ms;     /* building P A P^T this call paid for (in setup_ms too) */
    int64_t bandwidth_before, bandwidth_after; /* of A and of P A P^T (reorder only) */
} spira_power_info;

/* Power iteration for the eigenvalue of largest modulus of square A and its eigenvector:
 * v_{k+1} = A v_k / ||A v_k||, lambda_k = (v_k, A v_k). v: in, the start (with
 * use_initial_guess); out, the unit eigenvector estimate. Converges when that eigenvalue
 * is unique in modulus (rate |lambda_2 / lambda_1|). opts and info may be NULL. Returns
 * SPIRA_OK, SPIRA_ERR_NOT_CONVERGED at the limit (v and info hold the last estimate),
 * SPIRA_ERR_NONFINITE, or SPIRA_ERR_INVALID_ARG (a zero start vector, mismatches). */
SPIRA_API spira_status spira_power(spira_matrix A, spira_vector v, const spira_power_opts *opts,
                                   spira_power_info *info);

typedef struct {
    double alpha;          /* damping: probability of following an edge; 0 means 0.85; in (0, 1) */
    double tol;            /* stop when ||x_{k+1} - x_k||_1 <= tol; 0 means 1e-6,
                              SPIRA_TOL_ZERO exactly 0 */
    int maxit;             /* >= 1; 0 means 1000 */
    spira_vector teleport; /* personalization (>= 0, not all 0; normalized internally); NULL: uniform */
    int use_initial_guess; /* nonzero: start from rank as given (>= 0, normalized); else teleport */
    spira_reorder reorder; /* iterate on P G P^T (see spira_reorder; 0: none): the teleport
                              vector and the start permuted in, the ranks permuted back, so
                              rank is G's; messages about entries name P G P^T's */
} spira_pagerank_opts;

typedef struct {
    int iterations;        /* SpMVs made */
    double delta;          /* final ||x_k - x_{k-1}||_1 */
    double sum_error;      /* |sum(x) - 1| before the final renormalization (rounding drift) */
    spira_reason reason;   /* SPIRA_CONVERGED_ATOL (the L1 tolerance), SPIRA_STOPPED_MAXIT, ... */
    const char *format;    /* SpMV format of the transition matrix (G's, or auto's choice) */
    const char *format_reason; /* why "auto" chose it, predicted and realized ("" if named) */
    double setup_ms;       /* transition matrix (first call on G only), its SpMV plan, vectors */
    double solve_ms;       /* iterations */
    spira_reorder reorder; /* the ordering it ran in (spira_pagerank_opts.reorder) */
    double reorder_ms;     /* building P G P^T this call paid for (in setup_ms too; 0 when
                              G's cache had it) */
    int64_t bandwidth_before, bandwidth_after; /* max |i - j| of G and of P G P^T (reorder
                                                  only, else 0) */
} spira_pagerank_info;

/* PageRank of the graph with adjacency matrix G (square; G(i,j) != 0 is an edge i -> j
 * of weight G(i,j); a pattern matrix has weights 1). A walker follows an out-edge of i
 * with probability alpha * G(i,j) / sum_j G(i,j), else teleports by the teleport vector;
 * from a node with no out-edges (dangling: row empty or all zero) it always teleports.
 * Negative weights are refused (SPIRA_ERR_INVALID_ARG naming the entry), NaN/Inf give
 * SPIRA_ERR_NONFINITE. The column-stochastic transition matrix is built once and cached
 * in G (with G's SpMV format); later calls on G reuse it. rank (length n, G's dtype)
 * receives the ranks, summing to 1. Returns SPIRA_OK or SPIRA_ERR_NOT_CONVERGED (rank
 * holds the last iterate, normalized). opts and info may be NULL. */
SPIRA_API spira_status spira_pagerank(spira_matrix G, spira_vector rank,
                                      const spira_pagerank_opts *opts,
                                      spira_pagerank_info *info);

/* ---- SpMV over GF(2) (spmv/gf2*.c; blocks in lib/gf2_block.c) -------------------------
 * For the linear algebra of the number field sieve (block Wiedemann; Schmidt, Aribowo and
 * Dang): a pattern matrix over GF(2) times a block of W = 64, 128 or 256 bit vectors.
 * Row i of Y = M X is the XOR of the rows j of X over the entries (i, j) of M. A block of
 * n rows is stored row-major, W/64 uint64_t words a row (bit b of the block's row r is bit
 * b % 64 of word r * W/64 + b / 64); it lives where its context computes. */
typedef struct spira_gf2_matrix_s *spira_gf2_matrix;
typedef struct spira_gf2_block_s *spira_gf2_block;

/* From 0-based COO entries (copied; any order). An entry given twice cancels (1 + 1 = 0
 * over GF(2)): an entry of M is the parity of its count. Bad indices or sizes beyond
 * 32-bit indices: as spira_matrix_from_coo. */
SPIRA_API spira_status spira_gf2_matrix_from_coo(spira_context ctx, int64_t nrows, int64_t ncols,
                                                 int64_t nnz, const int32_t *row_idx,
                                                 const int32_t *col_idx, spira_gf2_matrix *M);
/* Read a Matrix Market file as GF(2): pattern entries are 1; integer or real values are
 * taken mod 2 after duplicates are summed (odd: 1, even: dropped); a value that is not an
 * integer, or beyond 2^53 (where a double no longer holds its parity), is SPIRA_ERR_PARSE
 * naming the entry. Otherwise as spira_matrix_read_mm. To take a real matrix's pattern,
 * read it with spira_matrix_read_mm and pass its CSR's entries to _from_coo. */
SPIRA_API spira_status spira_gf2_matrix_read_mm(spira_context ctx, const char *path,
                                                spira_gf2_matrix *M);
/* Sizes and the number of entries (after cancellation). Any pointer may be NULL. */
SPIRA_API spira_status spira_gf2_matrix_size(spira_gf2_matrix M, int64_t *nrows, int64_t *ncols,
                                             int64_t *nnz);
/* The GF(2) SpMV format ("csr" by default; see spira_gf2_format_describe) and its
 * options. Unknown names and keys are refused here; option values when the plan is built:
 * on the next multiply of a block width (one plan per width, kept) or by _prepare. */
SPIRA_API spira_status spira_gf2_matrix_set_format(spira_gf2_matrix M, const char *name,
                                                   const char *options);
/* Split M's multiplies by rows over n devices of one machine (default 1): on the CUDA
 * backend devices ctx's device, the next, ... (mod the number present), each holding its
 * rows of M in M's format (a plan per width built on that device) and multiplying the
 * whole block by them; between the steps of spira_gf2_krylov_sequence the rows each
 * computed are copied to the others (peer copies, ordered by events), and in
 * spira_gf2_spmv, whose blocks live on ctx's device, the others take a copy of X and send
 * back their rows of Y. The rows are cut so the parts hold about as many nonzeros plus
 * rows each; a part may own none. On the CPU backend the n parts run one after another on
 * the host, copies included: the same bits as n = 1. SPIRA_ERR_INVALID_ARG for n < 1,
 * n > 16 or (CUDA) more devices than present; a device that cannot be set up: its error.
 * Drops M's plans. */
SPIRA_API spira_status spira_gf2_matrix_set_devices(spira_gf2_matrix M, int n);
SPIRA_API spira_status spira_gf2_matrix_devices(spira_gf2_matrix M, int *n);
/* Build the plan for blocks of width bits now, so the first multiply does not pay it;
 * *setup_ms (may be NULL) gets what building it took. */
SPIRA_API spira_status spira_gf2_matrix_prepare(spira_gf2_matrix M, int width, double *setup_ms);
SPIRA_API void spira_gf2_matrix_destroy(spira_gf2_matrix M);
SPIRA_API int spira_gf2_format_count(void);
SPIRA_API spira_status spira_gf2_format_describe(int i, const char **name,
                                                 const char **description);
/* The option keys the i-th GF(2) format takes, space-separated ("" none; NULL: no such). */
SPIRA_API const char *spira_gf2_format_options(int i);
/* Copy out M's entries as a 0-based CSR pattern (sorted columns, after cancellation):
 * nrows + 1 row pointers and nnz columns (sizes from _size). Either pointer may be NULL. */
SPIRA_API spira_status spira_gf2_matrix_get_pattern(spira_gf2_matrix M, int32_t *row_ptr,
                                                    int32_t *col_idx);

/* A block of nrows rows of width bits (64, 128 or 256), zeroed. */
SPIRA_API spira_status spira_gf2_block_create(spira_context ctx, int64_t nrows, int width,
                                              spira_gf2_block *X);
SPIRA_API void spira_gf2_block_destroy(spira_gf2_block X);
/* Copy nrows * width / 64 words in from / out to host memory. */
SPIRA_API spira_status spira_gf2_block_set(spira_gf2_block X, const uint64_t *host);
SPIRA_API spira_status spira_gf2_block_get(spira_gf2_block X, uint64_t *host);

/* Y = M X. X has ncols(M) rows, Y nrows(M), both one width and M's context; Y is not X. */
SPIRA_API spira_status spira_gf2_spmv(spira_gf2_matrix M, spira_gf2_block X, spira_gf2_block Y);
/* Measuring, as for SpMV above: the plan for blocks of width bits (built now if needed),
 * dropping M's plans (of every width), and n multiplies Y = M X each timed on the
 * backend's clock (ms NULL: warm-up; each run is a whole spira_gf2_spmv). */
SPIRA_API spira_status spira_gf2_matrix_plan_info(spira_gf2_matrix M, int width,
                                                  spira_plan_info *info);
SPIRA_API spira_status spira_gf2_matrix_drop_plans(spira_gf2_matrix M);
SPIRA_API spira_status spira_gf2_spmv_time(spira_gf2_matrix M, spira_gf2_block X,
                                           spira_gf2_block Y, int n, double *ms);

/* a_i = X^T A^i Y for i = 0 .. L, the sequence of block Wiedemann (solvers/gf2_krylov.c): X
 * and Y ncols(A) rows of one width W (64, 128 or 256) on A's context; A square, or wide
 * (nrows < ncols) and then padded square with zero rows, as the kernel search does. a gets
 * L + 1 matrices of W x W bits on the host, each W rows of W/64 words (as a block: bit c of
 * row r of a_i = sum_k X(k, r) (A^i Y)(k, c)); L multiplies with two ncols-row blocks
 * resident besides X and Y, the terms summed where the context computes and copied back
 * once. SPIRA_ERR_UNSUPPORTED for a tall A, SPIRA_ERR_INVALID_ARG for mismatched blocks. */
SPIRA_API spira_status spira_gf2_krylov_sequence(spira_gf2_matrix A, spira_gf2_block X,
                                                 spira_gf2_block Y, int64_t L, uint64_t *a);

typedef enum {
    SPIRA_GF2_KERNEL_BIT = 0, /* Wiedemann 64 times in the bits of a block (the reference) */
    SPIRA_GF2_KERNEL_BLOCK    /* Coppersmith's block Wiedemann, m = n = 64 */
} spira_gf2_kernel_method;

typedef struct {
    uint64_t seed;        /* of the random starts and projections; 0: a fixed one */
    int method;           /* spira_gf2_kernel_method; 0: SPIRA_GF2_KERNEL_BIT */
} spira_gf2_kernel_opts;

typedef struct {
    int found;            /* kernel vectors returned: the set bits of lanes */
    uint64_t lanes;       /* bit l set: column l of K is a nonzero vector of ker M */
    int64_t spmvs;        /* block multiplies made */
    int degree;           /* the largest minimal-polynomial degree among the 64 runs
                           * (block: the largest generator degree evaluated) */
    double sequence_ms;   /* the Krylov sequence (2 ncols + 16 multiplies; block: 2 ncols / 64
                           * + 10) */
    double bm_ms;         /* Berlekamp-Massey on the host (block: the matrix one) */
    double evaluate_ms;   /* w = g(M) z and the walk to M^k w = 0, and the final check */
} spira_gf2_kernel_info;

/* Vectors v != 0 with M v = 0 over GF(2), for M with nrows <= ncols (the sieve's matrices
 * are wider than tall, so they have such vectors; a square one may not): up to 64, as the
 * columns of K (ncols rows, 64 bits wide; column l is bit l of every row's word). It is
 * Wiedemann's algorithm run 64 times at once, one run in each bit of a 64-bit block (not
 * Coppersmith's block Wiedemann): random z and projection u per bit, the bits of
 * u^T M^i (M z) for i < 2 ncols + 16 (a block multiply each, M padded square with zero
 * rows), Berlekamp-Massey on the host for each bit's recurrence f = x^k g (O(ncols^2) word
 * operations), w = g(M) z (deg g multiplies), and the last nonzero of w, M w, M^2 w, ...,
 * which M sends to 0. Every returned column is checked: M K is 0 on it. The multiplies use
 * M's format.
 * method SPIRA_GF2_KERNEL_BLOCK: Coppersmith's block Wiedemann with m = n = 64 (solvers/
 * gf2_block_wiedemann.c): random X and Z, Y = M Z, a_i = X^T M^i Y for i < 2 ceil(ncols/64)
 * + 10 (spira_gf2_krylov_sequence), a matrix generator of the a_i on the host (an
 * approximant basis, O(ncols^2 / 64^2) steps of 64 x 128 bits), the 64 generator columns of
 * least degree evaluated at Z in one pass (about ncols/64 multiplies), the walk to M^j v = 0
 * as above; the vectors found are made independent (K's found columns are a basis of the
 * span found, so info->found <= dim ker M) and checked. Multiplies: about 3 ncols / 64.
 * Returns SPIRA_OK with info->found >= 1; SPIRA_ERR_NOT_CONVERGED with K zero
 * when no run found one (M nonsingular, or all 64 unlucky); SPIRA_ERR_UNSUPPORTED for
 * nrows > ncols; SPIRA_ERR_INVALID_ARG for a K of the wrong shape. opts, info may be NULL. */
SPIRA_API spira_status spira_gf2_kernel(spira_gf2_matrix M, spira_gf2_block K,
                                        const spira_gf2_kernel_opts *opts,
                                        spira_gf2_kernel_info *info);

#ifdef __cplusplus
}
#endif
#endif /* SPIRA_H */
