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

/* Where a solve with options o runs on A: *on_host 1 for the host, 0 for the GPU, -1 when
 * the model's predictions are too close to call (within SPIRA__HOST_MEASURE_RATIO of each
 * other, in a context that is not deterministic): then the caller times a few iterations
 * of the host solver and decides with spira__host_decide against *gpu_us, the GPU's
 * predicted iteration (microseconds). *why in words (static). applies_per_it: the multiplies and preconditioner applies an
 * iteration makes; graph: its GPU iteration would run as a CUDA graph (cg_graph.c).
 * Refuses a backend the context cannot give. */
#define SPIRA__HOST_MEASURE_RATIO 3.0
spira_status spira__host_solve_where(spira_matrix A, const spira_solve_opts *o,
                                     int applies_per_it, int graph, int *on_host,
                                     double *gpu_us, const char **why);
/* The choice once the host's iteration was timed at host_us (< 0: it could not be). */
void spira__host_decide(double host_us, double gpu_us, int *on_host, const char **why);
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
