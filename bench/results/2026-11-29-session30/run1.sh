#!/usr/bin/env bash
# session 30, call 1 (one H200), efaece2: sell's hub count only where hubs are possible, and
# kept in the device CSR (auto's statistics count once; sell's build skips the count where
# there are none): the whole GPU suite case by case (layouts converted on the GPU has the
# new cases); memcheck on spira-spmv sell,auto on R-MAT 2^18; bench/launch-floor.cu with the
# driver's cuLaunchKernel, cudaLaunchKernelExC and a one-kernel graph, beside auto on the
# small matrices (alone, back to back, in a graph; setup), two rounds.
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/o /tmp/v/tests
. .device-run/env.sh
L=$OUT/run1.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit)"; date -u; } >"$L" 2>&1
python3 $R/bench/gen-irregular.py /tmp/m18 --problems rmat --scale 0.25 >/tmp/o/gen18.txt 2>&1 &
cp $B/check_gpu /tmp/v/tests/check_gpu
(cd /tmp/v && sh $R/tests/gpu-cases.sh /tmp/v/cases 300) >>"$L" 2>&1
echo "suite: exit $?" >>"$L"
grep -h ":[FE]:\|test seed" /tmp/v/cases/*.log 2>/dev/null | head -30 >>"$L"
wait
M18=$(ls /tmp/m18/rmat-*.mtx | head -1)
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 99 \
  $B/spira-spmv $M18 --formats sell,auto --reps 2 --warmup 1 >/tmp/o/san.txt 2>&1
echo "memcheck spira-spmv sell,auto $(basename $M18): exit $? $(grep -E 'ERROR SUMMARY' /tmp/o/san.txt) $(grep -E '^(sell|auto) ' /tmp/o/san.txt | awk '{print $1, $6}' | tr '\n' ' ')" >>"$L"
for round in 1 2; do
  $B/launch-floor >>"$L" 2>&1
  for m in $R/data/*.mtx $R/data/*.mtx.gz $D/m/G51.mtx.gz $D/m/bcsstk13.mtx.gz; do
    $B/spira-spmv $m --formats auto --reps 300 >/tmp/o/s.txt 2>&1
    echo "round $round $(basename $m): $(grep -E '^(cusparse|auto) ' /tmp/o/s.txt | awk '{print $1, $2, $3, $4, $7}' | tr '\n' ' ') b2b $(grep 'back to back:' /tmp/o/s.txt | awk '{print $4}' | tr '\n' ' ') graph $(grep 'in a graph:' /tmp/o/s.txt | awk '{print $4}' | tr '\n' ' ') $(grep -o 'chose [a-z-]*' /tmp/o/s.txt | head -1)" >>"$L"
  done
done
date -u >>"$L"; echo done >>"$L"
