/*
 * error.c - status names, the per-context error message, the version string.
 */
#include "spira_impl.h"

#include <stdio.h>
#include <string.h>

const char *spira_version(void)
{
    return SPIRA_VERSION_STRING;
}

const char *spira_status_name(spira_status s)
{
    switch (s) {
    case SPIRA_OK: return "SPIRA_OK";
    case SPIRA_ERR_INVALID_ARG: return "SPIRA_ERR_INVALID_ARG";
    case SPIRA_ERR_IO: return "SPIRA_ERR_IO";
    case SPIRA_ERR_PARSE: return "SPIRA_ERR_PARSE";
    case SPIRA_ERR_NOMEM: return "SPIRA_ERR_NOMEM";
    case SPIRA_ERR_DEVICE: return "SPIRA_ERR_DEVICE";
    case SPIRA_ERR_UNSUPPORTED: return "SPIRA_ERR_UNSUPPORTED";
    case SPIRA_ERR_BREAKDOWN: return "SPIRA_ERR_BREAKDOWN";
    case SPIRA_ERR_NOT_CONVERGED: return "SPIRA_ERR_NOT_CONVERGED";
    case SPIRA_ERR_NONFINITE: return "SPIRA_ERR_NONFINITE";
    }
    return "SPIRA_ERR_UNKNOWN";
}

size_t spira_dtype_size(spira_dtype t)
{
    return t == SPIRA_R64 ? sizeof(double) : sizeof(float);
}

spira_status spira__verror(spira_context ctx, spira_status s, const char *fmt, va_list ap)
{
    if (ctx) vsnprintf(ctx->err, sizeof ctx->err, fmt, ap);
    return s;
}

spira_status spira__error(spira_context ctx, spira_status s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    spira__verror(ctx, s, fmt, ap);
    va_end(ap);
    return s;
}

spira_status spira__nomem(spira_context ctx, const char *what, size_t bytes)
{
    return spira__error(ctx, SPIRA_ERR_NOMEM, "out of host memory allocating %s (%zu bytes)",
                        what, bytes);
}

const char *spira_last_error(spira_context ctx)
{
    return ctx ? ctx->err : "no context";
}
