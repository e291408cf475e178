/*
 * spira_impl.h - private declarations shared by the library's layers (never installed).
 *
 * The context, matrix and vector structs, the error and allocation helpers, and the
 * canonical host CSR. C and CUDA C++ (.cu) files both include it.
 */
#ifndef SPIRA_IMPL_H
#define SPIRA_IMPL_H

#include "config.h"
#include "spira.h"

#include <stdarg.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define SPIRA__PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define SPIRA__PRINTF(f, a)
#endif

/* ---- context ---------------------------------------------------------------------- */

struct spira_cuda_ctx; /* lib/cuda/runtime.cu; NULL on the CPU backend */

struct spira_context_s {
    spira_backend backend; /* CPU or CUDA, never AUTO */
    int device;
    int deterministic;
    char device_name[384];
    char err[1024];
    size_t host_budget;     /* bytes one host allocation may take (spira__budget_check) */
    size_t device_budget;   /* the same for device memory (spira__cuda_malloc) */
    const char *budget_why; /* where the limits came from, for messages */
    /* Nonzero: every SpMV plan converts on the host and uploads its layout, as the CPU
     * reference does, instead of converting on the GPU (set by the tests that compare the
     * two, and by benchmarks that measure the host conversions). */
    int host_convert;
    /* Nonzero (tests): device arrays allocated without a copy (a conversion on the GPU's
     * outputs, spira__dev_clone with host NULL) are filled with SPIRA__POISON_BYTE first, so
     * that a slot a conversion leaves unwritten differs from the host's layout. */
    int poison_builds;
    /* Nonzero: spira__dev_clone gives every device array an allocation of its own instead
     * of carving one call's arrays from one block, so that compute-sanitizer's memcheck sees
     * an overrun of any array. The environment variable SPIRA_SANITIZE=1 sets it when a
     * context is made (bench/gpu-verify.sh's sanitizer runs). */
    int separate_arrays;
    /* CG on the CUDA backend iterates through a CUDA graph where it can (solvers/cg_graph.c):
     * 0 as the library decides (8 iterations between host checks, doubling to 64), -1 never
     * (today's per-iteration path: the tests compare the two), n in 1..64: n iterations
     * between host checks, not capped by maxit (the tests run past the stop). On the CPU
     * backend n > 0 runs the graph's batches with each launch made by calls (so the CPU
     * suite checks the graph's host half); 0 and -1 the per-iteration path. The
     * environment variable SPIRA_CG_GRAPH sets it when a context is made: "off" or n. */
    int cg_graph;
    /* Nonzero (the default): a small plan's multiply is launched from a CUDA graph
     * (spmv/replay.h); the environment variable SPIRA_SPMV_GRAPHS=0 turns it off when a
     * context is made (benchmarks compare the two; tests set it). */
    int spmv_graphs;
    /* Nonzero between spira__cuda_capture_begin and _end (lib/cuda/graph.cu): the context's
     * stream, which only the library sees, is being captured into a graph. */
    int capturing;
#define SPIRA__CG_GRAPH_MAX 64 /* the most iterations between host checks */
    long cg_graph_runs; /* CG runs that went through the graph (the tests count them) */
    long host_trials;   /* AUTO's timed host trials (solvers/solve.c; the tests count them) */
    /* Test hook: CG takes its classic step (cg.c) at this iteration whatever the recurrence
     * says, on both paths, so the tests see the graph hand an iteration to the host and go
     * on. 0: never. */
    int cg_classic_at;
    int chosen;             /* the backend was AUTO's choice, not the caller's */
    /* Set around one fused reduction of a distributed solve on the CUDA backend (solvers/
     * common.c): the reduction hands its k device partials to sum_hook(sum_hook_data, k,
     * partials) before it reads them back (lib/cuda/reduce.cuh), and clears the hook as it
     * does, so the caller knows it ran. NULL otherwise. */
    spira_status (*sum_hook)(void *data, int k, double *dpartials);
    void *sum_hook_data;
    struct spira_context_s *host; /* a CPU context beside a CUDA one, for the solves that
                                   * run on the host (solvers/host_solve.c); made on first
                                   * use, destroyed with this one */
    size_t max_bytes;             /* spira_context_opts.max_bytes, for the contexts made
                                   * beside this one */
#define SPIRA__PARTS_MAX 16
    /* On the CUDA backend, the contexts of the other devices a computation split over
     * several takes (lib/devices.c): part[d] for d >= 1, made on first use, destroyed with
     * this one. part[0] stays NULL (this context is part 0). */
    struct spira_context_s *part[SPIRA__PARTS_MAX];
    /* Plans built beside a solve (spmv/background.c): whether a staged solve may build one
     * (the environment variable SPIRA_BACKGROUND=1; off by default), the worker thread that
     * builds them on a context of its own (lib/context.c; made with a CUDA context that may
     * build, or at the first build, stopped with this one) and, as a test hook, a format to
     * build whatever auto's rule says (the CPU backend's rule never builds one). */
    int background;
    struct spira__worker *worker;
    const char *background_format;
    /* A builder's context (spira__context_builder): on the CUDA backend a stream and
     * scratch of its own, none of cuBLAS, the pinned staging buffers or the preload */
    int lite;
    struct spira_cuda_ctx *cuda;
};

/* A new context for building plans beside the work of the context `like` describes (a
 * copy of it, so that another thread may run this while that one goes on): the same
 * backend, device and limits, lite (above). */
spira_status spira__context_builder(const struct spira_context_s *like, spira_context *out);
/* ctx's worker (lib/context.c): a thread of its own that makes a builder like ctx, then runs
 * the tasks handed to it, one at a time, each with that builder (NULL where it could not be
 * made). start: made now if need be (1), or no thread could be had (0). post: the task
 * handed over once the worker is free (1), or no worker (0). wait: until the worker is free
 * (the builder's making included): a solve waits before its setup, whose CUDA graph capture
 * must see no other thread's calls that could synchronize with it. stop: the task under
 * way finished, the builder destroyed, the thread joined. */
int spira__worker_start(spira_context ctx);
int spira__worker_post(spira_context ctx, void (*task)(void *arg, spira_context builder),
                       void *arg);
void spira__worker_wait(spira_context ctx);
void spira__worker_stop(spira_context ctx);

/* ctx itself on the CPU backend, else its CPU companion (made now if need be). */
spira_status spira__context_host(spira_context ctx, spira_context *host);

/* ---- several devices of one machine (lib/devices.c) ----------------------------------
 * A computation split into n parts runs part d on spira__context_part(ctx, d): ctx itself
 * for d = 0, and on the CPU backend for every d (the n parts then run one after another on
 * the host, through the same code); else a context of its own (stream, cuBLAS, scratch,
 * budget: ctx's options) on CUDA device (ctx->device + d) mod the device count, made on
 * first use with peer access to the others where the hardware has it, destroyed with ctx.
 * Every CUDA call goes to the current device: make a part's device current
 * (spira__context_activate) before calling anything on its context, and ctx's again when
 * done. The parts' streams are ordered by events, not by waits on the host. */
/* SPIRA_OK if n parts can be had: 1 <= n <= SPIRA__PARTS_MAX, and on the CUDA backend
 * n <= the devices present; else SPIRA_ERR_INVALID_ARG saying which. what names the call. */
spira_status spira__parts_check(spira_context ctx, int n, const char *what);
spira_status spira__context_part(spira_context ctx, int d, spira_context *part);
spira_status spira__context_activate(spira_context ctx); /* no-op on the CPU */
/* A failure s on part's context, told in ctx's message (the part's device named); s. */
spira_status spira__part_error(spira_context ctx, spira_context part, spira_status s);
/* A point in a context's stream that any part's stream can wait for (NULL on the CPU, where
 * everything is in order already). A context has two streams on the GPU: side 0 runs its
 * kernels, side 1 (made on first use) copies that overlap them. */
typedef struct spira__event spira__event;
spira_status spira__event_create(spira_context ctx, spira__event **e);
void spira__event_destroy(spira_context ctx, spira__event *e); /* NULL is fine */
/* e marks what is queued on ctx's stream `side` now; that stream waits for e (e NULL: no
 * other part to order against, as on one device: nothing) */
spira_status spira__event_record(spira_context ctx, int side, spira__event *e);
spira_status spira__event_wait(spira_context ctx, int side, spira__event *e);
/* bytes from src (memory of src_ctx) to dst (of dst_ctx), queued on ctx's stream `side`
 * (ctx is one of the two); between two devices a peer copy. */
spira_status spira__mem_copy_peer(spira_context ctx, int side, void *dst, spira_context dst_ctx,
                                  const void *src, spira_context src_ctx, size_t bytes);

/* Record a failure: formats the message into ctx (may be NULL) and returns s. */
spira_status spira__error(spira_context ctx, spira_status s, const char *fmt, ...)
    SPIRA__PRINTF(3, 4);
spira_status spira__verror(spira_context ctx, spira_status s, const char *fmt, va_list ap);
/* SPIRA_ERR_NOMEM naming what could not be allocated and its size. */
spira_status spira__nomem(spira_context ctx, const char *what, size_t bytes);

/* Evaluate a call returning spira_status; return its status from the caller if not OK. */
#define SPIRA__TRY(call)                                                                 \
    do {                                                                                 \
        spira_status spira__s = (call);                                                  \
        if (spira__s != SPIRA_OK) return spira__s;                                       \
    } while (0)

/* ---- memory (lib/alloc.c) ------------------------------------------------------------
 * Every host allocation of the library goes through these, so a test can make the n-th
 * allocation fail (spira__alloc_fail_at) and check that nothing leaks. Device
 * allocations count too (spira__alloc_should_fail). */
void *spira__malloc(size_t bytes);
void *spira__calloc(size_t count, size_t size);
void *spira__realloc(void *p, size_t bytes);
void spira__free(void *p);
/* The memory budget (spira_context_opts.max_bytes). spira__budget_init sets the host limit
 * from max_bytes, SPIRA_MAX_BYTES or the memory available, and ctx->device_budget to
 * max_bytes or SPIRA_MAX_BYTES (0 when neither: lib/cuda takes cudaMemGetInfo's free).
 * spira__budget_check: SPIRA_OK if `count` items of `size` bytes for `what` fit the host
 * limit, else SPIRA_ERR_NOMEM naming the need, what for and the limit, before anything is
 * allocated; a product that overflows never fits. spira__budget_check_device is the same
 * against the device limit, and spira__budget_check_mem where ctx computes. ctx NULL:
 * no limit. */
spira_status spira__budget_init(spira_context ctx, size_t max_bytes);
spira_status spira__budget_check(spira_context ctx, size_t count, size_t size, const char *what);
spira_status spira__budget_check_device(spira_context ctx, size_t count, size_t size,
                                        const char *what);
spira_status spira__budget_check_mem(spira_context ctx, size_t count, size_t size,
                                     const char *what);
/* Allocate count*size bytes with overflow and budget checks; on failure set a NOMEM error
 * naming what. */
spira_status spira__alloc(spira_context ctx, void **p, size_t count, size_t size, const char *what);
/* Test hook: host requests above `bytes` fail (0: no limit). Fuzz targets use it, since
 * a two-line Matrix Market file may legitimately declare 2e9 rows (8 GB of row pointers). */
void spira__alloc_limit(size_t bytes);
/* Test hook: the n-th allocation from now fails (n >= 1); 0 disables. */
void spira__alloc_fail_at(long n);
/* 1 if the allocation now being made must fail (consumes one count). */
int spira__alloc_should_fail(void);
/* Number of allocations made while the hook was armed (to know when a walk is done). */
long spira__alloc_count(void);
/* Blocks allocated and not yet freed (host through spira__malloc, device through
 * spira__cuda_malloc, which reports with spira__alloc_track). A leak test compares it. */
long spira__alloc_live(void);
void spira__alloc_track(long delta);
/* memcpy by up to half the OpenMP threads, at most 8 (one in a build without OpenMP), for
 * copies into pinned staging buffers, where one core's copy is slower than the link. */
void spira__memcpy_parallel(void *dst, const void *src, size_t bytes);
/* The threads a pass over bytes of host memory takes (memcpy_parallel's rule): 1 for less
 * than a megabyte, at most half the OpenMP threads and 8. */
int spira__host_parts(size_t bytes);

/* xorshift64 (Marsaglia's 13, 7, 17): the next word of a small, fast generator whose state
 * is *s (never 0). For GF(2) blocks: random starts in the library, inputs in the tests and
 * benchmarks. */
static inline uint64_t spira__xorshift64(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *s = x;
}

/* Host threads (lib/threads.c). Below SPIRA__PARALLEL_ITEMS items a pass over them is one
 * thread's. spira__threads_for: the threads for a pass over items that each need `room`
 * items' worth of scratch (a cursor per bucket, a sort buffer, a row marker): at most
 * items / room of them, so that the scratch of all stays within the items' own size.
 * spira__team: this thread's number and its team's size (0 and 1 outside a team or
 * without OpenMP). */
#define SPIRA__PARALLEL_ITEMS 100000
int spira__threads_for(int64_t items, int64_t room);
void spira__team(int *t, int *n);

/* Wall clock in milliseconds (monotonic), and the median of n > 0 values, which it sorts
 * in place (lib/timing.c). */
double spira__now_ms(void);
double spira__median(double *v, int n);
/* n calls of call(arg) timed one by one on ctx's clock (CUDA events around each on the
 * context's stream; the wall clock on the CPU), ms[k] the k-th (ms NULL: not kept); stops
 * at the first failure and returns it. */
spira_status spira__time_calls(spira_context ctx, int n, double *ms,
                               spira_status (*call)(void *arg), void *arg);

/* ---- option fields (lib/options.c) ---------------------------------------------------
 * Each resolves the field in place or returns SPIRA_ERR_INVALID_ARG naming it (field is
 * "spira_solve_opts.rtol" and the like), its value and the range.
 * spira__opt_tol: 0 becomes dflt, SPIRA_TOL_ZERO becomes 0, else finite and > 0.
 * spira__opt_real: 0 becomes dflt, then finite and within lo..hi (ends excluded if *_open).
 * spira__opt_count: 0 becomes dflt, then 1..hi. */
spira_status spira__opt_tol(spira_context ctx, const char *field, double *tol, double dflt);
spira_status spira__opt_real(spira_context ctx, const char *field, double *v, double dflt,
                             double lo, int lo_open, double hi, int hi_open);
spira_status spira__opt_count(spira_context ctx, const char *field, int *v, int dflt, int hi);

/* ---- host CSR (lib/csr.c) -------------------------------------------------------------
 * Canonical form: 0-based, columns strictly increasing in each row (duplicates summed),
 * all sizes within int32. */
typedef struct {
    int32_t nrows, ncols, nnz;
    spira_dtype dtype;
    int32_t *row_ptr; /* nrows + 1 */
    int32_t *col_idx; /* nnz */
    void *val;        /* nnz values of dtype */
} spira__csr;

/* Check that sizes fit 32-bit indices; SPIRA_ERR_UNSUPPORTED naming them otherwise. */
spira_status spira__check_dims(spira_context ctx, int64_t nrows, int64_t ncols, int64_t nnz);
/* *A's arrays for an nrows x ncols CSR with room for nnz entries (with_values 0: a
 * pattern, val stays NULL), the three budget-checked together; on failure none is left. */
spira_status spira__csr_alloc(spira_context ctx, spira__csr *A, int32_t nrows, int32_t ncols,
                              int32_t nnz, spira_dtype dtype, int with_values);
/* Build canonical CSR from COO triplets (0-based; val in dtype, NULL: ones). Validates
 * indices. Does not take ownership of the inputs. */
spira_status spira__csr_from_coo(spira_context ctx, int64_t nrows, int64_t ncols, int64_t nnz,
                                 const int32_t *ri, const int32_t *ci, const void *val,
                                 spira_dtype dtype, spira__csr *out);
/* Build canonical CSR from (possibly unsorted, duplicated) CSR arrays; validates. */
spira_status spira__csr_from_arrays(spira_context ctx, int64_t nrows, int64_t ncols,
                                    const int32_t *rp, const int32_t *ci, const void *val,
                                    spira_dtype dtype, spira__csr *out);
/* AT = A^T, each row of AT (a column of A) in ascending order; a pattern (val NULL) gives a
 * pattern. */
spira_status spira__csr_transpose(spira_context ctx, const spira__csr *A, spira__csr *AT);
/* The same with row i of A scaled by row_scale[i] on the way (A^T(j,i) = A(i,j) row_scale[i],
 * the product in double, rounded once to A's type). */
spira_status spira__csr_transpose_scaled(spira_context ctx, const spira__csr *A,
                                         const double *row_scale, spira__csr *AT);
void spira__csr_free(spira__csr *A);
/* A(i, j) of canonical A (a binary search in row i), 0 when not stored. */
double spira__csr_entry(const spira__csr *A, int32_t i, int32_t j);
/* 1 and the first (*i, *j) (0-based) where A(i,j) and A(j,i) differ by more than
 * rel (|A(i,j)| + |A(j,i)|), an entry not stored counting as 0; 0 when A is square and
 * symmetric so. Binary searches in the sorted rows: no memory. */
int spira__csr_asymmetry(const spira__csr *A, double rel, int32_t *i, int32_t *j);
/* A row or a column of A with no nonzero value (none stored, or all stored values 0): *line
 * gets its 0-based index and *is_col whether it is a column, or *line = -1 when there is
 * none. Needs ncols bytes of scratch (NOMEM when they cannot be had). */
spira_status spira__csr_empty_line(spira_context ctx, const spira__csr *A, int32_t *line,
                                   int *is_col);
/* Pieces of spira__csr_from_coo that the parallel Matrix Market reader shares: the
 * longest row of [r0, r1) out of column order; sort the entries [b, b + len) of A by
 * column, stably (keys: len pairs, vals: len values); sum repeated columns within each
 * sorted row, in order, and close the gaps (nnz shrinks, the arrays keep their size). */
int32_t spira__csr_longest_unsorted(const spira__csr *A, int32_t r0, int32_t r1);
typedef struct {
    int32_t col, pos;
} spira__col_pos;
void spira__csr_sort_row(spira__csr *A, int32_t b, int32_t len, spira__col_pos *keys, char *vals);
/* Sort the columns of every row of A that is out of order (values alongside, stably),
 * through one buffer sized by the longest such row. */
spira_status spira__csr_sort_rows(spira_context ctx, spira__csr *A);
void spira__csr_merge_duplicates(spira__csr *A);
/* 1 when every stored value of A is exactly 1 (a pattern file's, a graph's), by the threads
 * of spira__host_parts, each stopping at the first other value any of them finds: the
 * device copy then fills them instead of copying (spmv.c). */
int spira__csr_values_one(const spira__csr *A);
/* Value k of a dtype array as double, and the store. */
static inline double spira__get(const void *v, spira_dtype t, int64_t k)
{
    return t == SPIRA_R64 ? ((const double *)v)[k] : (double)((const float *)v)[k];
}
static inline void spira__set(void *v, spira_dtype t, int64_t k, double x)
{
    if (t == SPIRA_R64) ((double *)v)[k] = x;
    else ((float *)v)[k] = (float)x;
}
/* CPU reference y <- alpha A x + beta y over canonical CSR, in A's dtype. beta == 0
 * overwrites y without reading it (so NaN in y does not propagate, as in BLAS). */
void spira__csr_spmv_host(const spira__csr *A, double alpha, const void *x, double beta,
                          void *y);
/* The same in double whatever A's dtype (x, y double): the tests' reference. */
void spira__csr_spmv_f64(const spira__csr *A, double alpha, const double *x, double beta,
                         double *y);

/* Symmetric orderings of a square A (lib/reorder.c). perm[k] is the old row placed at
 * position k, so P A P^T has entry (k, l) = A(perm[k], perm[l]) and (P x)[k] = x[perm[k]].
 * spira__csr_sym_graph: the pattern of A + A^T without the diagonal, rows xadj[i] ..
 * xadj[i+1] of adj, sorted (both freed by the caller). spira__csr_rcm: reverse
 * Cuthill-McKee on that graph (each component from a pseudo-peripheral vertex, neighbours
 * by increasing degree, the order reversed). spira__csr_degree_order: rows by decreasing
 * length, ties in row order. spira__csr_permute: B = P A P^T, canonical. spira__csr_bandwidth:
 * max |i - j| over the stored entries (0 for an empty or diagonal A). */
spira_status spira__csr_sym_graph(spira_context ctx, const spira__csr *A, int32_t **xadj,
                                  int32_t **adj);
spira_status spira__csr_rcm(spira_context ctx, const spira__csr *A, int32_t *perm);
spira_status spira__csr_degree_order(spira_context ctx, const spira__csr *A, int32_t *perm);
spira_status spira__csr_permute(spira_context ctx, const spira__csr *A, const int32_t *perm,
                                spira__csr *B);
int32_t spira__csr_bandwidth(const spira__csr *A);
/* perm <- ordering kind of square A (NONE: the identity), then B = P A P^T. */
spira_status spira__csr_reorder(spira_context ctx, const spira__csr *A, spira_reorder kind,
                                int32_t *perm, spira__csr *B);

/* Row r (0-based) of spira_matrix_laplacian's dim-D Laplacian on an n^dim grid (lib/
 * generate.c): its columns ascending in col, its values in val (room for 2 dim + 1 each);
 * returns how many. The distributed generator makes each rank's rows with it. */
int spira__laplacian_row(int dim, int64_t n, int64_t r, int64_t *col, double *val);
/* Edge k (0-based) of the R-MAT graph on 2^scale vertices with Graph500's parameters (a, b,
 * c = 0.57, 0.19, 0.19), from seed alone: (u, v), vertex numbers scrambled by a fixed
 * bijection. Any process makes any edge, so a distributed generator splits them freely. */
void spira__rmat_edge(int scale, uint64_t seed, int64_t k, int64_t *u, int64_t *v);
/* Its arguments checked (dim 2 or 3, 1 <= n <= 2e6), *rows = n^dim. */
spira_status spira__laplacian_check(spira_context ctx, int dim, int64_t n, int64_t *rows);
/* R-MAT's arguments checked: scale 1..40, edge factor 1..1024, dtype a real type. */
spira_status spira__rmat_check(spira_context ctx, int scale, int edge_factor, spira_dtype dtype);

/* ---- matrix (lib/matrix.c) ------------------------------------------------------------
 * The matrix owns its canonical CSR and a cache of plans built by upper layers (spmv/,
 * precond/). lib/ never looks inside a plan: each entry carries its destroy function. */
typedef struct spira__cache_entry {
    char key[128];
    void *plan;
    void (*destroy)(void *plan);
    double build_ms;
    struct spira__cache_entry *next;
} spira__cache_entry;

/* "auto"'s state in a matrix (spmv/auto.c): the format is auto's to choose and change. */
typedef struct {
    int on;            /* 0 once a format is named (or a timed trial chose) */
    char opts[64];     /* auto's options */
    int64_t since;     /* A's multiplies when the current choice was made */
    int64_t recheck;   /* weigh the choice again once A's multiplies reach this */
    double solve_ms;   /* iterations of the solves since the choice */
    size_t reason_len; /* format_reason's predicted part; the realized part follows */
} spira__autosel;

struct spira_matrix_s {
    spira_context ctx;
    spira__csr csr;
    int host_absent;          /* csr's arrays are NULL: the CSR lives in the device CSR
                               * entry alone (a matrix made on the GPU, spmv/transpose.c),
                               * downloaded when a host conversion asks (spmv.c) */
    int symmetric;
    char format[32];          /* selected SpMV format name; "" until spmv/ records one */
    char format_opts[64];     /* its options string, "" if none */
    char format_reason[512];  /* why "auto" chose format ("" when chosen by name) */
    double select_ms;         /* what choosing it cost "auto" (spira_matrix_info.select_ms) */
    int64_t multiplies;       /* SpMVs made with A's plans, any format (spmv/ counts them) */
    spira__autosel autosel;   /* "auto" (spmv/auto.c) */
    struct {                  /* spira__matrix_empty_line's answer, once known */
        int known, is_col;
        int32_t line;
    } empty;
    spira__cache_entry *cache;
};

spira__cache_entry *spira__matrix_cache_find(spira_matrix A, const char *key);
/* Takes ownership of plan (destroyed on failure too). */
spira_status spira__matrix_cache_put(spira_matrix A, const char *key, void *plan,
                                     void (*destroy)(void *), double build_ms,
                                     spira__cache_entry **entry);
/* *out = the plan of A's entry under key: found, or built by build(A, arg, &plan) (timed)
 * and put there; a build that fails leaves nothing (it frees what it made). */
spira_status spira__matrix_cache_get(spira_matrix A, const char *key, const void *arg,
                                     spira_status (*build)(spira_matrix A, const void *arg,
                                                           void **plan),
                                     void (*destroy)(void *), void **out);
/* Remove and destroy the entry with key, if any (benchmarks free one format's plan
 * before building the next). */
void spira__matrix_cache_drop(spira_matrix A, const char *key);
/* A's first row, else column, without a nonzero value (spira__csr_empty_line; *line -1 if
 * none), scanned once: a matrix never changes, and the scan is a pass over the entries
 * that every solve of a large matrix would otherwise pay on the host. */
spira_status spira__matrix_empty_line(spira_matrix A, int32_t *line, int *is_col);
/* Wrap a canonical CSR (taken over) into a new matrix handle. */
spira_status spira__matrix_wrap(spira_context ctx, spira__csr *csr, int symmetric,
                                spira_matrix *A);

/* ---- Matrix Market (lib/mmio.c) ------------------------------------------------------- */

spira_status spira__mm_read(spira_context ctx, const char *path, spira_dtype dtype,
                            spira__csr *out, int *symmetric);
/* Parse from memory (used by the file reader and by the fuzz target); name is used in
 * messages. */
spira_status spira__mm_parse(spira_context ctx, const char *name, const char *text, size_t len,
                             spira_dtype dtype, spira__csr *out, int *symmetric);
/* The same for a dense vector file (n x 1 or 1 x n), made in ctx: spira_vector_read_mm
 * without the file (the vector fuzz target drives it). */
spira_status spira__mm_parse_vector(spira_context ctx, const char *name, const char *text,
                                    size_t len, spira_dtype dtype, spira_vector *v);

/* ---- vectors (lib/vector.c) ---------------------------------------------------------- */

struct spira_vector_s {
    spira_context ctx;
    int32_t n;
    spira_dtype dtype;
    void *data; /* device memory on CUDA, host memory on CPU */
};

/* A block of W-bit vectors over GF(2) (lib/gf2_block.c; multiplied in spmv/gf2.c).
 * spira__gf2_width_check: INVALID_ARG unless width is 64, 128 or 256. */
spira_status spira__gf2_width_check(spira_context ctx, int width);
/* On n words where ctx computes, without waiting on the GPU: y ^= x & mask; *out ^= XOR_i
 * (x[i] & y[i]), the 64 lane-wise inner products; *out |= OR_i x[i], the nonzero lanes
 * (out too where ctx computes). */
spira_status spira__gf2_xor_masked(spira_context ctx, int32_t n, const uint64_t *x, uint64_t mask,
                                   uint64_t *y);
spira_status spira__gf2_dot_into(spira_context ctx, int32_t n, const uint64_t *x,
                                 const uint64_t *y, uint64_t *out);
spira_status spira__gf2_or_into(spira_context ctx, int32_t n, const uint64_t *x, uint64_t *out);
struct spira_gf2_block_s {
    spira_context ctx;
    int32_t nrows;
    int words;      /* width / 64 */
    uint64_t *data; /* device memory on CUDA, host memory on CPU */
};

/* Check that vectors share a context, a length and a dtype (any may be NULL to skip). */
spira_status spira__vectors_match(spira_vector x, spira_vector y, spira_vector z);
/* w <- x .* y elementwise (preconditioners). */
spira_status spira__vector_pmul(spira_vector x, spira_vector y, spira_vector w);
/* y[i] <- x[idx[i]] for i < n(y): a gather through idx (n(y) int32 indices into x, held
 * where the context computes), x and y of one context and dtype, y not x. The solvers'
 * reordering moves b and x in and out of the permuted numbering with it. */
spira_status spira__vector_gather(spira_vector x, const int32_t *idx, spira_vector y);
/* out[i] <- (x[i], y[i]) for i < k, k <= SPIRA__DOTS_MAX, all vectors alike: on the device in
 * one pass and one wait, summed in double in both precisions (the same bits run to run). */
#define SPIRA__DOTS_MAX 3
spira_status spira__dots(int k, const spira_vector *x, const spira_vector *y, double *out);
/* y <- a x + b y (y not read when b == 0), then out[i] <- (y, z[i]) for i < k <= 2; z[i]
 * may be y. On the device in one pass and one wait (BiCGSTAB's residual updates). */
spira_status spira__axpby_dots(double a, spira_vector x, double b, spira_vector y, int k,
                               const spira_vector *z, double *out);
/* Allocate / free memory where ctx computes (device or host). */
spira_status spira__mem_alloc(spira_context ctx, void **p, size_t bytes, const char *what);
void spira__mem_free(spira_context ctx, void *p);
/* Copy host memory to where ctx computes, and back. */
spira_status spira__mem_upload(spira_context ctx, void *dst, const void *src, size_t bytes);
spira_status spira__mem_download(spira_context ctx, void *dst, const void *src, size_t bytes);
spira_status spira__mem_zero(spira_context ctx, void *p, size_t bytes);
spira_status spira__mem_copy(spira_context ctx, void *dst, const void *src, size_t bytes);

#ifdef __cplusplus
}
#endif
#endif /* SPIRA_IMPL_H */
