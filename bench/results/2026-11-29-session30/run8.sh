#!/usr/bin/env bash
# session 30, call 8 (one H200), the tree after 90d0779 with a staged solve's first stage
# preferring the whole solve's format where the cheapest beats it by at most half its setup
# (spira__auto_rule's prefer): GPU cases cuda, conversion on the GPU and CG's graph; the
# time to solution of all six problems, the default against dia, sell, merge and cusparse
# (no CuPy: call 5 has it), three processes a contender; the kNN CG's timeline line.
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/o /tmp/v/tests
. .device-run/env.sh
L=$OUT/run8.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit) and the tree after it"; date -u; } >"$L" 2>&1
cp $B/check_gpu /tmp/v/tests/check_gpu
(cd /tmp/v && sh $R/tests/gpu-cases.sh /tmp/v/cases 200 cuda "conversion on the GPU" "CG's graph on the GPU") >>"$L" 2>&1
echo "cases: exit $?" >>"$L"
grep -h ":[FE]:\|test seed" /tmp/v/cases/*.log 2>/dev/null | head -20 >>"$L"
mkdir -p /tmp/tts/examples
for p in spira-solve spira-pagerank spira-spmv; do ln -sf $B/$p /tmp/tts/examples/$p; done
rm -rf /tmp/o/tts
(cd /tmp/tts && SPIRA_COMMIT=$(cut -c1-7 $D/commit)+ RUNS=3 BUDGET=300 CUPY=0 \
   FORMATS=cusparse,dia,sell,merge timeout 380 bash $R/bench/time-to-solution.sh /tmp/o/tts \
   > /tmp/o/tts-console.txt 2>&1)
echo "tts rc $?" >>"$L"
cp /tmp/o/tts/table.md "$OUT/run8-tts.md" 2>/dev/null
tar czf "$OUT/run8-tts-raw.tgz" -C /tmp/o/tts raw 2>/dev/null
for f in /tmp/o/tts/raw/*.default.1.log; do echo "$(basename $f): $(grep -E '^\s*format ' $f | cut -c1-330)" >>"$L"; done
date -u >>"$L"; echo done >>"$L"
