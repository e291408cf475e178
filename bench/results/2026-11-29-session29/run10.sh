#!/usr/bin/env bash
# session 29, call 10 (one H200), 50b6b36: sell's and auto's warm setup (five conversions)
# on R-MAT 2^20, kNN and circuit; the small matrices (bundled and shared) against
# cuSPARSE's CSR, COO and SELL algorithms, alone, back to back and in a graph, one round.
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/o
. .device-run/env.sh
L=$OUT/run10.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit)"; date -u; } >"$L" 2>&1
python3 $R/bench/gen-irregular.py /tmp/m --problems rmat,knn,circuit --jobs 3 >/tmp/o/gen.txt 2>&1 &
for m in $R/data/*.mtx $R/data/*.mtx.gz $D/m/G51.mtx.gz $D/m/bcsstk13.mtx.gz; do
  echo "=== $(basename $m)" >>"$L"
  $B/spira-spmv $m --formats cusparse:alg=1,cusparse:alg=coo,cusparse:alg=sell,sell,auto --reps 300 >/tmp/o/s.txt 2>&1
  grep -E "nonzeros|^fastest|^fastest of|chose" /tmp/o/s.txt | cut -c1-220 >>"$L"
  grep -E "^auto " /tmp/o/s.txt >>"$L"; grep -A3 "^auto " /tmp/o/s.txt | grep -E "back to back|in a graph" >>"$L"
done
wait
for m in rmat-20 knn-400000 circuit-1000000; do
  echo "=== $m, five conversions" >>"$L"
  $B/spira-spmv /tmp/m/$m.mtx --formats sell,auto --convert-reps 5 --reps 100 >/tmp/o/s.txt 2>&1
  grep -E "^(format|cusparse|sell|auto) |back to back|chose" /tmp/o/s.txt | cut -c1-200 >>"$L"
done
date -u >>"$L"; echo done >>"$L"
