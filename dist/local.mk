# The distributed layer (--with-mpi): compiled with MPI's flags, joined to the library
# before the layers it calls; libspira then links MPI too. Without MPI nothing here is
# built and spira_mpi.h is not installed.
if HAVE_MPI
noinst_LTLIBRARIES += libspira_dist.la
libspira_dist_la_SOURCES = dist/layout.c dist/halo.c dist/matrix.c dist/route.c dist/generate.c \
	dist/read.c dist/vector.c dist/spmv.c dist/solve.c dist/power.c dist/kernel_halo.c
libspira_dist_la_CPPFLAGS = $(LAYER_I_dist) $(MPI_CFLAGS) -DSPIRA_BUILDING
include_HEADERS += lib/spira_mpi.h
libspira_core_la_LIBADD += libspira_dist.la $(MPI_LIBS)
# its GPU path (--with-nccl): the transport between GPUs in one .cu file behind
# dist/dist_gpu.h, compiled by nvcc as lib/'s are; without NCCL a stub that says so
if HAVE_NCCL
CUDA_SRCS += dist/nccl.cu dist/nccl_cg.cu
libspira_core_la_LIBADD += $(NCCL_LIBS)
else
libspira_dist_la_SOURCES += dist/nccl_stub.c
endif
endif
noinst_HEADERS += dist/dist.h dist/dist_gpu.h
EXTRA_DIST += dist/nccl.cu dist/nccl_cg.cu dist/nccl.cuh dist/nccl_stub.c
EXTRA_DIST += lib/spira_mpi.h
