/*
 * ilu.h - the incomplete LU factor shared by the host code (ilu.c: ILU(0), the cache and
 * the host applies; ilut.c: ILUT) and the CUDA applies (ilu_gpu.cu): exact triangular
 * solves, or Jacobi sweeps approximating them.
 */
#ifndef SPIRA_ILU_H
#define SPIRA_ILU_H

#include "spira_impl.h"

#ifdef __cplusplus
extern "C" {
#endif

/* P A ~ L U with L unit lower and U upper triangular. */
typedef struct {
    spira_context ctx;
    spira__csr lu;  /* L's strictly lower part and U in one CSR, in A's dtype; ILU(0):
                       P A's pattern, ILUT: its own */
    int32_t *perm;  /* row j of P A is row perm[j] of A; NULL when P = I */
    int32_t *diag;  /* position of (j, j) in lu */
    void *dev;      /* device parts: the exact solves' factor and cuSPARSE plans, the sweeps'
                       triangles (ilu_gpu.cu); NULL on the CPU */
    double shift;   /* ILU(0): alpha when it factors P (A + alpha diag(A)); 0 if unshifted */
    int ic;         /* IC(0): ILU(0) of a symmetric A with a positive diagonal, P = I, so
                       U = D L^T to rounding and every pivot is > 0 */
} spira__ilu_factor;

/* ILUT(tau, fill) of P A (ilut.c): fills f->lu and f->diag from A and f->perm. With dr
 * and dc (else NULL) the dropping works on Dr A Dc (rows of A scaled by dr, columns by dc)
 * and the factor is scaled back, so M still approximates P A. */
spira_status spira__ilut_factor(spira_context ctx, const spira__csr *A, double tau, double fill,
                                const double *dr, const double *dc, spira__ilu_factor *f);

/* The factor an ILU(0) or ILUT preconditioner applies (owned by its matrix's cache); NULL
 * for another type. For the tests. */
struct spira__precond;
spira__ilu_factor *spira__ilu_of(struct spira__precond *M);

/* The strict lower and strict upper triangles of f->lu as CSRs of their own (rows of the
 * lower one: P A's; an empty row where a triangle has none) and U's diagonal (n values of
 * lu's dtype): the arrays the Jacobi sweeps read (ilu_gpu.cu uploads them). Host arrays
 * through spira__alloc; on failure nothing is left allocated. */
spira_status spira__ilu_split(const spira__ilu_factor *f, spira__csr *lower, spira__csr *upper,
                              void **diag);

/* The CUDA side (ilu_gpu.cu; ilu_stub.c in a build without CUDA, where setup and apply
 * return SPIRA_ERR_UNSUPPORTED and are never reached). Setup makes what an apply with
 * `sweeps` Jacobi sweeps a triangular solve needs, once per factor (f->dev keeps it):
 * 0, the exact solves (the factor on the device, both cuSPARSE analyses); K >= 1, the
 * strict triangles and U's diagonal. Each part is made on first use; a part whose setup
 * fails is freed whole, and the parts made before stay (other preconditioners on the same
 * cached factor use them). The caller destroys f when it owns it. */
spira_status spira__ilu_dev_setup(spira__ilu_factor *f, int sweeps);
/* z <- U^-1 L^-1 P r on the device, exactly (r and z device vectors of f's dtype, length
 * n; they may be the same vector). */
spira_status spira__ilu_dev_apply(spira__ilu_factor *f, const void *r, void *z);
/* Which kernels run the sweeps: AUTO picks by size; the others are for the tests. */
typedef enum {
    SPIRA__SWEEPS_AUTO = 0,
    SPIRA__SWEEPS_ONE_BLOCK, /* one launch, one thread block, a barrier between sweeps */
    SPIRA__SWEEPS_PER_SWEEP  /* one launch a sweep over the whole GPU */
} spira__sweeps_path;
/* z <- the approximate U^-1 L^-1 P r of `sweeps` (>= 1) Jacobi sweeps a triangular solve
 * (ilu.c's header has the iteration), after spira__ilu_dev_setup(f, sweeps). */
spira_status spira__ilu_dev_sweeps(spira__ilu_factor *f, int sweeps, spira__sweeps_path path,
                                   const void *r, void *z);
void spira__ilu_dev_destroy(spira__ilu_factor *f);

#ifdef __cplusplus
}
#endif
#endif
