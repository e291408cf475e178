#!/usr/bin/env bash
# session 15, GPU call 5: the GPU suite at HEAD (merge preloaded), time to solution on circuit and R-MAT
set -u
R=$PWD; D=$R/.device-run; B=$D/bin
. $D/env.sh
O=/tmp/o; mkdir -p $O
date -u > $O/times.txt
STAGES="suite" bash bench/gpu-verify.sh .device-run $O/verify > $O/verify-console.txt 2>&1 &
V=$!
mkdir -p /tmp/tts/examples /tmp/tts/bench
for p in spira-solve spira-pagerank spira-spmv; do ln -sf $B/$p /tmp/tts/examples/$p; done
ln -sf $B/mmread-bench /tmp/tts/bench/mmread-bench
wait $V
date -u >> $O/times.txt
(cd /tmp/tts && SPIRA_COMMIT=$(cut -c1-7 $D/commit) RUNS=5 BUDGET=200 PROBLEMS=circuit,rmat FORMATS=cusparse,merge,hyb,coo \
   bash $R/bench/time-to-solution.sh $O/tts > $O/tts-console.txt 2>&1)
date -u >> $O/times.txt
cd $O && tar czf $OUT/all.tgz . && cp verify/summary.txt $OUT/verify-summary.txt; cp $O/tts/table.md times.txt $OUT/ 2>/dev/null
