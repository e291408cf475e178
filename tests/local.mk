# Check suites. check_spira: every CPU suite (fork mode). check_gpu: the same checks on the
# CUDA backend, without fork (CUDA does not survive it); exits 77 (SKIP) with no device.
if HAVE_CHECK
check_PROGRAMS += tests/check_spira tests/check_gpu
TESTS += tests/check_spira tests/check_gpu
endif
TEST_COMMON = tests/testutil.c tests/testutil.h
tests_check_spira_SOURCES = tests/main.c $(TEST_COMMON) tests/test_context.c \
	tests/test_csr.c tests/test_blas.c tests/test_spmv.c tests/test_solvers.c \
	tests/test_faults.c tests/test_threads.c \
	tests/test_pkt.c \
	tests/test_krylov.c tests/test_eigen.c
tests_check_spira_SOURCES += tests/test_formats.c
tests_check_spira_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_spira_LDADD = libspira_core.la $(CHECK_LIBS)
tests_check_gpu_SOURCES = tests/gpu_main.c $(TEST_COMMON) tests/test_threads.c
tests_check_gpu_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_gpu_LDADD = libspira_core.la $(CHECK_LIBS)
AM_TESTS_ENVIRONMENT = SPIRA_DATA='$(abs_top_srcdir)/data'; export SPIRA_DATA;

# Fuzz targets. The corpus replay runs in every `make check` (any compiler); the real
# fuzzers are built with ./configure CC=clang --enable-fuzzing (see tests/fuzz/README.md).
FUZZ_TARGETS = csr
if HAVE_CHECK
check_PROGRAMS += tests/fuzz/replay-csr
TESTS += tests/fuzz/replay-csr
endif
tests_fuzz_replay_csr_SOURCES = tests/fuzz/replay.c tests/fuzz/fuzz_csr.c
tests_fuzz_replay_csr_CPPFLAGS = $(AM_CPPFLAGS) -DREPLAY_DIRS='"$(abs_top_srcdir)/tests/corpus/csr"'
tests_fuzz_replay_csr_LDADD = libspira_core.la
if FUZZING
noinst_PROGRAMS += tests/fuzz/fuzz-csr
tests_fuzz_fuzz_csr_SOURCES = tests/fuzz/fuzz_csr.c
tests_fuzz_fuzz_csr_LDADD = libspira_core.la
tests_fuzz_fuzz_csr_LDFLAGS = -fsanitize=fuzzer
endif
EXTRA_DIST += tests/fuzz/README.md tests/corpus

# valgrind memcheck over the CPU suites (not part of `make check`: slow). Check runs
# without fork here so valgrind sees every test in one process.
check-valgrind: $(check_PROGRAMS)
	CK_FORK=no SPIRA_DATA='$(abs_top_srcdir)/data' OMP_NUM_THREADS=1 $(LIBTOOL) --mode=execute \
	  valgrind --quiet --leak-check=full --errors-for-leak-kinds=definite,indirect \
	  --error-exitcode=1 tests/check_spira
.PHONY: check-valgrind
