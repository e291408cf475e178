libspira_core_la_SOURCES += precond/precond.c precond/neumann.c
noinst_HEADERS += precond/precond.h
