/* cli.c - shared helpers of the command-line drivers. */
#define _POSIX_C_SOURCE 200809L /* strdup, strtok_r */
#include "cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *cli_prog = "spira";

void cli_check(spira_context ctx, spira_status s, const char *what)
{
    if (s == SPIRA_OK) return;
    fprintf(stderr, "%s: %s: %s: %s\n", cli_prog, what, spira_status_name(s),
            spira_last_error(ctx));
    exit(1);
}

spira_backend cli_backend(const char *s)
{
    if (!strcmp(s, "auto")) return SPIRA_BACKEND_AUTO;
    if (!strcmp(s, "cpu")) return SPIRA_BACKEND_CPU;
    if (!strcmp(s, "cuda") || !strcmp(s, "gpu")) return SPIRA_BACKEND_CUDA;
    fprintf(stderr, "%s: --backend must be auto, cpu or cuda, not '%s'\n", cli_prog, s);
    exit(2);
}

spira_dtype cli_precision(const char *s)
{
    if (!strcmp(s, "d") || !strcmp(s, "double")) return SPIRA_R64;
    if (!strcmp(s, "s") || !strcmp(s, "single") || !strcmp(s, "float")) return SPIRA_R32;
    fprintf(stderr, "%s: --precision must be s or d, not '%s'\n", cli_prog, s);
    exit(2);
}

double cli_double(const char *opt, const char *s)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end) {
        fprintf(stderr, "%s: %s needs a number, not '%s'\n", cli_prog, opt, s);
        exit(2);
    }
    return v;
}

spira_matrix cli_load_matrix(spira_context ctx, const char *lap, const char *path,
                             spira_dtype dtype, char *name, size_t name_size)
{
    spira_matrix A;
    if (lap) {
        int dim = 0;
        long n = 0;
        char end;
        if (sscanf(lap, "%d:%ld%c", &dim, &n, &end) != 2) {
            fprintf(stderr, "%s: --laplacian wants DIM:N, e.g. 3:100, not '%s'\n", cli_prog, lap);
            exit(2);
        }
        cli_check(ctx, spira_matrix_laplacian(ctx, dim, n, dtype, &A), "generating the Laplacian");
        snprintf(name, name_size, "laplacian%dd-%ld", dim, n);
    } else {
        cli_check(ctx, spira_matrix_read_mm(ctx, path, dtype, &A), path);
        const char *base = strrchr(path, '/');
        snprintf(name, name_size, "%s", base ? base + 1 : path);
    }
    return A;
}

long cli_long(const char *opt, const char *s)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end) {
        fprintf(stderr, "%s: %s needs an integer, not '%s'\n", cli_prog, opt, s);
        exit(2);
    }
    return v;
}

void cli_set_format(spira_context ctx, spira_matrix A, const char *spec)
{
    char name[64];
    const char *colon = strchr(spec, ':');
    size_t len = colon ? (size_t)(colon - spec) : strlen(spec);
    snprintf(name, sizeof name, "%.*s", (int)(len < sizeof name ? len : sizeof name - 1), spec);
    cli_check(ctx, spira_matrix_set_format(A, name, colon ? colon + 1 : NULL), "--format");
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
            snprintf(p->opts + len, sizeof p->opts - len, "%s%s", len ? "," : "", tok);
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
        snprintf(items[n].name, sizeof items[n].name, "%s", tok);
        snprintf(items[n].opts, sizeof items[n].opts, "%s", colon ? colon + 1 : "");
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
