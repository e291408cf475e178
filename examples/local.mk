bin_PROGRAMS += examples/spira-solve
examples_spira_solve_SOURCES = examples/spira-solve.c examples/cli.c examples/cli.h
examples_spira_solve_LDADD = libspira.la
# the SpMV benchmark reads plan timings and the event timer: internal API, so libspira_core
bin_PROGRAMS += examples/spira-spmv
examples_spira_spmv_SOURCES = examples/spira-spmv.c examples/cli.c examples/cli.h
examples_spira_spmv_LDADD = libspira_core.la
