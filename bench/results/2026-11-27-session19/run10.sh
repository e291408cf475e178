#!/usr/bin/env bash
# session 19, call 10 (one GPU), 941572e (the final library: preload warm-ups, merge's
# evict-first loads): the GPU suite's trisolve case 8 times with its seed printed (call 9's
# suite failed once there: ISAI-BiCGSTAB on west0067, GPU and CPU iterations 66 apart), then
# the time-to-solution table at defaults against the single formats and CuPy.
set -u
R=$PWD; D=$R/.device-run; B=$D/bin
. $D/env.sh
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/o /tmp/t/tests
L=$OUT/run10.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit)"; date -u; } >"$L" 2>&1
cp $B/check_gpu /tmp/t/tests/
for i in 1 2 3 4 5 6 7 8; do
  seed=$((1000 + 7919 * i))
  (cd /tmp/t && SPIRA_TEST_SEED=$seed CK_RUN_CASE=trisolve-sweeps timeout 60 ./tests/check_gpu 2>&1 | grep -E "Checks|:F:|:E:" | sed "s/^/seed $seed: /") >>"$L"
done
mkdir -p /tmp/tts/examples /tmp/tts/bench
for p in spira-solve spira-pagerank spira-spmv; do ln -sf $B/$p /tmp/tts/examples/$p; done
ln -sf $B/mmread-bench /tmp/tts/bench/mmread-bench
(cd /tmp/tts && SPIRA_COMMIT=$(cut -c1-7 $D/commit) RUNS=3 BUDGET=300 \
   FORMATS=dia,ell,merge,hyb,coo,sell,suraa timeout 470 bash $R/bench/time-to-solution.sh /tmp/o/tts > /tmp/o/tts-console.txt 2>&1)
echo "tts rc $?" >>"$L"
cp /tmp/o/tts/table.md "$OUT/tts.md" 2>/dev/null
tail -30 /tmp/o/tts-console.txt >>"$L"
tar czf "$OUT/tts-raw.tgz" -C /tmp/o tts/raw 2>/dev/null
date -u >>"$L"; echo done >>"$L"
