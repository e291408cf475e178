/*
 * replay.h - a plan's multiply launched from a CUDA graph (spira__spmv_apply's path on the
 * CUDA backend). On the H200 machines the host spends 3.6-4.1 us launching one kernel
 * (<<<>>>, cudaLaunchKernelExC or the driver's cuLaunchKernel alike) and 1.8 us launching
 * a one-kernel graph that was instantiated once (bench/launch-floor.cu,
 * bench/results/2026-11-29-session30, call 1), where a small matrix's multiply takes the
 * GPU 1.7-4.3 us: back to back, the launch sets the pace, and alone, it is most of the
 * latency. So a plan captures its multiply once for a (x, y, alpha, beta) and launches
 * that graph while the same four come again, as a solver's iterations and a benchmark's
 * repetitions do; a few such graphs are kept a plan, the oldest replaced.
 * The multiply is launched as before when the stream is being captured (a solver's own
 * graph records the kernels), when the format's multiply cannot be captured, when the
 * arguments keep changing (more misses than a quarter of the hits, after the first few),
 * and when the context's spmv_graphs is off (the environment's SPIRA_SPMV_GRAPHS=0).
 * The graph runs the same kernels on the same arguments: the same bits.
 */
#ifndef SPIRA_SPMV_REPLAY_H
#define SPIRA_SPMV_REPLAY_H

#include "spira_impl.h"

#define SPIRA__REPLAYS 4       /* graphs kept a plan: CG uses one, BiCGSTAB two */
#define SPIRA__REPLAY_TRIES 8  /* misses before the plan may give up on graphs */

typedef struct {
    const void *x;
    void *y;
    double alpha, beta;
    void *exec; /* NULL: an empty slot */
} spira__replay_slot;

typedef struct {
    spira__replay_slot slot[SPIRA__REPLAYS];
    int next;          /* the slot the next capture takes */
    int off;           /* 1: this plan launches its multiply directly from now on */
    int64_t hits, misses;
} spira__replay;

#ifdef __cplusplus
extern "C" {
#endif

/* The multiply apply(ctx, dev, alpha, x, beta, y) through r's graphs, or directly. */
spira_status spira__replay_apply(spira_context ctx, spira__replay *r,
                                 spira_status (*apply)(spira_context, void *, double,
                                                       const void *, double, void *),
                                 void *dev, double alpha, const void *x, double beta, void *y);
/* r's graphs destroyed (queued launches finish first), its counts and `off` kept. */
void spira__replay_clear(spira_context ctx, spira__replay *r);

#ifdef __cplusplus
}
#endif

#endif
