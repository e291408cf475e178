#!/usr/bin/env bash
# session 24, call 5 (one H200): builds beside the solve on the context's worker thread.
# The GPU suite's "cuda" case; the kNN solve at defaults with SPIRA_BACKGROUND 1 and 0
# alternating, six rounds; then the time-to-solution table on kNN alone (default,
# default-nobg, sell, merge; seven processes a contender).
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/o /tmp/v/tests
. .device-run/env.sh
L=$OUT/run5.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit)"; date -u; } >"$L" 2>&1
( python3 $R/bench/gen-irregular.py /tmp/spira-tts --problems knn >/tmp/o/gen.txt 2>&1 ) &
cp $B/check_gpu /tmp/v/tests/
(cd /tmp/v && CK_RUN_CASE=cuda timeout 200 ./tests/check_gpu >$OUT/suite5.txt 2>&1)
echo "suite cuda: exit $?" >>"$L"; grep -E "Checks|:[EF]:" $OUT/suite5.txt | head -5 >>"$L"
wait
for round in 1 2 3 4 5 6; do
  for v in 1 0; do
    SPIRA_BACKGROUND=$v $B/spira-solve /tmp/spira-tts/knn-400000.mtx --solver cg --tol 1e-8 >/tmp/o/k.txt 2>&1
    echo "knn bg=$v $round: $(grep -oE 'at iteration [0-9]+|built beside[^)]*\), waited [0-9.]+|not built beside[^;]*|format setup [0-9.]+|solver setup [0-9.]+|iterations [0-9.]+ ms' /tmp/o/k.txt | tr '\n' ' ')" >>"$L"
  done
done
mkdir -p /tmp/tts/examples /tmp/tts/bench
for p in spira-solve spira-pagerank spira-spmv; do ln -sf $B/$p /tmp/tts/examples/$p; done
ln -sf $B/mmread-bench /tmp/tts/bench/mmread-bench
(cd /tmp/tts && SPIRA_COMMIT=$(cut -c1-7 $D/commit) RUNS=7 BUDGET=150 CUPY=0 PROBLEMS=knn \
   DEFAULT_ALSO=nobg:SPIRA_BACKGROUND=0 FORMATS=sell,merge \
   timeout 200 bash $R/bench/time-to-solution.sh /tmp/o/tts > /tmp/o/tts-console.txt 2>&1)
echo "tts rc $?" >>"$L"
cp /tmp/o/tts/table.md "$OUT/run5-tts.md" 2>/dev/null
grep -E "^\| knn" /tmp/o/tts/table.md | cut -c1-200 >>"$L"
tar czf "$OUT/tts5-raw.tgz" -C /tmp/o tts/raw 2>/dev/null
date -u >>"$L"; echo done >>"$L"
