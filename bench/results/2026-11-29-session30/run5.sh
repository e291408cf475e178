#!/usr/bin/env bash
# session 30, call 5 (one H200), ecfe1e9 (multiplies launched from CUDA graphs): issue 13's
# time to solution on all six problems, the default against cusparse, dia, sell, merge and
# coo, and CuPy, three processes a Spira contender.
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/o
. .device-run/env.sh
L=$OUT/run5.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit)"; date -u; } >"$L" 2>&1
mkdir -p /tmp/tts/examples
for p in spira-solve spira-pagerank spira-spmv; do ln -sf $B/$p /tmp/tts/examples/$p; done
rm -rf /tmp/o/tts
(cd /tmp/tts && SPIRA_COMMIT=$(cut -c1-7 $D/commit) RUNS=3 BUDGET=400 \
   FORMATS=cusparse,dia,sell,merge,coo timeout 570 bash $R/bench/time-to-solution.sh /tmp/o/tts \
   > /tmp/o/tts-console.txt 2>&1)
echo "tts rc $?" >>"$L"
cp /tmp/o/tts/table.md "$OUT/run5-tts.md" 2>/dev/null
tar czf "$OUT/run5-tts-raw.tgz" -C /tmp/o/tts raw 2>/dev/null
tail -5 /tmp/o/tts-console.txt >>"$L"
date -u >>"$L"; echo done >>"$L"
