/*
 * device.c - device handles and their arrays (see device.h). A handle is allocated behind
 * a header that records the device blocks its arrays were carved from, so one destroy frees
 * them for every format. Only the lib/cuda gateway is called: in a build without CUDA nothing
 * here runs (no format has a device half there).
 */
#include "device.h"
#include "cuda/gateway.h"

#include <stdalign.h>
#include <stddef.h>
#include <stdio.h>

typedef struct {
    size_t n;
    void *block[SPIRA__DEV_ARRAYS_MAX]; /* one a spira__dev_clone call */
    const spira__csr *A;                /* the canonical CSR whose device copy is dA */
    const struct spira__csr_dev *dA;    /* the matrix's device CSR, NULL: none given */
} header;

/* the handle starts here, aligned for any member */
#define HEADER_BYTES \
    ((sizeof(header) + alignof(max_align_t) - 1) / alignof(max_align_t) * alignof(max_align_t))

/* each array of a block starts this aligned (cudaMalloc's own alignment) */
#define ARRAY_ALIGN ((size_t)256)

static header *header_of(void *dev)
{
    return (header *)(void *)((char *)dev - HEADER_BYTES);
}

static size_t aligned(size_t bytes)
{
    return (bytes + ARRAY_ALIGN - 1) / ARRAY_ALIGN * ARRAY_ALIGN;
}

/* The arrays of one call share one device allocation: a cudaMalloc costs about 40 us
 * whatever its size (and its cudaFree as much), which was a third of SURAA's conversion of
 * a 2-D Laplacian (bench/results/2026-11-27-session23, call 2's timeline). */
spira_status spira__dev_clone(spira_context ctx, void *dev, const spira__dev_array *a, size_t n)
{
    header *h = header_of(dev);
    if (n == 0) return SPIRA_OK;
    if (ctx->separate_arrays && n > 1) { /* for compute-sanitizer: a block an array */
        for (size_t i = 0; i < n; i++) SPIRA__TRY(spira__dev_clone(ctx, dev, a + i, 1));
        return SPIRA_OK;
    }
    if (h->n == SPIRA__DEV_ARRAYS_MAX)
        return spira__error(ctx, SPIRA_ERR_INVALID_ARG,
                            "device handle: %s would be its block %d (at most %d)", a[0].what,
                            SPIRA__DEV_ARRAYS_MAX + 1, SPIRA__DEV_ARRAYS_MAX);
    size_t total = 0;
    for (size_t i = 0; i < n; i++) {
        if (total > SIZE_MAX - ARRAY_ALIGN || a[i].bytes > SIZE_MAX - ARRAY_ALIGN - total)
            return spira__error(ctx, SPIRA_ERR_NOMEM, "device handle: %s is %zu bytes",
                                a[i].what, a[i].bytes);
        total += aligned(a[i].bytes);
    }
    char what[160];
    if (n == 1) snprintf(what, sizeof what, "%s", a[0].what);
    else snprintf(what, sizeof what, "%s and %zu more arrays", a[0].what, n - 1);
    void *base;
    SPIRA__TRY(spira__cuda_malloc(ctx, &base, total, what));
    h->block[h->n++] = base; /* recorded first: a failed upload leaves it to destroy */
    size_t at = 0;
    for (size_t i = 0; i < n; i++) {
        void *p = (char *)base + at;
        *(void **)a[i].member = p;
        at += aligned(a[i].bytes);
        if (!a[i].bytes) continue;
        if (a[i].host) SPIRA__TRY(spira__cuda_upload(ctx, p, a[i].host, a[i].bytes));
        else if (ctx->poison_builds) SPIRA__TRY(spira__cuda_poison(ctx, p, a[i].bytes));
    }
    return SPIRA_OK;
}

void spira__dev_destroy(spira_context ctx, const spira__format_gpu *g, void *dev)
{
    if (!dev) return;
    if (g->release) g->release(ctx, dev);
    header *h = header_of(dev);
    for (size_t i = 0; i < h->n; i++) spira__cuda_free(ctx, h->block[i]);
    spira__free(h);
}

/* A zeroed handle of g behind its header, knowing the matrix's device CSR (or NULL). */
static spira_status handle_new(spira_context ctx, const spira__format_gpu *g, const char *name,
                               const spira__csr *A, const struct spira__csr_dev *dA, void **dev)
{
    *dev = NULL;
    header *h = spira__calloc(1, HEADER_BYTES + g->handle);
    if (!h) {
        char what[64];
        snprintf(what, sizeof what, "%s device handle", name);
        return spira__nomem(ctx, what, HEADER_BYTES + g->handle);
    }
    h->A = A;
    h->dA = dA;
    *dev = (char *)h + HEADER_BYTES;
    return SPIRA_OK;
}

spira_status spira__dev_create(spira_context ctx, const spira__format_gpu *g, const char *name,
                               const void *layout, const spira__csr *A,
                               const struct spira__csr_dev *dA, void **dev)
{
    void *d;
    SPIRA__TRY(handle_new(ctx, g, name, A, dA, &d));
    spira_status s = g->upload(ctx, layout, d);
    if (s != SPIRA_OK) {
        spira__dev_destroy(ctx, g, d);
        return s;
    }
    *dev = d;
    return SPIRA_OK;
}

spira_status spira__dev_build(spira_context ctx, const spira__format_gpu *g, const char *name,
                              const spira__csr *A, const struct spira__csr_dev *dA,
                              const char *opts, void **dev, size_t *bytes)
{
    void *d;
    SPIRA__TRY(handle_new(ctx, g, name, A, dA, &d));
    spira_status s = g->build(ctx, A, dA, opts, d, bytes);
    if (s != SPIRA_OK) {
        spira__dev_destroy(ctx, g, d);
        return s;
    }
    *dev = d;
    return SPIRA_OK;
}

const struct spira__csr_dev *spira__dev_shared_csr(void *dev, const spira__csr *A)
{
    const header *h = header_of(dev);
    return h->A == A ? h->dA : NULL;
}
