/*
 * alloc.c - the library's one host allocator, with a failure-injection hook for tests.
 *
 * spira__alloc_fail_at(n) makes the n-th allocation from then on fail (host through
 * these functions, device through spira__alloc_should_fail in lib/cuda). Tests walk
 * n = 1, 2, ... and check that every run returns SPIRA_ERR_NOMEM or succeeds, leaking
 * nothing: spira__alloc_live() counts the blocks not yet freed. The failure counter is
 * process-global and not thread-safe: it is a test tool.
 *
 * The memory budget lives here too: a context's byte limit on any one host or device
 * allocation, checked before the allocation is made (spira__budget_check).
 */
#include "spira_impl.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

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

/* Blocks from HUGE_BYTES up are aligned to 2 MB and advised to be backed by huge pages
 * where the kernel makes them on request (transparent huge pages in "madvise" mode, the
 * default of Debian and Ubuntu): their first touch, which writes every page of a matrix's
 * arrays, then takes one fault a 2 MB page instead of one a 4 KB page. PageRank's setup on
 * R-MAT 2^20 (the transpose's 190 MB written once) on the H100 machine's 16 cores: 102-125
 * -> 78-95 ms (bench/results/2026-11-26-h100-session13). */
#define HUGE_BYTES ((size_t)8 << 20)
#define HUGE_ALIGN ((size_t)2 << 20)

static void *malloc_large(size_t bytes)
{
#if defined(MADV_HUGEPAGE)
    void *p = NULL;
    if (posix_memalign(&p, HUGE_ALIGN, bytes) != 0) return NULL;
    madvise(p, bytes / HUGE_ALIGN * HUGE_ALIGN, MADV_HUGEPAGE); /* whole pages of the block */
    return p;
#else
    return malloc(bytes);
#endif
}

void *spira__malloc(size_t bytes)
{
    if (spira__alloc_should_fail() || (largest && bytes > largest)) return NULL;
    void *p = bytes >= HUGE_BYTES ? malloc_large(bytes) : malloc(bytes ? bytes : 1);
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

/* ---- the memory budget --------------------------------------------------------------- */

/* Host memory this process may still take: MemAvailable (Linux), else the free pages
 * sysconf reports, lowered to RLIMIT_AS where that is set. SIZE_MAX when nothing says. */
static size_t host_available(void)
{
    unsigned long long avail = 0;
    FILE *f = fopen("/proc/meminfo", "r");
    if (f) {
        char line[128];
        unsigned long long kb;
        while (fgets(line, sizeof line, f))
            if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1) {
                avail = kb * 1024ull;
                break;
            }
        fclose(f);
    }
#if defined(_SC_AVPHYS_PAGES) && defined(_SC_PAGESIZE)
    if (!avail) {
        long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
        if (pages > 0 && page > 0) avail = (unsigned long long)pages * (unsigned long long)page;
    }
#endif
    size_t bytes = avail && avail < SIZE_MAX ? (size_t)avail : SIZE_MAX;
    struct rlimit rl;
    if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < bytes)
        bytes = (size_t)rl.rlim_cur;
    return bytes;
}

/* "123", "64K", "512M", "2G", "1T" (powers of 1024), nothing else; > 0. */
static int parse_bytes(const char *s, size_t *out)
{
    if (!s || *s < '0' || *s > '9') return 0;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno) return 0;
    int shift = 0;
    if (*end) {
        const char *units = "KMGT", *u = strchr(units, *end);
        if (!u || end[1]) return 0;
        shift = 10 * (int)(u - units + 1);
    }
    if (v == 0 || v > (SIZE_MAX >> shift)) return 0;
    *out = (size_t)(v << shift);
    return 1;
}

spira_status spira__budget_init(spira_context ctx, size_t max_bytes)
{
    const char *env = getenv("SPIRA_MAX_BYTES");
    ctx->device_budget = 0;
    if (max_bytes) {
        ctx->host_budget = ctx->device_budget = max_bytes;
        ctx->budget_why = "set by spira_context_opts.max_bytes";
    } else if (env && *env) {
        if (!parse_bytes(env, &ctx->host_budget)) {
            ctx->host_budget = host_available();
            ctx->budget_why = "what was free when the context was made";
            return spira__error(ctx, SPIRA_ERR_INVALID_ARG,
                                "SPIRA_MAX_BYTES=\"%.64s\" is not a byte count: a positive "
                                "integer, optionally followed by K, M, G or T (powers of 1024), "
                                "at most %zu bytes", env, (size_t)SIZE_MAX);
        }
        ctx->device_budget = ctx->host_budget;
        ctx->budget_why = "set by SPIRA_MAX_BYTES";
    } else {
        ctx->host_budget = host_available();
        ctx->budget_why = "what was free when the context was made; SPIRA_MAX_BYTES sets it";
    }
    return SPIRA_OK;
}

static spira_status budget_check(spira_context ctx, size_t limit, const char *where,
                                 size_t count, size_t size, const char *what)
{
    if (!ctx) return SPIRA_OK;
    if (size && count > SIZE_MAX / size)
        return spira__error(ctx, SPIRA_ERR_NOMEM,
                            "%s would need %zu x %zu bytes, more than a size_t holds", what,
                            count, size);
    size_t bytes = count * size;
    if (!limit || bytes <= limit) return SPIRA_OK;
    return spira__error(ctx, SPIRA_ERR_NOMEM,
                        "%s would need %zu bytes (%.1f MiB) of %s memory, above the limit of "
                        "%zu bytes (%.1f MiB: %s)", what, bytes, bytes / 1048576.0, where,
                        limit, limit / 1048576.0, ctx->budget_why);
}

spira_status spira__budget_check(spira_context ctx, size_t count, size_t size, const char *what)
{
    return budget_check(ctx, ctx ? ctx->host_budget : 0, "host", count, size, what);
}

spira_status spira__budget_check_device(spira_context ctx, size_t count, size_t size,
                                        const char *what)
{
    return budget_check(ctx, ctx ? ctx->device_budget : 0, "device", count, size, what);
}

spira_status spira__budget_check_mem(spira_context ctx, size_t count, size_t size,
                                     const char *what)
{
    if (ctx && ctx->backend == SPIRA_BACKEND_CUDA)
        return spira__budget_check_device(ctx, count, size, what);
    return spira__budget_check(ctx, count, size, what);
}

spira_status spira_context_budget(spira_context ctx, size_t *host_bytes, size_t *device_bytes)
{
    if (!ctx) return SPIRA_ERR_INVALID_ARG;
    if (host_bytes) *host_bytes = ctx->host_budget;
    if (device_bytes)
        *device_bytes = ctx->backend == SPIRA_BACKEND_CUDA ? ctx->device_budget : 0;
    return SPIRA_OK;
}

spira_status spira__alloc(spira_context ctx, void **p, size_t count, size_t size, const char *what)
{
    *p = NULL;
    if (size && count > SIZE_MAX / size)
        return spira__error(ctx, SPIRA_ERR_NOMEM, "allocating %s: %zu x %zu bytes overflows",
                            what, count, size);
    SPIRA__TRY(spira__budget_check(ctx, count, size, what));
    *p = spira__malloc(count * size);
    if (!*p) return spira__nomem(ctx, what, count * size);
    return SPIRA_OK;
}

int spira__host_parts(size_t bytes)
{
    /* below half a megabyte a thread's part costs more than it saves. At most half the
     * threads, and 8: a few cores fill the host's memory bandwidth, and a thread for every
     * core (16 on the GPU machine, beside the CUDA driver's and the preload's threads) now
     * and then waits a scheduler slice for one: a 62 MB upload took 6-31 ms in some
     * processes, 3.3-3.8 in each of five with 8 threads (session 21, calls 1-2). */
    enum { min_part = 1 << 19, max_parts = 8 };
    int parts = 1;
#ifdef _OPENMP
    parts = omp_get_max_threads() / 2;
    if (parts > max_parts) parts = max_parts;
#endif
    if ((size_t)parts * min_part > bytes) parts = (int)(bytes / min_part);
    return parts > 1 ? parts : 1;
}

void spira__memcpy_parallel(void *dst, const void *src, size_t bytes)
{
    const int parts = spira__host_parts(bytes);
    if (parts <= 1) {
        memcpy(dst, src, bytes);
        return;
    }
    const size_t part = (bytes + (size_t)parts - 1) / (size_t)parts;
#pragma omp parallel for num_threads(parts) schedule(static)
    for (int t = 0; t < parts; t++) {
        const size_t at = (size_t)t * part;
        if (at < bytes)
            memcpy((char *)dst + at, (const char *)src + at, bytes - at < part ? bytes - at : part);
    }
}
