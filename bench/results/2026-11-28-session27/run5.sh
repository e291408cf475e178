#!/usr/bin/env bash
# session 27, call 5 (one H200), 0f9dd0b: the whole GPU suite case by case (with the new
# gpu_spmv_time_graph); compute-sanitizer memcheck on spira-spmv's graph timing (sell,
# merge, csr-vector, auto) and racecheck on sell's kernels; the small matrices' multiply
# alone, back to back and in a graph with auto, sell and cuSPARSE's CSR, COO and SELL
# algorithms, two rounds; the large irregular matrices once.
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/o /tmp/v/tests
. .device-run/env.sh
L=$OUT/run5.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit)"; date -u; } >"$L" 2>&1
python3 $R/bench/gen-irregular.py /tmp/m --problems rmat,knn,circuit --jobs 3 >/tmp/o/gen.txt 2>&1 &
cp $B/check_gpu /tmp/v/tests/
(cd /tmp/v && sh $R/tests/gpu-cases.sh /tmp/v/cases 300) >>"$L" 2>&1
echo "suite: exit $?" >>"$L"
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 99 $B/spira-spmv $R/data/sherman5.mtx \
  --formats sell,merge,csr-vector,auto --reps 20 --warmup 1 >/tmp/o/san.txt 2>&1
echo "memcheck spira-spmv sherman5 (graph timing): exit $? $(grep -E 'ERROR SUMMARY' /tmp/o/san.txt) $(grep -c 'in a graph:' /tmp/o/san.txt) graph rows" >>"$L"
timeout 150 compute-sanitizer --tool racecheck --error-exitcode 99 --kernel-name kns=sell $B/spira-spmv \
  $D/m/wiki-Vote.mtx.gz --formats sell --reps 20 --warmup 1 >/tmp/o/san.txt 2>&1
echo "racecheck sell wiki-Vote (kernels named *sell*, graph timing): exit $? $(grep -E 'RACECHECK SUMMARY' /tmp/o/san.txt)" >>"$L"
F=$OUT/run5-spmv.txt; : >"$F"
for round in 1 2; do
  for m in $R/data/*.mtx $R/data/*.mtx.gz $D/m/G51.mtx.gz $D/m/bcsstk13.mtx.gz; do
    echo "=== round $round $(basename $m)" >>"$F"
    $B/spira-spmv $m --formats cusparse:alg=1,cusparse:alg=coo,cusparse:alg=sell,sell,auto --reps 300 >/tmp/o/s.txt 2>&1
    grep -E "in a graph|^fastest|^auto:|chose" /tmp/o/s.txt | cut -c1-200 >>"$F"
  done
done
wait
for m in circuit-1000000 knn-400000 rmat-20; do
  echo "=== $m" >>"$F"
  $B/spira-spmv /tmp/m/$m.mtx --formats sell,merge,auto --reps 200 >>"$F" 2>&1
done
date -u >>"$L"; echo done >>"$L"
