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
	tests/test_krylov.c tests/test_eigen.c tests/test_ilu.c
tests_check_spira_SOURCES += tests/test_formats.c tests/test_cg_graph.c
tests_check_spira_SOURCES += tests/test_mmio.c tests/test_determinism.c tests/test_gf2.c \
	tests/test_property.c tests/test_reorder.c tests/test_isai.c
tests_check_spira_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_spira_LDADD = libspira_core.la $(CHECK_LIBS)
tests_check_gpu_SOURCES = tests/gpu_main.c $(TEST_COMMON) tests/test_threads.c \
	tests/test_determinism.c tests/test_faults.c tests/test_gf2.c tests/test_blas.c \
	tests/gpu_device_convert.c tests/gpu_device_layout.c tests/gpu_trisolve.c \
	tests/test_cg_graph.c tests/gpu_reorder.c tests/test_reorder.c
tests_check_gpu_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_gpu_CPPFLAGS = $(AM_CPPFLAGS) $(CUDA_CPPFLAGS)
tests_check_gpu_LDADD = libspira_core.la $(CHECK_LIBS)
# the drivers' option parsing: every bad value's one-line error and exit status 2
TESTS += tests/cli-options.sh
dist_noinst_SCRIPTS += tests/cli-options.sh
# the include and call graphs between the library's files: no circle, nothing calling up a
# layer, examples/ on the public header alone (python3; a skip without it)
TESTS += tests/import-graph.sh
dist_noinst_SCRIPTS += tests/import-graph.sh tests/import-graph.py
AM_TESTS_ENVIRONMENT = SPIRA_DATA='$(abs_top_srcdir)/data'; export SPIRA_DATA; \
	CC='$(CC)'; SANITIZER_FLAGS='$(SANITIZER_FLAGS)'; export CC SANITIZER_FLAGS;

# Fuzz targets. The corpus replay runs in every `make check` (any compiler); the real
# fuzzers are built with ./configure CC=clang --enable-fuzzing (see tests/fuzz/README.md).
if HAVE_CHECK
check_PROGRAMS += tests/fuzz/replay-csr tests/fuzz/replay-mm tests/fuzz/replay-vec
TESTS += tests/fuzz/replay-csr tests/fuzz/replay-mm tests/fuzz/replay-vec
check_PROGRAMS += tests/fuzz/replay-cli
TESTS += tests/fuzz/replay-cli
endif
# the drivers' option parsing (fuzz_cli.c includes spira-solve.c and spira-pagerank.c)
FUZZ_CLI_SOURCES = tests/fuzz/fuzz_cli.c examples/cli.c examples/cli.h examples/dist_cli.c \
	examples/dist_cli.h
tests_fuzz_replay_cli_SOURCES = tests/fuzz/replay.c $(FUZZ_CLI_SOURCES)
tests_fuzz_replay_cli_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/examples $(MPI_CFLAGS) \
	-DREPLAY_DIRS='"$(abs_top_srcdir)/tests/corpus/cli"'
tests_fuzz_replay_cli_LDADD = libspira_core.la $(MPI_LIBS)
tests_fuzz_replay_csr_SOURCES = tests/fuzz/replay.c tests/fuzz/fuzz_csr.c
tests_fuzz_replay_csr_CPPFLAGS = $(AM_CPPFLAGS) -DREPLAY_DIRS='"$(abs_top_srcdir)/tests/corpus/csr"'
tests_fuzz_replay_csr_LDADD = libspira_core.la
tests_fuzz_replay_mm_SOURCES = tests/fuzz/replay.c tests/fuzz/fuzz_mm.c
tests_fuzz_replay_mm_CPPFLAGS = $(AM_CPPFLAGS) \
	-DREPLAY_DIRS='"$(abs_top_srcdir)/tests/corpus/mm:$(abs_top_srcdir)/tests/mm-bad:$(abs_top_srcdir)/data"'
tests_fuzz_replay_mm_LDADD = libspira_core.la
tests_fuzz_replay_vec_SOURCES = tests/fuzz/replay.c tests/fuzz/fuzz_vec.c
tests_fuzz_replay_vec_CPPFLAGS = $(AM_CPPFLAGS) \
	-DREPLAY_DIRS='"$(abs_top_srcdir)/tests/corpus/vec:$(abs_top_srcdir)/tests/mm-bad"'
tests_fuzz_replay_vec_LDADD = libspira_core.la
if FUZZING
# each fuzzer runs its target inside bound.c's memory bound (the target's entry renamed)
FUZZ_BOUND = -DLLVMFuzzerTestOneInput=spira_fuzz_one
noinst_PROGRAMS += tests/fuzz/fuzz-mm
tests_fuzz_fuzz_mm_SOURCES = tests/fuzz/fuzz_mm.c tests/fuzz/bound.c
tests_fuzz_fuzz_mm_CPPFLAGS = $(AM_CPPFLAGS) $(FUZZ_BOUND)
tests_fuzz_fuzz_mm_LDADD = libspira_core.la
tests_fuzz_fuzz_mm_LDFLAGS = -fsanitize=fuzzer
noinst_PROGRAMS += tests/fuzz/fuzz-csr
tests_fuzz_fuzz_csr_SOURCES = tests/fuzz/fuzz_csr.c tests/fuzz/bound.c
tests_fuzz_fuzz_csr_CPPFLAGS = $(AM_CPPFLAGS) $(FUZZ_BOUND)
tests_fuzz_fuzz_csr_LDADD = libspira_core.la
tests_fuzz_fuzz_csr_LDFLAGS = -fsanitize=fuzzer
noinst_PROGRAMS += tests/fuzz/fuzz-vec
tests_fuzz_fuzz_vec_SOURCES = tests/fuzz/fuzz_vec.c tests/fuzz/bound.c
tests_fuzz_fuzz_vec_CPPFLAGS = $(AM_CPPFLAGS) $(FUZZ_BOUND)
tests_fuzz_fuzz_vec_LDADD = libspira_core.la
tests_fuzz_fuzz_vec_LDFLAGS = -fsanitize=fuzzer
noinst_PROGRAMS += tests/fuzz/fuzz-cli
tests_fuzz_fuzz_cli_SOURCES = $(FUZZ_CLI_SOURCES) tests/fuzz/bound.c
tests_fuzz_fuzz_cli_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/examples $(MPI_CFLAGS) $(FUZZ_BOUND)
tests_fuzz_fuzz_cli_LDADD = libspira_core.la $(MPI_LIBS)
tests_fuzz_fuzz_cli_LDFLAGS = -fsanitize=fuzzer
endif
EXTRA_DIST += tests/fuzz/README.md tests/corpus tests/gpu-cases.sh

# valgrind memcheck over the CPU suites (not part of `make check`: slow). Check runs
# without fork here so valgrind sees every test in one process.
check-valgrind: $(check_PROGRAMS)
	CK_FORK=no SPIRA_DATA='$(abs_top_srcdir)/data' OMP_NUM_THREADS=1 $(LIBTOOL) --mode=execute \
	  valgrind --quiet --leak-check=full --errors-for-leak-kinds=definite,indirect \
	  --error-exitcode=1 tests/check_spira
.PHONY: check-valgrind

# one small file per kind of malformed Matrix Market input (test_mmio.c; fuzzer seeds)
dist_noinst_DATA += tests/mm-bad/array-32bit.mtx tests/mm-bad/array-too-many.mtx \
	tests/mm-bad/array-truncated.mtx tests/mm-bad/array-two-per-line.mtx \
	tests/mm-bad/bad-field.mtx tests/mm-bad/bad-format.mtx tests/mm-bad/bad-object.mtx \
	tests/mm-bad/bad-symmetry.mtx tests/mm-bad/banner-extra.mtx \
	tests/mm-bad/banner-short.mtx tests/mm-bad/col-zero.mtx tests/mm-bad/complex.mtx \
	tests/mm-bad/empty.mtx tests/mm-bad/extra-token.mtx tests/mm-bad/hermitian.mtx \
	tests/mm-bad/index-float.mtx tests/mm-bad/index-junk.mtx \
	tests/mm-bad/index-negative.mtx tests/mm-bad/integer-float.mtx \
	tests/mm-bad/missing-col.mtx tests/mm-bad/missing-value.mtx \
	tests/mm-bad/no-banner.mtx tests/mm-bad/no-size.mtx \
	tests/mm-bad/nonsquare-symmetric.mtx tests/mm-bad/nul-byte.mtx \
	tests/mm-bad/pattern-array.mtx tests/mm-bad/pattern-skew.mtx \
	tests/mm-bad/pattern-value.mtx tests/mm-bad/row-range.mtx \
	tests/mm-bad/size-64bit.mtx tests/mm-bad/size-extra.mtx tests/mm-bad/size-float.mtx \
	tests/mm-bad/size-junk.mtx tests/mm-bad/size-negative.mtx \
	tests/mm-bad/size-nnz-32bit.mtx tests/mm-bad/size-rows-32bit.mtx \
	tests/mm-bad/size-short.mtx tests/mm-bad/skew-diagonal.mtx tests/mm-bad/too-many.mtx \
	tests/mm-bad/truncated.mtx tests/mm-bad/value-comma.mtx tests/mm-bad/value-hex.mtx \
	tests/mm-bad/value-inf.mtx tests/mm-bad/value-junk.mtx tests/mm-bad/value-nan.mtx \
	tests/mm-bad/value-overflow.mtx tests/mm-bad/value-suffix.mtx \
	tests/mm-bad/rows-2147483647.mtx tests/mm-bad/rows-0048737097.mtx \
	tests/mm-bad/rows-1788385464.mtx tests/mm-bad/vector-2e9.mtx \
	tests/mm-bad/symmetric-both.mtx tests/mm-bad/bzip2.mtx.bz2
# block Wiedemann (the GPU file adds its test case to check_gpu's suite)
tests_check_spira_SOURCES += tests/test_gf2_bw.c tests/test_gf2_bw.h
tests_check_gpu_SOURCES += tests/test_gf2_bw.c tests/test_gf2_bw.h tests/gpu_gf2_bw.c
tests_check_gpu_SOURCES += tests/gpu_gf2_convert.c
# GF(2) over several devices: the CPU suite's parts on the host; check_gpu_devices on two
# GPUs or more (exit 77, SKIP, with fewer), unforked
tests_check_spira_SOURCES += tests/test_gf2_devices.c tests/test_gf2_devices.h
if HAVE_CHECK
check_PROGRAMS += tests/check_gpu_devices
TESTS += tests/check_gpu_devices
endif
tests_check_gpu_devices_SOURCES = tests/gpu_gf2_devices.c $(TEST_COMMON) tests/test_gf2.c \
	tests/test_gf2_bw.c tests/test_gf2_bw.h tests/test_gf2_devices.c tests/test_gf2_devices.h
tests_check_gpu_devices_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_gpu_devices_CPPFLAGS = $(AM_CPPFLAGS) $(CUDA_CPPFLAGS)
tests_check_gpu_devices_LDADD = libspira_core.la $(CHECK_LIBS)
# The distributed suite (--with-mpi): tests/mpi-suite.sh runs check_dist under mpirun with
# 1, 2 and 3 ranks (Check without fork; every assertion agreed over the ranks)
if HAVE_MPI
if HAVE_CHECK
check_PROGRAMS += tests/check_dist
TESTS += tests/mpi-suite.sh
endif
endif
tests_check_dist_SOURCES = tests/test_dist.c $(TEST_COMMON)
tests_check_dist_CPPFLAGS = $(LAYER_I_dist) -DSPIRA_BUILDING $(MPI_CFLAGS)
tests_check_dist_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_dist_LDADD = libspira_core.la $(CHECK_LIBS) $(MPI_LIBS)
dist_noinst_SCRIPTS += tests/mpi-suite.sh
AM_TESTS_ENVIRONMENT += MPIRUN='$(MPIRUN)'; export MPIRUN;
