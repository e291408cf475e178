/*
 * precond.h - preconditioners as an ops table: z <- M^-1 r. Built once per solve (or per
 * solver handle) from the matrix (setup is timed and reported beside the SpMV setup),
 * applied every iteration. precond.c is the registry: one row per spira_precond_type;
 * each type's file exports its ops (jacobi.c: none and jacobi; neumann.c; ilu.c: ilu0 and
 * ilut); common.c has what they share.
 */
#ifndef SPIRA_PRECOND_H
#define SPIRA_PRECOND_H

#include "spira_impl.h"

struct spira__precond;

typedef struct spira__precond_ops {
    spira_precond_type type;
    const char *name;
    /* apply is z <- r: solvers use r itself and need no vector for z */
    int is_identity;
    /* Build M for A with o's parameters (precond_degree, precond_drop_tol, precond_fill,
     * trisolve_sweeps; 0 = default); *out is NULL on failure and nothing is left allocated. */
    spira_status (*create)(const struct spira__precond_ops *ops, spira_matrix A,
                           const spira_solve_opts *o, struct spira__precond **out);
    spira_status (*apply)(struct spira__precond *self, spira_vector r, spira_vector z);
    /* What the type allocated beyond the base (NULL: nothing); the base frees itself. */
    void (*destroy)(struct spira__precond *self);
} spira__precond_ops;

/* The base every type's struct starts with. */
typedef struct spira__precond {
    const spira__precond_ops *ops;
    spira_vector v; /* a vector the type needs (Jacobi: 1 / diag(A)) */
    /* NULL when M is symmetric for symmetric A; else why not (CG refuses it) */
    const char *unsymmetric;
    /* ILU(0): alpha when M is the factor of A + alpha diag(A) (spira_solve_info's
     * precond_shift); 0 otherwise */
    double shift;
    /* ILU(0)/ILUT: the Jacobi sweeps replacing each triangular solve (spira_solve_info's
     * trisolve_sweeps); 0: exact solves, or none */
    int sweeps;
    /* ILU(0)/ILUT: 1 when approximate inverses replace the triangular solves (spira_solve_
     * info's trisolve) */
    int isai;
} spira__precond;

extern const spira__precond_ops spira__precond_none, spira__precond_jacobi,
    spira__precond_neumann, spira__precond_ilu0, spira__precond_ilut;

/* ---- the registry (precond.c) ---- */

/* Build preconditioner `type` for A; SPIRA_ERR_INVALID_ARG for an unknown type or a bad
 * parameter. */
spira_status spira__precond_create(spira_precond_type type, const spira_solve_opts *o,
                                   spira_matrix A, spira__precond **out);

/* ---- shared by the types (common.c) ---- */

/* z <- M^-1 r */
spira_status spira__precond_apply(spira__precond *M, spira_vector r, spira_vector z);
/* NULL is fine. */
void spira__precond_destroy(spira__precond *p);
/* A zeroed preconditioner of `size` bytes (the type's struct, which starts with the base)
 * with ops set; SPIRA_ERR_NOMEM otherwise. */
spira_status spira__precond_alloc(spira_context ctx, const spira__precond_ops *ops, size_t size,
                                  spira__precond **out);

/* A(i,i) of canonical CSR c, 0 when it is not stored. */
double spira__diagonal_entry(const spira__csr *c, int32_t i);
/* 1 / diag(A) as a vector where A's context computes; a zero or non-finite diagonal
 * entry is refused naming its row. */
spira_status spira__inverse_diagonal_vector(spira_matrix A, spira_vector *out);

#endif
