/*
 * gf2_blas.cu - what Wiedemann's algorithm does to 64-bit GF(2) blocks besides the multiply
 * (see the gateway): y ^= x & mask, and two reductions over the rows, XOR of x & y (the 64
 * lane-wise inner products) and OR of x (which lanes are nonzero). The reductions combine a
 * block's warps by shuffles and the blocks by one atomic on the result word; XOR and OR
 * are exact, so the order does not change the bits.
 */
#include "cuda/gateway.h"
#include "cuda/check.cuh"

namespace {

typedef unsigned long long u64;
constexpr int kBlock = 256;

__global__ void xor_masked_kernel(int n, const u64 *__restrict__ x, u64 mask, u64 *__restrict__ y)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        y[i] ^= x[i] & mask;
}

/* *out ^= XOR_i (x[i] & y[i]) (OR_ = 0), or *out |= OR_i x[i] (OR_ = 1; y unused) */
template <bool OR_>
__global__ void reduce_kernel(int n, const u64 *__restrict__ x, const u64 *__restrict__ y,
                              u64 *out)
{
    u64 acc = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        acc = OR_ ? acc | x[i] : acc ^ (x[i] & y[i]);
    for (int off = 16; off > 0; off >>= 1) {
        const u64 o = __shfl_down_sync(0xffffffffu, acc, off);
        acc = OR_ ? acc | o : acc ^ o;
    }
    if ((threadIdx.x & 31) == 0 && acc) {
        if (OR_) atomicOr(out, acc);
        else atomicXor(out, acc);
    }
}

unsigned grid(int n)
{
    /* enough blocks to fill the GPU, few enough that the atomics stay cheap */
    unsigned g = spira__blocks(n, kBlock);
    return g > 1024 ? 1024 : g;
}

} // namespace

extern "C" spira_status spira__cuda_gf2_xor_masked(spira_context ctx, int32_t n, const uint64_t *x,
                                                   uint64_t mask, uint64_t *y)
{
    if (n == 0) return SPIRA_OK;
    xor_masked_kernel<<<grid(n), kBlock, 0, (cudaStream_t)spira__cuda_stream(ctx)>>>(
        n, (const u64 *)x, mask, (u64 *)y);
    SPIRA__LAUNCHED(ctx);
    return SPIRA_OK;
}

extern "C" spira_status spira__cuda_gf2_dot_into(spira_context ctx, int32_t n, const uint64_t *x,
                                                 const uint64_t *y, uint64_t *dout)
{
    if (n == 0) return SPIRA_OK;
    reduce_kernel<false><<<grid(n), kBlock, 0, (cudaStream_t)spira__cuda_stream(ctx)>>>(
        n, (const u64 *)x, (const u64 *)y, (u64 *)dout);
    SPIRA__LAUNCHED(ctx);
    return SPIRA_OK;
}

extern "C" spira_status spira__cuda_gf2_or_into(spira_context ctx, int32_t n, const uint64_t *x,
                                                uint64_t *dout)
{
    if (n == 0) return SPIRA_OK;
    reduce_kernel<true><<<grid(n), kBlock, 0, (cudaStream_t)spira__cuda_stream(ctx)>>>(
        n, (const u64 *)x, nullptr, (u64 *)dout);
    SPIRA__LAUNCHED(ctx);
    return SPIRA_OK;
}
