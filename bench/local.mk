EXTRA_DIST += bench/cupy_cg.py bench/host-crossover.sh
# bench/: the SpMV benchmark scripts (run on the GPU machine; results go under bench/results/)
EXTRA_DIST += bench/run-spmv.sh bench/plot-spmv.py
# Benchmarks: built by `make check`, run by hand (timing never lives in tests).
check_PROGRAMS += bench/mmread-bench
bench_mmread_bench_SOURCES = bench/mmread-bench.c
bench_mmread_bench_LDADD = libspira_core.la
EXTRA_DIST += bench/gpu-session.sh
EXTRA_DIST += bench/gpu-sanitize.sh bench/gpu-irregular.sh bench/gen-irregular.py \
	bench/setup-bench.sh
EXTRA_DIST += bench/gpu-gf2.sh bench/gpu-gf2-devices.sh bench/gpu-krylov.sh bench/gpu-dist.sh
EXTRA_DIST += bench/gpu-gf2-formats.sh bench/gpu-gf2-sweep.sh bench/gf2-sweep-summary.py
EXTRA_DIST += bench/time-to-solution.sh bench/tts-table.py
EXTRA_DIST += bench/mmread-compare.py
EXTRA_DIST += bench/sell-padding.py
# issue 14's circuit matrix: the dense rows' chunk paths against cuSPARSE (standalone:
# nvcc -O3 -arch=sm_90 -std=c++17 -o longrow-probe bench/longrow-probe.cu -lcusparse)
EXTRA_DIST += bench/circuit-parts.py bench/longrow-probe.cu
# issue 14's small matrices: one kernel launch's cost alone, back to back and in a graph
# (standalone: nvcc -O3 -arch=sm_90 -o launch-floor bench/launch-floor.cu); the R-MAT graph
# renumbered by degree
EXTRA_DIST += bench/launch-floor.cu bench/rmat-orders.py
# packs a build made here for the GPU machine (no build there)
EXTRA_DIST += bench/carry-build.sh bench/gpu-verify.sh bench/dist-timeline.sh bench/timeline-summary.py \
  bench/gpu-trace.c
# the ILU apply's exact triangular solves against Jacobi sweeps (issue 14): per-apply times
# by bench/trisolve-bench (private entry points), solves by bench/trisolve-sweeps.sh
check_PROGRAMS += bench/trisolve-bench
bench_trisolve_bench_SOURCES = bench/trisolve-bench.c
bench_trisolve_bench_LDADD = libspira_core.la
EXTRA_DIST += bench/trisolve-sweeps.sh
# the distributed iteration's parts timed apart (--with-mpi; GPUs with --with-nccl): the
# halo exchange, the blocks' multiplies, the allreduces (doc/scaling.md)
if HAVE_MPI
check_PROGRAMS += bench/dist-costs
endif
bench_dist_costs_SOURCES = bench/dist-costs.c
bench_dist_costs_CPPFLAGS = $(LAYER_I_dist) $(MPI_CFLAGS) -DSPIRA_BUILDING
bench_dist_costs_LDADD = libspira_core.la $(MPI_LIBS)
# the solvers' locality reordering (issue 14): none / rcm / degree on the GPU
EXTRA_DIST += bench/reorder-bench.sh bench/reorder-gen.py
