#!/usr/bin/env bash
# session 19, call 11 (one GPU), 941572e: call 10's two unmet rows again with seven processes
# a contender (their one-solve totals spread 10-19 ms and 18-29 ms over three): the circuit
# matrix (BiCGSTAB + Jacobi) and R-MAT 2^20 (PageRank), default against every single format.
set -u
R=$PWD; D=$R/.device-run; B=$D/bin
. $D/env.sh
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/o
L=$OUT/run11.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit)"; date -u; } >"$L" 2>&1
mkdir -p /tmp/tts/examples /tmp/tts/bench
for p in spira-solve spira-pagerank spira-spmv; do ln -sf $B/$p /tmp/tts/examples/$p; done
ln -sf $B/mmread-bench /tmp/tts/bench/mmread-bench
(cd /tmp/tts && SPIRA_COMMIT=$(cut -c1-7 $D/commit) CUPY=0 RUNS=7 BUDGET=240 PROBLEMS=circuit,rmat \
   FORMATS=cusparse,merge,hyb,coo,suraa timeout 400 bash $R/bench/time-to-solution.sh /tmp/o/tts11 > /tmp/o/tts-console.txt 2>&1)
echo "tts rc $?" >>"$L"
cp /tmp/o/tts11/table.md "$OUT/run11-tts.md" 2>/dev/null
date -u >>"$L"; echo done >>"$L"
