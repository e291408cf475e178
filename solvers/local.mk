libspira_core_la_SOURCES += solvers/solve.c solvers/cg.c
noinst_HEADERS += solvers/solver.h
