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
/* Program name for messages. */
extern const char *cli_prog;

#endif
