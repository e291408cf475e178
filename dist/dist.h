/*
 * dist.h - the distributed layer's private structs: the row layout shared by a matrix and
 * its vectors (layout.c), the halo exchange pattern (halo.c), the matrix (matrix.c) and the
 * vector (vector.c). Only this layer includes mpi.h; the layers below know a distributed
 * solve only through spira__solve_comm (solvers/solver.h).
 */
#ifndef SPIRA_DIST_H
#define SPIRA_DIST_H

#include "spira_impl.h"
#include "spira_mpi.h"
#include "spmv.h"
#include "solver.h"
#include "dist_gpu.h"

/* ---- the layout (layout.c) ---------------------------------------------------------- */

/* Which rows each rank owns, counted by the matrix and vectors that share it. */
typedef struct {
    spira_context ctx; /* where its matrices and vectors compute */
    MPI_Comm comm;   /* a duplicate of the caller's: our messages never meet theirs */
    spira__nccl *gpu; /* a CUDA context's NCCL communicator over the same ranks, else NULL */
    int rank, size;
    int64_t n;       /* global rows */
    int64_t *starts; /* size + 1: rank r owns [starts[r], starts[r + 1]) */
    int64_t first;   /* starts[rank] */
    int32_t local;   /* starts[rank + 1] - starts[rank] */
    int refs;
    /* collective calls made through it (spira_dist_matrix_info) */
    int64_t exchanges, reductions;
} spira__dist_layout;

/* Every rank passes its status s of the phase just done; when some failed and some did
 * not, all return the status of the lowest failing rank, whose message every rank gets,
 * prefixed "rank R: " (so the same sentence everywhere); when all failed, each its own
 * (a global fact gives the same everywhere); SPIRA_OK when none failed. One
 * MPI_Allreduce, and a broadcast when some rank failed alone. */
spira_status spira__dist_agree(spira_context ctx, MPI_Comm comm, spira_status s);
/* A layout of the rows over comm: each rank's local count (SPIRA_DIST_EVEN on all ranks:
 * an even split of n; else n < 0 means "the sum of the counts"). Collective and agreed:
 * counts that do not sum to n, or a mix of SPIRA_DIST_EVEN and counts, fail on every rank. */
spira_status spira__dist_layout_create(spira_context ctx, MPI_Comm comm, int64_t n,
                                       int64_t local_rows, spira__dist_layout **out);
spira__dist_layout *spira__dist_layout_ref(spira__dist_layout *L);
void spira__dist_layout_unref(spira__dist_layout *L); /* NULL is fine; not collective */
/* The rank owning global row g (0 <= g < n). */
int spira__dist_owner(const spira__dist_layout *L, int64_t g);
/* v[0..k) (host) summed over all ranks in place, in double: one MPI_Allreduce, or on the
 * GPU path one ncclAllReduce (counted). */
spira_status spira__dist_sum(spira_context ctx, spira__dist_layout *L, int k, double *v);
/* The same for device partials d[0..k) on the GPU path, enqueued on the context's stream
 * (the solvers' fused reductions: spira__solve_comm.dsum). */
spira_status spira__dist_sum_device(spira_context ctx, spira__dist_layout *L, int k, double *d);
/* A CPU context, or a CUDA one in a library built --with-nccl; else SPIRA_ERR_UNSUPPORTED
 * saying why not. */
spira_status spira__dist_check_context(spira_context ctx);

/* ---- the halo exchange (halo.c) ----------------------------------------------------
 * Built once per matrix from the sorted global indices of its ghost columns: rank r
 * receives its ghosts from each owner in turn (ghosts [recv_off[i], recv_off[i + 1]) from
 * recv_rank[i]) and sends the x entries others read (send_idx[send_off[i] ..
 * send_off[i + 1]) are local indices, sent to send_rank[i]). An exchange is start (pack
 * the sends, post every receive and send) and finish (wait for them all); what runs
 * between them overlaps the transfer. On the CPU the transport is MPI point-to-point on
 * host buffers; on a CUDA context (a layout with an NCCL communicator) gpu does the same
 * pattern on the device (a pack kernel, NCCL's grouped send/recv: dist_gpu.h), and the
 * host buffers serve only the reverse exchange of flags. */
typedef struct {
    spira__dist_layout *L;
    spira_dtype dtype;
    int32_t nghost;
    int nrecv, nsend;
    int *recv_rank, *send_rank;
    int32_t *recv_off, *send_off; /* nrecv + 1, nsend + 1 */
    int32_t *send_idx;            /* send_off[nsend] local indices */
    int32_t *send_at;             /* nsend: where send_rank[i]'s ghosts from this rank
                                     start among its ghosts */
    void *send_buf;               /* send_off[nsend] values of dtype */
    MPI_Request *req;             /* nrecv + nsend */
    int posted;                   /* an exchange is in flight */
    spira__nccl_halo *gpu;        /* the GPU exchange, or NULL on the CPU */
} spira__halo;

/* The pattern for ghosts ghost[0..nghost) (sorted, distinct, none of them this rank's). */
spira_status spira__halo_create(spira_context ctx, spira__dist_layout *L, spira_dtype dtype,
                                int32_t nghost, const int64_t *ghost, spira__halo **out);
void spira__halo_destroy(spira__halo *h);
/* Post the exchange of x (local values of dtype): ghosts arrive in ghost_out (nghost values),
 * which must not be touched until finish. */
spira_status spira__halo_start(spira_context ctx, spira__halo *h, const void *x, void *ghost_out);
spira_status spira__halo_finish(spira_context ctx, spira__halo *h);
/* On GPUs, between start and finish: what the caller enqueues between side_begin and
 * side_end runs behind the ghosts' arrival on the exchange's own stream, overlapping the
 * context's stream, and finish waits for it too (dist_gpu.h). *on is 0 on MPI's exchange
 * or with nothing posted: then nothing is swapped, and that work belongs after finish. */
spira_status spira__halo_side_begin(spira_context ctx, spira__halo *h, int *on);
spira_status spira__halo_side_end(spira_context ctx, spira__halo *h);
/* The reverse, for flags: each ghost's flag is OR-ed into its owner's local flag
 * (local_flags: local bytes, updated). Collective, blocking. */
spira_status spira__halo_reverse_or(spira_context ctx, spira__halo *h,
                                    const unsigned char *ghost_flags, unsigned char *local_flags);

/* ---- the matrix (matrix.c) ----------------------------------------------------------- */

struct spira_dist_matrix_s {
    spira_context ctx;
    spira__dist_layout *L;
    spira_dtype dtype;
    int64_t nnz;            /* global */
    spira_matrix diag;      /* local x local */
    /* orows x nghost, NULL when nghost is 0: only the rows with a remote column, so its
     * multiply costs its entries, not the rank's rows (PETSc's compressed rows of MPIAIJ's
     * B): a 3-D Laplacian's rank has one plane of such rows out of its n/p planes */
    spira_matrix offdiag;
    int32_t orows;          /* its rows */
    int32_t *orow;          /* the local row of each, ascending (host) */
    int32_t *dorow;         /* the same where ctx computes (spira__mem_alloc) */
    /* on GPUs, the same rows as a bitmap over the rank's rows, and each word's count of
     * set bits before it (spira__row_add: CG's graph adds the product in its sums) */
    uint32_t *dbits;
    int32_t *dbase;
    spira_vector otmp;      /* orows values: its product, before it is added into y */
    int64_t *ghost;         /* nghost global column indices, ascending */
    int32_t nghost;
    spira__halo *halo;
    spira_vector ghost_x;   /* the received ghosts, nghost values (NULL when none) */
    /* on GPUs whose ranks sum inside kernels, the halo CG's graph writes in its kernels
     * (dist_gpu.h), made at the matrix's first CG solve (kernel_halo.c); NULL otherwise */
    spira__nccl_kernel_halo *kh;
    int kh_tried;
    /* the blocks' SpMV plans a solve multiplies with, set by spira__dist_prepare */
    spira__spmv_plan *pd, *po;
    /* PageRank's transition (pagerank.c), built on its first call: P^T over the same rows,
     * and this rank's rows of the dangling indicator d */
    spira_dist_matrix pt;
    spira_vector dangling;
};

/* The bitmap of spira__row_add (solver_kernels.h) for the ascending rows[0..count) of m:
 * bit i % 32 of bits[i / 32] set where row i is listed, base[w] the rows listed in the words
 * before w, so that row i is rows[base[i / 32] + the bits set below it in its word]. bits
 * and base hold (m + 31) / 32 words each. */
void spira__dist_row_bitmap(const int32_t *rows, int32_t count, int32_t m, uint32_t *bits,
                            int32_t *base);

/* The matrix from this rank's rows (layout L, referenced): row_ptr (L->local + 1, from 0),
 * global columns and values (dtype; NULL: ones); symmetric is the global matrix's flag,
 * given to the blocks. Collective and agreed. */
spira_status spira__dist_matrix_build(spira_context ctx, spira__dist_layout *L,
                                      const int64_t *row_ptr, const int64_t *col_idx,
                                      const void *val, spira_dtype dtype, int symmetric,
                                      spira_dist_matrix *out);

/* ---- vectors (vector.c) ---------------------------------------------------------------- */

struct spira_dist_vector_s {
    spira__dist_layout *L;
    spira_vector local;
};

/* x and y (may be NULL) of A's layout, length and dtype; names for the message. */
spira_status spira__dist_vectors_match(spira_dist_matrix A, spira_dist_vector x, const char *xn,
                                       spira_dist_vector y, const char *yn);

/* ---- entries to their rows' owners (route.c) ------------------------------------------ */

/* The matrix from entries any rank holds: count (row, column) pairs rc (global, 2 an
 * entry) and values val (NULL: a pattern, every value one), each sent to the rank owning
 * its row (MPI_Alltoallv), the rows built there in arrival order (the build sorts them)
 * and handed to spira__dist_matrix_build with dtype and symmetric. what names the
 * entries in messages ("entries", "edges"). Collective and agreed. */
spira_status spira__dist_route_build(spira_context ctx, spira__dist_layout *L, int64_t count,
                                     const int64_t *rc, const double *val, spira_dtype dtype,
                                     int symmetric, const char *what, spira_dist_matrix *A);
/* This rank's rows from the n entries that arrived: (global row, global column) pairs in
 * (2 an entry, every row this rank's) and values inval (NULL: none, typed untouched): row
 * pointers rp[0..m], then the columns ci and the values typed (dtype) of each row in
 * arrival order. fill is m + 1 ints of scratch. In parallel (OpenMP) and the same for any
 * number of threads: each thread counts, then places, the entries of its own range of
 * rows, scanning them all in order. */
void spira__dist_rows_place(const spira__dist_layout *L, int64_t n, const int64_t *in,
                            const double *inval, spira_dtype dtype, int64_t *rp, int64_t *ci,
                            void *typed, int32_t *fill);

/* ---- the operator (spmv.c) ----------------------------------------------------------- */

/* y[orow[i]] += t[i] for i < A->orows, where ctx computes (the off-diagonal block's product
 * added to the rows it belongs to). */
spira_status spira__dist_add_offdiag(spira_dist_matrix A, const spira_vector t, void *y);

/* The blocks' plans for a caller expecting about `expect` multiplies (auto weighs its
 * choice by it), kept in A for spira__dist_spmv_local. Local: the caller agrees on it. */
spira_status spira__dist_prepare(spira_dist_matrix A, double expect);
/* y <- alpha A x + beta y on this rank's rows, x and y its local parts (distinct), with the
 * plans of the last spira__dist_prepare. Collective through the halo exchange, which every
 * rank makes whatever happens, so a rank never leaves its neighbors waiting. */
spira_status spira__dist_spmv_local(spira_dist_matrix A, double alpha, spira_vector x,
                                    double beta, spira_vector y);
/* The same, but on GPUs where A has off-diagonal rows the last step, their product's add
 * into y, is left to the caller's next kernel, described in *add (add->bits NULL: nothing
 * left, y is whole). */
spira_status spira__dist_spmv_deferred(spira_dist_matrix A, double alpha, spira_vector x,
                                       double beta, spira_vector y, spira__row_add *add);

/* ---- the halo CG's graph writes in its kernels (kernel_halo.c) ---------------------- */

/* A->kh made, once, where the layout's ranks sum inside kernels, no off-diagonal row has
 * more than a few dozen entries and SPIRA_NCCL_KERNEL_HALO is not 0. Collective; where it
 * cannot be made on every rank A keeps the NCCL exchange (spira_dist_matrix_info says
 * which), and the context's message is left as it was. */
spira_status spira__dist_kernel_halo(spira_dist_matrix A);
/* Its stores, from h's send lists: d's nsrow, srow, dptr, dpeer, doff, sbits and sbase
 * (dist_gpu.h) for a rank of `local` rows, in one allocation *mem the caller frees. */
spira_status spira__dist_kernel_halo_stores(spira_context ctx, const spira__halo *h,
                                            int32_t local, spira__kernel_halo_desc *d,
                                            void **mem);

/* CG's graph with A->kh: y <- A_diag x + beta y (alpha 1), no exchange: the ghosts were
 * stored by the kernels, and the sums add the off-diagonal rows. */
spira_status spira__dist_spmv_diag(spira_dist_matrix A, double alpha, spira_vector x,
                                   double beta, spira_vector y);

/* ---- solvers (solve.c) ---------------------------------------------------------------- */

/* What the solvers of solvers/ need to run on A: its SpMV (plans from spira__dist_prepare),
 * the allreduce and the agreement over its ranks, its size and this rank's first row. */
spira__solve_comm spira__dist_comm(spira_dist_matrix A);

#endif
