#!/usr/bin/env bash
# session 21, call 8 (one H100): the staging copy on at most 8 threads (half the GPU
# machine's 16; calls 1-2 found 16 threads' uploads at 6-31 ms in some processes): the
# time-to-solution of the two problems whose default lost to the same format named (call 7:
# 27-point stencil, dia; kNN, sell), five processes a contender, and call 2's upload rounds.
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/o /tmp/m
. .device-run/env.sh
L=$OUT/run8.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit) + staging on <= 8 threads"; date -u; } >"$L" 2>&1
mkdir -p /tmp/tts/examples /tmp/tts/bench
for p in spira-solve spira-pagerank spira-spmv; do ln -sf $B/$p /tmp/tts/examples/$p; done
ln -sf $B/mmread-bench /tmp/tts/bench/mmread-bench
(cd /tmp/tts && SPIRA_COMMIT=$(cut -c1-7 $D/commit) RUNS=5 BUDGET=150 PROBLEMS=stencil27,knn \
   FORMATS=dia,sell timeout 300 bash $R/bench/time-to-solution.sh /tmp/o/tts > /tmp/o/tts-console.txt 2>&1)
echo "tts rc $?" >>"$L"
cp /tmp/o/tts/table.md "$OUT/run8-tts.md" 2>/dev/null
tail -14 /tmp/o/tts-console.txt >>"$L"
tar czf "$OUT/tts8-raw.tgz" -C /tmp/o tts/raw 2>/dev/null
K=$(ls /tmp/spira-tts/knn-400000.mtx 2>/dev/null | head -1)
[ -n "$K" ] || { python3 bench/gen-irregular.py /tmp/m --problems knn --jobs 1 >/dev/null 2>&1; K=/tmp/m/knn-400000.mtx; }
for round in 1 2 3 4 5; do
  for t in 16 8; do
    OMP_NUM_THREADS=$t "$B/spira-solve" "$K" --solver cg --tol 1e-8 2>&1 |
      grep -oE "realized: setup [^;)]*\)" | sed "s/^/round $round OMP_NUM_THREADS=$t (staging on $((t / 2))): /" >>"$L"
  done
done
date -u >>"$L"; echo done >>"$L"
