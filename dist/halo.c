/*
 * halo.c - the halo exchange: which x entries each rank sends to which, built once per
 * matrix, and the exchange itself (MPI point-to-point, posted so the caller can compute
 * while it travels).
 *
 * Building it: each rank knows the ghosts it reads (sorted global columns, so grouped by
 * owner). It tells every owner how many it wants (MPI_Alltoall of one count a rank) and
 * which (MPI_Alltoallv of the indices); an owner turns the indices it receives into local
 * ones, its send list. Setup costs O(ranks) memory and messages a rank, once, as PETSc's
 * VecScatter does; at thousands of ranks a sparse discovery (MPI_Dist_graph, or the NBX
 * protocol of Hoefler et al. 2010) would replace the two all-to-alls, not the exchange.
 *
 * On GPUs (a layout with an NCCL communicator) the same lists drive dist/nccl.cu's exchange
 * between the devices; the host buffers then serve only the reverse exchange of flags.
 *
 * An exchange, per neighbor pair, is one message each way when both read from the other:
 * rank r posts a receive from every owner it reads from, packs the entries it sends into
 * one buffer (in send-list order) and posts a send to every reader. Messages carry one tag
 * on a communicator only Spira uses (the layout's duplicate), and MPI keeps the order of
 * messages between a pair, so successive exchanges cannot mix.
 */
#include "dist.h"

#include <string.h>

#define HALO_TAG 0x5350 /* "SP" */

static MPI_Datatype mpi_type(spira_dtype t)
{
    return t == SPIRA_R64 ? MPI_DOUBLE : MPI_FLOAT;
}

void spira__halo_destroy(spira__halo *h)
{
    if (!h) return;
    if (h->posted && !h->gpu) MPI_Waitall(h->nrecv + h->nsend, h->req, MPI_STATUSES_IGNORE);
    if (h->L) spira__nccl_halo_destroy(h->L->ctx, h->gpu);
    spira__free(h->recv_rank);
    spira__free(h->send_rank);
    spira__free(h->recv_off);
    spira__free(h->send_off);
    spira__free(h->send_at);
    spira__free(h->send_idx);
    spira__free(h->send_buf);
    spira__free(h->req);
    spira__free(h);
}

/* Displacements of counts (size entries) into displ; 0 if the total exceeds an int. */
static int displacements(int size, const int *count, int *displ)
{
    int64_t at = 0;
    for (int r = 0; r < size; r++) {
        displ[r] = (int)at;
        at += count[r];
        if (at > INT32_MAX) return 0;
    }
    return 1;
}

spira_status spira__halo_create(spira_context ctx, spira__dist_layout *L, spira_dtype dtype,
                                int32_t nghost, const int64_t *ghost, spira__halo **out)
{
    *out = NULL;
    const int p = L->size;
    const size_t es = spira_dtype_size(dtype);
    int *want = NULL, *give = NULL, *want_at = NULL, *give_at = NULL, *their_at = NULL;
    int64_t *asked = NULL;
    spira__halo *h = spira__calloc(1, sizeof *h);
    spira_status s = h ? SPIRA_OK : spira__nomem(ctx, "halo pattern", sizeof *h);
    /* phase 1: how many ghosts this rank wants from each owner */
    if (s == SPIRA_OK) s = spira__alloc(ctx, (void **)&want, (size_t)p, 5 * sizeof(int),
                                        "halo counts");
    if (s == SPIRA_OK) {
        give = want + p, want_at = give + p, give_at = want_at + p, their_at = give_at + p;
        memset(want, 0, (size_t)p * sizeof(int));
        for (int32_t i = 0; i < nghost; i++) want[spira__dist_owner(L, ghost[i])]++;
    }
    s = spira__dist_agree(ctx, L->comm, s);
    if (s != SPIRA_OK) goto done;
    /* phase 2: the owners learn the counts, then the indices */
    if (MPI_Alltoall(want, 1, MPI_INT, give, 1, MPI_INT, L->comm) != MPI_SUCCESS)
        s = spira__error(ctx, SPIRA_ERR_UNSUPPORTED, "MPI_Alltoall of the halo counts failed");
    if (s == SPIRA_OK && (!displacements(p, want, want_at) || !displacements(p, give, give_at)))
        s = spira__error(ctx, SPIRA_ERR_UNSUPPORTED,
                         "rank %d: the x entries it sends in one SpMV exceed 2^31", L->rank);
    const int32_t nsendv = s == SPIRA_OK ? give_at[p - 1] + give[p - 1] : 0;
    if (s == SPIRA_OK) s = spira__alloc(ctx, (void **)&asked, (size_t)nsendv, sizeof *asked,
                                        "halo requests");
    if (s == SPIRA_OK) s = spira__alloc(ctx, (void **)&h->send_idx, (size_t)nsendv,
                                        sizeof *h->send_idx, "halo send list");
    if (s == SPIRA_OK) s = spira__alloc(ctx, &h->send_buf, (size_t)nsendv, es, "halo send buffer");
    h->nrecv = h->nsend = 0;
    for (int r = 0; s == SPIRA_OK && r < p; r++) {
        h->nrecv += want[r] > 0;
        h->nsend += give[r] > 0;
    }
    if (s == SPIRA_OK) s = spira__alloc(ctx, (void **)&h->recv_rank, (size_t)h->nrecv + 1,
                                        sizeof(int), "halo neighbors");
    if (s == SPIRA_OK) s = spira__alloc(ctx, (void **)&h->send_rank, (size_t)h->nsend + 1,
                                        sizeof(int), "halo neighbors");
    if (s == SPIRA_OK) s = spira__alloc(ctx, (void **)&h->recv_off, (size_t)h->nrecv + 1,
                                        sizeof(int32_t), "halo offsets");
    if (s == SPIRA_OK) s = spira__alloc(ctx, (void **)&h->send_off, (size_t)h->nsend + 1,
                                        sizeof(int32_t), "halo offsets");
    if (s == SPIRA_OK) s = spira__alloc(ctx, (void **)&h->send_at, (size_t)h->nsend + 1,
                                        sizeof(int32_t), "halo offsets");
    if (s == SPIRA_OK) s = spira__alloc(ctx, (void **)&h->req, (size_t)(h->nrecv + h->nsend) + 1,
                                        sizeof(MPI_Request), "halo requests");
    s = spira__dist_agree(ctx, L->comm, s);
    if (s != SPIRA_OK) goto done;
    if (MPI_Alltoallv(ghost, want, want_at, MPI_INT64_T, asked, give, give_at, MPI_INT64_T,
                      L->comm) != MPI_SUCCESS)
        s = spira__error(ctx, SPIRA_ERR_UNSUPPORTED, "MPI_Alltoallv of the halo indices failed");
    /* each owner also learns where its entries start among each reader's ghosts, so that
     * on GPUs its kernels may store them there (dist_gpu.h's kernel halo) */
    if (s == SPIRA_OK &&
        MPI_Alltoall(want_at, 1, MPI_INT, their_at, 1, MPI_INT, L->comm) != MPI_SUCCESS)
        s = spira__error(ctx, SPIRA_ERR_UNSUPPORTED, "MPI_Alltoall of the ghost offsets failed");
    /* phase 3: the lists, in rank order on both sides */
    int i = 0, j = 0;
    for (int r = 0; s == SPIRA_OK && r < p; r++) {
        if (want[r]) {
            h->recv_rank[i] = r;
            h->recv_off[i++] = want_at[r];
        }
        if (give[r]) {
            h->send_rank[j] = r;
            h->send_at[j] = their_at[r];
            h->send_off[j++] = give_at[r];
        }
    }
    if (s == SPIRA_OK) {
        h->recv_off[h->nrecv] = nghost;
        h->send_off[h->nsend] = nsendv;
    }
    for (int32_t k = 0; s == SPIRA_OK && k < nsendv; k++) {
        int64_t local = asked[k] - L->first;
        if (local < 0 || local >= L->local) /* a peer's owner search disagrees with ours */
            s = spira__error(ctx, SPIRA_ERR_INVALID_ARG, "halo: rank %d was asked for row "
                             "%lld, which it does not own", L->rank, (long long)asked[k]);
        else
            h->send_idx[k] = (int32_t)local;
    }
    s = spira__dist_agree(ctx, L->comm, s);
    /* on GPUs: the same lists, the send list on the device */
    if (s == SPIRA_OK && L->gpu) {
        s = spira__nccl_halo_create(ctx, L->gpu, dtype, h->nrecv, h->recv_rank, h->recv_off,
                                    h->nsend, h->send_rank, h->send_off, h->send_idx, &h->gpu);
        s = spira__dist_agree(ctx, L->comm, s);
    }
done:
    spira__free(want);
    spira__free(asked);
    if (h) h->L = L;
    if (s != SPIRA_OK) {
        spira__halo_destroy(h);
        return s;
    }
    h->dtype = dtype;
    h->nghost = nghost;
    *out = h;
    return SPIRA_OK;
}

/* The entries each reader wants, in send-list order. */
#define PACK(T)                                                                          \
    do {                                                                                 \
        const T *xs = (const T *)x;                                                      \
        T *buf = (T *)h->send_buf;                                                       \
        for (int32_t k = 0; k < n; k++) buf[k] = xs[h->send_idx[k]];                     \
    } while (0)

spira_status spira__halo_start(spira_context ctx, spira__halo *h, const void *x, void *ghost_out)
{
    if (h->posted) return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "halo exchange already posted");
    if (h->gpu) {
        h->L->exchanges++;
        SPIRA__TRY(spira__nccl_halo_start(ctx, h->gpu, x, ghost_out));
        h->posted = 1;
        return SPIRA_OK;
    }
    const size_t es = spira_dtype_size(h->dtype);
    const MPI_Datatype t = mpi_type(h->dtype);
    const int32_t n = h->send_off[h->nsend];
    if (h->dtype == SPIRA_R64) PACK(double);
    else PACK(float);
    h->L->exchanges++;
    int rc = MPI_SUCCESS, q = 0;
    /* receives first, so a message finds its buffer waiting */
    for (int i = 0; rc == MPI_SUCCESS && i < h->nrecv; i++)
        rc = MPI_Irecv((char *)ghost_out + (size_t)h->recv_off[i] * es,
                       h->recv_off[i + 1] - h->recv_off[i], t, h->recv_rank[i], HALO_TAG,
                       h->L->comm, &h->req[q++]);
    for (int i = 0; rc == MPI_SUCCESS && i < h->nsend; i++)
        rc = MPI_Isend((char *)h->send_buf + (size_t)h->send_off[i] * es,
                       h->send_off[i + 1] - h->send_off[i], t, h->send_rank[i], HALO_TAG,
                       h->L->comm, &h->req[q++]);
    if (rc != MPI_SUCCESS) {
        MPI_Waitall(q, h->req, MPI_STATUSES_IGNORE);
        return spira__error(ctx, SPIRA_ERR_UNSUPPORTED, "posting the halo exchange failed");
    }
    h->posted = 1;
    return SPIRA_OK;
}

spira_status spira__halo_finish(spira_context ctx, spira__halo *h)
{
    if (!h->posted) return SPIRA_OK;
    h->posted = 0;
    if (h->gpu) return spira__nccl_halo_finish(ctx, h->gpu);
    if (MPI_Waitall(h->nrecv + h->nsend, h->req, MPI_STATUSES_IGNORE) != MPI_SUCCESS)
        return spira__error(ctx, SPIRA_ERR_UNSUPPORTED, "the halo exchange failed");
    return SPIRA_OK;
}

spira_status spira__halo_side_begin(spira_context ctx, spira__halo *h, int *on)
{
    *on = 0;
    return h->gpu && h->posted ? spira__nccl_halo_side_begin(ctx, h->gpu, on) : SPIRA_OK;
}

spira_status spira__halo_side_end(spira_context ctx, spira__halo *h)
{
    return spira__nccl_halo_side_end(ctx, h->gpu);
}

spira_status spira__halo_reverse_or(spira_context ctx, spira__halo *h,
                                    const unsigned char *ghost_flags, unsigned char *local_flags)
{
    /* the send buffer, as bytes, receives the readers' flags in send-list order */
    unsigned char *got = (unsigned char *)h->send_buf;
    int rc = MPI_SUCCESS, q = 0;
    for (int i = 0; rc == MPI_SUCCESS && i < h->nsend; i++)
        rc = MPI_Irecv(got + h->send_off[i], h->send_off[i + 1] - h->send_off[i], MPI_BYTE,
                       h->send_rank[i], HALO_TAG + 1, h->L->comm, &h->req[q++]);
    for (int i = 0; rc == MPI_SUCCESS && i < h->nrecv; i++)
        rc = MPI_Isend(ghost_flags + h->recv_off[i], h->recv_off[i + 1] - h->recv_off[i],
                       MPI_BYTE, h->recv_rank[i], HALO_TAG + 1, h->L->comm, &h->req[q++]);
    if (MPI_Waitall(q, h->req, MPI_STATUSES_IGNORE) != MPI_SUCCESS || rc != MPI_SUCCESS)
        return spira__error(ctx, SPIRA_ERR_UNSUPPORTED, "the reverse halo exchange failed");
    for (int32_t k = 0; k < h->send_off[h->nsend]; k++) local_flags[h->send_idx[k]] |= got[k];
    return SPIRA_OK;
}
