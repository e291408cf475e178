/*
 * gf2-dsmem-probe.cu - a probe for issue 15's `combined` >= 1.5x `csr` (GF(2), W = 64): can
 * Hopper's distributed shared memory serve the gathers of X that make the CSR kernel
 * L2-bound? Standalone (not part of Spira): builds the sieve-shaped matrix of spira-gf2's
 * --nfs N:64 shape (each row 64 columns floor(N u^3), u uniform; repeats kept: the timing
 * does not care), then times
 *   csr V     V lanes a row, each lane XORing X's words of its entries (Spira's csr kernel);
 *   dsm CS V  clusters of CS blocks, one block an SM, X cut into passes of CS slices, each
 *             block holding one slice (128 KiB) in its shared memory: per pass every block loads its
 *             slice, the cluster syncs, and V lanes a row gather the row's entries of that
 *             pass from the cluster's slices (map_shared_rank), then XOR the row's part into
 *             Y; rows split evenly over the blocks.
 * and checks that every variant's Y is the CSR's. Prints ms a multiply (median of 20 after 3
 * warm-ups, CUDA events) and Gnnz/s.
 *   nvcc -O3 -arch=sm_90 -std=c++17 -o gf2-dsmem-probe bench/gf2-dsmem-probe.cu
 *   ./gf2-dsmem-probe [N]
 */
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <functional>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace cg = cooperative_groups;
typedef unsigned long long u64;

#define CK(x)                                                                          \
    do {                                                                               \
        cudaError_t e_ = (x);                                                          \
        if (e_ != cudaSuccess) {                                                       \
            fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
            exit(1);                                                                   \
        }                                                                              \
    } while (0)

constexpr int kWeight = 64;
constexpr int kThreads = 1024;
constexpr int kSliceShift = 14; /* 16384 words of X a block: 128 KiB */

/* Rows are taken a warp's worth at a time (32 / V of them), so that every lane of a warp
 * reaches the shuffles; a lane past the last row adds nothing. */
template <int V>
__global__ void __launch_bounds__(256) csr_kernel(int n, const int *__restrict__ rp,
                                                  const int *__restrict__ ci,
                                                  const u64 *__restrict__ x, u64 *__restrict__ y)
{
    const int lane = threadIdx.x % V;
    const int warps = gridDim.x * (blockDim.x / 32);
    for (int base = (blockIdx.x * blockDim.x + threadIdx.x) / 32 * (32 / V); base < n;
         base += warps * (32 / V)) {
        const int row = base + (threadIdx.x % 32) / V;
        u64 acc = 0;
        if (row < n)
            for (int k = rp[row] + lane; k < rp[row + 1]; k += V) acc ^= __ldg(&x[ci[k]]);
#pragma unroll
        for (int off = V / 2; off > 0; off >>= 1) acc ^= __shfl_down_sync(0xffffffffu, acc, off, V);
        if (lane == 0 && row < n) y[row] = acc;
    }
}

/* pp[row * (P + 1) + p]: where row's entries of pass p begin (columns sorted in a row) */
template <int V>
__global__ void __launch_bounds__(kThreads, 1)
    dsm_kernel(int n, int P, int rows_per_block, const int *__restrict__ pp,
               const int *__restrict__ ci, const u64 *__restrict__ x, u64 *__restrict__ y)
{
    extern __shared__ u64 sx[];
    constexpr int slice = 1 << kSliceShift;
    cg::cluster_group cluster = cg::this_cluster();
    const int cs = (int)cluster.num_blocks(), rank = (int)cluster.block_rank();
    const int span = cs * slice; /* columns a pass */
    const int first = blockIdx.x * rows_per_block;
    const int last = min(first + rows_per_block, n);
    const int lane = threadIdx.x % V;
    for (int p = 0; p < P; p++) {
        const long long base = (long long)p * span + (long long)rank * slice;
        for (int i = threadIdx.x; i < slice; i += blockDim.x)
            sx[i] = base + i < n ? x[base + i] : 0;
        cluster.sync();
        const int c0 = p * span;
        for (int base = first + (int)threadIdx.x / 32 * (32 / V); base < last;
             base += (int)blockDim.x / 32 * (32 / V)) {
            const int row = base + ((int)threadIdx.x % 32) / V;
            u64 acc = 0;
            const int b = row < last ? pp[(long long)row * (P + 1) + p] : 0;
            const int e = row < last ? pp[(long long)row * (P + 1) + p + 1] : 0;
            for (int k = b + lane; k < e; k += V) {
                const int local = ci[k] - c0;
                const u64 *src = cluster.map_shared_rank(sx, local >> kSliceShift);
                acc ^= src[local & (slice - 1)];
            }
#pragma unroll
            for (int off = V / 2; off > 0; off >>= 1)
                acc ^= __shfl_down_sync(0xffffffffu, acc, off, V);
            if (lane == 0 && row < last) y[row] = p ? y[row] ^ acc : acc;
        }
        cluster.sync(); /* no block refills its slice while another still reads it */
    }
}

static float time_it(const std::function<void()> &f)
{
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    for (int i = 0; i < 3; i++) f();
    std::vector<float> t;
    for (int i = 0; i < 20; i++) {
        CK(cudaEventRecord(a));
        f();
        CK(cudaEventRecord(b));
        CK(cudaEventSynchronize(b));
        float ms;
        CK(cudaEventElapsedTime(&ms, a, b));
        t.push_back(ms);
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

template <int V>
static void run_dsm(int n, int cs, const std::vector<int> &rp, const std::vector<int> &ci_h,
                    const int *ci, const u64 *x, u64 *y, const std::vector<u64> &ref)
{
    const int slice = 1 << kSliceShift;
    const int P = (int)(((long long)n + (long long)cs * slice - 1) / ((long long)cs * slice));
    std::vector<int> pp((size_t)n * (P + 1));
    for (int r = 0; r < n; r++) {
        int k = rp[r];
        for (int p = 0; p <= P; p++) {
            const long long lim = (long long)p * cs * slice; /* first column of pass p */
            while (k < rp[r + 1] && ci_h[k] < lim) k++;
            pp[(size_t)r * (P + 1) + p] = p == P ? rp[r + 1] : k;
        }
    }
    int *dpp;
    CK(cudaMalloc(&dpp, pp.size() * sizeof(int)));
    CK(cudaMemcpy(dpp, pp.data(), pp.size() * sizeof(int), cudaMemcpyHostToDevice));
    const size_t smem = (size_t)slice * sizeof(u64);
    CK(cudaFuncSetAttribute(dsm_kernel<V>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    if (cs > 8) CK(cudaFuncSetAttribute(dsm_kernel<V>, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
    cudaLaunchConfig_t cfg = {};
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = cs, attr[0].val.clusterDim.y = 1, attr[0].val.clusterDim.z = 1;
    cfg.blockDim = dim3(kThreads);
    cfg.dynamicSmemBytes = smem;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    cfg.gridDim = dim3(cs * 64);
    int nclusters = 0;
    CK(cudaOccupancyMaxActiveClusters(&nclusters, dsm_kernel<V>, &cfg));
    if (nclusters == 0) {
        printf("dsm cs %2d V %2d: no cluster fits\n", cs, V);
        CK(cudaFree(dpp));
        return;
    }
    const int grid = nclusters * cs;
    const int rpb = (n + grid - 1) / grid;
    cfg.gridDim = dim3(grid);
    auto launch = [&] {
        CK(cudaLaunchKernelEx(&cfg, dsm_kernel<V>, n, P, rpb, (const int *)dpp, ci, x, y));
    };
    CK(cudaMemset(y, 0xab, (size_t)n * sizeof(u64)));
    launch();
    CK(cudaDeviceSynchronize());
    std::vector<u64> got(n);
    CK(cudaMemcpy(got.data(), y, (size_t)n * sizeof(u64), cudaMemcpyDeviceToHost));
    const bool same = got == ref;
    const float ms = time_it(launch);
    printf("dsm cs %2d V %2d: %d clusters, %d passes, %8.4f ms, %6.1f Gnnz/s %s\n", cs, V, nclusters,
           P, ms, (double)n * kWeight / ms / 1e6, same ? "same Y" : "WRONG Y");
    CK(cudaFree(dpp));
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    const int n = argc > 1 ? atoi(argv[1]) : 1000000;
    std::vector<int> rp(n + 1), ci((size_t)n * kWeight);
    u64 s = 0x9e3779b97f4a7c15ull;
    for (int r = 0; r < n; r++) {
        rp[r] = r * kWeight;
        for (int k = 0; k < kWeight; k++) {
            s ^= s << 13, s ^= s >> 7, s ^= s << 17;
            const double u = (double)(s >> 11) / 9007199254740992.0;
            ci[(size_t)r * kWeight + k] = std::min(n - 1, (int)(n * u * u * u));
        }
        std::sort(ci.begin() + (size_t)r * kWeight, ci.begin() + (size_t)(r + 1) * kWeight);
    }
    rp[n] = n * kWeight;
    std::vector<u64> xh(n);
    for (auto &v : xh) s ^= s << 13, s ^= s >> 7, s ^= s << 17, v = s;
    int *drp, *dci;
    u64 *dx, *dy;
    CK(cudaMalloc(&drp, rp.size() * sizeof(int)));
    CK(cudaMalloc(&dci, ci.size() * sizeof(int)));
    CK(cudaMalloc(&dx, (size_t)n * sizeof(u64)));
    CK(cudaMalloc(&dy, (size_t)n * sizeof(u64)));
    CK(cudaMemcpy(drp, rp.data(), rp.size() * sizeof(int), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dci, ci.data(), ci.size() * sizeof(int), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dx, xh.data(), (size_t)n * sizeof(u64), cudaMemcpyHostToDevice));
    std::vector<u64> ref(n);
    for (int r = 0; r < n; r++) {
        u64 a = 0;
        for (int k = rp[r]; k < rp[r + 1]; k++) a ^= xh[ci[k]];
        ref[r] = a;
    }
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    printf("%s, %d SMs; n %d, %d entries a row (nfs shape), W 64\n", prop.name,
           prop.multiProcessorCount, n, kWeight);
    auto csr = [&](auto vtag) {
        constexpr int V = decltype(vtag)::value;
        const unsigned grid = (unsigned)std::min<long long>((long long)n * V / 256 + 1, 1 << 20);
        auto launch = [&] { csr_kernel<V><<<grid, 256>>>(n, drp, dci, dx, dy); };
        CK(cudaMemset(dy, 0xab, (size_t)n * sizeof(u64)));
        launch();
        CK(cudaDeviceSynchronize());
        std::vector<u64> got(n);
        CK(cudaMemcpy(got.data(), dy, (size_t)n * sizeof(u64), cudaMemcpyDeviceToHost));
        const float ms = time_it(launch);
        printf("csr       V %2d: %8.4f ms, %6.1f Gnnz/s %s\n", V, ms, (double)n * kWeight / ms / 1e6,
               got == ref ? "same Y" : "WRONG Y");
    };
    csr(std::integral_constant<int, 8>());
    csr(std::integral_constant<int, 16>());
    csr(std::integral_constant<int, 32>());
    for (int cs : {2, 4, 8, 16}) {
        run_dsm<8>(n, cs, rp, ci, dci, dx, dy, ref);
        run_dsm<16>(n, cs, rp, ci, dci, dx, dy, ref);
        run_dsm<32>(n, cs, rp, ci, dci, dx, dy, ref);
    }
    return 0;
}
