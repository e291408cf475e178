/*
 * dist_cli.c - the distributed half of spira-solve and spira-pagerank (dist_cli.h): MPI
 * and spira_mpi.h live here only. Every rank runs the same calls; the library agrees on
 * every status, so every rank takes the same way out and rank 0 alone prints.
 *
 * Input: the generators make each rank's rows directly (--laplacian, --rmat); a Matrix
 * Market file is read by all the ranks, each parsing its share of the lines and sending
 * the entries to their rows' owners (spira_dist_matrix_read_mm). The right-hand side of
 * --rhs is read by rank 0 and scattered.
 */
#include "config.h"

#include "dist_cli.h"
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if HAVE_MPI

#include <mpi.h>

#include "spira_mpi.h"

static int rank_, size_;

int cli_dist_wanted(int force)
{
    if (force) return 1;
    /* launched by mpirun (Open MPI, or a PMI/PMIx launcher) with more than one rank */
    const char *vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE", "MPI_LOCALNRANKS"};
    for (size_t i = 0; i < sizeof vars / sizeof *vars; i++) {
        const char *v = getenv(vars[i]);
        if (v && atoi(v) > 1) return 1;
    }
    return 0;
}

/* Every rank has the same status: rank 0 says why, all leave together. */
static void dcheck(spira_context ctx, spira_status s, const char *what)
{
    if (s == SPIRA_OK) return;
    if (rank_ == 0)
        fprintf(stderr, "%s: %s: %s: %s\n", cli_prog, what, spira_status_name(s),
                ctx ? spira_last_error(ctx) : "");
    MPI_Finalize();
    exit(1);
}

/* The rank's context: its own GPU (device = its rank on its host) unless --backend cpu. */
static spira_context dist_context(spira_context_opts co)
{
    MPI_Comm host;
    int local = 0;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &host);
    MPI_Comm_rank(host, &local);
    MPI_Comm_free(&host);
    co.device = local;
    spira_context ctx = NULL;
    spira_status s = spira_context_create(&ctx, &co);
    int ok = s == SPIRA_OK, all = 0;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (!all) {
        if (!ok)
            fprintf(stderr, "%s: rank %d: creating the context on device %d: %s\n", cli_prog,
                    rank_, local, ctx ? spira_last_error(ctx) : "");
        MPI_Finalize();
        exit(1);
    }
    return ctx;
}

static void start(int *argc, char ***argv)
{
    MPI_Init(argc, argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

/* The matrix from a generator or from the file. */
static spira_dist_matrix load(spira_context ctx, const char *lap, const char *path,
                              spira_dtype dtype, char *name, size_t len)
{
    spira_dist_matrix A = NULL;
    if (lap) {
        int dim;
        int64_t n;
        cli_laplacian(lap, &dim, &n);
        snprintf(name, len, "laplacian%dd-%lld", dim, (long long)n);
        dcheck(ctx, spira_dist_matrix_laplacian(ctx, MPI_COMM_WORLD, dim, n, dtype,
                                                SPIRA_DIST_EVEN, &A), "the Laplacian");
        return A;
    }
    const char *base = strrchr(path, '/');
    snprintf(name, len, "%s", base ? base + 1 : path);
    /* every rank reads its share of the file (spira_dist_matrix_read_mm) */
    dcheck(ctx, spira_dist_matrix_read_mm(ctx, MPI_COMM_WORLD, path, dtype, SPIRA_DIST_EVEN, &A),
           path);
    return A;
}

/* Both blocks in the format asked for (each block still its own plan). */
static void set_format(spira_context ctx, spira_dist_matrix A, const char *spec)
{
    if (!spec) return;
    spira_matrix d, o;
    spira_dist_matrix_blocks(A, &d, &o);
    char name[64];
    const char *colon = strchr(spec, ':');
    size_t n = colon ? (size_t)(colon - spec) : strlen(spec);
    snprintf(name, sizeof name, "%.*s", (int)(n < sizeof name ? n : sizeof name - 1), spec);
    spira_status s = spira_matrix_set_format(d, name, colon ? colon + 1 : NULL);
    if (s == SPIRA_OK && o) s = spira_matrix_set_format(o, name, colon ? colon + 1 : NULL);
    int mine = s != SPIRA_OK, any = 0; /* a local call: the ranks agree here */
    MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (any) dcheck(ctx, mine ? s : SPIRA_ERR_INVALID_ARG, "--format");
}

static void print_layout(spira_context ctx, spira_dist_matrix A)
{
    spira_dist_matrix_info di;
    spira_dist_matrix_get_info(A, &di);
    /* the busiest rank's halo */
    long long g[2] = {di.ghosts, di.send_values}, gmax[2];
    MPI_Reduce(g, gmax, 2, MPI_LONG_LONG, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank_ != 0) return;
    const int gpu = spira_context_backend(ctx) == SPIRA_BACKEND_CUDA;
    printf("  ranks       %d (%s on rank 0: %s), rank 0 owns %d rows; per SpMV a rank "
           "receives up to %lld and sends up to %lld x entries; sums over the ranks by %s\n",
           di.ranks, gpu ? "cuda" : "cpu", spira_context_device_name(ctx), di.local_rows,
           gmax[0], gmax[1],
           !gpu ? "MPI_Allreduce" : di.sums_in_kernel ? "the kernels (NCCL's device API)"
                                                      : "ncclAllReduce");
}

static int monitor(int it, double r, void *data)
{
    int every = *(int *)data;
    if (rank_ == 0 && it % every == 0) printf("  iteration %6d  ||r|| = %.6e\n", it, r);
    return 0;
}

int cli_dist_solve(int *argc, char ***argv, const cli_dist_solve_args *a)
{
    start(argc, argv);
    spira_context ctx = dist_context(a->copts);
    char source[512];
    spira_dist_matrix A = load(ctx, a->lap, a->path, a->dtype, source, sizeof source);
    set_format(ctx, A, a->format);
    spira_dist_vector b, x;
    dcheck(ctx, spira_dist_vector_create(A, &b), "allocating b");
    dcheck(ctx, spira_dist_vector_create(A, &x), "allocating x");
    const int64_t n = spira_dist_vector_length(b);
    if (a->rhs) { /* rank 0 reads it, then scatters */
        double *g = NULL;
        spira_status s = SPIRA_OK;
        spira_vector v = NULL;
        if (rank_ == 0) {
            s = n <= INT32_MAX ? spira_vector_read_mm_n(ctx, a->rhs, a->dtype, n, &v)
                               : SPIRA_ERR_UNSUPPORTED;
            g = s == SPIRA_OK ? malloc((size_t)n * sizeof *g + 1) : NULL;
            if (s == SPIRA_OK && !g) s = SPIRA_ERR_NOMEM;
            if (s == SPIRA_OK) s = spira_vector_get_f64(v, g);
            spira_vector_destroy(v);
        }
        int bad = s != SPIRA_OK;
        MPI_Bcast(&bad, 1, MPI_INT, 0, MPI_COMM_WORLD);
        if (bad) dcheck(ctx, rank_ == 0 ? s : SPIRA_ERR_IO, a->rhs);
        dcheck(ctx, spira_dist_vector_scatter_f64(b, 0, g), "scattering b");
        free(g);
    } else { /* b = A * ones, so x = ones solves it */
        dcheck(ctx, spira_dist_vector_fill(x, 1.0), "filling");
        dcheck(ctx, spira_dist_spmv(1.0, A, x, 0.0, b), "b = A * ones");
        dcheck(ctx, spira_dist_vector_fill(x, 0.0), "filling");
    }
    spira_solve_opts o = a->o;
    int every = a->every;
    if (every > 0) {
        o.monitor = monitor;
        o.monitor_data = &every;
    }
    spira_dist_matrix_info di;
    spira_dist_matrix_get_info(A, &di);
    if (rank_ == 0) {
        printf("spira %s: %s, distributed\n", spira_version(), source);
        printf("  matrix      %lld x %lld, %lld nonzeros, %s\n", (long long)di.nrows,
               (long long)di.nrows, (long long)di.nnz, a->dtype == SPIRA_R64 ? "double" : "single");
    }
    print_layout(ctx, A);
    spira_solve_info info;
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    spira_status s = spira_dist_solve(a->type, A, b, x, &o, &info);
    double wall = (MPI_Wtime() - t0) * 1e3;
    if (info.reason == SPIRA_STOPPED_ERROR) dcheck(ctx, s, "solving");
    spira_matrix d, od;
    spira_matrix_info mi, oi = {0};
    spira_dist_matrix_blocks(A, &d, &od);
    spira_matrix_get_info(d, &mi);
    if (od) spira_matrix_get_info(od, &oi);
    spira_dist_matrix_get_info(A, &di);
    if (rank_ == 0) {
        printf("  solver      %s, preconditioner %s, rank 0's diagonal block in %s, "
               "off-diagonal block (%lld rows) in %s\n", a->solver_name, a->precond_name,
               mi.format, (long long)oi.nrows,
               !od ? "-" : di.halo_in_kernel ? "CG's sums kernel (the halo written by the kernels)"
                                            : oi.format);
        printf("  result      %s after %d iterations\n", spira_reason_string(info.reason),
               info.iterations);
        printf("  residual    ||b - A x|| / ||b|| = %.3e\n", info.rel_residual);
        printf("  time        solver setup %.3f ms, iterations %.3f ms (%.4f ms each), "
               "wall %.3f ms\n", info.setup_ms, info.solve_ms,
               info.iterations ? info.solve_ms / info.iterations : 0.0, wall);
    }
    if (a->repeat > 1 && s == SPIRA_OK) {
        double *ms = malloc((size_t)a->repeat * sizeof *ms);
        int k = 0, same = 1;
        o.monitor = NULL;
        for (; ms && k < a->repeat - 1 && s == SPIRA_OK; k++) {
            spira_solve_info again;
            dcheck(ctx, spira_dist_vector_fill(x, 0.0), "filling");
            s = spira_dist_solve(a->type, A, b, x, &o, &again);
            ms[k] = again.solve_ms;
            same &= again.iterations == info.iterations && again.reason == info.reason;
        }
        if (ms && k > 0 && rank_ == 0) {
            const double med = cli_median(ms, k);
            printf("  repeated    %d more solves: median %.3f ms (%.4f ms each iteration)%s\n",
                   k, med, info.iterations ? med / info.iterations : 0.0,
                   same ? "" : ", iteration counts or outcomes differed from the first");
        }
        free(ms);
    }
    int rc = s == SPIRA_OK ? 0 : 1;
    if (s != SPIRA_OK && rank_ == 0)
        fprintf(stderr, "%s: %s: %s\n", cli_prog, spira_status_name(s), spira_last_error(ctx));
    if (a->output && rc == 0) {
        double *g = rank_ == 0 ? malloc((size_t)n * sizeof *g + 1) : NULL;
        s = spira_dist_vector_gather_f64(x, 0, g);
        if (s == SPIRA_OK && rank_ == 0) {
            spira_context host;
            spira_context_opts co = {.backend = SPIRA_BACKEND_CPU};
            spira_vector v = NULL;
            s = spira_context_create(&host, &co);
            if (s == SPIRA_OK) s = spira_vector_create(host, n, a->dtype, &v);
            if (s == SPIRA_OK) s = spira_vector_set_f64(v, g);
            if (s == SPIRA_OK) s = spira_vector_write_mm(v, a->output);
            if (s != SPIRA_OK) fprintf(stderr, "%s: %s: %s\n", cli_prog, a->output,
                                       spira_last_error(host));
            spira_vector_destroy(v);
            spira_context_destroy(host);
        }
        free(g);
        if (s != SPIRA_OK) rc = 1;
    }
    spira_dist_vector_destroy(b);
    spira_dist_vector_destroy(x);
    spira_dist_matrix_destroy(A);
    spira_context_destroy(ctx);
    MPI_Finalize();
    return rc;
}

static const double *sort_key;

/* descending rank, then ascending id */
static int by_rank(const void *p, const void *q)
{
    int32_t i = *(const int32_t *)p, j = *(const int32_t *)q;
    if (sort_key[i] != sort_key[j]) return sort_key[i] < sort_key[j] ? 1 : -1;
    return (i > j) - (i < j);
}

int cli_dist_pagerank(int *argc, char ***argv, const cli_dist_pagerank_args *a)
{
    start(argc, argv);
    spira_context ctx = dist_context(a->copts);
    char source[512];
    spira_dist_matrix G = NULL;
    if (a->rmat_scale > 0) {
        snprintf(source, sizeof source, "R-MAT scale %d, edge factor %d, seed %llu",
                 a->rmat_scale, a->rmat_edge_factor, a->seed);
        dcheck(ctx, spira_dist_matrix_rmat(ctx, MPI_COMM_WORLD, a->rmat_scale,
                                           a->rmat_edge_factor, a->seed, a->dtype,
                                           SPIRA_DIST_EVEN, &G), "the R-MAT graph");
    } else {
        G = load(ctx, NULL, a->path, a->dtype, source, sizeof source);
    }
    set_format(ctx, G, a->format);
    spira_dist_vector r;
    dcheck(ctx, spira_dist_vector_create(G, &r), "allocating the ranks");
    spira_dist_matrix_info di;
    spira_dist_matrix_get_info(G, &di);
    if (rank_ == 0) {
        printf("spira %s: PageRank of %s, distributed\n", spira_version(), source);
        printf("  graph       %lld vertices, %lld edges, %s\n", (long long)di.nrows,
               (long long)di.nnz, a->dtype == SPIRA_R64 ? "double" : "single");
    }
    print_layout(ctx, G);
    spira_pagerank_info info;
    spira_pagerank_opts o = a->o;
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    spira_status s = spira_dist_pagerank(G, r, &o, &info);
    double wall = (MPI_Wtime() - t0) * 1e3;
    if (s != SPIRA_ERR_NOT_CONVERGED) dcheck(ctx, s, "PageRank");
    if (rank_ == 0) {
        printf("  alpha       %g, SpMV format %s\n", o.alpha > 0 ? o.alpha : 0.85,
               info.format ? info.format : "?");
        printf("  result      %s after %d iterations, ||x_k - x_k-1||_1 = %.3e\n",
               spira_reason_string(info.reason), info.iterations, info.delta);
        printf("  time        setup %.3f ms (the transition, first call), iterations %.3f ms "
               "(%.4f ms each), wall %.3f ms\n", info.setup_ms, info.solve_ms,
               info.iterations ? info.solve_ms / info.iterations : 0.0, wall);
    }
    for (int k = 1; k < a->repeat && (s == SPIRA_OK || s == SPIRA_ERR_NOT_CONVERGED); k++) {
        spira_pagerank_info again;
        s = spira_dist_pagerank(G, r, &o, &again);
        if (rank_ == 0)
            printf("  again       %d iterations, %.3f ms (%.4f ms each)\n", again.iterations,
                   again.solve_ms, again.iterations ? again.solve_ms / again.iterations : 0.0);
    }
    int rc = s == SPIRA_OK ? 0 : 1;
    if (s != SPIRA_OK && rank_ == 0)
        fprintf(stderr, "%s: %s: %s\n", cli_prog, spira_status_name(s), spira_last_error(ctx));
    const int64_t n = di.nrows;
    if ((a->top > 0 || a->output) && n <= INT32_MAX) {
        double *x = rank_ == 0 ? malloc((size_t)n * sizeof *x + 1) : NULL;
        int32_t *id = rank_ == 0 ? malloc((size_t)n * sizeof *id + 1) : NULL;
        spira_status g = spira_dist_vector_gather_f64(r, 0, x);
        if (g == SPIRA_OK && rank_ == 0 && x && id && a->top > 0) {
            for (int32_t i = 0; i < (int32_t)n; i++) id[i] = i;
            sort_key = x;
            qsort(id, (size_t)n, sizeof *id, by_rank);
            long long top = a->top > n ? n : a->top;
            printf("  top %lld     vertex (1-based)  rank\n", top);
            for (long long k = 0; k < top; k++)
                printf("  %6lld  %12d  %.6e\n", k + 1, id[k] + 1, x[id[k]]);
        }
        if (g == SPIRA_OK && rank_ == 0 && x && a->output && rc == 0) {
            spira_context host;
            spira_context_opts co = {.backend = SPIRA_BACKEND_CPU};
            spira_vector v = NULL;
            g = spira_context_create(&host, &co);
            if (g == SPIRA_OK) g = spira_vector_create(host, n, a->dtype, &v);
            if (g == SPIRA_OK) g = spira_vector_set_f64(v, x);
            if (g == SPIRA_OK) g = spira_vector_write_mm(v, a->output);
            if (g != SPIRA_OK) fprintf(stderr, "%s: %s: %s\n", cli_prog, a->output,
                                       spira_last_error(host));
            spira_vector_destroy(v);
            spira_context_destroy(host);
        }
        if (g != SPIRA_OK) rc = 1;
        free(x), free(id);
    }
    spira_dist_vector_destroy(r);
    spira_dist_matrix_destroy(G);
    spira_context_destroy(ctx);
    MPI_Finalize();
    return rc;
}

#else /* built without MPI */

int cli_dist_wanted(int force)
{
    if (force)
        cli_usage_error("a distributed run (--dist, --rmat) needs a library built --with-mpi");
    return 0;
}

int cli_dist_solve(int *argc, char ***argv, const cli_dist_solve_args *a)
{
    (void)argc, (void)argv, (void)a;
    return 2;
}

int cli_dist_pagerank(int *argc, char ***argv, const cli_dist_pagerank_args *a)
{
    (void)argc, (void)argv, (void)a;
    return 2;
}

#endif
