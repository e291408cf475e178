/*
 * host_solve.h - small systems solved on the host beside a CUDA context (host_solve.c).
 */
#ifndef SPIRA_HOST_SOLVE_H
#define SPIRA_HOST_SOLVE_H

#include "spira_impl.h"

/* A solver on A's twin in the CPU companion context, with b and x there. */
typedef struct {
    spira_solver inner;
    spira_vector b, x;
} spira__host_solver;

/* Where a solve with options o runs on A: *on_host 1 for the host; *why in words (static).
 * applies_per_it: the multiplies and preconditioner applies an iteration makes; graph: its
 * GPU iteration would run as a CUDA graph (cg_graph.c). Refuses a backend the context cannot
 * give. */
spira_status spira__host_solve_where(spira_matrix A, const spira_solve_opts *o,
                                     int applies_per_it, int graph, int *on_host,
                                     const char **why);
/* o: the caller's options as given (NULL: the defaults), resolved by the host's solver. */
spira_status spira__host_solver_create(spira_solver_type type, spira_matrix A,
                                       const spira_solve_opts *o, spira__host_solver *h);
/* Copy b (and x when use_initial_guess) over, solve, copy x back; the host's error message
 * becomes b's context's. */
spira_status spira__host_solver_solve(spira__host_solver *h, spira_vector b, spira_vector x,
                                      int use_initial_guess, spira_solve_info *info);
void spira__host_solver_destroy(spira__host_solver *h); /* a zeroed one is fine */

#endif
