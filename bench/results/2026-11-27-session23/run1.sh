#!/usr/bin/env bash
# session 23, call 1 (one H100): SURAA and CMRS borrow the matrix's CSR entries (no copy of
# the matrix; SURAA's rows are spans of the CSR, CMRS keeps the CSR's order within a strip)
# against 716181a's library ("old"): the whole GPU suite (layouts converted on the GPU:
# spans, perm, packed words byte for byte the host's); setup in multiplies and SpMV times
# of cusparse, suraa, cmrs, csr-vector, new and old (bench/setup-bench.sh, scale 0.5, no
# pkt); memcheck and racecheck on suraa and cmrs in both precisions.
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
[ -n "${SKIP_SUITE:-}" ] || STAGES="suite" timeout 300 bash bench/gpu-verify.sh .device-run /tmp/vout >/tmp/verify.log 2>&1
. .device-run/env.sh
L=$OUT/run1.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit)"; date -u; cat /tmp/verify.log; } >"$L" 2>&1
cp /tmp/vout/suite.txt "$OUT/suite1.txt" 2>/dev/null
mkdir -p /tmp/sb/examples && ln -sf $B/spira-spmv /tmp/sb/examples/spira-spmv
OLD=$R/.device-run/old/lib:$LD_LIBRARY_PATH
for round in 1 2; do
  for lib in new old; do
    lp=$LD_LIBRARY_PATH; [ $lib = old ] && lp=$OLD
    (cd /tmp/sb && LD_LIBRARY_PATH=$lp PKT=0 EAGER=0 LAPLACIANS="2:1000 3:100" CONVERT_REPS=6 \
       FORMATS=cusparse,suraa,cmrs,csr-vector timeout 200 bash $R/bench/setup-bench.sh /tmp/sb/$lib$round 0.5 \
       >/tmp/sb/$lib$round.log 2>&1)
    echo "== $lib round $round: rc $?" >>"$L"
    grep -E "suraa|cmrs|csr-vector" /tmp/sb/$lib$round/summary.txt >>"$L"
  done
done
tar czf $OUT/setup1.tgz -C /tmp/sb new1 old1 new2 old2 2>/dev/null
for tool in memcheck racecheck; do
  for p in d s; do
    for f in "$R/data/adder_dcop_05.mtx" "--laplacian 2:60"; do
      compute-sanitizer --tool $tool --error-exitcode 99 $B/spira-spmv $f --precision $p --reps 2 --warmup 1 \
        --formats suraa,suraa:g3=scalar,suraa:segment=1,cmrs,cmrs:height=16,cmrs:height=1 >/tmp/cs.log 2>&1
      echo "$tool $p ${f##*/}: rc $? $(grep -m1 -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/cs.log); outside cuSPARSE: $(grep -E '^=+ (Error|Warning|Invalid|Race)' /tmp/cs.log | grep -vc 'cusparse::'); wrong: $(grep -c WRONG /tmp/cs.log)" >>"$L"
    done
  done
done
date -u >>"$L"; echo done >>"$L"
