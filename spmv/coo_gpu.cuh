/*
 * coo_gpu.cuh - the device copy of a COO layout, with the scratch its segmented reduction
 * needs, and the launcher of y <- y + alpha*A*x; shared by the coo and hyb formats
 * (coo_gpu.cu).
 */
#ifndef SPIRA_COO_GPU_CUH
#define SPIRA_COO_GPU_CUH

#include "coo.h"
#include "device.h"

typedef struct {
    int32_t nrows, nnz;
    spira_dtype dtype;
    int32_t *row, *col;  /* device, nnz */
    void *val;           /* device, nnz */
    long long interval;  /* nonzeros per warp, a multiple of 32 */
    int32_t nwarps;      /* ceil(nnz / interval): one interval per warp, one carry each */
    int32_t *carry_row;  /* device scratch, nwarps: the row left open at each interval's end */
    void *carry_val;     /* device scratch, nwarps: its partial sum, times alpha */
} spira__coo_dev;

/* Clone h's arrays into d, which sits in the device handle dev (device.h), choosing the
 * interval (h->interval, or from the device's resident warps) and allocating the carry
 * scratch once, so apply allocates nothing. */
spira_status spira__coo_dev_fill(spira_context ctx, void *dev, const spira__coo *h,
                                 spira__coo_dev *d);
/* The conversion on the GPU: fill d, which sits in the device handle dev, with the entries
 * of every row of the device CSR dA from position skip on, the layout spira__coo_build
 * makes on the host array for array, and size it as spira__coo_dev_fill does (interval as
 * h->interval there). skip 0 borrows dA's column and value arrays (dA outlives the handle)
 * and makes the row indices only; skip > 0 makes all three. */
spira_status spira__coo_dev_build(spira_context ctx, void *dev, const struct spira__csr_dev *dA,
                                  int32_t skip, long interval, spira__coo_dev *d);
/* The matrix bytes one multiply reads: spira__coo_bytes of the host layout d copies. */
size_t spira__coo_dev_bytes(const spira__coo_dev *d);
/* y <- y + alpha*A*x on the context's stream: two launches, no atomics, no host sync. */
spira_status spira__coo_dev_accumulate(spira_context ctx, const spira__coo_dev *d, double alpha,
                                       const void *x, void *y);

#endif
