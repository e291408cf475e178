#!/bin/sh
# The distributed suite: tests/check_dist (test_dist.c) under mpirun with 1, 2 and 3 ranks
# (MPI_RANKS="..." for others), each rank single-threaded; then the distributed example. MPIRUN comes from configure;
# without one the suite is skipped (exit 77). Open MPI needs --oversubscribe for more
# ranks than cores (CI has 2) and, as root, the two variables below.
prog=${CHECK_DIST:-tests/check_dist}
if [ -z "$MPIRUN" ]; then
  echo "skipped: no mpirun or mpiexec (configure --with-mpi found none; set MPIRUN)"
  exit 77
fi
extra=
if "$MPIRUN" --version 2>&1 | grep -q "Open MPI"; then
  extra=--oversubscribe
  if [ "$(id -u)" = 0 ]; then
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM
  fi
fi
OMP_NUM_THREADS=1
export OMP_NUM_THREADS
rc=0
for np in ${MPI_RANKS:-1 2 3}; do
  echo "---- $np rank(s): $MPIRUN $extra -np $np $prog"
  # a rank that died or hung must not hang make check
  if ! timeout 300 "$MPIRUN" $extra -np "$np" "$prog"; then
    echo "FAILED with $np rank(s)"
    rc=1
  fi
done
# the copyable example, as a user runs it
example=${DIST_EXAMPLE:-examples/spira-dist-example}
if [ -x "$example" ]; then
  echo "---- 2 ranks: $example 12"
  timeout 300 "$MPIRUN" $extra -np 2 "$example" 12 || { echo "FAILED: $example"; rc=1; }
fi
exit $rc
