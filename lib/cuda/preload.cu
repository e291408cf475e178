/*
 * preload.cu - loading the library's kernels in the background when a context starts.
 *
 * CUDA loads a module's code lazily (CUDA_MODULE_LOADING=LAZY, the default since 12.2):
 * the first launch of a kernel waits while its module and its code are loaded. In a
 * program's first solve on the H100 that cost the format choice's counts about 1 ms (of
 * 1.2-1.5) and the solver's setup about 0.5 ms (bench/results/2026-11-26-h100-session13;
 * cuBLAS's nrm2 cost 2.5 ms more, and is now Spira's own reduction, fused.cu). EAGER
 * loading is no answer: it loads every library's modules, cuSPARSE's included (0.7 s). So
 * a thread started with the context loads the modules a default solve runs, each through
 * one of its kernels (SPIRA__MODULE_ANCHOR, check.cuh), while the caller reads its matrix;
 * their other kernels still load at their first launch, which costs far less than the
 * module. CUB's radix sort is the exception: its kernels' first launch waited 1.5-1.8 ms
 * on the H100 after their module was loaded, most of SELL's and SURAA's first conversion
 * (bench/results/2026-11-27-session19, call 4), so the modules that sort run one small sort
 * of each key width here, on a stream of their own (sort_gpu.cuh), after the anchors.
 * Loading every kernel of every module (cuModuleEnumerateFunctions) saved little
 * more and made CG's warm iterations about 1% slower, as did warming cuBLAS from here (the
 * gap between the iteration's graph launches grew by 0.4 us; why, not known). Nothing
 * waits for this thread but spira__cuda_fini. SPIRA_PRELOAD=0 in the environment turns it
 * off (to measure what it saves).
 */
#include "cuda/gateway.h"
#include "cuda/check.cuh"

#include <atomic>
#include <stdlib.h>
#include <string.h>
#include <thread>

extern "C" {
#define ANCHOR(name) const void *spira__module_##name(void);
ANCHOR(fused) ANCHOR(blas) ANCHOR(auto) ANCHOR(diagonals) ANCHOR(rows) ANCHOR(csr)
ANCHOR(csr_vector) ANCHOR(merge) ANCHOR(dia) ANCHOR(ell) ANCHOR(coo) ANCHOR(cg)
ANCHOR(transpose) ANCHOR(pagerank) ANCHOR(suraa) ANCHOR(cmrs)
#undef ANCHOR
#define WARM(name) void spira__module_warm_##name(void);
WARM(transpose) WARM(sell) WARM(suraa_convert)
#undef WARM
}

namespace {

/* In the order a default solve first needs them: the vector kernels, the format choice's
 * counts, the formats auto weighs with their conversions, the solvers'. */
const void *(*const anchors[])(void) = {
    spira__module_fused, spira__module_blas, spira__module_auto, spira__module_diagonals,
    spira__module_rows,  spira__module_csr,  spira__module_csr_vector, spira__module_merge,
    spira__module_dia,   spira__module_ell,  spira__module_coo, spira__module_cg,
    spira__module_transpose, spira__module_pagerank, spira__module_suraa, spira__module_cmrs,
};

/* Then the modules that sort (sort_gpu.cuh): their sorts' kernels too, PageRank's first. */
void (*const sort_warms[])(void) = {
    spira__module_warm_transpose, spira__module_warm_sell, spira__module_warm_suraa_convert,
};

/* Errors here are nobody's: a kernel not loaded now is loaded at its first launch. The
 * runtime's last error is the thread's own, so none reaches the caller's thread. */
void preload(int device)
{
    if (cudaSetDevice(device) != cudaSuccess) {
        cudaGetLastError();
        return;
    }
    for (auto anchor : anchors) {
        cudaFuncAttributes attr; /* they need the code: the anchor and its module load */
        if (cudaFuncGetAttributes(&attr, anchor()) != cudaSuccess) cudaGetLastError();
    }
    for (auto warm : sort_warms) warm();
}

/* Modules are loaded into the device's context, which every Spira context on the device
 * shares: the first context on a device preloads, later ones have nothing to do. */
std::atomic<unsigned long long> claimed{0};

} // namespace

extern "C" void *spira__cuda_preload_start(int device)
{
    const char *env = getenv("SPIRA_PRELOAD");
    if (env && !strcmp(env, "0")) return NULL;
    const unsigned long long bit = device >= 0 && device < 64 ? 1ull << device : 0;
    if (!bit || claimed.fetch_or(bit) & bit) return NULL;
    try {
        return new std::thread(preload, device);
    } catch (...) { /* no thread (or no memory for one): kernels load lazily, as without */
        return NULL;
    }
}

extern "C" void spira__cuda_preload_join(void *thread)
{
    std::thread *t = static_cast<std::thread *>(thread);
    if (!t) return;
    t->join();
    delete t;
}
