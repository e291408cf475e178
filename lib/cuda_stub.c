/*
 * cuda_stub.c - the CUDA gateway when the library is built without CUDA: every entry
 * point says so with SPIRA_ERR_UNSUPPORTED, so no algorithm needs an #ifdef.
 */
#include "spira_impl.h"
#include "cuda/gateway.h"

spira_status spira__no_cuda(spira_context ctx)
{
    return spira__error(ctx, SPIRA_ERR_UNSUPPORTED, "Spira was built without CUDA");
}

#define NO_CUDA(ctx) spira__no_cuda(ctx)

spira_status spira__cuda_init(spira_context ctx)
{
    return spira__error(ctx, SPIRA_ERR_DEVICE, "no CUDA device: Spira was built without CUDA");
}
void spira__cuda_fini(spira_context ctx) { (void)ctx; }
int spira__cuda_device_count(void) { return 0; }
spira_status spira__cuda_activate(spira_context ctx) { return NO_CUDA(ctx); }
spira_status spira__cuda_peer_enable(spira_context a, spira_context b) { return NO_CUDA(a); }
spira_status spira__cuda_event_create(spira_context ctx, void **e)
{
    *e = NULL;
    return NO_CUDA(ctx);
}
void spira__cuda_event_destroy(void *e) { (void)e; }
spira_status spira__cuda_event_record(spira_context ctx, int side, void *e) { return NO_CUDA(ctx); }
spira_status spira__cuda_event_wait(spira_context ctx, int side, void *e) { return NO_CUDA(ctx); }
spira_status spira__cuda_copy_peer(spira_context ctx, int side, void *d, int dd, const void *s,
                                   int sd, size_t b) { return NO_CUDA(ctx); }
spira_status spira__cuda_side(spira_context ctx, void **stream)
{
    *stream = NULL;
    return NO_CUDA(ctx);
}
spira_status spira__cuda_fork(spira_context ctx, void **side)
{
    *side = NULL;
    return NO_CUDA(ctx);
}
spira_status spira__cuda_join(spira_context ctx) { return NO_CUDA(ctx); }
spira_status spira__cuda_stream_swap(spira_context ctx, void *stream, void **old)
{
    *old = stream;
    return NO_CUDA(ctx);
}
spira_status spira__cuda_malloc(spira_context ctx, void **dp, size_t b, const char *w)
{
    *dp = NULL;
    return NO_CUDA(ctx);
}
void spira__cuda_free(spira_context ctx, void *dp) { (void)ctx; (void)dp; }
spira_status spira__cuda_scratch_malloc(spira_context ctx, void **dp, size_t b, const char *w)
{
    *dp = NULL;
    return NO_CUDA(ctx);
}
void spira__cuda_scratch_free(spira_context ctx, void *dp) { (void)ctx; (void)dp; }
spira_status spira__cuda_upload(spira_context ctx, void *d, const void *s, size_t b) { return NO_CUDA(ctx); }
spira_status spira__cuda_clone(spira_context ctx, void **d, const void *s, size_t b, const char *w)
{
    *d = NULL;
    return NO_CUDA(ctx);
}
spira_status spira__cuda_download(spira_context ctx, void *d, const void *s, size_t b) { return NO_CUDA(ctx); }
spira_status spira__cuda_csr_upload(spira_context ctx, const spira__csr *A, spira__csr_dev **d)
{
    *d = NULL;
    return NO_CUDA(ctx);
}
void spira__cuda_csr_free(spira_context ctx, spira__csr_dev *d) { (void)ctx; (void)d; }
spira_status spira__cuda_copy(spira_context ctx, void *d, const void *s, size_t b) { return NO_CUDA(ctx); }
spira_status spira__cuda_capture_begin(spira_context ctx) { return NO_CUDA(ctx); }
spira_status spira__cuda_capture_end(spira_context ctx, spira_status captured, void **exec)
{
    *exec = NULL;
    return NO_CUDA(ctx);
}
spira_status spira__cuda_graph_launch(spira_context ctx, void *exec, int times) { return NO_CUDA(ctx); }
void spira__cuda_graph_destroy(spira_context ctx, void *exec) { (void)ctx, (void)exec; }
spira_status spira__cuda_gf2_xor_masked(spira_context ctx, int32_t n, const uint64_t *x,
                                        uint64_t mask, uint64_t *y) { return NO_CUDA(ctx); }
spira_status spira__cuda_gf2_dot_into(spira_context ctx, int32_t n, const uint64_t *x,
                                      const uint64_t *y, uint64_t *d) { return NO_CUDA(ctx); }
spira_status spira__cuda_gf2_or_into(spira_context ctx, int32_t n, const uint64_t *x,
                                     uint64_t *d) { return NO_CUDA(ctx); }
spira_status spira__cuda_gf2_inner_into(spira_context ctx, int32_t n, int words, const uint64_t *x,
                                        const uint64_t *z, uint64_t *d) { return NO_CUDA(ctx); }
spira_status spira__cuda_gf2_mul_small(spira_context ctx, int32_t n, int wi, int wo,
                                       const uint64_t *x, const uint64_t *S, uint64_t *y) { return NO_CUDA(ctx); }
spira_status spira__cuda_zero(spira_context ctx, void *d, size_t b) { return NO_CUDA(ctx); }
spira_status spira__cuda_poison(spira_context ctx, void *d, size_t b) { return NO_CUDA(ctx); }
spira_status spira__cuda_synchronize(spira_context ctx) { return NO_CUDA(ctx); }
spira_status spira__cuda_fill(spira_context ctx, int32_t n, spira_dtype t, void *dx, double v) { return NO_CUDA(ctx); }
spira_status spira__cuda_dot(spira_context ctx, int32_t n, spira_dtype t, const void *dx,
                             const void *dy, double *r) { return NO_CUDA(ctx); }
spira_status spira__cuda_nrm2(spira_context ctx, int32_t n, spira_dtype t, const void *dx,
                              double *r) { return NO_CUDA(ctx); }
spira_status spira__cuda_asum(spira_context ctx, int32_t n, spira_dtype t, const void *dx,
                              double *r) { return NO_CUDA(ctx); }
spira_status spira__cuda_axpby(spira_context ctx, int32_t n, spira_dtype t, double a,
                               const void *dx, double b, void *dy) { return NO_CUDA(ctx); }
spira_status spira__cuda_scal(spira_context ctx, int32_t n, spira_dtype t, double a, void *dx) { return NO_CUDA(ctx); }
spira_status spira__cuda_pmul(spira_context ctx, int32_t n, spira_dtype t, const void *dx,
                              const void *dy, void *dw) { return NO_CUDA(ctx); }
spira_status spira__cuda_inverse_diagonal(spira_context ctx, const spira__csr_dev *dA, void *dd,
                                          int32_t *bad_row) { return NO_CUDA(ctx); }
spira_status spira__cuda_gather(spira_context ctx, int32_t n, spira_dtype t, const int32_t *i,
                                const void *dx, void *dy) { return NO_CUDA(ctx); }
spira_status spira__cuda_dots(spira_context ctx, int k, int32_t n, spira_dtype t,
                              const void *const *dx, const void *const *dy, double *out) { return NO_CUDA(ctx); }
spira_status spira__cuda_axpby_dots(spira_context ctx, int k, int32_t n, spira_dtype t, double a,
                                    const void *dx, double b, void *dy, const void *const *dz,
                                    double *out) { return NO_CUDA(ctx); }
void *spira__cuda_scratch(spira_context ctx) { return NULL; }
spira_status spira__cuda_timer_create(spira_context ctx, spira_cuda_timer **t)
{
    *t = NULL;
    return NO_CUDA(ctx);
}
spira_status spira__cuda_timer_start(spira_context ctx, spira_cuda_timer *t) { return NO_CUDA(ctx); }
spira_status spira__cuda_timer_stop(spira_context ctx, spira_cuda_timer *t, double *ms) { return NO_CUDA(ctx); }
void spira__cuda_timer_destroy(spira_cuda_timer *t) { (void)t; }
void *spira__cuda_stream(spira_context ctx) { return NULL; }
void *spira__cuda_cublas(spira_context ctx) { return NULL; }
spira_status spira__cuda_cusparse(spira_context ctx, void **h)
{
    *h = NULL;
    return NO_CUDA(ctx);
}
