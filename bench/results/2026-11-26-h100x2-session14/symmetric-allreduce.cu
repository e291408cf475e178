// ad hoc: latency of a 3-double ncclAllReduce inside a CUDA graph, plain buffer vs a
// symmetric window (ncclMemAlloc + ncclCommWindowRegister). mpirun -np 2.
#include <mpi.h>
#include <nccl.h>
#include <cstdio>
#include <cstdlib>
#define CK(x) do { auto r_ = (x); if (r_ != 0) { printf("%s:%d %s -> %d\n", __FILE__, __LINE__, #x, (int)r_); MPI_Abort(MPI_COMM_WORLD, 1); } } while (0)
__global__ void touch(double *d, int it) { if (threadIdx.x == 0) d[0] += 1e-300 * it; }
static double run(ncclComm_t comm, cudaStream_t st, double *buf, int with_kernel, int reps)
{
    cudaGraph_t g; cudaGraphExec_t ge;
    CK(cudaStreamBeginCapture(st, cudaStreamCaptureModeGlobal));
    for (int i = 0; i < reps; i++) {
        if (with_kernel) touch<<<1, 32, 0, st>>>(buf, i);
        CK(ncclAllReduce(buf, buf, 3, ncclDouble, ncclSum, comm, st));
    }
    CK(cudaStreamEndCapture(st, &g));
    CK(cudaGraphInstantiate(&ge, g, 0));
    cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
    double best = 1e30;
    for (int t = 0; t < 7; t++) {
        MPI_Barrier(MPI_COMM_WORLD);
        cudaEventRecord(a, st);
        CK(cudaGraphLaunch(ge, st));
        cudaEventRecord(b, st);
        CK(cudaStreamSynchronize(st));
        float ms; cudaEventElapsedTime(&ms, a, b);
        if (t > 0 && ms < best) best = ms;
    }
    cudaGraphExecDestroy(ge); cudaGraphDestroy(g);
    return best * 1000.0 / reps;
}
int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size; MPI_Comm_rank(MPI_COMM_WORLD, &rank); MPI_Comm_size(MPI_COMM_WORLD, &size);
    CK(cudaSetDevice(rank));
    ncclUniqueId id; if (rank == 0) ncclGetUniqueId(&id);
    MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, MPI_COMM_WORLD);
    ncclComm_t comm; CK(ncclCommInitRank(&comm, size, id, rank));
    cudaStream_t st; CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    double *plain; CK(cudaMalloc(&plain, 4096)); CK(cudaMemset(plain, 0, 4096));
    void *sym = NULL; ncclWindow_t win;
    CK(ncclMemAlloc(&sym, 1 << 21)); CK(cudaMemset(sym, 0, 1 << 21));
    ncclResult_t wr = ncclCommWindowRegister(comm, sym, 1 << 21, &win, NCCL_WIN_COLL_SYMMETRIC);
    if (rank == 0) printf("window register: %s\n", ncclGetErrorString(wr));
    double *symoff = (double *)((char *)sym + 256);
    for (int k = 0; k < 2; k++) {
        double p = run(comm, st, plain, k, 200), s = run(comm, st, (double *)sym, k, 200);
        double so = run(comm, st, symoff, k, 200);
        if (rank == 0) printf("%s: plain %.2f us, symmetric %.2f us, symmetric at offset 256 %.2f us\n",
                              k ? "kernel + allreduce" : "allreduce alone", p, s, so);
    }
    if (wr == ncclSuccess) ncclCommWindowDeregister(comm, win);
    ncclMemFree(sym); cudaFree(plain);
    ncclCommDestroy(comm);
    MPI_Finalize();
    return 0;
}
