#!/usr/bin/env bash
# session 29, call 3 (one H200): R-MAT 2^20 with the hub gather's dependent launch (exp 1)
# and: the long rows' chunk loop unrolled 8 (exp 16), chunks of 512 and 2048 entries
# (SPIRA_EXP_CHUNK); ncu's full set on one sell_kernel launch (stall reasons).
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/o
. .device-run/env.sh
L=$OUT/run3.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit) + exp29"; date -u; } >"$L" 2>&1
python3 $R/bench/gen-irregular.py /tmp/m --problems rmat >/tmp/o/gen.txt 2>&1
M=/tmp/m/rmat-20.mtx
row() { # $1 label; env set by caller
  $B/spira-spmv $M --formats sell --reps 200 >/tmp/o/s.txt 2>&1
  echo "$1: $(grep -E '^(cusparse|sell) ' /tmp/o/s.txt | awk '{print $1, $4, $5, $6, $7}' | tr '\n' ' ') b2b $(grep 'back to back:' /tmp/o/s.txt | awk '{print $4}' | tr '\n' ' ') graph $(grep 'in a graph:' /tmp/o/s.txt | awk '{print $4}' | tr '\n' ' ')" >>"$L"
}
for round in 1 2 3; do
  for e in 0 1 17; do SPIRA_EXP=$e row "round $round exp=$e"; done
  for c in 512 2048; do SPIRA_EXP=1 SPIRA_EXP_CHUNK=$c row "round $round exp=1 chunk=$c"; done
done
SPIRA_EXP=1 timeout 200 ncu --clock-control none --set full -k "regex:sell_kernel" -c 1 \
    $B/spira-spmv $M --formats sell --reps 2 --warmup 1 >$OUT/ncu-full.txt 2>&1
echo "ncu full: exit $?" >>"$L"
date -u >>"$L"; echo done >>"$L"
