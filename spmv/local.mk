# the machinery: the format table, options, device handles, the registry, plans, selection
libspira_spmv_la_SOURCES += spmv/options.c spmv/device.c spmv/registry.c spmv/spmv.c spmv/multiply.c \
	spmv/auto.c spmv/cost.c
noinst_HEADERS += spmv/format.h spmv/options.h spmv/device.h spmv/spmv.h spmv/auto.h \
	spmv/cost.h
# on the GPU: auto's row counts, and the occupied diagonals they share with dia's build
noinst_HEADERS += spmv/diagonals_gpu.cuh
CUDA_SRCS += spmv/auto_gpu.cu spmv/diagonals_gpu.cu
# the CSR family
libspira_spmv_la_SOURCES += spmv/csr.c
noinst_HEADERS += spmv/csr.h spmv/csr_gpu.cuh
CUDA_SRCS += spmv/csr_gpu.cu
# the device CSR's row structure with CUB, for the conversions on the GPU
noinst_HEADERS += spmv/rows_gpu.cuh
CUDA_SRCS += spmv/rows_gpu.cu
# Bell & Garland (2008) formats: csr-vector, coo, ell, dia, hyb
libspira_spmv_la_SOURCES += spmv/padding.c spmv/csr_vector.c spmv/coo.c spmv/ell.c spmv/dia.c \
	spmv/hyb.c
noinst_HEADERS += spmv/padding.h spmv/csr_vector.h spmv/coo.h spmv/ell.h spmv/dia.h spmv/hyb.h \
	spmv/coo_gpu.cuh spmv/ell_gpu.cuh spmv/hyb_gpu.cuh
CUDA_SRCS += spmv/csr_vector_gpu.cu spmv/coo_gpu.cu spmv/ell_gpu.cu spmv/dia_gpu.cu \
	spmv/hyb_gpu.cu
# LightSpMV (Liu & Schmidt 2015)
libspira_spmv_la_SOURCES += spmv/lightspmv.c
noinst_HEADERS += spmv/lightspmv.h spmv/csr_row.cuh
CUDA_SRCS += spmv/lightspmv_gpu.cu
# CMRS (Koza, Matyka, Szkoda, Miroslaw 2014)
libspira_spmv_la_SOURCES += spmv/cmrs.c
noinst_HEADERS += spmv/cmrs.h
CUDA_SRCS += spmv/cmrs_gpu.cu
# SpMV over GF(2) (Schmidt, Aribowo, Dang)
libspira_spmv_la_SOURCES += spmv/gf2/gf2.c spmv/gf2/gf2_csr.c spmv/gf2/gf2_sliced.c
noinst_HEADERS += spmv/gf2/gf2.h
CUDA_SRCS += spmv/gf2/gf2_gpu.cu
# SURAA (Muhammed, Mehmood, Albeshri, Katib 2019)
libspira_spmv_la_SOURCES += spmv/suraa.c
noinst_HEADERS += spmv/suraa.h
CUDA_SRCS += spmv/suraa_gpu.cu
# SELL-C-sigma (Kreutzer et al. 2014), merge-based CSR (Merrill & Garland 2016)
libspira_spmv_la_SOURCES += spmv/sell.c spmv/merge.c
noinst_HEADERS += spmv/sell.h spmv/merge.h
CUDA_SRCS += spmv/sell_gpu.cu spmv/merge_gpu.cu
libspira_spmv_la_SOURCES += spmv/cusparse.c
noinst_HEADERS += spmv/cusparse_row.h
CUDA_SRCS += spmv/cusparse_gpu.cu
libspira_spmv_la_SOURCES += spmv/pkt.c spmv/pkt_partition.c
noinst_HEADERS += spmv/pkt.h
CUDA_SRCS += spmv/pkt_gpu.cu
