# SPIRA_CHECK_NCCL: --with-nccl[=DIR] gives the distributed layer its GPU path: one rank per
# GPU, the halo exchange as NCCL grouped send/receive and the solvers' sums as one
# ncclAllReduce (dist/nccl.cu). It needs the two layers it joins: --with-mpi (the ranks,
# and the MPI communicator the NCCL one is made from) and the CUDA backend. nccl.h and
# libnccl are looked for in DIR/include and DIR/lib (or lib64), else beside CUDA's own
# (the toolkit's include and lib64, where NCCL's packages for CUDA put them). Sets
# have_nccl, NCCL_CPPFLAGS (for nvcc and the compiler), NCCL_LIBS and NCCL_SUMMARY; without
# it a CUDA context given to a distributed call is refused, naming --with-nccl.
AC_DEFUN([SPIRA_CHECK_NCCL], [
  AC_ARG_WITH([nccl],
    [AS_HELP_STRING([--with-nccl@<:@=DIR@:>@],
      [distributed solvers on GPUs, one per rank, over NCCL (needs --with-mpi and CUDA; default: no)])],
    [], [with_nccl=no])
  have_nccl=no
  NCCL_CPPFLAGS=
  NCCL_LIBS=
  NCCL_SUMMARY=
  AS_IF([test "x$with_nccl" != xno], [
    AS_IF([test "x$have_mpi" != xyes],
      [AC_MSG_ERROR([--with-nccl needs --with-mpi: NCCL's communicator is made from MPI's])])
    AS_IF([test "x$have_cuda" != xyes],
      [AC_MSG_ERROR([--with-nccl needs the CUDA backend (--with-cuda), which was not found or is off])])
    AS_IF([test "x$with_nccl" = xyes], [spira_nccl_dir=$cuda_dir], [spira_nccl_dir=$with_nccl])
    spira_nccl_libdir=$spira_nccl_dir/lib64
    test -d "$spira_nccl_libdir" || spira_nccl_libdir=$spira_nccl_dir/lib
    NCCL_CPPFLAGS="-I$spira_nccl_dir/include"
    NCCL_LIBS="-L$spira_nccl_libdir -Wl,-rpath,$spira_nccl_libdir -lnccl"
    spira_save_CPPFLAGS=$CPPFLAGS
    spira_save_LIBS=$LIBS
    CPPFLAGS="$NCCL_CPPFLAGS $CUDA_CPPFLAGS $CPPFLAGS"
    LIBS="$NCCL_LIBS $CUDA_LIBS $LIBS"
    AC_MSG_CHECKING([for nccl.h and libnccl in $spira_nccl_dir])
    AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <nccl.h>]],
        [[int v = 0; ncclUniqueId id; ncclGetVersion(&v); (void)id; return ncclGroupStart() != ncclSuccess;]])],
      [AC_MSG_RESULT([yes])],
      [AC_MSG_RESULT([no])
       AC_MSG_ERROR([--with-nccl: cannot compile and link against NCCL in $spira_nccl_dir (see config.log); give --with-nccl=DIR])])
    AC_MSG_CHECKING([NCCL's version])
    AC_COMPUTE_INT([spira_nccl_version], [NCCL_VERSION_CODE], [[#include <nccl.h>]],
      [spira_nccl_version=0])
    AC_MSG_RESULT([$spira_nccl_version])
    AS_IF([test "$spira_nccl_version" -lt 20700],
      [AC_MSG_ERROR([--with-nccl: NCCL $spira_nccl_version is older than 2.7, which brought ncclSend/ncclRecv])])
    CPPFLAGS=$spira_save_CPPFLAGS
    LIBS=$spira_save_LIBS
    have_nccl=yes
    NCCL_SUMMARY="NCCL code $spira_nccl_version, $spira_nccl_dir"
    AC_DEFINE([HAVE_NCCL], [1], [Define to build the distributed layer's GPU path over NCCL])
  ])
  AC_SUBST([NCCL_CPPFLAGS])
  AC_SUBST([NCCL_LIBS])
])
