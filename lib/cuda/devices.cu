/*
 * devices.cu - the CUDA half of lib/devices.c: the current device, peer access between two
 * devices, events that order one device's stream after another's, and copies between
 * devices' memory. Nothing here waits on the host.
 */
#include "cuda/gateway.h"
#include "cuda/check.cuh"

extern "C" spira_status spira__cuda_activate(spira_context ctx)
{
    SPIRA__CUDA(ctx, cudaSetDevice(ctx->device));
    return SPIRA_OK;
}

/* a's device may reach b's memory: enabled once, "already enabled" is not a failure. */
static spira_status peer_one(spira_context a, spira_context b)
{
    int can = 0;
    SPIRA__CUDA(a, cudaDeviceCanAccessPeer(&can, a->device, b->device));
    if (!can) return SPIRA_OK; /* copies are staged by the driver */
    SPIRA__CUDA(a, cudaSetDevice(a->device));
    cudaError_t e = cudaDeviceEnablePeerAccess(b->device, 0);
    if (e == cudaErrorPeerAccessAlreadyEnabled) {
        cudaGetLastError();
        return SPIRA_OK;
    }
    return spira__cuda_status(a, e, "cudaDeviceEnablePeerAccess", __FILE__, __LINE__);
}

extern "C" spira_status spira__cuda_peer_enable(spira_context a, spira_context b)
{
    if (a->device == b->device) return SPIRA_OK;
    SPIRA__TRY(peer_one(a, b));
    spira_status s = peer_one(b, a);
    if (s != SPIRA_OK) spira__error(a, s, "%s", b->err);
    return s;
}

extern "C" spira_status spira__cuda_event_create(spira_context ctx, void **e)
{
    cudaEvent_t ev = NULL;
    *e = NULL;
    SPIRA__CUDA(ctx, cudaEventCreateWithFlags(&ev, cudaEventDisableTiming));
    *e = (void *)ev;
    return SPIRA_OK;
}

extern "C" void spira__cuda_event_destroy(void *e)
{
    if (e) cudaEventDestroy((cudaEvent_t)e);
}

static spira_status stream_of(spira_context ctx, int side, cudaStream_t *st)
{
    void *s = spira__cuda_stream(ctx);
    if (side) SPIRA__TRY(spira__cuda_side(ctx, &s));
    *st = (cudaStream_t)s;
    return SPIRA_OK;
}

extern "C" spira_status spira__cuda_event_record(spira_context ctx, int side, void *e)
{
    cudaStream_t st;
    SPIRA__TRY(stream_of(ctx, side, &st));
    SPIRA__CUDA(ctx, cudaEventRecord((cudaEvent_t)e, st));
    return SPIRA_OK;
}

extern "C" spira_status spira__cuda_event_wait(spira_context ctx, int side, void *e)
{
    cudaStream_t st;
    SPIRA__TRY(stream_of(ctx, side, &st));
    SPIRA__CUDA(ctx, cudaStreamWaitEvent(st, (cudaEvent_t)e, 0));
    return SPIRA_OK;
}

extern "C" spira_status spira__cuda_copy_peer(spira_context ctx, int side, void *dst,
                                              int dst_device, const void *src, int src_device,
                                              size_t bytes)
{
    cudaStream_t st;
    SPIRA__TRY(stream_of(ctx, side, &st));
    if (dst_device == src_device)
        SPIRA__CUDA(ctx, cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, st));
    else
        SPIRA__CUDA(ctx, cudaMemcpyPeerAsync(dst, dst_device, src, src_device, bytes, st));
    return SPIRA_OK;
}
