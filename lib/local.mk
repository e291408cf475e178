libspira_lib_la_SOURCES += lib/error.c lib/alloc.c lib/timing.c lib/threads.c lib/context.c \
	lib/csr.c lib/matrix.c lib/mm_lex.c lib/mmio_load.c lib/mmio_parse.c lib/mmio_fast.c lib/mmio_read.c lib/mmio_write.c \
	lib/vector.c lib/blas.c lib/generate.c lib/gf2_block.c lib/options.c lib/reorder.c \
	lib/devices.c
noinst_HEADERS += lib/spira_impl.h lib/mm_lex.h lib/mm_pow10.h lib/mmio.h lib/cuda/gateway.h lib/cuda/check.cuh \
	lib/cuda/reduce.cuh
CUDA_SRCS += lib/cuda/runtime.cu lib/cuda/blas.cu lib/cuda/fused.cu lib/cuda/gf2_blas.cu \
	lib/cuda/graph.cu lib/cuda/devices.cu lib/cuda/preload.cu
EXTRA_DIST += build-aux/gen-mm-pow10.py build-aux/kernel-registers.awk
# block Wiedemann's block operations (X^T Z, X S)
libspira_lib_la_SOURCES += lib/gf2_inner.c
noinst_HEADERS += lib/gf2_inner.h
CUDA_SRCS += lib/cuda/gf2_inner.cu
