#!/usr/bin/env bash
# session 19, call 2 (one GPU): merge with hub slots (x at the most-used columns gathered
# into a compact array read through L1; the rest of x and the entries streamed past L1) on
# R-MAT 2^20, the kNN Laplacian and the circuit matrix, against merge and cuSPARSE; memcheck.
set -u
R=$PWD; D=$R/.device-run; B=$D/bin
. $D/env.sh
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/m
L=$OUT/run2.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit) + merge hubs (uncommitted)"; date -u; } >"$L" 2>&1
( python3 bench/gen-irregular.py /tmp/m --problems knn,circuit --jobs 2 >/tmp/m/gen.txt 2>&1 ) &
gen=$!
for tool in memcheck racecheck; do
  compute-sanitizer --tool $tool --report-api-errors no --error-exitcode 99 $B/spira-spmv $R/data/email-Eu-core.mtx \
    --reps 2 --warmup 1 --formats merge:hubs=64,merge:hubs=5000 --precision d >/tmp/cs.log 2>&1
  echo "$tool rc $? $(grep -m1 -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/cs.log) merge:hubs=64,5000" >>"$L"
  cat /tmp/cs.log >>"$OUT/sanitize.log"
done
H=merge,merge:hubs=1024,merge:hubs=4096,merge:hubs=8192,merge:hubs=16384,merge:hubs=32768,merge:hubs=65536
for p in d s; do
  echo "== R-MAT 2^20 precision $p" >>"$L"
  $B/spira-spmv --rmat 20:16 --precision $p --reps 100 --formats $H >>"$L" 2>&1
done
echo "== R-MAT 2^20 again (order of formats reversed)" >>"$L"
$B/spira-spmv --rmat 20:16 --reps 100 --formats merge:hubs=65536,merge:hubs=16384,merge:hubs=4096,merge >>"$L" 2>&1
wait $gen; cat /tmp/m/gen.txt >>"$L"
for f in /tmp/m/knn-400000*.mtx /tmp/m/circuit-1000000*.mtx; do
  echo "== $f" >>"$L"
  $B/spira-spmv $f --reps 100 --formats $H,sell,hyb,auto >>"$L" 2>&1
done
date -u >>"$L"; echo done >>"$L"
