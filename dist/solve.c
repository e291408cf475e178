/*
 * solve.c - spira_dist_solve: the solvers of solvers/ run on each rank's rows, unchanged in
 * their math. They see a distributed solve through spira__solve_comm (solvers/solver.h):
 * the operator is the distributed SpMV (spmv.c), every reduction a local sum plus one
 * MPI_Allreduce (on GPUs one ncclAllReduce of the device partials, before the reduction's
 * one wait), and each setup's status agreed over the ranks; their own code (cg.c,
 * bicgstab.c, jacobi.c), the dispatcher's true-residual restarts and its reasons and
 * messages are the one-process ones. The preconditioner is built from the diagonal block:
 * Jacobi's D^-1 is the global one, ILU(0)/ILUT are block Jacobi.
 *
 * Collectives a solve makes besides its iterations': the agreement of the setup, the
 * global zero-line check (two allreduces and one reverse halo exchange), ||b||, and per
 * true-residual round one SpMV and one allreduce; CG's iteration makes one allreduce (its
 * three sums fused), BiCGSTAB's four, Jacobi's one.
 */
#include "dist.h"

#include <string.h>

static spira_status op(void *data, double alpha, spira_vector x, double beta, spira_vector y)
{
    return spira__dist_spmv_local((spira_dist_matrix)data, alpha, x, beta, y);
}

static spira_status op_defer(void *data, double alpha, spira_vector x, double beta,
                             spira_vector y, spira__row_add *add)
{
    return spira__dist_spmv_deferred((spira_dist_matrix)data, alpha, x, beta, y, add);
}

/* the kernel halo (A->kh): the diagonal block alone; the sums add the off-diagonal rows */
static spira_status op_diag(void *data, double alpha, spira_vector x, double beta,
                            spira_vector y, spira__row_add *add)
{
    add->bits = NULL;
    return spira__dist_spmv_diag((spira_dist_matrix)data, alpha, x, beta, y);
}

static spira_status cg_update(void *data, int32_t n, spira_dtype t, const spira__cg_dev *g,
                              void *z, const void *w, void *p, void *s, void *r, const void *dinv)
{
    spira_dist_matrix A = (spira_dist_matrix)data;
    A->L->exchanges++;
    return spira__nccl_cg_update(A->ctx, A->kh, n, t, g, z, w, p, s, r, dinv);
}

/* At a run's start the rounds are counted from zero on every rank: an earlier run that
 * stopped on an error between a store and its read cannot leave a rank reading stale
 * ghosts. Every rank's kernels are done (its stores into the others' windows too) before
 * any rank clears its counts, and every rank has cleared them before any stores anew. */
static spira_status cg_prime(void *data, const void *z, int first)
{
    spira_dist_matrix A = (spira_dist_matrix)data;
    const spira__dist_layout *L = A->L;
    if (first) {
        spira_status s = spira_context_synchronize(A->ctx);
        s = spira__dist_agree(A->ctx, L->comm, s);
        if (s == SPIRA_OK) s = spira__nccl_kernel_halo_reset(A->ctx, A->kh);
        SPIRA__TRY(spira__dist_agree(A->ctx, L->comm, s));
    }
    A->L->exchanges++;
    return spira__nccl_kernel_halo_prime(A->ctx, A->kh, z);
}

static spira_status sum(void *data, int k, double *v)
{
    spira_dist_matrix A = (spira_dist_matrix)data;
    return spira__dist_sum(A->ctx, A->L, k, v);
}

static spira_status dsum(void *data, int k, double *dv)
{
    spira_dist_matrix A = (spira_dist_matrix)data;
    return spira__dist_sum_device(A->ctx, A->L, k, dv);
}

static spira_status cg_sums(void *data, int32_t n, spira_dtype t, const void *r, void *w,
                            const void *z, int with_dinv, const spira__row_add *add,
                            spira__cg_dev *g)
{
    spira_dist_matrix A = (spira_dist_matrix)data;
    A->L->reductions++;
    return spira__nccl_cg_sums(A->ctx, A->L->gpu, A->kh, n, t, r, w, z, with_dinv, add, g);
}

static spira_status agree(void *data, spira_status s)
{
    spira_dist_matrix A = (spira_dist_matrix)data;
    return spira__dist_agree(A->ctx, A->L->comm, s);
}

spira__solve_comm spira__dist_comm(spira_dist_matrix A)
{
    const spira__solve_comm c = {.op = op, .sum = sum, .dsum = A->L->gpu ? dsum : NULL,
                                 .op_defer = !A->L->gpu ? NULL : A->kh ? op_diag : op_defer,
                                 .cg_sums = A->L->gpu && spira__nccl_in_kernel(A->L->gpu)
                                                ? cg_sums : NULL,
                                 .cg_update = A->kh ? cg_update : NULL,
                                 .cg_prime = A->kh ? cg_prime : NULL,
                                 .agree = agree, .data = A, .exchanges = &A->L->exchanges,
                                 .reductions = &A->L->reductions, .global_rows = A->L->n,
                                 .first_row = A->L->first};
    return c;
}

/* The first row, then column, of A (global, 0-based) with no nonzero value, as spira_solve
 * refuses; -1 when none. A column's entries are spread over the ranks: each rank marks its
 * ghosts that hold one and sends the marks to their owners (the halo reversed). */
static spira_status empty_line(spira_dist_matrix A, int64_t *line, int *is_col)
{
    const spira__dist_layout *L = A->L;
    const spira__csr *d = &A->diag->csr, *o = A->offdiag ? &A->offdiag->csr : NULL;
    unsigned char *seen = NULL;
    *line = -1;
    *is_col = 0;
    /* seen: the local columns, then the ghosts, then the rows (which hold a nonzero) */
    const size_t cols = (size_t)L->local + A->nghost;
    spira_status s = spira__alloc(A->ctx, (void **)&seen, cols + L->local + 1, 1, "column marks");
    s = spira__dist_agree(A->ctx, L->comm, s);
    if (s != SPIRA_OK) return s;
    unsigned char *row = seen + cols;
    memset(seen, 0, cols + L->local);
    int64_t first[2] = {INT64_MAX, INT64_MAX}; /* row, column */
    for (int32_t i = 0; i < L->local; i++)
        for (int32_t k = d->row_ptr[i]; k < d->row_ptr[i + 1]; k++)
            if (spira__get(d->val, d->dtype, k) != 0) row[i] = seen[d->col_idx[k]] = 1;
    /* the off-diagonal block's rows are the compressed ones: orow[r] is the local row */
    for (int32_t r = 0; o && r < o->nrows; r++)
        for (int32_t k = o->row_ptr[r]; k < o->row_ptr[r + 1]; k++)
            if (spira__get(o->val, o->dtype, k) != 0)
                row[A->orow[r]] = seen[L->local + o->col_idx[k]] = 1;
    for (int32_t i = 0; i < L->local; i++)
        if (!row[i]) {
            first[0] = L->first + i;
            break;
        }
    s = spira__halo_reverse_or(A->ctx, A->halo, seen + L->local, seen);
    for (int32_t j = 0; j < L->local; j++)
        if (!seen[j]) {
            first[1] = L->first + j;
            break;
        }
    spira__free(seen);
    s = spira__dist_agree(A->ctx, L->comm, s);
    if (s == SPIRA_OK &&
        MPI_Allreduce(MPI_IN_PLACE, first, 2, MPI_INT64_T, MPI_MIN, L->comm) != MPI_SUCCESS)
        s = spira__error(A->ctx, SPIRA_ERR_UNSUPPORTED, "MPI_Allreduce of the empty lines failed");
    if (s == SPIRA_OK && (first[0] != INT64_MAX || first[1] != INT64_MAX)) {
        *is_col = first[0] == INT64_MAX;
        *line = *is_col ? first[1] : first[0];
    }
    return s;
}

spira_status spira_dist_solve(spira_solver_type type, spira_dist_matrix A, spira_dist_vector b,
                              spira_dist_vector x, const spira_solve_opts *opts,
                              spira_solve_info *info)
{
    spira_solve_info local;
    if (!info) info = &local;
    memset(info, 0, sizeof *info);
    info->reason = SPIRA_STOPPED_ERROR;
    if (!A || !b || !x) return SPIRA_ERR_INVALID_ARG;
    /* the arguments: global facts, so every rank finds the same */
    SPIRA__TRY(spira__dist_vectors_match(A, b, "b", x, "x"));
    if (b == x) return spira__error(A->ctx, SPIRA_ERR_INVALID_ARG, "b and x must be distinct");
    if (opts && opts->precond == SPIRA_PRECOND_NEUMANN)
        return spira__error(A->ctx, SPIRA_ERR_UNSUPPORTED,
                            "the Neumann preconditioner is a polynomial in A and would multiply "
                            "with the distributed A; distributed solves take Jacobi, ILU(0) or "
                            "ILUT (block Jacobi: each rank's diagonal block)");
    int64_t line;
    int is_col;
    SPIRA__TRY(empty_line(A, &line, &is_col));
    if (line >= 0)
        return spira__error(A->ctx, SPIRA_ERR_INVALID_ARG,
                            "A is structurally singular: its %s %lld (0-based) has no nonzero "
                            "entry", is_col ? "column" : "row", (long long)line);
    /* CG's graph may write the halo in its kernels: decided (collectively) before its hooks */
    if (type == SPIRA_SOLVER_CG) SPIRA__TRY(spira__dist_kernel_halo(A));
    const spira__solve_comm comm = spira__dist_comm(A);
    spira_solver S;
    SPIRA__TRY(spira__solver_create_comm(type, A->diag, &comm, opts, &S));
    spira_status s = spira__dist_prepare(A, spira__solver_expected_multiplies(S));
    s = spira__dist_agree(A->ctx, A->L->comm, s);
    if (s == SPIRA_OK) s = spira_solver_solve(S, b->local, x->local, info);
    spira_solver_destroy(S);
    /* the solve's statuses already agree unless a rank failed on its own (a plan or the
     * preconditioner rebuilt at the solve's start); one more allreduce makes sure */
    return spira__dist_agree(A->ctx, A->L->comm, s);
}
