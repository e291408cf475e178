#!/usr/bin/env bash
# session 30, call 13 (one H200), 61213db (the head): the whole GPU suite case by case and
# memcheck on a Jacobi BiCGSTAB (sherman5) through the plans' graphs.
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/o /tmp/v/tests
. .device-run/env.sh
L=$OUT/run13.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit)"; date -u; } >"$L" 2>&1
cp $B/check_gpu /tmp/v/tests/check_gpu
(cd /tmp/v && sh $R/tests/gpu-cases.sh /tmp/v/cases 170) >>"$L" 2>&1
echo "suite: exit $?" >>"$L"
grep -h ":[FE]:" /tmp/v/cases/*.log 2>/dev/null | head -20 >>"$L"
timeout 40 compute-sanitizer --tool memcheck --error-exitcode 99 $B/spira-solve $R/data/sherman5.mtx \
  --solver bicgstab --precond jacobi --backend cuda >/tmp/o/san.txt 2>&1
echo "memcheck BiCGSTAB sherman5: exit $? $(grep -E 'ERROR SUMMARY' /tmp/o/san.txt) $(grep -E 'result' /tmp/o/san.txt | tr -s ' ')" >>"$L"
date -u >>"$L"; echo done >>"$L"
