libspira_precond_la_SOURCES += precond/precond.c precond/common.c precond/jacobi.c precond/isai.c \
	precond/neumann.c precond/matching.c precond/ilu.c precond/ilut.c
noinst_HEADERS += precond/precond.h precond/matching.h precond/ilu.h precond/isai.h
CUDA_SRCS += precond/ilu_gpu.cu precond/diagonal_gpu.cu
if !HAVE_CUDA
libspira_precond_la_SOURCES += precond/ilu_stub.c
endif
