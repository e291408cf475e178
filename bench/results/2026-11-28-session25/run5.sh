#!/usr/bin/env bash
# session 25, call 5 (one H200): the transition test again (call 4 named its files without
# .mtx); why a repeated PageRank on R-MAT 2^20 took 5.9-8.0 ms with the new library and
# 4.8-5.3 with call 1's: the driver prints each repeat's format, setup and solve
# (SPIRA_REPEATS=1, a temporary print not committed), both libraries alternating.
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/o /tmp/v/tests
. .device-run/env.sh
L=$OUT/run5.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit) (+ the driver's repeat print)"; date -u; } >"$L" 2>&1
python3 $R/bench/gen-irregular.py /tmp/spira-tts --problems rmat >/tmp/o/gen.txt 2>&1 &
cp $B/check_gpu /tmp/v/tests/
(cd /tmp/v && sh $R/tests/gpu-cases.sh /tmp/v/cases 200 "conversion on the GPU") >>"$L" 2>&1
echo "suite case: exit $?" >>"$L"
wait
for round in 1 2 3; do
  for lib in old new; do
    echo "== round $round $lib" >>"$L"
    SPIRA_REPEATS=1 LD_LIBRARY_PATH=$D/$lib/lib:$LD_LIBRARY_PATH $B/spira-pagerank \
      /tmp/spira-tts/rmat-20.mtx --top 0 --repeat 5 2>&1 | grep -E "time |repeat|format " \
      | cut -c1-400 >>"$L"
  done
done
date -u >>"$L"; echo done >>"$L"
