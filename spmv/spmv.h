/*
 * spmv.h - the SpMV backend's ops table (one per format) and the plan a matrix caches.
 *
 * A format turns the canonical host CSR into its own host layout (convert), multiplies
 * with that layout on the CPU (host_apply: the reference that CI checks every conversion
 * with), and, on the CUDA backend, copies the layout to the device (upload) and runs its
 * kernel (apply) on the context's stream. A NULL slot means "not supported": the
 * dispatcher in spmv.c says so, it never falls back silently.
 *
 * All apply functions compute y <- alpha*A*x + beta*y in the matrix's dtype; beta == 0
 * means y is written without being read.
 */
#ifndef SPIRA_SPMV_H
#define SPIRA_SPMV_H

#include "spira_impl.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct spira__format {
    const char *name;
    const char *description;
    const char *options; /* the option keys convert reads, space-separated ("" for none) */
    /* Host layout from canonical CSR; opts is "" or "key=value,...". The layout may point
     * into A (which outlives it). */
    spira_status (*convert)(spira_context ctx, const spira__csr *A, const char *opts,
                            void **layout);
    void (*host_apply)(const void *layout, double alpha, const void *x, double beta, void *y);
    size_t (*bytes)(const void *layout); /* matrix bytes one SpMV reads (padding included) */
    void (*destroy_layout)(void *layout); /* NULL: the layout is borrowed */
    /* CUDA backend; NULL in a build without CUDA (see registry.c) */
    spira_status (*upload)(spira_context ctx, const void *layout, void **dev);
    spira_status (*apply)(spira_context ctx, void *dev, double alpha, const void *dx,
                          double beta, void *dy);
    void (*destroy_dev)(spira_context ctx, void *dev);
    /* Optional (NULL for most rows): a line about the layout for benchmarks, e.g. PKT's
     * partition quality. The string lives in the layout. */
    const char *(*stats)(const void *layout);
} spira__format;

/* The registry (registry.c). */
const spira__format *spira__format_find(const char *name);
int spira__format_total(void);
const spira__format *spira__format_at(int i);

/* What a matrix caches per (format, options): built once, reused by every SpMV. */
typedef struct {
    spira_context ctx;
    const spira__format *fmt;
    void *layout;
    void *dev;           /* NULL on the CPU backend */
    size_t bytes;
    double convert_ms;   /* host analysis + conversion */
    double upload_ms;    /* device allocation + copy (0 on the CPU) */
} spira__spmv_plan;

/* The plan of A's selected format, built on first call. */
spira_status spira__spmv_plan_get(spira_matrix A, spira__spmv_plan **plan);
/* Destroy the cached plan of A's selected format (and options), if built. */
void spira__spmv_plan_drop(spira_matrix A);
/* y <- alpha A x + beta y with a built plan; x, y raw pointers where ctx computes. */
spira_status spira__spmv_apply(spira__spmv_plan *p, double alpha, const void *x, double beta,
                               void *y);

/* Option parsing for formats: value of key in "k=v,k2=v2" as long, or def if absent;
 * SPIRA_ERR_INVALID_ARG for a malformed value. */
spira_status spira__opt_long(spira_context ctx, const char *opts, const char *key, long def,
                             long *out);

/* Every "key=value" item of opts names one of keys (space-separated; empty items are
 * skipped): SPIRA_ERR_INVALID_ARG naming the format's keys otherwise. */
spira_status spira__check_option_keys(spira_context ctx, const char *format, const char *keys,
                                      const char *opts);

/* Value of key in opts as one of choices (a NULL-terminated list): its index in *out, or
 * def if the key is absent; SPIRA_ERR_INVALID_ARG naming the choices for anything else. */
spira_status spira__opt_word(spira_context ctx, const char *opts, const char *key,
                             const char *const *choices, int def, int *out);

/* The CSR family shares the borrowed host layout and one device copy (csr_gpu.cu). */
spira_status spira__csr_borrow(spira_context ctx, const spira__csr *A, const char *opts,
                               void **layout);
void spira__csr_layout_apply(const void *layout, double alpha, const void *x, double beta,
                             void *y);
size_t spira__csr_layout_bytes(const void *layout);

#ifdef __cplusplus
}
#endif
#endif
