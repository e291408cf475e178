# Benchmarks: built by `make check`, run by hand (timing never lives in tests).
check_PROGRAMS += bench/mmread-bench
bench_mmread_bench_SOURCES = bench/mmread-bench.c
bench_mmread_bench_LDADD = libspira_core.la
