#!/usr/bin/env bash
# session 15, GPU call 2: GPU suite at HEAD, PageRank at defaults, time to solution
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
(cd /tmp/tts && SPIRA_COMMIT=$(cat $D/commit | cut -c1-7) RUNS=3 BUDGET=300 FORMATS=dia,ell,cusparse,merge,hyb,coo \
   bash $R/bench/time-to-solution.sh $O/tts > $O/tts-console.txt 2>&1)
date -u >> $O/times.txt
M=/tmp/spira-tts
for f in "" "--format cusparse"; do
  $B/spira-pagerank $(ls $M/rmat-20*.mtx 2>/dev/null | head -1) --top 0 --repeat 5 $f > $O/pr.txt 2>&1
  echo "== pagerank $f" >> $O/pagerank.txt; cat $O/pr.txt >> $O/pagerank.txt
done
date -u >> $O/times.txt
cd $O && tar czf $OUT/all.tgz . && cp verify/summary.txt $OUT/verify-summary.txt; cp $O/tts/table.md $OUT/ 2>/dev/null; cp times.txt pagerank.txt $OUT/
