libspira_core_la_SOURCES += precond/precond.c
noinst_HEADERS += precond/precond.h
