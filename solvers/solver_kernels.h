/*
 * solver_kernels.h - the fused steps that belong to one solver, beside it: each is declared
 * once, with a CPU loop and a dispatcher in X_kernels.c and its CUDA kernel in
 * X_kernels_gpu.cu (kernels_stub.c in a build without CUDA). Generic fused BLAS-1
 * (spira__dots, spira__axpby_dots) stays in lib/.
 */
#ifndef SPIRA_SOLVER_KERNELS_H
#define SPIRA_SOLVER_KERNELS_H

#include "spira_impl.h"

#ifdef __cplusplus
extern "C" {
#endif

struct spira__csr_dev; /* cuda/gateway.h */

/* CG's update in one pass (cg.c): p <- u + beta p; s <- w + beta s; x <- x + alpha p;
 * r <- r - alpha s. u may be r; with beta == 0, p and s are not read. */
spira_status spira__cg_update(double alpha, double beta, spira_vector u, spira_vector w,
                              spira_vector p, spira_vector s, spira_vector x, spira_vector r);
/* PageRank's step after its SpMV (pagerank.c): y <- y + c v, x <- y - x, and
 * *delta = ||x||_1, *dy = (d, y); on the device in one pass and one wait. */
spira_status spira__pagerank_update(double c, spira_vector v, spira_vector y, spira_vector x,
                                    spira_vector d, double *delta, double *dy);

/* CG's iteration as a CUDA graph (cg_graph.c): its scalars in device memory, in one block
 * the host uploads at the start of a run and reads back between batches of iterations.
 * The device's stopping tests are cg.c's and spira__check's, in the same double
 * operations, so the host's replay of the residual norms (hist) comes to the same end. */
typedef enum {
    SPIRA__CG_RUNNING = 0,
    SPIRA__CG_CHECKED,  /* spira__check's tests stopped the solve at `it` */
    SPIRA__CG_MAXIT,    /* the check at `it` passed, and it + 1 > maxit */
    SPIRA__CG_RHO,      /* gamma = (r, M^-1 r) of `it` is 0, NaN or Inf */
    SPIRA__CG_RHO_NEG,  /* gamma < 0 */
    SPIRA__CG_CLASSIC   /* the recurrence's (p, A p) is not positive: the host's classic step */
} spira__cg_stop;

typedef struct {
    /* a run's constants */
    void *x;            /* x's device data, which the update writes */
    double rtol_bnorm;  /* rtol ||b||: converged at or below (spira__check's test) */
    double atol;        /* converged at or below when > 0 */
    double dtol;        /* diverged above dtol rref */
    double bnorm;
    int it0;            /* iterations of earlier rounds: the checks' numbering adds it */
    int maxit;          /* this round's */
    int window;         /* stagnation_window */
    int classic_at;     /* ctx->cg_classic_at */
    /* the state: set by the host at the start, advanced by the device */
    int stop;           /* a spira__cg_stop; every kernel of the iteration returns at once
                         * while it is set */
    int it;             /* the next iteration to check (this round's numbering), or the
                         * one that stopped */
    int best_it;        /* spira__check's stagnation state, and its divergence reference */
    int pad;
    double best, rref;
    double alpha, gamma_old; /* the recurrences' */
    double beta, gamma;     /* of the iteration `it`, for the host's classic step */
    double hist[SPIRA__CG_GRAPH_MAX]; /* ||r_it|| at hist[it % SPIRA__CG_GRAPH_MAX] */
} spira__cg_dev;

/* Their CUDA kernels (device pointers, n values of dtype t, the context's stream). */
spira_status spira__cuda_cg_update(spira_context ctx, int32_t n, spira_dtype t, double alpha,
                                   double beta, const void *du, const void *dw, void *dp,
                                   void *ds, void *dx, void *dr);
/* CG's graph (cg_graph.c), each returning at once when g->stop is set. The sums:
 * (r, r), (w, z) and, with dinv (Jacobi's D^-1), (r, z), reduced as spira__dots does; then
 * the iteration's check, alpha and beta into g. The update: cg_update's, with alpha and
 * beta read from g and x = g->x; with dinv, then z <- D^-1 r, the next iteration's
 * preconditioner apply (what Jacobi's spira__vector_pmul computes). z is r without dinv.
 * With ranks_sum (a distributed solve's sum of device values over the ranks, on the
 * context's stream), the sums are reduced, summed over the ranks, and only then stepped:
 * three launches where the single process has one. */
typedef spira_status (*spira__device_sum_fn)(void *data, int k, double *dv);
/* A distributed SpMV's last step left to the kernel that reads y next: where bit i % 32 of
 * bits[i / 32] is set, y[i] += t[j] with j = base[i / 32] + the bits set below it in that
 * word (the off-diagonal rows' product added into its rows, in the thread that reads row
 * i, so the sums see what spira__dist_add_offdiag would have left, bit for bit). Device
 * pointers; bits NULL: nothing left. Every set bit lies in rows [lo, hi): the rows outside
 * skip the bitmap's load (a row-block stencil's are one plane at an end). */
typedef struct {
    const uint32_t *bits;
    const int32_t *base;
    const void *t;
    int32_t lo, hi;
} spira__row_add;
/* add: NULL or a deferred add into dw, made before dw is read (and written back). */
spira_status spira__cuda_cg_graph_sums(spira_context ctx, int32_t n, spira_dtype t,
                                       const void *dr, void *dw, const void *dz,
                                       int with_dinv, const spira__row_add *add,
                                       spira__device_sum_fn ranks_sum, void *ranks_data,
                                       spira__cg_dev *dg);
spira_status spira__cuda_cg_graph_update(spira_context ctx, int32_t n, spira_dtype t,
                                         const spira__cg_dev *dg, void *dz, const void *dw,
                                         void *dp, void *ds, void *dr, const void *ddinv);
/* out[0] = ||x||_1 and out[1] = (d, y), summed as lib/cuda/reduce.cuh does. */
spira_status spira__cuda_pagerank_update(spira_context ctx, int32_t n, spira_dtype t, double c,
                                         const void *dv, void *dy, void *dx, const void *dd,
                                         double *out);
/* PageRank's row sums s_i, in double, in this order on the host and the GPU alike: the
 * row's entries in chunks of SPIRA__PAGERANK_CHUNK from its first (the last chunk padded
 * with zeros), each chunk summed as a warp's xor tree (v[l] += v[l + h] for l < h, h = 16,
 * 8, 4, 2, 1), the chunks' sums added in order. A warp a row on the GPU, so that a hub of
 * 10^5 entries is not one thread's chain of loads (4 ms of setup on R-MAT 2^20 when it
 * was, session 25 call 6). */
#define SPIRA__PAGERANK_CHUNK 32
/* PageRank's row scales from G's device CSR (pagerank_kernels_gpu.cu): inv[i] = 1 / s_i
 * (device, double) and d[i] = 1 where inv[i] = 0, else 0 (device, G's type), the bits of
 * pagerank.c's row_sums on the host; *bad_row = the first row with a weight not finite or
 * negative, or whose sum is not finite, else nrows (waited for). */
spira_status spira__cuda_pagerank_scales(spira_context ctx, const struct spira__csr_dev *G,
                                         double *inv, void *d, int32_t *bad_row);

#ifdef __cplusplus
}
#endif
#endif
