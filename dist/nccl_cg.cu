/*
 * nccl_cg.cu - CG's graph across the GPUs (dist_gpu.h), where the ranks reach each other's
 * memory (NCCL's device API, spira__nccl_in_kernel): its sums kernel sums over the ranks
 * itself (nccl.cuh's spira__ll_sum), and its kernels write the halo too, so that an
 * iteration is the one process's three kernels on one stream:
 *
 *   w <- A_diag z              the diagonal block's multiply, alone on the GPU
 *   sums                       at each row with remote columns: wait for its writers' flags,
 *                              w[i] += (A_offdiag row . ghosts); the dots; the sum over the
 *                              ranks; the step
 *   update                     x, r, p, s (and z); each new z[i] another rank reads is
 *                              stored into that rank's ghosts; the last block to store
 *                              raises a flag in each reader's window
 *
 * What it replaces: NCCL's send/receive of the halo on a second stream, which ran beside the
 * diagonal block's multiply, the fork and join of the streams, and the off-diagonal block's
 * multiply (two H100s, 3-D Poisson 200^3: 0.2402-0.2411 -> 0.2375-0.2385 ms an iteration,
 * bench/results/2026-11-27-h100x2-session17). SPIRA_NCCL_KERNEL_HALO=0 keeps NCCL's.
 *
 * The window: every rank's holds as many ghosts as the rank with the most (NCCL's symmetric
 * memory), after one 8-byte flag per rank; the rank that writes rank q's ghosts keeps their
 * offsets there (halo.c's send_at). Rounds are counted, not toggled: a writer's flag in a
 * reader's window is the number of rounds it has stored (st->sent), and a reader's sums wait
 * until every writer's flag reaches the rounds it has read, plus one (st->seen). The order
 * holds with no other wait:
 * - a reader's sums of iteration k read ghosts stored by its writers' update k - 1 (or by
 *   prime, before the first launch), which raised their flags only after every store
 *   (each storing block fences at system scope before it counts itself, the last one
 *   raises the flags with a release store; the reader loads them with acquire and the
 *   ghosts past its L1);
 * - a writer's update k overwrites those ghosts only after its own sums k, which waited in
 *   the sum over the ranks for the reader's values, sent by the reader's last block once
 *   every block had read its ghosts.
 * Every iteration that runs its sums has a round stored before it (a stopped device skips
 * both the update and the next sums, on every rank alike), so the counts stay equal; and
 * every run starts them from zero on all ranks (spira__nccl_kernel_halo_reset, ordered by
 * dist/solve.c), so a run cut short by an error leaves nothing stale to the next.
 */
#include "nccl.cuh"
#include "cg_graph.cuh"

#include <stdlib.h>
#include <string.h>

#if IN_KERNEL_SUMS
#include <cuda/atomic>
#endif

#define THREADS SPIRA__CG_UPDATE_THREADS /* the update's block, which storers() counts in */

/* Where ctx computes: the rounds of one rank's kernel halo. */
struct kh_state {
    unsigned stored;         /* blocks of the running kernel that stored and are done */
    unsigned long long sent; /* rounds stored (each raised the readers' flags) */
    unsigned long long seen; /* rounds of ghosts the sums have read */
};

struct spira__nccl_kernel_halo {
    spira__nccl *c;
    spira_dtype dtype;
    void *base;         /* the window (ncclMemAlloc): flags, then ghosts at ghost_at */
    size_t ghost_at;
#if IN_KERNEL_SUMS
    ncclWindow_t win;
#endif
    int registered;
    int32_t nsrow, orows, slo, shi, olo, ohi;
    int nsend, nrecv;
    /* on the device: the rows others read and their destinations (dist_gpu.h), the ranks
     * written to and read from, the off-diagonal block's CSR */
    int32_t *srow, *sbase, *dptr, *dpeer, *doff, *orp, *ocol;
    uint32_t *sbits;
    int *send_rank, *recv_rank;
    void *oval;
    const uint32_t *dbits; /* borrowed: the matrix's bitmap of its off-diagonal rows */
    const int32_t *dbase;
    kh_state *st;
    /* the blocks that store, in the update's grid and in prime's, and the update's first
     * block (its shift: storers first) */
    unsigned update_storers, prime_storers, update_shift;
};

/* Row j of the off-diagonal block times the ghosts, one rounding a term, in entry order:
 * the graph's sums (FRESH: the ghosts loaded past L1, another GPU wrote them) and the
 * per-iteration path's product make the same bits. */
template <typename T, bool FRESH>
static __device__ __forceinline__ T offdiag_row(const int32_t *rp, const int32_t *col,
                                                const T *val, const T *ghost, int j)
{
    T t = 0;
    for (int k = rp[j]; k < rp[j + 1]; k++)
        t = spira__fma_rn(val[k], FRESH ? __ldcg(ghost + col[k]) : ghost[col[k]], t);
    return t;
}

template <typename T>
__global__ void __launch_bounds__(THREADS)
product_kernel(int32_t n, const int32_t *__restrict__ rp, const int32_t *__restrict__ col,
               const T *__restrict__ val, T alpha, const T *__restrict__ ghost, T *__restrict__ t)
{
    for (int j = blockIdx.x * THREADS + threadIdx.x; j < n; j += gridDim.x * THREADS)
        t[j] = alpha * offdiag_row<T, false>(rp, col, val, ghost, j);
}

extern "C" spira_status spira__nccl_kernel_halo_product(spira_context ctx,
                                                        spira__nccl_kernel_halo *h, double alpha,
                                                        const void *ghost, void *t)
{
    if (h->orows == 0) return SPIRA_OK;
    cudaStream_t st = (cudaStream_t)spira__cuda_stream(ctx);
    const unsigned g = spira__blocks(h->orows, THREADS);
    if (h->dtype == SPIRA_R64)
        product_kernel<<<g, THREADS, 0, st>>>(h->orows, h->orp, h->ocol, (const double *)h->oval,
                                              alpha, (const double *)ghost, (double *)t);
    else
        product_kernel<<<g, THREADS, 0, st>>>(h->orows, h->orp, h->ocol, (const float *)h->oval,
                                              (float)alpha, (const float *)ghost, (float *)t);
    SPIRA__LAUNCHED(ctx);
    return SPIRA_OK;
}

#if IN_KERNEL_SUMS
typedef cuda::atomic_ref<unsigned long long, cuda::thread_scope_system> flag_ref;

/* The update's Post (cg_graph.cuh), and prime's: a row's new value stored into the ghosts
 * of every rank that reads it; finish raises the readers' flags once every storing block
 * is done. */
template <typename T> struct ghost_store {
    ncclWindow_t win;
    size_t ghost_at;
    const uint32_t *bits;
    const int32_t *base;
    int lo, hi;
    const int32_t *dptr, *dpeer, *doff;
    const int *send_rank;
    int nsend, rank;
    kh_state *st;
    unsigned storers; /* the blocks of this grid that store */
    bool stored;      /* this thread stored */

    __device__ __forceinline__ void row(int j, T v)
    {
        for (int k = dptr[j]; k < dptr[j + 1]; k++)
            *(T *)ncclGetPeerPointer(win, ghost_at + (size_t)doff[k] * sizeof(T), dpeer[k]) = v;
        stored = true;
    }
    __device__ __forceinline__ void operator()(int i, T v)
    {
        if (i < lo || i >= hi) return;
        const int j = spira__listed_index(bits, base, i);
        if (j >= 0) row(j, v);
    }
    /* every thread of the block */
    __device__ void finish()
    {
        if (!__syncthreads_or(stored) || threadIdx.x != 0) return;
        __threadfence_system(); /* the block's stores before its count */
        if (atomicAdd(&st->stored, 1u) != storers - 1) return;
        st->stored = 0;
        __threadfence_system(); /* every block's stores before the flags */
        const unsigned long long round = ++st->sent;
        for (int q = 0; q < nsend; q++) {
            flag_ref f(*(unsigned long long *)ncclGetPeerPointer(win, (size_t)rank * sizeof round,
                                                                 send_rank[q]));
            f.store(round, cuda::memory_order_release);
        }
    }
};

/* The sums' Pre (cg_graph.cuh): at each of a thread's rows with remote columns, after its
 * writers' flags show this round's ghosts, the row's product added into w. */
template <typename T> struct ghost_add {
    const uint32_t *bits;
    const int32_t *base;
    int lo, hi;
    const int32_t *rp, *col;
    const T *val, *ghost;
    unsigned long long *flags; /* this rank's window: one per writer */
    const int *recv_rank;
    int nrecv;
    kh_state *st;
    T *w;

    /* the thread's rows first, first + stride, ... below n */
    __device__ void operator()(int first, int stride, int n) const
    {
        const int end = hi < n ? hi : n;
        bool ready = false; /* this thread saw the flags */
        for (int i = spira__stride_from(first, stride, lo); i < end; i += stride) {
            const int j = spira__listed_index(bits, base, i);
            if (j < 0) continue;
            if (!ready) wait();
            ready = true;
            w[i] += offdiag_row<T, true>(rp, col, val, ghost, j);
        }
    }
    __device__ void wait() const
    {
        const unsigned long long want = *(volatile unsigned long long *)&st->seen + 1;
        for (int q = 0; q < nrecv; q++) {
            flag_ref f(flags[recv_rank[q]]);
            while (f.load(cuda::memory_order_acquire) < want) {
            }
        }
    }
    /* the last block's thread 0, every block's reads done */
    __device__ __forceinline__ void finish() const { st->seen++; }
};

template <typename T>
static ghost_store<T> store_of(const spira__nccl_kernel_halo *h, unsigned storers)
{
    const ghost_store<T> s = {h->win, h->ghost_at, h->sbits, h->sbase, h->slo, h->shi,
                              h->dptr, h->dpeer, h->doff, h->send_rank, h->nsend, h->c->rank,
                              h->st, storers, false};
    return s;
}

template <typename T>
static ghost_add<T> ghost_add_of(const spira__nccl_kernel_halo *h, void *w)
{
    const ghost_add<T> a = {h->dbits, h->dbase, h->olo, h->ohi, h->orp, h->ocol,
                            (const T *)h->oval, (const T *)((char *)h->base + h->ghost_at),
                            (unsigned long long *)h->base, h->recv_rank, h->nrecv, h->st,
                            (T *)w};
    return a;
}

template <typename T>
__global__ void __launch_bounds__(THREADS)
prime_kernel(int32_t n, const int32_t *__restrict__ srow, const T *__restrict__ z,
             ghost_store<T> store)
{
    for (int j = blockIdx.x * THREADS + threadIdx.x; j < n; j += gridDim.x * THREADS)
        store.row(j, z[srow[j]]);
    store.finish();
}
#endif

extern "C" spira_status spira__nccl_kernel_halo_reset(spira_context ctx, spira__nccl_kernel_halo *h)
{
    cudaStream_t st = (cudaStream_t)spira__cuda_stream(ctx);
    SPIRA__CUDA(ctx, cudaMemsetAsync(h->st, 0, sizeof *h->st, st));
    SPIRA__CUDA(ctx, cudaMemsetAsync(h->base, 0, h->ghost_at, st));
    SPIRA__CUDA(ctx, cudaStreamSynchronize(st));
    return SPIRA_OK;
}

extern "C" spira_status spira__nccl_kernel_halo_prime(spira_context ctx, spira__nccl_kernel_halo *h,
                                                      const void *z)
{
#if IN_KERNEL_SUMS
    if (h->nsrow == 0) return SPIRA_OK;
    cudaStream_t st = (cudaStream_t)spira__cuda_stream(ctx);
    const unsigned g = spira__blocks(h->nsrow, THREADS);
    if (h->dtype == SPIRA_R64)
        prime_kernel<<<g, THREADS, 0, st>>>(h->nsrow, h->srow, (const double *)z,
                                            store_of<double>(h, h->prime_storers));
    else
        prime_kernel<<<g, THREADS, 0, st>>>(h->nsrow, h->srow, (const float *)z,
                                            store_of<float>(h, h->prime_storers));
    SPIRA__LAUNCHED(ctx);
    return SPIRA_OK;
#else
    (void)h, (void)z;
    return spira__error(ctx, SPIRA_ERR_UNSUPPORTED, "the kernel halo needs NCCL 2.28");
#endif
}

extern "C" spira_status spira__nccl_cg_update(spira_context ctx, spira__nccl_kernel_halo *h,
                                              int32_t n, spira_dtype t, const spira__cg_dev *g,
                                              void *z, const void *w, void *p, void *s, void *r,
                                              const void *dinv)
{
#if IN_KERNEL_SUMS
    if (n == 0) return SPIRA_OK; /* no rows, none to store */
    cudaStream_t st = (cudaStream_t)spira__cuda_stream(ctx);
    if (t == SPIRA_R64)
        spira__cg_update_launch<double>(n, st, g, z, w, p, s, r, dinv, h->update_shift,
                                        store_of<double>(h, h->update_storers));
    else
        spira__cg_update_launch<float>(n, st, g, z, w, p, s, r, dinv, h->update_shift,
                                       store_of<float>(h, h->update_storers));
    SPIRA__LAUNCHED(ctx);
    return SPIRA_OK;
#else
    (void)h, (void)n, (void)t, (void)g, (void)z, (void)w, (void)p, (void)s, (void)r, (void)dinv;
    return spira__error(ctx, SPIRA_ERR_UNSUPPORTED, "the kernel halo needs NCCL 2.28");
#endif
}

extern "C" spira_status spira__nccl_cg_sums(spira_context ctx, spira__nccl *c,
                                            spira__nccl_kernel_halo *h, int32_t n, spira_dtype t,
                                            const void *r, void *w, const void *z, int with_dinv,
                                            const spira__row_add *add, spira__cg_dev *g)
{
#if IN_KERNEL_SUMS
    if (c->in_kernel) {
        cudaStream_t st = (cudaStream_t)spira__cuda_stream(ctx);
        spira__reduce_scratch *sc = spira__reduce_scratch_of(ctx);
        const spira__ll_sum sum = {c->dev, c->ll};
        if (h && t == SPIRA_R64)
            spira__cg_sums_pairs<double, true>(n, st, r, w, z, with_dinv, sc, g,
                                               ghost_add_of<double>(h, w), sum);
        else if (h)
            spira__cg_sums_pairs<float, true>(n, st, r, w, z, with_dinv, sc, g,
                                              ghost_add_of<float>(h, w), sum);
        else if (t == SPIRA_R64)
            spira__cg_sums_launch<double, true>(n, st, r, w, z, with_dinv, add, sc, g, sum);
        else
            spira__cg_sums_launch<float, true>(n, st, r, w, z, with_dinv, add, sc, g, sum);
        SPIRA__LAUNCHED(ctx);
        return SPIRA_OK;
    }
#else
    (void)c, (void)h, (void)n, (void)t, (void)r, (void)w, (void)z, (void)with_dinv, (void)add;
    (void)g;
#endif
    return spira__error(ctx, SPIRA_ERR_UNSUPPORTED, "CG's sums in a kernel: no device "
                        "communicator (a bug: spira__nccl_in_kernel says so first)");
}

/* ---- making it ---- */

extern "C" void spira__nccl_kernel_halo_destroy(spira_context ctx, spira__nccl_kernel_halo *h)
{
    if (!h) return;
    cudaStreamSynchronize((cudaStream_t)spira__cuda_stream(ctx));
#if IN_KERNEL_SUMS
    if (h->registered) ncclCommWindowDeregister(h->c->comm, h->win);
#endif
    if (h->base) ncclMemFree(h->base);
    void *arrays[] = {h->srow, h->sbase, h->dptr, h->dpeer, h->doff, h->orp, h->ocol,
                      h->sbits, h->send_rank, h->recv_rank, h->oval, h->st};
    for (size_t i = 0; i < sizeof arrays / sizeof *arrays; i++) spira__cuda_free(ctx, arrays[i]);
    spira__free(h);
}

/* The blocks of a grid of g blocks (a grid-stride loop of THREADS threads a block, as the
 * update's and prime's) that reach rows[0..n), and the shift that makes them the first the
 * update runs: the one after the longest run of blocks that store nothing, cyclically (a
 * rank's boundary rows are its last, its first or both). */
static spira_status storers(spira_context ctx, unsigned g, int32_t n, const int32_t *rows,
                            unsigned *count, unsigned *shift)
{
    unsigned char *hit = (unsigned char *)spira__calloc(g, 1);
    if (!hit) return spira__nomem(ctx, "the storing blocks", g);
    *count = *shift = 0;
    for (int32_t j = 0; j < n; j++) {
        const unsigned b = (unsigned)(rows[j] / THREADS) % g;
        *count += !hit[b];
        hit[b] = 1;
    }
    unsigned last = g, gap = 0; /* the storing block before b, cyclically */
    for (unsigned b = g; b-- > 0;)
        if (hit[b]) {
            last = b;
            break;
        }
    for (unsigned b = 0; *count && b < g; b++) {
        if (!hit[b]) continue;
        const unsigned run = (b + g - last - 1) % g; /* blocks storing nothing before b */
        if (run >= gap) gap = run, *shift = b;
        last = b;
    }
    spira__free(hit);
    return SPIRA_OK;
}

/* The window, the same size on every rank: made on all or on none (a host sum counts the
 * ranks that could allocate it), then registered (collective). */
static spira_status window_create(spira_context ctx, spira__nccl_kernel_halo *h, size_t bytes)
{
#if IN_KERNEL_SUMS
    spira__nccl *c = h->c;
    double made = ncclMemAlloc(&h->base, bytes) == ncclSuccess &&
                  cudaMemset(h->base, 0, bytes) == cudaSuccess &&
                  cudaDeviceSynchronize() == cudaSuccess;
    SPIRA__TRY(spira__nccl_sum_host(ctx, c, 1, &made));
    if (made != c->nranks)
        return spira__error(ctx, SPIRA_ERR_DEVICE, "the kernel halo's window (%zu bytes) could "
                            "not be allocated on every rank", bytes);
    SPIRA__TRY(NCCL_CHECK(ctx, ncclCommWindowRegister(c->comm, h->base, bytes, &h->win,
                                                      NCCL_WIN_COLL_SYMMETRIC)));
    h->registered = 1;
    return SPIRA_OK;
#else
    (void)h, (void)bytes;
    return spira__error(ctx, SPIRA_ERR_UNSUPPORTED, "the kernel halo needs NCCL 2.28");
#endif
}

#define CLONE(dst, src, count, what) \
    (s == SPIRA_OK ? spira__cuda_clone(ctx, (void **)&(dst), (src), (size_t)(count) * sizeof *(src), (what)) : s)

extern "C" spira_status spira__nccl_kernel_halo_create(spira_context ctx, spira__nccl *c,
                                                       const spira__kernel_halo_desc *d,
                                                       spira__nccl_kernel_halo **out)
{
    *out = NULL;
    spira__nccl_kernel_halo *h = (spira__nccl_kernel_halo *)spira__calloc(1, sizeof *h);
    if (!h) return spira__nomem(ctx, "kernel halo", sizeof *h);
    h->c = c;
    h->dtype = d->dtype;
    h->ghost_at = ((size_t)c->nranks * sizeof(unsigned long long) + 255) / 256 * 256;
    spira_status s = window_create(ctx, h, h->ghost_at + (size_t)d->ghosts_max *
                                               spira_dtype_size(d->dtype));
    h->nsrow = d->nsrow, h->orows = d->orows;
    h->nsend = d->nsend, h->nrecv = d->nrecv;
    h->slo = d->nsrow ? d->srow[0] : 0, h->shi = d->nsrow ? d->srow[d->nsrow - 1] + 1 : 0;
    h->olo = d->olo, h->ohi = d->ohi;
    h->dbits = d->dbits, h->dbase = d->dbase;
    const size_t words = ((size_t)d->local + 31) / 32;
    s = CLONE(h->srow, d->srow, d->nsrow, "kernel halo rows");
    s = CLONE(h->sbits, d->sbits, words, "kernel halo rows");
    s = CLONE(h->sbase, d->sbase, words, "kernel halo rows");
    s = CLONE(h->dptr, d->dptr, d->nsrow + 1, "kernel halo destinations");
    const int32_t nd = d->dptr[d->nsrow];
    s = CLONE(h->dpeer, d->dpeer, nd, "kernel halo destinations");
    s = CLONE(h->doff, d->doff, nd, "kernel halo destinations");
    s = CLONE(h->send_rank, d->send_rank, d->nsend, "kernel halo ranks");
    s = CLONE(h->recv_rank, d->recv_rank, d->nrecv, "kernel halo ranks");
    s = CLONE(h->orp, d->orp, d->orows + 1, "off-diagonal rows");
    const int32_t onz = d->orp[d->orows];
    s = CLONE(h->ocol, d->ocol, onz, "off-diagonal columns");
    if (s == SPIRA_OK)
        s = spira__cuda_clone(ctx, &h->oval, d->oval, (size_t)onz * spira_dtype_size(d->dtype),
                              "off-diagonal values");
    if (s == SPIRA_OK) s = spira__cuda_malloc(ctx, (void **)&h->st, sizeof *h->st, "kernel halo");
    if (s == SPIRA_OK) s = CUDA_CHECK(ctx, cudaMemset(h->st, 0, sizeof *h->st));
    if (s == SPIRA_OK && d->local > 0)
        s = storers(ctx, spira__cg_update_blocks(d->local), d->nsrow, d->srow,
                    &h->update_storers, &h->update_shift);
    h->prime_storers = d->nsrow ? spira__blocks(d->nsrow, THREADS) : 0;
    if (s != SPIRA_OK) {
        spira__nccl_kernel_halo_destroy(ctx, h);
        return s;
    }
    *out = h;
    return SPIRA_OK;
}
