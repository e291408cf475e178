#!/usr/bin/env bash
# session 22, call 4 (one H100), the library to be left on main (ec52074: the staged
# choice, the lone multiply's ski-rental, values all 1 filled on the device; chunk_rows
# reverted): the whole GPU suite (the sparse-rows shape's layouts against the host's) and
# the time-to-solution table at defaults against the single formats and CuPy, five
# processes a Spira contender.
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/o
STAGES="suite" timeout 240 bash bench/gpu-verify.sh .device-run /tmp/vout >/tmp/verify.log 2>&1
. .device-run/env.sh
L=$OUT/run4.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit)"; date -u; cat /tmp/verify.log; } >"$L" 2>&1
cp /tmp/vout/suite.txt "$OUT/suite4.txt" 2>/dev/null
mkdir -p /tmp/tts/examples /tmp/tts/bench
for p in spira-solve spira-pagerank spira-spmv; do ln -sf $B/$p /tmp/tts/examples/$p; done
ln -sf $B/mmread-bench /tmp/tts/bench/mmread-bench
(cd /tmp/tts && SPIRA_COMMIT=$(cut -c1-7 $D/commit) RUNS=5 BUDGET=300 \
   FORMATS=dia,merge,coo,hyb,sell timeout 340 bash $R/bench/time-to-solution.sh /tmp/o/tts > /tmp/o/tts-console.txt 2>&1)
echo "tts rc $?" >>"$L"
cp /tmp/o/tts/table.md "$OUT/run4-tts.md" 2>/dev/null
tail -32 /tmp/o/tts-console.txt >>"$L"
tar czf "$OUT/tts4-raw.tgz" -C /tmp/o tts/raw 2>/dev/null
date -u >>"$L"; echo done >>"$L"
