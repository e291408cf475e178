#!/usr/bin/env bash
# session 15, GPU call 4: the GPU suite at HEAD, the trisolve seed, time to solution in 5 rounds
set -u
R=$PWD; D=$R/.device-run; B=$D/bin
. $D/env.sh
O=/tmp/o; mkdir -p $O
date -u > $O/times.txt
STAGES="suite" bash bench/gpu-verify.sh .device-run $O/verify > $O/verify-console.txt 2>&1
(cd /tmp && SPIRA_TEST_SEED=1795953635 CK_RUN_CASE=trisolve-sweeps SPIRA_DATA=$R/data $B/check_gpu 2>&1 | grep -E "Checks|F:") > $O/trisolve-seed.txt
date -u >> $O/times.txt
mkdir -p /tmp/tts/examples /tmp/tts/bench
for p in spira-solve spira-pagerank spira-spmv; do ln -sf $B/$p /tmp/tts/examples/$p; done
ln -sf $B/mmread-bench /tmp/tts/bench/mmread-bench
(cd /tmp/tts && SPIRA_COMMIT=$(cut -c1-7 $D/commit) RUNS=5 BUDGET=330 FORMATS=dia,cusparse,merge,hyb,coo \
   bash $R/bench/time-to-solution.sh $O/tts > $O/tts-console.txt 2>&1)
date -u >> $O/times.txt
cd $O && tar czf $OUT/all.tgz . && cp verify/summary.txt $OUT/verify-summary.txt; cp $O/tts/table.md times.txt trisolve-seed.txt $OUT/ 2>/dev/null
