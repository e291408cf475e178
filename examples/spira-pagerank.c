/*
 * spira-pagerank - PageRank of a graph given as a Matrix Market adjacency matrix (entry
 * (i, j) is an edge i -> j; pattern files give weight 1, others weight the edges), or of
 * Graph500's R-MAT graph generated (--rmat). Prints the top K vertices (1-based ids) with
 * their ranks, the iterations and the times; writes the whole rank vector with --output.
 * Under `mpirun -np N` (a library built --with-mpi) or with --dist, the same iteration
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
            "usage: spira-pagerank [options] graph.mtx[.gz]\n"
            "       spira-pagerank [options] --rmat SCALE:EF   (Graph500's R-MAT graph)\n"
            "PageRank of the graph whose adjacency matrix is graph.mtx (A(i,j) != 0: an\n"
            "edge i -> j; weights >= 0 make the walk proportional to them).\n"
            "  --alpha A           damping, the probability of following an edge (0.85)\n"
            "  --tol T             stop when ||x_k+1 - x_k||_1 <= T (default 1e-6)\n"
            "  --maxit N           iteration limit (default 1000)\n"
            "  --top K             print the K highest-ranked vertices (default 10)\n"
            "  --format NAME[:OPTS] SpMV format of the transition matrix (default auto: chosen\n"
            "                       for the expected multiplies, e.g. auto:expected_multiplies=N)\n"
            "  --backend NAME      auto (default), cpu, cuda\n"
            "  --precision s|d     single or double (default d)\n"
            "  --reorder NAME      none (default), rcm or degree: iterate on P G P^T (the\n"
            "                      ranks come back in G's numbering); the bandwidths printed\n"
            "  --output FILE       write the rank vector (Matrix Market array)\n"
            "  --rmat SCALE:EF     the R-MAT graph of 2^SCALE vertices and EF 2^SCALE edges\n"
            "                      (Graph500: a, b, c = 0.57, 0.19, 0.19), generated: in one\n"
            "                      process up to 2^31 - 1 edges, in a distributed run by the\n"
            "                      ranks themselves\n"
            "  --seed S            R-MAT's seed (default 1)\n"
            "  --repeat N          run N times, the transition built once, and report the\n"
            "                      median of runs 2..N (default 1)\n"
            "  --dist              distributed run (a library built --with-mpi; the default\n"
            "                      under mpirun with more than one rank): rows split evenly,\n"
            "                      one GPU a rank (device = the rank's number on its host);\n"
            "                      each rank reads its share of a file\n"
            "  --help              this text\n");
}

static const double *sort_key;

/* descending rank, then ascending id */
static int by_rank(const void *a, const void *b)
{
    int32_t i = *(const int32_t *)a, j = *(const int32_t *)b;
    if (sort_key[i] != sort_key[j]) return sort_key[i] < sort_key[j] ? 1 : -1;
    return (i > j) - (i < j);
}

/* Everything the command line says, checked (tests/fuzz/fuzz_cli.c drives this too). */
typedef struct {
    const char *format, *output, *path;
    spira_context_opts copts;
    spira_dtype dtype;
    spira_pagerank_opts o;
    long long top, rmat_scale, rmat_ef, seed;
    int dist, repeat;
} pagerank_args;

/* Parse argv into a; 1 when --help was printed (exit 0). Exits 2 on a bad argument. */
static int parse_args(int argc, char **argv, pagerank_args *a)
{
    static const struct option longopts[] = {
        {"alpha", required_argument, 0, 'a'},  {"tol", required_argument, 0, 't'},
        {"maxit", required_argument, 0, 'm'},  {"top", required_argument, 0, 'k'},
        {"format", required_argument, 0, 'f'}, {"backend", required_argument, 0, 'B'},
        {"precision", required_argument, 0, 'p'}, {"output", required_argument, 0, 'o'},
        {"rmat", required_argument, 0, 'R'},   {"seed", required_argument, 0, 'S'},
        {"repeat", required_argument, 0, 'r'}, {"dist", no_argument, 0, 'X'},
        {"reorder", required_argument, 0, 'Q'},
        {"help", no_argument, 0, 'h'},         {0, 0, 0, 0}};
    *a = (pagerank_args){.copts = {.backend = SPIRA_BACKEND_AUTO}, .dtype = SPIRA_R64,
                         .top = 10, .seed = 1, .repeat = 1};
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        switch (c) {
        case 'a': a->o.alpha = cli_real("--alpha", optarg, 0, 1, 1, 1, NULL); break;
        case 't':
            a->o.tol = cli_real("--tol", optarg, 0, 0, INFINITY, 0, "0: only --maxit stops");
            if (a->o.tol == 0) a->o.tol = SPIRA_TOL_ZERO;
            break;
        case 'm': a->o.maxit = (int)cli_int("--maxit", optarg, 1, INT_MAX); break;
        case 'k': a->top = cli_int("--top", optarg, 0, INT32_MAX); break;
        case 'f': a->format = optarg; break;
        case 'B': a->copts.backend = cli_backend(optarg); break;
        case 'Q': a->o.reorder = cli_reorder(optarg); break;
        case 'p': a->dtype = cli_precision(optarg); break;
        case 'o': a->output = optarg; break;
        case 'R':
            cli_int_pair("--rmat", optarg, "SCALE:EF", 1, 40, 1, 1024, &a->rmat_scale,
                         &a->rmat_ef);
            break;
        case 'S': a->seed = cli_int("--seed", optarg, 0, LLONG_MAX); break;
        case 'r': a->repeat = (int)cli_int("--repeat", optarg, 1, 1000000); break;
        case 'X': a->dist = 1; break;
        case 'h': usage(stdout); return 1;
        default: cli_bad_option(c, argv);
        }
    }
    if (optind >= argc && !a->rmat_scale) cli_usage_error("no graph: give graph.mtx or --rmat");
    cli_positional(argc, argv, optind, a->rmat_scale ? 0 : 1,
                   a->rmat_scale ? "--rmat gives the graph" : "one graph file");
    a->path = a->rmat_scale ? NULL : argv[optind];
    return 0;
}

/* Runs 2..N of --repeat, as the first was: their median time (the first pays one-time
 * costs, such as loading the kernels it launches), and whether any stopped differently. */
static spira_status rank_again(spira_matrix G, spira_vector rank, const spira_pagerank_opts *o,
                               const spira_pagerank_info *first, int n)
{
    double *ms = malloc((size_t)n * sizeof *ms);
    if (!ms) return SPIRA_ERR_NOMEM;
    spira_status s = SPIRA_OK;
    int same = 1;
    for (int k = 0; k < n && s == SPIRA_OK; k++) {
        spira_pagerank_info info;
        s = spira_pagerank(G, rank, o, &info);
        ms[k] = info.solve_ms;
        same &= info.iterations == first->iterations && info.reason == first->reason;
    }
    if (s == SPIRA_OK) {
        const double med = cli_median(ms, n);
        printf("  repeated    %d more runs: median %.3f ms (%.4f ms each iteration)%s\n", n, med,
               first->iterations ? med / first->iterations : 0.0,
               same ? "" : ", iteration counts or outcomes differed from the first");
    }
    free(ms);
    return s;
}

int main(int argc, char **argv)
{
    cli_prog = "spira-pagerank";
    pagerank_args a;
    if (parse_args(argc, argv, &a)) return 0;
    const char *format = a.format, *output = a.output, *path = a.path;
    spira_dtype dtype = a.dtype;
    spira_pagerank_opts o = a.o;
    long long top = a.top;
    if (cli_dist_wanted(a.dist)) {
        const cli_dist_pagerank_args d = {.copts = a.copts, .dtype = dtype, .path = path,
                                          .rmat_scale = (int)a.rmat_scale,
                                          .rmat_edge_factor = (int)a.rmat_ef,
                                          .seed = (unsigned long long)a.seed, .format = format,
                                          .output = output, .o = o, .top = top,
                                          .repeat = a.repeat};
        return cli_dist_pagerank(&argc, &argv, &d);
    }
    spira_context ctx;
    spira_status created = spira_context_create(&ctx, &a.copts); /* sets ctx, even on failure */
    cli_check(ctx, created, "creating the context");
    spira_matrix G;
    char rmat[64];
    const char *name = path ? path : rmat;
    if (path)
        cli_check(ctx, spira_matrix_read_mm(ctx, path, dtype, &G), path);
    else
        G = cli_rmat_graph(ctx, (int)a.rmat_scale, (int)a.rmat_ef, (unsigned long long)a.seed,
                           dtype, rmat, sizeof rmat);
    if (format) cli_set_format(ctx, G, format, 0);
    spira_matrix_info mi;
    spira_matrix_get_info(G, &mi);
    spira_vector rank;
    cli_check(ctx, spira_vector_create(ctx, mi.nrows, dtype, &rank), "allocating the ranks");

    printf("spira %s: PageRank of %s\n", spira_version(), name);
    printf("  graph       %lld vertices, %lld edges, %s\n", (long long)mi.nrows,
           (long long)mi.nnz, dtype == SPIRA_R64 ? "double" : "single");
    printf("  backend     %s: %s\n",
           spira_context_backend(ctx) == SPIRA_BACKEND_CUDA ? "cuda" : "cpu",
           spira_context_device_name(ctx));
    spira_pagerank_info info;
    spira_status s = spira_pagerank(G, rank, &o, &info);
    int rc = 0;
    if (s != SPIRA_OK && s != SPIRA_ERR_NOT_CONVERGED) {
        fprintf(stderr, "spira-pagerank: %s: %s\n", spira_status_name(s), spira_last_error(ctx));
        rc = 1;
        goto out;
    }
    printf("  alpha       %g, SpMV format %s\n", o.alpha > 0 ? o.alpha : 0.85,
           info.format ? info.format : "?");
    if (info.format_reason && info.format_reason[0]) /* the transition's, which is multiplied */
        printf("  format      %s\n", info.format_reason);
    if (info.reorder != SPIRA_REORDER_NONE)
        printf("  reorder     %s in %.3f ms (once per graph): bandwidth %lld -> %lld\n",
               cli_reorder_names[info.reorder], info.reorder_ms,
               (long long)info.bandwidth_before, (long long)info.bandwidth_after);
    printf("  result      %s after %d iterations, ||x_k - x_k-1||_1 = %.3e\n",
           spira_reason_string(info.reason), info.iterations, info.delta);
    printf("  sum         |sum(x) - 1| = %.2e before the final renormalization\n",
           info.sum_error);
    printf("  time        setup %.3f ms, iterations %.3f ms (%.4f ms each)\n", info.setup_ms,
           info.solve_ms, info.iterations ? info.solve_ms / info.iterations : 0.0);
    if (a.repeat > 1 && s == SPIRA_OK) s = rank_again(G, rank, &o, &info, a.repeat - 1);
    if (s != SPIRA_OK) {
        fprintf(stderr, "spira-pagerank: %s: %s\n", spira_status_name(s), spira_last_error(ctx));
        rc = 1;
    }
    if (top > 0 && mi.nrows > 0) {
        double *x = malloc((size_t)mi.nrows * sizeof *x);
        int32_t *id = malloc((size_t)mi.nrows * sizeof *id);
        if (!x || !id) {
            fprintf(stderr, "spira-pagerank: out of memory for the ranking\n");
            free(x), free(id);
            rc = 1;
            goto out;
        }
        cli_check(ctx, spira_vector_get_f64(rank, x), "reading the ranks");
        for (int32_t i = 0; i < mi.nrows; i++) id[i] = i;
        sort_key = x;
        qsort(id, (size_t)mi.nrows, sizeof *id, by_rank);
        if (top > mi.nrows) top = mi.nrows;
        printf("  top %lld     vertex (1-based)  rank\n", top);
        for (long long k = 0; k < top; k++)
            printf("  %6lld  %12d  %.6e\n", k + 1, id[k] + 1, x[id[k]]);
        free(x), free(id);
    }
    if (output && rc == 0) cli_check(ctx, spira_vector_write_mm(rank, output), output);
out:
    spira_vector_destroy(rank);
    spira_matrix_destroy(G);
    spira_context_destroy(ctx);
    return rc;
}
