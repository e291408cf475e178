/*
 * spira_mpi.h - Spira's distributed matrices, vectors and solvers over MPI (a library
 * configured --with-mpi; include it after mpi.h, compile with mpicc).
 *
 * A distributed matrix is square, n x n with n and its nonzeros counted in int64_t, and
 * spread over the ranks of a communicator by contiguous blocks of rows: rank r owns rows
 * [first_r, first_r + local_r), and the entries of a distributed vector with the same
 * indices (so x, b and A x are laid out alike; a rank may own no rows). Each rank's rows
 * are two ordinary Spira matrices with 32-bit local indices:
 *   the diagonal block, local x local: the columns the rank owns (column j is j - first);
 *   the off-diagonal block, the columns owned elsewhere that its rows touch, compressed
 *     and sorted by global index (so grouped by owner), over only the rows that touch one
 *     (compressed rows: its multiply costs its entries, not the rank's rows).
 * Each block has its own SpMV format ("auto" unless set through spira_dist_matrix_blocks).
 * An SpMV sends every rank the x entries ("ghosts") its off-diagonal block reads: the
 * pattern of who sends what to whom is built once, with the matrix; each multiply posts
 * the exchange, multiplies the diagonal block while it travels, then adds the off-diagonal
 * block (PETSc's MPIAIJ, hypre's ParCSR).
 *
 * Every call here is collective over the matrix's communicator: all its ranks make the
 * same calls in the same order. Errors are too: when some ranks fail and others do not,
 * every rank returns the status of the lowest failing rank R, and spira_last_error says on
 * each "rank R: " and that rank's reason; when all fail (a global fact: a size mismatch,
 * not converged) each says the same thing itself.
 *
 * The context is each rank's own and decides where its rows compute. A CPU context: the
 * halo exchange and the sums go over MPI. A CUDA context (a library configured --with-nccl,
 * else refused with SPIRA_ERR_UNSUPPORTED naming the option): one rank per GPU, the context
 * naming the rank's device; ranks on one host pick device = their rank on the host
 * (MPI_Comm_split_type with MPI_COMM_TYPE_SHARED, or OMPI_COMM_WORLD_LOCAL_RANK under Open
 * MPI). Both blocks and the vectors live on the device; each layout (a matrix and the
 * vectors made from it) gets an NCCL communicator made once from the MPI one; the exchange
 * is a pack kernel and NCCL send/receive on a second stream, overlapped with the diagonal
 * block's multiply, and a solver's sums one ncclAllReduce of the device partials. Destroy
 * distributed objects in the same order on every rank (NCCL's teardown may synchronize).
 * All ranks of a matrix use the same backend (a mix is refused on every rank).
 */
#ifndef SPIRA_MPI_H
#define SPIRA_MPI_H

#include <mpi.h>

#include "spira.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct spira_dist_matrix_s *spira_dist_matrix;
typedef struct spira_dist_vector_s *spira_dist_vector;

/* local_rows for an even split: rank r of p gets rows [r n / p, (r + 1) n / p). Every rank
 * passes it, or every rank passes its own count (>= 0, summing to n). */
#define SPIRA_DIST_EVEN (-1)

/* ---- matrices ------------------------------------------------------------------ */

/* From the global matrix G held by rank root (other ranks pass NULL; G square): rank r
 * receives its local_rows rows (SPIRA_DIST_EVEN or a count per rank) in G's dtype. G stays
 * root's. */
SPIRA_API spira_status spira_dist_matrix_scatter(spira_context ctx, MPI_Comm comm, int root,
                                                 spira_matrix G, int64_t local_rows,
                                                 spira_dist_matrix *A);
/* From a Matrix Market file read by every rank at once (the path must reach the same file
 * on every rank): each maps it, parses the lines that start in its share of the body's
 * bytes and sends every entry to its row's owner (MPI_Alltoallv), so no rank holds the
 * whole matrix and sizes are 64-bit. Coordinate files as spira_matrix_read_mm reads them
 * (real, integer or pattern; symmetric and skew-symmetric mirrored; repeated entries
 * summed; errors name the file and line), square; except that an entry given in both
 * triangles of a symmetric file is summed, not refused. A gzip file is inflated whole by
 * every rank; an array file is read by rank 0 and scattered. local_rows as for
 * spira_dist_matrix_scatter. */
SPIRA_API spira_status spira_dist_matrix_read_mm(spira_context ctx, MPI_Comm comm,
                                                 const char *path, spira_dtype dtype,
                                                 int64_t local_rows, spira_dist_matrix *A);
/* From each rank's own rows, the ranks' rows in rank order forming an n x n matrix with n
 * their total: row_ptr has local_rows + 1 offsets (row_ptr[0] = 0) into col_idx (global
 * 0-based column indices, any order; duplicates are summed) and val (dtype; NULL: ones).
 * ncols must equal n on every rank (the matrix is square). Copied. */
SPIRA_API spira_status spira_dist_matrix_from_rows(spira_context ctx, MPI_Comm comm,
                                                   int64_t local_rows, int64_t ncols,
                                                   const int64_t *row_ptr, const int64_t *col_idx,
                                                   const void *val, spira_dtype dtype,
                                                   spira_dist_matrix *A);
/* The Laplacian of spira_matrix_laplacian (dim 2 or 3, an n^dim grid, the same rows in the
 * same order), each rank making only its own rows: no rank ever holds the whole matrix,
 * and its size is bounded by 64-bit counts and the ranks' memory, not by 32-bit indices. */
SPIRA_API spira_status spira_dist_matrix_laplacian(spira_context ctx, MPI_Comm comm, int dim,
                                                   int64_t n, spira_dtype dtype,
                                                   int64_t local_rows, spira_dist_matrix *A);
/* The R-MAT graph of Graph500 (Chakrabarti et al. 2004; a, b, c = 0.57, 0.19, 0.19) on
 * 2^scale vertices with edge_factor 2^scale edges drawn from seed, as an adjacency matrix
 * (G(u, v) counts the edges u -> v; self-loops kept; vertex numbers scrambled by a fixed
 * bijection so the high degrees spread over the row blocks). Each rank draws its share of
 * the edges and sends them to their rows' owners: the same graph for any number of ranks,
 * and no rank holds it whole. scale 1..40, edge_factor 1..1024. */
SPIRA_API spira_status spira_dist_matrix_rmat(spira_context ctx, MPI_Comm comm, int scale,
                                              int edge_factor, uint64_t seed, spira_dtype dtype,
                                              int64_t local_rows, spira_dist_matrix *A);
SPIRA_API void spira_dist_matrix_destroy(spira_dist_matrix A);

typedef struct {
    int64_t nrows, nnz;      /* global (nrows = ncols) */
    spira_dtype dtype;
    int ranks, rank;
    int64_t first_row;       /* this rank's rows: [first_row, first_row + local_rows) */
    int32_t local_rows;
    int32_t ghosts;          /* columns of the off-diagonal block (x entries received) */
    int64_t diag_nnz, offdiag_nnz;  /* this rank's entries in each block */
    int recv_neighbors;      /* ranks it receives ghosts from */
    int send_neighbors;      /* ranks it sends x entries to */
    int32_t send_values;     /* x entries it sends per SpMV (with repeats to several ranks) */
    int64_t exchanges;       /* halo exchanges made (one per distributed SpMV) */
    int64_t reductions;      /* allreduces made by solves and BLAS-1 with this matrix's vectors */
    int sums_in_kernel;      /* GPUs: 1 when a solver's sums over the ranks are made inside its
                              * kernels (NCCL's device API: every rank's GPU reaches the others'
                              * memory, NCCL 2.28 or later, SPIRA_NCCL_IN_KERNEL not 0); 0 when
                              * by ncclAllReduce, and on CPUs (MPI_Allreduce) */
    int halo_in_kernel;      /* GPUs: 1 once CG's graph on this matrix writes the halo inside
                              * its kernels (made at its first CG solve where the sums are made
                              * in kernels, no off-diagonal row has more than 64 entries and
                              * SPIRA_NCCL_KERNEL_HALO is not 0); 0: NCCL's send and receive,
                              * or MPI's on CPUs */
} spira_dist_matrix_info;

SPIRA_API spira_status spira_dist_matrix_get_info(spira_dist_matrix A, spira_dist_matrix_info *info);
/* This rank's two blocks, owned by A (NULL pointers skipped; *offdiag is NULL when no
 * column of this rank's rows is remote; its rows are those of this rank's rows that have
 * a remote column, in order). Set their formats with spira_matrix_set_format;
 * do not destroy them. */
SPIRA_API spira_status spira_dist_matrix_blocks(spira_dist_matrix A, spira_matrix *diag,
                                                spira_matrix *offdiag);

/* ---- vectors ------------------------------------------------------------------- */

/* A vector laid out as A's rows (and columns), of A's dtype, where A's context computes.
 * It keeps what it needs of A's layout and may outlive A. */
SPIRA_API spira_status spira_dist_vector_create(spira_dist_matrix A, spira_dist_vector *v);
SPIRA_API void spira_dist_vector_destroy(spira_dist_vector v);
/* The global length. */
SPIRA_API int64_t spira_dist_vector_length(spira_dist_vector v);
/* This rank's entries, an ordinary vector of local_rows values owned by v (set and read it
 * with spira_vector_set / _get and the like; do not destroy it). Not collective. */
SPIRA_API spira_vector spira_dist_vector_local(spira_dist_vector v);
/* From / to the n global values in double on rank root (global: ignored elsewhere). */
SPIRA_API spira_status spira_dist_vector_scatter_f64(spira_dist_vector v, int root,
                                                     const double *global);
SPIRA_API spira_status spira_dist_vector_gather_f64(spira_dist_vector v, int root, double *global);
SPIRA_API spira_status spira_dist_vector_fill(spira_dist_vector v, double value);
/* Over all ranks, each rank's part summed in double and the partial sums added by one
 * MPI_Allreduce (ncclAllReduce on GPUs); the same result on every rank. */
SPIRA_API spira_status spira_dist_dot(spira_dist_vector x, spira_dist_vector y, double *result);
SPIRA_API spira_status spira_dist_nrm2(spira_dist_vector x, double *result);

/* y <- alpha A x + beta y (x and y distinct vectors of A's layout): the halo exchange of x
 * overlapped with the diagonal block's multiply, then the off-diagonal block's. */
SPIRA_API spira_status spira_dist_spmv(double alpha, spira_dist_matrix A, spira_dist_vector x,
                                       double beta, spira_dist_vector y);

/* ---- solvers ------------------------------------------------------------------- */

/* spira_solve on the distributed system: the same solvers (CG, BiCGSTAB, Jacobi) and the
 * same math, each rank iterating on its rows; every inner product is a local sum plus an
 * MPI_Allreduce (on GPUs an ncclAllReduce of the device partials, before the one wait),
 * and the sums an iteration needs together go in one: CG (arranged as
 * Chronopoulos-Gear) makes one allreduce an iteration, BiCGSTAB four, Jacobi one.
 * Preconditioners: SPIRA_PRECOND_JACOBI (the global diagonal, which is local), and ILU(0)
 * or ILUT as block Jacobi: each rank factors its diagonal block alone (the same as the
 * one-process preconditioner on one rank, weaker as ranks are added). Neumann is refused.
 * A structurally singular A (a row or column with no nonzero) is refused with its global
 * index, as spira_solve does. opts and info as spira_solve's (the same on every rank;
 * info->iterations counts iterations, not per-rank work). The monitor is called on every
 * rank with the same values and must answer the same on all. */
SPIRA_API spira_status spira_dist_solve(spira_solver_type type, spira_dist_matrix A,
                                        spira_dist_vector b, spira_dist_vector x,
                                        const spira_solve_opts *opts, spira_solve_info *info);

/* spira_power on the distributed A (v of A's layout): the same iteration, start vector
 * and stopping test, two allreduces an iteration. */
SPIRA_API spira_status spira_dist_power(spira_dist_matrix A, spira_dist_vector v,
                                        const spira_power_opts *opts, spira_power_info *info);
/* spira_pagerank on the distributed graph G (rank of G's layout): the transition P^T is
 * built over the ranks on the first call (each rank's entries routed to the owners of
 * their columns) and kept in G; an iteration makes one SpMV of P^T and one allreduce. A
 * teleport vector in opts is this rank's part of one of G's layout
 * (spira_dist_vector_local). */
SPIRA_API spira_status spira_dist_pagerank(spira_dist_matrix G, spira_dist_vector rank,
                                           const spira_pagerank_opts *opts,
                                           spira_pagerank_info *info);

#ifdef __cplusplus
}
#endif
#endif /* SPIRA_MPI_H */
