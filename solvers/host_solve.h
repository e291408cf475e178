/*
 * host_solve.h - small systems solved on the host beside a CUDA context (host_solve.c).
 */
#ifndef SPIRA_HOST_SOLVE_H
#define SPIRA_HOST_SOLVE_H

#include "spira_impl.h"

/* A solver on A's twin in the CPU companion context, with b and x there. The inner solver
 * is made, run and freed by solve.c, which makes every solver; this file gives it the
 * twin and carries b and x over and back. */
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
/* The making of a host solver, in order: *host the CPU companion context (NULL if it could
 * not be had), *T A's twin there (a copy of its CSR, cached in A), *ho the caller's
 * options o as given (NULL: the defaults) with the backend CPU, for the inner solver; then
 * (the inner solver made on T) b and x there. After a failure s at any step, the host's
 * message, if any, becomes ctx's (spira__host_failed). */
spira_status spira__host_twin(spira_matrix A, const spira_solve_opts *o, spira_context *host,
                              spira_matrix *T, spira_solve_opts *ho);
spira_status spira__host_vectors(spira_context host, spira_matrix A, spira__host_solver *h);
void spira__host_failed(spira_context ctx, spira_context host, spira_status s);
/* A solve: b (and x when use_initial_guess) copied over; then, after the inner solve's
 * status r, x copied back whatever r, the host's message becoming x's context's. */
spira_status spira__host_copy_in(spira__host_solver *h, spira_vector b, spira_vector x,
                                 int use_initial_guess);
spira_status spira__host_copy_out(spira__host_solver *h, spira_vector x, spira_status r);
/* b and x freed, h zeroed (a zeroed one is fine; the inner solver is the caller's). */
void spira__host_vectors_free(spira__host_solver *h);

#endif
