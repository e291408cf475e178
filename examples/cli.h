/*
 * cli.h - small helpers shared by the command-line drivers in examples/.
 */
#ifndef SPIRA_CLI_H
#define SPIRA_CLI_H

#include "spira.h"

/* Print "PROG: WHAT: STATUS: message" to stderr and exit 1 if s is not SPIRA_OK. */
void cli_check(spira_context ctx, spira_status s, const char *what);
/* Parse "auto", "cpu", "cuda"; exits with a message otherwise. */
spira_backend cli_backend(const char *s);
/* Parse "s"/"single"/"float" or "d"/"double"; exits otherwise. */
spira_dtype cli_precision(const char *s);
/* Parse a number or exit naming the option. */
double cli_double(const char *opt, const char *s);
long cli_long(const char *opt, const char *s);
/* The matrix of a driver: a Laplacian for lap = "DIM:N" (if not NULL), else the Matrix
 * Market file path. name gets a short label ("laplacian3d-100", or the file's base name).
 * Exits with a message on failure. */
spira_matrix cli_load_matrix(spira_context ctx, const char *lap, const char *path,
                             spira_dtype dtype, char *name, size_t name_size);
/* Select A's SpMV format from "NAME" or "NAME:key=value,..." (--format); exits on error. */
void cli_set_format(spira_context ctx, spira_matrix A, const char *spec);
/* A format and its options from a --formats list. */
typedef struct {
    char name[32];
    char opts[64];
} cli_format_item;
/* "a,b:k=v,k2=v2,c" -> {a,""}, {b,"k=v,k2=v2"}, {c,""}: an item with '=' and no ':' is one
 * more option of the item before it (format names never contain '='); "all" is every name
 * describe(i) gives for i < count. Returns the items filled (at most cap). */
int cli_parse_formats(const char *list, cli_format_item *items, int cap, int count,
                      spira_status (*describe)(int, const char **, const char **));
/* Print a CSV field, quoted when it holds a comma, a quote or a newline. */
void cli_csv_field(const char *s);
/* The median of v[0..n-1], n > 0 (sorts v). The drivers on libspira_core use the
 * library's own; this one is for those that link only the public library. */
double cli_median(double *v, int n);
/* Program name for messages. */
extern const char *cli_prog;

#endif
