#!/usr/bin/env bash
# session 29, call 5 (one H200): sell's long rows for every layout kind (double): unroll 8
# (exp 16), long rows' blocks first in the grid (exp 32), chunk size (SPIRA_EXP_CHUNK,
# matrices of many slices only), with the hub gather's dependent launch (exp 1); R-MAT
# 2^20, power-law 10^6, circuit 10^6 and four shared matrices with long rows; two rounds.
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/o /tmp/s
. .device-run/env.sh
L=$OUT/run5.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit) + exp29"; date -u; } >"$L" 2>&1
python3 $R/bench/gen-irregular.py /tmp/m --problems rmat,circuit >/tmp/o/gen.txt 2>&1 &
python3 $R/bench/gen-irregular.py /tmp/g 1000000 >/tmp/o/gen2.txt 2>&1
wait
for f in $D/m/*.gz; do gunzip -c $f >/tmp/s/$(basename $f .gz); done
row() { # $1 label, $2 matrix; env set by caller
  $B/spira-spmv $2 --formats sell --reps 200 >/tmp/o/s.txt 2>&1
  echo "$1 $(basename $2): $(grep -E '^(cusparse|sell) ' /tmp/o/s.txt | awk '{print $1, $4, $5, $6, $7}' | tr '\n' ' ') b2b $(grep 'back to back:' /tmp/o/s.txt | awk '{print $4}' | tr '\n' ' ') graph $(grep 'in a graph:' /tmp/o/s.txt | awk '{print $4}' | tr '\n' ' ')" >>"$L"
}
for round in 1 2; do
  for M in /tmp/m/rmat-20.mtx /tmp/g/powerlaw-1000000.mtx /tmp/m/circuit-*.mtx /tmp/s/*.mtx; do
    for ec in 1:1024 17:1024 17:4096 49:1024 49:4096 49:8192 17:3072; do
      SPIRA_EXP=${ec%:*} SPIRA_EXP_CHUNK=${ec#*:} row "round $round exp=${ec%:*} chunk=${ec#*:}" $M
    done
  done
done
date -u >>"$L"; echo done >>"$L"
