#!/usr/bin/env bash
# session 15, GPU call 1: verify at HEAD+, setup bench, cuSPARSE first-use traces
set -u
R=$PWD; D=$R/.device-run; B=$D/bin
. $D/env.sh
O=/tmp/o; mkdir -p $O
date -u > $O/times.txt
STAGES="suite sanitize spmv" bash bench/gpu-verify.sh .device-run $O/verify > $O/verify-console.txt 2>&1
date -u >> $O/times.txt
# traces: which cuSPARSE kernels run, and the gaps before them
mkdir -p $O/tr
M=/tmp/verify/m
tr() { # name cmd...
  local n=$1; shift
  CUDA_INJECTION64_PATH=$B/libgputrace.so GPU_TRACE=$O/tr/$n.csv "$@" > $O/tr/$n.out 2>&1
}
tr pr-cusparse $B/spira-pagerank $M/rmat-20.mtx --top 0 --repeat 2 --format cusparse
tr pr-merge $B/spira-pagerank $M/rmat-20.mtx --top 0 --repeat 2 --format merge
tr pr-auto $B/spira-pagerank $M/rmat-20.mtx --top 0 --repeat 2
tr knn-cusparse $B/spira-solve $M/knn-400000.mtx --tol 1e-8 --repeat 2 --format cusparse
tr circ-cusparse $B/spira-solve $M/circuit-1000000.mtx --solver bicgstab --precond jacobi --tol 1e-8 --repeat 2 --format cusparse
tr spmv-rmat $B/spira-spmv --formats cusparse --reps 5 --warmup 0 $M/rmat-20.mtx
tr spmv-knn $B/spira-spmv --formats cusparse --reps 5 --warmup 0 $M/knn-400000.mtx
tr spmv-circ $B/spira-spmv --formats cusparse --reps 5 --warmup 0 $M/circuit-1000000.mtx
tr spmv-lap $B/spira-spmv --formats cusparse --reps 5 --warmup 0 --laplacian 3:100
python3 $D/bin/gaps.py $O/tr/*.csv > $O/traces.txt 2>&1
for f in $O/tr/*.out; do echo "== $f"; cat $f; done > $O/traces-out.txt
date -u >> $O/times.txt
# setup in multiplies
mkdir -p /tmp/sb/examples && ln -sf $B/spira-spmv /tmp/sb/examples/spira-spmv
(cd /tmp/sb && FORMATS=sell,suraa,cmrs,coo,ell,hyb,dia,merge LAPLACIANS="2:1000 3:100" PKT=0 \
   bash $R/bench/setup-bench.sh $O/setup 0.5 > $O/setup-console.txt 2>&1)
date -u >> $O/times.txt
cd $O && tar czf $OUT/all.tgz . && cp verify/summary.txt $OUT/verify-summary.txt && cp traces.txt setup/summary.txt times.txt $OUT/ 2>/dev/null
cp $O/setup/summary.txt $OUT/setup-summary.txt 2>/dev/null
