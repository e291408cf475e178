#!/usr/bin/env bash
# session 28, call 7 (one H200), 7363799: every cuSPARSE algorithm (CSR ALG1, COO, SELL)
# beside sell and auto on the time-to-solution suite's irregular matrices (R-MAT 2^20,
# circuit 10^6, kNN 4x10^5), two rounds: the "cuSPARSE's best algorithm".
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/o
. .device-run/env.sh
L=$OUT/run7.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit) and the tree after it"; date -u; } >"$L" 2>&1
python3 $R/bench/gen-irregular.py /tmp/m --problems rmat,circuit,knn --jobs 3 >/tmp/o/gen.txt 2>&1
for round in 1 2; do
  for m in rmat-20 circuit-1000000 knn-400000; do
    $B/spira-spmv /tmp/m/$m.mtx --formats cusparse:alg=1,cusparse:alg=coo,cusparse:alg=sell,sell,auto --reps 200 >/tmp/o/s.txt 2>&1
    echo "=== round $round $m" >>"$L"
    grep -E "^(cusparse|sell|auto)|^fastest|^auto:|chose" /tmp/o/s.txt | cut -c1-220 >>"$L"
  done
done
date -u >>"$L"; echo done >>"$L"
