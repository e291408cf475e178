/*
 * background.h - a plan built beside a solve: issue 13's "a solve starts iterating at once
 * while the chosen format is built on a second stream". A staged solve (solvers/solve.c)
 * starts iterating on the plan chosen for its first SPIRA__AUTO_STAGE multiplies; the format
 * its expected multiplies would choose is built meanwhile by the context's worker thread
 * (lib/context.c), on a context of its own (the same device, its own stream of the greatest
 * priority: spira__context_builder), from A's device CSR. The solve looks at every check
 * whether the build is done (at every batch of CG's graph), and once it is, weighs the
 * format again with that plan in A's cache, where it costs auto no setup: so it switches as
 * soon as the plan is ready, at an iteration that depends on the timing (a context made
 * deterministic stages nothing, and makes its choice up front). Where the build is not done
 * by the staged second look, the solve waits for it there; a solve that ends first waits at
 * its end. A build that fails is nobody's error: the solve goes on as without it, and the
 * note says why.
 *
 * Off unless SPIRA_BACKGROUND=1 (ctx->background): on the H200, CG on the kNN Laplacian of
 * 4 * 10^5 rows ran its iterations 1.2-4.7 ms slower beside sell's build, which itself took
 * 3.8-6.1 ms there against 0.5-0.8 alone, where building it at the second look costs
 * 0.5-0.8 ms (bench/results/2026-11-28-session24, call 5). Two threads' work on one device
 * at once cost more than the build it was to hide.
 */
#ifndef SPIRA_SPMV_BACKGROUND_H
#define SPIRA_SPMV_BACKGROUND_H

#include "spmv.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct spira__plan_job spira__plan_job;

/* Start building format's plan of A (empty options) beside the caller's work. *job NULL
 * (and SPIRA_OK) when there is nothing to build beside it: the format has no conversion
 * that can run apart (the CSR family borrows A's CSR; cuSPARSE and SURAA hold handles of
 * the context's), its plan is cached already, or no thread could be had. A's CSR and its
 * device copy are read by the thread until spira__plan_job_finish: A must not change or go
 * before it. An error is a failure to prepare it (no memory), told in A's context. */
spira_status spira__plan_job_start(spira_matrix A, const char *format, spira__plan_job **job);

/* Whether the job's thread has finished (then spira__plan_job_finish does not wait). */
int spira__plan_job_done(const spira__plan_job *job);

/* Wait for the job (*wait_ms: how long), put its plan into A's cache if it was built, and
 * free the job; note gets one line for format_reason: what was built and in how long, or
 * why not. */
void spira__plan_job_finish(spira__plan_job *job, double *wait_ms, char *note, size_t len);

#ifdef __cplusplus
}
#endif
#endif
