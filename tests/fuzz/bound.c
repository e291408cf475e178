/*
 * bound.c - the fuzzers' memory bound: no input may make the target (the library and the
 * target's own code) hold more than 64 MB above the input's size at any moment. This file
 * holds the LLVMFuzzerTestOneInput that libFuzzer calls; the build renames the target's
 * own to spira_fuzz_one (-DLLVMFuzzerTestOneInput=spira_fuzz_one, undone here). Around
 * each input it reads a count of the bytes live that ASan's allocator hooks keep, and
 * aborts with the numbers when one input's peak passed the bound, so libFuzzer keeps that
 * input as a crash. At exit it prints the largest peak seen. Only the fuzz-NAME programs
 * have it; the replays in make check run the targets as they are.
 */
#undef LLVMFuzzerTestOneInput

#include <sanitizer/allocator_interface.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define BOUND_BYTES (64LL << 20)

int spira_fuzz_one(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* bytes live since the hooks went in (may go below zero: frees of older blocks), and the
 * most seen since the current input began; atomic, as the parallel reader allocates from
 * several threads */
static atomic_llong live, peak;
/* the largest peak of any input above its start, and that input's size */
static long long worst;
static size_t worst_size;

static void on_malloc(const volatile void *p, size_t n)
{
    (void)p;
    long long now = atomic_fetch_add(&live, (long long)n) + (long long)n;
    long long was = atomic_load(&peak);
    while (now > was && !atomic_compare_exchange_weak(&peak, &was, now)) {
    }
}

static void on_free(const volatile void *p)
{
    if (p) atomic_fetch_sub(&live, (long long)__sanitizer_get_allocated_size(p));
}

static void report(void)
{
    fprintf(stderr, "memory bound: the largest peak of one input was %.1f MB above its start "
                    "(an input of %zu bytes); the bound is 64 MB above the input's size\n",
            worst / 1048576.0, worst_size);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    if (!__sanitizer_install_malloc_and_free_hooks(on_malloc, on_free)) abort();
    atexit(report);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const long long start = atomic_load(&live);
    atomic_store(&peak, start);
    int r = spira_fuzz_one(data, size);
    const long long used = atomic_load(&peak) - start;
    if (used > worst) worst = used, worst_size = size;
    if (used > BOUND_BYTES + (long long)size) {
        fprintf(stderr, "memory bound: an input of %zu bytes held %lld bytes at its peak, more "
                        "than 64 MB above its size\n", size, used);
        abort();
    }
    return r;
}
