/*
 * launch-floor.cu - what one kernel launch costs on this machine, the floor under issue
 * 14's "<= 5 us a multiply" for small matrices. Standalone (not part of Spira): times
 *   empty     a kernel of one block of 32 threads that does nothing
 *   write     one block of 256 threads writing 256 doubles (a tiny SpMV's y)
 *   params    `write` with 176 bytes of parameters (sell_kernel's size)
 * each as spira-spmv does: "alone" (CUDA events around one launch, median of 200 after 20
 * warm-ups) and "back to back" (the host's clock around 1,000 launches and one wait, /
 * 1,000; the median of five such runs), and the same 1,000 launches captured in a CUDA
 * graph and launched once (the device's own gap between kernels, without the host's
 * launch path). `write` is also launched three other ways, to see whether any host path
 * is cheaper than the runtime's <<<>>>:
 *   driver    cuLaunchKernel (the driver's entry point, found through the runtime)
 *   graph1    a one-kernel graph, instantiated once, cudaGraphLaunch a multiply
 *   ex        cudaLaunchKernelExC with no attributes
 *   nvcc -O3 -arch=sm_90 -o launch-floor bench/launch-floor.cu && ./launch-floor
 */
#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(e)                                                                                  \
    do {                                                                                       \
        cudaError_t r_ = (e);                                                                  \
        if (r_ != cudaSuccess) {                                                               \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(r_));       \
            exit(1);                                                                           \
        }                                                                                      \
    } while (0)

__global__ void empty_kernel() {}

__global__ void write_kernel(double *y, double a)
{
    y[threadIdx.x] = a * threadIdx.x;
}

struct big_params {
    const void *p[16];
    int k[12];
};

__global__ void params_kernel(double *y, double a, big_params b)
{
    y[threadIdx.x] = a * threadIdx.x + (b.k[threadIdx.x % 12] ? 1 : 0);
}

int main()
{
    double *y;
    CK(cudaMalloc(&y, 256 * sizeof(double)));
    cudaStream_t st;
    CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    big_params bp = {};
    printf("launch-floor: sizeof(big_params) + 16 = %zu bytes of parameters\n", sizeof bp + 16);

    auto time = [&](const char *name, auto launch, bool capture = true) {
        for (int i = 0; i < 20; i++) launch();
        CK(cudaStreamSynchronize(st));
        std::vector<float> alone;
        for (int i = 0; i < 200; i++) {
            CK(cudaEventRecord(e0, st));
            launch();
            CK(cudaEventRecord(e1, st));
            CK(cudaEventSynchronize(e1));
            float t;
            CK(cudaEventElapsedTime(&t, e0, e1));
            alone.push_back(t);
        }
        std::sort(alone.begin(), alone.end());
        const int n = 1000;
        std::vector<double> runs;
        for (int r = 0; r < 5; r++) {
            auto t0 = std::chrono::steady_clock::now();
            for (int i = 0; i < n; i++) launch();
            CK(cudaStreamSynchronize(st));
            runs.push_back(std::chrono::duration<double, std::micro>(
                               std::chrono::steady_clock::now() - t0).count() / n);
        }
        std::sort(runs.begin(), runs.end());
        const double b2b = runs[2];
        if (!capture) {
            printf("%-8s alone %6.2f us (median of 200)  back to back %6.2f us\n", name,
                   1e3 * alone[alone.size() / 2], b2b);
            return;
        }
        cudaGraph_t g;
        cudaGraphExec_t ge;
        CK(cudaStreamBeginCapture(st, cudaStreamCaptureModeThreadLocal));
        for (int i = 0; i < n; i++) launch();
        CK(cudaStreamEndCapture(st, &g));
        CK(cudaGraphInstantiate(&ge, g, 0));
        CK(cudaGraphLaunch(ge, st));
        CK(cudaStreamSynchronize(st));
        CK(cudaEventRecord(e0, st));
        CK(cudaGraphLaunch(ge, st));
        CK(cudaEventRecord(e1, st));
        CK(cudaEventSynchronize(e1));
        float tg;
        CK(cudaEventElapsedTime(&tg, e0, e1));
        CK(cudaGraphExecDestroy(ge));
        CK(cudaGraphDestroy(g));
        printf("%-8s alone %6.2f us (median of 200)  back to back %6.2f us  in a graph %6.2f us\n",
               name, 1e3 * alone[alone.size() / 2], b2b, 1e3 * tg / n);
    };
    time("empty", [&] { empty_kernel<<<1, 32, 0, st>>>(); CK(cudaGetLastError()); });
    time("write", [&] { write_kernel<<<1, 256, 0, st>>>(y, 2.0); CK(cudaGetLastError()); });
    time("params", [&] { params_kernel<<<1, 256, 0, st>>>(y, 2.0, bp); CK(cudaGetLastError()); });

    using launch_fn = CUresult (*)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned,
                                   unsigned, unsigned, CUstream, void **, void **);
    void *entry = nullptr;
    cudaDriverEntryPointQueryResult found;
    CK(cudaGetDriverEntryPointByVersion("cuLaunchKernel", &entry, 12000, cudaEnableDefault, &found));
    if (found != cudaDriverEntryPointSuccess || !entry) {
        fprintf(stderr, "cuLaunchKernel not found\n");
        return 1;
    }
    const launch_fn cu_launch = (launch_fn)entry;
    cudaFunction_t fn;
    CK(cudaGetFuncBySymbol(&fn, (const void *)write_kernel));
    double a = 2.0;
    void *args[] = {&y, &a};
    time("driver", [&] {
        if (cu_launch((CUfunction)fn, 1, 1, 1, 256, 1, 1, 0, (CUstream)st, args, nullptr) !=
            CUDA_SUCCESS) {
            fprintf(stderr, "cuLaunchKernel failed\n");
            exit(1);
        }
    });
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(1), cfg.blockDim = dim3(256), cfg.stream = st;
    time("ex", [&] { CK(cudaLaunchKernelExC(&cfg, (const void *)write_kernel, args)); });
    cudaGraph_t g1;
    cudaGraphExec_t ge1;
    CK(cudaStreamBeginCapture(st, cudaStreamCaptureModeThreadLocal));
    write_kernel<<<1, 256, 0, st>>>(y, 2.0);
    CK(cudaStreamEndCapture(st, &g1));
    CK(cudaGraphInstantiate(&ge1, g1, 0));
    time("graph1", [&] { CK(cudaGraphLaunch(ge1, st)); }, false);
    CK(cudaGraphExecDestroy(ge1));
    CK(cudaGraphDestroy(g1));
    CK(cudaFree(y));
    return 0;
}
