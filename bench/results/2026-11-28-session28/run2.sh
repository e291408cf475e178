#!/usr/bin/env bash
# session 28, call 2 (one H200): what reading no values would give sell on the pattern
# (all-ones) R-MAT 2^20 graph: "exp" is 1bdb4f5 with sell's slices and long-row chunks
# multiplying by 1 instead of loading vals (a timing probe only: wrong on valued matrices),
# "new" is 1bdb4f5. sell and merge alone, back to back and in a graph, as given and in the
# degree order, alternating processes, three rounds.
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/o
. .device-run/env.sh
L=$OUT/run2.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit)"; date -u; } >"$L" 2>&1
python3 $R/bench/gen-irregular.py /tmp/m --problems rmat >/tmp/o/gen.txt 2>&1
for round in 1 2 3; do
  for lib in new exp; do
    for order in none degree; do
      LD_LIBRARY_PATH=$D/$lib/lib:$LD_LIBRARY_PATH $B/spira-spmv /tmp/m/rmat-20.mtx --formats sell --reorder $order --reps 300 >/tmp/o/s.txt 2>&1
      echo "round $round $lib order $order: $(grep -E '^(cusparse|sell) ' /tmp/o/s.txt | awk '{print $1, $6, $7}' | tr '\n' ' ') b2b $(grep 'back to back:' /tmp/o/s.txt | awk '{print $4}' | tr '\n' ' ') graph $(grep 'in a graph:' /tmp/o/s.txt | awk '{print $4}' | tr '\n' ' ')" >>"$L"
    done
  done
done
cp /tmp/o/s.txt $OUT/last-spmv.txt
date -u >>"$L"; echo done >>"$L"
