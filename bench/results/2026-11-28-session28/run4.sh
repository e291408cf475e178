#!/usr/bin/env bash
# session 28, call 4 (one H200): sell stores no values when all are 1 ("new", the tree
# after 1bdb4f5) against 1bdb4f5 ("old"): the whole GPU suite case by case (the long-rows
# test with unit values, the device-built layouts against the host's); memcheck and
# racecheck on sell's kernels with unit values (R-MAT 2^18); sell and auto on R-MAT 2^20
# and three pattern graphs of ../shared alone, back to back and in a graph, three rounds.
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/o /tmp/v/tests /tmp/m18
. .device-run/env.sh
L=$OUT/run4.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit) and the tree after it"; date -u; } >"$L" 2>&1
python3 $R/bench/gen-irregular.py /tmp/m --problems rmat >/tmp/o/gen.txt 2>&1 &
python3 $R/bench/gen-irregular.py /tmp/m18 --problems rmat --scale 0.25 >/tmp/o/gen18.txt 2>&1 &
cp $B/check_gpu /tmp/v/tests/check_gpu
(cd /tmp/v && sh $R/tests/gpu-cases.sh /tmp/v/cases 300) >>"$L" 2>&1
echo "suite: exit $?" >>"$L"
grep -h ":[FE]:" /tmp/v/cases/*.log 2>/dev/null | head -20 >>"$L"
wait
ls /tmp/m18 >>"$L"
M18=$(ls /tmp/m18/rmat-*.mtx | head -1)
for a in "memcheck sell" "racecheck sell"; do
  set -- $a
  timeout 150 compute-sanitizer --tool $1 --error-exitcode 99 --kernel-name kns=$2 \
    $B/spira-spmv $M18 --formats sell --reps 3 --warmup 1 >/tmp/o/san.txt 2>&1
  echo "$1 sell $(basename $M18) (kernels named *$2*): exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/o/san.txt) $(grep -E '^sell ' /tmp/o/san.txt | awk '{print $6}') $(grep -o 'values all 1[^;]*' /tmp/o/san.txt | head -1)" >>"$L"
done
for round in 1 2 3; do
  for lib in old new; do
    for m in /tmp/m/rmat-20.mtx $D/m/*.mtx.gz; do
      LD_LIBRARY_PATH=$D/$lib/lib:$LD_LIBRARY_PATH $B/spira-spmv $m --formats sell,auto --reps 300 >/tmp/o/s.txt 2>&1
      echo "round $round $lib $(basename $m): $(grep -E '^(cusparse|sell|auto) ' /tmp/o/s.txt | awk '{print $1, $6, $7}' | tr '\n' ' ') b2b $(grep 'back to back:' /tmp/o/s.txt | awk '{print $4}' | tr '\n' ' ') graph $(grep 'in a graph:' /tmp/o/s.txt | awk '{print $4}' | tr '\n' ' ') $(grep -o 'chose [a-z-]*\|values all 1' /tmp/o/s.txt | sort -u | tr '\n' ' ')" >>"$L"
    done
  done
done
cp /tmp/o/s.txt $OUT/last-spmv.txt
date -u >>"$L"; echo done >>"$L"
