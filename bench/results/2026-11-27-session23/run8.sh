#!/usr/bin/env bash
# session 23, call 8 (one H100), the library left on main: the time-to-solution table at
# defaults against the single formats and CuPy, seven processes a Spira contender (five
# in session 22, whose circuit row a single 42 ms upload decided).
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/o
. .device-run/env.sh
L=$OUT/run8.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit)"; date -u; } >"$L" 2>&1
mkdir -p /tmp/tts/examples /tmp/tts/bench
for p in spira-solve spira-pagerank spira-spmv; do ln -sf $B/$p /tmp/tts/examples/$p; done
ln -sf $B/mmread-bench /tmp/tts/bench/mmread-bench
(cd /tmp/tts && SPIRA_COMMIT=$(cut -c1-7 $D/commit) RUNS=7 BUDGET=440 \
   FORMATS=dia,merge,coo,hyb,sell timeout 500 bash $R/bench/time-to-solution.sh /tmp/o/tts > /tmp/o/tts-console.txt 2>&1)
echo "tts rc $?" >>"$L"
cp /tmp/o/tts/table.md "$OUT/run8-tts.md" 2>/dev/null
tail -32 /tmp/o/tts-console.txt >>"$L"
tar czf "$OUT/tts8-raw.tgz" -C /tmp/o tts/raw 2>/dev/null
date -u >>"$L"; echo done >>"$L"
