#!/usr/bin/env bash
# session 30, call 2 (one H200), efaece2: (a) the circuit problem's time to solution, the
# default against merge (the same plan) and cusparse, seven processes a contender, with the
# raw logs (session 27: default 1.09-1.13x merge, setup 8.08 against 7.26 ms); (b) sell and
# auto on R-MAT 2^20, kNN and circuit with five conversions (warm setup after the hub
# count's changes), one round.
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/o
. .device-run/env.sh
L=$OUT/run2.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit)"; date -u; } >"$L" 2>&1
python3 $R/bench/gen-irregular.py /tmp/m --problems rmat,knn,circuit --jobs 3 >/tmp/o/gen.txt 2>&1
mkdir -p /tmp/tts/examples
for p in spira-solve spira-pagerank spira-spmv; do ln -sf $B/$p /tmp/tts/examples/$p; done
rm -rf /tmp/o/tts
(cd /tmp/tts && CACHE=/tmp/m SPIRA_COMMIT=$(cut -c1-7 $D/commit) RUNS=7 BUDGET=200 CUPY=0 PROBLEMS=circuit \
   FORMATS=cusparse,merge timeout 260 bash $R/bench/time-to-solution.sh /tmp/o/tts \
   > /tmp/o/tts-console.txt 2>&1)
echo "tts rc $?" >>"$L"
cp /tmp/o/tts/table.md "$OUT/run2-tts.md" 2>/dev/null
tar czf "$OUT/run2-tts-raw.tgz" -C /tmp/o/tts raw 2>/dev/null
tail -5 /tmp/o/tts-console.txt >>"$L"
for m in rmat-20 knn-400000 circuit-1000000; do
  echo "=== $m, five conversions" >>"$L"
  $B/spira-spmv /tmp/m/$m.mtx --formats sell,auto --convert-reps 5 --reps 100 >/tmp/o/s.txt 2>&1
  grep -E "^(format|cusparse|sell|auto) |back to back|chose" /tmp/o/s.txt | cut -c1-200 >>"$L"
done
date -u >>"$L"; echo done >>"$L"
