/*
 * gf2_inner.cu - block Wiedemann's block operations on the GPU (see lib/gf2_inner.h):
 *   inner_kernel: out ^= X^T Z, a W x W bit matrix (W = 64 words). Each thread owns output
 *     words (row r of X's lanes, word w of Z's) and XORs z_k[w] into them for the rows k
 *     whose x_k has bit r: a reduction of per-row outer products. A block stages a tile of
 *     256 rows of X and Z in shared memory with coalesced loads (a row at a time from
 *     global memory left the kernel waiting on one load after another), then its threads
 *     read the tile's rows as shared-memory broadcasts. For W = 64 the 64 output words
 *     leave a 256-thread block four groups, each on its own rows of the tile, combined in
 *     shared memory; every block then XORs its words into out with atomics.
 *   mul_kernel: Y ^= X S, a thread a row, S (64 wi x wo words, at most 8 KiB) in shared
 *     memory, bit b of the row selecting row b of S by a mask, no branch.
 * XOR is exact and associative, so the atomics' order does not change the bits.
 */
#include "gf2_inner.h"
#include "cuda/check.cuh"
#include "cuda/gateway.h"

namespace {

typedef unsigned long long u64;
constexpr int kBlock = 256;

template <int WORDS>
__global__ void __launch_bounds__(kBlock) inner_kernel(int n, const u64 *__restrict__ x,
                                                       const u64 *__restrict__ z, u64 *out)
{
    constexpr int OUT = 64 * WORDS * WORDS;                  /* output words: 64, 256, 1024 */
    constexpr int PER = OUT > kBlock ? OUT / kBlock : 1;     /* a thread's words: 1, 1, 4 */
    constexpr int GROUPS = OUT < kBlock ? kBlock / OUT : 1;  /* row groups a block: 4, 1, 1 */
    constexpr int G = kBlock / GROUPS;                       /* threads a group */
    constexpr int TILE = kBlock;                             /* rows staged at a time */
    __shared__ u64 xs[TILE * WORDS], zs[TILE * WORDS];
    __shared__ u64 part[GROUPS > 1 ? kBlock : 1];
    const int q = threadIdx.x % G, g = threadIdx.x / G;
    u64 acc[PER];
    int r[PER], w[PER];
    for (int p = 0; p < PER; p++) {
        const int o = q + p * G;
        acc[p] = 0, r[p] = o / WORDS, w[p] = o % WORDS;
    }
    for (long long base = (long long)blockIdx.x * TILE; base < n;
         base += (long long)gridDim.x * TILE) {
        /* the tile's rows of X and Z, coalesced; rows past n are zero and add nothing */
        const long long words = ((long long)n - base < TILE ? (long long)n - base : TILE) * WORDS;
        for (int i = threadIdx.x; i < TILE * WORDS; i += kBlock) {
            xs[i] = i < words ? x[base * WORDS + i] : 0ull;
            zs[i] = i < words ? z[base * WORDS + i] : 0ull;
        }
        __syncthreads();
        for (int k = g; k < TILE; k += GROUPS) {
            const u64 *xk = xs + k * WORDS, *zk = zs + k * WORDS;
            for (int p = 0; p < PER; p++) {
                const u64 m = 0ull - (xk[r[p] / 64] >> (r[p] % 64) & 1ull);
                acc[p] ^= zk[w[p]] & m;
            }
        }
        __syncthreads();
    }
    if (GROUPS > 1) {
        part[threadIdx.x] = acc[0];
        __syncthreads();
        if (g != 0) return;
        for (int h = 1; h < GROUPS; h++) acc[0] ^= part[q + h * G];
    }
    for (int p = 0; p < PER; p++)
        if (acc[p]) atomicXor(out + q + p * G, acc[p]);
}

template <int WI, int WO>
__global__ void __launch_bounds__(kBlock) mul_kernel(int n, const u64 *__restrict__ x,
                                                     const u64 *__restrict__ S, u64 *y)
{
    __shared__ u64 s[64 * WI * WO];
    for (int i = threadIdx.x; i < 64 * WI * WO; i += kBlock) s[i] = S[i];
    __syncthreads();
    for (long long k = (long long)blockIdx.x * kBlock + threadIdx.x; k < n;
         k += (long long)gridDim.x * kBlock) {
        u64 acc[WO] = {};
        for (int a = 0; a < WI; a++) {
            const u64 v = x[k * WI + a];
#pragma unroll 8 /* fully unrolled, S's 64 rows went to registers: 150-255 of them */
            for (int b = 0; b < 64; b++) {
                const u64 m = 0ull - (v >> b & 1ull);
                for (int o = 0; o < WO; o++) acc[o] ^= s[(a * 64 + b) * WO + o] & m;
            }
        }
        for (int o = 0; o < WO; o++) y[k * WO + o] ^= acc[o];
    }
}

unsigned grid(long long rows, int rows_a_block, unsigned cap)
{
    unsigned g = spira__blocks(rows, rows_a_block);
    return g > cap ? cap : g;
}

template <int WI>
void launch_mul(int wo, unsigned g, cudaStream_t st, int n, const u64 *x, const u64 *S, u64 *y)
{
    if (wo == 1) mul_kernel<WI, 1><<<g, kBlock, 0, st>>>(n, x, S, y);
    else if (wo == 2) mul_kernel<WI, 2><<<g, kBlock, 0, st>>>(n, x, S, y);
    else mul_kernel<WI, 4><<<g, kBlock, 0, st>>>(n, x, S, y);
}

} // namespace

extern "C" spira_status spira__cuda_gf2_inner_into(spira_context ctx, int32_t n, int words,
                                                   const uint64_t *x, const uint64_t *z,
                                                   uint64_t *dout)
{
    if (n == 0) return SPIRA_OK;
    cudaStream_t st = (cudaStream_t)spira__cuda_stream(ctx);
    const u64 *dx = (const u64 *)x, *dz = (const u64 *)z;
    /* a few blocks an SM, each over many tiles: the final atomics stay few */
    const unsigned g = grid(n, kBlock, 528);
    if (words == 1) inner_kernel<1><<<g, kBlock, 0, st>>>(n, dx, dz, (u64 *)dout);
    else if (words == 2) inner_kernel<2><<<g, kBlock, 0, st>>>(n, dx, dz, (u64 *)dout);
    else inner_kernel<4><<<g, kBlock, 0, st>>>(n, dx, dz, (u64 *)dout);
    SPIRA__LAUNCHED(ctx);
    return SPIRA_OK;
}

extern "C" spira_status spira__cuda_gf2_mul_small(spira_context ctx, int32_t n, int wi, int wo,
                                                  const uint64_t *x, const uint64_t *dS,
                                                  uint64_t *y)
{
    if (n == 0) return SPIRA_OK;
    cudaStream_t st = (cudaStream_t)spira__cuda_stream(ctx);
    const unsigned g = grid(n, kBlock, 2048);
    const u64 *dx = (const u64 *)x, *S = (const u64 *)dS;
    if (wi == 1) launch_mul<1>(wo, g, st, n, dx, S, (u64 *)y);
    else if (wi == 2) launch_mul<2>(wo, g, st, n, dx, S, (u64 *)y);
    else launch_mul<4>(wo, g, st, n, dx, S, (u64 *)y);
    SPIRA__LAUNCHED(ctx);
    return SPIRA_OK;
}
