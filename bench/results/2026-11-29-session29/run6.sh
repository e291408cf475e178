#!/usr/bin/env bash
# session 29, call 6 (one H200): why R-MAT likes longer chunks: sell with and without hubs
# and unit values, chunks of 1024, 2048 and 3072 entries, the chunk loop unrolled 8 and
# the gather's dependent launch (exp 17); two rounds.
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/o
. .device-run/env.sh
L=$OUT/run6.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit) + exp29"; date -u; } >"$L" 2>&1
python3 $R/bench/gen-irregular.py /tmp/m --problems rmat >/tmp/o/gen.txt 2>&1
M=/tmp/m/rmat-20.mtx
for round in 1 2; do
  for c in 1024 2048 3072; do
    SPIRA_EXP=17 SPIRA_EXP_CHUNK=$c $B/spira-spmv $M --formats sell,sell:hubs=0,sell:unit=0,hubs=0 --reps 200 >/tmp/o/s.txt 2>&1
    echo "round $round chunk $c: $(grep -E '^(cusparse|sell)|back to back' /tmp/o/s.txt | awk '{print $1, $4, $7}' | tr '\n' ' ')" >>"$L"
  done
done
date -u >>"$L"; echo done >>"$L"
