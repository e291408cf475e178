#!/usr/bin/env bash
# session 19, call 14 (one GPU): call 13 again after keeping evict-first loads only where a
# warp reads whole segments once: sell's main kernel (not its wide-slice kernel), ell (and
# hyb's ELL part), coo (and hyb's COO part), suraa's Y-threads-a-row kernel and warp-wide
# CSR rows (csr-vector, lightspmv, suraa with V = 32); plain again in SURAA's thread-a-row
# loop and rows of V < 32 lanes. Each format new against 71cfe67's library (old), two
# rounds alternating, double, four matrices; then memcheck and racecheck.
set -u
R=$PWD; D=$R/.device-run; B=$D/bin
. $D/env.sh
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/m
L=$OUT/run14.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit) + evict-first loads in the other formats"; date -u; } >"$L" 2>&1
python3 bench/gen-irregular.py /tmp/m --problems knn,circuit --jobs 2 >/dev/null 2>&1
F=sell,hyb,coo,suraa,csr-vector,lightspmv,ell
for round in 1 2; do
  for lib in new old; do
    [ $lib = old ] && LP=$D/old/lib:$LD_LIBRARY_PATH || LP=$LD_LIBRARY_PATH
    for src in "--rmat 20:16" "--laplacian 3:150" /tmp/m/knn-400000.mtx /tmp/m/circuit-1000000.mtx; do
      LD_LIBRARY_PATH=$LP $B/spira-spmv $src --formats $F --reps 100 2>&1 | grep -E '^(sell|hyb|coo|suraa|csr-vector|lightspmv|ell|cusparse) ' |
        awk -v r=$round -v l=$lib -v m="$src" '{print "round " r " " l " " m ": " $1, $6, $7, $10}' >>"$L"
    done
  done
done
for tool in memcheck racecheck; do
  compute-sanitizer --tool $tool --report-api-errors no --error-exitcode 99 $B/spira-spmv $R/data/email-Eu-core.mtx \
    --reps 2 --warmup 1 --formats $F,sell:sigma=32 >/tmp/cs.log 2>&1
  echo "$tool rc $? $(grep -m1 -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/cs.log)" >>"$L"
  grep -E "^=========     (at|by) " /tmp/cs.log | grep -v -i "cusparse\|csrmv" | head -3 >>"$L"
done
date -u >>"$L"; echo done >>"$L"
