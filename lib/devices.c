/*
 * devices.c - a computation split over the devices of one machine (see spira_impl.h): the
 * parts' contexts, the events that order their streams, and copies between their memory.
 * On the CPU backend every part is the context itself: events are nothing, copies memcpy.
 */
#include "spira_impl.h"
#include "cuda/gateway.h"

#include <string.h>

static int on_gpu(spira_context ctx)
{
    return ctx->backend == SPIRA_BACKEND_CUDA;
}

spira_status spira__parts_check(spira_context ctx, int n, const char *what)
{
    if (n < 1 || n > SPIRA__PARTS_MAX)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "%s: %d devices (1 to %d)", what, n,
                            SPIRA__PARTS_MAX);
    if (!on_gpu(ctx)) return SPIRA_OK;
    const int have = spira__cuda_device_count();
    if (n > have)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "%s: %d devices asked, %d present", what,
                            n, have);
    return SPIRA_OK;
}

spira_status spira__context_part(spira_context ctx, int d, spira_context *part)
{
    *part = ctx;
    if (d == 0 || !on_gpu(ctx)) return SPIRA_OK;
    if (d < 0 || d >= SPIRA__PARTS_MAX)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "device part %d (0 to %d)", d,
                            SPIRA__PARTS_MAX - 1);
    if (!ctx->part[d]) {
        const int have = spira__cuda_device_count();
        if (d >= have)
            return spira__error(ctx, SPIRA_ERR_INVALID_ARG, "device part %d: %d devices present",
                                d, have);
        spira_context_opts o = {.backend = SPIRA_BACKEND_CUDA,
                                .device = (ctx->device + d) % have,
                                .deterministic = ctx->deterministic,
                                .max_bytes = ctx->max_bytes};
        spira_context p = NULL;
        spira_status s = spira_context_create(&p, &o);
        for (int e = 0; e < SPIRA__PARTS_MAX && s == SPIRA_OK; e++)
            if (e == 0 || ctx->part[e]) s = spira__cuda_peer_enable(p, e ? ctx->part[e] : ctx);
        if (s == SPIRA_OK) {
            ctx->part[d] = p;
        } else {
            spira__error(ctx, s, "device %d (part %d): %s", o.device, d,
                         p ? spira_last_error(p) : "no context");
            spira_context_destroy(p);
        }
        spira_status a = spira__cuda_activate(ctx);
        if (s != SPIRA_OK) return s;
        SPIRA__TRY(a);
    }
    *part = ctx->part[d];
    return SPIRA_OK;
}

spira_status spira__context_activate(spira_context ctx)
{
    return on_gpu(ctx) ? spira__cuda_activate(ctx) : SPIRA_OK;
}

spira_status spira__part_error(spira_context ctx, spira_context part, spira_status s)
{
    if (s == SPIRA_OK || part == ctx) return s;
    return spira__error(ctx, s, "device %d: %s", part->device, part->err);
}

spira_status spira__event_create(spira_context ctx, spira__event **e)
{
    *e = NULL;
    if (!on_gpu(ctx)) return SPIRA_OK;
    SPIRA__TRY(spira__cuda_activate(ctx));
    return spira__cuda_event_create(ctx, (void **)e);
}

void spira__event_destroy(spira_context ctx, spira__event *e)
{
    (void)ctx;
    spira__cuda_event_destroy(e);
}

spira_status spira__event_record(spira_context ctx, int side, spira__event *e)
{
    return on_gpu(ctx) && e ? spira__cuda_event_record(ctx, side, e) : SPIRA_OK;
}

spira_status spira__event_wait(spira_context ctx, int side, spira__event *e)
{
    return on_gpu(ctx) && e ? spira__cuda_event_wait(ctx, side, e) : SPIRA_OK;
}

spira_status spira__mem_copy_peer(spira_context ctx, int side, void *dst, spira_context dst_ctx,
                                  const void *src, spira_context src_ctx, size_t bytes)
{
    if (bytes == 0) return SPIRA_OK;
    if (!on_gpu(ctx)) {
        memcpy(dst, src, bytes);
        return SPIRA_OK;
    }
    return spira__cuda_copy_peer(ctx, side, dst, dst_ctx->device, src, src_ctx->device, bytes);
}
