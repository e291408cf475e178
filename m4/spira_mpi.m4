# SPIRA_CHECK_MPI: --with-mpi[=DIR] builds the distributed layer (dist/, lib/spira_mpi.h).
# The compiler wrapper is found as the MPI implementation means it to be used: MPICC if the
# caller set it, else mpicc on the PATH (DIR/bin first). Its compile and link flags are
# asked of the wrapper (Open MPI: --showme:compile / --showme:link; MPICH and derivatives:
# -compile_info / -link_info, whose first word is the compiler) and given to the dist layer
# and the library only, so the rest of Spira is compiled exactly as without MPI. MPIRUN (or
# mpirun / mpiexec beside mpicc) runs the distributed test suite. Sets have_mpi,
# MPI_CFLAGS, MPI_LIBS, MPIRUN and MPI_SUMMARY.
AC_DEFUN([SPIRA_CHECK_MPI], [
  AC_ARG_WITH([mpi],
    [AS_HELP_STRING([--with-mpi@<:@=DIR@:>@],
      [build the distributed solvers (spira_mpi.h) over MPI; mpicc from MPICC, DIR/bin or the PATH (default: no)])],
    [], [with_mpi=no])
  AC_ARG_VAR([MPICC], [MPI C compiler wrapper for --with-mpi (its flags are taken from it)])
  AC_ARG_VAR([MPIRUN], [MPI launcher for the distributed test suite (default: mpirun beside mpicc)])
  have_mpi=no
  MPI_CFLAGS=
  MPI_LIBS=
  MPI_SUMMARY=
  AS_IF([test "x$with_mpi" != xno], [
    spira_mpi_path=$PATH
    AS_IF([test "x$with_mpi" != xyes], [spira_mpi_path="$with_mpi/bin$PATH_SEPARATOR$PATH"])
    AC_PATH_PROG([MPICC], [mpicc], [], [$spira_mpi_path])
    AS_IF([test -z "$MPICC"],
      [AC_MSG_ERROR([--with-mpi: no mpicc found (Debian: apt-get install libopenmpi-dev openmpi-bin), or set MPICC=/path/to/mpicc])])
    spira_mpi_dir=`AS_DIRNAME(["$MPICC"])`
    AC_PATH_PROGS([MPIRUN], [mpirun mpiexec], [], [$spira_mpi_dir$PATH_SEPARATOR$spira_mpi_path])
    AC_MSG_CHECKING([the flags of $MPICC])
    AS_IF([MPI_CFLAGS=`$MPICC --showme:compile 2>/dev/null` && MPI_LIBS=`$MPICC --showme:link 2>/dev/null`],
      [spira_mpi_kind="Open MPI"],
      [AS_IF([MPI_CFLAGS=`$MPICC -compile_info 2>/dev/null` && MPI_LIBS=`$MPICC -link_info 2>/dev/null`],
         [spira_mpi_kind=MPICH
          dnl the first word of each is the underlying compiler
          set dummy $MPI_CFLAGS; shift; shift; MPI_CFLAGS="$[*]"
          set dummy $MPI_LIBS; shift; shift; MPI_LIBS="$[*]"],
         [AC_MSG_RESULT([unknown])
          AC_MSG_ERROR([--with-mpi: $MPICC answers neither --showme:compile (Open MPI) nor -compile_info (MPICH)])])])
    AC_MSG_RESULT([$spira_mpi_kind: $MPI_CFLAGS | $MPI_LIBS])
    spira_save_CPPFLAGS=$CPPFLAGS
    spira_save_LIBS=$LIBS
    CPPFLAGS="$CPPFLAGS $MPI_CFLAGS"
    LIBS="$MPI_LIBS $LIBS"
    AC_MSG_CHECKING([whether a program calling MPI_Init links with those flags])
    AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <mpi.h>]],
        [[int p; MPI_Init(0, 0); MPI_Comm_size(MPI_COMM_WORLD, &p); MPI_Finalize();]])],
      [AC_MSG_RESULT([yes])],
      [AC_MSG_RESULT([no])
       AC_MSG_ERROR([--with-mpi: cannot link an MPI program with $MPICC's flags (see config.log)])])
    CPPFLAGS=$spira_save_CPPFLAGS
    LIBS=$spira_save_LIBS
    AS_IF([test -z "$MPIRUN"],
      [AC_MSG_WARN([--with-mpi: no mpirun or mpiexec found; the distributed tests will be skipped])])
    have_mpi=yes
    MPI_SUMMARY="$spira_mpi_kind, $MPICC${MPIRUN:+, $MPIRUN}"
    AC_DEFINE([HAVE_MPI], [1], [Define to build the distributed layer over MPI])
  ])
  AC_SUBST([MPI_CFLAGS])
  AC_SUBST([MPI_LIBS])
])
