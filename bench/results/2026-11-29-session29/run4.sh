#!/usr/bin/env bash
# session 29, call 4 (one H200): sell's long rows, chunk size (SPIRA_EXP_CHUNK) x the chunk
# loop's unroll (exp 16: 8, else 4), the hub gather's dependent launch on (exp 1), on
# R-MAT 2^20, power-law 10^6, circuit 10^6 and uniform 10^6; two rounds.
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/o
. .device-run/env.sh
L=$OUT/run4.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit) + exp29"; date -u; } >"$L" 2>&1
python3 $R/bench/gen-irregular.py /tmp/m --problems rmat,circuit >/tmp/o/gen.txt 2>&1 &
python3 $R/bench/gen-irregular.py /tmp/g 1000000 >/tmp/o/gen2.txt 2>&1
wait
ls /tmp/m /tmp/g >>"$L"
row() { # $1 label, $2 matrix; env set by caller
  $B/spira-spmv $2 --formats sell --reps 200 >/tmp/o/s.txt 2>&1
  echo "$1 $(basename $2): $(grep -E '^(cusparse|sell) ' /tmp/o/s.txt | awk '{print $1, $4, $5, $6, $7}' | tr '\n' ' ') b2b $(grep 'back to back:' /tmp/o/s.txt | awk '{print $4}' | tr '\n' ' ') graph $(grep 'in a graph:' /tmp/o/s.txt | awk '{print $4}' | tr '\n' ' ')" >>"$L"
}
for round in 1 2; do
  for M in /tmp/m/rmat-20.mtx /tmp/g/powerlaw-1000000.mtx /tmp/m/circuit-*.mtx /tmp/g/uniform-1000000.mtx; do
    for ec in 1:1024 17:1024 1:2048 17:2048 1:4096 17:4096 17:8192; do
      SPIRA_EXP=${ec%:*} SPIRA_EXP_CHUNK=${ec#*:} row "round $round exp=${ec%:*} chunk=${ec#*:}" $M
    done
  done
done
grep -h "long rows" /tmp/o/s.txt >>"$L"
date -u >>"$L"; echo done >>"$L"
