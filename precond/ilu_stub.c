/*
 * ilu_stub.c - the incomplete LU's CUDA side (ilu.h) in a build without CUDA: setup and
 * apply say so, destroy has nothing to free; ilu.c needs no #ifdef.
 */
#include "ilu.h"
#include "cuda/gateway.h"

spira_status spira__ilu_dev_setup(spira__ilu_factor *f, int sweeps)
{
    (void)sweeps;
    return spira__no_cuda(f->ctx);
}

spira_status spira__ilu_dev_apply(spira__ilu_factor *f, const void *r, void *z)
{
    (void)r, (void)z;
    return spira__no_cuda(f->ctx);
}

spira_status spira__ilu_dev_sweeps(spira__ilu_factor *f, int sweeps, spira__sweeps_path path,
                                   const void *r, void *z)
{
    (void)sweeps, (void)path, (void)r, (void)z;
    return spira__no_cuda(f->ctx);
}

void spira__ilu_dev_destroy(spira__ilu_factor *f)
{
    (void)f;
}
