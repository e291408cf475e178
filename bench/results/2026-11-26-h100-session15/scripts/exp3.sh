#!/usr/bin/env bash
# session 15, GPU call 3: SURAA/CMRS conversion traces, time to solution in rounds
set -u
R=$PWD; D=$R/.device-run; B=$D/bin
. $D/env.sh
O=/tmp/o; mkdir -p $O/tr
date -u > $O/times.txt
mkdir -p /tmp/tts/examples /tmp/tts/bench
for p in spira-solve spira-pagerank spira-spmv; do ln -sf $B/$p /tmp/tts/examples/$p; done
ln -sf $B/mmread-bench /tmp/tts/bench/mmread-bench
(cd /tmp/tts && SPIRA_COMMIT=$(cut -c1-7 $D/commit) RUNS=3 BUDGET=300 FORMATS=dia,ell,cusparse,merge,hyb,coo \
   bash $R/bench/time-to-solution.sh $O/tts > $O/tts-console.txt 2>&1)
date -u >> $O/times.txt
M=/tmp/spira-tts
for f in suraa cmrs; do
  for m in "--laplacian 2:1000" "$M/knn-400000.mtx"; do
    n=$f-$(echo $m | tr -c 'a-z0-9' _ | tail -c 20)
    CUDA_INJECTION64_PATH=$B/libgputrace.so GPU_TRACE=$O/tr/$n.csv $B/spira-spmv --formats $f --convert-reps 6 --reps 20 $m > $O/tr/$n.out 2>&1
    k=keys_kernel; [ $f = cmrs ] && k=cmrs_fill
    python3 $B/around.py $O/tr/$n.csv $k 14 22 >> $O/conv-traces.txt 2>&1
    grep -E "^$f " $O/tr/$n.out >> $O/conv-traces.txt
  done
done
date -u >> $O/times.txt
cd $O && tar czf $OUT/all.tgz . && cp $O/tts/table.md conv-traces.txt times.txt $OUT/ 2>/dev/null
# the trisolve case that failed in call 2 (seed 1795953635), again with that seed and 4 others
cd /tmp && mkdir -p tri && cd tri
for seed in 1795953635 1795953635 11 22 33 44; do
  echo "== seed $seed" >> $OUT/trisolve.txt
  SPIRA_TEST_SEED=$seed CK_RUN_CASE=trisolve-sweeps SPIRA_DATA=$R/data $B/check_gpu 2>&1 | grep -E "Checks|F:" >> $OUT/trisolve.txt
done
