#!/usr/bin/env bash
# session 28, call 3 (one H200): R-MAT 2^20 with its columns renumbered only (rows as
# given: bench/rmat-orders.py cols-in, every column by decreasing count; cols-hubs, the
# columns of >= 4x the mean count first), sell of 1bdb4f5 ("new") and the no-values probe
# ("exp", as call 2), against the graph as given; three rounds, alternating processes.
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/o
. .device-run/env.sh
L=$OUT/run3.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit)"; date -u; } >"$L" 2>&1
python3 $R/bench/gen-irregular.py /tmp/m --problems rmat >/tmp/o/gen.txt 2>&1 &
ORDERS=cols-in,cols-hubs python3 $R/bench/rmat-orders.py /tmp/m >>"$L" 2>&1
wait
for round in 1 2 3; do
  for lib in new exp; do
    for m in rmat-20 rmat-20-cols-in rmat-20-cols-hubs; do
      LD_LIBRARY_PATH=$D/$lib/lib:$LD_LIBRARY_PATH $B/spira-spmv /tmp/m/$m.mtx --formats sell --reps 300 >/tmp/o/s.txt 2>&1
      echo "round $round $lib $m: $(grep -E '^(cusparse|sell) ' /tmp/o/s.txt | awk '{print $1, $6, $7}' | tr '\n' ' ') b2b $(grep 'back to back:' /tmp/o/s.txt | awk '{print $4}' | tr '\n' ' ') graph $(grep 'in a graph:' /tmp/o/s.txt | awk '{print $4}' | tr '\n' ' ')" >>"$L"
    done
  done
done
date -u >>"$L"; echo done >>"$L"
