#!/usr/bin/env bash
# session 24, call 6 (one H200): the library left on main (991045c, building beside off by
# default): the whole GPU suite case by case, and a staged CG with SPIRA_BACKGROUND=1 under
# memcheck.
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/v/tests
. .device-run/env.sh
L=$OUT/run6.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit)"; date -u; } >"$L" 2>&1
cp $B/check_gpu /tmp/v/tests/
(cd /tmp/v && sh $R/tests/gpu-cases.sh /tmp/v/cases 200) >>"$L" 2>&1
echo "suite: exit $?" >>"$L"
SPIRA_BACKGROUND=1 SPIRA_SANITIZE=1 timeout 100 compute-sanitizer --tool memcheck --error-exitcode 99 \
  $B/spira-solve --laplacian 3:40 --solver bicgstab --backend cuda >/tmp/v/san.txt 2>&1
echo "memcheck staged BiCGSTAB, SPIRA_BACKGROUND=1: exit $?" >>"$L"
grep -E "beside|SUMMARY" /tmp/v/san.txt | cut -c1-300 >>"$L"
date -u >>"$L"; echo done >>"$L"
