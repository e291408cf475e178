/*
 * layout.c - which rank owns which rows, and the collective bookkeeping every distributed
 * call shares: statuses agreed over the ranks (so no rank is left waiting in a collective
 * that another has abandoned), the allreduce of partial sums, the context check.
 */
#include "dist.h"

#include <stdio.h>
#include <string.h>

spira_status spira__dist_agree(spira_context ctx, MPI_Comm comm, spira_status s)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    /* the lowest failing rank, and -1 when some rank succeeded */
    int v[2] = {s == SPIRA_OK ? size : rank, s == SPIRA_OK ? -1 : 0};
    if (MPI_Allreduce(MPI_IN_PLACE, v, 2, MPI_INT, MPI_MIN, comm) != MPI_SUCCESS)
        return spira__error(ctx, SPIRA_ERR_UNSUPPORTED, "MPI_Allreduce failed");
    const int first = v[0];
    if (first == size) return SPIRA_OK;
    /* all failed: each keeps its own reason (the same one, when it is the data's) */
    if (v[1] == 0) return s;
    /* the failing rank's status and sentence, to every rank */
    struct {
        int status;
        char msg[sizeof ctx->err];
    } why = {0};
    if (rank == first) {
        why.status = (int)s;
        snprintf(why.msg, sizeof why.msg, "%s", ctx ? ctx->err : "");
    }
    MPI_Bcast(&why, (int)sizeof why, MPI_BYTE, first, comm);
    why.msg[sizeof why.msg - 1] = 0;
    char text[sizeof why.msg];
    memcpy(text, why.msg, sizeof text);
    return spira__error(ctx, (spira_status)why.status, "rank %d: %s", first,
                        text[0] ? text : spira_status_name((spira_status)why.status));
}

spira_status spira__dist_check_context(spira_context ctx)
{
    if (!ctx) return SPIRA_ERR_INVALID_ARG;
    if (ctx->backend != SPIRA_BACKEND_CPU && !spira__nccl_built())
        return spira__error(ctx, SPIRA_ERR_UNSUPPORTED,
                            "distributed matrices on GPUs need NCCL, and this library was "
                            "built without it: configure --with-mpi --with-nccl (one rank "
                            "per GPU), or create the context with SPIRA_BACKEND_CPU");
    return SPIRA_OK;
}

/* The layout's NCCL communicator over the ranks of L->comm: rank 0's id to all (MPI),
 * then every rank joins. Collective and agreed. */
static spira_status nccl_join(spira_context ctx, spira__dist_layout *L)
{
    const size_t bytes = spira__nccl_id_bytes();
    char *id = NULL;
    spira_status s = spira__alloc(ctx, (void **)&id, bytes, 1, "NCCL id");
    if (s == SPIRA_OK && L->rank == 0) s = spira__nccl_unique_id(ctx, id);
    s = spira__dist_agree(ctx, L->comm, s);
    if (s == SPIRA_OK && MPI_Bcast(id, (int)bytes, MPI_BYTE, 0, L->comm) != MPI_SUCCESS)
        s = spira__error(ctx, SPIRA_ERR_UNSUPPORTED, "MPI_Bcast of the NCCL id failed");
    if (s == SPIRA_OK) s = spira__nccl_create(ctx, id, L->size, L->rank, &L->gpu);
    spira__free(id);
    return spira__dist_agree(ctx, L->comm, s);
}

spira_status spira__dist_layout_create(spira_context ctx, MPI_Comm comm, int64_t n,
                                       int64_t local_rows, spira__dist_layout **out)
{
    *out = NULL;
    int rank, size;
    if (comm == MPI_COMM_NULL)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "MPI_COMM_NULL as the communicator");
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    spira__dist_layout *L = spira__calloc(1, sizeof *L);
    int64_t *counts = NULL;
    spira_status s = L ? SPIRA_OK : spira__nomem(ctx, "distributed layout", sizeof *L);
    if (s == SPIRA_OK) s = spira__alloc(ctx, (void **)&L->starts, (size_t)size + 1, sizeof(int64_t),
                                        "row starts");
    if (s == SPIRA_OK) s = spira__alloc(ctx, (void **)&counts, (size_t)size, sizeof(int64_t),
                                        "row counts");
    if (s == SPIRA_OK && local_rows < 0 && local_rows != SPIRA_DIST_EVEN)
        s = spira__error(ctx, SPIRA_ERR_INVALID_ARG, "local_rows = %lld: want >= 0 or "
                         "SPIRA_DIST_EVEN", (long long)local_rows);
    /* a rank that failed above still takes part, with a count no one can mistake */
    int64_t mine = s == SPIRA_OK ? local_rows : -2, dummy[1];
    if (MPI_Allgather(&mine, 1, MPI_INT64_T, counts ? counts : dummy, counts ? 1 : 0,
                      MPI_INT64_T, comm) != MPI_SUCCESS && s == SPIRA_OK)
        s = spira__error(ctx, SPIRA_ERR_UNSUPPORTED, "MPI_Allgather of the row counts failed");
    /* every rank that got the counts judges them alike */
    int even = 0, mixed = 0, bad = 0;
    for (int r = 0; s == SPIRA_OK && r < size; r++) {
        if (counts[r] == -2) bad = 1;
        else if (counts[r] == SPIRA_DIST_EVEN) even++;
    }
    if (s == SPIRA_OK && !bad) {
        mixed = even && even != size;
        if (mixed)
            s = spira__error(ctx, SPIRA_ERR_INVALID_ARG, "local_rows: %d of %d ranks passed "
                             "SPIRA_DIST_EVEN and the others counts; all or none must", even, size);
        else if (even && n < 0)
            s = spira__error(ctx, SPIRA_ERR_INVALID_ARG,
                             "SPIRA_DIST_EVEN needs the global row count");
    }
    if (s == SPIRA_OK && !bad) {
        /* even: floor(n r / p) without forming n r, which may not fit */
        const int64_t q = even ? n / size : 0, rem = even ? n % size : 0;
        L->starts[0] = 0;
        for (int r = 0; r < size; r++)
            L->starts[r + 1] = even ? q * (r + 1) + rem * (r + 1) / size
                                    : L->starts[r] + counts[r];
        if (n >= 0 && L->starts[size] != n)
            s = spira__error(ctx, SPIRA_ERR_INVALID_ARG,
                             "size mismatch: the ranks' local_rows sum to %lld, the matrix "
                             "has %lld rows", (long long)L->starts[size], (long long)n);
        int64_t mine_rows = L->starts[rank + 1] - L->starts[rank];
        if (s == SPIRA_OK && mine_rows > INT32_MAX)
            s = spira__error(ctx, SPIRA_ERR_UNSUPPORTED,
                             "rank %d would own %lld rows; local indices are 32-bit (at most "
                             "%d rows a rank): use more ranks", rank, (long long)mine_rows,
                             INT32_MAX);
    }
    spira__free(counts);
    /* one backend for all: the GPU path's collectives (NCCL) are not the CPU's (MPI) */
    int be[2] = {(int)ctx->backend, -(int)ctx->backend};
    if (MPI_Allreduce(MPI_IN_PLACE, be, 2, MPI_INT, MPI_MIN, comm) != MPI_SUCCESS && s == SPIRA_OK)
        s = spira__error(ctx, SPIRA_ERR_UNSUPPORTED, "MPI_Allreduce of the backends failed");
    else if (s == SPIRA_OK && be[0] != -be[1])
        s = spira__error(ctx, SPIRA_ERR_INVALID_ARG, "the ranks' contexts mix the CPU and CUDA "
                         "backends; a distributed matrix computes on one (every rank a CPU "
                         "context, or every rank a GPU)");
    s = spira__dist_agree(ctx, comm, s);
    if (s == SPIRA_OK && MPI_Comm_dup(comm, &L->comm) != MPI_SUCCESS)
        s = spira__error(ctx, SPIRA_ERR_UNSUPPORTED, "MPI_Comm_dup failed");
    if (s != SPIRA_OK) {
        if (L) spira__free(L->starts);
        spira__free(L);
        return s;
    }
    L->rank = rank;
    L->size = size;
    L->n = L->starts[size];
    L->first = L->starts[rank];
    L->local = (int32_t)(L->starts[rank + 1] - L->first);
    L->refs = 1;
    L->ctx = ctx;
    if (ctx->backend == SPIRA_BACKEND_CUDA) {
        s = nccl_join(ctx, L);
        if (s != SPIRA_OK) {
            spira__dist_layout_unref(L);
            return s;
        }
    }
    *out = L;
    return SPIRA_OK;
}

spira__dist_layout *spira__dist_layout_ref(spira__dist_layout *L)
{
    L->refs++;
    return L;
}

void spira__dist_layout_unref(spira__dist_layout *L)
{
    if (!L || --L->refs > 0) return;
    /* MPI_Comm_free marks the duplicate for release once its pending operations are done;
     * every rank frees its own when its last matrix or vector goes */
    spira__nccl_destroy(L->ctx, L->gpu);
    MPI_Comm_free(&L->comm);
    spira__free(L->starts);
    spira__free(L);
}

int spira__dist_owner(const spira__dist_layout *L, int64_t g)
{
    /* the last r with starts[r] <= g (ranks owning no rows share a start: skip them) */
    int lo = 0, hi = L->size - 1;
    while (lo < hi) {
        int mid = lo + (hi - lo + 1) / 2;
        if (L->starts[mid] <= g) lo = mid;
        else hi = mid - 1;
    }
    return lo;
}

spira_status spira__dist_sum(spira_context ctx, spira__dist_layout *L, int k, double *v)
{
    L->reductions++;
    if (L->gpu) return spira__nccl_sum_host(ctx, L->gpu, k, v);
    if (MPI_Allreduce(MPI_IN_PLACE, v, k, MPI_DOUBLE, MPI_SUM, L->comm) != MPI_SUCCESS)
        return spira__error(ctx, SPIRA_ERR_UNSUPPORTED, "MPI_Allreduce of %d sums failed", k);
    return SPIRA_OK;
}

spira_status spira__dist_sum_device(spira_context ctx, spira__dist_layout *L, int k, double *d)
{
    L->reductions++;
    if (!L->gpu)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "a sum of device values on a "
                            "distributed layout without GPUs");
    return spira__nccl_sum_device(ctx, L->gpu, k, d);
}
