/*
 * nccl.cu - the distributed layer's transport between GPUs (--with-nccl), behind
 * dist_gpu.h: one rank per GPU, the vectors and both blocks of a rank's rows in its
 * device's memory, and NCCL (never our own code) moving the data between the GPUs.
 *
 * The communicator is made once per layout, from the MPI one: rank 0 makes an id, MPI
 * carries it (layout.c), every rank joins with ncclCommInitRank. A sum over the ranks of
 * a solver's fused reduction runs on the device partials the reduction kernel left
 * (lib/cuda/reduce.cuh calls the hook before reading them), so the one wait an iteration
 * stays one wait: in a kernel by NCCL's device API where the ranks' GPUs reach each other
 * (below; in CG's graph inside the sums kernel itself, nccl_cg.cu, whose kernels write the
 * halo too), else one ncclAllReduce in place.
 *
 * The halo exchange: a pack kernel gathers the x entries the other ranks read into one
 * send buffer (in send-list order) on the context's stream, unless every neighbor's list
 * is a run of consecutive rows (a row-block stencil's boundary planes: then each send
 * reads x itself, and the pack's launch is saved); an event hands it to the side stream,
 * where one NCCL group posts every receive (straight into the ghost vector) and every
 * send (enqueued once the caller has queued the diagonal block's multiply, at side_begin
 * or finish), and then comes the off-diagonal block's multiply of the ghosts (queued there
 * by the caller between side_begin and side_end, the context's stream swapped for the
 * side one); an event on the side stream marks it all done. Meanwhile the context's stream
 * multiplies the diagonal block; finish makes it wait for that event before the
 * off-diagonal product is added into its rows. Nothing waits on the host. (The pack
 * kernel moved to the side stream too measured no faster on two H200s.)
 *
 * Besides, the one kernel of the off-diagonal block's compressed rows (matrix.c): its
 * product added into the rows it belongs to (unless CG's graph sums make the add: two
 * H100s, 3-D Poisson 200^3, this and the direct sends took the iteration from 0.2535 to
 * 0.2480 ms).
 *
 * Ordering, which holds without host waits: the next exchange's pack rewrites the send
 * buffer (and whatever rewrites x, the buffer of direct sends) on the context's stream,
 * which already waited for the previous exchange's transfers (finish); the next receive
 * rewrites the ghosts after the previous off-diagonal multiply, queued before it on the
 * same side stream; the next multiply rewrites its product after the next pack's event,
 * which follows the previous add of it (or CG's sums, which make the add) on the
 * context's stream.
 */
#include "nccl.cuh"

#include <stdlib.h>
#include <string.h>

#define PACK_THREADS 256
/* host sums carried a batch at a time through the device buffer */
#define HOST_SUMS 16

extern "C" int spira__nccl_built(void)
{
    return 1;
}

extern "C" size_t spira__nccl_id_bytes(void)
{
    return sizeof(ncclUniqueId);
}

extern "C" spira_status spira__nccl_unique_id(spira_context ctx, void *id)
{
    ncclUniqueId u;
    spira_status s = NCCL_CHECK(ctx, ncclGetUniqueId(&u));
    if (s == SPIRA_OK) memcpy(id, &u, sizeof u);
    return s;
}

extern "C" void spira__nccl_destroy(spira_context ctx, spira__nccl *c)
{
    if (!c) return;
    if (c->side) {
        cudaStreamSynchronize(c->side);
        cudaStreamDestroy(c->side);
    }
#if IN_KERNEL_SUMS
    if (c->in_kernel) ncclDevCommDestroy(c->comm, &c->dev);
#endif
    if (c->comm) ncclCommDestroy(c->comm);
    spira__cuda_free(ctx, c->dsum);
    spira__free(c);
}

/* The halo's stream, at the device's highest priority: its NCCL kernel is scheduled as
 * soon as blocks free up, rather than after the diagonal block's multiply, which fills the
 * GPU and would otherwise put the whole exchange after it. */
static spira_status side_stream_create(spira_context ctx, cudaStream_t *side)
{
    int least, greatest;
    SPIRA__TRY(CUDA_CHECK(ctx, cudaDeviceGetStreamPriorityRange(&least, &greatest)));
    return CUDA_CHECK(ctx, cudaStreamCreateWithPriority(side, cudaStreamNonBlocking, greatest));
}

/* ---- sums over the ranks inside a kernel (NCCL's device API) ----
 *
 * A sum of a few doubles by ncclAllReduce is a kernel of NCCL's between the caller's: in
 * CG's graph, sums -> allreduce -> step -> update, two launches and their gaps, about 16
 * us an iteration on two H200s (bench/results/2026-11-26-h200x2-session16). With NCCL's
 * device API the kernel that made the partials sums them over the ranks itself: its last
 * thread writes its values into every rank's low-latency buffer (a value and its epoch
 * flag in one 16-byte store over NVLink, no fence), reads every rank's, and adds them in
 * rank order, so every rank gets the same bits, for any number of ranks. It needs every
 * rank's GPU load/store reachable from every other's (one NVLink or P2P domain); where the
 * device communicator cannot be made, or SPIRA_NCCL_IN_KERNEL=0, ncclAllReduce does it. */
#if IN_KERNEL_SUMS
__global__ void ll_sum_kernel(spira__ll_sum sum, int k, double *d)
{
    sum(d, k);
}
#endif

/* c->in_kernel on every rank or on none: each rank tries to make its device communicator
 * (a collective), and the ranks count those that can, since a rank that sums in its
 * kernels waits there for the others' values. */
static spira_status in_kernel_sums_create(spira_context ctx, spira__nccl *c, int nranks)
{
#if IN_KERNEL_SUMS
    const char *env = getenv("SPIRA_NCCL_IN_KERNEL");
    int made = 0; /* c->dev exists and must be destroyed unless kept */
    if (!(env && strcmp(env, "0") == 0)) {
        ncclDevResourceRequirements_t res;
        ncclDevCommRequirements_t req;
        memset(&res, 0, sizeof res);
        memset(&req, 0, sizeof req);
        if (ncclLLA2ACreateRequirement(1, ncclLLA2ACalcSlots(nranks * KERNEL_SUMS, sizeof(double)),
                                       &c->ll, &res) == ncclSuccess) {
            req.resourceRequirementsList = &res;
            made = ncclDevCommCreate(c->comm, &req, &c->dev) == ncclSuccess;
        }
    }
    /* the ranks whose every peer is within load/store reach (NVLink or P2P) */
    double all = made && c->dev.lsaSize == nranks;
    spira_status s = spira__nccl_sum_host(ctx, c, 1, &all);
    c->in_kernel = s == SPIRA_OK && all == nranks;
    if (made && !c->in_kernel) ncclDevCommDestroy(c->comm, &c->dev);
    return s;
#else
    (void)ctx, (void)c, (void)nranks;
    return SPIRA_OK;
#endif
}

extern "C" int spira__nccl_in_kernel(const spira__nccl *c)
{
#if IN_KERNEL_SUMS
    return c->in_kernel;
#else
    (void)c;
    return 0;
#endif
}

extern "C" spira_status spira__nccl_create(spira_context ctx, const void *id, int nranks, int rank,
                                           spira__nccl **out)
{
    *out = NULL;
    spira__nccl *c = (spira__nccl *)spira__calloc(1, sizeof *c);
    if (!c) return spira__nomem(ctx, "NCCL communicator", sizeof *c);
    ncclUniqueId u;
    memcpy(&u, id, sizeof u);
    /* the communicator belongs to the current device: the context's */
    spira_status s = CUDA_CHECK(ctx, cudaSetDevice(ctx->device));
    c->rank = rank, c->nranks = nranks;
    if (s == SPIRA_OK) s = NCCL_CHECK(ctx, ncclCommInitRank(&c->comm, nranks, u, rank));
    if (s == SPIRA_OK) s = side_stream_create(ctx, &c->side);
    if (s == SPIRA_OK)
        s = spira__cuda_malloc(ctx, (void **)&c->dsum, HOST_SUMS * sizeof(double), "NCCL sums");
    if (s == SPIRA_OK) s = in_kernel_sums_create(ctx, c, nranks);
    if (s != SPIRA_OK) {
        spira__nccl_destroy(ctx, c);
        return s;
    }
    *out = c;
    return SPIRA_OK;
}

extern "C" spira_status spira__nccl_sum_device(spira_context ctx, spira__nccl *c, int k, double *d)
{
    cudaStream_t st = (cudaStream_t)spira__cuda_stream(ctx);
#if IN_KERNEL_SUMS
    /* the same sum as CG's graph makes in its kernel, so the two paths keep the same bits */
    if (c->in_kernel && k <= KERNEL_SUMS) {
        const spira__ll_sum sum = {c->dev, c->ll};
        ll_sum_kernel<<<1, 1, 0, st>>>(sum, k, d);
        SPIRA__LAUNCHED(ctx);
        return SPIRA_OK;
    }
#endif
    return NCCL_CHECK(ctx, ncclAllReduce(d, d, (size_t)k, ncclDouble, ncclSum, c->comm, st));
}

extern "C" spira_status spira__nccl_sum_host(spira_context ctx, spira__nccl *c, int k, double *v)
{
    cudaStream_t st = (cudaStream_t)spira__cuda_stream(ctx);
    for (int at = 0; at < k; at += HOST_SUMS) {
        const size_t n = (size_t)(k - at < HOST_SUMS ? k - at : HOST_SUMS);
        SPIRA__CUDA(ctx, cudaMemcpyAsync(c->dsum, v + at, n * sizeof *v, cudaMemcpyHostToDevice, st));
        SPIRA__TRY(NCCL_CHECK(ctx, ncclAllReduce(c->dsum, c->dsum, n, ncclDouble, ncclSum,
                                                 c->comm, st)));
        SPIRA__CUDA(ctx, cudaMemcpyAsync(v + at, c->dsum, n * sizeof *v, cudaMemcpyDeviceToHost, st));
        SPIRA__CUDA(ctx, cudaStreamSynchronize(st));
    }
    return SPIRA_OK;
}

/* ---- the halo exchange ---- */

struct spira__nccl_halo {
    spira__nccl *c;
    ncclDataType_t type;
    size_t es;
    int nrecv, nsend;
    const int *recv_rank, *send_rank; /* borrowed from halo.c's pattern */
    const int32_t *recv_off, *send_off;
    int32_t nsendv;
    int32_t *didx;                    /* the send list, on the device */
    void *dbuf;                       /* the packed sends */
    /* every neighbor's send list a run of consecutive rows (a row-block stencil's boundary
     * planes): its sends go straight from x at send_first[i], no pack kernel */
    int32_t *send_first;              /* NULL: packed */
    cudaEvent_t packed, arrived;      /* NULL until made; arrived: ghosts and side work */
    int posted;                       /* started (finish not yet called) */
    /* started but NCCL's group not yet enqueued: its x and ghosts (see halo_start) */
    int pending;
    const void *pending_x;
    void *pending_ghost;
    void *saved;                      /* the context's stream, while side work is queued */
};

extern "C" void spira__nccl_halo_destroy(spira_context ctx, spira__nccl_halo *h)
{
    if (!h) return;
    if (h->posted && h->c->side) cudaStreamSynchronize(h->c->side);
    if (h->packed) cudaEventDestroy(h->packed);
    if (h->arrived) cudaEventDestroy(h->arrived);
    spira__cuda_free(ctx, h->didx);
    spira__cuda_free(ctx, h->dbuf);
    spira__free(h->send_first);
    spira__free(h);
}

/* 1 when each neighbor's part of the send list is consecutive rows, ascending. */
static int runs_only(int nsend, const int32_t *send_off, const int32_t *send_idx)
{
    for (int i = 0; i < nsend; i++)
        for (int32_t k = send_off[i] + 1; k < send_off[i + 1]; k++)
            if (send_idx[k] != send_idx[k - 1] + 1) return 0;
    return 1;
}

extern "C" spira_status spira__nccl_halo_create(spira_context ctx, spira__nccl *c, spira_dtype t,
                                                int nrecv, const int *recv_rank,
                                                const int32_t *recv_off, int nsend,
                                                const int *send_rank, const int32_t *send_off,
                                                const int32_t *send_idx, spira__nccl_halo **out)
{
    *out = NULL;
    spira__nccl_halo *h = (spira__nccl_halo *)spira__calloc(1, sizeof *h);
    if (!h) return spira__nomem(ctx, "NCCL halo", sizeof *h);
    h->c = c;
    h->type = t == SPIRA_R64 ? ncclDouble : ncclFloat;
    h->es = spira_dtype_size(t);
    h->nrecv = nrecv, h->nsend = nsend;
    h->recv_rank = recv_rank, h->send_rank = send_rank;
    h->recv_off = recv_off, h->send_off = send_off;
    h->nsendv = send_off[nsend];
    spira_status s = SPIRA_OK;
    if (runs_only(nsend, send_off, send_idx)) {
        h->send_first = (int32_t *)spira__calloc(nsend ? nsend : 1, sizeof *h->send_first);
        if (!h->send_first) s = spira__nomem(ctx, "halo send list", nsend * sizeof(int32_t));
        for (int i = 0; s == SPIRA_OK && i < nsend; i++)
            h->send_first[i] = send_off[i + 1] > send_off[i] ? send_idx[send_off[i]] : 0;
    } else if (h->nsendv > 0) {
        s = spira__cuda_clone(ctx, (void **)&h->didx, send_idx, (size_t)h->nsendv * sizeof *send_idx,
                              "halo send list");
        if (s == SPIRA_OK)
            s = spira__cuda_malloc(ctx, &h->dbuf, (size_t)h->nsendv * h->es, "halo send buffer");
    }
    /* events only order the streams: no timing */
    if (s == SPIRA_OK)
        s = CUDA_CHECK(ctx, cudaEventCreateWithFlags(&h->packed, cudaEventDisableTiming));
    if (s == SPIRA_OK)
        s = CUDA_CHECK(ctx, cudaEventCreateWithFlags(&h->arrived, cudaEventDisableTiming));
    if (s != SPIRA_OK) {
        spira__nccl_halo_destroy(ctx, h);
        return s;
    }
    *out = h;
    return SPIRA_OK;
}

/* buf[k] = x[idx[k]]: the entries each reader wants, in send-list order */
template <typename T>
__global__ void __launch_bounds__(PACK_THREADS)
pack_kernel(int32_t n, const int32_t *__restrict__ idx, const T *__restrict__ x, T *__restrict__ buf)
{
    for (int32_t k = blockIdx.x * PACK_THREADS + threadIdx.x; k < n; k += gridDim.x * PACK_THREADS)
        buf[k] = x[idx[k]];
}

/* NCCL's group of a started exchange, on the side stream, if not enqueued yet. */
static spira_status halo_post(spira_context ctx, spira__nccl_halo *h)
{
    if (!h->pending) return SPIRA_OK;
    h->pending = 0;
    const void *x = h->pending_x;
    void *ghost = h->pending_ghost;
    cudaStream_t side = h->c->side;
    /* one group: NCCL pairs each send with its peer's receive whatever the order, and the
     * group is ended even when a call in it failed */
    spira_status s = NCCL_CHECK(ctx, ncclGroupStart());
    if (s != SPIRA_OK) return s;
    for (int i = 0; s == SPIRA_OK && i < h->nrecv; i++)
        s = NCCL_CHECK(ctx, ncclRecv((char *)ghost + (size_t)h->recv_off[i] * h->es,
                                     (size_t)(h->recv_off[i + 1] - h->recv_off[i]), h->type,
                                     h->recv_rank[i], h->c->comm, side));
    for (int i = 0; s == SPIRA_OK && i < h->nsend; i++)
        s = NCCL_CHECK(ctx, ncclSend(h->send_first
                                         ? (const char *)x + (size_t)h->send_first[i] * h->es
                                         : (const char *)h->dbuf + (size_t)h->send_off[i] * h->es,
                                     (size_t)(h->send_off[i + 1] - h->send_off[i]), h->type,
                                     h->send_rank[i], h->c->comm, side));
    spira_status e = NCCL_CHECK(ctx, ncclGroupEnd());
    if (s == SPIRA_OK) s = e;
    if (s == SPIRA_OK) s = CUDA_CHECK(ctx, cudaEventRecord(h->arrived, side));
    return s;
}

extern "C" spira_status spira__nccl_halo_start(spira_context ctx, spira__nccl_halo *h,
                                               const void *x, void *ghost)
{
    if (h->nrecv == 0 && h->nsend == 0) return SPIRA_OK; /* no neighbor: nothing to order */
    cudaStream_t st = (cudaStream_t)spira__cuda_stream(ctx), side = h->c->side;
    if (h->nsendv > 0 && !h->send_first) {
        const unsigned g = spira__blocks(h->nsendv, PACK_THREADS);
        if (h->type == ncclDouble)
            pack_kernel<<<g, PACK_THREADS, 0, st>>>(h->nsendv, h->didx, (const double *)x,
                                                    (double *)h->dbuf);
        else
            pack_kernel<<<g, PACK_THREADS, 0, st>>>(h->nsendv, h->didx, (const float *)x,
                                                    (float *)h->dbuf);
        SPIRA__LAUNCHED(ctx);
    }
    SPIRA__CUDA(ctx, cudaEventRecord(h->packed, st));
    SPIRA__CUDA(ctx, cudaStreamWaitEvent(side, h->packed, 0));
    /* NCCL's group waits for the caller's next launch (the diagonal block's multiply,
     * side_begin or finish): queued first, its kernel started first in CG's graph and the
     * multiply some 5 us after the update before it, against about 4.5 us for both the
     * other way round (two H200s: 0.1860 -> 0.1840 ms an iteration on 3-D Poisson 200^3) */
    h->pending_x = x, h->pending_ghost = ghost, h->pending = 1, h->posted = 1;
    return SPIRA_OK;
}

extern "C" spira_status spira__nccl_halo_finish(spira_context ctx, spira__nccl_halo *h)
{
    if (!h->posted) return SPIRA_OK;
    h->posted = 0;
    SPIRA__TRY(halo_post(ctx, h));
    cudaStream_t st = (cudaStream_t)spira__cuda_stream(ctx);
    SPIRA__CUDA(ctx, cudaStreamWaitEvent(st, h->arrived, 0));
    return SPIRA_OK;
}

extern "C" spira_status spira__nccl_halo_side_begin(spira_context ctx, spira__nccl_halo *h,
                                                    int *on)
{
    *on = 0;
    if (!h->posted) return SPIRA_OK;
    SPIRA__TRY(halo_post(ctx, h));
    SPIRA__TRY(spira__cuda_stream_swap(ctx, h->c->side, &h->saved));
    *on = 1;
    return SPIRA_OK;
}

extern "C" spira_status spira__nccl_halo_side_end(spira_context ctx, spira__nccl_halo *h)
{
    void *side;
    spira_status s = spira__cuda_stream_swap(ctx, h->saved, &side);
    /* arrived now also marks the side work done: finish waits for both */
    spira_status e = CUDA_CHECK(ctx, cudaEventRecord(h->arrived, h->c->side));
    return s == SPIRA_OK ? e : s;
}

/* ---- the off-diagonal block's rows ---- */

template <typename T>
__global__ void __launch_bounds__(PACK_THREADS)
scatter_add_kernel(int32_t n, const int32_t *__restrict__ idx, const T *__restrict__ t, T *y)
{
    for (int32_t i = blockIdx.x * PACK_THREADS + threadIdx.x; i < n; i += gridDim.x * PACK_THREADS)
        y[idx[i]] += t[i];
}

extern "C" spira_status spira__nccl_scatter_add(spira_context ctx, int32_t n, spira_dtype type,
                                                const int32_t *idx, const void *t, void *y)
{
    if (n <= 0) return SPIRA_OK;
    cudaStream_t st = (cudaStream_t)spira__cuda_stream(ctx);
    const unsigned g = spira__blocks(n, PACK_THREADS);
    if (type == SPIRA_R64)
        scatter_add_kernel<<<g, PACK_THREADS, 0, st>>>(n, idx, (const double *)t, (double *)y);
    else
        scatter_add_kernel<<<g, PACK_THREADS, 0, st>>>(n, idx, (const float *)t, (float *)y);
    SPIRA__LAUNCHED(ctx);
    return SPIRA_OK;
}
