bin_PROGRAMS += examples/spira-solve examples/spira-pagerank
# the drivers run under mpirun too (--with-mpi): only dist_cli.c sees mpi.h
examples_spira_solve_SOURCES = examples/spira-solve.c examples/cli.c examples/cli.h \
	examples/dist_cli.c examples/dist_cli.h
examples_spira_solve_CPPFLAGS = $(AM_CPPFLAGS) $(MPI_CFLAGS)
examples_spira_solve_LDADD = libspira.la $(MPI_LIBS)
# the benchmarks: plan costs and timed runs through the public measuring calls
bin_PROGRAMS += examples/spira-spmv
examples_spira_spmv_SOURCES = examples/spira-spmv.c examples/cli.c examples/cli.h
examples_spira_spmv_LDADD = libspira.la $(LIBM)
bin_PROGRAMS += examples/spira-gf2
examples_spira_gf2_SOURCES = examples/spira-gf2.c examples/cli.c examples/cli.h
examples_spira_gf2_LDADD = libspira.la

examples_spira_pagerank_SOURCES = examples/spira-pagerank.c examples/cli.c examples/cli.h \
	examples/dist_cli.c examples/dist_cli.h
examples_spira_pagerank_CPPFLAGS = $(AM_CPPFLAGS) $(MPI_CFLAGS)
examples_spira_pagerank_LDADD = libspira.la $(MPI_LIBS)

# The copyable example: built and run by `make check` (exit 0 = right answers) ...
check_PROGRAMS += examples/spira-example
TESTS += examples/spira-example
examples_spira_example_SOURCES = examples/spira-example.c
examples_spira_example_LDADD = libspira.la $(LIBM)

# ... and by `make installcheck` against the installed library, through pkg-config, as a
# user would build it (DESTDIR honoured: the .pc file is looked up and its paths rooted
# there).
# The compile line is the README's, as written; the run finds the library as the README
# says (LD_LIBRARY_PATH).
installcheck-local:
	PKG_CONFIG_PATH='$(DESTDIR)$(libdir)/pkgconfig' PKG_CONFIG_SYSROOT_DIR='$(DESTDIR)' \
	  pkg-config --exists spira
	$(CC) -o spira-example-installed $(srcdir)/examples/spira-example.c \
	  `PKG_CONFIG_PATH='$(DESTDIR)$(libdir)/pkgconfig' PKG_CONFIG_SYSROOT_DIR='$(DESTDIR)' \
	    pkg-config --cflags --libs spira`
	LD_LIBRARY_PATH='$(DESTDIR)$(libdir)' ./spira-example-installed
	rm -f spira-example-installed

# The same in `make check`, against this build: the built spira.pc with its directories
# pointed at the build and source trees.
TESTS += examples/pkg-config.sh
dist_noinst_SCRIPTS += examples/pkg-config.sh

# The distributed example (--with-mpi): built here, run by tests/mpi-suite.sh under mpirun
if HAVE_MPI
check_PROGRAMS += examples/spira-dist-example
endif
examples_spira_dist_example_SOURCES = examples/spira-dist-example.c
examples_spira_dist_example_CPPFLAGS = -I$(top_srcdir)/lib $(MPI_CFLAGS)
examples_spira_dist_example_LDADD = libspira.la $(MPI_LIBS) $(LIBM)
