/*
 * nccl_stub.c - dist_gpu.h in a library built without NCCL: every entry point fails with
 * SPIRA_ERR_UNSUPPORTED naming --with-nccl. Unreachable in practice (the distributed calls
 * refuse a CUDA context first, spira__dist_check_context), kept so the layer's C files
 * carry no #ifdef HAVE_NCCL.
 */
#include "dist_gpu.h"

static spira_status no_nccl(spira_context ctx)
{
    return spira__error(ctx, SPIRA_ERR_UNSUPPORTED, "distributed matrices on GPUs need NCCL: "
                        "this library was built without it (configure --with-mpi "
                        "--with-nccl)");
}

int spira__nccl_built(void)
{
    return 0;
}

size_t spira__nccl_id_bytes(void)
{
    return 1;
}

spira_status spira__nccl_unique_id(spira_context ctx, void *id)
{
    (void)id;
    return no_nccl(ctx);
}

spira_status spira__nccl_create(spira_context ctx, const void *id, int nranks, int rank,
                                spira__nccl **out)
{
    (void)id, (void)nranks, (void)rank;
    *out = NULL;
    return no_nccl(ctx);
}

void spira__nccl_destroy(spira_context ctx, spira__nccl *c)
{
    (void)ctx, (void)c;
}

spira_status spira__nccl_sum_device(spira_context ctx, spira__nccl *c, int k, double *d)
{
    (void)c, (void)k, (void)d;
    return no_nccl(ctx);
}

spira_status spira__nccl_sum_host(spira_context ctx, spira__nccl *c, int k, double *v)
{
    (void)c, (void)k, (void)v;
    return no_nccl(ctx);
}

int spira__nccl_in_kernel(const spira__nccl *c)
{
    (void)c;
    return 0;
}

spira_status spira__nccl_cg_sums(spira_context ctx, spira__nccl *c, spira__nccl_kernel_halo *h,
                                 int32_t n, spira_dtype t, const void *r, void *w, const void *z,
                                 int with_dinv, const spira__row_add *add, spira__cg_dev *g)
{
    (void)c, (void)h, (void)n, (void)t, (void)r, (void)w, (void)z, (void)with_dinv, (void)add;
    (void)g;
    return no_nccl(ctx);
}

spira_status spira__nccl_kernel_halo_create(spira_context ctx, spira__nccl *c,
                                            const spira__kernel_halo_desc *d,
                                            spira__nccl_kernel_halo **out)
{
    (void)c, (void)d;
    *out = NULL;
    return no_nccl(ctx);
}

void spira__nccl_kernel_halo_destroy(spira_context ctx, spira__nccl_kernel_halo *h)
{
    (void)ctx, (void)h;
}

spira_status spira__nccl_kernel_halo_product(spira_context ctx, spira__nccl_kernel_halo *h,
                                             double alpha, const void *ghost, void *t)
{
    (void)h, (void)alpha, (void)ghost, (void)t;
    return no_nccl(ctx);
}

spira_status spira__nccl_kernel_halo_reset(spira_context ctx, spira__nccl_kernel_halo *h)
{
    (void)h;
    return no_nccl(ctx);
}

spira_status spira__nccl_kernel_halo_prime(spira_context ctx, spira__nccl_kernel_halo *h,
                                           const void *z)
{
    (void)h, (void)z;
    return no_nccl(ctx);
}

spira_status spira__nccl_cg_update(spira_context ctx, spira__nccl_kernel_halo *h, int32_t n,
                                   spira_dtype t, const spira__cg_dev *g, void *z,
                                   const void *w, void *p, void *s, void *r, const void *dinv)
{
    (void)h, (void)n, (void)t, (void)g, (void)z, (void)w, (void)p, (void)s, (void)r, (void)dinv;
    return no_nccl(ctx);
}

spira_status spira__nccl_halo_create(spira_context ctx, spira__nccl *c, spira_dtype t, int nrecv,
                                     const int *recv_rank, const int32_t *recv_off, int nsend,
                                     const int *send_rank, const int32_t *send_off,
                                     const int32_t *send_idx, spira__nccl_halo **out)
{
    (void)c, (void)t, (void)nrecv, (void)recv_rank, (void)recv_off, (void)nsend;
    (void)send_rank, (void)send_off, (void)send_idx;
    *out = NULL;
    return no_nccl(ctx);
}

void spira__nccl_halo_destroy(spira_context ctx, spira__nccl_halo *h)
{
    (void)ctx, (void)h;
}

spira_status spira__nccl_halo_start(spira_context ctx, spira__nccl_halo *h, const void *x,
                                    void *ghost)
{
    (void)h, (void)x, (void)ghost;
    return no_nccl(ctx);
}

spira_status spira__nccl_halo_finish(spira_context ctx, spira__nccl_halo *h)
{
    (void)h;
    return no_nccl(ctx);
}

spira_status spira__nccl_halo_side_begin(spira_context ctx, spira__nccl_halo *h, int *on)
{
    (void)h;
    *on = 0;
    return no_nccl(ctx);
}

spira_status spira__nccl_halo_side_end(spira_context ctx, spira__nccl_halo *h)
{
    (void)h;
    return no_nccl(ctx);
}

spira_status spira__nccl_scatter_add(spira_context ctx, int32_t n, spira_dtype type,
                                     const int32_t *idx, const void *t, void *y)
{
    (void)n, (void)type, (void)idx, (void)t, (void)y;
    return no_nccl(ctx);
}
