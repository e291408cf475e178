#!/bin/sh
# The distributed suite: tests/check_dist (test_dist.c) under mpirun with 1, 2 and 3 ranks
# (MPI_RANKS="..." for others), each rank single-threaded; then the same on GPUs with 1 and 2
# ranks (MPI_GPU_RANKS; skipped without NCCL or GPUs); then the distributed example. MPIRUN comes from configure;
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
# the GPU run (--with-nccl): the same suite with a CUDA context a rank, one GPU each
# (SPIRA_DIST_GPU=1); check_dist exits 77 on every rank when the build has no NCCL or a rank
# has no GPU of its own, which skips that size here and fails nothing
gpu_ran=0
for np in ${MPI_GPU_RANKS:-1 2}; do
  echo "---- GPU, $np rank(s): SPIRA_DIST_GPU=1 $MPIRUN $extra -np $np $prog"
  SPIRA_DIST_GPU=1 timeout 600 "$MPIRUN" $extra -np "$np" "$prog"
  st=$?
  if [ $st = 77 ]; then
    echo "skipped: GPU run with $np rank(s) (no NCCL in this build, or fewer GPUs than ranks)"
  elif [ $st != 0 ]; then
    echo "FAILED: GPU run with $np rank(s)"
    rc=1
  else
    gpu_ran=1
  fi
done
[ $gpu_ran = 1 ] || echo "(the GPU runs were skipped: the CPU runs above are the verdict)"
# the copyable example, as a user runs it
example=${DIST_EXAMPLE:-examples/spira-dist-example}
if [ -x "$example" ]; then
  echo "---- 2 ranks: $example 12"
  timeout 300 "$MPIRUN" $extra -np 2 "$example" 12 || { echo "FAILED: $example"; rc=1; }
fi
exit $rc
