/*
 * hyb_gpu.cu - HYB on the device (Bell & Garland 2008): the ELL part's kernel writes
 * y <- alpha*E*x + beta*y (with K = 0 it only scales y), then the COO part's segmented
 * reduction adds alpha*C*x. Both kernels live in ell_gpu.cu and coo_gpu.cu; this file
 * only pairs them.
 */
#include "hyb.h"
#include "coo_gpu.cuh"
#include "ell_gpu.cuh"
#include "spmv_gpu.h"
#include "cuda/check.cuh"
#include "cuda/gateway.h"

namespace {
typedef struct {
    spira__ell_dev ell;
    spira__coo_dev coo;
} hyb_dev;
} // namespace

extern "C" void spira__hyb_destroy_dev(spira_context ctx, void *dev)
{
    hyb_dev *d = (hyb_dev *)dev;
    if (!d) return;
    spira__ell_dev_release(ctx, &d->ell);
    spira__coo_dev_release(ctx, &d->coo);
    spira__free(d);
}

extern "C" spira_status spira__hyb_upload(spira_context ctx, const void *layout, void **dev)
{
    const spira__hyb *h = (const spira__hyb *)layout;
    *dev = NULL;
    hyb_dev *d = (hyb_dev *)spira__calloc(1, sizeof *d);
    if (!d) return spira__nomem(ctx, "device HYB handle", sizeof *d);
    spira_status s = spira__ell_dev_fill(ctx, &h->ell, &d->ell);
    if (s == SPIRA_OK) s = spira__coo_dev_fill(ctx, &h->coo, &d->coo);
    if (s != SPIRA_OK) {
        spira__hyb_destroy_dev(ctx, d);
        return s;
    }
    *dev = d;
    return SPIRA_OK;
}

extern "C" spira_status spira__hyb_apply(spira_context ctx, void *dev, double alpha,
                                         const void *x, double beta, void *y)
{
    const hyb_dev *d = (const hyb_dev *)dev;
    SPIRA__TRY(spira__ell_dev_run(ctx, &d->ell, alpha, x, beta, y));  /* y <- aEx + by */
    return spira__coo_dev_accumulate(ctx, &d->coo, alpha, x, y);       /* y <- y + aCx */
}
