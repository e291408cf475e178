/*
 * cli.h - small helpers shared by the command-line drivers in examples/.
 */
#ifndef SPIRA_CLI_H
#define SPIRA_CLI_H

#include "spira.h"

#include <stdio.h>

/* Test hooks (tests/fuzz/fuzz_cli.c): where the one-line errors go (NULL: stderr) and what
 * ends the program after one (NULL: exit). */
extern FILE *cli_err;
extern void (*cli_exit)(int status);
/* Print "PROG: WHAT: STATUS: message" to stderr and exit 1 if s is not SPIRA_OK. */
void cli_check(spira_context ctx, spira_status s, const char *what);
/* Parse "auto", "cpu", "cuda"; exits with a message otherwise. */
spira_backend cli_backend(const char *s);
/* Parse "none", "rcm", "degree" (the option --reorder); exits otherwise. The names are
 * indexed by spira_reorder. */
spira_reorder cli_reorder(const char *s);
extern const char *const cli_reorder_names[3];
/* Parse "s"/"single"/"float" or "d"/"double"; exits otherwise. */
spira_dtype cli_precision(const char *s);
/* Option values, parsed whole and range-checked: anything else (junk, a suffix, a value
 * that wraps or overflows, NaN, Inf, out of range) exits with status 2 after one line
 * "PROG: OPT 'VALUE': want RANGE". cli_int: a decimal integer in [lo, hi]. cli_real: a
 * finite number in [lo, hi], the ends excluded where lo_open / hi_open; hi may be INFINITY
 * (no upper bound). note, if not NULL, is appended to the range in parentheses. */
long long cli_int(const char *opt, const char *s, long long lo, long long hi);
double cli_real(const char *opt, const char *s, double lo, int lo_open, double hi, int hi_open,
                const char *note);
/* "A:B" with A and B integers in [lo_a, hi_a] and [lo_b, hi_b] (--laplacian, --nfs); what
 * names the form ("DIM:N"); exits as cli_int otherwise. */
void cli_int_pair(const char *opt, const char *s, const char *what, long long lo_a,
                  long long hi_a, long long lo_b, long long hi_b, long long *a, long long *b);
/* Print "PROG: " and the message (printf-style) on one line to stderr, exit 2. */
void cli_usage_error(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2), noreturn))
#endif
    ;
/* getopt_long gave c, not an option of the driver's (drivers set opterr = 0 and start
 * optstring with ':'): "unknown option" ('?') or "needs a value" (':'), one line, exit 2. */
void cli_bad_option(int c, char **argv);
/* --laplacian DIM:N: DIM 2 or 3, N from 1 to 2^31 - 1; exits as cli_int otherwise. */
void cli_laplacian(const char *spec, int *dim, int64_t *n);
/* After getopt: the positional arguments argv[first..argc-1] must number at most max;
 * one more is an error naming it (exit 2). */
void cli_positional(int argc, char **argv, int first, int max, const char *expected);
/* The matrix of a driver: a Laplacian for lap = "DIM:N" (if not NULL), else the Matrix
 * Market file path. name gets a short label ("laplacian3d-100", or the file's base name).
 * Exits with a message on failure. */
spira_matrix cli_load_matrix(spira_context ctx, const char *lap, const char *path,
                             spira_dtype dtype, char *name, size_t name_size);
/* Graph500's R-MAT graph (spira_matrix_rmat) of 2^scale vertices and edge_factor 2^scale
 * edges from seed; name gets a short label ("rmat-20-16-seed1"). Exits with a message on
 * failure. */
spira_matrix cli_rmat_graph(spira_context ctx, int scale, int edge_factor, unsigned long long seed,
                            spira_dtype dtype, char *name, size_t name_size);
/* Select A's SpMV format from "NAME" or "NAME:key=value,..." (--format); exits on error.
 * prepare: build its plan now, so a bad option value is reported as --format's. */
void cli_set_format(spira_context ctx, spira_matrix A, const char *spec, int prepare);
/* A format and its options from a --formats list. */
typedef struct {
    char name[32];
    char opts[128];
} cli_format_item;
/* "a,b:k=v,k2=v2,c" -> {a,""}, {b,"k=v,k2=v2"}, {c,""}: an item with '=' and no ':' is one
 * more option of the item before it (format names never contain '='); "all" is every name
 * describe(i) gives for i < count. Returns the items filled (at most cap); a name or options
 * longer than an item holds exit 2 with a usage error. */
int cli_parse_formats(const char *list, cli_format_item *items, int cap, int count,
                      spira_status (*describe)(int, const char **, const char **));
/* Print a CSV field, quoted when it holds a comma, a quote or a newline. */
void cli_csv_field(const char *s);
/* The median of v[0..n-1], n > 0 (sorts v). */
double cli_median(double *v, int n);
/* Wall clock in milliseconds (monotonic): for what is not a multiply (generating,
 * building, a whole kernel search); multiplies are timed by spira_spmv_time. */
double cli_now_ms(void);
/* xorshift64 (Marsaglia's 13, 7, 17): the next word of the drivers' fixed-seed inputs,
 * state *s (never 0); the library's own generator, so the inputs are those of the tests. */
uint64_t cli_xorshift64(uint64_t *s);
/* Program name for messages. */
extern const char *cli_prog;

#endif
