/*
 * dist_cli.h - spira-solve and spira-pagerank under mpirun (a library built --with-mpi):
 * the same options, a distributed solve when the world has more than one rank or the
 * command line asks (--dist, --rmat). mpi.h stays behind dist_cli.c, so the drivers (and
 * the option fuzzer that includes them) compile alike with and without MPI; built without
 * it, cli_dist_wanted answers 0 and a run that asks for it is told to rebuild.
 *
 * Devices: one GPU a rank. A rank's context names device = its rank among the ranks on
 * its host (MPI_Comm_split_type, the same number as OMPI_COMM_WORLD_LOCAL_RANK under Open
 * MPI), so `mpirun -np G` on a host of G GPUs gives each rank its own.
 */
#ifndef SPIRA_DIST_CLI_H
#define SPIRA_DIST_CLI_H

#include "spira.h"

/* 1 when this run is distributed: asked (force), or started by an MPI launcher whose world
 * has more than one rank (its environment says so). Exits 2 with a message when asked and
 * the library was built without MPI. */
int cli_dist_wanted(int force);

typedef struct {
    spira_context_opts copts;
    spira_dtype dtype;
    const char *lap;     /* "DIM:N", or NULL for path */
    const char *path;    /* Matrix Market file: rank 0 reads it and scatters the rows */
    const char *rhs, *format, *output, *solver_name, *precond_name;
    spira_solver_type type;
    spira_solve_opts o;
    int every, repeat;
} cli_dist_solve_args;

typedef struct {
    spira_context_opts copts;
    spira_dtype dtype;
    const char *path;    /* Matrix Market file (rank 0 reads and scatters) ... */
    int rmat_scale, rmat_edge_factor; /* ... or the R-MAT graph (scale > 0) */
    unsigned long long seed;
    const char *format, *output;
    spira_pagerank_opts o;
    long long top;
    int repeat;
} cli_dist_pagerank_args;

/* MPI_Init, the run, MPI_Finalize: the exit status (0, or 1 on a failure every rank
 * reports alike; rank 0 prints). */
int cli_dist_solve(int *argc, char ***argv, const cli_dist_solve_args *a);
int cli_dist_pagerank(int *argc, char ***argv, const cli_dist_pagerank_args *a);

#endif
