#!/usr/bin/env bash
# session 19, call 1 (one GPU): session 18's host code never run on a GPU (the dangling vector
# on threads, spira_matrix_rmat, host_csr through spira__csr_alloc) and this session's
# spira_matrix_reorder: compute-sanitizer on PageRank, the GPU suite, PageRank's setup on
# R-MAT 2^20, then spira-spmv on R-MAT 2^20 as generated and in degree and RCM order
# (issue 14: does a locality ordering give the irregular kernels their 1.2x?).
set -u
R=$PWD; D=$R/.device-run; B=$D/bin
. $D/env.sh
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/o
L=$OUT/run1.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit)"; date -u; } >"$L" 2>&1
cs() { compute-sanitizer --tool "$1" --report-api-errors no --error-exitcode 99 "${@:2}" >/tmp/cs.log 2>&1
  echo "$1 rc $? $(grep -m1 -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/cs.log) | ${*:2}" | sed "s|$B/||; s|$R/||" >>"$L"
  cat /tmp/cs.log >>"$OUT/sanitize.log"; }
for tool in memcheck racecheck; do
  for p in d s; do cs $tool $B/spira-pagerank $R/data/email-Eu-core.mtx --top 3 --precision $p; done
done
STAGES="suite" timeout 300 bash bench/gpu-verify.sh .device-run /tmp/vout >/dev/null 2>&1
cat /tmp/vout/summary.txt >>"$L"; cp /tmp/vout/suite.txt "$OUT/suite.txt"
echo "== PageRank at defaults on R-MAT 2^20 (--rmat 20:16), three processes" >>"$L"
for round in 1 2 3; do
  $B/spira-pagerank --rmat 20:16 --top 0 --repeat 3 2>&1 | grep -E "^  (time|format)|repeated" >>"$L"
done
echo "== PageRank --reorder degree / rcm on R-MAT 2^20" >>"$L"
for o in degree rcm; do
  $B/spira-pagerank --rmat 20:16 --top 0 --repeat 3 --reorder $o 2>&1 | grep -E "^  (time|format|reorder)|repeated" | sed "s/^/$o /" >>"$L"
done
for o in none degree rcm; do
  echo "== spira-spmv R-MAT 2^20, order $o" >>"$L"
  $B/spira-spmv --rmat 20:16 --reorder $o --reps 50 \
    --formats merge,sell,hyb,coo,csr-vector,lightspmv,suraa,cmrs,cusparse:alg=2,auto >>"$L" 2>&1
done
date -u >>"$L"; echo done >>"$L"
