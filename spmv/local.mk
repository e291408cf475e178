libspira_core_la_SOURCES += spmv/registry.c spmv/spmv.c spmv/csr.c
noinst_HEADERS += spmv/spmv.h spmv/spmv_gpu.h spmv/csr_gpu.cuh
CUDA_SRCS += spmv/csr_gpu.cu
libspira_core_la_SOURCES += spmv/cusparse.c
noinst_HEADERS += spmv/cusparse_row.h
CUDA_SRCS += spmv/cusparse_gpu.cu
