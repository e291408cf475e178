/*
 * nccl.cuh - what the two .cu files of the distributed layer's GPU transport share
 * (nccl.cu: the communicator, the sums over the ranks, the halo by NCCL's send and
 * receive; nccl_cg.cu: CG's graph across the GPUs): the communicator's struct, NCCL's
 * status check and the sum over the ranks made inside a kernel.
 */
#ifndef SPIRA_DIST_NCCL_CUH
#define SPIRA_DIST_NCCL_CUH

#include "dist_gpu.h"
#include "cuda/gateway.h"
#include "cuda/check.cuh"

#include <nccl.h>

/* NCCL's device API (2.28): sums over the ranks inside a kernel */
#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 28, 0)
#include <nccl_device.h>
#define IN_KERNEL_SUMS 1
#else
#define IN_KERNEL_SUMS 0
#endif

/* the most values one sum inside a kernel adds (more go to ncclAllReduce) */
#define KERNEL_SUMS 16

static inline spira_status spira__nccl_status(spira_context ctx, ncclResult_t r,
                                              const char *call, const char *file, int line)
{
    if (r == ncclSuccess) return SPIRA_OK;
    const char *last = ncclGetLastError(NULL);
    return spira__error(ctx, SPIRA_ERR_DEVICE, "%s:%d: %s: %s%s%s", file, line, call,
                        ncclGetErrorString(r), last && *last ? ": " : "", last ? last : "");
}

#define NCCL_CHECK(ctx, call) spira__nccl_status((ctx), (call), #call, __FILE__, __LINE__)
#define CUDA_CHECK(ctx, call) spira__cuda_status((ctx), (call), #call, __FILE__, __LINE__)

struct spira__nccl {
    ncclComm_t comm;    /* NULL until made */
    int rank, nranks;
    cudaStream_t side;  /* the halo's transfers */
    double *dsum;       /* HOST_SUMS doubles: host sums pass through them */
#if IN_KERNEL_SUMS
    int in_kernel;      /* dev was made on every rank: device sums are made in kernels */
    ncclDevComm dev;
    ncclLLA2AHandle ll; /* its low-latency all-to-all buffer, one block's */
#endif
};

#if IN_KERNEL_SUMS
/* The sum over the ranks inside a kernel (nccl.cu's head says why): v[0..k) (k <=
 * KERNEL_SUMS) in place, the same bits on every rank; one thread calls it. */
struct spira__ll_sum {
    ncclDevComm dev;
    ncclLLA2AHandle ll;
    __device__ void operator()(double *v, int k) const
    {
        const ncclTeam team = ncclTeamLsa(dev);
        ncclLLA2ASession<ncclCoopThread> s(ncclCoopThread(), dev, team, ll, 0,
                                           team.nRanks * KERNEL_SUMS);
        for (int j = 0; j < k; j++) s.bcast(team.rank * k + j, v[j]);
        for (int j = 0; j < k; j++) {
            double t = s.recv<double>(j);
            for (int q = 1; q < team.nRanks; q++) t += s.recv<double>(q * k + j);
            v[j] = t;
        }
        s.endEpoch(ncclCoopThread());
    }
};
#endif

#endif
