#!/usr/bin/env bash
# session 29, call 8 (one H200): the tree of call 7 with the column tiles' loop back at 4
# ("new") against 72c32b4 ("old"): the whole GPU suite case by case (each case's seed
# kept); sell and auto on circuit 10^6 and R-MAT 2^20, old and new alternating, two rounds.
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/o /tmp/v/tests
. .device-run/env.sh
L=$OUT/run8.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit) and the tree after it"; date -u; } >"$L" 2>&1
python3 $R/bench/gen-irregular.py /tmp/m --problems rmat,circuit >/tmp/o/gen.txt 2>&1 &
cp $B/check_gpu /tmp/v/tests/check_gpu
(cd /tmp/v && sh $R/tests/gpu-cases.sh /tmp/v/cases 300) >>"$L" 2>&1
echo "suite: exit $?" >>"$L"
grep -h ":[FE]:\|test seed" /tmp/v/cases/*.log 2>/dev/null | head -30 >>"$L"
wait
row() { # $1 label, $2 matrix, $3 formats
  $B/spira-spmv $2 --formats $3 --reps 200 >/tmp/o/s.txt 2>&1
  echo "$1 $(basename $2): $(grep -E '^(cusparse|sell|auto) ' /tmp/o/s.txt | awk '{print $1, $4, $6, $7}' | tr '\n' ' ') b2b $(grep 'back to back:' /tmp/o/s.txt | awk '{print $4}' | tr '\n' ' ') graph $(grep 'in a graph:' /tmp/o/s.txt | awk '{print $4}' | tr '\n' ' ') $(grep -o 'chose [a-z-]*' /tmp/o/s.txt | head -1)" >>"$L"
}
for round in 1 2; do
  for M in /tmp/m/circuit-*.mtx /tmp/m/rmat-20.mtx; do
    for lib in old new; do
      LD_LIBRARY_PATH=$D/$lib/lib:$LD_LIBRARY_PATH row "round $round $lib" $M sell,auto
    done
  done
done
tar czf $OUT/cases8.tgz -C /tmp/v cases
date -u >>"$L"; echo done >>"$L"
