/*
 * dist-costs.c - what one iteration of a distributed solve spends, part by part, for
 * doc/scaling.md's model (a --with-mpi build; on GPUs --with-nccl):
 *
 *     mpirun -np P bench/dist-costs [--laplacian DIM:N | --rmat SCALE:EF] [--backend cpu|cuda]
 *                                   [--reps R]
 *
 * On the matrix given (default the 3-D Laplacian on 200^3), each rank on its own GPU
 * (device = its rank on the host) unless --backend cpu, it times: the whole distributed
 * SpMV (exchange overlapped), the diagonal block's multiply alone, the halo exchange alone,
 * the off-diagonal block's multiply and its add, the fused local sums CG makes (three
 * dots), and the allreduce of three doubles, from the host and (on GPUs) of device
 * partials. Each figure: the slowest rank's time, the median of R repetitions after a
 * warm-up, every one closed by a synchronization of the device (so it is the time to
 * finish, launch included). Internal entry points: libspira_core.
 */
#include "config.h"
#include "dist.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank_, size_;

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median over reps of the slowest rank's time of op(data), ms; -1 when it failed. */
typedef spira_status (*op_fn)(void *data);
static double time_op(spira_context ctx, op_fn op, void *data, int reps)
{
    double *t = malloc((size_t)reps * sizeof *t);
    int bad = 0;
    for (int r = -2; r < reps && t; r++) { /* two warm-ups */
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        spira_status s = op(data);
        if (s == SPIRA_OK) s = spira_context_synchronize(ctx);
        double ms = (MPI_Wtime() - t0) * 1e3, worst;
        bad |= s != SPIRA_OK;
        MPI_Allreduce(&ms, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        if (r >= 0) t[r] = worst;
    }
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    double med = -1;
    if (t && !bad) {
        qsort(t, (size_t)reps, sizeof *t, cmp);
        med = reps % 2 ? t[reps / 2] : 0.5 * (t[reps / 2 - 1] + t[reps / 2]);
    }
    free(t);
    return med;
}

typedef struct {
    spira_dist_matrix A;
    spira_dist_vector x, y;
    spira_vector dsum; /* 3 doubles where the context computes */
    double sums[3];
} bench;

static spira_status op_spmv(void *d)
{
    bench *b = d;
    return spira_dist_spmv(1.0, b->A, b->x, 0.0, b->y);
}

static spira_status op_diag(void *d)
{
    bench *b = d;
    return spira__spmv_apply(b->A->pd, 1.0, b->x->local->data, 0.0, b->y->local->data);
}

static spira_status op_halo(void *d)
{
    bench *b = d;
    spira_dist_matrix A = b->A;
    SPIRA__TRY(spira__halo_start(A->ctx, A->halo, b->x->local->data,
                                 A->ghost_x ? A->ghost_x->data : NULL));
    return spira__halo_finish(A->ctx, A->halo);
}

static spira_status op_offdiag(void *d)
{
    bench *b = d;
    spira_dist_matrix A = b->A;
    if (!A->po) return SPIRA_OK;
    SPIRA__TRY(spira__spmv_apply(A->po, 1.0, A->ghost_x->data, 0.0, A->otmp->data));
    return spira__dist_add_offdiag(A, A->otmp, b->y->local->data);
}

static spira_status op_dots(void *d)
{
    bench *b = d;
    spira_vector v = b->x->local, w = b->y->local;
    spira_vector l[3] = {v, w, v}, r[3] = {v, v, w};
    return spira__dots(3, l, r, b->sums);
}

static spira_status op_sum_host(void *d)
{
    bench *b = d;
    b->sums[0] = b->sums[1] = b->sums[2] = 1.0;
    return spira__dist_sum(b->A->ctx, b->A->L, 3, b->sums);
}

static spira_status op_sum_device(void *d)
{
    bench *b = d;
    return spira__dist_sum_device(b->A->ctx, b->A->L, 3, (double *)b->dsum->data);
}

static void fail(spira_context ctx, spira_status s, const char *what)
{
    if (s == SPIRA_OK) return;
    if (rank_ == 0) fprintf(stderr, "dist-costs: %s: %s\n", what, spira_last_error(ctx));
    MPI_Finalize();
    exit(1);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    int dim = 3, scale = 0, ef = 16, reps = 50;
    long long n = 200;
    spira_backend backend = SPIRA_BACKEND_CUDA;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--laplacian") && i + 1 < argc)
            sscanf(argv[++i], "%d:%lld", &dim, &n);
        else if (!strcmp(argv[i], "--rmat") && i + 1 < argc)
            sscanf(argv[++i], "%d:%d", &scale, &ef);
        else if (!strcmp(argv[i], "--backend") && i + 1 < argc)
            backend = !strcmp(argv[++i], "cpu") ? SPIRA_BACKEND_CPU : SPIRA_BACKEND_CUDA;
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc)
            reps = atoi(argv[++i]);
        else {
            if (rank_ == 0)
                fprintf(stderr, "usage: dist-costs [--laplacian DIM:N | --rmat SCALE:EF] "
                                "[--backend cpu|cuda] [--reps R]\n");
            MPI_Finalize();
            return 2;
        }
    }
    if (reps < 1) reps = 1;
    MPI_Comm host;
    int local;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &host);
    MPI_Comm_rank(host, &local);
    MPI_Comm_free(&host);
    spira_context ctx;
    spira_context_opts co = {.backend = backend, .device = local};
    spira_status s = spira_context_create(&ctx, &co);
    int ok = s == SPIRA_OK;
    MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (!ok) {
        if (s != SPIRA_OK) fprintf(stderr, "dist-costs: rank %d: %s\n", rank_, spira_last_error(ctx));
        MPI_Finalize();
        return 1;
    }
    bench b = {0};
    char what[96];
    if (scale > 0) {
        snprintf(what, sizeof what, "R-MAT scale %d, edge factor %d", scale, ef);
        s = spira_dist_matrix_rmat(ctx, MPI_COMM_WORLD, scale, ef, 1, SPIRA_R64, SPIRA_DIST_EVEN,
                                   &b.A);
    } else {
        snprintf(what, sizeof what, "%d-D Laplacian on %lld^%d", dim, n, dim);
        s = spira_dist_matrix_laplacian(ctx, MPI_COMM_WORLD, dim, n, SPIRA_R64, SPIRA_DIST_EVEN,
                                        &b.A);
    }
    fail(ctx, s, what);
    fail(ctx, spira_dist_vector_create(b.A, &b.x), "vector");
    fail(ctx, spira_dist_vector_create(b.A, &b.y), "vector");
    fail(ctx, spira_dist_vector_fill(b.x, 1.0), "fill");
    fail(ctx, spira_vector_create(ctx, 3, SPIRA_R64, &b.dsum), "vector");
    fail(ctx, spira_vector_fill(b.dsum, 1.0), "fill");
    /* the plans a solve expecting many multiplies would use */
    fail(ctx, spira__dist_agree(ctx, b.A->L->comm, spira__dist_prepare(b.A, 1000)), "plans");
    spira_dist_matrix_info di;
    spira_dist_matrix_get_info(b.A, &di);
    long long halo[3] = {di.ghosts, di.send_values, di.recv_neighbors + di.send_neighbors};
    long long most[3];
    MPI_Reduce(halo, most, 3, MPI_LONG_LONG, MPI_MAX, 0, MPI_COMM_WORLD);
    const struct {
        const char *name;
        op_fn op;
        int gpu_only;
    } ops[] = {
        {"distributed SpMV (exchange overlapped)", op_spmv, 0},
        {"diagonal block SpMV alone", op_diag, 0},
        {"halo exchange alone (pack, send, receive)", op_halo, 0},
        {"off-diagonal block SpMV and add alone", op_offdiag, 0},
        {"CG's local sums (3 dots, one wait)", op_dots, 0},
        {"allreduce of 3 host doubles", op_sum_host, 0},
        {"allreduce of 3 device doubles (ncclAllReduce)", op_sum_device, 1},
    };
    const int gpu = spira_context_backend(ctx) == SPIRA_BACKEND_CUDA;
    if (rank_ == 0) {
        spira_matrix d, o;
        spira_matrix_info mi, oi = {0};
        spira_dist_matrix_blocks(b.A, &d, &o);
        spira_matrix_get_info(d, &mi);
        if (o) spira_matrix_get_info(o, &oi);
        printf("%s: %lld rows, %lld nonzeros, %d ranks on %s (rank 0: %s)\n", what,
               (long long)di.nrows, (long long)di.nnz, size_, gpu ? "GPUs" : "CPUs",
               spira_context_device_name(ctx));
        printf("rank 0: %d rows, diagonal block in %s, off-diagonal block %lld rows in %s; "
               "the most a rank receives %lld and sends %lld x entries, in %lld messages\n",
               di.local_rows, mi.format, (long long)oi.nrows, o ? oi.format : "-", most[0],
               most[1], most[2]);
        printf("%-48s %12s\n", "operation (slowest rank, median)", "ms");
    }
    for (size_t k = 0; k < sizeof ops / sizeof *ops; k++) {
        if (ops[k].gpu_only && !gpu) continue;
        double ms = time_op(ctx, ops[k].op, &b, reps);
        if (rank_ == 0) printf("%-48s %12.4f\n", ops[k].name, ms);
    }
    spira_vector_destroy(b.dsum);
    spira_dist_vector_destroy(b.x);
    spira_dist_vector_destroy(b.y);
    spira_dist_matrix_destroy(b.A);
    spira_context_destroy(ctx);
    MPI_Finalize();
    return 0;
}
