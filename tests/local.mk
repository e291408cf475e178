# Check suites. check_spira: every CPU suite (fork mode). check_gpu: the same checks on the
# CUDA backend, without fork (CUDA does not survive it); exits 77 (SKIP) with no device.
if HAVE_CHECK
check_PROGRAMS += tests/check_spira tests/check_gpu
TESTS += tests/check_spira tests/check_gpu
endif
TEST_COMMON = tests/testutil.c tests/testutil.h
tests_check_spira_SOURCES = tests/main.c $(TEST_COMMON) tests/test_context.c \
	tests/test_csr.c tests/test_blas.c tests/test_spmv.c tests/test_solvers.c
tests_check_spira_SOURCES += tests/test_formats.c
tests_check_spira_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_spira_LDADD = libspira_core.la $(CHECK_LIBS)
tests_check_gpu_SOURCES = tests/gpu_main.c $(TEST_COMMON)
tests_check_gpu_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_gpu_LDADD = libspira_core.la $(CHECK_LIBS)
AM_TESTS_ENVIRONMENT = SPIRA_DATA='$(abs_top_srcdir)/data'; export SPIRA_DATA;
