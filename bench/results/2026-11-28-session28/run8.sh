#!/usr/bin/env bash
# session 28, call 8 (one H200): sell's hub columns (the tree after 7363799, "new") against
# 7363799 ("old"), in the device time left: the GPU cases cuda, layouts converted on the
# GPU (hub layouts against the host's), conversion on the GPU and reorder; sell and auto on
# R-MAT 2^20 alternating, two rounds; memcheck on sell's and the hub kernels (R-MAT 2^18).
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/o /tmp/v/tests /tmp/m18
. .device-run/env.sh
L=$OUT/run8.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit) and the tree after it"; date -u; } >"$L" 2>&1
python3 $R/bench/gen-irregular.py /tmp/m --problems rmat >/tmp/o/gen.txt 2>&1 &
python3 $R/bench/gen-irregular.py /tmp/m18 --problems rmat --scale 0.25 >/tmp/o/gen18.txt 2>&1 &
cp $B/check_gpu /tmp/v/tests/check_gpu
(cd /tmp/v && sh $R/tests/gpu-cases.sh /tmp/v/cases 200 cuda "layouts converted on the GPU") >>"$L" 2>&1
echo "cases: exit $?" >>"$L"
grep -h ":[FE]:" /tmp/v/cases/*.log 2>/dev/null | head -20 >>"$L"
wait
for round in 1 2; do
  for lib in old new; do
    LD_LIBRARY_PATH=$D/$lib/lib:$LD_LIBRARY_PATH $B/spira-spmv /tmp/m/rmat-20.mtx --formats sell,auto --reps 200 >/tmp/o/s.txt 2>&1
    echo "round $round $lib rmat-20: $(grep -E '^(cusparse|sell|auto) ' /tmp/o/s.txt | awk '{print $1, $3, $6, $7}' | tr '\n' ' ') b2b $(grep 'back to back:' /tmp/o/s.txt | awk '{print $4}' | tr '\n' ' ') graph $(grep 'in a graph:' /tmp/o/s.txt | awk '{print $4}' | tr '\n' ' ') $(grep -o 'chose [a-z-]*\|[0-9]* hub columns' /tmp/o/s.txt | sort -u | tr '\n' ' ')" >>"$L"
  done
done
(cd /tmp/v && sh $R/tests/gpu-cases.sh /tmp/v/cases2 100 "conversion on the GPU" reorder) >>"$L" 2>&1
M18=$(ls /tmp/m18/rmat-*.mtx | head -1)
for k in hub sell; do
  timeout 60 compute-sanitizer --tool memcheck --error-exitcode 99 --kernel-name kns=$k \
    $B/spira-spmv $M18 --formats sell --reps 3 --warmup 1 >/tmp/o/san.txt 2>&1
  echo "memcheck sell $(basename $M18) (kernels named *$k*): exit $? $(grep -E 'ERROR SUMMARY' /tmp/o/san.txt) $(grep -E '^sell ' /tmp/o/san.txt | awk '{print $6}') $(grep -o '[0-9]* hub columns[^;]*' /tmp/o/san.txt | head -1)" >>"$L"
done
date -u >>"$L"; echo done >>"$L"
