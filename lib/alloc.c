/*
 * alloc.c - the library's one host allocator, with a failure-injection hook for tests.
 *
 * spira__alloc_fail_at(n) makes the n-th allocation from then on fail (host through
 * these functions, device through spira__alloc_should_fail in lib/cuda). Tests walk
 * n = 1, 2, ... and check that every run returns SPIRA_ERR_NOMEM or succeeds, leaking
 * nothing: spira__alloc_live() counts the blocks not yet freed. The failure counter is
 * process-global and not thread-safe: it is a test tool.
 */
#include "spira_impl.h"

#include <stdlib.h>

static long fail_at;   /* 0: disarmed */
static long made;      /* allocations since arming */
static _Atomic long live; /* blocks allocated and not yet freed, host and device */
static size_t largest;    /* test hook: a larger request fails; 0: no limit */

void spira__alloc_limit(size_t bytes)
{
    largest = bytes;
}

void spira__alloc_fail_at(long n)
{
    fail_at = n;
    made = 0;
}

long spira__alloc_count(void)
{
    return made;
}

void spira__alloc_track(long delta)
{
    live += delta;
}

long spira__alloc_live(void)
{
    return live;
}

int spira__alloc_should_fail(void)
{
    if (fail_at <= 0) return 0;
    return ++made == fail_at;
}

void *spira__malloc(size_t bytes)
{
    if (spira__alloc_should_fail() || (largest && bytes > largest)) return NULL;
    void *p = malloc(bytes ? bytes : 1);
    if (p) live++;
    return p;
}

void *spira__calloc(size_t count, size_t size)
{
    if (spira__alloc_should_fail() || (largest && size && count > largest / size)) return NULL;
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (p) live++;
    return p;
}

void *spira__realloc(void *p, size_t bytes)
{
    if (spira__alloc_should_fail() || (largest && bytes > largest)) return NULL;
    void *q = realloc(p, bytes ? bytes : 1);
    if (q && !p) live++;
    return q;
}

void spira__free(void *p)
{
    if (p) live--;
    free(p);
}

spira_status spira__alloc(spira_context ctx, void **p, size_t count, size_t size, const char *what)
{
    *p = NULL;
    if (size && count > SIZE_MAX / size)
        return spira__error(ctx, SPIRA_ERR_NOMEM, "allocating %s: %zu x %zu bytes overflows",
                            what, count, size);
    *p = spira__malloc(count * size);
    if (!*p) return spira__nomem(ctx, what, count * size);
    return SPIRA_OK;
}
