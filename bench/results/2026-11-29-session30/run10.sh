#!/usr/bin/env bash
# session 30, call 10 (one H200), 2b6fcd1 (the head): the whole GPU suite case by case;
# memcheck on a staged default CG (2-D Laplacian 300^2: csr-vector or the whole solve's
# format first, then the second look) and BiCGSTAB (sherman5), whose multiplies go
# through the plans' graphs.
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/o /tmp/v/tests
. .device-run/env.sh
L=$OUT/run10.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit)"; date -u; } >"$L" 2>&1
cp $B/check_gpu /tmp/v/tests/check_gpu
(cd /tmp/v && sh $R/tests/gpu-cases.sh /tmp/v/cases 300) >>"$L" 2>&1
echo "suite: exit $?" >>"$L"
grep -h ":[FE]:\|test seed" /tmp/v/cases/*.log 2>/dev/null | head -30 >>"$L"
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 99 $B/spira-solve --laplacian 2:300 \
  --solver cg --backend cuda >/tmp/o/san.txt 2>&1
echo "memcheck CG laplacian 2:300: exit $? $(grep -E 'ERROR SUMMARY' /tmp/o/san.txt) $(grep -E 'format  |result' /tmp/o/san.txt | tr -s ' ' | cut -c1-300 | tr '\n' ' ')" >>"$L"
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 99 $B/spira-solve $R/data/sherman5.mtx \
  --solver bicgstab --precond jacobi --backend cuda >/tmp/o/san.txt 2>&1
echo "memcheck BiCGSTAB sherman5: exit $? $(grep -E 'ERROR SUMMARY' /tmp/o/san.txt) $(grep -E 'result' /tmp/o/san.txt | tr -s ' ')" >>"$L"
date -u >>"$L"; echo done >>"$L"
