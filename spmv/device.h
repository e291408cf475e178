/*
 * device.h - a format's device handle and the device copies of its layout's arrays: the
 * allocate, copy and unwind sequence that every format's upload needs, written once.
 *
 * The dispatcher creates the handle (spira__dev_create: zeroed, format_gpu.handle bytes,
 * then the format's upload) and destroys it (spira__dev_destroy: the format's release,
 * then every array cloned into it, then the handle). Upload names the arrays it wants on
 * the device, each with the handle's pointer member that receives the copy:
 *
 *     const spira__dev_array arrays[] = {
 *         {&d->offsets, h->offsets, ndiag * sizeof(int32_t), "DIA offsets"},
 *         {&d->data, h->data, ndiag * pitch * es, "DIA data"},
 *     };
 *     return SPIRA__DEV_CLONE(ctx, d, arrays);
 *
 * A member may sit in a struct nested in the handle (hyb's ELL and COO parts). host NULL
 * allocates without copying (scratch the kernels write). One call's arrays are one device
 * allocation (one cudaMalloc and one cudaFree, each about 40 us on the H100 whatever the
 * size).
 */
#ifndef SPIRA_SPMV_DEVICE_H
#define SPIRA_SPMV_DEVICE_H

#include "format.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    void *member;     /* address of the handle's device pointer that receives the array */
    const void *host; /* the host array, or NULL: allocate only */
    size_t bytes;
    const char *what; /* names the array in an error, e.g. "DIA offsets" */
} spira__dev_array;

#define SPIRA__DEV_ARRAYS_MAX 16 /* blocks one handle holds: a block a spira__dev_clone call
                                  * (a block an array with ctx->separate_arrays) */

/* Clone n arrays into handle dev (made by spira__dev_create), carved from one device
 * allocation (each array 256-byte aligned; a zero-byte one gets an address in it, not
 * NULL; with ctx->separate_arrays, SPIRA_SANITIZE=1, each array its own allocation). On
 * failure what was allocated stays recorded: spira__dev_destroy frees it. */
spira_status spira__dev_clone(spira_context ctx, void *dev, const spira__dev_array *a, size_t n);
#define SPIRA__DEV_CLONE(ctx, dev, arrays) \
    spira__dev_clone(ctx, dev, arrays, sizeof(arrays) / sizeof((arrays)[0]))

/* *dev = g's handle filled by g->upload from layout; nothing is left allocated on failure.
 * dA: the device copy of the canonical CSR A, which a CSR-family upload borrows instead of
 * cloning A's arrays (spira__csr_dev_fill); NULL (and A NULL): none, every array is cloned. */
spira_status spira__dev_create(spira_context ctx, const spira__format_gpu *g, const char *name,
                               const void *layout, const spira__csr *A,
                               const struct spira__csr_dev *dA, void **dev);
/* *dev = g's handle filled by g->build from the device CSR dA of A (the conversion on the
 * GPU), *bytes what one multiply reads; nothing is left allocated on failure. */
spira_status spira__dev_build(spira_context ctx, const spira__format_gpu *g, const char *name,
                              const spira__csr *A, const struct spira__csr_dev *dA,
                              const char *opts, void **dev, size_t *bytes);
/* The device CSR handle dev was given for host CSR A (spira__dev_create), NULL if none was
 * or it was given for another matrix. */
const struct spira__csr_dev *spira__dev_shared_csr(void *dev, const spira__csr *A);
/* Release and free a handle of g (NULL is fine). */
void spira__dev_destroy(spira_context ctx, const spira__format_gpu *g, void *dev);

#ifdef __cplusplus
}
#endif
#endif
