/*
 * dist_gpu.h - the one door from the distributed layer into its GPU transport
 * (dist/nccl.cu, --with-nccl): a layout's NCCL communicator, the sums over its ranks, and
 * the halo exchange between GPUs. C on both sides, no MPI or NCCL type in sight, so the
 * .cu file needs neither mpi.h nor dist.h, and the C files never see nccl.h. Built
 * without NCCL, dist/nccl_stub.c supplies the same functions failing with
 * SPIRA_ERR_UNSUPPORTED, naming --with-nccl (spira__dist_check_context refuses a CUDA
 * context before any of them is reached).
 *
 * Everything here runs on the context's device and, unless said otherwise, is enqueued on
 * the context's stream without a host wait: NCCL's operations are asynchronous, and a
 * rank blocks only where a result comes back to the host.
 */
#ifndef SPIRA_DIST_GPU_H
#define SPIRA_DIST_GPU_H

#include "spira_impl.h"
#include "solver_kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

/* 1 in a library built --with-nccl, 0 in one built without (the stub). */
int spira__nccl_built(void);

/* A layout's NCCL communicator: one per layout, over the same ranks as its MPI one. */
typedef struct spira__nccl spira__nccl;

/* Bytes of an NCCL unique id (what rank 0 makes and MPI_Bcast carries to the others). */
size_t spira__nccl_id_bytes(void);
/* Rank 0: a fresh unique id into id (spira__nccl_id_bytes bytes). */
spira_status spira__nccl_unique_id(spira_context ctx, void *id);
/* The communicator of rank `rank` of nranks from the id every rank got (collective over
 * those ranks: ncclCommInitRank blocks until all have joined), with its side stream, the
 * device buffer of the host sums and, where every rank can make one, its device
 * communicator (spira__nccl_in_kernel), on ctx's device. */
spira_status spira__nccl_create(spira_context ctx, const void *id, int nranks, int rank,
                                spira__nccl **out);
/* Waits for its work, then frees it; NULL is fine. Every rank destroys its own in the same
 * order as the others (NCCL may synchronize the ranks at teardown). */
void spira__nccl_destroy(spira_context ctx, spira__nccl *c);

/* d[0..k) (device doubles) summed over the ranks in place: one ncclAllReduce on the
 * context's stream (or a kernel, spira__nccl_in_kernel), not waited for (whoever reads d
 * waits). */
spira_status spira__nccl_sum_device(spira_context ctx, spira__nccl *c, int k, double *d);
/* v[0..k) (host doubles) summed over the ranks in place: up, one ncclAllReduce, down, one
 * wait. */
spira_status spira__nccl_sum_host(spira_context ctx, spira__nccl *c, int k, double *v);

/* 1 when the ranks sum inside kernels (NCCL's device API, made with the communicator on
 * every rank or on none): spira__nccl_sum_device is then a kernel of the context's (for
 * up to 16 values) rather than an ncclAllReduce, and CG's graph may take nccl_cg_sums. */
int spira__nccl_in_kernel(const spira__nccl *c);

/* ---- CG's graph across the GPUs (dist/nccl_cg.cu) ---- */

/* The halo written by the kernels: where the ranks sum inside kernels, CG's graph
 * exchanges no halo between its kernels either. Each rank's update kernel stores the new
 * values of the rows other ranks read straight into their ghosts (a window of NCCL's
 * symmetric memory on every rank) and then raises a flag in each reader's window; each
 * rank's sums kernel, where it reaches a row with remote columns, waits for its writers'
 * flags and adds that row's off-diagonal product from its ghosts. The diagonal block's
 * multiply runs alone on the context's stream: no second stream, no NCCL kernel beside it. */
typedef struct spira__nccl_kernel_halo spira__nccl_kernel_halo;

/* What it is made from (host arrays, copied): */
typedef struct {
    spira_dtype dtype;
    int32_t local;            /* the rank's rows */
    int32_t ghosts_max;       /* the most ghosts of any rank: every window holds as many */
    /* the rows others read: nsrow distinct local rows srow, ascending, and as spira__row_add's
     * bitmap (sbits, sbase: (local + 31) / 32 words each); row j's values go to rank
     * dpeer[k], ghost doff[k] there, for k in [dptr[j], dptr[j + 1]) */
    int32_t nsrow;
    const int32_t *srow, *sbase, *dptr, *dpeer, *doff;
    const uint32_t *sbits;
    int nsend, nrecv;         /* the ranks written to and read from */
    const int *send_rank, *recv_rank;
    /* the off-diagonal block (compressed rows, columns its ghosts: CSR) and its rows as a
     * bitmap already on the device (spira_dist_matrix's dbits, dbase: borrowed) */
    int32_t orows;
    const int32_t *orp, *ocol;
    const void *oval;
    const uint32_t *dbits;
    const int32_t *dbase;
    int32_t olo, ohi;         /* its first row and one past its last */
} spira__kernel_halo_desc;

/* Collective over c's ranks (NCCL's window registration): every rank calls it, each with
 * its own description, and every rank destroys its own in the same order. */
spira_status spira__nccl_kernel_halo_create(spira_context ctx, spira__nccl *c,
                                            const spira__kernel_halo_desc *d,
                                            spira__nccl_kernel_halo **out);
void spira__nccl_kernel_halo_destroy(spira_context ctx, spira__nccl_kernel_halo *h);
/* t[j] <- alpha (the off-diagonal block's row j . ghost) for every compressed row j, ghost
 * a rank's ghost values (device): the expression the graph's sums add, so the per-iteration
 * path's products keep its bits. */
spira_status spira__nccl_kernel_halo_product(spira_context ctx, spira__nccl_kernel_halo *h,
                                             double alpha, const void *ghost, void *t);
/* This rank's counts of rounds stored and read, and the flags in its window, back to zero
 * (a host wait first). Every rank's kernels must be done, and no rank stores anew before
 * every rank has reset: the caller orders the ranks around it. */
spira_status spira__nccl_kernel_halo_reset(spira_context ctx, spira__nccl_kernel_halo *h);
/* z's rows others read, stored into their ghosts, then their flags raised. */
spira_status spira__nccl_kernel_halo_prime(spira_context ctx, spira__nccl_kernel_halo *h,
                                           const void *z);
/* CG's graph update (spira__cuda_cg_graph_update's arguments) storing as prime does. */
spira_status spira__nccl_cg_update(spira_context ctx, spira__nccl_kernel_halo *h, int32_t n,
                                   spira_dtype t, const spira__cg_dev *g, void *z,
                                   const void *w, void *p, void *s, void *r, const void *dinv);
/* CG's graph sums (solver_kernels.h's spira__cuda_cg_graph_sums) with the sum over the
 * ranks and the step made in the same kernel: one launch where the allreduce path has
 * three. The off-diagonal rows: add's deferred add, or with h the ghosts' product (add
 * unused). SPIRA_ERR_UNSUPPORTED unless spira__nccl_in_kernel. */
spira_status spira__nccl_cg_sums(spira_context ctx, spira__nccl *c, spira__nccl_kernel_halo *h,
                                 int32_t n, spira_dtype t, const void *r, void *w, const void *z,
                                 int with_dinv, const spira__row_add *add, spira__cg_dev *g);

/* The halo exchange of a matrix between GPUs (halo.c's pattern, its arrays borrowed: they
 * must outlive this): receive ghosts [recv_off[i], recv_off[i + 1]) from recv_rank[i];
 * send x[send_idx[k]] for k in [send_off[i], send_off[i + 1]) to send_rank[i]. send_idx is
 * copied to the device. */
typedef struct spira__nccl_halo spira__nccl_halo;
spira_status spira__nccl_halo_create(spira_context ctx, spira__nccl *c, spira_dtype t, int nrecv,
                                     const int *recv_rank, const int32_t *recv_off, int nsend,
                                     const int *send_rank, const int32_t *send_off,
                                     const int32_t *send_idx, spira__nccl_halo **out);
void spira__nccl_halo_destroy(spira_context ctx, spira__nccl_halo *h); /* NULL is fine */
/* Post the exchange of x (device, local values) into ghost (device): the pack kernel on the
 * context's stream, then every receive and send in one NCCL group on the side stream,
 * which waits for the pack; the group is enqueued at side_begin or finish, after what the
 * caller enqueues in between (the diagonal block's multiply), which overlaps the transfer.
 * finish makes the context's stream wait for the ghosts (an event, no host wait): what it
 * runs next may read them. x and ghost must stay valid until side_begin or finish. */
spira_status spira__nccl_halo_start(spira_context ctx, spira__nccl_halo *h, const void *x,
                                    void *ghost);
spira_status spira__nccl_halo_finish(spira_context ctx, spira__nccl_halo *h);
/* Between start and finish: what the caller enqueues on the context between side_begin
 * and side_end runs on the exchange's stream, behind the ghosts' arrival, so it overlaps
 * what the context's stream runs meanwhile (the off-diagonal block's multiply beside the
 * diagonal one); finish then waits for it too. *on is 0 where no exchange is posted (no
 * neighbor): nothing is swapped, and the caller runs that work after finish. side_end
 * swaps back whatever happened in between, and must follow a begin that set *on. */
spira_status spira__nccl_halo_side_begin(spira_context ctx, spira__nccl_halo *h, int *on);
spira_status spira__nccl_halo_side_end(spira_context ctx, spira__nccl_halo *h);

/* y[idx[i]] += t[i] for i < n (idx distinct: no two threads add into one entry), all in
 * device memory, values of dtype t, on the context's stream. */
spira_status spira__nccl_scatter_add(spira_context ctx, int32_t n, spira_dtype type,
                                     const int32_t *idx, const void *t, void *y);

#ifdef __cplusplus
}
#endif
#endif
