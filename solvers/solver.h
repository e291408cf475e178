/*
 * solver.h - what every solver gets from the dispatcher (solve.c): the operator, the
 * preconditioner, resolved options, and the shared convergence test. Solvers call only
 * these and lib/'s BLAS-1, so they run unchanged on any backend and any SpMV format.
 */
#ifndef SPIRA_SOLVER_H
#define SPIRA_SOLVER_H

#include "spira_impl.h"
#include "spmv.h"
#include "precond.h"

typedef struct {
    spira_context ctx;
    spira_matrix A;
    spira__spmv_plan *plan;
    spira__precond *M;
    spira_solve_opts o;     /* defaults filled in */
    double bnorm;           /* ||b||, > 0 */
    spira_solve_info *info; /* never NULL inside a solver */
    int it0;                /* iterations of earlier rounds (see spira_solve's restarts) */
} spira__solve_env;

/* y <- alpha A x + beta y */
spira_status spira__op(spira__solve_env *e, double alpha, spira_vector x, double beta,
                       spira_vector y);
/* Record ||r_it|| (history, monitor, recurrence residual; `it` counts within this round,
 * it0 is added). Returns 1 when the solver must stop, with info->reason set: converged,
 * non-finite residual, or the monitor said stop. */
int spira__check(spira__solve_env *e, int it, double rnorm);
/* A residual norm within the tolerance: rtol ||b||, or atol when set. */
int spira__meets_tolerance(const spira__solve_env *e, double rnorm);
/* Stop for breakdown: sets the reason and the message naming the quantity. */
spira_status spira__breakdown(spira__solve_env *e, int it, const char *what, double value);
/* Vectors like b for a solver's workspace, all or nothing (NULL-terminated list). */
spira_status spira__workspace(spira__solve_env *e, spira_vector *first, ...);
void spira__workspace_free(spira_vector *first, ...);

/* The solvers: iterate from x (already the initial guess) until done. */
spira_status spira__cg(spira__solve_env *e, spira_vector b, spira_vector x);
spira_status spira__bicgstab(spira__solve_env *e, spira_vector b, spira_vector x);
/* Needs e->M to be the Jacobi preconditioner (the dispatcher sees to it). */
spira_status spira__jacobi(spira__solve_env *e, spira_vector b, spira_vector x);

#endif
