#!/usr/bin/env bash
# session 26, call 9 (one H200): the GPU suite's "cuda" case with gpu_sell_long_rows_many_slices
# on distinct columns (the long rows exactly 65, 1,024, 1,025, 40,000 and 3,000 entries).
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/v/tests
. .device-run/env.sh
L=$OUT/run9.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit) + the test's distinct columns"; date -u; } >"$L" 2>&1
cp $B/check_gpu /tmp/v/tests/
(cd /tmp/v && sh $R/tests/gpu-cases.sh /tmp/v/cases 200 cuda) >>"$L" 2>&1
echo "suite case: exit $?" >>"$L"
grep -c "gpu_sell_long_rows_many_slices" /tmp/v/cases/*.log >>"$L"
grep "gpu_sell_long_rows_many_slices" /tmp/v/cases/*.log | head -4 >>"$L"
date -u >>"$L"; echo done >>"$L"
