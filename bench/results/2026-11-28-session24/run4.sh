#!/usr/bin/env bash
# session 24, call 4 (one H200): the builder's stream at the greatest priority. The GPU
# suite's "cuda" case; then four problems at defaults with the plans built beside the solve
# on and off (SPIRA_BACKGROUND), alternating, five rounds: what the note says and the times.
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/o /tmp/v/tests
. .device-run/env.sh
L=$OUT/run4.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit)"; date -u; } >"$L" 2>&1
( python3 $R/bench/gen-irregular.py /tmp/m --problems knn,poisson3d-100,stencil27,circuit --jobs 4 >/tmp/o/gen.txt 2>&1 ) &
cp $B/check_gpu /tmp/v/tests/
(cd /tmp/v && CK_RUN_CASE=cuda timeout 200 ./tests/check_gpu >$OUT/suite4.txt 2>&1)
echo "suite cuda: exit $?" >>"$L"; grep -E "Checks|:[EF]:" $OUT/suite4.txt | head -5 >>"$L"
wait
for p in knn-400000 poisson3d-100 stencil27-80 circuit-1000000; do
  args="--solver cg"; [ $p = circuit-1000000 ] && args="--solver bicgstab --precond jacobi"
  for round in 1 2 3 4 5; do
    for v in 1 0; do
      SPIRA_BACKGROUND=$v $B/spira-solve /tmp/m/$p.mtx $args --tol 1e-8 >/tmp/o/k.txt 2>&1
      echo "$p bg=$v $round: $(grep -oE 'SpMV format [a-z-]+|at iteration [0-9]+|built beside[^)]*\), waited [0-9.]+|not built beside[^;]*|format setup [0-9.]+|solver setup [0-9.]+|iterations [0-9.]+ ms' /tmp/o/k.txt | tr '\n' ' ')" >>"$L"
    done
  done
done
date -u >>"$L"; echo done >>"$L"
