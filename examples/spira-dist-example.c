/*
 * spira-dist-example.c - a distributed solve to copy from (a library built --with-mpi).
 *
 * Every rank makes its own rows of the 3-D Poisson matrix on an m^3 grid (no rank holds
 * the whole matrix), solves A x = b for b = A * ones with Jacobi-preconditioned CG, and
 * checks x against the ones it should be. Rank 0 prints the report. Each rank computes on
 * its own GPU when there is one (device = the rank's number on its host) and the library
 * has the GPU path (--with-nccl), else on the CPU.
 *
 *     mpicc spira-dist-example.c $(pkg-config --cflags --libs spira) -o spira-dist-example
 *     mpirun -np 4 ./spira-dist-example [m]
 * Exit status: 0 when the answer is right on every rank, 1 otherwise.
 */
#include <mpi.h>
#include <spira_mpi.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* Calls are collective and so are errors: every rank gets the same status, so every rank
 * takes the same way out. */
static int failed(spira_context ctx, spira_status s, const char *what)
{
    if (s == SPIRA_OK) return 0;
    fprintf(stderr, "spira-dist-example: %s: %s: %s\n", what, spira_status_name(s),
            spira_last_error(ctx));
    return 1;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, bad = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const long m = argc > 1 ? atol(argv[1]) : 24;

    /* each rank its own context: one GPU a rank, numbered by the rank's place on its host */
    MPI_Comm host;
    int local;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &host);
    MPI_Comm_rank(host, &local);
    MPI_Comm_free(&host);
    spira_context ctx;
    spira_context_opts co = {.backend = SPIRA_BACKEND_AUTO, .device = local};
    if (spira_context_create(&ctx, &co) != SPIRA_OK) {
        fprintf(stderr, "spira-dist-example: %s\n", spira_last_error(ctx));
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    spira_dist_matrix A = NULL;
    spira_dist_vector ones = NULL, b = NULL, x = NULL;
    spira_status s = spira_dist_matrix_laplacian(ctx, MPI_COMM_WORLD, 3, m, SPIRA_R64,
                                                 SPIRA_DIST_EVEN, &A);
    if (s == SPIRA_ERR_UNSUPPORTED && spira_context_backend(ctx) == SPIRA_BACKEND_CUDA) {
        /* a library without the GPU path (no --with-nccl): every rank on its CPU instead */
        if (rank == 0) printf("on the CPU: %s\n", spira_last_error(ctx));
        spira_context_destroy(ctx);
        co.backend = SPIRA_BACKEND_CPU;
        if (spira_context_create(&ctx, &co) != SPIRA_OK) MPI_Abort(MPI_COMM_WORLD, 1);
        s = spira_dist_matrix_laplacian(ctx, MPI_COMM_WORLD, 3, m, SPIRA_R64, SPIRA_DIST_EVEN, &A);
    }
    bad = failed(ctx, s, "Laplacian");
    if (!bad) bad = failed(ctx, spira_dist_vector_create(A, &ones), "vector");
    if (!bad) bad = failed(ctx, spira_dist_vector_create(A, &b), "vector");
    if (!bad) bad = failed(ctx, spira_dist_vector_create(A, &x), "vector");
    /* b = A * ones: the halo exchange runs under the diagonal block's multiply */
    if (!bad) bad = failed(ctx, spira_dist_vector_fill(ones, 1.0), "fill");
    if (!bad) bad = failed(ctx, spira_dist_spmv(1.0, A, ones, 0.0, b), "SpMV");

    spira_solve_opts o = {.rtol = 1e-10, .precond = SPIRA_PRECOND_JACOBI};
    spira_solve_info info; /* the same on every rank */
    if (!bad) bad = failed(ctx, spira_dist_solve(SPIRA_SOLVER_CG, A, b, x, &o, &info), "CG");

    /* x - ones on this rank's rows, then the largest error over all ranks */
    double err = 0;
    if (!bad) {
        spira_dist_matrix_info di;
        spira_dist_matrix_get_info(A, &di);
        double *h = malloc((di.local_rows + 1) * sizeof *h);
        spira_vector_get_f64(spira_dist_vector_local(x), h);
        for (int32_t i = 0; i < di.local_rows; i++) err = fmax(err, fabs(h[i] - 1.0));
        free(h);
        MPI_Allreduce(MPI_IN_PLACE, &err, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        if (rank == 0)
            printf("CG on the 3-D Laplacian, %lld rows over %d ranks (%s): %s in %d iterations, "
                   "relative residual %.2e, max |x - 1| = %.2e; rank 0 owns %d rows, receives "
                   "%d ghosts from %d ranks, %lld allreduces\n",
                   (long long)di.nrows, di.ranks,
                   spira_context_backend(ctx) == SPIRA_BACKEND_CUDA ? "one GPU each" : "CPUs",
                   spira_reason_string(info.reason),
                   info.iterations, info.rel_residual, err, di.local_rows, di.ghosts,
                   di.recv_neighbors, (long long)di.reductions);
        bad = !(err < 1e-6);
    }
    spira_dist_vector_destroy(ones);
    spira_dist_vector_destroy(b);
    spira_dist_vector_destroy(x);
    spira_dist_matrix_destroy(A);
    spira_context_destroy(ctx);
    MPI_Finalize();
    return bad ? 1 : 0;
}
