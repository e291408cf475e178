/*
 * kernel_halo.c - a matrix's halo as CG's graph writes it inside its kernels
 * (dist_gpu.h, dist/nccl_cg.cu), described from the halo's pattern and the off-diagonal
 * block: the rows each rank's update stores into others' ghosts, with the ghost offsets
 * there (halo.c's send_at), and the compressed rows its sums complete from its own ghosts.
 * Made at the matrix's first CG solve, kept until it is destroyed.
 */
#include "dist.h"

#include <stdlib.h>
#include <string.h>

/* One send entry: a local row, the rank that reads it and the ghost it fills there. */
typedef struct {
    int32_t row, peer, off;
} send_entry;

static int by_row(const void *a, const void *b)
{
    const send_entry *x = a, *y = b;
    if (x->row != y->row) return x->row < y->row ? -1 : 1;
    return (x->peer > y->peer) - (x->peer < y->peer);
}

/* h's send lists grouped by row. */
spira_status spira__dist_kernel_halo_stores(spira_context ctx, const spira__halo *h,
                                            int32_t local, spira__kernel_halo_desc *d,
                                            void **mem)
{
    const int32_t n = h->send_off[h->nsend];
    const size_t words = ((size_t)local + 31) / 32;
    send_entry *e = NULL;
    int32_t *a = NULL;
    spira_status s = spira__alloc(ctx, (void **)&e, (size_t)n + 1, sizeof *e, "kernel halo sends");
    /* srow n, dptr n + 1, dpeer n, doff n, sbits and sbase words each */
    if (s == SPIRA_OK)
        s = spira__alloc(ctx, (void **)&a, 4 * (size_t)n + 1 + 2 * words, sizeof *a,
                         "kernel halo sends");
    if (s != SPIRA_OK) {
        spira__free(e);
        return s;
    }
    for (int i = 0; i < h->nsend; i++)
        for (int32_t k = h->send_off[i]; k < h->send_off[i + 1]; k++)
            e[k] = (send_entry){h->send_idx[k], h->send_rank[i], h->send_at[i] + k - h->send_off[i]};
    qsort(e, (size_t)n, sizeof *e, by_row);
    int32_t *srow = a, *dptr = srow + n, *dpeer = dptr + n + 1, *doff = dpeer + n;
    uint32_t *sbits = (uint32_t *)(doff + n);
    int32_t *sbase = (int32_t *)(sbits + words);
    int32_t rows = 0;
    for (int32_t k = 0; k < n; k++) {
        if (k == 0 || e[k].row != e[k - 1].row) {
            srow[rows] = e[k].row;
            dptr[rows++] = k;
        }
        dpeer[k] = e[k].peer;
        doff[k] = e[k].off;
    }
    dptr[rows] = n;
    spira__dist_row_bitmap(srow, rows, local, sbits, sbase);
    spira__free(e);
    d->nsrow = rows;
    d->srow = srow, d->dptr = dptr, d->dpeer = dpeer, d->doff = doff;
    d->sbits = sbits, d->sbase = sbase;
    *mem = a;
    return SPIRA_OK;
}

static int wanted(void)
{
    const char *env = getenv("SPIRA_NCCL_KERNEL_HALO");
    return !(env && strcmp(env, "0") == 0);
}

/* The most entries of an off-diagonal row that the sums kernel's one thread a row may take:
 * a longer row (a power-law graph's hub) would hold its block, and the whole kernel, for
 * its length, where NCCL's halo multiplies the block in the format auto chose for it. A
 * stencil's rows have one or two remote entries. */
#define ROW_MAX 64

/* The longest row of A's off-diagonal block. */
static int32_t longest_row(spira_dist_matrix A)
{
    const spira__csr *o = A->offdiag ? &A->offdiag->csr : NULL;
    int32_t most = 0;
    for (int32_t r = 0; o && r < o->nrows; r++)
        if (o->row_ptr[r + 1] - o->row_ptr[r] > most) most = o->row_ptr[r + 1] - o->row_ptr[r];
    return most;
}

spira_status spira__dist_kernel_halo(spira_dist_matrix A)
{
    spira__dist_layout *L = A->L;
    if (A->kh || A->kh_tried || !L->gpu || !spira__nccl_in_kernel(L->gpu) || !wanted())
        return SPIRA_OK;
    A->kh_tried = 1;
    spira_context ctx = A->ctx;
    char before[sizeof ctx->err];
    memcpy(before, ctx->err, sizeof before);
    int most[2] = {A->nghost, longest_row(A)}; /* over the ranks: ghosts, a row's entries */
    if (MPI_Allreduce(MPI_IN_PLACE, most, 2, MPI_INT, MPI_MAX, L->comm) != MPI_SUCCESS)
        return spira__error(ctx, SPIRA_ERR_UNSUPPORTED, "MPI_Allreduce of the ghost counts failed");
    if (most[1] > ROW_MAX) return SPIRA_OK;
    const spira__csr *o = A->offdiag ? &A->offdiag->csr : NULL;
    const int32_t none = 0;
    spira__kernel_halo_desc d = {
        .dtype = A->dtype, .local = L->local, .ghosts_max = most[0],
        .nsend = A->halo->nsend, .nrecv = A->halo->nrecv,
        .send_rank = A->halo->send_rank, .recv_rank = A->halo->recv_rank,
        .orows = o ? A->orows : 0, .orp = o ? o->row_ptr : &none, .ocol = o ? o->col_idx : NULL,
        .oval = o ? o->val : NULL, .dbits = A->dbits, .dbase = A->dbase,
        .olo = o ? A->orow[0] : 0, .ohi = o ? A->orow[A->orows - 1] + 1 : 0};
    void *mem = NULL;
    spira_status s = spira__dist_kernel_halo_stores(ctx, A->halo, L->local, &d, &mem);
    /* the window is collective: every rank goes on to it, or none */
    s = spira__dist_agree(ctx, L->comm, s);
    if (s == SPIRA_OK) s = spira__nccl_kernel_halo_create(ctx, L->gpu, &d, &A->kh);
    spira__free(mem);
    s = spira__dist_agree(ctx, L->comm, s);
    if (s != SPIRA_OK) {
        /* CG keeps NCCL's exchange (the same products, reported by halo_in_kernel), and
         * the context's message is put back as it was: the solve has not failed */
        spira__nccl_kernel_halo_destroy(ctx, A->kh);
        A->kh = NULL;
        memcpy(ctx->err, before, sizeof before);
    }
    return SPIRA_OK;
}
