# the machinery: the format table, options, device handles, the registry, plans, selection
libspira_spmv_la_SOURCES += spmv/options.c spmv/device.c spmv/registry.c spmv/spmv.c spmv/multiply.c \
	spmv/auto.c spmv/cost.c spmv/background.c spmv/replay.c
noinst_HEADERS += spmv/format.h spmv/options.h spmv/device.h spmv/spmv.h spmv/auto.h \
	spmv/cost.h spmv/background.h spmv/replay.h
# on the GPU: auto's row counts, and the occupied diagonals they share with dia's build
noinst_HEADERS += spmv/diagonals_gpu.cuh
CUDA_SRCS += spmv/diagonals_gpu.cu spmv/auto_gpu.cu

# The formats, one line each: spmv/X in SPMV_FORMATS brings spmv/X.c (host conversion, CPU
# reference, ops table), spmv/X_gpu.cu (kernels, device ops) and spmv/X.h (the layout the
# two share). Automake expands the suffix references below when it writes Makefile.in, so
# the library's sources are still literal to it. What formats share is listed after them.
SPMV_FORMATS =
# the CSR family (csr-scalar, csr-vector) and LightSpMV (Liu & Schmidt 2015)
SPMV_FORMATS += spmv/csr
SPMV_FORMATS += spmv/csr_vector
SPMV_FORMATS += spmv/lightspmv
# Bell & Garland (2008): coo, ell, dia, hyb; PKT, the packet format
SPMV_FORMATS += spmv/coo
SPMV_FORMATS += spmv/ell
SPMV_FORMATS += spmv/dia
SPMV_FORMATS += spmv/hyb
SPMV_FORMATS += spmv/pkt
# CMRS (Koza, Matyka, Szkoda, Miroslaw 2014), SURAA (Muhammed, Mehmood, Albeshri, Katib 2019)
SPMV_FORMATS += spmv/cmrs
SPMV_FORMATS += spmv/suraa
# SELL-C-sigma (Kreutzer et al. 2014), merge-based CSR (Merrill & Garland 2016)
SPMV_FORMATS += spmv/sell
SPMV_FORMATS += spmv/merge
libspira_spmv_la_SOURCES += $(SPMV_FORMATS:=.c)
CUDA_SRCS += $(SPMV_FORMATS:=_gpu.cu)
noinst_HEADERS += $(SPMV_FORMATS:=.h)

# cuSPARSE's SpMV, measured beside every format: its header cannot be spmv/cusparse.h,
# which would shadow the toolkit's <cusparse.h>, so it lists its files itself
libspira_spmv_la_SOURCES += spmv/cusparse.c
noinst_HEADERS += spmv/cusparse_row.h
CUDA_SRCS += spmv/cusparse_gpu.cu
# what formats share: the device CSR (csr_gpu.cuh), one CSR row by a vector of lanes
# (csr-vector, LightSpMV, ILU's sweeps), the device CSR's row structure with CUB for the
# conversions on the GPU, ELL/COO kernels (HYB's halves), padded widths, PKT's partition
noinst_HEADERS += spmv/csr_gpu.cuh spmv/csr_row.cuh spmv/rows_gpu.cuh spmv/sort_gpu.cuh \
	spmv/coo_gpu.cuh spmv/ell_gpu.cuh spmv/hyb_gpu.cuh spmv/padding.h
CUDA_SRCS += spmv/rows_gpu.cu spmv/suraa_convert_gpu.cu
libspira_spmv_la_SOURCES += spmv/padding.c spmv/pkt_partition.c
# a matrix's scaled transpose (PageRank's P^T), on the GPU where the plans are made there
libspira_spmv_la_SOURCES += spmv/transpose.c
CUDA_SRCS += spmv/transpose_gpu.cu

# SpMV over GF(2) (Schmidt, Aribowo, Dang): its own formats over the same plan machinery
libspira_spmv_la_SOURCES += spmv/gf2/gf2.c spmv/gf2/gf2_csr.c spmv/gf2/gf2_sliced.c
libspira_spmv_la_SOURCES += spmv/gf2/gf2_dense.c spmv/gf2/gf2_combined.c spmv/gf2/gf2_devices.c
noinst_HEADERS += spmv/gf2/gf2.h spmv/gf2/gf2_parts.h spmv/gf2/gf2_dev.cuh
CUDA_SRCS += spmv/gf2/gf2_gpu.cu spmv/gf2/gf2_dense_gpu.cu spmv/gf2/gf2_build_gpu.cu \
	spmv/gf2/gf2_combined_gpu.cu
