// ad hoc probe (session 16): the sum over 2 GPUs of K=3 doubles at the end of a dot-product
// kernel, inside a CUDA graph, three ways: (a) sums kernel + ncclAllReduce + 1-thread step
// kernel (today's distributed CG graph), (b) sums kernel whose last block exchanges its sums
// with NCCL's device API (LL all-to-all) and steps, (c) (b)'s exchange in a kernel of its own.
// mpirun -np 2 ./ll-allreduce N REPS
#include <mpi.h>
#include <nccl.h>
#include <nccl_device.h>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#define CK(x) do { auto r_ = (x); if (r_ != 0) { printf("%s:%d %s -> %d\n", __FILE__, __LINE__, #x, (int)r_); MPI_Abort(MPI_COMM_WORLD, 1); } } while (0)
#define K 3
#define BLOCKS 1024
struct scratch { unsigned done; double part[K][BLOCKS]; double out[K]; double step; };

__device__ bool grid_sums(double (&s)[K], scratch *sc)
{
    __shared__ double ws[8];
    __shared__ bool last;
    for (int k = 0; k < K; k++) {
        double v = s[k];
        for (int o = 16; o; o >>= 1) v += __shfl_down_sync(~0u, v, o);
        if (threadIdx.x % 32 == 0) ws[threadIdx.x / 32] = v;
        __syncthreads();
        if (threadIdx.x == 0) { double t = 0; for (int w = 0; w < 8; w++) t += ws[w]; sc->part[k][blockIdx.x] = t; }
        __syncthreads();
    }
    if (threadIdx.x == 0) { __threadfence(); last = atomicAdd(&sc->done, 1u) == gridDim.x - 1; }
    __syncthreads();
    if (!last) return false;
    if (threadIdx.x == 0) {
        for (int k = 0; k < K; k++) { double t = 0; for (int b = 0; b < gridDim.x; b++) t += __ldcg(&sc->part[k][b]); sc->out[k] = t; }
        sc->done = 0;
    }
    return true;
}

__device__ void ll_sum(const ncclDevComm &dc, ncclLLA2AHandle h, double *v)
{
    ncclLLA2ASession<ncclCoopThread> s(ncclCoopThread(), dc, ncclTeamWorld(dc), h, 0, dc.nRanks * K);
    for (int k = 0; k < K; k++) s.bcast(dc.rank * K + k, v[k]);
    for (int k = 0; k < K; k++) {
        double t = s.recv<double>(k);
        for (int q = 1; q < dc.nRanks; q++) t += s.recv<double>(q * K + k);
        v[k] = t;
    }
    s.endEpoch(ncclCoopThread());
}

template <int MODE>
__global__ void __launch_bounds__(256) sums(int n, const double *x, const double *y, scratch *sc, ncclDevComm dc, ncclLLA2AHandle h)
{
    double s[K] = {0, 0, 0};
    for (int i = blockIdx.x * 256 + threadIdx.x; i < n; i += gridDim.x * 256) {
        s[0] += x[i] * x[i]; s[1] += x[i] * y[i]; s[2] += y[i] * y[i];
    }
    if (grid_sums(s, sc) && threadIdx.x == 0 && MODE == 1) {
        ll_sum(dc, h, sc->out);
        sc->step = sc->out[0] / sc->out[1];
    }
}
__global__ void step(scratch *sc) { sc->step = sc->out[0] / sc->out[1]; }
__global__ void ll_kernel(scratch *sc, ncclDevComm dc, ncclLLA2AHandle h) { ll_sum(dc, h, sc->out); sc->step = sc->out[0] / sc->out[1]; }

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size; MPI_Comm_rank(MPI_COMM_WORLD, &rank); MPI_Comm_size(MPI_COMM_WORLD, &size);
    int n = argc > 1 ? atoi(argv[1]) : 4000000, reps = argc > 2 ? atoi(argv[2]) : 200;
    CK(cudaSetDevice(rank));
    ncclUniqueId id; if (rank == 0) ncclGetUniqueId(&id);
    MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, MPI_COMM_WORLD);
    ncclComm_t comm; CK(ncclCommInitRank(&comm, size, id, rank));
    ncclLLA2AHandle h; ncclDevResourceRequirements_t rr = {};
    CK(ncclLLA2ACreateRequirement(1, ncclLLA2ACalcSlots(size * K, sizeof(double)), &h, &rr));
    ncclDevCommRequirements_t req = {}; req.resourceRequirementsList = &rr;
    ncclDevComm dc; ncclResult_t dr = ncclDevCommCreate(comm, &req, &dc);
    if (rank == 0) printf("ncclDevCommCreate: %s (sizeof ncclDevComm %zu)\n", ncclGetErrorString(dr), sizeof dc);
    if (dr != ncclSuccess) { MPI_Finalize(); return 1; }
    cudaStream_t st; CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    double *x, *y; scratch *sc;
    CK(cudaMalloc(&x, n * 8.0)); CK(cudaMalloc(&y, n * 8.0)); CK(cudaMalloc(&sc, sizeof *sc));
    CK(cudaMemset(sc, 0, sizeof *sc));
    std::vector<double> hx(n); for (int i = 0; i < n; i++) hx[i] = 1.0 + (i % 7) * 0.25 + rank;
    CK(cudaMemcpy(x, hx.data(), n * 8.0, cudaMemcpyHostToDevice)); CK(cudaMemcpy(y, hx.data(), n * 8.0, cudaMemcpyHostToDevice));
    int blocks = (n + 255) / 256; if (blocks > BLOCKS) blocks = BLOCKS;
    const char *names[4] = {"sums + ncclAllReduce + step kernel", "sums with LL exchange and step in its last block", "sums + LL kernel (exchange and step)", "sums alone (no exchange)"};
    double res[4];
    for (int mode = 0; mode < 4; mode++) {
        cudaGraph_t g; cudaGraphExec_t ge;
        CK(cudaStreamBeginCapture(st, cudaStreamCaptureModeGlobal));
        for (int r = 0; r < reps; r++) {
            if (mode == 1) sums<1><<<blocks, 256, 0, st>>>(n, x, y, sc, dc, h);
            else sums<0><<<blocks, 256, 0, st>>>(n, x, y, sc, dc, h);
            if (mode == 0) { CK(ncclAllReduce(sc->out, sc->out, K, ncclDouble, ncclSum, comm, st)); step<<<1, 1, 0, st>>>(sc); }
            if (mode == 2) ll_kernel<<<1, 1, 0, st>>>(sc, dc, h);
            if (mode == 3) step<<<1, 1, 0, st>>>(sc);
        }
        CK(cudaStreamEndCapture(st, &g));
        CK(cudaGraphInstantiate(&ge, g, 0));
        cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
        std::vector<float> t;
        for (int k = 0; k < 9; k++) {
            MPI_Barrier(MPI_COMM_WORLD);
            cudaEventRecord(a, st); CK(cudaGraphLaunch(ge, st)); cudaEventRecord(b, st);
            CK(cudaStreamSynchronize(st));
            float ms; cudaEventElapsedTime(&ms, a, b); if (k) t.push_back(ms);
        }
        std::sort(t.begin(), t.end());
        res[mode] = t[t.size() / 2] * 1000.0 / reps;
        double out[K + 1]; CK(cudaMemcpy(out, sc->out, sizeof out, cudaMemcpyDeviceToHost));
        if (rank == 0) printf("n %d: %-50s %.2f us a rep (sums %.17g %.17g %.17g, step %.17g)\n", n, names[mode], res[mode], out[0], out[1], out[2], out[3]);
        cudaGraphExecDestroy(ge); cudaGraphDestroy(g);
    }
    ncclDevCommDestroy(comm, &dc);
    ncclCommDestroy(comm);
    MPI_Finalize();
    return 0;
}
