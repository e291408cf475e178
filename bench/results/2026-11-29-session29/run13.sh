#!/usr/bin/env bash
# session 29, call 13 (one H200): auto's statistics say whether sell would gather hub
# columns (a pattern of uneven rows only) and the cost model prices those at 1,100 GB/s:
# GPU cases cuda, conversion on the GPU (the statistics on the GPU against the host's, hub
# matrices among them) and layouts converted on the GPU; auto on R-MAT 2^20 over 106 and
# 606 multiplies (spira-spmv --reps 50 and 300), kNN and circuit over 606.
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/o /tmp/v/tests
. .device-run/env.sh
L=$OUT/run13.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit) and the tree after it"; date -u; } >"$L" 2>&1
python3 $R/bench/gen-irregular.py /tmp/m --problems rmat,knn,circuit --jobs 3 >/tmp/o/gen.txt 2>&1 &
cp $B/check_gpu /tmp/v/tests/check_gpu
(cd /tmp/v && sh $R/tests/gpu-cases.sh /tmp/v/cases 200 cuda "conversion on the GPU" "layouts converted on the GPU") >>"$L" 2>&1
echo "cases: exit $?" >>"$L"
grep -h ":[FE]:\|test seed" /tmp/v/cases/*.log 2>/dev/null | head -20 >>"$L"
wait
for run in rmat-20:50 rmat-20:300 knn-400000:300 circuit-1000000:300; do
  m=${run%:*}; reps=${run#*:}
  $B/spira-spmv /tmp/m/$m.mtx --formats auto --reps $reps >/tmp/o/s.txt 2>&1
  echo "$m, --reps $reps: $(grep -E '^(cusparse|auto) ' /tmp/o/s.txt | awk '{print $1, $4, $7}' | tr '\n' ' ') b2b $(grep 'back to back:' /tmp/o/s.txt | awk '{print $4}' | tr '\n' ' ') $(grep -o 'chose [a-z-]*, auto: [^(]*' /tmp/o/s.txt | head -1)" >>"$L"
done
date -u >>"$L"; echo done >>"$L"
