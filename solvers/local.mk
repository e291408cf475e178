libspira_solvers_la_SOURCES += solvers/solve.c solvers/host_solve.c solvers/common.c solvers/cg.c \
	solvers/cg_steps.c solvers/cg_graph.c \
	solvers/bicgstab.c \
	solvers/jacobi.c solvers/power.c solvers/pagerank.c solvers/gf2_kernel.c \
	solvers/cg_kernels.c solvers/pagerank_kernels.c solvers/reorder.c
noinst_HEADERS += solvers/reorder.h solvers/solver.h solvers/solver_kernels.h solvers/host_solve.h solvers/cg.h \
	solvers/cg_step.h solvers/cg_graph.cuh
CUDA_SRCS += solvers/cg_kernels_gpu.cu solvers/pagerank_kernels_gpu.cu
if !HAVE_CUDA
libspira_solvers_la_SOURCES += solvers/kernels_stub.c
endif
# block Wiedemann: the Krylov sequence, the matrix Berlekamp-Massey, the kernel search, and
# the walk and checks it shares with the bit search (gf2_kernel.c)
libspira_solvers_la_SOURCES += solvers/gf2_krylov.c solvers/gf2_matrix_bm.c solvers/gf2_block_wiedemann.c \
	solvers/gf2_walk.c
noinst_HEADERS += solvers/gf2_bw.h
