/*
 * gf2_bw.h - block Wiedemann over GF(2) (Coppersmith 1994) with m = n = 64: the pieces
 * behind spira_gf2_krylov_sequence (gf2_krylov.c), the matrix Berlekamp-Massey
 * (gf2_matrix_bm.c) and the kernel search on top of them (gf2_block_wiedemann.c); and the
 * walk, checks and start both kernel searches share (gf2_walk.c).
 */
#ifndef SPIRA_SOLVERS_GF2_BW_H
#define SPIRA_SOLVERS_GF2_BW_H

#include "spira_impl.h"

/* y = [M; 0] x on blocks of ncols(M) rows of `words` words, where the context computes: the
 * rows of y past nrows(M) are zeroed, so a wide M acts as a square one padded with zero
 * rows (M's Krylov space). x and y are different buffers. */
spira_status spira__gf2_square_spmv(spira_gf2_matrix M, spira_context ctx, int words,
                                    const uint64_t *x, uint64_t *y);

/* The generator of a sequence of 64 x 64 bit matrices a_0 .. a_(L-1) (a_i = X^T B^i Y: row
 * r's word, bit c, as spira_gf2_krylov_sequence returns them): a minimal approximant basis
 * of [A(x) | I] (A = sum a_i x^i) to order x^L, by the iterative sigma-basis algorithm
 * (Beckermann-Labahn; Giorgi, Jeannerod and Villard's M-Basis; the quadratic base case of
 * Thome's lingen). Each of its 128 columns (g_j, r_j) has A g_j + r_j = 0 mod x^L with
 * deg g_j <= delta_j and deg r_j < delta_j; so c_k = coefficient delta_j - k of g_j gives
 * sum_k a_(i+k) c_k = 0 for i = 0 .. L - 1 - delta_j: the vector sum_k B^k Y c_k is
 * orthogonal to X^T B^i for L - delta_j values of i. The 64 columns of least delta hold the
 * sequence's minimal generator, degree about N/64. */
typedef struct {
    int64_t L;           /* orders x^0 .. x^(L-1) matched */
    int64_t cap;         /* coefficients stored a column: L + 2 (delta grows one a step) */
    int64_t delta[128];  /* the columns' shifted degrees */
    uint64_t *g;         /* g[j * cap + t]: coefficient x^t of g_j, bit b for Y's lane b */
} spira__gf2_generator;

/* O(L^2) word operations (about 2300 L^2 while all 128 columns are live), the sum over
 * orders parallel (OpenMP); the result the same bits for any thread count. */
spira_status spira__gf2_matrix_bm(spira_context ctx, const uint64_t *a, int64_t L,
                                  spira__gf2_generator *G);
void spira__gf2_generator_free(spira__gf2_generator *G);

/* spira_gf2_kernel with method SPIRA_GF2_KERNEL_BLOCK (its checks made by the caller). */
spira_status spira__gf2_kernel_block(spira_gf2_matrix M, spira_gf2_block K,
                                     const spira_gf2_kernel_opts *opts,
                                     spira_gf2_kernel_info *info);


/* ---- what both kernel searches share (gf2_walk.c) ---- */
/* A search's multiplies on 64-bit blocks of n = ncols(M) rows where ctx computes: M, the
 * multiplies made, one word of scratch there (the caller's to allocate and free). */
typedef struct {
    spira_gf2_matrix M;
    spira_context ctx;
    int32_t n;
    int64_t spmvs;
    uint64_t *word;
} spira__gf2_walk;
/* y = [M; 0] x (spira__gf2_square_spmv), counted. */
spira_status spira__gf2_walk_mul(spira__gf2_walk *w, const uint64_t *x, uint64_t *y);
/* *out = the lanes in which x is not zero: an OR over its n words, then a wait on the GPU. */
spira_status spira__gf2_walk_lanes(spira__gf2_walk *w, const uint64_t *x, uint64_t *out);
/* u, M u, M^2 u, ... for at most steps multiplies, on the given lanes: a lane whose vector
 * is nonzero and whose image is zero puts that vector into K (zero there on entry) and its
 * bit into *found. u, a and b are n-word blocks, all three overwritten. */
spira_status spira__gf2_walk_catch(spira__gf2_walk *w, uint64_t lanes, int64_t steps,
                                   uint64_t *u, uint64_t *a, uint64_t *b, uint64_t *K,
                                   uint64_t *found);
/* M K must be 0 on the found lanes: a lane that is not (there should be none) leaves K and
 * *found. scratch: an n-word block. */
spira_status spira__gf2_walk_verify(spira__gf2_walk *w, uint64_t *K, uint64_t *scratch,
                                    uint64_t *found);
/* n words of a fixed-seed xorshift (seed 0: a constant) uploaded to d0, the next n to d1;
 * what names the host buffer in an allocation failure. */
spira_status spira__gf2_random_pair(spira_context ctx, int32_t n, uint64_t seed, uint64_t *d0,
                                    uint64_t *d1, const char *what);
/* Both searches' end: info from *out with found's lanes, the multiplies and the phases'
 * times (t: start, sequence done, Berlekamp-Massey done); NOT_CONVERGED when found is 0,
 * the sentence "GF(2) kernel: <none> <out->degree>): M may be nonsingular; ...". */
spira_status spira__gf2_kernel_done(spira_context ctx, spira_gf2_kernel_info *out, uint64_t found,
                                    int64_t spmvs, const double t[3], spira_gf2_kernel_info *info,
                                    const char *none);

#endif
