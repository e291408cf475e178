/* cli.c - shared helpers of the command-line drivers. */
#define _POSIX_C_SOURCE 200809L /* strdup, strtok_r */
#include "cli.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const char *cli_prog = "spira";
FILE *cli_err;
void (*cli_exit)(int status);

static void leave(int status)
{
    if (cli_exit) cli_exit(status);
    exit(status);
}

/* "PROG: " and the message as one line on stderr (or cli_err): control characters that
 * a value brought in (a newline in an argument, a file name) print as '?'. */
static void say(const char *fmt, va_list ap)
{
    FILE *f = cli_err ? cli_err : stderr;
    va_list aq;
    va_copy(aq, ap);
    int len = vsnprintf(NULL, 0, fmt, aq);
    va_end(aq);
    char *line = len >= 0 ? malloc((size_t)len + 1) : NULL;
    if (!line) {
        fprintf(f, "%s: (out of memory for the message)\n", cli_prog);
        return;
    }
    vsnprintf(line, (size_t)len + 1, fmt, ap);
    for (char *c = line; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f) *c = '?';
    fprintf(f, "%s: %s\n", cli_prog, line);
    free(line);
}

static void say_line(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    say(fmt, ap);
    va_end(ap);
}

void cli_check(spira_context ctx, spira_status s, const char *what)
{
    if (s == SPIRA_OK) return;
    say_line("%s: %s: %s", what, spira_status_name(s), spira_last_error(ctx));
    leave(1);
}

spira_backend cli_backend(const char *s)
{
    if (!strcmp(s, "auto")) return SPIRA_BACKEND_AUTO;
    if (!strcmp(s, "cpu")) return SPIRA_BACKEND_CPU;
    if (!strcmp(s, "cuda") || !strcmp(s, "gpu")) return SPIRA_BACKEND_CUDA;
    cli_usage_error("--backend '%s': want auto, cpu or cuda", s);
}

const char *const cli_reorder_names[3] = {"none", "rcm", "degree"};

spira_reorder cli_reorder(const char *s)
{
    for (int i = 0; i < 3; i++)
        if (!strcmp(s, cli_reorder_names[i])) return (spira_reorder)i;
    cli_usage_error("--reorder '%s': want none, rcm or degree", s);
}

spira_dtype cli_precision(const char *s)
{
    if (!strcmp(s, "d") || !strcmp(s, "double")) return SPIRA_R64;
    if (!strcmp(s, "s") || !strcmp(s, "single") || !strcmp(s, "float")) return SPIRA_R32;
    cli_usage_error("--precision '%s': want s (single) or d (double)", s);
}

void cli_usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    say(fmt, ap);
    va_end(ap);
    leave(2);
    abort(); /* a cli_exit hook must not return */
}

void cli_bad_option(int c, char **argv)
{
    extern int optind, optopt;
    const char *arg = argv[optind - 1];
    if (c == ':') cli_usage_error("option '%s' needs a value (see --help)", arg);
    if (optopt) cli_usage_error("unknown option '-%c' (see --help)", optopt);
    cli_usage_error("unknown option '%s' (see --help)", arg);
}

void cli_laplacian(const char *spec, int *dim, int64_t *n)
{
    long long d, m;
    cli_int_pair("--laplacian", spec, "DIM:N (DIM 2 or 3, N >= 1), e.g. 3:100", 2, 3, 1,
                 INT32_MAX, &d, &m);
    *dim = (int)d;
    *n = m;
}

/* strtoll over the whole of s, base 10, with no leading space; 0 on junk or overflow. */
static int whole_int(const char *s, long long *v)
{
    char *end;
    if (!*s || isspace((unsigned char)*s)) return 0;
    errno = 0;
    *v = strtoll(s, &end, 10);
    return !errno && end != s && !*end;
}

long long cli_int(const char *opt, const char *s, long long lo, long long hi)
{
    long long v;
    if (!whole_int(s, &v) || v < lo || v > hi)
        cli_usage_error("%s '%s': want an integer from %lld to %lld", opt, s, lo, hi);
    return v;
}

double cli_real(const char *opt, const char *s, double lo, int lo_open, double hi, int hi_open,
                const char *note)
{
    char *end;
    errno = 0;
    double v = *s && !isspace((unsigned char)*s) ? strtod(s, &end) : NAN;
    int ok = !isnan(v) && end != s && !*end && isfinite(v) && errno != ERANGE &&
             (lo_open ? v > lo : v >= lo) && (hi_open ? v < hi : v <= hi);
    if (!ok) {
        char range[96];
        if (isinf(hi))
            snprintf(range, sizeof range, "%s %g", lo_open ? ">" : ">=", lo);
        else
            snprintf(range, sizeof range, "in %c%g, %g%c", lo_open ? '(' : '[', lo, hi,
                     hi_open ? ')' : ']');
        cli_usage_error("%s '%s': want a finite number %s%s%s%s", opt, s, range,
                        note ? " (" : "", note ? note : "", note ? ")" : "");
    }
    return v;
}

void cli_int_pair(const char *opt, const char *s, const char *what, long long lo_a,
                  long long hi_a, long long lo_b, long long hi_b, long long *a, long long *b)
{
    char buf[64];
    const char *colon = strchr(s, ':');
    size_t len = colon ? (size_t)(colon - s) : 0;
    if (!colon || len >= sizeof buf)
        cli_usage_error("%s '%s': want %s", opt, s, what);
    memcpy(buf, s, len);
    buf[len] = 0;
    if (!whole_int(buf, a) || !whole_int(colon + 1, b) || *a < lo_a || *a > hi_a || *b < lo_b ||
        *b > hi_b)
        cli_usage_error("%s '%s': want %s, integers from %lld to %lld and from %lld to %lld",
                        opt, s, what, lo_a, hi_a, lo_b, hi_b);
}

void cli_positional(int argc, char **argv, int first, int max, const char *expected)
{
    if (argc - first > max)
        cli_usage_error("unexpected argument '%s' (%s)", argv[first + max], expected);
}

spira_matrix cli_load_matrix(spira_context ctx, const char *lap, const char *path,
                             spira_dtype dtype, char *name, size_t name_size)
{
    spira_matrix A;
    if (lap) {
        int dim;
        int64_t n;
        cli_laplacian(lap, &dim, &n);
        cli_check(ctx, spira_matrix_laplacian(ctx, dim, n, dtype, &A), "generating the Laplacian");
        snprintf(name, name_size, "laplacian%dd-%lld", dim, (long long)n);
    } else {
        cli_check(ctx, spira_matrix_read_mm(ctx, path, dtype, &A), path);
        const char *base = strrchr(path, '/');
        snprintf(name, name_size, "%s", base ? base + 1 : path);
    }
    return A;
}

spira_matrix cli_rmat_graph(spira_context ctx, int scale, int edge_factor, unsigned long long seed,
                            spira_dtype dtype, char *name, size_t name_size)
{
    spira_matrix G;
    cli_check(ctx, spira_matrix_rmat(ctx, scale, edge_factor, (uint64_t)seed, dtype, &G),
              "generating the R-MAT graph");
    snprintf(name, name_size, "rmat-%d-%d-seed%llu", scale, edge_factor, seed);
    return G;
}

void cli_set_format(spira_context ctx, spira_matrix A, const char *spec, int prepare)
{
    char name[64], what[96];
    const char *colon = strchr(spec, ':');
    size_t len = colon ? (size_t)(colon - spec) : strlen(spec);
    snprintf(name, sizeof name, "%.*s", (int)(len < sizeof name ? len : sizeof name - 1), spec);
    snprintf(what, sizeof what, "--format %.80s", spec);
    cli_check(ctx, spira_matrix_set_format(A, name, colon ? colon + 1 : NULL), what);
    if (prepare) cli_check(ctx, spira_matrix_prepare(A), what);
}

int cli_parse_formats(const char *list, cli_format_item *items, int cap, int count,
                      spira_status (*describe)(int, const char **, const char **))
{
    int n = 0;
    char *copy = strdup(list), *save = NULL;
    if (!copy) return 0;
    for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        char *colon = strchr(tok, ':');
        if (!colon && strchr(tok, '=') && n > 0) {
            cli_format_item *p = &items[n - 1];
            size_t len = strlen(p->opts);
            if ((size_t)snprintf(p->opts + len, sizeof p->opts - len, "%s%s", len ? "," : "",
                                 tok) >= sizeof p->opts - len)
                cli_usage_error("--formats: the options of %s are longer than %zu characters",
                                p->name, sizeof p->opts - 1);
            continue;
        }
        if (!strcmp(tok, "all")) {
            for (int i = 0; i < count && n < cap; i++) {
                const char *name;
                describe(i, &name, NULL);
                snprintf(items[n].name, sizeof items[n].name, "%s", name);
                items[n++].opts[0] = 0;
            }
            continue;
        }
        if (n == cap) break;
        if (colon) *colon = 0;
        if ((size_t)snprintf(items[n].name, sizeof items[n].name, "%s", tok) >= sizeof items[n].name ||
            (size_t)snprintf(items[n].opts, sizeof items[n].opts, "%s", colon ? colon + 1 : "") >=
                sizeof items[n].opts)
            cli_usage_error("--formats: '%.40s...' is longer than a format name (%zu characters) "
                            "or its options (%zu) can be", tok, sizeof items[n].name - 1,
                            sizeof items[n].opts - 1);
        n++;
    }
    free(copy);
    return n;
}

void cli_csv_field(const char *s)
{
    if (!strpbrk(s, ",\"\n")) {
        fputs(s, stdout);
        return;
    }
    putchar('"');
    for (; *s; s++) {
        if (*s == '"') putchar('"');
        putchar(*s == '\n' ? ' ' : *s);
    }
    putchar('"');
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double cli_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double cli_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

uint64_t cli_xorshift64(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *s = x;
}
