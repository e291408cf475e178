/*
 * cg_sums.cuh - the sums kernel of CG's graph (cg_graph.c), for the .cu files that launch
 * it: cg_kernels_gpu.cu (one process; a distributed solve whose sum over the ranks is an
 * ncclAllReduce between kernels) and dist/nccl.cu (a distributed solve whose sum over the
 * ranks is made inside this kernel, by NCCL's device API). One kernel for all, so that
 * every path sums, adds and steps with the same expressions, bit for bit.
 *
 * The kernel: spira__dots's pairs (r, r), (w, z) and, with Jacobi, (r, z), reduced as
 * spira__dots does (reduce.cuh), a distributed SpMV's deferred add made on the way
 * (row_add_at); then in the last block's thread 0 the sum over the ranks (the Ranks
 * functor: nothing in one process) and, with STEP, the iteration's scalar work (cg_step.h).
 */
#ifndef SPIRA_CG_SUMS_CUH
#define SPIRA_CG_SUMS_CUH

#include "cg_step.h"
#include "cuda/reduce.cuh"

/* A distributed SpMV's deferred add (spira__row_add) into w at row i, made by the thread
 * that then reads w[i] for the sums: the word of the bitmap is the same for a warp's 32
 * rows, so the bitmap costs a broadcast load a warp. */
template <typename T> struct spira__row_add_at {
    const uint32_t *bits;
    const int32_t *base;
    const T *t;
    T *w;
    int lo, hi;
    __device__ __forceinline__ void operator()(int i) const
    {
        if (i < lo || i >= hi) return;
        const uint32_t word = bits[i >> 5], bit = 1u << (i & 31);
        if (word & bit) w[i] += t[base[i >> 5] + __popc(word & (bit - 1))];
    }
};

/* The sums of one process: nothing to add over ranks. */
struct spira__one_rank {
    __device__ __forceinline__ void operator()(double *, int) const {}
};

template <typename T, int K, bool STEP, typename Pre, typename Ranks>
__global__ void __launch_bounds__(SPIRA__REDUCE_THREADS)
spira__cg_sums_kernel(int n, spira__dot_pairs<T> a, spira__reduce_scratch *sc,
                      spira__cg_dev *g, Pre pre, Ranks ranks)
{
    if (g->stop) return; /* every block: the counter in sc stays at 0 */
    double sum[K];
    spira__dot_partials<T, K>(n, a, sum, pre);
    if (spira__grid_sums(sum, sc) && threadIdx.x == 0) {
        ranks(sc->out, K);
        if (STEP) spira__cg_step(g, sc->out, K == 3);
    }
}

template <typename T, bool STEP, typename Pre, typename Ranks>
static void spira__cg_sums_pairs(int n, cudaStream_t st, const void *r, const void *w,
                                 const void *z, int with_dinv, spira__reduce_scratch *sc,
                                 spira__cg_dev *g, Pre pre, Ranks ranks)
{
    /* spira__dots's pairs in cg.c: (r, r), (w, z), (r, z) */
    spira__dot_pairs<T> a = {};
    a.x[0] = (const T *)r, a.y[0] = (const T *)r;
    a.x[1] = (const T *)w, a.y[1] = (const T *)z;
    a.x[2] = (const T *)r, a.y[2] = (const T *)z;
    /* a rank that owns no rows still takes part in the sum over the ranks: one block */
    const unsigned b = n > 0 ? spira__reduce_blocks(n) : 1;
    if (with_dinv)
        spira__cg_sums_kernel<T, 3, STEP>
            <<<b, SPIRA__REDUCE_THREADS, 0, st>>>(n, a, sc, g, pre, ranks);
    else
        spira__cg_sums_kernel<T, 2, STEP>
            <<<b, SPIRA__REDUCE_THREADS, 0, st>>>(n, a, sc, g, pre, ranks);
}

/* The kernel on the context's stream, with add (NULL or no bits: none) made on the way. */
template <typename T, bool STEP, typename Ranks>
static void spira__cg_sums_launch(int n, cudaStream_t st, const void *r, void *w, const void *z,
                                  int with_dinv, const spira__row_add *add,
                                  spira__reduce_scratch *sc, spira__cg_dev *g, Ranks ranks)
{
    if (add && add->bits) {
        const spira__row_add_at<T> pre = {add->bits, add->base, (const T *)add->t, (T *)w,
                                          add->lo, add->hi};
        spira__cg_sums_pairs<T, STEP>(n, st, r, w, z, with_dinv, sc, g, pre, ranks);
    } else {
        spira__cg_sums_pairs<T, STEP>(n, st, r, w, z, with_dinv, sc, g, spira__no_pre(), ranks);
    }
}

#endif
