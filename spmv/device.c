/*
 * device.c - device handles and their arrays (see device.h). A handle is allocated behind
 * a header that records the members its arrays were cloned into, so one destroy frees them
 * for every format. Only the lib/cuda gateway is called: in a build without CUDA nothing
 * here runs (no format has a device half there).
 */
#include "device.h"
#include "cuda/gateway.h"

#include <stdalign.h>
#include <stddef.h>
#include <stdio.h>

typedef struct {
    size_t n;
    void **member[SPIRA__DEV_ARRAYS_MAX];
    const spira__csr *A;                /* the canonical CSR whose device copy is dA */
    const struct spira__csr_dev *dA;    /* the matrix's device CSR, NULL: none given */
} header;

/* the handle starts here, aligned for any member */
#define HEADER_BYTES \
    ((sizeof(header) + alignof(max_align_t) - 1) / alignof(max_align_t) * alignof(max_align_t))

static header *header_of(void *dev)
{
    return (header *)(void *)((char *)dev - HEADER_BYTES);
}

spira_status spira__dev_clone(spira_context ctx, void *dev, const spira__dev_array *a, size_t n)
{
    header *h = header_of(dev);
    for (size_t i = 0; i < n; i++) {
        if (h->n == SPIRA__DEV_ARRAYS_MAX)
            return spira__error(ctx, SPIRA_ERR_INVALID_ARG,
                                "device handle: %s would be its array %d (at most %d)",
                                a[i].what, SPIRA__DEV_ARRAYS_MAX + 1, SPIRA__DEV_ARRAYS_MAX);
        void **member = (void **)a[i].member;
        h->member[h->n++] = member; /* recorded first: a failed clone may leave memory */
        SPIRA__TRY(a[i].host ? spira__cuda_clone(ctx, member, a[i].host, a[i].bytes, a[i].what)
                             : spira__cuda_malloc(ctx, member, a[i].bytes, a[i].what));
        if (!a[i].host && ctx->poison_builds && a[i].bytes)
            SPIRA__TRY(spira__cuda_poison(ctx, *member, a[i].bytes));
    }
    return SPIRA_OK;
}

void spira__dev_destroy(spira_context ctx, const spira__format_gpu *g, void *dev)
{
    if (!dev) return;
    if (g->release) g->release(ctx, dev);
    header *h = header_of(dev);
    for (size_t i = 0; i < h->n; i++) spira__cuda_free(ctx, *h->member[i]);
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
