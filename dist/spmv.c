/*
 * spmv.c - the distributed SpMV, y <- alpha A x + beta y, with the exchange overlapped:
 *
 *   start the halo exchange of x      (every rank's sends and receives in flight)
 *   y <- alpha A_diag x + beta y      (the local columns: needs nothing from others)
 *   wait for the ghosts
 *   t <- alpha A_offdiag x_ghost      (the remote columns, compressed; only the rows that
 *   y[orow] <- y[orow] + t             have one, so it costs its entries, not all rows)
 *
 * On GPUs the product t is queued after the diagonal block, on the exchange's stream
 * behind the ghosts (NCCL's transfers are enqueued there only then: nccl.cu), so it runs
 * beside the diagonal block rather than after it, and only the add into y follows the
 * wait; CG's graph leaves even that add to its sums kernel, which reads y next
 * (spira__dist_spmv_deferred, spira__row_add). Where its kernels write the halo themselves
 * (dist/nccl_cg.cu), its SpMV is the diagonal block's alone (spira__dist_spmv_diag).
 *
 * Bytes moved per multiply on a rank besides the two blocks' own: the sends packed
 * (send_values entries read and written), the off-diagonal rows' products (orows entries
 * written, read and added into y), and send_values + ghosts entries over the
 * network in recv_neighbors + send_neighbors messages (spira_dist_matrix_info).
 */
#include "dist.h"

spira_status spira__dist_add_offdiag(spira_dist_matrix A, const spira_vector t, void *y)
{
    if (A->ctx->backend == SPIRA_BACKEND_CUDA)
        return spira__nccl_scatter_add(A->ctx, A->orows, A->dtype, A->dorow, t->data, y);
    const int32_t *r = A->orow;
    if (A->dtype == SPIRA_R64)
        for (int32_t i = 0; i < A->orows; i++) ((double *)y)[r[i]] += ((const double *)t->data)[i];
    else
        for (int32_t i = 0; i < A->orows; i++) ((float *)y)[r[i]] += ((const float *)t->data)[i];
    return SPIRA_OK;
}

/* otmp <- alpha A_offdiag ghost: the plan's multiply, or where CG's graph makes this
 * product in its kernels (A->kh), the same expression as there, so that the per-iteration
 * path and the graph keep the same bits. */
static spira_status offdiag_product(spira_dist_matrix A, spira__spmv_plan *po, double alpha,
                                    const void *ghost)
{
    if (A->kh) return spira__nccl_kernel_halo_product(A->ctx, A->kh, alpha, ghost, A->otmp->data);
    return spira__spmv_apply(po, alpha, ghost, 0.0, A->otmp->data);
}

/* The exchange posted: on GPUs, otmp <- alpha A_offdiag ghost queued now behind the ghosts
 * on the exchange's stream (*early = 1); elsewhere nothing yet. */
static spira_status offdiag_early(spira_dist_matrix A, spira__spmv_plan *po, double alpha,
                                  const void *ghost, int *early)
{
    *early = 0;
    if (!po) return SPIRA_OK;
    SPIRA__TRY(spira__halo_side_begin(A->ctx, A->halo, early));
    if (!*early) return SPIRA_OK;
    spira_status s = offdiag_product(A, po, alpha, ghost);
    spira_status e = spira__halo_side_end(A->ctx, A->halo);
    return s == SPIRA_OK ? e : s;
}

/* The exchange finished: y <- y + alpha A_offdiag ghost, the compressed rows' product
 * (already made when early) added into the rows it belongs to */
static spira_status offdiag_add(spira_dist_matrix A, spira__spmv_plan *po, double alpha,
                                const void *ghost, int early, void *y)
{
    if (!po) return SPIRA_OK;
    if (!early) SPIRA__TRY(offdiag_product(A, po, alpha, ghost));
    return spira__dist_add_offdiag(A, A->otmp, y);
}

spira_status spira__dist_prepare(spira_dist_matrix A, double expect)
{
    A->pd = A->po = NULL;
    spira_status s = spira__spmv_plan_expect(A->diag, expect, &A->pd);
    if (s == SPIRA_OK && A->offdiag) s = spira__spmv_plan_expect(A->offdiag, expect, &A->po);
    return s;
}

spira_status spira__dist_spmv_deferred(spira_dist_matrix A, double alpha, spira_vector x,
                                       double beta, spira_vector y, spira__row_add *add)
{
    void *ghost = A->ghost_x ? A->ghost_x->data : NULL;
    int early = 0;
    if (add) add->bits = NULL;
    SPIRA__TRY(spira__halo_start(A->ctx, A->halo, x->data, ghost));
    spira_status s = spira__spmv_apply(A->pd, alpha, x->data, beta, y->data);
    if (s == SPIRA_OK) s = offdiag_early(A, A->po, alpha, ghost, &early);
    spira_status t = spira__halo_finish(A->ctx, A->halo);
    if (s == SPIRA_OK) s = t;
    if (s != SPIRA_OK || !A->po) return s;
    if (!add || !A->dbits) return offdiag_add(A, A->po, alpha, ghost, early, y->data);
    /* the product made now if it was not beside the diagonal block; its add is the caller's */
    if (!early) SPIRA__TRY(offdiag_product(A, A->po, alpha, ghost));
    add->bits = A->dbits, add->base = A->dbase, add->t = A->otmp->data;
    add->lo = A->orow[0], add->hi = A->orow[A->orows - 1] + 1;
    return SPIRA_OK;
}

spira_status spira__dist_spmv_diag(spira_dist_matrix A, double alpha, spira_vector x,
                                   double beta, spira_vector y)
{
    if (alpha != 1.0)
        return spira__error(A->ctx, SPIRA_ERR_INVALID_ARG, "the diagonal block's multiply of "
                            "the kernel halo takes alpha = 1 (the sums add the rest: a bug)");
    return spira__spmv_apply(A->pd, alpha, x->data, beta, y->data);
}

spira_status spira__dist_spmv_local(spira_dist_matrix A, double alpha, spira_vector x,
                                    double beta, spira_vector y)
{
    return spira__dist_spmv_deferred(A, alpha, x, beta, y, NULL);
}

spira_status spira_dist_spmv(double alpha, spira_dist_matrix A, spira_dist_vector x, double beta,
                             spira_dist_vector y)
{
    if (!A || !x || !y) return SPIRA_ERR_INVALID_ARG;
    /* the same answer on every rank: the layouts and dtypes are global facts */
    SPIRA__TRY(spira__dist_vectors_match(A, x, "x", y, "y"));
    if (x == y)
        return spira__error(A->ctx, SPIRA_ERR_INVALID_ARG, "SpMV x and y must be distinct vectors");
    /* A plan built now may fail on one rank alone (a format's option, memory): the ranks
     * agree on it while the exchange, which needs no plan, runs anyway */
    spira__spmv_plan *pd = NULL, *po = NULL;
    spira_status s = spira__spmv_plan_get(A->diag, &pd);
    if (s == SPIRA_OK && A->offdiag) s = spira__spmv_plan_get(A->offdiag, &po);
    const spira__dist_layout *L = A->L;
    int mine = s == SPIRA_OK ? L->size : L->rank, first = L->size;
    MPI_Request agree;
    MPI_Iallreduce(&mine, &first, 1, MPI_INT, MPI_MIN, L->comm, &agree);
    void *ghost = A->ghost_x ? A->ghost_x->data : NULL;
    int early = 0;
    spira_status h = spira__halo_start(A->ctx, A->halo, x->local->data, ghost);
    if (s == SPIRA_OK && h == SPIRA_OK)
        s = spira__spmv_apply(pd, alpha, x->local->data, beta, y->local->data);
    if (s == SPIRA_OK && h == SPIRA_OK) s = offdiag_early(A, po, alpha, ghost, &early);
    spira_status t = h == SPIRA_OK ? spira__halo_finish(A->ctx, A->halo) : h;
    MPI_Wait(&agree, MPI_STATUS_IGNORE);
    if (s == SPIRA_OK) s = t;
    if (s == SPIRA_OK) s = offdiag_add(A, po, alpha, ghost, early, y->local->data);
    if (first == L->size) return s; /* no plan failed; an MPI failure is every rank's own */
    /* a plan failed: every rank takes part in the agreement that names it */
    return spira__dist_agree(A->ctx, L->comm, mine == L->size ? SPIRA_OK : s);
}
