#!/usr/bin/env bash
# session 28, call 1 (one H200): column tiles on the side stream again, with the test fixed ("new")
# against 1214708 ("old"): the whole GPU suite case by case; memcheck and racecheck on the
# tile kernels and memcheck on all of sell's (a 600,000-row circuit matrix); sell and auto
# alone, back to back and in a graph, alternating processes, two rounds; the "cuda" case again.
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/o /tmp/v/tests /tmp/m6
. .device-run/env.sh
L=$OUT/run1.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit)"; date -u; } >"$L" 2>&1
python3 $R/bench/gen-irregular.py /tmp/m --problems rmat,circuit,knn --jobs 3 >/tmp/o/gen.txt 2>&1 &
python3 $R/bench/gen-irregular.py /tmp/m >/tmp/o/gen2.txt 2>&1 &
python3 $R/bench/gen-irregular.py /tmp/m6 --problems circuit --scale 0.6 >/tmp/o/gen3.txt 2>&1 &
python3 $R/bench/circuit-parts.py /tmp/m >/tmp/o/parts.txt 2>&1 &
cp $B/check_gpu /tmp/v/tests/check_gpu
(cd /tmp/v && sh $R/tests/gpu-cases.sh /tmp/v/cases 300) >>"$L" 2>&1
echo "suite: exit $?" >>"$L"
wait
for a in "memcheck tile" "racecheck tile" "memcheck sell"; do
  set -- $a
  timeout 150 compute-sanitizer --tool $1 --error-exitcode 99 --kernel-name kns=$2 \
    $B/spira-spmv /tmp/m6/circuit-600000.mtx --formats sell --reps 3 --warmup 1 >/tmp/o/san.txt 2>&1
  echo "$1 sell circuit 600,000 (kernels named *$2*): exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/o/san.txt) $(grep -E '^sell ' /tmp/o/san.txt | awk '{print $6}') $(grep -o '[0-9]* of them by column tiles[^;]*' /tmp/o/san.txt | head -1)" >>"$L"
done
for round in 1 2; do
  for lib in old new; do
    for m in /tmp/m/circuit-1000000.mtx $(ls /tmp/m/circuit-rows* 2>/dev/null | head -1) /tmp/m/rmat-20.mtx /tmp/m/powerlaw-1000000.mtx /tmp/m/knn-400000.mtx; do
      LD_LIBRARY_PATH=$D/$lib/lib:$LD_LIBRARY_PATH $B/spira-spmv $m --formats sell,auto --reps 200 >/tmp/o/s.txt 2>&1
      echo "round $round $lib $(basename $m): $(grep -E '^(cusparse|sell|auto) ' /tmp/o/s.txt | awk '{print $1, $6, $7}' | tr '\n' ' ') b2b $(grep 'back to back:' /tmp/o/s.txt | awk '{print $4}' | tr '\n' ' ') graph $(grep 'in a graph:' /tmp/o/s.txt | awk '{print $4}' | tr '\n' ' ') $(grep -o 'chose [a-z-]*\|[0-9]* of them by column tiles' /tmp/o/s.txt | tr '\n' ' ')" >>"$L"
    done
  done
done
(cd /tmp/v && sh $R/tests/gpu-cases.sh /tmp/v/cases2 300 cuda) >>"$L" 2>&1
echo "the cuda case again: exit $?" >>"$L"
date -u >>"$L"; echo done >>"$L"
