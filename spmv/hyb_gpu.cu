/*
 * hyb_gpu.cu - HYB on the device (Bell & Garland 2008): the ELL part's kernel writes
 * y <- alpha*E*x + beta*y (with K = 0 it only scales y), then the COO part's segmented
 * reduction adds alpha*C*x. Both kernels live in ell_gpu.cu and coo_gpu.cu; this file
 * only pairs them, and so does its conversion on the GPU: the width K from the row-length
 * histogram (rows_gpu.cu) by the host's rule (hyb.h), then the ELL and COO builders.
 */
#include "hyb.h"
#include "hyb_gpu.cuh"
#include "rows_gpu.cuh"
#include "cuda/check.cuh"
#include "cuda/gateway.h"

#include <limits.h>

static spira_status hyb_dev_upload(spira_context ctx, const void *layout, void *dev)
{
    const spira__hyb *h = (const spira__hyb *)layout;
    spira__hyb_dev *d = (spira__hyb_dev *)dev;
    SPIRA__TRY(spira__ell_dev_fill(ctx, dev, &h->ell, &d->ell));
    return spira__coo_dev_fill(ctx, dev, &h->coo, &d->coo);
}

/* K as hyb_convert chooses it: ell_width clamped to the longest row, or the width rule
 * over the histogram below its cap (a few bins: three times the mean row length). */
static spira_status hyb_dev_width(spira_context ctx, const spira__csr *A,
                                  const spira__csr_dev *dA, long min_rows, long width,
                                  int32_t *K)
{
    *K = 0;
    if (width != LONG_MIN) {
        int32_t maxlen;
        SPIRA__TRY(spira__rows_dev_max(ctx, dA, &maxlen));
        *K = width > maxlen ? maxlen : (int32_t)width;
        return SPIRA_OK;
    }
    const int32_t cap = spira__hyb_hist_cap(A, min_rows);
    if (cap == 0) return SPIRA_OK;
    int32_t *hist = NULL;
    SPIRA__TRY(spira__alloc(ctx, (void **)&hist, (size_t)cap, sizeof(int32_t),
                            "HYB row-length histogram"));
    spira_status s = spira__rows_dev_hist(ctx, dA, cap, hist);
    if (s == SPIRA_OK) *K = spira__hyb_width_of(hist, cap, A->nrows, min_rows);
    spira__free(hist);
    return s;
}

static spira_status hyb_dev_build(spira_context ctx, const spira__csr *A,
                                  const spira__csr_dev *dA, const char *opts, void *dev,
                                  size_t *bytes)
{
    long min_rows, width, interval;
    SPIRA__TRY(spira__hyb_options(ctx, opts, &min_rows, &width, &interval));
    int32_t K;
    SPIRA__TRY(hyb_dev_width(ctx, A, dA, min_rows, width, &K));
    spira__hyb_dev *d = (spira__hyb_dev *)dev;
    SPIRA__TRY(spira__ell_dev_build(ctx, dev, dA, K, "hyb", &d->ell));
    SPIRA__TRY(spira__coo_dev_build(ctx, dev, dA, K, interval, &d->coo));
    *bytes = spira__ell_dev_bytes(&d->ell) + spira__coo_dev_bytes(&d->coo);
    return SPIRA_OK;
}

static spira_status hyb_dev_apply(spira_context ctx, void *dev, double alpha, const void *x,
                                  double beta, void *y)
{
    const spira__hyb_dev *d = (const spira__hyb_dev *)dev;
    SPIRA__TRY(spira__ell_dev_apply(ctx, &d->ell, alpha, x, beta, y)); /* y <- aEx + by */
    return spira__coo_dev_accumulate(ctx, &d->coo, alpha, x, y);       /* y <- y + aCx */
}

extern "C" const spira__format_gpu spira__hyb_gpu = {
    .handle = sizeof(spira__hyb_dev),
    .upload = hyb_dev_upload,
    .build = hyb_dev_build,
    .apply = hyb_dev_apply,
};
