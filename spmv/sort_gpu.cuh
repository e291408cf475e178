/*
 * sort_gpu.cuh - rows put in order by a key on the GPU, for the conversions that sort rows
 * (sell, suraa): perm[r] = the row at sorted position r, ascending in key, equal keys in
 * row order. The sort is stable and starts from the rows in order, so the order is the one
 * the host's comparison sort makes when its comparison ends on the row index: the same
 * permutation, not merely an equally valid one.
 *
 * CUB's radix sort (DeviceRadixSort::SortPairs, stable: an LSD sort) over only the key's
 * bits, on 32-bit keys when they fit: a longest row of 5 and 10^6 columns is 3 + 20 bits,
 * three 8-bit passes, where the merge sort this replaced made about log2(n / tile) passes
 * over 64-bit keys and most of SELL's and SURAA's setup. CUB's kernels are not held to
 * `make kernel-registers`' bound (its tuning chooses their registers); Spira's keys kernel is.
 * Header-only: the key is a functor of the row, inlined into the kernel that writes it.
 */
#ifndef SPIRA_SORT_GPU_CUH
#define SPIRA_SORT_GPU_CUH

#include "cuda/check.cuh"
#include "cuda/gateway.h"

#include <cub/device/device_radix_sort.cuh>

namespace spira_sort {
namespace { /* each including file its own kernels */

constexpr int kBlock = 256;
constexpr size_t kAlign = 256;

inline size_t aligned(size_t b) { return (b + kAlign - 1) / kAlign * kAlign; }

/* key[i] = key_of(i), row[i] = i */
template <typename K, typename KeyOf>
__global__ void __launch_bounds__(kBlock)
    keys_kernel(int n, KeyOf key_of, K *__restrict__ key, int *__restrict__ row)
{
    const unsigned stride = gridDim.x * blockDim.x;
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < (unsigned)n; i += stride) {
        key[i] = (K)key_of((int)i);
        row[i] = (int)i;
    }
}

__global__ void __launch_bounds__(kBlock) iota_kernel(int n, int *__restrict__ row)
{
    const unsigned stride = gridDim.x * blockDim.x;
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < (unsigned)n; i += stride)
        row[i] = (int)i;
}

/* The keys (K wide, bits of them used) and the rows in order made, then sorted by CUB in
 * its double-buffer form: the keys' two buffers and the rows' second in scratch, perm the
 * rows' first (the sorted rows copied there if they end in the second). 12 bytes an item
 * of scratch with 32-bit keys, where the form that keeps its input took 20: PageRank's
 * transpose sorts every entry of the matrix. */
template <typename K, typename KeyOf>
spira_status sort(spira_context ctx, int n, int bits, KeyOf key_of, int32_t *perm,
                  const char *what)
{
    cudaStream_t st = (cudaStream_t)spira__cuda_stream(ctx);
    cub::DoubleBuffer<K> keys(nullptr, nullptr);
    cub::DoubleBuffer<int> rows(nullptr, nullptr);
    size_t temp = 0;
    SPIRA__CUDA(ctx, cub::DeviceRadixSort::SortPairs(nullptr, temp, keys, rows, n, 0, bits, st));
    const size_t kb = aligned((size_t)n * sizeof(K)), rb = aligned((size_t)n * sizeof(int));
    void *s = NULL;
    SPIRA__TRY(spira__cuda_scratch_malloc(ctx, &s, 2 * kb + rb + temp, what));
    keys = cub::DoubleBuffer<K>((K *)s, (K *)((char *)s + kb));
    rows = cub::DoubleBuffer<int>(perm, (int *)((char *)s + 2 * kb));
    keys_kernel<K><<<spira__blocks(n, kBlock), kBlock, 0, st>>>(n, key_of, keys.Current(), perm);
    spira_status r = spira__cuda_status(ctx, cudaGetLastError(), "keys_kernel", __FILE__, __LINE__);
    if (r == SPIRA_OK)
        r = spira__cuda_status(ctx,
                               cub::DeviceRadixSort::SortPairs((char *)s + 2 * kb + rb, temp, keys,
                                                               rows, n, 0, bits, st),
                               "cub::DeviceRadixSort::SortPairs", __FILE__, __LINE__);
    if (r == SPIRA_OK && rows.Current() != perm)
        r = spira__cuda_status(ctx,
                               cudaMemcpyAsync(perm, rows.Current(), (size_t)n * sizeof(int),
                                               cudaMemcpyDeviceToDevice, st),
                               "cudaMemcpyAsync", __FILE__, __LINE__);
    spira__cuda_scratch_free(ctx, s); /* in stream order: after the sort */
    return r;
}

/* A sort of 2^14 zero keys of width K on stream st, its errors dropped: loads the kernels
 * of CUB's radix sort that a large sort runs (this module's own instances). */
template <typename K>
void warm_width(cudaStream_t st)
{
    const int n = 1 << 14;
    cub::DoubleBuffer<K> keys(nullptr, nullptr);
    cub::DoubleBuffer<int> rows(nullptr, nullptr);
    size_t temp = 0;
    const int bits = 8 * (int)sizeof(K);
    if (cub::DeviceRadixSort::SortPairs(nullptr, temp, keys, rows, n, 0, bits, st) != cudaSuccess)
        return;
    const size_t kb = aligned((size_t)n * sizeof(K)), rb = aligned((size_t)n * sizeof(int));
    void *s = NULL;
    if (cudaMallocAsync(&s, 2 * kb + 2 * rb + temp, st) != cudaSuccess) return;
    if (cudaMemsetAsync(s, 0, 2 * kb + 2 * rb, st) == cudaSuccess) {
        keys = cub::DoubleBuffer<K>((K *)s, (K *)((char *)s + kb));
        rows = cub::DoubleBuffer<int>((int *)((char *)s + 2 * kb),
                                      (int *)((char *)s + 2 * kb + rb));
        cub::DeviceRadixSort::SortPairs((char *)s + 2 * kb + 2 * rb, temp, keys, rows, n, 0,
                                        bits, st);
    }
    cudaFreeAsync(s, st);
}

} // namespace
} // namespace spira_sort

/* For lib/cuda/preload.cu's thread (SPIRA__MODULE_SORT_WARM): the kernels given loaded,
 * then a real sort of each key width on a stream of its own, waited for. A module's first
 * sort otherwise waits about 1.5-1.8 ms on the H100 while CUB's sort kernels load (the most
 * of SURAA's and SELL's first conversion, bench/results/2026-11-27-session19 call 4);
 * loading the module alone does not load them. Device memory: about 0.5 MB from the
 * stream-ordered pool, given back before it returns; errors are nobody's (a kernel not
 * loaded now loads at its first launch). */
inline void spira__sort_warm(const void *const *kernels, int nkernels)
{
    for (int i = 0; i < nkernels; i++) { /* the attributes need the code: it loads */
        cudaFuncAttributes attr;
        if (cudaFuncGetAttributes(&attr, kernels[i]) != cudaSuccess) cudaGetLastError();
    }
    cudaStream_t st;
    if (cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking) != cudaSuccess) {
        cudaGetLastError();
        return;
    }
    spira_sort::warm_width<unsigned>(st);
    spira_sort::warm_width<unsigned long long>(st);
    cudaStreamSynchronize(st);
    cudaStreamDestroy(st);
    cudaGetLastError();
}

/* extern "C" void spira__module_warm_NAME(void), for preload.cu: this file's key kernels
 * (KeyOf, both widths) and the other kernels listed (their addresses) loaded, its sorts
 * warmed. Each kernel's own code loads at its first launch even in a loaded module, which
 * took up to 1.3 ms for SURAA's key kernel (session 19, call 7). */
#define SPIRA__MODULE_SORT_WARM(name, KeyOf, ...)                                          \
    extern "C" void spira__module_warm_##name(void)                                        \
    {                                                                                      \
        const void *const kernels[] = {                                                    \
            (const void *)spira_sort::keys_kernel<unsigned, KeyOf>,                        \
            (const void *)spira_sort::keys_kernel<unsigned long long, KeyOf>, __VA_ARGS__}; \
        spira__sort_warm(kernels, (int)(sizeof kernels / sizeof *kernels));                \
    }

/* perm[r], r < n: the rows 0..n-1 sorted by key_of(row) (an unsigned value below 2^bits,
 * bits <= 64; KeyOf a device-callable functor), ascending, ties in row order. bits 0 (one
 * key for all): the identity, without sorting. On the context's stream, no wait; scratch
 * stream-ordered. */
template <typename KeyOf>
spira_status spira__sort_rows(spira_context ctx, int32_t n, int bits, KeyOf key_of,
                              int32_t *perm, const char *what)
{
    if (n <= 0) return SPIRA_OK;
    if (bits <= 0) {
        cudaStream_t st = (cudaStream_t)spira__cuda_stream(ctx);
        spira_sort::iota_kernel<<<spira__blocks(n, spira_sort::kBlock), spira_sort::kBlock, 0,
                                  st>>>(n, perm);
        SPIRA__LAUNCHED(ctx);
        return SPIRA_OK;
    }
    if (bits <= 32) return spira_sort::sort<unsigned>(ctx, n, bits, key_of, perm, what);
    return spira_sort::sort<unsigned long long>(ctx, n, bits, key_of, perm, what);
}

/* The bits an unsigned value up to v needs (0 for 0). */
static inline int spira__bits_for(unsigned long long v)
{
    int b = 0;
    while (v) b++, v >>= 1;
    return b;
}

#endif
