libspira_core_la_SOURCES += spmv/registry.c spmv/spmv.c spmv/csr.c
noinst_HEADERS += spmv/spmv.h spmv/spmv_gpu.h spmv/csr_gpu.cuh
CUDA_SRCS += spmv/csr_gpu.cu
