/*
 * spira-solve - solve A x = b from a Matrix Market file (or a generated Laplacian) and
 * print a short report: backend, format, iterations, true relative residual, times.
 * Under `mpirun -np N` (a library built --with-mpi) or with --dist, the same solve
 * distributed over the ranks, one GPU each (dist_cli.c).
 */
#include "cli.h"
#include "dist_cli.h"

#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
    fprintf(f,
            "usage: spira-solve [options] A.mtx[.gz]\n"
            "       spira-solve [options] --laplacian DIM:N   (DIM 2 or 3, an N^DIM grid)\n"
            "Solve A x = b; b = A * ones unless --rhs is given.\n"
            "  --rhs FILE          right-hand side b (Matrix Market, n x 1)\n"
            "  --solver NAME       cg (default), pcg (cg + jacobi), bicgstab, jacobi\n"
            "  --precond NAME      none (default; jacobi for pcg), jacobi, neumann, ilu0,\n"
            "                      ilut (the jacobi solver ignores it: its D^-1 is its own)\n"
            "  --degree M          neumann polynomial degree, SpMVs per apply (default 2)\n"
            "  --drop-tol X        ilut drop tolerance, relative to the row norm (default 1e-3)\n"
            "  --fill F            ilut size limit, F * nnz(A) entries (default 5)\n"
            "  --trisolve-sweeps K ilu0/ilut: replace each triangular solve by K Jacobi\n"
            "                      sweeps (1..64, approximate, parallel); 0: exact (default)\n"
            "  --trisolve isai     ilu0/ilut: apply sparse approximate inverses of L and U\n"
            "                      (two SpMVs, built once per factor) instead of the solves\n"
            "  --damping W         weight of the jacobi solver (default 1)\n"
            "  --reorder NAME      none (default), rcm (reverse Cuthill-McKee: a narrow band),\n"
            "                      degree (rows by decreasing length): solve P A P^T, b and x\n"
            "                      permuted in and out; the report gives the bandwidths\n"
            "  --backend NAME      auto (default), cpu, cuda\n"
            "  --format NAME[:OPTS] SpMV format (see spira-spmv --list-formats; default auto:\n"
            "                       chosen for the multiplies the solve expects)\n"
            "  --precision s|d     single or double (default d)\n"
            "  --tol X             relative tolerance on ||b - Ax|| / ||b|| (default 1e-8)\n"
            "  --maxit N           iteration limit (default 10000)\n"
            "  --dtol X            stop as diverged when ||r|| > X max(||b||, ||r0||)\n"
            "                      (X > 1, default 1e5; inf: never)\n"
            "  --monitor K         print the residual every K iterations\n"
            "  --output FILE       write x as a Matrix Market array\n"
            "  --repeat N          solve N times (x from zero each time) and report the\n"
            "                      median of solves 2..N too: the first pays one-time\n"
            "                      costs (kernel loading, caches)\n"
            "  --dist              distributed solve (a library built --with-mpi; the default\n"
            "                      under mpirun with more than one rank): rows split evenly\n"
            "                      over the ranks, one GPU a rank (device = the rank's number\n"
            "                      on its host); each rank reads its share of a file\n"
            "  --help              this text\n");
}

static int monitor(int it, double r, void *data)
{
    int every = *(int *)data;
    if (it % every == 0) printf("  iteration %6d  ||r|| = %.6e\n", it, r);
    return 0;
}

static spira_solver_type parse_solver(const char *s)
{
    if (!strcmp(s, "cg") || !strcmp(s, "pcg")) return SPIRA_SOLVER_CG;
    if (!strcmp(s, "bicgstab")) return SPIRA_SOLVER_BICGSTAB;
    if (!strcmp(s, "jacobi")) return SPIRA_SOLVER_JACOBI;
    cli_usage_error("--solver '%s': want cg, pcg, bicgstab or jacobi", s);
}

/* indexed by spira_precond_type */
static const char *const precond_names[] = {"none", "jacobi", "neumann", "ilu0", "ilut"};

static spira_precond_type parse_precond(const char *s)
{
    for (size_t i = 0; i < sizeof precond_names / sizeof *precond_names; i++)
        if (!strcmp(s, precond_names[i])) return (spira_precond_type)i;
    cli_usage_error("--precond '%s': want none, jacobi, neumann, ilu0 or ilut", s);
}

/* Solves 2..N of --repeat, each as the first was (the monitor off): the median of their
 * iterations' time and of their own setup (what a later solve pays: a plan the first solve
 * built is A's already), and whether any stopped differently from the first. */
static spira_status solve_again(spira_solver_type type, spira_matrix A, spira_vector b,
                                spira_vector x, spira_solve_opts o, const spira_solve_info *first,
                                int n)
{
    double *ms = malloc(2 * (size_t)n * sizeof *ms), *setup = ms + n;
    if (!ms) return SPIRA_ERR_NOMEM;
    o.monitor = NULL;
    spira_status s = SPIRA_OK;
    int same = 1;
    for (int k = 0; k < n && s == SPIRA_OK; k++) {
        spira_solve_info info;
        s = spira_solve(type, A, b, x, &o, &info);
        ms[k] = info.solve_ms;
        setup[k] = info.setup_ms;
        same &= info.iterations == first->iterations && info.reason == first->reason;
    }
    if (s == SPIRA_OK) {
        double med = cli_median(ms, n);
        printf("  repeated    %d more solves: median %.3f ms (%.4f ms each iteration), their "
               "setup median %.3f ms%s\n", n, med,
               first->iterations ? med / first->iterations : 0.0, cli_median(setup, n),
               same ? "" : ", iteration counts or outcomes differed from the first");
    }
    free(ms);
    return s;
}

/* Everything the command line says, checked (tests/fuzz/fuzz_cli.c drives this too). */
typedef struct {
    const char *rhs, *format, *output, *lap, *solver_name, *path;
    spira_context_opts copts;
    spira_dtype dtype;
    spira_solve_opts o;
    spira_solver_type type;
    int every, repeat, dist;
} solve_args;

/* Parse argv into a; 1 when --help was printed (exit 0). Exits 2 on a bad argument. */
static int parse_args(int argc, char **argv, solve_args *a)
{
    static const struct option longopts[] = {
        {"rhs", required_argument, 0, 'b'},     {"solver", required_argument, 0, 's'},
        {"precond", required_argument, 0, 'P'}, {"backend", required_argument, 0, 'B'},
        {"format", required_argument, 0, 'f'},  {"precision", required_argument, 0, 'p'},
        {"tol", required_argument, 0, 't'},     {"maxit", required_argument, 0, 'm'},
        {"monitor", required_argument, 0, 'M'}, {"output", required_argument, 0, 'o'},
        {"laplacian", required_argument, 0, 'L'}, {"damping", required_argument, 0, 'w'},
        {"degree", required_argument, 0, 'g'},  {"drop-tol", required_argument, 0, 'd'},
        {"fill", required_argument, 0, 'F'},    {"repeat", required_argument, 0, 'r'},
        {"dtol", required_argument, 0, 'D'},    {"help", no_argument, 0, 'h'},
        {"trisolve-sweeps", required_argument, 0, 'K'}, {"dist", no_argument, 0, 'X'},
        {"reorder", required_argument, 0, 'R'}, {"trisolve", required_argument, 0, 'T'},
        {0, 0, 0, 0}};
    *a = (solve_args){.solver_name = "cg", .copts = {.backend = SPIRA_BACKEND_AUTO},
                      .dtype = SPIRA_R64, .repeat = 1};
    spira_solve_opts *o = &a->o;
    int c, precond_given = 0;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        switch (c) {
        case 'b': a->rhs = optarg; break;
        case 's': a->solver_name = optarg; break;
        case 'P': o->precond = parse_precond(optarg), precond_given = 1; break;
        case 'w': o->damping = cli_real("--damping", optarg, 0, 1, INFINITY, 1, NULL); break;
        case 'g': o->precond_degree = (int)cli_int("--degree", optarg, 1, 64); break;
        case 'd': o->precond_drop_tol = cli_real("--drop-tol", optarg, 0, 1, 1, 1, NULL); break;
        case 'F': o->precond_fill = cli_real("--fill", optarg, 1, 0, 1000, 0, NULL); break;
        case 'K':
            o->trisolve_sweeps =
                (int)cli_int("--trisolve-sweeps", optarg, 0, SPIRA_TRISOLVE_MAX_SWEEPS);
            break;
        case 'T':
            if (strcmp(optarg, "isai") && strcmp(optarg, "exact"))
                cli_usage_error("--trisolve '%s': want exact or isai", optarg);
            o->trisolve = strcmp(optarg, "isai") ? SPIRA_TRISOLVE_DEFAULT : SPIRA_TRISOLVE_ISAI;
            break;
        case 'B': a->copts.backend = cli_backend(optarg); break;
        case 'R': o->reorder = cli_reorder(optarg); break;
        case 'f': a->format = optarg; break;
        case 'p': a->dtype = cli_precision(optarg); break;
        case 't':
            o->rtol = cli_real("--tol", optarg, 0, 0, INFINITY, 0, "0: only --maxit stops");
            if (o->rtol == 0) o->rtol = SPIRA_TOL_ZERO;
            break;
        case 'm': o->maxit = (int)cli_int("--maxit", optarg, 1, INT_MAX); break;
        case 'D': /* "inf": never stop for divergence */
            o->dtol = !strcmp(optarg, "inf") ? INFINITY
                                             : cli_real("--dtol", optarg, 1, 1, INFINITY, 0, "or inf");
            break;
        case 'M': a->every = (int)cli_int("--monitor", optarg, 1, INT_MAX); break;
        case 'o': a->output = optarg; break;
        case 'r': a->repeat = (int)cli_int("--repeat", optarg, 1, 1000000); break;
        case 'L': a->lap = optarg; break;
        case 'X': a->dist = 1; break;
        case 'h': usage(stdout); return 1;
        default: cli_bad_option(c, argv);
        }
    }
    a->type = parse_solver(a->solver_name);
    if (!strcmp(a->solver_name, "pcg") && !precond_given) o->precond = SPIRA_PRECOND_JACOBI;
    if (o->trisolve == SPIRA_TRISOLVE_ISAI && o->trisolve_sweeps)
        cli_usage_error("--trisolve isai and --trisolve-sweeps %d: approximate inverses or "
                        "Jacobi sweeps, not both", o->trisolve_sweeps);
    if (optind >= argc && !a->lap) cli_usage_error("no matrix: give A.mtx or --laplacian DIM:N");
    cli_positional(argc, argv, optind, a->lap ? 0 : 1,
                   a->lap ? "--laplacian gives the matrix" : "one matrix file");
    a->path = a->lap ? NULL : argv[optind];
    if (a->lap) {
        int dim;
        int64_t n;
        cli_laplacian(a->lap, &dim, &n);
    }
    return 0;
}

int main(int argc, char **argv)
{
    cli_prog = "spira-solve";
    solve_args a;
    if (parse_args(argc, argv, &a)) return 0;
    const char *rhs = a.rhs, *format = a.format, *output = a.output, *lap = a.lap;
    const char *solver_name = a.solver_name;
    spira_dtype dtype = a.dtype;
    spira_solve_opts o = a.o;
    spira_solver_type type = a.type;
    int every = a.every, repeat = a.repeat;
    char precond_name[128];
    if (o.precond == SPIRA_PRECOND_NEUMANN)
        snprintf(precond_name, sizeof precond_name, "neumann (degree %d)",
                 o.precond_degree ? o.precond_degree : SPIRA_NEUMANN_DEFAULT_DEGREE);
    else if (o.precond == SPIRA_PRECOND_ILUT)
        snprintf(precond_name, sizeof precond_name, "ilut (drop %g, fill %g)",
                 o.precond_drop_tol ? o.precond_drop_tol : SPIRA_ILUT_DEFAULT_DROP_TOL,
                 o.precond_fill ? o.precond_fill : SPIRA_ILUT_DEFAULT_FILL);
    else
        snprintf(precond_name, sizeof precond_name, "%s", precond_names[o.precond]);

    if (cli_dist_wanted(a.dist)) {
        const cli_dist_solve_args d = {.copts = a.copts, .dtype = dtype, .lap = lap,
                                       .path = a.path, .rhs = rhs, .format = format,
                                       .output = output, .solver_name = solver_name,
                                       .precond_name = type == SPIRA_SOLVER_JACOBI
                                                           ? "none (the iteration's own D^-1)"
                                                           : precond_name,
                                       .type = type, .o = o, .every = every, .repeat = repeat};
        return cli_dist_solve(&argc, &argv, &d);
    }
    spira_context ctx;
    spira_status created = spira_context_create(&ctx, &a.copts); /* sets ctx, even on failure */
    cli_check(ctx, created, "creating the context");
    char source[512];
    spira_matrix A = cli_load_matrix(ctx, lap, a.path, dtype, source, sizeof source);
    if (format) cli_set_format(ctx, A, format, 1);
    spira_matrix_info mi;
    spira_matrix_get_info(A, &mi);
    spira_vector b, x;
    if (rhs) {
        cli_check(ctx, spira_vector_read_mm_n(ctx, rhs, dtype, mi.nrows, &b), rhs);
    } else { /* b = A * ones, so x = ones solves it */
        spira_vector ones;
        cli_check(ctx, spira_vector_create(ctx, mi.ncols, dtype, &ones), "allocating");
        cli_check(ctx, spira_vector_create(ctx, mi.nrows, dtype, &b), "allocating");
        cli_check(ctx, spira_vector_fill(ones, 1.0), "filling");
        cli_check(ctx, spira_spmv(1.0, A, ones, 0.0, b), "b = A * ones");
        spira_vector_destroy(ones);
    }
    cli_check(ctx, spira_vector_create(ctx, mi.ncols, dtype, &x), "allocating x");
    if (every > 0) {
        o.monitor = monitor;
        o.monitor_data = &every;
    }
    printf("spira %s: %s\n", spira_version(), source);
    printf("  matrix      %lld x %lld, %lld nonzeros, %s\n", (long long)mi.nrows,
           (long long)mi.ncols, (long long)mi.nnz, dtype == SPIRA_R64 ? "double" : "single");
    printf("  backend     %s: %s\n", spira_context_backend(ctx) == SPIRA_BACKEND_CUDA ? "cuda" : "cpu",
           spira_context_device_name(ctx));
    /* the plans built before the solve (by b = A * ones): those the solve builds are in
     * its own setup */
    spira_matrix_get_info(A, &mi);
    const double plans_before_ms = mi.setup_ms;
    spira_solve_info info;
    spira_status s = spira_solve(type, A, b, x, &o, &info);
    if (info.reason == SPIRA_STOPPED_ERROR) /* refused, or failed before it could iterate */
        cli_check(ctx, s, "solving");
    /* the triangular solves as the solve made them */
    size_t len = strlen(precond_name);
    const int ilu = o.precond == SPIRA_PRECOND_ILU0 || o.precond == SPIRA_PRECOND_ILUT;
    if (ilu && info.trisolve_sweeps > 0)
        snprintf(precond_name + len, sizeof precond_name - len,
                 " (%d Jacobi sweep%s a triangular solve)", info.trisolve_sweeps,
                 info.trisolve_sweeps == 1 ? "" : "s");
    else if (ilu && info.trisolve == SPIRA_TRISOLVE_ISAI)
        snprintf(precond_name + len, sizeof precond_name - len,
                 " (approximate inverses of L and U, ISAI)");
    else if (ilu)
        snprintf(precond_name + len, sizeof precond_name - len, " (exact triangular solves)");
    if (type == SPIRA_SOLVER_JACOBI)
        snprintf(precond_name, sizeof precond_name, "none (the iteration's own D^-1)");
    printf("  solver      %s, preconditioner %s, SpMV format %s\n", solver_name, precond_name,
           info.format);
    if (info.reason != SPIRA_STOPPED_ERROR && info.backend != spira_context_backend(ctx))
        printf("  iterated    on the %s: %s\n", info.backend == SPIRA_BACKEND_CPU ? "CPU" : "GPU",
               info.backend_reason);
    spira_matrix_get_info(A, &mi); /* auto chose at the solve, for the multiplies it expected */
    if (mi.format_reason[0])
        printf("  format      %s (chosen in %.3f ms)\n", mi.format_reason, mi.select_ms);
    if (type == SPIRA_SOLVER_JACOBI)
        printf("  damping     w = %g\n", o.damping > 0 ? o.damping : 1.0);
    if (info.reorder != SPIRA_REORDER_NONE)
        printf("  reorder     %s in %.3f ms (once per matrix): bandwidth %lld -> %lld\n",
               cli_reorder_names[info.reorder], info.reorder_ms,
               (long long)info.bandwidth_before, (long long)info.bandwidth_after);
    printf("  result      %s after %d iterations\n", spira_reason_string(info.reason),
           info.iterations);
    if (info.precond_shift > 0)
        printf("  shift       the ILU(0) factor is of A + %g diag(A): unshifted, a pivot was "
               "zero (or, A symmetric, not positive)\n", info.precond_shift);
    printf("  residual    ||b - A x|| / ||b|| = %.3e\n", info.rel_residual);
    /* a plan is built once per matrix: by b = A * ones, or in the solve (its setup) */
    printf("  time        SpMV format setup %.3f ms (plans built before the solve), solver "
           "setup %.3f ms\n              (its plans and preconditioner), iterations %.3f ms "
           "(%.4f ms each)\n",
           plans_before_ms, info.setup_ms, info.solve_ms,
           info.iterations ? info.solve_ms / info.iterations : 0.0);
    if (repeat > 1 && s == SPIRA_OK) s = solve_again(type, A, b, x, o, &info, repeat - 1);
    int rc = 0;
    if (s != SPIRA_OK) {
        fprintf(stderr, "spira-solve: %s: %s\n", spira_status_name(s), spira_last_error(ctx));
        rc = 1;
    }
    if (output && rc == 0) cli_check(ctx, spira_vector_write_mm(x, output), output);
    spira_vector_destroy(x);
    spira_vector_destroy(b);
    spira_matrix_destroy(A);
    spira_context_destroy(ctx);
    return rc;
}
