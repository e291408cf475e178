#!/usr/bin/env bash
# session 26, call 7 (one H200): the formats on R-MAT 2^20 as given and in the degree
# order (spira-spmv --reorder degree: P A P^T, rows and columns by decreasing length), and
# on the kNN and circuit matrices in RCM order, against cuSPARSE's CSR on the same ordering;
# three processes each.
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/o
. .device-run/env.sh
L=$OUT/run7.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit)"; date -u; } >"$L" 2>&1
python3 $R/bench/gen-irregular.py /tmp/m --problems rmat,knn,circuit --jobs 3 >/tmp/o/gen.txt 2>&1
for round in 1 2 3; do
  for a in "rmat-20 none" "rmat-20 degree" "knn-400000 none" "knn-400000 rcm" "circuit-1000000 none" "circuit-1000000 rcm"; do
    set -- $a
    $B/spira-spmv /tmp/m/$1.mtx --formats sell,merge,coo --reorder $2 --reps 200 >/tmp/o/s.txt 2>&1
    echo "round $round $1 $2: $(grep -E '^(cusparse|sell|merge|coo) ' /tmp/o/s.txt | awk '{print $1, $7}' | tr '\n' ' ') b2b $(grep 'back to back' /tmp/o/s.txt | awk '{print $4}' | tr '\n' ' ') $(grep -i 'reorder' /tmp/o/s.txt | head -2 | tr '\n' ' ' | cut -c1-160)" >>"$L"
  done
done
date -u >>"$L"; echo done >>"$L"
