/*
 * cg.h - what CG's two ways of iterating share: the per-iteration loop in cg.c, and the
 * CUDA graph in cg_graph.c, which hands back to the host's pieces (cg_steps.c) where the
 * host must act.
 */
#ifndef SPIRA_CG_H
#define SPIRA_CG_H

#include "solver.h"

/* The step from p_{it-1} to iteration it the classic way, (p, A p) measured (cg_steps.c): for
 * when the recurrence's (p, A p) is not positive. Sets *alpha, or stops for breakdown. */
spira_status spira__cg_classic_step(spira__solve_env *e, int it, double beta, double gamma,
                                    spira_vector z, spira_vector p, spira_vector s,
                                    spira_vector x, spira_vector r, double *alpha);
/* Stop for breakdown at iteration it: gamma = (r, M^-1 r) is 0, not finite, or < 0. */
spira_status spira__cg_gamma_breakdown(spira__solve_env *e, int it, double gamma);
/* Whether the test hook ctx->cg_classic_at forces the classic step to iteration it + 1
 * (it: this round's numbering). */
int spira__cg_forced_classic(const spira__solve_env *e, int it);

/* The graph (cg_graph.c). prepare, at the end of the solver's setup: on the CUDA backend
 * and where the iteration can be captured (on the CPU backend when ctx->cg_graph > 0, made
 * by calls), capture it and keep it in e->keep (NULL: CG iterates as cg.c does); an
 * allocation that fails is the setup's NOMEM. release: undo. */
spira_status spira__cg_graph_prepare(spira__solve_env *e, const spira_solve_opts *o);
void spira__cg_graph_release(spira__solve_env *e);
/* CG from x through the graph, when prepare made one (*ran = 1); else *ran = 0 and
 * nothing is done. */
spira_status spira__cg_graph_run(spira__solve_env *e, spira_vector b, spira_vector x, int *ran);

#endif
