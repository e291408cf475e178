/*
 * precond.h - preconditioners as an ops table: z <- M^-1 r. Built once per solve from the
 * matrix (setup is timed and reported beside the SpMV setup), applied every iteration.
 */
#ifndef SPIRA_PRECOND_H
#define SPIRA_PRECOND_H

#include "spira_impl.h"

typedef struct spira__precond {
    const char *name;
    spira_status (*apply)(struct spira__precond *self, spira_vector r, spira_vector z);
    void (*destroy)(struct spira__precond *self);
    spira_vector v; /* a vector the type needs (Jacobi: 1 / diag(A)) */
    /* NULL when M is symmetric for symmetric A; else why not (CG refuses it) */
    const char *unsymmetric;
} spira__precond;

/* A(i,i) of canonical CSR c, 0 when it is not stored. */
double spira__diagonal_entry(const spira__csr *c, int32_t i);

/* 1 / diag(A) on the host (Jacobi preconditioner and Jacobi iteration). */
spira_status spira__inverse_diagonal(spira_matrix A, double **out);

/* 1 / diag(A) as a vector where A's context computes. */
spira_status spira__inverse_diagonal_vector(spira_matrix A, spira_vector *out);

/* Build preconditioner `type` for A with o's parameters (precond_degree, precond_drop_tol,
 * precond_fill; 0 = default); SPIRA_ERR_INVALID_ARG for an unknown type or a bad one. */
spira_status spira__precond_create(spira_precond_type type, const spira_solve_opts *o,
                                   spira_matrix A, spira__precond **out);
/* The Jacobi-scaled Neumann series of the given degree (neumann.c). */
spira_status spira__neumann_create(spira_matrix A, int degree, spira__precond **out);
/* ILU(0) or ILUT(tau, fill) (0: defaults), with a row permutation when A has zero diagonal
 * entries (ilu.c); the factor is cached in A. */
spira_status spira__ilu_create(spira_matrix A, spira_precond_type type, double tau, double fill,
                               spira__precond **out);
void spira__precond_destroy(spira__precond *p);

#endif
