/*
 * padding.c - row pitch, the max_fill option and the refusals shared by ELL, DIA and HYB.
 */
#include "padding.h"

int64_t spira__pitch(int32_t nrows)
{
    return ((int64_t)nrows + SPIRA__PITCH_ALIGN - 1) / SPIRA__PITCH_ALIGN * SPIRA__PITCH_ALIGN;
}

spira_status spira__opt_max_fill(spira_context ctx, const char *opts, const char *fmt,
                                 long *max_fill)
{
    SPIRA__TRY(spira__opt_long(ctx, opts, "max_fill", SPIRA__MAX_FILL_DEFAULT, max_fill));
    if (*max_fill < 1)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG,
                            "%s: option max_fill must be at least 1 (stored slots per nonzero), "
                            "got %ld",
                            fmt, *max_fill);
    return SPIRA_OK;
}

spira_status spira__check_slots(spira_context ctx, const char *fmt, const char *what,
                                int64_t width, int64_t pitch)
{
    if (width > 0 && pitch > INT32_MAX / width)
        return spira__error(ctx, SPIRA_ERR_UNSUPPORTED,
                            "%s refuses: %lld %s x %lld padded rows = %lld slots exceed the "
                            "32-bit index range (%d)",
                            fmt, (long long)width, what, (long long)pitch,
                            (long long)(width * pitch), INT32_MAX);
    return SPIRA_OK;
}

spira_status spira__check_fill(spira_context ctx, const char *fmt, const char *what,
                               int64_t width, int32_t nrows, int32_t nnz, long max_fill)
{
    if (nnz == 0) return SPIRA_OK;
    /* width <= ncols < 2^31 and nrows < 2^31, so the product fits int64; max_fill is
     * clamped so that max_fill * nnz does too (beyond 2^31 it means "no limit"). */
    int64_t slots = width * (int64_t)nrows;
    int64_t limit = (max_fill > INT32_MAX ? (int64_t)INT32_MAX : (int64_t)max_fill) * nnz;
    if (slots > limit)
        return spira__error(ctx, SPIRA_ERR_UNSUPPORTED,
                            "%s refuses: %lld %s x %d rows = %lld stored slots, %.1fx the %d "
                            "nonzeros (limit max_fill=%ld)",
                            fmt, (long long)width, what, nrows, (long long)slots,
                            (double)slots / nnz, nnz, max_fill);
    return SPIRA_OK;
}
