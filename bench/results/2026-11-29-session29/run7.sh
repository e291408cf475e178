#!/usr/bin/env bash
# session 29, call 7 (one H200): the tree after 72c32b4 with sell's chunk loop unrolled 8,
# chunks of 3,072 with hubs and the gather's dependent launch ("new") against 72c32b4
# ("old"): GPU cases cuda, layouts converted on the GPU, conversion on the GPU; memcheck
# and racecheck on sell_kernel and the hub gather on R-MAT 2^20 (many slices, hubs:
# chunks of 3,072); sell and auto, old and new alternating, two rounds, on R-MAT 2^20,
# power-law 10^6, circuit 10^6, kNN and four shared matrices with long rows.
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/o /tmp/v/tests /tmp/s
. .device-run/env.sh
L=$OUT/run7.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit) and the tree after it"; date -u; } >"$L" 2>&1
python3 $R/bench/gen-irregular.py /tmp/m --problems rmat,circuit,knn >/tmp/o/gen.txt 2>&1 &
python3 $R/bench/gen-irregular.py /tmp/g 1000000 >/tmp/o/gen2.txt 2>&1 &
for f in $D/m/*.gz; do gunzip -c $f >/tmp/s/$(basename $f .gz); done
cp $B/check_gpu /tmp/v/tests/check_gpu
(cd /tmp/v && sh $R/tests/gpu-cases.sh /tmp/v/cases 240 cuda "layouts converted on the GPU" "conversion on the GPU") >>"$L" 2>&1
echo "cases: exit $?" >>"$L"
grep -h ":[FE]:" /tmp/v/cases/*.log 2>/dev/null | head -20 >>"$L"
wait
M=/tmp/m/rmat-20.mtx
for tool in memcheck racecheck; do
  for k in sell_kernel hub_gather; do
    timeout 240 compute-sanitizer --tool $tool --error-exitcode 99 --kernel-name kns=$k \
      $B/spira-spmv $M --formats sell --reps 2 --warmup 1 >/tmp/o/san.txt 2>&1
    echo "$tool sell rmat-20 (kernels named *$k*): exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/o/san.txt) $(grep -E '^sell ' /tmp/o/san.txt | awk '{print $6}')" >>"$L"
  done
done
row() { # $1 label, $2 matrix, $3 formats
  $B/spira-spmv $2 --formats $3 --reps 200 >/tmp/o/s.txt 2>&1
  echo "$1 $(basename $2): $(grep -E '^(cusparse|sell|auto) ' /tmp/o/s.txt | awk '{print $1, $4, $6, $7}' | tr '\n' ' ') b2b $(grep 'back to back:' /tmp/o/s.txt | awk '{print $4}' | tr '\n' ' ') graph $(grep 'in a graph:' /tmp/o/s.txt | awk '{print $4}' | tr '\n' ' ') $(grep -o 'chose [a-z-]*' /tmp/o/s.txt | head -1)" >>"$L"
}
for round in 1 2; do
  for M in /tmp/m/rmat-20.mtx /tmp/g/powerlaw-1000000.mtx /tmp/m/circuit-*.mtx /tmp/m/knn-*.mtx /tmp/s/*.mtx; do
    for lib in old new; do
      LD_LIBRARY_PATH=$D/$lib/lib:$LD_LIBRARY_PATH row "round $round $lib" $M sell,auto
    done
  done
done
grep -h "hub columns\|long rows" /tmp/o/s.txt | head -3 >>"$L"
date -u >>"$L"; echo done >>"$L"
