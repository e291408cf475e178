#!/usr/bin/env bash
# session 28, call 5 (one H200): the tree of call 4 with the long-rows test's unit variant
# mended (its short rows' random columns could repeat and be summed to 2) and the values'
# check moved to rows_gpu.cu: the whole GPU suite case by case, and the "cuda" case again;
# memcheck on sell's kernels with unit values (R-MAT 2^16) and on the build's values check.
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/o /tmp/v/tests /tmp/m16
. .device-run/env.sh
L=$OUT/run5.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit) and the tree after it"; date -u; } >"$L" 2>&1
python3 $R/bench/gen-irregular.py /tmp/m16 --problems rmat --scale 0.0625 >/tmp/o/gen16.txt 2>&1 &
cp $B/check_gpu /tmp/v/tests/check_gpu
(cd /tmp/v && sh $R/tests/gpu-cases.sh /tmp/v/cases 300) >>"$L" 2>&1
echo "suite: exit $?" >>"$L"
grep -h ":[FE]:" /tmp/v/cases/*.log 2>/dev/null | head -20 >>"$L"
(cd /tmp/v && sh $R/tests/gpu-cases.sh /tmp/v/cases2 300 cuda) >>"$L" 2>&1
echo "the cuda case again: exit $?" >>"$L"
wait
M16=$(ls /tmp/m16/rmat-*.mtx | head -1)
for k in sell not_one; do
  timeout 150 compute-sanitizer --tool memcheck --error-exitcode 99 --kernel-name kns=$k \
    $B/spira-spmv $M16 --formats sell --reps 3 --warmup 1 >/tmp/o/san.txt 2>&1
  echo "memcheck sell $(basename $M16) (kernels named *$k*): exit $? $(grep -E 'ERROR SUMMARY' /tmp/o/san.txt) $(grep -E '^sell ' /tmp/o/san.txt | awk '{print $6}') $(grep -o 'values all 1[^;]*' /tmp/o/san.txt | head -1)" >>"$L"
done
date -u >>"$L"; echo done >>"$L"
