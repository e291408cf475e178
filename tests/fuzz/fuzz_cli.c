/*
 * fuzz_cli.c - libFuzzer target for the drivers' option parsing: spira-solve's and
 * spira-pagerank's parse_args (their getopt loops, cli_int, cli_real, the --laplacian
 * pair) on an argv cut from the input at NUL bytes, the first byte choosing the driver.
 * A bad command line must end in exactly one line "PROG: ..." and exit status 2 (the
 * cli_exit hook turns the exit into a longjmp back here); an accepted one must hold values
 * in range, which the library must accept too: a solve (or PageRank) on a small matrix
 * with those options (the iteration limit capped) may converge or not, never
 * SPIRA_ERR_INVALID_ARG (but for CG refusing ILUT, a pairing, not a range); --format's
 * name and options go to spira_matrix_set_format and a plan build. Nothing may leak.
 */
#define _GNU_SOURCE /* open_memstream */
#include "spira_impl.h"

#include <math.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the drivers, each with its main and file-local names renamed */
#define main solve_main
#define usage solve_usage
#define parse_args solve_parse_args
#include "../../examples/spira-solve.c"
#undef main
#undef usage
#undef parse_args
#define main pagerank_main
#define usage pagerank_usage
#define parse_args pagerank_parse_args
#include "../../examples/spira-pagerank.c"
#undef main
#undef usage
#undef parse_args

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static jmp_buf back;
static int exit_status;

static void no_exit(int status)
{
    exit_status = status;
    longjmp(back, 1);
}

enum { MAXARGS = 48 };

/* The library must take what the driver accepted: a status other than INVALID_ARG. */
static void library_accepts(spira_context ctx, int pagerank, const char *format,
                            const spira_solve_opts *so, spira_solver_type type,
                            const spira_pagerank_opts *po)
{
    /* 3 x 3, SPD, a 3-cycle's edges in the off-diagonal: fits both uses */
    int32_t ri[] = {0, 0, 1, 1, 2, 2}, ci[] = {0, 1, 1, 2, 2, 0};
    double v[] = {4, 1, 4, 1, 4, 1};
    spira_matrix A;
    if (spira_matrix_from_coo(ctx, 3, 3, 6, ri, ci, v, SPIRA_R64, &A) != SPIRA_OK) abort();
    if (format) {
        char name[64];
        const char *colon = strchr(format, ':');
        size_t len = colon ? (size_t)(colon - format) : strlen(format);
        snprintf(name, sizeof name, "%.*s", (int)(len < sizeof name ? len : sizeof name - 1),
                 format);
        if (spira_matrix_set_format(A, name, colon ? colon + 1 : NULL) == SPIRA_OK)
            spira_matrix_prepare(A); /* a bad option value: a status, no crash */
        spira_matrix_set_format(A, "csr-scalar", NULL);
    }
    spira_vector b, x;
    if (spira_vector_create(ctx, 3, SPIRA_R64, &b) != SPIRA_OK ||
        spira_vector_create(ctx, 3, SPIRA_R64, &x) != SPIRA_OK)
        abort();
    spira_vector_fill(b, 1.0);
    spira_status s;
    if (pagerank) {
        spira_pagerank_opts o = *po;
        if (o.maxit == 0 || o.maxit > 50) o.maxit = 50;
        s = spira_pagerank(A, x, &o, NULL);
    } else {
        spira_solve_opts o = *so;
        if (o.maxit == 0 || o.maxit > 50) o.maxit = 50;
        s = spira_solve(type, A, b, x, &o, NULL);
    }
    /* a pairing the library refuses on its own ground (CG with ILUT) is not a range */
    if (s == SPIRA_ERR_INVALID_ARG &&
        !strstr(spira_last_error(ctx), "needs a symmetric preconditioner")) {
        fprintf(stderr, "the driver accepted options the library refuses: %s\n",
                spira_last_error(ctx));
        abort();
    }
    spira_vector_destroy(b);
    spira_vector_destroy(x);
    spira_matrix_destroy(A);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static spira_context ctx;
    if (!ctx) {
        spira_context_opts o = {.backend = SPIRA_BACKEND_CPU, .max_bytes = (size_t)64 << 20};
        if (spira_context_create(&ctx, &o) != SPIRA_OK) abort();
        cli_exit = no_exit;
    }
    if (size < 1) return 0;
    int pagerank = data[0] & 1;
    /* argv: the rest of the input cut at NUL bytes, each piece its own allocation */
    char *argv[MAXARGS + 2];
    int argc = 0;
    argv[argc++] = pagerank ? "spira-pagerank" : "spira-solve";
    size_t i = 1;
    while (i < size && argc <= MAXARGS) {
        size_t j = i;
        while (j < size && data[j]) j++;
        char *arg = malloc(j - i + 1);
        if (!arg) abort();
        memcpy(arg, data + i, j - i);
        arg[j - i] = 0;
        argv[argc++] = arg;
        i = j + 1;
    }
    argv[argc] = NULL;
    char *msg = NULL;
    size_t msg_len = 0;
    FILE *err = open_memstream(&msg, &msg_len);
    if (!err) abort();
    cli_err = err;
    cli_prog = argv[0];
    optind = 0; /* getopt starts afresh */
    long live = spira__alloc_live();
    static solve_args sa; /* static: kept as they were across the longjmp */
    static pagerank_args pa;
    static volatile int helped;
    helped = 0;
    exit_status = 0;
    if (!setjmp(back))
        helped = pagerank ? pagerank_parse_args(argc, argv, &pa) : solve_parse_args(argc, argv, &sa);
    fclose(err);
    cli_err = NULL;
    if (exit_status) { /* refused: status 2 and one line naming the program */
        size_t plen = strlen(argv[0]);
        if (exit_status != 2 || msg_len < plen + 3 || strncmp(msg, argv[0], plen) ||
            msg[plen] != ':' || msg[msg_len - 1] != '\n' || memchr(msg, '\n', msg_len - 1)) {
            fprintf(stderr, "bad refusal (status %d): '%s'\n", exit_status, msg);
            abort();
        }
    } else if (msg_len) {
        fprintf(stderr, "accepted, yet said: '%s'\n", msg);
        abort();
    } else if (!helped && pagerank) {
        const spira_pagerank_opts *o = &pa.o;
        if (!pa.path || pa.top < 0 || o->maxit < 0 || !(o->alpha == 0 || (o->alpha > 0 && o->alpha < 1)) ||
            !(o->tol == SPIRA_TOL_ZERO || (o->tol >= 0 && isfinite(o->tol))))
            abort();
        library_accepts(ctx, 1, pa.format, NULL, 0, o);
    } else if (!helped) {
        const spira_solve_opts *o = &sa.o;
        if (!sa.path == !sa.lap || sa.repeat < 1 || sa.every < 0 || o->maxit < 0 ||
            !(o->rtol == SPIRA_TOL_ZERO || (o->rtol >= 0 && isfinite(o->rtol))) ||
            o->precond_degree < 0 || o->precond_degree > 64 || !(o->damping >= 0) ||
            o->trisolve_sweeps < 0 || o->trisolve_sweeps > SPIRA_TRISOLVE_MAX_SWEEPS ||
            !isfinite(o->damping))
            abort();
        library_accepts(ctx, 0, sa.format, o, sa.type, NULL);
    }
    free(msg);
    for (int k = 1; k < argc; k++) free(argv[k]);
    if (spira__alloc_live() != live) abort();
    return 0;
}
