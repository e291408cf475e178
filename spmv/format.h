/*
 * format.h - what an SpMV format is: one ops table, exported by the format's own files.
 *
 * X.c defines `const spira__format spira__X_format` with designated initializers: its
 * name, a line of description, the option keys it takes, the host conversion from the
 * canonical CSR into its layout, the CPU reference multiply over that layout (what CI
 * checks every conversion with), the matrix bytes one multiply reads and the layout's
 * destroy. X_gpu.cu defines `const spira__format_gpu spira__X_gpu`, the device half, and
 * X.c points at it through SPIRA__GPU(&spira__X_gpu), which is NULL in a build without
 * CUDA. registry.c lists the formats. A NULL slot means "not supported": the dispatcher
 * (spmv.c) says so, it never falls back silently.
 *
 * Every apply computes y <- alpha*A*x + beta*y in the matrix's dtype; beta == 0 means y is
 * written without being read.
 *
 * Names: a format's own ops are static in its files: X_convert, X_apply, X_bytes,
 * X_destroy, X_stats on the host, X_dev_upload, X_dev_apply, X_dev_release on the device.
 * What formats share is spira__L_<verb> on the host (build, apply, accumulate, bytes, free)
 * and spira__L_dev_<verb> on the device (fill, apply, accumulate), L the layout.
 */
#ifndef SPIRA_SPMV_FORMAT_H
#define SPIRA_SPMV_FORMAT_H

#include "options.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The device half of a format (X_gpu.cu). The dispatcher allocates a zeroed handle of
 * `handle` bytes, upload fills it (sizes, and device copies of the layout's arrays through
 * spira__dev_clone, device.h), apply multiplies with it on the context's stream. Whatever
 * upload cloned is freed by the dispatcher, after release (NULL when there is nothing
 * else: streams, events and library descriptors are the else), also when upload failed
 * half-way. */
struct spira__csr_dev; /* cuda/gateway.h */

typedef struct spira__format_gpu {
    size_t handle;
    spira_status (*upload)(spira_context ctx, const void *layout, void *dev);
    /* Optional: the conversion on the GPU. Fills the zeroed handle from the device copy of
     * the canonical CSR (dA, the matrix's: it outlives the handle, so the handle may point
     * into its arrays without cloning them), with A the host CSR for its sizes and scalars
     * only: no O(nnz) pass over host memory, which is what this op exists to avoid. opts
     * as for convert (keys already checked). Sets *bytes, what the host layout's bytes
     * would say. Arrays the handle keeps are cloned with host NULL (device.h); scratch is
     * freed before returning, on every path. A refusal (fill limits) gives the host
     * convert's status and message. NULL: the format converts on the host and uploads. */
    spira_status (*build)(spira_context ctx, const spira__csr *A, const struct spira__csr_dev *dA,
                          const char *opts, void *dev, size_t *bytes);
    /* Nonzero: upload's device CSR (spira__csr_dev_fill of the canonical CSR) borrows the
     * matrix's device copy instead of cloning its own (the CSR family, whose host convert
     * only reads options). */
    int shares_csr;
    spira_status (*apply)(spira_context ctx, void *dev, double alpha, const void *dx,
                          double beta, void *dy);
    void (*release)(spira_context ctx, void *dev);
    /* Optional: the format's stats line (spira__format.stats) for a handle built on the GPU,
     * which has no host layout to ask; the string lives in the handle. */
    const char *(*stats)(const void *dev);
} spira__format_gpu;

typedef struct spira__format {
    const char *name;
    const char *description;
    const char *options; /* the option keys convert reads, space-separated ("" for none) */
    /* Host layout from canonical CSR; opts is "" or "key=value,...", its keys already
     * checked against `options`. The layout may point into A (which outlives it). */
    spira_status (*convert)(spira_context ctx, const spira__csr *A, const char *opts,
                            void **layout);
    /* The CPU reference; NULL: the format runs on the CUDA backend only. */
    void (*apply)(const void *layout, double alpha, const void *x, double beta, void *y);
    size_t (*bytes)(const void *layout); /* matrix bytes one SpMV reads (padding included) */
    void (*destroy)(void *layout);       /* NULL: the layout is borrowed */
    /* Optional: a line about the layout for benchmarks (PKT's partition quality); the
     * string lives in the layout. */
    const char *(*stats)(const void *layout);
    const spira__format_gpu *gpu; /* NULL: no kernel in this build */
} spira__format;

/* A rule both halves of a format apply (a header's static inline function), callable from
 * a kernel too when nvcc compiles it. */
#ifdef __CUDACC__
#define SPIRA__HOST_DEVICE __host__ __device__
#else
#define SPIRA__HOST_DEVICE
#endif

/* A format's device half where it was built, NULL where it was not. */
#ifdef HAVE_CUDA
#define SPIRA__GPU(ops) (ops)
#else
#define SPIRA__GPU(ops) NULL
#endif

#ifdef __cplusplus
}
#endif
#endif
