#!/usr/bin/env bash
# session 16, call 5 (two GPUs): why PageRank's setup on R-MAT 2^23 took 22.7 s on two
# ranks against 11.4 s on one (call 1, OMP_NUM_THREADS unset: every rank's OpenMP took
# all 32 cores). The same with OMP_NUM_THREADS = cores / ranks.
set -u
. .device-run/env.sh
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
B=$D/bin
MPI="mpirun --allow-run-as-root --bind-to none -x LD_LIBRARY_PATH -x SPIRA_DATA"
L=$OUT/run5.txt
{ nvidia-smi -L; nproc; echo "library of commit $(cat $D/commit)"; date -u; } >"$L" 2>&1
pr() { # np omp
  echo "== np$1 OMP_NUM_THREADS=${2:-unset}" >>"$L"
  if [ -n "$2" ]; then export OMP_NUM_THREADS=$2; X="-x OMP_NUM_THREADS"; else unset OMP_NUM_THREADS; X=; fi
  /usr/bin/time -f "%e s wall" timeout 100 $MPI $X -np $1 $B/spira-pagerank --rmat 23:16 --top 0 --repeat 2 >/tmp/pr.log 2>&1; echo "rc $?" >>"$L"
  grep -E "time|again|wall|rror" /tmp/pr.log | head -4 >>"$L"
}
pr 2 16; pr 2 ""; pr 1 ""
echo done >>"$L"
