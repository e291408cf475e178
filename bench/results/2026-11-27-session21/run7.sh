#!/usr/bin/env bash
# session 21, calls 7 and 9 (one H100; call 7 straight after call 6 on the same machine,
# at 0e4cae4; call 9 at 9942b46, the staging copy on at most 8 threads, N=9): the
# time-to-solution table at defaults (bench/time-to-solution.sh) against the single formats
# that won each problem before and CuPy, three processes a contender.
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/o
. .device-run/env.sh
N=${N:-7}; L=$OUT/run$N.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit)"; date -u; } >"$L" 2>&1
mkdir -p /tmp/tts/examples /tmp/tts/bench
for p in spira-solve spira-pagerank spira-spmv; do ln -sf $B/$p /tmp/tts/examples/$p; done
ln -sf $B/mmread-bench /tmp/tts/bench/mmread-bench
(cd /tmp/tts && SPIRA_COMMIT=$(cut -c1-7 $D/commit) RUNS=3 BUDGET=300 \
   FORMATS=dia,merge,coo,hyb,sell timeout 560 bash $R/bench/time-to-solution.sh /tmp/o/tts > /tmp/o/tts-console.txt 2>&1)
echo "tts rc $?" >>"$L"
cp /tmp/o/tts/table.md "$OUT/run$N-tts.md" 2>/dev/null
tail -30 /tmp/o/tts-console.txt >>"$L"
tar czf "$OUT/tts$N-raw.tgz" -C /tmp/o tts/raw 2>/dev/null
date -u >>"$L"; echo done >>"$L"
