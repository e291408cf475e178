#!/usr/bin/env bash
# session 16, call 2 (two GPUs): where the diagonal block starts after the update. Variants
# (experiment switches, since removed): SPIRA_X_DIA_FIRST (the diagonal block captured
# before NCCL's group is posted), SPIRA_X_SIDE_PRIO (the halo's stream at the least
# priority); CG on 3-D Poisson 200^3 to 1e-8 timed, and traced at 1e-4.
set -u
. .device-run/env.sh
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
B=$D/bin
export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:/usr/local/cuda/extras/CUPTI/lib64
MPI="mpirun --allow-run-as-root --bind-to none -x LD_LIBRARY_PATH -x SPIRA_DATA"
L=$OUT/run2.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit) (+ the working tree)"; date -u; } >"$L" 2>&1
cg() { # name env...
  local name=$1; shift
  echo "== $name" >>"$L"
  env "$@" timeout 120 $MPI $(for e in "$@"; do echo "-x ${e%%=*}"; done) -np 2 $B/spira-solve --dist \
     --laplacian 3:200 --tol 1e-8 --repeat 6 >/tmp/cg.log 2>&1; echo "rc $?" >>"$L"
  grep -E "result|repeated|rror" /tmp/cg.log | head -3 >>"$L"
}
trace() { # name env...
  local name=$1; shift
  rm -f /tmp/tr-*.csv
  env "$@" CUDA_INJECTION64_PATH=$B/libgputrace.so GPU_TRACE=/tmp/tr-r%r.csv timeout 120 $MPI \
     $(for e in "$@"; do echo "-x ${e%%=*}"; done) -x CUDA_INJECTION64_PATH -x GPU_TRACE -np 2 \
     $B/spira-solve --dist --laplacian 3:200 --tol 1e-4 --repeat 2 >/tmp/tr.log 2>&1
  its=$(sed -n 's/.*after \([0-9]*\) iterations.*/\1/p' /tmp/tr.log | head -1)
  python3 $R/bench/timeline-summary.py --iterations "$its" /tmp/tr-r*.csv >"$OUT/timeline-$name.txt" 2>&1
}
V=("base X=1" "diafirst SPIRA_X_DIA_FIRST=1" "sideprio SPIRA_X_SIDE_PRIO=1" "both SPIRA_X_DIA_FIRST=1 SPIRA_X_SIDE_PRIO=1")
for round in 1 2; do
  for v in "${V[@]}"; do cg $v; done
done
for v in "${V[@]}"; do trace $v; done
echo done >>"$L"
