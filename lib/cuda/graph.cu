/*
 * graph.cu - CUDA graphs of work on the context's stream: capture what a sequence of the
 * library's own calls enqueues, instantiate it once, launch it many times (CG's iteration,
 * solvers/cg_graph.c). The capture is thread-local: a call that may not be captured (a
 * synchronization, an allocation) fails inside it, and the caller then runs without a graph.
 */
#include "cuda/gateway.h"
#include "cuda/check.cuh"

extern "C" spira_status spira__cuda_capture_begin(spira_context ctx)
{
    SPIRA__CUDA(ctx, cudaStreamBeginCapture((cudaStream_t)spira__cuda_stream(ctx),
                                            cudaStreamCaptureModeThreadLocal));
    ctx->capturing = 1;
    return SPIRA_OK;
}

/* The capture ends on every path; the graph is destroyed once instantiated (the
 * executable graph is a copy), or at once when the capture or the calls failed. */
extern "C" spira_status spira__cuda_capture_end(spira_context ctx, spira_status captured,
                                                void **exec)
{
    *exec = NULL;
    cudaGraph_t graph = NULL;
    cudaError_t e = cudaStreamEndCapture((cudaStream_t)spira__cuda_stream(ctx), &graph);
    ctx->capturing = 0;
    spira_status s = captured;
    if (s == SPIRA_OK)
        s = spira__cuda_status(ctx, e, "cudaStreamEndCapture", __FILE__, __LINE__);
    else if (e != cudaSuccess)
        cudaGetLastError(); /* the calls' own failure is the one to report */
    cudaGraphExec_t x = NULL;
    if (s == SPIRA_OK)
        /* the nodes keep the priorities of the streams they were captured on (a distributed
         * SpMV's halo exchange runs on a stream of the greatest priority, to start at once
         * beside the diagonal block's multiply): without this flag a launch ignores them */
        s = spira__cuda_status(ctx, cudaGraphInstantiateWithFlags(
                                        &x, graph, cudaGraphInstantiateFlagUseNodePriority),
                               "cudaGraphInstantiateWithFlags", __FILE__, __LINE__);
    if (graph) cudaGraphDestroy(graph);
    if (s == SPIRA_OK) *exec = x;
    return s;
}

extern "C" spira_status spira__cuda_graph_launch(spira_context ctx, void *exec, int times)
{
    cudaStream_t st = (cudaStream_t)spira__cuda_stream(ctx);
    for (int i = 0; i < times; i++)
        SPIRA__CUDA(ctx, cudaGraphLaunch((cudaGraphExec_t)exec, st));
    return SPIRA_OK;
}

/* Launches still queued are let finish first; quietly: a teardown keeps the error the
 * context already holds (the queue's failure, if any, is the same sticky one). */
extern "C" void spira__cuda_graph_destroy(spira_context ctx, void *exec)
{
    if (!exec) return;
    if (cudaStreamSynchronize((cudaStream_t)spira__cuda_stream(ctx)) != cudaSuccess)
        cudaGetLastError();
    cudaGraphExecDestroy((cudaGraphExec_t)exec);
}
