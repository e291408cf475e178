bin_PROGRAMS += examples/spira-solve
examples_spira_solve_SOURCES = examples/spira-solve.c examples/cli.c examples/cli.h
examples_spira_solve_LDADD = libspira.la
