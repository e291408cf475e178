/*
 * solver.h - the solver table and what every solver gets from the dispatcher (solve.c):
 * the operator, the preconditioner, resolved options, its workspace, and the shared
 * convergence test (common.c). Solvers call only these and lib/'s BLAS-1, so they run
 * unchanged on any backend and any SpMV format.
 */
#ifndef SPIRA_SOLVER_H
#define SPIRA_SOLVER_H

#include "spira_impl.h"
#include "spmv.h"
#include "precond.h"
#include "solver_kernels.h"

/* The most workspace vectors a solver asks for (BiCGSTAB with a preconditioner: 7). */
#define SPIRA__SOLVER_WORK_MAX 8

struct spira__solver;

/* A solve spread over processes (dist/, MPI): the solver's vectors are then this rank's
 * rows of each, and these reach the other ranks. op is y <- alpha A x + beta y for the
 * whole operator (its halo exchange included); sum adds v[0..k) over all ranks in place
 * (one collective); agree makes a status every rank's (a failure anywhere fails all, so no
 * rank waits in a collective another has left). NULL in a one-process solve, whose
 * arithmetic it leaves exactly as it was. The solvers reach it only through spira__op and
 * the spira__env_* reductions below, so the math is written once for both. */
typedef struct {
    spira_status (*op)(void *data, double alpha, spira_vector x, double beta, spira_vector y);
    spira_status (*sum)(void *data, int k, double *v);
    /* Optional (the GPU path, NULL elsewhere): the same sum of k partials left in device
     * memory by a fused reduction, enqueued on the context's stream before the one wait
     * that reads them (spira_context_s.sum_hook), so the sum over the ranks costs no wait
     * of its own. Every rank sums either way, so the ranks may mix the two. */
    spira_status (*dsum)(void *data, int k, double *dv);
    /* Optional (GPUs): op with its last step, the off-diagonal rows' add into y, left to
     * the caller's next kernel as *add (add->bits NULL: y is whole); CG's graph makes it
     * in its sums, one launch fewer an iteration. */
    spira_status (*op_defer)(void *data, double alpha, spira_vector x, double beta,
                             spira_vector y, spira__row_add *add);
    /* Optional (GPUs whose ranks sum inside kernels): CG's graph sums
     * (spira__cuda_cg_graph_sums' arguments) with the sum over the ranks and the step in
     * the one kernel; NULL: dsum between kernels. */
    spira_status (*cg_sums)(void *data, int32_t n, spira_dtype t, const void *r, void *w,
                            const void *z, int with_dinv, const spira__row_add *add,
                            spira__cg_dev *g);
    /* Optional (GPUs whose ranks write each other's halos inside kernels; set together):
     * CG's graph update (spira__cuda_cg_graph_update's arguments) that also stores the rows
     * the other ranks read into their ghosts, and prime, which stores them from z before
     * the graph's first launch (first = 1: the exchange starts afresh) and after the host
     * changed z. op_defer then multiplies the diagonal block alone, and cg_sums adds the
     * ghosts' product. */
    spira_status (*cg_update)(void *data, int32_t n, spira_dtype t, const spira__cg_dev *g,
                              void *z, const void *w, void *p, void *s, void *r,
                              const void *dinv);
    spira_status (*cg_prime)(void *data, const void *z, int first);
    spira_status (*agree)(void *data, spira_status s);
    void *data;
    /* Optional: the counts of halo exchanges and sums over the ranks made (the layout's, in
     * spira_dist_info), which the calls above add to; a CUDA graph's launches add what its
     * capture recorded (solvers/cg_graph.c), since its replays call nothing on the host */
    int64_t *exchanges, *reductions;
    int64_t global_rows; /* the operator's size (the solve's expected iterations) */
    int64_t first_row;   /* this rank's first row (a start vector the same for any layout) */
} spira__solve_comm;

/* comm's sum of v[0..k) over the ranks, and its agreement on s; with comm NULL, nothing
 * and s. */
spira_status spira__comm_sum(const spira__solve_comm *comm, int k, double *v);
spira_status spira__comm_agree(const spira__solve_comm *comm, spira_status s);

typedef struct {
    spira_context ctx;
    spira_matrix A;
    const struct spira__solver *type;
    spira__spmv_plan *plan;
    spira__precond *M;
    spira_solve_opts o;     /* defaults filled in */
    double bnorm;           /* ||b||, > 0 */
    spira_solve_info *info; /* never NULL inside a solver */
    int it0;                /* iterations of earlier rounds (see spira_solve's restarts) */
    const spira__solve_comm *comm; /* NULL: one process */
    /* the hopelessness tests (spira__check), set at iteration 0 of a solve: */
    double rref;            /* max(||b||, ||r_0||): divergence is ||r|| > dtol rref */
    double best;            /* the least ||r|| that was a 1% step below the one before */
    int best_it;            /* and its iteration: stagnation when it is window old */
    /* vectors like b made by the dispatcher before the solver runs: type->work of them,
     * and type->work_precond more after those unless M is the identity */
    spira_vector work[SPIRA__SOLVER_WORK_MAX];
    void *keep; /* what the type's prepare made for its runs (CG's CUDA graph), or NULL */
    /* auto's staged choice (solve.c; common.c's spira__check looks again): at iteration
     * `at` (counted over rounds; 0: none) the format is weighed again for the multiplies
     * the convergence so far predicts, per_it an
     * iteration; low[h] the least ||r|| of iterations 1..at/2 (h = 0) and after (h = 1), ms
     * what building a new plan took (setup, not iterations); job the plan of the format the
     * expect(ed) iterations choose, built meanwhile beside the solve (background.h; NULL:
     * none, or taken: the solve switches once it is done), and note what became of it */
    struct {
        int at;
        double per_it, low[2], ms, expect;
        struct spira__plan_job *job;
        char note[200];
    } stage;
} spira__solve_env;

/* A solver type: one row of the registry in solve.c. */
typedef struct spira__solver {
    spira_solver_type type;
    const char *name;
    /* Iterate from x (already the initial guess) until done; info->reason says why. */
    spira_status (*run)(spira__solve_env *e, spira_vector b, spira_vector x);
    int work;            /* workspace vectors it always needs */
    int work_precond;    /* and these more when M is not the identity */
    /* M must be symmetric for symmetric A (CG); an unsymmetric M is refused, naming why */
    int symmetric_precond;
    /* A must be symmetric positive definite (CG): when a solve fails on a nonsymmetric A,
     * the message says so and names an entry */
    int needs_spd;
    /* the preconditioner is part of the method (the Jacobi iteration's D^-1): own_precond
     * replaces opts.precond, so it is set up and timed with the SpMV plan */
    int has_own_precond;
    spira_precond_type own_precond;
    /* Optional: at the end of the setup (plan, M and work made; timed with it), make what
     * every run may reuse into e->keep, for the solver's options o; and release it at the
     * teardown (e->keep NULL afterwards). */
    spira_status (*prepare)(spira__solve_env *e, const spira_solve_opts *o);
    void (*release)(spira__solve_env *e);
} spira__solver;

extern const spira__solver spira__cg_solver, spira__bicgstab_solver, spira__jacobi_solver;

/* ---- shared by the solvers (common.c) ---- */

/* Take the plan built beside the solve (e->stage.job) into A's cache, waiting for it if
 * need be (the wait counted in e->stage.ms: setup, not iterations); nothing without one. */
void spira__stage_take(spira__solve_env *e);

/* y <- alpha A x + beta y */
spira_status spira__op(spira__solve_env *e, double alpha, spira_vector x, double beta,
                       spira_vector y);
/* The reductions, over every rank of a distributed solve (one allreduce each, however many
 * sums; e->comm NULL: lib/'s calls themselves): spira_dot, spira_nrm2, spira__dots and
 * spira__axpby_dots. */
spira_status spira__env_dot(spira__solve_env *e, spira_vector x, spira_vector y, double *out);
spira_status spira__env_nrm2(spira__solve_env *e, spira_vector x, double *out);
spira_status spira__env_dots(spira__solve_env *e, int k, const spira_vector *x,
                             const spira_vector *y, double *out);
spira_status spira__env_axpby_dots(spira__solve_env *e, double a, spira_vector x, double b,
                                   spira_vector y, int k, const spira_vector *z, double *out);
/* Record ||r_it|| (history, monitor, recurrence residual; `it` counts within this round,
 * it0 is added). Returns 1 when the solver must stop, with info->reason set: converged,
 * non-finite residual, the monitor said stop, diverged (||r|| > dtol rref) or stagnated
 * (no 1% step below the best ||r|| in stagnation_window iterations); the last two set
 * the message too. */
int spira__check(spira__solve_env *e, int it, double rnorm);
/* A residual norm within the tolerance: rtol ||b||, or atol when set. */
int spira__meets_tolerance(const spira__solve_env *e, double rnorm);
/* Stop for breakdown: sets the reason and the message naming the quantity. */
spira_status spira__breakdown(spira__solve_env *e, int it, const char *what, double value);

/* The operands of solve, power and PageRank: A square ("who needs a square matrix"), each
 * of the k vectors v[i] (NULL ones skipped) in A's context with A's rows and precision;
 * the messages name the matrix a_name and each vector names[i]. */
spira_status spira__check_operands(const char *who, spira_matrix A, const char *a_name, int k,
                                   const spira_vector *v, const char *const *names);

/* A solver over this rank's rows of a distributed operator (dist/solve.c): local is its
 * diagonal block (square, this rank's rows: the workspace's size and the preconditioner's
 * matrix, so ILU(0) is block Jacobi), comm the rest (copied). Collective: every rank calls
 * it, and its status is every rank's. No host solve, no zero-line check (the caller makes
 * the global one). spira_solver_solve and _destroy then work as for any solver, with b
 * and x this rank's rows. */
spira_status spira__solver_create_comm(spira_solver_type type, spira_matrix local,
                                       const spira__solve_comm *comm,
                                       const spira_solve_opts *opts, spira_solver *S);
/* The multiplies S's solves expect (what "auto" weighs a format's setup against). */
double spira__solver_expected_multiplies(spira_solver S);

/* spira_power over a distributed operator (dist/): local is this rank's diagonal block,
 * whose rows v holds; comm multiplies and sums (its plans prepared by the caller). The
 * start vector is the one-process one's rows from comm->first_row. Collective. */
spira_status spira__power_comm(spira_matrix local, const spira__solve_comm *comm, spira_vector v,
                               const spira_power_opts *opts, spira_power_info *info);
/* G's cached transition (pagerank.c), built on first use: P^T and the dangling flags d, both
 * G's; for the tests, which compare the GPU's with the host's. */
spira_status spira__pagerank_transition(spira_matrix G, spira_matrix *PT, spira_vector *d);
/* spira_pagerank over a distributed graph (dist/pagerank.c): G_local is this rank's block
 * of G (the operand checks), PT_local that of the transition P^T (its format for info),
 * dangling this rank's rows of d, and comm multiplies by the distributed P^T (plans
 * prepared by the caller). The teleport vector and rank are this rank's rows. Collective. */
spira_status spira__pagerank_comm(spira_matrix G_local, const spira__solve_comm *comm,
                                  spira_matrix PT_local, spira_vector dangling, spira_vector rank,
                                  const spira_pagerank_opts *opts, spira_pagerank_info *info);

#endif
