libspira_core_la_SOURCES += lib/error.c lib/alloc.c lib/context.c lib/csr.c lib/matrix.c \
	lib/mmio.c lib/vector.c lib/blas.c lib/generate.c
noinst_HEADERS += lib/spira_impl.h lib/cuda/gateway.h lib/cuda/check.cuh
CUDA_SRCS += lib/cuda/runtime.cu lib/cuda/blas.cu
