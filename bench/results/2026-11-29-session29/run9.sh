#!/usr/bin/env bash
# session 29, call 9 (one H200): the tree after 61f3315 with the review's mends (whether
# every value is 1 kept in the device CSR: set by the upload, found once otherwise; one
# grid cap for the grid-stride passes; tests' sell_same_bits): the whole GPU suite case by
# case; memcheck on spira-spmv's sell and auto on R-MAT 2^18; sell and auto on R-MAT 2^20
# and kNN with setup, two rounds.
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/o /tmp/v/tests
. .device-run/env.sh
L=$OUT/run9.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit) and the tree after it"; date -u; } >"$L" 2>&1
python3 $R/bench/gen-irregular.py /tmp/m --problems rmat,knn >/tmp/o/gen.txt 2>&1 &
python3 $R/bench/gen-irregular.py /tmp/m18 --problems rmat --scale 0.25 >/tmp/o/gen18.txt 2>&1 &
cp $B/check_gpu /tmp/v/tests/check_gpu
(cd /tmp/v && sh $R/tests/gpu-cases.sh /tmp/v/cases 300) >>"$L" 2>&1
echo "suite: exit $?" >>"$L"
grep -h ":[FE]:\|test seed" /tmp/v/cases/*.log 2>/dev/null | head -30 >>"$L"
wait
M18=$(ls /tmp/m18/rmat-*.mtx | head -1)
timeout 200 compute-sanitizer --tool memcheck --error-exitcode 99 \
  $B/spira-spmv $M18 --formats sell,auto --reps 2 --warmup 1 >/tmp/o/san.txt 2>&1
echo "memcheck spira-spmv sell,auto $(basename $M18): exit $? $(grep -E 'ERROR SUMMARY' /tmp/o/san.txt) $(grep -E '^(sell|auto) ' /tmp/o/san.txt | awk '{print $1, $6}' | tr '\n' ' ')" >>"$L"
for round in 1 2; do
  for M in /tmp/m/rmat-20.mtx /tmp/m/knn-*.mtx; do
    $B/spira-spmv $M --formats sell,auto --reps 200 >/tmp/o/s.txt 2>&1
    echo "round $round $(basename $M): $(grep -E '^(cusparse|sell|auto) ' /tmp/o/s.txt | awk '{print $1, $4, $5, $7}' | tr '\n' ' ') b2b $(grep 'back to back:' /tmp/o/s.txt | awk '{print $4}' | tr '\n' ' ') graph $(grep 'in a graph:' /tmp/o/s.txt | awk '{print $4}' | tr '\n' ' ') $(grep -o 'chose [a-z-]*' /tmp/o/s.txt | head -1)" >>"$L"
  done
done
date -u >>"$L"; echo done >>"$L"
